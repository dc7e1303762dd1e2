#!/bin/sh
# e2e_export.sh: lattop as a Prometheus exporter, checked by the real
# tools.  promtool checks both formats and the textfile; a real Prometheus
# scrapes lattop --simulate --listen every second and its HTTP API, with
# rate(), gives back every ground-truth number of the profile within 5%
# (expectations computed here from the profile, as in e2e_sim.sh); the
# Python client's strict OpenMetrics parser takes the OpenMetrics; a real
# node_exporter serves the textfile without a scrape error; hostile clients
# (tests/tools/http_abuse.py) do not stop lattop sampling or answering.
# Bad values are refused before any register is written (msrfs).
#
# Every server listens on loopback only, keeps its files in $LIB_TMP and
# is stopped on exit.
cd "$(dirname "$0")/.." && . tests/lib.sh

PIDS=""
stop_all() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null
	done
	PIDS=""
	command -v tmux >/dev/null 2>&1 && env -u TMUX tmux -L lattop-export-$$ kill-server 2>/dev/null
	tmux_sock_rm lattop-export-$$
	lib_cleanup
}
trap stop_all EXIT

for t in promtool prometheus prometheus-node-exporter curl jq /usr/bin/python3; do
	if ! command -v $t >/dev/null 2>&1; then
		not_ok "$t is installed (make check installs it)"
		tap_done
		exit 1
	fi
done

# A free loopback port (the kernel's pick; released just before use).
free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_until SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_until() {
	_end=$(( $(date +%s) + $1 ))
	shift
	until "$@"; do
		[ "$(date +%s)" -ge $_end ] && return 1
		sleep 0.1
	done
}

# The port lattop said it serves, from its stderr file $1.
served_port() {
	sed -n 's|^lattop: serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$1"
}

has_port() {
	[ -n "$(served_port "$1")" ]
}

# The profile: truth.prof on a two-package Haswell server, as e2e_sim.sh has it.
P=$LIB_TMP/truth.prof
cp tests/profiles/truth.prof $P
printf 'packages = 2\nremote_hit_per_sec = 3e5\nremote_hitm_per_sec = 1.5e5\ncpu6.remote_hitm_per_sec = 1e6\n' >>$P
THR=8,16,64,128,256

# truth KEY N (tests/lib.sh) reads $P.
above_frac() {
	awk -v t="$1" 'BEGIN { n = split("5 20 70 300", l, " "); split("0.70 0.20 0.06 0.04", f, " ");
		s = 0; for (i = 1; i <= n; i++) if (l[i] > t) s += f[i]; print s }'
}
# The truth of a family for CPU N.
want() {
	case $1 in
	cycles) awk -v g="$(truth ghz $2)" -v b="$(truth busy $2)" 'BEGIN { print g * b * 1e9 }' ;;
	ref_cycles) awk -v g="$(truth tsc_ghz $2)" -v b="$(truth busy $2)" 'BEGIN { print g * b * 1e9 }' ;;
	instructions) awk -v g="$(truth ghz $2)" -v b="$(truth busy $2)" -v i="$(truth ipc $2)" \
		'BEGIN { print g * b * 1e9 * i }' ;;
	loads) truth loads_per_sec $2 ;;
	above_*) awk -v l="$(truth loads_per_sec $2)" -v f="$(above_frac ${1#above_})" 'BEGIN { print l * f }' ;;
	snoop_hit) truth snoop_hit_per_sec $2 ;;
	snoop_hitm) truth hitm_per_sec $2 ;;
	snoop_remote_hit) truth remote_hit_per_sec $2 ;;
	snoop_remote_hitm) truth remote_hitm_per_sec $2 ;;
	offcore_reads) truth offcore_reads_per_sec $2 ;;
	offcore_outstanding_cycles) awk -v r="$(truth offcore_reads_per_sec $2)" \
		-v l="$(truth offcore_latency $2)" 'BEGIN { print r * l }' ;;
	offcore_latency) truth offcore_latency $2 ;;
	esac
}

