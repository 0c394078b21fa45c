/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * -r: the input's lines, last first; all of them, or the last N lines,
 * or the lines of the last N bytes (the first of those cut where the
 * count begins).
 *
 * A regular file is read by windows from its end, the engine's buffer at
 * a time, and its lines are gathered into an output buffer.  The end of
 * a line cut by a window's start is kept (the carry) until the window
 * before gives its start; a line longer than a window is read again,
 * forward, when its start is found.  Memory is the three buffers,
 * whatever the file's size or its lines'.  A stream is held first
 * (hold.c), in memory or in a temporary file that is then read as a file
 * is.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"
#include "select.h"

/*
 * The window being scanned, for emit(); and what comes right after it,
 * the end of the line being gathered, when that fitted in the carry.
 */
struct window {
	struct input	*w_in;		/* read again from; NULL: all is here */
	const char	*w_buf;
	off_t		 w_pos;
	size_t		 w_len;
	size_t		 w_clen;	/* bytes in the carry, after the window */
};

static char	*obuf;		/* lines waiting to be written */
static size_t	 obufsz, olen;
static char	*cbuf;		/* the carry, kept from file to file */
static size_t	 cbufsz;
static int	 owritten;	/* something of this input was written */

static int	rev_file(struct input *, off_t);
static void	carry(struct window *, const struct revscan *, off_t);
static void	rev_stream(struct input *);
static int	emit(void *, off_t, off_t);
static int	reread(struct window *, off_t, off_t);
static void	out_add(const char *, size_t);
static void	out_flush(void);

void
reverse(struct input *in)
{
	off_t begin;

	if (style != REVERSE && count == 0)
		return;
	if (obuf == NULL && (window_buffer(NULL, &obufsz) == NULL ||
	    (obuf = malloc(obufsz)) == NULL))
		err(1, NULL);
	olen = 0;
	owritten = 0;
	if (!seekable(in, &begin) || rev_file(in, begin) == LIES)
		rev_stream(in);
	out_flush();
}

/*
 * The lines of a regular file by windows from its end.  LIES when a
 * window comes back short before anything was written (a /sys file's
 * size, or a file cut short under us): read it as a stream instead.
 */
static int
rev_file(struct input *in, off_t begin)
{
	struct winplan wp;
	struct revscan rs;
	struct window w;
	off_t floor, size, pos;
	size_t blen, wlen, page;
	ssize_t n;
	char *buf;

	size = in->in_st.st_size;
	floor = begin;
	if (style == RBYTES && (uint64_t)(size - begin) > count)
		floor = size - (off_t)count;
	w.w_in = in;
	w.w_buf = buf = window_buffer(&in->in_st, &blen);
	w.w_clen = 0;
	page = pagesize();
	winplan_init(&wp, floor, size, style == RLINES ? page : blen, blen,
	    page);
	revscan_init(&rs, floor, size, style == RLINES ? count : SEL_ALL);
	w.w_pos = size;
	w.w_len = 0;
	while (winplan_next(&wp, &pos, &wlen)) {
		carry(&w, &rs, pos + (off_t)wlen);
		if ((n = pread_full(in->in_fd, buf, wlen, pos)) < 0) {
			out_flush();
			ierr(in->in_name);
			return (0);
		}
		if ((size_t)n < wlen) {
			if (!owritten) {
				olen = 0;
				return (LIES);
			}
			out_flush();
			errno = EIO;
			ierr(in->in_name);
			return (0);
		}
		w.w_pos = pos;
		w.w_len = wlen;
		if (revscan_feed(&rs, buf, pos, wlen, emit, &w) != 0)
			break;
	}
	return (0);
}

/*
 * Before the window that ends at end is read over the last one: the part
 * of the line being gathered that the last one holds, from end on, into
 * the carry, if it is all there and fits.  Else the carry is empty and
 * emit() reads that part again.
 */
static void
carry(struct window *w, const struct revscan *rs, off_t end)
{
	size_t len;

	w->w_clen = 0;
	if (rs->rs_end <= end || end != w->w_pos ||
	    rs->rs_end > w->w_pos + (off_t)w->w_len)
		return;
	len = (size_t)(rs->rs_end - end);
	if (cbufsz < w->w_len) {
		free(cbuf);
		cbufsz = 0;
		if ((cbuf = malloc(w->w_len)) == NULL)
			return;
		cbufsz = w->w_len;
	}
	if (len > cbufsz)
		return;
	memcpy(cbuf, w->w_buf, len);
	w->w_clen = len;
}

/* The lines of a stream, held to its end. */
static void
rev_stream(struct input *in)
{
	struct revscan rs;
	struct window w;
	struct hold h;
	struct input t;
	off_t floor;

	if (hold_input(&h, in, style != RBYTES,
	    style == REVERSE ? SEL_ALL : count) != 0)
		return;
	if (h.h_spill != -1) {
		t.in_fd = h.h_spill;
		t.in_name = in->in_name;
		if (fstat(t.in_fd, &t.in_st) != 0)
			ierr(in->in_name);
		else if (t.in_st.st_size > 0)
			(void)rev_file(&t, 0);
		hold_free(&h);
		return;
	}
	floor = 0;
	if (style == RBYTES && h.h_len > count)
		floor = (off_t)(h.h_len - count);
	revscan_init(&rs, floor, (off_t)h.h_len,
	    style == RLINES ? count : SEL_ALL);
	w.w_in = NULL;
	w.w_buf = h.h_buf;
	w.w_pos = 0;
	w.w_len = h.h_len;
	w.w_clen = 0;
	(void)revscan_feed(&rs, h.h_buf, 0, h.h_len, emit, &w);
	hold_free(&h);
}

/*
 * One line, [from, to): its start is in the window (or just past it,
 * when a newline ends the window), its end may be past it.
 */
static int
emit(void *arg, off_t from, off_t to)
{
	struct window *w;
	off_t wend;

	w = arg;
	wend = w->w_pos + (off_t)w->w_len;
	out_add(w->w_buf + (from - w->w_pos),
	    (size_t)((to < wend ? to : wend) - from));
	if (to <= wend)
		return (0);
	if (w->w_clen != 0 && to - wend == (off_t)w->w_clen) {
		out_add(cbuf, w->w_clen);
		return (0);
	}
	return (reread(w, wend, to));
}

/*
 * The part of a line past the window, from the file again, through the
 * output buffer (emptied first).
 */
static int
reread(struct window *w, off_t from, off_t to)
{
	size_t len;
	ssize_t n;

	out_flush();
	for (; from < to; from += (off_t)len) {
		len = (uint64_t)(to - from) < obufsz ? (size_t)(to - from) :
		    obufsz;
		n = pread_full(w->w_in->in_fd, obuf, len, from);
		if (n < 0) {
			ierr(w->w_in->in_name);
			return (-1);
		}
		if ((size_t)n < len) {
			errno = EIO;
			ierr(w->w_in->in_name);
			return (-1);
		}
		out_write(obuf, len);
		owritten = 1;
	}
	return (0);
}

static void
out_add(const char *p, size_t n)
{

	if (n > obufsz - olen) {
		out_flush();
		if (n >= obufsz) {
			out_write(p, n);
			owritten = 1;
			return;
		}
	}
	memcpy(obuf + olen, p, n);
	olen += n;
}

static void
out_flush(void)
{

	if (olen > 0) {
		out_write(obuf, olen);
		owritten = 1;
	}
	olen = 0;
}
