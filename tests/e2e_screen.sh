#!/bin/sh
# e2e_screen.sh: the interactive screen, driven through tmux as a user would
# drive it: what it shows at 80x24 and 200x50 (header, three panes, the `all`
# row), that every key does what the help says, resizes, `q` giving the
# terminal back, no colour or non-ASCII byte when the terminal or the user
# asks for none, `n/a` for what the CPU cannot measure, and on the FUSE msr
# stand-in every register as it was after the terminal is closed under it.
#
# The strings checked are those of the screen's visible contract (the ui/
# top comment and the man page's KEYS section repeat them).  Every tmux
# session runs on a server of its own (tmux -L), killed on exit; every wait
# polls the pane for what it expects, a few seconds at most.
cd "$(dirname "$0")/.." && . tests/lib.sh

HSW=tests/dumps/haswell_core-i7-4500u.raw
M=$LIB_TMP/m
SOCK=lattop-e2e-$$
PS1_MARK='lattop-e2e-prompt> '

if ! command -v tmux >/dev/null 2>&1; then
	skip "no tmux here (apt-get install tmux)"
	tap_done
	exit 0
fi
if [ ! -x ./lattop ]; then
	not_ok "./lattop is built (make lattop)"
	tap_done
	exit 1
fi

# tmux on a server of our own, also when the tests run inside tmux.
tm() {
	env -u TMUX tmux -L "$SOCK" -f "$LIB_TMP/tmux.conf" "$@"
}

# The sessions go first, and lattop on the msr stand-in must have given its
# registers back before lib_cleanup unmounts the stand-in.
screen_cleanup() {
	tm kill-server 2>/dev/null
	tmux_sock_rm "$SOCK"
	if [ -s "$LIB_TMP/msr.pid" ]; then
		_cl_n=50
		while kill -0 "$(cat "$LIB_TMP/msr.pid")" 2>/dev/null && [ $_cl_n -gt 0 ]; do
			sleep 0.1
			_cl_n=$((_cl_n - 1))
		done
	fi
	lib_cleanup
}
trap screen_cleanup EXIT
trap 'exit 129' HUP
# Should this script be killed outright, the sessions must not outlive it.
(
	while kill -0 $$ 2>/dev/null; do
		sleep 1
	done
	env -u TMUX tmux -L "$SOCK" kill-server
	tmux_sock_rm "$SOCK"
	sleep 1
	rm -rf --one-file-system "$LIB_TMP"
) </dev/null >/dev/null 2>&1 &

# The pane has exactly the window's size (no status line); colours as a
# modern terminal has them; the panes start in the repository.
if [ -e /usr/share/terminfo/t/tmux-256color ] || [ -e /lib/terminfo/t/tmux-256color ]; then
	DEFTERM=tmux-256color
else
	DEFTERM=screen-256color
fi
cat >"$LIB_TMP/tmux.conf" <<EOF
set -g status off
set -g default-terminal $DEFTERM
set -g history-limit 100
set -g remain-on-exit off
EOF

ESC=$(printf '\033')
VLINE=$(printf '\342\224\202')          # U+2502, the line between panes

# ---- driving tmux ----

# start NAME COLS ROWS CMDLINE: a shell in a new session of COLS x ROWS, its
# output recorded byte for byte in $LIB_TMP/NAME.raw, then CMDLINE typed into
# it.  The exit status of CMDLINE lands in $LIB_TMP/NAME.exit.  What the
# caller's environment could change is left out: NO_COLOR, a locale forced
# by LC_ALL (the screen is UTF-8 unless a test says otherwise), COLUMNS and
# LINES (they would override the size of the pane).
start() {
	tm new-session -d -s "$1" -x "$2" -y "$3" -c "$(pwd)" \
		"env -u TMUX -u NO_COLOR -u LC_ALL -u LC_CTYPE -u COLUMNS -u LINES \
		PS1='$PS1_MARK' LANG=C.UTF-8 sh" || return 1
	: >"$LIB_TMP/$1.raw"
	tm pipe-pane -t "$1" -o "cat >>'$LIB_TMP/$1.raw'"
	tm send-keys -t "$1" -l "$4; echo EXIT=\$? >'$LIB_TMP/$1.exit'"
	tm send-keys -t "$1" Enter
}

key() {
	_ky=$1
	shift
	tm send-keys -t "$_ky" "$@"
}

kill_session() {
	tm kill-session -t "$1" 2>/dev/null
}

# cap NAME: the pane as text, for awk: the line between panes becomes `|`
# and every other non-ASCII character `#` (one character, one column).
cap() {
	tm capture-pane -p -t "$1" | LC_ALL=C.UTF-8 sed "s/$VLINE/|/g; s/[^ -~]/#/g"
}

# capraw NAME: the pane as UTF-8 text, as drawn.
capraw() {
	tm capture-pane -p -t "$1"
}

# shows NAME ERE: a line of the pane matches.
shows() {
	cap "$1" | grep -q -E -- "$2"
}

hides() {
	! shows "$@"
}

# expect NAME TESTNAME ERE [SECS]: one TAP line: the pane shows a line
# matching ERE within SECS seconds (5); the screen as a diagnostic if not.
expect() {
	if poll "${4:-5}" shows "$1" "$3"; then
		ok "$2"
	else
		not_ok "$2"
		diag "nothing matches /$3/ on $1:"
		diag "$(cap "$1")"
	fi
}

# expect_gone NAME TESTNAME ERE [SECS]: ... no line matches any more.
expect_gone() {
	if poll "${4:-5}" hides "$1" "$3"; then
		ok "$2"
	else
		not_ok "$2"
		diag "still /$3/ on $1:"
		diag "$(cap "$1")"
	fi
}

# For eventually (tests/lib.sh): CMD's first argument is the session.
eventually_failed() {
	diag "$(cap "$2")"
}

# has TESTNAME TEXT ERE: ok when a line of TEXT matches ERE.
has() {
	if printf '%s\n' "$2" | grep -q -E -- "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diag "nothing matches /$3/ in:"
		diag "$2"
	fi
}

# hasnt TESTNAME TEXT ERE: ok when no line of TEXT matches ERE.
hasnt() {
	if printf '%s\n' "$2" | grep -q -E -- "$3"; then
		not_ok "$1"
		diag "/$3/ matches in:"
		diag "$2"
	else
		ok "$1"
	fi
}

status() {
	cap "$1" | tail -n 1
}

# status_shows NAME ERE: the status line matches ERE.
status_shows() {
	status "$1" | grep -q -E -- "$2"
}

# last_text NAME: the last line that is not blank.
last_text() {
	cap "$1" | grep -v '^ *$' | tail -n 1
}

# body NAME: the screen but its first line (the clock ticks there).
body() {
	cap "$1" | sed 1d
}

# changes NAME SECS: the body differs from what it is now within SECS.
changes() {
	_ch_before=$(body "$1")
	_ch_n=$(($2 * 10))
	while [ $_ch_n -gt 0 ]; do
		sleep 0.1
		[ "$(body "$1")" != "$_ch_before" ] && return 0
		_ch_n=$((_ch_n - 1))
	done
	return 1
}

# settle NAME: wait (3 s at most) until the body is the same twice 0.3 s
# apart: tmux may be caught between two chunks of one redraw.
settle() {
	_se_n=10
	_se_a=$(body "$1")
	while [ $_se_n -gt 0 ]; do
		sleep 0.3
		_se_b=$(body "$1")
		[ "$_se_a" = "$_se_b" ] && return 0
		_se_a=$_se_b
		_se_n=$((_se_n - 1))
	done
	return 1
}

