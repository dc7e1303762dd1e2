/*
 * test_doctor.c: `lattop --doctor` (safety/doctor.c).
 *
 * Each test builds a fake root under /tmp (ROOT/dev/cpu/N/msr,
 * ROOT/sys/..., ROOT/proc/..., ROOT/run/lattop) that is healthy, changes
 * the one thing a check is about, and asserts the check's status, that
 * its detail and fix say the right thing, and doctor_can_measure().  The
 * counters are probed on an in-memory device (tests/fakedev.h): plain
 * files cannot emulate the msr driver.  The CPUs come from the dumps in
 * tests/dumps/ (read from the repository root).  Every test also checks
 * that the doctor wrote nothing: not to the tree, not to the device.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu/pmu.h"
#include "cpu/uarch.h"
#include "safety/doctor.h"
#include "tests/fakedev.h"

#define DUMP_HASWELL    "tests/dumps/haswell_core-i7-4500u.raw"
#define DUMP_HV         "tests/dumps/constructed_haswell-hypervisor-v0.raw"
#define DUMP_2GP        "tests/dumps/constructed_haswell-2gp.raw"

#define EVTSEL_EN_BIT   (1ull << 22)

/* One fake machine: a root tree, a CPU, a device. */
struct rig {
	char root[64];
	struct cpu_desc desc;
	struct fakedev f;
	struct doctor_env env;
	struct doctor_check c[DOCTOR__COUNT];
	int n;
	/* what the tree looked like before the run */
	long entries, bytes;
	time_t mtime;
};

/* ---------------------------------------------------------------- helpers */

static void mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* ROOT/@rel = @text, creating directories. */
static void put(struct rig *r, const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", r->root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	mkdirs(dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm(struct rig *r, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", r->root, rel);
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static long sig_entries, sig_bytes;
static time_t sig_mtime;

static int sig_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	sig_entries++;
	sig_bytes += (long)st->st_size * (S_ISREG(st->st_mode) ? 1 : 0);
	if (st->st_mtime > sig_mtime)
		sig_mtime = st->st_mtime;
	return 0;
}

static void signature(const char *root, long *entries, long *bytes, time_t *mtime)
{
	sig_entries = sig_bytes = 0;
	sig_mtime = 0;
	assert_int_equal(nftw(root, sig_one, 16, FTW_PHYS), 0);
	*entries = sig_entries;
	*bytes = sig_bytes;
	*mtime = sig_mtime;
}

static void load_desc(const char *file, struct cpu_desc *d)
{
	struct cpuid_raw raw;
	struct cpuid_info id;
	char err[256];

	assert_int_equal(cpuid_raw_file(file, &raw, err, sizeof(err)), 0);
	cpuid_decode(&raw, &id);
	uarch_detect(&id, d);
}

static const int rig_ids[] = { 0, 1 };

/* A healthy Haswell box with two CPUs, nothing in anyone's way but the taint. */
static int rig_setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	struct fake_layout l = {
		.version = 3, .ngp = 4, .nfixed = 3, .gp_width = 48, .fixed_width = 48,
		.fw_write = true, .offcore_msrs = 2, .pebs_wmask = 0xfull | 0xfull << 32,
	};

	if (!r)
		return -1;
	snprintf(r->root, sizeof(r->root), "/tmp/test_doctor.XXXXXX");
	if (!mkdtemp(r->root))
		return -1;
	put(r, "dev/cpu/0/msr", "");
	put(r, "dev/cpu/1/msr", "");
	put(r, "sys/module/msr/parameters/allow_writes", "on\n");
	put(r, "sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
	put(r, "proc/sys/kernel/tainted", "0\n");
	put(r, "proc/sys/kernel/nmi_watchdog", "0\n");
	put(r, "proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
	put(r, "proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 ro quiet\n");
	{
		char dir[128];

		snprintf(dir, sizeof(dir), "%s/run/lattop", r->root);
		mkdirs(dir);
	}
	load_desc(DUMP_HASWELL, &r->desc);
	fake_init(&r->f, 2, rig_ids);
	fake_add_pmu(&r->f, &l);
	r->env = (struct doctor_env){
		.root = r->root, .desc = &r->desc, .euid = 0, .dev = &r->f.dev,
	};
	*state = r;
	return 0;
}

static int rig_teardown(void **state)
{
	struct rig *r = *state;

	nftw(r->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(r);
	return 0;
}

/* Run the doctor; it must write nothing, to the tree or to the device. */
static void assert_backends(struct rig *r, bool msr, bool perf)
{
	bool m, p;

	doctor_backends(r->c, r->n, &m, &p);
	assert_int_equal(m, msr);
	assert_int_equal(p, perf);
}

static void run(struct rig *r)
{
	long e, b;
	time_t m;
	int mark = fake_mark(&r->f);

	signature(r->root, &r->entries, &r->bytes, &r->mtime);
	memset(r->c, 0x5a, sizeof(r->c));
	r->n = doctor_run(&r->env, r->c, DOCTOR__COUNT);
	assert_int_equal(r->n, DOCTOR__COUNT);
	signature(r->root, &e, &b, &m);
	assert_int_equal(e, r->entries);
	assert_int_equal(b, r->bytes);
	assert_true(m == r->mtime);
	assert_int_equal(fake_writes(&r->f, mark), 0);
	for (int i = 0; i < r->n; i++) {
		assert_non_null(r->c[i].name);
		assert_true(r->c[i].status <= DOC_SKIP);
		assert_non_null(memchr(r->c[i].detail, 0, sizeof(r->c[i].detail)));
		assert_non_null(memchr(r->c[i].fix, 0, sizeof(r->c[i].fix)));
		assert_true(r->c[i].detail[0] != 0);
		/* Every warning and failure says what to do, except the few with nothing to do. */
		if (r->c[i].status == DOC_OK)
			assert_true(r->c[i].fix[0] == 0);
	}
}

static const struct doctor_check *chk(struct rig *r, enum doctor_id id)
{
	return &r->c[id];
}

#define assert_has(s, sub) do {                                                   \
		if (!strstr((s), (sub)))                                          \
			fail_msg("\"%s\" does not contain \"%s\"", (s), (sub));  \
	} while (0)

#define assert_status(r, id, st) do {                                             \
		if (chk((r), (id))->status != (st))                               \
			fail_msg("check %s: status %d, expected %d (%s)",         \
				 chk((r), (id))->name, chk((r), (id))->status,    \
				 (st), chk((r), (id))->detail);                   \
	} while (0)

