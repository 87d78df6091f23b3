#!/usr/bin/env bash
# Builds ibnetsim and runs the default test suite (everything but the long `repro` label).
# --sanitize builds in build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer, at -O1
# (what the sanitizers recommend: -O0 made the suite three times slower and
# test_gege1n_sim near its timeout on a loaded machine).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
dir=build; flags=()
if [ "${1:-}" = "--sanitize" ]; then dir=build-asan; flags=(-DIBN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1"); fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
cd "$dir"
ASAN_OPTIONS=detect_leaks=1 ctest -LE repro --output-on-failure -j"$(nproc)"
