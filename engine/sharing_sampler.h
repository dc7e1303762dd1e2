/*
 * sharing_sampler.h: the contended lines through perf_event_open(2):
 * sampling events per CPU, their ring buffers read each interval, and
 * the line table (engine/lines.h) that gives each interval's frame.
 *
 * Per CPU: the family's load-latency event ("mem-loads", threshold
 * SHARING_LDLAT as perf mem and perf c2c use), and "mem-stores" where the
 * family has it, both precise with a fixed period, sampling IP, TID,
 * TIME, ADDR, CPU, PERIOD, WEIGHT, DATA_SRC and PHYS_ADDR where the
 * kernel permits it.  Where the kernel demands it (PMU_FL_MEM_LOADS_AUX:
 * Sapphire and Emerald Rapids) the load event is grouped under
 * LD_BLOCKS.STORE_FORWARD 0x03/0x82.  Rates are estimates: the samples
 * times their period, scaled by the share of the interval the event ran
 * (time_enabled / time_running), over the interval.
 *
 * The cost: the kernel's default perf_event_max_sample_rate (100000/s)
 * and perf_cpu_time_max_percent (25) budget 2.5 us a sample (K61
 * kernel/events/core.c); at SHARING_RATE_MAX samples a second per CPU
 * and event, two events cost at most 0.5% of a CPU, under 1%.  The
 * period starts at
 * SHARING_PERIOD and is raised whenever a CPU gave more, or the kernel
 * throttled (PERF_RECORD_THROTTLE): by the ratio, at least doubled.
 */
#ifndef LATTOP_SHARING_SAMPLER_H
#define LATTOP_SHARING_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpu/perf_ring.h"
#include "cpu/perfdev.h"
#include "cpu/uarch.h"
#include "engine/lines.h"
#include "engine/plan.h"
#include "engine/sharing.h"

struct symbols;

#define SHARING_LDLAT 30                /* cycles: perf mem's and perf c2c's default */
#define SHARING_LDLAT_MIN 8             /* below it most samples are L1 hits: not the plan's then */
#define SHARING_PERIOD 1000             /* the first period, loads above the threshold */
#define SHARING_RATE_MAX 1000           /* samples a second per CPU and event */
#define SHARING_COST_US 2.5             /* assumed per sample (see above) */
#define SHARING_RING_PAGES 64           /* data pages per ring: 256 KiB, ~2.9 s at the rate max */

/*
 * The sampling events of a CPU: load latency, stores, and the precise
 * retired-load snoop events where they sample the data address (Haswell
 * on): loads served HITM in the package (SHARING_EV_HITM), by another
 * package's modified line (SHARING_EV_RHITM, the server parts).
 */
enum { SHARING_EV_LOADS, SHARING_EV_STORES, SHARING_EV_HITM, SHARING_EV_RHITM, SHARING_EV_N };

/* --pid: one more thread's event on a CPU, its records in that CPU's ring. */
struct sharing_task_fd {
	int fd;
	int aux;                        /* its own group leader where the kernel demands one, or -1 */
	uint64_t enabled, running;      /* at the last read */
	uint64_t lost;                  /* PERF_FORMAT_LOST at the last read */
};

struct sharing_ev {
	int fd;                         /* -1: none */
	void *map;
	struct perf_ring *ring;
	uint64_t period;
	uint64_t enabled, running;      /* at the last read */
	uint64_t lost;                  /* PERF_FORMAT_LOST at the last read */
	double scale;                   /* this interval: enabled / running */
	uint64_t samples;               /* this interval */
	bool throttled;
	/* --pid: the process's other threads' events on this CPU (PERF_EVENT_IOC_SET_OUTPUT) */
	struct sharing_task_fd *more;
	int nmore;
};

/*
 * A memory block's NUMA node, cached: blocks of 2^SHARING_NODE_BLOCK bytes
 * at most (x86-64's are 128 MiB or more, so a block of this size is in one).
 */
#define SHARING_NODE_BLOCK 27
#define SHARING_NODES 64
struct sharing_node {
	uint64_t block;                 /* block + 1; 0: empty */
	int node;
};

struct sharing_cpu {
	int aux_fd;                     /* the group leader the kernel demands, or -1 */
	struct sharing_ev ev[SHARING_EV_N];
};

