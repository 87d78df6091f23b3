#!/usr/bin/env bash
# file_errors.sh: an error in a file a scenario names (an opensm.conf, an OpenSM LFT dump) names
# that file and line first, then where the scenario named it; LFT dumps with a duplicate entry,
# a second section for a switch, an out-of-range port or LID, an unknown switch GUID, a missing
# switch section or a cut-off end are refused (exit 2), and an entry whose port GUID the
# topology lacks is read with a warning naming its line.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1
. "$2/tests/support/e2e.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/conf"
cat > "$tmp/s.cfg" <<'CFG'
simulation = { duration = "200 us"; seed = 3; };
topology = { generator = "single_switch"; args = "ports=4, link=4xDDR"; };
cc = { opensm_conf = "conf/opensm.conf"; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; kind = "saturate"; msg_size = "4 KiB"; }
);
CFG
osm() { printf "$1" > "$tmp/conf/opensm.conf"; }
# opensm.conf: a congestion key, a boolean, a QoS table and SL2VL map of the wrong form; the
# error starts with the opensm.conf's file:line and then names the scenario's line.
osm 'congestion_control TRUE\n# threshold\ncc_sw_cong_setting_threshold 0x99\n'
expect 2 "run: $tmp/conf/opensm.conf:3: cc_sw_cong_setting_threshold expects a number 0-15.*(the opensm.conf of $tmp/s.cfg:3" \
  "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
osm 'congestion_control maybe\n'
expect 2 "run: $tmp/conf/opensm.conf:1: congestion_control expects TRUE or FALSE" "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
osm 'congestion_control TRUE\nqos TRUE\n\nqos_vlarb_high 0:4,junk\n'
expect 2 "run: $tmp/conf/opensm.conf:4: qos_vlarb_high: expected VL:weight pairs" "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
osm 'qos TRUE\nqos_sl2vl 0,1,2\n'
expect 2 "run: $tmp/conf/opensm.conf:2: qos_sl2vl: expected 16 comma-separated VLs, found 3" "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
osm 'qos TRUE\nqos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,99\n'
expect 2 "opensm.conf:2: qos_sl2vl: expected 16 comma-separated VLs 0-15, entry 15 is \"99\"" "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
rm "$tmp/conf/opensm.conf"
expect 2 "run: $tmp/conf/opensm.conf: cannot open the opensm.conf file (the opensm.conf of $tmp/s.cfg:3" "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
# Through -s: the opensm.conf's line, then the override.
sed -i 's|^cc = .*||' "$tmp/s.cfg"
osm '\ncc_sw_cong_setting_marking_rate -5\n'
expect 2 "run: $tmp/conf/opensm.conf:2: cc_sw_cong_setting_marking_rate expects a number.*(the opensm.conf of -s cc.opensm_conf=" \
  "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q -s cc.opensm_conf="$tmp/conf/opensm.conf"
# The same form errors in the scenario's qos section name the scenario's line.
printf 'qos = {\n  vlarb_low = "0:64,1:x";\n};\n' >> "$tmp/s.cfg"
expect 2 "s.cfg:8: qos.vlarb_low: weight must be 0-255" "$bin" run "$tmp/s.cfg" -o "$tmp/o" -q
sed -i '/^qos = {/,$d' "$tmp/s.cfg"

# LFT dumps: a good one (4-port switch: LIDs 1 switch, 2-5 hosts), then one defect at a time.
topo=gen:fattree:ports=4,levels=2
"$bin" route compute "$topo" -e minhop -o "$tmp/good.dump" 2>/dev/null || failed "route compute"
expect 0 "valid: yes" "$bin" route check "$topo" --lfts "$tmp/good.dump"
first=$(grep -n "^Unicast" "$tmp/good.dump" | head -1 | cut -d: -f1)
second=$(grep -n "^Unicast" "$tmp/good.dump" | sed -n 2p | cut -d: -f1)
nsec=$(grep -c "^Unicast" "$tmp/good.dump")
# A duplicate entry (line first+2 repeated after itself).
awk -v n=$((first + 2)) '{print} NR==n {print}' "$tmp/good.dump" > "$tmp/dup.dump"
expect 2 "dup.dump:$((first + 3)): switch .*: a second entry for LID 0x0002 (the first is at line $((first + 2)))" \
  "$bin" route check "$topo" --lfts "$tmp/dup.dump"
