/*
 * events/nehalem.c: the event table of the Nehalem PMU family (Nehalem
 * and Westmere: 4 general-purpose counters, 3 fixed counters, perfmon v3).
 *
 * Owns: pmu_table_nehalem, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model: what differs between Nehalem and
 * Westmere is said by row flags (needs, offcore == 2) that the planner
 * matches against struct uarch.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   SDM09  Intel SDM Vol.3B, 2009 edition, chapter 18 (Nehalem sections)
 *   PM     intel/perfmon json: NHM-EP/events/NehalemEP_core.json,
 *          NHM-EX/events/NehalemEX_core.json, WSM-EP-SP/events/
 *          WestmereEP-SP_core.json, WSM-EP-DP/..., WSM-EX/...
 *   K-pe   Linux arch/x86/include/asm/perf_event.h (fixed counters)
 *   K-core Linux arch/x86/events/intel/core.c (constraints, extra regs)
 *   K-ds   Linux arch/x86/events/intel/ds.c (PEBS constraints)
 *   PFM    libpfm4 lib/events/intel_{nhm,wsm}_events.h
 * Each row names its libpfm4 spelling (.pfm) and any known difference
 * (.pfm_diff); tests/test_events.c encodes it with libpfm4 on the table's
 * PMUs (.pfm: nhm and wsm).
 */
#include <stddef.h>

#include "cpu/events.h"

/* MSR_OFFCORE_RSP_x bits (SDM09 Fig.18-28 / Table 18-24; K-core NHM_*). */
#define NHM_DMND_DATA_RD      0x0001ull  /* request: demand data reads */
#define NHM_OTHER_CORE_HIT    0x0200ull  /* response: L3 hit, clean hit in a sibling core */
#define NHM_OTHER_CORE_HITM   0x0400ull  /* response: L3 hit, HITM in a sibling core */
#define NHM_ANY_LOCATION      0xff00ull  /* response: every supplier bit 15:8 */
/*
 * Bit 11 is "reserved" in SDM09 Fig.18-28 and a kernel comment, but
 * REMOTE_CACHE_HITM in the perfmon json (DEMAND_DATA_RD.REMOTE_CACHE_HITM =
 * 0x801) and libpfm4 nhm/wsm; bit 12 is REMOTE_CACHE_FWD everywhere
 * (pmu-facts 5.1).  The json and libpfm4 are followed.
 */
#define NHM_REMOTE_CACHE_HITM 0x0800ull  /* response: HITM in another package's cache */
#define NHM_REMOTE_CACHE_FWD  0x1000ull  /* response: clean line forwarded by another package */

