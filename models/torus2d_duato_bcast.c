/*
 * torus2d_duato_bcast.c — M10 `torus2d-duato-bcast`: unicast latency in a
 * Duato-routed wormhole 2D torus (k x k, all-port nodes) carrying a
 * fraction beta of broadcasts, which travel the optimal spanning tree of
 * Bose et al. as one-hop copies re-injected through each tree node's
 * local queue.  Also an estimate of the broadcast completion latency.
 *
 * Source: 004_daba32e44876fcd6.txt (Shahrabi, Ould-Khaoua, Mackenzie, SAC
 * 2002), section 2, eqs.(1)-(31); MODELS.md M10, B1, B2, B3, B4, B6.
 *
 * Equations (per unit lam, lam_x = lam * c_x):
 *   kbar = k/4 (k even), (k - 1/k)/4 (k odd);  dbar = 2 kbar          (5)
 *   N_r = {2k, k^2-3k, 2, k-3} nodes replicating 0..3 times           (2)
 *   c_u = (1-beta) dbar / 4;  c_b = beta                               (7),(8)
 *   c_r = (omega/4) beta (k^2-2k-1), omega = (k^2-5)/(k^2-1)  [printed] (3),(9)-(11)
 *       = beta (k^2-5)/4                                 [recommended]
 *   lam_c = lam (c_u + c_b + c_r)                                      (4)
 *   unknowns Su (unicast network latency), Sb (one-hop copy):
 *   S  = ((c_b + c_r) Sb + c_u Su) / (c_u + c_b + c_r)                 (21)
 *   Wc = W_DG(lam_c, S, M)                                              (18)-(23)
 *   P  = B1(lam_c, S, V); P_a, P_d as M6 (c_d 1 [rec.] / 2 [printed])   (15),(16),(29),(30)
 *   Pb(j) = P_a P_d (j <= kbar), else (1-P_c) P_a P_d + P_c P_d,
 *           P_c = min(1, 2/(dbar - j + 2)), j = 1..dbar (B6)            (13),(17)
 *   Su = M + dbar + sum_j Pb(j) Wc                                      (12),(14)
 *   Sb = M + P[V] Wc [printed];  M + 1 + P[V] Wc [recommended]          (24),(25)
 *   lam_s = lam ((1-beta)/4 + beta + c_r)                               (26)
 *   S_s = ((s_b + s_r) Sb + s_u Su)/(s_u + s_b + s_r), s_u = 1-beta,
 *         s_b = beta, s_r = beta (k^2-2k-1)   (raw rates, printed)      (27)
 *   W_s = W_DG(lam_s, S_s, M);  Vbar = Vbar(P)                          (28),(31)
 *   L_u = (Su + W_s) Vbar                                               (1)
 *
 * Resolutions (MODELS.md M10 section 4):
 *   1. Broadcast channel load: omega averages copies over all k^2-1 nodes
 *      while lam_sr counts only replicating ones, undercounting the copies
 *      by (k^2-2k-1)/(k^2-1); a broadcast crosses exactly k^2-1 channels,
 *      so [recommended] c_b + c_r = beta (k^2-1)/4; [printed] behind
 *      opts->variant.  The same choice feeds lam_s (26).
 *   2. c_d: see B4 / torus2d_duato.c.
 *   3. (24) gives a one-hop copy no cycle for its hop: +1 [recommended].
 *   4. (27) weights by raw generation rates: printed, kept in both variants.
 *   5. Delta (start-up latency) appears in no equation and net_workload has
 *      no field for it: Delta = 0, which reproduces the paper.
 *   6. OCR: (5) 1/kbar is 1/k; in (13) the ranges are kbar and
 *      (dbar - j + 2); (30)'s normalising sum runs to V [fix].
 *   7. The blocking wait is the M/G/1 channel wait Wc (not L as in M6):
 *      the two torus Duato models differ here on purpose.
 *   8. kbar: seed 004 itself prints the exact odd-k form, so both variants
 *      use it (unlike M6, whose printed k/4 comes from 002 eq.4.1).
 * Extensions beyond the paper (which has Dr = 0, immediate consumption,
 * fixed lengths), chosen so that the paper's set-up is reproduced exactly:
 *   - Router delay: every hop costs 1 + Dr (002 eq.2.6): Su gets dbar Dr,
 *     Sb gets Dr.
 *   - Ejection: ejection_channels == 0 is the paper (no wait).  With c >= 1
 *     channels, a node ejects its unicasts (1-beta) lam plus one copy of
 *     every other node's broadcast, beta lam (N-1); each channel is an
 *     M/D/1 queue (fixed lengths, as the paper) at 1/c of that rate, and
 *     its wait W_qd is added to Su and Sb (the header holds its VCs while
 *     it waits, as W_qd in 002 eq.2.6).
 *   - Exponential lengths are evaluated with the same (fixed-length)
 *     equations; the Draper-Ghosh variance then understates the service
 *     variance.
 * Broadcast completion latency (model_result.broadcast_latency): a tree
 * node stores the whole copy in its local queue before forwarding (seed
 * 004 section 2), so a broadcast reaches the deepest tree node after D
 * store-and-forward stages, D = 2 floor(k/2) (the depth of a shortest-path
 * spanning tree of the k x k torus, its diameter), each a port-queue wait
 * W_s plus a one-hop copy Sb, scaled by Vbar as L_u is:
 *   T_bcast = D (W_s + Sb) Vbar
 * It uses mean stage times along one deepest path and ignores the maximum
 * over the k^2-1 tree paths, so under load it is an optimistic estimate of
 * the mean completion time (exact at zero load: D (M + 1 + Dr)).
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; model_int.h
 * "corrected variant", docs/validation/notes.md findings 0-2 and 6).  The
 * recommended equations above, with the terms M6's corrected variant
 * re-derives (torus2d_duato.c), adapted to M10's two message classes and
 * to what the simulator does with broadcasts (sim/bcast.c: unicasts enter
 * through the node's one unicast injection channel, the copies through
 * one injection channel per output port):
 *   (a) Routing delay.  Blocking (P, P_a, P_d, Wc) keeps the full mean
 *       holding time S; the multiplexing degree uses the transmitting one,
 *       the same S with the routing decisions out:
 *         S' = w_u (Su - dbar Dr) + w_b (Sb - Dr),  Vbar = Vbar(B1(lam_c, S', V))
 *       and the closing step stretches only Su - dbar Dr.
 *   (b) Unicast source wait: the unicasts of a node share ONE injection
 *       channel (MODELS.md section 3 item 7), M/G/1 at the unicast rate
 *       (1 - beta) lam: W_s = (1-beta) lam E[L^2] / (2 (1 - (1-beta) lam M)),
 *       not stretched (finding 2).  The per-port queues of (26)-(28),
 *       which mix unicasts and copies, are the paper's node, not the
 *       simulated one.
 *   (c) Ejection (c >= 1 channels; c = 0 is the paper's immediate
 *       consumption and stays W_qd = 0): one message at a time, held until
 *       the tail is consumed, an M/G/1 queue whose service is the message
 *       length (model_ejection_mg1; model_int.h says why not the length
 *       stretched by Vbar) at the node's whole ejection rate
 *       (1 - beta) lam + beta lam (N - 1) over c channels, instead of
 *       M/D/1.  W_qd enters Su and Sb where the recommended one does,
 *       hence blocking; but a worm waiting to eject sends nothing, so,
 *       like Dr, it is left out of the transmitting occupancy and is not
 *       stretched.
 *   L_u = W_s + (Su - idle) Vbar + idle, idle = dbar Dr + W_qd
 *   (model_result_corrected); the transmitting occupancy is
 *   w_u (Su - dbar Dr - W_qd) + w_b (Sb - Dr - W_qd).
 *   Broadcast part: each of the D store-and-forward stages is a wait in a
 *   port injection queue, one channel fed by the copies of that port,
 *   lam_p = beta lam (N - 1) / 4 on average (a broadcast makes N - 1
 *   copies, spread over the N nodes' 4 ports), W_p its M/G/1 wait, then a
 *   one-hop copy whose transmission is stretched and whose routing
 *   decision is not:
 *     T_bcast = D (W_p + (Sb - Dr) Vbar + Dr)
 *   still a mean along one deepest path (the same optimistic estimate as
 *   above; exact at zero load).  Saturated when lam_p M >= 1.
 */
