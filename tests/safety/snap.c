/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A snapshot of everything below a root, taken without following a
 * link: each entry's type, mode, size, blocks, identity, time, the hash
 * of a regular file's bytes and a link's text.  Two snapshots of a
 * scratch area, before and after a run, say what the run changed.
 *
 * The hash reads only the data of a sparse file (SEEK_DATA, SEEK_HOLE)
 * and skips blocks of zeros, so that a file's hash depends on its bytes
 * alone, not on where its holes are, and a large sparse file costs what
 * its data costs.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

#define	HBLOCK	4096

static void	walk(struct snap *, int, const char *);
static void	add(struct snap *, const char *, const char *,
		    const struct stat *, int);
static int	cmp_entry(const void *, const void *);
static int	cmp_name(const void *, const void *);

static uint64_t
hash_block(off_t off, const unsigned char *p, size_t n)
{
	uint64_t h, w;
	size_t i;

	h = mix64((uint64_t)off ^ 0x5851f42d4c957f2dULL);
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = mix64(h ^ w);
	}
	for (; i < n; i++)
		h = mix64(h ^ p[i]);
	return (h);
}

static int
all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return (0);
	return (1);
}

/* Hash the bytes in [from, to) of fd, block by aligned block. */
static int
hash_range(int fd, off_t from, off_t to, uint64_t *h)
{
	unsigned char buf[HBLOCK];
	off_t at, end;
	ssize_t n;

	for (at = from - from % HBLOCK; at < to; at = end) {
		end = at + HBLOCK;
		if ((n = pread(fd, buf, HBLOCK, at)) == -1) {
			if (errno == EINTR) {
				end = at;
				continue;
			}
			return (-1);
		}
		if (n == 0)
			break;
		if (!all_zero(buf, (size_t)n))
			*h += hash_block(at, buf, (size_t)n);
	}
	return (0);
}

/*
 * The hash of a regular file's bytes: the sum over its aligned 4 KiB
 * blocks that are not all zeros of a hash of (offset, bytes), and the
 * size.
 */
int
hash_fd(int fd, uint64_t *hp)
{
	struct stat st;
	off_t data, done, hole;
	uint64_t h;

	if (fstat(fd, &st) == -1)
		return (-1);
	h = mix64((uint64_t)st.st_size);
	done = 0;
	for (data = 0; data < st.st_size; data = hole) {
		if (host_next_data(fd, data, st.st_size, &data, &hole) == -1)
			break;
		/* Round out to whole blocks, so none is hashed twice. */
		if (hole % HBLOCK != 0)
			hole += HBLOCK - hole % HBLOCK;
		if (hash_range(fd, data < done ? done : data, hole, &h) == -1)
			return (-1);
		done = hole;
	}
	*hp = h;
	return (0);
}

/* The hash of what path names, following links; its stat too. */
int
hash_path(const char *path, uint64_t *h, struct stat *st)
{
	int fd, r, serrno;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		return (-1);
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode)) {
		(void)close(fd);
		errno = EINVAL;
		return (-1);
	}
	r = hash_fd(fd, h);
	serrno = errno;
	(void)close(fd);
	errno = serrno;
	return (r);
}

/* Whether a file has holes worth keeping: 64 KiB less than its size. */
int
has_holes(const struct stat *st)
{

	return (S_ISREG(st->st_mode) &&
	    (off_t)st->st_blocks * 512 + 65536 < st->st_size);
}

void
snap_take(struct snap *s, const char *root)
{
	struct stat st;
	int fd;

	memset(s, 0, sizeof(*s));
	if (lstat(root, &st) == -1)
		err(3, "%s", root);
	if ((fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(3, "%s", root);
	add(s, ".", NULL, &st, -1);
	walk(s, fd, "");
	(void)close(fd);
	qsort(s->e, s->n, sizeof(*s->e), cmp_entry);
}

/* An entry; its link text or bytes are read through (dfd, name). */
static void
add(struct snap *s, const char *path, const char *name, const struct stat *st,
    int dfd)
{
	struct entry *e;
	char buf[4096];
	ssize_t n;
	int fd;

	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 256 : s->cap * 2;
		s->e = xrealloc(s->e, s->cap * sizeof(*s->e));
	}
	e = &s->e[s->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->mode = st->st_mode;
	e->size = st->st_size;
	e->blocks = st->st_blocks;
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->mtime = st->st_mtim;
	if (dfd == -1)
		return;
	if (S_ISLNK(st->st_mode)) {
		if ((n = readlinkat(dfd, name, buf, sizeof(buf) - 1)) == -1)
			err(3, "readlink %s", path);
		buf[n] = '\0';
		e->link = xstrdup(buf);
	} else if (S_ISREG(st->st_mode)) {
		if ((fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC)) == -1 || hash_fd(fd, &e->hash) ==
		    -1)
			err(3, "%s", path);
		(void)close(fd);
	}
}

static int
cmp_name(const void *a, const void *b)
{

	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* dfd is the directory whose entries are named prefix + name. */
static void
walk(struct snap *s, int dfd, const char *prefix)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	char **names, *child;
	size_t i, n, cap;
	int cfd, dup_fd;

	if ((dup_fd = dup(dfd)) == -1 || (d = fdopendir(dup_fd)) == NULL)
		err(3, "%s", *prefix != '\0' ? prefix : ".");
	names = NULL;
	n = cap = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
	}
	(void)closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		child = xasprintf("%s%s", prefix, names[i]);
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == -1)
			err(3, "%s", child);
		add(s, child, names[i], &st, dfd);
		if (S_ISDIR(st.st_mode)) {
			if ((cfd = openat(dfd, names[i], O_RDONLY |
			    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1)
				err(3, "%s", child);
			free(child);
			child = xasprintf("%s%s/", prefix, names[i]);
			walk(s, cfd, child);
			(void)close(cfd);
		}
		free(child);
		free(names[i]);
	}
	free(names);
}

static int
cmp_entry(const void *a, const void *b)
{

	return (strcmp(((const struct entry *)a)->path,
	    ((const struct entry *)b)->path));
}

const struct entry *
snap_get(const struct snap *s, const char *path)
{
	struct entry key;

	key.path = (char *)(uintptr_t)path;
	return (bsearch(&key, s->e, s->n, sizeof(*s->e), cmp_entry));
}

void
snap_free(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->e[i].path);
		free(s->e[i].link);
	}
	free(s->e);
	memset(s, 0, sizeof(*s));
}
