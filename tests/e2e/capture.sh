#!/usr/bin/env bash
# capture.sh: packet captures for Wireshark (issue 18 item 1). A run with output.capture_ports
# writes capture.pcap (pcap, link type 197 ERF, ERF type 21 InfiniBand records) and capture.csv,
# ibnetsim's own record of the same packets. tshark (Debian) must decode every captured packet,
# and its LRH and BTH fields (SLID, DLID, SL, VL, opcode, DestQP, PSN, FECN, BECN) and length
# must equal ibnetsim's record, packet by packet:
#  1. seed 002's testbed scenario 1 with IB CC, all flows from 0 s: data with FECN on the hot
#     spot's link, CNPs with BECN coming back (opcode 0x81);
#  2. a reliable connection with an ACK per packet, two SLs on VLs 1 and 2, and the GRH on:
#     RC SEND FIRST/MIDDLE/LAST/ONLY, ACKNOWLEDGE with AETH, LNH = global.
# Skipped (exit 77 is not used: the test fails) only if tshark is missing, which scripts/deps.sh
# installs. Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
command -v tshark >/dev/null || { echo "FAIL: tshark is not installed (scripts/deps.sh installs it)"; exit 1; }
compare() { # DIR: tshark's fields vs capture.csv
  tshark -r "$1/capture.pcap" -T fields -E separator=, -e frame.number -e erf.types.type \
    -e frame.len -e infiniband.lrh.slid -e infiniband.lrh.dlid -e infiniband.lrh.sl \
    -e infiniband.lrh.vl -e infiniband.lrh.lnh -e infiniband.bth.opcode -e infiniband.bth.destqp \
    -e infiniband.bth.psn -e infiniband.reserved -e infiniband.aeth.msn -e _ws.expert \
    > "$1/tshark.csv" 2> "$1/tshark.err" || { failed "tshark cannot read $1/capture.pcap: $(head -2 "$1/tshark.err")"; return; }
  python3 - "$1/capture.csv" "$1/tshark.csv" "$2" <<'PY' || failed "$1: tshark and ibnetsim disagree"
import csv, sys
own = list(csv.DictReader(open(sys.argv[1])))
ws = [r for r in csv.reader(open(sys.argv[2]))]
grh = sys.argv[3] == "grh"
assert len(own) == len(ws) and len(own) > 0, (len(own), len(ws))
ops = {}
for o, w in zip(own, ws):
    frame, erftype, length, slid, dlid, sl, vl, lnh, op, qp, psn, resv, msn, expert = w[:14]
    assert int(erftype, 0) == 21, w                      # ERF type 21: InfiniBand
    assert int(length) == int(o["wire_bytes"]), (o, w)
    num = lambda x: int(x, 0)                      # tshark prints some fields in hex
    assert (num(slid), num(dlid), num(sl), num(vl)) == (int(o["slid"]), int(o["dlid"]), int(o["sl"]), int(o["vl"])), (o, w)
    assert int(lnh, 0) == (3 if grh else 2), w      # IBA global (GRH) or local
    assert num(op) == int(o["opcode"]) and num(qp) == int(o["destqp"]) and num(psn) == int(o["psn"]), (o, w)
    b = int(resv.split(",")[0], 16)                 # the BTH byte that holds FECN and BECN
    assert (b >> 7 & 1, b >> 6 & 1) == (int(o["fecn"]), int(o["becn"])), (o, w)
    assert expert == "", ("tshark reports a malformed packet", w)
    ops[int(op)] = ops.get(int(op), 0) + 1
print(sys.argv[1].split("/")[-1] + ":", len(own), "packets agree; opcodes", sorted(ops.items()))
open(sys.argv[1] + ".ops", "w").write(" ".join(str(k) for k in sorted(ops)))
PY
}
# 1. IB CC: FECN on data, CNPs with BECN.
expect 0 "" "$bin" run "$src/scenarios/seed002/testbed-scenario1-ccon.cfg" -o "$tmp/cc" -q \
  -s simulation.duration=20ms -s "simulation.warmup=0 s" -s "flows.*.start=0 s" \
  -s output.capture_ports=S2:2 -s "output.capture_start=15 ms" -s "output.capture_stop=16 ms"
compare "$tmp/cc" lrh
python3 - "$tmp/cc/capture.csv" <<'PY' || failed "testbed capture lacks FECN data or BECN CNPs"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
fecn = [x for x in r if x["fecn"] == "1" and x["opcode"] in ("0", "1", "2", "4")]
cnp = [x for x in r if x["opcode"] == "129" and x["becn"] == "1"]
assert fecn and cnp, (len(fecn), len(cnp))
# Every CNP goes back to a host whose data crossed this link marked (H5 answers each FECN).
assert {x["dlid"] for x in cnp} <= {x["slid"] for x in fecn}, "a CNP to a host that sent no FECN data"
PY
# 2. RC with ACKs per packet, SLs 1 and 2 on VLs 1 and 2, GRH on, a flow filter.
cat > "$tmp/rc.cfg" <<'CFG'
simulation = { duration = "200 us"; warmup = "0 s"; };
topology = { generator = "single_switch"; args = "ports=4"; };
fabric = { vls = 3; grh = true; };
transport = { mode = "rc"; ack = "packet"; window = 8; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; sl = 1; kind = "poisson"; load = 0.3; msg_size = 5000; },
  { name = "B"; src = "H2"; dst = "H3"; sl = 2; kind = "poisson"; load = 0.3; msg_size = 100; },
  { name = "C"; src = "H4"; dst = "H1"; kind = "poisson"; load = 0.3; msg_size = 100; }
);
output = { capture_ports = "H3"; capture_flows = "A,B"; capture_payload = "pattern"; };
CFG
expect 0 "" "$bin" run "$tmp/rc.cfg" -o "$tmp/rc" -q
compare "$tmp/rc" grh
# SEND FIRST 0, MIDDLE 1, LAST 2, ONLY 4 and ACKNOWLEDGE 17 (0x11) must all appear.
[ "$(cat "$tmp/rc/capture.csv.ops" 2>/dev/null)" = "0 1 2 4 17" ] || failed "rc opcodes: $(cat "$tmp/rc/capture.csv.ops" 2>/dev/null)"
# Bad input: an unknown port or flow.
expect 2 'output.capture_ports: "S9" is not a node' "$bin" run "$tmp/rc.cfg" -o "$tmp/bad" -s output.capture_ports=S9
expect 2 'output.capture_flows: no flow is named "Z"' "$bin" run "$tmp/rc.cfg" -o "$tmp/bad" -s output.capture_flows=Z
exit $fail
