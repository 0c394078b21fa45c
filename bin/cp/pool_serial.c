/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the files of a tree, copied one at a time by the walk, on systems
 * where copying them with threads (pool.c) has not been measured.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <stdarg.h>

#include "extern.h"

int
pool_usable(void)
{

	return (0);
}

/* Not reached while pool_usable() says no; a file is copied at once. */
int
pool_add(int sdir, int ddir, const struct stat *dirst, const char *name)
{

	(void)sdir;
	(void)ddir;
	(void)dirst;
	visit_again(name);
	return (0);
}

int
pool_drain(void)
{

	return (0);
}

void
pool_end(void)
{
}

int
pool_worker(void)
{

	return (0);
}

void
cp_nomem(void)
{

	err(1, NULL);
}

void
cp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}
