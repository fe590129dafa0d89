/*
 * pool.h — the one thread pool of dse: runs N independent jobs on T
 * threads.
 *
 * Job i writes its result only into slot i of arrays its caller owns, so
 * the outcome never depends on which thread ran what, or in which order: a
 * study gives the same numbers on 1 or 16 threads (and, through the same
 * job functions, on the Redis farm).  The simulator (sim_run_many) and the
 * program (dse_pool_run: progress lines on top) both run on it; it lives in
 * net/, beside err and xalloc, because it is a base service every layer may
 * use, not a concept of any one of them.
 */
#ifndef DSE_NET_POOL_H
#define DSE_NET_POOL_H

#include <signal.h>
#include <stddef.h>

/* Run job `index`; return 0 or a negative ERR_* (recorded; the pool goes
 * on with the other jobs). */
typedef int (*pool_job_fn)(void *ctx, size_t index);
/* Called from the worker thread after job `index` returned (may be NULL). */
typedef void (*pool_done_fn)(void *ctx, size_t index);

/* Run jobs 0..count-1 on `threads` threads (<= 0: all online cores; never
 * more threads than jobs).  Workers take the next index from one atomic
 * counter and get a 16 MiB stack, so deep runs under sanitizers stay safe.
 * Stops taking new jobs once *stop becomes non-zero (stop may be NULL).
 * Returns 0 when every job ran and returned 0, ERR_INTERRUPTED when
 * stopped early, else the lowest-indexed failing job's code (so the answer
 * is deterministic). */
int pool_run(size_t count, int threads, pool_job_fn fn, pool_done_fn done,
             void *ctx, const volatile sig_atomic_t *stop);

/* Number of online cores (at least 1). */
int pool_cores(void);

#endif
