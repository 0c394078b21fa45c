/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining a program to its operands where the host can, for cat and
 * tail: Landlock (confine.c), capability mode with the operands opened
 * by Casper (confine_casper.c), or nothing (confine_portable.c).
 */

#ifndef _CONFINE_H_
#define	_CONFINE_H_

/*
 * confine() enters the host's sandbox where it can, given the operands
 * (a NULL-terminated list, "-" the standard input), once everything the
 * program learns lazily is learned.  tmpdir, unless -1, is a directory
 * descriptor beneath which the program will make, write, read and
 * remove its temporary files, relative to it, once confined.  With
 * CONFINE_EVENTS the program may wait on its inputs' events.
 *
 * open_confined() opens an operand for reading, with flags added to
 * O_RDONLY, when its turn comes: a descriptor, -1 with errno set, or
 * OPEN_OUTSIDE when the sandbox refused a file that the program could
 * have read unconfined.  stat_confined() is stat(2) of an operand.
 */
#define	OPEN_OUTSIDE	(-2)
#define	CONFINE_EVENTS	0x1

struct stat;
void	confine(char *const [], int, int);
int	open_confined(const char *, int);
int	stat_confined(const char *, struct stat *);

#endif /* !_CONFINE_H_ */
