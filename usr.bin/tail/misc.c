/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What every part of tail uses: its errors, its output, and libbufsz.
 * Nothing here buffers output: what tail writes is on its way at once,
 * to a terminal or a pipe as much as to a file.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "confine.h"
#include "extern.h"
struct stat outst;

static int	ends_at_size(struct input *);

/*
 * A failure on one input: said, remembered in the exit status.  errno
 * is kept for the caller, which may remember what was said.
 */
void
ierr(const char *name)
{
	int serrno;

	serrno = errno;
	if (serrno == EOUTSIDE)
		warnx("%s: now leads outside the sandbox", name);
	else
		warn("%s", name);
	rval = 1;
	errno = serrno;
}

/*
 * An operand as a path: "-" is a file's name to tail, not the standard
 * input it is to confine().
 */
const char *
operand_path(const char *name)
{

	return (strcmp(name, "-") == 0 ? "./-" : name);
}

/*
 * Open name for reading, with flags besides, in the sandbox when tail is
 * in one; -1 with errno set, EOUTSIDE when only the sandbox refused it.
 */
int
open_name(const char *name, int flags)
{
	int fd;

	if ((fd = open_confined(operand_path(name), flags)) == BUFSZ_OUTSIDE) {
		errno = EOUTSIDE;
		return (-1);
	}
	return (fd);
}

/* stat(2) of an operand, which capability mode allows only by Casper. */
int
stat_name(const char *name, struct stat *sb)
{

	return (stat_confined(operand_path(name), sb));
}

/* A failure on the output ends tail. */
void
oerr(void)
{

	err(1, "stdout");
}

void
out_write(const void *p, size_t n)
{

	if (n > 0 && bufsz_write_all(STDOUT_FILENO, p, n) != 0)
		oerr();
}

/* "==> name <==", after an empty line when nl is set. */
void
header(const char *name, int nl)
{
	char buf[1024];
	size_t len;

	len = strlen(name);
	if (len + 11 <= sizeof(buf)) {
		memcpy(buf, "\n==> ", 5);
		memcpy(buf + 5, name, len);
		memcpy(buf + 5 + len, " <==\n", 5);
		out_write(nl ? buf : buf + 1, len + (nl ? 10 : 9));
		return;
	}
	out_write(nl ? "\n==> " : "==> ", nl ? 5 : 4);
	out_write(name, len);
	out_write(" <==\n", 5);
}

/*
 * The engine, and the standard output it copies to.  Before any input
 * is opened: with descriptor 1 closed, the first input would be given it.
 * The memory the policy and hold.c count is probed now, before the
 * sandbox takes away the files the host tells it in.
 */
void
engine_open(void)
{

	if (fstat(STDOUT_FILENO, &outst) != 0)
		oerr();
}

/*
 * Everything from the input's offset to its end, by the engine: the
 * kernel's paths where it has them, as cat copies.  0, or -1 with errno
 * set when the input failed, not said.
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

/* The same, with a failure of the input said. */
int
copy_rest(struct input *in)
{

	if (copy_out(in) != 0) {
		ierr(in->in_name);
		return (-1);
	}
	return (0);
}

/*
 * The engine's buffer, sized by the policy for this input and the
 * standard output; tail reads its windows into it.
 */
char *
window_buffer(const struct stat *st, size_t *len)
{
	char *buf;

	if ((buf = bufsz_buffer(st, &outst, len)) == NULL)
		err(1, "buffer");
	return (buf);
}

/*
 * Whether the input can be read by position: a regular file that says
 * it has bytes past its offset and ends where it says.  *begin is the
 * offset, where the input begins for tail (a standard input may have
 * been read from already).  A file of size 0 may be a /proc file that
 * has content all the same: only reading it tells.
 */
int
seekable(struct input *in, off_t *begin)
{

	if (!S_ISREG(in->in_st.st_mode) || in->in_st.st_size <= 0)
		return (0);
	if ((*begin = lseek(in->in_fd, 0, SEEK_CUR)) == -1)
		return (0);
	return (in->in_st.st_size > *begin && ends_at_size(in));
}

/*
 * Whether the file's data ends where its size says.  On a file system
 * that does not keep sizes (FUSE, NFS) a read at the size must find
 * nothing: a file served by a program may hold far more than it says,
 * and tail would start from the wrong place.  A file that says more than
 * it holds passes here; the windows read short and tell.  A read that
 * fails is left to the stream, which says so.
 */
static int
ends_at_size(struct input *in)
{
	ssize_t n;
	char c;

	while ((n = pread(in->in_fd, &c, 1, in->in_st.st_size)) == -1 &&
	    errno == EINTR)
		;
	return (n == 0);
}

/* The reads of a span at a position: a short count is not the end. */
ssize_t
pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t got;
	ssize_t n;

	for (got = 0; got < len; got += (size_t)n)
		if ((n = pread(fd, (char *)buf + got, len - got,
		    off + (off_t)got)) <= 0) {
			if (n == 0)
				break;
			if (errno != EINTR && errno != EAGAIN)
				return (-1);
			n = 0;
		}
	return ((ssize_t)got);
}

size_t
pagesize(void)
{
	long pg;

	return ((pg = sysconf(_SC_PAGESIZE)) > 0 ? (size_t)pg : 4096);
}
