#!/bin/sh
# e2e_cli.sh: the command line.  Bad input gets a one-line error naming
# the option and the value, exit 2, and writes no register; --detect,
# --list-events and --list-uarchs print the documented JSON; a CPU lattop
# cannot measure is named, with the reason and the simulator as the way to
# see it work.
cd "$(dirname "$0")/.." && . tests/lib.sh

HSW=tests/dumps/haswell_core-i7-4500u.raw
M=$LIB_TMP/m
mounted=0
if have_fuse && msrfs_mount $M --simulate haswell; then
	mounted=1
fi

# bad NAME WORD ARGS...: exit 2, one line naming WORD, then the usage hint,
# and (when the stand-in is mounted) nothing written.
bad() {
	name=$1 word=$2
	shift 2
	[ $mounted -eq 1 ] && msrfs_ctl $M log-reset
	./lattop "$@" >$LIB_TMP/out 2>$LIB_TMP/err
	rc=$?
	lines=$(wc -l <$LIB_TMP/err)
	if [ $rc -eq 2 ] && [ "$lines" -eq 2 ] && head -n 1 $LIB_TMP/err | grep -qF -- "$word" &&
	   grep -q "^Try 'lattop --help'" $LIB_TMP/err && [ ! -s $LIB_TMP/out ]; then
		ok "bad input: $name"
	else
		not_ok "bad input: $name"
		diag "exit $rc, stderr: $(cat $LIB_TMP/err)"
	fi
	if [ $mounted -eq 1 ]; then
		is "bad input: $name: no register written" "$(grep -c '^W ' $M/log)" 0
	fi
}

mkdir -p $LIB_TMP/state && chmod 700 $LIB_TMP/state
D="--state-dir $LIB_TMP/state --msr-dir $M --cpuid-file $HSW --once"
bad "interval zero" "-d '0'" $D -d 0
bad "interval negative" "-d '-1'" $D -d -1
bad "interval not a number" "-d 'x'" $D -d x
bad "interval absurdly large" "-d '1e9'" $D -d 1e9
bad "interval NaN" "-d 'nan'" $D -d nan
bad "iterations zero" "-n '0'" $D -n 0
bad "iterations garbage" "-n '3x'" $D -n 3x
bad "cpu list reversed" "-c '3-1'" $D -c 3-1
bad "cpu list garbage" "-c 'a'" $D -c a
bad "cpu list out of range" "-c '99'" $D -c 99
bad "cpu list trailing comma" "-c '1,'" $D -c 1,
bad "threshold below 3" "--thresholds '2'" $D --thresholds 2
bad "threshold above 65535" "--thresholds '65536'" $D --thresholds 65536
bad "threshold not a number" "--thresholds '8,x'" $D --thresholds 8,x
bad "threshold repeated" "--thresholds '8,8'" $D --thresholds 8,8
bad "17 thresholds" "at most 16" $D --thresholds 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
bad "format unknown" "--format 'xml'" $D --format xml
bad "unknown option" "--bogus" $D --bogus
bad "--backend unknown" "must be auto, msr or perf" $D --backend papi
bad "--cgroup without --backend perf" "needs --backend perf" $D --cgroup /sys/fs/cgroup
bad "--msr-dir with --backend perf" "is the msr backend's device: not with --backend perf" --backend perf --msr-dir /tmp --once
bad "--backend with --detect" "--detect takes only" --detect --backend perf --cpuid-file $HSW
bad "missing value" "--format" $D --format
bad "stray argument" "'extra'" $D extra
bad "--msr-dir not a directory" "--msr-dir /nonexistent" --msr-dir /nonexistent --cpuid-file $HSW --once
bad "--cpuid-file missing" "/nonexistent" --msr-dir $M --cpuid-file /nonexistent --once
bad "--cpuid-file garbage" "bad_garbage.raw" --msr-dir $M --cpuid-file tests/dumps/bad_garbage.raw --once
bad "--simulate unknown" "--simulate 'no-such-uarch'" --simulate no-such-uarch --once
bad "--sim-profile without --simulate" "--sim-profile" $D --sim-profile tests/profiles/truth.prof
bad "--sim-profile unreadable" "/nonexistent" --simulate haswell --sim-profile /nonexistent --once
echo "bogus_key = 1" >$LIB_TMP/bad.prof
bad "--sim-profile with an unknown key" "bad.prof:1: bogus_key" --simulate haswell --sim-profile $LIB_TMP/bad.prof --once
bad "two modes" "exclude each other" $D -b
bad "--detect --format csv" "--format 'csv'" --detect --format csv
bad "--list-uarchs --format csv" "--format 'csv'" --list-uarchs --format csv
bad "--list-uarchs --simulate" "--simulate 'haswell'" --list-uarchs --simulate haswell
bad "--list-uarchs --cpuid-file" "--cpuid-file" --list-uarchs --cpuid-file $HSW
bad "--list-uarchs --detect" "exclude each other" --list-uarchs --detect
bad "--doctor --format csv" "--format 'csv'" --doctor --format csv
bad "--once -n 3" "-n '3'" $D -n 3
bad "--detect -c 0" "-c '0'" --detect -c 0 --cpuid-file $HSW
bad "--detect -d 2" "-d '2'" --detect -d 2 --cpuid-file $HSW
bad "--list-events --force" "--force" --list-events --force --cpuid-file $HSW
bad "--doctor --simulate" "--simulate 'haswell'" --doctor --simulate haswell
bad "--restore -c 0" "-c '0'" --restore -c 0 --state-dir $LIB_TMP/state
bad "interval in hex" "-d '0x10'" $D -d 0x10
bad "interval with an exponent" "-d '1e1'" $D -d 1e1
bad "iterations too large" "too large" $D -b -n 99999999999999999999
bad "a CPU number too large" "too large" $D -c 99999999999999999999
bad "a threshold too large" "too large" $D --thresholds 99999999999999999999
bad "--show an unknown column" "no column 'bogus'" $D --show loads,bogus
bad "--hide an unknown column" "no column 'Loads/min'" $D --hide Loads/min
bad "--show an empty list" "--show" $D --show ''
bad "--hide a trailing comma" "--hide 'hit,'" $D --hide hit,
bad "--detect --show" "--show 'loads'" --detect --show loads --cpuid-file $HSW
bad "--hide with JSON, which keeps every field" "JSON keeps every field" \
	$D --format json --hide cpu,hitm,above
