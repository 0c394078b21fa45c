/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Generating a cp case from (seed, number): a source tree of files of
 * every size and layout, hard and symbolic links of every kind, FIFOs;
 * files outside both source and target for links to lead to; cp's
 * options and operands; a target that is empty, partly there, a copy,
 * a farm of links into the source, or laid with links that lead out;
 * and how cp runs (as nobody with unreadable entries, -i's answers from
 * a pipe, a closed stdin, a file size limit, a forced engine path).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpcase.h"

/* Paths by kind, to pick link targets and operands from. */
struct pool {
	char		**p;
	size_t		 n;
	size_t		 cap;
};

struct gen {
	struct rng	*r;
	struct tree	*t;
	struct pool	 files;		/* regular files in src */
	struct pool	 dirs;		/* directories in src, src too */
	struct pool	 fifos;
	struct pool	 links;		/* places for links, made last */
	struct pool	 all;		/* everything below src */
};

static void	pool_add(struct pool *, const char *);
static const char *pool_pick(struct rng *, const struct pool *);
static void	pool_free(struct pool *);
static char	*new_name(struct gen *, const char *);
static void	gen_file(struct gen *, const char *);
static void	gen_dir(struct gen *, const char *, int);
static void	gen_links(struct gen *);
static char	*rel_to(const char *, const char *);
static void	gen_args(const struct ctx *, struct gen *, struct cpcase *,
		    char ***, size_t *);
static void	gen_target_state(struct gen *, struct cpcase *, size_t);
static void	gen_modes(struct gen *, struct cpcase *);
static void	gen_run(struct gen *, struct cpcase *);
static void	gen_signals(struct gen *, struct cpcase *);
static void	gen_no_answer(struct gen *, struct cpcase *);

static const char *const names[] = {
	"a", "b", "c", "d", "e", "f", "g", "h", "k", "m", "sub", "data",
	"x y", "-dash", ".dot", "caf\xc3\xa9", "tab\tname", "new"
};

static void
pool_add(struct pool *p, const char *s)
{

	if (p->n == p->cap) {
		p->cap = p->cap == 0 ? 16 : p->cap * 2;
		p->p = xrealloc(p->p, p->cap * sizeof(*p->p));
	}
	p->p[p->n++] = xstrdup(s);
}

static const char *
pool_pick(struct rng *r, const struct pool *p)
{

	return (p->n == 0 ? NULL : p->p[rng_below(r, p->n)]);
}

static void
pool_free(struct pool *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->p[i]);
	free(p->p);
}

/* A name not yet used in dir. */
static char *
new_name(struct gen *g, const char *dir)
{
	char *path;
	int tries;

	for (tries = 0;; tries++) {
		if (tries < 20)
			path = xasprintf("%s/%s", dir, names[rng_below(g->r,
			    sizeof(names) / sizeof(names[0]))]);
		else
			path = xasprintf("%s/n%d", dir, tries);
		if (tree_find(g->t, path) == NULL)
			return (path);
		free(path);
	}
}

/*
 * A regular file: empty, a byte, around a page, around the usual buffer
 * sizes, a few hundred KiB, a few MiB, or sparse (data here and there in
 * up to 16 MiB, holes between, at either end, or nothing but a hole).
 */
