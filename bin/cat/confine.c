/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining cat to its operands, where the host can (sandbox_*.c).
 *
 * A sandbox that forbids opening files by name (Capsicum's capability
 * mode) or allows only some (Landlock) is entered once, before anything
 * is read, so everything cat will read must be open or allowed by then.
 * The regular files and directories among the operands are opened ahead,
 * in order: that has no side effect and takes whatever stands at each
 * name now, so that a file renamed into an operand's place later changes
 * nothing.  Any other operand (a FIFO, whose open waits for a writer; a
 * socket, which is connected to; a device, whose open may do something)
 * is opened when its turn comes, which the host's sandbox must allow by
 * name (Landlock can; capability mode cannot).
 *
 * Confinement never turns a command that works into one that fails: when
 * an operand cannot be opened ahead (it is missing, unreadable, appears
 * later), cannot be allowed, or there are more operands than descriptors
 * to spare, or the host or its kernel has no sandbox, cat runs as it
 * would unconfined, every operand opened when its turn comes.
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/*
 * The most operands opened ahead: more could exceed a default limit of
 * descriptors (1024 on Linux), and a command that long (xargs) gains
 * little from confinement against what it would cost.
 */
#define	AHEAD_MAX	1000

/* Descriptors kept free beyond the operands: stdio, the engine's pipe... */
#define	AHEAD_SPARE	32

static int	*ahead;		/* operand i's descriptor, or -1 */
static size_t	 nahead;

static size_t	ahead_max(void);
static int	open_ahead(struct sandbox *, char *const []);
static void	close_ahead(void);

void
confine(char *const operands[])
{
	struct sandbox *sb;
	size_t i, n;

	for (n = 0; operands[n] != NULL; n++)
		continue;
	if (n > ahead_max() || (sb = sandbox_new()) == NULL)
		return;
	if (n > 0 && (ahead = malloc(n * sizeof(*ahead))) == NULL) {
		sandbox_free(sb);
		return;
	}
	nahead = n;
	for (i = 0; i < n; i++)
		ahead[i] = -1;
	if (open_ahead(sb, operands) != 0 || sandbox_enter(sb) != 0)
		close_ahead();
	sandbox_free(sb);
}

/* Open operand i, named path, for reading: as open(2) would. */
int
operand_open(size_t i, const char *path)
{
	int fd;

	if (i < nahead && ahead[i] != -1) {
		fd = ahead[i];
		ahead[i] = -1;
		return (fd);
	}
	return (open(path, O_RDONLY));
}

static size_t
ahead_max(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return (0);
	if (rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < AHEAD_MAX + AHEAD_SPARE)
		return (rl.rlim_cur > AHEAD_SPARE ?
		    (size_t)(rl.rlim_cur - AHEAD_SPARE) : 0);
	return (AHEAD_MAX);
}

/*
 * Open the regular files and directories among the operands, and have
 * the sandbox allow the others; -1 when one cannot be.
 */
static int
open_ahead(struct sandbox *sb, char *const operands[])
{
	struct stat st;
	size_t i;

	for (i = 0; i < nahead; i++) {
		if (strcmp(operands[i], "-") == 0)
			continue;
		if (stat(operands[i], &st) != 0)
			return (-1);
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			if (sandbox_allow_path(sb, operands[i]) != 0)
				return (-1);
			continue;
		}
		if ((ahead[i] = open(operands[i], O_RDONLY)) == -1 ||
		    sandbox_limit_fd(sb, ahead[i]) != 0)
			return (-1);
	}
	return (0);
}

/* Unconfined after all: every operand is opened when its turn comes. */
static void
close_ahead(void)
{
	size_t i;

	for (i = 0; i < nahead; i++)
		if (ahead[i] != -1)
			(void)close(ahead[i]);
	free(ahead);
	ahead = NULL;
	nahead = 0;
}
