/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The Linux sandbox, Landlock, over a program's operands.
 *
 * Every operand is opened when its turn comes, so that the program reads
 * what stands at each name then, as it would unconfined; tail -F opens a
 * name again whenever it leads to a new file.  The sandbox therefore
 * cannot allow files, which a rename replaces under the same name; it
 * allows reading beneath the directories that hold the operands and, for
 * a symbolic link, the file it leads to now and that file's directory.
 * Nothing else can be read, and nothing can be written, created or run
 * by name.  A name that comes to lead into another directory before its
 * turn is refused; bufsz_open() tells that from a denied permission.
 *
 * Where a rule cannot be made (an operand's directory is missing or
 * cannot be searched), or there are too many operands, or the kernel
 * has no Landlock, the program runs unconfined.
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

#include <linux/landlock.h>
#include <linux/magic.h>

#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

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
	long	sb_abi;
	int	sb_entered;
	size_t	sb_nkept;
	int	sb_kept[PROC_KEPT];
};

static struct sandbox *sandbox_new(void);
static int	sandbox_allow_dir(struct sandbox *, const char *);
static int	sandbox_allow_file(struct sandbox *, const char *);
static int	sandbox_enter(struct sandbox *);
static void	sandbox_free(struct sandbox *);
static int	ruleset_new(long *);
static int	add_rule(struct sandbox *, int, uint64_t);
static void	close_keeping_errno(int);
static int	allow_own_proc(struct sandbox *);

static struct sandbox *
sandbox_new(void)
{
	struct sandbox *sb;

	if ((sb = malloc(sizeof(*sb))) == NULL)
		return (NULL);
	if ((sb->sb_ruleset = ruleset_new(&sb->sb_abi)) == -1) {
		free(sb);
		return (NULL);
	}
	sb->sb_entered = 0;
	sb->sb_nkept = 0;
	return (sb);
}

/* A ruleset that handles all the kernel's file system rights, or -1. */
static int
ruleset_new(long *abip)
{
	struct landlock_ruleset_attr attr;
	long abi;

	*abip = abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
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
static int
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
static int
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

static int
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
static void
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

/*
 * The most operands confined.  Each costs an lstat(2) before anything is
 * read, and every open in the sandbox a check of the directories above
 * the file; many small files (the command lines xargs(1) makes) would pay
 * for both at every file, so beyond this the program runs unconfined.
 */
#define	CONFINE_MAX	1024

static int	allow_temp(struct sandbox *, int);
static int	allow_dirs(struct sandbox *, char *const [], size_t);
static int	compare_names(const void *, const void *);
static int	allow_links(struct sandbox *, const char *);
static int	allow_link(struct sandbox *, const char *, const struct stat *);
static int	allow_dangling(struct sandbox *, const char *,
		    const struct stat *);
static char	*dir_of(const char *);

static int	confined;

void
bufsz_host_sandbox(char *const operands[], int tmpdir)
{
	struct sandbox *sb;
	size_t i, n;

	for (n = 0; operands[n] != NULL; n++)
		if (n == CONFINE_MAX)
			return;
	if ((sb = sandbox_new()) == NULL)
		return;
	if (allow_dirs(sb, operands, n) == 0 &&
	    (tmpdir == -1 || allow_temp(sb, tmpdir) == 0)) {
		for (i = 0; i < n; i++)
			if (allow_links(sb, operands[i]) != 0)
				break;
		if (i == n && sandbox_enter(sb) == 0)
			confined = 1;
	}
	sandbox_free(sb);
}

/*
 * Where the sandbox refused what the file's permissions allow, the name
 * now leads outside it, unless what it leads to tells otherwise (a
 * directory).
 */
int
bufsz_open(const char *path, int flags)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NOCTTY | flags)) != -1 ||
	    errno != EACCES || !confined)
		return (fd);
	if (faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) != 0) {
		errno = EACCES;
		return (-1);
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return (-1);
	}
	return (BUFSZ_OUTSIDE);
}

/*
 * Making, reading, writing and removing regular files beneath tmpdir, a
 * directory's descriptor.  A rule cannot tell the files the program makes
 * from those there already: it holds for every file beneath it.
 */