struct sharing_sampler {
	struct perfdev *dev;
	int ncpu;
	struct sharing_cpu *cpu;
	uint64_t sample_type;
	struct lines lines;
	struct symbols *sym;
	struct sharing_frame frame;
	int pid;                        /* --pid: that process's threads only; 0: every task */
	bool lost_by_read;              /* PERF_FORMAT_LOST counts the losses, not LOST records */
	bool discard;                   /* draining before the first interval: side-band only */
	struct sharing_node nodes[SHARING_NODES];
	bool hitm_ev, rhitm_ev;         /* the snoop events opened: HITM from them, not load latency */
	bool hitm_lower_bound;          /* some HITM only from the tagged loads (struct sharing_frame) */
	/* while draining */
	struct sharing_ev *cur;
	int cur_kind;                   /* SHARING_EV_* */
	uint64_t samples, lost, throttled;
};

/*
 * The load-latency threshold to sample at beside plan @pl: the plan's
 * counted threshold nearest SHARING_LDLAT, so that the sampling event and
 * that unit hold MSR_PEBS_LD_LAT_THRESHOLD at one value (the kernel
 * schedules together only events that agree on it: pmu-facts 10.3) and
 * sampling takes no time from the counting; SHARING_LDLAT when the plan
 * counts none.
 */
unsigned sharing_sampler_threshold(const struct plan *pl);

/*
 * Open the sampling events on @cpus[0..@ncpu) through @dev for family
 * @u with UARCH_F_* @flags (the family's and the model's), loads above
 * @ldlat cycles; with @cgroup_fd >= 0 that cgroup's tasks
 * only; with @pid > 0 the threads of process @pid only: per CPU, one
 * event per thread it has now (perfdev_tasks), with inherit for the
 * threads they create later (pmu-facts 10.4: a task's event follows only
 * threads created after the open), the others' records redirected into
 * the first one's ring (PERF_EVENT_IOC_SET_OUTPUT).  Never fails the
 * session: what cannot be sampled leaves the frame unsupported with the
 * reason (and once the process has ended, the frame says so).  -1 only
 * when out of memory.
 */
int sharing_sampler_start(struct sharing_sampler *s, struct perfdev *dev, const struct uarch *u,
			  unsigned flags, unsigned ldlat, const int *cpus, int ncpu, int cgroup_fd,
			  int pid);

/*
 * A hybrid part's core types, for sharing_sampler_start_types: each CPU
 * samples with its own type's load-latency event, "mem-stores" and aux
 * leader, on that type's kernel PMU (its attr.type), at its own threshold.
 */
struct sharing_types {
	int ntypes;
	const int8_t *of;                       /* each CPU's core type, [ncpu] */
	uint32_t pmu[CORE_TYPES_MAX];           /* each type's attr.type (struct perf_types) */
	const struct uarch *uarch[CORE_TYPES_MAX];
	unsigned flags[CORE_TYPES_MAX];         /* UARCH_F_* */
	unsigned ldlat[CORE_TYPES_MAX];
};

/* sharing_sampler_start with each CPU of its core type in @t (NULL: one type, PERF_TYPE_RAW). */
int sharing_sampler_start_types(struct sharing_sampler *s, struct perfdev *dev,
				const struct sharing_types *t, const int *cpus, int ncpu,
				int cgroup_fd, int pid);

/*
 * The first interval starts now: what the rings hold since the opens is
 * dropped, but for the side-band (names, mappings), and the times start
 * here, so that the first interval's rates are its own (a task's event,
 * --pid, is scaled by its own times, not by the interval's).
 */
void sharing_sampler_begin(struct sharing_sampler *s);

/* Read every ring and end the interval of @seconds: the frame of the interval. */
const struct sharing_frame *sharing_sampler_interval(struct sharing_sampler *s, double seconds);

/*
 * The parts, for a reader of rings of its own (tests/test_perf_real.c,
 * the bench): a sampler with no event, its samples of @sample_type
 * (within PERF_RING_SAMPLE_TYPES); one ring of @ev drained, its samples
 * accesses of kind @kind (SHARING_EV_*) standing for
 * ev->period x ev->scale each; the interval ended.  init: 0, or -1 out of
 * memory.
 */
int sharing_sampler_init(struct sharing_sampler *s, uint64_t sample_type);
void sharing_sampler_drain(struct sharing_sampler *s, struct sharing_ev *ev, int kind);
const struct sharing_frame *sharing_sampler_end(struct sharing_sampler *s, double seconds);

/* A frame that says why nothing is sampled. */
void sharing_frame_unsupported(struct sharing_frame *f, const char *why);

void sharing_sampler_free(struct sharing_sampler *s);

#endif
