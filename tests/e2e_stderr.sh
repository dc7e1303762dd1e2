#!/bin/sh
# e2e_stderr.sh: how sure an estimate is.  The loads above a threshold are
# estimated from loads the hardware tags at random (pmu-facts 8.1), and the
# simulator tags each load on its own, as the hardware does: at a low
# tagging rate the shares are noisy.  Every share and rate comes with a
# standard error, from the counts of tagged loads behind it, that says how
# noisy: over many intervals the true share lies within 3 of them of the
# estimate, they shrink as one over the square root of the interval, and
# the naive readings (a share taken at its word, the binomial error alone,
# an error computed from the rate instead of the count) fail here.
cd "$(dirname "$0")/.." && . tests/lib.sh

# One load in 10000 tagged: about a thousand tagged loads behind each share
# of each CPU at -d 0.15.  True shares: 0.8 above 16, 0.3 above 200, 0 above 1000.
P=$LIB_TMP/noisy.prof
cat >$P <<EOF
cpus = 4
loads_per_sec = 4e8
load_latency = 5:0.2 100:0.5 400:0.3
ldlat_tagged_fraction = 1e-4
EOF
L="./lattop --simulate haswell --sim-profile $P --thresholds 16,200,1000"

$L -b -n 40 -d 0.15 --format json >$LIB_TMP/many.json
check "40 intervals measured" test "$(jq -s length $LIB_TMP/many.json)" -eq 40
# One line per CPU (and total) per interval per threshold: share, stderr,
# the counts n and n3, the tagged rate, the truth.
jq -r '(.cpus[], .total) | .load_latency |
	. as $l | [0, 1] | .[] as $i |
	"\($l.above_share[$i]) \($l.above_share_stderr[$i]) \($l.tagged_n[$i]) \($l.tagged_count) \($l.tagged_per_sec) \([0.8, 0.3][$i])"' \
	$LIB_TMP/many.json >$LIB_TMP/z
check "200 estimates of each share" test "$(wc -l <$LIB_TMP/z)" -eq 400
# z: (estimate - truth) / se, for the stderr lattop gives and for the naive ones.
zstats() {   # AWK_SE_EXPRESSION [TRUE_SHARE] -> "rms fraction_beyond_3"
	awk "\$6 ~ /${2:-.}/ { p = \$1; n = \$3; n3 = \$4; r = \$5; se = $1; z = (\$1 - \$6) / se;
		s += z * z; k++; if (z > 3 || z < -3) out++ }
		END { printf \"%.3f %.4f\", sqrt(s / k), out / k }" $LIB_TMP/z
}
set -- $(zstats '$2')
check "the stderr fits the spread: rms of (estimate - truth) / stderr is $1, near 1" \
	awk -v r="$1" 'BEGIN { exit !(r > 0.7 && r < 1.4) }'
check "the true share lies within 3 stderr of the estimate: all but $2 (at most 2%)" \
	awk -v f="$2" 'BEGIN { exit !(f <= 0.02) }'
check "every stderr is given, and none is 0" \
	sh -c "! awk '\$2 == \"null\" || \$2 <= 0' $LIB_TMP/z | grep -q ."
set -- $(zstats '$2' 0.8)
check "... above 16 alone (share 0.8): rms $1, within 3 stderr all but $2" \
	awk -v r="$1" -v f="$2" 'BEGIN { exit !(r > 0.7 && r < 1.4 && f <= 0.02) }'
# The naive readings fail here.  The binomial error alone leaves out that
# n is itself estimated from another slot's count: a third of the spread at 0.8.
set -- $(zstats 'sqrt(p * (1 - p) / n)' 0.8)
check "naive: the binomial error alone, sqrt(p(1-p)/n), is far too small above 16 (rms z $1)" \
	awk -v r="$1" 'BEGIN { exit !(r > 2) }'
set -- $(zstats 'sqrt(p / r + p * p / r)')
check "naive: an error from the tagged rate, not the count, is far too small (rms z $1)" \
	awk -v r="$1" 'BEGIN { exit !(r > 3) }'
check "naive: the share at its word is off by over 2% in a good part of the intervals" \
	awk '{ d = ($1 - $6) / $6; if (d > 0.02 || d < -0.02) o++ } END { exit !(o / NR > 0.2) }' $LIB_TMP/z
