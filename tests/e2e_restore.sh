#!/bin/sh
# e2e_restore.sh: lattop through --msr-dir on the FUSE msr stand-in
# (tests/msrfs) serving the simulator: the same open/pread/pwrite path as
# /dev/cpu/N/msr.  Every register is as it was after --once and after
# --batch ended by SIGTERM, SIGINT, SIGHUP and SIGQUIT; a counter in use is never
# written while the others measure; with no counter free nothing is written
# and the exit is non-zero.
cd "$(dirname "$0")/.." && . tests/lib.sh

HSW=tests/dumps/haswell_core-i7-4500u.raw
NHM=tests/dumps/nehalem_core-i5-750.raw
WSM=tests/dumps/westmere_core-i5-650.raw
fuse_or_skip

# W lines for register $2 in the log of mount $1
writes_to() {
	grep -c "^W [0-9]* $2 " "$1/log"
}

# ---- --once ----
msrfs_mount $M --simulate haswell --sim-profile "$(sim_profile plain)" || { not_ok "mount"; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
if ./lattop --state-dir $S --msr-dir $M --cpuid-file $HSW --once -d 0.3 --format json >$LIB_TMP/out 2>$LIB_TMP/err; then
	ok "--once on the stand-in exits 0"
else
	not_ok "--once on the stand-in exits 0"
	diag "$(cat $LIB_TMP/err)"
fi
is "--once measured HITM through the msr files" \
	"$(jq '.total.snoop.hitm_per_sec > 1.9e5 and .total.snoop.hitm_per_sec < 2.1e5' $LIB_TMP/out)" true
check "--once wrote registers" test "$(grep -c '^W ' $M/log)" -gt 0
regs_unchanged "--once: every register as it was before" $M $LIB_TMP/before
# bits_set LOG REGEX MASK: W lines to registers matching REGEX with a MASK bit set
bits_set() {
	grep "^W [0-9]* $2 " "$1/log" | { n=0
		while read -r _w _c _r v; do
			[ $((v & $3)) -ne 0 ] && n=$((n + 1))
		done
		echo $n; }
}
is "--once wrote PERFEVTSELs" "$(grep -c '^W [0-9]* 0x18[6-9] ' $M/log | sed 's/^0$/none/;s/^[0-9]*$/some/')" some
is "--once never set PERFEVTSEL.INT" "$(bits_set $M '0x18[6-9a-d]' 0x100000)" 0
is "--once never set a fixed counter's PMI bit" "$(bits_set $M 0x38d 0x888)" 0
is "--once wrote only allowlisted registers" \
	"$(awk '$1 == "W" { print $3 }' $M/log | sort -u |
	   grep -v -E '^0x(c[1-8]|4c[1-8]|18[6-9a-d]|309|30a|30b|38d|38f|3f1|3f6|1a6|1a7)$' | wc -l)" 0

# ---- --batch ended by a signal ----
for sig in TERM INT HUP QUIT; do
	msrfs_ctl $M log-reset
	regs_snapshot $M $LIB_TMP/before
	: >$LIB_TMP/out
	./lattop --state-dir $S --msr-dir $M --cpuid-file $HSW -b -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err &
	pid=$!
	_i=0
	while ! grep -q '^total ' $LIB_TMP/out && [ $_i -lt 400 ]; do sleep 0.05; _i=$((_i + 1)); done
	sleep 0.3   # and into the next interval: the signal lands mid-rotation
	kill -$sig $pid
	wait $pid
	rc=$?
	# Ctrl-C: lattop dies of SIGINT after restoring, as shells expect (128 + 2).
	want=0
	[ $sig = INT ] && want=130
	is "--batch ended by SIG$sig exits $want" "$rc" $want
	check "--batch printed snapshots before SIG$sig" grep -q '^total ' $LIB_TMP/out
	regs_unchanged "SIG$sig: every register as it was before" $M $LIB_TMP/before
done
msrfs_umount $M

