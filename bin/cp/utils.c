/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: copying one non-directory; paths and buffers.
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

#include "extern.h"

typedef int	maker(const struct node *, void *);

/* How make_target() treats what is in the way, and what it answers. */
#define	MT_REPLACE	0x1	/* removed, whatever -f and -i say */
#define	MT_KEEP		0x2	/* one that cannot be removed is left */
#define	MT_LINK		0x4	/* -l, -s: the link's own error is said */
#define	MT_MADE		0
#define	MT_FAILED	1	/* reported */
#define	MT_KEPT		2	/* not removed, under MT_KEEP; unreported */

/* What make_new_file() is given and gives back. */
struct newfile {
	mode_t	mode;
	int	fd;
};

static int	ask(void);
static int	open_target(const struct node *, mode_t, struct stat *);
static int	open_existing(const struct node *, mode_t);
static void	source_beneath(const struct node *, struct stat *);
static int	not_the_source(int, const struct stat *, struct stat *);
static int	copy_data(int, const struct stat *, int, const struct stat *);
static int	stat_target(const struct node *, struct stat *);
static int	make_target(const struct node *, maker *, void *, int);
static int	make_new_file(const struct node *, void *);
static int	make_hard_or_soft(const struct node *, void *);
static int	make_symlink(const struct node *, void *);
static int	make_special(const struct node *, void *);
static char	*read_link(const struct node *);

/*
 * Copy the contents of a regular file (or, without -R, of whatever the
 * source is) into a target opened for writing, or link it with -l/-s.
 */
int
copy_file(struct node *n)
{
	struct stat outst;
	int in, out;

	if (lflag || sflag) {
		if (n->sfd != -1)
			(void)close(n->sfd);
		n->sfd = -1;
		return (make_target(n, make_hard_or_soft, NULL, MT_LINK) !=
		    MT_MADE);
	}
	in = n->sfd;
	n->sfd = -1;
	/* Opened by name: what counts is what was opened. */
	if (in == -1 && ((in = openat(n->sdir, n->sname, O_RDONLY | O_NOCTTY |
	    O_CLOEXEC | (n->followed ? 0 : O_NOFOLLOW))) == -1 ||
	    fstat(in, &n->st) == -1)) {
		warn("%s", src.p);
		if (in != -1)
			(void)close(in);
		return (1);
	}
	if ((out = open_target(n, n->st.st_mode & MODEBITS &
	    ~(mode_t)(S_ISUID | S_ISGID), &outst)) == -1) {
		(void)close(in);
		return (1);
	}
	return (copy_open(n, in, out, &outst));
}

/*
 * The rest of a file's copy, once in and out are open: the bytes, then
 * the attributes of -p, only onto a copy that is complete, then both
 * closed.  A worker of the pool runs it too: what it says goes through
 * cp_warn().
 */
int
copy_open(struct node *n, int in, int out, const struct stat *outst)
{
	int rv;

	rv = copy_data(in, &n->st, out, outst);
	if (rv == 0 && pflag && setfile(out, -1, NULL, in, &n->st) != 0)
		rv = 1;
	(void)close(in);
	if (close(out) == -1) {
		cp_warn("%s", dst.p);
		rv = 1;
	}
	return (rv);
}

/*
 * Open the target for writing.  A new file is created exclusively,
 * which for a tree of new files is one system call; only when something
 * is in the way is it looked at.  Returns -1 when nothing is to be
 * written (reported, or declined by -n/-i).
 */
static int
open_target(const struct node *n, mode_t mode, struct stat *outst)
{
	struct newfile nf;
	int fd;

	if (fflag) {
		/*
		 * -f: what is in the way goes, and a new file is made; one
		 * that cannot be removed (its directory is not writable) is
		 * overwritten in place instead, if it can be opened for that.
		 */
		nf.mode = mode;
		switch (make_target(n, make_new_file, &nf, MT_REPLACE |
		    MT_KEEP)) {
		case MT_MADE:
			fd = nf.fd;
			break;
		case MT_KEPT:
			if ((fd = open_existing(n, mode)) == -1)
				return (-1);
			break;
		default:
			return (-1);
		}
	} else if ((fd = create_target(n, mode)) == -1) {
		if (errno != EEXIST) {
			warn("%s", dst.p);
			return (-1);
		}
		if ((fd = open_existing(n, mode)) == -1)
			return (-1);
	} else if (n->dirst != NULL) {
		new_file_stat(n, mode, outst);
		return (fd);
	}
	if (not_the_source(fd, &n->st, outst) != 0) {
		(void)close(fd);
		return (-1);
	}
	return (fd);
}

/* A new target file, made exclusively: nothing in the way is opened. */
int
create_target(const struct node *n, mode_t mode)
{

	return (openat(n->ddir, n->dname, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOCTTY | O_CLOEXEC, mode));
}

/*
 * The stat of a file just created with mode in n's target directory: it
 * is empty and regular, and lives beside its directory.  That is what
 * the engine needs to know, without an fstat per file.
 */
