/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz's workings, for its own files and tests: the policy and its
 * facts, the probe, the engine, and what each host's files provide.
 */

#ifndef _BUFSZ_PRIVATE_H_
#define	_BUFSZ_PRIVATE_H_

#include "bufsz.h"

/*
 * What the policy decides from.  A type of 0 means no such side (yes has
 * no input); sizes are as the system reported them.
 */
struct bufsz_facts {
	uint64_t	bf_physmem;
	size_t		bf_pagesize;
	mode_t		bf_in_type;
	long long	bf_in_blksize;
	off_t		bf_in_size;	/* of a regular input, else -1 */
	mode_t		bf_out_type;
	long long	bf_out_blksize;
};

/* A size in whole pages, why in a few words, and the most -B may ask. */
size_t	bufsz_policy(const struct bufsz_facts *);
const char *bufsz_policy_reason(const struct bufsz_facts *);
size_t	bufsz_policy_limit(const struct bufsz_facts *);
void	bufsz_facts_of(struct bufsz_facts *, const struct stat *,
	    const struct stat *);

/* Asked once a process; physmem is 0, or -1 with errno set. */
size_t	bufsz_pagesize(void);
int	bufsz_physmem(uint64_t *);
int	bufsz_host_physmem(uint64_t *);
int	bufsz_host_cpus(void);
int	bufsz_physmem_cgroup(const char *root, const char *self,
	    uint64_t *limit);			/* Linux */
int	bufsz_cpus_cgroup(const char *root, const char *self,
	    int *cpus);				/* Linux */

/* The engine's paths; tests force one, and read which one a copy took. */
enum bufsz_path {
	COPY_AUTO = 0,
	COPY_RW,
	COPY_CFR,
	COPY_SPLICE,
	COPY_SENDFILE
};
const char *bufsz_path_name(enum bufsz_path);

#define	FS_SEEN		8

struct bufsz_engine {
	char		*be_buf;
	size_t		 be_bufsz;
	enum bufsz_path	 be_force;
	size_t		 be_force_size;
	enum bufsz_path	 be_last;
	int		 be_pipe[2];	/* Linux's splice pipe, or -1 */
	off_t		 be_moved;	/* by the copy under way */
	_Atomic off_t	 be_total;	/* by every copy, for bufsz_moved() */
	struct {
		dev_t	 fs_dev;
		int	 fs_keeps_size;
	}		 be_fs[FS_SEEN];
	size_t		 be_nfs;
	struct {			/* Linux: refused copy_file_range */
		dev_t	 cr_in, cr_out;
	}		 be_nocfr[FS_SEEN];
	size_t		 be_nnocfr;
};

/* What bufsz_start() was asked for (cat -B), in whole pages, or 0. */
extern size_t	bufsz_asked_size;

/* The calling thread's engine, and engines of their own for tests. */
struct bufsz_engine *bufsz_self(void);
struct bufsz_engine *bufsz_engine_new(void);
void	bufsz_engine_free(struct bufsz_engine *);
void	bufsz_engine_force(struct bufsz_engine *, enum bufsz_path, size_t);
int	bufsz_engine_copy(struct bufsz_engine *, int, const struct stat *,
	    int, const struct stat *, int);
char	*bufsz_engine_buffer(struct bufsz_engine *, const struct stat *,
	    const struct stat *, size_t *);

/* One copy under way. */
struct job {
	struct bufsz_engine	*j_e;
	int			 j_in;
	int			 j_out;
	const struct stat	*j_inst;
	const struct stat	*j_outst;
	off_t			 j_left;	/* -1: to the end */
	int			 j_holes;	/* zero blocks become holes */
};

/* A fast path declines; read/write goes on from the same byte. */
#define	REFUSED		(-1)

/* The most one kernel call moves, so that ^C and SIGINFO are answered. */
#define	CHUNK_MAX	((size_t)8 << 20)

size_t	bufsz_job_want(const struct job *, size_t);
void	bufsz_job_moved(struct job *, size_t);
int	bufsz_job_at_end(const struct job *, size_t, size_t);
int	bufsz_job_declines(const struct job *, int);
int	bufsz_size_kept(const struct job *);
int	bufsz_io_again(int in, int out);

/*
 * The host's kernel paths (kpath_<host>.c): the path AUTO takes for a
 * pair; a copy by *p, or REFUSED having moved nothing more, possibly
 * going on by a next best path that it names in *p; the start of a copy
 * of an input not yet looked at (j_inst NULL), or REFUSED; and what the
 * paths keep in an engine, released.
 */
enum bufsz_path	bufsz_kpath_auto(const struct job *);
int	bufsz_kpath_copy(struct job *, enum bufsz_path *);
int	bufsz_kpath_unseen(struct job *);
void	bufsz_kpath_release(struct bufsz_engine *);
int	bufsz_kpath_loop(struct job *, ssize_t (*)(const struct job *, size_t));
ssize_t	bufsz_move_cfr(const struct job *, size_t);

/* The next data at or after pos, as [*data, *hole): 1, 0 (none), -1. */
int	bufsz_next_data(int, off_t, off_t *, off_t *);

/* Whether fd's file system keeps sizes that say where files end. */
int	bufsz_host_keeps_size(int);

/*
 * The host's sandbox over the operands and the directory of temporary
 * files, or -1 (sandbox_<host>.c): 1 if entered.
 */
int	bufsz_host_sandbox(char *const [], int);

#endif /* !_BUFSZ_PRIVATE_H_ */
