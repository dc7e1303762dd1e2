/*
 * plan.c: pack the event table's rows into rotation slots (see plan.h).
 *
 * Pure: reads the table and the free resources, writes a struct plan.
 */
#include <stdio.h>
#include <string.h>

#include "engine/plan.h"

static bool row_eligible(const struct pmu_event *e, const struct uarch *u,
			 const struct plan_resources *res)
{
	return (e->needs & (u->flags | res->flags)) == e->needs && e->offcore <= u->offcore_msrs;
}

/*
 * Why no row of @t serves @m on this model when the table has rows for it:
 * a table serving server and client parts (Sapphire Rapids and the Alder
 * Lake P-cores) keeps the remote events for the servers (UARCH_F_REMOTE_EVENTS).
 */
static const char *model_lacks(const struct pmu_table *t, enum metric m, const struct uarch *u,
			       const struct plan_resources *res)
{
	for (const struct pmu_event *e = t->events; e->name; e++)
		if (e->metric == m && (e->needs & UARCH_F_REMOTE_EVENTS) &&
		    !((u->flags | res->flags) & UARCH_F_REMOTE_EVENTS))
			return "a client model: its retired-load events see no other package "
			       "(the remote events are a server model's)";
	return "no event for it on this CPU";
}

static gp_set usable(const struct plan *pl, const struct plan_resources *res)
{
	gp_set m = (gp_set)(res->gp_free & ((1u << res->ngp) - 1));

	if (pl->ldlat_reserved)
		m &= (gp_set)~(1u << pl->ldlat_ctr);
	return m;
}

static int highest_bit(unsigned m)
{
	return m ? 31 - __builtin_clz(m) : -1;
}

/*
 * The counters row @e may use: usable() and its own, less, for a row the
 * HT bug covers, those whose twin an unmeasured sibling uses (K612
 * intel_get_excl_constraints; pmu-facts 8.9).
 */
static gp_set row_usable(const struct plan *pl, const struct plan_resources *res,
			  const struct pmu_event *e)
{
	gp_set m = (gp_set)(e->counters & usable(pl, res));

	if (pl->ht_bug && e->ht_excl)
		m &= (gp_set)~res->excl_busy;
	return m;
}

/*
 * Can @rows (n of them) run in slot @s?  On success @ctr gets their counters.
 * Counters go to the most constrained row first, highest counter first, so
 * PMC0 (the only home of some Westmere events) stays free longest.
 */
static bool fit(const struct plan *pl, const struct plan_slot *s, const struct plan_resources *res,
		const struct pmu_event *const *rows, int n, bool ldlat, int8_t ctr[2])
{
	gp_set used = s->cfg.gp_mask;
	uint8_t rsp_mask = s->cfg.rsp_mask;
	uint64_t rsp[2] = { s->cfg.rsp[0], s->cfg.rsp[1] };
	int order[2] = { 0, 1 };

	for (int i = 0; i < n; i++) {
		int j = rows[i]->offcore - 1;

		if (j < 0)
			continue;
		if (!(res->rsp_free & (1u << j)))
			return false;
		if ((rsp_mask & (1u << j)) && rsp[j] != rows[i]->offcore_rsp)
			return false;
		rsp_mask |= (uint8_t)(1u << j);
		rsp[j] = rows[i]->offcore_rsp;
	}
	if (ldlat) {
		if (s->cfg.ldlat_ctr >= 0 || pl->ldlat_ctr < 0 || (used & (1u << pl->ldlat_ctr)))
			return false;
		ctr[0] = (int8_t)pl->ldlat_ctr;
		return true;
	}
	if (n == 2 && __builtin_popcount(row_usable(pl, res, rows[1]) & ~used) <
		      __builtin_popcount(row_usable(pl, res, rows[0]) & ~used)) {
		order[0] = 1;
		order[1] = 0;
	}
	for (int k = 0; k < n; k++) {
		int i = order[k];
		int c = highest_bit(row_usable(pl, res, rows[i]) & ~used);

		if (c < 0)
			return false;
		used |= (gp_set)(1u << c);
		ctr[i] = (int8_t)c;
	}
	return true;
}

/* Row @e on counter @c in configuration @cfg (@thresh: its load-latency threshold). */
static void cfg_add(const struct plan *pl, struct pmu_cfg *cfg, const struct pmu_event *e, int c,
		    int thresh)
{
	cfg->gp_mask |= (gp_set)(1u << c);
	cfg->evtsel[c] = pmu_event_evtsel(e);
	if (e->offcore) {
		cfg->rsp_mask |= (uint8_t)(1u << (e->offcore - 1));
		cfg->rsp[e->offcore - 1] = e->offcore_rsp;
		cfg->rsp_users[e->offcore - 1] |= (gp_set)(1u << c);
	}
	if (e->ldlat) {
		cfg->ldlat_ctr = (int8_t)c;
		cfg->ldlat = (uint16_t)pl->thresholds[thresh];
	}
}

static void place(struct plan *pl, int si, int ui, const struct pmu_event *const *rows,
		  const int8_t ctr[2])
{
	struct plan_slot *s = &pl->slot[si];
	struct plan_unit *u = &pl->unit[ui];
	struct plan_place *pp = &s->place[s->nplace++];

	pp->unit = ui;
	for (int i = 0; i < u->nrows; i++) {
		const struct pmu_event *e = rows[i];
		int c = ctr[i];

		pp->row[i] = e;
		pp->ctr[i] = (int8_t)c;
		cfg_add(pl, &s->cfg, e, c, u->thresh);
	}
	if (u->nslots++ == 0) {
		u->first_slot = si;
		u->ctr[0] = ctr[0];
		u->ctr[1] = u->nrows > 1 ? ctr[1] : -1;
		u->row[0] = rows[0];
		if (u->nrows > 1)
			u->row[1] = rows[1];
	}
}

