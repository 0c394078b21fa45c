/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * An input that cannot be read by position (a pipe, a terminal, a file
 * whose size lies), read to its end while holding what the selection
 * needs of it: its last N bytes, its last N lines, or all of it (-r).
 * Memory holds up to HOLD_MAX; what must be held beyond that goes to a
 * temporary file, which is then read by position as any file is.  So
 * tail -r of an endless pipe needs no more memory than of a short one,
 * and loses nothing (FreeBSD's drops the start of its input when memory
 * runs out); but a temporary file is made only where memory will not do.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <paths.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"
#include "select.h"

/*
 * The most held in memory.  Past it, the bytes go through the page cache
 * of a temporary file instead: one more write and read of each, which at
 * the rates of a pipe (lib/libbufsz/policy.c) costs less than producing
 * them did.
 */
#define	HOLD_MAX	((size_t)16 << 20)

static int	make_room(struct hold *, int, uint64_t);
static int	spill(struct hold *, struct input *);

/*
 * Read in to its end.  0 with h filled: the held bytes in h_buf, or,
 * when h_spill is not -1, in that temporary file (from its start).  -1
 * after an error, said.
 */
int
hold_input(struct hold *h, struct input *in, int lines, uint64_t n)
{
	ssize_t r;

	h->h_spill = -1;
	h->h_len = 0;
	h->h_cap = policy_size(&in->in_st);
	if ((h->h_buf = malloc(h->h_cap)) == NULL)
		err(1, NULL);
	for (;;) {
		if (h->h_len == h->h_cap && make_room(h, lines, n) != 0)
			return (spill(h, in));
		r = bufsz_read(in->in_fd, h->h_buf + h->h_len,
		    h->h_cap - h->h_len);
		if (r < 0) {
			ierr(in->in_name);
			hold_free(h);
			return (-1);
		}
		if (r == 0)
			return (0);
		h->h_len += (size_t)r;
	}
}

void
hold_free(struct hold *h)
{

	free(h->h_buf);
	h->h_buf = NULL;
	if (h->h_spill != -1)
		(void)close(h->h_spill);
	h->h_spill = -1;
}

/*
 * A full buffer: drop what is no longer needed when that frees half of
 * it (less would have us move most of it for a little room, over and
 * over), else grow it; 1 when it may grow no more, because of HOLD_MAX
 * or because memory ran out.  Anything dropped then is dropped for good:
 * the temporary file starts after it.
 */
static int
make_room(struct hold *h, int lines, uint64_t n)
{
	size_t keep, cap;
	char *p;

	keep = hold_keep(h->h_buf, h->h_len, lines, n);
	if (keep < h->h_cap / 2 && h->h_cap < HOLD_MAX) {
		cap = h->h_cap > HOLD_MAX / 2 ? HOLD_MAX : h->h_cap * 2;
		if ((p = realloc(h->h_buf, cap)) != NULL) {
			h->h_buf = p;
			h->h_cap = cap;
			return (0);
		}
		/* No memory for more: as at HOLD_MAX. */
	}
	memmove(h->h_buf, h->h_buf + keep, h->h_len - keep);
	h->h_len -= keep;
	return (keep < h->h_cap / 2);
}

/* The held bytes, then the rest of the input, into a temporary file. */
static int
spill(struct hold *h, struct input *in)
{
	struct stat st;
	const char *dir;
	char path[1024];
	int fd;

	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = _PATH_TMP;
	(void)snprintf(path, sizeof(path), "%s%stail.XXXXXX", dir,
	    dir[strlen(dir) - 1] == '/' ? "" : "/");
	if ((fd = mkstemp(path)) == -1) {
		ierr(path);
		hold_free(h);
		return (-1);
	}
	(void)unlink(path);
	h->h_spill = fd;
	if (bufsz_write_all(fd, h->h_buf, h->h_len) != 0 ||
	    fstat(fd, &st) != 0) {
		ierr(path);
		hold_free(h);
		return (-1);
	}
	free(h->h_buf);
	h->h_buf = NULL;
	h->h_len = 0;
	switch (engine_copy(in, fd, &st)) {
	case BUFSZ_OK:
		return (0);
	case BUFSZ_EREAD:
		ierr(in->in_name);
		break;
	default:
		ierr(path);
		break;
	}
	hold_free(h);
	return (-1);
}
