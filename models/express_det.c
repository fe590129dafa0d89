/*
 * express_det.c — M7 `express-det`: dimension-order wormhole routing in
 * the bidirectional express-cube (a k-ary n-cube with an interchange after
 * every kn nodes of each ring, neighbouring interchanges joined by m
 * express channels per direction).
 *
 * Source: [L99] (Loucif's thesis), chapter 6, sections
 * 6.2-6.3.1, eqs.(6.1)-(6.23), with (3.3)-(3.4), (2.11), (2.13);
 * docs/models/kary-ncube.md, "M7 as printed", B1, B2, B6, B7.
 *
 * Equations (per dimension i, backward from i = n-1):
 *   h' = k/4;  kB = (kn+1)/2;  kE = floor(h'/kn - 1/(2kn) - 1/2)
 *   kF = 1 + fmod_pos(h' - kn/2 - 1/2, kn);  k_avg = kB + kE + kF
 *   (6.1)-(6.4)
 *   p_s = 1/k;  m' = lam / 2^n;  Phi = (1-p_s) m';  G = 2^(n-1) Phi
 *   R_L[i] = (1-p_s) p_s^i m';  R_P[i] = sum_{j<i} (1-p_s)^2 p_s^(i-j-1) m'
 *   (3.3)-(3.4)
 *   Rc = G k_avg;  pcl = 1/kn;  fl = Rc pcl;  fe = Rc (1-pcl)
 *   (6.5)-(6.6)
 *   T[i] = p_s^(n-i-1) (W_qd + Lm) + sum_{j>i} (1-p_s) p_s^(j-i-1)
 *          [TB1[j] + (R_L[j] + sum_{l<j, l!=i} (1-p_s)^2 p_s^(j-l-1) m') TB1[j]^2]   (6.16)
 *   inner fixed point on x = T^B_{i,2}:
 *     ct1 = T[i] + (kE + kF - 1) Dr + (kF G + fl pcl) x^2               (6.12)
 *     ct2 = (kE - 1) fl (1-pcl) / m
 *     (6.13)
 *     y   = T^E_{i,2} = (1 - sqrt(1 - 4 ct1 ct2)) / (2 ct2)
 *     (6.11)
 *     TE1 = Dr + y + fe (1-pcl)/m y^2
 *     (6.9)
 *     x   = smaller root of x = G (kB-1) x^2 + (kB-1) Dr + TE1
 *     (6.15)
 *   TB1 = Dr + x + (fl + (2^(n-1) - 1) Phi) x^2
 *   (6.14)
 *   TF1 = T[i] + kF Dr + (kF G + fl pcl) x^2
 *   (6.8)
 *   S[i] = TB1 + R_P[i] TB1^2;   L = d_avg + sum_i (1-p_s) p_s^i S[i]
 *   (6.17)-(6.18)
 *   V_avg: B1/B2 channel by channel along a dimension (first stage rate
 *   G + fl, express (fl + fe)(1-pcl)/m, final G + fl), averaged over the
 *   n k_avg channels of a path
 *   (6.19)-(6.22)
 *   Latency = ((lam/V) L^2 + L) V_avg
 *   (6.23)
 * The roots are computed as 2c / (1 + sqrt(1 - 4ac)), algebraically the
 * "minus" root of (6.11)/(6.15) and stable (and defined) as a -> 0.
 *
 * Resolutions (docs/models/kary-ncube.md, "M7 as printed", resolutions):
 *   1. (6.9) row j = kE prints T^F_{i,j}: it is T^F_{i,1} [fix].
 *   2. (6.16) prints R_i^L in the bracket: the competitor is the local
 *      injection into dimension j, R_j^L [fix].
 *   3. (6.15) has no stated root: the smaller one, which tends to the
 *      load-free value as lam -> 0 (the argument of (6.11)).
 *   4. The chains' arrival rates m^{B/F/E} are not printed; taken from the
 *      flow description of section 6.3.1 [recommended].
 *   5. (6.19)-(6.22) garbling: B1 chain; k^N_avg, V^N read kB, V^B [fix].
 *   6. Assumption (g) "(V-1)2 virtual channels" is garbled: V >= 2
 *      (Dally-Seitz), enforced by net_check.
 *   7. (6.3)/(6.4) evaluate Dally's per-distance hop counts at the mean
 *      distance k/4 and fail for small k/kn: covers() rejects kE < 1, i.e.
 *      k < 6 kn + 2.  (6.4)'s real "mod" is fmod_pos.
 *   8. "D_i"/"D_t" in (6.7)-(6.16) and the figures are Dr [fix].
 *   9. h' for odd k: (k - 1/k)/4 [recommended, B5], k/4 [printed].
 *  10. The inner iteration starts at the zero-load value of T^B_{i,2},
 *      T[i] + (k_avg - 1) Dr (B7), not the catalogue's T[i] + k_avg Dr
 *      (docs/models/kary-ncube.md, "M7 as printed"), so it
 *      climbs to the least fixed point instead of approaching from above.
 *  11. W_qd = lam Lm^2 per ejection channel (2.11), 0 with
 *      ejection_channels == 0; W_qs printed (2.13); saturation when a
 *      square-root argument is negative, the inner loop fails, a chain has
 *      rate * T >= 1, a collision probability b * Tq_b of eq.(6.7) reaches
 *      1, lam Lm / c >= 1 or (lam/V) L >= 1.
 * Zero load: d_avg + (1 - p_s^n) Lm + (1 - p_s) d_avg Dr
 * (docs/models/conventions.md, "Zero-load closed forms"):
 * the model's own hop count n k_avg, not the exact express-cube distance
 * of net_avg_distance (which differs: (6.3)-(6.4) are Dally's mean-distance
 * approximations).  Lengths: exponential in the thesis; only the mean is
 * used, so fixed lengths are evaluated with the same equations.
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; model_int.h
 * "corrected variant", docs/models/corrected.md, CV1-CV3; the same
 * three terms as torus-det and M6, (a)-(c), and the cost of a collision,
 * (d), derived from the simulated semantics of docs/models/semantics.md,
 * nothing fitted):
 *   (a) Routing delay.  A header deciding for Dr cycles holds its VC but
 *       sends nothing.  The holding times T^B, T^E, T^F, T (and the
 *       blocking they imply: the x^2, y^2, TB1^2 terms and the chains'
 *       guards) stay as above.  The transmitting holding times are the
 *       same recursion with Dr = 0 and every blocking term kept at its
 *       full value:
 *         T'[i]  = p_s^(n-i-1) Lm + sum_{j>i} (1-p_s) p_s^(j-i-1)
 *                  [TB1'[j] + comp_j TB1[j]^2]
 *         y'     = T'[i] + (kF G + fl pcl) x^2 + ct2 y^2   (y = ct1 + ct2 y^2)
 *         TE1'   = y' + fe (1-pcl)/m y^2
 *         TB1'   = G (kB-1) x^2 + TE1' + (fl + (2^(n-1)-1) Phi) x^2
 *         TF1'   = T'[i] + (kF G + fl pcl) x^2
 *       and V_avg is (6.19)-(6.22) over them (stage steps without Dr).
 *       L' = d_avg + sum_i (1-p_s) p_s^i (TB1'[i] + R_P[i] TB1[i]^2), and
 *       route = L - L' (linear in Dr once the squares are fixed: at zero
 *       load exactly the (1 - p_s) d_avg Dr of A.3) is not stretched.
 *   (b) W_s = M/G/1 wait of the node's one injection channel,
 *       lam E[L^2] / (2 (1 - lam Lm)), unstretched (CV2).
 *   (c) Ejection: the one ejection channel takes one message at a time and
 *       holds it until the tail is consumed (docs/models/semantics.md, item
 *       10,
 *       what the thesis simulated): an M/G/1 queue at lam / c whose service
 *       is the message length, W_qd = lam E[L^2] / (2 (1 - lam Lm)) per
 *       channel (model_ejection_mg1; model_int.h says why the length and
 *       not the length stretched by V_avg), instead of (2.11)'s lam Lm^2.
 *       W_qd enters T[i] where (2.11) does, hence the holding times and blocking; but a
 *       worm waiting to eject sends nothing, so, like Dr, it is left out
 *       of the transmitting occupancy and is not stretched.
 *   Latency = W_s + (L - route) V_avg + route (model_result_corrected);
 *   exact zero load (all waits 0, V_avg = 1).
 *   (d) The cost of a collision (docs/models/kary-ncube.md, "express-det:
 *       the cost of a collision").  Eq.(6.7) charges b Tq^2 for a competing
 *       flow of rate b whose holding time has mean Tq: the channel is busy
 *       with probability b Tq and a header that finds it busy waits Tq.
 *       But a header arriving at a random moment waits the RESIDUAL of the
 *       competitor's holding time H, E[H^2] / (2 E[H]) (residual life seen
 *       by a Poisson arrival), so the cost is b E[H^2] / 2; the source's
 *       b Tq^2 is that value only for an exponential H.  H is not
 *       exponential: its hop part (the Dr of every hop left, and the mean
 *       length) is fixed by the path, only the length and the waits are
 *       random.  So, corrected, H = T0 + (len - Lm) + W with T0 the
 *       competitor's zero-load value of the same T (the recursion without
 *       collisions: T0[i] = p_s^(n-i-1) Lm + sum_j (1-p_s) p_s^(j-i-1)
 *       TB1_0[j], x0 = T0[i] + (k_avg - 1) Dr, y0 = T0[i] + (kE + kF - 1)
 *       Dr, TB1_0 = T0[i] + k_avg Dr, the inner start of item 10), len the
 *       workload's length (Var = Lm^2 - Lm geometric, 0 fixed) and W = T -
 *       T0 the blocking and ejection waits, kept exponential as the source
 *       assumes (independent of len):
 *         b Tq^2  ->  b (Tq^2 + Var(len) + (Tq - T0)^2) / 2     (hsq)
 *       at every collision term (the x^2, y^2 and TB1^2 of (6.8)-(6.17),
 *       the V_avg steps and the transmitting pass alike).  Still quadratic
 *       in the unknown, so (6.11) and (6.15) keep closed-form smaller
 *       roots (fix_root).  The collision probability b Tq, the chains' rate
 *       x T and their guards are unchanged.  At zero load T = T0 and the
 *       term vanishes with b; with exponential waits and an exponential
 *       length of mean Tq it would be the source's b Tq^2.
 *       Why this and not the torus models' holding time (torus-det (d),
 *       model__torus_hold): there the sources' "remaining latency" charged
 *       every later hop, many more than a worm spans.  Here a dimension is
 *       about six hops (kB + kE + kF) and the worms are 16-100 flits, so
 *       the tail is still on the path when the header arrives in most
 *       visits and the holding time (1 + hops left (1 + Dr + B) + W_qd +
 *       len - hops left) equals M7's remaining latency up to one cycle;
 *       the M7 miss was the collision's wait, not its holding time.
 *       With one VC per class (V = 2, 3) (6.7) stays as printed: it
 *       charges a collision only against the flows that join the path at
 *       the channel (the convoy argument of torus-det (e) built in) with a
 *       one-server busy probability, which is what one VC per class gives.
 *   (e) The class's VCs (docs/models/corrected.md, CV15).  The
 *       simulator's header asks for its dateline class's mask (sim/
 *       route_express.c, sim__express_class: class 1 while the
 *       destination lies ahead without the wrap, class 0 before it) and
 *       takes any free VC of it, so with V_c = floor(V/2) > 1 VCs per class
 *       it waits only when all V_c are busy, and then for the first of
 *       them to free.  Every worm on the channel then holds one of them,
 *       not only the joining flow (a worm just ahead on the same path
 *       took one: the convoy argument needs one VC per class), so the
 *       load is the channel's whole flow (the chain rates of (6.19)-(6.22):
 *       G + fl on a local channel, (fl + fe)(1 - pcl)/m on an express one)
 *       times the holding time, a = tot Tq, and each collision term
 *         b hsq(Tq)  ->  C(V_c, a) (hsq(Tq) / Tq) / V_c
 *       (Erlang's C; the residual hold of (d) shared by the V_c holds in
 *       progress, first to free as torus-det (f)).  At V_c = 1 it is the
 *       term above.  The quadratics lose their closed form: (6.11) and
 *       (6.15) climb to the least fixed point (fix_least).  Without this
 *       the model could not tell V = 4 from V = 6 (saturation 0.00344 for
 *       every V on multichip_1024's express-cube, the simulator 0.0042,
 *       0.0077, 0.0105 for V = 2, 4, 6).
 *   (f) The worm's drain (CV6's model_worm_stretch, on the express
 *       path): the one ejection channel is held for the worm's drain
 *       s len, not for len.  The stages of contention of a crossed
 *       dimension are its kB local, kE express and kF local hops (the
 *       worms that share a local channel mostly leave at the interchange,
 *       the express channel's come from the whole group), each with its
 *       channel's flit load, and each shared by at most the V_c worms of
 *       one class: most channels carry one class (class 1 only, up to
 *       half the ring from the dateline), and with V_c = 1 no two worms
 *       interleave.  Measured (bench_probe_duato's ejection hold per
 *       message over Lm): V = 2, 0.003: 1.006 (model s = 1); V = 6,
 *       0.0065: 1.79 (model 1.70).
 *   (g) For the same reason the transmitting V_avg ((6.19)-(6.22) over
 *       the transmitting holding times, (a)) is the chain over the V_c
 *       VCs a channel's worms of one class can share: exactly 1 at V = 2,
 *       where the drain measured above shows no interleaving at all (the
 *       source's V_avg there was 1.19 at 0.003).  The full-Dr V_avg of
 *       the recommended variant is unchanged.
 *   (h) A VC is held until the worm's tail has passed, and the tail
 *       follows the header at the drained pace: the last hop's part of
 *       T[i] (6.16) is W_qd + s Lm, not W_qd + Lm, so every holding time
 *       and collision of the recursion carries the drain (s = 1, no
 *       change, with one VC per class).  Without it the V >= 4
 *       express-cubes of vlsi_1024 (32-128-flit worms) saturated 1.2-1.4x
 *       later than simulated; with it 1.0-1.24x (CV15).
 */
