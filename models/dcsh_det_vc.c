/*
 * dcsh_det_vc.c — M5 `dcsh-det-vc`: deterministic (dimension-order)
 * wormhole routing with V virtual channels in the DCSH.
 *
 * Source: [L99], section 3.2.2, eqs.(3.3)-(3.13),
 * Fig.3.1; docs/models/hypercube-dcsh.md, "M5 as printed".  Dimensions are
 * crossed in increasing order; any
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
 * Resolutions (docs/models/hypercube-dcsh.md, "M5 as printed", resolutions):
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
 * item 2, re-derived from the simulator's semantics, docs/models/
 * corrected.md, CV3, CV5 and CV13; nothing fitted).  Measured with
 * bench_probe_duato (the ejection channel's hold and wait per message, the
 * bus VCs' holds, the blocked headers): at 50% load on the 16 x 16 V = 2
 * example the simulated latency is the source's wait for an injection VC
 * (2.5 cycles), the hops (1.9), a little header blocking (about 1.5), the
 * wait for the ejection channel (15) and the drain behind it (41.4 for 32
 * flits).  Those are the terms:
 *   (g) The drain.  The ejection channel is held from the header's arrival
 *       until the tail is consumed: s len, s = dcsh__drain_det() (the
 *       stalls of the transfers the worm still spans: injection channel,
 *       buses with their input multiplexers, the last multiplexer; each
 *       competitor counted once; dcsh_common.c).  It replaces Lm in
 *       (3.7)-(3.8) (a channel is held until the tail has drained) and is
 *       the ejection service: W_qd is the M/G/1 wait with mean s Lm.  The
 *       stretch varies between worms: a worm's stall per flit is set by
 *       the competitors present during its drain, which last about as long
 *       as it does, so with that count frozen and Poisson (mean s - 1 over
 *       the 1/s readiness) the drain is len (1 + X), E[X] = s - 1,
 *       Var X = (s - 1)/s, and its second moment E[L^2] (s^2 + (s-1)/s).
 *       Measured, W_qd is 7-17% above the M/G/1 wait with an exponential
 *       service of the measured mean hold; this gives +9% to +15%.
 *       The body's stretch is the drain: there is no V_avg or M_avg
 *       (they were the per-channel form of the same sharing; the path
 *       drains at the pace of its stages, which is s).  So
 *         T[i] = sum_{j>i} (1-p_s) (Dr + Tc[j]) + W_qd + s Lm,
 *         L = (3.9), Latency = W_s + L.
 *   (h) Source wait: a message waits for one of its source's V injection
 *       VCs (docs/models/semantics.md, item 7), each held until the tail has
 *       left, i.e. for about the network latency L; the flit-level sharing
 *       of the injection channel is one of the drain's stages, not a wait.
 *       M/G/V with Erlang's C at a = lam L erlangs, the hold's random part
 *       the drained length, H = (L - s Lm) + s len:
 *         W_s = C(V, a) E[H^2] / (2 L) / (V - a),  saturated at a >= V.
 *       (The P-K wait lam E[L^2] / (2 (1 - lam Lm)) of the earlier
 *       corrected variant is the whole processor-sharing slowdown of the
 *       injection channel; with the drain it was counted twice: 7.2 cycles
 *       at 50% load on the example, where the simulator waits 2.5.)
 *   (i) Blocking.  A bus VC is held for T[i], mostly waiting for the
 *       ejection channel and draining at the pace of other stages, so the
 *       V VCs of a bus are released independently, not one after another
 *       as the chain B1 (a single server of rate 1/T[i]) has them; and a
 *       blocked header takes the first VC to free (sim/route_dor.c retries
 *       every cycle).  So the bus is M/M/V for headers: a header is blocked
 *       with Erlang's C(V, Phi T[i]) and waits tb / (V - Phi T[i]), tb the
 *       blocker's hold of (3.7); saturated at Phi T[i] >= V.  Measured on
 *       the example at 70% load (bus VC hold 75.8, Phi T = 0.58): C(2,
 *       0.58) = 0.10 and 0.10 x 75.8 / 1.42 = 5.3 against 3.7 blocked
 *       cycles per VC taken; B1's P[V] = 0.34 and a whole hold would give
 *       26.  With B1 the drain saturated Fig.3.4b at 0.75 of the simulated
 *       rate (CV13).
 *   (a), (d) The earlier corrected variant's transmitting occupancy and
 *       processor-sharing M_avg are gone with V_avg and M_avg (g).
 *   (e) At rate 0: s = 1, W_qd = W_s = 0, the recommended zero load.
 *   Doubt: with V = 1 the drain's PS stalls are 0 (one VC: the channel is
 *   the worm's alone); the registry gives V = 1 to M8.
 *
 * Saturation: Phi T[i] >= 1 for any i (corrected: >= V), lam Lm >= 1
 * (corrected: lam s Lm >= 1), (lam/V) L >= 1 (corrected: lam L >= V).
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

/* One backward pass (3.5)-(3.12) at a given W_qd and drain stretch (1 but
 * in the corrected variant: the ejection channel is held s Lm). */
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
                                  double drain, det_vc_pass *out)
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
        double later = 0;
        for (int j = i + 1; j < n; j++)
            later += weight(c->printed, ps, i, j) * (p->dr + Tc[j]);
        T[i] = later + w_qd + drain * p->lm;                       /* (3.8) */
        double rho = phi * T[i];
        if (!isfinite(rho) || rho >= (c->corrected ? V : 1))
            return MODEL_SATURATED;
        /* P_i[V] of B1; corrected (i): Erlang's C over V independent holds */
        double pv = c->corrected ? erlang_c(V, rho) : pow(rho, V);
        double a = pow(1 - pow(ps, n - i - 1), V);
        double tb = (1 - a) * (w_qd + drain * p->lm) + a * T[i];   /* (3.7) */
        if (c->corrected)
            tb /= V - rho;  /* (i): M/M/V, the first of V busy VCs to free */
        Tc[i] = pv * tb;                                           /* (3.6) */
        S[i] = Tc[i] + T[i];                                       /* (3.5) */
        double vb, mb;
        if (c->corrected) {
            /* (g): the body's stretch is the drain, already in T[i] */
            vb = mb = 1;
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
        if (backward_pass(&c, p.w_qd, 1.0, &r) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 1);
        return model_result_thesis(out, p.lam, p.vcs, r.L, r.m_avg, r.v_avg,
                                   1);                            /* (3.13) */
    }
    /* (g): the drain, the ejection wait with the drain as its service */
    double s = dcsh__drain_det(d, w, &p), w_qd;
    double var = (s - 1) / s;        /* (g): the stretch varies per worm */
    w_qd = 0;
    if ((d->ejection_channels != 0 &&
         (!isfinite(s) ||
          wait_mg1_pk(p.lam, s * p.lm, c.lm2 * (s * s + var), &w_qd) !=
              MODEL_CONVERGED)) ||
        backward_pass(&c, w_qd, s, &r) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 1);
    /* (h): the source waits for one of its V injection VCs, each held for
     * the network latency: M/G/V with Erlang's C, the hold's random part
     * the drained length, H = (L - s Lm) + s len */
    double a = p.lam * r.L;
    if (!(a < p.vcs))
        return model_result_fail(out, MODEL_SATURATED, 1);
    double fixed = r.L - s * p.lm;
    double h2 = fixed * fixed + 2 * fixed * s * p.lm + s * s * c.lm2;
    double w_s = erlang_c(p.vcs, a) * h2 / (2 * r.L) / (p.vcs - a);
    return model_result_ok(out, w_s + r.L, r.L, w_s, s, 1);
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
    .source = "[M5] Loucif 1999, sec.3.2.2, eqs.(3.3)-(3.13)",
    .summary = "DCSH, wormhole, dimension-order routing with V >= 1 VCs "
               "(multiplexing factors), uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
