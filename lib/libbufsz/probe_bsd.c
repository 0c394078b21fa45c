/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The memory of a BSD machine, from sysctl(3), and its processors
 * online.
 */

#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include "bufsz_private.h"

/*
 * The BSDs name physical memory differently: NetBSD's hw.physmem is an
 * int that overflows past 2 GiB, hence hw.physmem64 there; FreeBSD's is
 * a long.  Try the 64-bit name first, and take either width.
 */
int
bufsz_host_physmem(uint64_t *mem)
{
	static const char *const names[] = { "hw.physmem64", "hw.physmem" };
	unsigned long ul;
	uint64_t u64;
	size_t i, len;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = sizeof(u64);
		if (sysctlbyname(names[i], &u64, &len, NULL, 0) == 0 &&
		    len == sizeof(u64)) {
			*mem = u64;
			return (0);
		}
		len = sizeof(ul);
		if (sysctlbyname(names[i], &ul, &len, NULL, 0) == 0 &&
		    len == sizeof(ul)) {
			*mem = ul;
			return (0);
		}
	}
	errno = ENOSYS;
	return (-1);
}

int
bufsz_host_cpus(void)
{
	long n;

	n = sysconf(_SC_NPROCESSORS_ONLN);
	return (n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n);
}
