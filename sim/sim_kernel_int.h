/*
 * sim_kernel_int.h: the simulated kernel's own state, shared by its
 * modules (sim_kernel.c, the device; sim_kernel_pmu.c, its PMUs and
 * files) and no one else.
 */
#ifndef LATTOP_SIM_KERNEL_INT_H
#define LATTOP_SIM_KERNEL_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "cpu/perfdev.h"
#include "sim/sim_internal.h"

/*
 * The msr PMU (arch/x86/events/msr.c), for its TSC event msr/tsc/ (config
 * 0): a type the kernel gives at boot, beyond the fixed ones; it counts
 * without a counter, never multiplexed.
 */
#define SK_MSR_PMU_TYPE 9

/* The types the kernel gives a hybrid's PMUs but the big one, from here (perf_pmu_register). */
#define SK_DYN_PMU_TYPE 10

/* perf_event_mux_interval_ms: 1000/HZ = 4 ms at HZ 250 (K61 perf_event_mux_interval_ms_default). */
#define SK_MUX_S        0.004

enum sk_state { SK_OFF, SK_INACTIVE, SK_ACTIVE, SK_ERROR };

struct sk_event {
	bool used;
	bool internal;                  /* the watchdog's or another user's: no descriptor */
	bool tsc;                       /* msr/tsc/: the TSC, no counter */
	struct perf_event_attr attr;
	int cpu;
	int leader;                     /* index of the group leader (itself for one) */
	int sib[PERFDEV_GROUP_MAX];     /* a leader's members after itself */
	int nsib;
	enum sk_state state;
	int er;                         /* SK_ER_* it needs, -1: none */
	uint64_t config;                /* as scheduled: intel_alt_er may move it */
	int er_at;                      /* the register it holds while active */
	int ctr;                        /* 0..7 general, 32 + n fixed, -1 */
	uint64_t raw;                   /* the counter at the last read */
	uint64_t count;
	double enabled, running;        /* seconds */
	unsigned seq;                   /* place in its CPU's list: rotation moves it last */
	/* A sampling event's ring buffer (sk_mmap) and what it owes it. */
	unsigned char *ring;
	uint64_t lost;                  /* samples without room, not yet said in a LOST record */
	uint64_t lost_samples;          /* its own samples lost, ever: PERF_FORMAT_LOST */
	double *carry;                  /* per line access: the share of a sample due */
	double *rcarry;                 /* ... and of a remote one */
	int task;                       /* a per-task event's thread (its pid argument); 0: the CPU's */
	int out;                        /* PERF_EVENT_IOC_SET_OUTPUT: the event whose ring it writes; -1 */
};

/*
 * A core PMU of the kernel: "cpu" on a part that is not hybrid, else one
 * per core type (struct sk_hybrid), each with its own case of
 * intel_pmu_init and its own counters.
 */
struct sk_core {
	const struct sk_pmu *pmu;
	const char *dev;                /* its sysfs name */
	unsigned type;                  /* the attr.type of its events */
	bool hybrid;                    /* it has a cpus file */
	unsigned ngp, nfixed;
	unsigned version;               /* perfmon version, leaf 0xA EAX[7:0] */
	uint64_t gp_mask, fx_mask;
};

struct sk_cpu {
	int core;                       /* its PMU, k->core[] (supported_cpus) */
	double t;                       /* the instant its counts and times are at */
	double next_rot;
	bool rotate;                    /* a flexible group did not fit */
	uint64_t er_val[SK_ER_N];
	int er_ref[SK_ER_N];
	int gp[SIM_MAX_GP];             /* the event on each counter, or -1 */
	int fx[SIM_MAX_FIXED];
	unsigned seq;                   /* next seq number */
	/* Its events, by index into k->ev: a step or a schedule looks at these only. */
	int *ev, nev, cap;
};

struct sk {
	struct perfdev dev;
	struct sim *sim;
	struct sk_core core[SK_HYBRID_PMUS];
	int ncore;
	int ncpus, ncores, tpc;
	int *group;                     /* per CPU: its module's first CPU (sk_catch_up) */
	struct sk_cpu *cpu;
	struct sk_event *ev;
	int nev, cap;
	int free_hint;                  /* no free slot below this index */
	double (*clock)(void *);
	void *clock_arg;
	double now;                     /* what the simulator's clock says now */
	int paranoid;
	bool perfmon, sys_admin;        /* CAP_PERFMON, CAP_SYS_ADMIN, effective */
	long fd_base;                   /* the descriptors open before the first event */
	int nfds;
	double t0;                      /* the clock when the device opened: the profile's exit= start */
	double busy;                    /* the clock's seconds spent catching up (sk_time) */
	double vnow;                    /* the latest instant sk_time gave */
};

/* The PMU of @cpu, and its case of intel_pmu_init. */
static inline const struct sk_core *sk_core_of(const struct sk *k, int cpu)
{
	return &k->core[k->cpu[cpu].core];
}

static inline const struct sk_pmu *sk_pmu_of(const struct sk *k, int cpu)
{
	return sk_core_of(k, cpu)->pmu;
}

static inline struct sk *sk_of(struct perfdev *d)
{
	return d->priv;
}

/* sim_kernel_pmu.c */
/* The core PMU "cpu", PERF_TYPE_RAW, of every CPU (a part that is not hybrid).  0 or -1. */
int sk_core_pmu(struct sk *k, unsigned family, unsigned model);
/* A hybrid part's PMUs, one per core type, each CPU under its own.  0, or -1: none here. */
int sk_hybrid_pmus(struct sk *k, unsigned family, unsigned model);
/*
 * sim_kernel_pmu.c: where @co's general-purpose counter @i, its select and
 * fixed counter @i are: the version 6 range from version 6 on, as the
 * kernel's intel_pmu_init sets x86_pmu.perfctr, eventsel and fixedctr
 * (pmu-facts 9.2), the legacy addresses before.
 */
uint32_t sk_pmc_reg(const struct sk_core *co, unsigned i);
uint32_t sk_evtsel_reg(const struct sk_core *co, unsigned i);
uint32_t sk_fixed_reg(const struct sk_core *co, unsigned i);
/* perfdev_ops.file: the kernel's files the simulated kernel answers. */
int sk_file(struct perfdev *d, const char *path, char *buf, size_t len);

#endif
