/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the lines of -v on the standard output, and the report that the
 * progress signal asks for on the standard error.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/* The -v lines kept, written when half of it is used. */
#define	VBUF	8192

static void	verbose_exit(void);

static const struct inflight *_Atomic	shown;
static struct buf	line;
static int	verror;		/* errno of a failed write */
static int	vnow;		/* each line written at once */

/* The file that a progress signal reports on from now on (NULL: none). */
void
progress_show(const struct inflight *f)
{

	atomic_store(&shown, f);
}

/*
 * "src -> dst  42%", built by hand, as printf(3) is not safe in a signal
 * handler.  A file is shown only while its bytes move, never while a -v
 * line is written: each of those went out whole before, so that the two
 * kinds of line never mix, even in one file.  A file that grew while it
 * was copied counts as whole.
 */
void
progress_signal(int sig)
{
	const struct inflight *f;
	const _Atomic off_t *c;
	char share[] = "    %\n";
	off_t moved, size;
	int i, pct, serrno;

	(void)sig;
	if ((f = atomic_load(&shown)) == NULL)
		return;
	serrno = errno;
	c = atomic_load(&f->counter);
	moved = c != NULL ? atomic_load(c) - atomic_load(&f->base) : 0;
	size = atomic_load(&f->size);
	if (moved > size)
		moved = size;
	pct = size <= 0 || moved <= 0 ? 0 : size > INTMAX_MAX / 100 ?
	    (int)(moved / (size / 100)) : (int)(moved * 100 / size);
	for (i = 3; i == 3 || pct > 0; i--, pct /= 10)
		share[i] = (char)('0' + pct % 10);
	(void)bufsz_write_all(STDERR_FILENO, f->from, strlen(f->from));
	(void)bufsz_write_all(STDERR_FILENO, " -> ", 4);
	(void)bufsz_write_all(STDERR_FILENO, f->to, strlen(f->to));
	(void)bufsz_write_all(STDERR_FILENO, share, sizeof(share) - 1);
	errno = serrno;
}

/*
 * Lines of -v wait in a buffer and go out whole, but at once at a
 * terminal and where the standard error is the same file, so that a
 * message comes in its turn and a progress report is never inside one.
 */
void
verbose(const char *fmt, ...)
{
	struct stat out, errst;
	va_list ap;
	int n;

	if (line.cap == 0) {
		buf_room(&line, VBUF);
		vnow = isatty(STDOUT_FILENO) ||
		    (fstat(STDOUT_FILENO, &out) == 0 &&
		    fstat(STDERR_FILENO, &errst) == 0 &&
		    SAME_INODE(&out, &errst));
		/* err(3) on the way out must not lose the lines before. */
		if (atexit(verbose_exit) != 0)
			err(1, "atexit");
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(line.p + line.len, line.cap - line.len, fmt, ap);
		va_end(ap);
		if (n < 0 || (size_t)n < line.cap - line.len)
			break;
		buf_room(&line, line.len + (size_t)n + 1);
	}
	if (n < 0)
		verror = verror != 0 ? verror : errno;
	else
		line.len += (size_t)n;
	if (vnow || line.len >= VBUF / 2)
		(void)verbose_flush();
}

static void
verbose_exit(void)
{

	(void)verbose_flush();
}

/*
 * Write the -v lines kept: 0, or the errno of a write that failed, now or
 * before, after which no more are tried.
 */
int
verbose_flush(void)
{

	if (line.len > 0 && verror == 0 &&
	    bufsz_write_all(STDOUT_FILENO, line.p, line.len) != 0)
		verror = errno;
	line.len = 0;
	return (verror);
}
