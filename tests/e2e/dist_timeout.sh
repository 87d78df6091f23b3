#!/usr/bin/env bash
# dist_timeout.sh: a rank of a distributed run that stops answering makes the others fail
# instead of waiting for ever (issue 19; docs/distributed.md, "A rank that waits"): with rank 1
# stopped at window 3 (the test hook IBNETSIM_DIST_STALL=1:3) and --rank-timeout 2, rank 0
# aborts the run within seconds with exit status 4 and a message naming itself and window 3,
# leaving neither the results folder nor its temporary DIR.tmp-XXXXXX.
# Without the stop the same run succeeds; bad values of the option and the hook are refused.
# Skipped (exit 77) when ibnetsim was built without MPI.
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 # Open MPI's own allocations at exit
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cat > "$tmp/t.cfg" <<'CFG'
simulation = { duration = "5 us"; sample_interval = "0 s"; };
topology = { generator = "fattree"; args = "ports=4,levels=2"; };
flows = ( { name = "U"; src = "*"; dst = "uniform"; kind = "poisson"; load = 0.5; msg_size = "1 KiB"; } );
CFG
if ! "$bin" run "$tmp/t.cfg" -o "$tmp/probe" -q --ranks 1 2> "$tmp/probe.err"; then
  if grep -q "built without MPI" "$tmp/probe.err"; then echo "skipped: ibnetsim was built without MPI"; exit 77; fi
  cat "$tmp/probe.err"; exit 1
fi
mpi() { timeout 120 mpirun --allow-run-as-root --oversubscribe -n 2 "$bin" run "$@"; }
# The run goes through with the option when no rank stops (a long limit: the machine may be loaded).
mpi "$tmp/t.cfg" -o "$tmp/ok" -q --rank-timeout 60 || { echo "FAIL: the run without a stop failed"; exit 1; }
# Rank 1 stops at window 3: rank 0 gives up after 2 s.
start=$(date +%s)
set +e
IBNETSIM_DIST_STALL=1:3 mpi "$tmp/t.cfg" -o "$tmp/stall" -q --rank-timeout 2 > "$tmp/out" 2> "$tmp/err"
rc=$?
set -e
took=$(( $(date +%s) - start ))
cat "$tmp/err"
[ "$rc" = 4 ] || { echo "FAIL: exit status $rc, expected 4"; exit 1; }
[ "$took" -lt 100 ] || { echo "FAIL: took $took s"; exit 1; }
grep -q "rank 0 of 2 waited 2 s for the other ranks in .* of window 3 " "$tmp/err" ||
  { echo "FAIL: the message does not name rank 0 and window 3"; exit 1; }
[ ! -e "$tmp/stall" ] || { echo "FAIL: a results folder was left"; exit 1; }
# ... nor its temporary folder: rank 0 removes it before it aborts.
if ls -d "$tmp"/stall.tmp-* 2> /dev/null; then echo "FAIL: the temporary results folder was left"; exit 1; fi
# Bad values.
for v in -1 x 1e10 ""; do
  if "$bin" run "$tmp/t.cfg" -o "$tmp/bad" -q --rank-timeout "$v" 2> "$tmp/err"; then
    echo "FAIL: --rank-timeout '$v' accepted"; exit 1; fi
  grep -q -- "--rank-timeout expects seconds" "$tmp/err" || { cat "$tmp/err"; echo "FAIL: no message for '$v'"; exit 1; }
done
set +e
IBNETSIM_DIST_STALL=one mpi "$tmp/t.cfg" -o "$tmp/bad2" -q > /dev/null 2> "$tmp/err"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q 'IBNETSIM_DIST_STALL="one": expected RANK:WINDOW' "$tmp/err" ||
  { cat "$tmp/err"; echo "FAIL: a bad IBNETSIM_DIST_STALL was not refused (status $rc)"; exit 1; }
echo "ok: a stopped rank ends the run after --rank-timeout with status 4, naming rank and window"
