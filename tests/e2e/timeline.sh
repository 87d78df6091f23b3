#!/usr/bin/env bash
# timeline.sh: the Chrome trace-event / Perfetto timeline (issue 18 item 2, output.timeline_*).
#  1. One flow on 8 Gb/s links (a byte takes exactly 1 ns), 100 ns cables, 100 ns switch
#     latency, constant 1000-byte messages every 2 us from 0 s (wire 1026 bytes, 17 credits).
#     The file passes the schema check (tests/support/trace_check.py), and from first
#     principles, in the window [10 us, 50.1 us): H1's link carries the packets that start at
#     10, 12, ..., 50 us (21 spans), the switch's port to H2 those that start 200 ns later, at
#     10.2, ..., 48.2 us (20 spans: 50.2 is past the window); every span lasts 1026 x 8 / 8 Gb/s
#     = 1.026 us exactly; H2's buffer holds 0 or 17 credits; the switch's credits towards H2
#     are 65536/64 = 1024 or 1024 - 17; no FECN, BECN, CNP or drop; runs are byte-identical.
#  2. seed 002's testbed with IB CC on: FECN marks, CNPs sent and BECNs received as instants
#     and CCTI counters; the same with CC off: none of them.
#  3. The event cap: the file ends where it was reached, complete before, valid, and the run
#     warns; bad input names the key.
#  4. Losses under RC (switch.loss_every = 5): one "drop: lost" instant per lost packet at the
#     switch (every 5th data packet sent), one "discarded by the responder" per discard at H2,
#     as many as summary.json counts.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check="$src/tests/support/trace_check.py"
cat > "$tmp/one.cfg" <<'CFG'
simulation = { duration = "100 us"; warmup = "0 s"; };
topology = { generator = "single_switch"; args = "ports=4, link=8 Gb/s, delay=100 ns"; };
switch = { latency = "100 ns"; };
flows = (
  { name = "A"; src = "H1"; dst = "H2"; kind = "constant"; rate = "4 Gb/s"; msg_size = 1000;
    random_phase = false; }
);
output = { timeline_ports = "H1,H2"; timeline_start = "10 us"; timeline_stop = "50.1 us"; };
CFG
expect 0 "" "$bin" run "$tmp/one.cfg" -o "$tmp/one" -q
expect 0 "" "$bin" run "$tmp/one.cfg" -o "$tmp/one2" -q
cmp -s "$tmp/one/timeline.json" "$tmp/one2/timeline.json" || failed "timeline.json differs between two runs of one scenario"
python3 "$check" "$tmp/one/timeline.json" || failed "one flow: the schema check failed"
python3 - "$tmp/one/timeline.json" <<'PY' || failed "one flow: the timeline disagrees with first principles"
import json, sys
doc = json.load(open(sys.argv[1]))
ev = doc["traceEvents"]
pname = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
tname = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
def track(node, peer):
    [k] = [k for k, v in tname.items() if pname[k[0]].startswith(node + " ") and v.endswith("-> " + peer)]
    return k
spans = lambda k: [e for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) == k]
h1, s2 = spans(track("H1", "S1:1")), spans(track("S1", "H2:1"))
assert [e["ts"] for e in h1] == [10.0 + 2 * i for i in range(21)], [e["ts"] for e in h1]
assert [round(e["ts"], 6) for e in s2] == [round(10.2 + 2 * i, 6) for i in range(20)], [e["ts"] for e in s2]
serial = 1026 * 8 / 8e9 * 1e6                   # us
for e in h1 + s2:
    assert abs(e["dur"] - serial) < 1e-9 and e["args"]["bytes"] == 1026 and e["name"] == "A", e
assert spans(track("H2", "S1:2")) == [] and spans(track("S1", "H1:1")) == []   # nothing comes back
raw = open(sys.argv[1]).read()
assert raw.count('"dur":1.026000,') == 41, raw.count('"dur":1.026000,')   # exact to the picosecond
def counter(name, pid):
    return {e["args"]["credits"] for e in ev if e["ph"] == "C" and e["name"] == name and pname[e["pid"]].startswith(pid + " ")}
assert counter("buffer p1 VL0", "H2") == {0, 17}, counter("buffer p1 VL0", "H2")
assert counter("credits p2 VL0", "S1") == {1024, 1007}, counter("credits p2 VL0", "S1")
assert not [e for e in ev if e["ph"] == "i"], "instants without congestion control"
assert doc["otherData"]["events"] == len([e for e in ev if e["ph"] in "XCi"]) - 8  # 8 start values
print("one flow: %d + %d spans of %.6f us, as computed" % (len(h1), len(s2), serial))
PY
# 2. IB CC on and off.
for cc in on off; do
  expect 0 "" "$bin" run "$src/scenarios/seed002/testbed-scenario1-cc$cc.cfg" -o "$tmp/cc$cc" -q \
    -s simulation.duration=20ms -s "simulation.warmup=0 s" -s "flows.*.start=0 s" \
    -s 'output.timeline_ports=*' -s "output.timeline_start=15 ms" -s "output.timeline_stop=15.6 ms"
  python3 "$check" "$tmp/cc$cc/timeline.json" || failed "testbed cc $cc: the schema check failed"
