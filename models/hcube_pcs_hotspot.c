/*
 * hcube_pcs_hotspot.c — M9 `hcube-pcs-hotspot`: pipelined circuit
 * switching (PCS) with backtracking in the binary n-cube under hot-spot
 * traffic.
 *
 * Source: [SKFO05] (Safaei, Khonsari, Fathy, Ould-Khaoua,
 * ICPP-W 2005), section 3, eqs.(1)-(26); docs/models/hypercube-dcsh.md, "M9
 * as printed".  The header reserves
 * one VC per hop along a fully adaptive minimal route; when every VC it
 * could use next is busy it releases the last one and backs up a node (no
 * waiting).  At the destination an acknowledgement returns over the path,
 * then the M data flits are pipelined.  Traffic (Pfister-Norton): a message
 * goes to the hot spot with probability theta, else uniformly elsewhere.
 * By symmetry the hot spot's position does not matter.
 *
 * Equations as implemented (docs/models/hypercube-dcsh.md, "M9 as printed",
 * part 3):
 *   P_r(i) = P_h(i) = C(n,i)/(N-1);  Dbar_r = n N/(2(N-1))        (6),(14)
 *   lam_r    = (1-theta) lam Dbar_r / n          every channel          (15)
 *   lam_h(j) = theta lam sum_{l>=j} C(n,l) / ((n-j+1) C(n,j-1))
 *              on each "level-j inbound" channel (j -> j-1 hops from
 *              the hot spot)                                      (16)-(17)
 *   lam_j    = lam_r + lam_h(j)                                         (18)
 *   unknowns Tr and Th(1..n):
 *   Tbar_j = (lam_r Tr + lam_h(j) Th(j)) / lam_j                         (19)
 *   rho_j  = lam_j Tbar_j;  PL(j) = rho_j^V                              (24)
 *   outbound channels (away from the hot spot): rho_0 = lam_r Tr,
 *     PL0 = rho_0^V                                          [recommended]
 *   hot-spot message j hops away: q_s = PL(j-s)^(j-s)                   (13)
 *     Th(j) = M + j + d_0 + j                                (5),(10)
 *   regular i-hop message: q_s = sum_l (l C(n,l)/(n 2^n)) PL(l)^(i-s)
 *     + (1/2) PL0^(i-s)                              (12) [recommended]
 *     Tr(i) = M + i + d_0 + i;  Tr = sum_i P_r(i) Tr(i)          (3),(4),(9)
 *   d_0 from the walk (8) with e_0 = 1 [printed] (pcs__walk below)
 *   Th_mean = sum_j P_h(j) Th(j);  Tbar = (1-theta) Tr + theta Th_mean (7),(2)
 *   W = (lam/V) Tbar^2 [1 + (Tbar - M - 3 Dbar_r + 1)^2/Tbar^2]
 *       / (2 [1 - (lam/V) Tbar])                                         (23)
 *   Vbar = sum_j P_h(j) Vbar(B1(lam_j, Tbar_j, V))                  (25)-(26)
 *   Latency = (Tbar + W) Vbar                                             (1)
 *
 * The reconstructed link (docs/models/hypercube-dcsh.md, "M9 as printed",
 * item 4, Appendix B): the paper
 * defines p_{i,j,k} = PL_j^(i-k+1) (12) for a regular header at a channel
 * j hops from the hot spot but never says how j is distributed along a
 * regular path, nor which channel's PL the walk uses.  We average over
 * directed channels: level-j inbound channels are j C(n,j) of the n 2^n
 * directed channels (fraction j C(n,j)/(n 2^n), summing to 1/2) and the
 * other half lead away from the hot spot and carry regular traffic only.
 * A header with r hops left is blocked when all r candidate channels are
 * busy; The documented form averages PL(l)^r over the levels l, i.e. it takes
 * the r candidates to sit at one level together (as (12)-(13) do for one
 * j), rather than raising the level-averaged PL to the power r.
 * docs/models/hypercube-dcsh.md says how the simulator will test this.
 *
 * Other resolutions (docs/models/hypercube-dcsh.md, "M9 as printed",
 * resolutions):
 *   1. (15)'s second form (1-theta) lam dbar/(4n) is meaningless (dbar in
 *      (11) is a set-up time): the first form [fix].
 *   2. (19)'s lambda_c is lam_r [fix].
 *   3. "V >= I" is V >= 1; "between l and n hops" is 1 and n; "i-j+1 hops
 *      remain" for state S_j is i-j [fix].
 *   5. (8)'s source row d_0 = p_0 (d_1 + 1) + q_0 d_0 solves to
 *      d_0 = d_1 + 1 whatever q_0 < 1: failed source attempts cost nothing.
 *      [printed], kept; pcs__walk(retry_costs = 1) implements the other
 *      reading (one cycle per failed attempt) for comparison.
 *   6. (19) uses Th(j), the latency of a hot-spot message that *starts*
 *      j hops away, as the holding time on level-j channels: printed, kept.
 *   7. (23)'s Dbar is the mean distance Dbar_r.
 *   8. (26) weights the channel multiplexing degrees by P_h(j) and ignores
 *      outbound channels: printed, kept.
 *   9. The hot spot does not send to itself: ignored, O(1/N).
 *
 * Extensions beyond the paper (reducing to it at its settings):
 *   - Router delay: each header move (forward or back) costs 1 + Dr cycles
 *     (a routing decision precedes every move); the acknowledgement and the
 *     data flits follow the reserved circuit and pay no decision.  So d_0
 *     scales by 1 + Dr, zero load is M + (3 + Dr) Dbar_r, and (23)'s
 *     variance term uses Tbar minus that zero-load value, plus 1.
 *   - Uniform traffic is covered as theta = 0 (then the model is a uniform
 *     PCS model, and the hot-spot terms vanish).
 *   - Length: fixed in the paper; exponential workloads use the mean.
 *   - Ejection: the paper consumes arriving flits at once; only
 *     d->ejection_channels == 0 is covered (a single ejection channel would
 *     make the hot spot's ejection, not its n input channels, the
 *     bottleneck, which no equation here describes).
 * No [recommended] item has a printed alternative (the paper is silent
 * where we chose), so MODEL_VARIANT_PRINTED evaluates the same.
 *
 * Solve: model_solve on (Tr, Th(1..n)) from their zero-load values; every
 * step is monotone non-decreasing in them.  SATURATED when lam M >= 1, any
 * rho_j >= 1 (level 1 first: lam_h(1) = theta lam (N-1)/n) or rho_0 >= 1,
 * any q_s >= 1, (lam/V) Tbar >= 1, or divergence.
 */