# quit NAME WHAT: `q`, lattop exits 0, the session goes.  Every session
# ends this way but the one that tests SIGHUP: a hangup also sends SIGCONT,
# which LeakSanitizer's exit-time stop-the-world (ptrace) does not survive
# in sanitized builds (the process then spins forever).
quit() {
	key "$1" q
	if poll 5 test -s "$LIB_TMP/$1.exit"; then
		is "$2: q exits 0" "$(cat "$LIB_TMP/$1.exit")" EXIT=0
	else
		not_ok "$2: q exits 0"
		diag "$(cap "$1")"
	fi
	kill_session "$1"
}

# ---- reading the panes ----

# pane NAME TITLE: the lines of the pane titled TITLE below its title line,
# cut to its columns when panes stand side by side (between the `|` lines),
# up to the next pane's title.
pane() {
	cap "$1" | awk -v t="$2" '
	BEGIN { nt = split("Load latency|Snoop|Offcore", T, "|") }
	function other(s,  i) {
		for (i = 1; i <= nt; i++)
			if (T[i] != t && index(s, T[i]))
				return 1
		return 0
	}
	!found {
		x = index($0, t)
		if (!x)
			next
		found = 1
		l = 0
		for (i = x - 1; i > 0; i--)
			if (substr($0, i, 1) == "|") { l = i; break }
		r = 0
		for (i = x; i <= length($0); i++)
			if (substr($0, i, 1) == "|") { r = i; break }
		next
	}
	{
		s = r ? substr($0, l + 1, r - l - 1) : substr($0, l + 1)
		if (other(s))
			exit
		print s
	}'
}

# colhdr NAME TITLE: the pane's column header line.
colhdr() {
	pane "$1" "$2" | awk '$1 == "CPU" || $1 == "Core" { print; exit }'
}

# rows NAME TITLE: the labels of the rows, one a line, up to `all`.
rows() {
	pane "$1" "$2" | awk '
		!h { if ($1 == "CPU" || $1 == "Core") h = 1; next }
		{ print $1; if ($1 == "total") exit }'
}

# rows_line NAME TITLE: the labels on one line.
rows_line() {
	rows "$1" "$2" | tr '\n' ' ' | sed 's/ $//'
}

# core_rows NAME TITLE: `all` when every row but the last is labelled
# package/core and the last is `all`; else the rows.
core_rows() {
	rows "$1" "$2" | awk '{ r = r " " $1 } $1 !~ /^[0-9]+\/[0-9]+$/ { n++; l = $1 }
		END { print (n == 1 && l == "total" && NR >= 2) ? "total" : r }'
}

first_row() {
	rows "$1" "$2" | head -n 1
}

last_rows() {
	rows "$1" "$2" | tail -n 2 | tr '\n' ' ' | sed 's/ $//'
}

# row NAME TITLE LABEL: the line of the row labelled LABEL.
row() {
	pane "$1" "$2" | awk -v l="$3" '
		!h { if ($1 == "CPU" || $1 == "Core") h = 1; next }
		$1 == l { print; exit }'
}

# spark NAME: sparkline cells drawn (not blank) in the snoop pane's `all`
# row: the block characters after the HITM% column.
spark() {
	row "$1" Snoop total | sed 's/^.*%//' | tr -cd '#' | wc -c
}

# blank_lines NAME: how many lines above the status line are blank.
blank_lines() {
	cap "$1" | sed '$d' | grep -c '^ *$'
}

# count NAME FIXED: lines of the screen containing FIXED.
count() {
	cap "$1" | grep -c -F -- "$2"
}

# sgr_colours FILE: the colour parameters (30-38, 40-48, 90-97, 100-107)
# of the SGR sequences in FILE, one a line.
sgr_colours() {
	LC_ALL=C grep -a -o "$ESC\\[[0-9;:]*m" "$1" | LC_ALL=C tr -d "${ESC}[m" |
		tr ';:' '\n\n' | grep -E -x '3[0-8]|4[0-8]|9[0-7]|10[0-7]'
}

# non_ascii FILE: how many bytes of FILE are not ASCII.
non_ascii() {
	LC_ALL=C tr -d '\000-\177' <"$1" | wc -c
}

profile() {
	_f=$LIB_TMP/$1.prof
	shift
	printf '%s\n' "$@" >"$_f"
	echo "$_f"
}

# ---- the checks shared by every size ----

# layout NAME WHAT COLS ROWS [NCPU]: what every screen shows.  With NCPU,
# the rows of every pane are CPUs 0, 1, ... (at most NCPU), then `all`.
layout() {
	_ly_s=$1 _ly_w=$2
	expect "$_ly_s" "$_ly_w: first frame drawn (a total row with a number)" '(^|\|)total +[0-9.]+[kMG]? ' 8
	_ly_cap=$(cap "$_ly_s")
	_h1=$(printf '%s\n' "$_ly_cap" | head -n 1)
	for re in '^ lattop ' ' SIMULATED ' ' Haswell ' 'interval 0\.[0-9]s' \
		' [0-2][0-9]:[0-5][0-9]:[0-6][0-9]'; do
		has "$_ly_w: header line 1 shows /$re/" "$_h1" "$re"
	done
	_h3=$(printf '%s\n' "$_ly_cap" | head -n 3)
	has "$_ly_w: header shows the PMU" "$_h3" 'PMU v3, 4 GP x 48-bit \+ 3 fixed'
	has "$_ly_w: header shows the rotation" "$_h3" \
		'rotation: [0-9]+ slots latency [0-9]+%/threshold snoop [0-9]+% offcore [0-9]+%'
	for t in 'Load latency' Snoop Offcore; do
		is "$_ly_w: '$t' pane title shown once" "$(printf '%s\n' "$_ly_cap" | grep -c -F -- "$t")" 1
		is "$_ly_w: '$t' pane: first column CPU" "$(colhdr "$_ly_s" "$t" | awk '{ print $1 }')" CPU
		is "$_ly_w: '$t' pane: the last row is total" "$(rows "$_ly_s" "$t" | tail -n 1)" total
	done
	has "$_ly_w: Load latency columns" "$(colhdr "$_ly_s" 'Load latency')" 'Loads/s +>8 +>16 .*Mean'
	has "$_ly_w: Snoop columns" "$(colhdr "$_ly_s" Snoop)" 'Hit/s +HITM/s +HITM%'
	has "$_ly_w: Offcore columns" "$(colhdr "$_ly_s" Offcore)" 'Reads/s +Lat\(cyc\) +Lat\(ns\)'
	is "$_ly_w: $4 lines on the screen" "$(capraw "$_ly_s" | wc -l)" "$4"
	is "$_ly_w: no line wider than $3 columns" \
		"$(cap "$_ly_s" | awk -v w="$3" 'length($0) > w' | wc -l)" 0
	has "$_ly_w: status line: help hint, sort column, row mode" "$(status "$_ly_s")" \
		'^h help +q quit .*sort: CPU +per CPU *$'
	# Nothing left over from an earlier drawing (another size).
	is "$_ly_w: one status line" "$(count "$_ly_s" 'h help')" 1
	is "$_ly_w: one PMU line" "$(count "$_ly_s" 'PMU v')" 1
	is "$_ly_w: one header line" "$(cap "$_ly_s" | grep -c '^ lattop ')" 1
	[ "$5" ] || return 0
	# One row is one CPU across the screen: every pane shows the same rows,
	# consecutive CPUs from 0, then total.
	_ly_first=""
	for t in 'Load latency' Snoop Offcore; do
		_ly_r=$(rows_line "$_ly_s" "$t")
		if printf '%s\n' "$_ly_r" | awk -v n="$5" '{
			if (!($NF == "total" && NF >= 2 && NF <= n + 1) || $1 != 0)
				exit 1
			for (i = 2; i < NF; i++)
				if ($i != $(i - 1) + 1)
					exit 1
			exit 0 }'; then
			ok "$_ly_w: '$t' rows are consecutive CPUs from 0, then total"
		else
			not_ok "$_ly_w: '$t' rows are consecutive CPUs from 0, then total"
			diag "rows: $_ly_r"
		fi
		[ "$_ly_first" ] || _ly_first=$_ly_r
		is "$_ly_w: '$t' shows the rows the first pane shows" "$_ly_r" "$_ly_first"
	done
}