/* ------------------------------------------------------------------ tests */

static void test_healthy(void **state)
{
	struct rig *r = *state;

	run(r);
	assert_status(r, DOCTOR_CPU, DOC_OK);
	assert_has(chk(r, DOCTOR_CPU)->detail, "Haswell (06_45)");
	assert_status(r, DOCTOR_PMU, DOC_OK);
	assert_string_equal(chk(r, DOCTOR_PMU)->detail, "perfmon v3, 4 general-purpose x 48-bit, 3 fixed");
	assert_status(r, DOCTOR_DRIVER, DOC_OK);
	assert_has(chk(r, DOCTOR_DRIVER)->detail, "2 CPUs");
	assert_status(r, DOCTOR_PERM, DOC_OK);
	assert_has(chk(r, DOCTOR_PERM)->detail, "2 of 2");
	assert_status(r, DOCTOR_LOCKDOWN, DOC_OK);
	assert_string_equal(chk(r, DOCTOR_LOCKDOWN)->detail, "[none]");
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_OK);
	/* Linux taints on every MSR write that passes the filter, "on" included. */
	assert_status(r, DOCTOR_TAINT, DOC_WARN);
	assert_status(r, DOCTOR_NMI_WATCHDOG, DOC_OK);
	assert_status(r, DOCTOR_COUNTERS, DOC_OK);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "all 4 general-purpose and 3 fixed counters free on 2 CPUs");
	assert_status(r, DOCTOR_JOURNAL, DOC_OK);
	assert_true(doctor_can_measure(r->c, r->n));
	/* The probe read the control registers of both CPUs. */
	assert_true(fake_count(&r->f, 0, FAKE_READ, 0, MSR_PERFEVTSEL(3)) >= 1);
	assert_true(fake_count(&r->f, 0, FAKE_READ, 1, MSR_FIXED_CTR_CTRL) >= 1);
}

static void test_order_and_max(void **state)
{
	struct rig *r = *state;
	struct doctor_check few[3];
	static const char *const names[] = {
		"CPU supported", "PMU", "msr driver", "device permissions", "kernel lockdown",
		"msr.allow_writes", "kernel taint", "NMI watchdog", "counters in use", "state journal",
		"perf: core PMU", "perf: permission", "perf: open files", "perf: sample rate",
	};

	run(r);
	for (int i = 0; i < DOCTOR__COUNT; i++)
		assert_string_equal(r->c[i].name, names[i]);
	memset(few, 0, sizeof(few));
	assert_int_equal(doctor_run(&r->env, few, 3), 3);
	assert_string_equal(few[2].name, "msr driver");
	assert_int_equal(doctor_run(&r->env, few, 0), 0);
}

static void test_lockdown(void **state)
{
	struct rig *r = *state;

	put(r, "sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_FAIL);
	assert_has(chk(r, DOCTOR_LOCKDOWN)->detail, "[integrity]");
	assert_has(chk(r, DOCTOR_LOCKDOWN)->detail, "refuses every MSR write");
	assert_has(chk(r, DOCTOR_LOCKDOWN)->fix, "Secure Boot");
	assert_has(chk(r, DOCTOR_LOCKDOWN)->fix, "cannot be lifted at runtime");
	assert_null(strstr(chk(r, DOCTOR_LOCKDOWN)->fix, "lockdown=none"));
	/* Nothing can be written, so nothing will taint. */
	assert_status(r, DOCTOR_TAINT, DOC_OK);
	assert_has(chk(r, DOCTOR_TAINT)->detail, "cannot write");
	assert_false(doctor_can_measure(r->c, r->n));

	/* From the command line: the fix says which parameter to remove. */
	put(r, "proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz ro lockdown=integrity quiet\n");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_FAIL);
	assert_has(chk(r, DOCTOR_LOCKDOWN)->fix, "remove lockdown=integrity from the kernel command line");

	put(r, "sys/kernel/security/lockdown", "none integrity [confidentiality]\n");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_FAIL);
	assert_has(chk(r, DOCTOR_LOCKDOWN)->detail, "[confidentiality]");

	put(r, "sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_OK);
	assert_true(doctor_can_measure(r->c, r->n));

	put(r, "sys/kernel/security/lockdown", "whatever\n");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_WARN);

	rm(r, "sys/kernel/security/lockdown");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_SKIP);
	assert_true(doctor_can_measure(r->c, r->n));
}

