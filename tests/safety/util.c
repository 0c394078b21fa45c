/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Small helpers: memory that is there or the checker stops, whole reads
 * and writes, paths, and removing a scratch area.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL)
		err(3, NULL);
	return (p);
}

void *
xrealloc(void *p, size_t n)
{

	if ((p = realloc(p, n == 0 ? 1 : n)) == NULL)
		err(3, NULL);
	return (p);
}

char *
xstrdup(const char *s)
{
	char *p;

	if ((p = strdup(s)) == NULL)
		err(3, NULL);
	return (p);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		err(3, "vsnprintf");
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	(void)vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return (p);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{

	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return (rmdir(path) == -1 && errno != ENOENT ? -1 : 0);
	return (unlink(path) == -1 && errno != ENOENT ? -1 : 0);
}

/*
 * Remove a scratch area, never following a link out of it.  As root,
 * modes do not stand in the way; as anyone else, give directories their
 * owner's permissions back first.
 */
static int
rm_chmod(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{

	(void)ftw;
	if (flag == FTW_D || flag == FTW_DNR)
		(void)chmod(path, (st->st_mode & 07777) | S_IRWXU);
	return (0);
}

void
rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == -1)
		return;
	if (geteuid() != 0)
		(void)nftw(path, rm_chmod, 32, FTW_PHYS);
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) == -1)
		warn("cannot remove %s", path);
}

void
make_dir(const char *path, mode_t mode)
{

	if (mkdir(path, mode) == -1 && errno != EEXIST)
		err(3, "%s", path);
}

/* Everything left to read on fd; NULL on a read error. */
char *
read_all(int fd, size_t *lenp)
{
	char *buf;
	size_t cap, len;
	ssize_t n;

	cap = 65536;
	len = 0;
	buf = xmalloc(cap + 1);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			free(buf);
			return (NULL);
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*lenp = len;
	return (buf);
}

int
write_all(int fd, const void *p, size_t n)
{
	const char *s;
	ssize_t w;

	for (s = p; n > 0; s += w, n -= (size_t)w)
		if ((w = write(fd, s, n)) == -1) {
			if (errno == EINTR) {
				w = 0;
				continue;
			}
			return (-1);
		}
	return (0);
}

int
read_file(const char *path, char **buf, size_t *len)
{
	int fd, serrno;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	*buf = read_all(fd, len);
	serrno = errno;
	(void)close(fd);
	errno = serrno;
	return (*buf == NULL ? -1 : 0);
}

char *
path_join(const char *a, const char *b)
{

	if (*a == '\0' || strcmp(a, ".") == 0)
		return (xstrdup(b));
	return (xasprintf("%s%s%s", a, a[strlen(a) - 1] == '/' ? "" : "/",
	    b));
}

/*
 * A path as the checker names things: relative to the scratch root
 * (which an absolute path may start with), no "." components, no double
 * or trailing slashes.  ".." is kept: it is meant literally.
 */
char *
path_norm(const char *root, const char *path)
{
	char *out, *o;
	const char *p;
	size_t rlen;

	rlen = strlen(root);
	if (strncmp(path, root, rlen) == 0 &&
	    (path[rlen] == '/' || path[rlen] == '\0'))
		path += rlen;
	out = o = xmalloc(strlen(path) + 2);
	for (p = path; *p != '\0';) {
		while (*p == '/')
			p++;
		if (p[0] == '.' && (p[1] == '/' || p[1] == '\0')) {
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		if (o != out)
			*o++ = '/';
		while (*p != '/' && *p != '\0')
			*o++ = *p++;
	}
	if (o == out)
		*o++ = '.';
	*o = '\0';
	return (out);
}

/* A word the shell takes literally. */
char *
shell_quote(const char *s)
{
	const char *p;
	char *out, *o;

	if (*s != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@%+,") == strlen(s))
		return (xstrdup(s));
	out = o = xmalloc(strlen(s) * 4 + 3);
	*o++ = '\'';
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = *p;
	}
	*o++ = '\'';
	*o = '\0';
	return (out);
}

void
finding(struct findings *fs, const char *kind, const char *known,
    const char *fmt, ...)
{
	struct finding *f;
	va_list ap;
	char *what;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	what = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	(void)vsnprintf(what, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (fs->n == fs->cap) {
		fs->cap = fs->cap == 0 ? 8 : fs->cap * 2;
		fs->f = xrealloc(fs->f, fs->cap * sizeof(*fs->f));
	}
	f = &fs->f[fs->n++];
	f->kind = xstrdup(kind);
	f->what = what;
	f->known = known;
}

void
findings_free(struct findings *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		free(fs->f[i].kind);
		free(fs->f[i].what);
	}
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}
