/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining cat or tail where the host has no sandbox that lets an
 * operand be opened by name at its turn: they run unconfined.  FreeBSD's
 * capability mode forbids every open by name; tail takes it with Casper's
 * fileargs service (confine_casper.c), which opens for it from a process
 * of its own.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <fcntl.h>

#include "confine.h"

void
confine(char *const operands[], int flags, int tmpdir)
{

	(void)operands;
	(void)flags;
	(void)tmpdir;
}

int
open_confined(const char *path, int flags)
{

	return (open(path, O_RDONLY | O_NOCTTY | flags));
}

int
stat_confined(const char *path, struct stat *sb)
{

	return (stat(path, sb));
}