# A second section for the first switch (its section appended again at the end).
{ cat "$tmp/good.dump"; sed -n "${first},$((second - 1))p" "$tmp/good.dump"; } > "$tmp/twice.dump"
expect 2 "twice.dump:$(($(wc -l < "$tmp/good.dump") + 1)): switch .* has a second section (the first is at line $first)" \
  "$bin" route check "$topo" --lfts "$tmp/twice.dump"
# Out-of-range port, a LID beyond the section's [0-N], a switch GUID the topology lacks.
sed "$((first + 1))s/^\(0x....\) .../\1 077/" "$tmp/good.dump" > "$tmp/port.dump"
expect 2 "port.dump:$((first + 1)): port 77 is out of range" "$bin" route check "$topo" --lfts "$tmp/port.dump"
sed "$((first + 1))s/^0x..../0x0fff/" "$tmp/good.dump" > "$tmp/lid.dump"
expect 2 "lid.dump:$((first + 1)): LID 0x0fff is beyond the section's LIDs" "$bin" route check "$topo" --lfts "$tmp/lid.dump"
sed "${first}s/guid 0x[0-9a-f]*/guid 0x00000000deadbeef/" "$tmp/good.dump" > "$tmp/guid.dump"
expect 2 "guid.dump:$first: switch with GUID 0x00000000deadbeef is not in the topology" \
  "$bin" route check "$topo" --lfts "$tmp/guid.dump"
# Truncations: inside a section (cut after its second entry), and between sections (the last
# switch's section missing).
head -n $((first + 2)) "$tmp/good.dump" > "$tmp/cut.dump"
expect 2 "cut.dump:$((first + 2)): the section of switch .* (line $first) ends without its \"N lids dumped\" line: the dump is truncated" \
  "$bin" route check "$topo" --lfts "$tmp/cut.dump"
last=$(grep -n "^Unicast" "$tmp/good.dump" | tail -1 | cut -d: -f1)
head -n $((last - 1)) "$tmp/good.dump" > "$tmp/short.dump"
expect 2 "short.dump:$((last - 1)): the dump ends without a section for switch .* ($((nsec - 1)) switch sections read)" \
  "$bin" route check "$topo" --lfts "$tmp/short.dump"
# The trailer's count must match the header's [0-N].
sed "$((second - 1))s/^[0-9]* lids dumped/1 lids dumped/" "$tmp/good.dump" > "$tmp/count.dump"
expect 2 "count.dump:$((second - 1)): \"1 lids dumped\", but the section of switch" \
  "$bin" route check "$topo" --lfts "$tmp/count.dump"
# A port GUID the topology lacks: read, with a warning naming the line.
sed "$((first + 2))s/portguid 0x[0-9a-f]*/portguid 0x00000000deadbeef/" "$tmp/good.dump" > "$tmp/pg.dump"
expect 0 "pg.dump:$((first + 2)): portguid 0x00000000deadbeef is not a port of the topology" \
  "$bin" route check "$topo" --lfts "$tmp/pg.dump"
# Through a scenario: the dump's file:line, and the warning of `run`.
cat > "$tmp/l.cfg" <<CFG
simulation = { duration = "100 us"; seed = 1; };
topology = { generator = "fattree"; args = "ports=4, levels=2"; lft_file = "dup.dump"; };
flows = ( { name = "A"; src = "H1"; dst = "H3"; kind = "saturate"; msg_size = "4 KiB"; } );
CFG
expect 2 "run: $tmp/dup.dump:$((first + 3)): switch .*: a second entry for LID 0x0002" "$bin" run "$tmp/l.cfg" -o "$tmp/o" -q
sed -i 's/dup.dump/pg.dump/' "$tmp/l.cfg"
expect 0 "run: warning: $tmp/pg.dump:$((first + 2)): portguid 0x00000000deadbeef" "$bin" run "$tmp/l.cfg" -o "$tmp/o" -q
[ "$fail" = 0 ] && echo "ok: opensm.conf and LFT dump errors name their file and line"
exit $fail
