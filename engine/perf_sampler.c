/*
 * perf_sampler.c: the perf_event_open(2) backend's tick (perf_sampler.h).
 *
 * Owns the descriptors, one group per plan unit per CPU, their last reads
 * and the deltas that become struct sample_cpu.  Rotation is the
 * kernel's: every unit stays open and the kernel multiplexes what does
 * not fit (pmu-facts 10.4: a read of a group costs about 1 us and opening
 * and closing 25 us, so letting the kernel rotate is far cheaper than
 * rotating thresholds from user space, which would also lose the counts
 * of every slot's first and last moments).
 *
 * One exception: a plan with twin slots (the HT bug with both threads of
 * a core measured, plan.h).  The kernel keeps an exclusive event off the
 * counters the sibling uses (intel_get_excl_constraints), and its
 * rotation cannot break the tie: the thread that scheduled first keeps
 * its counters at every one of its own rotations, and the sibling's
 * groups never run (the kernel's HT-workaround commit warns of this
 * starvation; the simulated kernel shows it: 15 of 32 simulated Haswell
 * CPUs ran no load-counting group in a whole interval).  There lattop
 * runs the plan's slots itself with PERF_EVENT_IOC_ENABLE and DISABLE:
 * each thread enables only what its parity runs in the slot, so siblings
 * never ask for more than the core has, and each group's time_running
 * says exactly how long it counted.  Does not print.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/perf_attr.h"
#include "engine/perf_sampler.h"

#define PERF_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
			  PERF_FORMAT_TOTAL_TIME_RUNNING)

/* The msr PMU's TSC event (arch/x86/events/msr.c: msr/tsc/ = event 0). */
#define PERF_MSR_PMU_TYPE "/sys/bus/event_source/devices/msr/type"

static struct perf_group *group(struct perf_sampler *s, int i, int u)
{
	return &s->grp[(size_t)i * PLAN_MAX_UNITS + (size_t)u];
}

/* The core type of CPU index @i (0 on a part that is not hybrid), and the plan it runs. */
static int type_of(const struct perf_sampler *s, int i)
{
	return s->types ? s->types->of[i] : 0;
}

static const struct plan *plan_of(const struct perf_sampler *s, int i)
{
	return plan_of_type(s->plan, type_of(s, i));
}

/* Does unit @u run in slot @si on a thread of parity @par (plan.h, twin slots)? */
static bool slot_runs(const struct plan *pl, int si, int par, int u)
{
	const struct plan_slot *sl = &pl->slot[si];

	if (pl->unit[u].fixed)
		return true;
	for (int k = 0; k < sl->nplace; k++)
		if (sl->place[k].unit == u)
			return !sl->place[k].excl || sl->excl_parity < 0 || sl->excl_parity == par;
	return false;
}

static int parity_of(const struct perf_sampler *s, int i)
{
	return s->parity ? s->parity[i] & 1 : 0;
}

/*
 * Move every CPU from slot @from to slot @to:
 * first disable on every CPU what stops, then enable what starts, so that
 * siblings never hold both slots' groups at once.
 */
_Static_assert(PLAN_MAX_UNITS <= 64, "a slot's units as a 64-bit mask");

