/*
 * events/tremont.c: the event table of the Tremont PMU: Snow Ridge 06_86,
 * Elkhart Lake 06_96, Jasper Lake 06_9C.  Perfmon version 5: 4
 * general-purpose counters, 3 fixed counters, MSR_OFFCORE_RSP_0 and _1
 * selected by 0xB7 umask 0x01 and 0x02 (pmu-facts 9.1, 9.4, 9.5).
 *
 * Owns: pmu_table_tremont, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model.
 *
 * What it measures, as Goldmont does (events/goldmont.c), from its own
 * events:
 * - no load latency: Tremont has no load-latency facility (no event in
 *   Intel's files, no ldlat extra register in the kernel's Tremont case,
 *   pmu-facts 9.3), so no loads retired either, as on Goldmont;
 * - the clean snoop hit from the offcore response L3_HIT.SNOOP_HIT_NO_FWD
 *   (read requests; the snoop sees the other modules: the request missed
 *   the L2 the module's cores share), HITM from the retired-load event
 *   MEM_LOAD_UOPS_RETIRED.HITM 0xD1/0x20 ("another core or module");
 * - offcore latency the Goldmont way: MSR_OFFCORE_RSP_0 with the
 *   OUTSTANDING bit alone beside the request counts the cycles each read
 *   is outstanding, "XQ to XQ latency" (PM SNR, EHL), divided by the reads
 *   on RSP_1.  The bit moved from Goldmont's 38 to 63 (the json's
 *   0x8000000000000001; the kernel's RSP_0 mask 0x800ff0ffffff9fff has it,
 *   its RSP_1 mask 0xff0ffffff9fff not).  The reads: ANY_RESPONSE
 *   (0x10001).  Tremont's response field has no L2-hit supplier bit
 *   (L3_HIT is bits 18-21, where Goldmont's bit 18 was L2_HIT), so its
 *   responses are those of the requests that reached the XQ behind the
 *   L2; that this is every read the OUTSTANDING cycles cover is
 *   UNVERIFIED (pmu-facts 9.5, 9.10 item 4).
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: SNR/events/snowridgex_core.json (V1.23,
 *          06_86), EHL/events/elkhartlake_core.json (V1.05, 06_96 and 06_9C)
 *   K612   Linux 6.12 core.c (intel_tnt_extra_regs, the Tremont case)
 *   PFM413 libpfm4 4.13: PMU tmt (06_86, 06_96; not 06_9C)
 * tests/test_events.c checks the rows libpfm4 tmt knows against it (.pfm)
 * and every row against PM2's values, written into it (.json): tmt has no
 * HITM umask, no snoop-result umasks and no OUTSTANDING (pmu-facts 9.8).
 */
#include <stddef.h>

#include "cpu/events.h"

#define TNT_ALL  0x0F   /* PMC0-3: PM2 "Counter 0,1,2,3"; leaf 0xA 4 (pmu-facts 9.1) */

/* MSR_OFFCORE_RSP_x values (PM2 SNR, EHL MSRValue) */
#define TNT_DMND_DATA_RD_ANY_RESPONSE     0x10001ull
#define TNT_DMND_DATA_RD_SNOOP_HIT_NO_FWD 0x4003C0001ull
#define TNT_DMND_DATA_RD_OUTSTANDING      0x8000000000000001ull   /* RSP_0 only */

#define TNT_NO_LDLAT "Tremont has no load-latency facility: no load-latency event in " \
		     "Intel's Tremont files, no load-latency register in the kernel's " \
		     "Tremont support (as on Goldmont)"
#define TNT_ONE_PACKAGE "Snow Ridge, Elkhart Lake and Jasper Lake are single-package " \
			"parts, and Tremont has no event for a load another package served"

static const struct pmu_event tremont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 SNR/EHL json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, TNT_ALL),
	  .pfm = "INSTRUCTION_RETIRED",
	  .source = "PM2 SNR/EHL json 0xC0/0x00, Counter 0-3" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 SNR/EHL json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, TNT_ALL),
	  .pfm = "CPU_CLK_UNHALTED:CORE_P",
	  .source = "PM2 SNR/EHL json 0x3C/0x00, Counter 0-3" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 SNR/EHL json 'Fixed counter 2'" },

	/* --- snoops (see above): RSP_0 first, then RSP_1 --- */
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x01, TNT_ALL), RSP(1, TNT_DMND_DATA_RD_SNOOP_HIT_NO_FWD),
	  .scope = SCOPE_OTHER_MODULE,
	  .source = "PM2 SNR/EHL json 0xB7/0x01 MSR 0x1a6 MSRValue 0x4003C0001; K612 intel_tnt_extra_regs" },
	{ .name = "OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x02, TNT_ALL), RSP(2, TNT_DMND_DATA_RD_SNOOP_HIT_NO_FWD),
	  .scope = SCOPE_OTHER_MODULE,
	  .source = "PM2 SNR/EHL json 0xB7/0x02 MSR 0x1a7 MSRValue 0x4003C0001; K612 intel_tnt_extra_regs" },
	{ .name = "MEM_LOAD_UOPS_RETIRED.HITM", .metric = M_SNOOP_HITM, GP(0xD1, 0x20, TNT_ALL),
	  .scope = SCOPE_OTHER_CORE,
	  .source = "PM2 SNR/EHL json 0xD1/0x20, Counter 0-3; pmu-facts 9.4" },

	/*
	 * --- offcore latency = OUTSTANDING (RSP_0) / ANY_RESPONSE (RSP_1):
	 * the OUTSTANDING bit is valid in RSP_0 only, so neither row has an
	 * alternative.
	 */
	{ .name = "OCR.DEMAND_DATA_RD.ANY_RESPONSE", .metric = M_OFFCORE_READS,
	  GP(0xB7, 0x02, TNT_ALL), RSP(2, TNT_DMND_DATA_RD_ANY_RESPONSE), .pair = 1,
	  .pfm = "OFFCORE_RESPONSE_1:DEMAND_DATA_RD_ANY_RESPONSE",
	  .source = "PM2 SNR/EHL json OCR.DEMAND_DATA_RD.ANY_RESPONSE 0x10001, MSR 0x1a7" },
	{ .name = "OCR.DEMAND_DATA_RD.OUTSTANDING", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0xB7, 0x01, TNT_ALL), RSP(1, TNT_DMND_DATA_RD_OUTSTANDING), .pair = 1,
	  .source = "PM2 SNR/EHL json 0x8000000000000001, MSRIndex 0x1a6 only; K612 RSP_0 mask bit 63" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_tremont = {
	.name = "tremont",
	.events = tremont_events,
	.unsupported = {
		[M_LOADS]             = TNT_NO_LDLAT,
		[M_LOAD_LATENCY]      = TNT_NO_LDLAT,
		[M_SNOOP_REMOTE_HIT]  = TNT_ONE_PACKAGE,
		[M_SNOOP_REMOTE_HITM] = TNT_ONE_PACKAGE,
	},
	.pfm = { { "tmt", 0, 2 } },
	.json = "SNR/events/snowridgex_core.json EHL/events/elkhartlake_core.json",
};
