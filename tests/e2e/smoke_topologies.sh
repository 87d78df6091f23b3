#!/usr/bin/env bash
# smoke_topologies.sh: a short simulation runs, drains and keeps its invariants on every
# generator and on every real topology file in ../shared/topologies (uniform Poisson traffic at
# 30 % load from every host), routed by an engine suited to each (updn where minhop could
# deadlock). Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { # NAME TOPOLOGY-SECTION
  cat > "$tmp/$1.cfg" <<CFG
simulation = { duration = "200 us"; warmup = "50 us"; sample_interval = "0 s"; };
topology = { $2 };
output = { flow_series = false; port_series = false; };
flows = ( { name = "U"; src = "*"; dst = "uniform"; kind = "poisson"; load = 0.3; msg_size = "2 KiB"; } );
CFG
  "$bin" run "$tmp/$1.cfg" -o "$tmp/$1" -q || { echo "FAIL: $1"; exit 1; }
  python3 - "$tmp/$1/summary.json" "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["run"]["outcome"] == "drained" and j["invariants"]["ok"], j["run"]
assert j["total_throughput_gbps"] > 0
print(f'ok: {sys.argv[2]}: {len(j["hosts"])} hosts, {j["total_throughput_gbps"]:.1f} Gb/s delivered')
PY
}
run single_switch 'generator = "single_switch"; args = "ports=8";'
run testbed002 'generator = "testbed002";'
run kary_ntree 'generator = "kary_ntree"; args = "k=4,n=3"; routing = "ftree";'
run fattree 'generator = "fattree"; args = "ports=8,levels=2";'
run clos3 'generator = "clos3"; args = "ports=12,leaves=6,spines=3,hosts=6";'
run mesh 'generator = "mesh"; args = "dims=4x4,hosts=1"; routing = "dor";'
run torus 'generator = "torus"; args = "dims=4x4,hosts=1"; routing = "updn";'
run irregular001 'generator = "irregular"; args = "switches=16,ports=8,hosts=4"; routing = "updn_tree";'
run irregular004 'generator = "irregular"; args = "switches=15,ports=5,hosts=1,links=23,planar=1"; routing = "updn_tree";'
shared="$src/../shared/topologies"
if [ -d "$shared" ]; then
  for f in "$shared"/*.topo; do
    hosts=$("$bin" topo describe "$f" 2>/dev/null | awk '/^hosts:/{print $2}')
    if [ "${hosts:-0}" -lt 2 ]; then
      # One host: nothing to send to; the file must still load and describe.
      echo "ok: $(basename "$f" .topo): $hosts host, loads (no traffic possible)"
      continue
    fi
    run "$(basename "$f" .topo)" "file = \"$f\"; routing = \"updn\";"
  done
else
  echo "SKIP: $shared is absent: the real topology files were not tried"
fi
