/*
 * hcube_pcube.c — M1 `hcube-pcube`: wormhole switching with P-cube
 * partially adaptive routing in the binary n-cube, uneven channel traffic.
 *
 * Source: [PS06] (Patooghy & Sarbazi-Azad), sections 2-3,
 * eqs.(1)-(25); docs/models/hypercube-dcsh.md, "M1 as printed".  P-cube
 * (negative-first turn model) makes the
 * channel rates depend on the Hamming weight of the nodes a channel joins,
 * so the paper evaluates a service time per (source, destination) pair and
 * per channel.  We use the exact symmetry reduction instead of
 * the N(N-1) pair sums: pairs matter only through their class
 * c = (n00, n01, n10, n11) and channels only through NEG(w)/POS(w)
 * (hcube_pcube_rates.c builds both and the users of every channel class),
 * which is O(n^3) classes and O(n^4) work per iteration.
 * tests/test_models_hcube.c re-derives the model pair by pair for n <= 6.
 *
 * Equations as implemented, unknowns S(c) (docs/models/hypercube-dcsh.md, "M1
 * as printed" 3d-3g):
 *   channel class x, with rate_x (3b) and the users' service times:
 *     S_x    = sum_users omega S(c) / sum_users omega                 (21)
 *     rho_x  = rate_x S_x < 1;  Pbusy_x = rho_x^V (B1)          (19)-(20)
 *     w_x    = rate_x S_x^2 (1 + (S_x-Lm)^2/S_x^2) / (2(1-rho_x))     (22)
 *     Vb_x   = Vbar(B1(rate_x, S_x, V))                                (8)
 *   pair class c, H = h_n + h_p, w_s = n10 + n11:
 *     W_ej   = Lm^2 lam / (2(1 - Lm lam))  (M/D/1)                     (25)
 *     phase 1 hop i = 1..h_n at weight w_s-i+1: h_n-i+1 candidate NEG
 *       channels, PB = Pbusy^(h_n-i+1), waiting w_NEG           (13),(15),(17)
 *     phase 2 hop i = 1..h_p at weight n11+i-1: h_p-i+1 candidate POS
 *       channels, PB = Pbusy^(h_p-i+1), waiting w_POS           (14),(16),(18)
 *     S(c)   = H (1 + Dr) + Lm + sum_hops PB Wm + W_ej            (11),(12)
 *     Vpair  = mean of Vb over the H hops' channel classes              (7)
 *   per source weight ws: S_s = sum_c C(ws,n10) C(n-ws,n01) S(c)/(N-1)  (9)
 *     W_s = W_DG(lam/V, S_s, Lm)                                       (23)
 *   Sbar, Wbar = means over sources; Vbar = mean of Vpair over pairs
 *                                                             (10),(24),(6)
 *   Latency = (Sbar + Wbar) Vbar                                        (3)
 *
 * Resolutions (docs/models/hypercube-dcsh.md, "M1 as printed", resolutions):
 *   1-2. Eqs.(1)-(2): corrected binomials, symmetric lam_ch(u) form [fix];
 *        see hcube_pcube_rates.c.
 *   3. Eq.(4) h_p = sum s_i d_i counts shared 1-bits, not hops; it is
 *      sum (1-s_i) d_i = n01 [fix].
 *   4. Eq.(5) swaps the phases [fix]; with the class reduction K_i is not
 *      needed: every node reachable after a given number of hops has the
 *      same weight, so (15)-(16)'s averages are over identical terms.
 *   5. Eq.(14)'s sum runs to h_p, not h_n [fix].
 *   6. W_mean in (13)-(14) is never defined: the mean of (22)'s w over the
 *      candidate channels of that hop [recommended], which by symmetry is
 *      w_x of their one class.
 *   7. P_used in (17)-(18) is P_x[V], all V VCs busy (text under (18)).
 *   8. Eq.(20) is garbled (P_0 = 1/v, cumulative sums): B1's P[V] = rho^V.
 *   9. Eq.(21)'s weight m_(s,d) is printed as the number of the pair's
 *      paths that use the channel, which over-weights pairs with long
 *      phases; [recommended] weight by the traffic the pair puts on the
 *      channel (omega = multiplicity x phi).  MODEL_VARIANT_PRINTED uses
 *      the path count omega x h_n! h_p!.  S(c) in (21) is the pair's whole
 *      network time, not the remainder from the channel: the paper's
 *      choice, kept.
 *   10. Eq.(3)'s W_s is the eq.(24) average Wbar [fix]; (23) is read as
 *       (lam/V) S_s^2 (...) / (2 (1 - (lam/V) S_s)).
 *   11. W_ej sits inside S(s,d) (11), so it also inflates channel holding
 *       times and is scaled by Vbar: printed, kept.
 *
 * Extensions beyond the paper (both reduce to it at the paper's settings):
 *   - Router delay: the paper charges 1 cycle per hop (Dr = 0).  With
 *     d->router_delay = Dr each hop costs 1 + Dr, as in [L99] eq.(2.6) and
 *     docs/models/semantics.md, item 2; zero load becomes H (1 + Dr) + Lm.
 *   - Ejection: d->ejection_channels == 0 (immediate consumption, the
 *     "multiple ejection channels" of docs/models/kary-ncube.md, "M6 as
 *     printed", item 6) sets W_ej = 0;
 *     1 is the paper's M/D/1; finitely many >= 2 is not covered.
 *   - Length: the paper assumes fixed-length messages (M/D/1 ejection,
 *     Draper-Ghosh variance).  Exponential workloads are accepted and use
 *     the same equations with the mean length (an approximation).
 *
 * Solve: start at zero load S(c) = H (1+Dr) + Lm + W_ej, iterate 3f-3d-3e
 * with model_solve (every step is monotone non-decreasing in the S(c), so
 * the iterates climb to the least fixed point).  SATURATED when lam Lm >= 1,
 * any rho_x >= 1 (NEG(1)/POS(0), the channels at node 0, go first), any
 * (lam/V) S_s >= 1, or divergence.  Zero load (A.3, Dr = 0):
 * n N / (2(N-1)) + Lm.
 *
 * Cost: at n = 10 (1024 nodes) one rate point takes well under a
 * millisecond; see docs/models/hypercube-dcsh.md for the measurement.
 *
 * Corrected variant (opts->variant == MODEL_VARIANT_CORRECTED; eval_corrected;
 * docs/models/corrected.md, CV9).  The recommended model saturates at
 * 0.46-0.70 of the simulated rate although it is within 8% below that: a
 * channel class is ONE M/G/1 server whose service is the pair's whole
 * network time S(c), saturated at rate_x S_x = 1, with the Dally chain's
 * P[V] = (rate_x S_x)^V.  In the simulator (sim/route_pcube.c,
 * sim/engine.c) a channel has V VCs, each held by one worm from the
 * header's allocation until its tail leaves, multiplexed flit by flit, and
 * a blocked header takes the first permitted VC that frees.  Re-derived
 * from those semantics (the same pair and channel classes and rates;
 * nothing fitted):
 *   C1. The worm's stretch.  A worm spans its path (len > b x hops) and its
 *       flits cross every channel it spans, and the source's injection
 *       channel, in tandem; each is shared flit by flit with the worms in
 *       its other VCs.  Per pair class, s(c) = model_worm_stretch over the
 *       H hops as separate segments (a hypercube path changes dimension at
 *       every hop, so unlike a torus ring no competitor follows it along a
 *       dimension) with stall model_ps_stall(rate_x Lm, V) each, plus the
 *       injection channel's (CV6's derivation, model_int.h).  The
 *       body takes s(c) len cycles, not len x Vbar.
 *   C1'. ... but never less than 1 + the largest stage's stall: a worm is
 *       no faster than through its busiest stage alone, whose exact
 *       M/M/1-PS stretch that is.  With one dominant stage the
 *       self-consistent s = (1 + sqrt(1 + 4 st)) / 2 falls below it (the
 *       stage's competitors are always ready there: nothing else holds
 *       them).  It binds for the pairs through node 0's channels near
 *       saturation (the vlsi_1024 10-cube: the model's saturation rate
 *       0.00138 -> 0.00126 against the simulated 0.00138, the channel-load
 *       bound of node 0's channels; its 80% point -18.7% -> -16.1%; the
 *       source's set-ups move by <= 0.014 in ratio; CV16).
 *       Weighted, as in model_worm_stretch, by P(the stage is spanned).
 *   C2. The VC's holding time (the torus family's "worm's holding time",
 *       CV5): the VC a pair takes at hop position pos (0 = the
 *       injection VC) with r = H - pos hops after it is held
 *         H(c,pos) = 1 + sum_{t=1..r} P(len > b (t-1)) (1 + Dr + B_(pos+t))
 *                    + (s(c) - 1) Lm + P(len > b r) W_ej + E[(len - b r)+]
 *       (the 1: a VC is re-used one cycle after the tail leaves), not the
 *       whole network time: the blocking of the hops before it
 *       and the hops the tail has already left are not in it.
 *   C3. A channel class is V servers (its VCs), not one: the worms holding
 *       them share the bandwidth (in C1), so each hold is private.  Offered
 *       load a_x = rate_x E[H_x] erlangs, P(all V busy) = Erlang's C(V,
 *       a_x) (M/M/V; V = 1 is the M/G/1 utilisation), saturated at a_x = V.
 *       A header with m candidate channels of class x (P-cube's choice) is
 *       blocked with P^m, as the source has it, and then waits for the
 *       first of the m V busy VCs: the M/G/c wait of a pool of m V servers
 *       at m a_x erlangs, E[H_x^2] / (2 E[H_x]) / (m (V - a_x)) (the
 *       residual of a hold, CV7: E[H^2] from the fixed part f, the
 *       exponential waits r (2 r^2) and the stretched length's variance).
 *         B_(x,m) = C(V, a_x)^m E[H_x^2] / (2 E[H_x] m (V - a_x))
 *       Unknowns: B_(x,m), 2n (n+1) of them (a hop's blocking depends only
 *       on its channel class and its candidates), iterated by model_solve
 *       from 0; E[H_x] and E[H_x^2] are means over the users of x weighted
 *       by omega.
 *   C4. The ejection channel is held for the worm's drain (CV6): an
 *       M/G/1 queue at lam whose service is s(c) len, mean over the pairs
 *       (mean s Lm, second moment E[s^2] E[len^2]); 0 with immediate
 *       ejection.
 *   C5. Network latency of pair class c: H (1 + Dr) + sum_hops B + W_ej +
 *       s(c) Lm; the mean over the pairs (mult).
 *   C6. Source wait: a message waits only for one of the V injection VCs
 *       (the injection channel's bandwidth sharing is in C1's stretch):
 *       Erlang's C at a = lam E[H(c,0)], M/G/c wait as in C3 with m = 1.
 *   Latency = source wait + network latency; VC mux reports the mean
 *   stretch.  SATURATED when lam Lm >= 1, a channel's flit load reaches 1
 *   (infinite stretch), the ejection queue's rho reaches 1, any a_x or the
 *   injection VCs' load reaches V, or the iteration diverges.  At rate 0
 *   every wait vanishes and s = 1: the zero-load latency is exact.
 *   Cost: O(n^4) per iteration over the users' precomputed fixed parts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hcube_pcube_int.h"
#include "model_int.h"
#include "net/xalloc.h"

typedef struct pcube_ctx {
    const pcube_layout *l;
    int n, vcs, printed;
    double lam, lm, dr, w_ej;
    double *sx;             /* per channel class: mean service time (21) */
    double *pw;             /* [x * (n+1) + r] = Pbusy_x^r */
    double *wait;           /* w_x (22) */
    double *vb;             /* Vb_x (8), filled when want_vb */
} pcube_ctx;

