/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on NetBSD: what FreeBSD's cp keeps (attr_bsd.c), with two
 * differences.  As NetBSD's own cp, the superuser's copies keep the
 * system namespace's extended attributes too.  And NetBSD has no
 * chflagsat(2): lchflags(2) is called from inside the directory, as a path
 * from the top could be led out of the target tree by a directory swapped
 * for a link meanwhile.
 */

#include <sys/types.h>
#include <sys/extattr.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "extern.h"

static int	bsd_attr_copy(const struct attr_source *,
		    const struct attr_target *);
static int	netbsd_chflagsat(int, const char *, unsigned long, int);

#define	attr_copy	bsd_attr_copy
#define	chflagsat	netbsd_chflagsat
#include "attr_bsd.c"
#undef	attr_copy
#undef	chflagsat

int
attr_copy(const struct attr_source *s, const struct attr_target *t)
{

	return (bsd_attr_copy(s, t) | (getuid() == 0 ?
	    copy_extattrs(s->fd, EXTATTR_NAMESPACE_SYSTEM, t) : 0));
}

static int
netbsd_chflagsat(int dir, const char *name, unsigned long flags, int atflag)
{
	int cwd, r, serrno;

	(void)atflag;
	if (dir == AT_FDCWD)
		return (lchflags(name, flags));
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (-1);
	r = fchdir(dir) == 0 ? lchflags(name, flags) : -1;
	serrno = errno;
	/* The operands still to copy are named from where we were. */
	if (fchdir(cwd) == -1)
		err(1, ".");
	(void)close(cwd);
	errno = serrno;
	return (r);
}
