/*
 * test_columns.c: the table of output fields (output/columns.c) and what
 * must agree with it: names unique and usable on a command line, every
 * field somewhere and with help; the csv header, the text header and the
 * JSON keys of report_write() in the table's order and sections; its
 * strings escaped as report_json_str() escapes them; the man
 * page's COLUMNS saying each column's headers, csv key and help as the
 * table does; --show/--hide lists parsed, and a bad name refused with the
 * valid ones.
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

#include "output/columns.h"
#include "output/report.h"

static const unsigned thr[] = { 16, 128 };

static void test_table(void **state)
{
	(void)state;
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		bool somewhere = c->text.head || c->screen.head || (c->flags & (COL_F_CSV | COL_F_JSON));

		assert_true(somewhere);
		assert_non_null(c->help);
		assert_true(strlen(c->help) > 5);
		assert_true(!(c->flags & (COL_F_CSV | COL_F_JSON)) || c->key);
		/* A field only JSON has is not chosen; every other one is. */
		assert_true(!!c->name == !!(c->text.head || c->screen.head || (c->flags & COL_F_CSV)));
		for (const char *p = c->name; p && *p; p++)
			assert_true(islower((unsigned char)*p) || *p == '_');
		/* JSON keys are copied unescaped (report.c, jb_key): identifiers only. */
		for (const char *p = c->key; p && *p; p++)
			assert_true(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_');
		for (const char *p = col_sections[c->sect].key; p && *p; p++)
			assert_true(islower((unsigned char)*p) || *p == '_');
		for (int j = 0; j < i; j++) {
			const struct column *d = &columns[j];

			if (c->name && d->name)
				assert_string_not_equal(c->name, d->name);
			if (c->key && d->key && c->sect == d->sect)
				assert_string_not_equal(c->key, d->key);
		}
		/* A list's headers name the threshold; no other header has a %. */
		if (c->text.head && c->kind != CK_LIST)
			assert_null(strchr(c->text.head, '%'));
		if (c->kind == CK_LIST && c->text.head)
			assert_non_null(strstr(c->text.head, "%u"));
		/*
		 * Left out of text and csv unless --show names them: csv and JSON
		 * have them, the screen marks its estimates instead, and the help
		 * says so.
		 */
		if (c->flags & COL_F_OPT) {
			assert_true(columns_optional(COL_OUT_TEXT) & COL_BIT(i));
			assert_true((c->flags & COL_F_CSV) && (c->flags & COL_F_JSON));
			assert_null(c->screen.head);
			assert_non_null(strstr(c->help, "only with --show"));
		} else {
			assert_false(columns_optional(COL_OUT_TEXT) & COL_BIT(i));
		}
	}
}

static void fill(struct metrics *m, double k)
{
	memset(m, 0, sizeof(*m));
	m->ghz = 2.4;
	m->ipc = 1.2 * k;
	m->lat.supported = true;
	m->lat.loads_per_sec = 4e8 * k;
	m->lat.tagged_per_sec = 8e6 * k;
	m->lat.nthresh = 2;
	for (int i = 0; i < 2; i++) {
		m->lat.thresholds[i] = thr[i];
		m->lat.above_share[i] = 0.5 / (i + 1);
		m->lat.above_per_sec[i] = 2e8 * k / (i + 1);
	}
	m->lat.mean_cycles_min = 20;
	m->lat.mean_cycles_max = 22;
	m->lat.mean_cycles_est = 21;
	m->snoop.supported = true;
	m->snoop.hit_per_sec = 1e5 * k;
	m->snoop.hitm_per_sec = 5e4 * k;
	m->snoop.hit_scope = m->snoop.hitm_scope = "other_core";
	m->snoop.remote.supported = true;
	m->snoop.remote.hit_per_sec = 3e5;
	m->snoop.remote.hitm_per_sec = 1e5;
	m->off.supported = true;
	m->off.reads_per_sec = 2e7;
	m->off.avg_latency_cycles = 180;
	m->off.avg_latency_ns = 75;
}

