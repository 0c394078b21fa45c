/*-
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
#ifdef __linux__
#include <sys/uio.h>
#endif

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"

#ifdef __linux__
/*
 * The pipe asked for on the vmsplice path.  Pages lent by vmsplice(2)
 * take one pipe slot each, so Linux's default 64 KiB pipe holds only half
 * of the policy's 128 KiB buffer and the writer waits in every call.
 * Measured on a 2-core Debian 12 VM (Linux 6.18, shared with other jobs,
 * so spreads are wide): `BUFSZ_PATH=splice yes` into a fixed reader
 * taking 2 GB with read(2) of 128 KiB, medians of 11 interleaved runs,
 * 5.5 GB/s with a 64 KiB pipe and 7.6-9.1 GB/s from 128 KiB to 1 MiB (flat
 * within the noise); with splice(2) to /dev/null as the reader, 5.6 and
 * 11.7-12.0.  Twice the buffer is on that plateau and well under the
 * unprivileged limit (/proc/sys/fs/pipe-max-size, 1 MiB by default).
 * The write(2) path is left alone: there a 1 MiB pipe measured slower
 * (1.4 against 3.0 GB/s, medians of 5).
 */
#define	YES_PIPE_SIZE	(256 * 1024)
#endif

static char	yes_default[] = "y\n";
static struct bufsz_engine *engine;	/* holds the output, forever */

static char	*join_line(int, char **, size_t *);
static char	*build_output(struct bufsz_engine *, const struct stat *,
		    char *, size_t, size_t *);
static size_t	emit_vmsplice(char *, size_t);
static void	grow_pipe(void);
static void	emit_write(const char *, size_t, size_t) __dead2;

int
main(int argc, char *argv[])
{
	struct stat sb;
	char *line, *out;
	size_t linelen, outlen, off;

	if (bufsz_stdfds() != 0)
		err(1, "%s", _PATH_DEVNULL);
	/*
	 * Like every BSD yes, no options: "-x" and "--" are operands and
	 * are printed like any other word.
	 */
	line = join_line(argc - 1, argv + 1, &linelen);
	if ((engine = bufsz_engine_new(0)) == NULL)
		err(1, NULL);
	if (fstat(STDOUT_FILENO, &sb) != 0)
		err(1, "stdout");
	out = build_output(engine, &sb, line, linelen, &outlen);
	if (out != line && line != yes_default)
		free(line);

	off = 0;
	if (bufsz_lends_pages(engine, &sb)) {
		grow_pipe();
		off = emit_vmsplice(out, outlen);
	}
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
build_output(struct bufsz_engine *e, const struct stat *sb, char *line,
    size_t linelen, size_t *outlen)
{
	size_t buflen, have, want, n;
	char *buf;

	if ((buf = bufsz_buffer(e, NULL, sb, &buflen)) == NULL)
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

#ifdef __linux__
/* Only ever grows the pipe: it is shared with the reader. */
static void
grow_pipe(void)
{
	int size;

	size = fcntl(STDOUT_FILENO, F_GETPIPE_SZ);
	if (size != -1 && size < YES_PIPE_SIZE)
		(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, YES_PIPE_SIZE);
}

/*
 * vmsplice(2) lends the pipe our pages instead of copying them into it.
 * That is only correct because the output is never modified after it is
 * built: a reader may see these pages long after the call returns.
 *
 * Returns only when vmsplice refuses (not a pipe, a kernel or sandbox
 * without it), with the offset in out of the next byte due, so that
 * write(2) carries on without a gap or a repeat.  A pipe with no reader
 * raises SIGPIPE here as write(2) would.
 */
static size_t
emit_vmsplice(char *out, size_t len)
{
	struct iovec iov;
	ssize_t n;
	size_t off;

	off = 0;
	for (;;) {
		iov.iov_base = out + off;
		iov.iov_len = len - off;
		n = vmsplice(STDOUT_FILENO, &iov, 1, 0);
		if (n > 0) {
			off += (size_t)n;
			if (off == len)
				off = 0;
		} else if (n == 0 || errno != EINTR)
			return (off);
	}
}
#else
static void
grow_pipe(void)
{
}

static size_t
emit_vmsplice(char *out, size_t len)
{

	(void)out;
	(void)len;
	return (0);
}
#endif

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
