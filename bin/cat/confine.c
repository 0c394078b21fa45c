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
 * nothing.  Any other operand (a FIFO, whose open waits for a writer and,
 * made not to wait, would tell its writers that a reader is there; a
 * socket, which is connected to; a device, whose open may do something)
 * is opened when its turn comes, which the host's sandbox must allow by
 * name (Landlock can; capability mode cannot).
 *
 * What a name leads to must therefore be known before it is opened:
 * nothing opens a file only if it is regular (Linux's O_PATH opens
 * anything harmlessly, but what it opens cannot be read).  So each
 * operand costs a stat(2) ahead, and that stat stands for the fstat(2)
 * cat would otherwise make once it has opened the file: a small file
 * confined costs stat, open, one copy and close, as many calls as open,
 * fstat, copy and close unconfined (or open, copy, a seek to the end and
 * close into /dev/null, bufsz_copy_opened()).  A file renamed into the name between
 * the stat and the open (microseconds, before anything is read) is read
 * with the stat of the one it replaced; the copy engine takes a stat as a
 * first look only, as for a file that grows, and whoever can rename files
 * in that directory could have put anything at that name before cat
 * started.  The open has O_NOCTTY, should it meet a terminal then.
 *
 * Confinement never turns a command that works into one that fails: when
 * an operand cannot be opened ahead (it is missing, unreadable, appears
 * later), cannot be allowed, or there are too many operands, or the host
 * or its kernel has no sandbox, cat stays unconfined; the operands opened
 * ahead so far are still read from those descriptors, and the others are
 * opened when their turn comes.
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "extern.h"

/*
 * The most operands opened ahead.  Each holds, until its turn, a
 * descriptor (Linux's open file is 192 bytes, its slot 8 more) and an
 * entry here (152 bytes with glibc on amd64, mostly its stat): about 350
 * bytes a file.  It costs time too, though no calls: by its turn a file
 * has gone cold in the processor's caches, which costs nothing
 * measurable for a few hundred files and about 1 us a file from some
 * thousands on.  CPU time of `xargs cat` over 20,000 files of 4 KiB into
 * /dev/null, medians of 9 interleaved runs (AMD EPYC KVM guest, 2 vCPUs,
 * Linux 6.18): 65 ms confined, 45 unconfined, 43 for busybox cat.  So
 * a command line as long as xargs(1) makes runs unconfined, at the speed
 * the tree exists for; a thousand operands (a glob, a script) still get
 * the sandbox for next to nothing (500 files: 2.24 ms against 2.15).
 */
#define	AHEAD_MAX	1024

/*
 * Descriptors kept free beyond the operands: the standard ones, any
 * inherited, the sandbox's own, the engine's pipe, a socket operand.
 */
#define	AHEAD_SPARE	32

struct ahead {
	int		a_fd;	/* -1: not opened ahead, or taken */
	struct stat	a_st;	/* taken by name just before the open */
};

static struct ahead *ahead;
static size_t	 nahead;

static int	fds_for(size_t);
static int	open_ahead(struct sandbox *, char *const []);

void
confine(char *const operands[])
{
	struct sandbox *sb;
	size_t i, n;

	for (n = 0; operands[n] != NULL; n++)
		continue;
	if (n > AHEAD_MAX || (sb = sandbox_new()) == NULL)
		return;
	if (!fds_for(n) ||
	    (n > 0 && (ahead = malloc(n * sizeof(*ahead))) == NULL)) {
		sandbox_free(sb);
		return;
	}
	nahead = n;
	for (i = 0; i < n; i++)
		ahead[i].a_fd = -1;
	if (open_ahead(sb, operands) == 0)
		(void)sandbox_enter(sb);
	sandbox_free(sb);
}

int
operand_ahead(size_t i, struct stat *st)
{
	int fd;

	if (i >= nahead || (fd = ahead[i].a_fd) == -1)
		return (-1);
	ahead[i].a_fd = -1;
	*st = ahead[i].a_st;
	return (fd);
}

/*
 * Whether n more descriptors may be open at once, the soft limit raised
 * within the hard one if it must be: Linux's default soft limit is 1024,
 * and systemd's hard one 524288.  cat runs nothing that would inherit it.
 */
static int
fds_for(size_t n)
{
	struct rlimit rl;
	rlim_t want;

	want = (rlim_t)n + AHEAD_SPARE;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return (0);
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return (1);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		return (0);
	rl.rlim_cur = want;
	return (setrlimit(RLIMIT_NOFILE, &rl) == 0);
}

/*
 * Open the regular files and directories among the operands, and have
 * the sandbox allow the others; -1 at the first that cannot be, the ones
 * before it staying open.
 */
static int
open_ahead(struct sandbox *sb, char *const operands[])
{
	struct ahead *a;
	size_t i;

	for (i = 0; i < nahead; i++) {
		if (strcmp(operands[i], "-") == 0)
			continue;
		a = &ahead[i];
		if (stat(operands[i], &a->a_st) != 0)
			return (-1);
		if (!S_ISREG(a->a_st.st_mode) && !S_ISDIR(a->a_st.st_mode)) {
			if (sandbox_allow_path(sb, operands[i]) != 0)
				return (-1);
			continue;
		}
		if ((a->a_fd = open(operands[i], O_RDONLY | O_NOCTTY)) == -1 ||
		    sandbox_limit_fd(sb, a->a_fd) != 0)
			return (-1);
	}
	return (0);
}
