#!/bin/sh
# e2e_safety.sh: issue 9 on the FUSE msr stand-in: restore that reads first
# (a refused write no longer locks lattop out), journals told apart (a
# crash, a lattop still running, a device gone, a damaged file), --doctor
# after a clean run, registers shared with CPUs not measured, registers
# changed under lattop, Ctrl-Z, a batch reader that stops reading, notes on
# stderr, and a CPUID dump missing leaf 0xA.
cd "$(dirname "$0")/.." && . tests/lib.sh

HSW=tests/dumps/haswell_core-i7-4500u.raw
fuse_or_skip


# wait_state PID STATE SECONDS: until /proc/PID/stat shows STATE (T: stopped)
wait_state() {
	_i=0
	while [ "$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null)" != "$2" ]; do
		_i=$((_i + 1))
		[ $_i -ge $(($3 * 20)) ] && return 1
		sleep 0.05
	done
}

# wait_regs DIR BEFORE SECONDS: until DIR's registers are those of BEFORE
wait_regs() {
	_i=0
	while ! regs_snapshot "$1" | cmp -s - "$2"; do
		_i=$((_i + 1))
		[ $_i -ge $(($3 * 20)) ] && return 1
		sleep 0.05
	done
}

L="./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S"
MP=$(mkdir -p $M && cd $M && pwd -P)

msrfs_mount $M --simulate haswell --sim-profile "$(sim_profile hsw)" || { not_ok mount; tap_done; exit 1; }

# ---- 1. a write the CPU refuses for good: restore reads first, nothing locks ----
regs_snapshot $M $LIB_TMP/before
msrfs_ctl $M fail-write 1 0x187 EIO
$L --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
is "refused write: exit 1" "$?" 1
check "refused write: says which write" grep -q 'cpu 1: writing IA32_PERFEVTSEL1 (0x187)' $LIB_TMP/err
check "refused write: no journal left behind" test ! -s $S/journal
regs_unchanged "refused write: every register as it was" $M $LIB_TMP/before
$L --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
check "refused write: the next lattop is not locked out (no 'previous lattop')" \
	sh -c "! grep -q 'previous lattop' $LIB_TMP/err"
msrfs_ctl $M clear-faults
$L --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
is "refused write: once the fault is gone, lattop runs (exit 0)" "$?" 0

# ---- 1. SIGKILL, then a --restore whose write is refused: only that register stays ----
regs_snapshot $M $LIB_TMP/before
: >$LIB_TMP/out
$L -b -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err &
pid=$!
wait_for $LIB_TMP/out '^total ' 20
kill -KILL $pid
wait $pid 2>/dev/null
nrec=$(grep -c '^r ' $S/journal)
check "SIGKILL: the journal lists registers" test "$nrec" -gt 4
# A select lattop left changed that the CPU now refuses to take back.
reg=$(regs_snapshot $M | grep '^0 0x18[6-9] ' | grep -v -x -F -f $LIB_TMP/before | awk '{ print $2 }' |
	head -n 1)
check "SIGKILL: an event select is left changed" test -n "$reg"
msrfs_ctl $M fail-write 0 $reg EIO
msrfs_ctl $M log-reset
./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
is "--restore, one write refused: exit 1" "$?" 1
check "--restore, one write refused: the message names it" \
	grep -q "registers still differ .*cpu 0: restoring IA32_PERFEVTSEL$((reg - 0x186)) ($reg) = 0x[0-9a-f]*: " $LIB_TMP/err
# The select stays, and its counter, which counts on while the select is enabled.
pmc=$(printf '0x%x' $((reg - 0x186 + 0xc1)))
is "--restore, one write refused: only it and its counter stay in the journal" \
	"$(awk '/^r / { print $2, $3 }' $S/journal | sort | tr '\n' ' ')" "$(printf '0 %s\n0 %s\n' $reg $pmc | sort | tr '\n' ' ')"
check "--restore: registers as saved are not written again" \
	test "$(grep -c '^W ' $M/log)" -lt "$nrec"
msrfs_ctl $M clear-faults
./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
is "--restore after the fault: exit 0" "$?" 0
check "--restore after the fault: the journal is empty" test ! -s $S/journal
regs_unchanged "SIGKILL, --restore: every register as it was" $M $LIB_TMP/before

# ---- 1. a write refused at exit: the exit names it, and the exact --restore ----
# Long slots (3 s / 8): the refused select must meet the exit's write-back,
# not a rotation switch in the moment between the fault and the signal.
: >$LIB_TMP/out
$L -b -d 3 >$LIB_TMP/out 2>$LIB_TMP/err &
pid=$!
wait_for $LIB_TMP/out '^total ' 20
reg=$(regs_snapshot $M | grep '^0 0x18[6-9] ' | grep -v -x -F -f $LIB_TMP/before | awk '{ print $2 }' |
	head -n 1)
