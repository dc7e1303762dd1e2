/*
 * record_sharing.c: the contended lines of a recorded frame (struct
 * sharing_frame, engine/sharing.h), a section of the frame's structure
 * from version 3 on (record.c's top comment says where it goes).
 *
 * Layout ("u" a varint, "z" a zigzag one, "s" a string, "d" a double as
 * its 8 bytes, little-endian):
 *
 *   u supported (bit 0; bit 1: HITM from the snoop events, not a lower
 *   bound), s reason, u samples, u lost, u throttled, u period,
 *   d interval, u nlines, then per line: u addr, u phys, d HITM/s,
 *   d remote HITM/s, d loads/s, d stores/s, d mean latency, u verdict,
 *   u threads, u CPUs, z node, u processes (as counted), per process
 *   named (at most SHARING_PROCS): z pid, s comm; u words, per word:
 *   u offset, d reads, d writes, u threads (as counted), z each thread
 *   named (at most SHARING_TIDS), u its top instruction, s its symbol;
 *   u the line's top instruction, s its symbol.
 *
 * The frame is plain data: what is read back is what was written, bit for
 * bit, so a replay prints what the live run printed.  Owns this section
 * only; knows no file, no block and no other section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_internal.h"

#define COUNT_MAX (1u << 30)    /* processes or threads counted: more is not a frame */

static void put_d(struct record_buf *b, double v)
{
	uint64_t bits;
	uint8_t t[8];

	memcpy(&bits, &v, sizeof(bits));
	for (int i = 0; i < 8; i++)
		t[i] = (uint8_t)(bits >> (8 * i));
	buf_put(b, t, sizeof(t));
}

