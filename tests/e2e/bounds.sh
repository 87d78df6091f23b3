#!/usr/bin/env bash
# bounds.sh: no value the model cannot hold is accepted (issue 11, item 3). Each case once
# passed silently into a wrong run with exit 0; now each is refused with exit 2 and a message
# that names the key and what it must be, from the scenario file and from -s alike.
#   switch.buffer = 128 GiB    wrapped the int32 credit count: a run with 0 packets
#   inject/sink limit < 0.434 b/s  overflowed the 64-bit byte time into "no limit"
#   a Poisson rate of 1e-6 b/s    a negative stop time
#   a 20-digit seed           -1 in a file (libconfig), refused with -s
#   99999999999 in a file        1215752191 (libconfig's 32-bit integers)
#   a 1 ps sample interval        filled the disk: a cap on samples and on the series' size
# The largest values that fit are still accepted and run.
# Args: the ibnetsim binary and the source directory.
set -uo pipefail
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/support/e2e.sh"
scen=$src/scenarios/seed002/testbed-scenario1-ccoff.cfg
short=(-s simulation.duration="1 ms" -q -o "$work/r")

expect 2 "buffer must be between 64 and 137438953408 bytes, got 128 GiB" "$bin" run "$scen" "${short[@]}" -s switch.buffer="128 GiB"
expect 2 "buffer must be between 64 and 137438953408 bytes" "$bin" run "$scen" "${short[@]}" -s hca.buffer=137438953472
expect 0 "" "$bin" run "$scen" "${short[@]}" -s switch.buffer=137438953408
grep -q '"packets_delivered": [1-9]' "$work/r/summary.json" || failed "the largest buffer ran no packets"
expect 2 "sink_limit must be 0 or between 0.434 b/s and 8000 Tb/s" "$bin" run "$scen" "${short[@]}" -s hca.sink_limit="0.43 b/s"
expect 2 "inject_limit must be 0 or between 0.434 b/s" "$bin" run "$scen" "${short[@]}" -s hca.inject_limit="0.1 b/s"
expect 2 "inject_limit must be 0 or between" "$bin" run "$scen" "${short[@]}" -s hca.inject_limit="9000 Tb/s"
# The slowest limit that fits is a limit (the fabric cannot drain), not "no limit".
expect 1 "did not drain" "$bin" run "$scen" "${short[@]}" -s hca.sink_limit="0.44 b/s" -s simulation.drain_limit="1 ms"
expect 2 "rate must be 0 or between 0.434 b/s" "$bin" run "$scen" "${short[@]}" -s flows.*.kind=poisson -s flows.*.rate="0.000001 b/s"
expect 2 "gives one message every .* beyond" "$bin" run "$scen" "${short[@]}" -s flows.*.kind=poisson -s flows.*.rate="0.44 b/s" -s flows.*.msg_size="64 MiB"
expect 2 "seed expects a whole number that fits 64 bits" "$bin" run "$scen" "${short[@]}" -s simulation.seed=12345678901234567890
expect 2 "duration must be between 0 and 2^62 ps" "$bin" run "$scen" "${short[@]}" -s simulation.duration="5000000 s"
expect 2 "time .* is too large" "$bin" run "$scen" "${short[@]}" -s simulation.duration="1e9 s"
expect 2 "msg_size must be between 1 and 4294967295 bytes" "$bin" run "$scen" "${short[@]}" -s flows.*.msg_size="4 GiB"
expect 2 "size_max must be between 0 and 4294967295 bytes" "$bin" run "$scen" "${short[@]}" -s flows.*.size_max="5 GiB"

# Integers in a scenario file: beyond 32 bits they must be quoted or carry L (libconfig).
mk() { printf 'simulation = { seed = %s; duration = "1 ms"; };\ntopology = { generator = "fattree"; args = "ports=4,levels=2"; };\nflows = ( { name = "a"; src = "*"; dst = "uniform"; kind = "poisson"; rate = "1 Gb/s"; } );\n' "$1" > "$work/s.cfg"; }
mk 12345678901234567890
expect 2 "s.cfg:1: the number 12345678901234567890 is too large" "$bin" run "$work/s.cfg" -q -o "$work/r"
mk 99999999999
expect 2 "s.cfg:1: the number 99999999999 is too large" "$bin" run "$work/s.cfg" -q -o "$work/r"
mk '"12345678901234567890"'
expect 2 "seed expects a whole number that fits 64 bits" "$bin" run "$work/s.cfg" -q -o "$work/r"
mk 99999999999L
expect 0 "" "$bin" run "$work/s.cfg" -q -o "$work/r"
grep -q '^  seed = 99999999999;' "$work/r/scenario.cfg" || failed "a 64-bit seed with L was not kept: $(grep seed "$work/r/scenario.cfg")"
mk '"99999999999"'
expect 0 "" "$bin" run "$work/s.cfg" -q -o "$work/r2"
cmp -s "$work/r/summary.json" "$work/r2/summary.json" || failed "seed 99999999999L and \"99999999999\" differ"
mk '-7 /* 99999999999 in a comment */'
expect 0 "" "$bin" run "$work/s.cfg" -q -o "$work/r"

# Samples and output size.
expect 2 "gives 1000000000 samples of the time series, more than 1000000" "$bin" run "$scen" "${short[@]}" -s simulation.sample_interval="1 ps"
expect 2 "the time series would take about .* GB" "$bin" run "$scen" -q -o "$work/big" -s topology.generator=fattree \
  -s topology.args=ports=36,levels=2 -s simulation.duration="1 s" -s simulation.sample_interval="1 us" \
  -s 'flows.*.src=H1' -s 'flows.*.dst=H2'
[ -e "$work/big" ] && failed "a refused run wrote a folder"
exit $fail
