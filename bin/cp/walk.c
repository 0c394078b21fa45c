/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the walk of a tree, for -R.
 *
 * The walk keeps its own stack of open directory descriptors, source and
 * target side by side, and reaches every name relative to them (openat,
 * fstatat, mkdirat...), never by a path from the top: a directory renamed
 * or swapped for a symbolic link while the copy runs cannot redirect it.
 * Frames beyond what the descriptor limit allows are parked (closed) and
 * found again on the way back up, through ".." or down from the top, each
 * step checked against what was opened.  The directories the copy of an
 * operand writes into are remembered, so that a copy made inside its own
 * source is not copied again.  Each operand starts afresh: what an
 * earlier one made is, to a later one, a directory like any other, so
 * that an operand is copied, or refused, whatever came before it.
 *
 * The target side is a tree of real directories: a symbolic link met
 * where a directory goes is never followed, whatever -H, -L or -r say
 * (they concern sources), and a file is written through a link only
 * while the link stays inside the target (open_in_target()).
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/*
 * Directory levels kept open, two descriptors each: at most OPEN_FRAMES,
 * and fewer when the descriptor limit is low, leaving FDS_RESERVED for
 * the rest (standard descriptors, the file being copied, the engine's
 * pipe, the target directory, the steps of finding a frame again).
 * Deeper frames close the oldest levels and open them again, on the way
 * back up, as trees that deep are rare.  Should the limit still be met
 * (descriptors inherited), one more frame is parked and the open tried
 * again.
 */
#define	OPEN_FRAMES	64
#define	FDS_RESERVED	16

#define	NO_MADE		((size_t)-1)

/* A directory being copied. */
struct frame {
	int		 sfd;		/* source; -1 while parked */
	int		 dfd;		/* target; -1 while parked */
	DIR		*dirp;		/* owns sfd when not NULL */
	struct stat	 st;		/* the source, for attributes */
	struct stat	 dst_st;	/* the target */
	int		 created;
	int		 unread;	/* its entries could not all be read */
	size_t		 made;		/* its target in made.dir */
	const char	*name;		/* name in the parent frame */
	char		*names;		/* (type, name, NUL)... */
	char		*next;
	char		*end;
	size_t		 slen;		/* length of its paths */
	size_t		 dlen;
};

/*
 * The directories the operand being copied writes into, each with where
 * it is, so that one met again in a source can be told from a directory
 * that merely has its inode number, freed and given out again since.
 */
struct madedir {
	dev_t		 dev;
	ino_t		 ino;
	size_t		 parent;	/* NO_MADE: name is relative to anchor */
	int		 anchor;
	char		*name;
};

struct madeset {
	struct madedir	*dir;
	size_t		 ndir;
	size_t		 dircap;
	size_t		*slot;		/* index + 1 into dir; 0: empty */
	size_t		 cap;
};

static struct frame	*stack;
static size_t	depth, stackcap, nparked, open_frames;
static struct madeset	made;
static int	rval;

/* Where the operand being copied starts, to find frames again. */
static const char	*root_sname, *root_dname;
static int	root_ddir, root_followed;
static dev_t	root_dev;

/*
 * The top of the target tree under -R (-1: the target is no tree), and
 * the name of the operand's own target in it (NULL: it is the top).
 */
static int	top_fd = -1;
static int	top_owned;
static const char	*top_name;

static void	dispatch(struct node *);
static int	copy_dir(struct node *);
static int	target_dir(struct node *, int *);
static void	read_entries(struct frame *, int);
static void	sort_entries(struct frame *);
static int	entry_cmp(const void *, const void *);
static void	push_frame(const struct frame *);
static void	walk(void);
static int	to_pool(const struct frame *, unsigned char);
static void	visit(size_t, const char *, unsigned char);
static int	look(size_t, const char *, unsigned char, struct node *);
static void	finish_dir(void);
static void	dir_attributes(const struct frame *);
static size_t	frame_budget(void);
static int	walk_openat(int, const char *, int);
static void	park_frames(void);
static void	reopen_frame(size_t, int, int);
static int	reopen_side(size_t, int, int);
static int	walk_down(size_t, int);
static int	is_frame(int, size_t, int);
static int	is_ours(const struct stat *);
static int	made_still_there(size_t);
static int	held_open(size_t);
static size_t	made_find(dev_t, ino_t);
static size_t	made_add(const struct stat *, size_t, int, const char *);
static void	made_clear(void);
static void	made_index(size_t);

