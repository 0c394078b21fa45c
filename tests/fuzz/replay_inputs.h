/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What the replays of the fuzz targets share (replay_inputs.c).
 */

#ifndef REPLAY_INPUTS_H
#define	REPLAY_INPUTS_H

#include <stddef.h>
#include <stdint.h>

/* The fuzz target of the program it is linked into. */
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

long	replay_inputs(const char *);
char	*slurp_input(const char *, size_t *);

#endif
