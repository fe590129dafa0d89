/*
 * optimize.c — see optimize.h.
 *
 * The screen (the report states it too):
 *   - every design is scored by its model: latency at each target rate,
 *     saturation rate, costs; designs whose model saturates at or below
 *     the highest target rate are not given a model rank (rank -1) but,
 *     unlike before, they stay in the race: the decision (decide.c) judges
 *     every design by its optimistic bound, and the simulator decides;
 *   - the model rank and model finalists (Pareto fronts on the model
 *     figures) are what --no-sim reports, clearly marked model-only.
 *
 * Determinism: every job writes only its own slot, and aggregation runs in
 * index order after the pool has finished, so the same study gives the same
 * numbers with any thread count.
 */
#include "dse/search/optimize.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/search/pareto.h"
#include "dse/common/pool.h"
#include "dse/search/decide.h"
#include "dse/search/search.h"
#include "constraints/phys.h"
#include "net/xalloc.h"
#include "sim/sim.h"

double dse_study_tolerance_pct(const cfg_study *s)
{
    return s->sim.tolerance_pct;
}

double dse_cost_metric(const cons_cost *c, cfg_cost_metric m)
{
    switch (m) {
    case CFG_COST_BISECTION: return c->bisection_wires;
    case CFG_COST_PINS: return c->max_pins;
    case CFG_COST_WIRES: return c->total_wires;
    case CFG_COST_BUFFER_BITS: return c->buffer_bits;
    case CFG_COST_CROSSBAR_AREA: return c->crossbar_area;
    case CFG_COST_WIRE_LENGTH: return c->wire_length;
    default: return NAN;
    }
}

/* ---- designs with clocks of their own ----------------------------------- */

double dse_clock_scale(const dse_candidate *c)
{
    return c->clock_scale > 0 ? c->clock_scale : 1;
}

double dse_design_clock_ns(const cfg_study *s, const net_design *d)
{
    if (s->router.model != PHYS_ROUTER_CHIEN)
        return NAN;
    phys_router_shape sh;
    err e;
    err_clear(&e);
    if (phys_router_shape_of(d, &sh, &e))
        return NAN;
    phys_chien c;
    phys_chien_of(&sh, &c);
    return c.flit_ns;
}

/* The reference clock: when the study's designs have clocks of their own
 * and they differ, the fastest design's period, and each design's clock
 * over it; else 0 and every scale 1.  A rate per reference cycle is the
 * same offered load per ns on every design, so ranking figures in
 * reference cycles ranks them in ns (docs/decision.md). */
static void set_clocks(const cfg_study *s, dse_run *r)
{
    double lo = INFINITY, hi = -INFINITY;
    r->clock_ref_ns = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        r->cand[i].clock_scale = 1;
        double t = dse_design_clock_ns(s, &r->space.designs[i]);
        if (isfinite(t)) {
            lo = fmin(lo, t);
            hi = fmax(hi, t);
        }
    }
    if (!(hi > lo))
        return;
    r->clock_ref_ns = lo;
    for (size_t i = 0; i < r->ncand; i++)
        r->cand[i].clock_scale =
            dse_design_clock_ns(s, &r->space.designs[i]) / lo;
}

void dse_candidate_scores_to_reference(const cfg_study *s, dse_candidate *c,
                                       double scale)
{
    if (scale == 1)
        return;
    for (size_t i = 0; i < s->rates.n; i++)
        c->latency[i] *= scale;
    c->zero_load *= scale;
    c->saturation_rate /= scale;
    for (size_t j = 0; j < s->nobjectives; j++)
        if (s->objectives[j].kind == CFG_OBJ_LATENCY)
            c->objectives[j] *= scale;
        else if (s->objectives[j].kind == CFG_OBJ_SATURATION)
            c->objectives[j] /= scale;
}

static double max_rate(const cfg_study *s)
{
    double top = 0;
    for (size_t i = 0; i < s->rates.n; i++)
        top = fmax(top, s->rates.v[i]);
    return top;
}

/* Objectives in minimisation form from a latency figure (model or
 * simulated mean over the target rates). */
static void fill_objectives(const cfg_study *s, dse_candidate *c,
                            double mean_latency)
{
    for (size_t j = 0; j < s->nobjectives; j++) {
        const cfg_objective *o = &s->objectives[j];
        switch (o->kind) {
        case CFG_OBJ_LATENCY:
            /* a percentile too: the models predict the mean only, and
             * the screen orders designs, it does not bound them */
            c->objectives[j] = mean_latency;
            break;
        case CFG_OBJ_SATURATION:
            c->objectives[j] = -c->saturation_rate;
            break;
        case CFG_OBJ_COST:
            c->objectives[j] = dse_cost_metric(&c->cost, o->cost);
            break;
        }
    }
}

