/*
 * test_sim_kernel.c: the simulated kernel (sim/sim_kernel.c) behind the
 * perf device interface, over the simulated PMU, on a manual clock.
 *
 * The attrs here are written by hand from the SDM and the kernel, not
 * taken from lattop's tables: what is checked is the kernel's behaviour.
 * Counts come out as the profile's ground truth, through the fixed and
 * general-purpose counters, an offcore response and the PEBS load-latency
 * event; the kernel multiplexes what does not fit and time_enabled and
 * time_running say so (a scaled count is the truth again); the extra
 * registers are arbitrated (a second offcore value moved to the other
 * register, or refused on a register the HT siblings share); the HT
 * erratum's events keep their counters to themselves; the NMI watchdog
 * and another perf user take counters; the errors and the paranoid level
 * are the kernel's; the files say what the kernel offers.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu/perf_ring.h"
#include "cpu/perfdev.h"
#include "sim/sim_internal.h"
#include "tests/nobody.h"

#define TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* Haswell, HT on: 2 cores x 2 threads, CPU c's sibling is c + 2; every load tagged. */
static const char hsw_prof[] =
	"cpus = 4\nthreads_per_core = 2\nghz = 2\nbusy = 1\nloads_per_sec = 1e8\n"
	"ldlat_tagged_fraction = 1\n";

struct clk {
	double t;
};

static double clk_now(void *arg)
{
	return ((struct clk *)arg)->t;
}

struct kern {
	struct clk clk;
	struct sim *sim;
	struct perfdev *dev;
};

static void kern_up(struct kern *k, const char *uarch, const char *text)
{
	char err[256];
	struct sim_profile *p = sim_profile_parse(text, strlen(text), "t.prof", err, sizeof(err));

	if (!p)
		fail_msg("profile: %s", err);
	k->sim = sim_new(uarch, p, err, sizeof(err));
	sim_profile_free(p);
	if (!k->sim)
		fail_msg("sim_new: %s", err);
	k->clk.t = 100;
	sim_set_clock(k->sim, clk_now, &k->clk);
	k->dev = sim_kernel_open(k->sim, err, sizeof(err));
	if (!k->dev)
		fail_msg("sim_kernel_open: %s", err);
}

static void kern_down(struct kern *k)
{
	perfdev_close(k->dev);
	sim_free(k->sim);
}

static struct perf_event_attr raw(uint64_t config, uint64_t config1)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = config;
	a.config1 = config1;
	a.read_format = TIMES;
	return a;
}

static int open_on(struct kern *k, struct perf_event_attr a, int cpu, int group)
{
	int fd = perfdev_open_event(k->dev, &a, -1, cpu, group, 0);

	if (fd < 0)
		fail_msg("open 0x%llx/0x%llx on cpu %d: %s", (unsigned long long)a.config,
			 (unsigned long long)a.config1, cpu, strerror(-fd));
	return fd;
}

static struct perfdev_counts rd(struct kern *k, int fd)
{
	struct perfdev_counts c;

	assert_int_equal(perfdev_read_counts(k->dev, fd, TIMES, &c), 0);
	return c;
}

static void near(double got, double want, double rel, const char *what)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%s: %g, want %g (within %g%%)", what, got, want, rel * 100);
}

/* The fixed counters and a general one count the profile's truth, all the time. */
static void test_truth(void **state)
{
	struct kern k;
	int inst, cyc, ref, loads;
	struct perfdev_counts c;

	(void)state;
	kern_up(&k, "haswell", hsw_prof);
	inst = open_on(&k, raw(0x00c0, 0), 0, -1);
	cyc = open_on(&k, raw(0x003c, 0), 0, -1);
	ref = open_on(&k, raw(0x0300, 0), 0, -1);
	loads = open_on(&k, raw(0x81d0, 0), 0, -1);
	k.clk.t += 0.5;
	c = rd(&k, cyc);
	near((double)c.value[0], 2e9 * 0.5, 1e-6, "core cycles");
	assert_int_equal(c.enabled, 500000000);
	assert_int_equal(c.running, c.enabled);
	near((double)rd(&k, inst).value[0], 1.2 * 2e9 * 0.5, 1e-6, "instructions (ipc 1.2)");
	near((double)rd(&k, ref).value[0], 2e9 * 0.5, 1e-6, "reference cycles");
	near((double)rd(&k, loads).value[0], 1e8 * 0.5, 1e-6, "loads");
	/* user space only: the profile's user_fraction (0.9) of it */
	{
		struct perf_event_attr a = raw(0x003c, 0);
		int u;

		a.exclude_kernel = 1;
		u = open_on(&k, a, 1, -1);
		k.clk.t += 0.5;
		near((double)rd(&k, u).value[0], 0.9 * 2e9 * 0.5, 1e-6, "user cycles");
	}
	kern_down(&k);
}

/*
 * The PEBS load-latency event counts the loads above its threshold, as a
 * precise sampling event; two thresholds share the one register, so the
 * kernel time-slices them, and each scaled count is its truth.
 */
