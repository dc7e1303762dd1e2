#!/bin/sh
# bench.sh: what lattop costs (make bench).  Prints markdown tables; the
# numbers in BENCHMARKS.md come from it.  Every figure is the median of
# REPS runs (default 5): these machines are shared and noisy.
#
#   1. MSR device operations per logical CPU per interval, counted with
#      strace on --msr-dir (the FUSE msr stand-in serving the simulator),
#      against the floor the plan sets (lattop --list-events).
#   2. Instructions (callgrind) and CPU time per tick at 8, 64, 256 and 1024
#      simulated logical CPUs, lattop's own and the simulator's, and the
#      resident memory: with the simulator in the process, and lattop's
#      alone, the simulator in the FUSE stand-in (rss_alone).
#   2b. Where a tick's instructions go at 64 CPUs: plans of 3 to 12 slots,
#      the cost of a slot boundary fitted, and a boundary's instructions by
#      the work they serve (boundaries).
#   3. Bytes written to the terminal per steady refresh, and CPU share, of
#      the screen at 80x24 and 200x50, beside top and htop.
#   4. The Prometheus exposition at 8, 256 and 1024 CPUs: CPU time to add
#      an interval and render each format (bench/export_bench), bytes per
#      scrape, and the CPU time lattop's HTTP threads spend per scrape.
#   5. Bytes of a recording (--record) against the same snapshots as
#      --format json, and the instructions recording adds per CPU per tick.
#   6. The perf backend: this kernel's cost of each call, the calls per CPU
#      per interval of every family, lattop's instructions and memory per
#      tick through the simulated kernel (bench/perf_bench, and section 2's
#      measure with --backend perf).
#   7. The contended lines: instructions (callgrind) per sample from the
#      ring buffer to the line table and the frame, symbols cached, at 10^4
#      to 10^6 samples an interval over 10^2 to 10^6 distinct lines, the
#      resident memory, and the samples lattop lost (bench/sharing_bench).
#   (regs: the operations of section 1 on one CPU by register, for four
#   families; not in the default run.)
# Run as root (FUSE).  Sections: bench.sh [ops] [regs] [cpu] [boundaries] [term] [export] [record] [perf]
# [sharing].  UARCHS="tremont gracemont" limits section 1 to those families.
cd "$(dirname "$0")/.." || exit 2
# What the sections run (lattop, the msr stand-in, bench/*_bench): built
# here too, so that one section runs on a fresh clone as `make bench` does.
make -s --no-print-directory tests >/dev/null || { echo "bench.sh: make tests failed" >&2; exit 2; }
REPS=${REPS:-5}
T=$(mktemp -d /tmp/lattop-bench.XXXXXX)
chmod 711 "$T"
# The screen section's tmux servers are named lattop-bench-PID-*.
trap 'fusermount3 -u $T/m 2>/dev/null
      for s in /tmp/tmux-$(id -u)/lattop-bench-$$-*; do tmux -S "$s" kill-server 2>/dev/null; rm -f "$s"; done
      rm -rf $T' EXIT INT TERM
sections=${*:-ops cpu boundaries term export record perf sharing}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---- 1. MSR operations ----
ops_once() {   # UARCH DUMP CPUS N -> "reads writes" of a run of N intervals
	strace -f -qq -c -e trace=pread64,pwrite64 -o $T/st ./lattop --msr-dir $T/m --cpuid-file "$2" \
		--state-dir $T/s -b -n "$4" -d 0.1 --format json >/dev/null 2>&1
	awk '/pread64/ { r = $4 } /pwrite64/ { w = $4 } END { print r + 0, w + 0 }' $T/st
}

