/*
 * sharerec.c: writes a recording whose frames carry contended cache lines
 * (struct sharing_frame), through the recorder's own writer (record_open,
 * record_write), for the tests of what reads them back: `lattop --replay`
 * on the screen (the lines view, a line's detail, the pane), in text and
 * in JSON (tests/e2e_lines_screen.sh).
 *
 *   sharerec FILE [FRAMES] [unsupported]
 *
 * FRAMES frames (10), half a second apart from 2026-11-22 12:00:00 UTC,
 * two CPUs with snoop numbers, and six lines: the false sharing
 * (0x7f3a00001040, worker 4242: threads 4243 and 4244 write words 0 and
 * 8), its true sharing (0x7f3a00002000, db 77: 78 writes word 0, 79 reads
 * it), and four cheaper ones, one with a physical address and a NUMA node,
 * one shared by two processes.  Rates grow with the frame: HITM/s of the
 * false sharing is 200000 + 1000 x frame.  "unsupported": every frame
 * says the lines are not measured, and why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/uarch.h"
#include "engine/sharing.h"
#include "record/record.h"

#define T0 1795348800.0         /* 2026-11-22 12:00:00 UTC */

static void word(struct sharing_line *l, unsigned off, double r, double w, const int *tids,
		 int nt, unsigned long long ip, const char *sym)
{
	struct sharing_word *x = &l->words[l->nwords++];

	x->offset = off;
	x->reads = r;
	x->writes = w;
	x->ntids = nt;
	memcpy(x->tids, tids, (size_t)nt * sizeof(*tids));
	x->top_ip = ip;
	snprintf(x->symbol, sizeof(x->symbol), "%s", sym);
}

static struct sharing_line *line(struct sharing_frame *fr, unsigned long long addr, double hitm,
				 double remote, const char *comm, int pid, enum sharing_verdict v)
{
	struct sharing_line *l = &fr->line[fr->nlines++];

	memset(l, 0, sizeof(*l));
	l->addr = addr;
	l->hitm_per_sec = hitm;
	l->remote_hitm_per_sec = remote;
	l->loads_per_sec = hitm * 3;
	l->stores_per_sec = hitm * 2;
	l->mean_latency_cycles = 180;
	l->verdict = v;
	l->nthreads = 2;
	l->ncpus = 2;
	l->node = -1;
	l->nprocs = 1;
	l->procs[0].pid = pid;
	snprintf(l->procs[0].comm, sizeof(l->procs[0].comm), "%s", comm);
	return l;
}

static void frame_lines(struct sharing_frame *fr, int k)
{
	struct sharing_line *l;

	memset(fr, 0, sizeof(*fr));
	fr->supported = true;
	fr->interval_s = 0.5;
	fr->samples = 1234 + (uint64_t)k;
	fr->lost = 5;
	fr->throttled = 2;
	fr->period = 1000;
	l = line(fr, 0x7f3a00001040ull, 200000 + 1000.0 * k, 0, "worker", 4242, SHARING_FALSE);
	word(l, 0, 0, 900, (const int[]){ 4243 }, 1, 0x401a2f, "worker_loop+0x1f");
	word(l, 8, 0, 880, (const int[]){ 4244 }, 1, 0x401a3b, "worker_loop+0x2b");
	l->top_ip = 0x401a2f;
	snprintf(l->top_symbol, sizeof(l->top_symbol), "worker_loop+0x1f");
	l = line(fr, 0x7f3a00002000ull, 50000 + 100.0 * k, 20000, "db", 77, SHARING_TRUE);
	word(l, 0, 400, 300, (const int[]){ 78, 79 }, 2, 0x5550, "db_commit+0x40");
	l->top_ip = 0x5550;
	snprintf(l->top_symbol, sizeof(l->top_symbol), "db_commit+0x40");
	l->mean_latency_cycles = 310;
	l = line(fr, 0x7f3a00003080ull, 9000, 0, "cache", 900, SHARING_FALSE);
	l->phys = 0x1234567c0ull;
	l->node = 1;
	l->nthreads = 3;
	l->ncpus = 3;
	word(l, 16, 50, 0, (const int[]){ 901 }, 1, 0x4100, "lookup+0x10");
	word(l, 24, 0, 40, (const int[]){ 902, 903 }, 2, 0x4200, "insert+0x22");
	l = line(fr, 0x7f3a00004000ull, 3000, 0, "postgres", 1500, SHARING_TRUE);
	l->nprocs = 2;
	l->procs[1].pid = 1501;
	snprintf(l->procs[1].comm, sizeof(l->procs[1].comm), "postgres");
	word(l, 56, 10, 10, (const int[]){ 1500, 1501 }, 2, 0x7000, "LWLockAcquire+0x99");
	l->top_ip = 0x7000;
	snprintf(l->top_symbol, sizeof(l->top_symbol), "LWLockAcquire+0x99");
	l = line(fr, 0x7f3a00005000ull, 700, 0, "java", 3000, SHARING_UNKNOWN);
	l->mean_latency_cycles = NAN;
	word(l, 32, 1, 0, (const int[]){ 3001 }, 1, 0, "");
	line(fr, 0x7f3a00006000ull, 100, 0, "redis-server", 6379, SHARING_UNKNOWN);
}

