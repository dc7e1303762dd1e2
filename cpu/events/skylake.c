/*
 * events/skylake.c: the event table of the Skylake PMU family (Skylake
 * client 06_4E/5E and server 06_55 with Cascade Lake and Cooper Lake,
 * Kaby Lake, Coffee Lake, Whiskey Lake and Amber Lake 06_8E/9E, Comet Lake
 * 06_A5/A6: 4 general-purpose counters per thread with HT on, 8 with HT
 * off, 3 fixed counters, perfmon v4, MSR_OFFCORE_RSP_0 and _1 per thread).
 *
 * Owns: pmu_table_skylake, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model: the server parts' events are
 * rows with needs = UARCH_F_REMOTE_EVENTS, a flag of the model table.
 *
 * What version 4 changes is generic and lives in cpu/pmu.c, keyed on the
 * version: IA32_PERF_GLOBAL_INUSE (0x392) marks counters in use, and a
 * counter freeze (IA32_PERF_GLOBAL_STATUS.CTR_Frz, another agent's
 * IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI) is read and never cleared.
 *
 * PMC3 is left alone on the whole family.  The microcode that added
 * TSX_FORCE_ABORT (CPUID.(EAX=7,ECX=0):EDX[13]) to Skylake-family client
 * parts may use PMC3 itself unless MSR_TSX_FORCE_ABORT (0x10F) bit 0 is
 * set, which makes every RTM transaction abort; the kernel then either
 * sets that bit while perf uses PMC3 (allow_tsx_force_abort, the default)
 * or drops PMC3 from every constraint (K-core tfa_get_event_constraints,
 * PMU_FL_TFA, only without CPUID RTM_ALWAYS_ABORT).  lattop may not write
 * 0x10F (not on the allowlist), cannot know what the kernel did, and does
 * not read CPUID leaf 7: so no row uses PMC3 (counter mask 0x7), which
 * costs a counter on parts without the microcode.  Which models and
 * steppings got it is UNVERIFIED here (the kernel keys on the CPUID bit).
 *
 * Sources (keys of shared/reference/pmu-facts.md, and):
 *   PM     intel/perfmon @ 6dadedf3aa48: SKL/events/skylake_core.json (V59,
 *          06_4E/5E/8E/9E/A5/A6 in mapfile.csv), SKX/events/skylakex_core.json
 *          (V1.37, 06_55 steppings 0-4), CLX/events/cascadelakex_core.json
 *          (V1.25, 06_55 steppings 5-F).  No Errata for the events used,
 *          but SKL091, SKL044 on INST_RETIRED.ANY_P.
 *   K-core Linux arch/x86/events/intel/core.c: intel_skl_event_constraints
 *          (only INST_RETIRED.PREC_DIST), intel_skl_extra_regs (RSP mask
 *          0x3fffff8fff), no intel_ht_bug for Skylake, PMU_FL_NO_HT_SHARING
 *   K-ds   Linux arch/x86/events/intel/ds.c: intel_skl_pebs_event_constraints
 *          (INTEL_PLD_CONSTRAINT(0x1cd, 0xf); 0xd0-0xd3 on 0xf)
 *   PFM    libpfm4 4.13 lib/events/intel_skl_events.h (PMUs skl and skx)
 * tests/test_events.c checks every row against libpfm4 (.pfm).
 */
#include <stddef.h>

#include "cpu/events.h"

#define SKL_CTRS 0x7    /* PMC0-2: PMC3 left alone (TSX_FORCE_ABORT, above) */

