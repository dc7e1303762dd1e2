/*
 * sim_internal.h: private to the PMU simulator (sim/sim.c, sim/sim_hw.c,
 * sim/sim_profile.c) and its tests (tests/test_sim*.c).
 *
 * Owns the shapes of the simulator's hardware tables (struct sim_hw, its
 * event rows and its documented offcore-response values) and of a parsed
 * workload profile.  Nothing else of lattop may include it, and it includes
 * nothing of lattop's but sim.h: the simulator is an independent second
 * implementation of the hardware.
 */
#ifndef LATTOP_SIM_INTERNAL_H
#define LATTOP_SIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

#define SIM_MAX_GP       8      /* array size; leaf 0xA says how many exist */
#define SIM_MAX_FIXED    3
#define SIM_MAX_CPUS     4096
#define SIM_MAX_LAT      32     /* points of a load_latency distribution */

/*
 * What a logical CPU does over an interval, integrated from the profile:
 * the ground truth every counter counts a weighted sum of.
 */
enum sim_traffic {
	SIM_T_TSC,      /* TSC ticks: tsc_ghz * 1e9 * dt */
	SIM_T_CYC,      /* unhalted core cycles: ghz * 1e9 * busy */
	SIM_T_REF,      /* unhalted reference cycles: tsc_ghz * 1e9 * busy */
	SIM_T_INST,     /* instructions retired: ipc * cycles */
	SIM_T_LOADS,    /* loads retired */
	SIM_T_RD,       /* demand data reads that miss the L2 (leave the core; Atom: the module) */
	SIM_T_CLEAN,    /* ... of them served by a clean hit in another core (Atom: module) */
	SIM_T_HITM,     /* ... served by a modified line in another core (Atom: module) */
	SIM_T_RHIT,     /* ... served by a clean line in another package's cache */
	SIM_T_RHITM,    /* ... served by a modified line in another package's cache */
	SIM_T_REST,     /* ... the rest: L3/L2 without snoop, or DRAM */
	SIM_T_OUTST,    /* outstanding-weighted cycles: reads * offcore_latency */
	SIM_T_L2HIT,    /* demand data reads the L2 served (Atom: with the module partner's HITM) */
	SIM_T_HITM_MOD, /* loads served by a modified line in the module partner's L1 (Atom) */
	SIM_T_N
};

/* What an event row counts. */
enum sim_ev_kind {
	SIM_EV_CYCLES,          /* SIM_T_CYC */
	SIM_EV_INST,            /* SIM_T_INST */
	SIM_EV_LOADS,           /* SIM_T_LOADS */
	SIM_EV_LOAD_LAT,        /* loads above MSR_PEBS_LD_LAT_THRESHOLD */
	SIM_EV_RSP0,            /* OFFCORE_RESPONSE via MSR_OFFCORE_RSP_0 */
	SIM_EV_RSP1,            /* OFFCORE_RESPONSE via MSR_OFFCORE_RSP_1 */
	SIM_EV_OFF_REQ,         /* OFFCORE_REQUESTS.DEMAND_DATA_RD: SIM_T_RD */
	SIM_EV_OFF_OUTST,       /* OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD */
	SIM_EV_HITM_LOADS,      /* retired loads that hit a modified line in any other core:
				 * SIM_T_HITM + SIM_T_HITM_MOD (Atom) */
	SIM_EV_HIT_LOADS,       /* retired loads served by a clean snoop hit in another core:
				 * SIM_T_CLEAN */
	SIM_EV_RHIT_LOADS,      /* retired loads served by another package's clean line */
	SIM_EV_RHITM_LOADS,     /* ... by another package's modified line */
};

/*
 * One event encoding the simulated CPU implements (cmask = inv = edge = 0).
 * @pfm is the libpfm4 event string that must encode to it, on @pfm_pmu when
 * set, else on the uarch's PMU (tests/test_sim_pfm.c checks every row).
 */
struct sim_event {
	uint8_t event;
	uint8_t umask;
	uint8_t kind;           /* enum sim_ev_kind */
	uint8_t counters;       /* bit i: counts on IA32_PMCi */
	const char *name;       /* SDM / perfmon name */
	const char *pfm;
	const char *pfm_pmu;
};

/*
 * An MSR_OFFCORE_RSP_x value documented as meaningful, with what the
 * simulator's decoder makes of it (weights of SIM_T_CLEAN, _HITM, _REST,
 * _OUTST) and the libpfm4 string that encodes it.  libpfm4 adds
 * ANY_RESPONSE (bit 16) on its own to Atom snoop-only selections: those
 * rows name it in @pfm_extra (see tests/test_sim_pfm.c).
 */
