#!/usr/bin/env bash
# docs_current.sh: docs/scenario-keys.md is exactly what `ibnetsim keys --markdown` prints, so
# the scenario reference cannot drift from the keys the parser accepts; and every ready
# scenario under scenarios/ loads (checked with a zero-length dry parse through `run --check`).
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
if ! diff -u "$src/docs/scenario-keys.md" <("$bin" keys --markdown); then
  echo "FAIL: docs/scenario-keys.md is stale: regenerate it with 'ibnetsim keys --markdown > docs/scenario-keys.md'"
  exit 1
fi
n=0
while IFS= read -r -d '' s; do
  "$bin" run "$s" --check >/dev/null || { echo "FAIL: $s does not load"; exit 1; }
  n=$((n+1))
done < <(find "$src/scenarios" -name '*.cfg' -print0)
echo "ok: scenario reference current; $n scenarios load"
