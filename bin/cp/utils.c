/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: copying one non-directory, attributes, progress reports, paths.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

#define	MODEBITS	\
	(S_ISUID | S_ISGID | S_ISVTX | S_IRWXU | S_IRWXG | S_IRWXO)

static int	ask(void);
static int	open_target(const struct node *, mode_t, struct stat *);
static int	copy_data(int, const struct stat *, int, const struct stat *);
static int	make_link(const struct node *);
static char	*read_link(const struct node *);
static int	make_special(const struct node *);
static void	put(const char *);
static void	progress_signal(int);

/*
 * The file in flight, for the progress signal handler.  The paths are
 * only read while pg_busy is set, and are not changed meanwhile.
 */
static const char *volatile	pg_src;
static const char *volatile	pg_dst;
static volatile off_t		pg_size;
static volatile sig_atomic_t	pg_busy;

/*
 * Copy the contents of a regular file (or, without -R, of whatever the
 * source is) into a target opened for writing, or link it with -l/-s.
 */
int
copy_file(struct node *n)
{
	struct stat outst;
	int in, out, rv;

	if (lflag || sflag) {
		if (n->sfd != -1)
			(void)close(n->sfd);
		n->sfd = -1;
		return (make_link(n));
	}
	in = n->sfd;
	n->sfd = -1;
	if (in == -1 && (in = openat(n->sdir, n->sname, O_RDONLY | O_NOCTTY |
	    O_CLOEXEC | (n->followed ? 0 : O_NOFOLLOW))) == -1) {
		warn("%s", src.p);
		return (1);
	}
	if ((out = open_target(n, n->st.st_mode & MODEBITS &
	    ~(mode_t)(S_ISUID | S_ISGID), &outst)) == -1) {
		(void)close(in);
		return (1);
	}
	rv = copy_data(in, &n->st, out, &outst);
	if (pflag && setfile(out, -1, NULL, &n->st) != 0)
		rv = 1;
	(void)close(in);
	if (close(out) == -1) {
		warn("%s", dst.p);
		rv = 1;
	}
	return (rv);
}

/*
 * Open the target for writing.  A new file is created exclusively,
 * which for a tree of new files is one system call; only when something
 * is in the way is it looked at.  Returns -1 when nothing is to be
 * written (reported, or declined by -n/-i).
 */
static int
open_target(const struct node *n, mode_t mode, struct stat *outst)
{
	struct stat tst;
	int fd, flags;

	fd = openat(n->ddir, n->dname, O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, mode);
	if (fd != -1 && n->dirst != NULL) {
		/*
		 * The new file is empty and regular, and lives beside its
		 * directory: what the engine needs to know, without an
		 * fstat per file.
		 */
		memset(outst, 0, sizeof(*outst));
		outst->st_mode = S_IFREG | (mode & ~cmask);
		outst->st_dev = n->dirst->st_dev;
		outst->st_blksize = n->dirst->st_blksize;
		outst->st_nlink = 1;
		return (fd);
	}
	if (fd == -1) {
		if (errno != EEXIST) {
			warn("%s", dst.p);
			return (-1);
		}
		if (fstatat(n->ddir, n->dname, &tst, tflags) == -1) {
			if (errno != ENOENT) {
				warn("%s", dst.p);
				return (-1);
			}
			/* A dangling link: write where it points. */
			flags = O_WRONLY | O_CREAT | O_TRUNC;
		} else {
			if (!target_replaceable(n, &tst))
				return (-1);
			if (fflag) {
				(void)unlinkat(n->ddir, n->dname, 0);
				flags = O_WRONLY | O_CREAT | O_TRUNC;
			} else {
				flags = O_WRONLY | O_TRUNC;
				/* Lest it were swapped for a link meanwhile. */
				if (tflags != 0 && !S_ISLNK(tst.st_mode))
					flags |= O_NOFOLLOW;
			}
		}
		if ((fd = openat(n->ddir, n->dname, flags | O_CLOEXEC,
		    mode)) == -1) {
			warn("%s", dst.p);
			return (-1);
		}
	}
	if (fstat(fd, outst) == -1) {
		warn("%s", dst.p);
		(void)close(fd);
		return (-1);
	}
	return (fd);
}

/* The engine moves the bytes; this names the side that failed. */
static int
copy_data(int in, const struct stat *inst, int out, const struct stat *outst)
{
	int r;

	pg_src = src.p;
	pg_dst = dst.p;
	pg_size = inst->st_size;
	pg_busy = 1;
	r = bufsz_copy(engine, in, inst, out, outst);
	pg_busy = 0;
	switch (r) {
	case BUFSZ_OK:
		return (0);
	case BUFSZ_EREAD:
		warn("%s", src.p);
		break;
	default:
		warn("%s", dst.p);
		break;
	}
	return (1);
}

/*
 * Something exists where the target goes.  Report the cases that are
 * not copied and ask when -i says so.  tst may be NULL when what is in
 * the way could not be looked at (a dangling link).
 */
