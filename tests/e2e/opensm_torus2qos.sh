#!/usr/bin/env bash
# opensm_torus2qos.sh: ibnetsim's torus-2QoS engine against OpenSM's own (OpenSM 3.3 from
# Debian, through ibsim, as e2e/opensm_compare runs it; OpenSM needs -Q for torus-2QoS). For 2-D
# and 3-D tori and meshes, each with a torus-2QoS.conf written from the topology (the seed switch
# and its neighbours by GUID; some cases move the seed away from S0_0 and the datelines with it),
# this checks:
#   - `ibnetsim route compute -e torus-2QoS --torus-config CONF` writes an opensm-lfts.dump
#     byte-identical to OpenSM's;
#   - its --sl2vl dump is byte-identical to OpenSM's opensm-sl2vl.dump (the SL2VL table OpenSM
#     programmed on every switch (input port, output port) pair and every CA port; OpenSM writes
#     the file only for an engine with its own SL2VL tables);
#   - OpenSM's placement (opensm-torus.dump: each switch's coordinates) equals the one ibnetsim
#     derives from the switch names when no configuration is given (the default-seeded cases:
#     the tables without --torus-config are byte-identical too);
#   - ibnetsim's routes are valid and its deadlock check finds no cycle with the per-hop VLs,
#     OpenSM's tables are valid;
#   - a fabric torus-2QoS does not route (a torus with a link removed) is refused by ibnetsim
#     with a message, not routed.
# Args: the ibnetsim binary and the source directory. Prints "SKIP: reason" and exits 0 when
# OpenSM or ibsim is missing.
set -euo pipefail
bin=$1
src=$2
. "$src/tests/support/opensm.sh"
osm_require ibsim opensm
osm_setup t2q

# run_opensm TOPO GUID2LID OUTDIR CONF LMC: ibsim up, OpenSM's torus-2QoS once, ibsim down.
run_opensm() {
  local topo=$1 g2l=$2 out=$3 conf=$4 lmc=${5:-0}
  mkdir -p "$out"
  cp "$g2l" "$out/guid2lid"
  osm_ibsim_start "$topo" "$out/ibsim.log"
  (cd "$out" && OSM_TMP_DIR="$out" OSM_CACHE_DIR="$out" LD_PRELOAD="$umad" \
     timeout 120 opensm -o -Q -l "$lmc" -f "$out/osm.log" --dump_files_dir "$out" -D 0x43 \
     --honor_guid2lid -R torus-2QoS --torus_config "$conf" > "$out/osm.out" 2>&1) ||
    failed "opensm -R torus-2QoS on $topo exited with $?"
  osm_ibsim_stop
  grep -q "torus-2QoS tables configured on all switches" "$out/osm.log" ||
    failed "OpenSM's torus-2QoS did not route $topo: $(grep -E 'ERR|rror' "$out/osm.log" | head -3)"
}

# conf TOPO OUT KIND X Y Z SEED [DATELINE...]: a torus-2QoS.conf for the generated topology:
# KIND (torus or mesh) and the radices, the seed switch at coordinates SEED ("1,1,0") with links
# to its neighbours (both directions in rings of 4 and more, as the man page asks for radix 4),
# and dateline lines (e.g. "x_dateline -1") moving the origin back to S0_0 or elsewhere.
conf() {
  python3 - "$@" <<'PY'
import re, sys
topo, out, kind, x, y, z, seed = sys.argv[1:8]
extra = sys.argv[8:]
R = [int(x), int(y), int(z)]
guid = {}
for m in re.finditer(r'^switchguid=0x([0-9a-f]+).*\nSwitch\t\d+ "[^"]*"\t\t# "([^"]+)"', open(topo).read(), re.M):
    guid[m.group(2)] = int(m.group(1), 16)
nd = 3 if R[2] > 1 else 2
def name(c):
    return 'S' + '_'.join(str(v) for v in c[:nd])
s = [int(v) for v in seed.split(',')]
lines = ['# torus-2QoS.conf for ibnetsim e2e/opensm_torus2qos', '%s %d %d %d' % (kind, *R)]
for d in range(3):
    if R[d] == 1:
        continue
    for sign, tag in ((1, 'p'), (-1, 'm')):
        c = list(s)
        c[d] += sign
        if kind == 'mesh' and not 0 <= c[d] < R[d]:
            continue
        if sign < 0 and kind == 'torus' and R[d] != 4 and d == 1:
            continue  # only one direction where it is enough (y of a ring other than 4)
        c[d] %= R[d]
        lines.append('%s%s_link 0x%016x 0x%016x  # %s -> %s' % ('xyz'[d], tag, guid[name(s)], guid[name(c)], name(s), name(c)))
lines += extra
open(out, 'w').write('\n'.join(lines) + '\n')
PY
}

