/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on FreeBSD: file flags of a link or a node, by name, and the
 * extended attributes of the user namespace only.
 */

#include <sys/types.h>
#include <sys/extattr.h>
#include <sys/stat.h>

#include <fcntl.h>

#include "extern.h"

int
chflags_at(const struct attr_target *t, unsigned long flags)
{

	return (chflagsat(t->dir, t->name, flags, AT_SYMLINK_NOFOLLOW));
}

/* The system namespace belongs to the system, not to the file's owner. */
const int *
extattr_spaces(void)
{
	static const int spaces[] = { EXTATTR_NAMESPACE_USER, 0 };

	return (spaces);
}
