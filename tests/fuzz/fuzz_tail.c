/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The fuzz target for tail's selection, usr.bin/tail/select.c: each
 * input is tail's two ways of reading, driven as forward.c, reverse.c
 * and hold.c drive them, but over memory, and each output is compared
 * with ref_tail.c's.  An input is a header of HDRLEN bytes (missing
 * ones read as 0), then the bytes given to tail:
 *
 *	hdr[0]	the style, modulo T_NSTYLES (fuzz_tail.h)
 *	hdr[1]	the count, with hdr[2] and hdr[3]:
 *	hdr[3]	bits 0-1: the count is hdr[1]; hdr[1] + 256 * hdr[2]; the
 *		input's length plus hdr[2] - 128 (at least 0); or huge,
 *		UINT64_MAX >> (hdr[2] % 64).  Bits 2-7: by position, -r's
 *		output stops (emit fails) at that line; 0: never
 *	hdr[4]	the page: 2 to the power hdr[4] % 7 (1 to 64 bytes)
 *	hdr[5]	the buffer, the largest window: 1 + hdr[5] % 8 pages
 *	hdr[6]	bit 7: the input starts at byte hdr[6] % 128 of the body,
 *		as a standard input read from already
 *	hdr[7]	the stream's buffer at first: 1 + hdr[7] bytes
 *	hdr[8..11] the sizes of the stream's reads, in turn; 0: the rest
 *
 * By position, as a regular file is read: windows planned by winplan,
 * backward, with revscan; forward with skip, in reads that
 * double from a page.  As a stream: reads of the given sizes into a
 * buffer that drops what hold_keep says is no longer needed whenever it
 * is full (more often than hold.c does), and grows when nothing can go.
 * Every window is checked against what winplan promises, and every
 * line revscan emits against the window it is emitted from.  A
 * difference is described on stderr, then abort().
 */

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tail.h"
#include "select.h"

#define	HDRLEN		12
#define	NREADS		4

struct run {
	enum tstyle	 r_style;
	uint64_t	 r_count;
	size_t		 r_page;
	size_t		 r_max;
	size_t		 r_begin;
	size_t		 r_cap;
	size_t		 r_stop;	/* emit fails at this line; 0: never */
	unsigned char	 r_reads[NREADS];
	const char	*r_in;		/* the whole body */
	size_t		 r_len;
};

/* The window revscan is fed, for emit(). */
struct window {
	const struct run *w_run;
	off_t		 w_pos;
	size_t		 w_len;
	struct tbuf	*w_out;
	size_t		 w_lines;	/* emitted so far */
	size_t		 w_stop;	/* emit fails at this line; 0: never */
};

static void	parse_run(struct run *, const uint8_t *, size_t);
static void	by_position(const struct run *, struct tbuf *);
static void	pos_forward(const struct run *, struct tbuf *);
static void	pos_reverse(const struct run *, struct tbuf *);
static void	stopped(const struct run *, struct tbuf *);
static int	next_window(const struct run *, struct winplan *, off_t *,
		    size_t *, off_t);
static void	as_stream(const struct run *, struct tbuf *);
static void	stream_skip(const struct run *, struct tbuf *);
static int	emit(void *, off_t, off_t);
static void	fail(const struct run *, const char *);
static void	compare(const struct run *, const char *,
		    const struct tbuf *, const struct tbuf *);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tbuf want, got;
	struct run r;

	parse_run(&r, data, size);
	memset(&want, 0, sizeof(want));
	ref_tail(r.r_style, r.r_count, r.r_in + r.r_begin, r.r_len - r.r_begin,
	    &want);
	memset(&got, 0, sizeof(got));
	by_position(&r, &got);
	compare(&r, "read by position", &got, &want);
	tbuf_free(&got);
	as_stream(&r, &got);
	compare(&r, "read as a stream", &got, &want);
	tbuf_free(&got);
	tbuf_free(&want);
	return (0);
}

