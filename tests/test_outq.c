/*
 * test_outq.c: the batch output's writer thread (output/outq.c), on pipes.
 *
 * What is checked: bytes come out whole and in order; a reader that stops
 * reading never blocks outq_push() (the caller sees "not drained" instead,
 * and outq_wait() times out); the queue drains once the reader reads again;
 * a reader gone is reported as EPIPE on the next push and by outq_error();
 * a buffer given (outq_give) comes out in its place like one pushed.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "output/outq.h"

/* Read what is in @fd now (non-blocking), up to @max bytes. */
static size_t drain(int fd, char *buf, size_t max)
{
	size_t n = 0;

	for (;;) {
		ssize_t r = read(fd, buf + n, max - n);

		if (r <= 0 || (n += (size_t)r) == max)
			return n;
	}
}

/* A queue writing into a new pipe @p. */
static struct outq *queue_on_pipe(int p[2])
{
	struct outq *q;

	assert_int_equal(pipe(p), 0);
	q = outq_new(p[1]);
	assert_non_null(q);
	return q;
}

static void test_in_order(void **state)
{
	int p[2];
	struct outq *q;
	char got[64];
	size_t n;

	(void)state;
	q = queue_on_pipe(p);
	assert_int_equal(outq_push(q, "first ", 6), 0);
	assert_int_equal(outq_push(q, "second", 6), 0);
	assert_true(outq_wait(q, 5));
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	n = drain(p[0], got, sizeof(got));
	assert_int_equal(n, 12);
	assert_memory_equal(got, "first second", 12);
	assert_int_equal(outq_error(q), 0);
	outq_free(q);
	close(p[0]);
	close(p[1]);
}

/* A reader that stops: pushes return at once; the queue drains when it reads again. */
static void test_stalled_reader(void **state)
{
	static char block[256 * 1024];
	static char sink[512 * 1024];
	int p[2];
	struct outq *q;
	size_t total = 0;

	(void)state;
	memset(block, 'x', sizeof(block));
	q = queue_on_pipe(p);
	/* Far more than a pipe holds: the writer blocks, the caller does not. */
	assert_int_equal(outq_push(q, block, sizeof(block)), 0);
	assert_int_equal(outq_push(q, block, sizeof(block)), 0);
	assert_false(outq_wait(q, 0.2));
	assert_false(outq_drained(q));
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	for (int i = 0; i < 2000 && total < 2 * sizeof(block); i++) {
		total += drain(p[0], sink, sizeof(sink));
		if (total < 2 * sizeof(block))
			usleep(1000);
	}
	assert_int_equal(total, 2 * sizeof(block));
	assert_true(outq_wait(q, 5));
	assert_true(outq_drained(q));
	outq_free(q);
	close(p[0]);
	close(p[1]);
}

/* The reader is gone: EPIPE, told by the next push and by outq_error(). */
static void test_reader_gone(void **state)
{
	int p[2];
	struct outq *q;

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	q = outq_new(p[1]);
	assert_non_null(q);
	assert_int_equal(outq_push(q, "lost", 4), 0);
	assert_true(outq_wait(q, 5));
	assert_int_equal(outq_error(q), EPIPE);
	errno = 0;
	assert_int_equal(outq_push(q, "more", 4), -1);
	assert_int_equal(errno, EPIPE);
	outq_free(q);
	close(p[1]);
}

static char *dup_bytes(const char *s, size_t n)
{
	char *b = malloc(n);

	assert_non_null(b);
	memcpy(b, s, n);
	return b;
}

/*
 * A buffer given, not copied: in order with what was pushed before and
 * after, whether the queue is empty (taken as it is) or holds bytes the
 * stalled writer has not taken (appended); after an error, freed and the
 * error told.  Run under the sanitizers or valgrind, a buffer freed twice
 * or never shows there.
 */
static void test_give(void **state)
{
	static char block[256 * 1024];
	static char sink[1024 * 1024];
	int p[2];
	struct outq *q;
	size_t total = 0;

	(void)state;
	memset(block, 'x', sizeof(block));
	q = queue_on_pipe(p);
	assert_int_equal(outq_give(q, dup_bytes("first ", 6), 6), 0);
	assert_true(outq_wait(q, 5));
	/* The writer blocks on the full pipe; what follows waits in the queue. */
	assert_int_equal(outq_push(q, block, sizeof(block)), 0);
	assert_int_equal(outq_push(q, block, sizeof(block)), 0);
	assert_int_equal(outq_give(q, dup_bytes("second", 6), 6), 0);
	assert_int_equal(outq_push(q, "third", 5), 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	for (int i = 0; i < 3000 && total < 6 + 2 * sizeof(block) + 11; i++) {
		total += drain(p[0], sink + total, sizeof(sink) - total);
		if (total < 6 + 2 * sizeof(block) + 11)
			usleep(1000);
	}
	assert_int_equal(total, 6 + 2 * sizeof(block) + 11);
	assert_memory_equal(sink, "first ", 6);
	assert_memory_equal(sink + 6, block, sizeof(block));
	assert_memory_equal(sink + 6 + 2 * sizeof(block), "secondthird", 11);
	assert_true(outq_wait(q, 5));
	/* The reader gone: the next buffer given is freed, and the error told. */
	signal(SIGPIPE, SIG_IGN);
	close(p[0]);
	assert_int_equal(outq_push(q, "lost", 4), 0);
	assert_true(outq_wait(q, 5));
	errno = 0;
	assert_int_equal(outq_give(q, dup_bytes("more", 4), 4), -1);
	assert_int_equal(errno, EPIPE);
	outq_free(q);
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_stalled_reader),
		cmocka_unit_test(test_reader_gone),
		cmocka_unit_test(test_give),
	};

	return cmocka_run_group_tests_name("outq", tests, NULL, NULL);
}
