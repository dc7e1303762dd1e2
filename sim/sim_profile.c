/*
 * sim_profile.c: workload profiles of the PMU simulator.
 *
 * Owns the profile file format (parser, error messages, defaults), the
 * builtin time-varying profile, and the integration of a profile's rates
 * over an interval (the ground truth the simulated counters count).  Must
 * not know about registers or events: that is sim.c and sim_hw.c.
 *
 * Format: `key = value` lines, `#` starts a comment (also after a value),
 * blank lines are ignored, a `cpuN.` prefix sets a key for logical CPU N
 * only.  Rates are per second of wall time per logical CPU.
 *
 *   key                     default     what
 *   cpus                    8           logical CPUs (1..4096)
 *   threads_per_core        per uarch   1 or 2 (2 where struct sim_hw .ht is set)
 *   ghz                     2.4         core clock; cycles = ghz * 1e9 * busy
 *   tsc_ghz                 = ghz       TSC and reference-cycle rate
 *   busy                    1           fraction of time unhalted (0..1)
 *   ipc                     1.2         instructions per unhalted cycle
 *   user_fraction           0.9         share of events counted by USR (0..1)
 *   loads_per_sec           7e8         loads retired
 *   load_latency            5:0.70 20:0.20 70:0.06 300:0.04
 *                                       cycles:fraction points of the load latency
 *   offcore_reads_per_sec   2e7         demand data reads missing the L2 (the Atoms:
 *                                       leaving the module)
 *   offcore_latency         200         their mean latency, core cycles
 *   snoop_hit_per_sec       1e6         ... of them served by a clean hit in another core
 *                                       (the Atoms: in another module)
 *   hitm_per_sec            2.5e5       loads served by a modified line in another core
 *   same_module_hitm_fraction 0.25      the Atoms: share of hitm_per_sec from the module
 *                                       partner (served by the L2); an error elsewhere
 *   l2_hit_per_sec          5e7         demand data reads the L2 serves
 *   ldlat_tagged_fraction   0.015625    share of loads the hardware tags for load
 *                                       latency (0 < f <= 1; undocumented on real CPUs)
 *   packages                1           sockets; >= 2 simulates the server part
 *   stepping                per uarch   CPUID stepping (0..15) of the part simulated
 *   model                   per uarch   CPUID display model of the part simulated, of those
 *                                       the name covers (arrowlake: 0xB5, the default,
 *                                       0xC6 Arrow Lake-S/HX, 0xC5 Arrow Lake-H); one it
 *                                       does not cover is an error
 *   remote_hit_per_sec      2e5         reads served clean by another package (packages >= 2)
 *   remote_hitm_per_sec     1e5         ... by a modified line in another package
 *   time_scale              1           simulated seconds per second of wall time (0..1e6]
 *   perf_event_paranoid     2           the simulated kernel's kernel.perf_event_paranoid
 *                                       (-1..4; 3 and 4 as Debian's patch: CAP_SYS_ADMIN)
 *   perf_other_events       0           events another perf user keeps counting on the
 *                                       CPU (0..16), so that the kernel multiplexes
 *   perf_nmi_watchdog       0           1: the NMI watchdog holds a counter (the cycles one)
 *   core_types              per uarch   a hybrid part's CPUs by core type: runs T:N, laid
 *                                       out from CPU 0 in the order written, T one of P
 *                                       (P-cores), E (E-cores), L (low-power E-cores,
 *                                       Arrow Lake-H's only), a type may come back:
 *                                       "P:N,E:M", "P:N,E:M,L:K", "P:2,E:4,P:2" (the
 *                                       runs add up to cpus; an error where the part
 *                                       is not hybrid)
 *   perf_pmu_swap           0           a hybrid part: 1 lists the CPU under the other core
 *                                       type's PMU in the simulated kernel (its cpus files
 *                                       then disagree with CPUID); ignored elsewhere
 *   perf_event_max_sample_rate 100000   the simulated kernel's limit: samples per second
 *                                       per event above it are throttled
 *   perf_format_lost        1           0: a kernel before 6.0, without PERF_FORMAT_LOST
 *   line                    -           repeatable: ADDR COMM PID HITM_PER_SEC ACCESS...
 *                                       [remote=F] [ip=HEX] [exit=S] [start=S]
 *                                       [exe=PATH] [node=N]: a contended line at
 *                                       ADDR (64-byte aligned) of process PID named COMM,
 *                                       whose loads are served HITM HITM_PER_SEC times a
 *                                       second in all, shared evenly by its accesses; an
 *                                       ACCESS is TID:w@OFFSET (thread TID reads and
 *                                       writes the 8-byte word at OFFSET: one load, one
 *                                       store) or TID:r@OFFSET (reads it); remote=F: the
 *                                       share served by another package (packages >= 2);
 *                                       ip=HEX: the instruction of every access; exit=S:
 *                                       process PID exits S simulated seconds in (its
 *                                       threads access nothing after); start=S: it
 *                                       starts S seconds in (FORK, COMM and MMAP2
 *                                       records then); exe=PATH: its executable, an
 *                                       ELF file the MMAP2 record maps at 0x400000;
 *                                       node=N: the NUMA node of its memory (0);
 *                                       none: no physical address (a page the
 *                                       kernel did not translate: PHYS_ADDR 0).
 *                                       The thread TID runs on CPU TID % cpus, always.
 *   msr.0xADDR              -           initial value of an MSR
 *
 * Errors are one line, "FILE:LINE: KEY: what is wrong" (a value quoted in
 * one is cut to VAL_SHOWN characters); a file that cannot be read, "FILE:
 * why", as every other file error.  A UTF-8 byte-order mark is skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/sim_internal.h"

enum key_id {
	K_CPUS, K_TPC, K_GHZ, K_TSC_GHZ, K_IPC, K_BUSY, K_USER_FRACTION,
	K_LOADS, K_LOAD_LATENCY, K_OFF_READS, K_OFF_LAT, K_SNOOP, K_HITM,
	K_TAGGED, K_MODULE_HITM, K_L2_HIT, K_PACKAGES, K_REMOTE_HIT, K_REMOTE_HITM,
	K_TIME_SCALE, K_STEPPING, K_MODEL, K_PARANOID, K_OTHER_EVENTS, K_WATCHDOG, K_CORE_TYPES,
	K_PMU_SWAP,
	K_MAX_RATE, K_FORMAT_LOST, K_LINE, K_MSR, K_N
};

enum key_kind {
	KIND_CPUS,      /* integer 1..SIM_MAX_CPUS */
	KIND_TPC,       /* 1 or 2 */
	KIND_POSITIVE,  /* a rate that must be > 0 */
	KIND_RATE,      /* >= 0 */
	KIND_LATENCY,   /* >= 0 */
	KIND_FRACTION,  /* 0..1 */
	KIND_PROB,      /* 0 < p <= 1 */
	KIND_PACKAGES,  /* integer 1..SIM_MAX_PACKAGES */
	KIND_STEPPING,  /* integer 0..15 (CPUID.1:EAX[3:0]) */
	KIND_MODEL,     /* integer 1..255 (the display model), hex as 0xC6 */
	KIND_DIST,      /* load_latency points */
	KIND_MSR,       /* 64-bit register value */
	KIND_SCALE,     /* time_scale: > 0, at most SIM_MAX_TIME_SCALE */
	KIND_PARANOID,  /* integer -1..4 */
	KIND_OTHER,     /* integer 0..SIM_MAX_OTHER_EVENTS */
	KIND_BOOL,      /* 0 or 1 */
	KIND_CORE_TYPES, /* runs of CPUs of a core type, "P:2,E:4,P:2" */
	KIND_MAX_RATE,  /* integer 1..1e7 */
	KIND_LINE,      /* a contended line (struct sim_line) */
};