static void
parse_run(struct run *r, const uint8_t *data, size_t size)
{
	unsigned char hdr[HDRLEN];
	size_t h;

	h = size < HDRLEN ? size : HDRLEN;
	memset(hdr, 0, sizeof(hdr));
	if (h > 0)
		memcpy(hdr, data, h);
	r->r_in = (const char *)data + h;
	r->r_len = size - h;
	r->r_style = (enum tstyle)(hdr[0] % T_NSTYLES);
	switch (hdr[3] & 3) {
	case 0:
		r->r_count = hdr[1];
		break;
	case 1:
		r->r_count = hdr[1] + 256 * (uint64_t)hdr[2];
		break;
	case 2:
		r->r_count = r->r_len + hdr[2] < 128 ? 0 :
		    r->r_len + hdr[2] - 128;
		break;
	default:
		r->r_count = UINT64_MAX >> (hdr[2] % 64);
		break;
	}
	r->r_page = (size_t)1 << (hdr[4] % 7);
	r->r_max = r->r_page * (1 + hdr[5] % 8);
	/* tail's buffer holds the last window and the byte past it. */
	if (r->r_max < 2)
		r->r_max = 2;
	r->r_begin = 0;
	if ((hdr[6] & 0x80) != 0 && r->r_len > 0)
		r->r_begin = (hdr[6] & 0x7f) % (r->r_len + 1);
	r->r_cap = 1 + (size_t)hdr[7];
	r->r_stop = hdr[3] >> 2;
	memcpy(r->r_reads, hdr + 8, NREADS);
}

static void
by_position(const struct run *r, struct tbuf *out)
{

	if (r->r_style >= T_REVERSE)
		pos_reverse(r, out);
	else
		pos_forward(r, out);
}

/*
 * forward.c: -c N by arithmetic, -n N by windows and revscan, +N by
 * skipping forward in reads that double from a page.
 */
static void
pos_forward(const struct run *r, struct tbuf *out)
{
	struct winplan wp;
	struct revscan rs;
	off_t begin, end, start, pos, prev;
	size_t len, want, used, n;
	uint64_t left;

	begin = (off_t)r->r_begin;
	end = (off_t)r->r_len;
	start = end;
	switch (r->r_style) {
	case T_FBYTES:
		start = begin + (off_t)(r->r_count < r->r_len - r->r_begin ?
		    r->r_count : r->r_len - r->r_begin);
		break;
	case T_FLINES:
		left = r->r_count;
		want = r->r_page;
		for (start = begin, used = 0; left > 0 && start < end;) {
			n = want;
			if ((off_t)n > end - start)
				n = (size_t)(end - start);
			used = skip(&left, 1, r->r_in + start, n);
			if (used > n)
				fail(r, "skip took more than it was fed");
			if (left > 0 && used != n)
				fail(r, "skip stopped short of the count");
			start += (off_t)used;
			want = want > r->r_max / 2 ? r->r_max : want * 2;
		}
		if (left == 0 && start < end &&
		    skip(&left, 1, r->r_in + start, (size_t)(end - start)) != 0)
			fail(r, "skip skipped more once done");
		break;
	case T_RBYTES:
		start = (uint64_t)(end - begin) > r->r_count ?
		    end - (off_t)r->r_count : begin;
		break;
	case T_RLINES:
		if (r->r_count == 0 || end == begin)
			break;
		winplan_init(&wp, begin, end, r->r_page, r->r_max, r->r_page);
		revscan_init(&rs, begin, end, r->r_count);
		for (prev = end; next_window(r, &wp, &pos, &len, prev);
		    prev = pos)
			if (revscan_feed(&rs, r->r_in + pos, pos, len, NULL,
			    NULL) != 0)
				break;
		start = rs.rs_end;
		if (start < begin || start > end)
			fail(r, "revscan's start is outside the input");
		break;
	default:
		abort();
	}
	tbuf_add(out, r->r_in + start, (size_t)(end - start));
}

