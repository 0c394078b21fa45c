/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tail: display the last part of a file.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"

enum style style;
uint64_t count;
int	Fflag, fflag, qflag, rflag, vflag, nfiles, rval;
struct stat outst;		/* the standard output, for the engine */

static int	tac;		/* run as tac */

static const struct option longopts[] = {
	{ "blocks",	required_argument,	NULL,	'b' },
	{ "bytes",	required_argument,	NULL,	'c' },
	{ "lines",	required_argument,	NULL,	'n' },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "silent",	no_argument,		NULL,	'q' },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ NULL,		0,			NULL,	0 }
};

static void	usage(void) __dead2;
static void	obsolete(char **);
static char	*obsolete_one(const char *);
static void	set_count(const char *, int64_t, enum style, enum style);
static int	open_input(struct input *, const char *);
static void	follow_operands(char **, int);
static void	tail_stdin(void);

int
main(int argc, char *argv[])
{
	struct input in;
	const char *p;
	int ch, first;

	/* Run as tac, as NetBSD installs it: every line, last first. */
	p = strrchr(argv[0], '/');
	if (strcmp(p != NULL ? p + 1 : argv[0], "tac") == 0)
		tac = rflag = qflag = 1;
	obsolete(argv);
	/* '+': glibc's getopt_long too stops at the first operand. */
	while ((ch = getopt_long(argc, argv, "+Fb:c:fn:qrv", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'F':
			Fflag = fflag = 1;
			break;
		case 'b':
			set_count(optarg, 512, FBYTES, RBYTES);
			break;
		case 'c':
			set_count(optarg, 1, FBYTES, RBYTES);
			break;
		case 'f':
			fflag = 1;
			break;
		case 'n':
			set_count(optarg, 1, FLINES, RLINES);
			break;
		case 'q':
			qflag = 1;
			vflag = 0;
			break;
		case 'r':
			rflag = 1;
			break;
		case 'v':
			vflag = 1;
			qflag = 0;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	nfiles = argc > 0 ? argc : 1;

	/* With -r the count is what is shown, not where it begins. */
	if (rflag) {
		if (fflag)
			usage();
		if (style == FBYTES)
			style = RBYTES;
		else if (style == FLINES)
			style = RLINES;
	}
	if (style == NOTSET) {
		style = rflag ? REVERSE : RLINES;
		count = rflag ? 0 : 10;
	}

	confine(argc, argv, hold_tmpdir());
	if (fstat(STDOUT_FILENO, &outst) != 0)
		oerr();
	if (argc > 0 && fflag)
		follow_operands(argv, argc);
	else if (argc > 0)
		for (first = 1; *argv != NULL; argv++) {
			if (open_input(&in, *argv) != 0) {
				ierr(*argv);
				continue;
			}
			if (vflag || (!qflag && argc > 1)) {
				header(*argv, !first);
				first = 0;
			}
			if (rflag)
				reverse(&in);
			else
				(void)forward(&in);
			(void)close(in.in_fd);
		}
	else
		tail_stdin();
	if (close(STDOUT_FILENO) != 0)
		oerr();
	return (rval);
}

static void
usage(void)
{

	if (tac)
		(void)fprintf(stderr,
		    "usage: tac [-qv] [-b # | -c # | -n #] [file ...]\n");
	else
		(void)fprintf(stderr, "usage: tail [-F | -f | -r] [-qv] "
		    "[-b # | -c # | -n #] [file ...]\n");
	exit(1);
}

/*
 * The obsolete forms, as FreeBSD takes them: before the first operand,
 * each "-N" or "+N" (digits, then b, c or l, then F, f or r) becomes the
 * options it stands for.  The walk steps over the other options and the
 * argument of -b, -c and -n, and stops at anything else.
 */
static void
obsolete(char **argv)
{
	char *a;

	while ((a = *++argv) != NULL) {
		if ((a[0] != '-' && a[0] != '+') || (a[0] == '-' && a[1] == '-'))
			return;
		switch (a[1]) {
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			*argv = obsolete_one(a);
			break;
		case 'b':
		case 'c':
		case 'n':
			if (a[2] == '\0' && *++argv == NULL)
				return;
			break;
		case 'F':
		case 'f':
		case 'r':
			break;
		default:
			return;
		}
	}
}

/* "-20lf" as "-fn-20", "+3c" as "-c+3". */
static char *
obsolete_one(const char *a)
{
	const char *end;
	char *opt, *p;
	char follow, unit;

	end = a + strlen(a);
	follow = '\0';
	if (end[-1] == 'F' || end[-1] == 'f' || end[-1] == 'r')
		follow = *--end;
	unit = end[-1];
	if (unit >= '0' && unit <= '9')
		unit = 'n';
	else if (unit == 'l' || unit == 'b' || unit == 'c')
		end--;
	else
		errx(1, "illegal option -- %.*s", (int)(end - a), a);
	if (unit == 'l')
		unit = 'n';
	if ((opt = p = malloc((size_t)(end - a) + 4)) == NULL)
		err(1, NULL);
	*p++ = '-';
	if (follow != '\0')
		*p++ = follow;
	*p++ = unit;
	memcpy(p, a, (size_t)(end - a));
	p[end - a] = '\0';
	return (opt);
}

/*
 * -b, -c, -n: one of them, once.  +N counts from 1 and is made an offset
 * from the start; -N or N counts back from the end.
 */
static void
set_count(const char *arg, int64_t units, enum style fwd, enum style back)
{
	int64_t num, off;

	if (style != NOTSET)
		usage();
	if (expand_number(arg, &num) != 0)
		err(1, "illegal offset -- %s", arg);
	if (num > INT64_MAX / units || num < INT64_MIN / units)
		errx(1, "illegal offset -- %s", arg);
	off = num * units;
	if (arg[0] == '+') {
		if (off != 0)
			off -= units;
		style = fwd;
	} else
		style = back;
	count = off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off;
}

/* Open and fstat; -1 with errno set, nothing left open. */
static int
open_input(struct input *in, const char *name)
{
	int serrno;

	in->in_name = name;
	if ((in->in_fd = open_name(name, 0)) == -1)
		return (-1);
	if (fstat(in->in_fd, &in->in_st) != 0) {
		serrno = errno;
		(void)close(in->in_fd);
		in->in_fd = -1;
		errno = serrno;
		return (-1);
	}
	return (0);
}

/* -f, -F: every operand opened first; with -F one not there waits. */
static void
follow_operands(char **argv, int argc)
{
	struct file *files;
	int i;

	if ((files = calloc((size_t)argc, sizeof(*files))) == NULL)
		err(1, NULL);
	for (i = 0; i < argc; i++) {
		if (open_input(&files[i].f_in, argv[i]) == 0)
			continue;
		files[i].f_errno = errno;
		if (!Fflag || errno != ENOENT)
			ierr(argv[i]);
	}
	follow(files, argc);
	free(files);
}

/*
 * No operand: the standard input, named "stdin".  -f means nothing for
 * what cannot seek (POSIX): a pipe, a FIFO, a terminal.  -F follows it
 * as -f does: it has no name to look up.
 */
static void
tail_stdin(void)
{
	struct file f;

	memset(&f, 0, sizeof(f));
	f.f_in.in_fd = STDIN_FILENO;
	f.f_in.in_name = "stdin";
	if (fstat(STDIN_FILENO, &f.f_in.in_st) != 0) {
		ierr(f.f_in.in_name);
		exit(1);
	}
	if (lseek(STDIN_FILENO, 0, SEEK_CUR) == -1 && errno == ESPIPE)
		fflag = 0;
	Fflag = 0;
	if (rflag)
		reverse(&f.f_in);
	else if (fflag)
		follow(&f, 1);
	else
		(void)forward(&f.f_in);
}

/* A failure on an input, said and remembered in the exit status. */
void
ierr(const char *name)
{
	int serrno;

	serrno = errno;
	if (errno == EOUTSIDE)
		warnx("%s: now leads outside the sandbox", name);
	else
		warn("%s", name);
	rval = 1;
	errno = serrno;
}

void
oerr(void)
{

	err(1, "stdout");
}

/* Nothing is buffered: what tail writes is on its way at once. */
void
out_write(const void *p, size_t n)
{

	if (n > 0 && bufsz_write_all(STDOUT_FILENO, p, n) != 0)
		oerr();
}

/* "==> name <==", after an empty line when nl is set, in one write. */
void
header(const char *name, int nl)
{
	char *s;
	int n;

	if ((n = asprintf(&s, "%s==> %s <==\n", nl ? "\n" : "", name)) == -1)
		err(1, NULL);
	out_write(s, (size_t)n);
	free(s);
}