done
python3 - "$tmp/ccon/timeline.json" "$tmp/ccoff/timeline.json" <<'PY' || failed "CC instants and CCTIs wrong"
import json, sys
def kinds(path):
    ev = json.load(open(path))["traceEvents"]
    return ({e["name"] for e in ev if e["ph"] == "i"}, {e["name"] for e in ev if e["ph"] == "C" and e["name"].startswith("CCTI")},
            sum(1 for e in ev if e["ph"] == "X" and e["args"]["fecn"]))
on, off = kinds(sys.argv[1]), kinds(sys.argv[2])
assert on[0] == {"FECN marked", "CNP sent", "BECN received"}, on[0]
assert on[1] and on[2] > 0, on
assert off == (set(), set(), 0), off
print("cc on:", sorted(on[0]), sorted(on[1]), "; cc off: none")
PY
# 3. The cap, and bad input.
expect 0 "timeline reached output.timeline_max_events (100 events)" "$bin" run "$tmp/one.cfg" -o "$tmp/cap" -s output.timeline_max_events=100
python3 "$check" "$tmp/cap/timeline.json" || failed "capped timeline: the schema check failed"
python3 - "$tmp/cap/timeline.json" "$tmp/cap/summary.json" "$tmp/one/timeline.json" <<'PY' || failed "capped timeline wrong"
import json, sys
cap, summ, full = (json.load(open(p)) for p in sys.argv[1:])
cut = cap["otherData"]["truncated_at_us"]
assert cut is not None and summ["timeline_truncated"] is True and summ["timeline_events"] <= 100, (cut, summ["timeline_events"])
timed = lambda d: [e for e in d["traceEvents"] if e["ph"] in "XCi"]
# exactly the full timeline's events before the cut
assert timed(cap) == [e for e in timed(full) if e["ts"] < cut], "the capped timeline is not the full one cut at its end"
PY
# 4. Losses under RC: switch.loss_every = 5 loses every 5th data packet arriving at the switch,
#    the responder discards what follows a gap until the retransmission: as instants, one per
#    packet, at the switch input and at H2, as many as summary.json counts.
sed 's/switch = { latency = "100 ns"; };/switch = { latency = "100 ns"; loss_every = 5; };\ntransport = { mode = "rc"; };/' "$tmp/one.cfg" > "$tmp/loss.cfg"
expect 0 "" "$bin" run "$tmp/loss.cfg" -o "$tmp/loss" -q -s "output.timeline_start=0 s" -s "output.timeline_stop=0 s"
python3 "$check" "$tmp/loss/timeline.json" || failed "loss: the schema check failed"
python3 - "$tmp/loss/timeline.json" "$tmp/loss/summary.json" <<'PY' || failed "loss instants wrong"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
dropped = json.load(open(sys.argv[2]))["invariants"]["packets_dropped"]
pname = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
inst = lambda name: [e for e in ev if e["ph"] == "i" and e["name"] == name]
lost, disc = inst("drop: lost"), inst("discarded by the responder")
sent = [e for e in ev if e["ph"] == "X" and e["cat"] == "data" and pname[e["pid"]].startswith("H1 ")]
assert len(lost) == dropped["loss"] == len(sent) // 5 > 0, (len(lost), dropped, len(sent))
assert len(disc) == dropped["discarded_by_responder"] > 0, (len(disc), dropped)
assert {pname[e["pid"]].split()[0] for e in lost} == {"S1"} and {pname[e["pid"]].split()[0] for e in disc} == {"H2"}
print("loss: %d data packets sent, %d lost, %d discarded, as counted" % (len(sent), len(lost), len(disc)))
PY
expect 2 'output.timeline_ports: "S9" is not a node' "$bin" run "$tmp/one.cfg" -o "$tmp/bad" -s output.timeline_ports=S9
expect 2 'output.timeline_flows: no flow is named "Z"' "$bin" run "$tmp/one.cfg" -o "$tmp/bad" -s output.timeline_flows=Z
expect 0 "" "$bin" run "$tmp/one.cfg" -o "$tmp/off" -q -s output.timeline_ports=
[ ! -e "$tmp/off/timeline.json" ] || failed "a timeline written with timeline_ports empty"
exit $fail
