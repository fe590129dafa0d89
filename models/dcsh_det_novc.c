/*
 * dcsh_det_novc.c — M8 `dcsh-det-novc`: deterministic (dimension-order)
 * wormhole routing in the DCSH with one lane per channel (no VCs).
 *
 * Source: [L99], section 6.3.2, eqs.(6.24)-(6.28), with
 * (3.3)-(3.5) and (3.9) of section 3.2.2; docs/models/hypercube-dcsh.md, "M8
 * as printed".  One channel per
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
 * Resolutions (docs/models/hypercube-dcsh.md, "M8 as printed", resolutions):
 *   1. (6.26) prints R_j^p and an inner upper limit j-3.  The flows that
 *      meet a message entering dimension j after i are the ones injected
 *      into j (R_L[j]) and the ones arriving from lower dimensions other
 *      than i, so the term is R_j^L and the limit j-1, as in (6.16) [fix].
 *   2. W_oc and W_od in (6.26) are W_qd [fix].
 *   3. Router delay is charged once per dimension exit, so every hop pays
 *      1 + Dr as in M3 (unlike M5).  M8 and M5 are different
 *      approximations of the same network; the registry lists this model
 *      before dcsh-det-vc so that V = 1 designs, whose multiplexers
 *      arbitrate at message level as assumed here (docs/models/semantics.md,
 *      item 6), get this model, and V >= 2 designs get M5.
 *   Also: W_qd and W_qs are printed without 1/(1-rho) denominators and
 *   kept, with the saturation guards below; ejection_channels == 0 sets
 *   W_qd = 0; finitely many (>= 2) ejection channels are not covered.
 *   No [recommended] items: MODEL_VARIANT_PRINTED evaluates the same.
 *
 * Corrected variant (MODEL_VARIANT_CORRECTED; eval_corrected(), docs/
 * docs/models/corrected.md, CV3 and CV13; nothing fitted).  The collision
 * rule (6.7) charges a whole holding time b T^2 per collision, with no
 * queue; measured in the simulator (bench_probe_duato on the 32 x 32
 * example at 50% / 80% load) the network latency is the hops, the wait
 * for the second dimension's input multiplexer and bus (about 10 / 28
 * cycles), the wait at the destination (8.2 / 14.5) and the length, which
 * streams unstretched (the ejection channel is held 31.1 / 31.0 cycles for
 * 32 flits: one lane and message-level multiplexers leave the path to the
 * worm alone).  The corrected variant writes that path as queues, from the
 * simulator's rules (sim/engine.c phase 4: a header first takes its input
 * multiplexer, oldest first, and keeps it until its tail has passed; the
 * bus has one VC for all its receivers):
 *   (f) The multiplexer of dimension i at a router is one server, fed by
 *       the k-1 buses of dimension i into it, rate (1 - p_s) lam.  It is
 *       held by a worm that ejects there for its wait for the ejection
 *       channel, which only the other multiplexers' worms can hold
 *       ((1 - f_i) W_qd, W_qd the M/G/1 wait of model_ejection_mg1, f_i
 *       the share of the node's arrivals whose last dimension is i), and
 *       its length; by one that goes on to dimension j > i for its wait
 *       for bus j and bus j's hold.  Its wait is M/G/1 (P-K), the hold's
 *       random part the length:
 *         G_i = p_s^(n-1-i) ((1 - f_i) W_qd + Lm)
 *               + sum_{j>i} (1-p_s) p_s^(j-i-1) (Wb_ij + H_j)
 *         Wm_i = (1-p_s) lam E[Gs_i^2] / (2 (1 - (1-p_s) lam Gs_i)),
 *       Gs_i = G_i with the later hops' 1 + Dr cycles.  H_i = Wm_i + G_i
 *       is what a worm spends after crossing a bus of dimension i, hops
 *       aside.
 *   (g) Bus j (one lane) is held Hs_j = H_j + its hops' cycles; its users
 *       are the router's multiplexers of lower dimensions (each one worm
 *       at a time) and its injection VC.  A worm from multiplexer i waits
 *       only for the others' work (its own multiplexer has serialised its
 *       stream): M/G/1 at rate (1-p_s) lam (1 - (1-p_s) p_s^(j-i-1)),
 *       utilisation (1-p_s) lam Hs_j.  The first bus of a path is fed by
 *       the source's one injection VC, which serialises the source's own
 *       messages, and by the lower multiplexers: their rate (1-p_s) lam
 *       (1 - p_s^i) is the only wait.  In 2-D that leaves the second
 *       dimension's multiplexer as the main queue (its worms wait for bus
 *       1 only behind the router's own injected messages), as measured.
 *         L = d_avg + n (1-p_s) Dr + sum_i (1-p_s) p_s^i (Wf_i + H_i).
 *       Measured network latency against this: 41.3 / 52.3 / 66.8 / 75.2
 *       and 40.7 / 50.5 / 62.6 / 71.4 (example, 25/50/70/80% load);
 *       Fig.6.6b 28.6 / 35.8 / 39.8 and 28.3 / 34.5 / 39.1 (50/70/80%).
 *   (h) Source wait: the one injection VC is a FIFO server held for the
 *       network latency (with V = 1 the VC is an M/G/1 server for its holding
 *       time).  Its random parts are the length and the waits, taken as
 *       exponential with their mean L - L0 (L0 the zero load):
 *         W_s = lam (L^2 + Var(len) + (L - L0)^2) / (2 (1 - lam L)).
 *       With the length's variance alone the example stays 10.3% off at
 *       <= 80% load (CV13).
 *   Latency = W_s + L; no multiplexing factor (one lane).  At rate 0 every
 *   wait is 0: the same zero load.  The earlier corrected variant (the
 *   printed equations with the split W_qd and the FIFO source wait on L)
 *   is gone: its collision terms understated the second dimension's wait
 *   (network latency 58.4 against 75.2 at 80% load).
 *
 * Saturation (recommended, printed): Phi T[i] >= 1 (channel
 * utilisation); any collision probability R_P[i] T[i], ((k-2)/(k-1))
 * Phi T[i] or (R_L[j] + ...) T[j] reaching 1 (the (6.7) approximation
 * breaks down); lam Lm >= 1; lam L >= 1.  Corrected: any multiplexer or
 * bus utilisation reaching 1, lam Lm >= 1, lam L >= 1.  Zero load (A.3): d_avg + (1 - p_s^n) Lm + n (1 - p_s) Dr
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

/* Second moment of a hold whose only random part is the length:
 * h = fixed + len, E[h^2] = fixed^2 + 2 fixed Lm + E[L^2]. */
