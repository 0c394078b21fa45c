/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The copy engine: every path forced in turn on the same inputs, the
 * path each pair of descriptors takes, holes, errors on either side,
 * non-blocking pipes, and the environment.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <atf-c.h>

#include "bufsz_private.h"
#include "engine_util.h"

static enum bufsz_path expected(enum bufsz_path, mode_t, mode_t);
static pid_t	reader(const char *, int *, int, int);
static pid_t	writer(const char *, const char *, size_t, int);
static void	reap(pid_t);
static void	file_to_file(enum bufsz_path, const char *, size_t, size_t);
static void	file_to_pipe(enum bufsz_path, const char *, size_t, int, int);
static void	make_sparse(const char *, off_t, const off_t *, size_t);
static void	sparse_case(const char *, off_t, const off_t *, size_t);
static int	pipe_holds(int, const char *, enum bufsz_path, const char *);
static void	appender(const char *) __dead2;
static int	takes_unseen(void);

/*
 * The path a copy should take for a non-empty input of type it into an
 * output of type ot when p is asked for: the engine's contract on this
 * system.
 */
static enum bufsz_path
expected(enum bufsz_path p, mode_t it, mode_t ot)
{

#ifdef __linux__
	if (p == COPY_AUTO) {
		if (it == S_IFREG && ot == S_IFREG)
			return (COPY_CFR);
		if (it == S_IFIFO || ot == S_IFIFO)
			return (COPY_SPLICE);
		if (it == S_IFREG && ot == S_IFCHR)
			return (COPY_SENDFILE);
		return (COPY_RW);
	}
	if (p == COPY_SENDFILE && it != S_IFREG)
		return (COPY_RW);
	if (p == COPY_CFR && (it != S_IFREG || ot != S_IFREG))
		return (COPY_RW);
	return (p);
#else
	/* copy_file_range where the system has it, else read/write. */
	if ((p == COPY_CFR || p == COPY_AUTO) &&
	    it == S_IFREG && ot == S_IFREG)
		return (COPY_AUTO);
	return (COPY_RW);
#endif
}

/*
 * A child that reads a pipe to its end into the file out, pausing
 * delay_us after each 4 KiB when asked to be slow.  *wfd is the write
 * end, non-blocking if asked.
 */
static pid_t
reader(const char *out, int *wfd, int nonblock, int delay_us)
{
	char buf[4096];
	ssize_t n;
	pid_t pid;
	int fds[2], fd;

	ATF_REQUIRE(pipe(fds) == 0);
	ATF_REQUIRE((pid = fork()) != -1);
	if (pid == 0) {
		(void)close(fds[1]);
		if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
			_exit(1);
		while ((n = read(fds[0], buf, sizeof(buf))) > 0) {
			if (bufsz_write_all(fd, buf, (size_t)n) != 0)
				_exit(1);
			if (delay_us > 0)
				(void)usleep((useconds_t)delay_us);
		}
		_exit(n == 0 && close(fd) == 0 ? 0 : 1);
	}
	ATF_REQUIRE(close(fds[0]) == 0);
	if (nonblock)
		ATF_REQUIRE(fcntl(fds[1], F_SETFL, O_NONBLOCK) == 0);
	*wfd = fds[1];
	return (pid);
}

/*
 * A child that writes buf into the FIFO at fifo in 4 KiB pieces, pausing
 * delay_us after each when asked to be slow.
 */
static pid_t
writer(const char *fifo, const char *buf, size_t len, int delay_us)
{
	size_t off, n;
	pid_t pid;
	int fd;

	ATF_REQUIRE((pid = fork()) != -1);
	if (pid == 0) {
		if ((fd = open(fifo, O_WRONLY)) < 0)
			_exit(1);
		for (off = 0; off < len; off += n) {
			n = len - off < 4096 ? len - off : 4096;
			if (bufsz_write_all(fd, buf + off, n) != 0)
				_exit(1);
			if (delay_us > 0)
				(void)usleep((useconds_t)delay_us);
		}
		_exit(close(fd) == 0 ? 0 : 1);
	}
	return (pid);
}

static void
reap(pid_t pid)
{
	int status;

	ATF_REQUIRE(waitpid(pid, &status, 0) == pid);
	ATF_REQUIRE_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "child status %#x", status);
}

/* Sizes around the buffer, a page, and a few MiB of noise. */
static size_t
test_size(size_t i, size_t bufsz)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const size_t sizes[] = { 0, 1, pg, bufsz - 1, bufsz, bufsz + 1,
	    3 * MiB + 7 };

	return (i < sizeof(sizes) / sizeof(sizes[0]) ? sizes[i] : SIZE_MAX);
}

#define	BUFSZ_TEST	(16 * KiB)	/* the buffer size forced in the size cases */

static void
file_to_file(enum bufsz_path p, const char *data, size_t len, size_t bufsz)
{
	struct bufsz_engine *e;
	enum bufsz_path want;
	int in, out;

	put_file("src", data, len);
	e = engine_for(p, 0, bufsz);
	ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
	ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
	ATF_CHECK_EQ(moved(e), (off_t)len);
	/* Every path leaves the input's offset at its end. */
	ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), (off_t)len);
	want = len == 0 ? COPY_RW : expected(p, S_IFREG, S_IFREG);
	if (want != COPY_AUTO)
		ATF_CHECK_EQ_MSG(last(e), want, "%s took %s, want %s",
		    bufsz_path_name(p), took(e),
		    bufsz_path_name(want));
	ATF_REQUIRE(close(in) == 0);
	ATF_REQUIRE(close(out) == 0);
	bufsz_engine_free(e);
	same_bytes("dst", data, len, "file to file", p);
}

ATF_TC_WITHOUT_HEAD(paths_file_to_file);
ATF_TC_BODY(paths_file_to_file, tc)
{
	size_t i, k, len;
	char *data;

	ATF_REQUIRE((data = malloc(4 * MiB)) != NULL);
	fill(data, 4 * MiB, 1);
	for (k = 0; k < NPATHS; k++)
		for (i = 0; (len = test_size(i, BUFSZ_TEST)) != SIZE_MAX; i++)
			file_to_file(all_paths[k], data, len, BUFSZ_TEST);
	free(data);
}

/* Copy data to a pipe read by a child, possibly slow and non-blocking. */
static void
file_to_pipe(enum bufsz_path p, const char *data, size_t len, int nonblock,
    int delay_us)
{
	struct bufsz_engine *e;
	int in, out;
	pid_t pid;

	put_file("src", data, len);
	pid = reader("dst", &out, nonblock, delay_us);
	e = engine_for(p, 0, BUFSZ_TEST);
	ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
	ATF_CHECK_EQ_MSG(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK,
	    "%s: %s", bufsz_path_name(p), strerror(errno));
	ATF_CHECK_EQ(moved(e), (off_t)len);
	if (len != 0)
		ATF_CHECK_EQ_MSG(last(e), expected(p, S_IFREG, S_IFIFO),
		    "%s took %s", bufsz_path_name(p),
		    took(e));
	ATF_REQUIRE(close(in) == 0);
	ATF_REQUIRE(close(out) == 0);
	bufsz_engine_free(e);
	reap(pid);
	same_bytes("dst", data, len, "file to pipe", p);
}

