/*
 * test_metrics.c: what the numbers mean (engine/metrics.c).
 *
 * Hand-computed examples for the load-latency shares, their standard
 * errors and the bounds of the mean (and a randomised check that the bounds
 * hold), the counts of tagged loads behind the shares, rates (count over the
 * time a unit ran), GHz (TSC rate x cycles / reference cycles), IPC and
 * offcore latency in cycles and ns; totals that sum rates and recompute
 * ratios from the sums; and NAN, "not measured", that never turns into 0.
 * Plans come from the real planner; accumulations are written by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu/events.h"
#include "cpu/uarch.h"
#include "engine/metrics.h"
#include "engine/plan.h"
#include "engine/sampler.h"

#define EPS 1e-9

/* Failures are reported at the caller's line. */
#define assert_close(got, want) assert_close_at((got), (want), __FILE__, __LINE__)
#define assert_nan(v) assert_nan_at((v), __FILE__, __LINE__)

static void assert_close_at(double got, double want, const char *file, int line)
{
	if (!(fabs(got - want) <= EPS * fmax(1.0, fabs(want)))) {
		print_error("got %.12g, want %.12g\n", got, want);
		_fail(file, line);
	}
}

static void assert_nan_at(double v, const char *file, int line)
{
	if (!isnan(v)) {
		print_error("got %.12g, want NAN (not measured)\n", v);
		_fail(file, line);
	}
}

/* A plan for @uarch with everything free and thresholds @thr. */
static struct plan *plan_for(const char *uarch, const unsigned *thr, int nthr)
{
	const struct uarch *u = uarch_by_name(uarch);
	struct plan *pl = calloc(1, sizeof(*pl));
	struct plan_resources res = { 0 };
	char err[256];

	assert_non_null(u);
	assert_non_null(pl);
	memset(&res, 0, sizeof(res));
	res.ngp = u->gp_needed;
	res.nfixed = 3;
	res.gp_free = (uint8_t)((1u << u->gp_needed) - 1);
	res.fixed_free = 7;
	res.rsp_free = (uint8_t)((1u << u->offcore_msrs) - 1);
	res.ldlat_free = u->table->unsupported[M_LOAD_LATENCY] == NULL;
	assert_int_equal(plan_build(pl, u, &res, thr, nthr, err, sizeof(err)), 0);
	return pl;
}

/* Row index of metric @m in its unit. */
static int row_of(const struct plan *pl, enum metric m)
{
	const struct plan_unit *u = &pl->unit[pl->unit_of[m]];

	for (int j = 0; j < u->nrows; j++)
		if (u->row[j]->metric == m)
			return j;
	fail_msg("metric %s has no row", metric_name(m));
	return -1;
}

/* Give metric @m @count events over @run_s seconds in @c. */
static void acc_set(const struct plan *pl, struct sample_cpu *c, enum metric m, double count,
		    double run_s)
{
	int ui = pl->unit_of[m];

	assert_true(ui >= 0);
	c->acc[ui].count[row_of(pl, m)] = count;
	c->acc[ui].run_s = run_s;
}

/* ------------------------------------------------------------------ */

/*
 * Shares of tagged loads (pmu-facts 8.1): above(N) / above(3), whatever
 * fraction of loads the hardware tags.
 */
static void test_shares_tagged(void **state)
{
	double share[3];

	(void)state;
	metrics_shares((const double[]){ 30, 10, 0 }, 100, 3, share);
	assert_close(share[0], 0.3);
	assert_close(share[1], 0.1);
	assert_close(share[2], 0);
	/* The same shares at a hundredth of the tagging rate. */
	metrics_shares((const double[]){ 0.3, 0.1, 0 }, 1, 3, share);
	assert_close(share[0], 0.3);
	assert_close(share[1], 0.1);
	/* No tagged load, or one threshold not measured: no shares at all. */
	metrics_shares((const double[]){ 30, 10, 0 }, 0, 3, share);
	assert_nan(share[0]);
	metrics_shares((const double[]){ 30, NAN, 0 }, 100, 3, share);
	assert_nan(share[0]);
	assert_nan(share[2]);
}

/*
 * Thresholds measured in different rotation slots see different loads: a
 * higher one can count more.  The shares are pooled until non-increasing
 * (the mean of the ones that disagree), and clamped to 0..1.
 */
