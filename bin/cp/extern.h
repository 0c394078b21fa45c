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

/* A path for messages; the work itself goes through descriptors. */
struct pathbuf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

/*
 * One thing to copy: a source named relative to a directory descriptor
 * and the target name relative to another.  sfd is the source, already
 * open when the walk opened it to learn what it is (-1 otherwise); the
 * function that consumes the node closes it.  dirst describes the
 * target's directory when known, so a new file need not be fstat'ed.
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
	const char		*path;	/* for messages */
};

/*
 * A regular file being copied, as the progress report reads it: the
 * count of the thread copying it (NULL until a worker takes it), that
 * count then, the file's size, and once its copy is over, what it moved.
 * Atomic, as a worker writes what the walk's signal handler reads, and
 * an off_t may be two words.
 */
struct inflight {
	const _Atomic off_t *_Atomic		 counter;
	_Atomic off_t				 base;
	_Atomic off_t				 size;
	_Atomic off_t				 moved;
	atomic_int				 over;
};

/* A buffer that grows, reused from file to file. */
struct xbuf {
	char	*p;
	size_t	 len;
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

extern int	Nflag, fflag, iflag, lflag, nflag, pflag, sflag, vflag;
extern int	Rflag;
extern int	follow_all;	/* -L: links met inside trees too */
extern int	sortflag;	/* --sort: entries in byte order */
extern int	xflag;		/* -x: stay on each operand's file system */
extern mode_t	cmask;		/* the umask */

/*
 * The names of what is being copied: the walk's, and in each worker of
 * the pool (pool.c), the worker's own.
 */
extern _Thread_local struct pathbuf	src, dst;

/* walk.c */
int	copy_tree(struct node *);
int	in_target_tree(void);
int	open_in_target(const struct node *, int);
void	visit_again(const char *);

/* pool.c */
int	pool_usable(void);
int	pool_add(int, int, const struct stat *, const char *);
int	pool_drain(void);
void	pool_end(void);
int	pool_worker(void);
void	cp_nomem(void) __dead2;
void	cp_warn(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));

/* utils.c */
int	copy_file(struct node *);
int	copy_open(struct node *, int, int, const struct stat *);
int	create_target(const struct node *, mode_t);
void	new_file_stat(const struct node *, mode_t, struct stat *);
int	copy_link(struct node *);
int	copy_special(struct node *);
int	target_replaceable(const struct node *, const struct stat *);
void	path_set(struct pathbuf *, const char *);
void	path_push(struct pathbuf *, const char *);
void	path_trunc(struct pathbuf *, size_t);
void	xbuf_grow(struct xbuf *, size_t);

/* progress.c */
void	progress_init(void);
void	progress_signal(int);
void	inflight_start(struct inflight *, const _Atomic off_t *, off_t);
void	inflight_over(struct inflight *);
void	progress_start(const char *, const char *, const struct inflight *);
void	progress_stop(void);
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
