/*
 * run_many.c — sim_run_many: independent simulations on the thread pool
 * (net/pool.h).
 *
 * Each job writes only its own slots (results[i], codes[i], its error), so
 * the outcome is the same whatever the thread count or the order in which
 * threads pick jobs: a run's result depends on its params and seed alone
 * (no shared RNG, no global state).
 */
#include <stdlib.h>
#include <time.h>

#include "net/pool.h"
#include "net/xalloc.h"
#include "sim_int.h"

typedef struct many {
    const sim_params *jobs;
    sim_result *results;
    int *codes;
    double *wall_s;
    err *errs;
    void (*on_done)(void *ctx, int job, const sim_result *r);
    void *ctx;
} many;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run_one(void *ctx, size_t job)
{
    many *m = ctx;
    int i = (int)job;
    err_clear(&m->errs[i]);
    double t0 = now_s();
    m->codes[i] = sim_run(&m->jobs[i], &m->results[i], &m->errs[i]);
    if (m->wall_s)
        m->wall_s[i] = now_s() - t0;
    if (m->on_done)
        m->on_done(m->ctx, i, &m->results[i]);
    return 0;   /* codes[] carries sim_run's answer, with its error */
}

int sim_run_many(const sim_params *jobs, int njobs, int threads,
                 sim_result *results, int *codes, double *wall_s,
                 void (*on_done)(void *ctx, int job, const sim_result *r),
                 void *ctx, err *e)
{
    if (njobs <= 0)
        return 0;
    many m = {jobs, results, codes, wall_s, NULL, on_done, ctx};
    m.errs = xcalloc((size_t)njobs, sizeof *m.errs);
    pool_run((size_t)njobs, threads < 1 ? 1 : threads, run_one, NULL, &m,
             NULL);
    int rc = 0;
    for (int i = 0; i < njobs; i++)
        if (codes[i]) {
            rc = codes[i];
            if (e)
                *e = m.errs[i];
            break;
        }
    free(m.errs);
    return rc;
}
