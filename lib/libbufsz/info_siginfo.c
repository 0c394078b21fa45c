/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The progress signal where the system has SIGINFO (the BSDs).
 */

#include <signal.h>

#include "bufsz_util.h"

int
bufsz_info_signal(void)
{

	return (SIGINFO);
}
