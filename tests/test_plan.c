/*
 * test_plan.c: the rotation planner (engine/plan.c).
 *
 * For each of the eight supported microarchitectures, with every counter
 * free and then with every combination of taken counters, offcore MSRs
 * and load-latency facility, the plan must be self-consistent: counters
 * within each row's mask and within the free ones, one value per
 * MSR_OFFCORE_RSP_x per slot, one load-latency counter in every slot with
 * its threshold, the two rows of a ratio always together, every unit
 * running somewhere, and every metric either measured or given a reason.
 * Then the cases the brief names: Westmere without PMC0, Haswell without
 * PMC3, fixed counter 1 taken, the PEBS facility taken, 16 and 17
 * thresholds.  What the test expects of each uarch is written here, not
 * read from the table being tested.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu/events.h"
#include "cpu/pmu.h"
#include "cpu/uarch.h"
#include "engine/plan.h"

#define BIT(m) (1u << (m))
#define REMOTE      (BIT(M_SNOOP_REMOTE_HIT) | BIT(M_SNOOP_REMOTE_HITM))

/*
 * What @u measures on a model with @flags and @packages packages, as
 * uarch_metric_status() reads it from the table's rows: the planner must
 * schedule exactly these when everything is free.
 */
static unsigned expected_metrics(const struct uarch *u, unsigned flags, unsigned packages)
{
	unsigned want = 0;

	for (int m = 0; m < M__COUNT; m++) {
		struct uarch_metric st;

		uarch_metric_status(u, (enum metric)m, &st);
		if (st.measured && (st.model_flags & ~flags) == 0 && st.packages <= packages)
			want |= BIT(m);
	}
	return want;
}

/* Whether @u has a load-latency facility: its table measures load latency. */
static bool has_ldlat(const struct uarch *u)
{
	return (expected_metrics(u, ~0u, 2) & BIT(M_LOAD_LATENCY)) != 0;
}

static const unsigned thr5[] = { 8, 16, 32, 64, 128 };

static bool remote_metric(int m)
{
	return (REMOTE & BIT(m)) != 0;
}

static struct plan *plan_new(void)
{
	struct plan *pl = calloc(1, sizeof(*pl));

	assert_non_null(pl);
	return pl;
}

/* Everything free on @u. */
static void res_all_free(struct plan_resources *res, const struct uarch *u, bool ldlat)
{
	memset(res, 0, sizeof(*res));
	res->ngp = u->gp_needed;
	res->nfixed = 3;
	res->gp_free = (gp_set)((1u << u->gp_needed) - 1);
	res->fixed_free = 0x7;
	res->rsp_free = (uint8_t)((1u << u->offcore_msrs) - 1);
	res->ldlat_free = ldlat;
}

static int unit_in_slot(const struct plan_slot *s, int ui)
{
	int n = 0;

	for (int p = 0; p < s->nplace; p++)
		if (s->place[p].unit == ui)
			n++;
	return n;
}

