/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Preloaded into a program under test: when it exits, write the
 * descriptors above 2 it still has open, one a line ("fd mode dev ino",
 * mode and numbers in decimal), to the file $SAFETY_FDS.  A descriptor
 * left open at exit on a file the program worked on is one it leaked.
 * Built without sanitizers: it runs inside programs with and without.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void	safety_fdcheck(void) __attribute__((__destructor__));

void
safety_fdcheck(void)
{
	struct stat st;
	char buf[16384];
	const char *path;
	size_t len;
	int fd, max, n, out;

	if ((path = getenv("SAFETY_FDS")) == NULL)
		return;
	max = (int)sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	len = 0;
	/* Listed before the report is opened: it would take the lowest. */
	for (fd = 3; fd < max; fd++) {
		if (fcntl(fd, F_GETFD) == -1)
			continue;
		if (fstat(fd, &st) == -1)
			continue;
		n = snprintf(buf + len, sizeof(buf) - len, "%d %u %ju %ju\n",
		    fd, (unsigned)st.st_mode, (uintmax_t)st.st_dev,
		    (uintmax_t)st.st_ino);
		if (n < 0 || (size_t)n >= sizeof(buf) - len)
			break;
		len += (size_t)n;
	}
	if ((out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1)
		return;
	(void)write(out, buf, len);
	(void)close(out);
}
