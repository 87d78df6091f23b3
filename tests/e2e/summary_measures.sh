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