/* Every property a plan must have, whatever the resources. */
static void check_plan(const struct plan *pl, const struct uarch *u, const struct plan_resources *res,
		       const unsigned *thr, int nthr)
{
	assert_true(pl->nslots >= 1 && pl->nslots <= PLAN_MAX_SLOTS);
	assert_true(pl->nunits >= 0 && pl->nunits <= PLAN_MAX_UNITS);
	assert_int_equal(pl->fixed_mask & ~res->fixed_free, 0);

	for (int si = 0; si < pl->nslots; si++) {
		const struct plan_slot *s = &pl->slot[si];
		gp_set used = 0;
		uint8_t rsp_used = 0;
		int nld = 0;

		assert_true(s->nplace <= PMU_MAX_GP);
		assert_int_equal(s->cfg.fixed_mask, pl->fixed_mask);
		for (int p = 0; p < s->nplace; p++) {
			const struct plan_place *pp = &s->place[p];
			const struct plan_unit *un;

			assert_true(pp->unit >= 0 && pp->unit < pl->nunits);
			un = &pl->unit[pp->unit];
			assert_false(un->fixed);
			assert_int_equal(unit_in_slot(s, pp->unit), 1);
			/* A part unit may also use the counters free on some CPUs only. */
			gp_set gp_ok = (gp_set)((res->gp_free | (un->part ? res->gp_part : 0)) &
						  ((1u << res->ngp) - 1));

			for (int j = 0; j < un->nrows; j++) {
				const struct pmu_event *e = pp->row[j];
				int c = pp->ctr[j];

				assert_non_null(e);
				assert_int_equal(e->fixed, PMU_FIXED_NONE);
				assert_true(c >= 0 && c < (int)res->ngp);
				/* Within the row's counters and the free ones, once per slot. */
				assert_true(e->counters & (1u << c));
				assert_true(gp_ok & (1u << c));
				/* Never the HT bug's events where an unmeasured sibling counts. */
				if ((u->flags & UARCH_F_HT_EXCL) && e->ht_excl)
					assert_false(res->excl_busy & (1u << c));
				assert_false(used & (1u << c));
				used |= (gp_set)(1u << c);
				assert_int_equal(s->cfg.evtsel[c], pmu_event_evtsel(e));
				assert_true(s->cfg.evtsel[c] & EVTSEL_EN);
				assert_false(s->cfg.evtsel[c] & EVTSEL_INT);
				/* Required CPU features and existing MSRs only. */
				assert_int_equal(e->needs & ~(u->flags | res->flags), 0);
				if (e->offcore) {
					int k = e->offcore - 1;

					assert_true((unsigned)e->offcore <= u->offcore_msrs);
					assert_true(res->rsp_free & (1u << k));
					assert_true(s->cfg.rsp_mask & (1u << k));
					/* One value per MSR: every row using it agrees with the slot. */
					assert_int_equal(s->cfg.rsp[k], e->offcore_rsp);
					rsp_used |= (uint8_t)(1u << k);
				}
				if (e->ldlat) {
					nld++;
					/* A threshold asked for, or the tagged-load base at [nthr]. */
					assert_true(un->thresh >= 0 && un->thresh <= nthr);
					assert_int_equal(c, pl->ldlat_ctr);
					assert_int_equal(s->cfg.ldlat_ctr, c);
					assert_int_equal(s->cfg.ldlat, un->thresh < nthr ? thr[un->thresh]
											: THRESH_TAGGED);
				} else {
					assert_int_equal(un->thresh, -1);
				}
			}
			if (un->nrows == 2) {
				/* A ratio's two rows, together in this slot. */
				assert_int_equal(pp->row[0]->pair, pp->row[1]->pair);
				assert_true(pp->row[0]->pair != 0);
				assert_int_not_equal(pp->ctr[0], pp->ctr[1]);
			}
		}
		assert_int_equal(s->cfg.gp_mask, used);
		assert_int_equal(s->cfg.rsp_mask, rsp_used);
		if (pl->ldlat_reserved) {
			/* The load-latency counter is the same in every slot, with a threshold. */
			assert_int_equal(nld, 1);
			assert_int_equal(s->cfg.ldlat_ctr, pl->ldlat_ctr);
		} else if (pl->ldlat_ctr >= 0) {
			/* Its only free counter: load latency rotates with the rest. */
			assert_true(nld <= 1);
			assert_int_equal(s->cfg.ldlat_ctr, nld ? pl->ldlat_ctr : -1);
		} else {
			assert_int_equal(nld, 0);
			assert_int_equal(s->cfg.ldlat_ctr, -1);
		}
	}

	for (int ui = 0; ui < pl->nunits; ui++) {
		const struct plan_unit *un = &pl->unit[ui];
		int n = 0, first = -1, runs[2] = { 0, 0 };

		for (int si = 0; si < pl->nslots; si++) {
			if (unit_in_slot(&pl->slot[si], ui)) {
				n++;
				if (first < 0)
					first = si;
			}
			for (int p = 0; p < pl->slot[si].nplace; p++)
				for (int par = 0; par < 2; par++)
					runs[par] += pl->slot[si].place[p].unit == ui &&
						     plan_place_runs(pl, si, p, par, 0);
		}
		if (un->fixed) {
			assert_int_equal(n, 0);
			assert_int_equal(un->nrows, 1);
			assert_true(pl->fixed_mask & (1u << un->row[0]->fixed));
			assert_int_equal(un->ctr[0], un->row[0]->fixed);
			continue;
		}
		/* Every rotating unit runs, on each thread parity in nslots slots. */
		assert_true(n >= 1);
		assert_int_equal(un->nslots, runs[0]);
		assert_int_equal(un->nslots, runs[1]);
		assert_int_equal(un->first_slot, first);
		for (int p = 0; p < pl->slot[first].nplace; p++)
			if (pl->slot[first].place[p].unit == ui)
				assert_int_equal(un->ctr[0], pl->slot[first].place[p].ctr[0]);
	}

	/* Each threshold has its unit, which runs, when load latency is measured. */
	if (plan_has(pl, M_LOAD_LATENCY)) {
		assert_true(pl->ldlat_ctr >= 0);
		assert_int_equal(pl->nthresh, nthr);
		for (int i = 0; i < nthr; i++) {
			int ui = pl->ldlat_unit[i];

			assert_true(ui >= 0 && ui < pl->nunits);
			assert_int_equal(pl->unit[ui].thresh, i);
			assert_true(pl->unit[ui].nslots >= 1);
			assert_int_equal(pl->thresholds[i], thr[i]);
		}
	} else {
		assert_int_equal(pl->ldlat_ctr, -1);
	}

	/* Every metric measured by a unit, or said why not. */
	for (int m = 0; m < M__COUNT; m++) {
		if (plan_has(pl, m)) {
			int ui = pl->unit_of[m];
			bool has_row = false;

			assert_true(ui >= 0 && ui < pl->nunits);
			for (int j = 0; j < pl->unit[ui].nrows; j++)
				has_row |= (int)pl->unit[ui].row[j]->metric == m;
			assert_true(has_row);
		} else {
			assert_non_null(pl->reason[m]);
			assert_true(strlen(pl->reason[m]) > 10);
			if (m != M_LOAD_LATENCY)
				assert_int_equal(pl->unit_of[m], -1);
		}
	}
	/* Outstanding cycles only ever together with the reads they divide. */
	if (plan_has(pl, M_OFFCORE_OUTSTANDING)) {
		assert_true(plan_has(pl, M_OFFCORE_READS));
		assert_int_equal(pl->unit_of[M_OFFCORE_OUTSTANDING], pl->unit_of[M_OFFCORE_READS]);
		assert_int_equal(pl->unit[pl->unit_of[M_OFFCORE_READS]].nrows, 2);
	}
}

