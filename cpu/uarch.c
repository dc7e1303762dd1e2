/*
 * uarch.c: which microarchitecture a CPU is, and whether lattop can measure it.
 *
 * Owns one const struct uarch per microarchitecture (named facts, turbostat
 * style), each naming its event table (declared here, beside it: the list
 * of tables is derived from uarch_supported[]), and the model table
 * {vendor, family, model, uarch, source} that maps CPUID family/model to
 * them.  uarch_detect() classifies by vendor and
 * family/model only (never by libcpuid's codename), then cross-checks CPUID
 * leaf 0xA against what the event table needs; a mismatch makes the CPU
 * unsupported with the reason, it is never guessed around.  What lattop
 * supports, and what each uarch measures on which models, is derived from
 * these tables (uarch_supports(), uarch_metric_status(), uarch_pmu_table()):
 * no other file lists microarchitectures.
 * Must not read CPUID (cpuid.c does), print, or touch any device.
 *
 * Sources are the keys of shared/reference/pmu-facts.md: K-fam (kernel
 * intel-family.h), K-core (kernel events/intel/core.c), PM (Intel perfmon
 * mapfile.csv), PFM (libpfm4), SDM16/SDM09 (Intel SDM Vol.3B ch.18), LCP
 * and LCP2 (libcpuid CPUID dumps), ILX (InstLatx64 CPUID dumps), and seed
 * 004 (SDM 18.15, the Pentium 4 PMU).
 */
#include <stdio.h>
#include <string.h>

#include "cpu/events.h"
#include "cpu/uarch.h"

/*
 * Supported.  Per field: min_version and gp_needed/gp_width from CPUID
 * leaf 0xA in real dumps (LCP, pmu-facts 1.2) and the SDM tables cited;
 * offcore_msrs and offcore_scope from pmu-facts 2 and 4.5.
 */
extern const struct pmu_table pmu_table_nehalem;   /* cpu/events/nehalem.c */

static const struct uarch uarch_nehalem = {
	.name = "nehalem",
	.pretty = "Nehalem",
	.table = &pmu_table_nehalem,
	.min_version = 3,               /* LCP 06_1A/1E EAX 0x07300403; SDM "version ID 3" */
	.gp_needed = 4,                 /* LCP EAX[15:8] = 4 */
	.gp_width = 48,                 /* SDM09 p.18-71; LCP EAX[23:16] = 0x30 */
	.offcore_msrs = 1,              /* SDM16 p.687 "Nehalem supports 1A6H only"; K-msr */
	.offcore_scope = OFFCORE_CORE,  /* K-core: shared_regs per physical core, no PMU_FL_NO_HT_SHARING */
	.flags = UARCH_F_NHM_CTR_RESET, /* K-core intel_pmu_nhm_workaround: AAK100 (06_1A), AAP53 (06_1E) */
};

static const struct uarch uarch_westmere = {
	.name = "westmere",
	.pretty = "Westmere",
	.table = &pmu_table_nehalem,
	.min_version = 3,               /* LCP 06_25/2C EAX 0x07300403 */
	.gp_needed = 4,
	.gp_width = 48,
	.offcore_msrs = 2,              /* K-core intel_westmere_extra_regs; PFM wsm 0x1b7, 0x1bb */
	.offcore_scope = OFFCORE_CORE,  /* K-core, as Nehalem */
	.flags = UARCH_F_OFFCORE_QUEUE  /* PM WSM-*: 0x60 / 0xB0 OFFCORE_REQUESTS(_OUTSTANDING) */
	       | UARCH_F_NHM_CTR_RESET, /* K-core: westmere branch uses the nhm workaround (BD53 on 06_2C) */
};

extern const struct pmu_table pmu_table_silvermont;   /* cpu/events/silvermont.c */

static const struct uarch uarch_silvermont = {
	.name = "silvermont",
	.pretty = "Silvermont",
	.table = &pmu_table_silvermont,
	.min_version = 3,               /* LCP 06_37/4D EAX 0x07280203 */
	.gp_needed = 2,                 /* SDM16 p.665 Table 18-18; LCP EAX[15:8] = 2 */
	.gp_width = 40,                 /* SDM16 Table 18-18 "R:40"; LCP EAX[23:16] = 0x28 */
	.offcore_msrs = 2,              /* SDM16 p.661 Table 18-14; K-core intel_slm_extra_regs */
	.offcore_scope = OFFCORE_MODULE, /* SDM16 p.661 18.6.2 "shared by two processor cores" */
};

static const struct uarch uarch_airmont = {
	.name = "airmont",
	.pretty = "Airmont",
	.table = &pmu_table_silvermont, /* K-core silvermont branch; PM 4C,5A -> SLM json */
	.min_version = 3,               /* LCP 06_4C/5A EAX 0x07280203 */
	.gp_needed = 2,
	.gp_width = 40,
	.offcore_msrs = 2,
	.offcore_scope = OFFCORE_MODULE, /* as Silvermont (SDM16 p.661) */
};

extern const struct pmu_table pmu_table_goldmont;   /* cpu/events/goldmont.c */

/*
 * Goldmont's MSR_OFFCORE_RSP_x scope is UNVERIFIED (pmu-facts 7 item 4):
 * take the wider one, per module as on Silvermont, so that lattop never
 * lets two cores of a module program it differently.
 */
static const struct uarch uarch_goldmont = {
	.name = "goldmont",
	.pretty = "Goldmont",
	.table = &pmu_table_goldmont,
	.min_version = 4,               /* SDM16 p.664 18.7 "versionID = 4"; LCP 06_5C EAX 0x07300404 */
	.gp_needed = 4,                 /* SDM16 Table 18-18 */
	.gp_width = 48,                 /* SDM16 Table 18-18 "R:48" */
	.offcore_msrs = 2,              /* K-core intel_glm_extra_regs */
	.offcore_scope = OFFCORE_MODULE, /* UNVERIFIED, see above */
};

static const struct uarch uarch_goldmont_plus = {
	.name = "goldmont-plus",
	.pretty = "Goldmont Plus",
	.table = &pmu_table_goldmont,   /* K-core uses the GLM extra regs; PM GLP json */
	.min_version = 4,               /* LCP 06_7A EAX 0x07300404 */
	.gp_needed = 4,
	.gp_width = 48,
	.offcore_msrs = 2,
	.offcore_scope = OFFCORE_MODULE, /* UNVERIFIED, as Goldmont */
};

extern const struct pmu_table pmu_table_haswell;   /* cpu/events/haswell.c */

static const struct uarch uarch_haswell = {
	.name = "haswell",
	.pretty = "Haswell",
	.table = &pmu_table_haswell,
	.min_version = 3,               /* SDM16 p.710 Table 18-53; LCP EAX 0x07300403 */
	.gp_needed = 4,                 /* SDM16 Table 18-53: 4 per thread (8 with HT off) */
	.gp_width = 48,
	.offcore_msrs = 2,              /* K-core intel_snbep_extra_regs: 0x1A6, 0x1A7 */
	.offcore_scope = OFFCORE_THREAD, /* K-core PMU_FL_NO_HT_SHARING */
	/*
	 * HSD29 (pmu-facts 6, 8.6): K-core intel_pmu_init adds the
	 * intel_ht_bug quirk for HASWELL, HASWELL_X, HASWELL_L and HASWELL_G
	 * (every model above), which enforces INTEL_EXCLEVT_CONSTRAINT on
	 * 0xd0-0xd3; fixup_ht_bug() drops it when HT is off.  Its Broadwell
	 * case has no such quirk.
	 */
	.flags = UARCH_F_HT_EXCL,
	.ht_erratum = "HSD29",
};

static const struct uarch uarch_broadwell = {
	.name = "broadwell",
	.pretty = "Broadwell",
	.table = &pmu_table_haswell,    /* pmu-facts 1.1: Haswell's neighbour */
	.min_version = 3,               /* LCP 06_3D/47/4F EAX 0x07300403 */
	.gp_needed = 4,
	.gp_width = 48,
	.offcore_msrs = 2,
	.offcore_scope = OFFCORE_THREAD, /* K-core PMU_FL_NO_HT_SHARING */
};

extern const struct pmu_table pmu_table_sandybridge;   /* cpu/events/sandybridge.c */

/*
 * Sandy Bridge and Ivy Bridge share a table: the same events, encodings and
 * MSRValues in the SNB, JKT, IVB and IVT json, the same kernel constraints
 * (K-core intel_snb/ivb_event_constraints differ in events lattop does not
 * use), the same HT bug.  Leaf 0xA (LCP dumps, github anrieff/libcpuid):
 * i7-2600K 06_2A, i7-3960X 06_2D, i7-3770K 06_3A, E5-2697 v2 06_3E: EAX
 * 0x07300403 (i5-2400 06_2A, HT off: 0x07300803), EBX 0, EDX 0x603:
 * version 3, 4 counters per thread (8 with HT off), 48 bits, 3 fixed x 48 bits.
 */
static const struct uarch uarch_sandybridge = {
	.name = "sandybridge",
	.pretty = "Sandy Bridge",
	.table = &pmu_table_sandybridge,
	.min_version = 3,               /* LCP 06_2A/2D EAX[7:0] = 3; SDM16 18.9 */
	.gp_needed = 4,                 /* LCP EAX[15:8] = 4 with HT on; SDM16 p.689 18.9.2 */
	.gp_width = 48,                 /* LCP EAX[23:16] = 0x30 */
	.offcore_msrs = 2,              /* K-core intel_snb(ep)_extra_regs: 0x1A6, 0x1A7 */
	.offcore_scope = OFFCORE_THREAD, /* K-core PMU_FL_NO_HT_SHARING ("all extra regs are per-cpu") */
	/*
	 * BJ122 (pmu-facts 6): K-core intel_pmu_init adds intel_ht_bug for
	 * SANDYBRIDGE and SANDYBRIDGE_X: 0xd0-0xd3 need the sibling's counter idle.
	 */
	.flags = UARCH_F_HT_EXCL,
	.ht_erratum = "BJ122",
};

