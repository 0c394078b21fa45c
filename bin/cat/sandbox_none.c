/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's sandbox where the host has none (NetBSD): cat runs unconfined.
 */

#include <errno.h>
#include <stddef.h>

#include "extern.h"

struct sandbox *
sandbox_new(void)
{

	return (NULL);
}

int
sandbox_limit_fd(struct sandbox *sb, int fd)
{

	(void)sb;
	(void)fd;
	errno = EOPNOTSUPP;
	return (-1);
}

int
sandbox_allow_path(struct sandbox *sb, const char *path)
{

	(void)sb;
	(void)path;
	errno = EOPNOTSUPP;
	return (-1);
}

int
sandbox_enter(struct sandbox *sb)
{

	(void)sb;
	errno = EOPNOTSUPP;
	return (-1);
}

void
sandbox_free(struct sandbox *sb)
{

	(void)sb;
}