static bool in_slot(const struct plan_slot *s, int ui)
{
	for (int i = 0; i < s->nplace; i++)
		if (s->place[i].unit == ui)
			return true;
	return false;
}

/*
 * May row @e run on counters free on some CPUs only?  Not a row whose
 * MSR_OFFCORE_RSP_x a hyperthread or module sibling shares (both must
 * program the same value in every slot, plan.h), nor one the HT bug
 * covers (the sibling's same counter holds another user's event), nor
 * load latency (its counter is reserved in every slot).
 */
static bool part_row_ok(const struct plan *pl, const struct pmu_event *e)
{
	return !e->offcore && !e->ldlat && !(pl->ht_bug && e->ht_excl);
}

/* The resources unit @u may use: a part unit's include the counters free on some CPUs only. */
static const struct plan_resources *unit_res(const struct plan_unit *u,
					     const struct plan_resources *res,
					     struct plan_resources *tmp)
{
	if (!u->part)
		return res;
	*tmp = *res;
	tmp->gp_free |= res->gp_part;
	return tmp;
}

/* Try unit @ui in slot @si with each of its alternatives; place it if @commit. */
static bool try_place(struct plan *pl, const struct plan_resources *all, int si, int ui,
		      bool commit)
{
	struct plan_unit *u = &pl->unit[ui];
	struct plan_resources tmp;
	const struct plan_resources *res = unit_res(u, all, &tmp);
	int8_t ctr[2] = { -1, -1 };

	if (u->nalt == 0) {
		if (!fit(pl, &pl->slot[si], res, u->row, u->nrows, u->thresh >= 0, ctr))
			return false;
		if (commit)
			place(pl, si, ui, u->row, ctr);
		return true;
	}
	for (int a = 0; a < u->nalt; a++) {
		const struct pmu_event *rows[1] = { u->alt[a] };

		if (u->part && !part_row_ok(pl, rows[0]))
			continue;
		if (fit(pl, &pl->slot[si], res, rows, 1, false, ctr)) {
			if (commit)
				place(pl, si, ui, rows, ctr);
			return true;
		}
	}
	return false;
}

static int new_slot(struct plan *pl)
{
	struct plan_slot *s = &pl->slot[pl->nslots];

	memset(s, 0, sizeof(*s));
	s->cfg.ldlat_ctr = -1;
	s->excl_parity = -1;
	return pl->nslots++;
}

/* Would unit @ui fit in an empty slot?  (Tried in the first unused one.) */
static bool fits_alone(struct plan *pl, const struct plan_resources *res, int ui)
{
	bool ok;

	if (pl->nslots == PLAN_MAX_SLOTS)
		return false;
	new_slot(pl);
	ok = try_place(pl, res, pl->nslots - 1, ui, false);
	pl->nslots--;
	return ok;
}

/*
 * Unit @ui fits no slot on the counters free on every CPU: would it on
 * those free on some (plan_resources.gp_part)?  Then it is a part unit,
 * measured where they are free: one CPU whose counters another user holds
 * no longer turns a number off on every CPU.
 */
static bool fits_part(struct plan *pl, const struct plan_resources *res, int ui)
{
	struct plan_unit *u = &pl->unit[ui];
	bool any = false;

	if (!res->gp_part)
		return false;
	for (int j = 0; j < u->nrows && !u->nalt; j++)
		if (!part_row_ok(pl, u->row[j]))
			return false;
	for (int a = 0; a < u->nalt; a++)
		any |= part_row_ok(pl, u->alt[a]);
	if (u->nalt && !any)
		return false;
	u->part = true;
	if (fits_alone(pl, res, ui))
		return true;
	u->part = false;
	return false;
}

static size_t ctr_list(char *buf, size_t len, gp_set mask)
{
	size_t o = (size_t)snprintf(buf, len, "IA32_PMC");

	for (int c = 0, first = 1; c < PMU_MAX_GP && o < len; c++)
		if (mask & (1u << c)) {
			o += (size_t)snprintf(buf + o, len - o, "%s%d", first ? "" : "/", c);
			first = 0;
		}
	return o;
}

