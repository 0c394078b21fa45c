/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The copy engine's portable core: it picks a path for each pair of
 * descriptors, runs it, and falls back to read(2)/write(2) through the
 * policy's buffer whenever a fast path refuses.  The kernel's own copy
 * paths (copy_file_range, splice, sendfile) are the host's, in the
 * kpath_<host>.c file the Makefile picks; read/write and holes are here,
 * for every host.
 *
 * Every path moves data through the descriptors' own file offsets, so
 * that a path that refuses half way leaves read/write to carry on from
 * the right byte.
 *
 * AUTO takes copy_file_range between regular files: it is level with
 * read/write on ext4, and it lets the file system clone or copy on the
 * server, which read/write cannot.  On Linux, sendfile goes on where that
 * is refused between two file systems (kpath_linux.c); splice serves
 * where a pipe is on either side, and sendfile takes a regular file to a
 * device or socket, one system call a chunk with no private pipe.
 * read/write serves everything else.  There is no mmap(2) path: mapping
 * a file and faulting its pages in costs more than read(2)'s copy, both
 * for a raw copy and for cat's formatting.
 */

#include <sys/param.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

static enum bufsz_path choose(const struct job *);
static int	copy_span(struct job *);
static int	copy_rw(struct job *);
static int	is_zero(const char *, size_t);
static int	write_holey(int, const char *, size_t, size_t);
static int	copy_sparse(struct job *);
static int	cut_output(struct job *, off_t, off_t);
static int	copy_unseen(struct bufsz_engine *, int, int, const struct stat *);
static int	copy_rest(struct bufsz_engine *, int, const struct stat *, int,
		    const struct stat *);
static void	job_start(struct job *, struct bufsz_engine *, int,
		    const struct stat *, int, const struct stat *);

struct bufsz_engine *
bufsz_engine_new(int flags)
{
	struct bufsz_engine *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		return (NULL);
	e->be_pipe[0] = e->be_pipe[1] = -1;
	atomic_init(&e->be_total, 0);
	e->be_force = bufsz_env_path();
	e->be_force_size = bufsz_env_size();
	e->be_flags = flags;
	e->be_last = BUFSZ_PATH_AUTO;
	return (e);
}

