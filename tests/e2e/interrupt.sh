#!/usr/bin/env bash
# interrupt.sh: a run interrupted with SIGINT (Ctrl-C) stops early, exits 130, and keeps what it
# had written: the resolved scenario, the time series so far, and a summary.json that says
# "interrupted". Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" run "$src/scenarios/seed002/testbed-scenario1-ccoff.cfg" -o "$tmp/r" -q \
  -s simulation.duration="500 s" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 130 ] || { echo "FAIL: exit status $rc, expected 130"; exit 1; }
for f in scenario.cfg summary.json flows.csv ports.csv; do
  [ -s "$tmp/r/$f" ] || { echo "FAIL: $f missing or empty"; exit 1; }
done
grep -q '"outcome": "interrupted"' "$tmp/r/summary.json" || { echo "FAIL: summary does not say interrupted"; exit 1; }
rows=$(($(wc -l < "$tmp/r/flows.csv") - 1))
[ "$rows" -gt 10 ] || { echo "FAIL: only $rows samples kept"; exit 1; }
echo "ok: interrupted after $rows samples; results kept"
