/*-
 * SPDX-License-Identifier: BSD-2-Clause
 */

/* The fuzz target, for libFuzzer's driver and for replay.c's. */

#ifndef FUZZ_COOK_H
#define	FUZZ_COOK_H

#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#endif /* !FUZZ_COOK_H */
