/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tail: display the last part of a file.
 *
 * The options are FreeBSD's, read as FreeBSD 15 reads them: a count
 * with a sign or none, in any base strtoumax(3) takes, with a suffix
 * (k, m, g, t, p or e, and a b after it or alone that means nothing);
 * +N counted from 1; -N and +N of old with a unit and a flag after them
 * ("-20lf").  What is shown is found in forward.c (the part from where
 * the count says to the end), reverse.c (-r) and follow.c (-f, -F).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <paths.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confine.h"
#include "extern.h"

/*
 * A leading '+' stops glibc's getopt_long at the first operand, as the
 * BSDs' stops.
 */
#define	OPTSTRING	"+Fb:c:fn:qrv"

enum style style;
uint64_t count;
int	Fflag, fflag, qflag, rflag, vflag, nfiles, rval;

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
static const char *progname(const char *);
static void	historic(char **);
static char	*historic_one(const char *);
static void	set_count(const char *, int64_t, enum style, enum style);
static int	parse_number(const char *, int64_t *);
static int	open_input(struct input *, const char *);
static void	tail_operands(char **, int);
static void	follow_operands(char **, int);
static void	tail_stdin(void);
static void	confine_operands(char **, int);

int
main(int argc, char *argv[])
{
	int ch;

	/* Run as tac, as NetBSD installs it: every line, last first. */
	if (strcmp(progname(argv[0]), "tac") == 0)
		tac = rflag = qflag = 1;
	historic(argv);
	while ((ch = getopt_long(argc, argv, OPTSTRING, longopts,
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

	/* -r counts what is shown, not where it starts; no -f with it. */
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

	confine_operands(argv, argc);
	engine_open();
	if (argc > 0 && fflag)
		follow_operands(argv, argc);
	else if (argc > 0)
		tail_operands(argv, argc);
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

/* The last name of path, as err(3) names the program. */
static const char *
progname(const char *path)
{
	const char *slash;

	slash = strrchr(path, '/');
	return (slash != NULL ? slash + 1 : path);
}

/*
 * The historic forms, as FreeBSD takes them: before the first operand,
 * each "-N" or "+N" (digits, then b, c or l, then F, f or r) becomes the
 * options it stands for.  The walk steps over the other options and the
 * argument of -b, -c and -n, and stops at anything else.
 */
static void
historic(char **argv)
{
	char *a;

	while ((a = *++argv) != NULL) {
		if (a[0] != '-' && a[0] != '+')
			return;
		if (a[0] == '-' && a[1] == '-')
			return;
		switch (a[1]) {
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			*argv = historic_one(a);
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
historic_one(const char *a)
{
	const char *end;
	char *opt, *p;
	char flag, unit;

	end = a + strlen(a);
	flag = '\0';
	if (end[-1] == 'F' || end[-1] == 'f' || end[-1] == 'r')
		flag = *--end;
	switch (end[-1]) {
	case 'b':
	case 'c':
		unit = end[-1];
		end--;
		break;
	case 'l':
		unit = 'n';
		end--;
		break;
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		unit = 'n';
		break;
	default:
		errx(1, "illegal option -- %.*s", (int)(end - a), a);
	}
	if ((opt = p = malloc((size_t)(end - a) + 4)) == NULL)
		err(1, NULL);
	*p++ = '-';
	if (flag != '\0')
		*p++ = flag;
	*p++ = unit;
	memcpy(p, a, (size_t)(end - a));
	p[end - a] = '\0';
	return (opt);
}

/*
 * -b, -c, -n: one of them, once.  +N counts from 1, as a 0-based offset
 * from the start; -N or N, back from the end.  The sign is the
 * argument's first byte, as FreeBSD has it.
 */
static void
set_count(const char *arg, int64_t units, enum style fwd, enum style back)
{
	int64_t num, off;

	if (style != NOTSET)
		usage();
	if (parse_number(arg, &num) != 0)
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

/*
 * A number as FreeBSD's expand_number(3) reads it: blanks, a sign, a
 * digit first; then strtoumax's base 0 (0x for hex, 0 for octal); then
 * an optional k, m, g, t, p or e (powers of 1024), and a b that changes
 * nothing.  0, or -1 with errno EINVAL or ERANGE.
 */
static int
parse_number(const char *s, int64_t *num)
{
	uintmax_t v;
	unsigned shift;
	char *end;
	int neg;

	while (isspace((unsigned char)*s))
		s++;
	neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s)) {
		errno = EINVAL;
		return (-1);
	}
	errno = 0;
	v = strtoumax(s, &end, 0);
	if (errno != 0)
		return (-1);
	switch (tolower((unsigned char)*end)) {
	case 'e': shift = 60; break;
	case 'p': shift = 50; break;
	case 't': shift = 40; break;
	case 'g': shift = 30; break;
	case 'm': shift = 20; break;
	case 'k': shift = 10; break;
	default: shift = 0; break;
	}
	if (shift != 0)
		end++;
	if (tolower((unsigned char)*end) == 'b')
		end++;
	if (*end != '\0') {
		errno = EINVAL;
		return (-1);
	}
	if (v > (UINT64_MAX >> shift) ||
	    (v << shift) > (neg ? (uintmax_t)INT64_MAX + 1 : INT64_MAX)) {
		errno = ERANGE;
		return (-1);
	}
	v <<= shift;
	*num = neg ? (v == (uintmax_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) :
	    (int64_t)v;
	return (0);
}

/*
 * Confined before the first byte is read, where the host can: to
 * reading beneath the operands' directories (libbufsz's sandbox), or to
 * opening the operands by Casper (confine_casper.c), so that -F can open
 * a name again; and to making temporary files in TMPDIR, opened now,
 * should a stream need one.
 */
static void
confine_operands(char **argv, int argc)
{
	static char dash[] = "./-";	/* "-", as operand_path() names it */
	char **names;
	int i;

	if ((names = calloc((size_t)argc + 1, sizeof(*names))) == NULL)
		err(1, NULL);
	for (i = 0; i < argc; i++)
		names[i] = strcmp(argv[i], "-") == 0 ? dash : argv[i];
	confine(names, fflag ? CONFINE_EVENTS : 0, hold_tmpdir());
	free(names);
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

/*
 * Each operand in turn; one that cannot be opened is said and skipped.
 * Headers go before each file shown, when there are several operands or
 * -v, the first without the empty line before it.
 */
static void
tail_operands(char **argv, int argc)
{
	struct input in;
	int first;

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
}

/* -f, -F: every operand opened first; with -F one not there yet waits. */
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
		/* Said once: follow() says it again only if it changes. */
		files[i].f_errno = errno;
		if (!Fflag || errno != ENOENT)
			ierr(argv[i]);
	}
	follow(files, argc);
	for (i = 0; i < argc; i++)
		if (files[i].f_in.in_fd != -1)
			(void)close(files[i].f_in.in_fd);
	free(files);
}

/*
 * No operand: the standard input, named "stdin".  -f means nothing for
 * a pipe (POSIX), nor for anything else that cannot seek: a FIFO or a
 * terminal.  -F follows it as -f does: it has no name to look up.
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
	if (rflag)
		reverse(&f.f_in);
	else if (fflag) {
		Fflag = 0;
		follow(&f, 1);
	} else
		(void)forward(&f.f_in);
}
