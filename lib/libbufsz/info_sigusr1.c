/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The progress signal where the system has no SIGINFO (Linux): SIGUSR1,
 * as dd(1) and others use it there.
 */

#include <signal.h>

#include "bufsz_util.h"

int
bufsz_info_signal(void)
{

	return (SIGUSR1);
}