static void test_ldlat_multiplexed(void **state)
{
	const struct sim_profile *prof;
	struct perf_event_attr a = raw(0x01cd, 32);
	struct perfdev_counts c32, c8;
	struct kern k;
	int f32, f8;

	(void)state;
	kern_up(&k, "haswell", hsw_prof);
	prof = sim_profile_of(k.sim);
	a.precise_ip = 1;
	a.sample_period = 0x7fffffff;
	f32 = open_on(&k, a, 0, -1);
	k.clk.t += 0.2;
	c32 = rd(&k, f32);
	near((double)c32.value[0], 1e8 * 0.2 * sim_profile_above(prof, 0, 32), 1e-6,
	     "loads above 32 cycles");
	a.config1 = 8;
	f8 = open_on(&k, a, 0, -1);
	k.clk.t += 1.0;
	c32 = rd(&k, f32);
	c8 = rd(&k, f8);
	assert_int_equal(c8.enabled, 1000000000);
	assert_true(c8.running < c8.enabled * 0.6 && c8.running > c8.enabled * 0.4);
	near((double)c8.value[0] * (double)c8.enabled / (double)c8.running,
	     1e8 * 1.0 * sim_profile_above(prof, 0, 8), 0.01, "scaled loads above 8");
	near((double)(c32.running + c8.running), 1e9 + 0.2e9, 0.01, "the two share the time");
	kern_down(&k);
}

/*
 * Six general-purpose events on four counters: the kernel rotates them;
 * each ran about 4/6 of the time, and each scaled count is the truth.
 */
static void test_multiplexing(void **state)
{
	struct kern k;
	int fd[6];
	double run = 0;

	(void)state;
	kern_up(&k, "haswell", "cpus = 2\nthreads_per_core = 1\nghz = 2\nloads_per_sec = 1e8\n");
	for (int i = 0; i < 6; i++)
		fd[i] = open_on(&k, raw(0x81d0, 0), 1, -1);
	k.clk.t += 2.0;
	for (int i = 0; i < 6; i++) {
		struct perfdev_counts c = rd(&k, fd[i]);

		assert_int_equal(c.enabled, 2000000000);
		assert_true(c.running < c.enabled);
		near((double)c.value[0] * (double)c.enabled / (double)c.running, 1e8 * 2.0, 0.001,
		     "scaled loads");
		run += (double)c.running;
	}
	near(run, 4 * 2e9, 0.01, "four counters' worth of running time");
	/* closing two: the rest fit, and run from then on */
	perfdev_close_event(k.dev, fd[0]);
	perfdev_close_event(k.dev, fd[1]);
	{
		struct perfdev_counts a = rd(&k, fd[2]), b;

		k.clk.t += 1.0;
		b = rd(&k, fd[2]);
		assert_int_equal(b.running - a.running, b.enabled - a.enabled);
	}
	kern_down(&k);
}

/*
 * Extra registers: a second offcore value goes to MSR_OFFCORE_RSP_1,
 * the event moved to 0xbb (intel_alt_er), and counts as it does alone; a
 * third value finds both taken and waits for the rotation.
 */
static void test_offcore_alt(void **state)
{
	uint64_t v_a = 0x10001, v_b = 0x3f80400001ULL, v_c = 0x10003c0001ULL;
	struct perfdev_counts alone, moved, third;
	struct kern k;
	int f_alone, f_b, f_a, f_c;

	(void)state;
	kern_up(&k, "haswell", "cpus = 2\nthreads_per_core = 1\n");
	f_alone = open_on(&k, raw(0x01b7, v_a), 1, -1);
	f_b = open_on(&k, raw(0x01b7, v_b), 0, -1);
	f_a = open_on(&k, raw(0x01b7, v_a), 0, -1);
	k.clk.t += 1.0;
	alone = rd(&k, f_alone);
	moved = rd(&k, f_a);
	assert_true(alone.value[0] > 0);
	assert_int_equal(moved.running, moved.enabled);
	assert_int_equal(moved.value[0], alone.value[0]);
	assert_int_equal(rd(&k, f_b).running, rd(&k, f_b).enabled);
	f_c = open_on(&k, raw(0x01b7, v_c), 0, -1);
	k.clk.t += 1.0;
	third = rd(&k, f_c);
	assert_true(third.running < third.enabled);
	/* a bit outside the register's valid mask (0x3fffff8fff): EINVAL */
	{
		struct perf_event_attr a = raw(0x01b7, 1ULL << 13 | 1);

		assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -EINVAL);
	}
	kern_down(&k);
}

/*
 * Nehalem shares MSR_OFFCORE_RSP_0 between the HT siblings and has no
 * RSP_1: while one thread holds a value, its sibling's other value is
 * refused every time; it never runs.
 */
static void test_offcore_shared_refused(void **state)
{
	struct perfdev_counts held, refused;
	struct kern k;
	int f0, f1;

	(void)state;
	kern_up(&k, "nehalem", "cpus = 4\nthreads_per_core = 2\n");
	f0 = open_on(&k, raw(0x01b7, 0xff01), 0, -1);
	f1 = open_on(&k, raw(0x01b7, 0x0101), 2, -1);
	k.clk.t += 1.0;
	held = rd(&k, f0);
	refused = rd(&k, f1);
	assert_int_equal(held.running, held.enabled);
	assert_true(held.value[0] > 0);
	assert_int_equal(refused.enabled, 1000000000);
	assert_int_equal(refused.running, 0);
	assert_int_equal(refused.value[0], 0);
	/*
	 * The same value is shared, not refused.  (Beside the refused one it
	 * would run half the time: the kernel adds no group after one that
	 * does not fit, and rotation takes turns.)
	 */
	assert_int_equal(perfdev_close_event(k.dev, f1), 0);
	{
		int f2 = open_on(&k, raw(0x01b7, 0xff01), 2, -1);
		struct perfdev_counts s;

		k.clk.t += 1.0;
		s = rd(&k, f2);
		assert_int_equal(s.running, s.enabled);
	}
	kern_down(&k);
}

