/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * One cp case: make its tree in a fresh scratch area, take a snapshot,
 * run cp, take another snapshot, and check what needs no model of cp
 * (README: OUTSIDE, CRASH, HANG, SILENT, MESSAGE, FDLEAK).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

#define	MAXDEST	64
#define	MAXSHOW	4	/* changes outside shown, of each case */

/* What of cp's options the invariants need. */
struct opts {
	int		 recursive;
	int		 declines;	/* -n or -i: exit 1 without a word */
	size_t		 first;		/* the first operand */
};

/* The paths cp may change, and everything below them. */
struct dest {
	char		*path[MAXDEST];
	size_t		 n;
};

struct findings {
	char		*text;
	int		 n;
};

static void	found(struct findings *, const char *, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));

static void
found(struct findings *f, const char *kind, const char *fmt, ...)
{
	va_list ap;
	char *what, *t;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (n < 0)
		err(3, NULL);
	t = xasprintf("%s  %s: %s\n", f->text != NULL ? f->text : "", kind,
	    what);
	free(what);
	free(f->text);
	f->text = t;
	f->n++;
}

static char *
cp_arg(const char *root, const char *a)
{

	if (strncmp(a, ROOTMARK, strlen(ROOTMARK)) == 0)
		return (xasprintf("%s/%s", root, a + strlen(ROOTMARK)));
	return (xstrdup(a));
}

static void
parse_opts(const struct cpcase *cc, struct opts *o)
{
	const char *a;
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < cc->nargs; i++) {
		a = cc->args[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			break;
		if (a[1] == '-') {
			o->recursive |= strcmp(a, "--recursive") == 0 ||
			    strcmp(a, "--archive") == 0;
			o->declines |= strcmp(a, "--no-clobber") == 0 ||
			    strcmp(a, "--interactive") == 0;
			continue;
		}
		o->recursive |= strpbrk(a, "Rra") != NULL;
		o->declines |= strpbrk(a, "ni") != NULL;
	}
	o->first = i;
}

/* p (absolute) relative to the scratch root, or NULL outside it. */
static char *
inside(const char *root, const char *p)
{
	size_t n;

	n = strlen(root);
	if (strcmp(p, root) == 0)
		return (xstrdup("."));
	if (strncmp(p, root, n) == 0 && p[n] == '/')
		return (xstrdup(p + n + 1));
	return (NULL);
}