int dse_score_design(const cfg_study *s, const net_design *d, const model *m,
                     dse_candidate *c, size_t *evaluations)
{
    err e;
    size_t evals = 0;
    /* at the design's own clock, then in reference cycles */
    double scale = dse_clock_scale(c);
    c->design = *d;
    c->model = m;
    c->flits = net_message_flits(d, &s->workload);
    c->rank = -1;
    c->sim_rank = -1;
    c->max_abs_error_pct = NAN;
    c->zero_load = NAN;          /* stay undefined (null in reports) when */
    c->saturation_rate = NAN;    /* no model covers the design */
    for (size_t j = 0; j < CFG_MAX_OBJECTIVES; j++)
        c->objectives[j] = NAN;
    for (size_t i = 0; i < s->rates.n; i++)
        c->latency[i] = NAN;
    c->saturated_at_target = 1;
    c->score_rc = cons_cost_of(d, &c->cost, &e);
    if (c->score_rc)
        goto done;
    if (!m) {
        c->score_rc = ERR_UNSUPPORTED;
        goto done;
    }
    c->zero_load = m->zero_load(d, &s->workload, &s->model);
    c->score_rc = model_saturation_rate(m, d, &s->workload, &s->model,
                                        &c->saturation_rate, &e);
    evals++;
    if (c->score_rc)
        goto done;
    double sum = 0;
    int all_finite = 1;
    for (size_t i = 0; i < s->rates.n; i++) {
        model_result r;
        evals++;
        if (m->eval(d, &s->workload, s->rates.v[i] * scale, &s->model,
                    &r) == 0)
            c->latency[i] = r.latency;
        else
            all_finite = 0;
        sum += c->latency[i];
    }
    c->saturated_at_target =
        !all_finite || c->saturation_rate <= max_rate(s) * scale;
    if (!c->saturated_at_target)
        fill_objectives(s, c, sum / (double)s->rates.n);
done:
    dse_candidate_scores_to_reference(s, c, scale);
    if (evaluations)
        *evaluations = evals;
    return c->score_rc;
}

/* ---- scoring on the pool ---------------------------------------------- */

typedef struct score_ctx {
    const cfg_study *s;
    dse_run *r;
    size_t *evals;           /* per candidate */
    const unsigned char *already; /* scored before (auto's timing sample) */
} score_ctx;

static int score_job(void *arg, size_t i)
{
    score_ctx *x = arg;
    if (x->already[i])
        return 0;
    dse_score_design(x->s, &x->r->space.designs[i], x->r->space.models[i],
                     &x->r->cand[i], &x->evals[i]);
    return 0; /* a design that fails to score is unranked, not an error */
}

/* Rank the candidates listed in idx (count of them) on their objectives;
 * writes rank (and crowding) through the setter. */
static void rank_subset(const cfg_study *s, dse_candidate *cand,
                        const size_t *idx, size_t count, int simulated)
{
    int nobj = (int)s->nobjectives;
    double *pts = xmalloc((count + 1) * (size_t)nobj * sizeof *pts);
    int *rank = xmalloc((count + 1) * sizeof *rank);
    double *crowd = xmalloc((count + 1) * sizeof *crowd);
    for (size_t q = 0; q < count; q++)
        memcpy(pts + q * nobj, cand[idx[q]].objectives, nobj * sizeof *pts);
    pareto_rank(pts, count, nobj, rank);
    pareto_crowding(pts, count, nobj, rank, crowd);
    for (size_t q = 0; q < count; q++) {
        if (simulated) {
            cand[idx[q]].sim_rank = rank[q];
        } else {
            cand[idx[q]].rank = rank[q];
            cand[idx[q]].crowding = crowd[q];
        }
    }
    free(pts);
    free(rank);
    free(crowd);
}

static void select_finalists(const cfg_study *s, dse_run *r)
{
    size_t *ranked = xmalloc((r->ncand + 1) * sizeof *ranked);
    size_t m = 0;
    for (size_t i = 0; i < r->ncand; i++)
        if (!r->cand[i].saturated_at_target && !isnan(r->cand[i].objectives[0]))
            ranked[m++] = i;
    r->nranked = m;
    r->nsaturated_at_target = r->ncand - m;
    rank_subset(s, r->cand, ranked, m, 0);
    int nobj = (int)s->nobjectives;
    double *pts = xmalloc((m + 1) * (size_t)nobj * sizeof *pts);
    for (size_t q = 0; q < m; q++)
        memcpy(pts + q * nobj, r->cand[ranked[q]].objectives,
               nobj * sizeof *pts);
    size_t want = (size_t)s->finalists;
    size_t *pick = xmalloc((want + 1) * sizeof *pick);
    size_t got = pareto_select(pts, m, nobj, want, pick);
    r->finalists = xmalloc((got + 1) * sizeof *r->finalists);
    r->nfinalists = got;
    for (size_t q = 0; q < got; q++) {
        r->finalists[q] = ranked[pick[q]];
        r->cand[ranked[pick[q]]].finalist = (int)q + 1;
    }
    free(pts);
    free(pick);
    free(ranked);
}

