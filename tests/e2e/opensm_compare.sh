#!/usr/bin/env bash
# opensm_compare.sh: ibnetsim's routing against OpenSM itself. For x5-cluster.topo (when the
# shared topologies are present), generated fat trees, an irregular network and a mesh, with
# LMC 0, 1 and 2, OpenSM routes the topology through
# ibsim's simulated fabric (ibsim in the background, OpenSM once with umad2sim preloaded and
# honouring the topology's LIDs), and for minhop, updn (OpenSM's roots or a given root), dor and
# ftree this checks:
#   - every route of OpenSM's tables and of ibnetsim's reaches its destination without a loop;
#   - minhop and updn: ibnetsim's hop tables (min-hop; updn's legal-path hops) equal OpenSM's
#     opensm-lid-matrix.dump, row for row;
#   - minhop, updn and dor: `ibnetsim route compute` writes an opensm-lfts.dump byte-identical
#     to OpenSM's (every entry, and the switches in OpenSM's order); the *-revguid cases give
#     the switches GUIDs whose byte-reversed order (OpenSM's map order on x86) is the reverse of
#     their numeric order, so a destination order taken numerically shows;
#   - the most routes on any port (and on any switch-switch port) are within 10 % of OpenSM's
#     (ftree: against OpenSM's ftree, whose entries differ from ibnetsim's own fat-tree engine);
#   - engine chains (OpenSM's -R ftree,updn: an engine that cannot route the fabric passes to
#     the next, minhop last): the same engine routes in both (OpenSM's "NAME tables configured")
#     and the dumps are byte-identical;
#   - OpenSM's guid_routing_order_file (-X; the *-order cases: CA ports in reverse order, a
#     switch among them, a repeated GUID and one of no port): byte-identical dumps;
#   - OpenSM's port_shifting (the *-shift cases, OpenSM's configuration file, ibnetsim's
#     --port-shifting) and scatter_ports (the *-scatter cases, seed 7 on both command lines):
#     byte-identical dumps;
#   - guid_routing_order_no_scatter (the *-noscatter case: -X and scatter_ports with the order
#     file's ports not scattered) and port_prof_ignore_file (-i; the *-ignore cases: switch
#     ports whose routes are not counted, lines OpenSM skips): byte-identical dumps;
#   - dnup (OpenSM's), including a mesh with hosts on its corners only: byte-identical dumps;
#   - importing OpenSM's dump and writing it again changes no entry (checked textually too);
#   - an LFT dump ibnetsim writes is accepted by OpenSM's `file` engine, which installs it
#     unchanged.
# Args: the ibnetsim binary and the source directory. Prints "SKIP: reason" and exits 0 when
# OpenSM or ibsim is missing.
set -euo pipefail
bin=$1
src=$2
. "$src/tests/support/opensm.sh"
osm_require ibsim opensm
osm_setup e2e

# run_opensm TOPO GUID2LID OUTDIR ENGINE [opensm args]: ibsim up, OpenSM once, ibsim down.
run_opensm() {
  local topo=$1 g2l=$2 out=$3 eng=$4
  shift 4
  mkdir -p "$out"
  cp "$g2l" "$out/guid2lid"
  osm_ibsim_start "$topo" "$out/ibsim.log"
  (cd "$out" && OSM_TMP_DIR="$out" OSM_CACHE_DIR="$out" LD_PRELOAD="$umad" \
     timeout 120 opensm -o -f "$out/osm.log" --dump_files_dir "$out" -D 0x43 --honor_guid2lid \
     -R "$eng" "$@" > "$out/osm.out" 2>&1) || failed "opensm -R $eng on $topo exited with $?"
  osm_ibsim_stop
  [ -s "$out/opensm-lfts.dump" ] || failed "OpenSM wrote no opensm-lfts.dump for $topo ($eng)"
}

field() { sed -n "s/^$1: \([0-9]*\).*/\1/p" "$2" | head -1; }

within10() { # ours theirs
  awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 ? d <= 0.1 * b : a == 0) }'
}

# Sorted "switch-guid LID port" triples: the forwarding a dump describes, read without
# ibnetsim's own reader (OpenSM keeps the topology's LIDs here, --honor_guid2lid).
triples() {
  awk '/^Unicast lids/ { for (i = 1; i <= NF; i++) if ($i == "guid") sw = $(i + 1); next }
       /^0x/ { print sw, $1, $2 + 0 }' "$1" | sort
}

