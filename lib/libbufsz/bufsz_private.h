/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz's workings, for its own tests, tools/bufszinfo and the
 * benchmarks: the policy and the facts it decides from, the memory probe,
 * and the engine's paths, which a test or benchmark may force.  Programs
 * include bufsz.h, bufsz_io.h and bufsz_util.h only.
 */

#ifndef _BUFSZ_PRIVATE_H_
#define	_BUFSZ_PRIVATE_H_

#include <stdint.h>

#include "bufsz.h"
#include "bufsz_io.h"

/*
 * The facts the policy decides from.  A type of 0 means "no such side"
 * (yes has no input).  Sizes are as the system reported them: the policy,
 * not the caller, copes with a bogus st_blksize.
 */
struct bufsz_facts {
	uint64_t	bf_physmem;	/* memory this process may use */
	size_t		bf_pagesize;
	mode_t		bf_in_type;	/* S_IFMT bits of the input, or 0 */
	long long	bf_in_blksize;	/* st_blksize of the input */
	off_t		bf_in_size;	/* st_size of a regular input, or -1 */
	mode_t		bf_out_type;	/* S_IFMT bits of the output, or 0 */
	long long	bf_out_blksize;	/* st_blksize of the output */
};

/*
 * The policy, a pure function of the facts: a size in whole pages.
 * bufsz_policy_reason() says in a few words why.  bufsz_policy_limit() is
 * the most a forced size (BUFSZ_SIZE) may take on the machine described.
 */
size_t	bufsz_policy(const struct bufsz_facts *);
const char *bufsz_policy_reason(const struct bufsz_facts *);
size_t	bufsz_policy_limit(const struct bufsz_facts *);

/* The facts for an input and an output (either may be NULL). */
void	bufsz_facts_of(struct bufsz_facts *, const struct stat *in,
	    const struct stat *out);

/*
 * The probe, asked once a process.  bufsz_physmem() is the memory this
 * process may use (sysctl on the BSDs; on Linux sysconf, lowered to the
 * cgroup v2 limit): 0, or -1 with errno set.  bufsz_physmem_cgroup() is
 * its Linux half, reading the cgroup file system at root and the
 * membership file self (/sys/fs/cgroup, /proc/self/cgroup), so that tests
 * can point it at a fake hierarchy: 1 and *limit when a limit is found.
 */
int	bufsz_physmem(uint64_t *);
int	bufsz_physmem_cgroup(const char *root, const char *self,
	    uint64_t *limit);			/* Linux only */

/*
 * The engine's paths.  AUTO lets it choose; any other forces that path
 * where the pair of descriptors allows it, and read/write elsewhere.
 */
enum bufsz_path {
	BUFSZ_PATH_AUTO = 0,
	BUFSZ_PATH_RW,		/* read(2)/write(2) through the buffer */
	BUFSZ_PATH_MMAP,	/* bounded mmap(2) windows of a regular input */
	BUFSZ_PATH_CFR,		/* copy_file_range(2) */
	BUFSZ_PATH_SPLICE,	/* splice(2), via a private pipe if needed */
	BUFSZ_PATH_SENDFILE	/* sendfile(2) */
};

/* The names BUFSZ_PATH takes; "unknown" for a value out of range. */
const char *bufsz_path_name(enum bufsz_path);

/*
 * Force a path and a buffer size (0: the policy's) on one engine, over
 * what the environment says; and the path the engine's last copy took.
 */
void	bufsz_engine_force(struct bufsz_engine *, enum bufsz_path,
	    size_t size);
enum bufsz_path bufsz_engine_last(const struct bufsz_engine *);

/*
 * BUFSZ_PATH and BUFSZ_SIZE as the library reads them: 0 and the value
 * (SIZE_MAX for a size past it), or -1 when malformed.  The engine then takes a size in whole pages (at
 * least one), and no more than bufsz_policy_limit() allows.
 */
int	bufsz_parse_path(const char *, enum bufsz_path *);
int	bufsz_parse_size(const char *, size_t *);

#endif /* !_BUFSZ_PRIVATE_H_ */