/* Everything free: the expected metrics measured, the others with the table's own reason. */
static void test_all_free_every_uarch(void **state)
{
	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		unsigned measured = expected_metrics(u, u->flags, 1);
		struct plan *pl = plan_new();
		struct plan_resources res = { 0 };
		char err[256];

		res_all_free(&res, u, has_ldlat(u));
		assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
		check_plan(pl, u, &res, thr5, 5);
		/* every uarch measures the core of it, whatever its table */
		for (int m = M_CYCLES; m <= M_REF_CYCLES; m++)
			assert_true(measured & BIT(m));
		/* HITM too, but where the table says why not (Tiger Lake's XSNP_FWD) */
		assert_true((measured & BIT(M_SNOOP_HITM)) || u->table->unsupported[M_SNOOP_HITM]);
		for (int m = 0; m < M__COUNT; m++) {
			bool want = measured & BIT(m);

			if (plan_has(pl, m) != want)
				print_error("%s: %s %s\n", u->name, metric_name(m),
					    want ? "not measured" : "measured");
			assert_int_equal(plan_has(pl, m), want);
			if (!want && remote_metric(m)) {
				assert_non_null(strstr(pl->reason[m], "package"));
			} else if (!want) {
				assert_non_null(u->table->unsupported[m]);
				assert_string_equal(pl->reason[m], u->table->unsupported[m]);
			}
		}
		/* Instructions, cycles and reference cycles on the fixed counters. */
		assert_int_equal(pl->fixed_mask, 0x7);
		assert_true(pl->unit[pl->unit_of[M_CYCLES]].fixed);
		assert_true(pl->unit[pl->unit_of[M_INSTRUCTIONS]].fixed);
		assert_true(pl->unit[pl->unit_of[M_REF_CYCLES]].fixed);
		free(pl);
	}
}

/* Every combination of taken counters, offcore MSRs, PEBS facility, and 0-3 thresholds. */
static void test_every_resource_combination(void **state)
{
	static const unsigned thr[] = { 20, 40, 80 };
	struct plan *pl = plan_new();
	long plans = 0;

	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		unsigned ngp = u->gp_needed;

		for (unsigned gp = 0; gp < (1u << ngp); gp++)
			for (unsigned fx = 0; fx < 8; fx++)
				for (unsigned rsp = 0; rsp < (1u << u->offcore_msrs); rsp++)
					for (int ld = 0; ld < 2; ld++)
						for (int nthr = 0; nthr <= 3; nthr++) {
							struct plan_resources res = { 0 };
							char err[256];

							res.ngp = ngp;
							res.nfixed = 3;
							res.gp_free = (gp_set)gp;
							res.fixed_free = (uint8_t)fx;
							res.rsp_free = (uint8_t)rsp;
							res.ldlat_free = ld;
							res.flags = 0;
							res.packages = 1 + (gp & 1);
							err[0] = 0;
							if (plan_build(pl, u, &res, thr, nthr, err, sizeof(err)))
								fail_msg("%s gp %x fx %x rsp %x ld %d n %d: %s",
									 u->name, gp, fx, rsp, ld, nthr, err);
							check_plan(pl, u, &res, thr, nthr);
							plans++;
						}
	}
	assert_true(plans > 1000);
	free(pl);
}

/*
 * Westmere with PMC0 taken: OFFCORE_REQUESTS_OUTSTANDING (0x60) runs on
 * PMC0 only, so offcore latency is gone, with a reason naming IA32_PMC0;
 * the reads still come, from another row.
 */
static void test_westmere_pmc0_taken(void **state)
{
	const struct uarch *u = uarch_by_name("westmere");
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	const struct pmu_event *e;
	char err[256];

	(void)state;
	res_all_free(&res, u, true);
	res.gp_free = 0xe;
	assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
	check_plan(pl, u, &res, thr5, 5);
	assert_false(plan_has(pl, M_OFFCORE_OUTSTANDING));
	assert_non_null(strstr(pl->reason[M_OFFCORE_OUTSTANDING], "IA32_PMC0"));
	assert_null(strstr(pl->reason[M_OFFCORE_OUTSTANDING], "PMC1"));
	assert_true(plan_has(pl, M_OFFCORE_READS));
	e = pl->unit[pl->unit_of[M_OFFCORE_READS]].row[0];
	assert_int_equal(e->metric, M_OFFCORE_READS);
	assert_int_equal(e->pair, 0);
	/* Everything else still measured. */
	for (int m = 0; m < M__COUNT; m++)
		if (m != M_OFFCORE_OUTSTANDING && !remote_metric(m))
			assert_true(plan_has(pl, m));
	free(pl);
}

/* Haswell with PMC3 taken: its load-latency event runs on PMC3 only. */
static void test_haswell_pmc3_taken(void **state)
{
	const struct uarch *u = uarch_by_name("haswell");
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	char err[256];

	(void)state;
	res_all_free(&res, u, true);
	res.gp_free = 0x7;
	assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
	check_plan(pl, u, &res, thr5, 5);
	assert_false(plan_has(pl, M_LOAD_LATENCY));
	assert_non_null(strstr(pl->reason[M_LOAD_LATENCY], "PMC3"));
	assert_int_equal(pl->ldlat_ctr, -1);
	for (int m = 0; m < M__COUNT; m++)
		if (m != M_LOAD_LATENCY && m != M_LOADS && !remote_metric(m))
			assert_true(plan_has(pl, m));
	free(pl);
}

/*
 * Lion Cove's ten counters, PMC4-7 another user's: with leaf 0x23.1's ten
 * the load latency goes to PMC8/9 and OFFCORE_REQUESTS beside it, and the
 * PMC0-3 events keep PMC0-3, each in every slot; cut to leaf 0xA's eight
 * (what lattop had), load latency takes one of PMC2-3 from them and they
 * share the rest, in fewer slots.  The slots they run in, measured both
 * ways.
 */
