/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: open a file below a directory without leaving it.  FreeBSD's
 * O_RESOLVE_BENEATH refuses a path that would leave the directory,
 * through ".." or a symbolic link, with ENOTCAPABLE (EXDEV here, as
 * elsewhere in cp); where open(2) has no such flag, and for a path too
 * long for the kernel, the walk of beneath.c goes one name at a time.
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>

#include "beneath.h"

int
open_beneath(int dir, const char *path, int flags)
{
#ifdef O_RESOLVE_BENEATH
	int fd;

	if ((fd = openat(dir, path, flags | O_RESOLVE_BENEATH |
	    O_CLOEXEC)) != -1)
		return (fd);
	if (errno == ENOTCAPABLE)
		errno = EXDEV;
	else if (errno == ENAMETOOLONG)
		return (open_beneath_walk(dir, path, flags));
	return (-1);
#else
	return (open_beneath_walk(dir, path, flags));
#endif
}
