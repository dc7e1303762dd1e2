/*
 * events/icelake.c: the event table of the Ice Lake PMU family: Ice Lake
 * client 06_7D/7E and server 06_6A/6C (Sunny Cove), Tiger Lake 06_8C/8D
 * (Willow Cove), Rocket Lake 06_A7 (Cypress Cove).  Perfmon version 5: 8
 * general-purpose counters per thread with HT on, 4 fixed counters (the
 * fourth, TOPDOWN.SLOTS, unused here), MSR_OFFCORE_RSP_0 and _1 per thread
 * (pmu-facts 9.1).
 *
 * Owns: pmu_table_icelake, static const data only.  It must not touch a
 * device, read CPUID, or name a CPU model: the server parts' events are
 * rows with needs = UARCH_F_REMOTE_EVENTS, the parts whose 0xD2/0x04 is
 * HITM alone have UARCH_F_XSNP_HITM, both flags of cpu/uarch.c.
 *
 * What version 5 changes is generic and lives in cpu/pmu.c, keyed on the
 * version: IA32_PEBS_ENABLE has no LL_EN bits (bit 32 + k enables PEBS on
 * FIXED_CTRk), load latency is armed by the event, its PEBS_EN bit and
 * MSR_PEBS_LD_LAT_THRESHOLD (pmu-facts 9.2, K612 intel_pmu_pebs_enable);
 * leaf 0xA ECX enumerates the fixed counters (cpu/cpuid.c).
 *
 * Counters (K612 intel_icl_event_constraints, pmu-facts 9.3-9.5): 0xD0 to
 * 0xE6 (loads, snoops, remote), 0x60 and 0xA8-0xB0 (offcore) on PMC0-3;
 * 0xCD load latency on PMC0-7 (ds.c INTEL_PLD_CONSTRAINT(0x1cd, 0xff));
 * 0x3C and 0xC0 anywhere.  No TSX_FORCE_ABORT handling on this family (the
 * kernel's PMC3 avoidance is in its Skylake branch only, pmu-facts 9.7),
 * and no HT bug (intel_ht_bug is SNB, IVB, HSW only, pmu-facts 9.4).
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: ICL/events/icelake_core.json (V1.24),
 *          ICX/events/icelakex_core.json (V1.30), TGL/events/tigerlake_core.json
 *          (V1.19), RKL/events/rocketlake_core.json (V1.04)
 *   K612   Linux 6.12 arch/x86/events/intel/core.c (intel_icl_event_constraints,
 *          intel_icl_extra_regs), ds.c (intel_icl_pebs_event_constraints)
 *   PFM413 libpfm4 4.13: PMUs icl (06_7D/7E/8C/8D/A7, and 6C) and icx (06_6A)
 * tests/test_events.c checks every row against libpfm4 (.pfm).
 */
#include <stddef.h>

#include "cpu/events.h"

#define ICL_ALL  0xFF   /* PMC0-7: leaf 0xA reports 8 per thread (pmu-facts 9.1) */
#define ICL_LOW  0x0F   /* PMC0-3: K612 intel_icl_event_constraints */

