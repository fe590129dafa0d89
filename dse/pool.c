/*
 * pool.c — see pool.h.  Workers pull the next job index from one atomic
 * counter; there is no queue to lock and nothing to allocate per job.
 */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "net/err.h"
#include "net/xalloc.h"

typedef struct pool_state {
    size_t count;
    atomic_size_t next;
    dse_job_fn fn;
    void *ctx;
    dse_progress *progress;
    volatile sig_atomic_t *stop;
    int *codes;              /* per job: its return code */
    atomic_int interrupted;
} pool_state;

static void *worker(void *arg)
{
    pool_state *s = arg;
    for (;;) {
        if (s->stop && *s->stop) {
            atomic_store(&s->interrupted, 1);
            break;
        }
        size_t i = atomic_fetch_add(&s->next, 1);
        if (i >= s->count)
            break;
        s->codes[i] = s->fn(s->ctx, i);
        if (s->progress)
            dse_progress_step(s->progress, 1);
    }
    return NULL;
}

int dse_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int dse_pool_run(size_t count, int threads, dse_job_fn fn, void *ctx,
                 dse_progress *progress, volatile sig_atomic_t *stop)
{
    if (threads <= 0)
        threads = dse_cores();
    if ((size_t)threads > count)
        threads = count ? (int)count : 1;
    pool_state s = {.count = count, .fn = fn, .ctx = ctx,
                    .progress = progress, .stop = stop};
    atomic_init(&s.next, 0);
    atomic_init(&s.interrupted, 0);
    s.codes = xcalloc(count + 1, sizeof *s.codes);
    if (threads == 1) {
        worker(&s);
    } else {
        pthread_t *tids = xmalloc((size_t)threads * sizeof *tids);
        int started = 0;
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tids[t], NULL, worker, &s) == 0)
                started++;
            else
                break;
        if (started == 0)
            worker(&s); /* no threads to be had: run inline */
        for (int t = 0; t < started; t++)
            pthread_join(tids[t], NULL);
        free(tids);
    }
    int rc = 0;
    if (atomic_load(&s.interrupted))
        rc = ERR_INTERRUPTED;
    for (size_t i = 0; i < count && rc == 0; i++)
        if (s.codes[i])
            rc = s.codes[i];
    free(s.codes);
    return rc;
}
