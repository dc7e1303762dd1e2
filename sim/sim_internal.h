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

#define SIM_MAX_GP       10     /* array size; leaf 0xA (0x23.1) says how many exist */
#define SIM_LEGACY_GP    8      /* ... of which with a legacy address (sim.c sim_reg) */
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
	SIM_EV_L3_HITM_LOADS,   /* retired loads the L3 served from a modified line in another
				 * module (Atom): SIM_T_HITM alone, not the module partner's */
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
	uint16_t counters;      /* bit i: counts on IA32_PMCi (Lion Cove: PMC0-9) */
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
	SIM_RSP_TNT,            /* §9.4-9.5: L3 hit 21:18, snoop 31-36, OUTSTANDING 63 */
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
	 * CPUs, where profile key core_types puts them (by default half of
	 * the CPUs each, P-cores first), NULL otherwise.  core_type and
	 * native: CPUID.1AH:EAX of this hardware's CPUs, 0 when it has none.
	 */
	const struct sim_hw *atom;
	/*
	 * A third core type (Arrow Lake-H's low-power E-cores, profile key
	 * core_types' L; by default they follow the Atom CPUs); NULL when the
	 * part has none.
	 */
	const struct sim_hw *lowpower;
	/*
	 * The other models simulated under this name (NULL-ended, NULL: none),
	 * the profile key model picks one: Arrow Lake is 06_B5, C5 and C6.
	 */
	const struct sim_hw *const *models;
	uint8_t core_type;
	uint32_t native;
	/* General-purpose counters beyond what leaf 0xA says (a hybrid's Core CPUs); 0: leaf 0xA's. */
	unsigned ngp;
	/*
	 * CPUID leaf 0x23 subleaves 0 and 1 (pmu-facts 9.2), when the part has
	 * it (leaf23[0][0] nonzero: leaf 0 then says 0x23): subleaf 1's GP
	 * bitmap is then the counters this CPU has, beyond leaf 0xA's.
	 */
	uint32_t leaf23[2][4];
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
	/* A hybrid part: the kernel lists this CPU under the other core type's PMU. */
	bool perf_pmu_swap;
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

/*
 * A contended cache line of the profile (key line, repeatable), whose
 * accesses the simulated kernel samples (sim_kernel.c).
 */
#define SIM_LINE_ACCESSES 8
struct sim_line_access {
	int tid;
	bool write;                     /* read-modify-write; else a read */
	unsigned offset;                /* of the 8-byte word in the line */
};
struct sim_line {
	uint64_t addr;                  /* 64-byte aligned */
	char comm[16];
	int pid;
	double hitm_per_sec;            /* loads of the line served HITM, all accesses together */
	double remote;                  /* share of them served by another package */
	uint64_t ip;                    /* the instruction; 0: one made up per access */
	double exit_s;                  /* process pid exits at this simulated second; 0 never */
	double start_s;                 /* ... starts at this one; 0: it runs from the start */
	char exe[128];                  /* its executable; "" none told */
	int node;                       /* the NUMA node of its memory; -1: no physical address */
	int nacc;
	struct sim_line_access acc[SIM_LINE_ACCESSES];
};
#define SIM_MAX_LINES 256

/* A run of core_types: n CPUs of core type 'P' (Core), 'E' (Atom) or 'L' (low-power Atom). */
struct sim_core_run {
	char type;
	int n;
};
#define SIM_MAX_CORE_RUNS 64
#define SIM_DEFAULT_MAX_SAMPLE_RATE 100000      /* K61 DEFAULT_MAX_SAMPLE_RATE */

