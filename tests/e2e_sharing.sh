#!/bin/sh
# e2e_sharing.sh: the contended lines (issue 23) through the simulated
# kernel's samples, and the msr backend's refusal.
#
# The profile's lines must come back out of the JSON for every family the
# kernel samples: their addresses, processes, offsets and threads, the
# verdict, and the rates within the sampling noise (the standard error of
# a count of n samples is 1/sqrt(n) of it).  Each family writes its own
# data-source codes: a remote HITM on a Skylake server has the remote bit
# and no level (a reader of mem_lvl alone finds none), Nehalem's local
# HITM is code 0x6 (the base table's clean hit), Crestmont's remote HITM
# (Sierra Forest) 0xD is RAM, remote, HITM.  Nehalem samples no
# stores: its verdicts stand on the HITM alone.  Then the kernel's limits:
# throttling above perf_event_max_sample_rate, and a ring too small for
# what one interval brings (LOST), each followed by a longer period.
# The hybrids sample each core type with its own events on its own PMU.
cd "$(dirname "$0")/.." && . tests/lib.sh

P=$LIB_TMP/lines.prof
cat >$P <<'PROF'
cpus = 8
threads_per_core = 1
packages = 2
ldlat_tagged_fraction = 1
line = 0x7f3a00001040 worker 4242 800000 4243:w@0 4244:w@8 remote=0.25
line = 0x7f3a00002000 db 77 400000 78:w@0 79:r@0
PROF

# se WANT N: the standard error of a rate WANT estimated from N samples.
se() {
	awk -v w="$1" -v n="$2" 'BEGIN { print (n > 0 ? w / sqrt(n) : w) }'
}

for u in nehalem sandybridge haswell skylake icelake sapphirerapids crestmont; do
	out=$LIB_TMP/$u.json
	./lattop --simulate $u --sim-profile $P --backend perf --once -d 2 --format json \
		>$out 2>$LIB_TMP/err
	is "$u: exit 0" "$?" 0
	is "$u: sampled" "$(jq .sharing.supported $out)" true
	is "$u: the two lines, the hottest first" \
		"$(jq -c '[.sharing.lines[].addr]' $out)" '["0x7f3a00001040","0x7f3a00002000"]'
	a='.sharing.lines[] | select(.addr == "0x7f3a00001040")'
	b='.sharing.lines[] | select(.addr == "0x7f3a00002000")'
	is "$u: the processes" "$(jq -c "[$a | .processes[]], [$b | .processes[]]" $out | tr -d '\n')" \
		'[{"pid":4242,"comm":"worker"}][{"pid":77,"comm":"db"}]'
	is "$u: false sharing: two threads, each its own word" \
		"$(jq -c "$a | [.verdict, .threads, [.offsets[] | [.offset, .tids]]]" $out)" \
		'["false_sharing",2,[[0,[4243]],[8,[4244]]]]'
	is "$u: true sharing: two threads on word 0" \
		"$(jq -c "$b | [.verdict, .threads, [.offsets[] | [.offset, (.tids | sort)]]]" $out)" \
		'["true_sharing",2,[[0,[78,79]]]]'
	na=$(jq "[$a | .offsets[].reads] | add" $out)
	nb=$(jq "[$b | .offsets[].reads] | add" $out)
	within_se "$u: line 1 HITM/s ($na samples)" "$(jq "$a | .hitm_per_sec" $out)" 800000 \
		"$(se 800000 "$na")"
	within_se "$u: line 2 HITM/s ($nb samples)" "$(jq "$b | .hitm_per_sec" $out)" 400000 \
		"$(se 400000 "$nb")"
	# a quarter of line 1's: the remote ones, whatever the family's encoding
	within_se "$u: line 1 remote HITM/s" "$(jq "$a | .remote_hitm_per_sec" $out)" 200000 \
		"$(awk -v n="$na" 'BEGIN { print 800000 * sqrt(0.25 * 0.75 / n) }')"
	is "$u: line 2 has no remote HITM" "$(jq "$b | .remote_hitm_per_sec" $out)" 0
	is "$u: the latency of the samples (local and remote HITM)" \
		"$(jq -c "[$b | .mean_latency_cycles]" $out)" '[110]'
	if [ $u = nehalem ]; then
		is "$u: no store event, no stores" "$(jq "[.sharing.lines[].stores_per_sec] | add" $out)" 0
	else
		ns=$(jq "[$a | .offsets[].writes] | add" $out)
		within_se "$u: line 1 stores/s ($ns samples)" "$(jq "$a | .stores_per_sec" $out)" \
			800000 "$(se 800000 "$ns")"
		ns=$(jq "[$b | .offsets[].writes] | add" $out)
		within_se "$u: line 2 stores/s, thread 78's only ($ns samples)" \
			"$(jq "$b | .stores_per_sec" $out)" 200000 "$(se 200000 "$ns")"
	fi
	is "$u: nothing lost or throttled" "$(jq -c '[.sharing.lost, .sharing.throttled]' $out)" '[0,0]'
	case $u in nehalem|sandybridge|crestmont) lb=true ;; *) lb=false ;; esac
	is "$u: HITM/s a lower bound: $lb" "$(jq .sharing.hitm_lower_bound $out)" $lb