printf "%-24s %8s %9s %9s %8s %s\n" case entries lfts sl2vl coords deadlock
# Cases: name | generator | conf kind | radices | seed | dateline lines (comma-separated) | LMC
cases=("torus-4x4|torus:dims=4x4,hosts=2|torus|4 4 1|0,0,0|"
       "torus-5x5|torus:dims=5x5,hosts=1|torus|5 5 1|0,0,0|"
       "torus-6x6-seed-moved|torus:dims=6x6,hosts=1|torus|6 6 1|2,3,0|x_dateline -1,y_dateline 2"
       "torus-3x3x3|torus:dims=3x3x3,hosts=1|torus|3 3 3|0,0,0|"
       "torus-4x4x4|torus:dims=4x4x4,hosts=1|torus|4 4 4|0,0,0|"
       "torus-5x3x4-seed-moved|torus:dims=5x3x4,hosts=2|torus|5 3 4|1,2,3|x_dateline -1,z_dateline 1"
       "torus-4x4-lmc2|torus:dims=4x4,hosts=2|torus|4 4 1|0,0,0||2"
       "mesh-4x4|mesh:dims=4x4,hosts=2|mesh|4 4 1|0,0,0|"
       "mesh-4x5-seed-moved|mesh:dims=4x5,hosts=1|mesh|4 5 1|1,2,0|x_dateline -1,y_dateline -2"
       "mesh-3x4x5|mesh:dims=3x4x5,hosts=1|mesh|3 4 5|0,0,0|")
