/*
 * events.h: the event tables, one per PMU family, as static const data.
 *
 * A row says how to count one thing on one family: the Intel event it
 * programs, the counters it may use, and the extra MSR state it needs
 * (an MSR_OFFCORE_RSP_x value, or the load-latency threshold with PEBS).
 * Each row names its source.  Code reads rows; it never switches on a model.
 *
 * The tables live in cpu/events/<family>.c; cpu/uarch.c names each beside
 * the struct uarch that uses it, and the list of tables is derived from
 * there (uarch_pmu_table()).  Each row also carries its libpfm4 spelling,
 * which tests/test_events.c encodes as an independent oracle.  Nothing here
 * touches a device.
 */
#ifndef LATTOP_EVENTS_H
#define LATTOP_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

/* What a row measures.  The names are the JSON "metric" values. */
enum metric {
	M_CYCLES,               /* core cycles, unhalted */
	M_INSTRUCTIONS,         /* instructions retired */
	M_REF_CYCLES,           /* reference cycles at the TSC rate, unhalted */
	M_LOADS,                /* loads retired */
	M_LOAD_LATENCY,         /* loads retired above the MSR_PEBS_LD_LAT_THRESHOLD */
	M_SNOOP_HIT,            /* demand data reads served by a clean hit in another core */
	M_SNOOP_HITM,           /* ... by a modified line in another core (row .scope says which) */
	M_OFFCORE_READS,        /* demand data reads that miss the L2 (leave the core or module) */
	M_OFFCORE_OUTSTANDING,  /* cycles x those reads outstanding */
	M_SNOOP_REMOTE_HIT,     /* reads served by a clean line in another package's cache */
	M_SNOOP_REMOTE_HITM,    /* ... by a modified line in another package's cache */
	M__COUNT
};

const char *metric_name(enum metric);

/* Row requirements beyond the family (struct uarch.flags). */
#define UARCH_F_OFFCORE_QUEUE  (1u << 0)  /* OFFCORE_REQUESTS(_OUTSTANDING) 0xB0/0x60: Westmere, not Nehalem */
#define UARCH_F_NHM_CTR_RESET  (1u << 1)  /* AAK100/AAP53/BD53 counter-reset workaround wanted */
#define UARCH_F_REMOTE_EVENTS  (1u << 2)  /* a server model's retired-load events for other packages */
/*
 * Haswell's HT bug (HSD29, like Sandy Bridge BJ122 and Ivy Bridge BV98):
 * rows marked ht_excl miscount unless the same counter of the sibling
 * thread is idle.  The planner gives such a row's counter to one thread of
 * a core at a time, when two threads of a core are measured.
 */
#define UARCH_F_HT_EXCL        (1u << 3)
/*
 * The events that HT bug covers, by event code, whatever the umask: K612
 * INTEL_EXCLEVT_CONSTRAINT(0xd0 .. 0xd3, 0xf) in intel_snb, ivb and
 * hsw_event_constraints, exclusive once intel_ht_bug() applies.  K612
 * intel_get_excl_constraints (pmu-facts 8.9): counter k is unusable for
 * one of them while the sibling's counter k holds any event, and for any
 * event while the sibling's counter k holds one of them.  A row's ht_excl
 * says the same of the rows (tests/test_events.c).
 */
#define PMU_HT_EXCL_FIRST      0xD0
#define PMU_HT_EXCL_LAST       0xD3
/*
 * MEM_LOAD_L3_HIT_RETIRED 0xD2/0x04 counts HITM alone.  Ice Lake on names
 * it XSNP_FWD, and Intel's Tiger Lake file says that code also counts
 * clean lines another core forwarded (pmu-facts 9.4): a HITM row there
 * would count more than HITM.  The parts whose files say HITM only have
 * the flag.
 */
#define UARCH_F_XSNP_HITM      (1u << 4)
/*
 * The Crestmont E-core's offcore-response snoop results differ by part
 * (pmu-facts 9.4): Sierra Forest, Grand Ridge and Meteor Lake's files
 * list OCR ...L3_HIT.SNOOP_HITM, Arrow Lake-H's low-power Crestmont file
 * no OCR event at all; only Meteor Lake's lists ...SNOOP_HIT_NO_FWD.
 */
#define UARCH_F_OCR_SNOOP      (1u << 5)
#define UARCH_F_OCR_SNOOP_HIT  (1u << 6)
/*
 * Skymont's MEM_LOAD_UOPS_MISC_RETIRED.L3_HIT_SNOOP_HITM 0xD4/0x08: Intel's
 * Arrow Lake Skymont file lists it, Lunar Lake's has no snoop event at
 * all (pmu-facts 9.4).
 */
