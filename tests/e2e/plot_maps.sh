#!/usr/bin/env bash
# plot_maps.sh: the heat maps and per-flow latency CDFs of `ibnetsim plot` (issue 18 item 4).
#  1. Two unloaded flows on 8 Gb/s links (a byte takes 1 ns), 100 ns cables, 100 ns switch
#     latency, one packet per message: flow-latency.csv must give each flow's latency from first
#     principles, cable + switch + serialisation + cable: A (1000-byte messages, 1026 wire bytes)
#     100 + 100 + 1026 + 100 = 1326 ns, B (500 bytes, 526 wire bytes) 826 ns, every packet in
#     one histogram bucket whose upper bound is within 0.8 % above it (CDF 1 there), end to end
#     the same (nothing waits at the source); the figure's title names the run, its legend the
#     flows in the palette's colours; --highlight B puts A under "the other 1 flows"; an unknown
#     flow is refused.
#  2. An incast (H1 and H2 at 0.8 of their links into H3, H4 at 0.3 into H1): the buffer heat map
#     names the run and its fullest rows are the switch inputs from H1 and H2; the PortXmitWait
#     heat map's cells are counters.csv's PortXmitWait over the interval, H1's and H2's links
#     wait, H4's does not, no cell exceeds 1 (one VL), and dashed lines mark the measured period.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
cat > two.cfg <<'CFG'
simulation = { name = "two unloaded flows"; duration = "100 us"; warmup = "0 s"; sample_interval = "5 us"; };
topology = { generator = "single_switch"; args = "ports=4, link=8 Gb/s, delay=100 ns"; };
switch = { latency = "100 ns"; };
flows = (
  { name = "A"; src = "H1"; dst = "H2"; kind = "constant"; rate = "4 Gb/s"; msg_size = 1000; random_phase = false; },
  { name = "B"; src = "H3"; dst = "H4"; kind = "constant"; rate = "1 Gb/s"; msg_size = 500; random_phase = false; }
);
output = { flow_latency = true; };
CFG
expect 0 "" "$bin" run two.cfg -o two -q
python3 - two/flow-latency.csv two/summary.json <<'PY' || failed "per-flow latency differs from first principles"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
summ = {f["name"]: f for f in json.load(open(sys.argv[2]))["flows"]}
for kind in ("network", "end_to_end"):
    for flow, wire in (("A", 1026), ("B", 526)):
        want = 100 + 100 + wire * 1.0 + 100          # ns: cable, switch, serialisation, cable
        r = [x for x in rows if x["latency"] == kind and x["flow"] == flow]
        assert len(r) == 1, (kind, flow, r)          # one bucket: every packet the same
        v = float(r[0]["value_ns"])
        # the bucket's upper bound: at or above the value, less than one bucket width (2^k/128
        # ps in the octave [2^k, 2^(k+1)) ps: 8.192 ns for A, 4.096 ns for B) above it
        width = 2 ** (len(bin(int(want * 1000))) - 3) / 128 / 1000
        assert want <= v < want + width and float(r[0]["cdf"]) == 1.0, (kind, flow, v, want, width)
        lat = summ[flow]["network_latency" if kind == "network" else "end_to_end_latency"]
        assert lat["max_ns"] == want and lat["p50_ns"] == want, (flow, lat)   # exact
print("flow latencies as computed: A 1326 ns, B 826 ns")
PY
expect 0 "" "$bin" plot two -q
gp=two/plot-flow-latency.gp
grep -q 'set multiplot layout 1,2 title "two unloaded flows: packet latency CDF per flow"' "$gp" || failed "plot-flow-latency.gp's title does not name the run"
grep -q 'index 0 every :::0::0 using 1:2 with lines lw 1.5 lc rgb col(0) dt dash(0) title "A"' "$gp" || failed "A has no colour and legend entry: $(grep -n title "$gp" | head -3)"
grep -q 'lc rgb col(1) dt dash(1) title "B"' "$gp" || failed "B has no colour and legend entry"
[ -s two/flow-latency.png ] && [ -s two/flow-latency.svg ] || failed "no flow-latency.png/.svg"
grep -q '>A<' two/flow-latency.svg && grep -q '>B<' two/flow-latency.svg || failed "the SVG's legend lacks the flows"
expect 0 "" "$bin" plot two -q --highlight B
grep -q 'title "the other 1 flows"' "$gp" && grep -q 'lw 2.5 lc rgb col(0) dt dash(0) title "B"' "$gp" || failed "--highlight B: $(grep -n title "$gp" | head -3)"
expect 2 'no flow "Z"' "$bin" plot two --highlight Z