static int covers(const net_design *d, const net_workload *w, char *why,
                  size_t why_size)
{
    err e;
    err_clear(&e);
    if (d->topology != NET_HYPERCUBE || d->routing != NET_ROUTE_PCUBE ||
        d->switching != NET_SWITCH_WORMHOLE) {
        snprintf(why, why_size,
                 "hypercube with wormhole switching and pcube routing only");
        return -1;
    }
    if (net_check(d, &e) != 0 || net_workload_check(d, w, &e) != 0) {
        snprintf(why, why_size, "%s", e.msg);
        return -1;
    }
    if (w->traffic != NET_TRAFFIC_UNIFORM) {
        snprintf(why, why_size,
                 "uniform traffic only (the channel rates assume it), not %s",
                 net_traffic_name(w->traffic));
        return -1;
    }
    if (d->ejection_channels > 1) {
        snprintf(why, why_size,
                 "%d ejection channels: the paper models one (M/D/1); 0 "
                 "(unlimited) is also covered",
                 d->ejection_channels);
        return -1;
    }
    return 0;
}

/* 3f then 3d: per channel class service time, Pbusy powers, waiting time
 * and, when want_vb, the multiplexing degree. */
static model_status channel_stats(pcube_ctx *c, const double *s, int want_vb)
{
    const pcube_layout *l = c->l;
    int n = c->n;
    for (int x = 0; x < l->nchan; x++) {
        double num = 0, den = 0;
        for (int u = l->user_start[x]; u < l->user_start[x + 1]; u++) {
            const pcube_user *pu = &l->users[u];
            double wgt = c->printed ? pu->omega_paths : pu->omega;
            num += wgt * s[pu->cls];
            den += wgt;
        }
        double sx = num / den;
        double rate = c->lam * l->rate_unit[x];
        double rho = rate * sx;
        if (!(rho < 1))
            return MODEL_SATURATED;
        c->sx[x] = sx;
        double pbusy = pow(rho, c->vcs);
        double *pw = &c->pw[x * (n + 1)];
        pw[0] = 1;
        for (int r = 1; r <= n; r++)
            pw[r] = pw[r - 1] * pbusy;
        if (wait_mg1_dg(rate, sx, c->lm, &c->wait[x]) != MODEL_CONVERGED)
            return MODEL_SATURATED;
        if (want_vb &&
            vc_mux_degree(rate, sx, c->vcs, &c->vb[x]) != MODEL_CONVERGED)
            return MODEL_SATURATED;
    }
    return MODEL_CONVERGED;
}