void
bufsz_engine_free(struct bufsz_engine *e)
{

	if (e == NULL)
		return;
	if (e->be_buf != NULL)
		bufsz_free(e->be_buf, e->be_bufsz);
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

enum bufsz_path
bufsz_engine_last(const struct bufsz_engine *e)
{

	return (e->be_last);
}

off_t
bufsz_moved(const struct bufsz_engine *e)
{

	return (atomic_load_explicit(&e->be_total, memory_order_acquire));
}

int
bufsz_lends_pages(const struct stat *out)
{

	return (bufsz_kpath_lends(bufsz_env_path(), out));
}

/*
 * The buffer is kept across calls and only grows: cat copying thousands
 * of small files must not pay an allocation (and its page faults) each.
 */
char *
bufsz_buffer(struct bufsz_engine *e, const struct stat *inst,
    const struct stat *outst, size_t *len)
{
	struct bufsz_facts f;
	size_t want, got;
	char *p;

	/*
	 * In whole pages, as bufsz_alloc() gives them: a size it cannot give
	 * would have us allocate again on every call.
	 */
	if ((want = e->be_force_size) == 0) {
		bufsz_facts_of(&f, inst, outst);
		want = bufsz_policy(&f);
	}
	if (e->be_buf == NULL || e->be_bufsz < want) {
		if ((p = bufsz_alloc(want, &got)) == NULL) {
			if (e->be_buf == NULL)
				return (NULL);
		} else if (e->be_buf == NULL || got > e->be_bufsz) {
			if (e->be_buf != NULL)
				bufsz_free(e->be_buf, e->be_bufsz);
			e->be_buf = p;
			e->be_bufsz = got;
		} else
			bufsz_free(p, got);
	}
	*len = e->be_bufsz;
	return (e->be_buf);
}

/*
 * A kernel-side path that moves nothing on its first call from a regular
 * file may be facing a size that is a lie (/sys says 4096 bytes, and
 * Linux 5.3 to 5.18 let copy_file_range return 0 for such files); read(2)
 * then has the last word.  So it has after later calls where the file
 * system does not keep sizes: copy_file_range, sendfile and splice stop
 * at the size the kernel was told, and a FUSE file opened with direct_io
 * (or a file another NFS client has grown) holds more, which read(2)
 * returns.  Anything else that says 0 has ended: a pipe, a socket, a
 * terminal at its end-of-file character (a second look would wait for a
 * second one).
 */
int
bufsz_job_declines(const struct job *j, int moved)
{

	return (S_ISREG(j->j_inst->st_mode) &&
	    (!moved || !bufsz_size_kept(j)));
}

/*
 * Whether the regular input's size is where it ends: the host's word
 * (bufsz_host_keeps_size()) on its file system, asked once a file system,
 * so that thousands of small files on one cost one fstatfs(2) in all.
 */
int
bufsz_size_kept(const struct job *j)
{

	return (bufsz_size_is_end(j->j_e, j->j_in, j->j_inst));
}

int
bufsz_size_is_end(struct bufsz_engine *e, int fd, const struct stat *st)
{
	struct fs_seen *fs;
	size_t i;

	if (!S_ISREG(st->st_mode))
		return (0);
	for (i = 0; i < MIN(e->be_nfs, FS_SEEN); i++)
		if (e->be_fs[i].fs_dev == st->st_dev)
			return (e->be_fs[i].fs_keeps_size);
	fs = &e->be_fs[e->be_nfs++ % FS_SEEN];
	fs->fs_dev = st->st_dev;
	fs->fs_keeps_size = bufsz_host_keeps_size(fd);
	return (fs->fs_keeps_size);
}

/*
 * The path for the pair: the forced one or AUTO's choice (the host's,
 * bufsz_kpath_auto()).  A regular input that reports a size of 0 goes to
 * read/write: it is either empty (one read says so) or a /proc file
 * whose size is a lie.  A kernel path that cannot serve the pair says so
 * itself, by refusing.
 */
static enum bufsz_path
choose(const struct job *j)
{
	enum bufsz_path p;

	if (S_ISREG(j->j_inst->st_mode) && j->j_inst->st_size == 0)
		return (BUFSZ_PATH_RW);
	if ((p = j->j_e->be_force) == BUFSZ_PATH_AUTO)
		p = bufsz_kpath_auto(j);
	return (p);
}

/*
 * Copy j_left bytes (or to end of input) by the chosen path.  A fast
 * path that moved everything and left read/write only the read of 0
 * that confirms the end is still the path that took the copy.
 */
static int
copy_span(struct job *j)
{
	enum bufsz_path p;
	off_t start, handed;
	int r;

	start = j->j_e->be_moved;
	p = choose(j);
	r = p == BUFSZ_PATH_RW ? REFUSED : bufsz_kpath_copy(j, &p);
	if (r != REFUSED) {
		j->j_e->be_last = p;
		return (r);
	}
	handed = j->j_e->be_moved;
	r = copy_rw(j);
	j->j_e->be_last = handed != start && j->j_e->be_moved == handed ? p :
	    BUFSZ_PATH_RW;
	return (r);
}

/* The path that always works: through the buffer, a read at a time. */
static int
copy_rw(struct job *j)
{
	size_t len, blk, want;
	ssize_t n;
	char *buf;

	if ((buf = bufsz_buffer(j->j_e, j->j_inst, j->j_outst, &len)) == NULL)
		return (BUFSZ_EREAD);
	blk = j->j_outst->st_blksize > 0 ? (size_t)j->j_outst->st_blksize :
	    bufsz_pagesize();
	while (!job_done(j)) {
		if ((n = bufsz_read(j->j_in, buf, want = job_want(j, len))) < 0)
			return (BUFSZ_EREAD);
		if (n == 0)
			break;
		if (j->j_holes) {
			if (write_holey(j->j_out, buf, (size_t)n, blk) != 0)
				return (BUFSZ_EWRITE);
		} else if (bufsz_write_all(j->j_out, buf, (size_t)n) != 0)
			return (BUFSZ_EWRITE);
		job_moved(j, (size_t)n);
		if (job_at_end(j, want, (size_t)n))
			break;
	}
	return (BUFSZ_OK);
}

static int
is_zero(const char *p, size_t len)
{

	/* Zero when the first byte is and each byte equals the next. */
	return (len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0));
}

