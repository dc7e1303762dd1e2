/*
 * outq.h: batch output written by a thread of its own, so that a reader
 * that stops reading (a full pipe, a stalled SSH) never stops the sampler.
 *
 * The main thread renders a report into memory and queues it; the writer
 * thread writes it to the file descriptor, blocking as long as it must.
 * The caller asks whether the queue has drained and decides what to do
 * while it has not (lattop puts every register back: see main.c).
 * Owns the writer thread and the bytes not yet written; knows nothing of
 * reports or registers.
 */
#ifndef LATTOP_OUTQ_H
#define LATTOP_OUTQ_H

#include <stdbool.h>
#include <stddef.h>

struct outq;

/* A queue writing to @fd, its thread started; NULL with errno on failure. */
struct outq *outq_new(int fd);

/* Queue a copy of @len bytes.  0, or -1 with errno (a write already failed: its error). */
int outq_push(struct outq *q, const char *buf, size_t len);

/*
 * Queue @len bytes of @buf, a malloc'd buffer the queue then owns (it is
 * freed, whatever the result): when nothing is queued, without a copy.
 * A snapshot of 1024 CPUs is 2 MB.  0, or -1 with errno, as outq_push().
 */
int outq_give(struct outq *q, char *buf, size_t len);

/* Everything queued has been written (or a write failed). */
bool outq_drained(struct outq *q);

/* Wait at most @seconds for the queue to drain; true when it has. */
bool outq_wait(struct outq *q, double seconds);

/* The errno of the first write that failed, or 0. */
int outq_error(struct outq *q);

/* Stop the thread (it may be blocked in write: then it is left behind) and free what can be. */
void outq_free(struct outq *q);

#endif
