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

/* A stream may spill into TMPDIR once confined. */
void
confine(char *const operands[], int flags)
{

	(void)flags;
	if (bufsz_start(operands, BUFSZ_SPILL, 0, NULL) != 0)
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
