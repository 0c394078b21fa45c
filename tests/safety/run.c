/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Running a program under test: its standard descriptors as the case
 * asks (a pipe, /dev/null, closed, or arranged by the case itself), no
 * other descriptor inherited, optionally as nobody and with a file size
 * limit, killed by SIGALRM when it hangs.  A preloaded library reports
 * the descriptors still open when it exits (fdcheck.c).
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <paths.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "safety.h"

static const char	*preload;	/* the descriptor report library */
static const char	*iodir;		/* where its reports go */
static unsigned long	 nrun;
static dev_t		 procdev;	/* /proc's, if there is one */
static int		 haveproc;

static void	child(struct run *, int, int, int, char **);
static char	**make_env(const struct run *, const char *);
static void	drain(struct run *, pid_t, int, int, int);

void
run_init(const char *lib, const char *dir)
{
	struct stat st;

	preload = lib;
	iodir = dir;
	if (stat("/proc/self", &st) == 0) {
		procdev = st.st_dev;
		haveproc = 1;
	}
}

/*
 * A descriptor that may be open at exit without having leaked: a
 * directory in /proc, which cat built with AddressSanitizer holds on
 * purpose (its sandbox lets the leak check read /proc/self through it).
 */
int
fd_exempt(unsigned mode, uintmax_t dev)
{

	return (haveproc && S_ISDIR((mode_t)mode) && dev == (uintmax_t)procdev);
}

/* The lines of a descriptor report that fd_exempt() does not excuse. */
char *
fds_unexcused(const char *report)
{
	const char *p, *e;
	uintmax_t dev, ino;
	unsigned mode;
	char *out;
	size_t len;
	int fd;

	out = xstrdup("");
	len = 0;
	for (p = report; p != NULL && *p != '\0'; p = e != NULL ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (sscanf(p, "%d %u %ju %ju", &fd, &mode, &dev, &ino) == 4 &&
		    fd_exempt(mode, dev))
			continue;
		out = xrealloc(out, len + (e != NULL ? (size_t)(e - p) :
		    strlen(p)) + 3);
		memcpy(out + len, p, e != NULL ? (size_t)(e - p) : strlen(p));
		len += e != NULL ? (size_t)(e - p) : strlen(p);
		out[len++] = ';';
		out[len] = '\0';
	}
	return (out);
}

int
nobody_ids(uid_t *uid, gid_t *gid)
{
	struct passwd *pw;

	if ((pw = getpwnam("nobody")) == NULL)
		return (-1);
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return (0);
}

static void
env_add(char ***envp, size_t *n, char *s)
{

	*envp = xrealloc(*envp, (*n + 2) * sizeof(**envp));
	(*envp)[(*n)++] = s;
	(*envp)[*n] = NULL;
}

/* A sanitizer's options: the caller's, then ours. */
static char *
san_opts(const char *name, const char *ours)
{
	const char *v;

	v = getenv(name);
	return (xasprintf("%s=%s%s%s", name, v != NULL ? v : "",
	    v != NULL && *v != '\0' ? ":" : "", ours));
}

static char **
make_env(const struct run *r, const char *report)
{
	char **envp;
	const char *v;
	size_t i, n;

	envp = NULL;
	n = 0;
	env_add(&envp, &n, xstrdup("PATH=/usr/bin:/bin"));
	env_add(&envp, &n, xstrdup("LC_ALL=C"));
	env_add(&envp, &n, xasprintf("HOME=%s", r->cwd));
	/*
	 * A sanitizer's report must not pass for an ordinary exit 1, and the
	 * preloaded library comes before the sanitizer's runtime.
	 */
	env_add(&envp, &n, san_opts("ASAN_OPTIONS",
	    "verify_asan_link_order=0:exitcode=86"));
	env_add(&envp, &n, san_opts("UBSAN_OPTIONS",
	    "print_stacktrace=1:exitcode=87"));
	if ((v = getenv("LSAN_OPTIONS")) != NULL)
		env_add(&envp, &n, xasprintf("LSAN_OPTIONS=%s", v));
	if (preload != NULL) {
		env_add(&envp, &n, xasprintf("LD_PRELOAD=%s", preload));
		env_add(&envp, &n, xasprintf("SAFETY_FDS=%s", report));
	}
	for (i = 0; r->env != NULL && r->env[i] != NULL; i++)
		env_add(&envp, &n, xstrdup(r->env[i]));
	return (envp);
}

static void
free_env(char **envp)
{
	size_t i;

	for (i = 0; envp[i] != NULL; i++)
		free(envp[i]);
	free(envp);
}

