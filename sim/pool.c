/*
 * pool.c — sim_run_many: independent simulations on a pool of threads.
 *
 * Each job writes only its own slots (results[i], codes[i], its error), so
 * the outcome is the same whatever the thread count or the order in which
 * threads pick jobs: a run's result depends on its params and seed alone
 * (no shared RNG, no global state).  Threads take the next job index under a
 * mutex.  Worker threads get a larger stack than the default so that deep
 * runs under sanitizers stay safe (the engine itself does not recurse).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/xalloc.h"
#include "sim_int.h"

typedef struct pool {
    const sim_params *jobs;
    int njobs;
    sim_result *results;
    int *codes;
    double *wall_s;
    err *errs;
    void (*on_done)(void *ctx, int job, const sim_result *r);
    void *ctx;
    pthread_mutex_t lock;
    int next;
} pool;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_one(pool *p, int i)
{
    err_clear(&p->errs[i]);
    double t0 = now_s();
    p->codes[i] = sim_run(&p->jobs[i], &p->results[i], &p->errs[i]);
    if (p->wall_s)
        p->wall_s[i] = now_s() - t0;
    if (p->on_done)
        p->on_done(p->ctx, i, &p->results[i]);
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = p->next < p->njobs ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (i < 0)
            return NULL;
        run_one(p, i);
    }
}

int sim_run_many(const sim_params *jobs, int njobs, int threads,
                 sim_result *results, int *codes, double *wall_s,
                 void (*on_done)(void *ctx, int job, const sim_result *r),
                 void *ctx, err *e)
{
    if (njobs <= 0)
        return 0;
    pool p = {jobs, njobs, results, codes, wall_s, NULL, on_done, ctx,
              PTHREAD_MUTEX_INITIALIZER, 0};
    p.errs = xcalloc((size_t)njobs, sizeof *p.errs);
    if (threads < 1)
        threads = 1;
    if (threads > njobs)
        threads = njobs;
    if (threads == 1) {
        for (int i = 0; i < njobs; i++)
            run_one(&p, i);
    } else {
        pthread_t *tid = xmalloc(sizeof *tid * (size_t)threads);
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, (size_t)16 << 20);
        int started = 0;
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tid[t], &attr, worker, &p) == 0)
                started++;
            else
                break;
        pthread_attr_destroy(&attr);
        if (started == 0)
            worker(&p);          /* no thread could start: run here */
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        free(tid);
    }
    pthread_mutex_destroy(&p.lock);
    int rc = 0;
    for (int i = 0; i < njobs; i++)
        if (codes[i]) {
            rc = codes[i];
            if (e)
                *e = p.errs[i];
            break;
        }
    free(p.errs);
    return rc;
}
