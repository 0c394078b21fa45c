/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */

/* The fuzz target, for libFuzzer's driver and for replay.c's. */

#ifndef _FUZZ_COOK_H_
#define	_FUZZ_COOK_H_

#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#endif /* !_FUZZ_COOK_H_ */
