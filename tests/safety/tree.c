/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A generated tree is a list of operations (make a directory, a file of
 * this size and layout, a link, a FIFO), applied in order below a
 * scratch root.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

/* Every entry of a tree has this time, far from any copy's. */
#define	TREE_TIME	978307200	/* 2001-01-01 */

static void	apply_one(const struct op *, const char *, int);
static void	write_file(int, const struct op *);
static char	*link_text(const char *, const char *);
static int	behind_link(const struct tree *, size_t);

struct op *
tree_add(struct tree *t, enum op_kind kind, const char *path, const char *arg)
{
	struct op *o;

	if (t->n == t->cap) {
		t->cap = t->cap == 0 ? 64 : t->cap * 2;
		t->op = xrealloc(t->op, t->cap * sizeof(*t->op));
	}
	o = &t->op[t->n++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->path = xstrdup(path);
	o->arg = arg != NULL ? xstrdup(arg) : NULL;
	return (o);
}

const struct op *
tree_find(const struct tree *t, const char *path)
{
	size_t i;

	for (i = t->n; i-- > 0;)
		if (strcmp(t->op[i].path, path) == 0)
			return (&t->op[i]);
	return (NULL);
}

void
tree_free(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->op[i].path);
		free(t->op[i].arg);
	}
	free(t->op);
	memset(t, 0, sizeof(*t));
}

static char *
link_text(const char *root, const char *arg)
{

	if (strncmp(arg, ROOTMARK, strlen(ROOTMARK)) == 0)
		return (xasprintf("%s/%s", root, arg + strlen(ROOTMARK)));
	return (xstrdup(arg));
}

/*
 * Make the tree below root (an existing directory, the cwd's business
 * left alone): entries, then owners, then times, then modes, so that an
 * unreadable directory does not stop its own filling.
 */
void
tree_apply(const struct tree *t, const char *root)
{
	struct timespec ts[2];
	uid_t uid;
	gid_t gid;
	size_t i;
	int dfd;

	if ((dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(3, "%s", root);
	for (i = 0; i < t->n; i++)
		apply_one(&t->op[i], root, dfd);
	if (t->nobody && nobody_ids(&uid, &gid) == 0)
		for (i = 0; i < t->n; i++)
			(void)fchownat(dfd, t->op[i].path, uid, gid,
			    AT_SYMLINK_NOFOLLOW);
	ts[0].tv_sec = ts[1].tv_sec = TREE_TIME;
	for (i = t->n; i-- > 0;) {
		ts[0].tv_nsec = ts[1].tv_nsec = (long)(i * 1000 + 7);
		(void)utimensat(dfd, t->op[i].path, ts, AT_SYMLINK_NOFOLLOW);
	}
	for (i = 0; i < t->n; i++)
		if (t->op[i].mode != 0 &&
		    t->op[i].kind != OP_SYMLINK &&
		    t->op[i].kind != OP_HARDLINK && !behind_link(t, i))
			(void)fchmodat(dfd, t->op[i].path, t->op[i].mode, 0);
	(void)close(dfd);
}

/*
 * Whether op i lost its place to a symbolic link made before it (two
 * operands' target states can name one path): it was never made, and its
 * mode would go where the link leads (chmod 0444 through a link to "..":
 * the scratch root itself).
 */
static int
behind_link(const struct tree *t, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (t->op[j].kind == OP_SYMLINK &&
		    strcmp(t->op[j].path, t->op[i].path) == 0)
			return (1);
	return (0);
}

static void
apply_one(const struct op *o, const char *root, int dfd)
{
	char *text;
	int fd, r;

	switch (o->kind) {
	case OP_DIR:
		r = mkdirat(dfd, o->path, 0755);
		break;
	case OP_FILE:
		if ((fd = openat(dfd, o->path, O_WRONLY | O_CREAT | O_EXCL |
		    O_CLOEXEC, 0644)) == -1) {
			r = -1;
			break;
		}
		write_file(fd, o);
		(void)close(fd);
		r = 0;
		break;
	case OP_HARDLINK:
		r = linkat(dfd, o->arg, dfd, o->path, 0);
		break;
	case OP_SYMLINK:
		text = link_text(root, o->arg);
		r = symlinkat(text, dfd, o->path);
		free(text);
		break;
	case OP_FIFO:
		r = mkfifoat(dfd, o->path, 0644);
		break;
	default:
		abort();
	}
	/*
	 * A link made before it in its way (to a file, to itself, into a
	 * loop): it is not made.
	 */
	if (r == -1 && errno != ENOENT && errno != ENOTDIR &&
	    errno != EEXIST && errno != ELOOP)
		err(3, "%s/%s", root, o->path);
}

static void
write_file(int fd, const struct op *o)
{
	unsigned char buf[65536];
	off_t at, end;
	size_t n;

	end = o->doff + o->dlen;
	for (at = o->doff; at < end; at += (off_t)n) {
		n = end - at < (off_t)sizeof(buf) ? (size_t)(end - at) :
		    sizeof(buf);
		content_fill(o->data, at, buf, n);
		if (pwrite(fd, buf, n, at) != (ssize_t)n)
			err(3, "%s", o->path);
	}
	if (ftruncate(fd, o->size) == -1)
		err(3, "%s", o->path);
}
