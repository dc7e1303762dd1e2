/*
 * perf_ring.c: reading a perf ring buffer in place, parsing its samples,
 * and decoding a sample's data source (see perf_ring.h).
 *
 * Owns the record layout and the data_src decoding table below.  Does not
 * open, map or decide anything: perfdev maps, the sharing sampler reads.
 */
#include <errno.h>
#include <string.h>

#include "cpu/perf_ring.h"

int perf_ring_init(struct perf_ring *r, void *map, size_t len, size_t page)
{
	struct perf_event_mmap_page *m = map;
	uint64_t off, size;

	memset(r, 0, offsetof(struct perf_ring, wrap));
	if (!map || len <= page)
		return -EINVAL;
	/* Kernels before 4.1 leave data_offset/data_size 0: the data starts a page in. */
	off = m->data_offset ? m->data_offset : page;
	size = m->data_size ? m->data_size : len - page;
	if (off > len || size > len - off || size < 8 || (size & (size - 1)) ||
	    (((uintptr_t)map + off) & 7))
		return -EINVAL;
	r->meta = m;
	r->data = (const unsigned char *)map + off;
	r->size = size;
	return 0;
}

long perf_ring_drain(struct perf_ring *r, perf_ring_fn fn, void *arg)
{
	/* data_head, then a read barrier before the data (perf_event_mmap_page's comment) */
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	long n = 0;

	/*
	 * A head behind the tail or more than a ring ahead, or either not a
	 * multiple of 8 (the kernel aligns every record), is not the kernel's:
	 * skip it all.  So every record below starts 8-aligned.
	 */
	if (head - tail > r->size || ((head | tail) & 7)) {
		r->bad++;
		tail = head;
	}
	while (tail != head) {       /* modulo 2^64: head - tail <= size was checked */
		uint64_t at = tail & (r->size - 1);
		struct perf_event_header h;
		const struct perf_event_header *rec;

		if (head - tail < sizeof(h))
			goto bad;
		/* 8 bytes at an 8-aligned offset of a ring of 2^n >= 8 bytes: never split */
		memcpy(&h, r->data + at, sizeof(h));
		if (h.size < sizeof(h) || (h.size & 7) || h.size > head - tail)
			goto bad;
		if (at + h.size <= r->size)
			rec = (const struct perf_event_header *)(r->data + at);
		else {
			/* Wrapped: the one copy, into the reader's buffer. */
			size_t first = (size_t)(r->size - at);

			memcpy(r->wrap, r->data + at, first);
			memcpy(r->wrap + first, r->data, h.size - first);
			rec = (const struct perf_event_header *)r->wrap;
		}
		fn(arg, rec, h.size);
		tail += h.size;
		n++;
	}
	goto done;
bad:
	r->bad++;
	tail = head;
done:
	/* Everything read before the kernel may write over it: a full barrier, then the tail. */
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return n;
}

/* The next u64 of a record; false when it is short. */
static bool take(const unsigned char *p, size_t len, size_t *at, uint64_t *out)
{
	if (len - *at < 8 || *at > len)
		return false;
	memcpy(out, p + *at, 8);
	*at += 8;
	return true;
}

int perf_sample_parse(const struct perf_event_header *rec, size_t len, uint64_t t,
		      struct perf_sample *s)
{
	const unsigned char *p = (const unsigned char *)rec;
	size_t at = sizeof(*rec);
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if ((t & ~(uint64_t)PERF_RING_SAMPLE_TYPES) || len < sizeof(*rec) || len > rec->size)
		return -EINVAL;
	/* The order of perf_output_sample (K61 kernel/events/core.c; pmu-facts 10.5). */
	if ((t & PERF_SAMPLE_IDENTIFIER) && !take(p, len, &at, &s->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IP) && !take(p, len, &at, &s->ip))
		return -EINVAL;
	if (t & PERF_SAMPLE_TID) {
		if (!take(p, len, &at, &v))
			return -EINVAL;
		s->pid = (uint32_t)v;           /* u32 pid, tid: little-endian */
		s->tid = (uint32_t)(v >> 32);
	}
	if ((t & PERF_SAMPLE_TIME) && !take(p, len, &at, &s->time))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ADDR) && !take(p, len, &at, &s->addr))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && !take(p, len, &at, &s->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STREAM_ID) && !take(p, len, &at, &v))
		return -EINVAL;
	if (t & PERF_SAMPLE_CPU) {
		if (!take(p, len, &at, &v))
			return -EINVAL;
		s->cpu = (uint32_t)v;           /* u32 cpu, res */
	}
	if ((t & PERF_SAMPLE_PERIOD) && !take(p, len, &at, &s->period))
		return -EINVAL;
	/* READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_USER, STACK_USER: never asked for */
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (!take(p, len, &at, &v))
			return -EINVAL;
		/* WEIGHT_STRUCT: var1_dw (the latency) in the low 32 bits (K612 uapi) */
		s->weight = (t & PERF_SAMPLE_WEIGHT_STRUCT) ? (uint32_t)v : v;
	}
	if ((t & PERF_SAMPLE_DATA_SRC) && !take(p, len, &at, &s->data_src))
		return -EINVAL;
	/* TRANSACTION, REGS_INTR: never asked for */
	if ((t & PERF_SAMPLE_PHYS_ADDR) && !take(p, len, &at, &s->phys_addr))
		return -EINVAL;
	return 0;
}

uint64_t perf_record_lost(const struct perf_event_header *rec, size_t len)
{
	const unsigned char *p = (const unsigned char *)rec;
	size_t at = sizeof(*rec);
	uint64_t id, lost;

	/* PERF_RECORD_LOST: { u64 id; u64 lost; } (K61 uapi) */
	if (rec->type != PERF_RECORD_LOST || !take(p, len, &at, &id) || !take(p, len, &at, &lost))
		return 0;
	return lost;
}

