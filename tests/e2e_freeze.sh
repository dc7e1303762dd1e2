#!/bin/sh
# e2e_freeze.sh: a version 4 PMU whose counters another agent froze
# (IA32_PERF_GLOBAL_STATUS.CTR_Frz, set by an overflow with PMI under
# IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI: pmu-facts 2.2, 2.3).  lattop must
# show no number for a CPU while its counters were frozen, say why, and
# leave the freeze alone; the other CPUs and the total come back within 2%.
# The naive reading (what lattop did before: counts read across a frozen
# time taken as measured) shows cpu 1 at a fraction of its clock and pulls
# the total down; the checks on cpu 1 and on the total fail under it.
# Every version 4 family the simulator has is run.
cd "$(dirname "$0")/.." && . tests/lib.sh

# The profile: version 4 bits only, so not in tests/profiles/ (every file
# there runs on every simulated family).
P=$LIB_TMP/frozen.prof
cat >"$P" <<'EOF'
# Version 4 counter freeze, for tests/e2e_freeze.sh (pmu-facts 2.2, 2.3).
# cpu 2: another agent froze the counters before lattop started
# (IA32_PERF_GLOBAL_STATUS.CTR_Frz preset).  cpu 1: another agent counts
# cycles on PMC3 with a PMI (PERFEVTSEL3 = 0x53003c: EN, INT, USR, OS) and
# IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) set; its counter overflows
# about 0.16 s in (2^48 - 3e8 at 2.4 GHz x 0.8 busy), which freezes every
# counter of cpu 1, lattop's too.  cpus 0 and 3 run free.  The simulator
# freezes only on a version 4 PMU.
cpus = 4
ghz = 2.4
tsc_ghz = 2.0
busy = 0.8
ipc = 1.2
loads_per_sec = 4e8
cpu2.msr.0x38e = 0x0800000000000000
cpu1.msr.0x1d9 = 0x1000
cpu1.msr.0x189 = 0x53003c
cpu1.msr.0xc4 = 0xFFFFEE1E5D00
EOF

# The microarchitectures (lattop --list-uarchs), those whose simulated CPU reports version 4.
v4=$(sim_uarchs_version -ge 4)
check "some simulated PMU is version 4 ($v4)" test -n "$v4"

v6=" $(sim_uarchs_version -ge 6)"
for u in $v4; do
	out=$LIB_TMP/$u.json
	# Perfmon version 6 (Lunar Lake): PMC3 and its select are IA32_PMC_GP3_CTR 0x190c and _CFG_A
	# 0x190d; the simulator has no legacy counter address there.
	Pu=$P
	case "$v6" in *" $u "*)
		Pu=$LIB_TMP/freeze-v6.prof
		sed 's/msr\.0x189 /msr.0x190d /; s/msr\.0xc4 /msr.0x190c /' $P >$Pu ;;
	esac
	if ! ./lattop --simulate $u --sim-profile $Pu -d 0.4 -n 2 --format json >"$out" 2>"$LIB_TMP/$u.err"; then
		not_ok "$u: lattop ran"
		diag "$(cat "$LIB_TMP/$u.err")"
		continue
	fi
	ok "$u: lattop ran"
	# -n 2: the second interval starts frozen on cpus 1 and 2.
	for n in 0 1; do
		iv="$u interval $n"
		for c in 1 2; do
			is "$iv cpu$c: no numbers, the freeze named" \
				"$(jq -s -r "[.[]] | .[$n].cpus[] | select(.cpu == $c) | [.online, (.error | test(\"CTR_Frz\")), .ghz, .ipc] | map(tostring) | join(\" \")" "$out")" \
				"false true null null"
		done
		for c in 0 3; do
			within "$iv cpu$c: ghz" "$(jq -s "[.[]] | .[$n].cpus[] | select(.cpu == $c) | .ghz" "$out")" 2.4
			within "$iv cpu$c: ipc" "$(jq -s "[.[]] | .[$n].cpus[] | select(.cpu == $c) | .ipc" "$out")" 1.2
		done
		within "$iv total: ghz (the frozen CPUs left out)" "$(jq -s "[.[]] | .[$n].total.ghz" "$out")" 2.4
	done
done
tap_done