# sort_of NAME: "sort: COLUMN" from the status line.
sort_of() {
	status "$1" | grep -o 'sort: [^ ]*'
}

# first_col NAME TITLE: the first column header of the pane (CPU or Core).
first_col() {
	colhdr "$1" "$2" | awk '{ print $1 }'
}

# thresholds NAME: the threshold column headers of the load-latency pane.
thresholds() {
	colhdr "$1" 'Load latency' | grep -o '>[0-9]*' | tr '\n' ' ' | sed 's/ $//'
}

# lines_are NAME N: the screen has N lines and its status line is drawn.
lines_are() {
	[ "$(capraw "$1" | wc -l)" -eq "$2" ] && status "$1" | grep -q 'sort: '
}

# prompting NAME: the status line is not the help hint (the `t` prompt).
prompting() {
	! status "$1" | grep -q '^h help'
}

# spark_at_least NAME N
spark_at_least() {
	[ "$(spark "$1")" -ge "$2" ]
}

# range_ends NAME: the last row number in each pane's title ("rows 3-12 of 64": 12), in order.
range_ends() {
	cap "$1" | grep -o 'rows [0-9]*-[0-9]* of' | sed 's/rows [0-9]*-//; s/ of//' | tr '\n' ' ' | sed 's/ $//'
}

# first_row_not NAME TITLE LABEL
first_row_not() {
	[ "$(first_row "$1" "$2")" != "$3" ]
}

alive() {
	kill -0 "$1" 2>/dev/null
}

gone() {
	! alive "$1"
}

status_changed() {
	[ "$(status "$1")" != "$2" ]
}

# sort_to NAME COLUMN: press `s` until the status line says `sort: COLUMN`.
sort_to() {
	_st_i=0
	while ! status "$1" | grep -q -F -- "sort: $2 "; do
		_st_i=$((_st_i + 1))
		[ $_st_i -gt 16 ] && return 1
		_st_before=$(status "$1")
		key "$1" s
		poll 2 status_changed "$1" "$_st_before" || return 1
	done
	return 0
}

# The SGR parameters right before WORD on line 1 (capture-pane -e), one a line.
sgr_before() {
	tm capture-pane -p -e -t "$1" | head -n 1 |
		LC_ALL=C grep -a -o "\\($ESC\\[[0-9;]*m\\)\\+ *$2" | head -n 1 |
		LC_ALL=C sed "s/ *$2\$//; s/$ESC\\[//g; s/m/;/g" | tr ';' '\n' | grep .
}

# ---- the sessions, all started at once: they run while others are checked ----

P8=$(profile p8 "cpus = 8" "hitm_per_sec = 1e5" \
	"cpu0.hitm_per_sec = 2e4" "cpu1.hitm_per_sec = 4e4" "cpu2.hitm_per_sec = 8e4" \
	"cpu3.hitm_per_sec = 1e5" "cpu4.hitm_per_sec = 3e5" "cpu5.hitm_per_sec = 9e6" \
	"cpu6.hitm_per_sec = 6e5" "cpu7.hitm_per_sec = 5e4")
P64=$(profile p64 "cpus = 64" "hitm_per_sec = 1e5" "cpu40.hitm_per_sec = 4e6")
# One load in a million tagged: about ten tagged loads behind each threshold's share.
PFEW=$(profile few "cpus = 2" "loads_per_sec = 4e8" "ldlat_tagged_fraction = 1e-6")
L="./lattop --simulate haswell"

start b80 80 24 "$L -d 0.2"                     # builtin profile: numbers vary
start b200 200 50 "$L -d 0.2"
start p8s 80 24 "$L --sim-profile $P8 -d 0.2"
start p8l 200 50 "$L --sim-profile $P8 -d 0.2"
start p64s 80 24 "$L --sim-profile $P64 -d 0.5"
start p64l 200 50 "$L --sim-profile $P64 -d 0.5"
start vt100 80 24 "TERM=vt100 $L -d 0.2"
start nocolor 80 24 "NO_COLOR=1 $L -d 0.2"
start nocolor2 80 24 "$L --no-color -d 0.2"
start ascii 80 24 "$L --ascii -d 0.2"
start slm 80 24 "./lattop --simulate silvermont -d 0.2"
start nhm 100 30 "./lattop --simulate nehalem -d 0.2"
start s40 40 10 "$L -d 0.2"
start s50 50 12 "$L -d 0.2"
start s60 60 14 "$L -d 0.2"
start help12 80 12 "$L -d 0.2"
start hidecol 120 30 "$L -d 0.2 --hide hitm_share,above,offlat_ns,history"
start showcol 120 30 "$L -d 0.2 --show loads,hit,reads"
start showipc 120 30 "$L -d 0.2 --show CPU,ghz,IPC,Loads/s,HITM/s"
start srt 120 30 "$L --sim-profile $P8 -d 0.2"
start notes 50 12 "$L -d 0.2"
start io80 80 24 "$L -d 0.2 --listen 0 --record $LIB_TMP/io80.lrec"
start io200 200 50 "$L -d 0.2 --listen 127.0.0.1:0 --record $LIB_TMP/io200.lrec"
start helpcols 200 80 "$L -d 0.2"
start fewtag 120 30 "$L --sim-profile $PFEW -d 0.2"
start hide 80 24 "$L --sim-profile $P8 -d 0.2"
start keep 80 24 "$L -n 3 -d 0.2"
start nocolor0 80 24 "NO_COLOR= $L -d 0.2"
start json 80 24 "$L --format json -n 1 -d 0.1"
start slow 80 24 "$L -d 3600"
# The shell that started lattop ignores SIGINT, to see lattop's status: an
# interactive shell would stop the command line, as it should.
start cc 80 24 "sh -c 'trap \"\" INT; $L -d 0.2; echo EXIT=\$? >$LIB_TMP/cc.status'"
# Ctrl-Z from an interactive shell, measuring and replaying: stopped, then
# fg.  Sanitized builds: no leak check after a SIGCONT (see quit()).
zl=""
[ -n "$LATTOP_SANITIZED" ] && zl="ASAN_OPTIONS=\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0 "
start zz 80 24 "$zl$L -d 0.2"
$L -b -n 30 -d 0.05 --record $LIB_TMP/rec >/dev/null
start zr 80 24 "${zl}./lattop --replay $LIB_TMP/rec"

# ---- what every screen shows ----

layout b80 "80x24" 80 24 8
check "80x24: the numbers change between refreshes" changes b80 5
layout b200 "200x50" 200 50 8
# Haswell with HT on: the offcore numbers are unverified (man page,
# MEASUREMENT); the Offcore title says so, the status line keeps its hints.
has "200x50: the Offcore title marks HT on" "$(cap b200 | grep -E '(^|[|]) Offcore')" 'Offcore +HT( on)?: unverified'
for t in 'Load latency' Snoop Offcore; do
	is "200x50: '$t' shows all 8 CPUs" "$(rows_line b200 "$t")" "0 1 2 3 4 5 6 7 total"
