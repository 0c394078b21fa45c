/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Standard descriptors that a program was started without.
 */

#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <unistd.h>

#include "bufsz_util.h"

/*
 * A descriptor among 0, 1 and 2 that is closed would be handed to the
 * first file the program opens: cp's target would receive its progress
 * report as descriptor 2, and cp -i would read its answer from a source
 * opened as descriptor 0.  So each closed one is held by /dev/null, opened
 * for the other direction only: reading descriptor 0, or writing 1 or 2,
 * still fails with EBADF as it did while closed, and the program reports
 * it the same way.
 */
int
bufsz_stdfds(void)
{
	int fd, nfd, serrno;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		nfd = open(_PATH_DEVNULL, (fd == STDIN_FILENO ? O_WRONLY :
		    O_RDONLY) | O_NOCTTY);
		if (nfd == -1)
			return (-1);
		/* open(2) takes the lowest free slot, which is fd. */
		if (nfd != fd) {
			if (dup2(nfd, fd) == -1) {
				serrno = errno;
				(void)close(nfd);
				errno = serrno;
				return (-1);
			}
			(void)close(nfd);
		}
	}
	return (0);
}