struct sim_rsp_doc {
	uint8_t reg;            /* 0 = MSR_OFFCORE_RSP_0, 1 = _1 */
	uint64_t value;
	double clean, hitm, rest, outst;
	const char *pfm;
	const char *pfm_pmu;    /* NULL = the uarch's PMU */
	uint64_t pfm_extra;     /* bits libpfm4 sets beyond @value */
	double rhit, rhitm, l2hit;      /* weights of SIM_T_RHIT, _RHITM, _L2HIT */
};

/* Offcore-response bit layouts (pmu-facts §5). */
enum sim_rsp_layout {
	SIM_RSP_NHM,            /* §5.1: request 7:0, response 15:8 */
	SIM_RSP_HSW,            /* §5.2: request 15:0, supplier 30:16, snoop 37:31 */
	SIM_RSP_SLM,            /* §5.3: snoop 31/33/34/36, OUTSTANDING 38 */
	SIM_RSP_GLM,            /* §5.4: snoop 33/34/36, OUTSTANDING 38 */
};

/* Which logical CPUs share one MSR_OFFCORE_RSP_x pair. */
enum sim_scope {
	SIM_SCOPE_THREAD,       /* each logical CPU its own */
	SIM_SCOPE_CORE,         /* the hyperthreads of a core */
	SIM_SCOPE_MODULE,       /* the two cores of a module (core / 2) */
};

/* One simulated microarchitecture: everything is data, read by sim.c. */
struct sim_hw {
	const char *name;               /* as sim_new takes it */
	const char *pfm_pmu;            /* libpfm4 PMU for the oracle test */
	uint8_t model;                  /* display model, family 6 */
	uint8_t stepping;
	uint32_t microcode;             /* IA32_BIOS_SIGN_ID[63:32] at start (0: none given) */
	uint32_t cpuid1_ecx, cpuid1_edx;
	uint32_t leaf_a[4];             /* CPUID.0AH EAX EBX ECX EDX */
	const char *brand;              /* <= 47 characters */
	uint64_t perf_caps;             /* IA32_PERF_CAPABILITIES */
	uint64_t evtsel_valid;          /* writable IA32_PERFEVTSELx bits */
	uint64_t pebs_valid;            /* writable IA32_PEBS_ENABLE bits */
	bool has_ld_lat;                /* MSR_PEBS_LD_LAT_THRESHOLD exists */
	/*
	 * Version 5 layout of IA32_PEBS_ENABLE: no LL_EN, bit 32 + i is PEBS
	 * on IA32_FIXED_CTRi; load latency counts with PEBS_EN alone.
	 */
	bool pebs_fixed;
	bool ht;                        /* Hyper-Threading: default 2 threads */
	bool any_thread;                /* AnyThread bit counts the core */
	int nrsp;                       /* MSR_OFFCORE_RSP_x registers */
	uint64_t rsp_valid[2];
	enum sim_rsp_layout layout;
	int l3_miss_bit;                /* SIM_RSP_HSW: L3_MISS_LOCAL supplier */
	enum sim_scope rsp_scope;
	int module_cores;               /* cores behind one L2 (Atom: 2), else 1 */
	bool multi_package;             /* has server parts with 2+ packages */
	uint8_t server_model;           /* display model with packages >= 2 */
	uint8_t server_stepping;
	uint32_t server_microcode;       /* IA32_BIOS_SIGN_ID[63:32] of the server part */
	const struct sim_event *server_events;  /* events of the server part only */
	size_t nserver_events;
	/*
	 * HT bug: events with codes ht_bug_first..ht_bug_last miscount on
	 * counter i while the sibling thread's counter i is enabled (0, 0:
	 * none).  See sim.c for what the simulator makes of it.
	 */
	uint8_t ht_bug_first, ht_bug_last;
	const struct sim_event *events;
	size_t nevents;
	const struct sim_rsp_doc *rsp_docs;
	size_t nrsp_docs;
	/*
	 * A hybrid part (CPUID.7.0:EDX[15] set): the hardware of its Atom
	 * CPUs, which follow its Core CPUs (profile key core_types; by default
	 * half of the CPUs each, P-cores first), NULL otherwise.  core_type and
	 * native: CPUID.1AH:EAX of this hardware's CPUs, 0 when it has none.
	 */
	const struct sim_hw *atom;
	uint8_t core_type;
	uint32_t native;
	/* General-purpose counters beyond what leaf 0xA says (a hybrid's Core CPUs); 0: leaf 0xA's. */
	unsigned ngp;
};

/* sim.c: sim_new() for a hardware table of the caller's (tests), which must outlive the sim. */
struct sim *sim_new_hw(const struct sim_hw *hw, const struct sim_profile *profile,
		       char *err, size_t errlen);

