/*
 * sim_kernel_tab.c: the simulated kernel's tables (sim_kernel.c): per PMU,
 * the extra registers, the event and PEBS constraints, the models, the
 * precise levels and what it samples, each from the kernel source cited.
 * Written from the kernel, never from lattop's tables.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim_internal.h"

/* intel_nehalem_extra_regs, intel_westmere_extra_regs (K61). */
static const struct sk_er er_nhm[] = {
	{ 0x00b7, 0x00ff, SK_ER_RSP0, 0xffff },
	{ 0x100b, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
static const struct sk_er er_wsm[] = {
	{ 0x00b7, 0x00ff, SK_ER_RSP0, 0xffff },
	{ 0x00bb, 0x00ff, SK_ER_RSP1, 0xffff },
	{ 0x100b, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
/* intel_snb_extra_regs: the client mask; intel_snbep_extra_regs for IVB, HSW, BDW and servers. */
static const struct sk_er er_snb[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x3f807f8fffULL },
	{ 0x01bb, 0xffff, SK_ER_RSP1, 0x3f807f8fffULL },
	{ 0x01cd, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
static const struct sk_er er_snbep[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x3fffff8fffULL },
	{ 0x01bb, 0xffff, SK_ER_RSP1, 0x3fffff8fffULL },
	{ 0x01cd, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
/* intel_skl_extra_regs (the frontend register is not modelled) */
static const struct sk_er er_skl[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x3fffff8fffULL },
	{ 0x01bb, 0xffff, SK_ER_RSP1, 0x3fffff8fffULL },
	{ 0x01cd, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
/* intel_slm_extra_regs, intel_glm_extra_regs: RSP_1 lacks bit 38 (OUTSTANDING). */
/* intel_icl_extra_regs (the frontend register is not modelled; pmu-facts 9.4). */
static const struct sk_er er_icl[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x3fffffbfffULL },
	{ 0x01bb, 0xffff, SK_ER_RSP1, 0x3fffffbfffULL },
	{ 0x01cd, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
/* intel_glc_extra_regs: OCR moved to 0x2A/0x2B (pmu-facts 9.4). */
static const struct sk_er er_glc[] = {
	{ 0x012a, 0xffff, SK_ER_RSP0, 0x3fffffffffULL },
	{ 0x012b, 0xffff, SK_ER_RSP1, 0x3fffffffffULL },
	{ 0x01cd, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
static const struct sk_er er_slm[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x768005ffffULL },
	{ 0x02b7, 0xffff, SK_ER_RSP1, 0x368005ffffULL },
	{ 0 },
};
/*
 * intel_grt_extra_regs (Gracemont; pmu-facts 9.3, 9.4): OCR on 0x01b7 and
 * 0x02b7, mask 0x3fffffffff; the load-latency event is 0xD0/0x05.
 */
static const struct sk_er er_grt[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x3fffffffffULL },
	{ 0x02b7, 0xffff, SK_ER_RSP1, 0x3fffffffffULL },
	{ 0x05d0, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
/* intel_tnt_extra_regs (Tremont; pmu-facts 9.4, 9.5): OUTSTANDING, bit 63, in RSP_0 only. */
static const struct sk_er er_tnt[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x800ff0ffffff9fffULL },
	{ 0x02b7, 0xffff, SK_ER_RSP1, 0xff0ffffff9fffULL },
	{ 0 },
};
/* intel_cmt_extra_regs (Crestmont; pmu-facts 9.4): the snoop-response registers not modelled. */
static const struct sk_er er_cmt[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x800ff3ffffffffffULL },
	{ 0x02b7, 0xffff, SK_ER_RSP1, 0xff3ffffffffffULL },
	{ 0x05d0, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
static const struct sk_er er_glm[] = {
	{ 0x01b7, 0xffff, SK_ER_RSP0, 0x760005ffbfULL },
	{ 0x02b7, 0xffff, SK_ER_RSP1, 0x360005ffbfULL },
	{ 0 },
};

/* intel_nehalem_event_constraints, intel_westmere_event_constraints (pmu-facts 6). */
static const struct sk_cons cons_nhm[] = {
	{ 0x40, 0xff, 0x3, false }, { 0x41, 0xff, 0x3, false }, { 0x42, 0xff, 0x3, false }, { 0x43, 0xff, 0x3, false },
	{ 0x48, 0xff, 0x3, false }, { 0x4e, 0xff, 0x3, false }, { 0x51, 0xff, 0x3, false }, { 0x63, 0xff, 0x3, false },
	{ 0 },
};
static const struct sk_cons cons_wsm[] = {
	{ 0x51, 0xff, 0x3, false }, { 0x63, 0xff, 0x3, false }, { 0x60, 0xff, 0x1, false }, { 0xb3, 0xff, 0x1, false },
	{ 0 },
};
/* intel_snb/ivb/hsw_event_constraints: 0xcd on PMC3 but on IVB; 0xd0-0xd3 EXCL (pmu-facts 10.2, 10.3). */
static const struct sk_cons cons_snb[] = {
	{ 0x48, 0xff, 0x4, false }, { 0xcd, 0xff, 0x8, false },
	{ 0xd0, 0xff, 0xf, true }, { 0xd1, 0xff, 0xf, true },
	{ 0xd2, 0xff, 0xf, true }, { 0xd3, 0xff, 0xf, true },
	{ 0 },
};
static const struct sk_cons cons_ivb[] = {
	{ 0x0148, 0xffff, 0x4, false },
	{ 0xd0, 0xff, 0xf, true }, { 0xd1, 0xff, 0xf, true },
	{ 0xd2, 0xff, 0xf, true }, { 0xd3, 0xff, 0xf, true },
	{ 0 },
};
static const struct sk_cons cons_hsw[] = {
	{ 0x0148, 0xffff, 0x4, false }, { 0x01c0, 0xffff, 0x2, false }, { 0xcd, 0xff, 0x8, false },
	{ 0xd0, 0xff, 0xf, true }, { 0xd1, 0xff, 0xf, true },
	{ 0xd2, 0xff, 0xf, true }, { 0xd3, 0xff, 0xf, true },
	{ 0 },
};
static const struct sk_cons cons_bdw[] = {
	{ 0x0148, 0xffff, 0x4, false }, { 0x01c0, 0xffff, 0x2, false }, { 0xcd, 0xff, 0x8, false },
	{ 0 },
};
static const struct sk_cons cons_skl[] = {
	{ 0x01c0, 0xffff, 0x2, false }, { 0xcd, 0xff, 0xf, false },
	{ 0 },
};
/*
 * intel_icl_event_constraints, as far as lattop's events go: 0x60 and 0xB0
 * on PMC0-3 (pmu-facts 9.5), RANGE(0xd0, 0xe6, 0xf) (pmu-facts 9.4).
 */
static const struct sk_cons cons_icl[] = {
	{ 0x60, 0xff, 0xf, false }, { 0xb0, 0xff, 0xf, false },
	{ 0xd0, 0xff, 0xf, false }, { 0xd1, 0xff, 0xf, false },
	{ 0xd2, 0xff, 0xf, false }, { 0xd3, 0xff, 0xf, false },
	{ 0 },
};
/* intel_glc_event_constraints: 0x20, 0x21 and RANGE(0xd0, 0xdf) on PMC0-3 (pmu-facts 9.4, 9.5). */
static const struct sk_cons cons_glc[] = {
	{ 0x20, 0xff, 0xf, false }, { 0x21, 0xff, 0xf, false },
	{ 0xd0, 0xff, 0xf, false }, { 0xd1, 0xff, 0xf, false },
	{ 0xd2, 0xff, 0xf, false }, { 0xd3, 0xff, 0xf, false },
	{ 0 },
};
static const struct sk_cons cons_none[] = { { 0 } };

/* The PEBS load-latency constraints, INTEL_PLD_CONSTRAINT (pmu-facts 10.2). */
static const struct sk_cons pebs_nhm[] = { { 0x100b, 0xffff, 0xf, false }, { 0 } };
/* The stores: INTEL_PST_CONSTRAINT(0x02cd, 0x8) on SNB/IVB, 0x82d0 on 0xf from HSW (ds.c). */
static const struct sk_cons pebs_snb[] = { { 0x01cd, 0xffff, 0x8, false },
					   { 0x02cd, 0xffff, 0x8, false }, { 0 } };
/*
 * The retired-load snoop events 0xD2/0xD3, any umask, PMC0-3: Haswell's
 * INTEL_FLAGS_EVENT_CONSTRAINT_DATALA_LD(0xd2/0xd3, 0xf), Skylake's
 * (0xd1..0xd3), Ice Lake's and Golden Cove's _RANGE(0xd1, 0xd4, 0xf).
 */
static const struct sk_cons pebs_hsw[] = { { 0x01cd, 0xffff, 0xf, false },
					   { 0x82d0, 0xffff, 0xf, false },
					   { 0x00d2, 0x00ff, 0xf, false },
					   { 0x00d3, 0x00ff, 0xf, false }, { 0 } };
/* Ice Lake: every counter; Golden Cove: not PMC0 (pmu-facts 9.3). */
static const struct sk_cons pebs_icl[] = { { 0x01cd, 0xffff, 0xff, false },
					   { 0x82d0, 0xffff, 0xf, false },
					   { 0x00d2, 0x00ff, 0xf, false },
					   { 0x00d3, 0x00ff, 0xf, false }, { 0 } };
static const struct sk_cons pebs_glc[] = { { 0x01cd, 0xffff, 0xfe, false },
					   { 0x82d0, 0xffff, 0xf, false },
					   { 0x00d2, 0x00ff, 0xf, false },
					   { 0x00d3, 0x00ff, 0xf, false }, { 0 } };
/* Gracemont: INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3) (pmu-facts 9.3). */
/* intel_grt_pebs_event_constraints: the load latency on PMC0-1, mem-stores on PMC0-3. */
static const struct sk_cons pebs_grt[] = { { 0x05d0, 0xffff, 0x3, false },
					   { 0x06d0, 0xffff, 0xf, false }, { 0 } };
/* SLM, GLM: every PEBS event on PMC0 (intel_slm/glm_pebs_event_constraints). */
static const struct sk_cons pebs_atom[] = { { 0x0000, 0x0000, 0x1, false }, { 0 } };

static const uint8_t models_nhm[] = { 0x1a, 0x1e, 0x1f, 0x2e, 0 };
static const uint8_t models_wsm[] = { 0x25, 0x2c, 0x2f, 0 };
static const uint8_t models_snb[] = { 0x2a, 0 };
static const uint8_t models_snbep[] = { 0x2d, 0 };
static const uint8_t models_ivb[] = { 0x3a, 0x3e, 0 };
static const uint8_t models_hsw[] = { 0x3c, 0x3f, 0x45, 0x46, 0 };
static const uint8_t models_bdw[] = { 0x3d, 0x47, 0x4f, 0x56, 0 };
static const uint8_t models_skl[] = { 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0 };
static const uint8_t models_slm[] = { 0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d, 0 };
static const uint8_t models_glm[] = { 0x5c, 0x5f, 0x7a, 0 };
static const uint8_t models_icl[] = { 0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7, 0 };
static const uint8_t models_spr[] = { 0x8f, 0xcf, 0 };
static const uint8_t models_gnr[] = { 0xad, 0xae, 0 };
static const uint8_t models_tnt[] = { 0x86, 0x96, 0x9c, 0 };
static const uint8_t models_grt[] = { 0xbe, 0 };
static const uint8_t models_cmt[] = { 0xaf, 0xb6, 0 };

/*
 * max_precise: 1 with PEBS, 2 with LBR or PEBS format >= 2, 3 with
 * pebs_prec_dist (x86_pmu_max_precise; pmu-facts 10.2).  Sampling: the
 * "mem-loads" and "mem-stores" aliases (K61 core.c EVENT_ATTR_STR
 * mem_ld_nhm 0x100b, mem_ld_snb/hsw 0x01cd, mem_st_snb 0x02cd, mem_st_hsw
 * 0x82d0: none before Sandy Bridge), the data-source patch intel_pmu_init
 * applies (_nhm on Nehalem and Westmere, _skl from Skylake on: pmu-facts
 * 10.6), and PMU_FL_MEM_LOADS_AUX on Sapphire Rapids (pmu-facts 9.3).
 * The codes the hardware writes for a HITM: the SDM's "L3 hit, HITM other
 * core" (0x7; Nehalem's 0x6, which the base table would read as a clean
 * hit), remote 0x9 (REM_CCE1) or, from Skylake servers, 0xD.
 */
const struct sk_pmu sk_pmus[] = {
	{ "nehalem", models_nhm, true, 2, false, false, true, false, er_nhm, cons_nhm, pebs_nhm,
	  0x100b, 0, sim_dse_nhm, 0x6, 0x9, false },
	{ "westmere", models_wsm, true, 2, true, false, true, false, er_wsm, cons_wsm, pebs_nhm,
	  0x100b, 0, sim_dse_nhm, 0x6, 0x9, false },
	{ "sandybridge", models_snb, true, 2, true, false, false, true, er_snb, cons_snb, pebs_snb,
	  0x01cd, 0x02cd, sim_dse_base, 0x7, 0x9, false },
	{ "sandybridge", models_snbep, true, 2, true, false, false, true, er_snbep, cons_snb,
	  pebs_snb, 0x01cd, 0x02cd, sim_dse_base, 0x7, 0x9, false },
	{ "ivybridge", models_ivb, true, 2, true, false, false, true, er_snbep, cons_ivb, pebs_snb,
	  0x01cd, 0x02cd, sim_dse_base, 0x7, 0x9, false },
	{ "haswell", models_hsw, true, 2, true, false, false, true, er_snbep, cons_hsw, pebs_hsw,
	  0x01cd, 0x82d0, sim_dse_base, 0x7, 0x9, false },
	{ "broadwell", models_bdw, true, 2, true, false, false, false, er_snbep, cons_bdw, pebs_hsw,
	  0x01cd, 0x82d0, sim_dse_base, 0x7, 0x9, false },
	{ "skylake", models_skl, true, 3, true, false, false, false, er_skl, cons_skl, pebs_hsw,
	  0x01cd, 0x82d0, sim_dse_skl, 0x7, 0xd, false },
	/* no load latency on the Atoms: nothing sampled */
	{ "silvermont", models_slm, false, 2, true, true, false, false, er_slm, cons_none,
	  pebs_atom, 0, 0, NULL, 0, 0, false },
	{ "goldmont", models_glm, false, 3, true, true, false, false, er_glm, cons_none, pebs_atom,
	  0, 0, NULL, 0, 0, false },
	/* PMU_FL_NO_HT_SHARING on both: the extra registers are per thread. */
	{ "icelake", models_icl, true, 3, true, false, false, false, er_icl, cons_icl, pebs_icl,
	  0x01cd, 0x82d0, sim_dse_skl, 0x7, 0xd, false },
	{ "sapphire_rapids", models_spr, true, 3, true, false, false, false, er_glc, cons_glc,
	  pebs_glc, 0x01cd, 0x82d0, sim_dse_skl, 0x7, 0xd, true },
	/*
	 * The granite_rapids case (K612): Golden Cove's constraints and the
	 * load latency's 0xfe, no auxiliary event (pmu-facts 9.3, 9.9); the
	 * OCR registers' masks (intel_rwc_extra_regs) are not modelled here:
	 * the Golden Cove ones stand in, lattop programs no OCR on this table.
	 */
	{ "granite_rapids", models_gnr, true, 3, true, false, false, false, er_glc, cons_glc,
	  pebs_glc, 0x01cd, 0x82d0, sim_dse_skl, 0x7, 0xd, false },
	/*
	 * The Tremont case: slm_format_attr (no ldlat), RSP_1 by umask as on
	 * the older Atoms, only fixed-counter constraints.  Its PEBS
	 * constraints are not modelled: no load-latency event exists, and
	 * lattop opens no other precise event.  Nothing sampled.
	 */
	{ "Tremont", models_tnt, false, 3, true, true, false, false, er_tnt, cons_none,
	  cons_none, 0, 0, NULL, 0, 0, false },
	/*
	 * The gracemont case: nhm_format_attr (ldlat), RSP_1 by umask as on
	 * the older Atoms, only fixed-counter constraints (intel_grt_event_
	 * constraints), E-cores without SMT.  mem-loads 0xd0/0x05, mem-stores
	 * 0xd0/0x06 (mem_ld_grt, mem_st_grt), the GRT data sources
	 * (grt_latency_data; pmu-facts 10.6): a HITM is 0x6, one package.
	 */
	{ "gracemont", models_grt, true, 3, true, true, false, false, er_grt, cons_none,
	  pebs_grt, 0x05d0, 0x06d0, sim_dse_grt, 0x6, 0, false },
	/*
	 * The crestmont case (K612): as Gracemont, its own extra registers and
	 * data sources (cmt_latency_data): HITM 0x8, another package's 0xD.
	 */
	{ "crestmont", models_cmt, true, 3, true, true, false, false, er_cmt, cons_none,
	  pebs_grt, 0x05d0, 0x06d0, sim_dse_cmt, 0x8, 0xd, false },
};

const size_t sk_npmus = sizeof(sk_pmus) / sizeof(sk_pmus[0]);

/*
 * The alderlake_hybrid case of intel_pmu_init (K612; pmu-facts 9.3, 9.6,
 * 9.9), Alder and Raptor Lake: two PMUs.  cpu_core is intel_pmu_init_glc
 * (intel_glc_event_constraints: RANGE(0x01, 0x8f, 0xf) covers 0x03, 0x20
 * and 0x21, RANGE(0xd0, 0xdf, 0xf); the PEBS ones: PLD 0x1cd on 0xfe,
 * PSD 0x2cd on PMC0), with PMU_FL_MEM_LOADS_AUX set for it alone
 * (require_mem_loads_aux_event: hybrid_big), and leaf 0xA's 6 counters
 * widened to 8 (the ADL case); cpu_atom is intel_pmu_init_grt (0xD0/0x05
 * on PMC0-1, INTEL_HYBRID_LDLAT_CONSTRAINT(0x5d0, 0x3)).  Both say
 * pmu_name "alderlake_hybrid".  "mem-loads" and "mem-stores" (mem_ld_adl,
 * mem_st_adl) are 0xcd/0x01 and 0xcd/0x02 on the big PMU, 0xd0/0x05 and
 * 0xd0/0x06 on the small one; the data sources Skylake's table on the big
 * PMU, the GRT table on the small one (pmu-facts 10.6).  The fourth fixed
 * counter (SLOTS) is not simulated.
 */
static const struct sk_cons cons_adl_glc[] = {
	{ 0x03, 0xff, 0xf, false },
	{ 0x20, 0xff, 0xf, false }, { 0x21, 0xff, 0xf, false },
	{ 0xd0, 0xff, 0xf, false }, { 0xd1, 0xff, 0xf, false },
	{ 0xd2, 0xff, 0xf, false }, { 0xd3, 0xff, 0xf, false },
	{ 0 },
};
static const struct sk_cons pebs_adl_glc[] = { { 0x01cd, 0xffff, 0xfe, false },
					       { 0x02cd, 0xffff, 0x1, false }, { 0 } };
static const struct sk_pmu pmu_adl_core = {
	"alderlake_hybrid", NULL, true, 3, true, false, false, false, er_glc, cons_adl_glc,
	pebs_adl_glc, 0x01cd, 0x02cd, sim_dse_skl, 0x7, 0xd, true,
};
static const struct sk_pmu pmu_adl_atom = {
	"alderlake_hybrid", NULL, true, 3, true, true, false, false, er_grt, cons_none,
	pebs_grt, 0x05d0, 0x06d0, sim_dse_grt, 0x6, 0, false,
};
static const uint8_t models_adl[] = { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0 };

/*
 * The meteorlake_hybrid case (K612; pmu-facts 9.3, 9.9), Meteor Lake and
 * Arrow Lake-U: cpu_core is intel_pmu_init_glc again (Redwood Cove: the
 * load latency's 0xfe, no PMU_FL_MEM_LOADS_AUX: no auxiliary event), its
 * extra registers intel_rwc_extra_regs, whose OCR masks are not modelled
 * (Golden Cove's stand in: lattop programs no OCR on that table); cpu_atom
 * is intel_pmu_init_grt with intel_cmt_extra_regs (Crestmont), its
 * data sources the CMT table (pmu-facts 10.6).  Leaf 0xA
 * already says 8 counters on both types (0x23.1 GP 0xFF): nothing widened.
 */
static const struct sk_pmu pmu_mtl_core = {
	"meteorlake_hybrid", NULL, true, 3, true, false, false, false, er_glc, cons_adl_glc,
	pebs_adl_glc, 0x01cd, 0x02cd, sim_dse_skl, 0x7, 0xd, false,
};
static const struct sk_pmu pmu_mtl_atom = {
	"meteorlake_hybrid", NULL, true, 3, true, true, false, false, er_cmt, cons_none,
	pebs_grt, 0x05d0, 0x06d0, sim_dse_cmt, 0x8, 0xd, false,
};
static const uint8_t models_mtl[] = { 0xaa, 0xac, 0xb5, 0 };

/*
 * The lunarlake_hybrid case (K612; pmu-facts 9.3, 9.4, 9.9), Lunar Lake and
 * Arrow Lake-S/HX: cpu_core is intel_pmu_init_lnc (on intel_pmu_init_glc:
 * intel_lnc_event_constraints with 0x01cd on 0x3fc, 0x02cd on 0x3 and
 * RANGE(0xd0, 0xdf, 0xf); intel_lnc_pebs_event_constraints with
 * INTEL_HYBRID_LDLAT_CONSTRAINT(0x1cd, 0x3fc) and STLAT(0x2cd, 0x3);
 * intel_lnc_extra_regs: 0x012a/0x012b mask 0xfffffffffff), no auxiliary
 * event; its data sources the Lion Cove table (lnl_latency_data:
 * lnc_pebs_data_source[], HITM 0xd, one package).  cpu_atom is
 * intel_pmu_init_skt (on intel_pmu_init_grt, intel_cmt_extra_regs), its
 * data sources the CMT table (lnl_latency_data hands the small PMU to
 * mtl_latency_data_small).  mem-loads and mem-stores as Alder Lake's
 * (mem_ld_adl, mem_st_adl).  Counters: leaf 0x23.1's, 10 on cpu_core
 * (GP 0x3FF, K612 update_pmu_cap; sk_counters_of(), sim_kernel_pmu.c), so
 * the load latency's 0x3fc reaches PMC8/9.  Version 6: it programs them
 * all through the version 6 range (sk_pmc_reg(), sim_kernel_pmu.c).
 */
static const struct sk_er er_lnc[] = {
	{ 0x012a, 0xffff, SK_ER_RSP0, 0xfffffffffffULL },
	{ 0x012b, 0xffff, SK_ER_RSP1, 0xfffffffffffULL },
	{ 0x01cd, 0xffff, SK_ER_LDLAT, 0xffff },
	{ 0 },
};
static const struct sk_cons cons_lnc[] = {
	{ 0x01cd, 0xffff, 0x3fc, false }, { 0x02cd, 0xffff, 0x3, false },
	{ 0x20, 0xff, 0xf, false },
	{ 0xd0, 0xff, 0xf, false }, { 0xd1, 0xff, 0xf, false },
	{ 0xd2, 0xff, 0xf, false }, { 0xd3, 0xff, 0xf, false },
	{ 0 },
};
static const struct sk_cons pebs_lnc[] = { { 0x01cd, 0xffff, 0x3fc, false },
					   { 0x02cd, 0xffff, 0x3, false }, { 0 } };
static const struct sk_pmu pmu_lnl_core = {
	"lunarlake_hybrid", NULL, true, 3, true, false, false, false, er_lnc, cons_lnc,
	pebs_lnc, 0x01cd, 0x02cd, sim_dse_lnc, 0xd, 0, false,
};
static const struct sk_pmu pmu_lnl_atom = {
	"lunarlake_hybrid", NULL, true, 3, true, true, false, false, er_cmt, cons_none,
	pebs_grt, 0x05d0, 0x06d0, sim_dse_cmt, 0x8, 0, false,
};
static const uint8_t models_lnl[] = { 0xbd, 0xc6, 0 };

/*
 * The arrowlake_h_hybrid case (K618; not in K612, where 06_C5 gets the
 * generic architectural PMU: pmu-facts 9.9), Arrow Lake-H: three PMUs
 * (intel_pmu_init_hybrid(hybrid_big_small_tiny)).  cpu_core is
 * intel_pmu_init_lnc and cpu_atom intel_pmu_init_skt, as Lunar Lake's;
 * the third, cpu_lowpower (hybrid_tiny), is intel_pmu_init_grt with
 * intel_cmt_extra_regs: Crestmont's 0xD0/0x05 on PMC0-1.  A CPU's PMU
 * is found from CPUID.1AH's core type and native model
 * (find_hybrid_pmu_for_cpu: a Core CPU the big one, an Atom of native
 * model 3 (Skymont) the small, of 2 (Crestmont) the tiny; pmu-facts
 * 9.6), so both Atoms need their native model here.  Data sources
 * (arl_h_latency_data, intel_pmu_pebs_data_source_arl_h): the Lion Cove
 * table on the big PMU, the CMT table on both Atom PMUs.  Leaf 0xA says
 * version 5 on every CPU (285H dump): the legacy counter addresses.
 */
static const struct sk_pmu pmu_arlh_core = {
	"arrowlake_h_hybrid", NULL, true, 3, true, false, false, false, er_lnc, cons_lnc,
	pebs_lnc, 0x01cd, 0x02cd, sim_dse_lnc, 0xd, 0, false,
};
static const struct sk_pmu pmu_arlh_atom = {
	"arrowlake_h_hybrid", NULL, true, 3, true, true, false, false, er_cmt, cons_none,
	pebs_grt, 0x05d0, 0x06d0, sim_dse_cmt, 0x8, 0, false,
};
static const uint8_t models_arlh[] = { 0xc5, 0 };

const struct sk_hybrid sk_hybrids[] = {
	{ models_adl, 2, {
		{ "cpu_core", 0x40, 0, true, 2, &pmu_adl_core },
		{ "cpu_atom", 0x20, 0, false, 0, &pmu_adl_atom },
	} },
	{ models_mtl, 2, {
		{ "cpu_core", 0x40, 0, true, 0, &pmu_mtl_core },
		{ "cpu_atom", 0x20, 0, false, 0, &pmu_mtl_atom },
	} },
	{ models_lnl, 2, {
		{ "cpu_core", 0x40, 0, true, 0, &pmu_lnl_core },
		{ "cpu_atom", 0x20, 0, false, 0, &pmu_lnl_atom },
	} },
	{ models_arlh, 3, {
		{ "cpu_core", 0x40, 0, true, 0, &pmu_arlh_core },
		{ "cpu_atom", 0x20, 3, false, 0, &pmu_arlh_atom },
		{ "cpu_lowpower", 0x20, 2, false, 0, &pmu_arlh_atom },
	} },
};

const size_t sk_nhybrids = sizeof(sk_hybrids) / sizeof(sk_hybrids[0]);
