/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The copy engine: the host's kernel copy (kpath_<host>.c) where it
 * serves, else read(2)/write(2) through the policy's buffer, which also
 * takes over, from the same offsets, from any path that refuses.  Every
 * loop retries EINTR and waits out EAGAIN (a descriptor someone made
 * non-blocking) with poll(2), where spinning would burn a CPU and
 * reporting it would lose data.
 */

#include <sys/param.h>
#include <sys/stat.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

static int	copy_span(struct job *);
static int	copy_rw(struct job *);
static int	write_holey(int, const char *, size_t, size_t);
static int	copy_sparse(struct job *);
static int	cut_output(struct job *, off_t, off_t);
static int	job_at_end(const struct job *, size_t, size_t);
static struct bufsz_engine *self_engine(void);
static int	wait_for(int, short);

static const char *const path_names[] = { "auto", "rw", "cfr", "splice",
    "sendfile" };

size_t	bufsz_asked_size;

static _Thread_local struct bufsz_engine *self;

struct bufsz_engine *
bufsz_engine_new(void)
{

	return (calloc(1, sizeof(struct bufsz_engine)));
}

void
bufsz_engine_free(struct bufsz_engine *e)
{

	if (e != NULL)
		free(e->be_buf);
	free(e);
}

void
bufsz_engine_force(struct bufsz_engine *e, enum bufsz_path p, size_t size)
{

	e->be_force = p;
	e->be_force_size = size;
}

const char *
bufsz_path_name(enum bufsz_path p)
{

	return ((size_t)p < sizeof(path_names) / sizeof(path_names[0]) ?
	    path_names[p] : "unknown");
}

/* Made on first use; a thread that cannot have one cannot copy. */
static struct bufsz_engine *
self_engine(void)
{

	if (self == NULL)
		self = bufsz_engine_new();
	return (self);
}

const _Atomic off_t *
bufsz_moved(void)
{

	return (self_engine() != NULL ? &self->be_total : NULL);
}

char *
bufsz_buffer(const struct stat *in, const struct stat *out, size_t *len)
{

	return (self_engine() != NULL ? bufsz_engine_buffer(self, in, out,
	    len) : NULL);
}

int
bufsz_copy(int in, const struct stat *inst, int out,
    const struct stat *outst, int flags)
{

	return (self_engine() != NULL ? bufsz_engine_copy(self, in, inst, out,
	    outst, flags) : BUFSZ_EREAD);
}

/*
 * The buffer only grows, and is kept, so that many small files do not pay
 * for an allocation each; a smaller one serves if need be, down to a page.
 */
char *
bufsz_engine_buffer(struct bufsz_engine *e, const struct stat *inst,
    const struct stat *outst, size_t *len)
{
	struct bufsz_facts f;
	size_t want, page;
	void *p;

	page = bufsz_pagesize();
	if ((want = e->be_force_size) == 0 && (want = bufsz_asked_size) == 0) {
		bufsz_facts_of(&f, inst, outst);
		want = bufsz_policy(&f);
	}
	for (want = bufsz_pages(want, page); e->be_bufsz < want;
	    want = bufsz_pages(want / 2, page)) {
		if (posix_memalign(&p, page, want) == 0) {
			free(e->be_buf);
			e->be_buf = p;
			e->be_bufsz = want;
			break;
		}
		if (want == page)
			break;
	}
	if (e->be_buf == NULL) {
		errno = ENOMEM;
		return (NULL);
	}
	*len = e->be_bufsz;
	return (e->be_buf);
}

size_t
bufsz_job_want(const struct job *j, size_t cap)
{

	return (j->j_left >= 0 && (uintmax_t)j->j_left < cap ?
	    (size_t)j->j_left : cap);
}

/* be_total is read whole by a signal handler or another thread. */
void
bufsz_job_moved(struct job *j, size_t n)
{
	struct bufsz_engine *e;

	e = j->j_e;
	e->be_moved += (off_t)n;
	atomic_store_explicit(&e->be_total, atomic_load_explicit(&e->be_total,
	    memory_order_relaxed) + (off_t)n, memory_order_release);
	if (j->j_left > 0)
		j->j_left -= (off_t)n;
}

/*
 * A short count that brings the copy to exactly the size a regular input
 * had when looked at is its end where the file system keeps sizes: what
 * follows was written later.  Elsewhere (FUSE, NFS, /proc) read(2)'s 0 is.
 */
static int
job_at_end(const struct job *j, size_t asked, size_t got)
{

	return (got < asked && j->j_left < 0 &&
	    S_ISREG(j->j_inst->st_mode) && j->j_inst->st_size > 0 &&
	    j->j_e->be_moved == j->j_inst->st_size &&
	    bufsz_size_kept(j));
}

