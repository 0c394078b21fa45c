/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What every program of the tree does as it starts, and how it opens its
 * operands when it may be confined.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

static int	std_fds(void);
static int	catch_progress(void (*)(int));

static int	confined;

int
bufsz_start(char *const operands[], int tmpdir, size_t size,
    void (*progress)(int))
{
	struct bufsz_facts f;
	size_t page, limit;

	if (std_fds() != 0 || catch_progress(progress) != 0)
		return (-1);
	/* Learned before threads start and before a sandbox hides /sys. */
	bufsz_facts_of(&f, NULL, NULL);
	if (size != 0) {
		page = bufsz_pagesize();
		limit = bufsz_policy_limit(&f);
		size = size > limit ? limit : size;
		bufsz_asked_size = size < page ? page : size - size % page;
	}
	if (operands != NULL)
		confined = bufsz_host_sandbox(operands, tmpdir);
	return (0);
}

/*
 * A closed descriptor among 0, 1 and 2 would be handed to the first file
 * opened: cp's target would receive its messages as descriptor 2.  Each
 * is held by /dev/null opened for the other direction only, so that using
 * it still fails with EBADF as it did while closed.
 */
static int
std_fds(void)
{
	int fd, nfd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if ((nfd = open(_PATH_DEVNULL, (fd == STDIN_FILENO ? O_WRONLY :
		    O_RDONLY) | O_NOCTTY)) == -1)
			return (-1);
		if (nfd != fd && (dup2(nfd, fd) == -1 || close(nfd) != 0))
			return (-1);
	}
	return (0);
}

/*
 * SIGINFO where the system has it, else SIGUSR1, as dd(1) takes it.
 * Every program answers it, so that a signal meant for one member of a
 * pipeline never ends another: the others ignore it.
 */
static int
catch_progress(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler != NULL ? handler : SIG_IGN;
	sa.sa_flags = SA_RESTART;
	(void)sigemptyset(&sa.sa_mask);
#ifdef SIGINFO
	return (sigaction(SIGINFO, &sa, NULL));
#else
	return (sigaction(SIGUSR1, &sa, NULL));
#endif
}

/*
 * Where the sandbox refused what the file's permissions allow, the name
 * now leads outside it, unless what it leads to tells otherwise (a
 * directory).
 */
int
bufsz_open(const char *path, int flags)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NOCTTY | flags)) != -1 ||
	    errno != EACCES || !confined)
		return (fd);
	if (faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) != 0) {
		errno = EACCES;
		return (-1);
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return (-1);
	}
	return (BUFSZ_OUTSIDE);
}
