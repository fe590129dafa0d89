/*
 * torus_duato.c — `torus-duato`: Duato fully adaptive wormhole routing in
 * the bidirectional k-ary n-cube, any n >= 1 (same radix k in every
 * dimension).  The generalisation of M6 (torus2d-duato) to n dimensions.
 *
 * Source: [L99], chapter 4, section 4.2.1, eqs.(4.1)-
 * (4.10) (the 2D model), chapter 2 eq.(2.7) (blocking with h dimensions
 * left in the DCSH), docs/models/kary-ncube.md, "M6 as printed"; the
 * n-dimensional step is ours and is
 * derived in docs/models/kary-ncube.md ("torus-duato").
 *
 * What changes from M6: the thesis gives P_c (the probability that one
 * dimension is left) only for n = 2.  For any n we need P(r | h), the
 * probability that r dimensions are still to be crossed when h hops
 * remain.  Same counting argument as the thesis: the average message makes
 * K = k_avg hops in every dimension; with h hops left the remaining hops
 * (r_1..r_n), sum h, 0 <= r_i <= floor(K), are equally likely; r is the
 * number of non-zero r_i:
 *     P(r | h) = C(n, r) A+(r, h) / A(n, h)
 * with A(n, h) the number of compositions of h into n parts in [0, floor K]
 * and A+(r, h) the number into r parts in [1, floor K] (torus_common.c).
 * For n = 2 this is exactly the thesis's P_c = 2/(h+1) for h <= K and 0
 * for h > K.  A blocked header needs every adaptive VC of the r remaining
 * dimensions and the escape VC of the lowest one busy (as eq.2.7 of the
 * DCSH model, with P_d for the escape class of the torus):
 *     Pblk(r) = P_a^(r-1) P_d,     r = 1: P_d;  r = 2: P_a P_d (eq.4.9)
 * The blocking sum sum_h sum_r P(r | h) Pblk(r) = sum_r w_r P_a^(r-1) P_d
 * with load-independent weights w_r = sum_h P(r | h) (B6 over h), so one
 * map evaluation costs O(n), not O(n d_avg).
 *
 * Everything else is M6: m_c = lam d_avg / (2n) (4.3), P_a and P_d (4.7),
 * (4.8), L = d_avg (1 + Dr) + Lm + sum B_h + W_qd (4.4), B_h = Pblk L
 * (4.5), Latency = ((lam/V) L^2 + L) Vbar(P) (4.10).  The resolutions of
 * M6 apply unchanged (see torus2d_duato.c): c_d = 1 [recommended] or 2
 * [printed]; odd k uses (k - 1/k)/4 [recommended] or k/4 [printed]; B6
 * for a fractional d_avg; W_qd = 0 with ejection_channels == 0.
 * At n = 2 the model reproduces torus2d-duato (tests/test_models_torus.c
 * checks 1e-9 agreement over a grid of rates, in every variant).
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED): exactly
 * M6's (torus2d_duato.c header, with the derivations; model_int.h), the
 * general-n blocking sum unchanged:
 *   (a) blocking keeps the chain at the full holding time L; the
 *       multiplexing degree uses the transmitting one,
 *       V_avg = Vbar(B1(m_c, L - d_avg Dr, V)), and only L - d_avg Dr is
 *       stretched (a deciding header holds its VC but sends nothing;
 *       docs/models/corrected.md, CV1, which traced the reported
 *       +33% of the 8x8x8 Dr = 2 example to Dr x Vbar);
 *   (b) W_s = M/G/1 wait of the node's one injection channel,
 *       lam E[L^2] / (2 (1 - lam Lm)), unstretched (CV2);
 *   (c) Ejection: the one ejection channel takes one message at a time and
 *       holds it until the tail is consumed (docs/models/semantics.md, item
 *       10,
 *       what the thesis simulated): an M/G/1 queue at lam / c whose service
 *       is the message length, W_qd = lam E[L^2] / (2 (1 - lam Lm)) per
 *       channel (model_ejection_mg1; model_int.h says why the length and
 *       not the length stretched by V_avg), instead of (2.11)'s lam Lm^2.
 *       W_qd enters L where (2.11) does, hence the holding times and blocking; but a
 *       worm waiting to eject sends nothing, so, like Dr, it is left out
 *       of the transmitting occupancy and is not stretched.
 *   Latency = W_s + (L - idle) V_avg + idle, idle = d_avg Dr + W_qd, and
 *   V_avg = Vbar(B1(m_c, L - idle, V)); exact zero load.
 *   Worm holding time (corrected, torus2d_duato.c (d);
 *   docs/models/corrected.md, "The worm's holding time"): the unknown is
 *   the mean VC holding time S over channel visits,
 *   S = 1 + C (1 + Dr + Pbar S) + drain + out W_qd with
 *   Pbar = sum_r w_r P_a^(r-1) P_d / D; L = D (1 + Dr) + Lm + W_qd +
 *   (sum_r w_r P_a^(r-1) P_d) S; V_avg from 1 + C (1 + Pbar S) + drain.
 *   The first-to-free wait (1/m, m = r (V - 2) + 1) and the rest of the
 *   hold in progress, (S^2 + var0 + (S - s0)^2) / (2 S) in place of S in
 *   the blocked wait, as torus2d_duato.c (e) (CV7).
 *   The channel's two tiers (torus2d_duato.c (f), CV11): P_a and P_d
 *   from an M/M/c queue with c = (V - 2) + 1 (adaptive VCs first, then the
 *   one escape VC of the class), P_d = Erlang C, P_a = P_d + (1 - P_d)
 *   B(V - 2, a), a = m_c H, H = S + (s - 1) (C + drain) the stretched
 *   hold; the blocked wait is the residual of H.  With r dimensions left a
 *   header is blocked when the r - 1 channels off its escape path have
 *   every adaptive VC busy and its escape channel is full: P_a^(r-1) P_d,
 *   the same form as before.
 *   Source wait (torus2d_duato.c (g), CV12): the M/G/c wait for one
 *   of the V injection VCs, each held like a channel's VC with the whole
 *   path ahead, in place of (b)'s M/G/1.
 *   The worm's stretch s (torus2d_duato.c (h), CV19;
 *   model__duato_worm_stretch): each ring's stall counted 2 - 1/h times
 *   (the distinct competitors along h hops, CV14; 1.25 on a 4-ring,
 *   1.56 on an 8-ring) and capped at the V - 1 worms that share a ring's
 *   channel (V - 2 adaptive VCs, one escape VC), in H, H_src and the
 *   ejection service.  torus-det keeps CV6's count.
 */