# The dumps lattop detects as family $1 and can measure, the first of each
# model (Arrow Lake is 06_C6 and 06_C5): tests/dumps, then ../shared/cpuid
# (read in place where present): a hybrid part's every-CPU form (all/: a
# CPU-0 dump sees one core type), the CPU-0 dumps.  One a line, "DUMP MODEL".
family_dumps() {
	_seen=
	for f in tests/dumps/*.raw ../shared/cpuid/all/*.cpuid-r.txt ../shared/cpuid/libcpuid/*.raw; do
		[ -f "$f" ] || continue
		./lattop --detect --cpuid-file "$f" --format json >$T/d 2>/dev/null
		[ "$(jq --arg u "$1" '.microarch == $u and .supported' $T/d 2>/dev/null)" = true ] || continue
		case $f in */all/*) [ "$(jq .hybrid $T/d)" = true ] || continue ;; esac
		_m=$(jq .model $T/d)
		case " $_seen " in *" $_m "*) continue ;; esac
		_seen="$_seen $_m"
		echo "$f $_m"
	done
}

# The profile line that gives the simulator a hybrid dump's CPUs 0-7 (the 8
# the bench simulates) in the dump's order, from lattop's reading of the
# dump (--detect JSON $1): runs of P (a Core CPU), E (an Atom) and L (the
# Atom whose native model is the older, as lattop's row name and the
# kernel's cpu_lowpower have it), as "core_types = P:2,E:4,P:2"; nothing
# for a part that is not hybrid.
dump_core_types() {
	jq -r 'if .hybrid then
		([.core_types[] | select(.type == "atom") | .native_model] | max) as $newest |
		[.core_types[] | (if .type == "core" then "P" elif .native_model < $newest then "L"
				  else "E" end) as $t | .cpus[] | select(. < 8) | [., $t]] | sort |
		reduce .[] as $c ([]; if length > 0 and .[-1][0] == $c[1] then .[-1][1] += 1
				      else . + [[$c[1], 1]] end) |
		"core_types = " + (map("\(.[0]):\(.[1])") | join(","))
	else empty end' "$1"
}

# The first of them.
family_dump() {
	family_dumps "$1" | head -1 | cut -d' ' -f1
}

ops() {
	echo "### MSR operations per logical CPU per interval (8 CPUs, -d 0.1, median of $REPS)"
	echo
	echo "| microarch | dump | threads/core, packages | reads | writes | total | floor reads | floor writes | floor | ratio |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	mkdir -p $T/s && chmod 700 $T/s
	for u in ${UARCHS:-$(./lattop --list-uarchs --format json | jq -r '.[].name')}; do
		family_dumps $u >$T/dumps
		if [ ! -s $T/dumps ]; then
			echo "| $u | no dump | - | - | - | - | - | - | - | - |"
			continue
		fi
		# The first dump's row; where the simulator has that dump's model
		# (the profile key model), also a row for each other model of the
		# family it simulates (Arrow Lake: 06_C6 and 06_C5).  Where it has
		# another model of the family (its own reading), the first alone.
		only= started=
		for dm in $(tr ' ' : <$T/dumps); do
			dump=${dm%:*} model=${dm##*:} mline=
			[ -z "$only" ] || break
			printf 'model = %d\n' $model >$T/mp
			if ./lattop --simulate $u --sim-profile $T/mp --detect >/dev/null 2>&1; then
				mline="model = $model"
			elif [ -n "$started" ]; then
				continue
			else
				only=1
			fi
			started=1
			# The floor of the plan lattop runs on the machine --list-events
			# plans for (twin slots, packages): the simulator serves that machine.
			./lattop --list-events --cpuid-file "$dump" --format json >$T/ev
			# A hybrid part: a listing per core type, in --detect's order (P-cores
			# first); the simulator's CPUs are the dump's CPUs 0-7, each of the
			# dump's core type in the dump's order (the 265K's are P, P, E x 4,
			# P, P: a CPU whose CPUID says one type on a simulated CPU of
			# another measures nothing true, or fails), one thread per core, and
			# the floor is the mean of those 8 CPUs' types.
			./lattop --detect --cpuid-file "$dump" --format json >$T/det
			n=$(jq -c 'if .hybrid then
				[.core_types[] | [.cpus[] | select(. < 8)] | length] else [8] end' $T/det)
			set -- $(jq -rs --argjson n "$n" '. as $l | [range($n | length)] as $k |
				"\(([$k[] | $l[.].floor.reads * $n[.]] | add) / 8)
				 \(([$k[] | $l[.].floor.writes * $n[.]] | add) / 8)
				 \(if length > 1 then 1 else $l[0].machine.threads_per_core end) \($l[0].machine.packages)"' $T/ev)
			fr=$1 fw=$2 tpc=$3 pkg=$4
			printf 'cpus = 8\nthreads_per_core = %d\npackages = %d\n' $tpc $pkg >$T/p
			[ -z "$mline" ] || echo "$mline" >>$T/p
			dump_core_types $T/det >>$T/p
			mkdir -p $T/m
			tests/msrfs/msrfs $T/m --simulate $u --sim-profile $T/p -f >/dev/null 2>$T/mserr &
			i=0; while [ ! -e $T/m/0/msr ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
			if [ ! -e $T/m/0/msr ]; then
				# The simulator refusing the machine the dump plans for (its
				# own model of the family differs) is said in the table; a
				# stand-in that does not start for another reason is a failure.
				wait
				grep -q 'threads_per_core\|packages' $T/mserr ||
					{ echo "bench: msrfs did not start for $u" >&2; cat $T/mserr >&2; exit 1; }
				echo "| $u | ${dump##*/} | $tpc, $pkg | not measured: the simulator refuses this machine ($(sed 's/^msrfs: [^ ]* //; s/|/\\|/g' $T/mserr | head -1)) | - | - | $fr | $fw | $((fr + fw)) | - |"
				continue
			fi
			: >$T/r; : >$T/w
			for rep in $(seq $REPS); do
				set -- $(ops_once $u $dump 8 1)
				r1=$1 w1=$2
				set -- $(ops_once $u $dump 8 11)
				echo "$1 $r1" | awk '{ print ($1 - $2) / 10 / 8 }' >>$T/r
				echo "$2 $w1" | awk '{ print ($1 - $2) / 10 / 8 }' >>$T/w
			done
			fusermount3 -u $T/m
			wait
			r=$(median <$T/r) w=$(median <$T/w)
			# A run that did nothing is a broken bench, not a cheap lattop.
			awk -v r=$r 'BEGIN { exit !(r > 0) }' || { echo "bench: no reads counted for $u" >&2; exit 1; }
			echo "$u ${dump##*/} $tpc $pkg $r $w $fr $fw" | awk '{ printf "| %s | %s | %d, %d | %.2f | %.2f | %.2f | %g | %g | %g | %.2f |\n",
				$1, $2, $3, $4, $5, $6, $5 + $6, $7, $8, $7 + $8, ($5 + $6) / ($7 + $8) }'
		done
	done
	echo
}

