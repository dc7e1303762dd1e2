/*
 * events/sapphirerapids.c: the event table of the Golden Cove server PMU:
 * Sapphire Rapids 06_8F (Golden Cove) and Emerald Rapids 06_CF (Raptor
 * Cove), and of Granite Rapids 06_AD/AE (Redwood Cove), whose events
 * lattop uses Intel's GNR file gives with the same codes, umasks and
 * counters (load latency 1-7, 0x20/0x21 and 0xD0-0xD3 on 0-3), and the
 * same texts ("HitM responses from shared L3"); the kernel's
 * granite_rapids case keeps the Golden Cove constraints and the load
 * latency's 0xfe, and drops only the auxiliary event (pmu-facts 9.3, 9.9),
 * which lattop does not program anyway (below).  Perfmon version 5: 8 general-purpose counters per thread with HT
 * on, 4 fixed counters (the fourth, SLOTS, unused here), MSR_OFFCORE_RSP_0
 * and _1 per thread, selected by 0x2A/0x2B (pmu-facts 9.1, 9.4).
 *
 * Owns: pmu_table_sapphirerapids, static const data only.  It must not
 * touch a device, read CPUID, or name a CPU model.  Version 5 (no LL_EN,
 * the fixed counters' PEBS in IA32_PEBS_ENABLE bits 32 and up, leaf 0xA
 * ECX) is handled by cpu/pmu.c as for Ice Lake (events/icelake.c).
 *
 * What moved from Ice Lake (pmu-facts 9.3-9.5):
 * - load latency stays 0xCD/0x01 but is kept off PMC0: the json lists
 *   counters 1-7, the kernel's PEBS constraint is 0xfe;
 * - the offcore events are 0x20 (OFFCORE_REQUESTS_OUTSTANDING) and 0x21
 *   (OFFCORE_REQUESTS), on PMC0-3 (K612 intel_glc_event_constraints);
 * - 0xD2/0x02 and 0x04 are named XSNP_NO_FWD and XSNP_FWD, the latter
 *   "HitM responses from shared L3"; the remote events stay 0xD3/0x04, 0x08.
 *
 * The auxiliary event.  On these parts the kernel (K612 core.c,
 * PMU_FL_MEM_LOADS_AUX, set for SAPPHIRERAPIDS_X and EMERALDRAPIDS_X)
 * refuses a load-latency event unless LD_BLOCKS.STORE_FORWARD 0x03/0x82
 * ("mem-loads-aux") runs in its group before it, and perf mem opens the
 * pair.  Why: the flag is "Require an auxiliary event for the complete
 * memory info", and intel_pmu_hw_config() applies the rule only to an
 * event that samples PERF_SAMPLE_DATA_SRC: the PEBS record's memory info
 * needs it ("To retrieve complete Memory Info of the load latency event,
 * an auxiliary event has to be enabled simultaneously", Kan Liang's SPR
 * patch, 2021).  A counting event (perf stat) is let through without it.
 * lattop counts and never reads a PEBS record, so it follows the kernel's
 * counting path: no auxiliary event.  pmu-facts 9.7's stronger reading
 * ("misbehaves unless") is not what the kernel's check says; whether the
 * count itself differs with it is UNVERIFIED (no part at hand).
 *
 * Sources (keys of shared/reference/pmu-facts.md):
 *   PM2    intel/perfmon @ 6dadedf3aa48: SPR/events/sapphirerapids_core.json
 *          (V1.39), EMR/events/emeraldrapids_core.json (V1.24)
 *   K612   Linux 6.12 core.c (intel_glc_event_constraints, intel_glc_extra_regs,
 *          PMU_FL_MEM_LOADS_AUX), ds.c (intel_glc_pebs_event_constraints)
 *   PM2    GNR/events/graniterapids_core.json (V1.20, 06_AD and 06_AE)
 *   PFM413 libpfm4 4.13: PMU spr (06_8F; forced for 06_CF, which it lacks);
 *          no gnr (pmu-facts 9.8)
 * tests/test_events.c checks every row against libpfm4 (.pfm), and against
 * Intel's GNR values written into it (.json), for Granite Rapids.
 */
#include <stddef.h>

#include "cpu/events.h"

#define SPR_ALL   0xFF  /* PMC0-7: leaf 0xA reports 8 per thread (pmu-facts 9.1) */
#define SPR_LOW   0x0F  /* PMC0-3: K612 intel_glc_event_constraints */
#define SPR_LDLAT 0xFE  /* PMC1-7: K612 ds.c 0x1cd -> 0xfe, PM2 Counter 1-7 */

