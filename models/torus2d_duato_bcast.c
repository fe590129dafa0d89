/*
 * torus2d_duato_bcast.c — M10 `torus2d-duato-bcast`: unicast latency in a
 * Duato-routed wormhole 2D torus (k x k, all-port nodes) carrying a
 * fraction beta of broadcasts, which travel the optimal spanning tree of
 * Bose et al. as one-hop copies re-injected through each tree node's
 * local queue.  Also an estimate of the broadcast completion latency.
 *
 * Source: [SOM02] (Shahrabi, Ould-Khaoua, Mackenzie, SAC
 * 2002), section 2, eqs.(1)-(31); docs/models/kary-ncube.md, "M10 as
 * printed", B1, B2, B3, B4, B6.
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
 *   Wc = W_DG(lam_c, S, M)
 *   (18)-(23)
 *   P  = B1(lam_c, S, V); P_a, P_d as M6 (c_d 1 [rec.] / 2 [printed])
 *   (15),(16),(29),(30)
 *   Pb(j) = P_a P_d (j <= kbar), else (1-P_c) P_a P_d + P_c P_d,
 *           P_c = min(1, 2/(dbar - j + 2)), j = 1..dbar (B6)
 *           (13),(17)
 *   Su = M + dbar + sum_j Pb(j) Wc
 *   (12),(14)
 *   Sb = M + P[V] Wc [printed];  M + 1 + P[V] Wc [recommended]
 *   (24),(25)
 *   lam_s = lam ((1-beta)/4 + beta + c_r)                               (26)
 *   S_s = ((s_b + s_r) Sb + s_u Su)/(s_u + s_b + s_r), s_u = 1-beta,
 *         s_b = beta, s_r = beta (k^2-2k-1)   (raw rates, printed)      (27)
 *   W_s = W_DG(lam_s, S_s, M);  Vbar = Vbar(P)
 *   (28),(31)
 *   L_u = (Su + W_s) Vbar                                               (1)
 *
 * Resolutions (docs/models/kary-ncube.md, "M10 as printed", resolutions):
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
 *   8. kbar: [SOM02] itself prints the exact odd-k form, so both variants
 *      use it (unlike M6, whose printed k/4 comes from [L99] eq.4.1).
 * Extensions beyond the paper (which has Dr = 0, immediate consumption,
 * fixed lengths), chosen so that the paper's set-up is reproduced exactly:
 *   - Router delay: every hop costs 1 + Dr ([L99] eq.2.6): Su gets dbar Dr,
 *     Sb gets Dr.
 *   - Ejection: ejection_channels == 0 is the paper (no wait).  With c >= 1
 *     channels, a node ejects its unicasts (1-beta) lam plus one copy of
 *     every other node's broadcast, beta lam (N-1); each channel is an
 *     M/D/1 queue (fixed lengths, as the paper) at 1/c of that rate, and
 *     its wait W_qd is added to Su and Sb (the header holds its VCs while
 *     it waits, as W_qd in [L99] eq.2.6).
 *   - Exponential lengths are evaluated with the same (fixed-length)
 *     equations; the Draper-Ghosh variance then understates the service
 *     variance.
 * Broadcast completion latency (model_result.broadcast_latency): a tree
 * node stores the whole copy in its local queue before forwarding ([SOM02]
 * section 2), so a broadcast reaches the deepest tree node after D
 * store-and-forward stages, D = 2 floor(k/2) (the depth of a shortest-path
 * spanning tree of the k x k torus, its diameter), each a port-queue wait
 * W_s plus a one-hop copy Sb, scaled by Vbar as L_u is:
 *   T_bcast = D (W_s + Sb) Vbar
 * It uses mean stage times along one deepest path and ignores the maximum
 * over the k^2-1 tree paths, so under load it is an optimistic estimate of
 * the mean completion time (exact at zero load: D (M + 1 + Dr)).
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; model_int.h
 * "corrected variant", docs/models/corrected.md, CV1-CV3, CV5,
 * CV6, CV8 and CV10).  Re-derived from what the
 * simulator does with broadcasts (sim/bcast.c, sim/engine.c phase 3), with
 * M6's corrected terms (torus2d_duato.c) where they apply; no constant
 * fitted:
 *   (a) Routing delay and ejection wait hold VCs but send nothing: idle =
 *       dbar Dr + W_qd is not stretched (CV1).
 *   (b) Unicast source wait: the unicasts share ONE injection channel
 *       (the copies have their own, one per output port): M/G/1 at
 *       (1 - beta) lam, not stretched (CV2).
 *   (c) Ejection (c >= 1): M/G/1 at the node's whole ejection rate
 *       (1 - beta) lam + beta lam (N - 1) over c channels, the length as
 *       service (model_ejection_mg1); c = 0 is immediate consumption.
 *   (d) The tree's channel loads, per dimension.  The simulated tree
 *       sends, per broadcast, k - 1 copies along dimension 0 (the source's
 *       row) and k (k - 1) along dimension 1 (every column), so a channel
 *       of dimension i carries c_b[i] lam copies, c_b[0] = beta (k - 1)/2,
 *       c_b[1] = beta k (k - 1)/2 (sum over a node's 4 channels beta
 *       (k^2 - 1), as eq.(3) counts).  Dimension 1 carries k times
 *       dimension 0: at k = 16, beta = 0.04, 4.8 lam against 0.3 lam, the
 *       paper's average 2.55 lam.  Each dimension has its own chain,
 *       P_i = B1(lam (c_u + c_b[i]), Sbar_i, V), Sbar_i the rate-weighted
 *       VC holding time of unicasts (S_u) and copies (S_b).
 *   (e) The worm's holding time (CV5, model__torus_hold_any): the
 *       unicast's unknown is its VC holding time over channel visits,
 *       S_u = 1 + C (1 + Dr + Bbar) + drain + out W_qd, Bbar the mean
 *       blocking delay per hop; a copy is one hop to a node that ejects it
 *       at once (c = 0) or after W_qd: S_b = 1 + M + W_qd.  A copy's own
 *       blocking happens before it holds a network VC.
 *   (f) First to free (CV6, CV8): a blocked unicast header leaves on
 *       whichever candidate VC frees first.  With both dimensions left it
 *       is blocked with the adaptive VCs of both channels and the escape
 *       VC of dimension 0 busy (P_a[1] P_d[0], the thesis's combinatorics
 *       per dimension) and waits 1 / ((V - 1)/Sbar_0 + (V - 2)/Sbar_1)
 *       (memoryless residuals); with one dimension left (P_c, either
 *       dimension, 1/2 each) P_d[i] and Sbar_i / (V - 1).  This replaces
 *       the M/G/1 channel wait Wc of (18) (resolution 7).
 *   (g) Saturation follows from the dimension-1 chain: no port of the
 *       paper's per-port source queues (26)-(28) exists in the simulator.
 *   (h) The worm's stretch (CV6, model_worm_stretch), in place of
 *       the mean multiplexing degree.  With one-flit buffers a unicast
 *       worm longer than its path streams through all its channels at
 *       once and a stall at any of them holds every flit behind it, so the
 *       stalls of the stages add.  A torus dimension is one stage for the
 *       unicasts that share it (they mostly share the next channel too),
 *       stall model_ps_stall(rho_i, V), rho_i = lam (c_u + c_b[i]) M; but a
 *       copy is a one-hop worm, so every further channel of the dimension
 *       meets different copies: (hops_i - 1) more stages of stall
 *       model_ps_stall(lam c_b[i] M, V).  Plus the unicast injection
 *       channel; s = (1 + sqrt(1 + 4 stalls)) / 2 (the competitors are
 *       stretched too).  At k = 16, M = 64 the copies on the 3 further
 *       dimension-1 hops are half the stalls: the recommended Vbar (one
 *       channel's mean) missed them, -7.5% already at 5% load.
 *   L = dbar (1 + Dr) + M + W_qd + sum_h Pblk(h) wait(h);
 *   latency = W_s + (L - idle) s + idle (model_result_corrected).
 *   Broadcast part: a deepest tree path has floor(k/2) stages on
 *   dimension 0, then floor(k/2) on dimension 1; each is an M/G/1 wait in
 *   its port's injection queue at lam c_b[i] (the copies leaving by that
 *   port), Dr, the copy header's wait P_i[V] Sbar_i / V (the first of V
 *   to free) and the copy's hop (1 + M) Vbar_i (one stage, its channel's
 *   multiplexing degree from the transmitting occupancy), plus W_qd:
 *     T_bcast = floor(k/2) sum_i (W_p,i + Dr + P_i[V] Sbar_i / V
 *                                 + (1 + M) Vbar_i + W_qd)
 *   still a mean along one path, exact at zero load (D (M + 1 + Dr)).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

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
    /* corrected variant (and the ejection wait) */
    const net_design *d;
    double dr, route;        /* Dr, dbar Dr */
    double m2;               /* E[L^2] */
    /* corrected variant: per-dimension channels (x = dim 0, y = dim 1) */
    double rate, cu, cbd[2]; /* per unit lam: unicast, copies per channel */
    double sb;               /* a copy's VC holding time, 1 + M + W_qd */
    double sbar[2], pad[2], pdd[2];
    model_hold hold;
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

