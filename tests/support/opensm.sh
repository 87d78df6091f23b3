# opensm.sh: what the tests against OpenSM share (sourced by tests/e2e/opensm_*.sh): the check
# that OpenSM, ibsim and umad2sim are installed (else "SKIP: reason" and exit 0), a work folder
# removed at exit with any OpenSM and ibsim still running stopped, and ibsim started and
# stopped around OpenSM.
#   osm_require CMD...        skip unless every CMD and libumad2sim.so are there; sets $umad
#   osm_setup TAG             $work, the exit trap, IBSIM_SOCKNAME (TAG and the PID), $fail
#   osm_ibsim_start TOPO LOG  ibsim on TOPO in the background (its log in LOG), waited for
#   osm_ibsim_stop            stop it
#   osm_stop                  stop the OpenSM started in the background ($osm_pid)
# Sourced after `set -euo pipefail`; defines failed() as tests/support/e2e.sh does.

osm_require() {
  local c
  for c in "$@"; do
    if ! command -v "$c" >/dev/null 2>&1; then
      echo "SKIP: $c is not installed (Debian packages opensm and ibsim-utils; scripts/deps.sh installs them)"
      exit 0
    fi
  done
  umad=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
  [ -f "$umad" ] || umad=$(find /usr/lib* -name libumad2sim.so 2>/dev/null | head -1)
  if [ -z "$umad" ] || [ ! -f "$umad" ]; then
    echo "SKIP: libumad2sim.so (package libumad2sim0, pulled in by ibsim-utils) not found"
    exit 0
  fi
}

fail=0
failed() { echo "FAIL: $*"; fail=1; }

osm_stop() {
  if [ -n "${osm_pid:-}" ]; then kill "$osm_pid" 2>/dev/null || true; wait "$osm_pid" 2>/dev/null || true; fi
  osm_pid=
}

osm_ibsim_stop() {
  if [ -n "${ibsim_pid:-}" ]; then kill "$ibsim_pid" 2>/dev/null || true; wait "$ibsim_pid" 2>/dev/null || true; fi
  ibsim_pid=
}

osm_cleanup() {
  osm_stop
  osm_ibsim_stop
  rm -rf "$work"
}

osm_setup() {
  work=$(mktemp -d)
  ibsim_pid= osm_pid=
  trap osm_cleanup EXIT
  export IBSIM_SOCKNAME="ibnetsim-$1-$$"
}

osm_ibsim_start() {
  local topo=$1 log=$2
  ibsim -s -n "$topo" > "$log" 2>&1 &
  ibsim_pid=$!
  for _ in $(seq 100); do grep -q "Network simulator ready" "$log" 2>/dev/null && break; sleep 0.1; done
  grep -q "Network simulator ready" "$log" || failed "ibsim did not start on $topo: $(tail -3 "$log")"
}
