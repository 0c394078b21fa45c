/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: copy files.
 *
 * cp source target copies one thing; cp source ... directory copies each
 * source into the directory under its own name.  With -R, directories
 * are copied whole (walk.c).  Paths are kept only to be printed.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "extern.h"

/*
 * A leading '+' stops glibc's and musl's getopt_long at the first
 * operand, as the BSDs' stops, so that "cp -R src -p dst" copies a file
 * named -p rather than taking -p for an option.
 */
#define	OPTSTRING	"+HLNPRafilnprsvx"

enum { SORT_OPT = CHAR_MAX + 1 };

static const struct option longopts[] = {
	{ "archive",		no_argument,	NULL,	'a' },
	{ "force",		no_argument,	NULL,	'f' },
	{ "interactive",	no_argument,	NULL,	'i' },
	{ "dereference",	no_argument,	NULL,	'L' },
	{ "link",		no_argument,	NULL,	'l' },
	{ "no-clobber",		no_argument,	NULL,	'n' },
	{ "no-dereference",	no_argument,	NULL,	'P' },
	{ "recursive",		no_argument,	NULL,	'R' },
	{ "symbolic-link",	no_argument,	NULL,	's' },
	{ "verbose",		no_argument,	NULL,	'v' },
	{ "one-file-system",	no_argument,	NULL,	'x' },
	{ "sort",		no_argument,	NULL,	SORT_OPT },
	{ NULL,			0,		NULL,	0 }
};

enum op { FILE_TO_FILE, FILE_TO_DIR, DIR_TO_DNE };

int	Nflag, Rflag, fflag, iflag, lflag, nflag, pflag, sflag, vflag;
int	follow_all, sortflag, xflag;
mode_t	cmask;
int	rval;
struct buf	src, dst;

static int	Pflag, follow_root;
static char	dot[] = ".";

static void	parse_options(int, char *[]);
static void	settle_options(int, int, int);
static void	usage(void) __dead2;
static int	operand_cmp(const void *, const void *);
static void	copy_operand(char *, enum op, int, const struct stat *,
		    const char *);

