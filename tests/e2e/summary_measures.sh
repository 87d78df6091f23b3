#!/usr/bin/env bash
# summary_measures.sh: the run's summary carries the seed works' measures. On seed 002's
# testbed scenario 1 (CC off, 5 s): treatment variation over F2-F5 counts exactly the 100 10-ms
# intervals in which all four run (4-5 s), with a steady gap max - min of 13/3 - 13/6 = 2.1667
# Gb/s (parking lot) and almost no variation; H5 receives 13 Gb/s from 1 s on, i.e. 10.4 Gb/s
# over the 5 s; the per-host receive rates add up to the flows' throughput.
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" run "$src/scenarios/seed002/testbed-scenario1-ccoff.cfg" -o "$tmp/r" -q
python3 - "$tmp/r/summary.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
tv = j["treatment_variation"]
assert tv["contributors"] == ["F2", "F3", "F4", "F5"], tv
assert tv["intervals"] == 100, tv
assert abs(tv["mean_delta_gbps"] - (13 / 3 - 13 / 6)) < 0.01 * 2.1667, tv
assert tv["variation_gbps2"] < 1e-3, tv
rx = {h["host"]: h["rx_gbps"] for h in j["hosts"]}
assert abs(rx["H5"] - 10.4) < 0.01 * 10.4, rx
assert abs(sum(rx.values()) - j["total_throughput_gbps"]) < 1e-3, (rx, j["total_throughput_gbps"])
assert 0 < j["jain_index"] <= 1
print("ok:", tv, "H5", rx["H5"])
PY
python3 - "$tmp/r" <<'PY'
import csv, sys
d = sys.argv[1]
hosts = list(csv.DictReader(open(d + "/hosts.csv")))
classes = list(csv.DictReader(open(d + "/classes.csv")))
flows = list(csv.DictReader(open(d + "/flows.csv")))
# H5 receives 13 Gb/s once contributors run; the class (SL 0) carries all flows.
assert abs(float(hosts[-1]["H5:1"]) - 13.0) < 0.07 * 13, hosts[-1]
for row, frow in zip(classes, flows):
    total = sum(float(v) for k, v in frow.items() if k != "time_s")
    assert abs(float(row["sl0"]) - total) < 1e-3, (row, total)
print("ok: hosts.csv and classes.csv")
PY
# Paper IV's receive rates (hot spots, other hosts, total) for a pattern with hot spots: the
# silent forest on a 2-level fat tree of 8-port switches, CC off. The hot spots are named, the
# classes add up to the hosts' receive rates, and the hot spots are saturated (13.6 Gb/s).
cat > "$tmp/silent.cfg" <<'CFG'
simulation = { duration = "3 ms"; warmup = "1 ms"; seed = 5; };
topology = { generator = "fattree"; args = "ports=8, levels=2, link=4xDDR"; routing = "ftree"; };
hca = { inject_limit = "13.5 Gb/s"; sink_limit = "13.6 Gb/s"; limit_counts = "payload"; };
flows = ( { name = "Q"; src = "*"; kind = "saturate"; msg_size = "4096 B";
            pattern = { kind = "silent"; hotspots = 2; c_fraction = 0.75; }; } );
CFG
"$bin" run "$tmp/silent.cfg" -o "$tmp/s" > "$tmp/s.txt"
grep -q "receive rate per host: hot spots" "$tmp/s.txt" || { echo "FAIL: no receive-rate line"; exit 1; }
python3 - "$tmp/s/summary.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rc = j["receive_classes"]
rx = {h["host"]: h["rx_gbps"] for h in j["hosts"]}
hot = rc["hot_spots"]
assert len(hot) == 2 and all(h in rx for h in hot), rc
assert rc["c_nodes"] == 24 and rc["b_nodes"] == 0 and rc["v_nodes"] == 8, rc
others = [v for h, v in rx.items() if h not in hot]
assert abs(rc["hot_spot_rx_gbps"] - sum(rx[h] for h in hot) / 2) < 1e-4, rc
assert abs(rc["other_rx_gbps"] - sum(others) / len(others)) < 1e-4, rc
assert abs(rc["total_rx_gbps"] - sum(rx.values())) < 1e-3, rc
assert abs(rc["hot_spot_rx_gbps"] - 13.6) < 0.1, rc
print("ok: receive classes", rc)
PY
