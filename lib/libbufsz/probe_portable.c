/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The memory and the processors of a host that sets the process no
 * lower limits: sysconf(3)'s.
 */

#include <stdint.h>
#include <unistd.h>

#include "bufsz_private.h"

int
bufsz_host_physmem(uint64_t *mem)
{
	long pages;

	if ((pages = sysconf(_SC_PHYS_PAGES)) <= 0)
		return (-1);
	*mem = (uint64_t)pages * bufsz_pagesize();
	return (0);
}

int
bufsz_host_cpus(void)
{
	long n;

	return ((n = sysconf(_SC_NPROCESSORS_ONLN)) > 0 ? (int)n : 1);
}
