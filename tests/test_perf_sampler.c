/*
 * test_perf_sampler.c: the perf backend's tick (engine/perf_sampler.c).
 *
 * On the simulated kernel over the simulated PMU: every unit of a plan
 * opened as one group per CPU, the counts of an interval and the time
 * each unit ran in struct sample_cpu, so that count / run_s is the
 * profile's truth whatever the kernel multiplexed, and the shares say how
 * long each ran.  On a device of the test's own: a cgroup's events, whose
 * time_enabled is only the time its tasks were on the CPU, give rates per
 * second of the interval, not per second the cgroup ran; a cgroup that
 * never ran on a CPU did nothing there.
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

#include <cmocka.h>

#include "cpu/uarch.h"
#include "engine/perf_sampler.h"
#include "sim/sim.h"

/* Haswell, one thread per core, every load tagged. */
static const char prof_text[] =
	"cpus = 2\nthreads_per_core = 1\nghz = 2\nloads_per_sec = 1e8\n"
	"ldlat_tagged_fraction = 1\nperf_other_events = 2\n";

static void plan_for(struct plan *pl, const char *uarch, const unsigned *thr, int nthr)
{
	const struct uarch *u = uarch_by_name(uarch);
	struct plan_resources res = {
		.ngp = 4, .nfixed = 3, .gp_free = 0xf, .fixed_free = 0x7, .rsp_free = 0x3,
		.ldlat_free = true, .packages = 1,
	};
	char err[256];

	assert_non_null(u);
	if (plan_build(pl, u, &res, thr, nthr, err, sizeof(err)) < 0)
		fail_msg("plan: %s", err);
}

/*
 * Beside another perf user's two events, the plan's units multiplex:
 * count / run_s is still each truth, and the shares are below one.
 */
static void test_sim_truth(void **state)
{
	static const unsigned thr[] = { 8, 64 };
	static const int cpus[] = { 0, 1 };
	volatile sig_atomic_t stop = 0;
	struct sim_profile *p;
	struct perf_sampler s;
	struct perfdev *dev;
	struct plan pl;
	struct sim *sim;
	char err[512];
	int ui;

	(void)state;
	p = sim_profile_parse(prof_text, strlen(prof_text), "t.prof", err, sizeof(err));
	assert_non_null(p);
	sim = sim_new("haswell", p, err, sizeof(err));
	sim_profile_free(p);
	assert_non_null(sim);
	dev = sim_kernel_open(sim, err, sizeof(err));
	assert_non_null(dev);
	plan_for(&pl, "haswell", thr, 2);
	if (perf_sampler_start(&s, dev, &pl, cpus, NULL, 2, -1, err, sizeof(err)) < 0)
		fail_msg("start: %s", err);
	assert_int_equal(perf_sampler_interval(&s, 0.3, &stop, err, sizeof(err)), 0);
	for (int i = 0; i < 2; i++) {
		const struct sample_cpu *c = &s.cpu[i];

		assert_true(c->ok);
		assert_true(c->interval_s >= 0.3 && c->interval_s < 0.6);
		ui = pl.unit_of[M_CYCLES];
		assert_true(ui >= 0);
		assert_true(fabs(c->acc[ui].count[0] / c->acc[ui].run_s - 2e9) < 2e9 * 1e-3);
		ui = pl.unit_of[M_LOADS];
		assert_true(ui >= 0);
		assert_true(c->acc[ui].run_s < c->interval_s);       /* multiplexed */
		assert_true(fabs(c->acc[ui].count[0] / c->acc[ui].run_s - 1e8) < 1e8 * 1e-3);
	}
	ui = pl.unit_of[M_LOADS];
	assert_true(s.share[ui] > 0 && s.share[ui] < 1);
	/* the kernel adds no group after one that did not fit, fixed counters or not */
	assert_true(s.share[pl.unit_of[M_INSTRUCTIONS]] > 0 && s.share[pl.unit_of[M_INSTRUCTIONS]] <= 1);
	assert_true(s.tsc_hz > 1.9e9 && s.tsc_hz < 2.1e9);
	perf_sampler_free(&s);
	perfdev_close(dev);
	sim_free(sim);
}

/* ---- a device of the test's own, for a cgroup's times ---- */

