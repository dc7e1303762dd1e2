/*
 * lines.c: the line table (see lines.h for its structure and error).
 *
 * Owns the folding of sampled accesses into lines, their decay, the
 * verdict and the top lines of a frame.  Does not read rings nor know
 * the kernel's records: the sharing sampler decodes, this counts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/lines.h"

#define LINE_MASK (~(uint64_t)(SHARING_LINE_BYTES - 1))

/* A HITM sample outweighs any number of plain accesses a frame can show. */
#define COST_PLAIN 1e-3

/* Fewer decayed samples than this on a line: too few to give a verdict. */
#define VERDICT_MIN 4.0

int lines_init(struct lines *t)
{
	memset(t, 0, sizeof(*t));
	t->slot = calloc(LINES_SLOTS, sizeof(*t->slot));
	t->comm = calloc(LINES_COMMS, sizeof(*t->comm));
	t->used = calloc(LINES_SLOTS, sizeof(*t->used));
	if (!t->slot || !t->comm || !t->used) {
		lines_free(t);
		return -1;
	}
	return 0;
}

void lines_free(struct lines *t)
{
	free(t->slot);
	free(t->comm);
	free(t->used);
	t->slot = NULL;
	t->comm = NULL;
	t->used = NULL;
	t->nused = 0;
}

_Static_assert(LINES_SLOTS <= 65536, "a slot's index fits a uint16_t");

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ULL;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dULL;
	x ^= x >> 33;
	return x;
}

/*
 * A line is its physical address where the kernel gave one (so that one
 * line mapped by two processes is one row), else its virtual address in
 * its process.  Never 0 (a free slot).
 */
static uint64_t line_key(const struct lines_access *a)
{
	if (a->phys)
		return (a->phys & LINE_MASK) | 1;
	return ((a->addr & LINE_MASK) ^ mix((uint64_t)(unsigned)a->pid) << 6) | 2;
}

/* The line of @a: found, or a free slot, or the cheapest of the window replaced. */
static struct lines_line *line_slot(struct lines *t, const struct lines_access *a)
{
	uint64_t key = line_key(a), h = mix(key);
	struct lines_line *cheap = NULL, *l;
	double err = 0;

	/* The whole window: a line that left may have been before this one's place. */
	for (unsigned i = 0; i < LINES_PROBE; i++) {
		l = &t->slot[(h + i) & (LINES_SLOTS - 1)];
		if (l->key == key)
			return l;
		if (!cheap || (cheap->key && (!l->key || l->cost < cheap->cost)))
			cheap = l;
	}
	if (cheap->key) {
		t->evicted++;
		err = cheap->cost;
	} else {
		t->used[t->nused++] = (uint16_t)(cheap - t->slot);     /* a free slot taken */
	}
	memset(cheap, 0, sizeof(*cheap));
	cheap->key = key;
	cheap->addr = a->addr & LINE_MASK;
	cheap->phys = a->phys ? a->phys & LINE_MASK : 0;
	/* space-saving: the newcomer may have had up to what it replaced */
	cheap->cost = cheap->err = err;
	return cheap;
}

static void add_id(int *ids, int *n, int cap, int id)
{
	for (int i = 0; i < *n; i++)
		if (ids[i] == id)
			return;
	if (*n < cap)
		ids[(*n)++] = id;
}

void lines_add(struct lines *t, const struct lines_access *a)
{
	struct lines_line *l = line_slot(t, a);
	struct lines_word *w = &l->word[(a->addr & (SHARING_LINE_BYTES - 1)) / SHARING_WORD_BYTES];

	l->samples += 1;
	l->idle = 0;
	/* by what the sample stands for: the lines rank by estimated HITM, then accesses */
	l->cost += a->hitm ? a->period : a->period * COST_PLAIN;
	if (a->store) {
		l->stores += a->period;
		w->writes += 1;
	} else {
		if (!a->hitm_event)
			l->loads += a->period;
		w->reads += 1;
		if (a->hitm)
			l->hitm += a->period;
		if (a->hitm && a->remote)
			l->rhitm += a->period;
		if (a->weight > 0) {
			l->lat_sum += a->weight;
			l->lat_n += 1;
		}
	}
	if (a->cpu >= 0)
		l->cpus |= 1ULL << (a->cpu % LINES_CPUS);
	add_id(l->pids, &l->npids, SHARING_PROCS, a->pid);
	add_id(w->tids, &w->ntids, SHARING_TIDS, a->tid);
	/* Boyer-Moore majority: the word's hottest instruction in O(1) memory */
	if (a->ip == w->ip)
		w->ip_votes += 1;
	else if (w->ip_votes < 1) {
		w->ip = a->ip;
		w->ip_votes = 1;
	} else
		w->ip_votes -= 1;
}

void lines_comm(struct lines *t, int pid, const char *comm)
{
	uint64_t h = mix((uint64_t)(unsigned)pid);
	struct lines_comm *c = &t->comm[h & (LINES_COMMS - 1)];

	/* One slot a pid: a collision replaces the older name (bounded, never wrong for the newer). */
	c->pid = pid;
	snprintf(c->comm, SHARING_COMM, "%s", comm);
}

static const char *comm_of(const struct lines *t, int pid)
{
	const struct lines_comm *c = &t->comm[mix((uint64_t)(unsigned)pid) & (LINES_COMMS - 1)];

	return c->pid == pid ? c->comm : "";
}

