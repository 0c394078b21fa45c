/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: open a file below a directory without leaving it, where open(2)
 * has no way to ask for that (NetBSD, and the rest): the walk of
 * beneath.c, one name at a time.
 */

#include "beneath.h"

int
open_beneath(int dir, const char *path, int flags)
{

	return (open_beneath_walk(dir, path, flags));
}
