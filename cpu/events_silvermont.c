/*
 * events_silvermont.c: the event table of the Silvermont PMU family
 * (Silvermont and Airmont: 2 general-purpose counters, 3 fixed counters,
 * perfmon v3, two MSR_OFFCORE_RSP_x shared by the two cores of a module).
 *
 * Owns: pmu_table_silvermont, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   SDM16  Intel SDM Vol.3B, ~2016 edition, 18.6 (Silvermont)
 *   PM     intel/perfmon SLM/events/Silvermont_core.json, Silvermont_matrix.json
 *   K-pe   Linux arch/x86/include/asm/perf_event.h (fixed counters)
 *   K-core Linux arch/x86/events/intel/core.c (intel_slm_extra_regs)
 *   PFM    libpfm4 lib/events/intel_slm_events.h
 * Every programmable Silvermont event is listed with "Counter 0,1" (PM).
 * tests/test_events.c checks every row against libpfm4 (slm).
 */
#include <stddef.h>

#include "cpu/events.h"

/* MSR_OFFCORE_RSP_x bits (SDM16 Fig.18-18/19, Tables 18-15/16/17). */
#define SLM_DMND_DATA_RD      (1ull << 0)   /* request: demand (+DCU prefetch) data reads */
#define SLM_ANY_RESPONSE      (1ull << 16)
#define SLM_SNOOP_HIT         (1ull << 34)  /* hit in the other module, not modified */
#define SLM_HITM              (1ull << 36)  /* modified copy in another core's L1 */
#define SLM_OUTSTANDING       (1ull << 38)  /* AVG_LATENCY: weighted cycles, RSP_0 only */

#define SLM_NO_LDLAT "Silvermont and Airmont have no load-latency facility: their PEBS record " \
		     "has no latency or data-source fields (SDM Vol.3B Table 18-13)"

static const struct pmu_event silvermont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .source = "IA32_FIXED_CTR0 (K-pe); PM SLM json 'Fixed counter 1' (1-based)" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, 0x3),
	  .source = "PM Silvermont_core.json: 0xC0/0x00, Counter 0,1" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .source = "IA32_FIXED_CTR1 (K-pe); PM SLM json 'Fixed counter 2' (1-based)" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, 0x3),
	  .source = "PM Silvermont_core.json: 0x3C/0x00, Counter 0,1" },

	/*
	 * --- reference cycles: IA32_FIXED_CTR2 only; the programmable
	 * CPU_CLK_UNHALTED.REF (0x3C/0x01) does not count at the TSC rate.
	 */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .source = "IA32_FIXED_CTR2 (K-pe); PM SLM json 'Fixed counter 3' (1-based)" },

	/*
	 * --- snoop responses: demand data reads that missed L2 and were
	 * answered by a snoop hit / HITM.  RSP_0 is 0xB7/0x01 and RSP_1 is
	 * 0xB7/0x02 (SDM16 Table 18-14).  Snoop-hit tries RSP_0 first and HITM
	 * tries RSP_1 first, so both fit at once.  The json values carry no
	 * supplier bit; libpfm4 slm adds ANY_RESPONSE (bit 16) to them.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x01, 0x3), RSP(1, SLM_DMND_DATA_RD | SLM_SNOOP_HIT),
	  .source = "PM Silvermont_core.json MSRValue 0x0400000001; SDM16 Table 18-14/18-17" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x02, 0x3), RSP(2, SLM_DMND_DATA_RD | SLM_SNOOP_HIT),
	  .source = "PM Silvermont_core.json MSRValue 0x0400000001 (MSRIndex 0x1a7); SDM16 Table 18-14" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HITM_OTHER_CORE",
	  .metric = M_SNOOP_HITM, GP(0xB7, 0x02, 0x3), RSP(2, SLM_DMND_DATA_RD | SLM_HITM),
	  .source = "PM Silvermont_core.json MSRValue 0x1000000001 (MSRIndex 0x1a7); SDM16 Table 18-14" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HITM_OTHER_CORE",
	  .metric = M_SNOOP_HITM, GP(0xB7, 0x01, 0x3), RSP(1, SLM_DMND_DATA_RD | SLM_HITM),
	  .source = "PM Silvermont_core.json MSRValue 0x1000000001; SDM16 Table 18-14/18-17" },

	/*
	 * --- offcore latency (SDM16 18.6.3 "Average Offcore Request Latency
	 * Measurement"): RSP_1 = request type | ANY_RESPONSE counts requests,
	 * RSP_0 = the same request type | OUTSTANDING[38] (all other bits 0)
	 * counts weighted cycles; latency = the second over the first.
	 * OUTSTANDING exists in MSR_OFFCORE_RSP_0 only, so neither row has an
	 * alternative.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE", .metric = M_OFFCORE_READS,
	  GP(0xB7, 0x02, 0x3), RSP(2, SLM_DMND_DATA_RD | SLM_ANY_RESPONSE), .pair = 1,
	  .source = "SDM16 18.6.3; PM Silvermont_core.json DEMAND_DATA_RD.ANY_RESPONSE 0x0000010001" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.OUTSTANDING", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0xB7, 0x01, 0x3), RSP(1, SLM_DMND_DATA_RD | SLM_OUTSTANDING), .pair = 1,
	  .source = "SDM16 18.6.3, Table 18-17 bit 38 (RSP_0 only); PM SLM json 0x4000000001" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_silvermont = {
	.name = "silvermont",
	.events = silvermont_events,
	.unsupported = {
		[M_LOADS]        = SLM_NO_LDLAT,
		[M_LOAD_LATENCY] = SLM_NO_LDLAT,
	},
};
