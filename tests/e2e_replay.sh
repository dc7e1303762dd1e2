#!/bin/sh
# e2e_replay.sh: --replay on the screen, driven through tmux at 80x24 and
# 200x50: the REPLAY label with the recorded time of the snapshot shown,
# where the replay is in the header ("frame 11 of 20, ..."),
# space pausing, Left and Right stepping one snapshot, g jumping to a time,
# + and - the speed, c and t refused with a message, the rows of every
# CPU, q giving the terminal back.  The times expected are those the
# recording's own --format json replay prints.
cd "$(dirname "$0")/.." && . tests/lib.sh

L=./lattop
T=$LIB_TMP
SOCK=lattop-replay-$$

if ! command -v tmux >/dev/null 2>&1; then
	skip "no tmux here (apt-get install tmux)"
	tap_done
	exit 0
fi
# A tmux server of its own per session: a new one never races the one dying.
tm() {
	env -u TMUX tmux -L "$SOCK" -f /dev/null "$@"
}
SOCKS=""
start() {   # NAME WIDTH HEIGHT COMMAND
	SOCK=lattop-replay-$$-$1
	SOCKS="$SOCKS $SOCK"
	tm new-session -d -s rp -x $2 -y $3 "$4"
}
trap 'for s in $SOCKS; do env -u TMUX tmux -L $s kill-server 2>/dev/null; tmux_sock_rm $s; done; lib_cleanup' EXIT

# 20 snapshots 0.2 s apart; their times, seconds into the (UTC) day.
$L --simulate haswell -b -n 20 -d 0.2 --format json --record $T/r.lrec >/dev/null
$L --replay $T/r.lrec --format json | jq -r .time |
	awk '{ printf "%.3f\n", $1 - int($1 / 86400) * 86400 }' >$T/times

# The recorded time the header shows, seconds into the day.
shown() {
	tm capture-pane -p -t rp 2>/dev/null | head -1 | grep -o '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]' |
		awk -F'[:.]' '{ printf "%.1f\n", $1 * 3600 + $2 * 60 + $3 + $4 / 10 }'
}

# The index (1-based) of the snapshot whose time the header shows, 0 if none.
index_shown() {
	awk -v t="$(shown)" 'BEGIN { i = 0 } { if (t != "" && $1 - t >= 0 && $1 - t < 0.1001) { print NR; found = 1; exit } }
		END { if (!found) print 0 }' $T/times
}

