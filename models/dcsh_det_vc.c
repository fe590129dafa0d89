/*
 * dcsh_det_vc.c — M5 `dcsh-det-vc`: deterministic (dimension-order)
 * wormhole routing with V virtual channels in the DCSH.
 *
 * Source: 002_b244e369b49c40b8.txt, section 3.2.2, eqs.(3.3)-(3.13),
 * Fig.3.1; MODELS.md M5.  Dimensions are crossed in increasing order; any
 * of the V VCs of the required channel may be taken.  A message skips a
 * dimension independently with probability p_s = 1/k (uniform traffic).
 *
 * Equations as implemented (backward pass, no iteration: row i uses only
 * rows j > i):
 *
 *   p_s = 1/k;  m' = lam (DCSH channels are unidirectional);  Phi = (1-p_s) lam
 *   W_qd = lam Lm^2 (0 with multiple ejection channels)             (2.11)
 *   for i = n-1 down to 0:
 *     T[i]  = sum_{j>i} wgt(i,j) (Dr + Tc[j]) + W_qd + Lm            (3.8)
 *     P_i   = B1(Phi, T[i], V)
 *     a_i   = (1 - p_s^(n-i-1))^V  (all V blockers go on past dim i)
 *     Tb[i] = (1 - a_i)(W_qd + Lm) + a_i T[i]                        (3.7)
 *     Tc[i] = P_i[V] Tb[i]                                           (3.6)
 *     S[i]  = Tc[i] + T[i]                                           (3.5)
 *   L       = d_avg + sum_i (1-p_s) p_s^i S[i]  [+ Dr (1 - p_s^n)]   (3.9)
 *   V_avg   = (1/n) sum_i Vbar(P_i)                            (3.10-3.11)
 *   M_avg   = (1/n) sum_i Vbar(B1(Phi, T[i], (k-1) V))               (3.12)
 *   W_qs    = (lam/V) L^2                                            (2.13)
 *   Latency = (W_qs + M_avg L) V_avg                                 (3.13)
 *
 * Resolutions (MODELS.md M5 section 4):
 *   1. wgt(i,j): printed p_s^(j-i-1) is not the probability of crossing
 *      dimension j after i (that would be (1-p_s) p_s^(j-i-1), the next
 *      dimension); since (3.8) sums over every later dimension without
 *      recursion the weight must be the probability of crossing j at all,
 *      1 - p_s [recommended].  MODEL_VARIANT_PRINTED uses p_s^(j-i-1).
 *   2. Router delay: (3.8)-(3.9) charge Dr only for hops after the first,
 *      one Dr less per message than M3's (2.6).  [recommended] adds
 *      Dr (1 - p_s^n) to L (the first hop's decision, taken by every
 *      message that crosses any dimension) so that algorithms compare
 *      fairly; MODEL_VARIANT_PRINTED leaves it out.
 *   3. M_avg^i (3.12) is never defined: the M3 input-multiplexer chain with
 *      arrival Phi and service T[i], matching this model's channel chain
 *      [recommended; no printed alternative exists].
 *   4. (3.7)/(3.8) print D_i for Dr, the chain text I/T_i for 1/T_i and
 *      (3.13) W_qr for W_qs [fix].
 *   5. Independent skipping lets a message address itself with
 *      probability 1/N: accepted, O(1/N).
 *   Also as in M3: B1 with 1/T (not V/T); W_qd, W_qs printed without
 *   denominators, with saturation guards lam Lm >= 1 and (lam/V) L >= 1;
 *   ejection_channels == 0 sets W_qd = 0; >= 2 is not covered.
 *
 * Corrected variant (MODEL_VARIANT_CORRECTED; the recommended weights and
 * item 2, plus the re-derivations of dcsh_common.c's header, applied to
 * this model's per-dimension terms; nothing fitted):
 *   (a) P_i = B1(Phi, T[i], V) keeps the full holding time for blocking,
 *       but the multiplexing degrees come from the transmitting occupancy
 *       of the channel, (3.8) without its idle part (the later hops'
 *       routing decisions and the wait for the ejection channel, during
 *       which the worm holds its VCs and sends nothing):
 *         T_tx[i] = sum_{j>i} (1-p_s) Tc[j] + Lm
 *         V_avg   = (1/n) sum_i Vbar(B1(Phi, T_tx[i], V))
 *   (d) M_avg^i of (3.12) is the same input-multiplexer factor as M3's,
 *       one per dimension (the multiplexer of dimension i carries Phi and
 *       holds for T[i]); the same processor-sharing rule applies to each:
 *         M_avg = (1/n) sum_i 1 / (1 - Phi T_tx[i])
 *       (saturated when any Phi T_tx[i] >= 1; always implied by
 *       Phi T[i] < 1).  The mean over dimensions is the thesis's (3.11)
 *       and (3.12) averaging, kept.
 *   (c) W_qd = model_ejection_mg1(lam, Lm, E[L^2]): the M/G/1 wait of the
 *       one ejection channel with the message length as its service,
 *       lam E[L^2] / (2 (1 - lam Lm)), fed into (3.7)-(3.8) where the
 *       printed W_qd enters (blocking), not into T_tx.  Not length x
 *       V_avg M_avg: every other holding time of this model is an
 *       unstretched latency (T[i] is fed Lm, not Lm V_avg M_avg) and the
 *       stretch is applied once, in the closing step; the stretched
 *       service saturated this model at 0.53-0.60 of the simulated rate
 *       (1.07-1.14 now; docs/validation/notes.md, finding 7).  W_qd does
 *       not depend on the pass, so there is no fixed point: one backward
 *       pass, as in the other variants.
 *   (b) Closing step model_result_corrected():
 *         Latency = W_s + (L - idle) V_avg M_avg + idle,
 *         W_s = lam E[L^2] / (2 (1 - lam Lm)),
 *         idle = Dr n (1 - p_s) + (1 - p_s^n) W_qd
 *       (the Dr charges in L, the recommended count, see zero_load();
 *       W_qd is in L once per message that crosses a dimension, the
 *       weight (3.9) gives Lm).
 *   (e) At rate 0 the latency is the recommended zero load.
 *   Doubt: with V = 1 there is no flit sharing at the injection channel,
 *   so the P-K wait on Lm understates the source wait (dcsh_det_novc.c
 *   takes the holding time instead); the registry gives V = 1 to M8.
 *
 * Saturation: Phi T[i] >= 1 for any i, lam Lm >= 1, (lam/V) L >= 1.
 * Zero load (A.3): d_avg + (1 - p_s^n) Lm + Dr x (expected number of
 * charged router decisions).  The [recommended] variant charges one per
 * hop, Dr n (1 - p_s); the printed one charges
 * Dr sum_i (1-p_s) p_s^i sum_{j>i} p_s^(j-i-1) (zero_load() below).
 */
