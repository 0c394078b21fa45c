/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Linux: a bind mount of one file onto another name, made in a mount
 * namespace of the calling process's own, so that it goes away with the
 * process and nothing is left mounted whatever happens.
 */

#include <sys/types.h>
#include <sys/mount.h>

#include <sched.h>

#include "safety.h"

int
host_bind_alias(const char *file, const char *alias)
{

	if (unshare(CLONE_NEWNS) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
	    mount(file, alias, NULL, MS_BIND, NULL) == -1)
		return (-1);
	return (0);
}

int
host_has_procsys(void)
{

	return (1);
}
