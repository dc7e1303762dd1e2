/*
 * export.c: cumulative counters and their exposition (see export.h).
 *
 * One table of families (name, unit, the column each sums, see export.h)
 * drives both formats; a family's HELP is its column's help unless the
 * family has words of its own, so the two cannot say different things
 * (tests/test_export.c checks the own words against the column).  The text
 * format 0.0.4 names a counter's samples and its TYPE line NAME_total;
 * OpenMetrics 1.0 types the family NAME, gives its UNIT where the name
 * ends in one, and ends with "# EOF".
 * Counters are printed as whole numbers (the sums keep their fractions):
 * a float with six digits would move in steps too coarse for rate().
 */
#include <ctype.h>
#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "lib/grow.h"
#include "output/numfmt.h"

const char export_type_text[] = "text/plain; version=0.0.4; charset=utf-8";
const char export_type_openmetrics[] = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/* A family summing column @col's rate, in its words (@help NULL) or its own. */
#define FROM_COLUMN(name, unit, col, help, more) { name, unit, col, M__COUNT, help, more }
/* A raw counter: metric @m's rate, which no column shows alone. */
#define RAW(name, unit, m, help) { name, unit, COL__COUNT, m, help, NULL }

const struct export_family export_families[EXPORT__COUNT] = {
	[EXPORT_CYCLES] = RAW("cycles", "cycles", M_CYCLES, "Core cycles, unhalted."),
	[EXPORT_REF_CYCLES] = RAW("ref_cycles", "cycles", M_REF_CYCLES,
		"Reference cycles at the TSC rate, unhalted."),
	[EXPORT_INSTRUCTIONS] = RAW("instructions", NULL, M_INSTRUCTIONS, "Instructions retired."),
	/* Their columns' help says "per second", and the screen's bar: a counter neither. */
	[EXPORT_LOADS] = FROM_COLUMN("loads", NULL, COL_LOADS, "Loads retired.", NULL),
	[EXPORT_LOAD_LATENCY_ABOVE] = FROM_COLUMN("load_latency_above", NULL, COL_ABOVE,
		"Loads slower than N cycles (N: the label threshold_cycles), estimated: the share "
		"of tagged loads slower than N times the loads retired.", NULL),
	[EXPORT_SNOOP_HIT] = FROM_COLUMN("snoop_hit", NULL, COL_HIT, NULL, NULL),
	[EXPORT_SNOOP_HITM] = FROM_COLUMN("snoop_hitm", NULL, COL_HITM, NULL,
		"lattop_info's hitm_scope says which cores"),
	[EXPORT_SNOOP_REMOTE_HIT] = FROM_COLUMN("snoop_remote_hit", NULL, COL_RMT_HIT, NULL, NULL),
	[EXPORT_SNOOP_REMOTE_HITM] = FROM_COLUMN("snoop_remote_hitm", NULL, COL_RMT_HITM, NULL, NULL),
	[EXPORT_OFFCORE_READS] = FROM_COLUMN("offcore_reads", NULL, COL_READS, NULL, NULL),
	[EXPORT_OFFCORE_OUTSTANDING] = RAW("offcore_outstanding_cycles", "cycles",
		M_OFFCORE_OUTSTANDING,
		"Core cycles times the offcore reads outstanding: divided by "
		"lattop_offcore_reads_total, their average latency in core cycles."),
};

