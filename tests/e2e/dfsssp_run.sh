#!/usr/bin/env bash
# dfsssp_run.sh: dfsssp's virtual lanes in a simulation run. On a 5x5 torus (one host per
# switch, one 2 KiB packet of buffer per VL, every host sending Poisson 24 Gb/s of 2 KiB messages
# to uniformly random others on 32 Gb/s links):
#   - sssp, every packet on VL 0: the run deadlocks (outcome "stuck", exit 1);
#   - dfsssp, the same routes layered on the VLs its deadlock check chose (route check: 3 VLs):
#     packets carry their destination's VL as SL, switches map SL v to VL v, and the run drains,
#     with exactly VLs 0-2 used between switches;
#   - too few data VLs, an SL-to-VL map that moves those SLs, or a flow with its own SL are
#     refused (exit 2) with the reason.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sed 's/routing = "dor"/routing = "sssp"/' "$src/tests/support/torus5x5-uniform.cfg" > "$tmp/t.cfg"
"$bin" route compute gen:torus:dims=5x5,hosts=1 -e sssp -o "$tmp/sssp.dump" 2>/dev/null
"$bin" route compute gen:torus:dims=5x5,hosts=1 -e dfsssp -o "$tmp/dfsssp.dump" 2>/dev/null
cmp -s "$tmp/sssp.dump" "$tmp/dfsssp.dump" || failed "sssp and dfsssp tables differ"
expect 0 "virtual lanes: 3" "$bin" route check gen:torus:dims=5x5,hosts=1 -e dfsssp --deadlock-free
expect 1 "nothing can move (a deadlock)" "$bin" run "$tmp/t.cfg" -o "$tmp/sssp"
expect 0 "run drained" "$bin" run "$tmp/t.cfg" -o "$tmp/dfsssp" -s topology.routing=dfsssp
expect 2 "set fabric.vls (or qos.max_vls) to at least 3" "$bin" run "$tmp/t.cfg" -o "$tmp/v2" \
  -s topology.routing=dfsssp -s fabric.vls=2
sed 's/msg_size = 2048; }/msg_size = 2048; sl = 1; }/' "$tmp/t.cfg" > "$tmp/sl.cfg"
expect 2 "may not set its own sl" "$bin" run "$tmp/sl.cfg" -o "$tmp/sl" -s topology.routing=dfsssp
used=$(python3 - "$tmp/dfsssp/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
used = set()
for p in d["ports"]:
    if p["node"].startswith("S") and p.get("peer", "").startswith("S"):
        used |= {v["vl"] for v in p.get("vls", []) if v["PortXmitPkts"] > 0}
print(",".join(str(v) for v in sorted(used)))
PY
)
[ "$used" = "0,1,2" ] || failed "VLs used between switches: '$used', expected 0,1,2"
exit $fail