# within5 NAME GOT WANT (the relative error goes to $LIB_TMP/errors)
within5() {
	awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; if (w > 0) print d / w }' >>$LIB_TMP/errors 2>/dev/null
	if awk -v g="$2" -v w="$3" 'BEGIN { if (g == "" || g == "null" || g == "NaN") exit 1;
		d = g - w; if (d < 0) d = -d; exit !(d <= 0.05 * w) }'; then
		ok "$1"
	else
		not_ok "$1"
		diag "got $2, want $3 (within 5%)"
	fi
}

# ---- bad values: refused, nothing written ----
for bad in "localhost6:10123" "127.0.0.1:70000" "1.2.3:80" "::1:80" "[::1]80" "" "12a" ":"; do
	./lattop --simulate haswell --once --listen "$bad" >$LIB_TMP/o 2>$LIB_TMP/e
	rc=$?
	is "--listen '$bad': exit 2, one line naming --listen" "$rc $(wc -l <$LIB_TMP/e | tr -d ' ') $(grep -c -- "--listen" $LIB_TMP/e)" "2 2 1"
done
./lattop --simulate haswell --once --textfile /nonexistent/dir/x.prom >$LIB_TMP/o 2>$LIB_TMP/e
is "--textfile in a missing directory: exit 2" "$? $(grep -c -- '--textfile /nonexistent/dir/x.prom' $LIB_TMP/e)" "2 1"
./lattop --simulate haswell --detect --listen 0 >$LIB_TMP/o 2>$LIB_TMP/e
is "--listen with --detect: exit 2" "$?" 2

# node_exporter's forms: ":PORT", every address (IPv4 too), and "localhost:PORT", 127.0.0.1.
for form in :0 localhost:0; do
	./lattop --simulate haswell -d 0.1 --listen $form </dev/null >/dev/null 2>$LIB_TMP/form.err &
	fp=$!
	PIDS="$PIDS $fp"
	wait_until 10 grep -q 'serving' $LIB_TMP/form.err
	fport=$(sed -n 's|^lattop: serving http://.*:\([0-9]*\)/metrics$|\1|p' $LIB_TMP/form.err)
	check "--listen $form: served, and answers on 127.0.0.1 ($(cat $LIB_TMP/form.err))" \
		wait_until 10 sh -c "curl -sf http://127.0.0.1:$fport/metrics | grep -q '^lattop_up 1'"
	case $form in
	:*)	if grep -q '^0\{31\}1 ' /proc/net/if_inet6 2>/dev/null; then
			check "--listen $form: and on ::1 (every address)" sh -c "curl -sf 'http://[::1]:$fport/metrics' | grep -q '^lattop_up'"
		else
			skip "--listen $form: no IPv6 loopback here"
		fi
		check "... said as every address" grep -q 'serving http://\[::\]:\|serving http://0.0.0.0:' $LIB_TMP/form.err ;;
	*)	check "... said as 127.0.0.1" grep -q 'serving http://127.0.0.1:' $LIB_TMP/form.err ;;
	esac
	kill $fp
	wait $fp
done

# A hybrid's CPU series carry their core type, the third one's too: Arrow
# Lake-H's low-power E-core (core_types L, CPU 3) is lowpower, not atom.
printf 'cpus = 4\nmodel = 0xC5\ncore_types = P:2,E:1,L:1\n' >$LIB_TMP/arlh.prof
./lattop --simulate arrowlake --sim-profile $LIB_TMP/arlh.prof -d 0.1 --listen 127.0.0.1:0 \
	</dev/null >/dev/null 2>$LIB_TMP/arlh.err &
