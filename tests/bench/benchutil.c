/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What the benchmark programs share: a monotonic clock in seconds, byte
 * counts as people write them (64k, 1m, 2g), and the median and range of
 * a set of runs.
 */

#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "benchutil.h"

double
bench_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		err(1, "clock_gettime");
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* A positive byte count with an optional k, m or g (binary) suffix. */
uint64_t
bench_size(const char *s)
{
	unsigned long long v;
	char *end;
	int shift;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *s == '-')
		errx(1, "%s: not a size", s);
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		shift = 0;
		break;
	}
	if (shift != 0)
		end++;
	if (*end != '\0' || v == 0 || v > UINT64_MAX >> shift)
		errx(1, "%s: not a size", s);
	return ((uint64_t)v << shift);
}

static int
cmp_double(const void *a, const void *b)
{
	double x, y;

	x = *(const double *)a;
	y = *(const double *)b;
	return (x < y ? -1 : x > y);
}

/* Sorts the n runs in v, then gives their median, least and greatest. */
void
bench_stats(double *v, int n, double *med, double *lo, double *hi)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	*lo = v[0];
	*hi = v[n - 1];
	*med = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