/*
 * Slots the general-purpose units other than load latency run in, summed
 * (@all: what they would be in every slot).
 */
static int gp_slots(const struct plan *pl, int *all)
{
	int n = 0;

	*all = 0;
	for (int ui = 0; ui < pl->nunits; ui++)
		if (!pl->unit[ui].fixed && !pl->unit[ui].row[0]->ldlat) {
			n += pl->unit[ui].nslots;
			*all += pl->nslots;
		}
	return n;
}

static void test_lioncove_ten(void **state)
{
	static const unsigned one[] = { 32 };
	const struct uarch *u = uarch_by_name("lunarlake");   /* its Lion Cove table */
	struct plan *p8 = plan_new(), *p10 = plan_new();
	struct plan_resources res = { 0 };
	int n8, n10, all8, all10;
	char err[256];

	(void)state;
	res_all_free(&res, u, true);
	res.gp_free = 0x0f;                     /* PMC4-7 taken, of eight */
	assert_int_equal(plan_build(p8, u, &res, one, 1, err, sizeof(err)), 0);
	check_plan(p8, u, &res, one, 1);
	res.ngp = 10;
	res.gp_free = 0x30f;                    /* PMC4-7 taken, of ten */
	assert_int_equal(plan_build(p10, u, &res, one, 1, err, sizeof(err)), 0);
	check_plan(p10, u, &res, one, 1);
	n8 = gp_slots(p8, &all8);
	n10 = gp_slots(p10, &all10);
	print_message("lioncove, PMC4-7 taken, one threshold: the other units run in %d of %d "
		      "unit-slots with 8 counters, %d of %d with 10\n", n8, all8, n10, all10);
	assert_true(p8->ldlat_ctr == 2 || p8->ldlat_ctr == 3);
	assert_true(p10->ldlat_ctr == 8 || p10->ldlat_ctr == 9);
	assert_int_equal(p10->nslots, p8->nslots);     /* the thresholds' (32 and the tagged 3) */
	assert_int_equal(n10, all10);
	assert_true(n8 < all8);
	for (int m = 0; m < M__COUNT; m++)
		if (!remote_metric(m))
			assert_true(plan_has(p10, m));
	/* All free: one slot of the five events either way, the thresholds rotate alone. */
	res.gp_free = 0x3ff;
	assert_int_equal(plan_build(p10, u, &res, thr5, 5, err, sizeof(err)), 0);
	check_plan(p10, u, &res, thr5, 5);
	res.ngp = 8;
	res.gp_free = 0xff;
	assert_int_equal(plan_build(p8, u, &res, thr5, 5, err, sizeof(err)), 0);
	assert_int_equal(p10->nslots, p8->nslots);
	assert_int_equal(gp_slots(p10, &all10), gp_slots(p8, &all8));
	print_message("lioncove, all free, 5 thresholds: %d slots with 8 counters, %d with 10\n",
		      p8->nslots, p10->nslots);
	free(p8);
	free(p10);
}

/*
 * Other packages (issue: cross-socket false sharing): measured with two or
 * more packages where the family has an event, on the models whose flags
 * the event needs (Haswell and Broadwell: the server models), as
 * uarch_metric_status() reads the table; never with one package.
 */
static void test_remote(void **state)
{
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	char err[256];
	int flagged = 0;

	(void)state;
	/* every uarch, with each model's flags: measured where the table says, with 2 packages */
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;

		for (const struct uarch_model *mo = uarch_models; mo->vendor; mo++) {
			bool measured = (expected_metrics(u, u->flags | mo->flags, 2) & REMOTE) == REMOTE;

			if (mo->uarch != u)
				continue;
			flagged += mo->flags != 0;
			res_all_free(&res, u, has_ldlat(u));
			res.flags = u->flags | mo->flags;      /* as uarch_detect() gives them */
			for (unsigned pk = 1; pk <= 2; pk++) {
				res.packages = pk;
				assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
				check_plan(pl, u, &res, thr5, 5);
				assert_int_equal(plan_has(pl, M_SNOOP_REMOTE_HIT), measured && pk == 2);
				assert_int_equal(plan_has(pl, M_SNOOP_REMOTE_HITM), measured && pk == 2);
				if (!plan_has(pl, M_SNOOP_REMOTE_HITM))
					assert_true(strstr(pl->reason[M_SNOOP_REMOTE_HITM], "package") ||
						    (u->table->unsupported[M_SNOOP_REMOTE_HITM] &&
						     !strcmp(pl->reason[M_SNOOP_REMOTE_HITM],
							     u->table->unsupported[M_SNOOP_REMOTE_HITM])));
				/* The other metrics do not suffer for it. */
				for (int m = 0; m < M__COUNT; m++)
					if (!remote_metric(m) && m != M_LOADS && m != M_LOAD_LATENCY &&
					    m != M_OFFCORE_OUTSTANDING &&
					    (expected_metrics(u, res.flags, 1) & BIT(m)))
						assert_true(plan_has(pl, m));
			}
		}
	}
	assert_true(flagged > 0);      /* some server model carries a flag: the case is run */
	/* Haswell's client models: no event; its server model (06_3F) has them */
	res_all_free(&res, uarch_by_name("haswell"), true);
	res.packages = 2;
	assert_int_equal(plan_build(pl, uarch_by_name("haswell"), &res, thr5, 5, err, sizeof(err)), 0);
	assert_false(plan_has(pl, M_SNOOP_REMOTE_HITM));
	res.flags = UARCH_F_REMOTE_EVENTS;
	assert_int_equal(plan_build(pl, uarch_by_name("haswell"), &res, thr5, 5, err, sizeof(err)), 0);
	assert_true(plan_has(pl, M_SNOOP_REMOTE_HITM));
	free(pl);
}

