/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * -f and -F: after the part shown, whatever is written to the files, as
 * it comes.
 *
 * Each file is shown as without -f, then round after round read from
 * where it was to its end, with a header whenever the output turns to
 * another file.  A file that shrank (truncated in place, as logs rotated
 * by copytruncate are) is read again from its start: it shrank when the
 * byte before the offset is gone, not when its size says less, which a
 * file in /proc, on FUSE or on NFS may say.  FreeBSD's tail goes to the
 * new end, and loses what was written since the truncation.
 *
 * With -F each name is looked up every round: a file renamed away or
 * removed is read to its end and let go, one found under the name anew
 * is read from its start, and a name not there is looked for again.  A
 * file that fails is said once (again only when the error changes) and
 * tried again a second later.  A regular file that failed is kept open
 * until its name opens again: if the name still leads to it, it is read
 * on from where it failed.  Only the open file tells: the inode number
 * of a file closed and removed may be given at once to a new one.
 *
 * Between rounds tail sleeps until the host says that a file changed or
 * a stream has data (follow_<host>.c); a stream at its end wakes it only
 * when a writer comes back with data.  With -F it sleeps a second at
 * most, since a name may change without an event on its file; and a
 * quarter of a second while a file is one the host cannot watch (NFS,
 * /proc, some devices).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"

#define	POLL_MS		250	/* FreeBSD's tail sleeps as long */
#define	RENAME_MS	1000	/* -F: how often names are looked up */

static struct file *last;	/* the file written from last */

static int	recheck(struct file *);
static int	reopen(struct file *);
static int	show(struct file *);
static int	show_stream(struct file *);
static int	fail(struct file *);
static void	say(struct file *);
static void	mark(struct file *);
static int	let_go(struct file *);
static int	same_file(const struct stat *, const struct stat *);
static int	wait_ms(struct file *, int);
static int64_t	now_ms(void);

void
follow(struct file *files, int n)
{
	struct file *f;
	int changed, open;

	for (f = files; f < files + n; f++) {
		f->f_wd = f->f_kept = -1;
		if (f->f_in.in_fd == -1)
			continue;
		if (vflag || (!qflag && nfiles > 1))
			header(f->f_in.in_name, 1);
		/* Said by forward(); -F may try it again. */
		if (forward(&f->f_in) != 0) {
			f->f_errno = errno;
			(void)fail(f);
		}
	}
	last = &files[n - 1];
	ev_init();
	for (changed = 1;;) {
		if (Fflag)
			for (f = files; f < files + n; f++)
				changed |= recheck(f);
		for (open = 0, f = files; f < files + n; f++)
			open |= f->f_in.in_fd != -1;
		if (!open && !Fflag)
			return;
		if (changed) {
			ev_set(files, n);
			changed = 0;
		}
		/* Read after arming: a write between the two is not lost. */
		for (f = files; f < files + n; f++)
			changed |= show(f);
		if (!changed)
			ev_wait(wait_ms(files, n));
	}
}

/*
 * -F: the name looked up again; 1 when the file followed changed.  A
 * name whose file is half removed leads to it with no link left: that is
 * no new file.
 */
static int
recheck(struct file *f)
{
	struct stat sb;
	int r, serrno;

	if (f->f_in.in_fd == -1)
		return (reopen(f));
	r = stat_name(f->f_in.in_name, &sb);
	serrno = errno;
	if (r == 0 && same_file(&sb, &f->f_in.in_st))
		return (0);
	/* Gone or replaced: the old file to its end first. */
	(void)show(f);
	errno = serrno;
	if (r != 0 && errno != ENOENT)
		return (fail(f));
	(void)let_go(f);
	f->f_retry = 0;
	if (r == 0)
		return (reopen(f) | 1);
	/* Gone: waited for, and said again should it fail again. */
	f->f_errno = ENOENT;
	return (1);
}

/*
 * -F: a name not open, opened if it can be, without waiting: a FIFO put
 * in a file's place would hold every file up until a writer came.  1
 * when it was opened.
 */
static int
reopen(struct file *f)
{
	struct input *in;
	struct stat kept;
	int fd;

	in = &f->f_in;
	if (f->f_retry != 0 && now_ms() < f->f_retry)
		return (0);
	f->f_retry = 0;
	if (f->f_kept != -1 &&
	    (fstat(f->f_kept, &kept) != 0 || kept.st_nlink == 0))
		(void)let_go(f);
	if ((fd = open_name(in->in_name, O_NONBLOCK)) == -1 ||
	    fstat(fd, &in->in_st) != 0) {
		say(f);
		if (fd != -1)
			(void)close(fd);
		return (0);
	}
	if (f->f_kept != -1 && same_file(&kept, &in->in_st)) {
		(void)close(fd);
		fd = f->f_kept;
		f->f_kept = -1;
	} else
		(void)let_go(f);
	in->in_fd = fd;
	f->f_eof = 0;
	return (1);
}

