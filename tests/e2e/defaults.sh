#!/usr/bin/env bash
# defaults.sh: defaults that do not mislead (issue 12 item 5).
#  - routing = auto (the default) routes the tree generators with ftree, others with minhop;
#    summary.json says which engine ran and what it noted;
#  - updn without usable roots falls back to minhop, and `run` and summary.json say so;
#  - an engine chain (routing = "ftree,updn") routes with the first engine that can, and
#    summary.json's routing names it (engine) and the chain asked for (chain);
#  - IB CC with a lower threshold of 0 bytes, or threshold 0, warns what it will do;
#  - load counts payload bytes by default; load_counts = wire counts the bytes on the link:
#    4x QDR (32 Gb/s of data), 256-byte messages, load 0.5: payload 16 Gb/s, or with
#    load_counts = wire 16 x 256/282 = 14.525 Gb/s of payload (282 = LRH 8 + BTH 12 + 256 +
#    ICRC 4 + VCRC 2 bytes on the wire).
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
js() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
flow='flows = ( { name = "F"; src = "H1"; dst = "H2"; kind = "constant"; load = 0.5; msg_size = 256; } );'
sim='simulation = { duration = "1 ms"; warmup = "0.1 ms"; };'
printf '%s\n%s\ntopology = { generator = "kary_ntree"; args = "k=2,n=3"; };\n' "$sim" "$flow" > "$tmp/tree.cfg"
printf '%s\n%s\ntopology = { generator = "mesh"; args = "dims=3x3"; };\n' "$sim" "$flow" > "$tmp/mesh.cfg"
expect 0 "" "$bin" run "$tmp/tree.cfg" -o "$tmp/tree" -q
expect 0 "" "$bin" run "$tmp/mesh.cfg" -o "$tmp/mesh" -q
[ "$(js "$tmp/tree/summary.json" 'd["routing"]["engine"]')" = ftree ] || failed "auto on kary_ntree is not ftree"
[ "$(js "$tmp/mesh/summary.json" 'd["routing"]["engine"]')" = minhop ] || failed "auto on mesh is not minhop"
expect 0 "" "$bin" run "$tmp/tree.cfg" -o "$tmp/tree-mh" -q -s topology.routing=minhop
[ "$(js "$tmp/tree-mh/summary.json" 'd["routing"]["engine"]')" = minhop ] || failed "an explicit engine is not kept"
# updn on a mesh: OpenSM's root finder finds none and falls back to minhop.
expect 0 "updn: no root switch found; fell back to minhop" "$bin" run "$tmp/mesh.cfg" -o "$tmp/updn" -q -s topology.routing=updn
js "$tmp/updn/summary.json" 'd["warnings"]' | grep -q "fell back to minhop" || failed "summary.json lacks the updn fallback"
[ "$(js "$tmp/updn/summary.json" 'd["routing"]["engine"], d["routing"]["chain"]')" = "('minhop', 'updn')" ] ||
  failed "summary.json's routing does not say minhop routed for updn"
# An engine chain (OpenSM's routing_engine list): ftree cannot route a mesh, updn with a root can.
expect 0 "fell back to updn" "$bin" run "$tmp/mesh.cfg" -o "$tmp/chain" -q -s topology.routing=ftree,updn -s topology.roots=S1_1
[ "$(js "$tmp/chain/summary.json" 'd["routing"]["engine"], d["routing"]["chain"]')" = "('updn', 'ftree,updn')" ] ||
  failed "summary.json's routing does not say updn routed for the chain ftree,updn"
expect 2 'unknown routing engine "nosuch" in the chain' "$bin" run "$tmp/mesh.cfg" -o "$tmp/bad" -s topology.routing=ftree,nosuch
# IB CC thresholds.
cc="$src/scenarios/seed002/testbed-scenario1-ccon.cfg"
expect 0 "the lower threshold is 0 bytes" "$bin" run "$cc" -o "$tmp/cc0" -q -s simulation.duration=200us \
  -s cc.threshold_map=bytes -s "cc.threshold_bytes=1 KiB"
expect 0 "cc.threshold = 0: no switch port ever enters the congestion state" "$bin" run "$cc" -o "$tmp/cc1" -q \
  -s simulation.duration=200us -s cc.threshold=0
# load_counts.
expect 0 "" "$bin" run "$tmp/mesh.cfg" -o "$tmp/pay" -q
expect 0 "" "$bin" run "$tmp/mesh.cfg" -o "$tmp/wire" -q -s flows.F.load_counts=wire
pay=$(js "$tmp/pay/summary.json" 'd["flows"][0]["throughput_gbps"]')
wire=$(js "$tmp/wire/summary.json" 'd["flows"][0]["throughput_gbps"]')
echo "load 0.5: payload-counted $pay Gb/s, wire-counted $wire Gb/s"
python3 -c "import sys; sys.exit(0 if abs($pay - 16) < 0.01 and abs($wire - 16*256/282) < 0.01 else 1)" \
  || failed "load_counts: $pay and $wire Gb/s, expected 16 and 14.525"
expect 2 'load_counts expects one of: payload, wire' "$bin" run "$tmp/mesh.cfg" -o "$tmp/bad" -s flows.F.load_counts=bytes
exit $fail
