/*
 * bench.h: what the benchmark programs share (bench/): CPU time, not
 * wall time, on a shared machine, and the median of repeated timings.
 */
#ifndef LATTOP_BENCH_H
#define LATTOP_BENCH_H

#include <stdlib.h>
#include <time.h>

static inline double bench_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static inline double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
