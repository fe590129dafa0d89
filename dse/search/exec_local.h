/*
 * exec_local.h — the local thread pool as a dse_executor, so that a
 * decorator (the result cache, dse/farm/cache.h) can wrap the local case
 * exactly as it wraps the farm's executor.
 *
 * dse_optimize with no executor runs the same job functions on the same
 * pool (dse/common/pool.c); this one gives bit-identical results (tested
 * in tests/test_farm_cache.c).  Scoring steps the progress line for the
 * designs the caller already scored (search: auto's timing sample), as the
 * farm's executor does.
 */
#ifndef DSE_EXEC_LOCAL_H
#define DSE_EXEC_LOCAL_H

#include "dse/search/optimize.h"

typedef struct dse_exec_local {
    int score_threads;        /* <= 0: all cores */
    int sim_threads;          /* <= 0: all cores */
} dse_exec_local;

/* The executor (borrows self, which must outlive it). */
void dse_exec_local_init(dse_exec_local *self, int score_threads,
                         int sim_threads, dse_executor *ex);

#endif
