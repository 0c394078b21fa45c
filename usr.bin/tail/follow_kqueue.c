/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Waiting for -f on FreeBSD and NetBSD: kqueue(2) says when a file
 * changes (EVFILT_VNODE) and when a terminal, FIFO or device has data
 * (EVFILT_READ).  A descriptor closed leaves the queue by itself.
 */

#include <sys/param.h>
#include <sys/event.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>

#include "extern.h"

/* A write, a truncation, a rename or removal (for -F), a revoke. */
#define	WATCHED	(NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | \
		NOTE_RENAME | NOTE_REVOKE)

static int	kq = -1;

static int	fs_events(int);

void
ev_init(void)
{

	kq = kqueue();
}

void
ev_set(struct file *files, int n)
{
	struct kevent kev;
	struct file *f;
	int fd;

	for (f = files; f < files + n; f++) {
		if ((fd = f->f_in.in_fd) == -1)
			continue;
		f->f_events = 0;
		if (kq == -1)
			continue;
		if (S_ISREG(f->f_in.in_st.st_mode)) {
			if (!fs_events(fd))
				continue;
			EV_SET(&kev, fd, EVFILT_VNODE, EV_ADD | EV_CLEAR,
			    WATCHED, 0, 0);
		} else {
			/*
			 * At its end it would be ready forever: it wakes us
			 * only when that changes (EV_CLEAR), as FreeBSD's
			 * tail has it.  An event keeps the flags it was added
			 * with, so it is added anew.
			 */
			EV_SET(&kev, fd, EVFILT_READ, EV_DELETE, 0, 0, 0);
			(void)kevent(kq, &kev, 1, NULL, 0, NULL);
			EV_SET(&kev, fd, EVFILT_READ,
			    f->f_eof ? EV_ADD | EV_CLEAR : EV_ADD, 0, 0, 0);
		}
		f->f_events = kevent(kq, &kev, 1, NULL, 0, NULL) == 0;
	}
}

void
ev_wait(int ms)
{
	struct kevent ev[16];
	struct timespec ts;

	if (kq == -1) {
		(void)poll(NULL, 0, ms);
		return;
	}
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000;
	if (kevent(kq, NULL, 0, ev, 16, ms < 0 ? NULL : &ts) == -1 &&
	    errno != EINTR)
		err(1, "kevent");
}

/*
 * Whether the host hears of a file's changes: not when it lives on
 * another machine (NFS, SMB), where kqueue stays silent.  NetBSD says so
 * in statvfs(2), FreeBSD in statfs(2).
 */
static int
fs_events(int fd)
{
#ifdef ST_LOCAL
	struct statvfs sv;

	return (fstatvfs(fd, &sv) == 0 && (sv.f_flag & ST_LOCAL) != 0);
#else
	struct statfs sf;

	return (fstatfs(fd, &sf) == 0 && (sf.f_flags & MNT_LOCAL) != 0);
#endif
}
