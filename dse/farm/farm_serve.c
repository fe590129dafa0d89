/*
 * farm_serve.c — see farm_serve.h.
 *
 * Threads: `concurrent` runner threads, each with its own store handle and
 * its own farm coordinator (dse_farm), plus the calling thread, which
 * keeps the daemon's lock fresh and waits for the stop flag.  A runner:
 *     BLMOVE studies:queue -> studies:running (1 s);
 *     read study:ID, parse its YAML, check the limits and the report path;
 *     run dse_optimize on the farm, its progress hook writing phase, done,
 *     total and workers into study:ID about once a second;
 *     write the report under the output root; status done / failed;
 *     LREM studies:running ID.
 * A study's own failure (bad YAML, over a limit, Redis lost for longer
 * than the farm's timeout, no worker) marks that study failed or refused
 * and the daemon goes on: one bad study must not stop the others.
 *
 * Restart: a daemon starting finds the ids left in studies:running by a
 * predecessor that died or was stopped, and pushes them back to the head
 * of the queue.  The lock (SET NX PX, refreshed every 3 s) keeps two
 * daemons from doing that to each other's studies.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "dse/farm/farm_serve.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "net/xalloc.h"
#include "dse/farm/studies.h"
#include "dse/report/report.h"
#include "dse/study/space.h"

#define LOCK_TTL_MS 15000

void dse_serve_opts_init(dse_serve_opts *o)
{
    memset(o, 0, sizeof *o);
    dse_farm_opts_init(&o->farm);
    o->concurrent = 1;
    o->limits.max_nodes = 65536;
    o->limits.max_designs = 20000;
    o->limits.max_enumerated = 1000000;
    o->limits.max_rates = 64;
    o->limits.max_sim_messages = 2e9;
}

/* ---- untrusted studies -------------------------------------------------- */

int dse_serve_check_enumerated(const cfg_study *s, size_t max,
                               const char *whose, err *e)
{
    /* count before enumerating: a space of millions of combinations
     * would take minutes and gigabytes to build just to be refused */
    double combos = dse_space_enumerated(s);
    if (combos > (double)max)
        return err_set(e, ERR_CONFIG,
                       "%.0f design combinations to enumerate (topologies x "
                       "dimensions x radices x routings x vcs x buffers x "
                       "express m x kn): over %s limit of %zu",
                       combos, whose, max);
    return 0;
}

int dse_serve_check_limits(const cfg_study *s, const dse_serve_limits *l,
                           const volatile sig_atomic_t *stop, err *e)
{
    if (s->nodes > l->max_nodes)
        return err_set(e, ERR_CONFIG, "%ld nodes: over this farm's limit of %ld",
                       s->nodes, l->max_nodes);
    if (s->rates.n > l->max_rates)
        return err_set(e, ERR_CONFIG, "%zu rates: over this farm's limit of %zu",
                       s->rates.n, l->max_rates);
    double per_rep = (double)s->sim.warmup_messages +
                     10.0 * (double)s->sim.measured_messages; /* CI rule cap */
    double total = (double)s->finalists * (double)s->rates.n *
                   (double)s->sim.seeds * per_rep;
    if (total > l->max_sim_messages)
        return err_set(e, ERR_CONFIG,
                       "up to %.3g simulated messages (finalists x rates x "
                       "seeds x (warm-up + 10 x measured)): over this farm's "
                       "limit of %.3g",
                       total, l->max_sim_messages);
    int rc = dse_serve_check_enumerated(s, l->max_enumerated, "this farm's",
                                        e);
    if (rc)
        return rc;
    /* Under max_enumerated the build is bounded, but still seconds for a
     * million combinations: it polls the daemon's stop flag, so SIGTERM
     * during a check is not held up by it. */
    dse_space sp;
    err le;
    rc = dse_space_build_stoppable(s, &sp, stop, &le);
    if (rc) {
        dse_space_fini(&sp);
        if (rc == ERR_INTERRUPTED)
            return err_set(e, ERR_INTERRUPTED,
                           "stopped while checking the design space");
        return err_set(e, ERR_CONFIG, "design space: %s", le.msg);
    }
    size_t count = sp.count;
    dse_space_fini(&sp);
    if (count > l->max_designs)
        return err_set(e, ERR_CONFIG,
                       "%zu feasible designs: over this farm's limit of %zu",
                       count, l->max_designs);
    return 0;
}

int dse_serve_report_path(const char *root, const char *id, char *out,
                          size_t size, err *e)
{
    /* The id comes from Redis (studies:queue), so it is untrusted too:
     * only the decimal ids dse_serve_submit hands out make a path. */
    size_t len = id ? strlen(id) : 0;
    if (len == 0 || len > 20 || strspn(id, "0123456789") != len)
        return err_set(e, ERR_CONFIG,
                       "study id '%.40s' is not a decimal number: not a "
                       "study this farm's 'dse submit' made",
                       id ? id : "");
    int n = snprintf(out, size, "%s/%s", root, id);
    if (n < 0 || (size_t)n >= size)
        return err_set(e, ERR_CONFIG, "output root '%s' is too long", root);
    int rc = dse_report_dir_check(out, e);
    if (rc)
        return rc;
    return 0;
}

/* ---- small store helpers --------------------------------------------------- */

static void key_of(const dse_farm_opts *fo, const char *name, char *buf,
                   size_t size)
{
    dse_farm_key(fo, name, buf, size);
}

static void study_key(const dse_farm_opts *fo, const char *id, char *buf,
                      size_t size)
{
    char name[64];
    snprintf(name, sizeof name, "study:%s", id);
    dse_farm_key(fo, name, buf, size);
}

