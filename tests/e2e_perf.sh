#!/bin/sh
# e2e_perf.sh: measuring through perf_event_open(2) (--backend perf).
#
# e2e_sim.sh runs every family's ground truth through both backends; this
# file checks what only the perf backend has.  On this machine's kernel: no
# Intel core PMU, so lattop says why it cannot measure, exit 1.  On the
# simulated kernel: a run the kernel multiplexes beside another perf user
# and the NMI watchdog still gives the truth, with the shares it ran; the
# partners that share an offcore register are told, not measured, unless
# one of each is; and the paranoid level as nobody: the message names the
# level, the capability missing and the fix, exit 1, nothing shown.
cd "$(dirname "$0")/.." && . tests/lib.sh

# ---- the real kernel ----
if [ -d /sys/bus/event_source/devices/cpu ]; then
	skip "this kernel has a core PMU: the no-PMU message is not reachable here"
else
	./lattop --backend perf --once >$LIB_TMP/out 2>$LIB_TMP/err
	is "real kernel without a core PMU: exit 1" "$?" 1
	check "it says why: the kernel has no core PMU" \
		grep -q "cannot measure through perf_event_open(2): the kernel has no core PMU" $LIB_TMP/err
	check "nothing on standard output" test ! -s $LIB_TMP/out
	# --backend auto (the default) takes perf only where the kernel lets lattop
	# count: here it cannot, so auto is msr, and says msr's reason.
	./lattop --cpuid-file tests/dumps/haswell_core-i7-4500u.raw --once >$LIB_TMP/out 2>$LIB_TMP/err
	is "auto without a core PMU: exit 1" "$?" 1
	check "auto without a core PMU: the msr device is why, not perf" \
		sh -c "grep -q '/dev/cpu' $LIB_TMP/err && ! grep -q 'core PMU' $LIB_TMP/err"
	# Without root: no msr file is opened on the way (the CPUs come from sysfs).
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			./lattop --backend perf --once >$LIB_TMP/out 2>$LIB_TMP/err
		is "as nobody: exit 1" "$?" 1
		check "as nobody: the same reason, not the msr files' permissions" \
			grep -q "the kernel has no core PMU" $LIB_TMP/err
	fi
fi

# ---- multiplexed, beside another perf user and the NMI watchdog ----
# One thread per core: the HT erratum's waits beside a busy sibling are
# checked below, on their own.
P=$LIB_TMP/mux.prof
cp tests/profiles/truth.prof $P
printf 'perf_other_events = 3\nperf_nmi_watchdog = 1\nthreads_per_core = 1\n' >>$P
out=$LIB_TMP/mux.json
./lattop --simulate haswell --sim-profile $P --backend perf --once -d 1 --thresholds 8,64 \
	--format json >$out 2>$LIB_TMP/err
is "multiplexed: exit 0" "$?" 0
is "multiplexed: the backend is perf" "$(jq -r .backend $out)" perf
for c in 0 3 6; do
	j=".cpus[] | select(.cpu == $c)"
	within "multiplexed cpu$c: ghz (cycles off the watchdog's counter)" "$(jq "$j.ghz" $out)" 2.4
	within "multiplexed cpu$c: ipc" "$(jq "$j.ipc" $out)" 1.2
	within "multiplexed cpu$c: loads/s" "$(jq "$j.load_latency.loads_per_sec" $out)" "$(truth loads_per_sec $c)"
	within "multiplexed cpu$c: HITM/s" "$(jq "$j.snoop.hitm_per_sec" $out)" "$(truth hitm_per_sec $c)"
	within "multiplexed cpu$c: offcore reads/s" "$(jq "$j.offcore.reads_per_sec" $out)" \
		"$(truth offcore_reads_per_sec $c)"
	within "multiplexed cpu$c: offcore latency" "$(jq "$j.offcore.avg_latency_cycles" $out)" \
		"$(truth offcore_latency $c)"
