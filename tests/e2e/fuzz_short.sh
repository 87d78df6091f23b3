#!/usr/bin/env bash
# fuzz_short.sh: a short fuzz run (scripts/fuzz.sh, 5 s per reader: scenario, ibnetdiscover
# topology, opensm.conf, LFT dump, video trace, -s overrides, torus-2QoS.conf) from the seed corpora only, in a fresh corpus folder; any
# crash, leak or undefined behaviour fails it. Skipped (exit 0 with "SKIP:") when clang or
# libFuzzer is missing, and outside CI: with CI=true (as .ci/run runs) or IBN_FUZZ=1 it builds
# the fuzzers (scripts/fuzz.sh, into build-fuzz/, a second build of the library with clang) and
# runs them; a developer's suite does not pay for that build.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
if ! command -v clang >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "SKIP: clang with libFuzzer is not installed (Debian clang, libclang-rt-dev; scripts/deps.sh installs them)"
  exit 0
fi
if [ "${CI:-}" != true ] && [ -z "${IBN_FUZZ:-}" ]; then
  echo "SKIP: not in CI (CI=true or IBN_FUZZ=1 builds the fuzzers and runs them; scripts/fuzz.sh does so by hand)"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
IBN_BIN=$bin "$src/scripts/fuzz.sh" --seconds 5 --corpus "$tmp" > "$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ $rc = 0 ] || { echo "FAIL: scripts/fuzz.sh exited $rc"; exit 1; }
for t in scenario topo opensm_conf lft_dump trace override torus_conf; do
  grep -q "^$t: .*number_of_executed_units: *[1-9]" "$tmp/out" || { echo "FAIL: $t did not run"; exit 1; }
done
echo "ok: 7 fuzzers ran 5 s each without a finding"
