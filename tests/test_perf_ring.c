/*
 * test_perf_ring.c: the ring reader, the sample decoder and the
 * data-source decoding (cpu/perf_ring.c), and the line table
 * (engine/lines.c).
 *
 * What is checked, each where a naive reading fails: a record that wraps
 * past the end of the ring comes back whole and in one piece; a size
 * that is not the kernel's (below a header, not a multiple of 8, past
 * data_head, a head more than a ring ahead) ends the reading and is
 * counted, with data_tail at data_head; arbitrary contents never read
 * outside the ring; a sample's fields land where its sample_type puts
 * them, and a short one is refused; a Skylake-server remote HITM (remote
 * bit, no level) is remote, as the base table's REM_CCE1 one is; the
 * line table tells false from true sharing, estimates rates as samples x
 * period / interval, forgets a line that stops, and stays bounded over a
 * million distinct lines with the hot line on top.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu/perf_ring.h"
#include "engine/lines.h"

#define PAGE 4096
#define DATA 4096

static _Alignas(8) unsigned char map[PAGE + DATA];
static struct perf_ring ring;

static struct perf_event_mmap_page *meta(void)
{
	return (struct perf_event_mmap_page *)map;
}

static void ring_reset(uint64_t at)
{
	memset(map, 0, sizeof(map));
	meta()->data_offset = PAGE;
	meta()->data_size = DATA;
	meta()->data_head = meta()->data_tail = at;
	assert_int_equal(perf_ring_init(&ring, map, sizeof(map), PAGE), 0);
}

/* Write @len bytes at data_head as the kernel does, wrapping. */
static void put(const void *rec, size_t len)
{
	uint64_t at = meta()->data_head % DATA;

	for (size_t i = 0; i < len; i++)
		map[PAGE + (at + i) % DATA] = ((const unsigned char *)rec)[i];
	meta()->data_head += len;
}

struct got {
	int n;
	size_t len[16];
	uint32_t type[16];
	unsigned char first[16][128];
};

static void collect(void *arg, const struct perf_event_header *h, size_t len)
{
	struct got *g = arg;

	if (g->n < 16) {
		g->len[g->n] = len;
		g->type[g->n] = h->type;
		memcpy(g->first[g->n], h, len < 128 ? len : 128);
		g->n++;
	}
}

#define T (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	   PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | \
	   PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

/* A sample record of type T. */
static size_t sample(uint64_t *w, uint64_t addr, uint32_t tid)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 11 * 8 };

	memcpy(&w[0], &h, 8);
	w[1] = 7;                               /* identifier */
	w[2] = 0x401234;                        /* ip */
	w[3] = 4242 | (uint64_t)tid << 32;      /* pid, tid */
	w[4] = 123456789;                       /* time */
	w[5] = addr;
	w[6] = 3;                               /* cpu 3, res 0 */
	w[7] = 1000;                            /* period */
	w[8] = 250;                             /* weight */
	w[9] = 0x123;                           /* data_src */
	w[10] = 0xabc000 | (addr & 0xfff);      /* phys */
	return 11 * 8;
}

static void test_wrap(void **state)
{
	uint64_t w[11];
	struct perf_sample s;
	struct got g = { 0 };
	size_t len = sample(w, 0x7f0000001048, 4243);

	(void)state;
	/* 40 bytes before the end: the 88-byte record wraps, its header does not */
	ring_reset(DATA - 40);
	put(w, len);
	assert_int_equal(perf_ring_drain(&ring, collect, &g), 1);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.len[0], len);
	assert_memory_equal(g.first[0], w, len);
	assert_int_equal(meta()->data_tail, meta()->data_head);
	assert_int_equal(perf_sample_parse((const void *)g.first[0], len, T, &s), 0);
	assert_int_equal(s.addr, 0x7f0000001048);
	assert_int_equal(s.tid, 4243);
	assert_int_equal(s.pid, 4242);
	assert_int_equal(s.cpu, 3);
	assert_int_equal(s.ip, 0x401234);
	assert_int_equal(s.period, 1000);
	assert_int_equal(s.weight, 250);
	assert_int_equal(s.data_src, 0x123);
	assert_int_equal(s.phys_addr, 0xabc048);
	/* 8 bytes before the end, many rings on: only the header fits before the end */
	ring_reset(DATA - 8 + 8 * (uint64_t)DATA);
	g.n = 0;
	put(w, len);
	assert_int_equal(perf_ring_drain(&ring, collect, &g), 1);
	assert_memory_equal(g.first[0], w, len);
	assert_int_equal(ring.bad, 0);
}

