/*
 * farm_exec.c — the coordinator: the optimizer's executor (dse_executor)
 * that runs a batch of jobs on the farm and gives back the same numbers
 * the local thread pool would.
 *
 * One batch, step by step (run_batch):
 *   1. every job gets its canonical text and key (job.c); jobs with equal
 *      keys are merged and run once;
 *   2. results already in the store (any earlier study, any earlier run of
 *      this one) are taken as they are: MGET PREFIX result:KEY...;
 *   3. the rest are added to PREFIX jobs, each naming this coordinator's
 *      reply stream;
 *   4. wait: workers announce finished jobs on the reply stream (XREAD
 *      BLOCK); the result is read from the store, decoded and written into
 *      the job's slot.  Every 2 s a sweep reads the results of all
 *      outstanding jobs (covers a lost announcement, or a result another
 *      study produced), and every second the farm's health is checked:
 *      workers alive, jobs pending and running, shown on the progress line.
 *
 * Failure handling:
 *   - Redis unreachable (ERR_REDIS from any step): back off (50 ms doubling
 *     to 1 s) and retry; after redis_timeout_s without success the batch
 *     fails with the last error.  On reconnection the consumer group is
 *     re-created if missing: if it had to be created, the server lost its
 *     data, and every outstanding job is enqueued again.
 *   - no worker alive for no_worker_timeout_s: the batch fails, saying so.
 *   - a dead-lettered job: its slot is marked failed (a simulation gets
 *     code ERR_REDIS, a design is left unscored), the reason is kept for
 *     the report (dse_farm_failures) and the batch goes on.
 *   - stop flag: returns ERR_INTERRUPTED at once; jobs left in the stream
 *     are still run by the workers and cached, so a rerun is fast, unless
 *     the caller withdraws them (dse_farm_withdraw, for a cancelled study):
 *     its entries are deleted from the stream and a mark tells the workers
 *     holding one to abort it.
 *
 * Determinism: results are decoded bit for bit (job.c) into the slot of
 * their job index; nothing depends on arrival order.
 */
#include "dse/farm/farm.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/xalloc.h"

#define CHUNK 256            /* keys per MGET, entries per XREAD */
#define MAX_REASONS 1000     /* failure reasons kept per farm */

struct dse_farm {
    dse_store_spec spec;
    dse_store st;
    dse_farm_opts o;
    char url[320];
    char k_jobs[128], k_reply[160], k_workers[128], k_stats[128],
        k_secret[128];
    char last_reply[DSE_STORE_ID_MAX];
    void (*hook)(void *ctx, const dse_farm_status *st);
    void *hook_ctx;
    char **fail;
    size_t nfail, cached;
    size_t workers;          /* alive at the last health check */
    int broken;              /* the last operation hit ERR_REDIS */
    double down_since;       /* when Redis first failed (0: it answers) */
    err last_err;
};

static void random_hex(char *buf, size_t bytes)
{
    unsigned char raw[16] = {0};
    int fd = open("/dev/urandom", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, raw, bytes) : -1;
    if (fd >= 0)
        close(fd);
    if (got != (ssize_t)bytes) { /* no /dev/urandom: time and pid */
        double t = dse_now_s();
        unsigned long long v = (unsigned long long)(t * 1e9) ^
                               ((unsigned long long)getpid() << 32);
        memcpy(raw, &v, bytes < 8 ? bytes : 8);
    }
    for (size_t i = 0; i < bytes; i++)
        snprintf(buf + 2 * i, 3, "%02x", raw[i]);
}

/* Agree with the farm on its secret before sending work: a coordinator
 * without the secret the workers seal with would refuse every result; one
 * with it tells the workers (PREFIX secret), so a worker without it stops
 * before taking a job instead of having every job dead-lettered. */
static int declare_secret(dse_farm *f, err *e)
{
    const char *keys[1] = {f->k_secret};
    char *tag = NULL;
    int rc = f->st.ops->get_many(f->st.self, keys, 1, &tag, e);
    if (rc)
        return rc;
    if (tag && !f->o.secret.len)
        rc = dse_farm_secret_matches(&f->o, tag, "coordinator", e);
    free(tag);
    if (rc || !f->o.secret.len)
        return rc;
    char mine[DSE_FARM_TAG_HEX + 1];
    dse_farm_secret_tag(&f->o.secret, mine);
    return f->st.ops->set(f->st.self, f->k_secret, mine, 0, 0, NULL, e);
}