double dse_point_latency(const dse_sim_point *p, cfg_latency_stat st,
                         double *half_width)
{
    double v, hw;
    switch (st) {
    case CFG_LAT_P50: v = p->p50; hw = p->p50_half_width; break;
    case CFG_LAT_P95: v = p->p95; hw = p->p95_half_width; break;
    case CFG_LAT_P99: v = p->p99; hw = p->p99_half_width; break;
    default: v = p->latency; hw = p->half_width; break;
    }
    if (p->saturated || !isfinite(v))
        v = hw = NAN;
    if (half_width)
        *half_width = hw;
    return v;
}

/* ---- simulation: the decision's oracle ----------------------------------- */

/* Replications per simulated point: at least 3, so that a 95% interval is
 * not a t(1) = 12.7 one. */
static int seeds_used(const cfg_study *s)
{
    return s->sim.seeds < 3 ? 3 : s->sim.seeds;
}

/* The simulation of design c at target rate ri, replication q. */
static void sim_job_params(const cfg_study *s, const dse_candidate *c,
                           size_t ri, size_t q, volatile sig_atomic_t *stop,
                           sim_params *p)
{
    sim_params_init(p);
    p->design = c->design;
    p->workload = s->workload;
    /* the target rate per reference cycle, per cycle of the design's own
     * clock */
    p->rate = s->rates.v[ri] * dse_clock_scale(c);
    p->seed = 1 + q; /* replication seeds 1, 2, ... for every design */
    p->warmup_messages = s->sim.warmup_messages;
    if (s->sim.ci_half_width > 0) {
        p->stop = SIM_STOP_CI;
        p->ci_target = s->sim.ci_half_width;
        p->min_messages = s->sim.measured_messages;
        p->max_messages = 10 * s->sim.measured_messages;
    } else {
        p->stop = SIM_STOP_MESSAGES;
        p->messages = s->sim.measured_messages;
    }
    p->max_cycles = s->sim.max_cycles;
    /* The watchdog's window is also how long a saturation verdict is
     * confirmed not to be a deadlock.  The detector looks for VCs that can
     * never move, a structural property, so 1000 cycles settle it; the
     * default 5000 made every saturated 1024-node finalist pay 5000 of its
     * slowest cycles. */
    p->deadlock_cycles = 1000;
    p->stop_flag = stop;
}

typedef struct sim_ctx {
    const sim_params *jobs;
    sim_result *results;
    int *codes;
    sim_saturation_result *sat;  /* saturation jobs (jobs are then per design) */
} sim_ctx;

static int sim_job(void *arg, size_t job)
{
    sim_ctx *x = arg;
    err e;
    if (x->sat)
        x->codes[job] = sim_saturation(&x->jobs[job], &x->sat[job], &e);
    else
        x->codes[job] = sim_run(&x->jobs[job], &x->results[job], &e);
    return 0;
}

static int local_threads(const cfg_study *s, const dse_optimize_opts *o)
{
    return o->threads > 0 ? o->threads
                          : (s->sim.threads > 0 ? s->sim.threads : 0);
}

