/*
 * uarch.h: CPU detection.  CPUID facts in, a microarchitecture out.
 *
 * cpuid.c reads CPUID (the running CPU through libcpuid, a libcpuid raw
 * dump, or the simulator) into a struct cpuid_raw and decodes it into a
 * struct cpuid_info.  uarch.c classifies by family/model from its model
 * table, cross-checks leaf 0xA, and says why a CPU cannot be measured.
 * libcpuid's own codename is never used: 0.6.2 names many Atoms wrongly.
 */
#ifndef LATTOP_UARCH_H
#define LATTOP_UARCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_table;

/* Raw CPUID leaves: basic[i] = leaf i, ext[i] = leaf 0x80000000 + i; EAX EBX ECX EDX. */
#define CPUID_RAW_BASIC 32
#define CPUID_RAW_EXT   32
struct cpuid_raw {
	uint32_t basic[CPUID_RAW_BASIC][4];
	uint32_t ext[CPUID_RAW_EXT][4];
	uint32_t basic_present;  /* bit i: leaf i was read (a dump may leave leaves out) */
	/*
	 * Leaf 0x23 (architectural perfmon extended), past basic[]: subleaf 0
	 * (EAX the valid-subleaf bitmap) and 1 (EAX the general-purpose, EBX
	 * the fixed counter bitmap), pmu-facts 9.2.  A libcpuid dump cannot
	 * hold it (basic leaves 0..0x1F only): has_leaf23 false then.
	 */
	uint32_t leaf23[2][4];
	bool has_leaf23;
};

/*
 * Every logical CPU's own CPUID, read on that CPU: the running machine's
 * (cpuid_set_running) or an all-CPU dump's (cpuid_set_file).  A hybrid
 * part's CPUs differ in leaves 0x1A, 0xA and 0x23 (pmu-facts 9.6).
 */
struct cpuid_set {
	int n;
	int *cpu;                /* its Linux CPU number (a dump's CPU number) */
	struct cpuid_raw *raw;   /* [n] */
};

struct pmu_caps {                /* CPUID leaf 0xA */
	unsigned version;        /* EAX[7:0] */
	unsigned gp_counters;    /* EAX[15:8], per logical CPU */
	unsigned gp_width;       /* EAX[23:16] */
	unsigned fixed_counters; /* EDX[4:0] (version > 1) */
	/*
	 * Bit i: IA32_FIXED_CTRi exists.  From version 5 on, ECX is a bitmap
	 * of fixed counters and counter i exists when ECX[i] is set or
	 * EDX[4:0] > i (pmu-facts 9.2, K612 intel_pmu_init takes ECX); before,
	 * the EDX[4:0] counters from 0.
	 */
	uint32_t fixed_mask;
	unsigned fixed_width;    /* EDX[12:5] */
	unsigned ebx_len;        /* EAX[31:24] */
	uint32_t unavailable;    /* EBX: bit set = architectural event unavailable */
};

struct cpuid_info {
	char vendor[13];         /* "GenuineIntel" */
	unsigned family;         /* display family */
	unsigned model;          /* display model */
	unsigned stepping;
	char brand[49];          /* trimmed; "" when the CPU has no brand string */
	bool hypervisor;         /* CPUID.01H:ECX[31] */
	bool pdcm;               /* CPUID.01H:ECX[15]: IA32_PERF_CAPABILITIES exists */
	unsigned max_leaf;
	struct pmu_caps pmu;     /* zero when max_leaf < 0xA; leaf 0x23.1's counters when it has them */
	bool hybrid;             /* CPUID.(EAX=7,ECX=0):EDX[15] (pmu-facts 9.6) */
	uint8_t core_type;       /* CPUID.1AH:EAX[31:24]: CORE_TYPE_*, 0 when leaf 0x1A is absent */
	uint32_t native_model;   /* CPUID.1AH:EAX[23:0] */
};

/* CPUID.1AH:EAX[31:24] (pmu-facts 9.6; the kernel's enum hybrid_cpu_type). */
#define CORE_TYPE_ATOM 0x20
#define CORE_TYPE_CORE 0x40

enum offcore_scope {
	OFFCORE_THREAD,          /* each logical CPU has its own MSR_OFFCORE_RSP_x */
	OFFCORE_CORE,            /* shared by the hyperthreads of a core (Nehalem, Westmere) */
	OFFCORE_MODULE,          /* shared by the cores of a module (Silvermont, Airmont) */
};

struct uarch {
	const char *name;        /* JSON "microarch": "nehalem", ..., "netburst", "zen", "unknown" */
	const char *pretty;      /* "Nehalem" */
	const struct pmu_table *table;   /* NULL: not supported */
	unsigned min_version;    /* architectural perfmon version the table is written for */
	unsigned gp_needed;      /* general-purpose counters the table needs per logical CPU */
	unsigned gp_width;       /* counter width the table expects */
	unsigned offcore_msrs;   /* how many MSR_OFFCORE_RSP_x exist (1 on Nehalem, else 2) */
	enum offcore_scope offcore_scope;
	unsigned flags;          /* UARCH_F_* (events.h) */
	const char *ht_erratum;  /* UARCH_F_HT_EXCL: the erratum's name in Intel's list ("HSD29") */
	const char *why_not;     /* for unsupported microarchitectures: the reason */
};