# The rate's stderr is loads/s times the share's.
check "above_per_sec_stderr = loads_per_sec x above_share_stderr" \
	jqe -s '[.[] | (.cpus[], .total) | .load_latency | . as $l | range(0; 3) |
		($l.above_per_sec_stderr[.] - $l.loads_per_sec * $l.above_share_stderr[.]) | fabs <= 1e-3 * ($l.above_per_sec_stderr[0] + 1)] | all' \
	$LIB_TMP/many.json
check "a share of 0 (above 1000): stderr 0" \
	jqe -s '[.[] | .total.load_latency | .above_share[2] == 0 and .above_share_stderr[2] == 0] | all' \
	$LIB_TMP/many.json
check "the total's counts are the sums of the CPUs'" \
	jqe -s '[.[] | ([.cpus[].load_latency.tagged_n[0]] | add) == .total.load_latency.tagged_n[0] and
		([.cpus[].load_latency.tagged_count] | add) == .total.load_latency.tagged_count] | all' \
	$LIB_TMP/many.json

# The counts grow with the interval, so the stderr shrinks as its square root:
# four times the interval, half the stderr.  (An error from the rate would not move.)
$L -b -n 3 -d 0.1 --format json >$LIB_TMP/short.json
$L -b -n 3 -d 0.4 --format json >$LIB_TMP/long.json
mean_of() {   # FILE JQ_PATH
	jq -s "[.[1:][] | .cpus[].load_latency | $2] | add / length" "$1"
}
n_ratio=$(awk -v a="$(mean_of $LIB_TMP/long.json '.tagged_n[0]')" -v b="$(mean_of $LIB_TMP/short.json '.tagged_n[0]')" \
	'BEGIN { print a / b }')
check "4 x the interval: 4 x the tagged loads counted (x $n_ratio)" \
	awk -v r="$n_ratio" 'BEGIN { exit !(r > 3.4 && r < 4.6) }'
se_ratio=$(awk -v a="$(mean_of $LIB_TMP/short.json '.above_share_stderr[0]')" -v b="$(mean_of $LIB_TMP/long.json '.above_share_stderr[0]')" \
	'BEGIN { print a / b }')
check "4 x the interval: half the stderr (/ $se_ratio)" \
	awk -v r="$se_ratio" 'BEGIN { exit !(r > 1.7 && r < 2.3) }'

# Text and csv: columns chosen with --show, left out by default.
$L --once -d 0.1 -c 0 >$LIB_TMP/t.txt
check "text: no se>N column by default" sh -c "! grep -q 'se>' $LIB_TMP/t.txt"
$L --once -d 0.1 -c 0 --show cpu,above,above_stderr >$LIB_TMP/t.txt
is "text --show cpu,above,above_stderr: the header" "$(sed -n 2p $LIB_TMP/t.txt | tr -s ' ')" \
	"CPU >16 >200 >1000 se>16 se>200 se>1000"
$L --once -d 0.1 -c 0 --format csv >$LIB_TMP/t.csv
check "csv: no counts or stderr by default" sh -c "! head -n 1 $LIB_TMP/t.csv | grep -q 'stderr\|tagged_n\|tagged_count'"
$L --once -d 0.1 -c 0 --format csv --show cpu,tagged_count,tagged_n,above_share,above_share_stderr,above_stderr \
	>$LIB_TMP/t.csv
is "csv --show ...: the header" "$(head -n 1 $LIB_TMP/t.csv)" \
	"cpu,load_latency.tagged_count,load_latency.tagged_n.16,load_latency.tagged_n.200,load_latency.tagged_n.1000,load_latency.above_share.16,load_latency.above_share.200,load_latency.above_share.1000,load_latency.above_share_stderr.16,load_latency.above_share_stderr.200,load_latency.above_share_stderr.1000,load_latency.above_per_sec_stderr.16,load_latency.above_per_sec_stderr.200,load_latency.above_per_sec_stderr.1000"
check "csv: the stderr of the total above 16 is a number above 0" \
	awk -F, '$1 == "total" { exit !($9 > 0 && $9 < 0.1) }' $LIB_TMP/t.csv
$L --once -d 0.1 --show above_share_stderr >$LIB_TMP/out 2>$LIB_TMP/err
is "text --show above_share_stderr: refused, exit 2" "$?" 2
check "... saying text has no such column" grep -q 'above_share_stderr has no column in text' $LIB_TMP/err
$L --once -d 0.1 --format json --show above_stderr >$LIB_TMP/out 2>$LIB_TMP/err
is "json --show: refused, JSON keeps every field" "$?" 2

tap_done