static const struct uarch uarch_ivybridge = {
	.name = "ivybridge",
	.pretty = "Ivy Bridge",
	.table = &pmu_table_sandybridge,
	.min_version = 3,               /* LCP 06_3A/3E EAX 0x07300403 */
	.gp_needed = 4,
	.gp_width = 48,
	.offcore_msrs = 2,              /* K-core intel_snb(ep)_extra_regs */
	.offcore_scope = OFFCORE_THREAD, /* K-core PMU_FL_NO_HT_SHARING */
	.flags = UARCH_F_HT_EXCL,       /* BV98: K-core intel_ht_bug on IVYBRIDGE, IVYBRIDGE_X */
	.ht_erratum = "BV98",
};

extern const struct pmu_table pmu_table_skylake;   /* cpu/events/skylake.c */

/*
 * Skylake and the cores that kept its PMU: Kaby Lake, Coffee Lake, Whiskey
 * and Amber Lake, Comet Lake, and the server die with Cascade Lake and
 * Cooper Lake.  K-core intel_pmu_init treats SKYLAKE(_L, _X), KABYLAKE(_L)
 * and COMETLAKE(_L) as one case ("skylake"); PM mapfile.csv maps them to
 * SKL (clients) and SKX/CLX (06_55) json with the same core events.  Leaf
 * 0xA (LCP dumps, github anrieff/libcpuid tests/intel/x86-64/skylake/):
 * EAX 0x07300404 (0x07300804 with HT off), EBX 0, EDX 0x603 on every part:
 * version 4, 4 counters per thread, 48 bits, 3 fixed x 48 bits.
 */
static const struct uarch uarch_skylake = {
	.name = "skylake",
	.pretty = "Skylake",
	.table = &pmu_table_skylake,
	.min_version = 4,               /* LCP EAX[7:0] = 4 on 06_4E/5E/55/8E/9E/A5/A6 */
	.gp_needed = 4,                 /* LCP EAX[15:8] = 4 with HT on */
	.gp_width = 48,                 /* LCP EAX[23:16] = 0x30 */
	.offcore_msrs = 2,              /* K-core intel_skl_extra_regs: 0x1A6, 0x1A7 */
	.offcore_scope = OFFCORE_THREAD, /* K-core PMU_FL_NO_HT_SHARING */
	/* no HT bug: K-core's Skylake case adds no intel_ht_bug */
};

extern const struct pmu_table pmu_table_icelake;   /* cpu/events/icelake.c */

/*
 * The Ice Lake family (pmu-facts 9.1): K612 intel_pmu_init treats
 * ICELAKE(_L, _X, _D), TIGERLAKE(_L) and ROCKETLAKE as one case
 * ("icelake"), with one constraint table and one set of extra registers.
 * Leaf 0xA in every dump (LCP2 i7-1065G7, i7-1165G7, i9-11900K; ILX Gold
 * 6336Y): EAX 0x08300805, EBX 0, ECX 0xF, EDX 0x8604: version 5, 8
 * counters per thread with HT on, 48 bits, fixed counters 0-3 x 48 bits.
 * Three uarchs for the three cores, as --list-uarchs names them.
 */
#define ICL_FAMILY                                                      \
	.table = &pmu_table_icelake,                                    \
	.min_version = 5,               /* LCP2, ILX EAX[7:0] = 5 */    \
	.gp_needed = 8,                 /* LCP2, ILX EAX[15:8] = 8 */   \
	.gp_width = 48,                 /* EAX[23:16] = 0x30 */         \
	.offcore_msrs = 2,              /* K612 intel_icl_extra_regs: 0x1A6, 0x1A7 */ \
	.offcore_scope = OFFCORE_THREAD /* K612 PMU_FL_NO_HT_SHARING (icelake case) */

static const struct uarch uarch_icelake = {
	.name = "icelake",
	.pretty = "Ice Lake",
	ICL_FAMILY,
	.flags = UARCH_F_XSNP_HITM,     /* PM2 ICL XSNP_HITM, ICX XSNP_FWD "HitM responses" */
};

static const struct uarch uarch_tigerlake = {
	.name = "tigerlake",
	.pretty = "Tiger Lake",
	ICL_FAMILY,
	/* no UARCH_F_XSNP_HITM: PM2 TGL's XSNP_FWD adds clean forwards (pmu-facts 9.4) */
};

static const struct uarch uarch_rocketlake = {
	.name = "rocketlake",
	.pretty = "Rocket Lake",
	ICL_FAMILY,
	.flags = UARCH_F_XSNP_HITM,     /* PM2 RKL XSNP_HITM */
};

extern const struct pmu_table pmu_table_sapphirerapids;   /* cpu/events/sapphirerapids.c */

/*
 * Sapphire Rapids and Emerald Rapids: K612 intel_pmu_init's
 * SAPPHIRERAPIDS_X / EMERALDRAPIDS_X case, one set of constraints and
 * extra registers (pmu-facts 9.9).  Leaf 0xA in the dumps (ILX w7-2475X,
 * Gold 5520+): EAX 0x08300805, EBX 0, ECX 0xF, EDX 0x8604.  Server parts
 * only: the remote events are every model's.
 */
#define SPR_FAMILY                                                      \
	.table = &pmu_table_sapphirerapids,                             \
	.min_version = 5,               /* ILX EAX[7:0] = 5 */          \
	.gp_needed = 8,                 /* ILX EAX[15:8] = 8 */         \
	.gp_width = 48,                                                 \
	.offcore_msrs = 2,              /* K612 intel_glc_extra_regs: 0x1A6, 0x1A7 */ \
	.offcore_scope = OFFCORE_THREAD, /* K612 PMU_FL_NO_HT_SHARING (glc) */ \
	/* PM2 SPR/EMR XSNP_FWD "HitM responses"; 0xD3 REMOTE_* in both json */ \
	.flags = UARCH_F_XSNP_HITM | UARCH_F_REMOTE_EVENTS

static const struct uarch uarch_sapphirerapids = {
	.name = "sapphirerapids",
	.pretty = "Sapphire Rapids",
	SPR_FAMILY,
};

static const struct uarch uarch_emeraldrapids = {
	.name = "emeraldrapids",
	.pretty = "Emerald Rapids",
	SPR_FAMILY,
};

/*
 * The Golden Cove client core: Alder Lake and Raptor Lake, every P-core
 * (pmu-facts 9.1: Golden Cove, Raptor Cove).  The kernel gives their PMU
 * the constraints and extra registers of Sapphire Rapids (K612 ADL case of
 * intel_pmu_init: intel_glc_event_constraints, intel_glc_extra_regs,
 * intel_glc_pebs_event_constraints), and Intel's ADL file names the same
 * encodings for what lattop counts (PM2 ADL/events/alderlake_goldencove_core.json:
 * 0xCD/0x01 on counters 1-7, 0xD2/0x02 XSNP_NO_FWD, 0xD2/0x04 XSNP_FWD
 * "HitM", 0x20/0x01 and 0x21/0x01 on 0-3, OCR 0x2A/0x2B; tests/test_events.c
 * holds those values).  The client part has no remote events (0xD3 is
 * LOCAL_DRAM there): no UARCH_F_REMOTE_EVENTS.  8 general-purpose and 4
 * fixed counters: leaf 0xA of a P-core-only part (LCP2 i5-12400), and the
 * kernel's view of a hybrid part's P-cores (pmu-facts 9.6).
 */
#define GLC_CLIENT                                                      \
	.table = &pmu_table_sapphirerapids,                             \
	.min_version = 5,               /* LCP2 EAX[7:0] = 5 */         \
	.gp_needed = 8,                 /* LCP2 i5-12400; K612 ADL case (hybrid) */ \
	.gp_width = 48,                 /* LCP2 EAX[23:16] = 0x30 */    \
	.offcore_msrs = 2,              /* K612 intel_glc_extra_regs: 0x1A6, 0x1A7 */ \
	.offcore_scope = OFFCORE_THREAD, /* K612 PMU_FL_NO_HT_SHARING (glc) */ \
	.flags = UARCH_F_XSNP_HITM      /* PM2 ADL GLC XSNP_FWD "HitM responses" */

static const struct uarch uarch_alderlake = {
	.name = "alderlake",
	.pretty = "Alder Lake",
	GLC_CLIENT,
};

static const struct uarch uarch_raptorlake = {
	.name = "raptorlake",
	.pretty = "Raptor Lake",
	GLC_CLIENT,
};

/* The P-core types of the hybrids, as --detect's core_types name them. */
static const struct uarch uarch_goldencove = {
	.name = "goldencove",
	.pretty = "Golden Cove",
	GLC_CLIENT,
};

static const struct uarch uarch_raptorcove = {
	.name = "raptorcove",
	.pretty = "Raptor Cove",
	GLC_CLIENT,
};

