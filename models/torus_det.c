/*
 * torus_det.c — `torus-det`: dimension-order (deterministic) wormhole
 * routing in the bidirectional k-ary n-cube with V virtual channels per
 * channel, any n >= 1 and any radix per dimension (k_0 x k_1 x ...).
 *
 * Source: derived (docs/models.md, "torus-det") from the deterministic
 * model of the DCSH, 002_b244e369b49c40b8.txt section 3.2.2, eqs.(3.3)-
 * (3.13) (MODELS.md M5): the same backward flow analysis over the
 * dimensions crossed in increasing order, the same blocking rule (a header
 * is blocked when all V VCs of the channel it needs are busy, P[V] of the
 * B1 chain, and then waits one VC holding time, the "T^b" of eq.3.7), the
 * same source wait (2.13) and multiplexing factor (3.10)-(3.11).  What the
 * torus adds is several hops per dimension: a dimension is a chain of
 * channels, all with the same per-hop blocking B_i (M7's "express-cube
 * without interchanges" view of a dimension).
 *
 * Probabilities (exact for the simulator's traffic: destination uniform
 * over the other N-1 nodes).  p_i = 1/k_i is the probability that the
 * destination's coordinate i equals the source's.  Coordinates are
 * independent under "uniform over all N nodes"; excluding the source only
 * conditions on "some dimension differs", so
 *   f_i  = (1 - p_i) prod_{l<i} p_l / (1 - 1/N)   first dimension crossed = i
 *   c_ij = (1 - p_j) prod_{i<l<j} p_l             next dimension after i = j
 *   q_i  = prod_{l>i} p_l                         no dimension after i
 * Hop counts along ring i (torus_common.c, exact):
 *   h_i  = E[hops in dim i | dim i crossed],  K_i = (1 - p_i) h_i
 *   g_i  = mean hops still to make in dim i after a channel of dim i
 * Channel rate (2 channels per node per dimension, E[hops in dim i] =
 * K_i N/(N-1) per message):  lam_i = lam K_i N / (2 (N-1)).
 *
 * Unknowns: B_i, the mean blocking delay per hop in dimension i.
 *   R_{n-1} = W_qd + Lm;  R_i = q_i (W_qd + Lm) + sum_{j>i} c_ij E_j
 *   E_j = h_j (1 + Dr + B_j) + R_j        (enter dim j until consumed)
 *   S_i = 1 + g_i (1 + Dr + B_i) + R_i    (mean VC holding time in dim i)
 *   P_i = B1(lam_i, S_i, V);  B_i <- P_i[V] S_i
 *   L   = sum_i f_i E_i
 *   V_avg = sum_i K_i Vbar(P_i) / sum_i K_i  (channel-visit weighted; the
 *           plain mean of (3.11) when the radices are equal)
 *   W_qs = (lam/V) L^2 (2.13, printed);  Latency = (W_qs + L) V_avg
 * Zero load (B = 0, lam -> 0): L = (1 + Dr) net_avg_distance(d) + Lm
 * exactly — net_avg_distance, the mean over the other N-1 nodes, the
 * simulator's destination rule; NOT the seeds' n k/4 that includes the
 * source (that convention is kept by the Duato models, whose sources use
 * it).  Each hop pays Dr + 1 (002 eq.2.6), the tail Lm once.
 *
 * Resolutions / choices: W_qd = lam Lm^2 per ejection channel (2.11,
 * printed), 0 with ejection_channels == 0; W_qs printed without
 * 1/(1-rho), saturation declared when lam_i S_i, lam Lm / c or (lam/V) L
 * reaches 1 (B7).  A header may take any of the V VCs (as M5 and M7):
 * the Dally-Seitz split of the VCs into dateline classes is not modelled.
 * There is no printed/recommended difference: both variants evaluate the
 * equations above.
 * Lengths: the formulas use the mean Lm only (exponential in the thesis's
 * DCSH model); fixed-length workloads are evaluated with the same
 * equations.  Buffer depth is not modelled (one-flit buffers).
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; model_int.h
 * "corrected variant", docs/validation/notes.md findings 0-2).  Three
 * terms are re-derived from the simulated semantics (MODELS.md section 3);
 * nothing is fitted:
 *   (a) Routing delay.  A header deciding its route for Dr cycles holds its
 *       VC but sends no flit, so the other VCs of the channel have it to
 *       themselves: Dr belongs in the occupancy that BLOCKS (P_i[V] keeps
 *       the full S_i above), not in the occupancy that SHARES the channel
 *       bandwidth.  The multiplexing degree is computed from the
 *       transmitting holding time, the same backward pass with Dr = 0 and
 *       the same blocking delays B_i:
 *         S'_i = 1 + g_i (1 + B_i) + R'_i,  R'_i, E'_j as above with Dr = 0
 *         V_avg = sum_i K_i Vbar(B1(lam_i, S'_i, V)) / sum_i K_i
 *       and only the non-routing part of L is stretched: route = L - L' =
 *       Dr x (mean hops) = Dr net_avg_distance(d) (L' = sum_i f_i E'_i;
 *       the difference is exactly Dr x hops because the pass is linear in
 *       Dr once the B_i are fixed).
 *   (b) Source wait: the node's messages share ONE injection channel
 *       (section 3 item 7), an M/G/1 queue: W_s = lam E[L^2] / (2 (1 -
 *       lam Lm)) (Pollaczek-Khinchine, E[L^2] = model_length_m2), not
 *       stretched by V_avg (a waiting message transmits nothing).
 *   (c) Ejection: the one ejection channel takes one message at a time and
 *       holds it until the tail is consumed (MODELS.md section 3 item 10,
 *       what the thesis simulated): an M/G/1 queue at lam / c whose service
 *       is the message length, W_qd = lam E[L^2] / (2 (1 - lam Lm)) per
 *       channel (model_ejection_mg1; model_int.h says why the length and
 *       not the length stretched by V_avg), instead of (2.11)'s lam Lm^2.
 *       W_qd enters where the printed one does, R = q (W_qd + Lm), hence the holding times and blocking; but a
 *       worm waiting to eject sends nothing, so, like Dr, it is left out
 *       of the transmitting occupancy and is not stretched.
 *   Latency = W_s + (L - idle) V_avg + idle, idle = L - L' = Dr x hops +
 *   W_qd (model_result_corrected).
 *   (d) The worm's holding time (docs/models.md "The worm's holding
 *       time"; model__torus_hold).  S_i above is the seeds' "remaining
 *       latency": every hop left, W_qd and Lm.  A VC is held until the
 *       worm's tail leaves it: until the header has crossed span = len / b
 *       more channels, or, with r < span hops left, reached the
 *       destination, waited W_qd and drained the len - b r flits behind
 *       it.  So, over the channel visits of dimension i,
 *         S_i = 1 + sum_{j>=i} coef_ij (1 + Dr + B_j) + drain_i
 *               + out_i W_qd
 *       (coef_ij = mean hops of dimension j among those the worm still
 *       spans, drain_i = E[(len - b r)+], out_i = P(len > b r)), in P_i,
 *       in B_i = P_i[V] S_i and, with Dr = 0 and no W_qd, in the
 *       transmitting pass.  The blocking of hops the tail has already left
 *       no longer compounds into the occupancy: on the wide-channel tori
 *       of a bisection-limited study (Lm = 16, 16 hops) the seeds' S_i
 *       counted every one of them.
 *   At rate -> 0: B = 0, V_avg = 1, W_qd = W_s = 0, so the zero-load
 *   latency is unchanged (exact).
 */