# ---- Lunar Lake, perfmon version 6: the version 6 range only, every register back ----
# The simulator has no legacy counter address on a version 6 part (sim.c sim_reg()): a run
# that wrote one would fail; SIGKILL, then --restore puts every register back from the journal.
LNL=../shared/cpuid/all/lunarlake_core-ultra-9-288v.cpuid-r.txt
if [ -f $LNL ]; then
	msrfs_mount $M --simulate lunarlake --sim-profile "$(sim_profile lnl 'cpus = 8' 'core_types = P:4,E:4')" ||
		{ not_ok "mount lunarlake"; tap_done; exit 1; }
	regs_snapshot $M $LIB_TMP/before
	./lattop --state-dir $S --msr-dir $M --cpuid-file $LNL --once -d 0.3 --format json >$LIB_TMP/out \
		2>$LIB_TMP/err
	is "lunarlake --once on the stand-in exits 0" "$?" 0
	is "lunarlake --once measured the P-cores' HITM through the version 6 range" \
		"$(jq '.cpus[0].snoop.hitm_per_sec > 4.5e4 and .cpus[0].snoop.hitm_per_sec < 5.5e4' $LIB_TMP/out)" true
	is "lunarlake --once wrote counters and selects in the version 6 range, none in the legacy one" \
		"$(awk '$1 == "W" { print $3 }' $M/log | sort -u | grep -c -E '^0x19[0-9a-f][0-9a-f]$' |
		   sed 's/^0$/none/;s/^[0-9]*$/some/') $(awk '$1 == "W" { print $3 }' $M/log | sort -u |
		   grep -c -E '^0x(c[1-8]|4c[1-8]|18[6-9a-d]|309|30a|30b)$')" "some 0"
	regs_unchanged "lunarlake --once: every register as it was before" $M $LIB_TMP/before
	: >$LIB_TMP/out
	./lattop --state-dir $S --msr-dir $M --cpuid-file $LNL -b -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err &
	pid=$!
	_i=0
	while ! grep -q '^total ' $LIB_TMP/out && [ $_i -lt 400 ]; do sleep 0.05; _i=$((_i + 1)); done
	kill -KILL $pid
	wait $pid 2>/dev/null
	check "lunarlake SIGKILL: the journal holds version 6 registers" grep -q -E '^r [0-9]+ 0x19' $S/journal
	./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
	is "lunarlake --restore: exit 0" "$?" 0
	regs_unchanged "lunarlake --restore: every register as it was before" $M $LIB_TMP/before
	msrfs_umount $M
else
	skip "lunarlake on the stand-in: no $LNL"
fi

# ---- a counter in use is never written, the others measure ----
# PMC2 counts core cycles for someone else; the fixed counter 1 field is the
# NMI watchdog's (OS|USR|PMI).
msrfs_mount $M --simulate haswell --sim-profile \
	"$(sim_profile inuse 'msr.0x188 = 0x53003c' 'msr.0x38d = 0xb0')" || { not_ok "mount"; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
./lattop --state-dir $S --msr-dir $M --cpuid-file $HSW --once -d 0.3 --format json >$LIB_TMP/out 2>$LIB_TMP/err
is "in use: exit 0" "$?" 0
is "in use: PERFEVTSEL2 never written" "$(writes_to $M 0x188)" 0
is "in use: PMC2 never written" "$(( $(writes_to $M 0xc3) + $(writes_to $M 0x4c3) ))" 0
is "in use: every FIXED_CTR_CTRL write keeps the watchdog's field (0xb0)" \
	"$(grep '^W [0-9]* 0x38d ' $M/log | { n=0; while read -r _w _c _r v; do
		[ $((v & 0xf0)) -ne $((0xb0)) ] && n=$((n + 1)); done; echo $n; })" 0
check "in use: FIXED_CTR_CTRL was written (fixed counters 0 and 2 used)" grep -q '^W [0-9]* 0x38d ' $M/log
check "in use: the report names the counters taken" \
	sh -c "jq -r .note $LIB_TMP/out | grep -q 'IA32_PERFEVTSEL2=0x53003c'"
