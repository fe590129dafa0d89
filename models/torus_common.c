/*
 * torus_common.c — helpers shared by the k-ary n-cube family of models
 * (see torus_common.h for the contract of each).
 *
 * The "dimensions left" distribution of torus-duato is computed by a
 * dynamic programme over compositions instead of the inclusion-exclusion
 * closed form: every term is a non-negative integer below (u+1)^n <= N,
 * so the counts are exact in doubles and nothing cancels.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "torus_common.h"

int model__torus_covers(const net_design *d, const net_workload *w,
                        net_topology topology, net_routing routing,
                        net_traffic traffic, char *why, size_t why_size)
{
    err e;
    err_clear(&e);
    if (net_check(d, &e) != 0) {
        snprintf(why, why_size, "invalid design: %s", e.msg);
        return -1;
    }
    if (net_workload_check(d, w, &e) != 0) {
        snprintf(why, why_size, "invalid workload: %s", e.msg);
        return -1;
    }
    if (d->topology != topology) {
        snprintf(why, why_size, "needs topology %s, not %s",
                 net_topology_name(topology), net_topology_name(d->topology));
        return -1;
    }
    if (d->routing != routing) {
        snprintf(why, why_size, "needs %s routing, not %s",
                 net_routing_name(routing), net_routing_name(d->routing));
        return -1;
    }
    if (d->switching != NET_SWITCH_WORMHOLE) {
        snprintf(why, why_size, "needs wormhole switching, not %s",
                 net_switching_name(d->switching));
        return -1;
    }
    if (w->traffic != traffic) {
        snprintf(why, why_size, "needs %s traffic, not %s",
                 net_traffic_name(traffic), net_traffic_name(w->traffic));
        return -1;
    }
    if (d->vcs > MODEL_TORUS_VMAX) {
        snprintf(why, why_size, "%d virtual channels: at most %d supported",
                 d->vcs, MODEL_TORUS_VMAX);
        return -1;
    }
    return 0;
}

int model__torus_uniform(const net_design *d, char *why, size_t why_size)
{
    if (net_uniform_radix(d))
        return 0;
    snprintf(why, why_size,
             "needs the same radix in every dimension (mixed radices: use "
             "torus-det)");
    return -1;
}

double model__ring_kavg(int k, model_variant variant)
{
    double kk = k;
    if (k % 2 == 0 || variant == MODEL_VARIANT_PRINTED)
        return kk / 4.0;
    return (kk - 1.0 / kk) / 4.0;
}

void model__ring_moments(int k, double *crossed, double *remaining)
{
    /* x(d) = min(d, k-d), d = 1..k-1.  Even k = 2m: x = 1..m-1 twice and
     * m once; odd k = 2m+1: x = 1..m twice.  Sums in closed form:
     *   sum_{x=1..p} x(x-1) = (p-1) p (p+1) / 3. */
    double m = (double)(k / 2), sum_x, sum_pairs;
    if (k % 2 == 0) {
        sum_x = m * m;
        sum_pairs = (m - 2) * (m - 1) * m / 3.0 + m * (m - 1) / 2.0;
    } else {
        sum_x = m * (m + 1);
        sum_pairs = (m - 1) * m * (m + 1) / 3.0;
    }
    *crossed = sum_x / (k - 1.0);
    *remaining = sum_x > 0 ? sum_pairs / sum_x : 0;
}

/* P(len > m) and E[(len - m)+] for the workload's length distribution. */
static void len_tail(double lm, int geometric, double m, double *over,
                     double *excess)
{
    if (geometric) {
        double q = lm > 1 ? 1.0 - 1.0 / lm : 0.0;
        *over = pow(q, m);
        *excess = lm * *over;          /* memoryless: E[len - m | len > m] */
    } else {
        *over = lm > m ? 1.0 : 0.0;
        *excess = lm > m ? lm - m : 0.0;
    }
}

