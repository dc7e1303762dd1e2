/*
 * events/sandybridge.c: the event table of the Sandy Bridge PMU family
 * (Sandy Bridge, Sandy Bridge-EP, Ivy Bridge, Ivy Bridge-EP: 4
 * general-purpose counters per thread with HT on, 8 with HT off, 3 fixed
 * counters, perfmon v3, MSR_OFFCORE_RSP_0 and _1 per thread).
 *
 * Owns: pmu_table_sandybridge, static const data only.  It must not touch
 * a device, read CPUID, or name a CPU model: what differs between the
 * models is said by row flags (needs) that the planner matches against
 * struct uarch and the model table.  Rows use PMC0-3 only: PMC4-7 exist
 * only with HT off and take no PEBS (K-ds intel_snb/ivb_pebs_event_constraints).
 *
 * IA32_PEBS_ENABLE here has PS_EN (bit 63, precise stores on PMC3) beside
 * the Nehalem layout (PEBS_EN 0-3, LL_EN 32-35: pmu-facts 3, SDM16
 * 18.9.4): lattop sets PEBS_EN and LL_EN of its load-latency counter only,
 * never PS_EN (the kernel sets it for MEM_TRANS_RETIRED.PRECISE_STORES
 * alone, K-ds intel_pmu_pebs_enable), and a PS_EN someone else set makes
 * the facility theirs (pmu.c).
 *
 * Sources (keys of shared/reference/pmu-facts.md, and):
 *   SDM16  Intel SDM Vol.3B, ~2016 edition, 18.9 (Sandy Bridge), 18.10 (Ivy Bridge)
 *   PM     intel/perfmon @ 6dadedf3aa48: SNB/events/sandybridge_core.json (V19),
 *          sandybridge_matrix.json; JKT/events/Jaketown_core.json (V24),
 *          Jaketown_matrix.json; IVB/events/ivybridge_core.json (V24),
 *          ivybridge_matrix.json; IVT/events/ivytown_core.json (V24),
 *          ivytown_matrix.json.  Their Errata fields are empty or 0 for
 *          every event used here.
 *   K-core Linux arch/x86/events/intel/core.c: intel_snb_event_constraints,
 *          intel_snb_extra_regs (RSP mask 0x3f807f8fff), intel_snbep_extra_regs
 *          (0x3fffff8fff, the EP models), intel_ht_bug on SANDYBRIDGE(_X) and
 *          IVYBRIDGE(_X) ("PMU erratum BJ122, BV98, HSD29 worked around")
 *   K-ds   Linux arch/x86/events/intel/ds.c: intel_snb/ivb_pebs_event_constraints
 *   PFM    libpfm4 4.13 lib/events/intel_snb_events.h, intel_ivb_events.h
 *          (PMUs snb, snb_ep, ivb, ivb_ep)
 * tests/test_events.c checks every row against libpfm4 (.pfm).
 */
#include <stddef.h>

#include "cpu/events.h"

/*
 * MSR_OFFCORE_RSP_x bits: request 15:0, supplier 30:16, snoop 37:31, the
 * Haswell layout's ancestor (pmu-facts 5.2; SDM16 p.694-695, the Sandy Bridge text).  PM *_matrix.json
 * (all four): DEMAND_DATA_RD 0x0001; LLC_HIT.HIT_OTHER_CORE_NO_FWD
 * 0x04003c << 16; LLC_HIT.HITM_OTHER_CORE 0x10003c << 16.
 */
#define SNB_DMND_DATA_RD      (1ull << 0)   /* request: demand data reads */
#define SNB_LLC_HIT           0x3C0000ull   /* supplier: LLC_HITM|HITE|HITS|HITF, bits 21:18 */
#define SNB_SNOOP_HIT_NO_FWD  (1ull << 34)
#define SNB_SNOOP_HITM        (1ull << 36)

