/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * timeit: run one command (or a producer piped into a consumer) once and
 * print its wall time, CPU time and peak resident set size on one line:
 *
 *	seconds user_s sys_s maxrss_kib status bytes
 *
 * The bench scripts call it once per run, so that their own forks, globs
 * and clean-ups stay outside the timed window.  The CPU seconds are of
 * every process the run started, and of timeit's own counting consumer
 * (-c).  bytes is what the counting consumer saw, what a windowed command
 * wrote (-w), or -1.
 *
 * A windowed producer (-w) is stopped with SIGTERM when the window ends;
 * a consumer command then sees the end of its input and reports what it
 * read (wc -c).  With -p, a producer that a consumer command stops on
 * purpose by closing its end (head -c N) may die of SIGPIPE or exit 1
 * after EPIPE: the consumer's status is the run's.
 */

#include <sys/types.h>
#include <sys/resource.h>
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

/* The counting consumer's read size: the pipe's default capacity. */
#define	COUNT_READSZ	(64 * 1024)

struct timeit {
	const char	*in;		/* the command's stdin, or NULL */
	const char	*out;		/* its (or the consumer's) stdout */
	int		 append;
	int		 count;		/* pipe into the counting consumer */
	int		 cutoff;	/* the consumer may stop the producer */
	double		 window;	/* stop after so many seconds, or 0 */
	uint64_t	 limit;		/* the consumer stops after this, or 0 */
	char		**prod;		/* the command */
	char		**cons;		/* the consumer command, or NULL */
};

static void	usage(void) __dead2;
static double	tv_seconds(const struct timeval *);
static void	redirect(const char *, int, int);
static pid_t	spawn(char **, int, int, const char *, int);
static uint64_t	count_pipe(int, uint64_t, double, double);
static int64_t	written_by(pid_t);
static int	status_code(int);
static void	end_window(double, pid_t, int64_t *, double *);

static void
usage(void)
{
	fprintf(stderr, "usage: timeit [-acp] [-i input] [-l bytes] "
	    "[-o output] [-w seconds]\n"
	    "              command [args ...] ['|' consumer [args ...]]\n");
	exit(1);
}

static double
tv_seconds(const struct timeval *tv)
{
	return ((double)tv->tv_sec + (double)tv->tv_usec / 1e6);
}

/* In a child: put path on fd, or leave fd alone when path is NULL. */
static void
redirect(const char *path, int fd, int flags)
{
	int f;

	if (path == NULL)
		return;
	if ((f = open(path, flags, 0644)) == -1)
		err(127, "%s", path);
	if (f != fd) {
		if (dup2(f, fd) == -1)
			err(127, "dup2");
		(void)close(f);
	}
}

/*
 * Start argv with stdin from infd or inpath, stdout to outfd or outpath
 * (-1 and NULL: unchanged).
 */
static pid_t
spawn(char **argv, int infd, int outfd, const char *outpath, int oflags)
{
	pid_t pid;

	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid != 0)
		return (pid);
	if (infd != -1 && infd != STDIN_FILENO) {
		if (dup2(infd, STDIN_FILENO) == -1)
			err(127, "dup2");
		(void)close(infd);
	}
	if (outfd != -1 && outfd != STDOUT_FILENO) {
		if (dup2(outfd, STDOUT_FILENO) == -1)
			err(127, "dup2");
		(void)close(outfd);
	}
	redirect(outpath, STDOUT_FILENO, oflags);
	(void)signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	err(127, "%s", argv[0]);
}

/*
 * The fixed consumer: reads COUNT_READSZ at a time and counts, until end
 * of file, limit bytes, or the window has passed since t0.  Returns the
 * count; closing the pipe afterwards stops the producer (SIGPIPE).
 */
static uint64_t
count_pipe(int fd, uint64_t limit, double window, double t0)
{
	static char buf[COUNT_READSZ];
	uint64_t count;
	size_t want;
	ssize_t n;

	count = 0;
	for (;;) {
		want = sizeof(buf);
		if (limit != 0 && limit - count < want)
			want = (size_t)(limit - count);
		if (want == 0)
			break;
		if ((n = read(fd, buf, want)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "read");
		}
		if (n == 0)
			break;
		count += (uint64_t)n;
		/* Checking the clock every read costs little next to it. */
		if (window > 0 && bench_now() - t0 >= window)
			break;
	}
	return (count);
}

/* The bytes a running process has written so far, or -1 if unknown. */
static int64_t
written_by(pid_t pid)
{
#ifdef __linux__
	char path[64], line[128];
	long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/io", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return (-1);
	v = -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "wchar: %lld", &v) == 1)
			break;
	(void)fclose(f);
	return ((int64_t)v);
#else
	(void)pid;
	return (-1);
#endif
}

/*
 * Let the producer run for the window, then stop it: the time is cut and
 * its bytes counted at that moment.
 */
