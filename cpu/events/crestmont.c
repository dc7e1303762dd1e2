/*
 * events/crestmont.c: the event table of the Crestmont E-core PMU: Sierra
 * Forest 06_AF and Grand Ridge 06_B6 (Crestmont only), the E-cores of
 * Meteor Lake and Arrow Lake-U (the same core; their own Intel file,
 * meteorlake_crestmont_core.json) and the low-power E-cores of Arrow
 * Lake-H (arrowlake_crestmont_core.json, the mapfile's LowPower_Atom).
 * Perfmon version 5 and up, leaf 0x23 enumerating the counters
 * where present; 8 general-purpose counters and 3 fixed counters in
 * Intel's lists; MSR_OFFCORE_RSP_0 and _1 selected by 0xB7 umask 0x01 and
 * 0x02 (pmu-facts 9.1, 9.4).
 *
 * Owns: pmu_table_crestmont, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model: the server's remote events are
 * rows with needs = UARCH_F_REMOTE_EVENTS (cpu/uarch.c gives 06_AF the
 * flag).
 *
 * What it measures (pmu-facts 9.3-9.5):
 * - load latency MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N 0xD0/0x05 on PMC0-1,
 *   counting only with PEBS enabled, as on Gracemont (events/gracemont.c);
 * - HITM from the offcore response OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM
 *   (the SRF, GRR and MTL files have it, needs = UARCH_F_OCR_SNOOP; Grand
 *   Ridge has no retired-load HITM event; the ARL-H low-power file has no
 *   OCR event at all, its cores measure no snoop): read
 *   requests that missed the L2 the four cores of a module share, so the
 *   HITM of another module only (a modified line in the module's own
 *   cores is served behind the L2);
 * - a clean snoop hit on Meteor Lake's cores only: its file has
 *   OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD (0x4003C0001, Gracemont's
 *   value; needs = UARCH_F_OCR_SNOOP_HIT); the server files have no
 *   not-forwarded snoop-hit event (only SNOOP_HIT_WITH_FWD, clean lines
 *   another core forwarded), which is what lattop counts as a clean hit
 *   elsewhere;
 * - Sierra Forest's remote events MEM_LOAD_UOPS_L3_MISS_RETIRED.
 *   REMOTE_FWD_NONM 0xD3/0x04 (clean) and REMOTE_FWD_HITM 0xD3/0x08;
 * - no offcore occupancy event (no OFFCORE_REQUESTS_OUTSTANDING, no OCR
 *   ...OUTSTANDING in either file; the kernel's RSP_0 mask allows bit 63,
 *   whether it works is UNVERIFIED, pmu-facts 9.5): no offcore latency.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: SRF/events/sierraforest_core.json
 *          (V1.18), GRR/events/grandridge_core.json (V1.13),
 *          MTL/events/meteorlake_crestmont_core.json (V1.22, mapfile 06_AA,
 *          AC, B5 0x20,0x000002), ARL/events/arrowlake_crestmont_core.json
 *          (V1.20, 06_C5 0x20,0x000002 LowPower_Atom); Intel revised
 *          their load-latency counter lists in 2025 (PM-PR): these are the
 *          pinned versions' "0,1"
 *   K612   Linux 6.12 core.c (the crestmont case, intel_cmt_extra_regs),
 *          ds.c (INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3))
 * libpfm4 4.13 has no Crestmont PMU (pmu-facts 9.8): tests/test_events.c
 * checks every row against PM2's values, written into it (.json).
 */
#include <stddef.h>

#include "cpu/events.h"

#define CMT_ALL   0xFF  /* PMC0-7: PM2 "Counter 0,1,2,3,4,5,6,7" */
#define CMT_LDLAT 0x03  /* PMC0-1: PM2 "Counter 0,1"; K612 ds.c 0x5d0 -> 0x3 */

/* MSR_OFFCORE_RSP_x values (PM2 SRF, GRR, MTL MSRValue) */
#define CMT_DMND_DATA_RD_L3_HIT_SNOOP_HITM 0x10003C0001ull
#define CMT_DMND_DATA_RD_L3_HIT_SNOOP_HIT_NO_FWD 0x4003C0001ull

#define CMT_NO_CLEAN "Intel's Sierra Forest, Grand Ridge and Arrow Lake-H low-power " \
		     "Crestmont files have no event for a clean snoop hit the L3 served " \
		     "without a forward (only Meteor Lake's has one)"
#define CMT_NO_HITM "Intel's Arrow Lake-H low-power Crestmont file has no snoop event: " \
		    "no offcore response and no retired-load HITM"
#define CMT_NO_OUTSTANDING "Crestmont has no offcore occupancy event: no " \
			   "OFFCORE_REQUESTS_OUTSTANDING and no OCR ...OUTSTANDING in " \
			   "Intel's Crestmont files (Sierra Forest, Grand Ridge, Meteor and Arrow Lake)"

