/*
 * job.h — the farm's jobs and results as JSON (docs/farm.md, version 1).
 *
 * A job is one of the optimizer's independent units of work:
 *   score  one design with its analytic model at the study's target rates
 *          (what dse_score_design does), and
 *   sim    one simulation (sim_run of one sim_params), and
 *   saturation  one design's saturation search (sim_saturation), so the
 *          farm runs the decision rounds' saturation step too and its
 *          answers are cached by content like the others.
 * Its canonical description is its JSON with sorted keys, no spaces and
 * doubles printed with 17 significant digits (exact round trip); the job's
 * key is the XXH3-128 hash of that text in hex.  The text carries the dse
 * engine version (dse_version_string), so results of other code are never
 * mistaken for this code's, and nothing that does not change the result
 * (stop flags, progress callbacks, thread counts) is in it: the same job
 * from any study has the same key, and its result is reused.
 *
 * Parsing is strict (the worker's defence against malformed or hostile
 * jobs): unknown fields, wrong types, out-of-range numbers, sizes over the
 * worker's limits, an unknown engine version, an invalid or unsupported
 * design are all refused with a reason and never reach a model or the
 * simulator.
 *
 * Results: the numbers a score or sim job produced, as JSON with the same
 * version and the job's key; doubles round-trip exactly (NaN as null,
 * infinities as "inf"/"-inf"), so a farm run is bit-identical to a local
 * one.
 *
 * Ownership: format functions return a string the caller frees; dse_job
 * and dse_job_result own their arrays (fini frees them).
 */
#ifndef DSE_JOB_H
#define DSE_JOB_H

#include <signal.h>
#include <stddef.h>

#include "dse/study/cfg.h"
#include "dse/search/optimize.h"
#include "sim/sim.h"

#define DSE_JOB_VERSION 1
#define DSE_JOB_KEY_LEN 32           /* hex digits of XXH3-128 */
#define DSE_JOB_TEXT_MAX (64 * 1024) /* longer job texts are refused */

typedef enum {
    DSE_JOB_SCORE = 0,
    DSE_JOB_SIM = 1,
    DSE_JOB_SATURATION = 2
} dse_job_kind;

/* "score", "sim" or "saturation". */
const char *dse_job_kind_name(dse_job_kind kind);

/* What a worker accepts (beyond the study's own limits). */
typedef struct dse_job_limits {
    long max_nodes;          /* network size (1 << 20) */
    long max_messages;       /* warm-up + measured messages of one sim job
                                (50 000 000) */
    size_t max_rates;        /* target rates of one score job (10 000) */
    long max_cycles;         /* a sim job's cycle cap (0 = none) must be
                                at most this (10^11) */
    double max_sim_bytes;    /* a sim job's estimated memory
                                (sim_memory_estimate; 2 GiB) */
    double max_work;         /* a sim job's estimated router-cycles
                                (sim_work_estimate; 10^12, about half a
                                day at 2.5e7 router-cycles/s) */
    double max_score_work;   /* a score job's estimated model steps
                                (dse_job_score_work; 10^12) */
} dse_job_limits;

void dse_job_limits_init(dse_job_limits *l);

typedef struct dse_job {
    dse_job_kind kind;
    net_design design;
    net_workload workload;
    /* score */
    const model *model;      /* static registry entry; NULL: none covers */
    model_opts model_opts;
    double *rates;           /* owned, [nrates] */
    size_t nrates;
    cfg_objective objectives[CFG_MAX_OBJECTIVES];
    size_t nobjectives;
    /* sim and saturation: everything but the callbacks and the stop flag
     * (a saturation job keeps only what sim_saturation reads) */
    sim_params sim;
} dse_job;

/* The score job of design d (model m may be NULL) in study s. */
void dse_job_score_init(dse_job *j, const cfg_study *s, const net_design *d,
                        const model *m);
/* The sim job of p (its stop flag and callbacks are not part of it). */
void dse_job_sim_init(dse_job *j, const sim_params *p);
/* The saturation-search job of p's design: only what sim_saturation reads
 * (design, workload, seed, max_cycles, credit_delay, deadlock_cycles) is
 * kept, so studies that differ in rates or message counts share it. */
void dse_job_saturation_init(dse_job *j, const sim_params *p);
/* The sim (DSE_JOB_SIM) or saturation job of p. */
void dse_job_of_params_init(dse_job *j, dse_job_kind kind,
                            const sim_params *p);
void dse_job_fini(dse_job *j);