bad "--show with JSON, which keeps every field" "JSON keeps every field" $D --format json --show ipc
bad "--hide a screen-only column in csv" "hitm_share has no column in csv" \
	$D --format csv --hide hitm_share
[ $mounted -eq 1 ] || skip "no FUSE here ($LIB_WHY): the no-register-written checks did not run"
[ $mounted -eq 1 ] && msrfs_umount $M

# --detect: the stable JSON keys.
./lattop --detect --format json --cpuid-file $HSW >$LIB_TMP/d.json
is "--detect json: exit 0" "$?" 0
is "--detect json: keys" "$(jq -c 'keys' $LIB_TMP/d.json)" \
	'["brand","family","hypervisor","microarch","model","pmu","pmu_table","stepping","supported","vendor"]'
is "--detect json: values" "$(jq -c '[.family, .model, .microarch, .pmu_table, .supported, .pmu]' $LIB_TMP/d.json)" \
	'[6,69,"haswell","haswell",true,{"version":3,"gp_counters":4,"gp_width":48,"fixed_counters":3,"fixed_width":48}]'
./lattop --detect --format json --cpuid-file tests/dumps/constructed_haswell-2gp.raw >$LIB_TMP/d.json
is "--detect json: an unsupported CPU has a reason" \
	"$(jq -c '[.supported, (.reason | test("2 general-purpose counters"))]' $LIB_TMP/d.json)" '[false,true]'

# A CPU that cannot be measured: named, with the reason and the simulator.
./lattop --cpuid-file tests/dumps/constructed_haswell-hypervisor-v0.raw --once >$LIB_TMP/out 2>$LIB_TMP/err
is "hidden PMU: exit 1" "$?" 1
check "hidden PMU: says why and how to see it work" \
	sh -c "grep -q 'hypervisor' $LIB_TMP/err && grep -q 'lattop --simulate haswell' $LIB_TMP/err"

# --list-uarchs: the supported microarchitectures, from the tables.  The
# loops below take their names from it.
./lattop --list-uarchs --format json >$LIB_TMP/uarchs.json
is "--list-uarchs json: exit 0" "$?" 0
UARCHS=$(jq -r '.[].name' $LIB_TMP/uarchs.json)
check "--list-uarchs json: an array of several" test "$(jq 'if type == "array" then length else 0 end' $LIB_TMP/uarchs.json)" -gt 1
is "--list-uarchs json: keys" "$(jq -c '[.[] | keys] | unique' $LIB_TMP/uarchs.json)" \
	'[["core_types","flags","leaf_0xa","metrics","models","name","offcore_msrs","offcore_scope","pmu_table","pretty"]]'
is "--list-uarchs json: the hybrids' core types" \
	"$(jq -c '[.[] | select(.core_types != []) | [.name, [.core_types[] | .type + ":" + .microarch]]]' $LIB_TMP/uarchs.json)" \
	'[["alderlake",["core:goldencove","atom:gracemont"]],["raptorlake",["core:raptorcove","atom:gracemont","core:goldencove"]],["meteorlake",["core:redwoodcove","atom:crestmont"]],["arrowlake",["core:redwoodcove","atom:crestmont","core:lioncove","atom:skymont","atom:crestmont-lpe"]],["lunarlake",["core:lioncove","atom:skymont"]]]'
# Arrow Lake's core types: each says its models (06_B5 Redwood Cove + Crestmont, C5/C6 Lion Cove + Skymont).
is "--list-uarchs json: Arrow Lake's core types, on which models, with a table or not" \
	"$(jq -c '[.[] | select(.name == "arrowlake") | .core_types[] | [.microarch, (.models | join(" ")), .pmu_table != null]]' $LIB_TMP/uarchs.json)" \
	'[["redwoodcove","06_B5",true],["crestmont","06_B5",true],["lioncove","06_C5 06_C6",true],["skymont","06_C5 06_C6",true],["crestmont-lpe","06_C5",true]]'
check "--list-uarchs text: a core type line names its models" \
	sh -c "./lattop --list-uarchs | grep -q '^# core type core: lioncove (Lion Cove), models 06_C5 06_C6: lioncove table$'"
is "--list-uarchs json: model keys" "$(jq -c '[.[].models[] | keys] | unique' $LIB_TMP/uarchs.json)" \
	'[["family","flags","id","model","source","vendor"]]'
is "--list-uarchs json: leaf 0xA keys" "$(jq -c '[.[].leaf_0xa | keys] | unique' $LIB_TMP/uarchs.json)" \
	'[["gp_width","min_fixed_counters","min_gp_counters","min_version"]]'