static void
gen_file(struct gen *g, const char *path)
{
	static const off_t edges[] = { 4095, 4096, 4097, 8191, 8193, 65535,
	    65536, 65537, 131071, 131072, 131073, 1048575, 1048577 };
	static const off_t sparse[] = { 1048576, 4194304 + 123, 16777216 };
	struct op *o;
	off_t at, room;
	unsigned k;
	int i;

	o = tree_add(g->t, OP_FILE, path, NULL);
	o->data = rng_next(g->r);
	o->text = rng_chance(g->r, 40);
	k = (unsigned)rng_below(g->r, 100);
	if (k < 8)
		o->size = 0;
	else if (k < 12)
		o->size = 1;
	else if (k < 28)
		o->size = 2 + (off_t)rng_below(g->r, 4000);
	else if (k < 48)
		o->size = edges[rng_below(g->r, sizeof(edges) /
		    sizeof(edges[0]))];
	else if (k < 68)
		o->size = (off_t)rng_below(g->r, 300000);
	else if (k < 72)
		o->size = 1048576 + (off_t)rng_below(g->r, 2097152);
	else {
		o->size = sparse[rng_below(g->r, 3)];
		o->nseg = (int)rng_below(g->r, MAXSEG + 1);
		at = 0;
		for (i = 0; i < o->nseg; i++) {
			room = o->size - at;
			if (room <= 1) {
				o->nseg = i;
				break;
			}
			o->seg[i].off = at + (off_t)rng_below(g->r,
			    (uint64_t)room / 2);
			if (rng_chance(g->r, 50))
				o->seg[i].off -= o->seg[i].off % 4096;
			o->seg[i].len = 1 + (off_t)rng_below(g->r,
			    (uint64_t)(o->size - o->seg[i].off) / 3 < 200000 ?
			    (uint64_t)(o->size - o->seg[i].off) / 3 : 200000);
			at = o->seg[i].off + o->seg[i].len;
		}
		/* Data to the very end, now and then. */
		if (o->nseg > 0 && rng_chance(g->r, 30))
			o->seg[o->nseg - 1].len = o->size -
			    o->seg[o->nseg - 1].off;
		if (o->nseg == 0) {
			/* Nothing but a hole: one empty segment says so. */
			o->nseg = 1;
			o->seg[0].off = o->seg[0].len = 0;
		}
	}
	pool_add(&g->files, path);
	pool_add(&g->all, path);
}

static void
gen_dir(struct gen *g, const char *dir, int depth)
{
	char *path;
	unsigned k;
	int i, n;

	n = depth == 0 ? 2 + (int)rng_below(g->r, 5) :
	    (int)rng_below(g->r, 5);
	for (i = 0; i < n; i++) {
		path = new_name(g, dir);
		k = (unsigned)rng_below(g->r, 100);
		if (k < 48)
			gen_file(g, path);
		else if (k < 66 && depth < 3) {
			(void)tree_add(g->t, OP_DIR, path, NULL);
			pool_add(&g->dirs, path);
			pool_add(&g->all, path);
			gen_dir(g, path, depth + 1);
		} else if (k < 70) {
			(void)tree_add(g->t, OP_FIFO, path, NULL);
			pool_add(&g->fifos, path);
			pool_add(&g->all, path);
		} else {
			/* A name reserved now, so that no file takes it. */
			(void)tree_add(g->t, OP_SYMLINK, path, "?");
			pool_add(&g->links, path);
			pool_add(&g->all, path);
		}
		free(path);
	}
}

/* The text of a relative link at from (a path) that leads to to. */
static char *
rel_to(const char *from, const char *to)
{
	char *s, *t;
	const char *p;

	s = xstrdup("");
	for (p = strchr(from, '/'); p != NULL; p = strchr(p + 1, '/')) {
		t = xasprintf("%s../", s);
		free(s);
		s = t;
	}
	t = xasprintf("%s%s", s, to);
	free(s);
	return (t);
}

