#!/usr/bin/env bash
# seq_libs.sh: the sequential command neither links nor loads Open MPI or METIS (issue 19
# item 4; docs/architecture.md "Two executables"): loading them cost every run about 6 ms of
# CPU (bench/setup.md). Checked two ways: the binary's needed libraries (ldd) and every
# library the dynamic linker loads during a tiny run, dlopen included (LD_DEBUG=files; that
# it lists the libraries at all is checked on libjansson, which every run loads). The
# distributed executable ibnetsim-dist, when built, does link libmpi; and without it, `--ranks`
# and a start by mpirun fail with a message naming it.
# Arguments: the ibnetsim binary, the source directory.
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dist_libs='libmpi|libmetis|libopen-(rte|pal)|libhwloc|libevent'
fail() { echo "FAIL: $*"; exit 1; }

if ldd "$bin" | grep -E "$dist_libs"; then fail "$bin links the distributed mode's libraries"; fi

cat > "$tmp/tiny.cfg" <<'CFG'
simulation = { duration = "1 us"; sample_interval = "0 s"; };
topology = { generator = "single_switch"; args = "ports=2"; };
flows = ( { name = "F"; src = "H1"; dst = "H2"; kind = "saturate"; } );
CFG
LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld" "$bin" run "$tmp/tiny.cfg" -o "$tmp/out" -q
[ -s "$tmp/out/summary.json" ] || fail "the tiny run wrote no summary.json"
cat "$tmp"/ld* > "$tmp/loaded"
grep -q "file=libjansson" "$tmp/loaded" || fail "LD_DEBUG=files listed no library (libjansson)"
if grep -E "file=[^ ]*($dist_libs)" "$tmp/loaded"; then
  fail "a sequential run loaded the distributed mode's libraries"
fi
echo "ok: $bin links and loads none of: $dist_libs"

dist="$(dirname "$bin")/ibnetsim-dist"
if [ -x "$dist" ]; then
  ldd "$dist" > "$tmp/ldd-dist"; grep -q libmpi "$tmp/ldd-dist" || fail "$dist does not link libmpi"
  # Without ibnetsim-dist next to it (nor installed), the distributed mode names what is missing.
  for inst in $(strings "$bin" | grep -E '^/[^ ]*/bin$' || true); do
    if [ -e "$inst/ibnetsim-dist" ]; then
      echo "ok (the missing-executable check skipped: $inst/ibnetsim-dist is installed)"
      exit 0
    fi
  done
  mkdir "$tmp/alone" && cp "$bin" "$tmp/alone/ibnetsim"
  if "$tmp/alone/ibnetsim" run "$tmp/tiny.cfg" -o "$tmp/o2" -q --ranks 2 2> "$tmp/err"; then
    fail "--ranks ran without ibnetsim-dist"
  fi
  grep -q "ibnetsim-dist is missing: not found at $tmp/alone/ibnetsim-dist" "$tmp/err" ||
    { cat "$tmp/err"; fail "--ranks without ibnetsim-dist: no message naming it"; }
  set +e
  OMPI_COMM_WORLD_SIZE=2 "$tmp/alone/ibnetsim" run "$tmp/tiny.cfg" -o "$tmp/o3" -q 2> "$tmp/err"
  rc=$?
  set -e
  [ "$rc" = 2 ] || fail "started by mpirun without ibnetsim-dist: status $rc, not 2"
  grep -q "started by mpirun, but the distributed mode's executable ibnetsim-dist is missing" "$tmp/err" ||
    { cat "$tmp/err"; fail "started by mpirun without ibnetsim-dist: no message naming it"; }
  [ ! -e "$tmp/o3" ] || fail "started by mpirun without ibnetsim-dist, it ran sequentially"
  echo "ok: $dist links libmpi; without it the distributed mode names it"
fi