static void test_allow_writes(void **state)
{
	struct rig *r = *state;

	put(r, "sys/module/msr/parameters/allow_writes", "default\n");
	run(r);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_WARN);
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "allowed");
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "logged");
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->fix, "echo on > /sys/module/msr/parameters/allow_writes");
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->fix, "msr.allow_writes=on");
	assert_true(doctor_can_measure(r->c, r->n));

	put(r, "sys/module/msr/parameters/allow_writes", "off\n");
	run(r);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_FAIL);
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "refuses");
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->fix, "echo on >");
	assert_status(r, DOCTOR_TAINT, DOC_OK);
	assert_false(doctor_can_measure(r->c, r->n));

	put(r, "sys/module/msr/parameters/allow_writes", "on\n");
	run(r);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_OK);

	/* Absent with the driver loaded: a kernel before the filter (5.9). */
	rm(r, "sys/module/msr/parameters");
	run(r);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_SKIP);
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "no MSR write filter");
	assert_status(r, DOCTOR_TAINT, DOC_OK);
	assert_has(chk(r, DOCTOR_TAINT)->detail, "do not taint");
	assert_true(doctor_can_measure(r->c, r->n));

	/* Absent, driver not loaded: not known yet. */
	rm(r, "sys/module/msr");
	run(r);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_SKIP);
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "unknown until the msr driver is loaded");

	/* ... unless /proc/modules says it is. */
	put(r, "proc/modules", "kvm 1 0 - Live 0x0\nmsr 16384 0 - Live 0x0000000000000000\n");
	run(r);
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "no MSR write filter");

	put(r, "sys/module/msr/parameters/allow_writes", "maybe\n");
	run(r);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_WARN);
	assert_has(chk(r, DOCTOR_ALLOW_WRITES)->detail, "maybe");
}

static void test_taint(void **state)
{
	struct rig *r = *state;
	char buf[64];

	put(r, "sys/module/msr/parameters/allow_writes", "default\n");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_WARN);
	assert_has(chk(r, DOCTOR_TAINT)->detail, "'S'");
	assert_has(chk(r, DOCTOR_TAINT)->detail, "bit 2");
	assert_has(chk(r, DOCTOR_TAINT)->detail, "now 0 (not tainted)");
	assert_has(chk(r, DOCTOR_TAINT)->fix, "allow_writes=on only silences the log");
	assert_true(doctor_can_measure(r->c, r->n));

	/* Already S (and O): nothing new. */
	put(r, "proc/sys/kernel/tainted", "4100\n");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_OK);
	assert_has(chk(r, DOCTOR_TAINT)->detail, "already tainted S");
	assert_has(chk(r, DOCTOR_TAINT)->detail, "now 4100 (S O)");

	/* Tainted, but not S: still a warning, the value decoded. */
	put(r, "proc/sys/kernel/tainted", "4097\n");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_WARN);
	assert_has(chk(r, DOCTOR_TAINT)->detail, "now 4097 (P O)");

	/* Driver not loaded: the kernel version decides. */
	rm(r, "sys/module/msr");
	put(r, "proc/sys/kernel/osrelease", "5.4.0-150-generic\n");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_OK);
	put(r, "proc/sys/kernel/osrelease", "5.9.0\n");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_WARN);

	put(r, "proc/sys/kernel/tainted", "lots\n");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_SKIP);
	rm(r, "proc/sys/kernel/tainted");
	run(r);
	assert_status(r, DOCTOR_TAINT, DOC_SKIP);

	assert_string_equal(doctor_taint_letters(0, buf, sizeof(buf)), "");
	assert_string_equal(doctor_taint_letters(4, buf, sizeof(buf)), "S");
	assert_string_equal(doctor_taint_letters(1ul << 19, buf, sizeof(buf)), "J");
	assert_string_equal(doctor_taint_letters(1ul << 9 | 1ul << 25 | 1ul << 26, buf, sizeof(buf)), "W ?");
}

static void test_nmi_watchdog(void **state)
{
	struct rig *r = *state;

	put(r, "proc/sys/kernel/nmi_watchdog", "1\n");
	run(r);
	assert_status(r, DOCTOR_NMI_WATCHDOG, DOC_WARN);
	assert_has(chk(r, DOCTOR_NMI_WATCHDOG)->detail, "IA32_FIXED_CTR1");
	assert_has(chk(r, DOCTOR_NMI_WATCHDOG)->detail, "general-purpose counter instead");
	assert_has(chk(r, DOCTOR_NMI_WATCHDOG)->fix, "sysctl kernel.nmi_watchdog=0");
	assert_true(doctor_can_measure(r->c, r->n));

	put(r, "proc/sys/kernel/nmi_watchdog", "0\n");
	run(r);
	assert_status(r, DOCTOR_NMI_WATCHDOG, DOC_OK);

	rm(r, "proc/sys/kernel/nmi_watchdog");
	run(r);
	assert_status(r, DOCTOR_NMI_WATCHDOG, DOC_SKIP);
}

/*
 * --backend perf: the core PMU and its ldlat format, the paranoid level
 * against the capabilities; a failure there fails the perf backend's
 * verdict, never the msr backend's.
 */
