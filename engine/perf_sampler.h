/*
 * perf_sampler.h: the tick through perf_event_open(2), the second counter
 * backend under the engine.
 *
 * Opens every unit of the plan on every CPU measured as one event group
 * (a pair's two rows counted together), lets the kernel schedule and
 * multiplex them, and at the end of each interval reads each group once
 * and fills the same seam the msr sampler fills (struct sample_cpu,
 * engine/sampler.h): per CPU and per unit, the counts of the interval and
 * the seconds the unit ran (deltas: the kernel never resets the times).
 * For a CPU's events that is time_running, so a rate is count / running,
 * the kernel's scaling; for a cgroup's, whose time_enabled is only the
 * time its tasks were on the CPU, the interval times running / enabled, so
 * that rates are per second of the interval.  The share of the interval a
 * unit ran is running / enabled.  Knows nothing of the msr device, the journal or the write-back:
 * the kernel owns the registers.
 */
#ifndef LATTOP_PERF_SAMPLER_H
#define LATTOP_PERF_SAMPLER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/perfdev.h"
#include "engine/plan.h"
#include "engine/sampler.h"

/* One unit's group on one CPU, and its last read. */
struct perf_group {
	int fd[2];                      /* leader, member (-1: none) */
	int n;
	uint64_t value[2], enabled, running;
};

/*
 * A hybrid part's kernel PMUs (pmu-facts 9.6): each CPU measured runs its
 * core type's plan (plan_of_type) on its core type's PMU, whose events
 * the kernel refuses on the other type's CPUs.
 */
struct perf_types {
	const int8_t *of;               /* each CPU's core type, [ncpu] */
	uint32_t pmu[CORE_TYPES_MAX];   /* each core type's attr.type (its PMU's sysfs type) */
};

struct perf_sampler {
	struct perfdev *dev;
	const struct plan *plan;        /* type 0's: a CPU runs plan_of_type(plan, its type) */
	int ncpu;
	const int *cpus;                /* Linux CPU numbers, [ncpu] */
	const struct perf_types *types; /* NULL: one PMU, PERF_TYPE_RAW, type 0 everywhere */
	const int *parity;              /* each CPU's thread parity in its core, [ncpu]; NULL: 0 */
	bool rotate;                    /* lattop runs the plan's (twin) slots, not the kernel */
	int slot;                       /* ... the slot enabled now */
	int cgroup_fd;                  /* count a cgroup's tasks only (its directory); -1: all */
	struct perf_group *grp;         /* [ncpu][plan->nunits] */
	int tsc_fd;                     /* msr/tsc on the first CPU, for the TSC rate; -1 */
	uint64_t tsc_last;
	double tsc_hz;                  /* 0 until known */
	double t_last;
	struct sample_cpu *cpu;         /* [ncpu]: the seam snapshot_compute reads */
	/*
	 * The mean share of the interval each unit ran (running / enabled)
	 * over the CPUs read: share[u] of type 0's plan, share[t *
	 * PLAN_MAX_UNITS + u] of core type t's.
	 */
	double share[CORE_TYPES_MAX * PLAN_MAX_UNITS];
	bool (*wait)(void *arg, double deadline);
	void *wait_arg;
};

/*
 * The events plan @pl opens on each CPU (on a hybrid part, the most any
 * core type's opens), each a descriptor held for the whole run (a
 * sampler also holds one for the TSC).
 */
int perf_sampler_events(const struct plan *pl);

/* Descriptors lattop holds besides the events: its own files, the terminal, sockets. */
#define PERF_SAMPLER_FD_RESERVE 64

/* The open-file limit a run of plan @pl on @ncpu CPUs needs. */
long perf_sampler_nofile(const struct plan *pl, long ncpu);

/*
 * Open the plan's units on @cpus[0..@ncpu) through @dev and start
 * counting (a plan with twin slots, slot by slot, by each CPU's thread
 * parity @parity[i]: see perf_sampler.c), everything on them, or with @cgroup_fd >= 0 (an open cgroup
 * directory) what that cgroup's tasks do.  0, or a negative errno (the
 * first open's: -EACCES, -ENOENT, ...) with a message naming the event and
 * the CPU; nothing stays open.
 */
int perf_sampler_start(struct perf_sampler *s, struct perfdev *dev, const struct plan *pl,
		       const int *cpus, const int *parity, int ncpu, int cgroup_fd, char *err,
		       size_t errlen);

/* The same on a hybrid part: each CPU's events on its core type's PMU, by @types. */
int perf_sampler_start_types(struct perf_sampler *s, struct perfdev *dev, const struct plan *pl,
			     const struct perf_types *types, const int *cpus, const int *parity,
			     int ncpu, int cgroup_fd, char *err, size_t errlen);

/*
 * Wait @seconds (or until *@stop), then read every group: s->cpu[] holds
 * the interval's counts and run times.  0, or a negative errno with a
 * message when the device failed as a whole.
 */
int perf_sampler_interval(struct perf_sampler *s, double seconds, volatile sig_atomic_t *stop,
			  char *err, size_t errlen);

/* Close everything and open plan @pl instead (new thresholds). */
int perf_sampler_replan(struct perf_sampler *s, const struct plan *pl, char *err, size_t errlen);

void perf_sampler_free(struct perf_sampler *s);

#endif
