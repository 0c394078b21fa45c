/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * -f and -F: after the part shown, whatever is written to the files, as
 * it comes.
 *
 * As FreeBSD's tail does it: each file is shown as without -f (with a
 * header when there are several, or -v), then round after round every
 * file is read from where it was to its end, with a header whenever the
 * output turns to another file.  With -F each name is looked up first: a
 * file renamed away or removed is read to its end and let go, and one
 * found under the name anew is read from its start (a name that is not
 * there yet is looked for every round).  A file that shrank (truncated
 * in place, as logs are rotated by copytruncate) is read again from its
 * start; FreeBSD's goes to its new end, and loses whatever was written
 * between the truncation and its noticing.
 *
 * Between rounds tail sleeps until the host says that a file changed
 * (kqueue on the BSDs, inotify on Linux: follow_*.c); with -F for at
 * most a second, since a name may come back without an event on the
 * file; and for a quarter of a second at most while some file is one
 * the host cannot watch (on NFS, in /proc, a device that is always
 * readable).  Everything is written as it is read: nothing waits in a
 * buffer for a terminal or a pipe.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"

#define	POLL_MS		250	/* FreeBSD's tail sleeps as long */
#define	RENAME_MS	1000	/* -F: how often names are looked up */

static struct file *last;	/* the file written from last */

static void	settle(struct file *);
static int	recheck(struct file *);
static int	show(struct file *);
static int	show_stream(struct file *);
static int	let_go(struct file *, int);
static void	mark(struct file *);
static int	wait_ms(struct file *, int);

void
follow(struct file *files, int n)
{
	struct file *f;
	int changed, open;

	for (f = files; f < files + n; f++) {
		f->f_eof = f->f_events = 0;
		f->f_wd = -1;
		if (f->f_in.in_fd == -1)
			continue;
		if (vflag || (!qflag && nfiles > 1))
			header(f->f_in.in_name, 1);
		/* A file that failed once is said once; -F may try again. */
		if (forward(&f->f_in) != 0)
			(void)let_go(f, 0);
		else
			settle(f);
	}
	last = &files[n - 1];
	ev_init();
	for (changed = 1;;) {
		if (Fflag)
			for (f = files; f < files + n; f++)
				changed |= recheck(f);
		for (open = 0, f = files; f < files + n; f++)
			open |= f->f_in.in_fd != -1;
		/* Nothing left that could ever be shown. */
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
 * A FIFO at its end has no writer left, and would say so to every poll:
 * it is opened again for writing too, so that it only wakes us with
 * data.  The new descriptor is had before the old one goes, so that
 * what a writer left in between is kept.
 */
static void
settle(struct file *f)
{
	struct input *in;
	int fd;

	in = &f->f_in;
	if (!S_ISFIFO(in->in_st.st_mode) || in->in_fd == STDIN_FILENO)
		return;
	if ((fd = open(in->in_name, O_RDWR | O_NONBLOCK)) == -1)
		return;
	(void)close(in->in_fd);
	in->in_fd = fd;
}

/* -F: the name looked up again; 1 when the file changed. */
static int
recheck(struct file *f)
{
	struct input *in;
	struct stat sb;
	int fd, serrno;

	in = &f->f_in;
	if (in->in_fd == -1) {
		if ((fd = open(in->in_name, O_RDONLY)) == -1)
			return (0);
		if (fstat(fd, &in->in_st) != 0) {
			(void)close(fd);
			return (0);
		}
		in->in_fd = fd;
		f->f_eof = 0;
		settle(f);
		return (1);
	}
	if (stat(in->in_name, &sb) == -1) {
		if (errno != ENOENT)
			ierr(in->in_name);
		(void)show(f);
		return (let_go(f, 0));
	}
	if (sb.st_ino == in->in_st.st_ino && sb.st_dev == in->in_st.st_dev &&
	    sb.st_nlink != 0)
		return (0);
	/* Another file under the name: the old one to its end, then it. */
	fd = open(in->in_name, O_RDONLY);
	serrno = errno;
	(void)show(f);
	if (in->in_fd != -1)
		(void)close(in->in_fd);
	in->in_fd = fd;
	if (fd == -1) {
		errno = serrno;
		if (errno != ENOENT)
			ierr(in->in_name);
		return (let_go(f, 0));
	}
	if (fstat(fd, &in->in_st) != 0)
		return (let_go(f, 1));
	f->f_eof = 0;
	settle(f);
	return (1);
}

/* What was written to the file since; 1 when it was let go. */
static int
show(struct file *f)
{
	struct input *in;
	struct stat st;
	size_t len;
	ssize_t n;
	off_t pos;
	char *buf;

	in = &f->f_in;
	if (in->in_fd == -1)
		return (0);
	if (!S_ISREG(in->in_st.st_mode))
		return (show_stream(f));
	if (fstat(in->in_fd, &st) != 0 ||
	    (pos = lseek(in->in_fd, 0, SEEK_CUR)) == -1)
		return (let_go(f, 1));
	if (st.st_size < pos) {
		if (lseek(in->in_fd, 0, SEEK_SET) == -1)
			return (let_go(f, 1));
		pos = 0;
	}
	in->in_st = st;
	if (st.st_size > pos)
		mark(f);
	else if (st.st_size > 0)
		return (0);
	else {
		/* A /proc file: only a read says whether there is more. */
		buf = window_buffer(&st, &len);
		if ((n = bufsz_read(in->in_fd, buf, len)) < 0)
			return (let_go(f, 1));
		if (n == 0)
			return (0);
		mark(f);
		out_write(buf, (size_t)n);
	}
	if (copy_rest(in) != 0)
		return (let_go(f, 0));
	return (0);
}

/*
 * A terminal, a FIFO, a device: what it has now, without waiting for
 * more.  1 when it was let go, or came to an end or back from one (the
 * host then watches it again, or stops: an end would wake it forever).
 */
static int
show_stream(struct file *f)
{
	struct input *in;
	struct pollfd pfd;
	size_t len;
	ssize_t n;
	char *buf;
	int was;

	in = &f->f_in;
	pfd.fd = in->in_fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	if (poll(&pfd, 1, 0) <= 0)
		return (0);
	buf = window_buffer(&in->in_st, &len);
	if ((n = read(in->in_fd, buf, len)) < 0)
		return (errno == EINTR || errno == EAGAIN ? 0 : let_go(f, 1));
	was = f->f_eof;
	f->f_eof = n == 0;
	if (n > 0) {
		mark(f);
		out_write(buf, (size_t)n);
	}
	return (was != f->f_eof);
}

/* A file no longer followed: a read failed (said when say), or -F. */
static int
let_go(struct file *f, int say)
{

	if (say)
		ierr(f->f_in.in_name);
	if (f->f_in.in_fd != -1)
		(void)close(f->f_in.in_fd);
	f->f_in.in_fd = -1;
	return (1);
}

/* Data from f is next: a header first if the last came from another. */
static void
mark(struct file *f)
{

	if (last == f)
		return;
	if (vflag || (!qflag && nfiles > 1))
		header(f->f_in.in_name, 1);
	last = f;
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
