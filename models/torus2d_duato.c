/*
 * torus2d_duato.c — M6 `torus2d-duato`: Duato fully adaptive wormhole
 * routing in the bidirectional 2D torus (k x k).
 *
 * Source: [L99] (Loucif's thesis), chapter 4, section
 * 4.2.1, eqs.(4.1)-(4.10), with the VC chain (2.9), the waits (2.11) and
 * (2.13) of chapter 2; docs/models/kary-ncube.md, "M6 as printed", B1, B2,
 * B4, B5, B6, B7.
 *
 * Equations (one unknown, the mean network latency L):
 *   k_avg = k/4 (odd k: see 2), d_avg = 2 k_avg           (4.1)-(4.2)
 *   m_c   = lam d_avg / (2n), n = 2                        (4.3)
 *   W_qd  = lam Lm^2 (0 with multiple ejection channels)   (2.11)
 *   P     = B1(m_c, L, V)                                  (2.9)
 *   P_a   = P[V] + 2 P[V-1]/V + P[V-2]/C(V,2)              (4.7)
 *   P_d   = P[V] + c_d P[V-1]/V                            (4.8)
 *   h = hops still to make:  h > k_avg: Pblk = P_a P_d;
 *     else P_c = 2/(h+1), Pblk = (1-P_c) P_a P_d + P_c P_d  (4.6), (4.9)
 *   L     = d_avg (1 + Dr) + Lm + sum_{h=1..d_avg} Pblk(h) L + W_qd
 *   (4.4)-(4.5)
 *   V_avg = Vbar(P); W_qs = (lam/V) L^2                    (2.13), (2.14)
 *   Latency = (W_qs + L) V_avg                             (4.10)
 *
 * Resolutions (docs/models/kary-ncube.md, "M6 as printed", resolutions):
 *   1. c_d in (4.8): 1 [recommended] — with V-1 of V VCs busy, the one
 *      free VC must be the *other* escape VC for the message to be blocked,
 *      1 case of V; the printed 2 also counts the case where the message's
 *      own escape VC is free (B4).  opts->variant == PRINTED gives 2.
 *   2. k/4 for odd k (4.1): the exact per-dimension mean is (k - 1/k)/4
 *      (B5, from [SOM02] eq.5) [recommended]; PRINTED keeps k/4.
 *   3. A non-integer d_avg (k not a multiple of 4) is summed with B6
 *      (frac_sum); P_c is clamped to [0, 1].
 *   4. (4.4) "D_t" is Dr and (4.10) "W_qv" is W_qs [fix].
 *   5. The VC chain's last-state rate is 1/L - m_c, not V/L - m_c [fix, B1].
 *   6. W_qd = 0 with ejection_channels == 0 (section 4.3, Fig.4.6); with
 *      c >= 1 ejection channels each takes lam/c (c = 1 is the thesis).
 *   7. The printed W_qd and W_qs lack the 1/(1-rho) factor [printed, as
 *      M3 item 3]; saturation is still declared when m_c L, lam Lm / c or
 *      (lam/V) L reaches 1 (B7).
 * Length distribution: the thesis assumes exponential lengths; its
 * formulas use only the mean Lm, so fixed-length workloads are evaluated
 * with the same equations (an approximation the docs point out).  The
 * model ignores buffer depth (the thesis has one-flit VC buffers).
 *
 * Solve: model_solve() on L from the zero-load value; the map is
 * L0 + c(L) L with c increasing, so the iterates climb to the least fixed
 * point or trip the chain's guard (saturation).
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; model_int.h
 * "corrected variant", docs/models/corrected.md, CV1-CV3): the
 * recommended equations (c_d = 1, exact odd-k k_avg) with three terms
 * re-derived from the simulated semantics (docs/models/semantics.md), no
 * constant fitted:
 *   (a) Routing delay.  A header deciding its route for Dr cycles holds its
 *       VC (so it counts for blocking: P, P_a, P_d keep the chain at the
 *       full holding time L) but sends nothing, so the other VCs of the
 *       channel share its bandwidth without it.  The multiplexing degree
 *       comes from the transmitting holding time, the same L with the
 *       routing decisions (and the ejection wait, (c)) taken out and the
 *       same blocking delays:
 *         L' = L - d_avg Dr - W_qd,   V_avg = Vbar(B1(m_c, L', V))
 *       and only L - route is stretched, route = d_avg Dr (the Dr part of
 *       the zero-load latency).  CV1: with Dr = 2 the recommended
 *       reading multiplies Dr by Vbar and inflates Vbar with Dr.
 *   (b) Source wait: one injection channel per node (section 3 item 7), an
 *       M/G/1 queue, W_s = lam E[L^2] / (2 (1 - lam Lm)), not stretched
 *       (CV2), instead of (lam/V) L^2 (2.13).
 *   (c) Ejection: the one ejection channel takes one message at a time and
 *       holds it until the tail is consumed (docs/models/semantics.md, item
 *       10,
 *       what the thesis simulated): an M/G/1 queue at lam / c whose service
 *       is the message length, W_qd = lam E[L^2] / (2 (1 - lam Lm)) per
 *       channel (model_ejection_mg1; model_int.h says why the length and
 *       not the length stretched by V_avg), instead of (2.11)'s lam Lm^2.
 *       W_qd enters L where the printed one does, hence the holding times and blocking; but a
 *       worm waiting to eject sends nothing, so, like Dr, it is left out
 *       of the transmitting occupancy and is not stretched.
 *   Latency = W_s + (L - idle) V_avg + idle, idle = d_avg Dr + W_qd
 *   (model_result_corrected).  At rate -> 0 every wait vanishes and
 *   V_avg -> 1: the zero-load latency is unchanged.
 *   (d) The worm's holding time (docs/models/corrected.md, "The
 *       worm's holding time"; model__torus_hold_any).  The thesis feeds the VC chain, and
 *       charges a blocked header, the whole network latency L: every hop
 *       of the path, W_qd and Lm.  A VC is held from its header's arrival
 *       until the tail leaves it, i.e. until the header has crossed
 *       span = len / b more channels, or reached the destination, waited
 *       W_qd and drained the len - b r flits still behind it (r hops left
 *       after the channel).  The unknown becomes that mean holding time S
 *       over channel visits (the hops left are uniform on 0..X-1 for a
 *       path of X hops, X exact for the destination rule):
 *         S = 1 + C (1 + Dr + Pbar S) + drain + out W_qd
 *         Pbar = sum_h Pblk(h) / d_avg (each counted hop's mean blocking),
 *         P = B1(m_c, S, V), a blocked header waits one S,
 *         L = d_avg (1 + Dr) + Lm + W_qd + sum_h Pblk(h) S
 *       and V_avg comes from the transmitting holding time 1 + C (1 + Pbar
 *       S) + drain.  For long worms (len >> hops) S is the remaining
 *       latency less r (the tail streams while the header travels); for
 *       short worms on long paths (the wide
 *       channels of a bisection-limited torus) the blocking of hops the
 *       tail has already left no longer compounds into the occupancy.
 *       At rate -> 0 the latency is d_avg (1 + Dr) + Lm: unchanged.
 *   First to free (docs/models/corrected.md, CV6).  (4.9)'s blocked
 *   header waits one whole holding time: [L99] section 2.3 "has to wait for
 *   the deterministic virtual channel" (and docs/models/semantics.md, item 4).
 *   The simulator's router (sim/route_duato.c) retries both tiers every
 *   cycle and leaves on whichever VC frees first, which Duato's condition
 *   allows.  A header blocked with both dimensions left has m = 2 (V - 2)
 *   + 1 busy candidates (the adaptive VCs of both minimal channels and its
 *   escape VC), with one dimension left m = (V - 2) + 1; their remaining
 *   holding times taken as independent and memoryless (mean S, the
 *   geometric lengths), the first frees after S / m.  So each term of
 *   Pblk(h) is divided by its m in the corrected variant; the blocking
 *   probabilities themselves are the thesis's.  torus-duato does the same
 *   with r dimensions left, m = r (V - 2) + 1.  Decision: the model
 *   follows the simulated router, not docs/models/semantics.md item 4,
 *   because the
 *   simulator's router is the network dse decides with.
 *   (e) The rest of the hold in progress (docs/models/corrected.md, CV7;
 *   express_det.c (d) made the same argument for
 *   one channel).  A header that meets busy VCs arrives at a random moment
 *   of their holds, so it waits the residual E[H^2] / (2 E[H]), not a
 *   whole hold S: that is S only for an exponential hold.  The hold is its
 *   zero-load part H0 (the worm's own span, Dr and drain: mean
 *   s0 = 1 + C (1 + Dr) + drain, variance var0 over channel visits and the
 *   length law, model__torus_hold_any's m2) plus the waits (blocking, the
 *   ejection wait), taken as exponential with mean S - s0 as the thesis
 *   does; so E[H^2] = S^2 + var0 + (S - s0)^2 and the blocked wait (before
 *   the first-to-free 1/m) is (S^2 + var0 + (S - s0)^2) / (2 S) in the
 *   holding-time map, in L and in the transmitting hold.  The chain's
 *   occupancy still uses S (Little: the mean hold, not the residual).
 *   (f) The channel's two tiers (docs/models/corrected.md, CV11;
 *   model__duato_tiers).  The thesis's P_a, P_d come from one B1 chain
 *   pooled over the V VCs, with a geometric tail (P[V] = rho^V) and no
 *   preference.  The simulated router (sim/route_duato.c) takes an
 *   adaptive VC whenever a candidate channel has one free and the escape
 *   VC of its dateline class only when none has, and a ring's channels
 *   carry one escape class almost everywhere (CV6).  Probed (CV7 and CV11),
 *   the busy VCs are released independently, each after its
 *   own hold (counts close to Poisson), and the adaptive VCs fill first
 *   (16x16, V = 3: P(adaptive busy) 0.42-0.44 at 80% load).  So a channel
 *   is an M/M/c queue, c = (V - 2) + 1 (the adaptive VCs, then the one
 *   escape VC of the class), a blocked header waiting rather than lost:
 *     P_d = Erlang C(c, a),  P_a = P_d + (1 - P_d) B(V - 2, a),
 *     a = m_c H,  H = S + (s - 1) (C + drain)
 *   in place of (4.7), (4.8) (c_d is then not used); the blocking terms
 *   of (4.9) and the first-to-free 1/m are unchanged.  H is the hold the
 *   VC is busy for: S counts the worm's hop and drain cycles at the zero-
 *   load pace, and shared flit by flit with the other worms of its path
 *   they take s times as long, s the drain stretch of the ejection
 *   service (CV6; since CV19 the Duato tori's own, (h)); the
 *   routing decisions and the waits send nothing and are not stretched.  So the occupancy is m_c H
 *   (Little, the mean hold) and the blocked wait of (e) is the residual
 *   of H.  The closing step (V_avg from hold_tx) is unchanged.
 *   Rejected (CV11): the loss form (Erlang B for P_d), optimistic;
 *   H = s S (the waits stretched too, no reason to).
 *   (g) Source wait (CV12), in place of (b)'s M/G/1: a queued
 *   message waits only for one of the node's V injection VCs (sim/engine.c
 *   step 3); the injection channel's flit-by-flit sharing is already in
 *   the stretch s.  An injection VC is held like a channel's VC with the
 *   whole path ahead (model__torus_hold_source, over messages):
 *   H_src = 1 + C_src (s + Dr + b) + s drain_src + out_src W_qd, b the
 *   blocking per counted hop, and the wait is the M/G/c one,
 *   Erlang C(V, lam H_src) resid / (V - lam H_src), resid the rest of the
 *   hold in progress as in (e) (model__duato_source_wait; hcube-pcube's
 *   C6 is the same form).  The probe's source waits at 80% load are
 *   0.03-5.7 cycles where (b) gave 2.1-44.
 *   (h) The worm's stretch s (docs/models/corrected.md, CV19;
 *   model__duato_worm_stretch), used in (f)'s H, (g)'s H_src and as the
 *   ejection service s len of W_qd, in place of CV6's
 *   model__torus_worm_stretch (which torus-det keeps).  Two changes at a
 *   ring's stage, the injection stage unchanged.  The distinct
 *   competitors: on a ring two worms' segments of h hops at independent
 *   positions overlap by h - |offset|, so a competitor met on one of our
 *   links shares h^2 / (2h - 1) of them, and the h per-link stalls are
 *   worth 2 - 1/h distinct competitors (CV14, the same count as
 *   torus2d-adaptive-meanflow's (e)); interleaving with one costs once
 *   (CV6).  The cap: a ring's channel is shared by at most V - 1
 *   worms, its V - 2 adaptive VCs and the escape VC of the class its
 *   worms ride; the other class's escape VC is rarely busy at the same
 *   time (probed on the 16x16, V = 3 at 0.0035: P(3 busy) 0.001 while
 *   P(2 busy) is 0.067; Poisson counts of the same mean, 0.476, give 0.011
 *   for 3), so the PS stall is model_ps_stall(rho_c, V - 1).  Against the probe's ejection
 *   hold per message over Lm at 80% load, s is now within -6% to +5% on
 *   the V = 3 set-ups and the V = 5 8x8x8 example, still 17-26% low on the
 *   V = 5, 6 2-D tori (1.89-2.17 against 2.28-2.94) and 8-10% low on the
 *   V = 6 5-cubes: the simulated stretch grows with V at equal load
 *   (16x16: 1.62 -> 2.11 for V = 3 -> 8), the model's only through the
 *   cap (1.52 -> 1.62).  Tried and rejected (CV19): the cap at V.
 */