/* Fill c->sim from its replications (results[ri * seeds + q]). */
static void aggregate_design(const cfg_study *s, dse_candidate *c,
                             const sim_result *results, const int *codes,
                             const unsigned char *run)
{
    size_t seeds = (size_t)seeds_used(s), nr = s->rates.n;
    double max_err = NAN, scale = dse_clock_scale(c);
    for (size_t ri = 0; ri < nr; ri++) {
        dse_sim_point *pt = &c->sim[ri];
        size_t base = ri * seeds;
        pt->rate = s->rates.v[ri];
        pt->model_latency = c->latency[ri];
        pt->latency = pt->half_width = pt->error_pct = NAN;
        pt->network_latency = pt->source_wait = pt->accepted = NAN;
        pt->mean_hops = NAN;
        pt->p50 = pt->p95 = pt->p99 = pt->max_latency = NAN;
        pt->p50_half_width = pt->p95_half_width = pt->p99_half_width = NAN;
        if (!run[ri]) {
            /* above the simulated saturation interval: saturates there */
            pt->saturated = pt->skipped = isfinite(c->sim_saturation);
            continue;
        }
        int ok = 1;
        for (size_t q = 0; q < seeds && ok; q++)
            if (codes[base + q] != 0)
                ok = 0;
        if (!ok)
            continue;
        sim_result merged;
        sim_result_merge(&results[base], (int)seeds, &merged);
        pt->seeds = (int)seeds;
        pt->messages = merged.messages;
        pt->accepted = merged.accepted_messages / scale;
        pt->saturated = merged.status != SIM_OK;
        if (pt->saturated)
            continue;
        pt->latency = merged.latency * scale;
        pt->half_width = merged.latency_ci95 * scale;
        pt->network_latency = merged.network_latency * scale;
        pt->source_wait = merged.source_wait * scale;
        pt->mean_hops = merged.hops;
        pt->p50 = merged.latency_p50 * scale;
        pt->p95 = merged.latency_p95 * scale;
        pt->p99 = merged.latency_p99 * scale;
        pt->max_latency = merged.latency_max * scale;
        pt->p50_half_width = merged.latency_p50_ci95 * scale;
        pt->p95_half_width = merged.latency_p95_ci95 * scale;
        pt->p99_half_width = merged.latency_p99_ci95 * scale;
        if (isfinite(pt->model_latency)) {
            pt->error_pct =
                100.0 * (pt->model_latency - pt->latency) / pt->latency;
            if (isnan(max_err) || fabs(pt->error_pct) > max_err)
                max_err = fabs(pt->error_pct);
        }
    }
    c->max_abs_error_pct = max_err;
    c->disagrees = isfinite(max_err) && max_err > dse_study_tolerance_pct(s);
}

/* The extra rates of c's load curve (DSE_CURVE_FRACTIONS of its simulated
 * saturation rate, at most 1, leaving out those within 5% of a target rate,
 * which are simulated anyway); returns how many, 0 when c has no simulated
 * saturation rate. */
static size_t curve_rates(const cfg_study *s, const dse_candidate *c,
                          double *out)
{
    static const double frac[DSE_CURVE_POINTS] = DSE_CURVE_FRACTIONS;
    size_t m = 0;
    if (!(c->sim_saturation > 0))
        return 0;
    for (size_t k = 0; k < DSE_CURVE_POINTS; k++) {
        /* at most one message per node per cycle of the design's own
         * clock: a job's bound */
        double rate =
            fmin(frac[k] * c->sim_saturation, 1.0 / dse_clock_scale(c));
        int near = m > 0 && out[m - 1] == rate;
        for (size_t ri = 0; ri < s->rates.n; ri++)
            if (fabs(rate - s->rates.v[ri]) <= 0.05 * s->rates.v[ri])
                near = 1;
        if (!near)
            out[m++] = rate;
    }
    return m;
}

/* One load-curve point from a single run at rate (per reference cycle;
 * saturated: no latency, but the accepted rate the network delivered). */
static void curve_point(const cfg_study *s, const dse_candidate *c,
                        double rate, int code, const sim_result *res,
                        dse_sim_point *pt)
{
    double scale = dse_clock_scale(c);
    memset(pt, 0, sizeof *pt);
    pt->rate = rate;
    pt->latency = pt->half_width = pt->error_pct = NAN;
    pt->network_latency = pt->source_wait = pt->accepted = NAN;
    pt->mean_hops = pt->model_latency = NAN;
    pt->p50 = pt->p95 = pt->p99 = pt->max_latency = NAN;
    pt->p50_half_width = pt->p95_half_width = pt->p99_half_width = NAN;
    if (code != 0)
        return;
    pt->seeds = 1;
    pt->messages = res->messages;
    pt->accepted = res->accepted_messages / scale;
    pt->saturated = res->status != SIM_OK;
    model_result mr;
    if (c->model && rate < c->saturation_rate &&
        c->model->eval(&c->design, &s->workload, rate * scale, &s->model,
                       &mr) == 0)
        pt->model_latency = mr.latency * scale;
    if (pt->saturated)
        return;
    pt->latency = res->latency * scale;
    pt->half_width = res->latency_ci95 * scale;
    pt->network_latency = res->network_latency * scale;
    pt->source_wait = res->source_wait * scale;
    pt->mean_hops = res->hops;
    pt->p50 = res->latency_p50 * scale;
    pt->p95 = res->latency_p95 * scale;
    pt->p99 = res->latency_p99 * scale;
    pt->max_latency = res->latency_max * scale;
    pt->p50_half_width = res->latency_p50_ci95 * scale;
    pt->p95_half_width = res->latency_p95_ci95 * scale;
    pt->p99_half_width = res->latency_p99_ci95 * scale;
}

typedef struct oracle_ctx {
    const dse_optimize_opts *o;
} oracle_ctx;

/* A design's saturation search answer into c, with a warning when it
 * sustains more than its channel-load bound allows. */
