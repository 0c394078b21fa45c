/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on NetBSD: file flags of a link or a node.  NetBSD has no
 * chflagsat(2): the path from the current directory, kept for messages,
 * names it.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <unistd.h>

#include "extern.h"

int
chflags_at(const struct attr_target *t, unsigned long flags)
{

	return (lchflags(t->path, flags));
}
