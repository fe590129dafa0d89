/*
 * job.c — see job.h.  The JSON layout is documented in docs/farm.md.
 *
 * Design: jobs carry designs and workloads in net's canonical text
 * (net_design_format / net_workload_format), the one serialisation reports
 * and the CLI share, rather than a second JSON schema of every field; the
 * rest is flat JSON.  Parsing is a whitelist: every field is looked up by
 * name with its type and range, and any field left over is an error, so a
 * misspelt or injected field is refused instead of silently ignored.
 *
 * Rejected alternative: hashing the struct bytes for the key.  Padding,
 * irrelevant fields (express parameters of a torus) and the stop-flag
 * pointer would make equal jobs hash differently.
 */
#include "dse/farm/job.h"

#include <jansson.h>
#include <math.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "dse/dse.h"
#include "net/xalloc.h"

void dse_job_limits_init(dse_job_limits *l)
{
    l->max_nodes = 1L << 20;
    l->max_messages = 50000000;
    l->max_rates = 10000;
    l->max_cycles = 100000000000L;
    l->max_sim_bytes = 2.0 * 1024 * 1024 * 1024;
    l->max_work = 1e12;
    l->max_score_work = 1e12;
}

/* ---- a score job's work ------------------------------------------------
 *
 * Bounded from what every model does (models/model_int.h): per
 * evaluation, distributions over hop counts (up to the diameter) built
 * dimension by dimension (up to k_i / 2 hops in each), then the damped
 * fixed point (models/solver.c) of at most max_iterations rounds over
 * per-dimension and per-VC unknowns; the saturation search
 * (model_saturation_rate: doubling from 1e-6, halving to 1e-15, then
 * bisection to 1e-4) makes at most 41 + 14 or 1 + 30 + 14 evaluations,
 * rounded up to DSE_JOB_SCORE_SEARCH_EVALS.  A step is about 10 ns in a
 * Release build (measured: a 16384-node ring's set-up of 6.7e7 steps,
 * about 0.5 s per evaluation; 25 times that under ASan), so the default
 * limit of 10^12 is a few hours.  Deliberately pessimistic (a converging
 * model stops long before max_iterations): it exists to refuse hostile
 * jobs (10^7 iterations at a tiny damping, 10^4 rates, a million-node
 * ring) before they run, not to predict a normal job's time. */
double dse_job_score_work(const dse_job *j)
{
    if (j->kind != DSE_JOB_SCORE || !j->model)
        return 0;
    const net_design *d = &j->design;
    double hops = 0;
    for (int i = 0; i < d->n; i++)
        hops += (double)(d->k[i] / 2) + 1;
    double setup = ((double)net_diameter(d) + 1) * hops;
    double step = ((double)d->n + 1) * ((double)d->vcs + (double)d->n);
    double evals = (double)j->nrates + DSE_JOB_SCORE_SEARCH_EVALS;
    return evals * (setup + (double)j->model_opts.max_iterations * step);
}

const char *dse_job_kind_name(dse_job_kind kind)
{
    switch (kind) {
    case DSE_JOB_SCORE:
        return "score";
    case DSE_JOB_SIM:
        return "sim";
    case DSE_JOB_SATURATION:
        return "saturation";
    }
    return "?";
}

/* ---- building --------------------------------------------------------- */

void dse_job_score_init(dse_job *j, const cfg_study *s, const net_design *d,
                        const model *m)
{
    memset(j, 0, sizeof *j);
    j->kind = DSE_JOB_SCORE;
    j->design = *d;
    j->workload = s->workload;
    j->model = m;
    j->model_opts = s->model;
    j->nrates = s->rates.n;
    j->rates = xcalloc(s->rates.n + 1, sizeof *j->rates);
    memcpy(j->rates, s->rates.v, s->rates.n * sizeof *j->rates);
    j->nobjectives = s->nobjectives;
    memcpy(j->objectives, s->objectives, sizeof j->objectives);
    sim_params_init(&j->sim);
}

void dse_job_sim_init(dse_job *j, const sim_params *p)
{
    memset(j, 0, sizeof *j);
    j->kind = DSE_JOB_SIM;
    j->design = p->design;
    j->workload = p->workload;
    j->sim = *p;
    j->sim.progress = NULL;
    j->sim.progress_ctx = NULL;
    j->sim.stop_flag = NULL;
    model_opts_init(&j->model_opts);
}

void dse_job_saturation_init(dse_job *j, const sim_params *p)
{
    sim_params q;
    sim_params_init(&q);
    q.design = p->design;
    q.workload = p->workload;
    q.seed = p->seed;
    q.max_cycles = p->max_cycles;
    q.credit_delay = p->credit_delay;
    q.deadlock_cycles = p->deadlock_cycles;
    q.saturation_ceiling = p->saturation_ceiling;
    q.saturation_bound = p->saturation_bound;
    dse_job_sim_init(j, &q);
    j->kind = DSE_JOB_SATURATION;
}

void dse_job_of_params_init(dse_job *j, dse_job_kind kind,
                            const sim_params *p)
{
    if (kind == DSE_JOB_SATURATION)
        dse_job_saturation_init(j, p);
    else
        dse_job_sim_init(j, p);
}

void dse_job_fini(dse_job *j)
{
    if (!j)
        return;
    free(j->rates);
    memset(j, 0, sizeof *j);
}

/* ---- doubles in JSON -------------------------------------------------- */