/* What a symbolic link at path says: every kind a tree can hold. */
static char *
link_text(struct gen *g, const char *path)
{
	const char *base, *to;
	unsigned k;

	base = strrchr(path, '/') + 1;
	for (;;) {
		k = (unsigned)rng_below(g->r, 100);
		if (k < 20 && (to = pool_pick(g->r, &g->files)) != NULL)
			return (rel_to(path, to));
		if (k < 30 && (to = pool_pick(g->r, &g->dirs)) != NULL)
			return (rel_to(path, to));
		if (k < 38 && (to = pool_pick(g->r, &g->all)) != NULL &&
		    strcmp(to, path) != 0)
			return (xasprintf(ROOTMARK "%s", to));
		if (k < 44)
			return (xstrdup("nowhere"));
		if (k < 47)
			return (xstrdup(ROOTMARK "nowhere"));
		if (k < 51)
			return (xstrdup(base));		/* itself */
		if (k < 54)
			return (xstrdup("."));
		if (k < 58)
			return (xstrdup(".."));
		if (k < 62)
			return (rel_to(path, "dst"));
		if (k < 66)
			return (xstrdup(ROOTMARK "dst"));
		if (k < 74)
			return (rel_to(path, rng_chance(g->r, 50) ? "out/f" :
			    "out/d"));
		if (k < 80)
			return (xstrdup(rng_chance(g->r, 50) ?
			    ROOTMARK "out/g" : ROOTMARK "out/d"));
		if (k < 84 && (to = pool_pick(g->r, &g->fifos)) != NULL)
			return (rel_to(path, to));
		if (k >= 84 && (to = pool_pick(g->r, &g->links)) != NULL)
			return (rel_to(path, to));	/* chains, loops */
	}
}

/* The links reserved by gen_dir: symbolic mostly, hard now and then. */
static void
gen_links(struct gen *g)
{
	struct op *o;
	const char *to;
	size_t i, j;

	for (i = 0; i < g->t->n; i++) {
		o = &g->t->op[i];
		if (o->kind != OP_SYMLINK || strcmp(o->arg, "?") != 0)
			continue;
		free(o->arg);
		if (rng_chance(g->r, 20) && (to = rng_chance(g->r, 80) ?
		    pool_pick(g->r, &g->files) : "out/f") != NULL) {
			o->kind = OP_HARDLINK;
			o->arg = xstrdup(to);
			/* A hard link must come after what it links to. */
			for (j = 0; j < g->t->n; j++)
				if (strcmp(g->t->op[j].path, to) == 0 &&
				    j > i) {
					o->kind = OP_SYMLINK;
					free(o->arg);
					o->arg = rel_to(o->path, to);
					break;
				}
		} else
			o->arg = link_text(g, o->path);
	}
}

void
cp_gen(const struct ctx *c, struct rng *r, struct cpcase *cc)
{
	struct gen g;
	struct op *o;

	memset(&g, 0, sizeof(g));
	g.r = r;
	g.t = &cc->tree;
	cc->nobody = c->have_nobody && rng_chance(r, 25);
	cc->tree.nobody = cc->nobody;
	(void)tree_add(g.t, OP_DIR, "src", NULL);
	(void)tree_add(g.t, OP_DIR, "dst", NULL);
	(void)tree_add(g.t, OP_DIR, "out", NULL);
	o = tree_add(g.t, OP_FILE, "out/f", NULL);
	o->size = 3000;
	o->text = 1;
	o->data = 1;
	o = tree_add(g.t, OP_FILE, "out/g", NULL);
	o->size = 70000;
	o->data = 2;
	(void)tree_add(g.t, OP_DIR, "out/d", NULL);
	o = tree_add(g.t, OP_FILE, "out/d/h", NULL);
	o->size = 5000;
	o->data = 3;
	pool_add(&g.dirs, "src");
	gen_dir(&g, "src", 0);
	gen_links(&g);
	gen_args(c, &g, cc, &cc->args, &cc->nargs);
	/* Only root can look at what it makes unreadable. */
	if (geteuid() == 0)
		gen_modes(&g, cc);
	gen_run(&g, cc);
	gen_signals(&g, cc);
	gen_no_answer(&g, cc);
	pool_free(&g.files);
	pool_free(&g.dirs);
	pool_free(&g.fifos);
	pool_free(&g.links);
	pool_free(&g.all);
}

static void
arg_add(char ***args, size_t *n, char *s)
{

	*args = xrealloc(*args, (*n + 2) * sizeof(**args));
	(*args)[(*n)++] = s;
	(*args)[*n] = NULL;
}

