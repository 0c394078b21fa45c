/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: open a file below a directory without leaving it, on Linux:
 * openat2(2) with RESOLVE_BENEATH, which refuses a path that would leave
 * the directory, through ".." or a symbolic link, with EXDEV, and magic
 * links (/proc/self/fd/N) too.  Where the kernel lacks the call (before
 * 5.6) or a filter forbids it, the walk of beneath_portable.c does the
 * same by hand.
 */

#include <sys/types.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/* EAGAIN: a rename or mount raced with the lookup; it is tried again. */
#define	RETRIES	8

static int	open_beneath_walk(int, const char *, int);

#define	open_beneath	open_beneath_walk
#include "beneath_portable.c"
#undef	open_beneath

int
open_beneath(int dir, const char *path, int flags)
{
	struct open_how how;
	long fd;
	int i;

	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)(unsigned int)(flags | O_CLOEXEC);
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
	for (i = 0; i < RETRIES; i++) {
		fd = syscall(SYS_openat2, dir, path, &how, sizeof(how));
		if (fd != -1)
			return ((int)fd);
		if (errno != EAGAIN)
			break;
	}
	if (errno == ENOSYS || errno == EPERM || errno == EAGAIN)
		return (open_beneath_walk(dir, path, flags));
	return (-1);
}