#include <math.h>
#include <stdio.h>

#include "torus_common.h"

typedef struct ex_geom {
    double kb, ke, kf, kavg, davg;
} ex_geom;

static double fmod_pos(double x, double a)
{
    return x - a * floor(x / a);
}

static void ex_geometry(const net_design *d, model_variant v, ex_geom *g)
{
    double hp = model__ring_kavg(d->k[0], v), kn = d->express_kn;
    g->kb = (kn + 1) / 2.0;
    g->ke = floor(hp / kn - 1.0 / (2 * kn) - 0.5);
    g->kf = 1 + fmod_pos(hp - kn / 2.0 - 0.5, kn);
    g->kavg = g->kb + g->ke + g->kf;
    g->davg = d->n * g->kavg;
}

static int ex_covers(const net_design *d, const net_workload *w, char *why,
                     size_t why_size)
{
    if (model__torus_covers(d, w, NET_EXPRESS, NET_ROUTE_DETERMINISTIC,
                            NET_TRAFFIC_UNIFORM, why, why_size))
        return -1;
    if (!net_uniform_radix(d)) {
        snprintf(why, why_size,
                 "needs the same radix in every dimension (eqs.6.2-6.4 use "
                 "one k)");
        return -1;
    }
    ex_geom g;
    ex_geometry(d, MODEL_VARIANT_RECOMMENDED, &g);
    ex_geom gp;
    ex_geometry(d, MODEL_VARIANT_PRINTED, &gp);
    if (g.ke < 1 || gp.ke < 1) {
        snprintf(why, why_size,
                 "k = %d < 6 kn + 2 = %d: the express-hop formula (6.3) gives "
                 "kE = %g < 1 express hops, outside its validity",
                 d->k[0], 6 * d->express_kn + 2, fmin(g.ke, gp.ke));
        return -1;
    }
    return 0;
}

