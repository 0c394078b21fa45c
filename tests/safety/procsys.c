/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * /proc and /sys files, whose sizes say nothing of what reading them
 * gives (0 in /proc, 4096 in /sys): cat of one to a pipe or a file, cp of
 * one, cp -R of a directory of them.  What comes out must be what a plain
 * read(2) loop of our own gives.  A file that reads differently twice in
 * a row, or differently again after the run, changes by itself and is
 * left out, not judged.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

#define	MAXREAD	(1024 * 1024)	/* larger files are not candidates */

/* Where to look, how deep; and what never to read (it may block). */
static const struct {
	const char	*path;
	int		 depth;
} roots[] = {
	{ "/proc/sys", 6 },
	{ "/sys/kernel/mm", 3 },
	{ "/sys/devices/system/cpu", 2 },
	{ "/sys/module", 3 },
	{ "/sys/fs/cgroup", 1 },
	{ "/proc/version", 0 },
	{ "/proc/cmdline", 0 },
	{ "/proc/filesystems", 0 },
	{ "/proc/cpuinfo", 0 },
	{ "/proc/meminfo", 0 },
};

static const char *const never[] = {
	"/sys/kernel/debug", "/sys/kernel/tracing", "/sys/kernel/security",
	"/proc/sys/fs/binfmt_misc", "/sys/kernel/mm/page_idle",
	/* Counters that move with every open file, and come back. */
	"/proc/sys/fs/file-nr", "/proc/sys/fs/inode-nr",
	"/proc/sys/fs/inode-state", "/proc/sys/fs/dentry-state",
	"/proc/sys/kernel/random",
};

/* Named by issue 10 #2: always among the candidates when present. */
static const char *const named[] = {
	"/sys/kernel/mm/transparent_hugepage/enabled",
	"/sys/devices/system/cpu/online",
};

static char	**cand;
static size_t	  ncand;

static void
cand_add(const char *p)
{

	cand = xrealloc(cand, (ncand + 1) * sizeof(*cand));
	cand[ncand++] = xstrdup(p);
}

static int
excluded(const char *p)
{
	size_t i, len;

	for (i = 0; i < sizeof(never) / sizeof(never[0]); i++) {
		len = strlen(never[i]);
		if (strncmp(p, never[i], len) == 0 &&
		    (p[len] == '/' || p[len] == '\0'))
			return (1);
	}
	return (0);
}

static void
scan(const char *path, int depth, dev_t dev)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	char *c;

	if (excluded(path) || lstat(path, &st) == -1 || st.st_dev != dev)
		return;
	if (S_ISREG(st.st_mode)) {
		if ((st.st_mode & S_IRUSR) != 0 && st.st_size <= 65536)
			cand_add(path);
		return;
	}
	if (!S_ISDIR(st.st_mode) || depth == 0 || (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL && ncand < 20000) {
		if (de->d_name[0] == '.')
			continue;
		c = path_join(path, de->d_name);
		scan(c, depth - 1, dev);
		free(c);
	}
	(void)closedir(d);
}

static int
cmp_str(const void *a, const void *b)
{

	return (strcmp(*(char *const *)a, *(char *const *)b));
}

static void
find_candidates(void)
{
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (lstat(roots[i].path, &st) == 0)
			scan(roots[i].path, roots[i].depth, st.st_dev);
	if (ncand > 1)
		qsort(cand, ncand, sizeof(*cand), cmp_str);
}

/* The reference: read(2) in 4 KiB steps to the end. */
static int
ref_read(const char *path, char **buf, size_t *len)
{
	char chunk[4096];
	size_t cap;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return (-1);
	*buf = NULL;
	*len = cap = 0;
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0 || *len + (size_t)n > MAXREAD)
			break;
		if (*len + (size_t)n > cap) {
			cap = cap == 0 ? 8192 : cap * 2;
			*buf = xrealloc(*buf, cap);
		}
		memcpy(*buf + *len, chunk, (size_t)n);
		*len += (size_t)n;
	}
	(void)close(fd);
	if (n != 0) {
		free(*buf);
		*buf = NULL;
		return (-1);
	}
	return (0);
}