static void slot_switch(struct perf_sampler *s, int from, int to)
{
	/*
	 * What changes depends on the CPU's core type and thread parity
	 * only: worked out once a switch for each, not for every CPU (it
	 * was half of lattop's own instructions on Haswell's twin slots).
	 */
	uint64_t change[CORE_TYPES_MAX][2] = { { 0 } }, will[CORE_TYPES_MAX][2] = { { 0 } };
	bool known[CORE_TYPES_MAX][2] = { { false } };

	for (int i = 0; i < s->ncpu; i++) {
		int t = type_of(s, i), par = parity_of(s, i);
		const struct plan *pl = plan_of(s, i);

		if (known[t][par])
			continue;
		known[t][par] = true;
		for (int u = 0; u < pl->nunits; u++) {
			bool a = slot_runs(pl, from, par, u), b = slot_runs(pl, to, par, u);

			change[t][par] |= (uint64_t)(a != b) << u;
			will[t][par] |= (uint64_t)b << u;
		}
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < s->ncpu; i++) {
			int t = type_of(s, i), par = parity_of(s, i);
			uint64_t m = change[t][par] & (pass ? will[t][par] : ~will[t][par]);

			for (; m; m &= m - 1) {
				struct perf_group *g = group(s, i, __builtin_ctzll(m));

				if (g->n)
					perfdev_ioctl(s->dev, g->fd[0], pass ? PERF_EVENT_IOC_ENABLE :
						      PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
			}
		}
	s->slot = to;
}

static void close_all(struct perf_sampler *s)
{
	for (int i = 0; s->grp && i < s->ncpu; i++)
		for (int u = 0; u < PLAN_MAX_UNITS; u++) {
			struct perf_group *g = group(s, i, u);

			for (int j = 1; j >= 0; j--)
				if (g->fd[j] >= 0)
					perfdev_close_event(s->dev, g->fd[j]);
			g->fd[0] = g->fd[1] = -1;
			g->n = 0;
		}
	if (s->tsc_fd >= 0)
		perfdev_close_event(s->dev, s->tsc_fd);
	s->tsc_fd = -1;
}

/* A plan unit's threshold, for its load-latency row; 0 for any other. */
static unsigned unit_ldlat(const struct plan *pl, const struct plan_unit *u)
{
	return u->thresh >= 0 ? pl->thresholds[u->thresh] : 0;
}

/* Open unit @u of the plan on CPU index @i as one group. */
static int open_unit(struct perf_sampler *s, int i, int u, char *err, size_t errlen)
{
	const struct plan *pl = plan_of(s, i);
	const struct plan_unit *pu = &pl->unit[u];
	struct perf_group *g = group(s, i, u);

	for (int j = 0; j < pu->nrows; j++) {
		struct perf_event_attr a;
		int fd;

		if (perf_attr_of(pu->row[j], unit_ldlat(pl, pu), &a) < 0) {
			snprintf(err, errlen, "%s: no perf encoding for threshold %u",
				 pu->row[j]->name, unit_ldlat(pl, pu));
			return -EINVAL;
		}
		/* A hybrid part: the PMU of the CPU's core type (pmu-facts 9.6). */
		if (s->types)
			a.type = s->types->pmu[type_of(s, i)];
		a.read_format = PERF_READ_FORMAT;
		/*
		 * Twin slots: a group opens enabled only where the first slot runs
		 * it, so that the kernel never holds more than a slot's groups
		 * (multiplexing them all meanwhile would be the starvation again).
		 */
		if (s->rotate && j == 0)
			a.disabled = !slot_runs(pl, 0, parity_of(s, i), u);
		fd = perfdev_open_event(s->dev, &a, s->cgroup_fd >= 0 ? s->cgroup_fd : -1, s->cpus[i],
					j ? g->fd[0] : -1, s->cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0);
		if (fd < 0) {
			snprintf(err, errlen, "perf_event_open(2) of %s (config 0x%llx, config1 "
				 "0x%llx) on cpu %d: %s", pu->row[j]->name,
				 (unsigned long long)a.config, (unsigned long long)a.config1,
				 s->cpus[i], strerror(-fd));
			return fd;
		}
		g->fd[j] = fd;
		g->n = j + 1;
	}
	return 0;
}

/* The TSC rate from the msr PMU, when the kernel has one: what ref-cycles are measured against. */
static void open_tsc(struct perf_sampler *s)
{
	struct perf_event_attr a;
	char buf[32];
	int fd;

	s->tsc_fd = -1;
	if (s->dev->ops->file(s->dev, PERF_MSR_PMU_TYPE, buf, sizeof(buf)) <= 0)
		return;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)strtoul(buf, NULL, 10);
	a.config = 0;           /* msr/tsc/ */
	fd = perfdev_open_event(s->dev, &a, -1, s->cpus[0], -1, 0);
	if (fd >= 0)
		s->tsc_fd = fd;
}

static int read_group(struct perf_sampler *s, struct perf_group *g, struct perfdev_counts *c)
{
	int r = perfdev_read_counts(s->dev, g->fd[0], PERF_READ_FORMAT, c);

	if (r == 0 && c->nr != g->n)
		r = -EIO;
	return r;
}