/* cp's options, spelt as one word, as several, or long. */
static void
gen_opts(const struct ctx *c, struct rng *r, char ***args, size_t *n)
{
	static const char *const longs[][2] = {
		{ "R", "--recursive" }, { "a", "--archive" },
		{ "f", "--force" }, { "i", "--interactive" },
		{ "n", "--no-clobber" }, { "L", "--dereference" },
		{ "P", "--no-dereference" }, { "l", "--link" },
		{ "s", "--symbolic-link" }, { "v", "--verbose" },
		{ "x", "--one-file-system" },
	};
	char letters[32], *word;
	size_t i, j, k, nl;
	int one;

	nl = 0;
	if (rng_chance(r, 72)) {
		k = rng_below(r, 100);
		letters[nl++] = k < 80 ? 'R' : k < 95 ? 'a' : 'r';
		if (rng_chance(r, 3))
			letters[nl++] = 'r';	/* -R with -r: refused */
	}
	if (rng_chance(r, 35))
		letters[nl++] = "HLP"[rng_below(r, 3)];
	if (rng_chance(r, 40))
		letters[nl++] = "fin"[rng_below(r, 3)];
	if (rng_chance(r, 10))
		letters[nl++] = "fin"[rng_below(r, 3)];
	if (rng_chance(r, 6))
		letters[nl++] = 'l';
	if (rng_chance(r, 6))
		letters[nl++] = 's';
	if (rng_chance(r, 35))
		letters[nl++] = 'p';
	if (rng_chance(r, 85))
		letters[nl++] = 'v';
	if (rng_chance(r, 8))
		letters[nl++] = 'x';
	if ((c->longopts & LONG_N) && rng_chance(r, 10))
		letters[nl++] = 'N';
	letters[nl] = '\0';
	one = rng_chance(r, 50);
	word = NULL;
	for (i = 0; i < nl; i++) {
		if ((c->longopts & LONG_OPTS) && rng_chance(r, 20)) {
			for (j = 0; j < sizeof(longs) / sizeof(longs[0]); j++)
				if (longs[j][0][0] == letters[i]) {
					arg_add(args, n, xstrdup(longs[j][1]));
					word = NULL;
					break;
				}
			if (j < sizeof(longs) / sizeof(longs[0]))
				continue;
		}
		if (one && word != NULL) {
			char *w = xasprintf("%s%c", word, letters[i]);

			free(word);
			word = w;
			(*args)[*n - 1] = word;
			continue;
		}
		word = xasprintf("-%c", letters[i]);
		arg_add(args, n, word);
		if (!one)
			word = NULL;
	}
	if ((c->longopts & LONG_SORT) && rng_chance(r, 10))
		arg_add(args, n, xstrdup("--sort"));
}

static void
gen_args(const struct ctx *c, struct gen *g, struct cpcase *cc, char ***args,
    size_t *n)
{
	const struct op *o;
	const char *p;
	size_t first, i, nops;
	unsigned k;
	char *s;

	gen_opts(c, g->r, args, n);
	if (rng_chance(g->r, 15))
		arg_add(args, n, xstrdup("--"));
	k = (unsigned)rng_below(g->r, 100);
	nops = k < 65 ? 1 : k < 87 ? 2 : 3;
	first = *n;
	for (i = 0; i < nops; i++) {
		k = (unsigned)rng_below(g->r, 100);
		if (k < 15)
			s = xstrdup("src");
		else if (k < 23)
			s = xstrdup("src/");
		else if (k < 26)
			s = xstrdup("./src");
		else if (k < 29)
			s = xstrdup(ROOTMARK "src");
		else {
			p = pool_pick(g->r, &g->all);
			if (p == NULL)
				p = "src";
			o = tree_find(g->t, p);
			if (o != NULL && o->kind != OP_FILE &&
			    o->kind != OP_HARDLINK && rng_chance(g->r, 20))
				s = xasprintf("%s/", p);
			else
				s = xstrdup(p);
		}
		arg_add(args, n, s);
	}
	/* An option after an operand is an operand (issue 10 #7). */
	if (rng_chance(g->r, 4))
		arg_add(args, n, xstrdup(rng_chance(g->r, 50) ? "-p" : "-v"));
	if (nops > 1 || rng_chance(g->r, 55))
		arg_add(args, n, xstrdup(rng_chance(g->r, 80) ? "dst" :
		    "dst/"));
	else {
		k = (unsigned)rng_below(g->r, 100);
		if (k < 35)
			arg_add(args, n, xstrdup("dst/new"));
		else if (k < 45)
			arg_add(args, n, xstrdup("new"));
		else if (k < 50)
			arg_add(args, n, xstrdup("dst/new/"));
		else
			arg_add(args, n, xstrdup("dst/old"));
	}
	gen_target_state(g, cc, first);
}