static double ex_zero_load(const net_design *d, const net_workload *w,
                           const model_opts *opts)
{
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    ex_geom g;
    ex_geometry(d, o->variant, &g);
    double ps = 1.0 / d->k[0];
    return g.davg + (1 - pow(ps, d->n)) * net_message_flits(d, w) +
           (1 - ps) * g.davg * d->router_delay;
}

typedef struct ex_ctx {
    ex_geom g;
    double dr, G, fl, fe, pcl, m_exp;
    double t;                 /* T[i] of the dimension being solved */
    int resid;                /* corrected (d): collision cost E[H^2]/2 */
    int vc;                   /* corrected (e): VCs of the header's class */
    double ml, me;            /* whole flow of a local, an express channel */
    double vlen;              /* Var(len) */
    double xz, yz;            /* zero-load x and y of the dimension (d) */
    double y, te1;            /* results of the last inner map */
} ex_ctx;

/* The cost of a collision with a competitor whose holding time H has mean
 * T, divided by its rate b (eq.(6.7): T_e = T_q + b hsq): the source's T^2,
 * or, corrected (header comment (d)), E[H^2] / 2 with H = T0 + (len - Lm)
 * + W, W exponential with mean T - T0:
 *   E[H^2] / 2 = (T^2 + Var(len) + (T - T0)^2) / 2. */
