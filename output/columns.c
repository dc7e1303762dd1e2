/*
 * columns.c: the table of output fields and what is derived from one row
 * (see columns.h): its value, its csv header, its text cell, the sets
 * --show and --hide choose.
 *
 * Owns the names, keys, headers, widths, formats and help of the fields;
 * writes no output itself (report.c and the screen's panes do) and
 * computes no metric (metrics.c does).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "output/columns.h"
#include "output/numfmt.h"

static bool lat_supported(const struct metrics *m) { return m->lat.supported; }
static bool snoop_supported(const struct metrics *m) { return m->snoop.supported; }
static bool remote_supported(const struct metrics *m) { return m->snoop.remote.supported; }
static bool off_supported(const struct metrics *m) { return m->off.supported; }
static const char *lat_reason(const struct metrics *m) { return m->lat.reason; }
static const char *snoop_reason(const struct metrics *m) { return m->snoop.reason; }
static const char *remote_reason(const struct metrics *m) { return m->snoop.remote.reason; }
static const char *off_reason(const struct metrics *m) { return m->off.reason; }

const struct col_section_desc col_sections[CS__COUNT] = {
	[CS_NONE] = { NULL, CS_NONE, false, NULL, NULL },
	[CS_LATENCY] = { "load_latency", CS_NONE, true, lat_supported, lat_reason },
	[CS_SNOOP] = { "snoop", CS_NONE, true, snoop_supported, snoop_reason },
	[CS_REMOTE] = { "remote", CS_SNOOP, false, remote_supported, remote_reason },
	[CS_OFFCORE] = { "offcore", CS_NONE, true, off_supported, off_reason },
};

/* Why a number is not measured where its section is. */
static const char *why_loads(const struct metrics *m) { return m->lat.loads_reason; }
static const char *why_tagged(const struct metrics *m) { return m->lat.tagged_reason; }
/* The estimates need both the tagged loads and the loads retired. */
static const char *why_above(const struct metrics *m)
{
	return m->lat.tagged_reason ? m->lat.tagged_reason : m->lat.loads_reason;
}
/* The counts and standard errors: none in a recording that kept no counts. */
static const char *why_counted(const struct metrics *m)
{
	if (m->lat.tagged_reason)
		return m->lat.tagged_reason;
	if (isnan(m->lat.tagged_count) && !isnan(m->lat.tagged_per_sec))
		return "not in this recording: its format (version 1) keeps no counts of tagged loads";
	return NULL;
}
static const char *why_above_se(const struct metrics *m)
{
	return why_above(m) ? why_above(m) : why_counted(m);
}
/* The mean's upper bound and middle: open while loads are slower than the top threshold. */
static const char *why_mean_max(const struct metrics *m)
{
	if (m->lat.tagged_reason || !metrics_mean_open(m))
		return m->lat.tagged_reason;
	return "no upper bound: some tagged loads are slower than the highest threshold, and no "
	       "count says how much slower (a threshold above the slowest loads bounds it)";
}
static const char *why_mean_est(const struct metrics *m)
{
	if (m->lat.tagged_reason || !metrics_mean_open(m))
		return m->lat.tagged_reason;
	return "no middle: the upper bound is open (see mean_cycles_max); mean_cycles_min is a "
	       "lower bound";
}
static const char *why_hit(const struct metrics *m) { return m->snoop.hit_reason; }
static const char *why_hitm(const struct metrics *m) { return m->snoop.hitm_reason; }
static const char *why_off_latency(const struct metrics *m) { return m->off.latency_reason; }

/* HITM's share of the snoop responses, in percent; NAN without any. */
static double calc_hitm_share(const struct metrics *m)
{
	double all = m->snoop.hit_per_sec + m->snoop.hitm_per_sec;

	return all > 0 ? 100 * m->snoop.hitm_per_sec / all : NAN;
}

#define AT(field) offsetof(struct metrics, field)
#define NOWHERE { NULL, 0, CF_NONE, 0, 0 }
#define SI(head, w) { head, w, CF_SI, 0, 0 }
/* The screen's: one decimal also below 10 without a suffix ("5.5" loads/s). */
#define SCR_SI(head, w) { head, w, CF_SI, 1, 0 }
#define FIX(head, w, dec, below) { head, w, CF_FIXED, dec, below }

