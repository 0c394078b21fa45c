/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sweep: throughput of libbufsz's read/write loop against its buffer size,
 * per kind of output, with the input cached or not.  Its table is what the
 * policy's constants are chosen from; see tests/bench/README.
 *
 * Each run copies the whole input once through the engine forced onto the
 * read/write path at one buffer size.  Sizes and outputs are interleaved
 * across rounds, so that a slow minute on a shared machine spreads over
 * every size instead of landing on one.
 */

#include <sys/types.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"

#include "bufsz_private.h"

enum output { OUT_NULL, OUT_PIPE, OUT_FILE, OUT_TMPFS, NOUTPUT };

static const char *const outname[NOUTPUT] = {
	"null", "pipe", "file", "tmpfs"
};

/* The column headings of the table. */
static const char *const outtitle[NOUTPUT] = {
	"/dev/null", "pipe to reader", "new file", "new file (tmpfs)"
};

enum coldhow { COLD_NONE, COLD_FADVISE, COLD_DROP };

#define	MAXSIZES	32
#define	MAXRUNS		101

struct sweep {
	const char	*input;		/* the file copied */
	int		 made_input;	/* we made it, so we remove it */
	off_t		 insize;
	const char	*filedir;	/* where the "file" outputs go */
	const char	*tmpfsdir;	/* where the "tmpfs" outputs go */
	char		 outpath[4096];	/* the last output file, or "" */
	enum coldhow	 cold;
	int		 runs;
	int		 quiet;
	size_t		 readersz;	/* the pipe reader's read size */
	size_t		 sizes[MAXSIZES];
	int		 nsizes;
	int		 outs[NOUTPUT];
	int		 nouts;
	FILE		*raw;		/* every run, one line each, or NULL */
	double		 cpu;		/* CPU seconds of the last run */
	double		 gbps[MAXSIZES][NOUTPUT][MAXRUNS];
	double		 cpugbps[MAXSIZES][NOUTPUT][MAXRUNS];
};

static const size_t default_sizes[] = {
	4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10,
	256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20
};

static volatile sig_atomic_t interrupted;
static struct sweep *cleanup_sweep;	/* what to remove at exit */
static pid_t	main_pid;

static void	usage(void) __dead2;
static void	on_signal(int);
static void	parse_sizes(struct sweep *, char *);
static void	parse_outputs(struct sweep *, char *);
static const char *size_name(size_t, char *, size_t);
static double	cpu_seconds(const struct rusage *);
static double	cpu_self(void);
static void	make_input(struct sweep *, const char *);
static void	warm_input(const struct sweep *);
static void	drop_input(const struct sweep *);
static double	resident_fraction(const char *);
static void	copy_once(int, int, size_t);
static double	run_null(struct sweep *, int, size_t);
static double	run_pipe(struct sweep *, int, size_t);
static double	run_file(struct sweep *, int, size_t, const char *);
static void	remove_output(struct sweep *);
static void	cleanup(void);
static double	run_one(struct sweep *, enum output, size_t);
static void	sweep_all(struct sweep *);
static void	stats(const double *, int, double *, double *, double *);
static void	print_table(const struct sweep *,
		    double (*)[NOUTPUT][MAXRUNS]);

static void
usage(void)
{
	fprintf(stderr, "usage: sweep [-cq] [-b sizes] [-C drop | fadvise] "
	    "[-d dir] [-i input]\n"
	    "             [-n runs] [-o outputs] [-R rawfile] [-r readsize] "
	    "[-s filesize]\n"
	    "             [-t tmpfsdir]\n");
	exit(1);
}

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void
parse_sizes(struct sweep *sw, char *list)
{
	char *s;

	sw->nsizes = 0;
	while ((s = strsep(&list, ",")) != NULL) {
		if (sw->nsizes == MAXSIZES)
			errx(1, "more than %d sizes", MAXSIZES);
		sw->sizes[sw->nsizes++] = (size_t)bench_size(s);
	}
}

static void
parse_outputs(struct sweep *sw, char *list)
{
	char *s;
	int o;

	sw->nouts = 0;
	while ((s = strsep(&list, ",")) != NULL) {
		for (o = 0; o < NOUTPUT; o++)
			if (strcmp(s, outname[o]) == 0)
				break;
		if (o == NOUTPUT)
			errx(1, "%s: not an output (null, pipe, file, tmpfs)",
			    s);
		if (sw->nouts == NOUTPUT)
			errx(1, "too many outputs");
		sw->outs[sw->nouts++] = o;
	}
}