/* A million: an hour of a 40-bit counter wrapping every minute in 3.6 ms. */
#define SIM_MAX_TIME_SCALE 1e6

struct key_def {
	const char *name;
	enum key_kind kind;
	bool per_cpu;
};

static const struct key_def keys[K_N] = {
	[K_CPUS] = { "cpus", KIND_CPUS, false },
	[K_TPC] = { "threads_per_core", KIND_TPC, false },
	[K_GHZ] = { "ghz", KIND_POSITIVE, true },
	[K_TSC_GHZ] = { "tsc_ghz", KIND_POSITIVE, true },
	[K_IPC] = { "ipc", KIND_RATE, true },
	[K_BUSY] = { "busy", KIND_FRACTION, true },
	[K_USER_FRACTION] = { "user_fraction", KIND_FRACTION, true },
	[K_LOADS] = { "loads_per_sec", KIND_RATE, true },
	[K_LOAD_LATENCY] = { "load_latency", KIND_DIST, true },
	[K_OFF_READS] = { "offcore_reads_per_sec", KIND_RATE, true },
	[K_OFF_LAT] = { "offcore_latency", KIND_LATENCY, true },
	[K_SNOOP] = { "snoop_hit_per_sec", KIND_RATE, true },
	[K_HITM] = { "hitm_per_sec", KIND_RATE, true },
	[K_TAGGED] = { "ldlat_tagged_fraction", KIND_PROB, true },
	[K_MODULE_HITM] = { "same_module_hitm_fraction", KIND_FRACTION, true },
	[K_L2_HIT] = { "l2_hit_per_sec", KIND_RATE, true },
	[K_PACKAGES] = { "packages", KIND_PACKAGES, false },
	[K_REMOTE_HIT] = { "remote_hit_per_sec", KIND_RATE, true },
	[K_REMOTE_HITM] = { "remote_hitm_per_sec", KIND_RATE, true },
	[K_TIME_SCALE] = { "time_scale", KIND_SCALE, false },
	[K_STEPPING] = { "stepping", KIND_STEPPING, false },
	[K_MODEL] = { "model", KIND_MODEL, false },
	[K_PARANOID] = { "perf_event_paranoid", KIND_PARANOID, false },
	[K_OTHER_EVENTS] = { "perf_other_events", KIND_OTHER, true },
	[K_WATCHDOG] = { "perf_nmi_watchdog", KIND_BOOL, true },
	[K_CORE_TYPES] = { "core_types", KIND_CORE_TYPES, false },
	[K_PMU_SWAP] = { "perf_pmu_swap", KIND_BOOL, true },
	[K_MAX_RATE] = { "perf_event_max_sample_rate", KIND_MAX_RATE, false },
	[K_FORMAT_LOST] = { "perf_format_lost", KIND_BOOL, false },
	[K_LINE] = { "line", KIND_LINE, false },
	[K_MSR] = { "msr.", KIND_MSR, true },
};

#define KEY_TEXT 64
#define VAL_SHOWN 40    /* a value quoted in an error is cut to this, then "..." */

struct entry {
	int cpu;                /* -1: all CPUs */
	int key;                /* enum key_id */
	uint32_t msr;
	int line;
	char text[KEY_TEXT];    /* the key as written */
	double num;
	uint64_t u;
	int nlat;
	double lat[SIM_MAX_LAT], frac[SIM_MAX_LAT];
	int line_at;            /* K_LINE: its index in the parser's lines */
};

struct parser {
	const char *name;
	char *err;
	size_t errlen;
	locale_t c_locale;
	struct entry *e;
	size_t n, cap;
	uint64_t *seen;         /* open-addressing set of entry signatures */
	int *seen_line;
	size_t seen_cap;
	struct sim_line *lines;
	int nlines;
	struct sim_core_run runs[SIM_MAX_CORE_RUNS];    /* K_CORE_TYPES */
	int nruns;
};

