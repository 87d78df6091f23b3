#!/usr/bin/env bash
# repro_partial.sh: `ibnetsim repro A B` writes the rows of A to its table before it starts B, so
# a run of several reproductions that is killed keeps what it finished (a full seed 002 run is
# about an hour). The table after A alone has exactly A's rows, and the finished run's table is
# A's rows then B's. Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$src/tests/support/e2e.sh"
"$bin" repro tables -o "$tmp/a.csv" -j 1 > /dev/null 2>&1
[ -s "$tmp/a.csv" ] || failed "repro tables wrote no table"
"$bin" repro tables s000et -o "$tmp/ab.csv" -j 1 > "$tmp/out" 2> "$tmp/err" &
pid=$!
for _ in $(seq 600); do grep -q "running s000et" "$tmp/err" && break; sleep 0.5; done
grep -q "rows of 1 of 2 reproductions written to $tmp/ab.csv" "$tmp/err" ||
  failed "no table after the first reproduction: $(cat "$tmp/err")"
cp "$tmp/ab.csv" "$tmp/partial.csv"
cmp -s "$tmp/partial.csv" "$tmp/a.csv" || failed "the table after 'tables' is not 'tables' alone"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -s "$tmp/ab.csv" ] || failed "killing the run lost the table"
# Killed during s000et, the table is still tables' alone; had s000et already finished, its rows
# follow tables'.
n=$(wc -l < "$tmp/a.csv")
cmp -s <(head -n "$n" "$tmp/ab.csv") "$tmp/a.csv" || failed "the killed run's table lost tables' rows"
[ "$fail" -eq 0 ] && echo "ok: a killed multi-part repro keeps the finished parts' rows"
exit $fail
