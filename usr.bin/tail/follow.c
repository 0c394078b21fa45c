/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
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
 * between the truncation and its noticing.  A /proc file, whose size
 * says 0, is not taken for one that shrank: it is read on; so is any
 * file on a file system that does not keep sizes (FUSE, NFS), where a
 * file may hold more than it says.
 *
 * With -F, a name that can be opened but not read (a directory, a disk
 * that fails) is tried again once a round of names, not at once: its
 * error is said once, and again only when it changes or after the name
 * was read from.  A regular file that failed is kept open until its name
 * opens again, or until it has no name left: if the name is still that
 * file, it is read on from where it failed.  Only the open file can tell:
 * the inode number of a file closed and removed may be given at once to a
 * new one, whose start would then be skipped.
 *
 * Between rounds tail sleeps until the host says that a file changed
 * or a stream has data (kqueue on the BSDs, inotify and epoll on Linux:
 * follow_*.c), by the descriptor it reads, confined or not: a FIFO that
 * no writer holds is at its end, and wakes tail only when a writer comes
 * back with data.  With -F it sleeps for at most a second, since a name
 * may come back without an event on the file; and for a quarter of a
 * second at most while some file is one the host cannot watch (on NFS,
 * in /proc, a device that is always readable).  Everything is written
 * as it is read: nothing waits in a buffer for a terminal or a pipe.
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
static int	same_file(const struct stat *, const struct stat *);
static int	show(struct file *);
static int	show_stream(struct file *);
static int	sized(struct file *, off_t);
static void	learn_size(struct file *, off_t);
static int	fail(struct file *);
static void	say(struct file *);
static int	let_go(struct file *);
static void	mark(struct file *);
static int	wait_ms(struct file *, int);
static int64_t	now_ms(void);

void
follow(struct file *files, int n)
{
	struct file *f;
	int changed, open;

	for (f = files; f < files + n; f++) {
		f->f_eof = f->f_events = 0;
		f->f_wd = f->f_failfd = -1;
		if (f->f_in.in_fd == -1)
			continue;
		if (vflag || (!qflag && nfiles > 1))
			header(f->f_in.in_name, 1);
		/* A file that failed once is said once; -F may try again. */
		if (forward(&f->f_in) != 0) {
			f->f_errno = errno;
			(void)fail(f);
		} else
			learn_size(f, f->f_in.in_st.st_size);
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
 * -F: the name looked up again; 1 when the file changed.  Names are
 * opened without waiting: a FIFO put in a file's place would otherwise
 * hold every file up until a writer came.
 */
static int
recheck(struct file *f)
{
	struct input *in;
	struct stat sb;
	int fd, serrno;

	in = &f->f_in;
	if (in->in_fd == -1)
		return (reopen(f));
	if (stat_name(in->in_name, &sb) == -1) {
		serrno = errno;
		(void)show(f);
		errno = serrno;
		if (errno != ENOENT)
			return (fail(f));
		/* Gone: waited for, and said again should it fail again. */
		f->f_errno = ENOENT;
		return (let_go(f));
	}
	/*
	 * The name still leads to the file open here: nothing changed.  Its
	 * link count is no sign of another file: while a removal of the name
	 * is half done, the name leads to its file with no link left, and
	 * that file, opened anew, would be shown again from its start (at
	 * every look, for as long as the removal is held up).
	 */
	if (same_file(&sb, &in->in_st))
		return (0);
	/* Another file under the name: the old one to its end, then it. */
	fd = open_name(in->in_name, O_NONBLOCK);
	serrno = errno;
	/* Or the same again, the name having come back to it since. */
	if (fd != -1 && fstat(fd, &sb) == 0 && same_file(&sb, &in->in_st)) {
		(void)close(fd);
		return (0);
	}
	(void)show(f);
	(void)let_go(f);
	in->in_fd = fd;
	f->f_nosize = 0;
	if (fd == -1) {
		errno = serrno;
		return (fail(f));
	}
	if (fstat(fd, &in->in_st) != 0)
		return (fail(f));
	f->f_eof = 0;
	return (1);
}

/*
 * -F: a name not open, opened if it can be; 1 when it was.  One that
 * failed is tried again a round of names later, not at once: it would
 * fail again as fast as it is tried.  When the name is the regular file
 * that failed, its kept descriptor goes on from where it failed (show()
 * still sees a truncation); any other file is read from its start.
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
	/* A kept file that was removed can come back under no name. */
	if (f->f_failfd != -1 &&
	    (fstat(f->f_failfd, &kept) != 0 || kept.st_nlink == 0))
		(void)let_go(f);
	if ((fd = open_name(in->in_name, O_NONBLOCK)) == -1) {
		say(f);
		return (0);
	}
	if (fstat(fd, &in->in_st) != 0) {
		say(f);
		(void)close(fd);
		return (0);
	}
	if (f->f_failfd != -1 && same_file(&kept, &in->in_st)) {
		(void)close(fd);
		fd = f->f_failfd;
		f->f_failfd = -1;
	} else {
		(void)let_go(f);
		f->f_nosize = 0;
	}
	in->in_fd = fd;
	f->f_eof = 0;
	return (1);
}

/*
 * What was written to the file since; 1 when it was let go.  A first
 * read says whether there is anything, so that a header is written only
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
	char *buf;

	in = &f->f_in;
	if (in->in_fd == -1)
		return (0);
	if (!S_ISREG(in->in_st.st_mode))
		return (show_stream(f));
	if (fstat(in->in_fd, &st) != 0 ||
	    (pos = lseek(in->in_fd, 0, SEEK_CUR)) == -1)
		return (fail(f));
	if (st.st_size < pos && sized(f, pos)) {
		/* Truncated: read again from the start. */
		if (lseek(in->in_fd, 0, SEEK_SET) == -1)
			return (fail(f));
		pos = 0;
	}
	in->in_st = st;
	buf = window_buffer(&st, &len);
	if ((n = bufsz_read(in->in_fd, buf, len)) < 0)
		return (fail(f));
	f->f_errno = 0;
	if (n == 0)
		return (0);
	mark(f);
	out_write(buf, (size_t)n);
	if (copy_out(in) != 0)
		return (fail(f));
	learn_size(f, st.st_size);
	return (0);
}

