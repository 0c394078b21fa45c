/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: opening a file below a directory without leaving it.
 */

#ifndef _CP_BENEATH_H_
#define _CP_BENEATH_H_

/*
 * Open the existing file that path names below the directory dir,
 * following symbolic links only while they stay below it; -1 with errno
 * EXDEV when one leads out (an absolute link always does).
 * beneath_linux.c, beneath_portable.c: with the kernel's help where it
 * has a way.  beneath.c: one name at a time, for the rest
 * and for paths too long for the kernel.
 */
int	open_beneath(int, const char *, int);
int	open_beneath_walk(int, const char *, int);

#endif /* !_CP_BENEATH_H_ */
