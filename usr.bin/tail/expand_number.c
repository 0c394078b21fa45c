/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * expand_number(3), which FreeBSD's libutil has, for the systems that
 * lack it: blanks, a sign, a digit first; then a number in any base
 * strtoumax(3) takes; then k, m, g, t, p or e (powers of 1024) and a b
 * that changes nothing.  0, or -1 with errno EINVAL or ERANGE.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extern.h"

int
expand_number(const char *s, int64_t *num)
{
	static const char units[] = "kmgtpe";
	const char *u;
	uintmax_t v;
	unsigned shift;
	char *end;
	int neg;

	while (isspace((unsigned char)*s))
		s++;
	neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s)) {
		errno = EINVAL;
		return (-1);
	}
	errno = 0;
	v = strtoumax(s, &end, 0);
	if (errno != 0)
		return (-1);
	shift = 0;
	if (*end != '\0' && (u = strchr(units,
	    tolower((unsigned char)*end))) != NULL) {
		shift = 10 * (unsigned)(u - units + 1);
		end++;
	}
	if (tolower((unsigned char)*end) == 'b')
		end++;
	if (*end != '\0') {
		errno = EINVAL;
		return (-1);
	}
	if (v > (UINT64_MAX >> shift) ||
	    (v << shift) > (neg ? (uintmax_t)INT64_MAX + 1 : INT64_MAX)) {
		errno = ERANGE;
		return (-1);
	}
	v <<= shift;
	*num = neg ? (v == (uintmax_t)INT64_MAX + 1 ? INT64_MIN :
	    -(int64_t)v) : (int64_t)v;
	return (0);
}
