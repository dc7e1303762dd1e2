/*
 * events/goldmont.c: the event table of the Goldmont PMU family (Goldmont
 * and Goldmont Plus: 4 general-purpose counters, 3 fixed counters,
 * perfmon v4, MSR_OFFCORE_RSP_0 and _1).
 *
 * Owns: pmu_table_goldmont, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   SDM16  Intel SDM Vol.3B, ~2016 edition, 18.6.3 and 18.7 (Goldmont)
 *   PM     intel/perfmon GLM/events/goldmont_core.json, goldmont_matrix.json,
 *          GLP/events/goldmontplus_core.json, goldmontplus_matrix.json
 *   K-pe   Linux arch/x86/include/asm/perf_event.h (fixed counters)
 *   K-core Linux arch/x86/events/intel/core.c (intel_glm_extra_regs)
 *   PFM    libpfm4 lib/events/intel_glm_events.h
 * Each row names its libpfm4 spelling (.pfm) and any known difference
 * (.pfm_diff); tests/test_events.c encodes it with libpfm4 on the table's
 * PMUs (.pfm: glm).
 */
#include <stddef.h>

#include "cpu/events.h"

/* MSR_OFFCORE_RSP_x bits (SDM16 Table 18-21; PM GLM/GLP matrix; K-core GLM_*). */
#define GLM_DMND_DATA_RD      (1ull << 0)   /* request: demand cacheable data reads */
#define GLM_HIT_OTHER_CORE    (1ull << 34)  /* L2_MISS.HIT_OTHER_CORE_NO_FWD */
#define GLM_L2_MISS_ANY       0x3600000000ull  /* bits 33, 34, 36, 37: the L2 missed */
#define GLM_OUTSTANDING       (1ull << 38)  /* weighted cycles, RSP_0 only */

#define GLM_NO_LDLAT "Goldmont and Goldmont Plus have no load-latency facility: their PEBS " \
		     "does not support the Data Source Encoding or Latency Value fields " \
		     "(SDM Vol.3B 18.7.1.1)"

#define GLM_ONE_PACKAGE "Goldmont and Goldmont Plus are single-package parts: no other " \
			"package's cache can serve a read"

static const struct pmu_event goldmont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM GLM/GLP json 'Fixed counter 0' (0-based)" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, 0xF),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM goldmont_core.json, goldmontplus_core.json: 0xC0/0x00, Counter 0-3" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM GLM/GLP json 'Fixed counter 1' (0-based)" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, 0xF),
	  /* libpfm4 glm's CPU_CLK_UNHALTED:CORE_P encodes event 0x00: the architectural name */
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "PM goldmont_core.json, goldmontplus_core.json: 0x3C/0x00, Counter 0-3" },

	/*
	 * --- reference cycles: IA32_FIXED_CTR2 only; the programmable
	 * CPU_CLK_UNHALTED.REF (0x3C/0x01) does not count at the TSC rate.
	 */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM GLM/GLP json 'Fixed counter 2' (0-based)" },

	/*
	 * --- snoop responses.  As on Silvermont, the offcore-response snoop
	 * bits see the other modules only: the GLM json's MSRValue texts say
	 * "snoop hit in the other processor module" (pmu-facts 8.2).  Clean
	 * hits: OFFCORE_RESPONSE L2_MISS.HIT_OTHER_CORE_NO_FWD (bit 34).  RSP_0
	 * is 0xB7/0x01, RSP_1 is 0xB7/0x02.  The json values carry no supplier
	 * bit; libpfm4 glm adds ANY_RESPONSE (bit 16) to them.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x01, 0xF), RSP(1, GLM_DMND_DATA_RD | GLM_HIT_OTHER_CORE),
	  .scope = SCOPE_OTHER_MODULE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HIT_OTHER_CORE_NO_FWD",
	  .pfm_diff = { .pmu = "glm", .rsp = 0x0400010001ull,
			.why = PFM_WHY_ATOM_ANY_RESPONSE },
	  .source = "PM goldmont_core.json MSRValue 0x0400000001; K-core intel_glm_extra_regs" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x02, 0xF), RSP(2, GLM_DMND_DATA_RD | GLM_HIT_OTHER_CORE),
	  .scope = SCOPE_OTHER_MODULE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:L2_MISS_HIT_OTHER_CORE_NO_FWD",
	  .pfm_diff = { .pmu = "glm", .rsp = 0x0400010001ull,
			.why = PFM_WHY_ATOM_ANY_RESPONSE },
	  .source = "PM goldmont_core.json MSRValue 0x0400000001 (MSRIndex 0x1a7); K-core glm extra regs" },
	/*
	 * HITM: the retired-load event, which also sees the module partner:
	 * MEM_LOAD_UOPS_RETIRED.HITM, "memory uop retired where cross core or
	 * cross module HITM occurred" (PM GLM/GLP json; CollectPEBSRecord 2
	 * means PEBS is possible, counting works without it).  It counts
	 * retired load uops, not read requests.
	 */
	{ .name = "MEM_LOAD_UOPS_RETIRED.HITM", .metric = M_SNOOP_HITM, GP(0xD1, 0x20, 0xF),
	  .scope = SCOPE_OTHER_CORE,
	  .pfm = "MEM_LOAD_UOPS_RETIRED:HITM",
	  .source = "PM goldmont_core.json, goldmontplus_core.json 0xD1/0x20, Counter 0-3; pmu-facts 8.2" },
	/*
	 * --- offcore latency, the Silvermont scheme (SDM16 18.6.3; Goldmont
	 * inherits it, 18.7): RSP_0 = DEMAND_DATA_RD | OUTSTANDING[38] (every
	 * other bit 0) counts weighted cycles "from the time of the L2 miss"
	 * (PM GLM/GLP json), so RSP_1 counts the L2 misses, L2_MISS.ANY (the
	 * json's 0x3600000000: bits 33, 34, 36, 37), not ANY_RESPONSE, which
	 * includes L2 hits (pmu-facts 8.3; see events/silvermont.c).  Bit 38 is
	 * valid in RSP_0 only (kernel masks 0x760005ffbf / 0x360005ffbf), so
	 * neither row has an alternative.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.ANY", .metric = M_OFFCORE_READS,
	  GP(0xB7, 0x02, 0xF), RSP(2, GLM_DMND_DATA_RD | GLM_L2_MISS_ANY), .pair = 1,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:L2_MISS_SNP_ANY",
	  .pfm_diff = { .pmu = "glm", .rsp = 0x3600010001ull,
			.why = PFM_WHY_ATOM_ANY_RESPONSE },
	  .source = "PM goldmont_matrix.json L2_MISS.ANY 0x3600000000; GLM json OUTSTANDING text; SDM16 18.6.3" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.OUTSTANDING", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0xB7, 0x01, 0xF), RSP(1, GLM_DMND_DATA_RD | GLM_OUTSTANDING), .pair = 1,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING",
	  .source = "SDM16 18.6.3; PM GLM/GLP json 0x4000000001, MSRIndex 0x1a6 only" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_goldmont = {
	.name = "goldmont",
	.events = goldmont_events,
	.unsupported = {
		[M_LOADS]        = GLM_NO_LDLAT,
		[M_LOAD_LATENCY] = GLM_NO_LDLAT,
		[M_SNOOP_REMOTE_HIT]  = GLM_ONE_PACKAGE,
		[M_SNOOP_REMOTE_HITM] = GLM_ONE_PACKAGE,
	},
	.pfm = { { "glm", 0, 2 } },
};
