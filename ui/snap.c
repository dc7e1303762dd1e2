/*
 * snap.c: the screen's own copies of frames, and the HITM/s history of
 * each row behind the sparklines.
 *
 * A frame's arrays and strings belong to the main loop and are rewritten
 * every interval (the reasons live in a plan that is rebuilt, the note in
 * a buffer that is reused), so the screen copies what it keeps: the rows,
 * and each distinct string once.  Row arrays and the history are allocated
 * again only when the number of rows changes.  Owns no terminal state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui_internal.h"

/* The distinct strings of a frame: source pointer -> copy in one arena. */
struct snap_str {
	const char **src;
	const char **dst;
	int n, cap;
	char *arena;
	size_t used, size;
};

static int snap_str_note(struct snap_str *t, const char *s)
{
	if (!s)
		return 0;
	for (int i = 0; i < t->n; i++)
		if (t->src[i] == s)
			return 0;
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		const char **a = realloc(t->src, cap * sizeof(*a));

		if (!a)
			return -1;
		t->src = a;
		a = realloc(t->dst, cap * sizeof(*a));
		if (!a)
			return -1;
		t->dst = a;
		t->cap = cap;
	}
	t->src[t->n++] = s;
	t->used += strlen(s) + 1;
	return 0;
}

static const char *snap_str_get(const struct snap_str *t, const char *s)
{
	if (!s)
		return NULL;
	for (int i = 0; i < t->n; i++)
		if (t->src[i] == s)
			return t->dst[i];
	return "";
}

static int snap_str_metrics(struct snap_str *t, const struct metrics *m)
{
	return snap_str_note(t, m->lat.reason) | snap_str_note(t, m->lat.loads_reason) |
	       snap_str_note(t, m->lat.tagged_reason) | snap_str_note(t, m->snoop.reason) |
	       snap_str_note(t, m->snoop.hit_reason) | snap_str_note(t, m->snoop.hitm_reason) |
	       snap_str_note(t, m->snoop.remote.reason) | snap_str_note(t, m->off.reason) |
	       snap_str_note(t, m->off.reads_reason) | snap_str_note(t, m->off.latency_reason);
}

static void snap_str_fix(const struct snap_str *t, struct metrics *m)
{
	m->lat.reason = snap_str_get(t, m->lat.reason);
	m->lat.loads_reason = snap_str_get(t, m->lat.loads_reason);
	m->lat.tagged_reason = snap_str_get(t, m->lat.tagged_reason);
	m->snoop.reason = snap_str_get(t, m->snoop.reason);
	m->snoop.hit_reason = snap_str_get(t, m->snoop.hit_reason);
	m->snoop.hitm_reason = snap_str_get(t, m->snoop.hitm_reason);
	m->snoop.remote.reason = snap_str_get(t, m->snoop.remote.reason);
	m->off.reason = snap_str_get(t, m->off.reason);
	m->off.reads_reason = snap_str_get(t, m->off.reads_reason);
	m->off.latency_reason = snap_str_get(t, m->off.latency_reason);
	/* The scopes are string literals (snoop_scope_name): they stay. */
}

static int snap_rows_fit(struct row **a, int *cap, int n)
{
	struct row *p;

	if (n <= *cap)
		return 0;
	p = realloc(*a, (size_t)n * sizeof(*p));
	if (!p)
		return -1;
	*a = p;
	*cap = n;
	return 0;
}