/*
 * A terminal, a FIFO, a device: what it has now, without waiting for
 * more.  1 when it was let go, or came to an end or back from one: the
 * host then waits for it anew, at an end for a change only, since an
 * end is ready forever.
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
		return (errno == EINTR || errno == EAGAIN ? 0 : fail(f));
	f->f_errno = 0;
	was = f->f_eof;
	f->f_eof = n == 0;
	if (n > 0) {
		mark(f);
		out_write(buf, (size_t)n);
	}
	return (was != f->f_eof);
}

/*
 * Whether a size below the offset pos means the file was cut: the byte
 * before pos is gone.  A file of FUSE or NFS may hold more than its size
 * says, and a /proc file says 0 and holds its text (f_nosize).
 */
static int
sized(struct file *f, off_t pos)
{
	char c;

	return (!f->f_nosize && pread(f->f_in.in_fd, &c, 1, pos - 1) == 0);
}

/*
 * Whether the kernel keeps no size for the file, learned once data was
 * read from it: a /proc file says 0 and has content, so its offset past
 * its size is no truncation.  A regular file that said 0 (before) both
 * before and after a read that gave data is one; a file on disk would
 * have to be written and truncated again between the two looks to pass
 * for one.  Looking does not rest on file system names, which differ
 * from host to host, nor on st_blocks, 0 for an empty file too.
 */
static void
learn_size(struct file *f, off_t before)
{
	struct stat st;

	if (before == 0 && fstat(f->f_in.in_fd, &st) == 0 &&
	    st.st_size == 0 && lseek(f->f_in.in_fd, 0, SEEK_CUR) > 0)
		f->f_nosize = 1;
}

/*
 * A failure on f, errno's: said unless said last, and f let go; with -F
 * a regular file is kept open, for reopen() to know it again.
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
	f->f_failfd = f->f_in.in_fd;
	f->f_in.in_fd = -1;
	return (1);
}

/*
 * errno, for f: said unless it is what was said of f last.  With -F, a
 * name that is not there is waited for, not an error.
 */
static void
say(struct file *f)
{

	if (errno == f->f_errno)
		return;
	f->f_errno = errno;
	if (!Fflag || errno != ENOENT)
		ierr(f->f_in.in_name);
}

/* A file no longer followed, nor kept. */
static int
let_go(struct file *f)
{

	if (f->f_in.in_fd != -1)
		(void)close(f->f_in.in_fd);
	if (f->f_failfd != -1)
		(void)close(f->f_failfd);
	f->f_in.in_fd = f->f_failfd = -1;
	return (1);
}

/* Whether two stats are of one file. */
static int
same_file(const struct stat *a, const struct stat *b)
{

	return (a->st_dev == b->st_dev && a->st_ino == b->st_ino);
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

/* A clock that no one sets, in ms. */
static int64_t
now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return (0);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}
