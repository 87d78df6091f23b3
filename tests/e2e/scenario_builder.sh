#!/usr/bin/env bash
# scenario_builder.sh: `ibnetsim scenario hotspot` on seed 002's testbed builds the shape of
# the paper's scenario 1 (a victim on S1 sending to S2, two contributors on S1 and two on S2
# into H5), and running it gives the paper's final steady state within 7 %: the victim and the
# S1 contributors at 13/6 Gb/s (head-of-line blocking, parking lot), the S2 contributors at
# 13/3. On a fat tree it spreads contributors over switches. Bad options exit 2.
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" scenario hotspot gen:testbed002 --hotspot H5 --contributors 4 --stagger "10 ms" \
  --inject "13 Gb/s" --sink "13 Gb/s" -o "$tmp/tb.cfg"
grep -q 'name = "V1"; src = "H[123]"; dst = "H4"' "$tmp/tb.cfg" || { echo "FAIL: victim"; cat "$tmp/tb.cfg"; exit 1; }
[ "$(grep -c 'dst = "H5"' "$tmp/tb.cfg")" -eq 4 ] || { echo "FAIL: four contributors"; exit 1; }
"$bin" run "$tmp/tb.cfg" -o "$tmp/r" -q -s simulation.duration="50 ms" -s simulation.sample_interval="5 ms"
python3 - "$tmp/r/flows.csv" "$tmp/tb.cfg" <<'PY'
import csv, sys, re
rows = list(csv.DictReader(open(sys.argv[1])))
last = rows[-1]
cfg = open(sys.argv[2]).read()
src = dict(re.findall(r'name = "(\w+)"; src = "(H\d)"', cfg))
s1 = {"H1", "H2", "H3"}
for name, host in src.items():
    expect = 13 / 6 if host in s1 else 13 / 3
    got = float(last[name])
    print(f"{name} ({host}): {got:.3f} Gb/s, expected {expect:.3f}")
    assert abs(got - expect) <= 0.07 * expect, name
PY
"$bin" scenario hotspot gen:fattree:ports=8,levels=2 --contributors 6 --victims 2 -o "$tmp/ft.cfg"
"$bin" run "$tmp/ft.cfg" --check >/dev/null
if "$bin" scenario hotspot gen:testbed002 --hotspot H99 >/dev/null 2>"$tmp/err"; then echo "FAIL: unknown host accepted"; exit 1; fi
grep -q "not a host" "$tmp/err"
if "$bin" scenario hotspot gen:testbed002 --frobnicate 1 >/dev/null 2>&1; then echo "FAIL: unknown option"; exit 1; fi
echo ok
