/*
 * dcsh_common.c — what the DCSH models share ([L99], chapters 2, 3
 * and 6.3.2): the distance distribution and ejection wait, the coverage
 * checks, and the chapter 2 adaptive model itself, which serves Duato (M3,
 * dcsh_duato.c), hop-based (M4, dcsh_hopbased.c) and, at k = 2, the
 * hypercube (hcube_duato.c).  The three differ only in the blocking rule
 * and in whether an input multiplexer exists, so one engine with two
 * switches keeps them from drifting apart.
 *
 * The adaptive model (docs/models/hypercube-dcsh.md, "M3 as printed", part 3,
 * thesis eqs.2.1-2.18):
 *
 *   p_j   = C(n,j)(k-1)^j/(N-1)                        (2.1-2.3)
 *   d_avg = n (k-1)/k N/(N-1)                          (2.4)
 *   m_c   = lam d_avg / n                              (2.5)
 *   W_qd  = lam Lm^2   (0 with multiple ejection)      (2.11) [printed]
 *   given the mean network latency L:
 *     P[v] = B1(m_c, L, V)                             (2.9)
 *     Duato:     Pblk(h) = P[V] (P[V] + P[V-1]/V)^(h-1)  (2.7)
 *     hop-based: Pblk(h) = P_C^h, P_C = sum_j (j/V) P[j] (3.1)-(3.2)
 *     B_h  = Pblk(h) L                                 (2.8)
 *     L_i  = i (1 + Dr) + Lm + sum_{h<=i} B_h + W_qd   (2.6)
 *     L    = sum_i p_i L_i                             (2.12)
 *   V_avg = Vbar(B1(m_c, L, V))                        (2.14)
 *   M_avg = Vbar(B1(m_c, L, (k-1) V))                  (2.15-2.17)
 *   W_qs  = (lam/V) L^2                                (2.13) [printed]
 *   Latency = (W_qs + M_avg L) V_avg                   (2.18)
 *
 * Resolutions (docs/models/hypercube-dcsh.md, "M3 as printed", resolutions):
 *   - (2.10)/(2.16) write the last-state factor as m_c/(V/L - m_c); the
 *     paired (2.9)/(2.15), the chain's description and every other source
 *     use 1/L [fix].  We use B1's closed form P[v] = (1-rho) rho^v (v < V),
 *     P[V] = rho^V, rho = m_c L, which is the 1/L chain.
 *   - (2.7)/(2.8) print P_v for P_V (OCR lower-cases V) [fix].
 *   - (2.13) prints m_s: it is m_g = lam [fix].  W_qs and W_qd have no
 *     1/(1-rho) denominator; they are kept as printed (the thesis curves)
 *     and the missing denominators are replaced by explicit saturation
 *     guards: lam Lm >= 1 (ejection/injection channel overloaded) and
 *     (lam/V) L >= 1 (source queue unstable) both mean SATURATED.
 *   - (2.15) normalises over l = 0..v; the upper limit is (k-1)V [fix]
 *     (B1's closed form needs no normalising sum at all).
 *   - The blocking wait is L itself (2.8): printed, kept.
 *   - Assumption (f)'s D_l is Dr [fix].
 *   - "Multiple ejection channels" ([L99] section 4.3,
 *   docs/models/kary-ncube.md, "M6 as printed", item 6)
 *     means immediate consumption: d->ejection_channels == 0 sets W_qd = 0.
 *     More than one but finitely many ejection channels has no equation in
 *     the thesis, so covers() rejects it.
 *   - Message length: the thesis assumes exponential lengths; the model
 *     uses only the mean, so fixed-length workloads are accepted with the
 *     same equations (an approximation the simulator will measure).
 *
 * Corrected variant (MODEL_VARIANT_CORRECTED; model.h, corrected.c,
 * docs/models/corrected.md, CV1, CV2 and CV4).  Every change re-derives
 * a term from the simulated semantics (docs/models/semantics.md); nothing is
 * fitted to the simulator:
 *   (a) Routing delay out of the multiplexing degree (CV1).  The
 *       blocking chain P[v] = B1(m_c, L, V) keeps the full holding time L,
 *       since a header that is deciding holds its VC.  But while it decides
 *       it transmits nothing, so the degree of flit sharing is taken over
 *       the transmitting occupancy, the same L_i without their idle time.
 *       Idle is the routing decisions and, by the same argument, the wait
 *       for the ejection channel (the worm holds its VCs and sends
 *       nothing; model_int.h, model_ejection_mg1):
 *         idle  = Dr d_avg + W_qd     (sum_i p_i i = d_avg, sum_i p_i = 1)
 *         L_tx  = sum_i p_i (i + Lm + sum_{h<=i} B_h) = L - idle
 *         V_avg = Vbar(B1(m_c, L_tx, V))
 *       and only L - idle is stretched (closing step).
 *   (d) Input multiplexer (CV4): a round-robin flit-level
 *       multiplexer is a processor-sharing server; its mean slowdown is
 *       1/(1 - rho), not Dally's degree (1 + rho)/(1 - rho) that the
 *       (k-1)V-state chain tends to.  With the chain's own rho:
 *         M_avg = 1 / (1 - m_c L_tx),   saturated when m_c L_tx >= 1.
 *       Only where the router has that multiplexer (input_mux): the DCSH,
 *       not hcube-duato, whose recommended M_avg = 1 is kept.
 *   (c) Ejection: W_qd = model_ejection_mg1(lam, Lm, E[L^2]), the M/G/1
 *       wait of the one ejection channel with the message length as its
 *       service: lam E[L^2] / (2 (1 - lam Lm)), 0 with unlimited ejection.
 *       Not length x V_avg M_avg (the tail trickling in at the multiplexed
 *       path's pace): every other holding time of this model is an
 *       unstretched latency (the chain is fed L, not L V_avg M_avg) and the
 *       stretch is applied once, in the closing step; the ejection channel
 *       is one more holding time.  The stretched service saturated the
 *       DCSH set-ups at 0.44-0.59 of the simulated rate (0.58-1.03 now;
 *       docs/models/corrected.md, CV3).  W_qd does not depend on
 *       the solution, so it is computed once, before the solve, and the
 *       fixed point keeps the one unknown L; W_qd enters (2.6) where the
 *       printed one does, so it feeds the blocking chain, but not L_tx
 *       (see (a)).  Saturated when lam Lm >= 1.
 *   (b) Closing step: model_result_corrected(), whose source wait is the
 *       P-K wait of the one injection channel (CV2), not stretched:
 *         Latency = W_s + (L - idle) V_avg M_avg + idle,
 *         W_s = lam E[L^2] / (2 (1 - lam Lm)).
 *       The thesis's guard (lam/V) L >= 1 stays a saturation condition.
 *   (f) The worm's holding time (docs/models/corrected.md, CV5; the
 *       torus family's model__torus_hold, CV5).  (2.9) feeds the
 *       chain, and (2.8) the blocked header's wait, the mean network
 *       latency L: every VC of a path held from the message's first hop to
 *       its end.  In the simulator a VC is held from the cycle its header
 *       takes it until the worm's tail leaves it: with one-flit buffers,
 *       until the header has crossed the r hops after the channel (each
 *       1 + Dr + its blocking B_h, h the hops left), waited W_qd for the
 *       ejection channel and drained the len - r flits still behind it,
 *       each term counted only while the worm still spans the channel:
 *         S(r) = 1 + sum_{t=1..r} P(len > t-1) (1 + Dr + B_{r-t+1})
 *                  + P(len > r) W_qd + E[(len - r)+]
 *       averaged over channel visits (a message of i hops makes visits
 *       with r = i-1, ..., 0; sum_i p_i i = d_avg of them).  S replaces L
 *       in P[v] = B1(m_c, S, V) and in B_h = Pblk(h) S; L is still
 *       (2.6)/(2.12) with those B_h.  The hops before the channel, and
 *       their blocking, are no longer counted in its occupancy; for the
 *       2-D DCSH that is the first hop's blocking B_n, the largest.  The
 *       transmitting occupancy of (a) and (d) is the same S without Dr and
 *       W_qd (S_tx), in place of L_tx: V_avg = Vbar(B1(m_c, S_tx, V)),
 *       M_avg = 1 / (1 - m_c S_tx).  The blocked header still waits a
 *       whole holding time, as (2.8) says.
 *   (e) At rate 0: W_qd = W_s = 0, V_avg = M_avg = 1, so the latency is
 *       d_avg (1 + Dr) + Lm, the same zero load as the other variants.
 *   (g)-(i) The DCSH only (input_mux: dcsh-duato, dcsh-hopbased; not
 *       hcube-duato, see below; docs/models/corrected.md, CV13; the
 *       same terms as dcsh_det_vc.c's (g)-(i)).  Measured in the simulator
 *       (bench_probe_duato), the latency is the wait for an injection VC,
 *       the hops, a little blocking, the wait for the ejection channel and
 *       the drain behind it; those are the terms:
 *       (g) the drain s (adaptive_drain(), below): the ejection channel is
 *           held s len, so W_qd is the M/G/1 wait with mean s Lm and
 *           second moment E[L^2] (s^2 + (s-1)/s) (the stretch varies
 *           between worms); in S(r) the drained flits take s each
 *           (E[(len - r)+] s) and L_i carries s Lm.  The body's stretch is
 *           s: no V_avg, no M_avg ((a), (d) are not applied).
 *       (i) the channels are M/M/V: their VCs are held mostly waiting for
 *           the ejection channel and draining at other stages' pace, so
 *           they are released independently.  With a = m_c S erlangs,
 *           P[V] = Erlang's C(V, a), P[V-1] the M/M/V state probability;
 *           Duato's (2.7) and the hop-based P_C = a/V (the mean busy VCs
 *           over V) keep their rules, and a blocked header takes the first
 *           of its m candidate VCs to free, S / m (m = h (V-1) + 1 for
 *           Duato, h for hop-based: VC number h on each of h channels);
 *           saturated at a >= V.
 *       (h) W_s = M/G/V: the source waits for one of its V injection VCs,
 *           each held until its tail has left (about L), Erlang's C at
 *           lam L, hold (L - s Lm) + s len; the injection channel's flit
 *           sharing is a stage of the drain, not a wait.
 *       Not hcube-duato's drain: the hypercube has no multiplexer, and its
 *       drain is not this one.  Measured on the 8-cube (V = 2, Lm = 32,
 *       50% load) the ejection channel is held 1.24 Lm; the same per-hop
 *       count gives 1.40, because Duato's header takes a channel whose
 *       adaptive VC is free, so it rarely shares a hypercube channel (on
 *       the 2-D DCSH the second hop has no choice and the first bus's
 *       competitors are the injection channel's).  With it the three
 *       V = 2 cubes went to MAPE 19-21% (CV13).
 *   (g') hcube-duato (the hypercube, no multiplexer; CV18): (h) and
 *       (i) as above, and its own drain, cube_drain(): per stage the PS
 *       stall of the channel's flit load, scaled by the occupants of the
 *       channel Duato's header chose (weighted by free adaptive VCs while
 *       it has a choice, E[N | N < V] at the last hop) over the M/M/V mean
 *       a = m_c S, so s depends on the hold and is recomputed with the
 *       ejection wait inside the solve; the competitors are present for
 *       their stretched drain and ready 1/s of it, so s = 1 + stalls (not
 *       model_worm_stretch's 1 + stalls / s).  (a) and (d) are not
 *       applied.
 *
 * Solve (docs/models/hypercube-dcsh.md, "M3 as printed" "Solve"): one unknown
 * L in the recommended and
 * printed variants, S in the corrected one (started at its zero-load
 * value, the same monotone climb); L is started
 * at the zero-load value L0 = sum p_i (i(1+Dr) + Lm) + W_qd (the printed
 * or the corrected W_qd) and iterated with model_solve;
 * the map is increasing in L, so the iterates climb to the least fixed
 * point and a guard tripping on the way is saturation.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "dcsh_common.h"

void dcsh__params_init(dcsh_params *p, const net_design *d,
                       const net_workload *w, double lam)
{
    p->n = d->n;
    p->k = net_uniform_radix(d);
    p->vcs = d->vcs;
    p->nodes = net_nodes(d);
    p->lam = lam;
    p->lm = net_message_flits(d, w);
    p->dr = d->router_delay;
    double nn = (double)p->nodes;
    p->d_avg = p->n * (p->k - 1.0) / p->k * nn / (nn - 1.0);
    p->p[0] = 0;
    for (int j = 1; j <= p->n; j++)
        p->p[j] = binom(p->n, j) * pow(p->k - 1.0, j) / (nn - 1.0);
    p->w_qd = d->ejection_channels == 0 ? 0.0 : lam * p->lm * p->lm;
}

int dcsh__covers_common(const net_design *d, const net_workload *w,
                        net_topology topo, net_routing routing, char *why,
                        size_t why_size)
{
    err e;
    err_clear(&e);
    if (d->topology != topo) {
        snprintf(why, why_size, "needs topology %s, not %s",
                 net_topology_name(topo), net_topology_name(d->topology));
        return -1;
    }
    if (d->switching != NET_SWITCH_WORMHOLE) {
        snprintf(why, why_size, "wormhole switching only, not %s",
                 net_switching_name(d->switching));
        return -1;
    }
    if (d->routing != routing) {
        snprintf(why, why_size, "%s routing only, not %s",
                 net_routing_name(routing), net_routing_name(d->routing));
        return -1;
    }
    if (net_check(d, &e) != 0) {
        snprintf(why, why_size, "%s", e.msg);
        return -1;
    }
    if (net_uniform_radix(d) < 2) {
        snprintf(why, why_size,
                 "the equations assume the same cluster size in every "
                 "dimension");
        return -1;
    }
    if (net_workload_check(d, w, &e) != 0) {
        snprintf(why, why_size, "%s", e.msg);
        return -1;
    }
    if (w->traffic != NET_TRAFFIC_UNIFORM) {
        snprintf(why, why_size, "uniform traffic only, not %s",
                 net_traffic_name(w->traffic));
        return -1;
    }
    if (d->ejection_channels > 1) {
        snprintf(why, why_size,
                 "%d ejection channels: the thesis models one (W_qd) or "
                 "unlimited (0)",
                 d->ejection_channels);
        return -1;
    }
    return 0;
}

/* ---- the chapter 2 adaptive model -------------------------------------- */

