/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Waiting for -f on Linux: inotify says when a file changes, epoll(7)
 * when a terminal, FIFO or device has data.  A stream at its end, a
 * FIFO with no writer, would be ready forever: it is waited for
 * edge-triggered, so that only a change (a writer back with data) wakes
 * tail, as FreeBSD's tail waits with EV_CLEAR.
 */

#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "extern.h"

/* A write, a truncation, a rename or removal (for -F), a new link count. */
#define	WATCHED	(IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

static int	ifd = -1;	/* inotify's */
static int	epfd = -1;	/* epoll's: inotify's, then the streams' */
static int	inotified;	/* inotify's events wake epoll */

static int	has_events(int);
static int	watch(struct file *);
static int	ep_add(int, uint32_t);

void
ev_init(void)
{

	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

void
ev_set(struct file *files, int n)
{
	struct file *f;

	/* Afresh: two operands may be one file, and so share one watch. */
	for (f = files; f < files + n; f++) {
		if (f->f_wd != -1)
			(void)inotify_rm_watch(ifd, f->f_wd);
		f->f_wd = -1;
	}
	/* Afresh too: a descriptor closed since may have been given again. */
	if (epfd != -1)
		(void)close(epfd);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	inotified = ifd != -1 && ep_add(ifd, EPOLLIN) == 0;
	for (f = files; f < files + n; f++) {
		if (f->f_in.in_fd == -1)
			continue;
		if (S_ISREG(f->f_in.in_st.st_mode))
			f->f_events = watch(f);
		else
			f->f_events = ep_add(f->f_in.in_fd,
			    f->f_eof ? EPOLLIN | EPOLLET : EPOLLIN) == 0;
	}
}

/* fd added to epoll's set, for events; -1 where it cannot be waited on. */
static int
ep_add(int fd, uint32_t events)
{
	struct epoll_event ev;

	if (epfd == -1)
		return (-1);
	ev.events = events;
	ev.data.fd = fd;
	return (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev));
}

/*
 * The open file itself is watched, through /proc, whatever its name is
 * now; without /proc, its name, if that is still the file.
 */
static int
watch(struct file *f)
{
	struct stat sb;
	char path[64];

	if (!inotified || !has_events(f->f_in.in_fd))
		return (0);
	(void)snprintf(path, sizeof(path), "/proc/self/fd/%d", f->f_in.in_fd);
	if ((f->f_wd = inotify_add_watch(ifd, path, WATCHED)) != -1)
		return (1);
	if (f->f_in.in_fd == STDIN_FILENO ||
	    stat(f->f_in.in_name, &sb) != 0 ||
	    sb.st_dev != f->f_in.in_st.st_dev ||
	    sb.st_ino != f->f_in.in_st.st_ino)
		return (0);
	f->f_wd = inotify_add_watch(ifd, f->f_in.in_name, WATCHED);
	return (f->f_wd != -1);
}

/*
 * Whether the kernel hears of the file's changes: not where they are
 * made by another machine (NFS, SMB, Ceph, 9P, a FUSE server), nor in
 * /proc and /sys, whose files change without events.  The magic numbers
 * are statfs(2)'s.
 */
static int
has_events(int fd)
{
	static const uint32_t remote[] = {
		0x6969,		/* NFS */
		0x517b,		/* SMB */
		0xff534d42,	/* CIFS */
		0xfe534d42,	/* SMB2 */
		0x65735546,	/* FUSE */
		0x01021997,	/* 9P */
		0x00c36400,	/* Ceph */
		0x5346414f,	/* AFS */
		0x73757245,	/* Coda */
		0x01161970,	/* GFS2 */
		0x7461636f,	/* OCFS2 */
		0x9fa0,		/* proc */
		0x62656572,	/* sysfs */
	};
	struct statfs sfs;
	size_t i;

	if (fstatfs(fd, &sfs) != 0)
		return (0);
	for (i = 0; i < sizeof(remote) / sizeof(remote[0]); i++)
		if ((uint32_t)sfs.f_type == remote[i])
			return (0);
	return (1);
}

void
ev_wait(int ms)
{
	struct epoll_event ev[16];
	char ebuf[4096];
	int i, n;

	if (epfd == -1) {
		(void)poll(NULL, 0, ms);
		return;
	}
	if ((n = epoll_wait(epfd, ev, 16, ms)) == -1) {
		if (errno == EINTR)
			return;
		err(1, "epoll_wait");
	}
	/* Which file does not matter: every one is read again. */
	for (i = 0; i < n; i++)
		if (ev[i].data.fd == ifd)
			while (read(ifd, ebuf, sizeof(ebuf)) > 0)
				continue;
}