done
./lattop --simulate haswell --sim-profile $P --backend perf --once -d 0.5 >$LIB_TMP/mux.txt
check "text: the header says perf_event_open(2)" \
	grep -q '^lattop: SIMULATED Haswell, .*, through perf_event_open(2)$' $LIB_TMP/mux.txt

# ---- every output says which backend measured ----
# As root lattop gives root up once its events are open: the recording
# and the textfile are written as nobody.
W=$LIB_TMP/w
mkdir -p $W && chmod 711 $LIB_TMP && chmod 777 $W
./lattop --simulate haswell --backend perf -b -n 2 -d 0.2 --format json \
	--record $W/p.lrec --textfile $W/p.prom >$LIB_TMP/live.json 2>$LIB_TMP/err
is "recorded through perf: exit 0" "$?" 0
./lattop --replay $W/p.lrec --format json >$LIB_TMP/replay.json
# The contended lines (sharing) included: the recording keeps each frame's.
check "the recording replays as printed live, the contended lines too" \
	cmp -s $LIB_TMP/live.json $LIB_TMP/replay.json
check "the recording says the perf backend" \
	jqe '.source == "simulator/perf" and .backend == "perf"' $LIB_TMP/replay.json
check "the exporter's info metric says it" grep -q 'source="simulator/perf"' $W/p.prom

# ---- both hyperthreads on a part with the HT erratum ----
# The kernel keeps the erratum's events (0xD0-0xD3) off any counter the
# sibling uses (K612 intel_get_excl_constraints): left to the kernel, one
# sibling may wait whole intervals; lattop runs the twin slots itself.
# Whatever is shown is the truth; what did not run is null, never a guess.
P=$LIB_TMP/ht.prof
cp tests/profiles/truth.prof $P
printf 'packages = 2\nremote_hit_per_sec = 3e5\nremote_hitm_per_sec = 1.5e5\n' >>$P
./lattop --simulate haswell --sim-profile $P --backend perf --once -d 0.5 --format json >$LIB_TMP/ht.json
is "haswell, both hyperthreads: exit 0" "$?" 0
bad=0
for c in 0 1 2 3 4 5 6 7; do
	j=".cpus[] | select(.cpu == $c)"
	for pair in "load_latency.loads_per_sec loads_per_sec" "snoop.hitm_per_sec hitm_per_sec" \
		    "snoop.remote.hit_per_sec remote_hit_per_sec" "snoop.remote.hitm_per_sec remote_hitm_per_sec"; do
		got=$(jq "$j.${pair% *}" $LIB_TMP/ht.json)
		[ "$got" = null ] && continue
		awk -v g="$got" -v w="$(truth ${pair#* } $c)" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.02 * w) }' ||
			{ bad=$((bad + 1)); diag "cpu$c ${pair% *}: $got, want $(truth ${pair#* } $c)"; }
	done
done
is "haswell, both hyperthreads: every number shown is the truth" $bad 0

# Left to the kernel, the erratum's exclusivity starves one sibling for
# whole intervals: the thread that scheduled first keeps its counters at
# each of its rotations (15 of 32 CPUs ran no load-counting group).  lattop
# runs the twin slots itself (perf_sampler.c): every CPU measured, true.
for u in haswell sandybridge broadwell; do
	printf 'cpus = 32\n' >$LIB_TMP/ht32.prof
	./lattop --simulate $u --sim-profile $LIB_TMP/ht32.prof --backend perf --once -d 0.4 \
		--format json >$LIB_TMP/ht32.json
	is "$u, 32 CPUs, both hyperthreads: exit 0" "$?" 0
	is "$u, 32 CPUs: no CPU without its loads, HITM or load-latency shares" \
		"$(jq '[.cpus[] | select(.load_latency.loads_per_sec == null or .snoop.hitm_per_sec == null or
			(.load_latency.above_share | map(select(. == null)) | length) > 0)] | length' $LIB_TMP/ht32.json)" 0
	within "$u, 32 CPUs: total loads/s" "$(jq .total.load_latency.loads_per_sec $LIB_TMP/ht32.json)" 2.24e10
	within "$u, 32 CPUs: total HITM/s" "$(jq .total.snoop.hitm_per_sec $LIB_TMP/ht32.json)" 8e6
	within "$u, 32 CPUs: the share of loads above 64 cycles" \
		"$(jq '.total.load_latency | .above_share[.thresholds | index(64)]' $LIB_TMP/ht32.json)" 0.1