/*
 * A pre-existing link where cp will write: to a file or directory
 * outside both trees, up and out of the target, or back into the source.
 */
static char *
trap_text(struct gen *g, const char *at, const char *src)
{

	switch (rng_below(g->r, 8)) {
	case 0:
		return (xstrdup(ROOTMARK "out/f"));
	case 1:
		return (rel_to(at, "out/g"));
	case 2:
		return (xstrdup(ROOTMARK "out/d"));
	case 3:
		return (xstrdup(".."));
	case 4:
		return (rel_to(at, "out"));
	case 5:
		return (xasprintf(ROOTMARK "%s", src));
	case 6:
		return (rel_to(at, src));
	default:
		return (xstrdup(ROOTMARK "out/new"));
	}
}

/* Put at dst what a partial target holds for the source op o. */
static void
replicate(struct gen *g, const struct op *o, const char *dst, int same,
    int conflict)
{
	const struct op *h;
	struct op *n;

	if (conflict) {
		if (o->kind == OP_DIR) {
			n = tree_add(g->t, OP_FILE, dst, NULL);
			n->size = 100;
			n->data = rng_next(g->r);
		} else
			(void)tree_add(g->t, OP_DIR, dst, NULL);
		return;
	}
	switch (o->kind) {
	case OP_DIR:
		(void)tree_add(g->t, OP_DIR, dst, NULL);
		break;
	case OP_FIFO:
		(void)tree_add(g->t, OP_FIFO, dst, NULL);
		break;
	case OP_SYMLINK:
		(void)tree_add(g->t, OP_SYMLINK, dst, same ? o->arg : "other");
		break;
	case OP_HARDLINK:
	case OP_FILE:
		h = o->kind == OP_HARDLINK ? tree_find(g->t, o->arg) : o;
		n = tree_add(g->t, OP_FILE, dst, NULL);
		if (h != NULL && h->kind == OP_FILE && same) {
			n->size = h->size;
			n->nseg = h->nseg;
			memcpy(n->seg, h->seg, sizeof(n->seg));
			n->data = h->data;
			n->text = h->text;
		} else {
			n->size = (off_t)rng_below(g->r, 9000);
			n->data = rng_next(g->r);
		}
		break;
	}
}

/*
 * What is at the target before cp runs: for each operand, where its
 * copy goes gets nothing, part of the copy, all of it, a farm of links
 * into the source, and here and there a link that leads out.
 */