void model__ring_classes(int k, double *load)
{
    /* + offsets 1..rp (the tie k/2 goes +); - offsets leave r = 1..rm.  A
     * visit with r hops of the ring still to make (this one included) is
     * made by a message with offset x >= r that entered x - r hops back:
     * R - r + 1 of them per channel position. */
    int rp = k / 2, rm = (k - 1) / 2;
    for (int p = 0; p < k; p++) {
        /* + channel p -> p+1: the destination p + r wraps iff r >= k - p,
         * and a visit with the wrap ahead rides class 0 */
        double a0 = 0, a1 = 0;
        for (int r = 1; r <= rp; r++) {
            if (r >= k - p)
                a0 += rp - r + 1;
            else
                a1 += rp - r + 1;
        }
        load[2 * p] = a0;
        load[2 * p + 1] = a1;
        /* - channel p -> p-1: wraps iff r >= p + 1, and then rides class 1
         * (the mirror image) */
        a0 = a1 = 0;
        for (int r = 1; r <= rm; r++) {
            if (r >= p + 1)
                a1 += rm - r + 1;
            else
                a0 += rm - r + 1;
        }
        load[2 * (k + p)] = a0;
        load[2 * (k + p) + 1] = a1;
    }
}

void model__ring_dirs(int k, double share[2], double hops[2])
{
    for (int e = 0; e < 2; e++) {
        int top = e == 0 ? k / 2 : (k - 1) / 2;   /* offsets 1..top */
        share[e] = k > 1 ? top / (k - 1.0) : 0;
        hops[e] = top > 0 ? (top + 1) / 2.0 : 0;
    }
}

void model__torus_hold_dir(const net_design *d, const net_workload *w, int i,
                           model_hold_dir h[2])
{
    const double lm = net_message_flits(d, w);
    const int geo = w->length == NET_LENGTH_EXPONENTIAL;
    const double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    memset(h, 0, 2 * sizeof *h);
    /* the same states and weights as model__torus_hold, shared by the two
     * directions: over[s] = P(len > b s), excess[s] = E[(len - b s)+] */
    int diameter = 0;
    for (int j = i; j < d->n; j++)
        diameter += d->k[j] / 2;
    double span = ceil((geo ? 40.0 * lm : lm) / b);
    int cap = diameter < span ? diameter : (int)span;
    double *buf = xcalloc(5 * ((size_t)cap + 1), sizeof *buf);
    double *dist = buf, *next = buf + cap + 1, *wc = buf + 2 * (cap + 1);
    double *over = buf + 3 * (cap + 1), *excess = buf + 4 * (cap + 1);
    for (int s = 0; s <= cap; s++)
        len_tail(lm, geo, b * s, &over[s], &excess[s]);
    for (int t = 1; t <= cap; t++)
        wc[t] = wc[t - 1] + over[t - 1];
    int k = d->k[i];
    for (int dir = 0; dir < 2; dir++) {
        int top = dir == 0 ? k / 2 : (k - 1) / 2;
        if (top < 1)
            continue;   /* no visit goes this way (k = 2, -) */
        memset(dist, 0, sizeof *dist * ((size_t)cap + 1));
        /* dimension i in direction dir: offsets x = 1..top, one each; over
         * the channel visits, a hops are left after the channel with
         * probability #{x > a} / sum x = (top - a) / (top (top + 1) / 2) */
        double ex = top * (top + 1) / 2.0;
        for (int a = 0; a < top; a++) {
            double pa = (top - a) / ex;
            int s = a < cap ? a : cap;
            dist[s] += pa;
            h[dir].coef[i][dir] += pa * wc[s];
        }
        /* later dimensions, in order: skipped with probability 1/k_j, else
         * y hops in direction e, y = 1..floor(k_j/2) (+) or
         * floor((k_j-1)/2) (-), each with probability 1/k_j */
        for (int j = i + 1; j < d->n; j++) {
            int kj = d->k[j];
            memset(next, 0, sizeof *next * ((size_t)cap + 1));
            for (int s = 0; s <= cap; s++) {
                if (dist[s] == 0)
                    continue;
                next[s] += dist[s] / kj;
                for (int e = 0; e < 2; e++) {
                    int ye = e == 0 ? kj / 2 : (kj - 1) / 2;
                    for (int y = 1; y <= ye; y++) {
                        double py = 1.0 / kj;
                        int t = s + y < cap ? s + y : cap;
                        next[t] += dist[s] * py;
                        h[dir].coef[j][e] += dist[s] * py * (wc[t] - wc[s]);
                    }
                }
            }
            double *tmp = dist;
            dist = next;
            next = tmp;
        }
        for (int s = 0; s <= cap; s++) {
            h[dir].drain += dist[s] * excess[s];
            h[dir].out += dist[s] * over[s];
        }
    }
    free(buf);
}

