/*
 * corrected.c — the pieces the `corrected` variant of the thesis-family
 * models share (torus-det, torus-duato, torus2d-duato, torus2d-duato-bcast,
 * express-det, dcsh-*, hcube-duato): queueing at the injection and
 * ejection channels and the closing step.
 *
 * Why a variant and not an edit: the printed and recommended readings
 * reproduce the sources' own figures and stay reachable.  `dse validate`
 * compared them with the simulator and traced the larger gaps to the
 * models (docs/validation/notes.md); the corrections re-derive those terms
 * from the simulated semantics (MODELS.md section 3), with no constant
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