# revguid TOPO GUID2LID: rewrite the switch GUIDs in place so that numeric order and OpenSM's
# byte-reversed order disagree (switch i of n gets 0x0002c9_00ii_0000_(n-i)).
revguid() {
  python3 - "$1" "$2" <<'PY'
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
}

# keep_hosts TOPO NAMES...: remove every CA not cabled to one of the named switches, so that
# only some switches are leaves (dnup's ranks then differ from minhop's and updn's).
keep_hosts() {
  python3 - "$@" <<'PY'
import re, sys
topo, keep = sys.argv[1], set(sys.argv[2:])
blocks = open(topo).read().split('\n\n')
drop = set()
for b in blocks:
    m = re.search(r'^Ca\t\d+ "(H-[0-9a-f]+)".*\n\[\d+\]\([0-9a-f]+\) \t"S-[0-9a-f]+"\[\d+\]\t\t# lid \d+ lmc \d+ "([^"]+)"', b, re.M)
    if m and m.group(2) not in keep:
        drop.add(m.group(1))
out = []
for b in blocks:
    m = re.search(r'^Ca\t\d+ "(H-[0-9a-f]+)"', b, re.M)
    if m and m.group(1) in drop:
        continue
    out.append('\n'.join(l for l in b.split('\n') if not any('"%s"' % h in l for h in drop)))
open(topo, 'w').write('\n\n'.join(out))
PY
}

# ignore_file TOPO OUT: an OpenSM port_prof_ignore_file (-i) for TOPO: of the first four
# switches, the first switch-to-switch port and the first host port, plus lines OpenSM skips (a
# GUID of no switch, a port 0, a port beyond the switch's).
ignore_file() {
  python3 - "$1" "$2" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
out = ['# port_prof_ignore_file for ibnetsim e2e/opensm_compare']
for blk in s.split('\n\n'):
    m = re.search(r'^switchguid=0x([0-9a-f]+)', blk, re.M)
    if not m or len(out) > 9: continue
    g = int(m.group(1), 16)
    sw = re.findall(r'^\[(\d+)\]\t"S-', blk, re.M)
    ca = re.findall(r'^\[(\d+)\]\t"H-', blk, re.M)
    if sw: out.append('0x%016x %s' % (g, sw[0]))
    if ca: out.append('0x%x %s  # a host port' % (g, ca[0]))
out += ['0x000000000000beef 1', '0x%016x 0' % g, '0x%016x 200' % g]
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
PY
}

# order_file TOPO OUT: an OpenSM guid_routing_order_file for TOPO: the CA port GUIDs in reverse
# order of the file (some with a name after them, some indented and unpadded), the last
# switch's GUID among them, a GUID of no port and a repeated one (both skipped by OpenSM).
order_file() {
  python3 - "$1" "$2" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
cas = re.findall(r'^Ca\t.*\n\[\d+\]\(([0-9a-f]+)\)', s, re.M)[::-1]
sw = re.findall(r'^switchguid=0x([0-9a-f]+)', s, re.M)
out = ['# guid_routing_order_file for ibnetsim e2e/opensm_compare']
for i, g in enumerate(cas):
    out.append('0x%016x host%d' % (int(g, 16), i) if i % 2 == 0 else '  0x%x' % int(g, 16))
    if i == 3: out.append('0x' + sw[-1])
    if i == 5: out.append('0x000000000000beef  # no such port')
    if i == 6: out.append('0x%x' % int(cas[0], 16))
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
PY
}

printf "%-22s %-10s %10s %8s %9s %9s %9s %9s %-9s %s\n" topology engine entries differ \
  maxport osm_max maxisl osm_isl identical hops
# Cases: name | topology | LMC | engines | root (updn with an explicit root; "" = OpenSM's own)
cases=()
if [ -f "$src/../shared/topologies/x5-cluster.topo" ]; then
  cases+=("x5|$src/../shared/topologies/x5-cluster.topo|0|minhop updn dnup ftree|")
  cases+=("x5-lmc2|$src/../shared/topologies/x5-cluster.topo|2|minhop updn|")
  cases+=("small-1-lmc1|$src/../shared/topologies/small-1.topo|1|minhop updn|")
  cases+=("small-3-loopback|$src/../shared/topologies/small-3.topo|0|minhop updn|")
