#!/bin/sh
# e2e_fuzz.sh: the parsers' libFuzzer harnesses (tests/fuzz/fuzz_cpuid for
# CPUID dumps, tests/fuzz/fuzz_profile for simulator profiles,
# tests/fuzz/fuzz_listen for --listen, tests/fuzz/fuzz_record for
# recordings, tests/fuzz/fuzz_ring for perf ring buffers) pass every saved crash input of tests/fuzz/regress/ (named
# HARNESS-WHAT_IT_TRIGGERED: cpuid-*, profile-*, listen-*, record-* or ring-*),
# then fuzz for a short while each from tests/fuzz/corpus/HARNESS/ and the
# regressions.  Any crash,
# sanitizer report, leak or timeout fails; the input that did it is saved
# in tests/fuzz/crashes/ (not committed) to be kept as a regression.
#
# Builds nothing: `make tests` (and so `make check`) builds the harnesses
# with clang.  Skips, saying why, when clang or its libFuzzer runtime is
# missing.  `make fuzz` is the long run.  FUZZ_CHECK_SECONDS overrides the 15 s;
# 0 runs the seed corpus once instead of fuzzing.
cd "$(dirname "$0")/.." && . tests/lib.sh

SECS=${FUZZ_CHECK_SECONDS:-15}
WHY=""
if ! command -v clang >/dev/null 2>&1; then
	WHY="no clang (apt-get install clang)"
else
	rt=$(clang -print-runtime-dir 2>/dev/null)
	ls "$rt"/libclang_rt.fuzzer*.a >/dev/null 2>&1 ||
		WHY="no libFuzzer runtime in '$rt' (apt-get install libclang-rt-14-dev)"
fi
if [ -n "$WHY" ]; then
	skip "fuzzing: $WHY"
	tap_done
	exit
fi

mkdir -p tests/fuzz/crashes
for h in cpuid profile listen record ring; do
	bin=tests/fuzz/fuzz_$h
	if [ ! -x "$bin" ]; then
		not_ok "fuzz_$h: built"
		diag "$bin is missing: run make tests"
		continue
	fi
	for f in tests/fuzz/regress/"$h"-*; do
		[ -f "$f" ] || continue
		if "$bin" -timeout=5 -rss_limit_mb=2048 "$f" >"$LIB_TMP/run.log" 2>&1; then
			ok "fuzz_$h: ${f#tests/fuzz/}"
		else
			not_ok "fuzz_$h: ${f#tests/fuzz/}"
			diag "$(grep -a -E 'ERROR|SUMMARY|runtime error|^fuzz_(cpuid|profile|listen|record|ring):' "$LIB_TMP/run.log" | head -5)"
		fi
	done

	# FUZZ_CHECK_SECONDS=0: the seeds are run once, nothing new is tried.
	if [ "$SECS" -eq 0 ]; then
		if "$bin" -runs=0 -timeout=5 -rss_limit_mb=2048 tests/fuzz/corpus/$h \
			>"$LIB_TMP/fuzz.log" 2>&1; then
			ok "fuzz_$h: the seed corpus runs clean"
		else
			not_ok "fuzz_$h: the seed corpus runs clean"
			diag "$(grep -a -E 'ERROR|SUMMARY|runtime error' "$LIB_TMP/fuzz.log" | head -8)"
		fi
		continue
	fi

	# New units go to a scratch corpus; the committed seeds are only read.
	mkdir -p "$LIB_TMP/corpus-$h"
	if "$bin" -max_total_time="$SECS" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=tests/fuzz/crashes/$h- \
		"$LIB_TMP/corpus-$h" tests/fuzz/corpus/$h tests/fuzz/regress \
		>"$LIB_TMP/fuzz.log" 2>&1; then
		ok "fuzz_$h: ${SECS} s of fuzzing found nothing"
		diag "fuzz_$h: $(grep -a -m1 '^Done' "$LIB_TMP/fuzz.log")"
	else
		not_ok "fuzz_$h: ${SECS} s of fuzzing found nothing"
		diag "$(grep -a -E 'ERROR|SUMMARY|runtime error|^fuzz_(cpuid|profile|listen|record|ring):|Test unit written' "$LIB_TMP/fuzz.log" | head -8)"
	fi
done
tap_done
