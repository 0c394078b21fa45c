/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz's workings, for its own files, its tests, tools/bufszinfo and
 * the benchmarks: the policy and the facts it decides from, the memory
 * probe, the engine's paths, which a test or benchmark may force, and the
 * engine's state.  Programs include bufsz.h only.
 */

#ifndef _BUFSZ_PRIVATE_H_
#define	_BUFSZ_PRIVATE_H_

#include <stdatomic.h>
#include <stdint.h>

#include "bufsz.h"

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
 * The processors the cgroup v2 cpu.max quotas allow this process, the
 * least from its cgroup up to the root, each quota rounded up to whole
 * processors: 1 and *cpus when one is set.  Read like
 * bufsz_physmem_cgroup(), with the same arguments.
 */
int	bufsz_cpus_cgroup(const char *root, const char *self,
	    int *cpus);				/* Linux only */

/*
 * The engine's paths.  AUTO lets it choose; any other forces that path
 * where the pair of descriptors allows it, and read/write elsewhere.
 */
enum bufsz_path {
	BUFSZ_PATH_AUTO = 0,
	BUFSZ_PATH_RW,		/* read(2)/write(2) through the buffer */
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

/*
 * The file systems the engine has met, and whether each keeps its files'
 * sizes (bufsz_size_kept()); the oldest is forgotten first.
 */
#define	FS_SEEN		8

struct fs_seen {
	dev_t		 fs_dev;
	int		 fs_keeps_size;
};

/*
 * Pairs of file systems, input's and output's, between which the kernel
 * refused copy_file_range (kpath_linux.c); the oldest is forgotten first.
 */
struct cfr_refused {
	dev_t		 cr_in;
	dev_t		 cr_out;
};

struct bufsz_engine {
	char		*be_buf;	/* the read/write buffer, lazily had */
	size_t		 be_bufsz;
	enum bufsz_path	 be_force;	/* BUFSZ_PATH or bufsz_engine_force */
	size_t		 be_force_size;	/* BUFSZ_SIZE, or forced; 0: policy */
	int		 be_flags;
	int		 be_pipe[2];	/* kpath_linux.c's splice pipe, or -1 */
	enum bufsz_path	 be_last;	/* the path the last copy took */
	off_t		 be_moved;	/* bytes moved by the copy under way */
	/*
	 * Bytes moved by all the engine's copies, for bufsz_moved(): read
	 * whole by a signal handler or another thread, where a 64-bit
	 * off_t is two words (i386) and a plain read of it may be torn.
	 */
	_Atomic off_t	 be_total;
	struct fs_seen	 be_fs[FS_SEEN];
	size_t		 be_nfs;	/* file systems met so far */
	struct cfr_refused be_nocfr[FS_SEEN];
	size_t		 be_nnocfr;
};

/* One copy under way: the engine, both sides, and how much is left. */
struct job {
	struct bufsz_engine	*j_e;
	int			 j_in;
	int			 j_out;
	const struct stat	*j_inst;
	const struct stat	*j_outst;
	off_t			 j_left;	/* bytes to copy, -1: to EOF */
	int			 j_holes;	/* zero blocks become holes */
};

/* A fast path declines; read/write takes over from the same byte. */
#define	REFUSED		(-1)

/*
 * The most one system call of a kernel-side path (copy_file_range,
 * sendfile, splice) is asked to move.  Uncapped, one call copies a whole
 * file: ^C then waits for it, and cp's progress stands still.
 */
#define	CHUNK_MAX	((size_t)8 << 20)

/* How much the next call may move: at most cap, and no more than is left. */
static inline size_t
job_want(const struct job *j, size_t cap)
{

	if (j->j_left >= 0 && (uintmax_t)j->j_left < cap)
		return ((size_t)j->j_left);
	return (cap);
}

/*
 * Count n bytes moved.  Only the engine's own thread writes be_total, so
 * a load and a store do; the store releases what came before it to a
 * reader in another thread.
 */
static inline void
engine_moved(struct bufsz_engine *e, off_t n)
{

	e->be_moved += n;
	atomic_store_explicit(&e->be_total, atomic_load_explicit(&e->be_total,
	    memory_order_relaxed) + n, memory_order_release);
}

static inline void
job_moved(struct job *j, size_t n)
{

	engine_moved(j->j_e, (off_t)n);
	if (j->j_left > 0)
		j->j_left -= (off_t)n;
}

static inline int
job_done(const struct job *j)
{

	return (j->j_left == 0);
}

/*
 * engine.c: whether the regular input's file system keeps its files'
 * sizes, so that where its size says the input ends, it does.
 */
int	bufsz_size_kept(const struct job *);

/*
 * Whether a call that moved got of the asked bytes, already counted, has
 * met the end of a regular input, so that no call is spent to see a 0.
 * A short count alone proves nothing (a signal, a full pipe or socket on
 * the other side), but a short count that brings the copy to exactly the
 * size the input had when it was looked at means every byte it had then
 * is copied: what follows was written later, as if after the copy.  A
 * file that grew before the copy, or was entered past its start, moves
 * another amount and gets its 0 as before; /proc (size 0) and /sys
 * (4096, fewer bytes) never match.  Only where the file system keeps the
 * size: a FUSE or network file may hold more than it says, and a kernel
 * path may stop at the size it says.
 */
static inline int
job_at_end(const struct job *j, size_t asked, size_t got)
{

	return (got < asked && j->j_left < 0 &&
	    S_ISREG(j->j_inst->st_mode) && j->j_inst->st_size > 0 &&
	    j->j_e->be_moved == j->j_inst->st_size && bufsz_size_kept(j));
}

/*
 * engine.c: a kernel path's 0 from a regular input wants read(2)'s word
 * after a first call that moved nothing, or where the file system does
 * not keep sizes.
 */
int	bufsz_job_declines(const struct job *, int moved);

/*
 * io.c: after a call on in or out (-1: not that side) failed, 1 when it
 * should be made again: it was interrupted, or a non-blocking descriptor
 * said EAGAIN and poll(2) says it is ready now.  0, errno kept, otherwise.
 */
int	bufsz_io_again(int in, int out);

/*
 * The host's kernel paths, kpath_<host>.c.  bufsz_kpath_auto() is the path
 * AUTO takes for the pair (rw when the host has nothing faster);
 * bufsz_kpath_copy() copies by path *p, or returns REFUSED (having moved
 * nothing more) when *p cannot serve the pair or the kernel refuses it;
 * where AUTO chose *p and the host has a next best path, it may go on by
 * that one and set *p to it;
 * bufsz_kpath_unseen() moves up to len bytes from an input not yet
 * looked at (j_inst is NULL) by a path that serves only regular files and
 * block devices, and sets *p to it; -1 (or 0) where it moves nothing, as
 * where the host has no such path for the output;
 * bufsz_kpath_lends() says whether the forced path lends pages by
 * reference to out; bufsz_kpath_release() closes what the paths keep in
 * the engine.
 */
enum bufsz_path	bufsz_kpath_auto(const struct job *);
int	bufsz_kpath_copy(struct job *, enum bufsz_path *);
ssize_t	bufsz_kpath_unseen(const struct job *, size_t, enum bufsz_path *);
int	bufsz_kpath_lends(enum bufsz_path, const struct stat *out);
void	bufsz_kpath_release(struct bufsz_engine *);

/*
 * The hole map (kpath.c where the host has SEEK_DATA, else
 * kpath_portable.c): the next data at or after pos, as [*data, *hole):
 * 1; 0 when only a hole is left; -1 with errno when the file system
 * cannot say.  kpath.c also has the loop every kernel path shares.
 */
int	bufsz_next_data(int fd, off_t pos, off_t *data, off_t *hole);
int	bufsz_kpath_loop(struct job *, ssize_t (*)(const struct job *, size_t));
ssize_t	bufsz_move_cfr(const struct job *, size_t);

/*
 * The memory the host gives this process, and the processors it may run
 * on, at least one (probe_<host>.c).
 */
int	bufsz_host_physmem(uint64_t *);
int	bufsz_host_cpus(void);

/*
 * Whether the file system of fd is one whose files end where their size
 * says (sizekept_<host>.c): one fstatfs(2); 0 where the host cannot tell.
 */
int	bufsz_host_keeps_size(int fd);

/* The environment, read once a process (env.c). */
enum bufsz_path	bufsz_env_path(void);
size_t	bufsz_env_size(void);

#endif /* !_BUFSZ_PRIVATE_H_ */