/* NaN -> null, +-inf -> "inf"/"-inf", else a number (17 digits). */
static json_t *real_json(double v)
{
    if (isnan(v))
        return json_null();
    if (isinf(v))
        return json_string(v > 0 ? "inf" : "-inf");
    return json_real(v);
}

static int real_of(const json_t *x, double *out)
{
    if (json_is_null(x)) {
        *out = NAN;
        return 0;
    }
    if (json_is_string(x)) {
        if (strcmp(json_string_value(x), "inf") == 0)
            *out = INFINITY;
        else if (strcmp(json_string_value(x), "-inf") == 0)
            *out = -INFINITY;
        else
            return -1;
        return 0;
    }
    if (!json_is_number(x))
        return -1;
    *out = json_number_value(x);
    return 0;
}

/* ---- formatting ------------------------------------------------------- */

static void set_text(json_t *o, const char *key, const char *text)
{
    json_object_set_new(o, key, json_string(text));
}

char *dse_job_format(const dse_job *j)
{
    json_t *o = json_object();
    char buf[2048];
    json_object_set_new(o, "v", json_integer(DSE_JOB_VERSION));
    set_text(o, "engine", dse_version_string());
    set_text(o, "kind", dse_job_kind_name(j->kind));
    net_design_format(&j->design, buf, sizeof buf);
    set_text(o, "design", buf);
    net_workload_format(&j->workload, buf, sizeof buf);
    set_text(o, "workload", buf);
    if (j->kind == DSE_JOB_SCORE) {
        json_object_set_new(o, "model", j->model ? json_string(j->model->name)
                                                 : json_null());
        json_t *mo = json_object();
        set_text(mo, "variant", model_variant_name(j->model_opts.variant));
        json_object_set_new(mo, "tolerance", real_json(j->model_opts.tolerance));
        json_object_set_new(mo, "max_iterations",
                            json_integer(j->model_opts.max_iterations));
        json_object_set_new(mo, "damping", real_json(j->model_opts.damping));
        json_object_set_new(o, "model_opts", mo);
        json_t *rates = json_array();
        for (size_t i = 0; i < j->nrates; i++)
            json_array_append_new(rates, real_json(j->rates[i]));
        json_object_set_new(o, "rates", rates);
        json_t *obj = json_array();
        for (size_t i = 0; i < j->nobjectives; i++)
            json_array_append_new(obj,
                                  json_string(cfg_objective_name(&j->objectives[i])));
        json_object_set_new(o, "objectives", obj);
    } else if (j->kind == DSE_JOB_SATURATION) {
        const sim_params *p = &j->sim;
        json_object_set_new(o, "seed", json_integer((json_int_t)p->seed));
        json_object_set_new(o, "max_cycles", json_integer(p->max_cycles));
        json_object_set_new(o, "credit_delay", json_integer(p->credit_delay));
        json_object_set_new(o, "deadlock_cycles",
                            json_integer(p->deadlock_cycles));
        /* only when set: a whole search's job text (its cache key) is the
         * same as before the one-probe question existed */
        if (p->saturation_ceiling > 0)
            json_object_set_new(o, "ceiling",
                                real_json(p->saturation_ceiling));
        /* the bound decides which answers the search confirms (so it
         * is part of the job, and of its cache key), when known */
        if (p->saturation_bound > 0)
            json_object_set_new(o, "bound", real_json(p->saturation_bound));
    } else {
        const sim_params *p = &j->sim;
        json_object_set_new(o, "rate", real_json(p->rate));
        json_object_set_new(o, "seed", json_integer((json_int_t)p->seed));
        json_object_set_new(o, "warmup", json_integer(p->warmup_messages));
        set_text(o, "stop", p->stop == SIM_STOP_CI ? "ci" : "messages");
        json_object_set_new(o, "messages", json_integer(p->messages));
        json_object_set_new(o, "ci_target", real_json(p->ci_target));
        json_object_set_new(o, "min_messages", json_integer(p->min_messages));
        json_object_set_new(o, "max_messages", json_integer(p->max_messages));
        json_object_set_new(o, "max_cycles", json_integer(p->max_cycles));
        json_object_set_new(o, "credit_delay", json_integer(p->credit_delay));
        json_object_set_new(o, "deadlock_cycles",
                            json_integer(p->deadlock_cycles));
        json_object_set_new(o, "saturation_queue",
                            real_json(p->saturation_queue));
        json_object_set_new(o, "saturation_ratio",
                            real_json(p->saturation_ratio));
        json_object_set_new(o, "track_delivery",
                            json_integer(p->track_delivery));
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    char *out = xstrdup(text);
    free(text);
    return out;
}

void dse_job_key(const char *canonical, char key[DSE_JOB_KEY_LEN + 1])
{
    XXH128_hash_t h = XXH3_128bits(canonical, strlen(canonical));
    snprintf(key, DSE_JOB_KEY_LEN + 1, "%016llx%016llx",
             (unsigned long long)h.high64, (unsigned long long)h.low64);
}

/* ---- parsing ---------------------------------------------------------- */

/* A whitelist reader: every field taken is counted; leftovers are errors. */
typedef struct reader {
    json_t *o;
    size_t taken;
    err *e;
} reader;

static json_t *take(reader *r, const char *key)
{
    json_t *x = json_object_get(r->o, key);
    if (x)
        r->taken++;
    return x;
}

static int missing(reader *r, const char *key)
{
    return err_set(r->e, ERR_INVALID, "job: missing field '%s'", key);
}

static int get_string(reader *r, const char *key, size_t max, const char **out)
{
    json_t *x = take(r, key);
    if (!x)
        return missing(r, key);
    if (!json_is_string(x))
        return err_set(r->e, ERR_INVALID, "job: '%s' must be a string", key);
    if (strlen(json_string_value(x)) > max)
        return err_set(r->e, ERR_INVALID, "job: '%s' longer than %zu bytes",
                       key, max);
    *out = json_string_value(x);
    return 0;
}

static int get_long(reader *r, const char *key, long lo, long hi, long *out)
{
    json_t *x = take(r, key);
    if (!x)
        return missing(r, key);
    if (!json_is_integer(x))
        return err_set(r->e, ERR_INVALID, "job: '%s' must be an integer", key);
    json_int_t v = json_integer_value(x);
    if (v < lo || v > hi)
        return err_set(r->e, ERR_INVALID,
                       "job: '%s' = %lld out of range [%ld, %ld]", key,
                       (long long)v, lo, hi);
    *out = (long)v;
    return 0;
}

/* A number in [lo, hi]; open_lo excludes lo. */
static int get_real(reader *r, const char *key, double lo, double hi,
                    int open_lo, double *out)
{
    json_t *x = take(r, key);
    if (!x)
        return missing(r, key);
    double v;
    if (!json_is_number(x) || real_of(x, &v))
        return err_set(r->e, ERR_INVALID, "job: '%s' must be a number", key);
    if (!(v >= lo && v <= hi) || (open_lo && v == lo))
        return err_set(r->e, ERR_INVALID, "job: '%s' = %g out of range %s%g, %g]",
                       key, v, open_lo ? "(" : "[", lo, hi);
    *out = v;
    return 0;
}

static int parse_objective(const char *name, cfg_objective *o)
{
    /* the names cfg_objective_name writes ("cost" alone never) */
    if (strcmp(name, "cost") == 0)
        return -1;
    return cfg_objective_parse(name, CFG_COST_BISECTION, o);
}

static int parse_design_workload(reader *r, const dse_job_limits *lim,
                                 dse_job *j)
{
    const char *text;
    int rc;
    if ((rc = get_string(r, "design", 1024, &text)))
        return rc;
    net_design_init(&j->design);
    err local;
    if (net_design_parse(&j->design, text, &local))
        return err_set(r->e, ERR_INVALID, "job: design: %s", local.msg);
    if (net_check(&j->design, &local))
        return err_set(r->e, ERR_INFEASIBLE, "job: invalid design: %s",
                       local.msg);
    if (net_nodes(&j->design) > lim->max_nodes)
        return err_set(r->e, ERR_INVALID,
                       "job: design has %ld nodes, over this worker's limit "
                       "of %ld",
                       net_nodes(&j->design), lim->max_nodes);
    if ((rc = get_string(r, "workload", 1024, &text)))
        return rc;
    net_workload_init(&j->workload);
    if (net_workload_parse(&j->workload, text, &local))
        return err_set(r->e, ERR_INVALID, "job: workload: %s", local.msg);
    if (net_workload_check(&j->design, &j->workload, &local))
        return err_set(r->e, ERR_INVALID, "job: invalid workload: %s",
                       local.msg);
    return 0;
}

static int parse_score(reader *r, const dse_job_limits *lim, dse_job *j)
{
    err *e = r->e;
    json_t *m = take(r, "model");
    if (!m)
        return missing(r, "model");
    if (json_is_string(m)) {
        j->model = model_find(json_string_value(m));
        if (!j->model)
            return err_set(e, ERR_UNSUPPORTED, "job: unknown model '%.64s'",
                           json_string_value(m));
        char why[512];
        if (j->model->covers(&j->design, &j->workload, why, sizeof why))
            return err_set(e, ERR_UNSUPPORTED,
                           "job: model %s does not cover the design: %s",
                           j->model->name, why);
    } else if (!json_is_null(m)) {
        return err_set(e, ERR_INVALID, "job: 'model' must be a name or null");
    }
    json_t *mo = take(r, "model_opts");
    if (!mo)
        return missing(r, "model_opts");
    if (!json_is_object(mo))
        return err_set(e, ERR_INVALID, "job: 'model_opts' must be an object");
    reader sub = {mo, 0, e};
    const char *variant;
    long iters;
    int rc;
    if ((rc = get_string(&sub, "variant", 32, &variant)))
        return rc;
    if (model_variant_parse(variant, &j->model_opts.variant) != 0)
        return err_set(e, ERR_INVALID, "job: unknown model variant '%.32s'",
                       variant);
    if ((rc = get_real(&sub, "tolerance", 0, 1, 1, &j->model_opts.tolerance)) ||
        (rc = get_long(&sub, "max_iterations", 1, 10000000, &iters)) ||
        (rc = get_real(&sub, "damping", 0, 1, 1, &j->model_opts.damping)))
        return rc;
    j->model_opts.max_iterations = (int)iters;
    if (sub.taken != json_object_size(mo))
        return err_set(e, ERR_INVALID, "job: unknown field in 'model_opts'");

    json_t *rates = take(r, "rates");
    if (!rates)
        return missing(r, "rates");
    if (!json_is_array(rates) || json_array_size(rates) == 0)
        return err_set(e, ERR_INVALID, "job: 'rates' must be a non-empty array");
    if (json_array_size(rates) > lim->max_rates)
        return err_set(e, ERR_INVALID,
                       "job: %zu rates, over this worker's limit of %zu",
                       json_array_size(rates), lim->max_rates);
    j->nrates = json_array_size(rates);
    j->rates = xcalloc(j->nrates, sizeof *j->rates);
    for (size_t i = 0; i < j->nrates; i++) {
        json_t *x = json_array_get(rates, i);
        double v;
        if (!json_is_number(x) || real_of(x, &v) || !(v > 0 && v <= 1))
            return err_set(e, ERR_INVALID,
                           "job: rates[%zu] must be a number in (0, 1]", i);
        j->rates[i] = v;
    }
    json_t *obj = take(r, "objectives");
    if (!obj)
        return missing(r, "objectives");
    if (!json_is_array(obj) || json_array_size(obj) == 0 ||
        json_array_size(obj) > CFG_MAX_OBJECTIVES)
        return err_set(e, ERR_INVALID,
                       "job: 'objectives' must be an array of 1 to %d names",
                       CFG_MAX_OBJECTIVES);
    j->nobjectives = json_array_size(obj);
    for (size_t i = 0; i < j->nobjectives; i++) {
        json_t *x = json_array_get(obj, i);
        if (!json_is_string(x) ||
            parse_objective(json_string_value(x), &j->objectives[i]))
            return err_set(e, ERR_INVALID, "job: objectives[%zu]: unknown", i);
    }
    /* estimated before any model runs, as a sim job's memory and work */
    double work = dse_job_score_work(j);
    if (work > lim->max_score_work)
        return err_set(e, ERR_INVALID,
                       "job: scoring may take about %.3g model steps ((%zu "
                       "rates + %d saturation-search evaluations) x (set-up "
                       "+ %d iterations x unknowns) on a diameter-%d "
                       "design), over this worker's limit of %.3g (dse "
                       "worker --max-score-work)",
                       work, j->nrates, DSE_JOB_SCORE_SEARCH_EVALS,
                       j->model_opts.max_iterations, net_diameter(&j->design),
                       lim->max_score_work);
    return 0;
}

/* Whether p can be simulated by this worker: supported, and its memory
 * and work estimated before anything is allocated, so a job too large for
 * this worker is refused with the reason, not run into an abort. */
static int check_size(err *e, const dse_job_limits *lim, const sim_params *p,
                      double work, const char *what)
{
    err local;
    int rc = sim_supports(&p->design, &p->workload, &local);
    if (rc)
        return err_set(e, rc, "job: not simulated: %s", local.msg);
    double bytes = sim_memory_estimate(p);
    if (bytes > lim->max_sim_bytes)
        return err_set(e, ERR_INVALID,
                       "job: the %s needs about %.3g MB of memory "
                       "(%ld nodes x %d VCs), over this worker's limit of "
                       "%.3g MB (dse worker --max-memory)",
                       what, bytes / 1e6, net_nodes(&p->design),
                       p->design.vcs, lim->max_sim_bytes / 1e6);
    if (work > lim->max_work)
        return err_set(e, ERR_INVALID,
                       "job: the %s may take about %.3g router-cycles, over "
                       "this worker's limit of %.3g (dse worker --max-work)",
                       what, work, lim->max_work);
    return 0;
}

static int parse_sim(reader *r, const dse_job_limits *lim, dse_job *j)
{
    sim_params *p = &j->sim;
    sim_params_init(p);
    p->design = j->design;
    p->workload = j->workload;
    long seed, warm, msgs, minm, maxm, cyc, credit, dl, track;
    const char *stop;
    int rc;
    long mm = lim->max_messages;
    if ((rc = get_real(r, "rate", 0, 1, 1, &p->rate)) ||
        (rc = get_long(r, "seed", 0, 9007199254740992L, &seed)) ||
        (rc = get_long(r, "warmup", 0, mm, &warm)) ||
        (rc = get_string(r, "stop", 16, &stop)) ||
        (rc = get_long(r, "messages", 1, mm, &msgs)) ||
        (rc = get_real(r, "ci_target", 0, 1, 1, &p->ci_target)) ||
        /* the limit applies to what is simulated (checked below), not to
         * the bounds of a stop rule the job does not use */
        (rc = get_long(r, "min_messages", 1, 1000000000000L, &minm)) ||
        (rc = get_long(r, "max_messages", 1, 1000000000000L, &maxm)) ||
        (rc = get_long(r, "max_cycles", 0, lim->max_cycles, &cyc)) ||
        (rc = get_long(r, "credit_delay", 0, 1000, &credit)) ||
        (rc = get_long(r, "deadlock_cycles", 1, 1000000000L, &dl)) ||
        (rc = get_real(r, "saturation_queue", 0, 1e9, 1,
                       &p->saturation_queue)) ||
        (rc = get_real(r, "saturation_ratio", 0, 1, 1,
                       &p->saturation_ratio)) ||
        (rc = get_long(r, "track_delivery", 0, 1, &track)))
        return rc;
    if (strcmp(stop, "messages") == 0)
        p->stop = SIM_STOP_MESSAGES;
    else if (strcmp(stop, "ci") == 0)
        p->stop = SIM_STOP_CI;
    else
        return err_set(r->e, ERR_INVALID, "job: unknown stop rule '%.16s'",
                       stop);
    long measured = p->stop == SIM_STOP_CI ? maxm : msgs;
    if (minm > maxm)
        return err_set(r->e, ERR_INVALID,
                       "job: min_messages %ld > max_messages %ld", minm, maxm);
    if (warm + measured > mm)
        return err_set(r->e, ERR_INVALID,
                       "job: %ld messages to simulate, over this worker's "
                       "limit of %ld",
                       warm + measured, mm);
    p->seed = (uint64_t)seed;
    p->warmup_messages = warm;
    p->messages = msgs;
    p->min_messages = minm;
    p->max_messages = maxm;
    p->max_cycles = cyc;
    p->credit_delay = (int)credit;
    p->deadlock_cycles = dl;
    p->track_delivery = (int)track;
    return check_size(r->e, lim, p, sim_work_estimate(p), "simulation");
}

/* A saturation job: only what sim_saturation reads (job.h). */
static int parse_saturation(reader *r, const dse_job_limits *lim, dse_job *j)
{
    sim_params *p = &j->sim;
    sim_params_init(p);
    p->design = j->design;
    p->workload = j->workload;
    long seed, cyc, credit, dl;
    int rc;
    if ((rc = get_long(r, "seed", 0, 9007199254740992L, &seed)) ||
        (rc = get_long(r, "max_cycles", 0, lim->max_cycles, &cyc)) ||
        (rc = get_long(r, "credit_delay", 0, 1000, &credit)) ||
        (rc = get_long(r, "deadlock_cycles", 1, 1000000000L, &dl)))
        return rc;
    p->seed = (uint64_t)seed;
    p->max_cycles = cyc;
    p->credit_delay = (int)credit;
    p->deadlock_cycles = dl;
    if (json_object_get(r->o, "ceiling") &&
        (rc = get_real(r, "ceiling", 0, 1, 1, &p->saturation_ceiling)))
        return rc;
    if (json_object_get(r->o, "bound") &&
        (rc = get_real(r, "bound", 0, 1e6, 1, &p->saturation_bound)))
        return rc;
    return check_size(r->e, lim, p, sim_saturation_work_estimate(p),
                      "saturation search");
}

/* The first field of o that a job of this kind does not have. */
static const char *unknown_field(json_t *o, dse_job_kind kind)
{
    static const char *const common[] = {"v", "engine", "kind", "design",
                                         "workload"};
    static const char *const score[] = {"model", "model_opts", "rates",
                                        "objectives"};
    static const char *const sim[] = {
        "rate",         "seed",          "warmup",          "stop",
        "messages",     "ci_target",     "min_messages",    "max_messages",
        "max_cycles",   "credit_delay",  "deadlock_cycles", "saturation_queue",
        "saturation_ratio", "track_delivery"};
    static const char *const sat[] = {"seed", "max_cycles", "credit_delay",
                                      "deadlock_cycles", "ceiling", "bound"};
    const char *k;
    json_t *x;
    json_object_foreach(o, k, x)
    {
        int known = 0;
        for (size_t i = 0; i < sizeof common / sizeof *common; i++)
            known |= strcmp(k, common[i]) == 0;
        if (kind == DSE_JOB_SCORE)
            for (size_t i = 0; i < sizeof score / sizeof *score; i++)
                known |= strcmp(k, score[i]) == 0;
        else if (kind == DSE_JOB_SIM)
            for (size_t i = 0; i < sizeof sim / sizeof *sim; i++)
                known |= strcmp(k, sim[i]) == 0;
        else
            for (size_t i = 0; i < sizeof sat / sizeof *sat; i++)
                known |= strcmp(k, sat[i]) == 0;
        if (!known)
            return k;
    }
    return "?";
}

int dse_job_parse(const char *text, const dse_job_limits *lim, const char *key,
                  dse_job *j, err *e)
{
    memset(j, 0, sizeof *j);
    dse_job_limits def;
    if (!lim) {
        dse_job_limits_init(&def);
        lim = &def;
    }
    if (!text)
        return err_set(e, ERR_INVALID, "job: no job text");
    size_t len = strlen(text);
    if (len > DSE_JOB_TEXT_MAX)
        return err_set(e, ERR_INVALID, "job: %zu bytes, over the %d-byte limit",
                       len, DSE_JOB_TEXT_MAX);
    json_error_t je;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        return err_set(e, ERR_INVALID, "job: bad JSON at %d:%d: %s", je.line,
                       je.column, je.text);
    int rc = 0;
    reader r = {o, 0, e};
    const char *engine, *kind;
    if (!json_is_object(o)) {
        rc = err_set(e, ERR_INVALID, "job: not a JSON object");
        goto out;
    }
    json_t *vx = take(&r, "v");
    if (!vx || !json_is_integer(vx)) {
        rc = err_set(e, ERR_INVALID, "job: missing or non-integer version 'v'");
        goto out;
    }
    if (json_integer_value(vx) != DSE_JOB_VERSION) {
        rc = err_set(e, ERR_INVALID,
                     "job: unknown version %lld (this worker speaks %d)",
                     (long long)json_integer_value(vx), DSE_JOB_VERSION);
        goto out;
    }
    if ((rc = get_string(&r, "engine", 256, &engine)))
        goto out;
    if (strcmp(engine, dse_version_string()) != 0) {
        rc = err_set(e, ERR_INVALID,
                     "job: made by '%.100s', this worker is '%s' (run workers "
                     "of the coordinator's version)",
                     engine, dse_version_string());
        goto out;
    }
    if ((rc = get_string(&r, "kind", 16, &kind)))
        goto out;
    if (strcmp(kind, "score") == 0) {
        j->kind = DSE_JOB_SCORE;
    } else if (strcmp(kind, "sim") == 0) {
        j->kind = DSE_JOB_SIM;
    } else if (strcmp(kind, "saturation") == 0) {
        j->kind = DSE_JOB_SATURATION;
    } else {
        rc = err_set(e, ERR_INVALID, "job: unknown kind '%.16s'", kind);
        goto out;
    }
    model_opts_init(&j->model_opts);
    sim_params_init(&j->sim);
    if ((rc = parse_design_workload(&r, lim, j)))
        goto out;
    rc = j->kind == DSE_JOB_SCORE  ? parse_score(&r, lim, j)
         : j->kind == DSE_JOB_SIM ? parse_sim(&r, lim, j)
                                  : parse_saturation(&r, lim, j);
    if (rc)
        goto out;
    if (r.taken != json_object_size(o)) {
        rc = err_set(e, ERR_INVALID, "job: unknown field '%.64s' in a %s job",
                     unknown_field(o, j->kind), kind);
        goto out;
    }
    if (key) {
        char *canon = dse_job_format(j);
        char mine[DSE_JOB_KEY_LEN + 1];
        dse_job_key(canon, mine);
        free(canon);
        if (strcmp(mine, key) != 0) {
            rc = err_set(e, ERR_INVALID,
                         "job: id %.40s does not match the job's content "
                         "(hash %s)",
                         key, mine);
            goto out;
        }
    }
out:
    json_decref(o);
    if (rc)
        dse_job_fini(j);
    return rc;
}

/* ---- running ---------------------------------------------------------- */

void dse_job_run(const dse_job *j, volatile sig_atomic_t *hard_stop,
                 dse_job_result *r)
{
    memset(r, 0, sizeof *r);
    r->kind = j->kind;
    if (j->kind == DSE_JOB_SIM) {
        sim_params p = j->sim;
        p.stop_flag = hard_stop;
        err e;
        r->sim_code = sim_run(&p, &r->sim, &e);
        return;
    }
    if (j->kind == DSE_JOB_SATURATION) {
        sim_params p = j->sim;
        p.stop_flag = hard_stop;
        err e;
        r->sim_code = sim_saturation(&p, &r->sat, &e);
        if (r->sim_code)
            snprintf(r->sat.detail, sizeof r->sat.detail, "%.200s", e.msg);
        return;
    }
    /* A study reduced to what dse_score_design reads. */
    cfg_study s;
    cfg_study_init(&s);
    s.workload = j->workload;
    s.model = j->model_opts;
    free(s.rates.v); /* the default list */
    s.rates.n = j->nrates;
    s.rates.v = xcalloc(j->nrates + 1, sizeof *s.rates.v);
    memcpy(s.rates.v, j->rates, j->nrates * sizeof *s.rates.v);
    s.nobjectives = j->nobjectives;
    memcpy(s.objectives, j->objectives, sizeof s.objectives);
    dse_candidate c;
    memset(&c, 0, sizeof c);
    c.latency = xcalloc(j->nrates + 1, sizeof *c.latency);
    size_t evals = 0;
    dse_score_design(&s, &j->design, j->model, &c, &evals);
    r->score_rc = c.score_rc;
    r->cost = c.cost;
    r->flits = c.flits;
    r->zero_load = c.zero_load;
    r->saturation_rate = c.saturation_rate;
    r->latency = c.latency;
    r->nrates = j->nrates;
    r->saturated_at_target = c.saturated_at_target;
    memcpy(r->objectives, c.objectives, sizeof r->objectives);
    r->evaluations = evals;
    cfg_study_fini(&s);
}

void dse_job_result_fini(dse_job_result *r)
{
    if (!r)
        return;
    free(r->latency);
    memset(r, 0, sizeof *r);
}

int dse_job_result_stopped(const dse_job_result *r)
{
    return (r->kind == DSE_JOB_SIM && r->sim.status == SIM_STOPPED) ||
           (r->kind == DSE_JOB_SATURATION && r->sat.status == SIM_STOPPED);
}

/* ---- results as JSON -------------------------------------------------- */

#define SIM_REALS(X)                                                         \
    X(latency) X(latency_ci95) X(network_latency) X(network_latency_ci95)    \
    X(source_wait) X(hops) X(message_flits) X(offered_flits)                 \
    X(accepted_flits) X(offered_messages) X(accepted_messages) X(rate)      \
    X(latency_p50) X(latency_p95) X(latency_p99) X(latency_max)
#define SIM_INTS(X)                                                          \
    X(status) X(saturated) X(deadlock) X(messages) X(batches) X(ci_met)      \
    X(cycles) X(nodes) X(silent_nodes) X(replications)
#define SAT_REALS(X)                                                         \
    X(rate) X(rate_lo) X(rate_hi) X(lo) X(hi) X(flits) X(throughput)
#define SAT_INTS(X)                                                          \
    X(status) X(probes) X(cycles) X(warm_cycles) X(span_cycles)
#define COST_REALS(X)                                                        \
    X(bisection_wires) X(node_pins) X(interchange_pins) X(max_pins)          \
    X(total_wires) X(buffer_bits) X(crossbar_area) X(wire_length)

char *dse_job_result_format(const dse_job_result *r, const char *key)
{
    json_t *o = json_object();
    json_object_set_new(o, "v", json_integer(DSE_JOB_VERSION));
    set_text(o, "key", key);
    set_text(o, "engine", dse_version_string());
    set_text(o, "kind", dse_job_kind_name(r->kind));
    if (r->kind == DSE_JOB_SCORE) {
        json_object_set_new(o, "code", json_integer(r->score_rc));
        json_t *cost = json_object();
#define PUT_(f) json_object_set_new(cost, #f, real_json(r->cost.f));
        COST_REALS(PUT_)
#undef PUT_
        json_object_set_new(o, "cost", cost);
        json_object_set_new(o, "flits", json_integer(r->flits));
        json_object_set_new(o, "zero_load", real_json(r->zero_load));
        json_object_set_new(o, "saturation_rate",
                            real_json(r->saturation_rate));
        json_t *lat = json_array();
        for (size_t i = 0; i < r->nrates; i++)
            json_array_append_new(lat, real_json(r->latency[i]));
        json_object_set_new(o, "latency", lat);
        json_object_set_new(o, "saturated_at_target",
                            json_integer(r->saturated_at_target));
        json_t *obj = json_array();
        for (size_t i = 0; i < CFG_MAX_OBJECTIVES; i++)
            json_array_append_new(obj, real_json(r->objectives[i]));
        json_object_set_new(o, "objectives", obj);
        json_object_set_new(o, "evaluations",
                            json_integer((json_int_t)r->evaluations));
    } else if (r->kind == DSE_JOB_SATURATION) {
        json_object_set_new(o, "code", json_integer(r->sim_code));
        json_t *s = json_object();
#define PUT_(f) json_object_set_new(s, #f, real_json(r->sat.f));
        SAT_REALS(PUT_)
#undef PUT_
#define PUT_(f) json_object_set_new(s, #f, json_integer((json_int_t)r->sat.f));
        SAT_INTS(PUT_)
#undef PUT_
        set_text(s, "detail", r->sat.detail);
        json_object_set_new(o, "sat", s);
    } else {
        json_object_set_new(o, "code", json_integer(r->sim_code));
        json_t *s = json_object();
#define PUT_(f) json_object_set_new(s, #f, real_json(r->sim.f));
        SIM_REALS(PUT_)
#undef PUT_
#define PUT_(f) json_object_set_new(s, #f, json_integer((json_int_t)r->sim.f));
        SIM_INTS(PUT_)
#undef PUT_
        json_object_set_new(s, "seed", json_integer((json_int_t)r->sim.seed));
        set_text(s, "detail", r->sim.detail);
        json_object_set_new(o, "sim", s);
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    char *out = xstrdup(text);
    free(text);
    return out;
}

static int res_real(json_t *o, const char *k, double *out)
{
    json_t *x = json_object_get(o, k);
    return x && real_of(x, out) == 0 ? 0 : -1;
}

static int res_int(json_t *o, const char *k, long long *out)
{
    json_t *x = json_object_get(o, k);
    if (!x || !json_is_integer(x))
        return -1;
    *out = json_integer_value(x);
    return 0;
}

int dse_job_result_parse(const char *text, const char *key, dse_job_kind kind,
                         size_t nrates, dse_job_result *r, err *e)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    json_error_t je;
    json_t *o = json_loads(text ? text : "", 0, &je);
    if (!o)
        return err_set(e, ERR_INVALID, "result: bad JSON: %s", je.text);
    int bad = 0;
    long long v = 0, x = 0;
    json_t *k = json_object_get(o, "key");
    json_t *kd = json_object_get(o, "kind");
    json_t *en = json_object_get(o, "engine");
    if (!json_is_object(o) || res_int(o, "v", &v) || v != DSE_JOB_VERSION ||
        !json_is_string(k) || strcmp(json_string_value(k), key) != 0 ||
        !json_is_string(en) ||
        strcmp(json_string_value(en), dse_version_string()) != 0 ||
        !json_is_string(kd) ||
        strcmp(json_string_value(kd), dse_job_kind_name(kind)))
        bad = 1;
    if (!bad && kind == DSE_JOB_SCORE) {
        json_t *cost = json_object_get(o, "cost");
        json_t *lat = json_object_get(o, "latency");
        json_t *obj = json_object_get(o, "objectives");
        bad |= res_int(o, "code", &x);
        r->score_rc = (int)x;
        bad |= !json_is_object(cost);
#define GET_(f) bad |= bad || res_real(cost, #f, &r->cost.f);
        COST_REALS(GET_)
#undef GET_
        bad |= res_int(o, "flits", &x);
        r->flits = (int)x;
        bad |= res_real(o, "zero_load", &r->zero_load);
        bad |= res_real(o, "saturation_rate", &r->saturation_rate);
        bad |= res_int(o, "saturated_at_target", &x);
        r->saturated_at_target = (int)x;
        bad |= res_int(o, "evaluations", &x);
        r->evaluations = (size_t)x;
        bad |= !json_is_array(lat) || json_array_size(lat) != nrates;
        bad |= !json_is_array(obj) ||
               json_array_size(obj) != CFG_MAX_OBJECTIVES;
        if (!bad) {
            r->nrates = nrates;
            r->latency = xcalloc(nrates + 1, sizeof *r->latency);
            for (size_t i = 0; i < nrates; i++)
                bad |= real_of(json_array_get(lat, i), &r->latency[i]);
            for (size_t i = 0; i < CFG_MAX_OBJECTIVES; i++)
                bad |= real_of(json_array_get(obj, i), &r->objectives[i]);
        }
    } else if (!bad && kind == DSE_JOB_SATURATION) {
        json_t *s = json_object_get(o, "sat");
        bad |= res_int(o, "code", &x);
        r->sim_code = (int)x;
        bad |= !json_is_object(s);
#define GET_(f) bad |= bad || res_real(s, #f, &r->sat.f);
        SAT_REALS(GET_)
#undef GET_
#define GET_(f)                                                              \
    bad |= bad || res_int(s, #f, &x);                                        \
    r->sat.f = (__typeof__(r->sat.f))x;
        SAT_INTS(GET_)
#undef GET_
        bad |= (unsigned long long)r->sat.status >= SIM_STATUS_COUNT;
        json_t *d = bad ? NULL : json_object_get(s, "detail");
        bad |= !json_is_string(d);
        if (!bad)
            snprintf(r->sat.detail, sizeof r->sat.detail, "%s",
                     json_string_value(d));
    } else if (!bad) {
        json_t *s = json_object_get(o, "sim");
        bad |= res_int(o, "code", &x);
        r->sim_code = (int)x;
        bad |= !json_is_object(s);
#define GET_(f) bad |= bad || res_real(s, #f, &r->sim.f);
        SIM_REALS(GET_)
#undef GET_
#define GET_(f)                                                              \
    bad |= bad || res_int(s, #f, &x);                                        \
    r->sim.f = (__typeof__(r->sim.f))x;
        SIM_INTS(GET_)
        GET_(seed)
#undef GET_
        json_t *d = bad ? NULL : json_object_get(s, "detail");
        bad |= !json_is_string(d);
        if (!bad)
            snprintf(r->sim.detail, sizeof r->sim.detail, "%s",
                     json_string_value(d));
    }
    json_decref(o);
    if (bad) {
        dse_job_result_fini(r);
        return err_set(e, ERR_INVALID, "result %s: malformed or of another "
                                       "version",
                       key);
    }
    return 0;
}

/* ---- sealing ---------------------------------------------------------------- */

#define MAC_PREFIX "{\"mac\":\""
#define MAC_HEX 64

/* HMAC-SHA256(sec, key "\n" "{" body) as hex into out[MAC_HEX + 1]. */
static void mac_hex(const dse_secret *sec, const char *key, const char *body,
                    char out[MAC_HEX + 1])
{
    size_t kl = strlen(key), bl = strlen(body);
    unsigned char *msg = xmalloc(kl + bl + 3);
    memcpy(msg, key, kl);
    msg[kl] = '\n';
    msg[kl + 1] = '{';
    memcpy(msg + kl + 2, body, bl);
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    HMAC(EVP_sha256(), sec->bytes, (int)sec->len, msg, kl + bl + 2, md,
         &mdlen);
    free(msg);
    static const char hex[] = "0123456789abcdef";
    for (unsigned i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 15];
    }
    out[MAC_HEX] = '\0';
}

char *dse_job_result_seal(const char *text, const char *key,
                          const dse_secret *sec)
{
    if (!sec || !sec->len || text[0] != '{')
        return xstrdup(text);
    char mac[MAC_HEX + 1];
    mac_hex(sec, key, text + 1, mac);
    size_t n = strlen(MAC_PREFIX) + MAC_HEX + 2 + strlen(text + 1) + 1;
    char *out = xmalloc(n);
    snprintf(out, n, "%s%s\",%s", MAC_PREFIX, mac, text + 1);
    return out;
}

int dse_job_result_verify(const char *text, const char *key,
                          const dse_secret *sec, err *e)
{
    if (!sec || !sec->len)
        return 0;
    size_t pl = strlen(MAC_PREFIX);
    if (!text || strncmp(text, MAC_PREFIX, pl) != 0 ||
        strlen(text) < pl + MAC_HEX + 2 || text[pl + MAC_HEX] != '"' ||
        text[pl + MAC_HEX + 1] != ',')
        return err_set(e, ERR_INVALID,
                       "result %s: not sealed with the farm secret", key);
    char want[MAC_HEX + 1];
    mac_hex(sec, key, text + pl + MAC_HEX + 2, want);
    if (CRYPTO_memcmp(want, text + pl, MAC_HEX) != 0)
        return err_set(e, ERR_INVALID,
                       "result %s: MAC mismatch (forged, altered, or sealed "
                       "with another secret)",
                       key);
    return 0;
}

void dse_job_result_to_candidate(const dse_job_result *r, const net_design *d,
                                 const model *m, dse_candidate *c)
{
    c->design = *d;
    c->model = m;
    c->flits = r->flits;
    c->rank = -1;
    c->sim_rank = -1;
    c->max_abs_error_pct = NAN;
    memcpy(c->objectives, r->objectives, sizeof c->objectives);
    for (size_t i = 0; i < r->nrates; i++)
        c->latency[i] = r->latency[i];
    c->saturated_at_target = r->saturated_at_target;
    c->score_rc = r->score_rc;
    c->cost = r->cost;
    c->zero_load = r->zero_load;
    c->saturation_rate = r->saturation_rate;
}

void dse_job_candidate_failed(const net_design *d, const model *m,
                              size_t nrates, int code, dse_candidate *c)
{
    c->design = *d;
    c->model = m;
    c->rank = -1;
    c->sim_rank = -1;
    c->max_abs_error_pct = NAN;
    for (size_t j = 0; j < CFG_MAX_OBJECTIVES; j++)
        c->objectives[j] = NAN;
    for (size_t i = 0; i < nrates; i++)
        c->latency[i] = NAN;
    c->saturated_at_target = 1;
    c->score_rc = code;
}
