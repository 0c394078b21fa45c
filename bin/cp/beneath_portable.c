/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: open a file below a directory without leaving it, one name at a
 * time, for systems whose open(2) cannot be asked to.
 *
 * Each name is opened relative to the directory before it, never
 * following a link.  A symbolic link met on the way is read and its text
 * put in front of what is left of the path: an absolute one, or a ".."
 * above the starting directory, leads out and fails with EXDEV.  ".." is
 * taken as the directory walked before, not the one the kernel would
 * find: the walk has met only real directories, so the two agree unless
 * one was moved meanwhile, and then the walk's answer is the safe one.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/* Links followed in one resolution, as the kernels allow. */
#define	MAX_LINKS	40

/* Opening a directory only to look up names in it. */
#if defined(O_SEARCH)
#define	O_LOOKUP	O_SEARCH
#elif defined(O_PATH)
#define	O_LOOKUP	O_PATH
#else
#define	O_LOOKUP	O_RDONLY
#endif

/* A path being resolved: what is left of it, and what was walked. */
struct walk {
	int	 top;		/* the directory not to leave */
	int	 cur;		/* the directory reached: top, or ours */
	char	*left;		/* names still to resolve */
	char	*done;		/* names walked from top, '/' between */
	size_t	 donelen;
	int	 links;
};

static int	step_up(struct walk *);
static int	step_into(struct walk *, const char *);
static int	splice_link(struct walk *, const char *, const char *);
static void	set_cur(struct walk *, int);

/*
 * Open the existing file that path names below dir, following symbolic
 * links only while they stay below it: -1 with errno EXDEV for one that
 * leads out (an absolute link always does).
 */
int
open_beneath(int dir, const char *path, int flags)
{
	struct walk w;
	char *name, *rest;
	int fd, serrno;

	memset(&w, 0, sizeof(w));
	w.top = w.cur = dir;
	if ((w.left = strdup(path)) == NULL || (w.done = strdup("")) ==
	    NULL) {
		free(w.left);
		return (-1);
	}
	fd = -1;
	for (;;) {
		name = w.left + strspn(w.left, "/");
		if (*name == '\0') {
			/* The path ends in a directory: open that. */
			fd = openat(w.cur, ".", flags | O_CLOEXEC);
			break;
		}
		rest = name + strcspn(name, "/");
		if (*rest != '\0')
			*rest++ = '\0';
		rest += strspn(rest, "/");
		if (strcmp(name, ".") == 0 || (strcmp(name, "..") == 0 &&
		    step_up(&w) == 0)) {
			memmove(w.left, rest, strlen(rest) + 1);
			continue;
		}
		if (strcmp(name, "..") == 0)
			break;
		if (*rest != '\0') {
			if (step_into(&w, name) == 0) {
				memmove(w.left, rest, strlen(rest) + 1);
				continue;
			}
		} else if ((fd = openat(w.cur, name, flags | O_NOFOLLOW |
		    O_CLOEXEC)) != -1)
			break;
		if (splice_link(&w, name, rest) == -1)
			break;
	}
	serrno = errno;
	set_cur(&w, w.top);
	free(w.left);
	free(w.done);
	errno = serrno;
	return (fd);
}

/* "..": the directory walked before, never above the top. */
static int
step_up(struct walk *w)
{
	char *p, *name, *slash;
	int fd, nfd;

	if (w->donelen == 0) {
		errno = EXDEV;
		return (-1);
	}
	p = strrchr(w->done, '/');
	w->donelen = p != NULL ? (size_t)(p - w->done) : 0;
	w->done[w->donelen] = '\0';
	/* Down again from the top: ours were closed on the way. */
	fd = w->top;
	for (name = w->done; *name != '\0' && fd != -1; name = slash) {
		if ((slash = strchr(name, '/')) != NULL)
			*slash = '\0';
		nfd = openat(fd, name, O_LOOKUP | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd != w->top)
			(void)close(fd);
		fd = nfd;
		if (slash == NULL)
			break;
		*slash++ = '/';
	}
	if (fd == -1)
		return (-1);
	set_cur(w, fd);
	return (0);
}

/* A directory on the way: entered, if it is one and not a link. */
static int
step_into(struct walk *w, const char *name)
{
	char *p;
	size_t len;
	int fd;

	if ((fd = openat(w->cur, name, O_LOOKUP | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return (-1);
	len = strlen(name);
	if ((p = realloc(w->done, w->donelen + len + 2)) == NULL) {
		(void)close(fd);
		return (-1);
	}
	w->done = p;
	if (w->donelen != 0)
		w->done[w->donelen++] = '/';
	memcpy(w->done + w->donelen, name, len + 1);
	w->donelen += len;
	set_cur(w, fd);
	return (0);
}

/*
 * The open of name failed.  If name is a symbolic link, its text takes
 * its place; else the failure stands (errno as the open left it).
 */
static int
splice_link(struct walk *w, const char *name, const char *rest)
{
	char link[PATH_MAX], *left;
	size_t llen, rlen;
	ssize_t len;
	int serrno;

	serrno = errno;
	if ((len = readlinkat(w->cur, name, link, sizeof(link))) == -1) {
		if (errno == EINVAL || errno == ENOENT)
			errno = serrno;		/* not a link */
		return (-1);
	}
	if ((size_t)len == sizeof(link) || ++w->links > MAX_LINKS ||
	    len == 0 || link[0] == '/') {
		errno = (size_t)len == sizeof(link) ? ENAMETOOLONG :
		    len == 0 ? ENOENT : link[0] == '/' ? EXDEV : ELOOP;
		return (-1);
	}
	llen = (size_t)len;
	rlen = strlen(rest);
	if ((left = malloc(llen + rlen + 2)) == NULL)
		return (-1);
	memcpy(left, link, llen);
	left[llen] = '/';
	memcpy(left + llen + 1, rest, rlen + 1);
	if (rlen == 0)
		left[llen] = '\0';
	free(w->left);
	w->left = left;
	return (0);
}

static void
set_cur(struct walk *w, int fd)
{

	if (w->cur != w->top && w->cur != fd)
		(void)close(w->cur);
	w->cur = fd;
}
