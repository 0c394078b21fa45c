/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The fuzz target: bin/cat/cook.c, fed in chunks, against ref_cook.c,
 * fed whole.  An input is a header of HDRLEN bytes (missing ones read
 * as 0), then the bytes to format:
 *
 *	hdr[0]	bits 0-5: the options (COOK_NUMBER ... COOK_VIS, cook.h);
 *		bits 6-7: the body is cut into 1 to 4 files
 *	hdr[1]	the output buffer: COOK_ROOM + 1 + hdr[1] bytes, 255: 64 KiB
 *	hdr[2]	bit 0: UTF-8 (below); bit 1: flush after every chunk, as -u;
 *		bit 2, without bit 0: EUC-JP (below)
 *	hdr[3..7] the chunk sizes, in turn; 0: the rest of the file
 *
 * The output must equal the reference's, in the C locale or, under bit
 * 0 of hdr[2], in C.UTF-8; there it must also be the same as cook.c's
 * own with each file given in one chunk, which tells a character cut by
 * a chunk's end from one decoded wrongly.  The reference knows no other
 * locale: in ja_JP.EUC-JP (built where LOCPATH says), cook.c's output
 * must be its own with each file given a byte at a time, where every
 * character is read from a piece put together across chunks rather
 * than from what earlier pairs taught it.
 * Every chunk and the output buffer are allocated to their exact size,
 * for AddressSanitizer to see any access beyond them.  A difference is
 * described on stderr, then abort().
 */

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cook.h"
#include "fuzz_cook.h"
#include "ref_cook.h"

#define	HDRLEN		8
#define	NCHUNKSZ	5
#define	BIGOBUF		65536

/* How cook_files gives cook.c its input. */
enum feed {
	FEED_WHOLE,			/* each file in one chunk */
	FEED_CHUNKS,			/* in the run's chunks */
	FEED_BYTES			/* a byte at a time */
};

struct run {
	int		 r_flags;
	int		 r_nfiles;
	size_t		 r_obufsz;
	int		 r_utf8;
	int		 r_eucjp;
	int		 r_flush_often;
	unsigned char	 r_chunksz[NCHUNKSZ];
	const unsigned char *r_body;
	size_t		 r_len;
};

static void	parse_run(struct run *, const uint8_t *, size_t);
static void	file_bounds(const struct run *, int, size_t *, size_t *);
static void	cook_files(const struct run *, enum feed, struct outbuf *);
static void	feed_chunks(struct cook *, const struct run *,
		    const unsigned char *, size_t, enum feed);
static void	sink(void *, const char *, size_t);
static void	reference(const struct run *, struct outbuf *);
static void	compare(const struct run *, const char *,
		    const struct outbuf *, const struct outbuf *);
static void	show_bytes(const char *, const struct outbuf *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outbuf got, want;
	struct run r;
	const char *locale;

	parse_run(&r, data, size);
	memset(&got, 0, sizeof(got));
	memset(&want, 0, sizeof(want));
	locale = r.r_utf8 ? "C.UTF-8" : r.r_eucjp ? "ja_JP.EUC-JP" : NULL;
	/*
	 * setlocale rather than uselocale, which NetBSD lacks: the fuzzer
	 * is one thread, and outside these runs its locale is always C.  A
	 * system without the locale skips them.
	 */
	if (locale != NULL && setlocale(LC_CTYPE, locale) == NULL)
		return (0);
	cook_files(&r, FEED_CHUNKS, &got);
	if (locale != NULL) {
		cook_files(&r, r.r_eucjp ? FEED_BYTES : FEED_WHOLE, &want);
		compare(&r, r.r_eucjp ? "cook.c given a byte at a time" :
		    "cook.c given whole files", &got, &want);
		outbuf_free(&want);
	}
	if (!r.r_eucjp) {
		reference(&r, &want);
		compare(&r, "the reference", &got, &want);
	}
	(void)setlocale(LC_CTYPE, "C");
	outbuf_free(&got);
	outbuf_free(&want);
	return (0);
}

static void
parse_run(struct run *r, const uint8_t *data, size_t size)
{
	unsigned char hdr[HDRLEN];
	size_t h;

	h = size < HDRLEN ? size : HDRLEN;
	memset(hdr, 0, sizeof(hdr));
	if (h > 0)
		memcpy(hdr, data, h);
	r->r_flags = hdr[0] & COOK_ALL;
	r->r_nfiles = 1 + (hdr[0] >> 6);
	r->r_obufsz = hdr[1] == 255 ? BIGOBUF : COOK_ROOM + 1 + hdr[1];
	r->r_utf8 = (hdr[2] & 1) != 0;
	r->r_eucjp = (hdr[2] & 5) == 4;
	r->r_flush_often = (hdr[2] & 2) != 0;
	memcpy(r->r_chunksz, hdr + 3, NCHUNKSZ);
	r->r_body = data + h;
	r->r_len = size - h;
}