static int perr(struct parser *p, int line, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int perr(struct parser *p, int line, const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return -1;
	n = snprintf(p->err, p->errlen, "%s:%d: %s: ", p->name, line, key);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Defaults.  The tagging rate is not documented (facts §8.1): 1/64 is
 * arbitrary, and lattop must not depend on it.  The remote rates apply
 * only with packages >= 2 (resolve()), the module share only on the Atoms
 * (sim_new()).
 */
static const struct sim_params default_params = {
	.ghz = 2.4, .tsc_ghz = 2.4, .ipc = 1.2, .busy = 1.0, .user_fraction = 0.9,
	.loads_per_sec = 7e8,
	.nlat = 4, .lat = { 5, 20, 70, 300 }, .lat_frac = { 0.70, 0.20, 0.06, 0.04 },
	.offcore_reads_per_sec = 2e7, .offcore_latency = 200,
	.snoop_hit_per_sec = 1e6, .hitm_per_sec = 2.5e5,
	.ldlat_tagged_fraction = 1.0 / 64, .same_module_hitm_fraction = 0.25,
	.l2_hit_per_sec = 5e7,
};

#define DEFAULT_CPUS 8
#define DEFAULT_REMOTE_HIT  2e5         /* with packages >= 2 */
#define DEFAULT_REMOTE_HITM 1e5
#define SIM_MAX_PACKAGES 64

/* Refused above this: a profile is a page of text (fuzzing: no unbounded input). */
#define SIM_PROFILE_MAX (1u << 20)

static char *trim(char *s)
{
	char *end;

	while (*s && isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A finite number and nothing after it, in the C locale. */
static bool parse_double(struct parser *p, const char *s, double *out)
{
	char *end;
	double v;

	if (!*s)
		return false;
	errno = 0;
	v = strtod_l(s, &end, p->c_locale);
	if (end == s || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static bool parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (end == s || *end || errno)
		return false;
	*out = v;
	return true;
}

static int parse_dist(struct parser *p, struct entry *e, char *val)
{
	char *tok, *save = NULL;
	double sum = 0;

	e->nlat = 0;
	for (tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *colon = strchr(tok, ':');
		double l, f;

		if (e->nlat == SIM_MAX_LAT)
			return perr(p, e->line, e->text, "too many points (at most %d)", SIM_MAX_LAT);
		if (!colon)
			return perr(p, e->line, e->text, "bad point '%.*s%s' (want cycles:fraction)",
				    VAL_SHOWN, tok, strlen(tok) > VAL_SHOWN ? "..." : "");
		*colon = '\0';
		if (!parse_double(p, tok, &l) || !parse_double(p, colon + 1, &f)) {
			*colon = ':';
			return perr(p, e->line, e->text, "bad point '%.*s%s' (want cycles:fraction)",
				    VAL_SHOWN, tok, strlen(tok) > VAL_SHOWN ? "..." : "");
		}
		if (l < 1 || (e->nlat && l <= e->lat[e->nlat - 1]))
			return perr(p, e->line, e->text,
				    "latencies must be >= 1 and strictly increasing");
		if (f < 0 || f > 1)
			return perr(p, e->line, e->text, "fraction %g outside 0..1", f);
		e->lat[e->nlat] = l;
		e->frac[e->nlat] = f;
		e->nlat++;
		sum += f;
	}
	if (!e->nlat)
		return perr(p, e->line, e->text, "no cycles:fraction points");
	if (fabs(sum - 1) > 1e-6)
		return perr(p, e->line, e->text, "fractions sum to %g, not 1", sum);
	return 0;
}

/* One access, TID:w@OFFSET or TID:r@OFFSET. */
static bool parse_access(const char *tok, struct sim_line_access *a)
{
	char rw, end;
	int tid;
	unsigned off;

	if (sscanf(tok, "%d:%c@%u%c", &tid, &rw, &off, &end) != 3 || tid <= 0 ||
	    (rw != 'w' && rw != 'r') || off % 8 || off > 56)
		return false;
	a->tid = tid;
	a->write = rw == 'w';
	a->offset = off;
	return true;
}

/* line = ADDR COMM PID HITM_PER_SEC ACCESS... [remote=F] [ip=HEX] [exit=S] [start=S] [exe=PATH]
 * [node=N] */
static int parse_sim_line(struct parser *p, struct entry *e, char *val)
{
	struct sim_line l = { .pid = 0 }, *nl;
	char *tok, *save = NULL;
	int field = 0;
	uint64_t u;
	double v;

	for (tok = strtok_r(val, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), field++) {
		if (field == 0) {
			if (!parse_u64(tok, 0, &u) || !u || (u & 63))
				return perr(p, e->line, e->text, "bad address '%.*s' (want a 64-byte "
					    "aligned line, such as 0x7f3a00001040)", VAL_SHOWN, tok);
			l.addr = u;
		} else if (field == 1) {
			if (strlen(tok) >= sizeof(l.comm))
				return perr(p, e->line, e->text, "process name '%.*s' longer than 15 "
					    "characters", VAL_SHOWN, tok);
			strcpy(l.comm, tok);
		} else if (field == 2) {
			if (!parse_u64(tok, 10, &u) || !u || u > 4194304)
				return perr(p, e->line, e->text, "bad pid '%.*s'", VAL_SHOWN, tok);
			l.pid = (int)u;
		} else if (field == 3) {
			if (!parse_double(p, tok, &v) || v < 0)
				return perr(p, e->line, e->text, "bad HITM rate '%.*s'", VAL_SHOWN, tok);
			l.hitm_per_sec = v;
		} else if (!strncmp(tok, "remote=", 7)) {
			if (!parse_double(p, tok + 7, &v) || v < 0 || v > 1)
				return perr(p, e->line, e->text, "remote= wants a share 0..1");
			l.remote = v;
		} else if (!strncmp(tok, "ip=", 3)) {
			if (!parse_u64(tok + 3, 16, &u))
				return perr(p, e->line, e->text, "ip= wants a hexadecimal address");
			l.ip = u;
		} else if (!strncmp(tok, "exit=", 5)) {
			if (!parse_double(p, tok + 5, &v) || !(v > 0))
				return perr(p, e->line, e->text, "exit= wants seconds above 0");
			l.exit_s = v;
		} else if (!strncmp(tok, "start=", 6)) {
			if (!parse_double(p, tok + 6, &v) || !(v > 0))
				return perr(p, e->line, e->text, "start= wants seconds above 0");
			l.start_s = v;
		} else if (!strcmp(tok, "node=none")) {
			l.node = -1;
		} else if (!strncmp(tok, "node=", 5)) {
			if (!parse_u64(tok + 5, 10, &u) || u >= SIM_MAX_PACKAGES)
				return perr(p, e->line, e->text, "node= wants a NUMA node 0..%d, or none",
					    SIM_MAX_PACKAGES - 1);
			l.node = (int)u;
		} else if (!strncmp(tok, "exe=", 4)) {
			if (tok[4] != '/' || strlen(tok + 4) >= sizeof(l.exe))
				return perr(p, e->line, e->text, "exe= wants an absolute path under %zu "
					    "characters", sizeof(l.exe));
			strcpy(l.exe, tok + 4);
		} else {
			if (l.nacc == SIM_LINE_ACCESSES)
				return perr(p, e->line, e->text, "more than %d accesses", SIM_LINE_ACCESSES);
			if (!parse_access(tok, &l.acc[l.nacc]))
				return perr(p, e->line, e->text, "bad access '%.*s' (want TID:w@OFFSET or "
					    "TID:r@OFFSET, OFFSET 0, 8, ..., 56)", VAL_SHOWN, tok);
			l.nacc++;
		}
	}
	if (field < 4 || !l.nacc)
		return perr(p, e->line, e->text, "want ADDR COMM PID HITM_PER_SEC ACCESS...");
	if (l.exit_s > 0 && l.start_s >= l.exit_s)
		return perr(p, e->line, e->text, "start= must come before exit=");
	if (p->nlines == SIM_MAX_LINES)
		return perr(p, e->line, e->text, "more than %d lines", SIM_MAX_LINES);
	nl = realloc(p->lines, sizeof(*nl) * (size_t)(p->nlines + 1));
	if (!nl)
		return perr(p, e->line, e->text, "out of memory");
	p->lines = nl;
	e->line_at = p->nlines;
	/* repeatable: each line its own signature for the duplicate check */
	e->msr = (uint32_t)p->nlines;
	p->lines[p->nlines++] = l;
	return 0;
}

/*
 * core_types: runs of CPUs of one core type, T:N[,T:N]..., laid out in the
 * order written; a type may come back (the 265K's CPUs 0-7 are P:2,E:4,P:2).
 * The key is not per-CPU and not repeatable, so its runs are the parser's.
 */
static int parse_core_types(struct parser *p, struct entry *e, char *val)
{
	char *tok, *next;
	int total = 0;

	p->nruns = 0;
	for (tok = val; tok; tok = next) {
		char *t, *n;
		uint64_t v;

		/* strtok_r would pass over an empty run, "P:2,,E:2" */
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		t = trim(tok);
		n = t[0] && t[1] == ':' ? trim(t + 2) : NULL;

		if (!n || !strchr("PEL", t[0]) || !parse_u64(n, 10, &v) || v > SIM_MAX_CPUS)
			return perr(p, e->line, e->text, "bad run '%.*s%s' (want P:N, E:N or L:N: N "
				    "CPUs of that core type, N 0..%d)", VAL_SHOWN, t,
				    strlen(t) > VAL_SHOWN ? "..." : "", SIM_MAX_CPUS);
		if (p->nruns == SIM_MAX_CORE_RUNS)
			return perr(p, e->line, e->text, "more than %d runs", SIM_MAX_CORE_RUNS);
		total += (int)v;
		if (total > SIM_MAX_CPUS)
			return perr(p, e->line, e->text, "more than %d CPUs in all", SIM_MAX_CPUS);
		p->runs[p->nruns].type = t[0];
		p->runs[p->nruns++].n = (int)v;
	}
	if (!total)
		return perr(p, e->line, e->text, "no CPUs (want runs of P:N, E:N or L:N, "
			    "as P:8,E:8 or P:2,E:4,P:2)");
	return 0;
}

static int parse_value(struct parser *p, struct entry *e, char *val)
{
	const struct key_def *k = &keys[e->key];
	double v;

	if (k->kind == KIND_LINE)
		return parse_sim_line(p, e, val);

	if (k->kind == KIND_DIST)
		return parse_dist(p, e, val);
	if (k->kind == KIND_CORE_TYPES)
		return parse_core_types(p, e, val);
	if (k->kind == KIND_MSR) {
		if (!parse_u64(val, 0, &e->u))
			return perr(p, e->line, e->text, "bad number '%.*s%s'", VAL_SHOWN, val,
				    strlen(val) > VAL_SHOWN ? "..." : "");
		return 0;
	}
	if (!parse_double(p, val, &v))
		return perr(p, e->line, e->text, "bad number '%.*s%s'", VAL_SHOWN, val,
			    strlen(val) > VAL_SHOWN ? "..." : "");
	e->num = v;
	switch (k->kind) {
	case KIND_CPUS:
		if (v != floor(v) || v < 1 || v > SIM_MAX_CPUS)
			return perr(p, e->line, e->text, "must be an integer 1..%d", SIM_MAX_CPUS);
		break;
	case KIND_TPC:
		if (v != 1 && v != 2)
			return perr(p, e->line, e->text, "must be 1 or 2");
		break;
	case KIND_POSITIVE:
		if (v < 0)
			return perr(p, e->line, e->text, "negative rate %g", v);
		if (v == 0)
			return perr(p, e->line, e->text, "must be positive");
		break;
	case KIND_RATE:
		if (v < 0)
			return perr(p, e->line, e->text, "negative rate %g", v);
		break;
	case KIND_LATENCY:
		if (v < 0)
			return perr(p, e->line, e->text, "negative latency %g", v);
		break;
	case KIND_SCALE:
		if (!(v > 0) || v > SIM_MAX_TIME_SCALE)
			return perr(p, e->line, e->text, "must be above 0 and at most %g", SIM_MAX_TIME_SCALE);
		break;
	case KIND_FRACTION:
		if (v < 0 || v > 1)
			return perr(p, e->line, e->text, "fraction %g outside 0..1", v);
		break;
	case KIND_PROB:
		if (!(v > 0) || v > 1)
			return perr(p, e->line, e->text, "fraction %g outside 0 < f <= 1", v);
		break;
	case KIND_PACKAGES:
		if (v != floor(v) || v < 1 || v > SIM_MAX_PACKAGES)
			return perr(p, e->line, e->text, "must be an integer 1..%d", SIM_MAX_PACKAGES);
		break;
	case KIND_STEPPING:
		if (v != floor(v) || v < 0 || v > 15)
			return perr(p, e->line, e->text, "must be an integer 0..15");
		break;
	case KIND_MODEL:
		if (v != floor(v) || v < 1 || v > 255)
			return perr(p, e->line, e->text, "must be a display model 1..255 (0xC6)");
		break;
	case KIND_PARANOID:
		if (v != floor(v) || v < -1 || v > 4)
			return perr(p, e->line, e->text, "must be an integer -1..4");
		break;
	case KIND_OTHER:
		if (v != floor(v) || v < 0 || v > SIM_MAX_OTHER_EVENTS)
			return perr(p, e->line, e->text, "must be an integer 0..%d",
				    SIM_MAX_OTHER_EVENTS);
		break;
	case KIND_BOOL:
		if (v != 0 && v != 1)
			return perr(p, e->line, e->text, "must be 0 or 1");
		break;
	case KIND_MAX_RATE:
		if (v != floor(v) || v < 1 || v > 1e7)
			return perr(p, e->line, e->text, "must be an integer 1..10000000");
		break;
	default:
		break;
	}
	return 0;
}

/* Split "cpuN.name" / "name" and find the key; -1 after reporting. */
static int parse_key(struct parser *p, struct entry *e, const char *key)
{
	const char *name = key;
	int i;

	e->cpu = -1;
	if (!strncmp(key, "cpu", 3) && isdigit((unsigned char)key[3])) {
		const char *s = key + 3;
		long n = 0;

		while (isdigit((unsigned char)*s)) {
			if (n < 1000000)
				n = n * 10 + (*s - '0');
			s++;
		}
		if (*s == '.') {
			/* The number as written may be past n's cap: refuse it here. */
			if (n >= SIM_MAX_CPUS)
				return perr(p, e->line, e->text, "cpu number out of range (cpus is at most %d)",
					    SIM_MAX_CPUS);
			e->cpu = (int)n;
			name = s + 1;
		}
	}
	for (i = 0; i < K_N; i++) {
		if (i == K_MSR)
			continue;
		if (!strcmp(name, keys[i].name))
			break;
	}
	if (i == K_N && !strncmp(name, "msr.", 4)) {
		uint64_t a;

		if (strncmp(name + 4, "0x", 2) && strncmp(name + 4, "0X", 2))
			return perr(p, e->line, e->text, "bad MSR address (want msr.0xADDR)");
		if (!parse_u64(name + 4, 16, &a) || a > 0xffffffffULL)
			return perr(p, e->line, e->text, "bad MSR address (want msr.0xADDR)");
		e->msr = (uint32_t)a;
		i = K_MSR;
	}
	if (i == K_N)
		return perr(p, e->line, e->text, "unknown key");
	if (e->cpu >= 0 && !keys[i].per_cpu)
		return perr(p, e->line, e->text, "not a per-CPU key");
	e->key = i;
	return 0;
}

static uint64_t entry_sig(const struct entry *e)
{
	return ((uint64_t)(e->cpu + 1) << 40) | ((uint64_t)e->key << 32) | e->msr;
}

static size_t sig_hash(uint64_t s, size_t cap)
{
	s ^= s >> 29;
	s *= 0xbf58476d1ce4e5b9ULL;
	s ^= s >> 32;
	return (size_t)s & (cap - 1);
}

/* 0, or the line of an earlier entry with the same key; -1 out of memory. */
static int seen_insert(struct parser *p, const struct entry *e)
{
	uint64_t sig = entry_sig(e) + 1;        /* 0 marks an empty slot */
	size_t i;

	if ((p->n + 1) * 2 > p->seen_cap) {
		size_t cap = p->seen_cap ? p->seen_cap * 2 : 64, j;
		uint64_t *s = calloc(cap, sizeof(*s));
		int *l = calloc(cap, sizeof(*l));

		if (!s || !l) {
			free(s);
			free(l);
			return -1;
		}
		for (j = 0; j < p->seen_cap; j++) {
			size_t k;

			if (!p->seen[j])
				continue;
			for (k = sig_hash(p->seen[j], cap); s[k]; k = (k + 1) & (cap - 1))
				;
			s[k] = p->seen[j];
			l[k] = p->seen_line[j];
		}
		free(p->seen);
		free(p->seen_line);
		p->seen = s;
		p->seen_line = l;
		p->seen_cap = cap;
	}
	for (i = sig_hash(sig, p->seen_cap); p->seen[i]; i = (i + 1) & (p->seen_cap - 1))
		if (p->seen[i] == sig)
			return p->seen_line[i];
	p->seen[i] = sig;
	p->seen_line[i] = e->line;
	return 0;
}

static int parse_line(struct parser *p, char *s, int line)
{
	struct entry e;
	char *eq, *key, *val, *hash;
	int first;

	hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	s = trim(s);
	if (!*s)
		return 0;
	memset(&e, 0, sizeof(e));
	e.line = line;
	eq = strchr(s, '=');
	if (!eq) {
		snprintf(e.text, sizeof(e.text), "%s", s);
		return perr(p, line, e.text, "expected 'key = value'");
	}
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	snprintf(e.text, sizeof(e.text), "%s", key);
	if (!*key)
		return perr(p, line, "(none)", "expected 'key = value'");
	if (parse_key(p, &e, key) || parse_value(p, &e, val))
		return -1;
	first = seen_insert(p, &e);
	if (first < 0)
		return perr(p, line, e.text, "out of memory");
	if (first)
		return perr(p, line, e.text, "duplicate key (first on line %d)", first);
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct entry *ne = realloc(p->e, cap * sizeof(*ne));

		if (!ne)
			return perr(p, line, e.text, "out of memory");
		p->e = ne;
		p->cap = cap;
	}
	p->e[p->n++] = e;
	return 0;
}

static void apply(struct sim_params *prm, const struct entry *e)
{
	switch (e->key) {
	case K_GHZ: prm->ghz = e->num; break;
	case K_TSC_GHZ: prm->tsc_ghz = e->num; break;
	case K_IPC: prm->ipc = e->num; break;
	case K_BUSY: prm->busy = e->num; break;
	case K_USER_FRACTION: prm->user_fraction = e->num; break;
	case K_LOADS: prm->loads_per_sec = e->num; break;
	case K_LOAD_LATENCY:
		prm->nlat = e->nlat;
		memcpy(prm->lat, e->lat, sizeof(prm->lat));
		memcpy(prm->lat_frac, e->frac, sizeof(prm->lat_frac));
		break;
	case K_OFF_READS: prm->offcore_reads_per_sec = e->num; break;
	case K_OFF_LAT: prm->offcore_latency = e->num; break;
	case K_SNOOP: prm->snoop_hit_per_sec = e->num; break;
	case K_HITM: prm->hitm_per_sec = e->num; break;
	case K_TAGGED: prm->ldlat_tagged_fraction = e->num; break;
	case K_MODULE_HITM: prm->same_module_hitm_fraction = e->num; break;
	case K_L2_HIT: prm->l2_hit_per_sec = e->num; break;
	case K_REMOTE_HIT: prm->remote_hit_per_sec = e->num; break;
	case K_REMOTE_HITM: prm->remote_hitm_per_sec = e->num; break;
	case K_OTHER_EVENTS: prm->perf_other_events = (int)e->num; break;
	case K_WATCHDOG: prm->perf_nmi_watchdog = e->num != 0; break;
	case K_PMU_SWAP: prm->perf_pmu_swap = e->num != 0; break;
	default: break;
	}
}

/*
 * Reads leaving the L2 on @cpu that the profile says were served by
 * another core or package: they must fit in offcore_reads_per_sec.  The
 * module partner's share of HITM is served by the L2 and not counted.
 */
static double served_elsewhere(const struct sim_params *prm, double f)
{
	return prm->snoop_hit_per_sec + prm->hitm_per_sec * (1 - f) +
	       prm->remote_hit_per_sec + prm->remote_hitm_per_sec;
}

/*
 * The module share of HITM counts only where a profile sets it (the
 * Atoms): its default does not apply to the other families (sim_new()).
 */
static double module_share(const struct parser *p, const struct sim_params *prm, int cpu)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].key == K_MODULE_HITM && (p->e[i].cpu == -1 || p->e[i].cpu == cpu))
			return prm->same_module_hitm_fraction;
	return 0;
}

/* Report served_elsewhere() > offcore_reads on @cpu at the last line that set one of them. */
static int snoop_error(struct parser *p, const struct sim_params *prm, int cpu)
{
	const struct entry *last = NULL;
	double f = module_share(p, prm, cpu);
	bool remote = prm->remote_hit_per_sec > 0 || prm->remote_hitm_per_sec > 0;
	bool own[K_N] = { false };
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->e[i].cpu == cpu)
			own[p->e[i].key] = true;
	for (i = 0; i < p->n; i++) {
		const struct entry *e = &p->e[i];

		if (e->key != K_SNOOP && e->key != K_HITM && e->key != K_OFF_READS &&
		    e->key != K_MODULE_HITM && e->key != K_REMOTE_HIT && e->key != K_REMOTE_HITM)
			continue;
		if (e->cpu != cpu && (e->cpu != -1 || own[e->key]))
			continue;
		if (!last || e->line > last->line)
			last = e;
	}
	return perr(p, last ? last->line : 0, last ? last->text : "snoop_hit_per_sec",
		    "snoop_hit_per_sec + hitm_per_sec%s%s = %g exceed offcore_reads_per_sec = %g "
		    "on cpu %d", f > 0 ? " x (1 - same_module_hitm_fraction)" : "",
		    remote ? " + remote_hit_per_sec + remote_hitm_per_sec" : "",
		    served_elsewhere(prm, f), prm->offcore_reads_per_sec, cpu);
}

