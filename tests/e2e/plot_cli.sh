#!/usr/bin/env bash
# plot_cli.sh: `ibnetsim plot` as a user runs it: help and bad usage; a run with two classes
# (SL 0 and SL 1) writes latency.csv with per-class and overall CDFs that agree with
# summary.json; plot writes its scripts and non-empty PNG and SVG figures (throughput, latency,
# ports, and cc when cc.csv exists); without gnuplot it says so and exits 1 after writing the
# scripts. Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"

expect 0 "usage: ibnetsim plot" "$bin" plot --help
expect 2 "expected RUN_DIR" "$bin" plot
expect 2 "unexpected argument \"--frob\"" "$bin" plot "$work" --frob
expect 2 "is not a results folder" "$bin" plot "$work"

cat > "$work/two.cfg" <<'CFG'
simulation = { duration = "200 us"; warmup = "20 us"; sample_interval = "10 us"; };
topology = { generator = "kary_ntree"; args = "k=2,n=2"; };
fabric = { vls = 2; };
flows = (
  { name = "bulk"; src = "H1"; dst = "H4"; sl = 0; kind = "poisson"; load = 0.6; msg_size = 4096; },
  { name = "lat"; src = "H2"; dst = "H4"; sl = 1; kind = "poisson"; load = 0.2; msg_size = 256; }
);
CFG
run=$work/run
"$bin" run "$work/two.cfg" -o "$run" -q || failed "run of two.cfg failed"
lat=$run/latency.csv
[ "$(head -1 "$lat")" = "latency,class,value_ns,count,cdf" ] || failed "latency.csv header: $(head -1 "$lat")"
for k in network end_to_end; do
  for c in all sl0 sl1; do
    grep -q "^$k,$c," "$lat" || failed "latency.csv has no $k,$c rows"
  done
done
grep -q ",sl2," "$lat" && failed "latency.csv has a class without flows"
# Each (latency, class) curve: values increasing, cdf increasing and ending at 1, counts
# summing to cdf * total.
awk -F, 'NR > 1 {
  key = $1 "," $2
  if (key == prev && ($3 <= pv || $5 < pc)) { print "not increasing at " NR; bad = 1 }
  if (key != prev && prev != "" && (pc < 0.999999999 || pc > 1.000000001)) { print prev " ends at " pc; bad = 1 }
  n[key] += $4; prev = key; pv = $3; pc = $5
} END {
  if (pc < 0.999999999) { print prev " ends at " pc; bad = 1 }
  if (n["network,all"] != n["network,sl0"] + n["network,sl1"]) { print "all != sl0 + sl1"; bad = 1 }
  exit bad }' "$lat" || failed "latency.csv curves are not CDFs"
# The overall count is the packets measured in summary.json (sum of the flows' samples).
want=$(sed -n '/"flows": \[/,/"classes": \[/p' "$run/summary.json" | grep -A1 '"network_latency"' | grep -o '"samples": [0-9]*' | awk '{ s += $2 } END { print s }')
got=$(awk -F, '$1 == "network" && $2 == "all" { s += $4 } END { print s }' "$lat")
[ -n "$want" ] && [ "$want" -gt 0 ] && [ "$want" = "$got" ] || failed "latency.csv counts $got packets, summary.json $want"

expect 0 "" "$bin" plot "$run" --scripts-only -q
for f in throughput latency ports; do
  [ -s "$run/plot-$f.gp" ] || failed "no plot-$f.gp"
done
[ -e "$run/plot-cc.gp" ] && failed "plot-cc.gp written without cc.csv"
grep -q '"sl1"' "$run/plot-latency.gp" || failed "plot-latency.gp does not draw class SL 1"
[ "$(grep -c ',S' "$run/plot-ports.csv")" -gt 0 ] || failed "plot-ports.csv has no switch ports"

# Without gnuplot on the PATH: a clear message, exit 1, scripts written.
nogp=$work/nogp
mkdir -p "$nogp"
cp -r "$run" "$work/run2"
rm -f "$work/run2"/plot-*
expect 1 "gnuplot is not installed" env PATH="$nogp" "$bin" plot "$work/run2"
[ -s "$work/run2/plot-latency.gp" ] || failed "no scripts written when gnuplot is missing"

if ! command -v gnuplot >/dev/null; then
  echo "SKIP: gnuplot is not installed; the figures were not checked"
  exit $fail
fi
# cc.csv (per-flow CCTI, same wide format as flows.csv) is plotted when present.
awk -F, 'NR == 1 { print; next } { printf "%s", $1; for (i = 2; i <= NF; i++) printf ",%d", (NR + i) % 7; print "" }' \
  "$run/flows.csv" > "$run/cc.csv"
expect 0 "latency.png" "$bin" plot "$run"
for f in throughput latency ports cc; do
  for x in png svg; do
    [ -s "$run/$f.$x" ] || failed "no $f.$x"
  done
  [ -s "$run/plot-$f.gp" ] || failed "no plot-$f.gp"
done
[ "$(head -c 4 "$run/latency.png" | tail -c 3)" = PNG ] || failed "latency.png is not a PNG"
grep -q "<svg" "$run/ports.svg" || failed "ports.svg is not an SVG"
grep -q "fraction of packets" "$run/latency.svg" || failed "latency.svg lacks its axis label"
# The scripts re-run on their own inside the folder.
rm -f "$run/ports.png"
(cd "$run" && gnuplot plot-ports.gp) || failed "gnuplot plot-ports.gp failed in the folder"
[ -s "$run/ports.png" ] || failed "re-running plot-ports.gp did not draw ports.png"
exit $fail