# wait_for TEXT: until the pane shows it (3 s at most).
wait_for() {
	_n=30
	while [ $_n -gt 0 ]; do
		tm capture-pane -p -t rp 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# jump TIME: g, then TIME typed at its prompt.
jump() {
	tm send-keys -t rp g
	wait_for "jump to: " >/dev/null
	tm send-keys -t rp "$1" Enter
}

# inside: k, the snapshot shown, has one before and one after it to go to.
inside() {
	k=$(index_shown)
	[ "$k" -ge 3 ] && [ "$k" -lt 20 ]
}

for geom in 80x24 200x50; do
	w=${geom%x*} h=${geom#*x}
	start $geom $w $h "TZ=UTC $L --replay $T/r.lrec; echo lattop-exited; sleep 30"
	check "$geom: the REPLAY label" wait_for "REPLAY"
	tm send-keys -t rp ' '
	check "$geom: space pauses" wait_for "REPLAY PAUSED"
	k=$(index_shown)
	check "$geom: the time shown is a recorded snapshot's ($k)" test "$k" -gt 0
	# Somewhere inside, so that both steps have a snapshot to go to.
	if [ "$k" -lt 3 ] || [ "$k" -ge 20 ]; then
		jump +1
		poll 5 inside
	fi
	tm send-keys -t rp Right
	eventually 5 "$geom: Right: the next snapshot" $((k + 1)) index_shown
	tm send-keys -t rp Left Left
	eventually 5 "$geom: Left Left: two back" $((k - 1)) index_shown
	tm send-keys -t rp g
	check "$geom: g asks for a time" wait_for "jump to: "
	tm send-keys -t rp '+2' Enter
	eventually 5 "$geom: g +2: the first snapshot 2 s in" 11 index_shown
	jump yesterday
	check "$geom: g with a bad time: said" wait_for "not a time"
	is "$geom: g with a bad time: stays" "$(index_shown)" 11
	tm send-keys -t rp +
	check "$geom: + plays faster" wait_for "x2"
	tm send-keys -t rp - - -
	check "$geom: - - - plays slower" wait_for "x1/4"
	tm send-keys -t rp c
	check "$geom: c: per-CPU rows only, said" wait_for "per-CPU rows only"
	if [ $w -ge 200 ]; then
		check "$geom: the position right of the PMU line" \
			sh -c "env -u TMUX tmux -L $SOCK capture-pane -p -t rp | sed -n 2p | grep -qE '^ PMU .* frame 11 of 20, [0-9:]{8} of [0-9:]{8}-[0-9:]{8}\$'"
	fi
	if [ $h -ge 50 ]; then
		n=$(tm capture-pane -p -t rp | grep -cE '^ +[0-7] ')
		check "$geom: every CPU's row in the panes ($n)" test "$n" -ge 8
	fi
	tm send-keys -t rp q
	check "$geom: q quits" wait_for "lattop-exited"
	tm kill-server 2>/dev/null
done

# Played to the end, it stays there, and says it is the end, not a pause.
start end 80 24 "TZ=UTC $L --replay $T/r.lrec --begin +3; echo lattop-exited; sleep 30"
sleep 0.5
tm send-keys -t rp + + +
check "played to the end: said as the end" wait_for "the end of the recording"
# The position is the header's (issue 20): at 80x24 on a line of its own under the PMU line.
check "played to the end: the header says frame 20 of 20 and the recording's times" \
	sh -c "env -u TMUX tmux -L $SOCK capture-pane -p -t rp | sed -n 2,3p | grep -qE '^ frame 20 of 20, [0-9:]{8} of [0-9:]{8}-[0-9:]{8}'"
is "... not on the status line" "$(tm capture-pane -p -t rp | tail -1 | grep -c 'frame 20')" 0
is "played to the end: the last snapshot" "$(index_shown)" 20
is "... not said as a pause" "$(tm capture-pane -p -t rp | head -1 | grep -c PAUSED)" 0
jump +3600
check "g past the end: said" wait_for "past the end: the recording ends at "
is "... the last snapshot shown" "$(index_shown)" 20
tm send-keys -t rp Left
check "Left: the header's position, frame 19 of 20, and the recording's times" \
	sh -c "env -u TMUX tmux -L $SOCK capture-pane -p -t rp | sed -n 2,3p | grep -qE 'frame 19 of 20, [0-9:]{8} of [0-9:]{8}-[0-9:]{8}'"
tm send-keys -t rp q
wait_for "lattop-exited" >/dev/null
tm kill-server 2>/dev/null

# The speed is what the header says: at x64, drawing does not hold the replay back
# (snapshots it cannot keep up with are skipped).  120 snapshots, 6 s: 0.1 s at x64.
$L --simulate haswell -c 0-3 -b -n 120 -d 0.05 --format json --record $T/fast.lrec >/dev/null 2>&1
start fast 80 24 "TZ=UTC $L --replay $T/fast.lrec; echo lattop-exited; sleep 30"
wait_for "REPLAY" >/dev/null
t0=$(date +%s.%N)
tm send-keys -t rp + + + + + +
wait_for "the end of the recording" >/dev/null
t1=$(date +%s.%N)
took=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
check "x64: a 6 s recording plays in well under a second and a half ($took s)" \
	awk -v t="$took" 'BEGIN { exit !(t < 1.5) }'
tm send-keys -t rp q
wait_for "lattop-exited" >/dev/null
tm kill-server 2>/dev/null

# Not a terminal: printed as --batch would, not the screen.
$L --replay $T/r.lrec </dev/null >$T/out
is "--replay without a terminal: the text snapshots" "$(grep -c '^total' $T/out)" 20

tap_done