static void test_bad_sizes(void **state)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 4 };
	uint64_t w[11];
	struct got g = { 0 };

	(void)state;
	/* one good record, then one of size 4: the good one read, the rest skipped */
	ring_reset(0);
	put(w, sample(w, 0x1000, 1));
	put(&h, 8);
	put(w, sample(w, 0x2000, 2));
	assert_int_equal(perf_ring_drain(&ring, collect, &g), 1);
	assert_int_equal(ring.bad, 1);
	assert_int_equal(meta()->data_tail, meta()->data_head);
	/* a size not a multiple of 8, and one past data_head */
	h.size = 12;
	ring_reset(0);
	put(&h, 8);
	assert_int_equal(perf_ring_drain(&ring, collect, &g), 0);
	h.size = 64;
	ring_reset(0);
	put(&h, 8);
	assert_int_equal(perf_ring_drain(&ring, collect, &g), 0);
	assert_int_equal(ring.bad, 1);
	/* a head more than a ring ahead of the tail */
	ring_reset(0);
	meta()->data_head = DATA + 8;
	assert_int_equal(perf_ring_drain(&ring, collect, &g), 0);
	assert_int_equal(ring.bad, 1);
	assert_int_equal(meta()->data_tail, DATA + 8);
	/* a control page that does not fit the mapping */
	meta()->data_size = 2 * DATA;
	assert_int_equal(perf_ring_init(&ring, map, sizeof(map), PAGE), -EINVAL);
	meta()->data_size = DATA - 8;
	assert_int_equal(perf_ring_init(&ring, map, sizeof(map), PAGE), -EINVAL);
}

static void count(void *arg, const struct perf_event_header *h, size_t len)
{
	struct perf_sample s;

	assert_true(len >= sizeof(*h) && len <= DATA && len % 8 == 0 && len == h->size);
	perf_sample_parse(h, len, T, &s);
	perf_record_lost(h, len);
	(*(long *)arg)++;
}

/* Arbitrary contents: every record handed over lies within the ring, sized as it says. */
static void test_arbitrary(void **state)
{
	(void)state;
	srand(23);
	for (int round = 0; round < 2000; round++) {
		long n = 0;

		ring_reset((uint64_t)rand() * 8);
		for (int i = 0; i < DATA; i++)
			map[PAGE + i] = (unsigned char)(round % 3 ? rand() : rand() % 4 * 8);
		/* mostly 8-aligned as the kernel's, now and then not */
		meta()->data_head = meta()->data_tail + (uint64_t)(rand() % (DATA / 8 + 8)) * 8 +
				    (round % 7 ? 0 : (uint64_t)(rand() % 8));
		perf_ring_drain(&ring, count, &n);
		assert_int_equal(meta()->data_tail, meta()->data_head);
	}
}

static void test_short_sample(void **state)
{
	uint64_t w[11];
	struct perf_sample s;
	size_t len = sample(w, 0x1000, 1);

	(void)state;
	/* the record says 88 bytes, the type wants them: 80 is short */
	assert_int_equal(perf_sample_parse((const void *)w, len - 8, T, &s), -EINVAL);
	/* a field the decoder does not know would shift the rest: refused */
	assert_int_equal(perf_sample_parse((const void *)w, len, T | PERF_SAMPLE_CALLCHAIN, &s), -EINVAL);
	/* WEIGHT_STRUCT: the latency is the low 32 bits */
	w[8] = 0x0000000500000119ULL;
	assert_int_equal(perf_sample_parse((const void *)w, len,
					   (T & ~(uint64_t)PERF_SAMPLE_WEIGHT) | PERF_SAMPLE_WEIGHT_STRUCT,
					   &s), 0);
	assert_int_equal(s.weight, 0x119);
}

#define P(a, b) ((uint64_t)PERF_MEM_##a##_##b << PERF_MEM_##a##_SHIFT)
#define LVLNUM(x) ((uint64_t)PERF_MEM_LVLNUM_##x << PERF_MEM_LVLNUM_SHIFT)
#define REM ((uint64_t)PERF_MEM_REMOTE_REMOTE << PERF_MEM_REMOTE_SHIFT)

