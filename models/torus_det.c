/*
 * torus_det.c — `torus-det`: dimension-order (deterministic) wormhole
 * routing in the bidirectional k-ary n-cube with V virtual channels per
 * channel, any n >= 1 and any radix per dimension (k_0 x k_1 x ...).
 *
 * Source: derived (docs/models/kary-ncube.md, "torus-det") from the deterministic
 * model of the DCSH, [L99] section 3.2.2, eqs.(3.3)-
 * (3.13) (docs/models/hypercube-dcsh.md, "M5 as printed"): the same backward
 * flow analysis over the
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
 * simulator's destination rule; NOT the sources' n k/4 that includes the
 * source (that convention is kept by the Duato models, whose sources use
 * it).  Each hop pays Dr + 1 ([L99] eq.2.6), the tail Lm once.
 *
 * Resolutions / choices: W_qd = lam Lm^2 per ejection channel (2.11,
 * printed), 0 with ejection_channels == 0; W_qs printed without
 * 1/(1-rho), saturation declared when lam_i S_i, lam Lm / c or (lam/V) L
 * reaches 1 (B7).  A header may take any of the V VCs (as M5 and M7):
 * the printed and recommended variants do not model the Dally-Seitz split
 * of the VCs into dateline classes; the corrected variant does ((e)).
 * There is no printed/recommended difference: both variants evaluate the
 * equations above.
 * Lengths: the formulas use the mean Lm only (exponential in the thesis's
 * DCSH model); fixed-length workloads are evaluated with the same
 * equations.  Buffer depth is not modelled (one-flit buffers).
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; model_int.h
 * "corrected variant", docs/models/corrected.md, CV1-CV3).  Three
 * terms are re-derived from the simulated semantics
 * (docs/models/semantics.md);
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
 *       holds it until the tail is consumed (docs/models/semantics.md, item
 *       10,
 *       what the thesis simulated): an M/G/1 queue at lam / c whose service
 *       is the message length, W_qd = lam E[L^2] / (2 (1 - lam Lm)) per
 *       channel (model_ejection_mg1; model_int.h says why the length and
 *       not the length stretched by V_avg), instead of (2.11)'s lam Lm^2.
 *       W_qd enters where the printed one does, R = q (W_qd + Lm), hence the holding times and blocking; but a
 *       worm waiting to eject sends nothing, so, like Dr, it is left out
 *       of the transmitting occupancy and is not stretched.
 *   Latency = W_s + (L - idle) V_avg + idle, idle = L - L' = Dr x hops +
 *   W_qd (model_result_corrected).
 *   (d) The worm's holding time (docs/models/corrected.md, "The
 *       worm's holding time"; model__torus_hold).  S_i above is the sources' "remaining
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
 *       of a bisection-limited study (Lm = 16, 16 hops) the sources' S_i
 *       counted every one of them.
 *   (e) Dateline classes (docs/models/corrected.md, CV6).  The
 *       simulator, like the thesis ([L99] section 4.2.1(g)), splits the V
 *       VCs of a torus channel into two classes (sim/topo_cube.c,
 *       sim/route_dor.c): class 0 the ceil(V/2) even-numbered VCs, class 1
 *       the floor(V/2) odd ones; a hop uses class 1 while the current
 *       coordinate is below the destination's.  So in the + direction a
 *       visit to channel p -> p+1 with r hops of the ring still to make
 *       (this one included) rides class 0 iff the wrap is ahead, r >= k -
 *       p, and in the - direction (p -> p-1) class 1 iff r >= p + 1.  The
 *       visits with r hops left come from the offsets x >= r: R - r + 1 of
 *       them per source, R = k/2 for + (the tie goes +) and (k-1)/2 for -.
 *       These loads are exact (checked by brute force over all pairs in
 *       tests/test_models_torus_hold.c); away from the wrap one class
 *       carries a channel's whole load, so with V = 2 most channels have
 *       ONE usable VC, not two.  Each (channel, class) gets its own B1
 *       chain with V_c VCs at its own rate, scaled so that the channels'
 *       mean is the pooled lam_i; the blocking probability of dimension i
 *       is the visit-weighted mean of P_c[V_c], and V_avg the flit-weighted
 *       Vbar of the sum of a channel's two independent class chains.
 *       Convoys: a header that continues along a ring follows the worms
 *       that held the previous channel before it; their tails leave the
 *       next channel about when they left the previous one, so what can
 *       block a continuing header is a worm that entered the ring at this
 *       channel, 1 / h_i of the occupants (each message crossing ring i
 *       enters it once in h_i visits).  A visit is an entry with
 *       probability 1 / h_i and then meets the class busy with P_c[V_c]:
 *         P(blocked) = P_c[V_c] (1/h_i + (1 - 1/h_i) / h_i).
 *       The convoy argument is exact for V_c = 1 (the follower waited for
 *       the leader's tail on the previous channel); with V_c >= 2 a
 *       parallel worm on another VC can still be ahead, so it understates
 *       the blocking there.  The pooled chain P[V] = rho^V with V = 2 hid
 *       both effects: it undercounts the usable VCs' occupancy (rho^2 for
 *       rho) and overcounts the hops at which a header can be blocked.
 *   (f) First to free (docs/models/corrected.md, CV8).  M5's blocked
 *       header waits one whole holding time (T^b of eq.3.7).  The
 *       simulator's header asks for the class's mask, not for one VC
 *       (sim/route_dor.c: mask_class[cls]), and is granted any free VC of
 *       it (sim/engine.c, route_pick_p2p), retrying until one frees.  With
 *       all V_c VCs of its class busy, their remaining holding times
 *       independent and memoryless with mean S_i (the assumption behind
 *       charging a whole S_i for one busy VC), the first of them frees
 *       after S_i / V_c.  So each class's term of the blocking delay is
 *       divided by its V_c:
 *         B_i = S_i conv_i sum_c l_c P_c[V_c] / V_c / sum_c l_c
 *       (conv_i the convoy factor above).  V = 2 (one VC per class) is
 *       unchanged; this is the rule the Duato tori already follow with
 *       their m candidate VCs (torus2d_duato.c, "first to free").
 *   (g) Per direction (docs/models/corrected.md, CV17).  A worm
 *       crosses a ring in ONE direction (sim/topo_cube.c torus_dor_hop:
 *       + for offsets up to k/2, the tie included, - beyond), and the two
 *       directions do not load their classes alike (sim/route_dor.c,
 *       mask_class; topo_cube.c torus_vc_class): in the + direction the
 *       visits that need not wrap ride class 1, floor(V/2) VCs, in the -
 *       direction class 0, ceil(V/2) VCs, and + carries the tie (on a
 *       32-ring 136 against 120 visits per source, 13% more).  With odd V
 *       the + direction is the weaker one (V = 3: one VC for most of its
 *       load against two for -), and the simulated network saturates on
 *       it; the average of (e)-(f) over both directions of a dimension
 *       hid that behind the lightly blocked - direction, in the blocking
 *       delay and, through it, in the holding time that compounds it.  So
 *       the unknowns are B_{i,e}, e = + or -, each from its own
 *       direction's class chains, convoy factor and holding time:
 *         S_{i,e} = 1 + sum_{j>=i} sum_e' coef_{i,e}[j][e'] (1 + Dr +
 *                   B_{j,e'}) + drain_{i,e} + out_{i,e} W_qd
 *       (model__torus_hold_dir: the hold of a visit in direction e, the
 *       counted hops split by the direction they are made in; the worm's
 *       own dimension only in e, the later ones in either with their
 *       probabilities), B_{i,e} = S_{i,e} conv_{i,e} sum_c l_c P_c[V_c] /
 *       V_c / sum_c l_c over the channels of direction e (conv with h_{i,e}
 *       = E[hops | crossed in direction e]), and the latency pass
 *         E_i = h_i (1 + Dr) + sum_e u_{i,e} B_{i,e} + R_i,
 *       u_{i,e} = E[hops made in direction e | i crossed] (model__ring_
 *       dirs; u_{i,+} + u_{i,-} = h_i).  V_avg takes each channel's
 *       chains at its direction's holding time.  The class loads, holds
 *       and hop counts are the exact ones split in two, not new
 *       quantities; nothing is fitted.  With even V the two directions
 *       still differ by the tie, so even V moves too (the + direction is
 *       the busier one): the 32x32 study design with V = 2 from 0.96 to
 *       0.93 of the simulated saturation rate.
 *   At rate -> 0: B = 0, V_avg = 1, W_qd = W_s = 0, so the zero-load
 *   latency is unchanged (exact).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "net/xalloc.h"
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
    /* corrected: the dateline classes (header comment, (e)), per direction
     * ((g)).  Channel types of dimension i in direction e (0 +, 1 -):
     * nt[i][e] of them, type t standing for cnt[t] channels whose class-0
     * and class-1 VCs are requested at l0[t] and l1[t] messages per cycle;
     * v0, v1 VCs per class.  dirs = 0: pooled chain (no types). */
    int dirs;
    int nt[NET_MAX_DIMS][2];
    double *cnt[NET_MAX_DIMS][2], *l0[NET_MAX_DIMS][2], *l1[NET_MAX_DIMS][2];
    int v0, v1;
    /* P_c[V_c] = (l S)^V_c: the visit-weighted blocking is
     * (S^v0 mom0 + S^v1 mom1) / visits, mom_c = sum cnt l_c^(V_c+1), so
     * each map evaluation is O(1) per (dimension, direction); lmax: the
     * busiest class, whose chain saturates first */
    double mom0[NET_MAX_DIMS][2], mom1[NET_MAX_DIMS][2];
    double visits[NET_MAX_DIMS][2], lmax[NET_MAX_DIMS][2];
    /* (g): u[i][e] = E[hops of dimension i made in direction e | i
     * crossed] (u[i][0] + u[i][1] = h[i]), hd[i][e] = E[hops | crossed in
     * direction e], the holds of a visit in direction e and the holding
     * times sd[i][e] of the current pass */
    double u[NET_MAX_DIMS][2], hd[NET_MAX_DIMS][2];
    model_hold_dir hold_dir[NET_MAX_DIMS][2];
    double sd[NET_MAX_DIMS][2];
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
    if (c->dirs) {
        /* (g): b[2 i + e] is the blocking delay per hop of dimension i in
         * direction e; a worm crosses a dimension in one direction, so a
         * visit's own-dimension hops pay its direction's delay, and the
         * later dimensions' hops each direction's with its probability */
        for (int i = c->n - 1; i >= 0; i--) {
            double r = c->q[i] * tail;
            for (int j = i + 1; j < c->n; j++)
                r += c->c[i][j] * c->e[j];
            c->e[i] = c->h[i] * (1 + dr) + c->u[i][0] * b[2 * i] +
                      c->u[i][1] * b[2 * i + 1] + r;
            for (int e = 0; e < 2; e++) {
                const model_hold_dir *h = &c->hold_dir[i][e];
                double sv = 1 + h->drain + h->out * (tail - c->lm);
                for (int j = i; j < c->n; j++)
                    sv += h->coef[j][0] * (1 + dr + b[2 * j]) +
                          h->coef[j][1] * (1 + dr + b[2 * j + 1]);
                c->sd[i][e] = sv;
            }
        }
        return;
    }
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

