#!/usr/bin/env bash
# Installs the Debian packages ibnetsim needs (if missing), builds it, and runs a scenario:
# by default seed 002's testbed scenario 1 without congestion control. Results go to runs/.
# Usage: scripts/run.sh [SCENARIO] [ibnetsim run options...]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
scenario=${1:-scenarios/seed002/testbed-scenario1-ccoff.cfg}
[ $# -gt 0 ] && shift
./build/ibnetsim run "$scenario" "$@"