static double hsq(const ex_ctx *c, double T, double T0)
{
    if (!c->resid)
        return T * T;
    return (T * T + c->vlen + (T - T0) * (T - T0)) / 2;
}

/* The cost of a channel's collisions, as an addition to the header's own
 * time, for a competing flow of rate b joining the path there whose
 * holding time has mean T (zero-load part T0): b hsq(T) (eq.(6.7), (d))
 * with one VC per class.  Corrected with V_c = vc > 1 class VCs (header
 * comment (e)), every worm on the channel holds one of them, so the load
 * is the channel's whole flow tot, a = tot T, and the header waits only
 * when all V_c are busy (Erlang's C), for the first of their residual
 * holds to end:  C(V_c, a) (hsq(T) / T) / V_c.  HUGE_VAL once a >= V_c. */
static double coll(const ex_ctx *c, double b, double tot, double T,
                   double T0)
{
    if (c->vc <= 1)
        return b * hsq(c, T, T0);
    double a = tot * T;
    if (!(a < c->vc))
        return HUGE_VAL;
    if (!(a > 0))
        return 0;
    return erlang_c(c->vc, a) * hsq(c, T, T0) / (T * c->vc);
}

/* 2c / (1 + sqrt(1 - 4ac)): the smaller root of a z^2 - z + c = 0. */
static model_status small_root(double a, double c, double *z)
{
    double disc = 1 - 4 * a * c;
    if (!(disc >= 0))
        return MODEL_SATURATED;
    *z = 2 * c / (1 + sqrt(disc));
    return MODEL_CONVERGED;
}

