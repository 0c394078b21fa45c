/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Hosts without Linux's per-process mount namespaces: no bind mount of a
 * file (a nullfs mount is of directories, and would outlive a crash), and
 * no /proc and /sys worth comparing.
 */

#include <errno.h>

#include "safety.h"

int
host_bind_alias(const char *file, const char *alias)
{

	(void)file;
	(void)alias;
	errno = ENOSYS;
	return (-1);
}

int
host_has_procsys(void)
{

	return (0);
}
