#!/usr/bin/env bash
# results_folder.sh: a run's results folder is written beside its target and renamed into
# place whole (cli/resdir.c). Two runs into one -o never mix: the folder is byte for byte the
# result of one of them. A reused folder keeps nothing of an earlier run (the cc*.csv of a run
# with congestion control are gone after a run without). A folder that is not a results
# folder is refused before the run and left alone.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
on=$src/scenarios/seed002/testbed-scenario1-ccon.cfg
off=$src/scenarios/seed002/testbed-scenario1-ccoff.cfg
short=(-s simulation.duration="20 ms" -s simulation.sample_interval="10 us")

# References: each run alone.
"$bin" run "$on" "${short[@]}" -o "$work/a" -q || failed "run a"
"$bin" run "$off" "${short[@]}" -o "$work/b" -q || failed "run b"
# Concurrent runs into one folder, several times.
for i in 1 2 3; do
  "$bin" run "$on" "${short[@]}" -o "$work/both" -q & p1=$!
  "$bin" run "$off" "${short[@]}" -o "$work/both" -q & p2=$!
  wait $p1 || failed "concurrent run 1 failed"
  wait $p2 || failed "concurrent run 2 failed"
  if diff -r -q "$work/a" "$work/both" >/dev/null; then :
  elif diff -r -q "$work/b" "$work/both" >/dev/null; then :
  else failed "two runs into one folder mixed: $(diff -r -q "$work/a" "$work/both" | head -3)"; fi
  ls -d "$work"/both.* >/dev/null 2>&1 && failed "temporary folders left: $(ls -d "$work"/both.*)"
done

# A reused folder: the CC run's cc*.csv do not survive a run without CC.
"$bin" run "$on" "${short[@]}" -o "$work/re" -q || failed "run re (cc)"
[ -s "$work/re/cc_ports.csv" ] || failed "the CC run wrote no cc_ports.csv"
touch "$work/re/plot-ports.csv" # a file `plot` would have added
"$bin" run "$off" "${short[@]}" -o "$work/re/" -q || failed "run re (no cc)"
diff -r -q "$work/b" "$work/re" >/dev/null || failed "a reused folder differs from a fresh one: $(diff -r -q "$work/b" "$work/re")"

# Not a results folder: refused (exit 2), left alone.
mkdir "$work/mine" && echo precious > "$work/mine/notes.txt"
expect 2 "$work/mine exists and is not an ibnetsim results folder" "$bin" run "$off" "${short[@]}" -o "$work/mine" -q
[ "$(cat "$work/mine/notes.txt")" = precious ] || failed "a user's folder was touched"
echo x > "$work/file"
expect 2 "$work/file exists and is not a folder" "$bin" run "$off" "${short[@]}" -o "$work/file" -q
expect 2 "name the results folder itself" "$bin" run "$off" "${short[@]}" -o "$work/." -q
# An empty folder is used.
mkdir "$work/empty"
expect 0 "" "$bin" run "$off" "${short[@]}" -o "$work/empty" -q
[ -s "$work/empty/summary.json" ] || failed "an empty folder was not used"
# Parents are created.
expect 0 "" "$bin" run "$off" "${short[@]}" -o "$work/x/y/z" -q
[ -s "$work/x/y/z/summary.json" ] || failed "no results in a new nested folder"
ls -a "$work" | grep -q 'tmp-' && failed "temporary folders left: $(ls -a "$work")"
exit $fail
