/*
 * snapshot.c: the rows of an interval, per CPU, per core and in total.
 * See snapshot.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "cpu/msrdev.h"
#include "cpu/pmu.h"
#include "engine/plan.h"
#include "engine/sampler.h"
#include "engine/snapshot.h"

/* Core rows: one per (package, core), in order. */
static int cmp_core(const void *a, const void *b)
{
	const struct msrdev_cpu *x = *(const struct msrdev_cpu *const *)a;
	const struct msrdev_cpu *y = *(const struct msrdev_cpu *const *)b;

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	return (x->core > y->core) - (x->core < y->core);
}

/* Rows for the CPUs of @dev at indices @at[0..@n): what both initialisers share. */
static int snapshot_init_at(struct snapshot *s, const struct msrdev *dev, const int *at, int n)
{
	const struct msrdev_cpu **by = calloc(n ? n : 1, sizeof(*by));

	s->ncpu = n;
	s->ncore = 0;
	s->cpu = calloc(n, sizeof(*s->cpu));
	s->core = calloc(n, sizeof(*s->core));
	s->rates = calloc(n, sizeof(*s->rates));
	s->ok_rates = calloc(n, sizeof(*s->ok_rates));
	s->core_rates = calloc(n, sizeof(*s->core_rates));
	s->core_of = calloc(n, sizeof(*s->core_of));
	s->core_type = calloc(n ? n : 1, sizeof(*s->core_type));
	if (!by || !s->cpu || !s->core || !s->rates || !s->ok_rates || !s->core_rates || !s->core_of ||
	    !s->core_type) {
		free(by);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const struct msrdev_cpu *dc = &dev->cpu[at[i]];

		by[i] = dc;
		s->cpu[i] = (struct row){ .cpu = dc->id, .core = dc->core, .package = dc->package,
					  .nthreads = 1, .rates = &s->rates[i] };
	}
	qsort(by, n, sizeof(*by), cmp_core);
	for (int k = 0; k < n; k++) {
		if (k == 0 || cmp_core(&by[k - 1], &by[k]))
			s->core[s->ncore++] = (struct row){ .cpu = -1, .core = by[k]->core,
							    .package = by[k]->package };
	}
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < s->ncore; k++)
			if (s->core[k].core == s->cpu[i].core && s->core[k].package == s->cpu[i].package)
				s->core_of[i] = k;
		s->core[s->core_of[i]].nthreads++;
	}
	for (int k = 0; k < s->ncore; k++)
		s->core[k].rates = &s->core_rates[k];
	free(by);
	return 0;
}

int snapshot_init(struct snapshot *s, const struct msrdev *dev, const struct pmu *pmu)
{
	int *at = calloc(pmu->ncpu ? pmu->ncpu : 1, sizeof(*at)), rc;

	if (!at)
		return -1;
	for (int i = 0; i < pmu->ncpu; i++)
		at[i] = pmu->cpu[i].dev;
	rc = snapshot_init_at(s, dev, at, pmu->ncpu);
	free(at);
	return rc;
}

int snapshot_init_ids(struct snapshot *s, const struct msrdev *dev, const int *ids, int n)
{
	int *at = calloc(n ? n : 1, sizeof(*at)), rc;

	if (!at)
		return -1;
	for (int i = 0; i < n; i++)
		if ((at[i] = msrdev_index(dev, ids[i])) < 0) {
			free(at);
			return -1;
		}
	rc = snapshot_init_at(s, dev, at, n);
	free(at);
	return rc;
}

void snapshot_free(struct snapshot *s)
{
	free(s->cpu);
	free(s->core);
	free(s->rates);
	free(s->ok_rates);
	free(s->core_rates);
	free(s->core_of);
	free(s->core_type);
	s->core_type = NULL;
	s->cpu = s->core = NULL;
	s->rates = s->ok_rates = s->core_rates = NULL;
	s->core_of = NULL;
	s->ncpu = s->ncore = 0;
}