/* Take every group's counts as the start of the next interval. */
static void baseline(struct perf_sampler *s)
{
	struct perfdev_counts c;

	/* The TSC first, at the instant the interval starts: the groups' reads take time. */
	s->t_last = sampler_now();
	if (s->tsc_fd >= 0 && perfdev_read_counts(s->dev, s->tsc_fd, 0, &c) == 0)
		s->tsc_last = c.value[0];
	for (int i = 0; i < s->ncpu; i++)
		for (int u = 0; u < plan_of(s, i)->nunits; u++) {
			struct perf_group *g = group(s, i, u);

			if (g->n && read_group(s, g, &c) == 0) {
				g->value[0] = c.value[0];
				g->value[1] = c.value[1];
				g->enabled = c.enabled;
				g->running = c.running;
			}
		}
}

/* Does a metric read unit @u?  A unit the plan dropped (unit_of, ldlat_unit) is not opened. */
static bool unit_used(const struct plan *pl, int u)
{
	for (int m = 0; m < M__COUNT; m++)
		if (pl->unit_of[m] == u)
			return true;
	for (int i = 0; i <= THRESH_MAX; i++)
		if (pl->ldlat_unit[i] == u)
			return true;
	return false;
}

int perf_sampler_events(const struct plan *pl)
{
	int most = 0;

	for (int t = 0; t < (pl->ntypes ? pl->ntypes : 1); t++) {
		const struct plan *tp = plan_of_type(pl, t);
		int n = 0;

		for (int u = 0; u < tp->nunits; u++)
			if (unit_used(tp, u))
				n += tp->unit[u].nrows;
		most = n > most ? n : most;
	}
	return most;
}

long perf_sampler_nofile(const struct plan *pl, long ncpu)
{
	return ncpu * perf_sampler_events(pl) + 1 + PERF_SAMPLER_FD_RESERVE;
}

static int open_all(struct perf_sampler *s, char *err, size_t errlen)
{
	/* Twin slots are the HT erratum's, of parts that are never hybrid. */
	s->rotate = s->plan->twins && s->plan->nslots > 1 && !s->types;
	s->slot = 0;
	for (int i = 0; i < s->ncpu; i++)
		for (int u = 0; u < plan_of(s, i)->nunits; u++) {
			int r = unit_used(plan_of(s, i), u) ? open_unit(s, i, u, err, errlen) : 0;

			if (r < 0) {
				close_all(s);
				return r;
			}
		}
	open_tsc(s);
	baseline(s);
	return 0;
}

int perf_sampler_start(struct perf_sampler *s, struct perfdev *dev, const struct plan *pl,
		       const int *cpus, const int *parity, int ncpu, int cgroup_fd, char *err,
		       size_t errlen)
{
	return perf_sampler_start_types(s, dev, pl, NULL, cpus, parity, ncpu, cgroup_fd, err,
					errlen);
}

int perf_sampler_start_types(struct perf_sampler *s, struct perfdev *dev, const struct plan *pl,
			     const struct perf_types *types, const int *cpus, const int *parity,
			     int ncpu, int cgroup_fd, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->types = types;
	s->parity = parity;
	s->cgroup_fd = cgroup_fd;
	s->plan = pl;
	s->cpus = cpus;
	s->ncpu = ncpu;
	s->tsc_fd = -1;
	s->grp = calloc((size_t)ncpu * PLAN_MAX_UNITS, sizeof(*s->grp));
	s->cpu = calloc((size_t)ncpu, sizeof(*s->cpu));
	if (!s->grp || !s->cpu) {
		snprintf(err, errlen, "out of memory");
		perf_sampler_free(s);
		return -ENOMEM;
	}
	for (int i = 0; i < ncpu; i++)
		for (int u = 0; u < PLAN_MAX_UNITS; u++)
			group(s, i, u)->fd[0] = group(s, i, u)->fd[1] = -1;
	return open_all(s, err, errlen);
}

int perf_sampler_replan(struct perf_sampler *s, const struct plan *pl, char *err, size_t errlen)
{
	close_all(s);
	s->plan = pl;
	return open_all(s, err, errlen);
}

