/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What the hosts with kernel copy paths share (Linux and FreeBSD): the
 * loop every such path runs, copy_file_range(2), which both have with
 * the same signature, and the hole map of SEEK_DATA/SEEK_HOLE.
 */

#include <sys/types.h>

#include <errno.h>
#include <unistd.h>

#include "bufsz_private.h"

/*
 * Move capped chunks until the input ends.  A refusal, or a 0 where the
 * input may still have bytes (bufsz_job_declines(): after a first call
 * that moved nothing, or from a file system that does not keep sizes),
 * hands the rest to read/write.
 */
int
bufsz_kpath_loop(struct job *j, ssize_t (*move)(const struct job *, size_t))
{
	size_t want;
	ssize_t n;
	int moved;

	for (moved = 0; j->j_left != 0;) {
		if ((n = move(j, want = bufsz_job_want(j, CHUNK_MAX))) > 0) {
			bufsz_job_moved(j, (size_t)n);
			if (bufsz_job_at_end(j, want, (size_t)n))
				break;
			moved = 1;
		} else if (n == 0)
			return (bufsz_job_declines(j, moved) ? REFUSED :
			    BUFSZ_OK);
		else if (!bufsz_io_again(j->j_in, j->j_out))
			return (REFUSED);
	}
	return (BUFSZ_OK);
}

/*
 * copy_file_range: between regular files the kernel copies (or clones)
 * without a trip through user space.  EXDEV (different file systems on
 * older kernels), EINVAL (O_APPEND, overlap), EBADF, EOPNOTSUPP, ENOSYS
 * and any other error hand over to read/write, which then meets a real
 * error itself and reports the right side.
 */
ssize_t
bufsz_move_cfr(const struct job *j, size_t len)
{

	return (copy_file_range(j->j_in, NULL, j->j_out, NULL, len, 0));
}

int
bufsz_next_data(int fd, off_t pos, off_t *data, off_t *hole)
{

	if ((*data = lseek(fd, pos, SEEK_DATA)) == -1)
		return (errno == ENXIO ? 0 : -1);
	if ((*hole = lseek(fd, *data, SEEK_HOLE)) == -1)
		return (-1);
	return (1);
}
