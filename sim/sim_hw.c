/*
 * sim_hw.c: the hardware tables of the simulated CPUs.
 *
 * Owns, per simulated microarchitecture, its CPUID values, which MSRs exist
 * and which of their bits are valid, which event encodings count what, and
 * the decoder of MSR_OFFCORE_RSP_x values.  Written from the SDM seeds
 * (shared/seeds/) and shared/reference/pmu-facts.md; every row names its
 * source ("facts §N" = pmu-facts.md section N, with the source keys used
 * there: PM = Intel perfmon json, PFM = libpfm4, K-core = the kernel's
 * intel/core.c, LCP = libcpuid CPUID dumps, SDM16/SDM09 = SDM editions).
 *
 * Must not include or copy anything of lattop's event tables
 * (cpu/events/): a wrong encoding in lattop has to count nothing here.
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim_internal.h"

#define B(n) (1ULL << (n))

/* Bits 0-31 of IA32_PERFEVTSELx: event..CMASK (facts §2.1). */
#define EVTSEL_ARCH     0xffffffffULL
/* Haswell/Broadwell add IN_TX (32) and IN_TX_CP (33) (facts §2.1, K-core hsw_hw_config). */
#define EVTSEL_TSX      (EVTSEL_ARCH | B(32) | B(33))

/* IA32_PERF_CAPABILITIES fields (facts §2.4, K-msr). */
#define CAP_TRAP        B(6)
#define CAP_FMT(n)      ((uint64_t)(n) << 8)
#define CAP_FW_WRITE    B(13)

#define ALL4    0xf
#define ALL2    0x3

#define ROWS(a) (a), (sizeof(a) / sizeof((a)[0]))

/*
 * Event rows.  Columns: event, umask, what it counts, counters, name,
 * libpfm4 string (INT bit aside, it must encode to event | umask << 8 |
 * USR | OS | EN), libpfm4 PMU when not the uarch's own.
 */