/* Why @rows (n of them, a pair or one row) fit no slot: what is really missing. */
static void why_not_placed(char *buf, size_t len, const struct plan *pl,
			   const struct pmu_event *const *rows, int n,
			   const struct plan_resources *res)
{
	gp_set all = (gp_set)((1u << res->ngp) - 1);
	char list[48];

	for (int i = 0; i < n; i++) {
		const struct pmu_event *e = rows[i];
		gp_set want = e->counters & all, free_ = want & res->gp_free;

		if (e->offcore && !(res->rsp_free & (1u << (e->offcore - 1)))) {
			snprintf(buf, len, "%s needs MSR_OFFCORE_RSP_%d, which another user's "
				 "offcore-response event holds", e->name, e->offcore - 1);
			return;
		}
		ctr_list(list, sizeof(list), want);
		if (!free_) {
			snprintf(buf, len, "%s needs %s, which another user holds", e->name, list);
			return;
		}
		if (pl->ht_bug && e->ht_excl && (free_ & res->excl_busy)) {
			gp_set idle = free_ & (gp_set)~res->excl_busy;

			if (!idle || (pl->ldlat_reserved && idle == (1u << pl->ldlat_ctr))) {
				snprintf(buf, len, "%s: the HT erratum (%s) spoils %s on a counter the "
					 "sibling uses%s", res->sib_why, pl->ht_erratum, e->name,
					 idle ? "; the one it leaves idle counts load latency" : "");
				return;
			}
		}
		if (pl->ldlat_reserved && free_ == (1u << pl->ldlat_ctr)) {
			snprintf(buf, len, "%s needs %s; the free one, IA32_PMC%d, counts load latency",
				 e->name, list, pl->ldlat_ctr);
			return;
		}
	}
	ctr_list(list, sizeof(list), usable(pl, res));
	snprintf(buf, len, "%s%s%s need %d counters at once; free: %s", rows[0]->name,
		 n > 1 ? " and " : "", n > 1 ? rows[1]->name : "", n, usable(pl, res) ? list : "none");
}

static void set_reason(struct plan *pl, enum metric m, const char *why)
{
	if (pl->reason[m])
		return;
	snprintf(pl->reason_buf[m], sizeof(pl->reason_buf[m]), "%s", why);
	pl->reason[m] = pl->reason_buf[m];
}

static int add_unit(struct plan *pl)
{
	struct plan_unit *u = &pl->unit[pl->nunits];

	memset(u, 0, sizeof(*u));
	u->thresh = -1;
	u->first_slot = -1;
	u->ctr[0] = u->ctr[1] = -1;
	return pl->nunits++;
}

/*
 * The HT bug beside unmeasured hyperthreads (struct pmu_cpu.sib_*): the
 * counters an ht_excl row may not use, and who uses them, for the reason:
 * the first measured CPU whose sibling does, and how many more.
 */
static void sibling_resources(struct plan_resources *res, const struct pmu *p)
{
	int more = 0;
	char list[48];

	res->excl_busy = 0;
	res->sib_why[0] = 0;
	for (int i = 0; i < p->ncpu; i++) {
		const struct pmu_cpu *c = &p->cpu[i];

		if (!c->sib_busy)
			continue;
		res->excl_busy |= c->sib_busy;
		if (res->sib_why[0]) {
			more++;
			continue;
		}
		ctr_list(list, sizeof(list), c->sib_busy);
		if (c->sib_err)
			snprintf(res->sib_why, sizeof(res->sib_why), "cpu %d, the hyperthread sibling of "
				 "cpu %d, cannot be read (%s), so it may use any counter", c->sib_cpu, c->id,
				 c->sib_err);
		else
			snprintf(res->sib_why, sizeof(res->sib_why), "cpu %d, the hyperthread sibling of "
				 "cpu %d, uses %s", c->sib_cpu, c->id, list);
	}
	if (more) {
		size_t o = strlen(res->sib_why);

		ctr_list(list, sizeof(list), res->excl_busy);
		snprintf(res->sib_why + o, sizeof(res->sib_why) - o, " (with the siblings of %d more "
			 "CPU%s: %s)", more, more > 1 ? "s" : "", list);
	}
}

gp_set plan_cpu_busy(const struct pmu *p, int i)
{
	/* A sibling's event the HT bug covers: its count is spoilt by any of ours, --force or not. */
	return (gp_set)((p->force ? 0 : p->cpu[i].gp_taken) | p->cpu[i].sib_excl);
}

void plan_resources_from_pmu(struct plan_resources *res, const struct pmu *p)
{
	plan_resources_of_type(res, p, -1);
}

void plan_resources_of_type(struct plan_resources *res, const struct pmu *p, int type)
{
	gp_set gp_taken = 0, gp_some = 0;
	uint8_t fixed_taken = 0;
	unsigned ngp = p->ngp, nfixed = p->nfixed;
	const struct uarch *u = p->uarch;

	for (int i = 0; i < p->ncpu && type >= 0; i++)
		if (p->cpu[i].type == type) {
			ngp = p->cpu[i].ngp;
			nfixed = p->cpu[i].nfixed;
			u = p->cpu[i].uarch;
			break;
		}
	for (int i = 0; i < p->ncpu; i++) {
		gp_set busy = plan_cpu_busy(p, i);

		if (type >= 0 && p->cpu[i].type != type)
			continue;

		gp_taken |= busy;
		gp_some |= (gp_set)~busy;
		if (!p->force)
			fixed_taken |= p->cpu[i].fixed_taken;
	}
	sibling_resources(res, p);
	res->ngp = ngp;
	res->nfixed = nfixed;
	res->gp_free = (gp_set)(((1u << ngp) - 1) & ~gp_taken);
	res->gp_part = (gp_set)(((1u << ngp) - 1) & gp_taken & gp_some);
	res->fixed_free = (uint8_t)(((1u << nfixed) - 1) & ~fixed_taken);
	res->rsp_free = (uint8_t)(((1u << u->offcore_msrs) - 1) & ~p->rsp_taken);
	res->ldlat_free = p->has_ldlat && !p->ldlat_taken && !p->ldlat_why[0];
	res->ldlat_why = p->ldlat_why[0] ? p->ldlat_why : NULL;
	res->ht_excl = false;
	for (int i = 0; i < p->ncpu && (p->uarch->flags & UARCH_F_HT_EXCL); i++)
		res->ht_excl |= plan_thread_parity(p, i) == 1;
	res->ht_on = false;
	for (int i = 0; i < p->ncpu && !res->ht_on; i++)
		res->ht_on = p->cpu[i].core_shared;
}

