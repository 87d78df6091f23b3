#!/usr/bin/env bash
# bench/capture.sh: the cost of a packet capture (issue 18: capturing every packet on a port
# costs under 20 % of the run time). Runs bench/fattree648.cfg (648 hosts, 60 % uniform load,
# 5 ms) without a capture and with output.capture_ports = H1 (every packet on H1's link, both
# directions, zero payload bytes written), three times each, and prints the smallest user+sys
# CPU time of each and the overhead. Usage: bench/capture.sh [BUILD_DIR].
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-release}/ibnetsim
[ -x "$b" ] || { echo "bench/capture.sh: build $b first (bench/run.sh does)"; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
best() {
  local m=""
  for i in 1 2 3; do
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$b" run bench/fattree648.cfg -o "$tmp/r" -q -s "output.capture_ports=$1" >/dev/null
    local t; t=$(awk '{ print $1 + $2 }' "$tmp/t")
    m=$(python3 -c "print(min(x for x in ($t, ${m:-1e9})))")
  done
  echo "$m"
}
base=$(best "")
cap=$(best H1)
pkts=$(python3 -c "import json; print(json.load(open('$tmp/r/summary.json'))['capture_packets'])")
echo "capture: fattree648 without $base CPU s, capturing H1's link ($pkts packets, $(du -h "$tmp/r/capture.pcap" | cut -f1)) $cap CPU s: overhead $(python3 -c "print(f'{($cap / $base - 1) * 100:.1f} %')")"
