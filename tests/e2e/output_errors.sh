#!/usr/bin/env bash
# output_errors.sh: every output is checked. A write that fails (a full disk: /dev/full, or a
# file size limit: ulimit -f) ends the command with exit status 3 and a message naming the file
# and the reason; it never passes for a success (0) or for a broken invariant (1). A failed run
# leaves neither a results folder nor its temporary folder behind.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
scen=$src/scenarios/seed002/testbed-scenario1-ccon.cfg
short=(-s simulation.duration="2 ms")

# Standard output on a full disk.
out() { "$@" > /dev/full; }
expect 3 "cannot write standard output: No space left on device" out "$bin" keys
expect 3 "cannot write standard output: No space left on device" out "$bin" topo generate fattree ports=4,levels=2
expect 3 "cannot write standard output: No space left on device" out "$bin" --help
# Files named by the user.
expect 3 "cannot write /dev/full: No space left on device" "$bin" scenario hotspot gen:fattree:ports=8,levels=2 -o /dev/full
expect 3 "cannot write /dev/full: No space left on device" "$bin" topo generate fattree ports=4,levels=2 -o /dev/full
expect 3 "cannot write /dev/full: No space left on device" "$bin" topo generate fattree ports=4,levels=2 -o "$work/t.topo" --guid2lid /dev/full
expect 3 "cannot write /dev/full: No space left on device" "$bin" route compute gen:fattree:ports=4,levels=2 -o /dev/full
expect 3 "cannot write /dev/full: No space left on device" "$bin" route check gen:fattree:ports=4,levels=2 --ports /dev/full
expect 3 "cannot write $work/nodir/x.csv: No such file or directory" "$bin" route check gen:fattree:ports=4,levels=2 --ports "$work/nodir/x.csv"
mkdir "$work/m" && ln -s /dev/full "$work/m/model.csv"
expect 3 "cannot write $work/m/model.csv: No space left on device" "$bin" model mm1k -o "$work/m"

# A run: every file of the results folder is checked; a size limit makes one of them fail.
# 1 KiB: scenario.cfg fails; 8 KiB: summary.json at the end; 20 KiB with a sample every 1 us:
# a time series during the run (which then stops at once).
for case in "1 scenario.cfg" "8 summary.json" "20 [a-z]*s.csv -s simulation.sample_interval=1us"; do
  set -- $case
  limit=$1 file=$2
  shift 2
  rm -rf "$work/r"
  out=$(ulimit -f $limit; trap '' XFSZ; "$bin" run "$scen" "${short[@]}" "$@" -o "$work/r" -q 2>&1); rc=$?
  [ "$rc" = 3 ] || failed "a run limited to $limit KiB per file exited $rc, expected 3: $out"
  grep -q "cannot write $work/r.tmp-[A-Za-z0-9]*/$file: File too large" <<<"$out" \
    || failed "the message does not name $file and the reason: $out"
  [ -e "$work/r" ] && failed "a failed run left a results folder"
  ls -d "$work"/r.tmp-* >/dev/null 2>&1 && failed "a failed run left its temporary folder"
done
# A big enough limit: the same run succeeds.
out=$(ulimit -f 4096; trap '' XFSZ; "$bin" run "$scen" "${short[@]}" -o "$work/r" -q 2>&1) || failed "run: $out"
[ -s "$work/r/summary.json" ] || failed "no summary.json"

# Files that plot and sweep write inside a folder.
ln -s /dev/full "$work/r/plot-ports.csv"
expect 3 "cannot write $work/r/plot-ports.csv: No space left on device" "$bin" plot "$work/r" --scripts-only
mkdir "$work/sw" && ln -s /dev/full "$work/sw/sweep.csv"
expect 3 "cannot write $work/sw/sweep.csv: No space left on device" "$bin" sweep "$scen" "${short[@]}" \
  -k simulation.seed=1 -o "$work/sw" -q --no-plot
exit $fail