const struct column columns[COL__COUNT] = {
	[COL_TIME] = { "time", "s", CK_ID, CS_NONE, "time", COL_F_CSV, 0, NULL, NULL,
		NOWHERE, NOWHERE,
		"the end of the interval, in seconds since the epoch" },
	[COL_CPU] = { "cpu", NULL, CK_ID, CS_NONE, "cpu", COL_F_CSV | COL_F_JSON, 0, NULL, NULL,
		{ "CPU", 5, CF_LEFT, 0, 0 }, NOWHERE,
		"the logical CPU, or total" },
	[COL_CORE] = { "core", NULL, CK_ID, CS_NONE, "core", COL_F_CSV | COL_F_JSON, 0, NULL, NULL,
		{ "Core", 5, CF_LEFT, 0, 0 }, NOWHERE,
		"its core (text: package/core)" },
	[COL_PACKAGE] = { "package", NULL, CK_ID, CS_NONE, "package", COL_F_CSV | COL_F_JSON, 0,
		NULL, NULL, NOWHERE, NOWHERE,
		"its package" },
	[COL_GHZ] = { "ghz", "GHz", CK_NUM, CS_NONE, "ghz", COL_F_CSV | COL_F_JSON | COL_F_SCR_OPT, AT(ghz), NULL,
		NULL, FIX("GHz", 5, 2, 0), FIX("GHz", 6, 2, 0),
		"the clock while not halted" },
	[COL_IPC] = { "ipc", "instructions/cycle", CK_NUM, CS_NONE, "ipc",
		COL_F_CSV | COL_F_JSON | COL_F_SCR_OPT,
		AT(ipc), NULL, NULL, FIX("IPC", 5, 2, 0), FIX("IPC", 6, 2, 0),
		"instructions retired per core cycle" },
	[COL_LOADS] = { "loads", "loads/s", CK_NUM, CS_LATENCY, "loads_per_sec",
		COL_F_CSV | COL_F_JSON, AT(lat.loads_per_sec), NULL, why_loads,
		SI("Loads/s", 7), SCR_SI("Loads/s", 8),
		"loads retired per second" },
	[COL_TAGGED] = { "tagged", "loads/s", CK_NUM, CS_LATENCY, "tagged_per_sec",
		COL_F_CSV | COL_F_JSON, AT(lat.tagged_per_sec), NULL, why_tagged,
		NOWHERE, NOWHERE,
		"loads the hardware tagged per second, the base of the estimates" },
	[COL_TAGGED_COUNT] = { "tagged_count", "loads", CK_NUM, CS_LATENCY, "tagged_count",
		COL_F_CSV | COL_F_JSON | COL_F_OPT, AT(lat.tagged_count), NULL, why_counted,
		NOWHERE, NOWHERE,
		"tagged loads counted at threshold 3, n3 of the standard errors; only with --show" },
	[COL_THRESHOLDS] = { NULL, "cycles", CK_THRESH, CS_LATENCY, "thresholds", COL_F_JSON, 0,
		NULL, NULL, NOWHERE, NOWHERE,
		"the load-latency thresholds, in core cycles" },
	[COL_TAGGED_N] = { "tagged_n", "loads", CK_LIST, CS_LATENCY, "tagged_n",
		COL_F_CSV | COL_F_JSON | COL_F_OPT, AT(lat.tagged_n), NULL, why_counted,
		NOWHERE, NOWHERE,
		"tagged loads while each threshold was measured (tagged/s x its seconds), n of "
		"its standard errors; only with --show" },
	[COL_ABOVE_SHARE] = { "above_share", "share", CK_LIST, CS_LATENCY, "above_share",
		COL_F_CSV | COL_F_JSON, AT(lat.above_share), NULL, why_tagged,
		NOWHERE, NOWHERE,
		"the share of tagged loads slower than each threshold" },
	[COL_ABOVE_SHARE_SE] = { "above_share_stderr", "share", CK_LIST, CS_LATENCY,
		"above_share_stderr", COL_F_CSV | COL_F_JSON | COL_F_OPT, AT(lat.above_share_se),
		NULL, why_counted, NOWHERE, NOWHERE,
		"the standard error of above_share, sqrt(p/n + p^2/n3); only with --show" },
	[COL_ABOVE] = { "above", "loads/s", CK_LIST, CS_LATENCY, "above_per_sec",
		COL_F_CSV | COL_F_JSON, AT(lat.above_per_sec), NULL, why_above,
		SI(">%u", 6), { ">%u", 5, CF_BAR, 1, 0 },
		"loads slower than N cycles per second, estimated: share of tagged loads "
		"x Loads/s; bar: the share; dim, with a ?, from few tagged loads" },
	[COL_ABOVE_SE] = { "above_stderr", "loads/s", CK_LIST, CS_LATENCY, "above_per_sec_stderr",
		COL_F_CSV | COL_F_JSON | COL_F_OPT, AT(lat.above_per_sec_se), NULL, why_above_se,
		SI("se>%u", 8), NOWHERE,
		"the standard error of >N, Loads/s x that of above_share; only with --show" },
	[COL_MEAN] = { "mean", "cycles", CK_NUM, CS_LATENCY, "mean_cycles_est",
		COL_F_CSV | COL_F_JSON, AT(lat.mean_cycles_est), NULL, why_mean_est,
		{ "~Mean", 9, CF_MEAN, 0, 0 }, { "~Mean", 9, CF_MEAN, 1, 10 },
		"estimated mean load latency in core cycles: the middle of its bounds; with no "
		"upper bound, the lower bound as >=N (csv: empty)" },
	[COL_MEAN_MIN] = { "mean_min", "cycles", CK_NUM, CS_LATENCY, "mean_cycles_min",
		COL_F_CSV | COL_F_JSON, AT(lat.mean_cycles_min), NULL, NULL, NOWHERE, NOWHERE,
		"the lower bound of the mean load latency" },
	[COL_MEAN_MAX] = { "mean_max", "cycles", CK_NUM, CS_LATENCY, "mean_cycles_max",
		COL_F_CSV | COL_F_JSON, AT(lat.mean_cycles_max), NULL, why_mean_max, NOWHERE, NOWHERE,
		"the upper bound of the mean load latency, none (empty) while some loads are "
		"slower than the highest threshold" },
	[COL_HIT] = { "hit", "reads/s", CK_NUM, CS_SNOOP, "hit_per_sec", COL_F_CSV | COL_F_JSON,
		AT(snoop.hit_per_sec), NULL, why_hit, SI("Hit/s", 7), SCR_SI("Hit/s", 8),
		"reads or loads that found a clean copy in another core, the data from the L3, not forwarded (Atoms: a clean hit in another module)" },
	[COL_HITM] = { "hitm", "reads/s", CK_NUM, CS_SNOOP, "hitm_per_sec", COL_F_CSV | COL_F_JSON,
		AT(snoop.hitm_per_sec), NULL, why_hitm, SI("HITM/s", 7), SCR_SI("HITM/s", 8),
		"reads or loads served by a modified line in another core (false or true sharing)" },
	[COL_HIT_SCOPE] = { NULL, NULL, CK_SCOPE, CS_SNOOP, "hit_scope", COL_F_JSON,
		AT(snoop.hit_scope), NULL, NULL, NOWHERE, NOWHERE,
		"where a clean hit was: other_core or other_module" },
	[COL_HITM_SCOPE] = { NULL, NULL, CK_SCOPE, CS_SNOOP, "hitm_scope", COL_F_JSON,
		AT(snoop.hitm_scope), NULL, NULL, NOWHERE, NOWHERE,
		"where a HITM was: other_core or other_module" },
	[COL_HITM_SHARE] = { "hitm_share", "%", CK_NUM, CS_SNOOP, NULL, 0, 0, calc_hitm_share,
		NULL, NOWHERE, { "HITM%", 7, CF_PERCENT, 1, 0 },
		"HITM's share of the reads served by another core" },
	[COL_RMT_HIT] = { "rmt_hit", "reads/s", CK_NUM, CS_REMOTE, "hit_per_sec",
		COL_F_CSV | COL_F_JSON | COL_F_REMOTE, AT(snoop.remote.hit_per_sec), NULL, NULL,
		SI("RHit/s", 7), SCR_SI("RHit/s", 8),
		"reads or loads served by a clean line in another package's cache" },
	[COL_RMT_HITM] = { "rmt_hitm", "reads/s", CK_NUM, CS_REMOTE, "hitm_per_sec",
		COL_F_CSV | COL_F_JSON | COL_F_REMOTE, AT(snoop.remote.hitm_per_sec), NULL, NULL,
		SI("RHITM/s", 7), SCR_SI("RHITM/s", 9),
		"reads or loads served by a modified line in another package's cache" },
	[COL_HISTORY] = { "history", "reads/s", CK_NUM, CS_SNOOP, NULL, 0,
		AT(snoop.hitm_per_sec), NULL, NULL, NOWHERE, { "History", 0, CF_SPARK, 0, 0 },
		"recent HITM/s, one mark per interval; a row in bold red: HITM/s far above its "
		"recent median" },
	[COL_READS] = { "reads", "reads/s", CK_NUM, CS_OFFCORE, "reads_per_sec",
		COL_F_CSV | COL_F_JSON, AT(off.reads_per_sec), NULL, NULL,
		SI("Reads/s", 7), SCR_SI("Reads/s", 8),
		"demand data reads that miss the L2 (Atoms: leave the module)" },
	[COL_OFF_CYCLES] = { "offlat", "cycles", CK_NUM, CS_OFFCORE, "avg_latency_cycles",
		COL_F_CSV | COL_F_JSON, AT(off.avg_latency_cycles), NULL, why_off_latency,
		FIX("Lat(cyc)", 8, 0, 0), FIX("Lat(cyc)", 9, 0, 0),
		"the mean latency of the offcore reads in core cycles" },
	[COL_OFF_NS] = { "offlat_ns", "ns", CK_NUM, CS_OFFCORE, "avg_latency_ns",
		COL_F_CSV | COL_F_JSON, AT(off.avg_latency_ns), NULL, why_off_latency,
		FIX("Lat(ns)", 7, 1, 0), FIX("Lat(ns)", 8, 1, 100),
		"the mean latency of the offcore reads in nanoseconds" },
};

