/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat: what cat.c takes from the files its Makefile picks for the host
 * (lock_ofd.c or lock_flock.c; sandbox_linux.c, sandbox_freebsd.c or
 * sandbox_none.c), from progress.c and from confine.c.
 */

#ifndef _CAT_EXTERN_H_
#define _CAT_EXTERN_H_

#include <stddef.h>

struct stat;

/*
 * -l: wait for an exclusive lock on the whole of the standard output,
 * one that no close(2) of another descriptor for the same file drops.
 */
void	lock_output(void);

/*
 * progress.c: the report on the progress signal.  progress_start() and
 * progress_stop() enclose the copy of one operand, by the engine or by
 * reads that progress_add() counts.
 */
struct bufsz_engine;
void	progress_init(void);
void	progress_start(const char *, const struct bufsz_engine *);
void	progress_add(size_t);
void	progress_stop(void);

/*
 * confine.c: confine() enters the host's sandbox where it can, given the
 * operands, once everything cat learns lazily is learned.
 * operand_ahead() then hands over the descriptor it opened ahead for
 * operand i, and that file's stat, once; -1 when there is none, and
 * operand i is to be opened now.
 */
void	confine(char *const []);
int	operand_ahead(size_t, struct stat *);

/*
 * The host's sandbox, for confine.c.  sandbox_new() returns NULL where
 * there is none.  sandbox_limit_fd() narrows a descriptor opened before
 * the sandbox to reading; sandbox_allow_path() lets the sandbox open what
 * path names now, for reading; sandbox_enter() puts the process in it.
 * Each returns 0, or -1 with errno set.
 */
struct sandbox;
struct sandbox *sandbox_new(void);
int	sandbox_limit_fd(struct sandbox *, int);
int	sandbox_allow_path(struct sandbox *, const char *);
int	sandbox_enter(struct sandbox *);
void	sandbox_free(struct sandbox *);

#endif /* !_CAT_EXTERN_H_ */