else
  echo "note: $src/../shared/topologies is absent; x5-cluster.topo is not compared"
fi
cases+=("fattree-648|gen:fattree:ports=36,levels=2|0|minhop updn dnup ftree|"
        "fattree-648-lmc2|gen:fattree:ports=36,levels=2|2|minhop|"
        "4-ary-3-tree|gen:kary_ntree:k=4,n=3|0|minhop updn dnup ftree|"
        "8-port-3-tree|gen:fattree:ports=8,levels=3|0|minhop updn dnup ftree|"
        "irregular-001|gen:irregular:switches=32|1|minhop updn|first"
        "mesh-4x4|gen:mesh:dims=4x4|0|minhop updn dor|first"
        "mesh-3x3x3|gen:mesh:dims=3x3x3,hosts=2|1|dor|"
        "torus-4x4|gen:torus:dims=4x4,hosts=2|0|minhop dor|"
        "clos3-6+2|gen:clos3:ports=8,leaves=4,spines=2,hosts=6|0|minhop updn dnup ftree|"
        "seed004-15|gen:irregular:switches=15,ports=5,hosts=1,links=23,planar=1|0|minhop updn|first"
        "irregular-revguid|gen:irregular:switches=8,hosts=2|0|minhop updn dnup|first"
        "irregular-revguid-lmc1|gen:irregular:switches=8,hosts=2|1|minhop updn dnup|first"
        "irregular10-revguid|gen:irregular:switches=10,ports=8,hosts=3|0|minhop updn dnup|first"
        "mesh-4x4-corners|gen:mesh:dims=4x4|0|minhop updn dnup|"
        "mesh-4x4-corners-shift|gen:mesh:dims=4x4|0|dnup|"
        "mesh-4x4-corners-scatter|gen:mesh:dims=4x4|0|dnup|"
        "irregular10-3leaves|gen:irregular:switches=10,ports=8,hosts=3|0|minhop updn dnup|"
        "mesh-4x4-chain|gen:mesh:dims=4x4|0|updn,dor ftree,updn|"
        "irregular-revguid-chain|gen:irregular:switches=8,hosts=2|0|ftree,updn|first"
        "irregular-revguid-order|gen:irregular:switches=8,hosts=2|0|minhop updn|first"
        "mesh-4x4-order-lmc1|gen:mesh:dims=4x4,hosts=2|1|minhop dor|"
        "fattree-648-shift|gen:fattree:ports=36,levels=2|0|minhop|"
        "irregular-revguid-shift|gen:irregular:switches=8,hosts=2|0|minhop updn|first"
        "irregular-revguid-shift-lmc2|gen:irregular:switches=8,hosts=2|2|minhop updn|first"
        "mesh-4x4-shift-lmc1|gen:mesh:dims=4x4,hosts=2|1|minhop dor|"
        "torus-4x4-shift|gen:torus:dims=4x4,hosts=2|0|dor|"
        "fattree-648-scatter|gen:fattree:ports=36,levels=2|0|minhop|"
        "irregular-revguid-scatter-lmc1|gen:irregular:switches=8,hosts=2|1|minhop updn|first"
        "mesh-4x4-scatter|gen:mesh:dims=4x4,hosts=2|0|minhop dor|"
        "irregular-revguid-order-scatter-noscatter|gen:irregular:switches=8,hosts=2|0|minhop updn|first"
        "irregular-revguid-ignore|gen:irregular:switches=8,hosts=2|0|minhop updn dnup|first"
        "irregular10-ignore-lmc1|gen:irregular:switches=10,ports=8,hosts=3|1|minhop updn|first")