/* 3e: S(c) of every pair class from the channel statistics. */
static void class_times(const pcube_ctx *c, double *out)
{
    const pcube_layout *l = c->l;
    int n = c->n;
    for (int k = 0; k < l->nclasses; k++) {
        const pcube_class *pc = &l->cls[k];
        int hn = pc->n10, hp = pc->n01, ws = pc->n10 + pc->n11;
        double blocking = 0;
        for (int i = 1; i <= hn; i++) {
            int x = pcube__neg(n, ws - i + 1);
            blocking += c->pw[x * (n + 1) + hn - i + 1] * c->wait[x];
        }
        for (int i = 1; i <= hp; i++) {
            int x = pcube__pos(n, pc->n11 + i - 1);
            blocking += c->pw[x * (n + 1) + hp - i + 1] * c->wait[x];
        }
        out[k] = (hn + hp) * (1 + c->dr) + c->lm + blocking + c->w_ej;
    }
}

static model_status pcube_map(void *ctx, const double *x, double *fx)
{
    pcube_ctx *c = ctx;
    model_status st = channel_stats(c, x, 0);
    if (st != MODEL_CONVERGED)
        return st;
    class_times(c, fx);
    return MODEL_CONVERGED;
}

/* 3g: the totals from converged S(c).  Fills out; returns its code. */
static int totals(pcube_ctx *c, const double *s, int iterations,
                  model_result *out)
{
    const pcube_layout *l = c->l;
    int n = c->n;
    double nodes = ldexp(1.0, n);
    if (channel_stats(c, s, 1) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iterations);
    double ss[NET_MAX_DIMS + 1] = {0};
    double vbar = 0, pairs = 0;
    for (int k = 0; k < l->nclasses; k++) {
        const pcube_class *pc = &l->cls[k];
        int hn = pc->n10, hp = pc->n01, ws = pc->n10 + pc->n11;
        ss[ws] += binom(ws, pc->n10) * binom(n - ws, pc->n01) * s[k];  /* (9) */
        double v = 0;
        for (int i = 1; i <= hn; i++)
            v += c->vb[pcube__neg(n, ws - i + 1)];
        for (int i = 1; i <= hp; i++)
            v += c->vb[pcube__pos(n, pc->n11 + i - 1)];
        vbar += pc->mult * v / (hn + hp);                          /* (7) */
        pairs += pc->mult;
    }
    /* (6): pairs = N(N-1); the computed sum keeps the mean of values >= 1
     * at >= 1 despite rounding */
    vbar /= pairs;
    double sbar = 0, wbar = 0;
    for (int ws = 0; ws <= n; ws++) {
        double s_s = ss[ws] / (nodes - 1), w_s;
        if (wait_mg1_dg(c->lam / c->vcs, s_s, c->lm, &w_s) != MODEL_CONVERGED)
            return model_result_fail(out, MODEL_SATURATED, iterations);
        sbar += binom(n, ws) / nodes * s_s;                        /* (10) */
        wbar += binom(n, ws) / nodes * w_s;                    /* (23)-(24) */
    }
    return model_result_ok(out, (sbar + wbar) * vbar, sbar, wbar, vbar,
                           iterations);                            /* (3) */
}

