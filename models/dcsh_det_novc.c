/*
 * dcsh_det_novc.c — M8 `dcsh-det-novc`: deterministic (dimension-order)
 * wormhole routing in the DCSH with one lane per channel (no VCs).
 *
 * Source: 002_b244e369b49c40b8.txt, section 6.3.2, eqs.(6.24)-(6.28), with
 * (3.3)-(3.5) and (3.9) of section 3.2.2; MODELS.md M8.  One channel per
 * dimension, V = 1; the input multiplexer of a dimension arbitrates at
 * message level among its k-1 inputs, and contention is modelled per pair
 * of flows with the collision rule (6.7): a flow of rate beta whose
 * messages hold a resource for T delays the flow of interest by beta T^2.
 *
 * Equations as implemented (one backward pass, no iteration):
 *
 *   p_s = 1/k;  m' = lam;  Phi = (1-p_s) lam
 *   R_L[i] = (1-p_s) p_s^i lam                                        (3.3)
 *   R_P[i] = sum_{l<i} (1-p_s)^2 p_s^(i-l-1) lam                      (3.4)
 *   W_qd   = lam Lm^2 (0 with multiple ejection channels)             (2.11)
 *   T[n-1] = Dr + W_qd + Lm
 *   T[i]   = Dr + p_s^(n-i-1) (W_qd + Lm)
 *            + sum_{j>i} (1-p_s) p_s^(j-i-1) [ Bm[j] + T[j]
 *                + (R_L[j] + sum_{l<j, l!=i} (1-p_s)^2 p_s^(j-l-1) lam) T[j]^2 ]  (6.26)
 *   Bm[i]  = ((k-2)/(k-1)) Phi T[i]^2        input-multiplexer contention (6.24)
 *   Tc[i]  = R_P[i] T[i]^2 + Bm[i]                                    (6.25)
 *   S[i]   = Tc[i] + T[i]                                             (3.5)
 *   L      = d_avg + sum_i (1-p_s) p_s^i S[i]                         (3.9)
 *   W_qs   = lam L^2                                                  (6.27)
 *   Latency = W_qs + L          (one lane: no multiplexing factors)   (6.28)
 *
 * Resolutions (MODELS.md M8 section 4):
 *   1. (6.26) prints R_j^p and an inner upper limit j-3.  The flows that
 *      meet a message entering dimension j after i are the ones injected
 *      into j (R_L[j]) and the ones arriving from lower dimensions other
 *      than i, so the term is R_j^L and the limit j-1, as in (6.16) [fix].
 *   2. W_oc and W_od in (6.26) are W_qd [fix].
 *   3. Router delay is charged once per dimension exit, so every hop pays
 *      1 + Dr as in M3 (unlike M5).  M8 and M5 are different
 *      approximations of the same network; the registry lists this model
 *      before dcsh-det-vc so that V = 1 designs, whose multiplexers
 *      arbitrate at message level as assumed here (MODELS.md section 3
 *      item 6), get this model, and V >= 2 designs get M5.
 *   Also: W_qd and W_qs are printed without 1/(1-rho) denominators and
 *   kept, with the saturation guards below; ejection_channels == 0 sets
 *   W_qd = 0; finitely many (>= 2) ejection channels are not covered.
 *   No [recommended] items: MODEL_VARIANT_PRINTED evaluates the same.
 *
 * Corrected variant (MODEL_VARIANT_CORRECTED): what of the corrections of
 * dcsh_common.c applies to a network with one lane and message-level
 * input multiplexers:
 *   (c) Ejection applies.  The one ejection channel takes one message at a
 *       time: model_ejection_mg1(), M/G/1 with the message length as the
 *       service, as in the other DCSH models (every holding time of these
 *       models is an unstretched latency; docs/validation/notes.md,
 *       finding 7).  Here it is also what the network does: once the
 *       header holds the ejection channel, every channel of the path is
 *       the message's alone (one lane, message-level multiplexers), so the
 *       tail follows at one flit per cycle.  No fixed point:
 *         W_qd = lam E[L^2] / (2 (1 - lam Lm))   (0 with ejection = 0)
 *       But the ejection channel's arrivals are not independent: it is
 *       fed by the node's n message-level input multiplexers, and the
 *       messages that come through multiplexer i are already serialised
 *       there (Bm[i], 6.24) before they ask for the ejection channel.  A
 *       message from multiplexer i therefore waits only for the work
 *       brought by the other multiplexers.  With f_i the fraction of a
 *       node's arrivals whose last dimension is i (deterministic routing:
 *       the highest differing dimension),
 *         f_i = (1 - p_s) p_s^(n-1-i) / (1 - p_s^n),
 *       the M/G/1 residual-work wait seen from multiplexer i counts only
 *       the other arrivals, lam (1 - f_i):
 *         W_qd,i = (1 - f_i) lam E[L^2] / (2 (1 - lam Lm))
 *       and W_qd,i enters T[i] where the printed lam Lm^2 does (a message
 *       leaving after dimension i).  Measured reason, before this rule
 *       (W_qd for everyone): in the simulator the ejection channel costs
 *       this network almost nothing (Fig.6.6b: network latency 28.4,
 *       35.6, 39.2 with one ejection channel against 28.1, 34.3, 38.2 with
 *       unlimited ones at 50/70/80% load), while the unsplit W_qd added 7
 *       to 19 cycles to L and took MAPE at <= 80% load from 10% to 55%.
 *       For 32 x 32, f_1 = 0.97: the mean W_qd,i is 6% of the unsplit one.
 *   (b) Source wait applies, but not as model_result_corrected()'s
 *       processor-sharing form: with V = 1 a source's messages cannot
 *       share the injection channel flit by flit.  The one injection VC
 *       is a FIFO server held from the header's entry until the tail
 *       leaves (docs/validation/notes.md finding 0, first row: V = 1 is
 *       M/G/1 on the VC holding time, checked against the simulator).
 *       The holding time is the thesis's own, L (6.27); its only random
 *       part the model knows is the length, S = (L - Lm) + length, so
 *         W_s = lam (L^2 + E[L^2] - Lm^2) / (2 (1 - lam L)),
 *       saturated when lam L >= 1 (the printed guard).  The printed
 *       lam L^2 is this without the denominator and with the exponential
 *       length's variance taken for the whole of S.
 *   (a) Routing delay: nothing to take out.  There is no multiplexing
 *       factor (Latency = W_s + L), and in the collision terms (6.24)-
 *       (6.26) a deciding header holds its lane and the message-level
 *       multiplexer exclusively, so the Dr inside T[i] is real occupancy.
 *   (d) The input multiplexer is message level: Bm[i] (6.24) is a
 *       per-message collision term, not a flit-sharing slowdown, so the
 *       processor-sharing rule does not apply.  Kept.
 *   (e) At rate 0: W_qd = W_s = 0, the same zero load.
 *
 * Saturation: Phi T[i] >= 1 (channel utilisation); any collision
 * probability R_P[i] T[i], ((k-2)/(k-1)) Phi T[i] or (R_L[j] + ...) T[j]
 * reaching 1 (the (6.7) approximation breaks down); lam Lm >= 1;
 * lam L >= 1.  Zero load (A.3): d_avg + (1 - p_s^n) Lm + n (1 - p_s) Dr
 * (one Dr per hop).
 */