static void test_perf(void **state)
{
	struct rig *r = *state;

	/* a tree without perf events, and without the files: skipped */
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_SKIP);
	assert_status(r, DOCTOR_PERF_ACCESS, DOC_SKIP);
	put(r, "sys/bus/event_source/devices/software/type", "1\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_FAIL);
	assert_int_equal(chk(r, DOCTOR_PERF_PMU)->backend, DOCB_PERF);
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail, "no core PMU in the kernel");
	/* The msr backend can: the verdict is lattop's, through that backend only. */
	assert_true(doctor_can_measure(r->c, r->n));
	assert_backends(r, true, false);
	put(r, "sys/bus/event_source/devices/cpu/type", "4\n");
	put(r, "sys/bus/event_source/devices/cpu/caps/pmu_name", "haswell\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_WARN);   /* Haswell's load latency needs ldlat */
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail, "haswell PMU has no ldlat format");
	put(r, "sys/bus/event_source/devices/cpu/format/ldlat", "config1:0-15\n");
	put(r, "sys/bus/event_source/devices/cpu/format/offcore_rsp", "config1:0-63\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_OK);
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail, "haswell, with the offcore_rsp format");

	/* paranoid 2: CAP_PERFMON (38) or CAP_SYS_ADMIN (21); 3: CAP_SYS_ADMIN alone */
	put(r, "proc/sys/kernel/perf_event_paranoid", "2\n");
	put(r, "proc/self/status", "Name:\tlattop\nCapEff:\t0000000000000000\n");
	run(r);
	assert_status(r, DOCTOR_PERF_ACCESS, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERF_ACCESS)->fix, "setcap cap_perfmon+ep");
	assert_backends(r, true, false);
	put(r, "proc/self/status", "CapEff:\t0000004000000000\n");
	run(r);
	assert_status(r, DOCTOR_PERF_ACCESS, DOC_OK);
	assert_has(chk(r, DOCTOR_PERF_ACCESS)->detail, "CAP_PERFMON");
	put(r, "proc/sys/kernel/perf_event_paranoid", "3\n");
	run(r);
	assert_status(r, DOCTOR_PERF_ACCESS, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERF_ACCESS)->detail, "without CAP_SYS_ADMIN");
	put(r, "proc/self/status", "CapEff:\t0000000000200000\n");
	run(r);
	assert_status(r, DOCTOR_PERF_ACCESS, DOC_OK);
	put(r, "proc/sys/kernel/perf_event_paranoid", "0\n");
	put(r, "proc/self/status", "CapEff:\t0\n");
	run(r);
	assert_status(r, DOCTOR_PERF_ACCESS, DOC_OK);
	assert_true(doctor_can_measure(r->c, r->n));
	assert_backends(r, true, true);

	/* Lockdown stops the msr backend, not the perf one: lattop can still measure. */
	put(r, "sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_FAIL);
	assert_has(chk(r, DOCTOR_LOCKDOWN)->fix, "--backend perf");
	assert_backends(r, false, true);
	assert_true(doctor_can_measure(r->c, r->n));
	/* ... and with the kernel refusing perf too, nothing can. */
	put(r, "proc/sys/kernel/perf_event_paranoid", "3\n");
	run(r);
	assert_backends(r, false, false);
	assert_false(doctor_can_measure(r->c, r->n));
}

/*
 * A hybrid part (the i9-12900K's all-CPU dump of ../shared/cpuid, read in
 * place; skipped without it): no "cpu" PMU but one per core type, each
 * named with its CPUs; a PMU missing, or a cpus file that disagrees with
 * CPUID, fails the check with the PMU and the CPUs named.
 */
#define DUMP_ADL_ALL "../shared/cpuid/all/alderlake_core-i9-12900k.all.raw"
static void test_perf_hybrid(void **state)
{
	struct rig *r = *state;
	struct cpuid_set cs;
	char err[256];

	if (access(DUMP_ADL_ALL, R_OK)) {
		skip();
		return;
	}
	assert_int_equal(cpuid_set_file(DUMP_ADL_ALL, &cs, err, sizeof(err)), 0);
	uarch_detect_set(&cs, &r->desc);
	cpuid_set_free(&cs);
	assert_true(r->desc.hybrid && r->desc.ntypes == 2);
	put(r, "sys/bus/event_source/devices/software/type", "1\n");
	put(r, "sys/bus/event_source/devices/cpu_core/type", "4\n");
	put(r, "sys/bus/event_source/devices/cpu_core/cpus", "0-15\n");
	put(r, "sys/bus/event_source/devices/cpu_core/format/ldlat", "config1:0-15\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail, "no cpu_atom PMU in the kernel");
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail, "atom CPUs (Gracemont, CPUs 16-23)");
	put(r, "sys/bus/event_source/devices/cpu_atom/type", "10\n");
	put(r, "sys/bus/event_source/devices/cpu_atom/cpus", "16-23\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_WARN);   /* Gracemont's load latency needs ldlat */
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail, "cpu_atom PMU has no ldlat format");
	put(r, "sys/bus/event_source/devices/cpu_atom/format/ldlat", "config1:0-15\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_OK);
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail,
		   "cpu_core for the core CPUs (Golden Cove, CPUs 0-15)");
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail,
		   "cpu_atom for the atom CPUs (Gracemont, CPUs 16-23)");
	/* a kernel that counts CPU 15 among the Atoms */
	put(r, "sys/bus/event_source/devices/cpu_core/cpus", "0-14\n");
	put(r, "sys/bus/event_source/devices/cpu_atom/cpus", "15-23\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERF_PMU)->detail,
		   "the kernel's cpu_core PMU lists CPUs 0-14, CPUID says the core CPUs are 0-15 "
		   "(they disagree on CPU 15)");
	assert_has(chk(r, DOCTOR_PERF_PMU)->fix, "--backend msr");
	/* with the "cpu" PMU of a kernel that does not know the part: still the per-type check */
	put(r, "sys/bus/event_source/devices/cpu/type", "4\n");
	run(r);
	assert_status(r, DOCTOR_PERF_PMU, DOC_FAIL);
}