static void test_shares_monotone(void **state)
{
	double share[4];

	(void)state;
	metrics_shares((const double[]){ 69, 74, 10, 12 }, 100, 4, share);
	assert_close(share[0], 0.715);
	assert_close(share[1], 0.715);
	assert_close(share[2], 0.11);
	assert_close(share[3], 0.11);
	/* A violation two steps back pools three. */
	metrics_shares((const double[]){ 30, 20, 40, 5 }, 100, 4, share);
	assert_close(share[0], 0.3);
	assert_close(share[1], 0.3);
	assert_close(share[2], 0.3);
	assert_close(share[3], 0.05);
	/* More above 8 than tagged loads in all (another slot): at most 1. */
	metrics_shares((const double[]){ 150, 20 }, 100, 2, share);
	assert_close(share[0], 1);
	assert_close(share[1], 0.2);
}

/*
 * Bounds of the mean: E[L] = sum over t >= 0 of P(L > t).  The defaults
 * 8..512 over loads at 5, 20, 70 and 300 cycles (70/20/6/4 %, mean 23.7):
 * P(L > t) is 1 to 3, 0.3 from 8 to 16, and so on.
 */
static void test_mean_bounds(void **state)
{
	static const unsigned t[7] = { 8, 16, 32, 64, 128, 256, 512 };
	static const double s[7] = { 0.3, 0.3, 0.1, 0.1, 0.04, 0.04, 0 };
	double lo, hi;

	(void)state;
	metrics_mean_bounds(t, s, 7, &lo, &hi);
	/* 3 + (1 + 4 x .3) + (.3 + 7 x .3) + (.3 + 15 x .1) + (.1 + 31 x .1) + ... */
	assert_close(lo, 3 + 2.2 + 2.4 + 1.8 + 3.2 + 2.62 + 5.12 + 0.04);
	assert_close(hi, 3 + 5 + 2.4 + 4.8 + 3.2 + 6.4 + 5.12 + 10.24);
	assert_true(lo <= 23.7 && 23.7 <= hi);

	/* --thresholds 16,65535: wide bins, a wide range that still holds the truth. */
	metrics_mean_bounds((const unsigned[]){ 16, 65535 }, (const double[]){ 0.3, 0 }, 2, &lo, &hi);
	assert_close(lo, 3 + 1 + 12 * 0.3 + 0.3);
	assert_close(hi, 3 + 13 + 0.3 + 65518 * 0.3);
	assert_true(lo <= 23.7 && 23.7 <= hi);

	/*
	 * Loads above the top threshold: no upper bound at all.  Assuming them
	 * at most twice it (lattop did, 3 + 7 + 10 x .5 = 15) excludes a mean
	 * of 16 from loads that half take 4 cycles and half 28.
	 */
	metrics_mean_bounds((const unsigned[]){ 10 }, (const double[]){ 0.5 }, 1, &lo, &hi);
	assert_close(lo, 3 + 1 + 6 * 0.5 + 0.5);
	assert_nan(hi);
	/* --thresholds 16 under tests/profiles/truth.prof (mean 23.7): at least 7.9, no more said. */
	metrics_mean_bounds((const unsigned[]){ 16 }, (const double[]){ 0.3 }, 1, &lo, &hi);
	assert_close(lo, 3 + 1 + 12 * 0.3 + 0.3);
	assert_nan(hi);
	/* Every load slower than 512 (they took 100000): at least 513, not "513-1024". */
	metrics_mean_bounds(t, (const double[]){ 1, 1, 1, 1, 1, 1, 1 }, 7, &lo, &hi);
	assert_close(lo, 513);
	assert_nan(hi);

	metrics_mean_bounds((const unsigned[]){ 10 }, (const double[]){ NAN }, 1, &lo, &hi);
	assert_nan(lo);
	assert_nan(hi);
	metrics_mean_bounds(NULL, NULL, 0, &lo, &hi);
	assert_nan(lo);
}

/*
 * The bounds hold for any distribution of whole-cycle latencies from 4 up
 * to a million cycles, and any ascending thresholds: exact shares from
 * random distributions, the true mean always at least the lower bound, and
 * at most the upper one where there is one.  There is one exactly when no
 * load is slower than the top threshold.
 */
