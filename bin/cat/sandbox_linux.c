/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The sandbox of cat, tail and yes on Linux: Landlock (Linux 5.13 and
 * later, when enabled).
 *
 * The ruleset handles every file system access right the kernel knows:
 * once it is in force, nothing can be opened, created, written, removed,
 * linked, truncated or executed by name, except what a rule allows.  The
 * rules confine.c asks for allow reading: beneath a directory, its
 * files and the directories in it (so that an operand that is a
 * directory fails at its read, as it would unconfined), or one file by
 * its inode; and beneath the directory of tail's temporary files, making,
 * reading, writing and removing regular files; yes asks for none.  What
 * was open before stays usable: the standard descriptors.
 * Connecting to a Unix-domain socket by name is not a file system access
 * Landlock restricts up to its ABI 7, so socket operands still work.
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

#include <linux/landlock.h>
#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "sandbox.h"

/*
 * Rights newer than some headers (Linux 6.1's has up to REFER), from the
 * kernel's ABI, which never changes a bit's meaning.
 */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define	LANDLOCK_ACCESS_FS_TRUNCATE	(1ULL << 14)	/* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define	LANDLOCK_ACCESS_FS_IOCTL_DEV	(1ULL << 15)	/* ABI 5 */
#endif

/* ABI 1's rights: everything from EXECUTE to MAKE_SYM. */
#define	ACCESS_FS_ABI1	((LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1)

/* The most directories on procfs kept open (sandbox_allow_dir()). */
#define	PROC_KEPT	16

struct sandbox {
	int	sb_ruleset;
	int	sb_entered;
	size_t	sb_nkept;
	int	sb_kept[PROC_KEPT];
};

static int	ruleset_new(void);
static int	add_rule(struct sandbox *, int, uint64_t);
static void	close_keeping_errno(int);
static int	allow_own_proc(struct sandbox *);

struct sandbox *
sandbox_new(void)
{
	struct sandbox *sb;

	if ((sb = malloc(sizeof(*sb))) == NULL)
		return (NULL);
	if ((sb->sb_ruleset = ruleset_new()) == -1) {
		free(sb);
		return (NULL);
	}
	sb->sb_entered = 0;
	sb->sb_nkept = 0;
	return (sb);
}

/* A ruleset that handles all the kernel's file system rights, or -1. */
static int
ruleset_new(void)
{
	struct landlock_ruleset_attr attr;
	long abi;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1)
		return (-1);
	attr.handled_access_fs = ACCESS_FS_ABI1;
	if (abi >= 2)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		attr.handled_access_fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return ((int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr),
	    0));
}

/*
 * Allow reading any file or directory beneath dir, whatever name leads
 * to it.  A rule holds the directory's inode; procfs makes a new inode
 * for a new lookup of a directory once its old one has left the cache,
 * so a directory there is kept open, up to PROC_KEPT of them, to keep it.
 */
int
sandbox_allow_dir(struct sandbox *sb, const char *dir)
{
	struct statfs sfs;
	int fd, keep;

	if ((fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (-1);
	keep = fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
	if ((keep && sb->sb_nkept == PROC_KEPT) ||
	    add_rule(sb, fd, LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_READ_DIR) != 0) {
		close_keeping_errno(fd);
		return (-1);
	}
	if (keep)
		sb->sb_kept[sb->sb_nkept++] = fd;
	else
		(void)close(fd);
	return (0);
}

/*
 * Allow reading what path leads to now (its inode, whatever name later
 * leads to it).  A pipe or socket named through /dev/fd has no inode on a
 * file system (EBADFD): Landlock does not check opening it, and no rule
 * is needed.
 */
int
sandbox_allow_file(struct sandbox *sb, const char *path)
{
	int fd, rv;

	if ((fd = open(path, O_PATH | O_CLOEXEC)) == -1)
		return (-1);
	rv = add_rule(sb, fd, LANDLOCK_ACCESS_FS_READ_FILE);
	if (rv != 0 && errno == EBADFD)
		rv = 0;
	close_keeping_errno(fd);
	return (rv);
}

/*
 * Allow making, reading, writing and removing regular files beneath dir,
 * a directory's descriptor, where temporary files are made.  A rule
 * cannot tell the files the program makes from those there already: it
 * holds for every file beneath dir.  A file made by O_TMPFILE has no
 * name, and needs only reading and writing.
 */
int
sandbox_allow_temp(struct sandbox *sb, int dir)
{

	return (add_rule(sb, dir, LANDLOCK_ACCESS_FS_MAKE_REG |
	    LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_WRITE_FILE));
}

/* A rule allowing access beneath fd, a directory, or to fd, a file. */
static int
add_rule(struct sandbox *sb, int fd, uint64_t access)
{
	struct landlock_path_beneath_attr rule;

	rule.parent_fd = fd;
	rule.allowed_access = access;
	return ((int)syscall(SYS_landlock_add_rule, sb->sb_ruleset,
	    LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
}

static void
close_keeping_errno(int fd)
{
	int serrno;

	serrno = errno;
	(void)close(fd);
	errno = serrno;
}

int
sandbox_enter(struct sandbox *sb)
{

	if (allow_own_proc(sb) != 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_landlock_restrict_self, sb->sb_ruleset, 0) != 0)
		return (-1);
	sb->sb_entered = 1;
	return (0);
}

/* The directories kept for the rules stay open once they are in force. */
void
sandbox_free(struct sandbox *sb)
{
	size_t i;

	if (!sb->sb_entered)
		for (i = 0; i < sb->sb_nkept; i++)
			(void)close(sb->sb_kept[i]);
	(void)close(sb->sb_ruleset);
	free(sb);
}

#if defined(__SANITIZE_ADDRESS__)
#define	ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define	ASAN	1
#endif
#endif

#ifdef ASAN
/*
 * In an AddressSanitizer build (make SANITIZE=1), what the sanitizer
 * itself needs once cat is confined.  Its leak check reads
 * /proc/self/task and /proc/self/maps as the process exits: allow reading
 * this process's own /proc directory, kept open to the end, since procfs
 * makes a new inode for a new lookup once the old one is forgotten.  Its
 * reports would start llvm-symbolizer, which cannot be run, and die of
 * SIGPIPE writing to it: they give addresses instead (ASAN_OPTIONS may
 * still ask otherwise).
 */
const char	*__asan_default_options(void);

const char *
__asan_default_options(void)
{

	return ("symbolize=0");
}

static int
allow_own_proc(struct sandbox *sb)
{
	struct landlock_path_beneath_attr rule;

	if ((rule.parent_fd = open("/proc/self", O_PATH | O_CLOEXEC)) == -1)
		return (-1);
	rule.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_READ_DIR;
	return ((int)syscall(SYS_landlock_add_rule, sb->sb_ruleset,
	    LANDLOCK_RULE_PATH_BENEATH, &rule, 0));
}
#else
static int
allow_own_proc(struct sandbox *sb)
{

	(void)sb;
	return (0);
}
#endif