int main(int argc, char **argv)
{
	static const char *const strings[] = { "not in this recording" };
	static struct sharing_frame fr;
	struct cpu_desc desc;
	struct record_writer w;
	struct record_head head = {
		.source = "simulator/perf", .desc = &desc, .thresholds = (const unsigned[]){ 64 },
		.nthresh = 1, .plan = "# sharerec: no plan\n", .strings = strings, .nstrings = 1,
	};
	struct row cpu[2];
	char err[512];
	int n = argc > 2 ? atoi(argv[2]) : 10;
	bool unsupported = argc > 3 && !strcmp(argv[3], "unsupported");

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: sharerec FILE [FRAMES] [unsupported]\n");
		return 2;
	}
	memset(&desc, 0, sizeof(desc));
	snprintf(desc.id.vendor, sizeof(desc.id.vendor), "GenuineIntel");
	snprintf(desc.id.brand, sizeof(desc.id.brand), "sharerec test CPU");
	desc.id.family = 6;
	desc.id.model = 60;
	desc.id.pmu = (struct pmu_caps){ .version = 3, .gp_counters = 4, .gp_width = 48,
					 .fixed_counters = 3, .fixed_width = 48, .fixed_mask = 0x7 };
	desc.uarch = uarch_by_name("haswell");
	desc.supported = true;
	if (record_open(&w, argv[1], 0, &head, err, sizeof(err)) < 0) {
		fprintf(stderr, "sharerec: %s\n", err);
		return 1;
	}
	for (int k = 0; k < n; k++) {
		struct report rep = {
			.source = head.source, .desc = &desc, .interval_s = 0.5, .time = T0 + 0.5 * k,
			.ncpu = 2, .cpu = cpu, .sharing = &fr,
		};

		memset(cpu, 0, sizeof(cpu));
		for (int i = 0; i < 2; i++) {
			struct metrics *m = &cpu[i].m;

			cpu[i] = (struct row){ .cpu = i, .core = i, .package = 0, .nthreads = 1,
					       .ok = true };
			m->ghz = m->ipc = NAN;
			m->lat.reason = m->off.reason = strings[0];
			m->lat.loads_per_sec = m->lat.tagged_per_sec = NAN;
			m->lat.mean_cycles_min = m->lat.mean_cycles_max = NAN;
			m->lat.mean_cycles_est = m->lat.tagged_count = NAN;
			for (int t = 0; t < THRESH_MAX; t++)
				m->lat.above_share[t] = m->lat.above_per_sec[t] = m->lat.tagged_n[t] =
				m->lat.above_share_se[t] = m->lat.above_per_sec_se[t] = NAN;
			m->snoop.supported = true;
			m->snoop.hit_per_sec = 1000;
			m->snoop.hitm_per_sec = 100000 + 500.0 * k;
			m->snoop.remote.reason = strings[0];
			m->snoop.remote.hit_per_sec = m->snoop.remote.hitm_per_sec = NAN;
			m->off.reads_per_sec = m->off.avg_latency_cycles = m->off.avg_latency_ns = NAN;
		}
		rep.total = cpu[0].m;
		rep.total.snoop.hit_per_sec = 2000;
		rep.total.snoop.hitm_per_sec = 2 * cpu[0].m.snoop.hitm_per_sec;
		if (unsupported) {
			memset(&fr, 0, sizeof(fr));
			snprintf(fr.reason, sizeof(fr.reason), "the family has no sampled data source");
		} else {
			frame_lines(&fr, k);
		}
		if (record_write(&w, &rep, err, sizeof(err)) < 0) {
			fprintf(stderr, "sharerec: %s\n", err);
			record_close(&w);
			return 1;
		}
	}
	record_close(&w);
	return 0;
}
