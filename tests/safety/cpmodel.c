/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What a cp run may do, worked out from the tree before it runs: for
 * each source (followed or not as -H, -L, -P and -R say) the copy it
 * must leave and where; the paths it may change at all; the files it
 * reads, which it must never change; the links already at the target,
 * which a recursive copy or a copy into a directory must not write
 * through to outside the target (FreeBSD 15), nor through to a
 * directory; and whether some operand cannot be copied, so that the
 * exit status must be 1.  Where cp's choice is free (a link in the
 * way may be replaced or refused), the model allows both.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpcase.h"

enum optype { FILE_TO_FILE, FILE_TO_DIR, DIR_TO_DNE };

#define	MAXDEPTH	24

/* A target directory -p gave its source's mode, for the operands after. */
struct remode {
	dev_t		 dev;
	ino_t		 ino;
	mode_t		 mode;
};

struct mctx {
	const struct cpcase *cc;
	const struct cpopts *o;
	const char	*root;
	struct model	*m;
	enum optype	 type;
	char		*T;		/* the target, normalized */
	uid_t		 uid;
	gid_t		 gid;
	int		 depth;
	char		*alt;		/* the link in the way may be followed */
	struct remode	*remode;	/* modes -p gave directories so far */
	size_t		 nremode;
	dev_t		 cdev[MAXDEPTH];
	ino_t		 cino[MAXDEPTH];
};

static void	visit(struct mctx *, const char *, const struct stat *,
		    const char *, int);

static void
list_add(char ***l, size_t *n, const char *s)
{

	*l = xrealloc(*l, (*n + 1) * sizeof(**l));
	(*l)[(*n)++] = xstrdup(s);
}

static void
allow(struct model *m, const char *path)
{

	list_add(&m->allow, &m->nallow, path);
}

static void	must_fail(struct model *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));

/* Some operand cannot be copied: the first reason is kept. */
static void
must_fail(struct model *m, const char *fmt, ...)
{
	char buf[PATH_MAX + 128];
	va_list ap;

	if (!m->fail) {
		va_start(ap, fmt);
		(void)vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		free(m->why);
		m->why = xstrdup(buf);
	}
	m->fail = 1;
}

static int
under(const char *path, const char *dir)
{
	size_t len;

	if (strcmp(dir, ".") == 0)
		return (1);
	len = strlen(dir);
	return (strncmp(path, dir, len) == 0 &&
	    (path[len] == '/' || path[len] == '\0'));
}

/* A real path below the root, normalized; NULL when outside it. */
static char *
real_rel(const struct mctx *mc, const char *path)
{
	char buf[PATH_MAX];
	size_t len;

	if (realpath(path, buf) == NULL)
		return (NULL);
	len = strlen(mc->root);
	if (strncmp(buf, mc->root, len) != 0 ||
	    (buf[len] != '/' && buf[len] != '\0'))
		return (NULL);
	return (path_norm(mc->root, buf));
}

/* Where a link leads, lexically, when what it names is not there. */
static char *
lexical(const struct mctx *mc, const char *link)
{
	char text[PATH_MAX], *dir, *full, *out, *p, *q, *comp[256];
	ssize_t n;
	size_t i, nc;

	if ((n = readlink(link, text, sizeof(text) - 1)) == -1)
		return (NULL);
	text[n] = '\0';
	if (text[0] == '/') {
		out = path_norm(mc->root, text);
		if (out[0] == '/') {
			free(out);
			return (NULL);
		}
		return (out);
	}
	dir = xstrdup(link);
	if ((p = strrchr(dir, '/')) != NULL)
		*p = '\0';
	else
		strcpy(dir, ".");
	full = path_join(dir, text);
	free(dir);
	nc = 0;
	for (p = full; (q = strsep(&p, "/")) != NULL;) {
		if (*q == '\0' || strcmp(q, ".") == 0)
			continue;
		if (strcmp(q, "..") == 0) {
			if (nc == 0) {
				free(full);
				return (NULL);	/* above the root */
			}
			nc--;
		} else if (nc < 256)
			comp[nc++] = q;
	}
	out = xstrdup(".");
	for (i = 0; i < nc; i++) {
		p = i == 0 ? xstrdup(comp[0]) : xasprintf("%s/%s", out,
		    comp[i]);
		free(out);
		out = p;
	}
	free(full);
	return (out);
}

