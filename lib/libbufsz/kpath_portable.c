/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A host with no kernel copy path (NetBSD, and any other): every copy is
 * read/write's.
 */

#include "bufsz_private.h"

int
bufsz_kpath(struct job *j, enum bufsz_path *p)
{

	(void)j, (void)p;
	return (REFUSED);
}