static int add_preset(struct sim_profile *prof, const struct entry *e)
{
	prof->presets[prof->npresets].cpu = e->cpu;
	prof->presets[prof->npresets].msr = e->msr;
	prof->presets[prof->npresets].value = e->u;
	prof->npresets++;
	return 0;
}

static struct sim_profile *resolve(struct parser *p)
{
	struct sim_profile *prof;
	struct sim_params base = default_params;
	const struct entry *cpus_e = NULL, *tpc_e = NULL, *pkg_e = NULL, *ct_e = NULL;
	bool tsc_set = false;
	int prof_line_module = 0;
	size_t i, npre = 0;
	int c;

	for (i = 0; i < p->n; i++) {
		if (p->e[i].key == K_CPUS)
			cpus_e = &p->e[i];
		if (p->e[i].key == K_TPC)
			tpc_e = &p->e[i];
		if (p->e[i].key == K_PACKAGES)
			pkg_e = &p->e[i];
		if (p->e[i].key == K_CORE_TYPES)
			ct_e = &p->e[i];
		if (p->e[i].key == K_MODULE_HITM && !prof_line_module)
			prof_line_module = p->e[i].line;
		if (p->e[i].key == K_MSR)
			npre++;
	}
	prof = calloc(1, sizeof(*prof));
	if (!prof) {
		perr(p, 0, "profile", "out of memory");
		return NULL;
	}
	snprintf(prof->name, sizeof(prof->name), "%s", p->name);
	prof->cpus = cpus_e ? (int)cpus_e->num : DEFAULT_CPUS;
	prof->threads_per_core = tpc_e ? (int)tpc_e->num : 0;
	prof->line_tpc = tpc_e ? tpc_e->line : 0;
	prof->line_cpus = cpus_e ? cpus_e->line : 0;
	prof->packages = pkg_e ? (int)pkg_e->num : 1;
	prof->line_packages = pkg_e ? pkg_e->line : 0;
	prof->line_module_hitm = prof_line_module;
	if (ct_e) {
		int n = 0, r;

		memcpy(prof->core_runs, p->runs, sizeof(p->runs));
		prof->ncore_runs = p->nruns;
		prof->line_core_types = ct_e->line;
		for (r = 0; r < p->nruns; r++)
			n += p->runs[r].n;
		if (!cpus_e)
			prof->cpus = n;
		if (n != prof->cpus) {
			char runs[VAL_SHOWN + 8];
			size_t at = 0;

			/* the runs as written, cut as a quoted value is */
			for (r = 0; r < p->nruns && at < sizeof(runs); r++)
				at += (size_t)snprintf(runs + at, sizeof(runs) - at, "%s%c:%d",
						       r ? "," : "", p->runs[r].type, p->runs[r].n);
			if (at > VAL_SHOWN)
				strcpy(runs + VAL_SHOWN, "...");
			perr(p, ct_e->line, ct_e->text, "%s is %d CPUs, but cpus = %d", runs, n,
			     prof->cpus);
			goto fail;
		}
	}
	if (prof->packages > 1) {
		base.remote_hit_per_sec = DEFAULT_REMOTE_HIT;
		base.remote_hitm_per_sec = DEFAULT_REMOTE_HITM;
	}
	for (i = 0; i < p->n && prof->packages < 2; i++) {
		const struct entry *e = &p->e[i];

		if ((e->key == K_REMOTE_HIT || e->key == K_REMOTE_HITM) && e->num > 0) {
			perr(p, e->line, e->text, "remote traffic needs packages >= 2");
			goto fail;
		}
	}
	prof->max_sample_rate = SIM_DEFAULT_MAX_SAMPLE_RATE;
	prof->no_format_lost = false;
	for (i = 0; i < p->n; i++) {
		const struct entry *e = &p->e[i];

		if (e->key == K_MAX_RATE)
			prof->max_sample_rate = (int)e->num;
		if (e->key == K_FORMAT_LOST)
			prof->no_format_lost = e->num == 0;
		if (e->key == K_LINE && p->lines[e->line_at].remote > 0 && prof->packages < 2) {
			perr(p, e->line, e->text, "remote= needs packages >= 2");
			goto fail;
		}
		if (e->key == K_LINE && p->lines[e->line_at].node >= (prof->packages > 1 ?
									prof->packages : 1)) {
			perr(p, e->line, e->text, "node= names a node beyond the packages (a node each)");
			goto fail;
		}
	}
	if (p->nlines) {
		prof->lines = malloc(sizeof(*prof->lines) * (size_t)p->nlines);
		if (!prof->lines) {
			perr(p, 0, "profile", "out of memory");
			goto fail;
		}
		memcpy(prof->lines, p->lines, sizeof(*prof->lines) * (size_t)p->nlines);
		prof->nlines = p->nlines;
	}
	prof->time_scale = 1;
	prof->stepping = -1;
	prof->model = -1;
	prof->perf_event_paranoid = SIM_DEFAULT_PARANOID;
	for (i = 0; i < p->n; i++) {
		if (p->e[i].key == K_TIME_SCALE)
			prof->time_scale = p->e[i].num;
		if (p->e[i].key == K_PARANOID)
			prof->perf_event_paranoid = (int)p->e[i].num;
		if (p->e[i].key == K_STEPPING)
			prof->stepping = (int)p->e[i].num;
		if (p->e[i].key == K_MODEL) {
			prof->model = (int)p->e[i].num;
			prof->line_model = p->e[i].line;
		}
	}
	for (i = 0; i < p->n; i++) {
		if (p->e[i].cpu >= prof->cpus) {
			perr(p, p->e[i].line, p->e[i].text, "cpu %d out of range (cpus = %d)",
			     p->e[i].cpu, prof->cpus);
			goto fail;
		}
	}
	if (prof->threads_per_core && prof->cpus % prof->threads_per_core) {
		const struct entry *e = cpus_e ? cpus_e : tpc_e;

		perr(p, e->line, e->text, "cpus = %d is not a multiple of threads_per_core = %d",
		     prof->cpus, prof->threads_per_core);
		goto fail;
	}
	prof->cpu = calloc((size_t)prof->cpus, sizeof(*prof->cpu));
	prof->presets = calloc(npre ? npre : 1, sizeof(*prof->presets));
	if (!prof->cpu || !prof->presets) {
		perr(p, 0, "profile", "out of memory");
		goto fail;
	}
	for (i = 0; i < p->n; i++) {
		if (p->e[i].cpu != -1)
			continue;
		apply(&base, &p->e[i]);
		tsc_set |= p->e[i].key == K_TSC_GHZ;
		if (p->e[i].key == K_MSR)
			add_preset(prof, &p->e[i]);
	}
	if (!tsc_set)
		base.tsc_ghz = base.ghz;        /* the TSC is invariant: per-CPU ghz leaves it */
	for (c = 0; c < prof->cpus; c++)
		prof->cpu[c] = base;
	for (i = 0; i < p->n; i++) {
		if (p->e[i].cpu == -1)
			continue;
		apply(&prof->cpu[p->e[i].cpu], &p->e[i]);
		if (p->e[i].key == K_MSR)
			add_preset(prof, &p->e[i]);
	}
	for (c = 0; c < prof->cpus; c++) {
		const struct sim_params *prm = &prof->cpu[c];

		/* Tolerate rounding: 0.1 + 0.2 is not above 0.3. */
		if (served_elsewhere(prm, module_share(p, prm, c)) >
		    prm->offcore_reads_per_sec * (1 + 1e-12)) {
			snoop_error(p, prm, c);
			goto fail;
		}
	}
	return prof;
fail:
	sim_profile_free(prof);
	return NULL;
}