/*
 * A kernel path's 0 from a regular file needs read(2)'s word after a
 * first call that moved nothing (a /sys file holds less than it says), or
 * where the file system does not keep sizes (FUSE, NFS).
 */
int
bufsz_job_declines(const struct job *j, int moved)
{

	return (S_ISREG(j->j_inst->st_mode) &&
	    (!moved || !bufsz_size_kept(j)));
}

/*
 * A kernel path moves capped chunks until the input ends.  A refusal, or
 * a 0 where the input may still have bytes, hands the rest to read/write.
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
			if (job_at_end(j, want, (size_t)n))
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

/* The host's word on the input's file system, asked once a file system. */
int
bufsz_size_kept(const struct job *j)
{
	struct bufsz_engine *e;
	size_t i;

	e = j->j_e;
	for (i = 0; i < MIN(e->be_nfs, FS_SEEN); i++)
		if (e->be_fs[i].fs_dev == j->j_inst->st_dev)
			return (e->be_fs[i].fs_keeps_size);
	i = e->be_nfs++ % FS_SEEN;
	e->be_fs[i].fs_dev = j->j_inst->st_dev;
	e->be_fs[i].fs_keeps_size = bufsz_host_keeps_size(j->j_in);
	return (e->be_fs[i].fs_keeps_size);
}

/*
 * The forced path, or the host's choice.  A regular input of size 0 is
 * empty or a /proc file whose size is a lie: read/write either way.
 */
static int
copy_span(struct job *j)
{
	enum bufsz_path p;
	off_t start, handed;
	int r;

	p = j->j_e->be_force;
	if (S_ISREG(j->j_inst->st_mode) && j->j_inst->st_size == 0)
		p = COPY_RW;
	start = j->j_e->be_moved;
	if (p != COPY_RW && (r = bufsz_kpath(j, &p)) != REFUSED) {
		j->j_e->be_last = p;
		return (r);
	}
	/* A path that moved it all and left only the read of 0 took it. */
	handed = j->j_e->be_moved;
	r = copy_rw(j);
	j->j_e->be_last = handed != start && j->j_e->be_moved == handed ? p :
	    COPY_RW;
	return (r);
}

static int
copy_rw(struct job *j)
{
	size_t len, blk, want;
	ssize_t n;
	char *buf;

	if ((buf = bufsz_engine_buffer(j->j_e, j->j_inst, j->j_outst,
	    &len)) == NULL)
		return (BUFSZ_EREAD);
	blk = j->j_outst->st_blksize > 0 ? (size_t)j->j_outst->st_blksize :
	    bufsz_pagesize();
	while (j->j_left != 0) {
		want = bufsz_job_want(j, len);
		if ((n = bufsz_read(j->j_in, buf, want)) < 0)
			return (BUFSZ_EREAD);
		if (n == 0)
			break;
		if (j->j_holes ? write_holey(j->j_out, buf, (size_t)n, blk) :
		    bufsz_write_all(j->j_out, buf, (size_t)n))
			return (BUFSZ_EWRITE);
		bufsz_job_moved(j, (size_t)n);
		if (job_at_end(j, want, (size_t)n))
			break;
	}
	return (BUFSZ_OK);
}

