/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The copy engine: moves every byte from one descriptor to another by the
 * fastest path that is correct for the pair, and falls back to read(2)/
 * write(2) through the policy's buffer whenever a fast path refuses.
 *
 * Every path moves data through the descriptors' own file offsets (or, for
 * mmap, puts the input's offset where it stopped), so that a path that
 * refuses half way leaves read/write to carry on from the right byte.
 *
 * Why each path is where it is.  Measured on the team's build machine
 * (Debian 12, Linux 6.18, a 2-vCPU VM shared with other jobs, ext4, files
 * in the page cache), each case run 9-21 times interleaved with its rivals
 * under BUFSZ_PATH=...; figures are the median CPU time (user+system) of
 * the copying processes, steadier than wall time on a shared VM.
 *
 *   20,000 files of 4 KiB to /dev/null (one process, one engine):
 *	sendfile 87 ms, rw 86 ms, splice 93 ms, mmap 215 ms.
 *	System calls per file: sendfile 2, rw 3, splice via the pipe 3.
 *   512 MiB to /dev/null:
 *	splice 13.5 ms, sendfile 15 ms, rw 25 ms, mmap 40 ms.
 *   512 MiB to a pipe read by a read/write loop:
 *	sendfile 69 ms, splice 70 ms, rw 147 ms, mmap 195 ms.
 *   512 MiB into an existing file (no block allocation, 1<>file):
 *	rw 63-68 ms, splice 64-71 ms, cfr 75-79 ms, mmap 96 ms.
 *
 * Hence: regular to character device or socket takes sendfile (level with
 * splice on large files, one system call fewer per small file, no private
 * pipe); a pipe on either side takes splice (level with sendfile where
 * both could serve, and it takes a pipe as input too); regular to
 * regular takes copy_file_range: level with read/write on ext4 within
 * this machine's noise, and it lets the file system clone (XFS, Btrfs) or
 * copy on the server (NFS), which read/write cannot.  mmap loses
 * everywhere here, so AUTO never takes it; it stays available when forced.
 *
 * Reproduce: build a program that calls bufsz_copy() on each argument
 * (or use cat), then, e.g.,
 *	BUFSZ_PATH=sendfile cat f00000 ... f19999 >/dev/null
 *	BUFSZ_PATH=splice cat big | BUFSZ_PATH=rw cat >/dev/null
 *	BUFSZ_PATH=cfr cat big 1<>existing-copy-of-big
 * and strace -c for the counts.
 */

#include <sys/param.h>
#include <sys/mman.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/sendfile.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_impl.h"

/* Linux has copy_file_range(2) since 4.5, FreeBSD since 13.0. */
#if defined(__linux__) || \
    (defined(__FreeBSD__) && __FreeBSD_version >= 1300037)
#define	HAVE_CFR	1
#endif

/*
 * The most one system call of a kernel-side path (copy_file_range,
 * sendfile, splice) is asked to move.  Uncapped, one call copies a whole
 * file: ^C then waits for it, and be_moved (cp's SIGINFO progress) stands
 * still.  The cap costs nothing measurable: copy_file_range of 512 MiB
 * into an existing file took 79, 91, 77 and 79 ms of CPU with caps of
 * 1, 8, 64 and 1024 MiB (noise is about 10 ms); 8 MiB is about 1 ms of
 * work at the rates above.
 */
#define	CHUNK_MAX	((size_t)8 << 20)

/*
 * The mmap path maps the input this much at a time (BUFSZ_SIZE, rounded
 * up to pages, when set), which bounds the address space taken whatever
 * the file's size.  The size hardly matters: 512 MiB to a pipe took 210,
 * 199 and 191 ms of CPU with windows of 1, 8 and 64 MiB (and MAP_POPULATE
 * changed nothing).
 */
#define	MMAP_WINDOW	((size_t)8 << 20)

/*
 * The size asked of the private splice pipe (bounded by
 * /proc/sys/fs/pipe-max-size, 1 MiB by default): 512 MiB to /dev/null took
 * 14 ms of CPU with 1 MiB against 19.5 ms with the default 64 KiB, and 71
 * against 82 ms into an existing file.
 */
#define	PIPE_WANT	(1 << 20)

