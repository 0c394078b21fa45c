/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * limits: what this machine can do at best, so that the bench report can
 * say how far cat and cp are from it.  Each figure is the median of -n
 * runs, in GB/s (10^9 bytes/s):
 *
 *	memcpy		memory to memory, buffers larger than any cache
 *	memcpy-l2	the same, a 256 KiB buffer copied over and over
 *	read		read(2) of a cached file into one 128 KiB buffer
 *	pipe		write(2) of memory into a pipe, read by a reader
 *	write-file	write(2) of memory into a new file in -d's directory
 *	write-tmpfs	the same on tmpfs
 *	cfr		copy_file_range(2), cached file to new file
 *	splice-file	splice(2) file to pipe to new file
 *	splice-null	splice(2) file to /dev/null (moves no data: a bound
 *			on the system calls, not on copying)
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"

#define	MAXRUNS		101
#define	CHUNK		(128 * 1024)	/* the read and write size */
#define	L2SIZE		(256 * 1024)
#define	MEMCPY_MAX	((size_t)256 << 20)

struct limits {
	const char	*dir;		/* where the input and new files go */
	const char	*tmpfsdir;
	char		 input[4096];
	char		 out[4096];	/* a new file, or "" */
	off_t		 size;
	int		 runs;
	int		 quiet;
	char		*buf;		/* CHUNK bytes of data */
	FILE		*raw;
};

typedef double	limitfn(struct limits *);

static void	usage(void) __dead2;
static void	make_input(struct limits *);
static int	new_output(struct limits *, const char *);
static void	end_output(struct limits *, int);
static void	write_all(int, const char *, size_t);
static double	lim_memcpy(struct limits *);
static double	lim_memcpy_l2(struct limits *);
static double	lim_read(struct limits *);
static double	lim_pipe(struct limits *);
static double	lim_write_file(struct limits *);
static double	lim_write_tmpfs(struct limits *);
static double	write_to(struct limits *, const char *);
#ifdef __linux__
static double	lim_cfr(struct limits *);
static double	lim_splice_file(struct limits *);
static double	lim_splice_null(struct limits *);
static void	splice_through(int, int, off_t);
#endif
static void	measure(struct limits *, const char *, limitfn *, const char *);
static void	cleanup(void);
static void	on_signal(int);

static struct limits *cleanup_limits;
static pid_t	main_pid;

static const struct {
	const char	*name;
	limitfn		*fn;
	const char	*what;
} table[] = {
	{ "memcpy", lim_memcpy, "memcpy, beyond the caches" },
	{ "memcpy-l2", lim_memcpy_l2, "memcpy of a 256 KiB buffer" },
	{ "read", lim_read, "read(2) of a cached file, 128 KiB" },
	{ "pipe", lim_pipe, "write(2) of memory to a pipe and a reader" },
	{ "write-file", lim_write_file, "write(2) of memory to a new file" },
	{ "write-tmpfs", lim_write_tmpfs, "the same, on tmpfs" },
#ifdef __linux__
	{ "cfr", lim_cfr, "copy_file_range(2), file to new file" },
	{ "splice-file", lim_splice_file, "splice(2), file to pipe to file" },
	{ "splice-null", lim_splice_null,
	    "splice(2) to /dev/null (moves no data)" },
#endif
};

static void
usage(void)
{
	fprintf(stderr, "usage: limits [-q] [-d dir] [-n runs] [-R rawfile] "
	    "[-s size] [-t tmpfsdir]\n"
	    "              [name ...]\n");
	exit(1);
}

static void
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "write");
		}
		p += n;
		len -= (size_t)n;
	}
}

/* Real data, as sweep makes it; read once so that it is cached. */
static void
make_input(struct limits *l)
{
	off_t left;
	size_t n;
	int fd;

	snprintf(l->input, sizeof(l->input), "%s/limits.in.%ld", l->dir,
	    (long)getpid());
	if ((fd = open(l->input, O_RDWR | O_CREAT | O_EXCL, 0600)) == -1)
		err(1, "%s", l->input);
	for (left = l->size; left > 0; left -= (off_t)n) {
		n = left < CHUNK ? (size_t)left : CHUNK;
		write_all(fd, l->buf, n);
		/* Vary the data so that no chunk repeats. */
		l->buf[(size_t)left % CHUNK] ^= (char)left;
	}
	if (fsync(fd) == -1 || lseek(fd, 0, SEEK_SET) == -1)
		err(1, "%s", l->input);
	while (read(fd, l->buf, CHUNK) > 0)
		continue;
	(void)close(fd);
}

/* A new file each run; the last one goes just before the next. */
static int
new_output(struct limits *l, const char *dir)
{
	static unsigned seq;
	int fd;

	if (l->out[0] != '\0')
		(void)unlink(l->out);
	snprintf(l->out, sizeof(l->out), "%s/limits.out.%ld.%u", dir,
	    (long)getpid(), seq++);
	if ((fd = open(l->out, O_WRONLY | O_CREAT | O_EXCL, 0600)) == -1)
		err(1, "%s", l->out);
	return (fd);
}

