/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes: print a line forever.
 *
 * The output is built once: the line repeated to fill a buffer that
 * libbufsz sizes for stdout.  After that, the program does nothing but
 * hand the same bytes to the kernel again and again.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <paths.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "startup.h"
#include "extern.h"

static char	yes_default[] = "y\n";

static char	*join_line(int, char **, size_t *);
static char	*build_output(const struct stat *, char *, size_t, size_t *);
static void	emit_write(const char *, size_t, size_t) __dead2;

int
main(int argc, char *argv[])
{
	struct stat sb;
	char *line, *out;
	size_t linelen, outlen, off;

	if (std_fds() != 0)
		err(1, "%s", _PATH_DEVNULL);
	/*
	 * The progress signal, meant for a copier beside us in a pipeline,
	 * is ignored, as the BSDs ignore SIGINFO: yes has nothing to report.
	 */
	if (info_catch(NULL) != 0)
		err(1, "sigaction");
	/*
	 * Like every BSD yes, no options: "-x", "--" and "--help" are
	 * operands and are printed like any other word.
	 */
	line = join_line(argc - 1, argv + 1, &linelen);
	if (fstat(STDOUT_FILENO, &sb) != 0)
		err(1, "stdout");
	out = build_output(&sb, line, linelen, &outlen);
	if (out != line && line != yes_default)
		free(line);

	/*
	 * Everything yes needs is open and built: from here on it can only
	 * write to what it was given.
	 */
	confine_output();
	off = 0;
	if (bufsz_lends_pages(&sb))
		off = lend_output(out, outlen);
	emit_write(out, outlen, off);
	/* NOTREACHED */
}

/* The operands joined by single spaces, or "y"; newline-terminated. */
static char *
join_line(int argc, char **argv, size_t *len)
{
	size_t total, n;
	char *line, *p;
	int i;

	if (argc == 0) {
		*len = sizeof(yes_default) - 1;
		return (yes_default);
	}
	total = 0;
	for (i = 0; i < argc; i++)
		total += strlen(argv[i]) + 1;	/* the space or newline */
	if ((line = malloc(total)) == NULL)
		err(1, "malloc");
	p = line;
	for (i = 0; i < argc; i++) {
		n = strlen(argv[i]);
		memcpy(p, argv[i], n);
		p += n;
		*p++ = i + 1 < argc ? ' ' : '\n';
	}
	*len = total;
	return (line);
}

/*
 * As many whole copies of the line as the buffer holds, so that every
 * write ends on a line boundary.  A line longer than the buffer is its
 * own output.
 */
static char *
build_output(const struct stat *sb, char *line, size_t linelen,
    size_t *outlen)
{
	size_t buflen, have, want, n;
	char *buf;

	if ((buf = bufsz_alloc(bufsz_size(NULL, sb), &buflen)) == NULL)
		err(1, "buffer");
	if (linelen > buflen) {
		*outlen = linelen;
		return (line);
	}
	want = buflen - buflen % linelen;
	memcpy(buf, line, linelen);
	/* Doubling: log2(copies) memcpy calls, not one per line. */
	for (have = linelen; have < want; have += n) {
		n = have < want - have ? have : want - have;
		memcpy(buf + have, buf, n);
	}
	*outlen = want;
	return (buf);
}

/* Finish the output from off, then write it whole, forever. */
static void
emit_write(const char *out, size_t len, size_t off)
{

	if (bufsz_write_all(STDOUT_FILENO, out + off, len - off) != 0)
		err(1, "stdout");
	for (;;)
		if (bufsz_write_all(STDOUT_FILENO, out, len) != 0)
			err(1, "stdout");
}
