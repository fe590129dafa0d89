/*
 * vc_chain.c — B1 and B2 of docs/models/conventions.md: the virtual-channel
 * occupancy chain
 * and the average multiplexing degree (Dally).
 *
 * The chain has states v = 0..V busy VCs, birth rate lam_c, death rate 1/S
 * below V and 1/S - lam_c in state V (a released VC is grabbed at once).
 * Its closed form is P[v] = (1-rho) rho^v for v < V and P[V] = rho^V with
 * rho = lam_c S; we use it directly (no normalising sum, so no overflow for
 * large V and no OCR-damaged sum limits to get wrong).  The typo V/S for
 * 1/S in [L99] eqs.(2.10)/(2.16) is ignored, as docs/models/conventions.md,
 * B1 explains.
 */
#include <math.h>

#include "model_int.h"

model_status vc_chain_probs(double lam_c, double s, int vmax, double *p)
{
    double rho = lam_c * s;
    if (!isfinite(rho) || rho < 0 || rho >= 1 || vmax < 1)
        return MODEL_SATURATED;
    double power = 1.0;
    for (int v = 0; v < vmax; v++) {
        p[v] = (1.0 - rho) * power;
        power *= rho;
    }
    p[vmax] = power;
    return MODEL_CONVERGED;
}

double vc_multiplexing(const double *p, int vmax)
{
    double num = 0, den = 0;
    for (int v = 1; v <= vmax; v++) {
        num += (double)v * v * p[v];
        den += (double)v * p[v];
    }
    return den > 0 ? num / den : 1.0;
}

model_status vc_mux_degree(double lam_c, double s, int vmax, double *vbar)
{
    /* Multiplexer chains can have (k-1)V states: keep big ones off the
     * stack's small buffer. */
    double small[65];
    if (vmax < 64) {
        model_status st = vc_chain_probs(lam_c, s, vmax, small);
        if (st != MODEL_CONVERGED)
            return st;
        *vbar = vc_multiplexing(small, vmax);
        return MODEL_CONVERGED;
    }
    /* Closed form sums for large vmax, from P[v] = (1-rho) rho^v, v < V. */
    double rho = lam_c * s;
    if (!isfinite(rho) || rho < 0 || rho >= 1)
        return MODEL_SATURATED;
    double num = 0, den = 0, power = rho;
    for (int v = 1; v < vmax; v++) {
        num += (double)v * v * (1 - rho) * power;
        den += (double)v * (1 - rho) * power;
        power *= rho;
        if (power < 1e-300)
            break;
    }
    double last = pow(rho, vmax);
    num += (double)vmax * vmax * last;
    den += (double)vmax * last;
    *vbar = den > 0 ? num / den : 1.0;
    return MODEL_CONVERGED;
}
