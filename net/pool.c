/*
 * pool.c — see pool.h.  One atomic job counter, no queue to lock and
 * nothing allocated per job; a thread that cannot be created is simply not
 * there (the others, or the caller, do its share).
 */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "err.h"
#include "xalloc.h"

#define POOL_STACK_BYTES ((size_t)16 << 20)

typedef struct pool_state {
    size_t count;
    atomic_size_t next;
    pool_job_fn fn;
    pool_done_fn done;
    void *ctx;
    const volatile sig_atomic_t *stop;
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
        if (s->done)
            s->done(s->ctx, i);
    }
    return NULL;
}

int pool_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int pool_run(size_t count, int threads, pool_job_fn fn, pool_done_fn done,
             void *ctx, const volatile sig_atomic_t *stop)
{
    if (threads <= 0)
        threads = pool_cores();
    if ((size_t)threads > count)
        threads = count ? (int)count : 1;
    pool_state s = {.count = count, .fn = fn, .done = done, .ctx = ctx,
                    .stop = stop};
    atomic_init(&s.next, 0);
    atomic_init(&s.interrupted, 0);
    s.codes = xcalloc(count + 1, sizeof *s.codes);
    if (threads == 1) {
        worker(&s);
    } else {
        pthread_t *tids = xmalloc((size_t)threads * sizeof *tids);
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, POOL_STACK_BYTES);
        int started = 0;
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tids[t], &attr, worker, &s) == 0)
                started++;
            else
                break;
        pthread_attr_destroy(&attr);
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
