/*
 * events.c: what the event tables share: metric names and the
 * PERFEVTSEL value of a row.
 *
 * Owns: metric_name(), snoop_scope_name(), pmu_flag_name(), pmu_event_evtsel().  The rows
 * themselves live in cpu/events/<family>.c; the list of tables is derived
 * from cpu/uarch.c's uarch_supported[] (uarch_pmu_table()).  Nothing here touches
 * a device or knows a CPU model; the planner and the PMU programmer read
 * these values and decide what to write.
 */
#include <stddef.h>

#include "cpu/events.h"

/* The JSON "metric" values, indexed by enum metric. */
static const char *const metric_names[M__COUNT] = {
	[M_CYCLES]             = "cycles",
	[M_INSTRUCTIONS]       = "instructions",
	[M_REF_CYCLES]         = "ref_cycles",
	[M_LOADS]              = "loads",
	[M_LOAD_LATENCY]       = "load_latency",
	[M_SNOOP_HIT]          = "snoop_hit",
	[M_SNOOP_HITM]         = "snoop_hitm",
	[M_OFFCORE_READS]      = "offcore_reads",
	[M_OFFCORE_OUTSTANDING] = "offcore_outstanding",
	[M_SNOOP_REMOTE_HIT]   = "snoop_remote_hit",
	[M_SNOOP_REMOTE_HITM]  = "snoop_remote_hitm",
};

/* The JSON "hit_scope"/"hitm_scope" values. */
const char *snoop_scope_name(enum snoop_scope s)
{
	switch (s) {
	case SCOPE_OTHER_CORE:
		return "other_core";
	case SCOPE_OTHER_MODULE:
		return "other_module";
	case SCOPE_OTHER_PACKAGE:
		return "other_package";
	case SCOPE_NONE:
		break;
	}
	return NULL;
}

/* The UARCH_F_* names, indexed by bit: --list-uarchs prints them. */
static const char *const flag_names[UARCH_F__COUNT] = {
	[0] = "offcore_queue",          /* UARCH_F_OFFCORE_QUEUE */
	[1] = "nhm_ctr_reset",          /* UARCH_F_NHM_CTR_RESET */
	[2] = "remote_events",          /* UARCH_F_REMOTE_EVENTS */
	[3] = "ht_excl",                /* UARCH_F_HT_EXCL */
	[4] = "xsnp_hitm",              /* UARCH_F_XSNP_HITM */
	[5] = "ocr_snoop",              /* UARCH_F_OCR_SNOOP */
	[6] = "ocr_snoop_hit",          /* UARCH_F_OCR_SNOOP_HIT */
	[7] = "l3_snoop_hitm",          /* UARCH_F_L3_SNOOP_HITM */
};

const char *pmu_flag_name(unsigned flag)
{
	for (unsigned b = 0; b < UARCH_F__COUNT; b++)
		if (flag == 1u << b)
			return flag_names[b];
	return NULL;
}

const char *metric_name(enum metric m)
{
	if ((unsigned)m >= M__COUNT)
		return "unknown";
	return metric_names[m];
}

/*
 * IA32_PERFEVTSELx for @e (bit layout: SDM Vol.3B Figure 18-6; kernel
 * perf_event.h): count in rings 0 and 3, enabled, no PMI (INT stays 0:
 * lattop reads counters, it never samples on overflow), AnyThread 0.
 * A fixed-counter row has no PERFEVTSEL: it is enabled through
 * IA32_FIXED_CTR_CTRL, so the answer is 0.
 */
bool pmu_table_has_evtsel(const struct pmu_table *t, uint64_t evtsel)
{
	if (!t || !(evtsel & EVTSEL_EN) || (evtsel & EVTSEL_INT))
		return false;
	for (const struct pmu_event *e = t->events; e->name; e++)
		if (e->fixed == PMU_FIXED_NONE && pmu_event_evtsel(e) == evtsel)
			return true;
	return false;
}

uint64_t pmu_event_evtsel(const struct pmu_event *e)
{
	uint64_t v;

	if (e->fixed != PMU_FIXED_NONE)
		return 0;
	v = (uint64_t)e->event | (uint64_t)e->umask << 8 |
	    EVTSEL_USR | EVTSEL_OS | EVTSEL_EN |
	    (uint64_t)e->cmask << 24;
	if (e->edge)
		v |= EVTSEL_EDGE;
	if (e->inv)
		v |= EVTSEL_INV;
	return v;
}