/* Internal: a fast path declines; read/write takes over from here. */
#define	REFUSED		(-1)

/* One copy under way: the engine, both sides, and how much is left. */
struct job {
	struct bufsz_engine	*j_e;
	int			 j_in;
	int			 j_out;
	const struct stat	*j_inst;
	const struct stat	*j_outst;
	off_t			 j_left;	/* bytes to copy, -1: to EOF */
	int			 j_holes;	/* zero blocks become holes */
};

static int	wait_for(int, short);
static size_t	job_want(const struct job *, size_t);
static void	job_moved(struct job *, size_t);
static int	job_done(const struct job *);
static int	declines(const struct job *, int);
static enum bufsz_path auto_path(const struct job *);
static int	possible(const struct job *, enum bufsz_path);
static int	copy_span(struct job *);
static int	copy_rw(struct job *);
static int	is_zero(const char *, size_t);
static int	write_holey(int, const char *, size_t, size_t);
static int	copy_mmap(struct job *);
static int	copy_sparse(struct job *);
#if defined(HAVE_CFR) || defined(__linux__)
static int	wait_either(const struct job *);
static int	copy_kernel(struct job *,
		    ssize_t (*)(const struct job *, size_t));
#endif
#ifdef HAVE_CFR
static ssize_t	move_cfr(const struct job *, size_t);
static int	copy_cfr(struct job *);
#endif
#ifdef __linux__
static ssize_t	move_sendfile(const struct job *, size_t);
static int	copy_sendfile(struct job *);
static ssize_t	move_splice(const struct job *, size_t);
static int	copy_splice(struct job *);
static int	pipe_open(struct bufsz_engine *);
static void	pipe_discard(struct bufsz_engine *);
static int	pipe_drain(struct job *, size_t);
static int	pipe_to_out(struct job *, size_t);
static int	input_shrank(const struct job *, off_t);
static off_t	input_size(const struct job *);
static int	copy_splice_via(struct job *);
#endif

struct bufsz_engine *
bufsz_engine_new(int flags)
{
	struct bufsz_engine *e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		return (NULL);
	e->be_pipe[0] = e->be_pipe[1] = -1;
	e->be_force = bufsz_env_path();
	e->be_force_size = bufsz_env_size();
	e->be_flags = flags;
	e->be_last = BUFSZ_PATH_AUTO;
	return (e);
}

void
bufsz_engine_free(struct bufsz_engine *e)
{
	int i;

	if (e == NULL)
		return;
	if (e->be_buf != NULL)
		bufsz_free(e->be_buf, e->be_bufsz);
	for (i = 0; i < 2; i++)
		if (e->be_pipe[i] != -1)
			(void)close(e->be_pipe[i]);
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

	return (e->be_moved);
}

/*
 * Pages lent to a pipe are read whenever the reader gets to them, so
 * only the splice path, which lends the file's own, says yes.
 */
int
bufsz_lends_pages(const struct bufsz_engine *e, const struct stat *out)
{

#ifdef __linux__
	switch (e->be_force) {
	case BUFSZ_PATH_SPLICE:
		return (1);
	case BUFSZ_PATH_AUTO:
		return (S_ISFIFO(out->st_mode));
	default:
		return (0);
	}
#else
	(void)e;
	(void)out;
	return (0);
#endif
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
 * Sleep until fd is ready.  EAGAIN comes only from a descriptor someone
 * made non-blocking (a shared terminal, a pipe from a shell); spinning on
 * it would burn a CPU and reporting it would lose data.
 */
static int
wait_for(int fd, short events)
{
	struct pollfd pfd;

	pfd.fd = fd;
	pfd.events = events;
	pfd.revents = 0;
	for (;;) {
		if (poll(&pfd, 1, -1) >= 0)
			return (0);
		if (errno != EINTR)
			return (-1);
	}
}

ssize_t
bufsz_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	for (;;) {
		if ((n = read(fd, buf, len)) >= 0)
			return (n);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return (-1);
		if (wait_for(fd, POLLIN) != 0)
			return (-1);
	}
}

