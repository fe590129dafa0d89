/*
 * hist.c — the latency histogram behind the simulator's percentiles
 * (p50, p95, p99 and the maximum of the measured messages' latencies).
 *
 * Why a histogram: a run measures up to millions of messages and must not
 * keep them; percentiles need the distribution, not a running sum.  The
 * buckets are log-linear (as in Gil Tene's HdrHistogram): every latency
 * below 2 x SIM_HIST_SUB cycles has its own bucket; above, each power-of-two
 * range [2^k, 2^(k+1)) is split into SIM_HIST_SUB equal buckets, so a
 * bucket is never wider than 1/SIM_HIST_SUB of its lower edge.  A
 * percentile is the nearest-rank one (the ceil(q n)-th smallest latency):
 * the bucket holding it is found exactly, and its midpoint is returned,
 * within SIM_HIST_REL_ERR (1/128) of the true value, relative.  The
 * maximum is kept exactly.  Memory is fixed (SIM_HIST_BUCKETS counters),
 * whatever the run's length or its latencies (up to 2^62 cycles).
 */
#include <math.h>
#include <string.h>

#include "sim_int.h"

enum { SUB_BITS = 6 };   /* log2(SIM_HIST_SUB) */

static int msb64(uint64_t v)   /* v > 0 */
{
    return 63 - __builtin_clzll(v);
}

/* Bucket of latency v >= 0 and back to its [lo, lo + width) range. */
static int bucket_of(int64_t v)
{
    if (v < 2 * SIM_HIST_SUB)
        return (int)v;
    int e = msb64((uint64_t)v) - SUB_BITS;
    int idx = SIM_HIST_SUB * (e + 1) + (int)((v >> e) - SIM_HIST_SUB);
    return idx < SIM_HIST_BUCKETS ? idx : SIM_HIST_BUCKETS - 1;
}

static void bucket_range(int idx, double *lo, double *width)
{
    if (idx < 2 * SIM_HIST_SUB) {
        *lo = idx;
        *width = 1;
        return;
    }
    int e = idx / SIM_HIST_SUB - 1;
    int j = idx % SIM_HIST_SUB;
    *width = ldexp(1.0, e);
    *lo = ldexp((double)(SIM_HIST_SUB + j), e);
}

void sim__hist_add(sim_hist *h, int64_t latency)
{
    if (latency < 0)
        latency = 0;
    h->count[bucket_of(latency)]++;
    h->n++;
    if (latency > h->max)
        h->max = latency;
}

double sim__hist_quantile(const sim_hist *h, double q)
{
    if (h->n == 0)
        return NAN;
    long rank = (long)ceil(q * (double)h->n);
    if (rank < 1)
        rank = 1;
    if (rank > h->n)
        rank = h->n;
    long seen = 0;
    for (int i = 0; i < SIM_HIST_BUCKETS; i++) {
        seen += h->count[i];
        if (seen >= rank) {
            double lo, w;
            bucket_range(i, &lo, &w);
            /* integer latencies lo .. lo + w - 1: their midpoint, never
             * above the exact maximum */
            double mid = lo + (w - 1) / 2;
            return mid > (double)h->max ? (double)h->max : mid;
        }
    }
    return (double)h->max;
}