/*
 * False sharing: threads touch different words of the line, one at least
 * writing, and no word has a writer and another thread.  True sharing:
 * some written word is touched by two threads or more.  Unknown: one
 * thread, no writer, or too few samples.  Where no store of the line was
 * sampled (Nehalem and Westmere have no store event) but its loads were
 * served HITM, the HITM is the proof that a word is written, unknown
 * which: every word touched counts as written.
 */
static enum sharing_verdict verdict(const struct lines_line *l)
{
	int tids[SHARING_WORDS * SHARING_TIDS], ntids = 0;
	bool inferred = l->stores <= 0 && l->hitm > 0, written = inferred;

	if (l->samples < VERDICT_MIN)
		return SHARING_UNKNOWN;
	for (int i = 0; i < SHARING_WORDS; i++) {
		const struct lines_word *w = &l->word[i];

		if ((w->writes > 0 || inferred) && w->ntids > 1)
			return SHARING_TRUE;
		written |= w->writes > 0;
		for (int j = 0; j < w->ntids; j++)
			add_id(tids, &ntids, SHARING_WORDS * SHARING_TIDS, w->tids[j]);
	}
	return written && ntids > 1 ? SHARING_FALSE : SHARING_UNKNOWN;
}

static void fill_line(const struct lines *t, const struct lines_line *l, struct sharing_line *o)
{
	double s = t->seconds > 0 ? t->seconds : 1;
	int tids[SHARING_WORDS * SHARING_TIDS], ntids = 0;

	memset(o, 0, sizeof(*o));
	o->addr = l->addr;
	o->phys = l->phys;
	o->hitm_per_sec = l->hitm / s;
	o->remote_hitm_per_sec = l->rhitm / s;
	o->loads_per_sec = l->loads / s;
	o->stores_per_sec = l->stores / s;
	o->mean_latency_cycles = l->lat_n > 0 ? l->lat_sum / l->lat_n : NAN;
	o->verdict = verdict(l);
	o->ncpus = __builtin_popcountll(l->cpus);
	o->node = -1;
	o->nprocs = l->npids;
	for (int i = 0; i < l->npids; i++) {
		o->procs[i].pid = l->pids[i];
		snprintf(o->procs[i].comm, SHARING_COMM, "%s", comm_of(t, l->pids[i]));
	}
	double top = -1;

	for (int i = 0; i < SHARING_WORDS; i++) {
		const struct lines_word *w = &l->word[i];
		struct sharing_word *ow;

		if (w->reads <= 0 && w->writes <= 0)
			continue;
		ow = &o->words[o->nwords++];
		ow->offset = (unsigned)(i * SHARING_WORD_BYTES);
		ow->reads = w->reads;
		ow->writes = w->writes;
		ow->ntids = w->ntids;
		memcpy(ow->tids, w->tids, sizeof(ow->tids));
		ow->top_ip = w->ip;
		for (int j = 0; j < w->ntids; j++)
			add_id(tids, &ntids, SHARING_WORDS * SHARING_TIDS, w->tids[j]);
		if (w->reads + w->writes > top) {
			top = w->reads + w->writes;
			o->top_ip = w->ip;
		}
	}
	o->nthreads = ntids;
}

static int by_cost(const void *a, const void *b)
{
	const struct lines_line *x = *(struct lines_line *const *)a, *y = *(struct lines_line *const *)b;

	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	if (x->addr != y->addr)
		return x->addr > y->addr ? 1 : -1;
	/* One address in two processes: by key, whatever order the slots are visited in. */
	return (x->key > y->key) - (x->key < y->key);
}

void lines_interval(struct lines *t, double seconds, struct sharing_frame *f)
{
	struct lines_line *top[SHARING_TOP];
	int n = 0;

	t->seconds += seconds;
	/* The top lines by cost: a partial selection, SHARING_TOP is small. */
	for (unsigned u = 0; u < t->nused; u++) {
		struct lines_line *l = &t->slot[t->used[u]];
		int at;

		if (l->samples <= 0)
			continue;
		if (n == SHARING_TOP && by_cost(&l, &top[n - 1]) >= 0)
			continue;
		at = n < SHARING_TOP ? n++ : n - 1;
		while (at > 0 && by_cost(&l, &top[at - 1]) < 0) {
			top[at] = top[at - 1];
			at--;
		}
		top[at] = l;
	}
	f->nlines = n;
	for (int i = 0; i < n; i++)
		fill_line(t, top[i], &f->line[i]);
	/* Decay: what happened an interval ago weighs LINES_DECAY of what happens now. */
	t->seconds *= LINES_DECAY;
	/* From the end: a line that leaves takes the list's last, already visited, in its place. */
	for (unsigned u = t->nused; u-- > 0;) {
		struct lines_line *l = &t->slot[t->used[u]];

		l->samples *= LINES_DECAY;
		if (l->samples < LINES_FORGET || ++l->idle > LINES_IDLE) {
			memset(l, 0, sizeof(*l));
			t->used[u] = t->used[--t->nused];
			continue;
		}
		l->cost *= LINES_DECAY;
		l->err *= LINES_DECAY;
		l->hitm *= LINES_DECAY;
		l->rhitm *= LINES_DECAY;
		l->loads *= LINES_DECAY;
		l->stores *= LINES_DECAY;
		l->lat_sum *= LINES_DECAY;
		l->lat_n *= LINES_DECAY;
		for (int w = 0; w < SHARING_WORDS; w++) {
			l->word[w].reads *= LINES_DECAY;
			l->word[w].writes *= LINES_DECAY;
			l->word[w].ip_votes *= LINES_DECAY;
		}
	}
}
