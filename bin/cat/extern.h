/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat: what cat.c takes from the files its Makefile picks for the host
 * (lock_ofd.c or lock_flock.c), from progress.c and from confine.c.
 */

#ifndef _CAT_EXTERN_H_
#define _CAT_EXTERN_H_

#include <stddef.h>

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
 * open_confined() opens an operand for reading when its turn comes, with
 * more of open(2)'s flags: a descriptor, -1 with errno set, or
 * OPEN_OUTSIDE when the sandbox refused a file that cat could have read
 * unconfined.
 */
#define	OPEN_OUTSIDE	(-2)

void	confine(char *const []);
int	open_confined(const char *, int);

#endif /* !_CAT_EXTERN_H_ */
