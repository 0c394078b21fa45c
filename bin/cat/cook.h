/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's formatting options, apart from its I/O: input goes in as chunks
 * of any size, formatted output comes out through the caller's flush
 * function, a buffer at a time.  The result does not depend on where
 * the chunks are cut: a line, a run of empty lines or a multibyte
 * character may straddle them.
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

/* A line number as text: up to 22 digits, its tab, and a space before. */
#define	COOK_NUMLEN	24

/*
 * The most that is written without looking at the room left: a line
 * number copied whole, then "M-^X" or "$\n" or a whole multibyte
 * character; or a word of eight bytes at four bytes each.  An output
 * buffer must be larger.
 */
#define	COOK_ROOM	64

/* The longest multibyte character kept whole across two chunks. */
#define	COOK_PARTMAX	(MB_LEN_MAX < 8 ? 8 : MB_LEN_MAX)

#define	PAIR_NOTHING	1		/* ck_pair: no character */
#define	PAIR_MAYBE	2		/* ...one byte, or more to read */
#define	PAIR_PRINT	3		/* ...a printable character */
					/* 0x80 and up: one not printable */

/* Called with each full buffer of output; it must take all of it. */
typedef void	cook_flush_fn(void *, const char *, size_t);

struct cook {
	/* Set once, by cook_init. */
	int		ck_flags;
	int		ck_linewise;	/* -n, -b or -s: a line's start matters */
	int		ck_marks;	/* -v, -T, and COOK_ENDS for a newline
					   that matters: what a word is
					   searched for */
	int		ck_mbvis;	/* -v in a multibyte locale */
	int		ck_utf8;	/* ...which is UTF-8 */
	char		ck_show[256][4]; /* each byte as the options show it */
	unsigned char	ck_showlen[256];
	unsigned char	ck_stop[256];	/* bytes the tables cannot format */
	unsigned char	ck_pair[256][256]; /* multibyte -v: what two bytes
					   begin, learnt as they are met
					   (PAIR_...); bytes below 0x80
					   use row 0 */
	char	       *ck_obuf;
	size_t		ck_obufsz;
	size_t		ck_olen;
	cook_flush_fn  *ck_flush;
	void	       *ck_arg;

	/* The state of one file, which cook_reset starts afresh. */
	int		ck_bol;		/* the next byte begins a line */
	int		ck_gobble;	/* an empty line was just written */
	size_t		ck_numat;	/* where the number starts in ck_num */
	char		ck_num[2 * COOK_NUMLEN]; /* the last line number, and
					   slack to copy it at a fixed size */
	size_t		ck_partlen;	/* a character cut by a chunk's end */
	unsigned char	ck_part[COOK_PARTMAX];
};

void	cook_init(struct cook *, int, char *, size_t, cook_flush_fn *,
	    void *);
void	cook_reset(struct cook *);
void	cook_chunk(struct cook *, const unsigned char *, size_t);
void	cook_end(struct cook *);
void	cook_flush(struct cook *);

#endif /* !_COOK_H_ */
