/*
 * validate.c — the runner of the validation suite (see validate.h): set-up,
 * saturation search, sweep, model evaluation and the summary statistics.
 *
 * PHASES.
 *   1. Set-up (calling thread): build each case's design and workload
 *      (model example + the config's keys), check that the model covers it
 *      and that the simulator supports it (not-simulated cases stop here
 *      with the simulator's reason), and find the model's own saturation
 *      rate and zero-load latency.
 *   2. Saturation search (one case per pool job): short probe runs with the
 *      simulator's own saturation verdict (source queues growing, or
 *      accepted below offered throughput), with thresholds tighter than
 *      sim_run's defaults (mean source queue 5 messages per node instead of
 *      50, accepted < 97% instead of 95% of offered): a short probe must
 *      see a queue that grows for a few thousand cycles, and the
 *      defaults let rates a few percent past the knee pass as steady
 *      states with source waits of thousands of cycles.  Start at the model's
 *      saturation rate, step by x1.5 up or down until the verdict changes,
 *      then bisect geometrically until hi/lo <= 1 + probe_precision.  A
 *      probe's window is at least probe_services message times (probe()).
 *      The
 *      simulated saturation rate is lo, the highest rate probed without a
 *      saturation verdict.  A probe that deadlocks fails the case.
 *      The search never goes above the channel-load bound
 *      (model_bound_compute): no network sustains a rate at which some
 *      channel is offered more than one flit per cycle, but a short probe
 *      can miss the overload when it falls on a few channels.  Hot-spot
 *      traffic is the case in point (docs/models/corrected.md, CV5): the
 *      hot node's inputs overloaded by 20% leave about 1% of the offered
 *      messages undelivered, under the 3% threshold, and the source queues
 *      grow too slowly to reach 5 messages within a probe.  A rate with no
 *      verdict up to the bound is recorded as the bound (sat_at_bound).
 *   3. Sweep (one (case, rate, seed) run per pool job, heaviest loads
 *      first so the long runs do not trail): rates frac x lo for each
 *      fraction, plus the source's own rates where it printed its
 *      simulation ([QCC02]); each run measures until the batch-means 95%
 *      half-width is below ci_target (SIM_STOP_CI); the seeds of a point
 *      are merged with sim_result_merge (CI from the spread of the
 *      replication means).
 *   4. Model (calling thread): eval() at every rate, and a curve for the
 *      plot, once per variant (the primary, then recommended: validate.h);
 *      then the summary (dse_validate_case_summarize).  Phases 1 and 2 use
 *      the primary variant's saturation rate as the search's start.
 *
 * Rejected alternative: a throughput-curve knee as the saturation rate.
 * The simulator's verdict is the definition the rest of dse uses
 * (sim_result.saturated), and its resolution (~5% excess load) is finer
 * than the gaps this suite is meant to expose.
 *
 * Determinism: every run's seed is fixed by (case, point, replication);
 * results land in fixed slots, so the thread count never changes a number.
 */
#include "dse/validate/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "dse/common/pool.h"

#define PROBE_SEED_OFFSET 7919u
#define REF_SEED_OFFSET 104729u

