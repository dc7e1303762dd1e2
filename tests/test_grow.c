/*
 * test_grow.c: the growing array of lib/grow.h, which the output queue,
 * the recording, the journal and the exposition all grow their buffers with.
 *
 * What is checked: the first size, doubling until the need fits, no
 * reallocation while there is room, the contents kept, and a size that
 * would overflow refused with the array and its capacity untouched.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/grow.h"

static void test_grow_first_then_doubles(void **state)
{
	size_t cap = 0;
	int *a = NULL, *b;

	(void)state;
	a = grow_array(a, &cap, 1, sizeof(*a), 16);
	assert_non_null(a);
	assert_int_equal(cap, 16);
	for (int k = 0; k < 16; k++)
		a[k] = k;
	/* Room enough: the same array, not reallocated. */
	assert_ptr_equal(grow_array(a, &cap, 16, sizeof(*a), 16), a);
	assert_int_equal(cap, 16);
	/* 17 fit in 32; 100 in 128 (16 doubled three times). */
	a = grow_array(a, &cap, 17, sizeof(*a), 16);
	assert_non_null(a);
	assert_int_equal(cap, 32);
	b = grow_array(a, &cap, 100, sizeof(*a), 16);
	assert_non_null(b);
	assert_int_equal(cap, 128);
	for (int k = 0; k < 16; k++)
		assert_int_equal(b[k], k);
	free(b);
}

static void test_grow_overflow_refused(void **state)
{
	size_t cap = 0;
	char *p = grow_array(NULL, &cap, 10, 1, 4096), *q;

	(void)state;
	assert_non_null(p);
	assert_int_equal(cap, 4096);
	errno = 0;
	q = grow_array(p, &cap, SIZE_MAX, 1, 4096);
	assert_null(q);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cap, 4096);
	/* Elements of 16 bytes: 2^62 of them would not fit in a size_t. */
	errno = 0;
	q = grow_array(p, &cap, (size_t)1 << 62, 16, 4096);
	assert_null(q);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cap, 4096);
	/* Still the caller's, and still usable. */
	memset(p, 'x', cap);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_first_then_doubles),
		cmocka_unit_test(test_grow_overflow_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
