/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A snapshot of everything below a root, taken without following a
 * link: each entry's type, mode, size, identity, time, the hash of a
 * regular file's bytes and a link's text.  Two snapshots of a
 * scratch area, before and after a run, say what the run changed.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

static struct snap	*taking;	/* the snapshot nftw() fills */
static size_t		 rootlen;

/* A hash of a regular file's bytes. */
static int
hash_fd(int fd, uint64_t *hp)
{
	unsigned char buf[65536];
	uint64_t h, w;
	ssize_t i, n;

	h = 0;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (-1);
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&w, buf + i, 8);
			h = mix64(h ^ w);
		}
		for (; i < n; i++)
			h = mix64(h ^ buf[i]);
	}
	*hp = h;
	return (0);
}

/* One entry, met by nftw() without following links. */
static int
add(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct snap *s;
	struct entry *e;
	char buf[4096];
	ssize_t n;
	int fd;

	(void)ftw;
	s = taking;
	if (flag == FTW_NS || flag == FTW_DNR)
		errx(3, "%s: cannot look at it", path);
	s->e = xrealloc(s->e, (s->n + 1) * sizeof(*s->e));
	e = &s->e[s->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path[rootlen] == '\0' ? "." : path + rootlen + 1);
	e->mode = st->st_mode;
	e->size = st->st_size;
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->mtime = st->st_mtim;
	if (S_ISLNK(st->st_mode)) {
		if ((n = readlink(path, buf, sizeof(buf) - 1)) == -1)
			err(3, "readlink %s", path);
		buf[n] = '\0';
		e->link = xstrdup(buf);
	} else if (S_ISREG(st->st_mode)) {
		if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC)) == -1 || hash_fd(fd, &e->hash) == -1)
			err(3, "%s", path);
		(void)close(fd);
	}
	return (0);
}

static int
cmp_entry(const void *a, const void *b)
{

	return (strcmp(((const struct entry *)a)->path,
	    ((const struct entry *)b)->path));
}

/* Everything below root, sorted by path. */
void
snap_take(struct snap *s, const char *root)
{

	memset(s, 0, sizeof(*s));
	taking = s;
	rootlen = strlen(root);
	if (nftw(root, add, 32, FTW_PHYS) == -1)
		err(3, "%s", root);
	qsort(s->e, s->n, sizeof(*s->e), cmp_entry);
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