/*
 * Copy what n names and, when it is a directory and -R is given,
 * everything below it.  Under -R, a node whose ddir is a directory
 * descriptor is copied into that directory, and one named from the
 * current directory that is a directory becomes a new one: either is
 * the target tree, which nothing is written out of.  Returns 0 when all
 * of it was copied, else 1 (each failure reported).
 */
int
copy_tree(struct node *n)
{

	rval = 0;
	if (open_frames == 0)
		open_frames = frame_budget();
	root_sname = n->sname;
	root_ddir = n->ddir;
	root_dname = n->dname;
	root_followed = n->followed;
	root_dev = n->st.st_dev;
	top_fd = Rflag && n->ddir != AT_FDCWD ? n->ddir : -1;
	top_name = n->dname;
	top_owned = 0;
	made_clear();
	dispatch(n);
	walk();
	if (top_owned)
		(void)close(top_fd);
	top_fd = -1;
	return (rval);
}

/* Whether the target of the node being copied is inside a target tree. */
int
in_target_tree(void)
{

	return (top_fd != -1);
}

/*
 * Open the existing target of n, an entry of the top frame (or the
 * operand itself), following symbolic links only while they stay inside
 * the target tree: open_beneath() from the top of the tree, along the
 * names the walk took.  Fails with EXDEV for a link that leads out.  A
 * path too long from the top is opened from n's own directory, which
 * refuses links that climb out of it, even those that stay in the tree.
 */
int
open_in_target(const struct node *n, int flags)
{
	struct pathbuf rel;
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

/* Copy what n is; directories are pushed for walk() to go through. */
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
		r = copy_link(n);
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
 * Start copying a directory: open it, make or open its target, read its
 * entries and push a frame.  The entries are read whole before any is
 * copied, so that what the copy creates inside the source (cp -R d d)
 * is not taken for source.  A directory that cannot be read still gets
 * its target, made but left as made: its copy is not complete.
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
		if (sfd == -1)
			serrno = errno;
		else if (fstat(sfd, &n->st) == -1) {
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
	/* Our own copy, met inside the source: not copied again. */
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
		/* A new directory: the top of the target tree. */
		if ((top_fd = fcntl(f.dfd, F_DUPFD_CLOEXEC, 0)) == -1) {
			warn("%s", dst.p);
			(void)close(f.dfd);
			return (1);
		}
		top_owned = 1;
		top_name = NULL;
	}
	f.made = made_add(&f.dst_st, depth > 0 ? stack[depth - 1].made :
	    NO_MADE, n->ddir, n->dname);
	f.slen = src.len;
	f.dlen = dst.len;
	if (sfd == -1) {
		errno = serrno;
		warn("%s", src.p);
		f.sfd = -1;
		f.unread = 1;
		push_frame(&f);
		return (1);
	}
	read_entries(&f, sfd);
	n->sfd = -1;		/* the frame has it now */
	push_frame(&f);
	if (vflag)
		verbose("%s -> %s\n", src.p, dst.p);
	return (0);
}

/*
 * Make the target directory, or take the one there; return it open.
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
 * Read the names in sfd (all of them, or none when -x keeps the walk out
 * of another file system) into f, each with its type from readdir.  A
 * read that fails is reported, and what was read before it is copied.
 */
