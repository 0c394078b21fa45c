/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * safety: generate cp cases from a seed, run cp on each, and check the
 * invariants every run must keep (README).
 *
 *	safety [-kv] [-c case] [-n cases] [-P preload] [-r rootdir]
 *	    [-s seed] [-t seconds]
 *
 * Exit status: 0 when nothing was found, 1 when something was, 3 when
 * the checker itself could not work.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "safety.h"

static void	usage(void) __dead2;

static void
usage(void)
{

	(void)fprintf(stderr, "usage: safety [-kv] [-c case] [-n cases] "
	    "[-P preload] [-r rootdir]\n"
	    "              [-s seed] [-t seconds]\n");
	exit(3);
}

static uint64_t
number(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *s == '\0' || *end != '\0')
		errx(3, "%s: not a number: %s", what, s);
	return ((uint64_t)v);
}

/* A scratch area that nobody can reach, with a drop box for reports. */
static char *
make_work(const char *where)
{
	char buf[PATH_MAX], *tmpl, *io;

	tmpl = xasprintf("%s/safety.XXXXXX", where);
	if (mkdtemp(tmpl) == NULL)
		err(3, "%s", tmpl);
	if (chmod(tmpl, 0755) == -1 || realpath(tmpl, buf) == NULL)
		err(3, "%s", tmpl);
	free(tmpl);
	io = xasprintf("%s/io", buf);
	make_dir(io, 0755);
	if (chmod(io, 01777) == -1)
		err(3, "%s", io);
	free(io);
	return (xstrdup(buf));
}

/* The descriptor report library: -P, else beside the checker, if there. */
static char *
find_preload(const char *argv0, const char *given)
{
	char *p, *lib;

	if (given != NULL || (p = realpath(argv0, NULL)) == NULL)
		return (given != NULL ? xstrdup(given) : NULL);
	*strrchr(p, '/') = '\0';
	lib = xasprintf("%s/libsafetyfd.so", p);
	free(p);
	if (access(lib, R_OK) == 0)
		return (lib);
	free(lib);
	return (NULL);
}

int
main(int argc, char *argv[])
{
	struct ctx c;
	const char *given, *rootdir, *where;
	char *preload, *work;
	uint64_t first, last, ncases, num, seed;
	unsigned long failed;
	time_t limit, start;
	uid_t uid;
	gid_t gid;
	int ch, one;

	memset(&c, 0, sizeof(c));
	given = NULL;
	where = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	rootdir = "";
	seed = 1;
	first = 0;
	one = 0;
	ncases = 100;
	limit = 0;
	while ((ch = getopt(argc, argv, "P:c:kn:r:s:t:v")) != -1)
		switch (ch) {
		case 'P':
			given = optarg;
			break;
		case 'c':
			first = number(optarg, "case");
			one = 1;
			break;
		case 'k':
			c.keep = 1;
			break;
		case 'n':
			ncases = number(optarg, "cases");
			break;
		case 'r':
			rootdir = optarg;
			break;
		case 's':
			seed = number(optarg, "seed");
			break;
		case 't':
			limit = (time_t)number(optarg, "seconds");
			if (limit > 0)
				ncases = UINT64_MAX - first;
			break;
		case 'v':
			c.verbose = 1;
			break;
		default:
			usage();
		}
	if (optind != argc)
		usage();
	last = one ? first + 1 : first + ncases;

	preload = find_preload(argv[0], given);
	c.preload = preload != NULL;
	(void)signal(SIGPIPE, SIG_IGN);
	(void)snprintf(c.cp, sizeof(c.cp), "%s/bin/cp", rootdir);
	if (access(c.cp, X_OK) == -1)
		err(3, "%s", c.cp);
	c.have_nobody = geteuid() == 0 && nobody_ids(&uid, &gid) == 0;
	work = make_work(where);
	c.work = work;
	run_init(preload, xasprintf("%s/io", work));
	(void)printf("safety: seed %ju, %s%s, %s, in %s\n", (uintmax_t)seed,
	    c.have_nobody ? "as root and nobody" : "as this user only",
	    preload != NULL ? "" : ", no descriptor checks (no preload)",
	    c.cp, work);
	(void)fflush(stdout);

	start = time(NULL);
	failed = 0;
	for (num = first; num < last; num++) {
		if (limit > 0 && time(NULL) - start >= limit)
			break;
		failed += cp_case(&c, seed, num, stdout);
		(void)fflush(stdout);
	}
	(void)printf("safety: seed %ju, %ju cases, %lu failed, %lds\n",
	    (uintmax_t)seed, (uintmax_t)(num - first), failed,
	    (long)(time(NULL) - start));
	if (c.keep && failed > 0)
		(void)printf("safety: failing cases kept in %s\n", work);
	else
		rm_tree(work);
	free(work);
	return (failed > 0 ? 1 : 0);
}
