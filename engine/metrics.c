/*
 * metrics.c: rates and the numbers derived from them (see metrics.h).
 */
#include <math.h>
#include <string.h>

#include "engine/metrics.h"
#include "engine/plan.h"
#include "engine/sampler.h"

static double rate(const struct unit_acc *a, int row)
{
	return a->run_s > 0 ? a->count[row] / a->run_s : NAN;
}

static void rates_clear(struct rates *out)
{
	for (int m = 0; m < M__COUNT; m++)
		out->r[m] = NAN;
	for (int i = 0; i <= THRESH_MAX; i++)
		out->above[i] = out->tagged_n[i] = NAN;
}

void metrics_rates(const struct plan *pl, const struct sample_cpu *c, struct rates *out)
{
	rates_clear(out);
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
	for (int i = 0; i <= THRESH_MAX; i++)
		if (pl->ldlat_unit[i] >= 0)
			out->above[i] = rate(&c->acc[pl->ldlat_unit[i]], 0);
	/*
	 * The tagged loads behind each threshold's share: one threshold
	 * register, so not counted in its own slot but estimated from the
	 * tagged rate over the time its unit ran.  Whole loads: the totals
	 * add up exactly, and a recording derives them.
	 */
	for (int i = 0; pl->tagged >= 0 && i <= THRESH_MAX; i++)
		if (pl->ldlat_unit[i] >= 0)
			out->tagged_n[i] = round(out->above[pl->tagged] *
						 c->acc[pl->ldlat_unit[i]].run_s);
}

void metrics_add(struct rates *acc, const struct rates *r)
{
	for (int m = 0; m < M__COUNT; m++)
		acc->r[m] += r->r[m];
	for (int i = 0; i <= THRESH_MAX; i++) {
		acc->above[i] += r->above[i];
		acc->tagged_n[i] += r->tagged_n[i];
	}
}

void metrics_sum(const struct rates *in, int n, struct rates *out)
{
	if (n == 0) {
		rates_clear(out);
		return;
	}
	*out = in[0];
	for (int k = 1; k < n; k++)
		metrics_add(out, &in[k]);
}

void metrics_shares(const double *above, double tagged, int n, double *share)
{
	double sum[THRESH_MAX + 1];
	int len[THRESH_MAX + 1], nb = 0, k = 0;

	for (int i = 0; i < n; i++) {
		if (!(tagged > 0) || isnan(above[i])) {
			for (int j = 0; j < n; j++)
				share[j] = NAN;
			return;
		}
		share[i] = fmin(fmax(above[i] / tagged, 0), 1);
	}
	/*
	 * Pool adjacent violators: the non-increasing sequence nearest to the
	 * shares in least squares.  Each block holds the mean of its shares; a
	 * block higher than the one before merges into it.
	 */
	for (int i = 0; i < n; i++) {
		sum[nb] = share[i];
		len[nb] = 1;
		nb++;
		while (nb > 1 && sum[nb - 1] / len[nb - 1] > sum[nb - 2] / len[nb - 2]) {
			sum[nb - 2] += sum[nb - 1];
			len[nb - 2] += len[nb - 1];
			nb--;
		}
	}
	for (int b = 0; b < nb; b++)
		for (int j = 0; j < len[b]; j++)
			share[k++] = sum[b] / len[b];
}

void metrics_mean_bounds(const unsigned *t, const double *share, int n, double *lo, double *hi)
{
	/* t = 0, 1, 2: every load is slower (P(L > t) = 1). */
	double l = THRESH_TAGGED, h = THRESH_TAGGED;
	double prev_s = 1;
	unsigned prev_t = THRESH_TAGGED;

	*lo = *hi = NAN;
	if (n == 0)
		return;         /* threshold 3 alone says nothing of the distribution */
	for (int i = 0; i < n; i++)
		if (isnan(share[i]))
			return;
	/*
	 * From one threshold to the next, [prev_t, t): the first term is the
	 * known share at prev_t; each of the others lies between the two shares.
	 */
	for (int i = 0; i < n; i++) {
		double inner = (double)(t[i] - prev_t - 1);

		l += prev_s + inner * share[i];
		h += prev_s + inner * prev_s;
		prev_s = share[i];
		prev_t = t[i];
	}
	/*
	 * From the top threshold on: P(L > top) is its share; each later term
	 * is at least 0 and, unless that share is 0, unbounded in sum.
	 */
	*lo = l + prev_s;
	*hi = prev_s > 0 ? NAN : h + prev_s;
}