static void test_data_src(void **state)
{
	struct perf_mem m;

	(void)state;
	/* Skylake server 0xD: any cache, remote, HITM, and no level bit */
	perf_mem_decode(P(OP, LOAD) | P(LVL, HIT) | LVLNUM(ANY_CACHE) | REM | P(SNOOP, HITM), &m);
	assert_true(m.load && m.remote && m.snoop == RING_SNOOP_HITM);
	assert_int_equal(m.level, RING_LVL_REMOTE_CACHE);
	/* base 0x9: REM_CCE1 */
	perf_mem_decode(P(OP, LOAD) | P(LVL, HIT) | P(LVL, REM_CCE1) | REM | LVLNUM(L3) |
			P(SNOOP, HITM), &m);
	assert_true(m.remote && m.snoop == RING_SNOOP_HITM);
	/* local HITM: L3 */
	perf_mem_decode(P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | LVLNUM(L3) | P(SNOOP, HITM), &m);
	assert_true(!m.remote && m.snoop == RING_SNOOP_HITM && m.level == RING_LVL_L3);
	/* remote core, same node (HOPS_0): not another package */
	perf_mem_decode(P(OP, LOAD) | LVLNUM(ANY_CACHE) | REM | P(HOPS, 0) | P(SNOOP, HITM), &m);
	assert_false(m.remote);
	/* snoopx FWD is a clean hit; CMT 0xD: RAM, remote, HITM */
	perf_mem_decode(P(OP, LOAD) | LVLNUM(L3) | ((uint64_t)PERF_MEM_SNOOPX_FWD << PERF_MEM_SNOOPX_SHIFT), &m);
	assert_int_equal(m.snoop, RING_SNOOP_HIT);
	perf_mem_decode(P(OP, LOAD) | LVLNUM(RAM) | REM | P(SNOOP, HITM), &m);
	assert_true(m.remote && m.level == RING_LVL_REMOTE_RAM);
	/* PERF_MEM_NA (watchpoints, non-PEBS): nothing */
	perf_mem_decode(0x1e05080021ULL, &m);
	assert_false(m.load || m.store || m.remote);
	assert_int_equal(m.snoop, RING_SNOOP_NA);
	assert_int_equal(m.level, RING_LVL_NA);
	/* a store */
	perf_mem_decode(P(OP, STORE) | P(LVL, HIT) | P(LVL, L1), &m);
	assert_true(m.store && !m.load && m.level == RING_LVL_L1);
}

static void access_at(struct lines *t, uint64_t addr, int tid, bool store, bool hitm)
{
	struct lines_access a = {
		.addr = addr, .pid = 10, .tid = tid, .cpu = tid, .store = store, .hitm = hitm,
		.weight = 100, .period = 1000, .ip = 0x400000 + (addr & 63),
	};

	lines_add(t, &a);
}

static struct sharing_frame frame;

static void test_lines_verdicts(void **state)
{
	struct lines t;

	(void)state;
	assert_int_equal(lines_init(&t), 0);
	lines_comm(&t, 10, "worker");
	for (int i = 0; i < 10; i++) {
		/* false: thread 1 on +0, thread 2 on +8, both writing */
		access_at(&t, 0x10000, 1, true, false);
		access_at(&t, 0x10000, 1, false, true);
		access_at(&t, 0x10008, 2, true, false);
		access_at(&t, 0x10008, 2, false, true);
		/* true: thread 3 writes +0 of another line, thread 4 reads it */
		access_at(&t, 0x20000, 3, true, false);
		access_at(&t, 0x20000, 4, false, true);
		/* one thread alone: no verdict */
		access_at(&t, 0x30000, 5, true, false);
	}
	lines_interval(&t, 2.0, &frame);
	assert_int_equal(frame.nlines, 3);
	/* by cost: 20 HITM samples, then 10, then none */
	assert_int_equal(frame.line[0].addr, 0x10000);
	assert_int_equal(frame.line[0].verdict, SHARING_FALSE);
	assert_int_equal(frame.line[0].nwords, 2);
	assert_int_equal(frame.line[0].words[1].offset, 8);
	assert_int_equal(frame.line[0].words[1].tids[0], 2);
	assert_string_equal(frame.line[0].procs[0].comm, "worker");
	/* samples x period / interval: 20 HITM x 1000 / 2 s */
	assert_float_equal(frame.line[0].hitm_per_sec, 10000, 1e-9);
	assert_float_equal(frame.line[0].stores_per_sec, 10000, 1e-9);
	assert_int_equal(frame.line[0].nthreads, 2);
	assert_int_equal(frame.line[1].verdict, SHARING_TRUE);
	assert_int_equal(frame.line[2].verdict, SHARING_UNKNOWN);
	/*
	 * The next interval, twice the rate: the decayed rate weighs the last
	 * interval 1 and the one before LINES_DECAY, (20000 x 0.5 + 40000) /
	 * (2 x 0.5 + 2) HITM a second.
	 */
	for (int i = 0; i < 20; i++) {
		access_at(&t, 0x10000, 1, false, true);
		access_at(&t, 0x10008, 2, false, true);
	}
	lines_interval(&t, 2.0, &frame);
	assert_float_equal(frame.line[0].hitm_per_sec, (20000 * LINES_DECAY + 40000) /
			   (2 * LINES_DECAY + 2), 1e-6);
	/*
	 * Lines that stop leave: shown, decaying, in LINES_IDLE intervals
	 * without a sample, then gone (the other two lines had none in the
	 * last interval already: they go one interval sooner).
	 */
	for (int i = 0; i < LINES_IDLE; i++) {
		lines_interval(&t, 2.0, &frame);
		assert_int_equal(frame.nlines, i < LINES_IDLE - 1 ? 3 : 1);
	}
	assert_true(frame.line[0].hitm_per_sec < 20000 * 0.2);
	lines_interval(&t, 2.0, &frame);
	assert_int_equal(frame.nlines, 0);
	lines_free(&t);
}

