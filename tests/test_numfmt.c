/*
 * test_numfmt.c: the fast number formatter against glibc's printf, and the
 * text report's cells built on it (SI suffixes, fixed decimals, "-").
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/numfmt.h"

static void is(double v, int sig, const char *want)
{
	char buf[64];

	numfmt(buf, v, sig);
	if (strcmp(buf, want))
		print_error("numfmt(%.17g, %d) = \"%s\", want \"%s\"\n", v, sig, buf, want);
	assert_string_equal(buf, want);
}

static void test_exact(void **state)
{
	(void)state;
	is(0, 6, "0");
	is(1, 6, "1");
	is(-3, 6, "-3");
	is(2.4, 6, "2.4");
	is(180, 6, "180");
	is(75.0, 6, "75");
	is(0.5, 6, "0.5");
	is(0.05, 6, "0.05");
	is(123456, 6, "123456");
	is(1234567, 6, "1234570");
	is(999999.7, 6, "1000000");
	is(0.000123456789, 6, "0.000123457");
	is(4e8, 6, "400000000");
	is(1.5e14, 6, "150000000000000");
	is(3.14159265, 3, "3.14");
	is(99.96, 3, "100");
	is(1e-5, 6, "1e-05");        /* outside the fast range: %g */
	is(2e15, 6, "2e+15");
	is(NAN, 6, "");
	is(INFINITY, 6, "");
}

static void test_against_printf(void **state)
{
	uint64_t x = 88172645463325252ull;
	char a[64], b[64];

	(void)state;
	for (int i = 0; i < 200000; i++) {
		double v, ga, gb;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* log-uniform over the fast range, both signs */
		v = pow(10, -4 + 19.0 * (double)(x >> 11) / 9007199254740992.0);
		if (v >= 1e15)
			v = 9.99e14;
		if (x & 1)
			v = -v;
		numfmt(a, v, 6);
		snprintf(b, sizeof(b), "%.6g", v);
		ga = strtod(a, NULL);
		gb = strtod(b, NULL);
		/* Six significant digits either way: at most one unit in the sixth apart. */
		if (fabs(ga - gb) > fabs(gb) * 1.01e-5) {
			print_error("%.17g: numfmt \"%s\", printf \"%s\"\n", v, a, b);
			fail();
		}
		if (!strchr(a, 'e') && (strlen(a) > 22 || strspn(a, "-0123456789.") != strlen(a))) {
			print_error("%.17g: \"%s\" is not a plain number\n", v, a);
			fail();
		}
	}
}

/*
 * Where the decimal exponent changes: every power of ten of the fast range,
 * its neighbouring doubles, the numbers that round up to it, and two whose
 * seventh digit rounds the sixth up (an exponent found one too low would
 * cut them instead), each with the digits printf's %.6g gives (numfmt's
 * dec_exp() takes one compare on an estimate from the binary exponent).
 */
static void test_powers_of_ten(void **state)
{
	char a[64], b[64];

	(void)state;
	for (int e = -4; e < 15; e++) {
		double p = pow(10, e);
		double near[] = {
			p, nextafter(p, 0), nextafter(p, INFINITY), p * (1 - 4e-7), p * (1 - 6e-7),
			p * 9.999994 / 10, p * 9.999996 / 10, p * 1.2345678, p * 1.9999996,
		};

		for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++) {
			double v = near[i];

			if (v < 1e-4 || v >= 1e15)
				continue;
			numfmt(a, v, 6);
			snprintf(b, sizeof(b), "%.6g", v);
			/* The same six digits: none of these is near a tie. */
			if (strtod(a, NULL) != strtod(b, NULL) || strlen(a) > 22) {
				print_error("%.17g: numfmt \"%s\", printf \"%s\"\n", v, a, b);
				fail();
			}
		}
	}
}

static void fixed(double v, int d, const char *want)
{
	char buf[64];

	numfmt_fixed(buf, v, d);
	assert_string_equal(buf, want);
}

static void test_fixed(void **state)
{
	char a[64], b[64];

	(void)state;
	fixed(2.4, 2, "2.40");
	fixed(0.005, 2, "0.01");
	fixed(-0.001, 2, "0.00");
	fixed(123.456, 1, "123.5");
	fixed(75, 0, "75");
	fixed(-2.5, 1, "-2.5");
	fixed(NAN, 2, "");
	/* Beyond 1e15: cut to the 32 bytes of the buffer, the length what was written. */
	assert_int_equal(numfmt_fixed(a, 1e300, 2), 31);
	assert_int_equal((int)strlen(a), 31);
	for (double v = 0.001; v < 1e7; v *= 1.37) {
		numfmt_fixed(a, v, 2);
		snprintf(b, sizeof(b), "%.2f", v);
		assert_true(fabs(strtod(a, NULL) - strtod(b, NULL)) <= 0.0100001);
	}
}