int dse_farm_create(const dse_store_spec *spec, const dse_farm_opts *o,
                    dse_farm **out, err *e)
{
    *out = NULL;
    int rc = dse_farm_opts_check(o, e);
    if (rc)
        return rc;
    dse_farm *f = xcalloc(1, sizeof *f);
    f->spec = *spec;
    f->o = *o;
    dse_store_url_print(&spec->redis, f->url, sizeof f->url);
    if (spec->open)
        snprintf(f->url, sizeof f->url, "custom store");
    char id[17];
    random_hex(id, 8);
    char name[64];
    dse_farm_key(o, "jobs", f->k_jobs, sizeof f->k_jobs);
    dse_farm_key(o, "workers", f->k_workers, sizeof f->k_workers);
    dse_farm_key(o, "stats", f->k_stats, sizeof f->k_stats);
    dse_farm_key(o, "secret", f->k_secret, sizeof f->k_secret);
    snprintf(name, sizeof name, "reply:%s", id);
    dse_farm_key(o, name, f->k_reply, sizeof f->k_reply);
    snprintf(f->last_reply, sizeof f->last_reply, "0-0");
    dse_store_open(spec, &f->st);
    rc = f->st.ops->xgroup_create(f->st.self, f->k_jobs, DSE_FARM_GROUP, NULL,
                                  e);
    if (rc == 0)
        rc = declare_secret(f, e);
    if (rc) {
        if (e && rc != ERR_CONFIG)
            err_prefix(e, "cannot use Redis");
        dse_farm_destroy(f);
        return rc;
    }
    *out = f;
    return 0;
}

int dse_farm_open_url(const char *url, const dse_farm_opts *o, dse_farm **out,
                      err *e)
{
    dse_store_spec spec = {0};
    *out = NULL;
    int rc = dse_store_url_parse(url, &spec.redis, e);
    return rc ? rc : dse_farm_create(&spec, o, out, e);
}

void dse_farm_print_failures(const dse_farm *f, FILE *out)
{
    if (!f || f->nfail == 0)
        return;
    fprintf(out, "farm: %zu job(s) failed and were dead-lettered (%sdead); "
                 "their designs or points are left out:\n",
            f->nfail, f->o.prefix);
    for (size_t i = 0; i < f->nfail && i < 20; i++)
        fprintf(out, "  %s\n", f->fail[i]);
    if (f->nfail > 20)
        fprintf(out, "  ... and %zu more\n", f->nfail - 20);
}

void dse_farm_destroy(dse_farm *f)
{
    if (!f)
        return;
    if (f->st.ops)
        f->st.ops->del(f->st.self, f->k_reply, NULL);
    dse_store_close(&f->st);
    for (size_t i = 0; i < f->nfail; i++)
        free(f->fail[i]);
    free(f->fail);
    free(f);
}

void dse_farm_set_status_hook(dse_farm *f,
                              void (*fn)(void *ctx, const dse_farm_status *st),
                              void *ctx)
{
    f->hook = fn;
    f->hook_ctx = ctx;
}

size_t dse_farm_failures(const dse_farm *f, const char *const **reasons)
{
    if (reasons)
        *reasons = (const char *const *)f->fail;
    return f->nfail;
}

size_t dse_farm_cached(const dse_farm *f)
{
    return f->cached;
}

/* The id just after id ("MS-SEQ" -> "MS-SEQ+1"): XRANGE's start is
 * inclusive, and both stores read this form. */
static void next_id(const char *id, char *out, size_t size)
{
    unsigned long long ms = 0, seq = 0;
    if (sscanf(id, "%llu-%llu", &ms, &seq) != 2)
        ms = 0, seq = 0;
    snprintf(out, size, "%llu-%llu", ms, seq + 1);
}