done
check "200x50: the numbers change between refreshes" changes b200 5
# An estimate from few tagged loads is marked, dim with a ? after its number
# (fewer than 100 tagged loads, or a standard error over 10%); the builtin
# profile tags thousands: nothing is marked there.
hasnt "200x50: no estimate marked where thousands of loads are tagged" \
	"$(pane b200 'Load latency')" '[0-9kMG]\?'
quit b200 200x50
expect fewtag "few tagged loads: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
settle fewtag
is "few tagged loads: each of the 7 >N cells of the total is marked ?" \
	"$(row fewtag 'Load latency' total | tr -cd '?' | wc -c)" 7
has "few tagged loads: ... right after its number" "$(row fewtag 'Load latency' total)" \
	'^ *total +[0-9.]+[kMG]? +[0-9.]+[kMG]?\?'
dim_marked() {
	tm capture-pane -p -e -t "$1" | grep total | head -n 1 |
		LC_ALL=C grep -q "$ESC\\[2m[0-9.]*[kMG]\\{0,1\\}?"
}
check "few tagged loads: the marked numbers are dim (SGR 2)" dim_marked fewtag
quit fewtag "few tagged loads"
layout p8s "80x24, 8 CPUs" 80 24 8
layout p8l "200x50, 8 CPUs" 200 50 8
# The scrolling keys reach every row, in every pane; no line is left empty
# while rows are hidden; where the rows leave room, the history of the total.
key p8s End
for t in 'Load latency' Snoop Offcore; do
	eventually 3 "80x24, 8 CPUs: End: '$t' shows 7 then total" "7 total" last_rows p8s "$t"
done
key p8s Home
eventually 3 "80x24, 8 CPUs: Home: first row 0" 0 first_row p8s Offcore
is "80x24, 8 CPUs: no empty line" "$(blank_lines p8s)" 0
expect p8l "200x50, 8 CPUs: the history of the total below the panes" '^ History of the total +H: the whole history *$'
has "200x50, 8 CPUs: the history reaches the status line (its scale's base above it)" \
	"$(cap p8l | tail -n 2 | head -n 1)" '^ +[0-9.]+[kMG]? '
has "200x50, 8 CPUs: the history graphs HITM/s" "$(cap p8l)" '^ HITM/s '
layout p64s "80x24, 64 CPUs" 80 24 64
layout p64l "200x50, 64 CPUs" 200 50 64

# Colour is there when the terminal has it (so that its absence below means
# something), and SIMULATED is red.
check "colour: SGR colours sent to a colour terminal" test -n "$(sgr_colours $LIB_TMP/b80.raw)"
tm capture-pane -p -e -t b80 >$LIB_TMP/b80.cap
check "colour: coloured cells on the screen" test -n "$(sgr_colours $LIB_TMP/b80.cap)"
_p=$(sgr_before b80 SIMULATED | tr '\n' ' ')
has "colour: SIMULATED in reverse video" "$_p" '(^| )7( |$)'
has "colour: SIMULATED in red" "$_p" '(^| )(31|91)( |$)'

# ---- keys ----

# h and ?: the help, every key listed; any key closes it.
key b80 h
expect b80 "h: the help opens" '^ *lattop keys'
_s=$(cap b80)
for re in '^ +q F10 +quit' '^ +space +pause or resume the display' \
	'^ +< > +move the sort column left or right' '^ +s +next sort column' \
	'^ +1 2 3 +show or hide the load-latency, snoop and offcore panes' \
	'^ +c +per logical CPU or per core' \
	'^ +\+ - +longer or shorter interval \(steps 0\.1 0\.2 0\.5 1 2 5 10 30 60 s\)' \
	'^ +t +type new load-latency thresholds' '^ +Up Down PgUp PgDn Home End' 'scroll the rows' \
	'^ +r +reset the history' '^ +h \? F1 +this help' '^ +I R +reverse the sort order'; do
	has "help lists /$re/" "$_s" "$re"
done
# ... and every row of the key table, as --help words it (white space folded).
./lattop --help >$LIB_TMP/help
help_keys $LIB_TMP/help "Keys on the screen:" >$LIB_TMP/keys.screen
help_keys $LIB_TMP/help "Keys replaying a recording on the screen" >$LIB_TMP/keys.replay
# listed NAME KEYSFILE TEXT: one TAP line per key of KEYSFILE: TEXT has it.
listed() {
	_ls_flat=$(printf '%s\n' "$3" | tr -s ' \n' '  ')
	while IFS='	' read -r _ls_k _ls_h; do
		case $_ls_flat in
		*" $_ls_k $_ls_h "*) ok "$1 lists '$_ls_k'" ;;
		*) not_ok "$1 lists '$_ls_k'"; diag "not in: $_ls_flat" ;;
		esac
	done <"$2"
}
check "--help lists the keys" test "$(wc -l <$LIB_TMP/keys.screen)" -ge 10
listed "help" $LIB_TMP/keys.screen "$_s"
hasnt "help: the panes are not drawn under it" "$_s" 'Load latency|rows? [0-9]|sort: CPU'
key b80 x
expect_gone b80 "help: x closes it" 'lattop keys'
expect b80 "help: the panes are back" 'Load latency'
key b80 '?'
expect b80 "?: the help opens" '^ *lattop keys'
key b80 q
expect_gone b80 "help: q closes it" 'lattop keys'
expect b80 "help: ... and does not quit" 'Offcore'
check "help: lattop still runs" test ! -e $LIB_TMP/b80.exit

# space: PAUSED, nothing moves; space again: moving again.
key b80 Space
expect b80 "space: PAUSED in the header" '^ lattop .*PAUSED'
has "space: PAUSED in reverse video" "$(sgr_before b80 PAUSED | tr '\n' ' ')" '(^| )7( |$)'
settle b80
_b=$(body b80)
sleep 1.2       # six intervals
is "space: the numbers stand still while paused" "$(body b80)" "$_b"

# r (while paused, so that nothing refills it): the sparkline goes blank.
_n=$(spark b80)
check "r: the sparkline shows a history before (cells: $_n)" test "$_n" -ge 3
key b80 r
eventually 3 "r: the sparkline is blank after" 0 spark b80

key b80 Space
expect_gone b80 "space again: PAUSED goes" 'PAUSED'
check "space again: the numbers move again" changes b80 5
poll 5 spark_at_least b80 3
_n=$(spark b80)
check "r: the history fills again after resume (cells: $_n)" test "$_n" -ge 1

# < > s: the sort column, left to right.
has "sort: CPU at the start" "$(status b80)" 'sort: CPU '
key b80 '>'
eventually 3 "> moves the sort to Loads/s" "sort: Loads/s" sort_of b80
key b80 '<'
eventually 3 "< moves it back to CPU" "sort: CPU" sort_of b80
key b80 s
eventually 3 "s: next sort column, Loads/s" "sort: Loads/s" sort_of b80
key b80 s
eventually 3 "s again: the first threshold, >8" "sort: >8" sort_of b80
key b80 '<'
key b80 '<'
eventually 3 "< <: back to CPU" "sort: CPU" sort_of b80

# 1 2 3: hide and show the panes.
for k in 1 2 3; do
	case $k in
	1) t='Load latency' o1=Snoop o2=Offcore ;;
	2) t=Snoop o1='Load latency' o2=Offcore ;;
	3) t=Offcore o1='Load latency' o2=Snoop ;;
	esac
	key b80 $k
	expect_gone b80 "$k hides the $t pane" "$t"
	check "$k: $o1 and $o2 still shown" sh -c "[ \$1 -eq 1 ] && [ \$2 -eq 1 ]" sh \
		"$(count b80 "$o1")" "$(count b80 "$o2")"
	key b80 $k
	expect b80 "$k again shows it" "$t"
