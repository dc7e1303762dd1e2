#!/bin/sh
# e2e_lattops.sh: two lattops, on the FUSE msr stand-in (issue 18.2).
#
# A second lattop with another state directory (two containers, or host and
# container) must be refused beside a running one, naming its pid, with and
# without --force: the lock is on the msr files, which they share.  What a
# lattop killed with SIGKILL leaves in the registers is recognised as
# lattop's own events: refused with the way out, --doctor says so (not
# "stop their user (perf)"), --force measures without taking them as
# originals (the exit leaves them at their power-on values), and
# --restore --reset --yes clears them, refused without --yes and without
# root.  The naive reading (the other lattop's selects taken for perf's,
# kept as originals by --force) fails the checks on the registers.
cd "$(dirname "$0")/.." && . tests/lib.sh

HSW=tests/dumps/haswell_core-i7-4500u.raw
fuse_or_skip


# The selects of CPU @1 in the stand-in's state, as "0x186=V 0x187=V ..."
selects() {
	regs_snapshot $M | awk -v c="$1" '$1 == c && $2 ~ /^0x18[6-9]$/ { printf "%s=%s ", $2, $3 }'
}

msrfs_mount $M --simulate haswell --sim-profile "$(sim_profile two)" || { not_ok mount; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
S1=$LIB_TMP/s1 S2=$LIB_TMP/s2 S3=$LIB_TMP/s3
mkdir -p $S1 $S2 $S3 && chmod 700 $S1 $S2 $S3

# ---- a running lattop, another state directory ----
: >$LIB_TMP/out1
./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S1 -b -d 0.2 >$LIB_TMP/out1 2>$LIB_TMP/err1 &
pid=$!
wait_for $LIB_TMP/out1 '^total ' 20 || diag "the first lattop did not start: $(cat $LIB_TMP/err1)"
for force in "" --force; do
	./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S2 --once -d 0.2 $force >$LIB_TMP/out 2>$LIB_TMP/err
	is "beside a running lattop${force:+ with $force}: refused (exit 1)" "$?" 1
	check "beside a running lattop${force:+ with $force}: the other one named, with its pid" \
		grep -q "is measured by another lattop (pid $pid), whatever its state directory" $LIB_TMP/err
	check "beside a running lattop${force:+ with $force}: nothing in the second journal" \
		sh -c "test ! -s $S2/journal"
done
check "the first lattop still runs" kill -0 $pid

# ---- killed: its events stay in the registers ----
kill -KILL $pid
wait $pid 2>/dev/null
left=$(selects 0)
check "SIGKILL left lattop's events in cpu 0's selects ($left)" sh -c "echo '$left' | grep -q '=0x00000000004'"
regs_snapshot $M $LIB_TMP/left
./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S3 --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
is "a dead lattop's events: refused (exit 1)" "$?" 1
check "a dead lattop's events: named as lattop's, with the way out" \
	sh -c "grep -q \"holds lattop's own events\" $LIB_TMP/err && grep -q 'lattop --restore --reset --yes' $LIB_TMP/err &&
	       ! grep -q 'perf or another tool' $LIB_TMP/err"
regs_unchanged "a dead lattop's events: refused, nothing written" $M $LIB_TMP/left '^[0-9]+ 0x(c[1-4]|309|30a|30b|10) '
./lattop --doctor --msr-dir $M --cpuid-file $HSW --state-dir $S3 >$LIB_TMP/out 2>&1
check "--doctor: another lattop's events, not 'stop their user (perf'" \
	sh -c "grep -q 'another lattop' $LIB_TMP/out && ! grep -q 'stop their user (perf' $LIB_TMP/out"

# ---- --force: their power-on values are the originals, not the dead lattop's ----
./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S3 --once -d 0.2 --force >$LIB_TMP/out 2>$LIB_TMP/err
is "--force over a dead lattop's events: exit 0" "$?" 0
is "--force over a dead lattop's events: cpu 0's selects left at 0" "$(selects 0)" \
	"0x186=0x0000000000000000 0x187=0x0000000000000000 0x188=0x0000000000000000 0x189=0x0000000000000000 "
check "--force: the journal is empty" sh -c "test ! -s $S3/journal"

# ---- --restore --reset --yes ----
S4=$LIB_TMP/s4
mkdir -p $S4 && chmod 700 $S4
: >$LIB_TMP/out1
./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S4 -b -d 0.2 >$LIB_TMP/out1 2>$LIB_TMP/err1 &
pid=$!
wait_for $LIB_TMP/out1 '^total ' 20 || diag "the lattop to kill did not start: $(cat $LIB_TMP/err1)"
kill -KILL $pid
wait $pid 2>/dev/null
regs_snapshot $M $LIB_TMP/left
./lattop --restore --reset --msr-dir $M --cpuid-file $HSW >$LIB_TMP/out 2>$LIB_TMP/err
is "--restore --reset without --yes: usage error (exit 2)" "$?" 2
check "--restore --reset without --yes: says to add --yes" grep -q 'add --yes to confirm' $LIB_TMP/err
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid=65534 --regid=65534 --clear-groups ./lattop --restore --reset --yes --msr-dir $M \
		--cpuid-file $HSW >$LIB_TMP/out 2>$LIB_TMP/err
	is "--restore --reset --yes as nobody: refused (exit 1)" "$?" 1
	check "--restore --reset --yes as nobody: root only" grep -q 'runs as root only' $LIB_TMP/err
else
	skip "no setpriv here: --restore --reset as nobody"
fi
regs_unchanged "--restore --reset refused: nothing written" $M $LIB_TMP/left '^[0-9]+ 0x(c[1-4]|309|30a|30b|10) '
./lattop --restore --reset --yes --msr-dir $M --cpuid-file $HSW >$LIB_TMP/out 2>$LIB_TMP/err
is "--restore --reset --yes: exit 0" "$?" 0
check "--restore --reset --yes: says what it did" grep -q 'power-on values put back' $LIB_TMP/out
is "--restore --reset --yes: cpu 0's selects at 0" "$(selects 0)" \
	"0x186=0x0000000000000000 0x187=0x0000000000000000 0x188=0x0000000000000000 0x189=0x0000000000000000 "
./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S3 --once -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err
is "after --restore --reset: lattop measures again (exit 0)" "$?" 0
./lattop --restore --reset --yes --msr-dir $M --cpuid-file $HSW >$LIB_TMP/out 2>$LIB_TMP/err
check "--restore --reset --yes with nothing left: says so" grep -q 'nothing to reset' $LIB_TMP/out
tap_done
