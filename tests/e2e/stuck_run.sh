#!/usr/bin/env bash
# stuck_run.sh: a deadlocked run is declared stuck soon after its packets stop moving
# (simulation.stall_limit), not at the end of its simulated time (issue 12 item 5). The
# scenario is seed 004's SPF ring, which deadlocks within microseconds; without the Head-of-Queue
# Lifetime (hoq_life = 25: infinite) nothing breaks the cycle. Run for 1 s of simulated time:
# with the default stall limit (10 ms) the run stops about 10 ms after the last move, with
# stall detection off it runs the whole second of arrivals. Both end "stuck" with exit 1.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
scen="$src/scenarios/seed004/ring-spf.cfg"
expect 1 "nothing can move (a deadlock); no packet moved after" \
  "$bin" run "$scen" -o "$tmp/on" -s simulation.duration=1s -s switch.hoq_life=25
expect 1 "nothing can move (a deadlock)" \
  "$bin" run "$scen" -o "$tmp/off" -s simulation.duration=1s -s switch.hoq_life=25 \
  -s "simulation.stall_limit=0 s"
num() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
[ "$(num "$tmp/on/summary.json" 'd["run"]["outcome"]')" = stuck ] || failed "outcome is not stuck"
stalled=$(num "$tmp/on/summary.json" 'd["run"]["stalled_after_s"]')
ev_on=$(num "$tmp/on/summary.json" 'd["run"]["events"]')
ev_off=$(num "$tmp/off/summary.json" 'd["run"]["events"]')
echo "stalled after $stalled s; events: $ev_on with detection, $ev_off without"
# The ring locks within microseconds; the time of the last move is known to the 2^14-event
# check before it, well inside the first 10 ms of the 1 s run.
python3 -c "import sys; sys.exit(0 if 0 < $stalled < 10e-3 else 1)" || failed "stalled_after_s $stalled not in (0, 10 ms)"
# Detection stops the run at most 2^14 events after stall_limit: far fewer events than 1 s.
python3 -c "import sys; sys.exit(0 if $ev_on * 20 < $ev_off else 1)" || failed "detection did not shorten the run ($ev_on vs $ev_off events)"
exit $fail
