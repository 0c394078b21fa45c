/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * tail's selection (usr.bin/tail/select.c) under the fuzzer, and the
 * plain reference it is compared with.
 */

#ifndef FUZZ_TAIL_H
#define	FUZZ_TAIL_H

#include <stddef.h>
#include <stdint.h>

/* What tail shows: its styles, -r ones apart. */
enum tstyle {
	T_FBYTES,	/* -c +N: from byte N (count N - 1) */
	T_FLINES,	/* -n +N */
	T_RBYTES,	/* -c N */
	T_RLINES,	/* -n N */
	T_REVERSE,	/* -r */
	T_RRBYTES,	/* -r -c N */
	T_RRLINES,	/* -r -n N */
	T_NSTYLES
};

/* A growing byte buffer. */
struct tbuf {
	char	*tb_buf;
	size_t	 tb_len;
	size_t	 tb_cap;
};

void	tbuf_add(struct tbuf *, const char *, size_t);
void	tbuf_free(struct tbuf *);

/* The reference: what tail shows of in[0, len) in style with count. */
void	ref_tail(enum tstyle, uint64_t, const char *, size_t, struct tbuf *);

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#endif /* !FUZZ_TAIL_H */
