/*
 * numfmt.h: numbers as text, fast.  The reports print tens of numbers per
 * CPU per interval; glibc's "%.6g" costs over a thousand instructions a
 * number, more than all of lattop's counter work.  This writes the same
 * six significant digits with integer arithmetic.
 */
#ifndef LATTOP_NUMFMT_H
#define LATTOP_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * @v with @sig significant digits (1..15), no exponent for magnitudes from
 * 1e-4 to 1e15 (others fall back to snprintf's %g), trailing zeros
 * dropped: a valid JSON number.  Non-finite values give "".  Returns the
 * length; @buf holds at least 32 bytes.
 */
int numfmt(char *buf, double v, int sig);

/* @v with exactly @decimals decimals (0..6), rounded; "" when not finite. */
int numfmt_fixed(char *buf, double v, int decimals);

/* The whole number @v, as numfmt_fixed(@buf, @v, 0) writes it; the length. */
int numfmt_int(char *buf, long long v);

/*
 * Cells of the text report and the screen, "-" when not measured (NAN or
 * infinite), cut to @len bytes.  numfmt_si: SI suffixes up to P, "12.3M",
 * "270k", "5"; one decimal below 9.95 of a suffix, and @small decimals (0
 * or 1) below 9.95 without one, for a number that is not whole ("5.5");
 * ">999P" past them.  numfmt_cell: @decimals decimals as numfmt_fixed.
 */
void numfmt_si(char *buf, size_t len, double v, int small);
void numfmt_cell(char *buf, size_t len, double v, int decimals);

/*
 * numfmt_si rounded down (@up false) or up to the last digit it shows,
 * not to the nearest: a bound printed still holds what it bounds (a lower
 * bound of 7.9 prints "7", not "8", where no decimal is shown).
 */
void numfmt_si_bound(char *buf, size_t len, double v, int small, bool up);

#endif