/* reverse.c's rev_file. */
static void
pos_reverse(const struct run *r, struct tbuf *out)
{
	struct winplan wp;
	struct revscan rs;
	struct window w;
	off_t floor, end, pos, prev;
	size_t len;
	int done;

	floor = (off_t)r->r_begin;
	end = (off_t)r->r_len;
	if ((r->r_style != T_REVERSE && r->r_count == 0) || end == floor)
		return;
	if (r->r_style == T_RRBYTES && (uint64_t)(end - floor) > r->r_count)
		floor = end - (off_t)r->r_count;
	winplan_init(&wp, floor, end,
	    r->r_style == T_RRLINES ? r->r_page : r->r_max, r->r_max,
	    r->r_page);
	revscan_init(&rs, floor, end,
	    r->r_style == T_RRLINES ? r->r_count : SEL_ALL);
	w.w_run = r;
	w.w_out = out;
	w.w_lines = 0;
	w.w_stop = r->r_stop;
	for (done = 0, prev = end; !done &&
	    next_window(r, &wp, &pos, &len, prev); prev = pos) {
		w.w_pos = pos;
		w.w_len = len;
		done = revscan_feed(&rs, r->r_in + pos, pos, len, emit, &w);
	}
	if (done == 0)
		fail(r, "revscan was not done at the floor");
	if ((done < 0) != (w.w_stop != 0 && w.w_lines == w.w_stop))
		fail(r, "revscan_feed did not stop when emit failed, or did");
	if (done < 0)
		stopped(r, out);
}

/*
 * emit failed, revscan stopped: what came out must be the start of the
 * whole; the whole then stands for it, for the comparison to follow.
 */
static void
stopped(const struct run *r, struct tbuf *out)
{
	struct tbuf all;

	memset(&all, 0, sizeof(all));
	ref_tail(r->r_style, r->r_count, r->r_in + r->r_begin,
	    r->r_len - r->r_begin, &all);
	if (out->tb_len > all.tb_len ||
	    (out->tb_len > 0 && memcmp(out->tb_buf, all.tb_buf,
	    out->tb_len) != 0))
		fail(r, "what -r wrote before it stopped is not its start");
	tbuf_free(out);
	*out = all;
}

/*
 * winplan_next, and what it promises of each window: the first leaves a
 * byte of the buffer for the look past the end, and begins on a page
 * unless the buffer is a page.
 */
static int
next_window(const struct run *r, struct winplan *wp, off_t *pos,
    size_t *len, off_t prev)
{
	int first;

	first = prev == wp->wp_end;
	if (!winplan_next(wp, pos, len))
		return (0);
	if (*pos + (off_t)*len != prev)
		fail(r, "a window does not end where the last began");
	if (*len == 0 || *len > r->r_max - first)
		fail(r, "a window is empty or larger than the buffer");
	if (*pos < wp->wp_floor)
		fail(r, "a window reaches below the floor");
	if (*pos != wp->wp_floor && *pos % (off_t)r->r_page != 0 &&
	    !(first && r->r_max == r->r_page))
		fail(r, "a window does not begin on a page");
	return (1);
}

/*
 * A line from the window: its start in it (or just past it, after a
 * newline that ends the window), its end anywhere after.
 */
static int
emit(void *arg, off_t from, off_t to)
{
	struct window *w;

	w = arg;
	if (from < w->w_pos || from > w->w_pos + (off_t)w->w_len ||
	    to <= from || to > (off_t)w->w_run->r_len)
		fail(w->w_run, "revscan emitted a line outside its window");
	if (w->w_stop != 0 && ++w->w_lines == w->w_stop)
		return (-1);
	tbuf_add(w->w_out, w->w_run->r_in + from, (size_t)(to - from));
	return (0);
}

/*
 * hold.c, then forward.c's stream_end or reverse.c's rev_stream: what
 * must be held, read in the run's sizes, dropped at every full buffer.
 */
