/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A host whose file systems the engine cannot tell apart: no file's size
 * is taken for its end, which a read that returns 0 confirms.
 */

#include "bufsz_private.h"

/* Spelled out rather than __unused: Linux's tests link this file too. */
int
bufsz_host_keeps_size(int fd __attribute__((__unused__)))
{

	return (0);
}
