/* SPDX-License-Identifier: MIT */
/*
 * The examples' random numbers: xorshift64*, small and deterministic for
 * a given seed, so that a run can be replayed and its ground truth known.
 */
#ifndef EXAMPLES_XORSHIFT_H
#define EXAMPLES_XORSHIFT_H

#include <stdint.h>

static inline uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif /* EXAMPLES_XORSHIFT_H */
