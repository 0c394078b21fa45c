/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * An input that cannot be read by position (a pipe, a terminal, a file
 * whose size lies), read to its end while holding what the selection
 * needs of it: its last N bytes or lines, or all of it (-r).
 *
 * What must be held has no bound of its own: tail -n 1 of an input with
 * no newline holds all of it.  Memory holds it up to an eighth of the
 * memory the process may use (the machine's, or its cgroup's limit);
 * beyond that it goes to a temporary file in TMPDIR, which the caller
 * then reads by position, up to half the space free there.  When no
 * temporary file can be made, memory holds it up to half.  Past these
 * bounds tail fails for the input, where FreeBSD's tail grows until
 * malloc fails, which on a system that overcommits means until something
 * is killed.
 *
 * The file is made when an input first needs one, relative to TMPDIR
 * opened before the sandbox is entered, as capability mode requires.  It
 * has no name, or its name is removed at once.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"
#include "select.h"

#define	SOFT_SHARE	8	/* of the memory: held there first */
#define	HARD_SHARE	2	/* of the memory, when no file will do */
#define	DISK_SHARE	2	/* of the space free for the file */
#define	SOFT_UNKNOWN	((size_t)16 << 20)	/* the memory not known */

/* What make_room() did. */
#define	ROOM		0
#define	SPILLED		1
#define	FULL		2

static const char *tmpdir_name;
static int	 tmpdir = -1;
static int	 tmpdir_errno;

static int	make_room(struct hold *, int, uint64_t, int *);
static int	grow(struct hold *, size_t);
static int	spill(struct hold *, int *);
static int	spill_rest(struct hold *, struct input *);
static int	temp_file(void);
static size_t	share(int);

/*
 * Read in to its end: 0 with the bytes held in h_buf or, when h_spill is
 * not -1, in that file.  -1 after an error, said.
 */
