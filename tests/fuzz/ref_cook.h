/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The fuzzer's reference: what cat's formatting options make of one
 * file in the C locale or in UTF-8, worked out apart from bin/cat/cook.c.
 */

#ifndef _REF_COOK_H_
#define	_REF_COOK_H_

#include <stddef.h>

/* A growing buffer; an allocation that fails aborts. */
struct outbuf {
	unsigned char	*ob_buf;
	size_t		 ob_len;
	size_t		 ob_cap;
};

void	outbuf_add(struct outbuf *, const void *, size_t);
void	outbuf_free(struct outbuf *);

void	ref_cook(int, int, const unsigned char *, size_t, struct outbuf *);

#endif /* !_REF_COOK_H_ */
