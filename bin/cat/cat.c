/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat: concatenate and print files.
 *
 * Plain copies go through libbufsz's engine, which picks the buffer and
 * the kernel path; only the formatting options (-AbEenstTv) read the
 * bytes here, and cook.c formats them into an output buffer of our own.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "bufsz.h"
#include "cook.h"
#include "extern.h"

/*
 * glibc's getopt would take options found after the first operand
 * ("cat file -n"); a leading '+' asks it for the POSIX rule instead.
 */
#ifdef __GLIBC__
#define	OPTSTRING	"+AB:ETbeflnstuv"
#else
#define	OPTSTRING	"AB:ETbeflnstuv"
#endif

/* What open_operand() returns, besides a descriptor or open's -1. */
#define	OPEN_NOT_REGULAR	(-3)	/* -f, and no regular file */

/* What same_file() found. */
#define	SAME_NOT	0	/* another file, or nothing left to read */
#define	SAME_BEHIND	1	/* the output, at or behind the reading point */
#define	SAME_REFUSED	2	/* the output, and copying it would harm it */

static int bflag, eflag, fflag, lflag, nflag, sflag, tflag, uflag, vflag;
static size_t bsize;		/* -B: the buffer asked for; 0, the policy's */
static int rval;

static struct stat outst;	/* the standard output, taken once */
static int out_eager;		/* formatted output is written as read */
static int out_append = -1;	/* whether it has O_APPEND; -1: not asked */
static int unseen_ok;		/* operands may be copied before a stat */

static struct cook cook;	/* the formatting, once obuf is allocated */
static char *obuf;		/* formatted output waiting to be written */
static size_t obufsz;

static void	usage(void) __dead2;
static char	**parse_options(int, char *[]);
static size_t	parse_bsize(const char *);
static void	learn_now(void);
static void	do_operand(const char *);
static int	open_operand(const char *);
static int	connect_socket(const char *);
static int	is_regular(int, const char *);
static int	is_directory(const struct stat *);
static int	same_file(int, const char *, struct stat *);
static int	shares_offset(int, const char *, off_t);
static int	cooking(void);
static void	raw_copy(int, const char *, const struct stat *);
static void	copied(int, const char *);
static void	cook_copy(int, const char *, const struct stat *);
static int	cook_flags(void);
static void	out_alloc(void);
static void	out_write(void *, const char *, size_t);
static void	out_flush(void);

int
main(int argc, char *argv[])
{
	size_t i;

	(void)setlocale(LC_CTYPE, "");
	argv = parse_options(argc, argv);
	learn_now();
	if (bufsz_start(argv, -1, bsize, progress_signal) != 0)
		err(1, "start");
	if (fstat(STDOUT_FILENO, &outst) != 0)
		err(1, "stdout");
	/*
	 * -u, or someone watching: at a terminal each line shows as soon as
	 * it is read ("tail -f log | cat -v"), while files and pipes get
	 * large writes.
	 */
	out_eager = uflag || isatty(STDOUT_FILENO);
	if (lflag)
		lock_output();
	/*
	 * Only a plain copy into something other than a regular file needs
	 * no stat of its input: the input can be the output only when both
	 * are regular files (same_file()).
	 */
	unseen_ok = !cooking() && !S_ISREG(outst.st_mode);

	if (*argv == NULL)
		do_operand("-");
	for (i = 0; argv[i] != NULL; i++)
		do_operand(argv[i]);

	out_flush();
	free(obuf);
	if (close(STDOUT_FILENO) != 0)
		err(1, "stdout");
	return (rval);
}

static char **
parse_options(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, OPTSTRING)) != -1)
		switch (ch) {
		case 'A':
			eflag = tflag = vflag = 1;
			break;
		case 'B':
			bsize = parse_bsize(optarg);
			break;
		case 'E':
			eflag = 1;
			break;
		case 'T':
			tflag = 1;
			break;
		case 'b':
			bflag = nflag = 1;
			break;
		case 'e':
			eflag = vflag = 1;
			break;
		case 'f':
			fflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 't':
			tflag = vflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		default:
			usage();
		}
	return (argv + optind);
}

/*
 * -B's argument, as NetBSD's cat takes it: a number in C's notation
 * (0x for hex, 0 for octal), 0 for the policy's own choice.
 */
static size_t
parse_bsize(const char *arg)
{
	unsigned long long v;
	char *end;

	if (*arg < '0' || *arg > '9')
		errx(1, "illegal buffer size -- %s", arg);
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (*end != '\0' || (errno != 0 && errno != ERANGE))
		errx(1, "illegal buffer size -- %s", arg);
	/* Too large to address is as large as the policy allows. */
	return (errno == ERANGE || v > SIZE_MAX ? SIZE_MAX : (size_t)v);
}

