#!/bin/sh
# e2e_restore.sh: lattop through --msr-dir on the FUSE msr stand-in
# (tests/msrfs) serving the simulator: the same open/pread/pwrite path as
# /dev/cpu/N/msr.  Every register is as it was after --once and after
# --batch ended by SIGTERM, SIGINT, SIGHUP and SIGQUIT; a counter in use is never
# written while the others measure (Lion Cove's PMC8 too); with no counter
# free nothing is written and the exit is non-zero.  Lion Cove's PMC8/9 are
# programmed and put back (after SIGKILL too, and from an older lattop's
# journal of PMC0-7); a part with eight counters never sees a ninth.
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
# lnl_once NAME [PROFILE LINE...]: the stand-in as Lunar Lake (4 P-cores, 4 E-cores) with these
# profile lines, its registers in $LIB_TMP/before, then lattop --once into $LIB_TMP/out.
lnl_once() {
	_ln=$1
	shift
	msrfs_mount $M --simulate lunarlake --sim-profile \
		"$(sim_profile lnl 'cpus = 8' 'core_types = P:4,E:4' "$@")" ||
		{ not_ok "mount lunarlake ($_ln)"; tap_done; exit 1; }
	regs_snapshot $M $LIB_TMP/before
	./lattop --state-dir $S --msr-dir $M --cpuid-file $LNL --once -d 0.3 --format json >$LIB_TMP/out \
		2>$LIB_TMP/err
	is "lunarlake $_ln: exit 0" "$?" 0
}
if [ -f $LNL ]; then
	lnl_once "--once on the stand-in"
	is "lunarlake --once measured the P-cores' HITM through the version 6 range" \
		"$(jq '.cpus[0].snoop.hitm_per_sec > 4.5e4 and .cpus[0].snoop.hitm_per_sec < 5.5e4' $LIB_TMP/out)" true
	is "lunarlake --once wrote counters and selects in the version 6 range, none in the legacy one" \
		"$(awk '$1 == "W" { print $3 }' $M/log | sort -u | grep -c -E '^0x19[0-9a-f][0-9a-f]$' |
		   sed 's/^0$/none/;s/^[0-9]*$/some/') $(awk '$1 == "W" { print $3 }' $M/log | sort -u |
		   grep -c -E '^0x(c[1-8]|4c[1-8]|18[6-9a-d]|309|30a|30b)$')" "some 0"
	regs_unchanged "lunarlake --once: every register as it was before" $M $LIB_TMP/before
	# Lion Cove's ten counters (leaf 0x23.1 GP 0x3FF): PMC8 and 9 through the version 6 range
	# (0x1920/0x1921, 0x1924/0x1925) on the P-cores (CPUs 0-3), never on the E-cores' eight,
	# never at a legacy address (0xc9, 0xca, 0x18e, 0x18f, 0x4c9, 0x4ca: UNVERIFIED).
	is "lunarlake --once programmed PMC8 and PMC9 on every P-core" \
		"$(awk '$1 == "W" && $2 < 4 && ($3 == "0x1921" || $3 == "0x1925") { print $2, $3 }' $M/log |
		   sort -u | wc -l)" 8
	is "lunarlake --once never touched a ninth counter on the E-cores' eight" \
		"$(awk '$2 >= 4 && $3 ~ /^0x192[0-7]$/' $M/log | wc -l)" 0
	is "lunarlake --once never named PMC8/9 at a legacy address" \
		"$(awk '$3 ~ /^0x(c9|ca|18e|18f|4c9|4ca)$/' $M/log | wc -l)" 0
	# The load-latency event (0xcd, umask 0x01) goes to PMC2-9's selects only
	# (K612 INTEL_HYBRID_LDLAT_CONSTRAINT(0x1cd, 0x3fc)): CFG_A 0x1909 + 4k, k >= 2.
	is "lunarlake --once put load latency on PMC2-9 only, and on one of them" \
		"$(awk '$1 == "W" && $2 < 4 && $3 ~ /^0x19[0-2][159d]$/ && ($4 ~ /01cd$/) { print $3 }' $M/log |
		   sort -u | { bad=0 n=0; while read -r r; do k=$(( (r - 0x1901) / 4 )); n=$((n + 1))
		   [ $k -lt 2 ] && bad=$((bad + 1)); done; echo "$n $bad"; } | sed 's/^[1-9][0-9]* /some /')" "some 0"
	: >$LIB_TMP/out
	./lattop --state-dir $S --msr-dir $M --cpuid-file $LNL -b -d 0.2 >$LIB_TMP/out 2>$LIB_TMP/err &
	pid=$!
	_i=0
	while ! grep -q '^total ' $LIB_TMP/out && [ $_i -lt 400 ]; do sleep 0.05; _i=$((_i + 1)); done
	kill -KILL $pid
	wait $pid 2>/dev/null
	check "lunarlake SIGKILL: the journal holds version 6 registers" grep -q -E '^r [0-9]+ 0x19' $S/journal
	is "lunarlake SIGKILL: the journal holds PMC8/9 and their selects on the P-cores" \
		"$(grep -c -E '^r [0-3] 0x192[0145] ' $S/journal)" 16
	check "lunarlake SIGKILL: PMC9's select was lattop's when it died" \
		sh -c "grep '^W [0-3] 0x1925 ' $M/log | grep -q -v ' 0x0*$'"
	cp $S/journal $LIB_TMP/journal.10
	./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
	is "lunarlake --restore: exit 0" "$?" 0
	regs_unchanged "lunarlake --restore: every register as it was before" $M $LIB_TMP/before

	# The journal an older lattop left, measuring PMC0-7 (the same lines, PMC8/9's gone and
	# the masks of GLOBAL_CTRL and PEBS_ENABLE of 8 counters), after a crash that left its
	# selects, counters and enables written: read, and every register it names put back.
	grep -v -E '^r [0-9]+ 0x192[0145] ' $LIB_TMP/journal.10 |
		sed -E 's/^(r [0-3] 0x38f 0x[0-9a-f]+) 0x7000003ff$/\1 0x7000000ff/
			s/^(r [0-3] 0x3f1 0x[0-9a-f]+) 0x3ff$/\1 0xff/' >$S/journal
	is "lunarlake: the older lattop's journal has no PMC8/9 and 8-counter masks" \
		"$(grep -c -E '^r [0-3] 0x(192[0145] |38f .* 0x7000003ff|3f1 .* 0x3ff)' $S/journal)" 0
	for c in 0 1 2 3; do
		msrfs_ctl $M set $c 0x1901 0x4381d0
		msrfs_ctl $M set $c 0x1909 0x4301cd
		msrfs_ctl $M set $c 0x191d 0x430121
		msrfs_ctl $M set $c 0x1908 0xffffff000123
		msrfs_ctl $M set $c 0x3f1 0x4
		msrfs_ctl $M set $c 0x3f6 0x40
	done
	./lattop --restore --msr-dir $M --state-dir $S >$LIB_TMP/out 2>$LIB_TMP/err
	is "lunarlake --restore of an older lattop's journal: exit 0" "$?" 0
	regs_unchanged "lunarlake --restore of an older lattop's journal: every register as before" \
		$M $LIB_TMP/before
	msrfs_umount $M

	# Another user holds PMC8 on CPU 0 (a cycles event with its PMI, as perf leaves it): a
	# mask cut to 8 bits would lose that ownership and write over it.  lattop leaves PMC8
	# and its select alone there, measures, names the register, and puts the rest back.
	lnl_once "PMC8 in use" 'cpu0.msr.0x1921 = 0x53003c'
	is "lunarlake PMC8 in use: CPU 0's PMC8 and its select never written" \
		"$(grep -c -E '^W 0 0x192[01] ' $M/log)" 0
	check "lunarlake PMC8 in use: CPU 0's PMC9 still lattop's" grep -q -E '^W 0 0x1925 ' $M/log
	check "lunarlake PMC8 in use: the report names the counter taken" \
		sh -c "jq -r .note $LIB_TMP/out | grep -q 'IA32_PMC_GP8_CFG_A=0x53003c'"
	is "lunarlake PMC8 in use: HITM still measured on CPU 0" \
		"$(jq '.cpus[0].snoop.hitm_per_sec > 4.5e4 and .cpus[0].snoop.hitm_per_sec < 5.5e4' $LIB_TMP/out)" true
	regs_unchanged "lunarlake PMC8 in use: every other register as it was before" $M $LIB_TMP/before \
		'^0 0x0*1920 '
	msrfs_umount $M
