/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Which of Linux's file systems keep a file's size: fstatfs(2)'s f_type
 * against the file systems whose files end where stat(2) says.
 */

#include <sys/types.h>
#include <sys/vfs.h>

#include <linux/magic.h>

#include "bufsz_private.h"

/* OpenZFS is not in the kernel's own list of names. */
#define	ZFS_SUPER_MAGIC	0x2fc12fc1

/*
 * Local file systems, on a disk or in memory, where the size is the
 * kernel's own record of the file and a read past it returns 0.  Left
 * out, so confirmed by a read: network file systems (another client may
 * have written more), FUSE (the size is whatever the server says, and
 * with direct_io reads go past it), overlayfs (it answers for whatever
 * lies below it), and /proc and /sys.
 */
static const unsigned long keeps_size[] = {
	EXT4_SUPER_MAGIC,	/* also ext2 and ext3 */
	XFS_SUPER_MAGIC,
	BTRFS_SUPER_MAGIC,
	TMPFS_MAGIC,
	RAMFS_MAGIC,
	F2FS_SUPER_MAGIC,
	ZFS_SUPER_MAGIC,
	SQUASHFS_MAGIC,
	EROFS_SUPER_MAGIC_V1,
	ISOFS_SUPER_MAGIC,
	MSDOS_SUPER_MAGIC,
	EXFAT_SUPER_MAGIC,
};

int
bufsz_host_keeps_size(int fd)
{
	struct statfs sfs;
	size_t i;

	if (fstatfs(fd, &sfs) != 0)
		return (0);
	for (i = 0; i < sizeof(keeps_size) / sizeof(keeps_size[0]); i++)
		if ((unsigned long)sfs.f_type == keeps_size[i])
			return (1);
	return (0);
}