static const struct pmu_event nehalem_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM NHM/WSM json 'Fixed counter 1' (1-based)" },
	/* NHM/WSM json: umask 0x01; libpfm4 nhm encodes ANY_P as 0x00C0 (architectural form). */
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x01, 0xF),
	  .pfm = "INST_RETIRED:ANY_P",
	  .pfm_diff = { .pmu = "nhm", .evtsel = 0x4300c0,
			.why = "libpfm4 nhm encodes ANY_P with umask 0x00 (the architectural 0x00C0); "
			       "the NHM-EP json and libpfm4 wsm give umask 0x01" },
	  .source = "PM NehalemEP_core.json, WestmereEP-SP_core.json: 0xC0/0x01, Counter 0-3" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM NHM/WSM json 'Fixed counter 2' (1-based)" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, 0xF),
	  .pfm = "CPU_CLK_UNHALTED:THREAD_P",
	  .source = "PM NHM/WSM json: 0x3C/0x00, Counter 0-3; architectural core-cycles event" },

	/*
	 * --- reference cycles: IA32_FIXED_CTR2 only.  The programmable
	 * CPU_CLK_UNHALTED.REF_P (0x3C/0x01) does not count at the TSC rate,
	 * so it is no fallback.
	 */
	{ .name = "CPU_CLK_UNHALTED.REF", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM NHM/WSM json 'Fixed counter 3' (1-based)" },

	/* --- loads retired (the denominator of load latency) --- */
	{ .name = "MEM_INST_RETIRED.LOADS", .metric = M_LOADS, GP(0x0B, 0x01, 0xF),
	  .pfm = "MEM_INST_RETIRED:LOADS",
	  .source = "PM NHM/WSM json: 0x0B/0x01, Counter 0-3" },

	/*
	 * --- load latency (SDM Vol.3B 18.8.1.2 "Load Latency Performance Monitoring
	 * Facility": PERFEVTSEL[15:0] = 0x100B, CMASK and INV must be 0,
	 * PEBS_EN and LL_EN set, threshold in MSR_PEBS_LD_LAT_THRESHOLD).
	 * Counters: PMC3 only.  The perfmon json says Counter 3; the SDM ("one
	 * of the IA32_PERFEVTSELx"), the kernel's PEBS constraint
	 * INTEL_PLD_CONSTRAINT(0x100b, 0xf) and libpfm4 (cntmsk 0xf) allow
	 * PMC0-3 (pmu-facts 7, item 3).  We take the narrowest claim.
	 */
	{ .name = "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD", .metric = M_LOAD_LATENCY,
	  GP(0x0B, 0x10, 0x8), .ldlat = true,
	  .pfm = "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3",
	  .source = "SDM Vol.3B 18.8.1.2; PM NHM/WSM json 0x0B/0x10 Counter 3, PEBS=2; K-ds PLD 0x100b" },

	/*
	 * --- snoop responses: OFFCORE_RESPONSE for demand data reads served
	 * by the L3 with a clean hit / a HITM in a sibling core.  Nehalem has
	 * MSR_OFFCORE_RSP_0 only (0xB7/0x01); Westmere adds MSR_OFFCORE_RSP_1
	 * behind 0xBB/0x01.  Snoop-hit tries RSP_0 first and HITM tries RSP_1
	 * first, so the two share a slot where both MSRs exist.
	 * Counters 0-3: SDM09, kernel (no constraint) and libpfm4 (0xf) agree;
	 * the NHM json's "Counter 2" for these looks like a data artifact.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT_OTHER_CORE_HIT", .metric = M_SNOOP_HIT,
	  GP(0xB7, 0x01, 0xF), RSP(1, NHM_DMND_DATA_RD | NHM_OTHER_CORE_HIT), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HIT_SNP",
	  .source = "PM NHM/WSM json MSRValue 0x201; SDM09 Table 18-24 bits 0, 9; K-core intel_nehalem_extra_regs" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT_OTHER_CORE_HIT", .metric = M_SNOOP_HIT,
	  GP(0xBB, 0x01, 0xF), RSP(2, NHM_DMND_DATA_RD | NHM_OTHER_CORE_HIT), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HIT_SNP",
	  .source = "PM WSM json 0xBB MSRIndex 0x1a7 MSRValue 0x201; K-core intel_westmere_extra_regs" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT_OTHER_CORE_HITM", .metric = M_SNOOP_HITM,
	  GP(0xBB, 0x01, 0xF), RSP(2, NHM_DMND_DATA_RD | NHM_OTHER_CORE_HITM), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HITM",
	  .source = "PM WSM json 0xBB MSRIndex 0x1a7 MSRValue 0x401; K-core intel_westmere_extra_regs" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT_OTHER_CORE_HITM", .metric = M_SNOOP_HITM,
	  GP(0xB7, 0x01, 0xF), RSP(1, NHM_DMND_DATA_RD | NHM_OTHER_CORE_HITM), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HITM",
	  .source = "PM NHM/WSM json MSRValue 0x401; SDM09 Table 18-24 bits 0, 10; K-core intel_nehalem_extra_regs" },

	/*
	 * --- other packages (pmu-facts 8.8): demand data reads served by a
	 * modified / a clean forwarded line in another package's cache, the
	 * remote-cache response bits of the same OFFCORE_RESPONSE.  They count
	 * on every model; the planner asks for them only where the machine has
	 * two or more packages (Nehalem-EP/EX, Westmere-EP/EX).
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.REMOTE_CACHE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xB7, 0x01, 0xF), RSP(1, NHM_DMND_DATA_RD | NHM_REMOTE_CACHE_FWD),
	  .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_FWD",
	  .source = "PM NHM-EP/WSM json MSRValue 0x1001; SDM09 Table 18-24 bit 12; PFM REMOTE_CACHE_FWD" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.REMOTE_CACHE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xBB, 0x01, 0xF), RSP(2, NHM_DMND_DATA_RD | NHM_REMOTE_CACHE_FWD),
	  .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:REMOTE_CACHE_FWD",
	  .source = "PM WSM json 0xBB MSRIndex 0x1a7 MSRValue 0x1001" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.REMOTE_CACHE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xBB, 0x01, 0xF), RSP(2, NHM_DMND_DATA_RD | NHM_REMOTE_CACHE_HITM),
	  .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:REMOTE_CACHE_HITM",
	  .source = "PM WSM json 0xBB MSRIndex 0x1a7 MSRValue 0x801" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.REMOTE_CACHE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xB7, 0x01, 0xF), RSP(1, NHM_DMND_DATA_RD | NHM_REMOTE_CACHE_HITM),
	  .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_HITM",
	  .source = "PM NHM-EP/WSM json MSRValue 0x801 (bit 11: reserved in SDM09); PFM REMOTE_CACHE_HITM" },

	/*
	 * --- offcore latency = OUTSTANDING / REQUESTS (Westmere only).
	 * OFFCORE_REQUESTS_OUTSTANDING (0x60) runs on PMC0 only (PM WSM json
	 * Counter 0; K-core intel_westmere_event_constraints 0x60 -> 0x1;
	 * libpfm4 cntmsk 0x1).  Neither event is documented for Nehalem
	 * (pmu-facts 4.4, 7 item 1), hence needs = UARCH_F_OFFCORE_QUEUE.
	 */
	{ .name = "OFFCORE_REQUESTS.DEMAND.READ_DATA", .metric = M_OFFCORE_READS,
	  GP(0xB0, 0x01, 0xF), .pair = 1, .needs = UARCH_F_OFFCORE_QUEUE,
	  .pfm = "OFFCORE_REQUESTS:DEMAND_READ_DATA",
	  .source = "PM WSM json 0xB0/0x01, Counter 0-3" },
	/* Nehalem: a count of demand data reads that leave the core, without a latency. */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_LOCATION", .metric = M_OFFCORE_READS,
	  GP(0xB7, 0x01, 0xF), RSP(1, NHM_DMND_DATA_RD | NHM_ANY_LOCATION),
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE",
	  .source = "PM NHM/WSM json MSRValue 0xFF01 (bit 11: reserved in SDM09, REMOTE_CACHE_HITM in PM/PFM)" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND.READ_DATA", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x60, 0x01, 0x1), .pair = 1, .needs = UARCH_F_OFFCORE_QUEUE,
	  .pfm = "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_READ_DATA",
	  .source = "PM WSM json 0x60/0x01 Counter 0; K-core westmere constraint 0x60 PMC0" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_nehalem = {
	.name = "nehalem",
	.events = nehalem_events,
	.unsupported = {
		[M_OFFCORE_OUTSTANDING] = "Nehalem has no per-core offcore occupancy event: "
					  "OFFCORE_REQUESTS_OUTSTANDING arrives with Westmere",
	},
	.pfm = { { "nhm", 0, 1 }, { "wsm", UARCH_F_OFFCORE_QUEUE, 2 } },
};
