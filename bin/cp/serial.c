/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the entries of a tree, copied one at a time in the walk's order.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include "extern.h"

void
copy_entries(void)
{
	struct ent e;

	while (next_entry(&e))
		visit(&e);
}