static void test_mean_bounds_hold(void **state)
{
	uint64_t x = 88172645463325252ULL;
	int open = 0;

	(void)state;
	for (int trial = 0; trial < 2000; trial++) {
		unsigned t[8], lat[6];
		double w[6], share[8], sum = 0, mean = 0, lo, hi;
		int n = 1 + (int)(trial % 8);
		unsigned prev = 3, top;
		bool slower = false;

		for (int i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			prev += 1 + (unsigned)(x % 200);
			t[i] = prev;
		}
		/* Half the trials up to the top threshold, half up to a million cycles. */
		top = trial % 2 ? 1000000 : t[n - 1];
		for (int j = 0; j < 6; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			lat[j] = 4 + (unsigned)(x % (top - 3));
			w[j] = (double)(1 + x % 1000);
			sum += w[j];
			slower |= lat[j] > t[n - 1];
		}
		for (int j = 0; j < 6; j++)
			mean += lat[j] * w[j] / sum;
		for (int i = 0; i < n; i++) {
			share[i] = 0;
			for (int j = 0; j < 6; j++)
				share[i] += lat[j] > t[i] ? w[j] / sum : 0;
		}
		metrics_mean_bounds(t, share, n, &lo, &hi);
		if (!(lo <= mean + 1e-9) || (!isnan(hi) && !(mean <= hi + 1e-9)))
			fail_msg("trial %d: mean %g outside [%g, %g]", trial, mean, lo, hi);
		if (isnan(hi) != slower)
			fail_msg("trial %d: upper bound %g, loads slower than %u: %d", trial, hi,
				 t[n - 1], slower);
		open += isnan(hi);
	}
	/* Both kinds were tried. */
	assert_true(open > 500 && open < 1500);
}

/* Rates: each metric's count over the time its own unit ran. */
static void test_rates(void **state)
{
	static const unsigned thr[2] = { 16, 64 };
	struct plan *pl = plan_for("haswell", thr, 2);
	struct sample_cpu *c = calloc(1, sizeof(*c));
	struct rates r;

	(void)state;
	c->ok = true;
	acc_set(pl, c, M_CYCLES, 6e9, 2.0);
	acc_set(pl, c, M_INSTRUCTIONS, 9e9, 2.0);
	acc_set(pl, c, M_REF_CYCLES, 4.8e9, 2.0);
	acc_set(pl, c, M_LOADS, 3e8, 0.5);
	acc_set(pl, c, M_SNOOP_HIT, 1000, 0.25);
	acc_set(pl, c, M_SNOOP_HITM, 300, 0.75);
	acc_set(pl, c, M_OFFCORE_READS, 4e6, 0.4);
	acc_set(pl, c, M_OFFCORE_OUTSTANDING, 8e8, 0.4);
	c->acc[pl->ldlat_unit[0]].count[0] = 5e6;
	c->acc[pl->ldlat_unit[0]].run_s = 0.5;
	c->acc[pl->ldlat_unit[1]].count[0] = 2e5;
	c->acc[pl->ldlat_unit[1]].run_s = 0.25;
	c->acc[pl->ldlat_unit[pl->tagged]].count[0] = 1001;
	c->acc[pl->ldlat_unit[pl->tagged]].run_s = 0.3;
	metrics_rates(pl, c, &r);
	/*
	 * The tagged loads behind each share: a count, the tagged rate (1001 in
	 * 0.3 s) times the time that threshold's unit ran, in whole loads;
	 * threshold 3's own count.
	 */
	assert_close(r.tagged_n[0], 1668);      /* 1668.33 */
	assert_close(r.tagged_n[1], 834);       /* 834.17 */
	assert_close(r.tagged_n[pl->tagged], 1001);
	assert_close(r.r[M_CYCLES], 3e9);
	assert_close(r.r[M_INSTRUCTIONS], 4.5e9);
	assert_close(r.r[M_REF_CYCLES], 2.4e9);
	assert_close(r.r[M_LOADS], 6e8);
	assert_close(r.r[M_SNOOP_HIT], 4000);
	assert_close(r.r[M_SNOOP_HITM], 400);
	assert_close(r.r[M_OFFCORE_READS], 1e7);
	assert_close(r.r[M_OFFCORE_OUTSTANDING], 2e9);
	assert_close(r.above[0], 1e7);
	assert_close(r.above[1], 8e5);
	assert_close(r.above[pl->tagged], 1001 / 0.3);
	for (int i = 2; i < THRESH_MAX; i++)
		if (i != pl->tagged)
			assert_nan(r.above[i]);

	/* A unit that never ran is not measured, not zero. */
	c->acc[pl->unit_of[M_SNOOP_HIT]].run_s = 0;
	metrics_rates(pl, c, &r);
	assert_nan(r.r[M_SNOOP_HIT]);
	/* A CPU that could not be read: nothing measured. */
	c->ok = false;
	metrics_rates(pl, c, &r);
	for (int m = 0; m < M__COUNT; m++)
		assert_nan(r.r[m]);
	assert_nan(r.above[0]);
	assert_nan(r.tagged_n[0]);
	free(c);
	free(pl);
}