struct sim_profile *sim_profile_parse(const char *text, size_t len, const char *name,
				      char *err, size_t errlen)
{
	struct parser p = { .name = name ? name : "profile", .err = err, .errlen = errlen };
	struct sim_profile *prof = NULL;
	size_t pos = 0, i;
	char *buf = NULL;
	int line = 0;

	if (err && errlen)
		err[0] = '\0';
	if (len > SIM_PROFILE_MAX) {
		/* also keeps malloc(len + 1) below from wrapping */
		if (err && errlen)
			snprintf(err, errlen, "%s: larger than 1 MiB, too big for a profile", p.name);
		return NULL;
	}
	p.c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!p.c_locale) {
		perr(&p, 0, "profile", "cannot create the C locale");
		return NULL;
	}
	buf = malloc(len + 1);
	if (!buf) {
		perr(&p, 0, "profile", "out of memory");
		goto out;
	}
	/* A UTF-8 byte-order mark, as some editors write, is not part of the first key. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len) {
		size_t end = pos, n;

		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		line++;
		if (memchr(text + pos, '\0', n)) {
			perr(&p, line, "(line)", "NUL byte in the line");
			goto out;
		}
		/* Other control characters (but tabs and a CRLF's CR): binary junk, never echoed. */
		for (i = 0; i < n; i++) {
			unsigned char ch = (unsigned char)buf[i];

			if ((ch < 0x20 && ch != '\t' && (ch != '\r' || i + 1 < n)) || ch == 0x7f) {
				perr(&p, line, "(line)", "control character 0x%02x: binary data, not a profile",
				     ch);
				goto out;
			}
		}
		if (parse_line(&p, buf, line))
			goto out;
		pos = end + 1;
	}
	prof = resolve(&p);