ATF_TC_WITHOUT_HEAD(paths_file_to_pipe);
ATF_TC_BODY(paths_file_to_pipe, tc)
{
	size_t i, k, len;
	char *data;

	ATF_REQUIRE((data = malloc(4 * MiB)) != NULL);
	fill(data, 4 * MiB, 2);
	for (k = 0; k < NPATHS; k++)
		for (i = 0; (len = test_size(i, BUFSZ_TEST)) != SIZE_MAX; i++)
			file_to_pipe(all_paths[k], data, len, 0, 0);
	free(data);
}

/* A FIFO as input: only splice and read/write can read it. */
ATF_TC_WITHOUT_HEAD(paths_fifo_to_file);
ATF_TC_BODY(paths_fifo_to_file, tc)
{
	struct bufsz_engine *e;
	size_t i, k, len;
	int in, out;
	char *data;
	pid_t pid;

	ATF_REQUIRE((data = malloc(4 * MiB)) != NULL);
	fill(data, 4 * MiB, 3);
	ATF_REQUIRE(mkfifo("fifo", 0600) == 0);
	for (k = 0; k < NPATHS; k++) {
		for (i = 0; (len = test_size(i, BUFSZ_TEST)) != SIZE_MAX;
		    i++) {
			pid = writer("fifo", data, len, 0);
			e = engine_for(all_paths[k], 0, BUFSZ_TEST);
			ATF_REQUIRE((in = open("fifo", O_RDONLY)) >= 0);
			ATF_REQUIRE((out = open("dst",
			    O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0);
			ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0),
			    BUFSZ_OK);
			if (len != 0)
				ATF_CHECK_EQ_MSG(last(e),
				    expected(all_paths[k], S_IFIFO, S_IFREG),
				    "%s took %s", bufsz_path_name(all_paths[k]),
				    took(e));
			ATF_REQUIRE(close(in) == 0);
			ATF_REQUIRE(close(out) == 0);
			bufsz_engine_free(e);
			reap(pid);
			same_bytes("dst", data, len, "fifo to file",
			    all_paths[k]);
		}
	}
	free(data);
}

ATF_TC_WITHOUT_HEAD(paths_to_devnull);
ATF_TC_BODY(paths_to_devnull, tc)
{
	struct bufsz_engine *e;
	size_t k, len;
	int in, out;
	char *data;

	len = 3 * MiB + 7;
	ATF_REQUIRE((data = malloc(len)) != NULL);
	fill(data, len, 4);
	put_file("src", data, len);
	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	for (k = 0; k < NPATHS; k++) {
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
		ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
		ATF_CHECK_EQ(moved(e), (off_t)len);
		ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), (off_t)len);
		ATF_CHECK_EQ_MSG(last(e),
		    expected(all_paths[k], S_IFREG, S_IFCHR), "%s took %s",
		    bufsz_path_name(all_paths[k]), took(e));
		ATF_REQUIRE(close(in) == 0);
		bufsz_engine_free(e);
	}
	ATF_REQUIRE(close(out) == 0);
	free(data);
}

/*
 * Which regular files end where their size says: one on tmpfs (/dev/shm,
 * where there is one) does; a /proc file (it says 0 and holds its text)
 * does not.  The answer for a file system, once had, holds for its other
 * files without asking again: here, a descriptor that cannot be asked.
 */
static int
size_kept(struct bufsz_engine *e, int fd, const struct stat *st)
{
	struct job j;

	memset(&j, 0, sizeof(j));
	j.j_e = e;
	j.j_in = fd;
	j.j_inst = st;
	return (bufsz_size_kept(&j));
}

ATF_TC_WITHOUT_HEAD(size_is_end);
ATF_TC_BODY(size_is_end, tc)
{
	static const char *const procs[] = {
		"/proc/self/stat",
		"/proc/self/status",
	};
	struct bufsz_engine *e;
	struct stat st, proc;
	char shm[64];
	size_t i;
	int fd;

	ATF_REQUIRE((e = bufsz_engine_new()) != NULL);
	for (i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		if ((fd = open(procs[i], O_RDONLY)) < 0)
			continue;
		ATF_REQUIRE(fstat(fd, &st) == 0);
		/* Only /proc's own: qemu-user opens a copy of some of them. */
		if (stat("/proc", &proc) == 0 && st.st_dev == proc.st_dev)
			ATF_CHECK_MSG(!size_kept(e, fd, &st), "%s", procs[i]);
		ATF_REQUIRE(close(fd) == 0);
	}
	(void)snprintf(shm, sizeof(shm), "/dev/shm/engine_test.%ld",
	    (long)getpid());
	if ((fd = open(shm, O_RDWR | O_CREAT | O_TRUNC, 0644)) >= 0) {
		ATF_REQUIRE(unlink(shm) == 0 && fstat(fd, &st) == 0);
		ATF_CHECK(size_kept(e, fd, &st));
		ATF_CHECK(size_kept(e, -1, &st));
		ATF_REQUIRE(close(fd) == 0);
	}
	bufsz_engine_free(e);
}

/*
 * A sparse file that another process appends to while it is copied,
 * many times: each copy must be the file as it was at some moment, a
 * prefix of what it holds afterwards, never a tail of zeros standing for
 * bytes the file had by the time the copy was cut.  The race is narrow
 * (between the engine's last look for data and its cut), so each round
 * has a fresh file and a writer that appends 200 lines while it is
 * copied; 300 rounds, or 20 seconds, whichever ends first.
 */
static void
appender(const char *path)
{
	char line[256];
	int fd, i;

	memset(line, 'G', sizeof(line));
	if ((fd = open(path, O_WRONLY | O_APPEND)) == -1)
		_exit(1);
	for (i = 0; i < 200; i++) {
		if (write(fd, line, sizeof(line)) != sizeof(line))
			_exit(1);
		(void)usleep(10);
	}
	_exit(0);
}

ATF_TC_WITHOUT_HEAD(sparse_growing);
ATF_TC_BODY(sparse_growing, tc)
{
	char data[64 * 1024], *got, *src;
	struct bufsz_engine *e;
	size_t glen, slen;
	time_t until;
	int fd, i, bad;
	pid_t pid;

	fill(data, sizeof(data), 17);
	bad = 0;
	until = time(NULL) + 20;
	for (i = 0; i < 300 && bad == 0 && time(NULL) < until; i++) {
		ATF_REQUIRE((fd = open("new", O_WRONLY | O_CREAT | O_TRUNC,
		    0644)) >= 0);
		ATF_REQUIRE(write(fd, data, sizeof(data)) == sizeof(data));
		ATF_REQUIRE(pwrite(fd, data, sizeof(data), (off_t)MiB) ==
		    sizeof(data));
		ATF_REQUIRE(close(fd) == 0);
		ATF_REQUIRE(rename("new", "src") == 0);
		ATF_REQUIRE((pid = fork()) != -1);
		if (pid == 0)
			appender("src");
		ATF_CHECK_EQ(copy_paths(i % 2 == 0 ? COPY_AUTO :
		    COPY_RW, BUFSZ_SPARSE, "src", "dst", &e), BUFSZ_OK);
		bufsz_engine_free(e);
		reap(pid);
		got = slurp("dst", &glen);
		src = slurp("src", &slen);
		if (glen < MiB + sizeof(data) || glen > slen ||
		    memcmp(got, src, glen) != 0)
			bad = i + 1;
		free(got);
		free(src);
	}
	ATF_CHECK_MSG(bad == 0, "copy %d is not the file at any moment "
	    "(zeros where it had bytes)", bad);
}