typedef struct adaptive_ctx {
    const dcsh_params *p;
    dcsh_block block;
    double m_c;                 /* rate on every channel (2.5) */
    /* corrected variant only */
    int input_mux;              /* apply the processor-sharing M_avg */
    double lm2;                 /* E[length^2] */
    /* corrected (f): P(len > t) and E[(len - t)+], t = 0..n (b = 1) */
    double over[NET_MAX_DIMS + 1], excess[NET_MAX_DIMS + 1];
    /* corrected (g)-(i), the DCSH (input_mux) only */
    int drained;                /* the drain, M/M/V buses, M/G/V source */
    double drain;               /* s; 1 without (g) */
    /* corrected (g')-(i), the hypercube (hcube-duato) only */
    int cube;                   /* the drain with Duato's choice, from S */
    const net_design *d;
} adaptive_ctx;

/* corrected (i): blocking delays B[1..n] of M/M/V channels with VC hold S:
 * independent holds, a blocked header takes the first of its m candidate
 * VCs to free (S / m). */
static model_status blocking_mmv(const adaptive_ctx *c, double S, double *B)
{
    const dcsh_params *p = c->p;
    int V = p->vcs;
    double a = c->m_c * S;
    if (!isfinite(a) || a < 0 || a >= V)
        return MODEL_SATURATED;
    double pv = erlang_c(V, a);             /* all V busy */
    /* P(exactly V-1 busy) of M/M/V: p0 a^(V-1)/(V-1)!, p0 from C */
    double term = 1, sum = 0;
    for (int j = 0; j < V; j++) {
        sum += term;
        if (j < V - 1)
            term *= a / (j + 1);
    }
    /* term = a^(V-1)/(V-1)!; P(>= V) = pv; p0 (sum_{j<V} a^j/j!) = 1 - pv */
    double pv1 = (1 - pv) * term / sum;
    B[0] = 0;
    if (c->block == DCSH_BLOCK_DUATO) {
        double pa = pv + pv1 / V;
        double f = pv;
        for (int h = 1; h <= p->n; h++) {
            B[h] = clamp01(f) * S / (h * (V - 1.0) + 1);
            f *= pa;
        }
    } else {
        double pc = clamp01(a / V), f = pc;  /* mean busy (min(N,V)) / V */
        for (int h = 1; h <= p->n; h++) {
            B[h] = f * S / h;
            f *= pc;
        }
    }
    return MODEL_CONVERGED;
}

