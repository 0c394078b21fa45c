/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A fuzz target's corpus replayed without libFuzzer, as the test suites
 * do: each input goes through LLVMFuzzerTestOneInput once, and a
 * difference aborts there, as it would under libFuzzer.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "replay_inputs.h"

static void	replay_file(const char *);
static long	replay_dir(const char *);

/*
 * Every input at path: the file, or each file of the directory but
 * those whose names begin with a dot.  Returns how many.
 */
long
replay_inputs(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		err(1, "%s", path);
	if (S_ISDIR(st.st_mode))
		return (replay_dir(path));
	replay_file(path);
	return (1);
}

/* The whole of the file at path, in a buffer from malloc. */
char *
slurp_input(const char *path, size_t *len)
{
	char *buf, *nbuf;
	size_t cap;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	cap = 8192;
	if ((buf = malloc(cap)) == NULL)
		err(1, "%s", path);
	for (*len = 0; (n = read(fd, buf + *len, cap - *len)) > 0;) {
		*len += (size_t)n;
		if (*len == cap) {
			if ((nbuf = realloc(buf, cap *= 2)) == NULL)
				err(1, "%s", path);
			buf = nbuf;
		}
	}
	if (n < 0)
		err(1, "%s", path);
	(void)close(fd);
	return (buf);
}

static long
replay_dir(const char *dir)
{
	struct dirent *de;
	DIR *d;
	char *path;
	long n;

	if ((d = opendir(dir)) == NULL)
		err(1, "%s", dir);
	for (n = 0; (errno = 0, de = readdir(d)) != NULL;) {
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) == -1)
			err(1, "%s", dir);
		replay_file(path);
		free(path);
		n++;
	}
	if (errno != 0)
		err(1, "%s", dir);
	(void)closedir(d);
	return (n);
}

static void
replay_file(const char *path)
{
	size_t len;
	char *buf;

	buf = slurp_input(path, &len);
	(void)LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
}