/*
 * Redwood Cove, the P-cores of Meteor Lake and Arrow Lake-U (PM2 mapfile
 * 06_AA, AC, B5 0x40,0x000002 -> meteorlake_redwoodcove_core.json V1.22):
 * the file gives the Golden Cove client codes, umasks and counters for
 * every event lattop counts (0xCD/0x01 on 1-7, 0xD2/0x02 XSNP_NO_FWD,
 * 0xD2/0x04 XSNP_FWD "HitM responses from shared L3", 0x20/0x21 on 0-3,
 * OCR 0x2A/0x2B; tests/test_events.c holds its values), as Granite Rapids'
 * Redwood Cove does; K612's meteorlake_hybrid case (pmu-facts 9.9) keeps
 * the load latency off PMC0 (0xfe) and pairs no auxiliary event with it
 * (pmu-facts 9.3), which lattop never programs anyway
 * (events/sapphirerapids.c).  Counters (LCP2 155H CPU 0): leaf 0xA 8 GP, 3 fixed;
 * leaf 0x23.1 GP 0xFF, fixed 0xF (the fourth, SLOTS, unused here).
 */
static const struct uarch uarch_redwoodcove = {
	.name = "redwoodcove",
	.pretty = "Redwood Cove",
	GLC_CLIENT,
};

/*
 * Meteor Lake 06_AA/AC and Arrow Lake 06_B5, C5, C6: every model hybrid
 * (pmu-facts 9.1).  The part's table is its P-core's, as Alder Lake's;
 * each core type is measured with its own (uarch_hybrids[]).  Arrow Lake
 * is one part for three models: 06_B5 (Arrow Lake-U: Redwood Cove +
 * Crestmont), whose P-core table the part names, 06_C6 (Arrow Lake-S/HX:
 * Lion Cove + Skymont) and 06_C5 (Arrow Lake-H: Lion Cove, Skymont and
 * low-power Crestmont E-cores); --list-uarchs says which type is on which.
 */
static const struct uarch uarch_meteorlake = {
	.name = "meteorlake",
	.pretty = "Meteor Lake",
	GLC_CLIENT,
};

static const struct uarch uarch_arrowlake = {
	.name = "arrowlake",
	.pretty = "Arrow Lake",
	GLC_CLIENT,
};

extern const struct pmu_table pmu_table_lioncove;   /* cpu/events/lioncove.c */

/*
 * Lion Cove, the P-cores of Lunar Lake and Arrow Lake-S/HX and -H (PM2
 * mapfile 06_BD, C5, C6 0x40,0x000003; K612 lunarlake_hybrid with
 * intel_pmu_init_lnc, pmu-facts 9.9; 06_C5 is K618's arrowlake_h_hybrid).
 * Counters (LCP2 288V, 265K, 285H, pmu-facts 9.1): leaf 0xA 8 GP x48, 3
 * fixed; leaf 0x23.1 GP 0x3FF (10), fixed 0xF.  Perfmon version 6 on 06_BD
 * and C6 (EAX 0x0D300806), 5 on 06_C5 (EAX 0x07300805): cpu/pmu.c programs
 * a version 6 PMU through the version 6 MSR range (pmu-facts 9.2, ML-V6),
 * PMC0-9 there, PMC0-7 on version 5 (events/lioncove.c says why).  No SMT on these parts'
 * P-cores in the dumps (each core one CPU); the offcore-response MSRs are
 * per thread as on Golden Cove (K612 intel_pmu_init_lnc on
 * intel_pmu_init_glc: PMU_FL_NO_HT_SHARING; intel_lnc_extra_regs 0x012a,
 * 0x012b).  0xD2/0x04 counts HITM alone (PM2 "Hit-with-FWD is normally
 * excluded"): UARCH_F_XSNP_HITM.
 */
#define LNC_CORE                                                        \
	.table = &pmu_table_lioncove,                                   \
	.min_version = 5,               /* LCP2 285H EAX[7:0] = 5; 288V, 265K: 6 */ \
	.gp_needed = 8,                 /* leaf 0xA's 8 (a libcpuid dump has no leaf 0x23.1's 10) */ \
	.gp_width = 48,                 /* LCP2 EAX[23:16] = 0x30 */    \
	.offcore_msrs = 2,              /* K612 intel_lnc_extra_regs: 0x1A6, 0x1A7 */ \
	.offcore_scope = OFFCORE_THREAD, /* K612 intel_pmu_init_glc: PMU_FL_NO_HT_SHARING */ \
	.flags = UARCH_F_XSNP_HITM      /* PM2 LNL/ARL Lion Cove XSNP_HITM (above) */

static const struct uarch uarch_lioncove = {
	.name = "lioncove",
	.pretty = "Lion Cove",
	LNC_CORE,
};

/* Lunar Lake 06_BD: Lion Cove + Skymont, the part named by its P-core's table. */
static const struct uarch uarch_lunarlake = {
	.name = "lunarlake",
	.pretty = "Lunar Lake",
	LNC_CORE,
};

extern const struct pmu_table pmu_table_skymont;   /* cpu/events/skymont.c */

/*
 * Skymont, the E-cores of Lunar Lake and Arrow Lake-S/HX and -H (PM2
 * mapfile 06_BD, C5, C6 0x20,0x000003; K612 intel_pmu_init_skt).
 * Counters (LCP2 288V CPU 4, 265K CPU 2, 285H CPU 2; pmu-facts 9.1):
 * leaf 0x23.1 GP 0xFF, fixed 0x77 (0-2 used).  No SMT; the
 * MSR_OFFCORE_RSP_x scope inside a module is UNVERIFIED (pmu-facts 9.10
 * item 5): per module, as Gracemont.  Two uarchs for one core: Arrow
 * Lake's file has a HITM event Lunar Lake's lacks (pmu-facts 9.4).  Core
 * types of hybrids only (uarch_hybrids[]).
 */
#define SKT_CORE                                                        \
	.name = "skymont",                                              \
	.pretty = "Skymont",                                            \
	.table = &pmu_table_skymont,                                    \
	.min_version = 5,               /* LCP2 285H EAX[7:0] = 5; 288V, 265K: 6 */ \
	.gp_needed = 8,                 /* LCP2 leaf 0x23.1 GP 0xFF; PM2 Counter 0-7 */ \
	.gp_width = 48,                                                 \
	.offcore_msrs = 2,              /* PM2 OCR 0xB7 MSR 0x1a6,0x1a7; K612 intel_cmt_extra_regs */ \
	.offcore_scope = OFFCORE_MODULE /* UNVERIFIED, see above */

static const struct uarch uarch_skymont = {
	SKT_CORE,
	.flags = UARCH_F_L3_SNOOP_HITM, /* PM2 arrowlake_skymont_core.json 0xD4/0x08 */
};

static const struct uarch uarch_skymont_lnl = {
	SKT_CORE,
	/* PM2 lunarlake_skymont_core.json: no snoop event */
};

/* Lakefield's P-core: the Ice Lake client core (K-fam LAKEFIELD "Sunny Cove / Tremont"). */
static const struct uarch uarch_sunnycove = {
	.name = "sunnycove",
	.pretty = "Sunny Cove",
	ICL_FAMILY,
	.flags = UARCH_F_XSNP_HITM,     /* PM2 ICL XSNP_HITM */
};

/*
 * Granite Rapids X and D (06_AD, 06_AE; Redwood Cove): K612's
 * granite_rapids case, Golden Cove's constraints (pmu-facts 9.3, 9.9);
 * PM2 GNR's events lattop uses are SPR's (events/sapphirerapids.c).  Leaf
 * 0xA (ILX Xeon 658X 06_AD): EAX 0x08300805, ECX 0xF, EDX 0x8604, as on
 * Sapphire Rapids; leaf 0x23.1 says the same (GP 0xFF, fixed 0xF), so
 * leaf 0xA is enough here.  Leaf 0x1A says Core (0x40000002) with
 * CPUID.7.0:EDX[15] clear: not hybrid (pmu-facts 9.6).  No 06_AE dump.
 */
static const struct uarch uarch_graniterapids = {
	.name = "graniterapids",
	.pretty = "Granite Rapids",
	SPR_FAMILY,
};

extern const struct pmu_table pmu_table_tremont;   /* cpu/events/tremont.c */

/*
 * Tremont: Snow Ridge 06_86, Elkhart Lake 06_96, Jasper Lake 06_9C (K612
 * intel_pmu_init's Tremont case; PM2 mapfile: SNR, EHL).  Leaf 0xA (LCP2
 * J6412 06_96, N5100 06_9C): EAX 0x07300405, ECX 0x7, EDX 0x8603: version
 * 5, 4 counters, 48 bits, fixed counters 0-2; no 06_86 dump (pmu-facts
 * 9.1).  Leaf 0x1A says Atom (0x20000000), CPUID.7.0:EDX[15] is clear: not
 * hybrid.  No SMT; four cores share an L2 (a module): the MSR_OFFCORE_RSP_x
 * scope is taken per module, as on Goldmont (UNVERIFIED, pmu-facts 9.10
 * item 5).
 */
static const struct uarch uarch_tremont = {
	.name = "tremont",
	.pretty = "Tremont",
	.table = &pmu_table_tremont,
	.min_version = 5,               /* LCP2 EAX[7:0] = 5 */
	.gp_needed = 4,                 /* LCP2 EAX[15:8] = 4; PM2 Counter 0-3 */
	.gp_width = 48,                 /* LCP2 EAX[23:16] = 0x30 */
	.offcore_msrs = 2,              /* K612 intel_tnt_extra_regs: 0x1A6, 0x1A7 */
	.offcore_scope = OFFCORE_MODULE, /* UNVERIFIED, see above */
};

extern const struct pmu_table pmu_table_gracemont;   /* cpu/events/gracemont.c */

