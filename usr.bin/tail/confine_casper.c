/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining cat or tail on FreeBSD: capability mode, with the operands
 * opened by Casper's system.fileargs service, a helper process that
 * stays outside and opens only the names given on the command line.
 * The standard descriptors and every operand keep only the rights that
 * reading, seeking, mapping and (with CONFINE_EVENTS) kqueue need; the
 * standard output and error keep what writing a stream needs; the
 * directory of temporary files, what making, using and removing its
 * files needs.
 *
 * Every operand is still opened when its turn comes, as it is
 * unconfined: tail -F asks again whenever a name may lead to a new file.
 * The service, asked for one name, also opens the next ones and keeps
 * their descriptors and lstat(2) results for later questions; those are
 * dropped after every question (forget()), for a later look at a name
 * must see what the name leads to then.
 *
 * Every open asks for O_NONBLOCK, so that the service never waits for
 * a FIFO's writer while it opens the names ahead; a caller that did not
 * ask for it gets a descriptor that blocks again, whose reads wait for
 * that writer as they would have.
 *
 * Built without Casper (WITH_CASPER undefined: /rescue, MK_CASPER=no),
 * cap_fileargs.h makes the fileargs calls plain open(2) and lstat(2), and
 * caph_enter_casper() does nothing: the program runs unconfined, its
 * standard descriptors limited all the same.
 */

#include <sys/types.h>
#include <sys/capsicum.h>
#include <sys/stat.h>

#include <capsicum_helpers.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libcasper.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <casper/cap_fileargs.h>

#include "bufsz.h"
#include "confine.h"
#include "extern.h"

static fileargs_t *fa;
static size_t	nnames;		/* the names fa may open */

static int	bad_name(const char *);
static void	forget(void);

void
confine(char *const operands[], int flags, int tmpdir)
{
	cap_rights_t rights, temp;
	char **names;
	size_t i, n;

	if (bufsz_start(NULL, -1, 0, NULL) != 0)
		err(1, "start");
	for (n = 0; operands[n] != NULL; n++)
		continue;
	if ((names = calloc(n + 1, sizeof(*names))) == NULL)
		err(1, NULL);
	/* What no open can take: said as the kernel would say it. */
	for (i = n = 0; operands[i] != NULL; i++)
		if (strcmp(operands[i], "-") != 0 && !bad_name(operands[i]))
			names[n++] = operands[i];
	cap_rights_init(&rights, CAP_FSTAT, CAP_FSTATFS, CAP_FCNTL,
	    CAP_MMAP_R);
	if (flags & CONFINE_EVENTS)
		cap_rights_set(&rights, CAP_EVENT);
	if (caph_rights_limit(STDIN_FILENO, &rights) != 0 ||
	    caph_limit_stdout() != 0 || caph_limit_stderr() != 0)
		err(1, "capsicum");
	if ((fa = fileargs_init((int)n, names, O_RDONLY | O_NONBLOCK, 0,
	    &rights, FA_OPEN | FA_LSTAT)) == NULL)
		err(1, "casper");
	free(names);
	nnames = n;
	/* A file made relative to it takes the directory's rights. */
	cap_rights_init(&temp, CAP_CREATE, CAP_FCNTL, CAP_FSTAT, CAP_FSTATFS,
	    CAP_MMAP_RW, CAP_UNLINKAT);
	if (tmpdir != -1 && caph_rights_limit(tmpdir, &temp) != 0)
		err(1, "capsicum");
	caph_cache_catpages();
	if (caph_enter_casper() != 0)
		err(1, "capsicum");
}

/*
 * Open operand path for reading at its turn, through the service; flags
 * is O_NONBLOCK or 0.  Only the operands can be opened: BUFSZ_OUTSIDE is
 * never the answer.
 */
int
open_confined(const char *path, int flags)
{
	int fd, fl, serrno;

	if (bad_name(path))
		return (-1);
	fd = fileargs_open(fa, path);
	serrno = errno;
	forget();
	if (fd == -1) {
		errno = serrno;
		return (-1);
	}
	if ((flags & O_NONBLOCK) == 0 &&
	    ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1)) {
		serrno = errno;
		(void)close(fd);
		errno = serrno;
		return (-1);
	}
	return (fd);
}

/*
 * The service answers lstat(2); a symbolic link is followed by opening
 * what it leads to, the one way to it in capability mode.
 */
int
stat_confined(const char *path, struct stat *sb)
{
	int fd, rv, serrno;

	if (bad_name(path))
		return (-1);
	rv = fileargs_lstat(fa, path, sb);
	serrno = errno;
	forget();
	errno = serrno;
	if (rv != 0 || !S_ISLNK(sb->st_mode))
		return (rv);
	if ((fd = open_confined(path, O_NONBLOCK)) == -1)
		return (-1);
	rv = fstat(fd, sb);
	serrno = errno;
	(void)close(fd);
	errno = serrno;
	return (rv);
}

/*
 * A name no open can take, with errno set as open(2) sets it: the
 * service's list holds neither.
 */
static int
bad_name(const char *path)
{

	if (*path == '\0')
		errno = ENOENT;
	else if (strlen(path) >= PATH_MAX)
		errno = ENAMETOOLONG;
	else
		return (0);
	return (1);
}

/*
 * What the service told ahead of the question, dropped.  With no name
 * there is no service, and nothing to drop.
 */
static void
forget(void)
{
	cap_channel_t *chan;
	int fdflags;

	if (nnames == 0)
		return;
	if ((chan = fileargs_unwrap(fa, &fdflags)) == NULL ||
	    (fa = fileargs_wrap(chan, fdflags)) == NULL)
		err(1, "casper");
}