for entry in "${cases[@]}"; do
  IFS='|' read -r name spec lmc engines root <<< "$entry"
  d="$work/$name"
  mkdir -p "$d"
  "$bin" topo convert "$spec" --lmc "$lmc" -o "$d/topo" --guid2lid "$d/guid2lid" 2> "$d/convert.err" ||
    { failed "ibnetsim topo convert $spec: $(cat "$d/convert.err")"; continue; }
  case $name in *-revguid*) revguid "$d/topo" "$d/guid2lid" ;; esac
  case $name in *-corners*) keep_hosts "$d/topo" S0_0 S3_0 S0_3 S3_3 ;;
    *-3leaves) keep_hosts "$d/topo" S1 S4 S9 ;; esac
  order=()
  case $name in *-order*) order_file "$d/topo" "$d/order"; order=(-X "$d/order") ;; esac
  # port_shifting: OpenSM takes it from its configuration file only.
  shiftosm=() shiftours=()
  case $name in *-shift*) echo "port_shifting TRUE" > "$d/shift.conf"
    shiftosm=(-F "$d/shift.conf") shiftours=(--port-shifting) ;; esac
  # scatter_ports: a seed on both command lines.
  case $name in *-scatter*) shiftosm+=(--scatter-ports 7) shiftours+=(--scatter-ports 7) ;; esac
  # guid_routing_order_no_scatter and port_prof_ignore_file (-i): on both command lines.
  case $name in *-noscatter*) shiftosm+=(--guid_routing_order_no_scatter)
    shiftours+=(--guid-routing-order-no-scatter) ;; esac
  case $name in *-ignore*) ignore_file "$d/topo" "$d/ignore"
    shiftosm+=(-i "$d/ignore") shiftours+=(--ignore-guids "$d/ignore") ;; esac
  for eng in $engines; do
    osm_extra=(-l "$lmc" "${order[@]}" "${shiftosm[@]}")
    our_extra=("${order[@]}" "${shiftours[@]}")
    label=$eng
    if [[ ,$eng, == *,updn,* ]] && [ -n "$root" ]; then
      # The first switch of the file as the root: OpenSM's root_guid_file, ibnetsim's --roots.
      rg=$(sed -n 's/^switchguid=\(0x[0-9a-f]*\).*/\1/p' "$d/topo" | head -1)
      echo "$rg" > "$d/roots"
      osm_extra+=(-a "$d/roots")
      our_extra+=(--roots "$rg")
      label="$eng-root"; [ "$eng" = updn ] && label=updn-root
    fi
    run_opensm "$d/topo" "$d/guid2lid" "$d/osm-$eng" "$eng" "${osm_extra[@]}"
    osm="$d/osm-$eng/opensm-lfts.dump"
    [ -s "$osm" ] || continue
    # OpenSM's own tables: every route valid.
    "$bin" route check "$d/topo" --lfts "$osm" > "$d/osm-$eng.check" 2>> "$d/warnings" ||
      failed "$name: OpenSM's $eng tables do not check: $(grep valid "$d/osm-$eng.check")"
    extra=()
    case $eng in minhop|updn|dnup) extra=(--lid-matrix "$d/osm-$eng/opensm-lid-matrix.dump") ;; esac
    if ! "$bin" route check "$d/topo" -e "$eng" "${our_extra[@]}" --compare "$osm" "${extra[@]}" \
         > "$d/$eng.check" 2>> "$d/warnings"; then
      failed "$name $eng: $(grep -E '^(valid|lid matrix)' "$d/$eng.check" | tr '\n' ' ')"
    fi
    ours=$(field "max routes on a port" "$d/$eng.check")
    theirs=$(field "compare max routes on a port" "$d/$eng.check")
    oisl=$(field "max routes on a switch-switch port" "$d/$eng.check")
    tisl=$(field "compare max routes on a switch-switch port" "$d/$eng.check")
    diffs=$(sed -n 's/^compare: \([0-9]*\) of \([0-9]*\).*/\1/p' "$d/$eng.check")
    total=$(sed -n 's/^compare: \([0-9]*\) of \([0-9]*\).*/\2/p' "$d/$eng.check")
    hops=$(sed -n 's/^avg switches per route: //p' "$d/$eng.check")
    identical=-
    case $eng in minhop|updn|dnup|dor|*,*)
      "$bin" route compute "$d/topo" -e "$eng" "${our_extra[@]}" -o "$d/$eng.ours.dump" 2> "$d/$eng.note"
      # A chain: the engine that routed is OpenSM's ("NAME tables configured on all switches").
      if [[ $eng == *,* ]]; then
        osm_used=$(sed -n 's/.* \([a-z0-9]*\) tables configured on all switches.*/\1/p' "$d/osm-$eng/osm.log" | tail -1)
        our_used=$(sed -n 's/^note: routed by \([a-z0-9]*\).*/\1/p' "$d/$eng.note")
        [ -z "$our_used" ] && our_used=${eng%%,*}
        echo "$name $eng: OpenSM routed with ${osm_used:-?}, ibnetsim with $our_used"
        [ -n "$osm_used" ] && [ "$osm_used" = "$our_used" ] ||
          failed "$name chain $eng: OpenSM routed with '${osm_used}', ibnetsim with '$our_used'"
      fi
      # ibsim gives every CA port the GUID node GUID + port number, whatever the file says
      # (small-3's ConnectX-4 ports carry the node GUID): OpenSM's comments then name ibsim's
      # port GUIDs, and only those may differ.
      maskguid() { sed 's/^\(0x[0-9a-f]* [0-9]* # Channel Adapter portguid\) 0x[0-9a-f]*/\1/' "$1"; }
      if cmp -s "$d/$eng.ours.dump" "$osm"; then identical=yes
      elif cmp -s <(maskguid "$d/$eng.ours.dump") <(maskguid "$osm"); then identical=ca-guids
        echo "$name $eng: identical but for CA port GUIDs in comments, which ibsim renumbers"
      else
        identical=no
        failed "$name $eng: ibnetsim's dump is not byte-identical to OpenSM's: $(diff "$osm" "$d/$eng.ours.dump" | head -3 | tr '\n' ' ')"
      fi ;;
    esac
    printf "%-22s %-10s %10s %8s %9s %9s %9s %9s %-9s %s\n" "$name" "$label" "$total" "$diffs" \
      "$ours" "$theirs" "$oisl" "$tisl" "$identical" "$hops"
    grep -q "^valid: yes" "$d/$eng.check" || failed "$name $eng: ibnetsim's routes are not valid"
    within10 "$ours" "$theirs" || failed "$name $eng: max routes per port $ours vs OpenSM's $theirs"
    within10 "$oisl" "$tisl" || failed "$name $eng: max routes per switch-switch port $oisl vs OpenSM's $tisl"
    if [ ${#extra[@]} -gt 0 ]; then
      grep -q "^lid matrix: [0-9]* rows agree" "$d/$eng.check" ||
        failed "$name: $eng hop tables differ from OpenSM's lid matrix"
    fi
    # Import OpenSM's dump and write it again: no entry changes.
    "$bin" route compute "$d/topo" --lfts "$osm" -o "$d/reexport.dump" 2>/dev/null ||
      failed "$name: importing OpenSM's $eng dump failed"
    "$bin" route diff "$d/topo" "$osm" "$d/reexport.dump" > "$d/reexport.diff" 2>> "$d/warnings" ||
      failed "$name $eng: re-exported dump differs: $(tail -1 "$d/reexport.diff")"
    cmp -s <(triples "$osm") <(triples "$d/reexport.dump") ||
      failed "$name $eng: re-exported dump's entries differ textually from OpenSM's"
  done
  # The option cases (chains, -X, port_shifting, scatter_ports) leave the file engine to the others.
  case $name in *-chain|*-order*|*-shift*|*-scatter*) continue ;; esac
  # OpenSM's file engine loads an ibnetsim dump (shortest paths to the highest port, which
  # differ from OpenSM's own minhop) and installs exactly those tables.
  "$bin" route compute "$d/topo" -e spf --tie highest -o "$d/spf.dump" 2>/dev/null
  run_opensm "$d/topo" "$d/guid2lid" "$d/osm-file" file -l "$lmc" -U "$d/spf.dump"
  grep -q "file tables configured" "$d/osm-file/osm.log" ||
    failed "$name: OpenSM's file engine did not configure ibnetsim's tables: $(grep -i err "$d/osm-file/osm.log" | head -2)"
  if [ -s "$d/osm-file/opensm-lfts.dump" ]; then
    "$bin" route diff "$d/topo" "$d/spf.dump" "$d/osm-file/opensm-lfts.dump" > "$d/file.diff" 2>> "$d/warnings" ||
      failed "$name: OpenSM installed other tables than ibnetsim's dump: $(tail -1 "$d/file.diff")"
    echo "$name: OpenSM's file engine installed ibnetsim's spf dump: $(tail -1 "$d/file.diff")"
  fi
done
if [ $fail -ne 0 ]; then
  echo "opensm_compare: FAILED"
  exit 1
fi
echo "opensm_compare: all checks passed"