/* HSET key f1 v1 f2 v2 ... NULL */
static int hset_pairs(dse_store *st, const char *key, err *e, ...)
{
    const char *f[16], *v[16];
    size_t n = 0;
    va_list ap;
    va_start(ap, e);
    const char *x;
    while (n < 16 && (x = va_arg(ap, const char *)) != NULL) {
        f[n] = x;
        v[n++] = va_arg(ap, const char *);
    }
    va_end(ap);
    return st->ops->hset(st->self, key, n, f, v, e);
}

static void now_text(char buf[32])
{
    snprintf(buf, 32, "%lld", (long long)time(NULL));
}

/* ---- submit ------------------------------------------------------------------ */

int dse_serve_submit(const dse_store_spec *spec, const dse_farm_opts *fo,
                     const char *yaml, const char *name,
                     char id[DSE_STUDY_ID_MAX], err *e)
{
    if (strlen(yaml) > DSE_SUBMIT_MAX)
        return err_set(e, ERR_CONFIG, "%s: over %d bytes", name,
                       DSE_SUBMIT_MAX);
    cfg_study s;
    int rc = cfg_study_load_string(yaml, name, &s, e);
    if (rc) {
        cfg_study_fini(&s);
        return rc;
    }
    char sname[CFG_NAME_MAX];
    snprintf(sname, sizeof sname, "%s", s.name);
    cfg_study_fini(&s);
    dse_store st;
    dse_store_open(spec, &st);
    char k[192], kq[160], ks[160];
    long long n;
    key_of(fo, "studies:next", k, sizeof k);
    rc = st.ops->incr(st.self, k, &n, e);
    if (rc)
        goto out;
    snprintf(id, DSE_STUDY_ID_MAX, "%lld", n);
    study_key(fo, id, k, sizeof k);
    char when[32];
    now_text(when);
    rc = hset_pairs(&st, k, e, "id", id, "name", sname, "status", "queued",
                    "submitted", when, "yaml", yaml, NULL);
    key_of(fo, "studies", ks, sizeof ks);
    key_of(fo, "studies:queue", kq, sizeof kq);
    if (!rc)
        rc = st.ops->push(st.self, ks, id, 0, e);
    if (!rc)
        rc = st.ops->push(st.self, kq, id, 0, e);
out:
    dse_store_close(&st);
    return rc;
}

/* ---- the daemon ----------------------------------------------------------------- */

/*
 * Fencing.  The lock's value is a token "NAME GEN", GEN from
 * INCR serve:lock:gen when the lock is taken, so every holder's token is
 * new.  A daemon paused past the lock's expiry (SIGSTOP, a VM freeze)
 * may find on waking that another daemon took the lock and resumed its
 * studies.  So every state change in Redis (a study's status, progress,
 * phase, report and report files, requeueing it, dropping it from
 * studies:running, refreshing and releasing the lock itself) is a fenced
 * write (fenced(), dse_store_ops.fenced): the comparison of the lock
 * with this daemon's token and the write are one atomic step in the
 * store (a Lua script in Redis), so no write of a daemon whose token is
 * stale lands, however long it was paused between deciding to write and
 * writing.  A mismatch sets `lost`: the daemon interrupts its studies
 * without writing anything more about them (the new holder owns them
 * now) and exits with an error.
 *
 * What is not fenced: taking an id (BLMOVE queue -> running blocks, so it
 * cannot run inside a script; the runner reads the lock right after and
 * hands a mis-taken id back to the queue), that hand-back itself (it
 * undoes the take), and the report directory (a file system, not Redis:
 * checked with still_ours just before; both daemons write OUTPUT_ROOT/ID
 * the same way, and dse_report_write replaces it whole).
 */
typedef struct daemon {
    const dse_store_spec *spec;
    const dse_serve_opts *o;
    volatile sig_atomic_t *stop;   /* the caller's (signals) */
    volatile sig_atomic_t halt;    /* stop studies: *stop or lost */
    volatile sig_atomic_t lost;    /* another daemon holds the lock */
    char name[160];
    char token[200];               /* "NAME GEN", the lock's value;
                                      changed only under tok_lock (the
                                      lock taken again after Redis lost
                                      it), read by the runners */
    long long gen;                 /* GEN of token */
    pthread_mutex_t tok_lock;
    long lock_ttl_ms;
    char k_queue[160], k_running[160], k_lock[160], k_gen[160];
    pthread_mutex_t log_lock;
} daemon;

static void dlog(daemon *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void dlog(daemon *d, const char *fmt, ...)
{
    if (!d->o->log)
        return;
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&d->log_lock);
    d->o->log(d->o->log_ctx, line);
    pthread_mutex_unlock(&d->log_lock);
}

static void set_lost(daemon *d)
{
    if (!d->lost)
        dlog(d, "lost %s to another daemon: taking no more work", d->k_lock);
    d->lost = 1;
    d->halt = 1;
}

/* 1 when the lock still holds this daemon's token; else sets lost and
 * halt (a Redis error counts as still ours: the refresh loop decides).
 * A read: for decisions only, never to guard a write (fenced() does). */
static void token_of(daemon *d, char out[200])
{
    pthread_mutex_lock(&d->tok_lock);
    memcpy(out, d->token, 200);
    pthread_mutex_unlock(&d->tok_lock);
}

/* An absent lock is not another daemon's: the server lost it (restarted
 * without persistence, or down past its expiry, or flushed), and the
 * refresh loop takes it again if nobody else has. */