done

# c: per core, and back.
key b80 c
eventually 3 "c: the first column is Core" Core first_col b80 Snoop
has "c: status says per core" "$(status b80)" 'per core *$'
for t in 'Load latency' Snoop Offcore; do
	eventually 3 "c: '$t' first column Core" Core first_col b80 "$t"
	eventually 3 "c: '$t' rows are package/core, then total" "total" core_rows b80 "$t"
done
key b80 c
eventually 3 "c again: CPU" CPU first_col b80 Snoop
has "c again: status says per CPU" "$(status b80)" 'per CPU *$'

# + -: the interval, by the steps of the help.
for step in "+ 0.5" "- 0.2" "- 0.1" "- 0.1" "+ 0.2"; do
	set -- $step
	key b80 "$1"
	expect b80 "$1: interval $2s" "^ lattop .*interval $2s"
done

# Resize: 80x24 -> 200x50 -> 80x24, drawn as if started at that size.
tm resize-window -t b80 -x 200 -y 50
poll 5 lines_are b80 50
layout b80 "resized to 200x50" 200 50 8
tm resize-window -t b80 -x 80 -y 24
poll 5 lines_are b80 24
layout b80 "resized back to 80x24" 80 24 8

# t: new thresholds; a bad list is refused and the old ones stay.
key b80 t
poll 3 prompting b80
key b80 C-u
key b80 -l '12,40,100'
key b80 Enter
eventually 5 "t 12,40,100: the columns are >12 >40 >100" ">12 >40 >100" thresholds b80
key b80 t
poll 3 prompting b80
key b80 C-u
key b80 -l '1,2'
key b80 Enter
if poll 5 status_shows b80 "'1,2'.*threshold"; then
	ok "t 1,2: the refusal replaces the hint on the status line"
else
	not_ok "t 1,2: the refusal replaces the hint on the status line"
	diag "$(status b80)"
fi
hasnt "t 1,2: the hint is not shown with it" "$(status b80)" '^h help'
sleep 0.6       # three intervals
is "t 1,2: the thresholds stay >12 >40 >100" "$(thresholds b80)" ">12 >40 >100"
# Esc: the list typed is dropped.
key b80 t
poll 3 prompting b80
key b80 C-u
key b80 -l '20,30'
key b80 Escape
if poll 3 status_shows b80 'sort: '; then
	ok "t then Esc: the prompt closes"
else
	not_ok "t then Esc: the prompt closes"
	diag "$(status b80)"
fi
sleep 0.6
is "t then Esc: the thresholds stay >12 >40 >100" "$(thresholds b80)" ">12 >40 >100"

# q: the terminal as it was, exit 0.
key b80 q
poll 5 test -s $LIB_TMP/b80.exit
is "q: lattop exits 0" "$(cat $LIB_TMP/b80.exit 2>/dev/null)" "EXIT=0"
is "q: the alternate screen is left" "$(tm display -p -t b80 '#{alternate_on}')" 0
eventually 3 "q: the shell prompt is back" "${PS1_MARK% }" last_text b80
hasnt "q: the normal screen has no pane left on it" "$(cap b80)" 'Load latency|HITM/s|sort: CPU'
kill_session b80

# ---- sorting orders the rows ----

if sort_to p8s HITM/s; then
	ok "80x24: s reaches HITM/s"
else
	not_ok "80x24: s reaches HITM/s"
	diag "$(status p8s)"
fi
eventually 3 "80x24: sorted by HITM/s, the hottest CPU (5) first" 5 first_row p8s Snoop
if sort_to p8l HITM/s; then
	ok "200x50: s reaches HITM/s"
else
	not_ok "200x50: s reaches HITM/s"
	diag "$(status p8l)"
fi
for t in Snoop 'Load latency' Offcore; do
	eventually 3 "200x50: sorted by HITM/s, '$t' rows hottest first" "5 6 4 3 2 7 1 0 total" \
		rows_line p8l "$t"
done
quit p8s "80x24, 8 CPUs"
quit p8l "200x50, 8 CPUs"

# ---- scrolling 64 CPUs ----

for s in p64s p64l; do
	eventually 3 "$s: first row 0" 0 first_row $s 'Load latency'
	key $s Down
	eventually 3 "$s: Down: first row 1" 1 first_row $s 'Load latency'
	key $s Up
	eventually 3 "$s: Up: first row 0" 0 first_row $s 'Load latency'
	key $s NPage
	poll 3 first_row_not $s 'Load latency' 0
	_f=$(first_row $s 'Load latency')
	check "$s: PgDn: a page down (first row $_f)" test "$_f" -gt 1
	is "$s: PgDn: total stays last" "$(rows $s 'Load latency' | tail -n 1)" total
	key $s PPage
	eventually 3 "$s: PgUp: first row 0" 0 first_row $s 'Load latency'
	# Sorted by CPU, every pane shows the same rows: End brings 63 to each;
	# then Up moves every pane by one row.
	key $s End
	for t in 'Load latency' Snoop Offcore; do
		eventually 3 "$s: End: '$t' shows 63 then total" "63 total" last_rows $s "$t"
	done
	_e1=$(first_row $s 'Load latency')
	key $s Up
	for t in 'Load latency' Snoop Offcore; do
		eventually 3 "$s: End then Up: '$t' moves up one row" $((_e1 - 1)) first_row $s "$t"
	done
	key $s Home
	for t in 'Load latency' Snoop Offcore; do
		eventually 3 "$s: Home: '$t' starts at 0" 0 first_row $s "$t"
		is "$s: Home: '$t' ends with total" "$(rows $s "$t" | tail -n 1)" total
	done
	# Sorted by a column, every pane shows the top rows, and End then Up
	# still moves them all (by the titles: the order itself may change).
	sort_to $s Loads/s
	key $s End
	eventually 3 "$s: sorted, End: every pane shows the last rows" "64 64 64" range_ends $s
	key $s Up
	eventually 3 "$s: sorted, End then Up: every pane moves up one row" "63 63 63" range_ends $s
	quit $s $s
done

# ---- no colour, ASCII only ----

for s in vt100 nocolor nocolor2 ascii; do
	expect $s "$s: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
	changes $s 3 >/dev/null  # a few frames more
	tm capture-pane -p -e -t $s >$LIB_TMP/$s.cap
	tm capture-pane -p -t $s >$LIB_TMP/$s.txt
	case $s in
	vt100|nocolor|nocolor2)
		is "$s: no colour sent" "$(sgr_colours $LIB_TMP/$s.raw | sort -u | tr '\n' ' ')" ""
		is "$s: no coloured cell on the screen" "$(sgr_colours $LIB_TMP/$s.cap | sort -u | tr '\n' ' ')" ""
		;;
	esac
	case $s in
	vt100|ascii)
		is "$s: no byte sent is non-ASCII" "$(non_ascii $LIB_TMP/$s.raw)" 0
		is "$s: no character on the screen is non-ASCII" "$(non_ascii $LIB_TMP/$s.txt)" 0
		;;
	esac
	quit $s $s
done

# ---- what the CPU cannot measure ----

expect slm "silvermont: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
has "silvermont: the snoop pane has numbers" "$(row slm Snoop total)" '^total +[0-9.]+[kMG]? +[0-9.]+[kMG]? '
_why=$(./lattop --simulate silvermont --once -d 0.1 --format json 2>/dev/null |
	jq -r .total.load_latency.reason 2>/dev/null | cut -c 1-30)