is "--list-uarchs json: metric keys" "$(jq -c '[.[].metrics[] | keys] | unique' $LIB_TMP/uarchs.json)" \
	'[["measured","metric","models","needs","packages","reason","scope"]]'
is "--list-uarchs json: every metric, for every uarch, as --list-events names them" \
	"$(jq -c '[.[] | [.metrics[].metric] | length] | unique' $LIB_TMP/uarchs.json)" \
	"[$(./lattop --list-events --simulate haswell --format json | jq '[.events[].metric] + (.unsupported // {} | keys) | unique | length')]"
is "--list-uarchs json: a metric not measured has a reason, one measured none" \
	"$(jq '[.[].metrics[] | select(.measured == (.reason != null))] | length' $LIB_TMP/uarchs.json)" 0
is "--list-uarchs json: a metric needing a model flag names the models with it" \
	"$(jq '[.[] | . as $u | .metrics[] | select(.needs != []) | . as $m |
		select([$u.models[] | select(.flags as $f | $m.needs - $f == []) | .id] != $m.models)] | length' $LIB_TMP/uarchs.json)" 0
is "--list-uarchs json: Haswell's remote HITM needs remote_events (06_3F) and 2 packages" \
	"$(jq -c '.[] | select(.name == "haswell") | .metrics[] | select(.metric == "snoop_remote_hitm") | [.needs, .models, .packages]' $LIB_TMP/uarchs.json)" \
	'[["remote_events"],["06_3F"],2]'
# --list-events of a dump plans for the machine of its model: a server part
# has two packages (its remote events planned), a client part one, an Atom
# no second thread.
is "--list-events: a server dump plans two packages and its remote events" \
	"$(./lattop --list-events --cpuid-file tests/dumps/ivybridge_xeon-e5-2697v2.raw --format json |
	   jq -c '[.machine.packages, ([.events[].metric] | index("snoop_remote_hitm") != null)]')" '[2,true]'
is "--list-events: a client dump plans one package, two threads a core" \
	"$(./lattop --list-events --cpuid-file tests/dumps/haswell_core-i7-4500u.raw --format json |
	   jq -c '[.machine.packages, .machine.threads_per_core, .machine.twin_slots]')" '[1,2,true]'
is "--list-events: an Atom dump plans one thread a core" \
	"$(./lattop --list-events --cpuid-file tests/dumps/silvermont_atom-z3740.raw --format json |
	   jq -c '.machine.threads_per_core')" 1
./lattop --list-uarchs >$LIB_TMP/uarchs.txt
is "--list-uarchs text: exit 0" "$?" 0
is "--list-uarchs text: one block per uarch, in the order of the JSON" \
	"$(sed -n 's/^# \([a-z0-9-]*\) (.*): .* table$/\1/p' $LIB_TMP/uarchs.txt)" "$UARCHS"
is "--list-uarchs text: the models of the JSON" \
	"$(sed -n 's/^# models: //p' $LIB_TMP/uarchs.txt)" \
	"$(jq -r '.[] | [.models[] | .id + (.flags | map("+" + .) | join(""))] | join(" ")' $LIB_TMP/uarchs.json)"
is "--list-uarchs text: measured yes/no as the JSON" \
	"$(awk '/^# /{next} $1 != "metric" && NF { print $1, $2 }' $LIB_TMP/uarchs.txt)" \
	"$(jq -r '.[] | (.metrics, (.core_types[] | .metrics // empty))[] | .metric + " " + (if .measured then "yes" else "no" end)' $LIB_TMP/uarchs.json)"
is "--list-uarchs text: the columns stay in line with the header" "$(awk '
	/^#/ || !NF { next }
	$1 == "metric" { h2 = index($0, "measured"); h3 = index($0, "detail"); next }
	{ if (substr($0, h2 - 1, 1) != " " || substr($0, h2, 1) == " " || substr($0, h3 - 1, 1) != " " ||
	      substr($0, h3, 1) == " ") print "misaligned: " $0 }' $LIB_TMP/uarchs.txt)" ""
