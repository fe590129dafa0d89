/*
 * pool.c — see pool.h: net/pool.c's pool with the program's progress line
 * counted after every job, and each job's CPU time reported to it (the
 * phase's longest job: what more threads cannot shorten).
 */
#include "dse/common/pool.h"

#include "net/pool.h"

typedef struct adapter {
    dse_job_fn fn;
    void *ctx;
    dse_progress *progress;
} adapter;

static int run_job(void *ctx, size_t index)
{
    adapter *a = ctx;
    if (!a->progress)
        return a->fn(a->ctx, index);
    double t0 = dse_thread_cpu_s();
    int rc = a->fn(a->ctx, index);
    dse_progress_job(a->progress, dse_thread_cpu_s() - t0);
    return rc;
}

static void job_done(void *ctx, size_t index)
{
    (void)index;
    dse_progress_step(((adapter *)ctx)->progress, 1);
}

int dse_cores(void)
{
    return pool_cores();
}

int dse_pool_run(size_t count, int threads, dse_job_fn fn, void *ctx,
                 dse_progress *progress, volatile sig_atomic_t *stop)
{
    adapter a = {fn, ctx, progress};
    return pool_run(count, threads, run_job, progress ? job_done : NULL, &a,
                    stop);
}
