/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The probe: the page size, how much memory this process may use and
 * on how many processors, each asked once a process.  How the host tells
 * them is in probe_linux.c (sysconf, the affinity mask and the cgroup's
 * limits) or probe_bsd.c (sysctl, sysconf).
 */

#include <sys/types.h>

#include <unistd.h>

#include "bufsz_private.h"

/* Learned once: every buffer and window is counted in these pages. */
size_t
bufsz_pagesize(void)
{
	static size_t page;
	long pg;

	if (page == 0) {
		pg = sysconf(_SC_PAGESIZE);
		page = pg > 0 ? (size_t)pg : 4096;
	}
	return (page);
}

int
bufsz_physmem(uint64_t *mem)
{
	static uint64_t physmem;
	static int probed, rv;

	if (!probed) {
		probed = 1;
		rv = bufsz_host_physmem(&physmem);
	}
	*mem = physmem;
	return (rv);
}

uint64_t
bufsz_memory(void)
{
	uint64_t mem;

	return (bufsz_physmem(&mem) == 0 ? mem : 0);
}

int
bufsz_cpus(void)
{
	static int cpus;

	if (cpus == 0)
		cpus = bufsz_host_cpus();
	return (cpus);
}

void
bufsz_learn(void)
{
	uint64_t mem;

	(void)bufsz_pagesize();
	(void)bufsz_physmem(&mem);
	(void)bufsz_cpus();
	(void)bufsz_env_path();
}
