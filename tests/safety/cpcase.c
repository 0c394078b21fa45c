/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * One cp case: make its tree in a fresh scratch area, take a snapshot,
 * work out the model, run cp, take another snapshot, judge.  A case that
 * fails can be minimized: entries, options, operands and conditions are
 * left out one at a time while the same invariant still breaks, and what
 * is left is printed as shell commands.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpcase.h"

#define	MINRUNS	400	/* the most runs a minimization may take */

static void	check(const struct ctx *, struct cpcase *, struct findings *,
		    int);
static void	print_case(const struct cpcase *, FILE *);
static void	minimize(const struct ctx *, struct cpcase *,
		    const struct finding *, FILE *);

/*
 * Whether an operand of a run without -R is a FIFO: cp would open it and
 * wait for a writer, as it should.  Such a case is not run.
 */
static int
fifo_operand(const struct cpcase *cc, const struct cpopts *o,
    const char *root)
{
	struct stat st;
	size_t i;
	char *a, *s;
	int fifo;

	if (o->R || o->usage)
		return (0);
	for (i = o->first, fifo = 0; i + 1 < cc->nargs && !fifo; i++) {
		a = cp_arg(root, cc->args[i]);
		s = *a == '/' ? xstrdup(a) : path_join(root, a);
		fifo = stat(s, &st) == 0 && S_ISFIFO(st.st_mode);
		free(a);
		free(s);
	}
	return (fifo);
}

static void
check(const struct ctx *c, struct cpcase *cc, struct findings *fs, int keep)
{
	struct cpopts o;
	struct model m;
	struct snap pre, post;
	struct run r;
	char **argv, *root, *kept;
	size_t i;
	int cwd;

	root = xasprintf("%s/cp.%ju.%ju", c->work, (uintmax_t)cc->seed,
	    (uintmax_t)cc->num);
	rm_tree(root);
	make_dir(root, 0755);
	tree_apply(&cc->tree, root);
	cp_parse(cc, &o);
	if (fifo_operand(cc, &o, root)) {
		rm_tree(root);
		free(root);
		return;
	}
	snap_take(&pre, root);
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    chdir(root) == -1)
		err(3, "%s", root);
	cp_model(cc, &o, root, &m);
	if (fchdir(cwd) == -1)
		err(3, "fchdir");
	(void)close(cwd);
	if (m.wouldblock) {
		/* cp would open a FIFO and wait, as it should: not a case. */
		cp_model_free(&m);
		snap_free(&pre);
		rm_tree(root);
		free(root);
		return;
	}

	argv = xmalloc((cc->nargs + 2) * sizeof(*argv));
	argv[0] = xstrdup(c->cp);
	for (i = 0; i < cc->nargs; i++)
		argv[i + 1] = cp_arg(root, cc->args[i]);
	argv[cc->nargs + 1] = NULL;
	memset(&r, 0, sizeof(r));
	r.argv = argv;
	r.cwd = root;
	r.env = cc->env;
	r.nobody = cc->nobody;
	r.in = cc->in;
	r.input = cc->answers;
	r.inputlen = cc->answers != NULL ? strlen(cc->answers) : 0;
	r.out = IO_PIPE;
	r.err = cc->err;
	r.fsize = cc->fsize;
	r.timeout = 60;
	r.signals = cc->signals;
	run(&r);
	snap_take(&post, root);
	cp_judge(cc, &o, &m, &pre, &post, &r, root, fs);

	run_free(&r);
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
	cp_model_free(&m);
	snap_free(&pre);
	snap_free(&post);
	if (keep && fs->n > 0) {
		kept = xasprintf("%s.fail", root);
		rm_tree(kept);
		if (rename(root, kept) == -1)
			warn("rename %s", root);
		free(kept);
	} else
		rm_tree(root);
	free(root);
}