int
run(struct run *r)
{
	char **envp, *report;
	size_t len;
	pid_t pid;
	int inp[2], outp[2], errp[2];

	inp[0] = inp[1] = outp[0] = outp[1] = errp[0] = errp[1] = -1;
	r->outbuf = r->errbuf = r->fds = NULL;
	r->outlen = r->errlen = 0;
	report = xasprintf("%s/fds.%ld.%lu", iodir, (long)getpid(), nrun++);
	(void)unlink(report);
	envp = make_env(r, report);
	if ((r->in == IO_PIPE && pipe(inp) == -1) ||
	    (r->out == IO_PIPE && pipe(outp) == -1) ||
	    (r->err == IO_PIPE && pipe(errp) == -1))
		err(3, "pipe");
	(void)fflush(NULL);
	if ((pid = fork()) == -1)
		err(3, "fork");
	if (pid == 0) {
		child(r, inp[0], outp[1], r->err == IO_MERGE ? outp[1] :
		    errp[1], envp);
		_exit(127);
	}
	if (inp[0] != -1)
		(void)close(inp[0]);
	if (outp[1] != -1)
		(void)close(outp[1]);
	if (errp[1] != -1)
		(void)close(errp[1]);
	drain(r, pid, inp[1], outp[0], errp[0]);
	free_env(envp);
	if (read_file(report, &r->fds, &len) == -1)
		r->fds = NULL;
	(void)unlink(report);
	free(report);
	return (0);
}

/* Put fd at target, unless it is there already. */
static void
place(int fd, int target)
{

	if (fd == target)
		return;
	if (dup2(fd, target) == -1)
		_exit(126);
}

static void
child(struct run *r, int in, int out, int errfd, char **envp)
{
	struct rlimit rl;
	uid_t uid;
	gid_t gid;
	int fd, max, nul;

	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGALRM, SIG_DFL);
	(void)signal(SIGXFSZ, SIG_IGN);
	/* Above 2 first, so that placing one cannot close another. */
	if ((nul = fcntl(open(_PATH_DEVNULL, O_RDWR), F_DUPFD, 10)) == -1 ||
	    (in != -1 && (in = fcntl(in, F_DUPFD, 10)) == -1) ||
	    (out != -1 && (out = fcntl(out, F_DUPFD, 10)) == -1) ||
	    (errfd != -1 && (errfd = fcntl(errfd, F_DUPFD, 10)) == -1))
		_exit(126);
	if (r->in == IO_PIPE)
		place(in, 0);
	else if (r->in == IO_NULL)
		place(nul, 0);
	if (r->out == IO_PIPE)
		place(out, 1);
	else if (r->out == IO_NULL)
		place(nul, 1);
	if (r->err == IO_PIPE || r->err == IO_MERGE)
		place(errfd, 2);
	max = (int)sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 4096)
		max = 4096;
	for (fd = 3; fd < max; fd++)
		(void)close(fd);
	if (r->in == IO_CLOSED)
		(void)close(0);
	if (r->out == IO_CLOSED)
		(void)close(1);
	if (r->err == IO_CLOSED)
		(void)close(2);
	if (r->setup != NULL)
		r->setup(r->arg);
	if (r->fsize > 0) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)r->fsize;
		if (setrlimit(RLIMIT_FSIZE, &rl) == -1)
			_exit(126);
	}
	if (r->nobody) {
		if (nobody_ids(&uid, &gid) == -1 || setgroups(0, NULL) == -1 ||
		    setgid(gid) == -1 || setuid(uid) == -1)
			_exit(126);
	}
	if (r->cwd != NULL && chdir(r->cwd) == -1)
		_exit(126);
	(void)umask(022);
	(void)alarm(r->timeout > 0 ? r->timeout : 60);
	execve(r->argv[0], r->argv, envp);
	_exit(127);
}