/* Upper bound on the work of score job j (kind DSE_JOB_SCORE, design,
 * model, rates and model_opts set), in model steps, computed without
 * running a model: what a worker checks before it runs an untrusted job.
 * Every model evaluation costs at most a per-evaluation set-up (the hop
 * distributions the models build: (diameter + 1) x sum over dimensions of
 * (k_i / 2 + 1)) plus max_iterations fixed-point iterations of
 * (n + 1) x (vcs + n) each; a job makes one evaluation per rate and at
 * most DSE_JOB_SCORE_SEARCH_EVALS for its saturation rate.  0 when no
 * model covers the design (only its cost is computed). */
#define DSE_JOB_SCORE_SEARCH_EVALS 64
double dse_job_score_work(const dse_job *j);

/* Canonical JSON text (caller frees). */
char *dse_job_format(const dse_job *j);
/* Key of a canonical text: DSE_JOB_KEY_LEN hex digits and a NUL. */
void dse_job_key(const char *canonical, char key[DSE_JOB_KEY_LEN + 1]);

/* Parse and validate a job text against the limits.  0 and *j filled (call
 * dse_job_fini), or ERR_INVALID (malformed), ERR_INFEASIBLE (invalid
 * design), ERR_UNSUPPORTED (no model / not simulated) with the reason in e;
 * *j is then empty.  When key is non-NULL it must equal the key of the
 * job's canonical text (a job whose id does not match its content is
 * refused: its result would poison the cache). */
int dse_job_parse(const char *text, const dse_job_limits *lim, const char *key,
                  dse_job *j, err *e);

/* ---- results ---------------------------------------------------------- */

typedef struct dse_job_result {
    dse_job_kind kind;
    /* score: the candidate's numbers as dse_score_design leaves them */
    int score_rc;
    cons_cost cost;
    int flits;
    double zero_load, saturation_rate;
    double *latency;         /* owned, [nrates] */
    size_t nrates;
    int saturated_at_target;
    double objectives[CFG_MAX_OBJECTIVES];
    size_t evaluations;
    /* sim and saturation */
    int sim_code;            /* sim_run's / sim_saturation's return value */
    sim_result sim;
    sim_saturation_result sat;
} dse_job_result;

/* Run j (the worker's part).  hard_stop may be NULL; a sim or saturation
 * job stopped by it ends with status SIM_STOPPED (dse_job_result_stopped),
 * which is not a result to store. */
void dse_job_run(const dse_job *j, volatile sig_atomic_t *hard_stop,
                 dse_job_result *r);
void dse_job_result_fini(dse_job_result *r);
/* 1 when r is a sim or saturation job cut short by the hard stop. */
int dse_job_result_stopped(const dse_job_result *r);

/* JSON text of r for the job with this key (caller frees). */
char *dse_job_result_format(const dse_job_result *r, const char *key);
/* Parse a result of the given kind and key (nrates: what the job had).
 * 0, or ERR_INVALID (corrupt, other version, other key, made by another
 * engine than this program's). */
int dse_job_result_parse(const char *text, const char *key, dse_job_kind kind,
                         size_t nrates, dse_job_result *r, err *e);

/* ---- authenticated results (farm secret) ------------------------------
 *
 * With a farm secret (DSE_FARM_SECRET / DSE_FARM_SECRET_FILE) workers
 * seal every result they store and coordinators and workers accept only
 * sealed results whose MAC checks: HMAC-SHA256 with the secret over
 * "KEY\n" + the result text, so a result cannot be planted, altered, or
 * copied to another job's key by someone who can write to Redis but does
 * not hold the secret.  The sealed text is the result's JSON with a first
 * field "mac" (64 hex digits): {"mac":"...",<the rest of the text>}. */
#define DSE_SECRET_MAX 256
typedef struct dse_secret {
    unsigned char bytes[DSE_SECRET_MAX];
    size_t len;               /* 0: no secret, results are not sealed */
} dse_secret;

/* The sealed text of result text for key (caller frees); a copy of text
 * when sec is NULL or empty. */
char *dse_job_result_seal(const char *text, const char *key,
                          const dse_secret *sec);
/* 0 when sec is NULL or empty, or text is sealed for key with sec;
 * ERR_INVALID ("not sealed", "MAC mismatch") otherwise. */
int dse_job_result_verify(const char *text, const char *key,
                          const dse_secret *sec, err *e);

/* Fill candidate c from a score result, exactly as dse_score_design would
 * have (design and model are the coordinator's own). */
void dse_job_result_to_candidate(const dse_job_result *r, const net_design *d,
                                 const model *m, dse_candidate *c);
/* Fill c as an unscored candidate (a job that failed on the farm). */
void dse_job_candidate_failed(const net_design *d, const model *m,
                              size_t nrates, int code, dse_candidate *c);

#endif