# What --list-uarchs says agrees with the simulator and with --detect.
for u in $UARCHS; do
	./lattop --detect --simulate $u --format json >$LIB_TMP/d.json
	is "$u: the simulator is detected as $u, supported" "$(jq -c '[.microarch, .supported]' $LIB_TMP/d.json)" \
		"[\"$u\",true]"
	is "$u: its model is one --list-uarchs lists, its leaf 0xA what it asks" \
		"$(jq -c --slurpfile l $LIB_TMP/uarchs.json '. as $d | $l[0][] | select(.name == $d.microarch) |
			[([.models[] | select(.model == $d.model)] | length), $d.pmu.version >= .leaf_0xa.min_version,
			 (($d.core_types // [$d.pmu])[0].gp_counters) >= .leaf_0xa.min_gp_counters,
			 $d.pmu.gp_width == .leaf_0xa.gp_width,
			 $d.pmu.fixed_counters >= .leaf_0xa.min_fixed_counters, .pmu_table == $d.pmu_table]' $LIB_TMP/d.json)" \
		'[1,true,true,true,true,true]'
done
# Every supported real dump: its model is one --list-uarchs lists for its microarch.
for f in tests/dumps/*.raw; do
	./lattop --detect --cpuid-file $f --format json >$LIB_TMP/d.json 2>/dev/null || continue
	is "$(basename $f): its model is listed for $(jq -r .microarch $LIB_TMP/d.json)" \
		"$(jq --slurpfile l $LIB_TMP/uarchs.json '. as $d | [$l[0][] | select(.name == $d.microarch) | .models[] |
			select(.model == $d.model)] | length' $LIB_TMP/d.json)" 1
done
# An unknown --simulate name: the error lists every name --list-uarchs prints.
./lattop --simulate no-such-uarch --once 2>$LIB_TMP/err
for u in $UARCHS; do
	grep -q -- "$u" $LIB_TMP/err || not_ok "--simulate unknown: the error names $u"
done
ok "--simulate unknown: the error names every microarchitecture"

# --list-events: every microarchitecture, the documented shape.
for u in $UARCHS; do
	./lattop --list-events --simulate $u --format json >$LIB_TMP/e2.json 2>$LIB_TMP/err
	is "$u --list-events: exit 0" "$?" 0
	# A hybrid part: a listing per core type, its microarchitecture's; the first checked here.
	head -n 1 $LIB_TMP/e2.json >$LIB_TMP/e.json
	mu=$(jq -r --arg u $u '.[] | select(.name == $u) | (.core_types[0].microarch // .name)' $LIB_TMP/uarchs.json)
	is "$u --list-events: a listing per core type" "$(jq -c .microarch $LIB_TMP/e2.json | tr '\n' ' ')" \
		"$(./lattop --detect --simulate $u --format json |
		   jq -c --arg u $u 'if .hybrid then .core_types[].microarch else $u end' | tr '\n' ' ')"
	is "$u --list-events: keys" "$(jq -c '[.microarch, (.events[0] | keys)]' $LIB_TMP/e.json)" \
		"[\"$mu\",[\"counter\",\"ld_lat_threshold\",\"metric\",\"name\",\"offcore_msr\",\"offcore_rsp\",\"pebs_enable\",\"perfevtsel\",\"slots\"]]"
	is "$u --list-events: no PERFEVTSEL with INT (bit 20) or without EN (bit 22)" \
		"$(jq '[.events[] | select(.perfevtsel != null) | .perfevtsel | ltrimstr("0x") | explode |
			reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end)) |
			select((. / 1048576 | floor) % 2 == 1 or (. / 4194304 | floor) % 2 == 0)] | length' $LIB_TMP/e.json)" 0
	case $(jq -r --arg u $u '.[] | select(.name == $u) | .metrics[] | select(.metric == "load_latency") | .measured' \
		$LIB_TMP/uarchs.json) in
	false)
		is "$u --list-events: no load-latency rows, a reason instead" \
			"$(jq '[([.events[] | select(.ld_lat_threshold != null)] | length), (.unsupported.load_latency | length > 0)]' -c $LIB_TMP/e.json)" \
			'[0,true]'
		;;
	*)
		# One per threshold, and 3: every tagged load, the base of the shares;
		# all on one counter PMCk (which one is the table's), with PEBS_EN
		# (bit k) and LL_EN (bit 32 + k) and nothing else.
		is "$u --list-events: one load-latency row per threshold and for 3" \
			"$(jq -c '[.events[] | select(.ld_lat_threshold != null) | .ld_lat_threshold]' $LIB_TMP/e.json)" \
			'[8,16,32,64,128,256,512,3]'
		k=$(jq -r '[.events[] | select(.ld_lat_threshold != null) | .counter] | unique | .[]' $LIB_TMP/e.json)
		# From perfmon version 5 on, PEBS_EN alone: bits 32 and up are the
		# fixed counters' PEBS there (pmu-facts 9.2).
		v=$(jq -r --arg u $u '.[] | select(.name == $u) | .leaf_0xa.min_version' $LIB_TMP/uarchs.json)
		case $k in
		PMC[0-3])
			n=${k#PMC}
			is "$u --list-events: load latency on $k, PEBS_EN+LL_EN of that counter" \
				"$(jq -r '[.events[] | select(.ld_lat_threshold != null) | .pebs_enable] | unique | .[]' $LIB_TMP/e.json)" \
				"$([ "$v" -ge 5 ] && printf '0x%x' $((1 << n)) || printf '0x%x%08x' $((1 << n)) $((1 << n)))"
			;;
		PMC[4-9])
			n=${k#PMC}
			check "$u --list-events: load latency on $k only on a version 5 part" test "$v" -ge 5
			is "$u --list-events: load latency on $k, PEBS_EN alone (version 5)" \
				"$(jq -r '[.events[] | select(.ld_lat_threshold != null) | .pebs_enable] | unique | .[]' $LIB_TMP/e.json)" \
				"$(printf '0x%x' $((1 << n)))"
			;;
		*) not_ok "$u --list-events: load latency on one of PMC0-9 (PEBS), not '$k'" ;;
		esac
		;;
	esac
	# Offcore occupancy through an offcore response (the Atoms): the
	# OUTSTANDING bit, which exists in MSR_OFFCORE_RSP_0 only: bit 38 up to
	# Goldmont Plus (perfmon version 4), bit 63 on Tremont (version 5;
	# pmu-facts 9.5), beside demand data reads (bit 0) alone.
	if [ "$(jq '[.events[] | select(.metric == "offcore_outstanding" and .offcore_msr != null)] | length' $LIB_TMP/e.json)" -gt 0 ]; then
		vv=$(jq -r --arg u $u '.[] | select(.name == $u) | .leaf_0xa.min_version' $LIB_TMP/uarchs.json)
		is "$u --list-events: OUTSTANDING in MSR_OFFCORE_RSP_0" \
			"$(jq -r '.events[] | select(.metric == "offcore_outstanding") | .offcore_msr + " " + .offcore_rsp' $LIB_TMP/e.json)" \
			"0x1a6 $([ "$vv" -ge 5 ] && echo 0x8000000000000001 || echo 0x4000000001)"
	fi
done
# --list-events text: the register values of the JSON, in columns that stay in line.
for u in $UARCHS; do
	./lattop --list-events --simulate $u --format json |
		jq -r '.events[] | .name + " " + (.perfevtsel // "-")' >$LIB_TMP/ej
	./lattop --list-events --simulate $u | awk '!/^#/ && $1 != "event" { print $1, $4 }' >$LIB_TMP/et
	is "$u --list-events text: perfevtsel is the register value of the JSON" \
		"$(cat $LIB_TMP/et)" "$(cat $LIB_TMP/ej)"
	# Each of the first 8 columns starts where its header starts.
	is "$u --list-events text: the columns stay in line with the header" "$(./lattop --list-events --simulate $u |
		awk 'function starts(s, a,  i, n, in_) { n = 0; in_ = 0
			for (i = 1; i <= length(s); i++) { c = substr(s, i, 1)
				if (c != " " && !in_) a[++n] = i; in_ = c != " " }
			return n }
		/^#/ { next }
		$1 == "event" { starts($0, H); next }    # a header per listing (per core type)
		{ starts($0, R); for (k = 1; k <= 8; k++) if (R[k] != H[k]) { print "misaligned: " $0; next } }')" ""
done
./lattop --list-events --cpuid-file tests/dumps/constructed_haswell-2gp.raw >/dev/null 2>$LIB_TMP/err
is "--list-events on an unsupported CPU: exit 1" "$?" 1
# --list-events --backend perf: each event's perf_event_attr is the register
# values of the msr listing in the kernel's fields (pmu-facts 10.1): config
# the event select without USR, OS and EN (0x430000), config1 the offcore
# response or the threshold, precise_ip on the load-latency event alone,
# the fixed counters as the kernel's codes for them.
for u in $UARCHS; do
	# A hybrid part: a listing per core type, each on its own PMU (e2e_families.sh checks them).
	[ "$(jq -r --arg u $u '.[] | select(.name == $u) | .core_types | length' $LIB_TMP/uarchs.json)" = 0 ] ||
		continue
	./lattop --list-events --simulate $u --backend perf --format json >$LIB_TMP/p.json
	is "$u --list-events --backend perf: exit 0" "$?" 0
	is "$u --list-events --backend perf: the backend is named" "$(jq -r .backend $LIB_TMP/p.json)" perf
	is "$u --list-events: the msr listing names its backend, and has no attr" \
		"$(./lattop --list-events --simulate $u --format json | jq -c '[.backend, ([.events[] | select(has("attr"))] | length)]')" \
		'["msr",0]'
	is "$u --list-events --backend perf: every attr agrees with the registers" \
		"$(jq -c 'def hex: ltrimstr("0x") | explode | reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end));
			[.events[] | select(
				.attr.type != 4 or
				(.perfevtsel != null and (.perfevtsel | hex) - 4390912 != (.attr.config | hex)) or
				(.perfevtsel == null and (.attr.config | hex) != ({"FIXED_CTR0": 192, "FIXED_CTR1": 60, "FIXED_CTR2": 768}[.counter])) or
				(.offcore_rsp != null and (.offcore_rsp | hex) != (.attr.config1 | hex)) or
				(.ld_lat_threshold != null and (.ld_lat_threshold != (.attr.config1 | hex) or .attr.precise_ip < 1)) or
				(.ld_lat_threshold == null and .attr.precise_ip != 0) or
				(.ld_lat_threshold == null and .offcore_rsp == null and .attr.config1 != "0x0")) | .name]' $LIB_TMP/p.json)" '[]'
	jq -r '.events[] | .name + " " + .attr.config + " " + .attr.config1' $LIB_TMP/p.json >$LIB_TMP/pj
	./lattop --list-events --simulate $u --backend perf | awk '!/^#/ && $1 != "event" { print $1, $4, $5 }' >$LIB_TMP/pt
	is "$u --list-events --backend perf text: config and config1 as in the JSON" "$(cat $LIB_TMP/pt)" "$(cat $LIB_TMP/pj)"
done

# --detect's exit status says whether lattop can measure: `lattop --detect && ...`.
./lattop --detect --cpuid-file $HSW >/dev/null
is "--detect on a supported CPU: exit 0" "$?" 0
./lattop --detect --cpuid-file tests/dumps/constructed_haswell-2gp.raw >/dev/null
is "--detect on a CPU lattop cannot measure: exit 1" "$?" 1

# --doctor --format json: the checks as one object, for fleets.
./lattop --doctor --format json --cpuid-file $HSW --msr-dir $LIB_TMP/state >$LIB_TMP/doc.json
rc=$?
is "--doctor --format json: keys" "$(jq -c '[keys, (.checks[0] | keys), (.checks | length > 5)]' $LIB_TMP/doc.json)" \
	'[["backends","can_measure","checks"],["backend","detail","fix","name","status"],true]'
is "--doctor --format json: can_measure agrees with the exit status" \
	"$(jq -r '.can_measure' $LIB_TMP/doc.json) $rc" "false 1"
is "--doctor --format json: can_measure is either backend's verdict" \
	"$(jq -c '[.backends.msr, .backends.perf, .can_measure == (.backends.msr or .backends.perf)]' $LIB_TMP/doc.json)" \
	'[false,false,true]'
is "--doctor --format json: each check names the backend it stands in the way of" \
	"$(jq -c '[.checks[] | select(.name == "CPU supported" or .name == "msr driver" or .name == "perf: open files") | .backend]' $LIB_TMP/doc.json)" \
	'["both","msr","perf"]'
is "--doctor --format json: every status is a word of the four" \
	"$(jq -r '[.checks[].status | select(. != "ok" and . != "warn" and . != "fail" and . != "skip")] | length' $LIB_TMP/doc.json)" 0

# Text rows stay in line with the header from CPU and core 1000 on: every
# right-aligned column ends where its header ends.
printf 'cpus = 1010\nthreads_per_core = 1\n' >$LIB_TMP/big.prof
./lattop --simulate haswell --sim-profile $LIB_TMP/big.prof --once -d 0.1 -c 998-1001 >$LIB_TMP/big.txt
is "text: rows in line with the header from CPU and core 1000" "$(awk '
	/^CPU / { for (i = 1; i <= length($0); i++) if (substr($0, i, 1) != " " && (substr($0, i + 1, 1) == " " || i == length($0))) e[++n] = i; next }
	n && /^[0-9a]/ { split($0, f, " +"); for (k = 4; k <= n; k++) if (substr($0, e[k], 1) == " " || substr($0, e[k] + 1, 1) ~ /[^ ]/) { print "misaligned: " $0; next } }' $LIB_TMP/big.txt)" ""
check "text: the rows of CPUs 998-1001 are there" test "$(grep -c '^[0-9]' $LIB_TMP/big.txt)" -eq 4

# --show and --hide: an unknown name is told with every valid one; the
# columns of text and csv follow them, as the man page's COLUMNS names
# them; JSON keeps every field.
./lattop --simulate haswell --show loads,bogus --once >/dev/null 2>$LIB_TMP/err
names=$(sed -n "s/.*the columns: //p" $LIB_TMP/err | head -n 1)
check "--show bogus: the valid names listed" test -n "$names"
mandoc -Tascii -O width=300 man/lattop.1 | col -b >$LIB_TMP/man.txt
rm -f $LIB_TMP/c.lrec
# Two packages: the columns of reads another package served are shown too.
printf 'cpus = 4\npackages = 2\nremote_hit_per_sec = 3e5\nremote_hitm_per_sec = 1e5\n' >$LIB_TMP/c.prof
./lattop --simulate haswell --sim-profile $LIB_TMP/c.prof -b -n 1 -d 0.1 --thresholds 16,128 \
	--format csv --record $LIB_TMP/c.lrec >$LIB_TMP/all.csv
./lattop --replay $LIB_TMP/c.lrec >$LIB_TMP/all.txt
n=0 nocol=0 bad=""
for name in $(echo "$names" | tr ',' ' '); do
	n=$((n + 1))
	# "text H, screen H, csv K:" on the line after the name, in COLUMNS.
	desc=$(awk -v n="$name" '/^COLUMNS/ { f = 1; next } f && /^[A-Z]/ { exit }
		f && $1 == n { $1 = ""; print; exit }' $LIB_TMP/man.txt)
	[ -n "$desc" ] || { bad="$bad $name(not in COLUMNS)"; continue; }
	csv=$(echo "$desc" | sed -n 's/.*csv \([^ :,]*\).*/\1/p')
	case $csv in *.N) csv="${csv%.N}.16,${csv%.N}.128" ;; esac
	text=$(echo "$desc" | sed -n 's/^ *text \([^ :,]*\).*/\1/p' | sed 's/^\(.*\)N$/\116 \1128/')
	# A name the output has no column for is refused, not printed empty.
	for f in csv text; do
		eval "want=\$$f"
		if got=$(./lattop --replay $LIB_TMP/c.lrec --format $f --show $name 2>$LIB_TMP/err); then
			[ -n "$want" ] || bad="$bad $name($f accepted without a column)"
		else
			grep -q "has no column in $f\$" $LIB_TMP/err && [ -z "$want" ] ||
				bad="$bad $name($f refused: $(cat $LIB_TMP/err))"
			continue
		fi
		case $f in
		csv) got=$(echo "$got" | head -n 1) ;;
		text) got=$(echo "$got" | sed -n 2p | tr -s ' ' | sed 's/^ //; s/ $//') ;;
		esac
		[ "$got" = "$want" ] || bad="$bad $name($f '$got' not '$want')"
	done
	[ -n "$csv$text" ] || nocol=$((nocol + 1))