void dse_validate_opts_init(dse_validate_opts *o, int quick)
{
    memset(o, 0, sizeof *o);
    o->quick = quick;
    o->threads = 0;
    o->seed = 1;
    o->model_curve_points = 60;
    o->variant = MODEL_VARIANT_CORRECTED;
    o->supports = sim_supports;
    o->probe_queue = 5;
    o->probe_ratio = 0.97;
    if (quick) {
        static const double f[] = {0.1, 0.3, 0.5, 0.8, 0.95};
        o->nfracs = (int)(sizeof f / sizeof f[0]);
        memcpy(o->fracs, f, sizeof f);
        o->seeds = 1;
        o->probe_warmup = 2000;
        o->probe_messages = 6000;
        o->probe_precision = 0.06;
        o->probe_max = 12;
        o->warmup = 3000;
        o->min_messages = 5000;
        o->max_messages = 30000;
        o->ci_target = 0.05;
        o->max_cycles = 3000000;
        /* the one study design in the subset: as short as the rest */
        memcpy(o->short_fracs, f, sizeof f);
        o->short_nfracs = o->nfracs;
        o->short_seeds = 1;
    } else {
        static const double f[] = {0.05, 0.15, 0.25, 0.35, 0.5,
                                   0.6,  0.7,  0.8,  0.9,  0.95};
        o->nfracs = (int)(sizeof f / sizeof f[0]);
        memcpy(o->fracs, f, sizeof f);
        o->seeds = 3;
        o->probe_warmup = 5000;
        o->probe_messages = 15000;
        o->probe_precision = 0.03;
        o->probe_max = 14;
        o->probe_services = 200;
        o->warmup = 10000;
        o->min_messages = 10000;
        o->max_messages = 150000;
        o->ci_target = 0.03;
        o->max_cycles = 10000000;
        /* the shipped studies' designs (short_sweep): 1024-node networks
         * with long messages, each run several times dearer than the
         * sources' 64-512-node set-ups; six loads and two replications
         * still give three points <= 50%, five <= 80% and a CI */
        static const double sf[] = {0.15, 0.35, 0.5, 0.7, 0.8, 0.9};
        o->short_nfracs = (int)(sizeof sf / sizeof sf[0]);
        memcpy(o->short_fracs, sf, sizeof sf);
        o->short_seeds = 2;
    }
}

int dse_validate_variants(model_variant primary,
                          model_variant out[DSE_VALIDATE_MAX_VARIANTS])
{
    out[0] = primary;
    if (primary == MODEL_VARIANT_RECOMMENDED)
        return 1;
    out[1] = MODEL_VARIANT_RECOMMENDED;
    return 2;
}

const char *dse_validate_status_name(dse_validate_status s)
{
    switch (s) {
    case DSE_VALIDATE_DONE: return "compared";
    case DSE_VALIDATE_NOT_SIMULATED: return "not simulated yet";
    case DSE_VALIDATE_NOT_COVERED: return "not covered by the model";
    case DSE_VALIDATE_FAILED: return "failed";
    }
    return "?";
}

/* ---- phase 1: set-up --------------------------------------------------- */

static void case_setup(dse_validate_case *c, const dse_validate_config *cfg,
                       const dse_validate_opts *o)
{
    memset(c, 0, sizeof *c);
    c->cfg = cfg;
    c->seeds = cfg->short_sweep ? o->short_seeds : o->seeds;
    c->nvariants = dse_validate_variants(o->variant, c->variant);
    for (int k = 0; k < DSE_VALIDATE_MAX_VARIANTS; k++) {
        dse_validate_fit *ft = &c->fit[k];
        ft->sat_ratio = NAN;
        ft->mape50 = ft->mape80 = ft->bias50 = ft->bias80 = NAN;
        ft->bcast_mape50 = NAN;
    }
    c->m = model_find(cfg->model);
    if (!c->m) {
        c->status = DSE_VALIDATE_NOT_COVERED;
        snprintf(c->reason, sizeof c->reason, "no model named \"%s\" is "
                 "registered", cfg->model);
        return;
    }
    c->m->example(&c->design, &c->workload);
    err e;
    err_clear(&e);
    if ((cfg->design && net_design_parse(&c->design, cfg->design, &e)) ||
        (cfg->workload && net_workload_parse(&c->workload, cfg->workload,
                                             &e))) {
        c->status = DSE_VALIDATE_NOT_COVERED;
        snprintf(c->reason, sizeof c->reason, "bad set-up text: %.400s", e.msg);
        return;
    }
    char why[400];
    if (c->m->covers(&c->design, &c->workload, why, sizeof why) != 0) {
        c->status = DSE_VALIDATE_NOT_COVERED;
        snprintf(c->reason, sizeof c->reason, "%.400s", why);
        return;
    }
    for (int k = 0; k < c->nvariants; k++) {
        dse_validate_fit *ft = &c->fit[k];
        model_opts mo;
        model_opts_init(&mo);
        mo.variant = c->variant[k];
        ft->zero_load = c->m->zero_load(&c->design, &c->workload, &mo);
        if (model_saturation_rate(c->m, &c->design, &c->workload, &mo,
                                  &ft->model_sat, &e) != 0)
            ft->model_sat = 0;
        err_clear(&e);
    }
    /* provisional, for set-ups that are never swept; the summary redoes
     * it over every number */
    c->variants_same = c->nvariants == 2 &&
                       c->fit[0].model_sat == c->fit[1].model_sat &&
                       c->fit[0].zero_load == c->fit[1].zero_load;
    int rc = o->supports(&c->design, &c->workload, &e);
    if (rc != 0) {
        c->status = rc == ERR_UNSUPPORTED ? DSE_VALIDATE_NOT_SIMULATED
                                          : DSE_VALIDATE_FAILED;
        snprintf(c->reason, sizeof c->reason, "%.400s", e.msg);
        return;
    }
    c->status = DSE_VALIDATE_DONE;
}

