#!/usr/bin/env bash
# topo_route_cli.sh: the `ibnetsim topo` and `ibnetsim route` commands as a user runs them:
# help and bad usage, generate/convert/describe numbers, errors naming file:line, route
# compute/check/diff, the deadlock report. Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"

expect 0 "usage: ibnetsim topo" "$bin" topo --help
expect 2 "usage: ibnetsim topo" "$bin" topo
expect 2 "unknown subcommand" "$bin" topo frobnicate
expect 0 "usage: ibnetsim route" "$bin" route --help
expect 2 "usage: ibnetsim route" "$bin" route
expect 2 "expected one topology" "$bin" route check
expect 2 "unknown routing engine \"nosuch\"" "$bin" route check gen:mesh -e nosuch
expect 2 "unknown routing engine \"nosuch\" in the chain" "$bin" route compute gen:mesh -e ftree,nosuch
expect 2 "unknown option --frob" "$bin" route check gen:mesh --frob
expect 2 "unknown topology generator" "$bin" topo describe gen:nosuch
expect 2 "generator fattree has no argument \"radix\"" "$bin" topo generate fattree radix=4
expect 0 "kary_ntree" "$bin" topo list
expect 0 "updn_tree" "$bin" route list

expect 0 "switches: 54" "$bin" topo describe gen:fattree:ports=36,levels=2
expect 0 "hosts: 648" "$bin" topo describe gen:fattree:ports=36,levels=2
expect 0 "diameter: 4 links" "$bin" topo describe gen:fattree:ports=36,levels=2
expect 0 "bisection: 324 links" "$bin" topo describe gen:fattree:ports=36,levels=2
expect 0 "bisection: 4 links" "$bin" topo describe gen:mesh:dims=4x4
expect 0 "bisection: 8 links" "$bin" topo describe gen:torus:dims=4x4
expect 0 "diameter: 8 links" "$bin" topo describe gen:mesh:dims=4x4
expect 0 "bisection: 32 links" "$bin" topo describe gen:kary_ntree:k=4,n=3

"$bin" topo generate kary_ntree k=4,n=3 -o "$work/k43.topo" || failed "generate"
expect 0 "switches: 48" "$bin" topo describe "$work/k43.topo"
"$bin" topo generate mesh dims=3x3 hosts=2 -o "$work/m33.topo" || failed "generate with separate k=v"
expect 0 "hosts: 18" "$bin" topo describe "$work/m33.topo"
expect 0 "hosts: 64" "$bin" topo describe "$work/k43.topo"
expect 0 "4xQDR x192" "$bin" topo describe "$work/k43.topo"
"$bin" topo generate irregular switches=16 --seed 9 > "$work/a.topo"
"$bin" topo generate irregular switches=16 --seed 9 > "$work/b.topo"
"$bin" topo generate irregular switches=16 --seed 10 > "$work/c.topo"
cmp -s "$work/a.topo" "$work/b.topo" || failed "the same seed gave different networks"
cmp -s "$work/a.topo" "$work/c.topo" && failed "different seeds gave the same network"

printf 'Switch 8 "S1"\n[1] "H1"[1]\n[x] "H2"[1]\n' > "$work/bad.topo"
expect 2 "bad.topo:3: expected a port number" "$bin" topo describe "$work/bad.topo"

shared="$src/../shared/topologies"
if [ -f "$shared/small-3.topo" ]; then
  expect 0 "loopback cable between ports 1 and 2" "$bin" topo convert "$shared/small-3.topo" -o "$work/s3.topo"
  expect 0 "small-3.topo:1: line skipped" "$bin" topo describe "$shared/small-3.topo"
  expect 0 "loopback 3" "$bin" topo describe "$shared/small-3.topo"
  expect 0 "switches: 11" "$bin" topo describe "$shared/x5-cluster.topo"
  expect 0 "hosts: 89" "$bin" topo describe "$shared/x5-cluster.topo"
  expect 0 "valid: yes" "$bin" route check "$shared/x5-cluster.topo" -e minhop
  expect 0 "valid: yes" "$bin" route check "$shared/small-1.topo" -e updn
else
  echo "note: $shared absent; the checks on real topology files are skipped"
fi

# Shortest paths on a ring deadlock; the report names the cycle. ftree/updn are deadlock-free.
expect 1 "deadlock: cycle: S" "$bin" route check gen:torus:dims=6x1 -e spf --deadlock-free
expect 0 "deadlock: none" "$bin" route check gen:kary_ntree:k=4,n=3 -e ftree --deadlock-free
expect 0 "deadlock: none" "$bin" route check gen:torus:dims=6x1 -e updn --roots S0_0 --deadlock-free
expect 1 "deadlock: cycle:" "$bin" route check gen:torus:dims=4x4 -e sssp --deadlock-free
expect 0 "virtual lanes: 3" "$bin" route check gen:torus:dims=4x4 -e dfsssp --deadlock-free
expect 2 "more than 2 VLs" "$bin" route check gen:torus:dims=4x4 -e dfsssp --max-vls 2
expect 0 "max switches per route: 3" "$bin" route check gen:fattree:ports=36,levels=2 -e minhop
expect 0 "routes: 419256" "$bin" route check gen:fattree:ports=36,levels=2 -e ftree
expect 0 "routes by switches traversed: 1:11016 3:408240" "$bin" route check gen:fattree:ports=36,levels=2 -e ftree --ports "$work/ports.csv"
[ "$(wc -l < "$work/ports.csv")" = 1945 ] || failed "ports.csv should list 1944 cabled switch ports"
grep -q '^"S0_0",19,"S1_0",1,630$' "$work/ports.csv" || failed "ports.csv lacks S0_0 port 19's 630 routes" 