/*
 * Where opening a dangling link with O_CREAT makes the file: the end of
 * its chain of links, each followed lexically, the directory of the last
 * taken as the system resolves it (out/new when dst/e leads to a link
 * out/new that leads nowhere, through dst/data/new if dst/data leads to
 * out).  NULL where it leaves the scratch area.
 */
static char *
dangling_end(const struct mctx *mc, const char *link)
{
	struct stat st;
	char *cur, *next, *dir, *p, *res;
	int hops;

	cur = lexical(mc, link);
	for (hops = 0; cur != NULL && hops < 40; hops++) {
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		next = lexical(mc, cur);
		free(cur);
		cur = next;
	}
	if (cur == NULL || hops == 40) {
		free(cur);
		return (NULL);
	}
	dir = xstrdup(cur);
	if ((p = strrchr(dir, '/')) == NULL) {
		free(dir);
		return (cur);
	}
	*p = '\0';
	res = real_rel(mc, dir);
	if (res != NULL) {
		next = path_join(res, p + 1);
		free(res);
		free(cur);
		cur = path_norm(mc->root, next);
		free(next);
	}
	free(dir);
	return (cur);
}

/* What nobody may do with path: the bits of its owner, group or others. */
static int
nb_perm(const struct mctx *mc, const struct stat *st, int want)
{
	mode_t bits;

	if (st->st_uid == mc->uid)
		bits = (st->st_mode >> 6) & 7;
	else if (st->st_gid == mc->gid)
		bits = (st->st_mode >> 3) & 7;
	else
		bits = st->st_mode & 7;
	return (((unsigned)want & ~(unsigned)bits) == 0);
}

/*
 * Whether nobody may search (1) or do want to path, with the mode an
 * earlier operand's -p left on it if it is a target directory: the model
 * reads the tree as it was before cp ran.  A mode that takes away what
 * nobody had leaves the model unsure: the earlier operand may already
 * have made there the names a later one needs.  -1: no such path.
 */
static int
nb_may(const struct mctx *mc, const char *path, int want)
{
	struct stat st;
	size_t i;
	int before, after;

	if (stat(path, &st) == -1)
		return (-1);
	before = after = nb_perm(mc, &st, want);
	for (i = 0; i < mc->nremode; i++)
		if (mc->remode[i].dev == st.st_dev &&
		    mc->remode[i].ino == st.st_ino) {
			st.st_mode = (st.st_mode & S_IFMT) |
			    (mc->remode[i].mode & ~S_IFMT);
			after = nb_perm(mc, &st, want);
		}
	if (before && !after)
		mc->m->unsure = 1;
	return (after);
}

/*
 * A copy that may be left undone.  One of two sources to one place (2)
 * stays so: which is last depends on the order cp takes them in (--sort
 * sorts the operands), and the judge takes either.
 */
static void
may_be_undone(struct expect *x)
{

	if (x->optional == 0)
		x->optional = 1;
}

/*
 * Whether nobody could do want (R_OK 4, W_OK 2, X_OK 1) to path: every
 * directory on its real way searchable, then its own bits.  As root,
 * always.
 */
static int
nb_can(const struct mctx *mc, const char *path, int want)
{
	char *dir, *p, *rp;
	int ok;

	if (!mc->cc->nobody)
		return (1);
	dir = xstrdup(path);
	if ((p = strrchr(dir, '/')) != NULL)
		*p = '\0';
	else
		strcpy(dir, ".");
	ok = 1;
	if ((rp = real_rel(mc, dir)) != NULL) {
		for (p = rp;; p++) {
			if (*p == '/' || *p == '\0') {
				char c = *p;

				*p = '\0';
				if (nb_may(mc, rp, 1) == 0)
					ok = 0;
				*p = c;
				if (c == '\0')
					break;
			}
		}
		free(rp);
	}
	free(dir);
	if (ok && nb_may(mc, path, want) == 0)
		ok = 0;
	return (ok);
}

static int
parent_can(const struct mctx *mc, const char *path, int want)
{
	char *dir, *p;
	int ok;

	dir = xstrdup(path);
	if ((p = strrchr(dir, '/')) != NULL)
		*p = '\0';
	else
		strcpy(dir, ".");
	ok = nb_can(mc, dir, want);
	free(dir);
	return (ok);
}