else
	skip "lunarlake on the stand-in: no $LNL"
fi

# ---- eight counters: never a ninth ----
# Ice Lake (version 5, leaf 0xA's 8): no access at all, read or write, to where a ninth counter
# would be in either range.  Arrow Lake-H's Lion Cove cores have ten (leaf 0x23.1) on version 5,
# whose PMC8/9 have no address lattop trusts: its plan stops at PMC7; Arrow Lake-S (version 6)
# places on PMC8/9.
ICL=../shared/cpuid/all/icelake_core-i7-1065g7.cpuid-r.txt
ARLH=../shared/cpuid/all/arrowlakeh_core-ultra-9-285h.cpuid-r.txt
ARLS=../shared/cpuid/all/arrowlake_core-ultra-7-265k.cpuid-r.txt
if [ -f $ICL ] && [ -f $ARLH ] && [ -f $ARLS ]; then
	msrfs_mount $M --simulate icelake --sim-profile "$(sim_profile icl)" ||
		{ not_ok "mount icelake"; tap_done; exit 1; }
	./lattop --state-dir $S --msr-dir $M --cpuid-file $ICL --once -d 0.3 >/dev/null 2>$LIB_TMP/err
	is "icelake --once exits 0" "$?" 0
	check "icelake --once wrote PERFEVTSEL7" grep -q -E '^W [0-9]+ 0x18d ' $M/log
	is "icelake --once touched no ninth counter (0xc9, 0x18e, 0x4c9, 0x1920...)" \
		"$(awk '$3 ~ /^0x(c9|ca|18e|18f|4c9|4ca|19[0-9a-f][0-9a-f])$/' $M/log | wc -l)" 0
	msrfs_umount $M
	is "arrowlake-h (version 5): Lion Cove's plan stops at PMC7" \
		"$(./lattop --list-events --cpuid-file $ARLH | grep -c -E ' PMC[89] ')" 0
	check "arrowlake-s (version 6): Lion Cove's plan uses PMC8/9" \
		sh -c "./lattop --list-events --cpuid-file $ARLS | grep -q -E ' PMC[89] '"
else
	skip "eight counters: no $ICL, $ARLH or $ARLS"
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
