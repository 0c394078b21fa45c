/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Where the host has no sandbox a list of operands can describe without
 * a helper process, programs run unconfined.
 */

#include "bufsz_private.h"

int
bufsz_host_sandbox(char *const operands[], int tmpdir)
{

	(void)operands;
	(void)tmpdir;
	return (0);
}