static void
end_window(double window, pid_t prod, int64_t *bytes, double *tcut)
{
	struct timespec ts;

	ts.tv_sec = (time_t)window;
	ts.tv_nsec = (long)((window - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		continue;
	*bytes = written_by(prod);
	*tcut = bench_now();
	(void)kill(prod, SIGTERM);
}

/* An exit status as the shell would show it. */
static int
status_code(int status)
{
	if (WIFEXITED(status))
		return (WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return (128 + WTERMSIG(status));
	return (255);
}

int
main(int argc, char *argv[])
{
	struct timeit t;
	struct rusage ru, cru, self;
	double t0, t1, tcut, sec, utime, stime;
	int64_t bytes;
	pid_t prod, cons;
	int ch, i, p[2], status, cstatus, oflags;

	memset(&t, 0, sizeof(t));
	while ((ch = getopt(argc, argv, "+acpi:l:o:w:")) != -1)
		switch (ch) {
		case 'a':
			t.append = 1;
			break;
		case 'c':
			t.count = 1;
			break;
		case 'p':
			t.cutoff = 1;
			break;
		case 'i':
			t.in = optarg;
			break;
		case 'l':
			t.limit = strtoull(optarg, NULL, 10);
			break;
		case 'o':
			t.out = optarg;
			break;
		case 'w':
			t.window = strtod(optarg, NULL);
			if (t.window <= 0)
				usage();
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		usage();
	t.prod = argv;
	for (i = 0; i < argc; i++)
		if (strcmp(argv[i], "|") == 0) {
			argv[i] = NULL;
			t.cons = argv + i + 1;
			if (t.cons[0] == NULL)
				usage();
			break;
		}
	if (t.cons != NULL && t.count)
		errx(1, "-c and a consumer command exclude each other");
	oflags = O_WRONLY | O_CREAT | (t.append ? O_APPEND : O_TRUNC);
	if (t.out == NULL)
		t.out = "/dev/null";
	(void)signal(SIGPIPE, SIG_IGN);

	bytes = -1;
	cons = -1;
	cstatus = 0;
	tcut = 0;
	t0 = bench_now();
	if (t.cons != NULL || t.count) {
		/* Only the producer and the consumer may hold the pipe. */
		if (pipe(p) == -1 || fcntl(p[0], F_SETFD, FD_CLOEXEC) == -1 ||
		    fcntl(p[1], F_SETFD, FD_CLOEXEC) == -1)
			err(1, "pipe");
		if (t.in != NULL) {
			if ((i = open(t.in, O_RDONLY)) == -1)
				err(1, "%s", t.in);
		} else
			i = -1;
		prod = spawn(t.prod, i, p[1], NULL, 0);
		if (i != -1)
			(void)close(i);
		(void)close(p[1]);
		if (t.count) {
			bytes = (int64_t)count_pipe(p[0], t.limit, t.window,
			    t0);
			tcut = bench_now();
		} else
			cons = spawn(t.cons, p[0], -1, t.out, oflags);
		(void)close(p[0]);
		if (cons != -1 && t.window > 0)
			end_window(t.window, prod, &bytes, &tcut);
	} else {
		if ((i = t.in != NULL ? open(t.in, O_RDONLY) : -1) == -1 &&
		    t.in != NULL)
			err(1, "%s", t.in);
		prod = spawn(t.prod, i, -1, t.out, oflags);
		if (i != -1)
			(void)close(i);
		if (t.window > 0)
			end_window(t.window, prod, &bytes, &tcut);
	}
	if (wait4(prod, &status, 0, &ru) == -1)
		err(1, "wait4");
	t1 = bench_now();
	if (cons != -1) {
		if (waitpid(cons, &cstatus, 0) == -1)
			err(1, "waitpid");
		t1 = bench_now();
	}
	/*
	 * A bounded run is timed to the moment it was cut, and it is
	 * stopped on purpose: by SIGTERM, or by SIGPIPE (or EPIPE, for
	 * those that ignore the signal) when the counting consumer closes
	 * its end.  Its output is checked by an unbounded run beforehand.
	 */
	sec = t1 - t0;
	if (tcut > 0 && (t.window > 0 || t.limit > 0)) {
		sec = tcut - t0;
		if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGPIPE ||
		    WTERMSIG(status) == SIGTERM))
			status = 0;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			status = 0;
	}
	if (t.cutoff && cons != -1 && ((WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGPIPE) ||
	    (WIFEXITED(status) && WEXITSTATUS(status) == 1)))
		status = 0;
	/*
	 * CPU time is everything this run started; the peak RSS is the
	 * producer's and its waited-for descendants' (wait4 reports both).
	 */
	if (getrusage(RUSAGE_CHILDREN, &cru) == -1)
		err(1, "getrusage");
	utime = tv_seconds(&cru.ru_utime);
	stime = tv_seconds(&cru.ru_stime);
	/* The counting consumer is this process: its reads count too. */
	if (t.count) {
		if (getrusage(RUSAGE_SELF, &self) == -1)
			err(1, "getrusage");
		utime += tv_seconds(&self.ru_utime);
		stime += tv_seconds(&self.ru_stime);
	}
	printf("%.6f %.6f %.6f %ld %d %" PRId64 "\n", sec, utime, stime,
	    ru.ru_maxrss, status_code(status) != 0 ? status_code(status) :
	    status_code(cstatus), bytes);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return (0);
}
