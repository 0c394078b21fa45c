/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on NetBSD: the extended attributes of every namespace the user
 * may read and write, and file flags of a link or a node, by name.
 * NetBSD has no chflagsat(2), and a path from the top could be led out
 * of the target tree by a directory swapped for a link meanwhile:
 * lchflags(2) is called from inside the directory, and the current
 * directory put back, which links and nodes with flags are rare enough
 * to afford.
 */

#include <sys/types.h>
#include <sys/extattr.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "extern.h"

int
chflags_at(const struct attr_target *t, unsigned long flags)
{
	int cwd, r, serrno;

	if (t->dir == AT_FDCWD)
		return (lchflags(t->name, flags));
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (-1);
	r = fchdir(t->dir) == 0 ? lchflags(t->name, flags) : -1;
	serrno = errno;
	/* The operands still to copy are named from where we were. */
	if (fchdir(cwd) == -1)
		err(1, ".");
	(void)close(cwd);
	errno = serrno;
	return (r);
}

/*
 * As NetBSD's cp: the user namespace, and the system namespace too when
 * the superuser runs it, as only the superuser may read and write that.
 */
const int *
extattr_spaces(void)
{
	static const int all[] = {
		EXTATTR_NAMESPACE_USER, EXTATTR_NAMESPACE_SYSTEM, 0
	};
	static const int user[] = { EXTATTR_NAMESPACE_USER, 0 };

	return (getuid() == 0 ? all : user);
}