/* A file that reads the same three times: its bytes; else NULL. */
static char *
stable(const char *path, size_t *len)
{
	char *a, *b;
	size_t alen, blen;
	int i, same;

	if (ref_read(path, &a, &alen) == -1)
		return (NULL);
	for (i = 0, same = 1; i < 2 && same; i++) {
		if (ref_read(path, &b, &blen) == -1) {
			free(a);
			return (NULL);
		}
		same = alen == blen && (alen == 0 ||
		    memcmp(a, b, alen) == 0);
		free(b);
	}
	if (!same) {
		free(a);
		return (NULL);
	}
	*len = alen;
	return (a);
}

/*
 * Whether a and b, of one length, differ only where both have a digit or
 * a space: numbers that moved in a fixed-width layout (/proc/meminfo's
 * columns), read while they were moving.
 */
static int
only_counters(const char *a, const char *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i] &&
		    !((isdigit((unsigned char)a[i]) || a[i] == ' ') &&
		    (isdigit((unsigned char)b[i]) || b[i] == ' ')))
			return (0);
	return (1);
}

/*
 * Whether got differs from ref, the file still reading as ref twice more
 * (a counter that moves and comes back is no finding), and got not being
 * of ref's size (a counter of the same width that moved).
 */
static int
differs(const char *path, const char *ref, size_t reflen, const char *got,
    size_t gotlen)
{
	char *again;
	size_t alen;
	int i, still;

	if (gotlen == reflen && (reflen == 0 || memcmp(ref, got, reflen) == 0))
		return (0);
	if (gotlen == reflen && only_counters(ref, got, reflen))
		return (0);
	for (i = 0, still = 1; i < 2 && still; i++) {
		if (ref_read(path, &again, &alen) == -1)
			return (0);
		still = alen == reflen && (alen == 0 ||
		    memcmp(again, ref, alen) == 0);
		free(again);
	}
	return (still);
}

/* What is wrong with got, in words; the known item when it is #2. */
static char *
how(const char *ref, size_t reflen, const char *got, size_t gotlen,
    const char **known)
{
	size_t i;

	*known = NULL;
	if (gotlen > reflen && memcmp(ref, got, reflen) == 0) {
		for (i = reflen; i < gotlen && got[i] == '\0'; i++)
			;
		if (i == gotlen) {
			*known = "issue 10 #2";
			return (xasprintf("%zu bytes, padded with %zu NULs",
			    reflen, gotlen - reflen));
		}
	}
	return (xasprintf("%zu bytes where reading gives %zu", gotlen,
	    reflen));
}

enum pkind { P_CAT_PIPE, P_CAT_FILE, P_CP, P_CPR };

/* Entries below dir, counting up to limit: cp -R of a small one only. */
static size_t
count_entries(const char *dir, int depth, size_t limit)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	char *c;
	size_t n;

	if ((d = opendir(dir)) == NULL)
		return (limit);
	n = 0;
	while ((de = readdir(d)) != NULL && n < limit) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		n++;
		c = path_join(dir, de->d_name);
		if (lstat(c, &st) == 0 && S_ISDIR(st.st_mode))
			n += depth > 0 ? count_entries(c, depth - 1, limit) :
			    limit;
		free(c);
	}
	(void)closedir(d);
	return (n);
}

struct pcase {
	enum pkind	 kind;
	const char	*path;
	char		*env[2];
	char		*out;		/* cat's output file, or cp's target */
};