/*
 * The perf backend holds every CPU's events open: against the open-file
 * limit, which lattop raises itself as far as the hard limit goes.
 */
static void test_perf_files(void **state)
{
	struct rig *r = *state;
	struct rlimit rl = { .rlim_cur = 1024, .rlim_max = 4096 };

	run(r);
	assert_status(r, DOCTOR_PERF_FILES, DOC_SKIP);   /* no plan counted */
	r->env.nofile = &rl;
	r->env.perf_nofile = 900;
	run(r);
	assert_status(r, DOCTOR_PERF_FILES, DOC_OK);
	assert_has(chk(r, DOCTOR_PERF_FILES)->detail, "900 descriptors needed");
	r->env.perf_nofile = 3000;
	run(r);
	assert_status(r, DOCTOR_PERF_FILES, DOC_OK);
	assert_has(chk(r, DOCTOR_PERF_FILES)->detail, "raises its soft limit from 1024");
	r->env.perf_nofile = 5000;
	run(r);
	assert_status(r, DOCTOR_PERF_FILES, DOC_FAIL);
	assert_int_equal(chk(r, DOCTOR_PERF_FILES)->backend, DOCB_PERF);
	assert_has(chk(r, DOCTOR_PERF_FILES)->detail, "the hard limit is 4096");
	assert_has(chk(r, DOCTOR_PERF_FILES)->fix, "LimitNOFILE=5000");
	rl.rlim_max = RLIM_INFINITY;
	run(r);
	assert_status(r, DOCTOR_PERF_FILES, DOC_OK);
	r->env.nofile = NULL;
	r->env.perf_nofile = 0;
}

/* perf_event_max_sample_rate: the sampling view's ceiling, which the kernel lowers by itself. */
static void test_perf_rate(void **state)
{
	struct rig *r = *state;

	run(r);
	assert_status(r, DOCTOR_PERF_RATE, DOC_SKIP);
	put(r, "proc/sys/kernel/perf_event_max_sample_rate", "100000\n");
	run(r);
	assert_status(r, DOCTOR_PERF_RATE, DOC_OK);
	assert_has(chk(r, DOCTOR_PERF_RATE)->detail, "at most 100000 samples");
	put(r, "proc/sys/kernel/perf_event_max_sample_rate", "250\n");
	run(r);
	assert_status(r, DOCTOR_PERF_RATE, DOC_WARN);
	assert_has(chk(r, DOCTOR_PERF_RATE)->detail, "counting is not affected");
	assert_has(chk(r, DOCTOR_PERF_RATE)->fix, "perf_event_max_sample_rate=");
}

static void test_no_driver(void **state)
{
	struct rig *r = *state;

	rm(r, "dev/cpu");
	rm(r, "sys/module/msr");
	r->env.dev = NULL;
	run(r);
	assert_status(r, DOCTOR_DRIVER, DOC_FAIL);
	assert_has(chk(r, DOCTOR_DRIVER)->detail, "not loaded");
	assert_has(chk(r, DOCTOR_DRIVER)->fix, "modprobe msr");
	assert_has(chk(r, DOCTOR_DRIVER)->fix, "echo msr > /etc/modules-load.d/msr.conf");
	assert_status(r, DOCTOR_PERM, DOC_SKIP);
	assert_status(r, DOCTOR_COUNTERS, DOC_SKIP);
	assert_false(doctor_can_measure(r->c, r->n));

	/* Loaded, yet no nodes. */
	put(r, "sys/module/msr/refcnt", "0\n");
	run(r);
	assert_status(r, DOCTOR_DRIVER, DOC_FAIL);
	assert_has(chk(r, DOCTOR_DRIVER)->detail, "loaded, but");
	assert_has(chk(r, DOCTOR_DRIVER)->fix, "udevadm");
}

/* The permission check's open(2), with failures injected per CPU. */
static int inject_errno, inject_cpu;

static int open_inject(const char *path, int flags)
{
	char want[32];

	snprintf(want, sizeof(want), "/%d/msr", inject_cpu);
	if (strlen(path) >= strlen(want) && !strcmp(path + strlen(path) - strlen(want), want)) {
		errno = inject_errno;
		return -1;
	}
	return open(path, flags);
}

