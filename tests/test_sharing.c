/*
 * test_sharing.c: the contended lines (struct sharing_frame) in the text
 * report and in recordings, with frames filled by hand: the text table
 * lists the costliest lines first, ten at most, with the counts of the
 * interval, the Phys column only where a physical address is known, and
 * says why when the lines are not measured; a recording gives every field
 * of every frame back bit for bit (a frame without lines stays without),
 * and a version-2 recording still reads, without lines; a HITM rate that
 * is a lower bound reads >=N; the man page
 * names every column with its help.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cpu/uarch.h"
#include "output/columns.h"
#include "output/report.h"
#include "record/record.h"

static struct cpu_desc desc;
static struct row cpu[1];
static char dir[] = "/tmp/test_sharing.XXXXXX";

static void setup_desc(void)
{
	memset(&desc, 0, sizeof(desc));
	snprintf(desc.id.vendor, sizeof(desc.id.vendor), "GenuineIntel");
	snprintf(desc.id.brand, sizeof(desc.id.brand), "test");
	desc.id.family = 6;
	desc.id.model = 60;
	desc.uarch = uarch_by_name("haswell");
	desc.supported = true;
	memset(cpu, 0, sizeof(cpu));
	cpu[0].ok = true;
	cpu[0].nthreads = 1;
	cpu[0].m.lat.reason = cpu[0].m.snoop.reason = cpu[0].m.snoop.remote.reason =
		cpu[0].m.off.reason = "not here";
}

/* Line @i of @n: HITM/s rising with @i, so the last is the costliest. */
static void fill_line(struct sharing_line *l, int i)
{
	memset(l, 0, sizeof(*l));
	l->addr = 0x7f0000000000ull + 64ull * (unsigned)i;
	l->phys = i == 3 ? 0xabc0ull : 0;
	l->hitm_per_sec = 1000.0 * (i + 1) + 0.25;
	l->remote_hitm_per_sec = i % 2 ? 0.1 * i : NAN;
	l->loads_per_sec = 3e6 / (i + 1);
	l->stores_per_sec = i * 7.5;
	l->mean_latency_cycles = i == 2 ? NAN : 100.0 + i / 3.0;
	l->verdict = (enum sharing_verdict)(i % 3);
	l->nthreads = i + 1;
	l->ncpus = i + 2;
	l->node = i % 2 ? -1 : i;
	l->nprocs = i % 5;
	for (int p = 0; p < l->nprocs && p < SHARING_PROCS; p++) {
		l->procs[p].pid = 100 * i + p;
		snprintf(l->procs[p].comm, sizeof(l->procs[p].comm), "proc%d-%d", i % 100, p % 10);
	}
	l->nwords = i % (SHARING_WORDS + 1);
	for (int w = 0; w < l->nwords; w++) {
		struct sharing_word *x = &l->words[w];

		x->offset = (unsigned)(8 * w);
		x->reads = w * 1.5;
		x->writes = w % 2 ? 3.25 : 0;
		x->ntids = w % (SHARING_TIDS + 2);
		for (int t = 0; t < x->ntids && t < SHARING_TIDS; t++)
			x->tids[t] = 1000 * i + t;
		x->top_ip = 0x400000ull + (unsigned)w;
		snprintf(x->symbol, sizeof(x->symbol), w % 2 ? "fn%d+0x%x" : "", w, w);
	}
	l->top_ip = i ? 0x401000ull + (unsigned)i : 0;
	if (i % 2)
		snprintf(l->top_symbol, sizeof(l->top_symbol), "hot_%d+0x10", i);
}

static void fill_frame(struct sharing_frame *fr, int n)
{
	memset(fr, 0, sizeof(*fr));
	fr->supported = true;
	fr->interval_s = 1;
	fr->samples = 4321;
	fr->lost = 12;
	fr->throttled = 3;
	fr->period = 2003;
	fr->nlines = n;
	for (int i = 0; i < n; i++)
		fill_line(&fr->line[i], i);
}

static char *text_of(const struct sharing_frame *fr)
{
	struct report r = { .source = "perf", .desc = &desc, .interval_s = 1, .time = 1795348800,
			    .ncpu = 1, .cpu = cpu, .total = cpu[0].m, .sharing = fr };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_write(f, FORMAT_TEXT, &r, true), 0);
	fclose(f);
	return buf;
}