if [ -n "$_why" ] && [ "$_why" != null ]; then
	# Nothing measured: one line, the title and the reason, not half the screen of n/a.
	is "silvermont: the load-latency pane is one line" \
		"$(cap slm | grep -c "^ Load latency n/a: $_why")" 1
	hasnt "silvermont: ... with no column header or rows" "$(cap slm)" 'Loads/s|^ *[0-9]+ +n/a'
	has "silvermont: the snoop pane has the room" "$(rows_line slm Snoop)" '^0 1 2 3 .*total$'
else
	not_ok "silvermont: --once --format json gives a reason"
fi
quit slm silvermont

# What is measured is shown: Nehalem counts the offcore reads but not their
# latency, so the pane has its reads, n/a in the latency columns only, and
# the reason on its title line.
expect nhm "nehalem: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
has "nehalem: the offcore pane shows Reads/s" "$(colhdr nhm Offcore)" 'Reads/s +Lat\(cyc\) +Lat\(ns\)'
has "nehalem: the offcore total has reads, n/a for the latency" "$(row nhm Offcore total)" \
	'^total +[0-9.]+[kMG]? +n/a +n/a *$'
has "nehalem: the offcore title starts to say why the latency is n/a" "$(cap nhm)" '(^|\|) Offcore Lat\(cyc\) Lat'
key nhm h
key nhm End
expect nhm "nehalem: the help says it in full" '^ *offcore Lat\(cyc\) Lat\(ns\) n/a: Nehalem has no'
key nhm x
quit nhm nehalem

# ---- issue 13: what a new user trips over ----

# 40x10: rows, not only headers; what has no room is named.
expect s40 "40x10: a CPU row with numbers" '^ +0 +[0-9.]+[kMG]? ' 8
has "40x10: the status line names the panes with no room" "$(status s40)" '^no room: snoop'
# Narrow threshold headers: never a cut number ('0k' for 128, '1' for 16).
has "40x10: one header for all thresholds" "$(colhdr s40 'Load latency')" '^ *CPU +Loads/s +>8\.\.512 +~?Mean'
expect s50 "50x12: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
has "50x12: every threshold header in one style" "$(colhdr s50 'Load latency')" \
	'^ *CPU +Loads/s +(8 +16 +32 +64 +128 +256 +512|>8\.\.512) +~?Mean'
# The rotation line: whole measurements, then the ellipsis.
expect s60 "60x14: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
has "60x14: the rotation line is not cut mid-number" "$(cap s60 | sed -n 3p)" \
	'^ rotation: [0-9]+ slots( latency [0-9]+%/threshold)?( snoop [0-9]+%)?( offcore [0-9]+%)?#? *$'

# The help scrolls on a short screen: End shows its end, another key closes it.
expect help12 "80x12: first frame drawn" 'sort: CPU' 8
key help12 h
expect help12 "80x12: the help opens" '^ *lattop keys'
has "80x12: the help says it scrolls" "$(status help12)" 'Up Down PgUp PgDn scroll'
hasnt "80x12: the columns are below the screen" "$(cap help12)" 'Lat\(cyc\)'
key help12 End
expect help12 "80x12: End scrolls the help to its end" '^ +Lat\(ns\) +the mean latency of the offcore'
key help12 Home
expect help12 "80x12: Home scrolls back" '^ *lattop keys'
key help12 x
expect_gone help12 "80x12: another key closes the help" 'lattop keys'
quit help12 "80x12"

# --hide and --show: the panes draw the columns left, in the table's order;
# the sort keys and the help go through those only.
expect hidecol "--hide: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
has "--hide above: no threshold columns" "$(colhdr hidecol 'Load latency')" '^ *CPU +Loads/s +~Mean *$'
has "--hide hitm_share,history: Hit/s and HITM/s only" "$(colhdr hidecol Snoop)" '^ *CPU +Hit/s +HITM/s *$'
has "--hide offlat_ns: Reads/s and Lat(cyc)" "$(colhdr hidecol Offcore)" '^ *CPU +Reads/s +Lat\(cyc\) *$'
has "--hide: each row's cells under the headers" "$(pane hidecol Snoop | awk '$1 == "total"')" \
	'^ *total +[0-9.]+[kMG]? +[0-9.]+[kMG]? *$'
expect showcol "--show: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
has "--show loads,hit,reads: Loads/s alone" "$(colhdr showcol 'Load latency')" '^ *CPU +Loads/s *$'
has "--show loads,hit,reads: Hit/s alone" "$(colhdr showcol Snoop)" '^ *CPU +Hit/s *$'
has "--show loads,hit,reads: Reads/s alone" "$(colhdr showcol Offcore)" '^ *CPU +Reads/s *$'
# sort_moved: the sort shown ($_sort) is no longer $_was.
sort_moved() {
	_sort=$(sort_of showcol)
	[ "$_sort" != "$_was" ]
}
_sorts="" _sort=$(sort_of showcol)
for _i in 1 2 3 4; do
	_was=$_sort
	key showcol s
	poll 5 sort_moved
	_sorts="$_sorts $_sort"
done
is "--show: s goes through the columns shown only" "$_sorts" " sort: Loads/s sort: Hit/s sort: Reads/s sort: CPU"
key showcol h
expect showcol "--show: the help opens" '^ *lattop keys'
key showcol End         # the columns are last
expect showcol "--show: the help lists the columns shown" '^ +Hit/s +reads or loads that found a clean copy'
hasnt "--show: ... and not the others" "$(cap showcol)" '^ +(HITM/s|~Mean|Lat\(cyc\)) '
key showcol x
quit showcol "--show"
# --show takes the names the outputs print, cpu too, and ghz,ipc on the screen as well.
expect showipc "--show CPU,ghz,IPC,Loads/s,HITM/s: GHz and IPC before Loads/s" '^ +CPU +GHz +IPC +Loads/s +(\||$)'
has "--show ...: a row's clock and IPC" "$(row showipc 'Load latency' total)" '^total +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9.]+[kMG]? *$'
has "--show ...: HITM/s by its header" "$(colhdr showipc Snoop)" '^ +CPU +HITM/s'
quit showipc "--show ghz,ipc"

# Sorting: by every column, each >N and Lat(ns) included; reversed with I
# (htop) or R (top), n/a last either way; a column whose cells all read
# the same says what orders the rows.
expect srt "sort: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
if sort_to srt '>128'; then ok "sort: by a threshold, >128"; else not_ok "sort: by a threshold, >128"; diag "$(status srt)"; fi
if sort_to srt 'Lat(ns)'; then ok "sort: by Lat(ns)"; else not_ok "sort: by Lat(ns)"; diag "$(status srt)"; fi
if sort_to srt HITM/s; then ok "sort: by HITM/s"; else not_ok "sort: by HITM/s"; diag "$(status srt)"; fi
eventually 3 "sort: HITM/s, the hottest CPU (5) first" 5 first_row srt Snoop
key srt I
eventually 3 "sort: I reverses: the coolest CPU (0) first" 0 first_row srt Snoop
has "sort: ... and the status line says reversed" "$(status srt)" 'sort: HITM/s reversed '
key srt R
eventually 3 "sort: R reverses back: CPU 5 first" 5 first_row srt Snoop
if sort_to srt 'Lat(cyc)'; then
	# Every CPU's offcore latency is 200 cycles in this profile.
	expect srt "sort: Lat(cyc), all alike: the status line says what orders the rows" \
		"every row's Lat\\(cyc\\) reads 200: (in CPU order|ordered by the unrounded values)"
else
	not_ok "sort: by Lat(cyc)"
	diag "$(status srt)"
fi

