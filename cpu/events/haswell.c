/*
 * events/haswell.c: the event table of the Haswell PMU family (Haswell,
 * Haswell-EP, and Broadwell as its neighbour: 4 general-purpose counters
 * per thread with HT on, 3 fixed counters, perfmon v3, MSR_OFFCORE_RSP_0
 * and _1 per thread).
 *
 * Owns: pmu_table_haswell, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model.  Rows use PMC0-3 only: PMC4-7
 * exist only with HT off and are not PEBS-capable.
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   SDM16  Intel SDM Vol.3B, ~2016 edition, 18.11 (Haswell), 18.9 (SNB base)
 *   PM     intel/perfmon HSW/events/haswell_core.json, haswell_matrix.json,
 *          HSX/events/haswellx_core.json, haswellx_matrix.json
 *   K-pe   Linux arch/x86/include/asm/perf_event.h (fixed counters)
 *   K-core Linux arch/x86/events/intel/core.c (intel_hsw_event_constraints)
 *   K-ds   Linux arch/x86/events/intel/ds.c (intel_hsw_pebs_event_constraints)
 *   PFM    libpfm4 lib/events/intel_hsw_events.h (and bdw)
 * Each row names its libpfm4 spelling (.pfm) and any known difference
 * (.pfm_diff); tests/test_events.c encodes it with libpfm4 on the table's
 * PMUs (.pfm: hsw and bdw).
 */
#include <stddef.h>

#include "cpu/events.h"

/* MSR_OFFCORE_RSP_x bits (SDM16 18.11.4; PM HSW matrix; K-core HSW_*). */
#define HSW_DMND_DATA_RD      (1ull << 0)   /* request: demand data reads */
#define HSW_L3_HIT            0x3C0000ull   /* supplier: L3_HITM|HITE|HITS|HITF, bits 21:18 */
#define HSW_SNOOP_HIT_NO_FWD  (1ull << 34)
#define HSW_SNOOP_HITM        (1ull << 36)

#define HSW_PFM_NOHITF "libpfm4 hsw L3_HIT is bits 18-20 (no L3_HITF, bit 21); the HSW " \
		       "json and libpfm4 bdw use 0x3C0000"

