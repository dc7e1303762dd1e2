#!/bin/sh
# soak.sh [RUNS [SECONDS]]: many lattop runs on the FUSE msr stand-in under
# CPU load, each ended by a random signal at a random moment (SIGTERM,
# SIGINT, SIGHUP, SIGQUIT, SIGTSTP then SIGCONT, SIGKILL then --restore),
# with a random fault (a CPU offline, refused writes, a counter stolen by
# someone else, or none).  After each: every register as it was (a stolen
# counter as its new owner left it) and no journal left; after SIGKILL once
# --restore has run, and likewise when a refused write hit the restore
# itself, which lattop must then say, naming the register the journal keeps;
# and no write reached a counter counting with PEBS (the stand-in's /stats;
# but with a thief, whose writes the simulator cannot tell apart).  Stops starting
# runs after SECONDS (default: no limit).  `make soak` runs 400;
# tests/e2e_soak.sh a short one inside `make check`.  TAP, one line a run.
cd "$(dirname "$0")/.." && . tests/lib.sh

RUNS=${1:-400}
LIMIT=${2:-0}
fuse_or_skip

rnd() {         # rnd N: 0..N-1
	echo $(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % $1 ))
}

msleep() {      # msleep MS
	sleep "$(awk -v m="$1" 'BEGIN { printf "%.3f", m / 1000 }')"
}

# A background load on one core, for as long as the soak runs.
nice -n 10 sh -c 'while :; do :; done' &
LOAD=$!
trap 'kill $LOAD 2>/dev/null; lib_cleanup' EXIT

P=$(sim_profile base)

START=$(date +%s)
run=0
kept=0          # runs where a refused write hit the restore itself
# Every uarch of lattop --list-uarchs with a dump of its own in tests/dumps
# (UARCH_CPU.raw): lattop reads that CPU, the stand-in simulates it.
PAIRS=""
for uarch in $(./lattop --list-uarchs --format json | jq -r '.[].name'); do
	for DUMP in tests/dumps/${uarch}_*.raw; do
		[ -f "$DUMP" ] || continue
		PAIRS="$PAIRS $uarch:$DUMP"
		break
	done
