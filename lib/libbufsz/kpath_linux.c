/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Linux's kernel paths: copy_file_range(2) between regular files,
 * splice(2) where a pipe is on either side (or through a private pipe
 * when forced between two non-pipes), and sendfile(2) from a regular
 * file or block device.
 */

#include <sys/param.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "bufsz_private.h"

/*
 * The size asked of the private splice pipe (bounded by
 * /proc/sys/fs/pipe-max-size, 1 MiB by default): a pipe this large moves
 * a chunk in fewer calls than the default 64 KiB.
 */
#define	PIPE_WANT	(1 << 20)

/*
 * The caller's output pipe is grown to this before a regular file is
 * spliced into it.  Spliced pages take one slot each, so the default
 * 64 KiB pipe holds 16 and writer and reader take turns; from 256 KiB
 * they overlap.  A pipe spliced into a pipe is left alone: a larger
 * output helps the middle cat of cat f | cat | wc -c only when its input
 * was grown too, which it cannot know when it starts.  The pipe is only
 * ever grown, since the reader shares it, and a file that fits the
 * default pipe leaves it alone, so that small files cost no call.
 */
#define	OUTPIPE_WANT	(256 * 1024)
#define	OUTPIPE_DEFAULT	(64 * 1024)

/*
 * Each thread's private splice pipe, or -1, and the pairs of file systems
 * that refused it copy_file_range.
 */
static _Thread_local int splice_pipe[2] = { -1, -1 };
static _Thread_local struct {
	dev_t	cr_in, cr_out;
} nocfr[FS_SEEN];
static _Thread_local size_t nnocfr;

static enum bufsz_path choose(const struct job *);
static int	copy_unseen(struct job *);
static ssize_t	move_cfr(const struct job *, size_t);
static ssize_t	move_sendfile(const struct job *, size_t);
static int	is_dev_null(const struct stat *);
static ssize_t	move_splice(const struct job *, size_t);
static int	pipe_open(void);
static void	pipe_discard(void);
static int	pipe_drain(struct job *, size_t);
static int	pipe_to_out(struct job *, size_t);
static int	input_shrank(const struct job *, off_t);
static off_t	input_size(const struct job *);
static int	copy_splice_via(struct job *);
static void	grow_out_pipe(const struct job *);
static int	cfr_refused(const struct job *);
static void	cfr_remember(struct job *, off_t);

/*
 * AUTO: copy_file_range between regular files, splice where a pipe is on
 * either side, sendfile from a regular file to a device or socket,
 * read/write elsewhere.
 */
static enum bufsz_path
choose(const struct job *j)
{
	mode_t it, ot;

	it = j->j_inst->st_mode & S_IFMT;
	ot = j->j_outst->st_mode & S_IFMT;
	if (it == S_IFREG && ot == S_IFREG)
		return (COPY_CFR);
	if (it == S_IFIFO || ot == S_IFIFO)
		return (COPY_SPLICE);
	if (it == S_IFREG && (ot == S_IFCHR || ot == S_IFSOCK))
		return (COPY_SENDFILE);
	return (COPY_RW);
}

/*
 * Path *p where it can serve the pair; REFUSED where it cannot.  Where
 * AUTO's copy_file_range is refused (EXDEV between two file systems
 * that do not share a copy_file_range of their own, since Linux 5.19:
 * ext4 to tmpfs, say), sendfile goes on, which keeps the bytes in the
 * kernel as read/write cannot.
 */
int
bufsz_kpath(struct job *j, enum bufsz_path *p)
{
	mode_t it, ot;
	off_t start;
	int r;

	if (j->j_inst == NULL)
		return (copy_unseen(j));
	if (*p == COPY_AUTO)
		*p = choose(j);
	it = j->j_inst->st_mode & S_IFMT;
	ot = j->j_outst->st_mode & S_IFMT;
	switch (*p) {
	case COPY_CFR:
		if (it != S_IFREG || ot != S_IFREG)
			return (REFUSED);
		if (cfr_refused(j))
			r = REFUSED;
		else {
			start = j->j_e->be_moved;
			errno = 0;
			r = bufsz_kpath_loop(j, move_cfr);
			if (r == REFUSED)
				cfr_remember(j, start);
		}
		if (r != REFUSED || j->j_e->be_force != COPY_AUTO)
			return (r);
		*p = COPY_SENDFILE;
		return (bufsz_kpath_loop(j, move_sendfile));
	case COPY_SENDFILE:
		if (it != S_IFREG && it != S_IFBLK)
			return (REFUSED);
		return (bufsz_kpath_loop(j, move_sendfile));
	case COPY_SPLICE:
		if (ot == S_IFIFO)
			grow_out_pipe(j);
		if (it == S_IFIFO)
			return (bufsz_kpath_loop(j, move_splice));
		return (copy_splice_via(j));
	default:
		return (REFUSED);
	}
}