static int still_ours(daemon *d, dse_store *st)
{
    if (d->lost)
        return 0;
    const char *keys[1] = {d->k_lock};
    char *holder = NULL;
    if (st->ops->get_many(st->self, keys, 1, &holder, NULL) != 0)
        return 1;
    char token[200];
    token_of(d, token);
    int mine = !holder || strcmp(holder, token) == 0;
    free(holder);
    if (!mine)
        set_lost(d);
    return mine;
}

/* A command from its arguments, NULL-terminated (at most 24). */
static void cmd_of(dse_store_cmd *c, ...)
{
    va_list ap;
    va_start(ap, c);
    const char *x;
    c->argc = 0;
    while (c->argc < 24 && (x = va_arg(ap, const char *)) != NULL)
        c->argv[c->argc++] = x;
    va_end(ap);
}

/* Run cmds in one atomic step with the check that the lock holds this
 * daemon's token.  1 they ran; 0 the lock is another's (none ran; sets
 * lost and halt); a negative ERR_* when the store failed (they may or
 * may not have run; the refresh loop decides about the lock). */
static int fenced(daemon *d, dse_store *st, const dse_store_cmd *cmds,
                  size_t n, err *e)
{
    if (d->lost)
        return 0;
    char token[200];
    token_of(d, token);
    dse_store_fence f = {d->k_lock, token, 0};
    int rc = st->ops->fenced(st->self, &f, cmds, n, e);
    if (rc)
        return rc;
    if (!f.held) {
        /* none ran; whose is the lock?  Absent: the server lost it, the
         * refresh loop takes it again, the caller retries as after a
         * store failure.  Another token: lost. */
        const char *keys[1] = {d->k_lock};
        char *holder = NULL;
        rc = st->ops->get_many(st->self, keys, 1, &holder, e);
        if (rc)
            return rc;
        if (!holder)
            return err_set(e, ERR_REDIS, "%s is absent (the server lost "
                                         "it): taking it again",
                           d->k_lock);
        free(holder);
        set_lost(d);
    }
    return f.held;
}

typedef struct runner {
    daemon *d;
    dse_store st;
    dse_farm *farm;
    char id[DSE_STUDY_ID_MAX];
    char key[192];
    double last_hook;
    /* the study's own stop flag: the daemon stopping, or dse cancel */
    volatile sig_atomic_t stop_study;
    int cancelled;
    char last_phase[32];
    /* for the whole study's ETA and the page: the decision rounds so far */
    const cfg_study *study;
    char cur_phase[32];       /* the batch being watched */
    double cur_start, cur_elapsed; /* its start (dse_now_s), time so far */
    size_t cur_done, cur_total;
    int rounds;               /* saturation batches: decision rounds */
    size_t designs;           /* designs sent to simulation so far */
    size_t sat_n, sim_n;      /* jobs of finished batches, and their time */
    double sat_s, sim_s;
    char phases[1024];        /* the batches so far: "score 86/86 3 s; ..." */
} runner;

/* Seconds per job of a kind: finished batches and the current one. */
static double per_job(size_t n, double secs, size_t cur_n, double cur_s)
{
    return n + cur_n > 0 ? (secs + cur_s) / (double)(n + cur_n) : -1;
}

/* The time the study needs after its current phase, or -1 when it is not
 * known yet: the rest of the simulation budget (simulation.max_designs
 * designs in all, each a saturation search and rates x seeds simulations)
 * at the pace of the jobs so far.  It is an upper bound: the decision
 * rounds stop early once no unsimulated design could win. */
static double rest_of_study(const runner *r)
{
    const cfg_study *s = r->study;
    if (!s)
        return -1;
    int in_sat = !strcmp(r->cur_phase, "saturate");
    int in_sim = !strcmp(r->cur_phase, "simulate");
    if (!in_sat && !in_sim)
        return -1; /* scoring: the simulations' pace is not known yet */
    size_t seeds = (size_t)(s->sim.seeds < 3 ? 3 : s->sim.seeds);
    double per_sim = s->rates.n * (double)seeds;
    double t_sat = per_job(r->sat_n, r->sat_s, in_sat ? r->cur_done : 0,
                           in_sat ? r->cur_elapsed : 0);
    double t_sim = per_job(r->sim_n, r->sim_s, in_sim ? r->cur_done : 0,
                           in_sim ? r->cur_elapsed : 0);
    size_t budget = s->sim.max_designs > 0 ? (size_t)s->sim.max_designs : 0;
    size_t left = budget > r->designs ? budget - r->designs : 0;
    if (in_sim && left == 0)
        return 0;
    if (t_sat < 0 || t_sim < 0)
        return -1;
    double rest = (double)left * (t_sat + per_sim * t_sim);
    if (in_sat) /* this round's simulations come next */
        rest += (double)r->cur_total * per_sim * t_sim;
    return rest;
}

/* Add the batch being watched to the list of phases so far. */
static void close_batch(runner *r)
{
    size_t used = strlen(r->phases);
    if (r->cur_phase[0] && used + 80 < sizeof r->phases)
        snprintf(r->phases + used, sizeof r->phases - used,
                 "%s%s %zu/%zu in %.0f s", used ? "; " : "", r->cur_phase,
                 r->cur_done, r->cur_total, r->cur_elapsed);
}

/* Follow the batches: a new phase name starts a batch (a saturation batch
 * starts a decision round); a finished one adds its jobs and time. */
