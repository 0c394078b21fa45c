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
#include "startup.h"
#include "extern.h"

#define	BYTES	" bytes\n"

static void	progress_signal(int);

/*
 * The operand in flight: "name: ", with room after it for the count.
 * The bytes are the engine's count since pbase when it copies, else
 * ours.
 */
static char			*pline;
static size_t			 plen, pcap;
static const struct bufsz_engine *pengine;
static off_t			 pbase;
static volatile off_t		 pbytes;
static volatile sig_atomic_t	 pbusy;

/* Before anything else: a signal that came first would end cat. */
void
progress_init(void)
{

	if (info_catch(progress_signal) != 0)
		err(1, "sigaction");
}

/*
 * name is about to be copied: by e, or, with e NULL, by reads that
 * progress_add() counts.
 */
void
progress_start(const char *name, const struct bufsz_engine *e)
{
	size_t len, want;
	char *p;

	len = strlen(name);
	want = len + 2 + INFO_DIGITS + sizeof(BYTES);
	if (want > pcap) {
		if ((p = realloc(pline, want)) == NULL)
			err(1, NULL);
		pline = p;
		pcap = want;
	}
	memcpy(pline, name, len);
	memcpy(pline + len, ": ", 2);
	plen = len + 2;
	pengine = e;
	pbase = e != NULL ? bufsz_moved(e) : 0;
	pbytes = 0;
	/* The line is complete before the handler may look at it. */
	atomic_signal_fence(memory_order_seq_cst);
	pbusy = 1;
}

void
progress_add(size_t n)
{

	pbytes += (off_t)n;
}

void
progress_stop(void)
{

	pbusy = 0;
	atomic_signal_fence(memory_order_seq_cst);
}

/* Formatted by hand and written with write(2): printf is not safe here. */
static void
progress_signal(int sig)
{
	off_t moved;
	size_t n;
	int serrno;

	(void)sig;
	if (!pbusy)
		return;
	serrno = errno;
	moved = pengine != NULL ? bufsz_moved(pengine) - pbase : pbytes;
	n = info_digits(pline + plen, moved > 0 ? (uintmax_t)moved : 0);
	memcpy(pline + plen + n, BYTES, sizeof(BYTES) - 1);
	(void)bufsz_write_all(STDERR_FILENO, pline,
	    plen + n + sizeof(BYTES) - 1);
	errno = serrno;
}
