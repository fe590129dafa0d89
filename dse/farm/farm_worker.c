/*
 * farm_worker.c — `dse worker`'s engine: serve the farm's jobs until told
 * to stop.
 *
 * Threads: `slots` job threads, each with its own store connection
 * (hiredis contexts are not shared between threads), and one heartbeat
 * thread.  A job thread loops:
 *     claim one stale entry (XAUTOCLAIM, at most every visibility/4), or
 *     read one new entry (XREADGROUP BLOCK 500 ms);
 *     process it: refuse it to the dead-letter stream if it was delivered
 *     too often or does not parse; else (a redelivered entry) answer from
 *     the store if its result is already there, or run it; then, in one
 *     round trip, store the result, announce it on the coordinator's reply
 *     stream and count it; and only then, in a second, XACK + XDEL.
 * The heartbeat thread, every heartbeat_s: ZADD PREFIX workers, refresh
 * PREFIX worker:NAME, and XCLAIM JUSTID every entry in hand so a long job
 * is never taken for abandoned while its worker lives.
 *
 * Failures: Redis going away makes every thread back off (50 ms doubling
 * to 2 s) and retry forever; a result computed before the outage is kept
 * and stored when Redis comes back, then acknowledged (acknowledging first
 * could lose it).  Only errors retrying cannot fix (authentication
 * refused, the job stream of another type) end the worker; a command the
 * server refuses for one entry (see finish) leaves that entry pending.
 *
 * Stop: *stop lets every thread finish the job in hand, then the worker
 * deregisters (ZREM) and returns.  *hard_stop also aborts running
 * simulations: their entries stay pending, unacknowledged, and another
 * worker claims them after the visibility timeout.
 *
 * Untrusted input: the entry's fields come from whoever can write to the
 * stream.  The job text is parsed strictly (job.c) and its key must be the
 * hash of its content; the reply stream must be under PREFIX reply: or it
 * is ignored; dead-letter copies of job texts are truncated.
 */
#include "dse/farm/farm.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dse/dse.h"
#include "net/xalloc.h"

#define DEAD_MAXLEN 10000        /* dead-letter stream cap (approximate) */
#define DEAD_TEXT_MAX 4096       /* job text kept in a dead letter */
/* A reply stream outlives its coordinator only when that was killed
 * (its normal end deletes it); a live coordinator keeps refreshing it
 * (farm_exec.c), and one that lost it reads the results from the store
 * anyway, so a short expiry is safe. */
#define REPLY_TTL_MS DSE_FARM_REPLY_TTL_MS

typedef struct worker {
    const dse_store_spec *spec;
    const dse_worker_opts *o;
    volatile sig_atomic_t *stop, *hard_stop;
    volatile sig_atomic_t done_flag; /* job threads have finished */
    char name[160];
    char k_jobs[128], k_dead[128], k_workers[128], k_self[320], k_stats[128],
        k_reply_prefix[128], k_secret[128];
    pthread_mutex_t lock;
    char (*inhand)[DSE_STORE_ID_MAX]; /* per slot; "" when idle */
    long busy, done, dead, reclaimed;
    int fatal;
    err fatal_err;
} worker;

