/*
 * numfmt.c: the measured numbers as text without printf (see numfmt.h):
 * significant digits (numfmt) and fixed decimals (numfmt_fixed) for the
 * JSON and csv snapshots, and on them the cells of the text report and of
 * the screen, with SI suffixes or fixed decimals (numfmt_si, numfmt_cell).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "output/numfmt.h"

static const double pow10_tab[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19,
};

/* The same, as integers: what a number's digits are compared with. */
static const uint64_t pow10_int[] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull,
};

/* 10^e for e in -5..15, the literals: what the decimal exponent is found against. */
static const double pow10_exp[] = {
	1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15,
};
#define POW10_EXP(e) pow10_exp[(e) + 5]

/* "00" to "99": two digits a division, half the divisions of one at a time. */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/*
 * The @len last decimal digits of @u into @buf, leading zeros kept (no
 * terminator); @len.  In 32 bits once @u fits: six significant digits
 * always do, and a 64-bit division by 100 costs twice as much.
 */
static inline __attribute__((always_inline)) int digits(char *buf, uint64_t u, int len)
{
	uint32_t w;
	int i = len;

	/* Six digits, what every JSON and csv number has: straight, no loop. */
	if (len == 6 && u < 1000000) {
		uint32_t hi = (uint32_t)u / 10000, lo = (uint32_t)u % 10000;

		memcpy(buf, digit_pairs + 2 * hi, 2);
		memcpy(buf + 2, digit_pairs + 2 * (lo / 100), 2);
		memcpy(buf + 4, digit_pairs + 2 * (lo % 100), 2);
		return len;
	}
	for (; i >= 2 && u > UINT32_MAX; u /= 100) {
		i -= 2;
		memcpy(buf + i, digit_pairs + 2 * (u % 100), 2);
	}
	if (u > UINT32_MAX) {
		if (i)
			buf[0] = (char)('0' + u % 10);
		return len;
	}
	for (w = (uint32_t)u; i >= 2; w /= 100) {
		i -= 2;
		memcpy(buf + i, digit_pairs + 2 * (w % 100), 2);
	}
	if (i)
		buf[0] = (char)('0' + w % 10);
	return len;
}

/* Decimal digits of @u into @buf (no terminator); their count. */
static int utoa(char *buf, uint64_t u)
{
	int n = 1;

	for (uint64_t t = u; t >= 10; t /= 10)
		n++;
	return digits(buf, u, n);
}

/* @v in [@lo, @hi]. */
static int numfmt_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * The decimal exponent of @a in [1e-4, 1e15): the largest e with @a >=
 * 10^e (the literal).  From the binary exponent e2 (@a in [2^e2, 2^(e2+1))):
 * floor(e2 * log10 2) <= e <= floor((e2 + 1) * log10 2), at most one apart;
 * 1233 / 4096 is log10 2 to within 6e-6, and no e2 from -14 to 49 has
 * e2 * log10 2 that close below an integer, so the estimate is the lower
 * bound and one compare settles it (test_numfmt checks every power of ten
 * and its neighbours against printf).
 */
static int dec_exp(double a)
{
	uint64_t bits;
	int e2, e;

	memcpy(&bits, &a, sizeof(bits));
	e2 = (int)((bits >> 52) & 0x7ff) - 1023;
	e = (e2 * 1233) >> 12;          /* an arithmetic shift: floor, also below zero */
	if (e < 15 && a >= POW10_EXP(e + 1))
		e++;
	return e;
}