int dse_farm_withdraw_reply(dse_store *st, const dse_farm_opts *o,
                           const char *reply, size_t *removed, err *e)
{
    if (removed)
        *removed = 0;
    char k_jobs[128], prefix[DSE_FARM_PREFIX_MAX + 16];
    dse_farm_key(o, "jobs", k_jobs, sizeof k_jobs);
    dse_farm_key(o, "reply:", prefix, sizeof prefix);
    if (strncmp(reply, prefix, strlen(prefix)) != 0 || strlen(reply) > 160)
        return err_set(e, ERR_INVALID, "'%.60s' is not a reply stream of "
                                       "this farm", reply);
    /* the mark first: a worker holding one of its entries aborts it */
    char mark[DSE_FARM_PREFIX_MAX + 80];
    dse_farm_withdrawn_key(o, reply, mark, sizeof mark);
    int rc = st->ops->set(st->self, mark, "1", DSE_WITHDRAWN_TTL_MS, 0, NULL,
                          e);
    if (rc)
        return rc;
    char start[DSE_STORE_ID_MAX] = "-";
    for (;;) {
        dse_store_entry *en;
        size_t n;
        if ((rc = st->ops->xrange(st->self, k_jobs, start, CHUNK, &en, &n, e)))
            return rc;
        dse_store_cmd *cmds = xcalloc(2 * n + 1, sizeof *cmds);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            const char *r = dse_store_entry_get(&en[i], "reply");
            if (!r || strcmp(r, reply) != 0)
                continue;
            cmds[m++] = (dse_store_cmd){
                4, {"XACK", k_jobs, DSE_FARM_GROUP, en[i].id}};
            cmds[m++] = (dse_store_cmd){3, {"XDEL", k_jobs, en[i].id}};
        }
        if (n)
            next_id(en[n - 1].id, start, sizeof start);
        rc = m ? st->ops->batch(st->self, cmds, m, e) : 0;
        free(cmds);
        dse_store_entries_free(en, n);
        if (rc)
            return rc;
        if (removed)
            *removed += m / 2;
        if (n < CHUNK)
            break;
    }
    /* wake the coordinator (it waits on this stream): it looks at its
     * study's state now rather than at its next check */
    const char *wf[] = {"status"}, *wv[] = {"wake"};
    return st->ops->xadd(st->self, reply, 1, wf, wv, 0, NULL, e);
}

int dse_farm_withdraw(dse_farm *f, size_t *removed, err *e)
{
    return dse_farm_withdraw_reply(&f->st, &f->o, f->k_reply, removed, e);
}

const char *dse_farm_reply_key(const dse_farm *f)
{
    return f->k_reply;
}

/* ---- one batch ------------------------------------------------------------ */

/* One distinct job (jobs with equal keys share it). */
typedef struct ujob {
    char key[DSE_JOB_KEY_LEN + 1];
    const char *text;        /* borrowed from the batch's texts */
    size_t first, count;     /* its job indices: order[first .. +count) */
    int state;               /* 0 outstanding, 1 done, 2 failed */
    int enqueued;
    int requeues;            /* announced done but no readable result */
} ujob;

typedef struct batch {
    dse_farm *f;
    const char *phase;
    size_t n;                /* jobs */
    ujob *u;                 /* sorted by key */
    size_t nu;
    size_t *order;
    /* 0: result decoded into job's slot; else unreadable */
    int (*accept)(void *ctx, size_t job, const char *key, const char *text);
    void (*failed)(void *ctx, size_t job, const char *reason);
    void *ctx;
    size_t done, failed_jobs, cached, outstanding;
    int empty_checks;        /* health checks in a row that found the job
                                stream empty while jobs were outstanding */
    int wake;                /* a "wake" reply came: check health now */
    dse_progress *progress;
} batch;

typedef struct kidx {
    char key[DSE_JOB_KEY_LEN + 1];
    size_t idx;
} kidx;

