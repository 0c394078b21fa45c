/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining tail on FreeBSD: capability mode, the operands opened by
 * Casper's fileargs service, each at its turn and again for -F.  The
 * service opens the names ahead of the questions, so it opens them all
 * without waiting, lest a FIFO's writer hold it up; a descriptor that
 * the caller wants blocking is made so again.
 */

#include <sys/types.h>
#include <sys/capsicum.h>
#include <sys/stat.h>

#include <capsicum_helpers.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libcasper.h>
#include <unistd.h>

#include <casper/cap_fileargs.h>

#include "bufsz.h"
#include "extern.h"

static fileargs_t *fa;

void
confine(int argc, char *argv[], int tmpdir)
{
	cap_rights_t rights;

	if (bufsz_start(NULL, -1, 0, NULL) != 0)
		err(1, "start");
	cap_rights_init(&rights, CAP_FSTAT, CAP_FSTATFS, CAP_FCNTL,
	    CAP_MMAP_R);
	if (fflag)
		cap_rights_set(&rights, CAP_EVENT);
	if (caph_rights_limit(STDIN_FILENO, &rights) < 0 ||
	    caph_limit_stderr() < 0 || caph_limit_stdout() < 0)
		err(1, "capsicum");
	fa = fileargs_init(argc, argv, O_RDONLY | O_NONBLOCK, 0, &rights,
	    FA_OPEN);
	if (fa == NULL)
		err(1, "casper");
	/* What making, using and removing the temporary files needs. */
	cap_rights_init(&rights, CAP_CREATE, CAP_FCNTL, CAP_FSTAT,
	    CAP_FSTATFS, CAP_MMAP_RW, CAP_UNLINKAT);
	if (tmpdir != -1 && caph_rights_limit(tmpdir, &rights) < 0)
		err(1, "capsicum");
	caph_cache_catpages();
	if (caph_enter_casper() < 0)
		err(1, "capsicum");
}

int
open_name(const char *name, int flags)
{
	int fd, serrno;

	if ((fd = fileargs_open(fa, name)) == -1 ||
	    (flags & O_NONBLOCK) != 0 || fcntl(fd, F_SETFL, 0) != -1)
		return (fd);
	serrno = errno;
	(void)close(fd);
	errno = serrno;
	return (-1);
}

/* By opening: capability mode looks up no name, and Casper only these. */
int
stat_name(const char *name, struct stat *sb)
{
	int fd, rv;

	if ((fd = open_name(name, O_NONBLOCK)) == -1)
		return (-1);
	rv = fstat(fd, sb);
	(void)close(fd);
	return (rv);
}