/* Why a CPU has no numbers this interval. */
static const char *cpu_error(const struct sample_cpu *sc, bool root_dropped)
{
	if ((sc->err == -EACCES || sc->err == -EPERM) && root_dropped)
		return "back online, but lattop gave up root after starting: restart lattop to measure it";
	if (sc->spoiled[0])
		return sc->spoiled;
	if (sc->offline)
		return "offline";
	if (sc->err == -EBUSY)
		return "its counters changed hands: measured again from the next interval";
	if (sc->stopped)
		return "its counters were stopped by another agent's PMI (IA32_DEBUGCTL."
		       "FREEZE_PERFMON_ON_PMI cleared IA32_PERF_GLOBAL_CTRL; its handler set only its own "
		       "bits again): not measured this interval; lattop set its bits again";
	if (sc->frozen)
		return "its counters were frozen (IA32_PERF_GLOBAL_STATUS.CTR_Frz, set by another agent's "
		       "IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI): not measured while frozen";
	return pmu_strerror(sc->err, false);
}

/* The share of the interval the unit measuring @m ran. */
static double unit_share(const struct plan *pl, enum metric m)
{
	int ui = pl->unit_of[m];

	if (ui < 0)
		return 0;
	if (pl->unit[ui].fixed)
		return 1;
	return (double)pl->unit[ui].nslots / pl->nslots;
}

void snapshot_compute(struct snapshot *s, const struct plan *pl, const struct sample_cpu *cpu,
		      double tsc, bool root_dropped)
{
	struct rates total;
	int ok = 0;

	for (int k = 0; k < s->ncore; k++) {
		metrics_sum(NULL, 0, &s->core_rates[k]);
		s->core[k].ok = false;
	}
	for (int i = 0; i < s->ncpu; i++) {
		const struct sample_cpu *sc = &cpu[i];
		const struct plan *cp = plan_of_type(pl, sc->type);     /* its core type's */
		struct row *c = &s->cpu[i];

		c->ok = sc->ok;
		c->error = sc->ok ? NULL : cpu_error(sc, root_dropped);
		c->interval_s = sc->interval_s;
		c->core_type = pl->ntypes ? pl->type_name[sc->type] : NULL;
		s->core[s->core_of[i]].core_type = c->core_type;
		s->core_type[s->core_of[i]] = sc->type;
		metrics_rates(cp, sc, &s->rates[i]);
		metrics_compute(cp, &s->rates[i], tsc, &c->m);
		if (sc->ok) {
			struct row *core = &s->core[s->core_of[i]];

			s->ok_rates[ok++] = s->rates[i];
			if (core->ok)
				metrics_add(&s->core_rates[s->core_of[i]], &s->rates[i]);
			else
				s->core_rates[s->core_of[i]] = s->rates[i];
			core->ok = true;
			core->interval_s = sc->interval_s;
		}
	}
	/* A core's threads are of one core type. */
	for (int k = 0; k < s->ncore; k++)
		metrics_compute(plan_of_type(pl, s->core_type[k]), &s->core_rates[k], tsc, &s->core[k].m);
	metrics_sum(s->ok_rates, ok, &total);
	/*
	 * A part unit's metric (plan.h) is of the CPUs where it ran; the
	 * notes name those where it did not (plan_part_note()).
	 */
	for (int m = 0; m < M__COUNT; m++) {
		double sum = 0;
		int n = 0;

		if (!pl->part_reason[m])
			continue;
		for (int k = 0; k < ok; k++)
			if (!isnan(s->ok_rates[k].r[m])) {
				sum += s->ok_rates[k].r[m];
				n++;
			}
		total.r[m] = n ? sum : NAN;
	}
	metrics_compute(pl, &total, tsc, &s->total);
	s->interval_s = s->ncpu ? cpu[0].interval_s : 0;
	s->share_lat = pl->ldlat_unit[0] >= 0 ?
		(double)pl->unit[pl->ldlat_unit[0]].nslots / pl->nslots : 0;
	s->share_snoop = fmin(unit_share(pl, M_SNOOP_HIT), unit_share(pl, M_SNOOP_HITM));
	s->share_offcore = unit_share(pl, M_OFFCORE_READS);
}
