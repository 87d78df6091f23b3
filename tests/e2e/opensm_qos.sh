#!/usr/bin/env bash
# opensm_qos.sh: an opensm.conf for QoS alone (qos.opensm_conf), with congestion control off:
# OpenSM's own default file (written by `opensm -c` when OpenSM is installed: qos FALSE, (null),
# -1 and 0 placeholders) loads and its keys of other features are named in the note; a qos TRUE
# file sets max_vls, high_limit, vlarb_high/low, sl2vl and the per-port-type forms (qos_ca_* for
# adapters, qos_swe_* for switches only, qos_sw0_*/qos_rtr_* named as not modelled); adapters get
# their own SL2VL (a VL their table forgets is refused at the adapter); errors in the file name
# that file and line; the scenario's own qos keys override the file.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails+1)); fi; }
scen() { # scen FILE QOS-KEYS: a 4-port switch, one flow on SL 1, CC off
  printf 'topology = { generator = "single_switch"; args = "ports=4"; };\nqos = { opensm_conf = "%s"; %s };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; sl = 1; kind = "saturate"; } );\nsimulation = { duration = "20 us"; };\n' "$1" "${2:-}" > "$tmp/s.cfg"
}
if command -v opensm >/dev/null 2>&1 && timeout 20 opensm -c "$tmp/default.conf" >/dev/null 2>&1 && [ -s "$tmp/default.conf" ]; then
  scen default.conf
  check "OpenSM's default opensm.conf loads with CC off" '"$bin" run "$tmp/s.cfg" -o "$tmp/r0" -q 2>"$tmp/err"'
  check "its qos FALSE is reported, other features named" 'grep -q "qos FALSE, 0 QoS keys applied" "$tmp/r0/scenario.cfg" && grep -q "routing_engine" "$tmp/r0/scenario.cfg" && grep -q "qos_policy_file" "$tmp/r0/scenario.cfg"'
else
  echo "note: opensm not installed: OpenSM's default file not checked"
fi
cat > "$tmp/qos.conf" <<'CONF'
# a site's QoS settings
routing_engine updn
qos TRUE
qos_max_vls 4
qos_high_limit 10
qos_vlarb_high 0:32,1:64
qos_vlarb_low 2:16,3:16
qos_sl2vl 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3
qos_ca_sl2vl 0,2,2,3,0,1,2,3,0,1,2,3,0,1,2,3
qos_swe_vlarb_high 0:8,1:128
qos_sw0_high_limit 5
qos_rtr_vlarb_low (null)
qos_ca_high_limit -1
congestion_control TRUE
cc_sw_cong_setting_threshold 0x0f
CONF
scen qos.conf
check "a qos TRUE file loads with CC off" '"$bin" run "$tmp/s.cfg" -o "$tmp/r1" -q 2>"$tmp/err"'
r=$tmp/r1/scenario.cfg
check "qos_max_vls 4 -> max_vls = 4" 'grep -q "^  max_vls = 4;" "$r"'
check "qos_swe_vlarb_high is the switches' table" 'grep -q "^  vlarb_high = \"0:8,1:128\";" "$r"'
check "adapters keep the general qos_vlarb_high" 'grep -q "^  ca_vlarb_high = \"0:32,1:64\";" "$r"'
check "qos_ca_sl2vl is the adapters' map" 'grep -q "^  ca_sl2vl = \"0,2,2,3" "$r"'
check "qos_high_limit 10" 'grep -q "^  high_limit = 10;" "$r"'
check "sw0 key named as not modelled, congestion keys not applied" 'grep -q "without effect in the model: routing_engine, qos_sw0_high_limit" "$r" && grep -q "congestion keys checked, not applied" "$r" && grep -q "plugin = \"none\"" "$r"'
vlpk() { jq -r --arg n "$2" --argjson p "$3" --argjson v "$4" '[.ports[] | select(.node == $n and .port == $p) | .vls[] | select(.vl == $v) | .PortXmitPkts] | add // 0' "$1"; }
check "SL 1 leaves the adapter on VL 2 (qos_ca_sl2vl), the switch on VL 1 (qos_sl2vl)" '[ "$(vlpk "$tmp/r1/summary.json" H1 1 2)" -gt 0 ] && [ "$(vlpk "$tmp/r1/summary.json" H1 1 1)" -eq 0 ] && [ "$(vlpk "$tmp/r1/summary.json" S1 2 1)" -gt 0 ] && [ "$(vlpk "$tmp/r1/summary.json" S1 2 2)" -eq 0 ]'
# Per-port SL2VL has an effect: the adapters' low table without VL 2 is refused at the adapter.
scen qos.conf 'ca_vlarb_high = "0:32"; ca_vlarb_low = "3:16";'
"$bin" run "$tmp/s.cfg" -o "$tmp/r2" -q 2>"$tmp/err"; rc=$?
check "adapter SL2VL: a VL the adapter's tables forget is refused there" '[ $rc -eq 2 ] && grep -q "VL 2 carries traffic (SL 1 maps to it) out of adapter H1 port 1" "$tmp/err"'
# The scenario's keys override the file's.
scen qos.conf 'high_limit = 3;'
"$bin" run "$tmp/s.cfg" -o "$tmp/r3" -q 2>/dev/null
check "a scenario key overrides the file" 'grep -q "^  high_limit = 3;" "$tmp/r3/scenario.cfg"'
# Errors name the opensm.conf and its line.
printf 'qos TRUE\n# comment\nqos_vlarb_high 0:300\n' > "$tmp/bad.conf"
scen bad.conf
"$bin" run "$tmp/s.cfg" -o "$tmp/r4" -q 2>"$tmp/err"; rc=$?
check "bad weight: bad.conf:3 named" '[ $rc -eq 2 ] && grep -q "bad.conf:3: qos_vlarb_high: " "$tmp/err" && grep -q "qos.opensm_conf" "$tmp/err"'
printf 'qos TRUE\nqos_swe_vlarbhigh 0:3\n' > "$tmp/bad2.conf"
scen bad2.conf
"$bin" run "$tmp/s.cfg" -o "$tmp/r5" -q 2>"$tmp/err"; rc=$?
check "unknown QoS key: bad2.conf:2 named" '[ $rc -eq 2 ] && grep -q "bad2.conf:2: unknown QoS key \"qos_swe_vlarbhigh\"" "$tmp/err"'
printf 'qos TRUE\nqos_max_vls 16\n' > "$tmp/bad3.conf"
scen bad3.conf
"$bin" run "$tmp/s.cfg" -o "$tmp/r6" -q 2>"$tmp/err"; rc=$?
check "qos_max_vls 16: bad3.conf:2 named" '[ $rc -eq 2 ] && grep -q "bad3.conf:2: qos_max_vls expects a number 0-15" "$tmp/err"'
scen ""
"$bin" run "$tmp/s.cfg" -s qos.opensm_conf=nosuch.conf -o "$tmp/r7" -q 2>"$tmp/err"; rc=$?
check "-s qos.opensm_conf with a missing file" '[ $rc -eq 2 ] && grep -q "nosuch.conf: cannot open the opensm.conf file" "$tmp/err"'
[ $fails -eq 0 ] || exit 1
