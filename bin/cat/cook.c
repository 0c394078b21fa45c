/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's formatting: -b, -E, -n, -s, -T and -v (see cook.h).  The input
 * is read a word at a time: a word with no control byte and none from
 * 0x7f up is copied whole, and the bytes of the others are shown through
 * tables built once.
 */

#include <langinfo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "cook.h"

#define	MIN(a, b)	((a) < (b) ? (a) : (b))
#define	ONES		((uint64_t)0x0101010101010101)

#define	LINEWISE	(COOK_NUMBER | COOK_SQUEEZE) /* a line's start matters */

/* What a byte and the next begin, in ck_pair; 0 until it is learnt. */
#define	PAIR(p)		((p)[0] | (p)[1] << 8)
#define	PAIR_NOTHING	1	/* the first byte is shown from the table */
#define	PAIR_MORE	2	/* a newline, or a character for put_special */
#define	PAIR_PRINT	3	/* a printable character of two bytes */

static size_t	cook_run(struct cook *, const unsigned char *, size_t, int);
static ptrdiff_t	copy_words(struct cook *, const unsigned char **,
		    const unsigned char *, char **);
static size_t	put_special(struct cook *, char **, const unsigned char *,
		    size_t, int);
static char	*begin_line(struct cook *, char *, unsigned char);
static char	*put_shown(struct cook *, char *, int);
static unsigned char	show_form(int, int, char *);
static int	pair_kind(struct cook *, const unsigned char *);
static size_t	decode(const struct cook *, const unsigned char *, size_t,
		    wchar_t *);

/* Output goes to obuf and on to flush(arg); -v takes the locale now. */
void
cook_init(struct cook *ck, int flags, char *obuf, size_t obufsz,
    cook_flush_fn *flush, void *arg)
{
	unsigned char b;
	wchar_t wc;
	size_t len;
	int c, d, kind;

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
	memset(ck->ck_pair, PAIR_NOTHING, sizeof(ck->ck_pair));
	for (c = 0; c < 256; c++) {
		ck->ck_showlen[c] = show_form(flags, c, ck->ck_show[c]);
		kind = c == '\n' && (flags & LINEWISE) != 0 ? PAIR_MORE :
		    PAIR_NOTHING;
		b = (unsigned char)c;
		len = c >= 0x80 && ck->ck_mbvis ? decode(ck, &b, 1, &wc) : 0;
		if (len == (size_t)-2)	/* it may begin a character */
			kind = 0;
		else if (len == 1 && iswprint((wint_t)wc))
			ck->ck_showlen[c] = show_form(0, c, ck->ck_show[c]);
		else if (len == 1)
			ck->ck_showlen[c] = show_form(flags,
			    0x80 | (wc & 0x7f), ck->ck_show[c]);
		for (d = 0; d < 256 && kind != PAIR_NOTHING; d++)
			ck->ck_pair[c | d << 8] = (unsigned char)kind;
	}
	cook_end(ck);		/* the first file starts as the next ones */
}

/* The next n bytes; the character that the last chunk cut goes first. */
void
cook_chunk(struct cook *ck, const unsigned char *p, size_t n)
{
	size_t len, more, used;

	if ((len = ck->ck_partlen) > 0) {
		more = MIN(COOK_PARTMAX - len, n);
		memcpy(ck->ck_part + len, p, more);
		used = cook_run(ck, ck->ck_part, len + more, 0);
		if (used < len) {	/* still cut: all of p is in it */
			ck->ck_partlen = len + more - used;
			memmove(ck->ck_part, ck->ck_part + used, ck->ck_partlen);
			return;
		}
		p += used - len;
		n -= used - len;
	}
	used = cook_run(ck, p, n, 0);
	/* cook_run stops short only less than COOK_PARTMAX from the end. */
	memcpy(ck->ck_part, p + used, n - used);
	ck->ck_partlen = n - used;
}

/* The end of a file: a character cut short is shown bytewise. */
void
cook_end(struct cook *ck)
{

	(void)cook_run(ck, ck->ck_part, ck->ck_partlen, 1);
	ck->ck_partlen = 0;
	ck->ck_bol = 1;
	ck->ck_gobble = 0;
	memset(ck->ck_num, ' ', sizeof(ck->ck_num));
	memcpy(ck->ck_num + COOK_NUMLEN - 2, "0\t", 2);
	ck->ck_numat = COOK_NUMLEN - 7;
}

/* Hand what is gathered to the flush function. */
void
cook_flush(struct cook *ck)
{

	if (ck->ck_olen > 0)
		ck->ck_flush(ck->ck_arg, ck->ck_obuf, ck->ck_olen);
	ck->ck_olen = 0;
}