static const struct pmu_event crestmont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 SRF/GRR json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, CMT_ALL),
	  .source = "PM2 SRF/GRR json 0xC0/0x00, Counter 0-7" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 SRF/GRR json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, CMT_ALL),
	  .source = "PM2 SRF/GRR json 0x3C/0x00, Counter 0-7" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 SRF/GRR json 'Fixed counter 2'" },

	/* --- loads retired --- */
	{ .name = "MEM_UOPS_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, CMT_ALL),
	  .source = "PM2 SRF/GRR json 0xD0/0x81, Counter 0-7" },

	/* --- load latency: PMC0-1, PEBS_EN of its counter (see above) --- */
	{ .name = "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", .metric = M_LOAD_LATENCY,
	  GP(0xD0, 0x05, CMT_LDLAT), .ldlat = true,
	  .source = "PM2 SRF/GRR json 0xD0/0x05 MSRIndex 0x3F6, Counter 0,1, 'Only counts with "
		    "PEBS enabled'; K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3)" },

	/* --- HITM of other modules: the offcore response, RSP_1 first --- */
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", .metric = M_SNOOP_HITM,
	  GP(0xB7, 0x02, CMT_ALL), RSP(2, CMT_DMND_DATA_RD_L3_HIT_SNOOP_HITM),
	  .scope = SCOPE_OTHER_MODULE, .needs = UARCH_F_OCR_SNOOP,
	  .source = "PM2 SRF/GRR/MTL json 0xB7/0x02 MSR 0x1a7 MSRValue 0x10003C0001; "
		    "K612 intel_cmt_extra_regs" },
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM", .metric = M_SNOOP_HITM,
	  GP(0xB7, 0x01, CMT_ALL), RSP(1, CMT_DMND_DATA_RD_L3_HIT_SNOOP_HITM),
	  .scope = SCOPE_OTHER_MODULE, .needs = UARCH_F_OCR_SNOOP,
	  .source = "PM2 SRF/GRR/MTL json 0xB7/0x01 MSR 0x1a6 MSRValue 0x10003C0001; "
		    "K612 intel_cmt_extra_regs" },

	/* --- clean snoop hits of other modules: Meteor Lake's file only, RSP_0 first --- */
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x01, CMT_ALL), RSP(1, CMT_DMND_DATA_RD_L3_HIT_SNOOP_HIT_NO_FWD),
	  .scope = SCOPE_OTHER_MODULE, .needs = UARCH_F_OCR_SNOOP_HIT,
	  .source = "PM2 meteorlake_crestmont_core.json 0xB7/0x01 MSR 0x1a6 MSRValue 0x4003C0001; "
		    "K612 intel_cmt_extra_regs" },
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x02, CMT_ALL), RSP(2, CMT_DMND_DATA_RD_L3_HIT_SNOOP_HIT_NO_FWD),
	  .scope = SCOPE_OTHER_MODULE, .needs = UARCH_F_OCR_SNOOP_HIT,
	  .source = "PM2 meteorlake_crestmont_core.json 0xB7/0x02 MSR 0x1a7 MSRValue 0x4003C0001; "
		    "K612 intel_cmt_extra_regs" },

	/* --- other packages: Sierra Forest (two-socket servers) --- */
	{ .name = "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_NONM", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xD3, 0x04, CMT_ALL), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .source = "PM2 sierraforest_core.json 0xD3/0x04 'non-modified data was forwarded', Counter 0-7" },
	{ .name = "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xD3, 0x08, CMT_ALL), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .source = "PM2 sierraforest_core.json 0xD3/0x08 'modified data was forwarded', Counter 0-7" },

	{ .name = NULL },
};

#define CMT_NO_REMOTE "Grand Ridge and the hybrids are single-package parts, and their " \
		      "Crestmont files have no event for a load another package served"

const struct pmu_table pmu_table_crestmont = {
	.name = "crestmont",
	.events = crestmont_events,
	.unsupported = {
		[M_SNOOP_HIT]           = CMT_NO_CLEAN,
		[M_SNOOP_HITM]          = CMT_NO_HITM,
		[M_OFFCORE_READS]       = CMT_NO_OUTSTANDING,
		[M_OFFCORE_OUTSTANDING] = CMT_NO_OUTSTANDING,
		[M_SNOOP_REMOTE_HIT]    = CMT_NO_REMOTE,
		[M_SNOOP_REMOTE_HITM]   = CMT_NO_REMOTE,
	},
	.json = "SRF/events/sierraforest_core.json GRR/events/grandridge_core.json "
		"MTL/events/meteorlake_crestmont_core.json ARL/events/arrowlake_crestmont_core.json",
};