#include <limits.h>
#include <math.h>

#include "dcsh_common.h"

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    return dcsh__covers_common(d, w, NET_DCSH, NET_ROUTE_DETERMINISTIC, why,
                               why_size);
}

/* Weight of a later dimension j in T[i] (3.8), item 1 above. */
static double weight(int printed, double ps, int i, int j)
{
    return printed ? pow(ps, j - i - 1) : 1 - ps;
}

/* Expected number of router decisions L charges (its Dr part over Dr):
 * sum_i (1-p_s) p_s^i sum_{j>i} wgt(i,j) [+ (1 - p_s^n), item 2]. */
static double dr_charges(int printed, double ps, int n)
{
    double charges = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            charges += (1 - ps) * pow(ps, i) * weight(printed, ps, i, j);
    if (!printed)
        charges += 1 - pow(ps, n);
    return charges;
}

/* One backward pass (3.5)-(3.12) at a given W_qd. */
typedef struct det_vc_pass {
    double L;                   /* (3.9) */
    double v_avg, m_avg;        /* multiplexing factors actually applied */
} det_vc_pass;

typedef struct det_vc_ctx {
    const dcsh_params *p;
    int printed, corrected;
    double lm2;                 /* E[length^2] (corrected) */
} det_vc_ctx;

static model_status backward_pass(const det_vc_ctx *c, double w_qd,
                                  det_vc_pass *out)
{
    const dcsh_params *p = c->p;
    int n = p->n, V = p->vcs;
    double ps = 1.0 / p->k;
    double phi = (1 - ps) * p->lam;
    long states = (long)(p->k - 1) * V;
    if (states > INT_MAX)
        states = INT_MAX;
    double T[NET_MAX_DIMS], Tc[NET_MAX_DIMS], S[NET_MAX_DIMS];
    double vsum = 0, msum = 0;
    for (int i = n - 1; i >= 0; i--) {
        double later = 0, later_tx = 0;
        for (int j = i + 1; j < n; j++) {
            later += weight(c->printed, ps, i, j) * (p->dr + Tc[j]);
            later_tx += weight(c->printed, ps, i, j) * Tc[j];
        }
        T[i] = later + w_qd + p->lm;                               /* (3.8) */
        double rho = phi * T[i];
        if (!isfinite(rho) || rho >= 1)
            return MODEL_SATURATED;
        double pv = pow(rho, V);                          /* P_i[V] of B1 */
        double a = pow(1 - pow(ps, n - i - 1), V);
        double tb = (1 - a) * (w_qd + p->lm) + a * T[i];           /* (3.7) */
        Tc[i] = pv * tb;                                           /* (3.6) */
        S[i] = Tc[i] + T[i];                                       /* (3.5) */
        double vb, mb;
        if (c->corrected) {
            /* transmitting occupancy: (3.8) without its idle part, the
             * routing decisions and the ejection wait */
            double t_tx = later_tx + p->lm;
            double rho_tx = phi * t_tx;
            if (vc_mux_degree(phi, t_tx, V, &vb) != MODEL_CONVERGED ||
                !(rho_tx < 1))
                return MODEL_SATURATED;
            mb = 1 / (1 - rho_tx);           /* processor sharing, per dim */
        } else if (vc_mux_degree(phi, T[i], V, &vb) != MODEL_CONVERGED ||
                   vc_mux_degree(phi, T[i], (int)states, &mb) !=
                       MODEL_CONVERGED) {
            return MODEL_SATURATED;
        }
        vsum += vb;                                               /* (3.10) */
        msum += mb;                                               /* (3.12) */
    }
    double L = p->d_avg;
    for (int i = 0; i < n; i++)
        L += (1 - ps) * pow(ps, i) * S[i];                         /* (3.9) */
    if (!c->printed)
        L += p->dr * (1 - pow(ps, n));                     /* item 2 above */
    out->L = L;
    out->v_avg = vsum / n;                                        /* (3.11) */
    out->m_avg = msum / n;
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
    dcsh_params p;
    dcsh__params_init(&p, d, w, rate);
    if (p.lam * p.lm >= 1)
        return model_result_fail(out, MODEL_SATURATED, 1);
    det_vc_ctx c = {&p, opts->variant == MODEL_VARIANT_PRINTED,
                    opts->variant == MODEL_VARIANT_CORRECTED,
                    model_length_m2(d, w)};
    det_vc_pass r;
    if (!c.corrected) {
        if (backward_pass(&c, p.w_qd, &r) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 1);
        return model_result_thesis(out, p.lam, p.vcs, r.L, r.m_avg, r.v_avg,
                                   1);                            /* (3.13) */
    }
    double w_qd;
    if (model_ejection_mg1(d, p.lam, p.lm, c.lm2, &w_qd) != MODEL_CONVERGED ||
        backward_pass(&c, w_qd, &r) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 1);
    /* idle: the Dr charges, and W_qd once per message that crosses a
     * dimension (the weight of Lm in (3.9)) */
    double ps = 1.0 / p.k;
    double idle = p.dr * dr_charges(0, ps, p.n) + (1 - pow(ps, p.n)) * w_qd;
    return model_result_corrected(out, p.lam, p.vcs, p.lm, c.lm2, r.L, idle,
                                  r.v_avg * r.m_avg, 1);
}