/*
 * A terminal's end of file (^D at the start of a line) ends the copy the
 * first time, on every path, even with nothing typed before it: splice
 * from a terminal returns 0 there, as read does, and that 0 is no lying
 * size to look past with read(2), which would wait for a second ^D.
 */
static int
pipe_holds(int fd, const char *want, enum bufsz_path p, const char *what)
{
	char got[64];
	ssize_t n;
	int ok;

	if ((n = read(fd, got, sizeof(got))) == -1) {
		ATF_REQUIRE(errno == EAGAIN);
		n = 0;
	}
	ok = (size_t)n == strlen(want) && memcmp(got, want, (size_t)n) == 0;
	ATF_CHECK_MSG(ok, "%s: %s copy '%.*s', want '%s'", bufsz_path_name(p),
	    what, (int)n, got, want);
	return (ok);
}

ATF_TC_WITHOUT_HEAD(tty_eof_once);
ATF_TC_BODY(tty_eof_once, tc)
{
	static const char typed[] = "\004abc\n\004more\n\004";
	struct bufsz_engine *e;
	int m, t, p[2];
	size_t k;

	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) == -1 || grantpt(m) != 0 ||
	    unlockpt(m) != 0)
		atf_tc_skip("no pseudo-terminals here: %s", strerror(errno));
	ATF_REQUIRE((t = open(ptsname(m), O_RDWR | O_NOCTTY)) >= 0);
	ATF_REQUIRE(pipe(p) == 0);
	ATF_REQUIRE(fcntl(p[0], F_SETFL, O_NONBLOCK) == 0);
	/* A copy that waits for a ^D never typed fails, not hangs. */
	(void)alarm(60);
	for (k = 0; k < NPATHS; k++) {
		ATF_REQUIRE(write(m, typed, sizeof(typed) - 1) ==
		    (ssize_t)sizeof(typed) - 1);
		e = engine_for(all_paths[k], 0, 0);
		ATF_CHECK_EQ(copy(e, t, NULL, p[1], NULL, 0), BUFSZ_OK);
		/* What was typed after each ^D is the next copy's. */
		if (pipe_holds(p[0], "", all_paths[k], "first")) {
			ATF_CHECK_EQ(copy(e, t, NULL, p[1], NULL, 0),
			    BUFSZ_OK);
			(void)pipe_holds(p[0], "abc\n", all_paths[k],
			    "second");
			ATF_CHECK_EQ(copy(e, t, NULL, p[1], NULL, 0),
			    BUFSZ_OK);
			(void)pipe_holds(p[0], "more\n", all_paths[k],
			    "third");
		}
		bufsz_engine_free(e);
		ATF_REQUIRE(tcflush(t, TCIFLUSH) == 0);
	}
	ATF_REQUIRE(close(t) == 0);
	ATF_REQUIRE(close(m) == 0);
}

/*
 * A file that grew or shrank between the caller's fstat and the copy:
 * every path copies what it holds when copied.
 * (The engine ends a copy without a read of 0 only when a short count
 * lands exactly on the size it was told; these sizes never match.)
 */
ATF_TC_WITHOUT_HEAD(stale_size);
ATF_TC_BODY(stale_size, tc)
{
	static const size_t told[] = { 100, 4096, 10000, 3 * MiB };
	static const size_t now[] = { 150, 8192, 6000, 3 * MiB + 4097 };
	struct bufsz_engine *e;
	struct stat sb;
	size_t i, k;
	int in, out;
	char *data;

	ATF_REQUIRE((data = malloc(4 * MiB)) != NULL);
	fill(data, 4 * MiB, 16);
	for (i = 0; i < sizeof(told) / sizeof(told[0]); i++) {
		for (k = 0; k < NPATHS; k++) {
			put_file("src", data, told[i]);
			ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
			ATF_REQUIRE(fstat(in, &sb) == 0);
			put_file("src", data, now[i]);
			ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT |
			    O_TRUNC, 0644)) >= 0);
			e = engine_for(all_paths[k], 0, 0);
			ATF_CHECK_EQ(copy(e, in, &sb, out, NULL, 0),
			    BUFSZ_OK);
			ATF_CHECK_EQ(moved(e), (off_t)now[i]);
			bufsz_engine_free(e);
			ATF_REQUIRE(close(in) == 0);
			ATF_REQUIRE(close(out) == 0);
			same_bytes("dst", data, now[i], "told a stale size",
			    all_paths[k]);
		}
	}
	free(data);
}

/* A forced path that cannot serve the pair falls back to read/write. */
ATF_TC_WITHOUT_HEAD(path_taken);
ATF_TC_BODY(path_taken, tc)
{
	struct bufsz_engine *e;
	char data[100];
	int in, out;
	size_t k;

	fill(data, sizeof(data), 5);
	put_file("src", data, sizeof(data));
	ATF_CHECK_EQ(copy_paths(COPY_AUTO, 0, "src", "dst", &e),
	    BUFSZ_OK);
#ifdef __linux__
	ATF_CHECK_EQ(last(e), COPY_CFR);
#endif
	bufsz_engine_free(e);
	/* An empty regular file always goes to read/write. */
	put_file("empty", data, 0);
	ATF_CHECK_EQ(copy_paths(COPY_CFR, 0, "empty", "dst", &e),
	    BUFSZ_OK);
	ATF_CHECK_EQ(last(e), COPY_RW);
	bufsz_engine_free(e);
	/*
	 * An input already at its end: a kernel path moves nothing on its
	 * first call and hands over to read/write, which has the last word.
	 */
	for (k = 0; k < NPATHS; k++) {
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
		ATF_REQUIRE(lseek(in, 0, SEEK_END) == (off_t)sizeof(data));
		ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
		    0644)) >= 0);
		ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
		ATF_CHECK_EQ(moved(e), 0);
		ATF_CHECK_EQ_MSG(last(e), COPY_RW, "%s took %s",
		    bufsz_path_name(all_paths[k]), took(e));
		ATF_REQUIRE(close(in) == 0);
		ATF_REQUIRE(close(out) == 0);
		bufsz_engine_free(e);
	}
	ATF_CHECK_STREQ(bufsz_path_name(COPY_SPLICE), "splice");
	ATF_CHECK_STREQ(bufsz_path_name((enum bufsz_path)99), "unknown");
}