/* ---- dateline classes (corrected variant, header comment (e), (g)) ----- */

/* x^e for a small integer e >= 0 (pow() dominated the map's cost). */
static double ipow(double x, int e)
{
    double r = 1;
    while (e > 0) {
        if (e & 1)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

/* Append a channel type of dimension i, direction e, merged with the
 * previous one when its loads are the same (positions away from the wrap
 * link all look alike). */
static void class_add(tdet_ctx *c, int i, int e, double a0, double a1)
{
    int t = c->nt[i][e];
    if (t > 0 && c->l0[i][e][t - 1] == a0 && c->l1[i][e][t - 1] == a1) {
        c->cnt[i][e][t - 1] += 1;
        return;
    }
    c->cnt[i][e][t] = 1;
    c->l0[i][e][t] = a0;
    c->l1[i][e][t] = a1;
    c->nt[i][e] = t + 1;
}

/* The class loads of every channel of dimension i (model__ring_classes:
 * the + channels p -> p+1 first, then the - channels p -> p-1), scaled so
 * that their mean is c->lam[i] (the pooled model's channel rate), kept
 * per direction. */
static void class_setup(tdet_ctx *c, const net_design *d, int i)
{
    int k = d->k[i];
    /* one block per dimension: the types of +, then those of - */
    double *blk = xmalloc(6 * (size_t)k * sizeof(double));
    for (int e = 0; e < 2; e++) {
        c->cnt[i][e] = blk + 3 * (size_t)k * e;
        c->l0[i][e] = c->cnt[i][e] + k;
        c->l1[i][e] = c->cnt[i][e] + 2 * k;
        c->nt[i][e] = 0;
    }
    double *load = xmalloc(4 * (size_t)k * sizeof(double));
    model__ring_classes(k, load);
    double total = 0;
    for (int ch = 0; ch < 2 * k; ch++) {
        class_add(c, i, ch >= k, load[2 * ch], load[2 * ch + 1]);
        total += load[2 * ch] + load[2 * ch + 1];
    }
    free(load);
    double scale = total > 0 ? c->lam[i] * 2.0 * k / total : 0;
    for (int e = 0; e < 2; e++) {
        c->mom0[i][e] = c->mom1[i][e] = c->visits[i][e] = c->lmax[i][e] = 0;
        for (int t = 0; t < c->nt[i][e]; t++) {
            double a0 = c->l0[i][e][t] *= scale, a1 = c->l1[i][e][t] *= scale;
            double w = c->cnt[i][e][t];
            c->mom0[i][e] += w * a0 * ipow(a0, c->v0);
            c->mom1[i][e] += w * a1 * ipow(a1, c->v1);
            c->visits[i][e] += w * (a0 + a1);
            c->lmax[i][e] = fmax(c->lmax[i][e], fmax(a0, a1));
        }
    }
}

static void class_free(tdet_ctx *c)
{
    if (!c->dirs)
        return;
    for (int i = 0; i < c->n; i++)
        free(c->cnt[i][0]);   /* the block of both directions */
}

/* The blocking delay per hop of dimension i in direction e in units of
 * the holding time s of that direction's visits, averaged over them:
 * P(all V_c VCs of the class a visit requests are busy) = P_c[V_c] =
 * (l_c s)^V_c of each class chain (B1), weighted by its visits l_c, times
 * the wait for the first of those V_c VCs to free, s / V_c (header
 * comment, "first to free"). */
static model_status class_block(const tdet_ctx *c, int i, int e, double s,
                                double *pblock)
{
    *pblock = 0;
    if (!(c->visits[i][e] > 0))
        return MODEL_CONVERGED;   /* no visit goes this way (k = 2, -) */
    if (!(c->lmax[i][e] * s < 1) || !isfinite(s))
        return MODEL_SATURATED;
    double num = ipow(s, c->v0) * c->mom0[i][e] / c->v0;
    if (c->v1 > 0)
        num += ipow(s, c->v1) * c->mom1[i][e] / c->v1;
    /* Convoys (header comment (e)): a header entering the ring (1 / h of
     * the visits) meets the class VCs busy with probability P_c[V_c]; one
     * that continues along it is blocked only by a worm that entered the
     * ring at this channel (1 / h of the occupants): the worms it
     * followed through the previous channel are ahead of it.  h: the hops
     * of a worm crossing the ring this way ((g)). */
    double h = c->hd[i][e] > 1 ? c->hd[i][e] : 1;
    *pblock = num / c->visits[i][e] * (1.0 / h + (1.0 - 1.0 / h) / h);
    return MODEL_CONVERGED;
}

/* Vbar (B2) of the physical channels of dimension i, averaged over the
 * flits that cross them: the busy VCs of a channel are the sum of its two
 * independent class chains, fed with the holding time of its direction. */
static model_status class_vbar(const tdet_ctx *c, int i, double *vbar)
{
    double p0[MODEL_TORUS_VMAX + 1], p1[MODEL_TORUS_VMAX + 1];
    double num = 0, den = 0;
    for (int e = 0; e < 2; e++) {
        double s = c->sd[i][e];
        for (int t = 0; t < c->nt[i][e]; t++) {
            double l0 = c->l0[i][e][t], l1 = c->l1[i][e][t];
            double w = c->cnt[i][e][t] * (l0 + l1);
            if (!(w > 0))
                continue;
            if (vc_chain_probs(l0, s, c->v0, p0) != MODEL_CONVERGED ||
                vc_chain_probs(l1, s, c->v1, p1) != MODEL_CONVERGED)
                return MODEL_SATURATED;
            double m1 = 0, m2 = 0;   /* E[v], E[v^2] of v = v0 + v1 */
            for (int a = 0; a <= c->v0; a++)
                for (int b = 0; b <= c->v1; b++) {
                    double pr = p0[a] * p1[b], v = a + b;
                    m1 += v * pr;
                    m2 += v * v * pr;
                }
            num += w * (m1 > 0 ? m2 / m1 : 1.0);
            den += w;
        }
    }
    *vbar = den > 0 ? num / den : 1.0;
    return MODEL_CONVERGED;
}

/* Channel-visit weighted V_avg over the holding times of the last pass. */
static model_status tdet_vavg(const tdet_ctx *c, double *vavg)
{
    double p[MODEL_TORUS_VMAX + 1], vnum = 0, vden = 0;
    for (int i = 0; i < c->n; i++) {
        double vb;
        if (c->dirs) {
            if (class_vbar(c, i, &vb) != MODEL_CONVERGED)
                return MODEL_SATURATED;
        } else {
            if (vc_chain_probs(c->lam[i], c->s[i], c->vcs, p) !=
                MODEL_CONVERGED)
                return MODEL_SATURATED;
            vb = vc_multiplexing(p, c->vcs);
        }
        vnum += c->kbar[i] * vb;
        vden += c->kbar[i];
    }
    *vavg = vden > 0 ? vnum / vden : 1.0;
    return MODEL_CONVERGED;
}

/* x[0..n-1] = B_i (pooled), or x[2 i + e] = B_{i,e} per direction ((g)). */
static model_status tdet_map(void *vctx, const double *x, double *fx)
{
    tdet_ctx *c = vctx;
    double p[MODEL_TORUS_VMAX + 1];
    tdet_pass(c, x, 0);
    for (int i = 0; i < c->n; i++) {
        if (c->dirs) {
            for (int e = 0; e < 2; e++) {
                double pb, s = c->sd[i][e];
                model_status st = class_block(c, i, e, s, &pb);
                if (st != MODEL_CONVERGED)
                    return st;
                fx[2 * i + e] = pb * s;
            }
            continue;
        }
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
    c->dirs = 0;
    c->v0 = (d->vcs + 1) / 2;   /* even-numbered VCs: class 0 */
    c->v1 = d->vcs / 2;         /* odd-numbered VCs: class 1 */
    double before = 1;   /* prod_{l<i} p_l */
    for (int i = 0; i < c->n; i++) {
        double ps = 1.0 / d->k[i];
        model__ring_moments(d->k[i], &c->h[i], &c->g[i]);
        c->kbar[i] = (1 - ps) * c->h[i];
        c->lam[i] = rate * c->kbar[i] * excl / 2.0;
        c->f[i] = (1 - ps) * before * excl;
        double share[2];
        model__ring_dirs(d->k[i], share, c->hd[i]);
        for (int e = 0; e < 2; e++)
            c->u[i][e] = share[e] * c->hd[i][e];
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
    if (model__torus_ejection_worm(d, w, rate, o->variant, &wqd) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    tdet_ctx c;
    tdet_setup(&c, d, rate, lm, wqd);
    c.worm = o->variant == MODEL_VARIANT_CORRECTED;
    /* (e) the dateline classes: the simulator splits V >= 2 (V = 1 is a
     * watchdog-only configuration that shares one VC); (g) per direction,
     * with the holds of each direction (the pooled hold is their mean) */
    if (c.worm && d->vcs < 2)
        for (int i = 0; i < c.n; i++)
            model__torus_hold(d, w, i, &c.hold[i]);
    if (c.worm && d->vcs >= 2) {
        c.dirs = 1;
        for (int i = 0; i < c.n; i++) {
            class_setup(&c, d, i);
            model__torus_hold_dir(d, w, i, c.hold_dir[i]);
        }
    }

    double b[2 * NET_MAX_DIMS] = {0};
    int iters = 0;
    model_status st =
        model_solve(tdet_map, &c, b, c.dirs ? 2 * c.n : c.n, o, &iters);
    if (st != MODEL_CONVERGED) {
        class_free(&c);
        return model_result_fail(out, st, iters);
    }

    tdet_pass(&c, b, 0);
    double L = tdet_latency(&c), vavg;
    if (o->variant != MODEL_VARIANT_CORRECTED) {
        if (tdet_vavg(&c, &vavg) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iters);
        return model_result_thesis(out, rate, d->vcs, L, 1.0, vavg, iters);
    }
    tdet_pass(&c, b, 1);
    double L_tx = tdet_latency(&c);
    st = tdet_vavg(&c, &vavg);
    class_free(&c);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iters);
    return model_result_corrected(out, rate, d->vcs, lm,
                                  model_length_m2(d, w), L, L - L_tx, vavg,
                                  iters);
}

/* No source validates this derived model; the example is the chapter 4
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
    .source = "derived from [M5] Loucif 1999, sec.3.2.2, eqs.(3.3)-(3.13), "
              "for the k-ary n-cube; docs/models/kary-ncube.md",
    .summary = "k-ary n-cube (any n, per-dimension radix), dimension-order "
               "wormhole with V >= 2 VCs, uniform traffic, any Dr",
    .covers = tdet_covers,
    .eval = tdet_eval,
    .zero_load = tdet_zero_load,
    .example = tdet_example,
};
