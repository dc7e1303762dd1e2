#!/bin/sh
# e2e_headers.sh: headers include what they use, and the screen sees what it
# is given.
#
# Every header of every code folder compiles on its own (included
# twice: its guard holds) with the project's warnings.  ui/ includes only
# its own headers, the CPU description (cpu/uarch.h), the metrics
# (engine/metrics.h), the column table (output/columns.h) and the one number
# formatter (output/numfmt.h), and calls nothing of the PMU, the MSR devices,
# the planner, the sampler or the simulator: what it needs of them
# app/main.c puts in ui.h's structures.
cd "$(dirname "$0")/.." && . tests/lib.sh

CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	skip "no C compiler ($CC) here"
	tap_done
	exit 0
fi
# The flags of the Makefile's compile rule, the warnings included.
flags=$(make -s -p -n lattop 2>/dev/null | awk -F' := ' '$1 == "WARN" { print $2; exit }')
n=0
for h in lib/*.h cpu/*.h sim/*.h engine/*.h output/*.h export/*.h record/*.h safety/*.h ui/*.h app/*.h; do
	n=$((n + 1))
	printf '#include "%s"\n#include "%s"\n' "$h" "$h" >$LIB_TMP/h.c
	if out=$($CC -I. -D_GNU_SOURCE -std=gnu11 $flags -fsyntax-only $LIB_TMP/h.c 2>&1); then
		ok "$h compiles on its own"
	else
		not_ok "$h compiles on its own"
		diag "$(printf '%s\n' "$out" | head -n 5)"
	fi
done
check "the Makefile's warnings are used ($flags)" test -n "$flags"
check "headers found ($n)" test $n -ge 20

# The screen's includes: <system>, ui/, cpu/uarch.h, engine/metrics.h, and the
# column table whose headers, widths and formats the panes draw.
bad=$(grep -H '^#include "' ui/*.c ui/*.h |
	grep -v -e '#include "ui/' -e '#include "cpu/uarch.h"' -e '#include "engine/metrics.h"' \
		-e '#include "output/columns.h"' -e '#include "output/numfmt.h"')
is "ui/ includes only ui/, cpu/uarch.h, engine/metrics.h, output/columns.h and output/numfmt.h" "$bad" ""
# ... nor, through them, anything else: every header a ui/ file pulls in,
# directly or not, is ui/'s own, the CPU description, the metrics, the
# column table, or what those are made of (the metric names of
# cpu/events.h, the threshold counts of engine/thresh.h).
bad=$(for f in ui/*.c; do $CC -I. -D_GNU_SOURCE -MM "$f"; done | tr ' \\' '\n\n' | grep '\.h$' |
	sort -u | grep -v -x -e 'ui/[a-z_]*\.h' -e cpu/uarch.h -e engine/metrics.h -e output/columns.h -e output/numfmt.h \
		-e cpu/events.h -e engine/thresh.h)
is "ui/ sees no PMU, planner or sampler header, not even through another header" "$bad" ""
# ... and calls no function of the layers under the metrics.
bad=$(grep -H -n -E '\b(pmu|msr|plan|sampler|sim|journal|record|export)_[a-z_]+\(' ui/*.c ui/*.h)
is "ui/ calls nothing of the PMU, MSRs, planner, sampler or simulator" "$bad" ""
tap_done
