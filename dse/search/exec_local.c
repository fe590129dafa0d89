/*
 * exec_local.c — see exec_local.h.
 *
 * Each job writes only its own slot (candidate idx[q], or results[q] and
 * codes[q]), so the outcome does not depend on the thread count or order.
 */
#include "dse/search/exec_local.h"

#include <stdlib.h>

#include "dse/common/pool.h"
#include "net/xalloc.h"
#include "sim/sim.h"

typedef struct score_ctx {
    const cfg_study *s;
    dse_run *r;
    const size_t *idx;
    size_t *evals;           /* per job */
} score_ctx;

static int score_job(void *arg, size_t q)
{
    score_ctx *x = arg;
    size_t i = x->idx[q];
    dse_score_design(x->s, &x->r->space.designs[i], x->r->space.models[i],
                     &x->r->cand[i], &x->evals[q]);
    return 0; /* a design that fails to score is unranked, not an error */
}

static int local_score(void *self, const cfg_study *s, dse_run *r,
                       const size_t *idx, size_t n, size_t *evaluations,
                       dse_progress *progress, volatile sig_atomic_t *stop,
                       err *e)
{
    dse_exec_local *l = self;
    (void)e;
    score_ctx x = {s, r, idx, xcalloc(n + 1, sizeof(size_t))};
    if (progress && r->ncand > n) /* designs scored before (auto's sample) */
        dse_progress_step(progress, r->ncand - n);
    int rc = dse_pool_run(n, l->score_threads, score_job, &x, progress, stop);
    size_t total = 0;
    for (size_t q = 0; q < n; q++)
        total += x.evals[q];
    if (evaluations)
        *evaluations = total;
    free(x.evals);
    return rc;
}

typedef struct sim_ctx {
    const sim_params *jobs;
    sim_result *results;
    int *codes;
} sim_ctx;

static int sim_job(void *arg, size_t q)
{
    sim_ctx *x = arg;
    err e;
    x->codes[q] = sim_run(&x->jobs[q], &x->results[q], &e);
    return 0;
}

static int local_simulate(void *self, const sim_params *jobs, size_t n,
                          sim_result *results, int *codes,
                          dse_progress *progress, volatile sig_atomic_t *stop,
                          err *e)
{
    dse_exec_local *l = self;
    (void)e;
    sim_ctx x = {jobs, results, codes};
    return dse_pool_run(n, l->sim_threads, sim_job, &x, progress, stop);
}

typedef struct sat_ctx {
    const sim_params *jobs;
    sim_saturation_result *results;
    int *codes;
} sat_ctx;

static int sat_job(void *arg, size_t q)
{
    sat_ctx *x = arg;
    err e;
    x->codes[q] = sim_saturation(&x->jobs[q], &x->results[q], &e);
    return 0;
}

static int local_saturate(void *self, const sim_params *jobs, size_t n,
                          sim_saturation_result *results, int *codes,
                          dse_progress *progress, volatile sig_atomic_t *stop,
                          err *e)
{
    dse_exec_local *l = self;
    (void)e;
    sat_ctx x = {jobs, results, codes};
    return dse_pool_run(n, l->sim_threads, sat_job, &x, progress, stop);
}

void dse_exec_local_init(dse_exec_local *self, int score_threads,
                         int sim_threads, dse_executor *ex)
{
    self->score_threads = score_threads;
    self->sim_threads = sim_threads;
    ex->score = local_score;
    ex->simulate = local_simulate;
    ex->saturate = local_saturate;
    ex->self = self;
}