/* report_write() of two CPUs and the total in @fmt, with @hidden left out, into @out. */
static void write_report(enum report_format fmt, col_set hidden, char *out, size_t len)
{
	static struct row c[2];
	static struct cpu_desc d;
	struct report r = { 0 };
	FILE *f = fmemopen(out, len, "w");

	assert_non_null(f);
	d.uarch = uarch_supported[0];
	for (int i = 0; i < 2; i++) {
		c[i].cpu = i;
		c[i].core = 0;
		c[i].package = i;
		c[i].ok = true;
		fill(&c[i].m, i + 1);
	}
	r.source = "simulator";
	r.desc = &d;
	r.interval_s = 1;
	r.time = 1700000000;
	r.ncpu = 2;
	r.cpu = c;
	r.hidden = hidden;
	fill(&r.total, 3);
	assert_int_equal(report_write(f, fmt, &r, true), 0);
	fclose(f);
}

/* The csv header: each field's section.key, lists once per threshold, in the table's order. */
static void test_csv_header(void **state)
{
	static char out[1 << 16];
	char want[4096] = "", *nl;

	(void)state;
	write_report(FORMAT_CSV, 0, out, sizeof(out));
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		const char *sect = c->sect == CS_REMOTE ? "snoop.remote." :
				   c->sect == CS_NONE ? "" : NULL;

		if (!(c->flags & COL_F_CSV))
			continue;
		if (!sect)
			sect = c->sect == CS_LATENCY ? "load_latency." :
			       c->sect == CS_SNOOP ? "snoop." : "offcore.";
		for (int k = 0; k < (c->kind == CK_LIST ? 2 : 1); k++) {
			size_t n = strlen(want);

			if (c->kind == CK_LIST)
				snprintf(want + n, sizeof(want) - n, "%s%s%s.%u", n ? "," : "", sect, c->key,
					 thr[k]);
			else
				snprintf(want + n, sizeof(want) - n, "%s%s%s", n ? "," : "", sect, c->key);
		}
	}
	nl = strchr(out, '\n');
	assert_non_null(nl);
	*nl = 0;
	assert_string_equal(out, want);
}

/* The text header: the text headers of the table in its order, lists once per threshold. */
static void test_text_header(void **state)
{
	static char out[1 << 16];
	char want[1024] = "", got[1024] = "", *line;

	(void)state;
	write_report(FORMAT_TEXT, 0, out, sizeof(out));
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];

		for (int k = 0; c->text.head && k < (c->kind == CK_LIST ? 2 : 1); k++) {
			size_t n = strlen(want);

			want[n++] = ' ';
			snprintf(want + n, sizeof(want) - n, c->text.head, thr[k]);
		}
	}
	line = strchr(out, '\n') + 1;
	*strchr(line, '\n') = 0;
	for (char *w = strtok(line, " "); w; w = strtok(NULL, " ")) {
		size_t n = strlen(got);

		snprintf(got + n, sizeof(got) - n, " %s", w);
	}
	assert_string_equal(got, want);
}

/* Each JSON field appears as "key": inside its section's object, in the table's order. */
static void test_json_keys(void **state)
{
	static char out[1 << 16];
	const char *total, *from;

	(void)state;
	write_report(FORMAT_JSON, 0, out, sizeof(out));
	total = strstr(out, "\"total\":{");
	assert_non_null(total);
	from = total;
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		char key[96];
		const char *at, *sect = total;

		if (!(c->flags & COL_F_JSON) || c->kind == CK_ID)
			continue;
		for (enum col_section s = c->sect; s != CS_NONE; s = col_sections[s].parent) {
			snprintf(key, sizeof(key), "\"%s\":{", col_sections[s].key);
			assert_non_null(strstr(total, key));
		}
		if (c->sect != CS_NONE) {
			snprintf(key, sizeof(key), "\"%s\":{", col_sections[c->sect].key);
			sect = strstr(total, key);
		}
		snprintf(key, sizeof(key), "\"%s\":", c->key);
		at = strstr(from > sect ? from : sect, key);
		if (!at)
			print_error("JSON key %s of %s not where the table puts it\n", c->key,
				    c->name ? c->name : "(JSON only)");
		assert_non_null(at);
		from = at;
	}
	/* The CPUs' objects start with their identity, in the table's order. */
	assert_non_null(strstr(out, "\"cpus\":[{\"cpu\":0,\"core\":0,\"package\":0,\"online\":true,\"ghz\":"));
}

/*
 * A string is escaped alike by both JSON writers: report_json_str() (the
 * source) and the snapshot's buffer (an error, the note); a long one is cut
 * there, never past its room.
 */
