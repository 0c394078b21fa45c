/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What every program of the tree does as it starts.
 */

#include <sys/param.h>

#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

/*
 * The progress signal is SIGINFO where the system has it, else SIGUSR1,
 * as dd(1) takes it.  Every program answers it, so that a signal meant
 * for one member of a pipeline never ends another: the others ignore it.
 */
#ifdef SIGINFO
#define	SIG_PROGRESS	SIGINFO
#else
#define	SIG_PROGRESS	SIGUSR1
#endif

static int	std_fds(void);

int
bufsz_start(char *const operands[], int tmpdir, size_t size,
    void (*progress)(int))
{
	struct bufsz_facts f;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = progress != NULL ? progress : SIG_IGN;
	sa.sa_flags = SA_RESTART;
	(void)sigemptyset(&sa.sa_mask);
	if (std_fds() != 0 || sigaction(SIG_PROGRESS, &sa, NULL) != 0)
		return (-1);
	/* Learned before threads start and before a sandbox hides /sys. */
	bufsz_facts_of(&f, NULL, NULL);
	bufsz_asked_size = MIN(size, bufsz_policy_limit(&f));
	if (operands != NULL)
		bufsz_host_sandbox(operands, tmpdir);
	return (0);
}

/*
 * A closed descriptor among 0, 1 and 2 would be handed to the first file
 * opened: cp's target would receive its messages as descriptor 2.  Each
 * is held by /dev/null opened for the other direction only, so that using
 * it still fails with EBADF as it did while closed.  Those below it are
 * open, so open(2) gives it.
 */
static int
std_fds(void)
{
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
		    open(_PATH_DEVNULL, (fd == STDIN_FILENO ? O_WRONLY :
		    O_RDONLY) | O_NOCTTY) != fd)
			return (-1);
	return (0);
}
