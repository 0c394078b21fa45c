/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat's formatting: -b, -E, -n, -s, -T and -v (see cook.h).  Bytes that
 * no option changes are copied in runs; the others one at a time.
 */

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "cook.h"

static void	set_special(struct cook *);
static size_t	cook_run(struct cook *, const unsigned char *, size_t, int);
static void	cook_bridge(struct cook *, const unsigned char **, size_t *);
static size_t	plain_run(const struct cook *, const unsigned char *, size_t);
static void	put_number(struct cook *, intmax_t);
static void	put_blank_number(struct cook *);
static void	put_char(struct cook *, unsigned char);
static size_t	put_multibyte(struct cook *, const unsigned char *, size_t,
		    int);
static int	utf8_len(const unsigned char *, size_t);

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
	set_special(ck);
	cook_reset(ck);
}

/* A new file: it begins a line, and its numbering starts again. */
void
cook_reset(struct cook *ck)
{

	ck->ck_bol = 1;
	ck->ck_gobble = 0;
	ck->ck_line = 0;
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

/*
 * Which bytes the formatting changes or must see (a newline ends a line);
 * the others are copied in runs.
 */
static void
set_special(struct cook *ck)
{
	int c, tabs, vis;

	tabs = (ck->ck_flags & COOK_TABS) != 0;
	vis = (ck->ck_flags & COOK_VIS) != 0;
	for (c = 0; c < 256; c++)
		ck->ck_special[c] = c == '\n' || (c == '\t' && tabs) ||
		    (vis && c != '\t' && (c < 0x20 || c >= 0x7f));
	ck->ck_only_newline = !tabs && !vis;
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

/* The length of the run of bytes at p, at most n, that pass unchanged. */
static size_t
plain_run(const struct cook *ck, const unsigned char *p, size_t n)
{
	const unsigned char *nl;
	size_t i;

	if (ck->ck_only_newline) {
		nl = memchr(p, '\n', n);
		return (nl == NULL ? n : (size_t)(nl - p));
	}
	for (i = 0; i < n && !ck->ck_special[p[i]]; i++)
		continue;
	return (i);
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
	unsigned char c;
	int flags;

	flags = ck->ck_flags;
	for (i = 0; i < n; i += used) {
		c = p[i];
		used = 1;
		if (ck->ck_obufsz - ck->ck_olen < COOK_ROOM)
			cook_flush(ck);
		if (ck->ck_bol) {
			if ((flags & COOK_SQUEEZE) != 0 && c == '\n') {
				if (ck->ck_gobble)
					continue;
				ck->ck_gobble = 1;
			} else
				ck->ck_gobble = 0;
			if ((flags & COOK_NUMBER) != 0 &&
			    ((flags & COOK_NONBLANK) == 0 || c != '\n'))
				put_number(ck, ++ck->ck_line);
			else if ((flags & COOK_NUMBER) != 0 &&
			    (flags & COOK_ENDS) != 0)
				put_blank_number(ck);
		}
		/* The next turn makes room again for what ends the run. */
		used = plain_run(ck, p + i,
		    n - i < ck->ck_obufsz - ck->ck_olen ?
		    n - i : ck->ck_obufsz - ck->ck_olen);
		if (used > 0) {
			memcpy(ck->ck_obuf + ck->ck_olen, p + i, used);
			ck->ck_olen += used;
			ck->ck_bol = 0;
			continue;
		}
		used = 1;
		ck->ck_bol = c == '\n';
		if (c < 0x80 || !ck->ck_mbvis)
			put_char(ck, c);
		else if ((used = put_multibyte(ck, p + i, n - i, at_eof)) == 0)
			return (i);
	}
	return (n);
}

static void
put_number(struct cook *ck, intmax_t line)
{
	char digits[24], *d;
	size_t len;

	/* printf("%6jd\t") by hand: it is called for every line. */
	d = digits + sizeof(digits);
	do {
		*--d = (char)('0' + line % 10);
		line /= 10;
	} while (line != 0);
	len = (size_t)(digits + sizeof(digits) - d);
	for (; len < 6; len++)
		*--d = ' ';
	memcpy(ck->ck_obuf + ck->ck_olen, d, len);
	ck->ck_olen += len;
	ck->ck_obuf[ck->ck_olen++] = '\t';
}

/* -be: an empty line gets a blank number field, keeping the columns. */
static void
put_blank_number(struct cook *ck)
{

	memcpy(ck->ck_obuf + ck->ck_olen, "      \t", 7);
	ck->ck_olen += 7;
}

/* One input byte as -E, -T and -v want it; room is already made. */
static void
put_char(struct cook *ck, unsigned char c)
{
	char *o;

	o = ck->ck_obuf + ck->ck_olen;
	if (c == '\n') {
		if ((ck->ck_flags & COOK_ENDS) != 0)
			*o++ = '$';
	} else if (c == '\t') {
		if ((ck->ck_flags & COOK_TABS) != 0) {
			*o++ = '^';
			c = 'I';
		}
	} else if ((ck->ck_flags & COOK_VIS) != 0) {
		if (c >= 0x80) {
			*o++ = 'M';
			*o++ = '-';
			c &= 0x7f;
		}
		if (c < 0x20 || c == 0x7f) {
			*o++ = '^';
			c = c == 0x7f ? '?' : c | 0x40;
		}
	}
	*o++ = (char)c;
	ck->ck_olen = (size_t)(o - ck->ck_obuf);
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
		 * UTF-8 is checked here, as some C libraries also decode
		 * the 5 and 6-byte forms and values past U+10FFFF that
		 * RFC 3629 does not allow.
		 */
		if ((ulen = utf8_len(p, n)) == 0 && !at_eof)
			return (0);
		if (ulen <= 0) {
			put_char(ck, *p);
			return (1);
		}
		n = (size_t)ulen;
	}
	memset(&mbs, 0, sizeof(mbs));
	len = mbrtowc(&wc, (const char *)p, n, &mbs);
	if (len == (size_t)-2 && !at_eof && n < COOK_PARTMAX)
		return (0);
	if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
		put_char(ck, *p);
		return (1);
	}
	if (iswprint((wint_t)wc)) {
		memcpy(ck->ck_obuf + ck->ck_olen, p, len);
		ck->ck_olen += len;
	} else
		put_char(ck, (unsigned char)(0x80 | (wc & 0x7f)));
	return (len);
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
	unsigned char lo, hi;
	size_t i, len;

	/* The bounds of the second byte; those after it are 80-BF. */
	lo = 0x80;
	hi = 0xbf;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* not below U+0800 */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* not a surrogate */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		if (p[0] == 0xf0)
			lo = 0x90;	/* not below U+10000 */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* not past U+10FFFF */
	} else
		return (-1);
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