static const char *
size_name(size_t n, char *buf, size_t len)
{
	if (n >= (1 << 20) && n % (1 << 20) == 0)
		snprintf(buf, len, "%zu MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, len, "%zu KiB", n >> 10);
	else
		snprintf(buf, len, "%zu B", n);
	return (buf);
}

static double
cpu_seconds(const struct rusage *ru)
{
	return ((double)ru->ru_utime.tv_sec + (double)ru->ru_stime.tv_sec +
	    ((double)ru->ru_utime.tv_usec + (double)ru->ru_stime.tv_usec) /
	    1e6);
}

/*
 * CPU time is the second measure: on a shared machine a run's wall time
 * includes waiting for a CPU, its CPU time mostly does not.
 */
static double
cpu_self(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1)
		err(1, "getrusage");
	return (cpu_seconds(&ru));
}

/*
 * Real data, not zeros and not a sparse file: a file system or a device
 * that compresses or skips zeros would flatter every size alike.
 */
static void
make_input(struct sweep *sw, const char *dir)
{
	static char path[4096];
	uint64_t *chunk, x;
	size_t i, n, len;
	off_t left;
	int fd;

	len = 1 << 20;
	snprintf(path, sizeof(path), "%s/sweep.in.%ld", dir, (long)getpid());
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) == -1)
		err(1, "%s", path);
	sw->input = path;
	sw->made_input = 1;
	if ((chunk = malloc(len)) == NULL)
		err(1, "malloc");
	x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	for (left = sw->insize; left > 0; left -= (off_t)n) {
		for (i = 0; i < len / sizeof(*chunk); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			chunk[i] = x;
		}
		n = left < (off_t)len ? (size_t)left : len;
		if (bufsz_write_all(fd, chunk, n) == -1)
			err(1, "%s", path);
	}
	if (fsync(fd) == -1 || close(fd) == -1)
		err(1, "%s", path);
	free(chunk);
}

/* Read the input once, so that a warm run finds all of it cached. */
static void
warm_input(const struct sweep *sw)
{
	int fd;

	if ((fd = open(sw->input, O_RDONLY)) == -1)
		err(1, "%s", sw->input);
	copy_once(fd, -1, 1 << 20);
	if (close(fd) == -1)
		err(1, "%s", sw->input);
}

/*
 * Evict the input from the page cache.  drop_caches empties the whole
 * machine's cache, which other users of a shared machine feel; fadvise
 * evicts only the input's clean pages, which is all a cold run needs.
 */
static void
drop_input(const struct sweep *sw)
{
	int fd;

	if (sw->cold == COLD_DROP) {
		sync();
		if ((fd = open("/proc/sys/vm/drop_caches", O_WRONLY)) == -1)
			err(1, "/proc/sys/vm/drop_caches");
		if (write(fd, "3\n", 2) != 2)
			err(1, "/proc/sys/vm/drop_caches");
		(void)close(fd);
		return;
	}
	if ((fd = open(sw->input, O_RDONLY)) == -1)
		err(1, "%s", sw->input);
	errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (errno != 0)
		err(1, "posix_fadvise: %s", sw->input);
	(void)close(fd);
}

