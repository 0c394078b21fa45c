/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Page-aligned buffers that degrade gracefully: a large buffer is a
 * speed-up, never a reason to fail, so when it cannot be had a smaller
 * one is taken, down to a single page.
 */

#include <errno.h>
#include <stdlib.h>

#include "bufsz_private.h"

static size_t
round_to_page(size_t n, size_t page)
{
	if (n < page)
		return (page);
	return (n - n % page);
}

void *
bufsz_alloc(size_t want, size_t *got)
{
	size_t page, n;
	void *p;
	int error;

	page = bufsz_pagesize();
	error = ENOMEM;
	for (n = round_to_page(want, page);; n = round_to_page(n / 2, page)) {
		error = posix_memalign(&p, page, n);
		if (error == 0) {
			*got = n;
			return (p);
		}
		if (n == page)
			break;
	}
	*got = 0;
	errno = error;
	return (NULL);
}

void
bufsz_free(void *p, size_t len)
{
	(void)len;
	free(p);
}