#include <math.h>
#include <stdio.h>

#include "torus_common.h"

typedef struct m6_ctx {
    double mc;       /* m_c, messages/cycle per channel */
    double base;     /* d_avg (1 + Dr) + Lm + W_qd */
    double kavg, davg, cd;
    double pa, pd;   /* filled per map evaluation */
    int vcs;
    int worm;        /* corrected: the unknown is the VC holding time */
    double dr, wqd;
    model_hold hold;
    double s0, var0;  /* corrected: zero-load hold's mean and variance */
    double sw;        /* corrected: the worm's stretch ((h)) */
} m6_ctx;

/* corrected ((f), torus2d_duato.c header): the hold a VC is busy for.  S
 * counts the worm's own hop and drain cycles at the zero-load pace; shared
 * flit by flit with the other worms of its channels they take s times as
 * long (the same stretch s as the ejection service, (h)).
 * The routing decisions and the waits (blocking, ejection) send nothing and
 * are not stretched. */
static double occ_hold(const m6_ctx *c, double S)
{
    return S + (c->sw - 1) * (c->hold.coef[0] + c->hold.drain);
}

/* corrected: a blocked header waits the rest of the hold in progress of
 * the stretched hold ((e), (f)). */
static double wait_hold(const m6_ctx *c, double S)
{
    /* corrected (header, (e)): a header that meets a busy VC waits the
     * rest of the hold in progress (model__hold_residual) */
    return model__hold_residual(occ_hold(c, S), c->s0, c->var0);
}