/* How much of a file is in the page cache: 0 to 1, or -1 if unknown. */
static double
resident_fraction(const char *path)
{
#ifdef __linux__
	struct stat st;
	unsigned char *vec;
	size_t pages, i, in;
	void *p;
	long pg;
	int fd;

	pg = sysconf(_SC_PAGESIZE);
	if ((fd = open(path, O_RDONLY)) == -1 || fstat(fd, &st) == -1)
		err(1, "%s", path);
	if (st.st_size == 0) {
		(void)close(fd);
		return (-1);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	(void)close(fd);
	if (p == MAP_FAILED)
		return (-1);
	pages = ((size_t)st.st_size + (size_t)pg - 1) / (size_t)pg;
	if ((vec = malloc(pages)) == NULL)
		err(1, "malloc");
	in = 0;
	if (mincore(p, (size_t)st.st_size, vec) == 0)
		for (i = 0; i < pages; i++)
			in += vec[i] & 1;
	free(vec);
	(void)munmap(p, (size_t)st.st_size);
	return ((double)in / (double)pages);
#else
	(void)path;
	return (-1);
#endif
}

/*
 * One copy of in to out (out -1: read only) through a bufsize buffer.
 * It is the engine's own read/write loop that the policy sizes, so that
 * is what is timed.
 */
static void
copy_once(int in, int out, size_t bufsize)
{
	struct bufsz_engine *e;
	char *buf;
	ssize_t n;
	size_t len;

	if ((e = bufsz_engine_new()) == NULL)
		err(1, "bufsz_engine_new");
	bufsz_engine_force(e, COPY_RW, bufsize);
	if (out == -1) {
		/* A read-only pass, to warm the cache. */
		if ((buf = bufsz_engine_buffer(e, NULL, NULL, &len)) == NULL)
			err(1, "bufsz_buffer");
		while ((n = bufsz_read(in, buf, len)) > 0)
			continue;
		if (n == -1)
			err(1, "read");
	} else {
		switch (bufsz_engine_copy(e, in, NULL, out, NULL, 0)) {
		case BUFSZ_OK:
			break;
		case BUFSZ_EREAD:
			err(1, "read");
		default:
			err(1, "write");
		}
		if (e->be_last != COPY_RW)
			errx(1, "the engine took %s, not rw",
			    bufsz_path_name(e->be_last));
		if (bufsz_engine_buffer(e, NULL, NULL, &len) == NULL)
			err(1, "bufsz_buffer");
		if (len != bufsize)
			errx(1, "the engine used %zu bytes, not %zu", len,
			    bufsize);
	}
	bufsz_engine_free(e);
}

static double
run_null(struct sweep *sw, int in, size_t bufsize)
{
	double t0, t1;
	int out;

	if ((out = open("/dev/null", O_WRONLY)) == -1)
		err(1, "/dev/null");
	sw->cpu = cpu_self();
	t0 = bench_now();
	copy_once(in, out, bufsize);
	t1 = bench_now();
	sw->cpu = cpu_self() - sw->cpu;
	(void)close(out);
	return (t1 - t0);
}

/*
 * The reader is the same for every size (reads of readersz bytes, which
 * it only counts), so that only the writer's buffer changes.  The clock
 * stops when the reader has seen end of file, not when the last write
 * returns: a pipe's throughput is what reaches the far end.
 */
static double
run_pipe(struct sweep *sw, int in, size_t bufsize)
{
	struct rusage ru;
	double t0, t1;
	uint64_t count;
	ssize_t n;
	char *rbuf;
	pid_t pid;
	int data[2], res[2], status;

	if (pipe(data) == -1 || pipe(res) == -1)
		err(1, "pipe");
	switch (pid = fork()) {
	case -1:
		err(1, "fork");
	case 0:
		(void)close(data[1]);
		(void)close(res[0]);
		if ((rbuf = malloc(sw->readersz)) == NULL)
			err(1, "malloc");
		memset(rbuf, 0, sw->readersz);
		count = 0;
		while ((n = read(data[0], rbuf, sw->readersz)) != 0) {
			if (n == -1) {
				if (errno == EINTR)
					continue;
				err(1, "reader");
			}
			count += (uint64_t)n;
		}
		if (bufsz_write_all(res[1], &count, sizeof(count)) == -1)
			err(1, "reader");
		_exit(0);
	}
	(void)close(data[0]);
	(void)close(res[1]);
	sw->cpu = cpu_self();
	t0 = bench_now();
	copy_once(in, data[1], bufsize);
	if (close(data[1]) == -1)
		err(1, "pipe");
	if (bufsz_read(res[0], &count, sizeof(count)) != sizeof(count))
		errx(1, "the pipe reader died");
	t1 = bench_now();
	sw->cpu = cpu_self() - sw->cpu;
	(void)close(res[0]);
	if (wait4(pid, &status, 0, &ru) == -1)
		err(1, "wait4");
	sw->cpu += cpu_seconds(&ru);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		errx(1, "the pipe reader failed");
	if (count != (uint64_t)sw->insize)
		errx(1, "the pipe reader saw %" PRIu64 " bytes, not %jd",
		    count, (intmax_t)sw->insize);
	return (t1 - t0);
}

/*
 * A new file each run: rewriting one file would time overwriting cached
 * pages, not what cp does.  The previous output is removed just before:
 * on a virtual machine that hands freed memory back to its host, a pause
 * between freeing the pages and touching new ones makes the new ones
 * slower.
 */
static double
run_file(struct sweep *sw, int in, size_t bufsize, const char *dir)
{
	static unsigned seq;
	struct stat st;
	double t0, t1;
	int out;

	remove_output(sw);
	snprintf(sw->outpath, sizeof(sw->outpath), "%s/sweep.out.%ld.%u",
	    dir, (long)getpid(), seq++);
	if ((out = open(sw->outpath, O_WRONLY | O_CREAT | O_EXCL, 0600)) ==
	    -1)
		err(1, "%s", sw->outpath);
	sw->cpu = cpu_self();
	t0 = bench_now();
	copy_once(in, out, bufsize);
	t1 = bench_now();
	sw->cpu = cpu_self() - sw->cpu;
	if (fstat(out, &st) == -1 || close(out) == -1)
		err(1, "%s", sw->outpath);
	if (st.st_size != sw->insize)
		errx(1, "%s: %jd bytes, not %jd", sw->outpath,
		    (intmax_t)st.st_size, (intmax_t)sw->insize);
	return (t1 - t0);
}

static void
remove_output(struct sweep *sw)
{
	if (sw->outpath[0] != '\0' && unlink(sw->outpath) == -1)
		warn("%s", sw->outpath);
	sw->outpath[0] = '\0';
}

/* The files we made go however we exit, but not when a reader exits. */
static void
cleanup(void)
{
	struct sweep *sw;

	if ((sw = cleanup_sweep) == NULL || getpid() != main_pid)
		return;
	remove_output(sw);
	if (sw->made_input && unlink(sw->input) == -1)
		warn("%s", sw->input);
	sw->made_input = 0;
}

/* One run: returns its seconds. */
static double
run_one(struct sweep *sw, enum output o, size_t bufsize)
{
	double t;
	int in;

	if (sw->cold != COLD_NONE)
		drop_input(sw);
	if ((in = open(sw->input, O_RDONLY)) == -1)
		err(1, "%s", sw->input);
	switch (o) {
	case OUT_NULL:
		t = run_null(sw, in, bufsize);
		break;
	case OUT_PIPE:
		t = run_pipe(sw, in, bufsize);
		break;
	case OUT_FILE:
		t = run_file(sw, in, bufsize, sw->filedir);
		break;
	default:
		t = run_file(sw, in, bufsize, sw->tmpfsdir);
		break;
	}
	(void)close(in);
	return (t);
}

/*
 * Round r visits the sizes starting at the r-th, forwards on even rounds
 * and backwards on odd ones; each size visits every output in turn.
 */
static void
sweep_all(struct sweep *sw)
{
	char name[32];
	double t;
	int r, k, i, j, o;

	for (r = 0; r < sw->runs && !interrupted; r++)
		for (k = 0; k < sw->nsizes && !interrupted; k++) {
			i = (r + k) % sw->nsizes;
			if (r % 2 == 1)
				i = sw->nsizes - 1 - i;
			for (j = 0; j < sw->nouts && !interrupted; j++) {
				o = sw->outs[(j + r) % sw->nouts];
				t = run_one(sw, o, sw->sizes[i]);
				sw->gbps[i][o][r] = (double)sw->insize / t /
				    1e9;
				sw->cpugbps[i][o][r] = (double)sw->insize /
				    sw->cpu / 1e9;
				size_name(sw->sizes[i], name, sizeof(name));
				if (!sw->quiet)
					fprintf(stderr, "sweep: %s run %d/%d: "
					    "%s -> %s: %.2f GB/s, %.2f per "
					    "CPU s\n",
					    sw->cold != COLD_NONE ? "cold" :
					    "warm", r + 1, sw->runs, name,
					    outname[o], sw->gbps[i][o][r],
					    sw->cpugbps[i][o][r]);
				if (sw->raw != NULL)
					fprintf(sw->raw, "%s\t%s\t%zu\t%d\t"
					    "%.6f\t%.6f\t%jd\t%.4f\t%.4f\n",
					    sw->cold != COLD_NONE ? "cold" :
					    "warm", outname[o], sw->sizes[i],
					    r + 1, t, sw->cpu,
					    (intmax_t)sw->insize,
					    sw->gbps[i][o][r],
					    sw->cpugbps[i][o][r]);
			}
		}
	if (interrupted)
		errx(1, "interrupted");
}

static void
stats(const double *v, int n, double *med, double *lo, double *hi)
{
	double s[MAXRUNS];

	/* The runs stay in the order they ran, for the raw file. */
	memcpy(s, v, (size_t)n * sizeof(*s));
	bench_stats(s, n, med, lo, hi);
}

/* GB/s (10^9 bytes), median (min-max); each column's best in bold. */
static void
print_table(const struct sweep *sw, double (*v)[NOUTPUT][MAXRUNS])
{
	double med[MAXSIZES][NOUTPUT], lo, hi, best;
	char name[32];
	int i, j, k, o;

	printf("| buffer |");
	for (j = 0; j < sw->nouts; j++)
		printf(" %s |", outtitle[sw->outs[j]]);
	printf("\n|---:|");
	for (j = 0; j < sw->nouts; j++)
		printf("---:|");
	printf("\n");
	for (i = 0; i < sw->nsizes; i++)
		for (j = 0; j < sw->nouts; j++) {
			o = sw->outs[j];
			stats(v[i][o], sw->runs, &med[i][o], &lo, &hi);
		}
	for (i = 0; i < sw->nsizes; i++) {
		printf("| %s |", size_name(sw->sizes[i], name, sizeof(name)));
		for (j = 0; j < sw->nouts; j++) {
			o = sw->outs[j];
			best = 0;
			for (k = 0; k < sw->nsizes; k++)
				if (med[k][o] > best)
					best = med[k][o];
			stats(v[i][o], sw->runs, &med[i][o], &lo, &hi);
			printf(med[i][o] == best ? " **%.2f** (%.2f–%.2f) |" :
			    " %.2f (%.2f–%.2f) |", med[i][o], lo, hi);
		}
		printf("\n");
	}
}

int
main(int argc, char *argv[])
{
	static struct sweep sw;
	const char *tmpdir, *dir, *rawpath;
	double frac;
	struct stat st;
	int ch, i;

	if ((tmpdir = getenv("TMPDIR")) == NULL || *tmpdir == '\0')
		tmpdir = "/tmp";
	dir = tmpdir;
	sw.tmpfsdir = "/dev/shm";
	sw.runs = 5;
	sw.insize = (off_t)1 << 30;
	sw.readersz = 64 << 10;
	sw.nsizes = (int)(sizeof(default_sizes) / sizeof(default_sizes[0]));
	memcpy(sw.sizes, default_sizes, sizeof(default_sizes));
	sw.outs[0] = OUT_NULL;
	sw.outs[1] = OUT_PIPE;
	sw.outs[2] = OUT_FILE;
	sw.nouts = 3;
	rawpath = NULL;
	while ((ch = getopt(argc, argv, "b:C:cd:i:n:o:qR:r:s:t:")) != -1)
		switch (ch) {
		case 'b':
			parse_sizes(&sw, optarg);
			break;
		case 'C':
			if (strcmp(optarg, "drop") == 0)
				sw.cold = COLD_DROP;
			else if (strcmp(optarg, "fadvise") == 0)
				sw.cold = COLD_FADVISE;
			else
				usage();
			break;
		case 'c':
			if (sw.cold == COLD_NONE)
				sw.cold = COLD_FADVISE;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'i':
			sw.input = optarg;
			break;
		case 'n':
			sw.runs = (int)bench_size(optarg);
			if (sw.runs > MAXRUNS)
				errx(1, "at most %d runs", MAXRUNS);
			break;
		case 'o':
			parse_outputs(&sw, optarg);
			break;
		case 'q':
			sw.quiet = 1;
			break;
		case 'R':
			rawpath = optarg;
			break;
		case 'r':
			sw.readersz = (size_t)bench_size(optarg);
			break;
		case 's':
			sw.insize = (off_t)bench_size(optarg);
			break;
		case 't':
			sw.tmpfsdir = optarg;
			break;
		default:
			usage();
		}
	if (optind != argc)
		usage();
	sw.filedir = dir;
	if (rawpath != NULL && (sw.raw = fopen(rawpath, "a")) == NULL)
		err(1, "%s", rawpath);
	(void)signal(SIGINT, on_signal);
	(void)signal(SIGTERM, on_signal);
	(void)signal(SIGPIPE, SIG_IGN);

	main_pid = getpid();
	cleanup_sweep = &sw;
	if (atexit(cleanup) != 0)
		errx(1, "atexit");
	if (sw.input == NULL)
		make_input(&sw, dir);
	if (stat(sw.input, &st) == -1)
		err(1, "%s", sw.input);
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		errx(1, "%s: not a non-empty regular file", sw.input);
	sw.insize = st.st_size;

	warm_input(&sw);
	if (sw.cold != COLD_NONE)
		drop_input(&sw);
	frac = resident_fraction(sw.input);
	if (frac >= 0 && !sw.quiet)
		fprintf(stderr, "sweep: %.0f%% of the input is cached before "
		    "the first run\n", frac * 100);
	/* A warm-up run of each output, not counted. */
	for (i = 0; i < sw.nouts; i++)
		(void)run_one(&sw, sw.outs[i], 128 << 10);
	sweep_all(&sw);
	cleanup();
	printf("Wall clock, GB/s (10^9 bytes/s): median (min–max) of %d "
	    "runs\n\n", sw.runs);
	print_table(&sw, sw.gbps);
	printf("\nPer CPU second (user+sys of the copier%s), GB/s\n\n",
	    sw.nouts > 1 || sw.outs[0] == OUT_PIPE ? "; and of the pipe's "
	    "reader" : "");
	print_table(&sw, sw.cpugbps);
	if (sw.raw != NULL && fclose(sw.raw) == EOF)
		err(1, "%s", rawpath);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return (0);
}
