#!/usr/bin/env bash
# sweep_load.sh: `ibnetsim sweep` as a user runs it, and the load-latency curve it must show.
# A sweep of offered load on a 4-ary 2-tree under uniform Poisson traffic
# (scenarios/examples/fattree-load.cfg) with input-FIFO (1Q) switches gives the familiar curve:
# latency flat at low load, rising steeply near saturation, accepted traffic following the
# offered load and then levelling off. The saturation point is checked against a run at a
# fixed load (every source saturated): its throughput is the sweep's plateau, and the sweep
# leaves the offered line between the loads that bracket it. VOQ switches saturate later.
# Also: sweep.csv is byte-identical for -j 1 and -j 2, a point equals a plain run at the same
# settings, failed points are reported and the sweep exits 1, bad usage exits 2.
# Args: the ibnetsim binary and the source directory. (Output is matched with here-strings,
# not `echo | grep -q`, which fails under pipefail when grep exits before echo has written.)
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
scen=$src/scenarios/examples/fattree-load.cfg

expect 0 "usage: ibnetsim sweep" "$bin" sweep --help
expect 2 "expected -k KEY=VALUES" "$bin" sweep "$scen"
expect 2 "expected SCENARIO" "$bin" sweep -k flows.*.load=0.1
expect 2 "expected KEY=VALUES" "$bin" sweep "$scen" -k flows.*.load
expect 2 "three numbers" "$bin" sweep "$scen" -k flows.*.load=0.1:x:0.1
expect 2 "the step must be non-zero" "$bin" sweep "$scen" -k flows.*.load=1:0:0.1
expect 2 "given twice" "$bin" sweep "$scen" -k flows.*.load=0.1 -k flows.*.load=0.2
expect 2 "expected a number of jobs" "$bin" sweep "$scen" -k flows.*.load=0.1 -j 0
expect 2 "point-000 (flows.\*.load=0.1 flows.\*.nosuch=1): .*no key \"nosuch\"" "$bin" sweep "$scen" -k flows.*.load=0.1,0.2 -k flows.*.nosuch=1,2 -o "$work/bad"
[ -e "$work/bad" ] && failed "an invalid sweep started running"

# The load sweep, FIFO and VOQ switches, on 2 workers.
expect 0 "20 points, 0 failed" "$bin" sweep "$scen" -k 'flows.*.load=0.1:1.0:0.1' -k switch.arch=fifo,voq \
  -j 2 -o "$work/s3"
csv=$work/s3/sweep.csv
[ "$(head -1 "$csv")" = "flows.*.load,switch.arch,offered_gbps,accepted_gbps,net_latency_mean_ns,net_latency_p99_ns,e2e_latency_mean_ns,e2e_latency_p99_ns,saturated,outcome" ] \
  || failed "sweep.csv header: $(head -1 "$csv")"
[ "$(tail -n +2 "$csv" | grep -c ',drained$')" = 20 ] || failed "not every point drained: $(cat "$csv")"
[ "$(sed -n 2p "$csv" | cut -d, -f1,2)" = "0.1,fifo" ] || failed "first row is not load 0.1, fifo"
[ "$(sed -n 11p "$csv" | cut -d, -f1,2)" = "1,fifo" ] || failed "the first key does not vary fastest"
# Same inputs, one worker: the same bytes.
"$bin" sweep "$scen" -k 'flows.*.load=0.1:1.0:0.1' -k switch.arch=fifo,voq -j 1 -q --no-plot -o "$work/s1" \
  || failed "the -j 1 sweep failed"
cmp -s "$csv" "$work/s1/sweep.csv" || failed "sweep.csv differs between -j 2 and -j 1"
# A point is exactly the run with the same settings.
"$bin" run "$scen" -s 'flows.*.load=0.8' -s switch.arch=fifo -o "$work/p8" -q || failed "run at load 0.8 failed"
cmp -s "$work/p8/summary.json" "$work/s3/point-007/summary.json" \
  || failed "point-007 (load 0.8, fifo) differs from a run at load 0.8"

# The curve (FIFO). Columns: 1 load, 2 arch, 3 offered, 4 accepted, 5 net mean, 7 e2e mean.
grep ',fifo,' "$csv" > "$work/fifo.csv"
grep ',voq,' "$csv" > "$work/voq.csv"
# Offered load is the flows' configured rates: 16 hosts x load x 32 Gb/s (4x QDR).
awk -F, '{ if ($3 + 0 != 16 * 32 * $1) { print "offered " $3 " at load " $1; bad = 1 } } END { exit bad }' \
  "$work/fifo.csv" || failed "offered_gbps is not 16 x load x 32 Gb/s"
