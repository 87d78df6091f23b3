#!/usr/bin/env bash
# fuzz.sh: builds the libFuzzer harnesses of tests/fuzz (with clang, in build-fuzz/) and runs
# them on corpora seeded from the repository's own files:
#   scenario     scenarios/**/*.cfg, bench/*.cfg
#   topo         ../shared/topologies/*.topo (when present; those under 200 KB) and generated
#                fabrics written by `ibnetsim topo convert` (ibnetdiscover) and `topo generate`
#   opensm_conf  tests/fuzz/seeds/opensm_conf/*, and OpenSM's own default file (`opensm -c`)
#                when OpenSM is installed
#   lft_dump     `ibnetsim route compute` of the harness's fat tree with several engines
#   trace        tests/fuzz/seeds/trace/* (video frame-size traces)
#   torus_conf   tests/fuzz/seeds/torus_conf/* (torus-2QoS.conf files for the harness's torus
#                and mesh)
#   override     tests/fuzz/seeds/override/* (lines of -s section.key=value, applied to
#                scenarios/examples/readme.cfg)
# Usage: scripts/fuzz.sh [--seconds N] [--nice] [--corpus DIR] [TARGET...]
#   (default: 10 s each, every target). tests/fuzz/seeds/TARGET/ also holds the inputs of
#   crashes found and fixed (regression seeds).
# Corpora grow in build-fuzz/corpus/TARGET (or DIR/TARGET); a crash is saved as build-fuzz/crashes/TARGET-*
# and the script exits 1. Prints libFuzzer's final statistics per target (executions, coverage
# edges, corpus size, peak RSS) and the CPU seconds used. Needs clang with libFuzzer (Debian:
# clang, libclang-rt-NN-dev; scripts/deps.sh installs them) and build/ibnetsim for the seeds.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=10 nice=() targets=() corpus=
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) secs=$2; shift ;;
    --nice) nice=(nice -n 19) ;;
    --corpus) corpus=$2; shift ;;
    scenario|topo|opensm_conf|lft_dump|trace|override|torus_conf) targets+=("$1") ;;
    *) echo "usage: $0 [--seconds N] [--nice] [scenario|topo|opensm_conf|lft_dump|trace|override|torus_conf]..." >&2; exit 2 ;;
  esac
  shift
done
[ ${#targets[@]} -gt 0 ] || targets=(scenario topo opensm_conf lft_dump trace override torus_conf)
out=${IBN_FUZZ_DIR:-$root/build-fuzz}
corpus=${corpus:-$out/corpus}
bin=${IBN_BIN:-$root/build/ibnetsim}
command -v clang >/dev/null || { echo "fuzz.sh: clang is not installed (scripts/deps.sh installs it)" >&2; exit 2; }
mkdir -p "$out"
CC=clang cmake -S "$root/tests/fuzz" -B "$out" > "$out/cmake.log" 2>&1 ||
  { echo "fuzz.sh: configuring the fuzz build failed: $(tail -3 "$out/cmake.log")" >&2; exit 2; }
"${nice[@]}" cmake --build "$out" -j2 > "$out/build.log" 2>&1 ||
  { echo "fuzz.sh: building the fuzzers failed: $(grep -m3 error "$out/build.log")" >&2; exit 2; }
[ -x "$bin" ] || { echo "fuzz.sh: $bin is missing (build first: cmake --build build)" >&2; exit 2; }

seed=$out/seed
rm -rf "$seed"; mkdir -p "$seed"/{scenario,topo,opensm_conf,lft_dump,trace,override,torus_conf} "$out/crashes"
find "$root/scenarios" "$root/bench" -name '*.cfg' -exec cp -t "$seed/scenario" {} + 2>/dev/null
for t in "$root"/../shared/topologies/*.topo; do
  [ -f "$t" ] && [ "$(stat -c %s "$t")" -lt 200000 ] && cp "$t" "$seed/topo/"
done
i=0
for g in single_switch:ports=4 fattree:ports=4,levels=2 testbed002 mesh:dims=2x2 irregular:switches=4,hosts=1; do
  i=$((i + 1))
  "$bin" topo convert "gen:$g" -o "$seed/topo/gen$i.topo" 2>/dev/null
done
"$bin" topo convert gen:fattree:ports=4,levels=2 --lmc 1 -o "$seed/topo/lmc1.topo" 2>/dev/null
for t in scenario topo opensm_conf lft_dump trace override torus_conf; do
  [ -d "$root/tests/fuzz/seeds/$t" ] && cp "$root/tests/fuzz/seeds/$t"/* "$seed/$t/"
done
command -v opensm >/dev/null && opensm -c "$seed/opensm_conf/opensm-default.conf" > /dev/null 2>&1
for e in minhop updn ftree spf dor; do
  "$bin" route compute gen:fattree:ports=4,levels=2 -e $e -o "$seed/lft_dump/$e.dump" 2>/dev/null
done

export LSAN_OPTIONS=suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0
rc=0
for t in "${targets[@]}"; do
  mkdir -p "$corpus/$t"
  log=$out/fuzz-$t.log
  TIMEFORMAT='%U %S'
  { time "${nice[@]}" "$out/fuzz_$t" "$corpus/$t" "$seed/$t" \
    -max_total_time="$secs" -max_len=65536 -timeout=120 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$t-" > "$log" 2>&1 ; } 2> "$out/time-$t"
  frc=$?
  cpu=$(tail -1 "$out/time-$t" | awk '{printf "%.1f", $1 + $2}')
  stats=$(grep -E "^stat::(number_of_executed_units|peak_rss_mb|new_units_added)" "$log" | sed 's/^stat:://' | tr '\n' ' ')
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+" "$log" | tail -1)
  echo "$t: ${secs}s wall, ${cpu} CPU s; $cov; $stats"
  if [ $frc -ne 0 ]; then
    echo "$t: CRASH (libFuzzer exit $frc): $(grep -m1 -E "ERROR|runtime error|SUMMARY" "$log")"
    ls "$out"/crashes/"$t"-* 2>/dev/null | head -3
    rc=1
  fi
done
exit $rc
