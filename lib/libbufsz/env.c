/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * BUFSZ_PATH and BUFSZ_SIZE: diagnosis knobs that force the engine's path
 * and the buffer size.  A base utility must not fail because one is
 * stray, so a malformed value is ignored with one warning, and a size
 * larger than the machine allows is cut to what it allows.  A size the
 * user asks for on the command line (cat -B) takes the same way.
 */

#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bufsz_private.h"

static const char *const path_names[] = {
	[BUFSZ_PATH_AUTO] = "auto",
	[BUFSZ_PATH_RW] = "rw",
	[BUFSZ_PATH_CFR] = "cfr",
	[BUFSZ_PATH_SPLICE] = "splice",
	[BUFSZ_PATH_SENDFILE] = "sendfile",
};

#define	NPATHS	(sizeof(path_names) / sizeof(path_names[0]))

static int		env_read;
static enum bufsz_path	env_path;
static size_t		env_size;

static void	read_env(void);
static size_t	cut_size(size_t);

const char *
bufsz_path_name(enum bufsz_path p)
{

	if ((size_t)p >= NPATHS)
		return ("unknown");
	return (path_names[p]);
}

int
bufsz_parse_path(const char *s, enum bufsz_path *p)
{
	size_t i;

	for (i = 0; i < NPATHS; i++) {
		if (strcmp(s, path_names[i]) == 0) {
			*p = (enum bufsz_path)i;
			return (0);
		}
	}
	return (-1);
}

int
bufsz_parse_size(const char *s, size_t *sz)
{
	unsigned long long v;
	char *end;

	/* strtoull would take a sign or leading blanks; we do not. */
	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0)
		return (-1);
	/* Too large to address is as large as can be: the caller cuts it. */
	*sz = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
	return (0);
}

/*
 * Once a process, so that cat's thousand operands or a signal handler
 * never parse it again and a malformed value is reported once.
 */
static void
read_env(void)
{
	const char *s;

	env_read = 1;
	env_path = BUFSZ_PATH_AUTO;
	env_size = 0;
	if ((s = getenv("BUFSZ_PATH")) != NULL &&
	    bufsz_parse_path(s, &env_path) != 0) {
		warnx("BUFSZ_PATH=\"%s\" ignored: not auto, rw, cfr, splice "
		    "or sendfile", s);
		env_path = BUFSZ_PATH_AUTO;
	}
	if ((s = getenv("BUFSZ_SIZE")) == NULL)
		return;
	if (bufsz_parse_size(s, &env_size) != 0) {
		warnx("BUFSZ_SIZE=\"%s\" ignored: not a size in bytes", s);
		env_size = 0;
		return;
	}
	env_size = cut_size(env_size);
}

/*
 * Whole pages, at least one, and at most what the policy allows this
 * machine (a forced 1 GiB would get yes killed in a small cgroup).
 */
static size_t
cut_size(size_t size)
{
	struct bufsz_facts f;
	size_t page, limit;

	bufsz_facts_of(&f, NULL, NULL);
	page = bufsz_pagesize();
	limit = bufsz_policy_limit(&f);
	if (size > limit)
		size = limit;
	return (size < page ? page : size - size % page);
}

void
bufsz_ask_size(size_t size)
{

	if (!env_read)
		read_env();
	if (size != 0)
		env_size = cut_size(size);
}

enum bufsz_path
bufsz_env_path(void)
{

	if (!env_read)
		read_env();
	return (env_path);
}

size_t
bufsz_env_size(void)
{

	if (!env_read)
		read_env();
	return (env_size);
}