void model__torus_hold(const net_design *d, const net_workload *w, int i,
                       model_hold *h)
{
    const double lm = net_message_flits(d, w);
    const int geo = w->length == NET_LENGTH_EXPONENTIAL;
    const double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    /* States s = hops counted after the channel, capped where a worm can no
     * longer reach (fixed: its span; geometric: 40 mean spans, beyond which
     * the weights are below e^-40). */
    int diameter = 0;
    for (int j = i; j < d->n; j++)
        diameter += d->k[j] / 2;
    double span = ceil((geo ? 40.0 * lm : lm) / b);
    int cap = diameter < span ? diameter : (int)span;
    double *dist = xcalloc((size_t)cap + 1, sizeof *dist);
    double *next = xcalloc((size_t)cap + 1, sizeof *next);
    double *wc = xcalloc((size_t)cap + 1, sizeof *wc);
    /* wc[s] = sum_{t=1..s} P(worm spans >= t channels) = P(len > b(t-1)) */
    for (int t = 1; t <= cap; t++) {
        double over, excess;
        len_tail(lm, geo, b * (t - 1), &over, &excess);
        wc[t] = wc[t - 1] + over;
    }
    memset(h, 0, sizeof *h);
    /* dimension i itself: hops left in it after a channel, over channel
     * visits: P(a) = P(x > a) / E[x], x the ring hops given it is crossed */
    int k = d->k[i], half = k / 2;
    double ex = 0;
    for (int x = 1; x <= half; x++)
        ex += x * ((k % 2 == 0 && x == half) ? 1.0 : 2.0);
    for (int a = 0; a < half; a++) {
        double tail = 0;   /* (k - 1) P(x > a) */
        for (int x = a + 1; x <= half; x++)
            tail += (k % 2 == 0 && x == half) ? 1.0 : 2.0;
        double pa = tail / ex;
        int s = a < cap ? a : cap;
        dist[s] += pa;
        h->coef[i] += pa * wc[s];
    }
    /* later dimensions, in order: skipped with probability 1/k_j */
    for (int j = i + 1; j < d->n; j++) {
        int kj = d->k[j], hj = kj / 2;
        memset(next, 0, sizeof *next * ((size_t)cap + 1));
        for (int s = 0; s <= cap; s++) {
            if (dist[s] == 0)
                continue;
            next[s] += dist[s] / kj;
            for (int y = 1; y <= hj; y++) {
                double py = ((kj % 2 == 0 && y == hj) ? 1.0 : 2.0) / kj;
                int t = s + y < cap ? s + y : cap;
                next[t] += dist[s] * py;
                h->coef[j] += dist[s] * py * (wc[t] - wc[s]);
            }
        }
        double *tmp = dist;
        dist = next;
        next = tmp;
    }
    for (int s = 0; s <= cap; s++) {
        double over, excess;
        len_tail(lm, geo, b * s, &over, &excess);
        h->drain += dist[s] * excess;
        h->out += dist[s] * over;
    }
    free(dist);
    free(next);
    free(wc);
}

/* E[H0^2 | r hops left after the channel] over the length distribution,
 * H0 = 1 + (1 + Dr) min(r, ceil(len / b)) + (len - b r)+ (len >= 1). */
static double hold0_m2(double lm, int geo, double b, int dr, int r)
{
    double hop = 1.0 + dr, br = b * r;
    if (!geo) {
        double h0 = 1 + hop * fmin((double)r, ceil(lm / b)) +
                    (lm > br ? lm - br : 0);
        return h0 * h0;
    }
    /* geometric on 1, 2, ...: P(len = l) = p q^(l-1), p = 1 / Lm */
    double p = lm > 1 ? 1.0 / lm : 1.0, q = 1.0 - p, m2 = 0, pl = p;
    long top = (long)floor(br);
    for (long l = 1; l <= top && pl > 1e-300; l++) {
        double h0 = 1 + hop * ceil(l / b);
        m2 += pl * h0 * h0;
        pl *= q;
    }
    /* len > b r: H0 = 1 + (1 + Dr) r + X, X = len - b r geometric on
     * 1, 2, ... with mean Lm (memoryless; for non-integer b r the overshoot
     * is taken with the same law) */
    double over = top > 0 ? pow(q, (double)top) : 1.0;
    double a = 1 + hop * r, ex = lm, ex2 = 2 * lm * lm - lm;
    m2 += over * (a * a + 2 * a * ex + ex2);
    return m2;
}

