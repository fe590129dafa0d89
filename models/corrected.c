/*
 * corrected.c — the pieces the `corrected` variant of the thesis-family
 * models share (torus-det, torus-duato, torus2d-duato, torus2d-duato-bcast,
 * express-det, dcsh-*, hcube-duato): queueing at the injection and
 * ejection channels and the closing step.
 *
 * Why a variant and not an edit: the printed and recommended readings
 * reproduce the sources' own figures and stay reachable.  `dse validate`
 * compared them with the simulator and traced the larger gaps to the
 * models (docs/models/corrected.md); the corrections re-derive those terms
 * from the simulated semantics (docs/models/semantics.md), with no constant
 * fitted to a simulation.  The contracts are in model_int.h.
 */
#include <math.h>

#include "model_int.h"

double model_length_m2(const net_design *d, const net_workload *w)
{
    double lm = net_message_flits(d, w);
    if (w->length == NET_LENGTH_EXPONENTIAL)
        return 2.0 * lm * lm - lm;     /* geometric: Var = Lm^2 - Lm */
    return lm * lm;
}

model_status wait_mg1_pk(double lam, double lm, double lm2, double *w)
{
    double rho = lam * lm;
    if (!isfinite(rho) || !isfinite(lm2) || rho < 0 || rho >= 1)
        return MODEL_SATURATED;
    *w = lam * lm2 / (2.0 * (1.0 - rho));
    return MODEL_CONVERGED;
}

model_status model_ejection_mg1(const net_design *d, double lam, double lm,
                                double lm2, double *wqd)
{
    *wqd = 0;
    if (d->ejection_channels == 0)
        return MODEL_CONVERGED;
    return wait_mg1_pk(lam / d->ejection_channels, lm, lm2, wqd);
}

int model_result_corrected(model_result *out, double rate, int vcs,
                           double lm, double lm2, double L, double idle,
                           double slowdown, int iterations)
{
    double ws;
    if (!(rate / vcs * L < 1) ||
        wait_mg1_pk(rate, lm, lm2, &ws) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iterations);
    idle = idle >= 0 ? fmin(idle, L) : 0;
    double latency = ws + (L - idle) * slowdown + idle;
    return model_result_ok(out, latency, L, ws, slowdown, iterations);
}

/* ---- the worm's drain (docs/models/corrected.md, CV6) ------------- */

double model_ps_stall(double rho, int vcs)
{
    if (!(rho > 0) || vcs <= 1)
        return 0;
    if (!(rho < 1))
        return INFINITY;
    /* M/M/1-PS capped at V in service: E[min(N, V)] = sum_{j=1..V} rho^j,
     * so by Little the in-service time is Lm (1 - rho^V) / (1 - rho);
     * the stall is what exceeds Lm. */
    return (rho - pow(rho, vcs)) / (1 - rho);
}

/* P(len > m) for the workload's length distribution (geometric with mean
 * lm, or fixed). */
static double len_over(double lm, int geometric, double m)
{
    if (m <= 0)
        return 1;
    if (geometric)
        return lm > 1 ? pow(1.0 - 1.0 / lm, m) : 0.0;
    return lm > m ? 1.0 : 0.0;
}

double model_worm_stretch(const net_design *d, const net_workload *w,
                          double rate, const model_worm_path *path)
{
    double lm = net_message_flits(d, w);
    int geo = w->length == NET_LENGTH_EXPONENTIAL;
    double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    double stalls = 0, after = 0;
    /* backwards from the destination: segment i is still spanned when the
     * header arrives iff the worm is longer than the buffers of the hops
     * after it */
    for (int i = path->nseg - 1; i >= 0; i--) {
        stalls += path->cross[i] * len_over(lm, geo, b * after) *
                  path->stall[i];
        after += path->cross[i] * path->hops[i];
    }
    stalls += len_over(lm, geo, b * after) * model_ps_stall(rate * lm,
                                                            d->vcs);
    if (!isfinite(stalls))
        return INFINITY;
    /* The competitors are worms of the same network, themselves stretched:
     * one is ready to send in 1/s of the cycles, so the stalls it causes
     * are stall / s, and s = 1 + stalls / s. */
    return (1.0 + sqrt(1.0 + 4.0 * stalls)) / 2.0;
}

model_status model_ejection_worm(const net_design *d, double lam, double lm,
                                 double lm2, double stretch, double *wqd)
{
    *wqd = 0;
    if (d->ejection_channels == 0)
        return MODEL_CONVERGED;
    if (!isfinite(stretch) || stretch < 1)
        return MODEL_SATURATED;
    return wait_mg1_pk(lam / d->ejection_channels, stretch * lm,
                       stretch * stretch * lm2, wqd);
}

