#!/bin/sh
# e2e_msrfs.sh: the msr driver stand-in (tests/msrfs/msrfs) tested through
# tests/tools/msrpeek, which opens and reads as lattop does: 8-byte
# semantics, EIO/ENXIO/EINVAL as the kernel's msr driver returns them,
# counter aliases, every /control command, the /state and /log formats, and
# the simulator backend with its /stats.  TAP on stdout; every test skips
# without FUSE.
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh

PEEK=tests/tools/msrpeek

if ! have_fuse; then
	skip "no FUSE: $LIB_WHY"
	tap_done
	exit 0
fi
for b in "$LIB_MSRFS" "$PEEK"; do
	if [ ! -x "$b" ]; then
		not_ok "$b is built (make tests)"
		tap_done
		exit 1
	fi
done

# peek ARGS...: msrpeek's output, the value or the errno name.
peek() {
	"$PEEK" "$@" 2>&1
}

# ---- the register store ----

M=$LIB_TMP/m
S=$LIB_TMP/store
cat >"$S" <<'EOF'
# CPU REG VALUE [ro]
*   0xc1  0x0
*   0xc2  0x0
*   0x186 0x0
*   0x187 0x0
*   0x10  0x1234 ro        # a read-only register
*   0x345 0x2000 ro
1   0x186 0x5              # overrides the * line for CPU 1
0   0xfffffff8 0xabc
0   0xffffffff 0x77
EOF

if ! msrfs_mount "$M" --cpus 2 --store "$S" --fw-write; then
	not_ok "msrfs mounts a register store"
	tap_done
	exit 1
fi
ok "msrfs mounts a register store"

is "readdir: CPUs and the test files" "$(ls "$M" | tr '\n' ' ')" "0 1 control log state "
is "readdir: a CPU directory" "$(ls "$M/1" | tr '\n' ' ')" \
	"core_id module_id msr physical_package_id "
is "msr files are mode 0600" "$(stat -c %a "$M/0/msr")" "600"
is "topology: core_id = cpu" "$(cat "$M/1/core_id")" "1"
is "topology: package 0, module = core" \
	"$(cat "$M/1/physical_package_id" "$M/1/module_id" | tr '\n' ' ')" "0 1 "

# 8-byte semantics
is "8-byte read at offset = address" "$(peek "$M" 0 0x10)" "0x0000000000001234"
is "a CPU line overrides a * line" "$(peek "$M" 1 0x186)" "0x0000000000000005"
is "the * line applies to other CPUs" "$(peek "$M" 0 0x186)" "0x0000000000000000"
is "4-byte read: EINVAL" "$(peek -n 4 "$M" 0 0x10)" "EINVAL"
is "12-byte read: EINVAL" "$(peek -n 12 "$M" 0 0x10)" "EINVAL"
is "4-byte write: EINVAL" "$(peek -n 4 "$M" 0 0x186 1)" "EINVAL"
is "16-byte read repeats the register" "$(peek -n 16 "$M" 1 0x186)" \
	"0x0000000000000005 0x0000000000000005"
is "a 4-byte write changed nothing" "$(peek "$M" 0 0x186)" "0x0000000000000000"
is "read at 0xfffffff8 reaches the server" "$(peek "$M" 0 0xfffffff8)" "0x0000000000000abc"
is "read at 0xffffffff (last address) is not cut at EOF" \
	"$(peek "$M" 0 0xffffffff)" "0x0000000000000077"

# no page cache: every pread reaches msrfs, on one open file too
exec 3<>"$M/0/msr"
a=$(peek -F 3 0x187)
msrfs_ctl "$M" set 0 0x187 0x5a
is "no cache: a new value is seen by the next pread on the same fd" \
	"$a $(peek -F 3 0x187)" "0x0000000000000000 0x000000000000005a"
exec 3>&-
msrfs_ctl "$M" set 0 0x187 0x0