static void
usage(void)
{

	(void)fprintf(stderr,
	    "usage: cat [-AETbeflnstuv] [-B bsize] [file ...]\n");
	exit(1);
}

/*
 * glibc loads the character conversion of some locales from a gconv
 * module at the first mbrtowc(3): before the sandbox hides it.
 */
static void
learn_now(void)
{
	mbstate_t mbs;
	wchar_t wc;

	memset(&mbs, 0, sizeof(mbs));
	(void)mbrtowc(&wc, "", 1, &mbs);
}

/*
 * The operand path, opened now.  Its stat is taken once, from the
 * descriptor; or by the engine, when a plain copy into anything but a
 * regular file has no use for it here.
 */
static void
do_operand(const char *path)
{
	struct stat st;
	const char *name;
	int fd, is_stdin, same;

	is_stdin = strcmp(path, "-") == 0;
	if (is_stdin) {
		name = "stdin";
		fd = STDIN_FILENO;
	} else if ((fd = open_operand(path)) >= 0) {
		if (fflag && !is_regular(fd, path)) {
			(void)close(fd);
			return;
		}
		if (unseen_ok) {
			raw_copy(fd, path, NULL);
			(void)close(fd);
			return;
		}
		name = path;
	} else {
		out_flush();
		if (fd == BUFSZ_OUTSIDE)
			warnx("%s: now leads outside the sandbox", path);
		else if (fd == OPEN_NOT_REGULAR)
			warnx("%s: not a regular file", path);
		else
			warn("%s", path);
		rval = 1;
		return;
	}
	if (fstat(fd, &st) != 0 || is_directory(&st)) {
		out_flush();
		warn("%s", name);
		rval = 1;
	} else if ((same = same_file(fd, name, &st)) == SAME_REFUSED) {
		warnx("%s: input file is output file", name);
		rval = 1;
	} else if (cooking() || same == SAME_BEHIND)
		cook_copy(fd, name, &st);
	else
		raw_copy(fd, name, &st);
	if (!is_stdin)
		(void)close(fd);
}

/*
 * Open path for reading (bufsz_open()).  A Unix-domain socket cannot
 * be opened, only connected to: open(2) refuses it with ENXIO on Linux
 * and EOPNOTSUPP on the BSDs.  Under -f nothing waits (a FIFO with no
 * writer), and a socket or a directory that the sandbox refuses is no
 * regular file: OPEN_NOT_REGULAR.
 */
static int
open_operand(const char *path)
{
	int fd;

	fd = bufsz_open(path, fflag ? O_NONBLOCK : 0);
	if (fd == -1 && fflag && (errno == ENXIO || errno == EOPNOTSUPP ||
	    errno == EISDIR))
		fd = OPEN_NOT_REGULAR;
	else if (fd == -1 && (errno == ENXIO || errno == EOPNOTSUPP))
		fd = connect_socket(path);
	return (fd);
}

/* -f: whether fd is a regular file; said when it is not. */
static int
is_regular(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		out_flush();
		warn("%s", path);
		rval = 1;
		return (0);
	}
	if (!S_ISREG(st.st_mode)) {
		out_flush();
		warnx("%s: not a regular file", path);
		rval = 1;
		return (0);
	}
	return (1);
}