static void test_text(void **state)
{
	static struct sharing_frame fr;
	char *t, *p, want[64];
	int rows = 0;

	(void)state;
	fill_frame(&fr, 14);
	t = text_of(&fr);
	p = strstr(t, "contended lines: 4321 samples, 12 lost, 3 throttled in 1.00 s\n");
	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	assert_true(!strncmp(p, "Address", 7));
	assert_non_null(strstr(p, " Phys "));
	assert_non_null(strstr(p, "HITM/s"));
	/* The costliest first: line 13 (14.0k HITM/s), then 12..4, ten in all. */
	for (char *q = strchr(p, '\n') + 1; *q; q = strchr(q, '\n') + 1) {
		if (strncmp(q, "0x7f", 4))
			break;
		snprintf(want, sizeof(want), "0x%llx ", 0x7f0000000000ull + 64ull * (unsigned)(13 - rows));
		assert_true(!strncmp(q, want, strlen(want)));
		rows++;
	}
	assert_int_equal(rows, 10);
	/* The cells: verdict, process, symbol or address, "-" for what is unknown. */
	assert_non_null(strstr(p, "0x7f0000000340 -"));       /* line 13: no physical address */
	assert_non_null(strstr(p, "hot_13+0x10"));
	assert_non_null(strstr(p, "1300 proc13-0 +2"));
	assert_non_null(strstr(p, "0x40100c"));                /* line 12: no symbol, its address */
	free(t);

	/*
	 * A lower bound reads >=N in both HITM columns, nowhere else; not
	 * measured stays "-" (line 0's RHITM).
	 */
	fill_frame(&fr, 2);
	t = text_of(&fr);
	assert_null(strstr(t, ">="));
	free(t);
	fr.hitm_lower_bound = true;
	t = text_of(&fr);
	assert_non_null(strstr(t, "0x7f0000000040  >=2.0k    >=0.1 "));
	assert_non_null(strstr(t, "0x7f0000000000  >=1.0k        - "));
	for (p = strstr(t, "Address"), rows = 0; (p = strstr(p, ">=")); p++)
		rows++;
	assert_int_equal(rows, 3);
	free(t);
	fr.hitm_lower_bound = false;

	/* No physical address anywhere: no Phys column. */
	fill_frame(&fr, 2);
	t = text_of(&fr);
	assert_null(strstr(t, " Phys "));
	assert_non_null(strstr(t, "0x7f0000000040 "));
	free(t);

	fr.nlines = 0;
	t = text_of(&fr);
	assert_non_null(strstr(t, "contended lines: none; 4321 samples, 12 lost, 3 throttled"));
	assert_null(strstr(t, "Address"));
	free(t);

	memset(&fr, 0, sizeof(fr));
	snprintf(fr.reason, sizeof(fr.reason), "no PEBS buffer without the kernel");
	t = text_of(&fr);
	assert_non_null(strstr(t, "contended lines: not measured: no PEBS buffer without the kernel\n"));
	free(t);

	/* Not sampled: nothing said. */
	t = text_of(NULL);
	assert_null(strstr(t, "contended lines"));
	free(t);
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

/* Every field of @b as in @a (the names and lists as far as they are held). */
static void same_frame(const struct sharing_frame *a, const struct sharing_frame *b)
{
	assert_int_equal(a->supported, b->supported);
	assert_int_equal(a->hitm_lower_bound, b->hitm_lower_bound);
	assert_string_equal(a->reason, b->reason);
	assert_true(a->samples == b->samples && a->lost == b->lost &&
		    a->throttled == b->throttled && a->period == b->period);
	assert_true(same(a->interval_s, b->interval_s));
	assert_int_equal(a->nlines, b->nlines);
	for (int i = 0; i < a->nlines; i++) {
		const struct sharing_line *x = &a->line[i], *y = &b->line[i];

		assert_true(x->addr == y->addr && x->phys == y->phys && x->top_ip == y->top_ip);
		assert_true(same(x->hitm_per_sec, y->hitm_per_sec));
		assert_true(same(x->remote_hitm_per_sec, y->remote_hitm_per_sec));
		assert_true(same(x->loads_per_sec, y->loads_per_sec));
		assert_true(same(x->stores_per_sec, y->stores_per_sec));
		assert_true(same(x->mean_latency_cycles, y->mean_latency_cycles));
		assert_int_equal(x->verdict, y->verdict);
		assert_int_equal(x->nthreads, y->nthreads);
		assert_int_equal(x->ncpus, y->ncpus);
		assert_int_equal(x->node, y->node);
		assert_int_equal(x->nprocs, y->nprocs);
		for (int p = 0; p < x->nprocs && p < SHARING_PROCS; p++) {
			assert_int_equal(x->procs[p].pid, y->procs[p].pid);
			assert_string_equal(x->procs[p].comm, y->procs[p].comm);
		}
		assert_int_equal(x->nwords, y->nwords);
		for (int w = 0; w < x->nwords; w++) {
			const struct sharing_word *u = &x->words[w], *v = &y->words[w];

			assert_int_equal(u->offset, v->offset);
			assert_true(same(u->reads, v->reads) && same(u->writes, v->writes));
			assert_int_equal(u->ntids, v->ntids);
			for (int t = 0; t < u->ntids && t < SHARING_TIDS; t++)
				assert_int_equal(u->tids[t], v->tids[t]);
			assert_true(u->top_ip == v->top_ip);
			assert_string_equal(u->symbol, v->symbol);
		}
		assert_string_equal(x->top_symbol, y->top_symbol);
	}
}

static void test_roundtrip(void **state)
{
	static const char *const strings[] = { "not here" };
	static struct sharing_frame fr[4];
	const struct record_head head = {
		.source = "perf", .desc = &desc, .thresholds = (const unsigned[]){ 64 }, .nthresh = 1,
		.plan = "", .strings = strings, .nstrings = 1,
	};
	struct record_writer w;
	struct record_file rf;
	char path[64], err[256];

	(void)state;
	fill_frame(&fr[0], SHARING_TOP);
	fill_frame(&fr[1], 3);
	fr[1].line[0].hitm_per_sec = NAN;
	fr[0].hitm_lower_bound = true;          /* and fr[1]'s false: the snoop events' */
	memset(&fr[2], 0, sizeof(fr[2]));
	snprintf(fr[2].reason, sizeof(fr[2].reason), "the kernel refused the sampling event");
	fill_frame(&fr[3], 0);
	snprintf(path, sizeof(path), "%s/rt.lrec", dir);
	assert_int_equal(record_open(&w, path, 0, &head, err, sizeof(err)), 0);
	for (int k = 0; k < 5; k++) {
		struct report r = { .source = "perf", .desc = &desc, .interval_s = 1,
				    .time = 1795348800 + k, .ncpu = 1, .cpu = cpu,
				    .total = cpu[0].m, .sharing = k < 4 ? &fr[k] : NULL };

		assert_int_equal(record_write(&w, &r, err, sizeof(err)), 0);
	}
	record_close(&w);
	if (record_load(path, &rf, err, sizeof(err)) < 0)
		fail_msg("record_load: %s", err);
	assert_int_equal(rf.version, RECORD_VERSION);
	assert_int_equal(rf.nf, 5);
	assert_int_equal(rf.skipped, 0);
	for (int k = 0; k < 4; k++) {
		assert_non_null(rf.f[k].rep.sharing);
		same_frame(&fr[k], rf.f[k].rep.sharing);
	}
	assert_null(rf.f[4].rep.sharing);
	record_file_free(&rf);
}

/* A recording of version 2 (the lattop before the contended lines) reads, without them. */
static void test_version2(void **state)
{
	static const char fixture[] = "tests/fuzz/corpus/record/v2-truth.lrec";
	struct record_file rf;
	char err[256];

	(void)state;
	if (access(fixture, R_OK) < 0)
		skip();
	if (record_load(fixture, &rf, err, sizeof(err)) < 0)
		fail_msg("record_load: %s", err);
	assert_int_equal(rf.version, 2);
	assert_int_equal(rf.nf, 2);
	assert_int_equal(rf.skipped, 0);
	for (int k = 0; k < rf.nf; k++)
		assert_null(rf.f[k].rep.sharing);
	record_file_free(&rf);
}

/*
 * The man page's lines view lists each column of the lines' table with
 * its help in the same words (white space folded), as the help screen
 * draws them from the table.
 */
static void test_man(void **state)
{
	FILE *f = fopen("man/lattop.1", "r");
	char *man, *p, *q;
	size_t n;

	(void)state;
	if (!f)
		skip();
	man = calloc(1, 1 << 20);
	assert_non_null(man);
	n = fread(man, 1, (1 << 20) - 1, f);
	fclose(f);
	man[n] = 0;
	for (p = q = man; *p; p++)
		*q++ = *p == '\n' ? ' ' : *p;
	*q = 0;
	for (int c = 0; c < SHC__COUNT; c++) {
		char it[64];

		snprintf(it, sizeof(it), ".It Ic %s ", shcols[c].head);
		if (!strstr(man, it) || !strstr(man, shcols[c].help))
			fail_msg("man/lattop.1 lacks the column %s: %s", shcols[c].head, shcols[c].help);
	}
	free(man);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_version2),
		cmocka_unit_test(test_man),
	};
	int rc;
	char cmd[64];

	setup_desc();
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd)) {
		/* Left behind: harmless. */
	}
	return rc;
}