/* Pblk(h), h = 1..n, for a channel held L cycles on average. */
static model_status blocking_probs(const adaptive_ctx *c, double L,
                                   double *pblk)
{
    const dcsh_params *p = c->p;
    int V = p->vcs;
    double rho = c->m_c * L;
    if (!isfinite(rho) || rho < 0 || rho >= 1)
        return MODEL_SATURATED;
    double pv = pow(rho, V);
    if (c->block == DCSH_BLOCK_DUATO) {
        /* P[V-1] = (1-rho) rho^(V-1): V-1 < V, so the geometric branch.
         * P_a: all V-1 adaptive VCs busy; with V-1 VCs busy only 1 of the
         * C(V,V-1) = V combinations leaves the escape VC free (2.7). */
        double pv1 = (1 - rho) * pow(rho, V - 1);
        double pa = pv + pv1 / V;
        double f = pv;
        for (int h = 1; h <= p->n; h++) {
            pblk[h] = clamp01(f);
            f *= pa;
        }
    } else {
        /* P_C = sum_{j=1..V} P[j] C(V-1,j-1)/C(V,j) = sum (j/V) P[j] (3.1):
         * the mean number of busy VCs over V. */
        double pc = 0, power = 1;
        for (int j = 1; j < V; j++) {
            power *= rho;
            pc += (double)j / V * (1 - rho) * power;
        }
        pc += pv;
        pc = clamp01(pc);
        double f = pc;
        for (int h = 1; h <= p->n; h++) {
            pblk[h] = f;
            f *= pc;
        }
    }
    return MODEL_CONVERGED;
}

