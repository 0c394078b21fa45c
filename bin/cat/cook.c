/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's formatting: -b, -E, -n, -s, -T and -v (see cook.h).  Bytes go
 * through tables built once, and words of text that no option changes
 * are copied whole.
 */

#include <langinfo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "cook.h"

#ifndef __always_inline
/* <sys/cdefs.h> has it on the BSDs and with glibc; musl has no such file. */
#define	__always_inline	inline
#endif

static void	set_show(struct cook *);
static unsigned char	show_form(int, int, char *);
static void	set_stop(struct cook *);
static int	single_byte(struct cook *, int);
static void	cook_bridge(struct cook *, const unsigned char **, size_t *);
static size_t	cook_run(struct cook *, const unsigned char *, size_t, int);
static __always_inline size_t	skim(int, struct cook *,
		    const unsigned char *, size_t, char **, const char *,
		    size_t *);
static size_t	skim_for(struct cook *, const unsigned char *, size_t,
		    char **, const char *, size_t *);
static size_t	copy_shown(struct cook *, const unsigned char *, size_t);
static inline size_t	end_line(struct cook *, char *, const unsigned char *,
		    size_t);
static inline char	*put_ends(char *, const unsigned char *, uint64_t,
		    uint64_t);
static inline char	*next_line(struct cook *, char *);
static inline int	begin_line(struct cook *, unsigned char);
static char	*put_number(struct cook *, char *);
static void	reset_number(struct cook *);
static void	put_shown(struct cook *, unsigned char);
static size_t	show_pairs(struct cook *, const unsigned char *, size_t,
		    char **, const char *);
static size_t	put_multibyte(struct cook *, const unsigned char *, size_t,
		    int);
static int	pair_kind(struct cook *, const unsigned char *);
static int	utf8_len(const unsigned char *, size_t);
static wchar_t	utf8_decode(const unsigned char *, int);

/*
 * The output goes to obuf, of obufsz bytes (more than COOK_ROOM), and on
 * to flush(arg, ...) whenever it is full and at cook_flush.  The locale
 * that -v follows is the one in force now.
 */
void
cook_init(struct cook *ck, int flags, char *obuf, size_t obufsz,
    cook_flush_fn *flush, void *arg)
{

	memset(ck, 0, sizeof(*ck));
	if ((flags & COOK_NONBLANK) != 0)
		flags |= COOK_NUMBER;
	ck->ck_flags = flags;
	ck->ck_mbvis = (flags & COOK_VIS) != 0 && MB_CUR_MAX > 1;
	ck->ck_utf8 = ck->ck_mbvis &&
	    strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	ck->ck_obuf = obuf;
	ck->ck_obufsz = obufsz;
	ck->ck_flush = flush;
	ck->ck_arg = arg;
	set_show(ck);
	set_stop(ck);
	cook_reset(ck);
}

/* A new file: it begins a line, and its numbering starts again. */
void
cook_reset(struct cook *ck)
{

	ck->ck_bol = 1;
	ck->ck_gobble = 0;
	reset_number(ck);
	ck->ck_partlen = 0;
}

/* The next n bytes of the file. */
void
cook_chunk(struct cook *ck, const unsigned char *p, size_t n)
{
	size_t used;

	if (ck->ck_partlen > 0)
		cook_bridge(ck, &p, &n);
	if (n == 0)
		return;
	used = cook_run(ck, p, n, 0);
	/* cook_run stops short only less than COOK_PARTMAX from the end. */
	memcpy(ck->ck_part, p + used, n - used);
	ck->ck_partlen = n - used;
}

/* The end of the file: a character still cut short is shown bytewise. */
void
cook_end(struct cook *ck)
{

	if (ck->ck_partlen > 0)
		(void)cook_run(ck, ck->ck_part, ck->ck_partlen, 1);
	ck->ck_partlen = 0;
}

/* Hand what is gathered to the flush function. */
void
cook_flush(struct cook *ck)
{

	if (ck->ck_olen == 0)
		return;
	ck->ck_flush(ck->ck_arg, ck->ck_obuf, ck->ck_olen);
	ck->ck_olen = 0;
}

/* What -E, -T and -v make of each byte, for put_shown. */
static void
set_show(struct cook *ck)
{
	int c;

	for (c = 0; c < 256; c++)
		ck->ck_showlen[c] = show_form(ck->ck_flags, c, ck->ck_show[c]);
}