/*
 * Format n bytes; return how many were used, fewer only when more input
 * (not at_eof) may complete a character.  Words are copied while 16 bytes
 * are left and each byte has room for 32 (a newline's form and a number);
 * where they stop, bytes go one at a time for a while.
 */
static size_t
cook_run(struct cook *ck, const unsigned char *p, size_t n, int at_eof)
{
	const unsigned char *q, *end, *stop;
	char *o, *lim;
	ptrdiff_t alone;
	size_t used;
	int k;

	o = ck->ck_obuf + ck->ck_olen;
	lim = ck->ck_obuf + ck->ck_obufsz - COOK_ROOM;
	for (q = p, end = p + n; q < end; ) {
		if (o > lim) {
			ck->ck_olen = (size_t)(o - ck->ck_obuf);
			cook_flush(ck);
			o = ck->ck_obuf;
		}
		if (ck->ck_bol) {
			o = begin_line(ck, o, *q);
			q += ck->ck_bol;
			continue;
		}
		if ((alone = end - q < 16 ? 8 : copy_words(ck, &q,
		    q + MIN(end - q - 16, (lim - o) / 32), &o)) == 0)
			continue;
		for (stop = q + MIN(end - q, alone); q < stop && o <= lim;
		    q += used) {
			k = end - q >= 2 ? pair_kind(ck, q) : PAIR_MORE;
			used = 2;
			if (k == PAIR_NOTHING) {
				o = put_shown(ck, o, *q);
				used = 1;
			} else if (k == PAIR_PRINT) {
				memcpy(o, q, 2);
				o += 2;
			} else if ((used = put_special(ck, &o, q,
			    (size_t)(end - q), at_eof)) == 0)
				break;
		}
		if (q < stop && o <= lim)
			break;
	}
	ck->ck_olen = (size_t)(o - ck->ck_obuf);
	return ((size_t)(q - p));
}

/*
 * The high bit of each byte of the word at p (first byte lowest, in one
 * load) that is below 0x20 or from 0x7f up, as each byte that an option
 * changes is, a newline, and each that begins a character.  No carry
 * crosses bytes.
 */
