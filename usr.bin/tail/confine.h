/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Confining tail to its operands: Casper's fileargs (confine_casper.c)
 * where the host has it, else libbufsz's sandbox (confine_bufsz.c).
 */

#ifndef _CONFINE_H_
#define	_CONFINE_H_

#define	CONFINE_EVENTS	0x1	/* -f: the inputs' events are waited on */

/*
 * confine(operands, flags, tmpdir): tmpdir, unless -1, is the directory
 * beneath which tail makes its temporary files once confined.
 */
struct stat;
void	confine(char *const [], int, int);
int	open_confined(const char *, int);
int	stat_confined(const char *, struct stat *);

#endif /* !_CONFINE_H_ */
