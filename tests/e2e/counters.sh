#!/usr/bin/env bash
# counters.sh: perfquery-style port counters over one time base (issue 18 item 3). The numbers
# are derived here from the IBA packet format and the scenario, not from earlier output:
#  1. one constant-rate flow H1 -> H2 through S1 (4x QDR: 32 Gb/s of data; 2 KiB messages of
#     one 2048-byte packet every 2 us; measured period [21 us, 221 us), which holds exactly 100
#     arrivals and no packet on a wire at its edges): PortXmitPkts = 100 and PortXmitData =
#     100 * (LRH 8 + BTH 12 + 2048 + ICRC 4) / 4 on H1's port and S1's port to H2,
#     PortRcvData the same at S1's input and H2, PortXmitWait 0, utilisation = the offered wire
#     load 2074 * 8 bits / 2 us / 32 Gb/s; counters.csv's measured rows add up to the same;
#     warm-up + measured + drain = every packet the flow sent;
#  2. two saturating hosts into one (1 MiB switch buffers, so the hot port drains for as long as
#     it ran): no utilisation above 1 (the old code divided counters of the whole run, drain
#     included, by the run's duration: 2.0 here), the hot port at 1, counters.csv never above 1;
#  3. that run interrupted with SIGINT: the terminal summary and summary.json divide by the time
#     actually simulated (measured_to_s is where it stopped), not by simulation.duration.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cbr.cfg" <<'CFG'
simulation = { duration = "221 us"; warmup = "21 us"; sample_interval = "20 us"; };
topology = { switches = ["S1"]; link = "4xQDR"; delay = "5 ns"; links = ( "S1:1 H1:1", "S1:2 H2:1" ); };
output = { counter_series = true; };
flows = ( { name = "cbr"; src = "H1"; dst = "H2"; kind = "constant"; rate = "8.192 Gb/s"; msg_size = "2 KiB"; } );
CFG
expect 0 "" "$bin" run "$tmp/cbr.cfg" -o "$tmp/cbr" -q
python3 - "$tmp/cbr" <<'PY' || failed "constant-rate flow: counters differ from first principles"
import csv, json, sys
d = sys.argv[1]
j = json.load(open(d + "/summary.json"))
port = {(p["node"], p["port"]): p for p in j["ports"]}
n, words = 100, (8 + 12 + 2048 + 4) // 4
util = (8 + 12 + 2048 + 4 + 2) * 8 / 2e-6 / 32e9
for k, dirn in ((("H1", 1), "Xmit"), (("S1", 2), "Xmit"), (("S1", 1), "Rcv"), (("H2", 1), "Rcv")):
    p = port[k]
    assert p["Port%sPkts" % dirn] == n and p["Port%sData" % dirn] == n * words, (k, p)
    assert p["PortXmitWait"] == 0, p
for k in (("H1", 1), ("S1", 2)):
    assert abs(port[k]["utilisation"] - util) <= 1e-6, (k, port[k]["utilisation"], util)
    vl0 = [v for v in port[k]["vls"] if v["vl"] == 0][0]
    assert vl0["PortXmitData"] == n * words, vl0
assert port[("S1", 1)]["utilisation"] == 0 and port[("H2", 1)]["utilisation"] == 0
sent = j["flows"][0]["packets_sent"]
h1 = port[("H1", 1)]
assert h1["warmup"]["PortXmitPkts"] + h1["PortXmitPkts"] + h1["drain"]["PortXmitPkts"] == sent, (h1, sent)
rows = list(csv.DictReader(open(d + "/counters.csv")))
assert rows and {r["period"] for r in rows} >= {"warmup", "measured"}, {r["period"] for r in rows}
assert all(0 <= float(r["utilisation"]) <= 1 for r in rows if r["utilisation"])
def total(node, port, period, key):
    return sum(int(r[key]) for r in rows if r["node"] == node and r["port"] == str(port) and r["period"] == period and r["vl"] == "all")