static void
append(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{

	if (*len + n + 1 > *cap) {
		while (*len + n + 1 > *cap)
			*cap = *cap == 0 ? 4096 : *cap * 2;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/*
 * Feed stdin, collect stdout and stderr, wait.  A child that outlives
 * its own alarm by far is killed here.
 */
static void
drain(struct run *r, pid_t pid, int in, int out, int errfd)
{
	struct pollfd pfd[3];
	char buf[65536];
	size_t inoff, ocap, ecap;
	time_t deadline;
	ssize_t n;
	int i, killed, nfd;

	ocap = ecap = 0;
	inoff = 0;
	killed = 0;
	append(&r->outbuf, &r->outlen, &ocap, "", 0);
	append(&r->errbuf, &r->errlen, &ecap, "", 0);
	if (in != -1)
		(void)fcntl(in, F_SETFL, O_NONBLOCK);
	if (in != -1 && r->inputlen == 0) {
		(void)close(in);
		in = -1;
	}
	deadline = time(NULL) + (r->timeout > 0 ? r->timeout : 60) + 15;
	r->sent = 0;
	for (;;) {
		/* SIGUSR1s, a millisecond apart, once it has its handler. */
		if (r->sent < r->signals && host_catches(pid, SIGUSR1) == 1 &&
		    kill(pid, SIGUSR1) == 0)
			r->sent++;
		nfd = 0;
		if (in != -1) {
			pfd[nfd].fd = in;
			pfd[nfd++].events = POLLOUT;
		}
		if (out != -1) {
			pfd[nfd].fd = out;
			pfd[nfd++].events = POLLIN;
		}
		if (errfd != -1) {
			pfd[nfd].fd = errfd;
			pfd[nfd++].events = POLLIN;
		}
		if (nfd == 0)
			break;
		if (time(NULL) > deadline && !killed) {
			(void)kill(pid, SIGKILL);
			killed = 1;
		}
		if (poll(pfd, (nfds_t)nfd, r->sent < r->signals ? 1 : 1000) ==
		    -1) {
			if (errno == EINTR)
				continue;
			err(3, "poll");
		}
		for (i = 0; i < nfd; i++) {
			if (pfd[i].revents == 0)
				continue;
			if (pfd[i].fd == in) {
				n = write(in, r->input + inoff,
				    r->inputlen - inoff);
				if (n > 0)
					inoff += (size_t)n;
				if (n == -1 && errno == EAGAIN)
					continue;
				if (n <= 0 || inoff == r->inputlen) {
					(void)close(in);
					in = -1;
				}
				continue;
			}
			n = read(pfd[i].fd, buf, sizeof(buf));
			if (n == -1 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				(void)close(pfd[i].fd);
				if (pfd[i].fd == out)
					out = -1;
				else
					errfd = -1;
				continue;
			}
			if (pfd[i].fd == out)
				append(&r->outbuf, &r->outlen, &ocap, buf,
				    (size_t)n);
			else
				append(&r->errbuf, &r->errlen, &ecap, buf,
				    (size_t)n);
		}
	}
	while (waitpid(pid, &r->status, 0) == -1)
		if (errno != EINTR)
			err(3, "waitpid");
}

/*
 * How the run ended: its exit status, or -1 with the signal that killed
 * it in *sig.  (NetBSD's W* macros take the address of their argument,
 * so they get a copy.)
 */
int
run_status(const struct run *r, int *sig)
{
	int status;

	status = r->status;
	*sig = 0;
	if (WIFSIGNALED(status)) {
		*sig = WTERMSIG(status);
		return (-1);
	}
	return (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

void
run_free(struct run *r)
{

	free(r->outbuf);
	free(r->errbuf);
	free(r->fds);
	r->outbuf = r->errbuf = r->fds = NULL;
}

/* "as nobody, 0<&-, ...: cp -R src dst", for a report. */
char *
run_describe(const struct run *r)
{
	char *s, *q, *t;
	size_t i;

	s = xstrdup("");
	for (i = 0; r->env != NULL && r->env[i] != NULL; i++) {
		t = xasprintf("%s%s ", s, r->env[i]);
		free(s);
		s = t;
	}
	for (i = 0; r->argv[i] != NULL; i++) {
		q = shell_quote(i == 0 && strrchr(r->argv[0], '/') != NULL ?
		    strrchr(r->argv[0], '/') + 1 : r->argv[i]);
		t = xasprintf("%s%s%s", s, i > 0 ? " " : "", q);
		free(q);
		free(s);
		s = t;
	}
	if (r->in == IO_CLOSED) {
		t = xasprintf("%s <&-", s);
		free(s);
		s = t;
	} else if (r->in == IO_PIPE) {
		q = shell_quote(r->input);
		t = xasprintf("printf %%s %s | %s", q, s);
		free(q);
		free(s);
		s = t;
	}
	if (r->out == IO_CLOSED) {
		t = xasprintf("%s >&-", s);
		free(s);
		s = t;
	}
	if (r->err == IO_CLOSED || r->err == IO_MERGE) {
		t = xasprintf("%s %s", s, r->err == IO_CLOSED ? "2>&-" :
		    "2>&1");
		free(s);
		s = t;
	}
	if (r->fsize > 0) {
		t = xasprintf("[RLIMIT_FSIZE=%jd, SIGXFSZ ignored] %s",
		    (intmax_t)r->fsize, s);
		free(s);
		s = t;
	}
	if (r->nobody) {
		q = shell_quote(s);
		t = xasprintf("su -s /bin/sh nobody -c %s", q);
		free(q);
		free(s);
		s = t;
	}
	return (s);
}