/*
 * Silvermont: the two cores of a module share the RSP registers, but the
 * kernel arbitrates only between SMT siblings (none here): module partners
 * with different values both "run" the whole time, and the count of the
 * first is the second's value's (pmu-facts 10.3).  lattop must say so.
 */
static void test_silvermont_gap(void **state)
{
	struct perfdev_counts a, b, ref;
	struct kern k;
	int fa, fb, fref;

	(void)state;
	kern_up(&k, "silvermont", "cpus = 4\n");
	fref = open_on(&k, raw(0x01b7, 0x10001), 2, -1);        /* another module, alone */
	fa = open_on(&k, raw(0x01b7, 0x10001), 0, -1);
	fb = open_on(&k, raw(0x01b7, 0x0400000001ULL), 1, -1); /* CPU 0's module partner */
	k.clk.t += 1.0;
	a = rd(&k, fa);
	b = rd(&k, fb);
	ref = rd(&k, fref);
	assert_int_equal(a.running, a.enabled);
	assert_int_equal(b.running, b.enabled);
	assert_true(ref.value[0] > 0);
	assert_int_not_equal(a.value[0], ref.value[0]);          /* corrupted, unknown to the kernel */
	kern_down(&k);
}

/*
 * The HT erratum (Haswell, SMT on): 0xd0 keeps counter k to itself across
 * the siblings, so the simulated erratum never halves its count, even
 * with the sibling's counters full; it multiplexes instead.
 */
static void test_ht_exclusive(void **state)
{
	struct perfdev_counts c;
	struct kern k;
	int f;

	(void)state;
	kern_up(&k, "haswell", hsw_prof);
	f = open_on(&k, raw(0x81d0, 0), 0, -1);
	for (int i = 0; i < 4; i++)
		open_on(&k, raw(0x01b0, 0), 2, -1);     /* OFFCORE_REQUESTS on the sibling */
	k.clk.t += 2.0;
	c = rd(&k, f);
	assert_true(c.running > 0);
	near((double)c.value[0] * (double)c.enabled / (double)c.running, 1e8 * 2.0, 0.01,
	     "scaled loads beside a busy sibling");
	kern_down(&k);
}

/*
 * The NMI watchdog holds FIXED_CTR1 (pinned cycles): lattop's cycles go
 * to a general counter and still count everything; another perf user's
 * events make the kernel multiplex, and scaling still gives the truth.
 */
static void test_other_users(void **state)
{
	struct perfdev_counts c;
	struct kern k;
	int cyc, fd[4];
	char buf[16];

	(void)state;
	kern_up(&k, "haswell", "cpus = 2\nthreads_per_core = 1\nghz = 2\nloads_per_sec = 1e8\n"
		"perf_nmi_watchdog = 1\ncpu1.perf_other_events = 3\n");
	cyc = open_on(&k, raw(0x003c, 0), 0, -1);
	k.clk.t += 1.0;
	c = rd(&k, cyc);
	assert_int_equal(c.running, c.enabled);
	near((double)c.value[0], 2e9, 1e-6, "cycles beside the watchdog");
	assert_true(k.dev->ops->file(k.dev, "/proc/sys/kernel/nmi_watchdog", buf, sizeof(buf)) > 0);
	assert_int_equal(atoi(buf), 1);
	for (int i = 0; i < 4; i++)
		fd[i] = open_on(&k, raw(0x81d0, 0), 1, -1);
	k.clk.t += 2.0;
	for (int i = 0; i < 4; i++) {
		c = rd(&k, fd[i]);
		assert_true(c.running < c.enabled);
		near((double)c.value[0] * (double)c.enabled / (double)c.running, 2e8, 0.01,
		     "scaled loads beside another perf user");
	}
	kern_down(&k);
}

