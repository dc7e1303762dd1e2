/*
 * outq.c: the batch output's writer thread (see outq.h).
 *
 * One mutex, one condition for "something to write", one for "drained".
 * Signals stay with the main thread: the writer blocks them all.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/grow.h"
#include "output/outq.h"

struct outq {
	int fd;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t more, done;
	char *buf;              /* bytes queued, not yet taken by the writer */
	size_t len, cap;
	bool busy;              /* the writer holds bytes it is writing */
	bool quit;
	int error;
};

static void *outq_writer(void *arg)
{
	struct outq *q = arg;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		char *out;
		size_t n, off = 0;

		while (!q->len && !q->quit)
			pthread_cond_wait(&q->more, &q->mu);
		if (!q->len && q->quit)
			break;
		out = q->buf;
		n = q->len;
		q->buf = NULL;
		q->len = q->cap = 0;
		q->busy = true;
		pthread_mutex_unlock(&q->mu);
		while (off < n) {
			ssize_t w = write(q->fd, out + off, n - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
				/* Someone made the file non-blocking: wait here, as a blocking write would. */
				struct pollfd pfd = { .fd = q->fd, .events = POLLOUT };

				poll(&pfd, 1, -1);
				continue;
			}
			if (w <= 0) {
				pthread_mutex_lock(&q->mu);
				if (!q->error)
					q->error = w < 0 ? errno : EIO;
				pthread_mutex_unlock(&q->mu);
				break;
			}
			off += (size_t)w;
		}
		free(out);
		pthread_mutex_lock(&q->mu);
		q->busy = false;
		if (!q->len)
			pthread_cond_broadcast(&q->done);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

struct outq *outq_new(int fd)
{
	struct outq *q = calloc(1, sizeof(*q));
	sigset_t all, old;
	int e;

	if (!q)
		return NULL;
	q->fd = fd;
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->more, NULL);
	pthread_cond_init(&q->done, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&q->thread, NULL, outq_writer, q);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		free(q);
		errno = e;
		return NULL;
	}
	return q;
}

int outq_push(struct outq *q, const char *buf, size_t len)
{
	int r = 0;

	pthread_mutex_lock(&q->mu);
	if (q->error) {
		errno = q->error;
		r = -1;
	} else if (len) {
		char *nb = grow_array(q->buf, &q->cap, q->len + len, 1, 4096);

		if (!nb) {
			pthread_mutex_unlock(&q->mu);
			errno = ENOMEM;
			return -1;
		}
		q->buf = nb;
		memcpy(q->buf + q->len, buf, len);
		q->len += len;
		pthread_cond_signal(&q->more);
	}
	pthread_mutex_unlock(&q->mu);
	return r;
}

int outq_give(struct outq *q, char *buf, size_t len)
{
	int r;

	pthread_mutex_lock(&q->mu);
	if (!q->error && len && !q->len) {
		/* Nothing queued: the bytes are queued where they are. */
		free(q->buf);
		q->buf = buf;
		q->len = q->cap = len;
		pthread_cond_signal(&q->more);
		pthread_mutex_unlock(&q->mu);
		return 0;
	}
	pthread_mutex_unlock(&q->mu);
	r = outq_push(q, buf, len);
	free(buf);
	return r;
}

bool outq_drained(struct outq *q)
{
	bool d;

	pthread_mutex_lock(&q->mu);
	d = (!q->len && !q->busy) || q->error;
	pthread_mutex_unlock(&q->mu);
	return d;
}

bool outq_wait(struct outq *q, double seconds)
{
	struct timespec ts;
	bool d;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)seconds;
	ts.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&q->mu);
	while (!((!q->len && !q->busy) || q->error))
		if (pthread_cond_timedwait(&q->done, &q->mu, &ts) == ETIMEDOUT)
			break;
	d = (!q->len && !q->busy) || q->error;
	pthread_mutex_unlock(&q->mu);
	return d;
}

int outq_error(struct outq *q)
{
	int e;

	pthread_mutex_lock(&q->mu);
	e = q->error;
	pthread_mutex_unlock(&q->mu);
	return e;
}

void outq_free(struct outq *q)
{
	bool stuck;

	if (!q)
		return;
	pthread_mutex_lock(&q->mu);
	q->quit = true;
	stuck = q->busy || q->len;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->mu);
	if (stuck) {
		/* Blocked in write() on a reader that is gone: the process exit ends it. */
		pthread_detach(q->thread);
		return;
	}
	pthread_join(q->thread, NULL);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->done);
	free(q->buf);
	free(q);
}