/* L at lam -> 0: Tc = 0, W_qd = 0, every multiplexing factor 1, so
 * T[i] = Lm + Dr sum_{j>i} wgt(i,j) and
 * L = d_avg + (1 - p_s^n) Lm + Dr [sum_i (1-p_s) p_s^i sum_{j>i} wgt(i,j)
 *                                  + (1 - p_s^n) if recommended]. */
static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    dcsh_params p;
    dcsh__params_init(&p, d, w, 0.0);
    int printed = opts->variant == MODEL_VARIANT_PRINTED;
    double ps = 1.0 / p.k;
    return p.d_avg + (1 - pow(ps, p.n)) * p.lm +
           p.dr * dr_charges(printed, ps, p.n);
}

/* Fig.3.3a: 2D DCSH, N = 256 (k = 16), V = 2, Lm = 32, Dr = 0. */
static void example(net_design *d, net_workload *w)
{
    dcsh__example(d, w, NET_DCSH, 2, 16, 2, NET_ROUTE_DETERMINISTIC, 32);
}

const model model_dcsh_det_vc = {
    .name = "dcsh-det-vc",
    .source = "002_b244e369b49c40b8.txt sec.3.2.2, eqs.(3.3)-(3.13)",
    .summary = "DCSH, wormhole, dimension-order routing with V >= 1 VCs "
               "(multiplexing factors), uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
