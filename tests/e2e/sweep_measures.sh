#!/usr/bin/env bash
# sweep_measures.sh: what a sweep reports beyond the aggregate columns, and sweeps run elsewhere.
# Two Poisson flows A (H1) and B (H2) into H3 on one 4x QDR switch, 2 KiB messages in one
# 2,074-byte packet (26 bytes of LRH, BTH, ICRC, VCRC): H3's link carries at most
# 32 x 2048 / 2074 = 31.599 Gb/s of payload. Swept over load 0.2..0.8 of each source's link:
# - -m flows.A.throughput_gbps is A's offered 32 x load Gb/s below saturation (within 10 %:
#   Poisson noise over 2 ms) and half the H3 link once saturated (within 3 %: the switch serves
#   the two inputs round robin); flows.*.throughput_gbps:sum is the accepted_gbps column;
# - saturated is no at 0.2 and 0.4 (25.6 Gb/s offered fits) and yes from 0.6 (38.4 Gb/s does
#   not), and the command prints that 0.6 is the saturation point; the plot marks it and its
#   x axis names the key's meaning; --log-latency sets a log axis;
# - bad measures are refused before any run (unknown flow, a glob without an aggregate, an
#   empty segment) or after it with what summary.json holds (exit 1);
# - --resume runs only the missing points and gives the same sweep.csv; another sweep in the
#   folder is refused; --emit slurm / parallel write one command per point and --merge
#   collects them into the sweep.csv of a local sweep, byte for byte; missing points exit 1.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
cd "$work"
cat > incast.cfg <<'CFG'
simulation = { name = "two flows into H3"; duration = "2 ms"; warmup = "100 us"; sample_interval = "0 s"; seed = 3; };
topology = { generator = "single_switch"; args = "ports=4"; };
fabric = { mtu = 2048; };
output = { flow_series = false; port_series = false; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; kind = "poisson"; load = 0.2; msg_size = "2 KiB"; },
  { name = "B"; src = "H2"; dst = "H3"; kind = "poisson"; load = 0.2; msg_size = "2 KiB"; }
);
CFG
k='flows.*.load=0.2:0.8:0.2'

out=$("$bin" sweep incast.cfg -k "$k" -m flows.A.throughput_gbps -m 'flows.*.throughput_gbps:sum' \
  -m 'ports.S1:3.PortXmitPkts' --log-latency -o s1 2>&1) || failed "the sweep failed: $out"
grep -q '^saturation: flows\.\*\.load = 0\.6 ' <<<"$out" || failed "saturation point not 0.6: $out"
csv=s1/sweep.csv
[ "$(head -1 "$csv")" = 'flows.*.load,offered_gbps,accepted_gbps,net_latency_mean_ns,net_latency_p99_ns,e2e_latency_mean_ns,e2e_latency_p99_ns,flows.A.throughput_gbps,flows.*.throughput_gbps:sum,ports.S1:3.PortXmitPkts,saturated,outcome' ] \
  || failed "header: $(head -1 "$csv")"
# Columns: 1 load, 3 accepted, 8 A, 9 sum, 10 packets out of S1 port 3, 11 saturated, 12 outcome.
awk -F, 'NR > 1 {
  cap = 32 * 2048 / 2074
  if ($1 <= 0.4 && ($8 < 0.9 * 32 * $1 || $8 > 1.1 * 32 * $1)) { print "A at " $1 ": " $8; bad = 1 }
  if ($1 >= 0.6 && ($8 < 0.97 * cap / 2 || $8 > 1.03 * cap / 2)) { print "A saturated at " $1 ": " $8; bad = 1 }
  if ($1 >= 0.6 && ($3 < 0.995 * cap || $3 > 1.001 * cap)) { print "accepted at " $1 ": " $3 " vs " cap; bad = 1 }
  d = $9 - $3; if (d < 0) d = -d; if (d > 1e-5 * $3) { print "sum " $9 " vs accepted " $3; bad = 1 }
  if ($10 <= 0) { print "no packets out of S1 port 3 at " $1; bad = 1 }
  want = $1 >= 0.6 ? "yes" : "no"; if ($11 != want) { print "saturated at " $1 ": " $11; bad = 1 }
  if ($12 != "drained") { print "outcome " $12; bad = 1 }
} END { exit bad }' "$csv" || failed "the measures disagree with the first principles above"
gp=s1/plot-sweep.gp
grep -q 'flows\.\*\.load: offered load as a fraction' "$gp" || failed "x axis without the key's meaning"
grep -q '^set arrow from 0.6, graph 0' "$gp" || failed "the saturation point is not marked"
grep -q 'set logscale y' "$gp" || failed "--log-latency without a log axis"
grep -q 'two flows into H3' "$gp" || failed "the plot's title does not name the run"

