/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz: how large an I/O buffer should be, and a copy engine that
 * moves bytes between two descriptors by the fastest path that is correct
 * for them.  cat, cp and yes share it.  It is internal to the tree (built,
 * linked, never installed); README beside this file says how it decides,
 * and bufsz_private.h holds the policy, probe and test hooks behind it.
 */

#ifndef _BUFSZ_H_
#define	_BUFSZ_H_

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

struct bufsz_engine;		/* one a program, kept for its whole run */

#define	BUFSZ_SPARSE	0x01	/* outputs are new, empty files: keep holes */

/* What bufsz_copy() returns. */
#define	BUFSZ_OK	0
#define	BUFSZ_EREAD	1	/* the input failed; errno says why */
#define	BUFSZ_EWRITE	2	/* the output failed; errno says why */
#define	BUFSZ_UNSEEN	3	/* bufsz_copy_opened(): nothing done */

/* An engine with these flags; NULL with errno set when memory is short. */
struct bufsz_engine *bufsz_engine_new(int flags);
void	bufsz_engine_free(struct bufsz_engine *);

/*
 * Copy in, from its offset to its end, to out at its offset.  The stats
 * describe the two descriptors; either may be NULL (the engine takes it).
 * A refused fast path hands over to read/write without losing a byte.
 */
int	bufsz_copy(struct bufsz_engine *, int in, const struct stat *inst,
	    int out, const struct stat *outst);

/*
 * The same for an input the caller has just opened, at offset 0, shared
 * with no one, and not yet looked at: the engine may copy it without a
 * stat (a small file into /dev/null on Linux: open, sendfile, read,
 * close).  BUFSZ_UNSEEN when it moved nothing and took no stat: the
 * caller looks at the input and calls bufsz_copy().
 */
int	bufsz_copy_opened(struct bufsz_engine *, int in, int out,
	    const struct stat *outst);

/*
 * 1 when fd, a regular file of stat st, is on a file system known to keep
 * its files' sizes, so that its data ends where st_size says (and a size
 * below an offset means the file was cut); 0 where only a read that
 * returns 0 tells (FUSE, NFS, /proc) or fd is no regular file.  Asked of
 * the host once per file system (st_dev) for the engine's life; the
 * engine's own copies follow the same answer.
 */
int	bufsz_size_is_end(struct bufsz_engine *, int fd, const struct stat *st);

/* Bytes moved so far by the copy under way; safe in a signal handler. */
off_t	bufsz_moved(const struct bufsz_engine *);

/*
 * The buffer for a copy from in to out (either stat may be NULL: no such
 * side), in whole pages; BUFSZ_SIZE in the environment overrides it.
 */
size_t	bufsz_size(const struct stat *in, const struct stat *out);

/*
 * The engine's own buffer, of bufsz_size() bytes or the largest had so
 * far, for callers that transform (cat -n) or fill (yes) what they write.
 * NULL with errno set when not even a page can be had.
 */
char	*bufsz_buffer(struct bufsz_engine *, const struct stat *in,
	    const struct stat *out, size_t *len);

/*
 * The memory this process may use, in bytes, as the policy counts it:
 * the machine's, or its memory cgroup's limit where that is less.  0 when
 * the host does not say.
 */
uint64_t bufsz_memory(void);

/* Page-aligned; a smaller buffer, down to a page, when want cannot be had. */
void	*bufsz_alloc(size_t want, size_t *got);
void	bufsz_free(void *, size_t);

/*
 * Whole writes, patient reads: EINTR retried, EAGAIN on a non-blocking
 * descriptor waited out with poll(2), short writes finished; a positioned
 * read of len bytes gives fewer only at the end of the file.
 */
int	bufsz_write_all(int fd, const void *, size_t);	/* 0, or -1 */
ssize_t	bufsz_read(int fd, void *, size_t);
ssize_t	bufsz_pread_full(int fd, void *, size_t len, off_t);

/*
 * 1 when the engine would hand out the pages it copies by reference
 * (splice into a pipe), so that a caller whose pages never change (yes)
 * may lend them with vmsplice(2); 0 otherwise.
 */
int	bufsz_lends_pages(const struct bufsz_engine *, const struct stat *out);

/*
 * Hold each of descriptors 0, 1 and 2 that is closed with /dev/null, so
 * that no file the program opens becomes one; call it first.  0, or -1.
 */
int	bufsz_stdfds(void);

/*
 * What getopt(3) (longopts NULL) or getopt_long(3), called with opterr 0,
 * refused when it returned ch, said in FreeBSD's words on every system;
 * the caller then gives its usage.  An optstring with options that take
 * an argument begins with ':' (after any '+').
 */
struct option;
void	bufsz_badopt(int ch, char *const argv[],
	    const struct option *longopts);

/*
 * The progress signal: SIGINFO where the system has it, else SIGUSR1.
 * bufsz_info_catch() has handler called for it, interrupted calls going
 * on after it; with NULL the signal is ignored.  0, or -1 with errno set.
 */
int	bufsz_info_signal(void);
int	bufsz_info_catch(void (*handler)(int));

/*
 * v in decimal, without a NUL, into buf of BUFSZ_DIGITS bytes; returns
 * its length.  Safe in a signal handler, where printf is not.
 */
#define	BUFSZ_DIGITS	20
size_t	bufsz_info_digits(char *buf, uintmax_t v);

#endif /* !_BUFSZ_H_ */