static int m6_covers(const net_design *d, const net_workload *w, char *why,
                     size_t why_size)
{
    if (model__torus_covers(d, w, NET_TORUS, NET_ROUTE_DUATO,
                            NET_TRAFFIC_UNIFORM, why, why_size))
        return -1;
    if (d->n != 2) {
        snprintf(why, why_size,
                 "the blocking analysis of eq.(4.6) is for n = 2, not %d "
                 "(use torus-duato)",
                 d->n);
        return -1;
    }
    return model__torus_uniform(d, why, why_size);
}

static double m6_kavg(const net_design *d, const model_opts *o)
{
    return model__ring_kavg(d->k[0], o->variant);
}

static double m6_zero_load(const net_design *d, const net_workload *w,
                           const model_opts *opts)
{
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    return 2 * m6_kavg(d, o) * (1 + d->router_delay) + net_message_flits(d, w);
}

/* Pblk(h), h = hops still to make (eq.4.9). */
static double m6_pblk(double h, void *vctx)
{
    const m6_ctx *c = vctx;
    /* corrected: a blocked header takes the first of the VCs it may use
     * to free (header comment, "first to free"): with both dimensions
     * left, the V - 2 adaptive VCs of each and its escape VC; with one,
     * that dimension's adaptive VCs and its escape VC */
    double m2 = 1, m1 = 1;
    if (c->worm) {
        m2 = 2.0 * (c->vcs - 2) + 1;
        m1 = (c->vcs - 2) + 1.0;
    }
    if (h > c->kavg)
        return c->pa * c->pd / m2;
    double pc = clamp01(2.0 / (h + 1.0));
    return (1 - pc) * c->pa * c->pd / m2 + pc * c->pd / m1;
}

