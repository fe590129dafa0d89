/*
 * rng_int.h — the simulator's random numbers: xoshiro256** streams.
 *
 * Every run owns its generators; nothing here is global.  A stream is named
 * by (seed, stream id): each traffic source draws from stream (seed, node),
 * the router allocator from stream (seed, SIM_RNG_ALLOC), so a source's
 * arrivals, destinations and lengths are the same whatever the design (common
 * random numbers across the designs of a study) and never depend on the
 * order in which other sources were served.  Never rand(): its state is
 * global and its quality unspecified.
 */
#ifndef DSE_SIM_RNG_INT_H
#define DSE_SIM_RNG_INT_H

#include <stdint.h>

#define SIM_RNG_ALLOC UINT64_C(0xa110ca7e00000000)

typedef struct rng {
    uint64_t s[4];
} rng;

/* Seed stream `stream` of `seed` (splitmix64 expansion of both). */
void rng_seed(rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(rng *r);
/* Uniform double in [0, 1), 53 bits. */
double rng_uniform(rng *r);
/* Uniform integer in [0, n), n >= 1, without modulo bias. */
uint64_t rng_below(rng *r, uint64_t n);
/* Exponential with the given mean (> 0). */
double rng_exponential(rng *r, double mean);
/* Geometric on {1, 2, ...} with the given mean (>= 1). */
long rng_geometric(rng *r, double mean);

#endif