/*
 * An input not yet looked at goes by sendfile only into /dev/null, which
 * takes whatever it is given.  sendfile reads only a seekable input (a
 * regular file or block device; on newer kernels any seekable file, a
 * device such as /dev/zero too) and refuses anything else (a terminal,
 * FIFO or socket) with EINVAL before a byte is read; an output that could
 * not take the spliced pages (a terminal) would have had the input read
 * for nothing, and a device such as /dev/kmsg does not give its records
 * twice.  Into a pipe the kernel takes another way, which reads any
 * input.  Sockets are left out: a write cut short there by a signal
 * makes a short count, and a device whose seek answers where it stands
 * whatever is asked (/dev/urandom) would seem to end there.
 */
static int
copy_unseen(struct job *j)
{
	ssize_t n, m;
	char c;

	if (!is_dev_null(j->j_outst) ||
	    (n = move_sendfile(j, CHUNK_MAX)) <= 0)
		return (REFUSED);
	j->j_e->be_last = COPY_SENDFILE;
	bufsz_job_moved(j, (size_t)n);
	/*
	 * A short count proves nothing (an error after some bytes comes
	 * back at the next call; a FUSE file may hold more than the size
	 * sendfile stopped at): one read(2) follows, and its 0 is the end.
	 */
	if ((size_t)n < CHUNK_MAX) {
		if ((m = bufsz_read(j->j_in, &c, 1)) <= 0)
			return (m == 0 ? BUFSZ_OK : BUFSZ_EREAD);
		if (bufsz_write_all(j->j_out, &c, 1) != 0)
			return (BUFSZ_EWRITE);
		bufsz_job_moved(j, 1);
	}
	return (REFUSED);
}

/*
 * The kernel refuses copy_file_range for a pair of file systems, not for
 * a file (EXDEV where two share no copy of their own, EOPNOTSUPP where
 * one has none, ENOSYS before Linux 4.5): asked again for each file of a
 * tree, it would cost a failed call each.
 */
static int
cfr_refused(const struct job *j)
{
	size_t i;

	for (i = 0; i < MIN(nnocfr, FS_SEEN); i++)
		if (nocfr[i].cr_in == j->j_inst->st_dev &&
		    nocfr[i].cr_out == j->j_outst->st_dev)
			return (1);
	return (0);
}

/* After a refusal that moved nothing since start, if it is the pair's. */
static void
cfr_remember(struct job *j, off_t start)
{
	size_t i;

	if (j->j_e->be_moved != start || (errno != EXDEV && errno != EOPNOTSUPP &&
	    errno != ENOSYS))
		return;
	i = nnocfr++ % FS_SEEN;
	nocfr[i].cr_in = j->j_inst->st_dev;
	nocfr[i].cr_out = j->j_outst->st_dev;
}

/* Linux's null device, 1:3 for good (Documentation/admin-guide/devices). */
static int
is_dev_null(const struct stat *st)
{

	return (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	    minor(st->st_rdev) == 3);
}

/* Grows the output pipe for a file spliced into it: see OUTPIPE_WANT. */
static void
grow_out_pipe(const struct job *j)
{
	int have;

	if (!S_ISREG(j->j_inst->st_mode) ||
	    j->j_inst->st_size <= OUTPIPE_DEFAULT)
		return;
	have = fcntl(j->j_out, F_GETPIPE_SZ);
	if (have > 0 && have < OUTPIPE_WANT)
		(void)fcntl(j->j_out, F_SETPIPE_SZ, OUTPIPE_WANT);
}

/*
 * copy_file_range: between regular files the kernel copies (or clones)
 * without a trip through user space.  EXDEV (different file systems on
 * older kernels), EINVAL (O_APPEND, overlap), EBADF, EOPNOTSUPP, ENOSYS
 * and any other error hand over to read/write, which then meets a real
 * error itself and reports the right side.
 */
static ssize_t
move_cfr(const struct job *j, size_t len)
{

	return (copy_file_range(j->j_in, NULL, j->j_out, NULL, len, 0));
}

/*
 * sendfile: from a regular file to anything, in the kernel.  Preferred
 * to splice through the private pipe for a character device or socket
 * because it takes one system call per chunk rather than two.  Errors
 * hand over to read/write, as those of copy_file_range do.
 */
static ssize_t
move_sendfile(const struct job *j, size_t len)
{

	return (sendfile(j->j_out, j->j_in, NULL, len));
}

/* splice with a pipe on one side (or both): one call moves each chunk. */
static ssize_t
move_splice(const struct job *j, size_t len)
{

	return (splice(j->j_in, NULL, j->j_out, NULL, len,
	    SPLICE_F_MOVE | SPLICE_F_MORE));
}

/*
 * The private pipe for splicing between two non-pipes, made once per
 * engine.  It is enlarged (where the system allows) so that each pair of
 * splices moves more than the default 64 KiB: see PIPE_WANT.
 */
static int
pipe_open(void)
{

	if (splice_pipe[0] != -1)
		return (0);
	if (pipe2(splice_pipe, O_CLOEXEC) != 0) {
		splice_pipe[0] = splice_pipe[1] = -1;
		return (-1);
	}
	(void)fcntl(splice_pipe[1], F_SETPIPE_SZ, PIPE_WANT);
	return (0);
}

