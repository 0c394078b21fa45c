/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz: how large an I/O buffer should be, and a copy engine that
 * moves bytes between two descriptors by the fastest path that is correct
 * for them, with the reads, writes and page-aligned buffers of the copy
 * loops it does not run itself (cat's formatting, tail's windows, yes).
 * cat, cp, tail and yes share it.  It is internal to the tree (built,
 * linked, never installed).  The README beside this file says how it
 * decides; bufsz_private.h holds the policy, the probe and the engine's
 * workings, for the library itself and its tests.
 */

#ifndef _BUFSZ_H_
#define	_BUFSZ_H_

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

/*
 * A program keeps one engine for its whole run, or one for each thread
 * that copies: an engine is used by one thread at a time.
 */
struct bufsz_engine;

/* Flags of bufsz_engine_new(). */
#define	BUFSZ_SPARSE	0x01	/* outputs are new, empty files: keep holes */

/* Flags of bufsz_copy(). */
#define	BUFSZ_UNSEEN	0x02	/* in is just opened and not yet looked at */

/* What bufsz_copy() returns. */
#define	BUFSZ_OK	0
#define	BUFSZ_EREAD	1	/* the input failed; errno says why */
#define	BUFSZ_EWRITE	2	/* the output failed; errno says why */

/* An engine with these flags; NULL with errno set when memory is short. */
struct bufsz_engine *bufsz_engine_new(int flags);
void	bufsz_engine_free(struct bufsz_engine *);

/*
 * Learn now what the library learns once a process (the page size, the
 * memory, the environment), as it would on first use: call it before
 * threads copy with engines of their own, so that they do not learn it
 * at the same time.
 */
void	bufsz_learn(void);

/*
 * Copy in, from its offset to its end, to out at its offset.  The stats
 * describe the two descriptors; either may be NULL, and the engine then
 * takes it.  A refused fast path hands over to read/write without losing
 * a byte.
 *
 * BUFSZ_UNSEEN says that the caller has just opened in, that it is at
 * offset 0 and shared with no one, and that nobody has looked at it yet
 * (inst is not used).  The engine may then copy it without a stat where
 * the host has a path that is safe for any input: on Linux, a small file
 * into /dev/null costs open, sendfile, read and close.  Elsewhere it takes
 * the stat itself, and a directory fails with EISDIR.
 */
int	bufsz_copy(struct bufsz_engine *, int in, const struct stat *inst,
	    int out, const struct stat *outst, int flags);

/*
 * 1 when fd, a regular file of stat st, is on a file system known to keep
 * its files' sizes, so that its data ends where st_size says (and a size
 * below an offset means the file was cut); 0 where only a read that
 * returns 0 tells (FUSE, NFS, /proc) or fd is no regular file.  The host
 * is asked once per file system (st_dev) for the engine's life.  tail is
 * its one caller; it lives here so that tail's own reads and the engine's
 * copies for tail take one answer for a file, never two.
 */
int	bufsz_size_is_end(struct bufsz_engine *, int fd, const struct stat *st);

/*
 * The bytes the engine has moved in all its copies so far, as one whole
 * value, even while its thread copies: safe in a signal handler and from
 * another thread.  A copy's own count is the difference across it, so
 * that a count taken before the copy starts is never the last copy's.
 */
off_t	bufsz_moved(const struct bufsz_engine *);

/*
 * The buffer for a copy from in to out (either stat may be NULL: no such
 * side), in whole pages; BUFSZ_SIZE in the environment overrides it.
 */
size_t	bufsz_size(const struct stat *in, const struct stat *out);

/*
 * The buffer size the user asked for (cat -B), before the engine is made:
 * as BUFSZ_SIZE, in whole pages, at least one, and no more than this
 * machine allows; it overrides BUFSZ_SIZE.  0 leaves the policy's own.
 * cat is its one caller: the size is the policy's to round and cap.
 */
void	bufsz_ask_size(size_t);

/*
 * The engine's own buffer, of bufsz_size() bytes or the largest had so
 * far, for callers that transform what they write (cat -n) or read
 * windows into it (tail).
 * NULL with errno set when not even a page can be had.
 */
char	*bufsz_buffer(struct bufsz_engine *, const struct stat *in,
	    const struct stat *out, size_t *len);

/*
 * The memory this process may use, in bytes, as the policy counts it:
 * the machine's, or its memory cgroup's limit where that is less.  0 when
 * the host does not say.  tail is its one caller, bounding what it holds
 * of a stream by the probe that already sizes every buffer.
 */
uint64_t bufsz_memory(void);

/*
 * The processors this process may run on, at least one: on Linux those
 * of its affinity mask, fewer where its cgroup's CPU quota keeps it
 * busy on fewer; elsewhere those online.  cp is its one caller, sizing
 * its threads; it lives here beside the memory, whose cgroup it reads.
 */
int	bufsz_cpus(void);

/*
 * Whole writes and patient reads.  EINTR is retried, EAGAIN on a
 * non-blocking descriptor is waited out with poll(2), and short writes are
 * finished.  A positioned read of len bytes gives fewer only at the end
 * of the file; tail's windows are its one caller, and it follows the
 * same retry rule as the others.
 */
int	bufsz_write_all(int fd, const void *, size_t);	/* 0, or -1 */
ssize_t	bufsz_read(int fd, void *, size_t);
ssize_t	bufsz_pread_full(int fd, void *, size_t len, off_t);

/*
 * Page-aligned buffers in whole pages of bufsz_pagesize() bytes.  When
 * want cannot be had, a smaller buffer is given, down to a page.
 */
size_t	bufsz_pagesize(void);
void	*bufsz_alloc(size_t want, size_t *got);
void	bufsz_free(void *, size_t);

/*
 * 1 when an engine would hand out the pages it copies to out by
 * reference (splice into a pipe), so that a caller whose pages never
 * change (yes) may lend them with vmsplice(2); 0 otherwise.  yes is its
 * one caller; the answer follows the engine's choice of path, BUFSZ_PATH
 * included, which only the engine knows.
 */
int	bufsz_lends_pages(const struct stat *out);

#endif /* !_BUFSZ_H_ */