fp=$!
PIDS="$PIDS $fp"
wait_until 10 grep -q 'serving' $LIB_TMP/arlh.err
fport=$(sed -n 's|^lattop: serving http://.*:\([0-9]*\)/metrics$|\1|p' $LIB_TMP/arlh.err)
wait_until 10 sh -c "curl -sf http://127.0.0.1:$fport/metrics | grep -q '^lattop_up 1'"
is "/metrics, Arrow Lake-H: each CPU's core_type label, lowpower the third" \
	"$(curl -sf http://127.0.0.1:$fport/metrics | grep -o 'cpu=\"[0-9]*\"[^}]*core_type=\"[a-z]*\"' |
		sed 's/cpu=\"\([0-9]*\)\".*core_type=\"\([a-z]*\)\"/\1:\2/' | sort -u | tr '\n' ' ')" \
	"0:core 1:core 2:atom 3:lowpower "
kill $fp
wait $fp

if have_fuse; then
	M=$LIB_TMP/m
	S=$LIB_TMP/state
	mkdir -p $S && chmod 700 $S
	printf 'cpus = 4\n' >$LIB_TMP/p4
	if msrfs_mount $M --simulate haswell --sim-profile $LIB_TMP/p4; then
		regs_snapshot $M $LIB_TMP/regs.before
		busy=$(free_port)
		/usr/bin/python3 -c "import socket, time, sys; s = socket.socket(); s.bind(('127.0.0.1', $busy)); s.listen(); sys.stdout.write('x\n'); sys.stdout.flush(); time.sleep(30)" >$LIB_TMP/busy &
		bp=$!
		PIDS="$PIDS $bp"
		wait_until 5 test -s $LIB_TMP/busy
		./lattop --state-dir $S --msr-dir $M --cpuid-file tests/dumps/haswell_core-i7-4500u.raw --once \
			--listen 127.0.0.1:$busy >$LIB_TMP/o 2>$LIB_TMP/e
		is "--listen on a port in use: exit 1, says so" "$? $(grep -c 'in use' $LIB_TMP/e)" "1 1"
		regs_unchanged "... and no register was written" $M $LIB_TMP/regs.before
		is "... and no journal is left" "$(cat $S/journal 2>/dev/null | wc -c | tr -d ' ')" 0
		kill $bp 2>/dev/null
		wait $bp 2>/dev/null
		./lattop --state-dir $S --msr-dir $M --cpuid-file tests/dumps/haswell_core-i7-4500u.raw --once \
			--textfile /proc/lattop.prom >$LIB_TMP/o 2>$LIB_TMP/e
		is "--textfile where no file can be made: exit 2" "$?" 2
		regs_unchanged "... and no register was written" $M $LIB_TMP/regs.before
		msrfs_umount $M
	else
		not_ok "msrfs mounts"
	fi
else
	skip "no FUSE here: $LIB_WHY"
fi

# ---- the exporter under Prometheus and node_exporter ----
# lattop runs as root here and drops to nobody: its textfile directory must be theirs to write.
chmod 711 $LIB_TMP
TF=$LIB_TMP/textfile
mkdir -p $TF && chmod 777 $TF
./lattop --simulate haswell --sim-profile $P --thresholds $THR -d 0.1 --listen 127.0.0.1:0 \
	--textfile $TF </dev/null >$LIB_TMP/lattop.out 2>$LIB_TMP/lattop.err &
LP=$!
PIDS="$PIDS $LP"
if ! wait_until 10 has_port $LIB_TMP/lattop.err; then
	not_ok "lattop --listen says where it serves"
	diag "$(cat $LIB_TMP/lattop.err)"
	tap_done
	exit 1