/* P(X = x), x = 0..*diameter, of the minimal hop count X from a node to a
 * destination drawn uniformly over all nodes (itself included: P(X = 0) =
 * 1/N), the rings' offsets convolved; the caller frees it. */
static double *torus_distance_pmf(const net_design *d, int *diameter_out)
{
    int diameter = 0;
    for (int j = 0; j < d->n; j++)
        diameter += d->k[j] / 2;
    double *px = xcalloc((size_t)diameter + 1, sizeof *px);
    double *nx = xcalloc((size_t)diameter + 1, sizeof *nx);
    px[0] = 1;
    int top = 0;
    for (int j = 0; j < d->n; j++) {
        int kj = d->k[j], hj = kj / 2;
        memset(nx, 0, sizeof *nx * ((size_t)diameter + 1));
        for (int s = 0; s <= top; s++) {
            if (px[s] == 0)
                continue;
            nx[s] += px[s] / kj;
            for (int y = 1; y <= hj; y++)
                nx[s + y] += px[s] * ((kj % 2 == 0 && y == hj) ? 1.0 : 2.0) /
                             kj;
        }
        top += hj;
        double *tmp = px;
        px = nx;
        nx = tmp;
    }
    free(nx);
    *diameter_out = diameter;
    return px;
}

static void hold_any_compute(const net_design *d, const net_workload *w,
                             model_hold *h)
{
    const double lm = net_message_flits(d, w);
    const int geo = w->length == NET_LENGTH_EXPONENTIAL;
    const double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    int diameter;
    /* self excluded below */
    double *px = torus_distance_pmf(d, &diameter);
    double p0 = px[0], ex = 0;
    px[0] = 0;
    for (int x = 1; x <= diameter; x++) {
        px[x] /= 1.0 - p0;
        ex += x * px[x];
    }
    memset(h, 0, sizeof *h);
    /* over channel visits: P(r) = P(X > r) / E[X] */
    double tail = 1.0, wc = 0;
    for (int r = 0; r < diameter; r++) {
        tail -= px[r];          /* P(X > r) (px[0] = 0) */
        double pr = tail > 0 ? tail / ex : 0;
        double over, excess;
        if (r > 0) {
            len_tail(lm, geo, b * (r - 1), &over, &excess);
            wc += over;         /* sum_{t=1..r} P(span >= t) */
        }
        len_tail(lm, geo, b * r, &over, &excess);
        h->coef[0] += pr * wc;
        h->drain += pr * excess;
        h->out += pr * over;
        if (pr > 0)
            h->m2 += pr * hold0_m2(lm, geo, b, d->router_delay, r);
    }
    free(px);
}

double model__hold_residual(double s, double s0, double var0)
{
    if (!(s > 0))
        return s;
    double w = s - s0;
    return (s * s + var0 + w * w) / (2 * s);
}

static void hold_source_compute(const net_design *d, const net_workload *w,
                                model_hold *h)
{
    const double lm = net_message_flits(d, w);
    const int geo = w->length == NET_LENGTH_EXPONENTIAL;
    const double b = d->buffer_flits > 0 ? d->buffer_flits : 1;
    int diameter;
    /* destination uniform over the other nodes (as in
     * model__torus_hold_any) */
    double *px = torus_distance_pmf(d, &diameter);
    double p0 = px[0];
    memset(h, 0, sizeof *h);
    /* over messages: the injection VC has the whole path, X hops, ahead */
    double wc = 0;
    for (int x = 1; x <= diameter; x++) {
        double over, excess;
        len_tail(lm, geo, b * (x - 1), &over, &excess);
        wc += over;             /* sum_{t=1..x} P(span >= t) */
        double q = px[x] / (1.0 - p0);
        if (!(q > 0))
            continue;
        len_tail(lm, geo, b * x, &over, &excess);
        h->coef[0] += q * wc;
        h->drain += q * excess;
        h->out += q * over;
        h->m2 += q * hold0_m2(lm, geo, b, d->router_delay, x);
    }
    free(px);
}

