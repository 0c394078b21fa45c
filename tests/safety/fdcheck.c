/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Preloaded into a program under test: when it exits, write the
 * descriptors above 2 it still has open, one a line ("fd mode dev ino",
 * mode and numbers in decimal), to the file $SAFETY_FDS.  A descriptor
 * left open at exit on a file the program worked on is one it leaked.
 *
 * The report is opened before the program starts, and kept far above
 * the descriptors it uses: a program that confines itself (Landlock,
 * Capsicum) can no longer open it at exit, and one started with 0, 1 or
 * 2 closed must find them closed.  Built without sanitizers: it runs
 * inside programs with and without.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define	REPORT_FD	1000	/* the lowest the report may be given */

void	safety_fdcheck_open(void) __attribute__((__constructor__));
void	safety_fdcheck(void) __attribute__((__destructor__));

static int	report = -1;

void
safety_fdcheck_open(void)
{
	const char *path;
	long max;
	int fd;

	if ((path = getenv("SAFETY_FDS")) == NULL)
		return;
	if ((max = sysconf(_SC_OPEN_MAX)) < 0 || max > REPORT_FD + 16)
		max = REPORT_FD + 16;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1)
		return;
	report = fcntl(fd, F_DUPFD_CLOEXEC, (int)max - 16);
	(void)close(fd);
}

void
safety_fdcheck(void)
{
	struct stat st;
	char buf[16384];
	size_t len;
	int fd, max, n;

	if (report == -1)
		return;
	max = (int)sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	len = 0;
	for (fd = 3; fd < max; fd++) {
		if (fd == report || fcntl(fd, F_GETFD) == -1 ||
		    fstat(fd, &st) == -1)
			continue;
		n = snprintf(buf + len, sizeof(buf) - len, "%d %u %ju %ju\n",
		    fd, (unsigned)st.st_mode, (uintmax_t)st.st_dev,
		    (uintmax_t)st.st_ino);
		if (n < 0 || (size_t)n >= sizeof(buf) - len)
			break;
		len += (size_t)n;
	}
	(void)write(report, buf, len);
	(void)close(report);
}
