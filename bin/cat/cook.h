/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's formatting options, apart from its I/O: input goes in as chunks
 * of any size, and formatted output comes out through the caller's flush
 * function a buffer at a time, the same wherever the chunks are cut.
 */

#ifndef _COOK_H_
#define	_COOK_H_

#include <limits.h>
#include <stddef.h>

#define	COOK_NUMBER	0x01	/* -n: number the lines */
#define	COOK_NONBLANK	0x02	/* -b: ...but not the empty ones */
#define	COOK_ENDS	0x04	/* -E: '$' before each newline */
#define	COOK_SQUEEZE	0x08	/* -s: one empty line for a run of them */
#define	COOK_TABS	0x10	/* -T: tabs as ^I */
#define	COOK_VIS	0x20	/* -v: other unprintable bytes visible */
#define	COOK_ALL	0x3f

/*
 * The most written without looking at the room left: a word of eight
 * bytes, each a newline's form and a line number.  A buffer is larger.
 */
#define	COOK_ROOM	256
#define	COOK_NUMLEN	24	/* a line number: up to 22 digits, a tab */
#define	COOK_PARTMAX	(MB_LEN_MAX < 8 ? 8 : MB_LEN_MAX)

typedef void	cook_flush_fn(void *, const char *, size_t);

struct cook {
	char		ck_show[256][4]; /* each byte as the options show it */
	unsigned char	ck_showlen[256];
	unsigned char	ck_pair[256 * 256]; /* what two bytes begin */
	int		ck_flags;
	int		ck_mbvis;	/* -v in a multibyte locale */
	int		ck_utf8;	/* ...which is UTF-8 */
	char	       *ck_obuf;
	size_t		ck_obufsz;
	size_t		ck_olen;
	cook_flush_fn  *ck_flush;	/* takes each full buffer whole */
	void	       *ck_arg;
	int		ck_bol;		/* the next byte begins a line */
	int		ck_gobble;	/* an empty line was just written */
	size_t		ck_numat;	/* where the last number starts */
	char		ck_num[2 * COOK_NUMLEN]; /* ...and slack after it */
	size_t		ck_partlen;	/* a character cut by a chunk's end */
	unsigned char	ck_part[COOK_PARTMAX];
};

void	cook_init(struct cook *, int, char *, size_t, cook_flush_fn *,
	    void *);
void	cook_chunk(struct cook *, const unsigned char *, size_t);
void	cook_end(struct cook *);
void	cook_flush(struct cook *);

#endif /* !_COOK_H_ */
