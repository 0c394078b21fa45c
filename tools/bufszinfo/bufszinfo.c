/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Show the buffer policy this machine gets: the facts libbufsz probes,
 * and the size it picks, with its reason, for the copies people make.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bufsz_private.h"

struct scenario {
	const char	*name;
	mode_t		 in_type;
	long long	 in_blksize;
	off_t		 in_size;
	mode_t		 out_type;
	long long	 out_blksize;
};

static const struct scenario scenarios[] = {
	{ "1 GiB file -> file", S_IFREG, 4096, 1LL << 30, S_IFREG, 4096 },
	{ "1 GiB file -> pipe", S_IFREG, 4096, 1LL << 30, S_IFIFO, 4096 },
	{ "1 GiB file -> /dev/null", S_IFREG, 4096, 1LL << 30, S_IFCHR,
	    4096 },
	{ "4 KiB file -> /dev/null", S_IFREG, 4096, 4096, S_IFCHR, 4096 },
	{ "pipe -> pipe", S_IFIFO, 4096, -1, S_IFIFO, 4096 },
	{ "tty (1 KiB blocks) -> tty", S_IFCHR, 1024, -1, S_IFCHR, 1024 },
	{ "nothing (yes) -> pipe", 0, 0, -1, S_IFIFO, 4096 },
};

static void
print_size(size_t n)
{
	if (n >= 1024 * 1024 && n % (1024 * 1024) == 0)
		printf("%6zu MiB", n / (1024 * 1024));
	else
		printf("%6zu KiB", n / 1024);
}

int
main(void)
{
	struct bufsz_facts f;
	uint64_t mem, machine;
	size_t i, n;
	long pages;

	if (bufsz_physmem(&mem) != 0)
		err(1, "physical memory");
	printf("Buffer policy (libbufsz) on this machine:\n");
	printf("  memory %" PRIu64 " MiB", mem >> 20);
	/* Less than the machine has: a limit (Linux: the cgroup's). */
	if ((pages = sysconf(_SC_PHYS_PAGES)) > 0 &&
	    (machine = (uint64_t)pages * bufsz_pagesize()) > mem)
		printf(" (a limit; the machine has %" PRIu64 " MiB)",
		    machine >> 20);
	printf(", page %zu bytes\n", bufsz_pagesize());

	bufsz_facts_of(&f, NULL, NULL);
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		f.bf_in_type = scenarios[i].in_type;
		f.bf_in_blksize = scenarios[i].in_blksize;
		f.bf_in_size = scenarios[i].in_size;
		f.bf_out_type = scenarios[i].out_type;
		f.bf_out_blksize = scenarios[i].out_blksize;
		n = bufsz_policy(&f);
		printf("  %-28s", scenarios[i].name);
		print_size(n);
		printf("  %s\n", bufsz_policy_reason(&f));
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	return (0);
}
