/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat -l on Linux: an open file description lock.
 *
 * A classic fcntl(2) lock belongs to the process and goes with the first
 * close(2) of any descriptor for the file: "cat -l - out >> out" opened
 * out as an operand, closed it, and lost the lock on its own output, so
 * that another cat -l wrote into the middle of its output.  An open file
 * description lock (Linux 3.15) belongs to the output's description and
 * lasts until cat exits, while still conflicting with the fcntl(2) locks
 * of other programs, which FreeBSD's cat -l takes.
 */

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

void
lock_output(void)
{
	struct flock fl;
	int cmd;

	memset(&fl, 0, sizeof(fl));	/* l_pid must be 0 */
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 0;
	cmd = F_OFD_SETLKW;
	while (fcntl(STDOUT_FILENO, cmd, &fl) != 0) {
		/* A kernel older than 3.15: the process's lock, as before. */
		if (errno == EINVAL && cmd == F_OFD_SETLKW)
			cmd = F_SETLKW;
		else if (errno != EINTR)
			err(1, "stdout");
	}
}
