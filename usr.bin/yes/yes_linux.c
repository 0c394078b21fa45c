/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes on Linux: the prepared output is lent to the pipe with vmsplice(2)
 * instead of being copied into it.  That is only correct because the
 * output never changes once built: a reader may see these pages long
 * after the call returns.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "extern.h"

/*
 * The pipe asked for.  Lent pages take one pipe slot each, so Linux's
 * default 64 KiB pipe holds half of the policy's 128 KiB buffer and the
 * writer waits in every call; twice the buffer lets it run ahead of the
 * reader and stays well under the unprivileged limit.  The write(2) path
 * leaves the pipe alone.
 */
#define	YES_PIPE_SIZE	(256 * 1024)

static void	grow_pipe(void);

/* Only ever grows the pipe: it is shared with the reader. */
static void
grow_pipe(void)
{
	int size;

	size = fcntl(STDOUT_FILENO, F_GETPIPE_SZ);
	if (size != -1 && size < YES_PIPE_SIZE)
		(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, YES_PIPE_SIZE);
}

/*
 * Where the output is a pipe, its pages are lent with vmsplice(2) until it
 * refuses (not a pipe, a kernel or sandbox without it); a pipe with no
 * reader raises SIGPIPE here as write(2) would.
 */
size_t
yes_host(char *out, size_t len)
{
	struct iovec iov;
	struct stat sb;
	ssize_t n;
	size_t off;

	if (fstat(STDOUT_FILENO, &sb) != 0 || !S_ISFIFO(sb.st_mode))
		return (0);
	grow_pipe();
	off = 0;
	for (;;) {
		iov.iov_base = out + off;
		iov.iov_len = len - off;
		n = vmsplice(STDOUT_FILENO, &iov, 1, 0);
		if (n > 0) {
			off += (size_t)n;
			if (off == len)
				off = 0;
		} else if (n == 0 || errno != EINTR)
			return (off);
	}
}