static double hold_m2(double h, double lm, double lm2)
{
    double fixed = h - lm;
    return fixed * fixed + 2 * fixed * lm + lm2;
}

/* M/G/1 wait behind the work of rate `others` at a server of
 * utilisation rho, hold mean h (second moment hold_m2). */
static model_status queue_wait(double others, double rho, double h,
                               double lm, double lm2, double *wait)
{
    if (!isfinite(rho) || !(rho < 1) || !isfinite(h))
        return MODEL_SATURATED;
    *wait = others * hold_m2(h, lm, lm2) / (2 * (1 - rho));
    return MODEL_CONVERGED;
}

/* Corrected variant (items (f)-(h) of the header): the path as queues.
 * One backward pass; returns what model_result_ok/fail return. */
static int eval_corrected(const net_design *d, const net_workload *w,
                          const dcsh_params *p, model_result *out)
{
    int n = p->n;
    double ps = 1.0 / p->k, lam = p->lam, lm = p->lm, dr = p->dr;
    double lm2 = model_length_m2(d, w), wqd;
    if (model_ejection_mg1(d, lam, lm, lm2, &wqd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 1);
    double rate = (1 - ps) * lam;   /* a bus's, and a multiplexer's, rate */
    double H[NET_MAX_DIMS], Hs[NET_MAX_DIMS], wait = 0;
    for (int i = n - 1; i >= 0; i--) {
        /* the multiplexer of dimension i at the next router: held by a
         * worm that ejects there for the other multiplexers' ejection
         * work and its length, by one that goes on to dimension j for
         * the wait for bus j (the other users' work) and that bus's hold */
        double f = (1 - ps) * pow(ps, n - 1 - i) / (1 - pow(ps, n));
        double g = pow(ps, n - 1 - i) * ((1 - f) * wqd + lm);
        for (int j = i + 1; j < n; j++) {
            double to_j = (1 - ps) * pow(ps, j - i - 1);
            if (queue_wait(rate * (1 - to_j), rate * Hs[j], Hs[j], lm, lm2,
                           &wait) != MODEL_CONVERGED)
                return model_result_fail(out, MODEL_SATURATED, 1);
            g += to_j * (wait + H[j]);
        }
        /* the multiplexer is also held over the later hops' cycles */
        double gs = g + (1 + dr) * (1 - ps) * (n - 1 - i);
        double wm;
        if (queue_wait(rate, rate * gs, gs, lm, lm2, &wm) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 1);
        H[i] = wm + g;
        /* bus i is held from its crossing to the tail: H[i] and the hops */
        Hs[i] = H[i] + (1 + dr) * (1 + (1 - ps) * (n - 1 - i));
    }
    /* the first bus: the source's messages are serialised by its one
     * injection VC; the other users are the lower multiplexers */
    double L = p->d_avg + n * (1 - ps) * dr, L0 = L + (1 - pow(ps, n)) * lm;
    for (int i = 0; i < n; i++) {
        if (queue_wait(rate * (1 - pow(ps, i)), rate * Hs[i], Hs[i], lm, lm2,
                       &wait) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 1);
        L += (1 - ps) * pow(ps, i) * (wait + H[i]);
    }
    if (too_big(lam * L))
        return model_result_fail(out, MODEL_SATURATED, 1);
    /* the source: FIFO on its one injection VC, held for the network
     * latency; random parts the length and the waits (exponential) */
    double waits = L - L0 > 0 ? L - L0 : 0, w_s;
    if (wait_mg1_pk(lam, L, L * L + lm2 - lm * lm + waits * waits, &w_s) !=
        MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 1);
    return model_result_ok(out, w_s + L, L, w_s, 1.0, 1);
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
    if (opts->variant == MODEL_VARIANT_CORRECTED)
        return eval_corrected(d, w, &p, out);
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
    for (int i = n - 1; i >= 0; i--) {
        double t = p.dr + pow(ps, n - i - 1) * (p.w_qd + p.lm);
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
    .source = "[M8] Loucif 1999, sec.6.3.2, eqs.(6.24)-(6.28)",
    .summary = "DCSH, wormhole, dimension-order routing with one lane "
               "(V = 1), uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
