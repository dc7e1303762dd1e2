/*
 * export_bench.c: what the exposition costs (bench/bench.sh, section
 * export): CPU time to add an interval (export_update) and to render the
 * text format and OpenMetrics (export_render), and the bytes of each, for
 * N logical CPUs with the default seven thresholds.  Each figure is the
 * median of REPS timings of a loop long enough for the clock
 * (CLOCK_PROCESS_CPUTIME_ID: CPU time, not wall time, on a shared machine).
 *
 * Usage: export_bench N [REPS]; prints one markdown table row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "export/export.h"

int main(int argc, char **argv)
{
	static const unsigned thr[] = { 8, 16, 32, 64, 128, 256, 512 };
	int n = argc > 1 ? atoi(argv[1]) : 8, reps = argc > 2 ? atoi(argv[2]) : 11;
	struct rates *r = calloc(n, sizeof(*r));
	struct row *s = calloc(n, sizeof(*s));
	double *t_upd = calloc(reps, sizeof(double)), *t_txt = calloc(reps, sizeof(double));
	double *t_om = calloc(reps, sizeof(double)), *t_both = calloc(reps, sizeof(double));
	struct plan pl;
	struct export x;
	size_t bytes_txt = 0, bytes_om = 0;

	export_keep_memory();           /* as lattop does with --listen or --textfile */
	if (n < 1 || reps < 1 || !r || !s || !t_upd || !t_txt || !t_om || !t_both)
		return 2;
	memset(&pl, 0, sizeof(pl));
	pl.nthresh = 7;
	memcpy(pl.thresholds, thr, sizeof(thr));
	for (int i = 0; i < n; i++) {
		struct metrics *m = &s[i].m;

		s[i].cpu = i;
		s[i].core = i / 2;
		s[i].package = i / (n > 1 ? n / 2 : 1);
		for (int k = 0; k < M__COUNT; k++)
			r[i].r[k] = 1e9 + i;
		m->lat.loads_per_sec = 4e8 + i;
		m->lat.nthresh = 7;
		for (int k = 0; k < 7; k++)
			m->lat.above_per_sec[k] = 1e8 / (k + 1) + i;
		m->snoop.hit_per_sec = m->snoop.hitm_per_sec = 1e5 + i;
		m->snoop.remote.hit_per_sec = m->snoop.remote.hitm_per_sec = 3e5 + i;
		m->snoop.hitm_scope = "other_core";
		m->off.reads_per_sec = 2e7 + i;
		s[i].ok = true;
		s[i].interval_s = 1;
		s[i].rates = &r[i];
	}
	if (export_init(&x, s, n) < 0)
		return 2;
	x.microarch = x.pmu_table = "haswell";
	x.source = "simulator";
	x.version = "bench";
	x.interval_s = 1;
	/* Counters of a day's running: numbers as long as they get. */
	for (int k = 0; k < 86400 / 3600; k++)
		export_update(&x, &pl, s, 1.8e9);
	for (int rep = 0; rep < reps; rep++) {
		int loops = n >= 256 ? 20 : 500;
		double t0 = bench_cpu_s();

		for (int l = 0; l < loops; l++)
			export_update(&x, &pl, s, 1.8e9 + l);
		t_upd[rep] = (bench_cpu_s() - t0) / loops;
		for (int om = 0; om < 2; om++) {
			t0 = bench_cpu_s();
			for (int l = 0; l < loops; l++) {
				char *out;
				size_t len;

				if (export_render(&x, om, &out, &len) < 0)
					return 2;
				*(om ? &bytes_om : &bytes_txt) = len;
				free(out);
			}
			(om ? t_om : t_txt)[rep] = (bench_cpu_s() - t0) / loops;
		}
		t0 = bench_cpu_s();
		for (int l = 0; l < loops; l++) {
			char *a, *b;
			size_t al, bl;

			if (export_render_both(&x, &a, &al, &b, &bl) < 0)
				return 2;
			free(a);
			free(b);
		}
		t_both[rep] = (bench_cpu_s() - t0) / loops;
	}
	printf("| %d | %.1f µs | %.1f µs | %.1f µs | %.1f µs | %zu | %zu | %.0f |\n", n,
	       bench_median(t_upd, reps) * 1e6, bench_median(t_txt, reps) * 1e6,
	       bench_median(t_om, reps) * 1e6, bench_median(t_both, reps) * 1e6, bytes_txt, bytes_om,
	       (double)bytes_txt / n);
	export_free(&x);
	return 0;
}
