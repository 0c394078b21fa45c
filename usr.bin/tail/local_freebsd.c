/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Whether FreeBSD hears of a file's changes: not when it lives on
 * another machine (NFS, SMB), where kqueue stays silent.
 */

#include <sys/param.h>
#include <sys/mount.h>

#include "extern.h"

int
fs_events(int fd)
{
	struct statfs sf;

	return (fstatfs(fd, &sf) == 0 && (sf.f_flags & MNT_LOCAL) != 0);
}