void
new_file_stat(const struct node *n, mode_t mode, struct stat *st)
{

	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFREG | (mode & ~cmask);
	st->st_dev = n->dirst->st_dev;
	st->st_blksize = n->dirst->st_blksize;
	st->st_nlink = 1;
}

/*
 * Something is where the target goes: say so or ask as -n and -i want,
 * then open it to be overwritten in place.  Under -R, where the target
 * is a tree, a symbolic link is followed only while it stays inside the
 * tree, and one that leads out or nowhere is reported rather than
 * written through; elsewhere a link is followed, a dangling one too, as
 * POSIX asks of cp, and one that leads to the source is refused before
 * -i asks.
 */
static int
open_existing(const struct node *n, mode_t mode)
{
	struct stat tst;
	int fd, islink;

	islink = 0;
	if (fstatat(n->ddir, n->dname, &tst, in_target_tree() ?
	    AT_SYMLINK_NOFOLLOW : 0) == 0) {
		if (S_ISLNK(tst.st_mode) && in_target_tree() &&
		    (nflag || iflag))
			source_beneath(n, &tst);
		if (!target_replaceable(n, &tst))
			return (-1);
		islink = S_ISLNK(tst.st_mode);
	} else if (errno != ENOENT) {
		warn("%s", dst.p);
		return (-1);
	} else if (!target_replaceable(n, NULL))
		return (-1);
	if (in_target_tree())
		fd = open_in_target(n, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	else
		fd = openat(n->ddir, n->dname, O_WRONLY | O_CREAT | O_NOCTTY |
		    O_CLOEXEC, mode);
	if (fd != -1)
		return (fd);
	/*
	 * A link that leads out of the target tree is refused as FreeBSD's
	 * cp refuses it, where O_RESOLVE_BENEATH fails the open: permission
	 * denied.
	 */
	if (errno == EXDEV && in_target_tree())
		errno = EACCES;
	if (errno == ENOENT && islink)
		warnx("%s is a dangling symbolic link (not copied).", dst.p);
	else
		warn("%s", dst.p);
	return (-1);
}

/*
 * A link in the target tree, which -n would skip or -i ask about: if it
 * leads to the source without leaving the tree, the source is what is
 * there (*tst), refused as identical before anything is asked, as it is
 * without -n and -i once the link is opened.
 */
static void
source_beneath(const struct node *n, struct stat *tst)
{
	struct stat lst;
	int fd;

	if ((fd = open_in_target(n, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1)
		return;
	if (fstat(fd, &lst) == 0 && SAME_INODE(&lst, &n->st))
		*tst = lst;
	(void)close(fd);
}

/*
 * Whatever the options and whatever raced with us, the file opened for
 * writing must not be the one being read: compare the descriptors, and
 * only then empty the target.  (Truncating on open would have emptied a
 * source reached through a link, a hard link or a bind mount.)
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

/* The engine moves the bytes; this names the side that failed. */
static int
copy_data(int in, const struct stat *inst, int out, const struct stat *outst)
{
	static struct inflight walkfile;
	int r;

	/* The walk reports on the file it waits for a worker to copy. */
	if (!pool_worker()) {
		inflight_start(&walkfile, bufsz_moved(), inst->st_size);
		progress_start(src.p, dst.p, &walkfile);
	}
	r = bufsz_copy(in, inst, out, outst, BUFSZ_SPARSE);
	if (!pool_worker())
		progress_stop();
	switch (r) {
	case BUFSZ_OK:
		return (0);
	case BUFSZ_EREAD:
		cp_warn("%s", src.p);
		break;
	default:
		cp_warn("%s", dst.p);
		break;
	}
	return (1);
}

/*
 * Something exists where the target goes.  Report the cases that are
 * not copied and ask when -i says so.  tst may be NULL when what is in
 * the way could not be looked at (a dangling link).
 */
int
target_replaceable(const struct node *n, const struct stat *tst)
{

	if (tst != NULL) {
		if (SAME_INODE(tst, &n->st)) {
			warnx("%s and %s are identical (not copied).", dst.p,
			    src.p);
			return (0);
		}
		if (S_ISDIR(tst->st_mode)) {
			errno = EISDIR;
			warn("%s", dst.p);
			return (0);
		}
	}
	if (nflag) {
		if (vflag)
			verbose("%s not overwritten\n", dst.p);
		return (0);
	}
	if (iflag)
		return (ask());
	return (1);
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
 * so that no way of naming the source lets it be replaced.  A source
 * that is itself a link is copied as one and only compared as one.
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
 * in the way.  That something is looked at (stat_target, then
 * target_replaceable: identical, a directory, -n, -i), removed when
 * MT_REPLACE, -f or -i allow it, and the target made again, once.
 * Returns MT_MADE, MT_FAILED (reported), or under MT_KEEP, MT_KEPT when
 * what is in the way could not be removed.  Under MT_LINK, as FreeBSD's
 * cp -l and -s do, a directory in the way is not removed, and what could
 * not be removed is linked over all the same: the failure said is the
 * link's (EEXIST), not the removal's.
 */
static int
make_target(const struct node *n, maker *make, void *arg, int how)
{
	struct stat tst;
	int replaced;

	for (replaced = 0;; replaced = 1) {
		if (make(n, arg) == 0)
			return (MT_MADE);
		if (errno != EEXIST || replaced)
			break;
		if (stat_target(n, &tst) == -1) {
			if (errno == ENOENT)
				continue;	/* gone meanwhile */
			break;
		}
		if ((how & MT_LINK) && S_ISDIR(tst.st_mode) &&
		    !SAME_INODE(&tst, &n->st)) {
			if (!target_replaceable(n, NULL))
				return (MT_FAILED);
			errno = EEXIST;
			break;
		}
		if (!target_replaceable(n, &tst))
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

/* A new, empty file, for -f. */
static int
make_new_file(const struct node *n, void *arg)
{
	struct newfile *nf;

	nf = arg;
	nf->fd = create_target(n, nf->mode);
	return (nf->fd == -1 ? -1 : 0);
}

/* -l and -s: a hard link to the source, or a symbolic link naming it. */
static int
make_hard_or_soft(const struct node *n, void *arg)
{

	(void)arg;
	if (lflag)
		return (linkat(n->sdir, n->sname, n->ddir, n->dname,
		    n->followed ? AT_SYMLINK_FOLLOW : 0));
	return (symlinkat(src.p, n->ddir, n->dname));
}

/* Recreate a symbolic link as it is, not what it points at. */
int
copy_link(struct node *n)
{
	char *target;
	int rv;

	if (n->sfd != -1)
		(void)close(n->sfd);
	n->sfd = -1;
	if ((target = read_link(n)) == NULL) {
		warn("%s", src.p);
		return (1);
	}
	rv = make_target(n, make_symlink, target, MT_REPLACE) != MT_MADE;
	free(target);
	if (rv == 0 && pflag)
		rv = setfile(-1, n->ddir, n->dname, -1, &n->st);
	return (rv);
}

static int
make_symlink(const struct node *n, void *target)
{

	return (symlinkat(target, n->ddir, n->dname));
}

/* The link's text, however long; st_size is only a hint (0 in /proc). */
static char *
read_link(const struct node *n)
{
	char *buf, *nbuf;
	size_t size;
	ssize_t len;

	size = n->st.st_size > 0 ? (size_t)n->st.st_size + 1 : 256;
	for (buf = NULL;; size *= 2) {
		if ((nbuf = realloc(buf, size)) == NULL) {
			free(buf);
			return (NULL);
		}
		buf = nbuf;
		if ((len = readlinkat(n->sdir, n->sname, buf, size)) == -1) {
			free(buf);
			return (NULL);
		}
		if ((size_t)len < size) {
			buf[len] = '\0';
			return (buf);
		}
	}
}

/* FIFOs and device nodes under -R are made anew, never opened. */
int
copy_special(struct node *n)
{

	if (n->sfd != -1)
		(void)close(n->sfd);
	n->sfd = -1;
	if (make_target(n, make_special, NULL, MT_REPLACE) != MT_MADE)
		return (1);
	return (pflag ? setfile(-1, n->ddir, n->dname, -1, &n->st) : 0);
}

static int
make_special(const struct node *n, void *arg)
{

	(void)arg;
	if (S_ISFIFO(n->st.st_mode))
		return (mkfifoat(n->ddir, n->dname, n->st.st_mode & MODEBITS));
	return (mknodat(n->ddir, n->dname, n->st.st_mode, n->st.st_rdev));
}

static void
path_room(struct pathbuf *pb, size_t more)
{
	char *p;
	size_t cap;

	if (pb->len + more < pb->cap)
		return;
	for (cap = pb->cap > 0 ? pb->cap : 256; pb->len + more >= cap;)
		cap *= 2;
	if ((p = realloc(pb->p, cap)) == NULL)
		cp_nomem();
	pb->p = p;
	pb->cap = cap;
}

void
path_set(struct pathbuf *pb, const char *s)
{

	pb->len = 0;
	path_room(pb, strlen(s));
	(void)strcpy(pb->p, s);
	pb->len = strlen(s);
}

/* Append a component, with a slash unless one is there already. */
void
path_push(struct pathbuf *pb, const char *name)
{
	size_t nlen;

	nlen = strlen(name);
	path_room(pb, nlen + 1);
	if (pb->len > 0 && pb->p[pb->len - 1] != '/')
		pb->p[pb->len++] = '/';
	memcpy(pb->p + pb->len, name, nlen + 1);
	pb->len += nlen;
}

void
path_trunc(struct pathbuf *pb, size_t len)
{

	pb->len = len;
	pb->p[len] = '\0';
}

/* At least len bytes, and at least twice what there was. */
void
xbuf_grow(struct xbuf *b, size_t len)
{
	char *p;

	if (len < b->len * 2)
		len = b->len * 2;
	if ((p = realloc(b->p, len)) == NULL)
		cp_nomem();
	b->p = p;
	b->len = len;
}