/*
 * One core type of a hybrid part: its CPUs, its microarchitecture and
 * event table, and the counters its CPUs have (pmu-facts 9.6).  Arrow
 * Lake-H has three: two kinds of Atom, told apart by native model ID.
 */
#define CORE_TYPES_MAX  3
#define CPUSET_MAX      1024    /* as a dump's "Logical CPU" limit (cpuid.c) */
struct core_type_desc {
	uint8_t type;                   /* CORE_TYPE_* */
	uint32_t native;                /* CPUID.1AH:EAX[23:0] */
	const struct uarch *uarch;      /* never NULL */
	struct pmu_caps pmu;            /* this type's counters */
	unsigned flags;                 /* UARCH_F_* */
	bool supported;
	char reason[320];               /* why not, when !supported */
	int ncpu;
	uint64_t cpus[CPUSET_MAX / 64]; /* bit i: Linux CPU i is of this type */
};

/* The --detect result. */
struct cpu_desc {
	struct cpuid_info id;
	const struct uarch *uarch;   /* never NULL; "unknown" when nothing matched */
	unsigned flags;              /* UARCH_F_*: the family's and the model's own */
	bool supported;
	char reason[768];            /* why not, when !supported */
	/*
	 * The microcode revision below which this model and stepping's PEBS,
	 * hence load latency, is unreliable (0: no such revision), and where
	 * that comes from.  CPUID cannot tell the revision: pmu_open() reads it.
	 */
	unsigned ldlat_min_ucode;
	const char *ldlat_ucode_source;
	/*
	 * Load latency is never measured on this model and stepping, whatever
	 * the microcode: why ("" when it may be).  The kernel's rule for a
	 * stepping its microcode table does not list (uarch.c).
	 */
	char ldlat_why[200];
	/*
	 * A hybrid part (CPUID.7.0:EDX[15] on its CPUs): each core type with
	 * its CPUs (ntypes 0 otherwise).  @uarch is then the part ("alderlake"),
	 * and @supported true when every type is.
	 */
	bool hybrid;
	int ntypes;
	struct core_type_desc type[CORE_TYPES_MAX];
};

/* The core type of Linux CPU @cpu in @d (an index into d->type[]), or -1 (none, not hybrid). */
int cpu_desc_type_of(const struct cpu_desc *d, int cpu);

/*
 * The @i-th distinct microarchitecture of a core type of hybrid part @u
 * ("goldencove", then "gracemont" for "alderlake"), its CORE_TYPE_* in
 * *@type; NULL past the last (and for a part that is never hybrid).
 */
const struct uarch *uarch_core_type(const struct uarch *u, size_t i, uint8_t *type);

/*
 * The models of hybrid part @u whose core type @type is @t, as "06_B5 06_C5"
 * ("" when none): Arrow Lake's Redwood Cove cores are 06_B5's only.
 */
void uarch_core_type_models(const struct uarch *u, const struct uarch *t, uint8_t type,
			    char *buf, size_t len);

/* "core" or "atom", as JSON and the rows name a CORE_TYPE_*. */
const char *core_type_name(uint8_t type);

/*
 * What a hybrid part's rows call its core type @t (struct row.core_type,
 * JSON core_type, the Prometheus label): "core", "atom", or "lowpower"
 * for the low-power E-cores of a part with two kinds of Atom (Arrow
 * Lake-H), as the kernel's cpu_lowpower PMU names them.
 */
const char *core_type_row_name(const struct cpu_desc *d, int t);

/* The mark beside a row's CPU number for its row name: "P", "E", "L" ("" for NULL). */
const char *core_type_mark(const char *row_name);

/* Fill @raw from the running CPU (libcpuid). 0, or -1 with a message. */
int cpuid_raw_running(struct cpuid_raw *raw, char *err, size_t errlen);

/* Fill @raw from a libcpuid raw dump (cpuid_serialize_raw_data format). */
int cpuid_raw_file(const char *path, struct cpuid_raw *raw, char *err, size_t errlen);

/*
 * 0 when every leaf lattop reads (1, 0xA) that leaf 0 says exists is in
 * @raw; else -1 with a message naming @path and the missing leaf.
 */
int cpuid_raw_complete(const struct cpuid_raw *raw, const char *path, char *err, size_t errlen);

void cpuid_decode(const struct cpuid_raw *raw, struct cpuid_info *out);

/*
 * Read CPUID on every CPU this thread may run on, with lattop's own
 * reader (sched_setaffinity(2) and the cpuid instruction: libcpuid reads
 * one CPU and keeps no leaf 0x23).  0, or -1 with a message.
 */
int cpuid_set_running(struct cpuid_set *s, char *err, size_t errlen);