static inline uint64_t
marks(const unsigned char *p)
{
	uint64_t w, low;

	w = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	    (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	low = w & ONES * 0x7f;
	return ((~(low + ONES * 0x60) | (low + ONES) | w) & ONES * 0x80);
}

/*
 * Copy the words from *qp to last, a marked byte from the table.  Else
 * return how many bytes from *qp go one at a time: those from a byte the
 * table cannot show alone, or more from a word of three marks or more.
 */
static inline ptrdiff_t
copy_words(struct cook *ck, const unsigned char **qp,
    const unsigned char *last, char **op)
{
	const unsigned char *q;
	char *o;
	uint64_t few, m;
	ptrdiff_t alone;
	size_t j, pos;
	int k;
	unsigned char c;

	alone = 0;
	for (q = *qp, o = *op; q <= last; q += 8) {
		if ((m = marks(q)) == 0) {
			memcpy(o, q, 8);
			o += 8;
			continue;
		}
		few = m & (m - 1);
		if ((few & (few - 1)) != 0) {
			alone = 64;
			break;
		}
		for (pos = 0; m != 0; m &= m - 1) {
			/* The lowest bit, 1 << 8j, times this has j on top. */
			j = (size_t)((((m & (~m + 1)) >> 7) *
			    (uint64_t)0x0001020304050607) >> 56);
			c = q[j];
			k = ck->ck_pair[PAIR(q + j)];
			/* A newline before a line of text is done here. */
			if (k != PAIR_NOTHING && (c != '\n' || q[j + 1] == '\n'))
				break;
			memcpy(o, q + pos, 8);
			o = put_shown(ck, o + j - pos, c);
			if (k != PAIR_NOTHING)
				o = begin_line(ck, o, q[j + 1]);
			pos = j + 1;
		}
		memcpy(o, q + pos, 8);
		if (m != 0) {
			o += j - pos;
			q += j;
			alone = 8;
			break;
		}
		o += 8 - pos;
	}
	*qp = q;
	*op = o;
	return (alone);
}

/*
 * What the pairs do not show, at *op: a newline where a line's start
 * matters, with the lines that -s squeezes after it; a character, whole
 * if printable (as FreeBSD's cat -v) and else as the form of its low seven
 * bits from 0x80 up.  Returns the bytes used, 0 when p's end may cut it.
 */
static size_t
put_special(struct cook *ck, char **op, const unsigned char *p, size_t n,
    int at_eof)
{
	wchar_t wc;
	size_t len;
	int k;

	if (*p == '\n' && (ck->ck_flags & LINEWISE) != 0) {
		*op = put_shown(ck, *op, '\n');
		ck->ck_bol = 1;
		for (len = 1; len < n && ck->ck_bol; len++)
			*op = begin_line(ck, *op, p[len]);
		return (ck->ck_bol ? len : len - 1);
	}
	len = 1;
	k = *p;
	if (ck->ck_mbvis && *p >= 0x80) {
		len = decode(ck, p, n, &wc);
		if (len == (size_t)-2 && !at_eof && n < COOK_PARTMAX)
			return (0);
		if (len > n)
			len = 1;
		else if (iswprint((wint_t)wc)) {
			memcpy(*op, p, len);
			*op += len;
			return (len);
		} else
			k = 0x80 | (wc & 0x7f);
	}
	*op = put_shown(ck, *op, k);
	return (len);
}

/*
 * A line begins with c: its number, "%6jd\t" counted up in its text, goes
 * at o, and the end is returned; ck_bol is cleared unless -s squeezes it.
 */
static inline char *
begin_line(struct cook *ck, char *o, unsigned char c)
{
	char *d;
	int flags;

	flags = ck->ck_flags;
	if ((flags & COOK_SQUEEZE) != 0) {
		if (c == '\n' && ck->ck_gobble)
			return (o);
		ck->ck_gobble = c == '\n';
	}
	ck->ck_bol = 0;
	if ((flags & COOK_NUMBER) == 0)
		return (o);
	if ((flags & COOK_NONBLANK) != 0 && c == '\n') {
		if ((flags & COOK_ENDS) == 0)	/* -be keeps the columns */
			return (o);
		memcpy(o, "      \t", 7);
		return (o + 7);
	}
	for (d = ck->ck_num + COOK_NUMLEN - 2; *d == '9'; d--)
		*d = '0';
	*d = (char)((*d | 0x10) + 1);	/* ' ' becomes '1' too */
	if (d < ck->ck_num + ck->ck_numat)
		ck->ck_numat = (size_t)(d - ck->ck_num);
	memcpy(o, ck->ck_num + ck->ck_numat, COOK_NUMLEN);
	return (o + COOK_NUMLEN - ck->ck_numat);
}

/* Byte c at o as -E, -T and -v show it; returns the end. */
static inline char *
put_shown(struct cook *ck, char *o, int c)
{

	memcpy(o, ck->ck_show[c], 4);
	return (o + ck->ck_showlen[c]);
}

/* Byte c as the options show it, into o (four bytes); its length. */
static unsigned char
show_form(int flags, int c, char *o)
{
	int i;

	i = 0;
	if (c == '\n' && (flags & COOK_ENDS) != 0)
		o[i++] = '$';
	else if (c == '\t' && (flags & COOK_TABS) != 0) {
		o[i++] = '^';
		c = 'I';
	} else if (c != '\n' && c != '\t' && (flags & COOK_VIS) != 0) {
		if (c >= 0x80) {
			o[i++] = 'M';
			o[i++] = '-';
			c &= 0x7f;
		}
		if (c < 0x20 || c == 0x7f) {
			o[i++] = '^';
			c ^= 0x40;
		}
	}
	o[i++] = (char)c;
	return ((unsigned char)i);
}

/* What the two bytes at p begin, learnt once a pair. */
static inline int
pair_kind(struct cook *ck, const unsigned char *p)
{
	unsigned char *known;
	wchar_t wc;
	size_t len;

	known = &ck->ck_pair[PAIR(p)];
	if (*known == 0) {
		len = decode(ck, p, 2, &wc);
		*known = len == (size_t)-1 ? PAIR_NOTHING : len == 2 &&
		    iswprint((wint_t)wc) ? PAIR_PRINT : PAIR_MORE;
	}
	return (*known);
}

/*
 * The character at p, of n bytes at most, as mbrtowc(3) returns it; UTF-8
 * as RFC 3629 has it, which some C libraries stretch.
 */
static size_t
decode(const struct cook *ck, const unsigned char *p, size_t n, wchar_t *wc)
{
	mbstate_t mbs;
	unsigned int c, lo, hi;
	size_t i, len;

	if (!ck->ck_utf8) {
		memset(&mbs, 0, sizeof(mbs));
		return (mbrtowc(wc, (const char *)p, n, &mbs));
	}
	if ((c = p[0]) < 0xc2 || c > 0xf4)
		return ((size_t)-1);
	len = 2 + (c >= 0xe0) + (c >= 0xf0);
	/* No overlong form, surrogate or value past U+10FFFF. */
	lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	*wc = (wchar_t)(c & (0x7f >> len));
	for (i = 1; i < len; i++, lo = 0x80, hi = 0xbf) {
		if (i == n)
			return ((size_t)-2);
		if (p[i] < lo || p[i] > hi)
			return ((size_t)-1);
		*wc = *wc << 6 | (p[i] & 0x3f);
	}
	return (len);
}