static int kidx_cmp(const void *a, const void *b)
{
    const kidx *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void batch_init(batch *b, char **texts, size_t n)
{
    kidx *k = xcalloc(n + 1, sizeof *k);
    for (size_t i = 0; i < n; i++) {
        dse_job_key(texts[i], k[i].key);
        k[i].idx = i;
    }
    qsort(k, n, sizeof *k, kidx_cmp);
    b->n = n;
    b->order = xcalloc(n + 1, sizeof *b->order);
    b->u = xcalloc(n + 1, sizeof *b->u);
    b->nu = 0;
    for (size_t i = 0; i < n; i++) {
        b->order[i] = k[i].idx;
        if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0) {
            ujob *u = &b->u[b->nu++];
            memcpy(u->key, k[i].key, sizeof u->key);
            u->text = texts[k[i].idx];
            u->first = i;
        }
        b->u[b->nu - 1].count++;
    }
    b->outstanding = b->nu;
    free(k);
}

static void batch_fini(batch *b)
{
    free(b->order);
    free(b->u);
}

static ujob *find_ujob(batch *b, const char *key)
{
    size_t lo = 0, hi = b->nu;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(b->u[mid].key, key);
        if (c == 0)
            return &b->u[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Take a result text for u; 0 when it decoded (u is done). */
static int take_result(batch *b, ujob *u, const char *text, int from_cache)
{
    if (u->state != 0 || !text)
        return -1;
    /* with a farm secret, only a result sealed for this key counts; a
     * forged one is treated as missing, so the job runs (and its worker
     * overwrites the forgery) */
    if (dse_job_result_verify(text, u->key, &b->f->o.secret, NULL))
        return -1;
    for (size_t q = 0; q < u->count; q++)
        if (b->accept(b->ctx, b->order[u->first + q], u->key, text))
            return -1;
    u->state = 1;
    b->outstanding--;
    b->done += u->count;
    if (from_cache) {
        b->cached += u->count;
        b->f->cached += u->count;
    }
    if (b->progress)
        dse_progress_step(b->progress, u->count);
    return 0;
}

static void fail_ujob(batch *b, ujob *u, const char *reason)
{
    if (u->state != 0)
        return;
    u->state = 2;
    b->outstanding--;
    b->failed_jobs += u->count;
    for (size_t q = 0; q < u->count; q++)
        b->failed(b->ctx, b->order[u->first + q], reason);
    dse_farm *f = b->f;
    if (f->nfail < MAX_REASONS) {
        char buf[700];
        snprintf(buf, sizeof buf, "%s job %.12s: %s", b->phase, u->key, reason);
        f->fail = xrealloc(f->fail, (f->nfail + 1) * sizeof *f->fail);
        f->fail[f->nfail++] = xstrdup(buf);
    }
    if (b->progress)
        dse_progress_step(b->progress, u->count);
}

static void result_key(const dse_farm *f, const char *key, char *buf,
                       size_t size)
{
    snprintf(buf, size, "%sresult:%s", f->o.prefix, key);
}

/* MGET the results of the listed ujobs and take those present.  With
 * requeue, a ujob without a readable result is enqueued again (it was
 * announced done: its result expired or was lost). */
static int fetch(batch *b, ujob **list, size_t n, int from_cache, int requeue,
                 err *e)
{
    dse_farm *f = b->f;
    char (*keys)[DSE_FARM_PREFIX_MAX + 48] = xcalloc(n + 1, sizeof *keys);
    const char **kp = xcalloc(n + 1, sizeof *kp);
    char **vals = xcalloc(n + 1, sizeof *vals);
    for (size_t i = 0; i < n; i++) {
        result_key(f, list[i]->key, keys[i], sizeof keys[i]);
        kp[i] = keys[i];
    }
    int rc = f->st.ops->get_many(f->st.self, kp, n, vals, e);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (take_result(b, list[i], vals[i], from_cache) == 0 || !requeue)
            continue;
        if (++list[i]->requeues > f->o.max_deliveries)
            fail_ujob(b, list[i],
                      vals[i] && dse_job_result_verify(vals[i], list[i]->key,
                                                       &f->o.secret, NULL)
                          ? "announced done, but its result is not sealed "
                            "with this coordinator's farm secret (does the "
                            "worker have DSE_FARM_SECRET?)"
                          : "announced done, but its result cannot be read "
                            "from the store");
        else
            list[i]->enqueued = 0;
    }
    for (size_t i = 0; i < n; i++)
        free(vals[i]);
    free(vals);
    free(kp);
    free(keys);
    return rc;
}

/* Check the store for results of outstanding ujobs from *next on (a chunk
 * per call). */
static int sweep_chunk(batch *b, size_t *next, int from_cache, err *e)
{
    ujob *list[CHUNK];
    size_t n = 0;
    while (*next < b->nu && n < CHUNK) {
        ujob *u = &b->u[(*next)++];
        if (u->state == 0)
            list[n++] = u;
    }
    return n ? fetch(b, list, n, from_cache, 0, e) : 0;
}

/* Add up to CHUNK outstanding, not yet enqueued jobs in one round trip. */
static int enqueue_some(batch *b, err *e)
{
    dse_farm *f = b->f;
    dse_store_cmd *cmds = xcalloc(CHUNK, sizeof *cmds);
    ujob **sent = xcalloc(CHUNK, sizeof *sent);
    size_t n = 0;
    for (size_t i = 0; i < b->nu && n < CHUNK; i++) {
        ujob *u = &b->u[i];
        if (u->state != 0 || u->enqueued)
            continue;
        cmds[n] = (dse_store_cmd){9,
                                  {"XADD", f->k_jobs, "*", "key", u->key, "job",
                                   u->text, "reply", f->k_reply}};
        sent[n++] = u;
    }
    int rc = f->st.ops->batch(f->st.self, cmds, n, e);
    for (size_t i = 0; rc == 0 && i < n; i++)
        sent[i]->enqueued = 1;
    free(cmds);
    free(sent);
    return rc;
}

static int all_enqueued(const batch *b)
{
    for (size_t i = 0; i < b->nu; i++)
        if (b->u[i].state == 0 && !b->u[i].enqueued)
            return 0;
    return 1;
}

static int read_replies(batch *b, err *e)
{
    dse_farm *f = b->f;
    dse_store_entry *en;
    size_t n;
    int rc = f->st.ops->xread(f->st.self, f->k_reply, f->last_reply, CHUNK,
                              200, &en, &n, e);
    if (rc)
        return rc;
    ujob **list = xcalloc(n + 1, sizeof *list);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        snprintf(f->last_reply, sizeof f->last_reply, "%s", en[i].id);
        const char *key = dse_store_entry_get(&en[i], "key");
        const char *status = dse_store_entry_get(&en[i], "status");
        if (status && !strcmp(status, "wake"))
            b->wake = 1;
        ujob *u = key ? find_ujob(b, key) : NULL;
        if (!u || u->state != 0 || !status)
            continue;
        if (strcmp(status, "dead") == 0) {
            const char *why = dse_store_entry_get(&en[i], "reason");
            fail_ujob(b, u, why ? why : "dead-lettered");
        } else {
            list[m++] = u;
        }
    }
    dse_store_entries_free(en, n);
    rc = m ? fetch(b, list, m, 0, 1, e) : 0;
    free(list);
    return rc;
}

