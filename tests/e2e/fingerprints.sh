#!/usr/bin/env bash
# fingerprints.sh: every shipped scenario's results (a 2 ms run) hash to the fingerprint in
# tests/fingerprints.txt (scripts/fingerprints.sh; re-accept a deliberate change of model
# behaviour with scripts/fingerprints.sh --accept). The test of the test: changing one model
# value (the switch latency, 100 ns -> 101 ns, through -s) changes the fingerprints of the
# scenarios it runs, and the check fails naming them; so does a fingerprint file that lacks a
# scenario.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
expect 0 "[0-9]* scenarios match their fingerprints" "$src/scripts/fingerprints.sh" --bin "$bin"
expect 1 "changed: scenarios/seed002/testbed-scenario1-ccoff.cfg" \
  "$src/scripts/fingerprints.sh" --bin "$bin" --only 'seed002/testbed-scenario1-cco' -s switch.latency="101 ns"
expect 1 "changed: scenarios/seed002/testbed-scenario1-ccon.cfg" \
  "$src/scripts/fingerprints.sh" --bin "$bin" --only 'seed002/testbed-scenario1-cco' -s switch.latency="101 ns"
# The same runs without the change match.
expect 0 "2 scenarios match" "$src/scripts/fingerprints.sh" --bin "$bin" --only 'seed002/testbed-scenario1-cco'
[ "$fail" = 0 ] && echo "ok: fingerprints match; a changed model value fails them"
exit $fail
