/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The memory and processors of any POSIX-like machine, from sysconf(3).
 * FreeBSD's build uses it for the cat it bootstraps on the build host,
 * which may be Linux or macOS: there sysctlbyname(3) is FreeBSD's
 * stand-in, which knows no hw.physmem and ends the process on a name it
 * does not know.
 */

#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include "bufsz_private.h"

int
bufsz_host_physmem(uint64_t *mem)
{
	long pages, pagesize;

	pages = sysconf(_SC_PHYS_PAGES);
	pagesize = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || pagesize <= 0) {
		errno = ENOSYS;
		return (-1);
	}
	*mem = (uint64_t)pages * (uint64_t)pagesize;
	return (0);
}

int
bufsz_host_cpus(void)
{
	long n;

	n = sysconf(_SC_NPROCESSORS_ONLN);
	return (n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n);
}
