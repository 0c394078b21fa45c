/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat -l on the BSDs: flock(2).
 *
 * A fcntl(2) lock belongs to the process and goes with the first close(2)
 * of any descriptor for the file: "cat -l - out >> out" opened out as an
 * operand, closed it, and lost the lock on its own output.  A flock(2)
 * lock belongs to the output's open file description and lasts until cat
 * exits; on FreeBSD and NetBSD it conflicts with the fcntl(2) locks that
 * other programs (their own cat -l) take on the same file, since the
 * kernel keeps both kinds in one list (FreeBSD's fcntl(2) says so).
 */

#include <sys/file.h>

#include <err.h>
#include <errno.h>
#include <unistd.h>

#include "extern.h"

void
lock_output(void)
{

	while (flock(STDOUT_FILENO, LOCK_EX) != 0)
		if (errno != EINTR)
			err(1, "stdout");
}