#include <math.h>
#include <stdio.h>

#include "torus_common.h"

typedef struct td_ctx {
    double mc, base, cd;
    double wr[NET_MAX_DIMS + 1];   /* w_r, r = 0..n */
    int vcs, n;
    double pa, pd;
    int worm;        /* corrected: the unknown is the VC holding time */
    double dr, wqd, davg;
    model_hold hold;
    double s0, var0;  /* corrected: zero-load hold's mean and variance */
    double sw;        /* corrected: the worm's stretch (torus2d_duato.c (h)) */
} td_ctx;

/* corrected ((f), torus2d_duato.c header): the hold a VC is busy for.  S
 * counts the worm's own hop and drain cycles at the zero-load pace; shared
 * flit by flit with the other worms of its channels they take s times as
 * long (the same stretch s as the ejection service, torus2d_duato.c (h)).
 * The routing decisions and the waits (blocking, ejection) send nothing and
 * are not stretched. */
static double occ_hold(const td_ctx *c, double S)
{
    return S + (c->sw - 1) * (c->hold.coef[0] + c->hold.drain);
}

/* corrected: a blocked header waits the rest of the hold in progress of
 * the stretched hold ((e), (f)). */
static double wait_hold(const td_ctx *c, double S)
{
    /* corrected (header, (e)): a header that meets a busy VC waits the
     * rest of the hold in progress (model__hold_residual) */
    return model__hold_residual(occ_hold(c, S), c->s0, c->var0);
}

static int td_covers(const net_design *d, const net_workload *w, char *why,
                     size_t why_size)
{
    if (model__torus_covers(d, w, NET_TORUS, NET_ROUTE_DUATO,
                            NET_TRAFFIC_UNIFORM, why, why_size))
        return -1;
    return model__torus_uniform(d, why, why_size);
}

static double td_zero_load(const net_design *d, const net_workload *w,
                           const model_opts *opts)
{
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    return d->n * model__ring_kavg(d->k[0], o->variant) *
               (1 + d->router_delay) +
           net_message_flits(d, w);
}

static model_status td_chain(td_ctx *c, double L, double *p)
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

/* The blocked header's wait, as a fraction of one holding time: 1 in the
 * sources (it waits for its escape VC); corrected, 1 / m for the m VCs it
 * may take with r dimensions left (torus2d_duato.c, m6_first_free). */
static double td_first_free(const td_ctx *c, int r)
{
    return c->worm ? 1.0 / (r * (c->vcs - 2) + 1.0) : 1.0;
}

