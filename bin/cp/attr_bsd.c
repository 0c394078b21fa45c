/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on FreeBSD: access control lists (NFSv4 or POSIX.1e, whichever
 * the source's file system has), user extended attributes, file flags.
 */

#include <sys/types.h>
#include <sys/acl.h>
#include <sys/extattr.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

static int	copy_acls(const struct attr_source *,
		    const struct attr_target *);
static int	copy_acl(int, const struct attr_target *, acl_type_t);
static int	copy_extattrs(int, int, const struct attr_target *);
static ssize_t	list_names(int, int, struct buf *);
static ssize_t	get_value(int, int, const char *, struct buf *);

/* The system namespace belongs to the system, not to the file's owner. */
int
attr_copy(const struct attr_source *s, const struct attr_target *t)
{

	return (copy_extattrs(s->fd, EXTATTR_NAMESPACE_USER, t) |
	    copy_acls(s, t));
}

/*
 * As FreeBSD's cp: an ACL that the mode says all of is not copied, and a
 * file system without ACLs has none to copy.  A directory's POSIX.1e
 * default ACL, which its new entries inherit, comes too.
 */
static int
copy_acls(const struct attr_source *s, const struct attr_target *t)
{
	long r;

	if ((r = fpathconf(s->fd, _PC_ACL_NFS4)) > 0)
		return (copy_acl(s->fd, t, ACL_TYPE_NFS4));
	if (r == -1 && errno != EINVAL) {
		warn("fpathconf(..., _PC_ACL_NFS4) failed for %s", dst.p);
		return (1);
	}
	if ((r = fpathconf(s->fd, _PC_ACL_EXTENDED)) <= 0) {
		if (r == 0 || errno == EINVAL)
			return (0);
		warn("fpathconf(..., _PC_ACL_EXTENDED) failed for %s", dst.p);
		return (1);
	}
	return (copy_acl(s->fd, t, ACL_TYPE_ACCESS) |
	    (S_ISDIR(s->st->st_mode) ? copy_acl(s->fd, t, ACL_TYPE_DEFAULT) :
	    0));
}

static int
copy_acl(int sfd, const struct attr_target *t, acl_type_t type)
{
	acl_entry_t entry;
	acl_t acl;
	int rv, trivial;

	if ((acl = acl_get_fd_np(sfd, type)) == NULL) {
		warn("failed to get acl entries while setting %s", dst.p);
		return (1);
	}
	rv = 0;
	if (type == ACL_TYPE_DEFAULT)
		/* An empty default ACL is no default ACL. */
		trivial = acl_get_entry(acl, ACL_FIRST_ENTRY, &entry) != 1;
	else if (acl_is_trivial_np(acl, &trivial) != 0) {
		warn("acl_is_trivial() failed for %s", dst.p);
		rv = 1;
		trivial = 1;
	}
	if (!trivial && acl_set_fd_np(t->fd, acl, type) != 0) {
		warn("failed to set acl entries for %s", dst.p);
		rv = 1;
	}
	acl_free(acl);
	return (rv);
}

/*
 * Each attribute of namespace ns: the first failure ends the copy, and
 * is reported once.
 */
static int
copy_extattrs(int sfd, int ns, const struct attr_target *t)
{
	static struct buf names, value;
	char name[256];
	unsigned char *end, *p;
	ssize_t len, vlen;

	if ((len = list_names(sfd, ns, &names)) == -1)
		warn("%s", src.p);
	if (len <= 0)
		return (len != 0);
	end = (unsigned char *)names.p + len;
	/* Each name is a length byte and that many bytes, no NUL. */
	for (p = (unsigned char *)names.p; p < end && p + 1 + *p <= end;
	    p += 1 + *p) {
		memcpy(name, p + 1, *p);
		name[*p] = '\0';
		if ((vlen = get_value(sfd, ns, name, &value)) == -1) {
			/* Removed since it was listed: nothing to keep. */
			if (errno == ENOATTR)
				continue;
		} else if (extattr_set_fd(t->fd, ns, name, value.p,
		    (size_t)vlen) == vlen)
			continue;
		warn("%s: error copying extended attributes", dst.p);
		return (1);
	}
	return (0);
}

/*
 * The names in fd's namespace ns; 0 where its file system has none.  A
 * byte more than the list is asked for: a full buffer is a list that grew
 * meanwhile and was cut short.
 */
static ssize_t
list_names(int fd, int ns, struct buf *b)
{
	ssize_t len;

	for (;;) {
		if ((len = extattr_list_fd(fd, ns, NULL, 0)) <= 0)
			return (len == -1 && errno == EOPNOTSUPP ? 0 : len);
		buf_room(b, (size_t)len + 1);
		if ((len = extattr_list_fd(fd, ns, b->p, b->cap)) == -1 ||
		    (size_t)len < b->cap)
			return (len);
	}
}

static ssize_t
get_value(int fd, int ns, const char *name, struct buf *b)
{
	ssize_t len;

	for (;;) {
		if ((len = extattr_get_fd(fd, ns, name, NULL, 0)) == -1)
			return (-1);
		buf_room(b, (size_t)len + 1);
		if ((len = extattr_get_fd(fd, ns, name, b->p, b->cap)) == -1 ||
		    (size_t)len < b->cap)
			return (len);
	}
}

/*
 * File flags, as FreeBSD's cp keeps them: a file system without them
 * (NFS) is an error only when the source has some.  A link or a node made
 * anew has none yet.
 */
int
attr_flags(const struct attr_source *s, const struct attr_target *t,
    const struct stat *tst)
{
	unsigned long flags;
	int r;

	flags = s->st->st_flags;
	if (t->fd != -1) {
		if (tst->st_flags == flags)
			return (0);
		r = fchflags(t->fd, flags);
	} else {
		if (flags == 0)
			return (0);
		r = chflagsat(t->dir, t->name, flags, AT_SYMLINK_NOFOLLOW);
	}
	if (r == 0 || (errno == EOPNOTSUPP && flags == 0))
		return (0);
	warn("chflags: %s", dst.p);
	return (1);
}
