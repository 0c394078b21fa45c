/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Waiting for -f on Linux: inotify says when a file changes, poll(2)
 * when a terminal, FIFO or device has data.
 */

#include <sys/types.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "extern.h"

/* A write, a truncation, a rename or removal (for -F), a new link count. */
#define	WATCHED	(IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

static int	ifd = -1;
static struct pollfd *pfds;	/* inotify's, then the streams' */
static int	npfds, maxpfds;

static int	has_events(int);
static int	watch(struct file *);

void
ev_init(void)
{

	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

void
ev_set(struct file *files, int n)
{
	struct file *f;
	void *p;

	if (maxpfds < n + 1) {
		p = realloc(pfds, (size_t)(n + 1) * sizeof(*pfds));
		if (p == NULL)
			err(1, NULL);
		pfds = p;
		maxpfds = n + 1;
	}
	npfds = 0;
	if (ifd != -1) {
		pfds[npfds].fd = ifd;
		pfds[npfds++].events = POLLIN;
	}
	/* Afresh: two operands may be one file, and so share one watch. */
	for (f = files; f < files + n; f++) {
		if (f->f_wd != -1)
			(void)inotify_rm_watch(ifd, f->f_wd);
		f->f_wd = -1;
	}
	for (f = files; f < files + n; f++) {
		if (f->f_in.in_fd == -1)
			continue;
		if (S_ISREG(f->f_in.in_st.st_mode)) {
			f->f_events = watch(f);
			continue;
		}
		/* At its end it would be ready forever. */
		if ((f->f_events = !f->f_eof)) {
			pfds[npfds].fd = f->f_in.in_fd;
			pfds[npfds++].events = POLLIN;
		}
	}
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

	if (ifd == -1 || !has_events(f->f_in.in_fd))
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
	char ebuf[4096];

	if (poll(pfds, (nfds_t)npfds, ms) == -1) {
		if (errno == EINTR)
			return;
		err(1, "poll");
	}
	/* Which file does not matter: every one is read again. */
	if (ifd != -1 && pfds[0].revents != 0)
		while (read(ifd, ebuf, sizeof(ebuf)) > 0)
			continue;
}
