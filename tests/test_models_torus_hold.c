/*
 * test_models_torus_hold.c — the worm's VC holding time of the corrected
 * torus models (model__torus_hold, model__torus_hold_any; docs/models/corrected.md,
 * "The worm's holding time"), against a brute force over every (source,
 * destination) pair of small tori:
 *
 *   every channel visit of every dimension-order path (+ at a tie), with r
 *   hops left after the channel: the hops the worm still spans (the first
 *   min(r, span) after it, each credited to its dimension), the flits that
 *   drain after the header arrives (len - b r)+ and whether the worm waits
 *   for the ejection channel (len > b r), averaged over the visits of one
 *   dimension (hold) or of all (hold_any); for fixed lengths directly, for
 *   geometric ones weighting hop t by P(len >= b(t-1) + 1) = q^(b(t-1)).
 *
 * The same per direction (model__torus_hold_dir, model__ring_dirs;
 * torus-det (g)): the visits of one direction, the counted hops credited to
 * (dimension, direction), and their visit-weighted mean the pooled hold.
 *
 * Plus the limits that tie it to the sources' remaining latency: at r = 0
 * (a ring of 3) the holding time is 1 + Lm + W_qd, as before; for a worm
 * much longer than the path every hop counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/torus_common.h"

typedef struct brute_hold {
    double coef[NET_MAX_DIMS], drain, out, visits;
} brute_hold;

/* P(len > m), E[(len - m)+] */
static void tail(double lm, int geo, double m, double *over, double *excess)
{
    if (geo) {
        double q = 1 - 1 / lm;
        *over = pow(q, m);
        *excess = lm * *over;
    } else {
        *over = lm > m;
        *excess = lm > m ? lm - m : 0;
    }
}

/* One visit: the dimensions of the hops after the channel in path order
 * (dims[0..r-1]). */
static void visit(brute_hold *h, const int *dims, int r, double lm, int geo,
                  int b)
{
    for (int t = 1; t <= r; t++) {
        double over, excess;
        tail(lm, geo, (double)b * (t - 1), &over, &excess);
        h->coef[dims[t - 1]] += over;
    }
    double over, excess;
    tail(lm, geo, (double)b * r, &over, &excess);
    h->drain += excess;
    h->out += over;
    h->visits += 1;
}

/* Dimension-order path s -> t: dims of its hops in order; returns the
 * count. */
static int path_dims(const net_design *d, long s, long t, int *dims)
{
    int cs[NET_MAX_DIMS], ct[NET_MAX_DIMS], n = 0;
    net_coords(d, s, cs);
    net_coords(d, t, ct);
    for (int i = 0; i < d->n; i++) {
        int k = d->k[i], x = ((ct[i] - cs[i]) % k + k) % k;
        int hops = x <= k - x ? x : k - x;
        for (int j = 0; j < hops; j++)
            dims[n++] = i;
    }
    return n;
}

static void brute(const net_design *d, double lm, int geo, int dim,
                  brute_hold *h)
{
    memset(h, 0, sizeof *h);
    long nodes = net_nodes(d);
    int dims[256];
    for (long s = 0; s < nodes; s++)
        for (long t = 0; t < nodes; t++) {
            if (s == t)
                continue;
            int n = path_dims(d, s, t, dims);
            for (int p = 0; p < n; p++)
                if (dim < 0 || dims[p] == dim)
                    visit(h, dims + p + 1, n - p - 1, lm, geo,
                          d->buffer_flits);
        }
    for (int j = 0; j < NET_MAX_DIMS; j++)
        h->coef[j] /= h->visits;
    h->drain /= h->visits;
    h->out /= h->visits;
}

static void check(const net_design *d, int bits, net_length_dist len)
{
    net_workload w;
    net_workload_init(&w);
    w.message_bits = bits;
    w.length = len;
    double lm = net_message_flits(d, &w);
    int geo = len == NET_LENGTH_EXPONENTIAL;
    for (int i = 0; i < d->n; i++) {
        brute_hold b;
        brute(d, lm, geo, i, &b);
        model_hold h;
        model__torus_hold(d, &w, i, &h);
        for (int j = 0; j < d->n; j++)
            if (fabs(h.coef[j] - b.coef[j]) > 1e-9 * fmax(1, b.coef[j]))
                fail_msg("dim %d: coef[%d] %.12g, brute %.12g (Lm %g %s)", i,
                         j, h.coef[j], b.coef[j], lm, geo ? "geo" : "fixed");
        assert_true(fabs(h.drain - b.drain) < 1e-9 * fmax(1, b.drain));
        assert_true(fabs(h.out - b.out) < 1e-9);
    }
    brute_hold b;
    brute(d, lm, geo, -1, &b);
    model_hold h;
    model__torus_hold_any(d, &w, &h);
    double all = 0;
    for (int j = 0; j < d->n; j++)
        all += b.coef[j];
    if (fabs(h.coef[0] - all) > 1e-9 * fmax(1, all))
        fail_msg("any: coef %.12g, brute %.12g", h.coef[0], all);
    assert_true(fabs(h.drain - b.drain) < 1e-9 * fmax(1, b.drain));
    assert_true(fabs(h.out - b.out) < 1e-9);
}

