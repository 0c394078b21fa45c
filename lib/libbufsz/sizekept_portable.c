/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A host whose file systems the engine cannot tell apart: no file's size
 * is taken for its end, which a read that returns 0 confirms.
 */

#include "bufsz_private.h"

int
bufsz_host_keeps_size(int fd)
{

	(void)fd;
	return (0);
}