fi
LPORT=$(served_port $LIB_TMP/lattop.err)
ok "lattop --listen 127.0.0.1:0 says where it serves"
U=http://127.0.0.1:$LPORT/metrics
wait_until 10 sh -c "curl -sf $U | grep -q '^lattop_up 1'"
check "/metrics answers with lattop_up 1 after the first interval" sh -c "curl -sf $U | grep -q '^lattop_up 1'"
curl -sf -D $LIB_TMP/text.h $U >$LIB_TMP/text.prom
curl -sf -D $LIB_TMP/om.h -H 'Accept: application/openmetrics-text; version=1.0.0' $U >$LIB_TMP/om.prom
check "text format: its content type" grep -qi '^content-type: text/plain; version=0.0.4' $LIB_TMP/text.h
check "OpenMetrics when Accept asks: its content type" grep -qi '^content-type: application/openmetrics-text; version=1.0.0' $LIB_TMP/om.h
out=$(promtool check metrics <$LIB_TMP/text.prom 2>&1)
is "promtool check metrics: the text format is clean" "$?:$out" "0:"
# promtool reads the text format only: it parses OpenMetrics' lines, and its one
# complaint is the counters' naming (family NAME, samples NAME_total), nothing else.
promtool check metrics <$LIB_TMP/om.prom >$LIB_TMP/om.lint 2>&1
rc=$?
others=$(grep -v '^lattop_[a-z_]*_total no help text$' $LIB_TMP/om.lint | grep -v '^$')
ncounters=$(grep -c '^# TYPE lattop_[a-z_]* counter$' $LIB_TMP/om.prom)
is "promtool check metrics parses OpenMetrics: only the counter naming differs" \
	"$rc $(grep -c 'no help text' $LIB_TMP/om.lint) $others" "3 $ncounters "
# A parser of OpenMetrics proper: the Python client's, strict about the format.
out=$(/usr/bin/python3 tests/tools/om_check.py openmetrics $LIB_TMP/om.prom)
is "OpenMetrics: the Python client's strict parser takes it (families, samples)" "$?" 0
diag "openmetrics: $out"
head -n -1 $LIB_TMP/om.prom >$LIB_TMP/om-noeof.prom
check "... and refuses it without # EOF (the parser is strict)" \
	sh -c "! /usr/bin/python3 tests/tools/om_check.py openmetrics $LIB_TMP/om-noeof.prom >/dev/null"
check "text format: the Python client's parser takes it" \
	sh -c "/usr/bin/python3 tests/tools/om_check.py text $LIB_TMP/text.prom >/dev/null"
check "OpenMetrics: every family has HELP and TYPE, units where named, and # EOF last" sh -c "
	[ \"\$(tail -n 1 $LIB_TMP/om.prom)\" = '# EOF' ] &&
	[ \$(grep -c '^# HELP' $LIB_TMP/om.prom) -eq \$(grep -c '^# TYPE' $LIB_TMP/om.prom) ] &&
	grep -q '^# UNIT lattop_offcore_outstanding_cycles cycles$' $LIB_TMP/om.prom &&
	grep -q '^# UNIT lattop_interval_seconds seconds$' $LIB_TMP/om.prom"
# A counter's HELP is its column's help (man page, COLUMNS), as a sentence: the
# words on the screen, in csv and in the exposition are the same.
for fc in snoop_hit:hit snoop_hitm:hitm snoop_remote_hit:rmt_hit snoop_remote_hitm:rmt_hitm \
	offcore_reads:reads; do
	col=${fc#*:}
	words=$(awk -v c=".It Cm $col" '$0 == c { getline; getline; sub(/\.$/, ""); print; exit }' man/lattop.1)
	first=$(printf '%.1s' "$words" | tr a-z A-Z)
	help=$(sed -n "s/^# HELP lattop_${fc%%:*}_total //p" $LIB_TMP/text.prom)
	case $help in
	"$first${words#?}"[.\;]*) ok "lattop_${fc%%:*}_total's HELP is the help of column $col" ;;
	*) not_ok "lattop_${fc%%:*}_total's HELP is the help of column $col"
	   diag "HELP: $help"; diag "column: $words" ;;
	esac
done
check "... so the snoop HELP says reads or loads" \
	sh -c "[ \$(grep -c '^# HELP lattop_snoop_[a-z_]*_total Reads or loads ' $LIB_TMP/text.prom) -eq 4 ]"
