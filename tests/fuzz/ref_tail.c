/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What tail shows, the plain way: the whole input in hand, its lines
 * listed first, then picked.  Slow and obvious, to be compared with
 * usr.bin/tail/select.c, which sees the input a window at a time.
 *
 * A line is a run of bytes ending with a newline, or the bytes after the
 * last newline when there are any.
 */

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tail.h"

/* Where each line of in begins; the count in *n, and len at [*n]. */
static size_t *
line_starts(const char *in, size_t len, size_t *n)
{
	size_t *starts, i, k;

	if ((starts = malloc((len + 2) * sizeof(*starts))) == NULL)
		err(1, NULL);
	for (i = 0, k = 0; i < len; i++)
		if (i == 0 || in[i - 1] == '\n')
			starts[k++] = i;
	starts[k] = len;
	*n = k;
	return (starts);
}

/* The start of the last n lines. */
static size_t
last_lines(const char *in, size_t len, uint64_t n)
{
	size_t *starts, count, at;

	if (n == 0)
		return (len);
	starts = line_starts(in, len, &count);
	at = n >= count ? 0 : starts[count - n];
	free(starts);
	return (at);
}

/* The lines of in[from, len), last first. */
static void
reversed(const char *in, size_t from, size_t len, struct tbuf *out)
{
	size_t *starts, count, k;

	starts = line_starts(in + from, len - from, &count);
	for (k = count; k > 0; k--)
		tbuf_add(out, in + from + starts[k - 1],
		    starts[k] - starts[k - 1]);
	free(starts);
}

void
ref_tail(enum tstyle style, uint64_t n, const char *in, size_t len,
    struct tbuf *out)
{
	size_t at, i;

	switch (style) {
	case T_FBYTES:
		at = n < len ? (size_t)n : len;
		break;
	case T_FLINES:
		for (at = 0, i = 0; n > 0 && i < len; i++)
			if (in[i] == '\n' && --n == 0)
				at = i + 1;
		if (n > 0)
			at = len;
		break;
	case T_RBYTES:
		at = n < len ? len - (size_t)n : 0;
		break;
	case T_RLINES:
		at = last_lines(in, len, n);
		break;
	case T_REVERSE:
		reversed(in, 0, len, out);
		return;
	case T_RRBYTES:
		if (n > 0)
			reversed(in, n < len ? len - (size_t)n : 0, len, out);
		return;
	case T_RRLINES:
		if (n > 0)
			reversed(in, last_lines(in, len, n), len, out);
		return;
	default:
		abort();
	}
	tbuf_add(out, in + at, len - at);
}

void
tbuf_add(struct tbuf *tb, const char *p, size_t n)
{
	size_t cap;
	char *b;

	if (tb->tb_len + n > tb->tb_cap) {
		cap = tb->tb_cap == 0 ? 256 : tb->tb_cap;
		while (cap < tb->tb_len + n)
			cap *= 2;
		if ((b = realloc(tb->tb_buf, cap)) == NULL)
			err(1, NULL);
		tb->tb_buf = b;
		tb->tb_cap = cap;
	}
	if (n > 0)
		memcpy(tb->tb_buf + tb->tb_len, p, n);
	tb->tb_len += n;
}

void
tbuf_free(struct tbuf *tb)
{

	free(tb->tb_buf);
	memset(tb, 0, sizeof(*tb));
}
