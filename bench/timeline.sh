#!/usr/bin/env bash
# bench/timeline.sh: the cost of the timeline (output.timeline_*, docs/scenario.md), counted in
# instructions with callgrind (load-independent, so it can be measured on a shared machine).
# Runs bench/fattree648.cfg (648 hosts, 60 % uniform load) for 0.3 ms simulated three ways:
# without a timeline, with H1's link on it for the whole run, and with every link for a 50 us
# window; prints the instructions of each, the events written and the cost per event. The cost
# with no timeline against a build without the timeline is the figure in docs/scenario.md (build
# the older commit and pass its binary as BASE_BIN to print it too).
# Usage: bench/timeline.sh [BUILD_DIR] (default build); DURATION=0.3ms to change the horizon.
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build}/ibnetsim
[ -x "$b" ] || { echo "bench/timeline.sh: build $b first"; exit 2; }
command -v valgrind >/dev/null || { echo "bench/timeline.sh: valgrind is not installed"; exit 2; }
dur=${DURATION:-0.3ms}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
count() { # NAME BIN ARGS...: instructions of one run
  local name=$1 bin=$2; shift 2
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$name" "$bin" run bench/fattree648.cfg \
    -o "$tmp/$name" -q -s "simulation.duration=$dur" "$@" 2>&1 | sed -n 's/.*Collected : //p'
}
events() { python3 -c "import json; print(json.load(open('$tmp/$1/summary.json')).get('timeline_events', 0))"; }
[ -z "${BASE_BIN:-}" ] || echo "before the timeline existed: $(count base "$BASE_BIN") instructions"
off=$(count off "$b")
h1=$(count h1 "$b" -s output.timeline_ports=H1)
all=$(count all "$b" -s 'output.timeline_ports=*' -s output.timeline_start=0.1ms -s output.timeline_stop=0.15ms)
python3 - "$off" "$h1" "$all" "$(events h1)" "$(events all)" "$(du -h "$tmp/all/timeline.json" | cut -f1)" <<'PY'
import sys
off, h1, al, e1, ea, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
print(f"no timeline:            {off:>14,} instructions")
print(f"H1's link, whole run:   {h1:>14,} (+{(h1 / off - 1) * 100:.2f} %), {e1:,} events, {(h1 - off) / max(e1, 1):,.0f} per event")
print(f"every link, 50 us:      {al:>14,} (+{(al / off - 1) * 100:.1f} %), {ea:,} events ({size}), {(al - off) / max(ea, 1):,.0f} per event")
PY
