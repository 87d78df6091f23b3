#!/usr/bin/env bash
# torus2qos_run.sh: torus-2QoS in a simulation run. On a 5x5 torus (one host per switch, one
# 2 KiB packet of buffer per VL, every host sending Poisson 24 Gb/s of 2 KiB messages to
# uniformly random others on 32 Gb/s links) `dor` and `torus-2QoS` install the same forwarding
# tables (odd rings have no ties; checked here), so only the VLs differ:
#   - dor, every packet on VL 0: the run deadlocks (outcome "stuck", exit 1);
#   - torus-2QoS: packets carry the path SL (dateline bits) and switches map them through the
#     engine's SL2VL tables: the run drains, with the VL use torus-2QoS(8) describes: host links
#     only VL 0, a wrap-around link (S4_y -> S0_y) only VL 1 (every path over it crosses the
#     dateline), the link after it (S0_y -> S1_y) both; a flow on SL 8 (QoS level 1) uses VL 1
#     on host links and VLs 4-5 between switches;
#   - with fabric.vls = 2 (the loop VL only) it still drains; fabric.vls = 1 is refused.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$src/tests/support/torus5x5-uniform.cfg" "$tmp/t.cfg"
sed 's/msg_size = 2048; }/msg_size = 2048; sl = 8; }/' "$tmp/t.cfg" > "$tmp/q1.cfg"
"$bin" route compute gen:torus:dims=5x5,hosts=1 -e dor -o "$tmp/dor.dump" 2>/dev/null
"$bin" route compute gen:torus:dims=5x5,hosts=1 -e torus-2QoS -o "$tmp/t2q.dump" 2>/dev/null
cmp -s "$tmp/dor.dump" "$tmp/t2q.dump" || failed "dor and torus-2QoS tables differ on the 5x5 torus"

expect 1 "nothing can move (a deadlock)" "$bin" run "$tmp/t.cfg" -o "$tmp/dor"
expect 0 "run drained" "$bin" run "$tmp/t.cfg" -o "$tmp/t2q" -s topology.routing=torus-2QoS
expect 0 "run drained" "$bin" run "$tmp/q1.cfg" -o "$tmp/q1" -s topology.routing=torus-2QoS
expect 0 "run drained" "$bin" run "$tmp/t.cfg" -o "$tmp/v2" -s topology.routing=torus-2QoS -s fabric.vls=2
expect 2 "needs at least 2 data VLs" "$bin" run "$tmp/t.cfg" -o "$tmp/v1" -s topology.routing=torus-2QoS -s fabric.vls=1

# VLs each kind of port sent packets on: "kind vl,vl,..." per port of the summary.
vls() {
  python3 - "$1" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
kinds = {}
for p in d["ports"]:
    a, b = p["node"], p.get("peer", "")
    used = {v["vl"] for v in p.get("vls", []) if v["PortXmitPkts"] > 0}
    ma, mb = re.match(r"S(\d)_(\d)$", a), re.match(r"S(\d)_(\d)$", b or "")
    if not ma:
        kind = "host-out"
    elif not mb:
        kind = "to-host"
    elif ma.group(2) == mb.group(2) and (ma.group(1), mb.group(1)) == ("4", "0"):
        kind = "wrap-x"
    elif ma.group(2) == mb.group(2) and (ma.group(1), mb.group(1)) == ("0", "1"):
        kind = "after-wrap-x"
    elif ma.group(1) == mb.group(1) and (ma.group(2), mb.group(2)) == ("4", "0"):
        kind = "wrap-y"
    else:
        kind = "other"
    kinds.setdefault(kind, set()).update(used)
for k in sorted(kinds):
    print(k, ",".join(str(v) for v in sorted(kinds[k])))
PY
}
vls "$tmp/t2q/summary.json" > "$tmp/t2q.vls"
vls "$tmp/q1/summary.json" > "$tmp/q1.vls"
cat "$tmp/t2q.vls"
want() { grep -qx "$2" "$1" || failed "$(basename "$1"): expected '$2', got '$(grep "^${2%% *} " "$1")'"; }
want "$tmp/t2q.vls" "host-out 0"
want "$tmp/t2q.vls" "to-host 0"
want "$tmp/t2q.vls" "wrap-x 1"
want "$tmp/t2q.vls" "wrap-y 1"
want "$tmp/t2q.vls" "after-wrap-x 0,1"
want "$tmp/q1.vls" "host-out 1"
want "$tmp/q1.vls" "to-host 1"
want "$tmp/q1.vls" "wrap-x 5"
want "$tmp/q1.vls" "after-wrap-x 4,5"
num() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
[ "$(num "$tmp/dor/summary.json" 'd["run"]["outcome"]')" = stuck ] || failed "dor's outcome is not stuck"
[ "$(num "$tmp/t2q/summary.json" 'd["routing"]["engine"]')" = torus-2QoS ] || failed "summary.json names another engine"
exit $fail
