#!/bin/sh
# e2e_history.sh: the history view ('H'), driven through tmux: at 200x50 it
# fills the screen (a heat map line per threshold, HITM/s, Hit/s and the
# offcore latency as graphs, the axis with the frames and the time they
# span), at 80x24 it is one key away; Up and Down choose the row (the total,
# a CPU, a core with 'c'), Enter goes back to the panes; new thresholds
# start series of their own beside the old ones; --ascii sends no byte
# outside ASCII and --no-color no colour, the shades still telling levels
# apart.  Every session has a tmux server of its own, killed on exit.
cd "$(dirname "$0")/.." && . tests/lib.sh

L=./lattop
ESC=$(printf '\033')
if ! command -v tmux >/dev/null 2>&1; then
	skip "no tmux here (apt-get install tmux)"
	tap_done
	exit 0
fi
SOCK=""
SOCKS=""
tm() {
	env -u TMUX tmux -L "$SOCK" -f /dev/null "$@"
}
# start NAME WIDTH HEIGHT COMMAND: the pane's output also kept byte for byte.
start() {
	SOCK=lattop-hist-$$-$1
	SOCKS="$SOCKS $SOCK"
	: >"$LIB_TMP/$1.raw"
	tm new-session -d -s h -x $2 -y $3 "env -u NO_COLOR LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color $4; echo lattop-exited; sleep 30"
	tm pipe-pane -t h -o "cat >>'$LIB_TMP/$1.raw'"
}
trap 'for s in $SOCKS; do env -u TMUX tmux -L $s kill-server 2>/dev/null; tmux_sock_rm $s; done; lib_cleanup' EXIT

pane() {
	tm capture-pane -p -t h 2>/dev/null
}
# wait_for TEXT: until the pane shows it (5 s at most).
wait_for() {
	_n=50
	while [ $_n -gt 0 ]; do
		pane | grep -qF -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# ---- 200x50 ----
start big 200 50 "$L --simulate haswell -d 0.1"
wait_for "total" >/dev/null
sleep 2
tm send-keys -t h H
check "200x50: H: the history of the total" wait_for "History of the total"
pane >$LIB_TMP/big
for t in 8 16 32 64 128 256 512; do
	grep -qE "^ +>$t( |$)" $LIB_TMP/big || not_ok "200x50: a heat map line for >$t"
done
ok "200x50: a heat map line per threshold"
for g in "HITM/s" "Hit/s" "Lat(cyc)"; do
	check "200x50: the $g graph" grep -qF " $g" $LIB_TMP/big
done
check "200x50: the axis: frames and their span" grep -qE '[0-9]+ frames over [0-9.]+s' $LIB_TMP/big
n=$(awk '/^ HITM\/s/ { a = NR } /frames over/ { b = NR } END { print b - a }' $LIB_TMP/big)
check "200x50: the graphs fill the screen ($n lines from the first to the axis)" test "$n" -ge 30
check "200x50: some of it drawn" test "$(grep -c '█' $LIB_TMP/big)" -ge 3
check "200x50: the scale: a maximum and a base on each graph" \
	test "$(grep -cE '^ +[0-9.]+[kMG]?( |$)' $LIB_TMP/big)" -ge 6
# The offcore latency varies by a few percent: its axis does not start at 0, and says where.
base=$(awk '/^ Lat\(cyc\)/ { f = 1; next } f && /frames/ { exit } f && $1 ~ /^[0-9.]+[kMG]?$/ { b = $1 } END { print b }' $LIB_TMP/big)
check "200x50: Lat(cyc), varying little: the axis starts at $base, not 0" test -n "$base" -a "$base" != 0
tm send-keys -t h Down
check "200x50: Down: cpu 0" wait_for "History of cpu 0"
tm send-keys -t h Down
check "200x50: Down: cpu 1" wait_for "History of cpu 1"
tm send-keys -t h Up Up Up
check "200x50: Up: the total again" wait_for "History of the total"
tm send-keys -t h c Down
check "200x50: per core, Down: the first core" wait_for "History of core 0/0"
tm send-keys -t h c Up
# New thresholds: a series of its own, the old ones kept.
tm send-keys -t h t
wait_for "thresholds: " >/dev/null
tm send-keys -t h C-u "8,100" Enter
series_100() {
	pane | grep -qE '^ +>100 '
}
poll 5 series_100
pane >$LIB_TMP/big2
check "new thresholds: >100 has its own series" grep -qE '^ +>100 ' $LIB_TMP/big2
check "new thresholds: the old >512 series stays" grep -qE '^ +>512( |$)' $LIB_TMP/big2
tm send-keys -t h Enter
check "Enter: back to the panes" wait_for "Loads/s"
tm send-keys -t h q
wait_for "lattop-exited" >/dev/null
check "200x50: colour sent" test -n "$(LC_ALL=C grep -a -o "$ESC\\[[0-9;:]*m" $LIB_TMP/big.raw | grep -E '3[0-8]|4[0-8]')"

# ---- small screens: the title and the legend never over one another ----
for size in "60 20" "40 10"; do
	set -- $size
	start s$1 $1 $2 "$L --simulate haswell -d 0.1"
	wait_for "total" >/dev/null
	sleep 1
	tm send-keys -t h H
	check "$1x$2: H: the history view" wait_for "History of the total"
	pane | LC_ALL=C.UTF-8 sed 's/[^ -~]/#/g' >$LIB_TMP/s$1
	check "$1x$2: the title whole, the keys beside it only where they fit" \
		grep -qE '^ History of the total( +(Up Down: another row  H: back|H: back))? *$' $LIB_TMP/s$1
	check "$1x$2: the legend whole, the words before it only where they fit" \
		grep -qE '^ *(Load latency: share of loads slower than N|Loads slower than N)? +# 50%\+ # 15% # 5% # 1% \. >0 *$' $LIB_TMP/s$1
	tm send-keys -t h q
	wait_for "lattop-exited" >/dev/null
done

# ---- 80x24, --ascii, --no-color ----
start small 80 24 "$L --simulate haswell -d 0.1 --ascii --no-color"
wait_for "total" >/dev/null
sleep 1.5
tm send-keys -t h H
check "80x24: H: the history view" wait_for "History of the total"
sleep 0.5
pane >$LIB_TMP/small
check "80x24: the >8 heat map line" grep -qE '^ +>8 ' $LIB_TMP/small
check "80x24: the HITM/s graph" grep -qF "HITM/s" $LIB_TMP/small
check "80x24: the Lat(cyc) graph" grep -qF "Lat(cyc)" $LIB_TMP/small
shades=$(grep -E '^ +>[0-9]+ ' $LIB_TMP/small | cut -c11- | grep -o '[.:+*#]' | sort -u | wc -l)
check "--no-color: the shades still tell levels apart ($shades)" test "$shades" -ge 2
tm send-keys -t h q
wait_for "lattop-exited" >/dev/null
is "--ascii: no byte outside ASCII" "$(LC_ALL=C tr -d '\000-\177' <$LIB_TMP/small.raw | wc -c | tr -d ' ')" 0
is "--no-color: no colour sent" \
	"$(LC_ALL=C grep -a -o "$ESC\\[[0-9;:]*m" $LIB_TMP/small.raw | LC_ALL=C tr -d "${ESC}[m" |
	   tr ';:' '\n\n' | grep -cE -x '3[0-8]|4[0-8]|9[0-7]|10[0-7]')" 0

tap_done
