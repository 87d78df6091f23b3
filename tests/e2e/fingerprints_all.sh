#!/usr/bin/env bash
# ctest-label: repro
# fingerprints_all.sh: every shipped scenario's results (a 2 ms run) hash to its fingerprint in
# tests/fingerprints.txt (scripts/fingerprints.sh; after a deliberate change of model behaviour,
# re-accept with scripts/fingerprints.sh --accept). Labelled repro while several developers land
# model and output changes in one session (each would have to re-accept); to be moved into the
# default suite (drop the label line) once the fingerprints are re-accepted at its end.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
expect 0 "scenarios match their fingerprints" "$src/scripts/fingerprints.sh" --bin "$bin"
[ "$fail" = 0 ] && echo "ok: every fingerprinted scenario matches"
exit $fail