# adjacent registers
peek "$M" 0 0x186 0x1111111111111111 >/dev/null
peek "$M" 0 0x187 0x2222222222222222 >/dev/null
is "0x186 keeps its value after a write to 0x187" "$(peek "$M" 0 0x186)" "0x1111111111111111"
is "0x187 holds its own value" "$(peek "$M" 0 0x187)" "0x2222222222222222"
is "CPUs are independent" "$(peek "$M" 1 0x187)" "0x0000000000000000"

# EIO
is "missing register: read EIO" "$(peek "$M" 0 0x999)" "EIO"
is "missing register: write EIO" "$(peek "$M" 0 0x999 1)" "EIO"
is "register of another CPU only: EIO" "$(peek "$M" 1 0xfffffff8)" "EIO"
is "read-only register: write EIO" "$(peek "$M" 0 0x10 0x1)" "EIO"
is "read-only register: value unchanged" "$(peek "$M" 0 0x10)" "0x0000000000001234"

# counters: legacy IA32_PMCx sign-extend bit 31, IA32_A_PMCx are full width
peek "$M" 0 0xc1 0x80000000 >/dev/null
is "PMC0 write sign-extends bit 31 to 48 bits" "$(peek "$M" 0 0xc1)" "0x0000ffff80000000"
is "A_PMC0 reads the same storage" "$(peek "$M" 0 0x4c1)" "0x0000ffff80000000"
peek "$M" 0 0xc1 0x123456789 >/dev/null
is "PMC0 write keeps only bits 31:0 (bit 31 clear)" "$(peek "$M" 0 0xc1)" "0x0000000023456789"
peek "$M" 0 0x4c1 0x80000000 >/dev/null
is "A_PMC0 write is not sign-extended" "$(peek "$M" 0 0xc1)" "0x0000000080000000"
peek "$M" 0 0x4c1 0xffff123456789abc >/dev/null
is "A_PMC0 write is masked to the width" "$(peek "$M" 0 0xc1)" "0x0000123456789abc"
is "A_PMC of a PMC not listed: EIO" "$(peek "$M" 0 0x4c3)" "EIO"
is "PMC1 untouched by PMC0 writes" "$(peek "$M" 0 0xc2)" "0x0000000000000000"

# offline / online
msrfs_ctl "$M" set 1 0x187 0x42
exec 3<>"$M/1/msr"
msrfs_ctl "$M" offline 1
is "offline: open fails with ENXIO" "$(peek "$M" 1 0x187)" "ENXIO"
is "offline: an open handle fails with ENXIO" "$(peek -F 3 0x187)" "ENXIO"
is "offline: write on an open handle fails with ENXIO" "$(peek -F 3 0x187 1)" "ENXIO"
is "offline: the CPU leaves readdir" "$(ls "$M" | tr '\n' ' ')" "0 control log state "
check "offline: the CPU leaves /state" sh -c "! grep -q '^1 ' '$M/state'"
is "offline: other CPUs work" "$(peek "$M" 0 0x187)" "0x2222222222222222"
msrfs_ctl "$M" online 1
is "online: the open handle works again" "$(peek -F 3 0x187)" "0x0000000000000042"
exec 3>&-
is "online: registers as they were" "$(peek "$M" 1 0x187)" "0x0000000000000042"
is "online: back in readdir" "$(ls "$M" | tr '\n' ' ')" "0 1 control log state "

