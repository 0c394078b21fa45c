/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Running cp: stdout and stderr into files outside the scratch area (or
 * stderr closed), stdin /dev/null or closed, no other descriptor
 * inherited; as nobody and with a file size limit if asked; killed by
 * SIGALRM when it hangs.  A preloaded library reports the descriptors
 * still open when it exits (fdcheck.c).
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <paths.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety.h"

#define	TIMEOUT	60	/* seconds: a run that takes longer hangs */

static const char	*preload;	/* the descriptor report library */
static const char	*iodir;		/* where the run's files go */
static dev_t		 procdev;	/* /proc's, if there is one */
static int		 haveproc;

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
 * directory in /proc, which a sanitizer build may hold on purpose (a
 * sandbox that lets the leak check read /proc/self through it).
 */
int
fd_exempt(unsigned mode, uintmax_t dev)
{

	return (haveproc && S_ISDIR((mode_t)mode) && dev == (uintmax_t)procdev);
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

/* A sanitizer's options: the caller's, then ours. */
static char *
san_opts(const char *name, const char *ours)
{
	const char *v;

	v = getenv(name);
	return (xasprintf("%s=%s%s%s", name, v != NULL ? v : "",
	    v != NULL && *v != '\0' ? ":" : "", ours));
}

/*
 * A sanitizer's report must not pass for an ordinary exit 1, and the
 * preloaded library comes before the sanitizer's runtime.
 */
static char **
make_env(const struct run *r, const char *report)
{
	const char *lsan;
	char **envp;
	size_t i, n;

	for (n = 0; r->cc->env[n] != NULL; n++)
		;
	envp = xmalloc((n + 9) * sizeof(*envp));
	envp[0] = xstrdup("PATH=/usr/bin:/bin");
	envp[1] = xstrdup("LC_ALL=C");
	envp[2] = xasprintf("HOME=%s", r->cwd);
	envp[3] = san_opts("ASAN_OPTIONS", "verify_asan_link_order=0:"
	    "exitcode=86");
	envp[4] = san_opts("UBSAN_OPTIONS", "print_stacktrace=1:exitcode=87");
	lsan = getenv("LSAN_OPTIONS");
	envp[5] = xasprintf("LSAN_OPTIONS=%s", lsan != NULL ? lsan : "");
	envp[6] = xasprintf("LD_PRELOAD=%s", preload != NULL ? preload : "");
	envp[7] = xasprintf("SAFETY_FDS=%s", report);
	for (i = 0; i < n; i++)
		envp[8 + i] = xstrdup(r->cc->env[i]);
	envp[8 + n] = NULL;
	return (envp);
}

/* A file in the run's directory for one of cp's descriptors. */
static int
io_file(const char *name)
{
	char *path;
	int fd;

	path = xasprintf("%s/%s", iodir, name);
	(void)unlink(path);
	if ((fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1)
		err(3, "%s", path);
	free(path);
	return (fd);
}

/*
 * In the child: the descriptors, the limit, the user, the alarm.  The
 * descriptors go above 2 first, so that placing one cannot close another.
 */
static void
child(const struct run *r, int in, int out, int errfd, char **envp)
{
	struct rlimit rl;
	uid_t uid;
	gid_t gid;
	int fd, max;

	(void)signal(SIGPIPE, SIG_DFL);
	(void)signal(SIGALRM, SIG_DFL);
	(void)signal(SIGXFSZ, SIG_IGN);
	if ((in = fcntl(in, F_DUPFD, 10)) == -1 ||
	    (out = fcntl(out, F_DUPFD, 10)) == -1 ||
	    (errfd = fcntl(errfd, F_DUPFD, 10)) == -1 ||
	    dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(errfd, 2) == -1)
		_exit(126);
	max = (int)sysconf(_SC_OPEN_MAX);
	for (fd = 3; fd < (max < 0 || max > 4096 ? 4096 : max); fd++)
		(void)close(fd);
	if (r->cc->in == IO_CLOSED)
		(void)close(0);
	if (r->cc->err == IO_CLOSED)
		(void)close(2);
	rl.rlim_cur = rl.rlim_max = (rlim_t)r->cc->fsize;
	if (r->cc->fsize > 0 && setrlimit(RLIMIT_FSIZE, &rl) == -1)
		_exit(126);
	if (r->cc->nobody && (nobody_ids(&uid, &gid) == -1 ||
	    setgroups(0, NULL) == -1 || setgid(gid) == -1 ||
	    setuid(uid) == -1))
		_exit(126);
	if (chdir(r->cwd) == -1)
		_exit(126);
	(void)umask(022);
	(void)alarm(TIMEOUT);
	execve(r->argv[0], r->argv, envp);
	_exit(127);
}

/* Everything in fd from its start. */
static char *
slurp(int fd)
{
	char *s;

	if (lseek(fd, 0, SEEK_SET) == -1 || (s = read_all(fd)) == NULL)
		err(3, "reading what cp wrote");
	(void)close(fd);
	return (s);
}

void
run(struct run *r)
{
	char **envp, *report;
	size_t i;
	pid_t pid;
	int errfd, fd, in, out;

	report = xasprintf("%s/fds", iodir);
	(void)unlink(report);
	envp = make_env(r, report);
	if ((in = open(_PATH_DEVNULL, O_RDONLY | O_CLOEXEC)) == -1)
		err(3, "%s", _PATH_DEVNULL);
	out = io_file("out");
	errfd = io_file("err");
	(void)fflush(NULL);
	if ((pid = fork()) == -1)
		err(3, "fork");
	if (pid == 0)
		child(r, in, out, errfd, envp);
	(void)close(in);
	while (waitpid(pid, &r->status, 0) == -1)
		if (errno != EINTR)
			err(3, "waitpid");
	r->outbuf = slurp(out);
	r->errbuf = slurp(errfd);
	r->fds = NULL;
	if ((fd = open(report, O_RDONLY | O_CLOEXEC)) != -1)
		r->fds = slurp(fd);
	(void)unlink(report);
	free(report);
	for (i = 0; envp[i] != NULL; i++)
		free(envp[i]);
	free(envp);
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
	*sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
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
