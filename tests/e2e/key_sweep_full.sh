#!/usr/bin/env bash
# ctest-label: repro
# key_sweep_full.sh: the property sweep of every scenario key with all its edge values (inf,
# +/- 2^63, 1e-300 and 1e300, long strings, ...) on two base scenarios (UD; RC with IB CC and
# a hot-spot pattern): 2,300 runs, a few minutes.
# Arguments: the ibnetsim binary, the source directory.
exec python3 "$2/tests/support/key_sweep.py" "$1" --full
