#!/usr/bin/env bash
# rc_retransmit.sh: the reliable connection over a lossy fabric from the command line: seed 000's
# two-switch PIPD scenario (RC, an ACK per packet, a window of 8) with 1 % of the data packets
# lost at switch inputs (switch.loss) and with seed 004's Head-of-Queue Lifetime at HV 0 delivers
# every packet once (the run drains, the invariants hold, which includes every queue pair's PSNs
# accepted once and in order), reports its retransmissions in summary.json, and the counts add
# up: lost + discarded by the responder + delivered data = first sendings + retransmissions.
# Seed 003's Fig. 3 mesh (every host to uniformly random others: a connection, and a PSN
# sequence, per destination) with the host credits and 1 % loss passes the same checks.
# The same scenario with transport.retransmit = off and losses is refused naming the reason, and
# so is seed 004's multicast scenario under RC (its MLID flows: IBA's multicast is UD only).
# RC-only keys given under UD are warned about by name.
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$src/scenarios/seed000/cc-pipd.cfg
short=(-s simulation.duration="3 ms" -s simulation.warmup="1 ms" -s simulation.sample_interval="1 ms"
       -s transport.timeout=4)
mesh=$src/scenarios/seed003/fig3-mesh4x4.cfg
for loss in "switch.loss=0.01" "switch.hoq_life=0" "mesh switch.loss=0.01"; do
  if [[ $loss == mesh* ]]; then
    loss=${loss#mesh }
    "$bin" run "$mesh" -o "$tmp/r" -q -s simulation.duration="2 ms" -s simulation.warmup="1 ms" \
      -s cc.plugin=hostcredit -s cc.credits=8 -s transport.timeout=8 -s "$loss"
  else
    "$bin" run "$cfg" -o "$tmp/r" -q "${short[@]}" -s "$loss"
  fi
  python3 - "$tmp/r/summary.json" "$loss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); what = sys.argv[2]
inv, tr = d["invariants"], d["transport"]
g = tr["retransmission"]
assert d["run"]["outcome"] == "drained", d["run"]["outcome"]
assert inv["ok"], inv["violations"]
assert inv["packets_in_flight"] == 0
dropped = inv["packets_dropped"]
lost = dropped.get("loss", 0) + dropped.get("hoq_lifetime", 0)
assert lost > 0, "nothing lost"
assert g["packets_retransmitted"] >= lost, g
assert g["qp_errors"] == 0, g
sent = sum(f["packets_sent"] for f in d["flows"])
resent = sum(f["packets_retransmitted"] for f in d["flows"])
assert resent == g["packets_retransmitted"]
acked = sum(f["packets_acked"] for f in d["flows"])
assert acked == sent, (acked, sent)   # every packet sent was acknowledged: accepted once
# Data packets: each first sending or retransmission was lost, discarded by the responder, or
# delivered (accepted) once; control packets (ACKs, NAKs) are all delivered.
ctrl = tr["acks_sent"] + g["naks_sent"]
assert inv["packets_created"] == sent + resent + ctrl, (inv["packets_created"], sent, resent, ctrl)
assert inv["packets_delivered"] == sent + ctrl, (inv["packets_delivered"], sent, ctrl)
assert lost + dropped["discarded_by_responder"] == resent, (lost, dropped, resent)
print(f"ok: {what}: {lost} lost, {resent} resent, {g['naks_sent']} NAKs, {g['timeouts']} timeouts")
PY
done
if "$bin" run "$cfg" -o "$tmp/x" -q "${short[@]}" -s switch.loss=0.01 -s transport.retransmit=off 2> "$tmp/err"; then
  echo "FAIL: retransmit = off with losses was accepted"; exit 1
fi
grep -q "stall its queue pair" "$tmp/err" || { echo "FAIL: refusal does not say why: $(cat "$tmp/err")"; exit 1; }
echo "ok: retransmit = off with losses refused"
if "$bin" run "$src/scenarios/seed004/fig10.cfg" -o "$tmp/m" -q -s simulation.duration="40 ms" \
     -s transport.mode=rc 2> "$tmp/err"; then
  echo "FAIL: a multicast flow under RC with losses was accepted"; exit 1
fi
grep -q "multicast is unreliable datagram only" "$tmp/err" || { echo "FAIL: refusal does not say why: $(cat "$tmp/err")"; exit 1; }
echo "ok: multicast flows with retransmission refused"
# RC-only keys under UD change nothing: the run says so, naming them; under RC it does not.
printf 'topology = { generator = "fattree"; args = "ports=4,levels=2"; };\nsimulation = { duration = "20 us"; };\ntransport = { window = 8; retry_cnt = 3; };\nflows = ( { name = "F"; src = "H1"; dst = "H3"; kind = "saturate"; } );\n' > "$tmp/ud.cfg"
"$bin" run "$tmp/ud.cfg" -o "$tmp/u" -q 2> "$tmp/err"
grep -q "transport.mode = ud: transport.window = 8, transport.retry_cnt = 3 act only under transport.mode = rc" "$tmp/err" ||
  { echo "FAIL: RC keys under UD not warned about: $(cat "$tmp/err")"; exit 1; }
"$bin" run "$tmp/ud.cfg" -o "$tmp/u2" -q -s transport.mode=rc 2> "$tmp/err"
if grep -q "act only under" "$tmp/err"; then echo "FAIL: warned under RC: $(cat "$tmp/err")"; exit 1; fi
echo "ok: RC keys under UD warned about"
