/*
 * perf_ring.h: a perf_event_open(2) ring buffer read in place, its
 * records, the samples in them and what their data source says.
 *
 * The ring is the kernel's layout (K61 uapi struct perf_event_mmap_page,
 * pmu-facts 10.5): a control page, then 2^n data pages; data_head is
 * read, then a read barrier; the records between data_tail and data_head
 * are consumed; data_tail is written after a full barrier.  The real
 * kernel maps it (perfdev's mmap on a descriptor), the simulated kernel
 * writes one of its own with the same layout.  Every size is checked
 * against the ring before it is read: a ring is input like any other
 * (tests/fuzz/fuzz_ring.c).  A record is handed over where it lies; only
 * one that wraps past the end of the ring is copied, into the reader's
 * own buffer.
 */
#ifndef LATTOP_PERF_RING_H
#define LATTOP_PERF_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/* A record's size is a u16 (struct perf_event_header): the largest one. */
#define PERF_RING_REC_MAX 65536

struct perf_ring {
	struct perf_event_mmap_page *meta;
	const unsigned char *data;      /* meta->data_offset bytes after meta */
	uint64_t size;                  /* data bytes, a power of two */
	uint64_t bad;                   /* records refused as malformed, in all */
	unsigned char wrap[PERF_RING_REC_MAX];  /* a record that wraps, put together */
};

/*
 * A ring over the mapping @map of @len bytes (one control page of
 * @page bytes, then the data).  0, or -EINVAL when the control page's
 * data_offset/data_size do not fit @len or the size is not a power of two.
 */
int perf_ring_init(struct perf_ring *r, void *map, size_t len, size_t page);

/* One record as the reader found it: @rec is its header and what follows, @len bytes. */
typedef void (*perf_ring_fn)(void *arg, const struct perf_event_header *rec, size_t len);

/*
 * Hand every complete record between data_tail and data_head to @fn, then
 * move data_tail past them.  A record whose size is below a header, not a
 * multiple of 8, or past data_head ends the reading there: the rest of the
 * ring is skipped (data_tail = data_head) and counted in r->bad.  Returns
 * the records read.
 */
long perf_ring_drain(struct perf_ring *r, perf_ring_fn fn, void *arg);

/* A PERF_RECORD_SAMPLE's fields, as far as its sample_type has them (0 otherwise). */
struct perf_sample {
	uint64_t id;                    /* IDENTIFIER or ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint32_t cpu;
	uint64_t period;
	uint64_t weight;                /* WEIGHT, or WEIGHT_STRUCT's var1_dw (the latency) */
	uint64_t data_src;
	uint64_t phys_addr;
};

/*
 * The sample types perf_sample_parse reads, in the kernel's order
 * (K61 perf_output_sample, pmu-facts 10.5); a type with anything else is
 * refused at open (it would shift every later field).
 */
#define PERF_RING_SAMPLE_TYPES (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | \
	PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_PHYS_ADDR)

/*
 * Decode sample record @rec (@len bytes with its header) taken with
 * @sample_type into @s.  0, or -EINVAL when the record is shorter than
 * its type says or @sample_type has a field not in PERF_RING_SAMPLE_TYPES.
 */
int perf_sample_parse(const struct perf_event_header *rec, size_t len, uint64_t sample_type,
		      struct perf_sample *s);

/*
 * The sample_id_all trailer of a non-sample record (pid/tid, time, id,
 * stream_id, cpu, identifier, as @sample_type has them), and LOST's and
 * THROTTLE's own fields: the count a LOST record carries; 0 when short.
 */
uint64_t perf_record_lost(const struct perf_event_header *rec, size_t len);

/* What one sample's data source says, whatever the family (perf_mem_decode). */
enum perf_mem_level {
	RING_LVL_NA,                  /* not known */
	RING_LVL_L1, RING_LVL_LFB, RING_LVL_L2, RING_LVL_L3,
	RING_LVL_RAM,                 /* local memory */
	RING_LVL_REMOTE_CACHE,        /* another package's cache */
	RING_LVL_REMOTE_RAM,
	RING_LVL_OTHER,               /* I/O, uncached, PMEM, L4 */
};
enum perf_mem_snoop { RING_SNOOP_NA, RING_SNOOP_NONE, RING_SNOOP_HIT,
		      RING_SNOOP_HITM };

struct perf_mem {
	bool load, store;
	enum perf_mem_level level;
	enum perf_mem_snoop snoop;
	bool remote;                    /* served by another package */
};

/* Decode a union perf_mem_data_src (K61 uapi) as perf c2c counts it (cpu/perf_ring.c). */
void perf_mem_decode(uint64_t data_src, struct perf_mem *m);

#endif
