/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The input from where the options say to its end.
 *
 * A regular file is read by position: the start of a count from the end
 * is found in windows read backward from its end (select.c plans them: a
 * page first, then twice as much each time), so that what is read is
 * about what is shown, and a count of bytes from the start is a seek.
 * From there the engine copies to the end, by the kernel's paths where
 * it has them.  The windows are read with pread(2), not mapped: a file
 * cut short under a mapping kills the reader with SIGBUS.
 *
 * Anything else (a pipe, a terminal, a /proc file whose size says 0, a
 * file whose size lies) is read as a stream: a count from the start is
 * skipped as it is read; for a count from the end, hold.c keeps what is
 * to be shown.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"
#include "select.h"

static int	from_start(struct input *);
static int	find_start(struct input *, off_t, off_t *);
static int	stream_end(struct input *);

/* 0, or -1 when the input failed (said). */
int
forward(struct input *in)
{
	off_t begin, start;
	int r;

	if (style == FBYTES || style == FLINES)
		return (from_start(in));
	if (!seekable(in, &begin))
		return (stream_end(in));
	if (count == 0) {
		/* Nothing to show, but -f goes on from the end. */
		if (lseek(in->in_fd, 0, SEEK_END) != -1)
			return (0);
	} else if ((r = find_start(in, begin, &start)) == LIES)
		return (stream_end(in));
	else if (r == 0 && lseek(in->in_fd, start, SEEK_SET) != -1 &&
	    copy_out(in) == 0)
		return (0);
	ierr(in->in_name);
	return (-1);
}

/*
 * Whether the input can be read by position: a regular file that says
 * it has bytes past its offset, *begin (a standard input may have been
 * read from already).  /proc files say 0 and have content all the same.
 */
int
seekable(struct input *in, off_t *begin)
{

	return (S_ISREG(in->in_st.st_mode) && in->in_st.st_size > 0 &&
	    (*begin = lseek(in->in_fd, 0, SEEK_CUR)) != -1 &&
	    in->in_st.st_size > *begin);
}

/*
 * The window [pos, pos + len) of a regular file, read whole.  With last
 * set it ends at the file's size, and each read asks for one byte more,
 * which buf has room for: a file system that does not keep sizes (FUSE,
 * NFS) may hold more than it says, and a read that stops at the size
 * says the end without a read of its own.  0, LIES when the file holds
 * more or fewer bytes, or -1.
 */
int
read_window(int fd, char *buf, size_t len, off_t pos, int last)
{
	size_t got;
	ssize_t n;

	for (got = 0; got < len; got += (size_t)n)
		if ((n = pread(fd, buf + got, len + (last != 0) - got,
		    pos + (off_t)got)) == 0)
			break;
		else if (n == -1 && errno != EINTR && errno != EAGAIN)
			return (-1);
		else if (n == -1)
			n = 0;
	return (got == len ? 0 : LIES);
}

/*
 * The rest of the input from its offset, by the engine; 0, or -1 when
 * the input failed (errno).  A failed output ends tail.
 */
int
copy_out(struct input *in)
{

	switch (bufsz_copy(in->in_fd, &in->in_st, STDOUT_FILENO, &outst, 0)) {
	case BUFSZ_OK:
		return (0);
	case BUFSZ_EREAD:
		return (-1);
	default:
		oerr();
	}
}

/*
 * -c +N, -n +N: a seek, or the input read in chunks that grow from a
 * page (-n +2 reads about the first line), the first N bytes or lines
 * skipped; what the last chunk took past them is put back or written,
 * and the engine copies the rest.
 */
static int
from_start(struct input *in)
{
	uint64_t left;
	off_t begin;
	size_t len, want, used;
	ssize_t n;
	char *buf;

	buf = NULL;
	len = 0;
	left = count;
	if (left == 0 || (style == FBYTES && seekable(in, &begin) &&
	    left < (uint64_t)(in->in_st.st_size - begin) &&
	    lseek(in->in_fd, (off_t)left, SEEK_CUR) != -1))
		left = 0;
	else if ((buf = bufsz_buffer(&in->in_st, &outst, &len)) == NULL)
		goto bad;
	for (want = (size_t)sysconf(_SC_PAGESIZE); left > 0;) {
		if ((n = bufsz_read(in->in_fd, buf, want < len ? want : len)) <
		    0)
			goto bad;
		if (n == 0)
			return (0);
		used = skip(&left, style == FLINES, buf, (size_t)n);
		want = want > len / 2 ? len : want * 2;
		if (left > 0)
			continue;
		if (S_ISREG(in->in_st.st_mode) && (size_t)n > used &&
		    lseek(in->in_fd, (off_t)used - n, SEEK_CUR) != -1)
			n = (ssize_t)used;
		out_write(buf + used, (size_t)n - used);
	}
	if (copy_out(in) == 0)
		return (0);
bad:
	ierr(in->in_name);
	return (-1);
}

/*
 * -c N, -n N of a regular file: where the part shown begins.  The first
 * window read checks the size.  0 with *start set, LIES, or -1.
 */
static int
find_start(struct input *in, off_t begin, off_t *start)
{
	struct winplan wp;
	struct revscan rs;
	off_t pos, size;
	size_t blen, len, page;
	char *buf;
	int r;

	size = in->in_st.st_size;
	if ((buf = bufsz_buffer(&in->in_st, &outst, &blen)) == NULL)
		return (-1);
	page = (size_t)sysconf(_SC_PAGESIZE);
	winplan_init(&wp, begin, size, page, blen, page);
	revscan_init(&rs, begin, size, count);
	while (winplan_next(&wp, &pos, &len)) {
		if ((r = read_window(in->in_fd, buf, len, pos,
		    pos + (off_t)len == size)) != 0)
			return (r);
		if (style == RBYTES) {
			*start = (uint64_t)(size - begin) > count ?
			    size - (off_t)count : begin;
			return (0);
		}
		if (revscan_feed(&rs, buf, pos, len, NULL, NULL) != 0)
			break;
	}
	*start = rs.rs_end;
	return (0);
}

/*
 * -c N, -n N of a stream: held to its end, then the part shown.  What a
 * temporary file holds is read as a file is.
 */
static int
stream_end(struct input *in)
{
	struct revscan rs;
	struct input t;
	struct hold h;
	size_t start;
	int r;

	if (hold_input(&h, in, style == RLINES, count) != 0)
		return (-1);
	r = 0;
	if (h.h_spill != -1) {
		t.in_fd = h.h_spill;
		t.in_name = in->in_name;
		if (fstat(t.in_fd, &t.in_st) != 0 ||
		    lseek(t.in_fd, 0, SEEK_SET) == -1) {
			ierr(in->in_name);
			r = -1;
		} else
			r = forward(&t);
	} else {
		start = h.h_len > count ? h.h_len - (size_t)count : 0;
		if (style == RLINES) {
			revscan_init(&rs, 0, (off_t)h.h_len, count);
			(void)revscan_feed(&rs, h.h_buf, 0, h.h_len, NULL,
			    NULL);
			start = (size_t)rs.rs_end;
		}
		out_write(h.h_buf + start, h.h_len - start);
	}
	hold_free(&h);
	return (r);
}