/* Fixed counter 1 taken (an NMI watchdog): cycles move to a general-purpose row. */
static void test_fixed1_taken(void **state)
{
	struct plan *pl = plan_new();
	char err[256];

	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		struct plan_resources res = { 0 };
		const struct plan_unit *un;

		res_all_free(&res, u, has_ldlat(u));
		res.fixed_free = 0x5;
		assert_int_equal(plan_build(pl, u, &res, thr5, 3, err, sizeof(err)), 0);
		check_plan(pl, u, &res, thr5, 3);
		assert_int_equal(pl->fixed_mask, 0x5);
		assert_true(plan_has(pl, M_CYCLES));
		un = &pl->unit[pl->unit_of[M_CYCLES]];
		assert_false(un->fixed);
		assert_int_equal(un->row[0]->fixed, PMU_FIXED_NONE);
		assert_int_equal(un->row[0]->metric, M_CYCLES);
		assert_true(un->nslots >= 1);
		assert_true(plan_has(pl, M_INSTRUCTIONS));
		assert_true(pl->unit[pl->unit_of[M_INSTRUCTIONS]].fixed);
		assert_true(plan_has(pl, M_REF_CYCLES));
	}
	free(pl);
}

/* Fixed counter 2 taken: reference cycles have no other counter, and the reason says which. */
static void test_fixed2_taken(void **state)
{
	const struct uarch *u = uarch_by_name("goldmont");
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	char err[256];

	(void)state;
	res_all_free(&res, u, false);
	res.fixed_free = 0x3;
	assert_int_equal(plan_build(pl, u, &res, NULL, 0, err, sizeof(err)), 0);
	check_plan(pl, u, &res, NULL, 0);
	assert_false(plan_has(pl, M_REF_CYCLES));
	assert_non_null(strstr(pl->reason[M_REF_CYCLES], "IA32_FIXED_CTR2"));
	free(pl);
}

/* The PEBS facility held by someone: load latency unavailable, and the reason says so. */
static void test_ldlat_facility_taken(void **state)
{
	struct plan *pl = plan_new();
	char err[256];

	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		struct plan_resources res = { 0 };

		if (!has_ldlat(u))
			continue;
		res_all_free(&res, u, false);
		assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
		check_plan(pl, u, &res, thr5, 5);
		assert_false(plan_has(pl, M_LOAD_LATENCY));
		assert_non_null(strstr(pl->reason[M_LOAD_LATENCY], "PEBS"));
		assert_int_equal(pl->ldlat_ctr, -1);
		for (int si = 0; si < pl->nslots; si++)
			assert_int_equal(pl->slot[si].cfg.ldlat_ctr, -1);
	}
	free(pl);
}

/* Another user's offcore-response event holds MSR_OFFCORE_RSP_0: the snoop rows use RSP_1. */
static void test_rsp0_taken(void **state)
{
	struct plan *pl = plan_new();
	char err[256];

	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		struct plan_resources res = { 0 };

		if (u->offcore_msrs < 2)
			continue;
		res_all_free(&res, u, u->table->unsupported[M_LOAD_LATENCY] == NULL);
		res.rsp_free = 0x2;
		assert_int_equal(plan_build(pl, u, &res, thr5, 2, err, sizeof(err)), 0);
		check_plan(pl, u, &res, thr5, 2);
		assert_int_equal(plan_has(pl, M_SNOOP_HIT),
				 (expected_metrics(u, u->flags, 1) & BIT(M_SNOOP_HIT)) != 0);
		assert_int_equal(plan_has(pl, M_SNOOP_HITM),
				 (expected_metrics(u, u->flags, 1) & BIT(M_SNOOP_HITM)) != 0);
		for (int si = 0; si < pl->nslots; si++)
			assert_false(pl->slot[si].cfg.rsp_mask & 0x1);
	}
	free(pl);
}

/* 16 thresholds: each has a unit that runs, in a slot of its own threshold. */
static void test_16_thresholds(void **state)
{
	unsigned thr[17];
	struct plan *pl = plan_new();
	char err[256];

	(void)state;
	for (int i = 0; i < 17; i++)
		thr[i] = 4 + 8 * (unsigned)i;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;
		struct plan_resources res = { 0 };
		int seen[16] = { 0 };

		if (!has_ldlat(u))
			continue;
		res_all_free(&res, u, true);
		err[0] = 0;
		assert_int_equal(plan_build(pl, u, &res, thr, 16, err, sizeof(err)), 0);
		check_plan(pl, u, &res, thr, 16);
		assert_true(plan_has(pl, M_LOAD_LATENCY));
		assert_true(pl->nslots >= 16);
		for (int si = 0; si < pl->nslots; si++)
			for (int t = 0; t < 16; t++)
				if (pl->slot[si].cfg.ldlat == thr[t])
					seen[t]++;
		for (int t = 0; t < 16; t++)
			assert_true(seen[t] >= 1);

		/* 17: refused with a message, not a half-built plan. */
		err[0] = 0;
		assert_int_equal(plan_build(pl, u, &res, thr, 17, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "16"));
	}
	free(pl);
}

