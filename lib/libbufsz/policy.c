/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The buffer policy, a pure function of facts so that it can be tested
 * without the machines it describes, and the facts.
 */

#include <sys/param.h>
#include <sys/stat.h>

#include <stdint.h>
#include <unistd.h>

#include "bufsz_private.h"

/* Enough that calls cost little beside the bytes; within the caches. */
#define	BUFSZ_SMALL		((size_t)128 * 1024)

/* A pipe's default capacity: a larger write waits half way for the reader. */
#define	BUFSZ_PIPE		((size_t)64 * 1024)

/*
 * A bulk copy between files takes larger writes well, where one buffer is
 * at most 1/512 of memory: make -j or xargs -P may run many copies.
 */
#define	BUFSZ_LARGE		((size_t)1024 * 1024)
#define	BUFSZ_LARGE_MINMEM	((uint64_t)512 * BUFSZ_LARGE)

/* A device may ask for more (st_blksize); beyond this it is bogus. */
#define	BUFSZ_BLKSIZE_MAX	((size_t)8 * 1024 * 1024)

/* A st_blksize that tells something: 0 when it does not. */
static size_t
usable_blksize(long long blksize)
{

	if (blksize <= 0)
		return (0);
	if ((unsigned long long)blksize > BUFSZ_BLKSIZE_MAX)
		return (BUFSZ_BLKSIZE_MAX);
	return ((size_t)blksize);
}

/*
 * n in whole pages, rounded down, and never less than a page; a page of
 * size 0 is unknown and taken to be 4 KiB.
 */
size_t
bufsz_pages(size_t n, size_t page)
{

	if (page == 0)
		page = 4096;
	return (n < page ? page : n - n % page);
}

size_t
bufsz_policy(const struct bufsz_facts *f)
{
	size_t blk, size, page;

	blk = MAX(usable_blksize(f->bf_in_blksize),
	    usable_blksize(f->bf_out_blksize));
	if (f->bf_physmem >= BUFSZ_LARGE_MINMEM && S_ISREG(f->bf_in_type) &&
	    f->bf_in_size >= (off_t)BUFSZ_LARGE &&
	    (S_ISREG(f->bf_out_type) || S_ISBLK(f->bf_out_type)))
		size = BUFSZ_LARGE;
	else if (S_ISFIFO(f->bf_out_type))
		size = BUFSZ_PIPE;
	else
		size = BUFSZ_SMALL;
	size = MAX(size, blk);
	/*
	 * A smaller regular input needs itself and a byte: the read that
	 * takes it all then comes back short, and no read of 0 is needed.
	 */
	if (S_ISREG(f->bf_in_type) && f->bf_in_size > 0 &&
	    (uint64_t)f->bf_in_size < size)
		size = MAX((size_t)f->bf_in_size + 1, blk);
	/* Whole pages, rounded up. */
	page = bufsz_pages(1, f->bf_pagesize);
	return (bufsz_pages(size + page - 1, page));
}

/* An asked size: up to the large buffer's share, and the small anywhere. */
size_t
bufsz_policy_limit(const struct bufsz_facts *f)
{
	uint64_t share;

	share = f->bf_physmem / (BUFSZ_LARGE_MINMEM / BUFSZ_LARGE);
	if (share <= BUFSZ_SMALL)
		return (BUFSZ_SMALL);
	return (bufsz_pages(share > SIZE_MAX ? SIZE_MAX : (size_t)share,
	    f->bf_pagesize));
}

void
bufsz_facts_of(struct bufsz_facts *f, const struct stat *in,
    const struct stat *out)
{

	bufsz_limits(&f->bf_physmem, NULL);
	f->bf_pagesize = bufsz_pagesize();
	f->bf_in_type = in != NULL ? (in->st_mode & S_IFMT) : 0;
	f->bf_in_blksize = in != NULL ? (long long)in->st_blksize : 0;
	f->bf_in_size = in != NULL && S_ISREG(in->st_mode) ? in->st_size : -1;
	f->bf_out_type = out != NULL ? (out->st_mode & S_IFMT) : 0;
	f->bf_out_blksize = out != NULL ? (long long)out->st_blksize : 0;
}

size_t
bufsz_pagesize(void)
{

	return ((size_t)sysconf(_SC_PAGESIZE));
}

void
bufsz_limits(uint64_t *memory, int *cpus)
{
	static uint64_t mem;
	static int probed, ncpus;

	if (memory != NULL) {
		if (!probed && bufsz_host_physmem(&mem) != 0)
			mem = 0;
		probed = 1;
		*memory = mem;
	}
	if (cpus != NULL) {
		if (ncpus == 0)
			ncpus = bufsz_host_cpus();
		*cpus = ncpus;
	}
}