static net_design torus(int n, const int *k, int buffer)
{
    net_design d;
    net_design_init(&d);
    d.topology = NET_TORUS;
    d.n = n;
    for (int i = 0; i < n; i++)
        d.k[i] = k[i];
    d.buffer_flits = buffer;
    return d;
}

static void test_hold_brute(void **state)
{
    (void)state;
    const int k1[] = {9}, k2[] = {6, 5}, k3[] = {4, 5, 3}, k4[] = {8, 8};
    const int bits[] = {1, 3, 4, 7, 16, 40};
    for (int b = 0; b < 6; b++)
        for (int g = 0; g < 2; g++) {
            net_length_dist len = g ? NET_LENGTH_EXPONENTIAL : NET_LENGTH_FIXED;
            net_design d = torus(1, k1, 1);
            check(&d, bits[b], len);
            d = torus(2, k2, 1);
            check(&d, bits[b], len);
            d = torus(3, k3, 1);
            check(&d, bits[b], len);
            d = torus(2, k4, 2);   /* 2-flit buffers: half the span */
            check(&d, bits[b], len);
        }
}

/* r = 0 always (a ring of 3: one hop): the holding time is 1 + Lm + W_qd,
 * the sources' last-channel value; a worm far longer than any path counts
 * every hop after the channel, g_i of the ring in its own dimension. */
static void test_hold_limits(void **state)
{
    (void)state;
    const int k3[] = {3}, k16[] = {16, 16};
    net_design d = torus(1, k3, 1);
    net_workload w;
    net_workload_init(&w);
    w.message_bits = 20;
    w.length = NET_LENGTH_FIXED;
    model_hold h;
    model__torus_hold(&d, &w, 0, &h);
    assert_float_equal(h.coef[0], 0, 1e-12);
    assert_float_equal(h.drain, 20, 1e-12);
    assert_float_equal(h.out, 1, 1e-12);
    d = torus(2, k16, 1);
    w.message_bits = 1000;
    model__torus_hold(&d, &w, 0, &h);
    double crossed, remaining;
    model__ring_moments(16, &crossed, &remaining);
    assert_float_equal(h.coef[0], remaining, 1e-9);
    /* dimension 1 after dimension 0: crossed with probability 15/16 */
    assert_float_equal(h.coef[1], 15.0 / 16 * crossed, 1e-9);
    assert_float_equal(h.out, 1, 1e-12);
}

/* model__torus_hold_dir and model__ring_dirs (torus-det (g)) against the
 * same walk, the visits of dimension i split by their direction and the
 * counted hops credited to (dimension, direction); and the pooled hold
 * as the visit-weighted mean of the two directions. */
typedef struct brute_dir {
    double coef[NET_MAX_DIMS][2], drain, out, visits;
} brute_dir;

static void brute_dirs(const net_design *d, double lm, int geo, int dim,
                       brute_dir *h)
{
    memset(h, 0, 2 * sizeof *h);
    long nodes = net_nodes(d);
    int cs[NET_MAX_DIMS], ct[NET_MAX_DIMS];
    int dims[256], dirs[256];
    for (long s = 0; s < nodes; s++)
        for (long t = 0; t < nodes; t++) {
            if (s == t)
                continue;
            net_coords(d, s, cs);
            net_coords(d, t, ct);
            int n = 0;
            for (int i = 0; i < d->n; i++) {
                int k = d->k[i], x = ((ct[i] - cs[i]) % k + k) % k;
                int plus = x <= k - x;   /* + at the tie */
                int hops = plus ? x : k - x;
                for (int j = 0; j < hops; j++) {
                    dims[n] = i;
                    dirs[n++] = !plus;
                }
            }
            for (int p = 0; p < n; p++) {
                if (dims[p] != dim)
                    continue;
                brute_dir *b = &h[dirs[p]];
                int r = n - p - 1;
                for (int u = 1; u <= r; u++) {
                    double over, excess;
                    tail(lm, geo, (double)d->buffer_flits * (u - 1), &over,
                         &excess);
                    b->coef[dims[p + u]][dirs[p + u]] += over;
                }
                double over, excess;
                tail(lm, geo, (double)d->buffer_flits * r, &over, &excess);
                b->drain += excess;
                b->out += over;
                b->visits += 1;
            }
        }
    for (int e = 0; e < 2; e++) {
        if (!(h[e].visits > 0))
            continue;
        for (int j = 0; j < NET_MAX_DIMS; j++)
            for (int f = 0; f < 2; f++)
                h[e].coef[j][f] /= h[e].visits;
        h[e].drain /= h[e].visits;
        h[e].out /= h[e].visits;
    }
}