/*
 * An O_APPEND output: copy_file_range, splice and sendfile refuse it
 * (EBADF or EINVAL) and read/write appends everything.
 */
ATF_TC_WITHOUT_HEAD(append_output);
ATF_TC_BODY(append_output, tc)
{
	struct bufsz_engine *e;
	size_t k, len;
	int in, out;
	char *data;

	len = 1 * MiB + 3;
	ATF_REQUIRE((data = malloc(len + 5)) != NULL);
	memcpy(data, "head\n", 5);
	fill(data + 5, len, 6);
	put_file("src", data + 5, len);
	for (k = 0; k < NPATHS; k++) {
		put_file("dst", data, 5);
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
		ATF_REQUIRE((out = open("dst", O_WRONLY | O_APPEND)) >= 0);
		ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
		ATF_REQUIRE(close(in) == 0);
		ATF_REQUIRE(close(out) == 0);
		bufsz_engine_free(e);
		same_bytes("dst", data, len + 5, "append", all_paths[k]);
	}
	free(data);
}

/*
 * Both sides from their current offsets, neither on a page boundary: the
 * input's first 1000 bytes are skipped, the output's first 77 kept.
 */
ATF_TC_WITHOUT_HEAD(from_offsets);
ATF_TC_BODY(from_offsets, tc)
{
	struct bufsz_engine *e;
	size_t k, len;
	char *data;
	int in, out;

	len = 3 * MiB + 5;
	ATF_REQUIRE((data = malloc(len)) != NULL);
	fill(data, len, 15);
	put_file("src", data, len);
	for (k = 0; k < NPATHS; k++) {
		put_file("dst", data, 77);
		/* Many buffers' worth. */
		e = engine_for(all_paths[k], 0, BUFSZ_TEST);
		ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
		ATF_REQUIRE(lseek(in, 1000, SEEK_SET) == 1000);
		ATF_REQUIRE((out = open("dst", O_WRONLY)) >= 0);
		ATF_REQUIRE(lseek(out, 77, SEEK_SET) == 77);
		ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
		ATF_CHECK_EQ(moved(e), (off_t)len - 1000);
		ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), (off_t)len);
		ATF_CHECK_EQ(lseek(out, 0, SEEK_CUR), (off_t)len - 1000 + 77);
		ATF_REQUIRE(close(in) == 0);
		ATF_REQUIRE(close(out) == 0);
		bufsz_engine_free(e);
		memmove(data + 77, data + 1000, len - 1000);
		same_bytes("dst", data, len - 1000 + 77, "from offsets",
		    all_paths[k]);
		fill(data, len, 15);
	}
	free(data);
}

/*
 * Offsets past 4 GiB: a sparse file (ftruncate, then a marker written
 * past 4 GiB) copied from an offset just below 4 GiB by every path.
 */
ATF_TC_WITHOUT_HEAD(beyond_4g);
ATF_TC_BODY(beyond_4g, tc)
{
	const off_t base = 4 * GiB - 8192, size = 4 * GiB + 65536;
	const off_t mark = 4 * GiB + 1000;
	static const char marker[] = "marker past 4 GiB";
	struct bufsz_engine *e;
	enum bufsz_path want;
	size_t k, len;
	char *bytes;
	int in, out;

	ATF_REQUIRE((out = open("big", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	if (ftruncate(out, size) != 0)
		atf_tc_skip("no 4 GiB files here: %s", strerror(errno));
	ATF_REQUIRE(pwrite(out, marker, sizeof(marker), mark) ==
	    (ssize_t)sizeof(marker));
	ATF_REQUIRE(close(out) == 0);
	len = (size_t)(size - base);
	ATF_REQUIRE((bytes = calloc(1, len)) != NULL);
	memcpy(bytes + (mark - base), marker, sizeof(marker));
	for (k = 0; k < NPATHS; k++) {
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open("big", O_RDONLY)) >= 0);
		ATF_REQUIRE(lseek(in, base, SEEK_SET) == base);
		ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
		    0644)) >= 0);
		ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
		ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), size);
		want = expected(all_paths[k], S_IFREG, S_IFREG);
		if (want != COPY_AUTO)
			ATF_CHECK_EQ_MSG(last(e), want, "%s took %s",
			    bufsz_path_name(all_paths[k]),
			    took(e));
		ATF_REQUIRE(close(in) == 0);
		ATF_REQUIRE(close(out) == 0);
		bufsz_engine_free(e);
		same_bytes("dst", bytes, len, "past 4 GiB", all_paths[k]);
	}
	free(bytes);
	ATF_REQUIRE(unlink("big") == 0);
}