void metrics_share_se(const double *share, const double *tn, double n3, int n, double *se)
{
	for (int i = 0, j; i < n; i = j) {
		double p = share[i], inv = 0;
		int k;

		for (j = i; j < n && share[j] == p; j++)
			inv += 1 / tn[j];
		if (j == i) {           /* a NAN share: a run of one */
			se[i] = NAN;
			j = i + 1;
			continue;
		}
		k = j - i;
		for (int q = i; q < j; q++)
			se[q] = n3 >= 1 && isfinite(inv) && inv > 0 ?
				sqrt(p * inv / ((double)k * k) + p * p / n3) : NAN;
	}
}

void metrics_stderr(const struct metrics *m, double *share_se, double *rate_se)
{
	int first = 0, n = m->lat.nthresh;

	/* Thresholds up to 3: every load is slower, exactly. */
	while (first < n && m->lat.thresholds[first] <= THRESH_TAGGED) {
		share_se[first] = isnan(m->lat.above_share[first]) ? NAN : 0;
		first++;
	}
	metrics_share_se(m->lat.above_share + first, m->lat.tagged_n + first, m->lat.tagged_count,
			 n - first, share_se + first);
	for (int i = 0; i < n; i++)
		rate_se[i] = share_se[i] * m->lat.loads_per_sec;
}

/*
 * Is @m measured in @r: planned, and for a part unit's metric (plan.h),
 * run on this CPU (or, in a sum, on some CPU of it)?
 */
static bool has(const struct plan *pl, const struct rates *r, enum metric m)
{
	return plan_has(pl, m) && !(pl->part_reason[m] && isnan(r->r[m]));
}

/* Why @m is not measured in @r, or NULL. */
static const char *why(const struct plan *pl, const struct rates *r, enum metric m)
{
	if (pl->reason[m])
		return pl->reason[m];
	return has(pl, r, m) ? NULL : pl->part_reason[m];
}

static const char *first_reason(const struct plan *pl, const struct rates *r, enum metric a,
				enum metric b)
{
	return why(pl, r, a) ? why(pl, r, a) : why(pl, r, b);
}

/* The scope of the snoop row a plan measures @m with, as its JSON name. */
static const char *scope_of(const struct plan *pl, enum metric m)
{
	int ui = pl->unit_of[m];
	const struct plan_unit *u;

	if (ui < 0)
		return NULL;
	u = &pl->unit[ui];
	/* Every alternative of a snoop unit has the same scope (tests/test_events.c). */
	return snoop_scope_name(u->nalt ? u->alt[0]->scope : u->row[0]->scope);
}

static void compute_latency(const struct plan *pl, const struct rates *r, struct metrics *out)
{
	double above[THRESH_MAX] = { 0 }, share[THRESH_MAX] = { 0 };
	unsigned t[THRESH_MAX] = { 0 };
	int n = 0, first = 0;
	bool ld = plan_has(pl, M_LOAD_LATENCY), loads = has(pl, r, M_LOADS);

	out->lat.supported = ld || loads;
	out->lat.reason = out->lat.supported ? NULL : pl->reason[M_LOAD_LATENCY];
	out->lat.loads_reason = why(pl, r, M_LOADS);
	out->lat.tagged_reason = pl->reason[M_LOAD_LATENCY];
	out->lat.nthresh = pl->nthresh;
	memcpy(out->lat.thresholds, pl->thresholds, sizeof(out->lat.thresholds));
	out->lat.loads_per_sec = loads ? r->r[M_LOADS] : NAN;
	out->lat.tagged_per_sec = ld ? r->above[pl->tagged] : NAN;
	out->lat.mean_cycles_min = out->lat.mean_cycles_max = out->lat.mean_cycles_est = NAN;
	out->lat.tagged_count = ld ? r->tagged_n[pl->tagged] : NAN;
	for (int i = 0; i < THRESH_MAX; i++) {
		out->lat.above_share[i] = out->lat.above_per_sec[i] = NAN;
		out->lat.tagged_n[i] = ld && i < pl->nthresh ? r->tagged_n[i] : NAN;
		out->lat.above_share_se[i] = out->lat.above_per_sec_se[i] = NAN;
	}
	if (!ld)
		return;
	/* Thresholds are ascending (options.c); one equal to 3 is the base itself. */
	for (int i = 0; i < pl->nthresh; i++) {
		if (pl->thresholds[i] <= THRESH_TAGGED) {
			first = i + 1;
			continue;
		}
		t[n] = pl->thresholds[i];
		above[n++] = r->above[i];
	}
	metrics_shares(above, out->lat.tagged_per_sec, n, share);
	for (int i = 0; i < first; i++)
		out->lat.above_share[i] = out->lat.tagged_per_sec > 0 ? 1 : NAN;
	for (int i = 0; i < n; i++)
		out->lat.above_share[first + i] = share[i];
	for (int i = 0; i < pl->nthresh; i++)
		out->lat.above_per_sec[i] = out->lat.above_share[i] * out->lat.loads_per_sec;
	metrics_mean_bounds(t, share, n, &out->lat.mean_cycles_min, &out->lat.mean_cycles_max);
	/* An open upper bound has no middle: NAN, and the outputs show the lower bound. */
	out->lat.mean_cycles_est = (out->lat.mean_cycles_min + out->lat.mean_cycles_max) / 2;
	metrics_stderr(out, out->lat.above_share_se, out->lat.above_per_sec_se);
}