/* Workers alive and entries pending in the group; progress and hook. */
static int health(batch *b, double *no_worker_since, int *give_up, err *e)
{
    dse_farm *f = b->f;
    long long now_ms, pel;
    char **members;
    size_t workers;
    int rc = f->st.ops->time_ms(f->st.self, &now_ms, e);
    if (!rc)
        rc = f->st.ops->zrange_from(f->st.self, f->k_workers,
                                    (double)now_ms - 1000 * f->o.worker_timeout_s,
                                    &members, &workers, e);
    if (rc)
        return rc;
    for (size_t i = 0; i < workers; i++)
        free(members[i]);
    free(members);
    f->workers = workers;
    /* keep this coordinator's reply stream while it lives (it expires
     * DSE_FARM_REPLY_TTL_MS after the last refresh when it is killed) */
    rc = f->st.ops->expire(f->st.self, f->k_reply, DSE_FARM_REPLY_TTL_MS, e);
    if (!rc)
        rc = f->st.ops->xpending_count(f->st.self, f->k_jobs, DSE_FARM_GROUP,
                                       &pel, e);
    long long len = 0;
    if (!rc)
        rc = f->st.ops->xlen(f->st.self, f->k_jobs, &len, e);
    if (rc)
        return rc;
    /* Entries leave the stream only after their result is stored and
     * announced, and the sweep between two checks collects those results:
     * an empty stream twice in a row while jobs are outstanding means the
     * entries were lost (a server restarted without persistence, whose
     * group a worker re-created first).  Send them again. */
    b->empty_checks = len == 0 && b->outstanding > 0 ? b->empty_checks + 1 : 0;
    if (b->empty_checks >= 3) {
        for (size_t i = 0; i < b->nu; i++)
            b->u[i].enqueued = 0;
        b->empty_checks = 0;
    }
    dse_farm_status st = {.phase = b->phase, .total = b->n, .done = b->done,
                          .cached = b->cached, .failed = b->failed_jobs,
                          .workers = workers};
    size_t out = b->outstanding;
    st.running = (size_t)pel < out ? (size_t)pel : out;
    st.pending = out - st.running;
    if (b->progress) {
        char note[128];
        snprintf(note, sizeof note,
                 "farm: %zu workers, %zu pending, %zu running, %zu done "
                 "(%zu cached), %zu failed",
                 workers, st.pending, st.running, b->done, b->cached,
                 b->failed_jobs);
        dse_progress_note(b->progress, note);
    }
    if (f->hook)
        f->hook(f->hook_ctx, &st);
    double now = dse_now_s();
    if (workers > 0) {
        *no_worker_since = 0;
    } else if (*no_worker_since == 0) {
        *no_worker_since = now;
    } else if (now - *no_worker_since > f->o.no_worker_timeout_s) {
        *give_up = 1;
        return err_set(e, ERR_REDIS,
                       "no dse worker alive on %s (prefix '%s') for %.0f s; "
                       "start some with 'dse worker --redis URL'",
                       f->url, f->o.prefix, now - *no_worker_since);
    }
    return 0;
}

