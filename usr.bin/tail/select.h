/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Which bytes tail shows, apart from how they are read: the callers feed
 * windows of the input, forward or backward, of any size, and learn where
 * the shown part begins (or, for -r, the lines to show, last first).  No
 * function here does I/O, so that the fuzzer (tests/fuzz/fuzz_tail.c) can
 * drive them with windows cut anywhere and compare with a plain reference.
 *
 * Offsets are the input's own (off_t); a window is [pos, pos + len).
 */

#ifndef SELECT_H
#define	SELECT_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* A count that is never reached: "all the lines". */
#define	SEL_ALL		UINT64_MAX

/*
 * Reading backward from the end by windows: where each lies.  Windows
 * begin on a page boundary (or at the floor) and end where the previous
 * one began; the first holds at least `first' bytes, and each one after
 * twice its predecessor, up to `max' (the buffer), so that a short tail
 * costs a page and a long one about twice what it shows.
 */
struct winplan {
	off_t	wp_floor;	/* never read below this */
	off_t	wp_next;	/* where the next window ends */
	size_t	wp_want;	/* what the next window should hold */
	size_t	wp_max;		/* the largest window */
	size_t	wp_page;
};

void	winplan_init(struct winplan *, off_t floor, off_t end, size_t first,
	    size_t max, size_t page);
int	winplan_next(struct winplan *, off_t *pos, size_t *len);

/*
 * The start of the last n lines of an input that ends at `end', fed its
 * windows last first.  A line ends with a newline, but the input's last
 * byte never counts as a line's end: "a\nb" and "a\nb\n" both have two
 * lines.  backscan_feed returns 1 and sets *start when the start is in
 * the window; 0 when an earlier window is needed.  An input with fewer
 * lines is shown from its beginning, which the caller knows.
 */
struct backscan {
	uint64_t bs_left;	/* newlines still to pass */
	off_t	 bs_end;	/* the input's end */
};

void	backscan_init(struct backscan *, uint64_t n, off_t end);
int	backscan_feed(struct backscan *, const char *, off_t pos, size_t len,
	    off_t *start);

/*
 * Skipping the first n bytes or lines of an input fed forward: each call
 * returns how many bytes of the chunk are skipped; once the skipping is
 * done (skip_done), the rest of the chunk and everything after is shown.
 */
struct skip {
	uint64_t sk_left;	/* bytes or newlines still to skip */
	int	 sk_lines;
};

void	skip_init(struct skip *, int lines, uint64_t n);
size_t	skip_feed(struct skip *, const char *, size_t);
int	skip_done(const struct skip *);

/*
 * -r: the lines of [floor, end) last first, fed its windows last first.
 * emit() is called with each line's bounds [from, to): from is in the
 * window fed (or just past it, when the window ends with a newline), to
 * may reach into windows fed before.  It returns 0, or -1 to stop
 * (revscan_feed then returns -1).  At most `lines' lines are emitted
 * (SEL_ALL: every one); the line at the floor is emitted whole from the
 * floor, as the first line of what is shown.  revscan_feed returns 1
 * when all is emitted.
 */
typedef int	rev_emit_fn(void *, off_t, off_t);

struct revscan {
	off_t	 rs_floor;
	off_t	 rs_end;	/* the end of the line being gathered */
	off_t	 rs_last;	/* the input's last byte: never a line's end */
	uint64_t rs_left;	/* lines still to emit */
};

void	revscan_init(struct revscan *, off_t floor, off_t end,
	    uint64_t lines);
int	revscan_feed(struct revscan *, const char *, off_t pos, size_t len,
	    rev_emit_fn *, void *);

/*
 * What must be held of an input read as a stream (a pipe) for its last n
 * bytes or lines, or all of it (SEL_ALL lines), when more may follow:
 * the offset in buf from which to keep.
 */
size_t	hold_keep(const char *, size_t, int lines, uint64_t n);

#endif /* !SELECT_H */
