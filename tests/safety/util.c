/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Small helpers: memory that is there or the checker stops, whole reads,
 * quoting for the shell, and removing a scratch area.
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
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		err(3, NULL);
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

/* Remove a scratch area, never following a link out of it. */
void
rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == -1)
		return;
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) == -1)
		warn("cannot remove %s", path);
}

void
make_dir(const char *path, mode_t mode)
{

	if (mkdir(path, mode) == -1 && errno != EEXIST)
		err(3, "%s", path);
}

/* Everything left to read on fd, as a string; NULL on a read error. */
char *
read_all(int fd)
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
	return (buf);
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
