/*
 * farm_serve.h — the daemon (`dse serve`) and its clients (`dse submit`,
 * `dse status`): studies submitted to Redis, run one after another (or a
 * few at once) on the farm, their reports written under the daemon's
 * output root, their status kept in Redis.
 *
 * Keys (under the farm prefix):
 *   studies:next      counter: the last study id given
 *   studies           list: every study id, in submission order
 *   studies:queue     list: ids waiting to run
 *   studies:running   list: ids a daemon has taken (a restarted daemon
 *                     puts them back at the head of the queue)
 *   study:ID          hash: id, name, status (queued, running, done,
 *                     failed, refused), submitted/started/finished (Unix
 *                     seconds), yaml, phase, done, total, workers, report,
 *                     reason, failed_jobs
 *   serve:lock        the running daemon's token "NAME GEN" (expires 15 s
 *                     after its last refresh): one daemon per prefix
 *   serve:lock:gen    counter: GEN of the last token given (fencing: a
 *                     daemon whose token is no longer in serve:lock
 *                     changes nothing and exits)
 *
 * A submitted study is untrusted input: its YAML is parsed again by the
 * daemon and its size is checked against the daemon's limits.  Its report
 * goes to OUTPUT_ROOT/ID (the study's report.directory is ignored), so a
 * study can neither escape the root nor replace another study's report.
 */
#ifndef DSE_FARM_SERVE_H
#define DSE_FARM_SERVE_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>

#include "dse/farm/farm.h"

#define DSE_SUBMIT_MAX (1024 * 1024) /* bytes of study YAML */
#define DSE_STUDY_ID_MAX 32

typedef struct dse_serve_limits {
    long max_nodes;           /* 65536 */
    size_t max_designs;       /* feasible designs in the space (20000) */
    size_t max_enumerated;    /* combinations looked at to find them,
                                 counted before building (1000000) */
    size_t max_rates;         /* target rates (64) */
    double max_sim_messages;  /* finalists x rates x seeds x (warm-up +
                                 most measured messages) (2e9) */
} dse_serve_limits;

typedef struct dse_serve_opts {
    dse_farm_opts farm;
    char output_root[PATH_MAX];
    int concurrent;           /* studies run at once (1) */
    dse_serve_limits limits;
    int threads;              /* local threads for the non-farm parts */
    long lock_ttl_ms;         /* serve:lock expiry (0: 15000), refreshed
                                 five times per expiry */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
} dse_serve_opts;

void dse_serve_opts_init(dse_serve_opts *o);

/* The design space's combinations, counted without enumerating them
 * (dse_space_enumerated: microseconds, no allocation), against max:
 * 0, or ERR_CONFIG naming the count and "whose" limit it exceeds ("this
 * farm's", "dse check's").  What the daemon and dse check run before
 * building a space. */
int dse_serve_check_enumerated(const cfg_study *s, size_t max,
                               const char *whose, err *e);

/* Check a study against the limits: counts its design space's
 * combinations first (dse_space_enumerated, no allocation) and builds the
 * space only under max_enumerated, polling *stop (may be NULL) as it goes.
 * 0; ERR_CONFIG with the reason; ERR_INTERRUPTED when *stop became
 * non-zero (the study is not refused: the caller puts it back). */
int dse_serve_check_limits(const cfg_study *s, const dse_serve_limits *l,
                           const volatile sig_atomic_t *stop, err *e);

/* The report directory of study id: root/id (one directory per study,
 * whatever its report.directory says, so no study can name another's
 * report or a parent of it).  ERR_CONFIG when id is not a decimal id (ids
 * are read from Redis) or root/id exists and is not a dse report
 * (dse_report_dir_check). */
int dse_serve_report_path(const char *root, const char *id, char *out,
                          size_t size, err *e);

/* Run the daemon until *stop: take queued studies, run them, record
 * status.  On stop, a study in progress is interrupted and put back at the
 * head of the queue (its finished jobs stay cached, so resuming is quick).
 * Returns 0, or ERR_REDIS / ERR_INVALID / ERR_CONFIG with the reason. */
int dse_serve_run(const dse_store_spec *spec, const dse_serve_opts *o,
                  volatile sig_atomic_t *stop, err *e);

/* Submit a study (its YAML text; name for messages).  The text is checked
 * to parse first.  id receives the new study's id. */
int dse_serve_submit(const dse_store_spec *spec, const dse_farm_opts *fo,
                     const char *yaml, const char *name,
                     char id[DSE_STUDY_ID_MAX], err *e);

#endif