struct sim_profile {
	char name[256];                 /* the file, for messages */
	struct sim_line *lines;         /* [nlines] */
	int nlines;
	int max_sample_rate;            /* kernel.perf_event_max_sample_rate */
	bool no_format_lost;            /* a kernel before 6.0: no PERF_FORMAT_LOST */
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
	 * A hybrid part's CPUs by core type: core_types' runs, laid out from
	 * CPU 0 in the order written (P:2,E:4,P:2); none (line_core_types 0,
	 * unset): the part's default.
	 */
	struct sim_core_run core_runs[SIM_MAX_CORE_RUNS];
	int ncore_runs, line_core_types;
	int model, line_model;          /* key model: the display model, -1 (line 0) unset */
	struct sim_params *cpu;         /* [cpus] */
	struct sim_preset *presets;     /* global ones first */
	size_t npresets;
	struct sim_vary vary;
};

/* sim_dse.c: a PEBS data-source code as the kernel translates it, per family (ended by code 0). */
struct sim_dse {
	uint8_t code;
	uint64_t data_src;
};
extern const struct sim_dse sim_dse_base[], sim_dse_nhm[], sim_dse_skl[], sim_dse_grt[],
	sim_dse_cmt[], sim_dse_lnc[];
extern const uint64_t sim_dse_store;
/* sim_dse.c: the retired-load snoop events that sample the data address, per PMU. */
struct sim_snoop_ev {
	const char *pmu;                /* struct sk_pmu's name */
	uint16_t hitm, remote_hitm;     /* event | umask << 8; 0: none */
};
extern const struct sim_snoop_ev sim_snoop_evs[];
extern const uint64_t sim_dse_datala_load;
/* The snoop event @cfg is on PMU @pmu: SIM_SNOOP_HITM, SIM_SNOOP_REMOTE, or SIM_SNOOP_NONE. */
enum { SIM_SNOOP_NONE, SIM_SNOOP_HITM, SIM_SNOOP_REMOTE };
int sim_snoop_event(const char *pmu, uint64_t cfg);

/*
 * sim_tasks.c: the profile's processes and threads as the simulated
 * kernel's tasks.  Times are seconds since the kernel opened.
 */
/* Process @pid's life: from *@from (0: before the open) to *@to (0: never). */
void sim_task_life(const struct sim_profile *p, int pid, double *from, double *to);
/* The process thread @tid belongs to at @t; 0: no such thread, or not alive then. */
int sim_task_pid(const struct sim_profile *p, int tid, double t);
/* /proc/PID/task at @t: up to @max TIDs (the main thread first), how many, or -ESRCH. */
int sim_tasks(const struct sim_profile *p, int pid, double t, int *tids, int max);
/* The seconds of (@a, @b] in which line @l's process lived. */
double sim_task_seen(const struct sim_profile *p, const struct sim_line *l, double a, double b);
/* Where a process's exe= is mapped, and how much of it. */
#define SIM_EXE_BASE 0x400000ULL
#define SIM_EXE_LEN 0x10000000ULL
/*
 * The side-band records (as @want asks: SIM_SB_*) of the processes whose
 * main thread runs on CPU @cpu of @ncpus that started or ended in
 * (@a, @b], each handed to @fn; @t0 the clock at the open, for their times.
 */
enum { SIM_SB_TASK = 1, SIM_SB_COMM = 2, SIM_SB_MMAP2 = 4 };
typedef void (*sim_record_fn)(void *arg, const void *rec, size_t len);
void sim_task_sideband(const struct sim_profile *p, int cpu, int ncpus, double a, double b,
		       double t0, unsigned want, sim_record_fn fn, void *arg);
/* A physical address of @addr of @pid on NUMA node @node (-1: none, 0). */
uint64_t sim_phys(uint64_t addr, int pid, int node);
/* The kernel's file /sys/devices/system/@rest for those addresses: its length, or -ENOENT. */
int sim_node_file(const struct sim_profile *p, const char *rest, char *buf, size_t len);

/* sim_profile.c */
struct sim_profile *sim_profile_copy(const struct sim_profile *);
/* Traffic of logical CPU @cpu over [t0, t1] (seconds since the start), added to @out. */
void sim_profile_traffic(const struct sim_profile *, int cpu, double t0, double t1,
			 double out[SIM_T_N]);
