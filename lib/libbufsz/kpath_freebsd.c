/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * FreeBSD's kernel path: copy_file_range(2) between regular files (13.0
 * and later), which keeps holes and may copy on the server (NFS).  Its
 * sendfile(2) writes only to sockets, and it has no splice.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include "bufsz_private.h"

static int	cfr_serves(const struct job *);

static int
cfr_serves(const struct job *j)
{

	return (S_ISREG(j->j_inst->st_mode) && S_ISREG(j->j_outst->st_mode));
}

enum bufsz_path
bufsz_kpath_auto(const struct job *j)
{

	return (cfr_serves(j) ? COPY_CFR : COPY_RW);
}

int
bufsz_kpath_copy(struct job *j, enum bufsz_path *p)
{

	if (*p != COPY_CFR || !cfr_serves(j))
		return (REFUSED);
	return (bufsz_kpath_loop(j, bufsz_move_cfr));
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