const struct pmu_event *plan_excl_row(const struct plan *pl, gp_set ctrs)
{
	for (int si = 0; si < pl->nslots && pl->ht_bug; si++)
		for (int k = 0; k < pl->slot[si].nplace; k++) {
			const struct plan_place *pp = &pl->slot[si].place[k];

			for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
				if (pp->row[j]->ht_excl && (ctrs & (1u << pp->ctr[j])))
					return pp->row[j];
		}
	return NULL;
}

int plan_thread_parity(const struct pmu *p, int i)
{
	return p->cpu[i].core_rank & 1;
}

/* Selects and offcore registers that change from slot @a to slot @b: what a switch must write. */
static int slot_distance(const struct pmu_cfg *a, const struct pmu_cfg *b)
{
	struct pmu_diff d = pmu_diff(a, b);

	return __builtin_popcount(d.sel) + __builtin_popcount(d.rsp);
}

/* Rebuild slot @s's configuration from its placements (after relabelling). */
static void slot_rebuild(struct plan *pl, struct plan_slot *s)
{
	struct pmu_cfg keep = s->cfg;

	memset(&s->cfg, 0, sizeof(s->cfg));
	s->cfg.ldlat_ctr = -1;
	s->cfg.fixed_mask = keep.fixed_mask;
	for (int p = 0; p < s->nplace; p++) {
		const struct plan_place *pp = &s->place[p];

		for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
			cfg_add(pl, &s->cfg, pp->row[j], pp->ctr[j], pl->unit[pp->unit].thresh);
	}
}

/* One general-purpose row of a slot, for relabelling. */
struct relabel {
	int place, row;
	gp_set allowed;
	uint64_t evtsel;
};

static void relabel_search(const struct relabel *rows, int n, int i, gp_set used, const int8_t *cur,
			   int8_t *pick, const struct pmu_cfg *prev, int score, int *best, int8_t *best_pick)
{
	if (i == n) {
		if (score > *best) {
			*best = score;
			memcpy(best_pick, pick, n);
		}
		return;
	}
	/* Each row left adds at most one: with ten counters the search is 10!, so cut it. */
	if (score + (n - i) <= *best)
		return;
	for (int c = 0; c < PMU_MAX_GP; c++) {
		if (!(rows[i].allowed & (1u << c)) || (used & (1u << c)))
			continue;
		pick[i] = (int8_t)c;
		relabel_search(rows, n, i + 1, used | (gp_set)(1u << c), cur, pick, prev,
			       score + ((prev->gp_mask & (1u << c)) && prev->evtsel[c] == rows[i].evtsel),
			       best, best_pick);
	}
	(void)cur;
}

static void units_first(struct plan *pl);

/*
 * Make rotation cheap: order the slots so that neighbours differ little,
 * then within each slot give every event the counter it had in the slot
 * before when its counter mask allows, so that fewer event selects change
 * at each switch.  The load-latency counter stays where it is.
 */
static void settle(struct plan *pl, const struct plan_resources *res)
{
	struct plan_slot sorted[PLAN_MAX_SLOTS];
	bool done[PLAN_MAX_SLOTS] = { false };
	int order[PLAN_MAX_SLOTS], n = pl->nslots;

	if (n < 2)
		return;
	order[0] = 0;
	done[0] = true;
	for (int k = 1; k < n; k++) {
		int best = -1, bd = 1 << 30;

		for (int si = 0; si < n; si++) {
			int d;

			if (done[si])
				continue;
			d = slot_distance(&pl->slot[order[k - 1]].cfg, &pl->slot[si].cfg);
			if (d < bd) {
				bd = d;
				best = si;
			}
		}
		order[k] = best;
		done[best] = true;
	}
	for (int k = 0; k < n; k++)
		sorted[k] = pl->slot[order[k]];
	memcpy(pl->slot, sorted, n * sizeof(*sorted));

	for (int si = 1; si < n; si++) {
		struct plan_slot *s = &pl->slot[si];
		struct relabel rows[PMU_MAX_GP];
		int8_t pick[PMU_MAX_GP], best_pick[PMU_MAX_GP], cur[PMU_MAX_GP];
		int nr = 0, best = -1, before = 0;

		for (int p = 0; p < s->nplace; p++)
			for (int j = 0; j < pl->unit[s->place[p].unit].nrows; j++) {
				const struct pmu_event *e = s->place[p].row[j];

				struct plan_resources tmp;

				if (e->ldlat)
					continue;
				rows[nr] = (struct relabel){ p, j,
					row_usable(pl, unit_res(&pl->unit[s->place[p].unit], res, &tmp), e),
					pmu_event_evtsel(e) };
				cur[nr] = s->place[p].ctr[j];
				before += (pl->slot[si - 1].cfg.gp_mask & (1u << cur[nr])) &&
					  pl->slot[si - 1].cfg.evtsel[cur[nr]] == rows[nr].evtsel;
				nr++;
			}
		relabel_search(rows, nr, 0, 0, cur, pick, &pl->slot[si - 1].cfg, 0, &best, best_pick);
		if (best <= before)
			continue;
		for (int r = 0; r < nr; r++)
			s->place[rows[r].place].ctr[rows[r].row] = best_pick[r];
		slot_rebuild(pl, s);
	}

	units_first(pl);
}

