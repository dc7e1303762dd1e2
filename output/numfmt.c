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

/* Decimal digits of @u into @buf (no terminator); their count. */
static int utoa_rev(char *buf, uint64_t u)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* The @len last decimal digits of @u into @buf, leading zeros kept (no terminator); @len. */
static int digits(char *buf, uint64_t u, int len)
{
	for (int i = len - 1; i >= 0; i--) {
		buf[i] = (char)('0' + u % 10);
		u /= 10;
	}
	return len;
}

/* @v in [@lo, @hi]. */
static int numfmt_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int numfmt(char *buf, double v, int sig)
{
	double a = fabs(v);
	uint64_t m;
	int e, n = 0, len, point;

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
	if (a >= 1) {
		/* Binary search: a in [10^e, 10^(e+1)), e in 0..14. */
		int lo = 0, hi = 14;

		while (lo < hi) {
			int mid = (lo + hi + 1) / 2;

			if (a >= pow10_tab[mid])
				lo = mid;
			else
				hi = mid - 1;
		}
		e = lo;
	} else {
		for (e = -1; e > -5 && a < pow10_tab[0] / pow10_tab[-e]; e--)
			;
	}
	/* sig digits as an integer: a * 10^(sig-1-e), rounded. */
	{
		int s = sig - 1 - e;
		double scaled = s >= 0 ? a * pow10_tab[s] : a / pow10_tab[-s];

		m = (uint64_t)(scaled + 0.5);
		if (m >= (uint64_t)pow10_tab[sig]) {       /* 999999.7 rounded up */
			m /= 10;
			e++;
		}
	}
	/*
	 * Trailing zeros after the point go before any digit is written: a
	 * JSON snapshot formats some fifty numbers per CPU per interval.
	 */
	len = sig;
	point = e + 1;                                    /* digits before the point */
	while (len > point && len > 1 && m % 10 == 0) {
		m /= 10;
		len--;
	}
	if (v < 0)
		buf[n++] = '-';
	if (point >= len) {
		n += digits(buf + n, m, len);
		for (int i = len; i < point; i++)
			buf[n++] = '0';
	} else if (point > 0) {
		uint64_t p10 = (uint64_t)pow10_tab[len - point];

		n += digits(buf + n, m / p10, point);
		buf[n++] = '.';
		n += digits(buf + n, m % p10, len - point);
	} else {
		buf[n++] = '0';
		buf[n++] = '.';
		for (int i = 0; i < -point; i++)
			buf[n++] = '0';
		n += digits(buf + n, m, len);
	}
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
	n += utoa_rev(buf + n, ip);
	if (decimals) {
		uint64_t fp = m % (uint64_t)pow10_tab[decimals];

		buf[n++] = '.';
		for (int i = decimals - 1; i >= 0; i--) {
			buf[n + i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		n += decimals;
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
