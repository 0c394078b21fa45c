/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the walk of a tree, for -R.
 *
 * The walk keeps a stack of open directories, source and target side by
 * side, and reaches every name relative to them, never by a path from the
 * top: a directory renamed or replaced by a symbolic link while the copy
 * runs cannot lead it elsewhere.  On the target side a link where a
 * directory goes is never followed.  When descriptors run short the
 * oldest levels are closed, and found again on the way back up, each step
 * checked against what was opened.
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/*
 * At most OPEN_FRAMES levels stay open, two descriptors each, and fewer
 * under a low descriptor limit: FDS_RESERVED are left for the rest (the
 * file being copied, the engine's pipe, finding a level again).
 */
#define	OPEN_FRAMES	64
#define	FDS_RESERVED	16

/*
 * A directory the operand's copy writes into, and where: a source
 * directory with its number is our own copy only while it is still
 * there, as a number freed meanwhile may have been given out again.
 */
struct made {
	dev_t		 dev;
	ino_t		 ino;
	struct made	*parent;	/* NULL: name is relative to anchor */
	int		 anchor;
	char		*name;
	struct made	*prev;		/* the one made before */
};

/* A directory being copied. */
struct frame {
	int		 sfd;		/* -1 while closed */
	int		 dfd;
	DIR		*dirp;		/* owns sfd when not NULL */
	struct stat	 st;
	struct stat	 dst_st;
	int		 created;
	int		 unread;	/* its entries were not all read */
	struct made	*made;
	const char	*name;		/* in the frame below */
	char		*names;		/* (type, name, NUL)... */
	char		*next;
	char		*end;
	size_t		 slen;		/* the length of src and dst here */
	size_t		 dlen;
};

static struct frame	*stack;
static size_t	depth, stackcap, nparked, open_frames;

/* The operand being copied, and the top of its target tree (-1: none). */
static struct node	root;
static int	top_fd = -1;
static int	top_owned;
static const char	*top_name;	/* the operand's target in it */

static void	*made_tree;
static struct made	*made_last;

static void	dispatch(struct node *);
static int	look(const struct ent *, struct node *);
static int	copy_dir(struct node *);
static int	target_dir(struct node *, int *);
static void	read_entries(struct frame *, int);
static int	entry_cmp(const void *, const void *);
static void	push_frame(const struct frame *);
static void	finish_dir(void);
static void	dir_attributes(const struct frame *);
static size_t	frame_budget(void);
static int	walk_openat(int, const char *, int);
static void	close_frame(struct frame *);
static void	park_frames(void);
static void	reopen_frame(size_t, int, int);
static int	reopen_side(size_t, int, int);
static int	is_frame(int, size_t, int);
static int	is_ours(const struct stat *);
static int	made_open(const struct made *);
static int	made_cmp(const void *, const void *);
static struct made	*made_add(const struct stat *, struct made *, int,
		    const char *);
static void	made_clear(void);

/*
 * Copy what n names and, under -R, everything below it.  The target tree,
 * which nothing is written out of, is the directory n goes into, or the
 * directory n becomes when it is named from the current directory.
 */
void
copy_tree(struct node *n)
{

	if (open_frames == 0)
		open_frames = frame_budget();
	root = *n;
	top_fd = Rflag && n->ddir != AT_FDCWD ? n->ddir : -1;
	top_name = n->dname;
	top_owned = 0;
	made_clear();
	dispatch(n);
	copy_entries();
	if (top_owned)
		(void)close(top_fd);
	top_fd = -1;
}

/*
 * The next entry of the directory the walk is in, or an entry with no
 * name when that directory is done; 0 once the tree is done.
 */
int
next_entry(struct ent *e)
{
	struct frame *f;

	if (depth == 0)
		return (0);
	f = &stack[depth - 1];
	e->name = NULL;
	e->sdir = f->sfd;
	e->ddir = f->dfd;
	e->made = f->created;
	e->dirst = &f->dst_st;
	if (f->next != f->end) {
		e->type = (unsigned char)*f->next;
		e->name = f->next + 1;
		f->next += strlen(e->name) + 2;
	}
	return (1);
}

/* Copy an entry, or leave the directory it ends. */
void
visit(const struct ent *e)
{
	struct node n;
	size_t d, dlen, slen;

	if (e->name == NULL) {
		finish_dir();
		return;
	}
	d = depth;
	slen = src.len;
	dlen = dst.len;
	path_push(&src, e->name);
	path_push(&dst, e->name);
	if (look(e, &n) == 0)
		dispatch(&n);
	if (depth == d) {
		path_trunc(&src, slen);
		path_trunc(&dst, dlen);
	}
}

