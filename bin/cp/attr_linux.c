/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp -p on Linux: POSIX access control lists, user extended attributes
 * and inode flags.  The ACLs are the system.posix_acl_access and
 * system.posix_acl_default extended attributes, copied as they are,
 * which is what the kernel's own format is for.  Other namespaces
 * (security, trusted) belong to the system, not to the file's owner,
 * and are left alone.
 */

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <linux/fs.h>

#include <err.h>
#include <errno.h>
#include <string.h>

#include "extern.h"

/*
 * The inode flags that describe the file rather than its layout on disk
 * (what chattr(1) calls a, i, d, A, S and D): the ones FreeBSD's file
 * flags have counterparts of.  Compression, extents, encryption and the
 * like are the target file system's business.
 */
#define	KEPT_FLAGS	(FS_APPEND_FL | FS_IMMUTABLE_FL | FS_NODUMP_FL | \
			    FS_NOATIME_FL | FS_SYNC_FL | FS_DIRSYNC_FL)

#define	ACL_ACCESS	"system.posix_acl_access"
#define	ACL_DEFAULT	"system.posix_acl_default"

static ssize_t	list_names(int, struct buf *);
static ssize_t	get_value(int, const char *, struct buf *);
static int	get_flags(int, const struct stat *, int *);

/*
 * Each user.* attribute and each ACL of the source onto the target.  A
 * target file system that refuses them is reported once for the ACLs, as
 * FreeBSD reports it, and once for the rest, as NetBSD does.
 */
int
attr_copy(const struct attr_source *s, const struct attr_target *t)
{
	static struct buf names, value;
	ssize_t len, vlen;
	char *name;
	int acl, aclbad, xbad;

	if ((len = list_names(s->fd, &names)) == -1)
		warn("%s", src.p);
	if (len <= 0)
		return (len != 0);
	aclbad = xbad = 0;
	for (name = names.p; name < names.p + len; name += strlen(name) + 1) {
		acl = strcmp(name, ACL_ACCESS) == 0 ||
		    strcmp(name, ACL_DEFAULT) == 0;
		if (acl ? aclbad : (xbad || strncmp(name, "user.", 5) != 0))
			continue;
		if ((vlen = get_value(s->fd, name, &value)) == -1) {
			/* Removed since it was listed: nothing to keep. */
			if (errno == ENODATA)
				continue;
		} else if (fsetxattr(t->fd, name, value.p, (size_t)vlen, 0) ==
		    0)
			continue;
		if (acl) {
			warn("failed to set acl entries for %s", dst.p);
			aclbad = 1;
		} else {
			warn("%s: error copying extended attributes", dst.p);
			xbad = 1;
		}
	}
	return (aclbad | xbad);
}

/*
 * The source's kept flags onto the target, the target's others left as
 * they are.  Only regular files and directories, open: links, FIFOs and
 * device nodes have no flags to set, and the ioctl on a device node
 * would reach its driver.
 */
int
attr_flags(const struct attr_source *s, const struct attr_target *t,
    const struct stat *tst)
{
	int want, have;

	if (t->fd == -1)
		return (0);
	if (s->fd == -1 || get_flags(s->fd, s->st, &want) == -1)
		want = 0;
	want &= KEPT_FLAGS;
	if (get_flags(t->fd, tst, &have) == -1) {
		if (want == 0)
			return (0);
		/* The target's file system has no flags at all. */
		if (errno == ENOTTY || errno == ENOSYS || errno == EINVAL)
			errno = EOPNOTSUPP;
		warn("chflags: %s", dst.p);
		return (1);
	}
	if ((have & KEPT_FLAGS) == want)
		return (0);
	have = (have & ~KEPT_FLAGS) | want;
	if (ioctl(t->fd, FS_IOC_SETFLAGS, &have) == -1) {
		warn("chflags: %s", dst.p);
		return (1);
	}
	return (0);
}

static int
get_flags(int fd, const struct stat *st, int *flags)
{

	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) {
		errno = EOPNOTSUPP;
		return (-1);
	}
	/* The kernel reads and writes an int, whatever the macro says. */
	return (ioctl(fd, FS_IOC_GETFLAGS, flags));
}

/*
 * The names of fd's attributes, or 0 where its file system has none; the
 * buffer is tried first, as it is large enough for most files.
 */
static ssize_t
list_names(int fd, struct buf *b)
{
	ssize_t len;

	buf_room(b, 1024);
	while ((len = flistxattr(fd, b->p, b->cap)) == -1) {
		if (errno == ENOTSUP || errno == ENOSYS)
			return (0);
		if (errno != ERANGE || (len = flistxattr(fd, NULL, 0)) == -1)
			return (-1);
		buf_room(b, (size_t)len);
	}
	return (len);
}

static ssize_t
get_value(int fd, const char *name, struct buf *b)
{
	ssize_t len;

	buf_room(b, 1024);
	while ((len = fgetxattr(fd, name, b->p, b->cap)) == -1) {
		if (errno != ERANGE ||
		    (len = fgetxattr(fd, name, NULL, 0)) == -1)
			return (-1);
		buf_room(b, (size_t)len);
	}
	return (len);
}