#include <math.h>
#include <stdio.h>

#include "torus_common.h"

typedef struct bc_ctx {
    double lam_c;            /* channel rate */
    double wu, wb;           /* S weights: c_u and c_b + c_r (normalised) */
    double m;                /* M, flits */
    double kbar, dbar, cd;
    double hop;              /* cycles a one-hop copy pays for its hop */
    double su_base;          /* M + dbar (1 + Dr) + W_qd */
    double wqd;
    int vcs;
    double pa, pd, pv, wc;   /* per map evaluation */
    /* corrected variant */
    int corrected;
    const net_design *d;
    double dr, route;        /* Dr, dbar Dr */
    double m2;               /* E[L^2] */
} bc_ctx;

static int bc_covers(const net_design *d, const net_workload *w, char *why,
                     size_t why_size)
{
    if (model__torus_covers(d, w, NET_TORUS, NET_ROUTE_DUATO,
                            NET_TRAFFIC_BROADCAST, why, why_size))
        return -1;
    if (d->n != 2) {
        snprintf(why, why_size,
                 "the broadcast-tree counts of eq.(2) are for the 2D torus, "
                 "not n = %d",
                 d->n);
        return -1;
    }
    return model__torus_uniform(d, why, why_size);
}

static double bc_zero_load(const net_design *d, const net_workload *w,
                           const model_opts *opts)
{
    return 2 * model__ring_kavg(d->k[0], MODEL_VARIANT_RECOMMENDED) *
               (1 + d->router_delay) +
           net_message_flits(d, w);
}

