/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The signal that asks a program how far it has come: SIGINFO on the
 * systems that have it (the BSDs, where ^T at a terminal sends it), and
 * SIGUSR1, which stands in for it, where they have not (Linux).  Every
 * program of the tree answers it, so that a signal meant for one of them
 * never ends another in the same pipeline: those with something to
 * report catch it, the others ignore it.
 */

#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "bufsz_util.h"

int
bufsz_info_catch(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler != NULL ? handler : SIG_IGN;
	sa.sa_flags = SA_RESTART;
	(void)sigemptyset(&sa.sa_mask);
	return (sigaction(bufsz_info_signal(), &sa, NULL));
}

size_t
bufsz_info_digits(char *buf, uintmax_t v)
{
	char rev[BUFSZ_DIGITS];
	size_t i, n;

	n = 0;
	do
		rev[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (i = 0; i < n; i++)
		buf[i] = rev[n - 1 - i];
	return (n);
}