/*
 * Gracemont: Alder Lake-N 06_BE, Gracemont cores only (K612 intel_pmu_init's
 * gracemont case; PM2 mapfile 06_BE -> alderlake_gracemont_core.json), and
 * the E-cores of Alder and Raptor Lake (uarch_hybrids[]; PM2 mapfile rows
 * 0x20,0x000001 GRT), whose leaf 0xA says the same.
 * Leaf 0xA (LCP2 i3-N305, N95): EAX 0x07300605, ECX 0x7, EDX 0x8603:
 * version 5, 6 counters, 48 bits, fixed counters 0-2.  Leaf 0x1A says
 * Atom (0x20000001) but CPUID.7.0:EDX[15] is clear: not hybrid (pmu-facts
 * 9.6).  No SMT.  The MSR_OFFCORE_RSP_x scope inside a module of four
 * cores sharing an L2 is UNVERIFIED (pmu-facts 9.10 item 5; the kernel
 * shares nothing): the wider one, per module, as on Goldmont, so that
 * lattop never lets two cores of a module program it differently.
 */
static const struct uarch uarch_gracemont = {
	.name = "gracemont",
	.pretty = "Gracemont",
	.table = &pmu_table_gracemont,
	.min_version = 5,               /* LCP2 06_BE EAX[7:0] = 5 */
	.gp_needed = 6,                 /* LCP2 EAX[15:8] = 6; PM2 Counter 0-5 */
	.gp_width = 48,                 /* LCP2 EAX[23:16] = 0x30 */
	.offcore_msrs = 2,              /* K612 intel_grt_extra_regs: 0x1A6, 0x1A7 */
	.offcore_scope = OFFCORE_MODULE, /* UNVERIFIED, see above */
};

extern const struct pmu_table pmu_table_crestmont;   /* cpu/events/crestmont.c */

/*
 * Crestmont: Sierra Forest 06_AF, Grand Ridge 06_B6 (K612 intel_pmu_init's
 * crestmont case; PM2 mapfile: SRF, GRR).  No dump of either (pmu-facts
 * 9.1: their leaf 0xA and 0x23 are UNVERIFIED): version 5 and 48-bit
 * counters as every Atom since Tremont, 8 counters from Intel's lists
 * (Counter 0-7) and Meteor Lake's Crestmont cores (leaf 0x23.1 GP 0xFF,
 * fixed 0x7); a part whose leaf 0xA says otherwise is refused with the
 * reason.  Not hybrid, no SMT; four cores share an L2: the
 * MSR_OFFCORE_RSP_x scope is taken per module (UNVERIFIED, as Goldmont).
 */
#define CMT_FAMILY                                                      \
	.table = &pmu_table_crestmont,                                  \
	.min_version = 5,               /* UNVERIFIED, see above */     \
	.gp_needed = 8,                 /* PM2 SRF/GRR Counter 0-7; UNVERIFIED in CPUID */ \
	.gp_width = 48,                                                 \
	.offcore_msrs = 2,              /* K612 intel_cmt_extra_regs: 0x1A6, 0x1A7 */ \
	.offcore_scope = OFFCORE_MODULE /* UNVERIFIED, see above */

static const struct uarch uarch_crestmont = {
	.name = "crestmont",
	.pretty = "Crestmont",
	CMT_FAMILY,
	.flags = UARCH_F_OCR_SNOOP,     /* PM2 SRF, GRR OCR ...L3_HIT.SNOOP_HITM */
};

/*
 * The same core as the E-cores of Meteor Lake and Arrow Lake-U (PM2
 * mapfile 06_AA, AC, B5 0x20,0x000002 -> meteorlake_crestmont_core.json),
 * whose file adds OCR ...L3_HIT.SNOOP_HIT_NO_FWD.  Leaf 0xA and 0x23.1 on
 * them (LCP2 155H CPU 2): EAX 0x07300805, ECX 0x7, EDX 0x8603; GP 0xFF,
 * fixed 0x7: the 8 counters the table is written for.  Not in
 * uarch_supported[]: a core type of hybrids (uarch_hybrids[]) only.
 */
static const struct uarch uarch_crestmont_mtl = {
	.name = "crestmont",
	.pretty = "Crestmont",
	CMT_FAMILY,
	.flags = UARCH_F_OCR_SNOOP | UARCH_F_OCR_SNOOP_HIT,   /* PM2 MTL Crestmont */
};

/*
 * Arrow Lake-H's low-power E-cores (PM2 mapfile 06_C5 0x20,0x000002
 * LowPower_Atom -> arrowlake_crestmont_core.json): the file has no
 * offcore-response and no snoop event, so no snoop row fits them.  Leaf
 * 0x23.1 (LCP2 285H CPU 14): GP 0xFF, fixed 0x7.
 */
static const struct uarch uarch_crestmont_lpe = {
	.name = "crestmont-lpe",
	.pretty = "Crestmont LP-E",
	CMT_FAMILY,
};

/*
 * Known, not supported.  why_not completes "<Pretty> (FF_MM) is not
 * supported: "; uarch_detect() adds what lattop supports (uarch_supports()).
 */
#define WHY_NO_TABLE "lattop has no event table for it"

static const struct uarch uarch_netburst = {
	.name = "netburst",
	.pretty = "NetBurst",
	.why_not = "its PMU uses ESCR/CCCR pairs, not architectural perfmon (SDM 18.15)",
};

static const struct uarch uarch_core2 = {
	.name = "core2",
	.pretty = "Core 2",
	.why_not = WHY_NO_TABLE,
};

static const struct uarch uarch_bonnell = {
	.name = "bonnell",
	.pretty = "Bonnell",
	.why_not = WHY_NO_TABLE,
};

/*
 * The hybrids lattop does not measure yet: named after K-fam (its
 * MICROARCH, the market-segment suffix dropped, as skylake holds
 * SKYLAKE_X; the Atoms by their core, as tremont), cores from K-fam's
 * comments and pmu-facts 9.1.  A part that has no table stays unmeasured
 * whatever its core types; each type that has none says why.
 */
static const struct uarch uarch_lakefield = {
	.name = "lakefield",
	.pretty = "Lakefield",
	/*
	 * PM2 mapfile.csv has no 06_8A row (no Intel event list for either
	 * core), and leaf 0xA on its Sunny Cove CPU (LCP2 i5-L16G7 CPU 4) says
	 * 4 general-purpose counters where Ice Lake's tables are written for 8.
	 */
	.why_not = "Intel's event lists (perfmon mapfile) name no events for 06_8A, and "
		   "its Sunny Cove core reports 4 general-purpose counters in CPUID leaf 0xA, "
		   "not the 8 of the Ice Lake cores lattop's table is written for; its Tremont "
		   "cores have no load-latency facility (as on every Tremont)",
};

static const struct uarch uarch_pantherlake = {
	.name = "pantherlake",
	.pretty = "Panther Lake",
	.why_not = WHY_NO_TABLE " (Cougar Cove P-cores and Darkmont E-cores)",
};

static const struct uarch uarch_cougarcove = {
	.name = "cougarcove",
	.pretty = "Cougar Cove",
	.why_not = WHY_NO_TABLE " (Lion Cove's PMU)",
};

static const struct uarch uarch_darkmont = {
	.name = "darkmont",
	.pretty = "Darkmont",
	/* load latency on PMC0-7 in PM2 CWF/PTL, 0-1 in K618: unresolved (pmu-facts 9.10 item 3) */
	.why_not = WHY_NO_TABLE,
};

static const struct uarch uarch_airmont_np = {
	.name = "airmont-np",
	.pretty = "Airmont NP",
	.why_not = "neither the kernel nor Intel perfmon map this model to an event list",
};

static const struct uarch uarch_silvermont_x3 = {
	.name = "silvermont-x3",
	.pretty = "Silvermont X3 (SoFIA)",
	.why_not = "neither the kernel nor Intel perfmon map this model to an event list",
};

static const struct uarch uarch_zen = {
	.name = "zen",
	.pretty = "AMD Zen",
	.why_not = "AMD's PMU is not Intel architectural perfmon",
};

static const struct uarch uarch_amd = {
	.name = "amd",
	.pretty = "AMD",
	.why_not = "AMD's PMU is not Intel architectural perfmon",
};

static const struct uarch uarch_unknown = {
	.name = "unknown",
	.pretty = "unknown CPU",
	.why_not = "lattop does not know this CPU",
};

const struct uarch *const uarch_supported[] = {
	&uarch_nehalem,
	&uarch_westmere,
	&uarch_silvermont,
	&uarch_airmont,
	&uarch_goldmont,
	&uarch_goldmont_plus,
	&uarch_haswell,
	&uarch_broadwell,
	&uarch_sandybridge,
	&uarch_ivybridge,
	&uarch_skylake,
	&uarch_icelake,
	&uarch_tigerlake,
	&uarch_rocketlake,
	&uarch_sapphirerapids,
	&uarch_emeraldrapids,
	&uarch_alderlake,
	&uarch_raptorlake,
	&uarch_meteorlake,
	&uarch_arrowlake,
	&uarch_lunarlake,
	&uarch_graniterapids,
	&uarch_tremont,
	&uarch_gracemont,
	&uarch_crestmont,
	NULL,
};

#define INTEL6(m, u, src)          { "GenuineIntel", 0x6, m, &u, 0, src }
#define INTEL6F(m, u, flags, src)  { "GenuineIntel", 0x6, m, &u, flags, src }