wait_until 10 test -s $TF/lattop.prom
out=$(promtool check metrics <$TF/lattop.prom 2>&1)
is "promtool check metrics: the textfile is clean" "$?:$out" "0:"
check "the textfile is the same exposition" sh -c "grep -c '^# TYPE' $TF/lattop.prom | grep -qx \$(grep -c '^# TYPE' $LIB_TMP/text.prom)"
is "no temporary file is left beside the textfile" "$(ls -A $TF)" "lattop.prom"
is "no snapshot on stdout without a terminal" "$(wc -c <$LIB_TMP/lattop.out | tr -d ' ')" 0
is "absent, not 0: lattop_metric_supported says 1 for the 11 counter families here" \
	"$(grep -c '^lattop_metric_supported{metric="[a-z_]*"} 1$' $LIB_TMP/text.prom)" 11

# textfile_live UARCH DIR: lattop --simulate UARCH --textfile DIR until the textfile says
# lattop_up 1, copied to DIR.live, then stopped with SIGTERM (its exit status in $LIVE_RC).
textfile_live() {
	mkdir -p $2 && chmod 777 $2
	./lattop --simulate $1 -d 0.1 --textfile $2 </dev/null >/dev/null 2>$LIB_TMP/e &
	_tp=$!
	wait_until 10 sh -c "grep -q '^lattop_up 1' $2/lattop.prom 2>/dev/null"
	cp $2/lattop.prom $2.live
	kill $_tp
	wait $_tp
	LIVE_RC=$?
}

# A CPU that cannot measure: Silvermont has no load latency: no series, supported 0.
textfile_live silvermont $LIB_TMP/slm
is "silvermont: no lattop_load_latency_above_total series, supported 0" \
	"$(grep -c '^lattop_load_latency_above_total' $LIB_TMP/slm.live) $(grep -c '^lattop_metric_supported{metric="load_latency_above"} 0$' $LIB_TMP/slm.live)" "0 1"

# Nehalem counts offcore reads but has no occupancy event: reads there, outstanding cycles absent.
textfile_live nehalem $LIB_TMP/nhm
is "nehalem: offcore reads served, outstanding cycles absent and supported 0" \
	"$(grep -c '^lattop_offcore_reads_total{' $LIB_TMP/nhm.live) $(grep -c '^lattop_offcore_outstanding_cycles_total' $LIB_TMP/nhm.live) $(grep -c '^lattop_metric_supported{metric="offcore_outstanding_cycles"} 0$' $LIB_TMP/nhm.live)" "8 0 1"
# Stopped, the textfile says so: node_exporter must not serve the last numbers as live.
is "stopped (SIGTERM, exit 0): the textfile says lattop_up 0" \
	"$LIVE_RC $(grep -c '^lattop_up 0$' $LIB_TMP/nhm/lattop.prom)" "0 1"
is "... and holds no counter any more" "$(grep -c '_total{' $LIB_TMP/nhm/lattop.prom)" 0
out=$(promtool check metrics <$LIB_TMP/nhm/lattop.prom 2>&1)
is "... promtool check metrics: clean" "$?:$out" "0:"
mkdir -p $LIB_TMP/n2 && chmod 777 $LIB_TMP/n2
./lattop --simulate haswell -d 0.05 -n 2 --textfile $LIB_TMP/n2 </dev/null >/dev/null 2>&1
is "... and after -n N too" "$(grep -c '^lattop_up 0$' $LIB_TMP/n2/lattop.prom)" 1

# As root into a root-owned directory: the user lattop writes as after giving up root is named.
mkdir -p $LIB_TMP/rootdir && chmod 755 $LIB_TMP/rootdir
./lattop --simulate haswell -d 0.05 -n 2 --textfile $LIB_TMP/rootdir </dev/null >/dev/null 2>$LIB_TMP/e
is "--textfile into a root-owned directory: exit 1, one line" "$?:$(wc -l <$LIB_TMP/e | tr -d ' ')" "1:1"
check "... naming the user and the directory, and what to do" \
	grep -q "nobody, the user lattop writes it as .*cannot create files in $LIB_TMP/rootdir (Permission denied): make that directory writable by nobody" $LIB_TMP/e
is "... and nothing left there" "$(ls -A $LIB_TMP/rootdir)" ""

