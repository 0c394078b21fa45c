/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Judging a cp run against the model: how it ended, what it said, what
 * it left open, what it changed, what it reported copying, and whether
 * its exit status says what happened.  Each finding names the invariant
 * it breaks, and, where it matches one, the known issue item.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cpcase.h"

#define	SHOW	6	/* paths shown of a finding about many */

struct said {
	char		**msg;		/* "cp: ..." lines */
	size_t		 nmsg;
	int		 declined;	/* -i's "not overwritten" */
	int		 usage;
};

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

static const char *
type_name(mode_t m)
{

	switch (m & S_IFMT) {
	case S_IFREG:
		return ("regular file");
	case S_IFDIR:
		return ("directory");
	case S_IFLNK:
		return ("symbolic link");
	case S_IFIFO:
		return ("FIFO");
	default:
		return ("special file");
	}
}

/* Why the copy at x->dst is not what the model expects; NULL if it is. */
static char *
verify(const struct expect *x, const struct snap *post, const char *root,
    const struct cpopts *o)
{
	const struct entry *e;
	char *a, *b;
	int same;

	if ((e = snap_get(post, x->dst)) == NULL)
		return (xasprintf("%s is missing", x->dst));
	/* A link in the way that cp may follow: the copy is where it leads. */
	if (S_ISLNK(e->mode) && x->alt != NULL && x->kind == X_REG &&
	    (e = snap_get(post, x->alt)) == NULL)
		return (xasprintf("%s is missing", x->alt));
	switch (x->kind) {
	case X_REG:
		if (!S_ISREG(e->mode))
			return (xasprintf("%s is a %s", x->dst,
			    type_name(e->mode)));
		if (e->size != x->size || e->hash != x->hash)
			return (xasprintf("%s differs from %s (%jd bytes, "
			    "the source %jd)", x->dst, x->src,
			    (intmax_t)e->size, (intmax_t)x->size));
		return (NULL);
	case X_HARD:
		if (e->dev != x->dev || e->ino != x->ino)
			return (xasprintf("%s is not a hard link to %s",
			    x->dst, x->src));
		return (NULL);
	case X_SYM:
		if (!S_ISLNK(e->mode))
			return (xasprintf("%s is a %s, not a link to %s",
			    x->dst, type_name(e->mode), x->src));
		a = path_norm(root, e->link);
		b = path_norm(root, x->text);
		same = strcmp(a, b) == 0;
		free(a);
		free(b);
		return (same ? NULL : xasprintf("%s says %s, not %s", x->dst,
		    e->link, x->text));
	case X_LINK:
		if (o->l && e->dev == x->dev && e->ino == x->ino)
			return (NULL);
		if (!S_ISLNK(e->mode))
			return (xasprintf("%s is a %s, not a link", x->dst,
			    type_name(e->mode)));
		if (strcmp(e->link, x->text) != 0)
			return (xasprintf("%s says %s, not %s", x->dst,
			    e->link, x->text));
		return (NULL);
	case X_DIR:
		return (S_ISDIR(e->mode) ? NULL : xasprintf("%s is a %s, not "
		    "a directory", x->dst, type_name(e->mode)));
	case X_FIFO:
		if (S_ISFIFO(e->mode) || (o->l && e->ino == x->ino) ||
		    (o->s && S_ISLNK(e->mode)))
			return (NULL);
		return (xasprintf("%s is a %s, not a FIFO", x->dst,
		    type_name(e->mode)));
	}
	return (NULL);
}

/* Take the -i prompts out of stderr and sort what is left. */
static void
read_stderr(const struct run *r, int repeats, struct said *s,
    struct findings *fs)
{
	char *buf, *line, *p, *q, *next;
	size_t i, j;
	int stray;

