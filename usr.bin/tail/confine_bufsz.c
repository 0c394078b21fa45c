/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining tail where the host has no Casper: libbufsz's sandbox, which
 * on Linux lets tail read beneath its operands' directories and make
 * files beneath TMPDIR, and elsewhere does nothing.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bufsz.h"
#include "extern.h"

void
confine(int argc, char *argv[], int tmpdir)
{
	static char dash[] = "./-";
	char **names;
	int i;

	/* An operand "-" is a file here, the standard input to libbufsz. */
	if ((names = calloc((size_t)argc + 1, sizeof(*names))) == NULL)
		err(1, NULL);
	for (i = 0; i < argc; i++)
		names[i] = strcmp(argv[i], "-") == 0 ? dash : argv[i];
	if (bufsz_start(names, tmpdir, 0, NULL) != 0)
		err(1, "start");
	free(names);
}

int
open_name(const char *name, int flags)
{
	int fd;

	if ((fd = bufsz_open(name, flags)) == BUFSZ_OUTSIDE) {
		errno = EOUTSIDE;
		return (-1);
	}
	return (fd);
}

int
stat_name(const char *name, struct stat *sb)
{

	return (stat(name, sb));
}