# faults
msrfs_ctl "$M" fail-read 0 0x186 EBUSY 2
is "fail-read COUNT: 1st read fails" "$(peek "$M" 0 0x186)" "EBUSY"
is "fail-read COUNT: other registers unaffected" "$(peek "$M" 0 0x187)" "0x2222222222222222"
is "fail-read COUNT: 2nd read fails" "$(peek "$M" 0 0x186)" "EBUSY"
is "fail-read COUNT: 3rd read succeeds" "$(peek "$M" 0 0x186)" "0x1111111111111111"
msrfs_ctl "$M" fail-read '*' '*' EPERM
is "fail-read * *: any CPU, any register" "$(peek "$M" 1 0x10) $(peek "$M" 0 0x187)" "EPERM EPERM"
is "fail-read: writes unaffected" "$(peek "$M" 0 0x187 0x3)" ""
msrfs_ctl "$M" clear-faults
is "clear-faults: reads work again" "$(peek "$M" 0 0x187)" "0x0000000000000003"
msrfs_ctl "$M" fail-write 1 0x186 ENXIO
is "fail-write: the write fails" "$(peek "$M" 1 0x186 0x9)" "ENXIO"
is "fail-write: the register is unchanged" "$(peek "$M" 1 0x186)" "0x0000000000000005"
is "fail-write: same register on another CPU works" "$(peek "$M" 0 0x186 0x9)" ""
is "fail-write: is forever by default" "$(peek "$M" 1 0x186 0x9)" "ENXIO"
msrfs_ctl "$M" clear-faults
msrfs_ctl "$M" fail-nth-write 3 EIO
r1=$(peek "$M" 0 0x186 0x21)
r2=$(peek "$M" 1 0x187 0x22)
r3=$(peek "$M" 0 0x187 0x23)
r4=$(peek "$M" 0 0x186 0x24)
is "fail-nth-write 3: only the 3rd write fails" "$r1,$r2,$r3,$r4" ",,EIO,"
is "fail-nth-write: the failed write changed nothing" "$(peek "$M" 0 0x187)" "0x0000000000000003"
msrfs_ctl "$M" fail-write '*' '*' EIO
msrfs_ctl "$M" fail-read '*' '*' EIO
msrfs_ctl "$M" set '*' 0x10 0x99
msrfs_ctl "$M" clear-faults
is "set: bypasses read-only and faults, on every CPU" \
	"$(peek "$M" 0 0x10) $(peek "$M" 1 0x10)" "0x0000000000000099 0x0000000000000099"
msrfs_ctl "$M" set 0 0x4c1 0xffffffffffff
is "set: a counter is masked to the width" "$(peek "$M" 0 0xc1)" "0x0000ffffffffffff"

for bad in "bogus" "fail-read 0 0x186" "fail-read 0 0x186 ENOTANERRNO" \
	"fail-read 2 0x186 EIO" "fail-write 0 0x186 EIO 0" "fail-nth-write 0 EIO" \
	"offline 7" "offline *" "set 0 0x999 1" "set 0 0x186" "clear-faults now" \
	"online 1 2"; do
	if printf '%s\n' "$bad" 2>/dev/null >"$M/control"; then
		not_ok "control: '$bad' fails with EINVAL"
	else
		ok "control: '$bad' fails with EINVAL"
	fi
done
check "control: lines before a bad one are applied" \
	sh -c "! printf 'set 0 0x186 0x31\nbogus\n' >'$M/control' 2>/dev/null"
is "control: ... and took effect" "$(peek "$M" 0 0x186)" "0x0000000000000031"
check "control: several commands in one write" \
	sh -c "printf 'set 0 0x186 0x32\n\nset 0 0x187 0x33\n' >'$M/control'"
is "control: ... all applied" "$(peek "$M" 0 0x186) $(peek "$M" 0 0x187)" \
	"0x0000000000000032 0x0000000000000033"
check "control: cannot be read" sh -c "! cat '$M/control' 2>/dev/null"
check "state: cannot be written" sh -c "! echo x 2>/dev/null >'$M/state'"

# /log
msrfs_ctl "$M" log-reset
is "log-reset: empty log" "$(cat "$M/log")" "reads 0 writes 0"
peek "$M" 0 0x186 0x1 >/dev/null
peek "$M" 0 0x186 >/dev/null
peek "$M" 1 0x999 >/dev/null
peek "$M" 0 0x10 0x5 >/dev/null
peek -n 4 "$M" 0 0x187 >/dev/null
msrfs_ctl "$M" fail-write 1 0x187 EBUSY 1
peek "$M" 1 0x187 0x7 >/dev/null
msrfs_ctl "$M" set 0 0x187 0x8
msrfs_ctl "$M" offline 1
peek "$M" 1 0x187 >/dev/null
msrfs_ctl "$M" online 1
is "log: W and E lines, then the counts" "$(cat "$M/log")" "W 0 0x186 0x0000000000000001
E 1 0x999 EIO
E 0 0x10 EIO
E 0 0x187 EINVAL
E 1 0x187 EBUSY
E 1 open ENXIO
reads 3 writes 3"
is "log: stat size matches the content" "$(stat -c %s "$M/log")" "$(cat "$M/log" | wc -c)"

