/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * An input that cannot be read by position (a pipe, a terminal, a file
 * whose size lies), read to its end while holding what the selection
 * needs of it: its last N bytes, its last N lines, or all of it (-r).
 *
 * Memory holds it first, up to a share of the memory this process may
 * use (libbufsz's probe: the machine's, or its cgroup's limit).  What
 * must be held beyond that goes to a temporary file in TMPDIR, which is
 * then read by position as any file is.  When no temporary file can be
 * made or written (TMPDIR missing, full, not a directory), or the file
 * has taken its share of the free space, memory takes it all after all,
 * up to a larger share; only past that does tail fail.  The file is made
 * when an input first needs it, relative to TMPDIR opened before the
 * sandbox was entered (hold_tmpdir()), as capability mode requires; it
 * has no name, or its name is removed as soon as it is made, and it goes
 * when it is closed.
 *
 * What must be held has no bound of its own: tail -n 1 of an input with
 * no newline holds all of it, and FreeBSD's and GNU's tail grow in
 * memory until malloc fails, which on a system that overcommits means
 * until something is killed.  Here the shares bound it: tail fails,
 * saying the input is too large, before it takes most of the memory or
 * fills a file system.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"
#include "select.h"

/*
 * Memory first, up to an eighth of the memory the process may use: that
 * leaves most of the machine to the rest of a pipeline and to the page
 * cache, and still holds a count of hundreds of megabytes in memory on a
 * machine of a few gigabytes.
 */
#define	SOFT_SHARE	8
/*
 * Memory after all, when no temporary file will do, up to half: beyond
 * that a system that overcommits would kill something rather than fail
 * an allocation.
 */
#define	HARD_SHARE	2
/* A temporary file takes at most half the space free where it is made. */
#define	DISK_SHARE	2
/* Where the host does not say how much memory there is. */
#define	SOFT_UNKNOWN	((size_t)16 << 20)
/*
 * A temporary file's name: random bytes in hexadecimal, more than the
 * six characters of mkstemp(3) hold; and how many names are tried before
 * TMPDIR is taken to be full of them.
 */
#define	NAME_RANDOM	8
#define	NAME_TRIES	100

/* What make_room() did. */
#define	ROOM		0	/* there is room in h_buf */
#define	SPILLED		1	/* the held bytes are in h_spill */
#define	FULL		2	/* nothing can take more */

/* An input being held, and where it may go. */
struct holding {
	struct hold	*g_h;
	struct input	*g_in;
	int		 g_lines;
	uint64_t	 g_n;
	size_t		 g_soft;	/* memory first, up to this */
	size_t		 g_hard;	/* memory after all, up to this */
	int		 g_nofile;	/* no temporary file: memory only */
	int		 g_errno;	/* why not, or 0 */
	off_t		 g_flen;	/* bytes in the file */
	off_t		 g_fmax;	/* the most it may take */
};

/* TMPDIR, its name, and the descriptor opened or why it could not be. */
static const char *tmpdir_name;
static int	 tmpdir = -1;
static int	 tmpdir_errno;

static void	set_bounds(struct holding *);
static int	make_room(struct holding *);
static int	grow(struct hold *, size_t);
static void	drop(struct hold *, size_t);
static int	spill(struct holding *);
static int	temp_file(void);
static int	temp_named(void);
static int	spill_rest(struct holding *);
static int	unspill(struct holding *, const char *, size_t);
static int	too_much(struct holding *);

/*
 * Read in to its end.  0 with h filled: the held bytes in h_buf, or,
 * when h_spill is not -1, in that temporary file (from its start).  -1
 * after an error, said.
 */
int
hold_input(struct hold *h, struct input *in, int lines, uint64_t n)
{
	struct holding g;
	ssize_t r;
	int rv;

	memset(&g, 0, sizeof(g));
	g.g_h = h;
	g.g_in = in;
	g.g_lines = lines;
	g.g_n = n;
	set_bounds(&g);
	h->h_spill = -1;
	h->h_len = 0;
	(void)window_buffer(&in->in_st, &h->h_cap);
	if ((h->h_buf = malloc(h->h_cap)) == NULL)
		err(1, NULL);
	for (rv = 0;;) {
		if (h->h_len == h->h_cap) {
			if ((rv = make_room(&g)) == SPILLED)
				rv = spill_rest(&g);
			if (rv == FULL)
				rv = too_much(&g);
			if (rv != ROOM) {
				rv = rv == SPILLED ? 0 : -1;
				break;
			}
			/* Memory again may be full at once. */
			continue;
		}
		r = bufsz_read(in->in_fd, h->h_buf + h->h_len,
		    h->h_cap - h->h_len);
		if (r < 0) {
			ierr(in->in_name);
			rv = -1;
			break;
		}
		if (r == 0)
			break;
		h->h_len += (size_t)r;
	}
	if (rv != 0)
		hold_free(h);
	return (rv);
}

void
hold_free(struct hold *h)
{

	free(h->h_buf);
	h->h_buf = NULL;
	if (h->h_spill != -1)
		(void)close(h->h_spill);
	h->h_spill = -1;
}

/*
 * TMPDIR, opened once, where temporary files will be made: a descriptor,
 * or -1 with the failure kept, to be said should a file be needed.
 */
int
hold_tmpdir(void)
{
	int fd;

	if (tmpdir_name != NULL)
		return (tmpdir);
	if ((tmpdir_name = getenv("TMPDIR")) == NULL || *tmpdir_name == '\0')
		tmpdir_name = _PATH_TMP;
	/* Above the standard descriptors, which may be closed yet. */
	if ((fd = open(tmpdir_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1 || (tmpdir = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) ==
	    -1)
		tmpdir_errno = errno;
	if (fd != -1)
		(void)close(fd);
	return (tmpdir);
}

/* The two shares of memory, in bytes this process can address. */
static void
set_bounds(struct holding *g)
{
	uint64_t mem;

	bufsz_limits(&mem, NULL);
	if (mem == 0) {
		g->g_soft = SOFT_UNKNOWN;
		g->g_hard = SIZE_MAX;
		return;
	}
	g->g_soft = mem / SOFT_SHARE > SIZE_MAX ? SIZE_MAX :
	    (size_t)(mem / SOFT_SHARE);
	g->g_hard = mem / HARD_SHARE > SIZE_MAX ? SIZE_MAX :
	    (size_t)(mem / HARD_SHARE);
}

/*
 * A full buffer: drop what is no longer needed when that frees half of
 * it (less would have us move most of it for a little room, over and
 * over), else grow it up to the first share, else spill it to a
 * temporary file, else grow it up to the second share, else drop what
 * little may be dropped.  Anything dropped is dropped for good.
 */
static int
make_room(struct holding *g)
{
	struct hold *h;
	size_t keep;

	h = g->g_h;
	keep = hold_keep(h->h_buf, h->h_len, g->g_lines, g->g_n);
	if (keep >= h->h_cap / 2) {
		drop(h, keep);
		return (ROOM);
	}
	if (h->h_cap < g->g_soft && grow(h, g->g_soft) == 0)
		return (ROOM);
	drop(h, keep);
	if (!g->g_nofile && spill(g) == 0)
		return (SPILLED);
	if (h->h_cap < g->g_hard && grow(h, g->g_hard) == 0)
		return (ROOM);
	return (h->h_len < h->h_cap ? ROOM : FULL);
}

/* h_buf twice as large, at most max; -1 when memory will not have it. */
static int
grow(struct hold *h, size_t max)
{
	size_t cap;
	char *p;

	cap = h->h_cap > max / 2 ? max : h->h_cap * 2;
	if ((p = realloc(h->h_buf, cap)) == NULL)
		return (-1);
	h->h_buf = p;
	h->h_cap = cap;
	return (0);
}

/* The first keep bytes of h_buf let go. */
static void
drop(struct hold *h, size_t keep)
{

	if (keep == 0)
		return;
	memmove(h->h_buf, h->h_buf + keep, h->h_len - keep);
	h->h_len -= keep;
}

/*
 * The held bytes into a new temporary file, removed at once, and h_buf
 * made the policy's size again, to read the rest through; 0, or -1 with
 * g_nofile set and the held bytes where they were.
 */
static int
spill(struct holding *g)
{
	struct statvfs sv;
	struct hold *h;
	size_t len;
	char *p;
	int fd;

	h = g->g_h;
	g->g_nofile = 1;
	if ((fd = temp_file()) == -1) {
		g->g_errno = errno;
		return (-1);
	}
	g->g_fmax = INT64_MAX;
	if (fstatvfs(fd, &sv) == 0)
		g->g_fmax = (off_t)((uint64_t)sv.f_bavail * sv.f_frsize /
		    DISK_SHARE);
	if ((off_t)h->h_len > g->g_fmax) {
		(void)close(fd);
		return (-1);
	}
	if (bufsz_write_all(fd, h->h_buf, h->h_len) != 0) {
		g->g_errno = errno;
		(void)close(fd);
		return (-1);
	}
	g->g_nofile = 0;
	g->g_flen = (off_t)h->h_len;
	h->h_spill = fd;
	h->h_len = 0;
	(void)window_buffer(&g->g_in->in_st, &len);
	if (len < h->h_cap && (p = realloc(h->h_buf, len)) != NULL) {
		h->h_buf = p;
		h->h_cap = len;
	}
	return (0);
}

/*
 * A new temporary file in TMPDIR, with no name left; -1 with errno set.
 * O_TMPFILE makes it with none, where the host and the file system can.
 */
static int
temp_file(void)
{
	int fd;

	if (hold_tmpdir() == -1) {
		errno = tmpdir_errno;
		return (-1);
	}
	fd = -1;
#ifdef O_TMPFILE
	/* A kernel older than O_TMPFILE says EISDIR. */
	if ((fd = openat(tmpdir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC,
	    S_IRUSR | S_IWUSR)) == -1 && errno != EOPNOTSUPP &&
	    errno != EISDIR)
		return (-1);
#endif
	return (fd != -1 ? fd : temp_named());
}

/*
 * The file made under a random name that no other file has, relative to
 * TMPDIR, and the name removed at once: mkstemp(3) makes a file by its
 * path only, which capability mode refuses.
 */
static int
temp_named(void)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char r[NAME_RANDOM];
	char name[sizeof("tail.") + 2 * NAME_RANDOM];
	size_t i;
	int fd, tries;

	for (tries = 0; tries < NAME_TRIES; tries++) {
		if (getentropy(r, sizeof(r)) != 0)
			return (-1);
		memcpy(name, "tail.", 5);
		for (i = 0; i < sizeof(r); i++) {
			name[5 + 2 * i] = hex[r[i] >> 4];
			name[6 + 2 * i] = hex[r[i] & 0xf];
		}
		name[5 + 2 * i] = '\0';
		if ((fd = openat(tmpdir, name, O_RDWR | O_CREAT | O_EXCL |
		    O_CLOEXEC, S_IRUSR | S_IWUSR)) != -1) {
			(void)unlinkat(tmpdir, name, 0);
			return (fd);
		}
		if (errno != EEXIST)
			return (-1);
	}
	return (-1);
}

/*
 * The rest of the input after the held bytes, into the temporary file,
 * through h_buf.  SPILLED at the input's end; ROOM when the file would
 * take no more and memory holds it all again; FULL, or -1 after an error
 * of the input, said.
 */
static int
spill_rest(struct holding *g)
{
	struct hold *h;
	ssize_t r;

	h = g->g_h;
	for (;;) {
		r = bufsz_read(g->g_in->in_fd, h->h_buf, h->h_cap);
		if (r < 0) {
			ierr(g->g_in->in_name);
			return (-1);
		}
		if (r == 0)
			return (SPILLED);
		if (g->g_flen + r > g->g_fmax)
			return (unspill(g, h->h_buf, (size_t)r));
		if (bufsz_write_all(h->h_spill, h->h_buf, (size_t)r) != 0) {
			g->g_errno = errno;
			return (unspill(g, h->h_buf, (size_t)r));
		}
		g->g_flen += r;
	}
}

/*
 * The temporary file read back into memory, with the len bytes at p
 * read after it, and let go.  ROOM, or FULL when memory cannot hold it.
 */
static int
unspill(struct holding *g, const char *p, size_t len)
{
	struct hold *h;
	size_t flen, cap;
	char *buf;

	h = g->g_h;
	g->g_nofile = 1;
	/* Compared as a file size first: a 32-bit size_t would cut it. */
	if ((uint64_t)g->g_flen > g->g_hard)
		return (FULL);
	flen = (size_t)g->g_flen;
	if (len > g->g_hard - flen)
		return (FULL);
	cap = flen + len;
	if ((buf = malloc(cap)) == NULL)
		return (FULL);
	if (pread_full(h->h_spill, buf, flen, 0) != (ssize_t)flen) {
		if (g->g_errno == 0)
			g->g_errno = errno;
		free(buf);
		return (FULL);
	}
	memcpy(buf + flen, p, len);
	free(h->h_buf);
	h->h_buf = buf;
	h->h_cap = cap;
	h->h_len = flen + len;
	(void)close(h->h_spill);
	h->h_spill = -1;
	return (ROOM);
}

/*
 * Neither memory nor a temporary file can hold what must be shown: said
 * as the temporary file's failure, by its directory's name, when it had
 * one, since that is what a user may mend; else the input is too large.
 * -1.
 */
static int
too_much(struct holding *g)
{

	if (g->g_errno != 0) {
		errno = g->g_errno;
		ierr(tmpdir_name);
	} else {
		errno = EFBIG;
		ierr(g->g_in->in_name);
	}
	return (-1);
}