/* The smaller root of z = cc + a hsq(z, z0), the form of (6.10) and
 * (6.15).  Corrected, hsq(z, z0) = z^2 - z0 z + (z0^2 + Var(len)) / 2:
 * (1 + a z0) z = cc + a (z0^2 + Var(len)) / 2 + a z^2, which is again
 * small_root's form once divided by 1 + a z0. */
static model_status fix_root(const ex_ctx *c, double a, double cc, double z0,
                             double *z)
{
    if (!c->resid)
        return small_root(a, cc, z);
    double den = 1 + a * z0;
    return small_root(a / den, (cc + a * (z0 * z0 + c->vlen) / 2) / den, z);
}

/* The least z with z = cc + count coll(b, tot, z, z0): count channels in a
 * row, each joined by a flow of rate b (whole flow tot), as (6.10) and
 * (6.15).  One VC per
 * class keeps the closed form (fix_root); more (e) climb from z = cc,
 * which increases monotonically to the least fixed point when there is
 * one (coll is increasing in z), and report saturation when the climb
 * reaches a >= V_c or does not settle. */
static model_status fix_least(const ex_ctx *c, double count, double b,
                              double tot, double cc, double z0, double *z)
{
    if (c->vc <= 1)
        return fix_root(c, count * b, cc, z0, z);
    double v = cc;
    for (int it = 0; it < 100000; it++) {
        double nv = cc + count * coll(c, b, tot, v, z0);
        if (!isfinite(nv))
            return MODEL_SATURATED;
        if (fabs(nv - v) <= 1e-12 * nv) {
            *z = nv;
            return MODEL_CONVERGED;
        }
        v = nv;
    }
    return MODEL_SATURATED;
}

/* Inner map x = T^B_{i,2} -> new x, through y = T^E_{i,2} and TE1. */
static model_status ex_inner(void *vctx, const double *xv, double *fx)
{
    ex_ctx *c = vctx;
    const ex_geom *g = &c->g;
    double x = xv[0];
    double exp_local = c->fl * (1 - c->pcl) / c->m_exp;
    double exp_exp = c->fe * (1 - c->pcl) / c->m_exp;
    /* collision probabilities of eq.(6.7) must stay below 1 (below V_c
     * busy class VCs, (e)) */
    if (!((c->G + c->fl * c->pcl) * x < c->vc))
        return MODEL_SATURATED;
    double ct1 = c->t + (g->ke + g->kf - 1) * c->dr +
                 g->kf * coll(c, c->G, c->ml, x, c->xz) +
                 coll(c, c->fl * c->pcl, 0, x, c->xz);
    if (!isfinite(ct1) ||
        fix_least(c, g->ke - 1, exp_local, c->me, ct1, c->yz, &c->y) !=
            MODEL_CONVERGED)
        return MODEL_SATURATED;
    if (!(exp_local * c->y < c->vc) || !(exp_exp * c->y < c->vc))
        return MODEL_SATURATED;
    c->te1 = c->dr + c->y + coll(c, exp_exp, c->me, c->y, c->yz);
    double cc = (g->kb - 1) * c->dr + c->te1;
    if (!isfinite(cc))
        return MODEL_SATURATED;
    return fix_least(c, g->kb - 1, c->G, c->ml, cc, c->xz, &fx[0]);
}

/* Sum of weight * Vbar over the channels of one stage of length len
 * (B6: whole channels weigh 1, the last partial one its fraction).
 * t_first is the first channel's T; channel j >= 2 has
 * t_rest + (len - j + 1) step.  *vsum accumulates. */
