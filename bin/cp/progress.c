/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: what it says as it goes, the -v lines on the standard output and
 * the progress report on the standard error, which may be one file
 * (2>&1).  Every line must come out whole there: a -v line waits in a
 * buffer of our own, which writes only whole lines (stdio would cut one
 * where its buffer fills), and the report, written by a signal handler,
 * first writes out the -v lines finished so far, so that it never lands
 * inside one and the lines stay in the order things happened.
 *
 * The handler does something only between progress_start() and
 * progress_stop(), while the engine copies a file or the walk waits for
 * a worker of the pool to copy one; the rest of cp leaves the buffers
 * alone then, so the two never meet in one.  The workers block the
 * signal, so the handler runs in the walk's thread only, and reads what
 * a worker says of its file through a struct inflight.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"

/* What follows "src -> dst": " 100%\n", or more for a file that grew. */
#define	SHARE_MAX	32

static off_t	inflight_moved(const struct inflight *);
static size_t	format_share(char *, off_t, off_t);
static int	line_at_once(void);
static void	flush_at_exit(void);

/* -v lines not written yet: the first vlen bytes of vbuf. */
static struct xbuf		vbuf;
static volatile size_t		vlen;
static volatile sig_atomic_t	verror;	/* errno of a failed write */
static int			vnow;	/* each line written at once */

/* The file in flight: "src -> dst", room for the share done, and it. */
static struct xbuf		pline;
static size_t			plen;
static const struct inflight	*pfile;
static volatile sig_atomic_t	pbusy;

void
progress_init(void)
{

	if (vflag) {
		vnow = line_at_once();
		/* err(3) on the way out must not lose the lines before. */
		if (atexit(flush_at_exit) != 0)
			err(1, "atexit");
	}
}

/*
 * f is about to be copied by the thread whose count is c (NULL: a worker
 * not known yet), and is size bytes long (0: not known yet).  Called by
 * that thread.
 */
void
inflight_start(struct inflight *f, const _Atomic off_t *c, off_t size)
{

	atomic_store(&f->over, 0);
	atomic_store(&f->size, size);
	atomic_store(&f->base, c != NULL ? atomic_load(c) : 0);
	atomic_store(&f->counter, c);
}

/*
 * The copy of f is over, and its engine may go on to another file: what
 * it moved for f is kept.  Called by the thread of f's engine.
 */
void
inflight_over(struct inflight *f)
{
	const _Atomic off_t *c;

	if ((c = atomic_load(&f->counter)) != NULL)
		atomic_store(&f->moved, atomic_load(c) - atomic_load(&f->base));
	atomic_store(&f->over, 1);
}

/* The file f is about to be copied from one name to another. */
void
progress_start(const char *from, const char *to, const struct inflight *f)
{
	size_t flen, tlen;

	flen = strlen(from);
	tlen = strlen(to);
	if (flen + 4 + tlen + SHARE_MAX > pline.len)
		xbuf_grow(&pline, flen + 4 + tlen + SHARE_MAX);
	memcpy(pline.p, from, flen);
	memcpy(pline.p + flen, " -> ", 4);
	memcpy(pline.p + flen + 4, to, tlen);
	plen = flen + 4 + tlen;
	pfile = f;
	/* The line is complete before the handler may look at it. */
	atomic_signal_fence(memory_order_seq_cst);
	pbusy = 1;
}

void
progress_stop(void)
{

	pbusy = 0;
	atomic_signal_fence(memory_order_seq_cst);
}

/*
 * At a terminal, a line is written at once, as stdio would; so it is
 * where the standard error is the same file as the standard output, so
 * that messages and -v lines come in the order things happened.
 */
static int
line_at_once(void)
{
	struct stat out, errst;

	if (isatty(STDOUT_FILENO))
		return (1);
	return (fstat(STDOUT_FILENO, &out) == 0 &&
	    fstat(STDERR_FILENO, &errst) == 0 &&
	    SAME_INODE(&out, &errst));
}

static void
flush_at_exit(void)
{

	(void)verbose_flush();
}

/* One -v line, kept until it can be written whole with the others. */
void
verbose(const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	if (vbuf.len == 0)
		xbuf_grow(&vbuf, 8192);
	for (;;) {
		room = vbuf.len - vlen;
		va_start(ap, fmt);
		n = vsnprintf(vbuf.p + vlen, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			if (verror == 0)
				verror = errno;
			return;
		}
		if ((size_t)n < room)
			break;
		/* No room for it whole: out with the lines before it. */
		if (vlen > 0)
			(void)verbose_flush();
		else
			xbuf_grow(&vbuf, (size_t)n + 1);
	}
	vlen += (size_t)n;
	if (vnow)
		(void)verbose_flush();
}

/*
 * Write the -v lines kept so far.  Returns -1, errno set, when a write
 * of them has failed, now or before; the lines after a failure are
 * dropped.
 */
int
verbose_flush(void)
{

	if (vlen > 0 && verror == 0 &&
	    bufsz_write_all(STDOUT_FILENO, vbuf.p, vlen) != 0)
		verror = errno;
	vlen = 0;
	if (verror != 0) {
		errno = verror;
		return (-1);
	}
	return (0);
}

/*
 * "src -> dst  42%", as FreeBSD's cp words it, after the -v lines kept so
 * far; a size of 0 (a /proc file, a FIFO) gives 0%.  Formatted by hand;
 * both are written with bufsz_write_all(), which is write(2) and poll(2),
 * safe in a signal handler where printf is not.
 */
void
progress_signal(int sig)
{
	size_t n;
	int serrno;

	(void)sig;
	if (!pbusy)
		return;
	serrno = errno;
	(void)verbose_flush();
	n = format_share(pline.p + plen, inflight_moved(pfile),
	    atomic_load(&pfile->size));
	(void)bufsz_write_all(STDERR_FILENO, pline.p, plen + n);
	errno = serrno;
}

/*
 * What f's thread has moved for it.  Read before over: once over is set,
 * the thread counts the next file's bytes, and a count that has any of
 * them is read after over is seen set.
 */
static off_t
inflight_moved(const struct inflight *f)
{
	const _Atomic off_t *c;
	off_t moved;

	if ((c = atomic_load(&f->counter)) == NULL)
		return (0);
	moved = atomic_load(c) - atomic_load(&f->base);
	if (atomic_load(&f->over))
		moved = atomic_load(&f->moved);
	return (moved);
}

/* " %3d%%\n" of moved against size, into buf (SHARE_MAX bytes). */
static size_t
format_share(char *buf, off_t moved, off_t size)
{
	char digits[20];
	uintmax_t m, s, v;
	size_t i, n, pad;

	m = moved > 0 ? (uintmax_t)moved : 0;
	s = size > 0 ? (uintmax_t)size : 0;
	if (s == 0)
		v = 0;
	else if (m > UINTMAX_MAX / 100)
		v = m / (s / 100 > 0 ? s / 100 : 1);
	else
		v = m * 100 / s;
	n = sizeof(digits);
	do
		digits[--n] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	i = 0;
	buf[i++] = ' ';
	for (pad = n > sizeof(digits) - 3 ? n - (sizeof(digits) - 3) : 0;
	    pad > 0; pad--)
		buf[i++] = ' ';
	memcpy(buf + i, digits + n, sizeof(digits) - n);
	i += sizeof(digits) - n;
	buf[i++] = '%';
	buf[i++] = '\n';
	return (i);
}
