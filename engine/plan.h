/*
 * plan.h: which events run together, on which counters, in which rotation
 * slot.  A pure function of the microarchitecture's event table, the
 * counters that are free, and the load-latency thresholds wanted.
 *
 * A "unit" is what must be measured at once: one event, the two events of
 * a ratio (offcore outstanding cycles and requests), or the load-latency
 * event at one threshold.  Units on fixed counters run all the time; the
 * others rotate through slots of equal length within each interval, and
 * idle counters in a slot are filled with more units so each runs as long
 * as possible.  Every slot programs the same configuration on every CPU,
 * so hyperthreads and module siblings that share MSR_OFFCORE_RSP_x always
 * agree on its value, with one exception: on a uarch with the HT bug
 * (UARCH_F_HT_EXCL) with both threads of a core measured, a slot that runs
 * an ht_excl row on counter c runs twice, once per thread parity: the
 * thread of that parity runs the slot whole, the other leaves the excl
 * rows' counters idle (cfg_idle), so siblings never run them on the same
 * counter at once.  Units placed there accrue run time only where they ran.
 */
#ifndef LATTOP_PLAN_H
#define LATTOP_PLAN_H

#include <stdbool.h>

#include "cpu/events.h"
#include "cpu/pmu.h"
#include "cpu/uarch.h"
#include "engine/thresh.h"

#define PLAN_MAX_UNITS  40
#define PLAN_MAX_SLOTS  40
#define PLAN_REASON_MAX 320     /* a reason, with its NUL: a sibling's (sib_why) and the erratum fit */

struct plan_unit {
	int nrows;
	const struct pmu_event *row[2];  /* the rows chosen (for a pair, both) */
	const struct pmu_event *alt[4];  /* alternatives for a single unit */
	int nalt;
	int thresh;                      /* load latency: index into thresholds[], else -1 */
	bool fixed;                      /* on a fixed counter, always running */
	/*
	 * Placed on counters free on some CPUs only (plan_resources.gp_part):
	 * it runs on the CPUs where they are free, and nowhere else.
	 */
	bool part;
	int nslots;                      /* slots it runs in */
	int first_slot;
	int8_t ctr[2];                   /* counters in its first slot (fixed: fixed index) */
};

struct plan_place {
	int unit;
	const struct pmu_event *row[2];
	int8_t ctr[2];
	bool excl;                       /* a row is ht_excl, and the HT bug applies */
};

struct plan_slot {
	struct pmu_cfg cfg;
	int nplace;
	struct plan_place place[PMU_MAX_GP];
	int8_t excl_parity;              /* -1; else the thread parity that runs the excl places */
	struct pmu_cfg cfg_idle;         /* cfg for the other parity: excl places' counters idle */
};

/* What the probe found free, over every CPU measured. */
struct plan_resources {
	unsigned ngp;               /* general-purpose counters per logical CPU */
	unsigned nfixed;
	gp_set gp_free;             /* bit i: IA32_PMCi free on every CPU */
	gp_set gp_part;             /* bit i: IA32_PMCi free on some CPUs, not on every one */
	uint8_t fixed_free;
	uint8_t rsp_free;           /* bit j: MSR_OFFCORE_RSP_j exists and is free */
	bool ldlat_free;            /* PEBS and the threshold register are free */
	const char *ldlat_why;      /* why not, when known beyond "someone uses PEBS"; else NULL */
	unsigned flags;             /* UARCH_F_* of the model (struct cpu_desc.flags); 0: the family's */
	unsigned packages;          /* packages in the machine; 0 counts as 1 */
	bool ht_excl;               /* the uarch has the HT bug and both threads of a core are measured */
	bool ht_on;                 /* a measured CPU's core has another logical CPU online */
	/*
	 * The HT bug beside hyperthreads lattop does not measure (pmu.h,
	 * struct pmu_cpu.sib_*): the counters an ht_excl row may not use, since
	 * a sibling's same counter holds an event, and who, for the reason
	 * ("cpu 4, the hyperthread sibling of cpu 0, uses IA32_PMC0/1").
	 * Counters where a sibling counts an event the bug covers are not in
	 * gp_free: no row may use them.
	 */
	gp_set excl_busy;
	char sib_why[160];
};

struct plan {
	int nunits;
	struct plan_unit unit[PLAN_MAX_UNITS];
	int nslots;
	struct plan_slot slot[PLAN_MAX_SLOTS];
	int unit_of[M__COUNT];          /* unit measuring a metric (not load latency), or -1 */
	int ldlat_unit[THRESH_MAX + 1];    /* unit per threshold, or -1 */
	int nthresh;                    /* thresholds asked for, thresholds[0..nthresh) */
	unsigned thresholds[THRESH_MAX + 1];
	int tagged;                     /* index of THRESH_TAGGED in thresholds[]: asked
					 * for, or added at [nthresh]; -1 without load latency */
	int ldlat_ctr;                  /* counter for load latency, or -1 */
	bool ldlat_reserved;            /* ... kept for it in every slot */
	uint8_t fixed_mask;
	bool ht_bug;                    /* the uarch has the HT bug (UARCH_F_HT_EXCL): ht_excl rows matter */
	const char *ht_erratum;         /* ... and its name ("HSD29"), for reasons */
	/* The machine planned for (struct plan_resources): what --list-events says. */
	unsigned packages;
	bool ht_on, twins;              /* twins: ht_excl rows run in twin slots (split_excl) */
	const char *ht_caveat;          /* HT is on and a planned row's count is in doubt with it
					 * (struct pmu_event.ht_caveat), for the notes; or NULL */
	const char *reason[M__COUNT];   /* why a metric is not measured, or NULL */
	/*
	 * Why a metric of a part unit is not measured on a CPU where it does
	 * not run (another user holds a counter it needs there), or NULL.
	 */
	const char *part_reason[M__COUNT];
	char part_buf[M__COUNT][PLAN_REASON_MAX];
	char reason_buf[M__COUNT][PLAN_REASON_MAX];
	/*
	 * A hybrid part (struct cpu_desc.type[]): the plan of each core type,
	 * this one (type 0's) first, built from that type's table and counters;
	 * ntypes 0 on a part that is not hybrid.  A CPU of type t runs
	 * plan_of_type(pl, t), whose units its counts are of (struct sample_cpu).
	 * A metric this plan measures and another type's does not is a part
	 * metric here (part_reason): its total is of the CPUs that have it.
	 */
	int ntypes;
	const struct plan *type[CORE_TYPES_MAX];
	const char *type_name[CORE_TYPES_MAX];  /* "core", "atom" (core_type_name()) */
};

