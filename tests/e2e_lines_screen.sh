#!/bin/sh
# e2e_lines_screen.sh: the contended cache lines (issue 23) as a user reaches
# them: a recording whose frames hold lines, written through the
# recorder's own writer (tests/tools/sharerec), replayed on the screen in
# tmux at 80x24, 200x50 and 40x10: the pane under the CPU panes, the L
# view sorted by HITM/s (s, <, I sort otherwise), a line's detail (Enter:
# the map of its words, their threads and code; Esc back), the line
# chosen followed while the replay plays, the counts of samples, lost and
# throttled in each title; a frame whose lines are not measured says why;
# a recording without lines and a live run without --backend perf say so
# when L is pressed; a live hybrid's header names each core type's
# counters and its HITM reads as a lower bound (>=N).  And the replay's
# text output: the table of lines, costliest first; csv without them.
cd "$(dirname "$0")/.." && . tests/lib.sh

L=./lattop
T=$LIB_TMP

if [ ! -x tests/tools/sharerec ]; then
	not_ok "tests/tools/sharerec is built (make tests)"
	tap_done
	exit 1
fi
tests/tools/sharerec $T/lines.lrec 40
tests/tools/sharerec $T/unsup.lrec 4 unsupported
$L --simulate haswell -b -n 2 -d 0.05 --record $T/none.lrec >/dev/null 2>&1

# ---- text and csv ----
$L --replay $T/lines.lrec -n 1 >$T/text
check "text: the interval's counts" grep -qx 'contended lines: 1234 samples, 5 lost, 2 throttled in 0.50 s' $T/text
check "text: the lines' header, Phys among the columns" \
	grep -qE '^Address +Phys +HITM/s +RHITM/s +Loads/s +Stores/s +Lat +Thr +CPUs +Node +Sharing +Process +Symbol$' $T/text
is "text: the lines, costliest first" "$(grep -o '^0x7f3a0000[0-9a-f]*' $T/text | paste -sd' ' -)" \
	"0x7f3a00001040 0x7f3a00002000 0x7f3a00003080 0x7f3a00004000 0x7f3a00005000 0x7f3a00006000"
check "text: the false sharing, its process and symbol" \
	grep -qE '^0x7f3a00001040 +- +200k +0 +600k +400k +180 +2 +2 +- false +4242 worker +worker_loop\+0x1f$' $T/text
check "text: the true sharing, with its remote HITM" \
	grep -qE '^0x7f3a00002000 +- +50k +20k .* true +77 db +db_commit\+0x40$' $T/text
check "text: a physical address and a node where known, two processes as +1" \
	sh -c "grep -qE '^0x7f3a00003080 +0x1234567c0 .* 1 false +900 cache' $T/text && grep -qE '1500 postgres \\+1 LWLockAcquire' $T/text"
$L --replay $T/lines.lrec -n 2 --begin +10 >$T/text10
check "text: a later frame's rates (frame 21: 220k HITM/s)" grep -qE '^0x7f3a00001040 +- +220k ' $T/text10
$L --replay $T/unsup.lrec -n 1 >$T/text.u
check "text: not measured, and why" grep -qx 'contended lines: not measured: the family has no sampled data source' $T/text.u
$L --replay $T/none.lrec -n 1 >$T/text.n 2>/dev/null
is "text: a recording without lines prints none" "$(grep -c 'contended lines' $T/text.n)" 0
$L --replay $T/lines.lrec -n 2 --format csv >$T/csv
is "csv: the CPUs' rows only (2 x (header? + 2 CPUs + total))" "$(grep -c 0x7f3a $T/csv)/$(wc -l <$T/csv | tr -d ' ')" "0/7"

# ---- the screen ----
if ! command -v tmux >/dev/null 2>&1; then
	skip "no tmux here (apt-get install tmux)"
	tap_done
	exit 0
fi
trap 'tmux_cleanup; lib_cleanup' EXIT
# The addresses of the rows shown, in order.
addrs() {
	tmux_screen | grep -oE '^ 0x7f3a0000[0-9a-f]+' | tr -d ' ' | paste -sd' ' -
}
last_addr() {
	addrs | awk '{ print $NF }'
}
# The header and the status line where they belong: nothing drawn over them.
intact() {   # GEOM WIDTH HEIGHT
	is "$1: the header on the first line" "$(tmux_screen | head -1 | grep -c '^ lattop')" 1
	is "$1: the status line on the last" "$(tmux_screen | sed -n "$3p" | grep -c 'sort: ')" 1
}