#include <math.h>
#include <stdio.h>

#include "dcsh_common.h"

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    if (dcsh__covers_common(d, w, NET_DCSH, NET_ROUTE_DETERMINISTIC, why,
                            why_size) != 0)
        return -1;
    if (d->vcs != 1) {
        snprintf(why, why_size,
                 "one lane per channel only (V = 1), not V = %d", d->vcs);
        return -1;
    }
    return 0;
}

/* x >= 1 (or not a number): a probability or utilisation out of range. */
static int too_big(double x)
{
    return !(x < 1);
}

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    dcsh_params p;
    dcsh__params_init(&p, d, w, rate);
    if (p.lam * p.lm >= 1)
        return model_result_fail(out, MODEL_SATURATED, 1);
    int corrected = opts->variant == MODEL_VARIANT_CORRECTED;
    double lm2 = model_length_m2(d, w);
    if (corrected &&
        model_ejection_mg1(d, p.lam, p.lm, lm2, &p.w_qd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 1);
    int n = p.n;
    double ps = 1.0 / p.k, lam = p.lam;
    double phi = (1 - ps) * lam;
    double mux = (p.k - 2.0) / (p.k - 1.0);
    double rl[NET_MAX_DIMS], rp[NET_MAX_DIMS];
    double T[NET_MAX_DIMS], bm[NET_MAX_DIMS], S[NET_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        rl[i] = (1 - ps) * pow(ps, i) * lam;                       /* (3.3) */
        rp[i] = 0;
        for (int l = 0; l < i; l++)
            rp[i] += (1 - ps) * (1 - ps) * pow(ps, i - l - 1) * lam; /* (3.4) */
    }
    /* W_qd of a message leaving after dimension i: the printed one, or
     * (corrected) the wait for the other multiplexers' work only. */
    double wq[NET_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        double f = (1 - ps) * pow(ps, n - 1 - i) / (1 - pow(ps, n));
        wq[i] = corrected ? (1 - f) * p.w_qd : p.w_qd;
    }
    for (int i = n - 1; i >= 0; i--) {
        double t = p.dr + pow(ps, n - i - 1) * (wq[i] + p.lm);
        for (int j = i + 1; j < n; j++) {
            double meet = rl[j];        /* flows into j other than from i */
            for (int l = 0; l < j; l++)
                if (l != i)
                    meet += (1 - ps) * (1 - ps) * pow(ps, j - l - 1) * lam;
            if (too_big(meet * T[j]))
                return model_result_fail(out, MODEL_SATURATED, 1);
            t += (1 - ps) * pow(ps, j - i - 1) *
                 (bm[j] + T[j] + meet * T[j] * T[j]);             /* (6.26) */
        }
        T[i] = t;
        if (too_big(phi * T[i]) || too_big(rp[i] * T[i]) ||
            too_big(mux * phi * T[i]))
            return model_result_fail(out, MODEL_SATURATED, 1);
        bm[i] = mux * phi * T[i] * T[i];                          /* (6.24) */
        S[i] = rp[i] * T[i] * T[i] + bm[i] + T[i];         /* (6.25), (3.5) */
    }
    double L = p.d_avg;
    for (int i = 0; i < n; i++)
        L += (1 - ps) * pow(ps, i) * S[i];                         /* (3.9) */
    if (too_big(lam * L))
        return model_result_fail(out, MODEL_SATURATED, 1);
    double w_qs = lam * L * L;                                    /* (6.27) */
    if (corrected &&
        wait_mg1_pk(lam, L, L * L + lm2 - p.lm * p.lm, &w_qs) !=
            MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 1);
    return model_result_ok(out, w_qs + L, L, w_qs, 1.0, 1);       /* (6.28) */
}

static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    dcsh_params p;
    dcsh__params_init(&p, d, w, 0.0);
    double ps = 1.0 / p.k;
    return p.d_avg + (1 - pow(ps, p.n)) * p.lm + p.n * (1 - ps) * p.dr;
}

/* Fig.6.6a: DCSH N = 1024 (32 x 32), V = 1, Lm = 32, Dr = 0. */
static void example(net_design *d, net_workload *w)
{
    dcsh__example(d, w, NET_DCSH, 2, 32, 1, NET_ROUTE_DETERMINISTIC, 32);
}

const model model_dcsh_det_novc = {
    .name = "dcsh-det-novc",
    .source = "002_b244e369b49c40b8.txt sec.6.3.2, eqs.(6.24)-(6.28)",
    .summary = "DCSH, wormhole, dimension-order routing with one lane "
               "(V = 1), uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