static void test_permissions(void **state)
{
	struct rig *r = *state;

	r->env.open_msr = open_inject;
	r->env.dev = NULL;
	inject_cpu = 1;

	inject_errno = EACCES;
	r->env.euid = 1000;
	run(r);
	assert_status(r, DOCTOR_PERM, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERM)->detail, "/dev/cpu/1/msr: permission denied, not root");
	assert_has(chk(r, DOCTOR_PERM)->detail, "1 of 2 CPUs");
	assert_has(chk(r, DOCTOR_PERM)->fix, "run as root");
	assert_has(chk(r, DOCTOR_PERM)->fix, "CAP_SYS_RAWIO");
	assert_status(r, DOCTOR_COUNTERS, DOC_SKIP);
	assert_false(doctor_can_measure(r->c, r->n));

	inject_errno = EPERM;
	r->env.euid = 0;
	run(r);
	assert_status(r, DOCTOR_PERM, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERM)->detail, "although root: CAP_SYS_RAWIO is missing");
	assert_has(chk(r, DOCTOR_PERM)->fix, "CAP_SYS_RAWIO");

	inject_errno = ENXIO;
	run(r);
	assert_status(r, DOCTOR_PERM, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PERM)->detail, "cpu 1 is offline");
	assert_has(chk(r, DOCTOR_PERM)->fix, "/sys/devices/system/cpu/cpu1/online");

	/* Not root, but the files open: fine. */
	inject_cpu = 99;
	r->env.euid = 1000;
	run(r);
	assert_status(r, DOCTOR_PERM, DOC_OK);
	assert_has(chk(r, DOCTOR_PERM)->detail, "not root, but allowed");
}

/*
 * Without an injected device the counters are probed through
 * msrdev_dir_open() on the tree's plain files, which read as nothing: the
 * probe fails (EIO), cleanly, and nothing is written to the files.
 */
static void test_counters_on_plain_files(void **state)
{
	struct rig *r = *state;

	r->env.dev = NULL;
	run(r);
	assert_status(r, DOCTOR_PERM, DOC_OK);
	assert_status(r, DOCTOR_COUNTERS, DOC_FAIL);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "probing the counters");
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "EIO");
}

static void test_counters_in_use(void **state)
{
	struct rig *r = *state;

	/* The NMI watchdog's fixed counter 1 (OS|USR|PMI) on both CPUs. */
	fake_set(&r->f, 0, MSR_FIXED_CTR_CTRL, 0xb0);
	fake_set(&r->f, 1, MSR_FIXED_CTR_CTRL, 0xb0);
	put(r, "proc/sys/kernel/nmi_watchdog", "1\n");
	run(r);
	assert_status(r, DOCTOR_COUNTERS, DOC_WARN);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "2 of 2 CPUs; cpu 0: IA32_FIXED_CTR_CTRL=0xb0 (fixed counter 1)");
	assert_has(chk(r, DOCTOR_COUNTERS)->fix, "NMI watchdog");
	assert_has(chk(r, DOCTOR_COUNTERS)->fix, "--force");
	assert_true(doctor_can_measure(r->c, r->n));

	/* Someone's PERFEVTSEL1 (with the PMI, as perf's) on CPU 1 only; no NMI watchdog. */
	fake_set(&r->f, 0, MSR_FIXED_CTR_CTRL, 0);
	fake_set(&r->f, 1, MSR_FIXED_CTR_CTRL, 0);
	fake_set(&r->f, 1, MSR_PERFEVTSEL(1), EVTSEL_EN_BIT | 0x5300c0);
	put(r, "proc/sys/kernel/nmi_watchdog", "0\n");
	run(r);
	assert_status(r, DOCTOR_COUNTERS, DOC_WARN);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "1 of 2 CPUs; cpu 1: IA32_PERFEVTSEL1=0x5300c0");
	assert_has(chk(r, DOCTOR_COUNTERS)->fix, "perf or another tool");

	/*
	 * The same event as lattop programs it, without the PMI: another
	 * lattop's, left by one that died.  Not perf's: the way out is
	 * lattop's own (issue 18.2).
	 */
	fake_set(&r->f, 1, MSR_PERFEVTSEL(1), EVTSEL_EN_BIT | 0x4300c0);
	run(r);
	assert_status(r, DOCTOR_COUNTERS, DOC_FAIL);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "cpu 1 holds another lattop's own events");
	assert_has(chk(r, DOCTOR_COUNTERS)->fix, "lattop --restore --reset --yes");
	assert_null(strstr(chk(r, DOCTOR_COUNTERS)->fix, "perf"));
	fake_set(&r->f, 1, MSR_PERFEVTSEL(1), 0);

	/* Every general-purpose counter of CPU 1 taken: cannot measure. */
	for (unsigned k = 0; k < 4; k++)
		fake_set(&r->f, 1, MSR_PERFEVTSEL(k), EVTSEL_EN_BIT | 0x3c);
	run(r);
	assert_status(r, DOCTOR_COUNTERS, DOC_FAIL);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "cpu 1: no general-purpose counter is free");
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "IA32_PERFEVTSEL3=0x40003c");
	assert_has(chk(r, DOCTOR_COUNTERS)->fix, "lattop --force");
	assert_false(doctor_can_measure(r->c, r->n));

	/* A control register that will not read. */
	for (unsigned k = 0; k < 4; k++)
		fake_set(&r->f, 1, MSR_PERFEVTSEL(k), 0);
	fake_fail_at(&r->f, FAKE_READ, -1, MSR_PEBS_ENABLE, -EIO, 0, -1);
	run(r);
	assert_status(r, DOCTOR_COUNTERS, DOC_FAIL);
	assert_has(chk(r, DOCTOR_COUNTERS)->detail, "IA32_PEBS_ENABLE");
}

