#!/usr/bin/env bash
# bad_input.sh: malformed scenarios, options and topologies give a clear error naming the file,
# the line and what was expected, and exit status 2; never a crash or a silent default.
# Arguments: the ibnetsim binary, the source directory.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
# expect NAME PATTERN -- ARGS...: the command must exit 2 and print PATTERN on stderr.
expect() {
  local name=$1 pattern=$2; shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$pattern" "$tmp/err"; then
    echo "FAIL: $name: exit $rc, stderr:"; cat "$tmp/err"; fails=$((fails+1))
  else
    echo "ok: $name: $(head -1 "$tmp/err")"
  fi
}
good='topology = { generator = "single_switch"; args = "ports=4"; };
flows = ( { name = "F"; src = "H1"; dst = "H2"; kind = "saturate"; } );'
printf '%s\nsimulation = { duration = "1 ms"; durtion = "2 ms"; };\n' "$good" > "$tmp/unknown_key.cfg"
expect "unknown key" 'unknown_key.cfg:3: unknown key "durtion" in simulation (expected one of:' -- run "$tmp/unknown_key.cfg" -o "$tmp/r"
printf '%s\nswitch = {\n  arch = "vqo";\n};\n' "$good" > "$tmp/bad_enum.cfg"
expect "bad value" 'bad_enum.cfg:4: switch.arch expects one of: voq, fifo, pipe, 1q, voqsw, voqnet, dbbm, ccfit, ecocc, hfdi, fbicm; got "vqo"' -- run "$tmp/bad_enum.cfg" -o "$tmp/r"
printf '%s\nsimulation = { duration = "10"; };\n' "$good" > "$tmp/no_unit.cfg"
expect "time without unit" 'no_unit.cfg:3: simulation.duration: "10" has no unit' -- run "$tmp/no_unit.cfg" -o "$tmp/r"
printf '%s\nfabric = { vls = 15; };\nconnections = { process = "fill"; live = true; };\n' "$good" > "$tmp/live_fill.cfg"
expect "live connections need dynamic" 'connections.live = true needs process = "dynamic"' -- run "$tmp/live_fill.cfg" -o "$tmp/r"
printf '%s\nfabric = { vls = 15; };\nqos = { vlarb_low = "14:64"; };\nconnections = { process = "dynamic"; live = true; sls = "5:32:10:64"; };\n' "$good" > "$tmp/live_low.cfg"
expect "live connections: guaranteed VL not in the low table" "low VL arbitration table gives no weight to VL 5 (SL 5)" -- run "$tmp/live_low.cfg" -o "$tmp/r"
printf '%s\nfabric = { mtu = 3000; };\n' "$good" > "$tmp/mtu.cfg"
expect "bad MTU" 'mtu.cfg:3: fabric.mtu must be an IB MTU' -- run "$tmp/mtu.cfg" -o "$tmp/r"
printf '%s\ntransport = { mode = "rc";\n  window = 0; };\n' "$good" > "$tmp/window0.cfg"
expect "window 0" 'window0.cfg:4: transport.window 0 would never let a queue pair send' -- run "$tmp/window0.cfg" -o "$tmp/r"
expect "missing file" 'nosuch.cfg: cannot open the scenario file' -- run "$tmp/nosuch.cfg" -o "$tmp/r"
printf 'topology = { file = "missing.topo"; };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; } );\n' > "$tmp/missing_topo.cfg"
expect "missing topology file" 'missing.topo' -- run "$tmp/missing_topo.cfg" -o "$tmp/r"
printf 'topology = { switches = ["S1"]; links = ( "S1:1 H1:1", "S1:2 H2" ); };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; } );\n' > "$tmp/dangling.cfg"
expect "dangling link" 'dangling.cfg:1: topology.links entry 2 "S1:2 H2": expected "NODE:PORT NODE:PORT' -- run "$tmp/dangling.cfg" -o "$tmp/r"
printf 'topology = { switches = ["S1"]; links = ( "S1:1 H1:1", "S1:1 H2:1" ); };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; } );\n' > "$tmp/twice.cfg"
expect "port cabled twice" 'S1 port 1 is already cabled to H1 port 1' -- run "$tmp/twice.cfg" -o "$tmp/r"
printf 'topology = { switches = ["S1", "S2"]; links = ( "S1:1 H1:1", "S2:1 H2:1" ); };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; } );\n' > "$tmp/split.cfg"
expect "disconnected fabric" 'the fabric is not connected' -- run "$tmp/split.cfg" -o "$tmp/r"
printf 'topology = { generator = "single_switch"; args = "ports=4"; };\nfabric = { vls = 4; };\nqos = { vlarb_low = "0:64,1:64,2:64"; };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; sl = 3; kind = "saturate"; } );\n' > "$tmp/unweighted_vl.cfg"
expect "VL without arbitration weight" 'unweighted_vl.cfg: VL 3 carries traffic (SL 3 maps to it) out of switch S1 port 2' -- run "$tmp/unweighted_vl.cfg" -o "$tmp/r"
printf '%s\nsimulation = { duration = ; };\n' "$good" > "$tmp/syntax.cfg"
expect "syntax error" 'syntax.cfg:3: syntax error' -- run "$tmp/syntax.cfg" -o "$tmp/r"
printf 'flows = ( { name = "F"; src = "H1"; dst = "H2"; } );\ntopology = {\n  generator = "fattree"; args = "ports=36,levels=2"; lmc = 7; };\n' > "$tmp/lidspace.cfg"
expect "LMC beyond the LID space" 'lidspace.cfg:2: topology.lmc: LMC 7 gives each of the 648 adapter ports 128 LIDs' -- run "$tmp/lidspace.cfg" -o "$tmp/r"
printf 'flows = ( { name = "F"; src = "H1"; dst = "H2"; } );\ntopology = { generator = "irregular";\n  args = "switches=15,ports=5,hosts=1,links=23,planar=1"; routing = "pathbits"; };\n' > "$tmp/pathbits9.cfg"
expect "9 path bits" 'pathbits9.cfg:2: topology: routing = pathbits: 9 path bits (independent cycles) do not fit' -- run "$tmp/pathbits9.cfg" -o "$tmp/r"
printf 'flows = ( { name = "F"; src = "H1"; dst = "H2"; } );\ntopology = { generator = "single_switch"; args = "ports=4";\n  lmc = 8; };\n' > "$tmp/lmc8.cfg"
expect "LMC beyond IBA's field" 'lmc8.cfg:2: topology: lmc = 8, but IBA'"'"'s LMC field holds 0 to 7 (lmc_beyond_iba = true allows up to 15' -- run "$tmp/lmc8.cfg" -o "$tmp/r"
printf 'flows = ( { name = "F"; src = "H1"; dst = "H2"; } );\ntopology = { generator = "irregular"; lmc_beyond_iba = true;\n  args = "switches=30,ports=5,hosts=1,links=46,planar=1"; routing = "pathbits"; };\n' > "$tmp/pathbits17.cfg"
expect "17 path bits beyond IBA" 'pathbits17.cfg:2: topology: routing = pathbits: 17 path bits (independent cycles), but ibnetsim holds at most 15 even beyond IBA' -- run "$tmp/pathbits17.cfg" -o "$tmp/r"
printf '%s\ntransport = { mode = "rc"; retransmit = "off"; };\nswitch = { hoq_life = 4; };\n' "$good" > "$tmp/droprc.cfg"
expect "dropping under RC without retransmission" 'transport.retransmit = off, but packets can be lost' -- run "$tmp/droprc.cfg" -o "$tmp/r"
printf '%s\ntransport = { mode = "rc";\n  timeout = 40; };\n' "$good" > "$tmp/timeout40.cfg"
expect "Local ACK Timeout out of range" 'timeout40.cfg:4: transport.timeout must be between 0 and 31, got 40' -- run "$tmp/timeout40.cfg" -o "$tmp/r"
printf 'topology = { generator = "single_switch"; args = "ports=4"; };\nflows = ( { name = "F"; src = "H1"; dst = "H9"; } );\n' > "$tmp/nohost.cfg"
expect "unknown destination" 'nohost.cfg:2: flow F: destination: "H9" is not a node of the topology' -- run "$tmp/nohost.cfg" -o "$tmp/r"
printf '%s\n' "$good" > "$tmp/good.cfg"
expect "bad override" '\-s switch.speedup=fast: speedup expects a number' -- run "$tmp/good.cfg" -o "$tmp/r" -s switch.speedup=fast
expect "unknown override section" 'unknown section "swich"' -- run "$tmp/good.cfg" -o "$tmp/r" -s swich.arch=voq
# Malformed topology files: an error with file:line in every command that reads them.
printf 'Ca\t2 "H-0002c90300000001"\t# "h1"\n' > "$tmp/noports.topo"
printf 'Switch\t4 "S-0000000000000001"\t# "sw" base port 0 lid 1 lmc 0\n[1]\t"H-0000000000000009"[1]\n' > "$tmp/dangling.topo"
printf 'switchguid=0xZZZ\nSwitch\t4 "S-0000000000000001"\t# "sw"\n' > "$tmp/badguid.topo"
printf 'Switch\t4 "S-0000000000000001"\t# "sw" base port 0 lid 1 lmc 0\n' > "$tmp/nohosts.topo"
printf 'Switch\t4 "S-0000000000000001"\t# "sw"\n[1]\t"H-00000000000000x9"[1]\n\nCa\t1 "H-00000000000000x9"\t# "h"\n[1]\t"S-0000000000000001"[1]\n' > "$tmp/badid.topo"
printf 'Switch\t4 "S-0000000000000001"\t# "sw"\n[1]\t"H-0000000000000009"[1]\n\nCa\t1 "H-0000000000000009"\t# "h"\n[1]\t"S-0000000000000001"[1]\n' > "$tmp/onehost.topo"
for cmd in "topo describe" "topo hosts" "route compute" "scenario hotspot"; do
  expect "$cmd: CA without ports" 'noports.topo:1: channel adapter "H-0002c90300000001" has no port lines' -- $cmd "$tmp/noports.topo"
  expect "$cmd: dangling peer" 'dangling.topo:2: peer "H-0000000000000009" of S-0000000000000001 port 1 is not described' -- $cmd "$tmp/dangling.topo"
  expect "$cmd: malformed switchguid" 'badguid.topo:1: expected a non-zero 64-bit GUID' -- $cmd "$tmp/badguid.topo"
  expect "$cmd: malformed node id" 'badid.topo:4: node id "H-00000000000000x9": expected 16 hex digits' -- $cmd "$tmp/badid.topo"
  expect "$cmd: no hosts" 'nohosts.topo: the fabric has no channel adapters' -- $cmd "$tmp/nohosts.topo"
done
printf 'topology = { file = "%s"; };\nflows = ( { name = "F"; src = "H1"; dst = "H2"; } );\n' "$tmp/dangling.topo" > "$tmp/dangling_topo.cfg"
expect "run: dangling peer" 'dangling.topo:2: peer' -- run "$tmp/dangling_topo.cfg" -o "$tmp/r"
expect "generator beyond the LID space" "the fabric's 65536 switches and 65536 adapter ports need LIDs up to 131072, beyond the 49151 unicast LIDs" -- topo describe gen:torus:dims=256x256
expect "hot spot on a one-host fabric" 'has 1 host(s) cabled to a switch: a hot-spot scenario needs at least 2' -- scenario hotspot "$tmp/onehost.topo"
expect "generator argument without =" 'generator argument "256:256" is not of the form key=value' -- topo describe gen:torus:256:256
expect "unknown command" 'unknown command' -- frobnicate
if [ $fails -ne 0 ]; then echo "$fails bad-input checks failed"; exit 1; fi