static void
read_entries(struct frame *f, int sfd)
{
	struct dirent *de;
	char *p;
	size_t cap, len, used;
	int descend;

	descend = !xflag || f->st.st_dev == root_dev;
	if ((f->dirp = fdopendir(sfd)) == NULL)
		err(1, NULL);
	f->sfd = sfd;
	cap = used = 0;
	f->names = NULL;
	for (;;) {
		errno = 0;
		if (!descend || (de = readdir(f->dirp)) == NULL)
			break;
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		len = strlen(de->d_name) + 2;
		if (used + len > cap) {
			cap = cap == 0 ? 4096 : cap * 2;
			if (cap < used + len)
				cap = used + len;
			if ((p = realloc(f->names, cap)) == NULL)
				err(1, NULL);
			f->names = p;
		}
		f->names[used] = (char)de->d_type;
		memcpy(f->names + used + 1, de->d_name, len - 1);
		used += len;
	}
	if (errno != 0) {
		warn("%s", src.p);
		rval = 1;
		f->unread = 1;
	}
	f->next = f->names;
	f->end = f->names != NULL ? f->names + used : NULL;
	if (sortflag)
		sort_entries(f);
}

/*
 * --sort: the entries in byte order, as strcmp(3) has them, whatever
 * order the directory gave them in.
 */
static void
sort_entries(struct frame *f)
{
	char **rec, *out, *p;
	size_t i, len, n;

	for (n = 0, p = f->names; p < f->end; p += strlen(p + 1) + 2)
		n++;
	if (n < 2)
		return;
	if ((rec = reallocarray(NULL, n, sizeof(*rec))) == NULL ||
	    (out = malloc((size_t)(f->end - f->names))) == NULL)
		err(1, NULL);
	for (i = 0, p = f->names; p < f->end; p += strlen(p + 1) + 2)
		rec[i++] = p;
	qsort(rec, n, sizeof(*rec), entry_cmp);
	for (i = 0, p = out; i < n; i++, p += len) {
		len = strlen(rec[i] + 1) + 2;
		memcpy(p, rec[i], len);
	}
	free(rec);
	free(f->names);
	f->next = f->names = out;
	f->end = p;
}

/* Two (type, name, NUL) records, by name. */
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

/* Copy the entries of the top frame; when done, finish and pop it. */
static void
walk(void)
{
	struct frame *f;
	const char *name;
	unsigned char type;
	size_t i;

	while (depth > 0) {
		i = depth - 1;
		f = &stack[i];
		if (f->next == f->end) {
			finish_dir();
			continue;
		}
		type = (unsigned char)*f->next;
		name = f->next + 1;
		f->next += strlen(name) + 2;
		if (to_pool(f, type)) {
			if (pool_add(f->sfd, f->dfd, &f->dst_st, name) != 0)
				rval = 1;
			continue;
		}
		if (pool_drain() != 0)
			rval = 1;
		path_push(&src, name);
		path_push(&dst, name);
		visit(i, name, type);
		if (depth == i + 1) {
			path_trunc(&src, stack[i].slen);
			path_trunc(&dst, stack[i].dlen);
		}
	}
}

/*
 * Whether an entry of f of this type is copied by the pool: a regular
 * file, to be copied, into a directory this copy made, where no file is
 * in the way and nothing is to be asked.
 */
static int
to_pool(const struct frame *f, unsigned char type)
{

	return (type == DT_REG && f->created && !lflag && !sflag &&
	    f->sfd != -1 && f->dfd != -1 && pool_usable());
}

/*
 * Copy name, a file of the top frame that the pool gave back, as any
 * other entry; a failure counts as the walk's own.  One that has become
 * a directory is not copied: the walk has gone on past it, and its
 * contents would come after what was handed over behind it.
 */
void
visit_again(const char *name)
{
	struct node n;
	size_t i;

	i = depth - 1;
	path_push(&src, name);
	path_push(&dst, name);
	if (look(i, name, DT_REG, &n) == 0) {
		if (S_ISDIR(n.st.st_mode)) {
			if (n.sfd != -1)
				(void)close(n.sfd);
			errno = EISDIR;
			warn("%s", src.p);
			rval = 1;
		} else
			dispatch(&n);
	}
	path_trunc(&src, stack[i].slen);
	path_trunc(&dst, stack[i].dlen);
}