/* The chain at holding time L and the blocking combinatorics (B1, B4). */
static model_status m6_chain(m6_ctx *c, double L, double *p)
{
    if (c->worm) {
        /* corrected ((f)): the channel's two tiers, not B1 (p is unused
         * by the corrected closing step) */
        for (int v = 0; v <= c->vcs; v++)
            p[v] = 0;
        return model__duato_tiers(c->mc, occ_hold(c, L), c->vcs, &c->pa,
                                  &c->pd);
    }
    model_status st = vc_chain_probs(c->mc, L, c->vcs, p);
    if (st != MODEL_CONVERGED)
        return st;
    int V = c->vcs;
    c->pa = clamp01(p[V] + 2 * p[V - 1] / V + p[V - 2] / binom(V, 2));
    c->pd = clamp01(p[V] + c->cd * p[V - 1] / V);
    return MODEL_CONVERGED;
}

/* x[0] = L. */
static model_status m6_map(void *vctx, const double *x, double *fx)
{
    m6_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    model_status st = m6_chain(c, x[0], p);
    if (st != MODEL_CONVERGED)
        return st;
    double blocking = frac_sum(c->davg, m6_pblk, c);
    if (c->worm) {
        /* x[0] = S: a counted hop pays its mean blocking, a blocked header
         * waits one holding time of the VC it wants */
        const model_hold *h = &c->hold;
        double pbar = c->davg > 0 ? blocking / c->davg : 0;
        fx[0] = 1 +
                h->coef[0] * (1 + c->dr + pbar * wait_hold(c, x[0])) +
                h->drain + h->out * c->wqd;
        return MODEL_CONVERGED;
    }
    fx[0] = c->base + blocking * x[0];
    return MODEL_CONVERGED;
}