static void test_journal(void **state)
{
	struct rig *r = *state;
	char dir[128], text[512], path[160];
	int fd;

	/* Left by a lattop killed with its registers changed (pid 4242 is not a lattop). */
	snprintf(text, sizeof(text), "lattop-journal 1\npid 4242\ndev %s\nfw_write 1\ngp_width 48\n"
		 "r 0 0x186 0x0 0xffffffffffffffff\nend\n", r->root);
	put(r, "run/lattop/journal", text);
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_WARN);
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "a previous lattop (pid 4242) was killed or crashed");
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "/run/lattop/journal");
	assert_has(chk(r, DOCTOR_JOURNAL)->fix, "lattop --restore --msr-dir ");
	assert_true(doctor_can_measure(r->c, r->n));

	/* Its device is gone: not a crash to --restore, a journal to remove. */
	put(r, "run/lattop/journal", "lattop-journal 1\npid 4242\ndev /nonexistent/msr\nfw_write 1\n"
	    "r 0 0x186 0x0 0xffffffffffffffff\nend\n");
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_WARN);
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "is for /nonexistent/msr, which no longer exists");
	assert_has(chk(r, DOCTOR_JOURNAL)->fix, "rm ");

	/* Damaged (issue 13): what is wrong and what to do, never "pid -1". */
	put(r, "run/lattop/journal", "lattop journal v1 pid 4242 2024-05-01T10:00:00\ncpu 0 0x186 0x0\n");
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_WARN);
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "is damaged: it does not start with \"lattop-journal 1\"");
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "(it starts \"lattop journal v1 pid 4242");
	assert_null(strstr(chk(r, DOCTOR_JOURNAL)->detail, "pid -1"));
	assert_has(chk(r, DOCTOR_JOURNAL)->fix, "rm ");

	/* Not text: not shown. */
	put(r, "run/lattop/journal", "\x01\x02\x7f binary\n");
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_WARN);
	assert_null(strstr(chk(r, DOCTOR_JOURNAL)->detail, "binary"));

	/* Held by a running lattop: no warning. */
	put(r, "run/lattop/journal", text);
	snprintf(path, sizeof(path), "%s/run/lattop/journal", r->root);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_OK);
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "is running");
	close(fd);

	/* Empty, as every clean exit leaves it (issue 9 item 2): all is back. */
	put(r, "run/lattop/journal", "");
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_OK);
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "is empty");

	/* --state-dir elsewhere: the one under ROOT is not looked at. */
	put(r, "run/lattop/journal", text);
	put(r, "elsewhere/x", "");
	snprintf(dir, sizeof(dir), "%s/elsewhere", r->root);
	r->env.state_dir = dir;
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_OK);
	assert_has(chk(r, DOCTOR_JOURNAL)->detail, "elsewhere");

	r->env.state_dir = NULL;
	rm(r, "run/lattop/journal");
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_OK);
	rm(r, "run");
	run(r);
	assert_status(r, DOCTOR_JOURNAL, DOC_OK);
}

static void test_hypervisor(void **state)
{
	struct rig *r = *state;

	load_desc(DUMP_HV, &r->desc);
	assert_false(r->desc.supported);
	run(r);
	assert_status(r, DOCTOR_CPU, DOC_FAIL);
	assert_has(chk(r, DOCTOR_CPU)->detail, "a hypervisor hides the PMU");
	assert_has(chk(r, DOCTOR_CPU)->detail, "version 0");
	assert_has(chk(r, DOCTOR_CPU)->fix, "virtual PMU");
	assert_has(chk(r, DOCTOR_CPU)->fix, "bare metal");
	assert_has(chk(r, DOCTOR_CPU)->fix, "lattop --simulate haswell");
	assert_status(r, DOCTOR_PMU, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PMU)->detail, "no architectural PMU visible");
	assert_status(r, DOCTOR_COUNTERS, DOC_SKIP);
	assert_int_equal(fake_mark(&r->f), 0);      /* the device was not touched */
	assert_false(doctor_can_measure(r->c, r->n));
}