/*
 * A reason that blames another user must be true: "needs IA32_PMCa/b,
 * which another user holds" only when none of them is free,
 * "IA32_FIXED_CTRn, which another user holds" only when it is taken,
 * "MSR_OFFCORE_RSP_n, which another user's ..." likewise.  (A counter kept
 * for lattop's own load latency is not another user's.)  Returns the
 * number of false claims in @pl, printing the first few.
 */
static int false_blames(const struct plan *pl, const struct uarch *u,
			const struct plan_resources *res, int *printed)
{
	int bad = 0;

	for (int m = 0; m < M__COUNT; m++) {
		const char *r = pl->reason[m], *q;
		bool lie = false;

		if (!r || !strstr(r, "another user"))
			continue;
		if ((q = strstr(r, "needs IA32_PMC")) != NULL) {
			for (q += strlen("needs IA32_PMC"); *q >= '0' && *q <= '9'; q++) {
				if (res->gp_free & (1u << (*q - '0')))
					lie = true;
				if (q[1] == '/')
					q++;
			}
		} else if ((q = strstr(r, "needs IA32_FIXED_CTR")) != NULL) {
			lie = res->fixed_free & (1u << (q[strlen("needs IA32_FIXED_CTR")] - '0'));
		} else if ((q = strstr(r, "needs MSR_OFFCORE_RSP_")) != NULL) {
			lie = res->rsp_free & (1u << (q[strlen("needs MSR_OFFCORE_RSP_")] - '0'));
		}
		if (lie) {
			if ((*printed)++ < 4)
				print_error("%s gp_free %x fixed_free %x rsp_free %x ldlat %d: %s: \"%s\"\n",
					    u->name, res->gp_free, res->fixed_free, res->rsp_free,
					    res->ldlat_free, metric_name(m), r);
			bad++;
		}
	}
	return bad;
}

static void test_reasons_blame_truthfully(void **state)
{
	static const unsigned thr[] = { 20, 40 };
	struct plan *pl = plan_new();
	int bad = 0, printed = 0;
	char err[256];

	(void)state;
	for (const struct uarch *const *up = uarch_supported; *up; up++) {
		const struct uarch *u = *up;

		for (unsigned gp = 0; gp < (1u << u->gp_needed); gp++)
			for (unsigned fx = 0; fx < 8; fx++)
				for (unsigned rsp = 0; rsp < (1u << u->offcore_msrs); rsp++)
					for (int ld = 0; ld < 2; ld++) {
						struct plan_resources res = {
							.ngp = u->gp_needed, .nfixed = 3,
							.gp_free = (gp_set)gp, .fixed_free = (uint8_t)fx,
							.rsp_free = (uint8_t)rsp, .ldlat_free = ld,
						};

						assert_int_equal(plan_build(pl, u, &res, thr, 2, err,
									    sizeof(err)), 0);
						bad += false_blames(pl, u, &res, &printed);
					}
	}
	assert_int_equal(bad, 0);
	free(pl);
}

/* plan_resources_from_pmu: what is free on every CPU; --force frees everything. */
/*
 * The HT bug (UARCH_F_HT_EXCL, HSD29): with both threads of a core
 * measured, no slot lets a thread run an ht_excl row on a counter its
 * sibling uses; every excl unit runs on both thread parities, once per
 * pair of twin slots; what each parity programs matches what it credits.
 */
static void test_ht_excl(void **state)
{
	const struct uarch *hsw = uarch_by_name("haswell"), *bdw = uarch_by_name("broadwell");
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	char err[256];
	int twins = 0, loads = -1;

	(void)state;
	assert_true(hsw->flags & UARCH_F_HT_EXCL);
	assert_false(bdw->flags & UARCH_F_HT_EXCL);
	res_all_free(&res, hsw, true);
	res.ht_excl = true;
	assert_int_equal(plan_build(pl, hsw, &res, thr5, 5, err, sizeof(err)), 0);
	check_plan(pl, hsw, &res, thr5, 5);
	loads = pl->unit_of[M_LOADS];
	assert_true(loads >= 0);
	assert_true(pl->unit[loads].row[0]->ht_excl);
	for (int si = 0; si < pl->nslots; si++) {
		const struct plan_slot *s = &pl->slot[si];

		if (s->excl_parity == 0) {
			/* Its twin follows, the same places, for the other parity. */
			assert_true(si + 1 < pl->nslots);
			assert_int_equal(pl->slot[si + 1].excl_parity, 1);
			assert_int_equal(pl->slot[si + 1].nplace, s->nplace);
			twins++;
		}
		for (int par = 0; par < 2; par++) {
			const struct pmu_cfg *mine = plan_slot_cfg(pl, si, par);
			const struct pmu_cfg *sib = plan_slot_cfg(pl, si, !par);
			gp_set want = 0;

			for (int p = 0; p < s->nplace; p++) {
				const struct plan_place *pp = &s->place[p];
				bool excl = false;

				for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
					excl |= pp->row[j]->ht_excl;
				assert_int_equal(pp->excl, excl);
				if (!plan_place_runs(pl, si, p, par, 0))
					continue;
				for (int j = 0; j < pl->unit[pp->unit].nrows; j++) {
					int c = pp->ctr[j];

					want |= (gp_set)(1u << c);
					assert_int_equal(mine->evtsel[c], pmu_event_evtsel(pp->row[j]));
					/* The sibling's same counter idle. */
					if (excl)
						assert_false(sib->gp_mask & (1u << c));
				}
			}
			/* Programmed exactly where a place runs. */
			assert_int_equal(mine->gp_mask, want);
		}
	}
	assert_true(twins >= 1);

	/* Every set of free counters, 16 thresholds: twins fit, and every property holds. */
	for (unsigned gp = 1; gp < 16; gp++) {
		unsigned thr16[16];

		for (int i = 0; i < 16; i++)
			thr16[i] = 4 + 10 * (unsigned)i;
		res_all_free(&res, hsw, true);
		res.gp_free = (uint8_t)gp;
		res.ht_excl = true;
		assert_int_equal(plan_build(pl, hsw, &res, thr16, 16, err, sizeof(err)), 0);
		check_plan(pl, hsw, &res, thr16, 16);
	}

	/* No HT (or one thread per core measured), or Broadwell: no twins. */
	res.ht_excl = false;
	assert_int_equal(plan_build(pl, hsw, &res, thr5, 5, err, sizeof(err)), 0);
	for (int si = 0; si < pl->nslots; si++)
		assert_int_equal(pl->slot[si].excl_parity, -1);
	res.ht_excl = true;
	assert_int_equal(plan_build(pl, bdw, &res, thr5, 5, err, sizeof(err)), 0);
	for (int si = 0; si < pl->nslots; si++)
		assert_int_equal(pl->slot[si].excl_parity, -1);
	free(pl);
}

