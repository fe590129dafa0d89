/*
 * farm.h — the Redis worker farm: the optimizer's executor that sends its
 * jobs to `dse worker` processes (farm_exec.c), and the worker itself
 * (farm_worker.c).  The protocol is in docs/farm.md; in short:
 *
 *   PREFIX jobs           stream, consumer group "workers": one entry per
 *                         job (fields key, job, reply)
 *   PREFIX result:KEY     the result JSON of the job whose key is KEY
 *   PREFIX reply:ID       stream per coordinator: (key, status done|dead,
 *                         reason) as jobs finish
 *   PREFIX dead           dead-letter stream: (key, job, reason, worker,
 *                         deliveries)
 *   PREFIX workers        sorted set: worker name -> last heartbeat (ms,
 *                         Redis clock)
 *   PREFIX worker:NAME    hash: the worker's host, pid, slots, busy, done
 *   PREFIX stats          hash: done, dead, cached, reclaimed counters
 *
 * A worker acknowledges (XACK + XDEL) only after the result is stored; an
 * entry left pending longer than the visibility timeout is claimed by
 * another worker (XAUTOCLAIM); a worker keeps its own long jobs visible by
 * touching them with every heartbeat (XCLAIM JUSTID); an entry delivered
 * more than max_deliveries times, or one that cannot be parsed, goes to
 * the dead-letter stream with its reason and the coordinator reports it.
 */
#ifndef DSE_FARM_H
#define DSE_FARM_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "dse/farm/job.h"
#include "dse/search/optimize.h"
#include "dse/farm/store.h"

#define DSE_FARM_PREFIX_MAX 64
/* Expiry of a coordinator's reply stream (PREFIX reply:ID): set by every
 * announcement and refreshed by the coordinator while it waits, so the
 * stream of a coordinator that was killed goes within ten minutes. */
#define DSE_FARM_REPLY_TTL_MS (10L * 60 * 1000)
#define DSE_FARM_GROUP "workers"

typedef struct dse_farm_opts {
    char prefix[DSE_FARM_PREFIX_MAX]; /* "dse:" */
    double visibility_s;      /* pending this long without a heartbeat
                                 touch: reclaimed (30) */
    int max_deliveries;       /* delivered more often: dead letter (3) */
    double heartbeat_s;       /* worker heartbeat period (1) */
    double worker_timeout_s;  /* no heartbeat this long: worker dead (10) */
    double no_worker_timeout_s; /* coordinator: fail after this long with
                                   no worker alive (60) */
    double redis_timeout_s;   /* coordinator: fail after Redis has been
                                 unreachable this long (30) */
    long result_ttl_s;        /* results expire after this (0: never) */
    dse_secret secret;        /* seals and checks results (job.h); empty:
                                 results are trusted if well-formed */
} dse_farm_opts;

void dse_farm_opts_init(dse_farm_opts *o);
/* 0, or ERR_CONFIG if a value is out of range (prefix length or bytes,
 * timeouts <= 0, visibility below 2 heartbeats). */
int dse_farm_opts_check(const dse_farm_opts *o, err *e);
/* The farm secret from the environment: DSE_FARM_SECRET (the text) or
 * DSE_FARM_SECRET_FILE (a file's bytes, one trailing newline dropped).
 * Neither set: 0 and out->len = 0.  ERR_CONFIG when the file cannot be
 * read or the secret is shorter than 16 bytes or longer than
 * DSE_SECRET_MAX. */
int dse_farm_secret_from_env(dse_secret *out, err *e);

/* The farm's secret check value, stored at PREFIX secret by every
 * coordinator and worker that has a secret: HMAC-SHA256(secret, a fixed
 * text) in hex.  It tells a machine without the secret, or with another
 * one, that its results would be refused, before it takes any work; it
 * reveals nothing of the secret. */