done

# ---- every event open at once: the open-file limit ----
# 128 CPUs x the plan's events are more than a soft limit of 300: lattop
# raises it (the simulated kernel checks the limit at each open, as
# get_unused_fd_flags does); under a hard limit of 300 it refuses at start.
printf 'cpus = 128\n' >$LIB_TMP/p128.prof
(ulimit -Sn 300 && exec ./lattop --simulate haswell --sim-profile $LIB_TMP/p128.prof --backend perf \
	--once -d 0.2 --format json) >$LIB_TMP/nofile.json 2>$LIB_TMP/err
is "soft open-file limit 300, 128 CPUs: exit 0 (lattop raised it)" "$?" 0
is "... and every CPU measured" "$(jq '[.cpus[] | select(.load_latency.loads_per_sec != null)] | length' \
	$LIB_TMP/nofile.json)" 128
(ulimit -Sn 300 && ulimit -Hn 300 && exec ./lattop --simulate haswell --sim-profile $LIB_TMP/p128.prof \
	--backend perf --once -d 0.2) >$LIB_TMP/out 2>$LIB_TMP/err
is "hard open-file limit 300, 128 CPUs: exit 1" "$?" 1
check "it says how many descriptors, the hard limit and the fix" \
	grep -q "needs [0-9]* descriptors, and the hard open-file limit is 300: raise it (LimitNOFILE=" $LIB_TMP/err
check "one line, nothing on standard output" sh -c "[ \$(wc -l <$LIB_TMP/err) -eq 1 ] && test ! -s $LIB_TMP/out"

# ---- partners sharing an offcore register ----
./lattop --simulate nehalem --backend perf --once -d 0.3 --format json >$LIB_TMP/nhm.json
check "nehalem, both hyperthreads: offcore not measured, the hyperthreads named" \
	jqe '.total.offcore.reason as $t | .cpus[0].offcore | .reads_per_sec == null and ((.reason // $t) | test("hyperthreads of a core share MSR_OFFCORE_RSP_x"))' \
	$LIB_TMP/nhm.json
check "nehalem, both hyperthreads: load latency neither (the threshold is shared)" \
	jqe '.total.load_latency.reason as $t | .cpus[0].load_latency | .supported == false and ((.reason // $t) | test("perf_event_open"))' $LIB_TMP/nhm.json
./lattop --simulate nehalem --backend perf --once -d 0.3 -c 0-3 --format json >$LIB_TMP/nhm1.json
check "nehalem, one thread per core: offcore and load latency measured" \
	jqe '[.cpus[] | .offcore.reads_per_sec > 0 and .load_latency.loads_per_sec > 0] | all' $LIB_TMP/nhm1.json
./lattop --simulate silvermont --backend perf --once -d 0.3 --format json >$LIB_TMP/slm.json
check "silvermont, both cores of a module: offcore not measured, the module named" \
	jqe '.total.offcore.reason as $t | .cpus[0].offcore | .reads_per_sec == null and ((.reason // $t) | test("cores of a module share"))' $LIB_TMP/slm.json
./lattop --list-events --simulate silvermont --backend perf --format json >$LIB_TMP/slm-ev.json
check "--list-events --backend perf says the same" \
	jqe '.unsupported.offcore_reads | test("cores of a module share")' $LIB_TMP/slm-ev.json
./lattop --simulate silvermont --backend perf --once -d 0.3 -c 0,2,4,6 --format json >$LIB_TMP/slm1.json
check "silvermont, one core per module: offcore measured" \
	jqe '[.cpus[] | .offcore.reads_per_sec > 0] | all' $LIB_TMP/slm1.json