/* The plan's metrics each family needs. */
static bool family_supported(const struct plan *pl, enum export_counter c)
{
	switch (c) {
	case EXPORT_CYCLES: return plan_has(pl, M_CYCLES);
	case EXPORT_REF_CYCLES: return plan_has(pl, M_REF_CYCLES);
	case EXPORT_INSTRUCTIONS: return plan_has(pl, M_INSTRUCTIONS);
	case EXPORT_LOADS: return plan_has(pl, M_LOADS);
	case EXPORT_LOAD_LATENCY_ABOVE: return plan_has(pl, M_LOADS) && plan_has(pl, M_LOAD_LATENCY);
	case EXPORT_SNOOP_HIT: return plan_has(pl, M_SNOOP_HIT);
	case EXPORT_SNOOP_HITM: return plan_has(pl, M_SNOOP_HITM);
	case EXPORT_SNOOP_REMOTE_HIT: return plan_has(pl, M_SNOOP_REMOTE_HIT);
	case EXPORT_SNOOP_REMOTE_HITM: return plan_has(pl, M_SNOOP_REMOTE_HITM);
	case EXPORT_OFFCORE_READS: return plan_has(pl, M_OFFCORE_READS);
	case EXPORT_OFFCORE_OUTSTANDING:
		return plan_has(pl, M_OFFCORE_READS) && plan_has(pl, M_OFFCORE_OUTSTANDING);
	case EXPORT__COUNT: break;
	}
	return false;
}

/*
 * A family's rate in one CPU's interval: its column's (threshold @i of a
 * list), or its metric's.  The columns summed are stored fields, not
 * computed ones (tests/test_export.c checks).
 */
static double family_rate(const struct export_family *fam, const struct rates *r,
			  const struct metrics *m, int i)
{
	if (fam->col < COL__COUNT)
		return columns_field(&columns[fam->col], m, i);
	return r->r[fam->rate];
}

int export_init(struct export *x, const struct row *rows, int ncpu)
{
	memset(x, 0, sizeof(*x));
	x->cpu = calloc(ncpu > 0 ? ncpu : 1, sizeof(*x->cpu));
	if (!x->cpu)
		return -1;
	x->ncpu = ncpu;
	for (int i = 0; i < ncpu; i++) {
		struct export_cpu *c = &x->cpu[i];

		c->cpu = rows[i].cpu;
		c->core = rows[i].core;
		c->package = rows[i].package;
		snprintf(c->labels, sizeof(c->labels), "cpu=\"%d\",core=\"%d\",package=\"%d\"%s%s%s",
			 c->cpu, c->core, c->package, rows[i].core_type ? ",core_type=\"" : "",
			 rows[i].core_type ? rows[i].core_type : "", rows[i].core_type ? "\"" : "");
	}
	return 0;
}

void export_free(struct export *x)
{
	free(x->cpu);
	x->cpu = NULL;
	x->ncpu = 0;
}

/* The index of threshold @t in x->thresh[], added when new; -1 when full. */
static int thresh_index(struct export *x, unsigned t)
{
	for (int k = 0; k < x->nthresh; k++)
		if (x->thresh[k] == t)
			return k;
	if (x->nthresh == EXPORT_MAX_THRESH)
		return -1;
	x->thresh[x->nthresh] = t;
	return x->nthresh++;
}

void export_supported(struct export *x, const struct plan *pl)
{
	for (int c = 0; c < EXPORT__COUNT; c++)
		x->supported[c] = family_supported(pl, c);
	/* Parallel to the plan's thresholds; -1 past EXPORT_MAX_THRESH distinct ones (not shown). */
	x->ncur = pl->nthresh;
	for (int i = 0; i < pl->nthresh; i++)
		x->cur[i] = thresh_index(x, pl->thresholds[i]);
}

void export_update(struct export *x, const struct plan *pl, const struct row *s, double now)
{
	bool any = false;

	export_supported(x, pl);
	for (int i = 0; i < x->ncpu; i++) {
		struct export_cpu *c = &x->cpu[i];
		double dt = s[i].interval_s;

		if (!s[i].ok || !s[i].rates || !(dt > 0))
			continue;
		any = true;
		for (int f = 0; f < EXPORT__COUNT; f++) {
			double v = family_rate(&export_families[f], s[i].rates, &s[i].m, 0);

			if (x->supported[f] && f != EXPORT_LOAD_LATENCY_ABOVE && isfinite(v) && v > 0)
				c->total[f] += v * dt;
		}
		if (!x->supported[EXPORT_LOAD_LATENCY_ABOVE])
			continue;
		/* struct metrics lists the plan's thresholds in the plan's order. */
		for (int k = 0; k < x->ncur && k < s[i].m.lat.nthresh; k++) {
			double v = family_rate(&export_families[EXPORT_LOAD_LATENCY_ABOVE],
					       s[i].rates, &s[i].m, k);

			if (x->cur[k] >= 0 && isfinite(v) && v > 0)
				c->above[x->cur[k]] += v * dt;
		}
	}
	if (x->ncpu > 0)
		x->hitm_scope = s[0].m.snoop.hitm_scope;   /* the plan's: the same on every CPU */
	x->up = any;
	if (any)
		x->last_sample = now;
}

