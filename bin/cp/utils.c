/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: copying one non-directory; strings that grow.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/* How make_target() treats what is in the way, and what it answers. */
#define	MT_REPLACE	0x1	/* removed, whatever -f and -i say */
#define	MT_KEEP		0x2	/* one that cannot be removed is left */
#define	MT_LINK		0x4	/* -l, -s: the link's own error is said */
#define	MT_FAILED	(-1)	/* reported */
#define	MT_KEPT		(-2)	/* not removed, under MT_KEEP */

/* A new file's mode: its source's, but the set-id bits. */
#define	NEW_MODE(st)	((st)->st_mode & MODEBITS & ~(mode_t)(S_ISUID | S_ISGID))

typedef int	maker(const struct node *, void *);

static int	open_target(const struct node *, struct stat *);
static int	open_existing(const struct node *);
static int	not_the_source(int, const struct stat *, struct stat *);
static int	replaceable(const struct node *, const struct stat *);
static int	ask(void);
static int	stat_target(const struct node *, struct stat *);
static int	make_target(const struct node *, maker *, void *, int);
static int	make_link(const struct node *, void *);
static int	make_special(const struct node *, void *);

/*
 * Copy the contents of a regular file (or, without -R, of whatever the
 * source is) into its target, and with -p its attributes, which go only
 * onto a complete copy; or link it, under -l and -s.
 */
int
copy_file(struct node *n)
{
	struct inflight f;
	struct stat outst;
	int in, out, r;

	in = n->sfd;
	n->sfd = -1;
	if (lflag || sflag) {
		if (in != -1)
			(void)close(in);
		return (make_target(n, make_link, NULL, MT_LINK) < 0);
	}
	if (in == -1 && ((in = openat(n->sdir, n->sname, O_RDONLY | O_NOCTTY |
	    O_CLOEXEC | (n->followed ? 0 : O_NOFOLLOW))) == -1 ||
	    fstat(in, &n->st) == -1)) {
		warn("%s", src.p);
		if (in != -1)
			(void)close(in);
		return (1);
	}
	if ((out = open_target(n, &outst)) == -1) {
		(void)close(in);
		return (1);
	}
	f.from = src.p;
	f.to = dst.p;
	f.counter = bufsz_moved();
	f.base = f.counter != NULL ? *f.counter : 0;
	f.size = n->st.st_size;
	progress_show(&f);
	r = bufsz_copy(in, &n->st, out, &outst, BUFSZ_SPARSE);
	progress_show(NULL);
	if (r != BUFSZ_OK)
		warn("%s", r == BUFSZ_EREAD ? src.p : dst.p);
	else if (pflag)
		r = setfile(out, -1, NULL, in, &n->st);
	(void)close(in);
	if (close(out) == -1) {
		warn("%s", dst.p);
		r = 1;
	}
	return (r != 0);
}

/*
 * Create n's target as a new file, exclusively: nothing in the way is
 * opened.  Its stat, an empty regular file beside its directory, is made
 * up when the directory is known, to spare an fstat(2) a file.
 */
int
create_target(const struct node *n, void *arg)
{
	struct stat *st;
	int fd;

	st = arg;
	if ((fd = openat(n->ddir, n->dname, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOCTTY | O_CLOEXEC, NEW_MODE(&n->st))) == -1)
		return (-1);
	if (n->dirst == NULL) {
		if (fstat(fd, st) == 0)
			return (fd);
		(void)close(fd);
		return (-1);
	}
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFREG | (NEW_MODE(&n->st) & ~cmask);
	st->st_dev = n->dirst->st_dev;
	st->st_blksize = n->dirst->st_blksize;
	st->st_nlink = 1;
	return (fd);
}

/*
 * Open the target for writing: a new file, or under -f one put in place
 * of what is there; or, where something is in the way, that, to be
 * overwritten in place (under -f, when it cannot be removed).  Returns -1
 * when nothing is to be written (reported, or declined by -n or -i).
 */
static int
open_target(const struct node *n, struct stat *outst)
{
	int fd;

	if (fflag) {
		if ((fd = make_target(n, create_target, outst, MT_REPLACE |
		    MT_KEEP)) != MT_KEPT)
			return (fd);
	} else if ((fd = create_target(n, outst)) != -1)
		return (fd);
	else if (errno != EEXIST) {
		warn("%s", dst.p);
		return (-1);
	}
	if ((fd = open_existing(n)) != -1 &&
	    not_the_source(fd, &n->st, outst) != 0) {
		(void)close(fd);
		return (-1);
	}
	return (fd);
}