static uint64_t fake_enabled, fake_running, fake_value;
static int fake_opens, fake_cgroup_opens;
static int fake_members[256];          /* by descriptor - 100: a leader's group size */

static int fake_open(struct perfdev *d, const struct perf_event_attr *a, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	(void)d, (void)a, (void)cpu, (void)group_fd;
	if (flags & PERF_FLAG_PID_CGROUP) {
		assert_int_equal(pid, 77);      /* the cgroup's descriptor as pid */
		fake_cgroup_opens++;
	}
	assert_true(fake_opens < 256);
	fake_members[fake_opens] = 1;
	if (group_fd >= 0)
		fake_members[group_fd - 100]++;
	return 100 + fake_opens++;
}

/* Every group answers: its members' values are fake_value, its times the fake ones. */
static ssize_t fake_read(struct perfdev *d, int fd, void *buf, size_t len)
{
	uint64_t w[3 + 2] = { 0, fake_enabled, fake_running, fake_value, fake_value };
	size_t n;

	(void)d;
	w[0] = (uint64_t)fake_members[fd - 100];
	n = (3 + w[0]) * sizeof(uint64_t);
	if (len < n)
		return -ENOSPC;
	memcpy(buf, w, n);
	return (ssize_t)n;
}

static int fake_ioctl(struct perfdev *d, int fd, unsigned long r, unsigned long a)
{
	(void)d, (void)fd, (void)r, (void)a;
	return 0;
}

static int fake_close(struct perfdev *d, int fd)
{
	(void)d, (void)fd;
	return 0;
}

static int fake_file(struct perfdev *d, const char *path, char *buf, size_t len)
{
	(void)d, (void)path, (void)buf, (void)len;
	return -ENOENT;
}

static void fake_destroy(struct perfdev *d)
{
	(void)d;
}

static const struct perfdev_ops fake_ops = {
	.open = fake_open, .read = fake_read, .ioctl = fake_ioctl, .close = fake_close,
	.file = fake_file, .destroy = fake_destroy,
};

/*
 * A cgroup's events on a pair unit (two rows, one group): its tasks ran a
 * quarter of the interval on the CPU, and its events half of that: the
 * counts are scaled by enabled / running, per second of the interval.
 */
static void test_cgroup_times(void **state)
{
	static const unsigned thr[] = { 8 };
	static const int cpus[] = { 0 };
	struct perfdev dev = { .ops = &fake_ops, .kind = "fake" };
	volatile sig_atomic_t stop = 0;
	struct perf_sampler s;
	struct plan pl;
	char err[512];
	int ui;

	(void)state;
	plan_for(&pl, "haswell", thr, 1);
	ui = pl.unit_of[M_OFFCORE_READS];
	assert_true(ui >= 0 && pl.unit[ui].nrows == 2);
	fake_enabled = fake_running = fake_value = 0;
	if (perf_sampler_start(&s, &dev, &pl, cpus, NULL, 1, 77, err, sizeof(err)) < 0)
		fail_msg("start: %s", err);
	assert_true(fake_cgroup_opens > 0);
	assert_int_equal(fake_cgroup_opens, fake_opens);   /* every event a cgroup's: no TSC here */
	fake_enabled = 40000000;                           /* ns the cgroup's tasks ran here */
	fake_running = 20000000;
	fake_value = 1000;
	assert_int_equal(perf_sampler_interval(&s, 0.1, &stop, err, sizeof(err)), 0);
	{
		const struct sample_cpu *c = &s.cpu[0];
		double want = 1000.0 * 2 / c->interval_s;

		assert_true(c->ok);
		assert_true(fabs(c->acc[ui].run_s - c->interval_s * 0.5) < 1e-9);
		assert_true(fabs(c->acc[ui].count[1] / c->acc[ui].run_s - want) < want * 1e-9);
		assert_true(fabs(s.share[ui] - 0.5) < 1e-9);
	}
	/* the next interval the cgroup did not run here: nothing, at a rate of 0 */
	assert_int_equal(perf_sampler_interval(&s, 0.05, &stop, err, sizeof(err)), 0);
	assert_true(s.cpu[0].acc[ui].count[0] == 0);
	assert_true(s.cpu[0].acc[ui].run_s == s.cpu[0].interval_s);
	perf_sampler_free(&s);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_truth),
		cmocka_unit_test(test_cgroup_times),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