/* Is @name, any case, the header @head ("%u" in it: N or any number)? */
static bool columns_head_is(const char *head, const char *name)
{
	const char *u = head ? strstr(head, "%u") : NULL;
	size_t n;

	if (!head)
		return false;
	if (!u)
		return !strcasecmp(head, name);
	n = (size_t)(u - head);
	if (strncasecmp(head, name, n))
		return false;
	name += n;
	if (*name == 'N' || *name == 'n')
		name++;
	else if (isdigit((unsigned char)*name))
		while (isdigit((unsigned char)*name))
			name++;
	else
		return false;
	return !strcasecmp(u + 2, name);
}

const struct column *columns_by_name(const char *name)
{
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		char csv[96];

		if (!c->name)
			continue;
		if (!strcasecmp(c->name, name) || columns_head_is(c->text.head, name) ||
		    columns_head_is(c->screen.head, name))
			return c;
		if (c->flags & COL_F_CSV) {
			columns_csv_head(c, 0, csv, sizeof(csv));
			if (c->kind == CK_LIST)
				strcpy(csv + strlen(csv) - 1, "%u");
			if (columns_head_is(csv, name))
				return c;
		}
	}
	return NULL;
}

double columns_value(const struct column *c, const struct metrics *m, int i)
{
	if (c->calc)
		return c->calc(m);
	if (c->kind != CK_NUM && c->kind != CK_LIST)
		return NAN;
	return columns_field(c, m, i);
}