static const struct pmu_event icelake_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 ICL/ICX/TGL/RKL json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, ICL_ALL),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM2 icelake_core.json 0xC0/0x00; K612: no constraint on 0xc0 but fixed 0" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 ICL/ICX/TGL/RKL json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, ICL_ALL),
	  .pfm = "CPU_CLK_UNHALTED:THREAD_P",
	  .source = "PM2 icelake_core.json 0x3C/0x00; K612 INTEL_EVENT_CONSTRAINT(0x3c, 0xff)" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 ICL/ICX/TGL/RKL json 'Fixed counter 2'" },

	/* --- loads retired (0xD0: PMC0-3 on this family) --- */
	{ .name = "MEM_INST_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, ICL_LOW),
	  .pfm = "MEM_INST_RETIRED:ALL_LOADS",
	  .source = "PM2 ICL/ICX/TGL/RKL json 0xD0/0x81; K612 RANGE(0xd0, 0xe6, 0xf)" },

	/*
	 * --- load latency: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N (the json
	 * names one event per threshold, all 0xCD/0x01 with MSRIndex 0x3F6),
	 * PEBS_EN of its counter and MSR_PEBS_LD_LAT_THRESHOLD: no LL_EN on
	 * version 5 (pmu-facts 9.2).  Any of PMC0-7 (pmu-facts 9.3: json
	 * 0-7, K612 ds.c PLD 0x1cd -> 0xff), no auxiliary event (the kernel's
	 * MEM_LOADS_AUX is Sapphire Rapids and later, pmu-facts 9.7).
	 */
	{ .name = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", .metric = M_LOAD_LATENCY,
	  GP(0xCD, 0x01, ICL_ALL), .ldlat = true,
	  .pfm = "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3",
	  .source = "PM2 ICL/ICX/TGL/RKL json 0xCD/0x01 MSRIndex 0x3F6, Counter 0-7; K612 ds.c PLD 0x1cd -> 0xff" },

	/*
	 * --- snoops: retired loads the L3 served after a snoop of another
	 * core (pmu-facts 9.4).  0xD2/0x02: XSNP_HIT in the ICL and RKL json,
	 * XSNP_NO_FWD in ICX and TGL (ICX keeps XSNP_HIT as its alias): a
	 * clean hit, not forwarded.  0xD2/0x04: XSNP_HITM in ICL and RKL,
	 * XSNP_FWD in ICX ("HitM responses from shared L3", XSNP_HITM its
	 * alias) and TGL, whose text adds clean lines another core forwarded
	 * (SNOOP_HIT_WITH_FWD): a HITM row on the parts whose files say HITM
	 * alone (UARCH_F_XSNP_HITM), none on Tiger Lake.  libpfm4 icl and icx
	 * know the older names only; the encodings are the same.
	 */
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xD2, 0x02, ICL_LOW), .scope = SCOPE_OTHER_CORE,
	  .pfm = "MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT",
	  .source = "PM2 ICX/TGL json XSNP_NO_FWD, ICL/RKL XSNP_HIT: 0xD2/0x02, Counter 0-3" },
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", .metric = M_SNOOP_HITM,
	  GP(0xD2, 0x04, ICL_LOW), .scope = SCOPE_OTHER_CORE, .needs = UARCH_F_XSNP_HITM,
	  .pfm = "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM",
	  .source = "PM2 ICX json XSNP_FWD 'HitM responses', ICL/RKL XSNP_HITM: 0xD2/0x04, Counter 0-3" },

	/*
	 * --- other packages, the server parts (06_6A, 06_6C): the ICX json's
	 * MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM 0xD3/0x04 and REMOTE_FWD
	 * 0xD3/0x08; the client json's 0xD3 has LOCAL_DRAM alone (pmu-facts 9.4).
	 */
	{ .name = "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xD3, 0x08, ICL_LOW), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD",
	  .source = "PM2 icelakex_core.json 0xD3/0x08, Counter 0-3" },
	{ .name = "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xD3, 0x04, ICL_LOW), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM",
	  .source = "PM2 icelakex_core.json 0xD3/0x04, Counter 0-3" },

	/*
	 * --- offcore latency = OUTSTANDING / REQUESTS for demand data reads,
	 * both from the L2 miss (pmu-facts 9.5).  libpfm4's "use with HT off
	 * only" is absent from its icl table: no caveat here.
	 */
	{ .name = "OFFCORE_REQUESTS.DEMAND_DATA_RD", .metric = M_OFFCORE_READS,
	  GP(0xB0, 0x01, ICL_LOW), .pair = 1,
	  .pfm = "OFFCORE_REQUESTS:DEMAND_DATA_RD",
	  .source = "PM2 ICL/ICX/TGL/RKL json 0xB0/0x01; K612 RANGE(0xa8, 0xb0, 0xf)" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x60, 0x01, ICL_LOW), .pair = 1,
	  .pfm = "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD",
	  .source = "PM2 ICL/ICX/TGL/RKL json 0x60/0x01 cmask 0; K612 RANGE(0x60, 0x8b, 0xf)" },

	{ .name = NULL },
};

#define ICL_NO_REMOTE "the client parts have one package, and no event for loads another " \
		      "package served (MEM_LOAD_L3_MISS_RETIRED.REMOTE_* is in the server " \
		      "parts' event list only)"

const struct pmu_table pmu_table_icelake = {
	.name = "icelake",
	.events = icelake_events,
	.unsupported = {
		[M_SNOOP_HITM] = "Tiger Lake's MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD (0xD2/0x04) counts "
				 "clean lines another core forwarded as well as modified ones "
				 "(Intel's tigerlake_core.json): it is no HITM count",
		[M_SNOOP_REMOTE_HIT]  = ICL_NO_REMOTE,
		[M_SNOOP_REMOTE_HITM] = ICL_NO_REMOTE,
	},
	/*
	 * libpfm4 icl for the client parts, with and without a HITM-only
	 * 0xD2/0x04 (Ice Lake and Rocket Lake; Tiger Lake), icx for the
	 * servers.  libpfm4 puts 06_6C under icl, PM2 and the kernel under
	 * icelakex (pmu-facts 9.8): the rows follow PM2.
	 */
	.pfm = { { "icl", 0, 2 }, { "icl", UARCH_F_XSNP_HITM, 2 },
		 { "icx", UARCH_F_XSNP_HITM | UARCH_F_REMOTE_EVENTS, 2 } },
};