static void track_batch(runner *r, const dse_farm_status *s)
{
    double now = dse_now_s();
    if (strcmp(s->phase, r->cur_phase) != 0) {
        close_batch(r);
        if (!strcmp(r->cur_phase, "saturate")) {
            r->sat_n += r->cur_done;
            r->sat_s += r->cur_elapsed;
        } else if (!strcmp(r->cur_phase, "simulate")) {
            r->sim_n += r->cur_done;
            r->sim_s += r->cur_elapsed;
        }
        snprintf(r->cur_phase, sizeof r->cur_phase, "%s", s->phase);
        r->cur_start = now;
        if (!strcmp(s->phase, "saturate")) {
            r->rounds++;
            r->designs += s->total;
        }
    }
    r->cur_done = s->done;
    r->cur_total = s->total;
    r->cur_elapsed = now - r->cur_start;
}

/* Called with every progress update: start the phase's clock when the
 * phase changes (for the ETA) and notice a cancel request or the daemon
 * stopping (both stop this study through r->stop_study). */
static void watch_study(runner *r, const char *phase)
{
    if (r->d->halt)
        r->stop_study = 1;
    if (strcmp(phase, r->last_phase) != 0) {
        char when[32];
        snprintf(when, sizeof when, "%lld", (long long)time(NULL));
        dse_store_cmd c;
        cmd_of(&c, "HSET", r->key, "phase_started", when, NULL);
        if (fenced(r->d, &r->st, &c, 1, NULL) == 1)
            snprintf(r->last_phase, sizeof r->last_phase, "%s", phase);
    }
    char name[64], key[192];
    snprintf(name, sizeof name, "cancel:%s", r->id);
    dse_farm_key(&r->d->o->farm, name, key, sizeof key);
    const char *keys[1] = {key};
    char *val = NULL;
    if (r->st.ops->get_many(r->st.self, keys, 1, &val, NULL) == 0 && val) {
        r->cancelled = 1;
        r->stop_study = 1;
    }
    free(val);
}

/* After a report is written: its files into report:ID for dse results. */
static void keep_report(runner *r, const char *dir)
{
    daemon *d = r->d;
    err e;
    char token[200];
    token_of(d, token);
    dse_store_fence f = {d->k_lock, token, 0};
    int rc = dse_study_store_report(&r->st, &d->o->farm, r->id, dir, &f, &e);
    if (rc == 0 && !f.held) {
        still_ours(d, &r->st); /* lost, unless the server lost the lock */
        return;
    }
    dse_store_cmd c;
    cmd_of(&c, "HSET", r->key, "report_stored", rc ? "no" : "yes",
           "report_not_stored", rc ? e.msg : "", NULL);
    fenced(d, &r->st, &c, 1, NULL);
    if (rc)
        dlog(d, "study %s: report not stored in Redis: %s", r->id, e.msg);
}

/* The farm's progress, into study:ID (also called at a batch's end). */
static void on_status(void *ctx, const dse_farm_status *s)
{
    runner *r = ctx;
    char done[32], total[32], workers[32], pend[32], run[32], rounds[32],
        designs[32], rest[32];
    track_batch(r, s);
    double left = rest_of_study(r);
    snprintf(rounds, sizeof rounds, "%d", r->rounds);
    snprintf(designs, sizeof designs, "%zu", r->designs);
    if (left >= 0)
        snprintf(rest, sizeof rest, "%.1f", left);
    else
        rest[0] = '\0';
    snprintf(done, sizeof done, "%zu", s->done);
    snprintf(total, sizeof total, "%zu", s->total);
    snprintf(workers, sizeof workers, "%zu", s->workers);
    snprintf(pend, sizeof pend, "%zu", s->pending);
    snprintf(run, sizeof run, "%zu", s->running);
    dse_store_cmd c;
    cmd_of(&c, "HSET", r->key, "phase", s->phase, "done", done, "total", total,
           "workers", workers, "pending", pend, "jobs_running", run, "round",
           rounds, "designs_simulated", designs, "rest_s", rest, "phases",
           r->phases, NULL);
    if (fenced(r->d, &r->st, &c, 1, NULL) == 0) {
        r->stop_study = 1; /* dse_optimize stops (the daemon halts) */
        return;
    }
    watch_study(r, s->phase);
}

/* Record a final status with a reason. */
static void finish_study(runner *r, const char *status, const char *reason)
{
    char when[32];
    now_text(when);
    dse_store_cmd c;
    /* a finished study's phase says so (the last phase's name would read
     * as if it still ran) */
    cmd_of(&c, "HSET", r->key, "status", status, "reason",
           reason ? reason : "", "finished", when, "phase",
           strcmp(status, "done") ? "stopped" : "done", NULL);
    int rc = -1;
    for (int tries = 0; tries < 50 && rc < 0; tries++) {
        if ((rc = fenced(r->d, &r->st, &c, 1, NULL)) < 0)
            dse__farm_sleep(0.2, NULL);
    }
    if (rc == 0)
        return; /* the lock's holder has the study now */
    dlog(r->d, "study %s: %s%s%s%s", r->id, status,
         reason && reason[0] ? ": " : "", reason ? reason : "",
         rc < 0 ? " (not recorded: Redis unreachable)" : "");
}

/* The daemon is stopping: the study is marked queued again.  Its id stays
 * in studies:running; once every runner has stopped, requeue_running
 * moves all of them back to the head of the queue in the order they were
 * taken, so studies stopped together keep their order. */
