#!/bin/sh
# e2e_record.sh: --record and --replay on the simulator.  A run recorded
# while it prints --batch is printed again by --replay byte for byte, in
# json, csv and text; --begin/--end and -n choose snapshots; --record
# without a terminal records quietly; a recording killed with SIGKILL, or
# cut in its last frame, replays what it holds and says what it skipped;
# --record-max rotates and keeps every snapshot; bad values and foreign
# files get a one-line error, exit status 2, and change nothing.
cd "$(dirname "$0")/.." && . tests/lib.sh

L=./lattop
T=$LIB_TMP
SIM="--simulate haswell --sim-profile tests/profiles/truth.prof"

# ---- round trip ----
for fmt in json csv text; do
	rm -f $T/rt.lrec
	$L $SIM -b -n 6 -d 0.05 --format $fmt --record $T/rt.lrec >$T/live.$fmt 2>$T/err
	$L --replay $T/rt.lrec --format $fmt >$T/replay.$fmt 2>>$T/err
	if [ -s $T/live.$fmt ] && cmp -s $T/live.$fmt $T/replay.$fmt; then
		ok "round trip, $fmt: the replay prints what the live --batch printed"
	else
		not_ok "round trip, $fmt: the replay prints what the live --batch printed"
		diag "$(diff $T/live.$fmt $T/replay.$fmt | head -5)"
		diag "$(cat $T/err)"
	fi
done
is "round trip: 6 snapshots recorded" "$(wc -l <$T/live.json | tr -d ' ')" 6
is "round trip: nothing on standard error" "$(cat $T/err)" ""

# The standard errors, derived from the counts recorded, replay to the last digit too.
rm -f $T/rt.lrec
$L $SIM -b -n 4 -d 0.05 -c 0-2 --show cpu,above,above_stderr --record $T/rt.lrec >$T/live.se
$L --replay $T/rt.lrec --show cpu,above,above_stderr >$T/replay.se
check "round trip, text with se>N: the same" cmp -s $T/live.se $T/replay.se
check "... and the se>N columns are there" grep -q 'se>512' $T/replay.se

# ---- a recording of format version 1 ----
# Written by the lattop before the counts of tagged loads, --thresholds 16
# over truth.prof, when it printed "~Mean 8-21" for a mean of 23.7.  It
# replays: the mean's bounds derived from the recorded shares (open), no
# counts or standard errors, each null with the reason.
V1=tests/fuzz/corpus/record/v1-thresholds16.lrec
$L --replay $V1 --format json >$T/v1.json 2>$T/err
is "version 1: replays, 2 snapshots" "$?/$(wc -l <$T/v1.json | tr -d ' ')" "0/2"
check "version 1: the mean's upper bound open, the lower one below 23.7" \
	jqe -s '[.[] | .total.load_latency | .mean_cycles_max == null and .mean_cycles_min <= 23.7] | all' $T/v1.json
check "version 1: no counts or standard errors, and why" \
	jqe -s '[.[] | .total.load_latency | .tagged_count == null and .above_share_stderr == [null] and (.unsupported.above_share_stderr | test("version 1"))] | all' $T/v1.json
$L --replay $V1 >$T/v1.txt
check "version 1, text: ~Mean >=7, not 8-21" sh -c "grep '^total' $T/v1.txt | grep -q ' >=7 ' && ! grep -q '8-21' $T/v1.txt"
cp $V1 $T/v1.lrec
$L $SIM -n 1 -d 0.05 --record $T/v1.lrec >/dev/null 2>$T/err
is "version 1: not appended to (exit 2)" "$?" 2
check "... saying so" grep -q 'a recording of format version 1, not [0-9]*: left alone' $T/err
check "... and left alone" cmp -s $V1 $T/v1.lrec

# ---- --begin, --end, -n ----
rm -f $T/rt.lrec
$L $SIM -b -n 6 -d 0.05 --format json --record $T/rt.lrec >$T/live.json
set -- $(jq -r .time $T/live.json)
b=$(echo "$2 $3" | awk '{ printf "%.4f", ($1 + $2) / 2 }')
e=$(echo "$4 $5" | awk '{ printf "%.4f", ($1 + $2) / 2 }')
$L --replay $T/rt.lrec --format json --begin "$b" --end "$e" >$T/part.json
sed -n 3,4p $T/live.json >$T/want.json
check "--begin and --end: the snapshots between them, as printed live" cmp -s $T/part.json $T/want.json
$L --replay $T/rt.lrec --format json --begin +0 -n 2 >$T/part.json
sed -n 1,2p $T/live.json >$T/want.json
check "--begin +0 -n 2: the first two snapshots" cmp -s $T/part.json $T/want.json
$L --replay $T/rt.lrec --format json --begin +3600 >$T/part.json 2>$T/err
is "--begin past the end: nothing printed" "$(cat $T/part.json)" ""
check "--begin past the end: said" grep -q "no snapshot between --begin and --end" $T/err