static void test_json_strings(void **state)
{
	static const char s[] = "a\"b\\c\nd\x01" "e\x1f/\xc3\xa9";
	static const char want[] = "\"a\\\"b\\\\c\\nd\\u0001e\\u001f/\xc3\xa9\"";
	static char out[1 << 16], got[64], at[64], ctl[3000], wide[3000];
	static struct row c[2];
	static struct cpu_desc d;
	struct report r = { 0 };
	const char *e = out;
	FILE *f;

	(void)state;
	f = fmemopen(got, sizeof(got), "w");
	assert_non_null(f);
	report_json_str(f, s);
	fclose(f);
	assert_string_equal(got, want);

	memset(ctl, '\x02', sizeof(ctl) - 1);
	memset(wide, 'x', sizeof(wide) - 1);
	d.uarch = uarch_supported[0];
	for (int i = 0; i < 2; i++) {
		c[i].cpu = i;
		c[i].ok = false;
		c[i].error = i ? ctl : wide;
	}
	r.source = s;
	r.desc = &d;
	r.interval_s = 1;
	r.ncpu = 2;
	r.cpu = c;
	r.note = s;
	fill(&r.total, 1);
	f = fmemopen(out, sizeof(out), "w");
	assert_non_null(f);
	assert_int_equal(report_write(f, FORMAT_JSON, &r, true), 0);
	fclose(f);
	snprintf(at, sizeof(at), "{\"source\":%s,", want);
	assert_int_equal(strncmp(out, at, strlen(at)), 0);
	snprintf(at, sizeof(at), ",\"note\":%s}\n", want);
	assert_non_null(strstr(out, at));
	/* Cut to their room, never inside an escape. */
	for (int i = 0; i < 2; i++) {
		const char *q;

		e = strstr(e, "\"error\":\"");
		assert_non_null(e);
		e += 9;
		q = strchr(e, '"');
		assert_non_null(q);
		assert_true(q - e > 900 && q - e < 1024);
		for (const char *p = e; p < q; p += i ? 6 : 1)
			assert_int_equal(strncmp(p, i ? "\\u0002" : "x", i ? 6 : 1), 0);
	}
}

/*
 * Each CPU's thresholds as its own: the text of a list is kept from one CPU
 * to the next (jb_thresholds), and must follow a change of list, length
 * or none at all, within a snapshot and from one to the next.
 */
static void test_json_thresholds(void **state)
{
	static const unsigned lists[2][4][3] = {
		{ { 8, 16, 32 }, { 0 }, { 4, 9 }, { 8, 16, 32 } },
		{ { 8, 16, 31 }, { 6 }, { 7 }, { 0 } },
	};
	static const int lens[2][4] = { { 3, 0, 2, 3 }, { 3, 1, 1, 0 } };
	static const char *const want[2][4] = {
		{ "[8,16,32]", "[]", "[4,9]", "[8,16,32]" },
		{ "[8,16,31]", "[6]", "[7]", "[]" },
	};
	static char out[1 << 16];
	static struct row c[3];
	static struct cpu_desc d;
	struct report r = { 0 };

	(void)state;
	d.uarch = uarch_supported[0];
	r.source = "test";
	r.desc = &d;
	r.interval_s = 1;
	r.ncpu = 3;
	r.cpu = c;
	for (int pass = 0; pass < 2; pass++) {
		const char *at = out;
		FILE *f;

		for (int i = 0; i < 4; i++) {
			struct metrics *m = i < 3 ? &c[i].m : &r.total;

			fill(m, 1);
			m->lat.nthresh = lens[pass][i];
			memcpy(m->lat.thresholds, lists[pass][i], sizeof(lists[pass][i]));
			if (i < 3) {
				c[i].cpu = i;
				c[i].ok = true;
			}
		}
		f = fmemopen(out, sizeof(out), "w");
		assert_non_null(f);
		assert_int_equal(report_write(f, FORMAT_JSON, &r, true), 0);
		fclose(f);
		for (int i = 0; i < 4; i++) {
			char key[64];

			snprintf(key, sizeof(key), "\"thresholds\":%s,", want[pass][i]);
			at = strstr(at, "\"thresholds\":");
			assert_non_null(at);
			assert_int_equal(strncmp(at, key, strlen(key)), 0);
			at++;
		}
	}
}