static double get_d(struct cur *c)
{
	uint64_t bits = 0;
	double v;

	if (c->bad || c->n - c->off < 8) {
		c->bad = true;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		bits |= (uint64_t)c->p[c->off + i] << (8 * i);
	c->off += 8;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

static void put_z(struct record_buf *b, int64_t v)
{
	buf_u(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* A string into @dst (@len bytes): longer than the field is not a frame the writer makes. */
static void get_s(struct cur *c, char *dst, size_t len)
{
	char *s = cur_s(c);

	dst[0] = 0;
	if (!s)
		return;
	if (strlen(s) >= len)
		c->bad = true;
	else
		memcpy(dst, s, strlen(s) + 1);
	free(s);
}

/* A field of a fixed-size array, written as the C string it holds. */
static void put_f(struct record_buf *b, const char *s, size_t len)
{
	char t[256];

	snprintf(t, sizeof(t), "%.*s", (int)(len - 1), s);
	buf_s(b, t);
}

static void put_word(struct record_buf *b, const struct sharing_word *w)
{
	int nt = w->ntids < 0 ? 0 : w->ntids;

	buf_u(b, w->offset);
	put_d(b, w->reads);
	put_d(b, w->writes);
	buf_u(b, (uint64_t)nt);
	for (int i = 0; i < nt && i < SHARING_TIDS; i++)
		put_z(b, w->tids[i]);
	buf_u(b, w->top_ip);
	put_f(b, w->symbol, sizeof(w->symbol));
}

static void put_line(struct record_buf *b, const struct sharing_line *l)
{
	int np = l->nprocs < 0 ? 0 : l->nprocs;
	int nw = l->nwords < 0 ? 0 : l->nwords < SHARING_WORDS ? l->nwords : SHARING_WORDS;

	buf_u(b, l->addr);
	buf_u(b, l->phys);
	put_d(b, l->hitm_per_sec);
	put_d(b, l->remote_hitm_per_sec);
	put_d(b, l->loads_per_sec);
	put_d(b, l->stores_per_sec);
	put_d(b, l->mean_latency_cycles);
	buf_u(b, (uint64_t)l->verdict);
	buf_u(b, (uint64_t)(l->nthreads < 0 ? 0 : l->nthreads));
	buf_u(b, (uint64_t)(l->ncpus < 0 ? 0 : l->ncpus));
	put_z(b, l->node);
	buf_u(b, (uint64_t)np);
	for (int i = 0; i < np && i < SHARING_PROCS; i++) {
		put_z(b, l->procs[i].pid);
		put_f(b, l->procs[i].comm, sizeof(l->procs[i].comm));
	}
	buf_u(b, (uint64_t)nw);
	for (int i = 0; i < nw; i++)
		put_word(b, &l->words[i]);
	buf_u(b, l->top_ip);
	put_f(b, l->top_symbol, sizeof(l->top_symbol));
}

void record_sharing_put(struct record_buf *b, const struct sharing_frame *fr)
{
	int n = fr->nlines < 0 ? 0 : fr->nlines < SHARING_TOP ? fr->nlines : SHARING_TOP;

	buf_u(b, (uint64_t)fr->supported | (uint64_t)(fr->supported && !fr->hitm_lower_bound) << 1);
	put_f(b, fr->supported ? "" : fr->reason, sizeof(fr->reason));
	buf_u(b, fr->samples);
	buf_u(b, fr->lost);
	buf_u(b, fr->throttled);
	buf_u(b, fr->period);
	put_d(b, fr->interval_s);
	buf_u(b, (uint64_t)(fr->supported ? n : 0));
	for (int i = 0; fr->supported && i < n; i++)
		put_line(b, &fr->line[i]);
}

static int get_z32(struct cur *c)
{
	int64_t v = cur_z(c);

	if (v < -(int64_t)COUNT_MAX || v > (int64_t)COUNT_MAX)
		c->bad = true;
	return (int)v;
}

static void get_word(struct cur *c, struct sharing_word *w)
{
	w->offset = cur_small(c, SHARING_LINE_BYTES - SHARING_WORD_BYTES);
	if (w->offset % SHARING_WORD_BYTES)
		c->bad = true;
	w->reads = get_d(c);
	w->writes = get_d(c);
	w->ntids = (int)cur_small(c, COUNT_MAX);
	for (int i = 0; !c->bad && i < w->ntids && i < SHARING_TIDS; i++)
		w->tids[i] = get_z32(c);
	w->top_ip = cur_u(c);
	get_s(c, w->symbol, sizeof(w->symbol));
}

static void get_line(struct cur *c, struct sharing_line *l)
{
	l->addr = cur_u(c);
	l->phys = cur_u(c);
	l->hitm_per_sec = get_d(c);
	l->remote_hitm_per_sec = get_d(c);
	l->loads_per_sec = get_d(c);
	l->stores_per_sec = get_d(c);
	l->mean_latency_cycles = get_d(c);
	l->verdict = (enum sharing_verdict)cur_small(c, SHARING_TRUE);
	l->nthreads = (int)cur_small(c, COUNT_MAX);
	l->ncpus = (int)cur_small(c, COUNT_MAX);
	l->node = get_z32(c);
	l->nprocs = (int)cur_small(c, COUNT_MAX);
	for (int i = 0; !c->bad && i < l->nprocs && i < SHARING_PROCS; i++) {
		l->procs[i].pid = get_z32(c);
		get_s(c, l->procs[i].comm, sizeof(l->procs[i].comm));
	}
	l->nwords = (int)cur_small(c, SHARING_WORDS);
	for (int i = 0; !c->bad && i < l->nwords; i++)
		get_word(c, &l->words[i]);
	l->top_ip = cur_u(c);
	get_s(c, l->top_symbol, sizeof(l->top_symbol));
}

void record_sharing_get(struct cur *c, struct sharing_frame *fr)
{
	uint64_t sup;

	memset(fr, 0, sizeof(*fr));
	sup = cur_small(c, 3);
	fr->supported = sup & 1;
	fr->hitm_lower_bound = sup == 1;
	get_s(c, fr->reason, sizeof(fr->reason));
	fr->samples = cur_u(c);
	fr->lost = cur_u(c);
	fr->throttled = cur_u(c);
	fr->period = cur_u(c);
	fr->interval_s = get_d(c);
	fr->nlines = (int)cur_small(c, fr->supported ? SHARING_TOP : 0);
	for (int i = 0; !c->bad && i < fr->nlines; i++)
		get_line(c, &fr->line[i]);
}
