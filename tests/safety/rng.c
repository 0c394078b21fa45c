/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The checker's randomness: every choice of a case comes from one
 * generator seeded by (seed, case), so that a case is reproduced by its
 * two numbers alone.  The bytes of a file are a function of their offset,
 * so that they can be written in any order and checked without keeping
 * them.
 */

#include <sys/types.h>

#include <stdint.h>
#include <string.h>

#include "safety.h"

uint64_t
mix64(uint64_t x)
{

	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31));
}

void
rng_init(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x;
	int i;

	x = mix64(seed) ^ mix64(stream + 0x632be59bd9b4e019ULL);
	for (i = 0; i < 4; i++)
		r->s[i] = x = mix64(x);
}

static uint64_t
rotl(uint64_t x, int k)
{

	return ((x << k) | (x >> (64 - k)));
}

uint64_t
rng_next(struct rng *r)
{
	uint64_t result, t;

	result = rotl(r->s[1] * 5, 7) * 9;
	t = r->s[1] << 17;
	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = rotl(r->s[3], 45);
	return (result);
}

/* Uniform in [0, n); 0 when n is 0. */
uint64_t
rng_below(struct rng *r, uint64_t n)
{

	if (n == 0)
		return (0);
	return (rng_next(r) % n);
}

int
rng_chance(struct rng *r, unsigned percent)
{

	return (rng_below(r, 100) < percent);
}

/* The len bytes at offset off of the file made from seed. */
void
content_fill(uint64_t seed, off_t off, unsigned char *buf, size_t len)
{
	uint64_t w;
	size_t i;
	off_t o;

	for (i = 0; i < len; i++) {
		o = off + (off_t)i;
		w = mix64(seed ^ ((uint64_t)o / 8 * 0x9e3779b97f4a7c15ULL));
		buf[i] = (unsigned char)(w >> (8 * (o % 8)));
	}
}