	memset(s, 0, sizeof(*s));
	buf = xstrdup(r->errbuf != NULL ? r->errbuf : "");
	while ((q = strstr(buf, "? (y/n [n]) ")) != NULL) {
		for (p = q; p > buf && strncmp(p, "overwrite ", 10) != 0; p--)
			;
		memmove(p, q + 12, strlen(q + 12) + 1);
	}
	stray = 0;
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (*line == '\0')
			continue;
		if (strcmp(line, "not overwritten") == 0)
			s->declined++;
		else if (strncmp(line, "cp: ", 4) == 0) {
			s->msg = xrealloc(s->msg, (s->nmsg + 1) *
			    sizeof(*s->msg));
			s->msg[s->nmsg++] = xstrdup(line);
		} else if (strncmp(line, "usage: cp", 9) == 0 ||
		    strncmp(line, "       cp ", 10) == 0)
			s->usage = 1;
		else if (strstr(line, "Sanitizer") != NULL ||
		    strstr(line, "runtime error") != NULL) {
			finding(fs, "SANITIZER", NULL, "%s", line);
			stray = 1;
		} else if (!stray) {
			finding(fs, "MESSAGE", NULL, "a line on stderr that "
			    "is not cp's: \"%s\"", line);
			stray = 1;
		}
	}
	free(buf);
	/* An operand given twice may well fail twice. */
	for (i = 0; i < s->nmsg && !repeats; i++)
		for (j = i + 1; j < s->nmsg; j++)
			if (strcmp(s->msg[i], s->msg[j]) == 0) {
				finding(fs, "DUPMSG", NULL, "one message twice:"
				    " \"%s\"", s->msg[i]);
				return;
			}
}

static void
said_free(struct said *s)
{
	size_t i;

	for (i = 0; i < s->nmsg; i++)
		free(s->msg[i]);
	free(s->msg);
}

static const char *
path_of(const struct snap *a, const struct snap *b, uintmax_t dev,
    uintmax_t ino)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if ((uintmax_t)a->e[i].dev == dev &&
		    (uintmax_t)a->e[i].ino == ino)
			return (a->e[i].path);
	for (i = 0; i < b->n; i++)
		if ((uintmax_t)b->e[i].dev == dev &&
		    (uintmax_t)b->e[i].ino == ino)
			return (b->e[i].path);
	return ("(not in the scratch area)");
}

/*
 * Descriptors open at exit: none but the target directory, which cp
 * may hold for the whole run.
 */
static void
check_fds(const struct run *r, const struct model *m, const struct snap *pre,
    const struct snap *post, struct findings *fs)
{
	const char *p;
	uintmax_t dev, ino;
	unsigned mode;
	int fd, n, sig;

	if (run_status(r, &sig) == -1)
		return;
	if (r->fds == NULL) {
		finding(fs, "NOREPORT", NULL, "the descriptor report is "
		    "missing (was the preload library loaded?)");
		return;
	}
	for (p = r->fds; *p != '\0'; p = strchr(p, '\n') + 1) {
		if (sscanf(p, "%d %u %ju %ju%n", &fd, &mode, &dev, &ino,
		    &n) != 4)
			break;
		if ((S_ISDIR(mode) && dev == (uintmax_t)m->tdev &&
		    ino == (uintmax_t)m->tino) || fd_exempt(mode, dev)) {
			if (strchr(p, '\n') == NULL)
				break;
			continue;
		}
		finding(fs, "FDLEAK", NULL, "descriptor %d still open at exit,"
		    " on the %s %s", fd, type_name((mode_t)mode),
		    path_of(pre, post, dev, ino));
		if (strchr(p, '\n') == NULL)
			break;
	}
}

/*
 * Whether the model lets cp change path: named, below a named place, or
 * (a regular file) one name of a file it may write by another name.
 */
static int
allowed(const struct model *m, const char *path, const struct entry *was,
    const struct snap *pre)
{
	const struct entry *e;
	size_t i;

	for (i = 0; i < m->nallow; i++) {
		if (strcmp(m->allow[i], path) == 0)
			return (1);
		if (was != NULL && S_ISREG(was->mode) &&
		    (e = snap_get(pre, m->allow[i])) != NULL &&
		    S_ISREG(e->mode) && e->ino == was->ino &&
		    e->dev == was->dev)
			return (1);
	}
	for (i = 0; i < m->nbelow; i++)
		if (under(path, m->below[i]))
			return (1);
	return (0);
}

/*
 * Which known item a change outside the copy is: a file cp reads (by
 * name or, hard linked, by inode) rewritten, or a write through a link
 * that was at the target.
 */