int
main(int argc, char *argv[])
{
	struct stat tst, sst;
	enum op type;
	char *target;
	size_t len;
	int r, slash, tdir;

	if (bufsz_start(NULL, -1, 0, progress_signal) != 0)
		err(1, "start");
	parse_options(argc, argv);
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	cmask = umask(0);
	(void)umask(cmask);

	target = argv[--argc];
	argv[argc] = NULL;
	len = strlen(target);
	slash = len > 0 && target[len - 1] == '/';
	while (len > 1 && target[len - 1] == '/')
		target[--len] = '\0';
	if (len == 0)
		target = dot;

	/*
	 * A directory target takes each source under its own name.  A
	 * target that does not exist becomes the copy of the one source
	 * (under -R, a directory whose contents are the source's).  A
	 * target named with a trailing slash must be a directory, or be
	 * about to become one.
	 */
	tdir = -1;
	if ((r = stat(target, &tst)) == -1 && errno != ENOENT)
		err(1, "%s", target);
	if (r == -1 || !S_ISDIR(tst.st_mode)) {
		if (argc > 1) {
			errno = ENOTDIR;
			err(1, "%s", target);
		}
		type = FILE_TO_FILE;
		if (r == -1 && Rflag && fstatat(AT_FDCWD, argv[0], &sst,
		    follow_root ? 0 : AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(sst.st_mode))
			type = DIR_TO_DNE;
		if (slash && type == FILE_TO_FILE) {
			errno = r == -1 ? ENOENT : ENOTDIR;
			err(1, "%s", target);
		}
	} else {
		type = FILE_TO_DIR;
		if ((tdir = open(target, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1 || fstat(tdir, &tst) == -1)
			err(1, "%s", target);
	}

	if (sortflag)
		qsort(argv, (size_t)argc, sizeof(*argv), operand_cmp);
	for (; *argv != NULL; argv++)
		copy_operand(*argv, type, tdir, &tst, target);

	if ((errno = verbose_flush()) != 0) {
		warn("stdout");
		rval = 1;
	}
	exit(rval);
}

/*
 * The options, as FreeBSD's cp takes them; of -H, -L and -P, and of -f,
 * -i and -n, the last one given counts.
 */
static void
parse_options(int argc, char *argv[])
{
	int Hflag, Lflag, ch, rflag;

	Hflag = Lflag = rflag = 0;
	while ((ch = getopt_long(argc, argv, OPTSTRING, longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'H':
			Hflag = 1;
			Lflag = Pflag = 0;
			break;
		case 'L':
			Lflag = 1;
			Hflag = Pflag = 0;
			break;
		case 'N':
			Nflag = 1;
			break;
		case 'P':
			Pflag = 1;
			Hflag = Lflag = 0;
			break;
		case 'R':
			Rflag = 1;
			break;
		case 'a':
			Rflag = pflag = Pflag = 1;
			Hflag = Lflag = 0;
			break;
		case 'f':
			fflag = 1;
			iflag = nflag = 0;
			break;
		case 'i':
#ifdef ASK_TTY_ONLY
			/* As on NetBSD: with no terminal, replace unasked. */
			iflag = isatty(STDIN_FILENO);
#else
			iflag = 1;
#endif
			fflag = nflag = 0;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'n':
			nflag = 1;
			fflag = iflag = 0;
			break;
		case 'p':
			pflag = 1;
			break;
		case 'r':
			/* -r is -RL, as on FreeBSD. */
			rflag = Lflag = 1;
			Hflag = Pflag = 0;
			break;
		case 's':
			sflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'x':
			xflag = 1;
			break;
		case SORT_OPT:
			sortflag = 1;
			break;
		default:
			usage();
		}
	settle_options(Hflag, Lflag, rflag);
}

/*
 * What needs every option read: the pairs that may not be given
 * together, and how far symbolic links are followed.
 */
static void
settle_options(int Hflag, int Lflag, int rflag)
{

	if (Rflag && rflag)
		errx(1, "the -R and -r options may not be specified together");
	if (lflag && sflag)
		errx(1, "the -l and -s options may not be specified together");
	if (rflag)
		Rflag = 1;
	if (Rflag) {
		follow_root = Hflag || Lflag;
		follow_all = Lflag;
	} else
		follow_root = follow_all = !Pflag;
}

static void
usage(void)
{

	(void)fprintf(stderr, "%s\n%s\n",
	    "usage: cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] "
	    "source target",
	    "       cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] "
	    "source ... directory");
	exit(EX_USAGE);
}

/* --sort: the operands too, in byte order, as FreeBSD's cp has them. */
static int
operand_cmp(const void *a, const void *b)
{

	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* One command-line source, and under -R everything below it. */
static void
copy_operand(char *path, enum op type, int tdir, const struct stat *tst,
    const char *target)
{
	struct node n;
	const char *base;

	memset(&n, 0, sizeof(n));
	n.sdir = AT_FDCWD;
	n.sname = path;
	n.sfd = -1;
	n.followed = follow_root;
	path_set(&src, path);
	if (fstatat(AT_FDCWD, path, &n.st,
	    follow_root ? 0 : AT_SYMLINK_NOFOLLOW) == -1) {
		warn("%s", path);
		rval = 1;
		return;
	}
	path_set(&dst, target);
	if (type == FILE_TO_DIR) {
		n.ddir = tdir;
		n.dirst = tst;
		base = strrchr(path, '/');
		base = base != NULL ? base + 1 : path;
		/* "dir/", "." and "..": the contents, into the directory. */
		if (*base == '\0' || strcmp(base, ".") == 0 ||
		    strcmp(base, "..") == 0)
			n.dname = ".";
		else {
			n.dname = base;
			path_push(&dst, base);
		}
	} else {
		n.ddir = AT_FDCWD;
		n.dname = target;
	}
	copy_tree(&n);
}