/* File f of the body, which is cut into r_nfiles nearly equal parts. */
static void
file_bounds(const struct run *r, int f, size_t *start, size_t *len)
{
	size_t end;

	*start = r->r_len * (size_t)f / (size_t)r->r_nfiles;
	end = r->r_len * (size_t)(f + 1) / (size_t)r->r_nfiles;
	*len = end - *start;
}

/* All the files through cook.c, fed as how says. */
static void
cook_files(const struct run *r, enum feed how, struct outbuf *out)
{
	struct cook ck;
	size_t start, len, obufsz;
	char *obuf;
	int f;

	obufsz = how == FEED_CHUNKS ? r->r_obufsz : BIGOBUF;
	if ((obuf = malloc(obufsz)) == NULL)
		abort();
	cook_init(&ck, r->r_flags, obuf, obufsz, sink, out);
	for (f = 0; f < r->r_nfiles; f++) {
		file_bounds(r, f, &start, &len);
		feed_chunks(&ck, r, r->r_body + start, len, how);
		cook_end(&ck);
	}
	cook_flush(&ck);
	free(obuf);
}

static void
feed_chunks(struct cook *ck, const struct run *r, const unsigned char *p,
    size_t len, enum feed how)
{
	unsigned char *chunk;
	size_t n;
	int chunked, i;

	if (how == FEED_BYTES) {
		/* No copies: the runs in chunks are the ones that check bounds. */
		for (; len > 0; len--)
			cook_chunk(ck, p++, 1);
		return;
	}
	chunked = how == FEED_CHUNKS;
	for (i = 0; len > 0; i = (i + 1) % NCHUNKSZ) {
		n = chunked && r->r_chunksz[i] != 0 && r->r_chunksz[i] < len ?
		    r->r_chunksz[i] : len;
		if ((chunk = malloc(n)) == NULL)
			abort();
		memcpy(chunk, p, n);
		cook_chunk(ck, chunk, n);
		free(chunk);
		if (chunked && r->r_flush_often)
			cook_flush(ck);
		p += n;
		len -= n;
	}
}

static void
sink(void *arg, const char *p, size_t n)
{

	outbuf_add(arg, p, n);
}

static void
reference(const struct run *r, struct outbuf *out)
{
	size_t start, len;
	int f;

	for (f = 0; f < r->r_nfiles; f++) {
		file_bounds(r, f, &start, &len);
		ref_cook(r->r_flags, r->r_utf8, r->r_body + start, len, out);
	}
}

static void
compare(const struct run *r, const char *what, const struct outbuf *got,
    const struct outbuf *want)
{
	size_t i, n;

	n = got->ob_len < want->ob_len ? got->ob_len : want->ob_len;
	for (i = 0; i < n && got->ob_buf[i] == want->ob_buf[i]; i++)
		continue;
	if (i == n && got->ob_len == want->ob_len)
		return;
	(void)fprintf(stderr, "fuzz_cook: cook.c differs from %s: options "
	    "%s%s%s%s%s%s (0x%02x), %d file(s) of %zu bytes in all, %s, "
	    "output buffer %zu, %s\n", what,
	    (r->r_flags & COOK_NONBLANK) != 0 ? "b" : "",
	    (r->r_flags & COOK_ENDS) != 0 ? "E" : "",
	    (r->r_flags & COOK_NUMBER) != 0 ? "n" : "",
	    (r->r_flags & COOK_SQUEEZE) != 0 ? "s" : "",
	    (r->r_flags & COOK_TABS) != 0 ? "T" : "",
	    (r->r_flags & COOK_VIS) != 0 ? "v" : "",
	    r->r_flags, r->r_nfiles, r->r_len,
	    r->r_utf8 ? "C.UTF-8" : r->r_eucjp ? "ja_JP.EUC-JP" : "C locale",
	    r->r_obufsz,
	    r->r_flush_often ? "flushed after every chunk" :
	    "flushed when full");
	(void)fprintf(stderr, "fuzz_cook: %zu bytes out, %zu expected; "
	    "first difference at byte %zu\n", got->ob_len, want->ob_len, i);
	show_bytes("got", got, i);
	show_bytes("expected", want, i);
	abort();
}

/* The output around byte at, escaped. */
static void
show_bytes(const char *label, const struct outbuf *ob, size_t at)
{
	size_t i, from, to;
	int c;

	from = at < 32 ? 0 : at - 32;
	to = ob->ob_len - at < 32 ? ob->ob_len : at + 32;
	(void)fprintf(stderr, "fuzz_cook: %s [%zu..%zu): \"", label, from, to);
	for (i = from; i < to; i++) {
		c = ob->ob_buf[i];
		if (c >= 040 && c < 0177 && c != '\\' && c != '"')
			(void)fputc(c, stderr);
		else
			(void)fprintf(stderr, "\\%03o", c);
	}
	(void)fprintf(stderr, "\"\n");
}
