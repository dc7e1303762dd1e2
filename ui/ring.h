/*
 * ring.h: the ring of slots behind both histories the screen keeps, the
 * sparklines' HITM/s (snap.c) and the history view's frames (history.c).
 * It owns only the slot arithmetic: where the next sample goes, and where
 * the newest ones are, oldest first.  Each user keeps its values in arrays
 * of @size slots of its own.  Nothing of curses or frames, so that
 * tests/test_ring.c includes it alone.
 */
#ifndef LATTOP_UI_RING_H
#define LATTOP_UI_RING_H

struct ring {
	int size;               /* slots */
	int len, head;          /* samples held; the slot the next one goes to */
};

/* Empty it; its size stays. */
static inline void ring_reset(struct ring *r)
{
	r->len = 0;
	r->head = 0;
}

/* An empty ring of @size (> 0) slots. */
static inline void ring_init(struct ring *r, int size)
{
	r->size = size;
	ring_reset(r);
}

/* The slot for a new sample, now counted in: once full, the oldest one's. */
static inline int ring_push(struct ring *r)
{
	int slot = r->head;

	r->head = (slot + 1) % r->size;
	if (r->len < r->size)
		r->len++;
	return slot;
}

/* The slot of the @i-th of the newest @n samples (@n at most len), oldest first. */
static inline int ring_slot(const struct ring *r, int n, int i)
{
	return (r->head - n + i + 2 * r->size) % r->size;
}

#endif