/*
 * Standard errors of the shares: se^2 = p / n + p^2 / n3, the binomial
 * error among the n tagged loads of the threshold's slot and that of n,
 * estimated from threshold 3's n3.  The binomial term alone, p (1 - p) / n,
 * is what a naive reading gives.
 */
static void test_share_se(void **state)
{
	double se[4];

	(void)state;
	/* p .5 from n 100, n3 200: .5/100 + .25/200, not .25/100. */
	metrics_share_se((const double[]){ 0.5 }, (const double[]){ 100 }, 200, 1, se);
	assert_close(se[0], sqrt(0.005 + 0.00125));
	assert_true(se[0] > sqrt(0.5 * 0.5 / 100));
	/* Every tagged load slower: still a ratio of two noisy counts, not 0. */
	metrics_share_se((const double[]){ 1 }, (const double[]){ 400 }, 400, 1, se);
	assert_close(se[0], sqrt(2.0 / 400));
	/* Two shares pooled into their mean .3 (n 100 and 400), then one of 0. */
	metrics_share_se((const double[]){ 0.3, 0.3, 0 }, (const double[]){ 100, 400, 50 }, 1000,
			 3, se);
	assert_close(se[0], sqrt(0.3 / 4 * (0.01 + 0.0025) + 0.09 / 1000));
	assert_close(se[1], se[0]);
	assert_close(se[2], 0);
	/* No count (a recording without them), or none counted: not known. */
	metrics_share_se((const double[]){ 0.5, 0.2 }, (const double[]){ 100, NAN }, 200, 2, se);
	assert_close(se[0], sqrt(0.005 + 0.00125));
	assert_nan(se[1]);
	metrics_share_se((const double[]){ 0.5 }, (const double[]){ 100 }, NAN, 1, se);
	assert_nan(se[0]);
	metrics_share_se((const double[]){ 0.5 }, (const double[]){ 0 }, 200, 1, se);
	assert_nan(se[0]);
	metrics_share_se((const double[]){ NAN, 0.5 }, (const double[]){ 100, 100 }, 200, 2, se);
	assert_nan(se[0]);
	assert_close(se[1], sqrt(0.005 + 0.00125));
}

/* A metric the plan does not measure stays NAN in the rates, whatever the accumulations say. */
static void test_rates_unmeasured(void **state)
{
	struct plan *pl = plan_for("nehalem", (const unsigned[]){ 32 }, 1);
	struct sample_cpu *c = calloc(1, sizeof(*c));
	struct rates r;

	(void)state;
	assert_false(plan_has(pl, M_OFFCORE_OUTSTANDING));
	c->ok = true;
	for (int u = 0; u < PLAN_MAX_UNITS; u++) {
		c->acc[u].count[0] = c->acc[u].count[1] = 1000;
		c->acc[u].run_s = 1;
	}
	metrics_rates(pl, c, &r);
	assert_nan(r.r[M_OFFCORE_OUTSTANDING]);
	assert_close(r.r[M_OFFCORE_READS], 1000);
	free(c);
	free(pl);
}

static struct rates rates_nan(void)
{
	struct rates r;

	for (int m = 0; m < M__COUNT; m++)
		r.r[m] = NAN;
	for (int i = 0; i <= THRESH_MAX; i++)
		r.above[i] = r.tagged_n[i] = NAN;
	return r;
}

