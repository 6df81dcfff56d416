/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer's only source of randomness: splitmix64, seeded per step from
 * the run's seed and the step's number, so a step can be replayed alone
 * and no step's choices depend on what the kernel answered before it.
 */
#ifndef NICTL_FUZZ_PRNG_H
#define NICTL_FUZZ_PRNG_H

#include <stdbool.h>
#include <stdint.h>

struct prng {
	uint64_t state;
};

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The generator of step @step of the run seeded with @seed. */
static inline struct prng prng_step(uint64_t seed, uint64_t step)
{
	struct prng r = { seed };

	r.state ^= prng_next(&r) + step * 0xd1b54a32d192ed03ULL;
	return r;
}

/* Uniform in [0, @n); 0 when @n is 0. The bias of % is irrelevant here. */
static inline uint32_t prng_below(struct prng *r, uint32_t n)
{
	return n ? prng_next(r) % n : 0;
}

/* True with probability @percent / 100. */
static inline bool prng_chance(struct prng *r, unsigned int percent)
{
	return prng_below(r, 100) < percent;
}

#endif /* NICTL_FUZZ_PRNG_H */
