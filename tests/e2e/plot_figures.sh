#!/usr/bin/env bash
# plot_figures.sh: the figures of `ibnetsim plot` that answer a question, checked in their
# scripts and files: every title names the run; colours stay distinct for any number of flows
# (the palette's first 64 colour and dash pairs, evaluated by gnuplot itself, are all
# different); --highlight draws the named flows in colour and the others grey under one legend
# entry, and refuses a flow that does not exist; the topology picture of an incast (H1 and H2
# at 0.8 of their links into H3, H4 at 0.3 into H1) has the 4 cables, arrows from H1 and H2
# towards the switch (their transmitters waited for credits: the congestion tree), the widest
# edge to H3 (its link is the busiest) and no arrow on H4's idle-credit cable; adapters are left
# out of a 702-node fat tree; several runs overlay into one figure with a legend entry per
# run. Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
cd "$work"
cat > incast.cfg <<'CFG'
simulation = { name = "incast into H3"; duration = "300 us"; warmup = "50 us"; sample_interval = "10 us"; seed = 3; };
topology = { generator = "single_switch"; args = "ports=4"; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; kind = "poisson"; load = 0.8; msg_size = "2 KiB"; },
  { name = "B"; src = "H2"; dst = "H3"; kind = "poisson"; load = 0.8; msg_size = "2 KiB"; },
  { name = "V"; src = "H4"; dst = "H1"; kind = "poisson"; load = 0.3; msg_size = "2 KiB"; }
);
CFG
"$bin" run incast.cfg -o r1 -q || failed "run r1"
"$bin" run incast.cfg -o r2 -q -s switch.arch=fifo -s 'simulation.name=incast, 1Q' || failed "run r2"

expect 0 "" "$bin" plot r1 --highlight A,V -q
for f in throughput latency ports; do
  grep -q '^set title "incast into H3: ' "r1/plot-$f.gp" || failed "plot-$f.gp's title does not name the run"
done
grep -q '"A" *using\|flows.csv" using ($1\*tscale):2 with lines lw 2.5 lc rgb col(0) dt dash(0) title "A"' r1/plot-throughput.gp \
  || failed "A is not drawn in colour: $(grep -n 'title' r1/plot-throughput.gp | head -3)"
grep -q 'title "V"' r1/plot-throughput.gp || failed "V is not highlighted"
grep -q '^others = "3"$' r1/plot-throughput.gp || failed "B is not among the grey others"
grep -q 'the other 1 flows' r1/plot-throughput.gp || failed "no legend entry for the other flows"
[ -s r1/throughput.png ] && [ -s r1/topology.png ] && [ -s r1/topology.svg ] || failed "figures missing"
expect 2 'has no flow "Q" (its flows: A, B, V)' "$bin" plot r1 --highlight Q
expect 2 'add -o DIR' "$bin" plot r1 r2
expect 2 '-o DIR is for the overlay' "$bin" plot r1 -o x

# Distinct colours: gnuplot evaluates the palette the scripts define.
grep -E '^(hue|col|dash)\(i\) =' r1/plot-throughput.gp > pal.gp
[ "$(wc -l < pal.gp)" = 3 ] || failed "the palette is not defined in plot-throughput.gp"
gnuplot -e 'load "pal.gp"; do for [i=0:63] { print sprintf("%d %d", col(i), dash(i)) }' 2> pairs.txt
[ "$(sort -u pairs.txt | wc -l)" = 64 ] || failed "the first 64 colour/dash pairs are not distinct: $(sort pairs.txt | uniq -d | head -3)"

# The topology of the incast.
dot=r1/topology.dot
[ "$(grep -c -- ' -- ' "$dot")" = 4 ] || failed "topology.dot has $(grep -c -- ' -- ' "$dot") cables, not 4"
grep -q '^  "H1" -- "S1" .*dir=forward' "$dot" || failed "no arrow from H1 (it waited for credits): $(grep '"H1" --' "$dot")"
grep -q '^  "H2" -- "S1" .*dir=forward' "$dot" || failed "no arrow from H2"
grep -q '^  "H4" -- "S1" .*dir=none' "$dot" || failed "an arrow on H4's cable"
widest=$(grep -- ' -- ' "$dot" | sed 's/.*penwidth=\([0-9.]*\).*/\1 &/' | sort -rn | head -1)
grep -q '"H3" -- "S1"' <<<"$widest" || failed "the widest cable is not H3's: $widest"
grep -q 'label="incast into H3' "$dot" || failed "the picture does not name the run"

# A 702-node fat tree: switches only.
"$bin" run "$src/bench/fattree648.cfg" -s simulation.duration=20us -o big -q || failed "fat tree run"
expect 0 "" "$bin" plot big --scripts-only -q
grep -q 'adapters left out' big/topology.dot || failed "the fat tree's adapters are drawn"
[ "$(grep -c 'shape=box' big/topology.dot)" = 54 ] || failed "not 54 switches in the fat tree's picture"
[ "$(grep -c 'shape=ellipse' big/topology.dot)" = 0 ] || failed "adapters in the fat tree's picture"
[ "$(grep -c -- ' -- ' big/topology.dot)" = 648 ] || failed "not 648 switch-to-switch cables"

# Two runs overlaid.
expect 0 "cmp/compare.png" "$bin" plot r1 r2 -o cmp --highlight V
gp=cmp/plot-compare.gp
grep -q 'Overlay of 2 runs: incast into H3 vs incast, 1Q' "$gp" || failed "the overlay's title"
grep -q "$work/r1/flows.csv" "$gp" && grep -q "$work/r2/latency.csv" "$gp" || failed "the overlay does not read both runs"
grep -q 'title "incast, 1Q: V"' "$gp" || failed "the highlighted flow of run 2 has no legend entry"
[ -s cmp/compare.png ] && [ -s cmp/compare.svg ] || failed "no compare.png/.svg"
"$bin" run incast.cfg -o r3 -q -s simulation.seed=4 || failed "run r3"
expect 0 "" "$bin" plot r1 r3 -o cmp2 -q
grep -q 'title "r3: all flows"' cmp2/plot-compare.gp || failed "runs of the same name are not told apart by folder"
exit $fail