/*
 * The HT bug beside a sibling lattop does not measure (res.excl_busy,
 * pmu-facts 8.9): on every uarch with it, for every set of counters the
 * sibling uses, the ht_excl rows go only where it leaves the counter idle
 * (check_plan), loads retired are measured whenever such a counter is left
 * beside load latency, and otherwise their reason names the sibling and the
 * uarch's erratum.  Broadwell ignores the mask.
 */
static void test_ht_excl_busy_sibling(void **state)
{
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	char err[256], want[PLAN_REASON_MAX];
	int tried = 0;

	(void)state;
	for (int i = 0; uarch_supported[i]; i++) {
		const struct uarch *u = uarch_supported[i];

		if (!(u->flags & UARCH_F_HT_EXCL))
			continue;
		tried++;
		assert_non_null(u->ht_erratum);
		for (unsigned busy = 0; busy < 16; busy++) {
			const struct pmu_event *ld;
			uint8_t idle;
			int ui;

			res_all_free(&res, u, true);
			res.excl_busy = (uint8_t)busy;
			snprintf(res.sib_why, sizeof(res.sib_why), "cpu 4, the hyperthread sibling of cpu 0, "
				 "uses mask 0x%x", busy);
			assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
			check_plan(pl, u, &res, thr5, 5);
			ui = pl->unit_of[M_LOADS];
			ld = NULL;
			for (const struct pmu_event *e = u->table->events; e->name; e++)
				if (e->metric == M_LOADS && e->fixed == PMU_FIXED_NONE)
					ld = e;
			assert_non_null(ld);
			assert_true(ld->ht_excl);
			idle = (uint8_t)(ld->counters & ~busy & ~(1u << pl->ldlat_ctr));
			if (idle) {
				assert_true(ui >= 0);
				assert_null(pl->reason[M_LOADS]);
				assert_ptr_equal(plan_excl_row(pl, (uint8_t)(1u << pl->unit[ui].ctr[0])),
						 pl->unit[ui].row[0]);
				continue;
			}
			assert_int_equal(ui, -1);
			assert_non_null(pl->reason[M_LOADS]);
			snprintf(want, sizeof(want), "%s: the HT erratum (%s) spoils %s on a counter the "
				 "sibling uses", res.sib_why, u->ht_erratum, ld->name);
			assert_non_null(strstr(pl->reason[M_LOADS], want));
		}
		/* A sibling that starts on a counter with no HT-bug event spoils nothing. */
		res_all_free(&res, u, true);
		assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
		assert_null(plan_excl_row(pl, 0));
		assert_null(plan_excl_row(pl, (uint8_t)(1u << pl->ldlat_ctr)));
	}
	assert_true(tried >= 3);

	/* Broadwell (the Haswell table, no erratum): the mask does not apply. */
	res_all_free(&res, uarch_by_name("broadwell"), true);
	res.excl_busy = 0xf;
	assert_int_equal(plan_build(pl, uarch_by_name("broadwell"), &res, thr5, 5, err, sizeof(err)), 0);
	assert_null(pl->reason[M_LOADS]);
	assert_null(plan_excl_row(pl, 0xff));
	free(pl);
}

static void test_resources_from_pmu(void **state)
{
	struct pmu_cpu cpu[3];
	struct pmu p;
	struct plan_resources res = { 0 };

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(cpu, 0, sizeof(cpu));
	p.uarch = uarch_by_name("westmere");
	p.ngp = 4;
	p.nfixed = 3;
	p.has_ldlat = true;
	p.ncpu = 3;
	p.cpu = cpu;
	cpu[0].gp_taken = 0x1;
	cpu[2].gp_taken = 0x4;
	cpu[1].fixed_taken = 0x2;
	p.rsp_taken = 0x1;
	plan_resources_from_pmu(&res, &p);
	assert_int_equal(res.ngp, 4);
	assert_int_equal(res.nfixed, 3);
	assert_int_equal(res.gp_free, 0xa);
	assert_int_equal(res.gp_part, 0x5);
	assert_int_equal(res.fixed_free, 0x5);
	assert_int_equal(res.rsp_free, 0x2);
	assert_true(res.ldlat_free);
	p.ldlat_taken = true;
	plan_resources_from_pmu(&res, &p);
	assert_false(res.ldlat_free);
	p.force = true;
	p.rsp_taken = 0;
	p.ldlat_taken = false;
	plan_resources_from_pmu(&res, &p);
	assert_int_equal(res.gp_free, 0xf);
	assert_int_equal(res.gp_part, 0);
	assert_int_equal(res.fixed_free, 0x7);
	assert_int_equal(res.rsp_free, 0x3);
	/* Nehalem has one offcore MSR; a table without load latency has no facility. */
	p.uarch = uarch_by_name("nehalem");
	plan_resources_from_pmu(&res, &p);
	assert_int_equal(res.rsp_free, 0x1);
	p.has_ldlat = false;
	plan_resources_from_pmu(&res, &p);
	assert_false(res.ldlat_free);
}