done
is "--show NAME: csv and text headers as COLUMNS says, for each name" "$bad" ""
check "--show NAME: screen-only names tried and refused in csv and text ($nocol)" test $nocol -ge 1
check "--show NAME: every name tried ($n)" test $n -ge 20
# --hide: the full header less those fields, every row as many fields.
./lattop --replay $LIB_TMP/c.lrec --format csv --hide time,hitm,above >$LIB_TMP/h.csv
is "--hide time,hitm,above: the csv header without them" "$(head -n 1 $LIB_TMP/h.csv)" \
	"$(head -n 1 $LIB_TMP/all.csv | tr ',' '\n' | grep -v '^time$\|^snoop.hitm_per_sec$\|above_per_sec' | paste -sd, -)"
is "--hide: every csv row as many fields as the header" \
	"$(awk -F, '{ print NF }' $LIB_TMP/h.csv | sort -u)" "$(head -n 1 $LIB_TMP/h.csv | awk -F, '{ print NF }')"
is "--hide hit,hitm: the text header without Hit/s and HITM/s" \
	"$(./lattop --replay $LIB_TMP/c.lrec --hide hit,hitm | sed -n 2p | tr -s ' ')" \
	"$(sed -n 2p $LIB_TMP/all.txt | tr -s ' ' | sed 's| Hit/s HITM/s||')"
