#!/usr/bin/env bash
# key_sweep.sh: the property sweep (tests/support/key_sweep.py) over every scenario key with the
# edge values 0, -1, tiny, huge, NaN and empty on a 40-us run: each run is a clean refusal
# (exit 2 with a message) or a run whose invariants hold and whose numbers are finite. The
# heavier sweep (more values, a second base scenario with RC and IB CC) is
# e2e/key_sweep_full, labelled repro.
# Arguments: the ibnetsim binary, the source directory.
exec python3 "$2/tests/support/key_sweep.py" "$1"