/* Groups: counted together or not at all; read at once; a pinned one that cannot fit is in error. */
static void test_groups(void **state)
{
	uint64_t fmt = PERF_FORMAT_GROUP | TIMES | PERF_FORMAT_ID;
	struct perf_event_attr a = raw(0x003c, 0);
	struct perfdev_counts c;
	struct kern k;
	int lead, fd;
	uint64_t b[2];

	(void)state;
	kern_up(&k, "haswell", "cpus = 2\nthreads_per_core = 1\nghz = 2\nloads_per_sec = 1e8\n");
	a.read_format = fmt;
	a.disabled = 1;
	lead = open_on(&k, a, 0, -1);
	a.disabled = 0;
	a.config = 0x81d0;
	fd = open_on(&k, a, 0, lead);
	k.clk.t += 1.0;
	assert_int_equal(perfdev_read_counts(k.dev, lead, fmt, &c), 0);
	assert_int_equal(c.nr, 2);
	assert_int_equal(c.value[0], 0);                /* disabled: nothing counted */
	assert_int_equal(c.enabled, 0);
	assert_int_equal(perfdev_ioctl(k.dev, lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	k.clk.t += 1.0;
	assert_int_equal(perfdev_read_counts(k.dev, fd, fmt, &c), 0);
	near((double)c.value[0], 2e9, 1e-6, "group cycles");
	near((double)c.value[1], 1e8, 1e-6, "group loads");
	assert_int_not_equal(c.id[0], c.id[1]);
	/* RESET zeroes the values, not the times */
	assert_int_equal(perfdev_ioctl(k.dev, lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP), 0);
	assert_int_equal(perfdev_read_counts(k.dev, lead, fmt, &c), 0);
	assert_int_equal(c.value[0] + c.value[1], 0);
	assert_int_equal(c.enabled, 1000000000);
	/* a read too small: ENOSPC */
	assert_int_equal(k.dev->ops->read(k.dev, lead, b, sizeof(b)), -ENOSPC);
	/* a pinned group of five general events cannot fit four counters: error, read 0 bytes */
	{
		struct perf_event_attr p = raw(0x81d0, 0);
		int pl;

		p.pinned = 1;
		pl = open_on(&k, p, 1, -1);
		p.pinned = 0;
		for (int i = 0; i < 4; i++)
			open_on(&k, p, 1, pl);
		k.clk.t += 0.1;
		assert_int_equal(k.dev->ops->read(k.dev, pl, b, sizeof(b)), 0);
		assert_int_equal(perfdev_read_counts(k.dev, pl, TIMES, &c), -ENODATA);
	}
	kern_down(&k);
}

/* The errors the kernel answers (pmu-facts 10.1, 10.2, 10.7). */
static void test_errors(void **state)
{
	struct perf_event_attr a = raw(0x01cd, 32);
	struct kern k;
	int fd, lead;

	(void)state;
	kern_up(&k, "haswell", "cpus = 2\nthreads_per_core = 1\n");
	/* load latency as a counting event: precise_ip needs a sampling one */
	a.precise_ip = 1;
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -EINVAL);
	a.sample_period = 1000000;
	a.precise_ip = 3;                               /* Haswell's most is 2 */
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -EOPNOTSUPP);
	a.precise_ip = 1;
	a.config1 = 0x10000;                            /* the threshold is 16 bits */
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -EINVAL);
	a = raw(0x3c, 0);
	a.type = PERF_TYPE_HARDWARE;                    /* only the core PMU is simulated */
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -ENOENT);
	a = raw(0x3c, 0);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, -1, -1, 0), -EINVAL);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 2, -1, 0), -EINVAL);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, 12345, 0), -EBADF);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 1UL << 20), -EINVAL);
	assert_int_equal(perfdev_open_event(k.dev, &a, 0, 0, -1, 0), -EOPNOTSUPP);
	a.size = 16;
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -E2BIG);
	a.size = sizeof(a);
	/* a member on another CPU than its leader; a group larger than the counters */
	lead = open_on(&k, a, 0, -1);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 1, lead, 0), -EINVAL);
	for (int i = 0; i < 6; i++)
		open_on(&k, a, 0, lead);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, lead, 0), -EINVAL);
	/* a closed descriptor; a period for a counting event */
	fd = open_on(&k, a, 1, -1);
	assert_int_equal(perfdev_ioctl(k.dev, fd, PERF_EVENT_IOC_PERIOD, 0), -EINVAL);
	assert_int_equal(perfdev_close_event(k.dev, fd), 0);
	assert_int_equal(perfdev_close_event(k.dev, fd), -EBADF);
	assert_int_equal(perfdev_ioctl(k.dev, fd, PERF_EVENT_IOC_ENABLE, 0), -EBADF);
	kern_down(&k);
}

/* @fd as a test wants it: 0 any descriptor, else that negative errno. */
static bool as_wanted(int fd, int want)
{
	return want == 0 ? fd >= 0 : fd == want;
}

/* What the paranoid level of profile @prof lets nobody open (struct paranoid_case). */
struct paranoid_case {
	const char *prof;
	int want_cpu;           /* a CPU event counting the kernel too */
	int want_user;          /* one of user space only */
};

static void nobody_opens(void *arg)
{
	const struct paranoid_case *pc = arg;
	struct perf_event_attr a = raw(0x3c, 0);
	struct kern k;

	kern_up(&k, "haswell", pc->prof);
	if (!as_wanted(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), pc->want_cpu))
		_exit(4);
	a.exclude_kernel = 1;
	if (!as_wanted(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), pc->want_user))
		_exit(5);
}

static void nobody(const char *prof, int want_cpu, int want_user)
{
	struct paranoid_case pc = { prof, want_cpu, want_user };

	as_nobody(nobody_opens, &pc);
}

static void test_paranoid(void **state)
{
	(void)state;
	/* 2, the default: no CPU event without CAP_PERFMON, whatever the rings */
	nobody("cpus = 2\n", -EACCES, -EACCES);
	/* 1: no CPU event either; 0 and -1: CPU events for anyone */
	nobody("cpus = 2\nperf_event_paranoid = 1\n", -EACCES, -EACCES);
	nobody("cpus = 2\nperf_event_paranoid = 0\n", 0, 0);
	nobody("cpus = 2\nperf_event_paranoid = -1\n", 0, 0);
	/* 3, Debian's: EACCES for every open without CAP_SYS_ADMIN */
	nobody("cpus = 2\nperf_event_paranoid = 3\n", -EACCES, -EACCES);
}

/* RLIMIT_NOFILE bounds the events: EMFILE past it. */
static void emfile(void *arg)
{
	struct rlimit rl = { 24, 24 };
	struct perf_event_attr a = raw(0x3c, 0);
	struct kern k;
	int fd = 0, n = 0;

	(void)arg;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		_exit(3);
	kern_up(&k, "haswell", "cpus = 2\n");
	while (n < 100 && (fd = perfdev_open_event(k.dev, &a, -1, n % 2, -1, 0)) >= 0)
		n++;
	_exit(fd == -EMFILE && n > 0 && n < 24 ? 0 : 4);
}

static void test_emfile(void **state)
{
	(void)state;
	in_child(emfile, NULL, false);
}

