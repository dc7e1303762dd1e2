/*
 * fuzz_ring.c: libFuzzer harness for the perf ring-buffer reader and the
 * sample decoder (cpu/perf_ring.c), and the line table they feed
 * (engine/lines.c): a ring is the kernel's memory, read as input.
 *
 * The input's first 16 bytes are data_tail and the distance to data_head
 * (any values, wrapped or not); the rest is the ring's data, up to 64 KiB
 * rounded down to a power of two.  Every record handed over must lie
 * within its size and be a multiple of 8 at least a header long; data_tail
 * must end at data_head; each sample decodes or is refused, and what
 * decodes goes through the data-source decoding into the line table.
 *
 * Build: make tests/fuzz/fuzz_ring (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/perf_ring.h"
#include "engine/lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAGE 4096
#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | \
	      PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

static struct lines table;
static struct perf_ring ring;
static size_t ring_size;

static void on_record(void *arg, const struct perf_event_header *h, size_t len)
{
	struct perf_sample s;
	struct perf_mem m;

	(void)arg;
	if (len < sizeof(*h) || len % 8 || len > ring_size || len != h->size)
		abort();
	perf_record_lost(h, len);
	if (h->type != PERF_RECORD_SAMPLE || perf_sample_parse(h, len, TYPE, &s) < 0)
		return;
	perf_mem_decode(s.data_src, &m);
	struct lines_access a = {
		.addr = s.addr, .phys = s.phys_addr, .ip = s.ip, .pid = (int)s.pid,
		.tid = (int)s.tid, .cpu = (int)s.cpu, .store = m.store,
		.hitm = m.snoop == RING_SNOOP_HITM, .remote = m.remote,
		.weight = (double)s.weight, .period = (double)s.period,
	};
	lines_add(&table, &a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static _Alignas(8) unsigned char map[PAGE + 65536];
	static struct sharing_frame frame;
	struct perf_event_mmap_page *m = (void *)map;
	uint64_t tail, dist;

	if (size < 16 + 8)
		return 0;
	if (!table.slot && lines_init(&table) < 0)
		abort();
	memcpy(&tail, data, 8);
	memcpy(&dist, data + 8, 8);
	data += 16;
	size -= 16;
	for (ring_size = 65536; ring_size > size; ring_size /= 2)
		;
	memset(map, 0, PAGE);
	memcpy(map + PAGE, data, ring_size);
	m->data_offset = PAGE;
	m->data_size = ring_size;
	m->data_tail = tail;
	m->data_head = tail + dist;
	if (perf_ring_init(&ring, map, PAGE + ring_size, PAGE) < 0)
		abort();
	perf_ring_drain(&ring, on_record, NULL);
	if (m->data_tail != m->data_head)
		abort();
	lines_interval(&table, 1.0, &frame);
	return 0;
}