/* Whether the target of the node being copied is inside a target tree. */
int
in_target_tree(void)
{

	return (top_fd != -1);
}

/*
 * Open the existing target of n, an entry of the directory the walk is in
 * or the operand itself, following symbolic links only while they stay
 * inside the target tree; fails with EXDEV for a link that leads out.  A
 * path too long from the top is opened from n's own directory, which
 * refuses links that climb out of it, even those that stay in the tree.
 */
int
open_in_target(const struct node *n, int flags)
{
	struct buf rel;
	size_t i;
	int fd, serrno;

	memset(&rel, 0, sizeof(rel));
	path_set(&rel, "");
	if (depth > 0 && top_name != NULL)
		path_push(&rel, top_name);
	for (i = 1; i < depth; i++)
		path_push(&rel, stack[i].name);
	path_push(&rel, n->dname);
	fd = open_beneath(top_fd, rel.p, flags);
	if (fd == -1 && errno == ENAMETOOLONG)
		fd = open_beneath(n->ddir, n->dname, flags);
	serrno = errno;
	free(rel.p);
	errno = serrno;
	return (fd);
}

/* Copy what n is; a directory is pushed for its entries to follow. */
static void
dispatch(struct node *n)
{
	int r;

	switch (n->st.st_mode & S_IFMT) {
	case S_IFDIR:
		if (!Rflag) {
			warnx("%s is a directory (not copied).", src.p);
			r = 1;
		} else
			r = copy_dir(n);
		if (n->sfd != -1)
			(void)close(n->sfd);
		if (r != 0)
			rval = 1;
		return;
	case S_IFLNK:
		r = copy_special(n);
		break;
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
		r = Rflag && !sflag ? copy_special(n) : copy_file(n);
		break;
	case S_IFSOCK:
		warnx("%s is a socket (not copied).", src.p);
		if (n->sfd != -1)
			(void)close(n->sfd);
		return;
	default:
		r = copy_file(n);
		break;
	}
	if (r != 0)
		rval = 1;
	else if (vflag)
		verbose("%s -> %s\n", src.p, dst.p);
}

/*
 * Fill n for entry e.  A file to be read, or a directory, is opened
 * first and its descriptor looked at, so that what is copied is what
 * was looked at; one that readdir(3) called a file and is a directory
 * now is refused, as its place in the walk has gone.  Under -l and -s a
 * file is never read, so an unreadable one is linked all the same, and a
 * directory that cannot be opened still gets its target made.
 */
static int
look(const struct ent *e, struct node *n)
{
	int fd;

	memset(n, 0, sizeof(*n));
	n->sdir = e->sdir;
	n->sname = n->dname = e->name;
	n->ddir = e->ddir;
	n->followed = follow_all;
	n->dirst = e->dirst;
	fd = -1;
	if ((e->type == DT_REG && !lflag && !sflag) || e->type == DT_DIR) {
		fd = walk_openat(n->sdir, n->sname, SOURCE_OPEN(follow_all) |
		    (e->type == DT_DIR ? O_DIRECTORY : 0));
		if (fd == -1 && errno != ELOOP && errno != ENOTDIR &&
		    !(errno == EACCES && e->type == DT_DIR))
			goto bad;
		if (fd != -1 && fstat(fd, &n->st) == -1)
			goto bad;
		if (fd != -1 && e->type == DT_REG && S_ISDIR(n->st.st_mode)) {
			errno = EISDIR;
			goto bad;
		}
	}
	if (fd == -1 && fstatat(n->sdir, n->sname, &n->st,
	    follow_all ? 0 : AT_SYMLINK_NOFOLLOW) == -1)
		goto bad;
	n->sfd = fd;
	return (0);
bad:
	warn("%s", src.p);
	if (fd != -1)
		(void)close(fd);
	rval = 1;
	return (-1);
}

/*
 * Start copying a directory: make or open its target, read its entries
 * and push a frame.  The entries are read whole before any is copied, so
 * that what the copy makes inside the source (cp -R d d) is not taken
 * for source.  A directory that cannot be read still gets its target,
 * left as made, as its copy is not complete.
 */
