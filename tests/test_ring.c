/*
 * test_ring.c: the ring of slots (ui/ring.h) behind the sparklines' HITM/s
 * (ui/snap.c) and the history view's frames (ui/history.c).
 *
 * What is checked, with values kept in a plain array as both users keep
 * theirs: samples come back oldest first, the newest n of them for any n
 * up to those held; past the size the oldest give way, on every wrap; a
 * reset empties it and the next sample is the first again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ui/ring.h"

#define SIZE 5

/* Push sample @v: its slot holds it. */
static void push(struct ring *r, int *vals, int v)
{
	int k = ring_push(r);

	assert_in_range(k, 0, SIZE - 1);
	vals[k] = v;
}

/* The newest @n samples are @last - n + 1 .. @last, oldest first. */
static void assert_newest(const struct ring *r, const int *vals, int n, int last)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(vals[ring_slot(r, n, i)], last - n + 1 + i);
}

static void test_ring_order(void **state)
{
	struct ring r;
	int vals[SIZE];

	(void)state;
	ring_init(&r, SIZE);
	assert_int_equal(r.len, 0);
	for (int v = 1; v <= 3; v++)
		push(&r, vals, v);
	assert_int_equal(r.len, 3);
	for (int n = 1; n <= 3; n++)
		assert_newest(&r, vals, n, 3);
}

static void test_ring_wraps(void **state)
{
	struct ring r;
	int vals[SIZE];

	(void)state;
	ring_init(&r, SIZE);
	/* Three times round and a bit: never more than SIZE held, always the newest. */
	for (int v = 1; v <= 3 * SIZE + 2; v++) {
		push(&r, vals, v);
		assert_int_equal(r.len, v < SIZE ? v : SIZE);
		for (int n = 1; n <= r.len; n++)
			assert_newest(&r, vals, n, v);
	}
	/* Each slot once in a full ring's walk. */
	{
		int seen = 0;

		for (int i = 0; i < SIZE; i++)
			seen |= 1 << ring_slot(&r, SIZE, i);
		assert_int_equal(seen, (1 << SIZE) - 1);
	}
}

static void test_ring_reset(void **state)
{
	struct ring r;
	int vals[SIZE];

	(void)state;
	ring_init(&r, SIZE);
	for (int v = 1; v <= SIZE + 3; v++)
		push(&r, vals, v);
	ring_reset(&r);
	assert_int_equal(r.len, 0);
	assert_int_equal(r.size, SIZE);
	push(&r, vals, 100);
	assert_int_equal(r.len, 1);
	assert_newest(&r, vals, 1, 100);
	push(&r, vals, 101);
	assert_newest(&r, vals, 2, 101);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_order),
		cmocka_unit_test(test_ring_wraps),
		cmocka_unit_test(test_ring_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