check "exit, one write refused: an event select is changed while lattop runs" test -n "$reg"
msrfs_ctl $M fail-write 0 $reg EIO
kill -INT $pid
wait $pid
is "exit, one write refused: exit 1" "$?" 1
check "exit, one write refused: it says so, and the exact command that finishes" \
	grep -q "^lattop: 2 registers not restored exactly: cpu 0: restoring IA32_PERFEVTSEL$((reg - 0x186)) ($reg) = .*; the journal keeps them: run 'lattop --restore --state-dir $S --msr-dir $MP' once the cause is gone\$" $LIB_TMP/err
pmc=$(printf '0x%x' $((reg - 0x186 + 0xc1)))
is "exit, one write refused: only it and its counter stay in the journal" \
	"$(awk '/^r / { print $2, $3 }' $S/journal | sort | tr '\n' ' ')" "$(printf '0 %s\n0 %s\n' $reg $pmc | sort | tr '\n' ' ')"
msrfs_ctl $M clear-faults
./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
is "exit, one write refused: --restore once the fault is gone, exit 0" "$?" 0
regs_unchanged "exit, one write refused, --restore: every register as it was" $M $LIB_TMP/before

# ---- 1. --force, SIGKILL, --restore: a counter its owner counts with again ----
msrfs_mount $LIB_TMP/m2 --simulate haswell --sim-profile "$(sim_profile force 'cpu2.msr.0x188 = 0x53003c')" ||
	{ not_ok mount; tap_done; exit 1; }
regs_snapshot $LIB_TMP/m2 $LIB_TMP/before2
: >$LIB_TMP/out
./lattop --msr-dir $LIB_TMP/m2 --cpuid-file $HSW --state-dir $S --force -b -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err &
pid=$!
wait_for $LIB_TMP/out '^total ' 20
kill -KILL $pid
wait $pid 2>/dev/null
./lattop --restore --msr-dir $LIB_TMP/m2 --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
is "--force, SIGKILL, --restore: exit 0 (the owner's counter counts on)" "$?" 0
check "--force, SIGKILL, --restore: the journal is empty" test ! -s $S/journal
regs_unchanged "--force, SIGKILL, --restore: every register as it was, but the owner's counter" \
	$LIB_TMP/m2 $LIB_TMP/before2 '^2 0xc3 '
msrfs_umount $LIB_TMP/m2

# ---- 2. --doctor after a clean run ----
$L --once -d 0.2 >/dev/null 2>&1
./lattop --doctor --msr-dir $M --cpuid-file $HSW --state-dir $S >$LIB_TMP/out 2>&1
check "--doctor after a clean run: the journal is no warning" \
	sh -c "grep 'state journal' $LIB_TMP/out | grep -q '^\[ ok \].*is empty'"

# ---- 1 and issue 13: journals told apart ----
printf 'lattop journal v0\ngarbage\n' >$S/journal
$L --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
is "damaged journal: refused (exit 1)" "$?" 1
check "damaged journal: says what is wrong and what to do, no 'pid -1'" \
	sh -c "grep -q 'is damaged: it does not start with \"lattop-journal 1\"' $LIB_TMP/err &&
	       grep -q 'remove it (rm $S/journal)' $LIB_TMP/err && ! grep -q 'pid -1' $LIB_TMP/err"
./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
is "damaged journal: --restore exit 1" "$?" 1
check "damaged journal: --restore says the same, not 'not a lattop journal'" \
	sh -c "grep -q 'is damaged' $LIB_TMP/err && grep -q 'rm $S/journal' $LIB_TMP/err"
printf 'lattop-journal 1\npid 99999999\ndev %s\nfw_write 1\nr 0 0x186 0x0 0xffffffffffffffff\nend\n' \
	$LIB_TMP/gone >$S/journal
$L --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
check "journal of a device gone: told apart, with the fix" \
	sh -c "grep -q 'is for $LIB_TMP/gone, which no longer exists' $LIB_TMP/err && grep -q 'rm $S/journal' $LIB_TMP/err"
# A lattop running with its own state directory, whose pid a journal here names.
mkdir -p $LIB_TMP/s2 && chmod 700 $LIB_TMP/s2
: >$LIB_TMP/out2
./lattop --msr-dir $M --cpuid-file $HSW --state-dir $LIB_TMP/s2 -b -d 0.2 >$LIB_TMP/out2 2>/dev/null &
pid=$!
wait_for $LIB_TMP/out2 '^total ' 20
printf 'lattop-journal 1\npid %d\ndev %s\nfw_write 1\nr 0 0x186 0x0 0xffffffffffffffff\nend\n' $pid $MP >$S/journal
$L --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
check "journal of a lattop still running: told apart, with the fix" \
	sh -c "grep -q 'written by lattop pid $pid, which is still running' $LIB_TMP/err && grep -q 'kill $pid' $LIB_TMP/err"
