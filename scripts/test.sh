#!/usr/bin/env bash
# Builds ibnetsim and runs the default test suite (everything but the long `repro` label).
# --sanitize builds in build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer, at -O1
# (what the sanitizers recommend; at -O0 on the loaded shared machine e2e/opensm_compare took
# 440 s against 161 s at -O1, and two parts of test_gege1n_sim 520-570 s of their 900 s).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
dir=build; flags=()
if [ "${1:-}" = "--sanitize" ]; then dir=build-asan; flags=(-DIBN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1"); fi
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
cd "$dir"
ASAN_OPTIONS=detect_leaks=1 ctest -LE repro --output-on-failure -j"$(nproc)"