/* -i's answers for printf: letters and newlines only. */
static char *
escape_nl(const char *a)
{
	char *out, *o;

	out = o = xmalloc(strlen(a) * 2 + 1);
	for (; *a != '\0'; a++) {
		if (*a == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else
			*o++ = *a;
	}
	*o = '\0';
	return (out);
}

/* The command as a shell line, run in the scratch area ($S). */
static char *
cmdline(const struct cpcase *cc)
{
	char *s, *q, *t;
	size_t i;

	s = xstrdup("");
	for (i = 0; cc->env[i] != NULL; i++) {
		t = xasprintf("%s%s ", s, cc->env[i]);
		free(s);
		s = t;
	}
	t = xasprintf("%scp", s);
	free(s);
	s = t;
	for (i = 0; i < cc->nargs; i++) {
		if (strncmp(cc->args[i], ROOTMARK, strlen(ROOTMARK)) == 0) {
			q = shell_quote(cc->args[i] + strlen(ROOTMARK));
			t = xasprintf("%s \"$S\"/%s", s, q);
		} else {
			q = shell_quote(cc->args[i]);
			t = xasprintf("%s %s", s, q);
		}
		free(q);
		free(s);
		s = t;
	}
	if (cc->in == IO_PIPE) {
		q = escape_nl(cc->answers);
		t = xasprintf("printf '%s' | %s", q, s);
		free(q);
		free(s);
		s = t;
	} else if (cc->in == IO_CLOSED) {
		t = xasprintf("%s <&-", s);
		free(s);
		s = t;
	}
	if (cc->err == IO_CLOSED || cc->err == IO_MERGE) {
		t = xasprintf("%s %s", s, cc->err == IO_CLOSED ? "2>&-" :
		    "2>&1");
		free(s);
		s = t;
	}
	if (cc->signals > 0) {
		t = xasprintf("%s    # with SIGUSR1 sent %d times during the "
		    "copy", s, cc->signals);
		free(s);
		s = t;
	}
	if (cc->fsize > 0) {
		t = xasprintf("%s    # with a file size limit of %jd bytes, "
		    "SIGXFSZ ignored", s, (intmax_t)cc->fsize);
		free(s);
		s = t;
	}
	if (cc->nobody) {
		t = xasprintf("%s    # as nobody", s);
		free(s);
		s = t;
	}
	return (s);
}

static void
print_case(const struct cpcase *cc, FILE *fp)
{
	char *cmd;

	(void)fprintf(fp, "  # in an empty directory:\n");
	tree_print(&cc->tree, fp);
	cmd = cmdline(cc);
	(void)fprintf(fp, "%s\n", cmd);
	free(cmd);
}

int
cp_case(const struct ctx *c, uint64_t seed, uint64_t num,
    struct findings *fs, FILE *log)
{
	struct cpcase cc;
	struct rng r;
	size_t i;
	char *cmd;

	memset(&cc, 0, sizeof(cc));
	cc.seed = seed;
	cc.num = num;
	rng_init(&r, seed, num);
	cp_gen(c, &r, &cc);
	check(c, &cc, fs, c->keep);
	if (c->verbose || fs->n > 0) {
		cmd = cmdline(&cc);
		(void)fprintf(log, "%s cp seed %ju case %ju: %s\n",
		    fs->n > 0 ? "FAIL" : "ok", (uintmax_t)seed,
		    (uintmax_t)num, cmd);
		free(cmd);
	}
	for (i = 0; i < fs->n; i++)
		(void)fprintf(log, "  %s%s%s%s: %s\n", fs->f[i].kind,
		    fs->f[i].known != NULL ? " (known: " : "",
		    fs->f[i].known != NULL ? fs->f[i].known : "",
		    fs->f[i].known != NULL ? ")" : "", fs->f[i].what);
	/*
	 * What is not a known item is worth the runs of a minimization; with
	 * -mm, the known ones too.
	 */
	for (i = 0; i < fs->n && fs->f[i].known != NULL &&
	    c->minimize < 2; i++)
		;
	if (i < fs->n && c->minimize)
		minimize(c, &cc, &fs->f[i], log);
	else if (fs->n > 0 && c->verbose)
		print_case(&cc, log);
	cp_case_free(&cc);
	return (fs->n > 0);
}

/* Whether the case still breaks the invariant of f, the same way. */
static int
still(const struct ctx *c, struct cpcase *cc, const struct finding *f,
    int *runs)
{
	struct findings fs;
	size_t i;
	int found;

	memset(&fs, 0, sizeof(fs));
	(*runs)++;
	check(c, cc, &fs, 0);
	found = 0;
	for (i = 0; i < fs.n; i++)
		if (strcmp(fs.f[i].kind, f->kind) == 0 &&
		    (fs.f[i].known == NULL) == (f->known == NULL) &&
		    (f->known == NULL || strcmp(fs.f[i].known, f->known) == 0))
			found = 1;
	findings_free(&fs);
	return (found);
}

static int
is_option(const struct cpcase *cc, size_t i)
{
	struct cpopts o;

	cp_parse(cc, &o);
	return (i < o.first && strcmp(cc->args[i], "--") != 0);
}

static void
drop_arg(struct cpcase *cc, size_t i, char **saved)
{

	*saved = cc->args[i];
	memmove(&cc->args[i], &cc->args[i + 1], (cc->nargs - i) *
	    sizeof(*cc->args));
	cc->nargs--;
}

static void
put_arg(struct cpcase *cc, size_t i, char *saved)
{

	memmove(&cc->args[i + 1], &cc->args[i], (cc->nargs - i + 1) *
	    sizeof(*cc->args));
	cc->args[i] = saved;
	cc->nargs++;
}

/* Leave out whatever the failure does not need. */
static int
shrink_args(const struct ctx *c, struct cpcase *cc, const struct finding *kind,
    int *runs)
{
	struct cpopts o;
	char *saved, *w;
	size_t i, j, len;
	int progress;

	progress = 0;
	for (i = cc->nargs; i-- > 0 && *runs < MINRUNS;) {
		cp_parse(cc, &o);
		/* The target and the last operand stay. */
		if (i + 1 >= cc->nargs || (i >= o.first &&
		    cc->nargs - o.first <= 2))
			continue;
		drop_arg(cc, i, &saved);
		if (still(c, cc, kind, runs)) {
			free(saved);
			progress = 1;
			continue;
		}
		put_arg(cc, i, saved);
		if (!is_option(cc, i) || cc->args[i][1] == '-')
			continue;
		for (j = 1; (len = strlen(cc->args[i])) > 2 && j < len &&
		    *runs < MINRUNS;) {
			w = xstrdup(cc->args[i]);
			memmove(w + j, w + j + 1, len - j);
			saved = cc->args[i];
			cc->args[i] = w;
			if (still(c, cc, kind, runs)) {
				free(saved);
				progress = 1;
			} else {
				cc->args[i] = saved;
				free(w);
				j++;
			}
		}
	}
	return (progress);
}

static int
shrink_tree(const struct ctx *c, struct cpcase *cc, const struct finding *kind,
    int *runs)
{
	struct op *o;
	mode_t mode;
	size_t i;
	int progress;

	progress = 0;
	for (i = cc->tree.n; i-- > 2 && *runs < MINRUNS;) {
		o = &cc->tree.op[i];
		if (o->off)
			continue;
		o->off = 1;
		if (still(c, cc, kind, runs)) {
			progress = 1;
			continue;
		}
		o->off = 0;
		if (o->mode != 0) {
			mode = o->mode;
			o->mode = 0;
			if (still(c, cc, kind, runs))
				progress = 1;
			else
				o->mode = mode;
		}
		if (o->kind == OP_FILE && (o->size > 1 || o->nseg > 0)) {
			struct op keep = *o;

			o->nseg = 0;
			o->size = o->size > 4096 ? 4096 : 1;
			if (still(c, cc, kind, runs))
				progress = 1;
			else
				*o = keep;
		}
	}
	return (progress);
}

static int
shrink_conditions(const struct ctx *c, struct cpcase *cc, const struct finding *kind,
    int *runs)
{
	char *e;
	int progress;

	progress = 0;
	if (cc->nobody) {
		cc->nobody = cc->tree.nobody = 0;
		if (still(c, cc, kind, runs))
			progress = 1;
		else
			cc->nobody = cc->tree.nobody = 1;
	}
	if (cc->fsize != 0) {
		off_t f = cc->fsize;

		cc->fsize = 0;
		if (still(c, cc, kind, runs))
			progress = 1;
		else
			cc->fsize = f;
	}
	if (cc->in == IO_CLOSED) {
		cc->in = IO_NULL;
		if (still(c, cc, kind, runs))
			progress = 1;
		else
			cc->in = IO_CLOSED;
	}
	if (cc->signals > 0) {
		int n = cc->signals;

		cc->signals = 0;
		if (still(c, cc, kind, runs))
			progress = 1;
		else
			cc->signals = n;
	}
	if (cc->err == IO_CLOSED && cc->signals == 0) {
		cc->err = IO_PIPE;
		if (still(c, cc, kind, runs))
			progress = 1;
		else
			cc->err = IO_CLOSED;
	}
	while (cc->env[0] != NULL) {
		e = cc->env[0];
		cc->env[0] = cc->env[1];
		cc->env[1] = NULL;
		if (!still(c, cc, kind, runs)) {
			cc->env[1] = cc->env[0];
			cc->env[0] = e;
			break;
		}
		free(e);
		progress = 1;
	}
	return (progress);
}

/* Entries whose directory went are gone too: say so. */
static void
prune(struct tree *t)
{
	size_t i, j, len;

	for (i = 0; i < t->n; i++) {
		if (!t->op[i].off || t->op[i].kind != OP_DIR)
			continue;
		len = strlen(t->op[i].path);
		for (j = i + 1; j < t->n; j++)
			if (strncmp(t->op[j].path, t->op[i].path, len) == 0 &&
			    t->op[j].path[len] == '/')
				t->op[j].off = 1;
	}
}

static void
minimize(const struct ctx *c, struct cpcase *cc, const struct finding *kind,
    FILE *log)
{
	int pass, progress, runs;

	runs = 0;
	if (!still(c, cc, kind, &runs)) {
		(void)fprintf(log, "  (%s does not come back: not "
		    "minimized)\n", kind->kind);
		return;
	}
	for (pass = 0; pass < 4 && runs < MINRUNS; pass++) {
		progress = shrink_tree(c, cc, kind, &runs);
		progress |= shrink_args(c, cc, kind, &runs);
		progress |= shrink_conditions(c, cc, kind, &runs);
		if (!progress)
			break;
	}
	prune(&cc->tree);
	(void)fprintf(log, "  minimized for %s in %d runs:\n", kind->kind,
	    runs);
	print_case(cc, log);
}

/* Whether cp takes these arguments as options (not a usage error). */
static int
accepts(const struct ctx *c, const char *opt)
{
	struct run r;
	char *argv[5];
	int ok;

	argv[0] = xstrdup(c->cp);
	argv[1] = xstrdup(opt);
	argv[2] = xasprintf("%s/no-such-source", c->work);
	argv[3] = xasprintf("%s/no-such-target", c->work);
	argv[4] = NULL;
	memset(&r, 0, sizeof(r));
	r.argv = argv;
	r.cwd = c->work;
	r.in = IO_NULL;
	r.out = IO_PIPE;
	r.err = IO_PIPE;
	r.timeout = 30;
	run(&r);
	ok = r.errbuf != NULL && strstr(r.errbuf, "usage") == NULL &&
	    strstr(r.errbuf, "option") == NULL;
	run_free(&r);
	free(argv[0]);
	free(argv[1]);
	free(argv[2]);
	free(argv[3]);
	return (ok);
}

/* What this cp accepts beyond the options every version has. */
void
cp_probe(struct ctx *c)
{

	c->longopts = 0;
	if (accepts(c, "--recursive") && accepts(c, "--no-clobber"))
		c->longopts |= LONG_OPTS;
	if (accepts(c, "--sort"))
		c->longopts |= LONG_SORT;
	if (accepts(c, "-N"))
		c->longopts |= LONG_N;
}
