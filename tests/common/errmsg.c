/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * errmsg NAME: print the C library's message for the errno value NAME
 * (EIO, ENOMEM, ...), as err(3) would end a line with it.  The libraries
 * word some messages differently (glibc's "Input/output error" is musl's
 * "I/O error"), so a suite asks the library the programs under test were
 * built with instead of writing one library's words into its checks.
 */

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define	E(name)	{ #name, name }

static const struct {
	const char	*name;
	int		 value;
} names[] = {
	E(EACCES), E(EAGAIN), E(EBADF), E(EDQUOT), E(EEXIST), E(EFAULT),
	E(EFBIG), E(EINTR), E(EINVAL), E(EIO), E(EISDIR), E(ELOOP),
	E(EMFILE), E(ENFILE), E(ENODEV), E(ENOENT), E(ENOMEM), E(ENOSPC),
	E(ENOSYS), E(ENOTDIR), E(ENOTSUP), E(EOPNOTSUPP), E(EOVERFLOW),
	E(EPERM), E(EPIPE), E(EROFS), E(ESPIPE), E(ETXTBSY), E(EXDEV)
};

int
main(int argc, char *argv[])
{
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: errmsg NAME\n");
		exit(1);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, argv[1]) == 0) {
			printf("%s\n", strerror(names[i].value));
			exit(0);
		}
	errx(1, "unknown errno name: %s", argv[1]);
}
