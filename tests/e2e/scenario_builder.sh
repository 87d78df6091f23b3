#!/usr/bin/env bash
# scenario_builder.sh: `ibnetsim scenario hotspot` on seed 002's testbed builds the shape of
# the paper's scenario 1 (a victim on S1 sending to S2, two contributors on S1 and two on S2
# into H5), and running it gives the paper's final steady state within 7 %: the victim and the
# S1 contributors at 13/6 Gb/s (head-of-line blocking, parking lot), the S2 contributors at
# 13/3. On a fat tree it spreads contributors over switches; on a real fabric (x5) it names
# hosts by their aliases. Bad options exit 2.
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
# A real fabric: flows name hosts by their aliases, each line's comment gives the node
# descriptions, and `topo hosts` maps every alias to that description.
x5=$src/../shared/topologies/x5-cluster.topo
if [ -f "$x5" ]; then
  "$bin" scenario hotspot "$x5" --contributors 4 -o "$tmp/x5.cfg"
  "$bin" run "$tmp/x5.cfg" --check >/dev/null
  "$bin" topo hosts "$x5" > "$tmp/x5.hosts"
  python3 - "$tmp/x5.cfg" "$tmp/x5.hosts" <<'PY'
import re, sys
cfg, hosts = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()[1:]
name = {l.split()[0]: l.split(None, 7)[7] for l in hosts}
flows = re.findall(r'src = "([^"]+)"; dst = "([^"]+)".*# (.+) -> (.+)', cfg)
assert len(flows) == 5, flows
for s, d, sd, dd in flows:
    assert " " not in s and " " not in d, (s, d)
    assert name[s] == sd and name[d] == dd, (s, d, sd, dd)
print("x5: 5 flows named by alias, descriptions agree")
PY
fi
if "$bin" scenario hotspot gen:testbed002 --hotspot H99 >/dev/null 2>"$tmp/err"; then echo "FAIL: unknown host accepted"; exit 1; fi
grep -q "not a host" "$tmp/err"
if "$bin" scenario hotspot gen:testbed002 --frobnicate 1 >/dev/null 2>&1; then echo "FAIL: unknown option"; exit 1; fi
echo ok