/* numfmt_int writes what numfmt_fixed(v, 0) does, on both sides of 1e15 and at the ends. */
static void test_int(void **state)
{
	static const long long v[] = {
		0, 1, -1, 9, 10, 99, 100, 512, -512, 123456789, 999999999999999LL,
		1000000000000000LL, -999999999999999LL, -1000000000000000LL,
		9007199254740993LL, INT64_MAX, INT64_MIN,
	};
	char a[64], b[64];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		int ka = numfmt_int(a, v[i]), kb = numfmt_fixed(b, (double)v[i], 0);

		assert_string_equal(a, b);
		assert_int_equal(ka, kb);
	}
	for (long long x = 1; x < INT64_MAX / 7; x = x * 7 + 3) {
		numfmt_int(a, -x);
		snprintf(b, sizeof(b), "%lld", -x);
		if (x < 1000000000000000LL)
			assert_string_equal(a, b);
	}
}

static void si_small(double v, int small, const char *want)
{
	char buf[32];

	numfmt_si(buf, sizeof(buf), v, small);
	if (strcmp(buf, want))
		print_error("numfmt_si(%.17g, %d) = \"%s\", want \"%s\"\n", v, small, buf, want);
	assert_string_equal(buf, want);
}

static void si(double v, const char *want)
{
	si_small(v, 0, want);
}

static void test_si(void **state)
{
	char small[4];

	(void)state;
	si(0, "0");
	si(5.5, "6");                   /* no suffix: no decimals */
	si(999.4, "999");
	si(999.5, "1.0k");              /* rounds up into the next suffix */
	si(9949, "9.9k");
	si(9950, "10k");
	si(50000, "50k");
	si(2.4e6, "2.4M");
	si(3.8e9, "3.8G");
	si(-2.5e6, "-2.5M");
	si(1.5e15, "1.5P");
	si(999e15, "999P");
	si(1e18, ">999P");              /* a damaged recording: no room for the digits */
	si(-1e18, "<-999P");
	si(NAN, "-");
	si(INFINITY, "-");
	/* The screen's: one decimal also without a suffix, for what is not whole. */
	si_small(5.5, 1, "5.5");
	si_small(5, 1, "5");
	si_small(-0.25, 1, "-0.3");     /* as numfmt_fixed rounds: half away from 0 */
	si_small(9.94, 1, "9.9");
	si_small(9.95, 1, "10");
	si_small(2.4e6, 1, "2.4M");
	si_small(999e15, 1, "999P");
	si_small(NAN, 1, "-");
	/* Cut to the buffer. */
	numfmt_si(small, sizeof(small), 2.4e6, 0);
	assert_string_equal(small, "2.4");
}

static void si_bound(double v, int small, bool up, const char *want)
{
	char buf[32];

	numfmt_si_bound(buf, sizeof(buf), v, small, up);
	if (strcmp(buf, want))
		print_error("numfmt_si_bound(%.17g, %d, %d) = \"%s\", want \"%s\"\n", v, small, up,
			    buf, want);
	assert_string_equal(buf, want);
}

/*
 * Bounds print rounded away from what they bound: a lower bound of 7.9
 * rounded to the nearest, "8", would exclude a mean of 7.95.
 */
static void test_si_bound(void **state)
{
	(void)state;
	si_bound(7.9, 0, false, "7");
	si_bound(7.9, 1, false, "7.9");
	si_bound(7.96, 1, false, "7.9");
	si_bound(7.96, 1, true, "8");
	si_bound(20.6, 0, true, "21");
	si_bound(20.1, 0, true, "21");
	si_bound(21, 0, true, "21");
	si_bound(513, 0, false, "513");
	si_bound(1549, 0, false, "1.5k");
	si_bound(1549, 0, true, "1.6k");
	si_bound(999.4, 0, true, "1.0k");       /* up past 999: the next suffix */
	si_bound(9.96e3, 0, false, "9.0k");     /* no decimal from 9.95k: down to the whole k */
	si_bound(9.96e3, 0, true, "10k");
	si_bound(8 - 1e-12, 0, false, "8");     /* 8 computed a hair low is still 8 */
	si_bound(NAN, 0, false, "-");
}

static void test_cell(void **state)
{
	char buf[32];

	(void)state;
	numfmt_cell(buf, sizeof(buf), 75.04, 1);
	assert_string_equal(buf, "75.0");
	numfmt_cell(buf, sizeof(buf), 2.345, 2);
	assert_string_equal(buf, "2.35");
	numfmt_cell(buf, sizeof(buf), 180.5, 0);
	assert_string_equal(buf, "181");
	numfmt_cell(buf, sizeof(buf), NAN, 2);
	assert_string_equal(buf, "-");
	numfmt_cell(buf, sizeof(buf), -INFINITY, 0);
	assert_string_equal(buf, "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_against_printf),
		cmocka_unit_test(test_powers_of_ten),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_int),
		cmocka_unit_test(test_si),
		cmocka_unit_test(test_si_bound),
		cmocka_unit_test(test_cell),
	};

	return cmocka_run_group_tests_name("numfmt", tests, NULL, NULL);
}
