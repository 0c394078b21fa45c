/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A reference for cat -b -E -n -s -T -v in the C locale, kept as plain
 * as possible so that it can be trusted by reading it: one byte at a
 * time, no tables, no runs, printf for the numbers.  It follows cat(1),
 * not cook.c, whose speed-ups are what the fuzzer checks against it.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cook.h"
#include "ref_cook.h"

static void	put_str(struct outbuf *, const char *);
static void	put_byte(struct outbuf *, int);
static void	put_visible(int, int, struct outbuf *);

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
 * and numbers its lines from 1.
 */
void
ref_cook(int flags, const unsigned char *in, size_t n, struct outbuf *ob)
{
	char num[32];
	intmax_t lineno;
	size_t i;
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
		put_visible(flags, c, ob);
	}
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
