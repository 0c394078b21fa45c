/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The buffer policy: a pure function from facts to a size, so that its
 * whole table can be tested without the machines it describes.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

#include "bufsz_private.h"

/*
 * The small buffer, for nearly everything but a pipe: large enough that
 * the system calls cost little beside the bytes, small enough to stay in
 * the CPU's caches.
 */
#define	BUFSZ_SMALL		((size_t)128 * 1024)

/*
 * Into a pipe, its default capacity (64 KiB on Linux and FreeBSD), so
 * that no write waits half way for the reader.
 */
#define	BUFSZ_PIPE		((size_t)64 * 1024)

/*
 * The large buffer, for a bulk copy into a regular file, which takes
 * fewer and larger writes well; larger buffers only cost memory.  On
 * Linux such copies go through copy_file_range; the large buffer serves
 * the BSDs, fallbacks (tmpfs refuses copy_file_range from ext4) and a
 * forced read/write.
 *
 * One buffer should stay under 1/512 of memory, since make -j or xargs
 * -P may run many copies at once.
 */
#define	BUFSZ_LARGE		((size_t)1024 * 1024)
#define	BUFSZ_LARGE_MINMEM	((uint64_t)512 * BUFSZ_LARGE)

/*
 * A device that asks for more than the large buffer (st_blksize) gets
 * what it asks, up to 8 MiB: a larger st_blksize is taken for a bogus
 * one.
 */
#define	BUFSZ_BLKSIZE_MAX	((size_t)8 * 1024 * 1024)

static size_t
round_up(size_t n, size_t unit)
{
	return ((n + unit - 1) / unit * unit);
}

/*
 * A reported st_blksize as a usable size: 0 when it tells nothing (zero
 * or negative), clamped when absurd, and rounded up to whole pages so that
 * a 1 KiB pty or an odd ZFS size never yields a buffer below a page.
 */
static size_t
usable_blksize(long long blksize, size_t page)
{
	if (blksize <= 0)
		return (0);
	if ((unsigned long long)blksize > BUFSZ_BLKSIZE_MAX)
		return (BUFSZ_BLKSIZE_MAX);
	return (round_up((size_t)blksize, page));
}

static int
is_bulk_copy(const struct bufsz_facts *f)
{
	return (f->bf_physmem >= BUFSZ_LARGE_MINMEM &&
	    S_ISREG(f->bf_in_type) && f->bf_in_size >= (off_t)BUFSZ_LARGE &&
	    (S_ISREG(f->bf_out_type) || S_ISBLK(f->bf_out_type)));
}

/*
 * The policy and, in *why, the reason for its choice in a few words, for
 * people asking what this machine gets (bufsz_policy_reason()).
 */
static size_t
decide(const struct bufsz_facts *f, const char **why)
{
	size_t page, blk, size, whole;

	page = f->bf_pagesize != 0 ? f->bf_pagesize : 4096;
	blk = usable_blksize(f->bf_in_blksize, page);
	if (usable_blksize(f->bf_out_blksize, page) > blk)
		blk = usable_blksize(f->bf_out_blksize, page);

	if (is_bulk_copy(f)) {
		size = BUFSZ_LARGE;
		*why = "large: a bulk copy between files on a roomy machine";
	} else if (S_ISFIFO(f->bf_out_type)) {
		size = BUFSZ_PIPE;
		*why = "a pipe's capacity: a larger write waits for the reader";
	} else {
		size = BUFSZ_SMALL;
		*why = "small: the default";
	}
	if (blk > size) {
		size = blk;
		*why = "st_blksize: the device asks for more than the buffer";
	}

	/*
	 * A regular input smaller than the buffer needs no more than itself
	 * and a byte, which keeps 20,000 small files from touching pages
	 * they never fill.  The byte makes the one read that takes the whole
	 * file come back short, which tells the engine it has the end (a
	 * file of exactly 4 KiB read into 4 KiB would need a read of 0).
	 */
	if (S_ISREG(f->bf_in_type) && f->bf_in_size > 0 &&
	    (uint64_t)f->bf_in_size < size) {
		whole = round_up((size_t)f->bf_in_size + 1, page);
		size = whole > blk ? whole : blk;
		*why = "the whole input: it is smaller than the buffer";
	}
	if (size < page) {
		size = page;
		*why = "a page: never less";
	}
	return (size);
}

size_t
bufsz_policy(const struct bufsz_facts *f)
{
	const char *why;

	return (decide(f, &why));
}

const char *
bufsz_policy_reason(const struct bufsz_facts *f)
{
	const char *why;

	(void)decide(f, &why);
	return (why);
}

/*
 * A forced size (BUFSZ_SIZE) is honoured up to 1/512 of the memory, the
 * share the large buffer is judged by, and never cut below the small
 * buffer, which every machine gets anyway.
 */
size_t
bufsz_policy_limit(const struct bufsz_facts *f)
{
	uint64_t share;
	size_t page;

	page = f->bf_pagesize != 0 ? f->bf_pagesize : 4096;
	share = f->bf_physmem / (BUFSZ_LARGE_MINMEM / BUFSZ_LARGE);
	if (share <= BUFSZ_SMALL)
		return (BUFSZ_SMALL);
	if (share > SIZE_MAX)
		share = SIZE_MAX;
	return ((size_t)share - (size_t)share % page);
}

void
bufsz_facts_of(struct bufsz_facts *f, const struct stat *in,
    const struct stat *out)
{
	uint64_t physmem;

	f->bf_physmem = bufsz_physmem(&physmem) == 0 ? physmem : 0;
	f->bf_pagesize = bufsz_pagesize();
	f->bf_in_type = in != NULL ? (in->st_mode & S_IFMT) : 0;
	f->bf_in_blksize = in != NULL ? (long long)in->st_blksize : 0;
	f->bf_in_size = in != NULL && S_ISREG(in->st_mode) ? in->st_size : -1;
	f->bf_out_type = out != NULL ? (out->st_mode & S_IFMT) : 0;
	f->bf_out_blksize = out != NULL ? (long long)out->st_blksize : 0;
}

size_t
bufsz_size(const struct stat *in, const struct stat *out)
{
	struct bufsz_facts f;
	size_t forced;

	if ((forced = bufsz_env_size()) != 0)
		return (forced);
	bufsz_facts_of(&f, in, out);
	return (bufsz_policy(&f));
}
