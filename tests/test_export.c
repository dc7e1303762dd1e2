/*
 * test_export.c: the exposition writer (export/export.c): counters integrate
 * rate x time per CPU and skip a CPU not read; what is not measured has no
 * series and says supported 0; thresholds that change keep their counters;
 * both formats are well formed (every sample under its family's TYPE,
 * HELP and TYPE for every family, UNIT and EOF in OpenMetrics only);
 * label values are escaped; large counts are exact; every counter family
 * agrees with the column it sums: name, unit and what its HELP says it
 * counts.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export/export.h"
#include "output/columns.h"

static const int ids[] = { 0, 1 }, cores[] = { 0, 0 }, pkgs[] = { 0, 1 };

struct fixture {
	struct plan pl;
	struct rates r[2];
	struct row s[2];
	struct export x;
};

/* Two CPUs measuring everything: rates of 1000 x (family + 1) per second. */
static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->pl.nthresh = 2;
	f->pl.thresholds[0] = 16;
	f->pl.thresholds[1] = 128;
	for (int i = 0; i < 2; i++) {
		struct rates *r = &f->r[i];
		struct metrics *m = &f->s[i].m;

		for (int k = 0; k < M__COUNT; k++)
			r->r[k] = NAN;
		r->r[M_CYCLES] = 2e9;
		r->r[M_REF_CYCLES] = 1.6e9;
		r->r[M_INSTRUCTIONS] = 3e9;
		r->r[M_OFFCORE_OUTSTANDING] = 3.6e9;
		m->lat.loads_per_sec = 4e8;
		m->lat.nthresh = 2;
		m->lat.thresholds[0] = 16;
		m->lat.thresholds[1] = 128;
		m->lat.above_per_sec[0] = 1.2e8;
		m->lat.above_per_sec[1] = 1.6e7;
		m->snoop.hit_per_sec = 1e5;
		m->snoop.hitm_per_sec = 5e4;
		m->snoop.hitm_scope = "other_core";
		m->snoop.remote.hit_per_sec = 3e5;
		m->snoop.remote.hitm_per_sec = 1.5e5;
		m->off.reads_per_sec = 2e7;
		f->s[i].cpu = ids[i];
		f->s[i].core = cores[i];
		f->s[i].package = pkgs[i];
		f->s[i].ok = true;
		f->s[i].interval_s = 0.5;
		f->s[i].rates = r;
	}
	assert_int_equal(export_init(&f->x, f->s, 2), 0);
	f->x.microarch = "haswell";
	f->x.pmu_table = "haswell";
	f->x.source = "simulator";
	f->x.version = "0.1";
	f->x.interval_s = 0.5;
}

static char *render(const struct export *x, bool om)
{
	char *out = NULL;
	size_t len = 0;

	assert_int_equal(export_render(x, om, &out, &len), 0);
	assert_int_equal(strlen(out), len);
	return out;
}

/* The value of the sample line starting with @prefix, or NAN. */
static double value(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NAN;
}

static void test_integrates_per_cpu(void **state)
{
	struct fixture f;
	char *t;

	(void)state;
	setup(&f);
	export_update(&f.x, &f.pl, f.s, 1000.0);
	f.s[1].ok = false;              /* CPU 1 not read: adds nothing */
	f.s[0].interval_s = 0.25;       /* CPU 0's interval was shorter */
	export_update(&f.x, &f.pl, f.s, 1001.0);
	t = render(&f.x, false);
	assert_true(value(t, "lattop_cycles_total{cpu=\"0\",core=\"0\",package=\"0\"}") == 1.5e9);
	assert_true(value(t, "lattop_cycles_total{cpu=\"1\",core=\"0\",package=\"1\"}") == 1e9);
	assert_true(value(t, "lattop_offcore_outstanding_cycles_total{cpu=\"0\",core=\"0\",package=\"0\"}") == 2.7e9);
	assert_true(value(t, "lattop_load_latency_above_total{cpu=\"0\",core=\"0\",package=\"0\","
			     "threshold_cycles=\"128\"}") == 1.2e7);
	assert_true(value(t, "lattop_snoop_remote_hitm_total{cpu=\"1\",core=\"0\",package=\"1\"}") == 75000);
	assert_true(value(t, "lattop_up") == 1);
	assert_true(value(t, "lattop_last_sample_timestamp_seconds") == 1001.0);
	assert_true(value(t, "lattop_interval_seconds") == 0.5);
	assert_non_null(strstr(t, "lattop_info{microarch=\"haswell\",pmu_table=\"haswell\","
				  "source=\"simulator\",version=\"0.1\",hitm_scope=\"other_core\"} 1\n"));
	free(t);
	/* No CPU read: lattop_up 0, the last sample's time kept. */
	f.s[0].ok = false;
	export_update(&f.x, &f.pl, f.s, 1002.0);
	t = render(&f.x, false);
	assert_true(value(t, "lattop_up") == 0);
	assert_true(value(t, "lattop_last_sample_timestamp_seconds") == 1001.0);
	free(t);
	export_free(&f.x);
}