/* What the kernel's files say: the PMU, its formats, the paranoid level. */
static void test_files(void **state)
{
	struct perfdev_pmu pmu;
	struct kern k;
	int level;

	(void)state;
	kern_up(&k, "skylake", "cpus = 2\nperf_event_paranoid = 1\n");
	assert_int_equal(perfdev_core_pmu(k.dev, &pmu), 0);
	assert_true(pmu.present);
	assert_int_equal(pmu.type, PERF_TYPE_RAW);
	assert_string_equal(pmu.name, "skylake");
	assert_true(pmu.ldlat && pmu.offcore_rsp);
	assert_int_equal(perfdev_paranoid(k.dev, &level), 0);
	assert_int_equal(level, 1);
	kern_down(&k);
	/* the Atoms: offcore_rsp, no ldlat (slm_format_attr) */
	kern_up(&k, "goldmont", "cpus = 2\n");
	assert_int_equal(perfdev_core_pmu(k.dev, &pmu), 0);
	assert_string_equal(pmu.name, "goldmont");
	assert_true(pmu.offcore_rsp && !pmu.ldlat);
	assert_int_equal(perfdev_paranoid(k.dev, &level), 0);
	assert_int_equal(level, 2);
	kern_down(&k);
}

/* Is @sim's part hybrid (CPUID.7.0:EDX[15])? */
static bool sim_is_hybrid(const struct sim *sim)
{
	uint32_t r[4];

	sim_cpuid(sim, 7, 0, r);
	return r[3] & (1u << 15);
}

/*
 * A hybrid part (Alder Lake, P:2,E:2): no "cpu" PMU, but cpu_core
 * (PERF_TYPE_RAW) over CPUs 0-1 and cpu_atom (a type of its own) over
 * 2-3, as the kernel registers them (init_hw_perf_events).  An event of
 * one opened on a CPU of the other is ENOENT (x86_pmu_event_init): a
 * lattop that opened the wrong type would fail here.  Each counts the
 * truth on its own CPUs, each with its type's constraints: three PEBS
 * load-latency events fit together on a P-core (0x1cd on PMC1-7), on an
 * E-core two at a time (0x5d0 on PMC0-1), so there they take turns; the
 * P-core's demands the 0x03/0x82 leader when it samples the data source,
 * the E-core's not.  With perf_pmu_swap the kernel lists a CPU under the
 * other PMU, its cpus files say so, and it opens there.
 */
/* Cycles on E-core @ecpu through cpu_atom (@atom_type), P-core @pcpu through cpu_core. */
static void cycles_each_type(struct kern *k, unsigned atom_type, int ecpu, int pcpu)
{
	struct perf_event_attr a = raw(0x003c, 0);
	int fd[2];

	a.type = atom_type;
	fd[0] = open_on(k, a, ecpu, -1);
	a.type = PERF_TYPE_RAW;
	fd[1] = open_on(k, a, pcpu, -1);
	k->clk.t += 1.0;
	near((double)rd(k, fd[0]).value[0], 2e9, 1e-6, "cycles on cpu_atom");
	near((double)rd(k, fd[1]).value[0], 2e9, 1e-6, "cycles on cpu_core");
	perfdev_close_event(k->dev, fd[0]);
	perfdev_close_event(k->dev, fd[1]);
}

/*
 * Lunar Lake's lunarlake_hybrid: version 6, so the kernel programs the
 * version 6 range (the simulator has no legacy counter address there, a
 * count proves it); Lion Cove's load latency on PMC2-7 of the simulated 8
 * (0x3fc), so seven such events share six counters, where Meteor Lake's
 * 0xfe would give seven; and no auxiliary event for sampling.
 */
static void test_lunarlake(void **state)
{
	static const char prof[] = "core_types = P:2,E:2\nghz = 2\nbusy = 1\n"
				   "loads_per_sec = 1e8\nldlat_tagged_fraction = 1\n";
	struct perfdev_pmu core, atom;
	struct perf_event_attr l = raw(0x01cd, 32);
	struct perfdev_counts c;
	int fd[9];
	struct kern k;

	(void)state;
	kern_up(&k, "lunarlake", prof);
	assert_int_equal(perfdev_pmu_read(k.dev, "cpu_core", &core), 0);
	assert_int_equal(perfdev_pmu_read(k.dev, "cpu_atom", &atom), 0);
	assert_string_equal(core.name, "lunarlake_hybrid");
	assert_string_equal(atom.name, "lunarlake_hybrid");
	cycles_each_type(&k, atom.type, 3, 0);
	l.precise_ip = 1;
	l.sample_period = 1ULL << 40;
	/* Nine load-latency events on PMC2-9, leaf 0x23.1's ten counters: eight at a time. */
	for (int i = 0; i < 9; i++)
		fd[i] = open_on(&k, l, 0, -1);
	k.clk.t += 1.0;
	for (int i = 0; i < 9; i++) {
		c = rd(&k, fd[i]);
		near((double)c.running / (double)c.enabled, 8.0 / 9, 0.05, "P-core ldlat");
		assert_true(c.value[0] > 0);
		perfdev_close_event(k.dev, fd[i]);
	}
	/* sampling with its data source: no auxiliary event asked */
	l.sample_period = 1000;
	l.sample_type = PERF_SAMPLE_DATA_SRC;
	fd[0] = open_on(&k, l, 0, -1);
	perfdev_close_event(k.dev, fd[0]);
	kern_down(&k);
}