/* Fraction of @cpu's loads whose latency is greater than @threshold cycles. */
double sim_profile_above(const struct sim_profile *, int cpu, double threshold);

/*
 * sim_kernel_tab.c: what the simulated kernel knows of each PMU, a case of
 * intel_pmu_init each (its own tables, never lattop's).
 */
/*
 * An event constraint: config & mask == code -> the counters in cntmask
 * (INTEL_EVENT_CONSTRAINT: mask 0xff, INTEL_UEVENT_CONSTRAINT: 0xffff).
 * excl: INTEL_EXCLEVT_CONSTRAINT, exclusive against the HT sibling once
 * intel_ht_bug applies (SMT on).
 */
struct sk_cons {
	uint16_t code, mask;
	uint16_t cntmask;               /* bit i: counter i (Lion Cove: PMC0-9) */
	bool excl;
};

/* An extra register (INTEL_UEVENT_EXTRA_REG, INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG). */
enum { SK_ER_RSP0, SK_ER_RSP1, SK_ER_LDLAT, SK_ER_N };
struct sk_er {
	uint16_t code, mask;    /* config & mask == code */
	uint8_t idx;            /* SK_ER_* */
	uint64_t valid;         /* config1 bits the register takes; others: EINVAL */
};

/* What the kernel knows of one PMU (a case of intel_pmu_init). */
struct sk_pmu {
	const char *name;               /* caps/pmu_name */
	const uint8_t *models;          /* display models, ended by 0 */
	bool ldlat_format;              /* the format attribute ldlat (nhm/snb: yes; slm/glm: no) */
	unsigned max_precise;           /* x86_pmu_max_precise */
	/* PMU_FL_HAS_RSP_1 and how intel_alt_er moves an event: by event code or by umask. */
	bool alt_rsp, alt_by_umask;
	bool er_per_core;               /* shared_regs per core (no PMU_FL_NO_HT_SHARING) */
	bool ht_bug;                    /* intel_ht_bug: EXCL on 0xd0-0xd3 with SMT on */
	const struct sk_er *er;         /* ended by code 0 */
	const struct sk_cons *cons;     /* ended by cntmask 0 */
	const struct sk_cons *pebs;     /* the PEBS constraints of precise events */
	/* Sampling (ds.c): the load-latency event, "mem-stores" (0: none), the data sources. */
	uint16_t ldlat_config, store_config;
	const struct sim_dse *dse;      /* the kernel's translation of the PEBS code (sim_dse.c) */
	uint8_t dse_hitm, dse_remote_hitm;      /* the code the hardware writes for each */
	bool mem_loads_aux;             /* PMU_FL_MEM_LOADS_AUX: 0x8203 must lead the group */
};

extern const struct sk_pmu sk_pmus[];
extern const size_t sk_npmus;

/*
 * A hybrid part's kernel PMUs (init_hw_perf_events, intel_hybrid_pmu_type_map):
 * one per core type, each with its sysfs name, the CPUs whose CPUID.1AH
 * says its core type (and native model, where two Atom kinds share a
 * type), and its own case of intel_pmu_init.  The big one is registered
 * as PERF_TYPE_RAW, the others get a type at boot.
 */
struct sk_hybrid_pmu {
	const char *dev;                /* "cpu_core", "cpu_atom", "cpu_lowpower" */
	uint8_t core_type;              /* CPUID.1AH:EAX[31:24] of its CPUs */
	uint32_t native;                /* ... and [23:0], 0: any */
	bool big;                       /* hybrid_big: PERF_TYPE_RAW */
	unsigned gp_add;                /* counters the kernel adds to leaf 0xA's (the ADL case) */
	const struct sk_pmu *pmu;
};
#define SK_HYBRID_PMUS 3
struct sk_hybrid {
	const uint8_t *models;          /* display models, ended by 0 */
	int npmus;
	struct sk_hybrid_pmu pmu[SK_HYBRID_PMUS];
};
extern const struct sk_hybrid sk_hybrids[];
extern const size_t sk_nhybrids;

#endif
