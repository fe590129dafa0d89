/*
 * rng.c — xoshiro256** (Blackman and Vigna, 2018) with splitmix64 seeding.
 *
 * Why xoshiro256**: fast (a few ns per draw), 256 bits of state, passes
 * BigCrush, and trivially reproducible across machines (integer arithmetic
 * only; doubles are built from the top 53 bits).  Streams are made by
 * hashing (seed, stream id) through splitmix64 rather than by jumping, which
 * is cheap for thousands of per-source streams; overlap between streams of
 * 2^256-period generators started at hashed points is negligible.
 *
 * Invariant: the state is never all zero (splitmix64 output of four
 * consecutive counters cannot be).
 */
#include "rng_int.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed;
    uint64_t h = splitmix64(&x);
    x = h ^ (stream * UINT64_C(0xd1342543de82ef95) + UINT64_C(0x2545f4914f6cdd1d));
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1;
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(rng *r, uint64_t n)
{
    /* Lemire's multiply-shift with rejection of the biased low band. */
    uint64_t x = rng_next(r);
    __uint128_t m = (__uint128_t)x * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            x = rng_next(r);
            m = (__uint128_t)x * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double rng_exponential(rng *r, double mean)
{
    /* 1 - U is in (0, 1], so the log is finite. */
    return -mean * log(1.0 - rng_uniform(r));
}

long rng_geometric(rng *r, double mean)
{
    if (mean <= 1.0)
        return 1;
    /* P(L = l) = p (1-p)^(l-1), p = 1/mean: L = 1 + floor(ln U / ln(1-p)). */
    double p = 1.0 / mean;
    double u = 1.0 - rng_uniform(r);   /* (0, 1] */
    double l = floor(log(u) / log1p(-p));
    if (l > 1e9)
        l = 1e9;
    return 1 + (long)l;
}