/*
 * Read a dump of one or every CPU: libcpuid's raw format (one CPU, or its
 * all-CPU form with "Logical CPU #n" sections) or Debian's `cpuid -r`
 * output ("CPU n:" blocks of "0xLEAF 0xSUB: eax=... ebx=... ecx=... edx=..."
 * lines).  0, or -1 with a message naming @path.
 */
int cpuid_set_file(const char *path, struct cpuid_set *s, char *err, size_t errlen);

void cpuid_set_free(struct cpuid_set *s);

/*
 * Fill @raw with the leaves lattop keeps (0 to the maximum basic leaf, leaf
 * 0x23's subleaves 0 and 1 when it exists, the extended leaves), each read
 * through @fn: the cpuid instruction on a CPU (cpuid_set_running), or the
 * simulator's.
 */
typedef void cpuid_fn(void *arg, uint32_t leaf, uint32_t sub, uint32_t r[4]);
void cpuid_raw_read(struct cpuid_raw *raw, cpuid_fn *fn, void *arg);

/*
 * Fill @s with CPUs 0..@n-1, each CPU's leaves (cpuid_raw_read) through
 * @fn with @ctx and its number: a reader that can read any CPU's, as the
 * simulator's (sim_cpuid_cpu), which cpu/ does not know.  0, or -1 out of
 * memory (@s then empty).
 */
typedef void cpuid_cpu_fn(const void *ctx, int cpu, uint32_t leaf, uint32_t sub, uint32_t r[4]);
int cpuid_set_read(struct cpuid_set *s, int n, cpuid_cpu_fn *fn, const void *ctx);

/*
 * cpuid.c, for cpuid_all.c: the readers of each dump format.  A regular
 * file opened for reading (its stat in @st), or NULL with a message; every
 * CPU of a libcpuid raw dump into @s.
 */
struct stat;
FILE *cpuid_dump_open(const char *path, struct stat *st, char *err, size_t errlen);
int cpuid_set_libcpuid(const char *path, struct cpuid_set *s, char *err, size_t errlen);

/* Classify; never fails: an unknown CPU is described with a reason. */
void uarch_detect(const struct cpuid_info *id, struct cpu_desc *out);

/*
 * Classify from every CPU's CPUID: as uarch_detect() from the first, and
 * on a hybrid part each core type with its CPUs from their own leaves.
 */
void uarch_detect_set(const struct cpuid_set *s, struct cpu_desc *out);

/*
 * The table a part is measured with, as --detect and the exporter name
 * it: a hybrid's P-cores' (one model number can have P-cores of two
 * kinds: Arrow Lake's 06_B5 Redwood Cove, 06_C5/C6 Lion Cove), else the
 * microarchitecture's; NULL when there is none.
 */
const struct pmu_table *cpu_desc_table(const struct cpu_desc *d);

/* A supported microarchitecture by its JSON name ("haswell"), or NULL. */
const struct uarch *uarch_by_name(const char *name);

#define UARCH_ANY  0xffffffffu   /* a model table wildcard */

/* A row of the model table: CPUID vendor, family and model to a uarch. */
struct uarch_model {
	const char *vendor;
	unsigned family;                /* display family, or UARCH_ANY */
	unsigned model;                 /* display model, or UARCH_ANY */
	const struct uarch *uarch;
	unsigned flags;                 /* UARCH_F_* of this model beyond its family's */
	const char *source;
};

/* The model table, ended by a row with vendor == NULL; the first match wins. */
extern const struct uarch_model uarch_models[];

/* The supported microarchitectures, ended by NULL. */
extern const struct uarch *const uarch_supported[];

/*
 * The event tables, derived from uarch_supported[] and then the hybrids'
 * core types: the @i-th distinct one in that order, NULL past the last
 * (for tests and listings).
 */
const struct pmu_table *uarch_pmu_table(size_t i);

/*
 * The fixed counters usable as a run from IA32_FIXED_CTR0: those below
 * the first hole of @c's bitmap (lattop's tables use counters 0-2 only).
 */
unsigned pmu_caps_fixed_run(const struct pmu_caps *c);

/* The fixed counters @u's table uses: what leaf 0xA must report at least. */
unsigned uarch_fixed_needed(const struct uarch *u);

/* "lattop supports Intel Nehalem, ... and Broadwell", from uarch_supported[]. */
void uarch_supports(char *buf, size_t len);

/* Whether supported @u measures @metric (an enum metric, events.h), and on what condition. */
struct uarch_metric {
	bool measured;           /* on some model of @u */
	unsigned model_flags;    /* UARCH_F_* only some models have that it needs, or 0 */
	unsigned packages;       /* packages it needs (2: another package's cache), when measured */
	uint8_t scope;           /* enum snoop_scope (events.h) of a snoop metric, when measured */
	const char *reason;      /* why not, when !measured (the table's unsupported[]) */
};
void uarch_metric_status(const struct uarch *u, int metric, struct uarch_metric *out);

#endif
