/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Hosts without Linux's per-process mount namespaces: no bind mount of a
 * file (a nullfs mount is of directories, and would outlive a crash), and
 * no /proc and /sys worth comparing.  A file's holes are read as zeros
 * (NetBSD has no SEEK_DATA): slower, the same hash.
 */

#include <sys/types.h>

#include <errno.h>

#include "safety.h"

int
host_bind_alias(const char *file, const char *alias)
{

	(void)file;
	(void)alias;
	errno = ENOSYS;
	return (-1);
}

int
host_has_procsys(void)
{

	return (0);
}

int
host_next_data(int fd, off_t off, off_t size, off_t *data, off_t *hole)
{

	(void)fd;
	*data = off;
	*hole = size;
	return (off < size ? 0 : -1);
}

int
host_catches(pid_t pid, int sig)
{

	(void)pid;
	(void)sig;
	return (-1);
}
