#!/bin/sh
# e2e_partial.sh: one CPU whose counters another user holds no longer turns
# a number off on every CPU (issue 18, point 8).  On Haswell with HT on
# (4 counters, one kept for load latency), cpu 3's PMC1 and PMC2 belong to
# someone else: the offcore pair needs two counters at once, and only PMC0
# is free everywhere.  lattop measures it on cpus 0-2, on PMC0 and a
# counter free there, never touches cpu 3's, says on cpu 3 why not, names
# cpu 3 in the note, and totals the CPUs it measured.  On the FUSE stand-in
# every write to cpu 3's PMC1/2 fails, so a write there ends the run.
# Then the label of the offcore numbers with HT on (pmu-facts 8.14): on
# Haswell to Skylake libpfm4 marks both events "use with HT off only", so
# with both threads of a core online the note says they are unverified;
# with HT off, and on Sandy Bridge, it does not.
cd "$(dirname "$0")/.." && . tests/lib.sh

HSW=tests/dumps/haswell_core-i7-4500u.raw
fuse_or_skip

L="./lattop --msr-dir $M --cpuid-file $HSW --state-dir $S"
P=$(sim_profile part 'cpu3.msr.0x187 = 0x53003c' 'cpu3.msr.0x188 = 0x5300c0')
msrfs_mount $M --simulate haswell --sim-profile "$P" || { not_ok mount; tap_done; exit 1; }

regs_snapshot $M $LIB_TMP/before
for reg in 0x187 0x188 0xc2 0xc3; do
	msrfs_ctl $M fail-write 3 $reg EIO
done
$L --once -d 1 --format json >$LIB_TMP/out.json 2>$LIB_TMP/err
is "exit 0: nothing written to cpu 3's PMC1/2" "$?" 0
[ -s $LIB_TMP/err ] && diag "$(cat $LIB_TMP/err)"
for c in 0 1 2; do
	within "cpu $c: offcore reads/s measured" \
		"$(jq ".cpus[] | select(.cpu == $c) | .offcore.reads_per_sec" $LIB_TMP/out.json)" 2e7
	within "cpu $c: offcore latency measured" \
		"$(jq ".cpus[] | select(.cpu == $c) | .offcore.avg_latency_cycles" $LIB_TMP/out.json)" 180
done
is "cpu 3: offcore not measured" \
	"$(jq '.cpus[] | select(.cpu == 3) | .offcore.reads_per_sec' $LIB_TMP/out.json)" null
check "cpu 3: the reason names its counters" \
	jqe '.cpus[] | select(.cpu == 3) | .offcore.reason | test("another user holds IA32_PMC1/2 on this CPU")' \
	$LIB_TMP/out.json
check "cpu 3: its other numbers are measured" \
	jqe '.cpus[] | select(.cpu == 3) | .load_latency.loads_per_sec > 0' $LIB_TMP/out.json
within "total: offcore reads/s of the 3 CPUs measured" \
	"$(jq '.total.offcore.reads_per_sec' $LIB_TMP/out.json)" 6e7
check "the note names cpu 3" \
	jqe '.note | test("offcore_reads and offcore_outstanding: not measured on cpu 3 \\(another user holds IA32_PMC1/2 there\\)")' \
	$LIB_TMP/out.json
msrfs_ctl $M clear-faults
regs_unchanged "every register as it was (the other user's counters aside: they count)" $M $LIB_TMP/before '^3 0xc[23] '

# The text report says the same, once.
$L --once -d 0.3 >$LIB_TMP/out.txt 2>&1
check "text: the note names cpu 3" grep -q 'not measured on cpu 3' $LIB_TMP/out.txt
check "text: cpu 3's offcore is '-'" grep -Eq '^3 .* -  +-  +-$' $LIB_TMP/out.txt

# Every CPU busy the same way: nothing to place part-time, the reason as before.
P2=$(sim_profile all 'msr.0x187 = 0x53003c' 'msr.0x188 = 0x5300c0')
./lattop --simulate haswell --sim-profile "$P2" --once -d 0.2 --format json >$LIB_TMP/all.json 2>/dev/null
check "every CPU busy: offcore not measured, 2 counters at once" \
	jqe '.total.offcore.reason | test("need 2 counters at once")' $LIB_TMP/all.json

# ---- the offcore label with HT on ----
caveat='use with HT off only'
for u in haswell broadwell skylake; do
	./lattop --simulate $u --once -d 0.2 --format json >$LIB_TMP/ht.json 2>/dev/null
	check "$u, HT on: the note says the offcore numbers are unverified" \
		jqe --arg c "$caveat" '.note | contains($c)' $LIB_TMP/ht.json
	P3=$(sim_profile noht 'threads_per_core = 1')
	./lattop --simulate $u --sim-profile "$P3" --once -d 0.2 --format json >$LIB_TMP/noht.json 2>/dev/null
	check "$u, HT off: no such note" \
		jqe --arg c "$caveat" '(.note // "") | contains($c) | not' $LIB_TMP/noht.json
	check "$u, HT off: offcore measured" jqe '.total.offcore.reads_per_sec > 0' $LIB_TMP/noht.json
done
./lattop --simulate sandybridge --once -d 0.2 --format json >$LIB_TMP/snb.json 2>/dev/null
check "sandybridge, HT on: no such note (libpfm4 has none there)" \
	jqe --arg c "$caveat" '(.note // "") | contains($c) | not' $LIB_TMP/snb.json
# -c 0 on a part with HT on: the sibling is not measured, but runs.
./lattop --simulate skylake -c 0 --once -d 0.2 --format json >$LIB_TMP/c0.json 2>/dev/null
check "skylake -c 0: the sibling runs, so the note is there" \
	jqe --arg c "$caveat" '.note | contains($c)' $LIB_TMP/c0.json
tap_done
