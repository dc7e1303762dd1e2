#!/bin/sh
# e2e_wrap.sh: counters that wrap more than once within a rotation slot
# still give back the ground truth within 2%.  The profile
# (tests/profiles/wrap.prof) runs the simulated machine 1000 times faster
# than wall time: on the 40-bit counters (Silvermont and Airmont) the
# outstanding-read counter wraps several times a slot and the fixed
# counters more than once an interval, so a reading taken only at slot
# boundaries (a delta survives one wrap) fails here.  lattop learns the
# speed only from the TSC, as on hardware.  Expected values come from the
# profile's numbers times the time scale.  The same for the load-latency
# counter, which lattop re-zeroes long before it could overflow: it must
# be stopped for that write (tests/profiles/rezero.prof).
cd "$(dirname "$0")/.." && . tests/lib.sh

P=tests/profiles/wrap.prof
N=1000

# Per wall second: the profile's rate times the time scale.
fast() {
	awk -v v="$(truth "$1" "$2")" -v n=$N 'BEGIN { printf "%.10g\n", v * n }'
}

# Every uarch with 40-bit counters, as lattop --list-uarchs says.
U40=$(./lattop --list-uarchs --format json | jq -r '.[] | select(.leaf_0xa.gp_width == 40) | .name')
check "some uarch has 40-bit counters" test -n "$U40"
for u in $U40; do
	# The test means something only if the counters do wrap more than once
	# between two slot boundaries: 2^40 against the outstanding count of
	# one slot, and against the fixed cycles of one interval.
	slots=$(./lattop --simulate $u --sim-profile $P --list-events | sed -n 's/.*: \([0-9]*\) rotation slots*$/\1/p')
	wraps=$(awk -v r="$(fast offcore_reads_per_sec 0)" -v l="$(truth offcore_latency 0)" -v s="$slots" \
		'BEGIN { printf "%d", r * l / s / 2^40 }')
	check "$u: the outstanding count wraps more than once a slot ($wraps, $slots slots)" test "$wraps" -ge 2
	cyc=$(awk -v g="$(truth ghz 0)" -v n=$N 'BEGIN { printf "%d", g * 1e9 * n / 2^40 }')
	check "$u: the cycle counter wraps more than once an interval ($cyc)" test "$cyc" -ge 2

	out=$LIB_TMP/$u.json
	if ! ./lattop --simulate $u --sim-profile $P --once -d 1 --format json >"$out" 2>"$LIB_TMP/$u.err"; then
		not_ok "$u: lattop --once ran"
		diag "$(cat "$LIB_TMP/$u.err")"
		continue
	fi
	ok "$u: lattop --once ran"
	for c in 0 3 5 6; do
		j=".cpus[] | select(.cpu == $c)"
		within "$u cpu$c: ghz" "$(jq "$j.ghz" "$out")" "$(awk -v n=$N 'BEGIN { print 2.4 * n }')"
		within "$u cpu$c: ipc" "$(jq "$j.ipc" "$out")" "$(truth ipc $c)"
		within "$u cpu$c: offcore reads/s" "$(jq "$j.offcore.reads_per_sec" "$out")" \
			"$(fast offcore_reads_per_sec $c)"
		within "$u cpu$c: offcore latency cycles" "$(jq "$j.offcore.avg_latency_cycles" "$out")" \
			"$(truth offcore_latency $c)"
		within "$u cpu$c: snoop hit/s" "$(jq "$j.snoop.hit_per_sec" "$out")" "$(fast snoop_hit_per_sec $c)"
		within "$u cpu$c: HITM/s" "$(jq "$j.snoop.hitm_per_sec" "$out")" "$(fast hitm_per_sec $c)"
	done
	within "$u total: offcore reads/s" "$(jq .total.offcore.reads_per_sec "$out")" \
		"$(awk -v d="$(fast offcore_reads_per_sec 0)" -v o="$(fast offcore_reads_per_sec 3)" 'BEGIN { print 7 * d + o }')"
	within "$u total: HITM/s" "$(jq .total.snoop.hitm_per_sec "$out")" \
		"$(awk -v d="$(fast hitm_per_sec 0)" -v o="$(fast hitm_per_sec 6)" 'BEGIN { print 7 * d + o }')"
done