static void check_dirs(const net_design *d, int bits, net_length_dist len)
{
    net_workload w;
    net_workload_init(&w);
    w.message_bits = bits;
    w.length = len;
    double lm = net_message_flits(d, &w);
    int geo = len == NET_LENGTH_EXPONENTIAL;
    for (int i = 0; i < d->n; i++) {
        brute_dir b[2];
        brute_dirs(d, lm, geo, i, b);
        double share[2], hops[2], crossed, remaining;
        model__ring_dirs(d->k[i], share, hops);
        model__ring_moments(d->k[i], &crossed, &remaining);
        assert_float_equal(share[0] * hops[0] + share[1] * hops[1], crossed,
                           1e-12);
        /* the visits of each direction: nodes x share x hops per node */
        long nodes = net_nodes(d);
        model_hold pooled;
        model__torus_hold(d, &w, i, &pooled);
        double mean[NET_MAX_DIMS] = {0}, mdrain = 0, mout = 0;
        model_hold_dir hd[2];
        model__torus_hold_dir(d, &w, i, hd);
        for (int e = 0; e < 2; e++) {
            double want = (double)nodes * (nodes / d->k[i]) * (d->k[i] - 1) *
                          share[e] * hops[e];
            assert_float_equal(b[e].visits, want, 1e-6);
            const model_hold_dir h = hd[e];
            for (int j = 0; j < d->n; j++)
                for (int f = 0; f < 2; f++)
                    if (fabs(h.coef[j][f] - b[e].coef[j][f]) >
                        1e-9 * fmax(1, b[e].coef[j][f]))
                        fail_msg("dim %d dir %d: coef[%d][%d] %.12g, brute "
                                 "%.12g (Lm %g %s)", i, e, j, f,
                                 h.coef[j][f], b[e].coef[j][f], lm,
                                 geo ? "geo" : "fixed");
            assert_true(fabs(h.drain - b[e].drain) <
                        1e-9 * fmax(1, b[e].drain));
            assert_true(fabs(h.out - b[e].out) < 1e-9);
            double wt = share[e] * hops[e] / crossed;
            for (int j = 0; j < d->n; j++)
                mean[j] += wt * (h.coef[j][0] + h.coef[j][1]);
            mdrain += wt * h.drain;
            mout += wt * h.out;
        }
        for (int j = 0; j < d->n; j++)
            assert_true(fabs(mean[j] - pooled.coef[j]) <
                        1e-9 * fmax(1, pooled.coef[j]));
        assert_true(fabs(mdrain - pooled.drain) < 1e-9 * fmax(1, mdrain));
        assert_true(fabs(mout - pooled.out) < 1e-9);
    }
}

static void test_hold_dir_brute(void **state)
{
    (void)state;
    const int k1[] = {8}, k2[] = {6, 5}, k3[] = {4, 5, 3}, k4[] = {2, 7};
    const int bits[] = {1, 4, 16, 40};
    for (int b = 0; b < 4; b++)
        for (int g = 0; g < 2; g++) {
            net_length_dist len = g ? NET_LENGTH_EXPONENTIAL : NET_LENGTH_FIXED;
            net_design d = torus(1, k1, 1);
            check_dirs(&d, bits[b], len);
            d = torus(2, k2, 1);
            check_dirs(&d, bits[b], len);
            d = torus(3, k3, 1);
            check_dirs(&d, bits[b], len);
            d = torus(2, k4, 2);   /* k = 2: no - visit; 2-flit buffers */
            check_dirs(&d, bits[b], len);
        }
}

/* The dateline classes of a ring (model__ring_classes, torus-det (e)),
 * against every (source, destination) pair walked hop by hop with the
 * simulator's rule (sim/topo_cube.c torus_vc_class: class 1 while the
 * current coordinate is below the destination's; + at the tie). */
static void test_ring_classes_brute(void **state)
{
    (void)state;
    for (int k = 2; k <= 17; k++) {
        double want[4 * 17], got[4 * 17];
        memset(want, 0, sizeof want);
        for (int s = 0; s < k; s++)
            for (int b = 0; b < k; b++) {
                int x = ((b - s) % k + k) % k;
                if (x == 0)
                    continue;
                int dir = x <= k - x ? +1 : -1;
                int hops = dir > 0 ? x : k - x;
                int cur = s;
                for (int j = 0; j < hops; j++) {
                    int ch = dir > 0 ? cur : k + cur;
                    want[2 * ch + (cur < b)] += 1;
                    cur = (cur + dir + k) % k;
                }
            }
        model__ring_classes(k, got);
        for (int i = 0; i < 4 * k; i++)
            assert_float_equal(got[i], want[i], 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hold_brute),
        cmocka_unit_test(test_hold_limits),
        cmocka_unit_test(test_hold_dir_brute),
        cmocka_unit_test(test_ring_classes_brute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
