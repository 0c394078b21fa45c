/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz's workings, for its own files, tests and tools.
 */

#ifndef _BUFSZ_PRIVATE_H_
#define	_BUFSZ_PRIVATE_H_

#include "bufsz.h"

/* What the policy decides from; a type of 0 means no such side. */
struct bufsz_facts {
	uint64_t	bf_physmem;
	size_t		bf_pagesize;
	mode_t		bf_in_type;
	long long	bf_in_blksize;
	off_t		bf_in_size;	/* of a regular input, else -1 */
	mode_t		bf_out_type;
	long long	bf_out_blksize;
};

size_t	bufsz_policy(const struct bufsz_facts *);
size_t	bufsz_policy_limit(const struct bufsz_facts *);	/* for -B */
void	bufsz_facts_of(struct bufsz_facts *, const struct stat *,
	    const struct stat *);
size_t	bufsz_pages(size_t, size_t);
size_t	bufsz_pagesize(void);

enum bufsz_path {
	COPY_AUTO = 0,
	COPY_RW,
	COPY_CFR,
	COPY_SPLICE,
	COPY_SENDFILE
};

#define	FS_SEEN		8

struct bufsz_engine {
	char		*be_buf;
	size_t		 be_bufsz;
	enum bufsz_path	 be_force;	/* set by tests */
	size_t		 be_force_size;
	enum bufsz_path	 be_last;	/* read by tests */
	off_t		 be_moved;	/* by the copy under way */
	_Atomic off_t	 be_total;	/* by every copy, for bufsz_moved() */
	struct {
		dev_t	 fs_dev;
		int	 fs_keeps_size;
	}		 be_fs[FS_SEEN];
	size_t		 be_nfs;
};

extern size_t	bufsz_asked_size;	/* by bufsz_start(), or 0 */

struct bufsz_engine *bufsz_engine_new(void);
void	bufsz_engine_free(struct bufsz_engine *);
void	bufsz_engine_force(struct bufsz_engine *, enum bufsz_path, size_t);
int	bufsz_engine_copy(struct bufsz_engine *, int, const struct stat *,
	    int, const struct stat *, int);
char	*bufsz_engine_buffer(struct bufsz_engine *, const struct stat *,
	    const struct stat *, size_t *);
const char *bufsz_path_name(enum bufsz_path);

/* One copy under way. */
struct job {
	struct bufsz_engine	*j_e;
	int			 j_in;
	int			 j_out;
	const struct stat	*j_inst;	/* NULL: not looked at */
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
int	bufsz_job_declines(const struct job *, int);
int	bufsz_size_kept(const struct job *);
int	bufsz_io_again(int, int);
int	bufsz_kpath_loop(struct job *, ssize_t (*)(const struct job *, size_t));

/*
 * Each host's files: the kernel paths, a copy by *p, or by the host's
 * choice where *p is COPY_AUTO, which *p then names; or REFUSED, having
 * moved nothing more (an input not looked at is refused where the host
 * needs its stat); whether fd's file system keeps sizes that say where
 * files end; the probe; and the sandbox, which bufsz_open() knows.
 */
int	bufsz_kpath(struct job *, enum bufsz_path *);
int	bufsz_host_keeps_size(int);
int	bufsz_host_physmem(uint64_t *);
int	bufsz_host_cpus(void);
void	bufsz_host_sandbox(char *const [], int);

#endif /* !_BUFSZ_PRIVATE_H_ */