void metrics_compute(const struct plan *pl, const struct rates *r, double tsc_hz,
		     struct metrics *out)
{
	bool hit, hitm, reads, outst;

	memset(out, 0, sizeof(*out));
	out->ghz = tsc_hz > 0 ? tsc_hz * r->r[M_CYCLES] / r->r[M_REF_CYCLES] / 1e9 : NAN;
	if (!isfinite(out->ghz))
		out->ghz = NAN;
	out->ipc = r->r[M_INSTRUCTIONS] / r->r[M_CYCLES];
	if (!isfinite(out->ipc))
		out->ipc = NAN;

	compute_latency(pl, r, out);

	hit = has(pl, r, M_SNOOP_HIT);
	hitm = has(pl, r, M_SNOOP_HITM);
	out->snoop.supported = hit || hitm;
	out->snoop.reason = out->snoop.supported ? NULL : first_reason(pl, r, M_SNOOP_HIT, M_SNOOP_HITM);
	out->snoop.hit_reason = why(pl, r, M_SNOOP_HIT);
	out->snoop.hitm_reason = why(pl, r, M_SNOOP_HITM);
	out->snoop.hit_per_sec = hit ? r->r[M_SNOOP_HIT] : NAN;
	out->snoop.hitm_per_sec = hitm ? r->r[M_SNOOP_HITM] : NAN;
	out->snoop.hit_scope = scope_of(pl, M_SNOOP_HIT);
	out->snoop.hitm_scope = scope_of(pl, M_SNOOP_HITM);
	out->snoop.remote.supported = has(pl, r, M_SNOOP_REMOTE_HIT) &&
				      has(pl, r, M_SNOOP_REMOTE_HITM);
	out->snoop.remote.reason = first_reason(pl, r, M_SNOOP_REMOTE_HITM, M_SNOOP_REMOTE_HIT);
	out->snoop.remote.hit_per_sec = has(pl, r, M_SNOOP_REMOTE_HIT) ?
		r->r[M_SNOOP_REMOTE_HIT] : NAN;
	out->snoop.remote.hitm_per_sec = has(pl, r, M_SNOOP_REMOTE_HITM) ?
		r->r[M_SNOOP_REMOTE_HITM] : NAN;

	/* Nehalem counts offcore reads but has no occupancy event: the reads are shown. */
	reads = has(pl, r, M_OFFCORE_READS);
	outst = has(pl, r, M_OFFCORE_OUTSTANDING);
	out->off.supported = reads;
	out->off.reason = reads ? NULL : why(pl, r, M_OFFCORE_READS);
	out->off.reads_reason = why(pl, r, M_OFFCORE_READS);
	out->off.latency_reason = first_reason(pl, r, M_OFFCORE_OUTSTANDING, M_OFFCORE_READS);
	out->off.reads_per_sec = reads ? r->r[M_OFFCORE_READS] : NAN;
	out->off.avg_latency_cycles = NAN;
	out->off.avg_latency_ns = NAN;
	if (reads && outst && r->r[M_OFFCORE_READS] > 0) {
		out->off.avg_latency_cycles = r->r[M_OFFCORE_OUTSTANDING] / r->r[M_OFFCORE_READS];
		if (out->ghz > 0)
			out->off.avg_latency_ns = out->off.avg_latency_cycles / out->ghz;
	}
}