static void note_saturation(dse_candidate *c, const sim_saturation_result *sat,
                            int code)
{
    int ok = code == 0 && sat->status == SIM_OK;
    double scale = dse_clock_scale(c);
    c->sim_saturation = ok ? sat->rate / scale : NAN;
    c->sim_saturation_lo = ok ? sat->rate_lo / scale : NAN;
    c->sim_saturation_hi = ok ? sat->rate_hi / scale : NAN;
    if (dse_check_sim_saturation(c)) {
        char label[256];
        net_design_format(&c->design, label, sizeof label);
        fprintf(stderr,
                "dse: WARNING: %s sustains %.5g messages/node/cycle in "
                "simulation, above its channel-load bound %.5g: a bug in "
                "the bound or the simulator (kept as measured, flagged "
                "in the report)\n",
                label, c->sim_saturation, c->bound_rate);
    }
}

/* Saturation jobs, one per design: the whole search, or with ceiling (not
 * NULL) one probe at ceiling[q] (the decision's saturation screen).  On
 * the executor (the farm, the result cache) when it runs them, else on the
 * local pool. */
static int saturate_designs(const dse_optimize_opts *o, const cfg_study *s,
                            dse_run *r, const size_t *idx,
                            const double *ceiling, size_t n, int threads,
                            err *e)
{
    sim_params *sjobs = xcalloc(n + 1, sizeof *sjobs);
    sim_saturation_result *sat = xcalloc(n + 1, sizeof *sat);
    int *scodes = xcalloc(n + 1, sizeof *scodes);
    for (size_t q = 0; q < n; q++) {
        const dse_candidate *c = &r->cand[idx[q]];
        sim_job_params(s, c, 0, 0, o->stop, &sjobs[q]);
        sjobs[q].max_cycles = 0;   /* the search bounds itself */
        if (ceiling)   /* per reference cycle, per own cycle */
            sjobs[q].saturation_ceiling = ceiling[q] * dse_clock_scale(c);
        else if (isfinite(c->bound_rate) && c->bound_rate > 0)
            /* the search confirms an answer near the bound */
            sjobs[q].saturation_bound = c->bound_rate * dse_clock_scale(c);
    }
    if (o->progress)
        dse_progress_begin(o->progress, ceiling ? "probe" : "saturate", n);
    int rc;
    if (o->executor && o->executor->saturate) {
        rc = o->executor->saturate(o->executor->self, sjobs, n, sat, scodes,
                                   o->progress, o->stop, e);
    } else {
        sim_ctx sx = {.jobs = sjobs, .codes = scodes, .sat = sat};
        rc = dse_pool_run(n, threads, sim_job, &sx, o->progress, o->stop);
    }
    if (o->progress)
        dse_progress_end(o->progress);
    for (size_t q = 0; q < n && rc == 0; q++) {
        dse_candidate *c = &r->cand[idx[q]];
        if (ceiling) {
            c->probe_rate = ceiling[q];
            c->probe_unstable = scodes[q] == 0 &&
                                sat[q].status == SIM_OK && sat[q].hi > 0;
        } else {
            note_saturation(c, &sat[q], scodes[q]);
        }
    }
    free(sjobs);
    free(sat);
    free(scodes);
    if (rc == 0 && o->stop && *o->stop)
        rc = ERR_INTERRUPTED;
    if (rc)
        return rc == ERR_INTERRUPTED
                   ? err_set(e, rc, "interrupted while simulating")
                   : rc;
    return 0;
}

/* One batch of simulations for n designs after their saturation searches:
 * the replications at the target rates each design may sustain, then the
 * load curves' extra points.  Results land in results/codes at
 * q * per + ri * seeds + k (slot[j] for job j; SIZE_MAX for a curve
 * point, which is read from res/rcodes directly). */
typedef struct sim_batch {
    size_t n, nr, seeds, per;
    size_t njobs, ntarget;      /* all jobs; the target-rate ones first */
    unsigned char *run;         /* run[q * nr + ri]: design q runs at ri */
    size_t *ncurve;             /* design q's curve points */
    double *crate;              /* their rates, DSE_CURVE_POINTS per design */
    sim_params *jobs;
    size_t *slot;
    sim_result *results, *res;
    int *codes, *rcodes;
} sim_batch;

/* Which target rates each design runs at (up to the top of its
 * saturation interval, when the simulator supports it) and the rates of
 * its curve points: the batch's size. */
