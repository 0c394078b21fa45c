/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The buffer policy, a pure function from facts to a size so that its
 * whole table can be tested without the machines it describes, and the
 * probe that gathers the facts.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "bufsz_private.h"

/*
 * Large enough that system calls cost little beside the bytes, small
 * enough to stay in the CPU's caches.
 */
#define	BUFSZ_SMALL		((size_t)128 * 1024)

/* A pipe's default capacity: a larger write waits half way for the reader. */
#define	BUFSZ_PIPE		((size_t)64 * 1024)

/*
 * A bulk copy between files takes fewer, larger writes well, on a machine
 * where one buffer stays under 1/512 of memory, since make -j or xargs -P
 * may run many copies at once.
 */
#define	BUFSZ_LARGE		((size_t)1024 * 1024)
#define	BUFSZ_LARGE_MINMEM	((uint64_t)512 * BUFSZ_LARGE)

/* A device may ask for more (st_blksize); beyond this it is bogus. */
#define	BUFSZ_BLKSIZE_MAX	((size_t)8 * 1024 * 1024)

static size_t
round_up(size_t n, size_t unit)
{

	return ((n + unit - 1) / unit * unit);
}

/* A st_blksize in whole pages; 0 when it tells nothing. */
static size_t
usable_blksize(long long blksize, size_t page)
{

	if (blksize <= 0)
		return (0);
	if ((unsigned long long)blksize > BUFSZ_BLKSIZE_MAX)
		return (BUFSZ_BLKSIZE_MAX);
	return (round_up((size_t)blksize, page));
}

static size_t
decide(const struct bufsz_facts *f, const char **why)
{
	size_t page, blk, size;

	page = f->bf_pagesize != 0 ? f->bf_pagesize : 4096;
	blk = usable_blksize(f->bf_in_blksize, page);
	if (usable_blksize(f->bf_out_blksize, page) > blk)
		blk = usable_blksize(f->bf_out_blksize, page);
	if (f->bf_physmem >= BUFSZ_LARGE_MINMEM && S_ISREG(f->bf_in_type) &&
	    f->bf_in_size >= (off_t)BUFSZ_LARGE &&
	    (S_ISREG(f->bf_out_type) || S_ISBLK(f->bf_out_type))) {
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
	 * A smaller regular input needs itself and a byte: the read that
	 * takes it all then comes back short, and no read of 0 is needed.
	 */
	if (S_ISREG(f->bf_in_type) && f->bf_in_size > 0 &&
	    (uint64_t)f->bf_in_size < size) {
		size = round_up((size_t)f->bf_in_size + 1, page);
		if (size < blk)
			size = blk;
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
 * An asked size is honoured up to the large buffer's share of memory,
 * and never cut below the small buffer, which every machine gets anyway.
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
	static size_t page;
	long pg;

	if (page == 0) {
		pg = sysconf(_SC_PAGESIZE);
		page = pg > 0 ? (size_t)pg : 4096;
	}
	return (page);
}

int
bufsz_physmem(uint64_t *mem)
{
	static uint64_t physmem;
	static int probed, rv;

	if (!probed) {
		rv = bufsz_host_physmem(&physmem);
		probed = 1;
	}
	*mem = physmem;
	return (rv);
}

void
bufsz_limits(uint64_t *memory, int *cpus)
{
	static int ncpus;

	if (memory != NULL && bufsz_physmem(memory) != 0)
		*memory = 0;
	if (cpus != NULL) {
		if (ncpus == 0)
			ncpus = bufsz_host_cpus();
		*cpus = ncpus;
	}
}
