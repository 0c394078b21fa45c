/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */

/* What the benchmark programs share. */

#ifndef _BENCHUTIL_H_
#define	_BENCHUTIL_H_

#include <stdint.h>

double		bench_now(void);
uint64_t	bench_size(const char *);
void		bench_stats(double *, int, double *, double *, double *);

#endif /* !_BENCHUTIL_H_ */
