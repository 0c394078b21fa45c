/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * FreeBSD's kernel path: copy_file_range(2) between regular files, which
 * keeps holes and may copy on the server (NFS).  Its sendfile(2) writes
 * only to sockets, and it has no splice.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <unistd.h>

#include "bufsz_private.h"

static ssize_t	move_cfr(const struct job *, size_t);

int
bufsz_kpath(struct job *j, enum bufsz_path *p)
{

	if (j->j_inst == NULL || !S_ISREG(j->j_inst->st_mode) ||
	    !S_ISREG(j->j_outst->st_mode))
		return (REFUSED);
	if (*p == COPY_AUTO)
		*p = COPY_CFR;
	return (*p == COPY_CFR ? bufsz_kpath_loop(j, move_cfr) : REFUSED);
}

/*
 * Any error hands over to read/write, which meets a real error itself and
 * reports the right side.  The cat built for a build host of another
 * system copies by read/write alone.
 */
static ssize_t
move_cfr(const struct job *j, size_t len)
{

#ifdef BOOTSTRAPPING
	(void)j, (void)len;
	errno = ENOSYS;
	return (-1);
#else
	return (copy_file_range(j->j_in, NULL, j->j_out, NULL, len, 0));
#endif
}
