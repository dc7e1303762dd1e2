/*
 * grow.h: room in an array that grows by doubling.
 *
 * Owns only the arithmetic of growing (the first size, doubling, overflow)
 * and the realloc; each array, its length and its capacity belong to the
 * module that keeps it (outq.c's queue, record.c's buffers and frames,
 * journal.c's records, export.c's exposition).  Header only, so that a
 * fuzz harness that links a module or two needs nothing more.
 */
#ifndef LATTOP_GROW_H
#define LATTOP_GROW_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Room for @need (at least 1) elements of @size bytes in @p, an array of
 * *@cap elements (NULL and 0 at first).  Returns @p when it has room;
 * otherwise @p reallocated to @first elements, doubled until @need fit,
 * with *@cap updated.  NULL with errno ENOMEM when memory is short or the
 * size would overflow: @p and *@cap are then unchanged, still the caller's.
 */
static inline void *grow_array(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *q;

	if (need <= *cap)
		return p;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			goto nomem;
		n *= 2;
	}
	if (size && n > SIZE_MAX / size)
		goto nomem;
	q = realloc(p, n * size);
	if (!q)
		goto nomem;
	*cap = n;
	return q;
nomem:
	errno = ENOMEM;
	return NULL;
}

#endif
