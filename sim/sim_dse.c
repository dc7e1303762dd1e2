/*
 * sim_dse.c: the simulated kernel's translation of a PEBS load's
 * data-source code into union perf_mem_data_src, per family, for the
 * codes the simulated samples carry (sim_kernel.c).
 *
 * Written from the kernel's tables on this project's own reading (K61 and
 * K612 arch/x86/events/intel/ds.c: pebs_data_source[] and the patches
 * intel_pmu_init applies; pmu-facts 10.6), never from lattop's decoding
 * (cpu/perf_ring.c), so that a reading that differs from the kernel's
 * fails the tests: Nehalem's 0x6 (a clean hit in the base table) is HITM,
 * and a Skylake server's remote HITM (0xD) has the remote bit and no
 * level bit.
 */
#include <string.h>

#include <linux/perf_event.h>

#include "sim/sim_internal.h"

#define P(a, b)         ((uint64_t)PERF_MEM_##a##_##b << PERF_MEM_##a##_SHIFT)
#define LEVEL(x)        ((uint64_t)PERF_MEM_LVLNUM_##x << PERF_MEM_LVLNUM_SHIFT)
#define REM             ((uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT)
#define OP_LH           (P(OP, LOAD) | P(LVL, HIT))

/* The base table (SNB..BDW): 0x7 L3 hit, HITM; 0x9 remote cache (REM_CCE1), HITM. */
const struct sim_dse sim_dse_base[] = {
	{ 0x7, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0x9, OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0, 0 },
};

/* intel_pmu_pebs_data_source_nhm: 0x6 and 0x7 are both HITM. */
const struct sim_dse sim_dse_nhm[] = {
	{ 0x6, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0x7, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0x9, OP_LH | P(LVL, REM_CCE1) | REM | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0, 0 },
};

/* intel_pmu_pebs_data_source_skl: 0xD is any cache, remote, HITM, and no lvl bit. */
const struct sim_dse sim_dse_skl[] = {
	{ 0x7, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0xd, OP_LH | LEVEL(ANY_CACHE) | REM | P(SNOOP, HITM) },
	{ 0, 0 },
};

/*
 * intel_pmu_pebs_data_source_grt (Gracemont; __grt_latency_data masks the
 * code to 4 bits): 0x6 an L3 hit, HITM; 0x5 snoop hit, 0x8 snoopx FWD.
 */
const struct sim_dse sim_dse_grt[] = {
	{ 0x6, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0, 0 },
};

/*
 * intel_pmu_pebs_data_source_cmt (Crestmont): 0x8 an L3 hit, HITM; 0xD
 * RAM, remote, HITM (no lvl bit); 0x7 L3 hit, snoopx FWD.
 */
const struct sim_dse sim_dse_cmt[] = {
	{ 0x8, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0xd, OP_LH | LEVEL(RAM) | REM | P(SNOOP, HITM) },
	{ 0, 0 },
};

/*
 * lnc_pebs_data_source[] (Lion Cove, through lnl_latency_data; K612 ds.c,
 * pmu-facts 10.6): an 8-bit code; 0xd an L3 hit, HITM; 0xf an L3 miss,
 * HITM; 0xc an L3 hit, snoopx FWD.  One package: no remote code.
 */
const struct sim_dse sim_dse_lnc[] = {
	{ 0xd, OP_LH | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0xf, P(OP, LOAD) | P(LVL, MISS) | P(LVL, L3) | LEVEL(L3) | P(SNOOP, HITM) },
	{ 0, 0 },
};

/* A store sample (precise_store_data, precise_datala_hsw): an L1 hit. */
const uint64_t sim_dse_store = P(OP, STORE) | P(LVL, HIT) | P(LVL, L1) | LEVEL(L1);

/*
 * The precise retired-load snoop events whose samples carry the data
 * address (Data_LA, Haswell on; pmu-facts 4.3, 9.4, 10.5), by the
 * kernel's PMU name, on this project's reading of Intel's files: a load
 * the L3 served with a HITM from another core of the package (HSW, BDW
 * MEM_LOAD_UOPS_L3_HIT_RETIRED.XSNP_HITM, SKL, ICL MEM_LOAD_L3_HIT_RETIRED.
 * XSNP_HITM, SPR/GNR XSNP_FWD "HitM responses": 0xD2/0x04) and one
 * another package's cache served modified (HSX, BDX 0xD3/0x10; SKX, ICX,
 * SPR, GNR MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM 0xD3/0x04).  Ended by a
 * NULL name.
 */
const struct sim_snoop_ev sim_snoop_evs[] = {
	{ "haswell", 0x04d2, 0x10d3 },
	{ "broadwell", 0x04d2, 0x10d3 },
	{ "skylake", 0x04d2, 0x04d3 },
	{ "icelake", 0x04d2, 0x04d3 },
	{ "sapphire_rapids", 0x04d2, 0x04d3 },
	{ "granite_rapids", 0x04d2, 0x04d3 },
	{ NULL, 0, 0 },
};

/*
 * Such a sample's data source: PERF_MEM_NA with the op a load, nothing of
 * the level or the snoop (K61 ds.c precise_datala_hsw): the event says it.
 */
const uint64_t sim_dse_datala_load = P(OP, LOAD) | P(LVL, NA) | P(SNOOP, NA) | P(LOCK, NA) |
				     P(TLB, NA);

int sim_snoop_event(const char *pmu, uint64_t cfg)
{
	for (const struct sim_snoop_ev *s = sim_snoop_evs; s->pmu; s++)
		if (!strcmp(s->pmu, pmu))
			return cfg == s->hitm ? SIM_SNOOP_HITM : cfg == s->remote_hitm ?
			       SIM_SNOOP_REMOTE : SIM_SNOOP_NONE;
	return SIM_SNOOP_NONE;
}
