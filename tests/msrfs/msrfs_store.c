/*
 * msrfs_store.c: the register-store backend of msrfs, registers read from a
 * file and kept in memory.
 *
 * Owns: the store file format and the address semantics of the counters
 * (legacy IA32_PMCx writes sign-extend bit 31, IA32_A_PMCx are full-width
 * aliases of the same storage; SDM Vol.3B 18.2.5 and 18.9.3, pmu-facts.md
 * section 2).  Knows nothing of FUSE, faults or the log (msrfs.c).
 *
 * File format, one register a line, `#` starts a comment:
 *	CPU REG VALUE [ro]
 * CPU is a decimal number or `*` (every CPU), REG and VALUE are hex with an
 * optional 0x.  Later lines override earlier ones.  Only listed registers
 * exist; `ro` ones refuse writes with EIO.  IA32_A_PMCx (0x4c1..0x4c8) exist
 * only with --fw-write and only where IA32_PMCx is listed; they cannot be
 * listed themselves.  Counter values are kept masked to --width bits.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/msrfs/msrfs.h"

#define PMC0    0x0c1u
#define A_PMC0  0x4c1u
#define NPMC    8u

struct store_reg {
	uint32_t reg;
	uint64_t val;
	bool ro;
};

struct store_cpu {
	struct store_reg *r;    /* sorted by address */
	int n, cap;
};

struct store {
	int ncpus;
	int ncores;             /* ncpus / threads per core */
	bool fw_write;
	uint64_t mask;          /* counter width */
	struct store_cpu *cpu;
};

static bool store_is_pmc(uint32_t reg)
{
	return reg >= PMC0 && reg < PMC0 + NPMC;
}

static bool store_is_a_pmc(uint32_t reg)
{
	return reg >= A_PMC0 && reg < A_PMC0 + NPMC;
}