/* Corrected variant: the idle part of a mean network latency with
 * ejection wait w_qd: Dr d_avg (sum_i p_i i = d_avg) + W_qd (sum_i p_i = 1,
 * every L_i carries it once). */
static double adaptive_idle(const dcsh_params *p, double w_qd)
{
    return p->dr * p->d_avg + w_qd;
}

/* Corrected (f): the worm's holding time, the mean over channel visits of
 * the time a VC is held until the worm's tail leaves it, given the
 * blocking delays B[h] (h = hops left, the hop itself included), dr cycles
 * per routing decision and the ejection wait wqd.  A visit with r hops
 * after the channel (a message of i hops makes visits r = i-1, ..., 0):
 *   S(r) = 1 + sum_{t=1..r} P(len > b(t-1)) (1 + dr + B[r-t+1])
 *            + P(len > b r) wqd + E[(len - b r)+]                       */
static double adaptive_hold(const adaptive_ctx *c, const double *B, double dr,
                            double wqd)
{
    const dcsh_params *p = c->p;
    /* visits with r hops after the channel: one per message of more than
     * r hops, weight sum_{i>r} p_i */
    double sum = 0, weight = 1 - p->p[0];
    for (int r = 0; r < p->n; r++) {
        weight -= p->p[r];
        double sr = 1 + c->over[r] * wqd + c->drain * c->excess[r];
        for (int t = 1; t <= r; t++)
            sr += c->over[t - 1] * (1 + dr + B[r - t + 1]);
        sum += weight * sr;
    }
    return sum / p->d_avg;               /* sum_i p_i i = d_avg visits */
}

/* Corrected (f): blocking delays B[1..n] and the mean network latency for
 * a VC holding time S; the blocked header waits one holding time (2.8). */
static model_status adaptive_delays(const adaptive_ctx *c, double S,
                                    double *B, double *L)
{
    const dcsh_params *p = c->p;
    double pblk[NET_MAX_DIMS + 1];
    if (c->drained) {
        model_status st = blocking_mmv(c, S, B);
        if (st != MODEL_CONVERGED)
            return st;
    } else {
        model_status st = blocking_probs(c, S, pblk);
        if (st != MODEL_CONVERGED)
            return st;
        B[0] = 0;
        for (int i = 1; i <= p->n; i++)
            B[i] = pblk[i] * S;                       /* (2.8), hold S */
    }
    double blocked = 0;
    *L = 0;
    for (int i = 1; i <= p->n; i++) {
        blocked += B[i];
        *L += p->p[i] * (i * (1 + p->dr) + c->drain * p->lm + blocked +
                         p->w_qd);
    }
    return MODEL_CONVERGED;
}