/* Redis failed: back off until it answers or redis_timeout_s passes. */
static int recover(batch *b, volatile sig_atomic_t *stop, err *e)
{
    dse_farm *f = b->f;
    if (f->down_since == 0)
        f->down_since = dse_now_s();
    double backoff = 0.05;
    int lost_data = 0;
    for (;;) {
        if (stop && *stop)
            return err_set(e, ERR_INTERRUPTED, "interrupted");
        double waited = dse_now_s() - f->down_since;
        if (waited > f->o.redis_timeout_s)
            return err_set(e, ERR_REDIS,
                           "Redis at %s unreachable for %.0f s (limit %g s): "
                           "%s",
                           f->url, waited, f->o.redis_timeout_s,
                           f->last_err.msg);
        double left = f->o.redis_timeout_s - waited + 0.01;
        dse__farm_sleep(backoff < left ? backoff : left, stop);
        backoff = fmin(2 * backoff, 1.0);
        err le;
        int created = 0;
        int rc = f->st.ops->xgroup_create(f->st.self, f->k_jobs,
                                          DSE_FARM_GROUP, &created, &le);
        if (rc == 0 && (created || lost_data)) {
            /* the server lost its data: the secret's check value too */
            lost_data = 1;
            rc = declare_secret(f, &le);
        }
        if (rc == ERR_REDIS) {
            f->last_err = le;
            continue;
        }
        if (rc) {
            if (e)
                *e = le;
            return rc;
        }
        f->broken = 0;
        f->down_since = 0;
        if (lost_data) /* send everything again */
            for (size_t i = 0; i < b->nu; i++)
                b->u[i].enqueued = 0;
        return 0;
    }
}