/* corrected ((g), torus2d_duato.c header): the wait for one of the node's
 * V injection VCs.  An injection VC is held like a channel's VC with the
 * whole path ahead (model__torus_hold_source): H_src = 1 + C_src (s + Dr
 * + blocking per hop) + s drain_src + out_src W_qd, the wait the M/G/c
 * one of its residual (as (e)). */
static model_status source_wait(const m6_ctx *c, const net_design *d,
                                const net_workload *w, double rate,
                                double L, double *ws)
{
    double per_hop = c->davg > 0 ? (L - c->base) / c->davg : 0;
    return model__duato_source_wait_path(d, w, rate, per_hop, c->sw, c->wqd,
                                         ws);
}

static int m6_eval(const net_design *d, const net_workload *w, double rate,
                   const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_NOCONVERGE, 0);
    double lm = net_message_flits(d, w), wqd;
    /* corrected ((h), torus2d_duato.c): the Duato tori's stretch, the
     * ejection service s len */
    double sw;
    if (model__duato_ejection(d, w, rate, o->variant, &sw, &wqd) !=
        MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    m6_ctx c;
    c.vcs = d->vcs;
    c.kavg = m6_kavg(d, o);
    c.davg = 2 * c.kavg;
    c.mc = rate * c.davg / 4.0;
    c.cd = o->variant == MODEL_VARIANT_PRINTED ? 2.0 : 1.0;
    c.base = c.davg * (1 + d->router_delay) + lm + wqd;
    double idle = c.davg * d->router_delay + wqd;   /* corrected: not stretched */

    c.worm = o->variant == MODEL_VARIANT_CORRECTED;
    c.dr = d->router_delay;
    c.wqd = wqd;
    if (c.worm)
        model__torus_hold_any(d, w, &c.hold);
    c.s0 = c.var0 = 0;
    c.sw = sw;
    if (c.worm) {
        c.s0 = 1 + c.hold.coef[0] * (1 + c.dr) + c.hold.drain;
        c.var0 = fmax(0.0, c.hold.m2 - c.s0 * c.s0);
    }

    double x = c.worm ? 1 + c.hold.coef[0] * (1 + c.dr) + c.hold.drain
                      : c.base;
    int iters = 0;
    model_status st = model_solve(m6_map, &c, &x, 1, o, &iters);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iters);

    double p[MODEL_TORUS_VMAX + 1];
    if (m6_chain(&c, x, p) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    double L = x, hold_tx = x - idle;
    if (c.worm) {
        double blocking = frac_sum(c.davg, m6_pblk, &c);
        double wait = wait_hold(&c, x);
        L = c.base + blocking * wait;
        hold_tx = 1 + c.hold.coef[0] * (1 + blocking / c.davg * wait) +
                  c.hold.drain;
    }
    double ws = 0;
    if (c.worm && source_wait(&c, d, w, rate, L, &ws) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    return model__duato_close(out, d, w, rate, c.mc, L, idle, hold_tx, ws, p,
                              o->variant, iters);
}

/* Fig.4.2a: N = 256 (16 x 16), V = 3, Lm = 32 (one-bit channels carrying
 * 32-bit messages), Dr = 0, exponential lengths, one ejection channel. */
static void m6_example(net_design *d, net_workload *w)
{
    net_design_init(d);
    d->topology = NET_TORUS;
    net_design_set_radix(d, 2, 16);
    d->vcs = 3;
    d->width = 1;
    d->routing = NET_ROUTE_DUATO;
    d->router_delay = 0;
    d->ejection_channels = 1;
    net_workload_init(w);
    w->message_bits = 32;
    w->length = NET_LENGTH_EXPONENTIAL;
    w->traffic = NET_TRAFFIC_UNIFORM;
}

const model model_torus2d_duato = {
    .name = "torus2d-duato",
    .source = "[M6] Loucif 1999, ch.4, sec.4.2.1, eqs.(4.1)-(4.10); "
              "docs/models/kary-ncube.md",
    .summary = "2D k x k torus, Duato adaptive wormhole (V >= 3, 2 escape "
               "VCs), uniform traffic, any Dr, single or multiple ejection",
    .covers = m6_covers,
    .eval = m6_eval,
    .zero_load = m6_zero_load,
    .example = m6_example,
};
