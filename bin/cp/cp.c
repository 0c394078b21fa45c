/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: copy files.
 *
 * cp source target copies one thing; cp source ... directory copies each
 * source into the directory under its own name.  With -R, directories
 * are copied whole.  The walk keeps its own stack of open directory
 * descriptors, source and target side by side, and reaches every name
 * relative to them (openat, fstatat, mkdirat...), never by a path from
 * the top: a directory renamed or swapped for a symbolic link while the
 * copy runs cannot redirect it.  The bytes move through libbufsz's
 * engine.  Paths are kept only to be printed.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/*
 * Directory levels kept open (two descriptors each: 128, well inside the
 * usual limit of 1024 however deep the tree).  Deeper frames close the
 * oldest levels and open them again, through "..", on the way back up;
 * trees that deep are rare enough for that to cost nothing measurable.
 */
#define	OPEN_FRAMES	64

enum op { FILE_TO_FILE, FILE_TO_DIR, DIR_TO_DNE };

/* A directory being copied. */
struct frame {
	int		 sfd;		/* source; -1 while parked */
	int		 dfd;		/* target; -1 while parked */
	DIR		*dirp;		/* owns sfd when not NULL */
	struct stat	 st;		/* the source, for attributes */
	struct stat	 dst_st;	/* the target */
	int		 created;
	const char	*name;		/* name in the parent frame */
	char		*names;		/* (type, name, NUL)... */
	char		*next;
	char		*end;
	size_t		 slen;		/* length of its paths */
	size_t		 dlen;
};

/* Directories this run writes into, by device and inode. */
struct dirset {
	struct {
		dev_t	dev;
		ino_t	ino;
		int	used;
	}		*slot;
	size_t		 n;
	size_t		 cap;
};

int	fflag, iflag, lflag, nflag, pflag, sflag, vflag;
int	Rflag;
int	tflags;
mode_t	cmask;
struct pathbuf	src, dst;
struct bufsz_engine	*engine;

static int	Pflag, xflag, follow_root, follow_all;
static int	rval;
static struct frame	*stack;
static size_t	depth, stackcap, nparked;
static struct dirset	made;
static char	dot[] = ".";

/* Where the operand being copied starts, to find frames again. */
static const char	*root_sname, *root_dname;
static int	root_ddir;
static dev_t	root_dev;

static void	copy_operand(char *, enum op, int, const struct stat *,
		    const char *);
static void	dispatch(struct node *);
static int	copy_dir(struct node *);
static int	target_dir(struct node *, int *);
static int	read_entries(struct frame *, int, int);
static void	push_frame(const struct frame *);
static void	walk(void);
static void	visit(size_t, const char *, unsigned char);
static void	finish_dir(void);
static void	park_frames(void);
static void	reopen_frame(size_t, int, int);
static int	reopen_side(size_t, int, int);
static int	walk_down(size_t, int);
static int	is_frame(int, size_t, int);
static int	dirset_has(const struct dirset *, dev_t, ino_t);
static void	dirset_add(struct dirset *, dev_t, ino_t);

