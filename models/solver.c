/*
 * solver.c — B7: the damped fixed-point solver and the saturation protocol
 * every model follows, plus model_saturation_rate().
 *
 * Design: the model supplies a map x -> f(x) over its unknowns and a start
 * at the zero-load point.  The maps are monotone non-decreasing
 * (docs/models/conventions.md, B7), so iterating from zero load climbs to the
 * least fixed point; a guard
 * tripping on the way (utilisation >= 1, ...) means there is no steady state
 * at this rate.  Hitting the iteration cap while every unknown still grows
 * is divergence (saturation); hitting it while they oscillate is reported
 * as "did not converge" so a caller never mistakes it for a latency.
 */
#include <math.h>
#include <string.h>

#include "model_int.h"

model_status model_solve(model_map_fn f, void *ctx, double *x, int nx,
                         const model_opts *opts, int *iterations)
{
    double fx[MODEL_SOLVE_MAX];
    double d = opts->damping > 0 && opts->damping <= 1 ? opts->damping : 1.0;
    int climbing = 0;
    *iterations = 0;
    if (nx < 1 || nx > MODEL_SOLVE_MAX)
        return MODEL_NOCONVERGE;
    for (int it = 1; it <= opts->max_iterations; it++) {
        *iterations = it;
        model_status st = f(ctx, x, fx);
        if (st != MODEL_CONVERGED)
            return st;
        int done = 1;
        climbing = 1;
        for (int i = 0; i < nx; i++) {
            double next = (1 - d) * x[i] + d * fx[i];
            if (!isfinite(next) || fabs(next) > MODEL_LATENCY_CAP)
                return MODEL_SATURATED;
            double step = next - x[i];
            if (fabs(step) > opts->tolerance * fmax(1.0, fabs(x[i])))
                done = 0;
            if (step < 0)
                climbing = 0;
            x[i] = next;
        }
        if (done)
            return MODEL_CONVERGED;
    }
    return climbing ? MODEL_SATURATED : MODEL_NOCONVERGE;
}

int model_result_fail(model_result *out, model_status status, int iterations)
{
    memset(out, 0, sizeof *out);
    out->saturated = 1;
    out->status = status == MODEL_CONVERGED ? MODEL_SATURATED : status;
    out->iterations = iterations;
    return out->status == MODEL_NOCONVERGE ? ERR_NOCONVERGE : ERR_SATURATED;
}

int model_result_ok(model_result *out, double latency, double network_latency,
                    double source_wait, double vc_multiplexing, int iterations)
{
    double v[] = {latency, network_latency, source_wait, vc_multiplexing};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]) || v[i] < 0 || v[i] > MODEL_LATENCY_CAP)
            return model_result_fail(out, MODEL_SATURATED, iterations);
    memset(out, 0, sizeof *out);
    out->latency = latency;
    out->network_latency = network_latency;
    out->source_wait = source_wait;
    out->vc_multiplexing = vc_multiplexing;
    out->status = MODEL_CONVERGED;
    out->iterations = iterations;
    return 0;
}

int model_result_thesis(model_result *out, double rate, int vcs, double L,
                        double m_avg, double v_avg, int iterations)
{
    double lam_v = rate / vcs;
    if (!(lam_v * L < 1))
        return model_result_fail(out, MODEL_SATURATED, iterations);
    double w_qs = lam_v * L * L;
    return model_result_ok(out, (w_qs + m_avg * L) * v_avg, L, w_qs,
                           m_avg * v_avg, iterations);
}

void model_opts_init(model_opts *opts)
{
    opts->variant = MODEL_VARIANT_CORRECTED;
    opts->tolerance = 1e-9;
    opts->max_iterations = 10000;
    opts->damping = 0.5;
}

static const char *const variant_names[MODEL_VARIANT_COUNT] = {
    [MODEL_VARIANT_RECOMMENDED] = "recommended",
    [MODEL_VARIANT_PRINTED] = "printed",
    [MODEL_VARIANT_CORRECTED] = "corrected",
};

const char *model_variant_name(model_variant v)
{
    return (unsigned)v < MODEL_VARIANT_COUNT ? variant_names[v] : "?";
}

int model_variant_parse(const char *name, model_variant *v)
{
    for (int i = 0; i < MODEL_VARIANT_COUNT; i++)
        if (name && strcmp(name, variant_names[i]) == 0) {
            *v = (model_variant)i;
            return 0;
        }
    return -1;
}

const char *model_status_name(model_status s)
{
    switch (s) {
    case MODEL_CONVERGED: return "converged";
    case MODEL_SATURATED: return "saturated";
    case MODEL_NOCONVERGE: return "did not converge";
    }
    return "?";
}

static int converges(const model *m, const net_design *d,
                     const net_workload *w, const model_opts *opts,
                     double rate)
{
    model_result r;
    return m->eval(d, w, rate, opts, &r) == 0;
}

/* Bisection on the first failure (B7): lo always converges, hi never does.
 * Precision 1e-4 relative, ten times finer than the 0.1% promised. */
int model_saturation_rate(const model *m, const net_design *d,
                          const net_workload *w, const model_opts *opts,
                          double *rate, err *e)
{
    double lo = 0, hi = 1e-6;
    while (converges(m, d, w, opts, hi)) {
        lo = hi;
        hi *= 2;
        if (hi > 1e6)
            return err_set(e, ERR_INVALID,
                           "%s: no saturation below 1e6 messages/node/cycle",
                           m->name);
    }
    if (lo == 0) {
        /* search down: the first probe already failed */
        double probe = hi;
        while (probe > 1e-15 && !converges(m, d, w, opts, probe))
            probe /= 2;
        if (probe <= 1e-15)
            return err_set(e, ERR_SATURATED,
                           "%s: saturated at every positive rate", m->name);
        lo = probe;
        hi = probe * 2;
    }
    while ((hi - lo) > 1e-4 * hi) {
        double mid = 0.5 * (lo + hi);
        if (converges(m, d, w, opts, mid))
            lo = mid;
        else
            hi = mid;
    }
    /* eval() already screens (model__screen); this keeps the promise for a
     * model that would not. */
    model_bound b;
    if (model_bound_compute(d, w, &b, NULL) == 0 && lo > b.rate)
        lo = b.rate;
    *rate = lo;
    return 0;
}