/* --hide leaves a column out of text and csv, never out of JSON. */
static void test_hidden(void **state)
{
	static char out[1 << 16];
	char *nl;
	int fields = 1;

	(void)state;
	write_report(FORMAT_CSV, COL_BIT(COL_TIME) | COL_BIT(COL_ABOVE) | COL_BIT(COL_OFF_NS),
		     out, sizeof(out));
	nl = strchr(out, '\n');
	*nl = 0;
	for (char *p = out; *p; p++)
		fields += *p == ',';
	/*
	 * 29 fields, 2 thresholds: time, the two above_per_sec and avg_latency_ns
	 * left out.  (The optional ones are there: their default is options.c's.)
	 */
	assert_int_equal(fields, 29 - 4);
	assert_int_equal(strncmp(out, "cpu,core,package,ghz,", 21), 0);
	assert_null(strstr(out, "above_per_sec."));
	assert_non_null(strstr(out, "above_per_sec_stderr.16"));
	assert_null(strstr(out, "avg_latency_ns"));
	assert_non_null(strstr(out, "above_share.128"));
	/* Every row as many fields as the header. */
	for (char *l = nl + 1; *l; l = strchr(l, '\n') + 1) {
		int commas = 0;

		for (char *p = l; *p != '\n'; p++)
			commas += *p == ',';
		assert_int_equal(commas, fields - 1);
	}
	write_report(FORMAT_TEXT, COL_BIT(COL_CPU) | COL_BIT(COL_MEAN) | columns_optional(COL_OUT_TEXT), out,
		     sizeof(out));
	assert_non_null(strstr(out, "\nCore    GHz"));
	assert_null(strstr(out, "   ~Mean   Hit/s"));
	assert_non_null(strstr(out, "  >128   Hit/s"));
	assert_non_null(strstr(out, "\n       2.40  3.60"));     /* the total: no CPU cell */
	write_report(FORMAT_JSON, COL_ALL, out, sizeof(out));
	assert_non_null(strstr(out, "\"avg_latency_ns\":75"));
}

/*
 * The mean's cell: the middle, the range where the bounds are far apart,
 * the lower bound alone where there is no upper one; bounds rounded
 * outward, so that the cell never excludes a mean the bounds hold.
 */
static void test_mean_cell(void **state)
{
	const struct column *c = &columns[COL_MEAN];
	struct metrics m;
	char b[32];

	(void)state;
	fill(&m, 1);
	columns_cell(c, &c->text, &m, 0, b, sizeof(b));
	assert_string_equal(b, "21");
	m.lat.mean_cycles_min = 7.9;
	m.lat.mean_cycles_max = 20.2;
	m.lat.mean_cycles_est = (7.9 + 20.2) / 2;
	columns_cell(c, &c->text, &m, 0, b, sizeof(b));
	assert_string_equal(b, "7-21");
	columns_cell(c, &c->screen, &m, 0, b, sizeof(b));
	assert_string_equal(b, "7.9-21");
	/* Loads slower than the top threshold: no upper bound, no middle. */
	m.lat.mean_cycles_max = m.lat.mean_cycles_est = NAN;
	columns_cell(c, &c->text, &m, 0, b, sizeof(b));
	assert_string_equal(b, ">=7");
	columns_cell(c, &c->screen, &m, 0, b, sizeof(b));
	assert_string_equal(b, ">=7.9");
	m.lat.mean_cycles_min = 513;
	columns_cell(c, &c->text, &m, 0, b, sizeof(b));
	assert_string_equal(b, ">=513");
	/* The screen sorts it by that lower bound, not last as a number not measured. */
	assert_true(columns_sort_value(c, &m, 0) == 513);
	/* Nothing measured: "-" as ever. */
	m.lat.mean_cycles_min = NAN;
	columns_cell(c, &c->text, &m, 0, b, sizeof(b));
	assert_string_equal(b, "-");
}

/* Fold runs of white space to one blank. */
static void fold(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++)
		if (!isspace((unsigned char)*p))
			*o++ = *p;
		else if (o > s && o[-1] != ' ')
			*o++ = ' ';
	*o = 0;
}