assert total("H1", 1, "measured", "PortXmitData") == n * words
assert total("H2", 1, "measured", "PortRcvPkts") == n
assert sum(total("H1", 1, p, "PortXmitPkts") for p in ("warmup", "measured", "drain")) == sent
# No interval straddles the period's edges: rows end at 21 us and at 221 us.
ends = {float(r["time_s"]) for r in rows}
assert any(abs(t - 21e-6) < 1e-12 for t in ends) and any(abs(t - 221e-6) < 1e-12 for t in ends), sorted(ends)
lids = {(r["node"], r["lid"]) for r in rows}
assert len({l for _, l in lids}) == 3, lids
# A topology.links fabric gets GUIDs as a generated one does: one per node, none zero.
guids = {p["node"]: p["guid"] for p in j["ports"]}
assert len(set(guids.values())) == 3 and "0x0000000000000000" not in guids.values(), guids
print("cbr: %d packets, %d words, utilisation %.6f as derived" % (n, n * words, util))
PY
cat > "$tmp/hot.cfg" <<'CFG'
simulation = { duration = "200 us"; warmup = "50 us"; sample_interval = "20 us"; };
topology = { switches = ["S1"]; link = "4xQDR"; delay = "5 ns"; links = ( "S1:1 A1:1", "S1:2 A2:1", "S1:3 A3:1" ); };
switch = { buffer = "1 MiB"; };
output = { counter_series = true; };
flows = (
  { name = "a"; src = "A1"; dst = "A3"; kind = "saturate"; msg_size = "4 KiB"; },
  { name = "b"; src = "A2"; dst = "A3"; kind = "saturate"; msg_size = "4 KiB"; }
);
CFG
expect 0 "" "$bin" run "$tmp/hot.cfg" -o "$tmp/hot" -q
python3 - "$tmp/hot" <<'PY' || failed "hot spot: a utilisation above 1, or the hot port not saturated"
import csv, json, sys
j = json.load(open(sys.argv[1] + "/summary.json"))
over = [(p["node"], p["port"], p["utilisation"]) for p in j["ports"] if p["utilisation"] > 1]
assert not over, over
hot = [p for p in j["ports"] if p["node"] == "S1" and p["port"] == 3][0]
assert hot["utilisation"] >= 0.999 and hot["drain"]["PortXmitPkts"] > 0, hot
rows = list(csv.DictReader(open(sys.argv[1] + "/counters.csv")))
assert max(float(r["utilisation"]) for r in rows if r["utilisation"]) <= 1
drain = sum(int(r["PortXmitPkts"]) for r in rows if r["period"] == "drain" and r["node"] == "S1" and r["port"] == "3")
assert drain == hot["drain"]["PortXmitPkts"], (drain, hot["drain"])
print("hot spot: hot port utilisation", hot["utilisation"], "with", hot["drain"]["PortXmitPkts"], "packets in the drain")
PY
# 3. Interrupted: the measured period ends where the run stopped.
"$bin" run "$tmp/hot.cfg" -o "$tmp/int" -s simulation.duration="500 s" -s output.counter_series=false \
  -s simulation.sample_interval="1 ms" > "$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 130 ] || failed "interrupted run exited $rc"
python3 - "$tmp/int.partial/summary.json" "$tmp/out" <<'PY' || failed "interrupted run: not divided by the time simulated"
import json, re, sys
j = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
m = re.search(r"total ([0-9.]+) Gb/s delivered \(payload\) over ([0-9.e+-]+) s", out)
assert m, out
gbps, secs = float(m.group(1)), float(m.group(2))
period = j["run"]["measured_to_s"] - j["run"]["measured_from_s"]
assert j["run"]["outcome"] == "interrupted" and 0 < period < 500, j["run"]
assert j["run"]["measured_to_s"] <= j["run"]["stopped_at_s"], j["run"]
assert abs(secs - period) <= 1e-5 * period, (secs, period)
want = sum(f["bytes_delivered"] for f in j["flows"]) * 8 / period / 1e9
assert abs(gbps - want) <= 1e-3 * want and abs(j["total_throughput_gbps"] - want) <= 1e-5 * want, (gbps, want)
assert all(p["utilisation"] <= 1 for p in j["ports"])
print("interrupted after %.6f s simulated: %.4f Gb/s" % (period, gbps))
PY
[ "$fail" = 0 ] && echo "ok: counters over the measured period"
exit $fail
