/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on FreeBSD and NetBSD: access control lists (NFSv4 or POSIX.1e,
 * whichever the source's file system has), extended attributes, and file
 * flags.
 */

#include <sys/types.h>
#include <sys/acl.h>
#include <sys/extattr.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

static int	copy_acls(const struct attr_source *,
		    const struct attr_target *);
static int	copy_acl(int, const struct attr_target *, acl_type_t);
static int	copy_extattrs(int, const struct attr_target *);
static int	copy_space(int, int, const struct attr_target *);
static int	copy_names(int, int, const struct attr_target *,
		    struct xbuf *, struct xbuf *);
static ssize_t	list_names(int, int, struct xbuf *);
static ssize_t	get_value(int, int, const char *, struct xbuf *);
static int	chflags_at(const struct attr_target *, unsigned long);
static const int *extattr_spaces(void);

int
attr_copy(const struct attr_source *s, const struct attr_target *t)
{

	return (copy_extattrs(s->fd, t) | copy_acls(s, t));
}

/*
 * As FreeBSD's cp: an ACL the mode says all of is not copied, and a
 * file system without ACLs has none to copy.  A directory's POSIX.1e
 * default ACL, what its new entries inherit, comes too.
 */
static int
copy_acls(const struct attr_source *s, const struct attr_target *t)
{
	long r;
	int sfd;

	sfd = s->fd;
	if ((r = fpathconf(sfd, _PC_ACL_NFS4)) > 0)
		return (copy_acl(sfd, t, ACL_TYPE_NFS4));
	if (r == -1 && errno != EINVAL) {
		cp_warn("fpathconf(..., _PC_ACL_NFS4) failed for %s",
		    t->path);
		return (1);
	}
	if ((r = fpathconf(sfd, _PC_ACL_EXTENDED)) <= 0) {
		if (r == 0 || errno == EINVAL)
			return (0);
		cp_warn("fpathconf(..., _PC_ACL_EXTENDED) failed for %s",
		    t->path);
		return (1);
	}
	return (copy_acl(sfd, t, ACL_TYPE_ACCESS) |
	    (S_ISDIR(s->st->st_mode) ? copy_acl(sfd, t, ACL_TYPE_DEFAULT) :
	    0));
}

static int
copy_acl(int sfd, const struct attr_target *t, acl_type_t type)
{
	acl_entry_t entry;
	acl_t acl;
	int rv, trivial;

	if ((acl = acl_get_fd_np(sfd, type)) == NULL) {
		cp_warn("failed to get acl entries while setting %s",
		    t->path);
		return (1);
	}
	rv = 0;
	if (type == ACL_TYPE_DEFAULT)
		/* An empty default ACL is no default ACL. */
		trivial = acl_get_entry(acl, ACL_FIRST_ENTRY, &entry) != 1;
	else if (acl_is_trivial_np(acl, &trivial) != 0) {
		cp_warn("acl_is_trivial() failed for %s", t->path);
		rv = 1;
		trivial = 1;
	}
	if (!trivial && acl_set_fd_np(t->fd, acl, type) != 0) {
		cp_warn("failed to set acl entries for %s", t->path);
		rv = 1;
	}
	acl_free(acl);
	return (rv);
}

/*
 * Each attribute of each namespace, as NetBSD's cp copies them: the
 * first failure ends the copy and is reported once, as NetBSD reports it.
 */
static int
copy_extattrs(int sfd, const struct attr_target *t)
{
	const int *ns;

	for (ns = extattr_spaces(); *ns != 0; ns++)
		if (copy_space(sfd, *ns, t) != 0)
			return (1);
	return (0);
}

static int
copy_space(int sfd, int ns, const struct attr_target *t)
{
	struct xbuf names, value;
	int rv;

	/* Each call its own: workers of the pool copy files side by side. */
	memset(&names, 0, sizeof(names));
	memset(&value, 0, sizeof(value));
	rv = copy_names(sfd, ns, t, &names, &value);
	free(names.p);
	free(value.p);
	return (rv);
}

static int
copy_names(int sfd, int ns, const struct attr_target *t, struct xbuf *names,
    struct xbuf *value)
{
	char name[256];
	unsigned char *p, *end;
	ssize_t len, vlen;

	if ((len = list_names(sfd, ns, names)) <= 0)
		return (len == 0 ? 0 : 1);
	end = (unsigned char *)names->p + len;
	/* Each name is a length byte and that many bytes, no NUL. */
	for (p = (unsigned char *)names->p; p < end && p + 1 + *p <= end;
	    p += 1 + *p) {
		memcpy(name, p + 1, *p);
		name[*p] = '\0';
		if ((vlen = get_value(sfd, ns, name, value)) == -1) {
			/* Removed since it was listed: nothing to keep. */
			if (errno == ENOATTR)
				continue;
		} else if (extattr_set_fd(t->fd, ns, name, value->p,
		    (size_t)vlen) == vlen)
			continue;
		cp_warn("%s: error copying extended attributes",
		    t->path);
		return (1);
	}
	return (0);
}

/*
 * File flags, as FreeBSD's cp keeps them: a file system without them
 * (NFS) is an error only when the source has some.  A link or a node
 * made anew by the copy has none yet.
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
		r = chflags_at(t, flags);
	}
	if (r == 0 || (errno == EOPNOTSUPP && flags == 0))
		return (0);
	cp_warn("chflags: %s", t->path);
	return (1);
}

/* The names in fd's namespace ns; 0 where its file system has none. */
static ssize_t
list_names(int fd, int ns, struct xbuf *b)
{
	ssize_t len, want;

	for (;;) {
		want = extattr_list_fd(fd, ns, NULL, 0);
		if (want <= 0) {
			if (want == 0 || errno == EOPNOTSUPP)
				return (0);
			cp_warn("%s", src.p);
			return (-1);
		}
		/*
		 * A byte more than the list: a full buffer is a list that
		 * grew meanwhile and was cut short, and is asked again.
		 */
		if ((size_t)want >= b->len)
			xbuf_grow(b, (size_t)want + 1);
		len = extattr_list_fd(fd, ns, b->p, b->len);
		if (len == -1) {
			cp_warn("%s", src.p);
			return (-1);
		}
		if (len < (ssize_t)b->len)
			return (len);
	}
}

static ssize_t
get_value(int fd, int ns, const char *name, struct xbuf *b)
{
	ssize_t len, want;

	for (;;) {
		want = extattr_get_fd(fd, ns, name, NULL, 0);
		if (want == -1)
			return (-1);
		if ((size_t)want >= b->len)
			xbuf_grow(b, (size_t)want + 1);
		len = extattr_get_fd(fd, ns, name, b->p, b->len);
		if (len == -1 || len < (ssize_t)b->len)
			return (len);
	}
}

#ifdef __NetBSD__
/*
 * NetBSD has no chflagsat(2), and a path from the top could be led out of
 * the target tree by a directory swapped for a link meanwhile: lchflags(2)
 * is called from inside the directory, and the current directory put
 * back, which links and nodes with flags are rare enough to afford.
 */
static int
chflags_at(const struct attr_target *t, unsigned long flags)
{
	int cwd, r, serrno;

	if (t->dir == AT_FDCWD)
		return (lchflags(t->name, flags));
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (-1);
	r = fchdir(t->dir) == 0 ? lchflags(t->name, flags) : -1;
	serrno = errno;
	/* The operands still to copy are named from where we were. */
	if (fchdir(cwd) == -1)
		err(1, ".");
	(void)close(cwd);
	errno = serrno;
	return (r);
}

/*
 * As NetBSD's cp: the user namespace, and the system namespace too when
 * the superuser runs it, as only the superuser may read and write that.
 */
static const int *
extattr_spaces(void)
{
	static const int all[] = {
		EXTATTR_NAMESPACE_USER, EXTATTR_NAMESPACE_SYSTEM, 0
	};
	static const int user[] = { EXTATTR_NAMESPACE_USER, 0 };

	return (getuid() == 0 ? all : user);
}
#else
static int
chflags_at(const struct attr_target *t, unsigned long flags)
{

	return (chflagsat(t->dir, t->name, flags, AT_SYMLINK_NOFOLLOW));
}

/* The system namespace belongs to the system, not to the file's owner. */
static const int *
extattr_spaces(void)
{
	static const int spaces[] = { EXTATTR_NAMESPACE_USER, 0 };

	return (spaces);
}
#endif
