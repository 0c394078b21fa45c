/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat: what cat.c takes from the files its Makefile picks for the host
 * (lock_ofd.c or lock_flock.c; sandbox_linux.c, sandbox_freebsd.c or
 * sandbox_none.c) and from confine.c.
 */

#ifndef _CAT_EXTERN_H_
#define _CAT_EXTERN_H_

/*
 * -l: wait for an exclusive lock on the whole of the standard output,
 * one that no close(2) of another descriptor for the same file drops.
 */
void	lock_output(void);

#endif /* !_CAT_EXTERN_H_ */