/* One entry of frame i. */
static void
visit(size_t i, const char *name, unsigned char type)
{
	struct node n;

	if (look(i, name, type, &n) == 0)
		dispatch(&n);
}

/*
 * Fill n for an entry of frame i.  Where readdir says it is a file that
 * is to be read or a directory, open it first and fstat the descriptor:
 * one call fewer than fstatat then open, and what is copied is what was
 * looked at.  O_NONBLOCK, lest it has become a FIFO since.  Under -l and
 * -s a file is never read, so an unreadable one is linked all the same.
 * A directory that cannot be opened is looked at by name, for copy_dir()
 * to make its target all the same.  Returns 0, or -1 when reported.
 */
static int
look(size_t i, const char *name, unsigned char type, struct node *n)
{
	int fd;

	memset(n, 0, sizeof(*n));
	n->sdir = stack[i].sfd;
	n->sname = name;
	n->ddir = stack[i].dfd;
	n->dname = name;
	n->followed = follow_all;
	n->dirst = &stack[i].dst_st;
	fd = -1;
	if ((type == DT_REG && !lflag && !sflag) || type == DT_DIR) {
		fd = walk_openat(n->sdir, name, SOURCE_OPEN(follow_all) |
		    (type == DT_DIR ? O_DIRECTORY : 0));
		if (fd == -1 && errno != ELOOP && errno != ENOTDIR &&
		    !(errno == EACCES && type == DT_DIR)) {
			warn("%s", src.p);
			rval = 1;
			return (-1);
		}
		if (fd != -1 && fstat(fd, &n->st) == -1) {
			warn("%s", src.p);
			(void)close(fd);
			rval = 1;
			return (-1);
		}
	}
	if (fd == -1 && fstatat(n->sdir, name, &n->st,
	    follow_all ? 0 : AT_SYMLINK_NOFOLLOW) == -1) {
		warn("%s", src.p);
		rval = 1;
		return (-1);
	}
	n->sfd = fd;
	return (0);
}

/*
 * The top frame's entries are done: its attributes now, so that copying
 * the contents did not change its times, then pop it.
 */
static void
finish_dir(void)
{
	struct frame *f;

	if (pool_drain() != 0)
		rval = 1;
	f = &stack[depth - 1];
	if (f->dfd != -1 && !f->unread)
		dir_attributes(f);
	if (depth >= 2 && depth - 2 < nparked)
		reopen_frame(depth - 2, f->sfd, f->dfd);
	if (f->dirp != NULL)
		(void)closedir(f->dirp);
	else if (f->sfd != -1)
		(void)close(f->sfd);
	if (f->dfd != -1)
		(void)close(f->dfd);
	free(f->names);
	depth--;
	if (depth > 0) {
		path_trunc(&src, stack[depth - 1].slen);
		path_trunc(&dst, stack[depth - 1].dlen);
	}
}