/* Whether path is at or below d. */
static int
under(const char *path, const char *d)
{
	size_t n;

	n = strlen(d);
	return (strcmp(d, ".") == 0 || (strncmp(path, d, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/')));
}

/*
 * Where path (absolute) leads, following links to the end of a chain
 * that may end nowhere, relative to the scratch root; NULL if outside it
 * or in a loop.
 */
static char *
resolve(const char *root, const char *path)
{
	char buf[PATH_MAX], text[PATH_MAX], *p, *dir, *next, *r;
	struct stat st;
	ssize_t n;
	int i;

	p = xstrdup(path);
	r = NULL;
	for (i = 0; i < 40 && r == NULL; i++) {
		if (realpath(p, buf) != NULL) {
			r = inside(root, buf);
			break;
		}
		dir = xstrdup(p);
		*strrchr(dir, '/') = '\0';
		if (lstat(p, &st) == -1 || !S_ISLNK(st.st_mode) ||
		    (n = readlink(p, text, sizeof(text) - 1)) == -1) {
			/* Not there: where its directory is. */
			if (realpath(*dir != '\0' ? dir : "/", buf) != NULL) {
				next = xasprintf("%s/%s", buf,
				    strrchr(p, '/') + 1);
				r = inside(root, next);
				free(next);
			}
			free(dir);
			break;
		}
		text[n] = '\0';
		next = text[0] == '/' ? xstrdup(text) :
		    xasprintf("%s/%s", dir, text);
		free(dir);
		free(p);
		p = next;
	}
	free(p);
	return (r);
}

static void
dest_add(struct dest *d, char *path)
{

	if (path != NULL && d->n < MAXDEST)
		d->path[d->n++] = path;
	else
		free(path);
}

/* The destination, worked out before the run. */
static void
dest_find(const char *root, const char *target, const struct opts *o,
    const struct snap *pre, struct dest *d)
{
	char *abs;
	size_t i, k, len, ndir;

	memset(d, 0, sizeof(*d));
	abs = xasprintf("%s/%s", root, target);
	for (len = strlen(abs); abs[len - 1] == '/';)
		abs[--len] = '\0';
	dest_add(d, inside(root, abs));
	dest_add(d, resolve(root, abs));
	free(abs);
	if (o->recursive)
		return;
	/* Without -R, a link at the target's name is followed. */
	ndir = d->n;
	for (i = 0; i < pre->n; i++) {
		if (!S_ISLNK(pre->e[i].mode))
			continue;
		for (k = 0; k < ndir; k++) {
			len = strlen(d->path[k]);
			if (strncmp(pre->e[i].path, d->path[k], len) == 0 &&
			    pre->e[i].path[len] == '/' &&
			    strchr(pre->e[i].path + len + 1, '/') == NULL) {
				abs = xasprintf("%s/%s", root, pre->e[i].path);
				dest_add(d, resolve(root, abs));
				free(abs);
				break;
			}
		}
	}
}

static void
dest_free(struct dest *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->path[i]);
}

static int
in_dest(const struct dest *d, const char *path)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (under(path, d->path[i]))
			return (1);
	return (0);
}

static int
same_entry(const struct entry *a, const struct entry *b)
{

	if (a->mode != b->mode)
		return (0);
	if (S_ISDIR(a->mode))
		return (1);
	if (a->dev != b->dev || a->ino != b->ino)
		return (0);
	if (S_ISLNK(a->mode))
		return (strcmp(a->link, b->link) == 0);
	return (!S_ISREG(a->mode) || (a->size == b->size &&
	    a->hash == b->hash && a->mtime.tv_sec == b->mtime.tv_sec &&
	    a->mtime.tv_nsec == b->mtime.tv_nsec));
}

/* OUTSIDE: the two snapshots, sorted by path, walked side by side. */
static void
check_outside(const struct snap *pre, const struct snap *post,
    const struct dest *d, struct findings *f)
{
	const struct entry *a, *b;
	size_t i, j;
	int c, n;

	n = 0;
	for (i = j = 0; i < pre->n || j < post->n;) {
		a = i < pre->n ? &pre->e[i] : NULL;
		b = j < post->n ? &post->e[j] : NULL;
		c = a == NULL ? 1 : b == NULL ? -1 : strcmp(a->path, b->path);
		i += c <= 0;
		j += c >= 0;
		if (in_dest(d, c <= 0 ? a->path : b->path) ||
		    (c == 0 && same_entry(a, b)))
			continue;
		if (n++ < MAXSHOW)
			found(f, "OUTSIDE", "%s %s", c <= 0 ? a->path : b->path,
			    c < 0 ? "is gone" : c > 0 ? "was made" :
			    "was changed");
	}
	if (n > MAXSHOW)
		found(f, "OUTSIDE", "and %d more", n - MAXSHOW);
}

/* CRASH, HANG, SILENT, MESSAGE: how cp ended, and what it said. */
static void
check_exit(const struct run *r, const struct opts *o, struct findings *f)
{
	char *buf, *line, *next, *p, *q;
	int code, msgs, sig, stray;

	if ((code = run_status(r, &sig)) == -1) {
		found(f, sig == SIGALRM || sig == SIGKILL ? "HANG" : "CRASH",
		    "killed by signal %d", sig);
		return;
	}
	if (code != 0 && code != 1 && code != 64)
		found(f, "CRASH", "exit status %d", code);
	if (r->cc->err != IO_FILE)
		return;
	/* The -i prompts end no line. */
	buf = xstrdup(r->errbuf);
	while ((q = strstr(buf, "? (y/n [n]) ")) != NULL) {
		for (p = q; p > buf && strncmp(p, "overwrite ", 10) != 0; p--)
			;
		memmove(p, q + 12, strlen(q + 12) + 1);
	}
	msgs = stray = 0;
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "cp: ", 4) == 0 ||
		    strncmp(line, "usage: cp ", 10) == 0)
			msgs++;
		else if (strstr(line, "Sanitizer") != NULL ||
		    strstr(line, "runtime error") != NULL)
			found(f, "CRASH", "%s", line);
		else if (*line != '\0' && strncmp(line, "       cp ", 10) != 0 &&
		    strcmp(line, "not overwritten") != 0 && stray++ == 0)
			found(f, "MESSAGE", "not cp's: \"%s\"", line);
	}
	free(buf);
	if (code == 0 && msgs > 0)
		found(f, "MESSAGE", "exit 0 after a message");
	if (code != 0 && msgs == 0 && !(code == 1 && o->declines))
		found(f, "SILENT", "exit %d without a message", code);
}

/* FDLEAK: the report of the preloaded library. */
static void
check_fds(const struct ctx *c, const struct run *r, const char *root,
    const struct dest *d, struct findings *f)
{
	struct stat st;
	const char *p;
	uintmax_t dev, ino;
	unsigned mode;
	char *t;
	int fd, sig, tdir;

	if (!c->preload || run_status(r, &sig) == -1)
		return;
	if (r->fds == NULL) {
		found(f, "FDLEAK", "no descriptor report from the preload");
		return;
	}
	t = xasprintf("%s/%s", root, d->path[0]);
	tdir = stat(t, &st) == 0 && S_ISDIR(st.st_mode);
	free(t);
	for (p = r->fds; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (sscanf(p, "%d %u %ju %ju", &fd, &mode, &dev, &ino) != 4)
			break;
		if (fd_exempt(mode, dev) || (tdir && S_ISDIR((mode_t)mode) &&
		    dev == (uintmax_t)st.st_dev && ino == (uintmax_t)st.st_ino))
			continue;
		found(f, "FDLEAK", "descriptor %d open at exit (mode %o)", fd,
		    mode);
	}
}