/* Corrected variant: the chain of dimension i's channels at the unicast
 * holding time su (header comment, (d)-(g)). */
static model_status bc_dim_chain(bc_ctx *c, int i, double su, double sb,
                                 double *p)
{
    double lu = c->rate * c->cu, lb = c->rate * c->cbd[i];
    double lam = lu + lb;
    c->sbar[i] = lam > 0 ? (lu * su + lb * sb) / lam : su;
    model_status st = vc_chain_probs(lam, c->sbar[i], c->vcs, p);
    if (st != MODEL_CONVERGED)
        return st;
    int V = c->vcs;
    c->pad[i] = clamp01(p[V] + 2 * p[V - 1] / V + p[V - 2] / binom(V, 2));
    c->pdd[i] = clamp01(p[V] + c->cd * p[V - 1] / V);
    return MODEL_CONVERGED;
}

/* Corrected: blocking delay of a unicast header with h hops left. */
static double bc_pb_dims(double h, void *vctx)
{
    const bc_ctx *c = vctx;
    double V = c->vcs;
    /* both dimensions left: the adaptive VCs of both channels and the
     * escape VC of dimension 0 (the lowest left); the first of them to
     * free, each freeing at the rate 1 / Sbar of its channel */
    double both = c->pad[1] * c->pdd[0] /
                  ((V - 1) / c->sbar[0] + (V - 2) / c->sbar[1]);
    if (h > c->kbar)
        return both;
    double pc = clamp01(2.0 / (h + 1.0));
    double one = 0.5 * (c->pdd[0] * c->sbar[0] + c->pdd[1] * c->sbar[1]) /
                 (V - 1);
    return (1 - pc) * both + pc * one;
}

