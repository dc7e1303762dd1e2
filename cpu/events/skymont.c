/*
 * events/skymont.c: the event table of the Skymont E-core PMU: the E-cores
 * of Lunar Lake 06_BD and Arrow Lake-S/HX 06_C6 and Arrow Lake-H 06_C5
 * (PM2 mapfile rows 0x20,0x000003; Arrow Lake-H's low-power E-cores are
 * Crestmont, events/crestmont.c).  Leaf 0x23.1: 8 general-purpose counters
 * (GP 0xFF), fixed counters 0-2 and 4-6 (0x77: the last three topdown,
 * K612 intel_pmu_init_skt; none used here); perfmon version 6 on Lunar
 * Lake and Arrow Lake-S, 5 on Arrow Lake-H (pmu-facts 9.1).
 * MSR_OFFCORE_RSP_0 and _1 exist (PM2 OCR 0xB7 umask 0x01/0x02, MSR
 * 0x1a6/0x1a7; K612 intel_pmu_init_skt: intel_cmt_extra_regs), though no
 * row here reads them.
 *
 * Owns: pmu_table_skymont, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model: Arrow Lake's snoop row is one
 * with needs = UARCH_F_L3_SNOOP_HITM (cpu/uarch.c gives Arrow Lake's
 * Skymont the flag).
 *
 * What it measures (pmu-facts 9.3-9.5):
 * - load latency MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N 0xD0/0x05 on PMC0-1
 *   (PM2 Counter 0,1; K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3)
 *   through intel_pmu_init_grt), armed with its counter's PEBS_EN as on
 *   every E-core (the Skymont files omit Gracemont's "Only counts with
 *   PEBS enabled"; lattop sets PEBS_EN anyway, as the kernel does);
 * - HITM on Arrow Lake only: MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM
 *   0xD4/0x08, "retired load ops that hit in the L3 cache in which a snoop
 *   was required and modified data was forwarded" (PM2 ARL Skymont, any
 *   counter): loads that missed the L2 the cores of a module share, so the
 *   HITM of another module; Lunar Lake's Skymont file has no snoop event;
 * - no clean snoop hit: neither file has a retired-load or offcore-response
 *   event for a clean line another core held (pmu-facts 9.4);
 * - no offcore occupancy event (pmu-facts 9.5): no offcore latency.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: LNL/events/lunarlake_skymont_core.json
 *          (V1.26), ARL/events/arrowlake_skymont_core.json (V1.20)
 *   K612   Linux 6.12 core.c (intel_pmu_init_skt), ds.c
 * libpfm4 4.13 has no Skymont PMU (pmu-facts 9.8): tests/test_events.c
 * checks every row against PM2's values, written into it (.json).
 */
#include <stddef.h>

#include "cpu/events.h"

#define SKT_ALL   0xFF  /* PMC0-7: PM2 "Counter 0,1,2,3,4,5,6,7"; leaf 0x23.1 GP 0xFF */
#define SKT_LDLAT 0x03  /* PMC0-1: PM2 "Counter 0,1"; K612 ds.c 0x5d0 -> 0x3 */

#define SKT_NO_CLEAN "Intel's Skymont files (Lunar Lake, Arrow Lake) have no event for a " \
		     "clean line another core held: no retired-load and no offcore-response " \
		     "snoop-hit event"
#define SKT_NO_HITM "Intel's Lunar Lake Skymont file has no snoop event (Arrow Lake's has " \
		    "MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM)"
#define SKT_NO_OUTSTANDING "Skymont has no offcore occupancy event: no " \
			   "OFFCORE_REQUESTS_OUTSTANDING and no OCR ...OUTSTANDING in " \
			   "Intel's Skymont files (Lunar Lake, Arrow Lake)"
#define SKT_ONE_PACKAGE "Lunar Lake and Arrow Lake are single-package parts, and Skymont " \
			"has no event for a load another package served"

static const struct pmu_event skymont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 LNL/ARL Skymont json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, SKT_ALL),
	  .source = "PM2 LNL/ARL Skymont json 0xC0/0x00, Counter 0-7" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 LNL/ARL Skymont json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, SKT_ALL),
	  .source = "PM2 LNL/ARL Skymont json 0x3C/0x00, Counter 0-7" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 LNL/ARL Skymont json 'Fixed counter 2'" },

	/* --- loads retired --- */
	{ .name = "MEM_UOPS_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, SKT_ALL),
	  .source = "PM2 LNL/ARL Skymont json 0xD0/0x81, Counter 0-7" },

	/* --- load latency: PMC0-1, PEBS_EN of its counter (see above) --- */
	{ .name = "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", .metric = M_LOAD_LATENCY,
	  GP(0xD0, 0x05, SKT_LDLAT), .ldlat = true,
	  .source = "PM2 LNL/ARL Skymont json 0xD0/0x05 MSRIndex 0x3F6, Counter 0,1; "
		    "K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3)" },

	/* --- HITM of other modules: Arrow Lake's Skymont only --- */
	{ .name = "MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM", .metric = M_SNOOP_HITM,
	  GP(0xD4, 0x08, SKT_ALL), .scope = SCOPE_OTHER_MODULE, .needs = UARCH_F_L3_SNOOP_HITM,
	  .source = "PM2 arrowlake_skymont_core.json 0xD4/0x08 'a snoop was required and "
		    "modified data was forwarded', Counter 0-7" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_skymont = {
	.name = "skymont",
	.events = skymont_events,
	.unsupported = {
		[M_SNOOP_HIT]           = SKT_NO_CLEAN,
		[M_SNOOP_HITM]          = SKT_NO_HITM,
		[M_OFFCORE_READS]       = SKT_NO_OUTSTANDING,
		[M_OFFCORE_OUTSTANDING] = SKT_NO_OUTSTANDING,
		[M_SNOOP_REMOTE_HIT]    = SKT_ONE_PACKAGE,
		[M_SNOOP_REMOTE_HITM]   = SKT_ONE_PACKAGE,
	},
	.json = "LNL/events/lunarlake_skymont_core.json ARL/events/arrowlake_skymont_core.json",
};