static struct expect *
expect(struct mctx *mc, const char *dst, const char *src, enum xkind kind)
{
	struct model *m;
	struct expect *x;
	size_t i;

	m = mc->m;
	m->x = xrealloc(m->x, (m->nx + 1) * sizeof(*m->x));
	x = &m->x[m->nx++];
	memset(x, 0, sizeof(*x));
	x->dst = path_norm(mc->root, dst);
	x->src = path_norm(mc->root, src);
	x->kind = kind;
	/* Two sources to one place: the last wins, or cp refuses. */
	for (i = 0; i + 1 < m->nx; i++)
		if (strcmp(m->x[i].dst, x->dst) == 0) {
			m->x[i].optional = x->optional = 2;
			m->may_fail = 1;
			if (mc->o->n || mc->o->i)
				m->declines = 1;
			/* A FIFO made first is opened to be written. */
			if (m->x[i].kind == X_FIFO && kind == X_REG &&
			    !mc->o->f && !mc->o->n)
				m->wouldblock = 1;
		}
	return (x);
}

/*
 * Two copies that land on one file, through a link followed to it: the
 * last wins, or cp refuses.
 */
static void
same_place(struct model *m, struct expect *x)
{
	const char *a, *b;
	size_t i;

	if (x->alt == NULL)
		return;
	for (i = 0; i + 1 < m->nx; i++) {
		a = m->x[i].alt != NULL ? m->x[i].alt : m->x[i].dst;
		b = x->alt;
		if (strcmp(a, b) == 0 || strcmp(m->x[i].dst, b) == 0) {
			m->x[i].optional = x->optional = 2;
			m->may_fail = 1;
		}
	}
}

static void
add_trap(struct mctx *mc, const char *at, const char *to, int isdir)
{
	struct model *m;

	m = mc->m;
	m->trap = xrealloc(m->trap, (m->ntrap + 1) * sizeof(*m->trap));
	m->trap[m->ntrap].at = path_norm(mc->root, at);
	m->trap[m->ntrap].to = to != NULL ? xstrdup(to) : NULL;
	m->trap[m->ntrap].isdir = isdir;
	m->ntrap++;
}

/*
 * Something is at D already.  Returns 0 to go on with the copy, 1 when
 * the model says no more about D.
 */
static int
in_the_way(struct mctx *mc, const char *sp, const struct stat *st,
    const char *D, const struct stat *dst, int top)
{
	struct stat rs;
	char *res;
	int rok;

	if (S_ISLNK(dst->st_mode)) {
		rok = stat(D, &rs) == 0;
		res = rok ? real_rel(mc, D) : dangling_end(mc, D);
		add_trap(mc, D, res, rok && S_ISDIR(rs.st_mode));
		if (rok && !S_ISLNK(st->st_mode) && rs.st_dev == st->st_dev &&
		    rs.st_ino == st->st_ino) {
			/*
			 * Onto itself, through a link: refused, or (-R, -f)
			 * the link replaced; never the source rewritten.
			 */
			if (mc->o->n || mc->o->i)
				mc->m->declines = 1;
			if (top && mc->type == FILE_TO_FILE &&
			    !S_ISDIR(st->st_mode) && !mc->o->R && !mc->o->f &&
			    !mc->o->l && !mc->o->s) {
				must_fail(mc->m, "%s is the source, through a"
				    " link", D);
				free(res);
				return (1);
			}
			mc->m->may_fail = 1;
			free(res);
			return (0);
		}
		if (!S_ISDIR(st->st_mode) && res != NULL &&
		    ((top && (mc->type == FILE_TO_FILE || !mc->o->R)) ||
		    ((!rok || S_ISREG(rs.st_mode)) &&
		    mc->type == FILE_TO_DIR && under(res, mc->T)))) {
			/*
			 * Without -R, or onto the one target named, a link is
			 * followed as POSIX says; with -R, one to a file that
			 * stays in the tree may be, and so may one that leads
			 * nowhere yet: the copy may have made its file by the
			 * time it comes to the link.
			 */
			allow(mc->m, res);
			free(mc->alt);
			mc->alt = xstrdup(res);
		}
		free(res);
		mc->m->may_fail = 1;
		return (0);
	}
	if (dst->st_dev == st->st_dev && dst->st_ino == st->st_ino) {
		must_fail(mc->m, "%s is its own source", D);
		if (top && S_ISDIR(st->st_mode) && mc->m->later)
			mc->m->selfdir = 1;
		return (1);
	}
	(void)sp;
	return (0);
}