static model_status ex_stage(double rate, int vcs, double len, double t_first,
                             double t_rest, double step, double *vsum)
{
    double p[MODEL_TORUS_VMAX + 1];
    int top = (int)ceil(len);
    for (int j = 1; j <= top; j++) {
        double wgt = j <= floor(len) ? 1.0 : len - floor(len);
        double t = j == 1 ? t_first : t_rest + (len - j + 1) * step;
        if (vc_chain_probs(rate, t, vcs, p) != MODEL_CONVERGED)
            return MODEL_SATURATED;
        *vsum += wgt * vc_multiplexing(p, vcs);
    }
    return MODEL_CONVERGED;
}

/* The worm's drain stretch on the express path (header comment (f);
 * model_worm_stretch): per dimension, in path order, three stages of
 * contention (the kB local hops to the first interchange, the kE express
 * hops, the kF local hops from the last one), each crossed with the
 * dimension, with the flit loads of a local and an express channel
 * ((6.19)-(6.22)'s chain rates times Lm). */
static double ex_stretch(const net_design *d, const net_workload *w,
                         double rate, const ex_geom *g)
{
    double lm = net_message_flits(d, w), ps = 1.0 / d->k[0];
    double mp = rate / ldexp(1.0, d->n), pcl = 1.0 / d->express_kn;
    double G = ldexp(1.0, d->n - 1) * (1 - ps) * mp, rc = G * g->kavg;
    double ml = G + rc * pcl, me = rc * (1 - pcl) / d->express_m;
    double hops[3] = {g->kb, g->ke, g->kf};
    int vc = d->vcs / 2 > 1 ? d->vcs / 2 : 1;   /* the class's VCs, (f) */
    double load[3] = {ml * lm, me * lm, ml * lm};
    model_worm_path path;
    path.nseg = 0;
    if (3 * d->n > NET_MAX_DIMS)
        return INFINITY;   /* not reached: k >= 14 bounds n (covers) */
    for (int i = 0; i < d->n; i++)
        for (int st = 0; st < 3; st++) {
            path.cross[path.nseg] = 1 - ps;
            path.hops[path.nseg] = hops[st];
            path.stall[path.nseg] = model_ps_stall(load[st], vc);
            path.nseg++;
        }
    return model_worm_stretch(d, w, rate, &path);
}

/* What one evaluation of (6.1)-(6.22) at a given W_qd yields. */
typedef struct ex_out {
    double L;          /* (6.18) */
    double vavg;       /* (6.19)-(6.22), full holding times */
    double L_tx;       /* corrected: L with Dr out, blocking terms kept */
    double vavg_tx;    /* corrected: V_avg of the transmitting holding times */
    int iters;
} ex_out;

/* Evaluate (6.1)-(6.22) at rate with ejection wait wqd; with tx, also the
 * transmitting quantities of the corrected variant (header comment).
 * MODEL_CONVERGED or the failure; r->iters is always set. */