./lattop --replay $LIB_TMP/c.lrec --show cpu,hitm,offlat >$LIB_TMP/s.txt
is "--show cpu,hitm,offlat: three text columns, in the table's order" \
	"$(sed -n 2p $LIB_TMP/s.txt | tr -s ' ')" "CPU HITM/s Lat(cyc)"
# One vocabulary: the headers the outputs print name their columns, in any case.
is "--show CPU,HITM/s,lat(CYC): as --show cpu,hitm,offlat" \
	"$(./lattop --replay $LIB_TMP/c.lrec --show 'CPU,HITM/s,lat(CYC)')" "$(cat $LIB_TMP/s.txt)"
is "--show snoop.hitm_per_sec,>N: the csv and text headers name columns too" \
	"$(./lattop --replay $LIB_TMP/c.lrec --format csv --show 'snoop.hitm_per_sec,>N' | head -n 1)" \
	"$(./lattop --replay $LIB_TMP/c.lrec --format csv --show hitm,above | head -n 1)"
is "text and screen: one header a column (HITM/s, units included)" \
	"$(sed -n 2p $LIB_TMP/all.txt | tr -s ' ' | grep -o 'Hit/s HITM/s RHit/s RHITM/s Reads/s Lat(cyc) Lat(ns)')" \
	"Hit/s HITM/s RHit/s RHITM/s Reads/s Lat(cyc) Lat(ns)"