/* ---- phase 2: saturation search ----------------------------------------- */

typedef struct run_ctx {
    dse_validate_result *r;
    const dse_validate_opts *o;
    /* sweep jobs */
    struct sweep_job {
        size_t ci;           /* case */
        int ref;             /* 0 sweep point, 1 reference point */
        int pi;              /* point index */
        int rep;             /* replication */
        sim_result res;
        int code;
        double wall_s;
        char msg[ERR_MSG_MAX];
    } *jobs;
    size_t njobs;
} run_ctx;

static void base_params(const dse_validate_case *c, const dse_validate_opts *o,
                        sim_params *p)
{
    sim_params_init(p);
    p->design = c->design;
    p->workload = c->workload;
    p->max_cycles = o->max_cycles;
    p->stop_flag = o->stop;
}

/* 1 saturated (or cycle limit), 0 not, <0 failure (reason in c). */
static int probe(dse_validate_case *c, const dse_validate_opts *o, double rate)
{
    sim_params p;
    base_params(c, o, &p);
    p.rate = rate;
    p.seed = o->seed + PROBE_SEED_OFFSET + (uint64_t)c->probes;
    p.warmup_messages = o->probe_warmup;
    p.stop = SIM_STOP_MESSAGES;
    p.messages = o->probe_messages;
    /* A fixed message count is a window of fewer message service times the
     * longer the worms: 15000 messages of 16 flits on 1024 nodes near
     * saturation span about 100 services, of 128 flits about 48, in which
     * a 128-flit 4-ary 5-cube passed 97.4% of the offered load at a rate
     * it carries in full over 30000 cycles (the probe's own window, not the
     * network, set that limit).  So the window covers at least probe_services
     * message
     * times (Lm cycles), the warm-up a third of that. */
    if (o->probe_services > 0) {
        double lm = net_message_flits(&c->design, &c->workload);
        double per_cycle = rate * (double)net_nodes(&c->design);
        double need = o->probe_services * lm * per_cycle;
        if (need > (double)p.messages && need < 1e9) {
            p.messages = (long)ceil(need);
            if (p.messages / 3 > p.warmup_messages)
                p.warmup_messages = p.messages / 3;
        }
    }
    p.saturation_queue = o->probe_queue;
    p.saturation_ratio = o->probe_ratio;
    sim_result res;
    err e;
    err_clear(&e);
    double t0 = dse_now_s();
    int rc = sim_run(&p, &res, &e);
    c->sim_cpu_s += dse_now_s() - t0;
    c->probes++;
    if (rc != 0) {
        snprintf(c->reason, sizeof c->reason, "probe at rate %.6g: %.400s", rate,
                 e.msg);
        return rc;
    }
    switch (res.status) {
    case SIM_OK:
        return 0;
    case SIM_SATURATED:
    case SIM_CYCLE_LIMIT:
        return 1;
    case SIM_STOPPED:
        return ERR_INTERRUPTED;
    default:
        snprintf(c->reason, sizeof c->reason, "%s at rate %.6g: %.400s",
                 sim_status_name(res.status), rate, res.detail);
        return ERR_DEADLOCK;
    }
}

