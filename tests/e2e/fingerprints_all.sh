#!/usr/bin/env bash
# fingerprints_all.sh: every shipped scenario's results (a 2 ms run) hash to its fingerprint in
# tests/fingerprints.txt (scripts/fingerprints.sh; after a deliberate change of model behaviour,
# re-accept with scripts/fingerprints.sh --accept). In the default suite: a landing that changes
# what a shipped scenario computes must re-accept, saying which change of behaviour it accepts.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
expect 0 "scenarios match their fingerprints" "$src/scripts/fingerprints.sh" --bin "$bin"
[ "$fail" = 0 ] && echo "ok: every fingerprinted scenario matches"
exit $fail