/* A regular file, or what is copied as one. */
static void
visit_file(struct mctx *mc, const char *sp, const struct stat *st,
    const char *D, int have, const struct stat *dst)
{
	struct expect *x;
	struct stat hs;
	uint64_t h;
	char *rp;

	memset(&hs, 0, sizeof(hs));
	x = NULL;
	if ((rp = real_rel(mc, sp)) != NULL) {
		list_add(&mc->m->read, &mc->m->nread, rp);
		mc->m->readino = xrealloc(mc->m->readino, mc->m->nread *
		    sizeof(*mc->m->readino));
		mc->m->readino[mc->m->nread - 1] = st->st_ino;
		if (under(rp, mc->T) || under(rp, "dst"))
			mc->m->may_fail = 1;
	}
	if (mc->o->l) {
		x = expect(mc, D, sp, X_HARD);
		x->dev = st->st_dev;
		x->ino = st->st_ino;
	} else if (mc->o->s) {
		x = expect(mc, D, sp, X_SYM);
		x->text = xstrdup(sp);
	} else {
		x = expect(mc, D, sp, X_REG);
		if (hash_path(sp, &h, &hs) == 0) {
			x->hash = h;
			x->size = hs.st_size;
			x->blocks = hs.st_blocks;
			x->mtime = hs.st_mtim;
		} else
			may_be_undone(x);
		if (!nb_can(mc, sp, 4))
			must_fail(mc->m, "%s cannot be read", sp);
		if (mc->cc->fsize > 0 && hs.st_size > mc->cc->fsize) {
			if (have && S_ISLNK(dst->st_mode))
				mc->m->may_fail = 1;
			else
				must_fail(mc->m, "%s is larger than the file "
				    "size limit", sp);
		}
	}
	if (rp != NULL && (under(rp, mc->T) || under(rp, "dst")))
		may_be_undone(x);
	x->real = rp;
	x->alt = mc->alt;
	mc->alt = NULL;
	same_place(mc->m, x);
	if (have) {
		struct stat fst;

		if (S_ISDIR(dst->st_mode)) {
			must_fail(mc->m, "%s is a directory", D);
			free(x->dst);
			free(x->src);
			free(x->text);
			free(x->real);
			free(x->alt);
			mc->m->nx--;
			return;
		}
		if (!mc->o->f && !mc->o->l && !mc->o->s &&
		    stat(D, &fst) == 0 && S_ISFIFO(fst.st_mode))
			mc->m->wouldblock = 1;
		if (mc->o->n || mc->o->i) {
			may_be_undone(x);
			x->either = 1;
			mc->m->declines = 1;
			/* -n, and -i with no answer to read, leave it be. */
			x->keep = mc->o->n || mc->cc->in != IO_PIPE;
		}
		/* A link onto something: ln's choice, replace or refuse. */
		if ((mc->o->l || mc->o->s) && !mc->o->f)
			mc->m->may_fail = 1;
		if (!mc->o->f && !mc->o->l && !mc->o->s &&
		    !S_ISLNK(dst->st_mode) && !nb_can(mc, D, 2))
			must_fail(mc->m, "%s cannot be written", D);
		if (S_ISLNK(dst->st_mode)) {
			may_be_undone(x);
			x->either = 1;
		}
	} else if (!parent_can(mc, D, 3))
		must_fail(mc->m, "%s cannot be made", D);
	if (mc->cc->nobody && x->kind == X_HARD)
		may_be_undone(x);	/* protected_hardlinks and the like */
}

static void
remode_add(struct mctx *mc, const struct stat *dst, mode_t mode)
{

	mc->remode = xrealloc(mc->remode, (mc->nremode + 1) *
	    sizeof(*mc->remode));
	mc->remode[mc->nremode].dev = dst->st_dev;
	mc->remode[mc->nremode].ino = dst->st_ino;
	mc->remode[mc->nremode].mode = mode;
	mc->nremode++;
}