/* ---- corrected variant (header comment, "Corrected variant") ---------- */

typedef struct pcube_cor {
    const pcube_layout *l;
    int n, vcs;
    double lam, lm, dr, var_len, w_ej;
    double *rate;           /* per channel class: messages per cycle */
    double *s;              /* per pair class: the worm's stretch (C1) */
    double *hold, *hold2;   /* per channel class: E[H], E[H^2] (C2) */
    double *over, *excess;  /* [r]: P(len > b r), E[(len - b r)+] */
    double *ccover;         /* [r]: sum_{t=1..r} P(len > b (t - 1)) */
    int geo, span;          /* geometric lengths; fixed: ceil(len / b) */
    double qb;              /* geometric: P(len > m + b | len > m) */
    double *rr, *pre;       /* cor_spans() */
    int *u_idx;             /* cor_users() */
    double *u_w, *u_wf, *u_e, *sw, *swf2;
    int *hop_x, *hop_m, *hop_start;  /* hop sequence of every pair class */
} pcube_cor;

/* The exponential part of every hold, per pair class and hop position
 * pos = 0 (the injection channel) .. H: rr[hop_start[k] + k + pos] =
 * sum_{t=1..H-pos} cover[t] B(pos + t), the blocking of the hops the worm
 * still spans (the wait for the ejection channel is added by cor_hold).
 * cover[t] is 1 up to the span and 0 beyond for fixed lengths (prefix
 * sums), q^(b (t-1)) for geometric ones (a backward recursion): O(H) per
 * class. */
