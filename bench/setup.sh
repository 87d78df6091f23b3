#!/usr/bin/env bash
# bench/setup.sh: the fixed cost of a small run. `ibnetsim run bench/fattree64.cfg` (64 hosts,
# the default outputs) for 1 ns of simulated time (nothing but the fixed cost) and for 20 us (a
# short run), counted by valgrind's callgrind (exact, the machine's load does not change it):
# the whole process's instructions and, inclusive, those of the event loop (fabric_run),
# summary.json (results_write_json), latency.csv (latency_csv_write), the fabric's
# construction (fabric_build), the topology and its routes (scenario_topology), the dynamic
# linker (_dl_start); then R runs of each timed by wait4 (user + system CPU seconds,
# median) and one by /usr/bin/time (the peak RSS), which the load does move. Figures in bench/setup.md.
# Usage: bench/setup.sh [-r RUNS] [BUILD_DIR] (default build-dev; RUNS default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20
[ "${1:-}" = -r ] && { runs=$2; shift 2; }
build=${1:-build-dev}
[ -x "$build/ibnetsim" ] || { echo "bench/setup.sh: no $build/ibnetsim (build first)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "bench/setup.sh: $build/ibnetsim run bench/fattree64.cfg (64 hosts); instructions by callgrind"
printf "%-10s %12s %12s %12s %12s %12s %12s %12s\n" duration total event-loop summary.json \
  latency.csv fabric topo+route ld.so
for d in 1ns 20us; do
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$build/ibnetsim" run \
    bench/fattree64.cfg -s simulation.duration="$d" -o "$tmp/out" -q > /dev/null 2>&1
  callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$tmp/cg" > "$tmp/ann" 2>/dev/null
  python3 - "$d" "$tmp/ann" <<'PY'
import re, sys
d, text = sys.argv[1], open(sys.argv[2]).read()
def inc(fn):
    # "/abs/file.c:fn" (no "[binary]") sums the function over the files its code came from
    m = [int(x.replace(",", "")) for x in re.findall(r"^\s*([\d,]+) .*:" + fn + r"(?: \[.*)?$", text, re.M)]
    return max(m) if m else 0
total = int(re.search(r"^\s*([\d,]+) .*PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))
cols = [total] + [inc(f) for f in ("fabric_run", "results_write_json", "latency_csv_write",
                                   "fabric_build", "scenario_topology", "_dl_start")]
print(f"{d:<10}" + "".join(f" {c/1e6:11.2f}M" for c in cols))
PY
  rm -rf "$tmp/out"
done
echo "CPU seconds (user + system, from wait4), median of $runs runs, and peak RSS; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$build/ibnetsim" "$runs" "$tmp/out" <<'PY'
import os, shutil, statistics, subprocess, sys
exe, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for d in ("1ns", "20us"):
    cpu, usr, rss = [], [], 0
    for _ in range(runs):
        p = subprocess.Popen([exe, "run", "bench/fattree64.cfg", "-s", "simulation.duration=" + d,
                              "-o", out, "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if status:
            sys.exit(f"bench/setup.sh: the run failed (status {status})")
        cpu.append(ru.ru_utime + ru.ru_stime)
        usr.append(ru.ru_utime)
        shutil.rmtree(out, ignore_errors=True)
    cpu.sort()
    print(f"{d:<10} CPU {statistics.median(cpu)*1e3:.1f} ms (min {cpu[0]*1e3:.1f}, max {cpu[-1]*1e3:.1f}), "
          f"of it user {statistics.median(usr)*1e3:.1f} ms")
PY
# The peak RSS from a run of its own (a child of python would count python's).
for d in 1ns 20us; do
  /usr/bin/time -f "%M" -o "$tmp/t" "$build/ibnetsim" run bench/fattree64.cfg -s simulation.duration="$d" \
    -o "$tmp/out" -q > /dev/null 2>&1
  rm -rf "$tmp/out"
  echo "$d peak RSS $(cat "$tmp/t") KiB, $(( $(cat "$tmp/t") / 64 )) KiB per host"
done