int
main(int argc, char *argv[])
{
	struct stat tst, sst;
	enum op type;
	char *target;
	size_t len;
	int Hflag, Lflag, ch, r, rflag, slash, tdir;

	if (bufsz_stdfds() != 0)
		err(1, "%s", _PATH_DEVNULL);
	Hflag = Lflag = rflag = 0;
	while ((ch = getopt(argc, argv, "HLPRafilnprsvx")) != -1)
		switch (ch) {
		case 'H':
			Hflag = 1;
			Lflag = Pflag = 0;
			break;
		case 'L':
			Lflag = 1;
			Hflag = Pflag = 0;
			break;
		case 'P':
			Pflag = 1;
			Hflag = Lflag = 0;
			break;
		case 'R':
			Rflag = 1;
			break;
		case 'a':
			Rflag = pflag = Pflag = 1;
			Hflag = Lflag = 0;
			break;
		case 'f':
			fflag = 1;
			iflag = nflag = 0;
			break;
		case 'i':
			iflag = 1;
			fflag = nflag = 0;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'n':
			nflag = 1;
			fflag = iflag = 0;
			break;
		case 'p':
			pflag = 1;
			break;
		case 'r':
			/* -r is -RL, as on FreeBSD. */
			rflag = Lflag = 1;
			Hflag = Pflag = 0;
			break;
		case 's':
			sflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'x':
			xflag = 1;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	if (Rflag && rflag)
		errx(1, "the -R and -r options may not be specified together");
	if (lflag && sflag)
		errx(1, "the -l and -s options may not be specified together");
	if (rflag)
		Rflag = 1;
	if (Rflag) {
		follow_root = Hflag || Lflag;
		follow_all = Lflag;
	} else
		follow_root = follow_all = !Pflag;
	tflags = !Rflag || Lflag ? 0 : AT_SYMLINK_NOFOLLOW;
	cmask = umask(0);
	(void)umask(cmask);
	if ((engine = bufsz_engine_new(BUFSZ_SPARSE)) == NULL)
		err(1, NULL);
	progress_init();

	target = argv[--argc];
	argv[argc] = NULL;
	len = strlen(target);
	slash = len > 0 && target[len - 1] == '/';
	while (len > 1 && target[len - 1] == '/')
		target[--len] = '\0';
	if (len == 0)
		target = dot;

	/*
	 * A directory target takes each source under its own name.  A
	 * target that does not exist becomes the copy of the one source
	 * (under -R, a directory whose contents are the source's).
	 */
	tdir = -1;
	if ((r = stat(target, &tst)) == -1 && errno != ENOENT)
		err(1, "%s", target);
	if (r == -1 || !S_ISDIR(tst.st_mode)) {
		if (argc > 1)
			errx(1, "%s is not a directory", target);
		type = FILE_TO_FILE;
		if (r == -1 && Rflag && fstatat(AT_FDCWD, argv[0], &sst,
		    follow_root ? 0 : AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(sst.st_mode))
			type = DIR_TO_DNE;
		if (slash && type == FILE_TO_FILE) {
			if (r == -1)
				errx(1, "directory %s does not exist", target);
			errx(1, "%s is not a directory", target);
		}
	} else {
		type = FILE_TO_DIR;
		if ((tdir = open(target, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1 || fstat(tdir, &tst) == -1)
			err(1, "%s", target);
	}

	for (; *argv != NULL; argv++)
		copy_operand(*argv, type, tdir, &tst, target);

	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("stdout");
		rval = 1;
	}
	bufsz_engine_free(engine);
	exit(rval);
}

/* One command-line source, and under -R everything below it. */
static void
copy_operand(char *path, enum op type, int tdir, const struct stat *tst,
    const char *target)
{
	struct node n;
	const char *base;

	memset(&n, 0, sizeof(n));
	n.sdir = AT_FDCWD;
	n.sname = path;
	n.sfd = -1;
	n.followed = follow_root;
	path_set(&src, path);
	if (fstatat(AT_FDCWD, path, &n.st,
	    follow_root ? 0 : AT_SYMLINK_NOFOLLOW) == -1) {
		warn("%s", path);
		rval = 1;
		return;
	}
	path_set(&dst, target);
	if (type == FILE_TO_DIR) {
		n.ddir = tdir;
		n.dirst = tst;
		base = strrchr(path, '/');
		base = base != NULL ? base + 1 : path;
		/* "dir/", "." and "..": the contents, into the directory. */
		if (*base == '\0' || strcmp(base, ".") == 0 ||
		    strcmp(base, "..") == 0)
			n.dname = ".";
		else {
			n.dname = base;
			path_push(&dst, base);
		}
	} else {
		n.ddir = AT_FDCWD;
		n.dname = target;
	}
	root_sname = n.sname;
	root_ddir = n.ddir;
	root_dname = n.dname;
	root_dev = n.st.st_dev;
	dispatch(&n);
	walk();
}

/* Copy what n is; directories are pushed for walk() to go through. */
static void
dispatch(struct node *n)
{
	int r;

	switch (n->st.st_mode & S_IFMT) {
	case S_IFDIR:
		if (!Rflag) {
			warnx("%s is a directory (not copied).", src.p);
			r = 1;
		} else
			r = copy_dir(n);
		if (n->sfd != -1)
			(void)close(n->sfd);
		if (r != 0)
			rval = 1;
		return;
	case S_IFLNK:
		r = copy_link(n);
		break;
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
		r = Rflag && !sflag ? copy_special(n) : copy_file(n);
		break;
	case S_IFSOCK:
		warnx("%s is a socket (not copied).", src.p);
		if (n->sfd != -1)
			(void)close(n->sfd);
		return;
	default:
		r = copy_file(n);
		break;
	}
	if (r != 0)
		rval = 1;
	else if (vflag)
		(void)printf("%s -> %s\n", src.p, dst.p);
}

/*
 * Start copying a directory: open it, make or open its target, read its
 * entries and push a frame.  The entries are read whole before any is
 * copied, so that what the copy creates inside the source (cp -R d d)
 * is not taken for source.
 */
static int
copy_dir(struct node *n)
{
	struct frame f;
	size_t i;
	int sfd;

	if ((sfd = n->sfd) == -1) {
		sfd = openat(n->sdir, n->sname, O_RDONLY | O_DIRECTORY |
		    O_NOCTTY | O_CLOEXEC | (n->followed ? 0 : O_NOFOLLOW));
		if (sfd == -1 || fstat(sfd, &n->st) == -1) {
			warn("%s", src.p);
			if (sfd != -1)
				(void)close(sfd);
			return (1);
		}
		n->sfd = sfd;
	}
	for (i = 0; i < depth; i++)
		if (stack[i].st.st_dev == n->st.st_dev &&
		    stack[i].st.st_ino == n->st.st_ino) {
			warnx("%s: directory causes a cycle", src.p);
			return (1);
		}
	/* Our own copy, met inside the source: not copied again. */
	if (dirset_has(&made, n->st.st_dev, n->st.st_ino))
		return (0);

	memset(&f, 0, sizeof(f));
	f.st = n->st;
	f.name = n->sname;
	if ((f.dfd = target_dir(n, &f.created)) == -1)
		return (1);
	if (fstat(f.dfd, &f.dst_st) == -1) {
		warn("%s", dst.p);
		(void)close(f.dfd);
		return (1);
	}
	dirset_add(&made, f.dst_st.st_dev, f.dst_st.st_ino);
	if (read_entries(&f, sfd,
	    !xflag || n->st.st_dev == root_dev) == -1) {
		warn("%s", src.p);
		if (f.dirp != NULL) {
			(void)closedir(f.dirp);
			n->sfd = -1;
		}
		(void)close(f.dfd);
		return (1);
	}
	n->sfd = -1;		/* the frame has it now */
	f.slen = src.len;
	f.dlen = dst.len;
	push_frame(&f);
	if (vflag)
		(void)printf("%s -> %s\n", src.p, dst.p);
	return (0);
}

/* Make the target directory, or take the one there; return it open. */
static int
target_dir(struct node *n, int *created)
{
	struct stat tst;
	int fd;

	*created = mkdirat(n->ddir, n->dname,
	    (n->st.st_mode & (S_IRWXU | S_IRWXG | S_IRWXO)) | S_IRWXU) == 0;
	if (!*created) {
		if (errno != EEXIST ||
		    fstatat(n->ddir, n->dname, &tst, tflags) == -1) {
			warn("%s", dst.p);
			return (-1);
		}
		if (tst.st_dev == n->st.st_dev && tst.st_ino == n->st.st_ino) {
			warnx("%s and %s are identical (not copied).", dst.p,
			    src.p);
			return (-1);
		}
		if (!S_ISDIR(tst.st_mode)) {
			errno = ENOTDIR;
			warn("%s", dst.p);
			return (-1);
		}
	}
	fd = openat(n->ddir, n->dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (*created || tflags != 0 ? O_NOFOLLOW : 0));
	if (fd == -1)
		warn("%s", dst.p);
	return (fd);
}

/*
 * Read the names in sfd (all of them, or none when -x keeps the walk out
 * of another file system) into f, each with its type from readdir.
 */
static int
read_entries(struct frame *f, int sfd, int descend)
{
	struct dirent *de;
	char *p;
	size_t cap, len, used;

	if ((f->dirp = fdopendir(sfd)) == NULL)
		return (-1);
	f->sfd = sfd;
	cap = used = 0;
	f->names = NULL;
	for (;;) {
		errno = 0;
		if (!descend || (de = readdir(f->dirp)) == NULL)
			break;
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		len = strlen(de->d_name) + 2;
		if (used + len > cap) {
			cap = cap == 0 ? 4096 : cap * 2;
			if (cap < used + len)
				cap = used + len;
			if ((p = realloc(f->names, cap)) == NULL)
				err(1, NULL);
			f->names = p;
		}
		f->names[used] = (char)de->d_type;
		memcpy(f->names + used + 1, de->d_name, len - 1);
		used += len;
	}
	if (errno != 0) {
		free(f->names);
		return (-1);
	}
	f->next = f->names;
	f->end = f->names != NULL ? f->names + used : NULL;
	return (0);
}

static void
push_frame(const struct frame *f)
{
	struct frame *p;
	size_t cap;

	if (depth == stackcap) {
		cap = stackcap == 0 ? 16 : stackcap * 2;
		if ((p = reallocarray(stack, cap, sizeof(*p))) == NULL)
			err(1, NULL);
		stack = p;
		stackcap = cap;
	}
	stack[depth++] = *f;
	park_frames();
}

/* Copy the entries of the top frame; when done, finish and pop it. */
static void
walk(void)
{
	struct frame *f;
	const char *name;
	unsigned char type;
	size_t i;

	while (depth > 0) {
		i = depth - 1;
		f = &stack[i];
		if (f->next == f->end) {
			finish_dir();
			continue;
		}
		type = (unsigned char)*f->next;
		name = f->next + 1;
		f->next += strlen(name) + 2;
		path_push(&src, name);
		path_push(&dst, name);
		visit(i, name, type);
		if (depth == i + 1) {
			path_trunc(&src, stack[i].slen);
			path_trunc(&dst, stack[i].dlen);
		}
	}
}

/*
 * One entry of frame i.  Where readdir says it is a file or a directory,
 * open it first and fstat the descriptor: one call fewer than fstatat
 * then open, and what is copied is what was looked at.  O_NONBLOCK, lest
 * it has become a FIFO since.
 */
static void
visit(size_t i, const char *name, unsigned char type)
{
	struct node n;
	int fd;

	memset(&n, 0, sizeof(n));
	n.sdir = stack[i].sfd;
	n.sname = name;
	n.ddir = stack[i].dfd;
	n.dname = name;
	n.followed = follow_all;
	n.dirst = &stack[i].dst_st;
	fd = -1;
	if (type == DT_REG || type == DT_DIR) {
		fd = openat(n.sdir, name, O_RDONLY | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC | (follow_all ? 0 : O_NOFOLLOW) |
		    (type == DT_DIR ? O_DIRECTORY : 0));
		if (fd == -1 && errno != ELOOP && errno != ENOTDIR) {
			warn("%s", src.p);
			rval = 1;
			return;
		}
		if (fd != -1 && fstat(fd, &n.st) == -1) {
			warn("%s", src.p);
			(void)close(fd);
			rval = 1;
			return;
		}
	}
	if (fd == -1 && fstatat(n.sdir, name, &n.st,
	    follow_all ? 0 : AT_SYMLINK_NOFOLLOW) == -1) {
		warn("%s", src.p);
		rval = 1;
		return;
	}
	n.sfd = fd;
	dispatch(&n);
}

/*
 * The top frame's entries are done: its attributes now, so that copying
 * the contents did not change its times, then pop it.
 */
static void
finish_dir(void)
{
	struct frame *f;
	mode_t made_mode, mode;

	f = &stack[depth - 1];
	if (f->dfd != -1 && pflag) {
		if (setfile(f->dfd, -1, NULL, &f->st) != 0)
			rval = 1;
	} else if (f->dfd != -1 && f->created) {
		/* mkdir left out the set-id and sticky bits, or owner rwx. */
		mode = f->st.st_mode & (S_ISUID | S_ISGID | S_ISVTX |
		    S_IRWXU | S_IRWXG | S_IRWXO) & ~cmask;
		made_mode = (f->st.st_mode | S_IRWXU) &
		    (S_IRWXU | S_IRWXG | S_IRWXO) & ~cmask;
		if (mode != made_mode && fchmod(f->dfd, mode) == -1) {
			warn("chmod: %s", dst.p);
			rval = 1;
		}
	}
	if (depth >= 2 && depth - 2 < nparked)
		reopen_frame(depth - 2, f->sfd, f->dfd);
	if (f->dirp != NULL)
		(void)closedir(f->dirp);
	else if (f->sfd != -1)
		(void)close(f->sfd);
	if (f->dfd != -1)
		(void)close(f->dfd);
	free(f->names);
	depth--;
	if (depth > 0) {
		path_trunc(&src, stack[depth - 1].slen);
		path_trunc(&dst, stack[depth - 1].dlen);
	}
}

/* Keep at most OPEN_FRAMES frames open: close the oldest ones. */
static void
park_frames(void)
{
	struct frame *f;

	while (depth - nparked > OPEN_FRAMES) {
		f = &stack[nparked++];
		if (f->dirp != NULL)
			(void)closedir(f->dirp);
		else
			(void)close(f->sfd);
		(void)close(f->dfd);
		f->dirp = NULL;
		f->sfd = f->dfd = -1;
	}
}

/*
 * Open parked frame j again, from its child's descriptors.  When that
 * fails, the rest of the directory cannot be copied safely.
 */
static void
reopen_frame(size_t j, int csfd, int cdfd)
{
	struct frame *f;

	f = &stack[j];
	nparked = j;
	f->sfd = reopen_side(j, csfd, 1);
	f->dfd = reopen_side(j, cdfd, 0);
	if (f->sfd != -1 && f->dfd != -1)
		return;
	warnx("%.*s: moved during the copy (not copied further)",
	    (int)f->slen, src.p);
	rval = 1;
	if (f->sfd != -1)
		(void)close(f->sfd);
	if (f->dfd != -1)
		(void)close(f->dfd);
	f->sfd = f->dfd = -1;
	f->next = f->end;
}

/*
 * ".." of the child, if it is still the directory it was; else down
 * from the top, each step checked.  (Under -L, ".." of a directory
 * reached through a link is not the frame below.)
 */
static int
reopen_side(size_t j, int child, int issrc)
{
	int fd;

	if (child != -1) {
		fd = openat(child, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd != -1 && is_frame(fd, j, issrc))
			return (fd);
		if (fd != -1)
			(void)close(fd);
	}
	return (walk_down(j, issrc));
}

static int
walk_down(size_t j, int issrc)
{
	size_t i;
	int fd, nfd, nofollow;

	if (issrc)
		fd = openat(AT_FDCWD, root_sname, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC | (follow_root ? 0 : O_NOFOLLOW));
	else
		fd = openat(root_ddir, root_dname, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC);
	nofollow = issrc ? (follow_all ? 0 : O_NOFOLLOW) : O_NOFOLLOW;
	for (i = 0; fd != -1; i++) {
		if (!is_frame(fd, i, issrc)) {
			(void)close(fd);
			return (-1);
		}
		if (i == j)
			return (fd);
		nfd = openat(fd, stack[i + 1].name, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC | nofollow);
		(void)close(fd);
		fd = nfd;
	}
	return (-1);
}

static int
is_frame(int fd, size_t j, int issrc)
{
	struct stat sb;
	const struct stat *want;

	want = issrc ? &stack[j].st : &stack[j].dst_st;
	return (fstat(fd, &sb) == 0 && sb.st_dev == want->st_dev &&
	    sb.st_ino == want->st_ino);
}

static size_t
dirset_hash(const struct dirset *s, dev_t dev, ino_t ino)
{
	uint64_t h;

	h = ((uint64_t)dev * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)ino;
	h *= 0xff51afd7ed558ccdULL;
	return ((size_t)(h ^ (h >> 32)) & (s->cap - 1));
}

static int
dirset_has(const struct dirset *s, dev_t dev, ino_t ino)
{
	size_t i;

	if (s->cap == 0)
		return (0);
	for (i = dirset_hash(s, dev, ino); s->slot[i].used;
	    i = (i + 1) & (s->cap - 1))
		if (s->slot[i].dev == dev && s->slot[i].ino == ino)
			return (1);
	return (0);
}

static void
dirset_add(struct dirset *s, dev_t dev, ino_t ino)
{
	struct dirset old;
	size_t i;

	if (dirset_has(s, dev, ino))
		return;
	if ((s->n + 1) * 2 > s->cap) {
		old = *s;
		s->cap = old.cap == 0 ? 64 : old.cap * 2;
		s->n = 0;
		if ((s->slot = calloc(s->cap, sizeof(*s->slot))) == NULL)
			err(1, NULL);
		for (i = 0; i < old.cap; i++)
			if (old.slot[i].used)
				dirset_add(s, old.slot[i].dev,
				    old.slot[i].ino);
		free(old.slot);
	}
	for (i = dirset_hash(s, dev, ino); s->slot[i].used;
	    i = (i + 1) & (s->cap - 1))
		continue;
	s->slot[i].dev = dev;
	s->slot[i].ino = ino;
	s->slot[i].used = 1;
	s->n++;
}