static const struct pmu_event sapphirerapids_events[] = {
	/* --- instructions: fixed counter first, PMCx when it is taken --- */
	{ .name = "INST_RETIRED.ANY", .metric = M_INSTRUCTIONS, FIXED(0),
	  .pfm = "INSTRUCTIONS_RETIRED",
	  .source = "IA32_FIXED_CTR0 (K-pe); PM2 SPR/EMR json 'Fixed counter 0'" },
	{ .name = "INST_RETIRED.ANY_P", .metric = M_INSTRUCTIONS, GP(0xC0, 0x00, SPR_ALL),
	  .pfm = "INST_RETIRED:ANY_P",
	  .source = "PM2 SPR/EMR json 0xC0/0x00; architectural event (K-core arch map)" },

	/* --- core cycles --- */
	{ .name = "CPU_CLK_UNHALTED.THREAD", .metric = M_CYCLES, FIXED(1),
	  .pfm = "UNHALTED_CORE_CYCLES",
	  .source = "IA32_FIXED_CTR1 (K-pe); PM2 SPR/EMR json 'Fixed counter 1'" },
	{ .name = "CPU_CLK_UNHALTED.THREAD_P", .metric = M_CYCLES, GP(0x3C, 0x00, SPR_ALL),
	  .pfm = "CPU_CLK_UNHALTED:THREAD_P",
	  .source = "PM2 SPR/EMR json 0x3C/0x00; architectural event (K-core arch map)" },

	/* --- reference cycles: IA32_FIXED_CTR2 only --- */
	{ .name = "CPU_CLK_UNHALTED.REF_TSC", .metric = M_REF_CYCLES, FIXED(2),
	  .pfm = "UNHALTED_REFERENCE_CYCLES",
	  .source = "IA32_FIXED_CTR2 (K-pe); PM2 SPR/EMR json 'Fixed counter 2'" },

	/* --- loads retired (0xD0: PMC0-3) --- */
	{ .name = "MEM_INST_RETIRED.ALL_LOADS", .metric = M_LOADS, GP(0xD0, 0x81, SPR_LOW),
	  .pfm = "MEM_INST_RETIRED:ALL_LOADS",
	  .source = "PM2 SPR/EMR json 0xD0/0x81; K612 glc RANGE(0xd0, 0xdf, 0xf) (pmu-facts 9.4)" },

	/* --- load latency: PEBS_EN of its counter and the threshold, no auxiliary event (above) --- */
	{ .name = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", .metric = M_LOAD_LATENCY,
	  GP(0xCD, 0x01, SPR_LDLAT), .ldlat = true,
	  .pfm = "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=3",
	  .source = "PM2 SPR/EMR json 0xCD/0x01 MSRIndex 0x3F6, Counter 1-7; K612 ds.c PLD 0x1cd -> 0xfe" },

	/* --- snoops in this package (pmu-facts 9.4) --- */
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", .metric = M_SNOOP_HIT,
	  GP(0xD2, 0x02, SPR_LOW), .scope = SCOPE_OTHER_CORE,
	  .pfm = "MEM_LOAD_L3_HIT_RETIRED:XSNP_NO_FWD",
	  .source = "PM2 SPR/EMR json 0xD2/0x02, Counter 0-3" },
	{ .name = "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD", .metric = M_SNOOP_HITM,
	  GP(0xD2, 0x04, SPR_LOW), .scope = SCOPE_OTHER_CORE, .needs = UARCH_F_XSNP_HITM,
	  .pfm = "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD",
	  .source = "PM2 SPR/EMR json 0xD2/0x04 'HitM responses from shared L3', Counter 0-3" },

	/* --- other packages: the server json's MEM_LOAD_L3_MISS_RETIRED (pmu-facts 9.4) --- */
	{ .name = "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD", .metric = M_SNOOP_REMOTE_HIT,
	  GP(0xD3, 0x08, SPR_LOW), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD",
	  .source = "PM2 SPR/EMR json 0xD3/0x08, Counter 0-3" },
	{ .name = "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM", .metric = M_SNOOP_REMOTE_HITM,
	  GP(0xD3, 0x04, SPR_LOW), .needs = UARCH_F_REMOTE_EVENTS, .scope = SCOPE_OTHER_PACKAGE,
	  .pfm = "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM",
	  .source = "PM2 SPR/EMR json 0xD3/0x04, Counter 0-3" },

	/*
	 * --- offcore latency: the events moved to 0x20/0x21 (pmu-facts 9.5).
	 * libpfm4 4.13's spr table lacks OFFCORE_REQUESTS_OUTSTANDING's
	 * DEMAND_DATA_RD umask (0x01), which Intel's files have: its DATA_RD
	 * (0x08, all data reads) is asked instead, to check the event code.
	 */
	{ .name = "OFFCORE_REQUESTS.DEMAND_DATA_RD", .metric = M_OFFCORE_READS,
	  GP(0x21, 0x01, SPR_LOW), .pair = 1,
	  .pfm = "OFFCORE_REQUESTS:DEMAND_DATA_RD",
	  .source = "PM2 SPR/EMR json 0x21/0x01; K612 intel_glc_event_constraints PMC0-3" },
	{ .name = "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", .metric = M_OFFCORE_OUTSTANDING,
	  GP(0x20, 0x01, SPR_LOW), .pair = 1,
	  .pfm = "OFFCORE_REQUESTS_OUTSTANDING:DATA_RD",
	  .pfm_diff = { .pmu = "spr", .evtsel = 0x430820,
			.why = "libpfm4 4.13 spr has no DEMAND_DATA_RD umask (0x01) for "
			       "OFFCORE_REQUESTS_OUTSTANDING; Intel's SPR and EMR json have it: "
			       "DATA_RD (0x08) is what it encodes" },
	  .source = "PM2 SPR/EMR json 0x20/0x01 cmask 0; K612 intel_glc_event_constraints PMC0-3" },

	{ .name = NULL },
};

const struct pmu_table pmu_table_sapphirerapids = {
	.name = "sapphirerapids",
	.events = sapphirerapids_events,
	/* Emerald Rapids is checked on spr too: libpfm4 4.13 has no emr (pmu-facts 9.8). */
	/*
	 * spr also stands for the Golden Cove client core (Alder and Raptor
	 * Lake P-cores: no remote rows), which libpfm4 4.13 lacks (pmu-facts
	 * 9.8); tests/test_events.c checks those rows on Intel's ADL file too.
	 */
	.pfm = { { "spr", UARCH_F_XSNP_HITM | UARCH_F_REMOTE_EVENTS, 2 },
		 { "spr", UARCH_F_XSNP_HITM, 2 } },
	/* ... nor gnr: Granite Rapids' rows are checked against Intel's file. */
	.json = "GNR/events/graniterapids_core.json",
};
