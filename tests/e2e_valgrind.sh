#!/bin/sh
# e2e_valgrind.sh: lattop --once on the simulator is clean under valgrind's
# memcheck (no invalid access, no uninitialised value used, no leak).
cd "$(dirname "$0")/.." && . tests/lib.sh

if ! command -v valgrind >/dev/null 2>&1; then
	skip "no valgrind (apt-get install valgrind)"
elif [ -n "$LATTOP_SANITIZED" ]; then
	skip "a sanitizer build: valgrind and AddressSanitizer do not mix"
else
	for u in haswell silvermont nehalem; do
		valgrind --vgdb=no --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
			--errors-for-leak-kinds=definite,indirect ./lattop --simulate $u --once -d 0.2 \
			--format json >$LIB_TMP/out 2>$LIB_TMP/vg
		rc=$?
		if [ $rc -eq 0 ] && grep -q 'ERROR SUMMARY: 0 errors' $LIB_TMP/vg; then
			ok "$u --once: memcheck clean"
		else
			not_ok "$u --once: memcheck clean (exit $rc)"
			diag "$(grep -E '==[0-9]+== (Invalid|Conditional|Use of|.*definitely|ERROR)' $LIB_TMP/vg | head)"
		fi
	done
	valgrind --vgdb=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		./lattop --detect --cpuid-file tests/dumps/haswell_core-i7-4500u.raw >/dev/null 2>$LIB_TMP/vg
	is "--detect from a dump: memcheck clean" "$?" 0
fi
tap_done