static int
copy_dir(struct node *n)
{
	struct frame f;
	size_t i;
	int sfd, serrno;

	serrno = 0;
	if ((sfd = n->sfd) == -1) {
		sfd = walk_openat(n->sdir, n->sname, O_RDONLY | O_DIRECTORY |
		    O_NOCTTY | O_CLOEXEC | (n->followed ? 0 : O_NOFOLLOW));
		if (sfd == -1 && errno != EACCES) {
			warn("%s", src.p);
			return (1);
		}
		serrno = errno;
		if (sfd != -1 && fstat(sfd, &n->st) == -1) {
			warn("%s", src.p);
			(void)close(sfd);
			return (1);
		}
		n->sfd = sfd;
	}
	for (i = 0; i < depth; i++)
		if (SAME_INODE(&stack[i].st, &n->st)) {
			warnx("%s: directory causes a cycle", src.p);
			return (1);
		}
	if (is_ours(&n->st))
		return (0);

	memset(&f, 0, sizeof(f));
	f.st = n->st;
	f.name = n->sname;
	if ((f.dfd = target_dir(n, &f.created)) == -1)
		return (1);
	if (fstat(f.dfd, &f.dst_st) == -1) {
		warn("%s", dst.p);
		(void)close(f.dfd);
		return (1);
	}
	if (depth == 0 && Rflag && n->ddir == AT_FDCWD) {
		if ((top_fd = fcntl(f.dfd, F_DUPFD_CLOEXEC, 0)) == -1) {
			warn("%s", dst.p);
			(void)close(f.dfd);
			return (1);
		}
		top_owned = 1;
		top_name = NULL;
	}
	f.made = made_add(&f.dst_st, depth > 0 ? stack[depth - 1].made :
	    NULL, n->ddir, n->dname);
	f.slen = src.len;
	f.dlen = dst.len;
	f.sfd = -1;
	if (sfd == -1) {
		errno = serrno;
		warn("%s", src.p);
		f.unread = 1;
		push_frame(&f);
		return (1);
	}
	read_entries(&f, sfd);
	n->sfd = -1;
	push_frame(&f);
	if (vflag)
		verbose("%s -> %s\n", src.p, dst.p);
	return (0);
}

/*
 * Make the target directory, or take the one there, and return it open.
 * What is there is never followed: a symbolic link is not a directory.
 */