static void test_hybrid(void **state)
{
	static const char prof[] = "core_types = P:2,E:2\nghz = 2\nbusy = 1\n"
				   "loads_per_sec = 1e8\nldlat_tagged_fraction = 1\n";
	struct perfdev_pmu pmu, core, atom;
	struct perf_event_attr a = raw(0x003c, 0), l;
	char buf[64];
	int fd[4];
	struct kern k;

	(void)state;
	kern_up(&k, "alderlake", prof);
	assert_int_equal(perfdev_core_pmu(k.dev, &pmu), 0);
	assert_false(pmu.present);
	assert_int_equal(perfdev_pmu_read(k.dev, "cpu_core", &core), 0);
	assert_int_equal(perfdev_pmu_read(k.dev, "cpu_atom", &atom), 0);
	assert_true(core.present && core.has_cpus && atom.present && atom.has_cpus);
	assert_int_equal(core.type, PERF_TYPE_RAW);
	assert_true(atom.type != PERF_TYPE_RAW && atom.type >= PERF_TYPE_MAX);
	assert_string_equal(core.name, "alderlake_hybrid");
	assert_string_equal(atom.name, "alderlake_hybrid");
	assert_true(core.ldlat && atom.ldlat);
	assert_int_equal(k.dev->ops->file(k.dev, "/sys/bus/event_source/devices/cpu_core/cpus", buf,
					  sizeof(buf)), 4);
	assert_string_equal(buf, "0-1\n");
	assert_int_equal(k.dev->ops->file(k.dev, "/sys/bus/event_source/devices/cpu_atom/cpus", buf,
					  sizeof(buf)), 4);
	assert_string_equal(buf, "2-3\n");
	/* the wrong PMU for the CPU: ENOENT either way */
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 2, -1, 0), -ENOENT);
	a.type = atom.type;
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -ENOENT);
	a.type = PERF_TYPE_MAX + 40;
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 0, -1, 0), -ENOENT);
	/* the right one counts the truth */
	cycles_each_type(&k, atom.type, 3, 1);
	/* three load-latency events: all on at once on the P-core, two of three on the E-core */
	for (int cpu = 0; cpu < 4; cpu += 3) {
		struct perfdev_counts c;

		l = raw(cpu ? 0x05d0 : 0x01cd, 32);
		l.type = cpu ? atom.type : PERF_TYPE_RAW;
		l.precise_ip = 1;
		l.sample_period = 1ULL << 40;
		for (int i = 0; i < 3; i++)
			fd[i] = open_on(&k, l, cpu, -1);
		k.clk.t += 1.0;
		for (int i = 0; i < 3; i++) {
			c = rd(&k, fd[i]);
			if (cpu)
				near((double)c.running / (double)c.enabled, 2.0 / 3, 0.05,
				     "E-core ldlat");
			else
				assert_true(c.running == c.enabled && c.value[0] > 0);
			perfdev_close_event(k.dev, fd[i]);
		}
	}
	/* the P-core's sampling load latency needs its leader (MEM_LOADS_AUX), the E-core's not */
	l = raw(0x01cd, 32);
	l.precise_ip = 1;
	l.sample_period = 1000;
	l.sample_type = PERF_SAMPLE_DATA_SRC;
	assert_int_equal(perfdev_open_event(k.dev, &l, -1, 0, -1, 0), -ENODATA);
	a = raw(0x8203, 0);
	fd[0] = open_on(&k, a, 0, -1);
	fd[1] = open_on(&k, l, 0, fd[0]);
	perfdev_close_event(k.dev, fd[1]);
	perfdev_close_event(k.dev, fd[0]);
	l.config = 0x05d0;
	l.type = atom.type;
	perfdev_close_event(k.dev, open_on(&k, l, 2, -1));
	kern_down(&k);

	/* A kernel that lists CPU 1 (a P-core by CPUID) under cpu_atom: its files say so. */
	kern_up(&k, "alderlake", "core_types = P:2,E:2\ncpu1.perf_pmu_swap = 1\nghz = 2\n");
	assert_int_equal(perfdev_pmu_read(k.dev, "cpu_core", &core), 0);
	assert_int_equal(perfdev_pmu_read(k.dev, "cpu_atom", &atom), 0);
	assert_int_equal(core.ncpu, 1);
	assert_int_equal(atom.ncpu, 3);
	assert_true(core.cpus[0] == 0x1 && atom.cpus[0] == 0xe);
	a = raw(0x003c, 0);
	assert_int_equal(perfdev_open_event(k.dev, &a, -1, 1, -1, 0), -ENOENT);
	a.type = atom.type;
	perfdev_close_event(k.dev, open_on(&k, a, 1, -1));
	kern_down(&k);
}

/* Every simulated microarchitecture has a PMU in the simulated kernel. */
static void test_every_uarch(void **state)
{
	const char *name;

	(void)state;
	for (size_t i = 0; (name = sim_uarch_name(i)); i++) {
		struct perf_event_attr a = raw(0x003c, 0);
		struct perfdev_pmu pmu;
		struct kern k;
		int fd;

		kern_up(&k, name, "cpus = 2\nghz = 2\n");
		if (sim_is_hybrid(k.sim)) {
			/* a PMU per core type: cpu_core, PERF_TYPE_RAW, on CPU 0 (the P-core) */
			assert_int_equal(perfdev_core_pmu(k.dev, &pmu), 0);
			assert_false(pmu.present);
			assert_int_equal(perfdev_pmu_read(k.dev, "cpu_core", &pmu), 0);
			assert_true(pmu.present && pmu.type == PERF_TYPE_RAW);
			fd = open_on(&k, a, 0, -1);
			k.clk.t += 1.0;
			near((double)rd(&k, fd).value[0], 2e9, 1e-6, name);
			kern_down(&k);
			continue;
		}
		assert_int_equal(perfdev_core_pmu(k.dev, &pmu), 0);
		assert_true(pmu.present);
		fd = open_on(&k, a, 1, -1);
		k.clk.t += 1.0;
		near((double)rd(&k, fd).value[0], 2e9, 1e-6, name);
		kern_down(&k);
	}
}

