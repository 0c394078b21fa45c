/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Which of FreeBSD's file systems keep a file's size: fstatfs(2)'s
 * f_fstypename against the file systems whose files end where stat(2)
 * says.
 */

#include <sys/param.h>
#ifndef BOOTSTRAPPING
#include <sys/mount.h>
#endif

#include <string.h>

#include "bufsz_private.h"

/*
 * Local file systems, where the size is the kernel's own record of the
 * file and a read past it returns 0.  Left out, so confirmed by a read:
 * nfs and smbfs (another client may have written more), fusefs (the size
 * is whatever the server says), nullfs and unionfs (they answer for what
 * lies below them), procfs.  The cat built for a build host of another
 * system knows none.
 */
int
bufsz_host_keeps_size(int fd)
{
#ifdef BOOTSTRAPPING
	(void)fd;
	return (0);
#else
	static const char *const keeps_size[] = {
		"ufs", "zfs", "tmpfs", "ext2fs", "msdosfs", "cd9660",
	};
	struct statfs sfs;
	size_t i;

	if (fstatfs(fd, &sfs) != 0)
		return (0);
	for (i = 0; i < nitems(keeps_size); i++)
		if (strcmp(sfs.f_fstypename, keeps_size[i]) == 0)
			return (1);
	return (0);
#endif
}