$L --replay $T/rt.lrec --format json >/dev/full 2>$T/err
is "--replay to a full disk: exit status 1" "$?" 1
check "--replay to a full disk: says so" grep -q "No space left on device" $T/err

# ---- quietly, without a terminal ----
rm -f $T/q.lrec
$L --simulate haswell -n 3 -d 0.05 --record $T/q.lrec </dev/null >$T/out 2>&1
is "--record without a terminal or --batch: prints nothing" "$(cat $T/out)" ""
is "--record without a terminal: records every snapshot" \
	"$($L --replay $T/q.lrec --format json | wc -l | tr -d ' ')" 3

# ---- with the screen (tmux): the snapshots shown are recorded ----
if command -v tmux >/dev/null 2>&1; then
	SOCK=lattop-rec-$$
	trap 'env -u TMUX tmux -L $SOCK kill-server 2>/dev/null; tmux_sock_rm $SOCK; lib_cleanup' EXIT
	rm -f $T/s.lrec
	env -u TMUX tmux -L $SOCK -f /dev/null new-session -d -x 80 -y 24 \
		"./lattop --simulate haswell -d 0.1 -n 3 --record $T/s.lrec; sleep 30"
	i=0
	while [ $i -lt 100 ] && [ "$($L --replay $T/s.lrec --format json 2>/dev/null | wc -l)" -lt 3 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	env -u TMUX tmux -L $SOCK capture-pane -p >$T/pane 2>/dev/null
	env -u TMUX tmux -L $SOCK kill-server 2>/dev/null
	tmux_sock_rm $SOCK
	is "the screen with --record: its 3 snapshots recorded" \
		"$($L --replay $T/s.lrec --format json | jq -r .source | sort | uniq -c | tr -s ' ')" \
		" 3 simulator"
	check "the screen with --record: the screen was drawn" grep -q "Load latency" $T/pane
else
	skip "no tmux here (apt-get install tmux)"
fi

# ---- beside --listen, without a terminal: recorded, nothing printed ----
rm -f $T/l.lrec
$L --simulate haswell -n 3 -d 0.05 --listen 127.0.0.1:0 --record $T/l.lrec </dev/null >$T/out 2>/dev/null
is "--record beside --listen: no snapshot printed" "$(grep -c '^{\|^lattop: SIMULATED' $T/out)" 0
is "--record beside --listen: every snapshot recorded" \
	"$($L --replay $T/l.lrec --format json | wc -l | tr -d ' ')" 3

# ---- appending: a second run adds its own header and snapshots ----
$L --simulate haswell -n 2 -d 0.05 --record $T/q.lrec </dev/null >/dev/null 2>&1
is "--record to an existing recording: appends" \
	"$($L --replay $T/q.lrec --format json | wc -l | tr -d ' ')" 5

# ---- csv: a header again where the columns change ----
# Appended sessions with other thresholds (or 't' on the screen) change the columns.
rm -f $T/th.lrec
$L --simulate haswell -c 0-1 -n 2 -d 0.05 --thresholds 16,32 --record $T/th.lrec </dev/null
$L --simulate haswell -c 0-1 -n 2 -d 0.05 --thresholds 8,64,128 --record $T/th.lrec </dev/null
$L --replay $T/th.lrec --format csv >$T/th.csv
is "csv replay of sessions with other thresholds: a header for each set of columns" \
	"$(grep -c '^time,' $T/th.csv)" 2
is "... and every row as many fields as the header above it" \
	"$(awk -F, '/^time,/ { h = NF; next } NF != h { bad++ } END { print bad + 0 }' $T/th.csv)" 0
check "... the second header names the new thresholds" \
	sh -c "grep '^time,' $T/th.csv | tail -1 | grep -q 'above_share.128'"
$L --replay $T/th.lrec --format csv --begin +0 -n 2 >$T/th2.csv
is "... a single session: a single header" "$(grep -c '^time,' $T/th2.csv)" 1

# ---- killed, torn ----
rm -f $T/k.lrec
$L --simulate haswell -b -d 0.05 --format csv --record $T/k.lrec >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$($L --replay $T/k.lrec --format json 2>/dev/null | wc -l)" -lt 5 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
$L --replay $T/k.lrec --format json >$T/k.json 2>$T/err
rc=$?
n=$(wc -l <$T/k.json | tr -d ' ')
is "killed with SIGKILL: the replay succeeds" "$rc" 0
check "killed with SIGKILL: the snapshots written are there ($n)" test "$n" -ge 5
size=$(wc -c <$T/k.lrec)
head -c $((size - 7)) $T/k.lrec >$T/t.lrec
$L --replay $T/t.lrec --format json >$T/t.json 2>$T/err
rc=$?
is "a torn last frame: the replay succeeds" "$rc" 0
is "a torn last frame: every intact frame kept" "$(wc -l <$T/t.json | tr -d ' ')" $((n - 1))
is "a torn last frame: said on standard error" "$(cat $T/err)" \
	"lattop: $T/t.lrec: skipped 1 torn or corrupt frame"

# ---- --record-max ----
# Rotation creates files after lattop gave up root (to nobody here): a directory it may write.
chmod 711 $T
mkdir -p $T/rot && chmod 777 $T/rot
# 25 snapshots: about 7 files of 4k (a frame of version 2 holds the counts of tagged loads too).
$L --simulate haswell -c 0-3 -b -n 25 -d 0.05 --format json --record $T/rot/r.lrec --record-max 4k \
	>$T/live.json
check "--record-max: FILE.1 started" test -f $T/rot/r.lrec.1
total=0 big=0
for f in $T/rot/r.lrec*; do
	total=$((total + $($L --replay $f --format json | wc -l)))
	[ "$(wc -c <$f)" -le 4096 ] || big=$((big + 1))
done
is "--record-max: no file passes SIZE" "$big" 0
if [ -f $T/rot/r.lrec.8 ]; then
	skip "--record-max: every snapshot kept (more than 8 rotations happened)"
else
	is "--record-max: every snapshot kept, over the files" "$total" 25
fi
$L --replay $T/rot/r.lrec --format json | tail -1 >$T/last.json
tail -1 $T/live.json >$T/want.json
check "--record-max: FILE holds the newest snapshot" cmp -s $T/last.json $T/want.json

# ---- --record-max as root into a root-owned directory: the README's example ----
# Root gives root up before the first rotation; a helper that stays root renames.
mkdir -p $T/var && chmod 755 $T/var
$L --simulate haswell -c 0-3 -b -n 25 -d 0.05 --format json --record $T/var/r.lrec --record-max 4k \
	>$T/live.json 2>$T/err
is "--record-max into a root-owned directory: runs to its end" "$?:$(grep -c 'record' $T/err)" "0:0"
check "... rotating there (FILE.1, owned by root)" sh -c "test \"\$(stat -c %u $T/var/r.lrec.1)\" = 0"
total=0
for f in $T/var/r.lrec*; do
	total=$((total + $($L --replay $f --format json | wc -l)))
done
if [ -f $T/var/r.lrec.8 ]; then
	skip "--record-max into a root-owned directory: every snapshot kept (more than 8 rotations)"
else
	is "... keeping every snapshot, over the files" "$total" 25
fi
# Not root: what the first rotation would need is checked at the start.
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	mkdir -p $T/ro && chmod 755 $T/ro
	: >$T/ro/r.lrec && chown nobody $T/ro/r.lrec
	setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups \
		$L --simulate haswell -n 1 -d 0.05 --record $T/ro/r.lrec --record-max 4k >$T/out 2>$T/err
	is "--record-max where the user cannot rename: refused at once (exit 1)" "$?" 1
	check "... naming the user and the directory" \
		grep -q "renames files in $T/ro, which nobody cannot write" $T/err
	is "... one line" "$(wc -l <$T/err | tr -d ' ')" 1
	is "... and nothing recorded" "$(wc -c <$T/ro/r.lrec | tr -d ' ')" 0
else
	skip "no setpriv or no user nobody here"
fi

# ---- two recorders on one file: the second is refused, the first keeps every frame ----
rm -f $T/two.lrec
$L --simulate haswell -c 0-3 -b -n 15 -d 0.1 --format json --record $T/two.lrec >$T/two.json 2>$T/err1 &
pid=$!
wait_for $T/two.json . 5
$L --simulate haswell -c 0-1 -b -n 3 -d 0.05 --format json --record $T/two.lrec >$T/out 2>$T/err
is "a second recorder on the same file: refused (exit 1)" "$?" 1
check "... saying another lattop records to it" grep -q "another lattop is recording to it" $T/err
wait $pid
$L --replay $T/two.lrec --format json >$T/two.replay 2>$T/err
is "... and the first one's snapshots replay, all of them, nothing skipped" \
	"$(wc -l <$T/two.replay | tr -d ' '):$(cat $T/err)" "15:"
check "... as it printed them" cmp -s $T/two.json $T/two.replay

# ---- a full disk pauses the recording, and the run goes on ----
mkdir -p $T/full
if mount -t tmpfs -o size=64k lattop-full $T/full 2>/dev/null; then
	trap '[ -z "$FS" ] || { env -u TMUX tmux -L $FS kill-server 2>/dev/null; tmux_sock_rm $FS; }
	      umount $T/full 2>/dev/null; lib_cleanup' EXIT
	$L --simulate haswell -c 0-3 -b -n 40 -d 0.1 --format json --record $T/full/r.lrec \
		>$T/full.json 2>$T/full.err &
	pid=$!
	wait_for $T/full.json . 5
	dd if=/dev/zero of=$T/full/fill bs=1k count=1024 2>/dev/null
	check "the disk full: the recording pauses, said on standard error" \
		wait_for $T/full.err "recording paused" 5
	rm -f $T/full/fill
	check "room again: the recording goes on, said" wait_for $T/full.err "recording again" 5
	wait $pid
	is "a full disk does not end --batch: exit 0, every snapshot printed" \
		"$?:$(wc -l <$T/full.json | tr -d ' ')" "0:40"
	is "... told once each: paused, then again" "$(grep -c 'recording paused' $T/full.err):$(grep -c 'recording again' $T/full.err)" "1:1"
	check "... and the pause says why" grep -q "No space left on device" $T/full.err
	$L --replay $T/full/r.lrec --format json >$T/full.replay 2>$T/err
	n=$(wc -l <$T/full.replay | tr -d ' ')
	is "the recording replays" "$?" 0
	check "... with what was recorded before and after the pause ($n of 40)" test "$n" -gt 2 -a "$n" -lt 40
	check "... each snapshot as printed live" sh -c "grep -vxFf $T/full.json $T/full.replay | wc -l | grep -qx 0"
	check "... the last one included" cmp -s "$(tail -1 $T/full.json >$T/a; echo $T/a)" "$(tail -1 $T/full.replay >$T/b; echo $T/b)"
	# On the screen, beside --listen: the status line says so, /metrics goes on.
	if command -v tmux >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then
		rm -f $T/full/*
		FS=lattop-full-$$
		env -u TMUX tmux -L $FS -f /dev/null new-session -d -x 100 -y 30 \
			"./lattop --simulate haswell -c 0-3 -d 0.1 --listen 127.0.0.1:0 --record $T/full/s.lrec 2>$T/scr.err; sleep 30"
		wait_for $T/scr.err serving 5
		port=$(sed -n 's|^lattop: serving http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' $T/scr.err)
		sleep 0.5
		dd if=/dev/zero of=$T/full/fill bs=1k count=1024 2>/dev/null
		i=0
		while [ $i -lt 50 ] && ! env -u TMUX tmux -L $FS capture-pane -p | grep -q "recording paused"; do
			sleep 0.1
			i=$((i + 1))
		done
		check "the screen, the disk full: the status line says the recording paused" \
			sh -c "env -u TMUX tmux -L $FS capture-pane -p | grep -q 'recording paused'"
		new_sample() {
			up2=$(curl -sf http://127.0.0.1:$port/metrics | grep '^lattop_last_sample')
			[ "$up2" != "$up1" ]
		}
		up1=$(curl -sf http://127.0.0.1:$port/metrics | grep '^lattop_last_sample')
		# Five intervals at least; on a loaded machine, up to 5 s more.
		sleep 0.5
		poll 5 new_sample
		check "... and --listen goes on serving new numbers" test -n "$up1" -a "$up1" != "$up2"
		env -u TMUX tmux -L $FS kill-server 2>/dev/null
		tmux_sock_rm $FS
		# Until that lattop is gone, its open file keeps its room.
		i=0
		while [ $i -lt 50 ] && pgrep -f "record $T/full/s.lrec" >/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
		rm -f $T/full/*
	else
		skip "no tmux or curl here: the full disk on the screen"
	fi
	# A recording that cannot start on a full disk: a runtime error (1), not bad usage (2).
	dd if=/dev/zero of=$T/full/fill bs=1k count=1024 2>/dev/null
	$L --simulate haswell -n 1 -d 0.05 --record $T/full/new.lrec </dev/null >$T/out 2>$T/err
	is "--record on a full disk: exit 1, not a usage error" "$?:$(grep -c 'Try' $T/err)" "1:0"
	check "... saying why" grep -q "No space left on device" $T/err
	umount $T/full
else
	skip "cannot mount a small tmpfs here (not root?): the full disk"
fi
# A recording nobody may read: a runtime error (1), not bad usage (2).
if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	cp $T/two.lrec $T/secret.lrec && chmod 600 $T/secret.lrec
	setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups \
		$L --replay $T/secret.lrec --format json >$T/out 2>$T/err
	is "--replay of a file nobody may read, as nobody: exit 1, not a usage error" \
		"$?:$(grep -c 'Try' $T/err)" "1:0"
	check "... saying why" grep -q "secret.lrec: Permission denied" $T/err
else
	skip "no setpriv or no user nobody here"
fi

# ---- streams: the file head first, and what is read bounded ----
timeout 10 $L --replay /dev/zero >$T/out 2>$T/err
is "--replay /dev/zero: refused at once (exit 2), not read on" "$?" 2
check "... as not a recording" grep -q "/dev/zero: not a lattop recording" $T/err
rm -f $T/s.lrec
$L --simulate haswell -c 0-3 -b -n 5 -d 0.05 --format json --record $T/s.lrec >$T/s.json 2>/dev/null
cat $T/s.lrec | $L --replay /dev/stdin --format json >$T/out
check "a recording through a pipe replays as printed" cmp -s $T/s.json $T/out
(cat $T/s.lrec; cat /dev/zero) | timeout 10 $L --replay /dev/stdin --format json -n 3 >$T/out
is "a pipe that never ends: -n 3 stops the reading" "$?:$(wc -l <$T/out | tr -d ' ')" "0:3"
if [ -x /usr/bin/time ] && [ -z "$LATTOP_SANITIZED" ]; then
	(cat $T/s.lrec; head -c 300M /dev/zero) |
		/usr/bin/time -f %M -o $T/rss $L --replay /dev/stdin --format json >$T/out 2>$T/err
	is "a recording and 300 MB of zeros through a pipe: every snapshot, the rest skipped" \
		"$(wc -l <$T/out | tr -d ' '):$(grep -c 'skipped 1 torn' $T/err)" "5:1"
	check "... holding a bounded part of it in memory ($(cat $T/rss) KiB, under 64 MiB)" \
		test "$(tail -1 $T/rss)" -lt 65536
else
	skip "no /usr/bin/time, or sanitized: the memory a pipe takes"
fi

# ---- bad input: one line, status 2, nothing changed ----
# refused ARGS... : exit 2 and one line (plus the --help hint) on stderr
refused() {
	$L "$@" >$T/out 2>$T/err
	rc=$?
	if [ $rc -eq 2 ] && [ "$(grep -vc "^Try 'lattop --help'.$" $T/err)" -eq 1 ] && [ ! -s $T/out ]; then
		ok "refused: $*: $(head -1 $T/err)"
	else
		not_ok "refused: $*"
		diag "status $rc: $(cat $T/err $T/out | head -3)"
	fi
}
printf 'precious\n' >$T/other
refused --simulate haswell -n 1 -d 0.05 --record $T/other
is "--record to a file that is not a recording: left alone" "$(cat $T/other)" precious
refused --simulate haswell -n 1 --record $T/no/such/dir/f.lrec
refused --replay $T/missing.lrec
refused --replay $T/other
refused --replay $T/live.json
printf 'LATTOPRC\011\000\000\000' >$T/newer
refused --replay $T/newer
grep -q "version 9" $T/err && ok "a newer version: said" || not_ok "a newer version: said"
refused --simulate haswell --record-max 1M
refused --simulate haswell --record $T/x --record-max 1000
refused --simulate haswell --record $T/x --record-max 5Q
refused --begin +5
refused --replay $T/rt.lrec --begin yesterday
refused --replay $T/rt.lrec --end 25:00
refused --replay $T/rt.lrec -d 1
refused --replay $T/rt.lrec --once
refused --replay $T/rt.lrec --simulate haswell
refused --detect --record $T/x
check "no stray file from refused runs" test ! -e $T/x

tap_done