"$bin" route compute gen:fattree:ports=12,levels=2 -e ftree -o "$work/ft.dump" 2>/dev/null || failed "compute"
"$bin" route compute gen:fattree:ports=12,levels=2 -e spf -o "$work/mh.dump" 2>/dev/null || failed "compute"
grep -q "^Unicast lids \[0-" "$work/ft.dump" || failed "the dump lacks OpenSM's switch lines"
expect 0 "diff: 0 of" "$bin" route diff gen:fattree:ports=12,levels=2 "$work/ft.dump" "$work/ft.dump"
expect 1 "differ: switch" "$bin" route diff gen:fattree:ports=12,levels=2 "$work/ft.dump" "$work/mh.dump"
expect 0 "valid: yes" "$bin" route check gen:fattree:ports=12,levels=2 --lfts "$work/ft.dump"
sed '2s/^0x0001 .../0x0001 099/' "$work/ft.dump" > "$work/broken.dump"
expect 2 "broken.dump:2: port 99 is out of range" "$bin" route check gen:fattree:ports=12,levels=2 --lfts "$work/broken.dump"

# route flows: the flows on each link, from the scenario's own routes. Seed 002's testbed
# scenario 1: H1->H4 (F1), and H2, H3 (on S1) and H6, H7 (on S2) -> H5. From the topology alone:
# S2's port to H5 carries F2-F5, the S1->S2 cable F1-F3, S2's port to H4 F1, each sender's
# cable its own flow: 8 links.
expect 0 "5 flows, 8 links used, every route arrives" "$bin" route flows \
  "$src/scenarios/seed002/testbed-scenario1-ccoff.cfg" -o "$work/flows.csv"
python3 - "$work/flows.csv" <<'PY' || failed "route flows: testbed links"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {(r["node"], r["peer"]): r for r in rows}
assert len(rows) == 8, len(rows)
assert by[("S2", "H5")]["names"] == "F2;F3;F4;F5" and by[("S2", "H5")]["flows"] == "4", by[("S2", "H5")]
assert by[("S1", "S2")]["names"] == "F1;F2;F3", by[("S1", "S2")]
assert by[("S2", "H4")]["names"] == "F1"
assert by[("H6", "S2")]["names"] == "F4"
PY
# A uniform flow spreads 1/N of itself over each destination's route: 1/3 on each of S1's
# ports to H2, H3, H4; all of it on H1's cable.
printf 'topology = { generator = "single_switch"; args = "ports=4"; };\nflows = ( { name = "U"; src = "H1"; dst = "uniform"; kind = "poisson"; load = 0.5; } );\n' > "$work/uni.cfg"
expect 0 "1 flows, 4 links used" "$bin" route flows "$work/uni.cfg" -o "$work/uni.csv"
python3 - "$work/uni.csv" <<'PY' || failed "route flows: uniform shares"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sh = {r["peer"]: float(r["share"]) for r in rows}
assert abs(sh["S1"] - 1) < 1e-9 and all(abs(sh[h] - 1 / 3) < 1e-5 for h in ("H2", "H3", "H4")), sh
PY
expect 2 "cannot open the scenario file" "$bin" route flows "$work/none.cfg"

# Roots: honoured by updn (a list, or a file as OpenSM's root_guid_file), refused by engines
# that take none (ftree finds its levels itself), never silently ignored.
ft=gen:fattree:ports=8,levels=2
expect 2 "routing engine ftree takes no roots" "$bin" route compute $ft -e ftree --roots S1_0 -o /dev/null
expect 2 "routing engine minhop takes no roots" "$bin" route compute $ft -e minhop --roots S1_0 -o /dev/null
g0=$("$bin" topo switches $ft | awk '$1 == "S1_2" { print $3 }')
g1=$("$bin" topo switches $ft | awk '$1 == "S1_3" { print $3 }')
printf '# the spines\n%s\n%s   # the second\n' "$g0" "$g1" > "$work/roots.guids"
expect 0 "updn: 2 roots: S1_2, S1_3" "$bin" route compute $ft -e updn --roots "$work/roots.guids" -o /dev/null
printf '%s\n0x00000000000000ff\n' "$g0" > "$work/bad.guids"
expect 2 'bad.guids:2: root "0x00000000000000ff" is not a switch' "$bin" route compute $ft -e updn --roots "$work/bad.guids" -o /dev/null
printf 'topology = { generator = "fattree"; args = "ports=8,levels=2"; routing = "updn"; root_guid_file = "roots.guids"; };\nsimulation = { duration = "50 us"; };\nflows = ( { name = "F"; src = "H1"; dst = "H9"; kind = "saturate"; } );\n' > "$work/rg.cfg"
expect 0 "" "$bin" run "$work/rg.cfg" -o "$work/rg" -q
grep -q '"note": "updn: 2 roots: S1_2, S1_3"' "$work/rg/summary.json" || failed "root_guid_file in a scenario: $(grep -o '"note[^}]*' "$work/rg/summary.json")"

if [ $fail -ne 0 ]; then
  echo "topo_route_cli: FAILED"
  exit 1
fi
echo "topo_route_cli: all checks passed"