# A textfile that cannot be written any more: said once on stderr, sampling goes on.
mkdir -p $LIB_TMP/gone && chmod 777 $LIB_TMP/gone
./lattop --simulate haswell -d 0.1 -b --format json --textfile $LIB_TMP/gone </dev/null >$LIB_TMP/gone.json 2>$LIB_TMP/gone.err &
gp=$!
PIDS="$PIDS $gp"
wait_until 10 test -s $LIB_TMP/gone/lattop.prom
rm -rf $LIB_TMP/gone
n0=$(wc -l <$LIB_TMP/gone.json)
wait_until 10 sh -c "[ \$(wc -l <$LIB_TMP/gone.json) -ge $((n0 + 10)) ]"
kill $gp
wait $gp
is "a textfile gone: exit 0 on SIGTERM, said once on stderr (notes aside), snapshots went on" \
	"$? $(grep -c -- "--textfile $LIB_TMP/gone/lattop.prom: No such file or directory" $LIB_TMP/gone.err) $(grep -vc '^lattop: note: ' $LIB_TMP/gone.err) $(test $(wc -l <$LIB_TMP/gone.json) -ge $((n0 + 10)) && echo on)" "0 1 1 on"

NPORT=$(free_port)
prometheus-node-exporter --web.listen-address=127.0.0.1:$NPORT --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory=$TF >$LIB_TMP/node.log 2>&1 &
PIDS="$PIDS $!"
PPORT=$(free_port)
cat >$LIB_TMP/prometheus.yml <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: lattop
    static_configs:
      - targets: ['127.0.0.1:$LPORT']
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NPORT']
EOF
prometheus --config.file=$LIB_TMP/prometheus.yml --web.listen-address=127.0.0.1:$PPORT \
	--storage.tsdb.path=$LIB_TMP/tsdb --log.level=warn >$LIB_TMP/prometheus.log 2>&1 &
PIDS="$PIDS $!"
API=http://127.0.0.1:$PPORT/api/v1/query

# q PROMQL: the query's result as "cpu value" lines (cpu "-" when there is none).
q() {
	curl -sf --data-urlencode "query=$1" $API |
		jq -r '.data.result[] | "\(.metric.cpu // .metric.package // .metric.instance // "-") \(.value[1])"'
}

wait_until 10 sh -c "curl -sf http://127.0.0.1:$NPORT/metrics >$LIB_TMP/node.prom"
check "node_exporter reads the textfile without a scrape error" grep -qx 'node_textfile_scrape_error 0' $LIB_TMP/node.prom
check "node_exporter serves lattop's series" grep -q '^lattop_loads_total{core="1",cpu="5",package="0"}' $LIB_TMP/node.prom

if ! wait_until 30 sh -c "curl -sf http://127.0.0.1:$PPORT/-/ready >/dev/null"; then
	not_ok "prometheus starts"
	diag "$(tail -5 $LIB_TMP/prometheus.log)"
	tap_done
	exit 1
fi
ok "prometheus starts"
# Eleven scrapes in the last 11 s: a full window for rate(...[10s]).
full() {
	[ "$(q 'count_over_time(lattop_up{job="lattop"}[11s])' | awk '{ print $2 }')" -ge 11 ] 2>/dev/null
}
if ! wait_until 40 full; then
	not_ok "prometheus scrapes lattop every second"
	diag "$(curl -s http://127.0.0.1:$PPORT/api/v1/targets | jq -c '.data.activeTargets[] | [.labels.job, .health, .lastError]')"
	tap_done
	exit 1
fi
ok "prometheus scrapes lattop every second"
is "both targets up, no scrape error" "$(q 'sum(up)' | awk '{ print $2 }')" 2

# Every ground-truth number of the profile, per CPU, through rate().
for fam in cycles ref_cycles instructions loads snoop_hit snoop_hitm snoop_remote_hit \
	   snoop_remote_hitm offcore_reads offcore_outstanding_cycles; do
	q "rate(lattop_${fam}_total{job=\"lattop\"}[10s])" >$LIB_TMP/r
	is "rate(lattop_${fam}_total): 8 CPUs" "$(wc -l <$LIB_TMP/r | tr -d ' ')" 8
	while read -r c v; do
		within5 "rate(lattop_${fam}_total{cpu=\"$c\"})" "$v" "$(want $fam $c)"
	done <$LIB_TMP/r
