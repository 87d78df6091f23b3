#!/usr/bin/env bash
# interrupt.sh: a run interrupted with SIGINT (Ctrl-C) stops early, exits 130, and keeps what it
# had written in DIR.partial (the resolved scenario, the time series so far, and a summary.json
# that says "interrupted"), leaving DIR as it was. SIGTERM does the same and exits 143. A second
# SIGINT exits at once. Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$src/tests/support/e2e.sh"
scen=$src/scenarios/seed002/testbed-scenario1-ccoff.cfg
# An earlier complete result in the folder stays as it was.
"$bin" run "$scen" -o "$tmp/r" -q -s simulation.duration="1 ms" || failed "the first run failed"
cp "$tmp/r/summary.json" "$tmp/before.json"
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 130 || echo 143)
  rm -rf "$tmp/r.partial"
  "$bin" run "$scen" -o "$tmp/r" -q -s simulation.duration="500 s" 2>"$tmp/err" &
  pid=$!
  sleep 2   # long enough for a few 10-ms samples even under the sanitizers on a loaded machine
  kill -$sig "$pid"
  wait "$pid"; rc=$?
  [ "$rc" -eq "$want" ] || failed "SIG$sig: exit status $rc, expected $want"
  grep -q "results so far are in $tmp/r.partial/" "$tmp/err" || failed "SIG$sig: message: $(cat "$tmp/err")"
  for f in scenario.cfg summary.json flows.csv ports.csv latency.csv; do
    [ -s "$tmp/r.partial/$f" ] || failed "SIG$sig: $f missing or empty"
  done
  grep -q '"outcome": "interrupted"' "$tmp/r.partial/summary.json" || failed "SIG$sig: summary does not say interrupted"
  rows=$(($(wc -l < "$tmp/r.partial/flows.csv") - 1))
  [ "$rows" -ge 2 ] || failed "SIG$sig: only $rows samples kept"
  cmp -s "$tmp/r/summary.json" "$tmp/before.json" || failed "SIG$sig: the earlier results in r were changed"
done
ls -d "$tmp"/r.tmp-* >/dev/null 2>&1 && failed "temporary folders left"
echo "ok: interrupted after $rows samples; results kept in r.partial"
exit $fail