int
target_replaceable(const struct node *n, const struct stat *tst)
{

	if (tst != NULL) {
		if (tst->st_dev == n->st.st_dev &&
		    tst->st_ino == n->st.st_ino) {
			warnx("%s and %s are identical (not copied).", dst.p,
			    src.p);
			return (0);
		}
		if (S_ISDIR(tst->st_mode)) {
			errno = EISDIR;
			warn("%s", dst.p);
			return (0);
		}
	}
	if (nflag) {
		if (vflag)
			(void)printf("%s not overwritten\n", dst.p);
		return (0);
	}
	if (iflag)
		return (ask());
	return (1);
}

static int
ask(void)
{
	int ch, first;

	(void)fflush(stdout);
	(void)fprintf(stderr, "overwrite %s? (y/n [n]) ", dst.p);
	first = ch = getchar();
	while (ch != '\n' && ch != EOF)
		ch = getchar();
	if (first == 'y' || first == 'Y')
		return (1);
	(void)fprintf(stderr, "not overwritten\n");
	return (0);
}

/* -l and -s: a hard link to the source, or a symbolic link naming it. */
static int
make_link(const struct node *n)
{
	struct stat tst;
	int r, replaced;

	for (replaced = 0;; replaced = 1) {
		if (lflag)
			r = linkat(n->sdir, n->sname, n->ddir, n->dname,
			    n->followed ? AT_SYMLINK_FOLLOW : 0);
		else
			r = symlinkat(src.p, n->ddir, n->dname);
		if (r == 0)
			return (0);
		if (errno != EEXIST || replaced)
			break;
		if (fstatat(n->ddir, n->dname, &tst, tflags) == 0) {
			if (!target_replaceable(n, &tst))
				return (1);
		} else if (!target_replaceable(n, NULL))
			return (1);
		if (!fflag && !iflag) {
			errno = EEXIST;
			break;
		}
		if (unlinkat(n->ddir, n->dname, 0) == -1)
			break;
	}
	warn("%s", dst.p);
	return (1);
}

/* Recreate a symbolic link as it is, not what it points at. */
int
copy_link(struct node *n)
{
	struct stat tst;
	char *target;
	int replaced, rv;

	if (n->sfd != -1)
		(void)close(n->sfd);
	n->sfd = -1;
	if ((target = read_link(n)) == NULL) {
		warn("%s", src.p);
		return (1);
	}
	rv = 1;
	for (replaced = 0;; replaced = 1) {
		if (symlinkat(target, n->ddir, n->dname) == 0) {
			rv = 0;
			break;
		}
		if (errno != EEXIST || replaced) {
			warn("%s", dst.p);
			break;
		}
		if (fstatat(n->ddir, n->dname, &tst, AT_SYMLINK_NOFOLLOW) ==
		    -1) {
			warn("%s", dst.p);
			break;
		}
		if (!target_replaceable(n, &tst))
			break;
		if (unlinkat(n->ddir, n->dname, 0) == -1) {
			warn("%s", dst.p);
			break;
		}
	}
	free(target);
	if (rv == 0 && pflag)
		rv = setfile(-1, n->ddir, n->dname, &n->st);
	return (rv);
}

/* The link's text, however long; st_size is only a hint (0 in /proc). */
static char *
read_link(const struct node *n)
{
	char *buf, *nbuf;
	size_t size;
	ssize_t len;

	size = n->st.st_size > 0 ? (size_t)n->st.st_size + 1 : 256;
	for (buf = NULL;; size *= 2) {
		if ((nbuf = realloc(buf, size)) == NULL) {
			free(buf);
			return (NULL);
		}
		buf = nbuf;
		if ((len = readlinkat(n->sdir, n->sname, buf, size)) == -1) {
			free(buf);
			return (NULL);
		}
		if ((size_t)len < size) {
			buf[len] = '\0';
			return (buf);
		}
	}
}

/* FIFOs and device nodes under -R are made anew, never opened. */
int
copy_special(struct node *n)
{
	struct stat tst;
	int replaced;

	if (n->sfd != -1)
		(void)close(n->sfd);
	n->sfd = -1;
	for (replaced = 0;; replaced = 1) {
		if (make_special(n) == 0)
			break;
		if (errno != EEXIST || replaced) {
			warn("%s", dst.p);
			return (1);
		}
		if (fstatat(n->ddir, n->dname, &tst, AT_SYMLINK_NOFOLLOW) ==
		    -1) {
			warn("%s", dst.p);
			return (1);
		}
		if (!target_replaceable(n, &tst))
			return (1);
		if (unlinkat(n->ddir, n->dname, 0) == -1) {
			warn("%s", dst.p);
			return (1);
		}
	}
	return (pflag ? setfile(-1, n->ddir, n->dname, &n->st) : 0);
}