/* Byte c as the options show it, into o (four bytes); its length. */
static unsigned char
show_form(int flags, int c, char *o)
{
	char *start;
	int low;

	start = o;
	low = c;
	if (c == '\n') {
		if ((flags & COOK_ENDS) != 0)
			*o++ = '$';
	} else if (c == '\t') {
		if ((flags & COOK_TABS) != 0) {
			*o++ = '^';
			low = 'I';
		}
	} else if ((flags & COOK_VIS) != 0) {
		if (c >= 0x80) {
			*o++ = 'M';
			*o++ = '-';
			low = c & 0x7f;
		}
		if (low < 0x20 || low == 0x7f) {
			*o++ = '^';
			low = low == 0x7f ? '?' : low | 0x40;
		}
	}
	*o++ = (char)low;
	return ((unsigned char)(o - start));
}

/*
 * What words are searched for, and the bytes that the tables cannot
 * format alone: a newline, when a line's start matters, and under -v in
 * a multibyte locale the bytes that may begin a character.
 */
static void
set_stop(struct cook *ck)
{
	int c;

	ck->ck_linewise = (ck->ck_flags & (COOK_NUMBER | COOK_SQUEEZE)) != 0;
	ck->ck_marks = ck->ck_flags & (COOK_VIS | COOK_TABS);
	if (ck->ck_linewise || (ck->ck_flags & COOK_ENDS) != 0)
		ck->ck_marks |= COOK_ENDS;
	ck->ck_stop['\n'] = (unsigned char)ck->ck_linewise;
	for (c = 0x80; c < 256 && ck->ck_mbvis; c++) {
		if (ck->ck_utf8)
			ck->ck_stop[c] = c >= 0xc2 && c <= 0xf4;
		else
			ck->ck_stop[c] = !single_byte(ck, c);
	}
	/*
	 * A byte that begins no pair is shown alone, whatever follows it;
	 * those below 0x80 share the first row.
	 */
	for (c = 0; c < 256 && ck->ck_mbvis; c = c == 0 ? 0x80 : c + 1)
		if (!ck->ck_stop[c])
			memset(ck->ck_pair[c], PAIR_NOTHING, 256);
}

/*
 * Whether byte c, from 0x80 up, is all there is to what it begins in
 * this locale: no character, or one of a single byte.  Then the table
 * shows it as put_multibyte would, without asking mbrtowc each time.
 */
static int
single_byte(struct cook *ck, int c)
{
	mbstate_t mbs;
	wchar_t wc;
	size_t len;
	char b;

	b = (char)c;
	memset(&mbs, 0, sizeof(mbs));
	len = mbrtowc(&wc, &b, 1, &mbs);
	if (len == (size_t)-1)
		return (1);
	if (len != 1)
		return (0);
	if (iswprint((wint_t)wc)) {
		ck->ck_show[c][0] = (char)c;
		ck->ck_showlen[c] = 1;
	} else
		ck->ck_showlen[c] = show_form(ck->ck_flags,
		    0x80 | (wc & 0x7f), ck->ck_show[c]);
	return (1);
}

/*
 * Finish the character that the last chunk cut, from the start of this
 * one, which may itself be too short: then the piece grows.  What
 * follows the character in the piece is formatted too, and *p and *n
 * are advanced past what was used.
 */
static void
cook_bridge(struct cook *ck, const unsigned char **p, size_t *n)
{
	unsigned char piece[COOK_PARTMAX];
	size_t len, more, used;

	while (ck->ck_partlen > 0 && *n > 0) {
		len = ck->ck_partlen;
		more = COOK_PARTMAX - len < *n ? COOK_PARTMAX - len : *n;
		memcpy(piece, ck->ck_part, len);
		memcpy(piece + len, *p, more);
		used = cook_run(ck, piece, len + more, 0);
		if (used >= len) {
			/* Whatever is cut now is cut inside this chunk. */
			ck->ck_partlen = 0;
			*p += used - len;
			*n -= used - len;
		} else {
			ck->ck_partlen = len + more - used;
			memcpy(ck->ck_part, piece + used, ck->ck_partlen);
			*p += more;
			*n -= more;
		}
	}
}

/*
 * Format n bytes; return how many were used, which is fewer only when a
 * multibyte character is cut short and more input (not at_eof) may
 * complete it.
 */