/* The two holds depend on the design and the workload only, and the
 * models ask for them at every evaluation (O(diameter^2) and two
 * allocations each): the last answer is kept per thread, as the physical
 * screen's bound is (models/bound.c, model__screen). */
typedef struct hold_memo {
    int valid;
    net_design d;
    net_workload w;
    model_hold h;
} hold_memo;

static void hold_memoized(hold_memo *m, const net_design *d,
                          const net_workload *w, model_hold *h,
                          void (*compute)(const net_design *,
                                          const net_workload *, model_hold *))
{
    if (!m->valid || memcmp(&m->d, d, sizeof *d) != 0 ||
        memcmp(&m->w, w, sizeof *w) != 0) {
        compute(d, w, &m->h);
        memcpy(&m->d, d, sizeof *d);
        memcpy(&m->w, w, sizeof *w);
        m->valid = 1;
    }
    *h = m->h;
}

void model__torus_hold_any(const net_design *d, const net_workload *w,
                           model_hold *h)
{
    static _Thread_local hold_memo memo;
    hold_memoized(&memo, d, w, h, hold_any_compute);
}

void model__torus_hold_source(const net_design *d, const net_workload *w,
                              model_hold *h)
{
    static _Thread_local hold_memo memo;
    hold_memoized(&memo, d, w, h, hold_source_compute);
}

model_status model__duato_source_wait(int vcs, double rate, double h1,
                                      double resid, double *ws)
{
    double a = rate * h1;
    *ws = 0;
    if (!isfinite(a) || a < 0 || !(a < vcs))
        return MODEL_SATURATED;
    if (!(a > 0))
        return MODEL_CONVERGED;
    *ws = erlang_c(vcs, a) * resid / (vcs - a);
    return MODEL_CONVERGED;
}

model_status model__duato_source_wait_path(const net_design *d,
                                           const net_workload *w,
                                           double rate, double per_hop,
                                           double stretch, double wqd,
                                           double *ws)
{
    model_hold src;
    model__torus_hold_source(d, w, &src);
    double dr = d->router_delay;
    double h1 = 1 + src.coef[0] * (stretch + dr + per_hop) +
                stretch * src.drain + src.out * wqd;
    double s0 = 1 + src.coef[0] * (1 + dr) + src.drain;
    double var0 = fmax(0.0, src.m2 - s0 * s0);
    double resid = fmax(0.0, model__hold_residual(h1, s0, var0));
    return model__duato_source_wait(d->vcs, rate, h1, resid, ws);
}

model_status model__duato_ejection(const net_design *d, const net_workload *w,
                                   double rate, model_variant variant,
                                   double *stretch, double *wqd)
{
    *stretch = 1;
    if (variant != MODEL_VARIANT_CORRECTED)
        return model__torus_ejection_worm(d, w, rate, variant, wqd);
    *stretch = model__duato_worm_stretch(d, w, rate);
    return model_ejection_worm(d, rate, net_message_flits(d, w),
                               model_length_m2(d, w), *stretch, wqd);
}

model_status model__wait_ejection(const net_design *d, double lam, double lm,
                                  double *wqd)
{
    *wqd = 0;
    if (d->ejection_channels == 0)
        return MODEL_CONVERGED;
    double lam_e = lam / d->ejection_channels;
    if (!(lam_e * lm < 1))
        return MODEL_SATURATED;
    *wqd = lam_e * lm * lm;
    return MODEL_CONVERGED;
}

model_status model__torus_ejection(const net_design *d, const net_workload *w,
                                   double lam, model_variant variant,
                                   double *wqd)
{
    double lm = net_message_flits(d, w);
    if (variant == MODEL_VARIANT_CORRECTED)
        return model_ejection_mg1(d, lam, lm, model_length_m2(d, w), wqd);
    return model__wait_ejection(d, lam, lm, wqd);
}

void model__torus_worm_path(const net_design *d, double rate,
                            model_worm_path *path)
{
    double nodes = (double)net_nodes(d), excl = nodes / (nodes - 1.0);
    double lm_rate = rate;   /* messages per node per cycle */
    path->nseg = d->n;
    for (int i = 0; i < d->n; i++) {
        double crossed, remaining;
        model__ring_moments(d->k[i], &crossed, &remaining);
        double p = (1.0 - 1.0 / d->k[i]) * excl;
        path->cross[i] = p < 1 ? p : 1;
        path->hops[i] = crossed;
        /* flit load of one channel of dimension i: the message rate on it
         * (lam K_i N/(N-1) / 2, two directions) times Lm, filled in by the
         * caller's Lm below */
        path->stall[i] = lm_rate * p * crossed / 2.0;
    }
}