/*
 * Something is where the target goes: say so or ask, as -n and -i want,
 * then open it.  In a target tree a symbolic link is followed only while
 * it stays inside, and one that leads out or to nothing is reported;
 * elsewhere it is followed, as POSIX asks, to a file it may create.
 */
static int
open_existing(const struct node *n)
{
	struct stat lst, tst;
	int fd, islink, tree;

	tree = in_target_tree();
	islink = 0;
	if (fstatat(n->ddir, n->dname, &tst, tree ? AT_SYMLINK_NOFOLLOW :
	    0) == 0) {
		/* A link to the source is refused before -n or -i says. */
		if (S_ISLNK(tst.st_mode) && tree && (nflag || iflag) &&
		    (fd = open_in_target(n, O_RDONLY | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC)) != -1) {
			if (fstat(fd, &lst) == 0 && SAME_INODE(&lst, &n->st))
				tst = lst;
			(void)close(fd);
		}
		if (!replaceable(n, &tst))
			return (-1);
		islink = S_ISLNK(tst.st_mode);
	} else if (errno != ENOENT) {
		warn("%s", dst.p);
		return (-1);
	} else if (!replaceable(n, NULL))
		return (-1);
	fd = tree ? open_in_target(n, O_WRONLY | O_NOCTTY | O_CLOEXEC) :
	    openat(n->ddir, n->dname, O_WRONLY | O_CREAT | O_NOCTTY |
	    O_CLOEXEC, NEW_MODE(&n->st));
	if (fd != -1)
		return (fd);
	/* As FreeBSD's cp words a link out of the tree. */
	if (errno == EXDEV && tree)
		errno = EACCES;
	if (errno == ENOENT && islink)
		warnx("%s is a dangling symbolic link (not copied).", dst.p);
	else
		warn("%s", dst.p);
	return (-1);
}

/*
 * The file opened for writing must not be the one being read, however it
 * was reached (a link, a hard link, a bind mount, a race): compare the
 * descriptors, and only then empty the target.
 */
static int
not_the_source(int fd, const struct stat *inst, struct stat *outst)
{

	if (fstat(fd, outst) == -1) {
		warn("%s", dst.p);
		return (-1);
	}
	if (SAME_INODE(outst, inst)) {
		warnx("%s and %s are identical (not copied).", dst.p, src.p);
		return (-1);
	}
	if (S_ISREG(outst->st_mode) && outst->st_size != 0) {
		if (ftruncate(fd, 0) == -1) {
			warn("%s", dst.p);
			return (-1);
		}
		outst->st_size = 0;
		outst->st_blocks = 0;
	}
	return (0);
}

/*
 * Something exists where the target goes (tst, or NULL when it could not
 * be looked at): report what is not copied, and ask when -i says so.
 */
static int
replaceable(const struct node *n, const struct stat *tst)
{

	if (tst != NULL && SAME_INODE(tst, &n->st)) {
		warnx("%s and %s are identical (not copied).", dst.p, src.p);
		return (0);
	}
	if (tst != NULL && S_ISDIR(tst->st_mode)) {
		errno = EISDIR;
		warn("%s", dst.p);
		return (0);
	}
	if (nflag) {
		if (vflag)
			verbose("%s not overwritten\n", dst.p);
		return (0);
	}
	return (iflag ? ask() : 1);
}

static int
ask(void)
{
	int ch, first;

	(void)verbose_flush();
	(void)fprintf(stderr, "overwrite %s? (y/n [n]) ", dst.p);
	first = ch = getchar();
	while (ch != '\n' && ch != EOF)
		ch = getchar();
	if (first == 'y' || first == 'Y')
		return (1);
	(void)fprintf(stderr, "not overwritten\n");
	return (0);
}

/*
 * What is in the way of the target, not followed if a symbolic link,
 * unless the link leads to the source: then the source is what is there,
 * so that no way of naming the source lets it be replaced.
 */
static int
stat_target(const struct node *n, struct stat *tst)
{
	struct stat lst;

	if (fstatat(n->ddir, n->dname, tst, AT_SYMLINK_NOFOLLOW) == -1)
		return (-1);
	if (S_ISLNK(tst->st_mode) && !S_ISLNK(n->st.st_mode) &&
	    fstatat(n->ddir, n->dname, &lst, 0) == 0 &&
	    SAME_INODE(&lst, &n->st))
		*tst = lst;
	return (0);
}