/* Corrected (g'), the hypercube: the drain s at VC holding time S
 * (docs/models/corrected.md, CV18).  A worm of i hops that holds the
 * ejection channel streams through the stages it still spans (one-flit
 * buffers: the hop with r dimensions left is spanned iff len > r - 1, the
 * injection channel iff len > i).  A hypercube router has no multiplexer
 * (sim/topo_cube.c): a transfer needs only its output channel, so a
 * stage's competitors are the other worms on that channel (or, at the
 * injection channel, the source's other worms, flit load lam Lm).  Which
 * channel the header took is Duato's choice (sim/route_duato.c: a free
 * adaptive VC at random over every profitable channel), so its other
 * occupants are not the channel's mean occupancy a = m_c S (M/M/V, item
 * (i)) but
 *   - with r >= 2 dimensions left, the M/M/V states weighted by their free
 *     adaptive VCs: sum_j j pi_j (V-1-j) / sum_j pi_j (V-1-j) (0 for
 *     V = 2: a channel whose one adaptive VC is taken is not chosen);
 *   - with one left (no choice), the states a header finds not all busy,
 *     E[N | N < V];
 * each scaling the channel's PS stall model_ps_stall(m_c Lm, V) by its
 * ratio to a.  The first hop's competitors from the injection channel are
 * already the source's (1 - 1/d_avg of a channel's worms are not on their
 * first hop).  The competitors are themselves stretched: each is present
 * on the channel for its stretched drain, s len, s times as long as the
 * PS count assumes, and ready 1/s of those cycles; the two cancel, so a
 * stage stalls ours by its PS stall and
 *   s = 1 + stalls
 * (model_worm_stretch's s = 1 + stalls / s counts the competitors present
 * for len only).  Measured drains (ejection-channel hold over Lm,
 * bench_probe_duato): 10-cube Lm = 128 Dr = 1 at 0.00187, V = 2/4/6:
 * 1.337 / 1.685 / 1.749 (this 1.326 / 1.748 / 1.835; s = 1 + stalls / s:
 * 1.260 / 1.502 / 1.543); 8-cube example at 0.0065: 1.24 (1.27; 1.22);
 * V4-Dr2 at 0.0064 / 0.009: 1.45 / 1.64 (1.53 / 1.77; 1.38 / 1.52).  The
 * sum of the stalls ignores that stalls at two stages can fall in the
 * same cycle, so this is an upper estimate: 1-8% high where V >= 3. */
static double cube_drain(const adaptive_ctx *c, double S)
{
    const dcsh_params *p = c->p;
    int n = p->n, V = p->vcs;
    double rho = c->m_c * p->lm, a = c->m_c * S;
    /* M/M/V states j < V, w_j = a^j / j!, the ratios without dividing
     * by a */
    double sum0 = 0, e1 = 0, wr = 0, er = 0, term = 1, termm1 = 0;
    for (int j = 0; j < V; j++) {
        /* term = a^j/j!, termm1 = a^(j-1)/(j-1)! (0 at j = 0) */
        sum0 += term;
        e1 += termm1;                       /* j w_j / a */
        if (j < V - 1) {
            wr += term * (V - 1 - j);
            er += termm1 * (V - 1 - j);
        }
        termm1 = term;
        term *= a / (j + 1);
    }
    double last = e1 / sum0;                /* E[N | N < V] / a */
    double chosen = wr > 0 ? er / wr : last; /* by free adaptive VCs */
    double st = model_ps_stall(rho, V);
    double inj = model_ps_stall(p->lam * p->lm, V);
    double turn = 1 / p->d_avg;
    double stalls = 0;
    for (int i = 1; i <= n; i++) {
        double si = c->over[i] * inj;
        for (int r = 1; r <= i; r++)
            si += c->over[r - 1] * st * (r == 1 ? last : chosen) *
                  (r == i ? 1 - turn : 1);
        stalls += p->p[i] * si;
    }
    if (!isfinite(stalls))
        return INFINITY;
    return 1.0 + stalls;
}

/* Corrected (g'), the hypercube: the drain s(S) and its M/G/1 ejection
 * wait (item (g)'s, mean s Lm, second moment E[L^2] (s^2 + (s-1)/s)) into
 * cc and pp, for VC holding time S. */
static model_status cube_setup(adaptive_ctx *cc, dcsh_params *pp, double S)
{
    double s = cube_drain(cc, S), var = (s - 1) / s;
    cc->drain = s;
    pp->w_qd = 0;
    if (!isfinite(s) ||
        (cc->d->ejection_channels != 0 &&
         wait_mg1_pk(pp->lam, s * pp->lm, cc->lm2 * (s * s + var),
                     &pp->w_qd) != MODEL_CONVERGED))
        return MODEL_SATURATED;
    return MODEL_CONVERGED;
}