# The load-latency counter, on every uarch with load latency: counting with
# PEBS, it is written back to 0 at 2^(width-8) (pmu_read_gp), which on
# tests/profiles/rezero.prof happens several times in every slot.  Each
# write must find it stopped (pmu-facts 8.12): the simulator garbles a
# counter written while it counts with PEBS, and the shares would not come
# back.
P=tests/profiles/rezero.prof
N=1000000
THR=16,64,256
./lattop --list-uarchs --format json >"$LIB_TMP/uarchs.json"
ULL=$(jq -r '.[] | select(any(.metrics[]; .metric == "load_latency" and .measured)) | .name' \
	"$LIB_TMP/uarchs.json")
check "some uarch has load latency" test -n "$ULL"
# Fraction of loads above threshold T for "5:0.70 20:0.20 70:0.06 300:0.04".
above_frac() {
	awk -v t="$1" 'BEGIN { n = split("5 20 70 300", l, " "); split("0.70 0.20 0.06 0.04", f, " ");
		s = 0; for (i = 1; i <= n; i++) if (l[i] > t) s += f[i]; print s }'
}
for u in $ULL; do
	w=$(jq -r --arg u $u '.[] | select(.name == $u) | .leaf_0xa.gp_width' "$LIB_TMP/uarchs.json")
	slots=$(./lattop --simulate $u --sim-profile $P --thresholds $THR --list-events |
		sed -n 's/.*: \([0-9]*\) rotation slots*$/\1/p')
	# Tagged loads above 256 in one slot of a 1 s interval, against 2^(width-8).
	zeros=$(awk -v r="$(fast loads_per_sec 0)" -v f="$(above_frac 256)" -v s="$slots" -v w="$w" \
		'BEGIN { printf "%d", r * f / s / 2^(w - 8) }')
	check "$u: the load-latency counter passes 2^$((w - 8)) more than once a slot ($zeros, $slots slots)" \
		test "$zeros" -ge 2
	out=$LIB_TMP/$u-ll.json
	if ! ./lattop --simulate $u --sim-profile $P --thresholds $THR --once -d 1 --format json \
		>"$out" 2>"$LIB_TMP/$u-ll.err"; then
		not_ok "$u: lattop --once ran (load latency)"
		diag "$(cat "$LIB_TMP/$u-ll.err")"
		continue
	fi
	ok "$u: lattop --once ran (load latency)"
	for c in 0 3; do
		j=".cpus[] | select(.cpu == $c) | .load_latency"
		within "$u cpu$c: tagged loads/s" "$(jq "$j.tagged_per_sec" "$out")" "$(fast loads_per_sec $c)"
		i=0
		for t in $(echo $THR | tr , ' '); do
			within "$u cpu$c: share above $t" "$(jq "$j.above_share[$i]" "$out")" "$(above_frac $t)"
			i=$((i + 1))
		done
	done
done

# The key itself: a positive number, for the whole machine.
printf 'time_scale = 0\n' >"$LIB_TMP/zero.prof"
./lattop --simulate silvermont --sim-profile "$LIB_TMP/zero.prof" --once -d 0.1 >/dev/null 2>"$LIB_TMP/zero.err"
rc=$?
is "time_scale = 0: usage error" "$rc $(grep -c 'zero.prof:1: time_scale: must be above 0 and at most 1e+06' "$LIB_TMP/zero.err")" "2 1"
printf 'time_scale = 2e6\n' >"$LIB_TMP/big.prof"
./lattop --simulate silvermont --sim-profile "$LIB_TMP/big.prof" --once -d 0.1 >/dev/null 2>"$LIB_TMP/big.err"
is "time_scale = 2e6: usage error" "$? $(grep -c 'big.prof:1: time_scale: must be above 0 and at most 1e+06' "$LIB_TMP/big.err")" "2 1"
printf 'cpu1.time_scale = 2\n' >"$LIB_TMP/cpu.prof"
./lattop --simulate silvermont --sim-profile "$LIB_TMP/cpu.prof" --once -d 0.1 >/dev/null 2>"$LIB_TMP/cpu.err"
is "cpu1.time_scale: refused" "$? $(grep -c 'cpu.prof:1: cpu1.time_scale: not a per-CPU key' "$LIB_TMP/cpu.err")" "2 1"
tap_done