is "--show cpu,hitm,offlat: each row three cells" "$(sed -n '3,/^total/p' $LIB_TMP/s.txt | awk '{ print NF }' | sort -u)" 3
is "--show and --hide of other columns together: what --show names" \
	"$(./lattop --replay $LIB_TMP/c.lrec --format csv --show cpu,hit,hitm --hide ipc | head -n 1)" \
	"cpu,snoop.hit_per_sec,snoop.hitm_per_sec"
./lattop --simulate haswell --once -d 0.1 --format csv --show cpu,hitm >$LIB_TMP/live.csv
is "--show on a live run: the csv header" "$(head -n 1 $LIB_TMP/live.csv)" "cpu,snoop.hitm_per_sec"

# A write that fails (a full disk here) is told with its cause, exit 1, in every mode.
for m in "--detect --cpuid-file $HSW" "--list-events --cpuid-file $HSW" "--list-uarchs" "--help" "--version" \
	"--doctor --cpuid-file $HSW --msr-dir $LIB_TMP" "--once --simulate haswell -d 0.1" \
	"-b -n 2 --simulate haswell -d 0.1 --format json"; do
	./lattop $m >/dev/full 2>$LIB_TMP/err
	rc=$?
	if [ $rc -eq 1 ] && grep -q '^lattop: writing .*: No space left on device$' $LIB_TMP/err; then
		ok "lattop $m >/dev/full: exit 1 and the cause"
	else
		not_ok "lattop $m >/dev/full: exit 1 and the cause"
		diag "exit $rc, stderr: $(cat $LIB_TMP/err)"
	fi
done
# ---- names as the outputs print them, sizes in either case, ranges said ----
mounted=0       # the stand-in is gone by now
for u in Haswell "Sandy Bridge" GOLDMONT-PLUS; do
	./lattop --simulate "$u" --detect >$LIB_TMP/out 2>$LIB_TMP/err
	is "--simulate '$u': the name as --list-uarchs and --detect print it" \
		"$?:$(grep -c '^microarch:' $LIB_TMP/out)" "0:1"
done
./lattop --simulate haswell -n 1 -d 0.05 --record $LIB_TMP/m1.lrec --record-max 1m </dev/null >/dev/null 2>$LIB_TMP/err
is "--record-max 1m: taken as 1M" "$?" 0
bad "interval negative: the range said" "0.05 to 3600 seconds" $D -d -1
bad "a column in --show and --hide" "ipc is named by --show too" --simulate haswell --once --show cpu,ipc --hide ipc
bad "--state-dir with --simulate" "--state-dir '$LIB_TMP/state': not with --simulate" \
	--simulate haswell --once --state-dir $LIB_TMP/state
bad "--force with --simulate" "--force: not with --simulate" --simulate haswell --once --force
bad "--ascii with -b" "--ascii: the screen's option" --simulate haswell -b -n 1 --ascii
bad "--no-color with --once" "--no-color: the screen's option" --simulate haswell --once --no-color
bad "--no-color with --replay --format" "--no-color: the screen's option" \
	--replay $LIB_TMP/m1.lrec --format json --no-color
# A dump of Debian's cpuid tool (cpuid -r) is read too, and refused when a leaf lattop needs is missing.
printf 'CPU 0:\n   0x00000000 0x00: eax=0x0000000d ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n' \
	>$LIB_TMP/cpuid-r.txt
bad "a cpuid -r dump without leaf 1: refused, naming the leaf" "(leaf 0x1, family, model" \
	--cpuid-file $LIB_TMP/cpuid-r.txt --detect
printf 'CPU 0:\n   0x00000000 0x00: eax=0x0000000d ebx=0x756e6547\n' >$LIB_TMP/cpuid-r2.txt
bad "a cpuid -r line cut short: refused, naming the line" "line 2: not a cpuid -r line" \
	--cpuid-file $LIB_TMP/cpuid-r2.txt --detect