static void requeue(runner *r)
{
    daemon *d = r->d;
    dse_store_cmd c;
    cmd_of(&c, "HSET", r->key, "status", "queued", "reason",
           "daemon stopped while running it; resumes when a daemon starts",
           NULL);
    if (fenced(d, &r->st, &c, 1, NULL) == 1) /* 0: the holder resumed it */
        dlog(d, "study %s: requeued", r->id);
}

/* Every id in studies:running back to the head of the queue, the first
 * taken first, in one fenced step. */
static void requeue_running(daemon *d, dse_store *st)
{
    char **ids;
    size_t n;
    if (st->ops->lrange(st->self, d->k_running, 0, -1, &ids, &n, NULL))
        return;
    dse_store_cmd *c = xcalloc(2 * n + 1, sizeof *c);
    for (size_t i = 0; i < n; i++) { /* the last taken pushed first */
        const char *id = ids[n - 1 - i] ? ids[n - 1 - i] : "";
        cmd_of(&c[2 * i], "LREM", d->k_running, "0", id, NULL);
        cmd_of(&c[2 * i + 1], "LPUSH", d->k_queue, id, NULL);
    }
    if (n)
        fenced(d, st, c, 2 * n, NULL);
    free(c);
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
}

/* What run_study does after a phase: go on, stop with the study's id
 * dropped from studies:running, or stop leaving it there (requeued for
 * the next daemon, or the lock's new holder runs it). */
typedef enum { STEP_ON, STEP_DROP, STEP_KEEP } study_step;

/* A study starts: its stop flags and progress figures start over. */
static void runner_reset(runner *r)
{
    r->stop_study = 0;
    r->cancelled = 0;
    r->last_phase[0] = '\0';
    r->study = NULL;
    r->cur_phase[0] = '\0';
    r->cur_done = r->cur_total = 0;
    r->cur_elapsed = 0;
    r->rounds = 0;
    r->designs = r->sat_n = r->sim_n = 0;
    r->sat_s = r->sim_s = 0;
    r->phases[0] = '\0';
    if (r->d->halt)
        r->stop_study = 1;
}

/* study:ID read: its YAML into *yaml (NULL when the record has none, or
 * there is no record: *nfields 0), a cancel request into r->cancelled.
 * -1 when Redis could not be read: the study goes back on the queue and
 * the loop backs off. */
static int read_record(runner *r, char **yaml, size_t *nfields)
{
    daemon *d = r->d;
    size_t n;
    char **f, **v;
    err e;
    if (r->st.ops->hgetall(r->st.self, r->key, &n, &f, &v, &e)) {
        dse_store_cmd c[2];
        cmd_of(&c[0], "LREM", d->k_running, "0", r->id, NULL);
        cmd_of(&c[1], "LPUSH", d->k_queue, r->id, NULL);
        fenced(d, &r->st, c, 2, NULL);
        dse__farm_sleep(1.0, &d->halt);
        return -1;
    }
    runner_reset(r);
    *yaml = NULL;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(f[i], "cancel") == 0 && v[i][0])
            r->cancelled = 1;
        if (strcmp(f[i], "yaml") == 0)
            *yaml = v[i], v[i] = NULL;
        free(f[i]);
        free(v[i]);
    }
    free(f);
    free(v);
    *nfields = n;
    return 0;
}

/* Marks the study running, loads its YAML (freed here) into *s, checks
 * it against the daemon's limits, finds its report directory and the
 * farm it runs on.  On STEP_ON *s is loaded; otherwise its status is
 * recorded and *s released. */
static study_step start_study(runner *r, char *yaml, cfg_study *s, char *dir,
                              size_t dir_size)
{
    daemon *d = r->d;
    const dse_serve_opts *o = d->o;
    char when[32], srcname[64];
    now_text(when);
    dse_store_cmd running;
    cmd_of(&running, "HSET", r->key, "status", "running", "started", when,
           "phase", "checking", NULL);
    if (fenced(d, &r->st, &running, 1, NULL) == 0) {
        free(yaml);
        return STEP_KEEP;
    }
    snprintf(srcname, sizeof srcname, "study-%s.yaml", r->id);
    err e;
    int rc = strlen(yaml) > DSE_SUBMIT_MAX
                 ? err_set(&e, ERR_CONFIG, "over %d bytes", DSE_SUBMIT_MAX)
                 : cfg_study_load_string(yaml, srcname, s, &e);
    free(yaml);
    char reason[ERR_MSG_MAX + 600];
    if (rc) {
        char msg[ERR_MSG_MAX + 400];
        snprintf(reason, sizeof reason, "invalid study: %s",
                 err_format(&e, msg, sizeof msg));
        finish_study(r, "failed", reason);
        return STEP_DROP;
    }
    rc = dse_serve_check_limits(s, &o->limits, &r->stop_study, &e);
    if (rc == ERR_INTERRUPTED) { /* the daemon is stopping */
        cfg_study_fini(s);
        requeue(r);
        return STEP_KEEP;
    }
    if (rc ||
        (rc = dse_serve_report_path(o->output_root, r->id, dir, dir_size,
                                    &e))) {
        snprintf(reason, sizeof reason, "%s", e.msg);
        finish_study(r, "refused", reason);
        cfg_study_fini(s);
        return STEP_DROP;
    }
    dlog(d, "study %s (%s): running, report to %s", r->id, s->name, dir);
    if (!r->farm &&
        dse_farm_create(d->spec, &o->farm, &r->farm, &e) != 0) {
        snprintf(reason, sizeof reason, "farm: %s", e.msg);
        finish_study(r, "failed", reason);
        cfg_study_fini(s);
        return STEP_DROP;
    }
    dse_farm_set_status_hook(r->farm, on_status, r);
    {   /* where dse cancel withdraws the study's jobs at once */
        dse_store_cmd c;
        cmd_of(&c, "HSET", r->key, "reply", dse_farm_reply_key(r->farm), NULL);
        fenced(d, &r->st, &c, 1, NULL);
    }
    return STEP_ON;
}