static model_status ex_core(const net_design *d, const model_opts *o,
                            double rate, double lm, double lm2, double wqd,
                            double drain, int tx, ex_out *r)
{
    int n = d->n, V = d->vcs;
    ex_ctx c;
    ex_geometry(d, o->variant, &c.g);
    double ps = 1.0 / d->k[0];
    double half = ldexp(1.0, n - 1);          /* 2^(n-1) */
    double mp = rate / (2 * half);            /* m' = lam / 2^n */
    double phi = (1 - ps) * mp;
    c.dr = d->router_delay;
    c.G = half * phi;
    c.pcl = 1.0 / d->express_kn;
    double rc = c.G * c.g.kavg;
    c.fl = rc * c.pcl;
    c.fe = rc * (1 - c.pcl);
    c.m_exp = d->express_m;
    c.resid = tx;
    c.vc = tx && V / 2 > 1 ? V / 2 : 1;
    c.ml = c.G + c.fl;                        /* as (6.19)-(6.22)'s chains */
    c.me = (c.fl + c.fe) * (1 - c.pcl) / c.m_exp;
    c.vlen = lm2 - lm * lm;
    double tb1z[NET_MAX_DIMS];   /* zero-load TB1 (corrected (d)) */

    double rl[NET_MAX_DIMS], rp[NET_MAX_DIMS], t[NET_MAX_DIMS];
    double tb1[NET_MAX_DIMS], tf1[NET_MAX_DIMS], te1[NET_MAX_DIMS];
    double xs[NET_MAX_DIMS], ys[NET_MAX_DIMS], xzs[NET_MAX_DIMS], yzs[NET_MAX_DIMS];
    /* transmitting counterparts (tx only) */
    double t0[NET_MAX_DIMS], tb10[NET_MAX_DIMS], tf10[NET_MAX_DIMS];
    double te10[NET_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        rl[i] = (1 - ps) * pow(ps, i) * mp;
        rp[i] = 0;
        for (int j = 0; j < i; j++)
            rp[i] += (1 - ps) * (1 - ps) * pow(ps, i - j - 1) * mp;
    }
    r->iters = 0;
    for (int i = n - 1; i >= 0; i--) {
        double ti = pow(ps, n - i - 1) * (wqd + drain);
        double ti0 = pow(ps, n - i - 1) * lm;   /* no ejection wait: the worm sends nothing while it waits */
        for (int j = i + 1; j < n; j++) {
            double comp = rl[j];  /* [fix] R_j^L, not R_i^L (item 2) */
            for (int l = 0; l < j; l++)
                if (l != i)
                    comp += (1 - ps) * (1 - ps) * pow(ps, j - l - 1) * mp;
            if (!(comp * tb1[j] < c.vc))
                return MODEL_SATURATED;
            double cj = coll(&c, comp, c.ml, tb1[j], tb1z[j]);
            if (!isfinite(cj))
                return MODEL_SATURATED;
            ti += (1 - ps) * pow(ps, j - i - 1) * (tb1[j] + cj);
            if (tx)
                ti0 += (1 - ps) * pow(ps, j - i - 1) * (tb10[j] + cj);
        }
        /* zero-load T[i] and, from it, x, y and TB1 (no collisions) */
        double tz = pow(ps, n - i - 1) * lm;
        for (int j = i + 1; j < n; j++)
            tz += (1 - ps) * pow(ps, j - i - 1) * tb1z[j];
        c.xz = tz + (c.g.kavg - 1) * c.dr;
        c.yz = tz + (c.g.ke + c.g.kf - 1) * c.dr;
        tb1z[i] = tz + c.g.kavg * c.dr;
        t[i] = ti;
        c.t = ti;
        double x = ti + (c.g.kavg - 1) * c.dr;   /* zero-load T^B_{i,2} */
        int it = 0;
        model_status st = model_solve(ex_inner, &c, &x, 1, o, &it);
        r->iters += it;
        if (st != MODEL_CONVERGED)
            return st;
        double fx;
        if (ex_inner(&c, &x, &fx) != MODEL_CONVERGED)  /* y, TE1 at x */
            return MODEL_SATURATED;
        double first = c.fl + (half - 1) * phi;
        if (!(first * x < c.vc))
            return MODEL_SATURATED;
        /* the final stage's collisions: kF channels joined by G, one by
         * fl pcl ((6.8)'s (kF G + fl pcl) x^2) */
        double fin = c.g.kf * coll(&c, c.G, c.ml, x, c.xz) +
                     coll(&c, c.fl * c.pcl, 0, x, c.xz);
        xs[i] = x;
        ys[i] = c.y;
        xzs[i] = c.xz;
        yzs[i] = c.yz;
        te1[i] = c.te1;
        tb1[i] = c.dr + x + coll(&c, first, c.ml, x, c.xz);
        tf1[i] = ti + c.g.kf * c.dr + fin;
        if (!isfinite(tb1[i]) || !isfinite(tf1[i]))
            return MODEL_SATURATED;
        if (tx) {
            /* the same equations with Dr = 0 and every blocking term
             * (the squares) at its full-Dr value */
            double exp_local = c.fl * (1 - c.pcl) / c.m_exp;
            double exp_exp = c.fe * (1 - c.pcl) / c.m_exp;
            double y0 = ti0 + fin +
                        (c.g.ke - 1) * coll(&c, exp_local, c.me, c.y, c.yz);
            t0[i] = ti0;
            te10[i] = y0 + coll(&c, exp_exp, c.me, c.y, c.yz);
            double x0 = (c.g.kb - 1) * coll(&c, c.G, c.ml, x, c.xz) + te10[i];
            tb10[i] = x0 + coll(&c, first, c.ml, x, c.xz);
            tf10[i] = ti0 + fin;
        }
    }

    double L = c.g.davg, L0 = c.g.davg;
    for (int i = 0; i < n; i++) {
        if (!(rp[i] * tb1[i] < c.vc))
            return MODEL_SATURATED;
        double ci = coll(&c, rp[i], c.ml, tb1[i], tb1z[i]);
        if (!isfinite(ci))
            return MODEL_SATURATED;
        L += (1 - ps) * pow(ps, i) * (tb1[i] + ci);
        if (tx)
            L0 += (1 - ps) * pow(ps, i) * (tb10[i] + ci);
    }

    /* VC multiplexing along the path of each dimension (6.19)-(6.22). */
    double m_local = c.G + c.fl;
    double m_exp = (c.fl + c.fe) * (1 - c.pcl) / c.m_exp;
    double vsum = 0, vsum0 = 0;
    for (int i = 0; i < n; i++) {
        double gx2 = coll(&c, c.G, c.ml, xs[i], xzs[i]);
        double ey2 = coll(&c, c.fl * (1 - c.pcl) / c.m_exp, c.me, ys[i],
                          yzs[i]);
        if (!isfinite(gx2) || !isfinite(ey2))
            return MODEL_SATURATED;
        if (ex_stage(m_local, V, c.g.kb, tb1[i], te1[i], c.dr + gx2, &vsum) ||
            ex_stage(m_exp, V, c.g.ke, te1[i], tf1[i], c.dr + ey2, &vsum) ||
            ex_stage(m_local, V, c.g.kf, tf1[i], t[i], c.dr + gx2, &vsum))
            return MODEL_SATURATED;
        if (tx && (ex_stage(m_local, c.vc, c.g.kb, tb10[i], te10[i], gx2,
                            &vsum0) ||
                   ex_stage(m_exp, c.vc, c.g.ke, te10[i], tf10[i], ey2,
                            &vsum0) ||
                   ex_stage(m_local, c.vc, c.g.kf, tf10[i], t0[i], gx2,
                            &vsum0)))
            return MODEL_SATURATED;
    }
    r->L = L;
    r->vavg = vsum / c.g.davg;
    r->L_tx = tx ? L0 : L;
    r->vavg_tx = tx ? vsum0 / c.g.davg : r->vavg;
    return MODEL_CONVERGED;
}