static void test_unsupported(void **state)
{
	struct rig *r = *state;

	load_desc(DUMP_2GP, &r->desc);
	assert_false(r->desc.supported);
	run(r);
	assert_status(r, DOCTOR_CPU, DOC_FAIL);
	assert_string_equal(chk(r, DOCTOR_CPU)->detail, r->desc.reason);
	assert_has(chk(r, DOCTOR_CPU)->fix, "Nehalem");
	{
		/* the list ends with the last supported uarch, after "and" */
		char last[64];
		int n = 0;

		while (uarch_supported[n + 1])
			n++;
		snprintf(last, sizeof(last), "and %s", uarch_supported[n]->pretty);
		assert_has(chk(r, DOCTOR_CPU)->fix, last);
	}
	assert_has(chk(r, DOCTOR_CPU)->fix, "lattop --simulate haswell");
	assert_null(strstr(chk(r, DOCTOR_CPU)->fix, "virtual PMU"));
	assert_status(r, DOCTOR_PMU, DOC_FAIL);
	assert_has(chk(r, DOCTOR_PMU)->detail, "perfmon v3, 2 general-purpose x 48-bit, 3 fixed");
	assert_has(chk(r, DOCTOR_PMU)->detail, "needs v3, 4 general-purpose");
	assert_status(r, DOCTOR_COUNTERS, DOC_SKIP);
	assert_false(doctor_can_measure(r->c, r->n));

	/* A microarchitecture lattop has no table for. */
	{
		struct cpuid_info id = r->desc.id;

		id.model = 0x17;    /* Core 2 (Penryn): no table, ever */
		uarch_detect(&id, &r->desc);
	}
	assert_false(r->desc.supported);
	run(r);
	assert_status(r, DOCTOR_CPU, DOC_FAIL);
	assert_status(r, DOCTOR_PMU, DOC_SKIP);
	assert_has(chk(r, DOCTOR_PMU)->detail, "no lattop table");

	/* ... even with no PMU visible under a hypervisor: not the vPMU advice. */
	{
		struct cpuid_info id = r->desc.id;

		id.hypervisor = true;
		id.pmu.version = 0;
		uarch_detect(&id, &r->desc);
	}
	run(r);
	assert_status(r, DOCTOR_CPU, DOC_FAIL);
	assert_null(strstr(chk(r, DOCTOR_CPU)->detail, "a hypervisor hides the PMU"));
	assert_null(strstr(chk(r, DOCTOR_CPU)->fix, "virtual PMU"));
	assert_status(r, DOCTOR_PMU, DOC_SKIP);
	assert_has(chk(r, DOCTOR_PMU)->detail, "version 0 (no lattop table for Core 2)");

	/* No CPUID at all. */
	r->env.desc = NULL;
	run(r);
	assert_status(r, DOCTOR_CPU, DOC_SKIP);
	assert_status(r, DOCTOR_PMU, DOC_SKIP);
	assert_status(r, DOCTOR_COUNTERS, DOC_SKIP);
}

static void test_msr_dir(void **state)
{
	struct rig *r = *state;
	char dir[128];

	/* Kernel trouble does not matter to --msr-dir. */
	put(r, "sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	put(r, "sys/module/msr/parameters/allow_writes", "off\n");
	put(r, "fake/0/msr", "");
	put(r, "fake/1/msr", "");
	put(r, "fake/notacpu/msr", "");
	snprintf(dir, sizeof(dir), "%s/fake/", r->root);
	r->env.msr_dir = dir;
	run(r);
	assert_status(r, DOCTOR_DRIVER, DOC_OK);
	assert_has(chk(r, DOCTOR_DRIVER)->detail, "--msr-dir");
	assert_has(chk(r, DOCTOR_DRIVER)->detail, "2 CPUs");
	assert_status(r, DOCTOR_LOCKDOWN, DOC_SKIP);
	assert_status(r, DOCTOR_ALLOW_WRITES, DOC_SKIP);
	assert_status(r, DOCTOR_TAINT, DOC_SKIP);
	assert_status(r, DOCTOR_NMI_WATCHDOG, DOC_SKIP);
	assert_true(doctor_can_measure(r->c, r->n));

	/* --msr-dir naming the kernel's directory is the kernel's directory. */
	snprintf(dir, sizeof(dir), "%s/dev/cpu", r->root);
	run(r);
	assert_status(r, DOCTOR_LOCKDOWN, DOC_FAIL);

	snprintf(dir, sizeof(dir), "%s/nothing", r->root);
	run(r);
	assert_status(r, DOCTOR_DRIVER, DOC_FAIL);
	assert_has(chk(r, DOCTOR_DRIVER)->fix, "--msr-dir");
	assert_false(doctor_can_measure(r->c, r->n));
}

static char *print_to_string(struct rig *r, bool color)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	doctor_print(f, r->c, r->n, color);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_print(void **state)
{
	struct rig *r = *state;
	char *s;
	int lines = 0;

	run(r);
	s = print_to_string(r, false);
	assert_has(s, "[ ok ] CPU supported      Haswell (06_45)");
	assert_has(s, "[warn] kernel taint");
	assert_has(s, "\n       fix: nothing to fix for measuring");
	/* No perf events in the rig's tree: the msr backend alone. */
	assert_has(s, "lattop can measure through the msr backend only (--backend msr; 1 warning).\n");
	assert_null(strchr(s, '\033'));
	for (const char *p = s; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, DOCTOR__COUNT + 1 + 1);    /* checks, one fix, the verdict */
	free(s);

	put(r, "sys/module/msr/parameters/allow_writes", "off\n");
	rm(r, "sys/kernel/security/lockdown");
	run(r);
	s = print_to_string(r, true);
	assert_has(s, "[FAIL]\033[0m msr.allow_writes");
	assert_has(s, "\033[2m[skip]\033[0m kernel lockdown");
	assert_has(s, "       fix: echo on > /sys/module/msr/parameters/allow_writes");
	assert_has(s, "lattop cannot measure here: 1 check failed.\n");
	free(s);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, rig_setup, rig_teardown)
	const struct CMUnitTest tests[] = {
		T(test_healthy),
		T(test_order_and_max),
		T(test_lockdown),
		T(test_perf_hybrid),
		T(test_allow_writes),
		T(test_taint),
		T(test_nmi_watchdog),
		T(test_perf),
		T(test_perf_files),
		T(test_perf_rate),
		T(test_no_driver),
		T(test_permissions),
		T(test_counters_on_plain_files),
		T(test_counters_in_use),
		T(test_journal),
		T(test_hypervisor),
		T(test_unsupported),
		T(test_msr_dir),
		T(test_print),
	};
#undef T

	return cmocka_run_group_tests_name("doctor", tests, NULL, NULL);
}