/* First match wins: wildcards last. */
const struct uarch_model uarch_models[] = {
	INTEL6(0x1A, uarch_nehalem, "K-fam NEHALEM_EP; K-core nehalem; PM NHM-EP; PFM nhm"),
	INTEL6(0x1E, uarch_nehalem, "K-fam NEHALEM; K-core nehalem; PM NHM-EP; PFM nhm"),
	INTEL6(0x1F, uarch_nehalem, "K-fam NEHALEM_G; PM NHM-EP; PFM nhm (not in the K-core switch)"),
	INTEL6(0x2E, uarch_nehalem, "K-fam NEHALEM_EX; K-core nehalem; PM NHM-EX; PFM nhm_ex"),
	INTEL6(0x25, uarch_westmere, "K-fam WESTMERE; K-core westmere; PM WSM-EP-SP; PFM wsm"),
	INTEL6(0x2C, uarch_westmere, "K-fam WESTMERE_EP; K-core westmere; PM WSM-EP-DP; PFM wsm_dp"),
	INTEL6(0x2F, uarch_westmere, "K-fam WESTMERE_EX; K-core westmere; PM WSM-EX; PFM wsm_dp"),
	INTEL6(0x37, uarch_silvermont, "K-fam ATOM_SILVERMONT; K-core silvermont; PM SLM; PFM slm"),
	INTEL6(0x4A, uarch_silvermont, "K-fam ATOM_SILVERMONT_MID; K-core silvermont; PM SLM"),
	INTEL6(0x4D, uarch_silvermont, "K-fam ATOM_SILVERMONT_D; K-core silvermont; PM SLM; PFM slm"),
	INTEL6(0x4C, uarch_airmont, "K-fam ATOM_AIRMONT; K-core silvermont; PM SLM; PFM slm"),
	INTEL6(0x5A, uarch_airmont, "K-fam ATOM_AIRMONT_MID; K-core silvermont; PM SLM"),
	INTEL6(0x5C, uarch_goldmont, "K-fam ATOM_GOLDMONT; K-core goldmont; PM GLM; PFM glm"),
	INTEL6(0x5F, uarch_goldmont, "K-fam ATOM_GOLDMONT_D; K-core goldmont; PM GLM; PFM glm"),
	INTEL6(0x7A, uarch_goldmont_plus, "K-fam ATOM_GOLDMONT_PLUS; K-core goldmont_plus; PM GLP"),
	INTEL6(0x3C, uarch_haswell, "K-fam HASWELL; K-core haswell; PM HSW; PFM hsw"),
	INTEL6F(0x3F, uarch_haswell, UARCH_F_REMOTE_EVENTS,
		"K-fam HASWELL_X; K-core haswell; PM HSX (0xD3 REMOTE_HITM/FWD); PFM hsw_ep"),
	INTEL6(0x45, uarch_haswell, "K-fam HASWELL_L; K-core haswell; PM HSW; PFM hsw"),
	INTEL6(0x46, uarch_haswell, "K-fam HASWELL_G; K-core haswell; PM HSW; PFM hsw"),
	INTEL6(0x3D, uarch_broadwell, "K-fam BROADWELL; K-core broadwell; PM BDW"),
	INTEL6(0x47, uarch_broadwell, "K-fam BROADWELL_G; K-core broadwell; PM BDW"),
	INTEL6F(0x4F, uarch_broadwell, UARCH_F_REMOTE_EVENTS,
		"K-fam BROADWELL_X; K-core broadwell; PM BDX (0xD3 REMOTE_HITM/FWD); PFM bdw_ep"),
	INTEL6(0x56, uarch_broadwell, "K-fam BROADWELL_D; K-core broadwell; PM BDW-DE"),
	INTEL6(0x2A, uarch_sandybridge, "K-fam SANDYBRIDGE; K-core sandybridge; PM SNB; PFM snb"),
	INTEL6(0x2D, uarch_sandybridge, "K-fam SANDYBRIDGE_X; K-core sandybridge (snbep extra regs); "
	       "PM JKT (no 0xD3 REMOTE_HITM/FWD); PFM snb_ep"),
	INTEL6(0x3A, uarch_ivybridge, "K-fam IVYBRIDGE; K-core ivybridge; PM IVB; PFM ivb"),
	INTEL6F(0x3E, uarch_ivybridge, UARCH_F_REMOTE_EVENTS,
		"K-fam IVYBRIDGE_X; K-core ivybridge (snbep extra regs); PM IVT (0xD3 REMOTE_HITM/FWD); "
		"PFM ivb_ep"),
	INTEL6(0x4E, uarch_skylake, "K-fam SKYLAKE_L; K-core skylake; PM SKL; PFM skl"),
	INTEL6(0x5E, uarch_skylake, "K-fam SKYLAKE; K-core skylake; PM SKL; PFM skl"),
	INTEL6F(0x55, uarch_skylake, UARCH_F_REMOTE_EVENTS,
		"K-fam SKYLAKE_X (Skylake-SP, Cascade Lake, Cooper Lake); K-core skylake; PM SKX "
		"(steppings 0-4), CLX (5-F) with 0xD3 REMOTE_HITM/FWD; PFM skx"),
	INTEL6(0x8E, uarch_skylake, "K-fam KABYLAKE_L (Kaby, Coffee, Whiskey, Amber Lake); "
	       "K-core skylake; PM SKL; PFM skl"),
	INTEL6(0x9E, uarch_skylake, "K-fam KABYLAKE (Kaby, Coffee Lake); K-core skylake; PM SKL; PFM skl"),
	INTEL6(0xA5, uarch_skylake, "K-fam COMETLAKE; K-core skylake; PM SKL; PFM skl"),
	INTEL6(0xA6, uarch_skylake, "K-fam COMETLAKE_L; K-core skylake; PM SKL; PFM skl"),

	INTEL6(0x75, uarch_airmont_np, "K-fam ATOM_AIRMONT_NP; not in K-core or PM (pmu-facts 1.1)"),
	INTEL6(0x5D, uarch_silvermont_x3, "proposed ATOM_SILVERMONT_X3, never in K-fam (pmu-facts 1.1)"),

	INTEL6(0x0F, uarch_core2, "K-fam CORE2_MEROM"),
	INTEL6(0x16, uarch_core2, "K-fam CORE2_MEROM_L"),
	INTEL6(0x17, uarch_core2, "K-fam CORE2_PENRYN"),
	INTEL6(0x1D, uarch_core2, "K-fam CORE2_DUNNINGTON"),
	INTEL6(0x1C, uarch_bonnell, "K-fam ATOM_BONNELL"),
	INTEL6(0x26, uarch_bonnell, "K-fam ATOM_BONNELL_MID"),
	INTEL6(0x27, uarch_bonnell, "K-fam ATOM_SALTWELL_MID"),
	INTEL6(0x35, uarch_bonnell, "K-fam ATOM_SALTWELL_TABLET"),
	INTEL6(0x36, uarch_bonnell, "K-fam ATOM_SALTWELL"),
	INTEL6(0x86, uarch_tremont, "K-fam ATOM_TREMONT_D (Snow Ridge); K612 Tremont; PM2 SNR; PFM413 tmt"),
	INTEL6(0x96, uarch_tremont, "K-fam ATOM_TREMONT (Elkhart Lake); K612 Tremont; PM2 EHL; "
	       "PFM413 tmt; LCP2 J6412"),
	INTEL6(0x9C, uarch_tremont, "K-fam ATOM_TREMONT_L (Jasper Lake); K612 Tremont; PM2 EHL; "
	       "PFM413 none (tmt forced); LCP2 N5100"),
	INTEL6(0xBE, uarch_gracemont, "K-fam ATOM_GRACEMONT (Alder Lake-N); K612 gracemont; "
	       "PM2 ADL alderlake_gracemont_core.json; PFM413 none; LCP2 i3-N305"),
	INTEL6F(0xAF, uarch_crestmont, UARCH_F_REMOTE_EVENTS,
		"K-fam ATOM_CRESTMONT_X (Sierra Forest); K612 crestmont; PM2 SRF (0xD3 REMOTE_FWD_*); "
		"PFM413 none"),
	INTEL6(0xB6, uarch_crestmont, "K-fam ATOM_CRESTMONT (Grand Ridge); K612 crestmont; PM2 GRR; "
	       "PFM413 none"),

	INTEL6F(0x6A, uarch_icelake, UARCH_F_REMOTE_EVENTS,
		"K-fam ICELAKE_X (Sunny Cove); K612 icelake; PM2 ICX (0xD3 REMOTE_HITM/FWD); PFM413 icx; "
		"ILX Xeon Gold 6336Y"),
	INTEL6F(0x6C, uarch_icelake, UARCH_F_REMOTE_EVENTS,
		"K-fam ICELAKE_D (Sunny Cove); K612 icelake; PM2 ICX (mapfile 06_6C); PFM413 icl "
		"(pmu-facts 9.8: libpfm4 alone calls it client)"),
	INTEL6(0x7D, uarch_icelake, "K-fam ICELAKE (Sunny Cove); K612 icelake; PM2 ICL; PFM413 icl"),
	INTEL6(0x7E, uarch_icelake, "K-fam ICELAKE_L (Sunny Cove); K612 icelake; PM2 ICL; PFM413 icl; "
	       "LCP2 i7-1065G7"),
	INTEL6(0x8C, uarch_tigerlake, "K-fam TIGERLAKE_L (Willow Cove); K612 icelake; PM2 TGL; "
	       "PFM413 icl; LCP2 i7-1165G7"),
	INTEL6(0x8D, uarch_tigerlake, "K-fam TIGERLAKE (Willow Cove); K612 icelake; PM2 TGL; PFM413 icl"),
	INTEL6(0xA7, uarch_rocketlake, "K-fam ROCKETLAKE (Cypress Cove); K612 icelake; PM2 RKL; "
	       "PFM413 icl; LCP2 i9-11900K"),
	INTEL6(0x8F, uarch_sapphirerapids, "K-fam SAPPHIRERAPIDS_X (Golden Cove); K612 sapphire_rapids; "
	       "PM2 SPR; PFM413 spr; ILX Xeon w7-2475X"),
	INTEL6(0xCF, uarch_emeraldrapids, "K-fam EMERALDRAPIDS_X (Raptor Cove, pmu-facts 9.1); "
	       "K612 sapphire_rapids; PM2 EMR; PFM413 none (spr forced); ILX Xeon Gold 5520+"),
	INTEL6(0xAD, uarch_graniterapids, "K-fam GRANITERAPIDS_X (Redwood Cove, pmu-facts 9.1); "
	       "K612 granite_rapids; PM2 GNR; PFM413 none (spr forced); ILX Xeon 658X"),
	INTEL6(0xAE, uarch_graniterapids, "K-fam GRANITERAPIDS_D (Redwood Cove, pmu-facts 9.1); "
	       "K612 granite_rapids; PM2 GNR; PFM413 none (spr forced)"),
	INTEL6(0x97, uarch_alderlake, "K-fam ALDERLAKE (Golden Cove / Gracemont); LCP2 i9-12900K, "
	       "P-cores only: i5-12400"),
	INTEL6(0x9A, uarch_alderlake, "K-fam ALDERLAKE_L (Golden Cove / Gracemont); LCP2 i7-12700H"),
	INTEL6(0xB7, uarch_raptorlake, "K-fam RAPTORLAKE (Raptor Cove / Enhanced Gracemont); "
	       "LCP2 i9-13900KF"),
	INTEL6(0xBA, uarch_raptorlake, "K-fam RAPTORLAKE_P; LCP2 i7-1370P"),
	INTEL6(0xBF, uarch_raptorlake, "K-fam RAPTORLAKE_S"),
	INTEL6(0x8A, uarch_lakefield, "K-fam LAKEFIELD (Sunny Cove / Tremont); LCP2 i5-L16G7"),
	INTEL6(0xAA, uarch_meteorlake, "K-fam METEORLAKE_L (Redwood Cove / Crestmont, pmu-facts 9.1); "
	       "LCP2 Core Ultra 7 155H"),
	INTEL6(0xAC, uarch_meteorlake, "K-fam METEORLAKE (Redwood Cove / Crestmont, pmu-facts 9.1)"),
	INTEL6(0xB5, uarch_arrowlake, "K-fam ARROWLAKE_U (Redwood Cove / Crestmont, pmu-facts 9.1)"),
	INTEL6(0xC5, uarch_arrowlake, "K-fam ARROWLAKE_H (Lion Cove / Skymont / Crestmont LP-E, "
	       "pmu-facts 9.1); LCP2 Core Ultra 9 285H"),
	INTEL6(0xC6, uarch_arrowlake, "K-fam ARROWLAKE (Lion Cove / Skymont, pmu-facts 9.1); "
	       "LCP2 Core Ultra 7 265K"),
	INTEL6(0xBD, uarch_lunarlake, "K-fam LUNARLAKE_M (Lion Cove / Skymont, pmu-facts 9.1); "
	       "LCP2 Core Ultra 9 288V"),
	INTEL6(0xCC, uarch_pantherlake, "K-fam PANTHERLAKE_L (Cougar Cove / Darkmont, pmu-facts 9.1)"),

	{ "GenuineIntel", 0xF, UARCH_ANY, &uarch_netburst, 0,
	  "family 0xF is Pentium 4 / NetBurst; seed 004 (SDM 18.15 ESCR/CCCR)" },
	{ "AuthenticAMD", 0x17, UARCH_ANY, &uarch_zen, 0, "AMD family 17h: Zen, Zen+, Zen 2" },
	{ "AuthenticAMD", 0x19, UARCH_ANY, &uarch_zen, 0, "AMD family 19h: Zen 3, Zen 4" },
	{ "AuthenticAMD", UARCH_ANY, UARCH_ANY, &uarch_amd, 0, "any other AMD family" },
	{ NULL, 0, 0, NULL, 0, NULL },
};

