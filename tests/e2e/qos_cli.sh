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
# qos admit: admission on a topology without traffic
"$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --stop-fails 300 --dump "$tmp/tables" > "$tmp/adm" 2>"$tmp/err"
check "admit runs and reports Table 3's reservation rows" 'grep -q "mean reservation: adapter ports" "$tmp/adm" && grep -q "refused by cause:.*bandwidth" "$tmp/adm"'
check "admit dumps qos_vlarb_high per port" '[ "$(head -1 "$tmp/tables" | cut -d" " -f3)" = qos_vlarb_high ] && [ "$(head -1 "$tmp/tables" | cut -d" " -f4 | tr , "\n" | wc -l)" = 64 ]'
"$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --stop-fails 300 --scheme sm > "$tmp/sm"
check "sm reserves as hop does" '[ "$(grep "mean reservation" "$tmp/adm")" = "$(grep "mean reservation" "$tmp/sm")" ]'
for s in sum probe; do
  "$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --stop-fails 300 --scheme $s > "$tmp/$s"
  check "scheme $s runs" 'grep -q "scheme $s" "$tmp/$s"'
done
"$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --requests 200 --deadline 100us > "$tmp/dl"
check "a deadline no hop can promise is refused as such" 'grep -q "refused by cause: deadline 200" "$tmp/dl"'
"$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --requests 2000 --dynamic 1000 0.05 > "$tmp/dyn"
check "dynamic requests" 'grep -q "dynamic" "$tmp/dyn"'
expect "admit: bad scheme" '--scheme expects hop, sm, sum or probe' -- qos admit gen:single_switch --scheme x
expect "admit: no topology" 'no topology' -- qos admit
expect "admit: dynamic without requests" '--dynamic needs --requests' -- qos admit gen:single_switch --dynamic 1 1
expect "admit: bad cap" '--cap expects a fraction' -- qos admit gen:single_switch --cap 1.5
expect "admit: bad deadline" '--deadline' -- qos admit gen:single_switch --deadline 5
"$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --requests 300 --deadline 20ms > "$tmp/xb0"
"$bin" qos admit 'gen:irregular:switches=4,link=2.5Gb/s' --requests 300 --deadline 20ms --read-ports 1 > "$tmp/xb1"
check "admit: the table-only hop bound by default, the crossbar's with --read-ports" 'grep -q "hop bound: the table alone" "$tmp/xb0" && grep -q "hop bound: the table plus the crossbar (1 read port per switch input, 60 packets" "$tmp/xb1"'
check "admit --read-ports: switch ports at shorter distances refuse for table entries (none without)" '! grep -q "table-entries" "$tmp/xb0" && grep -q "refused by cause:.*table-entries" "$tmp/xb1"'
expect "admit: bad read ports" '--read-ports expects a count' -- qos admit gen:single_switch --read-ports x
# qos admit's roots: the keys of a run (topology.roots, root_guid_file). Without them updn's
# automatic choice finds no root on these irregular networks and falls back to minhop (said on
# the routes line); with the run's roots = "best3" it admits exactly what a run of the same
# network and roots admits before its traffic (summary.json's connections.accepted). On 6
# switches the two routes admit different counts (on 4 and 5 the same).
irr='gen:irregular:switches=6,link=2.5Gb/s'
"$bin" qos admit "$irr" --stop-fails 300 > "$tmp/r0"
"$bin" qos admit "$irr" --stop-fails 300 --roots best3 > "$tmp/r3"
check "admit without roots: the fallback to minhop is said" 'grep -q "^routes: updn: no root switch found; fell back to minhop" "$tmp/r0"'
check "admit --roots best3: up*/down* from the best root" 'grep -q "^routes: updn: best of three roots: " "$tmp/r3"'
cat > "$tmp/conn.cfg" <<'CFG'
simulation = { duration = "1 us"; warmup = "0 ms"; seed = 1; };
topology = { generator = "irregular"; args = "switches=6,link=2.5Gb/s"; routing = "updn"; roots = "best3"; };
fabric = { vls = 15; mtu = 256; };
switch = { buffer = "1 KiB"; };
hca = { buffer = "1 KiB"; };
output = { flow_series = false; port_series = false; progress = "never"; };
connections = { process = "fill"; stop_fails = 300; sls = "table2"; packet = "256 B"; };
CFG
"$bin" run "$tmp/conn.cfg" -o "$tmp/conn" -q 2>"$tmp/err"
run_acc=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["connections"]["accepted"])' "$tmp/conn/summary.json")
adm_acc=$(sed -n 's/^requests [0-9]*, accepted \([0-9]*\),.*/\1/p' "$tmp/r3")
adm_acc0=$(sed -n 's/^requests [0-9]*, accepted \([0-9]*\),.*/\1/p' "$tmp/r0")
check "admit --roots best3 admits what the run admits ($adm_acc, run $run_acc; minhop routes $adm_acc0)" '[ -n "$adm_acc" ] && [ "$adm_acc" = "$run_acc" ] && [ "$adm_acc0" != "$run_acc" ]'
g2=$("$bin" topo switches "$irr" | awk '$1 == "S2" { print $3 }')
printf '# OpenSM root_guid_file\n%s\n' "$g2" > "$tmp/roots.guids"
"$bin" qos admit "$irr" --stop-fails 300 -a "$tmp/roots.guids" > "$tmp/ra"
"$bin" qos admit "$irr" --stop-fails 300 --root_guid_file "$tmp/roots.guids" > "$tmp/rb"
"$bin" qos admit "$irr" --stop-fails 300 --roots S2 > "$tmp/rs"
nocpu() { grep -v "s of CPU" "$1"; } # all but the line with the CPU time
check "admit -a FILE (OpenSM's root_guid_file) roots at S2, as --roots S2" 'grep -q "^routes: updn: 1 root: S2$" "$tmp/ra" && diff <(nocpu "$tmp/ra" | grep -v ^routes) <(nocpu "$tmp/rs" | grep -v ^routes) >/dev/null && diff <(nocpu "$tmp/ra") <(nocpu "$tmp/rb") >/dev/null'
printf '%s\n\n0x00000000000000ff\n' "$g2" > "$tmp/bad.guids"
expect "admit: a GUID of no switch in the root file, with its line" 'bad.guids:3: root "0x00000000000000ff" is not a switch' -- qos admit "$irr" -a "$tmp/bad.guids"
expect "admit: a root that is no switch" 'root "H1" is not a switch' -- qos admit "$irr" --roots H1
expect "admit: both roots and a root file" 'give --roots or --root_guid_file, not both' -- qos admit "$irr" --roots S1 -a "$tmp/roots.guids"
expect "admit: a root file that does not open" 'cannot open' -- qos admit "$irr" -a "$tmp/none.guids"
expect "admit: roots for an engine without roots" 'takes no roots' -- qos admit "$irr" -e minhop --roots S1
exit $((fails > 0))
