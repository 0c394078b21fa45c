/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The input from where the options say to its end.
 *
 * A regular file is read by position: a count from the end is found by
 * reading windows backward from the end (select.c plans them: a page
 * first, twice as much each time after), so that what is read is about
 * what is shown; then the engine copies from there to the end, by the
 * kernel's paths where it has them.  The windows are read with pread(2)
 * into the engine's buffer, not mapped: a mapping costs more system calls
 * and page faults for the same bytes, and a file cut short under it kills
 * the reader with SIGBUS, where pread just comes back short.
 *
 * Anything else (a pipe, a terminal, a /proc file whose size says 0, a
 * file on FUSE or NFS that holds more than its size says, or a file whose
 * size turns out to lie) is read as a stream, holding what the selection
 * needs (hold.c).  A count from the start is skipped as
 * the input is read, then the engine copies the rest.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stdint.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"
#include "select.h"

static int	from_start(struct input *);
static int	from_end(struct input *, off_t);
static int	end_holds(struct input *);
static int	start_of_lines(struct input *, off_t, off_t *);
static int	stream_end(struct input *);
static int	spilled_end(struct input *, int);

/* 0, or -1 when the input failed (said). */
int
forward(struct input *in)
{
	off_t begin;
	int r;

	if (style == FBYTES || style == FLINES)
		return (from_start(in));
	if (!seekable(in, &begin) || (r = from_end(in, begin)) == LIES)
		return (stream_end(in));
	return (r);
}

/*
 * -c +N, -n +N: skip, then the rest.  The reads of a regular file grow
 * from a page, so that -n +2 reads about the first line before the
 * engine takes over.
 */
static int
from_start(struct input *in)
{
	struct skip sk;
	off_t begin, left;
	size_t len, want, used;
	ssize_t n;
	char *buf;

	if (count != 0 && style == FBYTES && seekable(in, &begin)) {
		left = in->in_st.st_size - begin;
		if ((uint64_t)left > count)
			left = (off_t)count;
		if (lseek(in->in_fd, left, SEEK_CUR) == -1) {
			ierr(in->in_name);
			return (-1);
		}
		return (copy_rest(in));
	}
	skip_init(&sk, style == FLINES, count);
	buf = window_buffer(&in->in_st, &len);
	want = pagesize();
	for (n = 0, used = 0; !skip_done(&sk);) {
		if (want > len)
			want = len;
		if ((n = bufsz_read(in->in_fd, buf, want)) < 0) {
			ierr(in->in_name);
			return (-1);
		}
		if (n == 0)
			return (0);
		used = skip_feed(&sk, buf, (size_t)n);
		want = want > len / 2 ? len : want * 2;
	}
	/* What the last read took past the skipped part. */
	if (S_ISREG(in->in_st.st_mode) && (size_t)n > used &&
	    lseek(in->in_fd, -(off_t)((size_t)n - used), SEEK_CUR) != -1)
		n = (ssize_t)used;
	out_write(buf + used, (size_t)n - used);
	return (copy_rest(in));
}

/*
 * -c N, -n N of a regular file: the start by position, then the rest.
 * 0, LIES, or -1 when the input failed (said).
 */
static int
from_end(struct input *in, off_t begin)
{
	off_t size, start;
	int r;

	size = in->in_st.st_size;
	if (count == 0) {
		/* Nothing to show, but -f goes on from the end. */
		if (lseek(in->in_fd, 0, SEEK_END) == -1) {
			ierr(in->in_name);
			return (-1);
		}
		return (0);
	}
	if (style == RBYTES) {
		if ((r = end_holds(in)) != 0)
			return (r);
		start = (uint64_t)(size - begin) > count ? size - (off_t)count :
		    begin;
	} else if ((r = start_of_lines(in, begin, &start)) != 0)
		return (r);
	if (lseek(in->in_fd, start, SEEK_SET) == -1) {
		ierr(in->in_name);
		return (-1);
	}
	return (copy_rest(in));
}

/*
 * Whether the file really has the size it says: its last page is read.
 * A /sys file says 4096 and holds a line.  0, LIES, or -1 after an
 * error, said.
 */
static int
end_holds(struct input *in)
{
	off_t last;
	size_t len, blen;
	ssize_t n;
	char *buf;

	buf = window_buffer(&in->in_st, &blen);
	last = in->in_st.st_size - 1;
	last -= last % (off_t)pagesize();
	len = (size_t)(in->in_st.st_size - last);
	if (len > blen) {
		last = in->in_st.st_size - (off_t)blen;
		len = blen;
	}
	if ((n = pread_full(in->in_fd, buf, len, last)) < 0) {
		ierr(in->in_name);
		return (-1);
	}
	return ((size_t)n < len ? LIES : 0);
}

/*
 * Where the last `count' lines begin, by windows from the end.  0 with
 * *start set; LIES; or -1 after an error, said.
 */
static int
start_of_lines(struct input *in, off_t begin, off_t *start)
{
	struct winplan wp;
	struct backscan bs;
	size_t blen, wlen;
	ssize_t n;
	off_t pos;
	char *buf;

	buf = window_buffer(&in->in_st, &blen);
	winplan_init(&wp, begin, in->in_st.st_size, pagesize(), blen,
	    pagesize());
	backscan_init(&bs, count, in->in_st.st_size);
	while (winplan_next(&wp, &pos, &wlen)) {
		if ((n = pread_full(in->in_fd, buf, wlen, pos)) < 0) {
			ierr(in->in_name);
			return (-1);
		}
		if ((size_t)n < wlen)
			return (LIES);
		if (backscan_feed(&bs, buf, pos, wlen, start))
			return (0);
	}
	*start = begin;
	return (0);
}

/* -c N, -n N of a stream: held to its end, then the part shown. */
static int
stream_end(struct input *in)
{
	struct backscan bs;
	struct hold h;
	off_t start;
	int r;

	if (hold_input(&h, in, style == RLINES, count) != 0)
		return (-1);
	r = 0;
	if (h.h_spill != -1)
		r = spilled_end(in, h.h_spill);
	else if (style == RBYTES)
		out_write(h.h_buf + (h.h_len > count ? h.h_len - count : 0),
		    h.h_len > count ? (size_t)count : h.h_len);
	else {
		backscan_init(&bs, count, (off_t)h.h_len);
		if (!backscan_feed(&bs, h.h_buf, 0, h.h_len, &start))
			start = 0;
		out_write(h.h_buf + start, h.h_len - (size_t)start);
	}
	hold_free(&h);
	return (r);
}

/* What a stream left in a temporary file, read as a file is. */
static int
spilled_end(struct input *in, int fd)
{
	struct input t;
	off_t begin;

	t.in_fd = fd;
	t.in_name = in->in_name;
	if (fstat(fd, &t.in_st) != 0 || lseek(fd, 0, SEEK_SET) == -1) {
		ierr(in->in_name);
		return (-1);
	}
	if (!seekable(&t, &begin))
		return (0);
	return (from_end(&t, begin) == -1 ? -1 : 0);
}