/* Bytes were left in the private pipe by a failure: drop the pipe. */
static void
pipe_discard(void)
{

	(void)close(splice_pipe[0]);
	(void)close(splice_pipe[1]);
	splice_pipe[0] = splice_pipe[1] = -1;
}

/*
 * Empty len bytes from the private pipe into the output by read/write,
 * after splice refused the output half way: they were read from the
 * input and must not be lost.
 */
static int
pipe_drain(struct job *j, size_t len)
{
	struct bufsz_engine *e;
	size_t blen;
	ssize_t n;
	char *buf;

	e = j->j_e;
	if ((buf = bufsz_engine_buffer(e, j->j_inst, j->j_outst,
	    &blen)) == NULL)
		return (BUFSZ_EWRITE);
	while (len > 0) {
		if ((n = bufsz_read(splice_pipe[0], buf, MIN(blen, len))) <= 0)
			return (BUFSZ_EWRITE);
		if (bufsz_write_all(j->j_out, buf, (size_t)n) != 0)
			return (BUFSZ_EWRITE);
		len -= (size_t)n;
	}
	return (BUFSZ_OK);
}

/*
 * Move n bytes from the private pipe to the output.  Should the output
 * refuse splice, the bytes already taken from the input are written by
 * hand and read/write takes over.
 */
static int
pipe_to_out(struct job *j, size_t n)
{
	ssize_t m;
	int r;

	while (n > 0) {
		m = splice(splice_pipe[0], NULL, j->j_out, NULL, n,
		    SPLICE_F_MOVE | SPLICE_F_MORE);
		if (m > 0) {
			n -= (size_t)m;
			continue;
		}
		if (m < 0 && bufsz_io_again(-1, j->j_out))
			continue;
		if ((r = pipe_drain(j, n)) != BUFSZ_OK) {
			pipe_discard();
			return (r);
		}
		return (REFUSED);
	}
	return (BUFSZ_OK);
}

/*
 * Spliced pages are the file's own, by reference: a regular input
 * truncated between the splice into the private pipe and the one out of
 * it zeroes what the pipe still holds, and the copy would come out torn
 * (the bytes before the new end, zeros, then older data).  Reading the
 * input's size once the chunk is out turns that into an error on the
 * input (EIO), as a read of a file cut short would be.  A pipe the caller
 * reads from is beyond such a check; see README (Caveats).
 */
static int
input_shrank(const struct job *j, off_t size0)
{
	struct stat st;
	off_t pos;

	if (size0 < 0)
		return (0);
	if ((pos = lseek(j->j_in, 0, SEEK_CUR)) == -1 ||
	    fstat(j->j_in, &st) == -1)
		return (1);
	/* /proc and /sys files say less than they hold: only a drop counts. */
	if (st.st_size >= pos || st.st_size >= size0)
		return (0);
	errno = EIO;
	return (1);
}

/*
 * The size of a regular input when the copy starts, as the system has it
 * now (a caller's stat may be older), or -1 for any other input.
 */
static off_t
input_size(const struct job *j)
{
	struct stat st;

	if (!S_ISREG(j->j_inst->st_mode) || fstat(j->j_in, &st) == -1)
		return (-1);
	return (st.st_size);
}

/*
 * splice from anything but a pipe goes through the engine's private
 * pipe: input to pipe, then pipe to output until the pipe is empty
 * again, so that the pipe is empty between chunks and whenever we
 * return.  Into a pipe too: spliced straight from a file, each of the
 * reader's reads wakes the writer to look up about as little of the
 * file again, where through the private pipe the file is taken a whole
 * chunk at a time and the output only gets page references moved.
 */
static int
copy_splice_via(struct job *j)
{
	size_t cap;
	ssize_t n;
	off_t size0;
	int moved, r;

	if (pipe_open() != 0)
		return (REFUSED);
	size0 = input_size(j);
	if ((n = fcntl(splice_pipe[1], F_GETPIPE_SZ)) <= 0)
		n = 65536;
	cap = MIN((size_t)n, CHUNK_MAX);
	for (moved = 0; j->j_left != 0;) {
		n = splice(j->j_in, NULL, splice_pipe[1], NULL,
		    bufsz_job_want(j, cap), SPLICE_F_MOVE | SPLICE_F_MORE);
		if (n > 0) {
			if ((r = pipe_to_out(j, (size_t)n)) != BUFSZ_OK &&
			    r != REFUSED)
				return (r);
			if (input_shrank(j, size0))
				return (BUFSZ_EREAD);
			bufsz_job_moved(j, (size_t)n);
			moved = 1;
			if (r == REFUSED)
				return (REFUSED);
			continue;
		}
		if (n == 0)
			return (bufsz_job_declines(j, moved) ? REFUSED :
			    BUFSZ_OK);
		if (!bufsz_io_again(j->j_in, -1))
			return (REFUSED);
	}
	return (BUFSZ_OK);
}