/* GHz = TSC Hz x cycles / reference cycles; IPC; offcore latency in cycles and ns. */
static void test_compute(void **state)
{
	static const unsigned thr[2] = { 16, 64 };
	struct plan *pl = plan_for("haswell", thr, 2);
	struct rates r = rates_nan();
	struct metrics m;

	(void)state;
	r.r[M_CYCLES] = 3e9;
	r.r[M_REF_CYCLES] = 2.4e9;
	r.r[M_INSTRUCTIONS] = 4.5e9;
	r.r[M_LOADS] = 100;
	r.above[pl->tagged] = 0.5;      /* tagged loads: 1 in 200 */
	r.above[0] = 0.25;
	r.above[1] = 0;
	r.r[M_SNOOP_HIT] = 4000;
	r.r[M_SNOOP_HITM] = 400;
	r.r[M_OFFCORE_READS] = 1e7;
	r.r[M_OFFCORE_OUTSTANDING] = 2e9;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_close(m.ghz, 2.5);                     /* 2.0 GHz TSC x 3 / 2.4 */
	assert_close(m.ipc, 1.5);
	assert_true(m.off.supported);
	assert_close(m.off.reads_per_sec, 1e7);
	assert_close(m.off.avg_latency_cycles, 200);  /* 2e9 / 1e7 */
	assert_close(m.off.avg_latency_ns, 80);       /* 200 cycles at 2.5 GHz */
	assert_true(m.snoop.supported);
	assert_close(m.snoop.hit_per_sec, 4000);
	assert_close(m.snoop.hitm_per_sec, 400);
	assert_true(m.lat.supported);
	assert_close(m.lat.loads_per_sec, 100);
	assert_int_equal(m.lat.nthresh, 2);
	assert_int_equal(m.lat.thresholds[1], 64);
	assert_int_equal(pl->tagged, 2);
	assert_int_equal(pl->thresholds[2], 3);
	assert_close(m.lat.tagged_per_sec, 0.5);
	assert_close(m.lat.above_share[0], 0.5);
	assert_close(m.lat.above_share[1], 0);
	/* Half the tagged loads are slower than 16: an estimated half of all loads. */
	assert_close(m.lat.above_per_sec[0], 50);
	assert_close(m.lat.above_per_sec[1], 0);
	/* 3 + (1 + 12 x .5) + (.5 + 47 x 0) and 3 + 13 + (.5 + 47 x .5) */
	assert_close(m.lat.mean_cycles_min, 10.5);
	assert_close(m.lat.mean_cycles_max, 40);
	assert_close(m.lat.mean_cycles_est, 25.25);
	/* 10.5..40 around 25.25: too wide for one number, the screen shows the range. */
	assert_true(metrics_mean_is_range(&m));
	m.lat.mean_cycles_min = 22;
	m.lat.mean_cycles_max = 28;
	m.lat.mean_cycles_est = 25;
	assert_false(metrics_mean_is_range(&m));
	assert_string_equal(m.snoop.hit_scope, "other_core");
	assert_string_equal(m.snoop.hitm_scope, "other_core");
	assert_false(metrics_mean_open(&m));
	/* No counts given: the standard errors are not known, not 0. */
	assert_nan(m.lat.tagged_count);
	assert_nan(m.lat.above_share_se[0]);
	/* 400 tagged loads counted at 3, 200 while 16 and 64 were measured. */
	r.tagged_n[pl->tagged] = 400;
	r.tagged_n[0] = r.tagged_n[1] = 200;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_close(m.lat.tagged_count, 400);
	assert_close(m.lat.tagged_n[0], 200);
	assert_close(m.lat.above_share_se[0], sqrt(0.5 / 200 + 0.25 / 400));
	assert_close(m.lat.above_per_sec_se[0], 100 * sqrt(0.5 / 200 + 0.25 / 400));
	assert_close(m.lat.above_share_se[1], 0);
	/* 200 tagged loads, a standard error 14% of the share: marked on the screen. */
	assert_true(metrics_above_unsure(&m, 0));
	r.tagged_n[pl->tagged] = 4e4;
	r.tagged_n[0] = r.tagged_n[1] = 2e4;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_false(metrics_above_unsure(&m, 0));
	/* A share of 0 from 99 tagged loads says little: marked. */
	assert_false(metrics_above_unsure(&m, 1));
	r.tagged_n[1] = 99;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_true(metrics_above_unsure(&m, 1));

	/* A fifth of the tagged loads slower than 64: no upper bound, so no middle. */
	r.above[1] = 0.1;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_close(m.lat.mean_cycles_min, 3 + 1 + 12 * 0.5 + 0.5 + 47 * 0.2 + 0.2);
	assert_nan(m.lat.mean_cycles_max);
	assert_nan(m.lat.mean_cycles_est);
	assert_true(metrics_mean_open(&m));
	assert_false(metrics_mean_is_range(&m));
	r.above[1] = 0;

	/* TSC rate unknown: no GHz, so no ns; the cycles remain. */
	metrics_compute(pl, &r, 0, &m);
	assert_nan(m.ghz);
	assert_close(m.off.avg_latency_cycles, 200);
	assert_nan(m.off.avg_latency_ns);
	free(pl);
}