out:
	free(buf);
	free(p.e);
	free(p.seen);
	free(p.seen_line);
	free(p.lines);
	freelocale(p.c_locale);
	return prof;
}

struct sim_profile *sim_profile_load(const char *path, char *err, size_t errlen)
{
	struct sim_profile *prof;
	char *text = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	FILE *f;

	/* File errors read as every other file's: "PATH: what is wrong". */
	f = fopen(path, "r");
	if (!f) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		fclose(f);
		return NULL;
	}
	for (;;) {
		size_t got;

		if (len == cap) {
			char *t;

			cap = cap ? cap * 2 : 4096;
			t = realloc(text, cap);
			if (!t) {
				free(text);
				fclose(f);
				if (err && errlen)
					snprintf(err, errlen, "%s: out of memory", path);
				return NULL;
			}
			text = t;
		}
		got = fread(text + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
		if (len > SIM_PROFILE_MAX)
			break;          /* sim_profile_parse() refuses it: read no more */
	}
	if (ferror(f)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	prof = sim_profile_parse(text ? text : "", len, path, err, errlen);
	free(text);
	return prof;
}

/*
 * The builtin profile: eight CPUs with a few differences, busy, loads and
 * offcore traffic following slow sinusoids (periods 23, 17 and 31 s, a
 * different phase on each CPU), and a HITM burst on cpu 3 for 4 s every
 * 20 s (8..12 s into each period).
 */
static const char builtin_text[] =
	"cpus = 8\n"
	"ghz = 2.4\n"
	"ipc = 1.2\n"
	"busy = 0.7\n"
	"user_fraction = 0.9\n"
	"loads_per_sec = 5e8\n"
	"load_latency = 4:0.62 12:0.22 40:0.09 120:0.05 400:0.02\n"
	"offcore_reads_per_sec = 1.5e7\n"
	"offcore_latency = 190\n"
	"snoop_hit_per_sec = 1.2e6\n"
	"hitm_per_sec = 2e5\n"
	"cpu1.ipc = 0.8\n"
	"cpu2.busy = 0.3\n"
	"cpu5.offcore_reads_per_sec = 4e7\n"
	"cpu5.offcore_latency = 260\n"
	"cpu6.snoop_hit_per_sec = 5e6\n"
	"cpu7.loads_per_sec = 9e8\n";

struct sim_profile *sim_profile_builtin(void)
{
	struct sim_profile *prof;

	prof = sim_profile_parse(builtin_text, sizeof(builtin_text) - 1, "builtin", NULL, 0);
	if (!prof)
		return NULL;
	prof->vary = (struct sim_vary){
		.on = true,
		.cpu_phase = 0.9,
		.busy = { 0.25, 23, 0 },
		.loads = { 0.5, 17, 1 },
		.offcore = { 0.6, 31, 2 },
		.burst_cpu = 3, .burst_period = 20, .burst_start = 8, .burst_len = 4,
		.burst_hitm_per_sec = 6e6,
	};
	return prof;
}

void sim_profile_free(struct sim_profile *prof)
{
	if (!prof)
		return;
	free(prof->cpu);
	free(prof->presets);
	free(prof->lines);
	free(prof);
}

struct sim_profile *sim_profile_copy(const struct sim_profile *src)
{
	struct sim_profile *prof = calloc(1, sizeof(*prof));

	if (!prof)
		return NULL;
	*prof = *src;
	prof->cpu = calloc((size_t)src->cpus, sizeof(*prof->cpu));
	prof->presets = calloc(src->npresets ? src->npresets : 1, sizeof(*prof->presets));
	prof->lines = calloc(src->nlines ? (size_t)src->nlines : 1, sizeof(*prof->lines));
	if (!prof->cpu || !prof->presets || !prof->lines) {
		sim_profile_free(prof);
		return NULL;
	}
	if (src->nlines)
		memcpy(prof->lines, src->lines, (size_t)src->nlines * sizeof(*prof->lines));
	memcpy(prof->cpu, src->cpu, (size_t)src->cpus * sizeof(*prof->cpu));
	if (src->npresets)
		memcpy(prof->presets, src->presets, src->npresets * sizeof(*prof->presets));
	return prof;
}

/* Integral over [t0, t1] of 1 + amp * sin(2 pi t / period + phase). */
static double wave_integral(const struct sim_wave *w, double phase, double t0, double t1)
{
	double k;

	if (w->amp == 0 || w->period <= 0)
		return t1 - t0;
	k = 2 * M_PI / w->period;
	phase += w->phase;
	return (t1 - t0) + w->amp / k * (cos(k * t0 + phase) - cos(k * t1 + phase));
}

/* Time in [0, t] spent inside the burst windows. */
static double burst_time(const struct sim_vary *v, double t)
{
	double n, in;

	if (t <= 0 || v->burst_period <= 0)
		return 0;
	n = floor(t / v->burst_period);
	in = t - n * v->burst_period - v->burst_start;
	if (in < 0)
		in = 0;
	if (in > v->burst_len)
		in = v->burst_len;
	return n * v->burst_len + in;
}

void sim_profile_traffic(const struct sim_profile *prof, int cpu, double t0, double t1,
			 double out[SIM_T_N])
{
	const struct sim_params *prm = &prof->cpu[cpu];
	const struct sim_vary *v = &prof->vary;
	double dt = t1 - t0, busy_t = dt, loads_t = dt, off_t = dt, burst = 0;
	double cyc, rd, hitm, hitm_mod, rest, f;

	if (dt <= 0)
		return;
	if (v->on) {
		double ph = v->cpu_phase * cpu;

		busy_t = wave_integral(&v->busy, ph, t0, t1);
		loads_t = wave_integral(&v->loads, ph, t0, t1);
		off_t = wave_integral(&v->offcore, ph, t0, t1);
		if (cpu == v->burst_cpu)
			burst = burst_time(v, t1) - burst_time(v, t0);
	}
	cyc = prm->ghz * 1e9 * prm->busy * busy_t;
	/*
	 * HITM: a share f comes from the module partner (Atom): its reads are
	 * served by the shared L2, not offcore.  The burst is false sharing
	 * with other cores: all of it leaves the L2.
	 */
	f = prm->same_module_hitm_fraction;
	hitm_mod = prm->hitm_per_sec * f * off_t;
	hitm = prm->hitm_per_sec * (1 - f) * off_t + v->burst_hitm_per_sec * burst;
	rd = prm->offcore_reads_per_sec * off_t + v->burst_hitm_per_sec * burst;
	out[SIM_T_TSC] += prm->tsc_ghz * 1e9 * dt;
	out[SIM_T_CYC] += cyc;
	out[SIM_T_REF] += prm->tsc_ghz * 1e9 * prm->busy * busy_t;
	out[SIM_T_INST] += prm->ipc * cyc;
	out[SIM_T_LOADS] += prm->loads_per_sec * loads_t;
	out[SIM_T_RD] += rd;
	out[SIM_T_CLEAN] += prm->snoop_hit_per_sec * off_t;
	out[SIM_T_HITM] += hitm;
	out[SIM_T_HITM_MOD] += hitm_mod;
	out[SIM_T_RHIT] += prm->remote_hit_per_sec * off_t;
	out[SIM_T_RHITM] += prm->remote_hitm_per_sec * off_t;
	out[SIM_T_L2HIT] += prm->l2_hit_per_sec * off_t + hitm_mod;
	rest = prm->offcore_reads_per_sec - prm->snoop_hit_per_sec -
	       prm->hitm_per_sec * (1 - f) - prm->remote_hit_per_sec - prm->remote_hitm_per_sec;
	out[SIM_T_REST] += (rest > 0 ? rest : 0) * off_t;
	out[SIM_T_OUTST] += rd * prm->offcore_latency;
}

double sim_profile_above(const struct sim_profile *prof, int cpu, double threshold)
{
	const struct sim_params *prm = &prof->cpu[cpu];
	double f = 0;
	int i;

	for (i = 0; i < prm->nlat; i++)
		if (prm->lat[i] > threshold)
			f += prm->lat_frac[i];
	return f;
}
