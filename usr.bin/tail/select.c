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
 * whole range it is given at each call, and one call a line over a
 * large held input made that quadratic.
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
	wp->wp_next = end;
	wp->wp_page = page;
	wp->wp_max = max < page ? page : max - max % page;
	wp->wp_want = first == 0 ? 1 : first > wp->wp_max ? wp->wp_max : first;
}

/*
 * The next window, or 0 when the floor is reached.  It ends where the
 * last began and begins on a page boundary, so that it reads whole
 * pages of the cache: a tail of a file whose size is a multiple of the
 * page costs a single page.
 */
int
winplan_next(struct winplan *wp, off_t *pos, size_t *len)
{
	off_t end, start, page;

	end = wp->wp_next;
	if (end <= wp->wp_floor)
		return (0);
	page = (off_t)wp->wp_page;
	if (end - wp->wp_floor <= (off_t)wp->wp_want)
		start = wp->wp_floor;
	else {
		start = end - (off_t)wp->wp_want;
		start -= start % page;
		if (end - start > (off_t)wp->wp_max)
			start += page;
		if (start < wp->wp_floor)
			start = wp->wp_floor;
	}
	*pos = start;
	*len = (size_t)(end - start);
	wp->wp_next = start;
	wp->wp_want = wp->wp_want > wp->wp_max / 2 ? wp->wp_max :
	    wp->wp_want * 2;
	return (1);
}

void
backscan_init(struct backscan *bs, uint64_t n, off_t end)
{

	bs->bs_left = n;
	bs->bs_end = end;
}

int
backscan_feed(struct backscan *bs, const char *buf, off_t pos, size_t len,
    off_t *start)
{
	const char *p;
	size_t lim;

	if (bs->bs_left == 0) {
		*start = bs->bs_end;
		return (1);
	}
	/* The input's last byte ends no line. */
	lim = len;
	if (pos + (off_t)len > bs->bs_end - 1)
		lim = bs->bs_end - 1 > pos ? (size_t)(bs->bs_end - 1 - pos) : 0;
	p = buf + lim;
	while ((p = last_newline(buf, p)) != NULL)
		if (--bs->bs_left == 0) {
			*start = pos + (p - buf) + 1;
			return (1);
		}
	return (0);
}

void
skip_init(struct skip *sk, int lines, uint64_t n)
{

	sk->sk_left = n;
	sk->sk_lines = lines;
}

size_t
skip_feed(struct skip *sk, const char *buf, size_t len)
{
	const char *p, *q, *end;

	if (sk->sk_left == 0)
		return (0);
	if (!sk->sk_lines) {
		if (sk->sk_left < len)
			len = (size_t)sk->sk_left;
		sk->sk_left -= len;
		return (len);
	}
	end = buf + len;
	for (p = buf; p < end &&
	    (q = memchr(p, '\n', (size_t)(end - p))) != NULL; p = q + 1)
		if (--sk->sk_left == 0)
			return ((size_t)(q + 1 - buf));
	return (len);
}

int
skip_done(const struct skip *sk)
{

	return (sk->sk_left == 0);
}

void
revscan_init(struct revscan *rs, off_t floor, off_t end, uint64_t lines)
{

	rs->rs_floor = floor;
	rs->rs_end = end;
	rs->rs_left = lines;
}

/*
 * The newlines of the window below the line being gathered, highest
 * first: each ends the line before the one gathered, so the one gathered
 * is emitted.  Positions at or past rs_end - 1 are not looked at: the
 * byte there ends the gathered line (or the input), and a newline there
 * begins no new one.
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
		if (emit(arg, nl + 1, rs->rs_end) != 0)
			return (-1);
		rs->rs_end = nl + 1;
		if (--rs->rs_left == 0)
			return (1);
	}
	if (pos > rs->rs_floor)
		return (0);
	/* The floor: what is left is the first line shown. */
	if (emit(arg, rs->rs_floor, rs->rs_end) != 0)
		return (-1);
	rs->rs_end = rs->rs_floor;
	rs->rs_left--;
	return (1);
}

size_t
hold_keep(const char *buf, size_t len, int lines, uint64_t n)
{
	struct backscan bs;
	off_t start;

	if (!lines)
		return (len > n ? len - (size_t)n : 0);
	if (n == SEL_ALL)
		return (0);
	/*
	 * One line more than asked: the byte now last may not be the
	 * input's last, and then it ends a line.
	 */
	backscan_init(&bs, n + 1, (off_t)len);
	if (backscan_feed(&bs, buf, 0, len, &start))
		return ((size_t)start);
	return (0);
}
