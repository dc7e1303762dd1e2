/*
 * metrics.h: what the numbers mean.  Pure functions, no I/O: rates in,
 * the per-CPU and total metrics out.  NAN stands for "not measured".
 */
#ifndef LATTOP_METRICS_H
#define LATTOP_METRICS_H

#include <stdbool.h>

#include "src/plan.h"
#include "src/sampler.h"

/* Events per second, NAN when not measured. */
struct rates {
	double r[M__COUNT];
	double above[PLAN_MAX_THRESH];   /* loads above each threshold */
};

struct metrics {
	double ghz;                      /* busy clock: TSC rate x cycles / reference cycles */
	double ipc;
	struct {
		bool supported;
		const char *reason;
		double loads_per_sec;
		int nthresh;
		unsigned thresholds[PLAN_MAX_THRESH];
		double above_per_sec[PLAN_MAX_THRESH];
		double mean_cycles_est;
	} lat;
	struct {
		bool supported;
		const char *reason;
		double hit_per_sec, hitm_per_sec;
	} snoop;
	struct {
		bool supported;
		const char *reason;
		double reads_per_sec, avg_latency_cycles, avg_latency_ns;
	} off;
};

/* Rates of one CPU from its accumulations: counts over the time each unit ran. */
void metrics_rates(const struct plan *pl, const struct sample_cpu *c, struct rates *out);

/* Add @r to @acc. */
void metrics_add(struct rates *acc, const struct rates *r);

/* Sum @n rate sets (a CPU that was not read is left out by the caller). */
void metrics_sum(const struct rates *in, int n, struct rates *out);

/* The metrics of a CPU or of the total. @tsc_hz 0 when unknown. */
void metrics_compute(const struct plan *pl, const struct rates *r, double tsc_hz,
		     struct metrics *out);

/*
 * Mean load latency estimated from the counts above each threshold: each
 * bin counts at its middle, loads at or below the lowest threshold at the
 * middle of [4, t0] (4 cycles is the shortest load, SDM 18.8.1.2), those
 * above the highest at twice it.  NAN without the total loads.
 */
double metrics_mean_latency(const unsigned *thresholds, const double *above, int n,
			    double loads);

#endif