/* Cancelled during its run: its queued jobs leave the stream and its
 * running ones stop, so the next study's jobs are the next ones run. */
static void withdraw_study(runner *r)
{
    daemon *d = r->d;
    size_t withdrawn = 0;
    err we;
    if (dse_farm_withdraw(r->farm, &withdrawn, &we))
        dlog(d, "study %s: withdrawing its jobs: %s", r->id, we.msg);
    else
        dlog(d, "study %s: cancelled, %zu queued job(s) withdrawn", r->id,
             withdrawn);
    dse_farm_destroy(r->farm);
    r->farm = NULL;
    finish_study(r, "cancelled", "cancelled with dse cancel");
}

/* A written report's outcome into study:ID (the figures dse status shows
 * and the verdict's first line), its files into report:ID, and the
 * status done; first_failure is the first of the study's failed jobs. */
static void record_report(runner *r, const dse_run *run, const char *dir,
                          size_t failed, const char *first_failure)
{
    daemon *d = r->d;
    char reason[ERR_MSG_MAX + 600], nfail[32];
    snprintf(nfail, sizeof nfail, "%zu", failed);
    snprintf(reason, sizeof reason, "%s%s",
             failed ? "some jobs failed on the farm; first: " : "",
             failed ? first_failure : "");
    char nsim[32], nunc[32], nrounds[32];
    snprintf(nsim, sizeof nsim, "%zu", run->nsimulated);
    snprintf(nunc, sizeof nunc, "%zu", run->nuncertified);
    snprintf(nrounds, sizeof nrounds, "%d", run->rounds);
    size_t nv;
    char **verdict = dse_report_verdict(run, &nv);
    close_batch(r);
    dse_store_cmd rep;
    cmd_of(&rep, "HSET", r->key, "report", dir, "failed_jobs", nfail,
           "designs_simulated", nsim, "uncertified", nunc, "round",
           nrounds, "ended",
           run->recommended == SIZE_MAX ? "models only"
           : run->certified             ? "certified"
                                        : "budget spent",
           "verdict", nv ? verdict[0] : "", "rest_s", "0", "phases",
           r->phases, NULL);
    int ok = fenced(d, &r->st, &rep, 1, NULL);
    for (size_t i = 0; i < nv; i++)
        free(verdict[i]);
    free(verdict);
    if (ok != 0)
        keep_report(r, dir);
    finish_study(r, "done", reason);
}

/* dse_optimize on the farm, then the report written into dir and
 * recorded; a cancelled study's jobs withdrawn, a stopped one requeued.
 * *s is released. */
static study_step optimize_study(runner *r, cfg_study *s, const char *dir)
{
    daemon *d = r->d;
    dse_executor ex;
    dse_farm_executor(r->farm, &ex);
    size_t failed_before = dse_farm_failures(r->farm, NULL);
    dse_optimize_opts oo = {0};
    oo.threads = d->o->threads;
    oo.quiet = 1;
    oo.stop = &r->stop_study; /* set on halt (on_status, watch_study, the
                                 main loop) or by dse cancel */
    oo.executor = &ex;
    dse_run run;
    err e;
    r->study = s;
    int rc = dse_optimize(s, &oo, &run, &e);
    r->study = NULL;
    if (r->cancelled && !d->halt) {
        dse_run_fini(&run);
        cfg_study_fini(s);
        withdraw_study(r);
        return STEP_DROP;
    }
    if (rc == ERR_INTERRUPTED || d->halt) {
        dse_run_fini(&run);
        cfg_study_fini(s);
        requeue(r);
        return STEP_KEEP;
    }
    const char *const *reasons;
    size_t failed = dse_farm_failures(r->farm, &reasons) - failed_before;
    if (rc == 0) {
        /* this study's own failures: the ones after failed_before */
        run.job_failures = reasons + failed_before;
        run.njob_failures = failed;
        if (!still_ours(d, &r->st)) { /* the new holder runs it */
            dse_run_fini(&run);
            cfg_study_fini(s);
            return STEP_KEEP;
        }
        rc = dse_report_write(&run, dir, &e);
    }
    if (rc) {
        char reason[ERR_MSG_MAX + 600];
        snprintf(reason, sizeof reason, "%s", e.msg);
        finish_study(r, "failed", reason);
    } else {
        record_report(r, &run, dir, failed,
                      failed ? reasons[failed_before] : NULL);
    }
    dse_run_fini(&run);
    cfg_study_fini(s);
    /* one farm per study run: its failure list is per study */
    dse_farm_destroy(r->farm);
    r->farm = NULL;
    return STEP_DROP;
}

/* One study from the queue, start to end: its record read, checked and
 * started, optimised and reported; its id leaves studies:running unless
 * it was requeued or another daemon holds it now. */