int
bufsz_write_all(int fd, const void *buf, size_t len)
{
	const char *p;
	ssize_t n;

	p = buf;
	while (len > 0) {
		if ((n = write(fd, p, len)) > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0) {
			/* A write that takes nothing would loop forever. */
			errno = EIO;
			return (-1);
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return (-1);
		if (wait_for(fd, POLLOUT) != 0)
			return (-1);
	}
	return (0);
}

/* How much the next call may move: at most cap, and no more than is left. */
static size_t
job_want(const struct job *j, size_t cap)
{

	if (j->j_left >= 0 && (uintmax_t)j->j_left < cap)
		return ((size_t)j->j_left);
	return (cap);
}

static void
job_moved(struct job *j, size_t n)
{

	j->j_e->be_moved += (off_t)n;
	if (j->j_left > 0)
		j->j_left -= (off_t)n;
}

static int
job_done(const struct job *j)
{

	return (j->j_left == 0);
}

/*
 * A kernel-side path that moves nothing on its first call may be facing a
 * file whose size is a lie (/proc, /sys: st_size 0 or 4096, and Linux 5.3
 * to 5.18 let copy_file_range return 0 for them); read(2) then has the
 * last word.  Only a pipe is believed, since its 0 is a true end of file.
 */
static int
declines(const struct job *j, int moved)
{

	return (!moved && !S_ISFIFO(j->j_inst->st_mode));
}

/*
 * The path AUTO takes for the pair, and why:
 * - regular to regular: copy_file_range; the kernel copies without a
 *   trip through user space and may clone or copy on the server (NFS).
 * - a pipe on either side (Linux): splice, which moves page references
 *   rather than bytes.
 * - regular to a character device or socket (Linux): sendfile.
 * - everything else: read/write.  AUTO never takes mmap.
 * The measurements behind this are at the top of the file.
 */
static enum bufsz_path
auto_path(const struct job *j)
{
	mode_t it, ot;

	it = j->j_inst->st_mode & S_IFMT;
	ot = j->j_outst->st_mode & S_IFMT;
#ifdef HAVE_CFR
	if (it == S_IFREG && ot == S_IFREG)
		return (BUFSZ_PATH_CFR);
#endif
#ifdef __linux__
	if (it == S_IFIFO || ot == S_IFIFO)
		return (BUFSZ_PATH_SPLICE);
	if (it == S_IFREG && (ot == S_IFCHR || ot == S_IFSOCK))
		return (BUFSZ_PATH_SENDFILE);
#endif
	(void)it;
	(void)ot;
	return (BUFSZ_PATH_RW);
}

/*
 * Whether path p can be tried at all for the pair.  A regular input that
 * reports a size of 0 goes to read/write: it is either empty (one read
 * says so) or a /proc file whose size is a lie.
 */
static int
possible(const struct job *j, enum bufsz_path p)
{
	int inreg, outreg;

	inreg = S_ISREG(j->j_inst->st_mode);
	outreg = S_ISREG(j->j_outst->st_mode);
	if (inreg && j->j_inst->st_size == 0)
		return (p == BUFSZ_PATH_RW);
	switch (p) {
	case BUFSZ_PATH_RW:
		return (1);
	case BUFSZ_PATH_MMAP:
		return (inreg);
#ifdef HAVE_CFR
	case BUFSZ_PATH_CFR:
		return (inreg && outreg);
#endif
#ifdef __linux__
	case BUFSZ_PATH_SENDFILE:
		return (inreg || S_ISBLK(j->j_inst->st_mode));
	case BUFSZ_PATH_SPLICE:
		return (1);
#endif
	default:
		(void)outreg;
		return (0);
	}
}

/* Copy j_left bytes (or to end of input) by the chosen path. */
static int
copy_span(struct job *j)
{
	enum bufsz_path p;
	int r;

	p = j->j_e->be_force;
	if (p == BUFSZ_PATH_AUTO)
		p = auto_path(j);
	if (!possible(j, p))
		p = BUFSZ_PATH_RW;
	switch (p) {
	case BUFSZ_PATH_MMAP:
		r = copy_mmap(j);
		break;
#ifdef HAVE_CFR
	case BUFSZ_PATH_CFR:
		r = copy_cfr(j);
		break;
#endif
#ifdef __linux__
	case BUFSZ_PATH_SENDFILE:
		r = copy_sendfile(j);
		break;
	case BUFSZ_PATH_SPLICE:
		if (S_ISFIFO(j->j_inst->st_mode) ||
		    S_ISFIFO(j->j_outst->st_mode))
			r = copy_splice(j);
		else
			r = copy_splice_via(j);
		break;
#endif
	default:
		r = REFUSED;
		break;
	}
	if (r != REFUSED) {
		j->j_e->be_last = p;
		return (r);
	}
	j->j_e->be_last = BUFSZ_PATH_RW;
	return (copy_rw(j));
}

/* The path that always works: through the buffer, a read at a time. */
static int
copy_rw(struct job *j)
{
	size_t len, blk;
	ssize_t n;
	char *buf;

	if ((buf = bufsz_buffer(j->j_e, j->j_inst, j->j_outst, &len)) == NULL)
		return (BUFSZ_EREAD);
	blk = j->j_outst->st_blksize > 0 ? (size_t)j->j_outst->st_blksize :
	    bufsz_pagesize();
	while (!job_done(j)) {
		if ((n = bufsz_read(j->j_in, buf, job_want(j, len))) < 0)
			return (BUFSZ_EREAD);
		if (n == 0)
			break;
		if (j->j_holes) {
			if (write_holey(j->j_out, buf, (size_t)n, blk) != 0)
				return (BUFSZ_EWRITE);
		} else if (bufsz_write_all(j->j_out, buf, (size_t)n) != 0)
			return (BUFSZ_EWRITE);
		job_moved(j, (size_t)n);
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
 * mmap: bounded windows of a regular input written straight from the
 * mapping, saving read(2)'s copy into the buffer.  Never chosen by AUTO:
 * it lost to read/write in every case measured (top of file).
 *
 * A file truncated under the mapping does not kill us: the kernel's copy
 * from a page beyond end of file makes write(2) fail with EFAULT (or come
 * back short, and the retry fails), never a SIGBUS, because we never touch
 * the pages ourselves.  That is the input's fault, so it is reported as
 * BUFSZ_EREAD with errno EIO.
 */
static int
copy_mmap(struct job *j)
{
	off_t start, pos, end, base;
	size_t len, skew, pg, win;
	char *map;
	int r;

	pg = bufsz_pagesize();
	win = j->j_e->be_force_size != 0 ? j->j_e->be_force_size :
	    MMAP_WINDOW;
	if ((start = pos = lseek(j->j_in, 0, SEEK_CUR)) == -1)
		return (REFUSED);
	end = j->j_inst->st_size;
	if (j->j_left >= 0 && end - pos > j->j_left)
		end = pos + j->j_left;
	r = BUFSZ_OK;
	while (pos < end) {
		base = pos - pos % (off_t)pg;
		skew = (size_t)(pos - base);
		len = (size_t)MIN((off_t)win, end - base);
		map = mmap(NULL, len, PROT_READ, MAP_SHARED, j->j_in, base);
		if (map == MAP_FAILED)
			break;
		if (bufsz_write_all(j->j_out, map + skew, len - skew) != 0) {
			r = errno == EFAULT ? BUFSZ_EREAD : BUFSZ_EWRITE;
			if (r == BUFSZ_EREAD)
				errno = EIO;
		}
		(void)munmap(map, len);
		if (r != BUFSZ_OK)
			return (r);
		job_moved(j, len - skew);
		pos = base + (off_t)len;
	}
	if (pos == start)
		return (REFUSED);
	if (lseek(j->j_in, pos, SEEK_SET) == -1)
		return (BUFSZ_EREAD);
	/*
	 * Whatever lies past the size fstat gave (a file that grew, or a
	 * window mmap refused) is read/write's to copy.
	 */
	return (job_done(j) ? BUFSZ_OK : copy_rw(j));
}

#if defined(HAVE_CFR) || defined(__linux__)
/*
 * A non-blocking descriptor on either side of a kernel-side path said
 * EAGAIN, and the call does not say which: wait until both are ready.
 */
static int
wait_either(const struct job *j)
{

	if (wait_for(j->j_in, POLLIN) != 0)
		return (-1);
	return (wait_for(j->j_out, POLLOUT));
}

/*
 * The loop every kernel-side path shares: move capped chunks until the
 * input ends.  A refusal, or a first call that moves nothing where the
 * input may still have bytes (declines()), hands the rest to read/write.
 */
static int
copy_kernel(struct job *j, ssize_t (*move)(const struct job *, size_t))
{
	ssize_t n;
	int moved;

	for (moved = 0; !job_done(j);) {
		n = move(j, job_want(j, CHUNK_MAX));
		if (n > 0) {
			job_moved(j, (size_t)n);
			moved = 1;
			continue;
		}
		if (n == 0)
			return (declines(j, moved) ? REFUSED : BUFSZ_OK);
		if (errno == EAGAIN && wait_either(j) == 0)
			continue;
		if (errno != EINTR)
			return (REFUSED);
	}
	return (BUFSZ_OK);
}
#endif

#ifdef HAVE_CFR
/*
 * copy_file_range: between regular files, the kernel copies (or clones)
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

static int
copy_cfr(struct job *j)
{

	return (copy_kernel(j, move_cfr));
}
#endif

#ifdef __linux__

/*
 * sendfile: from a regular file to anything, in the kernel.  Preferred
 * to splice through the private pipe for a character device or socket
 * because it takes one system call per chunk rather than two (top of
 * file).  Errors hand over to read/write as in copy_cfr().
 */
static ssize_t
move_sendfile(const struct job *j, size_t len)
{

	return (sendfile(j->j_out, j->j_in, NULL, len));
}

static int
copy_sendfile(struct job *j)
{

	return (copy_kernel(j, move_sendfile));
}

/* splice with a pipe on one side (or both): one call moves each chunk. */
static ssize_t
move_splice(const struct job *j, size_t len)
{

	return (splice(j->j_in, NULL, j->j_out, NULL, len,
	    SPLICE_F_MOVE | SPLICE_F_MORE));
}

static int
copy_splice(struct job *j)
{

	return (copy_kernel(j, move_splice));
}

/*
 * The private pipe for splicing between two non-pipes, made once per
 * engine.  It is enlarged (where the system allows) so that each pair of
 * splices moves more than the default 64 KiB: see PIPE_WANT.
 */
static int
pipe_open(struct bufsz_engine *e)
{

	if (e->be_pipe[0] != -1)
		return (0);
	if (pipe2(e->be_pipe, O_CLOEXEC) != 0) {
		e->be_pipe[0] = e->be_pipe[1] = -1;
		return (-1);
	}
	(void)fcntl(e->be_pipe[1], F_SETPIPE_SZ, PIPE_WANT);
	return (0);
}

/* Bytes were left in the private pipe by a failure: drop the pipe. */
static void
pipe_discard(struct bufsz_engine *e)
{

	(void)close(e->be_pipe[0]);
	(void)close(e->be_pipe[1]);
	e->be_pipe[0] = e->be_pipe[1] = -1;
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
	if ((buf = bufsz_buffer(e, j->j_inst, j->j_outst, &blen)) == NULL)
		return (BUFSZ_EWRITE);
	while (len > 0) {
		if ((n = bufsz_read(e->be_pipe[0], buf, MIN(blen, len))) <= 0)
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
	struct bufsz_engine *e;
	ssize_t m;
	int r;

	e = j->j_e;
	while (n > 0) {
		m = splice(e->be_pipe[0], NULL, j->j_out, NULL, n,
		    SPLICE_F_MOVE | SPLICE_F_MORE);
		if (m > 0) {
			n -= (size_t)m;
			continue;
		}
		if (m < 0 && errno == EINTR)
			continue;
		if (m < 0 && errno == EAGAIN &&
		    wait_for(j->j_out, POLLOUT) == 0)
			continue;
		if ((r = pipe_drain(j, n)) != BUFSZ_OK) {
			pipe_discard(e);
			return (r);
		}
		return (REFUSED);
	}
	return (BUFSZ_OK);
}

/*
 * splice between two non-pipes goes through the engine's private pipe:
 * input to pipe, then pipe to output until the pipe is empty again, so
 * that the pipe is empty between chunks and whenever we return.
 */
/*
 * Spliced pages are the file's own, by reference: a regular input
 * truncated between the splice into the private pipe and the one out of
 * it zeroes what the pipe still holds, and the copy would come out torn
 * (the bytes before the new end, zeros, then older data).  Reading the
 * input's size once the chunk is out turns that into the error the mmap
 * path gives.  A pipe the caller reads from is beyond such a check; see
 * bufsz(3).
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

static int
copy_splice_via(struct job *j)
{
	struct bufsz_engine *e;
	size_t cap;
	ssize_t n;
	off_t size0;
	int moved, r;

	e = j->j_e;
	if (pipe_open(e) != 0)
		return (REFUSED);
	size0 = input_size(j);
	if ((n = fcntl(e->be_pipe[1], F_GETPIPE_SZ)) <= 0)
		n = 65536;
	cap = MIN((size_t)n, CHUNK_MAX);
	for (moved = 0; !job_done(j);) {
		n = splice(j->j_in, NULL, e->be_pipe[1], NULL, job_want(j, cap),
		    SPLICE_F_MOVE | SPLICE_F_MORE);
		if (n > 0) {
			if ((r = pipe_to_out(j, (size_t)n)) != BUFSZ_OK &&
			    r != REFUSED)
				return (r);
			if (input_shrank(j, size0))
				return (BUFSZ_EREAD);
			job_moved(j, (size_t)n);
			moved = 1;
			if (r == REFUSED)
				return (REFUSED);
			continue;
		}
		if (n == 0)
			return (declines(j, moved) ? REFUSED : BUFSZ_OK);
		if (errno == EAGAIN && wait_for(j->j_in, POLLIN) == 0)
			continue;
		if (errno != EINTR)
			return (REFUSED);
	}
	return (BUFSZ_OK);
}
#endif /* __linux__ */

/*
 * BUFSZ_SPARSE: copy only the input's data extents, seeking the output
 * over its holes, then set the output's size to the input's (the caller
 * promises a new, empty output).  Where the file system cannot report
 * holes, read/write turns blocks of zeros into holes instead.
 */
static int
copy_sparse(struct job *j)
{
#ifdef SEEK_DATA
	off_t pos, data, hole, delta, end;
	int r;

	if ((pos = lseek(j->j_in, 0, SEEK_CUR)) == -1 ||
	    (delta = lseek(j->j_out, 0, SEEK_CUR)) == -1)
		return (REFUSED);
	delta -= pos;
	j->j_holes = 1;
	for (;;) {
		if ((data = lseek(j->j_in, pos, SEEK_DATA)) == -1) {
			if (errno == ENXIO)
				break;		/* only a hole is left */
			return (REFUSED);	/* the fs cannot say */
		}
		if ((hole = lseek(j->j_in, data, SEEK_HOLE)) == -1 ||
		    lseek(j->j_in, data, SEEK_SET) == -1)
			return (BUFSZ_EREAD);
		if (lseek(j->j_out, data + delta, SEEK_SET) == -1)
			return (BUFSZ_EWRITE);
		j->j_left = hole - data;
		if ((r = copy_span(j)) != BUFSZ_OK)
			return (r);
		pos = hole;
	}
	if ((end = lseek(j->j_in, 0, SEEK_END)) == -1)
		return (BUFSZ_EREAD);
	if (ftruncate(j->j_out, end + delta) != 0 ||
	    lseek(j->j_out, end + delta, SEEK_SET) == -1)
		return (BUFSZ_EWRITE);
	return (BUFSZ_OK);
#else
	(void)j;
	return (REFUSED);
#endif
}

int
bufsz_copy(struct bufsz_engine *e, int in, const struct stat *inst, int out,
    const struct stat *outst)
{
	struct stat isb, osb;
	struct job j;
	off_t end;
	int r;

	if (inst == NULL) {
		if (fstat(in, &isb) != 0)
			return (BUFSZ_EREAD);
		inst = &isb;
	}
	if (outst == NULL) {
		if (fstat(out, &osb) != 0)
			return (BUFSZ_EWRITE);
		outst = &osb;
	}
	e->be_moved = 0;
	e->be_last = BUFSZ_PATH_RW;	/* until a path takes the copy */
	j.j_e = e;
	j.j_in = in;
	j.j_out = out;
	j.j_inst = inst;
	j.j_outst = outst;
	j.j_left = -1;
	j.j_holes = 0;
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
