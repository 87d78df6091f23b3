#!/usr/bin/env bash
# fingerprints.sh: the fingerprints of the shipped scenarios' results. Each scenarios/**/*.cfg is
# run for a short horizon (simulation.duration = 2 ms, warmup = 0.5 ms, sample_interval =
# 100 us, given with -s, whatever the file says) and its results folder hashed: every file but
# scenario.cfg, and summary.json without its "ibnetsim" (version) and "settings" members, so
# the hash follows what the model computed, not how it was asked. tests/fingerprints.txt holds
# "SHA256 EXIT-STATUS SCENARIO" per scenario; the test e2e/fingerprints compares with it, so a
# change of model behaviour is seen and accepted deliberately.
#   scripts/fingerprints.sh                 check (exit 1 naming each scenario that changed; a
#                                           scenario without a fingerprint is only noted)
#   scripts/fingerprints.sh --accept        re-accept: rewrite tests/fingerprints.txt
# Options: --bin PATH (default build/ibnetsim), --only REGEX (scenarios whose path matches),
# --file PATH (another fingerprint file than tests/fingerprints.txt; --accept with --only
# writes it for those scenarios),
# -s KEY=VALUE (a further override for every run; the e2e test uses it to show that changing
# one model value fails the check).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/ibnetsim accept=0 only= extra=() file=$root/tests/fingerprints.txt
while [ $# -gt 0 ]; do
  case $1 in
    --accept) accept=1 ;;
    --bin) bin=$2; shift ;;
    --only) only=$2; shift ;;
    --file) file=$2; shift ;;
    -s) extra+=(-s "$2"); shift ;;
    *) echo "usage: $0 [--accept] [--bin PATH] [--only REGEX] [-s KEY=VALUE]..." >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin" ] || { echo "fingerprints.sh: no ibnetsim binary at $bin (build first)" >&2; exit 2; }
horizon=(-s simulation.duration="2 ms" -s simulation.warmup="0.5 ms" -s simulation.sample_interval="100 us")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Run every scenario into $tmp/rN, then hash each folder (file names and contents in name order).
: > "$tmp/list"
n=0
while IFS= read -r cfg; do
  rel=${cfg#"$root"/}
  [ -z "$only" ] || [[ $rel =~ $only ]] || continue
  n=$((n + 1))
  "$bin" run "$cfg" -o "$tmp/r$n" -q "${horizon[@]}" "${extra[@]}" > "$tmp/log" 2>&1
  rc=$?
  if [ ! -d "$tmp/r$n" ]; then
    echo "fingerprints.sh: $rel wrote no results (exit $rc): $(tail -2 "$tmp/log")" >&2
    exit 2
  fi
  echo "$tmp/r$n $rc $rel" >> "$tmp/list"
done < <(find "$root/scenarios" -name '*.cfg' | LC_ALL=C sort)
out=$tmp/new.txt
python3 - "$tmp/list" > "$out" <<'PY' || { echo "fingerprints.sh: hashing failed" >&2; exit 2; }
import hashlib, json, os, sys
for line in open(sys.argv[1]):
    d, rc, rel = line.rstrip("\n").split(" ", 2)
    h = hashlib.sha256()
    for name in sorted(os.listdir(d)):
        if name == "scenario.cfg":
            continue
        data = open(os.path.join(d, name), "rb").read()
        if name == "summary.json":
            j = json.loads(data)
            j.pop("ibnetsim", None)
            j.pop("settings", None)
            data = json.dumps(j, sort_keys=True).encode()
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    print(h.hexdigest(), rc, rel)
PY

if [ $accept = 1 ]; then
  [ ${#extra[@]} = 0 ] || { echo "fingerprints.sh: --accept does not take -s" >&2; exit 2; }
  [ -z "$only" ] || [ "$file" != "$root/tests/fingerprints.txt" ] ||
    { echo "fingerprints.sh: --accept --only writes only with --file" >&2; exit 2; }
  { echo "# Fingerprints of the shipped scenarios' results (scripts/fingerprints.sh; re-accept a"
    echo "# deliberate change of model behaviour with scripts/fingerprints.sh --accept)."
    echo "# SHA256 EXIT-STATUS SCENARIO; runs of 2 ms, warmup 0.5 ms, samples every 100 us."
    cat "$out"; } > "$file"
  echo "fingerprints.sh: accepted $n fingerprints into ${file#"$root"/}"
  exit 0
fi
[ -f "$file" ] || { echo "fingerprints.sh: no $file: run $0 --accept" >&2; exit 1; }
bad=0 m=0
while read -r h rc rel; do
  old=$(awk -v s="$rel" '$3 == s { print $1, $2 }' "$file")
  if [ -z "$old" ]; then
    # A new scenario is noted, not failed: a landing that adds one need not re-accept the rest.
    echo "note: no fingerprint yet: $rel (scripts/fingerprints.sh --accept adds it)"
  elif [ "$old" != "$h $rc" ]; then
    echo "changed: $rel (accepted ${old%% *} exit ${old##* }, now $h exit $rc)"; bad=1
  else
    m=$((m + 1))
  fi
done < "$out"
if [ -z "$only" ]; then
  while read -r h rc rel; do
    case $h in \#*) continue ;; esac
    grep -q " $rel\$" "$out" || echo "note: $rel has a fingerprint but no scenario file (--accept drops it)"
  done < "$file"
fi
if [ $bad = 1 ]; then
  echo "fingerprints.sh: results changed; if the change of model behaviour is intended, re-accept with scripts/fingerprints.sh --accept and say so in the commit"
  exit 1
fi
echo "fingerprints.sh: $m scenarios match their fingerprints ($((n - m)) without one)"
