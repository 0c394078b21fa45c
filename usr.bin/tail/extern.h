/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What tail's files share.
 */

#ifndef EXTERN_H
#define	EXTERN_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

/*
 * Where the shown part begins: a count of bytes or lines from the start
 * (-c +N, -n +N, already made 0-based) or from the end (-c N, -n N), or
 * the whole input, backward (-r alone).
 */
enum style { NOTSET = 0, FBYTES, FLINES, RBYTES, RLINES, REVERSE };

/* One input: its descriptor (-1: not open), its name in messages. */
struct input {
	int		 in_fd;
	const char	*in_name;
	struct stat	 in_st;
};

/* An operand of -f or -F, and what following it needs. */
struct file {
	struct input	 f_in;
	int		 f_eof;		/* not a file: its last read said EOF */
	int		 f_events;	/* the host tells us when it changes */
	int		 f_wd;		/* the host's watch, or -1 */
	int		 f_nosize;	/* its size says nothing (/proc) */
	int		 f_errno;	/* the error said last of it, or 0 */
	int64_t		 f_retry;	/* -F: not looked at again before (ms) */
	int		 f_failfd;	/* -F: the file that failed, kept open */
};

/* tail.c */
extern enum style style;
extern uint64_t	count;
extern int	Fflag, fflag, qflag, rflag, vflag, nfiles, rval;

/*
 * misc.c: errors, output, and the library's engine with the standard
 * output it copies to, taken once.  EOUTSIDE, no errno of the host's,
 * says that the sandbox refused a name that leads out of it.
 */
#define	EOUTSIDE	(-1)
extern struct stat outst;
void	ierr(const char *);
const char *operand_path(const char *);
int	open_name(const char *, int);
int	stat_name(const char *, struct stat *);
void	oerr(void) __dead2;
void	out_write(const void *, size_t);
void	header(const char *, int);
void	engine_open(void);
int	copy_out(struct input *);
int	copy_rest(struct input *);
char	*window_buffer(const struct stat *, size_t *);
ssize_t	pread_full(int, void *, size_t, off_t);
size_t	pagesize(void);
int	seekable(struct input *, off_t *);
/* forward.c, reverse.c: the file holds fewer bytes than its size says. */
#define	LIES	1

/* forward.c: 0, or -1 when the input failed (said) */
int	forward(struct input *);

/* reverse.c */
void	reverse(struct input *);

/* hold.c: an input read as a stream, what the selection needs of it */
struct hold {
	char	*h_buf;
	size_t	 h_cap;
	size_t	 h_len;
	int	 h_spill;	/* a temporary file holding it all, or -1 */
};
int	hold_input(struct hold *, struct input *, int, uint64_t);
void	hold_free(struct hold *);
int	hold_tmpdir(void);

/*
 * follow.c, and the host's way of waiting (follow_<host>.c): ev_set arms
 * it for the files now open, setting f_events on those it will wake us
 * for; ev_wait sleeps until one may have changed, at most ms (-1: no
 * limit).
 */
void	follow(struct file *, int);
void	ev_init(void);
void	ev_set(struct file *, int);
void	ev_wait(int);

#endif /* !EXTERN_H */