static const char *
classify(const struct model *m, const char *path, const struct entry *was,
    const char *T)
{
	const struct trap *t;
	size_t i;
	int read;

	read = 0;
	for (i = 0; i < m->nread; i++)
		if (strcmp(m->read[i], path) == 0 || (was != NULL &&
		    S_ISREG(was->mode) && was->ino == m->readino[i]))
			read = 1;
	for (i = 0; i < m->ntrap; i++) {
		t = &m->trap[i];
		if (t->to == NULL || !under(path, t->to))
			continue;
		if (read)
			return ("issue 10 #1");
		if (t->isdir)
			return (under(t->to, T) ? "issue 10 #5" :
			    "issue 10 #5, #6");
		return ("issue 10 #6");
	}
	return (read ? "issue 10 #1" : NULL);
}

static char *
describe_change(const struct entry *a, const struct entry *b)
{

	if (a == NULL)
		return (xasprintf("%s: made (a %s)", b->path,
		    type_name(b->mode)));
	if (b == NULL)
		return (xasprintf("%s: removed (a %s)", a->path,
		    type_name(a->mode)));
	if ((a->mode & S_IFMT) != (b->mode & S_IFMT))
		return (xasprintf("%s: a %s became a %s", a->path,
		    type_name(a->mode), type_name(b->mode)));
	if (S_ISREG(a->mode) && (a->size != b->size || a->hash != b->hash))
		return (xasprintf("%s: rewritten, %jd bytes before, %jd after",
		    a->path, (intmax_t)a->size, (intmax_t)b->size));
	if (S_ISLNK(a->mode) && strcmp(a->link, b->link) != 0)
		return (xasprintf("%s: the link said %s, now %s", a->path,
		    a->link, b->link));
	if ((a->mode & 07777) != (b->mode & 07777))
		return (xasprintf("%s: mode %04o became %04o", a->path,
		    (unsigned)a->mode & 07777, (unsigned)b->mode & 07777));
	return (xasprintf("%s: replaced by another %s", a->path,
	    type_name(a->mode)));
}

static int
changed(const struct entry *a, const struct entry *b)
{

	if (a == NULL || b == NULL)
		return (1);
	if (a->mode != b->mode || a->ino != b->ino || a->dev != b->dev)
		return (1);
	if (S_ISREG(a->mode) && (a->size != b->size || a->hash != b->hash))
		return (1);
	return (S_ISLNK(a->mode) && strcmp(a->link, b->link) != 0);
}

/* Nothing outside what the model allows has changed. */
static void
check_region(const struct snap *pre, const struct snap *post,
    const struct model *m, const char *T, struct findings *fs)
{
	const struct entry *a, *b;
	const char *known[16];
	char *shown[16], *d, *t;
	size_t i, j, k, nk, count[16];
	int c;

	nk = 0;
	for (i = j = 0; i < pre->n || j < post->n;) {
		a = i < pre->n ? &pre->e[i] : NULL;
		b = j < post->n ? &post->e[j] : NULL;
		c = a == NULL ? 1 : b == NULL ? -1 : strcmp(a->path, b->path);
		if (c < 0) {
			b = NULL;
			i++;
		} else if (c > 0) {
			a = NULL;
			j++;
		} else {
			i++;
			j++;
		}
		if (!changed(a, b) || allowed(m, a != NULL ? a->path :
		    b->path, a, pre))
			continue;
		d = describe_change(a, b);
		t = NULL;
		for (k = 0; k < nk; k++)
			if (known[k] == classify(m, a != NULL ? a->path :
			    b->path, a, T))
				break;
		if (k == nk) {
			if (nk == 16) {
				free(d);
				continue;
			}
			known[nk] = classify(m, a != NULL ? a->path : b->path,
			    a, T);
			shown[nk] = xstrdup("");
			count[nk++] = 0;
		}
		if (count[k]++ < SHOW) {
			t = xasprintf("%s\n    %s", shown[k], d);
			free(shown[k]);
			shown[k] = t;
		}
		free(d);
	}
	for (k = 0; k < nk; k++) {
		finding(fs, "OUTSIDE", known[k], "%zu change%s outside the "
		    "copy:%s%s", count[k], count[k] == 1 ? "" : "s", shown[k],
		    count[k] > SHOW ? "\n    ..." : "");
		free(shown[k]);
	}
}

/*
 * A wrong copy that follows from a known item: made at or below a link
 * that was there (written through), or from a source the run changed.
 */
