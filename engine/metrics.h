/*
 * metrics.h: what the numbers mean.  Pure functions, no I/O: rates in,
 * the per-CPU and total metrics out.  NAN stands for "not measured".
 *
 * Load latency counts tagged loads only (pmu-facts 8.1): the hardware tags
 * loads at random at a rate it does not document, and the load-latency
 * event counts the tagged ones above the threshold.  So every number here
 * is derived from shares of tagged loads: share(N) = above(N) / above(3),
 * made monotone; loads/s slower than N are estimated as share(N) times
 * the loads retired per second; the mean is bounded from the shares, and
 * has no upper bound while some loads are slower than the top threshold.
 */
#ifndef LATTOP_METRICS_H
#define LATTOP_METRICS_H

#include <math.h>
#include <stdbool.h>

#include "cpu/events.h"
#include "engine/thresh.h"

struct plan;
struct sample_cpu;

/* Events per second, NAN when not measured. */
struct rates {
	double r[M__COUNT];
	double above[THRESH_MAX + 1];   /* tagged loads above each plan threshold */
};

struct metrics {
	double ghz;                      /* busy clock: TSC rate x cycles / reference cycles */
	double ipc;
	struct {
		bool supported;          /* some number of the section is measured */
		const char *reason;      /* why none is, when !supported */
		const char *loads_reason;        /* why loads_per_sec is not measured, or NULL */
		const char *tagged_reason;       /* why the tagged-load numbers are not, or NULL */
		double loads_per_sec;    /* loads retired, measured */
		int nthresh;
		unsigned thresholds[THRESH_MAX];
		double tagged_per_sec;   /* tagged loads (above threshold 3), measured */
		double above_share[THRESH_MAX];     /* share of loads slower than each
							  * threshold, from tagged loads */
		double above_per_sec[THRESH_MAX];   /* estimated: share x loads_per_sec */
		/*
		 * Bounds of the mean, from the shares; max NAN (open) while
		 * some loads are slower than the top threshold.
		 */
		double mean_cycles_min, mean_cycles_max;
		double mean_cycles_est;  /* the middle of the bounds: off by at most half their gap;
					  * NAN when the upper bound is open */
	} lat;
	struct {
		bool supported;
		const char *reason;
		const char *hit_reason, *hitm_reason;    /* per number, or NULL */
		double hit_per_sec, hitm_per_sec;
		const char *hit_scope, *hitm_scope;      /* "other_core", "other_module" or NULL */
		struct {
			bool supported;
			const char *reason;
			double hit_per_sec, hitm_per_sec;
		} remote;
	} snoop;
	struct {
		bool supported;
		const char *reason;
		const char *reads_reason, *latency_reason;   /* per number, or NULL */
		double reads_per_sec, avg_latency_cycles, avg_latency_ns;
	} off;
};

/*
 * Are the bounds of the mean too far apart for one number to stand for
 * them (its error, half their gap, over a quarter of it)?  The text report
 * and the screen then show the range, "20-40", instead of "~30".
 */
static inline bool metrics_mean_is_range(const struct metrics *m)
{
	return m->lat.mean_cycles_max - m->lat.mean_cycles_min > 0.5 * m->lat.mean_cycles_est;
}

/*
 * Has the mean a lower bound and no upper one (loads slower than the top
 * threshold, by an amount nothing measures)?  Then there is no middle: the
 * outputs show the lower bound alone, ">=513".
 */
static inline bool metrics_mean_open(const struct metrics *m)
{
	return !isnan(m->lat.mean_cycles_min) && isnan(m->lat.mean_cycles_max);
}

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
 * Shares of tagged loads above thresholds @t[0..n) (ascending, all above
 * THRESH_TAGGED) from the tagged rates @above[] and @tagged (the rate
 * above THRESH_TAGGED), into @share[]: clamped to 0..1 and made
 * non-increasing by pooling adjacent violators (thresholds measured in
 * different rotation slots see different loads, so a higher threshold can
 * count more; the pooled value is the mean of the shares that disagree).
 * NAN without tagged loads.
 */
void metrics_shares(const double *above, double tagged, int n, double *share);

/*
 * Bounds of the mean load latency from the shares of loads slower than
 * thresholds @t[0..n) (ascending, above 3): E[L] = sum over t >= 0 of
 * P(L > t), where P(L > t) = 1 up to t = 3 (no load is faster than 4
 * cycles, SDM 18.8.1.2) and, between two thresholds, lies between their
 * shares.  Past the top threshold P(L > t) is anything from its share down
 * to 0: no measurement says how much slower those loads are (a load can
 * take 100000 cycles), so *@hi is NAN, open, unless that share is 0.  No
 * assumption is made.  Both NAN when a share is NAN, or with no threshold.
 */
void metrics_mean_bounds(const unsigned *t, const double *share, int n, double *lo, double *hi);

#endif