/* x[0] = L. */
static model_status td_map(void *vctx, const double *x, double *fx)
{
    td_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    model_status st = td_chain(c, x[0], p);
    if (st != MODEL_CONVERGED)
        return st;
    double blocking = 0, pa_power = 1;
    for (int r = 1; r <= c->n; r++) {
        blocking += c->wr[r] * pa_power * c->pd * td_first_free(c, r);
        pa_power *= c->pa;
    }
    if (c->worm) {
        /* x[0] = S (torus2d_duato.c, m6_map) */
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

static double td_blocking(const td_ctx *c)
{
    double blocking = 0, pa_power = 1;
    for (int r = 1; r <= c->n; r++) {
        blocking += c->wr[r] * pa_power * c->pd * td_first_free(c, r);
        pa_power *= c->pa;
    }
    return blocking;
}

/* corrected ((g), torus2d_duato.c header): the wait for one of the node's
 * V injection VCs.  An injection VC is held like a channel's VC with the
 * whole path ahead (model__torus_hold_source): H_src = 1 + C_src (s + Dr
 * + blocking per hop) + s drain_src + out_src W_qd, the wait the M/G/c
 * one of its residual (as (e)). */
static model_status source_wait(const td_ctx *c, const net_design *d,
                                const net_workload *w, double rate,
                                double L, double *ws)
{
    double per_hop = c->davg > 0 ? (L - c->base) / c->davg : 0;
    return model__duato_source_wait_path(d, w, rate, per_hop, c->sw, c->wqd,
                                         ws);
}

static int td_eval(const net_design *d, const net_workload *w, double rate,
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
    td_ctx c;
    double kavg = model__ring_kavg(d->k[0], o->variant);
    double davg = d->n * kavg;
    c.vcs = d->vcs;
    c.n = d->n;
    c.mc = rate * davg / (2.0 * d->n);
    c.cd = o->variant == MODEL_VARIANT_PRINTED ? 2.0 : 1.0;
    c.base = davg * (1 + d->router_delay) + lm + wqd;
    model__torus_dims_weights(d->n, kavg, c.wr);
    double idle = davg * d->router_delay + wqd;   /* corrected: not stretched */

    c.worm = o->variant == MODEL_VARIANT_CORRECTED;
    c.dr = d->router_delay;
    c.wqd = wqd;
    c.davg = davg;
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
    model_status st = model_solve(td_map, &c, &x, 1, o, &iters);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iters);
    double p[MODEL_TORUS_VMAX + 1];
    if (td_chain(&c, x, p) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    double L = x, hold_tx = x - idle;
    if (c.worm) {
        double blocking = td_blocking(&c);
        double wait = wait_hold(&c, x);
        L = c.base + blocking * wait;
        hold_tx = 1 + c.hold.coef[0] * (1 + blocking / davg * wait) +
                  c.hold.drain;
    }
    double ws = 0;
    if (c.worm && source_wait(&c, d, w, rate, L, &ws) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    return model__duato_close(out, d, w, rate, c.mc, L, idle, hold_tx, ws, p,
                              o->variant, iters);
}

/* The thesis validates only 2D tori, where torus2d-duato takes priority.
 * The example takes the parameters of Fig.4.3b (V = 5, Lm = 16, Dr = 2,
 * exponential lengths, one ejection channel) onto an 8 x 8 x 8 torus
 * (N = 512), so that the general-n counting is exercised; it is not a
 * set-up the thesis simulated. */
static void td_example(net_design *d, net_workload *w)
{
    net_design_init(d);
    d->topology = NET_TORUS;
    net_design_set_radix(d, 3, 8);
    d->vcs = 5;
    d->width = 1;
    d->routing = NET_ROUTE_DUATO;
    d->router_delay = 2;
    d->ejection_channels = 1;
    net_workload_init(w);
    w->message_bits = 16;
    w->length = NET_LENGTH_EXPONENTIAL;
    w->traffic = NET_TRAFFIC_UNIFORM;
}

const model model_torus_duato = {
    .name = "torus-duato",
    .source = "[M6] Loucif 1999, ch.4, eqs.(4.1)-(4.10), generalised to any "
              "n; docs/models/kary-ncube.md",
    .summary = "k-ary n-cube (any n, equal radices), Duato adaptive wormhole "
               "(V >= 3), uniform traffic, any Dr",
    .covers = td_covers,
    .eval = td_eval,
    .zero_load = td_zero_load,
    .example = td_example,
};
