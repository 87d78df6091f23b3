#!/usr/bin/env bash
# cc_cli.sh: `ibnetsim run` with congestion control writes cc.csv (time_s and one CCTI column per
# flow), cc_ports.csv, cc_flows.csv and a "cc" block in summary.json; the resolved scenario runs
# again to the same results; probability marking is deterministic per seed; an opensm.conf in
# the cc section configures the run; `ibnetsim repro` rejects unknown names and malformed -s,
# gives a cc.* override to the CC-on run of a pair and not to its CC-off run.
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/s.cfg" <<'CFG'
simulation = { duration = "4 ms"; sample_interval = "0.5 ms"; seed = 3; };
topology = { generator = "single_switch"; args = "ports=4, link=4xDDR"; };
hca = { inject_limit = "13 Gb/s"; sink_limit = "13 Gb/s"; };
cc = { plugin = "ibcc"; marking_rate = 3; };
flows = (
  { name = "A"; src = "H1"; dst = "H3"; kind = "saturate"; msg_size = "64 KiB"; },
  { name = "B"; src = "H2"; dst = "H3"; kind = "saturate"; msg_size = "64 KiB"; }
);
CFG
"$bin" run "$tmp/s.cfg" -o "$tmp/a" -q
for f in cc.csv cc_ports.csv cc_flows.csv; do
  [ -s "$tmp/a/$f" ] || { echo "FAIL: $f missing"; exit 1; }
done
[ "$(head -1 "$tmp/a/cc.csv")" = "time_s,A,B" ] || { echo "FAIL: cc.csv header: $(head -1 "$tmp/a/cc.csv")"; exit 1; }
[ "$(wc -l < "$tmp/a/cc.csv")" -eq 9 ] || { echo "FAIL: cc.csv should have 8 samples"; exit 1; }
grep -q '"fecn_marked_total"' "$tmp/a/summary.json" || { echo "FAIL: no cc block in summary.json"; exit 1; }
grep -q '"marking_rate": 3,' "$tmp/a/summary.json" || { echo "FAIL: settings.cc not in summary.json"; exit 1; }
awk -F, 'NR>1 && $4>0 {m=1} END {exit !m}' "$tmp/a/cc_ports.csv" || { echo "FAIL: no FECN marks"; exit 1; }
# The resolved scenario gives the same run.
"$bin" run "$tmp/a/scenario.cfg" -o "$tmp/b" -q
cmp "$tmp/a/cc.csv" "$tmp/b/cc.csv" || { echo "FAIL: the resolved scenario ran differently"; exit 1; }
cmp "$tmp/a/flows.csv" "$tmp/b/flows.csv" || { echo "FAIL: the resolved scenario ran differently"; exit 1; }
# CC off by override: no cc files.
"$bin" run "$tmp/s.cfg" -o "$tmp/c" -q -s cc.plugin=none
[ ! -e "$tmp/c/cc.csv" ] || { echo "FAIL: cc.csv written without congestion control"; exit 1; }
# opensm.conf: congestion_control TRUE with threshold 0 turns detection off (no marks).
printf 'congestion_control TRUE\ncc_sw_cong_setting_threshold 0x0\n' > "$tmp/opensm.conf"
sed 's/cc = { plugin = "ibcc"; marking_rate = 3; };/cc = { opensm_conf = "opensm.conf"; };/' "$tmp/s.cfg" > "$tmp/o.cfg"
"$bin" run "$tmp/o.cfg" -o "$tmp/d" -q
grep -q '"fecn_marked_total": 0' "$tmp/d/summary.json" || { echo "FAIL: opensm.conf threshold 0 still marks"; exit 1; }
grep -q 'congestion_control TRUE' "$tmp/d/scenario.cfg" || { echo "FAIL: resolved scenario lacks the opensm.conf note"; exit 1; }
# Errors.
set +e
"$bin" run "$tmp/s.cfg" -o "$tmp/e" -q -s cc.threshold=16 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "threshold" "$tmp/err" || { echo "FAIL: bad cc.threshold not rejected"; exit 1; }
set +e
"$bin" repro nosuch > /dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "unknown reproduction" "$tmp/err" || { echo "FAIL: repro nosuch"; exit 1; }
"$bin" repro --list > "$tmp/list" && grep -q "paper4" "$tmp/list" || { echo "FAIL: repro --list"; exit 1; }
set +e
"$bin" repro -s nokey s1 > /dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "KEY=VALUE" "$tmp/err" || { echo "FAIL: repro -s without ="; exit 1; }
# An invalid CC value reaches the CC-on run (and is rejected there, naming the key)...
set +e
"$bin" repro -s cc.threshold=99 -s simulation.duration="20 ms" -o "$tmp/r.csv" s1 > /dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "cc.threshold=99" "$tmp/err" && grep -q "between 0 and 15" "$tmp/err" \
    || { echo "FAIL: repro -s cc.threshold=99 not rejected"; cat "$tmp/err"; exit 1; }
# ...and a valid one runs both (the CC-off run, which has no cc keys, does not get it); the
# shortened runs miss the paper's numbers (exit 1), but write the table.
set +e
"$bin" repro -s cc.threshold=14 -s simulation.duration="20 ms" -o "$tmp/r.csv" s1 > /dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "^s1.ccon.victim," "$tmp/r.csv" || { echo "FAIL: repro -s cc.threshold=14 (rc $rc)"; cat "$tmp/err"; exit 1; }
echo "ok: cc outputs, resolved scenario, opensm.conf, errors"
