/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * safety: generate cases for cp and cat from a seed, run the programs
 * under test, and check the invariants every run must keep (README).
 *
 *	safety [-kmv] [-c case] [-n cases] [-P preload] [-r rootdir]
 *	    [-s seed | -S] [-t seconds] [-w workdir] mode ...
 *
 * Modes: cp, cat, proc (the /proc and /sys files), all.  Exit status:
 * 0 when nothing was found, 2 when everything found is a known issue
 * item (listed), 1 when anything else was found, 3 when the checker
 * itself could not work.
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

typedef int	case_fn(const struct ctx *, uint64_t, uint64_t,
		    struct findings *, FILE *);

static const struct mode {
	const char	*name;
	case_fn		*fn;
} modes[] = {
	{ "cp", cp_case },
	{ "cat", cat_case },
	{ "proc", proc_case },
};
#define	NMODES	(sizeof(modes) / sizeof(modes[0]))

struct tally {
	unsigned long	 cases;
	unsigned long	 failed;
	unsigned long	 unknown;	/* findings not matching a known item */
	char		*known;		/* the known items met, once each */
};

static void	usage(void) __dead2;
static uint64_t	number(const char *, const char *);
static void	tally_add(struct tally *, const struct findings *);

static void
usage(void)
{

	(void)fprintf(stderr, "usage: safety [-kmv] [-c case] [-n cases] "
	    "[-P preload] [-r rootdir]\n"
	    "              [-s seed | -S] [-t seconds] [-w workdir] "
	    "cp | cat | proc | all ...\n");
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

static void
tally_add(struct tally *t, const struct findings *fs)
{
	const char *k;
	char *n;
	size_t i;

	t->cases++;
	if (fs->n > 0)
		t->failed++;
	for (i = 0; i < fs->n; i++) {
		if ((k = fs->f[i].known) == NULL) {
			t->unknown++;
			continue;
		}
		if (t->known != NULL && strstr(t->known, k) != NULL)
			continue;
		n = xasprintf("%s%s%s", t->known != NULL ? t->known : "",
		    t->known != NULL ? "; " : "", k);
		free(t->known);
		t->known = n;
	}
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

int
main(int argc, char *argv[])
{
	struct ctx c;
	struct findings fs;
	struct tally t[NMODES];
	const char *argv0, *preload, *where;
	char *work, *io, *p;
	uint64_t seed, num, first, ncases;
	time_t start, limit;
	size_t m;
	int ch, one, run_mode[NMODES], status;

	memset(&c, 0, sizeof(c));
	memset(t, 0, sizeof(t));
	argv0 = argv[0];
	preload = NULL;
	where = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	c.rootdir = "";
	seed = 1;
	first = 0;
	one = 0;
	ncases = 100;
	limit = 0;
	while ((ch = getopt(argc, argv, "P:Sc:kmn:r:s:t:vw:")) != -1)
		switch (ch) {
		case 'P':
			preload = optarg;
			break;
		case 'S':
			seed = (uint64_t)time(NULL) ^
			    ((uint64_t)getpid() << 20);
			break;
		case 'c':
			first = number(optarg, "case");
			one = 1;
			break;
		case 'k':
			c.keep = 1;
			break;
		case 'm':
			c.minimize++;
			break;
		case 'n':
			ncases = number(optarg, "cases");
			break;
		case 'r':
			c.rootdir = optarg;
			break;
		case 's':
			seed = number(optarg, "seed");
			break;
		case 't':
			limit = (time_t)number(optarg, "seconds");
			if (limit > 0)
				ncases = UINT64_MAX;
			break;
		case 'v':
			c.verbose = 1;
			break;
		case 'w':
			where = optarg;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		usage();
	memset(run_mode, 0, sizeof(run_mode));
	for (; *argv != NULL; argv++) {
		for (m = 0; m < NMODES; m++)
			if (strcmp(*argv, modes[m].name) == 0 ||
			    strcmp(*argv, "all") == 0)
				run_mode[m] = 1;
		if (strcmp(*argv, "all") != 0 && strcmp(*argv, "cp") != 0 &&
		    strcmp(*argv, "cat") != 0 && strcmp(*argv, "proc") != 0)
			usage();
	}
	if (preload == NULL) {
		/* Beside the checker, where it is installed. */
		if ((p = realpath(argv0, NULL)) != NULL &&
		    strrchr(p, '/') != NULL) {
			*strrchr(p, '/') = '\0';
			preload = xasprintf("%s/libsafetyfd.so", p);
			free(p);
		}
		if (preload != NULL && access(preload, R_OK) == -1)
			preload = NULL;
	}
	(void)signal(SIGPIPE, SIG_IGN);
	(void)snprintf(c.cp, sizeof(c.cp), "%s/bin/cp", c.rootdir);
	(void)snprintf(c.cat, sizeof(c.cat), "%s/bin/cat", c.rootdir);
	if (access(c.cp, X_OK) == -1 || access(c.cat, X_OK) == -1)
		err(3, "%s or %s", c.cp, c.cat);
	c.have_nobody = geteuid() == 0 && nobody_ids(&c.nobody_uid,
	    &c.nobody_gid) == 0;
	work = make_work(where);
	c.work = work;
	io = xasprintf("%s/io", work);
	run_init(preload, io);
	cp_probe(&c);
	(void)printf("safety: seed %ju, %s%s, programs %s/bin, %s\n",
	    (uintmax_t)seed, c.have_nobody ? "as root and nobody" :
	    "as this user only", preload != NULL ? "" :
	    ", no descriptor checks (no preload library)",
	    *c.rootdir != '\0' ? c.rootdir : "", work);
	(void)fflush(stdout);

	start = time(NULL);
	for (num = first; num < (one ? first + 1 : first + ncases); num++) {
		if (limit > 0 && time(NULL) - start >= limit)
			break;
		for (m = 0; m < NMODES; m++) {
			if (!run_mode[m])
				continue;
			memset(&fs, 0, sizeof(fs));
			(void)modes[m].fn(&c, seed, num, &fs, stdout);
			tally_add(&t[m], &fs);
			findings_free(&fs);
			(void)fflush(stdout);
		}
	}

	status = 0;
	for (m = 0; m < NMODES; m++) {
		if (!run_mode[m])
			continue;
		(void)printf("safety: %s: %lu cases, %lu failed", modes[m].name,
		    t[m].cases, t[m].failed);
		if (t[m].known != NULL)
			(void)printf("; known: %s", t[m].known);
		if (t[m].unknown > 0)
			(void)printf("; %lu findings not known", t[m].unknown);
		(void)printf("\n");
		if (t[m].unknown > 0)
			status = 1;
		else if (t[m].failed > 0 && status == 0)
			status = 2;
		free(t[m].known);
	}
	(void)printf("safety: seed %ju, %ju case numbers, %lds\n",
	    (uintmax_t)seed, (uintmax_t)(num - first),
	    (long)(time(NULL) - start));
	if (c.keep && status != 0)
		(void)printf("safety: failing cases kept in %s\n", work);
	else
		rm_tree(work);
	free(work);
	free(io);
	return (status);
}