# Tremont's modules are four cores behind one L2 (the scope taken per module, as Goldmont's).
./lattop --simulate tremont --backend perf --once -d 0.3 --format json >$LIB_TMP/tnt.json
check "tremont, the cores of a module: offcore not measured, the module named" \
	jqe '.total.offcore.reason as $t | .cpus[0].offcore | .reads_per_sec == null and ((.reason // $t) | test("cores of a module share"))' $LIB_TMP/tnt.json
./lattop --simulate tremont --backend perf --once -d 0.3 -c 0,4 --format json >$LIB_TMP/tnt1.json
check "tremont, one core per module: offcore latency measured (OUTSTANDING, bit 63, through config1)" \
	jqe '[.cpus[] | .offcore.reads_per_sec > 0 and .offcore.avg_latency_cycles > 0] | all' $LIB_TMP/tnt1.json
# Gracemont: the kernel's load-latency event is 0xD0/0x05 on PMC0-1 (its PEBS constraint 0x3).
./lattop --simulate gracemont --backend perf --once -d 0.3 --format json >$LIB_TMP/grt.json
check "gracemont: load latency measured through the kernel (0x5d0 on PMC0-1)" \
	jqe '[.cpus[] | .load_latency.loads_per_sec > 0 and .load_latency.above_share[0] > 0] | all' $LIB_TMP/grt.json

# ---- permissions: as nobody, the simulated kernel's paranoid level ----
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	skip "not root, or no setpriv: cannot become nobody"
else
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all ./lattop "$@"
	}
	# Profiles nobody can read: $LIB_TMP is root's alone.
	PUB=$LIB_TMP/pub
	mkdir -p $PUB && chmod 755 $LIB_TMP $PUB
	for lv in 1 2; do
		printf 'cpus = 2\nperf_event_paranoid = %s\n' $lv >$PUB/p$lv.prof
		as_nobody --simulate haswell --sim-profile $PUB/p$lv.prof --backend perf --once \
			>$LIB_TMP/out 2>$LIB_TMP/err
		is "nobody, paranoid $lv: exit 1" "$?" 1
		check "nobody, paranoid $lv: the level, the capability and the fix" \
			grep -q "kernel.perf_event_paranoid is $lv and CPU-wide events need 0 or less, or CAP_PERFMON .* setcap cap_perfmon+ep" $LIB_TMP/err
		check "nobody, paranoid $lv: nothing shown" test ! -s $LIB_TMP/out
	done
	printf 'cpus = 2\nperf_event_paranoid = 3\n' >$PUB/p3.prof
	as_nobody --simulate haswell --sim-profile $PUB/p3.prof --backend perf --once >$LIB_TMP/out 2>$LIB_TMP/err
	is "nobody, paranoid 3: exit 1" "$?" 1
	check "nobody, paranoid 3: only CAP_SYS_ADMIN passes, said" \
		grep -q "kernel.perf_event_paranoid is 3 (Debian's and Ubuntu's restriction), which only CAP_SYS_ADMIN passes" $LIB_TMP/err
	printf 'cpus = 2\nperf_event_paranoid = 0\n' >$PUB/p0.prof
	as_nobody --simulate haswell --sim-profile $PUB/p0.prof --backend perf --once --format json \
		>$LIB_TMP/out 2>$LIB_TMP/err
	is "nobody, paranoid 0: measures, exit 0" "$?" 0
	check "nobody, paranoid 0: numbers" jqe '.total.ghz > 0' $LIB_TMP/out
fi
# ---- --cgroup ----
./lattop --simulate haswell --backend perf --cgroup $LIB_TMP/none --once >$LIB_TMP/out 2>$LIB_TMP/err
is "--cgroup, no such directory: exit 2" "$?" 2
check "--cgroup, no such directory: named" grep -q "^lattop: --cgroup '$LIB_TMP/none': No such file or directory" $LIB_TMP/err
./lattop --simulate haswell --backend perf --cgroup $LIB_TMP --once >$LIB_TMP/out 2>$LIB_TMP/err
is "--cgroup on the simulated kernel: exit 1" "$?" 1
check "--cgroup on the simulated kernel: it counts whole CPUs only, said" \
	grep -q "the simulated kernel counts whole CPUs only" $LIB_TMP/err

