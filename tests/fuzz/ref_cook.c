/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A reference for cat -b -E -n -s -T -v in the C locale and in UTF-8,
 * kept as plain as possible so that it can be trusted by reading it: one
 * byte or character at a time, no tables, no runs, printf for the
 * numbers.  It follows cat(1), not cook.c, whose speed-ups are what the
 * fuzzer checks against it.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "cook.h"
#include "ref_cook.h"

static void	put_str(struct outbuf *, const char *);
static void	put_byte(struct outbuf *, int);
static void	put_visible(int, int, struct outbuf *);
static size_t	utf8_char(const unsigned char *, size_t, unsigned long *);

void
outbuf_add(struct outbuf *ob, const void *p, size_t n)
{
	unsigned char *nbuf;
	size_t ncap;

	if (n > ob->ob_cap - ob->ob_len) {
		ncap = ob->ob_cap == 0 ? 256 : ob->ob_cap;
		while (n > ncap - ob->ob_len)
			ncap *= 2;
		if ((nbuf = realloc(ob->ob_buf, ncap)) == NULL)
			abort();
		ob->ob_buf = nbuf;
		ob->ob_cap = ncap;
	}
	if (n > 0)
		memcpy(ob->ob_buf + ob->ob_len, p, n);
	ob->ob_len += n;
}

void
outbuf_free(struct outbuf *ob)
{

	free(ob->ob_buf);
	memset(ob, 0, sizeof(*ob));
}

static void
put_str(struct outbuf *ob, const char *s)
{

	outbuf_add(ob, s, strlen(s));
}

static void
put_byte(struct outbuf *ob, int c)
{
	unsigned char b;

	b = (unsigned char)c;
	outbuf_add(ob, &b, 1);
}

/*
 * One file, from its first byte to its last: every file begins a line
 * and numbers its lines from 1.  With utf8, -v takes the locale to be
 * UTF-8, the one in force.
 */
void
ref_cook(int flags, int utf8, const unsigned char *in, size_t n,
    struct outbuf *ob)
{
	char num[32];
	intmax_t lineno;
	unsigned long code;
	size_t i, len;
	int c, empty, at_start, last_was_empty, number_all, number_some;

	/* -b numbers the lines with something on them, and overrides -n. */
	number_some = (flags & COOK_NONBLANK) != 0;
	number_all = (flags & COOK_NUMBER) != 0 && !number_some;
	lineno = 0;
	at_start = 1;
	last_was_empty = 0;
	for (i = 0; i < n; i++) {
		c = in[i];
		if (at_start) {
			empty = c == '\n';
			/* -s: an empty line after a shown empty line goes. */
			if ((flags & COOK_SQUEEZE) != 0 && empty &&
			    last_was_empty)
				continue;
			last_was_empty = empty;
			if (number_all || (number_some && !empty)) {
				lineno++;
				(void)snprintf(num, sizeof(num), "%6jd\t",
				    lineno);
				put_str(ob, num);
			} else if (number_some && (flags & COOK_ENDS) != 0)
				put_str(ob, "      \t");
		}
		at_start = c == '\n';
		len = 0;
		if (utf8 && (flags & COOK_VIS) != 0)
			len = utf8_char(in + i, n - i, &code);
		if (len == 0)
			put_visible(flags, c, ob);
		else {
			/* In UTF-8 a wchar_t is the code point, on every host. */
			if (iswprint((wint_t)code))
				outbuf_add(ob, in + i, len);
			else
				put_visible(flags, 0200 | (int)(code & 0177), ob);
			i += len - 1;
		}
	}
}

/*
 * The length of the character of 2 to 4 bytes at p, of the n left, and
 * its code point; 0 if p does not begin one.  RFC 3629: each length has
 * a least code point, and none is a surrogate or past U+10FFFF.
 */
static size_t
utf8_char(const unsigned char *p, size_t n, unsigned long *code)
{
	static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t i, len;

	for (len = 0; len < 8 && (p[0] & (0200 >> len)) != 0; len++)
		continue;
	if (len < 2 || len > 4 || len > n)
		return (0);
	*code = p[0] & (0177 >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0300) != 0200)
			return (0);
		*code = *code << 6 | (p[i] & 077);
	}
	if (*code < least[len] || *code > 0x10ffff ||
	    (*code >= 0xd800 && *code <= 0xdfff))
		return (0);
	return (len);
}

/* One byte as -E, -T and -v show it. */
static void
put_visible(int flags, int c, struct outbuf *ob)
{

	if (c == '\n') {
		if ((flags & COOK_ENDS) != 0)
			put_byte(ob, '$');
		put_byte(ob, '\n');
		return;
	}
	if (c == '\t') {
		put_str(ob, (flags & COOK_TABS) != 0 ? "^I" : "\t");
		return;
	}
	if ((flags & COOK_VIS) == 0) {
		put_byte(ob, c);
		return;
	}
	if (c >= 0200) {
		put_str(ob, "M-");
		c -= 0200;
	}
	if (c == 0177)
		put_str(ob, "^?");
	else if (c < 040) {
		put_byte(ob, '^');
		put_byte(ob, c + 0100);
	} else
		put_byte(ob, c);
}
