/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef _YES_EXTERN_H_
#define	_YES_EXTERN_H_

/*
 * The host's part once the output is built, len bytes of whole lines that
 * never change: confine what is left, or lend out's pages to a pipe until
 * the kernel refuses.  Returns the offset in out of the next byte due.
 */
size_t	yes_host(char *out, size_t len);

#endif /* !_YES_EXTERN_H_ */