/*
 * What was written to the file since; 1 when it was let go.  A read
 * first learns whether there is anything, so that a header goes only
 * before data: a /sys file's size says more than it holds.
 */
static int
show(struct file *f)
{
	struct input *in;
	struct stat st;
	size_t len;
	ssize_t n;
	off_t pos;
	char *buf, c;

	in = &f->f_in;
	if (in->in_fd == -1)
		return (0);
	if (!S_ISREG(in->in_st.st_mode))
		return (show_stream(f));
	if (fstat(in->in_fd, &st) != 0 ||
	    (pos = lseek(in->in_fd, 0, SEEK_CUR)) == -1)
		return (fail(f));
	if (st.st_size < pos && pread(in->in_fd, &c, 1, pos - 1) == 0 &&
	    lseek(in->in_fd, 0, SEEK_SET) == -1)
		return (fail(f));
	in->in_st = st;
	if ((buf = bufsz_buffer(&st, &outst, &len)) == NULL ||
	    (n = bufsz_read(in->in_fd, buf, len)) < 0)
		return (fail(f));
	f->f_errno = 0;
	if (n == 0)
		return (0);
	mark(f);
	out_write(buf, (size_t)n);
	return (copy_out(in) != 0 ? fail(f) : 0);
}

/*
 * A terminal, a FIFO, a device: what it has now, without waiting.  1
 * when it was let go, or came to its end or back from it: the host then
 * waits for it anew, at its end for a change only.
 */
static int
show_stream(struct file *f)
{
	struct pollfd pfd;
	size_t len;
	ssize_t n;
	char *buf;
	int eof;

	pfd.fd = f->f_in.in_fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) <= 0)
		return (0);
	if ((buf = bufsz_buffer(&f->f_in.in_st, &outst, &len)) == NULL)
		return (fail(f));
	if ((n = read(f->f_in.in_fd, buf, len)) < 0)
		return (errno == EINTR || errno == EAGAIN ? 0 : fail(f));
	f->f_errno = 0;
	eof = f->f_eof;
	f->f_eof = n == 0;
	if (n > 0) {
		mark(f);
		out_write(buf, (size_t)n);
	}
	return (eof != f->f_eof);
}

/*
 * A failure of f, errno's: said unless said last; f let go, or with -F
 * tried again later, a regular file kept open for reopen().
 */
static int
fail(struct file *f)
{

	say(f);
	if (!Fflag)
		return (let_go(f));
	f->f_retry = now_ms() + RENAME_MS;
	if (f->f_in.in_fd == -1 || !S_ISREG(f->f_in.in_st.st_mode))
		return (let_go(f));
	f->f_kept = f->f_in.in_fd;
	f->f_in.in_fd = -1;
	return (1);
}

/* errno, said of f unless said last; with -F a missing name waits. */
static void
say(struct file *f)
{

	if (errno == f->f_errno)
		return;
	f->f_errno = errno;
	if (!Fflag || errno != ENOENT)
		ierr(f->f_in.in_name);
}

/* Data from f comes next: a header first if the last came from another. */
static void
mark(struct file *f)
{

	if (last != f && (vflag || (!qflag && nfiles > 1)))
		header(f->f_in.in_name, 1);
	last = f;
}

static int
let_go(struct file *f)
{

	if (f->f_in.in_fd != -1)
		(void)close(f->f_in.in_fd);
	if (f->f_kept != -1)
		(void)close(f->f_kept);
	f->f_in.in_fd = f->f_kept = -1;
	return (1);
}

static int
same_file(const struct stat *a, const struct stat *b)
{

	return (a->st_dev == b->st_dev && a->st_ino == b->st_ino);
}

/* How long to sleep at most, in ms; -1: until an event. */
static int
wait_ms(struct file *files, int n)
{
	struct file *f;

	for (f = files; f < files + n; f++)
		if (f->f_in.in_fd != -1 && !f->f_events)
			return (POLL_MS);
	return (Fflag ? RENAME_MS : -1);
}

/* A clock that no one sets, in ms. */
static int64_t
now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return (0);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}
