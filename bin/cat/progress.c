/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cat: the progress report.  On the progress signal (SIGINFO, or SIGUSR1
 * where the system has none) cat writes to the standard error the
 * operand it is copying and how many of its bytes have gone so far, as
 * "name: 1048576 bytes", and goes on.  Between operands it says nothing.
 */

#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"
#include "extern.h"

#define	BYTES	" bytes\n"
#define	DIGITS	20		/* of the largest off_t */

/*
 * The operand in flight: "name: ", with room after it for the count.
 * The bytes are the engine's count when it copies, else ours.
 */
static char			*pline;
static size_t			 plen, pcap;
static const _Atomic off_t	*pmoved;
static off_t			 pbase;
static _Atomic off_t		 pbytes;
static volatile sig_atomic_t	 pbusy;

/*
 * name is about to be copied: by the engine, or by reads that
 * progress_add() counts.
 */
void
progress_start(const char *name, int by_engine)
{
	size_t len, want;
	char *p;

	len = strlen(name);
	want = len + 2 + DIGITS + sizeof(BYTES);
	if (want > pcap) {
		if ((p = realloc(pline, want)) == NULL)
			err(1, NULL);
		pline = p;
		pcap = want;
	}
	memcpy(pline, name, len);
	memcpy(pline + len, ": ", 2);
	plen = len + 2;
	pmoved = by_engine ? bufsz_moved() : NULL;
	pbase = pmoved != NULL ? atomic_load(pmoved) : 0;
	atomic_store(&pbytes, 0);
	/* The line is complete before the handler may look at it. */
	atomic_signal_fence(memory_order_seq_cst);
	pbusy = 1;
}

void
progress_add(size_t n)
{

	atomic_store_explicit(&pbytes, atomic_load_explicit(&pbytes,
	    memory_order_relaxed) + (off_t)n, memory_order_relaxed);
}

void
progress_stop(void)
{

	pbusy = 0;
	atomic_signal_fence(memory_order_seq_cst);
}

/* Formatted by hand and written with write(2): printf is not safe here. */
void
progress_signal(int sig)
{
	char digits[DIGITS];
	uintmax_t v;
	size_t n;
	off_t moved;
	int serrno;

	(void)sig;
	if (!pbusy)
		return;
	serrno = errno;
	moved = pmoved != NULL ? atomic_load(pmoved) - pbase :
	    atomic_load(&pbytes);
	v = moved > 0 ? (uintmax_t)moved : 0;
	n = DIGITS;
	do
		digits[--n] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	memcpy(pline + plen, digits + n, DIGITS - n);
	n = plen + DIGITS - n;
	memcpy(pline + n, BYTES, sizeof(BYTES) - 1);
	(void)bufsz_write_all(STDERR_FILENO, pline, n + sizeof(BYTES) - 1);
	errno = serrno;
}