static const struct pmu_event skylake_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM SKL/SKX/CLX json 'Fixed counter 0' (0-based)" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, SKL_CTRS),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM skylake_core.json 0xC0/0x00, Counter 0-3 (errata SKL091, SKL044)" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM SKL/SKX/CLX json 'Fixed counter 1' (0-based)" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, SKL_CTRS),
	  .pfm = "CPU_CLK_UNHALTED:THREAD_P",
	  .source = "PM skylake_core.json, skylakex_core.json 0x3C/0x00, Counter 0-3" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM SKL/SKX/CLX json 'Fixed counter 2' (0-based)" },

	/*
	 * --- loads retired: MEM_INST_RETIRED.ALL_LOADS (0xD0/0x81, the
	 * name Skylake gives MEM_UOPS_RETIRED).  No HT bug here: the kernel's
	 * Skylake case has no intel_ht_bug.
	 */
	{ .name = "MEM_INST_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, SKL_CTRS),
	  .pfm = "MEM_INST_RETIRED:ALL_LOADS",
	  .source = "PM SKL/SKX/CLX json 0xD0/0x81, Counter 0-3, PEBS=1" },

	/*
	 * --- load latency: MEM_TRANS_RETIRED.LOAD_LATENCY with PEBS_EN+LL_EN
	 * (version 4 < 5: the LL_EN bits 32-35 of the Nehalem layout, K-ds
	 * intel_pmu_pebs_enable) and MSR_PEBS_LD_LAT_THRESHOLD.  Here the json
	 * (Counter "0,1,2,3", PEBS=2, TakenAlone=1) and the kernel's PEBS
	 * constraint INTEL_PLD_CONSTRAINT(0x1cd, 0xf) agree on PMC0-3, and the
	 * kernel has no non-PEBS 0xcd constraint (Haswell's was PMC3 only):
	 * PMC0-2 here, PMC3 being left alone.
	 */
	{ .name = "MEM_TRANS_RETIRED.LOAD_LATENCY", .metric = M_LOAD_LATENCY,
	  GP(0xCD, 0x01, SKL_CTRS), .ldlat = true,
	  .pfm = "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3",
	  .source = "PM SKL/SKX/CLX json 0xCD/0x01 Counter 0-3, PEBS=2, MSRIndex 0x3F6; K-ds PLD 0x1cd -> 0xf" },

	/*
	 * --- snoops: retired loads the L3 served with a clean snoop hit /
	 * a HITM in another core of the package (MEM_LOAD_L3_HIT_RETIRED
	 * XSNP_HIT 0xD2/0x02, XSNP_HITM 0xD2/0x04), the same in the client
	 * and server json.  The offcore-response route is not taken: the
	 * client json's L3_HIT supplier is 0x1C0000 (bits 18-20:
	 * OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD 0x4001C0001,
	 * SNOOP_HITM 0x10001C0001) where the server json's is 0x3C0000
	 * (L3_HIT.HIT_OTHER_CORE_NO_FWD 0x4003C0001, HITM_OTHER_CORE
	 * 0x10003C0001; CLX names bit 21 L3_HIT_F), so one row could not be
	 * right on both.  They count retired loads, not demand data reads.
	 */
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT", .metric = M_SNOOP_HIT,
	  GP(0xD2, 0x02, SKL_CTRS), .scope = SCOPE_OTHER_CORE,
	  .pfm = "MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT",
	  .source = "PM SKL/SKX/CLX json 0xD2/0x02, Counter 0-3, PEBS=1" },
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", .metric = M_SNOOP_HITM,
	  GP(0xD2, 0x04, SKL_CTRS), .scope = SCOPE_OTHER_CORE,
	  .pfm = "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM",
	  .source = "PM SKL/SKX/CLX json 0xD2/0x04, Counter 0-3, PEBS=1" },

	/*
	 * --- other packages (pmu-facts 8.8), the server parts only:
	 * MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM 0xD3/0x04 and REMOTE_FWD
	 * 0xD3/0x08 in the SKX and CLX json (the umasks moved from
	 * Haswell-EP's 0x10/0x20); the client json's 0xD3 has LOCAL_DRAM alone.
	 */
	{ .name = "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xD3, 0x08, SKL_CTRS), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD",
	  .source = "PM skylakex_core.json, cascadelakex_core.json 0xD3/0x08, Counter 0-3" },
	{ .name = "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xD3, 0x04, SKL_CTRS), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM",
	  .source = "PM skylakex_core.json, cascadelakex_core.json 0xD3/0x04, Counter 0-3" },

	/* --- offcore latency = OUTSTANDING / REQUESTS for demand data reads --- */
	{ .name = "OFFCORE_REQUESTS.DEMAND_DATA_RD", .metric = M_OFFCORE_READS,
	  GP(0xB0, 0x01, SKL_CTRS), .pair = 1,
	  .ht_caveat = PMU_CAVEAT_OFFCORE_HT,
	  .pfm = "OFFCORE_REQUESTS:DEMAND_DATA_RD",
	  .source = "PM SKL/SKX/CLX json 0xB0/0x01, Counter 0-3" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x60, 0x01, SKL_CTRS), .pair = 1,
	  .ht_caveat = PMU_CAVEAT_OFFCORE_HT,
	  .pfm = "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD",
	  .source = "PM SKL/SKX/CLX json 0x60/0x01 cmask 0, Counter 0-3" },

	{ .name = NULL },
};

#define SKL_NO_REMOTE "the client parts have one package, and no event for loads another " \
		      "package served (MEM_LOAD_L3_MISS_RETIRED.REMOTE_* is in the server " \
		      "parts' event lists only)"

const struct pmu_table pmu_table_skylake = {
	.name = "skylake",
	.events = skylake_events,
	.unsupported = {
		[M_SNOOP_REMOTE_HIT]  = SKL_NO_REMOTE,
		[M_SNOOP_REMOTE_HITM] = SKL_NO_REMOTE,
	},
	.pfm = { { "skl", 0, 2 }, { "skx", UARCH_F_REMOTE_EVENTS, 2 } },
};
