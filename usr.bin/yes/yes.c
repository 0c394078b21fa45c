/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes: print a line forever.  The output is built once, the line repeated
 * to fill the buffer the policy gives the standard output, and written
 * whole, again and again.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"

static char	*join_line(int, char **, size_t *);
static char	*build_output(const struct stat *, char *, size_t, size_t *);

int
main(int argc, char *argv[])
{
	static char *none[] = { NULL };
	struct stat sb;
	char *line, *out;
	size_t linelen, outlen, off;

	/* yes opens nothing; the progress signal is for its neighbours. */
	if (bufsz_start(none, -1, 0, NULL) != 0)
		err(1, "start");
	/* No options: "-x", "--" and "--help" are printed as words. */
	line = join_line(argc - 1, argv + 1, &linelen);
	if (fstat(STDOUT_FILENO, &sb) != 0)
		err(1, "stdout");
	out = build_output(&sb, line, linelen, &outlen);
	off = yes_host(out, outlen);
	if (bufsz_write_all(STDOUT_FILENO, out + off, outlen - off) != 0)
		err(1, "stdout");
	for (;;)
		if (bufsz_write_all(STDOUT_FILENO, out, outlen) != 0)
			err(1, "stdout");
}

/* The operands joined by single spaces, or "y"; newline-terminated. */
static char *
join_line(int argc, char **argv, size_t *len)
{
	size_t total, n;
	char *line, *p;
	int i;

	total = argc == 0 ? 2 : 0;
	for (i = 0; i < argc; i++)
		total += strlen(argv[i]) + 1;
	if ((p = line = malloc(total)) == NULL)
		err(1, "malloc");
	if (argc == 0)
		*p++ = 'y';
	for (i = 0; i < argc; i++) {
		n = strlen(argv[i]);
		memcpy(p, argv[i], n);
		p += n;
		if (i + 1 < argc)
			*p++ = ' ';
	}
	*p = '\n';
	*len = total;
	return (line);
}

/*
 * As many whole copies of the line as the buffer holds, so that every
 * write ends a line; a longer line is its own output.
 */
static char *
build_output(const struct stat *sb, char *line, size_t linelen,
    size_t *outlen)
{
	size_t buflen, have, want, n;
	char *buf;

	if ((buf = bufsz_buffer(NULL, sb, &buflen)) == NULL)
		err(1, "buffer");
	if (linelen > buflen) {
		*outlen = linelen;
		return (line);
	}
	want = buflen - buflen % linelen;
	memcpy(buf, line, linelen);
	for (have = linelen; have < want; have += n) {
		n = have < want - have ? have : want - have;
		memcpy(buf + have, buf, n);
	}
	free(line);
	*outlen = want;
	return (buf);
}