double model__torus_worm_stretch(const net_design *d, const net_workload *w,
                                 double rate)
{
    double lm = net_message_flits(d, w);
    model_worm_path path;
    model__torus_worm_path(d, rate, &path);
    for (int i = 0; i < path.nseg; i++)
        path.stall[i] = model_ps_stall(path.stall[i] * lm, d->vcs);
    return model_worm_stretch(d, w, rate, &path);
}

model_status model__torus_ejection_worm(const net_design *d,
                                        const net_workload *w, double lam,
                                        model_variant variant, double *wqd)
{
    double lm = net_message_flits(d, w);
    if (variant != MODEL_VARIANT_CORRECTED)
        return model__wait_ejection(d, lam, lm, wqd);
    return model_ejection_worm(d, lam, lm, model_length_m2(d, w),
                               model__torus_worm_stretch(d, w, lam), wqd);
}

int model__duato_close(model_result *out, const net_design *d,
                       const net_workload *w, double rate, double mc,
                       double L, double idle, double hold_tx, double ws,
                       const double *p, model_variant variant,
                       int iterations)
{
    double vavg;
    if (variant != MODEL_VARIANT_CORRECTED) {
        vavg = vc_multiplexing(p, d->vcs);
        return model_result_thesis(out, rate, d->vcs, L, 1.0, vavg,
                                   iterations);
    }
    if (vc_mux_degree(mc, hold_tx, d->vcs, &vavg) != MODEL_CONVERGED)
        return model_result_fail(out, MODEL_SATURATED, iterations);
    /* model_result_corrected's saturation conditions (the injection
     * channel's flit load, (lam/V) L), its closing step, and the source
     * wait the caller derived for the V injection VCs */
    if (!(rate / d->vcs * L < 1) || !(rate * net_message_flits(d, w) < 1) ||
        !(ws >= 0) || !isfinite(ws))
        return model_result_fail(out, MODEL_SATURATED, iterations);
    idle = idle >= 0 ? fmin(idle, L) : 0;
    return model_result_ok(out, ws + (L - idle) * vavg + idle, L, ws, vavg,
                           iterations);
}

const model_opts *model__opts(const model_opts *opts, model_opts *storage)
{
    if (opts)
        return opts;
    model_opts_init(storage);
    return storage;
}

/* ---- dimensions left (torus-duato) ------------------------------------ */

/* cur[s] = number of ways to write s as (previous row's sum) + one part
 * in [0, c]: a sliding-window prefix sum over prev.  c < 0: no part fits. */
static void compositions_step(const double *prev, double *cur, int top, int c)
{
    double window = 0;
    for (int s = 0; s <= top; s++) {
        if (c < 0) {
            cur[s] = 0;
            continue;
        }
        window += prev[s];
        if (s - c - 1 >= 0)
            window -= prev[s - c - 1];
        cur[s] = window;
    }
}

/* out[r] = sum_{h=1..top} wt[h] P(r dims left | h), r = 0..n. */
static void dims_core(int n, int u, int top, const double *wt, double *out)
{
    enum { SMALL = 256 };
    double small[4 * SMALL];
    double *buf = top + 1 <= SMALL ? small : xmalloc(4 * (size_t)(top + 1) *
                                                     sizeof(double));
    double *full = buf, *prev = buf + (top + 1), *cur = buf + 2 * (top + 1),
           *tmp = buf + 3 * (top + 1);
    for (int r = 0; r <= n; r++)
        out[r] = 0;

    /* full[h] = A_n(h): compositions of h into n parts in [0, u]. */
    for (int s = 0; s <= top; s++)
        full[s] = s == 0;
    for (int m = 1; m <= n; m++) {
        compositions_step(full, tmp, top, u);
        memcpy(full, tmp, (size_t)(top + 1) * sizeof(double));
    }
    /* Splits with exactly r non-zero parts: choose them (C(n, r)), then
     * compositions of h into r parts in [1, u], i.e. of h - r into r
     * parts in [0, u-1] (row r of the second table, kept in prev/cur). */
    for (int s = 0; s <= top; s++)
        prev[s] = s == 0;
    for (int r = 1; r <= n; r++) {
        compositions_step(prev, cur, top, u - 1);
        double c = binom(n, r);
        for (int h = r; h <= top; h++)
            if (wt[h] != 0 && full[h] > 0)
                out[r] += wt[h] * c * cur[h - r] / full[h];
        double *swap = prev;
        prev = cur;
        cur = swap;
    }
    /* No split at all: every dimension still to cross (M6's h > K). */
    for (int h = 1; h <= top; h++)
        if (wt[h] != 0 && !(full[h] > 0))
            out[n] += wt[h];
    if (buf != small)
        free(buf);
}