/* Corrected (f): x[0] = S, the worm's holding time. */
static model_status adaptive_hold_map(void *ctx, const double *x, double *fx)
{
    const adaptive_ctx *c = ctx;
    adaptive_ctx cc;
    dcsh_params pp;
    if (c->cube) {
        /* (g'): the drain and the ejection wait follow the hold */
        cc = *c;
        pp = *c->p;
        cc.p = &pp;
        if (cube_setup(&cc, &pp, x[0]) != MODEL_CONVERGED)
            return MODEL_SATURATED;
        c = &cc;
    }
    const dcsh_params *p = c->p;
    double B[NET_MAX_DIMS + 1], L;
    model_status st = adaptive_delays(c, x[0], B, &L);
    if (st != MODEL_CONVERGED)
        return st;
    if (p->lam / p->vcs * L >= 1)
        return MODEL_SATURATED;         /* source queue (2.13) unstable */
    fx[0] = adaptive_hold(c, B, p->dr, p->w_qd);
    return MODEL_CONVERGED;
}

/* x[0] = L (p->w_qd is the variant's ejection wait). */
static model_status adaptive_map(void *ctx, const double *x, double *fx)
{
    const adaptive_ctx *c = ctx;
    const dcsh_params *p = c->p;
    double L = x[0];
    double w_qd = p->w_qd;
    double pblk[NET_MAX_DIMS + 1];
    model_status st = blocking_probs(c, L, pblk);
    if (st != MODEL_CONVERGED)
        return st;
    if (p->lam / p->vcs * L >= 1)
        return MODEL_SATURATED;         /* source queue (2.13) unstable */
    double blocked = 0, next = 0;
    for (int i = 1; i <= p->n; i++) {
        blocked += pblk[i] * L;         /* B_h = Pblk(h) L          (2.8) */
        double li = i * (1 + p->dr) + p->lm + blocked + w_qd;   /* (2.6) */
        next += p->p[i] * li;           /* (2.12) */
    }
    fx[0] = next;
    return MODEL_CONVERGED;
}

/* Corrected (g), the adaptive DCSH: the drain s, as dcsh__drain_det but
 * with the visits of an adaptive path.  A message of i hops crosses i
 * buses (segment j = its (j+1)-th hop, crossed with P(i > j)); a bus's
 * flit load is rho = m_c Lm.  The first bus adds only the multiplexers'
 * share, rho (1 - 1/d_avg) (1/d_avg of a bus's worms are on their first
 * hop, fed by the injection channel); a later transfer adds to its bus
 * the multiplexer's traffic for other outputs: the worms that eject there
 * (1/d_avg of its arrivals) and, for n > 2, those that continue on
 * another of the n - 1 other dimensions, (1 - 1/d_avg)(n - 2)/(n - 1)
 * (uniform over them).  The last multiplexer passes ours and the worms
 * that continue, rho (1 - 1/d_avg).  Measured (ejection-channel hold per
 * message): dcsh-duato example 1.41 at 0.0051 (this 1.37), Fig.2.5b 1.59
 * at 0.00175 (1.46). */
static double adaptive_drain(const adaptive_ctx *c, const net_design *d,
                             const net_workload *w)
{
    const dcsh_params *p = c->p;
    int n = p->n, V = p->vcs;
    double rho = c->m_c * p->lm, turn = 1 / p->d_avg;
    double first = rho * (1 - turn);
    double mux = 0;
    if (c->input_mux)
        mux = rho * ((1 - turn) * (n > 2 ? 1 - 1 / (n - 1.0) : 0) + turn);
    model_worm_path path = {0};
    path.nseg = n;
    double cross = 1;
    for (int j = 0; j < n; j++) {
        cross -= p->p[j];
        path.cross[j] = cross;
        path.hops[j] = 1;
        path.stall[j] = model_ps_stall(j == 0 ? first : rho + mux, V);
    }
    double s = model_worm_stretch(d, w, p->lam, &path);
    double last = c->input_mux ? model_ps_stall(rho * (1 - turn), V) : 0;
    double stalls = s * s - s + last;
    if (!isfinite(stalls))
        return INFINITY;
    return (1.0 + sqrt(1.0 + 4.0 * stalls)) / 2.0;
}

