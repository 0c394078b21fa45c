/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * portable_cat: the copy engine as it runs on a host that cannot tell
 * which file systems keep their files' sizes (the host's rule, alone in
 * its member of the library archive, is not linked: this file defines
 * it), for the tests of the end of file: no size is taken for the end,
 * which a read that returns 0 confirms.  The host's kernel paths are
 * used as on the host.
 *
 *	portable_cat [-s] [file ...]
 *
 * Copies each file, or the standard input, to the standard output.  -s
 * keeps holes, as cp does (the output must be a new, empty file).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bufsz_private.h"

static int	copy_one(int, const char *, int);

int
bufsz_host_keeps_size(int fd)
{

	(void)fd;
	return (0);
}
static void	usage(void) __dead2;

static int
copy_one(int fd, const char *name, int flags)
{

	switch (bufsz_copy(fd, NULL, STDOUT_FILENO, NULL, flags)) {
	case BUFSZ_OK:
		return (0);
	case BUFSZ_EREAD:
		warn("%s", name);
		return (1);
	default:
		err(1, "stdout");
	}
}

static void
usage(void)
{

	fprintf(stderr, "usage: portable_cat [-s] [file ...]\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	int ch, fd, flags, rval;

	flags = 0;
	while ((ch = getopt(argc, argv, "s")) != -1) {
		switch (ch) {
		case 's':
			flags = BUFSZ_SPARSE;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (bufsz_start(NULL, -1, 0, NULL) != 0)
		err(1, "bufsz_start");
	if (argc == 0)
		return (copy_one(STDIN_FILENO, "stdin", flags));
	for (rval = 0; *argv != NULL; argv++) {
		if ((fd = open(*argv, O_RDONLY)) == -1) {
			warn("%s", *argv);
			rval = 1;
			continue;
		}
		rval |= copy_one(fd, *argv, flags);
		if (close(fd) != 0) {
			warn("%s", *argv);
			rval = 1;
		}
	}
	return (rval);
}
