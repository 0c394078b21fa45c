/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The sandbox of cat and tail where the host has none that lets an
 * operand be opened by name at its turn: they run unconfined.  FreeBSD's
 * capability mode forbids every open by name; it needs libcasper's
 * fileargs service, which opens for the program from a process of its
 * own.
 */

#include <stddef.h>

#include "sandbox.h"

struct sandbox *
sandbox_new(void)
{

	return (NULL);
}

int
sandbox_allow_dir(struct sandbox *sb, const char *dir)
{

	(void)sb;
	(void)dir;
	return (-1);
}

int
sandbox_allow_file(struct sandbox *sb, const char *path)
{

	(void)sb;
	(void)path;
	return (-1);
}

int
sandbox_enter(struct sandbox *sb)
{

	(void)sb;
	return (-1);
}

void
sandbox_free(struct sandbox *sb)
{

	(void)sb;
}