# /state
regs_snapshot "$M" "$LIB_TMP/s1"
is "state: format, sorted by CPU then address" "$(cat "$LIB_TMP/s1")" "0 0x10 0x0000000000000099
0 0xc1 0x0000ffffffffffff
0 0xc2 0x0000000000000000
0 0x186 0x0000000000000001
0 0x187 0x0000000000000008
0 0x345 0x0000000000002000
0 0xfffffff8 0x0000000000000abc
0 0xffffffff 0x0000000000000077
1 0x10 0x0000000000000099
1 0xc1 0x0000000000000000
1 0xc2 0x0000000000000000
1 0x186 0x0000000000000005
1 0x187 0x0000000000000022
1 0x345 0x0000000000002000"
peek "$M" 1 0xc2 0x5 >/dev/null
regs_snapshot "$M" "$LIB_TMP/s2"
is "state: two snapshots differ by the one write" \
	"$(diff "$LIB_TMP/s1" "$LIB_TMP/s2" | grep '^[<>]' | tr '\n' ' ')" \
	"< 1 0xc2 0x0000000000000000 > 1 0xc2 0x0000000000000005 "
is "state: reading it is not logged" "$(tail -n 1 "$M/log")" "reads 3 writes 4"

msrfs_umount "$M"
check "umount: the mount is gone" sh -c "! grep -q ' $M ' /proc/mounts"

# ---- store options ----

M2=$LIB_TMP/m2
if msrfs_mount "$M2" --cpus 4 --store "$S" --width 40 --threads-per-core 2; then
	is "--threads-per-core 2: core = cpu % ncores" \
		"$(cat "$M2/0/core_id" "$M2/1/core_id" "$M2/2/core_id" "$M2/3/core_id" | tr '\n' ' ')" \
		"0 1 0 1 "
	is "without --fw-write: no A_PMC" "$(peek "$M2" 0 0x4c1)" "EIO"
	peek "$M2" 3 0xc1 0xfffffff0 >/dev/null
	is "--width 40: PMC sign-extends to 40 bits" "$(peek "$M2" 3 0xc1)" "0x000000fffffffff0"
	msrfs_umount "$M2"
else
	not_ok "msrfs mounts with --width 40 --threads-per-core 2"
fi

printf '0 0x186 0x0\n1 0x4c1 0x0\n' >"$LIB_TMP/bad"
out=$("$LIB_MSRFS" "$LIB_TMP/m3" --cpus 2 --store "$LIB_TMP/bad" -f 2>&1)
is "a bad store line: exit 2 and FILE:LINE" "$? ${out%%: IA32_A_PMCx*}" \
	"2 msrfs: $LIB_TMP/bad:2"
printf '2 0x186 0x0\n' >"$LIB_TMP/bad"
check "a CPU beyond --cpus is refused" sh -c \
	"! '$LIB_MSRFS' '$LIB_TMP/m3' --cpus 2 --store '$LIB_TMP/bad' -f 2>/dev/null"

# killed without unmounting: auto_unmount cleans up
M4=$LIB_TMP/m4
echo '0 0x186 0x0' >"$LIB_TMP/one"
if msrfs_mount "$M4" --cpus 1 --store "$LIB_TMP/one"; then
	kill -KILL "$(msrfs_pid "$M4")"
	i=0
	while lib_mounted "$M4" && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	check "SIGKILL: the mount goes away by itself" sh -c "! grep -q ' $M4 ' /proc/mounts"
	msrfs_umount "$M4"
