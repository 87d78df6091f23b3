#!/usr/bin/env bash
# signal_timing.sh: a signal stops a run on a big fabric within a bounded wall time (issue 11,
# item 4). A 1,024-host three-level fat tree (16-port switches) under uniform Poisson traffic
# runs in its event loop; SIGINT must end it, results written to DIR.partial, within 5 s of
# wall time even on a loaded machine (the engine polls the flag every 2^14 events, well under a
# millisecond; the rest is writing the results of 1,280 nodes). A second SIGINT exits at once
# (before the results are written). SIGTERM exits 143.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null; rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
pid=
start() {
  "$bin" run "$src/scenarios/examples/fattree-load.cfg" -q -o "$work/r" -s topology.generator=fattree \
    -s topology.args=ports=16,levels=3 -s simulation.duration="1 s" -s simulation.sample_interval="100 us" \
    2>"$work/err" &
  pid=$!
  # In the event loop once a few samples are written.
  for _ in $(seq 1200); do
    f=$(ls "$work"/r.tmp-*/flows.csv 2>/dev/null | head -1)
    [ -n "$f" ] && [ "$(wc -l < "$f")" -gt 2 ] && return 0
    kill -0 $pid 2>/dev/null || { failed "the run ended: $(cat "$work/err")"; return 1; }
    sleep 0.1
  done
  failed "the run did not start sampling within 120 s"
  return 1
}
now() { date +%s.%N; }

for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 130 || echo 143)
  rm -rf "$work/r.partial"
  start || break
  t0=$(now)
  kill -$sig $pid
  wait $pid; rc=$?
  dt=$(echo "$(now) - $t0" | bc)
  [ "$rc" = "$want" ] || failed "SIG$sig: exit status $rc, expected $want: $(cat "$work/err")"
  [ "$(echo "$dt < 5" | bc)" = 1 ] || failed "SIG$sig: the run took $dt s to stop"
  grep -q '"outcome": "interrupted"' "$work/r.partial/summary.json" || failed "SIG$sig: no partial summary"
  echo "SIG$sig: stopped and wrote its results in $dt s"
done

# Two SIGINTs: out at once, the temporary folder left (and named). Signals sent too close
# together merge into one, so the second follows after 0.05 s (the results of this fabric take
# longer than that to write); a try where it still arrived too late is repeated.
ok=0
for try in 1 2 3; do
  rm -rf "$work"/r.tmp-* "$work/r.partial"
  start || break
  kill -INT $pid
  sleep 0.05
  kill -INT $pid 2>/dev/null
  wait $pid; rc=$?
  [ "$rc" = 130 ] || failed "second SIGINT: exit status $rc, expected 130"
  if grep -q "interrupted again: exiting at once; what was written is in $work/r.tmp-" "$work/err"; then
    ok=1
    [ -e "$work/r.partial" ] && failed "second SIGINT: the results were put in place all the same"
    break
  fi
done
[ $ok = 1 ] || echo "note: the second SIGINT arrived after the results were written in 3 tries (a fast machine); not checked"
pid=
exit $fail