/*
 * Write buf, but seek over each whole block of zeros instead of writing
 * it, so that a sparse input keeps its holes on the read/write path.
 * Runs are coalesced: one write per run of data, one lseek per run of
 * zeros.  The caller extends the file over a trailing hole.
 */
static int
write_holey(int fd, const char *buf, size_t len, size_t blk)
{
	size_t off, run, n;
	int zero;

	off = 0;
	while (off < len) {
		run = MIN(blk, len - off);
		zero = is_zero(buf + off, run);
		while (off + run < len) {
			n = MIN(blk, len - off - run);
			if (is_zero(buf + off + run, n) != zero)
				break;
			run += n;
		}
		if (zero) {
			if (lseek(fd, (off_t)run, SEEK_CUR) == -1)
				return (-1);
		} else if (bufsz_write_all(fd, buf + off, run) != 0)
			return (-1);
		off += run;
	}
	return (0);
}

/*
 * BUFSZ_SPARSE: copy only the input's data extents, seeking the output
 * over its holes, then cut the output where the input ends (the caller
 * promises a new, empty output).  Where the file system cannot report
 * holes, read/write turns blocks of zeros into holes instead.
 *
 * Where the input ends is decided with care, since the output is cut or
 * extended to it and whatever it has not copied becomes zeros.  On a
 * file system that does not keep sizes, the holes it reports end at a
 * size that may be a lie: read/write, which reads to the end, goes
 * instead.  Elsewhere:
 * - A span of data that comes up short has met the input's true end: a
 *   file that shrank, or one whose size is a lie (sysfs says 4096 bytes
 *   and has no blocks, so it looks all hole).  It ends there.
 * - Otherwise the size first seen (the caller's stat), or the end of the
 *   last data copied if that is further (the file grew, and the growth
 *   was copied); but no further than the size once no data is left, for
 *   a file that shrank meanwhile.  A file that grows after the last look
 *   for data is copied as it was before, never padded to its new size.
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
	for (;;) {
		if ((r = bufsz_next_data(j->j_in, pos, &data, &hole)) == 0)
			break;			/* only a hole is left */
		if (r == -1)
			return (REFUSED);	/* the fs cannot say */
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

/* The output ends where the input did, at end, delta bytes further on. */
static int
cut_output(struct job *j, off_t end, off_t delta)
{

	if (ftruncate(j->j_out, end + delta) != 0 ||
	    lseek(j->j_out, end + delta, SEEK_SET) == -1)
		return (BUFSZ_EWRITE);
	return (BUFSZ_OK);
}

int
bufsz_copy(struct bufsz_engine *e, int in, const struct stat *inst, int out,
    const struct stat *outst, int flags)
{
	struct stat isb, osb;
	int r;

	if (outst == NULL) {
		if (fstat(out, &osb) != 0)
			return (BUFSZ_EWRITE);
		outst = &osb;
	}
	e->be_moved = 0;
	if ((flags & BUFSZ_UNSEEN) != 0) {
		if ((r = copy_unseen(e, in, out, outst)) != REFUSED)
			return (r);
		inst = NULL;
	}
	if (inst == NULL) {
		if (fstat(in, &isb) != 0)
			return (BUFSZ_EREAD);
		inst = &isb;
	}
	return (copy_rest(e, in, inst, out, outst));
}

