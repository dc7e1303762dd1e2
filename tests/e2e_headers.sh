#!/bin/sh
# e2e_headers.sh: the layout is the architecture, and the compiler says so.
#
# Every header of every code folder compiles on its own (included twice:
# its guard holds) with the project's warnings.  The folders are layers
# (HACKING.md): each may include its own headers and those the table below
# allows it, directly or through another header; every other pair is
# forbidden and checked, one line a pair.  A subfolder (cpu/events/) is
# part of its folder.  A folder missing from the table
# fails, so a new one must be placed.  Last, the sizes the layout keeps:
# a dozen modules a folder at most (the event tables of cpu/events/ are
# rows, not modules), no file over 1600 lines but an event or simulator
# table, app/main.c under 400.
cd "$(dirname "$0")/.." && . tests/lib.sh

# FOLDER: what it may include besides itself.  A folder name allows all of
# its headers; a path, that header only.
#   lib     small helpers every layer may use
#   cpu     the hardware as data and devices
#   sim     the simulator: implements the device (cpu/msrdev.h) with tables of its own
#   engine  plan, sampler, metrics, the snapshot of an interval
#   output  report writers, the column table, number formatting, the catalogue
#   export, record, safety: beside each other, none sees another
#   ui      the screen: the CPU description, the snapshot and metrics, the column table
#   app     the program: everything
rules='
lib:
cpu: lib
sim: cpu/msrdev.h cpu/perfdev.h
engine: cpu lib
output: engine cpu lib
export: output engine cpu lib
record: output engine cpu lib
safety: output engine cpu lib
ui: cpu/uarch.h cpu/events.h engine/metrics.h engine/thresh.h engine/snapshot.h engine/sharing.h output/columns.h output/numfmt.h
app: lib cpu sim engine output export record safety ui
'
folders=$(printf '%s\n' "$rules" | sed -n 's/^\([a-z]*\):.*/\1/p')

CC=${CC:-cc}
if ! command -v "$CC" >/dev/null 2>&1; then
	skip "no C compiler ($CC) here"
	tap_done
	exit 0
fi
# The flags of the Makefile's compile rule, the warnings included.
flags=$(make -s -p -n lattop 2>/dev/null | awk -F' := ' '$1 == "WARN" { print $2; exit }')
check "the Makefile's warnings are used ($flags)" test -n "$flags"

# Every folder with C code is placed in the table.
for d in $(git ls-files '*.c' '*.h' | sed -n 's#^\([a-z]*\)/.*\.[ch]$#\1#p' | sort -u); do
	case $d in tests|bench) continue ;; esac
	check "$d/ has a place in the layers" sh -c "printf '%s\n' \"\$1\" | grep -qx '$d'" - "$folders"
done

n=0
for d in $folders; do
	for h in $(find $d -name '*.h' | sort); do
		n=$((n + 1))
		printf '#include "%s"\n#include "%s"\n' "$h" "$h" >$LIB_TMP/h.c
		if out=$($CC -I. -D_GNU_SOURCE -std=gnu11 $flags -fsyntax-only $LIB_TMP/h.c 2>&1); then
			ok "$h compiles on its own"
		else
			not_ok "$h compiles on its own"
			diag "$(printf '%s\n' "$out" | head -n 5)"
		fi
	done
done
check "headers found ($n)" test $n -ge 30

# The project headers each file of @1 pulls in, directly or not: "file: header" lines.
deps() {
	for f in $(find "$1" -name '*.[ch]' | sort); do
		$CC -I. -D_GNU_SOURCE -MM -MT x "$f" 2>/dev/null | tr ' \\' '\n\n' | grep '\.h$' |
			grep -v "^$1/" | sed "s#^#$f: #"
	done
}

for d in $folders; do
	allow=$(printf '%s\n' "$rules" | sed -n "s/^$d://p")
	pulled=$(deps "$d")
	for other in $folders; do
		[ "$other" = "$d" ] && continue
		# Headers of @other that @d may see: all of them, some, or none.
		case " $allow " in
		*" $other "*) continue ;;
		esac
		only=$(printf '%s\n' $allow | grep "^$other/" | sed 's/[.]/[.]/g' | paste -sd'|' -)
		bad=$(printf '%s\n' "$pulled" | grep ": $other/" |
			{ if [ -n "$only" ]; then grep -v -E ": ($only)\$"; else cat; fi; })
		if [ -n "$only" ]; then
			is "$d/ sees of $other/ only $(printf '%s ' $allow | tr ' ' '\n' | grep "^$other/" | paste -sd, -)" \
				"$bad" ""
		else
			is "$d/ includes nothing of $other/" "$bad" ""
		fi
	done
done

# A folder's private header (NAME_internal.h, app/app.h) is its own: no
# other folder includes it (tests may, to reach inside).
for h in $(git ls-files '*_internal.h') app/app.h; do
	d=${h%%/*}
	bad=$(git grep -l "#include \"$h\"" -- '*.c' '*.h' | grep -v -e "^$d/" -e '^tests/')
	is "$h is included by $d/ alone" "$bad" ""
done

# The screen calls no function of the layers under the metrics: what it
# needs of them app/ puts in ui.h's structures.
bad=$(grep -H -n -E '\b(pmu|msr|msrdev|plan|sampler|sim|journal|record|export|snapshot)_[a-z_]+\(' ui/*.c ui/*.h)
is "ui/ calls nothing of the PMU, MSRs, planner, sampler, simulator or snapshot" "$bad" ""

# Sizes: a dozen modules a folder, 1600 lines a file (event and simulator tables aside).
for d in $(for f in $folders; do find $f -type d; done | grep -v -x cpu/events); do
	m=$(ls $d/*.c 2>/dev/null | wc -l)
	check "$d/ holds at most a dozen modules ($m)" test "$m" -le 12
done
big=$(for d in $folders; do find $d -name '*.[ch]' -exec wc -l {} +; done | grep -v ' total$' |
	awk '$1 > 1600 { print $2 }' | grep -v -e '^cpu/events/' -e '^sim/sim_hw\.c$')
is "no file over 1600 lines but an event or simulator table" "$big" ""
lines=$(wc -l <app/main.c)
check "app/main.c is under 400 lines ($lines)" test "$lines" -lt 400
tap_done