static int
target_dir(struct node *n, int *created)
{
	struct stat tst;
	int fd;

	*created = mkdirat(n->ddir, n->dname,
	    (n->st.st_mode & (S_IRWXU | S_IRWXG | S_IRWXO)) | S_IRWXU) == 0;
	if (!*created) {
		if (errno != EEXIST || fstatat(n->ddir, n->dname, &tst,
		    AT_SYMLINK_NOFOLLOW) == -1) {
			warn("%s", dst.p);
			return (-1);
		}
		if (SAME_INODE(&tst, &n->st)) {
			warnx("%s and %s are identical (not copied).", dst.p,
			    src.p);
			return (-1);
		}
		if (!S_ISDIR(tst.st_mode)) {
			errno = ENOTDIR;
			warn("%s", dst.p);
			return (-1);
		}
	}
	fd = walk_openat(n->ddir, n->dname, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		warn("%s", dst.p);
	return (fd);
}

/*
 * Read the names in sfd into f, each after its type from readdir(3); none
 * where -x keeps the walk on the operand's file system.  A read that
 * fails is reported, and what came before it is copied.
 */
static void
read_entries(struct frame *f, int sfd)
{
	struct buf names;
	struct dirent *de;
	char **rec, *p;
	size_t i, len, n;

	if ((f->dirp = fdopendir(sfd)) == NULL)
		err(1, NULL);
	f->sfd = sfd;
	memset(&names, 0, sizeof(names));
	for (n = 0;;) {
		errno = 0;
		if ((xflag && f->st.st_dev != root.st.st_dev) ||
		    (de = readdir(f->dirp)) == NULL)
			break;
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		len = strlen(de->d_name) + 2;
		buf_room(&names, names.len + len);
		names.p[names.len] = (char)de->d_type;
		memcpy(names.p + names.len + 1, de->d_name, len - 1);
		names.len += len;
		n++;
	}
	if (errno != 0) {
		warn("%s", src.p);
		rval = 1;
		f->unread = 1;
	}
	f->names = f->next = names.p;
	f->end = names.p + names.len;
	if (!sortflag || n < 2)
		return;
	if ((rec = reallocarray(NULL, n, sizeof(*rec))) == NULL ||
	    (f->names = malloc(names.len)) == NULL)
		err(1, NULL);
	for (i = 0, p = names.p; p < f->end; p += strlen(p + 1) + 2)
		rec[i++] = p;
	qsort(rec, n, sizeof(*rec), entry_cmp);
	for (i = 0, p = f->names; i < n; i++, p += len) {
		len = strlen(rec[i] + 1) + 2;
		memcpy(p, rec[i], len);
	}
	free(rec);
	free(names.p);
	f->next = f->names;
	f->end = p;
}

/* --sort: two (type, name, NUL) records, by name. */
static int
entry_cmp(const void *a, const void *b)
{

	return (strcmp(*(char *const *)a + 1, *(char *const *)b + 1));
}

static void
push_frame(const struct frame *f)
{
	struct frame *p;
	size_t cap;

	if (depth == stackcap) {
		cap = stackcap == 0 ? 16 : stackcap * 2;
		if ((p = reallocarray(stack, cap, sizeof(*p))) == NULL)
			err(1, NULL);
		stack = p;
		stackcap = cap;
	}
	stack[depth++] = *f;
	park_frames();
}

/*
 * The entries of the top frame are copied: its attributes now, lest
 * copying into it changed its times, then pop it.
 */
static void
finish_dir(void)
{
	struct frame *f;

	f = &stack[depth - 1];
	if (f->dfd != -1 && !f->unread)
		dir_attributes(f);
	if (depth >= 2 && depth - 2 < nparked)
		reopen_frame(depth - 2, f->sfd, f->dfd);
	close_frame(f);
	free(f->names);
	if (--depth > 0) {
		path_trunc(&src, stack[depth - 1].slen);
		path_trunc(&dst, stack[depth - 1].dlen);
	}
}

/* -p's attributes, or the mode bits that mkdir(2) could not give. */
static void
dir_attributes(const struct frame *f)
{
	mode_t mode;

	if (pflag) {
		if (setfile(f->dfd, -1, NULL, f->sfd, &f->st) != 0)
			rval = 1;
		return;
	}
	mode = f->st.st_mode & MODEBITS & ~cmask;
	if (f->created && mode != ((f->st.st_mode | S_IRWXU) &
	    (S_IRWXU | S_IRWXG | S_IRWXO) & ~cmask) &&
	    fchmod(f->dfd, mode) == -1) {
		warn("chmod: %s", dst.p);
		rval = 1;
	}
}

/* How many frames may stay open under the descriptor limit. */
static size_t
frame_budget(void)
{
	struct rlimit rl;
	rlim_t n;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 ||
	    rl.rlim_cur == RLIM_INFINITY)
		return (OPEN_FRAMES);
	if (rl.rlim_cur < FDS_RESERVED + 2)
		return (1);
	n = (rl.rlim_cur - FDS_RESERVED) / 2;
	return (n < OPEN_FRAMES ? (size_t)n : OPEN_FRAMES);
}

/*
 * openat(2), and when descriptors run out (some may have been inherited),
 * again after closing one more frame, never the top one.
 */
static int
walk_openat(int dir, const char *name, int flags)
{
	int fd;

	while ((fd = openat(dir, name, flags)) == -1 &&
	    (errno == EMFILE || errno == ENFILE) && depth - nparked > 1) {
		open_frames = depth - nparked - 1;
		park_frames();
	}
	return (fd);
}

static void
close_frame(struct frame *f)
{

	if (f->dirp != NULL)
		(void)closedir(f->dirp);
	else if (f->sfd != -1)
		(void)close(f->sfd);
	if (f->dfd != -1)
		(void)close(f->dfd);
	f->dirp = NULL;
	f->sfd = f->dfd = -1;
}

/* Keep at most open_frames frames open: close the oldest. */
static void
park_frames(void)
{

	while (depth - nparked > open_frames)
		close_frame(&stack[nparked++]);
}

/*
 * Open closed frame j again from its child's descriptors.  When that
 * fails, the rest of that directory cannot be copied safely.
 */
static void
reopen_frame(size_t j, int csfd, int cdfd)
{
	struct frame *f;

	f = &stack[j];
	nparked = j;
	f->sfd = reopen_side(j, csfd, 1);
	f->dfd = reopen_side(j, cdfd, 0);
	if (f->sfd != -1 && f->dfd != -1)
		return;
	warnx("%.*s: moved during the copy (not copied further)",
	    (int)f->slen, src.p);
	rval = 1;
	close_frame(f);
	f->next = f->end;
}