/* The units' first placement, for --list-events. */
static void units_first(struct plan *pl)
{
	for (int ui = 0; ui < pl->nunits; ui++)
		if (!pl->unit[ui].fixed)
			pl->unit[ui].first_slot = -1;
	for (int si = 0; si < pl->nslots; si++)
		for (int p = 0; p < pl->slot[si].nplace; p++) {
			const struct plan_place *pp = &pl->slot[si].place[p];
			struct plan_unit *u = &pl->unit[pp->unit];

			if (u->first_slot >= 0)
				continue;
			u->first_slot = si;
			for (int j = 0; j < u->nrows; j++) {
				u->ctr[j] = pp->ctr[j];
				u->row[j] = pp->row[j];
			}
		}
}

/* Slot @s's configuration without its excl places: what the other thread parity runs. */
static void slot_idle_cfg(const struct plan *pl, struct plan_slot *s)
{
	memset(&s->cfg_idle, 0, sizeof(s->cfg_idle));
	s->cfg_idle.ldlat_ctr = -1;
	s->cfg_idle.fixed_mask = s->cfg.fixed_mask;
	for (int k = 0; k < s->nplace; k++) {
		const struct plan_place *pp = &s->place[k];

		if (pp->excl)
			continue;
		for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
			cfg_add(pl, &s->cfg_idle, pp->row[j], pp->ctr[j], pl->unit[pp->unit].thresh);
	}
}

/*
 * The HT bug (UARCH_F_HT_EXCL; pmu-facts 6 and 8.6: HSD29, K-core
 * intel_ht_bug): an ht_excl row miscounts unless the sibling thread's same
 * counter is idle.  Every slot with such a row runs twice in a row, once
 * per thread parity: the thread of the slot's parity runs it whole, its
 * sibling leaves the counters of the excl places idle (plan.h), and the
 * roles swap in the twin.  Other places run in both.  A unit's nslots
 * counts the slots it runs in on any one CPU.  The twin follows its slot,
 * so a switch between them writes only the excl counters.
 */
static int split_excl(struct plan *pl, char *err, size_t errlen)
{
	for (int si = 0; si < pl->nslots; si++) {
		struct plan_slot *s = &pl->slot[si];
		bool any = false;

		for (int k = 0; k < s->nplace; k++) {
			struct plan_place *pp = &s->place[k];

			pp->excl = false;
			for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
				pp->excl |= pp->row[j]->ht_excl;
			any |= pp->excl;
		}
		if (!any)
			continue;
		if (pl->nslots == PLAN_MAX_SLOTS) {
			snprintf(err, errlen, "internal error: more than %d rotation slots", PLAN_MAX_SLOTS);
			return -1;
		}
		memmove(&pl->slot[si + 2], &pl->slot[si + 1], (pl->nslots - si - 1) * sizeof(*s));
		pl->nslots++;
		slot_idle_cfg(pl, s);
		s->excl_parity = 0;
		pl->slot[si + 1] = *s;
		pl->slot[si + 1].excl_parity = 1;
		for (int k = 0; k < s->nplace; k++)
			if (!s->place[k].excl)
				pl->unit[s->place[k].unit].nslots++;
		si++;
	}
	units_first(pl);
	return 0;
}

/* The counters of the part-time counters (gp_part) unit @ui's places use. */
static gp_set part_ctrs(const struct plan *pl, const struct plan_resources *res, int ui)
{
	gp_set m = 0;

	for (int si = 0; si < pl->nslots; si++)
		for (int k = 0; k < pl->slot[si].nplace; k++) {
			const struct plan_place *pp = &pl->slot[si].place[k];

			if (pp->unit != ui)
				continue;
			for (int j = 0; j < pl->unit[ui].nrows; j++)
				m |= (gp_set)(1u << pp->ctr[j]);
		}
	return m & res->gp_part;
}

/* Why a part unit's metrics are not measured on a CPU where it does not run. */
static void part_reasons(struct plan *pl, const struct plan_resources *res)
{
	for (int ui = 0; ui < pl->nunits; ui++) {
		const struct plan_unit *u = &pl->unit[ui];
		gp_set m = part_ctrs(pl, res, ui);
		char list[48];

		if (!u->part)
			continue;
		ctr_list(list, sizeof(list), m);
		for (int j = 0; j < u->nrows; j++) {
			enum metric me = u->row[j]->metric;

			snprintf(pl->part_buf[me], sizeof(pl->part_buf[me]), "another user holds %s "
				 "on this CPU, and %s%s%s need%s %s: measured on the CPUs where %s free",
				 list, u->row[0]->name, u->nrows > 1 ? " and " : "",
				 u->nrows > 1 ? u->row[1]->name : "", u->nrows > 1 ? "" : "s",
				 m & (m - 1) ? "them" : "it", m & (m - 1) ? "they are" : "it is");
			pl->part_reason[me] = pl->part_buf[me];
		}
	}
}

/* Order in which single units are packed: the scarcest resources first. */
static const enum metric single_order[] = {
	M_SNOOP_HIT, M_SNOOP_HITM, M_OFFCORE_READS, M_OFFCORE_OUTSTANDING,
	M_SNOOP_REMOTE_HIT, M_SNOOP_REMOTE_HITM, M_LOADS, M_CYCLES, M_INSTRUCTIONS,
};

