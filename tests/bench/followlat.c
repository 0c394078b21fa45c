/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * followlat: how long a follower (tail -f) takes to show a line appended
 * to the file it follows.  It starts the command with its stdout on a
 * pipe, waits for the file's first line to come through, then n times:
 * waits a while, appends one line with write(2) and times until the last
 * byte of that line is read from the pipe.  Prints each sample in seconds,
 * one a line, in the order taken.
 *
 *	followlat [-g gap] [-n samples] [-t timeout] file command [args ...]
 *
 * The command is given whole (tail -f file); file is what followlat
 * creates and appends to.  The wait before each line is drawn at random
 * between 10 ms and 10 ms + gap (default 0.2 s), so that a follower that
 * checks on a timer is caught at every point of its period, not always
 * just after it looked.  Every byte the follower prints must be the bytes
 * appended, in order, and nothing else: otherwise, or when a line takes
 * longer than the timeout (default 10 s), followlat fails.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"

#define	MAXLINE		64

struct follow {
	int		 file;		/* the followed file, appended to */
	int		 pipe;		/* the follower's stdout */
	pid_t		 pid;
	double		 timeout;
	char		 pending[MAXLINE];	/* written, not yet read back */
	size_t		 npending;
};

static void	usage(void) __dead2;
static pid_t	start(char **, int *);
static void	append(struct follow *, const char *);
static void	read_back(struct follow *);
static void	pause_for(double);
static void	stop(struct follow *);
static void	kill_follower(void);

/* The follower, for an exit on an error: it must not outlive us. */
static pid_t	follower = -1;
static pid_t	main_pid;

static void
usage(void)
{
	fprintf(stderr, "usage: followlat [-g gap] [-n samples] [-t timeout] "
	    "file command [args ...]\n");
	exit(1);
}

/* The follower, its stdout on a pipe whose read end *rd receives. */
static pid_t
start(char **argv, int *rd)
{
	pid_t pid;
	int p[2], null;

	if (pipe(p) == -1)
		err(1, "pipe");
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		/* Its own group, so that what it starts is stopped too. */
		(void)setpgid(0, 0);
		(void)close(p[0]);
		if ((null = open("/dev/null", O_RDONLY)) == -1 ||
		    dup2(null, STDIN_FILENO) == -1 ||
		    dup2(p[1], STDOUT_FILENO) == -1)
			err(127, "child");
		(void)close(null);
		(void)close(p[1]);
		(void)signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	(void)setpgid(pid, pid);
	(void)close(p[1]);
	*rd = p[0];
	return (pid);
}

/* Append one line to the file, whole, and expect it back. */
static void
append(struct follow *f, const char *line)
{
	size_t len;

	len = strlen(line);
	if (len > sizeof(f->pending) - f->npending)
		errx(1, "internal: line too long");
	memcpy(f->pending + f->npending, line, len);
	f->npending += len;
	if (write(f->file, line, len) != (ssize_t)len)
		err(1, "write to the followed file");
}

/*
 * Read from the follower until everything appended has come back; any
 * other byte, the follower's end of output or the timeout is a failure.
 */
static void
read_back(struct follow *f)
{
	struct pollfd pfd;
	char buf[MAXLINE];
	double deadline, left;
	ssize_t n;
	int r;

	deadline = bench_now() + f->timeout;
	while (f->npending > 0) {
		left = deadline - bench_now();
		if (left <= 0)
			errx(1, "no output %g s after a line was appended",
			    f->timeout);
		pfd.fd = f->pipe;
		pfd.events = POLLIN;
		if ((r = poll(&pfd, 1, (int)(left * 1000) + 1)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (r == 0)
			continue;
		if ((n = read(f->pipe, buf, f->npending)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "read from the follower");
		}
		if (n == 0)
			errx(1, "the follower exited");
		if (memcmp(buf, f->pending, (size_t)n) != 0)
			errx(1, "the follower printed \"%.*s\", not \"%.*s\"",
			    (int)n, buf, (int)n, f->pending);
		memmove(f->pending, f->pending + n, f->npending - (size_t)n);
		f->npending -= (size_t)n;
	}
}

static void
pause_for(double sec)
{
	struct timespec ts;

	ts.tv_sec = (time_t)sec;
	ts.tv_nsec = (long)((sec - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		continue;
}

/*
 * Stop the follower; it must not have printed anything more, which the
 * pipe shows once it has exited and its end is closed.
 */
static void
stop(struct follow *f)
{
	char c;
	int status;

	(void)kill(-f->pid, SIGTERM);
	if (waitpid(f->pid, &status, 0) == -1)
		err(1, "waitpid");
	follower = -1;
	/* A child of the follower may still hold the pipe: do not wait. */
	if (fcntl(f->pipe, F_SETFL, O_NONBLOCK) == -1)
		err(1, "fcntl");
	switch (read(f->pipe, &c, 1)) {
	case 0:
		break;
	case -1:
		if (errno == EAGAIN)
			break;
		err(1, "read from the follower");
	default:
		errx(1, "the follower printed more than was appended");
	}
	(void)close(f->pipe);
}

static void
kill_follower(void)
{
	if (follower != -1 && getpid() == main_pid) {
		(void)kill(-follower, SIGTERM);
		(void)waitpid(follower, NULL, 0);
	}
}

int
main(int argc, char *argv[])
{
	struct follow f;
	char line[MAXLINE];
	const char *path;
	double gap, t0, t1;
	int ch, i, n;

	gap = 0.2;
	n = 10;
	memset(&f, 0, sizeof(f));
	f.timeout = 10;
	while ((ch = getopt(argc, argv, "+g:n:t:")) != -1)
		switch (ch) {
		case 'g':
			gap = strtod(optarg, NULL);
			if (gap < 0)
				usage();
			break;
		case 'n':
			n = (int)bench_size(optarg);
			break;
		case 't':
			f.timeout = strtod(optarg, NULL);
			if (f.timeout <= 0)
				usage();
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	path = argv[0];
	(void)signal(SIGPIPE, SIG_IGN);
	srandom((unsigned)getpid());
	main_pid = getpid();
	if (atexit(kill_follower) != 0)
		errx(1, "atexit");

	if ((f.file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND,
	    0644)) == -1)
		err(1, "%s", path);
	/* The follower shows the file's last lines first: this one. */
	append(&f, "followlat 0\n");
	f.pid = follower = start(argv + 1, &f.pipe);
	read_back(&f);
	for (i = 1; i <= n; i++) {
		pause_for(0.01 + gap * (double)random() / (double)RAND_MAX);
		snprintf(line, sizeof(line), "followlat %d\n", i);
		t0 = bench_now();
		append(&f, line);
		read_back(&f);
		t1 = bench_now();
		printf("%.6f\n", t1 - t0);
	}
	stop(&f);
	if (close(f.file) == -1)
		err(1, "%s", path);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return (0);
}