static const char *
at_trap(const struct model *m, const struct expect *x, const char *dst,
    const char *T, const struct snap *pre, const struct snap *post)
{
	const struct entry *a, *b;
	size_t i;

	for (i = 0; i < m->ntrap; i++)
		if (under(dst, m->trap[i].at) && m->trap[i].to != NULL)
			return (classify(m, m->trap[i].to, NULL, T));
	if (x != NULL && x->real != NULL &&
	    (a = snap_get(pre, x->real)) != NULL &&
	    ((b = snap_get(post, x->real)) == NULL || changed(a, b)))
		return (classify(m, x->real, a, T));
	return (NULL);
}

static const struct expect *
find_expect(const struct model *m, const char *src, const char *dst)
{
	size_t i;

	for (i = 0; i < m->nx; i++)
		if (strcmp(m->x[i].dst, dst) == 0 &&
		    strcmp(m->x[i].src, src) == 0)
			return (&m->x[i]);
	return (NULL);
}

/* Every copy -v reports is a copy, with its holes. */
static void
check_verbose(const struct run *r, const struct model *m,
    const struct snap *pre, const struct snap *post, const char *root,
    const char *T, const struct cpopts *o, struct findings *fs)
{
	const struct expect *x;
	const struct entry *e;
	char *buf, *line, *next, *arrow, *a, *b, *why;

	if (r->outbuf == NULL)
		return;
	buf = xstrdup(r->outbuf);
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strlen(line) > 16 && strcmp(line + strlen(line) - 16,
		    " not overwritten") == 0)
			continue;
		if ((arrow = strstr(line, " -> ")) == NULL) {
			finding(fs, "MESSAGE", NULL, "a line on stdout that "
			    "is not -v's: \"%s\"", line);
			continue;
		}
		*arrow = '\0';
		a = path_norm(root, line);
		b = path_norm(root, arrow + 4);
		if (strcmp(m->tgiven, m->treal) != 0 && under(b, m->tgiven)) {
			char *rb = xasprintf("%s%s", m->treal,
			    b + strlen(m->tgiven));

			free(b);
			b = path_norm(root, rb);
			free(rb);
		}
		if ((x = find_expect(m, a, b)) == NULL) {
			if (!m->unsure)
				finding(fs, "VUNEXPECTED", at_trap(m, NULL, b, T, pre,
			    post),
				    "cp -v reported"
				    " %s -> %s, which is not a copy it was "
				    "asked for", a, b);
		} else if (x->optional != 2 &&
		    (why = verify(x, post, root, o)) != NULL) {
			finding(fs, "VCOPY", at_trap(m, x, x->dst, T, pre,
			    post), "cp -v "
			    "reported %s -> %s, but %s", a, b, why);
			free(why);
		} else if (x->kind == X_REG && x->optional != 2 &&
		    (e = snap_get(post, x->dst)) != NULL &&
		    (off_t)x->blocks * 512 + 65536 < x->size &&
		    e->blocks > x->blocks + 128)
			finding(fs, "SPARSE", NULL, "%s has %jd blocks, its "
			    "source %s %jd: the holes were filled", b,
			    (intmax_t)e->blocks, a, (intmax_t)x->blocks);
		free(a);
		free(b);
	}
	free(buf);
}

/*
 * What -n and an unanswered -i must leave alone is left alone; what may
 * be left alone or copied is one or the other, not something between.
 */
static void
check_kept(const struct model *m, const struct snap *pre,
    const struct snap *post, const char *root, const struct cpopts *o,
    const struct cpcase *cc, int code, struct findings *fs)
{
	const struct expect *x;
	const struct entry *a, *b;
	char *why;
	size_t i;

	for (i = 0; i < m->nx; i++) {
		x = &m->x[i];
		if (!x->either || x->optional == 2)
			continue;
		a = snap_get(pre, x->dst);
		b = snap_get(post, x->dst);
		if (a == NULL || !changed(a, b))
			continue;
		if (x->keep) {
			finding(fs, "KEPT", o->i && cc->in == IO_CLOSED ?
			    "issue 15 (cp -i, closed stdin)" : NULL, "%s was "
			    "overwritten %s", x->dst, o->n ? "under -n" :
			    "by -i with no answer to read");
			continue;
		}
		/* A failure may leave what it reports. */
		if (code == 0 && (why = verify(x, post, root, o)) != NULL) {
			finding(fs, "INCOMPLETE", NULL, "exit 0, but %s is "
			    "neither kept nor copied: %s", x->dst, why);
			free(why);
		}
	}
}