static size_t
cook_run(struct cook *ck, const unsigned char *p, size_t n, int at_eof)
{
	size_t i, used;

	for (i = 0; i < n; i += used) {
		if (ck->ck_obufsz - ck->ck_olen < COOK_ROOM)
			cook_flush(ck);
		if (ck->ck_bol && ck->ck_linewise) {
			/* Then room is made again for the line's first byte. */
			used = begin_line(ck, p[i]) ? 0 : 1;
			continue;
		}
		if ((used = copy_shown(ck, p + i, n - i)) == 0 &&
		    (used = put_multibyte(ck, p + i, n - i, at_eof)) == 0)
			return (i);
	}
	return (n);
}

/* Each byte of a word, and what the tests below look at in each. */
#define	ONES	((uint64_t)0x0101010101010101)
#define	HIGHS	(ONES * 0x80)
#define	LOWS	(ONES * 0x7f)

/* The high bit of each byte of w that equals the byte in each of v's. */
static inline uint64_t
bytes_equal(uint64_t w, uint64_t v)
{
	uint64_t x;

	x = w ^ v;
	return (~(((x & LOWS) + LOWS) | x) & HIGHS);
}

/*
 * The high bit of each byte of w that the options format: a control byte
 * or one from 0x7f up (-v), a tab (-T), a newline (COOK_ENDS: -E, or
 * where a line's start matters).  Each byte is tested apart, with no
 * carry between.
 */
static inline uint64_t
special_bytes(int marks, uint64_t w)
{
	uint64_t mark, low;

	low = w & LOWS;
	mark = 0;
	if ((marks & COOK_VIS) != 0) {
		/* Below 0x20, but a tab or a newline that is not searched for. */
		mark = ~(low + ONES * 0x60);
		if ((marks & (COOK_TABS | COOK_ENDS)) == 0)
			mark &= ~((low + ONES * 0x77) & ~(low + ONES * 0x75));
		else if ((marks & COOK_TABS) == 0)
			mark &= (low ^ ONES * '\t') + LOWS;
		else if ((marks & COOK_ENDS) == 0)
			mark &= (low ^ ONES * '\n') + LOWS;
		/* 0x7f, and from 0x80 up. */
		return ((mark | (low + ONES) | w) & HIGHS);
	}
	if ((marks & COOK_TABS) != 0)
		mark |= bytes_equal(w, ONES * '\t');
	if ((marks & COOK_ENDS) != 0)
		mark |= bytes_equal(w, ONES * '\n');
	return (mark);
}

/*
 * A word of 8 bytes, the first in its low byte whatever the host's byte
 * order, so that the first special byte is the lowest one marked.
 * Compilers make this one load.
 */