static int
is_zero(const char *p, size_t len)
{

	return (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

/*
 * Write buf, seeking over each whole block of zeros, so that a sparse
 * input keeps its holes on read/write; runs of either are coalesced.
 */
static int
write_holey(int fd, const char *buf, size_t len, size_t blk)
{
	size_t off, run;
	int zero;

	for (off = 0; off < len; off += run) {
		run = MIN(blk, len - off);
		zero = is_zero(buf + off, run);
		while (off + run < len && is_zero(buf + off + run,
		    MIN(blk, len - off - run)) == zero)
			run += MIN(blk, len - off - run);
		if (zero ? lseek(fd, (off_t)run, SEEK_CUR) == -1 :
		    bufsz_write_all(fd, buf + off, run) != 0)
			return (-1);
	}
	return (0);
}

/*
 * Copy only the input's data, seeking the output over its holes, then
 * cut the output where the input ends.  A span of data that comes up
 * short has met the true end (a file that shrank, or a /sys file that
 * looks all hole); else the end is the size first seen, or the end of
 * the last data if the file grew, but no further than the size once no
 * data is left.  Where sizes are not kept, or the system has no hole map,
 * read/write goes instead.
 */
static int
copy_sparse(struct job *j)
{
#ifdef SEEK_DATA
	struct stat st;
	off_t pos, data, hole, delta, end;
	int r;

	if (!bufsz_size_kept(j))
		return (REFUSED);
	if ((pos = lseek(j->j_in, 0, SEEK_CUR)) == -1 ||
	    (delta = lseek(j->j_out, 0, SEEK_CUR)) == -1)
		return (REFUSED);
	delta -= pos;
	end = MAX(pos, j->j_inst->st_size);
	j->j_holes = 1;
	for (; (data = lseek(j->j_in, pos, SEEK_DATA)) != -1; pos = hole) {
		if ((hole = lseek(j->j_in, data, SEEK_HOLE)) == -1)
			return (REFUSED);
		if (lseek(j->j_in, data, SEEK_SET) == -1)
			return (BUFSZ_EREAD);
		if (lseek(j->j_out, data + delta, SEEK_SET) == -1)
			return (BUFSZ_EWRITE);
		j->j_left = hole - data;
		if ((r = copy_span(j)) != BUFSZ_OK)
			return (r);
		if (j->j_left > 0)
			return (cut_output(j, hole - j->j_left, delta));
	}
	if (errno != ENXIO)
		return (REFUSED);
	if (fstat(j->j_in, &st) != 0)
		return (BUFSZ_EREAD);
	end = MAX(pos, MIN(end, st.st_size));
	if (lseek(j->j_in, end, SEEK_SET) == -1)
		return (BUFSZ_EREAD);
	return (cut_output(j, end, delta));
#else
	(void)j;
	return (REFUSED);
#endif
}

static int
cut_output(struct job *j, off_t end, off_t delta)
{

	if (ftruncate(j->j_out, end + delta) != 0 ||
	    lseek(j->j_out, end + delta, SEEK_SET) == -1)
		return (BUFSZ_EWRITE);
	return (BUFSZ_OK);
}

int
bufsz_engine_copy(struct bufsz_engine *e, int in, const struct stat *inst,
    int out, const struct stat *outst, int flags)
{
	struct stat isb, osb;
	enum bufsz_path p;
	struct job j;
	off_t end;
	int r;

	if (outst == NULL) {
		if (fstat(out, &osb) != 0)
			return (BUFSZ_EWRITE);
		outst = &osb;
	}
	e->be_moved = 0;
	memset(&j, 0, sizeof(j));
	j.j_e = e;
	j.j_in = in;
	j.j_out = out;
	j.j_outst = outst;
	j.j_left = -1;
	p = COPY_AUTO;
	if ((flags & (BUFSZ_UNSEEN | BUFSZ_SPARSE)) == BUFSZ_UNSEEN &&
	    e->be_force == COPY_AUTO && (r = bufsz_kpath(&j, &p)) != REFUSED)
		return (r);
	if (inst == NULL || (flags & BUFSZ_UNSEEN) != 0) {
		if (fstat(in, &isb) != 0)
			return (BUFSZ_EREAD);
		inst = &isb;
	}
	j.j_inst = inst;
	e->be_last = COPY_RW;
	/* Some systems let read(2) return a directory's raw entries. */
	if (S_ISDIR(inst->st_mode)) {
		errno = EISDIR;
		return (BUFSZ_EREAD);
	}
	if ((flags & BUFSZ_SPARSE) == 0 || !S_ISREG(inst->st_mode) ||
	    !S_ISREG(outst->st_mode) || inst->st_blocks * 512 >= inst->st_size)
		return (copy_span(&j));
	if ((r = copy_sparse(&j)) != REFUSED)
		return (r);
	/* No hole map: read/write everything, zeros becoming holes. */
	j.j_left = -1;
	j.j_holes = 1;
	if ((r = copy_rw(&j)) != BUFSZ_OK)
		return (r);
	if ((end = lseek(out, 0, SEEK_CUR)) == -1)
		return (BUFSZ_EWRITE);
	return (cut_output(&j, end, 0));
}

/* Sleep until fd is ready for events (or has hung up or failed). */
static int
wait_for(int fd, short events)
{
	struct pollfd pfd;

	pfd.fd = fd;
	pfd.events = events;
	pfd.revents = 0;
	while (poll(&pfd, 1, -1) == -1)
		if (errno != EINTR)
			return (-1);
	return (0);
}

/* A kernel-side call does not say which side said EAGAIN: both are waited. */
int
bufsz_io_again(int in, int out)
{

	if (errno == EINTR)
		return (1);
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		return (0);
	if (in != -1 && wait_for(in, POLLIN) != 0)
		return (0);
	if (out != -1 && wait_for(out, POLLOUT) != 0)
		return (0);
	return (1);
}

ssize_t
bufsz_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = read(fd, buf, len)) == -1)
		if (!bufsz_io_again(fd, -1))
			return (-1);
	return (n);
}

int
bufsz_write_all(int fd, const void *buf, size_t len)
{
	const char *p;
	ssize_t n;

	for (p = buf; len > 0; p += n, len -= (size_t)n) {
		if ((n = write(fd, p, len)) > 0)
			continue;
		if (n == 0) {
			/* A write that takes nothing would loop forever. */
			errno = EIO;
			return (-1);
		}
		if (!bufsz_io_again(-1, fd))
			return (-1);
		n = 0;
	}
	return (0);
}