static bool remote_metric(enum metric m)
{
	return m == M_SNOOP_REMOTE_HIT || m == M_SNOOP_REMOTE_HITM;
}

int plan_build(struct plan *pl, const struct uarch *ua, const struct plan_resources *res,
	       const unsigned *thresholds, int nthresh, char *err, size_t errlen)
{
	const struct pmu_table *t = ua->table;
	const struct pmu_event *ld = NULL;
	char why[PLAN_REASON_MAX];

	memset(pl, 0, sizeof(*pl));
	pl->ldlat_ctr = -1;
	pl->tagged = -1;
	pl->ht_bug = ua->flags & UARCH_F_HT_EXCL;
	pl->ht_erratum = ua->ht_erratum;
	pl->packages = res->packages ? res->packages : 1;
	pl->ht_on = res->ht_on;
	pl->twins = pl->ht_bug && res->ht_excl;
	for (int m = 0; m < M__COUNT; m++)
		pl->unit_of[m] = -1;
	for (int i = 0; i <= THRESH_MAX; i++)
		pl->ldlat_unit[i] = -1;
	if (nthresh > THRESH_MAX) {
		snprintf(err, errlen, "at most %d load-latency thresholds", THRESH_MAX);
		return -1;
	}
	pl->nthresh = nthresh;
	if (nthresh)
		memcpy(pl->thresholds, thresholds, nthresh * sizeof(*thresholds));

	/* Fixed counters: always running, when free. */
	for (const struct pmu_event *e = t->events; e->name; e++) {
		int ui;

		if (e->fixed == PMU_FIXED_NONE || !row_eligible(e, ua, res) || pl->unit_of[e->metric] >= 0)
			continue;
		if ((unsigned)e->fixed >= res->nfixed || !(res->fixed_free & (1u << e->fixed))) {
			snprintf(why, sizeof(why), "%s needs IA32_FIXED_CTR%d, which another user holds",
				 e->name, e->fixed);
			set_reason(pl, e->metric, why);
			continue;
		}
		ui = add_unit(pl);
		pl->unit[ui].fixed = true;
		pl->unit[ui].nrows = 1;
		pl->unit[ui].row[0] = e;
		pl->unit[ui].ctr[0] = e->fixed;
		pl->fixed_mask |= (uint8_t)(1u << e->fixed);
		pl->unit_of[e->metric] = ui;
		pl->reason[e->metric] = NULL;
	}

	/* Load latency: one counter reserved, one unit per threshold. */
	for (const struct pmu_event *e = t->events; e->name && !ld; e++)
		if (e->ldlat && row_eligible(e, ua, res))
			ld = e;
	if (!ld) {
		set_reason(pl, M_LOAD_LATENCY, t->unsupported[M_LOAD_LATENCY] ?
			   t->unsupported[M_LOAD_LATENCY] : "no load-latency event");
	} else if (!res->ldlat_free) {
		set_reason(pl, M_LOAD_LATENCY, res->ldlat_why ? res->ldlat_why :
			   "IA32_PEBS_ENABLE shows another user's PEBS events; "
			   "the load-latency facility cannot be shared");
	} else if (nthresh == 0) {
		set_reason(pl, M_LOAD_LATENCY, "no load-latency threshold asked for");
	} else {
		gp_set free_ = (gp_set)(res->gp_free & ((1u << res->ngp) - 1));

		pl->ldlat_ctr = highest_bit(ld->counters & free_);
		if (pl->ldlat_ctr < 0) {
			why_not_placed(why, sizeof(why), pl, &ld, 1, res);
			set_reason(pl, M_LOAD_LATENCY, why);
		}
		/*
		 * The load-latency counter keeps its event in every slot, so that
		 * PEBS_ENABLE does not change, unless it is the only counter
		 * free: then it rotates like the others.
		 *
		 * Other events share the slot.  Intel's perfmon json marks the
		 * Haswell/Broadwell load-latency events TakenAlone=1, which its
		 * README.md defines as an event to be collected with no other
		 * event on the general-purpose counters (PM; pmu-facts 6).  Not
		 * followed: that is advice for sampling tools, and the hardware
		 * rule is narrower.  The SDM forbids only other PEBS events on
		 * other counters while the load-latency event is enabled (SDM16
		 * 18.9.4.2, p.692, Sandy Bridge; p.702: Haswell's load latency
		 * facility is unchanged), and the kernel schedules
		 * MEM_TRANS_RETIRED.LOAD_LATENCY beside ordinary events on PMC0-3
		 * (K-ds INTEL_PLD_CONSTRAINT(0x01cd, 0xf)).  lattop keeps the
		 * SDM's rule: IA32_PEBS_ENABLE carries only the load-latency
		 * counter's bits (pmu_apply() clears them for every other counter
		 * it programs), and the facility is not used at all while someone
		 * else has PEBS enabled (res->ldlat_free).  The sibling thread
		 * does not enter it: on Haswell MSR_PEBS_LD_LAT_THRESHOLD is per
		 * thread (K-core PMU_FL_NO_HT_SHARING; pmu-facts 8.5), and 0xCD
		 * is not among the HT-bug events (K-core INTEL_EXCLEVT_CONSTRAINT:
		 * 0xD0-0xD3 only).
		 */
		pl->ldlat_reserved = pl->ldlat_ctr >= 0 && (free_ & ~(1u << pl->ldlat_ctr));
	}
	if (pl->reason[M_LOAD_LATENCY])
		set_reason(pl, M_LOADS, pl->reason[M_LOAD_LATENCY]);

	/* Pairs: both rows eligible and placeable together, or neither. */
	for (int tag = 1; tag < 256; tag++) {
		const struct pmu_event *rows[2] = { NULL, NULL };
		int n = 0, ok = 1, ui;

		for (const struct pmu_event *e = t->events; e->name; e++) {
			if (e->pair != tag)
				continue;
			if (!row_eligible(e, ua, res) || n == 2)
				ok = 0;
			else
				rows[n++] = e;
		}
		if (n == 0 || !ok || n != 2)
			continue;
		if (pl->reason[rows[0]->metric] || pl->reason[rows[1]->metric] ||
		    pl->unit_of[rows[0]->metric] >= 0 || pl->unit_of[rows[1]->metric] >= 0)
			continue;
		ui = add_unit(pl);
		pl->unit[ui].nrows = 2;
		pl->unit[ui].row[0] = rows[0];
		pl->unit[ui].row[1] = rows[1];
		if (!fits_alone(pl, res, ui) && !fits_part(pl, res, ui)) {
			pl->nunits--;
			why_not_placed(why, sizeof(why), pl, rows, 2, res);
			for (int i = 0; i < 2; i++)
				set_reason(pl, rows[i]->metric, why);
			continue;
		}
		pl->unit_of[rows[0]->metric] = ui;
		pl->unit_of[rows[1]->metric] = ui;
	}

	/* Single units, with alternatives in table order. */
	for (size_t k = 0; k < sizeof(single_order) / sizeof(single_order[0]); k++) {
		enum metric m = single_order[k];
		const struct pmu_event *last = NULL;
		int ui;

		if (pl->unit_of[m] >= 0 || (pl->reason[m] && m == M_LOADS))
			continue;
		ui = add_unit(pl);
		pl->unit[ui].nrows = 1;
		for (const struct pmu_event *e = t->events; e->name; e++)
			if (e->metric == m && e->fixed == PMU_FIXED_NONE && !e->pair && !e->ldlat &&
			    row_eligible(e, ua, res) && pl->unit[ui].nalt < 4)
				pl->unit[ui].alt[pl->unit[ui].nalt++] = last = e;
		if (!last) {
			pl->nunits--;
			set_reason(pl, m, t->unsupported[m] ? t->unsupported[m] : model_lacks(t, m, ua, res));
			continue;
		}
		if (remote_metric(m) && res->packages < 2) {
			pl->nunits--;
			set_reason(pl, m, "a single package: no other package's cache can serve a read");
			continue;
		}
		if (!fits_alone(pl, res, ui) && !fits_part(pl, res, ui)) {
			pl->nunits--;
			why_not_placed(why, sizeof(why), pl, &last, 1, res);
			set_reason(pl, m, why);
			continue;
		}
		pl->unit_of[m] = ui;
		pl->reason[m] = NULL;
	}
	if (pl->unit_of[M_REF_CYCLES] < 0)
		set_reason(pl, M_REF_CYCLES, t->unsupported[M_REF_CYCLES] ? t->unsupported[M_REF_CYCLES]
					      : "no reference-cycles counter");
	if (pl->ldlat_ctr >= 0) {
		int n = nthresh;

		/* Every tagged load (THRESH_TAGGED), asked for or not: the base of the shares. */
		for (int i = 0; i < nthresh; i++)
			if (pl->thresholds[i] == THRESH_TAGGED)
				pl->tagged = i;
		if (pl->tagged < 0) {
			pl->thresholds[nthresh] = THRESH_TAGGED;
			pl->tagged = n++;
		}
		for (int i = 0; i < n; i++) {
			int ui = add_unit(pl);

			pl->unit[ui].nrows = 1;
			pl->unit[ui].row[0] = ld;
			pl->unit[ui].thresh = i;
			pl->ldlat_unit[i] = ui;
		}
		pl->unit_of[M_LOAD_LATENCY] = pl->ldlat_unit[pl->tagged];
	}

	/* Pack: every rotating unit once, first fit. */
	for (int ui = 0; ui < pl->nunits; ui++) {
		int si;

		if (pl->unit[ui].fixed)
			continue;
		for (si = 0; si < pl->nslots; si++)
			if (try_place(pl, res, si, ui, true))
				break;
		if (si < pl->nslots)
			continue;
		if (pl->nslots == PLAN_MAX_SLOTS) {
			snprintf(err, errlen, "internal error: more than %d rotation slots", PLAN_MAX_SLOTS);
			return -1;
		}
		si = new_slot(pl);
		if (!try_place(pl, res, si, ui, true)) {
			snprintf(err, errlen, "internal error: unit %d fits no slot", ui);
			return -1;
		}
	}
	if (pl->nslots == 0)
		new_slot(pl);

	/* Fill idle counters: the least-covered unit that fits, until none does. */
	for (int si = 0; si < pl->nslots; si++) {
		for (;;) {
			int best = -1;

			for (int ui = 0; ui < pl->nunits; ui++) {
				const struct plan_unit *u = &pl->unit[ui];

				if (u->fixed || in_slot(&pl->slot[si], ui))
					continue;
				if (best >= 0 && u->nslots >= pl->unit[best].nslots)
					continue;
				if (!try_place(pl, res, si, ui, false))
					continue;
				best = ui;
			}
			if (best < 0)
				break;
			try_place(pl, res, si, best, true);
		}
	}
	for (int si = 0; si < pl->nslots; si++)
		pl->slot[si].cfg.fixed_mask = pl->fixed_mask;
	settle(pl, res);
	if (res->ht_excl && (ua->flags & UARCH_F_HT_EXCL) && split_excl(pl, err, errlen) < 0)
		return -1;
	part_reasons(pl, res);
	for (int ui = 0; ui < pl->nunits && res->ht_on && !pl->ht_caveat; ui++)
		for (int j = 0; j < pl->unit[ui].nrows; j++)
			if (pl->unit[ui].nslots && pl->unit[ui].row[j]->ht_caveat)
				pl->ht_caveat = pl->unit[ui].row[j]->ht_caveat;
	return 0;
}