/* Corrected map, x[0] = the unicast's VC holding time S_u. */
static model_status bc_map_corr(void *vctx, const double *x, double *fx)
{
    bc_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    for (int i = 0; i < 2; i++) {
        model_status st = bc_dim_chain(c, i, x[0], c->sb, p);
        if (st != MODEL_CONVERGED)
            return st;
    }
    double blocking = frac_sum(c->dbar, bc_pb_dims, c);
    double pbar = c->dbar > 0 ? blocking / c->dbar : 0;
    fx[0] = 1 + c->hold.coef[0] * (1 + c->dr + pbar) + c->hold.drain +
            c->hold.out * c->wqd;
    return MODEL_CONVERGED;
}

static int bc_eval_corrected(const net_design *d, const net_workload *w,
                             double rate, const model_opts *o,
                             model_result *out)
{
    double k = d->k[0], beta = w->broadcast_fraction;
    double nodes = (double)net_nodes(d);
    bc_ctx c;
    memset(&c, 0, sizeof c);
    c.d = d;
    c.vcs = d->vcs;
    c.m = net_message_flits(d, w);
    c.m2 = model_length_m2(d, w);
    c.kbar = model__ring_kavg(d->k[0], MODEL_VARIANT_RECOMMENDED);
    c.dbar = 2 * c.kbar;
    c.cd = 1.0;
    c.dr = d->router_delay;
    c.route = c.dbar * c.dr;
    c.rate = rate;
    c.cu = (1 - beta) * c.dbar / 4.0;
    /* the simulator's tree (sim/bcast.c): per broadcast k - 1 copies on
     * dimension 0 (the source's row) and k (k - 1) on dimension 1 (every
     * column), each over 2 N channels of its dimension */
    c.cbd[0] = beta * (k - 1) / 2.0;
    c.cbd[1] = beta * k * (k - 1) / 2.0;
    double lam_e = rate * ((1 - beta) + beta * (nodes - 1));
    if (model_ejection_mg1(d, lam_e, c.m, c.m2, &c.wqd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    c.sb = 1 + c.m + c.wqd;
    model__torus_hold_any(d, w, &c.hold);
    double x = 1 + c.hold.coef[0] * (1 + c.dr) + c.hold.drain +
               c.hold.out * c.wqd;
    int iters = 0;
    model_status st = model_solve(bc_map_corr, &c, &x, 1, o, &iters);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, iters);
    double fx, p[MODEL_TORUS_VMAX + 1];
    if (bc_map_corr(&c, &x, &fx) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    double blocking = frac_sum(c.dbar, bc_pb_dims, &c);
    double L = c.m + c.dbar * (1 + c.dr) + c.wqd + blocking;
    double idle = c.route + c.wqd;
    /* transmitting occupancy of each dimension's channels */
    double su_tx = 1 + c.hold.coef[0] * (1 + blocking / c.dbar) +
                   c.hold.drain;
    double vb[2];
    for (int i = 0; i < 2; i++) {
        double lu = rate * c.cu, lb = rate * c.cbd[i];
        double s = (c.cu * su_tx + c.cbd[i] * (1 + c.m)) / (c.cu + c.cbd[i]);
        if (vc_mux_degree(lu + lb, s, c.vcs, &vb[i]) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iters);
    }
    /* (h) the worm's stretch (header comment): the unicast's path in
     * dimension order, a segment per dimension, its stall the channel's
     * (unicasts and copies) plus one stage per further hop for the copies
     * alone; the source's unicast injection channel as the last stage */
    model_worm_path path;
    model__torus_worm_path(d, (1 - beta) * rate, &path);
    for (int i = 0; i < 2; i++) {
        double rho = rate * (c.cu + c.cbd[i]) * c.m;
        double extra = path.hops[i] > 1 ? path.hops[i] - 1 : 0;
        path.stall[i] = model_ps_stall(rho, c.vcs) +
                        extra * model_ps_stall(rate * c.cbd[i] * c.m, c.vcs);
    }
    double slowdown = model_worm_stretch(d, w, (1 - beta) * rate, &path);
    if (!isfinite(slowdown))
        return model_result_fail(out, MODEL_SATURATED, iters);
    int rc = model_result_corrected(out, (1 - beta) * rate, c.vcs, c.m,
                                    c.m2, L, idle, slowdown, iters);
    if (rc != 0)
        return rc;
    /* broadcast completion along a deepest tree path: floor(k/2) stages
     * on dimension 0, then floor(k/2) on dimension 1; each a wait in the
     * port's injection queue, then a one-hop copy */
    double t = 0;
    for (int i = 0; i < 2; i++) {
        double wp;
        if (wait_mg1_pk(rate * c.cbd[i], c.m, c.m2, &wp) != MODEL_CONVERGED ||
            bc_dim_chain(&c, i, x, c.sb, p) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iters);
        double hop = wp + c.dr + p[c.vcs] * c.sbar[i] / c.vcs +
                     (1 + c.m) * vb[i] + c.wqd;
        t += (double)(d->k[0] / 2) * hop;
    }
    out->broadcast_latency = t;
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
    if (o->variant == MODEL_VARIANT_CORRECTED)
        return bc_eval_corrected(d, w, rate, o, out);
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

    c.d = d;
    c.dr = dr;
    c.route = c.dbar * dr;
    c.m2 = model_length_m2(d, w);
    c.wqd = 0;
    /* the node's whole ejection rate: its unicasts and a copy of every
     * other node's broadcasts */
    double lam_e = rate * ((1 - beta) + beta * ((double)net_nodes(d) - 1));
    if (d->ejection_channels > 0 &&
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

/* Figure 1 of [SOM02]: 8 x 8 torus, V = 3, M = 32 flits (fixed), beta =
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
    .source = "[M10] Shahrabi et al. 2002, sec.2, eqs.(1)-(31); "
              "docs/models/kary-ncube.md",
    .summary = "2D k x k torus, Duato adaptive wormhole (V >= 3), uniform "
               "unicast plus broadcast fraction beta; unicast latency and a "
               "broadcast completion estimate",
    .covers = bc_covers,
    .eval = bc_eval,
    .zero_load = bc_zero_load,
    .example = bc_example,
};