static void
gen_target_state(struct gen *g, struct cpcase *cc, size_t first)
{
	const char *target, *op, *base;
	const struct op *o;
	char *dest, *dst, *p, *s;
	size_t i, j, len, nsrc;
	unsigned mode;
	int traps;

	target = cc->args[cc->nargs - 1];
	op = cc->args[first];
	if (strncmp(op, ROOTMARK, strlen(ROOTMARK)) == 0)
		op += strlen(ROOTMARK);
	if (strcmp(target, "dst/old") == 0) {
		switch (rng_below(g->r, 6)) {
		case 0: {
			struct op *n = tree_add(g->t, OP_FILE, "dst/old",
			    NULL);

			n->size = 5000;
			n->data = 7;
			break;
		}
		case 1:
			/* A link to the operand itself (issue 10 #1). */
			s = xasprintf(ROOTMARK "%s", op);
			(void)tree_add(g->t, OP_SYMLINK, "dst/old", s);
			free(s);
			break;
		case 2:
			s = rel_to("dst/old", op);
			(void)tree_add(g->t, OP_SYMLINK, "dst/old", s);
			free(s);
			break;
		case 3:
			(void)tree_add(g->t, OP_SYMLINK, "dst/old",
			    "../out/f");
			break;
		case 4:
			(void)tree_add(g->t, OP_SYMLINK, "dst/old", "ghost");
			break;
		default:
			(void)tree_add(g->t, OP_DIR, "dst/old", NULL);
			break;
		}
	}
	if (strncmp(target, "dst", 3) != 0 || (target[3] != '\0' &&
	    strcmp(target + 3, "/") != 0))
		return;
	mode = (unsigned)rng_below(g->r, 100);
	traps = rng_chance(g->r, 30);
	nsrc = g->t->n;
	for (i = first; i < cc->nargs - 1; i++) {
		op = cc->args[i];
		if (strncmp(op, ROOTMARK, strlen(ROOTMARK)) == 0)
			op += strlen(ROOTMARK);
		if (strncmp(op, "./", 2) == 0)
			op += 2;
		len = strlen(op);
		p = xstrdup(op);
		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		base = strrchr(op, '/') != NULL ? strrchr(op, '/') + 1 : op;
		if (*base == '\0')
			dest = xstrdup("dst");
		else
			dest = xasprintf("dst/%s", base);
		for (j = 0; j < nsrc; j++) {
			o = &g->t->op[j];
			if (strcmp(o->path, p) != 0 &&
			    (strncmp(o->path, p, len) != 0 ||
			    o->path[len] != '/'))
				continue;
			dst = xasprintf("%s%s", dest, o->path + len);
			if (strcmp(dst, "dst") == 0) {
				free(dst);
				continue;
			}
			if (traps && rng_chance(g->r, 15)) {
				s = trap_text(g, dst, o->path);
				(void)tree_add(g->t, OP_SYMLINK, dst, s);
				free(s);
			} else if (mode < 30)
				;	/* nothing there */
			else if (mode < 55) {
				if (rng_chance(g->r, 50))
					replicate(g, o, dst,
					    rng_chance(g->r, 50),
					    rng_chance(g->r, 8));
			} else if (mode < 70)
				replicate(g, o, dst, 1, 0);
			else if (o->kind == OP_DIR)
				(void)tree_add(g->t, OP_DIR, dst, NULL);
			else if (mode < 88) {
				s = xasprintf(ROOTMARK "%s", o->path);
				(void)tree_add(g->t, OP_SYMLINK, dst, s);
				free(s);
			} else {
				s = rel_to(dst, o->path);
				(void)tree_add(g->t, OP_SYMLINK, dst, s);
				free(s);
			}
			free(dst);
		}
		free(dest);
		free(p);
	}
}

/* Unreadable files and directories, read-only targets. */
static void
gen_modes(struct gen *g, struct cpcase *cc)
{
	static const mode_t fmodes[] = { 0, 0200, 0444, 0400, 0755 };
	static const mode_t dmodes[] = { 0, 0300, 0500, 0555, 0700 };
	struct op *o;
	size_t i;
	unsigned pct;

	pct = cc->nobody ? 7 : 2;
	for (i = 3; i < g->t->n; i++) {
		o = &g->t->op[i];
		if (strncmp(o->path, "out", 3) == 0 || !rng_chance(g->r, pct))
			continue;
		if (o->kind == OP_FILE)
			o->mode = fmodes[rng_below(g->r, 5)];
		else if (o->kind == OP_DIR)
			o->mode = dmodes[rng_below(g->r, 5)];
	}
}