const char *columns_str(const struct column *c, const struct metrics *m)
{
	if (c->kind != CK_SCOPE)
		return NULL;
	return *(const char *const *)((const char *)m + c->off);
}

double columns_sort_value(const struct column *c, const struct metrics *m, int i)
{
	const struct col_section_desc *s = &col_sections[c->sect];

	if (s->supported && !s->supported(m))
		return NAN;
	/* A mean with no upper bound sorts by the lower bound its cell shows, not last. */
	if (c->screen.fmt == CF_MEAN && metrics_mean_open(m))
		return m->lat.mean_cycles_min;
	return columns_value(c, m, i);
}

const char *columns_section_why(enum col_section s, const struct metrics *m)
{
	const struct col_section_desc *d = &col_sections[s];
	const char *why;

	if (!d->supported || d->supported(m))
		return NULL;
	why = d->reason ? d->reason(m) : NULL;
	return why ? why : "not measured";
}

bool columns_in(const struct column *c, enum col_out out)
{
	switch (out) {
	case COL_OUT_TEXT:
		return c->text.head != NULL;
	case COL_OUT_CSV:
		return c->flags & COL_F_CSV;
	case COL_OUT_SCREEN:
		/* The CPU (or Core) is the screen's label column. */
		return c->screen.head != NULL || c == &columns[COL_CPU] || c == &columns[COL_CORE];
	}
	return false;
}

