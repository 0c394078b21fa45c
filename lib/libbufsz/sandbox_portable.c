/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A host with no sandbox that a list of operands can describe without a
 * helper process: programs run unconfined.
 */

#include <fcntl.h>

#include "bufsz_private.h"

void
bufsz_host_sandbox(char *const operands[], int tmpdir)
{

	(void)operands, (void)tmpdir;
}

int
bufsz_open(const char *path, int flags)
{

	return (open(path, O_RDONLY | O_NOCTTY | flags));
}
