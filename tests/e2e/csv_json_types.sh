#!/usr/bin/env bash
# csv_json_types.sh: names with commas and quotes (legal in ibnetdiscover node descriptions and
# in flow names) are quoted per RFC 4180 in every CSV a run writes, so each row has as many
# fields as its header and every name reads back as written (flows.csv, hosts.csv, ports.csv,
# cc.csv, cc_ports.csv, cc_flows.csv, latency.csv, and plot's plot-ports.csv); `plot` still
# counts the columns right. summary.json's settings carry their JSON types: whole numbers and
# numbers as numbers, switches as booleans, quantities with units as text.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
cat > "$work/t.topo" <<'TOPO'
Switch  4 "S-0000000000000100"         # "leaf, rack 7" base port 0 lid 1 lmc 0
[1]     "H-0000000000000001"[1](0000000000000002)         # "alpha, mlx5_0" lid 2 4xQDR
[2]     "H-0000000000000003"[1](0000000000000004)         # "beta" lid 3 4xQDR
[3]     "H-0000000000000005"[1](0000000000000006)         # "gamma" lid 4 4xQDR

Ca      1 "H-0000000000000001"          # "alpha, mlx5_0"
[1](0000000000000002)     "S-0000000000000100"[1]         # lid 2 lmc 0 "leaf" lid 1 4xQDR

Ca      1 "H-0000000000000003"          # "beta"
[1](0000000000000004)     "S-0000000000000100"[2]         # lid 3 lmc 0 "leaf" lid 1 4xQDR

Ca      1 "H-0000000000000005"          # "gamma"
[1](0000000000000006)     "S-0000000000000100"[3]         # lid 4 lmc 0 "leaf" lid 1 4xQDR
TOPO
cat > "$work/s.cfg" <<'CFG'
simulation = { duration = "200 us"; sample_interval = "20 us"; };
topology = { file = "t.topo"; };
cc = { plugin = "ibcc"; };
flows = (
  { name = "to gamma, \"hot\""; src = "alpha, mlx5_0"; dst = "gamma"; kind = "saturate"; },
  { name = "plain"; src = "beta"; dst = "gamma"; kind = "saturate"; }
);
CFG
"$bin" run "$work/s.cfg" -q -o "$work/r" || failed "the run failed"
"$bin" plot "$work/r" --scripts-only -q || failed "plot failed"
python3 - "$work/r" <<'PY' || fail=1
import csv, json, sys, os
d = sys.argv[1]
bad = 0
def check(name, want_names):
    global bad
    with open(os.path.join(d, name), newline='') as f:
        rows = list(csv.reader(f))
    head = rows[0]
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            print(f"FAIL: {name} row {i} has {len(r)} fields, header {len(head)}"); bad = 1
    flat = set(head) | {r[0] for r in rows[1:] if r} | {r[-1] for r in rows[1:] if r}
    for w in want_names:
        if w not in flat:
            print(f"FAIL: {name} lacks the name {w!r}: {head[:6]} ..."); bad = 1
check("flows.csv", ['to gamma, "hot"', "plain"])
check("hosts.csv", ["alpha, mlx5_0:1"])
check("ports.csv", ['leaf, rack 7:1'])
check("cc.csv", ['to gamma, "hot"'])
check("cc_flows.csv", ['to gamma, "hot"'])
check("cc_ports.csv", ['leaf, rack 7:3', "alpha, mlx5_0:1"])
check("latency.csv", [])
check("plot-ports.csv", ['leaf, rack 7', "alpha, mlx5_0"])
s = json.load(open(os.path.join(d, "summary.json")))["settings"]
want = {("simulation", "seed"): int, ("fabric", "mtu"): int, ("fabric", "grh"): bool,
        ("switch", "speedup"): float, ("simulation", "duration"): str, ("switch", "arch"): str,
        ("qos", "high_limit"): int, ("cc", "threshold"): int, ("cc", "cct_scale_us"): float}
for (g, k), t in want.items():
    v = s[g][k]
    if type(v) is not t:
        print(f"FAIL: settings.{g}.{k} = {v!r} is {type(v).__name__}, expected {t.__name__}"); bad = 1
sys.exit(bad)
PY
grep -q "plot-throughput.gp" <(ls "$work/r") || failed "no throughput script"
grep -q '^ncols = 2 ' "$work/r/plot-throughput.gp" || failed "plot-throughput.gp counts the flows wrong: $(grep ncols "$work/r/plot-throughput.gp" | head -2)"
exit $fail
