/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on FreeBSD: file flags of a link or a node, by name.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <fcntl.h>

#include "extern.h"

int
chflags_at(const struct attr_target *t, unsigned long flags)
{

	return (chflagsat(t->dir, t->name, flags, AT_SYMLINK_NOFOLLOW));
}