# What top and htop users press: F1 the help, / and d say what to use, F10 quits.
key srt F1
expect srt "F1: the help opens" '^ *lattop keys'
key srt x
expect_gone srt "F1: a key closes the help" '^ *lattop keys'
key srt /
expect srt "/: says there is no search, and what sorts" 'no search here: s and < > sort the rows'
key srt d
expect srt "d: says what changes the interval" 'the interval: \+ and -'
key srt F10
if poll 5 test -s "$LIB_TMP/srt.exit"; then
	is "F10 quits, exit 0" "$(cat "$LIB_TMP/srt.exit")" EXIT=0
else
	not_ok "F10 quits, exit 0"
	diag "$(cap srt)"
fi
kill_session srt

# A status line cut with ... is whole in the help (50x12: the panes with no room).
expect notes "50x12: the status line is cut" 'no room: snoop.*(#|\.\.\.) +sort: CPU' 8
key notes h
key notes End
expect notes "50x12: the help has the status line's notes" '^ the status line *$'
expect notes "50x12: ... whole" '^   no room: snoop, offcore \(a taller terminal, or *$'
key notes x
quit notes "50x12"

# Exporting and recording are said in the header: the port bound (--listen 0
# too), the file and its size; shorter where the line is short.
expect io200 "200x50: the header says serving, with the port bound" \
	'^ PMU v.* serving http://127\.0\.0\.1:[1-9][0-9]*/metrics  recording '
expect io200 "200x50: ... and recording, the file and its size" \
	"recording $LIB_TMP/io200\\.lrec [0-9.]+[kMG]?\$"
expect io80 "80x24: the header says serving :PORT and recording, the file cut" \
	'^ PMU v.*  serving :[1-9][0-9]*  recording \.\.\.[^ ]*io80\.lrec [0-9.]+[kMG]?$'
quit io80 "80x24 --listen --record"
quit io200 "200x50 --listen --record"
quit hidecol "--hide"

# The help's columns are the table's: each column with a screen header in the
# man page's COLUMNS is on the help, that header then its help's words.
expect helpcols "200x80: first frame drawn" 'sort: CPU' 8
key helpcols h
expect helpcols "200x80: the help opens" '^ *lattop keys'
mandoc -Tascii -O width=300 man/lattop.1 | col -b | awk '/^COLUMNS/ { f = 1; next } f && /^[A-Z]/ { exit }
	f && / screen [^ ,:]+[,:]/ { h = $0; sub(/.* screen /, "", h); sub(/[,:].*/, "", h)
		d = $0; sub(/^[^:]*: /, "", d); sub(/\.$/, "", d); print h "\t" substr(d, 1, 40) }' >$LIB_TMP/helpcols
_hc_n=0 _hc_bad=""
while IFS="$(printf '\t')" read -r _hc_h _hc_d; do
	# GHz and IPC are on the screen only when --show names them.
	case $_hc_h in GHz|IPC) continue ;; esac
	_hc_n=$((_hc_n + 1))
	capraw helpcols | grep -qF -- "$(printf '   %-12s %s' "$_hc_h" "$_hc_d")" || _hc_bad="$_hc_bad $_hc_h"
done <$LIB_TMP/helpcols
is "the help lists each screen column of COLUMNS with its help" "$_hc_bad" ""
check "... $_hc_n of them" test $_hc_n -ge 10
key helpcols x
quit helpcols "200x80"

# The sort column never stays in a hidden pane; the last pane shown stays, and says why.
expect hide "hide: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
sort_to hide HITM/s
key hide 2
expect_gone hide "2 with the sort in the snoop pane: the pane goes" '^ Snoop'
eventually 3 "2 with the sort in the snoop pane: sort by CPU again" "sort: CPU" sort_of hide
has "... and the status line says why" "$(status hide)" 'HITM/s is in the hidden snoop pane'
key hide 1
key hide 3
if poll 3 status_shows hide 'offcore pane is the last one shown'; then
	ok "3 on the last pane shown: the status line says why it stays"
else
	not_ok "3 on the last pane shown: the status line says why it stays"
	diag "$(status hide)"
fi
check "3 on the last pane shown: it stays" shows hide '^ Offcore'
# A message goes when what it spoke of changes, not 10 s later.
key hide 1
expect_gone hide "1 then: the message about the last pane goes at once" 'last one shown' 2
quit hide "hide"

# -n 3 on a terminal: the last frame stays on it, as top leaves it.
if poll 10 test -s $LIB_TMP/keep.exit; then
	is "-n 3: exit 0" "$(cat $LIB_TMP/keep.exit)" EXIT=0
	is "-n 3: the alternate screen is left" "$(tm display -p -t keep '#{alternate_on}')" 0
	_k=$(cap keep)
	has "-n 3: the last frame stays on the terminal" "$_k" '^ PMU v3, 4 GP'
	has "-n 3: ... with its panes" "$_k" '^ Offcore '
	has "-n 3: ... and its numbers" "$_k" '^total +[0-9.]+[kMG]? '
else
	not_ok "-n 3: lattop ends by itself"
fi
kill_session keep

# NO_COLOR set but empty keeps colour (no-color.org).
expect nocolor0 "NO_COLOR=: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
check "NO_COLOR= (empty): colour is sent" test -n "$(sgr_colours $LIB_TMP/nocolor0.raw)"
quit nocolor0 "NO_COLOR="

# --format on a terminal means --batch: JSON, not the screen.
if poll 8 test -s $LIB_TMP/json.exit; then
	is "--format json on a terminal: exit 0" "$(cat $LIB_TMP/json.exit)" EXIT=0
	check "--format json on a terminal: a JSON snapshot" grep -q '^{"source":"simulator"' $LIB_TMP/json.raw
	is "--format json on a terminal: no screen" "$(non_ascii $LIB_TMP/json.raw)" 0
else
	not_ok "--format json on a terminal: lattop ends by itself"
fi
kill_session json

# -d 3600: numbers within a second or so, saying how long they covered;
# a new interval or new thresholds apply at once.
expect slow "-d 3600: first numbers within seconds" '(^|\|)total +[0-9.]+[kMG]? ' 5
has "-d 3600: the status line says how long they covered" "$(status slow)" \
	'first numbers, over 1\.0 s; then every 3600 s'
key slow -
expect slow "- from 3600: interval 60s" '^ lattop .*interval 60\.0s'
if poll 5 status_shows slow 'then every 60 s'; then
	ok "- from 3600: new numbers within seconds, not an hour"
else
	not_ok "- from 3600: new numbers within seconds, not an hour"
	diag "$(status slow)"
fi
key slow t
poll 3 prompting slow
key slow C-u
key slow -l '12,40'
key slow Enter
eventually 5 "t 12,40 at -d 60: the new thresholds within seconds" ">12 >40" thresholds slow
for k in 1 2 3 4 5 6 7 8; do
	key slow -
done
expect slow "- down to 0.1 s at once" '^ lattop .*interval 0\.1s'
check "at 0.1 s the numbers move at once" changes slow 3
quit slow "-d 3600"

# Ctrl-C: the terminal back, then lattop dies of SIGINT as shells expect (130).
expect cc "Ctrl-C: first frame drawn" '(^|\|)total +[0-9.]+[kMG]? ' 8
key cc C-c
if poll 5 test -s $LIB_TMP/cc.status; then
	is "Ctrl-C: exit status 130" "$(cat $LIB_TMP/cc.status)" EXIT=130
	is "Ctrl-C: the alternate screen is left" "$(tm display -p -t cc '#{alternate_on}')" 0
else
	not_ok "Ctrl-C: lattop ends"
fi
kill_session cc