/*
 * ".." of the child, if that is still the frame's directory (under -L,
 * ".." of a directory reached through a link is not), else down from the
 * operand, each step checked.
 */
static int
reopen_side(size_t j, int child, int issrc)
{
	size_t i;
	int fd, nfd;

	if (child != -1 && (fd = walk_openat(child, "..", O_RDONLY |
	    O_DIRECTORY | O_CLOEXEC)) != -1) {
		if (is_frame(fd, j, issrc))
			return (fd);
		(void)close(fd);
	}
	if (issrc)
		fd = walk_openat(AT_FDCWD, root.sname, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC | (root.followed ? 0 : O_NOFOLLOW));
	else
		fd = walk_openat(root.ddir, root.dname, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	for (i = 0; fd != -1 && is_frame(fd, i, issrc); i++) {
		if (i == j)
			return (fd);
		nfd = walk_openat(fd, stack[i + 1].name, O_RDONLY |
		    O_DIRECTORY | O_CLOEXEC |
		    (issrc && follow_all ? 0 : O_NOFOLLOW));
		(void)close(fd);
		fd = nfd;
	}
	if (fd != -1)
		(void)close(fd);
	return (-1);
}

static int
is_frame(int fd, size_t j, int issrc)
{
	struct stat sb;

	return (fstat(fd, &sb) == 0 &&
	    SAME_INODE(&sb, issrc ? &stack[j].st : &stack[j].dst_st));
}

/*
 * Whether a source directory is one that this operand's copy writes into,
 * met inside its own source (cp -R d d/sub): then it is not copied again.
 */
static int
is_ours(const struct stat *st)
{
	struct made key, **m;
	struct stat sb;
	int fd, there;

	key.dev = st->st_dev;
	key.ino = st->st_ino;
	if ((m = tfind(&key, &made_tree, made_cmp)) == NULL)
		return (0);
	if ((fd = made_open(*m)) == -1)
		return (0);
	there = fstat(fd, &sb) == 0 && sb.st_dev == (*m)->dev &&
	    sb.st_ino == (*m)->ino;
	(void)close(fd);
	return (there);
}

/*
 * Made directory m, opened from the nearest directory above it that a
 * frame holds open, name by name and never through a link.
 */
static int
made_open(const struct made *m)
{
	size_t i;
	int dir, fd;

	for (i = depth; i-- > 0;)
		if (stack[i].made == m && stack[i].dfd != -1)
			return (fcntl(stack[i].dfd, F_DUPFD_CLOEXEC, 0));
	dir = m->parent != NULL ? made_open(m->parent) : m->anchor;
	if (dir == -1)
		return (-1);
	fd = walk_openat(dir, m->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (m->parent != NULL)
		(void)close(dir);
	return (fd);
}

static int
made_cmp(const void *a, const void *b)
{
	const struct made *x, *y;

	x = a;
	y = b;
	if (x->dev != y->dev)
		return (x->dev < y->dev ? -1 : 1);
	return (x->ino < y->ino ? -1 : x->ino > y->ino);
}

/*
 * Remember the target directory st, name in parent (or relative to anchor).
 * One already known by its number is known by its newest place.
 */
static struct made *
made_add(const struct stat *st, struct made *parent, int anchor,
    const char *name)
{
	struct made *m, **found;

	if ((m = calloc(1, sizeof(*m))) == NULL ||
	    (m->name = strdup(name)) == NULL)
		err(1, NULL);
	m->dev = st->st_dev;
	m->ino = st->st_ino;
	m->parent = parent;
	m->anchor = anchor;
	if ((found = tsearch(m, &made_tree, made_cmp)) == NULL)
		err(1, NULL);
	if (*found != m) {
		free((*found)->name);
		(*found)->name = m->name;
		(*found)->parent = parent;
		(*found)->anchor = anchor;
		free(m);
		return (*found);
	}
	m->prev = made_last;
	made_last = m;
	return (m);
}

/*
 * Forget what the operand before made: to this one those are sources like
 * any other (cp -R src dst/src/sub dst copies all of dst/src/sub), and
 * its own target, if one of them, is refused as identical to it.
 */
static void
made_clear(void)
{
	struct made *m;

	while ((m = made_last) != NULL) {
		made_last = m->prev;
		(void)tdelete(m, &made_tree, made_cmp);
		free(m->name);
		free(m);
	}
}