# ---- 1b. MSR operations by register ----
# What each register costs on logical CPU 0 per interval (the same runs as
# ops, strace -y giving each operation's file and offset, the MSR), for
# BENCHMARKS.md's account of every operation above the floor.
regs() {
	echo "### MSR operations on cpu 0 per interval, by register (8 CPUs, -d 0.1)"
	echo
	mkdir -p $T/s && chmod 700 $T/s
	for u in ${REGS_UARCHS:-haswell skylake silvermont nehalem}; do
		dump=$(family_dump $u)
		[ -n "$dump" ] || continue
		./lattop --list-events --cpuid-file "$dump" --format json >$T/ev
		printf 'cpus = 8\nthreads_per_core = %d\npackages = %d\n' \
			$(jq -r '"\(.machine.threads_per_core) \(.machine.packages)"' $T/ev) >$T/p
		mkdir -p $T/m
		tests/msrfs/msrfs $T/m --simulate $u --sim-profile $T/p -f >/dev/null 2>$T/mserr &
		i=0; while [ ! -e $T/m/0/msr ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
		if [ ! -e $T/m/0/msr ]; then
			wait
			echo "$u (${dump##*/}): not measured: $(sed 's/^msrfs: [^ ]* //' $T/mserr | head -1)"
			echo
			continue
		fi
		for k in 1 11; do
			strace -f -qq -y -e trace=pread64,pwrite64 -o $T/st ./lattop --msr-dir $T/m \
				--cpuid-file "$dump" --state-dir $T/s -b -n $k -d 0.1 --format json >/dev/null 2>&1
			grep '/0/msr>' $T/st | sed -E 's/^[0-9]+ +//; s/^(pread64|pwrite64)\(.*, ([0-9]+)\) .*/\1 \2/' |
				awk '{ printf "%s 0x%x\n", $1 == "pread64" ? "read" : "write", $2 }' | sort | uniq -c >$T/c.$k
		done
		fusermount3 -u $T/m
		wait
		echo "$u (${dump##*/}):"
		awk 'FNR == NR { a[$2 " " $3] = $1; next } { b[$2 " " $3] = $1 }
		     END { for (k in a) if ((d = (a[k] - b[k]) / 10)) printf "    %5.1f %s\n", d, k }' $T/c.11 $T/c.1 |
			sort -k3
		echo
	done
}

# ---- 2. CPU time, instructions, memory ----
# lattop runs as nobody here: the simulator needs no root, and as root lattop
# drops to nobody itself, after which valgrind could not write its output.
NB="setpriv --reuid=65534 --regid=65534 --clear-groups"

# lattop's own folders: a profiled function whose source is in one of them
# is lattop's, in sim/ the simulator's, anywhere else (the C library, libm,
# zstd, the loader) the libraries'.
OWN_DIRS='lib|cpu|engine|output|export|record|safety|ui|app'

# callgrind_annotate's list of functions (each one's own instructions) ->
# a line each, "CLASS FOLDER FUNCTION INSTRUCTIONS" (CLASS own, sim or lib),
# and "total - - INSTRUCTIONS".
cg_list() {
	awk -v own="^($OWN_DIRS)/" '/PROGRAM TOTALS/ { gsub(",", "", $1); print "total - -", $1; t = 1; next }
	     t && /^ *[0-9,]+ .*:/ {
		n = $1; gsub(",", "", n)
		f = $0; sub(/^ *[0-9,]+ +(\([ 0-9.]+%\) +)?/, "", f); sub(/^\.\//, "", f)
		c = f ~ /^sim\// ? "sim" : f ~ own ? "own" : "lib"
		sub(/ .*/, "", f); d = f; sub(/:.*/, "", d); sub(/\/.*/, "", d); sub(/.*:/, "", f)
		sub(/\..*/, "", f)
		print c, (d == "" ? "-" : d), f, n }' "$1"
}

# An annotation -> "lattop simulator libraries total" instructions.
cg_split() {
	cg_list "$1" | awk '{ v[$1] += $4 }
		END { printf "%.0f %.0f %.0f %.0f\n", v["own"], v["sim"], v["lib"], v["total"] }'
}

# lattop under callgrind as nobody, 1 and 11 ticks of -d 0.05, JSON to
# /dev/null, on the simulator's profile $2 with lattop's arguments $3...:
# the annotations $1.1 and $1.11, lattop's stderr $1.err.1 and $1.err.11
# ($1's folder nobody's).  Non-zero, with lattop's stderr, when it failed.
cg_ticks() {
	cg_out=$1 cg_prof=$2
	shift 2
	for k in 1 11; do
		$NB valgrind --tool=callgrind --vgdb=no --callgrind-out-file=$cg_out.cg.$k ./lattop \
			--simulate haswell --sim-profile $cg_prof -b -n $k -d 0.05 --format json "$@" \
			>/dev/null 2>$cg_out.err.$k || { tail -5 $cg_out.err.$k >&2; return 1; }
		callgrind_annotate --auto=no --threshold=100 $cg_out.cg.$k 2>/dev/null >$cg_out.$k
	done
}

# lattop's own resident memory at N CPUs, without the simulator's: the
# simulator runs in the FUSE msr stand-in, another process, and lattop reads
# its msr files (--msr-dir), as on a machine.  Max RSS in KiB (GNU time) of
# an 11-interval run, median of REPS.
rss_alone() {   # N
	dump=$(family_dump haswell)
	printf 'cpus = %d\n' $1 >$T/pa
	mkdir -p $T/ma $T/sa && chmod 700 $T/sa
	tests/msrfs/msrfs $T/ma --simulate haswell --sim-profile $T/pa -f >/dev/null 2>&1 &
	i=0; while [ ! -e $T/ma/0/msr ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -e $T/ma/0/msr ] || { echo "bench: msrfs did not start at $1 CPUs" >&2; exit 1; }
	: >$T/ra
	for rep in $(seq $REPS); do
		/usr/bin/time -f '%M' -o $T/ra1 ./lattop --msr-dir $T/ma --cpuid-file "$dump" \
			--state-dir $T/sa -b -n 11 -d 0.05 --format json >$T/oa 2>/dev/null ||
			{ echo "bench: lattop failed on the stand-in at $1 CPUs" >&2; exit 1; }
		[ "$(jq '.cpus | length' $T/oa | tail -1)" = $1 ] ||
			{ echo "bench: the stand-in run did not measure $1 CPUs" >&2; exit 1; }
		cat $T/ra1 >>$T/ra
	done
	fusermount3 -u $T/ma
	wait
	median <$T/ra
}

cpu() {   # [BACKEND [SIZES]]: msr (the simulator's msr device) or perf (its simulated kernel)
	B=${1:-msr}
	mkdir -p $T/nb && chown nobody $T/nb
	echo "### Per tick at N simulated CPUs (haswell, --backend $B, -d 0.05, --format json to /dev/null; median of $REPS)"
	echo
	echo "| CPUs | lattop instr/CPU/tick | simulator instr/CPU/tick | libraries instr/CPU/tick | lattop share | CPU time/CPU/tick (all) | lattop's own | max RSS | lattop alone: max RSS |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for n in ${CPUS:-${2:-8 64 256 1024}}; do
		printf 'cpus = %d\n' $n >$T/nb/p
		# nobody opens CPU-wide events at paranoid level 0 (no capability needed).
		[ $B = perf ] && printf 'perf_event_paranoid = 0\n' >>$T/nb/p
		# Instructions: callgrind, each function's own, by the folder of its source.
		cg_ticks $T/nb/ann $T/nb/p --backend $B || exit 1
		set -- $(cg_split $T/nb/ann.1) $(cg_split $T/nb/ann.11)
		o1=$1 s1=$2 t1=$4 o11=$5 s11=$6 t11=$8
		if [ "$s11" -le "$s1" ] || [ "$o11" -le "$o1" ]; then
			echo "bench: callgrind found no simulator (sim/) or no lattop instructions at $n CPUs" >&2
			tail -5 $T/nb/ann.err.1 $T/nb/ann.err.11 >&2
			exit 1
		fi
		# CPU time (task-clock) of 101 ticks less 1 tick, per CPU per tick; RSS of the long run.
		: >$T/c; : >$T/m1
		for rep in $(seq $REPS); do
			for k in 1 101; do
				perf stat -x, -e task-clock -o $T/nb/ps.$k /usr/bin/time -f '%M' -o $T/nb/rss.$k \
					$NB ./lattop --simulate haswell --backend $B --sim-profile $T/nb/p -b \
					-n $k -d 0.05 --format json >/dev/null 2>&1
			done
			a=$(awk -F, '/task-clock/ { print $1 }' $T/nb/ps.1)
			b=$(awk -F, '/task-clock/ { print $1 }' $T/nb/ps.101)
			echo "$a $b $n" | awk '{ print ($2 - $1) / 100 / $3 * 1000 }' >>$T/c
			cat $T/nb/rss.101 >>$T/m1
		done
		c=$(median <$T/c) rss=$(median <$T/m1) alone=-
		[ $B = msr ] && alone=$(rss_alone $n)
		echo "$n $o1 $o11 $s1 $s11 $t1 $t11 $c $rss $alone" | awk '{
			own = ($3 - $2) / 10 / $1; s = ($5 - $4) / 10 / $1; all = ($7 - $6) / 10 / $1;
			share = own / all;
			printf "| %d | %.0f | %.0f | %.0f | %.0f%% | %.2f µs | %.2f µs | %.1f MiB | %s |\n",
				$1, own, s, all - own - s, 100 * share, $8, $8 * share, $9 / 1024,
				$10 == "-" ? "-" : sprintf("%.1f MiB", $10 / 1024) }'
	done
	echo
}

# ---- 2b. Where a tick's instructions go: the plan's slot boundaries ----
# lattop's own instructions (callgrind, as section 2) at 64 CPUs for plans
# of 3 to 12 slots (1 to 7 thresholds; 2 threads a core, so the HT
# erratum's twin slots, and 1), by folder; the cost of one boundary and of
# the rest fitted over the two-thread rows; and the cost of a boundary by
# the work it serves, from the functions' own instructions at 12 slots
# less at 3, per added boundary; then rules().  Each group must find
# instructions.

# Function -> lattop's own instructions per CPU per tick at 64 CPUs, from
# annotations $1 (1 tick) and $2 (11 ticks): "FOLDER FUNCTION INSTRUCTIONS".
cg_funcs() {
	{ cg_list "$1" | awk '$1 == "own" { print -1, $2, $3, $4 }'
	  cg_list "$2" | awk '$1 == "own" { print 1, $2, $3, $4 }'; } |
		awk '{ v[$2 " " $3] += $1 * $4 } END { for (k in v) printf "%s %.1f\n", k, v[k] / 10 / 64 }'
}

# The work at a slot boundary, by the functions that do it (their own
# instructions; inlined helpers count in their callers'), for boundaries()
# and, some of them with the checks once an interval, for rules().
W_SWITCH="pmu_apply wr_at"
W_SAMPLER="collect sampler_interval plan_cpu_cfg cpu_cfg"
W_FREEZE="pmu_changes pebs_to_stop pmu_freeze legacy_look"
W_BACK="pmu_verify_before selects_lost shared_lost"
W_READ="pmu_read_gp"
W_ALLOW="msr_allowed"

boundaries() {
	mkdir -p $T/bd && chown nobody $T/bd
	echo "### lattop's own instructions per CPU per tick against the plan's slots (haswell, 64 CPUs, --backend msr, --format json)"
	echo
	echo "| thresholds | threads a core | slots | lattop | cpu/ | engine/ | output/ |"
	echo "|---|---|---|---|---|---|---|"
	: >$T/bd/fit
	for row in "8 2" "8,16 2" "8,16,32 2" "8,16,32,64 2" "8,16,32,64,128,256,512 2" \
		   "8,16,32,64,128,256,512 1"; do
		set -- $row
		tag=$(echo "$1-$2" | tr , _)
		printf 'cpus = 64\nthreads_per_core = %d\n' $2 >$T/bd/p.$tag
		slots=$(./lattop --simulate haswell --sim-profile $T/bd/p.$tag --thresholds $1 --list-events |
			sed -n 's/.*: \([0-9]*\) rotation slots.*/\1/p')
		[ -n "$slots" ] || { echo "bench: --list-events named no slots" >&2; exit 1; }
		echo $slots >$T/bd/slots.$tag
		cg_ticks $T/bd/ann.$tag $T/bd/p.$tag --thresholds $1 || exit 1
		cg_funcs $T/bd/ann.$tag.1 $T/bd/ann.$tag.11 >$T/bd/f.$tag
		set -- $(awk -v th="$1" -v tpc=$2 -v sl=$slots '{ v[$1] += $3; all += $3 }
			END { printf "%s %s %s %.0f %.0f %.0f %.0f\n", th, tpc, sl, all, v["cpu"],
			      v["engine"], v["output"] }' $T/bd/f.$tag)
		[ "${4:-0}" -gt 0 ] && [ "${5:-0}" -gt 0 ] ||
			{ echo "bench: callgrind found no lattop instructions (thresholds $1)" >&2; exit 1; }
		echo "| $1 | $2 | $3 | $4 | $5 | $6 | $7 |"
		[ $2 = 2 ] && echo "$3 $4" >>$T/bd/fit
	done
	echo
	awk '{ n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
	     END { b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
		   printf "Fitted over the two-thread rows: %.0f instructions a slot boundary, %.0f for the rest of a tick.\n", b, a }' $T/bd/fit
	echo
	# A boundary's work by the rule it serves: 12 slots less 3, per added boundary.
	lo=8-2 hi=8_16_32_64_128_256_512-2
	echo "### A slot boundary's instructions by what they serve (own instructions at $(cat $T/bd/slots.$hi) slots less at $(cat $T/bd/slots.$lo), per added boundary)"
	echo
	echo "| work | functions | instructions a boundary |"
	echo "|---|---|---|"
	awk '{ print $1 ":" $2, $3 }' $T/bd/f.$lo | sort >$T/bd/jl
	awk '{ print $1 ":" $2, $3 }' $T/bd/f.$hi | sort >$T/bd/jh
	join -a 2 -e 0 -o 0,1.2,2.2 $T/bd/jl $T/bd/jh >$T/bd/j
	dsl=$(( $(cat $T/bd/slots.$hi) - $(cat $T/bd/slots.$lo) ))
	awk -v dsl=$dsl -v q="'" -v sw="$W_SWITCH" -v sa="$W_SAMPLER" -v fr="$W_FREEZE" -v bk="$W_BACK" \
	    -v rd="$W_READ" -v al="$W_ALLOW" '
	function group(list, name,   n, f, i) {
		n = split(list, f, " ")
		for (i = 1; i <= n; i++)
			g_of[f[i]] = name
	}
	BEGIN {
		group(bk, "read back what the switch overwrites (section 1)")
		group(fr, "count the changes; freeze, after the legacy look (section 1)")
		group(sw, "the switch: decide and write")
		group(rd, "read the slot" q "s counters")
		group(al, "the allowlist")
		group(sa, "the sampler: slots, times, counts")
	}
	{ split($1, k, ":"); d = ($3 - $2) / dsl
	       if (k[2] in g_of) g = g_of[k[2]]
	       else if (k[1] == "output") g = "the JSON (numbers a threshold)"
	       else if (k[1] == "engine") g = "the metrics"
	       else g = "other"
	       s[g] += d
	       if (d >= 2 && !seen[g, k[2]]++) fn[g] = fn[g] (fn[g] == "" ? "" : ", ") k[2] }
	     END { for (g in s) printf "| %s | %s | %.0f |\n", g, fn[g], s[g] }' $T/bd/j |
		sort -t'|' -k4 -rn >$T/bd/groups
	for g in "read back" "count the changes" "the switch" "read the slot" "the sampler"; do
		grep -q "^| $g" $T/bd/groups ||
			{ echo "bench: no instructions found for \"$g\" at a boundary" >&2; exit 1; }
	done
	cat $T/bd/groups
	awk -F'|' '{ t += $4 } END { printf "\nIn all %.0f a boundary.\n", t }' $T/bd/groups
	echo
	rules
}

# The numbers of CPU 0's JSON object at thresholds $1: all, the standard
# errors', the bounds of the mean's.
json_numbers() {
	./lattop --simulate haswell --thresholds $1 -b -n 2 -d 0.05 --format json 2>/dev/null |
		jq -s 'last | .cpus[0] | ([.. | numbers] | length),
		       ([.. | objects | to_entries[] | select(.key | test("stderr$")) | .value | .. | numbers] | length),
		       ([.. | objects | to_entries[] | select(.key | test("^mean_cycles_(min|max)$")) | .value | numbers] | length)' |
		tr '\n' ' '
}

# What the default plan's instructions buy, rule by rule: the twin slots as
# the difference of the last two rows above; the rest from the run without
# them (one thread a core), each function's own instructions, and the JSON's
# numbers at the marginal cost of one (the output column's growth over the
# numbers the thresholds add).
rules() {
	full=8_16_32_64_128_256_512-2 one=8_16_32_64_128_256_512-1 lo=8-2
	set -- $(json_numbers 8) $(json_numbers 8,16,32,64,128,256,512)
	n_lo=$1 n_hi=$4 n_se=$5 n_bd=$6
	[ -n "$n_bd" ] && [ "$n_hi" -gt "$n_lo" ] ||
		{ echo "bench: the JSON of CPU 0 could not be counted" >&2; exit 1; }
	echo "### What the default plan's instructions buy, by the rule that sets them (haswell, 64 CPUs)"
	echo
	echo "| rule | measured as | instructions per CPU per tick |"
	echo "|---|---|---|"
	awk -v q="'" -v n_lo=$n_lo -v n_hi=$n_hi -v n_se=$n_se -v n_bd=$n_bd -v slots=$(cat $T/bd/slots.$one) \
	    -v sw="$W_SWITCH" -v sa="$W_SAMPLER" -v fr="$W_FREEZE" -v bk="$W_BACK" -v rd="$W_READ" \
	    -v al="$W_ALLOW" '
	FNR == 1 { run++ }
	{ v[run, $2] += $3; all[run] += $3; if ($1 == "output") out[run] += $3 }
	END {
		# run 1: the default plan, 2: one thread a core, 3: one threshold
		per_num = (out[1] - out[3]) / (n_hi - n_lo)
		# The functions of each rule, every one of which must have run: a
		# function renamed or gone stops the bench instead of dropping out.
		fns["back"] = bk " pmu_check_owned pmu_check_siblings"
		fns["freeze"] = fr " pmu_hw_frozen pmu_hw_stopped"
		fns["se"] = "metrics_share_se metrics_stderr"
		fns["bounds"] = "metrics_mean_bounds"
		fns["tagged"] = sw " " rd " " al " " sa
		for (k in fns) {
			n = split(fns[k], f, " ")
			for (i = 1; i <= n; i++) {
				if (v[2, f[i]] <= 0) {
					printf "bench: %s (rule %s) ran no instructions\n", f[i], k > "/dev/stderr"
					exit 1
				}
				r[k] += v[2, f[i]]
			}
			how[k] = fns[k]
			gsub(/ /, ", ", how[k])
		}
		r["twin"] = all[1] - all[2]
		how["twin"] = "the default plan less one thread a core"
		r["se"] += n_se * per_num
		how["se"] = how["se"] sprintf(", and %d JSON numbers at %.0f", n_se, per_num)
		r["bounds"] += n_bd * per_num
		how["bounds"] = how["bounds"] sprintf(", and %d JSON numbers", n_bd)
		r["tagged"] /= slots
		how["tagged"] = sprintf("one of the %d boundaries: %s", slots, how["tagged"])
		what["twin"] = "the HT erratum" q "s twin slots (HSD29, section 1)"
		what["back"] = "read back what another user can change: the selects and shared registers a switch overwrites, the owners check"
		what["freeze"] = "freeze when three or more counters re-baseline, after the legacy look; another agent" q "s freeze looked for"
		what["se"] = "a standard error for every estimate"
		what["bounds"] = "bounds of the mean"
		what["tagged"] = "the tagged-loads slot, the base of every share"
		n = split("twin back freeze se bounds tagged", order, " ")
		for (i = 1; i <= n; i++) {
			k = order[i]
			if (r[k] <= 0) { printf "bench: the rule %s measured nothing\n", k > "/dev/stderr"; exit 1 }
			printf "| %s | %s | %.0f |\n", what[k], how[k], r[k]
		}
		t = 0; for (k in r) t += r[k]
		printf "\nThe rules: %.0f of the default plan" q "s %.0f; without them %.0f.\n", t, all[1], all[1] - t
	}' $T/bd/f.$full $T/bd/f.$one $T/bd/f.$lo || exit 1
	echo
}

# ---- 6. The perf backend ----
# What it asks of the kernel: this kernel's cost of each call (software
# events: this machine has no PMU), the calls per CPU per interval of every
# family on the simulated kernel (counted by a device that forwards them),
# and lattop's own instructions and memory per tick, as section 2.
perf_() {
	echo "### This kernel's cost of one call (cpu-clock events on cpu 0, CPU time, median of $REPS)"
	echo
	echo "| perf_event_open + close | read of a group of two, with times | IOC_DISABLE + IOC_ENABLE | the read from another CPU |"
	echo "|---|---|---|---|"
	./bench/perf_bench cost $REPS || exit 1
	echo
	thr=$(./lattop --simulate haswell --once -d 0.05 --format json 2>/dev/null |
	      jq -r '.total.load_latency.thresholds | join(",")')
	echo "### Device calls per logical CPU per interval (8 simulated CPUs, thresholds $thr)"
	echo
	echo "| microarch | CPUs | slots | rotation by | reads | ioctls | events held open |"
	echo "|---|---|---|---|---|---|---|"
	for u in $(./lattop --list-uarchs --format json | jq -r '.[].name'); do
		# A hybrid part: each core type's plan on its own PMU, its slots
		# per type.  Any failure stops the bench.
		./bench/perf_bench calls $u 8 $thr 5 || exit 1
		# A row for each other model of the family the simulator has
		# (Arrow Lake-S and -H beside -U): exit 3, no such part, no row.
		for m in $(family_dumps $u | cut -d' ' -f2); do
			./bench/perf_bench calls $u:$(printf '0x%X' $m) 8 $thr 5 2>$T/pberr
			case $? in 0|3) ;; *) cat $T/pberr >&2; exit 1 ;; esac
		done
	done
	echo
	# Every simulated CPU rotates every 4 ms (the sampling events), which the
	# simulated kernel steps one by one: past 64 CPUs under callgrind its
	# machine runs far slower than the clock (sim_kernel.c, sk_time).
	cpu perf "8 64"
}

