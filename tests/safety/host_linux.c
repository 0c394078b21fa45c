/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Linux: a bind mount of one file onto another name, made in a mount
 * namespace of the calling process's own, so that it goes away with the
 * process and nothing is left mounted whatever happens; the data and
 * holes of a sparse file; whether a process has its handler for a signal
 * (/proc/PID/status); /proc and /sys.
 */

#include <sys/types.h>
#include <sys/mount.h>

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
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

/*
 * Whether process pid catches sig yet: a signal sent before the program
 * set its handler would kill it.  -1 when that cannot be known.
 */
int
host_catches(pid_t pid, int sig)
{
	char path[64], line[256];
	uint64_t mask;
	FILE *fp;
	int r;

	(void)snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return (-1);
	r = -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "SigCgt:", 7) == 0 &&
		    sscanf(line + 7, "%" SCNx64, &mask) == 1) {
			r = (mask >> (sig - 1)) & 1;
			break;
		}
	(void)fclose(fp);
	return (r);
}