static void
visit_dir(struct mctx *mc, const char *sp, const struct stat *st,
    const char *D, int have, const struct stat *dst)
{
	struct dirent *de;
	struct stat cst;
	struct expect *x;
	DIR *d;
	char **names, *child, *cd, *rp;
	size_t i, n;
	int r, remodes;

	if (!mc->o->R) {
		must_fail(mc->m, "%s is a directory (no -R)", sp);
		mc->m->nallow--;
		free(mc->m->allow[mc->m->nallow]);
		return;
	}
	for (i = 0; i < (size_t)mc->depth; i++)
		if (mc->cdev[i] == st->st_dev && mc->cino[i] == st->st_ino) {
			must_fail(mc->m, "%s makes a cycle", sp);
			return;
		}
	if (mc->depth == MAXDEPTH) {
		mc->m->unsure = 1;
		return;
	}
	rp = real_rel(mc, sp);
	if (rp == NULL || under(rp, mc->T) || under(mc->T, rp) ||
	    under(rp, "dst")) {
		/* Copying the target into itself, or a tree into its own. */
		mc->m->unsure = 1;
		list_add(&mc->m->below, &mc->m->nbelow, D);
		/* Whatever it becomes, another copy to D may meet it. */
		expect(mc, D, sp, X_DIR)->optional = 2;
		free(rp);
		return;
	}
	free(rp);
	if (have && !S_ISDIR(dst->st_mode)) {
		if (!S_ISLNK(dst->st_mode))
			must_fail(mc->m, "%s is in the way", D);
		return;
	}
	if (!have && !parent_can(mc, D, 3)) {
		must_fail(mc->m, "%s cannot be made", D);
		return;
	}
	x = expect(mc, D, sp, X_DIR);
	if (!nb_can(mc, sp, 5)) {
		/* Its target directory may be made; nothing inside it. */
		may_be_undone(x);
		must_fail(mc->m, "%s cannot be read", sp);
		return;
	}
	/* cp opens the target directory: reading it may be needed too. */
	if (have && !nb_can(mc, D, 7))
		mc->m->may_fail = 1;
	/*
	 * Its entries done, -p gives a directory that was there the source's
	 * mode, if cp could open it and nobody owns it: an operand after
	 * this one may write where it could not (FreeBSD does the same).
	 */
	remodes = mc->o->p && have && nb_can(mc, D, 4) &&
	    (!mc->cc->nobody || dst->st_uid == mc->uid);
	if ((d = opendir(sp)) == NULL) {
		mc->m->unsure = 1;
		return;
	}
	names = NULL;
	n = 0;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			list_add(&names, &n, de->d_name);
	(void)closedir(d);
	mc->cdev[mc->depth] = st->st_dev;
	mc->cino[mc->depth] = st->st_ino;
	mc->depth++;
	for (i = 0; i < n; i++) {
		child = path_join(sp, names[i]);
		cd = path_join(D, names[i]);
		r = mc->o->follow_all ? stat(child, &cst) :
		    lstat(child, &cst);
		if (r == -1) {
			/* -L and a dangling link, or a loop: either way. */
			mc->m->may_fail = 1;
			allow(mc->m, cd);
		} else
			visit(mc, child, &cst, cd, 0);
		free(child);
		free(cd);
		free(names[i]);
	}
	free(names);
	mc->depth--;
	if (remodes)
		remode_add(mc, dst, st->st_mode);
}

