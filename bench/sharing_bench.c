/*
 * sharing_bench.c: lattop's cost per sample from the ring buffer to the
 * line table and the frame (make bench, section sharing).
 *
 *	sharing_bench SAMPLES LINES
 *
 * Writes SAMPLES load samples (HITM, a Skylake-server data source, half
 * of them remote) over LINES distinct cache lines into a ring of the
 * kernel's layout, 1 MiB at a time as the kernel would fill it between
 * two reads, drains each through the sharing sampler's reader into the
 * line table, and ends the interval: the frame's symbols resolved from
 * this binary (the IPs are in its code), cached after the first.  Prints
 * "samples read, samples lost by lattop, lines in the frame, resident
 * KiB"; callgrind counts the instructions (bench/bench.sh), the setup
 * taken out by a run of no sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpu/perfdev.h"
#include "engine/sharing_sampler.h"

#define DATA (1 << 20)
#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | \
	      PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)
#define REC 88                          /* header and 10 fields */

/* Skylake server 0xD (remote) and 0x7 (local) HITM, as the kernel gives them. */
#define HITM_LOCAL  0x600800442ULL   /* lvl L3, snoop HITM */
#define HITM_REMOTE 0x3600800042ULL  /* lvlnum ANY_CACHE, remote, snoop HITM */

int main(int argc, char **argv)
{
	static _Alignas(4096) unsigned char map[PERFDEV_PAGE + DATA];
	struct perf_event_mmap_page *m = (void *)map;
	static struct sharing_sampler s;
	struct sharing_ev ev = { .fd = -1, .period = 1000, .scale = 1 };
	struct perf_ring ring;
	const struct sharing_frame *f;
	long n = argc > 1 ? atol(argv[1]) : 100000, lines = argc > 2 ? atol(argv[2]) : 1000;
	uint64_t x = 88172645463325252ULL, ip = (uint64_t)(uintptr_t)main;
	struct rusage ru;
	long done = 0;

	if (sharing_sampler_init(&s, TYPE) < 0 || lines < 1)
		return 1;
	m->data_offset = PERFDEV_PAGE;
	m->data_size = DATA;
	if (perf_ring_init(&ring, map, sizeof(map), PERFDEV_PAGE) < 0)
		return 1;
	ev.ring = &ring;
	while (done < n) {
		/* the kernel's part: as many records as the ring holds */
		while (done < n && m->data_size - (m->data_head - m->data_tail) >= REC) {
			uint64_t w[REC / 8], line;
			struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, REC };

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			line = x % (uint64_t)lines;
			memcpy(&w[0], &h, 8);
			w[1] = 1;
			w[2] = ip + (x >> 40) % 64;
			w[3] = (uint64_t)getpid() | (uint64_t)(100 + line % 4) << 32;
			w[4] = (uint64_t)done;
			w[5] = 0x7f0000000000ULL + line * 64 + (x >> 20) % 8 * 8;
			w[6] = line % 8;
			w[7] = 1000;
			w[8] = 300;
			w[9] = (x >> 30) & 1 ? HITM_REMOTE : HITM_LOCAL;
			w[10] = 0;
			memcpy(map + PERFDEV_PAGE + (m->data_head & (DATA - 1)), w, REC < DATA -
			       (m->data_head & (DATA - 1)) ? REC : DATA - (m->data_head & (DATA - 1)));
			if (REC > DATA - (m->data_head & (DATA - 1)))
				memcpy(map + PERFDEV_PAGE, (unsigned char *)w + (DATA - (m->data_head & (DATA - 1))),
				       REC - (DATA - (m->data_head & (DATA - 1))));
			m->data_head += REC;
			done++;
		}
		/* lattop's part */
		sharing_sampler_drain(&s, &ev, SHARING_EV_LOADS);
	}
	f = sharing_sampler_end(&s, 1.0);
	getrusage(RUSAGE_SELF, &ru);
	printf("%llu %llu %d %ld\n", (unsigned long long)f->samples, (unsigned long long)(n - (long)f->samples),
	       f->nlines, ru.ru_maxrss);
	sharing_sampler_free(&s);
	return f->samples == (uint64_t)n ? 0 : 1;
}
