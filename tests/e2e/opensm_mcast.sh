#!/usr/bin/env bash
# opensm_mcast.sh: ibnetsim's multicast forwarding tables against OpenSM's own. For generated
# topologies (an irregular network of seed 004's size, one with switch GUIDs whose byte-reversed
# order is the reverse of their numeric order, a mesh and a fat tree) OpenSM routes the fabric
# through ibsim's simulated fabric, and hosts join the IPoIB broadcast group (MLID 0xC000) one
# by one: osmtest's multicast flow, run with umad2sim attached to each member host (SIM_HOST),
# joins that group as a full member and never leaves it. OpenSM then builds its spanning tree
# and writes opensm.mcfdbs (-D 0x40). This checks:
#   - `ibnetsim route compute TOPO -e ENGINE --mcast 0xC000:MEMBERS --mfts FILE` writes
#     byte for byte the 0xC000 part of OpenSM's dump (the same switches, in OpenSM's order, the
#     same ports; osmtest's own test groups, other MLIDs, are left out of the comparison);
#   - reading OpenSM's whole dump and writing it again (`route compute --mfts DUMP`) gives the
#     file back byte for byte;
#   - seed004-15: a run on OpenSM's own tables (multicast.mft_file = its opensm.mcfdbs, tree =
#     opensm, every member sending) delivers every multicast packet to every other member once
#     (copies delivered = sent x (members - 1), the run's invariants hold), and its summary
#     equals the same run on the trees ibnetsim computes (tree = opensm), but for the file names.
# Args: the ibnetsim binary and the source directory. Prints "SKIP: reason" and exits 0 when
# OpenSM, osmtest or ibsim is missing.
set -euo pipefail
bin=$1
src=$2
. "$src/tests/support/opensm.sh"
osm_require ibsim opensm osmtest
osm_setup mc

# ibsim node id of host NAME in topology file TOPO (the quoted id of its Ca block).
simhost() {
  sed -n "s/^Ca.*\"\\([^\"]*\\)\".*# \"$2\".*/\\1/p" "$1" | head -1
}