/*
 * Version 5 (Ice Lake, Sapphire Rapids): the kernel sets PEBS_EN alone for
 * load latency (K612 intel_pmu_pebs_enable sets LL_EN below version 5
 * only); bit 32 + k would turn PEBS on for fixed counter k.  The load
 * latency event counts its truth, and no fixed counter's PEBS was ever
 * enabled (the simulator counts such writes).
 */
static void test_ldlat_version5(void **state)
{
	static const char *const v5[] = { "icelake", "sapphirerapids" };

	(void)state;
	for (size_t i = 0; i < sizeof(v5) / sizeof(v5[0]); i++) {
		struct perf_event_attr a = raw(0x01cd, 32);
		const struct sim_profile *prof;
		struct sim_stats st;
		struct kern k;
		int fd;

		kern_up(&k, v5[i], hsw_prof);
		prof = sim_profile_of(k.sim);
		a.precise_ip = 1;
		a.sample_period = 0x7fffffff;
		fd = open_on(&k, a, 0, -1);
		k.clk.t += 0.5;
		near((double)rd(&k, fd).value[0], 1e8 * 0.5 * sim_profile_above(prof, 0, 32), 1e-6,
		     v5[i]);
		sim_get_stats(k.sim, &st);
		assert_int_equal(st.pebs_fixed_enabled, 0);
		kern_down(&k);
	}
}

/* The TIDs of the samples in @map's ring (sample_type TID | ADDR), counted by thread 78 and 79. */
struct tid_count {
	int n78, n79, other;
};

static void count_tid(void *arg, const struct perf_event_header *h, size_t len)
{
	struct tid_count *c = arg;
	struct perf_sample smp;

	if (h->type != PERF_RECORD_SAMPLE ||
	    perf_sample_parse(h, len, PERF_SAMPLE_TID | PERF_SAMPLE_ADDR, &smp) < 0)
		return;
	if (smp.pid == 77 && smp.tid == 78)
		c->n78++;
	else if (smp.pid == 77 && smp.tid == 79)
		c->n79++;
	else
		c->other++;
}

/*
 * Per-task events (--pid): a thread's event samples that thread only, and
 * only on the CPU it runs on (there alone is it enabled); rings shared with
 * PERF_EVENT_IOC_SET_OUTPUT within a CPU; the tasks are the profile's, and
 * a process is gone after its exit=.
 */
static void test_tasks(void **state)
{
	struct kern k;
	struct perf_event_attr a = raw(0x01cd, 100);
	struct perf_ring ring;
	struct tid_count c = { 0, 0, 0 };
	size_t len = 9 * PERFDEV_PAGE;
	int fd78, fd79, other, tids[8];
	void *map;

	(void)state;
	/* 4 CPUs, no HT: threads 78 and 4242's 4246 on CPU 2, 79 on CPU 3 */
	kern_up(&k, "skylake", "cpus = 4\nthreads_per_core = 1\nldlat_tagged_fraction = 1\n"
		"line = 0x7f3a00001000 worker 4242 400000 4246:w@0 4245:w@8\n"
		"line = 0x7f3a00002000 db 77 400000 78:w@0 79:w@0 exit=2\n");
	assert_int_equal(perfdev_tasks(k.dev, 77, tids, 8), 3);
	assert_int_equal(tids[0], 77);
	assert_int_equal(tids[1] + tids[2], 78 + 79);
	assert_int_equal(perfdev_tasks(k.dev, 78, tids, 8), -ESRCH);   /* a thread, not a process */
	assert_int_equal(perfdev_tasks(k.dev, 5, tids, 8), -ESRCH);
	a.sample_period = 1000;
	a.precise_ip = 2;
	a.inherit = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR;
	assert_int_equal(perfdev_open_event(k.dev, &a, 5, 0, -1, 0), -ESRCH);
	assert_int_equal(perfdev_open_event(k.dev, &a, 78, -1, -1, 0), -EOPNOTSUPP);
	assert_int_equal(perfdev_open_event(k.dev, &a, 0, 0, -1, 0), -EOPNOTSUPP);
	/* thread 78's event on CPU 2 with a ring; thread 79's on CPU 2 into it; 78's on CPU 0 */
	fd78 = perfdev_open_event(k.dev, &a, 78, 2, -1, 0);
	fd79 = perfdev_open_event(k.dev, &a, 79, 2, -1, 0);
	other = perfdev_open_event(k.dev, &a, 78, 0, -1, 0);
	assert_true(fd78 >= 0 && fd79 >= 0 && other >= 0);
	assert_int_equal(perfdev_mmap(k.dev, fd78, len, &map), 0);
	assert_int_equal(perfdev_ioctl(k.dev, other, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)fd78),
			 -EINVAL);                              /* another CPU */
	assert_int_equal(perfdev_ioctl(k.dev, fd78, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)fd79),
			 -EBUSY);                               /* a ring of its own */
	assert_int_equal(perfdev_ioctl(k.dev, fd79, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)fd78), 0);
	k.clk.t += 1;
	/* on CPU 2 thread 78 runs all the time; on CPU 0 it never does */
	near((double)rd(&k, fd78).enabled, 1e9, 0.001, "78 on CPU 2: enabled");
	near((double)rd(&k, fd78).running, 1e9, 0.001, "78 on CPU 2: running");
	assert_int_equal(rd(&k, other).enabled, 0);
	assert_int_equal(rd(&k, fd79).enabled, 0);     /* 79 runs on CPU 3 */
	assert_int_equal(perf_ring_init(&ring, map, len, PERFDEV_PAGE), 0);
	perf_ring_drain(&ring, count_tid, &c);
	/* 78's loads: 400000/2 a second at a period of 1000: 200, and nothing of anyone else */
	assert_int_equal(c.n78, 200);
	assert_int_equal(c.n79, 0);
	assert_int_equal(c.other, 0);
	/* after exit=2 the process is gone, and its threads sample nothing */
	k.clk.t += 1.5;
	assert_int_equal(perfdev_tasks(k.dev, 77, tids, 8), -ESRCH);
	c.n78 = 0;
	rd(&k, fd78);
	perf_ring_drain(&ring, count_tid, &c);
	assert_int_equal(c.n78, 200);                   /* up to the exit, one second more */
	assert_int_equal(perfdev_open_event(k.dev, &a, 78, 2, -1, 0), -ESRCH);
	perfdev_munmap(k.dev, fd78, map, len);
	perfdev_close_event(k.dev, fd79);
	perfdev_close_event(k.dev, fd78);
	perfdev_close_event(k.dev, other);
	kern_down(&k);
}

