#!/bin/sh
# e2e_legacy_freeze.sh: a version 3 PMU whose counters another agent's PMI
# stopped.  With IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) a PMI clears
# every enable bit of IA32_PERF_GLOBAL_CTRL, and the handler is to set them
# again (SDM 2009 p.18-16, p.18-19; pmu-facts 8.10); the agent here sets
# only its own.  lattop must show no number for the CPU in the interval its
# counters stopped, say why, set its own bits again (and no one else's),
# and measure that CPU truly from the next interval; the other CPUs and the
# total come back within 2%.
# The naive reading (counts read across the stopped time taken as
# measured, the bits never set again) shows cpu 1 at a fraction of its
# clock in the first interval and at zero in the second: both checks on
# cpu 1 fail under it.  Every version 3 family the simulator has is run.
cd "$(dirname "$0")/.." && . tests/lib.sh

# cpu 1: another agent counts cycles on PMC1 with a PMI (PERFEVTSEL1 =
# 0x53003c: EN, INT, USR, OS) and FREEZE_PERFMON_ON_PMI set; its counter
# overflows about 1 s after the simulated machine starts (1.92e9 cycles
# short of the top at 2.4 GHz x 0.8 busy), within the 2 s lattop measures
# however long it took to start.  cpus 0, 2 and 3 run free.
profile() {
	cat <<EOF
cpus = 4
ghz = 2.4
tsc_ghz = 2.0
busy = 0.8
ipc = 1.2
loads_per_sec = 4e8
cpu1.msr.0x1d9 = 0x1000
cpu1.msr.0x187 = 0x53003c
cpu1.msr.0xc2 = $1
EOF
}

v3=$(sim_uarchs_version -eq 3)
check "some simulated PMU is version 3 ($v3)" test -n "$v3"

for u in $v3; do
	w=$(./lattop --detect --simulate $u --format json | jq .pmu.gp_width)
	P=$LIB_TMP/$u.prof
	profile "$(printf '0x%X' $(((1 << w) - 1920000000)))" >"$P"
	out=$LIB_TMP/$u.json
	if ! ./lattop --simulate $u --sim-profile $P -d 0.25 -n 8 --format json >"$out" 2>"$LIB_TMP/$u.err"; then
		not_ok "$u: lattop ran"
		diag "$(cat "$LIB_TMP/$u.err")"
		continue
	fi
	ok "$u: lattop ran"
	# The interval the PMI came in: no numbers for cpu 1, the stop named.
	stops=$(jq -s -r '[to_entries[] | select(.value.cpus[] | select(.cpu == 1) | .online == false
		and (.error // "" | test("FREEZE_PERFMON_ON_PMI"))) | .key] | map(tostring) | join(" ")' "$out")
	is "$u: one interval of cpu 1 stopped by the PMI, the stop named" "$(echo $stops | wc -w)" 1
	k=${stops:-0}
	check "$u: the stop is not in the last interval ($k)" test "$k" -lt 7
	# Every interval after it: cpu 1 measured again, lattop's bits set again.
	n=$((k + 1))
	while [ $n -le 7 ]; do
		within "$u interval $n cpu1: ghz, measured again" \
			"$(jq -s ".[$n].cpus[] | select(.cpu == 1) | .ghz" "$out")" 2.4
		n=$((n + 1))
	done
	within "$u last interval cpu1: ipc" "$(jq -s '.[7].cpus[] | select(.cpu == 1) | .ipc' "$out")" 1.2
	for n in 0 $k 7; do
		for c in 0 2 3; do
			within "$u interval $n cpu$c: ghz" \
				"$(jq -s ".[$n].cpus[] | select(.cpu == $c) | .ghz" "$out")" 2.4
		done
		within "$u interval $n total: ghz" "$(jq -s ".[$n].total.ghz" "$out")" 2.4
	done
done
tap_done