expect 2 'no flow is named "C" (the flows: A, B)' "$bin" sweep incast.cfg -k "$k" -m flows.C.throughput_gbps -o bad
expect 2 'names 2 flows: add :sum' "$bin" sweep incast.cfg -k "$k" -m 'flows.*.throughput_gbps' -o bad
expect 2 'an empty segment' "$bin" sweep incast.cfg -k "$k" -m 'flows..x' -o bad
[ -e bad ] && failed "a sweep with a bad measure ran"
expect 2 'expected a fraction between 0 and 1' "$bin" sweep incast.cfg -k "$k" --saturation 1.5
expect 2 'exclude each other' "$bin" sweep incast.cfg -k "$k" --resume --merge
expect 1 'no "nosuch" in summary.json (there: .*flows' "$bin" sweep incast.cfg -k "flows.*.load=0.2" -m nosuch.x -o bad2 -q --no-plot
expect 1 'is not a number (it is a group of values)' "$bin" sweep incast.cfg -k "flows.*.load=0.2" -m flows.A.network_latency -o bad3 -q

# Resume: only the missing point runs; the same sweep.csv.
"$bin" sweep incast.cfg -k "$k" -o s2 -q --no-plot || failed "sweep s2"
cp s2/sweep.csv ref.csv
rm -rf s2/point-002
touch -d '2000-01-01' s2/point-000/summary.json
expect 0 'resuming: 3 of 4 points finished before' "$bin" sweep incast.cfg -k "$k" -o s2 --resume --no-plot
[ "$(date -r s2/point-000/summary.json +%Y)" = 2000 ] || failed "--resume ran a finished point again"
[ -f s2/point-002/summary.json ] || failed "--resume did not run the missing point"
cmp -s s2/sweep.csv ref.csv || failed "the resumed sweep.csv differs"
expect 2 'holds a different sweep' "$bin" sweep incast.cfg -k 'flows.*.load=0.2,0.4' -o s2 --resume
expect 2 'not the folder of a sweep to resume' "$bin" sweep incast.cfg -k "$k" -o fresh --resume

# Emitted for a cluster, run elsewhere, merged: the same sweep.csv as the local sweep.
expect 0 'sbatch s3/sweep.sbatch' "$bin" sweep incast.cfg -k "$k" --emit slurm -o s3
grep -q '^#SBATCH --array=1-4$' s3/sweep.sbatch || failed "the job array is not 1-4"
[ "$(wc -l < s3/points.txt)" = 4 ] || failed "points.txt has $(wc -l < s3/points.txt) lines"
[ -e s3/sweep.csv ] && failed "--emit ran the sweep"
expect 1 '3 of 4 points have no finished results folder' bash -c \
  "SLURM_ARRAY_TASK_ID=2 bash s3/sweep.sbatch && '$bin' sweep incast.cfg -k '$k' --merge -o s3 -q --no-plot"
grep -q ',not run$' s3/sweep.csv || failed "missing points are not marked in sweep.csv"
for i in 1 3 4; do SLURM_ARRAY_TASK_ID=$i bash s3/sweep.sbatch || failed "array task $i"; done
expect 0 'merged' "$bin" sweep incast.cfg -k "$k" --merge -o s3 --no-plot
cmp -s s3/sweep.csv ref.csv || failed "the merged Slurm sweep.csv differs from the local one"
expect 0 'parallel -j 2 < s4/points.txt' "$bin" sweep incast.cfg -k "$k" --emit parallel -j 2 -o s4
while IFS= read -r line; do bash -c "$line" || failed "point command: $line"; done < s4/points.txt
expect 0 'merged' "$bin" sweep incast.cfg -k "$k" --merge -o s4 --no-plot
cmp -s s4/sweep.csv ref.csv || failed "the merged parallel sweep.csv differs from the local one"
exit $fail