kill -TERM $pid
wait $pid
: >$S/journal

# ---- 5. Ctrl-Z: every register back while stopped, programmed again at SIGCONT ----
regs_snapshot $M $LIB_TMP/before
: >$LIB_TMP/out
$L -b -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err &
pid=$!
wait_for $LIB_TMP/out '^total ' 20
kill -TSTP $pid
if wait_state $pid T 10; then
	ok "SIGTSTP: lattop stops"
else
	not_ok "SIGTSTP: lattop stops"
fi
regs_unchanged "SIGTSTP: stopped, every register as it was" $M $LIB_TMP/before
check "SIGTSTP: stopped, the journal is empty" test ! -s $S/journal
msrfs_ctl $M log-reset
n=$(grep -c '^total ' $LIB_TMP/out)
kill -CONT $pid
_i=0
while [ "$(grep -c '^total ' $LIB_TMP/out)" -le $((n + 1)) ] && [ $_i -lt 200 ]; do sleep 0.05; _i=$((_i + 1)); done
check "SIGCONT: programmed again and measuring" test "$(grep -c '^W ' $M/log)" -gt 0
check "SIGCONT: the journal is written again" test -s $S/journal
kill -TERM $pid
wait $pid
is "SIGTSTP, SIGCONT, SIGTERM: exit 0" "$?" 0
regs_unchanged "SIGTSTP, SIGCONT, SIGTERM: every register as it was" $M $LIB_TMP/before
# Every run on this mount so far (refused writes, SIGKILL and --restore from
# the journal, Ctrl-Z and SIGCONT): the simulator saw no write to a counter
# counting with PEBS (pmu-facts 8.12).
is "no write ever reached a counter counting with PEBS" "$(cat $M/stats)" "pebs_write_while_counting 0"
msrfs_umount $M