static int ex_eval(const net_design *d, const net_workload *w, double rate,
                   const model_opts *opts, model_result *out)
{
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    model_opts def;
    const model_opts *o = model__opts(opts, &def);
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_NOCONVERGE, 0);
    double lm = net_message_flits(d, w), lm2 = model_length_m2(d, w), wqd;
    int corrected = o->variant == MODEL_VARIANT_CORRECTED;
    double hold_len = lm;   /* the last hop's hold after the header: Lm */
    if (corrected) {
        ex_geom g;
        ex_geometry(d, o->variant, &g);
        double s = ex_stretch(d, w, rate, &g);
        if (model_ejection_worm(d, rate, lm, lm2, s, &wqd) !=
            MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, 0);
        hold_len = s * lm;   /* (h) */
    } else if (model__torus_ejection(d, w, rate, o->variant, &wqd) !=
               MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, 0);
    ex_out r;
    model_status st = ex_core(d, o, rate, lm, lm2, wqd, hold_len, corrected,
                              &r);
    if (st != MODEL_CONVERGED)
        return model_result_fail(out, st, r.iters);
    if (corrected)
        return model_result_corrected(out, rate, d->vcs, lm, lm2, r.L,
                                      r.L - r.L_tx, r.vavg_tx, r.iters);
    return model_result_thesis(out, rate, d->vcs, r.L, 1.0, r.vavg,
                               r.iters); /* (6.23) */
}

/* Fig.6.4a: express-cube N = 1024 (32 x 32), m = 1, Lm = 32, Dr = 0,
 * exponential lengths; kn and V are not stated for the validation: kn = 4
 * (the thesis's comparisons) and V = 2 (the Dally-Seitz minimum). */
static void ex_example(net_design *d, net_workload *w)
{
    net_design_init(d);
    d->topology = NET_EXPRESS;
    net_design_set_radix(d, 2, 32);
    d->vcs = 2;
    d->width = 1;
    d->express_m = 1;
    d->express_kn = 4;
    d->routing = NET_ROUTE_DETERMINISTIC;
    d->router_delay = 0;
    d->ejection_channels = 1;
    net_workload_init(w);
    w->message_bits = 32;
    w->length = NET_LENGTH_EXPONENTIAL;
    w->traffic = NET_TRAFFIC_UNIFORM;
}

const model model_express_det = {
    .name = "express-det",
    .source = "[M7] Loucif 1999, ch.6, secs.6.2-6.3.1, eqs.(6.1)-(6.23); "
              "docs/models/kary-ncube.md",
    .summary = "express k-ary n-cube (equal radices, k >= 6 kn + 2, m >= 1 "
               "express channels), dimension-order wormhole (V >= 2), "
               "uniform traffic, any Dr",
    .covers = ex_covers,
    .eval = ex_eval,
    .zero_load = ex_zero_load,
    .example = ex_example,
};