cat > incast.cfg <<'CFG'
simulation = { name = "incast into H3"; duration = "300 us"; warmup = "50 us"; sample_interval = "10 us"; seed = 3; };
topology = { generator = "single_switch"; args = "ports=4"; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; kind = "poisson"; load = 0.8; msg_size = "2 KiB"; },
  { name = "B"; src = "H2"; dst = "H3"; kind = "poisson"; load = 0.8; msg_size = "2 KiB"; },
  { name = "V"; src = "H4"; dst = "H1"; kind = "poisson"; load = 0.3; msg_size = "2 KiB"; }
);
output = { counter_series = true; };
CFG
expect 0 "" "$bin" run incast.cfg -o inc -q
expect 0 "" "$bin" plot inc -q
for f in buffers xmitwait; do
  grep -q "^set title \"incast into H3: " "inc/plot-$f.gp" || failed "plot-$f.gp's title does not name the run"
  [ -s "inc/$f.png" ] && [ -s "inc/$f.svg" ] || failed "no $f.png/.svg"
done
grep -q 'flow-latency.csv (output.flow_latency = true writes it)' <("$bin" plot inc --scripts-only 2>&1) || failed "no note about the missing flow-latency.csv"
python3 - inc <<'PY' || failed "heat maps wrong"
import csv, re, sys
d = sys.argv[1]
def rows(name):
    gp = open(f"{d}/plot-{name}.gp").read()
    tics = dict((int(r), n) for n, r in re.findall(r'"([^"]+)" (\d+)', gp.split("set ytics (")[1].split(")\n")[0]))
    cells = list(csv.DictReader(open(f"{d}/plot-{name}.csv")))
    peak = {}
    for c in cells:
        n = tics[int(c["row"])]
        peak[n] = max(peak.get(n, 0), float(c["value"]))
    return gp, cells, tics, peak
gp, cells, tics, peak = rows("buffers")
top2 = sorted(peak, key=lambda n: -peak[n])[:2]
assert sorted(top2) == ["S1:1", "S1:2"], peak               # the inputs from H1 and H2 fill up
gp, cells, tics, peak = rows("xmitwait")
assert peak.get("H1:1", 0) > 0.1 and peak.get("H2:1", 0) > 0.1, peak
assert "H4:1" not in peak, peak                               # H4's link never waits
assert max(peak.values()) <= 1.0 + 1e-9, peak                # one VL: at most the whole interval
assert gp.count("nohead dt 2") == 2                          # the measured period's edges
# Every cell is PortXmitWait (1 ns ticks) / interval of the same counters.csv row.
want = {}
for r in csv.DictReader(open(f"{d}/counters.csv")):
    if r["vl"] == "all" and int(r["PortXmitWait"]) > 0:
        want[(f'{r["node"]}:{r["port"]}', round(float(r["time_s"]), 9))] = int(r["PortXmitWait"]) * 1e-9 / float(r["interval_s"])
got = {(tics[int(c["row"])], round(float(c["t1_s"]), 9)): float(c["value"]) for c in cells}
assert got.keys() == want.keys(), (sorted(set(got) ^ set(want))[:4])
assert all(abs(got[k] - want[k]) <= 1e-6 * want[k] for k in want)
print("heat maps: buffers led by", top2, "; xmitwait", {k: round(v, 3) for k, v in peak.items()})
PY
exit $fail
