#!/bin/sh
# e2e_htbug.sh: Haswell with Hyper-Threading (erratum HSD29, kernel
# intel_ht_bug; every uarch --list-uarchs flags ht_excl): loads retired
# (0xD0) miscount unless the sibling thread's same counter is idle, and the
# simulator drops half of them when it is not.  lattop must plan so that
# siblings never run them on the same counter at once: loads/s come back
# within 2% per CPU and in total.  Broadwell has no such erratum;
# measuring one thread per core needs no care.  Expected values are the
# profile's (tests/profiles/htbug.prof).
cd "$(dirname "$0")/.." && . tests/lib.sh

P=tests/profiles/htbug.prof

run() {
	name=$1
	shift
	out=$LIB_TMP/$name.json
	if ! ./lattop "$@" --sim-profile $P --once -d 0.4 --format json >"$out" 2>"$LIB_TMP/$name.err"; then
		not_ok "$name: lattop --once ran"
		diag "$(cat "$LIB_TMP/$name.err")"
		return 1
	fi
	ok "$name: lattop --once ran"
}

# Every uarch with the erratum (flag ht_excl in lattop --list-uarchs), and
# Broadwell, which has none, as the control.
for u in $(./lattop --list-uarchs --format json | jq -r '.[] | select(.flags | index("ht_excl")) | .name') broadwell; do
	run $u --simulate $u || continue
	tot=0
	for c in 0 1 2 3 4 5 6 7; do
		want=$(truth loads_per_sec $c)
		tot=$(awk -v a="$tot" -v b="$want" 'BEGIN { printf "%.10g", a + b }')
		within "$u cpu$c: loads/s" "$(jq ".cpus[] | select(.cpu == $c) | .load_latency.loads_per_sec" \
			"$LIB_TMP/$u.json")" "$want"
	done
	within "$u total: loads/s" "$(jq .total.load_latency.loads_per_sec "$LIB_TMP/$u.json")" "$tot"
done

# One thread of each core measured: its sibling's counters stay idle.
if run half --simulate haswell --cpus 0-3; then
	for c in 0 1 2 3; do
		within "haswell, cpus 0-3, cpu$c: loads/s" \
			"$(jq ".cpus[] | select(.cpu == $c) | .load_latency.loads_per_sec" "$LIB_TMP/half.json")" \
			"$(truth loads_per_sec $c)"
	done
fi
tap_done