/* -p's attributes, or the mode bits that mkdir could not give. */
static void
dir_attributes(const struct frame *f)
{
	mode_t made_mode, mode;

	if (pflag) {
		if (setfile(f->dfd, -1, NULL, f->sfd, &f->st) != 0)
			rval = 1;
	} else if (f->created) {
		/* mkdir left out the set-id and sticky bits, or owner rwx. */
		mode = f->st.st_mode & (S_ISUID | S_ISGID | S_ISVTX |
		    S_IRWXU | S_IRWXG | S_IRWXO) & ~cmask;
		made_mode = (f->st.st_mode | S_IRWXU) &
		    (S_IRWXU | S_IRWXG | S_IRWXO) & ~cmask;
		if (mode != made_mode && fchmod(f->dfd, mode) == -1) {
			warn("chmod: %s", dst.p);
			rval = 1;
		}
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
 * openat(2) for the walk: out of descriptors, one more frame is parked
 * (never the top one, which the caller may be using) and it is tried
 * again.
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

/* Keep at most open_frames frames open: close the oldest ones. */
static void
park_frames(void)
{
	struct frame *f;

	while (depth - nparked > open_frames) {
		f = &stack[nparked++];
		if (f->dirp != NULL)
			(void)closedir(f->dirp);
		else if (f->sfd != -1)
			(void)close(f->sfd);
		if (f->dfd != -1)
			(void)close(f->dfd);
		f->dirp = NULL;
		f->sfd = f->dfd = -1;
	}
}

/*
 * Open parked frame j again, from its child's descriptors.  When that
 * fails, the rest of the directory cannot be copied safely.
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
	if (f->sfd != -1)
		(void)close(f->sfd);
	if (f->dfd != -1)
		(void)close(f->dfd);
	f->sfd = f->dfd = -1;
	f->next = f->end;
}

/*
 * ".." of the child, if it is still the directory it was; else down
 * from the top, each step checked.  (Under -L, ".." of a directory
 * reached through a link is not the frame below.)
 */
static int
reopen_side(size_t j, int child, int issrc)
{
	int fd;

	if (child != -1) {
		fd = walk_openat(child, "..", O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC);
		if (fd != -1 && is_frame(fd, j, issrc))
			return (fd);
		if (fd != -1)
			(void)close(fd);
	}
	return (walk_down(j, issrc));
}

static int
walk_down(size_t j, int issrc)
{
	size_t i;
	int fd, nfd, nofollow;

	if (issrc)
		fd = walk_openat(AT_FDCWD, root_sname, O_RDONLY |
		    O_DIRECTORY | O_CLOEXEC | (root_followed ? 0 : O_NOFOLLOW));
	else
		fd = walk_openat(root_ddir, root_dname, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	nofollow = issrc ? (follow_all ? 0 : O_NOFOLLOW) : O_NOFOLLOW;
	for (i = 0; fd != -1; i++) {
		if (!is_frame(fd, i, issrc)) {
			(void)close(fd);
			return (-1);
		}
		if (i == j)
			return (fd);
		nfd = walk_openat(fd, stack[i + 1].name, O_RDONLY |
		    O_DIRECTORY | O_CLOEXEC | nofollow);
		(void)close(fd);
		fd = nfd;
	}
	return (-1);
}

static int
is_frame(int fd, size_t j, int issrc)
{
	struct stat sb;
	const struct stat *want;

	want = issrc ? &stack[j].st : &stack[j].dst_st;
	return (fstat(fd, &sb) == 0 && SAME_INODE(&sb, want));
}

/*
 * Whether a source directory is one this operand's copy writes into.  Its
 * device and inode number say so only while that directory still exists:
 * one deleted meanwhile may have left its number to the directory met
 * now.
 */
static int
is_ours(const struct stat *st)
{
	size_t i;

	return ((i = made_find(st->st_dev, st->st_ino)) != NO_MADE &&
	    made_still_there(i));
}

/*
 * Whether made directory i is still where it was made.  Held open by a
 * frame, it is (an open directory keeps its inode number); else it is
 * looked for name by name, never through a link, from the nearest
 * directory on the way up that a frame holds, or from the top.
 */
static int
made_still_there(size_t i)
{
	struct stat sb;
	size_t *chain, k, n;
	int fd, from, nfd, there;

	if ((from = held_open(i)) != -1)
		return (1);
	for (n = 0, k = i; k != NO_MADE && held_open(k) == -1;
	    k = made.dir[k].parent)
		n++;
	if ((chain = reallocarray(NULL, n, sizeof(*chain))) == NULL)
		err(1, NULL);
	for (n = 0, k = i; k != NO_MADE && (from = held_open(k)) == -1;
	    k = made.dir[k].parent)
		chain[n++] = k;
	if (from == -1)
		from = made.dir[chain[n - 1]].anchor;
	for (fd = from; n-- > 0 && fd != -1; fd = nfd) {
		nfd = walk_openat(fd, made.dir[chain[n]].name, O_RDONLY |
		    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd != from)
			(void)close(fd);
	}
	free(chain);
	if (fd == -1)
		return (0);
	there = fstat(fd, &sb) == 0 && sb.st_dev == made.dir[i].dev &&
	    sb.st_ino == made.dir[i].ino;
	(void)close(fd);
	return (there);
}

/* The descriptor of a frame that holds made directory i open, or -1. */
static int
held_open(size_t i)
{
	size_t k;

	for (k = depth; k-- > 0;)
		if (stack[k].made == i && stack[k].dfd != -1)
			return (stack[k].dfd);
	return (-1);
}

static size_t
made_hash(dev_t dev, ino_t ino)
{
	uint64_t h;

	h = ((uint64_t)dev * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)ino;
	h *= 0xff51afd7ed558ccdULL;
	return ((size_t)(h ^ (h >> 32)) & (made.cap - 1));
}

static size_t
made_find(dev_t dev, ino_t ino)
{
	size_t i, j;

	if (made.cap == 0)
		return (NO_MADE);
	for (i = made_hash(dev, ino); (j = made.slot[i]) != 0;
	    i = (i + 1) & (made.cap - 1))
		if (made.dir[j - 1].dev == dev && made.dir[j - 1].ino == ino)
			return (j - 1);
	return (NO_MADE);
}

/*
 * Remember the target directory st, name in parent (or, for NO_MADE,
 * relative to anchor), and return its index.  A directory already known
 * by its number is known by its newest place: the number is its own now.
 */
static size_t
made_add(const struct stat *st, size_t parent, int anchor, const char *name)
{
	struct madedir *d;
	size_t i, cap;
	char *copy;

	if ((copy = strdup(name)) == NULL)
		err(1, NULL);
	if ((i = made_find(st->st_dev, st->st_ino)) != NO_MADE) {
		free(made.dir[i].name);
		made.dir[i].name = copy;
		made.dir[i].parent = parent;
		made.dir[i].anchor = anchor;
		return (i);
	}
	if (made.ndir == made.dircap) {
		cap = made.dircap == 0 ? 64 : made.dircap * 2;
		if ((d = reallocarray(made.dir, cap, sizeof(*d))) == NULL)
			err(1, NULL);
		made.dir = d;
		made.dircap = cap;
	}
	i = made.ndir++;
	made.dir[i].dev = st->st_dev;
	made.dir[i].ino = st->st_ino;
	made.dir[i].parent = parent;
	made.dir[i].anchor = anchor;
	made.dir[i].name = copy;
	made_index(i);
	return (i);
}

/*
 * Forget what the operand before made: to this one, those are sources
 * like any other (cp -R src dst/src/sub dst copies all of dst/src/sub),
 * and one that is this operand's target is refused as identical to it
 * (cp -R src/ dst/ dst), as it would be with nothing copied before.
 */
static void
made_clear(void)
{
	size_t i;

	for (i = 0; i < made.ndir; i++)
		free(made.dir[i].name);
	made.ndir = 0;
	if (made.cap > 0)
		memset(made.slot, 0, made.cap * sizeof(*made.slot));
}

/* Enter dir[i] in the hash table, growing it to stay half empty. */
static void
made_index(size_t i)
{
	size_t j, k;

	if ((made.ndir + 1) * 2 > made.cap) {
		free(made.slot);
		made.cap = made.cap == 0 ? 128 : made.cap * 2;
		if ((made.slot = calloc(made.cap, sizeof(*made.slot))) == NULL)
			err(1, NULL);
		for (j = 0; j < made.ndir; j++) {
			for (k = made_hash(made.dir[j].dev, made.dir[j].ino);
			    made.slot[k] != 0; k = (k + 1) & (made.cap - 1))
				continue;
			made.slot[k] = j + 1;
		}
		return;
	}
	for (k = made_hash(made.dir[i].dev, made.dir[i].ino);
	    made.slot[k] != 0; k = (k + 1) & (made.cap - 1))
		continue;
	made.slot[k] = i + 1;
}