static void
gen_run(struct gen *g, struct cpcase *cc)
{
	static const char *const answers[] = { "y\n", "n\n", "Y\n", "\n",
	    "yes\n", "no\n", "y" };
	static const char *const paths[] = { "rw", "mmap", "cfr", "splice",
	    "sendfile" };
	static const char *const sizes[] = { "4096", "8192", "65536",
	    "1048576" };
	char *a, *t;
	size_t i, n;
	int iflag, nenv;

	iflag = 0;
	for (i = 0; i < cc->nargs; i++)
		if ((cc->args[i][0] == '-' && cc->args[i][1] != '-' &&
		    strchr(cc->args[i], 'i') != NULL) ||
		    strcmp(cc->args[i], "--interactive") == 0)
			iflag = 1;
	cc->in = IO_NULL;
	if (iflag && rng_chance(g->r, 75)) {
		cc->in = IO_PIPE;
		a = xstrdup("");
		for (n = rng_below(g->r, 7); n > 0; n--) {
			t = xasprintf("%s%s", a, answers[rng_below(g->r, 7)]);
			free(a);
			a = t;
		}
		cc->answers = a;
	} else if (rng_chance(g->r, iflag ? 60 : 10))
		cc->in = IO_CLOSED;
	cc->err = rng_chance(g->r, 3) ? IO_CLOSED : IO_PIPE;
	if (rng_chance(g->r, 8))
		cc->fsize = 16384 + (off_t)rng_below(g->r, 1048576);
	nenv = 0;
	if (rng_chance(g->r, 30))
		cc->env[nenv++] = xasprintf("BUFSZ_PATH=%s",
		    paths[rng_below(g->r, 5)]);
	if (rng_chance(g->r, 8))
		cc->env[nenv++] = xasprintf("BUFSZ_SIZE=%s",
		    sizes[rng_below(g->r, 4)]);
	cc->env[nenv] = NULL;
}

void
cp_case_free(struct cpcase *cc)
{
	size_t i;

	tree_free(&cc->tree);
	for (i = 0; i < cc->nargs; i++)
		free(cc->args[i]);
	free(cc->args);
	free(cc->answers);
	for (i = 0; cc->env[i] != NULL; i++)
		free(cc->env[i]);
	memset(cc, 0, sizeof(*cc));
}

/*
 * Progress reports asked for (SIGUSR1) while a large file is copied (issue
 * 15): into a directory after more -v lines than stdout's buffer holds,
 * with stderr going where stdout goes, so that a report may land between
 * the two halves of a line cut by a flush; or onto a new file with stderr
 * (and stdin) closed, so that the target could be descriptor 2.  The
 * copies must stay whole, each line whole.  Slowed down to be caught in
 * the act.
 */
