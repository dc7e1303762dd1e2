#!/bin/sh
# screen_bytes.sh: bytes the interactive screen writes per steady refresh,
# beside htop in the same geometry (issue 19: no more than htop at 80x24 and
# 200x50).  Not a test: the figures depend on the machine (htop's on what
# runs there), so it prints them and judges nothing.
#
#	sh bench/screen_bytes.sh [LATTOP]      (default ./lattop)
#
# Each program runs in a tmux pane of its own (TERM=xterm-256color, UTF-8);
# the bytes are what it wrote to the pane (tmux pipe-pane) over WINDOW
# seconds, divided by the refreshes in them (one a second: lattop -d 1,
# htop -d 10).  lattop is measured twice: 3 s after starting (the history
# below the panes nearly empty, as bench.sh section 3 measures it), and
# once the history is full (run at -d 0.1 until it is, then + to 1 s), its
# worst steady case: every graph column shifts each refresh.
cd "$(dirname "$0")/.." || exit 2
LATTOP=${1:-./lattop}
WINDOW=${WINDOW:-10}
SOCK=lattop-bytes-$$
T=$(mktemp -d "${TMPDIR:-/tmp}/lattop-bytes.XXXXXX") || exit 2
trap 'tmux -L $SOCK kill-server 2>/dev/null; rm -rf "$T"' EXIT
export TERM=xterm-256color LANG=C.UTF-8

# measure GEOMETRY WARM KEYS COMMAND: bytes per second over WINDOW seconds,
# after WARM seconds and KEYS (sent one a 0.3 s, "" for none).
measure() {
	tmux -L $SOCK kill-server 2>/dev/null
	tmux -L $SOCK -f /dev/null new-session -d -s b -x ${1%x*} -y ${1#*x} "exec $4"
	sleep $2
	for k in $3; do
		tmux -L $SOCK send-keys -t b "$k"
		sleep 0.3
	done
	sleep 2
	: >$T/pipe
	tmux -L $SOCK pipe-pane -t b -o "cat >>$T/pipe"
	sleep $WINDOW
	tmux -L $SOCK pipe-pane -t b
	tmux -L $SOCK kill-server 2>/dev/null
	echo $(($(wc -c <$T/pipe) / WINDOW))
}

echo "| program | 80x24 bytes/refresh | 200x50 bytes/refresh |"
echo "|---|---|---|"
row() {
	printf '| %s | %s | %s |\n' "$1" "$(measure 80x24 "$2" "$3" "$4")" "$(measure 200x50 "$2" "$3" "$4")"
}
row "lattop, 3 s in" 1 "" "$LATTOP --simulate haswell -d 1"
row "lattop, history full" 30 "+ + +" "$LATTOP --simulate haswell -d 0.1"
if command -v htop >/dev/null 2>&1; then
	row "htop -d 10" 1 "" "htop -d 10"
else
	echo "| htop | not installed | not installed |"
fi