for geom in 80x24 200x50 40x10; do
	w=${geom%x*} h=${geom#*x}
	tmux_start $geom $w $h "TZ=UTC $L --replay $T/lines.lrec; echo lattop-exited; sleep 30"
	tmux_wait REPLAY >/dev/null
	tmux_on send-keys -t s ' '
	tmux_wait "PAUSED" >/dev/null
	if [ $h -ge 24 ]; then
		check "$geom: the pane under the CPU panes, with the counts" \
			tmux_shows '^ Contended lines  12[0-9]{2} samples, 5 lost, 2 throttled in 0.50 s'
		is "$geom: the pane: the five costliest lines" "$(addrs)" \
			"0x7f3a00001040 0x7f3a00002000 0x7f3a00003080 0x7f3a00004000 0x7f3a00005000"
		check "$geom: the pane: the verdict and the process" \
			tmux_shows '^ 0x7f3a00001040( +-)? +2[0-9]{2}k .*false +4242 worker'
		check "$geom: the history meter still below it" tmux_wait "History of the total"
	else
		is "$geom: no room for the pane: not drawn" "$(tmux_screen | grep -c 'Contended lines')" 0
	fi
	intact "$geom: panes" $w $h
	tmux_on send-keys -t s L
	check "$geom: L: the lines view" tmux_wait "Contended lines"
	check "$geom: L: sorted by HITM/s" tmux_wait "sort: HITM/s  lines"
	rows=6
	[ $h -lt 24 ] && rows=4
	is "$geom: L: the lines, costliest first" "$(addrs)" \
		"$(echo 0x7f3a00001040 0x7f3a00002000 0x7f3a00003080 0x7f3a00004000 0x7f3a00005000 0x7f3a00006000 | cut -d' ' -f1-$rows)"
	if [ $w -ge 200 ]; then
		check "$geom: L: every column" \
			tmux_shows '^ Address +Phys +HITM/s +RHITM/s +Loads/s +Stores/s +Lat +Thr +CPUs +Node +Sharing +Process +Symbol'
		check "$geom: L: the counts in the title" tmux_wait " samples, 5 lost, 2 throttled in 0.50 s"
	fi
	intact "$geom: lines" $w $h
	tmux_on send-keys -t s s
	check "$geom: s: sorted by the next column" tmux_wait "lines sorted by"
	tmux_on send-keys -t s '<'
	sleep 0.2
	tmux_on send-keys -t s I
	# The line chosen (the costliest) stays in sight: on a short screen the last rows.
	eventually 5 "$geom: ... down to the costliest, still chosen" 0x7f3a00001040 last_addr
	is "$geom: I: the cheapest first" "$(addrs)" "$(addrs | tr ' ' '\n' | sort -r | paste -sd' ' -)"
	tmux_on send-keys -t s I
	sleep 0.2
	tmux_on send-keys -t s s s
	check "$geom: s s: sorted by loads/s" tmux_wait "sort: Loads/s  lines"
	tmux_on send-keys -t s '<' '<'
	check "$geom: < <: HITM/s again" tmux_wait "sort: HITM/s  lines"
	tmux_on send-keys -t s Down Enter
	check "$geom: Down Enter: the second line's detail, its verdict" tmux_wait "Line 0x7f3a00002000  true sharing"
	if [ $h -ge 24 ]; then
		check "$geom: the detail: its word 0 read and written by 78 and 79, from db_commit" \
			tmux_shows '^ +\+0 +RW +400 +300 78,79 +db_commit\+0x40 \(0x5550\)'
		check "$geom: the detail: the map, word 0 both, the rest untouched" \
			tmux_shows '^ +BBBBBBBB\.{56}'
		check "$geom: the detail: its process" tmux_wait "Processes 77 db"
	fi
	intact "$geom: detail" $w $h
	tmux_on send-keys -t s Escape
	check "$geom: Esc: back to the lines" tmux_wait "Contended lines"
	tmux_on send-keys -t s Up Enter
	check "$geom: Up Enter: the false sharing" tmux_wait "Line 0x7f3a00001040  false sharing"
	if [ $h -ge 24 ]; then
		check "$geom: its words 0 and 8 written by 4243 and 4244" \
			tmux_shows '^ +\+0 +W +0 +900 4243 +worker_loop\+0x1f'
		check "$geom: ... and 8" tmux_shows '^ +\+8 +W +0 +880 4244 +worker_loop\+0x2b'
		check "$geom: the map: two words written" \
			tmux_shows '^ +W{16}\.{48}'
	fi
	# Played on: the line chosen stays chosen while its rate changes.
	tmux_on send-keys -t s ' '
	sleep 1.5
	check "$geom: played on, the detail stays on its line" tmux_wait "Line 0x7f3a00001040  false sharing"
	if [ $w -ge 80 ]; then
		hitm=$(tmux_screen | grep -oE 'HITM/s [0-9.]+k' | head -1)
		check "$geom: ... its rate that of a later frame ($hitm)" test "$hitm" != "HITM/s 201k"
	fi
	tmux_on send-keys -t s Enter L
	check "$geom: Enter L: the panes again" tmux_wait "sort: CPU  per CPU"
	tmux_on send-keys -t s q
	check "$geom: q quits" tmux_wait "lattop-exited"
	tmux_on kill-server 2>/dev/null
done

# Not measured: the pane and the view say why.
tmux_start unsup 80 24 "TZ=UTC $L --replay $T/unsup.lrec; echo lattop-exited; sleep 30"
check "unsupported: the pane says why" tmux_wait "Contended lines  n/a: the family has no sampled data source"
tmux_on send-keys -t s L
tmux_wait "Contended lines  n/a" >/dev/null
check "unsupported: L: the view says why" \
	test "$(tmux_screen | sed -n 3,4p | grep -c 'Contended lines  n/a: the family has no sampled data source')" = 1
tmux_on send-keys -t s Enter
sleep 0.3
is "unsupported: Enter: no detail" "$(tmux_screen | grep -c '^ Line 0x')" 0
tmux_on send-keys -t s q
tmux_wait "lattop-exited" >/dev/null
tmux_on kill-server 2>/dev/null

# Without lines: L says where they come from; nothing else changes.
tmux_start none 80 24 "TZ=UTC $L --replay $T/none.lrec; echo lattop-exited; sleep 30"
tmux_wait REPLAY >/dev/null
# Its two frames played out first: the end's own message would take L's place.
tmux_wait "the end of the recording" >/dev/null
is "a recording without lines: no pane" "$(tmux_screen | grep -c 'Contended lines')" 0
tmux_on send-keys -t s L
check "a recording without lines: L says so" tmux_wait "no contended lines in this recording"
is "... and the panes stay" "$(tmux_screen | grep -c 'sort: CPU  per CPU')" 1
tmux_on send-keys -t s q
tmux_wait "lattop-exited" >/dev/null
tmux_on kill-server 2>/dev/null

# 100 lines: the whole help fits.
tmux_start live 120 100 "$L --simulate haswell --backend msr; echo lattop-exited; sleep 30"
tmux_wait "Snoop" >/dev/null
tmux_on send-keys -t s L
check "the msr backend: L says the lines need --backend perf" tmux_wait "the contended lines need --backend perf"
tmux_on send-keys -t s h
tmux_wait "lattop keys" >/dev/null
tmux_wait "any key closes this help" >/dev/null
is "the msr backend: the help has no lines' columns" "$(tmux_screen | grep -c 'contended lines (L)')" 0
tmux_on send-keys -t s q
sleep 0.2
tmux_on send-keys -t s q
tmux_wait "lattop-exited" >/dev/null
tmux_on kill-server 2>/dev/null

# A hybrid, live through perf: the header names each core type's counters
# (not leaf 0xA's common subset), and its HITM, seen through the tagged
# loads alone, reads as a lower bound in the pane and in the view.
cat >$T/hybrid.prof <<'PROF'
core_types = P:2,E:2
ldlat_tagged_fraction = 1
line = 0x7f3a00001040 worker 4242 200000 4244:w@0 4247:w@8
PROF
tmux_start hybrid 100 40 "$L --simulate alderlake --sim-profile $T/hybrid.prof --backend perf -d 0.5; echo lattop-exited; sleep 30"
check "hybrid: the header names each type's counters" \
	tmux_wait "PMU v5, 48-bit: P 8 GP + 3 fixed, E 6 GP + 3 fixed"
check "hybrid: the pane's HITM/s a lower bound" tmux_wait ">="
is "hybrid: ... on the line's row" \
	"$(tmux_screen | grep -cE '^ 0x7f3a00001040 +>=[0-9.]+k? +>=')" 1
tmux_on send-keys -t s L
check "hybrid: L: the view" tmux_wait "sort: HITM/s  lines"
is "hybrid: L: the line's HITM/s a lower bound" \
	"$(tmux_screen | grep -cE '^ 0x7f3a00001040 +(0x[0-9a-f]+ +)?>=[0-9.]+k? ')" 1
tmux_on send-keys -t s q
tmux_wait "lattop-exited" >/dev/null
tmux_on kill-server 2>/dev/null

# A run with lines: the help lists their columns, after the keys.
tmux_start help 120 100 "TZ=UTC $L --replay $T/lines.lrec; echo lattop-exited; sleep 30"
tmux_wait REPLAY >/dev/null
tmux_on send-keys -t s h
tmux_wait "lattop keys" >/dev/null
check "the help: the lines' columns" tmux_wait "contended lines (L)"
check "... each with its help" tmux_wait "false: threads touch different 8-byte words of it"
tmux_on send-keys -t s q
sleep 0.2
tmux_on send-keys -t s q
tmux_wait "lattop-exited" >/dev/null
tmux_on kill-server 2>/dev/null
tap_done