/*
 * A simulator slower than the time it simulates (valgrind, many CPUs):
 * the clock here charges, at each of its reads, RHO times the machine's
 * time simulated since the last read (the machine's clock, sk_clock, is
 * the sim's).  Each read then had the cost of the one before it to
 * simulate, RHO times longer: the catch-ups grew without end (the bench's
 * callgrind run of 8 CPUs never ended).  The machine's time must follow
 * lattop's own time instead, at most twice it, and what it counts in that
 * time must be what one read after the same time counts: the same times
 * to the nanosecond, each count within one event of it.
 */
#define RHO 3.0

struct slow_clk {
	double t, sim_last;
	struct sim *sim;        /* once the kernel is open: charge its machine's time */
};

static double slow_now(void *arg)
{
	struct slow_clk *c = arg;

	if (c->sim) {
		double (*now)(void *), v;
		void *a;

		sim_get_clock(c->sim, &now, &a);
		v = now(a);
		c->t += RHO * fmax(0, v - c->sim_last);
		c->sim_last = v;
		if (c->t > 1e4)
			fail_msg("the clock ran to %g s: each catch-up simulated the last one's cost", c->t);
	}
	return c->t;
}

static void test_slow_simulator(void **state)
{
	const char *prof = "cpus = 2\nthreads_per_core = 1\nghz = 2\nloads_per_sec = 1e8\n";
	struct slow_clk sc = { .t = 100 };
	struct kern k, one;
	struct perfdev_counts a[6], b[6];
	int fd[6], fd1[6];
	char err[256];
	struct sim_profile *p;

	(void)state;
	p = sim_profile_parse(prof, strlen(prof), "t.prof", err, sizeof(err));
	assert_non_null(p);
	k.sim = sim_new("haswell", p, err, sizeof(err));
	sim_profile_free(p);
	assert_non_null(k.sim);
	sim_set_clock(k.sim, slow_now, &sc);
	k.dev = sim_kernel_open(k.sim, err, sizeof(err));
	assert_non_null(k.dev);
	for (int i = 0; i < 6; i++)
		fd[i] = open_on(&k, raw(0x81d0, 0), 1, -1);
	sc.sim_last = sc.t;
	sc.sim = k.sim;
	/* lattop's own time: 1 ms between reads, 0.2 s in all */
	for (int n = 0; n < 200; n++) {
		sc.t += 0.001;
		a[n % 6] = rd(&k, fd[n % 6]);
	}
	for (int i = 0; i < 6; i++)
		a[i] = rd(&k, fd[i]);
	assert_true(a[0].enabled >= 200000000 && a[0].enabled <= 400000000 + 4000000);
	/* the same machine time in one read, on the plain clock */
	kern_up(&one, "haswell", prof);
	for (int i = 0; i < 6; i++)
		fd1[i] = open_on(&one, raw(0x81d0, 0), 1, -1);
	one.clk.t += (double)a[0].enabled / 1e9;
	for (int i = 0; i < 6; i++) {
		b[i] = rd(&one, fd1[i]);
		assert_int_equal(b[i].enabled, a[i].enabled);
		assert_int_equal(b[i].running, a[i].running);
		assert_true(llabs((long long)(b[i].value[0] - a[i].value[0])) <= 1);
	}
	kern_down(&one);
	sc.sim = NULL;
	kern_down(&k);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ldlat_version5),
		cmocka_unit_test(test_truth),
		cmocka_unit_test(test_ldlat_multiplexed),
		cmocka_unit_test(test_multiplexing),
		cmocka_unit_test(test_offcore_alt),
		cmocka_unit_test(test_offcore_shared_refused),
		cmocka_unit_test(test_silvermont_gap),
		cmocka_unit_test(test_ht_exclusive),
		cmocka_unit_test(test_other_users),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_paranoid),
		cmocka_unit_test(test_emfile),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_every_uarch),
		cmocka_unit_test(test_hybrid),
		cmocka_unit_test(test_lunarlake),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_slow_simulator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
