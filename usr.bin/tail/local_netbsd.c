/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Whether NetBSD hears of a file's changes: not when it lives on
 * another machine (NFS, SMB), where kqueue stays silent.
 */

#include <sys/types.h>
#include <sys/statvfs.h>

#include "extern.h"

int
fs_events(int fd)
{
	struct statvfs sv;

	return (fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_LOCAL) != 0);
}