static void wlog(worker *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void wlog(worker *w, const char *fmt, ...)
{
    if (!w->o->log)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    w->o->log(w->o->log_ctx, line);
}

void dse_worker_opts_init(dse_worker_opts *o)
{
    memset(o, 0, sizeof *o);
    dse_farm_opts_init(&o->farm);
    o->slots = 1;
    dse_job_limits_init(&o->limits);
}

/* ---- one connection with backoff ------------------------------------------ */

typedef struct conn {
    worker *w;
    dse_store st;
    int slot;
    int down;                /* Redis unreachable: logged once */
    double backoff;
} conn;

/* After an operation failed with rc: 1 = retry (slept), 0 = give up.
 * With fatal, an error other than ERR_REDIS ends the worker. */
static int retry_maybe_fatal(conn *c, int rc, const err *e, int fatal)
{
    worker *w = c->w;
    if (rc != ERR_REDIS && !fatal)
        return 0;
    if (rc != ERR_REDIS) {
        pthread_mutex_lock(&w->lock);
        if (!w->fatal) {
            w->fatal = rc;
            w->fatal_err = *e;
        }
        pthread_mutex_unlock(&w->lock);
        return 0;
    }
    if (!c->down) {
        c->down = 1;
        c->backoff = 0.05;
        if (c->slot == 0)
            wlog(w, "Redis unreachable, retrying: %s", e->msg);
    }
    if (w->hard_stop && *w->hard_stop)
        return 0;
    dse__farm_sleep(c->backoff, w->hard_stop);
    c->backoff = c->backoff * 2 < 2.0 ? c->backoff * 2 : 2.0;
    return !(w->hard_stop && *w->hard_stop);
}

static int retry_after(conn *c, int rc, const err *e)
{
    return retry_maybe_fatal(c, rc, e, 1);
}

static void conn_ok(conn *c)
{
    if (c->down && c->slot == 0)
        wlog(c->w, "Redis is back");
    c->down = 0;
}

/* Run an operation until it succeeds (or hard stop / fatal error). */
#define RETRY(c, rc, le, call)                                               \
    do {                                                                     \
        (rc) = (call);                                                       \
        if ((rc) == 0) {                                                     \
            conn_ok(c);                                                      \
            break;                                                           \
        }                                                                    \
    } while (retry_after((c), (rc), &(le)))

/* ---- processing one entry --------------------------------------------------- */

static void set_inhand(worker *w, int slot, const char *id)
{
    pthread_mutex_lock(&w->lock);
    snprintf(w->inhand[slot], DSE_STORE_ID_MAX, "%s", id ? id : "");
    w->busy += id ? 1 : -1;
    pthread_mutex_unlock(&w->lock);
}

/* The reply stream an entry names, if it is one of ours. */
static const char *reply_of(worker *w, const dse_store_entry *en)
{
    const char *r = dse_store_entry_get(en, "reply");
    if (!r || strncmp(r, w->k_reply_prefix, strlen(w->k_reply_prefix)) != 0 ||
        strlen(r) > 160)
        return NULL;
    return r;
}

/* Run a batch until it is accepted or fails otherwise than by a lost
 * connection (0, ERR_INVALID: the server refused one of its commands, the
 * others ran; ERR_REDIS only on a hard stop). */
static int run_batch(conn *c, const dse_store_cmd *cmds, size_t n, err *le)
{
    int rc;
    for (;;) {
        rc = c->st.ops->batch(c->st.self, cmds, n, le);
        if (rc == 0)
            conn_ok(c);
        if (rc == 0 || !retry_maybe_fatal(c, rc, le, 0))
            return rc;
    }
}

/* The last steps of every entry, in two round trips:
 *   1. store the result (or the dead letter), announce it on the
 *      coordinator's reply stream, count it;
 *   2. only once the result is known to be stored: XACK and XDEL.
 * A lost connection retries the step (every command is idempotent but the
 * counter and a duplicate announcement, which the coordinator ignores).
 * If the server refuses a command of step 1 (a hostile entry naming a
 * reply "stream" of another type, or the server out of memory), the
 * result is looked up: stored, the entry is acknowledged; not stored, it
 * stays pending, to be reclaimed and in the end dead-lettered. */
static int finish(conn *c, const dse_store_entry *en, const char *key,
                  const char *rkey, const char *result, const char *reason)
{
    worker *w = c->w;
    const dse_farm_opts *fo = &w->o->farm;
    dse_store_cmd cmds[8];
    size_t n = 0;
    char ttl[32], reply_ttl[32], dels[32], maxlen[32];
    char kept[DEAD_TEXT_MAX + 1], keybuf[80];
    if (result) {
        dse_store_cmd *x = &cmds[n++];
        *x = (dse_store_cmd){3, {"SET", rkey, result}};
        if (fo->result_ttl_s > 0) {
            snprintf(ttl, sizeof ttl, "%ld", fo->result_ttl_s * 1000);
            x->argv[x->argc++] = "PX";
            x->argv[x->argc++] = ttl;
        }
    }
    snprintf(keybuf, sizeof keybuf, "%.64s", key ? key : "");
    if (reason) {
        const char *text = dse_store_entry_get(en, "job");
        snprintf(kept, sizeof kept, "%s", text ? text : "");
        snprintf(dels, sizeof dels, "%ld", en->deliveries);
        snprintf(maxlen, sizeof maxlen, "%d", DEAD_MAXLEN);
        cmds[n++] = (dse_store_cmd){
            18, {"XADD", w->k_dead, "MAXLEN", "~", maxlen, "*", "id", en->id,
                 "key", keybuf, "job", kept, "reason", reason, "worker",
                 w->name, "deliveries", dels}};
    }
    const char *reply = reply_of(w, en);
    if (reply && key) {
        snprintf(reply_ttl, sizeof reply_ttl, "%ld", REPLY_TTL_MS);
        cmds[n++] = (dse_store_cmd){9,
                                    {"XADD", reply, "*", "key", keybuf,
                                     "status", reason ? "dead" : "done",
                                     "reason", reason ? reason : ""}};
        cmds[n++] = (dse_store_cmd){3, {"PEXPIRE", reply, reply_ttl}};
    }
    cmds[n++] = (dse_store_cmd){
        4, {"HINCRBY", w->k_stats, reason ? "dead" : "done", "1"}};
    err le;
    int rc = run_batch(c, cmds, n, &le);
    if (rc == ERR_REDIS)
        return rc;
    if (rc) {
        wlog(w, "entry %s: %s", en->id, le.msg);
        if (result) { /* was the result stored anyway? */
            const char *keys[1] = {rkey};
            char *v = NULL;
            RETRY(c, rc, le, c->st.ops->get_many(c->st.self, keys, 1, &v, &le));
            int stored = v && strcmp(v, result) == 0;
            free(v);
            if (rc || !stored)
                return rc ? rc : ERR_INVALID;
        }
    }
    dse_store_cmd ack[2] = {
        {4, {"XACK", w->k_jobs, DSE_FARM_GROUP, en->id}},
        {3, {"XDEL", w->k_jobs, en->id}},
    };
    rc = run_batch(c, ack, 2, &le);
    if (rc == 0) {
        pthread_mutex_lock(&w->lock);
        if (reason) {
            w->dead++;
        } else {
            w->done++;
            if (en->deliveries > 1)
                w->reclaimed++;
        }
        pthread_mutex_unlock(&w->lock);
    } else if (rc != ERR_REDIS) {
        wlog(w, "entry %s: %s", en->id, le.msg);
    }
    return rc;
}

static void dead_letter(conn *c, const dse_store_entry *en, const char *reason)
{
    const char *key = dse_store_entry_get(en, "key");
    wlog(c->w, "dead letter %s (job %.12s): %s", en->id, key ? key : "",
         reason);
    finish(c, en, key, NULL, NULL, reason);
}

static void process(conn *c, const dse_store_entry *en)
{
    worker *w = c->w;
    const dse_farm_opts *fo = &w->o->farm;
    char why[700];
    if (en->deliveries > fo->max_deliveries) {
        snprintf(why, sizeof why,
                 "delivered %ld times without completing (limit %d): its "
                 "workers died or were stopped while running it",
                 en->deliveries, fo->max_deliveries);
        dead_letter(c, en, why);
        return;
    }
    const char *key = dse_store_entry_get(en, "key");
    const char *text = dse_store_entry_get(en, "job");
    if (!key || !text) {
        dead_letter(c, en, "stream entry without a 'key' or 'job' field");
        return;
    }
    dse_job job;
    err pe;
    if (dse_job_parse(text, &w->o->limits, key, &job, &pe)) {
        dead_letter(c, en, pe.msg);
        return;
    }
    char rkey[DSE_FARM_PREFIX_MAX + 48];
    snprintf(rkey, sizeof rkey, "%sresult:%s", fo->prefix, key);
    /* A redelivered entry may have been run already (its worker died
     * after storing the result): answer it from the store.  First
     * deliveries skip the look-up; the coordinator already looked. */
    int have = 0;
    if (en->deliveries > 1) {
        const char *keys[1] = {rkey};
        char *cached = NULL;
        err le;
        int rc;
        RETRY(c, rc, le, c->st.ops->get_many(c->st.self, keys, 1, &cached, &le));
        if (rc) {
            dse_job_fini(&job);
            return;
        }
        dse_job_result res;
        have = cached &&
               dse_job_result_verify(cached, key, &fo->secret, NULL) == 0 &&
               dse_job_result_parse(cached, key, job.kind, job.nrates, &res,
                                    NULL) == 0;
        if (have)
            dse_job_result_fini(&res);
        free(cached);
    }
    char *out = NULL;
    if (!have) {
        dse_job_result res;
        dse_job_run(&job, w->hard_stop, &res);
        if (dse_job_result_stopped(&res)) {
            /* hard stop: no result; the entry stays pending */
            dse_job_result_fini(&res);
            dse_job_fini(&job);
            return;
        }
        char *plain = dse_job_result_format(&res, key);
        out = dse_job_result_seal(plain, key, &fo->secret);
        free(plain);
        dse_job_result_fini(&res);
    }
    dse_job_fini(&job);
    finish(c, en, key, rkey, out, NULL);
    free(out);
}

/* Before taking work: does this worker's secret agree with the farm's
 * (PREFIX secret)?  A worker without it would store results the
 * coordinators refuse, so every job would end dead-lettered.  0 agree;
 * else the worker's fatal error is set (ERR_REDIS on a hard stop). */
static int secret_ok(conn *c)
{
    worker *w = c->w;
    const char *keys[1] = {w->k_secret};
    char *tag = NULL;
    err le;
    int rc;
    RETRY(c, rc, le, c->st.ops->get_many(c->st.self, keys, 1, &tag, &le));
    if (rc)
        return rc;
    rc = dse_farm_secret_matches(&w->o->farm, tag, "worker", &le);
    free(tag);
    if (rc) {
        pthread_mutex_lock(&w->lock);
        if (!w->fatal) {
            w->fatal = rc;
            w->fatal_err = le;
        }
        pthread_mutex_unlock(&w->lock);
    }
    return rc;
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct slot_arg {
    worker *w;
    int slot;
} slot_arg;

static int stopping(const worker *w)
{
    return (w->stop && *w->stop) || (w->hard_stop && *w->hard_stop) ||
           w->fatal;
}

static void *slot_main(void *arg)
{
    slot_arg *a = arg;
    worker *w = a->w;
    conn c = {.w = w, .slot = a->slot};
    dse_store_open(w->spec, &c.st);
    const dse_store_ops *ops = c.st.ops;
    int need_setup = 1;
    double last_claim = 0;
    double claim_every = w->o->farm.visibility_s / 4;
    while (!stopping(w)) {
        err le;
        int rc;
        if (need_setup) {
            rc = ops->xgroup_create(c.st.self, w->k_jobs, DSE_FARM_GROUP, NULL,
                                    &le);
            if (rc) {
                if (!retry_after(&c, rc, &le))
                    break;
                continue;
            }
            conn_ok(&c);
            need_setup = 0;
            if (secret_ok(&c))
                break;
        }
        dse_store_entry *en = NULL;
        size_t n = 0;
        double now = dse_now_s();
        rc = 0;
        if (now - last_claim >= claim_every) {
            last_claim = now;
            rc = ops->xautoclaim(c.st.self, w->k_jobs, DSE_FARM_GROUP, w->name,
                                 (long)(1000 * w->o->farm.visibility_s), 1,
                                 &en, &n, &le);
        }
        if (rc == 0 && n == 0) {
            dse_store_entries_free(en, 0);
            en = NULL;
            rc = ops->xreadgroup(c.st.self, w->k_jobs, DSE_FARM_GROUP, w->name,
                                 1, 500, &en, &n, &le);
        }
        if (rc) {
            /* a lost group (NOGROUP), or the stream deleted while this
             * read blocked on it (UNBLOCKED: FLUSHDB, eviction, DEL):
             * the group is created again and the worker keeps serving */
            need_setup = 1;
            if (rc == ERR_INVALID && (strstr(le.msg, "NOGROUP") ||
                                      strstr(le.msg, "UNBLOCKED"))) {
                wlog(w, "job stream or group lost (%s): creating it again",
                     le.msg);
                continue;
            }
            if (!retry_after(&c, rc, &le))
                break;
            continue;
        }
        conn_ok(&c);
        for (size_t i = 0; i < n; i++) {
            /* left pending on a mismatch: another worker reclaims it */
            if (secret_ok(&c))
                break;
            set_inhand(w, a->slot, en[i].id);
            process(&c, &en[i]);
            set_inhand(w, a->slot, NULL);
        }
        dse_store_entries_free(en, n);
    }
    dse_store_close(&c.st);
    return NULL;
}

static void heartbeat(worker *w, dse_store *st, int *down)
{
    const dse_store_ops *ops = st->ops;
    err le;
    long long now;
    if (ops->time_ms(st->self, &now, &le)) {
        *down = 1;
        return;
    }
    *down = 0;
    if (w->o->farm.secret.len) { /* declare the secret to the farm */
        char tag[DSE_FARM_TAG_HEX + 1];
        dse_farm_secret_tag(&w->o->farm.secret, tag);
        ops->set(st->self, w->k_secret, tag, 0, 1, NULL, NULL);
    }
    ops->zadd(st->self, w->k_workers, (double)now, w->name, NULL);
    /* forget workers silent for 10 timeouts (bounded, no key scan) */
    ops->zrem_below(st->self, w->k_workers,
                    (double)now - 10000 * w->o->farm.worker_timeout_s, NULL);
    pthread_mutex_lock(&w->lock);
    int slots = w->o->slots;
    const char **ids = xcalloc((size_t)slots + 1, sizeof *ids);
    char (*copy)[DSE_STORE_ID_MAX] = xcalloc((size_t)slots + 1, sizeof *copy);
    size_t n = 0;
    for (int s = 0; s < slots; s++)
        if (w->inhand[s][0]) {
            memcpy(copy[n], w->inhand[s], DSE_STORE_ID_MAX);
            ids[n] = copy[n];
            n++;
        }
    char busy[32], done[32], dead[32], recl[32], sl[32], pid[32], host[128];
    snprintf(busy, sizeof busy, "%ld", w->busy);
    snprintf(done, sizeof done, "%ld", w->done);
    snprintf(dead, sizeof dead, "%ld", w->dead);
    snprintf(recl, sizeof recl, "%ld", w->reclaimed);
    pthread_mutex_unlock(&w->lock);
    snprintf(sl, sizeof sl, "%d", slots);
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    if (gethostname(host, sizeof host))
        snprintf(host, sizeof host, "?");
    host[sizeof host - 1] = '\0';
    if (n)
        ops->xtouch(st->self, w->k_jobs, DSE_FARM_GROUP, w->name, ids, n, NULL);
    const char *fields[] = {"host", "pid",  "slots",     "busy",
                            "done", "dead", "reclaimed", "version"};
    const char *values[] = {host, pid, sl, busy, done, dead, recl,
                            dse_version_string()};
    ops->hset(st->self, w->k_self, 8, fields, values, NULL);
    ops->expire(st->self, w->k_self,
                (long)(3000 * w->o->farm.worker_timeout_s), NULL);
    free(ids);
    free(copy);
}

static void *heartbeat_main(void *arg)
{
    worker *w = arg;
    dse_store st;
    dse_store_open(w->spec, &st);
    int down = 0;
    while (!w->done_flag) {
        heartbeat(w, &st, &down);
        double wait = w->o->farm.heartbeat_s;
        while (wait > 0 && !w->done_flag) {
            dse__farm_sleep(0.05, NULL);
            wait -= 0.05;
        }
    }
    /* deregister */
    st.ops->zrem(st.self, w->k_workers, w->name, NULL);
    st.ops->del(st.self, w->k_self, NULL);
    dse_store_close(&st);
    return NULL;
}

int dse_worker_run(const dse_store_spec *spec, const dse_worker_opts *o,
                   volatile sig_atomic_t *stop,
                   volatile sig_atomic_t *hard_stop, err *e)
{
    int rc = dse_farm_opts_check(&o->farm, e);
    if (rc)
        return rc;
    if (o->slots < 1 || o->slots > 1024)
        return err_set(e, ERR_CONFIG, "--jobs: 1 to 1024");
    worker *w = xcalloc(1, sizeof *w);
    w->spec = spec;
    w->o = o;
    w->stop = stop;
    w->hard_stop = hard_stop;
    if (o->name[0]) {
        snprintf(w->name, sizeof w->name, "%s", o->name);
    } else {
        char host[64], rnd[16];
        if (gethostname(host, sizeof host))
            snprintf(host, sizeof host, "worker");
        host[sizeof host - 1] = '\0';
        snprintf(rnd, sizeof rnd, "%04lx",
                 (unsigned long)(dse_now_s() * 1e6) & 0xffff);
        snprintf(w->name, sizeof w->name, "%s-%ld-%s", host, (long)getpid(),
                 rnd);
    }
    const dse_farm_opts *fo = &o->farm;
    dse_farm_key(fo, "jobs", w->k_jobs, sizeof w->k_jobs);
    dse_farm_key(fo, "dead", w->k_dead, sizeof w->k_dead);
    dse_farm_key(fo, "workers", w->k_workers, sizeof w->k_workers);
    dse_farm_key(fo, "stats", w->k_stats, sizeof w->k_stats);
    dse_farm_key(fo, "reply:", w->k_reply_prefix, sizeof w->k_reply_prefix);
    dse_farm_key(fo, "secret", w->k_secret, sizeof w->k_secret);
    char self[200];
    snprintf(self, sizeof self, "worker:%s", w->name);
    dse_farm_key(fo, self, w->k_self, sizeof w->k_self);
    pthread_mutex_init(&w->lock, NULL);
    w->inhand = xcalloc((size_t)o->slots, sizeof *w->inhand);
    wlog(w, "worker %s: %d slot(s), prefix '%s'", w->name, o->slots,
         fo->prefix);

    pthread_t hb;
    pthread_create(&hb, NULL, heartbeat_main, w);
    pthread_t *th = xcalloc((size_t)o->slots, sizeof *th);
    slot_arg *args = xcalloc((size_t)o->slots, sizeof *args);
    for (int s = 0; s < o->slots; s++) {
        args[s] = (slot_arg){w, s};
        pthread_create(&th[s], NULL, slot_main, &args[s]);
    }
    for (int s = 0; s < o->slots; s++)
        pthread_join(th[s], NULL);
    w->done_flag = 1;
    pthread_join(hb, NULL);
    rc = w->fatal;
    if (rc && e)
        *e = w->fatal_err;
    wlog(w, "worker %s: stopped after %ld job(s), %ld dead-lettered", w->name,
         w->done, w->dead);
    free(th);
    free(args);
    free(w->inhand);
    pthread_mutex_destroy(&w->lock);
    free(w);
    return rc;
}