/*
 * One CPU holding counters no longer turns a number off everywhere (issue
 * 18, point 8): Haswell, PMC0 and PMC3 free everywhere (PMC3 for load
 * latency), PMC1/2 busy on some CPUs.  The offcore pair needs two counters
 * at once: it becomes a part unit on PMC0 and PMC1 or 2, and on a CPU
 * where PMC1/2 are busy its places do not run and its counters are not in
 * the configuration; everything else is as on every CPU.  Rows whose
 * MSR_OFFCORE_RSP_x siblings share never run part-time (Westmere's snoop).
 */
static void test_part_units(void **state)
{
	const struct uarch *u = uarch_by_name("haswell");
	struct plan *pl = plan_new();
	struct plan_resources res = { 0 };
	struct pmu_cfg buf;
	char err[256];
	int ui;

	(void)state;
	res_all_free(&res, u, true);
	res.gp_free = 0x9;
	res.gp_part = 0x6;
	assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
	check_plan(pl, u, &res, thr5, 5);
	assert_true(plan_has(pl, M_OFFCORE_READS) && plan_has(pl, M_OFFCORE_OUTSTANDING));
	ui = pl->unit_of[M_OFFCORE_READS];
	assert_true(ui >= 0 && pl->unit[ui].part);
	assert_non_null(pl->part_reason[M_OFFCORE_READS]);
	assert_non_null(strstr(pl->part_reason[M_OFFCORE_READS], "on this CPU"));
	for (int m = 0; m < M__COUNT; m++)
		if (pl->unit_of[m] >= 0 && pl->unit_of[m] != ui)
			assert_false(pl->unit[pl->unit_of[m]].part);
	for (int si = 0; si < pl->nslots; si++) {
		const struct pmu_cfg *all = plan_cpu_cfg(pl, si, 0, 0, &buf);
		const struct pmu_cfg *busy;

		assert_ptr_equal(all, plan_slot_cfg(pl, si, 0));
		for (int k = 0; k < pl->slot[si].nplace; k++) {
			const struct plan_place *pp = &pl->slot[si].place[k];
			bool on_part = ((1u << pp->ctr[0]) | (pp->ctr[1] >= 0 ? 1u << pp->ctr[1] : 0)) & 0x6;

			assert_true(plan_place_runs(pl, si, k, 0, 0));
			assert_int_equal(plan_place_runs(pl, si, k, 0, 0x6), !on_part);
			if (on_part)
				assert_int_equal(pp->unit, ui);
		}
		busy = plan_cpu_cfg(pl, si, 0, 0x6, &buf);
		assert_int_equal(busy->gp_mask & 0x6, 0);
		assert_int_equal(busy->gp_mask, all->gp_mask & 0x9);
		for (int c = 0; c < 4; c++)
			if (busy->gp_mask & (1u << c))
				assert_true(busy->evtsel[c] == all->evtsel[c]);
		assert_int_equal(busy->ldlat_ctr, all->ldlat_ctr);
		assert_int_equal(busy->ldlat, all->ldlat);
	}
	/* Nothing busy anywhere else: no part unit. */
	res.gp_part = 0;
	assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
	assert_false(plan_has(pl, M_OFFCORE_READS));
	assert_non_null(strstr(pl->reason[M_OFFCORE_READS], "need 2 counters at once"));

	/* Westmere: snoop through MSR_OFFCORE_RSP_x, shared with the sibling: never part-time. */
	u = uarch_by_name("westmere");
	res_all_free(&res, u, false);
	res.gp_free = 0;
	res.gp_part = 0xf;
	assert_int_equal(plan_build(pl, u, &res, thr5, 5, err, sizeof(err)), 0);
	check_plan(pl, u, &res, thr5, 5);
	for (int ui2 = 0; ui2 < pl->nunits; ui2++)
		for (int j = 0; pl->unit[ui2].part && j < pl->unit[ui2].nrows; j++)
			assert_int_equal(pl->unit[ui2].row[j]->offcore, 0);
	assert_false(plan_has(pl, M_SNOOP_HITM));
	free(pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_free_every_uarch),
		cmocka_unit_test(test_every_resource_combination),
		cmocka_unit_test(test_westmere_pmc0_taken),
		cmocka_unit_test(test_haswell_pmc3_taken),
		cmocka_unit_test(test_lioncove_ten),
		cmocka_unit_test(test_remote),
		cmocka_unit_test(test_fixed1_taken),
		cmocka_unit_test(test_fixed2_taken),
		cmocka_unit_test(test_ldlat_facility_taken),
		cmocka_unit_test(test_rsp0_taken),
		cmocka_unit_test(test_16_thresholds),
		cmocka_unit_test(test_reasons_blame_truthfully),
		cmocka_unit_test(test_resources_from_pmu),
		cmocka_unit_test(test_part_units),
		cmocka_unit_test(test_ht_excl),
		cmocka_unit_test(test_ht_excl_busy_sibling),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