/* Connect to the socket at path; -1 with open's errno if it is none. */
static int
connect_socket(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	size_t len;
	int fd, serrno;

	serrno = errno;
	if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		errno = serrno;
		return (-1);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if ((len = strlen(path)) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	memcpy(sa.sun_path, path, len);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return (-1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		serrno = errno;
		(void)close(fd);
		errno = serrno;
		return (-1);
	}
	/* We only read; a peer that waits for our end of input gets it. */
	(void)shutdown(fd, SHUT_WR);
	return (fd);
}

/*
 * Linux lets a directory be opened and fails its reads; say so before
 * the engine tries, with the same error either way.
 */
static int
is_directory(const struct stat *st)
{

	if (!S_ISDIR(st->st_mode))
		return (0);
	errno = EISDIR;
	return (1);
}

/*
 * Whether this input is the standard output, and what may be done.
 * Only the same regular file (the same inode, through any name, link or
 * mount) with bytes left to read matters: "cat f > f" was emptied by the
 * shell and is harmless.  It is refused when copying it would read back
 * what is written or write over what is still to be read: when the
 * output is appended; when it lands ahead of the reading point; when
 * both share one offset (one open file description, as in
 * "cat <>f 1>&0"), since every write then moves the reading point past
 * the bytes it overwrote; and with any formatting option, whose output
 * can outgrow its input and overtake it.  What is left, a plain copy to
 * an offset at or behind the reading point, is safe only if every byte
 * is read before its place is written: the kernel's paths copy page
 * cache to page cache like an overlapping memcpy, so it goes through our
 * own buffer, a whole chunk read before it is written.  Only a match on
 * the inode costs system calls; st is then brought up to date, as it may
 * be short of what cat itself has appended since it was taken
 * ("cat -n x e >> e": x's lines were still in our buffer).
 */
static int
same_file(int fd, const char *name, struct stat *st)
{
	off_t in_off, out_off;
	int fl;

	if (!S_ISREG(st->st_mode) || !S_ISREG(outst.st_mode) ||
	    st->st_dev != outst.st_dev || st->st_ino != outst.st_ino)
		return (SAME_NOT);
	out_flush();
	if (fstat(fd, st) != 0)
		return (SAME_REFUSED);
	if ((in_off = lseek(fd, 0, SEEK_CUR)) == -1 || in_off >= st->st_size)
		return (SAME_NOT);
	if (cooking())
		return (SAME_REFUSED);
	if (out_append == -1) {
		if ((fl = fcntl(STDOUT_FILENO, F_GETFL)) == -1)
			err(1, "stdout");
		out_append = (fl & O_APPEND) != 0;
	}
	if (out_append)
		return (SAME_REFUSED);
	if ((out_off = lseek(STDOUT_FILENO, 0, SEEK_CUR)) == -1 ||
	    out_off > in_off ||
	    (out_off == in_off && shares_offset(fd, name, in_off)))
		return (SAME_REFUSED);
	return (SAME_BEHIND);
}

/*
 * Whether fd and the standard output, both at off, move as one: one
 * open file description.  Nothing in POSIX tells, so move one and look
 * at the other, then put it back.
 */
static int
shares_offset(int fd, const char *name, off_t off)
{
	int shared;

	if (lseek(fd, off + 1, SEEK_SET) == -1)
		return (1);
	shared = lseek(STDOUT_FILENO, 0, SEEK_CUR) == off + 1;
	if (lseek(fd, off, SEEK_SET) == -1)
		err(1, "%s", name);
	return (shared);
}

/* A plain copy; st NULL: fd is just opened and nothing has looked at it. */
static void
raw_copy(int fd, const char *name, const struct stat *st)
{
	int r;

	/*
	 * The engine writes straight to the output: what our buffer holds
	 * (an earlier operand copied onto itself, SAME_BEHIND) goes first.
	 */
	out_flush();
	progress_start(name, 1);
	r = bufsz_copy(fd, st, STDOUT_FILENO, &outst,
	    st == NULL ? BUFSZ_UNSEEN : 0);
	progress_stop();
	copied(r, name);
}

/* What the engine said of the copy of name. */
static void
copied(int r, const char *name)
{

	switch (r) {
	case BUFSZ_OK:
		break;
	case BUFSZ_EREAD:
		warn("%s", name);
		rval = 1;
		break;
	default:
		err(1, "stdout");
	}
}

static void
cook_copy(int fd, const char *name, const struct stat *st)
{
	unsigned char *buf;
	size_t len;
	ssize_t n;

	if (obuf == NULL)
		out_alloc();
	if ((buf = (unsigned char *)bufsz_buffer(st, &outst, &len)) == NULL)
		err(1, "%s", name);
	/* Read more than is formatted at a go and it leaves the cache. */
	if (len > obufsz)
		len = obufsz;
	progress_start(name, 0);
	while ((n = bufsz_read(fd, buf, len)) > 0) {
		progress_add((size_t)n);
		cook_chunk(&cook, buf, (size_t)n);
		/* Nothing read waits in our buffer for more input. */
		if (out_eager)
			out_flush();
	}
	progress_stop();
	cook_end(&cook);
	if (n < 0) {
		out_flush();
		warn("%s", name);
		rval = 1;
	} else if (out_eager)
		out_flush();
}

/* Whether any formatting option was given. */
static int
cooking(void)
{

	return (bflag || eflag || nflag || sflag || tflag || vflag);
}

/* The formatting options, as cook.c names them. */
static int
cook_flags(void)
{

	return ((nflag ? COOK_NUMBER : 0) | (bflag ? COOK_NONBLANK : 0) |
	    (eflag ? COOK_ENDS : 0) | (sflag ? COOK_SQUEEZE : 0) |
	    (tflag ? COOK_TABS : 0) | (vflag ? COOK_VIS : 0));
}

/* As large as the policy's buffer into this output. */
static void
out_alloc(void)
{

	if (bufsz_buffer(NULL, &outst, &obufsz) == NULL ||
	    (obuf = malloc(obufsz)) == NULL)
		err(1, "output buffer");
	cook_init(&cook, cook_flags(), obuf, obufsz, out_write, NULL);
}

/* cook.c's flush function: a failed write ends cat. */
static void
out_write(void *arg, const char *p, size_t n)
{

	(void)arg;
	if (bufsz_write_all(STDOUT_FILENO, p, n) != 0)
		err(1, "stdout");
}

static void
out_flush(void)
{

	if (obuf != NULL)
		cook_flush(&cook);
}
