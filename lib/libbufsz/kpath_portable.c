/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A host with no kernel copy path (NetBSD, and any other): every copy is
 * read/write's, and with no SEEK_DATA the whole of a file is data, so
 * that a sparse copy keeps holes only where read/write meets blocks of
 * zeros.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include "bufsz_private.h"

enum bufsz_path
bufsz_kpath_auto(const struct job *j __unused)
{

	return (COPY_RW);
}

int
bufsz_kpath_copy(struct job *j __unused, enum bufsz_path *p __unused)
{

	return (REFUSED);
}

int
bufsz_kpath_unseen(struct job *j __unused)
{

	return (REFUSED);
}

void
bufsz_kpath_release(struct bufsz_engine *e __unused)
{
}

int
bufsz_next_data(int fd, off_t pos, off_t *data, off_t *hole)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return (-1);
	if (pos >= st.st_size)
		return (0);
	*data = pos;
	*hole = st.st_size;
	return (1);
}