/* The man page's COLUMNS: ".It Cm NAME" and "text H, screen H, csv K: help." for each. */
static void test_man(void **state)
{
	FILE *f = fopen("man/lattop.1", "r");
	static char man[1 << 20];
	size_t n;

	(void)state;
	if (!f)
		skip();
	n = fread(man, 1, sizeof(man) - 1, f);
	fclose(f);
	man[n] = 0;
	fold(man);
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		char want[1024], h[96];
		size_t o;

		if (!c->name)
			continue;
		o = (size_t)snprintf(want, sizeof(want), ".It Cm %s ", c->name);
		if (c->text.head) {
			snprintf(h, sizeof(h), "%s", c->text.head);
			if (strstr(h, "%u"))
				memcpy(strstr(h, "%u"), "N", 2);
			o += (size_t)snprintf(want + o, sizeof(want) - o, "text %s, ", h);
		}
		if (c->screen.head) {
			snprintf(h, sizeof(h), c->kind == CK_LIST ? ">N" : "%s", c->screen.head);
			o += (size_t)snprintf(want + o, sizeof(want) - o, "screen %s, ", h);
		}
		if (c->flags & COL_F_CSV) {
			columns_csv_head(c, 0, h, sizeof(h));
			if (c->kind == CK_LIST)
				strcpy(h + strlen(h) - 1, "N");
			o += (size_t)snprintf(want + o, sizeof(want) - o, "csv %s, ", h);
		}
		snprintf(want + o - 2, sizeof(want) - o + 2, ": %s.", c->help);
		if (!strstr(man, want))
			print_error("not in man/lattop.1: %s\n", want);
		assert_non_null(strstr(man, want));
	}
}

static void test_parse(void **state)
{
	char err[1024];
	col_set s;

	(void)state;
	assert_int_equal(columns_parse("cpu,hitm", &s, err, sizeof(err)), 0);
	assert_true(s == (COL_BIT(COL_CPU) | COL_BIT(COL_HITM)));
	assert_int_equal(columns_parse("hitm,bogus", &s, err, sizeof(err)), -1);
	assert_int_equal(strncmp(err, "no column 'bogus'; the columns: time,cpu,", 41), 0);
	assert_null(strchr(err, '\n'));
	for (int i = 0; i < COL__COUNT; i++)
		if (columns[i].name)
			assert_non_null(strstr(err, columns[i].name));
	assert_null(strstr(err, "thresholds"));         /* JSON only: not a column to choose */
	assert_int_equal(columns_parse("", &s, err, sizeof(err)), -1);
	assert_int_equal(columns_parse("cpu,", &s, err, sizeof(err)), -1);
	assert_int_equal(columns_parse("cpu,hitm", &s, err, sizeof(err)), 0);
	/* The names the outputs print, in any case, name the same columns. */
	assert_int_equal(columns_parse("CPU,HITM/s,lat(CYC),>N,snoop.remote.hit_per_sec,LOADS",
				       &s, err, sizeof(err)), 0);
	assert_true(s == (COL_BIT(COL_CPU) | COL_BIT(COL_HITM) | COL_BIT(COL_OFF_CYCLES) |
			  COL_BIT(COL_ABOVE) | COL_BIT(COL_RMT_HIT) | COL_BIT(COL_LOADS)));
	assert_int_equal(columns_parse(">128,se>16,load_latency.above_share.32", &s, err,
				       sizeof(err)), 0);
	assert_true(s == (COL_BIT(COL_ABOVE) | COL_BIT(COL_ABOVE_SE) | COL_BIT(COL_ABOVE_SHARE)));
	assert_int_equal(columns_parse(">", &s, err, sizeof(err)), -1);
	assert_int_equal(columns_parse(">12x", &s, err, sizeof(err)), -1);
}

/*
 * One vocabulary: a column printed by text and the screen has one header,
 * and each header it is printed with names it for --show.
 */
static void test_one_name(void **state)
{
	(void)state;
	for (int i = 0; i < COL__COUNT; i++) {
		const struct column *c = &columns[i];
		char csv[96];

		if (!c->name)
			continue;
		if (c->text.head && c->screen.head && strcmp(c->text.head, c->screen.head))
			print_error("%s: text %s, screen %s\n", c->name, c->text.head,
				    c->screen.head);
		assert_false(c->text.head && c->screen.head && strcmp(c->text.head, c->screen.head));
		if (c->text.head && !strstr(c->text.head, "%u"))
			assert_ptr_equal(columns_by_name(c->text.head), c);
		if (c->screen.head && !strstr(c->screen.head, "%u"))
			assert_ptr_equal(columns_by_name(c->screen.head), c);
		columns_csv_head(c, 64, csv, sizeof(csv));
		if (c->flags & COL_F_CSV)
			assert_ptr_equal(columns_by_name(csv), c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_csv_header),
		cmocka_unit_test(test_text_header),
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_json_thresholds),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_mean_cell),
		cmocka_unit_test(test_man),
		cmocka_unit_test(test_one_name),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