int
hold_input(struct hold *h, struct input *in, int lines, uint64_t n)
{
	ssize_t r;
	int ferr, room;

	h->h_spill = -1;
	h->h_len = 0;
	if (bufsz_buffer(&in->in_st, &outst, &h->h_cap) == NULL ||
	    (h->h_buf = malloc(h->h_cap)) == NULL)
		err(1, NULL);
	for (ferr = -1;;) {
		if (h->h_len == h->h_cap &&
		    (room = make_room(h, lines, n, &ferr)) != ROOM) {
			if (room == SPILLED && spill_rest(h, in) == 0)
				return (0);
			if (room == FULL) {
				/* Said by TMPDIR's name, which a user may mend. */
				errno = ferr > 0 ? ferr : EFBIG;
				ierr(ferr > 0 ? tmpdir_name : in->in_name);
			}
			break;
		}
		if ((r = bufsz_read(in->in_fd, h->h_buf + h->h_len,
		    h->h_cap - h->h_len)) < 0) {
			ierr(in->in_name);
			break;
		}
		if (r == 0)
			return (0);
		h->h_len += (size_t)r;
	}
	hold_free(h);
	return (-1);
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
 * TMPDIR, opened once: a descriptor above the standard ones, which may
 * be closed yet, or -1 with the failure kept for when a file is needed.
 */
int
hold_tmpdir(void)
{
	int fd;

	if (tmpdir_name != NULL)
		return (tmpdir);
	if ((tmpdir_name = getenv("TMPDIR")) == NULL || *tmpdir_name == '\0')
		tmpdir_name = _PATH_TMP;
	if ((fd = open(tmpdir_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1 || (tmpdir = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) ==
	    -1)
		tmpdir_errno = errno;
	if (fd != -1)
		(void)close(fd);
	return (tmpdir);
}

/* A share of the memory the process may use, in bytes. */
static size_t
share(int part)
{
	uint64_t mem;

	bufsz_limits(&mem, NULL);
	if (mem == 0)
		return (part == SOFT_SHARE ? SOFT_UNKNOWN : SIZE_MAX);
	return (mem / part > SIZE_MAX ? SIZE_MAX : (size_t)(mem / part));
}

/*
 * A full buffer: what is no longer needed dropped when that frees half
 * of it (less would move most of it for a little room, over and over);
 * else the buffer grows up to the first share; else it goes to a
 * temporary file (*ferr: -1 until one was tried, then 0 or why it
 * failed); else it grows up to the second share; else what little can
 * go goes.
 */
static int
make_room(struct hold *h, int lines, uint64_t n, int *ferr)
{
	size_t keep;

	keep = hold_keep(h->h_buf, h->h_len, lines, n);
	if (keep < h->h_cap / 2 && grow(h, share(SOFT_SHARE)) == 0)
		return (ROOM);
	if (keep > 0) {
		memmove(h->h_buf, h->h_buf + keep, h->h_len - keep);
		h->h_len -= keep;
	}
	if (keep >= h->h_cap / 2)
		return (ROOM);
	if (*ferr == -1 && spill(h, ferr) == 0)
		return (SPILLED);
	if (grow(h, share(HARD_SHARE)) == 0 || h->h_len < h->h_cap)
		return (ROOM);
	return (FULL);
}

/* h_buf twice as large, at most max; -1 when it cannot grow. */
static int
grow(struct hold *h, size_t max)
{
	size_t cap;
	char *p;

	if (h->h_cap >= max)
		return (-1);
	cap = h->h_cap > max / 2 ? max : h->h_cap * 2;
	if ((p = realloc(h->h_buf, cap)) == NULL)
		return (-1);
	h->h_buf = p;
	h->h_cap = cap;
	return (0);
}

/*
 * The held bytes into a new temporary file; 0, or -1 with *ferr set to
 * why (0: it would take too much of the space).
 */
static int
spill(struct hold *h, int *ferr)
{
	struct statvfs sv;
	int fd;

	*ferr = 0;
	if ((fd = temp_file()) == -1) {
		*ferr = errno;
		return (-1);
	}
	if (fstatvfs(fd, &sv) == 0 &&
	    h->h_len > (uint64_t)sv.f_bavail * sv.f_frsize / DISK_SHARE) {
		(void)close(fd);
		return (-1);
	}
	if (bufsz_write_all(fd, h->h_buf, h->h_len) != 0) {
		*ferr = errno;
		(void)close(fd);
		return (-1);
	}
	h->h_spill = fd;
	return (0);
}

/*
 * The rest of the input into the temporary file, through the engine's
 * buffer; 0 at its end, or -1 after an error, said.
 */
static int
spill_rest(struct hold *h, struct input *in)
{
	struct statvfs sv;
	uint64_t max;
	off_t len;
	size_t blen;
	ssize_t r;
	char *buf;

	len = (off_t)h->h_len;
	free(h->h_buf);
	h->h_buf = NULL;
	max = fstatvfs(h->h_spill, &sv) == 0 ? ((uint64_t)sv.f_bavail *
	    sv.f_frsize + (uint64_t)len) / DISK_SHARE : UINT64_MAX;
	if ((buf = bufsz_buffer(&in->in_st, &outst, &blen)) == NULL)
		err(1, NULL);
	while ((r = bufsz_read(in->in_fd, buf, blen)) > 0) {
		if ((uint64_t)(len += r) > max) {
			errno = EFBIG;
			break;
		}
		if (bufsz_write_all(h->h_spill, buf, (size_t)r) != 0) {
			ierr(tmpdir_name);
			return (-1);
		}
	}
	if (r == 0)
		return (0);
	ierr(in->in_name);
	return (-1);
}

/*
 * A temporary file in TMPDIR with no name left, made relative to its
 * descriptor: by O_TMPFILE where the host and the file system have it (a
 * kernel older than it says EISDIR), else under a random name removed at
 * once, since mkstemp(3) makes a file by path only.  -1 with errno set.
 */
static int
temp_file(void)
{
	char name[sizeof("tail.") + 16];
	uint64_t rnd;
	int fd, tries;

	if (tmpdir == -1) {
		errno = tmpdir_errno;
		return (-1);
	}
#ifdef O_TMPFILE
	if ((fd = openat(tmpdir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC,
	    S_IRUSR | S_IWUSR)) != -1 || (errno != EOPNOTSUPP &&
	    errno != EISDIR))
		return (fd);
#endif
	for (tries = 0; tries < 100; tries++) {
		if (getentropy(&rnd, sizeof(rnd)) != 0)
			return (-1);
		(void)snprintf(name, sizeof(name), "tail.%016" PRIx64, rnd);
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