/* Nothing measured: every number NAN, none 0. */
static void test_compute_all_nan(void **state)
{
	static const unsigned thr[1] = { 16 };
	struct plan *pl = plan_for("haswell", thr, 1);
	struct rates r = rates_nan();
	struct metrics m;

	(void)state;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_nan(m.ghz);
	assert_nan(m.ipc);
	assert_nan(m.lat.loads_per_sec);
	assert_nan(m.lat.above_per_sec[0]);
	assert_nan(m.lat.mean_cycles_est);
	assert_nan(m.snoop.hit_per_sec);
	assert_nan(m.snoop.hitm_per_sec);
	assert_nan(m.off.reads_per_sec);
	assert_nan(m.off.avg_latency_cycles);
	assert_nan(m.off.avg_latency_ns);
	/* Zero reference cycles or cycles: no GHz or IPC, rather than inf or 0. */
	r.r[M_CYCLES] = 0;
	r.r[M_REF_CYCLES] = 0;
	r.r[M_INSTRUCTIONS] = 5;
	metrics_compute(pl, &r, 2.0e9, &m);
	assert_nan(m.ghz);
	assert_nan(m.ipc);
	free(pl);
}

/* Unsupported metrics: NAN and the plan's reason, on Nehalem and on an Atom. */
static void test_compute_unsupported(void **state)
{
	struct plan *nhm = plan_for("nehalem", (const unsigned[]){ 16 }, 1);
	struct plan *slm = plan_for("silvermont", NULL, 0);
	struct rates r = rates_nan();
	struct metrics m;

	(void)state;
	r.r[M_CYCLES] = 2e9;
	r.r[M_REF_CYCLES] = 2e9;
	r.r[M_OFFCORE_READS] = 1e6;
	r.r[M_LOADS] = 1e6;
	metrics_compute(nhm, &r, 2e9, &m);
	/* Nehalem: the reads are measured and shown; the latency is not, with the reason. */
	assert_true(m.off.supported);
	assert_null(m.off.reason);
	assert_null(m.off.reads_reason);
	assert_string_equal(m.off.latency_reason, nhm->reason[M_OFFCORE_OUTSTANDING]);
	assert_close(m.off.reads_per_sec, 1e6);
	assert_nan(m.off.avg_latency_cycles);
	assert_nan(m.off.avg_latency_ns);

	metrics_compute(slm, &r, 2e9, &m);
	assert_false(m.lat.supported);
	assert_string_equal(m.lat.reason, slm->reason[M_LOAD_LATENCY]);
	assert_nan(m.lat.loads_per_sec);
	assert_nan(m.lat.mean_cycles_est);
	assert_nan(m.lat.above_per_sec[0]);
	assert_true(m.off.supported);
	/* Silvermont: clean hits seen in other modules only, HITM from any other core. */
	assert_string_equal(m.snoop.hit_scope, "other_module");
	assert_string_equal(m.snoop.hitm_scope, "other_core");
	assert_false(m.snoop.remote.supported);
	assert_non_null(m.snoop.remote.reason);
	free(nhm);
	free(slm);
}

