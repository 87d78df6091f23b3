#!/usr/bin/env bash
# qos_cli.sh: `ibnetsim qos table` as a user runs it: the paper's worked example (Fig. 6c)
# leaves entries 19 and 51 free with 11 wasted entries, the OpenSM string has 64 entries and
# loads back through a scenario's qos.vlarb_high, shared sequences recompute weights, the
# 4-VL variant refuses distances below 16; bad requests and options exit 2 with a reason.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails+1)); fi; }
"$bin" qos table 45 8 53 61 60 55 24 3 9 > "$tmp/ex" || { echo "FAIL: qos table exit"; exit 1; }
check "worked example: free entries 19 and 51" '[ "$(grep -c " free$" "$tmp/ex")" = 2 ] && grep -qE "^ +19 +- +- +free" "$tmp/ex" && grep -qE "^ +51 +- +- +free" "$tmp/ex"'
check "worked example: 11 wasted entries" 'grep -q "placed 9 of 9 requests; wasted entries 11; free entries 2" "$tmp/ex"'
s=$(grep '^qos_vlarb_high ' "$tmp/ex" | cut -d' ' -f2)
check "64 entries in the OpenSM string" '[ "$(echo "$s" | tr , "\n" | wc -l)" = 64 ]'
printf 'topology = { generator = "single_switch"; args = "ports=4"; };\nqos = { vlarb_high = "%s"; };\nfabric = { vls = 8; };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; kind = "saturate"; } );\nsimulation = { duration = "10 us"; };\n' "$s" > "$tmp/s.cfg"
check "the string loads as qos.vlarb_high" '"$bin" run "$tmp/s.cfg" -o "$tmp/r" >/dev/null 2>"$tmp/err"'
"$bin" qos table --share 45:1 53:3 61:1 > "$tmp/sh"
check "shared sequence: 5 Mb/s over 2 entries -> weight 17" 'grep -qE "^ +1 +4 +17 +shared" "$tmp/sh"'
"$bin" qos table --vls 4 8 45 > "$tmp/v4"
check "4-VL variant refuses 8, serves 45 at 16" 'grep -q "request 1 (distance 8): refused, distance not offered" "$tmp/v4" && grep -q "wasted entries 2" "$tmp/v4"'
expect() {
  local name=$1 pattern=$2; shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$pattern" "$tmp/err"; then
    echo "FAIL: $name: exit $rc, stderr:"; cat "$tmp/err"; fails=$((fails+1))
  else echo "ok: $name: $(head -1 "$tmp/err")"; fi
}
expect "bad request" 'request "0x": expected D\[:MBPS\[:VL\]\]' -- qos table 0x
expect "distance above 64" 'request "65"' -- qos table 65
expect "bad method" '-m expects cesy or cenre' -- qos table -m foo 4
expect "no requests" 'no requests' -- qos table
expect "bad rate" '--rate expects a positive rate' -- qos table --rate -1 4
"$bin" qos table 1 4:3000 > "$tmp/imp"
check "impossible requests refused with a reason" 'grep -q "request 1 (distance 1): refused, distance not offered" "$tmp/imp" && grep -q "request 2 (distance 4): refused, 3000 Mb/s needs more" "$tmp/imp"'
"$bin" qos table --share 4:3000 > "$tmp/imp2"
check "above the link refused (shared)" 'grep -q "refused, above-link" "$tmp/imp2"'
exit $((fails > 0))
