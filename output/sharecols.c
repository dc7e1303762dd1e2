/*
 * sharecols.c: the columns of the contended cache lines (see columns.h):
 * their headers, widths, sort keys and cells, which the text report
 * (report.c) and the screen's lines view and pane both print, so the two
 * cannot disagree on what a column is called or how its numbers read.
 *
 * Owns the table and the cells; writes no output itself and never changes
 * a frame (the line table, engine/lines.c, fills it).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/columns.h"
#include "output/numfmt.h"

static double sh_hitm(const struct sharing_line *l) { return l->hitm_per_sec; }
static double sh_rhitm(const struct sharing_line *l) { return l->remote_hitm_per_sec; }
static double sh_loads(const struct sharing_line *l) { return l->loads_per_sec; }
static double sh_stores(const struct sharing_line *l) { return l->stores_per_sec; }
static double sh_lat(const struct sharing_line *l) { return l->mean_latency_cycles; }
static double sh_threads(const struct sharing_line *l) { return l->nthreads; }
static double sh_cpus(const struct sharing_line *l) { return l->ncpus; }
static double sh_node(const struct sharing_line *l) { return l->node < 0 ? NAN : l->node; }
static double sh_addr(const struct sharing_line *l) { return (double)l->addr; }
static double sh_phys(const struct sharing_line *l) { return l->phys ? (double)l->phys : NAN; }

static void cell_hex(uint64_t v, char *buf, size_t len)
{
	if (v)
		snprintf(buf, len, "0x%" PRIx64, v);
	else
		snprintf(buf, len, "-");
}

static void cell_addr(const struct sharing_line *l, char *buf, size_t len)
{
	cell_hex(l->addr, buf, len);
}

static void cell_phys(const struct sharing_line *l, char *buf, size_t len)
{
	cell_hex(l->phys, buf, len);
}

/* A rate: SI, "-" when not measured. */
#define CELL_SI(name, field) \
	static void cell_##name(const struct sharing_line *l, char *buf, size_t len) \
	{ \
		numfmt_si(buf, len, l->field, 1); \
	}
CELL_SI(hitm, hitm_per_sec)
CELL_SI(rhitm, remote_hitm_per_sec)
CELL_SI(loads, loads_per_sec)
CELL_SI(stores, stores_per_sec)
#undef CELL_SI

static void cell_lat(const struct sharing_line *l, char *buf, size_t len)
{
	numfmt_cell(buf, len, l->mean_latency_cycles, 0);
}

static void cell_threads(const struct sharing_line *l, char *buf, size_t len)
{
	snprintf(buf, len, "%d", l->nthreads);
}

static void cell_cpus(const struct sharing_line *l, char *buf, size_t len)
{
	snprintf(buf, len, "%d", l->ncpus);
}