is "in use: HITM still measured" \
	"$(jq '.total.snoop.hitm_per_sec > 1.9e5 and .total.snoop.hitm_per_sec < 2.1e5' $LIB_TMP/out)" true
# Measured, not exact: the TSC rate comes from MSR reads through FUSE,
# timed by a clock a loaded machine delays (ghz's exactness: e2e_sim.sh).
is "in use: cycles moved to a general-purpose counter: ghz measured" \
	"$(jq '.total.ghz > 2.2 and .total.ghz < 2.6' $LIB_TMP/out)" true
# PMC2 and FIXED_CTR1 are counting for their owner: leave them out.
regs_unchanged "in use: every other register as it was before" $M $LIB_TMP/before ' 0x(c3|30a) '
msrfs_umount $M

# ---- no general-purpose counter free: refuse, write nothing ----
msrfs_mount $M --simulate haswell --sim-profile "$(sim_profile full 'cpu2.msr.0x186 = 0x53003c' \
	'cpu2.msr.0x187 = 0x5300c0' 'cpu2.msr.0x188 = 0x53003c' 'cpu2.msr.0x189 = 0x5300c0')" ||
	{ not_ok "mount"; tap_done; exit 1; }
./lattop --state-dir $S --msr-dir $M --cpuid-file $HSW --once -d 0.3 >$LIB_TMP/out 2>$LIB_TMP/err
rc=$?
check "no counter free: exit non-zero" test $rc -ne 0
is "no counter free: nothing written" "$(grep -c '^W ' $M/log)" 0
check "no counter free: the message names the CPU, registers and --force" \
	sh -c "grep -q 'cpu 2: no general-purpose counter is free' $LIB_TMP/err &&
	       grep -q 'IA32_PERFEVTSEL3=0x5300c0' $LIB_TMP/err && grep -q -- '--force' $LIB_TMP/err"
regs_snapshot $M $LIB_TMP/before
./lattop --state-dir $S --msr-dir $M --cpuid-file $HSW --once -d 0.3 --force >$LIB_TMP/out 2>$LIB_TMP/err
is "--force: exit 0" "$?" 0
check "--force: writes the taken counters" test "$(writes_to $M 0x186)" -gt 0
regs_unchanged "--force: every control register restored" $M $LIB_TMP/before '^2 0x(c[1-4]|30[9ab]) '
msrfs_umount $M

# ---- Nehalem: the counter-reset workaround runs, registers restored ----
msrfs_mount $M --simulate nehalem --sim-profile "$(sim_profile nhm)" || { not_ok "mount"; tap_done; exit 1; }
regs_snapshot $M $LIB_TMP/before
./lattop --state-dir $S --msr-dir $M --cpuid-file $NHM --once -d 0.3 >$LIB_TMP/out 2>$LIB_TMP/err
is "nehalem: exit 0" "$?" 0
check "nehalem: AAK100 sequence written (0x4300b5 to PERFEVTSEL0)" grep -q '^W 0 0x186 0x00000000004300b5' $M/log
regs_unchanged "nehalem: every register as it was before" $M $LIB_TMP/before
msrfs_umount $M

# ---- Westmere: no full-width writes ----
# PMC1's value cannot be written back through the legacy address (bit 31
# sign-extends): lattop must say so and exit 1; PMC0's can.
msrfs_mount $M --simulate westmere --sim-profile \
	"$(sim_profile wsm 'msr.0xc1 = 0x7fff0000' 'msr.0xc2 = 0x12345678abcd')" || { not_ok "mount"; tap_done; exit 1; }
./lattop --state-dir $S --msr-dir $M --cpuid-file $WSM --once -d 0.3 >$LIB_TMP/out 2>$LIB_TMP/err
is "westmere: a value that cannot be restored exits 1" "$?" 1
check "westmere: and says which and why" \
	sh -c "grep -q 'IA32_PMC1 was 0x12345678abcd; without full-width counter writes' $LIB_TMP/err"
is "westmere: PMC0 restored exactly" "$(grep '^0 0xc1 ' $M/state)" "0 0xc1 0x000000007fff0000"
msrfs_umount $M
tap_done