static int run_batch(batch *b, volatile sig_atomic_t *stop, err *e)
{
    dse_farm *f = b->f;
    size_t next_check = 0, next_sweep = b->nu;
    double last_sweep = dse_now_s(), last_health = 0, no_worker_since = 0;
    size_t fail_from = f->nfail;
    f->broken = 0;
    for (;;) {
        if (stop && *stop)
            return err_set(e, ERR_INTERRUPTED, "interrupted");
        if (f->broken) {
            int rc = recover(b, stop, e);
            if (rc)
                return rc;
        }
        err le;
        int rc = 0;
        if (next_check < b->nu) {
            rc = sweep_chunk(b, &next_check, 1, &le);
        } else if (b->outstanding == 0) {
            break;
        } else if (!all_enqueued(b)) {
            rc = enqueue_some(b, &le);
        } else {
            double now = dse_now_s();
            if (next_sweep < b->nu) {
                rc = sweep_chunk(b, &next_sweep, 0, &le);
            } else if (now - last_health >= 1.0 || b->wake) {
                b->wake = 0;
                int give_up = 0;
                rc = health(b, &no_worker_since, &give_up, &le);
                last_health = now;
                if (give_up) {
                    if (e)
                        *e = le;
                    return rc;
                }
            } else if (now - last_sweep >= 2.0) {
                next_sweep = 0;
                last_sweep = now;
            } else {
                rc = read_replies(b, &le);
            }
        }
        if (rc == ERR_REDIS) {
            f->broken = 1;
            f->last_err = le;
            continue;
        }
        if (rc) {
            if (e)
                *e = le;
            return rc;
        }
        f->down_since = 0;
    }
    dse_farm_status st = {.phase = b->phase, .total = b->n, .done = b->done,
                          .cached = b->cached, .failed = b->failed_jobs,
                          .workers = f->workers};
    if (b->progress) {
        char note[128];
        snprintf(note, sizeof note, "farm: %zu done (%zu cached), %zu failed",
                 b->done, b->cached, b->failed_jobs);
        dse_progress_note(b->progress, note);
    }
    if (f->hook)
        f->hook(f->hook_ctx, &st);
    /* A study missing some of its answers would rank and certify the rest
     * as if they were all there: a wrong report with a success status.
     * The run fails instead, with the first reason (all of them through
     * dse_farm_failures). */
    if (b->failed_jobs)
        return err_set(e, ERR_REDIS,
                       "%zu %s job(s) failed on the farm (dead-lettered in "
                       "%sdead); no report is written from partial results. "
                       "First: %s",
                       b->failed_jobs, b->phase, f->o.prefix,
                       f->nfail > fail_from ? f->fail[fail_from]
                                            : "(reasons not kept)");
    return 0;
}

/* ---- the executor ---------------------------------------------------------- */

typedef struct score_ctx {
    const cfg_study *s;
    dse_run *r;
    const size_t *idx;
    size_t *evals;
} score_ctx;

static int score_accept(void *arg, size_t q, const char *key, const char *text)
{
    score_ctx *x = arg;
    dse_job_result res;
    if (dse_job_result_parse(text, key, DSE_JOB_SCORE, x->s->rates.n, &res,
                             NULL))
        return -1;
    size_t i = x->idx[q];
    dse_candidate *c = &x->r->cand[i];
    dse_job_result_to_candidate(&res, &x->r->space.designs[i],
                                x->r->space.models[i], c);
    /* scored at the design's own clock (farm_score): reference cycles */
    dse_candidate_scores_to_reference(x->s, c, dse_clock_scale(c));
    x->evals[q] = res.evaluations;
    dse_job_result_fini(&res);
    return 0;
}

static void score_failed(void *arg, size_t q, const char *reason)
{
    score_ctx *x = arg;
    size_t i = x->idx[q];
    (void)reason;
    dse_job_candidate_failed(&x->r->space.designs[i], x->r->space.models[i],
                             x->s->rates.n, ERR_REDIS, &x->r->cand[i]);
}

static int farm_score(void *self, const cfg_study *s, dse_run *r,
                      const size_t *idx, size_t n, size_t *evaluations,
                      dse_progress *progress, volatile sig_atomic_t *stop,
                      err *e)
{
    dse_farm *f = self;
    char **texts = xcalloc(n + 1, sizeof *texts);
    for (size_t q = 0; q < n; q++) {
        dse_job j;
        size_t i = idx[q];
        dse_job_score_init(&j, s, &r->space.designs[i], r->space.models[i]);
        /* a worker's study has one clock: the target rates per cycle of
         * the design's own (dse_candidate.clock_scale) */
        for (size_t k = 0; k < j.nrates; k++)
            j.rates[k] *= dse_clock_scale(&r->cand[i]);
        texts[q] = dse_job_format(&j);
        dse_job_fini(&j);
    }
    score_ctx x = {s, r, idx, xcalloc(n + 1, sizeof(size_t))};
    batch b = {.f = f, .phase = "score", .accept = score_accept,
               .failed = score_failed, .ctx = &x, .progress = progress};
    batch_init(&b, texts, n);
    if (progress && r->ncand > n) /* designs scored before (auto's sample) */
        dse_progress_step(progress, r->ncand - n);
    int rc = run_batch(&b, stop, e);
    size_t total = 0;
    for (size_t q = 0; q < n; q++)
        total += x.evals[q];
    if (evaluations)
        *evaluations = total;
    batch_fini(&b);
    for (size_t q = 0; q < n; q++)
        free(texts[q]);
    free(texts);
    free(x.evals);
    return rc;
}

