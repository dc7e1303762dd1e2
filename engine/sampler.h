/*
 * sampler.h: the tick.  Runs the plan's rotation slots through each
 * interval, reads every programmed counter, and accumulates, per CPU and
 * per unit, the counts and the time each unit actually ran.
 *
 * Owns time (CLOCK_MONOTONIC) and the order of reads and switches; knows
 * nothing of what the numbers mean (metrics.c) or how they are shown.
 */
#ifndef LATTOP_SAMPLER_H
#define LATTOP_SAMPLER_H

#include <signal.h>
#include <stdbool.h>

#include "cpu/pmu.h"
#include "engine/plan.h"

/*
 * The seam under the engine: what a counter backend gives it each
 * interval, per CPU and per plan unit, is the counts and the seconds they
 * cover (struct unit_acc), with whether the CPU was read (ok, err,
 * frozen, stopped, interval_s of struct sample_cpu).  The metrics and the
 * snapshot read nothing else: this sampler, on the msr device, is one
 * backend; one through perf_event_open(2) fills the same.
 */
struct unit_acc {
	double count[2];   /* events counted by the unit's rows */
	double run_s;      /* seconds the unit ran */
};

struct sample_cpu {
	bool ok;                       /* read cleanly this interval */
	bool offline;                  /* its msr file fails (ENXIO, EIO): retried each interval */
	int err;                       /* the negative errno when not ok */
	double t_start, t_slot;        /* interval start (the fixed counters' last read), slot start */
	/*
	 * When each general-purpose counter's count began: its last read at
	 * @t_ran for those of @ran_on, which counted on through the last
	 * switch, its reprogramming at @t_slot for the others (sampler.c
	 * ctr_from).  A unit's time runs from there, so that its count and its
	 * time cover the same span.
	 */
	double t_ran;
	gp_set ran_on;
	double t_read;                 /* last read */
	double t_fixed;                /* last read of the fixed counters */
	double interval_s;             /* this CPU's interval */
	int8_t parity;                 /* thread parity in its core (plan_thread_parity) */
	/*
	 * Its core type (struct pmu_cpu.type; 0 on a part that is not hybrid):
	 * it runs plan_for(plan, type), and acc[] is of that plan's units.
	 */
	int8_t type;
	gp_set busy;                   /* counters others hold on it (plan_cpu_busy) */
	struct pmu_cfg cfg;            /* what plan_cpu_cfg() built for it, when it had to */
	/*
	 * At a slot boundary, from its read to its switch: the next slot's
	 * configuration, or NULL when the boundary changes nothing on it.
	 */
	const struct pmu_cfg *next_cfg;
	/*
	 * Version 4: its counters were frozen (pmu_hw_frozen) at a read of
	 * this interval or at the read that opened it: the interval is not a
	 * measurement, and ok is false when it ends.  frz_last: at the last read.
	 */
	bool frozen, frz_last;
	/*
	 * Versions 2 and 3: its counters were found stopped by another
	 * agent's legacy freeze (pmu_hw_stopped) at a read of this interval:
	 * not a measurement either, and ok is false when it ends.
	 */
	bool stopped;
	/*
	 * Not a measurement for a reason the caller found once the interval
	 * was read (sampler_spoil), told as the CPU's error; "" otherwise.
	 */
	char spoiled[256];
	struct unit_acc acc[PLAN_MAX_UNITS];
};

struct sampler {
	struct pmu *pmu;
	const struct plan *plan;       /* type 0's: a CPU runs plan_for(plan, its type) */
	struct sample_cpu *cpu;        /* parallel to pmu->cpu */
	/*
	 * Slot now programmed, of plan_nslots(plan): a CPU whose type's plan has
	 * fewer runs its slot slot % nslots (sampler.c cpu_slot).
	 */
	int slot;
	double tsc_hz;                 /* 0 until known */
	double tsc_t0;
	uint64_t tsc0;
	bool tsc_ok;
	unsigned intervals;
	unsigned mid_reads;            /* reads within a slot, so that no counter wraps twice */
	bool changed;                  /* a CPU came back or a counter was lost: re-plan, re-journal */
	char lost[512];                /* counters given up at a switch, for the caller to tell */
	/*
	 * How to wait for a slot's end; NULL: sleep.  Returns false to end
	 * the interval early (the screen's quit).
	 */
	bool (*wait)(void *arg, double deadline);
	void *wait_arg;
};

/* Program slot 0 on every CPU and start counting. */
int sampler_start(struct sampler *s, struct pmu *p, const struct plan *pl,
		  char *err, size_t errlen);

/*
 * Run one interval of @seconds (the last one short if *@stop becomes set),
 * leaving its accumulations in s->cpu[].  Returns 0, or a negative errno
 * with a message when programming failed (the caller restores).
 */
int sampler_interval(struct sampler *s, double seconds, volatile sig_atomic_t *stop,
		     char *err, size_t errlen);

/* Switch to plan @pl (new thresholds): slot 0 programmed on every CPU. */
int sampler_replan(struct sampler *s, const struct plan *pl, char *err, size_t errlen);

void sampler_free(struct sampler *s);

/* Wait for a slot's end with @wait (the screen's keys) instead of sleeping. */
void sampler_set_wait(struct sampler *s, bool (*wait)(void *arg, double deadline), void *arg);

/*
 * CPU index @i could not be saved (after a stop or blocked output): read
 * as offline, and so retried each interval, as a CPU gone offline.
 */
void sampler_retry(struct sampler *s, int i);

/*
 * The interval just sampled is not a measurement on CPU index @i, for
 * @why, found after its reads (a hyperthread sibling that started using a
 * counter the HT bug needs idle): the CPU has no numbers for it, @why
 * says why, and it is measured again from the next interval.
 */
void sampler_spoil(struct sampler *s, int i, const char *why);

/*
 * Did a CPU come back or a counter change hands since the last call (the
 * caller re-plans and re-journals)?  What was given up at a switch is
 * copied to @lost ("" when nothing), and both are cleared.
 */
bool sampler_take_changes(struct sampler *s, char *lost, size_t len);

/*
 * The longest time, in seconds, between two reads of @p's counters so that
 * none can wrap twice unseen, given the TSC rate @tsc_hz (0: not known yet).
 * Slots longer than this are read in between.
 */
double sampler_read_period(const struct pmu *p, double tsc_hz);

double sampler_now(void);

#endif