# run_case NAME SPEC ENGINE MEMBERS [revguid]
run_case() {
  local name=$1 spec=$2 eng=$3 members=$4 rev=${5:-}
  local d="$work/$name"
  mkdir -p "$d/osm"
  "$bin" topo convert "$spec" -o "$d/topo" --guid2lid "$d/guid2lid" 2> "$d/convert.err" ||
    { failed "$name: ibnetsim topo convert $spec: $(cat "$d/convert.err")"; return; }
  if [ -n "$rev" ]; then
    python3 - "$d/topo" "$d/guid2lid" <<'PY'
import re, sys
topo, g2l = sys.argv[1:3]
s, g = open(topo).read(), open(g2l).read()
sw = [int(x, 16) for x in re.findall(r'^switchguid=0x([0-9a-f]+)', s, re.M)]
for i, old in enumerate(sw):
    new = 0x0002c90000000000 | (i + 1) << 24 | (len(sw) - i)
    for fmt in ('016x', 'x'):
        pat = r'(?<![0-9a-f])' + format(old, fmt) + r'(?![0-9a-f])'
        s, g = re.sub(pat, format(new, fmt), s), re.sub(pat, format(new, fmt), g)
open(topo, 'w').write(s)
open(g2l, 'w').write(g)
PY
  fi
  cp "$d/guid2lid" "$d/osm/guid2lid"
  osm_ibsim_start "$d/topo" "$d/ibsim.log"
  (cd "$d/osm" && OSM_TMP_DIR="$d/osm" OSM_CACHE_DIR="$d/osm" LD_PRELOAD="$umad" \
     exec opensm -f "$d/osm/osm.log" --dump_files_dir "$d/osm" -D 0x43 --honor_guid2lid \
     -R "$eng" > "$d/osm/osm.out" 2>&1) &
  osm_pid=$!
  # The first sweep's end: OpenSM writes its unicast dumps then (its log is buffered).
  for _ in $(seq 300); do [ -s "$d/osm/opensm-lfts.dump" ] && break; sleep 0.1; done
  [ -s "$d/osm/opensm-lfts.dump" ] || failed "$name: OpenSM did not finish its first sweep in 30 s"
  sleep 0.5
  for h in ${members//,/ }; do
    local id
    id=$(simhost "$d/topo" "$h")
    [ -n "$id" ] || { failed "$name: no host $h in the topology"; continue; }
    (cd "$d/osm" && SIM_HOST="$id" OSM_TMP_DIR="$d/osm" OSM_CACHE_DIR="$d/osm" LD_PRELOAD="$umad" \
       timeout 60 osmtest -f m > "$d/osm/osmtest-$h.out" 2>&1) || true
    grep -q "Joining an existing IPoIB multicast group" "$d/osm/osmtest-$h.out" ||
      failed "$name: osmtest on $h did not join the IPoIB group"
  done
  # OpenSM rewrites the dump after each multicast pass (each join): let the last one finish.
  local n
  n=$(echo "${members//,/ }" | wc -w)
  sleep 1
  osm_stop
  osm_ibsim_stop
  local osm="$d/osm/opensm.mcfdbs"
  [ -s "$osm" ] || { failed "$name: OpenSM wrote no opensm.mcfdbs ($n members)"; return; }
  # OpenSM's dump restricted to MLID 0xC000, in the same form.
  awk '/^Switch/ { sw = $0; hdr = 0; next } /^LID/ { next }
       /^0xC000 / { if (!hdr) { print ""; print sw; print "LID    : Out Port(s)"; hdr = 1 } print }' \
    "$osm" > "$d/theirs.dump"
  [ -s "$d/theirs.dump" ] || { failed "$name: OpenSM's dump has no entry for 0xC000"; return; }
  if ! "$bin" route compute "$d/topo" -e "$eng" --mcast "0xC000:$members" \
       --mfts "$d/ours.dump" 2> "$d/ours.err"; then
    failed "$name: route compute --mcast failed: $(cat "$d/ours.err")"
    return
  fi
  local same=no
  if cmp -s "$d/ours.dump" "$d/theirs.dump"; then same=yes
  else failed "$name $eng: ibnetsim's MFT dump differs from OpenSM's: $(diff "$d/theirs.dump" "$d/ours.dump" | head -4 | tr '\n' ' ')"
  fi
  "$bin" route compute "$d/topo" --mfts "$osm" > "$d/reread.dump" 2> "$d/reread.err" ||
    failed "$name: reading OpenSM's opensm.mcfdbs failed: $(cat "$d/reread.err")"
  cmp -s "$d/reread.dump" "$osm" ||
    failed "$name: OpenSM's opensm.mcfdbs read and written again differs: $(diff "$osm" "$d/reread.dump" | head -4 | tr '\n' ' ')"
  if [ "$name" = seed004-15 ]; then
    local how mf nm
    nm=$(echo "${members//,/ }" | wc -w)
    for how in dump computed; do
      mf='""'
      [ $how = dump ] && mf="\"$osm\""
      cat > "$d/run-$how.cfg" <<EOF
simulation = { duration = "2 ms"; warmup = "0 s"; sample_interval = "0 s"; };
topology = { file = "$d/topo"; routing = "$eng"; };
output = { flow_series = false; port_series = false; progress = "never"; };
multicast = { scheme = "async"; tree = "opensm"; mft_file = $mf; groups = (
  { name = "G"; mlid = 0xC000; members = "$members"; sources = "$members"; } ); };
flows = ( { name = "M"; src = "$members"; dst = "mcast:G"; kind = "constant"; rate = "1 Gb/s"; msg_size = 2048; } );
EOF
      "$bin" run "$d/run-$how.cfg" -o "$d/res-$how" > "$d/run-$how.out" 2>&1 ||
        failed "$name: the run on the $how tables failed: $(tail -3 "$d/run-$how.out" | tr "\n" " ")"
    done
    python3 - "$d/res-dump/summary.json" "$nm" <<'PY' || failed "$name: the run on OpenSM's tables did not deliver every copy once"
import json, sys
s = json.load(open(sys.argv[1])); n = int(sys.argv[2])
f = [x for x in s["flows"] if x["name"].startswith("M")]
sent = sum(x["packets_sent"] for x in f)
got = sum(m["packets_delivered"] for g in s["multicast"]["groups"] for m in g["members"])
print("run on OpenSM's tables: %d packets sent, %d copies delivered to members (%d expected)" % (sent, got, sent * (n - 1)))
sys.exit(0 if sent > 0 and got == sent * (n - 1) else 1)
PY
    cmp -s <(grep -v '"mft_file"\|"scenario_file"\|wall\|cpu' "$d/res-dump/summary.json") \
           <(grep -v '"mft_file"\|"scenario_file"\|wall\|cpu' "$d/res-computed/summary.json") ||
      failed "$name: the runs on OpenSM's tables and on ibnetsim's own (tree = opensm) differ"
  fi
  printf "%-22s %-7s %-26s switches %3s  identical %s\n" "$name" "$eng" "$members" \
    "$(grep -c '^Switch' "$d/theirs.dump")" "$same"
}

run_case seed004-15 "gen:irregular:switches=15,ports=5,hosts=1,links=23,planar=1" minhop H2,H7,H11,H14
run_case seed004-15-all "gen:irregular:switches=15,ports=5,hosts=1,links=23,planar=1" minhop "H1,H3,H5,H6,H8,H9,H12,H15"
run_case irregular-revguid "gen:irregular:switches=8,hosts=2" minhop H1,H6,H9,H16 revguid
run_case mesh-4x4 "gen:mesh:dims=4x4" minhop H1,H4,H13,H16
run_case mesh-4x4-dor "gen:mesh:dims=4x4" dor H2,H7,H11
run_case fattree-8-3 "gen:fattree:ports=8,levels=3" minhop H1,H2,H17,H40,H64
if [ $fail -ne 0 ]; then
  echo "opensm_mcast: FAILED"
  exit 1
fi
echo "opensm_mcast: all checks passed"
