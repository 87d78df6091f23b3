# e2e.sh: helpers sourced by the end-to-end shell tests (tests/e2e/*.sh).
#   failed MESSAGE          record a failure in $fail (the test exits non-zero at its end if set)
#   expect STATUS PATTERN CMD...   run CMD; its exit status must be STATUS and its standard
#                           output and error must contain PATTERN (grep; "" for none)
fail=0
failed() { echo "FAIL: $*"; fail=1; }
expect() {
  local want=$1 pat=$2
  shift 2
  local out
  out=$("$@" 2>&1)
  local rc=$?
  [ "$rc" = "$want" ] || failed "'$*' exited $rc, expected $want: $(tail -2 <<<"$out")"
  [ -z "$pat" ] || grep -q -- "$pat" <<<"$out" || failed "'$*' output lacks '$pat': $(head -3 <<<"$out")"
}
