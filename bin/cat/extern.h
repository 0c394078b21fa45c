/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat: what cat.c takes from the files its Makefile picks for the host
 * (lock_ofd.c or lock_flock.c) and from progress.c.
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
void	progress_signal(int);
void	progress_start(const char *, int);
void	progress_add(size_t);
void	progress_stop(void);

#endif /* !_CAT_EXTERN_H_ */
