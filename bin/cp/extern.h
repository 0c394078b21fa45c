/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: what cp.c and utils.c share.
 */

#ifndef _CP_EXTERN_H_
#define _CP_EXTERN_H_

#include <sys/types.h>
#include <sys/stat.h>

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

extern int	fflag, iflag, lflag, nflag, pflag, sflag, vflag;
extern int	Rflag;
extern int	tflags;		/* fstatat flags, existing targets */
extern mode_t	cmask;		/* the umask */
extern struct pathbuf	src, dst;
extern struct bufsz_engine	*engine;

int	copy_file(struct node *);
int	copy_link(struct node *);
int	copy_special(struct node *);
int	target_replaceable(const struct node *, const struct stat *);
int	setfile(int, int, const char *, const struct stat *);
void	progress_init(void);
void	path_set(struct pathbuf *, const char *);
void	path_push(struct pathbuf *, const char *);
void	path_trunc(struct pathbuf *, size_t);
void	usage(void) __dead2;

#endif /* !_CP_EXTERN_H_ */