static const struct pmu_event haswell_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM HSW/HSX json 'Fixed counter 0' (0-based)" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, 0xF),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM haswell_core.json: 0xC0/0x00, Counter 0-3 (errata HSD11, HSD140)" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM HSW/HSX json 'Fixed counter 1' (0-based)" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, 0xF),
	  .pfm = "CPU_CLK_UNHALTED:THREAD_P",
	  .source = "PM haswell_core.json: 0x3C/0x00, Counter 0-3" },

	/*
	 * --- reference cycles: IA32_FIXED_CTR2 only; the programmable
	 * CPU_CLK_UNHALTED.REF_XCLK (0x3C/0x01) counts at 100 MHz (libpfm4 hsw),
	 * not at the TSC rate.
	 */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM HSW/HSX json 'Fixed counter 2' (0-based)" },

	/*
	 * --- loads retired.  Erratum HSD29 (also SNB BJ122, IVB BV98): with
	 * HT on, MEM_UOPS_RETIRED (0xD0), like 0xD1-0xD3, miscounts unless the
	 * same counter on the sibling thread is idle; the kernel's
	 * intel_ht_bug gives these events an exclusive constraint on PMC0-3
	 * (INTEL_EXCLEVT_CONSTRAINT).  ht_excl: the planner leaves the
	 * sibling's counter idle while it runs (uarch UARCH_F_HT_EXCL).
	 */
	{ .name = "MEM_UOPS_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, 0xF),
	  .ht_excl = true,
	  .pfm = "MEM_UOPS_RETIRED:ALL_LOADS",
	  .source = "PM haswell_core.json 0xD0/0x81, Counter 0-3; K-core INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf)" },

	/*
	 * --- load latency (SDM16 Table 18-43): MEM_TRANS_RETIRED.LOAD_LATENCY
	 * with PEBS_EN+LL_EN and MSR_PEBS_LD_LAT_THRESHOLD; CMASK, INV, Edge
	 * and AnyThread must be 0 for PEBS.  Counters: PMC3 only.  The perfmon
	 * json says Counter 3 (TakenAlone=1) and the kernel's non-PEBS
	 * constraint is INTEL_EVENT_CONSTRAINT(0xcd, 0x8); the SDM and the
	 * kernel's PEBS constraint INTEL_PLD_CONSTRAINT(0x01cd, 0xf) allow
	 * PMC0-3 (pmu-facts 7, item 3).  We take the narrowest claim.
	 */
	{ .name = "MEM_TRANS_RETIRED.LOAD_LATENCY", .metric = M_LOAD_LATENCY,
	  GP(0xCD, 0x01, 0x8), .ldlat = true,
	  .pfm = "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3",
	  .source = "PM haswell_core.json 0xCD/0x01 Counter 3, PEBS=2; K-core 0xcd -> 0x8; K-ds PLD 0x01cd" },

	/*
	 * --- snoop responses: demand data reads served by the L3 with a
	 * clean snoop hit / HITM in another core.  RSP_0 is 0xB7/0x01, RSP_1
	 * is 0xBB/0x01.  Snoop-hit tries RSP_0 first and HITM tries RSP_1
	 * first, so both fit at once.  L3_HIT is the json's 0x3C0000 (bits
	 * 18-21); libpfm4 hsw's L3_HIT lacks bit 21 (L3_HITF), bdw's has it.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x01, 0xF),
	  RSP(1, HSW_DMND_DATA_RD | HSW_L3_HIT | HSW_SNOOP_HIT_NO_FWD), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NO_FWD",
	  .pfm_diff = { .pmu = "hsw", .rsp = 0x4001C0001ull,
			.why = HSW_PFM_NOHITF },
	  .source = "PM haswell_core.json MSRValue 0x4003C0001; SDM16 18.11.4" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xBB, 0x01, 0xF),
	  RSP(2, HSW_DMND_DATA_RD | HSW_L3_HIT | HSW_SNOOP_HIT_NO_FWD), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_NO_FWD",
	  .pfm_diff = { .pmu = "hsw", .rsp = 0x4001C0001ull,
			.why = HSW_PFM_NOHITF },
	  .source = "PM haswell_core.json 0xBB MSRIndex 0x1a7 MSRValue 0x4003C0001" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HITM_OTHER_CORE",
	  .metric = M_SNOOP_HITM, GP(0xBB, 0x01, 0xF),
	  RSP(2, HSW_DMND_DATA_RD | HSW_L3_HIT | HSW_SNOOP_HITM), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM",
	  .pfm_diff = { .pmu = "hsw", .rsp = 0x10001C0001ull,
			.why = HSW_PFM_NOHITF },
	  .source = "PM haswell_core.json 0xBB MSRIndex 0x1a7 MSRValue 0x10003C0001" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.HITM_OTHER_CORE",
	  .metric = M_SNOOP_HITM, GP(0xB7, 0x01, 0xF),
	  RSP(1, HSW_DMND_DATA_RD | HSW_L3_HIT | HSW_SNOOP_HITM), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM",
	  .pfm_diff = { .pmu = "hsw", .rsp = 0x10001C0001ull,
			.why = HSW_PFM_NOHITF },
	  .source = "PM haswell_core.json MSRValue 0x10003C0001; SDM16 18.11.4" },

	/*
	 * --- other packages (pmu-facts 8.8): loads retired whose data came
	 * from a modified / a clean forwarded line in another package's cache.
	 * The server parts' json only (HSX, BDX: MEM_LOAD_UOPS_L3_MISS_RETIRED
	 * REMOTE_HITM 0x10, REMOTE_FWD 0x20); the client json has LOCAL_DRAM
	 * alone, hence needs = UARCH_F_REMOTE_EVENTS (a model-table flag).
	 * 0xD3 is one of the events erratum HSD29 covers (see loads above):
	 * ht_excl.
	 */
	{ .name = "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xD3, 0x20, 0xF), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .ht_excl = true,
	  .pfm = "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_FWD",
	  .source = "PM haswellx_core.json, BDX json 0xD3/0x20, Counter 0-3; K-core INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf)" },
	{ .name = "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xD3, 0x10, 0xF), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .ht_excl = true,
	  .pfm = "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_HITM",
	  .source = "PM haswellx_core.json, BDX json 0xD3/0x10, Counter 0-3; K-core INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf)" },

	/*
	 * --- offcore latency = OUTSTANDING / REQUESTS for demand data reads
	 * (errata HSD78, HSD62, HSD61 on 0x60 and HSD78 on 0xB0 per the json;
	 * texts not retrieved).
	 */
	{ .name = "OFFCORE_REQUESTS.DEMAND_DATA_RD", .metric = M_OFFCORE_READS,
	  GP(0xB0, 0x01, 0xF), .pair = 1,
	  .ht_caveat = PMU_CAVEAT_OFFCORE_HT,
	  .pfm = "OFFCORE_REQUESTS:DEMAND_DATA_RD",
	  .source = "PM haswell_core.json 0xB0/0x01, Counter 0-3" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x60, 0x01, 0xF), .pair = 1,
	  .ht_caveat = PMU_CAVEAT_OFFCORE_HT,
	  .pfm = "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD",
	  .source = "PM haswell_core.json 0x60/0x01 cmask 0, Counter 0-3" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_haswell = {
	.name = "haswell",
	.events = haswell_events,
	.unsupported = {
		[M_SNOOP_REMOTE_HIT]  = "the client parts have one package, and no event for loads "
					"another package served (MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_* "
					"is in the server parts' event lists only)",
		[M_SNOOP_REMOTE_HITM] = "the client parts have one package, and no event for loads "
					"another package served (MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_* "
					"is in the server parts' event lists only)",
	},
	.pfm = { { "hsw", 0, 2 }, { "bdw", 0, 2 }, { "hsw_ep", UARCH_F_REMOTE_EVENTS, 2 } },
};