static void test_absent_not_zero(void **state)
{
	struct fixture f;
	char *t;

	(void)state;
	setup(&f);
	f.pl.reason[M_SNOOP_REMOTE_HIT] = "one package";
	f.pl.reason[M_OFFCORE_OUTSTANDING] = "no occupancy event";
	f.pl.reason[M_LOAD_LATENCY] = "no load-latency facility";
	f.r[0].r[M_INSTRUCTIONS] = NAN;         /* measured, but not this interval */
	export_update(&f.x, &f.pl, f.s, 1.0);
	t = render(&f.x, false);
	assert_null(strstr(t, "lattop_snoop_remote_hit_total"));
	assert_null(strstr(t, "lattop_offcore_outstanding_cycles_total"));
	assert_null(strstr(t, "lattop_load_latency_above_total"));
	assert_non_null(strstr(t, "lattop_snoop_remote_hitm_total{"));
	assert_non_null(strstr(t, "lattop_metric_supported{metric=\"snoop_remote_hit\"} 0\n"));
	assert_non_null(strstr(t, "lattop_metric_supported{metric=\"offcore_outstanding_cycles\"} 0\n"));
	assert_non_null(strstr(t, "lattop_metric_supported{metric=\"load_latency_above\"} 0\n"));
	assert_non_null(strstr(t, "lattop_metric_supported{metric=\"offcore_reads\"} 1\n"));
	assert_true(value(t, "lattop_instructions_total{cpu=\"0\",core=\"0\",package=\"0\"}") == 0);
	assert_true(value(t, "lattop_instructions_total{cpu=\"1\",core=\"0\",package=\"1\"}") == 1.5e9);
	free(t);
	export_free(&f.x);
}

static void test_thresholds_change(void **state)
{
	struct fixture f;
	char *t;

	(void)state;
	setup(&f);
	export_update(&f.x, &f.pl, f.s, 1.0);
	/* New thresholds 16 and 64: 16 goes on counting, 128 is no longer shown. */
	f.pl.thresholds[1] = 64;
	for (int i = 0; i < 2; i++) {
		f.s[i].m.lat.thresholds[1] = 64;
		f.s[i].m.lat.above_per_sec[1] = 4e7;
	}
	export_update(&f.x, &f.pl, f.s, 2.0);
	t = render(&f.x, false);
	assert_true(value(t, "lattop_load_latency_above_total{cpu=\"0\",core=\"0\",package=\"0\","
			     "threshold_cycles=\"16\"}") == 1.2e8);
	assert_true(value(t, "lattop_load_latency_above_total{cpu=\"0\",core=\"0\",package=\"0\","
			     "threshold_cycles=\"64\"}") == 2e7);
	assert_null(strstr(t, "threshold_cycles=\"128\""));
	free(t);
	/* Back to 128: its counter goes on from where it was. */
	f.pl.thresholds[1] = 128;
	for (int i = 0; i < 2; i++) {
		f.s[i].m.lat.thresholds[1] = 128;
		f.s[i].m.lat.above_per_sec[1] = 1.6e7;
	}
	export_update(&f.x, &f.pl, f.s, 3.0);
	t = render(&f.x, false);
	assert_true(value(t, "lattop_load_latency_above_total{cpu=\"1\",core=\"0\",package=\"1\","
			     "threshold_cycles=\"128\"}") == 1.6e7);
	free(t);
	export_free(&f.x);
}

/*
 * Every sample under the TYPE of its family, every family with HELP just
 * before TYPE, no family twice; OpenMetrics: counters' samples are
 * NAME_total under "# TYPE NAME counter", UNIT a suffix, "# EOF" last.
 */
