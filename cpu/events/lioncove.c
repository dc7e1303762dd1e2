/*
 * events/lioncove.c: the event table of the Lion Cove P-core PMU: the
 * P-cores of Lunar Lake 06_BD and of Arrow Lake-S/HX 06_C6 and Arrow
 * Lake-H 06_C5 (PM2 mapfile rows 0x40,0x000003; pmu-facts 9.1).  Leaf
 * 0x23.1 enumerates 10 general-purpose counters (GP bitmap 0x3FF) where
 * leaf 0xA says 8, and fixed counters 0-3 (the fourth, SLOTS, unused
 * here); perfmon version 6 on Lunar Lake and Arrow Lake-S, 5 on Arrow
 * Lake-H (pmu-facts 9.1, 9.2).
 *
 * Owns: pmu_table_lioncove, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model.  Where its counters live (the
 * version 6 MSR range, or the legacy addresses) is cpu/pmu.c's, keyed on
 * the version; the rows say only which counters an event may use.
 *
 * The masks below are Intel's lists, PMC8 and 9 included: load latency
 * runs on PMC2-9 (pmu-facts 9.3).  lattop programs PMC8/9 through the
 * version 6 range (Lunar Lake, Arrow Lake-S); on a version 5 PMU (Arrow
 * Lake-H) their legacy addresses are UNVERIFIED (pmu-facts 9.10 item 2),
 * so there it uses PMC0-7 (pmu_caps_ngp, cpu/msr_allow.h says why) and
 * these masks' PMC8/9 bits find no counter.  tests/test_events.c checks
 * that Intel's lists are these.
 *
 * What moved from Golden and Redwood Cove (pmu-facts 9.3-9.5):
 * - load latency stays MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N 0xCD/0x01, but
 *   off PMC0 and PMC1 (PM2 Counter 2-9; K612 ds.c
 *   INTEL_HYBRID_LDLAT_CONSTRAINT(0x1cd, 0x3fc)); no auxiliary event;
 * - 0xD2/0x04 is XSNP_HITM again, "HitM responses from shared L3,
 *   Hit-with-FWD is normally excluded": HITM alone (UARCH_F_XSNP_HITM);
 *   the clean line another core forwarded moved to 0xD2/0x10 XSNP_FWD,
 *   which lattop does not count (its clean hit is XSNP_NO_FWD, 0xD2/0x02,
 *   as on every P-core since Tiger Lake);
 * - OFFCORE_REQUESTS 0x21/0x01 may use every counter (PM2 Counter 0-9),
 *   OFFCORE_REQUESTS_OUTSTANDING 0x20/0x01 PMC0-3 (K612
 *   intel_lnc_event_constraints); the 0xD0-0xDF loads and snoops PMC0-3;
 * - the offcore-response snoop bits moved (SNOOP_HITM 0x40001E00001):
 *   lattop counts no OCR event on a P-core, so nothing here reads them.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: LNL/events/lunarlake_lioncove_core.json
 *          (V1.26), ARL/events/arrowlake_lioncove_core.json (V1.20)
 *   K612   Linux 6.12 core.c (intel_pmu_init_lnc on intel_pmu_init_glc,
 *          intel_lnc_event_constraints, intel_lnc_extra_regs), ds.c
 *          (intel_lnc_pebs_event_constraints)
 * libpfm4 4.13 has no Lion Cove PMU (pmu-facts 9.8): tests/test_events.c
 * checks every row against both files' values, written into it (.json).
 */
#include <stddef.h>

#include "cpu/events.h"

#define LNC_ALL   0x3FF /* PMC0-9: PM2 "Counter 0,...,9" (leaf 0x23.1 GP 0x3FF) */
#define LNC_LOW   0x0F  /* PMC0-3: PM2 Counter 0-3; K612 intel_lnc_event_constraints */
#define LNC_LDLAT 0x3FC /* PMC2-9: PM2 Counter 2-9; K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x1cd, 0x3fc) */

#define LNC_ONE_PACKAGE "Lunar Lake and Arrow Lake are single-package parts: Intel's " \
			"Lion Cove files have no event for a load another package served"

static const struct pmu_event lioncove_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 LNL/ARL Lion Cove json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, LNC_ALL),
	  .source = "PM2 LNL/ARL Lion Cove json 0xC0/0x00, Counter 0-9" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 LNL/ARL Lion Cove json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, LNC_ALL),
	  .source = "PM2 LNL/ARL Lion Cove json 0x3C/0x00, Counter 0-9" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 LNL/ARL Lion Cove json 'Fixed counter 2'" },

	/* --- loads retired (0xD0: PMC0-3) --- */
	{ .name = "MEM_INST_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, LNC_LOW),
	  .source = "PM2 LNL/ARL Lion Cove json 0xD0/0x81, Counter 0-3" },

	/* --- load latency: PEBS_EN of its counter and the threshold, no auxiliary event --- */
	{ .name = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", .metric = M_LOAD_LATENCY,
	  GP(0xCD, 0x01, LNC_LDLAT), .ldlat = true,
	  .source = "PM2 LNL/ARL Lion Cove json 0xCD/0x01 MSRIndex 0x3F6, Counter 2-9; "
		    "K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x1cd, 0x3fc)" },

	/* --- snoops in this package (pmu-facts 9.4) --- */
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xD2, 0x02, LNC_LOW), .scope = SCOPE_OTHER_CORE,
	  .source = "PM2 LNL/ARL Lion Cove json 0xD2/0x02 'cross-core snoop hits in on-pkg "
		    "core cache', Counter 0-3" },
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", .metric = M_SNOOP_HITM,
	  GP(0xD2, 0x04, LNC_LOW), .scope = SCOPE_OTHER_CORE, .needs = UARCH_F_XSNP_HITM,
	  .source = "PM2 LNL/ARL Lion Cove json 0xD2/0x04 'HitM responses from shared L3, "
		    "Hit-with-FWD is normally excluded', Counter 0-3" },

	/* --- offcore latency: 0x20 on PMC0-3, 0x21 anywhere (pmu-facts 9.5) --- */
	{ .name = "OFFCORE_REQUESTS.DEMAND_DATA_RD", .metric = M_OFFCORE_READS,
	  GP(0x21, 0x01, LNC_ALL), .pair = 1,
	  .source = "PM2 LNL/ARL Lion Cove json 0x21/0x01, Counter 0-9" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x20, 0x01, LNC_LOW), .pair = 1,
	  .source = "PM2 LNL/ARL Lion Cove json 0x20/0x01 cmask 0, Counter 0-3; "
		    "K612 intel_lnc_event_constraints" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_lioncove = {
	.name = "lioncove",
	.events = lioncove_events,
	.unsupported = {
		[M_SNOOP_REMOTE_HIT]  = LNC_ONE_PACKAGE,
		[M_SNOOP_REMOTE_HITM] = LNC_ONE_PACKAGE,
	},
	.json = "LNL/events/lunarlake_lioncove_core.json ARL/events/arrowlake_lioncove_core.json",
};