static void cor_spans(pcube_cor *c, const double *bx)
{
    const pcube_layout *l = c->l;
    int n = c->n;
    for (int k = 0; k < l->nclasses; k++) {
        int h0 = c->hop_start[k], nh = c->hop_start[k + 1] - h0;
        double *rr = &c->rr[h0 + k];
        rr[nh] = 0;
        if (c->geo) {
            for (int pos = nh - 1; pos >= 0; pos--)
                rr[pos] = bx[c->hop_x[h0 + pos] * (n + 1) + c->hop_m[h0 + pos]] +
                          c->qb * rr[pos + 1];
        } else {
            /* rr[pos] = sum over hops pos+1 .. min(pos + span, nh) */
            double *pre = c->pre;
            pre[0] = 0;
            for (int h = 0; h < nh; h++)
                pre[h + 1] = pre[h] +
                             bx[c->hop_x[h0 + h] * (n + 1) + c->hop_m[h0 + h]];
            for (int pos = 0; pos < nh; pos++) {
                int end = pos + c->span < nh ? pos + c->span : nh;
                rr[pos] = pre[end] - pre[pos];
            }
        }
    }
}

/* Hold of the VC a pair of class k takes at its hop position pos (0 = the
 * injection channel, 1..H the hops), after cor_spans: fixed part *f,
 * exponential part *r. */
static void cor_hold(const pcube_cor *c, int k, int pos, double *f,
                     double *r)
{
    int nh = c->hop_start[k + 1] - c->hop_start[k], after = nh - pos;
    *f = 1 + (c->s[k] - 1) * c->lm + c->excess[after] +
         c->ccover[after] * (1 + c->dr);
    *r = c->rr[c->hop_start[k] + k + pos] + c->over[after] * c->w_ej;
}

/* Second moment of a hold with fixed part f, exponential part of mean r
 * and, while the worm reaches the destination, the stretched length's own
 * variance. */
static double cor_hold2(const pcube_cor *c, int k, int after, double f,
                        double r)
{
    return f * f + 2 * f * r + 2 * r * r +
           c->over[after] * c->s[k] * c->s[k] * c->var_len;
}

/* The per-user constants of cor_map (the fixed parts do not depend on the
 * blocking): for user u of channel class x, u_idx its rr[] entry, u_w its
 * traffic weight omega, u_wf = omega x fixed part, u_e = P(the worm still
 * reaches the destination) x W_ej; per channel class the sums of omega,
 * omega f and omega (f^2 + the length's variance). */
static void cor_users(pcube_cor *c)
{
    const pcube_layout *l = c->l;
    int n = c->n;
    for (int x = 0; x < l->nchan; x++) {
        double sw = 0, swf2 = 0;
        for (int u = l->user_start[x]; u < l->user_start[x + 1]; u++) {
            const pcube_user *pu = &l->users[u];
            const pcube_class *pc = &l->cls[pu->cls];
            /* hop position of channel class x on this class's path */
            int pos = x < n ? pc->n10 + pc->n11 - (x + 1) + 1
                            : pc->n10 + (x - n) - pc->n11 + 1;
            int after = pc->n10 + pc->n01 - pos;
            double f, r;
            cor_hold(c, pu->cls, pos, &f, &r);    /* r: W_ej part only */
            c->u_idx[u] = c->hop_start[pu->cls] + pu->cls + pos;
            c->u_w[u] = pu->omega;
            c->u_wf[u] = pu->omega * f;
            c->u_e[u] = c->over[after] * c->w_ej;
            sw += pu->omega;
            swf2 += pu->omega * cor_hold2(c, pu->cls, after, f, 0);
        }
        c->sw[x] = sw;
        c->swf2[x] = swf2;
    }
}