/* The plan a CPU of core type @t runs (struct pmu_cpu.type; 0 on a part that is not hybrid). */
static inline const struct plan *plan_of_type(const struct plan *pl, int t)
{
	return t > 0 && t < pl->ntypes ? pl->type[t] : pl;
}

/* The rotation slots of an interval: the most of any core type's plan. */
static inline int plan_nslots(const struct plan *pl)
{
	int n = pl->nslots;

	for (int t = 1; t < pl->ntypes; t++)
		if (pl->type[t]->nslots > n)
			n = pl->type[t]->nslots;
	return n;
}

/*
 * Link the plans of a hybrid part's @n core types, @pl[0] first: each
 * knows the others, and @pl[0] says, for each metric it measures that
 * another type does not, why not there ("not measured on the atom cores:
 * ..."), so that its total is of the CPUs that measure it.
 */
void plan_link_types(struct plan *const *pl, int n, const char *const *type_names);

/*
 * Build the plan.  Never fails for lack of counters: what cannot be
 * measured gets a reason.  Returns 0, or -1 with a message for a plan that
 * would not fit its own limits (an internal error).
 */
int plan_build(struct plan *pl, const struct uarch *u, const struct plan_resources *res,
	       const unsigned *thresholds, int nthresh, char *err, size_t errlen);

/*
 * The floor of MSR operations per logical CPU per interval for this plan:
 * @reads, the counters that must be read (each slot's general-purpose
 * counters, the fixed counters once); @writes, what rotation must change
 * (each control register whose value differs from one slot to the next:
 * event selects, MSR_OFFCORE_RSP_x, the load-latency threshold: pmu_diff()),
 * plus @reset_writes at every switch that changes one: what the
 * counter-reset erratum's sequence costs (pmu_ctr_reset_writes(), 0 on
 * parts without it).
 */
void plan_floor(const struct plan *pl, int reset_writes, int *reads, int *writes);

/* Free resources common to every CPU of @p. */
void plan_resources_from_pmu(struct plan_resources *res, const struct pmu *p);

/* ... to every CPU of core type @type (struct pmu_cpu.type), with that type's counters; -1: all. */
void plan_resources_of_type(struct plan_resources *res, const struct pmu *p, int type);

/*
 * Thread parity of CPU index @i of @p: its rank, by Linux CPU number, among
 * the measured CPUs of its core (same package and core id), modulo 2.
 */
int plan_thread_parity(const struct pmu *p, int i);

/*
 * The first ht_excl row the plan places on one of counters @ctrs where the
 * HT bug applies, or NULL: what a sibling that starts using one of them
 * spoils.
 */
const struct pmu_event *plan_excl_row(const struct plan *pl, gp_set ctrs);

/* What slot @si programs on a CPU of thread parity @parity. */
static inline const struct pmu_cfg *plan_slot_cfg(const struct plan *pl, int si, int parity)
{
	const struct plan_slot *s = &pl->slot[si];

	return s->excl_parity >= 0 && parity != s->excl_parity ? &s->cfg_idle : &s->cfg;
}

/*
 * The counters CPU index @i of @p may not use: those another user holds
 * there (none with --force), and those where its unmeasured hyperthread
 * sibling counts an event the HT bug covers (as plan_resources_from_pmu()).
 */
gp_set plan_cpu_busy(const struct pmu *p, int i);

/*
 * What slot @si programs on a CPU of thread parity @parity where counters
 * @busy are another user's: plan_slot_cfg() without the places of part
 * units on those counters (built in @buf when some are).
 */
const struct pmu_cfg *plan_cpu_cfg(const struct plan *pl, int si, int parity, gp_set busy,
				   struct pmu_cfg *buf);

/* Does place @k of slot @si run on a CPU of thread parity @parity, counters @busy held by others? */
static inline bool plan_place_runs(const struct plan *pl, int si, int k, int parity, gp_set busy)
{
	const struct plan_slot *s = &pl->slot[si];
	const struct plan_place *pp = &s->place[k];

	for (int j = 0; j < pl->unit[pp->unit].nrows; j++)
		if (busy & (1u << pp->ctr[j]))
			return false;
	return !pp->excl || s->excl_parity < 0 || parity == s->excl_parity;
}

/*
 * The CPUs of @p where a part unit does not run, for the notes: "offcore
 * latency is not measured on cpu 3 (another user holds IA32_PMC2 there)";
 * "" when none.  Returns the length written.
 */
size_t plan_part_note(const struct plan *pl, const struct pmu *p, char *buf, size_t len);

/* True when the rows of a metric can be measured. */
static inline bool plan_has(const struct plan *pl, enum metric m)
{
	return pl->reason[m] == NULL;
}

#endif
