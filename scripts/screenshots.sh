#!/bin/sh
# screenshots.sh (`make screenshots`): PNG pictures of lattop's screen from
# real runs on the simulator, drawn by a real terminal: xterm on a virtual X
# server (Xvfb), grabbed with ImageMagick's import.
#
#	screenshots/lattop-80x24.png    the smallest screen, every pane visible
#	screenshots/lattop-200x50.png   a large one
#	screenshots/lattop-replay.png   a recording replayed (--replay), at 120x28
#	screenshots/lattop-history.png  the history view ('H', sent with xdotool), 200x50, -d 0.1
#
# Both run `lattop --simulate haswell` on the builtin profile, whose cpu 3
# has a HITM burst 8 to 12 s into every 20 s: the pictures are taken 11.5 s
# in, so the HITM sparklines show the burst rising out of a flat line.  The
# replay is of 40 snapshots recorded first; it has played to its last and
# stopped there, paused, when the picture is taken.
# Installs what it needs (Debian packages) through scripts/deps.sh.  Re-runnable;
# the X server and the terminals it started are stopped on exit, whatever
# happens.  Owns screenshots/*.png; touches nothing else.
cd "$(dirname "$0")/.." || exit 2

AT=${LATTOP_SHOT_AT:-11.5}      # seconds after lattop starts
PKGS="xvfb xterm imagemagick fonts-dejavu-core xdotool"

sh scripts/deps.sh $PKGS || exit 1
[ -x ./lattop ] || { echo "screenshots: build lattop first (make lattop)" >&2; exit 1; }
# /usr/local/bin may hold a stand-in named convert: call ImageMagick by path.
IMPORT=/usr/bin/import
[ -x $IMPORT ] || { echo "screenshots: $IMPORT missing (apt-get install imagemagick)" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/lattop-shots.XXXXXX") || exit 2
XPID=""
TERMS=""        # pids of the xterms started here

cleanup() {
	for p in $TERMS; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in $TERMS; do
		wait "$p" 2>/dev/null
	done
	if [ -n "$XPID" ]; then
		kill -TERM "$XPID" 2>/dev/null
		wait "$XPID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wait_file FILE SECS: until FILE is non-empty; 1 after SECS seconds.
wait_file() {
	_i=0
	while [ ! -s "$1" ]; do
		_i=$((_i + 1))
		[ $_i -gt $(($2 * 10)) ] && return 1
		sleep 0.1
	done
	return 0
}

# A display of its own: Xvfb picks a free number and writes it to fd 3.
Xvfb -displayfd 3 -screen 0 3800x1600x24 -nolisten tcp -nolisten unix 3>"$TMP/display" \
	>"$TMP/xvfb.log" 2>&1 &
XPID=$!
if ! wait_file "$TMP/display" 10; then
	# Some builds cannot drop the unix socket listener: try with it.
	kill "$XPID" 2>/dev/null
	wait "$XPID" 2>/dev/null
	Xvfb -displayfd 3 -screen 0 3800x1600x24 -nolisten tcp 3>"$TMP/display" \
		>"$TMP/xvfb.log" 2>&1 &
	XPID=$!
	wait_file "$TMP/display" 10 || { echo "screenshots: Xvfb did not start:" >&2;
		cat "$TMP/xvfb.log" >&2; exit 1; }
fi
DISPLAY=:$(head -n 1 "$TMP/display")
export DISPLAY

# shot_start NAME COLS ROWS X Y [LATTOP ARGS...]: start lattop in an xterm of
# COLS x ROWS at X, Y on the display (the windows must not overlap: import
# reads the screen); by default on the simulator.
shot_start() {
	_name=$1 _cols=$2 _rows=$3 _x=$4 _y=$5
	shift 5
	[ $# -gt 0 ] || set -- --simulate haswell -d 0.5
	# The xterm tells its window id through $WINDOWID, then becomes lattop.
	LANG=C.UTF-8 LC_ALL=C.UTF-8 xterm -geometry "${_cols}x${_rows}+${_x}+${_y}" \
		-fa 'DejaVu Sans Mono' -fs 11 \
		-bg '#101010' -fg '#d8d8d8' -cr '#101010' +sb -b 4 -u8 -tn xterm-256color \
		-xrm 'XTerm*allowSendEvents: true' -T "lattop ${_cols}x${_rows}" -e sh -c 'echo "$WINDOWID" >"$1"; shift; exec "$@"' sh \
		"$TMP/$_name.wid" ./lattop "$@" >"$TMP/$_name.log" 2>&1 &
	TERMS="$TERMS $!"
	echo $! >"$TMP/$_name.pid"
}

shot_take() {
	if ! wait_file "$TMP/$1.wid" 10; then
		echo "screenshots: the xterm for $1 did not start:" >&2
		cat "$TMP/$1.log" >&2
		return 1
	fi
	if ! kill -0 "$(cat "$TMP/$1.pid")" 2>/dev/null; then
		echo "screenshots: lattop in the $1 xterm ended early:" >&2
		cat "$TMP/$1.log" >&2
		return 1
	fi
	"$IMPORT" -window "$(cat "$TMP/$1.wid")" "$TMP/$1.png" || return 1
	# A blank or two-colour picture means the screen was not drawn.
	_colours=$(/usr/bin/identify -format '%k' "$TMP/$1.png" 2>/dev/null)
	if [ "${_colours:-0}" -lt 8 ]; then
		echo "screenshots: $1: the picture has ${_colours:-no} colours: not the screen" >&2
		return 1
	fi
	mv "$TMP/$1.png" "screenshots/lattop-$1.png" && echo "screenshots/lattop-$1.png"
}

mkdir -p screenshots
./lattop --simulate haswell -b -n 40 -d 0.1 --format csv --record "$TMP/r.lrec" >/dev/null ||
	{ echo "screenshots: recording failed" >&2; exit 1; }
shot_start 80x24 80 24 0 0
shot_start 200x50 200 50 0 520
shot_start replay 120 28 800 0 --replay "$TMP/r.lrec"
shot_start history 200 50 1950 0 --simulate haswell -d 0.1
sleep "$AT"
# The history view, a key away: sent to its xterm (allowSendEvents), then drawn.
wait_file "$TMP/history.wid" 10 && xdotool key --window "$(cat "$TMP/history.wid")" H
sleep 1
rc=0
shot_take 80x24 || rc=1
shot_take 200x50 || rc=1
shot_take replay || rc=1
shot_take history || rc=1
exit $rc
