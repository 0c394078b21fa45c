/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * yes on FreeBSD: nothing is lent (no vmsplice), and yes runs in
 * capability mode once its output is built.
 */

#include <sys/types.h>

#include <capsicum_helpers.h>
#include <err.h>

#include "extern.h"

size_t
lend_output(char *out __unused, size_t len __unused)
{

	return (0);
}

/*
 * The standard descriptors keep what a stream needs; the message
 * catalogue is read now, so that an error still names its cause.
 */
void
confine_output(void)
{

	caph_cache_catpages();
	if (caph_limit_stdio() != 0 || caph_enter() != 0)
		err(1, "capsicum");
}