/* c_r per unit lam (eq.11 or its conservative correction). */
static double bc_replicated(double k, double beta, model_variant v)
{
    if (v == MODEL_VARIANT_PRINTED) {
        double omega = (k * k - 5) / (k * k - 1);
        return omega / 4.0 * beta * (k * k - 2 * k - 1);
    }
    return beta * (k * k - 5) / 4.0;
}

static double bc_pb(double j, void *vctx)
{
    const bc_ctx *c = vctx;
    if (j <= c->kbar)
        return c->pa * c->pd;
    double pc = clamp01(2.0 / (c->dbar - j + 2.0));
    return (1 - pc) * c->pa * c->pd + pc * c->pd;
}

/* S, Wc and the chain for (Su, Sb); p receives P[0..V]. */
static model_status bc_channel(bc_ctx *c, double su, double sb, double *p)
{
    double s = c->wu * su + c->wb * sb;
    model_status st = wait_mg1_dg(c->lam_c, s, c->m, &c->wc);
    if (st != MODEL_CONVERGED)
        return st;
    st = vc_chain_probs(c->lam_c, s, c->vcs, p);
    if (st != MODEL_CONVERGED)
        return st;
    int V = c->vcs;
    c->pv = p[V];
    c->pa = clamp01(p[V] + 2 * p[V - 1] / V + p[V - 2] / binom(V, 2));
    c->pd = clamp01(p[V] + c->cd * p[V - 1] / V);
    return MODEL_CONVERGED;
}

/* Corrected variant: Vbar of the transmitting occupancy, without the
 * routing decisions and the wait for the ejection channel, during which a
 * worm holds its VCs but sends nothing. */
static model_status bc_vbar_tx(const bc_ctx *c, double su, double sb,
                               double *vbar)
{
    double s = c->wu * (su - c->route - c->wqd) +
               c->wb * (sb - c->dr - c->wqd);
    return vc_mux_degree(c->lam_c, s, c->vcs, vbar);
}

/* x = (Su, Sb). */
static model_status bc_map(void *vctx, const double *x, double *fx)
{
    bc_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    model_status st = bc_channel(c, x[0], x[1], p);
    if (st != MODEL_CONVERGED)
        return st;
    fx[0] = c->su_base + frac_sum(c->dbar, bc_pb, c) * c->wc;
    fx[1] = c->m + c->hop + c->pv * c->wc + c->wqd;
    return MODEL_CONVERGED;
}

/* The corrected closing step (header comment): unicast latency and the
 * broadcast completion estimate from the solved (Su, Sb). */
