#!/usr/bin/env bash
# bench/hop.sh: the cost of one packet-hop in the steady state, counted by valgrind's callgrind
# (exact and load-independent, so it can be measured on a shared machine): instructions, events
# and, with --cache, cache misses per packet-hop of the 36-port switch (bench/switch36.cfg) and
# the 648-node fat tree (bench/fattree648.cfg). Each scenario runs twice, for a simulated time T
# and 2T, and the figures are the differences divided by the difference in packet-hops, so that
# set-up, warm-up and the end of the run cancel. The cache model is callgrind's (no prefetch, no
# TLB): D1 48 KiB 12-way, and an LL of 1 MiB 16-way standing for a 1 MiB L2 (--ll BYTES for
# another size); --branch adds callgrind's branch predictor model (mispredicted conditional and
# indirect branches per hop). Figures and the machine in bench/hop-diet.md.
# Usage: bench/hop.sh [--cache] [--branch] [--ll BYTES] [BUILD_DIR] (a Release build: bench/run.sh
# makes build-release). About 2 minutes without --cache on an idle core, 5 with it.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=0 branch=0 ll=1048576
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=1 ;;
    --branch) branch=1 ;;
    --ll) ll=$2; shift ;;
    *) break ;;
  esac
  shift
done
build=${1:-build-release}
[ -x "$build/bench_fabric" ] || { echo "bench/hop.sh: no $build/bench_fabric (build first)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
opts=(--tool=callgrind)
[ $cache = 1 ] && opts+=(--cache-sim=yes --D1=49152,12,64 --LL="$ll",16,64)
[ $branch = 1 ] && opts+=(--branch-sim=yes)
# run SCENARIO DURATION NAME: the counters (events, hops, then callgrind's totals) of one run.
run() {
  valgrind "${opts[@]}" --callgrind-out-file="$tmp/$3.cg" "$build"/bench_fabric "$1" \
    -s simulation.duration="$2" > "$tmp/$3.out" 2>/dev/null
  python3 - "$tmp/$3.out" "$tmp/$3.cg" <<'PY'
import re, sys
out, cg = open(sys.argv[1]).read(), open(sys.argv[2]).read()
ev = re.search(r"^BENCH .* events=(\d+) hops=(\d+)", out, re.M)
names = re.search(r"^events: (.*)$", cg, re.M).group(1).split()
vals = re.search(r"^summary: (.*)$", cg, re.M).group(1).split()
print(ev.group(1), ev.group(2), " ".join(f"{n}={v}" for n, v in zip(names, vals)))
PY
}
echo "per packet-hop, steady state (callgrind; $( [ $cache = 1 ] && echo "D1 48 KiB, LL $ll B" || echo "no cache model"))"
for c in "bench/switch36.cfg:1ms:2ms" "bench/fattree648.cfg:0.2ms:0.4ms"; do
  IFS=: read -r s t1 t2 <<< "$c"
  a=$(run "$s" "$t1" a); b=$(run "$s" "$t2" b)
  python3 - "$s" "$a" "$b" <<'PY'
import sys
s, a, b = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
def parse(x):
    d = dict(kv.split("=") for kv in x[2:])
    return int(x[0]), int(x[1]), {k: int(v) for k, v in d.items()}
e1, h1, c1 = parse(a); e2, h2, c2 = parse(b)
dh = h2 - h1
line = f"  {s:24s} instructions {(c2['Ir'] - c1['Ir']) / dh:7.1f}  events {(e2 - e1) / dh:5.3f}"
if "D1mr" in c1:
    d1 = sum(c2[k] - c1[k] for k in ("D1mr", "D1mw")) / dh
    ll = sum(c2[k] - c1[k] for k in ("DLmr", "DLmw")) / dh
    line += f"  D1 misses {d1:6.2f}  LL misses {ll:6.2f}"
if "Bcm" in c1:
    line += f"  mispredicted branches {sum(c2[k] - c1[k] for k in ('Bcm', 'Bim')) / dh:6.2f}"
print(line + f"  ({dh} hops)")
PY
done