static void cell_node(const struct sharing_line *l, char *buf, size_t len)
{
	if (l->node < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", l->node);
}

static void cell_verdict(const struct sharing_line *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s", shcols_verdict(l->verdict));
}

/* "4242 worker", and "+N" for the other processes named. */
static void cell_procs(const struct sharing_line *l, char *buf, size_t len)
{
	int n = l->nprocs < SHARING_PROCS ? l->nprocs : SHARING_PROCS;

	if (n <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	if (n == 1)
		snprintf(buf, len, "%d %.*s", l->procs[0].pid, SHARING_COMM, l->procs[0].comm);
	else
		snprintf(buf, len, "%d %.*s +%d", l->procs[0].pid, SHARING_COMM, l->procs[0].comm,
			 l->nprocs - 1);
}

static void cell_symbol(const struct sharing_line *l, char *buf, size_t len)
{
	if (l->top_symbol[0])
		snprintf(buf, len, "%.*s", SHARING_SYM, l->top_symbol);
	else
		cell_hex(l->top_ip, buf, len);
}

/* The order is the text report's and the screen's, left to right. */
const struct shcol shcols[SHC__COUNT] = {
	[SHC_ADDR] = { "Address", 14, true, false, false, 0, sh_addr, cell_addr,
		       "the line's virtual address (64-byte aligned)" },
	[SHC_PHYS] = { "Phys", 14, true, true, false, 12, sh_phys, cell_phys,
		       "its physical address, where the kernel gives it" },
	[SHC_HITM] = { "HITM/s", 7, false, false, true, 1, sh_hitm, cell_hitm,
		       "loads of the line served from another core's modified copy, per second "
		       "(>=N: a lower bound, seen through the tagged loads alone)" },
	[SHC_RHITM] = { "RHITM/s", 8, false, false, true, 5, sh_rhitm, cell_rhitm,
			"of those, served from another package" },
	[SHC_LOADS] = { "Loads/s", 8, false, false, false, 7, sh_loads, cell_loads,
			"loads of the line, estimated from the samples" },
	[SHC_STORES] = { "Stores/s", 9, false, false, false, 8, sh_stores, cell_stores,
			 "stores to the line, estimated from the samples" },
	[SHC_LAT] = { "Lat", 5, false, false, false, 6, sh_lat, cell_lat,
		      "the mean latency of its sampled loads, in core cycles" },
	[SHC_THREADS] = { "Thr", 4, false, false, false, 9, sh_threads, cell_threads,
			  "threads that touched it" },
	[SHC_CPUS] = { "CPUs", 5, false, false, false, 10, sh_cpus, cell_cpus,
		       "logical CPUs it was touched from" },
	[SHC_NODE] = { "Node", 5, false, false, false, 11, sh_node, cell_node,
		       "the NUMA node of its memory, where known" },
	[SHC_VERDICT] = { "Sharing", 7, true, false, false, 2, NULL, cell_verdict,
			  "false: threads touch different 8-byte words of it, one writing; "
			  "true: the same words; ?: too few samples to say" },
	[SHC_PROCS] = { "Process", 16, true, false, false, 3, NULL, cell_procs,
			"the pid and command of the process touching it most (+N: more)" },
	[SHC_SYMBOL] = { "Symbol", 12, true, false, false, 4, NULL, cell_symbol,
			 "its hottest code, function+offset (an address where no symbol is known)" },
};

const char *shcols_verdict(enum sharing_verdict v)
{
	return v == SHARING_FALSE ? "false" : v == SHARING_TRUE ? "true" : "?";
}

void shcols_cell(const struct sharing_frame *fr, enum shcol_id c, const struct sharing_line *l,
		 char *buf, size_t len)
{
	const struct shcol *k = &shcols[c];

	if (!(fr && fr->hitm_lower_bound && k->bound && len > 2 && !isnan(k->value(l)))) {
		k->cell(l, buf, len);
		return;
	}
	buf[0] = '>';
	buf[1] = '=';
	k->cell(l, buf + 2, len - 2);
}

bool shcols_phys(const struct sharing_frame *fr)
{
	for (int i = 0; fr && i < fr->nlines && i < SHARING_TOP; i++)
		if (fr->line[i].phys)
			return true;
	return false;
}

int shcols_cmp(enum shcol_id c, bool reverse, const struct sharing_line *a,
	       const struct sharing_line *b)
{
	const struct shcol *k = &shcols[c];
	int r = reverse ? -1 : 1;

	if (k->value) {
		double u = k->value(a), v = k->value(b);

		/* Not measured last, either way. */
		if (isnan(u) != isnan(v))
			return isnan(u) ? 1 : -1;
		if (!isnan(u) && u != v)
			return u > v ? -r : r;
	} else {
		char x[SHARING_SYM + 32], y[SHARING_SYM + 32];
		int d;

		k->cell(a, x, sizeof(x));
		k->cell(b, y, sizeof(y));
		if ((d = strcmp(x, y)))
			return d < 0 ? -r : r;
	}
	/* Ties: the costlier line first, then by address, so the order holds still. */
	if (a->hitm_per_sec != b->hitm_per_sec && !isnan(a->hitm_per_sec) && !isnan(b->hitm_per_sec))
		return a->hitm_per_sec > b->hitm_per_sec ? -1 : 1;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

const char *shcols_rw(const struct sharing_word *w)
{
	bool r = w->reads > 0, wr = w->writes > 0;

	return r && wr ? "RW" : wr ? "W" : r ? "R" : "-";
}

void shcols_tids(const struct sharing_word *w, char *buf, size_t len)
{
	int n = w->ntids < SHARING_TIDS ? w->ntids : SHARING_TIDS;
	size_t o = 0;

	buf[0] = 0;
	if (n <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	for (int i = 0; i < n; i++) {
		char t[16];
		int k = snprintf(t, sizeof(t), "%s%d", i ? "," : "", w->tids[i]);

		/* Room kept for "+N", the threads not written. */
		if (o + (size_t)k + 5 >= len && i < n - 1) {
			snprintf(buf + o, len - o, "+%d", w->ntids - i);
			return;
		}
		if (o + (size_t)k >= len)
			return;
		memcpy(buf + o, t, (size_t)k + 1);
		o += (size_t)k;
	}
	if (w->ntids > n && o + 5 < len)
		snprintf(buf + o, len - o, "+%d", w->ntids - n);
}

void shcols_counts(const struct sharing_frame *fr, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64 " throttled in %.2f s",
		 fr->samples, fr->lost, fr->throttled, fr->interval_s);
}