/* -p: a copy stamped with its source's time is a whole copy. */
static void
check_stamps(const struct model *m, const struct snap *post,
    struct findings *fs)
{
	const struct expect *x;
	const struct entry *e;
	size_t i;

	for (i = 0; i < m->nx; i++) {
		x = &m->x[i];
		if (x->kind != X_REG || x->optional == 2 ||
		    (e = snap_get(post, x->dst)) == NULL)
			continue;
		if (S_ISLNK(e->mode) && x->alt != NULL)
			e = snap_get(post, x->alt);
		if (e == NULL || !S_ISREG(e->mode))
			continue;
		if (e->mtime.tv_sec == x->mtime.tv_sec &&
		    e->mtime.tv_nsec == x->mtime.tv_nsec &&
		    (e->size != x->size || e->hash != x->hash))
			finding(fs, "PSTAMP", "issue 10 #4", "%s has the time "
			    "of %s but not its bytes (%jd of %jd)", x->dst,
			    x->src, (intmax_t)e->size, (intmax_t)x->size);
	}
}

static void
check_exit(const struct run *r, const struct model *m, const struct said *s,
    const struct snap *pre, const struct snap *post, const char *root,
    const char *T, const struct cpopts *o, struct findings *fs)
{
	const char *known, *k;
	char *why, *list, *t;
	size_t i, nbad, nknown;
	int code, sig;

	code = run_status(r, &sig);
	if (m->usage) {
		if (code == 0)
			finding(fs, "EXIT0", NULL, "exit 0 after a usage "
			    "error");
		return;
	}
	if (m->unsure)
		return;
	list = xstrdup("");
	nbad = nknown = 0;
	known = NULL;
	for (i = 0; i < m->nx; i++) {
		if (m->x[i].optional ||
		    (why = verify(&m->x[i], post, root, o)) == NULL)
			continue;
		if ((k = at_trap(m, &m->x[i], m->x[i].dst, T, pre, post)) !=
		    NULL) {
			known = k;
			nknown++;
		}
		if (nbad++ < SHOW) {
			t = xasprintf("%s\n    %s", list, why);
			free(list);
			list = t;
		}
		free(why);
	}
	if (code == 0) {
		if (s->nmsg > 0)
			finding(fs, "EXIT0", NULL, "exit 0 after saying "
			    "\"%s\"", s->msg[0]);
		if (m->fail)
			finding(fs, "EXIT0", m->lateopt ? "issue 10 #7" :
			    m->selfdir ? "FINDINGS F3" : NULL,
			    "exit 0 though %s", m->why);
		if (nbad > 0)
			finding(fs, "INCOMPLETE", nknown == nbad ? known :
			    NULL, "exit 0 but %zu copies"
			    " are wrong:%s%s", nbad, list, nbad > SHOW ?
			    "\n    ..." : "");
	} else if (r->err != IO_CLOSED) {
		if (s->nmsg == 0 && s->declined == 0 && !m->declines)
			finding(fs, "SILENT", NULL, "exit %d without a "
			    "message", code);
		if (!m->fail && !m->may_fail && !m->declines && nbad == 0 &&
		    s->nmsg > 0)
			finding(fs, "EXIT1", NULL, "exit %d though every "
			    "operand was copied; it said \"%s\"", code,
			    s->msg[0]);
	}
	free(list);
}

/* The last component of path, trailing slashes aside. */
static char *
last_name(const char *path)
{
	char *s, *p;

	s = xstrdup(path);
	for (p = s + strlen(s); p > s + 1 && p[-1] == '/'; p--)
		p[-1] = '\0';
	if ((p = strrchr(s, '/')) != NULL && p[1] != '\0')
		memmove(s, p + 1, strlen(p + 1) + 1);
	return (s);
}

/*
 * Where operand a leads as cp takes it, below root: through the links on
 * its way, and through a last one too when a ends in a slash or the
 * command line's links are followed; its lexical form when it leads
 * nowhere real.
 */
