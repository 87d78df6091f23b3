#!/usr/bin/env bash
# addressing.sh: hosts and switches named as IB people name them. `topo hosts|switches` list
# every node with alias, LID and GUIDs; a scenario addresses hosts by LID, GUID, alias and
# groups (switch:X, lists); `route trace` follows one path; summary.json ports carry LID and GUID.
# On the real x5 cluster (89 HCAs with one description) when ../shared is present.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
. "$src/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# A generated switch: src by LID, destination group by list; H2 must receive nothing.
cat > "$tmp/g.cfg" <<'CFG'
simulation = { duration = "1 ms"; warmup = "10 us"; };
topology = { generator = "single_switch"; args = "ports=4"; };
flows = ( { name = "F"; src = "lid:2"; dst = "H3,0x0002c90000000501"; kind = "saturate"; msg_size = "4 KiB"; },
          { name = "G"; src = "H3,H4"; dst = "H-0002c90000000200"; kind = "poisson"; load = 0.1; msg_size = "4 KiB"; } );
CFG
"$bin" run "$tmp/g.cfg" -o "$tmp/g" -q > "$tmp/g.out" 2>&1 || failed "group scenario: $(tail -2 "$tmp/g.out")"
python3 - "$tmp/g/summary.json" <<'PY' || failed "group scenario summary"
import json, sys
j = json.load(open(sys.argv[1]))
fl = {f["name"]: f for f in j["flows"]}
assert fl["F"]["src"] == "H1" and fl["F"]["dst"] == "group", fl["F"]
assert set(fl) == {"F", "G@H3", "G@H4"}, list(fl)
rx = {h["host"]: h["rx_gbps"] for h in j["hosts"]}
assert rx["H2"] == 0 and rx["H3"] > 1 and rx["H4"] > 1, rx
# uniform over the group: about 1000 messages, 3 sigma of the split is under 10 %
assert abs(rx["H3"] - rx["H4"]) < 0.15 * (rx["H3"] + rx["H4"]) / 2, rx
assert rx["H1"] > 0, rx                                        # G's destination, by its id
p = j["ports"][0]
assert p["guid"].startswith("0x") and len(p["guid"]) == 18 and p["lid"] > 0, p
print("ok: groups and addresses", rx)
PY
expect 2 'flow F: destination: no port of the topology has LID 77' \
  "$bin" run "$tmp/g.cfg" -o "$tmp/x" -s 'flows.F.dst=lid:77'
sed -i 's/dst = "H3,0x0002c90000000501"/dst = "H3,zz*"/' "$tmp/g.cfg"
expect 2 'matches no host name or alias' "$bin" run "$tmp/g.cfg" -o "$tmp/x"

# route trace: the path of a fat tree ends at its destination; names may be LIDs.
"$bin" route trace gen:fattree:ports=8,levels=3 H1 H100 -e ftree > "$tmp/trace" 2>&1 ||
  failed "route trace: $(tail -2 "$tmp/trace")"
[ "$(tail -1 "$tmp/trace" | awk '{print $2}')" = H100 ] || failed "trace does not end at H100: $(tail -1 "$tmp/trace")"
[ "$(grep -c '^[0-9]' "$tmp/trace")" = 7 ] || failed "trace of a 3-level tree should have 7 lines (5 switches): $(cat "$tmp/trace")"
lid=$(awk '$2 == "H100" {print $3}' "$tmp/trace")
"$bin" route trace gen:fattree:ports=8,levels=3 H1 "lid:$lid" -e ftree > "$tmp/trace2" 2>&1
cmp -s "$tmp/trace" "$tmp/trace2" || failed "trace to lid:$lid differs from the trace to H100"
expect 2 'is not a node of the topology' "$bin" route trace gen:single_switch:ports=4 H1 nosuch
expect 2 'has LMC 0' "$bin" route trace gen:single_switch:ports=4 H1 H2 --offset 1

x5="$src/../shared/topologies/x5-cluster.topo"
if [ -f "$x5" ]; then
  "$bin" topo hosts "$x5" > "$tmp/hosts" || failed "topo hosts x5"
  [ "$(tail -n +2 "$tmp/hosts" | wc -l)" = 89 ] || failed "x5 has 89 host ports: $(wc -l < "$tmp/hosts")"
  [ "$(tail -n +2 "$tmp/hosts" | awk '{print $1}' | sort -u | wc -l)" = 89 ] || failed "x5 aliases are not unique"
  grep -q '^MT25408-1 ' "$tmp/hosts" || failed "x5 aliases: $(sed -n 2p "$tmp/hosts")"
  "$bin" topo switches "$x5" > "$tmp/sw" || failed "topo switches x5"
  [ "$(tail -n +2 "$tmp/sw" | wc -l)" = 11 ] || failed "x5 has 11 switches"
  # Columns stay aligned: 'link' starts at the same place on every line.
  [ "$(awk '{ print index($0, " 4x") }' "$tmp/hosts" | tail -n +2 | sort -u | wc -l)" = 1 ] ||
    failed "topo hosts columns are not aligned"
  "$bin" run "$src/scenarios/examples/addressing.cfg" -o "$tmp/a" -q > "$tmp/a.out" 2>&1 ||
    failed "addressing.cfg: $(tail -2 "$tmp/a.out")"
  python3 - "$tmp/a/summary.json" "$tmp/hosts" <<'PY' || failed "addressing.cfg summary"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [l.split() for l in open(sys.argv[2]).read().splitlines()[1:]]
by_lid = {r[2]: r for r in rows}
fl = {f["name"]: f for f in j["flows"]}
# by-lid: LID 93 to the port GUID 0x003048c74ed00001
assert fl["by-lid"]["src"].endswith(by_lid["93"][3]), fl["by-lid"]
assert fl["by-lid"]["dst"].endswith("0x003048c74ed00000"), fl["by-lid"]
assert fl["by-alias"]["dst"] == fl["by-lid"]["dst"]         # lid:0x50 is the same host
leafs = [n for n in fl if n.startswith("leafs@")]
on3 = [r[0] for r in rows if r[5].startswith("Voltaire-3:")]
assert sorted(leafs) == sorted("leafs@" + a for a in on3), (leafs, on3)
print("ok: x5 addressing", len(leafs), "group flows")
PY
  # ports_index.csv: each column of ports.csv with the switch's LID and GUID and its peer, as in
  # the ibnetdiscover file (the switch 0x0008f10500200b50 has LID 9; port 1 goes to LID 16).
  python3 - "$tmp/a/ports.csv" "$tmp/a/ports_index.csv" <<'PY' || failed "ports_index.csv"
import csv, sys
cols = next(csv.reader(open(sys.argv[1])))[1:]
ix = list(csv.DictReader(open(sys.argv[2])))
assert [r["column"] for r in ix] == cols, "ports_index rows are not ports.csv's columns"
r = [r for r in ix if r["node_guid"] == "0x0008f10500200b50" and r["port"] == "1"][0]
assert r["lid"] == "9" and r["peer_lid"] == "16" and r["peer_port"] == "15", r
print("ok: ports_index.csv,", len(ix), "switch ports with LID and GUID")
PY
else
  echo "note: $x5 absent; the x5 checks are skipped"
fi
[ $fail -eq 0 ] && echo "addressing: all checks passed"
exit $fail
