/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: what its files share.
 */

#ifndef _CP_EXTERN_H_
#define	_CP_EXTERN_H_

#include <sys/types.h>
#include <sys/stat.h>

#include <stdatomic.h>

#include "bufsz.h"

/* A string that grows: a path, a line, a list of names. */
struct buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

/*
 * One thing to copy: a source named relative to a directory descriptor
 * and the target name relative to another.  sfd is the source, already
 * open when the walk opened it to learn what it is (-1 otherwise); the
 * function that takes the node closes it.  dirst describes the target's
 * directory when known, so that a new file need not be fstat'ed.
 */
struct node {
	int			 sdir;
	const char		*sname;
	int			 ddir;
	const char		*dname;
	int			 sfd;
	int			 followed;	/* st came through links */
	struct stat		 st;
	const struct stat	*dirst;
};

/*
 * An entry of the directory the walk is in, with the type readdir(3)
 * gave it, or with no name once that directory is done.  made: the
 * directory's target was made by this copy, so nothing is in the way.
 */
struct ent {
	const char		*name;
	unsigned char		 type;
	int			 sdir;
	int			 ddir;
	int			 made;
	const struct stat	*dirst;
};

/*
 * A file being copied, as the progress report shows it: its names, the
 * running byte count of the copy (bufsz_moved(); NULL: not begun), that
 * count when the file's copy began, and the file's size.
 */
struct inflight {
	const char			*from;
	const char			*to;
	const _Atomic off_t *_Atomic	 counter;
	_Atomic off_t			 base;
	_Atomic off_t			 size;
};

/*
 * -p: where the attributes come from (the source's stat, and the source
 * open when it is a file or a directory, else -1), and where they go (an
 * open target, or a name relative to dir).
 */
struct attr_source {
	int			 fd;
	const struct stat	*st;
};

struct attr_target {
	int			 fd;	/* -1: go by name */
	int			 dir;
	const char		*name;
};

/* Two stats of one file: the same inode on the same file system. */
#define	SAME_INODE(a, b)	\
	((a)->st_dev == (b)->st_dev && (a)->st_ino == (b)->st_ino)

#define	MODEBITS	\
	(S_ISUID | S_ISGID | S_ISVTX | S_IRWXU | S_IRWXG | S_IRWXO)

/*
 * A source met in a tree is opened before it is looked at: without
 * blocking, lest it has become a FIFO, and never as a terminal.
 */
#define	SOURCE_OPEN(followed)	(O_RDONLY | O_NONBLOCK | O_NOCTTY | \
	O_CLOEXEC | ((followed) ? 0 : O_NOFOLLOW))

extern int	Nflag, Rflag, fflag, iflag, lflag, nflag, pflag, sflag, vflag;
extern int	follow_all;	/* -L: links met inside trees too */
extern int	sortflag;	/* --sort: entries in byte order */
extern int	xflag;		/* -x: stay on each operand's file system */
extern mode_t	cmask;		/* the umask */
extern int	rval;		/* the exit status */
extern struct buf	src, dst;	/* the names being copied */

/* walk.c */
void	copy_tree(struct node *);
int	next_entry(struct ent *);
void	visit(const struct ent *);
int	in_target_tree(void);
int	open_in_target(const struct node *, int);

/* serial.c or pool.c: the entries of the tree, in the walk's order */
void	copy_entries(void);

/* utils.c */
int	copy_file(struct node *);
int	copy_special(struct node *);
int	create_target(const struct node *, void *);
void	buf_room(struct buf *, size_t);
void	path_set(struct buf *, const char *);
void	path_push(struct buf *, const char *);
void	path_trunc(struct buf *, size_t);

/* progress.c */
void	progress_signal(int);
void	progress_show(const struct inflight *);
void	verbose(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
int	verbose_flush(void);

/* attr.c */
int	setfile(int, int, const char *, int, const struct stat *);

/* attr_<system>.c */
int	attr_copy(const struct attr_source *, const struct attr_target *);
int	attr_flags(const struct attr_source *, const struct attr_target *,
	    const struct stat *);

/* beneath_<system>.c */
int	open_beneath(int, const char *, int);

#endif /* !_CP_EXTERN_H_ */