static void plan_batch(const dse_optimize_opts *o, const cfg_study *s,
                       const dse_run *r, const size_t *idx, size_t n,
                       sim_batch *b)
{
    b->n = n;
    b->nr = s->rates.n;
    b->seeds = (size_t)seeds_used(s);
    b->per = b->nr * b->seeds;
    b->njobs = 0;
    b->run = xcalloc(n * b->nr + 1, 1);
    for (size_t q = 0; q < n; q++) {
        const dse_candidate *c = &r->cand[idx[q]];
        int supported = sim_supports(&c->design, &s->workload, NULL) == 0;
        for (size_t ri = 0; ri < b->nr; ri++) {
            b->run[q * b->nr + ri] = supported &&
                                     !(s->rates.v[ri] > c->sim_saturation_hi);
            if (b->run[q * b->nr + ri])
                b->njobs += b->seeds;
        }
    }
    /* the load curves' extra points, in the same batch */
    b->ntarget = b->njobs;
    b->ncurve = xcalloc(n + 1, sizeof *b->ncurve);
    b->crate = xcalloc(n * DSE_CURVE_POINTS + 1, sizeof *b->crate);
    for (size_t q = 0; q < n && !o->no_curves; q++) {
        const dse_candidate *c = &r->cand[idx[q]];
        if (sim_supports(&c->design, &s->workload, NULL) != 0)
            continue;
        b->ncurve[q] = curve_rates(s, c, &b->crate[q * DSE_CURVE_POINTS]);
        b->njobs += b->ncurve[q];
    }
}

/* The batch's jobs: every replication at a target rate (codes of the
 * rates not run stay ERR_UNSUPPORTED), then every curve point. */
static void fill_batch(const dse_optimize_opts *o, const cfg_study *s,
                       const dse_run *r, const size_t *idx, sim_batch *b)
{
    size_t n = b->n, nr = b->nr, seeds = b->seeds, per = b->per;
    b->jobs = xcalloc(b->njobs + 1, sizeof *b->jobs);
    b->results = xcalloc(n * per + 1, sizeof *b->results);
    b->codes = xcalloc(n * per + 1, sizeof *b->codes);
    b->slot = xcalloc(b->njobs + 1, sizeof *b->slot);
    size_t j = 0;
    for (size_t q = 0; q < n; q++)
        for (size_t ri = 0; ri < nr; ri++)
            for (size_t k = 0; k < seeds; k++) {
                b->codes[q * per + ri * seeds + k] = ERR_UNSUPPORTED;
                if (!b->run[q * nr + ri])
                    continue;
                sim_job_params(s, &r->cand[idx[q]], ri, k, o->stop,
                               &b->jobs[j]);
                b->slot[j++] = q * per + ri * seeds + k;
            }
    for (size_t q = 0; q < n; q++)
        for (size_t k = 0; k < b->ncurve[q]; k++) {
            /* one replication of the study's measured messages, without
             * the CI rule: a point of a curve, not a ranked figure */
            const dse_candidate *c = &r->cand[idx[q]];
            sim_job_params(s, c, 0, 0, o->stop, &b->jobs[j]);
            b->jobs[j].rate =
                b->crate[q * DSE_CURVE_POINTS + k] * dse_clock_scale(c);
            b->jobs[j].stop = SIM_STOP_MESSAGES;
            b->jobs[j].messages = s->sim.measured_messages;
            b->slot[j++] = SIZE_MAX;
        }
    b->res = xcalloc(b->njobs + 1, sizeof *b->res);
    b->rcodes = xcalloc(b->njobs + 1, sizeof *b->rcodes);
}

/* The batch's jobs on the executor, else on the local pool. */
static int run_batch(const dse_optimize_opts *o, sim_batch *b, int threads,
                     err *e)
{
    int rc;
    if (o->progress)
        dse_progress_begin(o->progress, "simulate", b->njobs);
    if (o->executor) {
        rc = o->executor->simulate(o->executor->self, b->jobs, b->njobs,
                                   b->res, b->rcodes, o->progress, o->stop, e);
    } else {
        sim_ctx x = {.jobs = b->jobs, .results = b->res, .codes = b->rcodes};
        rc = dse_pool_run(b->njobs, threads, sim_job, &x, o->progress,
                          o->stop);
    }
    if (o->progress)
        dse_progress_end(o->progress);
    if (rc == 0 && o->stop && *o->stop)
        rc = ERR_INTERRUPTED;
    return rc;
}

/* Each design's simulated points (its replications merged) and its load
 * curve, from the batch's results. */
static void collect_batch(const cfg_study *s, dse_run *r, const size_t *idx,
                          sim_batch *b)
{
    for (size_t k = 0; k < b->ntarget; k++) {
        b->results[b->slot[k]] = b->res[k];
        b->codes[b->slot[k]] = b->rcodes[k];
    }
    size_t k = b->ntarget;
    for (size_t q = 0; q < b->n; q++) {
        dse_candidate *c = &r->cand[idx[q]];
        c->sim = xcalloc(b->nr, sizeof *c->sim);
        aggregate_design(s, c, &b->results[q * b->per], &b->codes[q * b->per],
                         &b->run[q * b->nr]);
        free(c->curve);
        c->curve = xcalloc(b->ncurve[q] + 1, sizeof *c->curve);
        c->ncurve = b->ncurve[q];
        for (size_t m = 0; m < b->ncurve[q]; m++, k++)
            curve_point(s, c, b->crate[q * DSE_CURVE_POINTS + m],
                        b->rcodes[k], &b->res[k], &c->curve[m]);
    }
}