void plan_floor(const struct plan *pl, int reset_writes, int *reads, int *writes)
{
	int r = 0, w = 0;

	/* Twin slots (split_excl) program each thread parity differently: the mean of both. */
	for (int par = 0; par < 2; par++) {
		r += __builtin_popcount(pl->fixed_mask);
		for (int si = 0; si < pl->nslots; si++) {
			const struct pmu_cfg *a = plan_slot_cfg(pl, si, par);
			const struct pmu_cfg *b = plan_slot_cfg(pl, (si + 1) % pl->nslots, par);
			struct pmu_diff d;
			int changed;

			r += __builtin_popcount(a->gp_mask);
			if (pl->nslots == 1)
				continue;
			d = pmu_diff(a, b);
			changed = __builtin_popcount(d.sel) + __builtin_popcount(d.rsp) + d.ldlat;
			w += changed;
			/* The Nehalem counter reset before any reprogramming (pmu.h). */
			if (changed)
				w += reset_writes;
		}
	}
	*reads = (r + 1) / 2;
	*writes = (w + 1) / 2;
}

const struct pmu_cfg *plan_cpu_cfg(const struct plan *pl, int si, int parity, gp_set busy,
				   struct pmu_cfg *buf)
{
	const struct pmu_cfg *cfg = plan_slot_cfg(pl, si, parity);
	const struct plan_slot *s = &pl->slot[si];

