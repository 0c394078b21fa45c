/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining cat or tail to its operands with the host's sandbox
 * (sandbox_linux.c: Landlock).
 *
 * Every operand is opened when its turn comes, confined or not, so that
 * the program reads what stands at each name then, as it would
 * unconfined; tail -F opens a name again whenever it leads to a new
 * file.  The
 * sandbox therefore cannot allow files, which a rename or a new FIFO
 * replaces under the same name; it allows reading beneath the directories
 * that hold the operands.  For an operand that is a symbolic link, it
 * also allows the file the link leads to now and that file's directory.
 * Nothing else can be read, and nothing can be written, created or run
 * by name, but beneath the directory the program gives for its
 * temporary files, where regular files can be made, read, written and
 * removed.
 *
 * What no rule can follow is a name that comes to lead into another
 * directory: a directory on its way replaced by another, or the name
 * made a link elsewhere, before its turn.  Only a helper process that
 * stays unconfined and opens each operand could follow that, at the
 * price of a process for every run; open_confined() instead tells that
 * refusal from a denied permission, for the program to say so (cat(1),
 * tail(1)).
 *
 * Where a rule cannot be made (an operand's directory is missing or
 * cannot be searched), or there are too many operands, or the kernel
 * has no sandbox, the program runs unconfined.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confine.h"
#include "sandbox.h"

/*
 * The most operands confined.  Each costs an lstat(2) before anything is
 * read, and every open in the sandbox a check of the directories above
 * the file; many small files (the command lines xargs(1) makes) would pay
 * for both at every file, so beyond this the program runs unconfined.
 */
#define	CONFINE_MAX	1024

static int	confined;

static int	allow_dirs(struct sandbox *, char *const [], size_t);
static int	compare_names(const void *, const void *);
static int	allow_links(struct sandbox *, const char *);
static int	allow_link(struct sandbox *, const char *, const struct stat *);
static int	allow_dangling(struct sandbox *, const char *,
		    const struct stat *);
static char	*dir_of(const char *);

void
confine(char *const operands[], int flags __attribute__((__unused__)),
    int tmpdir)
{
	struct sandbox *sb;
	size_t i, n;

	for (n = 0; operands[n] != NULL; n++)
		if (n == CONFINE_MAX)
			return;
	if ((sb = sandbox_new()) == NULL)
		return;
	if (allow_dirs(sb, operands, n) == 0) {
		for (i = 0; i < n; i++)
			if (allow_links(sb, operands[i]) != 0)
				break;
		if (i == n && (tmpdir == -1 ||
		    sandbox_allow_temp(sb, tmpdir) == 0) &&
		    sandbox_enter(sb) == 0)
			confined = 1;
	}
	sandbox_free(sb);
}

/*
 * Open operand path for reading, at its turn, with more of open(2)'s
 * flags.  Where the sandbox refused what the file's permissions allow,
 * the answer is what the program would have met unconfined when that can
 * be told without opening (a directory), or else OPEN_OUTSIDE.
 */
int
open_confined(const char *path, int flags)
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
	return (OPEN_OUTSIDE);
}

/* The sandbox lets every name be looked up. */
int
stat_confined(const char *path, struct stat *sb)
{

	return (stat(path, sb));
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
