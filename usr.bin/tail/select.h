/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Which bytes tail shows, apart from how they are read: the callers feed
 * windows of the input, of any size, and learn where the shown part
 * begins or, for -r, which lines to show, last first.  Nothing here does
 * I/O, so that tests/fuzz/fuzz_tail.c can drive it with windows cut
 * anywhere.  Offsets are the input's; a window is [pos, pos + len).
 */

#ifndef SELECT_H
#define	SELECT_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#define	SEL_ALL		UINT64_MAX	/* every line */

/*
 * Windows read backward from end down to floor, each ending where the
 * last began and beginning on a page boundary, so that a tail costs whole
 * pages of the cache.  The first holds at least `first' bytes, but less
 * than `max', the buffer, which keeps a byte for a look past the end;
 * each after holds twice as much, up to max.
 */
struct winplan {
	off_t	wp_floor;
	off_t	wp_end;
	off_t	wp_next;	/* where the next window ends */
	size_t	wp_want;
	size_t	wp_max;
	size_t	wp_page;
};

void	winplan_init(struct winplan *, off_t floor, off_t end, size_t first,
	    size_t max, size_t page);
int	winplan_next(struct winplan *, off_t *pos, size_t *len);

/*
 * The lines of [floor, end), last first, fed its windows last first.  A
 * line ends with a newline, but the input's last byte ends none: "a\nb"
 * and "a\nb\n" both hold two lines.  At most `lines' lines are taken; the
 * one at the floor is taken whole from the floor.  Each goes to emit(),
 * unless it is NULL, as [from, to): from lies in the window fed (or just
 * past it), to may lie in windows fed before.  emit() returns 0, or -1 to
 * stop.  revscan_feed() returns 0 when it needs an earlier window, -1
 * when emit() stopped it, 1 when done: rs_end is then where the last line
 * taken begins.
 */
typedef int	rev_emit_fn(void *, off_t, off_t);

struct revscan {
	off_t	 rs_floor;
	off_t	 rs_end;	/* the end of the line being gathered */
	uint64_t rs_left;	/* lines still to take */
};

void	revscan_init(struct revscan *, off_t floor, off_t end,
	    uint64_t lines);
int	revscan_feed(struct revscan *, const char *, off_t pos, size_t len,
	    rev_emit_fn *, void *);

/*
 * -c +N, -n +N: how much of a chunk read forward is skipped, with *left
 * the bytes or newlines still to skip, counted down.
 */
size_t	skip(uint64_t *left, int lines, const char *, size_t);

/*
 * An input read as a stream, held for its last n bytes or lines, or all
 * of it (SEL_ALL lines), when more may follow: the offset in buf from
 * which to keep.
 */
size_t	hold_keep(const char *, size_t, int lines, uint64_t n);

#endif /* !SELECT_H */
