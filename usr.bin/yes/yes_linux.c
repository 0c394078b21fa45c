/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes on Linux: the prepared output is lent to the pipe with vmsplice(2)
 * instead of being copied into it.  That is only correct because the
 * output never changes once built: a reader may see these pages long
 * after the call returns.
 */

#include <sys/types.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "extern.h"

/*
 * The pipe asked for.  Lent pages take one pipe slot each, so Linux's
 * default 64 KiB pipe holds half of the policy's 128 KiB buffer and the
 * writer waits in every call.  GB/s, 2 GB through the pipe, medians of
 * 11 interleaved runs (5 for write), Debian 12, Linux 6.18, 2 vCPUs
 * (shared, so spreads are wide):
 *
 *	pipe			64 KiB	128 KiB-1 MiB
 *	vmsplice -> read 128 KiB	5.5	7.6-9.1 (flat)
 *	vmsplice -> splice to null	5.6	11.7-12.0
 *	write -> read 128 KiB		3.0	1.4 (1 MiB)
 *
 * Reproduce: build a world with make MAKEOBJDIRPREFIX=/tmp/o
 * COPTS=-DYES_PIPE_SIZE=N for each N, then
 *	BUFSZ_PATH=splice yes | dd bs=128k count=16384 of=/dev/null
 *	BUFSZ_PATH=rw yes | dd bs=128k count=16384 of=/dev/null
 * (make bench's yes cases keep the runs, in docs/bench).  Twice the
 * buffer is on the plateau and well under the unprivileged limit
 * (/proc/sys/fs/pipe-max-size, 1 MiB by default); the write(2) path
 * leaves the pipe alone.
 */
#ifndef YES_PIPE_SIZE
#define	YES_PIPE_SIZE	(256 * 1024)
#endif

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
 * Returns when vmsplice refuses (not a pipe, a kernel or sandbox without
 * it).  A pipe with no reader raises SIGPIPE here as write(2) would.
 */
size_t
lend_output(char *out, size_t len)
{
	struct iovec iov;
	ssize_t n;
	size_t off;

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