#include <math.h>
#include <stdio.h>

#include "hcube_pcs_int.h"
#include "model_int.h"

typedef struct pcs_ctx {
    int n, vcs;
    double lam, m, step;
    double lam_r;                   /* (15) */
    double lam_h[NET_MAX_DIMS + 1]; /* (17), j = 1..n */
    double pr[NET_MAX_DIMS + 1];    /* P_r(i) = P_h(i), (6) */
    double frac[NET_MAX_DIMS + 1];  /* share of directed channels at level l */
    double tbar_j[NET_MAX_DIMS + 1];
} pcs_ctx;

double pcs__hot_rate_unit(int n, int j)
{
    double beyond = 0;
    for (int l = j; l <= n; l++)
        beyond += binom(n, l);
    return beyond / ((n - j + 1) * binom(n, j - 1));
}

model_status pcs__walk(int i, const double *q, double step, int retry_costs,
                       double *d0)
{
    if (i < 1 || !(q[0] < 1) || !(q[0] >= 0))
        return MODEL_SATURATED;
    double e = retry_costs ? step / (1 - q[0]) : step;
    double sum = e;
    for (int s = 1; s < i; s++) {
        double adv = 1 - q[s];
        if (!(adv > 0))
            return MODEL_SATURATED;
        e = (q[s] * e + step) / adv;
        sum += e;
    }
    if (!isfinite(sum))
        return MODEL_SATURATED;
    *d0 = sum;
    return MODEL_CONVERGED;
}

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    err e;
    err_clear(&e);
    if (d->topology != NET_HYPERCUBE || d->switching != NET_SWITCH_PCS ||
        d->routing != NET_ROUTE_MINIMAL_ADAPTIVE) {
        snprintf(why, why_size,
                 "hypercube with pcs switching and minimal_adaptive routing "
                 "only");
        return -1;
    }
    if (net_check(d, &e) != 0 || net_workload_check(d, w, &e) != 0) {
        snprintf(why, why_size, "%s", e.msg);
        return -1;
    }
    if (w->traffic != NET_TRAFFIC_HOTSPOT &&
        w->traffic != NET_TRAFFIC_UNIFORM) {
        snprintf(why, why_size, "hot-spot or uniform traffic only, not %s",
                 net_traffic_name(w->traffic));
        return -1;
    }
    if (w->traffic == NET_TRAFFIC_HOTSPOT && !(w->hotspot_fraction < 1)) {
        snprintf(why, why_size,
                 "hot-spot fraction 1: the model needs theta < 1 (the hot "
                 "spot would send to itself)");
        return -1;
    }
    if (d->ejection_channels != 0) {
        snprintf(why, why_size,
                 "the model consumes arriving flits at once: needs "
                 "ejection_channels = 0 (unlimited), not %d",
                 d->ejection_channels);
        return -1;
    }
    return 0;
}

