/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz: the I/O buffer policy and the copy engine that cat, cp, tail
 * and yes share.  Internal to the tree, never installed.  Each thread
 * copies with an engine of its own, made on its first use.
 */

#ifndef _BUFSZ_H_
#define	_BUFSZ_H_

#include <sys/types.h>
#include <sys/stat.h>

#include <stdatomic.h>
#include <stdint.h>

/* bufsz_copy() flags. */
#define	BUFSZ_SPARSE	0x01	/* out is a new, empty file: keep holes */
#define	BUFSZ_UNSEEN	0x02	/* in was just opened and not looked at */

/* What bufsz_copy() returns. */
#define	BUFSZ_OK	0
#define	BUFSZ_EREAD	1	/* the input failed; errno says why */
#define	BUFSZ_EWRITE	2	/* the output failed; errno says why */

/* What bufsz_open() returns for a name the sandbox keeps out. */
#define	BUFSZ_OUTSIDE	(-2)

/*
 * Call once, before any file is opened: descriptors 0, 1 and 2 that are
 * closed are held on /dev/null, and the progress signal (SIGINFO, or
 * SIGUSR1 where there is none) calls progress, or is ignored if NULL.
 * size, if not 0, is the buffer the user asked for (cat -B).  With
 * operands not NULL the process is confined, where the host can do it
 * without a helper, to reading what the list names ("-" is the standard
 * input) and, unless tmpdir is -1, to making files beneath that open
 * directory.  Returns 0, or -1 with errno set.
 */
int	bufsz_start(char *const operands[], int tmpdir, size_t size,
	    void (*progress)(int));

/*
 * Open an operand for reading, with flags added to O_RDONLY: a
 * descriptor, -1 with errno set, or BUFSZ_OUTSIDE.
 */
int	bufsz_open(const char *, int);

/*
 * Copy in from its offset to its end to out at its offset, by the
 * fastest path that is correct for the pair.  Either stat may be NULL.
 * BUFSZ_UNSEEN: in is at offset 0, shared with no one, and its stat is
 * not given.
 */
int	bufsz_copy(int in, const struct stat *inst, int out,
	    const struct stat *outst, int flags);

/* The count of bytes the calling thread's copy under way has moved. */
const _Atomic off_t *bufsz_moved(void);

/*
 * The calling thread's buffer, sized by the policy for in and out (either
 * may be NULL), for callers that read or build what they write.
 */
char	*bufsz_buffer(const struct stat *in, const struct stat *out,
	    size_t *len);

/*
 * read(2) and a whole write(2) that retry EINTR and wait out EAGAIN; a
 * short write is finished.  write_all returns 0 or -1.
 */
ssize_t	bufsz_read(int, void *, size_t);
int	bufsz_write_all(int, const void *, size_t);

/*
 * The memory this process may use, as the policy counts it (0: unknown),
 * and the processors it may run on (at least one); either may be NULL.
 */
void	bufsz_limits(uint64_t *memory, int *cpus);

#endif /* !_BUFSZ_H_ */
