#!/usr/bin/env bash
# bench/run.sh: builds ibnetsim optimised and runs the benchmark scenarios, printing events/s,
# packet-hops/s (per wall and per CPU second), simulated time per wall second, wall time and
# peak memory for each, the event-queue comparison, and the 0.5 s Paper IV congestion-control
# run (bench_cc). Usage: bench/run.sh [BUILD_DIR]. Takes about three minutes. Instructions,
# events and cache misses per packet-hop (callgrind, load-independent): bench/hop.sh
# [--cache] BUILD_DIR, figures in bench/hop-diet.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-release}
./scripts/deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
"$build"/bench_eventq
for s in bench/switch36.cfg bench/fattree648.cfg bench/fattree648-rc.cfg bench/*-cc.cfg; do
  [ -f "$s" ] || continue
  "$build"/bench_fabric "$s" | grep -v '^BENCH'
done
[ -x "$build"/bench_routing ] && "$build"/bench_routing || true
[ -x "$build"/bench_cc ] && "$build"/bench_cc || true
[ -x "$build"/bench_qos ] && "$build"/bench_qos || true
[ -x "$build"/bench_seed004 ] && "$build"/bench_seed004 || true
bench/capture.sh "$build" || true
bench/isolation.sh "$build"