static int search_job(void *ctx, size_t index)
{
    run_ctx *rc = ctx;
    dse_validate_case *c = &rc->r->cases[index];
    const dse_validate_opts *o = rc->o;
    if (c->status != DSE_VALIDATE_DONE)
        return 0;
    int flits = net_message_flits(&c->design, &c->workload);
    double cap = 1.0 / flits; /* injection channel: lam Lm < 1 */
    model_bound b;
    if (model_bound_compute(&c->design, &c->workload, &b, NULL) == 0 &&
        b.rate > 0 && b.rate < cap) {
        cap = b.rate; /* the busiest channel: see PHASES, 2 */
        snprintf(c->bound_channel, sizeof c->bound_channel, "%s", b.channel);
    } else {
        snprintf(c->bound_channel, sizeof c->bound_channel, "injection");
    }
    double msat = c->fit[0].model_sat;
    double r = msat > 0 ? fmin(msat, 0.9 * cap) : 0.1 * cap;
    double lo = 0, hi = 0;
    int v = probe(c, o, r);
    /* bracket */
    while (v >= 0 && c->probes < o->probe_max) {
        if (v == 0) {
            lo = r;
            if (hi > 0)
                break;
            if (r >= cap) { /* no verdict up to the channel-load bound */
                hi = cap;
                c->sat_at_bound = 1;
                break;
            }
            r = fmin(r * 1.5, cap);
        } else {
            hi = r;
            if (lo > 0)
                break;
            r /= 1.5;
        }
        v = probe(c, o, r);
    }
    /* bisect */
    while (v >= 0 && lo > 0 && hi > lo && hi / lo > 1 + o->probe_precision &&
           c->probes < o->probe_max) {
        r = sqrt(lo * hi);
        v = probe(c, o, r);
        if (v == 0)
            lo = r;
        else if (v == 1)
            hi = r;
    }
    if (v == ERR_INTERRUPTED)
        return ERR_INTERRUPTED;
    if (v < 0) {
        c->status = DSE_VALIDATE_FAILED;
        return 0;
    }
    if (!(lo > 0)) {
        c->status = DSE_VALIDATE_FAILED;
        snprintf(c->reason, sizeof c->reason, "saturation search: saturated "
                 "at every rate probed (lowest %.3g) in %d probes", r,
                 c->probes);
        return 0;
    }
    c->sim_sat_lo = c->sim_sat = lo;
    c->sim_sat_hi = hi > 0 ? hi : NAN;
    return 0;
}

/* ---- phase 3: sweep ----------------------------------------------------- */

static int sweep_job(void *ctx, size_t index)
{
    run_ctx *rc = ctx;
    struct sweep_job *j = &rc->jobs[index];
    dse_validate_case *c = &rc->r->cases[j->ci];
    const dse_validate_opts *o = rc->o;
    const dse_validate_point *pt = j->ref ? &c->refs[j->pi]
                                          : &c->points[j->pi];
    sim_params p;
    base_params(c, o, &p);
    p.rate = pt->rate;
    p.seed = o->seed + (uint64_t)j->rep +
             (j->ref ? REF_SEED_OFFSET + 100u * (uint64_t)j->pi : 0);
    p.warmup_messages = o->warmup;
    p.stop = SIM_STOP_CI;
    p.ci_target = o->ci_target;
    p.min_messages = o->min_messages;
    p.max_messages = o->max_messages;
    err e;
    err_clear(&e);
    double t0 = dse_now_s();
    j->code = sim_run(&p, &j->res, &e);
    j->wall_s = dse_now_s() - t0;
    if (j->code)
        snprintf(j->msg, sizeof j->msg, "%s", e.msg);
    if (j->code == 0 && j->res.status == SIM_STOPPED)
        return ERR_INTERRUPTED;
    return 0;
}

/* qsort has no context argument in C11: sort an index array by a key. */
typedef struct job_key {
    double load;
    size_t index;
} job_key;