#define UARCH_F_L3_SNOOP_HITM  (1u << 7)
#define UARCH_F__COUNT         8         /* flags defined above: bits 0..7 */

/* A flag's name in listings ("remote_events" for UARCH_F_REMOTE_EVENTS), or NULL. */
const char *pmu_flag_name(unsigned flag);

/*
 * Whose caches a snoop row sees, beyond the CPU's own: the other cores of
 * the package, or only the other modules (Atom offcore-response snoop bits
 * stop at the module: pmu-facts 8.2), or the other packages.
 */
enum snoop_scope {
	SCOPE_NONE,
	SCOPE_OTHER_CORE,
	SCOPE_OTHER_MODULE,
	SCOPE_OTHER_PACKAGE,
};

const char *snoop_scope_name(enum snoop_scope);

#define PMU_FIXED_NONE  (-1)

/*
 * Where libpfm4, the test oracle, knowingly encodes a row otherwise than
 * the row, which follows Intel's perfmon json: on which libpfm4 PMU, what
 * it gives instead, and why.  tests/test_events.c checks that exact value,
 * so a change on either side is noticed.
 */
struct pfm_diff {
	const char *pmu;         /* the libpfm4 PMU that differs; NULL: none does */
	uint64_t evtsel;         /* the PERFEVTSEL it gives, when that differs; else 0 */
	uint64_t rsp;            /* the MSR_OFFCORE_RSP_x value it gives, when that differs; else 0 */
	const char *why;
	/*
	 * Non-NULL: the row's MSR_OFFCORE_RSP_x value is checked instead as
	 * what libpfm4 PMU rsp_pmu (the same bit layout) encodes for rsp_pfm.
	 */
	const char *rsp_pmu;
	const char *rsp_pfm;
};

/* Why libpfm4's Atom PMUs differ on snoop-only offcore responses (slm, glm). */
#define PFM_WHY_ATOM_ANY_RESPONSE "libpfm4 adds ANY_RESPONSE (bit 16) to a snoop-only " \
				  "response; the perfmon json value has no supplier bit"

/*
 * A set of general-purpose counters: bit k = IA32_PMCk, up to PMU_MAX_GP
 * (cpu/msr_allow.h: 10, Lion Cove's; cpu/pmu.h checks that they fit).
 */
typedef uint16_t gp_set;

struct pmu_event {
	const char *name;        /* Intel event name, e.g. "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD" */
	enum metric metric;
	uint8_t event;           /* PERFEVTSEL[7:0] */
	uint8_t umask;           /* PERFEVTSEL[15:8] */
	uint8_t cmask;           /* PERFEVTSEL[31:24] */
	bool inv;                /* PERFEVTSEL[23] */
	bool edge;               /* PERFEVTSEL[18] */
	int8_t fixed;            /* IA32_FIXED_CTRn this row uses, or PMU_FIXED_NONE */
	gp_set counters;         /* general-purpose counters allowed: bit i = IA32_PMCi */
	uint8_t offcore;         /* 0: none; 1: MSR_OFFCORE_RSP_0; 2: MSR_OFFCORE_RSP_1 */
	uint64_t offcore_rsp;    /* the value that MSR must hold */
	bool ldlat;              /* load latency: PEBS_EN+LL_EN and MSR_PEBS_LD_LAT_THRESHOLD */
	uint8_t scope;           /* enum snoop_scope, for the snoop metrics */
	uint8_t pair;            /* nonzero: schedule together with the rows of the same tag */
	/*
	 * Needs the sibling thread's same counter idle when the uarch has the
	 * HT bug (UARCH_F_HT_EXCL) and HT is on.
	 */
	bool ht_excl;
	/*
	 * What a source doubts about its count while both threads of a core
	 * run (HT on), for the notes; NULL when none does.
	 */
	const char *ht_caveat;
	uint32_t needs;          /* UARCH_F_* the CPU must have; 0 for every member of the family */
	const char *source;      /* where the encoding comes from (SDM, perfmon json, kernel) */
	/*
	 * The libpfm4 event string that must encode to this row on every
	 * libpfm4 PMU of the table it applies to (struct pmu_table.pfm); for a
	 * fixed-counter row, the architectural event libpfm4 maps to it.
	 * NULL in a table libpfm4 has no PMU for (struct pmu_table.json).
	 */
	const char *pfm;
	struct pfm_diff pfm_diff;
};