static char *
operand_real(const char *root, const char *a, const struct cpopts *o)
{
	char buf[PATH_MAX], *full, *dir, *name, *p, *res;
	size_t len;

	full = a[0] == '/' ? xstrdup(a) : xasprintf("%s/%s", root, a);
	len = strlen(full);
	res = NULL;
	if (o->follow_root || (len > 0 && full[len - 1] == '/')) {
		if (realpath(full, buf) != NULL)
			res = path_norm(root, buf);
	} else if ((p = strrchr(full, '/')) != NULL && p[1] != '\0') {
		dir = xstrdup(full);
		dir[p - full] = '\0';
		name = p + 1;
		if (realpath(*dir != '\0' ? dir : "/", buf) != NULL) {
			free(dir);
			dir = xasprintf("%s/%s", buf, name);
			res = path_norm(root, dir);
		}
		free(dir);
	}
	if (res == NULL)
		res = path_norm(root, a);
	free(full);
	return (res);
}

/*
 * Whether two operands are one, or one holds the other, or both land on
 * one name in the target directory (src/data and src/a/data: each may
 * fail on dst/data with one message); by their names, or by where they
 * lead (src/e/, e a link to ".", holds src/x, and both copy an x).
 */
static int
repeats(const struct cpcase *cc, const struct cpopts *o, const char *root)
{
	char *a, *b, *pa, *pb, *na, *nb, *ra, *rb;
	size_t i, j;
	int same;

	same = 0;
	for (i = o->first; i + 1 < cc->nargs && !same; i++)
		for (j = i + 1; j + 1 < cc->nargs && !same; j++) {
			a = cp_arg(root, cc->args[i]);
			b = cp_arg(root, cc->args[j]);
			pa = path_norm(root, a);
			pb = path_norm(root, b);
			na = last_name(pa);
			nb = last_name(pb);
			ra = operand_real(root, a, o);
			rb = operand_real(root, b, o);
			same = under(pa, pb) || under(pb, pa) ||
			    strcmp(na, nb) == 0 || under(ra, rb) ||
			    under(rb, ra);
			free(a);
			free(b);
			free(pa);
			free(pb);
			free(na);
			free(nb);
			free(ra);
			free(rb);
		}
	return (same);
}