# Below saturation the network carries what is offered (within Poisson noise).
awk -F, '$1 <= 0.7 && $4 < 0.95 * $3 { print "load " $1 ": accepted " $4 " of " $3; bad = 1 } END { exit bad }' \
  "$work/fifo.csv" || failed "accepted traffic falls short of the offered load below saturation"
# Latency is flat at low load: at 0.3 within 1.3 x its value at 0.1 (the 1Q switches saturate
# near 0.7 of the link rate, so 0.3 is well below it).
awk -F, '$1 == 0.1 { a = $5 } $1 == 0.3 { b = $5 } END { if (!(a > 0 && b < 1.3 * a)) { print a, b; exit 1 } }' \
  "$work/fifo.csv" || failed "network latency is not flat at low load"
# ... and rises steeply near saturation: end-to-end latency at load 1 above 20 x its value at
# 0.1, and most of that rise in the last three steps (past saturation).
awk -F, '$1 == 0.1 { a = $7 } $1 == 0.7 { b = $7 } $1 == 1 { c = $7 } END {
  if (!(c > 20 * a && c - b > 0.8 * (c - a))) { print a, b, c; exit 1 } }' "$work/fifo.csv" \
  || failed "end-to-end latency does not rise steeply near saturation"
# Accepted traffic levels off: the last step adds less than 10 % of the offered step.
awk -F, '$1 == 0.9 { a = $4; o = $3 } $1 == 1 { b = $4; p = $3 } END { if (!(b - a < 0.1 * (p - o))) { print a, b; exit 1 } }' \
  "$work/fifo.csv" || failed "accepted traffic does not level off at saturation"

# The saturation point against a run at a fixed load: every source saturated.
"$bin" run "$scen" -s 'flows.*.kind=saturate' -s switch.arch=fifo -o "$work/sat" -q || failed "saturated run failed"
sat=$(sed -n 's/.*"total_throughput_gbps": *\([0-9.]*\).*/\1/p' "$work/sat/summary.json")
# The sweep's plateau is the saturation throughput (within 3 %).
awk -F, -v s="$sat" '{ if ($4 > m) m = $4 } END { if (!(s > 0 && m > 0.97 * s && m < 1.03 * s)) { print "plateau " m ", saturated " s; exit 1 } }' \
  "$work/fifo.csv" || failed "the sweep's plateau is not the saturated run's throughput $sat Gb/s"
# The first load where the sweep leaves the offered line (accepted < 97 % of offered) and the
# load before it bracket the saturation load (saturated throughput / 512 Gb/s per unit load).
awk -F, -v s="$sat" '!k && $4 < 0.97 * $3 { k = $1 } END { l = s / 512; if (!(k > 0 && l > k - 0.1 - 1e-9 && l <= k + 1e-9)) { print "knee " k ", saturation load " l; exit 1 } }' \
  "$work/fifo.csv" || failed "the knee of the sweep does not bracket the saturation load"
# VOQ switches (no head-of-line blocking) saturate later and higher.
vmax=$(awk -F, '{ if ($4 > m) m = $4 } END { print m }' "$work/voq.csv")
awk -v v="$vmax" -v s="$sat" 'BEGIN { exit !(v > 1.05 * s) }' || failed "VOQ plateau $vmax is not above FIFO saturation $sat"

if command -v gnuplot >/dev/null; then
  [ -s "$work/s3/sweep.png" ] && [ -s "$work/s3/sweep.svg" ] || failed "no sweep.png/.svg"
  [ -s "$work/s3/plot-sweep.gp" ] || failed "no plot-sweep.gp"
else
  echo "SKIP: gnuplot is not installed; sweep.png/.svg not checked"
fi

# A failing point (the fabric cannot drain in 1 ns) is reported; the others still run.
out=$("$bin" sweep "$scen" -k 'flows.*.load=0.2,0.5' -k 'simulation.drain_limit=1 s,1 ns' -q --no-plot \
  -o "$work/f" 2>&1)
rc=$?
[ "$rc" = 1 ] || failed "a sweep with failing points exited $rc"
grep -q "point-002 (flows.\*.load=0.2 simulation.drain_limit=1 ns) failed, exit status 1: .*did not drain" <<<"$out" \
  || failed "the failed point is not reported with its status and error: $out"
[ "$(grep -c ',drained$' "$work/f/sweep.csv")" = 2 ] || failed "the good points are missing: $(cat "$work/f/sweep.csv")"
[ "$(grep -c 'failed (exit status 1)$' "$work/f/sweep.csv")" = 2 ] || failed "failed points are not marked in sweep.csv"
exit $fail