void export_keep_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

/* ---- rendering ---- */

struct buf {
	char *b;
	size_t n, cap;
	bool oom;
};

/* Room for @more bytes; false (and oom set) when there is none. */
static bool room(struct buf *b, size_t more)
{
	char *nb;

	if (b->oom)
		return false;
	nb = grow_array(b->b, &b->cap, b->n + more, 1, 4096);
	if (!nb) {
		b->oom = true;
		return false;
	}
	b->b = nb;
	return true;
}

static void put(struct buf *b, const char *s, size_t len)
{
	if (!room(b, len))
		return;
	memcpy(b->b + b->n, s, len);
	b->n += len;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

#define PUT(b, lit) put(b, "" lit, sizeof(lit) - 1)   /* literals only */

/* A label value: backslash, double quote and newline escaped. */
static void put_label(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			PUT(b, "\\\\");
		else if (*s == '"')
			PUT(b, "\\\"");
		else if (*s == '\n')
			PUT(b, "\\n");
		else
			put(b, s, 1);
	}
}

/* A counter's value: a whole number, exact below 2^53. */
static void put_count(struct buf *b, double v)
{
	char tmp[32];
	int n = 0;

	if (!room(b, 32))
		return;
	if (!(v >= 0))
		v = 0;
	if (v < 9007199254740992.0) {
		uint64_t u = (uint64_t)(v + 0.5);

		do {
			tmp[n++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		while (n)
			b->b[b->n++] = tmp[--n];
	} else {
		b->n += (size_t)snprintf(b->b + b->n, 32, "%.17g", v);
	}
}

/* A gauge's value, 15 significant digits. */
static void put_gauge(struct buf *b, double v)
{
	char tmp[48];
	int n = numfmt(tmp, v, 15);

	if (n)
		put(b, tmp, (size_t)n);
	else
		PUT(b, "NaN");
}

/* "# HELP lattop_@name ": its HELP line up to the text. */
static void put_help_head(struct buf *b, bool om, const char *name, bool counter)
{
	PUT(b, "# HELP lattop_");
	puts_(b, name);
	if (counter && !om)
		PUT(b, "_total");
	PUT(b, " ");
}

/* The end of the HELP line, TYPE and, in OpenMetrics, UNIT of the family lattop_@name. */
static void put_type(struct buf *b, bool om, const char *name, const char *type, const char *unit)
{
	bool counter = !strcmp(type, "counter");

	PUT(b, "\n# TYPE lattop_");
	puts_(b, name);
	if (counter && !om)
		PUT(b, "_total");
	PUT(b, " ");
	puts_(b, type);
	PUT(b, "\n");
	if (om && unit) {
		PUT(b, "# UNIT lattop_");
		puts_(b, name);
		PUT(b, " ");
		puts_(b, unit);
		PUT(b, "\n");
	}
}

/* HELP, TYPE and, in OpenMetrics, UNIT of the family lattop_@name. */
static void put_meta(struct buf *b, bool om, const char *name, const char *type, const char *unit,
		     const char *help)
{
	put_help_head(b, om, name, !strcmp(type, "counter"));
	puts_(b, help);
	put_type(b, om, name, type, unit);
}

/* The same for counter family @fam: its HELP its own words, or its column's help as a sentence. */
static void put_family_meta(struct buf *b, bool om, const struct export_family *fam)
{
	put_help_head(b, om, fam->name, true);
	if (fam->help) {
		puts_(b, fam->help);
	} else {
		const char *h = columns[fam->col].help;
		char first = (char)toupper((unsigned char)h[0]);

		put(b, &first, 1);
		puts_(b, h + 1);
		if (fam->more) {
			PUT(b, "; ");
			puts_(b, fam->more);
		}
		PUT(b, ".");
	}
	put_type(b, om, fam->name, "counter", fam->unit);
}

/* The sample lines of counter family @f (the same in both formats). */
static void render_samples(struct buf *b, const struct export *x, int f)
{
	const struct export_family *fam = &export_families[f];
	size_t nlen = strlen(fam->name);

	for (int i = 0; i < x->ncpu && !b->oom; i++) {
		const struct export_cpu *c = &x->cpu[i];

		if (f == EXPORT_LOAD_LATENCY_ABOVE) {
			for (int k = 0; k < x->ncur; k++) {
				char t[40];

				if (x->cur[k] < 0)
					continue;

				PUT(b, "lattop_load_latency_above_total{");
				puts_(b, c->labels);
				put(b, t, (size_t)snprintf(t, sizeof(t), ",threshold_cycles=\"%u\"} ",
							   x->thresh[x->cur[k]]));
				put_count(b, c->above[x->cur[k]]);
				PUT(b, "\n");
			}
			continue;
		}
		PUT(b, "lattop_");
		put(b, fam->name, nlen);
		PUT(b, "_total{");
		puts_(b, c->labels);
		PUT(b, "} ");
		put_count(b, c->total[f]);
		PUT(b, "\n");
	}
}

/* Every supported family's samples, rendered once for both formats: family f at off[f]..off[f + 1]. */
struct samples {
	struct buf b;
	size_t off[EXPORT__COUNT + 1];
};

static int samples_render(const struct export *x, struct samples *sm)
{
	memset(sm, 0, sizeof(*sm));
	room(&sm->b, 256 + (size_t)x->ncpu * (EXPORT__COUNT + (size_t)x->ncur) * 80);
	for (int f = 0; f < EXPORT__COUNT; f++) {
		sm->off[f] = sm->b.n;
		if (x->supported[f])
			render_samples(&sm->b, x, f);
	}
	sm->off[EXPORT__COUNT] = sm->b.n;
	if (sm->b.oom) {
		free(sm->b.b);
		return -1;
	}
	return 0;
}

/* One format: each family's HELP, TYPE (UNIT) and its samples, then the gauges. */
static int render_format(const struct export *x, bool om, const struct samples *sm, char **out,
			 size_t *len)
{
	struct buf b = { 0 };

	room(&b, sm->b.n + 8192);
	for (int f = 0; f < EXPORT__COUNT; f++) {
		if (!x->supported[f] || x->stopped)
			continue;
		put_family_meta(&b, om, &export_families[f]);
		put(&b, sm->b.b + sm->off[f], sm->off[f + 1] - sm->off[f]);
	}

	put_meta(&b, om, "up", "gauge", NULL,
		 "1 when lattop read at least one CPU in its last interval; 0 when it read none, "
		 "or has stopped.");
	PUT(&b, "lattop_up ");
	puts_(&b, x->up && !x->stopped ? "1\n" : "0\n");

	/*
	 * A gauge in both formats, as node_exporter's *_info series are: the
	 * OpenMetrics info type is unknown to the text format's tools
	 * (promtool check metrics).
	 */
	put_meta(&b, om, "info", "gauge", NULL,
		 "What lattop measures: the microarchitecture, its PMU table, the source "
		 "(msr or simulator), lattop's version and the scope of HITM, always 1.");
	PUT(&b, "lattop_info{microarch=\"");
	put_label(&b, x->microarch);
	PUT(&b, "\",pmu_table=\"");
	put_label(&b, x->pmu_table);
	PUT(&b, "\",source=\"");
	put_label(&b, x->source);
	PUT(&b, "\",version=\"");
	put_label(&b, x->version);
	PUT(&b, "\",hitm_scope=\"");
	put_label(&b, x->hitm_scope ? x->hitm_scope : "none");
	PUT(&b, "\"} 1\n");

	put_meta(&b, om, "interval_seconds", "gauge", "seconds",
		 "The interval lattop samples at.");
	PUT(&b, "lattop_interval_seconds ");
	put_gauge(&b, x->interval_s);
	PUT(&b, "\n");

	if (!x->stopped)
		put_meta(&b, om, "metric_supported", "gauge", NULL,
			 "1 when this CPU can measure the counter family lattop_METRIC_total, 0 when "
			 "not (it then has no series).");
	for (int f = 0; f < EXPORT__COUNT && !x->stopped; f++) {
		PUT(&b, "lattop_metric_supported{metric=\"");
		puts_(&b, export_families[f].name);
		PUT(&b, "\"} ");
		puts_(&b, x->supported[f] ? "1\n" : "0\n");
	}

	if (x->sharing && !x->stopped) {
		static const struct { const char *name, *help; } agg[] = {
			{ "sharing_samples", "Samples of loads and stores read for the contended "
			  "lines, since lattop started." },
			{ "sharing_lost", "Samples the kernel lost for want of room in a ring "
			  "buffer, since lattop started." },
			{ "sharing_throttled", "THROTTLE records: the kernel stopped a sampling event "
			  "for the rest of a tick, since lattop started." },
		};
		const double v[] = { x->sharing_samples, x->sharing_lost, x->sharing_throttled };

		for (size_t i = 0; i < sizeof(agg) / sizeof(agg[0]); i++) {
			put_meta(&b, om, agg[i].name, "counter", NULL, agg[i].help);
			PUT(&b, "lattop_");
			puts_(&b, agg[i].name);
			PUT(&b, "_total ");
			put_gauge(&b, v[i]);
			PUT(&b, "\n");
		}
		put_meta(&b, om, "sharing_lines", "gauge", NULL,
			 "Contended lines in the last interval's list (at most 32); no series per line.");
		PUT(&b, "lattop_sharing_lines ");
		put_gauge(&b, x->sharing_lines);
		PUT(&b, "\n");
	}

	put_meta(&b, om, "last_sample_timestamp_seconds", "gauge", "seconds",
		 "When the last interval that read a CPU ended, in seconds since the epoch.");
	if (x->last_sample > 0) {
		PUT(&b, "lattop_last_sample_timestamp_seconds ");
		put_gauge(&b, x->last_sample);
		PUT(&b, "\n");
	}
	if (om)
		PUT(&b, "# EOF\n");
	if (b.oom || !room(&b, 1)) {
		free(b.b);
		return -1;
	}
	b.b[b.n] = 0;
	*out = b.b;
	*len = b.n;
	return 0;
}

void export_sharing(struct export *x, const struct sharing_frame *f)
{
	if (!f || !f->supported)
		return;
	x->sharing = true;
	x->sharing_samples += (double)f->samples;
	x->sharing_lost += (double)f->lost;
	x->sharing_throttled += (double)f->throttled;
	x->sharing_lines = f->nlines;
}

int export_render(const struct export *x, bool om, char **out, size_t *len)
{
	struct samples sm;
	int res;

	if (samples_render(x, &sm) < 0)
		return -1;
	res = render_format(x, om, &sm, out, len);
	free(sm.b.b);
	return res;
}

int export_render_both(const struct export *x, char **text, size_t *textlen, char **om,
		       size_t *omlen)
{
	struct samples sm;
	int res;

	if (samples_render(x, &sm) < 0)
		return -1;
	res = render_format(x, false, &sm, text, textlen);
	if (res == 0 && render_format(x, true, &sm, om, omlen) < 0) {
		free(*text);
		res = -1;
	}
	free(sm.b.b);
	return res;
}
