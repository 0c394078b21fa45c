/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * -r: the input's lines, last first: all of them, the last N lines, or
 * the lines of the last N bytes (the first cut where the count begins).
 *
 * A regular file is read in windows from its end.  The part of a line
 * that a window's start cuts is kept above the window in memory (the
 * carry), and the window before is read in front of it, so that each
 * window holds its lines whole and the file is read once; a line longer
 * than the buffer is read again, forward, once its start is found.  The
 * lines go out through the engine's buffer.  A stream is held first
 * (hold.c), in memory or in a temporary file then read as a file is.
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

/* The window being scanned, for emit(): [w_pos, w_pos + w_len). */
struct window {
	struct input	*w_in;		/* to read again from, or NULL */
	const char	*w_buf;
	off_t		 w_pos;
	size_t		 w_len;
};

static char	*obuf;		/* lines waiting to be written */
static size_t	 osize, olen;
static char	*wbuf;		/* windows and the carry, kept for each file */
static size_t	 wsize;

static void	rev_init(struct revscan *, off_t, off_t);
static int	rev_file(struct input *, off_t);
static void	rev_stream(struct input *);
static int	emit(void *, off_t, off_t);
static int	reread(struct input *, off_t, off_t);
static void	out_add(const char *, size_t);
static void	out_flush(void);

void
reverse(struct input *in)
{
	off_t begin;

	if (style != REVERSE && count == 0)
		return;
	if ((obuf = bufsz_buffer(&in->in_st, &outst, &osize)) == NULL)
		err(1, "buffer");
	olen = 0;
	if (!seekable(in, &begin) || rev_file(in, begin) == LIES)
		rev_stream(in);
	out_flush();
}

/* The lines of [begin, end) that the options show. */
static void
rev_init(struct revscan *rs, off_t begin, off_t end)
{

	if (style == RBYTES && (uint64_t)(end - begin) > count)
		begin = end - (off_t)count;
	revscan_init(rs, begin, end, style == RLINES ? count : SEL_ALL);
}

/*
 * The lines of a regular file by windows from its end; LIES when the
 * first window finds that its size lies, to read it as a stream.
 */
static int
rev_file(struct input *in, off_t begin)
{
	struct winplan wp;
	struct revscan rs;
	struct window w;
	off_t pos, size;
	size_t len, clen, page;
	char *top;
	int r;

	if (wsize < 2 * osize + 1) {
		free(wbuf);
		if ((wbuf = malloc(2 * osize + 1)) == NULL)
			err(1, NULL);
		wsize = 2 * osize + 1;
	}
	top = wbuf + wsize - 1;
	size = in->in_st.st_size;
	page = (size_t)sysconf(_SC_PAGESIZE);
	rev_init(&rs, begin, size);
	winplan_init(&wp, rs.rs_floor, size, style == RLINES ? page : osize,
	    osize, page);
	w.w_in = in;
	for (clen = 0; winplan_next(&wp, &pos, &len);) {
		w.w_buf = top - clen - len;
		w.w_pos = pos;
		w.w_len = len + clen;
		r = read_window(in->in_fd, top - clen - len, len, pos,
		    pos + (off_t)len == size);
		if (r == LIES && pos + (off_t)len == size)
			return (LIES);
		if (r != 0) {
			/* Cut short while it is read. */
			if (r == LIES)
				errno = EIO;
			ierr(in->in_name);
			return (0);
		}
		if (revscan_feed(&rs, w.w_buf, pos, w.w_len, emit, &w) != 0)
			break;
		clen = (uint64_t)(rs.rs_end - pos) < osize ?
		    (size_t)(rs.rs_end - pos) : 0;
		memmove(top - clen, w.w_buf, clen);
	}
	return (0);
}

/* The lines of a stream, held to its end. */
static void
rev_stream(struct input *in)
{
	struct revscan rs;
	struct window w;
	struct input t;
	struct hold h;

	if (hold_input(&h, in, style != RBYTES,
	    style == REVERSE ? SEL_ALL : count) != 0)
		return;
	if (h.h_spill != -1) {
		t.in_fd = h.h_spill;
		t.in_name = in->in_name;
		if (fstat(t.in_fd, &t.in_st) != 0)
			ierr(in->in_name);
		else
			(void)rev_file(&t, 0);
	} else {
		rev_init(&rs, 0, (off_t)h.h_len);
		w.w_in = NULL;
		w.w_buf = h.h_buf;
		w.w_pos = 0;
		w.w_len = h.h_len;
		(void)revscan_feed(&rs, h.h_buf, 0, h.h_len, emit, &w);
	}
	hold_free(&h);
}

/* One line, [from, to): its end may lie past the window, dropped. */
static int
emit(void *arg, off_t from, off_t to)
{
	struct window *w;
	off_t wend;

	w = arg;
	wend = w->w_pos + (off_t)w->w_len;
	out_add(w->w_buf + (from - w->w_pos),
	    (size_t)((to < wend ? to : wend) - from));
	return (to <= wend ? 0 : reread(w->w_in, wend, to));
}

/* [from, to) of the file again, through the output buffer emptied. */
static int
reread(struct input *in, off_t from, off_t to)
{
	size_t len;
	int r;

	out_flush();
	for (; from < to; from += (off_t)len) {
		len = (uint64_t)(to - from) < osize ? (size_t)(to - from) :
		    osize;
		if ((r = read_window(in->in_fd, obuf, len, from, 0)) != 0) {
			if (r == LIES)
				errno = EIO;
			ierr(in->in_name);
			return (-1);
		}
		out_write(obuf, len);
	}
	return (0);
}

static void
out_add(const char *p, size_t n)
{

	if (n > osize - olen) {
		out_flush();
		if (n >= osize) {
			out_write(p, n);
			return;
		}
	}
	memcpy(obuf + olen, p, n);
	olen += n;
}

static void
out_flush(void)
{

	out_write(obuf, olen);
	olen = 0;
}