done

# ---- the hybrids: each core type its own events on its own PMU ----
# Two P-cores (CPUs 0-1) and two E-cores (2-3); the simulated kernel
# puts a thread on CPU tid % 4 and refuses a type's events on the other
# type's PMU.  Each line has a thread on a P-core and one on an E-core:
# a CPU sampled with the wrong type's event or PMU, or an E-core sample
# read with the P-core's table (Gracemont's HITM is 0x6, Crestmont's 0x8,
# the Skylake table's clean hit and L4; Lion Cove's own table, 0xD), loses
# that thread or its HITM.
# Their HITM is load latency's alone (no snoop events): a lower bound.
cat >$LIB_TMP/hybrid.prof <<'PROF'
core_types = P:2,E:2
ldlat_tagged_fraction = 1
line = 0x7f3a00001040 worker 4242 800000 4244:w@0 4247:w@8
line = 0x7f3a00002000 db 77 400000 80:w@0 78:r@0
PROF
# Arrow Lake-S/HX and -H (profile key model): 06_C5's CPU 3 is a low-power
# Crestmont E-core (core_types L) on the third PMU, cpu_lowpower, whose
# HITM is Crestmont's 0x8 as on cpu_atom's Skymont (arl_h_latency_data).
sed 's/^core_types = .*/model = 0xC6\n&/' $LIB_TMP/hybrid.prof >$LIB_TMP/hybrid-0xC6.prof
sed 's/^core_types = .*/model = 0xC5\ncore_types = P:2,E:1,L:1/' $LIB_TMP/hybrid.prof >$LIB_TMP/hybrid-0xC5.prof
for spec in alderlake raptorlake meteorlake arrowlake lunarlake arrowlake:0xC6 arrowlake:0xC5; do
	u=${spec%%:*} model=${spec#$u}
	model=${model#:}
	U=$u${model:+ 06_${model#0x}}
	out=$LIB_TMP/hyb-$u$model.json
	./lattop --simulate $u --sim-profile $LIB_TMP/hybrid${model:+-$model}.prof --backend perf --once -d 2 \
		--format json >$out 2>$LIB_TMP/err
	is "$U ($(sed -n 's/^core_types = //p' $LIB_TMP/hybrid${model:+-$model}.prof)): exit 0" "$?" 0
	is "$U: sampled on both core types, HITM/s a lower bound" \
		"$(jq -c '.sharing | [.supported, .hitm_lower_bound]' $out)" '[true,true]'
	a='.sharing.lines[] | select(.addr == "0x7f3a00001040")'
	b='.sharing.lines[] | select(.addr == "0x7f3a00002000")'
	is "$U: the lines and their processes" \
		"$(jq -c '[.sharing.lines[] | [.addr, [.processes[].pid]]]' $out)" \
		'[["0x7f3a00001040",[4242]],["0x7f3a00002000",[77]]]'
	is "$U: false sharing, the P-core's thread on word 0, the E-core's on 8" \
		"$(jq -c "$a | [.verdict, [.offsets[] | [.offset, .tids]]]" $out)" \
		'["false_sharing",[[0,[4244]],[8,[4247]]]]'
	is "$U: true sharing, a P-core's and an E-core's thread on word 0" \
		"$(jq -c "$b | [.verdict, [.offsets[] | [.offset, (.tids | sort)]]]" $out)" \
		'["true_sharing",[[0,[78,80]]]]'
	na=$(jq "[$a | .offsets[].reads] | add" $out)
	nb=$(jq "[$b | .offsets[].reads] | add" $out)
	within_se "$U: line 1 HITM/s, both types' ($na samples)" "$(jq "$a | .hitm_per_sec" $out)" \
		800000 "$(se 800000 "$na")"
	within_se "$U: line 2 HITM/s ($nb samples)" "$(jq "$b | .hitm_per_sec" $out)" 400000 \
		"$(se 400000 "$nb")"
	ns=$(jq "[$a | .offsets[].writes] | add" $out)
	within_se "$U: line 1 stores/s, mem-stores on both types ($ns samples)" \
		"$(jq "$a | .stores_per_sec" $out)" 800000 "$(se 800000 "$ns")"
	is "$U: nothing lost or throttled" "$(jq -c '[.sharing.lost, .sharing.throttled]' $out)" '[0,0]'
done

# ---- the load-latency event samples tagged loads only ----
# With a quarter of the loads tagged, the HITM rate seen through load
# latency is a quarter of the truth (lattop cannot know the share: a lower
# bound, said in the JSON and the man page) on Sandy Bridge, whose snoop
# events sample no data address; from Haswell on the precise retired-load
# snoop events (0xD2/0x04 and, on the servers, 0xD3) sample every HITM
# load: the whole rate, local and remote, and no lower bound.  Their data
# source says only "load": a reader of the data source alone finds no HITM.
# The stores are all counted.
sed 's/^ldlat_tagged_fraction = 1$/ldlat_tagged_fraction = 0.25/' $P >$LIB_TMP/tagged.prof
for u in sandybridge skylake haswell; do
	out=$LIB_TMP/tagged-$u.json
	./lattop --simulate $u --sim-profile $LIB_TMP/tagged.prof --backend perf --once -d 2 \
		--format json >$out 2>/dev/null
	a='.sharing.lines[] | select(.addr == "0x7f3a00001040")'
	na=$(jq "[$a | .offsets[].reads] | add" $out)
	ns=$(jq "[$a | .offsets[].writes] | add" $out)
	if [ $u = sandybridge ]; then
		is "tagged 1/4, $u: HITM/s a lower bound" "$(jq .sharing.hitm_lower_bound $out)" true
		within_se "tagged 1/4, $u: line 1 HITM/s is a quarter ($na samples)" \
			"$(jq "$a | .hitm_per_sec" $out)" 200000 "$(se 200000 "$na")"
		within_se "tagged 1/4, $u: ... and its remote HITM/s" \
			"$(jq "$a | .remote_hitm_per_sec" $out)" 50000 "$(se 50000 "$na")"
	else
		is "tagged 1/4, $u: HITM/s from the snoop events" "$(jq .sharing.hitm_lower_bound $out)" \
			false
		within_se "tagged 1/4, $u: line 1 HITM/s whole ($na samples)" \
			"$(jq "$a | .hitm_per_sec" $out)" 800000 "$(se 800000 "$na")"
		within_se "tagged 1/4, $u: ... and its remote HITM/s" \
			"$(jq "$a | .remote_hitm_per_sec" $out)" 200000 "$(se 200000 "$na")"
		# the loads are load latency's own samples still: a quarter of them
		within_se "tagged 1/4, $u: line 1 loads/s, the tagged ones" \
			"$(jq "$a | .loads_per_sec" $out)" 200000 "$(se 200000 "$na")"
	fi
	within_se "tagged 1/4, $u: line 1 stores/s, all of them ($ns samples)" \
		"$(jq "$a | .stores_per_sec" $out)" 800000 "$(se 800000 "$ns")"
	# The text says it too: a lower bound reads >=N, a whole rate N.
	./lattop --simulate $u --sim-profile $LIB_TMP/tagged.prof --backend perf --once -d 1 \
		>$LIB_TMP/tagged-$u.txt 2>/dev/null
	if [ $u = sandybridge ]; then
		check "tagged 1/4, $u: text: HITM/s and RHITM/s as >=N" \
			grep -qE '^0x7f3a00001040 .* >=[0-9.]+k +>=[0-9.]+k ' $LIB_TMP/tagged-$u.txt
	else
		check "tagged 1/4, $u: text: HITM/s whole, no >=" \
			sh -c "grep -qE '^0x7f3a00001040 +(0x[0-9a-f]+ +)?[0-9.]+k +[0-9.]+k ' $LIB_TMP/tagged-$u.txt &&
			       ! grep -q '>=' $LIB_TMP/tagged-$u.txt"
	fi
done

# ---- --pid: the threads of one process only ----
# The simulated kernel's per-task events sample their own thread only; a
# CPU-wide reading, or a filter that missed a thread, would bring the
# other process's line (or lose half of this one's).
for p in 77 4242; do
	out=$LIB_TMP/pid$p.json
	./lattop --simulate skylake --sim-profile $P --backend perf --once -d 2 --format json \
		--pid $p >$out 2>$LIB_TMP/err
	is "--pid $p: exit 0" "$?" 0
	is "--pid $p: its line only, its process only" \
		"$(jq -c '[.sharing.lines[] | [.addr, [.processes[].pid]]]' $out)" \
		"$([ $p = 77 ] && echo '[["0x7f3a00002000",[77]]]' || echo '[["0x7f3a00001040",[4242]]]')"
done
out=$LIB_TMP/pid77.json
b='.sharing.lines[0]'
nb=$(jq "[$b | .offsets[].reads] | add" $out)
within_se "--pid 77: its HITM/s, both threads' ($nb samples)" "$(jq "$b | .hitm_per_sec" $out)" \
	400000 "$(se 400000 "$nb")"
ns=$(jq "[$b | .offsets[].writes] | add" $out)
within_se "--pid 77: its stores/s ($ns samples)" "$(jq "$b | .stores_per_sec" $out)" 200000 \
	"$(se 200000 "$ns")"
# a process that ends: the view says so from the interval after
sed 's/79:r@0$/79:r@0 exit=1.5/' $P >$LIB_TMP/exit.prof
./lattop --simulate skylake --sim-profile $LIB_TMP/exit.prof --backend perf -b -n 2 -d 1 \
	--format json --pid 77 >$LIB_TMP/exit.json 2>/dev/null
is "--pid: sampled while the process runs, then it ended" \
	"$(jq -c '.sharing | [.supported, .reason, (.lines | length)]' $LIB_TMP/exit.json | tr '\n' ' ')" \
	'[true,null,1] [false,"process 77 (--pid) ended",0] '
# bad input: one line, exit 2, nothing measured
for bad in x12 0 -3 12345678901 4243; do
	./lattop --simulate skylake --sim-profile $P --backend perf --once -d 0.2 --format json \
		--pid $bad >$LIB_TMP/bad.out 2>$LIB_TMP/bad.err
	is "--pid $bad: exit 2" "$?" 2
	is "--pid $bad: nothing printed" "$(wc -c <$LIB_TMP/bad.out | tr -d ' ')" 0
	check "--pid $bad: one line says why" grep -q "^lattop: --pid '*$bad'*: " $LIB_TMP/bad.err
done
./lattop --simulate skylake --sim-profile $P --once -d 0.2 --pid 77 >/dev/null 2>$LIB_TMP/bad.err
is "--pid without --backend perf: exit 2" "$?" 2
check "... the msr backend samples nothing" grep -q 'needs --backend perf' $LIB_TMP/bad.err

# ---- side-band: a process that starts names its code through MMAP2 ----
# The simulated kernel tells a process that starts after the open as the
# kernel does: FORK, COMM (exec), MMAP2 of its executable, here lattop's
# own binary at 0x400000.  Its code comes back as lattop's own function,
# from the MMAP2-built map: the simulated processes are not this machine's,
# so no /proc/PID/maps is read, and the process that ran before the open
# (told nothing) has no symbol.  lattop reads the binary after it gives up
# root, so the binary is a copy in a folder anyone may enter, wherever the
# checkout is (a clone in a mktemp -d folder is root's alone); another copy,
# in a folder root alone may enter, is named binary+0xOFF (man page: "where
# the binary cannot be read").
sbx=$LIB_TMP/sbx
mkdir -p $sbx/open $sbx/closed && chmod 711 $LIB_TMP && chmod 755 $sbx $sbx/open &&
	chmod 700 $sbx/closed && cp lattop $sbx/open/lattop && cp lattop $sbx/closed/lattop
exe=$sbx/open/lattop
va=$(nm $exe | awk '$2 ~ /^[Tt]$/ && $3 == "lines_add" { print $1 }')
off=
# the executable segment holding it: the file offset of the function
for seg in $(readelf -lW $exe | awk '$1 == "LOAD" && / R?W?E / { print $2 ":" $3 ":" $5 }'); do
	o=${seg%%:*} v=${seg#*:} n=${v#*:} v=${v%%:*}
	[ $((0x$va)) -ge $((v)) ] && [ $((0x$va)) -lt $((v + n)) ] && off=$((0x$va - v + o))
done
if [ -n "$va" ] && [ -n "$off" ]; then
	ip=$(printf '0x%x' $((0x400000 + off + 0x10)))
	cat >$LIB_TMP/sb.prof <<PROF
cpus = 4
threads_per_core = 1
ldlat_tagged_fraction = 1
line = 0x7f3a00001040 worker 4242 400000 4243:w@0 4244:w@8 ip=$ip start=0.3 exe=$exe
line = 0x7f3a00002000 db 77 400000 78:w@0 79:r@0 ip=0x401000
line = 0x7f3a00003000 shut 5252 400000 5253:w@0 5254:w@8 ip=$ip start=0.3 exe=$sbx/closed/lattop
PROF
	./lattop --simulate skylake --sim-profile $LIB_TMP/sb.prof --backend perf -b -n 3 -d 0.5 \
		--format json >$LIB_TMP/sb.json 2>/dev/null
	a='.sharing.lines[] | select(.addr == "0x7f3a00001040")'
	is "side-band: the process started later is named by its COMM" \
		"$(tail -1 $LIB_TMP/sb.json | jq -c "[$a | .processes[]]")" '[{"pid":4242,"comm":"worker"}]'
	is "side-band: its code, lattop's lines_add, through MMAP2" \
		"$(tail -1 $LIB_TMP/sb.json | jq -r "$a | .top_symbol, (.offsets[].symbol)" | sort -u | paste -sd' ' -)" \
		"lines_add+0x10"
	is "side-band: the process running before the open: no symbol, no /proc read" \
		"$(tail -1 $LIB_TMP/sb.json | jq -c '.sharing.lines[] | select(.addr == "0x7f3a00002000") | .top_symbol')" null
	# Root alone drops its privileges; any other user reads its own copy.
	want=lines_add+0x10
	[ "$(id -u)" = 0 ] && want=$(printf 'lattop+0x%x' $((off + 0x10)))
	is "side-band: a binary lattop cannot read once it gave up root: binary+0xOFF" \
		"$(tail -1 $LIB_TMP/sb.json | jq -r '.sharing.lines[] | select(.addr == "0x7f3a00003000") | .top_symbol')" \
		"$want"
else
	skip "no lines_add in $exe (nm, readelf)"
fi

# ---- the NUMA node of a line: its physical address's memory block ----
# The simulated kernel's node N holds the memory blocks of its own range
# (nodeN/memoryB), and writes PHYS_ADDR 0 for a page it did not translate:
# the node is then unknown, null, as is the address.
{
	sed 's/ remote=0.25$/ node=1/' $P
	echo 'line = 0x7f3a00003000 cache 900 200000 901:w@0 902:w@8 node=none'
} >$LIB_TMP/node.prof
./lattop --simulate skylake --sim-profile $LIB_TMP/node.prof --backend perf --once -d 1 \
	--format json >$LIB_TMP/node.json 2>/dev/null
is "node: 1, 0, and unknown where the kernel gave no physical address" \
	"$(jq -c '[.sharing.lines[] | [.addr, .node, (.phys != null)]] | sort' $LIB_TMP/node.json)" \
	'[["0x7f3a00001040",1,true],["0x7f3a00002000",0,true],["0x7f3a00003000",null,false]]'
./lattop --simulate skylake --sim-profile $LIB_TMP/node.prof --backend perf --once -d 1 \
	>$LIB_TMP/node.txt 2>/dev/null
check "node: the text table says it, - where unknown" sh -c \
	"grep -qE '^0x7f3a00001040 +0x[0-9a-f]+ .* 1 false ' $LIB_TMP/node.txt &&
	 grep -qE '^0x7f3a00003000 +- .* - false ' $LIB_TMP/node.txt"

# ---- the msr backend has no PEBS buffer ----
./lattop --simulate haswell --sim-profile $P --once -d 0.2 --format json >$LIB_TMP/msr.json 2>/dev/null
is "msr: not supported" "$(jq .sharing.supported $LIB_TMP/msr.json)" false
check "msr: and why" sh -c "jq -r .sharing.reason $LIB_TMP/msr.json | grep -q 'the msr backend has no PEBS buffer'"
is "msr: no lines" "$(jq '.sharing.lines | length' $LIB_TMP/msr.json)" 0

# ---- throttled: the kernel stops the event; lattop doubles the period ----
T=$LIB_TMP/throttle.prof
cp $P $T
# 120: no event's rate falls on the limit itself (a remote HITM event gives 100 at 1000)
echo 'perf_event_max_sample_rate = 120' >>$T
./lattop --simulate skylake --sim-profile $T --backend perf -b -n 4 -d 0.5 --format json \
	>$LIB_TMP/thr.json 2>/dev/null
is "throttled: 4 intervals" "$(wc -l <$LIB_TMP/thr.json | tr -d ' ')" 4
check "throttled: the first interval says THROTTLE records" \
	test "$(head -1 $LIB_TMP/thr.json | jq .sharing.throttled)" -gt 0
is "throttled: after it, the period doubled" "$(head -1 $LIB_TMP/thr.json | jq .sharing.period)" 2000
is "throttled: ... and again until the kernel no longer throttles" \
	"$(tail -2 $LIB_TMP/thr.json | jq -c '[.sharing.throttled, .sharing.period]' | tr '\n' ' ')" \
	"[0,4000] [0,4000] "

# ---- lost: more than a ring holds in an interval; a longer period after ----
L=$LIB_TMP/lost.prof
cat >$L <<'PROF'
cpus = 2
threads_per_core = 1
ldlat_tagged_fraction = 1
line = 0x7f3a00001040 worker 4242 40000000 2:w@0 3:w@8
PROF
./lattop --simulate skylake --sim-profile $L --backend perf -b -n 3 -d 1 --format json \
	>$LIB_TMP/lost.json 2>/dev/null
# PERF_FORMAT_LOST: the read says a loss at once, in its interval, where
# the kernel's LOST record comes with the next record that fits, after.
check "lost: the first interval says its losses itself" \
	test "$(head -1 $LIB_TMP/lost.json | jq .sharing.lost)" -gt 0
is "lost: then a period long enough to lose none" \
	"$(tail -2 $LIB_TMP/lost.json | jq -c .sharing.lost | tr '\n' ' ')" "0 0 "
check "lost: the period grew" test "$(tail -1 $LIB_TMP/lost.json | jq .sharing.period)" -gt 1000
# A kernel before 6.0 refuses PERF_FORMAT_LOST: the LOST records count,
# where they are read (the one that says a full ring's loss comes with the
# next record that fits).
(cat $L; echo 'perf_format_lost = 0') >$LIB_TMP/lost0.prof
./lattop --simulate skylake --sim-profile $LIB_TMP/lost0.prof --backend perf -b -n 3 -d 1 \
	--format json >$LIB_TMP/lost0.json 2>/dev/null
is "lost, before 6.0: still sampled" "$(head -1 $LIB_TMP/lost0.json | jq .sharing.supported)" true
check "lost, before 6.0: the LOST records counted" \
	test "$(jq -s '[.[].sharing.lost] | add' $LIB_TMP/lost0.json)" -gt 0

# ---- /metrics: bounded aggregates, never a series per line ----
if command -v curl >/dev/null 2>&1; then
	./lattop --simulate skylake --sim-profile $P --backend perf -b -n 40 -d 0.25 --format json \
		--listen 127.0.0.1:0 >/dev/null 2>$LIB_TMP/listen.err &
	lp=$!
	wait_for $LIB_TMP/listen.err serving 10
	port=$(sed -n 's|^lattop: serving http://.*:\([0-9]*\)/metrics$|\1|p' $LIB_TMP/listen.err)
	i=0
	until curl -sf http://127.0.0.1:$port/metrics | grep -q '^lattop_sharing_samples_total [1-9]' ||
		[ $i -ge 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	check "metrics: samples counted once an interval is read" test $i -lt 100
	curl -sf http://127.0.0.1:$port/metrics >$LIB_TMP/metrics
	is "metrics: the lines tracked, a gauge" "$(grep '^lattop_sharing_lines ' $LIB_TMP/metrics)" \
		"lattop_sharing_lines 2"
	is "metrics: lost and throttled, counters" \
		"$(grep -c '^lattop_sharing_\(lost\|throttled\)_total 0$' $LIB_TMP/metrics)" 2
	check "metrics: no address, no line as a label" sh -c "! grep -q '7f3a0000' $LIB_TMP/metrics"
	kill $lp
	wait $lp 2>/dev/null
else
	skip "no curl here"
fi

tap_done
