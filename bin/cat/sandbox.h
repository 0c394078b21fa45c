/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The host's sandbox (sandbox_linux.c: Landlock), for confine.c (cat,
 * tail) and for yes.
 */

#ifndef _SANDBOX_H_
#define	_SANDBOX_H_

/*
 * sandbox_new() returns NULL where there is none.  Until it is entered,
 * a sandbox allows nothing by name: sandbox_allow_dir() lets it read any
 * file beneath a directory; sandbox_allow_file() the file path leads to
 * now, by whatever name; sandbox_allow_temp() make, read, write and
 * remove regular files beneath a directory given by its descriptor;
 * sandbox_enter() puts the process in it, for good.  What was open
 * before stays usable.  Each returns 0, or -1 with errno set.
 */
struct sandbox;
struct sandbox *sandbox_new(void);
int	sandbox_allow_dir(struct sandbox *, const char *);
int	sandbox_allow_file(struct sandbox *, const char *);
int	sandbox_allow_temp(struct sandbox *, int);
int	sandbox_enter(struct sandbox *);
void	sandbox_free(struct sandbox *);

#endif /* !_SANDBOX_H_ */