static void
cat_to_file(void *arg)
{
	const struct pcase *p;
	int fd;

	p = arg;
	if ((fd = open(p->out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    dup2(fd, 1) == -1)
		_exit(125);
	(void)close(fd);
}

static void
judge_run(const struct run *r, const char *prog, struct findings *fs)
{
	char *u;
	int code, sig;

	if ((code = run_status(r, &sig)) == -1) {
		finding(fs, sig == SIGALRM ? "HANG" : "CRASH", NULL,
		    "%s killed by signal %d", prog, sig);
		return;
	}
	if (r->fds == NULL || code != 0)
		return;
	u = fds_unexcused(r->fds);
	if (*u != '\0')
		finding(fs, "FDLEAK", NULL, "%s left open at exit (fd mode dev "
		    "ino): %s", prog, u);
	free(u);
}

/* cp -R of a directory: each regular file it copied, against reading. */
static void
judge_tree(const char *src, const char *dst, const char *rel,
    struct findings *fs)
{
	struct dirent *de;
	struct stat st;
	const char *known;
	DIR *d;
	char *dp, *sp, *r2, *ref, *got, *w;
	size_t reflen, gotlen;

	if (fs->n >= 4)
		return;		/* enough said of one directory */
	dp = *rel != '\0' ? path_join(dst, rel) : xstrdup(dst);
	if ((d = opendir(dp)) == NULL) {
		free(dp);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		r2 = *rel != '\0' ? path_join(rel, de->d_name) :
		    xstrdup(de->d_name);
		sp = path_join(src, r2);
		w = path_join(dst, r2);
		if (lstat(w, &st) == 0 && S_ISDIR(st.st_mode))
			judge_tree(src, dst, r2, fs);
		else if (S_ISREG(st.st_mode) &&
		    (ref = stable(sp, &reflen)) != NULL) {
			if (read_file(w, &got, &gotlen) == 0) {
				if (differs(sp, ref, reflen, got, gotlen)) {
					char *h = how(ref, reflen, got, gotlen,
					    &known);

					finding(fs, "PROCSYS", known, "cp -R: "
					    "the copy of %s holds %s", sp, h);
					free(h);
				}
				free(got);
			}
			free(ref);
		}
		free(w);
		free(sp);
		free(r2);
	}
	(void)closedir(d);
	free(dp);
}

int
proc_case(const struct ctx *c, uint64_t seed, uint64_t num,
    struct findings *fs, FILE *log)
{
	static const char *const paths[] = { "rw", "mmap", "cfr", "splice",
	    "sendfile" };
	struct pcase p;
	struct rng r;
	struct run run1;
	const char *known;
	char *root, *argv[5], *ref, *got, *h, *dir;
	size_t reflen, gotlen, i;
	int code, ok, sig;

	if (!host_has_procsys())
		return (0);
	if (cand == NULL) {
		find_candidates();
		for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			if (access(named[i], R_OK) == 0)
				cand_add(named[i]);
	}
	if (ncand == 0)
		return (0);
	rng_init(&r, seed, num ^ 0x70726f63ULL);
	memset(&p, 0, sizeof(p));
	p.kind = (enum pkind)rng_below(&r, 4);
	/* The named ones first, then any. */
	if (num < 2 * (sizeof(named) / sizeof(named[0])) &&
	    access(named[num / 2], R_OK) == 0)
		p.path = named[num / 2];
	else
		p.path = cand[rng_below(&r, ncand)];
	if (rng_chance(&r, 50))
		p.env[0] = xasprintf("BUFSZ_PATH=%s", paths[rng_below(&r, 5)]);
	root = xasprintf("%s/proc.%ju.%ju", c->work, (uintmax_t)seed,
	    (uintmax_t)num);
	rm_tree(root);
	make_dir(root, 0755);
	p.out = path_join(root, "out");
	if ((ref = stable(p.path, &reflen)) == NULL) {
		/* It changes by itself, or cannot be read: not a case. */
		rm_tree(root);
		free(root);
		free(p.out);
		free(p.env[0]);
		return (0);
	}
	dir = xstrdup(p.path);
	*strrchr(dir, '/') = '\0';
	if (p.kind == P_CPR && count_entries(dir, 2, 64) >= 64)
		p.kind = P_CP;
	memset(&run1, 0, sizeof(run1));
	run1.argv = argv;
	run1.cwd = root;
	run1.env = p.env;
	run1.in = IO_NULL;
	run1.err = IO_PIPE;
	run1.timeout = 30;
	switch (p.kind) {
	case P_CAT_PIPE:
	case P_CAT_FILE:
		argv[0] = xstrdup(c->cat);
		argv[1] = xstrdup(p.path);
		argv[2] = NULL;
		run1.out = p.kind == P_CAT_PIPE ? IO_PIPE : IO_SETUP;
		run1.setup = p.kind == P_CAT_PIPE ? NULL : cat_to_file;
		run1.arg = &p;
		break;
	case P_CP:
		argv[0] = xstrdup(c->cp);
		argv[1] = xstrdup(p.path);
		argv[2] = xstrdup(p.out);
		argv[3] = NULL;
		run1.out = IO_PIPE;
		break;
	case P_CPR:
		argv[0] = xstrdup(c->cp);
		argv[1] = xstrdup("-R");
		argv[2] = xstrdup(dir);
		argv[3] = xstrdup(p.out);
		argv[4] = NULL;
		run1.out = IO_PIPE;
		break;
	}
	run(&run1);
	judge_run(&run1, argv[0], fs);
	code = run_status(&run1, &sig);
	ok = code != -1;
	if (ok && p.kind == P_CAT_PIPE) {
		if (differs(p.path, ref, reflen, run1.outbuf, run1.outlen)) {
			h = how(ref, reflen, run1.outbuf, run1.outlen, &known);
			finding(fs, "PROCSYS", known, "cat %s | gives %s",
			    p.path, h);
			free(h);
		}
	} else if (ok && (p.kind == P_CAT_FILE || p.kind == P_CP)) {
		if (read_file(p.out, &got, &gotlen) == 0) {
			if (differs(p.path, ref, reflen, got, gotlen)) {
				h = how(ref, reflen, got, gotlen, &known);
				finding(fs, "PROCSYS", known, "%s %s: the "
				    "copy holds %s", p.kind == P_CP ? "cp" :
				    "cat >", p.path, h);
				free(h);
			}
			free(got);
		} else if (code == 0)
			finding(fs, "PROCSYS", NULL, "%s exit 0 but no copy",
			    p.path);
	} else if (ok && p.kind == P_CPR)
		judge_tree(dir, p.out, "", fs);
	if (ok && p.kind != P_CPR && code != 0)
		finding(fs, "PROCSYS", NULL, "%s %s: exit %d: %s", argv[0],
		    p.path, code, run1.errbuf);
	if (c->verbose || fs->n > 0) {
		(void)fprintf(log, "%s proc seed %ju case %ju: %s%s%s %s%s\n",
		    fs->n > 0 ? "FAIL" : "ok", (uintmax_t)seed,
		    (uintmax_t)num, p.env[0] != NULL ? p.env[0] : "",
		    p.env[0] != NULL ? " " : "",
		    p.kind == P_CAT_PIPE ? "cat FILE | reader" :
		    p.kind == P_CAT_FILE ? "cat FILE > file" :
		    p.kind == P_CP ? "cp FILE file" : "cp -R DIR dir",
		    p.kind == P_CPR ? dir : p.path, "");
		for (i = 0; i < fs->n; i++)
			(void)fprintf(log, "  %s%s%s%s: %s\n", fs->f[i].kind,
			    fs->f[i].known != NULL ? " (known: " : "",
			    fs->f[i].known != NULL ? fs->f[i].known : "",
			    fs->f[i].known != NULL ? ")" : "", fs->f[i].what);
	}
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	run_free(&run1);
	free(ref);
	free(dir);
	free(p.out);
	free(p.env[0]);
	rm_tree(root);
	free(root);
	return (fs->n > 0);
}
