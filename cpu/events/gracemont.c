/*
 * events/gracemont.c: the event table of the Gracemont E-core PMU: Alder
 * Lake-N 06_BE (Gracemont only), and the E-cores of the Alder Lake and
 * Raptor Lake hybrids (the same core and the same Intel file, PM2 mapfile
 * rows 0x20,0x000001).  Perfmon version 5: 6 general-purpose counters, 3
 * fixed counters, MSR_OFFCORE_RSP_0 and _1 selected by 0xB7 umask 0x01 and
 * 0x02 (pmu-facts 9.1, 9.4).
 *
 * Owns: pmu_table_gracemont, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model: a hybrid part names this table
 * for its Atom CPUs beside its P-core table.  Version 5 (no LL_EN bits,
 * load latency armed by its event, PEBS_EN and MSR_PEBS_LD_LAT_THRESHOLD)
 * is cpu/pmu.c's, keyed on the version, as for Ice Lake (events/icelake.c).
 *
 * What differs from the P-cores (pmu-facts 9.3-9.5):
 * - load latency is MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N 0xD0/0x05 on PMC0-1
 *   only (PM2 "Counter 0,1"; K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0,
 *   0x3)), and it "Only counts with PEBS enabled": the PEBS_EN bit of its
 *   counter, as lattop arms every version 5 load-latency row.  It counts
 *   *tagged* load uops above the threshold, a sample of the loads, as the
 *   older Atoms' and Intel's P-cores' "randomly selected loads" do;
 * - HITM is the retired-load event MEM_LOAD_UOPS_RETIRED.HITM 0xD1/0x20,
 *   "modified data was forwarded from another core or module";
 * - a clean snoop hit has no retired-load event: the offcore response
 *   OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD counts read requests;
 * - no offcore occupancy event: no OFFCORE_REQUESTS_OUTSTANDING and no OCR
 *   ...OUTSTANDING in the file, so no offcore latency.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: ADL/events/alderlake_gracemont_core.json
 *          (V1.40; mapfile: 06_BE core, and 06_97/9A/B7/BA/BF core type 0x20)
 *   K612   Linux 6.12 core.c (intel_grt_extra_regs: 0x01b7/0x02b7 mask
 *          0x3fffffffff), ds.c (intel_grt_pebs_event_constraints)
 * libpfm4 4.13 has no Gracemont PMU (pmu-facts 9.8): tests/test_events.c
 * checks every row against PM2's values, written into it (.json).
 */
#include <stddef.h>

#include "cpu/events.h"

#define GRT_ALL   0x3F  /* PMC0-5: PM2 "Counter 0,1,2,3,4,5"; leaf 0xA 6 (pmu-facts 9.1) */
#define GRT_LDLAT 0x03  /* PMC0-1: PM2 "Counter 0,1"; K612 ds.c 0x5d0 -> 0x3 */

/* MSR_OFFCORE_RSP_x values (PM2 alderlake_gracemont_core.json MSRValue) */
#define GRT_DMND_DATA_RD_L3_HIT_SNOOP_HIT_NO_FWD 0x4003C0001ull

#define GRT_ONE_PACKAGE "Alder Lake-N and the Alder and Raptor Lake hybrids are " \
			"single-package parts, and Gracemont has no event for a load " \
			"another package served"
#define GRT_NO_OUTSTANDING "Gracemont has no offcore occupancy event: no " \
			   "OFFCORE_REQUESTS_OUTSTANDING and no OCR ...OUTSTANDING in " \
			   "Intel's alderlake_gracemont_core.json"

static const struct pmu_event gracemont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 alderlake_gracemont_core.json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, GRT_ALL),
	  .source = "PM2 alderlake_gracemont_core.json 0xC0/0x00, Counter 0-5" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 alderlake_gracemont_core.json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, GRT_ALL),
	  .source = "PM2 alderlake_gracemont_core.json 0x3C/0x00, Counter 0-5" },

	/* --- reference cycles: IA32_FIXED_CTR2 only, as on the other tables --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 alderlake_gracemont_core.json 'Fixed counter 2'" },

	/* --- loads retired --- */
	{ .name = "MEM_UOPS_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, GRT_ALL),
	  .source = "PM2 alderlake_gracemont_core.json 0xD0/0x81, Counter 0-5" },

	/*
	 * --- load latency: MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N (one json event
	 * per threshold, all 0xD0/0x05, MSRIndex 0x3F6), PMC0-1 only, counting
	 * only with its counter's PEBS_EN set (PM2 text).
	 */
	{ .name = "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", .metric = M_LOAD_LATENCY,
	  GP(0xD0, 0x05, GRT_LDLAT), .ldlat = true,
	  .source = "PM2 alderlake_gracemont_core.json 0xD0/0x05 MSRIndex 0x3F6, Counter 0,1, "
		    "'Only counts with PEBS enabled'; K612 ds.c INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3)" },

	/*
	 * --- snoops.  Clean: the offcore response, on RSP_0 (0xB7/0x01) or
	 * RSP_1 (0xB7/0x02), a read the L3 served after a snoop that hit
	 * without forwarding.  The request missed the L2, which the cores of a
	 * module share: the snoop sees the other modules (pmu-facts 8.2, as on
	 * the older Atoms).  HITM: the retired-load event, which names the
	 * other core or module.
	 */
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x01, GRT_ALL), RSP(1, GRT_DMND_DATA_RD_L3_HIT_SNOOP_HIT_NO_FWD),
	  .scope = SCOPE_OTHER_MODULE,
	  .source = "PM2 alderlake_gracemont_core.json 0xB7/0x01 MSR 0x1a6 MSRValue 0x4003C0001; "
		    "K612 intel_grt_extra_regs" },
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x02, GRT_ALL), RSP(2, GRT_DMND_DATA_RD_L3_HIT_SNOOP_HIT_NO_FWD),
	  .scope = SCOPE_OTHER_MODULE,
	  .source = "PM2 alderlake_gracemont_core.json 0xB7/0x02 MSR 0x1a7 MSRValue 0x4003C0001; "
		    "K612 intel_grt_extra_regs" },
	{ .name = "MEM_LOAD_UOPS_RETIRED.HITM", .metric = M_SNOOP_HITM, GP(0xD1, 0x20, GRT_ALL),
	  .scope = SCOPE_OTHER_CORE,
	  .source = "PM2 alderlake_gracemont_core.json 0xD1/0x20, Counter 0-5; pmu-facts 9.4" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_gracemont = {
	.name = "gracemont",
	.events = gracemont_events,
	.unsupported = {
		[M_OFFCORE_READS]       = GRT_NO_OUTSTANDING,
		[M_OFFCORE_OUTSTANDING] = GRT_NO_OUTSTANDING,
		[M_SNOOP_REMOTE_HIT]    = GRT_ONE_PACKAGE,
		[M_SNOOP_REMOTE_HITM]   = GRT_ONE_PACKAGE,
	},
	.json = "ADL/events/alderlake_gracemont_core.json",
};