/* Sleep until @deadline on CLOCK_MONOTONIC; false when *@stop was set meanwhile. */
static bool nap(double deadline, volatile sig_atomic_t *stop)
{
	while (!*stop) {
		double left = deadline - sampler_now();
		struct timespec ts;

		if (left <= 0)
			return true;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
	return false;
}

/* One CPU's groups into its struct sample_cpu: deltas of the values and the times. */
static void collect_cpu(struct perf_sampler *s, int i, double now, double *share, int *nshare)
{
	struct sample_cpu *c = &s->cpu[i];
	struct perfdev_counts k;

	memset(c, 0, sizeof(*c));
	c->ok = true;
	c->type = (int8_t)type_of(s, i);
	share += (size_t)c->type * PLAN_MAX_UNITS;
	nshare += (size_t)c->type * PLAN_MAX_UNITS;
	c->interval_s = now - s->t_last;
	c->t_start = s->t_last;
	c->t_read = now;
	for (int u = 0; u < plan_of(s, i)->nunits; u++) {
		struct perf_group *g = group(s, i, u);
		struct unit_acc *a = &c->acc[u];
		int r;

		if (!g->n)
			continue;
		r = read_group(s, g, &k);
		if (r < 0) {
			c->ok = false;
			c->err = r;
			continue;
		}
		for (int j = 0; j < g->n; j++)
			a->count[j] = (double)(k.value[j] - g->value[j]);
		if (s->rotate) {
			/* Enabled only in its slots: the share it ran is of the interval. */
			double ran = c->interval_s > 0 ?
				     (double)(k.running - g->running) / 1e9 / c->interval_s : 0;

			a->run_s = (double)(k.running - g->running) / 1e9;
			share[u] += fmin(ran, 1);
			nshare[u]++;
		} else if (k.enabled > g->enabled) {
			double ran = (double)(k.running - g->running) / (double)(k.enabled - g->enabled);

			/*
			 * A CPU's events: the kernel's own running time, over the
			 * span its counts cover (a read lags sampler_now() a little).
			 * A cgroup's: its enabled time is only its tasks', so the
			 * share it ran, of the interval.
			 */
			if (s->cgroup_fd >= 0)
				a->run_s = c->interval_s * ran;
			else
				a->run_s = (double)(k.running - g->running) / 1e9;
			share[u] += ran;
			nshare[u]++;
		} else {
			/* Not enabled at all: a cgroup that never ran here did nothing here. */
			a->run_s = s->cgroup_fd >= 0 ? c->interval_s : 0;
		}
		g->value[0] = k.value[0];
		g->value[1] = k.value[1];
		g->enabled = k.enabled;
		g->running = k.running;
	}
}

int perf_sampler_interval(struct perf_sampler *s, double seconds, volatile sig_atomic_t *stop,
			  char *err, size_t errlen)
{
	double share[CORE_TYPES_MAX * PLAN_MAX_UNITS] = { 0 }, now, deadline = s->t_last + seconds;
	int nshare[CORE_TYPES_MAX * PLAN_MAX_UNITS] = { 0 };
	struct perfdev_counts k;

	(void)err;
	(void)errlen;
	if (s->rotate) {
		/* The plan's slots, in equal parts of the interval; the next interval goes on from here. */
		double t0 = s->t_last, len = seconds / s->plan->nslots;

		for (int sl = 1; sl <= s->plan->nslots; sl++) {
			if (s->wait ? !s->wait(s->wait_arg, t0 + sl * len) || *stop :
			    !nap(t0 + sl * len, stop))
				break;
			if (sl < s->plan->nslots)
				slot_switch(s, s->slot, (s->slot + 1) % s->plan->nslots);
		}
	} else if (s->wait)
		s->wait(s->wait_arg, deadline);
	else
		nap(deadline, stop);
	now = sampler_now();
	if (s->tsc_fd >= 0 && perfdev_read_counts(s->dev, s->tsc_fd, 0, &k) == 0) {
		if (now > s->t_last && k.value[0] > s->tsc_last)
			s->tsc_hz = (double)(k.value[0] - s->tsc_last) / (now - s->t_last);
		s->tsc_last = k.value[0];
	}
	for (int i = 0; i < s->ncpu; i++)
		collect_cpu(s, i, now, share, nshare);
	for (int u = 0; u < CORE_TYPES_MAX * PLAN_MAX_UNITS; u++)
		s->share[u] = nshare[u] ? share[u] / nshare[u] : NAN;
	s->t_last = now;
	/* The next interval starts where this one's reads left the slot: go on to the next. */
	if (s->rotate)
		slot_switch(s, s->slot, (s->slot + 1) % s->plan->nslots);
	return 0;
}

void perf_sampler_free(struct perf_sampler *s)
{
	if (s->dev)
		close_all(s);
	free(s->grp);
	free(s->cpu);
	s->grp = NULL;
	s->cpu = NULL;
}
