/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes: what yes.c asks of the host's file (yes_linux.c, yes_freebsd.c,
 * yes_portable.c).
 */

#ifndef _YES_EXTERN_H_
#define	_YES_EXTERN_H_

#include <stddef.h>

/*
 * Lend the pages of out, len bytes of whole lines that never change, to
 * the pipe on the standard output, over and over, until the kernel
 * refuses; return the offset in out of the next byte due, for write(2)
 * to carry on from without a gap or a repeat.
 */
size_t	lend_output(char *out, size_t len);

/*
 * Give up, for good, every access to a file by name and every right on
 * the standard descriptors that writing the output does not need, where
 * the host can; where it cannot, yes runs as before.
 */
void	confine_output(void);

#endif /* !_YES_EXTERN_H_ */