#include <math.h>
#include <stdio.h>

#include "torus_common.h"

typedef struct tdet_ctx {
    int n, vcs;
    double lm_wqd, dr;
    double h[NET_MAX_DIMS], g[NET_MAX_DIMS], kbar[NET_MAX_DIMS];
    double lam[NET_MAX_DIMS], f[NET_MAX_DIMS], q[NET_MAX_DIMS];
    double c[NET_MAX_DIMS][NET_MAX_DIMS];
    double e[NET_MAX_DIMS], s[NET_MAX_DIMS];   /* per map evaluation */
    double lm;       /* the tail without W_qd (transmitting pass) */
    int worm;        /* corrected: VC holding time of the worm (hold[]) */
    model_hold hold[NET_MAX_DIMS];
} tdet_ctx;

static int tdet_covers(const net_design *d, const net_workload *w, char *why,
                       size_t why_size)
{
    return model__torus_covers(d, w, NET_TORUS, NET_ROUTE_DETERMINISTIC,
                               NET_TRAFFIC_UNIFORM, why, why_size);
}

static double tdet_zero_load(const net_design *d, const net_workload *w,
                             const model_opts *opts)
{
    return net_avg_distance(d) * (1 + d->router_delay) +
           net_message_flits(d, w);
}

/* E_i and S_i for blocking delays b (backward over the dimensions), with
 * dr cycles per routing decision (c->dr, or 0 for the corrected variant's
 * transmitting occupancy). */
static void tdet_pass(tdet_ctx *c, const double *b, int transmitting)
{
    /* Transmitting pass (corrected variant): the same blocking delays, but
     * neither the routing decisions nor the wait for the ejection channel,
     * during which the worm holds its VCs and sends nothing. */
    double dr = transmitting ? 0 : c->dr;
    double tail = transmitting ? c->lm : c->lm_wqd;
    for (int i = c->n - 1; i >= 0; i--) {
        double r = c->q[i] * tail;
        for (int j = i + 1; j < c->n; j++)
            r += c->c[i][j] * c->e[j];
        c->e[i] = c->h[i] * (1 + dr + b[i]) + r;
        c->s[i] = 1 + c->g[i] * (1 + dr + b[i]) + r;
        if (c->worm) {
            /* held until the tail leaves (model__torus_hold) */
            const model_hold *h = &c->hold[i];
            double s = 1 + h->drain + h->out * (tail - c->lm);
            for (int j = i; j < c->n; j++)
                s += h->coef[j] * (1 + dr + b[j]);
            c->s[i] = s;
        }
    }
}