/* The same file copied whole with BUFSZ_SPARSE by every path: cheap. */
ATF_TC_WITHOUT_HEAD(beyond_4g_sparse);
ATF_TC_BODY(beyond_4g_sparse, tc)
{
	const off_t size = 4 * GiB + 65536, mark = 4 * GiB + 1000;
	static const char marker[] = "marker past 4 GiB";
	char got[sizeof(marker)];
	struct bufsz_engine *e;
	struct stat sb;
	size_t k;
	int fd;

	ATF_REQUIRE((fd = open("big", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	if (ftruncate(fd, size) != 0)
		atf_tc_skip("no 4 GiB files here: %s", strerror(errno));
	ATF_REQUIRE(pwrite(fd, marker, sizeof(marker), mark) ==
	    (ssize_t)sizeof(marker));
	ATF_REQUIRE(close(fd) == 0);
	for (k = 0; k < NPATHS; k++) {
		ATF_CHECK_EQ(copy_paths(all_paths[k], BUFSZ_SPARSE, "big",
		    "dst", &e), BUFSZ_OK);
		bufsz_engine_free(e);
		ATF_REQUIRE(stat("dst", &sb) == 0);
		ATF_CHECK_EQ(sb.st_size, size);
		ATF_CHECK_MSG(sb.st_blocks < 2048, "%s: %jd blocks",
		    bufsz_path_name(all_paths[k]), (intmax_t)sb.st_blocks);
		ATF_REQUIRE((fd = open("dst", O_RDONLY)) >= 0);
		ATF_REQUIRE(pread(fd, got, sizeof(got), mark) ==
		    (ssize_t)sizeof(got));
		ATF_CHECK_MSG(memcmp(got, marker, sizeof(marker)) == 0,
		    "%s: no marker at %jd", bufsz_path_name(all_paths[k]),
		    (intmax_t)mark);
		ATF_REQUIRE(close(fd) == 0);
	}
	ATF_REQUIRE(unlink("big") == 0);
	ATF_REQUIRE(unlink("dst") == 0);
}

/* A file of size bytes with 256 KiB of noise at each of the offsets. */
static void
make_sparse(const char *path, off_t size, const off_t *data, size_t ndata)
{
	char buf[256 * KiB];
	size_t i;
	int fd;

	ATF_REQUIRE((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	ATF_REQUIRE(ftruncate(fd, size) == 0);
	for (i = 0; i < ndata; i++) {
		fill(buf, sizeof(buf), (uint32_t)i + 7);
		ATF_REQUIRE(pwrite(fd, buf, sizeof(buf), data[i]) ==
		    (ssize_t)sizeof(buf));
	}
	ATF_REQUIRE(fsync(fd) == 0);
	ATF_REQUIRE(close(fd) == 0);
}

/* Every path keeps the holes of this layout, and every byte. */
static void
sparse_case(const char *what, off_t size, const off_t *data, size_t ndata)
{
	struct bufsz_engine *e;
	struct stat in, out;
	size_t k, len;
	char *want;

	make_sparse("src", size, data, ndata);
	ATF_REQUIRE(stat("src", &in) == 0);
	if (in.st_blocks * 512 >= size)
		atf_tc_skip("this file system does not make holes");
	want = slurp("src", &len);
	for (k = 0; k < NPATHS; k++) {
		ATF_CHECK_EQ(copy_paths(all_paths[k], BUFSZ_SPARSE, "src",
		    "dst", &e), BUFSZ_OK);
		bufsz_engine_free(e);
		ATF_REQUIRE(stat("dst", &out) == 0);
		ATF_CHECK_EQ(out.st_size, in.st_size);
		/* A few blocks of slack for the file system's own. */
		ATF_CHECK_MSG(out.st_blocks <= in.st_blocks + 16,
		    "%s holes by %s: %jd blocks, source %jd", what,
		    bufsz_path_name(all_paths[k]), (intmax_t)out.st_blocks,
		    (intmax_t)in.st_blocks);
		same_bytes("dst", want, len, what, all_paths[k]);
	}
	free(want);
}

ATF_TC_WITHOUT_HEAD(sparse_leading_hole);
ATF_TC_BODY(sparse_leading_hole, tc)
{
	const off_t data[] = { 2 * (off_t)MiB, 3 * (off_t)MiB };

	sparse_case("leading", 4 * (off_t)MiB, data, 2);
}

ATF_TC_WITHOUT_HEAD(sparse_middle_hole);
ATF_TC_BODY(sparse_middle_hole, tc)
{
	const off_t data[] = { 0, 3 * (off_t)MiB };

	sparse_case("middle", 4 * (off_t)MiB, data, 2);
}

ATF_TC_WITHOUT_HEAD(sparse_trailing_hole);
ATF_TC_BODY(sparse_trailing_hole, tc)
{
	const off_t data[] = { 0, (off_t)MiB };

	sparse_case("trailing", 4 * (off_t)MiB, data, 2);
}

ATF_TC_WITHOUT_HEAD(sparse_only_hole);
ATF_TC_BODY(sparse_only_hole, tc)
{

	sparse_case("only", 4 * (off_t)MiB, NULL, 0);
}

/*
 * On the read/write path, blocks of zeros written out in a sparse source
 * become holes too.
 */
ATF_TC_WITHOUT_HEAD(sparse_rw_zeros);
ATF_TC_BODY(sparse_rw_zeros, tc)
{
	const off_t data[] = { 0 };
	static char zeros[512 * KiB];
	struct bufsz_engine *e;
	struct stat in, out;
	size_t len;
	char *want;
	int fd;

	make_sparse("src", 4 * (off_t)MiB, data, 1);
	ATF_REQUIRE((fd = open("src", O_WRONLY)) >= 0);
	ATF_REQUIRE(pwrite(fd, zeros, sizeof(zeros), 2 * (off_t)MiB) ==
	    (ssize_t)sizeof(zeros));
	ATF_REQUIRE(fsync(fd) == 0);
	ATF_REQUIRE(close(fd) == 0);
	ATF_REQUIRE(stat("src", &in) == 0);
	if (in.st_blocks * 512 >= in.st_size)
		atf_tc_skip("this file system does not make holes");
	want = slurp("src", &len);
	ATF_CHECK_EQ(copy_paths(COPY_RW, BUFSZ_SPARSE, "src", "dst", &e),
	    BUFSZ_OK);
	bufsz_engine_free(e);
	ATF_REQUIRE(stat("dst", &out) == 0);
	ATF_CHECK_EQ(out.st_size, in.st_size);
	ATF_CHECK_MSG(out.st_blocks * 512 < in.st_blocks * 512 -
	    (blkcnt_t)sizeof(zeros) / 2, "zeros kept: %jd blocks, source %jd",
	    (intmax_t)out.st_blocks, (intmax_t)in.st_blocks);
	same_bytes("dst", want, len, "zeros", COPY_RW);
	free(want);
}

/* Without BUFSZ_SPARSE, the output is written byte for byte (cat). */
ATF_TC_WITHOUT_HEAD(no_sparse_flag);
ATF_TC_BODY(no_sparse_flag, tc)
{
	static const enum bufsz_path writers[] = { COPY_RW,
	    COPY_SPLICE, COPY_SENDFILE };
	const off_t data[] = { 0 };
	struct bufsz_engine *e;
	struct stat out;
	size_t k;

	make_sparse("src", 2 * (off_t)MiB, data, 1);
	for (k = 0; k < sizeof(writers) / sizeof(writers[0]); k++) {
		ATF_CHECK_EQ(copy_paths(writers[k], 0, "src", "dst", &e),
		    BUFSZ_OK);
		bufsz_engine_free(e);
		ATF_REQUIRE(stat("dst", &out) == 0);
		ATF_CHECK_EQ(out.st_size, 2 * (off_t)MiB);
		ATF_CHECK_MSG(out.st_blocks * 512 >= out.st_size,
		    "%s made holes: %jd blocks", bufsz_path_name(writers[k]),
		    (intmax_t)out.st_blocks);
	}
}

ATF_TC_WITHOUT_HEAD(write_error_side);
ATF_TC_BODY(write_error_side, tc)
{
	struct bufsz_engine *e;
	size_t k, len;
	int in, out;
	char *data;

	len = 1 * MiB;
	ATF_REQUIRE((data = malloc(len)) != NULL);
	fill(data, len, 8);
	put_file("src", data, len);
	if ((out = open("/dev/full", O_WRONLY)) < 0)
		atf_tc_skip("no /dev/full on this system");
	for (k = 0; k < NPATHS; k++) {
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
		errno = 0;
		ATF_CHECK_EQ_MSG(copy(e, in, NULL, out, NULL, 0),
		    BUFSZ_EWRITE, "%s", bufsz_path_name(all_paths[k]));
		ATF_CHECK_EQ_MSG(errno, ENOSPC, "%s: %s",
		    bufsz_path_name(all_paths[k]), strerror(errno));
		ATF_REQUIRE(close(in) == 0);
		bufsz_engine_free(e);
	}
	ATF_REQUIRE(close(out) == 0);
	free(data);
}

ATF_TC_WITHOUT_HEAD(read_error_side);
ATF_TC_BODY(read_error_side, tc)
{
	struct bufsz_engine *e;
	int in, out;
	size_t k;

	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	for (k = 0; k < NPATHS; k++) {
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open(".", O_RDONLY)) >= 0);
		errno = 0;
		ATF_CHECK_EQ_MSG(copy(e, in, NULL, out, NULL, 0),
		    BUFSZ_EREAD, "%s", bufsz_path_name(all_paths[k]));
		ATF_CHECK_EQ_MSG(errno, EISDIR, "%s: %s",
		    bufsz_path_name(all_paths[k]), strerror(errno));
		/* Refused before any path is tried. */
		ATF_CHECK_EQ_MSG(last(e), COPY_RW, "%s took %s",
		    bufsz_path_name(all_paths[k]), took(e));
		ATF_REQUIRE(close(in) == 0);
		bufsz_engine_free(e);
	}
	ATF_REQUIRE(close(out) == 0);
}

/* A non-blocking output pipe with a slow reader: waited out, no error. */
ATF_TC_WITHOUT_HEAD(nonblocking_output);
ATF_TC_BODY(nonblocking_output, tc)
{
	char *data;
	size_t k, len;

	len = 256 * KiB + 1;
	ATF_REQUIRE((data = malloc(len)) != NULL);
	fill(data, len, 11);
	for (k = 0; k < NPATHS; k++)
		file_to_pipe(all_paths[k], data, len, 1, 500);
	free(data);
}

/* A non-blocking input FIFO with a slow writer: waited out, no EOF. */
ATF_TC_WITHOUT_HEAD(nonblocking_input);
ATF_TC_BODY(nonblocking_input, tc)
{
	struct bufsz_engine *e;
	int in, out;
	size_t k, len;
	char *data;
	pid_t pid;

	len = 256 * KiB + 1;
	ATF_REQUIRE((data = malloc(len)) != NULL);
	fill(data, len, 12);
	ATF_REQUIRE(mkfifo("fifo", 0600) == 0);
	for (k = 0; k < NPATHS; k++) {
		pid = writer("fifo", data, len, 500);
		ATF_REQUIRE((in = open("fifo", O_RDONLY)) >= 0);
		ATF_REQUIRE(fcntl(in, F_SETFL, O_NONBLOCK) == 0);
		ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
		    0644)) >= 0);
		e = engine_for(all_paths[k], 0, 0);
		ATF_CHECK_EQ_MSG(copy(e, in, NULL, out, NULL, 0),
		    BUFSZ_OK, "%s: %s", bufsz_path_name(all_paths[k]),
		    strerror(errno));
		ATF_REQUIRE(close(in) == 0);
		ATF_REQUIRE(close(out) == 0);
		bufsz_engine_free(e);
		reap(pid);
		same_bytes("dst", data, len, "slow fifo", all_paths[k]);
	}
	free(data);
}