# The all-CPU dumps of ../shared/cpuid (read in place): a hybrid's core types and their CPUs.
A=../shared/cpuid/all/alderlake_core-i9-12900k
if [ -r $A.cpuid-r.txt ] && [ -r $A.all.raw ]; then
	for f in $A.cpuid-r.txt $A.all.raw; do
		is "--detect --format json, ${f##*.}: the 12900K's core types and CPUs" \
			"$(./lattop --detect --cpuid-file $f --format json |
			   jq -c '[.hybrid, .supported, [.core_types[] | [.type, .microarch, .pmu_table, (.cpus | first), (.cpus | last)]]]')" \
			'[true,true,[["core","goldencove","sapphirerapids",0,15],["atom","gracemont","gracemont",16,23]]]'
	done
	is "--detect, text: a line per core type" \
		"$(./lattop --detect --cpuid-file $A.cpuid-r.txt | grep -c '^core type:')" 2
	# The part's table is its P-cores': one model name, two kinds of P-core.
	for p in arrowlake_core-ultra-7-265k:lioncove arrowlakeh_core-ultra-9-285h:lioncove \
		 lunarlake_core-ultra-9-288v:lioncove meteorlake_core-ultra-7-155h:sapphirerapids; do
		is "--detect: ${p%%:*}'s table is its P-cores' (${p#*:})" \
			"$(./lattop --detect --cpuid-file ../shared/cpuid/all/${p%%:*}.all.raw --format json |
			   jq -r .pmu_table)/$(./lattop --detect --cpuid-file ../shared/cpuid/all/${p%%:*}.all.raw |
			   sed -n 's/^pmu table: *//p')" "${p#*:}/${p#*:}"
	done
	M=../shared/cpuid/all/meteorlake_core-ultra-7-155h.cpuid-r.txt
	./lattop --detect --cpuid-file $M >$LIB_TMP/mtl.txt
	is "--detect: Meteor Lake is measured, exit 0" "$?" 0
	# Redwood Cove P-cores with the Golden Cove client table, the counters of leaf 0x23.1 (fixed 0xF).
	check "--detect: Meteor Lake's P-cores are Redwood Cove's, with their CPUs" \
		grep -q '^core type:   core: redwoodcove (Redwood Cove), 8 general-purpose counters, 4 fixed, 12 cpus, supported$' $LIB_TMP/mtl.txt
	check "--detect: Meteor Lake's E-cores are Crestmont's, which lattop measures" \
		grep -q '^core type:   atom: crestmont (Crestmont), 8 general-purpose counters, 3 fixed, 10 cpus, supported$' $LIB_TMP/mtl.txt
	./lattop --detect --cpuid-file ../shared/cpuid/all/meteorlake_core-ultra-7-155h.cpuid-r.txt --format json >$LIB_TMP/mtl.json
	is "--detect json: Meteor Lake's core types, their tables and CPUs" \
		"$(jq -c '[.supported, [.core_types[] | [.type, .microarch, .pmu_table, .supported, (.cpus | length)]]]' $LIB_TMP/mtl.json)" \
		'[true,[["core","redwoodcove","sapphirerapids",true,12],["atom","crestmont","crestmont",true,10]]]'
	# Lunar Lake and Arrow Lake-S/H: Lion Cove and Skymont (and Arrow Lake-H's LP-E Crestmont) measured.
	for p in lunarlake_core-ultra-9-288v arrowlake_core-ultra-7-265k arrowlakeh_core-ultra-9-285h; do
		./lattop --detect --cpuid-file ../shared/cpuid/all/$p.cpuid-r.txt --format json >$LIB_TMP/lnc.json
		is "--detect: $p is measured, exit 0" "$?" 0
		is "--detect: $p's P-cores are Lion Cove with leaf 0x23.1's 10 counters, E-cores Skymont" \
			"$(jq -c '[.core_types[] | select(.microarch != "crestmont-lpe") | [.microarch, .pmu_table, .supported]]' $LIB_TMP/lnc.json)" \
			'[["lioncove","lioncove",true],["skymont","skymont",true]]'
	done
	is "--detect: Arrow Lake-H's low-power E-cores are Crestmont with no snoop event (crestmont-lpe)" \
		"$(jq -c '[.core_types[] | select(.microarch == "crestmont-lpe") | [.pmu_table, .cpus]]' $LIB_TMP/lnc.json)" \
		'[["crestmont",[14,15]]]'
	is "--detect json: Arrow Lake-H hybrid, perfmon version 5, three core types (two kinds of atom)" \
		"$(jq -c '[.hybrid, .pmu.version, [.core_types[] | [.type, .native_model]]]' $LIB_TMP/lnc.json)" \
		'[true,5,[["core",3],["atom",3],["atom",2]]]'
	is "--detect json: Arrow Lake-S hybrid, perfmon version 6, two core types" \
		"$(./lattop --detect --cpuid-file ../shared/cpuid/all/arrowlake_core-ultra-7-265k.all.raw --format json |
		   jq -c '[.hybrid, .pmu.version, (.core_types | length)]')" '[true,6,2]'
else
	skip "../shared/cpuid/all is absent"
fi

# A profile with two packages makes the simulator the server part: --detect
# and --list-events see its model and its events for other packages.
printf 'cpus = 8\npackages = 2\n' >$LIB_TMP/2p.prof
is "--detect --sim-profile: two packages are Haswell-EP (06_3F)" \
	"$(./lattop --detect --simulate haswell --sim-profile $LIB_TMP/2p.prof --format json | jq .model)" 63
is "--list-events --sim-profile: the remote HITM event on two packages" \
	"$(./lattop --list-events --simulate haswell --sim-profile $LIB_TMP/2p.prof --format json |
	   jq -r '.events[] | select(.metric == "snoop_remote_hitm") | .perfevtsel')" 0x4310d3
tap_done