/* Close a new file and check that all of it arrived. */
static void
end_output(struct limits *l, int fd)
{
	struct stat st;

	if (fstat(fd, &st) == -1 || close(fd) == -1)
		err(1, "%s", l->out);
	if (st.st_size != l->size)
		errx(1, "%s: %jd bytes, not %jd", l->out,
		    (intmax_t)st.st_size, (intmax_t)l->size);
}

static double
lim_memcpy(struct limits *l)
{
	static char *a, *b;
	size_t len;
	double t;

	len = (size_t)l->size < MEMCPY_MAX ? (size_t)l->size : MEMCPY_MAX;
	if (a == NULL) {
		if ((a = malloc(len)) == NULL || (b = malloc(len)) == NULL)
			err(1, "malloc");
		memset(a, 1, len);
		memset(b, 2, len);
	}
	t = bench_now();
	memcpy(b, a, len);
	t = bench_now() - t;
	/* Keep the copy from being optimised away. */
	if (b[len / 2] != a[len / 2])
		errx(1, "memcpy");
	return ((double)len / t);
}

static double
lim_memcpy_l2(struct limits *l)
{
	static char a[L2SIZE], b[L2SIZE];
	off_t done;
	double t;

	memset(a, 1, sizeof(a));
	t = bench_now();
	for (done = 0; done < l->size; done += L2SIZE) {
		memcpy(b, a, sizeof(a));
		a[(size_t)done % L2SIZE] = b[L2SIZE - 1];
	}
	t = bench_now() - t;
	return ((double)done / t);
}

static double
lim_read(struct limits *l)
{
	off_t total;
	ssize_t n;
	double t;
	int fd;

	if ((fd = open(l->input, O_RDONLY)) == -1)
		err(1, "%s", l->input);
	total = 0;
	t = bench_now();
	while ((n = read(fd, l->buf, CHUNK)) > 0)
		total += n;
	t = bench_now() - t;
	if (n == -1)
		err(1, "%s", l->input);
	(void)close(fd);
	if (total != l->size)
		errx(1, "read %jd bytes, not %jd", (intmax_t)total,
		    (intmax_t)l->size);
	return ((double)total / t);
}

/* The reader is sweep's: 64 KiB reads, counted, the count checked. */
static double
lim_pipe(struct limits *l)
{
	static char rbuf[64 * 1024];
	long long count;
	off_t left;
	ssize_t n;
	double t;
	size_t len;
	pid_t pid;
	int p[2], r[2], status;

	if (pipe(p) == -1 || pipe(r) == -1)
		err(1, "pipe");
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		(void)close(p[1]);
		(void)close(r[0]);
		count = 0;
		while ((n = read(p[0], rbuf, sizeof(rbuf))) != 0)
			if (n > 0)
				count += n;
			else if (errno != EINTR)
				err(1, "reader");
		write_all(r[1], (const char *)&count, sizeof(count));
		_exit(0);
	}
	(void)close(p[0]);
	(void)close(r[1]);
	t = bench_now();
	for (left = l->size; left > 0; left -= (off_t)len) {
		len = left < CHUNK ? (size_t)left : CHUNK;
		write_all(p[1], l->buf, len);
	}
	(void)close(p[1]);
	if (read(r[0], &count, sizeof(count)) != sizeof(count))
		errx(1, "the reader died");
	t = bench_now() - t;
	(void)close(r[0]);
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	if (count != (long long)l->size)
		errx(1, "the reader saw %lld bytes", count);
	return ((double)l->size / t);
}

static double
write_to(struct limits *l, const char *dir)
{
	off_t left;
	size_t len;
	double t;
	int fd;

	fd = new_output(l, dir);
	t = bench_now();
	for (left = l->size; left > 0; left -= (off_t)len) {
		len = left < CHUNK ? (size_t)left : CHUNK;
		write_all(fd, l->buf, len);
	}
	t = bench_now() - t;
	end_output(l, fd);
	return ((double)l->size / t);
}

static double
lim_write_file(struct limits *l)
{
	return (write_to(l, l->dir));
}

static double
lim_write_tmpfs(struct limits *l)
{
	return (write_to(l, l->tmpfsdir));
}

#ifdef __linux__
static double
lim_cfr(struct limits *l)
{
	ssize_t n;
	double t;
	int in, out;

	if ((in = open(l->input, O_RDONLY)) == -1)
		err(1, "%s", l->input);
	out = new_output(l, l->dir);
	t = bench_now();
	while ((n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0)) > 0)
		continue;
	t = bench_now() - t;
	if (n == -1)
		err(1, "copy_file_range");
	(void)close(in);
	end_output(l, out);
	return ((double)l->size / t);
}