/* "A -> B  42%" or "A -> B 1234 bytes": a progress report. */
static int
is_progress(const char *line, size_t len)
{
	size_t i;

	i = len;
	if (i > 6 && strncmp(line + i - 6, " bytes", 6) == 0)
		i -= 6;
	else if (i > 1 && line[i - 1] == '%')
		i--;
	else
		return (0);
	if (i == 0 || line[i - 1] < '0' || line[i - 1] > '9')
		return (0);
	while (i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9')
		i--;
	if (i == 0 || line[i - 1] != ' ')
		return (0);
	return (memmem(line, i, " -> ", 4) != NULL);
}

static void
put_line(char *buf, size_t *len, const char *p, size_t n)
{

	memcpy(buf + *len, p, n);
	*len += n;
	buf[(*len)++] = '\n';
}

/*
 * stderr went where stdout goes (2>&1): take cp's messages and progress
 * reports out of the stream, which must then be -v's lines, each whole.
 * An -i prompt ends no line: what follows it on its line is looked at
 * on its own.
 */
static void
unmerge(const struct run *r, struct run *rr)
{
	const char *p, *e, *q, *end;
	size_t len, olen, elen;

	*rr = *r;
	rr->err = IO_PIPE;
	rr->outbuf = xmalloc(r->outlen + 1);
	rr->errbuf = xmalloc(2 * r->outlen + 1);
	olen = elen = 0;
	end = r->outbuf + r->outlen;
	for (p = r->outbuf; p < end; p = e + 1) {
		if ((e = memchr(p, '\n', (size_t)(end - p))) == NULL)
			e = end;
		while (strncmp(p, "overwrite ", 10) == 0 &&
		    (q = memmem(p, (size_t)(e - p), "? (y/n [n]) ", 12)) !=
		    NULL) {
			put_line(rr->errbuf, &elen, p, (size_t)(q + 12 - p));
			p = q + 12;
		}
		len = (size_t)(e - p);
		if (len == 0)
			continue;
		if (strncmp(p, "cp: ", 4) == 0 || strncmp(p, "usage: ", 7) ==
		    0 || strncmp(p, "       cp ", 10) == 0 ||
		    (len == 15 && strncmp(p, "not overwritten", 15) == 0))
			put_line(rr->errbuf, &elen, p, len);
		else if (!is_progress(p, len))
			put_line(rr->outbuf, &olen, p, len);
	}
	rr->outbuf[olen] = rr->errbuf[elen] = '\0';
	rr->outlen = olen;
	rr->errlen = elen;
}

void
cp_judge(const struct cpcase *cc, const struct cpopts *o,
    const struct model *m, const struct snap *pre, const struct snap *post,
    const struct run *r0, const char *root, struct findings *fs)
{
	const struct run *r;
	struct run rr;
	struct said s;
	char *T;
	size_t i;
	int code, dup, sig;

	r = r0;
	if (r0->err == IO_MERGE) {
		unmerge(r0, &rr);
		r = &rr;
	}
	if ((code = run_status(r, &sig)) == -1) {
		finding(fs, sig == SIGALRM ? "HANG" : "CRASH", NULL,
		    "killed by signal %d", sig);
	} else {
		if (code != 0 && code != 1 && !(m->usage && code == 64))
			finding(fs, "CRASH", NULL, "exit status %d%s", code,
			    code == 86 || code == 87 ? " (a sanitizer)" :
			    code >= 126 ? " (not run)" : "");
	}
	dup = repeats(cc, o, root);
	for (i = 0; i < m->nx; i++)
		if (m->x[i].optional == 2)
			dup = 1;
	if (r->err != IO_CLOSED && r->err != IO_MERGE)
		read_stderr(r, dup, &s, fs);
	else
		memset(&s, 0, sizeof(s));
	check_fds(r, m, pre, post, fs);
	T = xstrdup(m->treal != NULL ? m->treal : ".");
	check_region(pre, post, m, T, fs);
	check_verbose(r, m, pre, post, root, T, o, fs);
	if (o->p)
		check_stamps(m, post, fs);
	check_kept(m, pre, post, root, o, cc, code, fs);
	if (code != -1)
		check_exit(r, m, &s, pre, post, root, T, o, fs);
	free(T);
	/* The answer read from the source, opened as descriptor 0. */
	if (o->i && cc->in == IO_CLOSED)
		for (i = 0; i < fs->n; i++)
			if (fs->f[i].known == NULL &&
			    (strcmp(fs->f[i].kind, "VCOPY") == 0 ||
			    strcmp(fs->f[i].kind, "INCOMPLETE") == 0))
				fs->f[i].known = "issue 15 (cp -i, closed "
				    "stdin)";
	/* A progress report written into the copy (issue 15). */
	if (r0->err == IO_CLOSED && r0->sent > 0)
		for (i = 0; i < fs->n; i++)
			if (fs->f[i].known == NULL &&
			    (strcmp(fs->f[i].kind, "VCOPY") == 0 ||
			    strcmp(fs->f[i].kind, "INCOMPLETE") == 0))
				fs->f[i].known = "issue 15 (progress into the"
				    " copy)";
	if (r0->err == IO_MERGE) {
		free(rr.outbuf);
		free(rr.errbuf);
		/* A line broken by a progress report (issue 15). */
		for (i = 0; i < fs->n; i++)
			if (fs->f[i].known == NULL && r0->sent > 0 &&
			    (strcmp(fs->f[i].kind, "MESSAGE") == 0 ||
			    strcmp(fs->f[i].kind, "VUNEXPECTED") == 0))
				fs->f[i].known = "issue 15 (progress in -v)";
	}
	/* cp took an operand for an option: the model's view is not its. */
	if (m->lateopt)
		for (i = 0; i < fs->n; i++)
			if (fs->f[i].known == NULL &&
			    strcmp(fs->f[i].kind, "CRASH") != 0 &&
			    strcmp(fs->f[i].kind, "HANG") != 0 &&
			    strcmp(fs->f[i].kind, "FDLEAK") != 0 &&
			    strcmp(fs->f[i].kind, "SANITIZER") != 0)
				fs->f[i].known = "issue 10 #7";
	said_free(&s);
}
