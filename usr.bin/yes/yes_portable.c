/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes where the kernel cannot borrow pages (no vmsplice) and the host has
 * no sandbox: libbufsz never says it lends pages here, and nothing is
 * lent; write(2) does it all.
 */

#include <sys/types.h>

#include "extern.h"

size_t
lend_output(char *out __unused, size_t len __unused)
{

	return (0);
}

/* No sandbox here. */
void
confine_output(void)
{
}
