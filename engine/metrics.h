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
 * The shares are a random sample: each has a standard error, from the
 * counts of tagged loads behind it (metrics_share_se).
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
	/*
	 * Tagged loads (above threshold 3) while each threshold was measured,
	 * rounded to whole loads: the tagged rate times the time its unit ran,
	 * for threshold 3 its own count.  A count, not a rate: it adds up over
	 * CPUs, and a share's standard error shrinks with it.
	 */
	double tagged_n[THRESH_MAX + 1];
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
		double tagged_count;     /* tagged loads counted at threshold 3: n3 */
		double tagged_n[THRESH_MAX];        /* tagged loads while each threshold was
						     * measured: n (struct rates) */
		double above_share_se[THRESH_MAX];  /* standard errors: metrics_share_se */
		double above_per_sec_se[THRESH_MAX];        /* loads_per_sec x above_share_se */
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

/*
 * Too few tagged loads behind the estimate above threshold @i for its digits
 * to mean much: fewer than METRICS_FEW_TAGGED counted while it was measured,
 * or a standard error over METRICS_MAX_RSE of its share.  The screen marks
 * such a cell; the man page states the rule.  Thresholds up to 3 are not
 * estimates (every load is slower).
 */
#define METRICS_FEW_TAGGED 100
#define METRICS_MAX_RSE 0.1

static inline bool metrics_above_unsure(const struct metrics *m, int i)
{
	if (m->lat.thresholds[i] <= THRESH_TAGGED)
		return false;
	return m->lat.tagged_n[i] < METRICS_FEW_TAGGED ||
	       m->lat.above_share_se[i] > METRICS_MAX_RSE * m->lat.above_share[i];
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

/*
 * Standard errors of the shares @share[0..n) of thresholds above 3, as
 * metrics_shares() left them, from @tn[0..n), the tagged loads while each
 * was measured, and @n3, those counted at threshold 3, into @se[].
 *
 * A share p is a ratio of two counts from different rotation slots (one
 * threshold register): A, the tagged loads above N in N's slot, over n,
 * the tagged loads in that slot, which are not counted but estimated from
 * the n3 counted in threshold 3's slot.  Loads are "randomly selected" for
 * tagging (pmu-facts 8.1), at a rate Intel does not document; taken as each
 * load on its own, as the simulator does, A and n3 vary as independent
 * Poisson counts, and
 *
 *     se^2 = p (1 - p) / n  +  p^2 (1 / n + 1 / n3)  =  p / n + p^2 / n3:
 *
 * the binomial error of p among the n tagged loads, and that of n itself.
 * The binomial term alone is far too small where p is not small (0.8:
 * a third of the spread, tests/e2e_stderr.sh).  Shares pooled into their
 * mean (equal neighbours) get the error of that mean: p / k^2 x sum of
 * 1 / n over the k of them, plus p^2 / n3, which they share.  NAN without
 * a count.
 */
void metrics_share_se(const double *share, const double *tn, double n3, int n, double *se);

/*
 * The standard errors of @m's shares and rates, from its shares, its
 * counts and loads_per_sec, into @share_se[] and @rate_se[] (nthresh
 * each): what metrics_compute() sets, and a replay derives.
 */
void metrics_stderr(const struct metrics *m, double *share_se, double *rate_se);

#endif