# ---- bench/perf_bench: the calls of a hybrid part, each type on its PMU ----
# make bench's section 6 counts each family's calls through the simulated
# kernel; a hybrid part runs each core type's plan on its type's PMU, as
# lattop does (an event of one type's PMU opened on the other's CPUs fails).
if [ -x bench/perf_bench ]; then
	for u in haswell alderlake lunarlake; do
		./bench/perf_bench calls $u 8 8,64,512 3 >$LIB_TMP/pb 2>$LIB_TMP/err
		is "perf_bench calls $u: exit 0" "$?" 0
		# | uarch | cpus | slots | rotation | reads | ioctls | held |
		check "perf_bench calls $u: every CPU's groups read, events held" \
			awk -F'|' '$6 + 0 >= 2 && $8 + 0 >= 2 { ok = 1 } END { exit !ok }' $LIB_TMP/pb
		case $u in
		haswell) check "perf_bench calls haswell: one plan, no core types" \
				awk -F'|' '$4 ~ /^ *[0-9]+ *$/ { ok = 1 } END { exit !ok }' $LIB_TMP/pb ;;
		*) check "perf_bench calls $u: the slots of each core type's plan" \
				grep -Eq '\| [0-9]+ core, [0-9]+ atom \|' $LIB_TMP/pb ;;
		esac
	done
	# A model of the family the simulator has (Arrow Lake-H: three PMUs,
	# cpu_lowpower the third); one it has not, or the name's own, exit 3.
	./bench/perf_bench calls arrowlake:0xC5 8 8,64 3 >$LIB_TMP/pb 2>$LIB_TMP/err
	is "perf_bench calls arrowlake:0xC5: exit 0" "$?" 0
	check "perf_bench calls arrowlake:0xC5: its row names the model and three core types" \
		grep -Eq '^\| arrowlake \(06_C5\) \| 8 \| [0-9]+ core, [0-9]+ atom, [0-9]+ lowpower \|' $LIB_TMP/pb
	./bench/perf_bench calls haswell:0x45 8 8,64 3 >$LIB_TMP/pb 2>$LIB_TMP/err
	is "perf_bench calls haswell:0x45 (not simulated): exit 3, no row" "$?:$(wc -c <$LIB_TMP/pb)" "3:0"
else
	skip "bench/perf_bench not built"
fi

# ---- the systemd unit without root (contrib/lattop-perf.service) ----
U=contrib/lattop-perf.service
check "$U: runs --backend perf with CAP_PERFMON alone, as a user of its own" \
	sh -c "grep -q '^ExecStart=.*--backend perf' $U && grep -q '^AmbientCapabilities=CAP_PERFMON$' $U &&
	       grep -q '^CapabilityBoundingSet=CAP_PERFMON$' $U && grep -q '^DynamicUser=yes$' $U &&
	       grep -q '^SystemCallFilter=.*perf_event_open' $U"
if command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|/usr/local/bin/lattop|$(pwd)/lattop|" $U >$LIB_TMP/lattop-perf.service
	is "$U: systemd-analyze verify is clean" \
		"$(systemd-analyze verify --man=no $LIB_TMP/lattop-perf.service 2>&1)" ""
	check "$U: exposure 3.0 or less (systemd-analyze security)" \
		sh -c "systemd-analyze security --offline=yes --threshold=30 $LIB_TMP/lattop-perf.service >/dev/null 2>&1"
else
	skip "no systemd-analyze"
fi
awk '/^[A-Z][A-Za-z]*=/ && prev !~ /^#/ && prev !~ /^[A-Z][A-Za-z]*=/ { bad = bad " " $0 } { prev = $0 }
     END { if (bad) { print bad; exit 1 } }' $U >$LIB_TMP/uncommented
is "$U: every setting under a comment saying why" "$(cat $LIB_TMP/uncommented)" ""
tap_done
