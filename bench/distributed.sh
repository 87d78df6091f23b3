#!/usr/bin/env bash
# bench/distributed.sh: issue 19's scale benchmark of the distributed mode (docs/distributed.md,
# figures in bench/distributed.md). Runs the 11,664-host fat tree at 60 % uniform load
# (bench/fattree11664.cfg) sequentially and on 2 ranks, then the 27,648-host tree
# (bench/fattree27648.cfg) on 2 ranks, one run at a time, each under /usr/bin/time -v (every
# rank on its own), and prints per run: events, packet-hops, the event loop's wall time,
# events/s and packet-hops/s over it, the whole command's wall time, the speed-up over the
# sequential run, the peak RSS of every rank, the windows, messages and bytes exchanged (per
# window), the load average before and after, and whether the 2-rank outputs are byte-identical
# to the sequential ones. Took 7.5 minutes at a load average of 8-12 on 2 shared cores; 2-3
# minutes expected on an idle 2-core machine (from the runs' CPU times; bench/distributed.md).
# MPI's ranks wait for each other at every window, so other processes on the cores slow the
# 2-rank runs far more than the sequential one.
# Usage: bench/distributed.sh [BUILD_DIR] (default build-release, built Release if missing).
# NICE=n runs everything under nice -n n (default 0). KEEP=1 keeps the results folders.
set -euo pipefail
if [ "${1:-}" = "--rank-time" ]; then # internal: one rank under /usr/bin/time -v
    out=$2
    shift 2
    exec /usr/bin/time -v -o "$out.${OMPI_COMM_WORLD_RANK:-0}" "$@"
fi
cd "$(dirname "$0")/.."
build=${1:-build-release}
if [ ! -x "$build/ibnetsim" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" >/dev/null
fi
bin=$(cd "$build" && pwd)/ibnetsim
self=$(pwd)/bench/distributed.sh
tmp=$(mktemp -d /tmp/ibn-distbench.XXXXXX)
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$tmp"' EXIT
nice=(nice -n "${NICE:-0}")
mpi=(mpirun -n 2 --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u '+%F %H:%M UTC'), binary $bin"

# run NAME RANKS SCENARIO: one run; prints its line.
seq_events=
seq_loop=
run() {
    local name=$1 ranks=$2 scen=$3 out=$tmp/$1 load0 load1 t0 t1
    load0=$(cut -d' ' -f1-3 /proc/loadavg)
    t0=$(date +%s.%N)
    if [ "$ranks" = 1 ]; then
        "${nice[@]}" /usr/bin/time -v -o "$out.time.0" "$bin" run "$scen" -o "$out" > "$out.log" 2>&1
    else
        "${nice[@]}" "${mpi[@]}" "$self" --rank-time "$out.time" "$bin" run "$scen" -o "$out" > "$out.log" 2>&1
    fi
    t1=$(date +%s.%N)
    load1=$(cut -d' ' -f1-3 /proc/loadavg)
    local events hops loop dist rss
    events=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['run']['events'])" "$out/summary.json")
    hops=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['run']['packet_hops'])" "$out/summary.json")
    loop=$(sed -n 's/^wall \([0-9.]*\) s,.*/\1/p' "$out.log")
    dist=$(sed -n 's/^distributed run: //p' "$out.log")
    rss=""
    for ((r = 0; r < ranks; r++)); do
        rss+="$(awk '/Maximum resident/ { printf "%.0f", $6 / 1024 }' "$out.time.$r") MiB "
    done
    printf '%s: %s events, %s packet-hops; event loop %s s wall (%.3g events/s, %.3g packet-hops/s); command %.1f s wall' \
        "$name" "$events" "$hops" "$loop" "$(echo "$events / $loop" | bc -l)" "$(echo "$hops / $loop" | bc -l)" \
        "$(echo "$t1 - $t0" | bc -l)"
    if [ "$ranks" = 1 ]; then
        seq_events=$events
        seq_loop=$loop
    elif [ -n "$seq_loop" ] && [ "$events" = "$seq_events" ]; then
        printf '; speed-up of the event loop %.2f' "$(echo "$seq_loop / $loop" | bc -l)"
    fi
    printf '; peak RSS per rank %s; load average %s before, %s after\n' "$rss" "$load0" "$load1"
    [ -n "$dist" ] && echo "  $dist"
    return 0
}

run "11,664 hosts, sequential" 1 bench/fattree11664.cfg
run "11,664 hosts, 2 ranks" 2 bench/fattree11664.cfg
same=yes
for f in summary.json latency.csv scenario.cfg; do
    cmp -s "$tmp/11,664 hosts, sequential/$f" "$tmp/11,664 hosts, 2 ranks/$f" || same="NO ($f differs)"
done
echo "  outputs of the 2-rank run byte-identical to the sequential run's: $same"
run "27,648 hosts, 2 ranks" 2 bench/fattree27648.cfg