/*
 * Whether an operand of a run without -R is a FIFO: cp would open it and
 * wait for a writer, as it should.  Such a case is not run.
 */
static int
fifo_operand(const struct cpcase *cc, const struct opts *o, const char *root)
{
	struct stat st;
	size_t i;
	char *a, *s;
	int fifo;

	if (o->recursive)
		return (0);
	for (i = o->first, fifo = 0; i + 1 < cc->nargs && !fifo; i++) {
		a = cp_arg(root, cc->args[i]);
		s = *a == '/' ? xstrdup(a) : xasprintf("%s/%s", root, a);
		fifo = stat(s, &st) == 0 && S_ISFIFO(st.st_mode);
		free(a);
		free(s);
	}
	return (fifo);
}

static void
check(const struct ctx *c, struct cpcase *cc, struct findings *f)
{
	struct opts o;
	struct dest d;
	struct snap pre, post;
	struct run r;
	char *root, *kept;
	size_t i;

	root = xasprintf("%s/cp.%ju.%ju", c->work, (uintmax_t)cc->seed,
	    (uintmax_t)cc->num);
	rm_tree(root);
	make_dir(root, 0755);
	tree_apply(&cc->tree, root);
	parse_opts(cc, &o);
	if (fifo_operand(cc, &o, root)) {
		rm_tree(root);
		free(root);
		return;
	}
	snap_take(&pre, root);
	dest_find(root, cc->args[cc->nargs - 1], &o, &pre, &d);
	memset(&r, 0, sizeof(r));
	r.cc = cc;
	r.cwd = root;
	r.argv = xmalloc((cc->nargs + 2) * sizeof(*r.argv));
	r.argv[0] = xstrdup(c->cp);
	for (i = 0; i < cc->nargs; i++)
		r.argv[i + 1] = cp_arg(root, cc->args[i]);
	r.argv[cc->nargs + 1] = NULL;
	run(&r);
	for (i = 0; r.argv[i] != NULL; i++)
		free(r.argv[i]);
	free(r.argv);
	snap_take(&post, root);
	check_exit(&r, &o, f);
	check_outside(&pre, &post, &d, f);
	check_fds(c, &r, root, &d, f);
	run_free(&r);
	dest_free(&d);
	snap_free(&pre);
	snap_free(&post);
	if (c->keep && f->n > 0) {
		kept = xasprintf("%s.fail", root);
		rm_tree(kept);
		if (rename(root, kept) == -1)
			warn("rename %s", root);
		free(kept);
	} else
		rm_tree(root);
	free(root);
}

/* The command as a shell line, run in the scratch area ($S). */
static void
print_cmd(const struct cpcase *cc, FILE *fp)
{
	const char *a;
	char *q;
	size_t i;

	for (i = 0; cc->env[i] != NULL; i++)
		(void)fprintf(fp, "%s ", cc->env[i]);
	(void)fprintf(fp, "cp");
	for (i = 0; i < cc->nargs; i++) {
		a = cc->args[i];
		if (strncmp(a, ROOTMARK, strlen(ROOTMARK)) == 0)
			a += strlen(ROOTMARK);
		q = shell_quote(a);
		(void)fprintf(fp, " %s%s", a != cc->args[i] ? "\"$S\"/" : "",
		    q);
		free(q);
	}
	(void)fprintf(fp, "%s%s", cc->in == IO_CLOSED ? " <&-" : "",
	    cc->err == IO_CLOSED ? " 2>&-" : "");
	if (cc->fsize > 0)
		(void)fprintf(fp, "    # with a file size limit of %jd bytes, "
		    "SIGXFSZ ignored", (intmax_t)cc->fsize);
	(void)fprintf(fp, "%s\n", cc->nobody ? "    # as nobody" : "");
}

int
cp_case(const struct ctx *c, uint64_t seed, uint64_t num, FILE *log)
{
	struct cpcase cc;
	struct findings f;
	struct rng r;

	memset(&cc, 0, sizeof(cc));
	memset(&f, 0, sizeof(f));
	cc.seed = seed;
	cc.num = num;
	rng_init(&r, seed, num);
	cp_gen(c, &r, &cc);
	check(c, &cc, &f);
	if (c->verbose || f.n > 0) {
		(void)fprintf(log, "%s cp seed %ju case %ju: ", f.n > 0 ?
		    "FAIL" : "ok", (uintmax_t)seed, (uintmax_t)num);
		print_cmd(&cc, log);
		(void)fprintf(log, "%s", f.n > 0 ? f.text : "");
	}
	free(f.text);
	cp_case_free(&cc);
	return (f.n > 0);
}