static double theta_of(const net_workload *w)
{
    return w->traffic == NET_TRAFFIC_HOTSPOT ? w->hotspot_fraction : 0.0;
}

static double mean_distance(int n)
{
    double nodes = ldexp(1.0, n);
    return n * nodes / (2 * (nodes - 1));
}

/* Per-level blocking probabilities PL(l), l = 1..n, and PL0 = pl[0] for
 * the outbound channels; also the holding times Tbar_j. */
static model_status level_probs(pcs_ctx *c, const double *x, double *pl)
{
    double tr = x[0];
    for (int j = 1; j <= c->n; j++) {
        double lam_j = c->lam_r + c->lam_h[j];                       /* (18) */
        double tbar = lam_j > 0
                          ? (c->lam_r * tr + c->lam_h[j] * x[j]) / lam_j
                          : tr;                                      /* (19) */
        double rho = lam_j * tbar;
        if (!(rho < 1))
            return MODEL_SATURATED;
        c->tbar_j[j] = tbar;
        pl[j] = pow(rho, c->vcs);                                    /* (24) */
    }
    double rho0 = c->lam_r * tr;
    if (!(rho0 < 1))
        return MODEL_SATURATED;
    pl[0] = pow(rho0, c->vcs);
    return MODEL_CONVERGED;
}

