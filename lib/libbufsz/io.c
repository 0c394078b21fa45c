/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Whole writes and patient reads, and the one retry rule every copy loop
 * follows: an interrupted call is made again, and EAGAIN, which comes only
 * from a descriptor someone made non-blocking (a shared terminal, a pipe
 * from a shell), is waited out with poll(2): spinning on it would burn a
 * CPU, and reporting it would lose data.
 */

#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "bufsz_private.h"

static int	wait_for(int, short);

/* Sleep until fd is ready for events (or has hung up or failed). */
static int
wait_for(int fd, short events)
{
	struct pollfd pfd;

	pfd.fd = fd;
	pfd.events = events;
	pfd.revents = 0;
	while (poll(&pfd, 1, -1) == -1)
		if (errno != EINTR)
			return (-1);
	return (0);
}

/* A kernel-side call does not say which side said EAGAIN: both are waited. */
int
bufsz_io_again(int in, int out)
{

	if (errno == EINTR)
		return (1);
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		return (0);
	if (in != -1 && wait_for(in, POLLIN) != 0)
		return (0);
	if (out != -1 && wait_for(out, POLLOUT) != 0)
		return (0);
	return (1);
}

ssize_t
bufsz_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = read(fd, buf, len)) == -1)
		if (!bufsz_io_again(fd, -1))
			return (-1);
	return (n);
}

int
bufsz_write_all(int fd, const void *buf, size_t len)
{
	const char *p;
	ssize_t n;

	for (p = buf; len > 0; p += n, len -= (size_t)n) {
		if ((n = write(fd, p, len)) > 0)
			continue;
		if (n == 0) {
			/* A write that takes nothing would loop forever. */
			errno = EIO;
			return (-1);
		}
		if (!bufsz_io_again(-1, fd))
			return (-1);
		n = 0;
	}
	return (0);
}
