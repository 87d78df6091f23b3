#!/usr/bin/env bash
# sl2vl_pairs.sh: a switch's SL-to-VL map can differ per (input, output) port pair. On the
# testbed, SL 1 travels on VL 1 everywhere except from S1's port 1 (H1) to its port 36 (the
# link to S2), where qos.sl2vl_pairs sends it on VL 0: the per-VL counters of S1 port 36 show
# H1's packets on VL 0 and H2's on VL 1. Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/s.cfg" <<'CFG'
simulation = { duration = "1 ms"; sample_interval = "0 s"; };
topology = { generator = "testbed002"; };
fabric = { vls = 2; };
qos = {
  sl2vl = "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
  sl2vl_pairs = ( "S1 1 36 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0" );
};
flows = (
  { name = "A"; src = "H1"; dst = "H4"; sl = 1; kind = "constant"; rate = "1 Gb/s"; msg_size = "2 KiB"; },
  { name = "B"; src = "H2"; dst = "H5"; sl = 1; kind = "constant"; rate = "2 Gb/s"; msg_size = "2 KiB"; }
);
CFG
"$bin" run "$tmp/s.cfg" -o "$tmp/r" -q
python3 - "$tmp/r/summary.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
port = [p for p in j["ports"] if p["node"] == "S1" and p["port"] == 36][0]
vl = {v["vl"]: v["PortXmitPkts"] for v in port["vls"]}
a = [f for f in j["flows"] if f["name"] == "A"][0]["packets_delivered"]
b = [f for f in j["flows"] if f["name"] == "B"][0]["packets_delivered"]
print("S1 port 36 packets per VL:", vl, "A delivered", a, "B delivered", b)
assert vl.get(0, 0) >= a and vl.get(0, 0) <= a + 2, "H1's packets should leave S1 on VL 0"
assert vl.get(1, 0) >= b and vl.get(1, 0) <= b + 2, "H2's packets should leave S1 on VL 1"
print("ok")
PY
