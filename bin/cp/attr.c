/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: -p, the attributes a copy keeps.  Owner, mode and times are the
 * same everywhere and live here; access control lists, extended
 * attributes and file flags differ from system to system and live in
 * attr_<system>.c, which the Makefile chooses.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "extern.h"

static int	setfile_fd(const struct attr_source *,
		    const struct attr_target *);
static int	setfile_at(const struct attr_source *,
		    const struct attr_target *);
static int	set_owner(const struct attr_target *, const struct stat *,
		    mode_t *);
static int	set_times(const struct attr_target *, const struct stat *);

/*
 * Give the target the attributes of its source, described by st: the
 * target is open as fd, or else named by name relative to dir and is
 * not followed if a link.  sfd is the source, open, when it is a file or
 * a directory (-1 otherwise): access control lists and extended
 * attributes are read from it.  Returns 0, or 1 when something was not
 * kept (and reported).
 */
int
setfile(int fd, int dir, const char *name, int sfd, const struct stat *st)
{
	struct attr_source s;
	struct attr_target t;

	s.fd = sfd;
	s.st = st;
	t.fd = fd;
	t.dir = dir;
	t.name = name;
	if (fd != -1)
		return (setfile_fd(&s, &t));
	return (setfile_at(&s, &t));
}

/*
 * Owner first, as a change of owner may clear the set-id bits.  The
 * extended attributes need a target its owner may write: a read-only
 * source's mode is set once they are in.  Times after everything that
 * changes the file, and the flags last, as an immutable or append-only
 * file takes no other change.
 */
static int
setfile_fd(const struct attr_source *s, const struct attr_target *t)
{
	const struct stat *st;
	struct stat tst;
	mode_t mode, writable;
	int fd, rv, stale;

	st = s->st;
	fd = t->fd;
	if (fstat(fd, &tst) == -1) {
		warn("%s", dst.p);
		return (1);
	}
	mode = st->st_mode & MODEBITS;
	rv = stale = 0;
	if (tst.st_uid != st->st_uid || tst.st_gid != st->st_gid) {
		rv = set_owner(t, st, &mode);
		/* A new owner may have cleared the set-id bits, or not. */
		stale = 1;
	}
	writable = s->fd != -1 ? mode | S_IWUSR : mode;
	if ((stale || (tst.st_mode & MODEBITS) != writable) &&
	    fchmod(fd, writable) == -1) {
		warn("chmod: %s", dst.p);
		rv = 1;
		writable = mode;	/* said once is enough */
	}
	if (s->fd != -1) {
		rv |= attr_copy(s, t);
		if (writable != mode && fchmod(fd, mode) == -1) {
			warn("chmod: %s", dst.p);
			rv = 1;
		}
	}
	rv |= set_times(t, st);
	if (!Nflag)
		rv |= attr_flags(s, t, &tst);
	return (rv);
}

/* A link, a FIFO or a device node, by name. */
static int
setfile_at(const struct attr_source *s, const struct attr_target *t)
{
	const struct stat *st;
	mode_t mode;
	int islink, rv;

	st = s->st;
	islink = S_ISLNK(st->st_mode);
	mode = st->st_mode & MODEBITS;
	rv = set_owner(t, st, &mode);
	/*
	 * Never through a link: the FIFO just made may have been swapped
	 * for one to a file elsewhere.  Linux has no mode on links to keep.
	 */
	if (fchmodat(t->dir, t->name, mode, AT_SYMLINK_NOFOLLOW) == -1 &&
	    !(islink && (errno == EOPNOTSUPP || errno == ENOTSUP))) {
		warn("chmod: %s", dst.p);
		rv = 1;
	}
	rv |= set_times(t, st);
	if (!Nflag)
		rv |= attr_flags(s, t, NULL);
	return (rv);
}

/*
 * When the owner cannot be kept, neither are the set-id bits; failing
 * to keep it is otherwise not an error (only root may give files away).
 */
static int
set_owner(const struct attr_target *t, const struct stat *st, mode_t *mode)
{
	int r;

	if (t->fd != -1)
		r = fchown(t->fd, st->st_uid, st->st_gid);
	else
		r = fchownat(t->dir, t->name, st->st_uid, st->st_gid,
		    AT_SYMLINK_NOFOLLOW);
	if (r == 0)
		return (0);
	*mode &= ~(mode_t)(S_ISUID | S_ISGID);
	if (errno == EPERM)
		return (0);
	warn("chown: %s", dst.p);
	return (1);
}

static int
set_times(const struct attr_target *t, const struct stat *st)
{
	struct timespec ts[2];
	int r;

	ts[0] = st->st_atim;
	ts[1] = st->st_mtim;
	if (t->fd != -1)
		r = futimens(t->fd, ts);
	else
		r = utimensat(t->dir, t->name, ts, AT_SYMLINK_NOFOLLOW);
	if (r == -1) {
		warn("utimes: %s", dst.p);
		return (1);
	}
	return (0);
}
