/*
 * studies.h — reading the daemon's studies for the people who use the
 * farm: one study's record with its elapsed time and ETA (dse status,
 * dse status --json, the web page of dse serve --http), cancelling one
 * (dse cancel), and fetching a finished study's report files through
 * Redis (dse results).
 *
 * Keys (under the farm prefix; the rest are in farm_serve.h):
 *   study:ID          hash, as farm_serve.h, plus phase_started (Unix
 *                     seconds the current phase began, for the ETA) and
 *                     cancel (set by dse cancel; the daemon stops the
 *                     study and marks it cancelled)
 *   cancel:ID         string, set by dse cancel beside study:ID's field
 *                     (expires after a day): what the daemon polls about
 *                     once a second for a running study, a small read
 *                     where study:ID holds the study's YAML
 *   report:ID         hash: file name -> content, the finished study's
 *                     report files (index.html, report.md, candidates.csv,
 *                     results.json, curves.csv, curves.json), at most DSE_REPORT_STORE_MAX bytes
 *                     in all; absent when larger (study:ID's field
 *                     report_stored says why)
 *
 * ETA: the current phase's remaining jobs at the rate its finished jobs
 * came (elapsed in the phase / done x (total - done)); unknown (-1) before
 * the first job of the phase finishes.  It is the phase's ETA: scoring is
 * followed by the simulations, whose count is not known before.
 */
#ifndef DSE_STUDIES_H
#define DSE_STUDIES_H

#include <jansson.h>
#include <stddef.h>

#include "dse/farm/farm.h"

#define DSE_REPORT_STORE_MAX (32L * 1024 * 1024)
#define DSE_CANCEL_TTL_MS (24L * 3600 * 1000)

typedef struct dse_study_info {
    char id[32];
    char name[128];
    char status[16];          /* queued running done failed refused
                                 cancelled */
    char phase[32];           /* checking, score, simulate, search */
    long long submitted, started, finished, phase_started; /* 0: not yet */
    long long done, total, workers;
    long long failed_jobs;
    int cancel_requested;
    char report[4096];        /* report directory on the daemon's machine */
    char reason[1200];
    int report_stored;        /* report:ID holds its files */
    /* computed (by dse_study_get / list, at time now) */
    double elapsed_s;         /* since started (to finished); -1 not started */
    double eta_s;             /* -1 unknown */
    double progress;          /* done / total of the phase, -1 unknown */
} dse_study_info;

/* One study, read at Unix time now (0: the local clock).  0; ERR_INVALID
 * when no such study ("no study ID"); ERR_REDIS. */
int dse_study_get(dse_store *st, const dse_farm_opts *fo, const char *id,
                  long long now, dse_study_info *out, err *e);
/* The last `max` studies (submission order).  *out owned by the caller
 * (free()). */
int dse_study_list(dse_store *st, const dse_farm_opts *fo, size_t max,
                   long long now, dse_study_info **out, size_t *n, err *e);
/* The study as a JSON object (new reference). */
json_t *dse_study_json(const dse_study_info *s);

/* Ask the daemon to cancel a study: a queued one is taken off the queue
 * and marked cancelled at once; a running one is stopped by the daemon
 * within about a second.  0; ERR_INVALID (no such study, or already
 * finished: the reason in e); ERR_REDIS. *was_running (may be NULL) says
 * which case. */
int dse_study_cancel(dse_store *st, const dse_farm_opts *fo, const char *id,
                     int *was_running, err *e);

/* The report file names a study may have, NULL-terminated (the four
 * above, and curves.csv and curves.json when the report writes them). */
extern const char *const dse_report_files[];

/* Store the report files of directory dir as report:ID (bounded by
 * DSE_REPORT_STORE_MAX).  fence (may be NULL): store them only while
 * fence->key holds fence->token, in one atomic step (the daemon's lock,
 * dse_store_ops.fenced); fence->held says whether they were.  0;
 * ERR_CONFIG when over the bound (nothing stored; the reason in e);
 * ERR_IO; ERR_REDIS. */
int dse_study_store_report(dse_store *st, const dse_farm_opts *fo,
                           const char *id, const char *dir,
                           dse_store_fence *fence, err *e);
/* Write a finished study's stored report into a new directory out_dir
 * (created; refuses an existing non-empty one), atomically: the files go
 * to a temporary directory beside it, renamed into place when complete.
 * 0; ERR_INVALID (no such study, not done, report not stored, out_dir not
 * empty); ERR_IO; ERR_REDIS.  *nfiles (may be NULL): files written. */
int dse_study_fetch_report(dse_store *st, const dse_farm_opts *fo,
                           const char *id, const char *out_dir,
                           size_t *nfiles, err *e);

/* A study id is 1 to 20 decimal digits. */
int dse_study_id_ok(const char *id);

#endif
