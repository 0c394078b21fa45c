/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The copy engine: for each pair of descriptors, the host's kernel copy
 * (kpath_<host>.c: copy_file_range, splice, sendfile) where it serves,
 * else read(2)/write(2) through the policy's buffer, which also takes
 * over from any path that refuses.  Every path moves data through the
 * descriptors' own offsets, so that read/write goes on from the right
 * byte.  There is no mmap(2) path: mapping and faulting pages in costs
 * more than read(2)'s copy.
 */

#include <sys/param.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

static int	copy_span(struct job *);
static int	copy_rw(struct job *);
static int	write_holey(int, const char *, size_t, size_t);
static int	copy_sparse(struct job *);
static int	cut_output(struct job *, off_t, off_t);
static int	copy_rest(struct job *, int);

static const char *const path_names[] = {
	"auto", "rw", "cfr", "splice", "sendfile"
};

size_t	bufsz_asked_size;

static _Thread_local struct bufsz_engine *self;

struct bufsz_engine *
bufsz_engine_new(void)
{
	struct bufsz_engine *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		return (NULL);
	e->be_pipe[0] = e->be_pipe[1] = -1;
	return (e);
}

void
bufsz_engine_free(struct bufsz_engine *e)
{

	if (e == NULL)
		return;
	free(e->be_buf);
	bufsz_kpath_release(e);
	free(e);
}

void
bufsz_engine_force(struct bufsz_engine *e, enum bufsz_path p, size_t size)
{
	size_t page;

	page = bufsz_pagesize();
	e->be_force = p;
	e->be_force_size = size == 0 || size >= page ? size - size % page :
	    page;
}

const char *
bufsz_path_name(enum bufsz_path p)
{

	if ((size_t)p >= sizeof(path_names) / sizeof(path_names[0]))
		return ("unknown");
	return (path_names[p]);
}

/* Made on first use; a thread that cannot have one cannot copy. */
struct bufsz_engine *
bufsz_self(void)
{

	if (self == NULL)
		self = bufsz_engine_new();
	return (self);
}

const _Atomic off_t *
bufsz_moved(void)
{

	return (bufsz_self() != NULL ? &self->be_total : NULL);
}

char *
bufsz_buffer(const struct stat *in, const struct stat *out, size_t *len)
{

	if (bufsz_self() == NULL)
		return (NULL);
	return (bufsz_engine_buffer(self, in, out, len));
}

int
bufsz_copy(int in, const struct stat *inst, int out,
    const struct stat *outst, int flags)
{

	if (bufsz_self() == NULL)
		return (BUFSZ_EREAD);
	return (bufsz_engine_copy(self, in, inst, out, outst, flags));
}

/*
 * The buffer only grows, and is kept: cat copying thousands of small
 * files must not pay an allocation and its page faults for each.  When
 * the size wanted cannot be had, a smaller one is taken, down to a page.
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
	for (; e->be_bufsz < want; want = MAX(want / 2 / page * page, page)) {
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

	if (j->j_left >= 0 && (uintmax_t)j->j_left < cap)
		return ((size_t)j->j_left);
	return (cap);
}

/*
 * be_total's one writer is the engine's thread; a signal handler or
 * another thread reads it whole, where an off_t is two words too.
 */
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
 * A short count is the end of a regular input when it brings the copy to
 * exactly the size the input had when it was looked at, on a file system
 * that keeps sizes: every byte it had then is copied, and what follows
 * was written later.  Elsewhere (FUSE, NFS, /proc, /sys) the end is where
 * read(2) returns 0.
 */
int
bufsz_job_at_end(const struct job *j, size_t asked, size_t got)
{

	return (got < asked && j->j_left < 0 &&
	    S_ISREG(j->j_inst->st_mode) && j->j_inst->st_size > 0 &&
	    j->j_e->be_moved == j->j_inst->st_size &&
	    bufsz_size_kept(j));
}

/*
 * A kernel path's 0 from a regular file needs read(2)'s word after a first
 * call that moved nothing (a /sys file says 4096 bytes and holds fewer),
 * or where the file system does not keep sizes: a FUSE or NFS file may
 * hold more than the size at which those paths stop.  Anything else that
 * says 0 has ended.
 */
int
bufsz_job_declines(const struct job *j, int moved)
{

	return (S_ISREG(j->j_inst->st_mode) &&
	    (!moved || !bufsz_size_kept(j)));
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
	else if (p == COPY_AUTO)
		p = bufsz_kpath_auto(j);
	start = j->j_e->be_moved;
	if (p != COPY_RW && (r = bufsz_kpath_copy(j, &p)) != REFUSED) {
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
		if (bufsz_job_at_end(j, want, (size_t)n))
			break;
	}
	return (BUFSZ_OK);
}

static int
is_zero(const char *p, size_t len)
{

	return (len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0));
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
 * data is left.  Where sizes are not kept, holes are not to be trusted:
 * read/write goes instead.
 */
static int
copy_sparse(struct job *j)
{
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
	while ((r = bufsz_next_data(j->j_in, pos, &data, &hole)) != 0) {
		if (r == -1)
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
		pos = hole;
	}
	if (fstat(j->j_in, &st) != 0)
		return (BUFSZ_EREAD);
	end = MAX(pos, MIN(end, st.st_size));
	if (lseek(j->j_in, end, SEEK_SET) == -1)
		return (BUFSZ_EREAD);
	return (cut_output(j, end, delta));
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
	struct job j;
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
	if ((flags & (BUFSZ_UNSEEN | BUFSZ_SPARSE)) == BUFSZ_UNSEEN &&
	    e->be_force == COPY_AUTO && (r = bufsz_kpath_unseen(&j)) != REFUSED)
		return (r);
	if (inst == NULL || (flags & BUFSZ_UNSEEN) != 0) {
		if (fstat(in, &isb) != 0)
			return (BUFSZ_EREAD);
		inst = &isb;
	}
	j.j_inst = inst;
	return (copy_rest(&j, flags));
}

/* Everything from in's offset on. */
static int
copy_rest(struct job *j, int flags)
{
	const struct stat *inst;
	off_t end;
	int r;

	inst = j->j_inst;
	j->j_e->be_last = COPY_RW;
	/* Some systems let read(2) return a directory's raw entries. */
	if (S_ISDIR(inst->st_mode)) {
		errno = EISDIR;
		return (BUFSZ_EREAD);
	}
	if ((flags & BUFSZ_SPARSE) == 0 || !S_ISREG(inst->st_mode) ||
	    !S_ISREG(j->j_outst->st_mode) ||
	    inst->st_blocks * 512 >= inst->st_size)
		return (copy_span(j));
	if ((r = copy_sparse(j)) != REFUSED)
		return (r);
	/* No hole map: read/write everything, zeros becoming holes. */
	j->j_left = -1;
	j->j_holes = 1;
	if ((r = copy_rw(j)) != BUFSZ_OK)
		return (r);
	if ((end = lseek(j->j_out, 0, SEEK_CUR)) == -1 ||
	    ftruncate(j->j_out, end) != 0)
		return (BUFSZ_EWRITE);
	return (BUFSZ_OK);
}