static int
allow_temp(struct sandbox *sb, int tmpdir)
{

	return (add_rule(sb, tmpdir, LANDLOCK_ACCESS_FS_MAKE_REG |
	    LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
	    LANDLOCK_ACCESS_FS_WRITE_FILE));
}

/*
 * Allow the directories that hold the operands, each once, however many
 * operands it holds and in whatever order they come.  "-" is the
 * standard input, open already.
 */
static int
allow_dirs(struct sandbox *sb, char *const operands[], size_t n)
{
	char **dirs;
	size_t i, nd;
	int rv;

	if ((dirs = calloc(n + 1, sizeof(*dirs))) == NULL)
		return (-1);
	rv = 0;
	nd = 0;
	for (i = 0; i < n && rv == 0; i++)
		if (strcmp(operands[i], "-") != 0 && *operands[i] != '\0' &&
		    (dirs[nd++] = dir_of(operands[i])) == NULL)
			rv = -1;
	if (rv == 0)
		qsort(dirs, nd, sizeof(*dirs), compare_names);
	for (i = 0; i < nd && rv == 0; i++)
		if (i == 0 || strcmp(dirs[i], dirs[i - 1]) != 0)
			rv = sandbox_allow_dir(sb, dirs[i]);
	for (i = 0; i < nd; i++)
		free(dirs[i]);
	free(dirs);
	return (rv);
}

static int
compare_names(const void *a, const void *b)
{

	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * For an operand that is a symbolic link, what it leads to.  A name that
 * appears later is allowed by its directory's rule.
 */
static int
allow_links(struct sandbox *sb, const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0 || *path == '\0')
		return (0);
	if (lstat(path, &st) != 0)
		return (errno == ENOENT ? 0 : -1);
	return (S_ISLNK(st.st_mode) ? allow_link(sb, path, &st) : 0);
}

/*
 * A symbolic link: the file it leads to now, which may be anywhere (or,
 * through /dev/fd and /proc, be no file on any file system), and the
 * directory that file is in, should it be replaced there or, for a link
 * that leads nowhere yet, be made there.
 */
static int
allow_link(struct sandbox *sb, const char *path, const struct stat *st)
{
	char *real, *dir;
	int rv;

	if (sandbox_allow_file(sb, path) != 0)
		return (errno == ENOENT ? allow_dangling(sb, path, st) : -1);
	if ((real = realpath(path, NULL)) == NULL)
		return (0);
	rv = -1;
	if ((dir = dir_of(real)) != NULL) {
		rv = sandbox_allow_dir(sb, dir);
		free(dir);
	}
	free(real);
	return (rv);
}

/*
 * A link to nothing yet: the directory its target would be in, taken
 * from the link's text, relative to the link's own directory.
 */
static int
allow_dangling(struct sandbox *sb, const char *path, const struct stat *st)
{
	char *target, *joined, *dir, *tdir;
	ssize_t len;
	int rv;

	rv = -1;
	dir = joined = tdir = NULL;
	if ((target = malloc((size_t)st->st_size + 1)) == NULL ||
	    (len = readlink(path, target, (size_t)st->st_size + 1)) == -1 ||
	    len > st->st_size)
		goto out;
	target[len] = '\0';
	if (*target != '/') {
		if ((dir = dir_of(path)) == NULL ||
		    (joined = malloc(strlen(dir) + 1 + (size_t)len + 1)) == NULL)
			goto out;
		(void)strcpy(joined, dir);
		(void)strcat(joined, "/");
		(void)strcat(joined, target);
	}
	if ((tdir = dir_of(joined != NULL ? joined : target)) != NULL)
		rv = sandbox_allow_dir(sb, tdir);
out:
	free(target);
	free(dir);
	free(joined);
	free(tdir);
	return (rv);
}

/* The directory that holds the last name of path, as a new string. */
static char *
dir_of(const char *path)
{
	size_t len;

	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	while (len > 0 && path[len - 1] != '/')
		len--;
	if (len == 0)
		return (strdup("."));
	while (len > 1 && path[len - 1] == '/')
		len--;
	return (strndup(path, len));
}