void model__torus_dims_left(int n, double kavg, int h, double *p)
{
    for (int r = 0; r <= n; r++)
        p[r] = 0;
    if (h < 1 || n < 1)
        return;
    double small[257];
    double *wt = h + 1 <= 257 ? small : xcalloc((size_t)h + 1, sizeof(double));
    for (int s = 0; s <= h; s++)
        wt[s] = s == h;
    dims_core(n, (int)floor(kavg), h, wt, p);
    if (wt != small)
        free(wt);
}

void model__torus_dims_weights(int n, double kavg, double *w)
{
    double dist = n * kavg;
    for (int r = 0; r <= n; r++)
        w[r] = 0;
    if (!(dist > 0) || n < 1)
        return;
    /* B6: whole hops 1..floor(D), then the fraction of hop ceil(D). */
    int whole = (int)floor(dist), top = (int)ceil(dist);
    double small[257];
    double *wt = top + 1 <= 257 ? small
                                : xcalloc((size_t)top + 1, sizeof(double));
    wt[0] = 0;
    for (int h = 1; h <= top; h++)
        wt[h] = h <= whole ? 1.0 : dist - whole;
    dims_core(n, (int)floor(kavg), top, wt, w);
    if (wt != small)
        free(wt);
}

/* ---- the Duato tiers (corrected torus2d-duato, torus-duato) ------------ */

model_status model__duato_tiers(double mc, double hold, int vcs, double *pa,
                                double *pe)
{
    int A = vcs - 2, c = A + 1;
    double a = mc * hold;
    if (!isfinite(a) || a < 0 || A < 1 || !(a < c))
        return MODEL_SATURATED;
    /* Erlang B by its recursion (stable for any V): bA = B(A, a), then
     * B(c, a); P(j = A | j < c) = B(A, a) because sum_{j<c} = sum_{j<=A}. */
    double b = 1;
    for (int j = 1; j <= A; j++)
        b = a * b / (j + a * b);
    double ba = b, bc = a * ba / (c + a * ba);
    double erlang_c = c * bc / (c - a * (1 - bc));
    *pe = clamp01(erlang_c);
    *pa = clamp01(erlang_c + (1 - erlang_c) * ba);
    return MODEL_CONVERGED;
}

/* The Duato tori's drain stretch (torus2d_duato.c header (h); CV19): CV6's
 * stages (the injection channel, one stage per dimension)
 * with two changes at a ring's stage.  Each ring's stall counts once per
 * distinct competitor met along the worm's segment, 2 - 1/h per-link
 * stalls for h hops (CV14, model_meanflow_stretch).  And a ring's
 * channel is shared by at most V - 1 of its worms: they hold its V - 2
 * adaptive VCs or the escape VC of their dateline class, and the other
 * class's escape VC is rarely busy at the same time (probed: P(all V busy)
 * 0.001 at V = 3 where Poisson counts of the same mean give 0.011).  The
 * injection stage keeps its V injection VCs. */
double model__duato_worm_stretch(const net_design *d, const net_workload *w,
                                 double rate)
{
    double lm = net_message_flits(d, w);
    model_worm_path path;
    model__torus_worm_path(d, rate, &path);
    for (int i = 0; i < path.nseg; i++) {
        double h = path.hops[i] >= 1 ? path.hops[i] : 1;
        path.stall[i] = model_ps_stall(path.stall[i] * lm, d->vcs - 1) *
                        (2.0 - 1.0 / h);
    }
    return model_worm_stretch(d, w, rate, &path);
}