/* One buffer for many copies: kept, grown, never shrunk. */
ATF_TC_WITHOUT_HEAD(buffer_kept);
ATF_TC_BODY(buffer_kept, tc)
{
	struct bufsz_engine *e;
	size_t la, lb;
	char *a;

	e = engine_for(COPY_RW, 0, 64 * KiB);
	ATF_REQUIRE((a = bufsz_engine_buffer(e, NULL, NULL, &la)) != NULL);
	ATF_CHECK_EQ(la, 64 * KiB);
	ATF_CHECK(bufsz_engine_buffer(e, NULL, NULL, &lb) == a);
	ATF_CHECK_EQ(lb, la);
	/* Not a whole number of pages: still no new buffer each call. */
	bufsz_engine_force(e, COPY_RW, 64 * KiB - 1);
	ATF_CHECK(bufsz_engine_buffer(e, NULL, NULL, &lb) == a);
	ATF_CHECK(bufsz_engine_buffer(e, NULL, NULL, &lb) == a);
	bufsz_engine_force(e, COPY_RW, 8 * KiB);
	ATF_CHECK(bufsz_engine_buffer(e, NULL, NULL, &lb) == a);
	ATF_CHECK_EQ(lb, la);
	bufsz_engine_force(e, COPY_RW, 256 * KiB);
	ATF_REQUIRE(bufsz_engine_buffer(e, NULL, NULL, &lb) != NULL);
	ATF_CHECK_EQ(lb, 256 * KiB);
	/* Less than a page is a page. */
	bufsz_engine_free(e);
	e = engine_for(COPY_RW, 0, 1);
	ATF_REQUIRE(bufsz_engine_buffer(e, NULL, NULL, &lb) != NULL);
	ATF_CHECK_EQ(lb, bufsz_pagesize());
	bufsz_engine_free(e);
	bufsz_engine_free(NULL);
}

/* The same engine copying many small files keeps one buffer. */
ATF_TC_WITHOUT_HEAD(buffer_one_for_many);
ATF_TC_BODY(buffer_one_for_many, tc)
{
	struct bufsz_engine *e;
	struct stat ist, ost;
	char data[4096], *buf, *first;
	int i, in, out;
	size_t len;

	fill(data, sizeof(data), 14);
	put_file("src", data, sizeof(data));
	e = engine_for(COPY_RW, 0, 0);
	first = NULL;
	ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	ATF_REQUIRE(fstat(out, &ost) == 0);
	for (i = 0; i < 50; i++) {
		ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
		ATF_REQUIRE(fstat(in, &ist) == 0);
		ATF_REQUIRE(copy(e, in, &ist, out, &ost, 0) == BUFSZ_OK);
		ATF_REQUIRE((buf = bufsz_engine_buffer(e, &ist, &ost, &len)) != NULL);
		if (first == NULL)
			first = buf;
		ATF_CHECK(buf == first);
		ATF_REQUIRE(close(in) == 0);
	}
	ATF_REQUIRE(close(out) == 0);
	bufsz_engine_free(e);
}

/* Whether this host copies an unseen input into /dev/null. */
static int
takes_unseen(void)
{

#ifdef __linux__
	return (1);
#else
	return (0);
#endif
}

ATF_TC_WITHOUT_HEAD(unseen_devnull);
ATF_TC_BODY(unseen_devnull, tc)
{
	const size_t sizes[] = { 1, 4096, 4097, 8 * MiB, 11 * MiB + 7 };
	struct bufsz_engine *e;
	size_t k;
	off_t pos;
	int out, r;
	char *data;

	ATF_REQUIRE((data = malloc(sizes[4])) != NULL);
	fill(data, sizes[4], 21);
	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	e = engine_for(COPY_AUTO, 0, 0);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		put_file("src", data, sizes[k]);
		r = copy_unseen(e, "src", out, &pos);
		ATF_CHECK_EQ_MSG(r, BUFSZ_OK, "%zu bytes", sizes[k]);
		ATF_CHECK_EQ_MSG(moved(e), (off_t)sizes[k],
		    "%zu bytes: moved %jd", sizes[k], (intmax_t)moved(e));
		ATF_CHECK_EQ_MSG(pos, (off_t)sizes[k], "%zu bytes: at %jd",
		    sizes[k], (intmax_t)pos);
	}
	bufsz_engine_free(e);
	ATF_REQUIRE(close(out) == 0);
	free(data);
}

/*
 * What the first call does not take is copied as any input: an empty
 * file, a FIFO (every byte of it), while a directory fails with EISDIR
 * and nothing read.
 */
