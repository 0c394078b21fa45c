/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Linux: a bind mount of one file onto another name, made in a mount
 * namespace of the calling process's own, so that it goes away with the
 * process and nothing is left mounted whatever happens; the data and
 * holes of a sparse file; /proc and /sys.
 */

#include <sys/types.h>
#include <sys/mount.h>

#include <errno.h>
#include <sched.h>
#include <unistd.h>

#include "safety.h"

int
host_bind_alias(const char *file, const char *alias)
{

	if (unshare(CLONE_NEWNS) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
	    mount(file, alias, NULL, MS_BIND, NULL) == -1)
		return (-1);
	return (0);
}

int
host_has_procsys(void)
{

	return (1);
}

/*
 * The next data at or after off, up to the next hole: [*data, *hole).
 * -1 when there is no more data.
 */
int
host_next_data(int fd, off_t off, off_t size, off_t *data, off_t *hole)
{

	if ((*data = lseek(fd, off, SEEK_DATA)) == -1) {
		if (errno == ENXIO)
			return (-1);
		/* A file system without it: all data. */
		*data = off;
		*hole = size;
		return (off < size ? 0 : -1);
	}
	if ((*hole = lseek(fd, *data, SEEK_HOLE)) == -1)
		*hole = size;
	return (0);
}