/*
 * Make the target with make(), which fails with EEXIST when something is
 * in the way.  That is looked at, removed if MT_REPLACE, -f or -i allow,
 * and the target made again, once.  Returns what make() returned, or
 * MT_FAILED, or under MT_KEEP, MT_KEPT when what is in the way could not
 * be removed.  Under MT_LINK, as FreeBSD's cp -l and -s, a directory in
 * the way is left, and what could not be removed is linked over all the
 * same, so that the error said is the link's.
 */
static int
make_target(const struct node *n, maker *make, void *arg, int how)
{
	struct stat tst;
	int r, replaced;

	for (replaced = 0;; replaced = 1) {
		if ((r = make(n, arg)) >= 0)
			return (r);
		if (errno != EEXIST || replaced)
			break;
		if (stat_target(n, &tst) == -1) {
			if (errno == ENOENT)
				continue;
			break;
		}
		if ((how & MT_LINK) && S_ISDIR(tst.st_mode) &&
		    !SAME_INODE(&tst, &n->st)) {
			if (!replaceable(n, NULL))
				return (MT_FAILED);
			errno = EEXIST;
			break;
		}
		if (!replaceable(n, &tst))
			return (MT_FAILED);
		if (!(how & MT_REPLACE) && !fflag && !iflag) {
			errno = EEXIST;
			break;
		}
		if (unlinkat(n->ddir, n->dname, 0) == -1) {
			if (how & MT_KEEP)
				return (MT_KEPT);
			if (!(how & MT_LINK))
				break;
		}
	}
	warn("%s", dst.p);
	return (MT_FAILED);
}

/* -l and -s: a hard link to the source, or a symbolic link naming it. */
static int
make_link(const struct node *n, void *arg)
{

	(void)arg;
	if (lflag)
		return (linkat(n->sdir, n->sname, n->ddir, n->dname,
		    n->followed ? AT_SYMLINK_FOLLOW : 0));
	return (symlinkat(src.p, n->ddir, n->dname));
}

/*
 * Symbolic links, and FIFOs and device nodes under -R, are made anew and
 * never opened: a link with its source's text.
 */
int
copy_special(struct node *n)
{
	char target[PATH_MAX];
	ssize_t len;

	if (n->sfd != -1)
		(void)close(n->sfd);
	n->sfd = -1;
	if (S_ISLNK(n->st.st_mode)) {
		if ((len = readlinkat(n->sdir, n->sname, target,
		    sizeof(target))) == -1 || (size_t)len == sizeof(target)) {
			if (len != -1)
				errno = ENAMETOOLONG;
			warn("%s", src.p);
			return (1);
		}
		target[len] = '\0';
	}
	if (make_target(n, make_special, target, MT_REPLACE) < 0)
		return (1);
	return (pflag ? setfile(-1, n->ddir, n->dname, -1, &n->st) : 0);
}

static int
make_special(const struct node *n, void *target)
{

	if (S_ISLNK(n->st.st_mode))
		return (symlinkat(target, n->ddir, n->dname));
	if (S_ISFIFO(n->st.st_mode))
		return (mkfifoat(n->ddir, n->dname, n->st.st_mode & MODEBITS));
	return (mknodat(n->ddir, n->dname, n->st.st_mode, n->st.st_rdev));
}

/* Room for at least size bytes in b, and at least twice what there was. */
void
buf_room(struct buf *b, size_t size)
{
	char *p;

	if (size <= b->cap)
		return;
	if (size < b->cap * 2)
		size = b->cap * 2;
	if ((p = realloc(b->p, size)) == NULL)
		err(1, NULL);
	b->p = p;
	b->cap = size;
}

void
path_set(struct buf *b, const char *s)
{

	b->len = 0;
	path_push(b, s);
}

/* Append a name, after a slash unless there is one. */
void
path_push(struct buf *b, const char *name)
{
	size_t len;

	len = strlen(name);
	buf_room(b, b->len + len + 2);
	if (b->len > 0 && b->p[b->len - 1] != '/')
		b->p[b->len++] = '/';
	memcpy(b->p + b->len, name, len + 1);
	b->len += len;
}

void
path_trunc(struct buf *b, size_t len)
{

	b->len = len;
	b->p[len] = '\0';
}