ATF_TC_WITHOUT_HEAD(unseen_devnull_untouched);
ATF_TC_BODY(unseen_devnull_untouched, tc)
{
	struct bufsz_engine *e;
	struct stat ost;
	char data[10000];
	off_t pos;
	pid_t pid;
	int in, out;

	fill(data, sizeof(data), 22);
	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	e = engine_for(COPY_AUTO, 0, 0);
	put_file("empty", "", 0);
	ATF_CHECK_EQ(copy_unseen(e, "empty", out, &pos), BUFSZ_OK);
	ATF_CHECK_EQ(pos, 0);
	ATF_CHECK_EQ(moved(e), 0);
	ATF_REQUIRE(mkdir("dir", 0755) == 0);
	errno = 0;
	ATF_CHECK_EQ(copy_unseen(e, "dir", out, &pos), BUFSZ_EREAD);
	ATF_CHECK_EQ(errno, EISDIR);
	ATF_CHECK_EQ(pos, 0);
	ATF_CHECK_EQ(moved(e), 0);
	ATF_REQUIRE(close(out) == 0);

	ATF_REQUIRE(mkfifo("fifo", 0600) == 0);
	pid = writer("fifo", data, sizeof(data), 0);
	ATF_REQUIRE((in = open("fifo", O_RDONLY)) >= 0);
	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	ATF_REQUIRE(fstat(out, &ost) == 0);
	ATF_CHECK_EQ(copy(e, in, NULL, out, &ost, BUFSZ_UNSEEN),
	    BUFSZ_OK);
	ATF_CHECK_EQ(moved(e), (off_t)sizeof(data));
	ATF_REQUIRE(close(out) == 0);
	ATF_REQUIRE(close(in) == 0);
	reap(pid);
	ATF_REQUIRE(mkfifo("fifo2", 0600) == 0);
	pid = writer("fifo2", data, sizeof(data), 0);
	ATF_REQUIRE((in = open("fifo2", O_RDONLY)) >= 0);
	ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, BUFSZ_UNSEEN),
	    BUFSZ_OK);
	ATF_REQUIRE(close(in) == 0);
	ATF_REQUIRE(close(out) == 0);
	reap(pid);
	same_bytes("dst", data, sizeof(data), "the FIFO", COPY_AUTO);
	bufsz_engine_free(e);
}

/*
 * Any output but /dev/null, a forced path, or a sparse copy: the input
 * is copied whole as any other, by the path its stat and the engine's
 * settings pick.
 */
ATF_TC_WITHOUT_HEAD(unseen_other_outputs);
ATF_TC_BODY(unseen_other_outputs, tc)
{
	struct bufsz_engine *e;
	char data[5000];
	off_t pos;
	pid_t pid;
	int out, sv[2];

	fill(data, sizeof(data), 23);
	put_file("src", data, sizeof(data));
	e = engine_for(COPY_AUTO, 0, 0);
	ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	ATF_CHECK_EQ(copy_unseen(e, "src", out, &pos), BUFSZ_OK);
	ATF_CHECK_EQ(pos, (off_t)sizeof(data));
	ATF_REQUIRE(close(out) == 0);
	same_bytes("dst", data, sizeof(data), "into a file", COPY_AUTO);
	pid = reader("piped", &out, 0, 0);
	ATF_CHECK_EQ(copy_unseen(e, "src", out, &pos), BUFSZ_OK);
	ATF_CHECK_EQ(pos, (off_t)sizeof(data));
	ATF_REQUIRE(close(out) == 0);
	reap(pid);
	same_bytes("piped", data, sizeof(data), "into a pipe", COPY_AUTO);
	ATF_REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	ATF_CHECK_EQ(copy_unseen(e, "src", sv[0], &pos), BUFSZ_OK);
	ATF_CHECK_EQ(pos, (off_t)sizeof(data));
	ATF_REQUIRE(close(sv[0]) == 0);
	ATF_REQUIRE(close(sv[1]) == 0);
	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	bufsz_engine_free(e);
	e = engine_for(COPY_RW, 0, 0);
	ATF_CHECK_EQ(copy_unseen(e, "src", out, &pos), BUFSZ_OK);
	ATF_CHECK_EQ(pos, (off_t)sizeof(data));
	ATF_CHECK_EQ(e->be_last, COPY_RW);
	bufsz_engine_free(e);
	e = engine_for(COPY_AUTO, BUFSZ_SPARSE, 0);
	ATF_CHECK_EQ(copy_unseen(e, "src", out, &pos), BUFSZ_OK);
	ATF_CHECK_EQ(pos, (off_t)sizeof(data));
	bufsz_engine_free(e);
	ATF_REQUIRE(close(out) == 0);
}

/*
 * BUFSZ_UNSEEN with no stat of the output: the engine takes it, and the
 * flag, not a stat of the input, decides (a stale one given is not used).
 */
ATF_TC_WITHOUT_HEAD(unseen_no_stats);
ATF_TC_BODY(unseen_no_stats, tc)
{
	struct bufsz_engine *e;
	struct stat stale;
	char data[7000];
	int in, out, r;

	fill(data, sizeof(data), 24);
	put_file("src", "", 0);
	ATF_REQUIRE(stat("src", &stale) == 0);
	put_file("src", data, sizeof(data));
	e = engine_for(COPY_AUTO, 0, 0);
	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
	r = copy(e, in, &stale, out, NULL, BUFSZ_UNSEEN);
	if (takes_unseen()) {
		ATF_CHECK_EQ(r, BUFSZ_OK);
		ATF_CHECK_EQ(moved(e), (off_t)sizeof(data));
		ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), (off_t)sizeof(data));
		/* The stale size of 0 would have sent it to read/write. */
		ATF_CHECK_EQ(e->be_last, COPY_SENDFILE);
	} else {
		ATF_CHECK_EQ(r, BUFSZ_OK);
		ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), (off_t)sizeof(data));
	}
	ATF_REQUIRE(close(in) == 0);
	ATF_REQUIRE(close(out) == 0);

	ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
	ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, BUFSZ_UNSEEN),
	    BUFSZ_OK);
	ATF_CHECK_EQ(lseek(in, 0, SEEK_CUR), (off_t)sizeof(data));
	ATF_REQUIRE(close(in) == 0);
	ATF_REQUIRE(close(out) == 0);
	same_bytes("dst", data, sizeof(data), "into a file", COPY_AUTO);
	bufsz_engine_free(e);
}

/* What bufsz_moved() shows of an engine: its count of every copy. */
static off_t
total(const struct bufsz_engine *e)
{

	return (atomic_load(&e->be_total));
}

/*
 * The count goes on from copy to copy, so that one taken before a copy
 * starts is where that copy's count starts, never the last copy's end.
 */