static void batch_free(sim_batch *b)
{
    free(b->run);
    free(b->ncurve);
    free(b->crate);
    free(b->jobs);
    free(b->results);
    free(b->codes);
    free(b->slot);
    free(b->res);
    free(b->rcodes);
}

/* The decision's saturation screen (decide.h, dse_sim_oracle.probe). */
static int probe_designs(void *self, const cfg_study *s, dse_run *r,
                         const size_t *idx, const double *rate, size_t n,
                         err *e)
{
    const dse_optimize_opts *o = ((oracle_ctx *)self)->o;
    return saturate_designs(o, s, r, idx, rate, n, local_threads(s, o), e);
}

/* Simulate designs idx[0..n): first each one's saturation rate (a fast
 * search, sim_saturation), then its replications at every target rate up
 * to the top of that interval (above it the design saturates: no run). */
static int simulate_designs(void *self, const cfg_study *s, dse_run *r,
                            const size_t *idx, size_t n, err *e)
{
    const dse_optimize_opts *o = ((oracle_ctx *)self)->o;
    int threads = local_threads(s, o);
    int rc = saturate_designs(o, s, r, idx, NULL, n, threads, e);
    if (rc)
        return rc;
    sim_batch b;
    plan_batch(o, s, r, idx, n, &b);
    fill_batch(o, s, r, idx, &b);
    rc = run_batch(o, &b, threads, e);
    if (rc == 0)
        collect_batch(s, r, idx, &b);
    else if (rc == ERR_INTERRUPTED)
        err_set(e, rc, "interrupted while simulating");
    batch_free(&b);
    return rc;
}

/* ---- the run ------------------------------------------------------------ */

/* Score design i once, for the NLopt search (which asks sequentially). */
typedef struct lazy_ctx {
    const cfg_study *s;
    dse_run *r;
    unsigned char *scored;
    size_t evaluations;
} lazy_ctx;

static const dse_candidate *score_lazily(void *arg, size_t i)
{
    lazy_ctx *x = arg;
    if (!x->scored[i]) {
        size_t evals = 0;
        dse_score_design(x->s, &x->r->space.designs[i], x->r->space.models[i],
                         &x->r->cand[i], &evals);
        x->evaluations += evals;
        x->scored[i] = 1;
    }
    return &x->r->cand[i];
}

/* Keep only the scored candidates (in space order), freeing the rest. */
static void compact_scored(dse_run *r, const unsigned char *scored)
{
    size_t m = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        if (scored[i]) {
            r->cand[m++] = r->cand[i];
        } else {
            free(r->cand[i].latency);
            free(r->cand[i].sim);
            free(r->cand[i].curve);
        }
    }
    r->ncand = m;
}

/* auto: exhaustive when scoring everything is projected to take under
 * AUTO_EXHAUSTIVE_S seconds on the threads we have, judged by timing a
 * sample spread evenly over the space (the sample stays scored). */
#define AUTO_EXHAUSTIVE_S 10.0
#define AUTO_SAMPLE 16

static int want_nlopt(const cfg_study *s, const dse_optimize_opts *o,
                      lazy_ctx *lazy)
{
    if (s->search == CFG_SEARCH_EXHAUSTIVE)
        return 0;
    if (s->search == CFG_SEARCH_NLOPT)
        return 1;
    size_t count = lazy->r->ncand;
    if (count <= AUTO_SAMPLE)
        return 0;
    double t0 = dse_now_s();
    for (size_t q = 0; q < AUTO_SAMPLE; q++)
        score_lazily(lazy, q * count / AUTO_SAMPLE);
    double per_design = (dse_now_s() - t0) / AUTO_SAMPLE;
    int threads = o->threads > 0 ? o->threads : dse_cores();
    return per_design * (double)count / threads > AUTO_EXHAUSTIVE_S;
}