static void check_format(const char *t, bool om)
{
	char family[128] = "", type[32] = "", seen[4096] = " ";
	const char *p = t;
	bool help = false;
	int nfam = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		char line[512];
		size_t n;

		assert_non_null(nl);
		n = (size_t)(nl - p);
		assert_true(n < sizeof(line));
		memcpy(line, p, n);
		line[n] = 0;
		p = nl + 1;
		if (!strncmp(line, "# HELP ", 7)) {
			assert_false(help);
			sscanf(line + 7, "%127s", family);
			help = true;
		} else if (!strncmp(line, "# TYPE ", 7)) {
			char name[128], key[140];

			assert_true(help);
			help = false;
			assert_int_equal(sscanf(line + 7, "%127s %31s", name, type), 2);
			assert_string_equal(name, family);
			snprintf(key, sizeof(key), " %s ", name);
			assert_null(strstr(seen, key));
			strcat(seen, key + 1);
			nfam++;
		} else if (!strncmp(line, "# UNIT ", 7)) {
			char name[128], unit[32], suffix[40];

			assert_true(om);
			assert_int_equal(sscanf(line + 7, "%127s %31s", name, unit), 2);
			assert_string_equal(name, family);
			snprintf(suffix, sizeof(suffix), "_%s", unit);
			assert_string_equal(name + strlen(name) - strlen(suffix), suffix);
		} else if (!strcmp(line, "# EOF")) {
			assert_true(om);
			assert_int_equal(*p, 0);
		} else {
			char want[140];
			size_t wl;

			assert_false(line[0] == '#');
			snprintf(want, sizeof(want), "%s%s", family,
				 om && !strcmp(type, "counter") ? "_total" : "");
			wl = strlen(want);
			assert_true(!strncmp(line, want, wl) && (line[wl] == '{' || line[wl] == ' '));
			if (!om && !strcmp(type, "counter"))
				assert_string_equal(family + strlen(family) - 6, "_total");
		}
	}
	assert_true(nfam >= EXPORT__COUNT + 5);
	if (om)
		assert_non_null(strstr(t, "\n# EOF\n"));
	else
		assert_null(strstr(t, "# EOF"));
}

/* Past EXPORT_MAX_THRESH distinct thresholds, a new one is not shown and the others stay right. */
static void test_thresholds_full(void **state)
{
	struct fixture f;
	char *t;

	(void)state;
	setup(&f);
	for (unsigned k = 0; k < EXPORT_MAX_THRESH; k++) {
		f.pl.thresholds[1] = 1000 + k;
		f.s[0].m.lat.thresholds[1] = f.s[1].m.lat.thresholds[1] = 1000 + k;
		export_update(&f.x, &f.pl, f.s, 1.0);
	}
	/* 16 and 63 of the 1000s fill the table; now 5000, which has no room, and 16. */
	f.pl.thresholds[0] = 5000;
	f.pl.thresholds[1] = 16;
	for (int i = 0; i < 2; i++) {
		f.s[i].m.lat.thresholds[0] = 5000;
		f.s[i].m.lat.thresholds[1] = 16;
		f.s[i].m.lat.above_per_sec[0] = 1;
		f.s[i].m.lat.above_per_sec[1] = 2e6;
	}
	export_update(&f.x, &f.pl, f.s, 2.0);
	t = render(&f.x, false);
	assert_null(strstr(t, "threshold_cycles=\"5000\""));
	/* 16 counted 1.2e8 x 0.5 s in each of the 64 intervals, then 2e6 x 0.5 s. */
	assert_true(value(t, "lattop_load_latency_above_total{cpu=\"0\",core=\"0\",package=\"0\","
			     "threshold_cycles=\"16\"}") == 64 * 6e7 + 1e6);
	free(t);
	export_free(&f.x);
}

static void test_formats(void **state)
{
	struct fixture f;
	char *t, *o;

	(void)state;
	setup(&f);
	export_update(&f.x, &f.pl, f.s, 1.0);
	t = render(&f.x, false);
	o = render(&f.x, true);
	check_format(t, false);
	check_format(o, true);
	assert_non_null(strstr(o, "# TYPE lattop_cycles counter\n# UNIT lattop_cycles cycles\n"));
	assert_non_null(strstr(t, "# TYPE lattop_cycles_total counter\n"));
	assert_null(strstr(t, "# UNIT"));
	{
		/* Both at once: the same two texts. */
		char *t2, *o2;
		size_t tl, ol;

		assert_int_equal(export_render_both(&f.x, &t2, &tl, &o2, &ol), 0);
		assert_string_equal(t2, t);
		assert_string_equal(o2, o);
		assert_int_equal(tl, strlen(t));
		assert_int_equal(ol, strlen(o));
		free(t2);
		free(o2);
	}
	free(t);
	free(o);
	export_free(&f.x);
}

