/*
 * pool.h — the local executor: runs N independent jobs on the one thread
 * pool (net/pool.h), counting each finished job on a progress line.
 *
 * Job i writes its result into slot i of an array the caller owns, so the
 * outcome does not depend on which thread ran what or in which order: a
 * study gives identical numbers with 1 or 16 threads (and, through the same
 * job functions, on the Redis farm).
 */
#ifndef DSE_POOL_H
#define DSE_POOL_H

#include <signal.h>
#include <stddef.h>

#include "dse/common/progress.h"

/* Run job `index`; return 0 or a negative ERR_* (recorded, the pool goes
 * on with the other jobs). */
typedef int (*dse_job_fn)(void *ctx, size_t index);

/* Run jobs 0..count-1 on `threads` threads (<= 0: all online cores).
 * Stops taking new jobs once *stop becomes non-zero (SIGINT); stop may be
 * NULL.  progress may be NULL.  Returns 0 when every job ran and returned
 * 0, ERR_INTERRUPTED when stopped early, else the first failing job's code
 * (by index, so deterministic). */
int dse_pool_run(size_t count, int threads, dse_job_fn fn, void *ctx,
                 dse_progress *progress, volatile sig_atomic_t *stop);

/* Number of online cores (at least 1). */
int dse_cores(void);

#endif
