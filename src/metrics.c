/*
 * metrics.c: rates and the numbers derived from them (see metrics.h).
 */
#include <math.h>
#include <string.h>

#include "src/metrics.h"

static double rate(const struct unit_acc *a, int row)
{
	return a->run_s > 0 ? a->count[row] / a->run_s : NAN;
}

void metrics_rates(const struct plan *pl, const struct sample_cpu *c, struct rates *out)
{
	for (int m = 0; m < M__COUNT; m++)
		out->r[m] = NAN;
	for (int i = 0; i < PLAN_MAX_THRESH; i++)
		out->above[i] = NAN;
	if (!c->ok)
		return;
	for (int m = 0; m < M__COUNT; m++) {
		int ui = pl->unit_of[m];

		if (ui < 0 || m == M_LOAD_LATENCY)
			continue;
		for (int j = 0; j < pl->unit[ui].nrows; j++)
			if (pl->unit[ui].row[j] && (int)pl->unit[ui].row[j]->metric == m)
				out->r[m] = rate(&c->acc[ui], j);
	}
	for (int i = 0; i < pl->nthresh; i++)
		if (pl->ldlat_unit[i] >= 0)
			out->above[i] = rate(&c->acc[pl->ldlat_unit[i]], 0);
}

void metrics_add(struct rates *acc, const struct rates *r)
{
	for (int m = 0; m < M__COUNT; m++)
		acc->r[m] += r->r[m];
	for (int i = 0; i < PLAN_MAX_THRESH; i++)
		acc->above[i] += r->above[i];
}

void metrics_sum(const struct rates *in, int n, struct rates *out)
{
	if (n == 0) {
		for (int m = 0; m < M__COUNT; m++)
			out->r[m] = NAN;
		for (int i = 0; i < PLAN_MAX_THRESH; i++)
			out->above[i] = NAN;
		return;
	}
	*out = in[0];
	for (int k = 1; k < n; k++)
		metrics_add(out, &in[k]);
}

double metrics_mean_latency(const unsigned *t, const double *above, int n, double loads)
{
	double sum = 0, total, low;

	if (n == 0 || !(loads > 0))
		return NAN;
	for (int i = 0; i < n; i++)
		if (isnan(above[i]))
			return NAN;
	/*
	 * Thresholds measured in different rotation slots can disagree
	 * (above[0] > loads when the load rate changes within the interval):
	 * every band is clamped at zero and the mean taken over their sum.
	 */
	low = fmax(loads - above[0], 0);
	total = low;
	sum = low * (4 + (t[0] > 4 ? t[0] : 4)) / 2.0;
	for (int i = 0; i < n; i++) {
		double cnt = fmax(i + 1 < n ? above[i] - above[i + 1] : above[i], 0);
		/* A band counts at its middle; loads above the highest threshold at twice it. */
		double at = i + 1 < n ? ((t[i] + 1) + t[i + 1]) / 2.0 : 2.0 * t[i];

		sum += cnt * at;
		total += cnt;
	}
	return total > 0 ? sum / total : NAN;
}

static const char *first_reason(const struct plan *pl, enum metric a, enum metric b)
{
	return pl->reason[a] ? pl->reason[a] : pl->reason[b];
}

void metrics_compute(const struct plan *pl, const struct rates *r, double tsc_hz,
		     struct metrics *out)
{
	memset(out, 0, sizeof(*out));
	out->ghz = tsc_hz > 0 ? tsc_hz * r->r[M_CYCLES] / r->r[M_REF_CYCLES] / 1e9 : NAN;
	if (!isfinite(out->ghz))
		out->ghz = NAN;
	out->ipc = r->r[M_INSTRUCTIONS] / r->r[M_CYCLES];
	if (!isfinite(out->ipc))
		out->ipc = NAN;

	out->lat.supported = plan_has(pl, M_LOAD_LATENCY);
	out->lat.reason = pl->reason[M_LOAD_LATENCY];
	out->lat.nthresh = pl->nthresh;
	memcpy(out->lat.thresholds, pl->thresholds, sizeof(out->lat.thresholds));
	out->lat.loads_per_sec = r->r[M_LOADS];
	for (int i = 0; i < PLAN_MAX_THRESH; i++)
		out->lat.above_per_sec[i] = out->lat.supported ? r->above[i] : NAN;
	out->lat.mean_cycles_est = out->lat.supported ?
		metrics_mean_latency(pl->thresholds, r->above, pl->nthresh, r->r[M_LOADS]) : NAN;
	if (!out->lat.supported)
		out->lat.loads_per_sec = NAN;

	out->snoop.supported = plan_has(pl, M_SNOOP_HIT) && plan_has(pl, M_SNOOP_HITM);
	out->snoop.reason = first_reason(pl, M_SNOOP_HIT, M_SNOOP_HITM);
	out->snoop.hit_per_sec = r->r[M_SNOOP_HIT];
	out->snoop.hitm_per_sec = r->r[M_SNOOP_HITM];

	out->off.supported = plan_has(pl, M_OFFCORE_READS) && plan_has(pl, M_OFFCORE_OUTSTANDING);
	out->off.reason = first_reason(pl, M_OFFCORE_OUTSTANDING, M_OFFCORE_READS);
	out->off.reads_per_sec = r->r[M_OFFCORE_READS];
	out->off.avg_latency_cycles = NAN;
	out->off.avg_latency_ns = NAN;
	if (out->off.supported && r->r[M_OFFCORE_READS] > 0) {
		out->off.avg_latency_cycles = r->r[M_OFFCORE_OUTSTANDING] / r->r[M_OFFCORE_READS];
		if (out->ghz > 0)
			out->off.avg_latency_ns = out->off.avg_latency_cycles / out->ghz;
	}
}