/* Where a batch of sim or saturation jobs writes its answers: results[]
 * (sim) or sats[] (saturation), and codes[]. */
typedef struct sim_ctx {
    dse_job_kind kind;
    sim_result *results;
    sim_saturation_result *sats;
    int *codes;
} sim_ctx;

static int sim_accept(void *arg, size_t q, const char *key, const char *text)
{
    sim_ctx *x = arg;
    dse_job_result res;
    if (dse_job_result_parse(text, key, x->kind, 0, &res, NULL))
        return -1;
    if (x->kind == DSE_JOB_SATURATION)
        x->sats[q] = res.sat;
    else
        x->results[q] = res.sim;
    x->codes[q] = res.sim_code;
    dse_job_result_fini(&res);
    return 0;
}

static void sim_failed(void *arg, size_t q, const char *reason)
{
    sim_ctx *x = arg;
    char *detail;
    size_t size;
    if (x->kind == DSE_JOB_SATURATION) {
        memset(&x->sats[q], 0, sizeof x->sats[q]);
        detail = x->sats[q].detail;
        size = sizeof x->sats[q].detail;
    } else {
        memset(&x->results[q], 0, sizeof x->results[q]);
        detail = x->results[q].detail;
        size = sizeof x->results[q].detail;
    }
    snprintf(detail, size, "failed on the farm: %s", reason);
    x->codes[q] = ERR_REDIS;
}

/* Run sim or saturation jobs[0..n) on the farm, answers into x. */
static int run_sim_jobs(dse_farm *f, const sim_params *jobs, size_t n,
                        sim_ctx *x, dse_progress *progress,
                        volatile sig_atomic_t *stop, err *e)
{
    char **texts = xcalloc(n + 1, sizeof *texts);
    for (size_t q = 0; q < n; q++) {
        dse_job j;
        dse_job_of_params_init(&j, x->kind, &jobs[q]);
        texts[q] = dse_job_format(&j);
        dse_job_fini(&j);
    }
    batch b = {.f = f,
               .phase = x->kind == DSE_JOB_SATURATION ? "saturate"
                                                      : "simulate",
               .accept = sim_accept, .failed = sim_failed, .ctx = x,
               .progress = progress};
    batch_init(&b, texts, n);
    int rc = run_batch(&b, stop, e);
    batch_fini(&b);
    for (size_t q = 0; q < n; q++)
        free(texts[q]);
    free(texts);
    return rc;
}

static int farm_simulate(void *self, const sim_params *jobs, size_t n,
                         sim_result *results, int *codes,
                         dse_progress *progress, volatile sig_atomic_t *stop,
                         err *e)
{
    sim_ctx x = {.kind = DSE_JOB_SIM, .results = results, .codes = codes};
    return run_sim_jobs(self, jobs, n, &x, progress, stop, e);
}

/* The decision rounds' saturation searches, one job per design: the farm
 * runs the same rounds as the local pool and caches their answers. */
static int farm_saturate(void *self, const sim_params *jobs, size_t n,
                         sim_saturation_result *results, int *codes,
                         dse_progress *progress, volatile sig_atomic_t *stop,
                         err *e)
{
    sim_ctx x = {.kind = DSE_JOB_SATURATION, .sats = results, .codes = codes};
    return run_sim_jobs(self, jobs, n, &x, progress, stop, e);
}

void dse_farm_executor(dse_farm *f, dse_executor *ex)
{
    ex->score = farm_score;
    ex->simulate = farm_simulate;
    ex->saturate = farm_saturate;
    ex->self = f;
}
