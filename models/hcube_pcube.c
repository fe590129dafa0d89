/*
 * hcube_pcube.c — M1 `hcube-pcube`: wormhole switching with P-cube
 * partially adaptive routing in the binary n-cube, uneven channel traffic.
 *
 * Source: 000_df45ddd866e25f2d.txt (Patooghy & Sarbazi-Azad), sections 2-3,
 * eqs.(1)-(25); MODELS.md M1.  P-cube (negative-first turn model) makes the
 * channel rates depend on the Hamming weight of the nodes a channel joins,
 * so the paper evaluates a service time per (source, destination) pair and
 * per channel.  We use MODELS.md 3a's exact symmetry reduction instead of
 * the N(N-1) pair sums: pairs matter only through their class
 * c = (n00, n01, n10, n11) and channels only through NEG(w)/POS(w)
 * (hcube_pcube_rates.c builds both and the users of every channel class),
 * which is O(n^3) classes and O(n^4) work per iteration.
 * tests/test_models_hcube.c re-derives the model pair by pair for n <= 6.
 *
 * Equations as implemented, unknowns S(c) (MODELS.md M1 3d-3g):
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
 * Resolutions (MODELS.md M1 section 4):
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
 *     d->router_delay = Dr each hop costs 1 + Dr, as in 002 eq.(2.6) and
 *     MODELS.md section 3 item 2; zero load becomes H (1 + Dr) + Lm.
 *   - Ejection: d->ejection_channels == 0 (immediate consumption, the
 *     "multiple ejection channels" of MODELS.md M6 item 6) sets W_ej = 0;
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
 * millisecond; see docs/models.md (hypercube and DCSH part) for the measurement.
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

static int eval(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out)
{
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
    .source = "000_df45ddd866e25f2d.txt secs.2-3, eqs.(1)-(25)",
    .summary = "hypercube, wormhole, P-cube partially adaptive routing, "
               "uneven channel rates, uniform traffic",
    .covers = covers,
    .eval = eval,
    .zero_load = zero_load,
    .example = example,
};
