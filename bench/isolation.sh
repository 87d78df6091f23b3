#!/usr/bin/env bash
# bench/isolation.sh: issue 15's speed target: EcoCC and CCFIT on the 256-node 4-ary 4-tree
# under Paper VI's pattern #2 at full load (every uniform source saturating the whole run, the
# hot sources during [1, 2] ms), against the plain VOQ switch on the same scenario: CPU time per
# packet-hop of each and the ratio to VOQ (the issue asks at most 2). Usage:
# bench/isolation.sh [BUILD_DIR] (a Release build: bench/run.sh makes build-release).
# bench/isolation.sh --callgrind [BUILD_DIR]: instructions per packet-hop instead (valgrind's
# callgrind), on the 64-node pattern #2 for 2 ms (each run about a minute under valgrind), which
# a loaded machine does not disturb; figures and the machine in bench/isolation.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cg=0
if [ "${1:-}" = "--callgrind" ]; then cg=1; shift; fi
build=${1:-build-release}
if [ $cg = 1 ]; then
  s=scenarios/seed002/paper6-pattern2-64.cfg
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  run() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$build"/bench_fabric "$s" \
      -s simulation.duration="2 ms" "$@" 2>/dev/null > "$tmp/out"
    ir=$(grep -m1 '^summary:' "$tmp/cg" | awk '{print $2}')
    hops=$(grep '^BENCH' "$tmp/out" | sed -E 's/.* hops=([0-9]+) .*/\1/')
    awk -v a="$ir" -v b="$hops" 'BEGIN{printf "%.0f", a/b}'
  }
  v=$(run -s switch.arch=voq -s cc.plugin=none)
  echo "isolation, 64-node 4-ary 3-tree, pattern #2, 2 ms (instructions per packet-hop, callgrind):"
  echo "  voq                    $v"
  for c in "ecocc + ibcc adapters:-s switch.arch=ecocc -s cc.plugin=ibcc -s cc.threshold=0" \
           "ccfit + ibcc adapters:-s switch.arch=ccfit -s cc.plugin=ibcc -s cc.threshold=0 -s switch.read_ports=1" \
           "ecocc alone:-s switch.arch=ecocc -s cc.plugin=none" \
           "ccfit alone:-s switch.arch=ccfit -s cc.plugin=none -s switch.read_ports=1"; do
    # shellcheck disable=SC2086
    x=$(run ${c#*:})
    printf "  %-22s %s  (%s x voq)\n" "${c%%:*}" "$x" "$(awk -v a="$x" -v b="$v" 'BEGIN{printf "%.2f", a/b}')"
  done
  exit 0
fi
s=scenarios/seed002/paper6-pattern2-256.cfg
run() { "$build"/bench_fabric "$s" -s simulation.duration="2 ms" "$@" | grep '^BENCH'; }
v=$(run -s switch.arch=voq -s cc.plugin=none)
e=$(run -s switch.arch=ecocc -s cc.plugin=ibcc -s cc.threshold=0)
c=$(run -s switch.arch=ccfit -s cc.plugin=ibcc -s cc.threshold=0 -s switch.read_ports=1)
per() { echo "$1" | sed -E 's/.* cpu_s=([0-9.]+) .* hops=([0-9]+) .*/\1 \2/' | awk '{printf "%.1f", 1e9 * $1 / $2}'; }
pv=$(per "$v"); pe=$(per "$e"); pc=$(per "$c")
echo "isolation, 256-node 4-ary 4-tree, pattern #2, 2 ms (ns of CPU per packet-hop):"
echo "  voq   $pv"
echo "  ecocc $pe  ($(awk -v a="$pe" -v b="$pv" 'BEGIN{printf "%.2f", a/b}') x voq)"
echo "  ccfit $pc  ($(awk -v a="$pc" -v b="$pv" 'BEGIN{printf "%.2f", a/b}') x voq)"