else
	not_ok "msrfs mounts one CPU"
fi

# ---- the simulator ----

MS=$LIB_TMP/ms
if msrfs_mount "$MS" --simulate haswell; then
	ok "msrfs --simulate haswell mounts"
	n=$(ls "$MS" | grep -c '^[0-9][0-9]*$')
	check "sim: CPUs listed ($n)" test "$n" -ge 1
	check "sim: topology files are numbers" sh -c \
		"! cat '$MS/0/core_id' '$MS/0/physical_package_id' '$MS/0/module_id' | grep -qvx '[0-9][0-9]*'"
	# PMC0: CPU_CLK_UNHALTED.THREAD_P (0x3c/0x00, USR|OS|EN), counts cycles;
	# PMC1: event 0x00 umask 0x00, no event.
	peek "$MS" 0 0x38f 0 >/dev/null
	peek "$MS" 0 0xc1 0 >/dev/null
	peek "$MS" 0 0xc2 0 >/dev/null
	is "sim: PERFEVTSEL0 takes a valid event" "$(peek "$MS" 0 0x186 0x43003c)" ""
	is "sim: PERFEVTSEL1 takes a bogus event" "$(peek "$MS" 0 0x187 0x430000)" ""
	peek "$MS" 0 0x38f 0x3 >/dev/null
	sleep 0.2
	a=$(peek "$MS" 0 0xc1)
	b=$(peek "$MS" 0 0xc2)
	sleep 0.1
	a2=$(peek "$MS" 0 0xc1)
	case "$a$a2" in
	*E*) not_ok "sim: a valid event counts"; diag "$a $a2" ;;
	*) check "sim: a valid event counts" test $((a2)) -gt $((a)) ;;
	esac
	is "sim: a bogus event does not count" "$b" "0x0000000000000000"
	check "sim: state lists the programmed event selector" \
		grep -qx '0 0x186 0x000000000043003c' "$MS/state"
	check "sim: state lists neither TSC nor A_PMC" \
		sh -c "! grep -q ' 0x10 \| 0x4c[1-8] ' '$MS/state'"
	is "sim: a register the CPU lacks is EIO" "$(peek "$MS" 0 0x999)" "EIO"
	# /stats: what the simulator saw that the hardware leaves unpredictable.
	is "sim: /stats is listed" "$(ls "$MS" | grep -c '^stats$')" 1
	is "sim: /stats, nothing yet" "$(cat "$MS/stats")" "pebs_write_while_counting 0"
	# PMC3 counting MEM_TRANS_RETIRED.LOAD_LATENCY (0xcd/0x01) with PEBS_EN and
	# LL_EN: a write to its counter is counted (pmu-facts 8.12), one to a
	# counter stopped by its global enable is not.
	peek "$MS" 0 0x3f6 16 >/dev/null
	peek "$MS" 0 0x189 0x4301cd >/dev/null
	peek "$MS" 0 0x3f1 0x800000008 >/dev/null
	peek "$MS" 0 0x38f 0x8 >/dev/null
	peek "$MS" 0 0xc4 0 >/dev/null
	is "sim: a write to a counting PEBS counter is counted" "$(cat "$MS/stats")" \
		"pebs_write_while_counting 1"
	peek "$MS" 0 0x38f 0 >/dev/null
	peek "$MS" 0 0xc4 0 >/dev/null
	peek "$MS" 0 0x3f6 32 >/dev/null
	is "sim: ... not when the counter is stopped" "$(cat "$MS/stats")" "pebs_write_while_counting 1"
	peek "$MS" 0 0x3f1 0 >/dev/null
	peek "$MS" 0 0x189 0 >/dev/null
	msrfs_ctl "$MS" fail-read 0 0xc1 EIO 1
	is "sim: faults apply to the simulator too" "$(peek "$MS" 0 0xc1)" "EIO"
	peek "$MS" 0 0x38f 0 >/dev/null
	msrfs_umount "$MS"
else
	not_ok "msrfs --simulate haswell mounts"
fi

tap_done