done
NPAIRS=$(echo $PAIRS | wc -w)
check "uarchs with a dump of their own ($NPAIRS)" test "$NPAIRS" -gt 0
for pair in $PAIRS; do
	uarch=${pair%%:*} DUMP=${pair#*:}
	msrfs_mount $M --simulate $uarch --sim-profile $P || { not_ok "mount $uarch"; break; }
	regs_snapshot $M $LIB_TMP/before
	per=$(( (RUNS + NPAIRS - 1) / NPAIRS ))
	i=0
	while [ $i -lt $per ] && [ $run -lt "$RUNS" ]; do
		[ "$LIMIT" -gt 0 ] && [ $(( $(date +%s) - START )) -ge "$LIMIT" ] && break
		i=$((i + 1))
		run=$((run + 1))
		sig=$(echo TERM INT HUP QUIT TSTP KILL | cut -d' ' -f$(( $(rnd 6) + 1 )))
		fault=$(echo none offline refuse steal | cut -d' ' -f$(( $(rnd 4) + 1 )))
		cpu=$(rnd 4)
		when=$(rnd 1500)
		d=$(echo 0.05 0.1 0.2 0.3 | cut -d' ' -f$(( $(rnd 4) + 1 )))
		fmt=$(echo text csv json | cut -d' ' -f$(( $(rnd 3) + 1 )))
		what="run $run: $uarch, -d $d --format $fmt, $fault on cpu $cpu, SIG$sig after ${when} ms"
		skipre='^$'
		msrfs_ctl $M log-reset
		pw0=$(cat $M/stats)
		./lattop --msr-dir $M --cpuid-file $DUMP --state-dir $S -b -d $d --format $fmt \
			>$LIB_TMP/out 2>$LIB_TMP/err &
		pid=$!
		fw=$(rnd $((when + 1)))
		msleep $fw
		case $fault in
		offline) msrfs_ctl $M offline $cpu ;;
		refuse) msrfs_ctl $M "fail-nth-write $(( $(rnd 40) + 1 )) EIO" ;;
		steal)
			# A counter taken by someone else: PERFEVTSEL1, counting for them.
			msrfs_ctl $M set $cpu 0x187 0x4300c4
			skipre="^$cpu 0x(187|c2|3f1) " ;;
		esac
		msleep $((when - fw))
		[ $fault = offline ] && [ $(rnd 2) -eq 0 ] && msrfs_ctl $M online $cpu
		if [ $sig = TSTP ]; then
			kill -TSTP $pid 2>/dev/null
			msleep $(( $(rnd 400) + 50 ))
			kill -CONT $pid 2>/dev/null
			msleep $(rnd 600)
			kill -TERM $pid 2>/dev/null
		else
			# A background job of a script starts with SIGINT and SIGQUIT
			# ignored (POSIX): one sent before lattop catches it is lost by
			# the kernel, which is the shell's doing, not lattop's.
			if [ $sig = INT ] || [ $sig = QUIT ]; then
				n=2
				[ $sig = QUIT ] && n=3
				t=0
				while [ $t -lt 100 ] && ! awk -v n=$n '/^SigCgt:/ {
					v = 0; h = substr($2, length($2) - 3)
					for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
					exit !(int(v / 2 ^ (n - 1)) % 2) }' /proc/$pid/status 2>/dev/null; do
					sleep 0.05
					t=$((t + 1))
				done
			fi
			kill -$sig $pid 2>/dev/null
		fi
		# A lattop that never ends is a failure, told with its state, not a hang.
		t=0
		while kill -0 $pid 2>/dev/null && [ $t -lt 300 ]; do
			sleep 0.1
			t=$((t + 1))
		done
		if kill -0 $pid 2>/dev/null; then
			not_ok "$what: ended within 30 s of its last signal"
			diag "$(grep -E '^(State|SigPnd|ShdPnd|SigBlk|SigIgn)' /proc/$pid/status 2>/dev/null | tr '\n' ' ')"
			kill -KILL $pid 2>/dev/null
			sig=KILL
		fi
		wait $pid 2>/dev/null
		rc=$?
		msrfs_ctl $M clear-faults
		[ $fault = offline ] && msrfs_ctl $M online $cpu
		# The fix lattop names: --restore after SIGKILL, or when it kept registers.
		if [ $sig = KILL ] || grep -q "the journal keeps them" $LIB_TMP/err; then
			[ $sig = KILL ] || kept=$((kept + 1))
			./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/rout 2>>$LIB_TMP/err
		elif [ -s $S/journal ]; then
			not_ok "$what: a journal left, and lattop did not say so (exit $rc)"
		fi
		regs_snapshot $M $LIB_TMP/now
		if [ -s $S/journal ]; then
			not_ok "$what: no journal left (exit $rc)"
			diag "$(head -c 600 $LIB_TMP/err)"
			: >$S/journal
		elif ! grep -v -E -- "$skipre" $LIB_TMP/before | cmp -s - "$(grep -v -E -- "$skipre" $LIB_TMP/now >$LIB_TMP/now2; echo $LIB_TMP/now2)"; then
			not_ok "$what: every register as it was (exit $rc)"
			diag "$(grep -v -E -- "$skipre" $LIB_TMP/before | diff - $LIB_TMP/now2 | head -8)"
			diag "$(head -c 600 $LIB_TMP/err)"
		elif [ $fault != steal ] && [ "$(cat $M/stats)" != "$pw0" ]; then
			not_ok "$what: no write to a counter counting with PEBS (exit $rc)"
			diag "before: $pw0; after: $(cat $M/stats)"
		else
			ok "$what"
		fi
		# The next run starts from the same state: the thief's counter and all back.
		regs_snapshot $M $LIB_TMP/now
		grep -v -x -F -f $LIB_TMP/now $LIB_TMP/before | while read -r c r v; do
			msrfs_ctl $M set $c $r $v
		done
	done
	msrfs_umount $M
	[ "$LIMIT" -gt 0 ] && [ $(( $(date +%s) - START )) -ge "$LIMIT" ] && break
done
diag "$run runs in $(( $(date +%s) - START )) s; $kept kept a register in the journal, named"
tap_done
