/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * charmap: print the character set of the locale the environment names,
 * as the C library the programs under test were built with loads it
 * (locale(1) answers for the host's library, which may be another: musl
 * knows UTF-8 alone, whatever the locale's name says).
 */

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

int
main(void)
{

	if (setlocale(LC_ALL, "") == NULL) {
		fprintf(stderr, "charmap: the locale cannot be loaded\n");
		exit(1);
	}
	printf("%s\n", nl_langinfo(CODESET));
	exit(0);
}
