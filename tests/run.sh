#!/bin/sh
# run.sh: run every test and print one closing line, "N passed, N failed".
# C unit tests (tests/test_*) speak TAP through cmocka; the end-to-end
# scripts (tests/e2e_*.sh) print TAP lines of their own.  A skipped test
# ("# SKIP") counts as neither.  Arguments name the tests to run (make
# unit: tests/test_*); none, every test.
cd "$(dirname "$0")/.." || exit 2
export CMOCKA_MESSAGE_OUTPUT=TAP
pass=0 fail=0 skip=0
log=$(mktemp)
[ $# -gt 0 ] || set -- tests/test_* tests/e2e_*.sh
for t in "$@"; do
	case "$t" in *.c|*.o|*.d) continue ;; esac
	[ -x "$t" ] || [ "${t%.sh}" != "$t" ] || continue
	echo "# $t"
	t0=$(date +%s)
	case "$t" in *.sh) sh "$t" ;; *) "$t" ;; esac >"$log" 2>&1
	rc=$?
	p=$(grep '^ok ' "$log" | grep -vc '# SKIP')
	s=$(grep -c '^\(not \)\{0,1\}ok .*# SKIP' "$log")
	f=$(grep '^not ok ' "$log" | grep -vc '# SKIP')
	[ "$(grep -c '^\(not \)\{0,1\}ok ' "$log")" -eq 0 ] && [ $rc -ne 0 ] && f=$((f + 1))
	[ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
	grep -E '^(not ok|#)' "$log" | grep -v '^# \(SKIP\|ok\)' | head -40
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	echo "#   $p passed, $f failed, $s skipped, $(($(date +%s) - t0)) s"
done
rm -f "$log"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