# ---- 5. a batch reader that stops reading: nothing stays armed ----
msrfs_mount $M --simulate haswell --sim-profile "$(sim_profile big 'cpus = 32')" ||
	{ not_ok mount; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
mkfifo $LIB_TMP/fifo
exec 3<>$LIB_TMP/fifo
$L -b -d 0.1 --format json >$LIB_TMP/fifo 2>$LIB_TMP/err &
pid=$!
wait_for $M/log '^W ' 20
check "reader stalled: lattop programmed the counters first" grep -q '^W ' $M/log
if wait_regs $M $LIB_TMP/before 30 && kill -0 $pid 2>/dev/null; then
	ok "reader stalled: lattop still runs, with every register as it was"
else
	not_ok "reader stalled: lattop still runs, with every register as it was"
	diag "$(regs_snapshot $M | diff $LIB_TMP/before - | head -5)"
fi
check "reader stalled: the journal is empty meanwhile" test ! -s $S/journal
msrfs_ctl $M log-reset
cat $LIB_TMP/fifo >/dev/null &
cat_pid=$!
_i=0
while [ "$(grep -c '^W ' $M/log)" -eq 0 ] && [ $_i -lt 200 ]; do sleep 0.05; _i=$((_i + 1)); done
check "reader back: lattop measures again" test "$(grep -c '^W ' $M/log)" -gt 0
kill -TERM $pid
wait $pid
is "reader back, SIGTERM: exit 0" "$?" 0
kill $cat_pid 2>/dev/null
wait $cat_pid 2>/dev/null
exec 3>&-
regs_unchanged "reader stalled, then back: every register as it was" $M $LIB_TMP/before
msrfs_umount $M

# ---- 4. registers changed under lattop are given up ----
msrfs_mount $M --simulate haswell --sim-profile "$(sim_profile owned)" || { not_ok mount; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
: >$LIB_TMP/out
$L -b -d 0.2 --format json >$LIB_TMP/out 2>$LIB_TMP/err &
pid=$!
wait_for $LIB_TMP/out '"online":true' 20
msrfs_ctl $M set 0 0x1a6 0x3f80408fff
# (a threshold lattop never uses: one of its own would pass for its own write).
# Set twice: a write landing between a switch's read-back and its write is
# overwritten unseen (no MSR-level tool can close that window); an owner
# that keeps its value is caught.
msrfs_ctl $M set 1 0x3f6 0x123
sleep 0.3
msrfs_ctl $M set 1 0x3f6 0x123
msrfs_ctl $M set 0 0x1a6 0x3f80408fff
wait_for $LIB_TMP/err 'MSR_OFFCORE_RSP_0 was changed by someone else' 20
wait_for $LIB_TMP/err 'MSR_PEBS_LD_LAT_THRESHOLD was changed by someone else' 20
kill -TERM $pid
wait $pid
is "changed under lattop: exit 0" "$?" 0
check "changed under lattop: MSR_OFFCORE_RSP_0 noticed and given up" \
	grep -q 'cpu 0: MSR_OFFCORE_RSP_0 was changed by someone else (0x3f80408fff' $LIB_TMP/err
check "changed under lattop: the threshold noticed and given up" \
	grep -q 'cpu 1: MSR_PEBS_LD_LAT_THRESHOLD was changed by someone else (0x123' $LIB_TMP/err
is "changed under lattop: the new owner's offcore value left alone" "$(grep '^0 0x1a6 ' $M/state)" \
	"0 0x1a6 0x0000003f80408fff"
is "changed under lattop: the new owner's threshold left alone" "$(grep '^1 0x3f6 ' $M/state)" \
	"1 0x3f6 0x0000000000000123"
regs_unchanged "changed under lattop: every other register restored" $M $LIB_TMP/before \
	'^(0 0x1a6|1 0x3f6) '
msrfs_umount $M

# ---- 3. registers shared with a CPU not measured ----
# Nehalem, 2 threads per core: cpu 2 is cpu 0's sibling; its offcore event uses RSP_0.
NHM=tests/dumps/nehalem_core-i5-750.raw
msrfs_mount $M --simulate nehalem --sim-profile \
	"$(sim_profile nhm 'threads_per_core = 2' 'cpu2.msr.0x186 = 0x5301b7' 'cpu2.msr.0x1a6 = 0x2001')" ||
	{ not_ok mount; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
./lattop --msr-dir $M --cpuid-file $NHM --state-dir $S -c 0 -n 2 -b -d 0.2 --format json \
	>$LIB_TMP/out 2>$LIB_TMP/err
is "nehalem, -c 0, sibling's offcore event: exit 0" "$?" 0
is "nehalem, -c 0: MSR_OFFCORE_RSP_0 never written" "$(grep -c '^W [0-9]* 0x1a6 ' $M/log)" 0
is "nehalem, -c 0: the sibling's offcore value kept" "$(grep '^2 0x1a6 ' $M/state)" "2 0x1a6 0x0000000000002001"
check "nehalem, -c 0: the note says why" \
	sh -c "tail -n 1 $LIB_TMP/out | jq -r .note | grep -q 'MSR_OFFCORE_RSP_0 is shared with cpu 2, not measured'"
is "7. json: the note also on stderr, once" "$(grep -c '^lattop: note: .*shared with cpu 2' $LIB_TMP/err)" 1
check "nehalem, -c 0: nothing written on the sibling" sh -c "! grep -q '^W 2 ' $M/log"
regs_unchanged "nehalem, -c 0: every register as it was" $M $LIB_TMP/before
msrfs_umount $M
# Silvermont: cpu 1 shares the module of cpu 0.
SLM=tests/dumps/silvermont_atom-z3740.raw
if [ -r "$SLM" ]; then
	msrfs_mount $M --simulate silvermont --sim-profile \
		"$(sim_profile slm 'cpu1.msr.0x186 = 0x5301b7')" || { not_ok mount; tap_done; exit 1; }
	./lattop --msr-dir $M --cpuid-file $SLM --state-dir $S -c 0 --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
	is "silvermont, -c 0, module partner's offcore event: exit 0" "$?" 0
	is "silvermont, -c 0: MSR_OFFCORE_RSP_0 never written" "$(grep -c '^W [0-9]* 0x1a6 ' $M/log)" 0
	./lattop --msr-dir $M --cpuid-file $SLM --state-dir $S -c 2 --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
	check "silvermont, -c 2 (another module): MSR_OFFCORE_RSP_0 written" grep -q '^W 2 0x1a6 ' $M/log
	msrfs_umount $M
else
	skip "no Silvermont CPUID dump"
fi

# ---- 7. a CPUID dump without leaf 0xA ----
grep -v '^basic_cpuid\[10\]=' $HSW >$LIB_TMP/no-leaf-a.raw
./lattop --cpuid-file $LIB_TMP/no-leaf-a.raw --detect >$LIB_TMP/out 2>$LIB_TMP/err
is "CPUID dump without leaf 0xA: exit 2" "$?" 2
check "CPUID dump without leaf 0xA: names the leaf, not 'hidden'" \
	sh -c "grep -q 'no basic_cpuid\[10\] line (leaf 0xa' $LIB_TMP/err && ! grep -q hidden $LIB_TMP/err"
tap_done