/* Totals: rates add up; ratios come from the sums, not from averaging per-CPU ratios. */
static void test_totals(void **state)
{
	static const unsigned thr[2] = { 16, 1000 };
	struct plan *pl = plan_for("haswell", thr, 2);
	struct rates in[2] = { rates_nan(), rates_nan() }, sum;
	struct metrics m;

	(void)state;
	/* CPU A: IPC 1, offcore 100 cycles; CPU B: IPC 0.25, offcore 200 cycles. */
	in[0].r[M_INSTRUCTIONS] = 1e9;
	in[0].r[M_CYCLES] = 1e9;
	in[0].r[M_REF_CYCLES] = 1e9;
	in[0].r[M_OFFCORE_READS] = 1e6;
	in[0].r[M_OFFCORE_OUTSTANDING] = 1e8;
	in[0].r[M_LOADS] = 100;
	in[0].above[0] = 0;
	in[0].above[1] = 0;
	in[0].above[pl->tagged] = 40;
	in[1].r[M_INSTRUCTIONS] = 1e9;
	in[1].r[M_CYCLES] = 4e9;
	in[1].r[M_REF_CYCLES] = 2e9;
	in[1].r[M_OFFCORE_READS] = 1e8;
	in[1].r[M_OFFCORE_OUTSTANDING] = 2e10;
	in[1].r[M_LOADS] = 300;
	in[1].above[0] = 30;
	in[1].above[1] = 0;
	in[1].above[pl->tagged] = 60;
	metrics_sum(in, 2, &sum);
	assert_close(sum.r[M_INSTRUCTIONS], 2e9);
	assert_close(sum.r[M_CYCLES], 5e9);
	assert_close(sum.r[M_OFFCORE_READS], 1.01e8);
	assert_close(sum.above[0], 30);
	metrics_compute(pl, &sum, 1e9, &m);
	assert_close(m.ipc, 0.4);                                 /* not (1 + 0.25) / 2 */
	assert_close(m.ghz, 5.0 / 3.0);                           /* 1 GHz x 5e9 / 3e9 */
	assert_close(m.off.avg_latency_cycles, 2.01e10 / 1.01e8); /* not 150 */
	/* The share of the sums (30 of 100 tagged), not the mean of the CPUs' shares (0, 0.5). */
	assert_close(m.lat.above_share[0], 0.3);
	assert_close(m.lat.above_per_sec[0], 0.3 * 400);
	free(pl);

	/* Counts add up over CPUs too: the total's errors are smaller than each CPU's. */
	pl = plan_for("haswell", thr, 2);
	in[0].tagged_n[pl->tagged] = 40;
	in[0].tagged_n[0] = in[0].tagged_n[1] = 40;
	in[1].tagged_n[pl->tagged] = 60;
	in[1].tagged_n[0] = in[1].tagged_n[1] = 60;
	metrics_sum(in, 2, &sum);
	assert_close(sum.tagged_n[0], 100);
	metrics_compute(pl, &sum, 1e9, &m);
	assert_close(m.lat.tagged_count, 100);
	assert_close(m.lat.above_share_se[0], sqrt(0.3 / 100 + 0.09 / 100));
	free(pl);
}

/* A sum with an unmeasured input is unmeasured; a sum of nothing is not 0. */
static void test_totals_nan(void **state)
{
	struct rates in[3] = { rates_nan(), rates_nan(), rates_nan() }, sum;

	(void)state;
	for (int k = 0; k < 3; k++)
		in[k].r[M_CYCLES] = 1e9;
	in[1].r[M_LOADS] = 5;
	metrics_sum(in, 3, &sum);
	assert_close(sum.r[M_CYCLES], 3e9);
	assert_nan(sum.r[M_SNOOP_HIT]);
	assert_nan(sum.r[M_LOADS]);
	assert_nan(sum.above[0]);
	metrics_sum(in, 0, &sum);
	for (int m = 0; m < M__COUNT; m++)
		assert_nan(sum.r[m]);
	assert_nan(sum.above[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_tagged),
		cmocka_unit_test(test_shares_monotone),
		cmocka_unit_test(test_mean_bounds),
		cmocka_unit_test(test_mean_bounds_hold),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_rates_unmeasured),
		cmocka_unit_test(test_share_se),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_all_nan),
		cmocka_unit_test(test_compute_unsupported),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_totals_nan),
	};

	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