int snap_copy(struct ui_snap *s, const struct ui_frame *f)
{
	struct snap_str *t;
	int ncpu = f->ncpu > 0 && f->cpu ? f->ncpu : 0;
	int ncore = f->ncore > 0 && f->core ? f->ncore : 0;
	int rows = ncpu + ncore + 1;
	int bad = 0;

	if (!s->str) {
		s->str = calloc(1, sizeof(*s->str));
		if (!s->str)
			return -1;
	}
	t = s->str;
	if (snap_rows_fit(&s->cpu, &s->cap_cpu, ncpu) < 0 ||
	    snap_rows_fit(&s->core, &s->cap_core, ncore) < 0)
		return -1;
	if (rows != s->hist_rows || !s->valid || s->f.ncpu != ncpu || s->f.ncore != ncore) {
		double *h = realloc(s->hist, (size_t)rows * UI_HIST * sizeof(*h));

		if (!h)
			return -1;
		s->hist = h;
		s->hist_rows = rows;
		ring_init(&s->ring, UI_HIST);
	}

	/* The strings: note each distinct one, then copy them into the arena. */
	t->n = 0;
	t->used = 0;
	bad |= snap_str_note(t, f->note) | snap_str_note(t, f->serving) |
	       snap_str_note(t, f->recording) | snap_str_note(t, f->replay_where);
	bad |= snap_str_metrics(t, &f->total);
	for (int i = 0; i < ncpu; i++)
		bad |= snap_str_note(t, f->cpu[i].error) | snap_str_metrics(t, &f->cpu[i].m);
	for (int i = 0; i < ncore; i++)
		bad |= snap_str_note(t, f->core[i].error) | snap_str_metrics(t, &f->core[i].m);
	/* The contended lines: plain data, one copy kept (about 50 kB). */
	if (f->sharing && !s->sharing && !(s->sharing = malloc(sizeof(*s->sharing))))
		bad = 1;
	if (bad)
		return -1;
	if (t->used > t->size) {
		char *a = realloc(t->arena, t->used);

		if (!a)
			return -1;
		t->arena = a;
		t->size = t->used;
	}
	{
		size_t o = 0;

		for (int i = 0; i < t->n; i++) {
			size_t l = strlen(t->src[i]) + 1;

			memcpy(t->arena + o, t->src[i], l);
			t->dst[i] = t->arena + o;
			o += l;
		}
	}

	s->f = *f;
	s->f.ncpu = ncpu;
	s->f.ncore = ncore;
	s->f.note = snap_str_get(t, f->note);
	s->f.serving = snap_str_get(t, f->serving);
	s->f.recording = snap_str_get(t, f->recording);
	s->f.replay_where = snap_str_get(t, f->replay_where);
	if (f->sharing && f->sharing != s->sharing)
		memcpy(s->sharing, f->sharing, sizeof(*s->sharing));
	s->f.sharing = f->sharing ? s->sharing : NULL;
	snap_str_fix(t, &s->f.total);
	if (ncpu)
		memcpy(s->cpu, f->cpu, (size_t)ncpu * sizeof(*s->cpu));
	if (ncore)
		memcpy(s->core, f->core, (size_t)ncore * sizeof(*s->core));
	/* The rates stay the main loop's: the screen draws the metrics only. */
	for (int i = 0; i < ncpu; i++) {
		s->cpu[i].error = snap_str_get(t, s->cpu[i].error);
		s->cpu[i].rates = NULL;
		snap_str_fix(t, &s->cpu[i].m);
	}
	for (int i = 0; i < ncore; i++) {
		s->core[i].error = snap_str_get(t, s->core[i].error);
		s->core[i].rates = NULL;
		snap_str_fix(t, &s->core[i].m);
	}
	s->f.cpu = s->cpu;
	s->f.core = s->core;
	s->valid = true;
	s->seq++;
	return 0;
}

static double snap_row_hitm(const struct row *r, const struct metrics *m)
{
	if ((r && !r->ok) || !m->snoop.supported)
		return NAN;
	return m->snoop.hitm_per_sec;
}

void snap_push(struct ui_snap *s)
{
	int h;

	if (!s->valid || !s->hist)
		return;
	h = ring_push(&s->ring);
	for (int i = 0; i < s->f.ncpu; i++)
		s->hist[(size_t)snap_hist_row(s, false, i) * UI_HIST + h] =
			snap_row_hitm(&s->cpu[i], &s->cpu[i].m);
	for (int i = 0; i < s->f.ncore; i++)
		s->hist[(size_t)snap_hist_row(s, true, i) * UI_HIST + h] =
			snap_row_hitm(&s->core[i], &s->core[i].m);
	s->hist[(size_t)snap_hist_row(s, false, -1) * UI_HIST + h] =
		snap_row_hitm(NULL, &s->f.total);
}

int snap_clone(struct ui_snap *dst, const struct ui_snap *src)
{
	if (!src->valid) {
		dst->valid = false;
		return 0;
	}
	if (snap_copy(dst, &src->f) < 0)
		return -1;
	memcpy(dst->hist, src->hist, (size_t)src->hist_rows * UI_HIST * sizeof(*dst->hist));
	dst->ring = src->ring;
	dst->seq = src->seq;
	return 0;
}

void snap_reset(struct ui_snap *s)
{
	ring_reset(&s->ring);
}

void snap_free(struct ui_snap *s)
{
	if (s->str) {
		free(s->str->src);
		free(s->str->dst);
		free(s->str->arena);
		free(s->str);
	}
	free(s->cpu);
	free(s->core);
	free(s->hist);
	free(s->sharing);
	memset(s, 0, sizeof(*s));
}

int snap_hist_row(const struct ui_snap *s, bool core, int i)
{
	if (i < 0)
		return s->f.ncpu + s->f.ncore;
	return core ? s->f.ncpu + i : i;
}

int snap_hist(const struct ui_snap *s, int r, double *out, int max)
{
	int n = s->ring.len < max ? s->ring.len : max;

	if (!s->valid || !s->hist || r < 0 || r >= s->hist_rows)
		return 0;
	/* The newest n samples, oldest first. */
	for (int k = 0; k < n; k++)
		out[k] = s->hist[(size_t)r * UI_HIST + ring_slot(&s->ring, n, k)];
	return n;
}