unsigned pmu_caps_fixed_run(const struct pmu_caps *c)
{
	unsigned n = 0;

	while (n < 32 && (c->fixed_mask & (1u << n)))
		n++;
	return n;
}

unsigned uarch_fixed_needed(const struct uarch *u)
{
	unsigned n = 0;

	if (!u->table)
		return 0;
	for (const struct pmu_event *e = u->table->events; e->name; e++)
		if (e->fixed != PMU_FIXED_NONE && (unsigned)e->fixed + 1 > n)
			n = (unsigned)e->fixed + 1;
	return n;
}

void uarch_supports(char *buf, size_t len)
{
	const struct uarch *const *u;
	size_t used;
	int n;

	n = snprintf(buf, len, "lattop supports Intel");
	used = n > 0 ? (size_t)n : 0;
	for (u = uarch_supported; *u && used < len; u++) {
		const char *sep = u == uarch_supported ? " " : u[1] ? ", " : " and ";

		n = snprintf(buf + used, len - used, "%s%s", sep, (*u)->pretty);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/*
 * Models and steppings whose PEBS is unreliable before a microcode
 * revision: load latency is measured only from that revision on.  The
 * kernel's pebs_ucodes[] (K-core intel_snb_pebs_broken) is the model, and
 * so is its rule for a stepping the table does not list: PEBS is broken
 * there whatever the microcode, since intel_snb_pebs_broken() negates
 * x86_cpu_has_min_microcode_rev(), which is false when no row matches the
 * model and stepping (kernel arch/x86/kernel/cpu/match.c; pmu-facts 8.11).
 */
struct uarch_ucode {
	unsigned family, model, stepping;
	unsigned rev;                   /* the first revision that works */
	const char *source;
};

static const struct uarch_ucode uarch_ldlat_ucode[] = {
	/* K-core pebs_ucodes[]: "PEBS disabled due to CPU errata, please upgrade microcode" */
	{ 6, 0x2A, 7, 0x28, "the kernel's pebs_ucodes[], SANDYBRIDGE stepping 7" },
	{ 6, 0x2D, 6, 0x618, "the kernel's pebs_ucodes[], SANDYBRIDGE_X stepping 6" },
	{ 6, 0x2D, 7, 0x70c, "the kernel's pebs_ucodes[], SANDYBRIDGE_X stepping 7" },
	{ 0, 0, 0, 0, NULL },
};

/*
 * The row of @id's model and stepping, or NULL; @listed set when the
 * model has rows (for another stepping, maybe).
 */
static const struct uarch_ucode *uarch_ucode_lookup(const struct cpuid_info *id, bool *listed)
{
	const struct uarch_ucode *u;

	*listed = false;
	for (u = uarch_ldlat_ucode; u->source; u++) {
		if (u->family != id->family || u->model != id->model)
			continue;
		*listed = true;
		if (u->stepping == id->stepping)
			return u;
	}
	return NULL;
}

static const struct uarch_model *uarch_lookup(const struct cpuid_info *id)
{
	const struct uarch_model *m;

	for (m = uarch_models; m->vendor; m++) {
		if (strcmp(m->vendor, id->vendor))
			continue;
		if (m->family != UARCH_ANY && m->family != id->family)
			continue;
		if (m->model != UARCH_ANY && m->model != id->model)
			continue;
		return m;
	}
	return NULL;
}

/*
 * Leaf 0xA against what @u's table needs.  Returns false and writes why
 * into @why (after @prefix) on the first mismatch.
 */
static bool uarch_check_pmu(const struct uarch *u, const struct cpuid_info *id,
			    const char *prefix, char *why, size_t len)
{
	const struct pmu_caps *p = &id->pmu;
	const char *hv = id->hypervisor ? " (under a hypervisor, which may hide or cut the PMU)" : "";
	const char *tname = u->table ? u->table->name : u->name;

	if (id->max_leaf < 0xa) {
		snprintf(why, len, "%s: the PMU is hidden: CPUID leaf 0xA is absent (max basic leaf 0x%x)%s",
			 prefix, id->max_leaf,
			 id->hypervisor ? "; a hypervisor hides it (CPUID.01H:ECX[31] is set)" : "");
		return false;
	}
	if (p->version == 0) {
		snprintf(why, len, "%s: the PMU is hidden: CPUID leaf 0xA reports version 0%s", prefix,
			 id->hypervisor ? "; a hypervisor hides it (CPUID.01H:ECX[31] is set)" : "");
		return false;
	}
	if (p->version < u->min_version) {
		snprintf(why, len, "%s: CPUID leaf 0xA reports perfmon version %u; the %s table needs version %u%s",
			 prefix, p->version, tname, u->min_version, hv);
		return false;
	}
	if (p->gp_counters < u->gp_needed) {
		snprintf(why, len, "%s: CPUID leaf 0xA reports %u general-purpose counters per logical CPU; "
			 "the %s table needs %u%s", prefix, p->gp_counters, tname, u->gp_needed, hv);
		return false;
	}
	if (p->gp_width != u->gp_width) {
		snprintf(why, len, "%s: CPUID leaf 0xA reports %u-bit counters; the %s table expects %u-bit%s",
			 prefix, p->gp_width, tname, u->gp_width, hv);
		return false;
	}
	if (pmu_caps_fixed_run(p) < uarch_fixed_needed(u)) {
		snprintf(why, len, "%s: CPUID leaf 0xA reports %u fixed counters from "
			 "IA32_FIXED_CTR0 on; the %s table needs %u%s", prefix, pmu_caps_fixed_run(p),
			 tname, uarch_fixed_needed(u), hv);
		return false;
	}
	return true;
}

void uarch_detect(const struct cpuid_info *id, struct cpu_desc *out)
{
	const struct uarch_model *m = uarch_lookup(id);
	const struct uarch_ucode *uc;
	char prefix[96], supports[384];
	bool listed;

	memset(out, 0, sizeof(*out));
	out->id = *id;

	if (!m) {
		out->uarch = &uarch_unknown;
		uarch_supports(supports, sizeof(supports));
		snprintf(out->reason, sizeof(out->reason),
			 "unknown CPU (vendor \"%.12s\", family 0x%X, model 0x%X) is not supported: %s; %s",
			 id->vendor, id->family, id->model, uarch_unknown.why_not, supports);
		return;
	}
	out->uarch = m->uarch;
	out->flags = m->uarch->flags | m->flags;
	if (m->uarch->table && (uc = uarch_ucode_lookup(id, &listed))) {
		out->ldlat_min_ucode = uc->rev;
		out->ldlat_ucode_source = uc->source;
	} else if (m->uarch->table && listed) {
		snprintf(out->ldlat_why, sizeof(out->ldlat_why),
			 "PEBS is broken on %s %02X_%02X stepping %u whatever the microcode: the "
			 "kernel's pebs_ucodes[] has no row for it, and the kernel turns PEBS off",
			 m->uarch->pretty, id->family, id->model, id->stepping);
	}
	snprintf(prefix, sizeof(prefix), "%s (%02X_%02X)", m->uarch->pretty, id->family, id->model);
	if (!m->uarch->table) {
		uarch_supports(supports, sizeof(supports));
		snprintf(out->reason, sizeof(out->reason), "%s is not supported: %s; %s",
			 prefix, m->uarch->why_not, supports);
		return;
	}
	out->supported = uarch_check_pmu(m->uarch, id, prefix, out->reason, sizeof(out->reason));
}

/*
 * The core types of the hybrid parts: (model, CPUID.1AH core type, native
 * model ID) to the microarchitecture of that type's cores.  The native ID
 * tells Arrow Lake-H's two kinds of Atom apart (pmu-facts 9.6, PM2
 * mapfile.csv rows keyed by core type and native ID).  @gp_kernel and
 * @fixed_kernel: the counters the kernel gives the type when leaf 0xA
 * reports only the subset common to both (Alder and Raptor Lake: K612 ADL
 * case of intel_pmu_init adds 2 general-purpose and 1 fixed counter to the
 * P-core PMU; pmu-facts 9.6), 0 when leaf 0xA or 0x23 says it.  The
 * kernel's fourth fixed counter there is SLOTS (topdown), which no table
 * uses: lattop leaves it out (fixed_kernel 0), so never touches it.
 */
struct uarch_hybrid {
	unsigned model;
	uint8_t type;
	uint32_t native;                /* UARCH_ANY: any */
	const struct uarch *uarch;
	unsigned gp_kernel, fixed_kernel;
	const char *source;
};

#define HYB(m, t, n, u, gp, fx, src) { m, CORE_TYPE_##t, n, &u, gp, fx, src }
static const struct uarch_hybrid uarch_hybrids[] = {
	HYB(0x97, CORE, 1, uarch_goldencove, 8, 0, "PM2 mapfile 06_97 0x40,0x000001 GLC; K612 ADL case"),
	HYB(0x97, ATOM, 1, uarch_gracemont, 0, 0, "PM2 mapfile 06_97 0x20,0x000001 GRT"),
	HYB(0x9A, CORE, 1, uarch_goldencove, 8, 0, "PM2 mapfile 06_9A; K612 ADL case"),
	HYB(0x9A, ATOM, 1, uarch_gracemont, 0, 0, "PM2 mapfile 06_9A"),
	HYB(0xB7, CORE, 1, uarch_raptorcove, 8, 0, "K-fam RAPTORLAKE (Raptor Cove); K612 ADL case"),
	HYB(0xB7, ATOM, 1, uarch_gracemont, 0, 0, "K-fam RAPTORLAKE (Enhanced Gracemont)"),
	HYB(0xBA, CORE, 1, uarch_goldencove, 8, 0, "PM2 mapfile 06_BA GLC; K612 ADL case"),
	HYB(0xBA, ATOM, 1, uarch_gracemont, 0, 0, "PM2 mapfile 06_BA GRT"),
	HYB(0xBF, CORE, 1, uarch_raptorcove, 8, 0, "PM2 mapfile 06_BF GLC; K612 ADL case"),
	HYB(0xBF, ATOM, 1, uarch_gracemont, 0, 0, "PM2 mapfile 06_BF GRT"),
	HYB(0xAA, CORE, 2, uarch_redwoodcove, 0, 0, "pmu-facts 9.1; PM2 mapfile 06_AA 0x40,0x000002"),
	HYB(0xAA, ATOM, 2, uarch_crestmont_mtl, 0, 0, "pmu-facts 9.1; PM2 mapfile 06_AA 0x20,0x000002"),
	HYB(0xAC, CORE, 2, uarch_redwoodcove, 0, 0, "pmu-facts 9.1; PM2 mapfile 06_AC 0x40,0x000002"),
	HYB(0xAC, ATOM, 2, uarch_crestmont_mtl, 0, 0, "pmu-facts 9.1; PM2 mapfile 06_AC 0x20,0x000002"),
	HYB(0xB5, CORE, 2, uarch_redwoodcove, 0, 0, "pmu-facts 9.1 (ARL-U); PM2 mapfile 06_B5 MTL files"),
	HYB(0xB5, ATOM, 2, uarch_crestmont_mtl, 0, 0, "pmu-facts 9.1 (ARL-U); PM2 mapfile 06_B5 MTL files"),
	HYB(0xC6, CORE, 3, uarch_lioncove, 0, 0, "pmu-facts 9.1; PM2 mapfile 0x40,0x000003"),
	HYB(0xC6, ATOM, 3, uarch_skymont, 0, 0, "pmu-facts 9.1; PM2 mapfile 0x20,0x000003"),
	HYB(0xC5, CORE, 3, uarch_lioncove, 0, 0, "pmu-facts 9.1"),
	HYB(0xC5, ATOM, 3, uarch_skymont, 0, 0, "pmu-facts 9.6 (ML-ARLH)"),
	HYB(0xC5, ATOM, 2, uarch_crestmont_lpe, 0, 0, "pmu-facts 9.6: LP-E, PM2 mapfile 06_C5 0x20,0x000002"),
	HYB(0xBD, CORE, 3, uarch_lioncove, 0, 0, "pmu-facts 9.1; PM2 mapfile 06_BD"),
	HYB(0xBD, ATOM, 3, uarch_skymont_lnl, 0, 0, "pmu-facts 9.1; PM2 mapfile 06_BD"),
	HYB(0xCC, CORE, UARCH_ANY, uarch_cougarcove, 0, 0, "pmu-facts 9.1"),
	HYB(0xCC, ATOM, UARCH_ANY, uarch_darkmont, 0, 0, "pmu-facts 9.1"),
	HYB(0x8A, CORE, UARCH_ANY, uarch_sunnycove, 0, 0, "K-fam LAKEFIELD (Sunny Cove / Tremont)"),
	HYB(0x8A, ATOM, UARCH_ANY, uarch_tremont, 0, 0, "K-fam LAKEFIELD (Sunny Cove / Tremont)"),
	{ 0, 0, 0, NULL, 0, 0, NULL },
};

static const struct uarch_hybrid *uarch_hybrid_lookup(const struct cpuid_info *id)
{
	for (const struct uarch_hybrid *h = uarch_hybrids; h->uarch; h++)
		if (id->family == 6 && h->model == id->model && h->type == id->core_type &&
		    (h->native == UARCH_ANY || h->native == id->native_model))
			return h;
	return NULL;
}

const struct uarch *uarch_core_type(const struct uarch *u, size_t i, uint8_t *type)
{
	for (const struct uarch_hybrid *h = uarch_hybrids; h->uarch; h++) {
		const struct uarch_hybrid *g;
		const struct uarch_model *m;

		for (m = uarch_models; m->vendor; m++)
			if (m->uarch == u && m->family == 6 && m->model == h->model)
				break;
		if (!m->vendor)
			continue;               /* another part's row */
		for (g = uarch_hybrids; g < h; g++) {
			if (g->uarch != h->uarch || g->type != h->type)
				continue;
			for (m = uarch_models; m->vendor; m++)
				if (m->uarch == u && m->family == 6 && m->model == g->model)
					break;
			if (m->vendor)
				break;          /* listed already, for an earlier model */
		}
		if (g < h)
			continue;
		if (i-- == 0) {
			*type = h->type;
			return h->uarch;
		}
	}
	return NULL;
}

void uarch_core_type_models(const struct uarch *u, const struct uarch *t, uint8_t type,
			    char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct uarch_model *m = uarch_models; m->vendor; m++) {
		const struct uarch_hybrid *h;

		if (m->uarch != u || m->family != 6)
			continue;
		for (h = uarch_hybrids; h->uarch; h++)
			if (h->model == m->model && h->uarch == t && h->type == type)
				break;
		if (h->uarch && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s06_%02X", used ? " " : "",
						 m->model);
	}
}

const char *core_type_name(uint8_t type)
{
	return type == CORE_TYPE_CORE ? "core" : type == CORE_TYPE_ATOM ? "atom" : "unknown";
}

/*
 * The kernel gives the Atom whose native model is the older one (Crestmont
 * 2 beside Skymont 3) the third PMU, cpu_lowpower (K618
 * find_hybrid_pmu_for_cpu; pmu-facts 9.6): the rows follow it.
 */
const char *core_type_row_name(const struct cpu_desc *d, int t)
{
	const struct core_type_desc *ct = &d->type[t];

	for (int o = 0; o < d->ntypes && ct->type == CORE_TYPE_ATOM; o++)
		if (d->type[o].type == CORE_TYPE_ATOM && d->type[o].native > ct->native)
			return "lowpower";
	return core_type_name(ct->type);
}

const char *core_type_mark(const char *row_name)
{
	if (!row_name)
		return "";
	return row_name[0] == 'c' ? "P" : row_name[0] == 'l' ? "L" : "E";
}

int cpu_desc_type_of(const struct cpu_desc *d, int cpu)
{
	if (cpu < 0 || cpu >= CPUSET_MAX)
		return -1;
	for (int t = 0; t < d->ntypes; t++)
		if (d->type[t].cpus[cpu / 64] >> (cpu % 64) & 1)
			return t;
	return -1;
}

/* "0-1,10-19" */
static void cpus_list(const uint64_t *cpus, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPUSET_MAX && used < len; c++) {
		int e = c;
		int n;

		if (!(cpus[c / 64] >> (c % 64) & 1))
			continue;
		while (e + 1 < CPUSET_MAX && (cpus[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		n = e > c ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, e)
			  : snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
		if (n < 0)
			break;
		used += (size_t)n;
		c = e;
	}
}

/* Type @t of @out: its uarch, the counters its CPUs have, whether it is measurable. */
static void uarch_type_detect(struct cpu_desc *out, struct core_type_desc *t,
			      const struct cpuid_info *id)
{
	const struct uarch_hybrid *h = uarch_hybrid_lookup(id);
	struct cpuid_info tid = *id;
	char prefix[160], cpus[96], supports[384];

	t->uarch = h ? h->uarch : &uarch_unknown;
	t->flags = t->uarch->flags;
	tid.pmu = t->pmu;
	if (h && h->gp_kernel && tid.pmu.gp_counters < h->gp_kernel) {
		tid.pmu.gp_counters = h->gp_kernel;
		if (h->fixed_kernel) {
			tid.pmu.fixed_mask |= (1u << h->fixed_kernel) - 1;
			tid.pmu.fixed_counters = h->fixed_kernel;
		}
	}
	t->pmu = tid.pmu;
	cpus_list(t->cpus, cpus, sizeof(cpus));
	snprintf(prefix, sizeof(prefix), "its %s-cores (%s, cpu%s %s)",
		 t->type == CORE_TYPE_CORE ? "P" : "E", t->uarch->pretty, t->ncpu > 1 ? "s" : "", cpus);
	if (!h) {
		snprintf(t->reason, sizeof(t->reason), "%s: lattop does not know core type 0x%02x "
			 "native model 0x%x of %02X_%02X", prefix, t->type, t->native, id->family,
			 id->model);
	} else if (!t->uarch->table) {
		uarch_supports(supports, sizeof(supports));
		snprintf(t->reason, sizeof(t->reason), "%s: %s", prefix, t->uarch->why_not);
	} else {
		t->supported = uarch_check_pmu(t->uarch, &tid, prefix, t->reason, sizeof(t->reason));
	}
	(void)out;
}

void uarch_detect_set(const struct cpuid_set *s, struct cpu_desc *out)
{
	struct cpuid_info id0;
	char prefix[96], supports[384];
	size_t used;

	cpuid_decode(&s->raw[0], &id0);
	uarch_detect(&id0, out);
	if (!id0.hybrid)
		return;
	out->hybrid = true;
	for (int i = 0; i < s->n; i++) {
		struct cpuid_info id;
		int t;

		cpuid_decode(&s->raw[i], &id);
		/* The kernel takes Core when leaf 0x1A says nothing (adl_get_hybrid_cpu_type, pmu-facts 9.6). */
		if (!id.core_type)
			id.core_type = CORE_TYPE_CORE;
		for (t = 0; t < out->ntypes; t++)
			if (out->type[t].type == id.core_type && out->type[t].native == id.native_model)
				break;
		if (t == out->ntypes) {
			if (t == CORE_TYPES_MAX)
				continue;       /* no part has more */
			out->ntypes++;
			out->type[t].type = id.core_type;
			out->type[t].native = id.native_model;
			out->type[t].pmu = id.pmu;
		}
		if (s->cpu[i] >= 0 && s->cpu[i] < CPUSET_MAX) {
			out->type[t].cpus[s->cpu[i] / 64] |= 1ull << (s->cpu[i] % 64);
			out->type[t].ncpu++;
		}
	}
	/* P-cores first, as the kernel's cpu_core and the simulator list them. */
	for (int a = 0; a < out->ntypes; a++)
		for (int b = a + 1; b < out->ntypes; b++)
			if (out->type[b].type > out->type[a].type) {
				struct core_type_desc tmp = out->type[a];

				out->type[a] = out->type[b];
				out->type[b] = tmp;
			}
	for (int t = 0; t < out->ntypes; t++) {
		struct cpuid_info id = id0;

		id.core_type = out->type[t].type;
		id.native_model = out->type[t].native;
		uarch_type_detect(out, &out->type[t], &id);
	}
	/*
	 * The part: measurable when each of its core types is; else each
	 * reason.  A part lattop has no plan for (uarch_models[]: no table,
	 * Lakefield and later) stays unmeasured whatever its types, with
	 * the part's reason when its types give none: a dump of one CPU may
	 * see only a type that has a table (Lakefield's Tremont).
	 */
	if (!out->uarch->table) {
		bool named = false;

		for (int t = 0; t < out->ntypes; t++)
			named |= !out->type[t].supported;
		if (!named)
			return;         /* uarch_detect's reason, the part's */
	}
	out->supported = out->ntypes > 0;
	out->reason[0] = '\0';
	snprintf(prefix, sizeof(prefix), "%s (%02X_%02X)", out->uarch->pretty, id0.family, id0.model);
	used = (size_t)snprintf(out->reason, sizeof(out->reason), "%s is not supported:", prefix);
	for (int t = 0; t < out->ntypes; t++) {
		if (out->type[t].supported)
			continue;
		out->supported = false;
		if (used < sizeof(out->reason))
			used += (size_t)snprintf(out->reason + used, sizeof(out->reason) - used, "%s %s",
						 used > strlen(prefix) + 18 ? ";" : "",
						 out->type[t].reason);
	}
	if (out->supported) {
		out->reason[0] = '\0';
	} else if (used < sizeof(out->reason)) {
		uarch_supports(supports, sizeof(supports));
		snprintf(out->reason + used, sizeof(out->reason) - used, "; %s", supports);
	}
}

const struct pmu_table *cpu_desc_table(const struct cpu_desc *d)
{
	for (int t = 0; t < d->ntypes; t++)
		if (d->type[t].type == CORE_TYPE_CORE)
			return d->type[t].uarch->table;
	return d->uarch->table;
}

/*
 * The @i-th distinct event table of uarch_supported[], in its order, then
 * of the hybrids' core types no part names (Skymont's); NULL past the
 * last.  The list of tables is this, not a second list.
 */
const struct pmu_table *uarch_pmu_table(size_t i)
{
	const struct uarch *const *u, *const *v;
	const struct uarch_hybrid *h, *g;

	for (u = uarch_supported; *u; u++) {
		for (v = uarch_supported; v < u; v++)
			if ((*v)->table == (*u)->table)
				break;
		if (v < u)
			continue;               /* seen under an earlier uarch */
		if (i-- == 0)
			return (*u)->table;
	}
	for (h = uarch_hybrids; h->uarch; h++) {
		if (!h->uarch->table)
			continue;
		for (v = uarch_supported; *v; v++)
			if ((*v)->table == h->uarch->table)
				break;
		for (g = uarch_hybrids; g < h; g++)
			if (g->uarch->table == h->uarch->table)
				break;
		if (*v || g < h)
			continue;               /* a part's, or an earlier type's */
		if (i-- == 0)
			return h->uarch->table;
	}
	return NULL;
}

/*
 * Whether a model of @u can have row @e: its MSR_OFFCORE_RSP_x exists and
 * the flags it needs are the uarch's or, through @extra, a model's.
 */
static bool uarch_row_fits(const struct uarch *u, const struct pmu_event *e, unsigned *extra)
{
	const struct uarch_model *m;

	*extra = e->needs & ~u->flags;
	if (e->offcore > u->offcore_msrs)
		return false;
	if (!*extra)
		return true;
	for (m = uarch_models; m->vendor; m++)
		if (m->uarch == u && (m->flags & *extra) == *extra)
			return true;
	return false;
}

void uarch_metric_status(const struct uarch *u, int m, struct uarch_metric *out)
{
	bool found = false;

	memset(out, 0, sizeof(*out));
	for (const struct pmu_event *e = u->table->events; e->name; e++) {
		unsigned extra;

		if ((int)e->metric != m || !uarch_row_fits(u, e, &extra))
			continue;
		/* the row that asks least: no model flag, then the fewest */
		if (found && __builtin_popcount(extra) >= __builtin_popcount(out->model_flags))
			continue;
		found = true;
		out->model_flags = extra;
		out->packages = e->scope == SCOPE_OTHER_PACKAGE ? 2 : 1;
		out->scope = e->scope;
	}
	out->measured = found;
	if (!found)
		out->reason = u->table->unsupported[m] ? u->table->unsupported[m]
						       : "no event for it on this CPU";
}

const struct uarch *uarch_by_name(const char *name)
{
	const struct uarch *const *u;

	if (!name)
		return NULL;
	for (u = uarch_supported; *u; u++)
		if (!strcmp((*u)->name, name))
			return *u;
	return NULL;
}