int dse_optimize(const cfg_study *s, const dse_optimize_opts *o, dse_run *r,
                 err *e)
{
    memset(r, 0, sizeof *r);
    r->study = s;
    r->strategy = "exhaustive";
    size_t phase0 = o->progress ? o->progress->nphases : 0;
    double t0 = dse_now_s();
    int rc = dse_space_build_stoppable(s, &r->space, o->stop, e);
    r->seconds_space = dse_now_s() - t0;
    if (rc)
        return rc;
    if (r->space.count == 0)
        return err_set(e, ERR_INFEASIBLE,
                       "no feasible design in the study's space (run 'dse "
                       "check' for the reasons)");

    r->ncand = r->space.count;
    r->cand = xcalloc(r->ncand, sizeof *r->cand);
    for (size_t i = 0; i < r->ncand; i++)
        r->cand[i].latency = xcalloc(s->rates.n + 1, sizeof(double));
    set_clocks(s, r);
    double t1 = dse_now_s();
    lazy_ctx lazy = {.s = s, .r = r};
    lazy.scored = xcalloc(r->ncand + 1, 1);
    if (want_nlopt(s, o, &lazy)) {
        r->strategy = "nlopt";
        if (o->progress)
            dse_progress_begin(o->progress, "search", r->ncand);
        size_t distinct = 0;
        rc = dse_search_nlopt(s, &r->space, score_lazily, &lazy, o->stop,
                              &distinct, e);
        if (o->progress) {
            o->progress->done = distinct;
            dse_progress_end(o->progress);
        }
        r->evaluations = lazy.evaluations;
        compact_scored(r, lazy.scored);
    } else {
        score_ctx sc = {.s = s, .r = r, .already = lazy.scored};
        r->evaluations = lazy.evaluations;
        sc.evals = xcalloc(r->ncand + 1, sizeof *sc.evals);
        if (o->progress)
            dse_progress_begin(o->progress, "score", r->ncand);
        if (o->executor) {
            size_t *idx = xmalloc((r->ncand + 1) * sizeof *idx);
            size_t m = 0;
            for (size_t i = 0; i < r->ncand; i++)
                if (!lazy.scored[i])
                    idx[m++] = i;
            size_t evals = 0;
            rc = o->executor->score(o->executor->self, s, r, idx, m, &evals,
                                    o->progress, o->stop, e);
            sc.evals[0] += evals;
            free(idx);
        } else {
            rc = dse_pool_run(r->ncand, o->threads, score_job, &sc,
                              o->progress, o->stop);
        }
        if (o->progress)
            dse_progress_end(o->progress);
        for (size_t i = 0; i < r->ncand; i++)
            r->evaluations += sc.evals[i];
        free(sc.evals);
    }
    free(lazy.scored);
    r->seconds_score = dse_now_s() - t1;
    if (rc == ERR_INTERRUPTED || (o->stop && *o->stop)) {
        r->interrupted = 1;
        return err_set(e, ERR_INTERRUPTED, "interrupted while scoring");
    }
    if (rc)
        return rc;

    /* the decision's fields stay undefined until it runs (--no-sim) */
    for (size_t i = 0; i < r->ncand; i++) {
        dse_candidate *c = &r->cand[i];
        c->bound_rate = c->exact_zero_load = c->opt_saturation = NAN;
        c->sim_saturation = c->sim_saturation_lo = c->sim_saturation_hi = NAN;
        c->dominated_by = -1;
    }
    select_finalists(s, r);
    r->recommended = r->runner_up = SIZE_MAX;
    r->model_choice = r->nfinalists ? r->finalists[0] : SIZE_MAX;

    double t2 = dse_now_s();
    if (!o->skip_sim) {
        r->seeds_used = seeds_used(s);
        oracle_ctx ox = {o};
        dse_sim_oracle oracle = {simulate_designs, &ox, probe_designs};
        rc = dse_decide(s, r, &oracle, local_threads(s, o), o->simulate_all,
                        o->progress, o->stop, e);
        if (rc == ERR_INTERRUPTED) {
            r->interrupted = 1;
            return err_set(e, ERR_INTERRUPTED, "interrupted while simulating");
        }
        if (rc)
            return rc;
    }
    r->seconds_sim = dse_now_s() - t2;
    r->seconds_total = dse_now_s() - t0;
    if (o->progress && o->progress->nphases > phase0) {
        r->nphases = o->progress->nphases - phase0;
        r->phases = xcalloc(r->nphases, sizeof *r->phases);
        memcpy(r->phases, &o->progress->phases[phase0],
               r->nphases * sizeof *r->phases);
    }
    return 0;
}

size_t dse_run_probed(const dse_run *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncand; i++)
        n += r->cand[i].probe_rate > 0;
    return n;
}

void dse_run_fini(dse_run *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ncand; i++) {
        free(r->cand[i].latency);
        free(r->cand[i].sim);
        free(r->cand[i].curve);
    }
    free(r->cand);
    free(r->finalists);
    free(r->best_at_rate);
    free(r->disagree);
    free(r->phases);
    dse_space_fini(&r->space);
    memset(r, 0, sizeof *r);
}