static void run_study(runner *r)
{
    daemon *d = r->d;
    study_key(&d->o->farm, r->id, r->key, sizeof r->key);
    char *yaml;
    size_t n;
    if (read_record(r, &yaml, &n))
        return;
    dse_store_cmd drop;
    cmd_of(&drop, "LREM", d->k_running, "0", r->id, NULL);
    if (!yaml) {
        if (n > 0) { /* a record without its study: it can never run */
            finish_study(r, "failed", "its record has no study YAML "
                                      "(damaged or not made by dse submit)");
            fenced(d, &r->st, &drop, 1, NULL);
            return;
        }
        if (fenced(d, &r->st, &drop, 1, NULL) == 1)
            dlog(d, "study %s: no such study, dropped from the queue", r->id);
        return;
    }
    if (r->cancelled) { /* cancelled while dse serve was taking it */
        free(yaml);
        finish_study(r, "cancelled", "cancelled with dse cancel");
        fenced(d, &r->st, &drop, 1, NULL);
        return;
    }
    cfg_study s;
    char dir[PATH_MAX];
    study_step step = start_study(r, yaml, &s, dir, sizeof dir);
    if (step == STEP_ON)
        step = optimize_study(r, &s, dir);
    if (step == STEP_DROP)
        fenced(d, &r->st, &drop, 1, NULL);
}

static void *runner_main(void *arg)
{
    runner *r = arg;
    daemon *d = r->d;
    dse_store_open(d->spec, &r->st);
    double backoff = 0.05;
    while (!d->halt) {
        char *id = NULL;
        err e;
        if (!still_ours(d, &r->st))
            break;
        int rc = r->st.ops->lmove(r->st.self, d->k_queue, d->k_running, 1000,
                                  &id, &e);
        if (rc) {
            dse__farm_sleep(backoff, &d->halt);
            backoff = backoff * 2 < 2 ? backoff * 2 : 2;
            continue;
        }
        backoff = 0.05;
        if (!id)
            continue;
        if (!still_ours(d, &r->st)) {
            /* taken after losing the lock: hand it back to the holder */
            r->st.ops->lrem(r->st.self, d->k_running, id, NULL);
            r->st.ops->push(r->st.self, d->k_queue, id, 1, NULL);
            free(id);
            break;
        }
        snprintf(r->id, sizeof r->id, "%.31s", id);
        free(id);
        run_study(r);
    }
    dse_farm_destroy(r->farm);
    dse_store_close(&r->st);
    return NULL;
}

/* Take (or refresh) the lock.  1 held, 0 someone else holds it, <0 error.
 * Taking it gives a new token (INCR serve:lock:gen); refreshing keeps it. */
static int take_lock(daemon *d, dse_store *st, err *e)
{
    int set = 0, rc;
    if (!d->token[0]) {
        long long gen;
        if ((rc = st->ops->incr(st->self, d->k_gen, &gen, e)))
            return rc;
        snprintf(d->token, sizeof d->token, "%s %lld", d->name, gen);
        d->gen = gen;
        rc = st->ops->set(st->self, d->k_lock, d->token, d->lock_ttl_ms, 1,
                          &set, e);
        if (rc || !set)
            d->token[0] = '\0';
        return rc ? rc : set;
    }
    /* refresh: PEXPIRE only while it holds our token, atomically (a GET
     * then a SET could overwrite a successor's token after a pause) */
    char ttl[32];
    snprintf(ttl, sizeof ttl, "%ld", d->lock_ttl_ms);
    dse_store_cmd c;
    cmd_of(&c, "PEXPIRE", d->k_lock, ttl, NULL);
    dse_store_fence f = {d->k_lock, d->token, 0};
    rc = st->ops->fenced(st->self, &f, &c, 1, e);
    return rc ? rc : f.held;
}

/* The refresh found the lock not ours.  Another daemon's token: lost (0).
 * Absent: the server lost it (restarted without persistence, down past
 * the expiry, flushed, evicted), which is not losing it to someone.  It
 * is taken again with a new token if no other daemon took it meanwhile:
 * every take increments serve:lock:gen, so a counter one past this
 * daemon's (or reset below it, the server having lost its data) means
 * nobody did; the runners' studies carry on under the new token (1).
 * <0: the store failed (the loop tries again). */
static int regain_lock(daemon *d, dse_store *st, err *e)
{
    const char *keys[1] = {d->k_lock};
    char *holder = NULL;
    int rc = st->ops->get_many(st->self, keys, 1, &holder, e);
    if (rc)
        return rc;
    if (holder) {
        free(holder);
        return 0;
    }
    long long gen;
    if ((rc = st->ops->incr(st->self, d->k_gen, &gen, e)))
        return rc;
    if (gen > d->gen + 1)
        return 0; /* another daemon took it (and let it go) meanwhile */
    char token[200];
    snprintf(token, sizeof token, "%s %lld", d->name, gen);
    int set = 0;
    rc = st->ops->set(st->self, d->k_lock, token, d->lock_ttl_ms, 1, &set, e);
    if (rc)
        return rc;
    if (!set)
        return 0;
    pthread_mutex_lock(&d->tok_lock);
    memcpy(d->token, token, sizeof token);
    d->gen = gen;
    pthread_mutex_unlock(&d->tok_lock);
    dlog(d, "%s was gone (Redis restarted, flushed or evicted it): took it "
            "again as %s",
         d->k_lock, token);
    return 1;
}

/* Put the ids a previous daemon left running back at the queue's head. */
static int resume(daemon *d, dse_store *st, err *e)
{
    char **ids;
    size_t n;
    int rc = st->ops->lrange(st->self, d->k_running, 0, -1, &ids, &n, e);
    if (rc)
        return rc;
    for (size_t i = n; i-- > 0;) {
        if (rc == 0)
            rc = st->ops->push(st->self, d->k_queue, ids[i], 1, e);
        if (rc == 0)
            rc = st->ops->lrem(st->self, d->k_running, ids[i], e);
        if (rc == 0)
            dlog(d, "study %s: resumed (left unfinished by a previous daemon)",
                 ids[i]);
    }
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
    return rc;
}