/*
 * OFFCORE_REQUESTS.DEMAND_DATA_RD and OFFCORE_REQUESTS_OUTSTANDING.
 * DEMAND_DATA_RD with HT on, Haswell to the Skylake family (pmu-facts
 * 8.14): libpfm4 marks both "use with HT off only" (its hsw, bdw and skl
 * tables, skx and clx sharing skl's); Intel's event files list errata on
 * them on Haswell (HSD78, HSD62, HSD61, HSM63, HSM80) and Broadwell
 * (BDM76), texts not retrieved; nothing says what they count while both
 * threads run.  Not the Sandy/Ivy Bridge rows: libpfm4's snb and ivb
 * tables carry no such note.  So the numbers are measured and shown, and
 * the doubt is said beside them.
 */
#define PMU_CAVEAT_OFFCORE_HT \
	"offcore reads and latency with HT on: libpfm4 marks OFFCORE_REQUESTS and " \
	"OFFCORE_REQUESTS_OUTSTANDING \"use with HT off only\" on this family, Intel lists " \
	"errata on them, and no source says what they count while both threads of a core run; " \
	"take them as unverified"

/*
 * A libpfm4 PMU (LIBPFM_FORCE_PMU value) the rows of a table are checked
 * on, and the parts it stands for: a row applies when its needs are in
 * flags and its MSR_OFFCORE_RSP_x is one of offcore_msrs.
 */
struct pfm_pmu {
	const char *name;        /* "nhm", "wsm", ... */
	uint32_t flags;          /* UARCH_F_* of the parts it stands for */
	unsigned offcore_msrs;
};

#define PMU_TABLE_PFM_MAX 4

struct pmu_table {
	const char *name;                    /* the family, e.g. "nehalem" */
	const struct pmu_event *events;      /* ended by a row with name == NULL */
	const char *unsupported[M__COUNT];   /* why no row serves a metric, when none does */
	/* the libpfm4 PMUs its rows are checked on, ended by name == NULL */
	struct pfm_pmu pfm[PMU_TABLE_PFM_MAX];
	/*
	 * The Intel perfmon files (paths in intel/perfmon, space-separated)
	 * whose values, written into tests/test_events.c, every row is
	 * checked against: where libpfm4 4.13 has no PMU for the family
	 * (pfm[] empty), or lacks some of its events (those rows' .pfm is
	 * NULL).  NULL: libpfm4 is the oracle of every row.
	 */
	const char *json;
};

/* IA32_PERFEVTSELx bits (SDM Vol.3B Figure 18-6; kernel perf_event.h). */
#define EVTSEL_USR     (1ull << 16)
#define EVTSEL_OS      (1ull << 17)
#define EVTSEL_EDGE    (1ull << 18)
#define EVTSEL_PC      (1ull << 19)
#define EVTSEL_INT     (1ull << 20)   /* never set: nothing here takes the PMI */
#define EVTSEL_ANY     (1ull << 21)
#define EVTSEL_EN      (1ull << 22)
#define EVTSEL_INV     (1ull << 23)

/*
 * Row builders for the tables, in the style of perf's core.c constraint
 * macros: FIXED(n) for IA32_FIXED_CTRn, GP(event, umask, counter mask),
 * RSP(1 or 2, MSR_OFFCORE_RSP_x value).
 */
#define FIXED(ctr)            .fixed = (ctr), .counters = 0
#define GP(ev, um, cntmsk)    .event = (ev), .umask = (um), \
			      .fixed = PMU_FIXED_NONE, .counters = (cntmsk)
#define RSP(msr, val)         .offcore = (msr), .offcore_rsp = (val)

/*
 * Does IA32_PEBS_ENABLE of a perfmon @version PMU have LL_EN bits (bit 32 +
 * k: load latency on counter k, pmu-facts 3)?  Below version 5 only: from
 * it on bit 32 + k enables PEBS on IA32_FIXED_CTRk, and load latency is
 * armed by its event and PEBS_EN (pmu-facts 9.2, K612 intel_pmu_pebs_enable).
 */
static inline bool pmu_version_ll_en(unsigned version)
{
	return version < 5;
}

/* The full PERFEVTSEL value lattop writes for @e: USR|OS|EN, never INT. */
uint64_t pmu_event_evtsel(const struct pmu_event *e);

/*
 * Is @evtsel exactly what lattop programs for a general-purpose row of @t:
 * one of its events, enabled, counting in rings 0 and 3, with no PMI?
 * perf and the NMI watchdog always ask for the PMI (INT), so such a select
 * is lattop's, running or left by one that died.
 */
bool pmu_table_has_evtsel(const struct pmu_table *t, uint64_t evtsel);

#endif
