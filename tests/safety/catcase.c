/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat with its input and output on one file: stdin and stdout opened on
 * it in every way the shell can (<, <>, >, >>, 1<>, 1>&0 for one shared
 * offset), at any offset, and operands naming it (itself, a hard link, a
 * symbolic link, /dev/stdin, a bind mount).  Each run must be refused
 * ("cat: NAME: input file is output file", exit 1) or harmless: the file
 * ends exactly as if cat had read each input whole before writing it.
 * One shared offset with input left must be refused (issue 10 #3).
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"
#include "cook.h"
#include "ref_cook.h"

enum cin { CIN_NULL, CIN_CLOSED, CIN_PIPE, CIN_G, CIN_F, CIN_FRW };
enum cout { COUT_PIPE, COUT_NULL, COUT_TRUNC, COUT_WR, COUT_APPEND,
    COUT_RDWR, COUT_DUP };

static const char *const cin_name[] = { "</dev/null", "<&-", "<pipe", "<g",
    "<f", "<>f" };
static const char *const cout_name[] = { "| reader", ">/dev/null", ">f",
    "1<>f (write only)", ">>f", "1<>f", "1>&0" };

struct catcase {
	uint64_t	 seed;
	uint64_t	 num;
	enum cin	 in;
	off_t		 inoff;
	enum cout	 out;
	off_t		 outoff;
	char		*args[12];	/* cat's, without argv[0] */
	int		 nargs;
	int		 first;		/* the first operand */
	int		 flags;		/* COOK_* */
	int		 bind;		/* an operand is the bind mount */
	char		*env[2];
	off_t		 fsize;		/* f's size */
	uint64_t	 fdata;
	int		 ftext;
	char		*pipedata;
	size_t		 pipelen;
	const char	*root;		/* for the child */
	char		*abs_f;		/* what "@f" stands for */
};

/* The file's aliases: what each operand naming f may be. */
static const char *const aliases[] = { "f", "./f", "hl", "sl", "sl2", "@f",
    "/dev/stdin", "/proc/self/fd/0", "bm" };

static int	bind_ok = -1;	/* whether bind mounts can be made here */

static void	cat_setup(void *);

static void
gen(struct rng *r, struct catcase *k)
{
	static const off_t sizes[] = { 0, 1, 100, 5000, 70000, 131089,
	    1048579, 3145728 };
	static const char *const opts[] = { "-u", "-n", "-b", "-v", "-e",
	    "-s", "-t", "-l", "-E", "-T" };
	static const char *const paths[] = { "rw", "mmap", "cfr", "splice",
	    "sendfile" };
	const char *a;
	unsigned v;
	int i, n, nops;

	k->fsize = sizes[rng_below(r, sizeof(sizes) / sizeof(sizes[0]))];
	k->fdata = rng_next(r);
	k->ftext = rng_chance(r, 70);
	v = (unsigned)rng_below(r, 100);
	k->in = v < 12 ? CIN_NULL : v < 16 ? CIN_CLOSED : v < 26 ? CIN_PIPE :
	    v < 32 ? CIN_G : v < 62 ? CIN_F : CIN_FRW;
	v = (unsigned)rng_below(r, 100);
	k->out = v < 8 ? COUT_PIPE : v < 11 ? COUT_NULL : v < 25 ? COUT_TRUNC :
	    v < 45 ? COUT_WR : v < 65 ? COUT_APPEND : v < 78 ? COUT_RDWR :
	    COUT_DUP;
	if (k->out == COUT_DUP && k->in != CIN_FRW)
		k->in = CIN_FRW;
	v = (unsigned)rng_below(r, 3);
	k->inoff = v == 0 || k->fsize == 0 ? 0 : v == 1 ?
	    (off_t)rng_below(r, (uint64_t)k->fsize) : k->fsize;
	v = (unsigned)rng_below(r, 3);
	k->outoff = v == 0 || k->fsize == 0 ? 0 : v == 1 ?
	    (off_t)rng_below(r, (uint64_t)k->fsize) : k->fsize;
	if (k->in == CIN_PIPE) {
		k->pipelen = (size_t)rng_below(r, 200000);
		k->pipedata = xmalloc(k->pipelen + 1);
		content_fill(rng_next(r), 1, 0, (unsigned char *)k->pipedata,
		    k->pipelen);
		k->pipedata[k->pipelen] = '\0';
	}
	n = 0;
	if (rng_chance(r, 50))
		for (i = (int)rng_below(r, 3) + 1; i > 0; i--)
			k->args[n++] = xstrdup(opts[rng_below(r,
			    sizeof(opts) / sizeof(opts[0]))]);
	k->first = n;
	v = (unsigned)rng_below(r, 100);
	nops = v < 25 ? 0 : v < 70 ? 1 : v < 88 ? 2 : 3;
	for (i = 0; i < nops; i++) {
		v = (unsigned)rng_below(r, 100);
		if (v < 30)
			a = "-";
		else if (v < 80) {
			a = aliases[rng_below(r, sizeof(aliases) /
			    sizeof(aliases[0]))];
			/* /dev/stdin is f only when stdin is. */
			if (strncmp(a, "/", 1) == 0 && k->in != CIN_F &&
			    k->in != CIN_FRW)
				a = "f";
			if (strcmp(a, "bm") == 0 && !bind_ok)
				a = "hl";
			if (strcmp(a, "bm") == 0)
				k->bind = 1;
		} else
			a = "g";
		k->args[n++] = xstrdup(a);
	}
	k->nargs = n;
	if (rng_chance(r, 40))
		k->env[0] = xasprintf("BUFSZ_PATH=%s", paths[rng_below(r, 5)]);
	for (i = 0; i < k->first; i++) {
		switch (k->args[i][1]) {
		case 'n':
			k->flags |= COOK_NUMBER;
			break;
		case 'b':
			k->flags |= COOK_NUMBER | COOK_NONBLANK;
			break;
		case 'v':
			k->flags |= COOK_VIS;
			break;
		case 'e':
			k->flags |= COOK_ENDS | COOK_VIS;
			break;
		case 'E':
			k->flags |= COOK_ENDS;
			break;
		case 's':
			k->flags |= COOK_SQUEEZE;
			break;
		case 't':
			k->flags |= COOK_TABS | COOK_VIS;
			break;
		case 'T':
			k->flags |= COOK_TABS;
			break;
		}
	}
}

static void
case_free(struct catcase *k)
{
	int i;

	for (i = 0; i < k->nargs; i++)
		free(k->args[i]);
	free(k->env[0]);
	free(k->pipedata);
}

/* In the child: the bind mount, then stdin and stdout as the case says. */
static void
cat_setup(void *arg)
{
	const struct catcase *k;
	char *f, *bm;
	int fd, flags;

	k = arg;
	f = path_join(k->root, "f");
	bm = path_join(k->root, "bm");
	if (k->bind && host_bind_alias(f, bm) == -1)
		_exit(125);
	if (k->in == CIN_F || k->in == CIN_FRW || k->in == CIN_G) {
		fd = open(k->in == CIN_G ? path_join(k->root, "g") : f,
		    k->in == CIN_FRW ? O_RDWR : O_RDONLY);
		if (fd == -1 || (k->in != CIN_G &&
		    lseek(fd, k->inoff, SEEK_SET) == -1) || dup2(fd, 0) == -1)
			_exit(125);
		(void)close(fd);
	}
	if (k->out == COUT_DUP) {
		if (dup2(0, 1) == -1)
			_exit(125);
	} else if (k->out != COUT_PIPE && k->out != COUT_NULL) {
		flags = k->out == COUT_TRUNC ? O_WRONLY | O_TRUNC :
		    k->out == COUT_WR ? O_WRONLY : k->out == COUT_APPEND ?
		    O_WRONLY | O_APPEND : O_RDWR;
		if ((fd = open(f, flags)) == -1 || (k->out != COUT_TRUNC &&
		    k->out != COUT_APPEND &&
		    lseek(fd, k->outoff, SEEK_SET) == -1) ||
		    dup2(fd, 1) == -1)
			_exit(125);
		(void)close(fd);
	}
}

/* A growing byte string. */
struct bytes {
	unsigned char	*p;
	size_t		 n;
};

static void
put_at(struct bytes *b, size_t at, const unsigned char *p, size_t n)
{

	if (n == 0)
		return;
	if (at + n > b->n) {
		b->p = xrealloc(b->p, at + n);
		if (at > b->n)
			memset(b->p + b->n, 0, at - b->n);
		b->n = at + n;
	}
	memcpy(b->p + at, p, n);
}

/* What cat makes of one input: itself, or formatted. */
static void
format(int flags, const unsigned char *p, size_t n, struct outbuf *ob)
{

	if (flags == 0)
		outbuf_add(ob, p, n);
	else
		ref_cook(flags, p, n, ob);
}

/* The model's state: f, where stdin and stdout are, and stdout's bytes. */
struct state {
	int		 selfcopy;	/* an input copied onto itself, in place */
	struct bytes	 f;
	size_t		 in;		/* stdin's offset in f */
	size_t		 out;		/* stdout's offset in f */
	int		 pipe_done;	/* the pipe (or g) is drained */
	struct outbuf	 stream;	/* what went to a pipe */
};

static int
out_is_f(const struct catcase *k)
{

	return (k->out != COUT_PIPE && k->out != COUT_NULL);
}

/* The name cat gives operand i in its messages. */
static const char *
op_name(const struct catcase *k, int i)
{
	const char *a;

	a = k->nargs == k->first ? "-" : k->args[k->first + i];
	return (strcmp(a, "-") == 0 ? "stdin" : a[0] == '@' ? k->abs_f : a);
}

static int
nops_of(const struct catcase *k)
{

	return (k->nargs == k->first ? 1 : k->nargs - k->first);
}

/*
 * Work out what the run must leave, given which operands cat refused
 * (the bits of mask).  Returns a finding's text, or NULL.
 */
static char *
model(const struct catcase *k, const unsigned char *f0, size_t f0len,
    const unsigned char *g, size_t glen, unsigned mask, struct state *st,
    const char **known)
{
	struct outbuf ob;
	const unsigned char *in;
	const char *a;
	size_t inlen, i, left;
	int nops, shared, same;

	memset(st, 0, sizeof(*st));
	*known = NULL;
	if (k->out != COUT_TRUNC)
		put_at(&st->f, 0, f0, f0len);
	st->in = k->inoff;
	shared = k->out == COUT_DUP;
	/* >f starts at 0; 1>&0 shares stdin's offset. */
	st->out = k->out == COUT_TRUNC ? 0 : shared ? k->inoff : k->outoff;
	nops = k->nargs - k->first;
	for (i = 0; i < (size_t)nops_of(k); i++) {
		a = nops == 0 ? "-" : k->args[k->first + i];
		in = NULL;
		inlen = 0;
		same = 0;
		left = 0;
		if (strcmp(a, "-") == 0) {
			switch (k->in) {
			case CIN_PIPE:
				if (!st->pipe_done) {
					in = (const unsigned char *)k->pipedata;
					inlen = k->pipelen;
				}
				st->pipe_done = 1;
				break;
			case CIN_G:
				if (!st->pipe_done) {
					in = g;
					inlen = glen;
				}
				st->pipe_done = 1;
				break;
			case CIN_F:
			case CIN_FRW:
				same = out_is_f(k);
				if (st->in < st->f.n) {
					left = st->f.n - st->in;
					in = st->f.p + st->in;
					inlen = left;
				}
				break;
			default:
				break;
			}
		} else if (strcmp(a, "g") == 0) {
			in = g;
			inlen = glen;
		} else {
			same = out_is_f(k);
			in = st->f.p;
			inlen = left = st->f.n;
		}
		if (mask & (1U << i)) {
			if (!same)
				return (xasprintf("cat refused %s, which is not"
				    " its output", a));
			continue;
		}
		if (same && left > 0 && shared && strcmp(a, "-") == 0) {
			*known = "issue 10 #3";
			return (xasprintf("stdin and stdout share one offset in"
			    " f, %zu bytes left to read, and cat did not "
			    "refuse", left));
		}
		/* Onto itself where it is read from: FINDINGS F2's path. */
		if (same && left > 0 && k->flags == 0 &&
		    !(shared && strcmp(a, "-") == 0) &&
		    k->out != COUT_APPEND && st->out == (size_t)(in - st->f.p))
			st->selfcopy = 1;
		memset(&ob, 0, sizeof(ob));
		format(k->flags, in, inlen, &ob);
		if (strcmp(a, "-") == 0 && (k->in == CIN_F || k->in == CIN_FRW))
			st->in += inlen;
		if (shared)
			st->out = st->in;
		if (!out_is_f(k))
			outbuf_add(&st->stream, ob.ob_buf, ob.ob_len);
		else if (k->out == COUT_APPEND)
			put_at(&st->f, st->f.n, ob.ob_buf, ob.ob_len);
		else {
			put_at(&st->f, st->out, ob.ob_buf, ob.ob_len);
			st->out += ob.ob_len;
			if (shared)
				st->in = st->out;
		}
		outbuf_free(&ob);
	}
	return (NULL);
}

/* Whether the operands of mask, in order, are the names cat refused. */
static int
mask_fits(const struct catcase *k, unsigned mask, char **refused, size_t n)
{
	size_t j;
	int i;

	j = 0;
	for (i = 0; i < nops_of(k); i++) {
		if ((mask & (1U << i)) == 0)
			continue;
		if (j == n || (strcmp(refused[j], op_name(k, i)) != 0 &&
		    !(strcmp(refused[j], "-") == 0 &&
		    strcmp(op_name(k, i), "stdin") == 0)))
			return (0);
		j++;
	}
	return (j == n);
}

static size_t
first_diff(const unsigned char *a, size_t alen, const unsigned char *b,
    size_t blen)
{
	size_t i;

	for (i = 0; i < alen && i < blen; i++)
		if (a[i] != b[i])
			break;
	return (i);
}

static char *
describe(const struct catcase *k)
{
	char *s, *t;
	int i;

	s = xasprintf("%s%scat", k->env[0] != NULL ? k->env[0] : "",
	    k->env[0] != NULL ? " " : "");
	for (i = 0; i < k->nargs; i++) {
		t = xasprintf("%s %s", s, k->args[i][0] == '@' ?
		    "\"$S\"/f" : k->args[i]);
		free(s);
		s = t;
	}
	t = xasprintf("%s %s", s, cin_name[k->in]);
	free(s);
	s = t;
	if (k->in == CIN_F || k->in == CIN_FRW) {
		t = xasprintf("%s (at %jd)", s, (intmax_t)k->inoff);
		free(s);
		s = t;
	}
	t = xasprintf("%s %s", s, cout_name[k->out]);
	free(s);
	s = t;
	if (k->out == COUT_WR || k->out == COUT_RDWR) {
		t = xasprintf("%s (at %jd)", s, (intmax_t)k->outoff);
		free(s);
		s = t;
	}
	t = xasprintf("%s; f %jd bytes of %s%s", s, (intmax_t)k->fsize,
	    k->ftext ? "text" : "bytes", k->bind ? ", bm bind-mounted on f" :
	    "");
	free(s);
	return (t);
}

/* Whether a file can be bind-mounted here (in a namespace of its own). */
static int
probe_bind(const char *work)
{
	char *a, *b;
	pid_t pid;
	int fd, status;

	a = path_join(work, "bind.a");
	b = path_join(work, "bind.b");
	if ((fd = open(a, O_WRONLY | O_CREAT, 0644)) != -1)
		(void)close(fd);
	if ((fd = open(b, O_WRONLY | O_CREAT, 0644)) != -1)
		(void)close(fd);
	if ((pid = fork()) == -1)
		err(3, "fork");
	if (pid == 0)
		_exit(host_bind_alias(a, b) == 0 ? 0 : 1);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			err(3, "waitpid");
	(void)unlink(a);
	(void)unlink(b);
	free(a);
	free(b);
	return (WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void
make_f(const char *root, const struct catcase *k, unsigned char **buf,
    size_t *len)
{
	char *p;
	int fd;

	*len = (size_t)k->fsize;
	*buf = xmalloc(*len + 1);
	content_fill(k->fdata, k->ftext, 0, *buf, *len);
	p = path_join(root, "f");
	if ((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    write_all(fd, *buf, *len) == -1 || close(fd) == -1)
		err(3, "%s", p);
	free(p);
}

/*
 * What cat said: the names it refused, in order; reads of a closed stdin
 * (held by /dev/null for writing: EBADF, as if closed); anything else.
 */
struct cat_said {
	char		**refused;
	size_t		 nrefused;
	int		 ebadf;
	char		*other;
};

static void
read_said(const char *err, struct cat_said *s)
{
	const char *p, *e, *tail;
	size_t len;

	memset(s, 0, sizeof(*s));
	tail = ": input file is output file";
	for (p = err; p != NULL && *p != '\0'; p = e != NULL ? e + 1 : NULL) {
		e = strchr(p, '\n');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		if (len > 5 + strlen(tail) && strncmp(p, "cat: ", 5) == 0 &&
		    strncmp(p + len - strlen(tail), tail, strlen(tail)) == 0) {
			s->refused = xrealloc(s->refused, (s->nrefused + 1) *
			    sizeof(*s->refused));
			s->refused[s->nrefused] = xmalloc(len);
			memcpy(s->refused[s->nrefused], p + 5,
			    len - 5 - strlen(tail));
			s->refused[s->nrefused++][len - 5 - strlen(tail)] =
			    '\0';
		} else if (len == strlen("cat: stdin: Bad file descriptor") &&
		    strncmp(p, "cat: stdin: Bad file descriptor", len) == 0)
			s->ebadf++;
		else if (s->other == NULL && len > 0) {
			s->other = xmalloc(len + 1);
			memcpy(s->other, p, len);
			s->other[len] = '\0';
		}
	}
}

static void
said_free(struct cat_said *s)
{
	size_t i;

	for (i = 0; i < s->nrefused; i++)
		free(s->refused[i]);
	free(s->refused);
	free(s->other);
}

/* Whether the run left f and stdout as the model says. */
static int
outcome_is(const struct state *st, const unsigned char *f1, size_t f1len,
    const struct catcase *k, const struct run *r)
{

	if (f1len != st->f.n || (f1len > 0 && memcmp(f1, st->f.p, f1len) != 0))
		return (0);
	return (k->out != COUT_PIPE || (r->outlen == st->stream.ob_len &&
	    (r->outlen == 0 ||
	    memcmp(r->outbuf, st->stream.ob_buf, r->outlen) == 0)));
}

/* Whether cat reads stdin where stdin and stdout share one offset. */
static int
reads_shared(const struct catcase *k)
{
	int i;

	if (k->out != COUT_DUP)
		return (0);
	for (i = k->first; i < k->nargs; i++)
		if (strcmp(k->args[i], "-") == 0)
			return (1);
	return (k->first == k->nargs);
}

static void
judge(const struct catcase *k, const struct run *r, const char *root,
    const unsigned char *f0, size_t f0len, struct findings *fs)
{
	struct cat_said said;
	struct state st;
	const char *known;
	unsigned char *g, *f1;
	char *why, *p, *also;
	size_t f1len, glen, d;
	unsigned mask;
	int anyself, code, fits, sig;

	if ((code = run_status(r, &sig)) == -1) {
		finding(fs, sig == SIGALRM ? "HANG" : "CRASH", NULL,
		    "killed by signal %d", sig);
		return;
	}
	read_said(r->errbuf, &said);
	p = path_join(root, "g");
	if (read_file(p, (char **)&g, &glen) == -1)
		err(3, "%s", p);
	free(p);
	p = path_join(root, "f");
	if (read_file(p, (char **)&f1, &f1len) == -1)
		err(3, "%s", p);
	free(p);
	/*
	 * Which operands the refusals were, when a name repeats, is read
	 * from the outcome: any reading that explains it will do.
	 */
	why = NULL;
	known = NULL;
	anyself = 0;
	memset(&st, 0, sizeof(st));
	for (mask = 0, fits = 0; mask < 1U << nops_of(k); mask++) {
		if (!mask_fits(k, mask, said.refused, said.nrefused))
			continue;
		fits = 1;
		if (why != NULL || st.f.p != NULL) {
			struct state st2;
			const char *known2;
			char *why2;

			why2 = model(k, f0, f0len, g, glen, mask, &st2, &known2);
			anyself |= st2.selfcopy;
			if (why2 == NULL && outcome_is(&st2, f1, f1len, k, r)) {
				free(why);
				free(st.f.p);
				outbuf_free(&st.stream);
				st = st2;
				why = NULL;
				known = NULL;
				break;
			}
			free(why2);
			free(st2.f.p);
			outbuf_free(&st2.stream);
			continue;
		}
		why = model(k, f0, f0len, g, glen, mask, &st, &known);
		anyself |= st.selfcopy;
		if (why == NULL && outcome_is(&st, f1, f1len, k, r))
			break;
	}
	if (!fits)
		why = xasprintf("cat refused %zu operands, not ones it was "
		    "given as its output", said.nrefused);
	also = said.other != NULL ? xasprintf(" (cat said \"%s\")",
	    said.other) : xstrdup("");
	if (why != NULL)
		finding(fs, "SAMEFILE", known, "%s%s", why, also);
	else if (f1len != st.f.n || (f1len > 0 &&
	    memcmp(f1, st.f.p, f1len) != 0)) {
		d = first_diff(f1, f1len, st.f.p, st.f.n);
		finding(fs, "SAMEFILE", reads_shared(k) ? "issue 10 #3" :
		    k->flags != 0 && k->out != COUT_APPEND ? "FINDINGS F1" :
		    anyself ? "FINDINGS F2" : NULL, "f holds %zu bytes, not the %zu of reading each "
		    "input whole before writing it (first difference at "
		    "%zu)%s", f1len, st.f.n, d, also);
	} else if (k->out == COUT_PIPE && (r->outlen != st.stream.ob_len ||
	    (r->outlen > 0 &&
	    memcmp(r->outbuf, st.stream.ob_buf, r->outlen) != 0)))
		finding(fs, "OUTPUT", NULL, "stdout has %zu bytes, not %zu%s",
		    r->outlen, st.stream.ob_len, also);
	else if (said.other != NULL)
		finding(fs, strstr(said.other, "Sanitizer") != NULL ||
		    strstr(said.other, "runtime error") != NULL ? "SANITIZER" :
		    "MESSAGE", NULL, "cat said \"%s\"", said.other);
	else if (code != (said.nrefused + (size_t)said.ebadf > 0 ? 1 : 0))
		finding(fs, "EXIT", NULL, "exit %d after %zu refusals and %d "
		    "unreadable stdins", code, said.nrefused, said.ebadf);
	/* An exit by err(3) may leave its input open; any other may not. */
	if (said.other == NULL) {
		if (r->fds == NULL)
			finding(fs, "NOREPORT", NULL, "the descriptor report "
			    "is missing");
		else {
			char *u = fds_unexcused(r->fds);

			if (*u != '\0')
				finding(fs, "FDLEAK", NULL, "descriptors open "
				    "at exit (fd mode dev ino): %s", u);
			free(u);
		}
	}
	free(why);
	free(also);
	said_free(&said);
	free(g);
	free(f1);
	free(st.f.p);
	outbuf_free(&st.stream);
}

int
cat_case(const struct ctx *c, uint64_t seed, uint64_t num,
    struct findings *fs, FILE *log)
{
	struct catcase k;
	struct rng rng;
	struct run r;
	unsigned char *f0, gbuf[2000];
	char *root, *p, *argv[16], *d;
	size_t f0len;
	int fd, i;

	if (bind_ok == -1)
		bind_ok = geteuid() == 0 && probe_bind(c->work);
	memset(&k, 0, sizeof(k));
	k.seed = seed;
	k.num = num;
	rng_init(&rng, seed, num ^ 0x636174ULL);
	gen(&rng, &k);
	root = xasprintf("%s/cat.%ju.%ju", c->work, (uintmax_t)seed,
	    (uintmax_t)num);
	rm_tree(root);
	make_dir(root, 0755);
	k.root = root;
	k.abs_f = path_join(root, "f");
	make_f(root, &k, &f0, &f0len);
	content_fill(seed ^ num, 1, 0, gbuf, sizeof(gbuf));
	p = path_join(root, "g");
	if ((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    write_all(fd, gbuf, sizeof(gbuf)) == -1 || close(fd) == -1)
		err(3, "%s", p);
	free(p);
	if (chdir(root) == -1 || link("f", "hl") == -1 ||
	    symlink("f", "sl") == -1 || symlink("sl", "sl2") == -1 ||
	    (fd = open("bm", O_WRONLY | O_CREAT, 0644)) == -1 ||
	    close(fd) == -1 || chdir("/") == -1)
		err(3, "%s", root);

	argv[0] = xstrdup(c->cat);
	for (i = 0; i < k.nargs; i++)
		argv[i + 1] = k.args[i][0] == '@' ? path_join(root, "f") :
		    k.args[i];
	argv[k.nargs + 1] = NULL;
	memset(&r, 0, sizeof(r));
	r.argv = argv;
	r.cwd = root;
	r.env = k.env;
	r.in = k.in == CIN_NULL ? IO_NULL : k.in == CIN_CLOSED ? IO_CLOSED :
	    k.in == CIN_PIPE ? IO_PIPE : IO_SETUP;
	r.input = k.pipedata;
	r.inputlen = k.pipelen;
	r.out = k.out == COUT_PIPE ? IO_PIPE : k.out == COUT_NULL ? IO_NULL :
	    IO_SETUP;
	r.err = IO_PIPE;
	r.setup = cat_setup;
	r.arg = &k;
	r.fsize = 4 * k.fsize + 8 * 1048576;
	r.timeout = 30;
	run(&r);
	if (run_status(&r, &i) == 125)
		finding(fs, "SETUP", NULL, "the arrangement could not be "
		    "made");
	else
		judge(&k, &r, root, f0, f0len, fs);
	if (c->verbose || fs->n > 0) {
		d = describe(&k);
		(void)fprintf(log, "%s cat seed %ju case %ju: %s\n",
		    fs->n > 0 ? "FAIL" : "ok", (uintmax_t)seed, (uintmax_t)num,
		    d);
		free(d);
		for (i = 0; (size_t)i < fs->n; i++)
			(void)fprintf(log, "  %s%s%s%s: %s\n", fs->f[i].kind,
			    fs->f[i].known != NULL ? " (known: " : "",
			    fs->f[i].known != NULL ? fs->f[i].known : "",
			    fs->f[i].known != NULL ? ")" : "", fs->f[i].what);
	}
	for (i = 0; i < k.nargs; i++)
		if (k.args[i][0] == '@')
			free(argv[i + 1]);
	free(argv[0]);
	run_free(&r);
	free(f0);
	free(k.abs_f);
	case_free(&k);
	rm_tree(root);
	free(root);
	return (fs->n > 0);
}
