/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Waiting for -f where the host has neither kqueue nor inotify: poll(2)
 * for terminals, FIFOs and devices, and files looked at every round.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "extern.h"

static struct pollfd *pfds;
static int	npfds, maxpfds;

void
ev_init(void)
{
}

void
ev_set(struct file *files, int n)
{
	struct file *f;
	void *p;

	if (maxpfds < n) {
		if ((p = realloc(pfds, (size_t)n * sizeof(*pfds))) == NULL)
			err(1, NULL);
		pfds = p;
		maxpfds = n;
	}
	npfds = 0;
	for (f = files; f < files + n; f++) {
		f->f_events = f->f_in.in_fd != -1 &&
		    !S_ISREG(f->f_in.in_st.st_mode) && !f->f_eof;
		if (f->f_events) {
			pfds[npfds].fd = f->f_in.in_fd;
			pfds[npfds++].events = POLLIN;
		}
	}
}

void
ev_wait(int ms)
{

	if (poll(pfds, (nfds_t)npfds, ms) == -1 && errno != EINTR)
		err(1, "poll");
}
