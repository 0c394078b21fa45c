/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: open a file below a directory without leaving it, by
 * O_RESOLVE_BENEATH, whose ENOTCAPABLE is cp's EXDEV.
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>

#include "extern.h"

int
open_beneath(int dir, const char *path, int flags)
{
	int fd;

	fd = openat(dir, path, flags | O_RESOLVE_BENEATH | O_CLOEXEC);
	if (fd == -1 && errno == ENOTCAPABLE)
		errno = EXDEV;
	return (fd);
}