static struct store_reg *store_find(struct store *s, int cpu, uint32_t reg)
{
	struct store_cpu *c = &s->cpu[cpu];
	int lo = 0, hi = c->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (c->r[mid].reg == reg)
			return &c->r[mid];
		if (c->r[mid].reg < reg)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* Insert or replace @reg of @cpu, keeping the array sorted. */
static int store_put(struct store *s, int cpu, uint32_t reg, uint64_t val, bool ro)
{
	struct store_cpu *c = &s->cpu[cpu];
	struct store_reg *r = store_find(s, cpu, reg);
	int i;

	if (store_is_pmc(reg))
		val &= s->mask;
	if (r) {
		r->val = val;
		r->ro = ro;
		return 0;
	}
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 32;
		struct store_reg *nr = realloc(c->r, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		c->r = nr;
		c->cap = cap;
	}
	for (i = c->n; i > 0 && c->r[i - 1].reg > reg; i--)
		c->r[i] = c->r[i - 1];
	c->r[i] = (struct store_reg){ .reg = reg, .val = val, .ro = ro };
	c->n++;
	return 0;
}

/* The storage behind @reg: an IA32_A_PMCx resolves to its IA32_PMCx. */
static struct store_reg *store_resolve(struct store *s, int cpu, uint32_t reg)
{
	if (cpu < 0 || cpu >= s->ncpus)
		return NULL;
	if (store_is_a_pmc(reg)) {
		if (!s->fw_write)
			return NULL;
		reg = reg - A_PMC0 + PMC0;
	}
	return store_find(s, cpu, reg);
}

static int store_read(void *priv, int cpu, uint32_t reg, uint64_t *val)
{
	struct store_reg *r = store_resolve(priv, cpu, reg);

	if (!r)
		return -EIO;
	*val = r->val;
	return 0;
}

/* The value a write of @val to @reg leaves in the register. */
static uint64_t store_written(struct store *s, uint32_t reg, uint64_t val)
{
	if (store_is_pmc(reg))
		return (uint64_t)(int64_t)(int32_t)(uint32_t)val & s->mask;
	if (store_is_a_pmc(reg))
		return val & s->mask;
	return val;
}

static int store_write(void *priv, int cpu, uint32_t reg, uint64_t val)
{
	struct store *s = priv;
	struct store_reg *r = store_resolve(s, cpu, reg);

	if (!r || r->ro)
		return -EIO;
	r->val = store_written(s, reg, val);
	return 0;
}

/* `set`: past read-only; a counter takes the value masked to its width. */
static int store_set(void *priv, int cpu, uint32_t reg, uint64_t val)
{
	struct store *s = priv;
	struct store_reg *r = store_resolve(s, cpu, reg);

	if (!r)
		return -EIO;
	r->val = store_is_pmc(r->reg) ? val & s->mask : val;
	return 0;
}

static void store_topology(void *priv, int cpu, int *core, int *package, int *module)
{
	struct store *s = priv;

	*core = cpu % s->ncores;
	*package = 0;
	*module = *core;
}

static void store_state(void *priv, int cpu,
			void (*emit)(void *arg, uint32_t reg, uint64_t val), void *arg)
{
	struct store *s = priv;
	struct store_cpu *c = &s->cpu[cpu];

	for (int i = 0; i < c->n; i++)
		emit(arg, c->r[i].reg, c->r[i].val);
}

static void store_destroy(void *priv)
{
	struct store *s = priv;

	if (!s)
		return;
	for (int i = 0; i < s->ncpus; i++)
		free(s->cpu[i].r);
	free(s->cpu);
	free(s);
}

static bool store_parse_hex(const char *tok, uint64_t max, uint64_t *v)
{
	char *end;

	if (!tok || !*tok || *tok == '-' || *tok == '+')
		return false;
	errno = 0;
	*v = strtoull(tok, &end, 16);
	return !errno && !*end && *v <= max;
}

/* One line of the file; 0 or -1 with the reason in @what. */
static int store_parse_line(struct store *s, char *line, const char **what)
{
	char *save = NULL, *tcpu, *treg, *tval, *tro;
	uint64_t reg, val;
	int cpu = -1;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	tcpu = strtok_r(line, " \t\r\n", &save);
	if (!tcpu)
		return 0;
	treg = strtok_r(NULL, " \t\r\n", &save);
	tval = strtok_r(NULL, " \t\r\n", &save);
	tro = strtok_r(NULL, " \t\r\n", &save);
	if (!tval) {
		*what = "expected CPU REG VALUE [ro]";
		return -1;
	}
	if (tro && (strcmp(tro, "ro") || strtok_r(NULL, " \t\r\n", &save))) {
		*what = "only `ro` may follow VALUE";
		return -1;
	}
	if (strcmp(tcpu, "*")) {
		char *end;
		long v = strtol(tcpu, &end, 10);

		if (*end || end == tcpu || v < 0 || v >= s->ncpus) {
			*what = "CPU is not `*` or a number below --cpus";
			return -1;
		}
		cpu = (int)v;
	}
	if (!store_parse_hex(treg, 0xffffffffu, &reg)) {
		*what = "REG is not a 32-bit hex number";
		return -1;
	}
	if (store_is_a_pmc((uint32_t)reg)) {
		*what = "IA32_A_PMCx cannot be listed: list IA32_PMCx and pass --fw-write";
		return -1;
	}
	if (!store_parse_hex(tval, UINT64_MAX, &val)) {
		*what = "VALUE is not a 64-bit hex number";
		return -1;
	}
	for (int c = 0; c < s->ncpus; c++) {
		if (cpu >= 0 && c != cpu)
			continue;
		if (store_put(s, c, (uint32_t)reg, val, tro != NULL)) {
			*what = "out of memory";
			return -1;
		}
	}
	return 0;
}

int msrfs_store_open(struct msrfs_backend *b, const char *path, int ncpus,
		     int width, int fw_write, int tpc, char *err, size_t errlen)
{
	struct store *s;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	FILE *f;

	if (ncpus < 1 || ncpus > 4096) {
		snprintf(err, errlen, "--cpus %d: expected 1..4096", ncpus);
		return -1;
	}
	if (width < 32 || width > 64) {
		snprintf(err, errlen, "--width %d: expected 32..64", width);
		return -1;
	}
	if ((tpc != 1 && tpc != 2) || ncpus % tpc) {
		snprintf(err, errlen, "--threads-per-core %d: expected 1, or 2 with an even --cpus", tpc);
		return -1;
	}
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	s = calloc(1, sizeof(*s));
	if (s)
		s->cpu = calloc(ncpus, sizeof(*s->cpu));
	if (!s || !s->cpu) {
		free(s);
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->ncpus = ncpus;
	s->ncores = ncpus / tpc;
	s->fw_write = fw_write;
	s->mask = width == 64 ? UINT64_MAX : (1ull << width) - 1;
	while (getline(&line, &cap, f) > 0) {
		const char *what = NULL;

		lineno++;
		if (store_parse_line(s, line, &what)) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, what);
			free(line);
			fclose(f);
			store_destroy(s);
			return -1;
		}
	}
	free(line);
	fclose(f);

	*b = (struct msrfs_backend){
		.ncpus = ncpus,
		.priv = s,
		.read = store_read,
		.write = store_write,
		.set = store_set,
		.topology = store_topology,
		.state = store_state,
		.destroy = store_destroy,
	};
	return 0;
}