int dcsh__adaptive_eval(const net_design *d, const net_workload *w,
                        double rate, const model_opts *opts, dcsh_block block,
                        int input_mux, model_result *out)
{
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    dcsh_params p;
    dcsh__params_init(&p, d, w, rate);
    /* The injection (and, with one ejection channel, the ejection) channel
     * moves one flit per cycle: lam Lm >= 1 can never be a steady state,
     * whatever the printed W_qd without denominator says. */
    if (p.lam * p.lm >= 1)
        return model_result_fail(out, MODEL_SATURATED, 0);
    int corrected = opts->variant == MODEL_VARIANT_CORRECTED;
    double lm2 = model_length_m2(d, w);
    /* corrected (c): the M/G/1 ejection wait replaces the printed lam Lm^2;
     * it does not depend on L, so it is fixed before the solve */
    if (corrected &&
        model_ejection_mg1(d, p.lam, p.lm, lm2, &p.w_qd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    adaptive_ctx c = {&p, block, p.lam * p.d_avg / p.n, input_mux, lm2,
                      {0}, {0}, 0, 1, 0, d};
    if (corrected && !input_mux && d->topology == NET_HYPERCUBE) {
        /* (g')-(i), the hypercube: its drain (from the hold, inside the
         * solve), M/M/V channels, M/G/V source wait (CV18) */
        c.drained = 1;
        c.cube = 1;
    }
    if (corrected && input_mux) {
        /* (g)-(i), the DCSH only: the drain, its ejection wait, M/M/V
         * buses, M/G/V source wait (CV13) */
        c.drained = 1;
        c.drain = adaptive_drain(&c, d, w);
        double s2 = c.drain, var = (s2 - 1) / s2;
        p.w_qd = 0;
        if (!isfinite(s2) ||
            (d->ejection_channels != 0 &&
             wait_mg1_pk(p.lam, s2 * p.lm, lm2 * (s2 * s2 + var), &p.w_qd) !=
                 MODEL_CONVERGED))
            return model_result_fail(out, MODEL_SATURATED, 0);
    }
    if (corrected) {
        /* the simulator's lengths: geometric with mean Lm (memoryless:
         * E[(len - t)+] = Lm P(len > t)), or fixed */
        int geo = w->length == NET_LENGTH_EXPONENTIAL;
        double q = p.lm > 1 ? 1 - 1 / p.lm : 0, over = 1;
        for (int t = 0; t <= p.n; t++) {
            c.over[t] = geo ? over : (p.lm > t ? 1 : 0);
            c.excess[t] = geo ? p.lm * over : (p.lm > t ? p.lm - t : 0);
            over *= q;
        }
        /* (f): one unknown, the worm's holding time S, started at its
         * zero-load value (no blocking) */
        double B0[NET_MAX_DIMS + 1] = {0};
        if (c.cube && cube_setup(&c, &p, 0) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 0);
        double s[1] = {adaptive_hold(&c, B0, p.dr, p.w_qd)};
        int iterations = 0;
        model_status st = model_solve(adaptive_hold_map, &c, s, 1, opts,
                                      &iterations);
        double B[NET_MAX_DIMS + 1], L, v_avg, m_avg = 1;
        if (st == MODEL_CONVERGED && c.cube)
            st = cube_setup(&c, &p, s[0]);
        if (st == MODEL_CONVERGED)
            st = adaptive_delays(&c, s[0], B, &L);
        if (st != MODEL_CONVERGED)
            return model_result_fail(out, st, iterations);
        if (p.lam / p.vcs * L >= 1)
            return model_result_fail(out, MODEL_SATURATED, iterations);
        if (c.drained) {
            double a = p.lam * L, fixed = L - c.drain * p.lm;
            double h2 = fixed * fixed + 2 * fixed * c.drain * p.lm +
                        c.drain * c.drain * lm2;
            double w_s = erlang_c(p.vcs, a) * h2 / (2 * L) / (p.vcs - a);
            return model_result_ok(out, w_s + L, L, w_s, c.drain, iterations);
        }
        /* (a), (d): the multiplexing degrees from the transmitting
         * occupancy, the same hold without routing decisions and W_qd */
        double s_tx = adaptive_hold(&c, B, 0, 0);
        if (vc_mux_degree(c.m_c, s_tx, p.vcs, &v_avg) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iterations);
        if (input_mux) {
            double rho = c.m_c * s_tx;
            if (!isfinite(rho) || !(rho < 1))
                return model_result_fail(out, MODEL_SATURATED, iterations);
            m_avg = 1 / (1 - rho);          /* processor sharing */
        }
        return model_result_corrected(out, p.lam, p.vcs, p.lm, c.lm2, L,
                                      adaptive_idle(&p, p.w_qd),
                                      v_avg * m_avg, iterations);
    }
    /* recommended, printed: the thesis's unknown L, started at the
     * zero-load point with this rate's W_qd */
    double x[1] = {p.w_qd};
    for (int i = 1; i <= p.n; i++)
        x[0] += p.p[i] * (i * (1 + p.dr) + p.lm);
    int iterations = 0;
    model_status st = model_solve(adaptive_map, &c, x, 1, opts, &iterations);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iterations);
    double L = x[0];
    if (p.lam / p.vcs * L >= 1)
        return model_result_fail(out, MODEL_SATURATED, iterations);
    double v_avg, m_avg = 1;
    st = vc_mux_degree(c.m_c, L, p.vcs, &v_avg);                  /* (2.14) */
    if (st == MODEL_CONVERGED && input_mux) {
        long states = (long)(p.k - 1) * p.vcs;
        if (states > INT_MAX)
            states = INT_MAX;
        st = vc_mux_degree(c.m_c, L, (int)states, &m_avg);  /* (2.15-2.17) */
    }
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iterations);
    return model_result_thesis(out, p.lam, p.vcs, L, m_avg, v_avg,
                               iterations);                 /* (2.13), (2.18) */
}

void dcsh__example(net_design *d, net_workload *w, net_topology topology,
                   int n, int k, int vcs, net_routing routing, int bits)
{
    net_design_init(d);
    net_workload_init(w);
    d->topology = topology;
    net_design_set_radix(d, n, k);
    d->vcs = vcs;
    d->routing = routing;
    d->router_delay = 0;
    d->ejection_channels = 1;
    d->width = 1;
    w->message_bits = bits;
    w->length = NET_LENGTH_EXPONENTIAL;
}

double dcsh__adaptive_zero_load(const net_design *d, const net_workload *w)
{
    dcsh_params p;
    dcsh__params_init(&p, d, w, 0.0);
    return p.d_avg * (1 + p.dr) + p.lm;
}