ATF_TC_WITHOUT_HEAD(moved_across_copies);
ATF_TC_BODY(moved_across_copies, tc)
{
	static const size_t sizes[] = { 5000, 0, 3 * MiB + 1, 1 };
	struct bufsz_engine *e;
	size_t i, k;
	off_t sum;
	int in, out;
	char *data;

	ATF_REQUIRE((data = malloc(3 * MiB + 1)) != NULL);
	fill(data, 3 * MiB + 1, 25);
	for (k = 0; k < NPATHS; k++) {
		e = engine_for(all_paths[k], 0, 0);
		sum = 0;
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			put_file("src", data, sizes[i]);
			ATF_CHECK_EQ(total(e), sum);
			ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
			ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT |
			    O_TRUNC, 0644)) >= 0);
			ATF_CHECK_EQ(copy(e, in, NULL, out, NULL, 0), BUFSZ_OK);
			ATF_REQUIRE(close(in) == 0);
			ATF_REQUIRE(close(out) == 0);
			same_bytes("dst", data, sizes[i], "one of several",
			    all_paths[k]);
			sum += (off_t)sizes[i];
			ATF_CHECK_EQ_MSG(total(e), sum, "%s: %jd after %zu files",
			    bufsz_path_name(all_paths[k]), (intmax_t)total(e),
			    i + 1);
		}
		bufsz_engine_free(e);
	}
	free(data);
}

/*
 * The count read by another thread, as cp's walk reads a worker's from
 * its signal handler, while the engine counts across 4 GiB, where both
 * halves of a 32-bit host's off_t change: never a value the count did
 * not hold.
 */
#define	EDGE	((off_t)1 << 32)

static atomic_int	watch_started, watch_stop;
static unsigned long	watch_reads, watch_torn;

static void *
watch(void *arg)
{
	const struct bufsz_engine *e;
	off_t v;

	e = arg;
	atomic_store(&watch_started, 1);
	while (!atomic_load(&watch_stop)) {
		v = total(e);
		if (v < EDGE - 2 || v > EDGE + 2)
			watch_torn++;
		watch_reads++;
	}
	return (NULL);
}

ATF_TC_WITHOUT_HEAD(moved_read_whole);
ATF_TC_BODY(moved_read_whole, tc)
{
	struct bufsz_engine *e;
	struct job j;
	pthread_t t;
	unsigned long i;

	e = engine_for(COPY_AUTO, 0, 0);
	memset(&j, 0, sizeof(j));
	j.j_e = e;
	j.j_left = -1;
	atomic_store(&e->be_total, EDGE - 2);
	ATF_REQUIRE(pthread_create(&t, NULL, watch, e) == 0);
	while (!atomic_load(&watch_started))
		continue;
	for (i = 0; i < 10000000; i++) {
		atomic_store(&e->be_total, EDGE - 2);
		bufsz_job_moved(&j, 1);
		bufsz_job_moved(&j, 1);
		bufsz_job_moved(&j, 1);
		bufsz_job_moved(&j, 1);
	}
	atomic_store(&watch_stop, 1);
	ATF_REQUIRE(pthread_join(t, NULL) == 0);
	ATF_CHECK_MSG(watch_torn == 0, "%lu of %lu reads torn", watch_torn,
	    watch_reads);
	bufsz_engine_free(e);
}

/* The buffer a process of its own gets after asking size at start. */
static size_t
asked(size_t size)
{
	size_t len;
	pid_t pid;
	int fds[2];

	ATF_REQUIRE(pipe(fds) == 0);
	ATF_REQUIRE((pid = fork()) != -1);
	if (pid == 0) {
		len = 0;
		if (bufsz_start(NULL, -1, size, NULL) != 0 ||
		    bufsz_buffer(NULL, NULL, &len) == NULL)
			len = 0;
		_exit(write(fds[1], &len, sizeof(len)) == sizeof(len) ? 0 : 1);
	}
	ATF_REQUIRE(close(fds[1]) == 0);
	ATF_REQUIRE(read(fds[0], &len, sizeof(len)) == sizeof(len));
	ATF_REQUIRE(close(fds[0]) == 0);
	reap(pid);
	return (len);
}

/* cat -B: whole pages, at least one, and no more than memory allows. */
ATF_TC_WITHOUT_HEAD(asked_size);
ATF_TC_BODY(asked_size, tc)
{
	struct bufsz_facts f;
	size_t limit, page;

	page = bufsz_pagesize();
	bufsz_facts_of(&f, NULL, NULL);
	limit = bufsz_policy_limit(&f);
	ATF_CHECK(limit < SIZE_MAX / 2);
	ATF_CHECK_EQ(asked(0), bufsz_policy(&f));
	ATF_CHECK_EQ(asked(2 * page), 2 * page);
	ATF_CHECK_EQ(asked(1), page);
	ATF_CHECK_EQ(asked(3 * page + 1), 3 * page);
	ATF_CHECK_EQ(asked(SIZE_MAX / 2), limit);
	ATF_CHECK_EQ(asked(SIZE_MAX), limit);
}

ATF_TP_ADD_TCS(tp)
{

	ATF_TP_ADD_TC(tp, paths_file_to_file);
	ATF_TP_ADD_TC(tp, paths_file_to_pipe);
	ATF_TP_ADD_TC(tp, paths_fifo_to_file);
	ATF_TP_ADD_TC(tp, paths_to_devnull);
	ATF_TP_ADD_TC(tp, size_is_end);
	ATF_TP_ADD_TC(tp, sparse_growing);
	ATF_TP_ADD_TC(tp, tty_eof_once);
	ATF_TP_ADD_TC(tp, stale_size);
	ATF_TP_ADD_TC(tp, path_taken);
	ATF_TP_ADD_TC(tp, append_output);
	ATF_TP_ADD_TC(tp, from_offsets);
	ATF_TP_ADD_TC(tp, beyond_4g);
	ATF_TP_ADD_TC(tp, beyond_4g_sparse);
	ATF_TP_ADD_TC(tp, sparse_leading_hole);
	ATF_TP_ADD_TC(tp, sparse_middle_hole);
	ATF_TP_ADD_TC(tp, sparse_trailing_hole);
	ATF_TP_ADD_TC(tp, sparse_only_hole);
	ATF_TP_ADD_TC(tp, sparse_rw_zeros);
	ATF_TP_ADD_TC(tp, no_sparse_flag);
	ATF_TP_ADD_TC(tp, write_error_side);
	ATF_TP_ADD_TC(tp, read_error_side);
	ATF_TP_ADD_TC(tp, nonblocking_output);
	ATF_TP_ADD_TC(tp, nonblocking_input);
	ATF_TP_ADD_TC(tp, buffer_kept);
	ATF_TP_ADD_TC(tp, buffer_one_for_many);
	ATF_TP_ADD_TC(tp, unseen_devnull);
	ATF_TP_ADD_TC(tp, unseen_devnull_untouched);
	ATF_TP_ADD_TC(tp, unseen_other_outputs);
	ATF_TP_ADD_TC(tp, unseen_no_stats);
	ATF_TP_ADD_TC(tp, moved_across_copies);
	ATF_TP_ADD_TC(tp, moved_read_whole);
	ATF_TP_ADD_TC(tp, asked_size);
	return (atf_no_error());
}
