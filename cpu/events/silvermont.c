/*
 * events/silvermont.c: the event table of the Silvermont PMU family
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
 * Each row names its libpfm4 spelling (.pfm) and any known difference
 * (.pfm_diff); tests/test_events.c encodes it with libpfm4 on the table's
 * PMUs (.pfm: slm).
 */
#include <stddef.h>

#include "cpu/events.h"

/* MSR_OFFCORE_RSP_x bits (SDM16 Fig.18-18/19, Tables 18-15/16/17). */
#define SLM_DMND_DATA_RD      (1ull << 0)   /* request: demand (+DCU prefetch) data reads */
#define SLM_SNOOP_HIT         (1ull << 34)  /* hit in the other module, not modified */
#define SLM_L2_MISS_ANY       0x1680000000ull  /* snoop bits 31, 33, 34, 36: the L2 missed */
#define SLM_OUTSTANDING       (1ull << 38)  /* AVG_LATENCY: weighted cycles, RSP_0 only */

#define SLM_NO_LDLAT "Silvermont and Airmont have no load-latency facility: their PEBS record " \
		     "has no latency or data-source fields (SDM Vol.3B Table 18-13)"

#define SLM_ONE_PACKAGE "Silvermont and Airmont are single-package parts: no other package's " \
			"cache can serve a read"

static const struct pmu_event silvermont_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM SLM json 'Fixed counter 1' (1-based)" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, 0x3),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM Silvermont_core.json: 0xC0/0x00, Counter 0,1" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.CORE", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM SLM json 'Fixed counter 2' (1-based)" },
	{ .name = "CPU_CLK_UNHALTED.CORE_P", .metric = M_CYCLES, GP(0x3C, 0x00, 0x3),
	  .pfm = "CPU_CLK_UNHALTED:CORE_P",
	  .source = "PM Silvermont_core.json: 0x3C/0x00, Counter 0,1" },

	/*
	 * --- reference cycles: IA32_FIXED_CTR2 only; the programmable
	 * CPU_CLK_UNHALTED.REF (0x3C/0x01) does not count at the TSC rate.
	 */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM SLM json 'Fixed counter 3' (1-based)" },

	/*
	 * --- snoop responses.  The offcore-response snoop bits describe
	 * snoops "in the other module" (SDM16 Table 18-17, seed 001): a line
	 * held by the partner core of the same module, behind the shared L2,
	 * answers as an L2 hit there and never as a snoop (pmu-facts 8.2).
	 * Clean hits: OFFCORE_RESPONSE SNOOP_HIT (bit 34), other modules only.
	 * RSP_0 is 0xB7/0x01 and RSP_1 is 0xB7/0x02 (SDM16 Table 18-14).  The
	 * json values carry no supplier bit; libpfm4 slm adds ANY_RESPONSE
	 * (bit 16) to them.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x01, 0x3), RSP(1, SLM_DMND_DATA_RD | SLM_SNOOP_HIT),
	  .scope = SCOPE_OTHER_MODULE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_HIT",
	  .pfm_diff = { .pmu = "slm", .rsp = 0x0400010001ull,
			.why = PFM_WHY_ATOM_ANY_RESPONSE },
	  .source = "PM Silvermont_core.json MSRValue 0x0400000001; SDM16 Table 18-14/18-17" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x02, 0x3), RSP(2, SLM_DMND_DATA_RD | SLM_SNOOP_HIT),
	  .scope = SCOPE_OTHER_MODULE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_HIT",
	  .pfm_diff = { .pmu = "slm", .rsp = 0x0400010001ull,
			.why = PFM_WHY_ATOM_ANY_RESPONSE },
	  .source = "PM Silvermont_core.json MSRValue 0x0400000001 (MSRIndex 0x1a7); SDM16 Table 18-14" },
	/*
	 * HITM: the retired-load event, which sees the module partner too:
	 * MEM_UOPS_RETIRED.HITM, "load ops retired that got data from the other
	 * core or from the other module" (PM SLM json; a PEBS event in SDM16
	 * Table 18-12).  It counts retired load uops, not read requests.
	 */
	{ .name = "MEM_UOPS_RETIRED.HITM", .metric = M_SNOOP_HITM, GP(0x04, 0x20, 0x3),
	  .scope = SCOPE_OTHER_CORE,
	  .pfm = "MEM_UOP_RETIRED:HITM",
	  .source = "PM Silvermont_core.json 0x04/0x20, Counter 0,1; SDM16 Table 18-12; pmu-facts 8.2" },
	/*
	 * --- offcore latency (SDM16 18.6.3 "Average Offcore Request Latency
	 * Measurement"): RSP_0 = request type | OUTSTANDING[38] (all other bits
	 * 0) counts weighted cycles; RSP_1 counts the requests.  The weighted
	 * cycles run "from the time of the L2 miss to when any response is
	 * received" (PM Silvermont_matrix.json OUTSTANDING), while ANY_RESPONSE,
	 * which 18.6.3 pairs with it, also counts reads the L2 answered
	 * (L2_HIT, bit 18, is one of its responses: pmu-facts 8.3).  Dividing
	 * by it would spread the misses' cycles over the hits.  So RSP_1 counts
	 * the L2 misses, L2_MISS.ANY (the json's 0x1680000000: snoop bits 31,
	 * 33, 34, 36), and the latency is that of a demand read that leaves the
	 * module.  OUTSTANDING exists in MSR_OFFCORE_RSP_0 only, so neither row
	 * has an alternative.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L2_MISS.ANY", .metric = M_OFFCORE_READS,
	  GP(0xB7, 0x02, 0x3), RSP(2, SLM_DMND_DATA_RD | SLM_L2_MISS_ANY), .pair = 1,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_NONE:SNP_MISS:SNP_HIT:SNP_HITM",
	  .pfm_diff = { .pmu = "slm", .rsp = 0x1680010001ull,
			.why = PFM_WHY_ATOM_ANY_RESPONSE },
	  .source = "PM Silvermont_matrix.json L2_MISS.ANY 0x1680000000, OUTSTANDING; SDM16 18.6.3" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.OUTSTANDING", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0xB7, 0x01, 0x3), RSP(1, SLM_DMND_DATA_RD | SLM_OUTSTANDING), .pair = 1,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE",
	  .pfm_diff = { .pmu = "slm", .rsp = 0x10001,
			.why = "libpfm4 slm has no OUTSTANDING (bit 38) umask: the RSP_0 value is checked "
			       "against glm's, the same bit layout (SDM 18.6.3, Table 18-17)",
			.rsp_pmu = "glm", .rsp_pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING" },
	  .source = "SDM16 18.6.3, Table 18-17 bit 38 (RSP_0 only); PM SLM json 0x4000000001" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_silvermont = {
	.name = "silvermont",
	.events = silvermont_events,
	.unsupported = {
		[M_LOADS]        = SLM_NO_LDLAT,
		[M_LOAD_LATENCY] = SLM_NO_LDLAT,
		[M_SNOOP_REMOTE_HIT]  = SLM_ONE_PACKAGE,
		[M_SNOOP_REMOTE_HITM] = SLM_ONE_PACKAGE,
	},
	.pfm = { { "slm", 0, 2 } },
};
