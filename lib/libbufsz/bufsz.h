/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz: the I/O buffer policy and the copy engine that cat, cp and yes
 * share.  See bufsz(3).
 */

#ifndef _BUFSZ_H_
#define _BUFSZ_H_

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

/*
 * The facts the policy decides from.  A type of 0 means "no such side"
 * (yes(1) has no input).  Sizes are as the system reported them: the
 * policy, not the caller, copes with a bogus st_blksize.
 */
struct bufsz_facts {
	uint64_t	bf_physmem;	/* bytes of memory this process may use */
	size_t		bf_pagesize;
	mode_t		bf_in_type;	/* S_IFMT bits of the input, or 0 */
	long long	bf_in_blksize;	/* st_blksize of the input */
	off_t		bf_in_size;	/* st_size of a regular input, else -1 */
	mode_t		bf_out_type;	/* S_IFMT bits of the output, or 0 */
	long long	bf_out_blksize;	/* st_blksize of the output */
};

/*
 * The policy: a pure function of the facts.  Never below a page.
 * bufsz_policy_reason() says in a few words why it chose what it did.
 */
size_t	bufsz_policy(const struct bufsz_facts *);
const char *bufsz_policy_reason(const struct bufsz_facts *);

/*
 * The probe.  bufsz_physmem() reports the memory this process may use:
 * hw.physmem on the BSDs, sysconf on Linux, lowered to the cgroup v2
 * memory limit where one is set.  It returns 0, or -1 with errno set.
 * bufsz_physmem_cgroup() is its Linux half, reading the given cgroup
 * file system root and /proc/self/cgroup-style membership file, so that
 * tests can point it at a fake hierarchy; it returns 1 and sets *limit
 * when a limit is found, 0 when there is none.
 */
int	bufsz_physmem(uint64_t *);
int	bufsz_physmem_cgroup(const char *root, const char *self,
	    uint64_t *limit);
size_t	bufsz_pagesize(void);

/*
 * Fill in the facts for an input and an output; either stat may be NULL
 * (no such side).  Probes memory once per process.
 */
void	bufsz_facts_of(struct bufsz_facts *, const struct stat *in,
	    const struct stat *out);

/* bufsz_facts_of() and bufsz_policy() in one call. */
size_t	bufsz_choose(const struct stat *in, const struct stat *out);

/*
 * A page-aligned buffer of want bytes or, when that cannot be had, the
 * largest power-of-two fraction of it down to one page.  *got is the size
 * obtained.  NULL (errno set) only when not even a page can be had.
 */
void	*bufsz_alloc(size_t want, size_t *got);
void	bufsz_free(void *, size_t);

/*
 * The copy engine.
 *
 * The paths it may take.  BUFSZ_PATH_AUTO lets the engine choose; any
 * other value forces that path where it is possible for the pair of
 * descriptors, and read/write otherwise.  The environment variable
 * BUFSZ_PATH (auto, rw, mmap, cfr, splice, sendfile) and BUFSZ_SIZE (a
 * buffer size in bytes, for the rw and mmap paths) force them too, so
 * that tests and benchmarks can drive each path through the programs.
 */
enum bufsz_path {
	BUFSZ_PATH_AUTO = 0,
	BUFSZ_PATH_RW,		/* read(2)/write(2) through the buffer */
	BUFSZ_PATH_MMAP,	/* bounded mmap(2) windows of a regular input */
	BUFSZ_PATH_CFR,		/* copy_file_range(2) */
	BUFSZ_PATH_SPLICE,	/* splice(2), via a private pipe if needed */
	BUFSZ_PATH_SENDFILE	/* sendfile(2) */
};

/* What bufsz_copy() returns. */
#define	BUFSZ_OK	0
#define	BUFSZ_EREAD	1	/* the input failed; errno says why */
#define	BUFSZ_EWRITE	2	/* the output failed; errno says why */

/* be_flags */
#define	BUFSZ_SPARSE	0x01	/* keep the input's holes (output is new) */

struct bufsz_engine {
	char		*be_buf;	/* the read/write buffer, lazily had */
	size_t		 be_bufsz;
	enum bufsz_path	 be_force;	/* from BUFSZ_PATH, or set by caller */
	size_t		 be_force_size;	/* from BUFSZ_SIZE; 0: the policy */
	int		 be_flags;
	int		 be_pipe[2];	/* private pipe for splice, or -1 */
	enum bufsz_path	 be_last;	/* the path the last copy took */
	volatile off_t	 be_moved;	/* bytes moved by the copy under way */
};

/*
 * bufsz_engine_init() reads BUFSZ_PATH and BUFSZ_SIZE; it returns 0, or
 * -1 with errno EINVAL when either is malformed.
 */
int	bufsz_engine_init(struct bufsz_engine *);
void	bufsz_engine_fini(struct bufsz_engine *);

/*
 * Copy everything from in to out (from their current offsets, to end of
 * input).  The stats may be NULL; the engine then takes them itself.
 * Returns BUFSZ_OK, or BUFSZ_EREAD or BUFSZ_EWRITE with errno set.
 */
int	bufsz_copy(struct bufsz_engine *, int in, const struct stat *inst,
	    int out, const struct stat *outst);

/*
 * The engine's buffer, sized for in and out (either stat may be NULL),
 * for callers that transform what they copy (cat -n) or fill it
 * themselves (yes).  NULL with errno set when no memory can be had.
 */
char	*bufsz_buffer(struct bufsz_engine *, const struct stat *inst,
	    const struct stat *outst, size_t *len);

/*
 * Whole writes and patient reads: bufsz_write_all() finishes short
 * writes and waits out EINTR and, on a non-blocking descriptor, EAGAIN
 * (with poll(2)); it returns 0 or -1 with errno set.  bufsz_read() is
 * read(2) that retries EINTR and waits out EAGAIN the same way.
 */
int	bufsz_write_all(int fd, const void *, size_t);
ssize_t	bufsz_read(int fd, void *, size_t);

const char *bufsz_path_name(enum bufsz_path);

/*
 * Hold each of descriptors 0, 1 and 2 that is closed with /dev/null,
 * opened so that using it still fails with EBADF, lest the first file
 * the program opens become its standard input or output.  Programs call
 * it first.  Returns 0, or -1 with errno set.
 */
int	bufsz_stdfds(void);

#endif /* !_BUFSZ_H_ */