col_set columns_optional(enum col_out out)
{
	unsigned f = out == COL_OUT_SCREEN ? COL_F_OPT | COL_F_SCR_OPT : COL_F_OPT;
	col_set set = 0;

	for (int i = 0; i < COL__COUNT; i++)
		if (columns[i].flags & f)
			set |= COL_BIT(i);
	return set;
}

const struct column *columns_absent(col_set set, enum col_out out)
{
	for (int i = 0; i < COL__COUNT; i++)
		if ((set & COL_BIT(i)) && !columns_in(&columns[i], out))
			return &columns[i];
	return NULL;
}

bool columns_present(const struct column *c, const struct metrics *total)
{
	return !(c->flags & COL_F_REMOTE) || total->snoop.remote.supported;
}

/* "snoop.remote." for CS_REMOTE: the sections down to @s, each with its dot. */
static size_t section_path(enum col_section s, char *buf, size_t len)
{
	size_t n = 0;

	if (s == CS_NONE)
		return 0;
	n = section_path(col_sections[s].parent, buf, len);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s.", col_sections[s].key);
	return n;
}

void columns_csv_head(const struct column *c, unsigned t, char *buf, size_t len)
{
	size_t n = section_path(c->sect, buf, len);

	if (n >= len)
		return;
	if (c->kind == CK_LIST)
		snprintf(buf + n, len - n, "%s.%u", c->key, t);
	else
		snprintf(buf + n, len - n, "%s", c->key);
}

void columns_cell(const struct column *c, const struct col_style *s,
		  const struct metrics *m, int i, char *buf, size_t len)
{
	double v = columns_value(c, m, i);

	switch (s->fmt) {
	case CF_SI:
	case CF_BAR:
		numfmt_si(buf, len, v, s->dec);
		return;
	case CF_MEAN:
		/*
		 * No upper bound: the lower one alone, ">=513".  The bounds far
		 * apart: their range, not a middle that means little.  Each bound
		 * rounded outward, so that what is printed still holds the mean.
		 */
		if (metrics_mean_open(m)) {
			char lo[32];

			numfmt_si_bound(lo, sizeof(lo), m->lat.mean_cycles_min, s->dec, false);
			snprintf(buf, len, ">=%s", lo);
			return;
		}
		if (!isnan(v) && metrics_mean_is_range(m)) {
			char lo[32], hi[32];

			numfmt_si_bound(lo, sizeof(lo), m->lat.mean_cycles_min, s->dec, false);
			numfmt_si_bound(hi, sizeof(hi), m->lat.mean_cycles_max, s->dec, true);
			snprintf(buf, len, "%s-%s", lo, hi);
			return;
		}
		/* fall through */
	case CF_FIXED:
		numfmt_cell(buf, len, v, s->dec_below > 0 && !(v < s->dec_below) ? 0 : s->dec);
		return;
	case CF_PERCENT:
		numfmt_cell(buf, len, v, s->dec);
		if (!isnan(v) && strlen(buf) + 1 < len)
			strcat(buf, "%");
		return;
	default:
		snprintf(buf, len, "?");
		return;
	}
}

int columns_parse(const char *list, col_set *out, char *err, size_t errlen)
{
	col_set set = 0;
	const char *p = list;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char name[32];
		const struct column *c = NULL;

		if (n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = 0;
			c = columns_by_name(name);
		}
		if (!c) {
			size_t o = (size_t)snprintf(err, errlen, "no column '%.*s'; the columns: ",
						    (int)(n < 64 ? n : 64), p);
			bool first = true;

			for (int i = 0; i < COL__COUNT && o < errlen; i++) {
				if (!columns[i].name)
					continue;
				o += (size_t)snprintf(err + o, errlen - o, "%s%s", first ? "" : ",",
						      columns[i].name);
				first = false;
			}
			return -1;
		}
		set |= COL_BIT(c - columns);
		if (!end)
			break;
		p = end + 1;
	}
	*out = set;
	return 0;
}