static const struct pmu_event sandybridge_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM SNB/JKT/IVB/IVT json 'Fixed counter 0' (0-based)" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, 0xF),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM sandybridge_core.json, ivybridge_core.json: 0xC0/0x00, Counter 0-3" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM SNB/JKT/IVB/IVT json 'Fixed counter 1' (0-based)" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, 0xF),
	  .pfm = "CPU_CLK_UNHALTED:THREAD_P",
	  .source = "PM sandybridge_core.json, ivybridge_core.json: 0x3C/0x00, Counter 0-3" },

	/*
	 * --- reference cycles: IA32_FIXED_CTR2 only; the programmable
	 * CPU_CLK_UNHALTED.REF_XCLK (0x3C/0x01) counts the 100 MHz clock, not
	 * the TSC rate.
	 */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM SNB/JKT/IVB/IVT json 'Fixed counter 2' (0-based)" },

	/*
	 * --- loads retired.  Errata BJ122 (Sandy Bridge) and BV98 (Ivy
	 * Bridge), like Haswell's HSD29: with HT on, MEM_UOPS_RETIRED (0xD0)
	 * and 0xD1-0xD3 miscount unless the same counter of the sibling
	 * thread is idle.  The kernel adds intel_ht_bug for SANDYBRIDGE,
	 * SANDYBRIDGE_X, IVYBRIDGE and IVYBRIDGE_X, which gives 0xd0-0xd3
	 * an exclusive constraint (INTEL_EXCLEVT_CONSTRAINT(0xdN, 0xf)) and
	 * drops it with HT off (fixup_ht_bug).  The erratum texts were not
	 * retrieved (UNVERIFIED): only the IDs, from the kernel's message.
	 * ht_excl: the planner leaves the sibling's counter idle (uarch
	 * UARCH_F_HT_EXCL).
	 * The json's "CounterHTOff 0,1,2,3" agrees: no PMC4-7 even with HT off.
	 */
	{ .name = "MEM_UOPS_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, 0xF),
	  .ht_excl = true,
	  .pfm = "MEM_UOPS_RETIRED:ALL_LOADS",
	  .source = "PM SNB/JKT/IVB/IVT json 0xD0/0x81, Counter 0-3; K-core INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf)" },

	/*
	 * --- load latency (SDM16 18.9.4.2): MEM_TRANS_RETIRED.LOAD_LATENCY
	 * with PEBS_EN+LL_EN and MSR_PEBS_LD_LAT_THRESHOLD; CMASK, INV, Edge
	 * and AnyThread must be 0 for PEBS.  PMC3 only, and here every source
	 * agrees: the json (Counter 3, PEBS=2, TakenAlone=1), the kernel's
	 * non-PEBS constraint INTEL_EVENT_CONSTRAINT(0xcd, 0x8) and its PEBS
	 * constraint INTEL_PLD_CONSTRAINT(0x01cd, 0x8) (unlike Haswell's 0xf).
	 * Sandy Bridge's PEBS is unreliable before a microcode revision
	 * (K-core intel_snb_pebs_broken): the model rows of uarch.c carry
	 * it, pmu.c reads the revision.
	 */
	{ .name = "MEM_TRANS_RETIRED.LOAD_LATENCY", .metric = M_LOAD_LATENCY,
	  GP(0xCD, 0x01, 0x8), .ldlat = true,
	  .pfm = "MEM_TRANS_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=3",
	  .source = "PM SNB/JKT/IVB/IVT json 0xCD/0x01 Counter 3, PEBS=2, MSRIndex 0x3F6; "
		    "K-core 0xcd -> 0x8; K-ds PLD 0x01cd -> 0x8" },

	/*
	 * --- snoop responses: demand data reads served by the LLC with a
	 * clean snoop hit / a HITM in another core.  RSP_0 is 0xB7/0x01,
	 * RSP_1 is 0xBB/0x01 (json "0xB7, 0xBB", MSRIndex "0x1a6,0x1a7").
	 * Snoop-hit tries RSP_0 first and HITM tries RSP_1 first, so both fit
	 * at once.  The four json files give the same MSRValues, and both
	 * kernel masks (client 0x3f807f8fff, EP 0x3fffff8fff) hold them.
	 * Offcore responses do not suffer BJ122/BV98 (0xD0-0xD3 only), which
	 * is why the retired-load MEM_LOAD_UOPS_LLC_HIT_RETIRED.XSNP_HIT/HITM
	 * (0xD2/0x02, 0x04) are not used.
	 */
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xB7, 0x01, 0xF),
	  RSP(1, SNB_DMND_DATA_RD | SNB_LLC_HIT | SNB_SNOOP_HIT_NO_FWD), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:SNP_NO_FWD",
	  .source = "PM SNB/JKT/IVB/IVT json MSRValue 0x4003c0001; matrix LLC_HIT.HIT_OTHER_CORE_NO_FWD" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT.HIT_OTHER_CORE_NO_FWD",
	  .metric = M_SNOOP_HIT, GP(0xBB, 0x01, 0xF),
	  RSP(2, SNB_DMND_DATA_RD | SNB_LLC_HIT | SNB_SNOOP_HIT_NO_FWD), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_HITMESF:SNP_NO_FWD",
	  .source = "PM SNB/JKT/IVB/IVT json 0xBB MSRIndex 0x1a7 MSRValue 0x4003c0001" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT.HITM_OTHER_CORE",
	  .metric = M_SNOOP_HITM, GP(0xBB, 0x01, 0xF),
	  RSP(2, SNB_DMND_DATA_RD | SNB_LLC_HIT | SNB_SNOOP_HITM), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_HITMESF:HITM",
	  .source = "PM SNB/JKT/IVB/IVT json 0xBB MSRIndex 0x1a7 MSRValue 0x10003c0001" },
	{ .name = "OFFCORE_RESPONSE.DEMAND_DATA_RD.LLC_HIT.HITM_OTHER_CORE",
	  .metric = M_SNOOP_HITM, GP(0xB7, 0x01, 0xF),
	  RSP(1, SNB_DMND_DATA_RD | SNB_LLC_HIT | SNB_SNOOP_HITM), .scope = SCOPE_OTHER_CORE,
	  .pfm = "OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:HITM",
	  .source = "PM SNB/JKT/IVB/IVT json MSRValue 0x10003c0001; matrix LLC_HIT.HITM_OTHER_CORE" },

	/*
	 * --- other packages (pmu-facts 8.8): loads retired whose data came
	 * from a modified / a clean forwarded line in another package's cache.
	 * In Ivy Bridge-EP's json only (IVT: MEM_LOAD_UOPS_LLC_MISS_RETIRED
	 * REMOTE_HITM 0x10, REMOTE_FWD 0x20); Sandy Bridge-EP's (JKT) has
	 * LOCAL_DRAM and REMOTE_DRAM alone, and the clients LOCAL_DRAM alone:
	 * needs = UARCH_F_REMOTE_EVENTS, a model-table flag of 06_3E.  0xD3
	 * is one of the events BV98 covers: ht_excl.
	 */
	{ .name = "MEM_LOAD_UOPS_LLC_MISS_RETIRED.REMOTE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xD3, 0x20, 0xF), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .ht_excl = true,
	  .pfm = "MEM_LOAD_UOPS_LLC_MISS_RETIRED:REMOTE_FWD",
	  .source = "PM ivytown_core.json 0xD3/0x20, Counter 0-3; K-core INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf)" },
	{ .name = "MEM_LOAD_UOPS_LLC_MISS_RETIRED.REMOTE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xD3, 0x10, 0xF), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .ht_excl = true,
	  .pfm = "MEM_LOAD_UOPS_LLC_MISS_RETIRED:REMOTE_HITM",
	  .source = "PM ivytown_core.json 0xD3/0x10, Counter 0-3; K-core INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf)" },

	/*
	 * --- offcore latency = OUTSTANDING / REQUESTS for demand data reads
	 * (pmu-facts 4.4; no kernel constraint on 0x60 or 0xB0 here, unlike
	 * Westmere's PMC0-only 0x60).
	 */
	{ .name = "OFFCORE_REQUESTS.DEMAND_DATA_RD", .metric = M_OFFCORE_READS,
	  GP(0xB0, 0x01, 0xF), .pair = 1,
	  .pfm = "OFFCORE_REQUESTS:DEMAND_DATA_RD",
	  .source = "PM SNB/JKT/IVB/IVT json 0xB0/0x01, Counter 0-3" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x60, 0x01, 0xF), .pair = 1,
	  .pfm = "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD",
	  .source = "PM SNB/JKT/IVB/IVT json 0x60/0x01 cmask 0, Counter 0-3" },

	{ .name = NULL },
};

#define SNB_NO_REMOTE "the clients have one package; of the servers only Ivy Bridge-EP lists " \
		      "loads another package served (0xD3 REMOTE_HITM/REMOTE_FWD), Sandy " \
		      "Bridge-EP's list does not"

const struct pmu_table pmu_table_sandybridge = {
	.name = "sandybridge",
	.events = sandybridge_events,
	.unsupported = {
		[M_SNOOP_REMOTE_HIT]  = SNB_NO_REMOTE,
		[M_SNOOP_REMOTE_HITM] = SNB_NO_REMOTE,
	},
	.pfm = { { "snb", 0, 2 }, { "snb_ep", 0, 2 }, { "ivb", 0, 2 },
		 { "ivb_ep", UARCH_F_REMOTE_EVENTS, 2 } },
};