/* A million distinct lines and one hot one: bounded, and the hot one on top. */
static void test_lines_bounded(void **state)
{
	struct lines t;

	(void)state;
	assert_int_equal(lines_init(&t), 0);
	for (uint64_t i = 0; i < 1000000; i++) {
		access_at(&t, 0x100000000ULL + i * 64, (int)(i % 7), false, i % 3 == 0);
		if (i % 100 == 0)
			access_at(&t, 0x40, 1, false, true);
	}
	lines_interval(&t, 1.0, &frame);
	assert_int_equal(frame.nlines, SHARING_TOP);
	assert_int_equal(frame.line[0].addr, 0x40);
	assert_float_equal(frame.line[0].hitm_per_sec, 10000 * 1000.0, 1e-6);
	assert_true(t.evicted > 1000000 - LINES_SLOTS);
	lines_free(&t);
}

/* The list of slots holding a line is exactly those slots, each once. */
static void lines_check_used(const struct lines *t)
{
	static unsigned char seen[LINES_SLOTS];
	unsigned n = 0;

	memset(seen, 0, sizeof(seen));
	for (unsigned u = 0; u < t->nused; u++) {
		assert_true(t->used[u] < LINES_SLOTS);
		assert_int_equal(seen[t->used[u]]++, 0);
		assert_true(t->slot[t->used[u]].key != 0);
	}
	for (unsigned i = 0; i < LINES_SLOTS; i++)
		n += t->slot[i].key != 0;
	assert_int_equal(n, t->nused);
}

/*
 * Lines come, are evicted, decay and leave over many intervals: the end of
 * an interval visits the list of lines, not the slots, and must see every
 * line and only lines.  The frame is the one a visit of every slot gives:
 * the top lines by cost, from a table of the same lines.
 */
static void test_lines_churn(void **state)
{
	static struct sharing_frame whole;
	uint64_t x = 88172645463325252ull;
	struct lines t;

	(void)state;
	assert_int_equal(lines_init(&t), 0);
	for (int iv = 0; iv < 40; iv++) {
		/* Some intervals fill the table past its size, some add a few lines, some none. */
		int n = iv % 5 == 0 ? 3 * LINES_SLOTS : iv % 5 == 3 ? 0 : 300;
		struct lines_line *top[SHARING_TOP];
		int ntop = 0;

		for (int k = 0; k < n; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			access_at(&t, 0x100000 + (x % (4 * LINES_SLOTS)) * 64, (int)(x >> 60),
				  x & 1, (x >> 1) % 4 == 0);
		}
		/* The top lines as every slot shows them, before the interval ends. */
		for (unsigned i = 0; i < LINES_SLOTS; i++) {
			struct lines_line *l = &t.slot[i];
			int at;

			if (!l->key || l->samples <= 0)
				continue;
			if (ntop == SHARING_TOP) {
				/* Full: only a line ranking above the last takes its place. */
				const struct lines_line *w = top[SHARING_TOP - 1];

				if (l->cost < w->cost || (l->cost == w->cost && l->addr > w->addr))
					continue;
				at = SHARING_TOP - 1;
			} else {
				at = ntop++;
			}
			while (at > 0 && (l->cost > top[at - 1]->cost ||
					  (l->cost == top[at - 1]->cost && l->addr < top[at - 1]->addr))) {
				top[at] = top[at - 1];
				at--;
			}
			top[at] = l;
		}
		for (int i = 0; i < ntop; i++)
			whole.line[i].addr = top[i]->addr;
		whole.nlines = ntop;
		lines_interval(&t, 1.0, &frame);
		lines_check_used(&t);
		assert_int_equal(frame.nlines, whole.nlines);
		for (int i = 0; i < ntop; i++)
			assert_int_equal(frame.line[i].addr, whole.line[i].addr);
	}
	/* Nothing more: every line leaves within LINES_IDLE intervals. */
	for (int iv = 0; iv <= LINES_IDLE; iv++)
		lines_interval(&t, 1.0, &frame);
	lines_check_used(&t);
	assert_int_equal(t.nused, 0);
	lines_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_arbitrary),
		cmocka_unit_test(test_short_sample),
		cmocka_unit_test(test_data_src),
		cmocka_unit_test(test_lines_verdicts),
		cmocka_unit_test(test_lines_bounded),
		cmocka_unit_test(test_lines_churn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
