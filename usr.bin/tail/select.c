/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Which bytes tail shows, fed windows of the input; see select.h.
 */

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "select.h"

/*
 * memrchr is given a page at most at a time: a sanitizer checks the
 * whole range at each call, and a call a line over a large input held
 * in memory made that quadratic.
 */
#define	SLICE	4096

static const char *last_newline(const char *, const char *);

/* The last newline in [lo, p), or NULL. */
static const char *
last_newline(const char *lo, const char *p)
{
	const char *s, *q;

	while (p > lo) {
		s = p - lo > SLICE ? p - SLICE : lo;
		if ((q = memrchr(s, '\n', (size_t)(p - s))) != NULL)
			return (q);
		p = s;
	}
	return (NULL);
}

void
winplan_init(struct winplan *wp, off_t floor, off_t end, size_t first,
    size_t max, size_t page)
{

	wp->wp_floor = floor;
	wp->wp_end = wp->wp_next = end;
	wp->wp_want = first;
	wp->wp_max = max;
	wp->wp_page = page;
}

int
winplan_next(struct winplan *wp, off_t *pos, size_t *len)
{
	off_t end, start, max, page;

	if ((end = wp->wp_next) <= wp->wp_floor)
		return (0);
	page = (off_t)wp->wp_page;
	max = (off_t)wp->wp_max - (end == wp->wp_end);
	start = end - (off_t)(wp->wp_want < wp->wp_max ? wp->wp_want :
	    wp->wp_max);
	start -= start % page;
	if (end - start > max)
		start += page;
	/* A buffer of one page has no aligned room for the look past it. */
	if (start >= end)
		start = end - max;
	if (start < wp->wp_floor)
		start = wp->wp_floor;
	*pos = wp->wp_next = start;
	*len = (size_t)(end - start);
	wp->wp_want = wp->wp_want > wp->wp_max / 2 ? wp->wp_max :
	    wp->wp_want * 2;
	return (1);
}

void
revscan_init(struct revscan *rs, off_t floor, off_t end, uint64_t lines)
{

	rs->rs_floor = floor;
	rs->rs_end = end;
	rs->rs_left = lines;
}

/*
 * The newlines of the window below the line being gathered, last first:
 * each ends the line before it, so the gathered one is taken.  The byte
 * at rs_end - 1 ends the gathered line (or the input) and no other.
 */
int
revscan_feed(struct revscan *rs, const char *buf, off_t pos, size_t len,
    rev_emit_fn *emit, void *arg)
{
	const char *lo, *p;
	off_t hi, nl;

	if (rs->rs_left == 0 || rs->rs_end <= rs->rs_floor)
		return (1);
	lo = buf + (pos < rs->rs_floor ? rs->rs_floor - pos : 0);
	hi = pos + (off_t)len < rs->rs_end - 1 ? pos + (off_t)len :
	    rs->rs_end - 1;
	p = hi > pos ? buf + (hi - pos) : buf;
	while ((p = last_newline(lo, p)) != NULL) {
		nl = pos + (p - buf);
		if (emit != NULL && emit(arg, nl + 1, rs->rs_end) != 0)
			return (-1);
		rs->rs_end = nl + 1;
		if (--rs->rs_left == 0)
			return (1);
	}
	if (pos > rs->rs_floor)
		return (0);
	if (emit != NULL && emit(arg, rs->rs_floor, rs->rs_end) != 0)
		return (-1);
	rs->rs_end = rs->rs_floor;
	rs->rs_left--;
	return (1);
}

size_t
skip(uint64_t *left, int lines, const char *buf, size_t len)
{
	const char *p, *q;

	if (*left == 0)
		return (0);
	if (!lines) {
		if (*left < len)
			len = (size_t)*left;
		*left -= len;
		return (len);
	}
	for (p = buf; (q = memchr(p, '\n', (size_t)(buf + len - p))) != NULL;
	    p = q + 1)
		if (--*left == 0)
			return ((size_t)(q + 1 - buf));
	return (len);
}

size_t
hold_keep(const char *buf, size_t len, int lines, uint64_t n)
{
	struct revscan rs;

	if (!lines)
		return (len > n ? len - (size_t)n : 0);
	if (n == SEL_ALL)
		return (0);
	/* A line more: the byte now last ends a line once more comes. */
	revscan_init(&rs, 0, (off_t)len, n + 1);
	(void)revscan_feed(&rs, buf, 0, len, NULL, NULL);
	return ((size_t)rs.rs_end);
}