for entry in "${cases[@]}"; do
  IFS='|' read -r name spec kind radices seed datelines lmc <<< "$entry"
  lmc=${lmc:-0}
  d="$work/$name"
  mkdir -p "$d"
  "$bin" topo convert "gen:$spec" --lmc "$lmc" -o "$d/topo" --guid2lid "$d/guid2lid" 2> "$d/convert.err" ||
    { failed "ibnetsim topo convert $spec: $(cat "$d/convert.err")"; continue; }
  IFS=',' read -r -a dl <<< "$datelines"
  # shellcheck disable=SC2086
  conf "$d/topo" "$d/conf" "$kind" $radices "$seed" ${dl[@]+"${dl[@]}"}
  run_opensm "$d/topo" "$d/guid2lid" "$d/osm" "$d/conf" "$lmc"
  osm="$d/osm/opensm-lfts.dump"
  [ -s "$osm" ] || { failed "$name: OpenSM wrote no opensm-lfts.dump"; continue; }
  "$bin" route check "$d/topo" --lfts "$osm" > "$d/osm.check" 2>&1 ||
    failed "$name: OpenSM's tables do not check: $(grep valid "$d/osm.check")"
  if ! "$bin" route compute "$d/topo" -e torus-2QoS --torus-config "$d/conf" --sl2vl "$d/ours.sl2vl" \
       -o "$d/ours.dump" 2> "$d/ours.note"; then
    failed "$name: route compute: $(cat "$d/ours.note")"; continue
  fi
  lfts=no sl2vl=no coords=- dead=-
  if cmp -s "$d/ours.dump" "$osm"; then lfts=yes
  else failed "$name: LFT dump differs from OpenSM's: $(diff "$osm" "$d/ours.dump" | head -4 | tr '\n' ' ')"; fi
  if [ -s "$d/osm/opensm-sl2vl.dump" ] && cmp -s "$d/ours.sl2vl" "$d/osm/opensm-sl2vl.dump"; then sl2vl=yes
  else failed "$name: SL2VL dump differs from OpenSM's: $(diff "$d/osm/opensm-sl2vl.dump" "$d/ours.sl2vl" 2>&1 | head -4 | tr '\n' ' ')"; fi
  # Default seed: OpenSM's coordinates are the names', and the derived configuration routes the same.
  if [ "$seed" = 0,0,0 ] && [ -z "$datelines" ]; then
    coords=yes
    while read -r _ c _ _ nm; do
      want=$(echo "$nm" | tr -d '()' | sed 's/^S//; s/_/,/g')
      case $want in *,*,*) ;; *) want="$want,0" ;; esac
      [ "$c" = "$want" ] || { coords=no; failed "$name: OpenSM placed $nm at $c"; }
    done < <(grep '^switch ' "$d/osm/opensm-torus.dump")
    "$bin" route compute "$d/topo" -e torus-2QoS --sl2vl "$d/derived.sl2vl" -o "$d/derived.dump" 2>/dev/null ||
      failed "$name: the derived configuration did not route"
    cmp -s "$d/derived.dump" "$osm" && cmp -s "$d/derived.sl2vl" "$d/osm/opensm-sl2vl.dump" ||
      failed "$name: the configuration derived from the names routes otherwise than OpenSM"
  fi
  "$bin" route check "$d/topo" -e torus-2QoS --torus-config "$d/conf" --deadlock-free > "$d/ours.check" 2>&1 &&
    dead=none || { dead=cycle; failed "$name: $(grep -E '^(valid|deadlock)' "$d/ours.check" | tr '\n' ' ')"; }
  grep -q "^valid: yes" "$d/ours.check" || failed "$name: ibnetsim's routes are not valid"
  entries=$(grep -c '^0x' "$osm")
  printf "%-24s %8s %9s %9s %8s %s\n" "$name" "$entries" "$lfts" "$sl2vl" "$coords" "$dead"
done

# Path SLs: OpenSM's SA answers path record queries (saquery -p through umad2sim, OpenSM left
# running) with torus_path_sl's SL; ibnetsim's route trace prints the engine's path SL. A 5x5
# torus with the datelines moved (the seed S0_0 at 3,1), from three sources (a host at the seed,
# a host across the x dateline, a switch) to every LID, at QoS level 0.
d="$work/sa-5x5"
mkdir -p "$d/osm"
"$bin" topo convert gen:torus:dims=5x5,hosts=1 -o "$d/topo" --guid2lid "$d/guid2lid" 2>/dev/null
conf "$d/topo" "$d/conf" torus 5 5 1 0,0,0 "x_dateline 2" "y_dateline -1"
cp "$d/guid2lid" "$d/osm/guid2lid"
osm_ibsim_start "$d/topo" "$d/osm/ibsim.log"
(cd "$d/osm" && OSM_TMP_DIR="$d/osm" OSM_CACHE_DIR="$d/osm" LD_PRELOAD="$umad" \
   exec timeout 300 opensm -Q -D 0x43 -f "$d/osm/osm.log" --honor_guid2lid -R torus-2QoS \
   --torus_config "$d/conf" > "$d/osm/osm.out" 2>&1) &
osm_pid=$!
# Ready when the SA answers with torus-2QoS's SLs (OpenSM's log is written in blocks, so it
# cannot tell): H1 (x = 3) to S2_0 (x = 0) crosses the x dateline, SL 1.
up=0
for _ in $(seq 150); do
  LD_PRELOAD="$umad" timeout 20 saquery -p --slid 26 --dlid 3 2>/dev/null | grep -q "sl\.*0x1$" && { up=1; break; }
  sleep 0.2
