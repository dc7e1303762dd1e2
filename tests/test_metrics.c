/*
 * test_metrics.c: what the numbers mean (src/metrics.c).
 *
 * Hand-computed examples for the mean load latency, rates (count over the
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
#include "src/metrics.h"
#include "src/plan.h"
#include "src/sampler.h"

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
	struct plan_resources res;
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
 * metrics.h: "each bin counts at its middle, loads at or below the lowest
 * threshold at the middle of [4, t0] ..., those above the highest at twice
 * it."  Latencies are whole cycles, and "above t" is >= t + 1.  These
 * examples leave the top bin empty; test_mean_latency_top_bin fills it.
 */
static void test_mean_latency_one_threshold(void **state)
{
	const unsigned t[1] = { 16 };

	(void)state;
	/* None above: all at (4 + 16) / 2. */
	assert_close(metrics_mean_latency(t, (const double[]){ 0 }, 1, 40), 10.0);
}

static void test_mean_latency_bins(void **state)
{
	const unsigned t[3] = { 8, 16, 64 };
	const double above[3] = { 50, 20, 0 };

	(void)state;
	/*
	 * 50 at or below 8:     50 x (4 + 8) / 2          =  300
	 * 30 in (8, 16]:        30 x (9 + 16) / 2         =  375
	 * 20 in (16, 64]:       20 x (17 + 64) / 2        =  810
	 * mean = 1485 / 100
	 */
	assert_close(metrics_mean_latency(t, above, 3, 100), 14.85);
}

/* Loads above the highest threshold count at twice it (metrics.h). */
static void test_mean_latency_top_bin(void **state)
{
	const unsigned t[2] = { 16, 64 };

	(void)state;
	/* 75 at 10, 25 at 2 x 16 = 32: (750 + 800) / 100. */
	assert_close(metrics_mean_latency(t, (const double[]){ 25 }, 1, 100), 15.5);
	/* 50 at 10, 30 at (17 + 64) / 2, 20 at 128: (500 + 1215 + 2560) / 100. */
	assert_close(metrics_mean_latency(t, (const double[]){ 50, 20 }, 2, 100), 42.75);
}

/* A threshold below the 4-cycle minimum: the lowest bin is [4, 4]. */
static void test_mean_latency_low_threshold(void **state)
{
	const unsigned t[2] = { 3, 32 };
	const double above[2] = { 10, 0 };

	(void)state;
	/* 2 at or below 3: at 4, the shortest load; 10 in (3, 32] at (4 + 32) / 2 = 18. */
	assert_close(metrics_mean_latency(t, above, 2, 12), (2 * 4.0 + 10 * 18.0) / 12);
}

/*
 * Rates measured in different rotation slots need not be consistent:
 * "above 16" may come out higher than the loads.  A mean of bin values
 * still lies between the smallest and the largest bin value.
 */
static void test_mean_latency_bounded(void **state)
{
	const unsigned t[2] = { 16, 32 };
	const double above[2] = { 150, 140 };
	double m;

	(void)state;
	m = metrics_mean_latency(t, above, 2, 100);
	assert_false(isnan(m));
	/* Bin values: 10 at the bottom, at most 2 x 32 at the top. */
	if (!(m >= 10 && m <= 64))
		fail_msg("mean %.4g outside the bin values [10, 64]", m);
}

static void test_mean_latency_nan(void **state)
{
	const unsigned t[2] = { 16, 32 };
	const double above[2] = { 10, 2 };

	(void)state;
	assert_nan(metrics_mean_latency(t, above, 2, 0));
	assert_nan(metrics_mean_latency(t, above, 2, NAN));
	assert_nan(metrics_mean_latency(t, above, 0, 100));
	assert_nan(metrics_mean_latency(t, (const double[]){ 10, NAN }, 2, 100));
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
	metrics_rates(pl, c, &r);
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
	for (int i = 2; i < PLAN_MAX_THRESH; i++)
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
	free(c);
	free(pl);
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
	for (int i = 0; i < PLAN_MAX_THRESH; i++)
		r.above[i] = NAN;
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
	r.above[0] = 25;
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
	assert_close(m.lat.above_per_sec[0], 25);
	/* 75 x 10 + 25 x (17 + 64) / 2 = 750 + 1012.5 */
	assert_close(m.lat.mean_cycles_est, 17.625);

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
	assert_false(m.off.supported);
	assert_string_equal(m.off.reason, nhm->reason[M_OFFCORE_OUTSTANDING]);
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
	in[1].r[M_INSTRUCTIONS] = 1e9;
	in[1].r[M_CYCLES] = 4e9;
	in[1].r[M_REF_CYCLES] = 2e9;
	in[1].r[M_OFFCORE_READS] = 1e8;
	in[1].r[M_OFFCORE_OUTSTANDING] = 2e10;
	in[1].r[M_LOADS] = 300;
	in[1].above[0] = 100;
	in[1].above[1] = 0;
	metrics_sum(in, 2, &sum);
	assert_close(sum.r[M_INSTRUCTIONS], 2e9);
	assert_close(sum.r[M_CYCLES], 5e9);
	assert_close(sum.r[M_OFFCORE_READS], 1.01e8);
	assert_close(sum.above[0], 100);
	metrics_compute(pl, &sum, 1e9, &m);
	assert_close(m.ipc, 0.4);                                 /* not (1 + 0.25) / 2 */
	assert_close(m.ghz, 5.0 / 3.0);                           /* 1 GHz x 5e9 / 3e9 */
	assert_close(m.off.avg_latency_cycles, 2.01e10 / 1.01e8); /* not 150 */
	/* 300 loads at 10, 100 in (16, 1000] at 508.5, over 400 loads. */
	assert_close(m.lat.mean_cycles_est, (300 * 10.0 + 100 * 508.5) / 400);
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
		cmocka_unit_test(test_mean_latency_one_threshold),
		cmocka_unit_test(test_mean_latency_bins),
		cmocka_unit_test(test_mean_latency_top_bin),
		cmocka_unit_test(test_mean_latency_low_threshold),
		cmocka_unit_test(test_mean_latency_bounded),
		cmocka_unit_test(test_mean_latency_nan),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_rates_unmeasured),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_all_nan),
		cmocka_unit_test(test_compute_unsupported),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_totals_nan),
	};

	return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