done
for t in $(echo $THR | tr , ' '); do
	q "rate(lattop_load_latency_above_total{job=\"lattop\",threshold_cycles=\"$t\"}[10s])" >$LIB_TMP/r
	is "rate(lattop_load_latency_above_total{threshold_cycles=\"$t\"}): 8 CPUs" "$(wc -l <$LIB_TMP/r | tr -d ' ')" 8
	while read -r c v; do
		within5 "loads slower than $t cycles/s, cpu $c" "$v" "$(want above_$t $c)"
	done <$LIB_TMP/r
done

# The PromQL of the man page and README.
q 'rate(lattop_offcore_outstanding_cycles_total{job="lattop"}[10s]) / rate(lattop_offcore_reads_total{job="lattop"}[10s])' >$LIB_TMP/r
while read -r c v; do
	within5 "PromQL: average offcore latency, cpu $c" "$v" "$(want offcore_latency $c)"
done <$LIB_TMP/r
q 'sum by (package) (rate(lattop_snoop_hitm_total{job="lattop"}[10s]))' >$LIB_TMP/r
is "PromQL: HITM per second per socket: 2 packages" "$(wc -l <$LIB_TMP/r | tr -d ' ')" 2
curl -sf --data-urlencode 'query=lattop_cycles_total{job="lattop"}' $API |
	jq -r '.data.result[] | "\(.metric.package) \(.metric.cpu)"' >$LIB_TMP/topo
while read -r pkg v; do
	w=0
	for c in $(awk -v p="$pkg" '$1 == p { print $2 }' $LIB_TMP/topo); do
		w=$(awk -v a="$w" -v b="$(want snoop_hitm $c)" 'BEGIN { print a + b }')
	done
	within5 "PromQL: HITM per second, package $pkg" "$v" "$w"
done <$LIB_TMP/r
v=$(q 'sum(rate(lattop_load_latency_above_total{job="lattop",threshold_cycles="128"}[10s])) / sum(rate(lattop_loads_total{job="lattop"}[10s]))' | awk '{ print $2 }')
within5 "PromQL: share of loads slower than 128 cycles" "$v" "$(above_frac 128)"

diag "largest relative error of rate() against the profile: $(sort -g $LIB_TMP/errors | tail -n 1)"

# The textfile through node_exporter, scraped by the same Prometheus.
q 'rate(lattop_offcore_reads_total{job="node"}[10s])' >$LIB_TMP/r
is "through node_exporter: 8 CPUs" "$(wc -l <$LIB_TMP/r | tr -d ' ')" 8
while read -r c v; do
	within5 "through node_exporter: offcore reads/s, cpu $c" "$v" "$(want offcore_reads $c)"
done <$LIB_TMP/r
is "lattop_info: the microarchitecture, the source, the scope of HITM" \
	"$(q 'lattop_info{job="lattop",microarch="haswell",source="simulator",hitm_scope="other_core"}' | awk '{ print $2 }')" 1

# The Grafana dashboard's queries, as Grafana would send them.
n=0
jq -r '.panels[] | "\(.id)\t\(.targets[0].expr | gsub("\n"; " "))"' contrib/grafana-lattop.json >$LIB_TMP/panels
while IFS='	' read -r id expr; do
	n=$((n + 1))
	e=$(printf '%s' "$expr" | sed 's/\$__rate_interval/10s/g; s/\$instance/.*/g; s/\$threshold/128/g')
	q "$e" >$LIB_TMP/r
	check "dashboard panel $id: its query gives finite numbers" awk 'END { exit NR == 0 } $2 !~ /^-?[0-9.e+-]+$/ { exit 1 }' $LIB_TMP/r
	if [ "$id" = 3 ]; then
		while read -r c v; do
			within5 "dashboard panel 3: share of loads slower than 128 cycles, $c" "$v" "$(above_frac 128)"
		done <$LIB_TMP/r
	fi