static int
make_special(const struct node *n)
{

	if (S_ISFIFO(n->st.st_mode))
		return (mkfifoat(n->ddir, n->dname, n->st.st_mode & MODEBITS));
	return (mknodat(n->ddir, n->dname, n->st.st_mode, n->st.st_rdev));
}

/*
 * -p: owner, mode and times, through the descriptor fd when there is
 * one, else by name relative to dir without following a link.  Owner
 * first, as a change of owner may clear the set-id bits; when the owner
 * cannot be kept, neither are they.  Times last.
 */
int
setfile(int fd, int dir, const char *name, const struct stat *st)
{
	struct timespec ts[2];
	mode_t mode;
	int islink, r, rv;

	rv = 0;
	islink = fd == -1 && S_ISLNK(st->st_mode);
	mode = st->st_mode & MODEBITS;
	if (fd != -1)
		r = fchown(fd, st->st_uid, st->st_gid);
	else
		r = fchownat(dir, name, st->st_uid, st->st_gid,
		    AT_SYMLINK_NOFOLLOW);
	if (r == -1) {
		if (errno != EPERM) {
			warn("chown: %s", dst.p);
			rv = 1;
		}
		mode &= ~(mode_t)(S_ISUID | S_ISGID);
	}
	if (fd != -1)
		r = fchmod(fd, mode);
	else
		r = fchmodat(dir, name, mode, islink ? AT_SYMLINK_NOFOLLOW : 0);
	/* Linux has no mode on links to keep. */
	if (r == -1 && !(islink && (errno == EOPNOTSUPP || errno == ENOTSUP))) {
		warn("chmod: %s", dst.p);
		rv = 1;
	}
	ts[0] = st->st_atim;
	ts[1] = st->st_mtim;
	if (fd != -1)
		r = futimens(fd, ts);
	else
		r = utimensat(dir, name, ts, AT_SYMLINK_NOFOLLOW);
	if (r == -1) {
		warn("utimes: %s", dst.p);
		rv = 1;
	}
	return (rv);
}

void
progress_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = progress_signal;
	sa.sa_flags = SA_RESTART;
	(void)sigemptyset(&sa.sa_mask);
#ifdef SIGINFO
	(void)sigaction(SIGINFO, &sa, NULL);
#endif
	(void)sigaction(SIGUSR1, &sa, NULL);
}

static void
put(const char *s)
{

	(void)write(STDERR_FILENO, s, strlen(s));
}

/*
 * "src -> dst  NN%", formatted by hand: printf is not safe in a signal
 * handler, write(2) is.  A size of 0 (a /proc file) gives bytes moved.
 */
static void
progress_signal(int sig)
{
	char num[32], *p;
	uintmax_t moved, size, v;
	int serrno;

	(void)sig;
	if (!pg_busy)
		return;
	serrno = errno;
	moved = bufsz_moved(engine) > 0 ? (uintmax_t)bufsz_moved(engine) : 0;
	size = pg_size > 0 ? (uintmax_t)pg_size : 0;
	if (size == 0)
		v = moved;
	else if (size > UINTMAX_MAX / 100)
		v = moved / (size / 100);
	else
		v = moved * 100 / size;
	if (size != 0 && v > 100)
		v = 100;
	p = num + sizeof(num);
	*--p = '\0';
	*--p = '\n';
	if (size != 0)
		*--p = '%';
	else {
		p -= 6;
		memcpy(p, " bytes", 6);
	}
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	put(pg_src);
	put(" -> ");
	put(pg_dst);
	put("  ");
	put(p);
	errno = serrno;
}

static void
path_room(struct pathbuf *pb, size_t more)
{
	char *p;
	size_t cap;

	if (pb->len + more < pb->cap)
		return;
	for (cap = pb->cap > 0 ? pb->cap : 256; pb->len + more >= cap;)
		cap *= 2;
	if ((p = realloc(pb->p, cap)) == NULL)
		err(1, NULL);
	pb->p = p;
	pb->cap = cap;
}

void
path_set(struct pathbuf *pb, const char *s)
{

	pb->len = 0;
	path_room(pb, strlen(s));
	(void)strcpy(pb->p, s);
	pb->len = strlen(s);
}

/* Append a component, with a slash unless one is there already. */
void
path_push(struct pathbuf *pb, const char *name)
{
	size_t nlen;

	nlen = strlen(name);
	path_room(pb, nlen + 1);
	if (pb->len > 0 && pb->p[pb->len - 1] != '/')
		pb->p[pb->len++] = '/';
	memcpy(pb->p + pb->len, name, nlen + 1);
	pb->len += nlen;
}

void
path_trunc(struct pathbuf *pb, size_t len)
{

	pb->len = len;
	pb->p[len] = '\0';
}

void
usage(void)
{

	(void)fprintf(stderr, "%s\n%s\n",
	    "usage: cp [-R [-H | -L | -P]] [-f | -i | -n] [-alpsvx] "
	    "source target",
	    "       cp [-R [-H | -L | -P]] [-f | -i | -n] [-alpsvx] "
	    "source ... directory");
	exit(1);
}