/* Through a pipe of 1 MiB, as libbufsz's engine takes. */
static void
splice_through(int in, int out, off_t size)
{
	ssize_t n, m;
	int p[2];

	if (pipe(p) == -1)
		err(1, "pipe");
	(void)fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	while (size > 0) {
		if ((n = splice(in, NULL, p[1], NULL, 1 << 20,
		    SPLICE_F_MOVE)) <= 0)
			err(1, "splice in");
		size -= n;
		while (n > 0) {
			if ((m = splice(p[0], NULL, out, NULL, (size_t)n,
			    SPLICE_F_MOVE)) <= 0)
				err(1, "splice out");
			n -= m;
		}
	}
	(void)close(p[0]);
	(void)close(p[1]);
}

static double
lim_splice_file(struct limits *l)
{
	double t;
	int in, out;

	if ((in = open(l->input, O_RDONLY)) == -1)
		err(1, "%s", l->input);
	out = new_output(l, l->dir);
	t = bench_now();
	splice_through(in, out, l->size);
	t = bench_now() - t;
	(void)close(in);
	end_output(l, out);
	return ((double)l->size / t);
}

static double
lim_splice_null(struct limits *l)
{
	double t;
	int in, out;

	if ((in = open(l->input, O_RDONLY)) == -1)
		err(1, "%s", l->input);
	if ((out = open("/dev/null", O_WRONLY)) == -1)
		err(1, "/dev/null");
	t = bench_now();
	splice_through(in, out, l->size);
	t = bench_now() - t;
	(void)close(in);
	(void)close(out);
	return ((double)l->size / t);
}
#endif /* __linux__ */

static void
measure(struct limits *l, const char *name, limitfn *fn, const char *what)
{
	double v[MAXRUNS], med, lo, hi;
	int i, n;

	(void)fn(l);	/* warm-up */
	for (i = 0; i < l->runs; i++) {
		v[i] = fn(l) / 1e9;
		if (!l->quiet)
			fprintf(stderr, "limits: %s run %d/%d: %.2f GB/s\n",
			    name, i + 1, l->runs, v[i]);
	}
	n = l->runs;
	bench_stats(v, n, &med, &lo, &hi);
	printf("| %s | %s | %.2f (%.2f–%.2f) |\n", name, what, med, lo, hi);
	if (l->raw != NULL)
		fprintf(l->raw, "%s\t%.4f\t%.4f\t%.4f\t%d\n", name, med, lo,
		    hi, n);
}

static void
cleanup(void)
{
	struct limits *l;

	if ((l = cleanup_limits) == NULL || getpid() != main_pid)
		return;
	if (l->out[0] != '\0')
		(void)unlink(l->out);
	if (l->input[0] != '\0')
		(void)unlink(l->input);
	l->out[0] = l->input[0] = '\0';
}

/* unlink(2) and _exit(2) are safe in a handler; exit(3) is not. */
static void
on_signal(int sig)
{
	(void)sig;
	if (getpid() == main_pid && cleanup_limits != NULL) {
		if (cleanup_limits->out[0] != '\0')
			(void)unlink(cleanup_limits->out);
		if (cleanup_limits->input[0] != '\0')
			(void)unlink(cleanup_limits->input);
	}
	_exit(1);
}

int
main(int argc, char *argv[])
{
	static struct limits l;
	const char *rawpath;
	size_t i;
	int ch, k, found;

	if ((l.dir = getenv("TMPDIR")) == NULL || *l.dir == '\0')
		l.dir = "/tmp";
	l.tmpfsdir = "/dev/shm";
	l.size = (off_t)1 << 30;
	l.runs = 5;
	rawpath = NULL;
	while ((ch = getopt(argc, argv, "d:n:qR:s:t:")) != -1)
		switch (ch) {
		case 'd':
			l.dir = optarg;
			break;
		case 'n':
			l.runs = (int)bench_size(optarg);
			if (l.runs > MAXRUNS)
				errx(1, "at most %d runs", MAXRUNS);
			break;
		case 'q':
			l.quiet = 1;
			break;
		case 'R':
			rawpath = optarg;
			break;
		case 's':
			l.size = bench_size(optarg);
			break;
		case 't':
			l.tmpfsdir = optarg;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (rawpath != NULL && (l.raw = fopen(rawpath, "a")) == NULL)
		err(1, "%s", rawpath);
	if ((l.buf = malloc(CHUNK)) == NULL)
		err(1, "malloc");
	for (i = 0; i < CHUNK; i++)
		l.buf[i] = (char)(i * 2654435761U >> 13);
	main_pid = getpid();
	cleanup_limits = &l;
	if (atexit(cleanup) != 0)
		errx(1, "atexit");
	(void)signal(SIGINT, on_signal);
	(void)signal(SIGTERM, on_signal);
	make_input(&l);

	printf("| limit | what | GB/s, median (min–max) of %d |\n", l.runs);
	printf("|---|---|---:|\n");
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		found = argc == 0;
		for (k = 0; k < argc; k++)
			if (strcmp(argv[k], table[i].name) == 0)
				found = 1;
		if (found)
			measure(&l, table[i].name, table[i].fn,
			    table[i].what);
	}
	cleanup();
	if (l.raw != NULL && fclose(l.raw) == EOF)
		err(1, "%s", rawpath);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return (0);
}