static int cmp_key(const void *a, const void *b)
{
    const job_key *x = a, *y = b;
    if (x->load != y->load)
        return x->load > y->load ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void merge_point(run_ctx *rc, dse_validate_case *c, int ref, int pi,
                        const struct sweep_job *first, int seeds)
{
    dse_validate_point *pt = ref ? &c->refs[pi] : &c->points[pi];
    sim_result *rs = xmalloc((size_t)seeds * sizeof *rs);
    int n = 0;
    pt->sim_code = 0;
    pt->sim_wall_s = 0;
    for (int k = 0; k < seeds; k++) {
        const struct sweep_job *j = &first[k];
        pt->sim_wall_s += j->wall_s;
        if (j->code) {
            pt->sim_code = j->code;
            if (c->status == DSE_VALIDATE_DONE) {
                c->status = DSE_VALIDATE_FAILED;
                snprintf(c->reason, sizeof c->reason, "rate %.6g: %.400s",
                         pt->rate, j->msg);
            }
            continue;
        }
        rs[n++] = j->res;
    }
    if (n > 0)
        sim_result_merge(rs, n, &pt->sim);
    else
        memset(&pt->sim, 0, sizeof pt->sim);
    if (n > 0 && pt->sim.status == SIM_DEADLOCK &&
        c->status == DSE_VALIDATE_DONE) {
        c->status = DSE_VALIDATE_FAILED;
        snprintf(c->reason, sizeof c->reason, "deadlock at rate %.6g: %.400s",
                 pt->rate, pt->sim.detail);
    }
    c->sim_cpu_s += pt->sim_wall_s;
    free(rs);
    (void)rc;
}

/* ---- phase 4: model ----------------------------------------------------- */

static void model_point(const dse_validate_case *c, int k,
                        dse_validate_point *pt)
{
    model_opts mo;
    model_opts_init(&mo);
    mo.variant = c->variant[k];
    dse_validate_estimate *es = &pt->est[k];
    es->model_code = c->m->eval(&c->design, &c->workload, pt->rate, &mo,
                                &es->model);
}

/* Variant slot k's curve: up to the highest simulated rate or just below
 * the variant's own saturation rate, whichever is lower, so that each
 * curve shows its own climb. */
static void model_curve(dse_validate_case *c, int k,
                        const dse_validate_opts *o)
{
    dse_validate_fit *ft = &c->fit[k];
    double top = 0;
    for (int i = 0; i < c->npoints; i++)
        top = fmax(top, c->points[i].rate);
    for (int i = 0; i < c->nrefs; i++)
        top = fmax(top, c->refs[i].rate);
    if (ft->model_sat > 0 && ft->model_sat * 0.999 < top)
        top = ft->model_sat * 0.999;
    int n = o->model_curve_points > 1 ? o->model_curve_points : 2;
    if (!(top > 0))
        return;
    ft->curve_rate = xmalloc((size_t)n * sizeof(double));
    ft->curve_latency = xmalloc((size_t)n * sizeof(double));
    ft->ncurve = n;
    model_opts mo;
    model_opts_init(&mo);
    mo.variant = c->variant[k];
    for (int i = 0; i < n; i++) {
        double rate = top * (i + 1) / n;
        model_result mr;
        int code = c->m->eval(&c->design, &c->workload, rate, &mo, &mr);
        ft->curve_rate[i] = rate;
        ft->curve_latency[i] = code == 0 ? mr.latency : NAN;
    }
}

/* ---- summary ------------------------------------------------------------ */

static double sim_value(const dse_validate_point *pt, dse_validate_metric m,
                        double *ci)
{
    if (pt->sim_code != 0 || pt->sim.status != SIM_OK) {
        if (ci)
            *ci = NAN;
        return NAN;
    }
    if (ci)
        *ci = m == DSE_VALIDATE_NETWORK_LATENCY ? pt->sim.network_latency_ci95
                                                : pt->sim.latency_ci95;
    return m == DSE_VALIDATE_NETWORK_LATENCY ? pt->sim.network_latency
                                             : pt->sim.latency;
}

static void point_error(dse_validate_point *pt, int k, dse_validate_metric m,
                        int broadcast)
{
    dse_validate_estimate *es = &pt->est[k];
    double s = sim_value(pt, m, NULL);
    double v = es->model_code == 0 ? es->model.latency : NAN;
    es->error_pct = isfinite(s) && s > 0 && isfinite(v)
                        ? 100.0 * (v - s) / s
                        : NAN;
    double sb = isfinite(s) ? pt->sim.broadcast_latency : NAN;
    double vb = isfinite(v) ? es->model.broadcast_latency : NAN;
    es->bcast_error_pct = broadcast && sb > 0 && vb > 0
                              ? 100.0 * (vb - sb) / sb
                              : NAN;
}

static void summarize_fit(dse_validate_case *c, int k,
                          dse_validate_metric metric)
{
    dse_validate_fit *ft = &c->fit[k];
    double sum50 = 0, sum80 = 0, signed50 = 0, signed80 = 0, bsum50 = 0;
    int broadcast = c->workload.traffic == NET_TRAFFIC_BROADCAST;
    ft->n50 = ft->n80 = ft->msat50 = ft->msat80 = ft->bcast_n50 = 0;
    for (int i = 0; i < c->nrefs; i++)
        point_error(&c->refs[i], k, metric, broadcast);
    for (int i = 0; i < c->npoints; i++) {
        dse_validate_point *pt = &c->points[i];
        dse_validate_estimate *es = &pt->est[k];
        point_error(pt, k, metric, broadcast);
        if (pt->frac <= 0.5 + 1e-9 && isfinite(es->bcast_error_pct)) {
            bsum50 += fabs(es->bcast_error_pct);
            ft->bcast_n50++;
        }
        if (!isfinite(sim_value(pt, metric, NULL)))
            continue;
        int in50 = pt->frac <= 0.5 + 1e-9, in80 = pt->frac <= 0.8 + 1e-9;
        if (!isfinite(es->error_pct)) { /* the model saturated here */
            ft->msat50 += in50;
            ft->msat80 += in80;
            continue;
        }
        double a = fabs(es->error_pct);
        if (in50) {
            sum50 += a;
            signed50 += es->error_pct;
            ft->n50++;
        }
        if (in80) {
            sum80 += a;
            signed80 += es->error_pct;
            ft->n80++;
        }
    }
    ft->mape50 = ft->n50 ? sum50 / ft->n50 : NAN;
    ft->bias50 = ft->n50 ? signed50 / ft->n50 : NAN;
    ft->mape80 = ft->n80 ? sum80 / ft->n80 : NAN;
    ft->bias80 = ft->n80 ? signed80 / ft->n80 : NAN;
    ft->bcast_mape50 = ft->bcast_n50 ? bsum50 / ft->bcast_n50 : NAN;
    ft->sat_ratio = ft->model_sat > 0 && c->sim_sat > 0
                        ? ft->model_sat / c->sim_sat
                        : NAN;
}

/* Bitwise-equal numbers (NAN equal to NAN): "same" on the page means
 * the two variants are indistinguishable, not merely close. */
static int same_num(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static int same_estimate(const dse_validate_estimate *a,
                         const dse_validate_estimate *b)
{
    return a->model_code == b->model_code &&
           same_num(a->model.latency, b->model.latency) &&
           same_num(a->model.broadcast_latency, b->model.broadcast_latency);
}

static int same_fits(const dse_validate_case *c)
{
    const dse_validate_fit *a = &c->fit[0], *b = &c->fit[1];
    if (!same_num(a->model_sat, b->model_sat) ||
        !same_num(a->zero_load, b->zero_load) || a->ncurve != b->ncurve)
        return 0;
    for (int i = 0; i < a->ncurve; i++)
        if (!same_num(a->curve_latency[i], b->curve_latency[i]))
            return 0;
    for (int i = 0; i < c->npoints; i++)
        if (!same_estimate(&c->points[i].est[0], &c->points[i].est[1]))
            return 0;
    for (int i = 0; i < c->nrefs; i++)
        if (!same_estimate(&c->refs[i].est[0], &c->refs[i].est[1]))
            return 0;
    return 1;
}

void dse_validate_case_summarize(dse_validate_case *c,
                                 dse_validate_metric metric)
{
    int nv = c->nvariants > 0 ? c->nvariants : 1;
    c->ssat = 0;
    c->max_ci_pct = NAN;
    for (int i = 0; i < c->npoints; i++) {
        double ci;
        double s = sim_value(&c->points[i], metric, &ci);
        if (!isfinite(s)) {
            c->ssat++;
            continue;
        }
        if (s > 0 && isfinite(ci)) {
            double rel = 100.0 * ci / s;
            if (!(c->max_ci_pct >= rel))
                c->max_ci_pct = rel;
        }
    }
    for (int k = 0; k < nv; k++)
        summarize_fit(c, k, metric);
    c->variants_same = nv == 2 && same_fits(c);
}

/* ---- the run ------------------------------------------------------------ */

static int selected(const dse_validate_config *cfg,
                    const dse_validate_opts *o)
{
    if (o->quick && !cfg->quick)
        return 0;
    if (o->model && strcmp(o->model, cfg->model) != 0)
        return 0;
    return 1;
}

static int check_fracs(int n, const double *fracs, err *e)
{
    if (n < 1 || n > 16)
        return err_set(e, ERR_INVALID, "between 1 and 16 load fractions");
    for (int i = 0; i < n; i++)
        if (!(fracs[i] > 0 && fracs[i] < 1) ||
            (i && !(fracs[i] > fracs[i - 1])))
            return err_set(e, ERR_INVALID, "load fractions must ascend in "
                           "(0, 1)");
    return 0;
}

static int check_opts(const dse_validate_opts *o, err *e)
{
    if (o->seeds < 1 || o->seeds > 1000)
        return err_set(e, ERR_INVALID, "seeds must be in [1, 1000], got %d",
                       o->seeds);
    if (o->short_seeds < 1 || o->short_seeds > 1000)
        return err_set(e, ERR_INVALID, "short-sweep seeds must be in "
                       "[1, 1000], got %d", o->short_seeds);
    int rc = check_fracs(o->nfracs, o->fracs, e);
    if (rc == 0)
        rc = check_fracs(o->short_nfracs, o->short_fracs, e);
    if (rc)
        return rc;
    if (o->probe_messages < 1 || o->min_messages < 1 ||
        o->max_messages < o->min_messages || !(o->ci_target > 0) ||
        !(o->probe_precision > 0) || o->probe_max < 2 ||
        !(o->probe_queue > 0) || !(o->probe_ratio > 0 && o->probe_ratio <= 1))
        return err_set(e, ERR_INVALID, "bad run-length options");
    if (!o->supports)
        return err_set(e, ERR_INVALID, "no sim_supports hook");
    if ((unsigned)o->variant >= MODEL_VARIANT_COUNT)
        return err_set(e, ERR_INVALID, "unknown model variant %d",
                       (int)o->variant);
    return 0;
}

int dse_validate_run(const dse_validate_config *cfgs, size_t n,
                     const dse_validate_opts *o, dse_validate_result **out,
                     err *e)
{
    *out = NULL;
    int rc = check_opts(o, e);
    if (rc)
        return rc;
    if (o->model && !model_find(o->model))
        return err_set(e, ERR_INVALID, "no model named \"%s\" (see 'dse "
                       "model --list')", o->model);
    double t0 = dse_now_s();
    dse_validate_result *r = xcalloc(1, sizeof *r);
    r->opts = *o;
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += selected(&cfgs[i], o);
    if (count == 0) {
        free(r);
        return err_set(e, ERR_INVALID, "no validation set-up selected%s%s",
                       o->model ? " for model " : "",
                       o->model ? o->model : "");
    }
    r->cases = xcalloc(count, sizeof *r->cases);
    r->ncases = count;
    for (size_t i = 0, k = 0; i < n; i++)
        if (selected(&cfgs[i], o))
            case_setup(&r->cases[k++], &cfgs[i], o);

    run_ctx ctx = {.r = r, .o = o};
    if (o->progress)
        dse_progress_begin(o->progress, "saturation search", count);
    rc = dse_pool_run(count, o->threads, search_job, &ctx, o->progress,
                      o->stop);
    if (o->progress)
        dse_progress_end(o->progress);
    if (rc == ERR_INTERRUPTED || (o->stop && *o->stop))
        goto interrupted;

    /* lay out the sweep */
    size_t njobs = 0;
    for (size_t i = 0; i < count; i++) {
        dse_validate_case *c = &r->cases[i];
        if (c->status != DSE_VALIDATE_DONE)
            continue;
        int sh = c->cfg->short_sweep;
        const double *fracs = sh ? o->short_fracs : o->fracs;
        c->npoints = sh ? o->short_nfracs : o->nfracs;
        c->points = xcalloc((size_t)c->npoints, sizeof *c->points);
        for (int k = 0; k < c->npoints; k++) {
            c->points[k].frac = fracs[k];
            c->points[k].rate = fracs[k] * c->sim_sat;
            c->points[k].ref_latency = NAN;
        }
        c->nrefs = c->cfg->nref;
        if (c->nrefs) {
            c->refs = xcalloc((size_t)c->nrefs, sizeof *c->refs);
            for (int k = 0; k < c->nrefs; k++) {
                c->refs[k].rate = c->cfg->ref_rate[k];
                c->refs[k].frac = c->refs[k].rate / c->sim_sat;
                c->refs[k].ref_latency = c->cfg->ref_latency[k];
            }
        }
        njobs += (size_t)(c->npoints + c->nrefs) * (size_t)c->seeds;
    }
    ctx.jobs = xcalloc(njobs + 1, sizeof *ctx.jobs);
    ctx.njobs = njobs;
    size_t jn = 0;
    for (size_t i = 0; i < count; i++) {
        dse_validate_case *c = &r->cases[i];
        if (c->status != DSE_VALIDATE_DONE)
            continue;
        for (int ref = 0; ref < 2; ref++)
            for (int k = 0; k < (ref ? c->nrefs : c->npoints); k++)
                for (int s = 0; s < c->seeds; s++)
                    ctx.jobs[jn++] = (struct sweep_job){
                        .ci = i, .ref = ref, .pi = k, .rep = s};
    }
    /* heaviest first: order by load fraction, then by table order */
    job_key *keys = xmalloc((njobs + 1) * sizeof *keys);
    for (size_t k = 0; k < njobs; k++) {
        const struct sweep_job *j = &ctx.jobs[k];
        const dse_validate_case *c = &r->cases[j->ci];
        keys[k].load = (j->ref ? c->refs : c->points)[j->pi].frac;
        keys[k].index = k;
    }
    qsort(keys, njobs, sizeof *keys, cmp_key);
    struct sweep_job *sorted = xmalloc((njobs + 1) * sizeof *sorted);
    for (size_t k = 0; k < njobs; k++)
        sorted[k] = ctx.jobs[keys[k].index];
    run_ctx sctx = ctx;
    sctx.jobs = sorted;
    if (o->progress)
        dse_progress_begin(o->progress, "simulate", njobs);
    rc = dse_pool_run(njobs, o->threads, sweep_job, &sctx, o->progress,
                      o->stop);
    if (o->progress)
        dse_progress_end(o->progress);
    for (size_t k = 0; k < njobs; k++)
        ctx.jobs[keys[k].index] = sorted[k];
    free(sorted);
    free(keys);
    if (rc == ERR_INTERRUPTED || (o->stop && *o->stop)) {
        free(ctx.jobs);
        goto interrupted;
    }
    for (size_t k = 0; k < njobs;) {
        const struct sweep_job *j = &ctx.jobs[k];
        int seeds = r->cases[j->ci].seeds;
        merge_point(&ctx, &r->cases[j->ci], j->ref, j->pi, j, seeds);
        k += (size_t)seeds;
    }
    free(ctx.jobs);

    for (size_t i = 0; i < count; i++) {
        dse_validate_case *c = &r->cases[i];
        if (!c->points)
            continue;
        for (int v = 0; v < c->nvariants; v++) {
            for (int k = 0; k < c->npoints; k++)
                model_point(c, v, &c->points[k]);
            for (int k = 0; k < c->nrefs; k++)
                model_point(c, v, &c->refs[k]);
            model_curve(c, v, o);
        }
        dse_validate_case_summarize(c, c->cfg->metric);
    }
    r->wall_s = dse_now_s() - t0;
    *out = r;
    return 0;

interrupted:
    dse_validate_run_destroy(r);
    return err_set(e, ERR_INTERRUPTED, "interrupted");
}

void dse_validate_run_destroy(dse_validate_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ncases; i++) {
        free(r->cases[i].points);
        free(r->cases[i].refs);
        for (int k = 0; k < DSE_VALIDATE_MAX_VARIANTS; k++) {
            free(r->cases[i].fit[k].curve_rate);
            free(r->cases[i].fit[k].curve_latency);
        }
    }
    free(r->cases);
    free(r);
}