done <$LIB_TMP/panels
is "the dashboard has the three panes" "$n" 3

# The systemd unit: valid, and its hardening scored by systemd itself.
if command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|/usr/local/bin/lattop|$(pwd)/lattop|" contrib/lattop.service >$LIB_TMP/lattop.service
	out=$(systemd-analyze verify --man=no $LIB_TMP/lattop.service 2>&1)
	is "contrib/lattop.service: systemd-analyze verify is clean" "$out" ""
	check "contrib/lattop.service: exposure 3.0 or less (systemd-analyze security)" \
		sh -c "systemd-analyze security --offline=yes --threshold=30 $LIB_TMP/lattop.service >/dev/null 2>&1"
	awk '/^[A-Z][A-Za-z]*=/ && prev !~ /^#/ && prev !~ /^[A-Z][A-Za-z]*=/ { bad = bad " " $0 } { prev = $0 }
	     END { if (bad) { print bad; exit 1 } }' contrib/lattop.service >$LIB_TMP/uncommented
	is "contrib/lattop.service: every setting under a comment saying why" "$(cat $LIB_TMP/uncommented)" ""
else
	skip "no systemd-analyze"
fi

# ---- beside the screen ----
if command -v tmux >/dev/null 2>&1; then
	SP=$(free_port)
	env -u TMUX tmux -L lattop-export-$$ -f /dev/null new-session -d -x 120 -y 40 \
		"./lattop --simulate haswell -d 0.5 --listen 127.0.0.1:$SP 2>$LIB_TMP/screen.err; echo exit=\$? >$LIB_TMP/screen.rc"
	check "beside the screen: /metrics answers" wait_until 15 sh -c "curl -sf http://127.0.0.1:$SP/metrics | grep -q '^lattop_up 1'"
	check "beside the screen: the screen is drawn" wait_until 10 sh -c \
		"env -u TMUX tmux -L lattop-export-$$ capture-pane -p | grep -q SIMULATED"
	env -u TMUX tmux -L lattop-export-$$ send-keys q
	wait_until 10 test -s $LIB_TMP/screen.rc
	is "beside the screen: q quits, exit 0" "$(cat $LIB_TMP/screen.rc 2>/dev/null)" "exit=0"
	env -u TMUX tmux -L lattop-export-$$ kill-server 2>/dev/null
else
	skip "no tmux"
fi

# ---- hostile clients ----
./lattop --simulate haswell -d 0.1 -b --format json --listen 127.0.0.1:0 </dev/null >$LIB_TMP/abuse.json 2>$LIB_TMP/abuse.err &
AP=$!
PIDS="$PIDS $AP"
wait_until 10 has_port $LIB_TMP/abuse.err
APORT=$(served_port $LIB_TMP/abuse.err)
wait_until 10 sh -c "curl -sf http://127.0.0.1:$APORT/metrics | grep -q '^lattop_up 1'"
/usr/bin/python3 tests/tools/http_abuse.py $APORT 5 >$LIB_TMP/abuse.out 2>&1
while IFS= read -r line; do
	case $line in
	"PASS "*) ok "abuse: ${line#PASS }" ;;
	"FAIL "*) not_ok "abuse: ${line#FAIL }" ;;
	*) diag "$line" ;;
	esac
done <$LIB_TMP/abuse.out
check "abuse: lattop still runs" kill -0 $AP
kill $AP
wait $AP
is "abuse: lattop exits 0 on SIGTERM" "$?" 0
# --listen beside --batch: the snapshots went on, none more than 2 s apart (interval 0.1 s).
gap=$(jq -r .time $LIB_TMP/abuse.json | awk 'NR > 1 { d = $1 - p; if (d > m) m = d } { p = $1 } END { print NR, m + 0 }')
check "abuse: --batch went on beside the server, no gap over 2 s ($gap)" \
	awk -v g="$gap" 'BEGIN { split(g, a, " "); exit !(a[1] >= 20 && a[2] < 2) }'
tap_done
