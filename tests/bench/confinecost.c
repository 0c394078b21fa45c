/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * confinecost: what cat's sandbox costs.  Runs a command RUNS times, its
 * output into /dev/null, and prints the CPU time (user and system) per
 * run in microseconds, of the runs alone:
 *
 *	confinecost [-u] RUNS command [arg ...]
 *
 * Each run has a seccomp filter in force that, with -u, makes
 * landlock_create_ruleset(2) fail with ENOSYS, as on a kernel without
 * Landlock, so that cat runs unconfined; without -u the same filter lets
 * it through.  The two differ in nothing else, not even the filter's
 * length, and the program under test has no knob for it.
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A number no system call has: the filter's test that never matches. */
#define	NO_SYSCALL	0x7fffffffU

static void	usage(void) __dead2;
static void	filter_landlock(int);
static void	run_once(char **);

int
main(int argc, char *argv[])
{
	struct rusage ru;
	long runs, i;
	char *end;
	int ch, unconfined;

	unconfined = 0;
	while ((ch = getopt(argc, argv, "+u")) != -1)
		switch (ch) {
		case 'u':
			unconfined = 1;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	errno = 0;
	runs = strtol(argv[0], &end, 10);
	if (errno != 0 || *end != '\0' || runs < 1)
		usage();
	filter_landlock(unconfined);
	for (i = 0; i < runs; i++)
		run_once(argv + 1);
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		err(1, "getrusage");
	printf("%.2f\n", ((double)ru.ru_utime.tv_sec * 1e6 +
	    (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec * 1e6 +
	    (double)ru.ru_stime.tv_usec) / (double)runs);
	return (0);
}

static void
usage(void)
{

	(void)fprintf(stderr, "usage: confinecost [-u] runs command ...\n");
	exit(1);
}

/*
 * The filter, inherited by every run: ENOSYS for
 * landlock_create_ruleset(2) if unconfined, for no call otherwise.
 */
static void
filter_landlock(int unconfined)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NO_SYSCALL, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog;

	if (unconfined)
		insns[1].k = SYS_landlock_create_ruleset;
	prog.len = sizeof(insns) / sizeof(insns[0]);
	prog.filter = insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
		err(1, "seccomp");
}

static void
run_once(char **cmd)
{
	pid_t pid;
	int fd, status;

	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) == -1 ||
		    dup2(fd, STDOUT_FILENO) == -1)
			err(1, "/dev/null");
		execvp(cmd[0], cmd);
		err(127, "%s", cmd[0]);
	}
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		errx(1, "%s: exit status %d", cmd[0], status);
}