static void test_escaping_and_big_counts(void **state)
{
	struct fixture f;
	char *t;

	(void)state;
	setup(&f);
	f.x.microarch = "a\"b\\c\nd";
	f.r[0].r[M_CYCLES] = 9007199254740990.0;        /* near 2^53 in one 1 s interval */
	f.s[0].interval_s = 1;
	export_update(&f.x, &f.pl, f.s, 1.0);
	t = render(&f.x, false);
	assert_non_null(strstr(t, "microarch=\"a\\\"b\\\\c\\nd\""));
	assert_non_null(strstr(t, "lattop_cycles_total{cpu=\"0\",core=\"0\",package=\"0\"} 9007199254740990\n"));
	free(t);
	export_free(&f.x);
}

/* The HELP text of family lattop_@name in @t, copied to @buf; NULL when it has none. */
static const char *help_of(const char *t, const char *name, char *buf, size_t len)
{
	char head[160];
	const char *p, *nl;

	snprintf(head, sizeof(head), "# HELP lattop_%s ", name);
	p = strstr(t, head);
	if (!p)
		return NULL;
	p += strlen(head);
	nl = strchr(p, '\n');
	assert_non_null(nl);
	assert_true((size_t)(nl - p) < len);
	memcpy(buf, p, (size_t)(nl - p));
	buf[nl - p] = 0;
	return buf;
}

/*
 * What a column counts: its help up to where it says how often, or adds
 * to what ("loads retired per second": "loads retired"; "reads or loads
 * served by ... in another core (Atoms: another module)": up to " (").
 */
static void subject_of(const char *help, char *buf, size_t len)
{
	static const char *const ends[] = { " per second", " (", ", ", ": ", "; " };
	size_t n = strlen(help);

	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
		const char *e = strstr(help, ends[k]);

		if (e && (size_t)(e - help) < n)
			n = (size_t)(e - help);
	}
	assert_true(n > 0 && n < len);
	memcpy(buf, help, n);
	buf[n] = 0;
}

/*
 * Every counter family against the column it sums, so that neither is
 * edited without the other: a family's HELP says what it counts in its
 * column's words (the column's help, or words of its own that begin as
 * the column's: "Loads retired." for "loads retired per second"); the
 * column is a rate per second of what the family counts, its unit naming
 * that ("reads/s": HELP "Reads or loads ...", "Demand data reads ...") and
 * the family's UNIT, if any, that and nothing else; the family's name is
 * the column's JSON path ("snoop.remote.hit_per_sec": snoop_remote_hit)
 * or its key ("loads_per_sec": loads).  The raw counters, which no column
 * shows alone, are the four listed here.
 */