static inline uint64_t
load_word(const unsigned char *p)
{

	return ((uint64_t)p[0] | (uint64_t)p[1] << 8 |
	    (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	    (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	    (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56);
}

/* How many bytes of a word come before the first one marked. */
static inline size_t
first_marked(uint64_t mark)
{
	uint64_t bits;

	bits = mark >> 7;
	/* The lowest bit, 1 << 8k, times this has k in its top byte. */
	return ((size_t)(((bits & (~bits + 1)) *
	    (uint64_t)0x0001020304050607) >> 56));
}

/*
 * The word at q with a '$' before each of its one or two newlines, which
 * m marks, and few the second of.  Where and how many change from word
 * to word in short lines, so neither is branched on: up to 18 bytes are
 * written, of which the first 9 or 10 count.
 */
static inline char *
put_ends(char *o, const unsigned char *q, uint64_t m, uint64_t few)
{
	size_t j, k;

	j = first_marked(m);
	k = few != 0 ? first_marked(few) : 8;
	memcpy(o, q, 8);
	o[j] = '$';
	memcpy(o + j + 1, q + j, 8);
	o[k + 1] = '$';
	memcpy(o + k + 2, q + k, 8);
	return (o + 9 + (few != 0));
}

/*
 * Format the words at p while there is room, and return how many bytes
 * that is.  It stops short of a byte that the tables cannot format alone
 * or of a word with many marks, and *left is how many bytes the caller
 * must then do one at a time.  A word is taken whole and its marked bytes
 * one after another, so that where the next word starts does not wait on
 * where this one's marks are.
 */
static __always_inline size_t
skim(int marks, struct cook *ck, const unsigned char *p, size_t n,
    char **op, const char *end, size_t *left)
{
	const unsigned char *q, *last, *next;
	uint64_t few, m;
	size_t j, pos, skip;
	char *o;
	unsigned char c;
	int ends;

	o = *op;
	*left = 0;
	/* -E without -n, -b or -s: every newline becomes "$\n". */
	ends = (marks & COOK_ENDS) != 0 &&
	    (ck->ck_flags & COOK_ENDS) != 0 && !ck->ck_linewise;
	/* Sixteen bytes, so that eight can be copied from inside a word. */
	last = p + n - 16;
	for (q = p; q <= last && o <= end; q = next) {
		next = q + 8;
		if ((m = special_bytes(marks, load_word(q))) == 0) {
			memcpy(o, q, 8);
			o += 8;
			continue;
		}
		few = m & (m - 1);
		if (ends && (few & (few - 1)) == 0 &&
		    m == bytes_equal(load_word(q), ONES * '\n')) {
			o = put_ends(o, q, m, few);
			continue;
		}
		if ((few & (few - 1)) != 0) {
			/* Binary, most likely: byte by byte costs less. */
			*left = 32;
			break;
		}
		for (pos = 0; m != 0; m &= m - 1) {
			j = first_marked(m);
			c = q[j];
			/* The bytes before it, and more that are overwritten. */
			memcpy(o, q + pos, 8);
			if (!ck->ck_stop[c]) {
				o += j - pos;
				memcpy(o, ck->ck_show[c], 4);
				o += ck->ck_showlen[c];
				pos = j + 1;
				continue;
			}
			/* A newline where a line's start matters, or a stop. */
			if (c != '\n' || o > end) {
				*op = o + (j - pos);
				*left = 1;
				return ((size_t)(q - p) + j);
			}
			o += j - pos;
			pos = j + 1;
			if (q[pos] != '\n') {
				/* Most lines: no empty one to squeeze or skip. */
				o = next_line(ck, o);
				continue;
			}
			skip = end_line(ck, o, q + pos, n - (size_t)(q - p) - pos);
			o = ck->ck_obuf + ck->ck_olen;
			if (skip > 0) {
				/* Empty lines were squeezed: go on after them. */
				next = q + pos + skip;
				pos = 8;
				break;
			}
		}
		if (pos < 8) {
			memcpy(o, q + pos, 8);
			o += 8 - pos;
		}
	}
	*op = o;
	return ((size_t)(q - p));
}

/* skim with the marks a constant, as it runs for every word. */
static size_t
skim_for(struct cook *ck, const unsigned char *p, size_t n, char **op,
    const char *end, size_t *left)
{

	switch (ck->ck_marks) {
	case COOK_VIS:
		return (skim(COOK_VIS, ck, p, n, op, end, left));
	case COOK_VIS | COOK_TABS:
		return (skim(COOK_VIS | COOK_TABS, ck, p, n, op, end, left));
	case COOK_VIS | COOK_ENDS:
		return (skim(COOK_VIS | COOK_ENDS, ck, p, n, op, end, left));
	case COOK_TABS:
		return (skim(COOK_TABS, ck, p, n, op, end, left));
	case COOK_TABS | COOK_ENDS:
		return (skim(COOK_TABS | COOK_ENDS, ck, p, n, op, end, left));
	case COOK_ENDS:
		return (skim(COOK_ENDS, ck, p, n, op, end, left));
	default:
		return (skim(COOK_VIS | COOK_TABS | COOK_ENDS, ck, p, n, op,
		    end, left));
	}
}

/*
 * Format bytes at p, at most n, and return how many: up to a multibyte
 * character that the chunk's end cuts, or until less than COOK_ROOM is
 * left in the buffer.  Bytes that are not special, as most bytes of text
 * are not, are copied a word at a time, and a line's start is dealt with
 * here, as short lines make it as common as a word.
 */
static size_t
copy_shown(struct cook *ck, const unsigned char *p, size_t n)
{
	size_t i, left, more, used;
	char *o, *end;
	unsigned char c;

	o = ck->ck_obuf + ck->ck_olen;
	end = ck->ck_obuf + ck->ck_obufsz - COOK_ROOM;
	for (i = 0, left = 0; i < n && o <= end; i += used) {
		if (left == 0 && n - i >= 16) {
			used = skim_for(ck, p + i, n - i, &o, end, &left);
			/*
			 * Pairs only where the word that stopped skim has a
			 * byte from 0x80 up: short lines of plain text stop
			 * it too, and a byte at a time does those faster.
			 */
			if (left > 1 && ck->ck_mbvis &&
			    (load_word(p + i + used) & HIGHS) != 0) {
				more = show_pairs(ck, p + i + used,
				    n - i - used, &o, end);
				used += more;
				left = left > more ? left - more : 0;
			}
			continue;
		}
		c = p[i];
		if (c == '\n' && ck->ck_linewise) {
			used = 1 + end_line(ck, o, p + i + 1, n - i - 1);
			o = ck->ck_obuf + ck->ck_olen;
		} else if (ck->ck_stop[c] & (!ck->ck_utf8 | (i + 1 == n) |
		    ((p[i + 1 < n ? i + 1 : i] & 0xc0) == 0x80))) {
			/*
			 * A stop, unless this is UTF-8 and the next byte could
			 * not continue a character, as in most binary input:
			 * then the byte is shown by itself.  Tested together,
			 * as each test is a coin toss there.
			 */
			ck->ck_olen = (size_t)(o - ck->ck_obuf);
			if ((used = put_multibyte(ck, p + i, n - i, 0)) == 0)
				return (i);
			o = ck->ck_obuf + ck->ck_olen;
		} else {
			memcpy(o, ck->ck_show[c], 4);
			o += ck->ck_showlen[c];
			used = 1;
		}
		left = left > used ? left - used : 0;
	}
	ck->ck_olen = (size_t)(o - ck->ck_obuf);
	return (i);
}

/*
 * A newline, shown at o, where a line's start matters: the next line
 * begins at p, of which n bytes are there, and is numbered, or squeezed
 * away with the empty lines after it.  Returns how many bytes of p that
 * took; the output ends at ck_olen.
 */
static inline size_t
end_line(struct cook *ck, char *o, const unsigned char *p, size_t n)
{
	size_t i;

	memcpy(o, ck->ck_show['\n'], 4);
	ck->ck_olen = (size_t)(o - ck->ck_obuf) + ck->ck_showlen['\n'];
	ck->ck_bol = 1;
	for (i = 0; i < n && !begin_line(ck, p[i]); i++)
		;
	return (i);
}

/*
 * A newline where a line's start matters, shown at o, before a line that
 * is not empty; returns the end of what was written.
 */
static inline char *
next_line(struct cook *ck, char *o)
{

	memcpy(o, ck->ck_show['\n'], 4);
	o += ck->ck_showlen['\n'];
	ck->ck_gobble = 0;
	if ((ck->ck_flags & COOK_NUMBER) != 0)
		o = put_number(ck, o);
	return (o);
}

/*
 * A line begins with c: number it, or squeeze it away (return 0) when it
 * is an empty line after another.
 */
static inline int
begin_line(struct cook *ck, unsigned char c)
{
	int flags;

	flags = ck->ck_flags;
	if ((flags & COOK_SQUEEZE) != 0 && c == '\n') {
		if (ck->ck_gobble)
			return (0);
		ck->ck_gobble = 1;
	} else
		ck->ck_gobble = 0;
	if ((flags & COOK_NUMBER) != 0 &&
	    ((flags & COOK_NONBLANK) == 0 || c != '\n'))
		ck->ck_olen = (size_t)(put_number(ck,
		    ck->ck_obuf + ck->ck_olen) - ck->ck_obuf);
	else if ((flags & COOK_NUMBER) != 0 && (flags & COOK_ENDS) != 0) {
		/* -be: an empty line gets a blank field, keeping columns. */
		memcpy(ck->ck_obuf + ck->ck_olen, "      \t", 7);
		ck->ck_olen += 7;
	}
	ck->ck_bol = 0;
	return (1);
}

/*
 * The next line's number at o, printf("%6jd\t") by hand: the text of the
 * last one is counted up in place, as this is done for every line.
 * Returns the end of the number.
 */
static char *
put_number(struct cook *ck, char *o)
{
	char *d;
	size_t at;

	d = ck->ck_num + COOK_NUMLEN - 2;
	if (*d >= '0' && *d < '9') {
		/*
		 * Nine lines in ten: no digit to carry.  The text is copied
		 * before its last digit is stored, not after, so that the
		 * copy does not wait on that store.
		 */
		memcpy(o, ck->ck_num + ck->ck_numat, COOK_NUMLEN);
		o += COOK_NUMLEN - ck->ck_numat;
		o[-2] = ++*d;
		return (o);
	}
	while (*d == '9')
		*d-- = '0';
	if (d == ck->ck_num) {
		/* Past 22 digits of lines, more than any disk holds. */
		reset_number(ck);
		d = ck->ck_num + COOK_NUMLEN - 2;
	}
	*d = *d == ' ' ? '1' : (char)(*d + 1);
	at = (size_t)(d - ck->ck_num);
	if (at < ck->ck_numat)
		ck->ck_numat = at;
	/* A copy of fixed size is quicker; COOK_ROOM allows for it. */
	memcpy(o, ck->ck_num + ck->ck_numat, COOK_NUMLEN);
	return (o + COOK_NUMLEN - ck->ck_numat);
}

/* Line 0, as text right-aligned in six columns, before a tab. */
static void
reset_number(struct cook *ck)
{

	memset(ck->ck_num, ' ', COOK_NUMLEN);
	ck->ck_numat = COOK_NUMLEN - 7;
	ck->ck_num[COOK_NUMLEN - 2] = '0';
	ck->ck_num[COOK_NUMLEN - 1] = '\t';
}

/* One byte as -E, -T and -v show it; room is already made. */
static void
put_shown(struct cook *ck, unsigned char c)
{

	memcpy(ck->ck_obuf + ck->ck_olen, ck->ck_show[c], 4);
	ck->ck_olen += ck->ck_showlen[c];
}

/*
 * Bytes taken a pair at a time before words are tried again: binary
 * input or text of multibyte characters stays on this path, and text
 * after them leaves it soon.
 */
#define	PAIRS_RUN	256

/*
 * Binary input, or text of multibyte characters, under -v in a multibyte
 * locale: from p (n bytes), for up to PAIRS_RUN bytes or until less than
 * COOK_ROOM is left at *op, a byte alone or a character of two bytes is
 * shown from what pair_kind learnt of its pair, without decoding it
 * again; a longer character goes through put_multibyte.  Returns the
 * bytes used: it stops short of a character that the chunk's end cuts,
 * and of a newline where a line's start matters.
 */
static size_t
show_pairs(struct cook *ck, const unsigned char *p, size_t n, char **op,
    const char *end)
{
	const unsigned char *q, *last;
	char *o;
	size_t used;
	unsigned char k;

	o = *op;
	last = p + (n < PAIRS_RUN ? n : PAIRS_RUN) - 1;
	for (q = p; q < last && o <= end; ) {
		if (*q == '\n' && ck->ck_linewise)
			break;
		if ((k = ck->ck_pair[*q >= 0x80 ? *q : 0][q[1]]) == 0)
			k = (unsigned char)pair_kind(ck, q);
		if (k == PAIR_NOTHING) {
			memcpy(o, ck->ck_show[*q], 4);
			o += ck->ck_showlen[*q];
			q++;
		} else if (k == PAIR_PRINT) {
			memcpy(o, q, 2);
			o += 2;
			q += 2;
		} else if (k >= 0x80) {
			memcpy(o, ck->ck_show[k], 4);
			o += ck->ck_showlen[k];
			q += 2;
		} else {
			ck->ck_olen = (size_t)(o - ck->ck_obuf);
			if ((used = put_multibyte(ck, q, n - (size_t)(q - p),
			    0)) == 0)
				break;
			o = ck->ck_obuf + ck->ck_olen;
			q += used;
		}
	}
	*op = o;
	return ((size_t)(q - p));
}

/*
 * -v in a multibyte locale, as FreeBSD's: a printable character is
 * written whole; one that is not printable gets the M- form of its low
 * seven bits; a byte that begins no valid character gets its own M-
 * form, and the next byte is looked at afresh.  Returns the bytes used,
 * 0 when p ends inside a character that the next chunk may complete.
 */
static size_t
put_multibyte(struct cook *ck, const unsigned char *p, size_t n, int at_eof)
{
	mbstate_t mbs;
	wchar_t wc;
	size_t len;
	int ulen;

	if (ck->ck_utf8) {
		/*
		 * UTF-8 is checked and decoded here, as some C libraries
		 * also decode the 5 and 6-byte forms and values past
		 * U+10FFFF that RFC 3629 does not allow.
		 */
		if ((ulen = utf8_len(p, n)) == 0 && !at_eof)
			return (0);
		if (ulen <= 0) {
			put_shown(ck, *p);
			return (1);
		}
		len = (size_t)ulen;
		wc = utf8_decode(p, ulen);
	} else {
		switch (n >= 2 ? pair_kind(ck, p) : PAIR_MAYBE) {
		case PAIR_NOTHING:
			put_shown(ck, *p);
			return (1);
		case PAIR_MAYBE:
			break;
		case PAIR_PRINT:
			memcpy(ck->ck_obuf + ck->ck_olen, p, 2);
			ck->ck_olen += 2;
			return (2);
		default:
			/* Two bytes of a character that is not printable. */
			put_shown(ck, (unsigned char)ck->ck_pair[p[0]][p[1]]);
			return (2);
		}
		memset(&mbs, 0, sizeof(mbs));
		len = mbrtowc(&wc, (const char *)p, n, &mbs);
		if (len == (size_t)-2 && !at_eof && n < COOK_PARTMAX)
			return (0);
		if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
			put_shown(ck, *p);
			return (1);
		}
	}
	if (iswprint((wint_t)wc)) {
		memcpy(ck->ck_obuf + ck->ck_olen, p, len);
		ck->ck_olen += len;
	} else
		put_shown(ck, (unsigned char)(0x80 | (wc & 0x7f)));
	return (len);
}

/*
 * What the two bytes at p begin: the decoder and iswprint are asked once
 * for each pair met, as they cost much more than the question, and
 * binary input is mostly pairs that begin no character or are one.
 * More bytes would not change the answer.
 */
static int
pair_kind(struct cook *ck, const unsigned char *p)
{
	mbstate_t mbs;
	wchar_t wc;
	size_t len;
	unsigned char *known;
	int ulen;

	known = &ck->ck_pair[p[0]][p[1]];
	if (*known != 0)
		return (*known);
	if (ck->ck_utf8) {
		ulen = utf8_len(p, 2);
		len = ulen < 0 ? (size_t)-1 : (size_t)ulen;
		wc = ulen == 2 ? utf8_decode(p, 2) : 0;
	} else {
		memset(&mbs, 0, sizeof(mbs));
		len = mbrtowc(&wc, (const char *)p, 2, &mbs);
	}
	if (len == (size_t)-1)
		*known = PAIR_NOTHING;
	else if (len != 2)
		*known = PAIR_MAYBE;
	else if (iswprint((wint_t)wc))
		*known = PAIR_PRINT;
	else
		*known = (unsigned char)(0x80 | (wc & 0x7f));
	return (*known);
}

/*
 * The length of the RFC 3629 UTF-8 character that begins at p, of which
 * n bytes are there: -1 if none begins there (an overlong form, a
 * surrogate, a value past U+10FFFF, a lone continuation byte), 0 if the
 * n bytes begin one but are too few.
 */
static int
utf8_len(const unsigned char *p, size_t n)
{
	unsigned int c, lo, hi, ok;
	size_t i, len;

	c = p[0];
	if (c < 0xc2 || c > 0xf4)
		return (-1);
	len = 2 + (c >= 0xe0) + (c >= 0xf0);
	/*
	 * The bounds of the second byte, which rule out overlong forms,
	 * surrogates and values past U+10FFFF; those after it are 80-BF.
	 */
	lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	if (n >= 4) {
		/* Tested together: in binary input each test is a coin toss. */
		ok = (p[1] >= lo) & (p[1] <= hi) &
		    ((len < 3) | ((p[2] & 0xc0) == 0x80)) &
		    ((len < 4) | ((p[3] & 0xc0) == 0x80));
		return (ok ? (int)len : -1);
	}
	for (i = 1; i < len; i++) {
		if (i == n)
			return (0);
		if (p[i] < lo || p[i] > hi)
			return (-1);
		lo = 0x80;
		hi = 0xbf;
	}
	return ((int)len);
}

/* The value of the len-byte UTF-8 character at p, which utf8_len checked. */
static wchar_t
utf8_decode(const unsigned char *p, int len)
{
	wchar_t wc;
	int i;

	wc = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++)
		wc = (wc << 6) | (p[i] & 0x3f);
	return (wc);
}