static void
as_stream(const struct run *r, struct tbuf *out)
{
	struct revscan rs;
	struct window w;
	const char *in;
	char *buf;
	size_t inlen, cap, len, keep, n, i;
	off_t start, floor;
	uint64_t hn;
	int lines;

	if (r->r_style == T_FBYTES || r->r_style == T_FLINES) {
		stream_skip(r, out);
		return;
	}
	in = r->r_in + r->r_begin;
	inlen = r->r_len - r->r_begin;
	lines = r->r_style != T_RBYTES && r->r_style != T_RRBYTES;
	hn = r->r_style == T_REVERSE ? SEL_ALL : r->r_count;
	cap = r->r_cap;
	if ((buf = malloc(cap)) == NULL)
		abort();
	for (len = 0, i = 0; inlen > 0; i++) {
		if (len == cap) {
			keep = hold_keep(buf, len, lines, hn);
			if (keep > len)
				fail(r, "hold_keep keeps from past the end");
			if (keep > 0) {
				memmove(buf, buf + keep, len - keep);
				len -= keep;
			} else if ((buf = realloc(buf, cap *= 2)) == NULL)
				abort();
		}
		n = r->r_reads[i % NREADS] != 0 ? r->r_reads[i % NREADS] :
		    inlen;
		if (n > cap - len)
			n = cap - len;
		if (n > inlen)
			n = inlen;
		memcpy(buf + len, in, n);
		len += n;
		in += n;
		inlen -= n;
	}
	switch (r->r_style) {
	case T_RBYTES:
		start = len > r->r_count ? (off_t)(len - r->r_count) : 0;
		tbuf_add(out, buf + start, len - (size_t)start);
		break;
	case T_RLINES:
		revscan_init(&rs, 0, (off_t)len, r->r_count);
		(void)revscan_feed(&rs, buf, 0, len, NULL, NULL);
		start = rs.rs_end;
		tbuf_add(out, buf + start, len - (size_t)start);
		break;
	default:
		if (r->r_style != T_REVERSE && r->r_count == 0)
			break;
		floor = 0;
		if (r->r_style == T_RRBYTES && len > r->r_count)
			floor = (off_t)(len - r->r_count);
		revscan_init(&rs, floor, (off_t)len,
		    r->r_style == T_RRLINES ? r->r_count : SEL_ALL);
		/* The held bytes as the run's input, for emit(). */
		w.w_run = &(struct run){ .r_in = buf, .r_len = len };
		w.w_pos = 0;
		w.w_len = len;
		w.w_out = out;
		w.w_stop = 0;
		if (revscan_feed(&rs, buf, 0, len, emit, &w) != 1)
			fail(r, "revscan of the held bytes was not done");
		break;
	}
	free(buf);
}

/* forward.c's from_start on a stream: skip in the run's reads. */
static void
stream_skip(const struct run *r, struct tbuf *out)
{
	size_t at, end, n, used, i;
	uint64_t left;

	left = r->r_count;
	end = r->r_len;
	for (at = r->r_begin, i = 0; left > 0 && at < end; i++) {
		n = r->r_reads[i % NREADS] != 0 ? r->r_reads[i % NREADS] :
		    end - at;
		if (n > end - at)
			n = end - at;
		used = skip(&left, r->r_style == T_FLINES, r->r_in + at, n);
		at += used;
	}
	tbuf_add(out, r->r_in + at, end - at);
}

static void
fail(const struct run *r, const char *why)
{

	(void)fprintf(stderr, "fuzz_tail: %s: style %d, count %ju, page %zu, "
	    "buffer %zu, begin %zu, stream buffer %zu, %zu bytes in\n", why,
	    (int)r->r_style, (uintmax_t)r->r_count, r->r_page, r->r_max,
	    r->r_begin, r->r_cap, r->r_len);
	abort();
}

static void
compare(const struct run *r, const char *how, const struct tbuf *got,
    const struct tbuf *want)
{
	size_t i, n;

	n = got->tb_len < want->tb_len ? got->tb_len : want->tb_len;
	for (i = 0; i < n && got->tb_buf[i] == want->tb_buf[i]; i++)
		continue;
	if (i == n && got->tb_len == want->tb_len)
		return;
	(void)fprintf(stderr, "fuzz_tail: %s: %zu bytes out, %zu expected; "
	    "first difference at byte %zu\n", how, got->tb_len, want->tb_len,
	    i);
	fail(r, "the output differs from the reference");
}