/*
 * sim.c, for the simulated kernel (sim_kernel.c): the clock the machine
 * runs on (to put another in front of it), and its profile.
 */
void sim_get_clock(const struct sim *, double (**now)(void *), void **arg);
const struct sim_profile *sim_profile_of(const struct sim *);

/* sim_hw.c */
extern const struct sim_hw *const sim_hw_all[];        /* NULL-ended */
const struct sim_hw *sim_hw_lookup(const char *name);
unsigned sim_hw_version(const struct sim_hw *);
unsigned sim_hw_ngp(const struct sim_hw *);
unsigned sim_hw_gp_width(const struct sim_hw *);
unsigned sim_hw_nfixed(const struct sim_hw *);
unsigned sim_hw_fixed_width(const struct sim_hw *);
bool sim_hw_fw_write(const struct sim_hw *);
const struct sim_event *sim_hw_event(const struct sim_hw *, bool server, unsigned event,
				     unsigned umask);
/*
 * Weights (SIM_T_CLEAN, _HITM, _REST, _OUTST in @w, which must be zeroed by
 * the caller) of what OFFCORE_RESPONSE counts with MSR_OFFCORE_RSP_@reg =
 * @rsp.  Only demand data reads (request bit 0) have traffic.
 */
void sim_hw_rsp_weights(const struct sim_hw *, int reg, uint64_t rsp,
			double w[SIM_T_N]);

/* A workload profile, resolved per logical CPU. */
struct sim_params {
	double ghz, tsc_ghz, ipc, busy, user_fraction;
	double loads_per_sec;
	int nlat;
	double lat[SIM_MAX_LAT], lat_frac[SIM_MAX_LAT];
	double offcore_reads_per_sec, offcore_latency;
	double snoop_hit_per_sec, hitm_per_sec;
	double ldlat_tagged_fraction;           /* share of loads the hardware tags */
	double same_module_hitm_fraction;       /* share of hitm_per_sec from the module partner */
	double l2_hit_per_sec;                  /* demand data reads the L2 serves */
	double remote_hit_per_sec, remote_hitm_per_sec;
	/* The simulated kernel (sim_kernel.c): another perf user's events, the NMI watchdog. */
	int perf_other_events;
	bool perf_nmi_watchdog;
};

#define SIM_MAX_OTHER_EVENTS 16
#define SIM_DEFAULT_PARANOID 2          /* upstream's default (pmu-facts 10.7) */

struct sim_preset {
	int cpu;                /* -1: every CPU */
	uint32_t msr;
	uint64_t value;
};

/* Slow variation of the builtin profile: factor 1 + amp * sin(2 pi t / period + phase). */
struct sim_wave {
	double amp, period, phase;
};

struct sim_vary {
	bool on;
	double cpu_phase;               /* phase added per logical CPU */
	struct sim_wave busy, loads, offcore;
	int burst_cpu;                  /* HITM burst: extra reads, all HITM */
	double burst_period, burst_start, burst_len, burst_hitm_per_sec;
};

struct sim_profile {
	char name[256];                 /* the file, for messages */
	int cpus;
	int threads_per_core;           /* 0: the uarch's default */
	int packages;                   /* 1 unless set */
	int stepping;                   /* CPUID stepping; -1: the uarch's */
	int line_packages;              /* lines of keys sim_new checks against the uarch; 0: unset */
	int line_module_hitm;
	int line_tpc;
	int line_cpus;
	/*
	 * Simulated seconds per wall second: the simulated machine, its TSC
	 * and every counter run this many times faster than wall time (a
	 * test's way to make 40-bit counters wrap often without waiting).
	 */
	double time_scale;
	int perf_event_paranoid;        /* the simulated kernel's level */
	/*
	 * A hybrid part's CPUs of each core type (core_types = P:N,E:M, P-cores
	 * first); 0, 0: the part's default.  line_core_types: its line, 0 unset.
	 */
	int core_p, core_e, line_core_types;
	struct sim_params *cpu;         /* [cpus] */
	struct sim_preset *presets;     /* global ones first */
	size_t npresets;
	struct sim_vary vary;
};

/* sim_profile.c */
struct sim_profile *sim_profile_copy(const struct sim_profile *);
/* Traffic of logical CPU @cpu over [t0, t1] (seconds since the start), added to @out. */
void sim_profile_traffic(const struct sim_profile *, int cpu, double t0, double t1,
			 double out[SIM_T_N]);
/* Fraction of @cpu's loads whose latency is greater than @threshold cycles. */
double sim_profile_above(const struct sim_profile *, int cpu, double threshold);

#endif
