#!/usr/bin/env bash
# memcost_cli.sh: `ibnetsim model memcost`, the memory per input port of seed 002 Papers V/VI's
# switch architectures, against Paper VI's supplement section 8 (digest 002b section 4.8):
# EcoCC CAM cells per line 64 / 144 / 336 for 64 / 256 / 1024 nodes (D = 8 / 16 / 32), 3339
# cells = 418 bytes per port at 1024 nodes, VOQnet 8 / 32 / 128 MB per input; and bad input.
set -uo pipefail
bin=$1
src=$2
. "$src/tests/support/e2e.sh"

row() { "$bin" model memcost "$@" | awk -v a="$arch" '$1 == a { print $2, $3, $4, $5, $6, $7, $8 }'; }
arch=ecocc
[ "$(row nodes=64 dlist=8)" = "9 9 64 35 891 112 131072" ] || failed "EcoCC, 64 nodes: $(row nodes=64 dlist=8)"
[ "$(row nodes=256 dlist=16)" = "9 9 144 35 1611 202 131072" ] || failed "EcoCC, 256 nodes: $(row nodes=256 dlist=16)"
[ "$(row nodes=1024 dlist=32)" = "9 9 336 35 3339 418 131072" ] || failed "EcoCC, 1024 nodes: $(row nodes=1024 dlist=32)"
arch=voqnet
for n in 64:8388608 256:33554432 1024:134217728; do
  [ "$(row nodes=${n%%:*} | awk '{ print $7 }')" = "${n##*:}" ] || failed "VOQnet, ${n%%:*} nodes: not ${n##*:} B"
done
# Paper V: 64 nodes, a 4 KB queue per destination: 256 KB per port.
[ "$(row nodes=64 voqnet_queue=4KiB | awk '{ print $7 }')" = 262144 ] || failed "VOQnet, Paper V: not 256 KB"
arch=1q
[ "$(row | awk '{ print $1 }')" = 1 ] || failed "1Q has not one queue"
# Every architecture in one table; JSON.
[ "$("$bin" model memcost | wc -l)" = 9 ] || failed "not a header and 8 architectures"
expect 0 '"cells": 3339' "$bin" model memcost arch=hfdi --json
expect 0 "usage: ibnetsim model memcost" "$bin" model memcost --help
expect 2 'arch expects one of: all, 1q' "$bin" model memcost arch=crossbar
expect 2 'no key "node"' "$bin" model memcost node=3
expect 2 'destinations per CAM line must be 1 to 64' "$bin" model memcost nodes=64 dlist=65 arch=ecocc
expect 2 "memcost" "$bin" model nosuch
exit $fail
