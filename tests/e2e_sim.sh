#!/bin/sh
# e2e_sim.sh: for each supported microarchitecture, lattop --simulate with a
# workload profile gives back every ground-truth number within 2%, per CPU
# (overrides included) and in total; what a family cannot measure is
# reported unsupported with a reason, never as a number.
#
# The expected values are computed here from the profile's own numbers
# (tests/profiles/truth.prof), not from anything lattop or the simulator
# share.
cd "$(dirname "$0")/.." && . tests/lib.sh

P=tests/profiles/truth.prof
THR=8,16,64,256

# Fraction of loads above threshold T for "5:0.70 20:0.20 70:0.06 300:0.04".
above_frac() {
	awk -v t="$1" 'BEGIN { n = split("5 20 70 300", l, " "); split("0.70 0.20 0.06 0.04", f, " ");
		s = 0; for (i = 1; i <= n; i++) if (l[i] > t) s += f[i]; print s }'
}

# within NAME GOT WANT: |GOT - WANT| <= 2% of WANT (exactly 0 when WANT is 0)
within() {
	if awk -v g="$2" -v w="$3" 'BEGIN { if (g == "null" || g == "") exit 1;
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w;
		exit !(a == 0 ? d == 0 : d <= 0.02 * a) }'; then
		ok "$1"
	else
		not_ok "$1"
		diag "got $2, want $3 (within 2%)"
	fi
}

# Per-CPU truth: value of KEY for CPU N from the profile (override or default).
truth() {
	v=$(sed -n "s/^cpu$2\\.$1 *= *\\([^ #]*\\).*/\\1/p" $P)
	[ -n "$v" ] || v=$(sed -n "s/^$1 *= *\\([^ #]*\\).*/\\1/p" $P)
	awk -v v="$v" 'BEGIN { printf "%.10g\n", v }'
}

for u in nehalem westmere silvermont airmont goldmont goldmont-plus haswell broadwell; do
	out=$LIB_TMP/$u.json
	if ! ./lattop --simulate $u --sim-profile $P --once -d 0.4 --thresholds $THR \
		--format json >"$out" 2>"$LIB_TMP/$u.err"; then
		not_ok "$u: lattop --once ran"
		diag "$(cat "$LIB_TMP/$u.err")"
		continue
	fi
	ok "$u: lattop --once ran"
	is "$u: source" "$(jq -r .source "$out")" simulator
	is "$u: microarch" "$(jq -r .cpu.microarch "$out")" "$u"
	is "$u: 8 CPUs" "$(jq '.cpus | length' "$out")" 8

	sum_hitm=0 sum_reads=0 sum_loads=0 sum_out=0
	for c in 0 3 5 6; do
		j=".cpus[] | select(.cpu == $c)"
		within "$u cpu$c: ghz" "$(jq "$j.ghz" "$out")" 2.4
		within "$u cpu$c: ipc" "$(jq "$j.ipc" "$out")" 1.2
		within "$u cpu$c: snoop hit/s" "$(jq "$j.snoop.hit_per_sec" "$out")" "$(truth snoop_hit_per_sec $c)"
		within "$u cpu$c: HITM/s" "$(jq "$j.snoop.hitm_per_sec" "$out")" "$(truth hitm_per_sec $c)"
		within "$u cpu$c: offcore reads/s" "$(jq "$j.offcore.reads_per_sec" "$out")" \
			"$(truth offcore_reads_per_sec $c)"
		case $u in
		nehalem)
			is "$u cpu$c: offcore latency unsupported" \
				"$(jq -r "$j | .offcore | [.supported, (.avg_latency_cycles == null), (.reason | length > 10)] | map(tostring) | join(\" \")" "$out")" \
				"false true true"
			;;
		*)
			lat=$(truth offcore_latency $c)
			within "$u cpu$c: offcore latency cycles" "$(jq "$j.offcore.avg_latency_cycles" "$out")" "$lat"
			within "$u cpu$c: offcore latency ns" "$(jq "$j.offcore.avg_latency_ns" "$out")" \
				"$(awk -v l="$lat" 'BEGIN { print l / 2.4 }')"
			;;
		esac
		case $u in
		silvermont|airmont|goldmont|goldmont-plus)
			is "$u cpu$c: load latency unsupported, with a reason, no numbers" \
				"$(jq -r "$j.load_latency | [.supported, (.reason | length > 10), .loads_per_sec, (.above_per_sec | map(select(. != null)) | length)] | map(tostring) | join(\" \")" "$out")" \
				"false true null 0"
			;;
		*)
			loads=$(truth loads_per_sec $c)
			within "$u cpu$c: loads/s" "$(jq "$j.load_latency.loads_per_sec" "$out")" "$loads"
			i=0
			for t in $(echo $THR | tr , ' '); do
				within "$u cpu$c: loads above $t/s" "$(jq "$j.load_latency.above_per_sec[$i]" "$out")" \
					"$(awk -v l="$loads" -v f="$(above_frac $t)" 'BEGIN { printf "%.10g", l * f }')"
				i=$((i + 1))
			done
			;;
		esac
	done
	# Totals are sums over the 8 CPUs.
	tot_hitm=$(awk -v d="$(truth hitm_per_sec 0)" -v o="$(truth hitm_per_sec 3)" 'BEGIN { print 7 * d + o }')
	within "$u total: HITM/s" "$(jq .total.snoop.hitm_per_sec "$out")" "$tot_hitm"
	tot_reads=$(awk -v d="$(truth offcore_reads_per_sec 0)" -v o="$(truth offcore_reads_per_sec 3)" \
		'BEGIN { print 7 * d + o }')
	within "$u total: offcore reads/s" "$(jq .total.offcore.reads_per_sec "$out")" "$tot_reads"
	within "$u total: ghz" "$(jq .total.ghz "$out")" 2.4
done
tap_done
