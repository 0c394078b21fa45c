/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef EXTERN_H
#define	EXTERN_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

/*
 * Where the part shown begins: a count of bytes or lines from the start
 * (made 0-based) or from the end, or the whole input backward (-r).
 */
enum style { NOTSET = 0, FBYTES, FLINES, RBYTES, RLINES, REVERSE };

struct input {
	int		 in_fd;		/* -1: not open */
	const char	*in_name;
	struct stat	 in_st;
};

/* An operand of -f or -F. */
struct file {
	struct input	 f_in;
	int		 f_eof;		/* a stream whose last read said EOF */
	int		 f_events;	/* the host wakes us when it changes */
	int		 f_wd;		/* the host's watch, or -1 */
	int		 f_errno;	/* the error said last of it, or 0 */
	int64_t		 f_retry;	/* -F: failed, not tried before (ms) */
	int		 f_kept;	/* -F: the regular file that failed */
};

/* An input read as a stream: the part kept, in memory or a file. */
struct hold {
	char	*h_buf;
	size_t	 h_cap;
	size_t	 h_len;
	int	 h_spill;	/* a temporary file holding it all, or -1 */
};

/* The file holds more or fewer bytes than its size says. */
#define	LIES		1
/* An errno no host has: the sandbox refused a name that leads out of it. */
#define	EOUTSIDE	(-1)

extern enum style style;
extern uint64_t	count;
extern int	Fflag, fflag, qflag, rflag, vflag, nfiles, rval;
extern struct stat outst;

/* tail.c */
void	ierr(const char *);
void	oerr(void) __dead2;
void	out_write(const void *, size_t);
void	header(const char *, int);

/* forward.c */
int	forward(struct input *);
int	seekable(struct input *, off_t *);
int	read_window(int, char *, size_t, off_t, int);
int	copy_out(struct input *);

/* reverse.c */
void	reverse(struct input *);

/* hold.c */
int	hold_input(struct hold *, struct input *, int, uint64_t);
void	hold_free(struct hold *);
int	hold_tmpdir(void);

/*
 * follow.c, and follow_<host>.c: ev_set() arms the host for the files
 * open, setting f_events on those it will wake us for; ev_wait() sleeps
 * until one may have changed, at most ms (-1: no limit).
 */
void	follow(struct file *, int);
void	ev_init(void);
void	ev_set(struct file *, int);
void	ev_wait(int);

/*
 * confine_<host>.c: confined to the operands and to making files beneath
 * the directory tmpdir, and how names are opened and looked up then.
 */
void	confine(int, char *[], int);
int	open_name(const char *, int);
int	stat_name(const char *, struct stat *);

/* libutil's on FreeBSD, expand_number.c elsewhere. */
int	expand_number(const char *, int64_t *);

#endif /* !EXTERN_H */
