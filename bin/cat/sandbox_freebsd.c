/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's sandbox on FreeBSD: Capsicum's capability mode.
 *
 * In capability mode nothing can be opened, created or connected to by
 * name: cat keeps only the descriptors it has.  FreeBSD's own cat opens
 * its operands later through libcasper's fileargs service, a helper
 * process; without it, confine.c opens the operands ahead, and each is
 * limited here to what reading it needs.  An operand that can only be
 * opened when its turn comes (a FIFO, a socket, a device) leaves cat
 * unconfined.
 */

#include <sys/types.h>
#include <sys/capsicum.h>

#include <errno.h>
#include <stdlib.h>

#include "extern.h"

struct sandbox {
	cap_rights_t	sb_rights;	/* what an operand's descriptor keeps */
};

struct sandbox *
sandbox_new(void)
{
	struct sandbox *sb;

	if ((sb = malloc(sizeof(*sb))) == NULL)
		return (NULL);
	/*
	 * Reading by read(2), copy_file_range(2) or mmap(2) (BUFSZ_PATH),
	 * fstat(2), lseek(2) (the input-is-output check), fcntl(2), and
	 * poll(2) when a read would wait.
	 */
	cap_rights_init(&sb->sb_rights, CAP_READ, CAP_SEEK, CAP_FSTAT,
	    CAP_FCNTL, CAP_MMAP_R, CAP_EVENT);
	return (sb);
}

int
sandbox_limit_fd(struct sandbox *sb, int fd)
{

	return (cap_rights_limit(fd, &sb->sb_rights));
}

/* Capability mode cannot allow a name. */
int
sandbox_allow_path(struct sandbox *sb, const char *path)
{

	(void)sb;
	(void)path;
	errno = EOPNOTSUPP;
	return (-1);
}

/* A kernel without Capsicum (ENOSYS) leaves cat as it was. */
int
sandbox_enter(struct sandbox *sb)
{

	(void)sb;
	return (cap_enter());
}

void
sandbox_free(struct sandbox *sb)
{

	free(sb);
}