# ---- 5. Recordings ----
# Bytes of a recording (--record) against the same snapshots as --format json,
# and the instructions recording adds per CPU per tick (callgrind, 11 - 1 ticks).
rec_once() {   # CPUS PROFILE -> "json_bytes record_bytes"
	rm -f $T/nb/r.lrec
	$NB ./lattop --simulate haswell --sim-profile $T/nb/$2 -b -n 30 -d 0.05 --format json \
		--record $T/nb/r.lrec >$T/nb/r.json 2>/dev/null
	echo "$(wc -c <$T/nb/r.json) $(wc -c <$T/nb/r.lrec)"
}

record() {
	mkdir -p $T/nb && chown nobody $T/nb
	echo "### Recordings: bytes against --format json (haswell, 30 snapshots, -d 0.05; median of $REPS)"
	echo
	echo "| CPUs | profile | json bytes/snapshot | recording bytes/snapshot | ratio | instr/CPU/tick added |"
	echo "|---|---|---|---|---|---|"
	for n in 8 64 256 1024; do
		for prof in builtin truth; do
			if [ $prof = truth ]; then
				sed "s/^cpus = .*/cpus = $n/" tests/profiles/truth.prof >$T/nb/truth
			else
				printf 'cpus = %d\n' $n >$T/nb/builtin
			fi
			: >$T/j; : >$T/r
			for rep in $(seq $REPS); do
				set -- $(rec_once $n $prof)
				echo $1 >>$T/j
				echo $2 >>$T/r
			done
			j=$(median <$T/j) r=$(median <$T/r)
			add=-
			if [ $n -le 256 ] && [ $prof = builtin ]; then
				for rec in "" "--record $T/nb/cg.lrec"; do
					for k in 1 11; do
						rm -f $T/nb/cg.lrec
						$NB valgrind --tool=callgrind --vgdb=no --callgrind-out-file=$T/nb/cg.$k \
							./lattop --simulate haswell --sim-profile $T/nb/builtin -b -n $k \
							-d 0.05 --format json $rec >/dev/null 2>&1
						callgrind_annotate $T/nb/cg.$k 2>/dev/null |
							awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' >$T/t.$k
					done
					echo $(($(cat $T/t.11) - $(cat $T/t.1))) >$T/d"${rec:+r}"
				done
				add=$(echo "$(cat $T/d) $(cat $T/dr) $n" | awk '{ printf "%.0f", ($2 - $1) / 10 / $3 }')
			fi
			echo "$n $prof $j $r $add" | awk '{ printf "| %d | %s | %.0f | %.0f | %.3f | %s |\n",
				$1, $2, $3 / 30, $4 / 30, $4 / $3, $5 }'
		done
	done
	echo
}