static model_status pcs_map(void *ctx, const double *x, double *fx)
{
    pcs_ctx *c = ctx;
    int n = c->n;
    double pl[NET_MAX_DIMS + 1], q[NET_MAX_DIMS], d0;
    model_status st = level_probs(c, x, pl);
    if (st != MODEL_CONVERGED)
        return st;
    /* Hot-spot messages: with r hops left all r candidates are level-r
     * inbound channels (13). */
    for (int j = 1; j <= n; j++) {
        for (int s = 0; s < j; s++)
            q[s] = pow(pl[j - s], j - s);
        if ((st = pcs__walk(j, q, c->step, 0, &d0)) != MODEL_CONVERGED)
            return st;
        fx[j] = c->m + j + (d0 + j);                           /* (5),(10) */
    }
    /* Regular messages: blocking with r hops left, averaged over the
     * levels of directed channels (the reconstruction above). */
    double qreg[NET_MAX_DIMS + 1];
    for (int r = 1; r <= n; r++) {
        qreg[r] = 0.5 * pow(pl[0], r);
        for (int l = 1; l <= n; l++)
            qreg[r] += c->frac[l] * pow(pl[l], r);
    }
    double tr = 0;
    for (int i = 1; i <= n; i++) {
        for (int s = 0; s < i; s++)
            q[s] = qreg[i - s];                                     /* (12) */
        if ((st = pcs__walk(i, q, c->step, 0, &d0)) != MODEL_CONVERGED)
            return st;
        tr += c->pr[i] * (c->m + i + (d0 + i));             /* (3),(4),(9) */
    }
    fx[0] = tr;
    return MODEL_CONVERGED;
}

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    pcs_ctx c;
    int n = d->n;
    double theta = theta_of(w);
    double nodes = ldexp(1.0, n);
    double dbar = mean_distance(n);
    c.n = n;
    c.vcs = d->vcs;
    c.lam = rate;
    c.m = net_message_flits(d, w);
    c.step = 1.0 + d->router_delay;
    if (c.lam * c.m >= 1)       /* the injection channel: 1 flit per cycle */
        return model_result_fail(out, MODEL_SATURATED, 0);
    c.lam_r = (1 - theta) * rate * dbar / n;                         /* (15) */
    double x[NET_MAX_DIMS + 1];
    x[0] = c.m + (2 + c.step) * dbar;
    for (int j = 1; j <= n; j++) {
        c.lam_h[j] = theta * rate * pcs__hot_rate_unit(n, j);        /* (17) */
        c.pr[j] = binom(n, j) / (nodes - 1);                          /* (6) */
        c.frac[j] = j * binom(n, j) / (n * nodes);
        x[j] = c.m + (2 + c.step) * j;
    }
    int iterations = 0;
    model_status st = model_solve(pcs_map, &c, x, n + 1, opts, &iterations);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iterations);
    double pl[NET_MAX_DIMS + 1];
    if (level_probs(&c, x, pl) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iterations);
    double th = 0, vbar = 0, weights = 0;
    for (int j = 1; j <= n; j++) {
        double vb;
        if (vc_mux_degree(c.lam_r + c.lam_h[j], c.tbar_j[j], c.vcs, &vb) !=
            MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iterations);
        th += c.pr[j] * x[j];                                         /* (7) */
        vbar += c.pr[j] * vb;                                   /* (25)-(26) */
        weights += c.pr[j];
    }
    /* sum P_h(j) = 1; dividing by the computed sum keeps the weighted mean
     * of values >= 1 at >= 1 despite rounding */
    vbar /= weights;
    double tbar = (1 - theta) * x[0] + theta * th;                    /* (2) */
    double lv = c.lam / c.vcs;
    if (!(lv * tbar < 1))
        return model_result_fail(out, MODEL_SATURATED, iterations);
    double dev = tbar - (c.m + (2 + c.step) * dbar) + 1;
    double wait = lv * tbar * tbar * (1 + dev * dev / (tbar * tbar)) /
                  (2 * (1 - lv * tbar));                             /* (23) */
    return model_result_ok(out, (tbar + wait) * vbar, tbar, wait, vbar,
                           iterations);                               /* (1) */
}

/* A.3: M + 3 Dbar_r (out, acknowledgement back, data pipeline), with each
 * outward header move costing 1 + Dr: M + (3 + Dr) Dbar_r. */
static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    return net_message_flits(d, w) +
           (3.0 + d->router_delay) * mean_distance(d->n);
}

/* Fig.2: 8-cube, V = 3, M = 32, theta = 0.05, hot spot at node N-1,
 * immediate consumption, no router delay. */
static void example(net_design *d, net_workload *w)
{
    net_design_init(d);
    net_workload_init(w);
    d->topology = NET_HYPERCUBE;
    net_design_set_radix(d, 8, 2);
    d->vcs = 3;
    d->routing = NET_ROUTE_MINIMAL_ADAPTIVE;
    d->switching = NET_SWITCH_PCS;
    d->router_delay = 0;
    d->ejection_channels = 0;
    d->width = 1;
    w->message_bits = 32;
    w->length = NET_LENGTH_FIXED;
    w->traffic = NET_TRAFFIC_HOTSPOT;
    w->hotspot_fraction = 0.05;
    w->hotspot_node = -1;
}

const model model_hcube_pcs_hotspot = {
    .name = "hcube-pcs-hotspot",
    .source = "[M9] Safaei et al. 2005, sec.3, eqs.(1)-(26)",
    .summary = "hypercube, pipelined circuit switching with backtracking, "
               "hot-spot (or uniform) traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
