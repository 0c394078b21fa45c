/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Generating a cp case from (seed, number): a source tree of files of
 * every size and layout, hard and symbolic links of every kind, FIFOs;
 * files outside both source and target for links to lead to; cp's
 * options and operands; a target that is empty, partly there, a copy,
 * a farm of links into the source, or laid with links that lead out;
 * and how cp runs (as nobody with unreadable entries, stdin or stderr
 * closed, a file size limit, a forced engine path).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

#define	NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Paths by kind, to pick link targets and operands from. */
struct pool {
	char		**p;
	size_t		 n;
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

static const char *const names[] = {
	"a", "b", "c", "d", "e", "f", "g", "h", "k", "m", "sub", "data",
	"x y", "-dash", ".dot", "caf\xc3\xa9", "tab\tname", "new"
};

static void
pool_add(struct pool *p, const char *s)
{

	p->p = xrealloc(p->p, (p->n + 1) * sizeof(*p->p));
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

static void
arg_add(struct cpcase *cc, char *s)
{

	cc->args = xrealloc(cc->args, (cc->nargs + 2) * sizeof(*cc->args));
	cc->args[cc->nargs++] = s;
	cc->args[cc->nargs] = NULL;
}

/* A name not yet used in dir. */
static char *
new_name(struct gen *g, const char *dir)
{
	char *path;
	int tries;

	for (tries = 0;; tries++) {
		if (tries < 20)
			path = xasprintf("%s/%s", dir,
			    names[rng_below(g->r, NELEM(names))]);
		else
			path = xasprintf("%s/n%d", dir, tries);
		if (tree_find(g->t, path) == NULL)
			return (path);
		free(path);
	}
}

/*
 * A regular file: empty, a byte, around a page, around the usual buffer
 * sizes, a few hundred KiB, a few MiB, or sparse.
 */
static void
gen_file(struct gen *g, const char *path)
{
	static const off_t edges[] = { 4095, 4096, 4097, 8191, 8193, 65535,
	    65536, 65537, 131071, 131072, 131073, 1048575, 1048577 };
	static const off_t sparse[] = { 1048576, 4194304 + 123, 16777216 };
	struct op *o;
	unsigned k;

	o = tree_add(g->t, OP_FILE, path, NULL);
	o->data = rng_next(g->r);
	k = (unsigned)rng_below(g->r, 100);
	if (k < 12)
		o->size = k < 8 ? 0 : 1;
	else if (k < 28)
		o->size = 2 + (off_t)rng_below(g->r, 4000);
	else if (k < 48)
		o->size = edges[rng_below(g->r, NELEM(edges))];
	else if (k < 68)
		o->size = (off_t)rng_below(g->r, 300000);
	else if (k < 72)
		o->size = 1048576 + (off_t)rng_below(g->r, 2097152);
	o->dlen = o->size;
	if (k < 72)
		return;
	/* Sparse: data anywhere, or none, with holes at either end. */
	o->size = sparse[rng_below(g->r, NELEM(sparse))];
	o->doff = (off_t)rng_below(g->r, (uint64_t)o->size);
	if (rng_chance(g->r, 50))
		o->doff -= o->doff % 4096;
	o->dlen = (off_t)rng_below(g->r, (uint64_t)(o->size - o->doff));
	if (o->dlen > 300000 && rng_chance(g->r, 70))
		o->dlen = 300000;
}

static void
gen_dir(struct gen *g, const char *dir, int depth)
{
	char *path;
	unsigned k;
	int i, n;

	n = (int)rng_below(g->r, 5) + (depth == 0 ? 2 : 0);
	for (i = 0; i < n; i++) {
		path = new_name(g, dir);
		pool_add(&g->all, path);
		k = (unsigned)rng_below(g->r, 100);
		if (k < 48)
			gen_file(g, path);
		else if (k < 66 && depth < 3) {
			(void)tree_add(g->t, OP_DIR, path, NULL);
			pool_add(&g->dirs, path);
			gen_dir(g, path, depth + 1);
		} else if (k < 70) {
			(void)tree_add(g->t, OP_FIFO, path, NULL);
			pool_add(&g->fifos, path);
		} else {
			/* A name reserved now, so that no file takes it. */
			(void)tree_add(g->t, OP_SYMLINK, path, "?");
			pool_add(&g->links, path);
		}
		free(path);
	}
}

/* The text of a relative link at from (a path) that leads to to. */
static char *
rel_to(const char *from, const char *to)
{
	const char *p;
	char *s, *t;

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
	static const char *const fixed[] = { "nowhere", ROOTMARK "nowhere",
	    ".", "..", ROOTMARK "dst", ROOTMARK "out/g", ROOTMARK "out/d" };
	const char *to;

	for (;;) {
		switch (rng_below(g->r, 10)) {
		case 0:
		case 1:
			if ((to = pool_pick(g->r, &g->files)) != NULL)
				return (rel_to(path, to));
			break;
		case 2:
			if ((to = pool_pick(g->r, &g->dirs)) != NULL)
				return (rel_to(path, to));
			break;
		case 3:
			if ((to = pool_pick(g->r, &g->all)) != NULL &&
			    strcmp(to, path) != 0)
				return (xasprintf(ROOTMARK "%s", to));
			break;
		case 4:
			return (xstrdup(strrchr(path, '/') + 1)); /* itself */
		case 5:
			return (rel_to(path, rng_chance(g->r, 30) ? "dst" :
			    rng_chance(g->r, 50) ? "out/f" : "out/d"));
		case 6:
			if ((to = pool_pick(g->r, &g->fifos)) != NULL)
				return (rel_to(path, to));
			break;
		case 7:
		case 8:
			return (xstrdup(fixed[rng_below(g->r, NELEM(fixed))]));
		default:
			/* Chains and loops. */
			if ((to = pool_pick(g->r, &g->links)) != NULL)
				return (rel_to(path, to));
			break;
		}
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
		to = rng_chance(g->r, 80) ? pool_pick(g->r, &g->files) :
		    "out/f";
		/* A hard link must come after what it links to. */
		for (j = i + 1; to != NULL && j < g->t->n; j++)
			if (strcmp(g->t->op[j].path, to) == 0)
				to = NULL;
		if (to != NULL && rng_chance(g->r, 20)) {
			o->kind = OP_HARDLINK;
			o->arg = xstrdup(to);
		} else
			o->arg = link_text(g, o->path);
	}
}

/* cp's options, spelt as one word, as several, or long. */
static void
gen_opts(struct rng *r, struct cpcase *cc)
{
	static const struct {
		unsigned	 pct;
		const char	*from;
	} sets[] = { { 72, "RRRRRRRRRRRRRRRRaaar" }, { 3, "r" }, { 35, "HLP" },
	    { 40, "fin" }, { 10, "fin" }, { 6, "l" }, { 6, "s" }, { 35, "p" },
	    { 85, "v" }, { 8, "x" }, { 10, "N" } };
	static const char *const longs[] = { "R--recursive", "a--archive",
	    "f--force", "i--interactive", "n--no-clobber", "L--dereference",
	    "P--no-dereference", "l--link", "s--symbolic-link",
	    "v--verbose", "x--one-file-system" };
	char c, *word, *w;
	size_t i, j;
	int one;

	one = rng_chance(r, 50);
	word = NULL;
	for (i = 0; i < NELEM(sets); i++) {
		if (!rng_chance(r, sets[i].pct))
			continue;
		c = sets[i].from[rng_below(r, strlen(sets[i].from))];
		for (j = 0; j < NELEM(longs) && longs[j][0] != c; j++)
			;
		if (j < NELEM(longs) && rng_chance(r, 20)) {
			arg_add(cc, xstrdup(longs[j] + 1));
			word = NULL;
		} else if (one && word != NULL) {
			w = xasprintf("%s%c", word, c);
			free(word);
			cc->args[cc->nargs - 1] = word = w;
		} else {
			arg_add(cc, word = xasprintf("-%c", c));
			if (!one)
				word = NULL;
		}
	}
	if (rng_chance(r, 10))
		arg_add(cc, xstrdup("--sort"));
}

/* One to three operands from src, an option after them now and then. */
static void
gen_args(struct gen *g, struct cpcase *cc)
{
	static const char *const targets[] = { "dst/new", "dst/new",
	    "dst/new", "new", "dst/new/", "dst/old", "dst/old", "dst/old" };
	const struct op *o;
	const char *p;
	size_t i, nops;
	unsigned k;

	gen_opts(g->r, cc);
	if (rng_chance(g->r, 15))
		arg_add(cc, xstrdup("--"));
	k = (unsigned)rng_below(g->r, 100);
	nops = k < 65 ? 1 : k < 87 ? 2 : 3;
	for (i = 0; i < nops; i++) {
		k = (unsigned)rng_below(g->r, 100);
		if (k < 29 || (p = pool_pick(g->r, &g->all)) == NULL)
			arg_add(cc, xstrdup(k < 15 ? "src" : k < 23 ? "src/" :
			    k < 26 ? "./src" : ROOTMARK "src"));
		else if ((o = tree_find(g->t, p)) != NULL &&
		    o->kind != OP_FILE && o->kind != OP_HARDLINK &&
		    rng_chance(g->r, 20))
			arg_add(cc, xasprintf("%s/", p));
		else
			arg_add(cc, xstrdup(p));
	}
	/* An option after an operand is an operand. */
	if (rng_chance(g->r, 4))
		arg_add(cc, xstrdup(rng_chance(g->r, 50) ? "-p" : "-v"));
	if (nops > 1 || rng_chance(g->r, 55))
		arg_add(cc, xstrdup(rng_chance(g->r, 80) ? "dst" : "dst/"));
	else
		arg_add(cc, xstrdup(targets[rng_below(g->r, NELEM(targets))]));
}

/*
 * A link where cp will write: to a file or directory outside both trees,
 * up and out of the target, back into the source, or to nothing.
 */
static char *
trap_text(struct gen *g, const char *at, const char *src)
{

	switch (rng_below(g->r, 9)) {
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
	case 7:
		return (xstrdup("ghost"));
	default:
		return (xstrdup(ROOTMARK "out/new"));
	}
}

/* dst/old: a file, a directory, or a link that leads anywhere. */
static void
gen_old(struct gen *g, const char *op)
{
	struct op *n;
	char *s;

	if (rng_chance(g->r, 50)) {
		s = trap_text(g, "dst/old", op);
		(void)tree_add(g->t, OP_SYMLINK, "dst/old", s);
		free(s);
	} else if (rng_chance(g->r, 50))
		(void)tree_add(g->t, OP_DIR, "dst/old", NULL);
	else {
		n = tree_add(g->t, OP_FILE, "dst/old", NULL);
		n->size = n->dlen = 5000;
		n->data = 7;
	}
}

/*
 * Put at dst what a partial target holds for the source op o: the same,
 * something else of the same type, or (conflict) another type.
 */
static void
replicate(struct gen *g, const struct op *o, const char *dst, int same,
    int conflict)
{
	struct op h, *n;

	if (conflict || o->kind == OP_DIR) {
		if (conflict && o->kind == OP_DIR) {
			n = tree_add(g->t, OP_FILE, dst, NULL);
			n->size = n->dlen = 100;
			n->data = rng_next(g->r);
		} else
			(void)tree_add(g->t, OP_DIR, dst, NULL);
	} else if (o->kind == OP_FIFO)
		(void)tree_add(g->t, OP_FIFO, dst, NULL);
	else if (o->kind == OP_SYMLINK)
		(void)tree_add(g->t, OP_SYMLINK, dst, same ? o->arg : "other");
	else {
		/* Copied first: adding to the tree may move its entries. */
		h = o->kind == OP_HARDLINK && tree_find(g->t, o->arg) != NULL ?
		    *tree_find(g->t, o->arg) : *o;
		n = tree_add(g->t, OP_FILE, dst, NULL);
		if (h.kind == OP_FILE && same) {
			h.path = n->path;
			h.arg = NULL;
			*n = h;
		} else {
			n->size = n->dlen = (off_t)rng_below(g->r, 9000);
			n->data = rng_next(g->r);
		}
	}
}

/* Where the copy of the entry at path goes, for an operand op. */
static char *
dest_of(const char *op, const char *path)
{
	const char *base;
	size_t len;

	len = strlen(op);
	while (len > 1 && op[len - 1] == '/')
		len--;
	for (base = op + len; base > op && base[-1] != '/'; base--)
		;
	if (op[strlen(op) - 1] == '/')
		return (xasprintf("dst%s", path + len));
	return (xasprintf("dst/%.*s%s", (int)(op + len - base), base,
	    path + len));
}

/*
 * What is at the target before cp runs: for each operand, where its copy
 * goes gets nothing, part of the copy, all of it, a farm of links into
 * the source, and here and there a link that leads out.
 */
static void
gen_target_state(struct gen *g, struct cpcase *cc, size_t first)
{
	const struct op *o;
	const char *op, *target;
	char *dst, *s;
	size_t i, j, len, nsrc;
	unsigned mode;
	int traps;

	target = cc->args[cc->nargs - 1];
	op = cc->args[first];
	if (strncmp(op, ROOTMARK, strlen(ROOTMARK)) == 0)
		op += strlen(ROOTMARK);
	if (strcmp(target, "dst/old") == 0)
		gen_old(g, op);
	if (strcmp(target, "dst") != 0 && strcmp(target, "dst/") != 0)
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
		for (len = strlen(op); len > 1 && op[len - 1] == '/';)
			len--;
		for (j = 0; j < nsrc; j++) {
			o = &g->t->op[j];
			if (strncmp(o->path, op, len) != 0 ||
			    (o->path[len] != '\0' && o->path[len] != '/'))
				continue;
			dst = dest_of(op, o->path);
			s = NULL;
			if (strcmp(dst, "dst") == 0)
				;
			else if (traps && rng_chance(g->r, 15))
				s = trap_text(g, dst, o->path);
			else if (mode < 30)
				;	/* nothing there */
			else if (mode < 55) {
				if (rng_chance(g->r, 50))
					replicate(g, o, dst, rng_chance(g->r,
					    50), rng_chance(g->r, 8));
			} else if (mode < 70 || o->kind == OP_DIR)
				replicate(g, o, dst, 1, 0);
			else
				s = mode < 88 ? xasprintf(ROOTMARK "%s",
				    o->path) : rel_to(dst, o->path);
			if (s != NULL)
				(void)tree_add(g->t, OP_SYMLINK, dst, s);
			free(s);
			free(dst);
		}
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

	for (i = 3; i < g->t->n; i++) {
		o = &g->t->op[i];
		if (strncmp(o->path, "out", 3) == 0 ||
		    !rng_chance(g->r, cc->nobody ? 7 : 2))
			continue;
		if (o->kind == OP_FILE)
			o->mode = fmodes[rng_below(g->r, NELEM(fmodes))];
		else if (o->kind == OP_DIR)
			o->mode = dmodes[rng_below(g->r, NELEM(dmodes))];
	}
}

/* stdin, stderr, the file size limit and the engine's forced choices. */
static void
gen_run(struct gen *g, struct cpcase *cc)
{
	static const char *const paths[] = { "rw", "cfr", "splice",
	    "sendfile" };
	static const char *const sizes[] = { "4096", "8192", "65536",
	    "1048576" };
	size_t i;
	int iflag, nenv;

	for (i = 0, iflag = 0; i < cc->nargs; i++)
		iflag |= (cc->args[i][0] == '-' && cc->args[i][1] != '-' &&
		    strchr(cc->args[i], 'i') != NULL) ||
		    strcmp(cc->args[i], "--interactive") == 0;
	cc->in = rng_chance(g->r, iflag ? 60 : 10) ? IO_CLOSED : IO_NULL;
	cc->err = rng_chance(g->r, 3) ? IO_CLOSED : IO_FILE;
	if (rng_chance(g->r, 8))
		cc->fsize = 16384 + (off_t)rng_below(g->r, 1048576);
	nenv = 0;
	if (rng_chance(g->r, 30))
		cc->env[nenv++] = xasprintf("FAULTINJ_PATH=%s",
		    paths[rng_below(g->r, NELEM(paths))]);
	if (rng_chance(g->r, 8))
		cc->env[nenv++] = xasprintf("FAULTINJ_BUFSIZE=%s",
		    sizes[rng_below(g->r, NELEM(sizes))]);
	cc->env[nenv] = NULL;
}

void
cp_gen(const struct ctx *c, struct rng *r, struct cpcase *cc)
{
	static const struct { const char *path; off_t size; } outside[] = {
		{ "out/f", 3000 }, { "out/g", 70000 }, { "out/d", -1 },
		{ "out/d/h", 5000 } };
	struct gen g;
	struct op *o;
	size_t first, i;

	memset(&g, 0, sizeof(g));
	g.r = r;
	g.t = &cc->tree;
	cc->nobody = cc->tree.nobody = c->have_nobody && rng_chance(r, 25);
	(void)tree_add(g.t, OP_DIR, "src", NULL);
	(void)tree_add(g.t, OP_DIR, "dst", NULL);
	for (i = 0; i < NELEM(outside); i++) {
		o = tree_add(g.t, outside[i].size < 0 ? OP_DIR : OP_FILE,
		    outside[i].path, NULL);
		o->size = o->dlen = outside[i].size < 0 ? 0 : outside[i].size;
		o->data = i;
	}
	pool_add(&g.dirs, "src");
	gen_dir(&g, "src", 0);
	gen_links(&g);
	gen_args(&g, cc);
	for (first = 0; first < cc->nargs && cc->args[first][0] == '-' &&
	    cc->args[first][1] != '\0'; first++)
		if (strcmp(cc->args[first], "--") == 0) {
			first++;
			break;
		}
	gen_target_state(&g, cc, first);
	/* Only root can look at what it makes unreadable. */
	if (geteuid() == 0)
		gen_modes(&g, cc);
	gen_run(&g, cc);
	pool_free(&g.files);
	pool_free(&g.dirs);
	pool_free(&g.fifos);
	pool_free(&g.links);
	pool_free(&g.all);
}

void
cp_case_free(struct cpcase *cc)
{
	size_t i;

	tree_free(&cc->tree);
	for (i = 0; i < cc->nargs; i++)
		free(cc->args[i]);
	free(cc->args);
	for (i = 0; cc->env[i] != NULL; i++)
		free(cc->env[i]);
	memset(cc, 0, sizeof(*cc));
}