#define DSE_FARM_TAG_HEX 64
void dse_farm_secret_tag(const dse_secret *sec, char out[DSE_FARM_TAG_HEX + 1]);
/* 0 when tag (PREFIX secret's value; NULL: absent) agrees with o's secret:
 * absent, or the check value of o's secret.  ERR_CONFIG with what to do
 * otherwise; who is "worker" or "coordinator", for the message. */
int dse_farm_secret_matches(const dse_farm_opts *o, const char *tag,
                            const char *who, err *e);

/* Read a small secret file (password, farm secret) into buf, dropping one
 * trailing newline; *len its length.  0 or ERR_CONFIG. */
int dse__farm_read_secret(const char *path, char *buf, size_t size,
                          size_t *len, err *e);

/* PREFIX + name into buf. */
void dse_farm_key(const dse_farm_opts *o, const char *name, char *buf,
                  size_t size);

/* ---- coordinator ------------------------------------------------------ */

/* What the farm is doing, for progress lines and the daemon's status. */
typedef struct dse_farm_status {
    const char *phase;        /* "score", "simulate" */
    size_t total, done, cached, failed;
    size_t pending, running;  /* of this batch; running is estimated from
                                 the group's pending-entries count */
    size_t workers;           /* alive (heartbeat within worker_timeout) */
} dse_farm_status;

typedef struct dse_farm dse_farm;

/* Connect to the store and check it answers.  0, or ERR_REDIS (cannot be
 * reached), ERR_INVALID (refused: authentication), ERR_CONFIG (options)
 * with the reason.  *out is NULL on failure. */
int dse_farm_create(const dse_store_spec *spec, const dse_farm_opts *o,
                    dse_farm **out, err *e);
void dse_farm_destroy(dse_farm *f);     /* accepts NULL */
/* dse_farm_create from a redis:// URL (ERR_CONFIG if malformed). */
int dse_farm_open_url(const char *url, const dse_farm_opts *o, dse_farm **out,
                      err *e);
/* Print the failed jobs (dead letters) of the runs so far, if any, as
 * "farm: N job(s) failed ..." lines to out. */
void dse_farm_print_failures(const dse_farm *f, FILE *out);
/* The executor to put in dse_optimize_opts (borrows f). */
void dse_farm_executor(dse_farm *f, dse_executor *ex);
/* Called about once a second while a batch runs (from the calling
 * thread). */
void dse_farm_set_status_hook(dse_farm *f,
                              void (*fn)(void *ctx, const dse_farm_status *st),
                              void *ctx);
/* Jobs of the runs so far that failed on the farm (dead-lettered): count,
 * and the reasons (borrowed, valid until destroy). */
size_t dse_farm_failures(const dse_farm *f, const char *const **reasons);
/* Results answered from the store without running (cache hits), so far. */
size_t dse_farm_cached(const dse_farm *f);

/* ---- worker ----------------------------------------------------------- */

typedef struct dse_worker_opts {
    dse_farm_opts farm;
    int slots;                /* jobs run at once (threads), >= 1 */
    char name[128];           /* consumer name; "" = HOST-PID-RANDOM */
    dse_job_limits limits;
    /* Log lines (connection lost/back, dead letters); may be NULL. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
} dse_worker_opts;

void dse_worker_opts_init(dse_worker_opts *o);

/* Serve jobs until *stop becomes non-zero, then finish the jobs in hand,
 * deregister and return 0.  *hard_stop (may be NULL) aborts running
 * simulations too (their jobs stay pending and are reclaimed elsewhere).
 * Redis going away is not an error: the worker reconnects with backoff.
 * Returns ERR_INVALID/ERR_CONFIG for what retrying cannot fix (refused
 * authentication, bad options). */
int dse_worker_run(const dse_store_spec *spec, const dse_worker_opts *o,
                   volatile sig_atomic_t *stop,
                   volatile sig_atomic_t *hard_stop, err *e);

/* ---- shared by the farm's files ---------------------------------------- */

/* Sleep s seconds, waking early when *stop (may be NULL) is set. */
void dse__farm_sleep(double s, volatile sig_atomic_t *stop);

#endif