done
[ $up = 1 ] || failed "sa-5x5: OpenSM's SA does not answer path record queries"
lids=$(while read -r _ a _; do echo $((a)); done < "$d/guid2lid" | sort -n -u)
# sa_sl SLID DLID [SAQUERY-OPTION...]: the SL of OpenSM's path record in hex, "" if none; a query
# that fails or times out (a loaded machine) is asked again, up to three times.
sa_sl() {
  local s=$1 t=$2 out= i
  shift 2
  for i in 1 2 3; do
    out=$(LD_PRELOAD="$umad" timeout 20 saquery -p --slid "$s" --dlid "$t" "$@" 2>/dev/null |
          sed -n 's/^[[:space:]]*sl\.*0x\([0-9a-fA-F]*\)$/\1/p' | head -1) || true
    [ -n "$out" ] && break
    sleep 0.5
  done
  echo "$out"
}
nsl=0 nsame=0 nz=0
for s in 26 38 25; do  # H1 (on S0_0), H13 (on S2_2), S4_4
  for t in $lids; do
    [ "$s" = "$t" ] && continue
    theirs=$(sa_sl "$s" "$t")
    ours=$("$bin" route trace "$d/topo" "lid:$s" "lid:$t" -e torus-2QoS --torus-config "$d/conf" 2>/dev/null |
           sed -n 's/^route from .*, SL \([0-9]*\), VL.*/\1/p') || true
    nsl=$((nsl + 1))
    [ "${ours:-0}" != 0 ] && nz=$((nz + 1))
    if [ -n "$theirs" ] && [ "$((16#$theirs))" = "$ours" ]; then nsame=$((nsame + 1))
    else failed "sa-5x5: path SL from LID $s to LID $t: OpenSM's SA says '${theirs}', ibnetsim '$ours'"; fi
  done
done
# QoS level 1 (SL bit 3): OpenSM answers a query that asks for an SL only when torus-2QoS gives
# that SL, so ask for the one ibnetsim gives (route trace --sl 8).
nq=0
for t in $lids; do
  [ "$t" = 26 ] && continue
  ours=$("$bin" route trace "$d/topo" lid:26 "lid:$t" -e torus-2QoS --torus-config "$d/conf" --sl 8 2>/dev/null |
         sed -n 's/^route from .*, SL \([0-9]*\), VL.*/\1/p') || true
  theirs=$(sa_sl 26 "$t" --sl "${ours:-0}")
  if [ -n "$theirs" ] && [ "$((16#$theirs))" = "$ours" ] && [ "${ours:-0}" -ge 8 ]; then nq=$((nq + 1))
  else failed "sa-5x5: QoS level 1 path SL from LID 26 to LID $t: ibnetsim '$ours', OpenSM's SA '${theirs}'"; fi
done
echo "path SLs at QoS level 1: $nq from LID 26 answered by OpenSM's SA with ibnetsim's SL"
osm_stop
osm_ibsim_stop
echo "path SLs: $nsame of $nsl equal to OpenSM's SA answers ($nz of them not 0)"
[ "$nsl" -gt 100 ] && [ "$nz" -gt 40 ] || failed "sa-5x5: only $nsl path SLs compared, $nz not 0"

# A torus with a cable removed: OpenSM routes around it; ibnetsim refuses it.
d="$work/broken"
mkdir -p "$d"
"$bin" topo convert gen:torus:dims=5x5,hosts=1 -o "$d/topo" 2>/dev/null
python3 - "$d/topo" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
# S2_2 port 2 (towards S1_2) and S1_2's port 3 back: drop both ends of that cable.
blocks = s.split('\n\n')
for i, b in enumerate(blocks):
    if '# "S2_2" base' in b:
        blocks[i] = '\n'.join(l for l in b.split('\n') if not l.startswith('[2]'))
    if '# "S1_2" base' in b:
        blocks[i] = '\n'.join(l for l in b.split('\n') if not l.startswith('[3]'))
open(p, 'w').write('\n\n'.join(blocks))
PY
if "$bin" route compute "$d/topo" -e torus-2QoS -o "$d/out.dump" 2> "$d/err"; then
  failed "a torus with a missing link was routed by torus-2QoS"
else
  grep -q "switch-to-switch links" "$d/err" || failed "refusal message: $(cat "$d/err")"
  echo "missing link refused: $(cat "$d/err")"
fi

if [ $fail -ne 0 ]; then
  echo "opensm_torus2qos: FAILED"
  exit 1
fi
echo "opensm_torus2qos: all checks passed"