static void test_families_match_columns(void **state)
{
	static const enum export_counter raw[] = {
		EXPORT_CYCLES, EXPORT_REF_CYCLES, EXPORT_INSTRUCTIONS, EXPORT_OFFCORE_OUTSTANDING,
	};
	struct fixture f;
	char *t;
	int nraw = 0, ncol = 0;

	(void)state;
	setup(&f);
	export_update(&f.x, &f.pl, f.s, 1.0);       /* 0.5 s of each rate */
	t = render(&f.x, false);
	for (int e = 0; e < EXPORT__COUNT; e++) {
		const struct export_family *fam = &export_families[e];
		char total[80], sample[160], buf[512], subj[256], what[32], path[128], stem[64];
		const char *help, *p;
		const struct column *c;
		bool is_raw = false;
		double want;

		snprintf(total, sizeof(total), "%s_total", fam->name);
		/* It sums what it names: the column's value, or the metric's rate (CPU 0, threshold 16). */
		snprintf(sample, sizeof(sample), "lattop_%s{cpu=\"0\",core=\"0\",package=\"0\"%s}", total,
			 e == EXPORT_LOAD_LATENCY_ABOVE ? ",threshold_cycles=\"16\"" : "");
		if (fam->col < COL__COUNT)
			want = columns_value(&columns[fam->col], &f.s[0].m, 0);
		else
			want = fam->rate < M__COUNT ? f.r[0].r[fam->rate] : NAN;
		assert_true(value(t, sample) == round(0.5 * want));
		help = help_of(t, total, buf, sizeof(buf));
		if (!help)
			print_error("lattop_%s has no HELP\n", total);
		assert_non_null(help);
		/* One sentence, nothing the text format would have to escape. */
		assert_true(help[0] >= 'A' && help[0] <= 'Z');
		assert_int_equal(help[strlen(help) - 1], '.');
		assert_null(strchr(help, '\\'));
		/* The families it names exist ("lattop_offcore_reads_total", "lattop_info's"). */
		for (p = strstr(help, "lattop_"); p; p = strstr(p + 1, "lattop_")) {
			char name[80], type[100];
			size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");

			assert_true(n < sizeof(name));
			memcpy(name, p, n);
			name[n] = 0;
			snprintf(type, sizeof(type), "# TYPE %s ", name);
			assert_non_null(strstr(t, type));
		}
		for (size_t k = 0; k < sizeof(raw) / sizeof(raw[0]); k++)
			is_raw |= raw[k] == (enum export_counter)e;
		if (fam->col == COL__COUNT) {
			if (!is_raw)
				print_error("lattop_%s sums no column\n", total);
			assert_true(is_raw);
			assert_true(fam->rate < M__COUNT);
			assert_non_null(fam->help);
			assert_null(fam->more);
			nraw++;
			continue;
		}
		assert_false(is_raw);
		assert_int_equal(fam->rate, M__COUNT);
		assert_true(fam->col < COL__COUNT);
		c = &columns[fam->col];
		ncol++;
		/* A stored field (the exporter reads it directly), a list for the thresholds' family. */
		assert_null(c->calc);
		assert_int_equal(c->kind, e == EXPORT_LOAD_LATENCY_ABOVE ? CK_LIST : CK_NUM);

		/* Units: the column is a rate of what the family counts. */
		assert_non_null(c->unit);
		p = strstr(c->unit, "/s");
		assert_true(p && p[2] == 0 && p > c->unit && (size_t)(p - c->unit) < sizeof(what));
		memcpy(what, c->unit, (size_t)(p - c->unit));
		what[p - c->unit] = 0;
		if (fam->unit)
			assert_string_equal(fam->unit, what);

		/* HELP: what the column says is counted, and that is what its unit names. */
		subject_of(c->help, subj, sizeof(subj));
		if (!(tolower((unsigned char)help[0]) == subj[0] &&
		      !strncmp(help + 1, subj + 1, strlen(subj) - 1)))
			print_error("lattop_%s's HELP \"%s\" does not begin as column %s's help: \"%s\"\n",
				    total, help, c->name, subj);
		assert_int_equal(tolower((unsigned char)help[0]), subj[0]);
		assert_int_equal(strncmp(help + 1, subj + 1, strlen(subj) - 1), 0);
		if (!strstr(subj, what))
			print_error("column %s counts \"%s\" in %s\n", c->name, subj, c->unit);
		assert_non_null(strstr(subj, what));
		if (!fam->help) {
			/* The column's help, as a sentence. */
			assert_int_equal(strncmp(help + 1, c->help + 1, strlen(c->help) - 1), 0);
			assert_true(help[strlen(c->help)] == '.' || help[strlen(c->help)] == ';');
		}
		if (fam->more)
			assert_non_null(strstr(help, fam->more));

		/* The name: the column's JSON path or its key, the rate's _per_sec dropped. */
		columns_csv_head(c, 16, path, sizeof(path));
		p = strstr(path, "_per_sec");
		assert_non_null(p);
		path[p - path] = 0;
		for (char *q = path; *q; q++)
			if (*q == '.')
				*q = '_';
		p = strstr(c->key, "_per_sec");
		assert_true(p && (size_t)(p - c->key) < sizeof(stem));
		memcpy(stem, c->key, (size_t)(p - c->key));
		stem[p - c->key] = 0;
		if (strcmp(fam->name, path) && strcmp(fam->name, stem))
			print_error("lattop_%s: not column %s's path %s nor its key %s\n", total, c->name,
				    path, stem);
		assert_true(!strcmp(fam->name, path) || !strcmp(fam->name, stem));
	}
	assert_int_equal(nraw, sizeof(raw) / sizeof(raw[0]));
	assert_int_equal(ncol, EXPORT__COUNT - nraw);
	free(t);
	export_free(&f.x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integrates_per_cpu),
		cmocka_unit_test(test_absent_not_zero),
		cmocka_unit_test(test_thresholds_change),
		cmocka_unit_test(test_thresholds_full),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_escaping_and_big_counts),
		cmocka_unit_test(test_families_match_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
