/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: open a file below a directory without leaving it, on FreeBSD:
 * O_RESOLVE_BENEATH, which refuses a path that would leave the
 * directory, through ".." or a symbolic link, with ENOTCAPABLE (EXDEV
 * here, as elsewhere in cp).  A path too long for the kernel is walked
 * by hand (beneath.c).
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>

#include "beneath.h"

int
open_beneath(int dir, const char *path, int flags)
{
	int fd;

	if ((fd = openat(dir, path, flags | O_RESOLVE_BENEATH |
	    O_CLOEXEC)) != -1)
		return (fd);
	if (errno == ENOTCAPABLE)
		errno = EXDEV;
	else if (errno == ENAMETOOLONG)
		return (open_beneath_walk(dir, path, flags));
	return (-1);
}