static void
gen_signals(struct gen *g, struct cpcase *cc)
{
	const char *target;
	struct op *o;
	char **args;
	size_t i, n;

	if (!rng_chance(g->r, 7))
		return;
	target = cc->args[cc->nargs - 1];
	o = tree_add(g->t, OP_FILE, "src/big", NULL);
	o->size = 4 * 1048576;
	o->data = rng_next(g->r);
	o->text = 1;
	for (i = 0; cc->env[i] != NULL; i++)
		free(cc->env[i]);
	cc->env[0] = xstrdup("BUFSZ_PATH=rw");
	cc->env[1] = xstrdup("BUFSZ_SIZE=4096");
	cc->env[2] = NULL;
	cc->signals = 200;
	cc->fsize = 0;
	if ((strcmp(target, "dst") != 0 && strcmp(target, "dst/") != 0) ||
	    rng_chance(g->r, 30)) {
		/* cp [options] src/big dst/bignew 2>&- [<&-] */
		args = NULL;
		n = 0;
		for (i = 0; i + 1 < cc->nargs && cc->args[i][0] == '-' &&
		    cc->args[i][1] != '\0'; i++) {
			args = xrealloc(args, (n + 4) * sizeof(*args));
			args[n++] = cc->args[i];
			cc->args[i] = NULL;
			if (strcmp(args[n - 1], "--") == 0)
				break;
		}
		for (i = 0; i < cc->nargs; i++)
			free(cc->args[i]);
		free(cc->args);
		args = xrealloc(args, (n + 3) * sizeof(*args));
		args[n++] = xstrdup("src/big");
		args[n++] = xstrdup("dst/bignew");
		args[n] = NULL;
		cc->args = args;
		cc->nargs = n;
		cc->err = IO_CLOSED;
		if (rng_chance(g->r, 50))
			cc->in = IO_CLOSED;
		return;
	}
	/* src/big goes just before the target, after every option. */
	cc->args = xrealloc(cc->args, (cc->nargs + 2) * sizeof(*cc->args));
	cc->args[cc->nargs + 1] = NULL;
	cc->args[cc->nargs] = cc->args[cc->nargs - 1];
	cc->args[cc->nargs - 1] = xstrdup("src/big");
	cc->nargs++;
	/*
	 * Before it, more -v lines than stdout's buffer holds, so that one
	 * is cut in two by a flush when the copy of src/big starts.
	 */
	for (i = 0; i < cc->nargs && cc->args[i][0] == '-'; i++)
		if (strcmp(cc->args[i], "--") != 0 &&
		    strcspn(cc->args[i], "Rar") < strlen(cc->args[i]))
			break;
	if (i < cc->nargs && cc->args[i][0] == '-') {
		char name[32];
		int j;

		(void)tree_add(g->t, OP_DIR, "src/many", NULL);
		for (j = 0; j < 200; j++) {
			(void)snprintf(name, sizeof(name), "src/many/f%03d",
			    j);
			(void)tree_add(g->t, OP_FILE, name, NULL);
		}
		cc->args = xrealloc(cc->args, (cc->nargs + 2) *
		    sizeof(*cc->args));
		cc->args[cc->nargs + 1] = NULL;
		cc->args[cc->nargs] = cc->args[cc->nargs - 1];
		cc->args[cc->nargs - 1] = cc->args[cc->nargs - 2];
		cc->args[cc->nargs - 2] = xstrdup("src/many");
		cc->nargs++;
	}
	cc->err = rng_chance(g->r, 30) ? IO_CLOSED : IO_MERGE;
}

/*
 * cp -i onto an existing file with stdin closed, from a source whose
 * first line is "y" (issue 15): an answer that cannot be read is a no,
 * never a line of the source opened as descriptor 0.
 */
static void
gen_no_answer(struct gen *g, struct cpcase *cc)
{
	struct op *o;
	size_t i;

	if (!rng_chance(g->r, 3) || cc->signals > 0)
		return;
	o = tree_add(g->t, OP_FILE, "src/yes", NULL);
	o->size = 5000 + (off_t)rng_below(g->r, 100000);
	o->text = 1;
	o->data = rng_next(g->r) & ~(uint64_t)3;
	o = tree_add(g->t, OP_FILE, "dst/kept", NULL);
	o->size = 3000;
	o->data = 5;
	for (i = 0; i < cc->nargs; i++)
		free(cc->args[i]);
	free(cc->args);
	cc->args = xmalloc(5 * sizeof(*cc->args));
	cc->nargs = 0;
	cc->args[cc->nargs++] = xstrdup(rng_chance(g->r, 50) ? "-i" : "-iv");
	cc->args[cc->nargs++] = xstrdup("src/yes");
	cc->args[cc->nargs++] = xstrdup("dst/kept");
	cc->args[cc->nargs] = NULL;
	free(cc->answers);
	cc->answers = NULL;
	cc->in = IO_CLOSED;
	cc->err = IO_PIPE;
	cc->fsize = 0;
}
