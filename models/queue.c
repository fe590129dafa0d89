/*
 * queue.c — B3 waiting times and small numeric helpers (B6 fractional
 * sums, binomials, clamping, Erlang's C) shared by the models.
 *
 * Draper-Ghosh: the service-time variance of a wormhole channel is
 * approximated by (S - Lm)^2, since the minimum service time is the message
 * length Lm; with S = Lm the formula reduces to M/D/1
 * (docs/models/conventions.md, "Zero-load closed forms").
 */
#include <math.h>

#include "model_int.h"

model_status wait_mg1_dg(double lam, double s, double lm, double *w)
{
    double rho = lam * s;
    if (!isfinite(rho) || rho < 0 || rho >= 1)
        return MODEL_SATURATED;
    *w = lam * (s * s + (s - lm) * (s - lm)) / (2.0 * (1.0 - rho));
    return MODEL_CONVERGED;
}

model_status wait_md1(double lam, double lm, double *w)
{
    double rho = lam * lm;
    if (!isfinite(rho) || rho < 0 || rho >= 1)
        return MODEL_SATURATED;
    *w = lam * lm * lm / (2.0 * (1.0 - rho));
    return MODEL_CONVERGED;
}

double frac_sum(double x, double (*f)(double h, void *ctx), void *ctx)
{
    if (!(x > 0))
        return 0;
    double whole = floor(x), sum = 0;
    for (double h = 1; h <= whole; h += 1)
        sum += f(h, ctx);
    if (x > whole)
        sum += (x - whole) * f(whole + 1, ctx);
    return sum;
}

double binom(int a, int b)
{
    if (b < 0 || b > a)
        return 0;
    if (b > a - b)
        b = a - b;
    double c = 1;
    for (int i = 1; i <= b; i++)
        c = c * (a - b + i) / i;
    return c;
}

double clamp01(double p)
{
    return p < 0 ? 0 : (p > 1 ? 1 : p);
}

double erlang_c(int c, double a)
{
    double b = 1;
    for (int k = 1; k <= c; k++)
        b = a * b / (k + a * b);
    return b / (1 - a / c * (1 - b));
}