/*
 * An input just opened and not yet looked at.  Where the host has a path
 * that takes such an input safely (bufsz_kpath_unseen(): Linux's
 * sendfile into /dev/null), one call of it goes first.  Its short count
 * alone proves nothing: a read error after some bytes is dropped from
 * the count, to come back at the next call, and a kernel path stops at
 * the size the file system gave, which a FUSE or network file may have
 * outgrown.  So one read(2) follows a short count: its 0 is the end,
 * whatever the file system, and the error or the byte it may bring
 * instead goes on as in any other copy.  A small file so costs open,
 * that call, the read and close, and no stat.  Anything else has its
 * stat taken and goes on from the byte the first call stopped at, or,
 * when that call moved nothing, is REFUSED: copied as any other input.
 */
static int
copy_unseen(struct bufsz_engine *e, int in, int out, const struct stat *outst)
{
	struct stat isb;
	struct job j;
	enum bufsz_path p;
	ssize_t n, m;
	char c;

	if (e->be_force != BUFSZ_PATH_AUTO || (e->be_flags & BUFSZ_SPARSE))
		return (REFUSED);
	job_start(&j, e, in, NULL, out, outst);
	if ((n = bufsz_kpath_unseen(&j, CHUNK_MAX, &p)) <= 0)
		return (REFUSED);
	e->be_last = p;
	engine_moved(e, n);
	if ((size_t)n < CHUNK_MAX) {
		if ((m = bufsz_read(in, &c, 1)) == 0)
			return (BUFSZ_OK);
		if (m < 0)
			return (BUFSZ_EREAD);
		if (bufsz_write_all(out, &c, 1) != 0)
			return (BUFSZ_EWRITE);
		engine_moved(e, 1);
	}
	if (fstat(in, &isb) != 0)
		return (BUFSZ_EREAD);
	return (copy_rest(e, in, &isb, out, outst));
}

/* A copy of all of in (inst NULL: unseen), holes not kept. */
static void
job_start(struct job *j, struct bufsz_engine *e, int in,
    const struct stat *inst, int out, const struct stat *outst)
{

	j->j_e = e;
	j->j_in = in;
	j->j_out = out;
	j->j_inst = inst;
	j->j_outst = outst;
	j->j_left = -1;
	j->j_holes = 0;
}

/* Everything from in's offset on, be_moved counting on from its value. */
static int
copy_rest(struct bufsz_engine *e, int in, const struct stat *inst, int out,
    const struct stat *outst)
{
	struct job j;
	off_t end;
	int r;

	e->be_last = BUFSZ_PATH_RW;	/* until a path takes the copy */
	/* Some systems let read(2) return a directory's raw entries. */
	if (S_ISDIR(inst->st_mode)) {
		errno = EISDIR;
		return (BUFSZ_EREAD);
	}
	job_start(&j, e, in, inst, out, outst);
	if ((e->be_flags & BUFSZ_SPARSE) == 0 || !S_ISREG(inst->st_mode) ||
	    !S_ISREG(outst->st_mode) ||
	    inst->st_blocks * 512 >= inst->st_size)
		return (copy_span(&j));
	if ((r = copy_sparse(&j)) != REFUSED)
		return (r);
	/* No hole map: read/write everything, zeros becoming holes. */
	j.j_left = -1;
	j.j_holes = 1;
	e->be_last = BUFSZ_PATH_RW;
	if ((r = copy_rw(&j)) != BUFSZ_OK)
		return (r);
	if ((end = lseek(out, 0, SEEK_CUR)) == -1 || ftruncate(out, end) != 0)
		return (BUFSZ_EWRITE);
	return (BUFSZ_OK);
}