static int bc_close_corrected(const bc_ctx *c, double rate, double beta,
                              double su, double sb, int iters,
                              model_result *out)
{
    double vbar, wp;
    double nodes = (double)net_nodes(c->d);
    double lam_p = rate * beta * (nodes - 1) / 4.0;
    if (bc_vbar_tx(c, su, sb, &vbar) != MODEL_CONVERGED ||
        wait_mg1_pk(lam_p, c->m, c->m2, &wp) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    int rc = model_result_corrected(out, (1 - beta) * rate, c->vcs, c->m,
                                    c->m2, su, c->route + c->wqd, vbar,
                                    iters);
    if (rc == 0) {
        double depth = 2 * (c->d->k[0] / 2);
        out->broadcast_latency =
            depth * (wp + (sb - c->dr - c->wqd) * vbar + c->dr + c->wqd);
    }
    return rc;
}

static int bc_eval(const net_design *d, const net_workload *w, double rate,
                   const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_NOCONVERGE, 0);
    double k = d->k[0], beta = w->broadcast_fraction;
    double m = net_message_flits(d, w), dr = d->router_delay;
    bc_ctx c;
    c.vcs = d->vcs;
    c.m = m;
    c.kbar = model__ring_kavg(d->k[0], MODEL_VARIANT_RECOMMENDED);
    c.dbar = 2 * c.kbar;
    c.cd = o->variant == MODEL_VARIANT_PRINTED ? 2.0 : 1.0;
    c.hop = o->variant == MODEL_VARIANT_PRINTED ? dr : 1 + dr;

    double cu = (1 - beta) * c.dbar / 4.0, cb = beta;
    double cr = bc_replicated(k, beta, o->variant);
    double csum = cu + cb + cr;
    c.lam_c = rate * csum;
    c.wu = cu / csum;
    c.wb = (cb + cr) / csum;

    c.corrected = o->variant == MODEL_VARIANT_CORRECTED;
    c.d = d;
    c.dr = dr;
    c.route = c.dbar * dr;
    c.m2 = model_length_m2(d, w);
    c.wqd = 0;
    /* the node's whole ejection rate: its unicasts and a copy of every
     * other node's broadcasts */
    double lam_e = rate * ((1 - beta) + beta * ((double)net_nodes(d) - 1));
    if (c.corrected) {
        if (model_ejection_mg1(d, lam_e, m, c.m2, &c.wqd) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 0);
    } else if (d->ejection_channels > 0 &&
               wait_md1(lam_e / d->ejection_channels, m, &c.wqd) !=
                   MODEL_CONVERGED) {
        return model_result_fail(out, MODEL_SATURATED, 0);
    }
    c.su_base = m + c.dbar * (1 + dr) + c.wqd;

    /* Su, Sb, both at zero load */
    double x[2] = {c.su_base, m + c.hop + c.wqd};
    int iters = 0;
    model_status st = model_solve(bc_map, &c, x, 2, o, &iters);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iters);
    double su = x[0], sb = x[1];
    double p[MODEL_TORUS_VMAX + 1];
    if (c.corrected) {
        double fx[2];   /* Wc at the solution */
        if (bc_map(&c, x, fx) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iters);
        return bc_close_corrected(&c, rate, beta, su, sb, iters, out);
    }
    if (bc_channel(&c, su, sb, p) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    double vbar = vc_multiplexing(p, d->vcs);

    /* Source: one injection queue per output port (26)-(28). */
    double lam_s = rate * ((1 - beta) / 4.0 + beta + cr);
    double s_u = 1 - beta, s_b = beta, s_r = beta * (k * k - 2 * k - 1);
    double s_s = (s_u * su + (s_b + s_r) * sb) / (s_u + s_b + s_r);
    double ws;
    if (wait_mg1_dg(lam_s, s_s, m, &ws) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);

    int rc = model_result_ok(out, (su + ws) * vbar, su, ws, vbar, iters);
    if (rc == 0) {
        double depth = 2 * (d->k[0] / 2);
        out->broadcast_latency = depth * (ws + sb) * vbar;
    }
    return rc;
}

/* Figure 1 of seed 004: 8 x 8 torus, V = 3, M = 32 flits (fixed), beta =
 * 0.02, no router delay, immediate consumption at the destination. */
static void bc_example(net_design *d, net_workload *w)
{
    net_design_init(d);
    d->topology = NET_TORUS;
    net_design_set_radix(d, 2, 8);
    d->vcs = 3;
    d->width = 1;
    d->routing = NET_ROUTE_DUATO;
    d->router_delay = 0;
    d->ejection_channels = 0;
    net_workload_init(w);
    w->message_bits = 32;
    w->length = NET_LENGTH_FIXED;
    w->traffic = NET_TRAFFIC_BROADCAST;
    w->broadcast_fraction = 0.02;
}

const model model_torus2d_duato_bcast = {
    .name = "torus2d-duato-bcast",
    .source = "004 (Shahrabi et al., SAC 2002) sec.2, eqs.(1)-(31); "
              "MODELS.md M10",
    .summary = "2D k x k torus, Duato adaptive wormhole (V >= 3), uniform "
               "unicast plus broadcast fraction beta; unicast latency and a "
               "broadcast completion estimate",
    .covers = bc_covers,
    .eval = bc_eval,
    .zero_load = bc_zero_load,
    .example = bc_example,
};