/* The source sp (st as followed or not) is copied to D. */
static void
visit(struct mctx *mc, const char *sp, const struct stat *st, const char *D,
    int top)
{
	struct stat dst;
	struct expect *x;
	char text[PATH_MAX];
	ssize_t n;
	int have;

	allow(mc->m, D);
	have = lstat(D, &dst) == 0;
	free(mc->alt);
	mc->alt = NULL;
	if (have && in_the_way(mc, sp, st, D, &dst, top))
		return;
	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		visit_file(mc, sp, st, D, have, &dst);
		break;
	case S_IFDIR:
		visit_dir(mc, sp, st, D, have, &dst);
		break;
	case S_IFLNK:
		if ((n = readlink(sp, text, sizeof(text) - 1)) == -1) {
			mc->m->unsure = 1;
			return;
		}
		text[n] = '\0';
		x = expect(mc, D, sp, X_LINK);
		x->text = xstrdup(text);
		x->dev = st->st_dev;
		x->ino = st->st_ino;
		if (have && S_ISDIR(dst.st_mode)) {
			must_fail(mc->m, "%s is a directory", D);
			mc->m->nx--;
			free(x->dst);
			free(x->src);
			free(x->text);
			return;
		}
		if (have && (mc->o->n || mc->o->i)) {
			may_be_undone(x);
			mc->m->declines = 1;
		}
		if (!have && !parent_can(mc, D, 3))
			must_fail(mc->m, "%s cannot be made", D);
		break;
	case S_IFIFO:
		x = expect(mc, D, sp, X_FIFO);
		x->dev = st->st_dev;
		x->ino = st->st_ino;
		if (have) {
			if (S_ISDIR(dst.st_mode)) {
				must_fail(mc->m, "%s is a directory", D);
				return;
			}
			if ((mc->o->l || mc->o->s) && !mc->o->f)
				mc->m->may_fail = 1;
			if (mc->o->n || mc->o->i) {
				may_be_undone(x);
				mc->m->declines = 1;
			}
		} else if (!parent_can(mc, D, 3))
			must_fail(mc->m, "%s cannot be made", D);
		break;
	default:
		mc->m->unsure = 1;
		break;
	}
}

void
cp_parse(const struct cpcase *cc, struct cpopts *o)
{
	static const char *const longs[][2] = {
		{ "--recursive", "R" }, { "--archive", "a" },
		{ "--force", "f" }, { "--interactive", "i" },
		{ "--no-clobber", "n" }, { "--dereference", "L" },
		{ "--no-dereference", "P" }, { "--link", "l" },
		{ "--symbolic-link", "s" }, { "--verbose", "v" },
		{ "--one-file-system", "x" }, { "--sort", "" },
	};
	const char *a, *p;
	size_t i, j;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < cc->nargs; i++) {
		a = cc->args[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			break;
		p = a + 1;
		if (a[1] == '-') {
			p = NULL;
			for (j = 0; j < sizeof(longs) / sizeof(longs[0]); j++)
				if (strcmp(a, longs[j][0]) == 0)
					p = longs[j][1];
			if (p == NULL) {
				o->usage = 1;
				continue;
			}
		}
		for (; *p != '\0'; p++)
			switch (*p) {
			case 'H':
				o->H = 1;
				o->L = o->P = 0;
				break;
			case 'L':
				o->L = 1;
				o->H = o->P = 0;
				break;
			case 'P':
				o->P = 1;
				o->H = o->L = 0;
				break;
			case 'R':
				o->R = 1;
				break;
			case 'a':
				o->R = o->p = o->P = 1;
				o->H = o->L = 0;
				break;
			case 'f':
				o->f = 1;
				o->i = o->n = 0;
				break;
			case 'i':
				o->i = 1;
				o->f = o->n = 0;
				break;
			case 'n':
				o->n = 1;
				o->f = o->i = 0;
				break;
			case 'l':
				o->l = 1;
				break;
			case 'p':
				o->p = 1;
				break;
			case 'r':
				o->r = o->L = 1;
				o->H = o->P = 0;
				break;
			case 's':
				o->s = 1;
				break;
			case 'v':
				o->v = 1;
				break;
			case 'x':
				o->x = 1;
				break;
			case 'N':
				break;
			default:
				o->usage = 1;
				break;
			}
	}
	o->first = i;
	if (cc->nargs - o->first < 2 || (o->R && o->r) || (o->l && o->s))
		o->usage = 1;
	if (o->r)
		o->R = 1;
	if (o->R) {
		o->follow_root = o->H || o->L;
		o->follow_all = o->L;
	} else
		o->follow_root = o->follow_all = !o->P;
}

/* An argument as cp gets it: ROOTMARK made the root. */
char *
cp_arg(const char *root, const char *a)
{

	if (strncmp(a, ROOTMARK, strlen(ROOTMARK)) == 0)
		return (xasprintf("%s/%s", root, a + strlen(ROOTMARK)));
	return (xstrdup(a));
}

/* The model, with the cwd at the scratch root. */
void
cp_model(const struct cpcase *cc, const struct cpopts *o, const char *root,
    struct model *m)
{
	struct mctx mc;
	struct stat st, tst;
	const char *base;
	char *T, *D, *s, *p;
	size_t i, len, nops;
	int r, slash, texists;