/* Channel-visit weighted V_avg over the holding times c->s. */
static model_status tdet_vavg(const tdet_ctx *c, double *vavg)
{
    double p[MODEL_TORUS_VMAX + 1], vnum = 0, vden = 0;
    for (int i = 0; i < c->n; i++) {
        if (vc_chain_probs(c->lam[i], c->s[i], c->vcs, p) != MODEL_CONVERGED)
            return MODEL_SATURATED;
        vnum += c->kbar[i] * vc_multiplexing(p, c->vcs);
        vden += c->kbar[i];
    }
    *vavg = vden > 0 ? vnum / vden : 1.0;
    return MODEL_CONVERGED;
}

/* x[0..n-1] = B_i. */
static model_status tdet_map(void *vctx, const double *x, double *fx)
{
    tdet_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    tdet_pass(c, x, 0);
    for (int i = 0; i < c->n; i++) {
        model_status st = vc_chain_probs(c->lam[i], c->s[i], c->vcs, p);
        if (st != MODEL_CONVERGED)
            return st;
        fx[i] = p[c->vcs] * c->s[i];
    }
    return MODEL_CONVERGED;
}

static void tdet_setup(tdet_ctx *c, const net_design *d, double rate,
                       double lm, double wqd)
{
    double nodes = (double)net_nodes(d);
    double excl = nodes / (nodes - 1.0);
    c->n = d->n;
    c->vcs = d->vcs;
    c->dr = d->router_delay;
    c->lm_wqd = lm + wqd;
    c->lm = lm;
    double before = 1;   /* prod_{l<i} p_l */
    for (int i = 0; i < c->n; i++) {
        double ps = 1.0 / d->k[i];
        model__ring_moments(d->k[i], &c->h[i], &c->g[i]);
        c->kbar[i] = (1 - ps) * c->h[i];
        c->lam[i] = rate * c->kbar[i] * excl / 2.0;
        c->f[i] = (1 - ps) * before * excl;
        before *= ps;
    }
    for (int i = 0; i < c->n; i++) {
        double skip = 1;  /* prod_{i<l<j} p_l */
        for (int j = i + 1; j < c->n; j++) {
            double ps = 1.0 / d->k[j];
            c->c[i][j] = (1 - ps) * skip;
            skip *= ps;
        }
        c->q[i] = skip;
    }
}

static double tdet_latency(const tdet_ctx *c)
{
    double L = 0;
    for (int i = 0; i < c->n; i++)
        L += c->f[i] * c->e[i];
    return L;
}

/* Both variants solve the same unknowns B_i; corrected (header comment)
 * differs in W_qd and then takes V_avg from the transmitting pass. */
static int tdet_eval(const net_design *d, const net_workload *w, double rate,
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
    if (model__torus_ejection(d, w, rate, o->variant, &wqd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    tdet_ctx c;
    tdet_setup(&c, d, rate, lm, wqd);
    c.worm = o->variant == MODEL_VARIANT_CORRECTED;
    if (c.worm)
        for (int i = 0; i < c.n; i++)
            model__torus_hold(d, w, i, &c.hold[i]);

    double b[NET_MAX_DIMS] = {0};
    int iters = 0;
    model_status st = model_solve(tdet_map, &c, b, c.n, o, &iters);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iters);

    tdet_pass(&c, b, 0);
    double L = tdet_latency(&c), vavg;
    if (o->variant != MODEL_VARIANT_CORRECTED) {
        if (tdet_vavg(&c, &vavg) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iters);
        return model_result_thesis(out, rate, d->vcs, L, 1.0, vavg, iters);
    }
    tdet_pass(&c, b, 1);
    double L_tx = tdet_latency(&c);
    if (tdet_vavg(&c, &vavg) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    return model_result_corrected(out, rate, d->vcs, lm,
                                  model_length_m2(d, w), L, L - L_tx, vavg,
                                  iters);
}

/* No seed validates this derived model; the example is the chapter 4
 * validation set-up (N = 256, 16 x 16, Lm = 32, Dr = 0, exponential
 * lengths, one ejection channel) with dimension-order routing on V = 2
 * (the Dally-Seitz minimum), so it can be compared with torus2d-duato. */
static void tdet_example(net_design *d, net_workload *w)
{
    net_design_init(d);
    d->topology = NET_TORUS;
    net_design_set_radix(d, 2, 16);
    d->vcs = 2;
    d->width = 1;
    d->routing = NET_ROUTE_DETERMINISTIC;
    d->router_delay = 0;
    d->ejection_channels = 1;
    net_workload_init(w);
    w->message_bits = 32;
    w->length = NET_LENGTH_EXPONENTIAL;
    w->traffic = NET_TRAFFIC_UNIFORM;
}

const model model_torus_det = {
    .name = "torus-det",
    .source = "derived from 002 (Loucif thesis) sec.3.2.2 eqs.(3.3)-(3.13) "
              "(MODELS.md M5) for the k-ary n-cube; docs/models.md",
    .summary = "k-ary n-cube (any n, per-dimension radix), dimension-order "
               "wormhole with V >= 2 VCs, uniform traffic, any Dr",
    .covers = tdet_covers,
    .eval = tdet_eval,
    .zero_load = tdet_zero_load,
    .example = tdet_example,
};