static model_status cor_map(void *ctx, const double *bx, double *fx)
{
    pcube_cor *c = ctx;
    const pcube_layout *l = c->l;
    int n = c->n, v = c->vcs;
    cor_spans(c, bx);
    for (int x = 0; x < l->nchan; x++) {
        /* E[H] = sum w (f + r) / sum w, E[H^2] adds 2 f r + 2 r^2
         * (cor_hold2) */
        double swf = 0, swr = 0, swfr = 0, swr2 = 0;
        for (int u = l->user_start[x]; u < l->user_start[x + 1]; u++) {
            double r = c->rr[c->u_idx[u]] + c->u_e[u];
            double wr = c->u_w[u] * r;
            swf += c->u_wf[u];
            swr += wr;
            swfr += c->u_wf[u] * r;
            swr2 += wr * r;
        }
        double hold = (swf + swr) / c->sw[x], a = c->rate[x] * hold;
        if (!(a < v))
            return MODEL_SATURATED;
        c->hold[x] = hold;
        c->hold2[x] = (c->swf2[x] + 2 * swfr + 2 * swr2) / c->sw[x];
        double p = erlang_c(v, a);
        double resid = c->hold2[x] / (2 * hold);
        double pm = 1;
        fx[x * (n + 1)] = 0;
        for (int m = 1; m <= n; m++) {
            pm *= p;
            fx[x * (n + 1) + m] = pm * resid / (m * (v - a));
        }
    }
    return MODEL_CONVERGED;
}