int numfmt(char *buf, double v, int sig)
{
	double a = fabs(v);
	uint64_t m;
	int e, n = 0, len, point;
	char d[32];                     /* the digits, and room for the 16-byte copies */

	buf[0] = 0;
	if (!isfinite(v))
		return 0;
	sig = numfmt_clamp(sig, 1, 15);
	if (a == 0) {
		buf[0] = '0';
		buf[1] = 0;
		return 1;
	}
	if (a < 1e-4 || a >= 1e15)
		return snprintf(buf, 32, "%.*g", sig, v);
	/* The decimal exponent: a in [10^e, 10^(e+1)). */
	e = dec_exp(a);
	/* sig digits as an integer: a * 10^(sig-1-e), rounded. */
	{
		int s = sig - 1 - e;
		double scaled = s >= 0 ? a * pow10_tab[s] : a / pow10_tab[-s];

		m = (uint64_t)(scaled + 0.5);
		if (m >= pow10_int[sig]) {                 /* 999999.7 rounded up */
			m /= 10;
			e++;
		}
	}
	/*
	 * The digits once, then trailing zeros after the point dropped and
	 * the rest placed around the point, by whole 16-byte copies: a JSON
	 * snapshot formats some fifty numbers per CPU per interval.
	 */
	digits(d, m, sig);
	len = sig;
	point = e + 1;                                    /* digits before the point */
	while (len > point && len > 1 && d[len - 1] == '0')
		len--;
	if (v < 0)
		buf[n++] = '-';
	if (point >= len) {
		/* Zeros up to the point (at most 15; @buf holds 32). */
		memcpy(buf + n, d, 16);
		n += len;
		memcpy(buf + n, "0000000000000000", 16);
		n += point - len;
	} else if (point > 0) {
		memcpy(buf + n, d, 16);
		n += point;
		buf[n++] = '.';
		memcpy(buf + n, d + point, 16);
		n += len - point;
	} else {
		buf[n++] = '0';
		buf[n++] = '.';
		memcpy(buf + n, "0000", 4);             /* -point is 0..3: a >= 1e-4 */
		n += -point;
		memcpy(buf + n, d, 16);
		n += len;
	}
	buf[n] = 0;
	return n;
}

int numfmt_int(char *buf, long long v)
{
	int n = 0;

	/* Past 1e15 numfmt_fixed's double (and its rounding) says it. */
	if (v <= -1000000000000000LL || v >= 1000000000000000LL)
		return numfmt_fixed(buf, (double)v, 0);
	if (v < 0) {
		buf[n++] = '-';
		v = -v;
	}
	n += utoa(buf + n, (uint64_t)v);
	buf[n] = 0;
	return n;
}

int numfmt_fixed(char *buf, double v, int decimals)
{
	double a = fabs(v);
	uint64_t m, ip;
	int n = 0;

	buf[0] = 0;
	if (!isfinite(v))
		return 0;
	decimals = numfmt_clamp(decimals, 0, 6);
	if (a >= 1e15) {
		/* Cut to the 32 bytes @buf holds: the length is what was written. */
		int k = snprintf(buf, 32, "%.*f", decimals, v);

		return k < 32 ? k : 31;
	}
	m = (uint64_t)(a * pow10_tab[decimals] + 0.5);
	if (v < 0 && m)
		buf[n++] = '-';
	ip = m / (uint64_t)pow10_tab[decimals];
	n += utoa(buf + n, ip);
	if (decimals) {
		buf[n++] = '.';
		n += digits(buf + n, m % (uint64_t)pow10_tab[decimals], decimals);
	}
	buf[n] = 0;
	return n;
}

void numfmt_si(char *buf, size_t len, double v, int small)
{
	static const char suffix[] = " kMGTP";
	char tmp[32];
	int k = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	while (fabs(v) >= 999.5 && k < 5) {
		v /= 1000;
		k++;
	}
	/* Past 999P (no machine, but a damaged recording can say so): no room for the digits. */
	if (fabs(v) >= 999.5) {
		snprintf(buf, len, "%s", v > 0 ? ">999P" : "<-999P");
		return;
	}
	if (k == 0) {
		numfmt_fixed(tmp, v, fabs(v) < 9.95 && v != floor(v) ? small : 0);
	} else {
		size_t n = (size_t)numfmt_fixed(tmp, v, fabs(v) < 9.95 ? 1 : 0);

		tmp[n] = suffix[k];
		tmp[n + 1] = 0;
	}
	snprintf(buf, len, "%s", tmp);
}

void numfmt_si_bound(char *buf, size_t len, double v, int small, bool up)
{
	double scale = 1, x;
	int k = 0, dec;

	if (!isfinite(v)) {
		numfmt_si(buf, len, v, small);
		return;
	}
	/* The suffix and decimals numfmt_si picks, then the digit below dropped toward @up. */
	while (fabs(v) / scale >= 999.5 && k < 5) {
		scale *= 1000;
		k++;
	}
	x = v / scale;
	dec = fabs(x) < 9.95 && (k > 0 || x != floor(x)) ? (k > 0 ? 1 : small) : 0;
	x *= pow10_tab[dec];
	/* A millionth of a digit of slack: 8 computed as 7.99999999 still prints 8. */
	x = up ? ceil(x - 1e-6) : floor(x + 1e-6);
	numfmt_si(buf, len, x / pow10_tab[dec] * scale, small);
}

void numfmt_cell(char *buf, size_t len, double v, int decimals)
{
	char tmp[32];

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	numfmt_fixed(tmp, v, decimals);
	snprintf(buf, len, "%s", tmp);
}