/* ---- the DCSH drain (corrected, dimension order; CV13) -----------
 *
 * Once the header holds the ejection channel the rest of the worm streams
 * through the stages it still spans, one-flit buffers apart, so a stall at
 * any stage holds every flit behind it and the stalls add (CV6,
 * model_worm_stretch).  What a DCSH stage is, in the simulator
 * (sim/topo_dcsh.c, sim/engine.c phase 5): a flit that leaves an input VC
 * of router m needs, in the same cycle, the input multiplexer of that VC's
 * group (one flit per cycle over its (k-1)V inputs) and the output channel
 * (a bus, one flit per cycle over its V VCs, or the ejection channel).  So
 * a hop is one transfer with two resources, not two stages: its
 * competitors are the worms on the output bus plus those that use the
 * multiplexer for another output, each counted once.  (The stall sum of
 * CV5 counted the bus and the multiplexer as two stages, so every
 * worm that turned from the multiplexer onto the same bus was charged
 * twice.)  With dimension order, per transfer:
 *   - injection channel: the source's worms, lam Lm (model_worm_stretch).
 *   - first bus, bus(s, d): fed by s's injection channel and by the
 *     multiplexers of s's lower dimensions.  The worms from the injection
 *     channel were already competitors there, and interleaving with the
 *     same worm costs once (CV6): only the multiplexers' share is
 *     new, (1 - p_s)(1 - p_s^d) lam Lm.  P(first | crosses d) = p_s^d.
 *   - later bus, from mux(m, d') onto bus(m, d): the bus's load
 *     (1 - p_s) lam Lm plus the multiplexer's traffic for other outputs,
 *     (1 - p_s) lam Lm (1 - (1 - p_s) p_s^(d-d'-1)); d' is the previous
 *     dimension crossed, P(d' | d, not first) = (1 - p_s) p_s^(d-d'-1) /
 *     (1 - p_s^d).
 *   - ejection, from mux(t, e): the ejection channel is ours alone; the
 *     multiplexer also passes the worms that arrived on dimension e and
 *     continue, (1 - p_s) lam Lm (1 - p_s^(n-1-e)) (none on the last
 *     dimension: with dimension order everything that arrives there
 *     ejects, and only the one worm holding the ejection channel moves).
 *     P(last = e) = (1 - p_s) p_s^(n-1-e) / (1 - p_s^n).
 * Each transfer is processor sharing capped at V (model_ps_stall; its
 * output bus has V VCs).  A stage counts only while a worm of the
 * workload's lengths still spans it (one-flit buffers: the last
 * len / b hops), and the competitors are stretched like ours, ready 1/s
 * of the cycles: s = 1 + stalls / s (model_worm_stretch, CV6).
 * Measured directly (the ejection channel's mean hold per message over
 * Lm, bench_probe_duato, 1 seed, 50000 cycles after 10000) against this:
 *   16 x 16, V = 2, Dr = 0, Lm = 32, 25/50/70% load: 1.13 1.29 1.38 /
 *       1.16 1.28 1.37
 *   16 x 16, V = 4, Dr = 2 (Fig.3.4b), 25/50/70%: 1.18 1.43 1.66 /
 *       1.19 1.36 1.51
 *   4-ary 5 DCSH, V = 3, Lm = 43, 35/70%: 1.39 1.78 / 1.36 1.66
 *   2-ary 10 DCSH, V = 6, Lm = 128, 50/70%: 1.44 1.64 / 1.55 1.74
 * The stall sum of CV5 (bus and multiplexer as separate stages,
 * the first bus counted besides the injection channel) gave 1.37 and
 * 1.58 on the first network at 50% load. */
double dcsh__drain_det(const net_design *d, const net_workload *w,
                       const dcsh_params *p)
{
    int n = p->n, V = p->vcs;
    double ps = 1.0 / p->k, lm = p->lm;
    int geo = w->length == NET_LENGTH_EXPONENTIAL;
    double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    double q = lm > 1 ? 1 - 1 / lm : 0;
    double bus = (1 - ps) * p->lam * lm;            /* a bus's flit load */
    /* the ejection transfer: always spanned */
    double stalls = 0;
    for (int e = 0; e < n; e++)
        stalls += (1 - ps) * pow(ps, n - 1 - e) / (1 - pow(ps, n)) *
                  model_ps_stall(bus * (1 - pow(ps, n - 1 - e)), V);
    /* the buses, backwards from the last dimension: dimension dim is still
     * spanned when the header arrives iff the worm is longer than the
     * buffers of the (mean) hops after it */
    double after = 0;
    for (int dim = n - 1; dim >= 0; dim--) {
        double m = b * after;
        double span = m <= 0 ? 1 : geo ? pow(q, m) : (lm > m ? 1 : 0);
        double first = pow(ps, dim);
        double st = first * model_ps_stall(bus * (1 - first), V);
        for (int prev = 0; prev < dim; prev++) {
            double to_d = (1 - ps) * pow(ps, dim - prev - 1);
            st += to_d * model_ps_stall(bus + bus * (1 - to_d), V);
        }
        stalls += (1 - ps) * span * st;
        after += 1 - ps;
    }
    /* the injection channel */
    double m = b * after;
    double span = m <= 0 ? 1 : geo ? pow(q, m) : (lm > m ? 1 : 0);
    stalls += span * model_ps_stall(p->lam * lm, V);
    if (!isfinite(stalls))
        return INFINITY;
    /* competitors ready 1/s of the cycles (model_worm_stretch) */
    return (1.0 + sqrt(1.0 + 4.0 * stalls)) / 2.0;
}