/*
 * The data source, as the kernel hands it over (K61 uapi union
 * perf_mem_data_src; pmu-facts 10.6).  The kernel has already turned each
 * family's PEBS code into these fields with that family's table (ds.c:
 * the base table, the NHM/WSM, SKL, GRT and CMT patches, Lion Cove's own);
 * what differs by family here is only which fields carry "remote":
 *
 *   family                         remote HITM looks like              source
 *   SNB..BDW (base 0x9)            lvl REM_CCE1, snoop HITM            ds.c base table
 *   SKX, CLX, ICX, SPR/EMR/GNR     lvl ANY_CACHE + mem_remote, HITM,   intel_pmu_pebs_data_source_skl
 *     (SKL patch 0xD)              *no* REM_CCE bit                    (0x0d)
 *   CMT (0xD)                      lvl RAM + mem_remote, HITM          ..._cmt
 *   local HITM                     lvl L3 (NHM/WSM 0x6 and 0x7,        ..._nhm; base 0x7
 *                                  base 0x7, CMT 0x8), snoop HITM
 *
 * perf c2c counts remote HITM as (lvl REM_CCE1|REM_CCE2, or mem_remote)
 * with snoop HITM, local HITM as lvl L3 with snoop HITM (K61
 * tools/perf/util/mem-events.c c2c_decode_stats): a reader of lvl alone
 * misses every Skylake-server remote HITM.  The same reading here.
 * Snoop "FWD" in snoopx (a clean line forwarded) is a hit.  A data source
 * of PERF_MEM_NA (non-PEBS samples, watchpoints) decodes as op "NA",
 * level NA, snoop NA.
 */
#define DS_BITS(v, at, n) (((v) >> (at)) & ((1ULL << (n)) - 1))

void perf_mem_decode(uint64_t ds, struct perf_mem *m)
{
	uint64_t op = DS_BITS(ds, PERF_MEM_OP_SHIFT, 5), lvl = DS_BITS(ds, PERF_MEM_LVL_SHIFT, 14);
	uint64_t snoop = DS_BITS(ds, PERF_MEM_SNOOP_SHIFT, 5);
	uint64_t snoopx = DS_BITS(ds, PERF_MEM_SNOOPX_SHIFT, 2);
	uint64_t num = DS_BITS(ds, PERF_MEM_LVLNUM_SHIFT, 4);
	/* mem_hops HOPS_0 is "remote core, same node": another core, not another package */
	bool rem = DS_BITS(ds, PERF_MEM_REMOTE_SHIFT, 1) &&
		   DS_BITS(ds, PERF_MEM_HOPS_SHIFT, 3) != PERF_MEM_HOPS_0;

	memset(m, 0, sizeof(*m));
	m->load = op & PERF_MEM_OP_LOAD;
	m->store = op & PERF_MEM_OP_STORE;
	m->remote = rem || (lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2 |
				   PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2));
	if (lvl & (PERF_MEM_LVL_REM_CCE1 | PERF_MEM_LVL_REM_CCE2))
		m->level = RING_LVL_REMOTE_CACHE;
	else if (lvl & (PERF_MEM_LVL_REM_RAM1 | PERF_MEM_LVL_REM_RAM2))
		m->level = RING_LVL_REMOTE_RAM;
	else if (lvl & PERF_MEM_LVL_L1)
		m->level = RING_LVL_L1;
	else if (lvl & PERF_MEM_LVL_LFB)
		m->level = RING_LVL_LFB;
	else if (lvl & PERF_MEM_LVL_L2)
		m->level = RING_LVL_L2;
	else if (lvl & PERF_MEM_LVL_L3)
		m->level = RING_LVL_L3;
	else if (lvl & PERF_MEM_LVL_LOC_RAM)
		m->level = rem ? RING_LVL_REMOTE_RAM : RING_LVL_RAM;
	else if (lvl & (PERF_MEM_LVL_IO | PERF_MEM_LVL_UNC))
		m->level = RING_LVL_OTHER;
	else if (num == PERF_MEM_LVLNUM_ANY_CACHE || num == PERF_MEM_LVLNUM_L3)
		/* the SKL patch's 0x0C/0x0D: any cache, with mem_remote and no lvl bit */
		m->level = rem ? RING_LVL_REMOTE_CACHE : num == PERF_MEM_LVLNUM_L3 ?
			   RING_LVL_L3 : RING_LVL_NA;
	else if (num == PERF_MEM_LVLNUM_RAM)
		/* the CMT patch's 0xA-0xD */
		m->level = rem ? RING_LVL_REMOTE_RAM : RING_LVL_RAM;
	else if (num == PERF_MEM_LVLNUM_L1 || num == PERF_MEM_LVLNUM_L2 || num == PERF_MEM_LVLNUM_LFB)
		m->level = num == PERF_MEM_LVLNUM_L1 ? RING_LVL_L1 : num == PERF_MEM_LVLNUM_L2 ?
			   RING_LVL_L2 : RING_LVL_LFB;
	else if (num == PERF_MEM_LVLNUM_L4 || num == PERF_MEM_LVLNUM_PMEM)
		m->level = RING_LVL_OTHER;
	if (snoop & PERF_MEM_SNOOP_HITM)
		m->snoop = RING_SNOOP_HITM;
	else if ((snoop & PERF_MEM_SNOOP_HIT) || (snoopx & PERF_MEM_SNOOPX_FWD))
		m->snoop = RING_SNOOP_HIT;
	else if (snoop & (PERF_MEM_SNOOP_NONE | PERF_MEM_SNOOP_MISS))
		m->snoop = RING_SNOOP_NONE;
}
