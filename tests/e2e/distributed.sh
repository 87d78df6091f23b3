#!/usr/bin/env bash
# distributed.sh: one run split over MPI ranks (issue 19; docs/distributed.md) gives results
# byte-identical to the sequential run: every output file of several tiny scenarios (uniform
# and fixed traffic on a fat tree and a mesh, a hot spot, QoS VL arbitration with a deadline
# class, deadlines and jitter of flows to several hosts, FIFO switches, the time series
# (counters.csv too), the capture and the timeline, IB CC at QP and SL level (and with CNP pacing,
# cc.cnp_interval, on 2 and 3 ranks), seed 000's ECN rate control on 2-4 ranks, seed 000's
# threshold lanes, message windows, seed 003's credits (hostcredit) and ALO, and seed 004's
# adaptive choice (LFU, Max-Credit) on 2 and 3 ranks, moving hot spots under IB CC
# with cc.csv; and on 2 and 3 ranks windy trees with split classes, iSLIP,
# the pipelined switch, DBBM and both lifetime limits' drops) is compared byte for byte for 1,
# 2, 3 and 4 ranks, and both partitioners; every distributed run also passes the end-of-run
# invariants at rank 0, each flow's packet balance summed over the ranks. Skipped (exit 77) when ibnetsim was built without MPI. Features not
# distributed yet are refused, naming their key.
# Arguments: the ibnetsim binary, the source directory, and a part (core, cc or designs; all
# when absent): ctest runs the three parts as e2e/distributed/PART, each with its own time
# limit, as on a loaded machine every run of several ranks waits for the scheduler at every
# window.
# ctest-parts: core cc designs
set -euo pipefail
bin=$1 src=$2 sel=${3:-all}
grp=core
on() { [ "$sel" = all ] || [ "$sel" = "$grp" ]; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 # Open MPI's own allocations at exit
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! "$bin" run --help | grep -q -- '--ranks'; then echo "no --ranks option"; exit 1; fi
cat > "$tmp/probe.cfg" <<'CFG'
simulation = { duration = "10 us"; sample_interval = "0 s"; };
topology = { generator = "single_switch"; args = "ports=2"; };
flows = ( { name = "F"; src = "H1"; dst = "H2"; kind = "saturate"; } );
CFG
if ! "$bin" run "$tmp/probe.cfg" -o "$tmp/probe" -q --ranks 1 2> "$tmp/probe.err"; then
  if grep -q "built without MPI" "$tmp/probe.err"; then echo "skipped: ibnetsim was built without MPI"; exit 77; fi
  cat "$tmp/probe.err"; exit 1
fi
mpi() { local n=$1; shift; mpirun --allow-run-as-root --oversubscribe -n "$n" "$bin" run "$@"; }
out="summary.json latency.csv scenario.cfg"
check() { # name cfg [extra args]: sequential, then 1..4 ranks, every file the same
  on || return 0
  local name=$1 cfg=$2; shift 2
  "$bin" run "$cfg" -o "$tmp/$name-seq" -q "$@"
  for n in ${ns:-1 2 3 4}; do
    for part in bfs metis; do
      [ "$part" = metis ] && { [ "$n" -lt 2 ] || [ "$n" -gt 3 ]; } && continue
      mpi "$n" "$cfg" -o "$tmp/$name-$n$part" -q --partition "$part" "$@" 2> "$tmp/err" || {
        if [ "$part" = metis ] && grep -q "without METIS" "$tmp/err"; then continue; fi
        cat "$tmp/err"; echo "FAIL: $name on $n ranks ($part) failed"; exit 1; }
      for f in $(cd "$tmp/$name-seq" && ls); do
        cmp "$tmp/$name-seq/$f" "$tmp/$name-$n$part/$f" || {
          diff <(head -c 3000 "$tmp/$name-seq/$f") <(head -c 3000 "$tmp/$name-$n$part/$f") | head -20
          echo "FAIL: $name: $f differs between the sequential run and $n ranks ($part)"; exit 1; }
      done
    done
  done
  echo "ok: $name identical on ${ns:-1 2 3 4} ranks ($(cd "$tmp/$name-seq" && ls | tr '\n' ' '))"
}
cat > "$tmp/tree.cfg" <<'CFG'
simulation = { duration = "150 us"; warmup = "30 us"; sample_interval = "0 s"; seed = 3; };
topology = { generator = "fattree"; args = "ports=4,levels=3,delay=20ns"; };
output = { flow_series = false; port_series = false; progress = "never"; flow_latency = true; };
flows = (
  { name = "U"; src = "*"; dst = "uniform"; kind = "poisson"; load = 0.7; msg_size = "4 KiB"; },
  { name = "H"; src = "H1"; dst = "H16"; kind = "saturate"; msg_size = "8 KiB"; },
  { name = "G"; src = "H2"; dst = "H16"; kind = "saturate"; msg_size = "2 KiB"; }
);
CFG
check tree "$tmp/tree.cfg"
check tree-fifo "$tmp/tree.cfg" -s switch.arch=fifo -s simulation.seed=4
cat > "$tmp/mesh.cfg" <<'CFG'
simulation = { duration = "100 us"; warmup = "10 us"; sample_interval = "0 s"; };
topology = { generator = "mesh"; args = "dims=4x4,hosts=1,delay=5ns"; routing = "dor"; };
fabric = { vls = 2; };
output = { flow_series = false; port_series = false; progress = "never"; };
flows = (
  { name = "U"; src = "*"; dst = "uniform"; kind = "poisson"; load = 0.4; msg_size = "1 KiB"; },
  { name = "X"; src = "H1"; dst = "H16"; kind = "saturate"; msg_size = "4 KiB"; }
);
CFG
check mesh "$tmp/mesh.cfg"
# Seed 003's 5x5 mesh with its real-time and best-effort flows: a sender waiting for credits
# whose first act in a window is a transmission over the cut. Until 2026-11-29 the window
# recorded its watch after the transmission had cleared it, and two credit wake-ups the
# sequential run schedules were missing (the event count differed).
ns="2 4" check s003mesh "$src/scenarios/seed003/fig5-mesh5x5.cfg" -s simulation.duration=2ms \
  -s transport.mode=ud -s flows.CTL.start=1s
cat > "$tmp/qos.cfg" <<'CFG'
simulation = { duration = "120 us"; warmup = "20 us"; sample_interval = "0 s"; };
topology = { generator = "fattree"; args = "ports=4,levels=2"; };
fabric = { vls = 4; };
qos = {
  classes = "DBTS:0,DB:1,PBE:2,BE:3";
  sl2vl = "0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0";
  vlarb_high = "0:255";
  high_limit = 255;
  vlarb_low = "1:64,2:64,3:32";
};
output = { flow_series = false; port_series = false; progress = "never"; };
flows = (
  { name = "conf"; src = "H1"; dst = "H8"; class = "DBTS"; kind = "constant"; rate = "2 Gb/s";
    msg_size = "1 KiB"; deadline = "20 us"; },
  { name = "web";  src = "H2"; dst = "H8"; class = "PBE"; kind = "saturate"; },
  { name = "bulk"; src = "H3"; dst = "H8"; class = "BE"; kind = "saturate"; },
  { name = "bg"; src = "*"; dst = "uniform"; class = "BE"; kind = "poisson"; load = 0.3; msg_size = "2 KiB"; }
);
CFG
check qos "$tmp/qos.cfg"
# The time series (flows, hosts, classes, ports, treatment variation of contributors).
check tree-series "$tmp/tree.cfg" -s simulation.sample_interval="10 us" -s output.flow_series=true \
  -s output.port_series=true -s output.contributors=H,G -s output.counter_series=true
# counters.csv with rows per VL (the QoS scenario's VLs) at samples that do not meet the period's
# edges, whose snapshots are rows of their own.
# Deadlines and jitter (CBR with a deadline and video with seed 003's frame rule to uniform
# hosts, video to one host on another rank; all miss a few), judged at rank 0 in the
# sequential order with the frame rule the source's flow start set (without the log, 2 and 3
# ranks differ; without the source's rule, the video to one host's DMT differs: checked).
cat > "$tmp/dl.cfg" <<'CFG'
simulation = { duration = "150 us"; warmup = "20 us"; sample_interval = "0 s"; seed = 5; };
topology = { generator = "fattree"; args = "ports=4,levels=3,delay=20ns"; };
output = { flow_series = false; port_series = false; progress = "never"; flow_latency = true; };
flows = (
  { name = "cbr"; src = "H1,H6,H11"; dst = "uniform"; kind = "constant"; rate = "3 Gb/s"; msg_size = "2 KiB"; deadline = "3 us"; },
  { name = "vid"; src = "H3"; dst = "uniform"; kind = "video"; fps = 400000; i_size = "6000 B"; p_size = "3000 B"; b_size = "1500 B"; },
  { name = "vone"; src = "H1"; dst = "H16"; kind = "video"; fps = 400000; i_size = "6000 B"; p_size = "3000 B"; b_size = "1500 B"; },
  { name = "bg"; src = "*"; dst = "uniform"; kind = "poisson"; load = 0.5; msg_size = "4 KiB"; }
);
CFG
check deadlines "$tmp/dl.cfg"
# The packet capture and the timeline (dist/watchlog.c): links between ranks and within one,
# in order at the end (without rank 0's sort the 2-rank files differ).
check tree-watch "$tmp/tree.cfg" -s output.capture_ports=S1_0,H1,S2_1 -s output.timeline_ports=S0_0,S1_3
check qos-counters "$tmp/qos.cfg" -s simulation.sample_interval="7 us" -s output.counter_series=true \
  -s output.queue_series=true
# IB CC: a hot spot (five saturating sources to H16) beside uniform traffic with a queue pair
# per destination; FECN marks, CNPs, BECNs and CCTIs all cross ranks.
cat > "$tmp/cc.cfg" <<'CFG'
simulation = { duration = "200 us"; warmup = "50 us"; sample_interval = "0 s"; seed = 7; };
topology = { generator = "fattree"; args = "ports=4,levels=3,link=4xDDR,delay=10ns"; };
cc = { plugin = "ibcc"; marking_rate = 0; packet_size = 0; cct_scale_us = 1.0; };
output = { flow_series = false; port_series = false; progress = "never"; };
flows = (
  { name = "P"; src = "H1,H5,H9"; dst = "uniform"; kind = "poisson"; load = 0.6; msg_size = "4 KiB"; },
  { name = "C"; src = "H2,H3,H6,H10,H13"; dst = "H16"; kind = "saturate"; msg_size = "4 KiB"; }
);
CFG
grp=cc
check cc "$tmp/cc.cfg"
! on || grep -Eq '"becn_received_total": [1-9]' "$tmp/cc-seq/summary.json" || { echo "FAIL: IB CC never acted"; exit 1; }
check cc-sl "$tmp/cc.cfg" -s cc.level=sl -s simulation.seed=8
# CNP pacing (at most one CNP per 2 us per queue pair; its per-destination state is the
# destination's rank's): FECNs go unanswered, so the run differs from the unpaced one.
ns="2 3" check cc-paced "$tmp/cc.cfg" -s cc.cnp_interval="2 us"
# The timeline's congestion notes (FECN, CNP, BECN, CCTI) and the capture at the hot spot.
ns="2 3" check cc-watch "$tmp/cc.cfg" -s output.capture_ports=H16 -s output.timeline_ports=H2,H16,S0_7
! on || grep -Eq '"cnp_paced_total": [1-9]' "$tmp/cc-paced-seq/summary.json" || { echo "FAIL: cnp_interval paced no FECN"; exit 1; }
# Seed 002 Paper IV's congestion trees under IB CC with the time series (cc.csv: CCTIs per
# sample): moving hot spots (relocating every 40 us), windy trees with a queue pair per class.
cat > "$tmp/pat.cfg" <<'CFG'
simulation = { duration = "150 us"; warmup = "30 us"; sample_interval = "25 us"; };
topology = { generator = "fattree"; args = "ports=4,levels=3,link=4xDDR,delay=10ns"; };
hca = { inject_limit = "13.5 Gb/s"; sink_limit = "13.6 Gb/s"; limit_counts = "payload"; };
output = { port_series = false; progress = "never"; };
cc = { plugin = "ibcc"; threshold = 15; marking_rate = 0; packet_size = 0; ccti_timer = "20"; cct_scale_us = 4.0; };
flows = (
  { name = "Q"; src = "*"; kind = "saturate"; msg_size = "2048 B";
    pattern = { kind = "moving"; hotspots = 2; c_fraction = 0.25; b_fraction = 0.5; p = 0.6; lifetime = "40 us"; }; }
);
CFG
check moving "$tmp/pat.cfg" -s output.counter_series=true 2> /dev/null
! on || grep -Eq ',[1-9]' "$tmp/moving-seq/cc.csv" || { echo "FAIL: no CCTI rose in cc.csv"; exit 1; }
ns="2 3" check windy-split "$tmp/pat.cfg" -s flows.Q.pattern.kind=windy -s flows.Q.pattern.split=true 2> /dev/null
# Other switch designs and schedulers, and the lifetime limits' drops (on 2 and 3 ranks).
grp=designs
ns="2 3" check tree-islip "$tmp/tree.cfg" -s switch.scheduler=islip
ns="2 3" check tree-pipe "$tmp/tree.cfg" -s switch.arch=pipe
ns="2 3" check tree-dbbm "$tmp/tree.cfg" -s switch.arch=dbbm
ns="2 3" check tree-sll "$tmp/tree.cfg" -s switch.switch_life=1
! on || grep -Eq '"switch_lifetime": [1-9]' "$tmp/tree-sll-seq/summary.json" || { echo "FAIL: no SLL drops"; exit 1; }
ns="2 3" check hot-hoq "$tmp/cc.cfg" -s cc.plugin=none -s switch.hoq_life=0
! on || grep -Eq '"hoq_lifetime": [1-9]' "$tmp/hot-hoq-seq/summary.json" || { echo "FAIL: no HOQ drops"; exit 1; }
# The reliable connection (ACKs through the fabric, windows per flow and per destination,
# BECN in the ACKs with IB CC).
ns="2 3" check tree-rc "$tmp/tree.cfg" -s transport.mode=rc -s transport.window=4
ns="2 3" check cc-rc "$tmp/cc.cfg" -s transport.mode=rc -s transport.window=3 -s transport.window_per=destination
# Seed 004's adaptive choice at the switches (switch.adaptive = lfu, max_credit) over path-bit
# routes with head-of-queue lifetime drops: the LIDs the switches chose are counted where the
# packets arrive, on several ranks, and added at rank 0.
for pol in lfu max_credit; do
  ns="2 3" check "adaptive-$pol" "$src/scenarios/seed004/net15-be.cfg" -s simulation.duration=2ms \
    -s simulation.warmup=0.5ms -s topology.routing=pathbits -s topology.path_bits=7 \
    -s "switch.adaptive=$pol" -s switch.hoq_life=4 -s flows.BE.path=adaptive
  ! on || awk '/"packets_per_path": \[/ { a = 1; k = 0; next } a && /\]/ { a = 0 }
    a { k++; gsub(/[ ,]/, ""); if (k > 1 && $0 + 0 > 0) n++ } END { exit !(n > 0) }' \
    "$tmp/adaptive-$pol-seq/summary.json" || { echo "FAIL: $pol chose no LID but the base"; exit 1; }
done
# Seed 000's ECN rate control (cc.plugin = ecnrate): marks by the output_packets trigger at the
# switches, carried back in RC ACKs, PIPD and FIMD rates at the sources, cc.csv's rates per sample.
cat > "$tmp/ecn.cfg" <<'CFG'
simulation = { duration = "2 ms"; warmup = "0.5 ms"; sample_interval = "100 us"; seed = 7; };
topology = { generator = "fattree"; args = "ports=4,levels=3,link=4xDDR,delay=10ns"; };
transport = { mode = "rc"; window = 16; };
cc = { plugin = "ecnrate"; trigger = "output_packets"; trigger_packets = 3; law = "pipd,1:fimd"; };
output = { flow_series = false; port_series = false; progress = "never"; };
flows = (
  { name = "P"; src = "H1,H5,H9"; dst = "uniform"; kind = "poisson"; load = 0.6; msg_size = "4 KiB"; },
  { name = "C"; src = "H2,H3,H6,H10,H13"; dst = "H16"; kind = "saturate"; msg_size = "4 KiB"; sl = 1; }
);
CFG
ns="2 3 4" check ecnrate "$tmp/ecn.cfg"
! on || grep -Eq '"marked_total": [1-9]' "$tmp/ecnrate-seq/summary.json" || { echo "FAIL: ecnrate marked nothing"; exit 1; }
# Seed 000's threshold lanes (flows.lanes: ET and AJT in the simulator): a flow's packets leave
# its adapter at the share of the link its source queue's length gives; all at the source.
cat > "$tmp/lanes.cfg" <<'CFG'
simulation = { duration = "300 us"; warmup = "50 us"; sample_interval = "0 s"; seed = 5; };
topology = { generator = "fattree"; args = "ports=4,levels=3,delay=20ns"; };
output = { flow_series = false; port_series = false; progress = "never"; };
flows = (
  { name = "U"; src = "*"; dst = "uniform"; kind = "poisson"; load = 0.4; msg_size = "4 KiB"; lanes = "0.5,4:1"; },
  { name = "B"; src = "H1,H6"; dst = "H11"; kind = "poisson"; load = 0.45; msg_size = "2 KiB"; lanes = "0.25,2:0.5,6:1"; }
);
CFG
ns="2 3" check lanes "$tmp/lanes.cfg"
# Message windows (transport.window_unit = messages) and seed 003's credits (cc.plugin =
# hostcredit: real-time postings dropped and retried, messages given up): the posted latency
# needs each message's posting time at its destination; the ranks log postings and deliveries
# and rank 0 joins them, where the sequential run keeps a table of the undelivered messages.
# The best-effort flows go to uniform destinations: their ACKs come back out of order.
ns="2 3" check s003-msgwin "$src/scenarios/seed003/fig5-mesh5x5.cfg" -s simulation.duration=2ms \
  -s simulation.warmup=0.5ms -s transport.window_unit=messages -s transport.window=4
ns="2 3" check s003-hostcredit "$src/scenarios/seed003/fig5-mesh5x5.cfg" -s simulation.duration=2ms \
  -s simulation.warmup=0.5ms -s cc.plugin=hostcredit -s cc.hca_messages=30 -s cc.rt_sls=1 \
  -s cc.rt_retries=2
! on || grep -Eq '"messages_lost": [1-9]' "$tmp/s003-hostcredit-seq/summary.json" || { echo "FAIL: no real-time message given up"; exit 1; }
# Seed 003's ALO injection limitation (cc.plugin = alo): a source looks at its own switch's
# requests and credits (exact over cut cables); its attempts and refusals are added over ranks.
ns="2 3" check alo "$src/scenarios/seed003/fig3-mesh4x4.cfg" -s simulation.duration=2ms \
  -s simulation.warmup=0.5ms -s cc.plugin=alo
! on || grep -Eq '"injection_refused": [1-9]' "$tmp/alo-seq/summary.json" || { echo "FAIL: ALO refused nothing"; exit 1; }
# Its input_full trigger reads the input buffer's use, which counts packets still on a cable
# that another rank drives: refused, naming the key.
if on && mpi 2 "$tmp/ecn.cfg" -o "$tmp/refused-ecn" -q -s cc.trigger=input_full 2> "$tmp/err"; then
  echo "FAIL: ecnrate with the input_full trigger was not refused"; exit 1; fi
! on || grep -q "cc.trigger = output_packets" "$tmp/err" || { cat "$tmp/err"; echo "FAIL: the refusal does not name the key"; exit 1; }
on || { echo "ok: part $sel"; exit 0; }
# The sequential runs the checks below compare with (made by other parts when all run).
[ -d "$tmp/tree-seq" ] || "$bin" run "$tmp/tree.cfg" -o "$tmp/tree-seq" -q
[ -d "$tmp/cc-seq" ] || "$bin" run "$tmp/cc.cfg" -o "$tmp/cc-seq" -q 2> /dev/null
# What is not distributed yet is refused with its key, never run wrongly.
if mpi 2 "$tmp/tree.cfg" -o "$tmp/refused" -q -s switch.loss=0.001 2> "$tmp/err"; then
  echo "FAIL: switch.loss was not refused"; exit 1; fi
grep -q "switch.loss" "$tmp/err" || { cat "$tmp/err"; echo "FAIL: the refusal does not name the key"; exit 1; }
# --ranks starts mpirun itself.
"$bin" run "$tmp/tree.cfg" -o "$tmp/viaranks" --ranks 2 > "$tmp/out"
cmp "$tmp/tree-seq/summary.json" "$tmp/viaranks/summary.json" || { echo "FAIL: --ranks 2 differs"; exit 1; }
# ... and it was split: cables cut, messages exchanged.
# Its windows: 20 ns cables + the switches' 100 ns latency for packets; 2048-byte packets read
# in 518.5 ns at 4x QDR let credit returns wait 20 + 518.5 ns.
grep -Eq '^distributed run: 2 ranks, [1-9][0-9]* cut cables, window 120.000 ns \(packets 120.000 ns, credit returns 538.500 ns\), [1-9][0-9]* windows, [1-9][0-9]* messages' "$tmp/out" ||
  { cat "$tmp/out"; echo "FAIL: the 2-rank run did not report a cut, its windows and messages"; exit 1; }
# A CNP (26 bytes, 13 ns at 4x DDR) narrows the windows to 10 + 13 ns once one crosses; HOQ
# lifetimes (a packet dropped, its space freed at once) to the 10 ns cables' delay.
"$bin" run "$tmp/cc.cfg" -o "$tmp/viaranks-cc" --ranks 2 > "$tmp/out" 2> /dev/null
cmp "$tmp/cc-seq/summary.json" "$tmp/viaranks-cc/summary.json" || { echo "FAIL: --ranks 2 differs (cc)"; exit 1; }
grep -q 'window 23.000 ns (packets 110.000 ns, credit returns 23.000 ns)' "$tmp/out" ||
  { cat "$tmp/out"; echo "FAIL: a CNP did not narrow the windows to 23 ns"; exit 1; }
"$bin" run "$tmp/cc.cfg" -o "$tmp/viaranks-hoq" --ranks 2 -s cc.plugin=none -s switch.hoq_life=0 > "$tmp/out"
cmp "$tmp/hot-hoq-seq/summary.json" "$tmp/viaranks-hoq/summary.json" || { echo "FAIL: --ranks 2 differs (hoq)"; exit 1; }
grep -q 'window 10.000 ns (packets 110.000 ns, credit returns 10.000 ns)' "$tmp/out" ||
  { cat "$tmp/out"; echo "FAIL: lifetime drops did not narrow the windows to the cables' delay"; exit 1; }
echo "ok: refusals name their keys; --ranks 2 identical"
