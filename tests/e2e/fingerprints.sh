#!/usr/bin/env bash
# fingerprints.sh: the fingerprint check itself (scripts/fingerprints.sh), on its own file so
# that it does not depend on the state of tests/fingerprints.txt: two shipped scenarios'
# fingerprints are accepted into a temporary file; the same runs again match them (the hash is
# deterministic and leaves out what varies between runs); changing one model value (the switch
# latency, 100 ns -> 101 ns, through -s) changes both fingerprints and the check fails naming
# them. The comparison of every shipped scenario with tests/fingerprints.txt is
# e2e/fingerprints_all.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fp=("$src/scripts/fingerprints.sh" --bin "$bin" --file "$tmp/fp.txt" --only 'seed002/testbed-scenario1-cco')
expect 0 "accepted 2 fingerprints" "${fp[@]}" --accept
expect 0 "2 scenarios match" "${fp[@]}"
expect 1 "changed: scenarios/seed002/testbed-scenario1-ccoff.cfg" "${fp[@]}" -s switch.latency="101 ns"
expect 1 "changed: scenarios/seed002/testbed-scenario1-ccon.cfg" "${fp[@]}" -s switch.latency="101 ns"
[ "$fail" = 0 ] && echo "ok: fingerprints are reproducible and a changed model value fails them"
exit $fail