	memset(m, 0, sizeof(*m));
	memset(&mc, 0, sizeof(mc));
	mc.cc = cc;
	mc.o = o;
	mc.root = root;
	mc.m = m;
	(void)nobody_ids(&mc.uid, &mc.gid);
	if (o->usage) {
		m->usage = 1;
		m->fail = 1;
		m->why = xstrdup("a usage error");
		return;
	}
	nops = cc->nargs - 1 - o->first;
	for (i = o->first + 1; i + 1 < cc->nargs; i++)
		if (cc->args[i][0] == '-')
			m->lateopt = 1;
	T = cp_arg(root, cc->args[cc->nargs - 1]);
	len = strlen(T);
	slash = len > 0 && T[len - 1] == '/';
	while (len > 1 && T[len - 1] == '/')
		T[--len] = '\0';
	mc.T = path_norm(root, T);
	m->tgiven = xstrdup(mc.T);
	m->treal = xstrdup(mc.T);
	texists = stat(T, &tst) == 0;
	if (!texists && errno != ENOENT) {
		must_fail(m, "target %s cannot be looked up", T);
		goto done;
	}
	if (texists && S_ISDIR(tst.st_mode)) {
		mc.type = FILE_TO_DIR;
		m->tdev = tst.st_dev;
		m->tino = tst.st_ino;
		/* A target named through a link: the copies go where it leads. */
		if ((p = real_rel(&mc, T)) != NULL) {
			free(mc.T);
			mc.T = p;
			free(m->treal);
			m->treal = xstrdup(p);
		}
	} else {
		if (nops > 1) {
			must_fail(m, "%s is not a directory", T);
			goto done;
		}
		mc.type = FILE_TO_FILE;
		s = cp_arg(root, cc->args[o->first]);
		if (!texists && o->R && (o->follow_root ? stat(s, &st) :
		    lstat(s, &st)) == 0 && S_ISDIR(st.st_mode))
			mc.type = DIR_TO_DNE;
		free(s);
		if (slash && mc.type == FILE_TO_FILE) {
			must_fail(m, "%s/ is not a directory", T);
			goto done;
		}
	}
	if (texists && mc.type == FILE_TO_DIR) {
		/* The target directory must stay put; its mode is cp's. */
		if ((p = real_rel(&mc, T)) != NULL) {
			allow(m, p);
			free(p);
		}
	}
	for (i = o->first; i < cc->nargs - 1; i++) {
		s = cp_arg(root, cc->args[i]);
		r = o->follow_root ? stat(s, &st) : lstat(s, &st);
		if (r == -1) {
			must_fail(m, "%s cannot be looked up", cc->args[i]);
			free(s);
			continue;
		}
		if (mc.type == FILE_TO_DIR) {
			base = strrchr(s, '/') != NULL ? strrchr(s, '/') + 1 :
			    s;
			if (*base == '\0' || strcmp(base, ".") == 0 ||
			    strcmp(base, "..") == 0)
				D = xstrdup(mc.T);
			else
				D = path_join(mc.T, base);
		} else
			D = xstrdup(mc.T);
		p = path_norm(root, D);
		m->later = i > o->first;
		visit(&mc, s, &st, p, 1);
		free(p);
		free(D);
		free(s);
	}
done:
	free(T);
	free(mc.T);
	free(mc.alt);
	free(mc.remode);
}

void
cp_model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nx; i++) {
		free(m->x[i].dst);
		free(m->x[i].src);
		free(m->x[i].text);
		free(m->x[i].real);
		free(m->x[i].alt);
	}
	free(m->x);
	for (i = 0; i < m->nallow; i++)
		free(m->allow[i]);
	free(m->allow);
	for (i = 0; i < m->nbelow; i++)
		free(m->below[i]);
	free(m->below);
	for (i = 0; i < m->nread; i++)
		free(m->read[i]);
	free(m->read);
	free(m->readino);
	for (i = 0; i < m->ntrap; i++) {
		free(m->trap[i].at);
		free(m->trap[i].to);
	}
	free(m->trap);
	free(m->why);
	free(m->tgiven);
	free(m->treal);
	memset(m, 0, sizeof(*m));
}
