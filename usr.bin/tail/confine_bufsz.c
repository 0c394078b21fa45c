/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <stddef.h>

#include "bufsz.h"
#include "confine.h"

void
confine(char *const operands[], int flags, int tmpdir)
{

	(void)flags;
	if (bufsz_start(operands, tmpdir, 0, NULL) != 0)
		err(1, "start");
}

int
open_confined(const char *path, int flags)
{

	return (bufsz_open(path, flags));
}

int
stat_confined(const char *path, struct stat *sb)
{

	return (stat(path, sb));
}