	if (!(cfg->gp_mask & busy))
		return cfg;
	/* Only part units' places reach counters busy somewhere: rebuilt without them. */
	memset(buf, 0, sizeof(*buf));
	buf->ldlat_ctr = -1;
	buf->fixed_mask = cfg->fixed_mask;
	for (int k = 0; k < s->nplace; k++) {
		const struct plan_place *pp = &s->place[k];

		if (!plan_place_runs(pl, si, k, parity, busy))
			continue;
		for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
			cfg_add(pl, buf, pp->row[j], pp->ctr[j], pl->unit[pp->unit].thresh);
	}
	return buf;
}

size_t plan_part_note(const struct plan *pl, const struct pmu *p, char *buf, size_t len)
{
	size_t o = 0;

	if (len)
		buf[0] = 0;
	for (int ui = 0; ui < pl->nunits; ui++) {
		const struct plan_unit *u = &pl->unit[ui];
		gp_set ctrs = 0;
		int missed = 0, first = -1;

		if (!u->part)
			continue;
		for (int i = 0; i < p->ncpu; i++) {
			gp_set busy = plan_cpu_busy(p, i);
			bool runs = false;

			for (int si = 0; si < pl->nslots && !runs; si++)
				for (int k = 0; k < pl->slot[si].nplace && !runs; k++) {
					const struct plan_place *pp = &pl->slot[si].place[k];
					gp_set m = 0;

					if (pp->unit != ui)
						continue;
					for (int j = 0; j < u->nrows; j++)
						m |= (gp_set)(1u << pp->ctr[j]);
					runs = !(m & busy);
					ctrs |= m & busy;
				}
			if (runs)
				continue;
			if (first < 0)
				first = p->cpu[i].id;
			missed++;
		}
		if (!missed || o >= len)
			continue;
		char list[48], more[32] = "";

		ctr_list(list, sizeof(list), ctrs);
		if (missed > 1)
			snprintf(more, sizeof(more), " and %d more CPU%s", missed - 1, missed > 2 ? "s" : "");
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s%s: not measured on cpu %d%s (another user "
				      "holds %s there); the total is of the other CPUs", o ? "; " : "",
				      metric_name(u->row[0]->metric), u->nrows > 1 ? " and " : "",
				      u->nrows > 1 ? metric_name(u->row[1]->metric) : "", first, more, list);
	}
	return o < len ? o : (len ? len - 1 : 0);
}

void plan_link_types(struct plan *const *pl, int n, const char *const *type_names)
{
	for (int t = 0; t < n; t++) {
		pl[t]->ntypes = n;
		for (int k = 0; k < n; k++) {
			pl[t]->type[k] = pl[k];
			pl[t]->type_name[k] = type_names[k];
		}
	}
	for (int m = 0; m < M__COUNT; m++) {
		if (!plan_has(pl[0], m) || pl[0]->part_reason[m])
			continue;
		for (int t = 1; t < n; t++) {
			if (plan_has(pl[t], m))
				continue;
			snprintf(pl[0]->part_buf[m], sizeof(pl[0]->part_buf[m]),
				 "not measured on the %s cores: %s", type_names[t], pl[t]->reason[m]);
			pl[0]->part_reason[m] = pl[0]->part_buf[m];
			break;
		}
	}
}