/* Nehalem 06_1A (libpfm4 "nhm"). */
static const struct sim_event nhm_events[] = {
	/* CPU_CLK_UNHALTED.THREAD_P; facts §4.1 (PM NHM-EP json, K-core arch map) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	/* architectural instructions retired 0x00C0; facts §4.1 (K-core), PFM nhm INST_RETIRED:ANY_P has umask 0 */
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P (arch)", "INSTRUCTION_RETIRED", NULL },
	/*
	 * INST_RETIRED.ANY_P with umask 0x01 per the NHM-EP json (facts §4.1).
	 * libpfm4's nhm table has no umask 0x01 for 0xC0, so the oracle is its
	 * Westmere table, which has the same core event.
	 */
	{ 0xc0, 0x01, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P", "wsm" },
	/* MEM_INST_RETIRED.LOADS; PM NHM-EP json, PFM nhm */
	{ 0x0b, 0x01, SIM_EV_LOADS, ALL4, "MEM_INST_RETIRED.LOADS", "MEM_INST_RETIRED:LOADS", NULL },
	/* MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD; facts §4.2 (SDM09 p.18-76, K-ds PMC0-3) */
	{ 0x0b, 0x10, SIM_EV_LOAD_LAT, ALL4, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD",
	  "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", NULL },
	/* OFFCORE_RESPONSE_0 (MSR 0x1A6 only on Nehalem); facts §4.5 (SDM09 Table 18-23, K-core) */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OFF_CORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/* No 0x60 (absent everywhere) and no 0xB0/0x01 (only in libpfm4: UNVERIFIED, facts §4.4, §7.1). */
};

/* Westmere-EP 06_2C (libpfm4 "wsm_dp", the PMU it picks for model 44). */
static const struct sim_event wsm_events[] = {
	/* facts §4.1 */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P (arch)", "INSTRUCTION_RETIRED", NULL },
	/* INST_RETIRED.ANY_P umask 0x01 per the WSM json; facts §4.1 */
	{ 0xc0, 0x01, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P", NULL },
	/* MEM_INST_RETIRED.LOADS; PM WSM-EP-DP json, PFM wsm_dp */
	{ 0x0b, 0x01, SIM_EV_LOADS, ALL4, "MEM_INST_RETIRED.LOADS", "MEM_INST_RETIRED:LOADS", NULL },
	/* facts §4.2 */
	{ 0x0b, 0x10, SIM_EV_LOAD_LAT, ALL4, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD",
	  "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD", NULL },
	/* facts §4.5: RSP_0 0xB7/0x01, RSP_1 0xBB/0x01, PMC0-3 (PM WSM-EP json, PFM wsm) */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OFF_CORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	{ 0xbb, 0x01, SIM_EV_RSP1, ALL4, "OFF_CORE_RESPONSE_1", "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/* OFFCORE_REQUESTS.DEMAND.READ_DATA; facts §4.4 (PM WSM-*) */
	{ 0xb0, 0x01, SIM_EV_OFF_REQ, ALL4, "OFFCORE_REQUESTS.DEMAND.READ_DATA",
	  "OFFCORE_REQUESTS:DEMAND_READ_DATA", NULL },
	/* OFFCORE_REQUESTS_OUTSTANDING.DEMAND.READ_DATA, PMC0 only; facts §4.4, §6 (K-core 0x60 mask 0x1) */
	{ 0x60, 0x01, SIM_EV_OFF_OUTST, 0x1, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND.READ_DATA",
	  "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_READ_DATA", NULL },
};

/* Silvermont 06_4D and Airmont 06_4C (libpfm4 "slm"; Airmont uses it too, facts §1.1). */
static const struct sim_event slm_events[] = {
	/* CPU_CLK_UNHALTED.CORE_P, INST_RETIRED.ANY_P; facts §4.1 (PM SLM, counters 0,1) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL2, "CPU_CLK_UNHALTED.CORE_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL2, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	/* MEM_UOPS_RETIRED.ALL_LOADS; PM SLM json (libpfm4 name MEM_UOP_RETIRED:ANY_LD) */
	{ 0x04, 0x40, SIM_EV_LOADS, ALL2, "MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOP_RETIRED:ANY_LD", NULL },
	/* facts §4.5: RSP_0 0xB7/0x01, RSP_1 0xB7/0x02 (SDM16 Table 18-14, PM SLM) */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL2, "OFFCORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	{ 0xb7, 0x02, SIM_EV_RSP1, ALL2, "OFFCORE_RESPONSE_1", "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/*
	 * MEM_UOPS_RETIRED.HITM: loads retired whose data came from a modified
	 * line "from the other core or from the other module": the module
	 * partner too (facts §8.2, PM SLM json).
	 */
	{ 0x04, 0x20, SIM_EV_HITM_LOADS, ALL2, "MEM_UOPS_RETIRED.HITM", "MEM_UOP_RETIRED:HITM", NULL },
};

/* Goldmont 06_5C and Goldmont Plus 06_7A (libpfm4 "glm"; it has no Goldmont Plus PMU). */
static const struct sim_event glm_events[] = {
	/* facts §4.1 (PM GLM/GLP) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.CORE_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	/* MEM_UOPS_RETIRED.ALL_LOADS; PM GLM/GLP json, PFM glm */
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED:ALL_LOADS", NULL },
	/* facts §4.5 (K-core intel_glm_extra_regs, PM GLM/GLP, PFM glm 0x01b7/0x02b7) */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OFFCORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	{ 0xb7, 0x02, SIM_EV_RSP1, ALL4, "OFFCORE_RESPONSE_1", "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/* MEM_LOAD_UOPS_RETIRED.HITM: "cross core or cross module HITM" (facts §8.2, PM GLM/GLP json) */
	{ 0xd1, 0x20, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_UOPS_RETIRED.HITM", "MEM_LOAD_UOPS_RETIRED:HITM", NULL },
};

/* Haswell 06_3C (libpfm4 "hsw") and Broadwell 06_3D ("bdw"): same encodings. */
static const struct sim_event hsw_events[] = {
	/* facts §4.1 (PM HSW) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	/* MEM_UOPS_RETIRED.ALL_LOADS; PM HSW json, PFM hsw/bdw */
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED:ALL_LOADS", NULL },
	/* MEM_TRANS_RETIRED.LOAD_LATENCY; facts §4.2 (PEBS on PMC0-3, K-ds INTEL_PLD_CONSTRAINT(0x01cd, 0xf)) */
	{ 0xcd, 0x01, SIM_EV_LOAD_LAT, ALL4, "MEM_TRANS_RETIRED.LOAD_LATENCY",
	  "MEM_TRANS_RETIRED:LOAD_LATENCY", NULL },
	/* facts §4.5 (PM HSW "0xB7, 0xBB", SDM "PMC0-3") */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OFFCORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	{ 0xbb, 0x01, SIM_EV_RSP1, ALL4, "OFFCORE_RESPONSE_1", "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/* OFFCORE_REQUESTS.DEMAND_DATA_RD, OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD; facts §4.4 (PM HSW) */
	{ 0xb0, 0x01, SIM_EV_OFF_REQ, ALL4, "OFFCORE_REQUESTS.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS:DEMAND_DATA_RD", NULL },
	{ 0x60, 0x01, SIM_EV_OFF_OUTST, ALL4, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD", NULL },
};

/*
 * The server parts only (Haswell-EP 06_3F, Broadwell-EP 06_4F: libpfm4
 * "hsw_ep", "bdw_ep"): loads retired whose data another package's cache
 * supplied, modified or forwarded clean (facts §4.3, §8.8; PM HSX json).
 */
static const struct sim_event hsx_events[] = {
	{ 0xd3, 0x10, SIM_EV_RHITM_LOADS, ALL4, "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_HITM",
	  "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_HITM", "hsw_ep" },
	{ 0xd3, 0x20, SIM_EV_RHIT_LOADS, ALL4, "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD",
	  "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_FWD", "hsw_ep" },
};

static const struct sim_event bdx_events[] = {
	{ 0xd3, 0x10, SIM_EV_RHITM_LOADS, ALL4, "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_HITM",
	  "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_HITM", "bdw_ep" },
	{ 0xd3, 0x20, SIM_EV_RHIT_LOADS, ALL4, "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD",
	  "MEM_LOAD_UOPS_L3_MISS_RETIRED:REMOTE_FWD", "bdw_ep" },
};

/*
 * Sandy Bridge 06_2A (libpfm4 "snb") and Ivy Bridge 06_3A ("ivb"): the same
 * names and encodings in both libpfm4 tables and in the SNB/IVB perfmon
 * json (intel/perfmon SNB/events/sandybridge_core.json,
 * IVB/events/ivybridge_core.json).
 */
static const struct sim_event snb_events[] = {
	/* facts §4.1: the architectural encodings (PM SNB/IVB, counters 0-3) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	/* MEM_UOPS_RETIRED.ALL_LOADS (PM SNB/IVB json 0xD0/0x81, PFM snb/ivb) */
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED:ALL_LOADS", NULL },
	/*
	 * MEM_TRANS_RETIRED.LOAD_LATENCY: PMC3 only on this machine (PM json
	 * "Counter 3"; K-ds intel_snb/ivb_pebs_event_constraints
	 * INTEL_PLD_CONSTRAINT(0x01cd, 0x8)): elsewhere it counts nothing.
	 */
	{ 0xcd, 0x01, SIM_EV_LOAD_LAT, 0x8, "MEM_TRANS_RETIRED.LOAD_LATENCY",
	  "MEM_TRANS_RETIRED:LATENCY_ABOVE_THRESHOLD", NULL },
	/* RSP_0 0xB7/0x01, RSP_1 0xBB/0x01 (PM json "0xB7, 0xBB", MSRIndex 0x1a6,0x1a7) */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OFFCORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	{ 0xbb, 0x01, SIM_EV_RSP1, ALL4, "OFFCORE_RESPONSE_1", "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/* retired loads the LLC served with a snoop hit / HITM in another core (PM 0xD2/0x02, 0x04) */
	{ 0xd2, 0x02, SIM_EV_HIT_LOADS, ALL4, "MEM_LOAD_UOPS_LLC_HIT_RETIRED.XSNP_HIT",
	  "MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_HIT", NULL },
	{ 0xd2, 0x04, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_UOPS_LLC_HIT_RETIRED.XSNP_HITM",
	  "MEM_LOAD_UOPS_LLC_HIT_RETIRED:XSNP_HITM", NULL },
	/* facts §4.4 (PM SNB/IVB 0xB0/0x01, 0x60/0x01) */
	{ 0xb0, 0x01, SIM_EV_OFF_REQ, ALL4, "OFFCORE_REQUESTS.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS:DEMAND_DATA_RD", NULL },
	{ 0x60, 0x01, SIM_EV_OFF_OUTST, ALL4, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD", NULL },
};

/*
 * Ivy Bridge-EP 06_3E only (libpfm4 "ivb_ep"; PM IVT/events/ivytown_core.json):
 * retired loads another package's cache served, modified or forwarded
 * clean.  Sandy Bridge-EP's json (JKT) has no such umask: its server part
 * has none.
 */
static const struct sim_event ivt_events[] = {
	{ 0xd3, 0x10, SIM_EV_RHITM_LOADS, ALL4, "MEM_LOAD_UOPS_LLC_MISS_RETIRED.REMOTE_HITM",
	  "MEM_LOAD_UOPS_LLC_MISS_RETIRED:REMOTE_HITM", "ivb_ep" },
	{ 0xd3, 0x20, SIM_EV_RHIT_LOADS, ALL4, "MEM_LOAD_UOPS_LLC_MISS_RETIRED.REMOTE_FWD",
	  "MEM_LOAD_UOPS_LLC_MISS_RETIRED:REMOTE_FWD", "ivb_ep" },
};

/*
 * Skylake client 06_5E (libpfm4 "skl"; intel/perfmon SKL/events/
 * skylake_core.json, which 06_4E/8E/9E/A5/A6 share).
 */
static const struct sim_event skl_events[] = {
	/* facts §4.1: the architectural encodings (PM SKL, counters 0-3) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	/* MEM_INST_RETIRED.ALL_LOADS (PM SKL 0xD0/0x81; Skylake's name for MEM_UOPS_RETIRED) */
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_INST_RETIRED.ALL_LOADS", "MEM_INST_RETIRED:ALL_LOADS", NULL },
	/* MEM_TRANS_RETIRED.LOAD_LATENCY on PMC0-3 (PM SKL "0,1,2,3"; K-ds INTEL_PLD_CONSTRAINT(0x1cd, 0xf)) */
	{ 0xcd, 0x01, SIM_EV_LOAD_LAT, ALL4, "MEM_TRANS_RETIRED.LOAD_LATENCY",
	  "MEM_TRANS_RETIRED:LOAD_LATENCY", NULL },
	/* RSP_0 0xB7/0x01, RSP_1 0xBB/0x01 (PM SKL "0xB7, 0xBB") */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OFFCORE_RESPONSE_0", "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL },
	{ 0xbb, 0x01, SIM_EV_RSP1, ALL4, "OFFCORE_RESPONSE_1", "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL },
	/* retired loads the L3 served with a snoop hit / HITM in another core (PM SKL 0xD2/0x02, 0x04) */
	{ 0xd2, 0x02, SIM_EV_HIT_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT",
	  "MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT", NULL },
	{ 0xd2, 0x04, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM",
	  "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", NULL },
	/* facts §4.4 (PM SKL 0xB0/0x01, 0x60/0x01) */
	{ 0xb0, 0x01, SIM_EV_OFF_REQ, ALL4, "OFFCORE_REQUESTS.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS:DEMAND_DATA_RD", NULL },
	{ 0x60, 0x01, SIM_EV_OFF_OUTST, ALL4, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD", NULL },
};

/*
 * Skylake-SP 06_55 only (libpfm4 "skx"; PM SKX/events/skylakex_core.json):
 * MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM 0x04 and REMOTE_FWD 0x08, umasks
 * that moved from Haswell-EP's 0x10 and 0x20.
 */
static const struct sim_event skx_events[] = {
	{ 0xd3, 0x04, SIM_EV_RHITM_LOADS, ALL4, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM",
	  "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", "skx" },
	{ 0xd3, 0x08, SIM_EV_RHIT_LOADS, ALL4, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD",
	  "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD", "skx" },
};

#define ALL8    0xff
#define ALL10   0x3ff   /* Lion Cove's ten (leaf 0x23.1 GP 0x3FF) */

/*
 * Ice Lake client 06_7E (libpfm4 "icl"; intel/perfmon ICL/events/
 * icelake_core.json, facts §9).  Counters: the json's lists as the
 * kernel's constraints restate them (facts §9.3-9.5: 0xD0-0xE6, 0x60 and
 * 0xB0 on PMC0-3; 0xCD on PMC0-7).  No OFFCORE_RESPONSE row: its MSRs
 * exist (below), what they select is not simulated, and an event select
 * 0xB7/0xBB counts nothing here.
 */
static const struct sim_event icl_events[] = {
	/* facts §4.1 encodings; 0x3C, 0xC0 on any counter (facts §9.3 K612 icl constraints) */
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL8, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL8, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	/* MEM_INST_RETIRED.ALL_LOADS 0xD0/0x81, PMC0-3 */
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_INST_RETIRED.ALL_LOADS", "MEM_INST_RETIRED:ALL_LOADS", NULL },
	/* MEM_TRANS_RETIRED.LOAD_LATENCY_GT_*: 0xCD/0x01, PMC0-7 (facts §9.3) */
	{ 0xcd, 0x01, SIM_EV_LOAD_LAT, ALL8, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N",
	  "MEM_TRANS_RETIRED:LOAD_LATENCY", NULL },
	/* facts §9.4: ICL's json still says XSNP_HIT / XSNP_HITM; HITM alone */
	{ 0xd2, 0x02, SIM_EV_HIT_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HIT",
	  "MEM_LOAD_L3_HIT_RETIRED:XSNP_HIT", NULL },
	{ 0xd2, 0x04, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM",
	  "MEM_LOAD_L3_HIT_RETIRED:XSNP_HITM", NULL },
	/* facts §9.5: from the L2 miss */
	{ 0xb0, 0x01, SIM_EV_OFF_REQ, ALL4, "OFFCORE_REQUESTS.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS:DEMAND_DATA_RD", NULL },
	{ 0x60, 0x01, SIM_EV_OFF_OUTST, ALL4, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS_OUTSTANDING:DEMAND_DATA_RD", NULL },
};

/* Ice Lake-SP 06_6A only (libpfm4 "icx"; PM ICX/events/icelakex_core.json, facts §9.4). */
static const struct sim_event icx_events[] = {
	{ 0xd3, 0x04, SIM_EV_RHITM_LOADS, ALL4, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM",
	  "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", "icx" },
	{ 0xd3, 0x08, SIM_EV_RHIT_LOADS, ALL4, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD",
	  "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD", "icx" },
};

/*
 * Sapphire Rapids 06_8F and Emerald Rapids 06_CF (libpfm4 "spr"; PM
 * SPR/events/sapphirerapids_core.json, EMR/events/emeraldrapids_core.json,
 * facts §9.3-9.5).  Load latency on PMC1-7 only (the json's "1-7", the
 * kernel's 0xfe): on PMC0 it counts nothing here.  The offcore events moved
 * to 0x20/0x21; libpfm4 4.13 lacks 0x20's DEMAND_DATA_RD umask, so that row
 * has no libpfm4 string and is checked against Intel's value instead
 * (tests/test_sim_pfm.c).  No OFFCORE_RESPONSE row (0x2A/0x2B): not simulated.
 */
static const struct sim_event spr_events[] = {
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL8, "CPU_CLK_UNHALTED.THREAD_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL8, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_INST_RETIRED.ALL_LOADS", "MEM_INST_RETIRED:ALL_LOADS", NULL },
	{ 0xcd, 0x01, SIM_EV_LOAD_LAT, 0xfe, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N",
	  "MEM_TRANS_RETIRED:LOAD_LATENCY", NULL },
	{ 0xd2, 0x02, SIM_EV_HIT_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD",
	  "MEM_LOAD_L3_HIT_RETIRED:XSNP_NO_FWD", NULL },
	/* "HitM responses from shared L3" (facts §9.4) */
	{ 0xd2, 0x04, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD",
	  "MEM_LOAD_L3_HIT_RETIRED:XSNP_FWD", NULL },
	{ 0x21, 0x01, SIM_EV_OFF_REQ, ALL4, "OFFCORE_REQUESTS.DEMAND_DATA_RD",
	  "OFFCORE_REQUESTS:DEMAND_DATA_RD", NULL },
	{ 0x20, 0x01, SIM_EV_OFF_OUTST, ALL4, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", NULL, NULL },
};

/* Two packages: the remote loads (facts §9.4: 0xD3/0x04, 0x08 on SPR and EMR). */
static const struct sim_event spr_server_events[] = {
	{ 0xd3, 0x04, SIM_EV_RHITM_LOADS, ALL4, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM",
	  "MEM_LOAD_L3_MISS_RETIRED:REMOTE_HITM", NULL },
	{ 0xd3, 0x08, SIM_EV_RHIT_LOADS, ALL4, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_FWD",
	  "MEM_LOAD_L3_MISS_RETIRED:REMOTE_FWD", NULL },
};

/*
 * Tremont, Elkhart Lake 06_96 (libpfm4 "tmt"; PM EHL/events/
 * elkhartlake_core.json V1.05, SNR/events/snowridgex_core.json V1.23,
 * facts §9.3-9.5).  No load-latency event, no MSR_PEBS_LD_LAT_THRESHOLD.
 * libpfm4 tmt has no HITM umask: that row is checked against Intel's value
 * (tests/test_sim_pfm.c).
 */
static const struct sim_event tnt_events[] = {
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL4, "CPU_CLK_UNHALTED.CORE_P", "UNHALTED_CORE_CYCLES", NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL4, "INST_RETIRED.ANY_P", "INSTRUCTION_RETIRED", NULL },
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_UOPS_RETIRED.ALL_LOADS", "MEM_UOPS_RETIRED:ALL_LOADS", NULL },
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL4, "OCR (MSR 0x1a6)", "OCR:DEMAND_DATA_RD_ANY_RESPONSE", NULL },
	{ 0xb7, 0x02, SIM_EV_RSP1, ALL4, "OCR (MSR 0x1a7)", "OFFCORE_RESPONSE_1:DEMAND_DATA_RD_ANY_RESPONSE",
	  NULL },
	/* "modified data was forwarded from another core or module" */
	{ 0xd1, 0x20, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_UOPS_RETIRED.HITM", NULL, NULL },
};

#define ALL6    0x3f

/*
 * Gracemont, Alder Lake-N 06_BE (no libpfm4 PMU: every row is checked
 * against Intel's values, tests/test_sim_pfm.c; PM ADL/events/
 * alderlake_gracemont_core.json V1.40, facts §9.3-9.4).  Counters 0-5 but
 * load latency, 0xD0/0x05 on PMC0-1 only (the json's "0,1", the kernel's
 * 0x5d0 -> 0x3), which counts tagged loads with PEBS_EN alone.
 */
static const struct sim_event grt_events[] = {
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL6, "CPU_CLK_UNHALTED.CORE_P", NULL, NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL6, "INST_RETIRED.ANY_P", NULL, NULL },
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL6, "MEM_UOPS_RETIRED.ALL_LOADS", NULL, NULL },
	{ 0xd0, 0x05, SIM_EV_LOAD_LAT, ALL2, "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", NULL, NULL },
	/* OCR on RSP_0 (umask 0x01) and RSP_1 (0x02) (facts §9.4) */
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL6, "OCR (MSR 0x1a6)", NULL, NULL },
	{ 0xb7, 0x02, SIM_EV_RSP1, ALL6, "OCR (MSR 0x1a7)", NULL, NULL },
	/* "modified data was forwarded from another core or module" */
	{ 0xd1, 0x20, SIM_EV_HITM_LOADS, ALL6, "MEM_LOAD_UOPS_RETIRED.HITM", NULL, NULL },
};

#define ALL8_CMT 0xff

/*
 * Crestmont, Sierra Forest 06_AF (no libpfm4 PMU: tests/test_sim_pfm.c
 * holds Intel's values; PM SRF/events/sierraforest_core.json V1.18,
 * GRR/events/grandridge_core.json V1.13, facts §9.3-9.5).  Load latency
 * 0xD0/0x05 on PMC0-1 only, with PEBS_EN; no retired-load HITM event on
 * Grand Ridge, so none is simulated: HITM through the offcore response.
 */
static const struct sim_event cmt_events[] = {
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL8_CMT, "CPU_CLK_UNHALTED.CORE_P", NULL, NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL8_CMT, "INST_RETIRED.ANY_P", NULL, NULL },
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL8_CMT, "MEM_UOPS_RETIRED.ALL_LOADS", NULL, NULL },
	{ 0xd0, 0x05, SIM_EV_LOAD_LAT, ALL2, "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", NULL, NULL },
	{ 0xb7, 0x01, SIM_EV_RSP0, ALL8_CMT, "OCR (MSR 0x1a6)", NULL, NULL },
	{ 0xb7, 0x02, SIM_EV_RSP1, ALL8_CMT, "OCR (MSR 0x1a7)", NULL, NULL },
};

/*
 * Lion Cove, the Core CPUs of Lunar Lake (facts §9.3-9.5, read here from PM
 * LNL/events/lunarlake_lioncove_core.json V1.26), on its 10 counters:
 * load latency 0xCD/0x01 on counters 2-9 (on PMC0-1 it counts nothing),
 * 0xD2/0x04 XSNP_HITM "HitM ... Hit-with-FWD is normally excluded",
 * 0xD2/0x02 XSNP_NO_FWD, 0x21/0x01 on any counter, 0x20/0x01 on 0-3.
 */
static const struct sim_event lnc_events[] = {
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL10, "CPU_CLK_UNHALTED.THREAD_P", NULL, NULL },
	{ 0xc0, 0x00, SIM_EV_INST, ALL10, "INST_RETIRED.ANY_P", NULL, NULL },
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL4, "MEM_INST_RETIRED.ALL_LOADS", NULL, NULL },
	{ 0xcd, 0x01, SIM_EV_LOAD_LAT, 0x3fc, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_N", NULL, NULL },
	{ 0xd2, 0x02, SIM_EV_HIT_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_NO_FWD", NULL, NULL },
	{ 0xd2, 0x04, SIM_EV_HITM_LOADS, ALL4, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", NULL, NULL },
	{ 0x21, 0x01, SIM_EV_OFF_REQ, ALL10, "OFFCORE_REQUESTS.DEMAND_DATA_RD", NULL, NULL },
	{ 0x20, 0x01, SIM_EV_OFF_OUTST, ALL4, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD", NULL, NULL },
};

/*
 * Skymont, the Atom CPUs of Lunar Lake (PM LNL/events/lunarlake_skymont_core.json
 * V1.26): no snoop event at all; load latency 0xD0/0x05 on counters 0-1.
 */
#define SKT_LNL_EVENTS                                                                  \
	{ 0x3c, 0x00, SIM_EV_CYCLES, ALL8_CMT, "CPU_CLK_UNHALTED.CORE_P", NULL, NULL },         \
	{ 0xc0, 0x00, SIM_EV_INST, ALL8_CMT, "INST_RETIRED.ANY_P", NULL, NULL },                \
	{ 0xd0, 0x81, SIM_EV_LOADS, ALL8_CMT, "MEM_UOPS_RETIRED.ALL_LOADS", NULL, NULL },       \
	{ 0xd0, 0x05, SIM_EV_LOAD_LAT, ALL2, "MEM_UOPS_RETIRED.LOAD_LATENCY_GT_N", NULL, NULL }
static const struct sim_event skt_lnl_events[] = { SKT_LNL_EVENTS };

/*
 * Skymont, the Atom CPUs of Arrow Lake-S/HX and -H (PM ARL/events/
 * arrowlake_skymont_core.json V1.20): Lunar Lake's, and one snoop event,
 * MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM 0xD4/0x08 on counters 0-7:
 * loads the L3 served from a line another core held modified.  The L3
 * is behind the module's L2, so a line the module partner modified (the
 * shared L2 serves it) is not among them (facts §9.4).
 */
static const struct sim_event skt_arl_events[] = {
	SKT_LNL_EVENTS,
	{ 0xd4, 0x08, SIM_EV_L3_HITM_LOADS, ALL8_CMT, "MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM",
	  NULL, NULL },
};

/*
 * Crestmont, the low-power Atom CPUs of Arrow Lake-H on the SoC tile (PM
 * ARL/events/arrowlake_crestmont_core.json V1.20, mapfile 06_C5
 * 0x20,0x000002 LowPower_Atom; facts §9.4): cycles, instructions, loads
 * and load latency 0xD0/0x05 on counters 0-1, and nothing else this
 * simulator counts: no OCR 0xB7 (Meteor Lake's Crestmont has it), no
 * 0xD4 snoop event (the compute tile's Skymont has it).  They do not
 * share the compute tile's L3, so no snoop of theirs is counted there.
 */
static const struct sim_event cmt_lpe_events[] = { SKT_LNL_EVENTS };

/* Sierra Forest with two packages: the remote loads (facts §9.4: 0xD3/0x04, 0x08). */
static const struct sim_event cmt_server_events[] = {
	{ 0xd3, 0x04, SIM_EV_RHIT_LOADS, ALL8_CMT, "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_NONM",
	  NULL, NULL },
	{ 0xd3, 0x08, SIM_EV_RHITM_LOADS, ALL8_CMT, "MEM_LOAD_UOPS_L3_MISS_RETIRED.REMOTE_FWD_HITM",
	  NULL, NULL },
};

/*
 * Offcore-response values documented as meaningful, with what the decoder
 * below counts for them (clean, hitm, rest, outstanding weights).
 */

/* Nehalem: facts §5.1 and §5.5 (PM NHM-EP MSRValue), bit 14 LOCAL_DRAM (K-core, PFM nhm). */
static const struct sim_rsp_doc nhm_rsp[] = {
	{ 0, 0xff01, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 0, 0x0801, 0, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_HITM", NULL, 0, 0, 1, 0 },
	{ 0, 0x1001, 0, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_FWD", NULL, 0, 1, 0, 0 },
	{ 0, 0x0201, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HIT_SNP", NULL, 0, 0, 0, 0 },
	{ 0, 0x0401, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HITM", NULL, 0, 0, 0, 0 },
	{ 0, 0x0101, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:UNCORE_HIT", NULL, 0, 0, 0, 0 },
	{ 0, 0x4001, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM", NULL, 0, 0, 0, 0 },
	{ 0, 0x6001, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_DRAM:LOCAL_DRAM", NULL, 0, 0, 0, 0 },
	{ 0, 0xf801, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_LLC_MISS", NULL, 0, 1, 1, 0 },
};

/*
 * Westmere-EP: facts §5.1/§5.5.  libpfm4's wsm_dp names bit 14
 * OTHER_LLC_MISS and bit 12 LOCAL_DRAM_AND_REMOTE_CACHE_HIT, where the
 * kernel and the WSM-EP-DP json call bit 14 LOCAL_DRAM: the simulator
 * follows the json (DRAM reads answer on bit 14).  Bit 12 is
 * REMOTE_CACHE_FWD in the json and libpfm4 wsm: its rows are checked there.
 */
static const struct sim_rsp_doc wsm_rsp[] = {
	{ 0, 0xff01, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 0, 0x0801, 0, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_HITM", NULL, 0, 0, 1, 0 },
	{ 0, 0x1001, 0, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_CACHE_FWD", "wsm", 0, 1, 0, 0 },
	{ 1, 0x0801, 0, 0, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:REMOTE_CACHE_HITM", NULL, 0, 0, 1, 0 },
	{ 1, 0x1001, 0, 0, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:REMOTE_CACHE_FWD", "wsm", 0, 1, 0, 0 },
	{ 0, 0x0201, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HIT_SNP", NULL, 0, 0, 0, 0 },
	{ 0, 0x0401, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_CORE_HITM", NULL, 0, 0, 0, 0 },
	{ 0, 0x0101, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:UNCORE_HIT", NULL, 0, 0, 0, 0 },
	{ 0, 0x4001, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OTHER_LLC_MISS", NULL, 0, 0, 0, 0 },
	{ 0, 0xf801, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_LLC_MISS", NULL, 0, 1, 1, 0 },
	{ 1, 0xff01, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 1, 0x0201, 1, 0, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HIT_SNP", NULL, 0, 0, 0, 0 },
	{ 1, 0x0401, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:OTHER_CORE_HITM", NULL, 0, 0, 0, 0 },
	{ 1, 0xf801, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_LLC_MISS", NULL, 0, 1, 1, 0 },
};

/*
 * Silvermont/Airmont: facts §5.3/§5.5 (PM SLM MSRValue).  libpfm4's slm
 * adds ANY_RESPONSE (bit 16, the catch-all) to snoop selections, and has no
 * OUTSTANDING umask: that row is checked against glm, which has the same bit.
 */
static const struct sim_rsp_doc slm_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 0, 0, 1 },
	{ 0, 0x0400000001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_HIT", NULL, B(16), 0, 0, 0 },
	{ 0, 0x1000000001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_HITM", NULL, B(16), 0, 0, 0 },
	{ 0, 0x0200000001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_MISS", NULL, B(16), 0, 0, 0 },
	{ 0, 0x0080000001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_NONE", NULL, B(16), 0, 0, 0 },
	{ 0, 0x1680000001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:SNP_NONE:SNP_MISS:SNP_HIT:SNP_HITM",
	  NULL, B(16), 0, 0, 0 },
	{ 0, 0x4000000001ULL, 0, 0, 0, 1, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING", "glm", 0, 0, 0, 0 },
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 0, 0, 1 },
	{ 1, 0x0400000001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_HIT", NULL, B(16), 0, 0, 0 },
	{ 1, 0x1000000001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_HITM", NULL, B(16), 0, 0, 0 },
	/* L2_MISS.ANY (PM SLM matrix 0x1680000000): every read that missed the L2 */
	{ 1, 0x1680000001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:SNP_NONE:SNP_MISS:SNP_HIT:SNP_HITM",
	  NULL, B(16), 0, 0, 0 },
};

/* Goldmont/Goldmont Plus: facts §5.4/§5.5 (PM GLM/GLP MSRValue). */
static const struct sim_rsp_doc glm_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 0, 0, 1 },
	{ 0, 0x0400000001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HIT_OTHER_CORE_NO_FWD",
	  NULL, B(16), 0, 0, 0 },
	{ 0, 0x1000000001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_HITM_OTHER_CORE", NULL, B(16), 0, 0, 0 },
	{ 0, 0x0200000001ULL, 0, 0, 1, 0,
	  "OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_SNP_MISS_OR_NO_SNOOP_NEEDED", NULL, B(16), 0, 0, 0 },
	{ 0, 0x3600000001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L2_MISS_SNP_ANY", NULL, B(16), 0, 0, 0 },
	{ 0, 0x4000000001ULL, 0, 0, 0, 1, "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING", NULL, 0, 0, 0, 0 },
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 0, 0, 1 },
	{ 1, 0x1000000001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:L2_MISS_HITM_OTHER_CORE", NULL, B(16), 0, 0, 0 },
	/* L2_MISS.ANY (PM GLM matrix 0x3600000000) */
	{ 1, 0x3600000001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:L2_MISS_SNP_ANY", NULL, B(16), 0, 0, 0 },
};

/*
 * Haswell: facts §5.2/§5.5.  libpfm4's hsw L3_HIT is bits 18-20 where the
 * json's is 18-21 (0x3C0000); both are "an L3-hit supplier" here.
 */
static const struct sim_rsp_doc hsw_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 0, 0x04001c0001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NO_FWD", NULL, 0, 0, 0, 0 },
	{ 0, 0x10001c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM", NULL, 0, 0, 0, 0 },
	{ 0, 0x01801c0001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NONE:SNP_NOT_NEEDED",
	  NULL, 0, 0, 0, 0 },
	{ 0, 0x3f80400001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS:SNP_ANY", NULL, 0, 0, 0, 0 },
	{ 0, 0x3f801c0001ULL, 1, 1, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_ANY", NULL, 0, 0, 0, 0 },
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 1, 0x10001c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM", NULL, 0, 0, 0, 0 },
};

/*
 * Sandy Bridge / Ivy Bridge: the Haswell layout (facts §5.2), suppliers
 * named LLC_* (PM SNB/JKT/IVB/IVT matrix: LLC_HIT 0x3c << 16,
 * LLC_MISS.LOCAL_DRAM 0x0600400000: bit 22).  libpfm4 snb/ivb names.
 */
static const struct sim_rsp_doc snb_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 0, 0x04003c0001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:SNP_NO_FWD",
	  NULL, 0, 0, 0, 0 },
	{ 0, 0x10003c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:HITM", NULL, 0, 0, 0, 0 },
	{ 0, 0x01803c0001ULL, 0, 0, 0.5, 0,
	  "OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_HITMESF:SNP_NONE:SNP_NOT_NEEDED", NULL, 0, 0, 0, 0 },
	/* libpfm4 names bit 22 LLC_MISS_LOCAL_DRAM on snb, LLC_MISS_LOCAL on ivb: checked on snb */
	{ 0, 0x3f80400001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:SNP_ANY",
	  "snb", 0, 0, 0, 0 },
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 1, 0x04003c0001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_HITMESF:SNP_NO_FWD",
	  NULL, 0, 0, 0, 0 },
	{ 1, 0x10003c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_HITMESF:HITM", NULL, 0, 0, 0, 0 },
};

/*
 * Skylake client: the Haswell layout with L3_MISS_LOCAL at bit 26 and an
 * L3 hit named by bits 18-20 (PM skylake_core.json:
 * DEMAND_DATA_RD.L3_HIT.SNOOP_HIT_NO_FWD 0x4001C0001, SNOOP_HITM
 * 0x10001C0001, L3_MISS_LOCAL_DRAM.SNOOP_HITM 0x1004000001).
 */
static const struct sim_rsp_doc skl_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 0, 0x04001c0001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HIT_NO_FWD",
	  NULL, 0, 0, 0, 0 },
	{ 0, 0x10001c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM", NULL, 0, 0, 0, 0 },
	{ 0, 0x01801c0001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NONE:SNP_NOT_NEEDED",
	  NULL, 0, 0, 0, 0 },
	{ 0, 0x3f84000001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS_LOCAL:SNP_ANY",
	  NULL, 0, 0, 0, 0 },
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 1, 0x10001c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM", NULL, 0, 0, 0, 0 },
};

/* Broadwell: as Haswell with L3_MISS_LOCAL at bit 26 (facts §5.2, K-core BDW_L3_MISS_LOCAL). */
static const struct sim_rsp_doc bdw_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 0, 0x04003c0001ULL, 1, 0, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NO_FWD", NULL, 0, 0, 0, 0 },
	{ 0, 0x10003c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_HITM", NULL, 0, 0, 0, 0 },
	{ 0, 0x01803c0001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_NONE:SNP_NOT_NEEDED",
	  NULL, 0, 0, 0, 0 },
	{ 0, 0x3f84000001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS:SNP_ANY", NULL, 0, 0, 0, 0 },
	{ 0, 0x0204000001ULL, 0, 0, 0.5, 0, "OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS:SNP_MISS", NULL, 0, 0, 0, 0 },
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:ANY_RESPONSE", NULL, 0, 1, 1, 0 },
	{ 1, 0x10003c0001ULL, 0, 1, 0, 0, "OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_HIT:SNP_HITM", NULL, 0, 0, 0, 0 },
};


/*
 * Tremont: the json's MSRValues (PM SNR, EHL; facts §9.4, §9.5).  libpfm4
 * tmt knows ANY_RESPONSE only; the rest is checked against Intel's values
 * (tests/test_sim_pfm.c).
 */
static const struct sim_rsp_doc tnt_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, "OCR:DEMAND_DATA_RD_ANY_RESPONSE", NULL, 0, 0, 0, 0 },
	{ 0, 0x04003C0001ULL, 1, 0, 0, 0, NULL, NULL, 0, 0, 0, 0 },     /* ...L3_HIT.SNOOP_HIT_NO_FWD */
	{ 0, 0x10003C0001ULL, 0, 1, 0, 0, NULL, NULL, 0, 0, 0, 0 },     /* ...L3_HIT.SNOOP_HITM */
	{ 0, 0x8000000000000001ULL, 0, 0, 0, 1, NULL, NULL, 0, 0, 0, 0 },       /* ...OUTSTANDING */
	{ 1, 0x0000010001ULL, 1, 1, 1, 0, "OFFCORE_RESPONSE_1:DEMAND_DATA_RD_ANY_RESPONSE", NULL, 0, 0, 0, 0 },
	{ 1, 0x04003C0001ULL, 1, 0, 0, 0, NULL, NULL, 0, 0, 0, 0 },
	{ 1, 0x10003C0001ULL, 0, 1, 0, 0, NULL, NULL, 0, 0, 0, 0 },
};

/*
 * Crestmont: the json's MSRValues (PM SRF, GRR), read as Gracemont's (L3
 * hit 18-21, snoop results 31-36; facts §9.4).  The L3-hit HITM is that of
 * another module: the module's own cores are served behind the L2.
 */
static const struct sim_rsp_doc cmt_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, NULL, NULL, 0, 1, 1, 0 },     /* OCR.DEMAND_DATA_RD.ANY_RESPONSE */
	{ 0, 0x10003C0001ULL, 0, 1, 0, 0, NULL, NULL, 0, 0, 0, 0 },     /* ...L3_HIT.SNOOP_HITM */
	{ 1, 0x10003C0001ULL, 0, 1, 0, 0, NULL, NULL, 0, 0, 0, 0 },
};

/*
 * Gracemont: the json's MSRValues (PM ADL gracemont json): L3_HIT is bits
 * 18-21 and the snoop results 31-36 as on Haswell (facts §9.4), so the
 * Haswell decoder reads them.  No libpfm4 PMU: tests/test_sim_pfm.c holds
 * Intel's values for these rows.
 */
static const struct sim_rsp_doc grt_rsp[] = {
	{ 0, 0x0000010001ULL, 1, 1, 1, 0, NULL, NULL, 0, 1, 1, 0 },     /* OCR.DEMAND_DATA_RD.ANY_RESPONSE */
	{ 0, 0x04003C0001ULL, 1, 0, 0, 0, NULL, NULL, 0, 0, 0, 0 },     /* ...L3_HIT.SNOOP_HIT_NO_FWD */
	{ 0, 0x10003C0001ULL, 0, 1, 0, 0, NULL, NULL, 0, 0, 0, 0 },     /* ...L3_HIT.SNOOP_HITM */
	{ 1, 0x04003C0001ULL, 1, 0, 0, 0, NULL, NULL, 0, 0, 0, 0 },
	{ 1, 0x10003C0001ULL, 0, 1, 0, 0, NULL, NULL, 0, 0, 0, 0 },
};

/*
 * The machines.  CPUID leaf 0xA per model: facts §1.2 (LCP dumps).  Leaf 1
 * ECX/EDX and steppings from the shared/cpuid/table dumps of the same model
 * (Broadwell 06_3D has none: ECX/EDX of the 06_47 dump, stepping 4 is
 * arbitrary).  PERF_CAPABILITIES: facts §2.4.  PEBS_ENABLE bits: facts §3.
 * Offcore masks and sharing: facts §4.5.  Anything else is derived in sim.c.
 */
static const struct sim_hw hw_nehalem = {
	.name = "nehalem", .pfm_pmu = "nhm", .model = 0x1a, .stepping = 4,
	.cpuid1_ecx = 0x0098e3bd, .cpuid1_edx = 0xbfebfbff,     /* i7-920 dump */
	.leaf_a = { 0x07300403, 0x00000040, 0, 0x00000603 },    /* facts §1.2 06_1A */
	.brand = "Intel(R) simulated Nehalem (lattop simulator)",
	.perf_caps = CAP_FMT(1) | CAP_TRAP,                     /* "PEBS fmt1+", no full-width */
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0xfULL | (0xfULL << 32),                  /* facts §3: 0-3, LL_EN 32-35 */
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 1, .rsp_valid = { 0xffff, 0 },                  /* K-core intel_nehalem_extra_regs */
	.layout = SIM_RSP_NHM, .rsp_scope = SIM_SCOPE_CORE,     /* shared by HT siblings (K-core) */
	.events = ROWS(nhm_events), .rsp_docs = ROWS(nhm_rsp),
	.multi_package = true, .server_model = 0x1a, .server_stepping = 4,   /* NHM-EP: the model above */
};

static const struct sim_hw hw_westmere = {
	.name = "westmere", .pfm_pmu = "wsm_dp", .model = 0x2c, .stepping = 2,
	.cpuid1_ecx = 0x029ee3ff, .cpuid1_edx = 0xbfebfbff,     /* X5650 dump */
	.leaf_a = { 0x07300403, 0x00000004, 0, 0x00000603 },    /* facts §1.2 06_2C */
	.brand = "Intel(R) simulated Westmere (lattop simulator)",
	.perf_caps = CAP_FMT(1) | CAP_TRAP,
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0xfULL | (0xfULL << 32),
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 2, .rsp_valid = { 0xffff, 0xffff },             /* K-core intel_westmere_extra_regs */
	.layout = SIM_RSP_NHM, .rsp_scope = SIM_SCOPE_CORE,
	.events = ROWS(wsm_events), .rsp_docs = ROWS(wsm_rsp),
	.multi_package = true, .server_model = 0x2c, .server_stepping = 2,  /* WSM-EP: the model above */
};

static const struct sim_hw hw_silvermont = {
	.name = "silvermont", .pfm_pmu = "slm", .model = 0x4d, .stepping = 8,
	.cpuid1_ecx = 0x43d8e3bf, .cpuid1_edx = 0xbfebfbff,     /* C2750 dump */
	.leaf_a = { 0x07280203, 0, 0, 0x00004503 },             /* facts §1.2 06_4D */
	.brand = "Intel(R) simulated Silvermont (lattop sim)",
	.perf_caps = CAP_FMT(2) | CAP_TRAP | CAP_FW_WRITE,      /* "PEBS fmt2+ ... full-width" */
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0x1,                                      /* PMC0 only, no LL_EN */
	.nrsp = 2, .rsp_valid = { 0x768005ffffULL, 0x368005ffffULL },  /* K-core intel_slm_extra_regs */
	.layout = SIM_RSP_SLM, .rsp_scope = SIM_SCOPE_MODULE,   /* SDM16 p.661 */
	.events = ROWS(slm_events), .rsp_docs = ROWS(slm_rsp),
	.module_cores = 2,                                      /* two cores share an L2 (facts §8.2) */
};

static const struct sim_hw hw_airmont = {
	.name = "airmont", .pfm_pmu = "slm", .model = 0x4c, .stepping = 3,
	.cpuid1_ecx = 0x43d8e3bf, .cpuid1_edx = 0xbfebfbff,     /* N3150 dump */
	.leaf_a = { 0x07280203, 0, 0, 0x00000503 },             /* facts §1.2 06_4C */
	.brand = "Intel(R) simulated Airmont (lattop simulator)",
	.perf_caps = CAP_FMT(2) | CAP_TRAP | CAP_FW_WRITE,
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0x1,
	.nrsp = 2, .rsp_valid = { 0x768005ffffULL, 0x368005ffffULL },
	.layout = SIM_RSP_SLM, .rsp_scope = SIM_SCOPE_MODULE,
	.events = ROWS(slm_events), .rsp_docs = ROWS(slm_rsp),
	.module_cores = 2,                                      /* two cores share an L2 (facts §8.2) */
};

static const struct sim_hw hw_goldmont = {
	.name = "goldmont", .pfm_pmu = "glm", .model = 0x5c, .stepping = 9,
	.cpuid1_ecx = 0x4ff8ebbf, .cpuid1_edx = 0xbfebfbff,     /* J3455 dump */
	.leaf_a = { 0x07300404, 0, 0, 0x00000603 },             /* facts §1.2 06_5C */
	.brand = "Intel(R) simulated Goldmont (lattop simulator)",
	/* PEBS fmt 3 (SDM16 p.668); trap bit: no evidence, left clear; FW_WRITE expected (facts §2.4) */
	.perf_caps = CAP_FMT(3) | CAP_FW_WRITE,
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0x1,
	.nrsp = 2, .rsp_valid = { 0x760005ffbfULL, 0x360005ffbfULL },  /* K-core intel_glm_extra_regs */
	.layout = SIM_RSP_GLM, .rsp_scope = SIM_SCOPE_CORE,     /* one thread per core */
	.events = ROWS(glm_events), .rsp_docs = ROWS(glm_rsp),
	.module_cores = 2,                                      /* two cores share an L2 (facts §8.2) */
};

static const struct sim_hw hw_goldmont_plus = {
	.name = "goldmont-plus", .pfm_pmu = "glm", .model = 0x7a, .stepping = 1,
	.cpuid1_ecx = 0x4ff8ebbf, .cpuid1_edx = 0xbfebfbff,     /* J4105 dump */
	.leaf_a = { 0x07300404, 0, 0, 0x00008603 },             /* facts §1.2 06_7A */
	.brand = "Intel(R) simulated Goldmont Plus (lattop sim)",
	.perf_caps = CAP_FMT(3) | CAP_TRAP | CAP_FW_WRITE,      /* "PEBS fmt3+ ... full-width" */
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0xfULL | (0x7ULL << 32),                  /* facts §3: PMC0-3 + fixed 32+i */
	.nrsp = 2, .rsp_valid = { 0x760005ffbfULL, 0x360005ffbfULL },
	.layout = SIM_RSP_GLM, .rsp_scope = SIM_SCOPE_CORE,
	.events = ROWS(glm_events), .rsp_docs = ROWS(glm_rsp),
	.module_cores = 2,                                      /* two cores share an L2 (facts §8.2) */
};

static const struct sim_hw hw_haswell = {
	.name = "haswell", .pfm_pmu = "hsw", .model = 0x3c, .stepping = 3,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* i7-4770 dump */
	.leaf_a = { 0x07300403, 0, 0, 0x00000603 },             /* facts §1.2 06_3C */
	.brand = "Intel(R) simulated Haswell (lattop simulator)",
	.perf_caps = CAP_FMT(2) | CAP_TRAP | CAP_FW_WRITE,      /* "PEBS fmt2+ ... full-width" */
	.evtsel_valid = EVTSEL_TSX,
	.pebs_valid = 0xfULL | (0xfULL << 32),                  /* facts §3: NHM layout */
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 2, .rsp_valid = { 0x3fffff8fffULL, 0x3fffff8fffULL },  /* K-core (snbep extra regs) */
	.layout = SIM_RSP_HSW, .l3_miss_bit = 22, .rsp_scope = SIM_SCOPE_THREAD,
	/*
	 * Erratum HSD29 (facts §6, §8.6; like SNB BJ122, IVB BV98): with HT on,
	 * MEM_UOPS_RETIRED (0xD0), MEM_LOAD_UOPS_RETIRED (0xD1),
	 * MEM_LOAD_UOPS_L3_HIT_RETIRED (0xD2) and MEM_LOAD_UOPS_L3_MISS_RETIRED
	 * (0xD3) miscount unless the sibling's same counter is idle (K-core
	 * intel_ht_bug, INTEL_EXCLEVT_CONSTRAINT; MCC).  Broadwell has no such
	 * erratum in K-core (facts §6): not set there.
	 */
	.ht_bug_first = 0xd0, .ht_bug_last = 0xd3,
	.events = ROWS(hsw_events), .rsp_docs = ROWS(hsw_rsp),
	.multi_package = true, .server_model = 0x3f, .server_stepping = 2,  /* HSX (facts §1.1) */
	.server_events = ROWS(hsx_events),
};

static const struct sim_hw hw_broadwell = {
	.name = "broadwell", .pfm_pmu = "bdw", .model = 0x3d, .stepping = 4,
	.cpuid1_ecx = 0x7ffafbbf, .cpuid1_edx = 0xbfebfbff,     /* i7-5775C (06_47) dump */
	.leaf_a = { 0x07300403, 0, 0, 0x00000603 },             /* facts §1.2 06_3D */
	.brand = "Intel(R) simulated Broadwell (lattop simulator)",
	.perf_caps = CAP_FMT(2) | CAP_TRAP | CAP_FW_WRITE,      /* SDM16 Table 18-54: HSW/BDW fmt 2 */
	.evtsel_valid = EVTSEL_TSX,
	.pebs_valid = 0xfULL | (0xfULL << 32),
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 2, .rsp_valid = { 0x3fffff8fffULL, 0x3fffff8fffULL },
	.layout = SIM_RSP_HSW, .l3_miss_bit = 26, .rsp_scope = SIM_SCOPE_THREAD,
	.events = ROWS(hsw_events), .rsp_docs = ROWS(bdw_rsp),
	.multi_package = true, .server_model = 0x4f, .server_stepping = 1,  /* BDX (facts §1.1) */
	.server_events = ROWS(bdx_events),
};

/*
 * Sandy Bridge and Ivy Bridge.  CPUID leaf 1 and 0xA from libcpuid dumps
 * (github anrieff/libcpuid tests/intel/x86-64/sandy-bridge/: i7-2600K
 * 06_2A, i7-3960X 06_2D, i7-3770K 06_3A; E5-2697 v2 06_3E): version 3, 4
 * counters per thread with HT on (8 with HT off, as the i5-2400 shows), 48
 * bits.  PEBS record format 1 with the trap bit and full-width writes:
 * SDM16 18.9.3 (full-width writes arrive with Sandy Bridge), the kernel's
 * "PEBS fmt1+" boot line on these parts (DMESG; UNVERIFIED here).
 * IA32_PEBS_ENABLE adds PS_EN, bit 63 (facts §3: SNB's PS_EN; K-ds intel_pmu_pebs_enable).
 * MSR_OFFCORE_RSP_x: the client mask 0x3f807f8fff (K-core
 * intel_snb_extra_regs) for both parts.  The HT bug: BJ122 / BV98, K-core
 * intel_ht_bug on all four models (0xd0-0xd3).  Microcode: 06_2A stepping
 * 7 needs 0x28 for PEBS, 06_2D stepping 7 0x70c (K-core pebs_ucodes[]);
 * the revisions here are above those (the last ones Intel shipped for
 * these steppings, as far as known: UNVERIFIED, any above works).
 */
static const struct sim_hw hw_sandybridge = {
	.name = "sandybridge", .pfm_pmu = "snb", .model = 0x2a, .stepping = 7,
	.microcode = 0x2f,
	.cpuid1_ecx = 0x1f9ae3bf, .cpuid1_edx = 0xbfebfbff,     /* i7-2600K dump */
	.leaf_a = { 0x07300403, 0, 0, 0x00000603 },             /* i7-2600K dump */
	.brand = "Intel(R) simulated Sandy Bridge (lattop sim)",
	.perf_caps = CAP_FMT(1) | CAP_TRAP | CAP_FW_WRITE,
	.evtsel_valid = EVTSEL_ARCH,                            /* no TSX before Haswell */
	.pebs_valid = 0xfULL | (0xfULL << 32) | B(63),
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 2, .rsp_valid = { 0x3f807f8fffULL, 0x3f807f8fffULL },
	.layout = SIM_RSP_HSW, .l3_miss_bit = 22, .rsp_scope = SIM_SCOPE_THREAD,
	.ht_bug_first = 0xd0, .ht_bug_last = 0xd3,
	.events = ROWS(snb_events), .rsp_docs = ROWS(snb_rsp),
	.multi_package = true, .server_model = 0x2d, .server_stepping = 7,   /* Sandy Bridge-EP */
	.server_microcode = 0x710,
};

static const struct sim_hw hw_ivybridge = {
	.name = "ivybridge", .pfm_pmu = "ivb", .model = 0x3a, .stepping = 9,
	.microcode = 0x21,
	.cpuid1_ecx = 0x7f9ae3bf, .cpuid1_edx = 0xbfebfbff,     /* i7-3770K dump */
	.leaf_a = { 0x07300403, 0, 0, 0x00000603 },             /* i7-3770K dump */
	.brand = "Intel(R) simulated Ivy Bridge (lattop simulator)",
	.perf_caps = CAP_FMT(1) | CAP_TRAP | CAP_FW_WRITE,
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0xfULL | (0xfULL << 32) | B(63),
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 2, .rsp_valid = { 0x3f807f8fffULL, 0x3f807f8fffULL },
	.layout = SIM_RSP_HSW, .l3_miss_bit = 22, .rsp_scope = SIM_SCOPE_THREAD,
	.ht_bug_first = 0xd0, .ht_bug_last = 0xd3,
	.events = ROWS(snb_events), .rsp_docs = ROWS(snb_rsp),
	.multi_package = true, .server_model = 0x3e, .server_stepping = 4,   /* E5-2697 v2 dump */
	.server_microcode = 0x42e,
	.server_events = ROWS(ivt_events),
};

/*
 * Skylake: a version 4 PMU (the counter freeze of sim.c applies).  CPUID
 * leaf 1 and 0xA from libcpuid dumps (github anrieff/libcpuid
 * tests/intel/x86-64/skylake/: i7-6700K 06_5E, i9-7980XE 06_55): EAX
 * 0x07300404, EDX 0x603.  PEBS format 3 with the trap bit, full-width
 * writes (the kernel's "PEBS fmt3+ ... full-width counters" boot line:
 * DMESG, UNVERIFIED here).  IA32_PEBS_ENABLE: PEBS_EN 0-3, LL_EN 32-35
 * (K-ds: LL_EN below version 5).  MSR_OFFCORE_RSP_x mask 0x3fffff8fff
 * (K-core intel_skl_extra_regs).  No HT bug (none in K-core for Skylake).
 * IN_TX/IN_TX_CP exist (TSX).  The microcode revisions are arbitrary
 * (nothing in lattop keys on them for Skylake).  The microcode's use of
 * PMC3 under TSX_FORCE_ABORT is not simulated: there are no transactions
 * here to clobber it.
 */
static const struct sim_hw hw_skylake = {
	.name = "skylake", .pfm_pmu = "skl", .model = 0x5e, .stepping = 3,
	.microcode = 0xf0,
	.cpuid1_ecx = 0x7ffafbbf, .cpuid1_edx = 0xbfebfbff,     /* i7-6700K dump */
	.leaf_a = { 0x07300404, 0, 0, 0x00000603 },             /* i7-6700K dump */
	.brand = "Intel(R) simulated Skylake (lattop simulator)",
	.perf_caps = CAP_FMT(3) | CAP_TRAP | CAP_FW_WRITE,
	.evtsel_valid = EVTSEL_TSX,
	.pebs_valid = 0xfULL | (0xfULL << 32),
	.has_ld_lat = true, .ht = true, .any_thread = true,
	.nrsp = 2, .rsp_valid = { 0x3fffff8fffULL, 0x3fffff8fffULL },
	.layout = SIM_RSP_HSW, .l3_miss_bit = 26, .rsp_scope = SIM_SCOPE_THREAD,
	.events = ROWS(skl_events), .rsp_docs = ROWS(skl_rsp),
	.multi_package = true, .server_model = 0x55, .server_stepping = 4,   /* i9-7980XE dump */
	.server_microcode = 0x2006e05,
	.server_events = ROWS(skx_events),
};

/*
 * Ice Lake, Tiger Lake, Rocket Lake: perfmon version 5 (facts §9.1-9.2).
 * CPUID leaf 1 and 0xA from the dumps of ../shared/cpuid (LCP2 i7-1065G7
 * 06_7E, i7-1165G7 06_8C, i9-11900K 06_A7; ILX Gold 6336Y 06_6A): leaf 0xA
 * EAX 0x08300805, EBX 0, ECX 0xF, EDX 0x8604 on all four: 8 counters per
 * thread with HT on, 48 bits, fixed counters 0-3 (the fourth, SLOTS, is
 * not simulated: this simulator has three) and EDX bit 15, AnyThread
 * deprecated.  IA32_PEBS_ENABLE: PEBS_EN 0-7, bits 32-35 PEBS on the
 * fixed counters, no LL_EN (facts §9.2).  PERF_CAPABILITIES: PEBS format 4,
 * full-width writes, PEBS baseline (14), perf metrics (15) (facts §9.2).
 * MSR_OFFCORE_RSP_x mask 0x3fffffbfff (K612 intel_icl_extra_regs, facts
 * §9.4), per thread.  No HT bug (facts §9.4).  Microcode revisions
 * arbitrary (no PEBS microcode gate after Skylake, facts §9.3).
 */
#define ICL_COMMON                                                              \
	.leaf_a = { 0x08300805, 0, 0xf, 0x00008604 },   /* every dump above */  \
	.perf_caps = CAP_FMT(4) | CAP_FW_WRITE | B(14) | B(15),                 \
	.evtsel_valid = EVTSEL_ARCH,                                            \
	.pebs_valid = 0xffULL | (0xfULL << 32),                                 \
	.has_ld_lat = true, .pebs_fixed = true, .ht = true,                     \
	.nrsp = 2, .layout = SIM_RSP_HSW, .l3_miss_bit = 26,                    \
	.rsp_scope = SIM_SCOPE_THREAD

static const struct sim_hw hw_icelake = {
	.name = "icelake", .pfm_pmu = "icl", .model = 0x7e, .stepping = 5,
	.microcode = 0xb6,
	.cpuid1_ecx = 0x7ffafbbf, .cpuid1_edx = 0xbfebfbff,     /* i7-1065G7 dump */
	.brand = "Intel(R) simulated Ice Lake (lattop simulator)",
	ICL_COMMON,
	.rsp_valid = { 0x3fffffbfffULL, 0x3fffffbfffULL },      /* K612 intel_icl_extra_regs */
	.events = ROWS(icl_events),
	.multi_package = true, .server_model = 0x6a, .server_stepping = 6,  /* Gold 6336Y dump */
	.server_microcode = 0xd000389,
	.server_events = ROWS(icx_events),
};

static const struct sim_hw hw_tigerlake = {
	.name = "tigerlake", .pfm_pmu = "icl", .model = 0x8c, .stepping = 1,
	.microcode = 0xa4,
	.cpuid1_ecx = 0x7ffafbbf, .cpuid1_edx = 0xbfebfbff,     /* i7-1165G7 dump */
	.brand = "Intel(R) simulated Tiger Lake (lattop simulator)",
	ICL_COMMON,
	.rsp_valid = { 0x3fffffbfffULL, 0x3fffffbfffULL },      /* K612 intel_icl_extra_regs */
	/*
	 * The ICL rows: the same codes, which TGL's json names XSNP_NO_FWD and
	 * XSNP_FWD.  XSNP_FWD also counts clean lines another core forwarded
	 * (facts §9.4); the profile has no such traffic, so here it counts
	 * the HITM loads: a reader of it as HITM is wrong on the real part.
	 */
	.events = ROWS(icl_events),
};

static const struct sim_hw hw_rocketlake = {
	.name = "rocketlake", .pfm_pmu = "icl", .model = 0xa7, .stepping = 1,
	.microcode = 0x5d,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* i9-11900K dump */
	.brand = "Intel(R) simulated Rocket Lake (lattop sim)",
	ICL_COMMON,
	.rsp_valid = { 0x3fffffbfffULL, 0x3fffffbfffULL },      /* K612 intel_icl_extra_regs */
	.events = ROWS(icl_events),     /* PM RKL: the ICL names and codes (facts §9.4) */
};

/*
 * Sapphire Rapids and Emerald Rapids: server parts, one model for one
 * package or more.  Leaf 1 and 0xA from the ILX dumps in ../shared/cpuid
 * (w7-2475X 06_8F stepping 8, Gold 5520+ 06_CF stepping 2): leaf 0xA as
 * Ice Lake's.  PEBS format 4 and above (facts §9.2: 5 later; 4 taken),
 * MSR_OFFCORE_RSP_x mask 0x3fffffffff (K612 intel_glc_extra_regs).
 * Microcode revisions arbitrary (nothing keys on them here).
 */
#define SPR_COMMON                                                              \
	ICL_COMMON,                                                             \
	.events = ROWS(spr_events),                                             \
	.multi_package = true, .server_events = ROWS(spr_server_events)

static const struct sim_hw hw_sapphirerapids = {
	.name = "sapphirerapids", .pfm_pmu = "spr", .model = 0x8f, .stepping = 8,
	.microcode = 0x2b000590,
	.cpuid1_ecx = 0x7ffefbff, .cpuid1_edx = 0xbfebfbff,     /* w7-2475X dump */
	.brand = "Intel(R) simulated Sapphire Rapids (lattop sim)",
	SPR_COMMON,
	.rsp_valid = { 0x3fffffffffULL, 0x3fffffffffULL },
	.server_model = 0x8f, .server_stepping = 8, .server_microcode = 0x2b000590,
};

static const struct sim_hw hw_emeraldrapids = {
	.name = "emeraldrapids", .pfm_pmu = "spr", .model = 0xcf, .stepping = 2,
	.microcode = 0x21000283,
	.cpuid1_ecx = 0x7ffefbff, .cpuid1_edx = 0xbfebfbff,     /* Gold 5520+ dump */
	.brand = "Intel(R) simulated Emerald Rapids (lattop sim)",
	SPR_COMMON,
	.rsp_valid = { 0x3fffffffffULL, 0x3fffffffffULL },
	.server_model = 0xcf, .server_stepping = 2, .server_microcode = 0x21000283,
};

/*
 * Tremont, Elkhart Lake 06_96.  Leaf 1 and 0xA from the J6412 dump (LCP2,
 * ../shared/cpuid): EAX 0x07300405, ECX 0x7, EDX 0x8603: version 5, 4
 * counters x 48 bits, fixed counters 0-2.  No SMT; four cores share an L2.
 * No load-latency facility: MSR_PEBS_LD_LAT_THRESHOLD does not exist
 * (facts §9.3).  IA32_PEBS_ENABLE: PMC0-3 and 32-34, the version 5 layout.
 * MSR_OFFCORE_RSP_x masks 0x800ff0ffffff9fff and 0xff0ffffff9fff (K612
 * intel_tnt_extra_regs: OUTSTANDING, bit 63, in RSP_0 only), per core
 * here (facts §9.10 item 5).
 */
static const struct sim_hw hw_tremont = {
	.name = "tremont", .pfm_pmu = "tmt", .model = 0x96, .stepping = 1,
	.microcode = 0x17,
	.cpuid1_ecx = 0x4ff8ebbf, .cpuid1_edx = 0xbfebfbff,     /* J6412 dump */
	.leaf_a = { 0x07300405, 0, 0x7, 0x00008603 },
	.brand = "Intel(R) simulated Tremont (lattop simulator)",
	.perf_caps = CAP_FMT(4) | CAP_FW_WRITE | B(14),
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0xfULL | (0x7ULL << 32),
	.pebs_fixed = true,
	.nrsp = 2, .rsp_valid = { 0x800ff0ffffff9fffULL, 0xff0ffffff9fffULL },
	.layout = SIM_RSP_TNT, .rsp_scope = SIM_SCOPE_CORE,
	.events = ROWS(tnt_events), .rsp_docs = ROWS(tnt_rsp),
	.module_cores = 4,
};

/*
 * Alder Lake-N 06_BE, Gracemont only.  Leaf 1 and 0xA from the i3-N305
 * dump (LCP2, ../shared/cpuid): EAX 0x07300605, ECX 0x7, EDX 0x8603:
 * version 5, 6 counters x 48 bits, fixed counters 0-2.  No SMT.  Four
 * cores share an L2 (a module).  IA32_PEBS_ENABLE: PEBS_EN 0-5, 32-34 the
 * fixed counters, no LL_EN (facts §9.2).  MSR_OFFCORE_RSP_x mask
 * 0x3fffffffff (K612 intel_grt_extra_regs, facts §9.4), per core here:
 * what the hardware shares in a module is UNVERIFIED (facts §9.10 item 5).
 */
static const struct sim_hw hw_gracemont = {
	.name = "gracemont", .pfm_pmu = NULL, .model = 0xbe, .stepping = 0,
	.microcode = 0x1a,
	.cpuid1_ecx = 0x7ffafbbf, .cpuid1_edx = 0xbfebfbff,
	.leaf_a = { 0x07300605, 0, 0x7, 0x00008603 },           /* i3-N305 dump */
	.brand = "Intel(R) simulated Gracemont (lattop sim)",
	.perf_caps = CAP_FMT(4) | CAP_FW_WRITE | B(14),
	.evtsel_valid = EVTSEL_ARCH,
	.pebs_valid = 0x3fULL | (0x7ULL << 32),
	.has_ld_lat = true, .pebs_fixed = true,
	.nrsp = 2, .rsp_valid = { 0x3fffffffffULL, 0x3fffffffffULL },
	.layout = SIM_RSP_HSW, .l3_miss_bit = 26, .rsp_scope = SIM_SCOPE_CORE,
	.events = ROWS(grt_events), .rsp_docs = ROWS(grt_rsp),
	.module_cores = 4,
	/* an Alder or Raptor Lake E-core's CPUID.1AH: Atom, native model 1 (facts §9.6) */
	.core_type = 0x20, .native = 1,
};

/*
 * Alder Lake and Raptor Lake, the hybrids (facts §9.1, §9.6): Golden Cove
 * (Raptor Cove) Core CPUs, then Gracemont Atom CPUs: hw_gracemont, Alder
 * Lake-N's cores, under the part's leaf 1 and brand.  CPUID from the dumps
 * in ../shared/cpuid (i9-12900K 06_97 stepping 2, i9-13900KF 06_B7
 * stepping 1): leaf 7 EDX[15] the hybrid flag, leaf 0x1A EAX 0x40000001 on
 * the Core CPUs and 0x20000001 on the Atom CPUs, and on both leaf 0xA EAX
 * 0x07300605, ECX 0x7, EDX 0x8603: the 6 general-purpose and 3 fixed
 * counters both types have.  A Core CPU has 8 general-purpose counters
 * (the kernel's ADL case adds 2, facts §9.6), which this simulator gives it
 * (ngp); its fourth fixed counter is not simulated (three here).  One
 * thread per core: the simulated hybrids have no Hyper-Threading.
 */
/* A client Golden Cove PMU, 8 counters: the Core CPUs of Alder, Raptor and Meteor Lake. */
#define GLC_CLIENT_PMU                                                          \
	.evtsel_valid = EVTSEL_ARCH,                                            \
	.pebs_valid = 0xffULL | (0x7ULL << 32),                                 \
	.has_ld_lat = true, .pebs_fixed = true,                                 \
	.nrsp = 2, .layout = SIM_RSP_HSW, .l3_miss_bit = 26,                    \
	.rsp_scope = SIM_SCOPE_THREAD,                                          \
	.rsp_valid = { 0x3fffffffffULL, 0x3fffffffffULL },  /* K612 intel_glc_extra_regs */ \
	.events = ROWS(spr_events)      /* ADL GLC json: SPR's codes, no 0xD3 remote (facts §9.4) */

#define ADL_CORE                                                                \
	.leaf_a = { 0x07300605, 0, 0x7, 0x00008603 },   /* both types alike */  \
	.ngp = 8,                                       /* facts §9.6 */        \
	.perf_caps = CAP_FMT(4) | CAP_FW_WRITE | B(14) | B(15),                 \
	GLC_CLIENT_PMU,                                                         \
	.atom = &hw_gracemont, .core_type = 0x40, .native = 1

static const struct sim_hw hw_alderlake = {
	.name = "alderlake", .pfm_pmu = "spr", .model = 0x97, .stepping = 2,
	.microcode = 0x2c,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* i9-12900K dump */
	.brand = "Intel(R) simulated Alder Lake (lattop sim)",
	ADL_CORE,
};

static const struct sim_hw hw_raptorlake = {
	.name = "raptorlake", .pfm_pmu = "spr", .model = 0xb7, .stepping = 1,
	.microcode = 0x11d,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* i9-13900KF dump */
	.brand = "Intel(R) simulated Raptor Lake (lattop sim)",
	ADL_CORE,
};

/*
 * Granite Rapids 06_AD (Redwood Cove).  Leaf 1 and 0xA from the Xeon 658X
 * dump (ILX, ../shared/cpuid): leaf 0xA as Sapphire Rapids' (and leaf
 * 0x23.1, GP 0xFF, fixed 0xF, says the same).  PM GNR/events/
 * graniterapids_core.json V1.20 gives the SPR codes and counters for the
 * events simulated here (facts §9.3-9.5); no libpfm4 gnr in 4.13, so the
 * rows are checked on spr, which has them (tests/test_sim_pfm.c).
 * Microcode revision arbitrary.
 */
static const struct sim_hw hw_graniterapids = {
	.name = "graniterapids", .pfm_pmu = "spr", .model = 0xad, .stepping = 1,
	.microcode = 0x10003a2,
	.cpuid1_ecx = 0x7ffefbff, .cpuid1_edx = 0xbfebfbff,     /* Xeon 658X dump */
	.brand = "Intel(R) simulated Granite Rapids (lattop sim)",
	SPR_COMMON,
	.rsp_valid = { 0x3fffffffffULL, 0x3fffffffffULL },
	.server_model = 0xad, .server_stepping = 1, .server_microcode = 0x10003a2,
};

/*
 * Crestmont, Sierra Forest 06_AF, one package or two.  No CPUID dump of
 * Sierra Forest or Grand Ridge was found (facts §9.1): leaf 0xA is taken
 * as Meteor Lake's Crestmont cores report it (EAX 0x07300805, ECX 0x7,
 * EDX 0x8603: version 5, 8 counters, fixed counters 0-2; facts §9.1), leaf
 * 1 ECX/EDX as Alder Lake-N's: both UNVERIFIED for this part.  No SMT;
 * four cores share an L2.  MSR_OFFCORE_RSP_x masks 0x800ff3ffffffffff and
 * 0xff3ffffffffff (K612 intel_cmt_extra_regs, facts §9.4), per core here.
 * Microcode revision arbitrary.
 */
#define CMT_CORE                                                                \
	.leaf_a = { 0x07300805, 0, 0x7, 0x00008603 },                           \
	.perf_caps = CAP_FMT(5) | CAP_FW_WRITE | B(14),                         \
	.evtsel_valid = EVTSEL_ARCH,                                            \
	.pebs_valid = 0xffULL | (0x7ULL << 32),                                 \
	.has_ld_lat = true, .pebs_fixed = true,                                 \
	.nrsp = 2, .rsp_valid = { 0x800ff3ffffffffffULL, 0xff3ffffffffffULL },  \
	.layout = SIM_RSP_HSW, .l3_miss_bit = 26, .rsp_scope = SIM_SCOPE_CORE,  \
	.events = ROWS(cmt_events),                                             \
	.module_cores = 4

static const struct sim_hw hw_crestmont = {
	.name = "crestmont", .pfm_pmu = NULL, .model = 0xaf, .stepping = 3,
	.microcode = 0x3000341,
	.cpuid1_ecx = 0x7ffafbbf, .cpuid1_edx = 0xbfebfbff,
	.brand = "Intel(R) simulated Crestmont (lattop simulator)",
	CMT_CORE,
	.rsp_docs = ROWS(cmt_rsp),
	.multi_package = true, .server_model = 0xaf, .server_stepping = 3,
	.server_microcode = 0x3000341,
	.server_events = ROWS(cmt_server_events),
};

/*
 * Meteor Lake 06_AA (facts §9.1, §9.6): Redwood Cove Core CPUs, then
 * Crestmont Atom CPUs.  CPUID from the Core Ultra 7 155H dump (LCP2,
 * ../shared/cpuid, stepping 4): leaf 7 EDX[15], leaf 0x1A EAX 0x40000002
 * on the Core CPUs and 0x20000002 on the Atom CPUs, and on both leaf 0xA
 * EAX 0x07300805, ECX 0x7, EDX 0x8603: 8 general-purpose and 3 fixed
 * counters.  Leaf 0x23 (the Core CPUs' fourth fixed counter, SLOTS) is not
 * simulated: without it lattop reads leaf 0xA, which says what these
 * tables use.  One thread per core, as the other simulated hybrids.
 * PEBS format and microcode arbitrary; the per-core PERF_CAPABILITIES
 * perf-metrics bit is left clear (the kernel ignores it here, facts §9.7).
 *
 * The Atom CPUs: Crestmont as PM MTL/events/meteorlake_crestmont_core.json
 * V1.22 gives it: Sierra Forest's codes and counters for the events
 * simulated (cmt_events), and the offcore response values of Gracemont's
 * file (ANY_RESPONSE 0x10001, ...SNOOP_HIT_NO_FWD 0x4003C0001,
 * ...SNOOP_HITM 0x10003C0001 on RSP_0 and RSP_1): grt_rsp documents them.
 * MSR_OFFCORE_RSP_x masks: K612 intel_cmt_extra_regs.
 */
static const struct sim_hw hw_crestmont_mtl = {
	.name = "meteorlake-crestmont", .pfm_pmu = NULL, .model = 0xaa, .stepping = 4,
	.microcode = 0x1c,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* 155H dump */
	.brand = "Intel(R) simulated Meteor Lake (lattop sim)",
	CMT_CORE,                                               /* leaf 0xA: the 155H's CPU 2 */
	.rsp_docs = ROWS(grt_rsp),
	.core_type = 0x20, .native = 2,
};

/*
 * The Core CPUs: Redwood Cove as PM MTL/events/meteorlake_redwoodcove_core.json
 * V1.22 gives it: the Golden Cove client codes and counters (spr_events,
 * no 0xD3 remote events on a client part).
 */
#define MTL_CORE                                                                \
	.leaf_a = { 0x07300805, 0, 0x7, 0x00008603 },   /* 155H dump, CPU 0 */  \
	.perf_caps = CAP_FMT(5) | CAP_FW_WRITE | B(14),                         \
	GLC_CLIENT_PMU,                 /* MTL RWC json: the same codes and counters */ \
	.atom = &hw_crestmont_mtl, .core_type = 0x40, .native = 2

static const struct sim_hw hw_meteorlake = {
	.name = "meteorlake", .pfm_pmu = "spr", .model = 0xaa, .stepping = 4,
	.microcode = 0x1c,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* 155H dump */
	.brand = "Intel(R) simulated Meteor Lake (lattop sim)",
	MTL_CORE,
};

/*
 * Arrow Lake-U 06_B5: Meteor Lake's cores (PM2 mapfile 06_B5 names the MTL
 * files; facts §9.1).  No 06_B5 dump was found: its CPUID is taken as the
 * 155H's but for the model (UNVERIFIED); stepping arbitrary.
 */
static const struct sim_hw hw_arrowlake_s, hw_arrowlake_h;
static const struct sim_hw *const arl_models[] = { &hw_arrowlake_s, &hw_arrowlake_h, NULL };

static const struct sim_hw hw_arrowlake = {
	.name = "arrowlake", .pfm_pmu = "spr", .model = 0xb5, .stepping = 0,
	.microcode = 0x1c,
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* 155H dump, UNVERIFIED here */
	.brand = "Intel(R) simulated Arrow Lake-U (lattop sim)",
	MTL_CORE,
	.models = arl_models,
};

/*
 * Lunar Lake 06_BD (facts §9.1, §9.6): Lion Cove Core CPUs, then Skymont
 * Atom CPUs.  CPUID from the Core Ultra 9 288V dump (LCP2, ../shared/cpuid,
 * stepping 1): leaf 7 EDX[15], leaf 0x1A EAX 0x40000003 / 0x20000003, leaf
 * 0xA EAX 0x0D300806, EBX 0x280, ECX 0x7, EDX 0x8603 on both: perfmon
 * version 6, so the counters live in the version 6 range only (sim_reg(),
 * sim.c), PMC8 and PMC9 too.  Leaf 0x23 as the dump's: on the Core CPUs
 * (CPU 0) subleaf 0 EAX 0xB, EBX 0x3, subleaf 1 EAX 0x3FF (10 counters),
 * EBX 0xF; on the Atom CPUs (CPU 4) subleaf 0 EAX 0xF, EBX 0x3, ECX 0x8,
 * subleaf 1 EAX 0xFF, EBX 0x77 (pmu-facts 9.1).  The Core CPUs' fourth
 * fixed counter (SLOTS) is not simulated: leaf 0xA's EDX says 3, which is
 * what lattop uses.  IA32_PEBS_ENABLE: bit i for every counter i (K612
 * intel_pmu_pebs_enable), fixed counters 32-34.  PEBS format and
 * microcode arbitrary.
 * Offcore-response masks: K612 intel_lnc_extra_regs (0xfffffffffff),
 * intel_cmt_extra_regs for Skymont (intel_pmu_init_skt, facts §9.4).
 */
#define LNL_PART                                                                \
	.model = 0xbd, .stepping = 1, .microcode = 0x11f,                       \
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* 288V dump */ \
	.brand = "Intel(R) simulated Lunar Lake (lattop sim)",                  \
	.leaf_a = { 0x0d300806, 0x280, 0x7, 0x00008603 },       /* 288V dump */ \
	LNC_HYBRID_PMU

/*
 * The registers of Lunar and Arrow Lake-S/-H CPUs of every core type, but
 * leaf 0xA, leaf 0x23 and IA32_PEBS_ENABLE's bits (one per counter).
 */
#define LNC_HYBRID_PMU                                                          \
	.perf_caps = CAP_FMT(6) | CAP_FW_WRITE | B(14),                         \
	.evtsel_valid = EVTSEL_ARCH,                                            \
	.has_ld_lat = true, .pebs_fixed = true,                                 \
	.nrsp = 2, .layout = SIM_RSP_HSW, .l3_miss_bit = 26

/* Skymont's registers (K612 intel_cmt_extra_regs for intel_pmu_init_skt, facts §9.4). */
#define SKT_REGS                                                                \
	.rsp_valid = { 0x800ff3ffffffffffULL, 0xff3ffffffffffULL },             \
	.rsp_scope = SIM_SCOPE_CORE, .module_cores = 4

static const struct sim_hw hw_skymont_lnl = {
	.name = "lunarlake-skymont", .pfm_pmu = NULL,
	LNL_PART, SKT_REGS,
	.leaf23 = { { 0xf, 0x3, 0x8, 0 }, { 0xff, 0x77, 0, 0 } },      /* 288V dump, CPU 4 */
	.pebs_valid = 0xffULL | (0x7ULL << 32),
	.events = ROWS(skt_lnl_events),
	.core_type = 0x20, .native = 3,
};

static const struct sim_hw hw_lunarlake = {
	.name = "lunarlake", .pfm_pmu = NULL,
	LNL_PART,
	.leaf23 = { { 0xb, 0x3, 0, 0 }, { 0x3ff, 0xf, 0, 0 } },        /* 288V dump, CPU 0 */
	.pebs_valid = 0x3ffULL | (0x7ULL << 32),
	.rsp_valid = { 0xfffffffffffULL, 0xfffffffffffULL },
	.rsp_scope = SIM_SCOPE_THREAD,
	.events = ROWS(lnc_events),
	.atom = &hw_skymont_lnl, .core_type = 0x40, .native = 3,
};

/*
 * Arrow Lake-S/HX 06_C6 (facts §9.1, §9.6): Lunar Lake's cores, Skymont
 * with Arrow Lake's HITM event.  CPUID from the Core Ultra 7 265K dump
 * (LCP2, ../shared/cpuid, stepping 2): leaf 0x1A EAX 0x40000003 /
 * 0x20000003, leaf 0xA EAX 0x0D300806, EBX 0x280, ECX 0x7, EDX 0x8603 on
 * both: perfmon version 6, the counters at 0x1900 only (sim_reg(),
 * sim.c).  Leaf 0x23 as Lunar Lake's, the dump's on every CPU of each
 * type: Core subleaf 0 EAX 0xB, EBX 0x3, subleaf 1 EAX 0x3FF (ten
 * counters), EBX 0xF; Atom subleaf 0 EAX 0xF, EBX 0x3, ECX 0x8, subleaf
 * 1 EAX 0xFF, EBX 0x77.  Picked by the profile key model = 0xC6 under the
 * name arrowlake (its 06_B5 stays the default).  Microcode arbitrary.
 */
#define ARL_S_PART                                                              \
	.model = 0xc6, .stepping = 2, .microcode = 0x114,                       \
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* 265K dump */ \
	.brand = "Intel(R) simulated Arrow Lake-S (lattop sim)",                \
	.leaf_a = { 0x0d300806, 0x280, 0x7, 0x00008603 },       /* 265K dump */ \
	LNC_HYBRID_PMU

/* Arrow Lake's Skymont and Lion Cove CPUs (Lion Cove's masks: K612 intel_lnc_extra_regs). */
#define SKT_ARL_CPUS                                                            \
	SKT_REGS, .events = ROWS(skt_arl_events), .core_type = 0x20, .native = 3
#define LNC_ARL_CPUS                                                            \
	.rsp_valid = { 0xfffffffffffULL, 0xfffffffffffULL },                    \
	.rsp_scope = SIM_SCOPE_THREAD, .events = ROWS(lnc_events),              \
	.core_type = 0x40, .native = 3

static const struct sim_hw hw_skymont_arl = {
	.name = "arrowlake-skymont", .pfm_pmu = NULL, ARL_S_PART, SKT_ARL_CPUS,
	.leaf23 = { { 0xf, 0x3, 0x8, 0 }, { 0xff, 0x77, 0, 0 } },      /* 265K dump, Atom CPUs */
	.pebs_valid = 0xffULL | (0x7ULL << 32),
};

static const struct sim_hw hw_arrowlake_s = {
	.name = "arrowlake", .pfm_pmu = NULL, ARL_S_PART, LNC_ARL_CPUS,
	.leaf23 = { { 0xb, 0x3, 0, 0 }, { 0x3ff, 0xf, 0, 0 } },        /* 265K dump, Core CPUs */
	.pebs_valid = 0x3ffULL | (0x7ULL << 32),
	.atom = &hw_skymont_arl,
};

/*
 * Arrow Lake-H 06_C5 (facts §9.1, §9.6): Lion Cove Core CPUs, Skymont
 * Atom CPUs, and low-power Crestmont Atom CPUs (native model 2, not 3:
 * what tells the two Atoms apart).  CPUID from the Core Ultra 9 285H dump
 * (LCP2, stepping 2): leaf 0x1A EAX 0x40000003, 0x20000003 and 0x20000002;
 * leaf 0xA EAX 0x07300805, ECX 0x7, EDX 0x8603 on every CPU: perfmon
 * version 5, so the legacy counter addresses, not 0x1900.  Leaf 0x23 (P
 * 0x3FF, E 0xFF, LP-E 0xFF) is not simulated.  The low-power module: two
 * cores behind one L2 (MSR_OFFCORE_RSP_x masks K618 intel_cmt_extra_regs,
 * as the kernel's cpu_lowpower takes them).  Picked by model = 0xC5.
 */
#define ARL_H_PART                                                              \
	.model = 0xc5, .stepping = 2, .microcode = 0x118,                       \
	.cpuid1_ecx = 0x7ffafbff, .cpuid1_edx = 0xbfebfbff,     /* 285H dump */ \
	.brand = "Intel(R) simulated Arrow Lake-H (lattop sim)",                \
	.leaf_a = { 0x07300805, 0, 0x7, 0x00008603 },           /* 285H dump */ \
	LNC_HYBRID_PMU

/* Leaf 0x23 not simulated: leaf 0xA's eight counters, PEBS on each, on every type. */
static const struct sim_hw hw_skymont_arlh = {
	.name = "arrowlakeh-skymont", .pfm_pmu = NULL, ARL_H_PART, SKT_ARL_CPUS,
	.pebs_valid = 0xffULL | (0x7ULL << 32),
};

static const struct sim_hw hw_crestmont_lpe = {
	.name = "arrowlakeh-crestmont", .pfm_pmu = NULL,
	ARL_H_PART,
	.rsp_valid = { 0x800ff3ffffffffffULL, 0xff3ffffffffffULL },
	.rsp_scope = SIM_SCOPE_CORE, .module_cores = 2,
	.pebs_valid = 0xffULL | (0x7ULL << 32),
	.events = ROWS(cmt_lpe_events),
	.core_type = 0x20, .native = 2,
};

static const struct sim_hw hw_arrowlake_h = {
	.name = "arrowlake", .pfm_pmu = NULL, ARL_H_PART, LNC_ARL_CPUS,
	.pebs_valid = 0xffULL | (0x7ULL << 32),
	.atom = &hw_skymont_arlh, .lowpower = &hw_crestmont_lpe,
};

/* Every simulated microarchitecture: the one list (sim_uarch_name() reads it). */
const struct sim_hw *const sim_hw_all[] = {
	&hw_nehalem, &hw_westmere, &hw_silvermont, &hw_airmont,
	&hw_goldmont, &hw_goldmont_plus, &hw_haswell, &hw_broadwell,
	&hw_sandybridge, &hw_ivybridge, &hw_skylake,
	&hw_icelake, &hw_tigerlake, &hw_rocketlake,
	&hw_sapphirerapids, &hw_emeraldrapids, &hw_graniterapids,
	&hw_tremont, &hw_gracemont, &hw_crestmont, &hw_alderlake, &hw_raptorlake,
	&hw_meteorlake, &hw_arrowlake, &hw_lunarlake, NULL,
};

const char *sim_uarch_name(size_t i)
{
	size_t n;

	for (n = 0; sim_hw_all[n]; n++)
		if (n == i)
			return sim_hw_all[n]->name;
	return NULL;
}

void sim_uarch_list(char *buf, size_t len)
{
	size_t i, used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; sim_hw_all[i] && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", sim_hw_all[i]->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

const struct sim_hw *sim_hw_lookup(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; sim_hw_all[i]; i++)
		if (!strcmp(sim_hw_all[i]->name, name))
			return sim_hw_all[i];
	return NULL;
}

/* CPUID.0AH fields (facts §1.2, K-pe unions). */
unsigned sim_hw_version(const struct sim_hw *hw)
{
	return hw->leaf_a[0] & 0xff;
}

unsigned sim_hw_ngp(const struct sim_hw *hw)
{
	unsigned n = 0;

	if (hw->leaf23[0][0] & 2) {             /* subleaf 1 valid: its GP bitmap (K612 update_pmu_cap) */
		while (n < 32 && (hw->leaf23[1][0] & (1u << n)))
			n++;
		return n;
	}
	return hw->ngp ? hw->ngp : (hw->leaf_a[0] >> 8) & 0xff;
}

unsigned sim_hw_gp_width(const struct sim_hw *hw)
{
	return (hw->leaf_a[0] >> 16) & 0xff;
}

unsigned sim_hw_nfixed(const struct sim_hw *hw)
{
	return hw->leaf_a[3] & 0x1f;
}

unsigned sim_hw_fixed_width(const struct sim_hw *hw)
{
	return (hw->leaf_a[3] >> 5) & 0xff;
}

bool sim_hw_fw_write(const struct sim_hw *hw)
{
	return hw->perf_caps & CAP_FW_WRITE;
}

const struct sim_event *sim_hw_event(const struct sim_hw *hw, bool server, unsigned event,
				     unsigned umask)
{
	size_t i;

	for (i = 0; i < hw->nevents; i++)
		if (hw->events[i].event == event && hw->events[i].umask == umask)
			return &hw->events[i];
	for (i = 0; server && i < hw->nserver_events; i++)
		if (hw->server_events[i].event == event && hw->server_events[i].umask == umask)
			return &hw->server_events[i];
	return NULL;
}

static double bit(uint64_t v, int n)
{
	return (v >> n) & 1 ? 1.0 : 0.0;
}

/*
 * Nehalem/Westmere (facts §5.1): response bits are OR'd.  Bit 9 = clean hit
 * in another core, bit 10 = HITM; bit 11 = HITM in another package's cache
 * (REMOTE_CACHE_HITM in the json and libpfm4; "reserved" in SDM09), bit 12 =
 * a clean line forwarded by another package (REMOTE_CACHE_FWD); the rest is
 * split half to UNCORE_HIT (bit 8, L3 hit without snoop) and half to
 * LOCAL_DRAM (bit 14).  Bits 13 and 15 (remote DRAM, non-DRAM) have no
 * traffic.  Remote traffic exists only with packages >= 2.
 */
static void rsp_nhm(uint64_t rsp, double w[SIM_T_N])
{
	w[SIM_T_CLEAN] = bit(rsp, 9);
	w[SIM_T_HITM] = bit(rsp, 10);
	w[SIM_T_RHITM] = bit(rsp, 11);
	w[SIM_T_RHIT] = bit(rsp, 12);
	w[SIM_T_REST] = 0.5 * bit(rsp, 8) + 0.5 * bit(rsp, 14);
}

/*
 * Haswell/Broadwell (facts §5.2, SDM16 p.695): ANY_RESPONSE counts all;
 * otherwise a response counts when the value has its supplier AND its snoop
 * result.  Clean hit = L3 hit (any of 18-21) + SNOOP_HIT_NO_FWD (34); HITM =
 * L3 hit + SNOOP_HITM (36); the rest is half L3 hit + SNOOP_NONE or
 * NOT_NEEDED (31, 32) and half L3_MISS_LOCAL + SNOOP_NONE, NOT_NEEDED or
 * MISS (31-33).
 */
static void rsp_hsw(const struct sim_hw *hw, uint64_t rsp, double w[SIM_T_N])
{
	double l3 = (rsp & (0xfULL << 18)) ? 1.0 : 0.0;
	double miss = bit(rsp, hw->l3_miss_bit);

	/* Reads another package answered are responses too: ANY_RESPONSE counts them. */
	if (rsp & B(16)) {
		w[SIM_T_CLEAN] = w[SIM_T_HITM] = w[SIM_T_REST] = 1;
		w[SIM_T_RHIT] = w[SIM_T_RHITM] = 1;
		return;
	}
	w[SIM_T_CLEAN] = l3 * bit(rsp, 34);
	w[SIM_T_HITM] = l3 * bit(rsp, 36);
	w[SIM_T_REST] = 0.5 * l3 * ((rsp & (B(31) | B(32))) ? 1 : 0) +
			0.5 * miss * ((rsp & (B(31) | B(32) | B(33))) ? 1 : 0);
}

/*
 * Silvermont/Airmont (facts §5.3) and Goldmont/Goldmont Plus (§5.4): bits
 * OR'd.  ANY_RESPONSE = every request, the reads the L2 served included
 * (L2_HIT, bit 18, is one of its responses: facts §8.3); 34 = clean hit in
 * the other module; 36 = HITM in the other module (seed 001: snoops "in
 * the other module"; a line in the module partner's L1 is an L2 hit, facts
 * §8.2); the rest answers on 33 (GLM: snoop miss or no snoop needed) or,
 * on SLM, half on 31 (SNOOP_NONE) and half on 33 (SNOOP_MISS).  L2_HIT
 * alone counts the L2's reads; NON_DRAM (37) has no traffic.  OUTSTANDING
 * (38, RSP_0 only): outstanding-weighted cycles of the reads that missed
 * the L2 ("from the time of the L2 miss", PM SLM/GLM matrix), and only
 * when bits 37:16 are all zero (seed 001: "any response (bits 37:16
 * cleared to 0)"); anything else with bit 38 counts nothing.
 */
static void rsp_atom(const struct sim_hw *hw, int reg, uint64_t rsp, double w[SIM_T_N])
{
	if (reg == 0 && (rsp & B(38))) {
		if (!(rsp & (((1ULL << 22) - 1) << 16)))
			w[SIM_T_OUTST] = 1;
		return;
	}
	if (rsp & B(16)) {
		w[SIM_T_CLEAN] = w[SIM_T_HITM] = w[SIM_T_REST] = 1;
		w[SIM_T_L2HIT] = 1;
		return;
	}
	w[SIM_T_L2HIT] = bit(rsp, 18);
	w[SIM_T_CLEAN] = bit(rsp, 34);
	w[SIM_T_HITM] = bit(rsp, 36);
	if (hw->layout == SIM_RSP_SLM)
		w[SIM_T_REST] = 0.5 * bit(rsp, 31) + 0.5 * bit(rsp, 33);
	else
		w[SIM_T_REST] = bit(rsp, 33);
}

/*
 * Tremont (facts §9.4, §9.5; PM SNR/EHL MSRValues).  OUTSTANDING (63, RSP_0
 * only): the outstanding-weighted cycles of the reads that went to the XQ
 * ("XQ to XQ latency"), only with no response bit (16-62) beside it.
 * ANY_RESPONSE (16): every read with a response, which here is every read
 * that missed the L2: Tremont's response field has no L2-hit supplier
 * (18-21 are L3_HIT).  Clean hit = L3 hit + SNOOP_HIT_NO_FWD (34), HITM =
 * L3 hit + SNOOP_HITM (36); the rest answers on the other snoop results.
 */
static void rsp_tnt(int reg, uint64_t rsp, double w[SIM_T_N])
{
	double l3 = (rsp & (0xfULL << 18)) ? 1.0 : 0.0;

	if (reg == 0 && (rsp & B(63))) {
		if (!(rsp & (((1ULL << 47) - 1) << 16)))
			w[SIM_T_OUTST] = 1;
		return;
	}
	if (rsp & B(16)) {
		w[SIM_T_CLEAN] = w[SIM_T_HITM] = w[SIM_T_REST] = 1;
		return;
	}
	w[SIM_T_CLEAN] = l3 * bit(rsp, 34);
	w[SIM_T_HITM] = l3 * bit(rsp, 36);
	w[SIM_T_REST] = 0.5 * l3 * ((rsp & (B(32) | B(33))) ? 1 : 0);
}

void sim_hw_rsp_weights(const struct sim_hw *hw, int reg, uint64_t rsp,
			double w[SIM_T_N])
{
	/* Request bit 0 (DMND_DATA_RD) is the only request type with traffic. */
	if (!(rsp & 1))
		return;
	switch (hw->layout) {
	case SIM_RSP_NHM:
		rsp_nhm(rsp, w);
		break;
	case SIM_RSP_HSW:
		rsp_hsw(hw, rsp, w);
		break;
	case SIM_RSP_SLM:
	case SIM_RSP_GLM:
		rsp_atom(hw, reg, rsp, w);
		break;
	case SIM_RSP_TNT:
		rsp_tnt(reg, rsp, w);
		break;
	}
}