/* The daemon's identity ("host-pid"), lock TTL and key names. */
static void daemon_init(daemon *d, const dse_store_spec *spec,
                        const dse_serve_opts *o, volatile sig_atomic_t *stop)
{
    *d = (daemon){.spec = spec, .o = o, .stop = stop};
    d->lock_ttl_ms = o->lock_ttl_ms > 0 ? o->lock_ttl_ms : LOCK_TTL_MS;
    pthread_mutex_init(&d->log_lock, NULL);
    pthread_mutex_init(&d->tok_lock, NULL);
    char host[64];
    if (gethostname(host, sizeof host))
        snprintf(host, sizeof host, "serve");
    host[sizeof host - 1] = '\0';
    snprintf(d->name, sizeof d->name, "%s-%ld", host, (long)getpid());
    key_of(&o->farm, "studies:queue", d->k_queue, sizeof d->k_queue);
    key_of(&o->farm, "studies:running", d->k_running, sizeof d->k_running);
    key_of(&o->farm, "serve:lock", d->k_lock, sizeof d->k_lock);
    key_of(&o->farm, "serve:lock:gen", d->k_gen, sizeof d->k_gen);
}

/* Waits for the daemons' lock (one daemon serves a farm at a time), then
 * takes back the studies a previous holder left running.  0 when this
 * daemon holds the lock, 1 when stopped while waiting, or < 0. */
static int become_holder(daemon *d, dse_store *st, err *e)
{
    int rc = st->ops->ping(st->self, e);
    if (rc)
        return rc;
    int logged = 0;
    for (;;) {
        rc = take_lock(d, st, e);
        if (rc < 0)
            return rc;
        if (rc == 1)
            break;
        if (!logged++)
            dlog(d, "another daemon holds %s; waiting for it to go",
                 d->k_lock);
        dse__farm_sleep(1.0, d->stop);
        if (*d->stop)
            return 1;
    }
    return resume(d, st, e);
}

/* The runners, one thread each, while the lock is refreshed five times
 * per TTL; on a signal, or when the lock turns out to be someone else's,
 * the runners stop, the studies in progress go back to the queue (unless
 * the new holder has them) and the lock is released if still ours. */
static void serve(daemon *d, dse_store *st)
{
    const dse_serve_opts *o = d->o;
    runner *rs = xcalloc((size_t)o->concurrent, sizeof *rs);
    pthread_t *th = xcalloc((size_t)o->concurrent, sizeof *th);
    for (int i = 0; i < o->concurrent; i++) {
        rs[i].d = d;
        pthread_create(&th[i], NULL, runner_main, &rs[i]);
    }
    double refresh_s = (double)d->lock_ttl_ms / 5000.0;
    while (!*d->stop && !d->lost) {
        dse__farm_sleep(refresh_s, d->stop);
        if (!*d->stop && !d->lost && take_lock(d, st, NULL) == 0 &&
            regain_lock(d, st, NULL) == 0) {
            d->lost = 1;
            dlog(d, "lost %s to another daemon: taking no more work",
                 d->k_lock);
        }
    }
    d->halt = 1;
    if (d->lost)
        dlog(d, "stopping: another daemon took over; leaving the studies "
                "in progress to it");
    else
        dlog(d, "stopping: no new studies; requeueing the ones in progress");
    for (int i = 0; i < o->concurrent; i++)
        rs[i].stop_study = 1;
    for (int i = 0; i < o->concurrent; i++)
        pthread_join(th[i], NULL);
    if (!d->lost)
        requeue_running(d, st);
    /* release the lock if it is still ours (fenced: not a successor's) */
    if (!d->lost) {
        dse_store_cmd c;
        cmd_of(&c, "DEL", d->k_lock, NULL);
        dse_store_fence f = {d->k_lock, d->token, 0};
        st->ops->fenced(st->self, &f, &c, 1, NULL);
    }
    free(rs);
    free(th);
}

int dse_serve_run(const dse_store_spec *spec, const dse_serve_opts *o,
                  volatile sig_atomic_t *stop, err *e)
{
    int rc = dse_farm_opts_check(&o->farm, e);
    if (rc)
        return rc;
    if (o->concurrent < 1 || o->concurrent > 64)
        return err_set(e, ERR_CONFIG, "--concurrent: 1 to 64");
    struct stat sb;
    if (stat(o->output_root, &sb) || !S_ISDIR(sb.st_mode))
        return err_set(e, ERR_CONFIG, "--output-root %s: not a directory",
                       o->output_root);
    daemon d;
    daemon_init(&d, spec, o, stop);
    dse_store st;
    dse_store_open(spec, &st);
    rc = become_holder(&d, &st, e);
    if (rc) {
        dse_store_close(&st);
        return rc == 1 ? 0 : rc;
    }
    dlog(&d, "daemon %s: %d study at a time, reports under %s", d.name,
         o->concurrent, o->output_root);
    serve(&d, &st);
    dse_store_close(&st);
    dlog(&d, "stopped");
    pthread_mutex_destroy(&d.log_lock);
    pthread_mutex_destroy(&d.tok_lock);
    if (d.lost)
        return err_set(e, ERR_REDIS,
                       "lost the lock %s to another daemon (this one was "
                       "paused or cut off past the lock's %ld ms expiry); "
                       "stopped so that no study runs twice",
                       d.k_lock, d.lock_ttl_ms);
    return 0;
}