static int eval_corrected(const net_design *d, const net_workload *w,
                          double rate, const model_opts *opts,
                          model_result *out)
{
    pcube_cor c;
    c.n = d->n;
    c.vcs = d->vcs;
    c.lam = rate;
    c.lm = net_message_flits(d, w);
    c.dr = d->router_delay;
    double lm2 = model_length_m2(d, w);
    c.var_len = lm2 - c.lm * c.lm;
    if (!(c.lam * c.lm < 1))
        return model_result_fail(out, MODEL_SATURATED, 0);
    pcube_layout l;
    pcube__layout_init(&l, c.n);
    c.l = &l;
    int n = c.n, nx = l.nchan * (n + 1), ret;
    if (nx > MODEL_SOLVE_MAX) {      /* not for n <= NET_MAX_DIMS = 24 */
        pcube__layout_fini(&l);
        return model_result_fail(out, MODEL_NOCONVERGE, 0);
    }
    c.rate = xmalloc(sizeof *c.rate * (size_t)l.nchan);
    c.s = xmalloc(sizeof *c.s * (size_t)l.nclasses);
    c.hold = xmalloc(sizeof *c.hold * (size_t)l.nchan);
    c.hold2 = xmalloc(sizeof *c.hold2 * (size_t)l.nchan);
    c.over = xmalloc(sizeof *c.over * (size_t)(n + 1));
    c.excess = xmalloc(sizeof *c.excess * (size_t)(n + 1));
    c.ccover = xmalloc(sizeof *c.ccover * (size_t)(n + 1));
    c.rr = xmalloc(sizeof *c.rr * (size_t)l.nclasses * (size_t)(n + 1));
    c.pre = xmalloc(sizeof *c.pre * (size_t)(n + 1));
    c.u_idx = xmalloc(sizeof *c.u_idx * (size_t)l.user_start[l.nchan]);
    c.u_w = xmalloc(sizeof *c.u_w * (size_t)l.user_start[l.nchan]);
    c.u_wf = xmalloc(sizeof *c.u_wf * (size_t)l.user_start[l.nchan]);
    c.u_e = xmalloc(sizeof *c.u_e * (size_t)l.user_start[l.nchan]);
    c.sw = xmalloc(sizeof *c.sw * (size_t)l.nchan);
    c.swf2 = xmalloc(sizeof *c.swf2 * (size_t)l.nchan);
    c.hop_start = xmalloc(sizeof *c.hop_start * (size_t)(l.nclasses + 1));
    c.hop_x = xmalloc(sizeof *c.hop_x * (size_t)l.nclasses * (size_t)n);
    c.hop_m = xmalloc(sizeof *c.hop_m * (size_t)l.nclasses * (size_t)n);
    double *bx = xmalloc(sizeof *bx * (size_t)nx);

    /* Length tails: P(len > m) and E[(len - m)+] at m = b r. */
    int geo = w->length == NET_LENGTH_EXPONENTIAL;
    double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    double q = c.lm > 1 ? 1.0 - 1.0 / c.lm : 0.0;
    c.geo = geo;
    c.qb = pow(q, b);
    c.span = (int)fmin(ceil(c.lm / b), (double)n);
    for (int r = 0; r <= n; r++) {
        double m = b * r;
        if (geo) {
            c.over[r] = pow(q, m);
            c.excess[r] = c.lm * c.over[r];
        } else {
            c.over[r] = c.lm > m ? 1.0 : 0.0;
            c.excess[r] = c.lm > m ? c.lm - m : 0.0;
        }
        c.ccover[r] = r >= 1 ? c.ccover[r - 1] + c.over[r - 1] : 0;
    }

    /* C1: channel rates, hop sequences and each pair class's stretch. */
    int status = MODEL_CONVERGED, nh = 0;
    for (int x = 0; x < l.nchan; x++)
        c.rate[x] = c.lam * l.rate_unit[x];
    double sbar = 0, s2bar = 0, pairs = 0;
    for (int k = 0; k < l.nclasses; k++) {
        const pcube_class *pc = &l.cls[k];
        int hn = pc->n10, hp = pc->n01, ws = pc->n10 + pc->n11;
        c.hop_start[k] = nh;
        model_worm_path path;
        path.nseg = 0;
        for (int i = 1; i <= hn; i++, nh++) {
            c.hop_x[nh] = pcube__neg(n, ws - i + 1);
            c.hop_m[nh] = hn - i + 1;
        }
        for (int i = 1; i <= hp; i++, nh++) {
            c.hop_x[nh] = pcube__pos(n, pc->n11 + i - 1);
            c.hop_m[nh] = hp - i + 1;
        }
        for (int h = c.hop_start[k]; h < nh; h++) {
            path.cross[path.nseg] = 1;
            path.hops[path.nseg] = 1;
            path.stall[path.nseg++] =
                model_ps_stall(c.rate[c.hop_x[h]] * c.lm, c.vcs);
        }
        c.s[k] = model_worm_stretch(d, w, rate, &path);
        /* C1': no faster than through its busiest spanned stage alone
         * (the exact M/M/1-PS stretch 1 + stall of that stage), each
         * weighted as in model_worm_stretch by P(still spanned) */
        int nhk = nh - c.hop_start[k];
        double smax = c.over[nhk] * model_ps_stall(rate * c.lm, c.vcs);
        for (int g = 0; g < path.nseg; g++)
            smax = fmax(smax, c.over[nhk - 1 - g] * path.stall[g]);
        if (isfinite(c.s[k]) && 1 + smax > c.s[k])
            c.s[k] = 1 + smax;
        if (!isfinite(c.s[k]))
            status = MODEL_SATURATED;
        sbar += pc->mult * c.s[k];
        s2bar += pc->mult * c.s[k] * c.s[k];
        pairs += pc->mult;
    }
    c.hop_start[l.nclasses] = nh;
    sbar /= pairs;
    s2bar /= pairs;

    /* C4: the ejection channel, held for the worm's drain. */
    c.w_ej = 0;
    if (status == MODEL_CONVERGED && d->ejection_channels == 1 &&
        wait_mg1_pk(c.lam, sbar * c.lm, s2bar * lm2, &c.w_ej) !=
            MODEL_CONVERGED)
        status = MODEL_SATURATED;

    int iterations = 0;
    if (status == MODEL_CONVERGED) {
        for (int i = 0; i < nx; i++)
            bx[i] = 0;
        cor_spans(&c, bx);      /* rr = 0: cor_users reads the fixed parts */
        cor_users(&c);
        status = model_solve(cor_map, &c, bx, nx, opts, &iterations);
    }
    if (status != MODEL_CONVERGED) {
        ret = model_result_fail(out, status, iterations);
    } else {
        /* C5: network latency per pair class; C6: the injection VCs. */
        double net = 0, h1 = 0, h2 = 0;
        for (int k = 0; k < l.nclasses; k++) {
            const pcube_class *pc = &l.cls[k];
            int hops = pc->n10 + pc->n01;
            double blk = 0;
            for (int h = c.hop_start[k]; h < c.hop_start[k + 1]; h++)
                blk += bx[c.hop_x[h] * (n + 1) + c.hop_m[h]];
            net += pc->mult *
                   (hops * (1 + c.dr) + blk + c.w_ej + c.s[k] * c.lm);
            double f, r;
            cor_hold(&c, k, 0, &f, &r);
            h1 += pc->mult * (f + r);
            h2 += pc->mult * cor_hold2(&c, k, hops, f, r);
        }
        net /= pairs;
        h1 /= pairs;
        h2 /= pairs;
        double a = c.lam * h1;
        if (!(a < c.vcs)) {
            ret = model_result_fail(out, MODEL_SATURATED, iterations);
        } else {
            double ws = erlang_c(c.vcs, a) * h2 / (2 * h1) / (c.vcs - a);
            ret = model_result_ok(out, ws + net, net, ws, sbar, iterations);
        }
    }
    free(bx);
    free(c.rate);
    free(c.s);
    free(c.hold);
    free(c.hold2);
    free(c.over);
    free(c.excess);
    free(c.ccover);
    free(c.rr);
    free(c.pre);
    free(c.u_idx);
    free(c.u_w);
    free(c.u_wf);
    free(c.u_e);
    free(c.sw);
    free(c.swf2);
    free(c.hop_start);
    free(c.hop_x);
    free(c.hop_m);
    pcube__layout_fini(&l);
    return ret;
}

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
    if (opts->variant == MODEL_VARIANT_CORRECTED) {
        if (model__screen(d, w, rate) || !(rate >= 0) || !isfinite(rate))
            return model_result_fail(out, MODEL_SATURATED, 0);
        return eval_corrected(d, w, rate, opts, out);
    }
    /* The physical screen (model__screen, models/bound.c). */
    if (model__screen(d, w, rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    if (!(rate >= 0) || !isfinite(rate))
        return model_result_fail(out, MODEL_SATURATED, 0);
    pcube_ctx c;
    c.n = d->n;
    c.vcs = d->vcs;
    c.printed = opts->variant == MODEL_VARIANT_PRINTED;
    c.lam = rate;
    c.lm = net_message_flits(d, w);
    c.dr = d->router_delay;
    /* One injection channel (and the paper's one ejection channel) moves a
     * flit per cycle. */
    if (c.lam * c.lm >= 1)
        return model_result_fail(out, MODEL_SATURATED, 0);
    c.w_ej = 0;
    if (d->ejection_channels == 1 &&
        wait_md1(c.lam, c.lm, &c.w_ej) != MODEL_CONVERGED)     /* (25) */
        return model_result_fail(out, MODEL_SATURATED, 0);

    pcube_layout l;
    pcube__layout_init(&l, c.n);
    if (l.nclasses > MODEL_SOLVE_MAX) { /* not for n <= NET_MAX_DIMS = 24 */
        pcube__layout_fini(&l);
        return model_result_fail(out, MODEL_NOCONVERGE, 0);
    }
    c.l = &l;
    c.sx = xmalloc(sizeof *c.sx * (size_t)l.nchan);
    c.pw = xmalloc(sizeof *c.pw * (size_t)l.nchan * (size_t)(c.n + 1));
    c.wait = xmalloc(sizeof *c.wait * (size_t)l.nchan);
    c.vb = xmalloc(sizeof *c.vb * (size_t)l.nchan);
    double *s = xmalloc(sizeof *s * (size_t)l.nclasses);
    for (int k = 0; k < l.nclasses; k++)
        s[k] = (l.cls[k].n10 + l.cls[k].n01) * (1 + c.dr) + c.lm + c.w_ej;

    int iterations = 0, ret;
    model_status st = model_solve(pcube_map, &c, s, l.nclasses, opts,
                                  &iterations);
    if (st != MODEL_CONVERGED)
        ret = model_result_fail(out, st, iterations);
    else
        ret = totals(&c, s, iterations, out);
    free(s);
    free(c.sx);
    free(c.pw);
    free(c.wait);
    free(c.vb);
    pcube__layout_fini(&l);
    return ret;
}

/* A.3: mean Hamming distance n N/(2(N-1)) hops of 1 + Dr cycles, plus Lm. */
static double zero_load(const net_design *d, const net_workload *w,
                        const model_opts *opts)
{
    double nodes = ldexp(1.0, d->n);
    return d->n * nodes / (2 * (nodes - 1)) * (1 + d->router_delay) +
           net_message_flits(d, w);
}

/* Fig.6a: 8-cube, V = 3, M = 32 flits, one ejection channel, no router
 * delay, fixed length. */
static void example(net_design *d, net_workload *w)
{
    net_design_init(d);
    net_workload_init(w);
    d->topology = NET_HYPERCUBE;
    net_design_set_radix(d, 8, 2);
    d->vcs = 3;
    d->routing = NET_ROUTE_PCUBE;
    d->switching = NET_SWITCH_WORMHOLE;
    d->router_delay = 0;
    d->ejection_channels = 1;
    d->width = 1;
    w->message_bits = 32;
    w->length = NET_LENGTH_FIXED;
}

const model model_hcube_pcube = {
    .name = "hcube-pcube",
    .source = "[M1] Patooghy & Sarbazi-Azad 2006, secs.2-3, eqs.(1)-(25)",
    .summary = "hypercube, wormhole, P-cube partially adaptive routing, "
               "uneven channel rates, uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