# ---- 3. The terminal ----
term_one() {   # NAME GEOMETRY(WxH) COMMAND REP -> "bytes_per_refresh cpu_percent"
	w=${2%x*} h=${2#*x}
	# A tmux server of its own per window: a new session on the socket of
	# a server kill-server has not yet ended joins that server and dies with
	# it ("server exited unexpectedly"), and the window measures nothing.
	TSOCK=lattop-bench-$$-$1-$2-$4
	# exec: the pane's process is the program itself, not a shell around it.
	tmux -L $TSOCK -f /dev/null new-session -d -s b -x $w -y $h "exec $3"
	sleep 3                                  # the first full paint is not steady state
	pid=$(tmux -L $TSOCK list-panes -t b -F '#{pane_pid}')
	: >$T/pipe
	tmux -L $TSOCK pipe-pane -t b -o "cat >>$T/pipe"
	# CPU time in ns (schedstat), not in 10 ms ticks.
	t0=$(awk '{ print $1 }' /proc/$pid/schedstat)
	sleep 10
	t1=$(awk '{ print $1 }' /proc/$pid/schedstat)
	tmux -L $TSOCK pipe-pane -t b
	tmux -L $TSOCK kill-server 2>/dev/null
	rm -f /tmp/tmux-$(id -u)/$TSOCK
	# A program gone before the window ended measured nothing: said, and
	# the caller stops.
	[ -n "$t0" ] && [ -n "$t1" ] || { echo "bench: $1 at $2 ended before its window did" >&2; return 1; }
	echo "$(wc -c <$T/pipe) $t0 $t1" | awk '{ printf "%.0f %.3f\n", $1 / 10, ($3 - $2) / 1e9 / 10 * 100 }'
}

term() {
	echo "### The screen: bytes per steady refresh and CPU share at a 1 s interval (10 s windows, median of 3)"
	echo
	echo "| program | 80x24 bytes/refresh | 80x24 CPU | 200x50 bytes/refresh | 200x50 CPU |"
	echo "|---|---|---|---|---|"
	export TERM=xterm-256color LANG=C.UTF-8
	for prog in "lattop:./lattop --simulate haswell -d 1" "top:top -d 1" "htop:htop -d 10"; do
		name=${prog%%:*} cmd=${prog#*:}
		command -v ${cmd%% *} >/dev/null 2>&1 || [ -x "${cmd%% *}" ] || { echo "| $name | - | - | - | - |"; continue; }
		row="| $name"
		for g in 80x24 200x50; do
			: >$T/b; : >$T/u
			for rep in 1 2 3; do
				set -- $(term_one $name $g "$cmd" $rep)
				[ $# -eq 2 ] || exit 1
				echo $1 >>$T/b
				echo $2 >>$T/u
			done
			row="$row | $(median <$T/b) | $(median <$T/u)%"
		done
		echo "$row |"
	done
	echo
}

# ---- 4. The Prometheus exposition ----
# CPU time (ns) of lattop's threads other than the main one: the HTTP server's.
http_ns() {
	for t in /proc/$1/task/*; do
		[ "${t##*/}" = "$1" ] || awk '{ print $1 }' $t/schedstat
	done | awk '{ s += $1 } END { print s + 0 }'
}

export_() {
	echo "### The exposition per interval (bench/export_bench, CPU time, median of $REPS)"
	echo
	echo "| CPUs | add an interval | render text | render OpenMetrics | render both (each interval) | text bytes | OpenMetrics bytes | bytes/CPU |"
	echo "|---|---|---|---|---|---|---|---|"
	for n in 8 256 1024; do
		./bench/export_bench $n $REPS
	done
	echo
	K=50
	echo "### Per scrape: CPU time of lattop's HTTP threads over $K scrapes (curl, text format; median of $REPS)"
	echo
	echo "| CPUs | bytes per scrape | HTTP CPU per scrape | add and render, per interval | lattop's CPU per scrape at one scrape per interval |"
	echo "|---|---|---|---|---|"
	for n in 8 256 1024; do
		printf 'cpus = %d\n' $n >$T/p
		: >$T/err
		./lattop --simulate haswell --sim-profile $T/p -d 2 --listen 127.0.0.1:0 </dev/null \
			>/dev/null 2>$T/err &
		pid=$!
		i=0
		while ! grep -q serving $T/err && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
		url=$(sed -n 's|^lattop: serving \(http://.*\)$|\1|p' $T/err)
		i=0
		while ! curl -sf $url 2>/dev/null | grep -q '^lattop_up 1' && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
		: >$T/h
		for rep in $(seq $REPS); do
			a=$(http_ns $pid)
			for k in $(seq $K); do
				curl -sf -o /dev/null $url
			done
			b=$(http_ns $pid)
			echo "$a $b $K" | awk '{ print ($2 - $1) / $3 / 1000 }' >>$T/h
		done
		bytes=$(curl -sf $url | wc -c)
		kill $pid
		wait $pid
		h=$(median <$T/h)
		# The interval's work: add it (field 3) and render both formats (field 6).
		set -- $(./bench/export_bench $n $REPS | awk -F'|' '{ gsub(/[^0-9.]/, "", $3); gsub(/[^0-9.]/, "", $6); print $3, $6 }')
		echo "$n $bytes $h $1 $2" | awk '{ both = $4 + $5;
			printf "| %d | %d | %.1f µs | %.1f µs | %.2f ms |\n", $1, $2, $3, both, (both + $3) / 1000 }'
	done
	echo
}

echo "## lattop benchmarks ($(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r))"
echo

# ---- 7. the contended lines ----
# Instructions of lattop's part only (the ring's reader, the table, the
# frame: --toggle-collect), less a run of no sample: the setup.
sharing_ir() {   # SAMPLES LINES -> instructions
	valgrind --tool=callgrind --vgdb=no --callgrind-out-file=$T/cg.sh --toggle-collect=sharing_sampler_drain \
		--toggle-collect=sharing_sampler_end ./bench/sharing_bench "$1" "$2" >$T/sh.out 2>/dev/null
	callgrind_annotate $T/cg.sh 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}

sharing() {
	echo "### The contended lines: per sample, ring buffer to frame (bench/sharing_bench, callgrind)"
	echo
	echo "| samples an interval | distinct lines | instructions per sample | resident KiB | lost by lattop |"
	echo "|---|---|---|---|---|"
	for l in 100 10000 1000000; do
		base=$(sharing_ir 0 $l)
		for n in 10000 100000 1000000; do
			ir=$(sharing_ir $n $l)
			set -- $(cat $T/sh.out)
			rss=$(./bench/sharing_bench $n $l | awk '{ print $4 }')
			echo "| $n | $l | $(awk -v a="$ir" -v b="$base" -v n=$n 'BEGIN { printf "%.0f", (a - b) / n }') | $rss | $2 |"
		done
	done
	echo
}

for s in $sections; do
	case $s in
	export) export_ ;;
	perf) perf_ ;;
	*) $s ;;
	esac
done