# Ctrl-Z: lattop stops with the terminal given back; fg draws it again.
# lattop_state NAME: the state of lattop on the session's terminal (T: stopped).
lattop_state() {
	_tty=$(tm display -p -t "$1" '#{pane_tty}')
	ps -t "${_tty#/dev/}" -o stat=,comm= | awk '$2 == "lattop" { print substr($1, 1, 1) }'
}
not_stopped() {
	_st=$(lattop_state "$1")
	[ -n "$_st" ] && [ "$_st" != T ]
}
lattop_gone() {
	[ -z "$(lattop_state "$1")" ]
}
# ctrl_z NAME WHAT ERE: ERE is on the screen while lattop runs.
ctrl_z() {
	expect "$1" "$2: first frame drawn" "$3" 8
	key "$1" C-z
	eventually 5 "$2: Ctrl-Z stops lattop" T lattop_state "$1"
	is "$2: Ctrl-Z leaves the alternate screen" "$(tm display -p -t "$1" '#{alternate_on}')" 0
	expect "$1" "$2: Ctrl-Z gives the shell its prompt" "${PS1_MARK% }"
	key "$1" -l fg
	key "$1" Enter
	check "$2: fg: lattop runs again" poll 5 not_stopped "$1"
	expect "$1" "$2: fg: the screen is drawn again" "$3"
	is "$2: fg: on the alternate screen" "$(tm display -p -t "$1" '#{alternate_on}')" 1
	key "$1" q
	check "$2: q after fg: lattop is gone" poll 5 lattop_gone "$1"
	kill_session "$1"
}
ctrl_z zz "measuring" 'sort: CPU'
expect zr "replay: first frame drawn" ' lattop .*REPLAY' 8
key zr h
expect zr "replay: the help opens" '^ *lattop keys'
listed "replay: help" $LIB_TMP/keys.replay "$(cap zr)"
hasnt "replay: help: the display's pause is not listed" "$(cap zr)" 'pause or resume the display'
key zr x
ctrl_z zr "replaying" ' lattop .*REPLAY'
for s in s40 s50 s60; do
	quit $s $s
done

# ---- a crash gives the terminal back too ----
# The crash handler (SIGSEGV here) restores the terminal with
# async-signal-safe calls before dying of the signal.
screen_has() {
	cap "$1" | grep -qF -- "$2"
}
start crash 80 24 "./lattop --simulate haswell -d 0.5 --thresholds 9,99"
# The lattop to kill is the pane shell's child, not any lattop with the same
# command line: other suites may run beside this one on a shared machine.
if poll 20 screen_has crash "Load latency"; then
	kill -SEGV "$(pgrep -n -P "$(tm display -p -t crash '#{pane_pid}')" lattop)"
	poll 5 test -s $LIB_TMP/crash.exit
	is "crash: lattop died of SIGSEGV" "$(cat $LIB_TMP/crash.exit 2>/dev/null)" "EXIT=139"
	is "crash: the alternate screen is left" "$(tm display -p -t crash '#{alternate_on}')" 0
	key crash -l 'echo typed-after-crash'
	key crash Enter
	# With ECHO left off, the output would show but not what was typed.
	if poll 3 screen_has crash "echo typed-after-crash"; then
		ok "crash: the terminal echoes again (its modes restored)"
	else
		not_ok "crash: the terminal echoes again (its modes restored)"
		diag "$(cap crash)"
	fi
else
	not_ok "crash: the screen came up"
fi
kill_session crash

# ---- closing the terminal on the msr stand-in ----

if ! have_fuse; then
	skip "msr stand-in: no FUSE here: $LIB_WHY"
elif [ ! -x "$LIB_MSRFS" ]; then
	skip "msr stand-in: $LIB_MSRFS not built (make tests)"
elif ! msrfs_mount $M --simulate haswell; then
	not_ok "msr stand-in: mount"
else
	mkdir -m 700 $LIB_TMP/state
	regs_snapshot $M $LIB_TMP/before
	# Sanitized builds: no leak check on this path (see quit()).
	nolsan=""
	[ -n "$LATTOP_SANITIZED" ] && nolsan="env ASAN_OPTIONS=\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0 "
	start msr 80 24 "sh -c 'echo \$\$ >$LIB_TMP/msr.pid; exec $nolsan./lattop --msr-dir $M --cpuid-file $HSW --state-dir $LIB_TMP/state -d 0.2'"
	expect msr "msr stand-in: the screen shows measurements" '(^|\|)total +[0-9.]+[kMG]? ' 8
	_h=$(cap msr | head -n 1)
	has "msr stand-in: header names the CPU" "$_h" '^ lattop .*Haswell'
	hasnt "msr stand-in: not SIMULATED" "$_h" SIMULATED
	check "msr stand-in: lattop wrote registers" test "$(grep -c '^W ' $M/log)" -gt 0
	pid=$(cat $LIB_TMP/msr.pid 2>/dev/null)
	check "msr stand-in: lattop runs (pid $pid)" alive "$pid"
	kill_session msr        # the terminal goes: SIGHUP
	check "msr stand-in: lattop is gone after its terminal closed" poll 5 gone "$pid"
	if [ -s $LIB_TMP/state/journal ]; then
		not_ok "msr stand-in: no journal left behind"
		diag "$(head -n 5 $LIB_TMP/state/journal)"
	else
		ok "msr stand-in: no journal left behind"
	fi
	regs_snapshot $M $LIB_TMP/after
	if cmp -s $LIB_TMP/before $LIB_TMP/after; then
		ok "msr stand-in: every register as it was before"
	else
		not_ok "msr stand-in: every register as it was before"
		diag "$(diff $LIB_TMP/before $LIB_TMP/after | head -20)"
	fi
	msrfs_umount $M
fi

# ---- the perf backend as root: root given up, CAP_PERFMON kept ----
# Once the events are open lattop needs nothing of root but the capability
# that opens them again; new thresholds reopen every event (the simulated
# kernel asks for the capability at each open, as the kernel does).
if [ "$(id -u)" -ne 0 ]; then
	skip "perf backend as root: not root here"
else
	nolsan=""
	[ -n "$LATTOP_SANITIZED" ] && nolsan="env ASAN_OPTIONS=\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0 "
	start perf 80 24 "sh -c 'echo \$\$ >$LIB_TMP/perf.pid; exec env -u SUDO_UID -u SUDO_GID $nolsan./lattop --simulate haswell --backend perf -d 0.3'"
	expect perf "perf as root: the screen shows measurements" '(^|\|)total +[0-9.]+[kMG]? ' 8
	has "perf: the header says which backend measured" "$(cap perf | head -n 1)" \
		'^ lattop  SIMULATED  Haswell  through perf '
	pid=$(cat $LIB_TMP/perf.pid 2>/dev/null)
	is "perf as root: lattop runs as nobody" "$(awk '/^Uid:/ { print $2, $3, $4 }' /proc/$pid/status)" \
		"65534 65534 65534"
	is "perf as root: with CAP_PERFMON alone, effective and permitted" \
		"$(awk '/^Cap(Eff|Prm):/ { printf "%s ", $2 }' /proc/$pid/status)" "0000004000000000 0000004000000000 "
	key perf t
	poll 3 prompting perf
	key perf C-u
	key perf -l '12,40'
	key perf Enter
	eventually 5 "perf as nobody: new thresholds open every event again" ">12 >40" thresholds perf
	expect perf "perf as nobody: measuring at the new thresholds" '(^|\|)total +[0-9.]+[kMG]? +[0-9.]+[kMG]? ' 5
	hasnt "perf as nobody: no refusal on the status line" "$(status perf)" 'refuses|EACCES|denied'
	key perf q
	check "perf as root: lattop ends on q" poll 5 gone "$pid"
fi

tap_done
