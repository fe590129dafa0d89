/*
 * test_models_torus.c — the k-ary n-cube family of analytic models
 * (torus-det, torus-duato, torus2d-duato, torus2d-duato-bcast,
 * express-det) and their private helpers (models/torus_common.h).
 *
 * Oracles are independent of the code under test: brute-force enumeration
 * (ring hop moments, compositions of the remaining hops, mean distance over
 * every node pair), the thesis's own closed form P_c = 2/(h+1) ([L99]
 * eq.4.6), hand-derived closed forms (M7's stage lengths at k = 32,
 * kn = 4; the broadcast tree depth at zero load), the B1 closed form, and
 * cross-checks between two independent implementations (torus-duato at
 * n = 2 against torus2d-duato, in every variant).  The corrected variant
 * has its own tests in test_models_torus_corrected.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models/model.h"
#include "models/torus_common.h"

static double rel_diff(double a, double b)
{
    return fabs(a - b) / fmax(fabs(a), fabs(b));
}

static net_design torus(int n, int k, int vcs, net_routing routing)
{
    net_design d;
    net_design_init(&d);
    d.topology = NET_TORUS;
    net_design_set_radix(&d, n, k);
    d.vcs = vcs;
    d.routing = routing;
    return d;
}

static net_workload uniform_bits(int bits, net_length_dist len)
{
    net_workload w;
    net_workload_init(&w);
    w.message_bits = bits;
    w.length = len;
    return w;
}

/* ---- helpers: ring moments, dimensions left ----------------------------- */

static void test_ring_moments_brute_force(void **state)
{
    (void)state;
    for (int k = 3; k <= 41; k++) {
        double sum_x = 0, sum_pairs = 0;
        for (int d = 1; d < k; d++) {
            int x = d < k - d ? d : k - d;
            sum_x += x;
            sum_pairs += x * (x - 1) / 2.0;
        }
        double crossed, remaining;
        model__ring_moments(k, &crossed, &remaining);
        assert_float_equal(crossed, sum_x / (k - 1), 1e-12);
        assert_float_equal(remaining, sum_pairs / sum_x, 1e-12);
        /* B5: the recommended kavg is the exact mean including self */
        assert_float_equal(model__ring_kavg(k, MODEL_VARIANT_RECOMMENDED),
                           sum_x / k, 1e-12);
        assert_float_equal(model__ring_kavg(k, MODEL_VARIANT_PRINTED),
                           k / 4.0, 1e-12);
    }
}

/* Enumerate every split (r_1..r_n) of h, 0 <= r_i <= u; count by the
 * number of non-zero parts. */
static void brute_dims(int n, int u, int h, double *count, double *total)
{
    int r[8] = {0};
    for (int i = 0; i <= n; i++)
        count[i] = 0;
    *total = 0;
    for (;;) {
        int sum = 0, nz = 0;
        for (int i = 0; i < n; i++) {
            sum += r[i];
            nz += r[i] != 0;
        }
        if (sum == h) {
            count[nz] += 1;
            *total += 1;
        }
        int i = 0;
        while (i < n && r[i] == u)
            r[i++] = 0;
        if (i == n)
            break;
        r[i]++;
    }
}

static void test_dims_left_brute_force(void **state)
{
    (void)state;
    const double kavgs[] = {0.75, 1, 1.5, 2, 2.5, 3, 4, 4.25};
    for (int n = 1; n <= 5; n++)
        for (size_t a = 0; a < sizeof kavgs / sizeof kavgs[0]; a++) {
            double kavg = kavgs[a];
            int u = (int)floor(kavg);
            for (int h = 1; h <= (int)ceil(n * kavg) + 1; h++) {
                double count[9], total, p[9];
                brute_dims(n, u, h, count, &total);
                model__torus_dims_left(n, kavg, h, p);
                double sum = 0;
                for (int r = 0; r <= n; r++) {
                    double want = total > 0 ? count[r] / total
                                            : (r == n ? 1.0 : 0.0);
                    assert_float_equal(p[r], want, 1e-12);
                    sum += p[r];
                }
                assert_float_equal(sum, 1.0, 1e-12);
                assert_float_equal(p[0], 0.0, 0);
            }
        }
}

/* [L99] eq.(4.6): with h hops left, P(one dimension left) = 2/(h+1) when
 * h <= k_avg, else 0. */
static void test_dims_left_thesis_n2(void **state)
{
    (void)state;
    for (int kavg = 1; kavg <= 12; kavg++)
        for (int h = 1; h <= 2 * kavg; h++) {
            double p[3];
            model__torus_dims_left(2, kavg, h, p);
            double pc = h <= kavg ? 2.0 / (h + 1) : 0.0;
            assert_float_equal(p[1], pc, 1e-12);
            assert_float_equal(p[2], 1 - pc, 1e-12);
        }
}

static void test_dims_weights_sum_to_distance(void **state)
{
    (void)state;
    for (int n = 1; n <= 6; n++)
        for (int k = 3; k <= 20; k++) {
            double kavg = model__ring_kavg(k, MODEL_VARIANT_RECOMMENDED);
            double w[NET_MAX_DIMS + 1], sum = 0;
            model__torus_dims_weights(n, kavg, w);
            assert_float_equal(w[0], 0.0, 0);
            for (int r = 0; r <= n; r++) {
                assert_true(w[r] >= 0);
                sum += w[r];
            }
            assert_float_equal(sum, n * kavg, 1e-9);
        }
    /* a long ring takes the heap path of the helper */
    double w[2];
    model__torus_dims_weights(1, 1000.5, w);
    assert_float_equal(w[1], 1000.5, 1e-9);
}

/* ---- B1 / B3 identities (the shared machinery the family relies on) ---- */

static void test_b1_b3_identities(void **state)
{
    (void)state;
    double p[MODEL_TORUS_VMAX + 1];
    const double rhos[] = {0, 0.1, 0.5, 0.9, 0.999};
    for (int V = 1; V <= 12; V++)
        for (size_t i = 0; i < sizeof rhos / sizeof rhos[0]; i++) {
            double S = 37.0, lam = rhos[i] / S;
            assert_int_equal(vc_chain_probs(lam, S, V, p), MODEL_CONVERGED);
            double sum = 0;
            for (int v = 0; v <= V; v++)
                sum += p[v];
            assert_float_equal(sum, 1.0, 1e-12);
            assert_float_equal(p[V], pow(rhos[i], V), 1e-12);
            /* the chain's balance: P[V] (1/S - lam) = P[V-1] lam */
            assert_float_equal(p[V] * (1 / S - lam), p[V - 1] * lam, 1e-12);
            double vbar = vc_multiplexing(p, V);
            assert_true(vbar >= 1 - 1e-12 && vbar <= V + 1e-12);
            if (V == 1)
                assert_float_equal(vbar, 1.0, 1e-12);
        }
    assert_int_equal(vc_chain_probs(1.0 / 37, 37.0, 3, p), MODEL_SATURATED);
    double a, b;
    assert_int_equal(wait_mg1_dg(0.01, 32, 32, &a), MODEL_CONVERGED);
    assert_int_equal(wait_md1(0.01, 32, &b), MODEL_CONVERGED);
    /* Draper-Ghosh at S = Lm reduces to M/D/1 (A.3) */
    assert_float_equal(a, b, 1e-12);
}

/* ---- torus-duato reduces to torus2d-duato at n = 2 ---------------------- */

static void test_duato_general_n_reduces_to_2d(void **state)
{
    (void)state;
    const model *m2 = model_find("torus2d-duato");
    const model *mn = model_find("torus-duato");
    assert_non_null(m2);
    assert_non_null(mn);
    const int ks[] = {3, 4, 5, 8, 9, 10, 16, 18};
    const int vcs[] = {3, 5};
    const int drs[] = {0, 2};
    const int bits[] = {16, 100};
    int compared = 0;
    for (size_t a = 0; a < sizeof ks / sizeof ks[0]; a++)
        for (size_t b = 0; b < 2; b++)
            for (size_t c = 0; c < 2; c++)
                for (size_t e = 0; e < 2; e++)
                    for (int variant = 0; variant < MODEL_VARIANT_COUNT;
                         variant++)
                        for (int ej = 0; ej < 2; ej++) {
            net_design d = torus(2, ks[a], vcs[b], NET_ROUTE_DUATO);
            d.router_delay = drs[c];
            d.ejection_channels = ej;
            net_workload w = uniform_bits(bits[e], NET_LENGTH_EXPONENTIAL);
            model_opts o;
            model_opts_init(&o);
            o.variant = (model_variant)variant;
            char why[256];
            assert_int_equal(m2->covers(&d, &w, why, sizeof why), 0);
            assert_int_equal(mn->covers(&d, &w, why, sizeof why), 0);
            assert_float_equal(m2->zero_load(&d, &w, &o),
                               mn->zero_load(&d, &w, &o), 1e-12);
            double sat;
            assert_int_equal(model_saturation_rate(m2, &d, &w, &o, &sat, NULL),
                             0);
            for (int i = 0; i <= 20; i++) {
                double rate = sat * 0.995 * i / 20.0;
                model_result r2, rn;
                int rc2 = m2->eval(&d, &w, rate, &o, &r2);
                int rcn = mn->eval(&d, &w, rate, &o, &rn);
                assert_int_equal(rc2, 0);
                assert_int_equal(rcn, 0);
                assert_true(rel_diff(r2.latency, rn.latency) <= 1e-9);
                assert_true(rel_diff(r2.network_latency, rn.network_latency) <=
                            1e-9);
                compared++;
            }
            double sat_n;
            assert_int_equal(model_saturation_rate(mn, &d, &w, &o, &sat_n,
                                                   NULL),
                             0);
            assert_true(rel_diff(sat, sat_n) <= 2e-4);
        }
    assert_true(compared > 1000);
}

/* More dimensions at the same k: longer paths, more latency at zero load;
 * the blocking weights shift to more dimensions left. */
static void test_duato_general_n_shape(void **state)
{
    (void)state;
    const model *mn = model_find("torus-duato");
    net_workload w = uniform_bits(32, NET_LENGTH_EXPONENTIAL);
    model_opts o;
    model_opts_init(&o);
    double prev_zero = 0;
    for (int n = 1; n <= 4; n++) {
        net_design d = torus(n, 8, 3, NET_ROUTE_DUATO);
        d.router_delay = 1;
        char why[256];
        assert_int_equal(mn->covers(&d, &w, why, sizeof why), 0);
        double zero = mn->zero_load(&d, &w, &o);
        assert_float_equal(zero, n * 2.0 * 2 + 32, 1e-12);
        assert_true(zero > prev_zero);
        prev_zero = zero;
        model_result r;
        assert_int_equal(mn->eval(&d, &w, 1e-13, &o, &r), 0);
        assert_true(rel_diff(r.latency, zero) < 1e-9);
    }
    /* mixed radices are refused with a reason */
    net_design d = torus(2, 8, 3, NET_ROUTE_DUATO);
    d.k[1] = 4;
    char why[256];
    assert_int_equal(mn->covers(&d, &w, why, sizeof why), -1);
    assert_non_null(strstr(why, "radix"));
}

/* ---- torus-det ---------------------------------------------------------- */

static double brute_mean_distance(const net_design *d)
{
    long nodes = net_nodes(d);
    double sum = 0;
    for (long a = 0; a < nodes; a++)
        for (long b = 0; b < nodes; b++)
            sum += net_distance(d, a, b);
    return sum / ((double)nodes * (nodes - 1));
}

static void test_torus_det_zero_load_exact(void **state)
{
    (void)state;
    const model *m = model_find("torus-det");
    assert_non_null(m);
    const int shapes[][4] = {{1, 7, 0, 0}, {1, 12, 0, 0}, {2, 5, 8, 0},
                             {2, 16, 16, 0}, {3, 3, 4, 5}, {3, 6, 6, 6}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int dr = 0; dr <= 2; dr++) {
            net_design d = torus(shapes[s][0], 4, 2, NET_ROUTE_DETERMINISTIC);
            for (int i = 0; i < d.n; i++)
                d.k[i] = shapes[s][1 + i];
            d.router_delay = dr;
            net_workload w = uniform_bits(20, NET_LENGTH_FIXED);
            char why[256];
            assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
            double want = brute_mean_distance(&d) * (1 + dr) + 20;
            model_opts o;
            model_opts_init(&o);
            assert_float_equal(m->zero_load(&d, &w, &o), want, 1e-9);
            model_result r;
            assert_int_equal(m->eval(&d, &w, 1e-13, &o, &r), 0);
            assert_true(rel_diff(r.latency, want) < 1e-9);
            assert_true(rel_diff(r.network_latency, want) < 1e-9);
        }
}

/* More VCs on the same channels: the header is blocked less (P[V] = rho^V
 * falls), so the network latency cannot grow; the design saturates later. */
static void test_torus_det_more_vcs_less_blocking(void **state)
{
    (void)state;
    const model *m = model_find("torus-det");
    net_workload w = uniform_bits(32, NET_LENGTH_EXPONENTIAL);
    model_opts o;
    model_opts_init(&o);
    net_design d2 = torus(2, 16, 2, NET_ROUTE_DETERMINISTIC);
    d2.router_delay = 0;
    double sat2;
    assert_int_equal(model_saturation_rate(m, &d2, &w, &o, &sat2, NULL), 0);
    double prev_sat = sat2;
    for (int V = 3; V <= 6; V++) {
        net_design d = d2;
        d.vcs = V;
        double sat;
        assert_int_equal(model_saturation_rate(m, &d, &w, &o, &sat, NULL), 0);
        assert_true(sat >= prev_sat * (1 - 1e-3));
        prev_sat = sat;
        for (int i = 1; i <= 10; i++) {
            double rate = sat2 * 0.95 * i / 10;
            model_result a, b;
            assert_int_equal(m->eval(&d2, &w, rate, &o, &a), 0);
            assert_int_equal(m->eval(&d, &w, rate, &o, &b), 0);
            assert_true(b.network_latency <= a.network_latency * (1 + 1e-9));
        }
    }
}

/* Radices in a different order: same zero-load latency (the mean distance
 * is symmetric), and every ordering is covered. */
static void test_torus_det_mixed_radix(void **state)
{
    (void)state;
    const model *m = model_find("torus-det");
    net_workload w = uniform_bits(64, NET_LENGTH_FIXED);
    model_opts o;
    model_opts_init(&o);
    net_design a = torus(3, 4, 2, NET_ROUTE_DETERMINISTIC);
    a.k[0] = 4;
    a.k[1] = 8;
    a.k[2] = 16;
    net_design b = a;
    b.k[0] = 16;
    b.k[2] = 4;
    assert_float_equal(m->zero_load(&a, &w, &o), m->zero_load(&b, &w, &o),
                       1e-12);
    double sat;
    assert_int_equal(model_saturation_rate(m, &a, &w, &o, &sat, NULL), 0);
    model_result ra;
    assert_int_equal(m->eval(&a, &w, sat / 2, &o, &ra), 0);
    assert_true(ra.latency > m->zero_load(&a, &w, &o));
}

/* ---- M10 ---------------------------------------------------------------- */

static net_design bcast_design(int k, int vcs)
{
    net_design d = torus(2, k, vcs, NET_ROUTE_DUATO);
    d.router_delay = 0;
    d.ejection_channels = 0;
    return d;
}

static net_workload bcast_workload(int bits, double beta)
{
    net_workload w = uniform_bits(bits, NET_LENGTH_FIXED);
    w.traffic = NET_TRAFFIC_BROADCAST;
    w.broadcast_fraction = beta;
    return w;
}

/* Zero load: unicast M + dbar (A.3); the broadcast completes after
 * 2 floor(k/2) store-and-forward one-hop copies of M + 1 cycles
 * (recommended and corrected) or M (printed, eq.24). */
static void test_bcast_zero_load(void **state)
{
    (void)state;
    const model *m = model_find("torus2d-duato-bcast");
    assert_non_null(m);
    const int ks[] = {3, 8, 10, 16};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        for (int variant = 0; variant < MODEL_VARIANT_COUNT; variant++) {
            int k = ks[i];
            net_design d = bcast_design(k, 4);
            net_workload w = bcast_workload(48, 0.04);
            model_opts o;
            model_opts_init(&o);
            o.variant = (model_variant)variant;
            double kbar = k % 2 ? (k - 1.0 / k) / 4 : k / 4.0;
            assert_float_equal(m->zero_load(&d, &w, &o), 48 + 2 * kbar, 1e-12);
            model_result r;
            assert_int_equal(m->eval(&d, &w, 1e-13, &o, &r), 0);
            assert_true(rel_diff(r.latency, 48 + 2 * kbar) < 1e-9);
            double hop = variant == MODEL_VARIANT_PRINTED ? 48 : 49;
            assert_true(rel_diff(r.broadcast_latency, 2 * (k / 2) * hop) <
                        1e-9);
        }
}

/* More broadcasts load the channels: unicast latency rises with beta at a
 * fixed rate, and the saturation rate falls. */
static void test_bcast_beta_monotone(void **state)
{
    (void)state;
    const model *m = model_find("torus2d-duato-bcast");
    model_opts o;
    model_opts_init(&o);
    net_design d = bcast_design(8, 3);
    double prev_lat = 0, prev_sat = 1;
    for (int i = 0; i <= 4; i++) {
        net_workload w = bcast_workload(32, 0.01 * i);
        model_result r;
        assert_int_equal(m->eval(&d, &w, 0.002, &o, &r), 0);
        assert_true(r.latency > prev_lat);
        prev_lat = r.latency;
        double sat;
        assert_int_equal(model_saturation_rate(m, &d, &w, &o, &sat, NULL), 0);
        assert_true(sat < prev_sat);
        prev_sat = sat;
    }
}

/* The variants differ (channel load, c_d, the hop of a one-hop copy) and
 * both stay above the zero-load latency. */
static void test_bcast_variants_differ(void **state)
{
    (void)state;
    const model *m = model_find("torus2d-duato-bcast");
    net_design d = bcast_design(16, 3);
    net_workload w = bcast_workload(32, 0.04);
    model_opts rec, pr;
    model_opts_init(&rec);
    rec.variant = MODEL_VARIANT_RECOMMENDED;
    model_opts_init(&pr);
    pr.variant = MODEL_VARIANT_PRINTED;
    model_result a, b;
    assert_int_equal(m->eval(&d, &w, 0.001, &rec, &a), 0);
    assert_int_equal(m->eval(&d, &w, 0.001, &pr, &b), 0);
    assert_true(rel_diff(a.latency, b.latency) > 1e-6);
    assert_true(a.latency > m->zero_load(&d, &w, &rec));
    assert_true(b.latency > m->zero_load(&d, &w, &pr));
}

/* A broadcast workload with n = 3 or a uniform one is not M10's. */
static void test_bcast_covers(void **state)
{
    (void)state;
    const model *m = model_find("torus2d-duato-bcast");
    char why[256];
    net_design d = bcast_design(8, 3);
    net_workload w = bcast_workload(32, 0.02);
    assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
    net_workload u = uniform_bits(32, NET_LENGTH_FIXED);
    assert_int_equal(m->covers(&d, &u, why, sizeof why), -1);
    assert_non_null(strstr(why, "broadcast"));
    net_design d3 = torus(3, 8, 3, NET_ROUTE_DUATO);
    assert_int_equal(m->covers(&d3, &w, why, sizeof why), -1);
    assert_non_null(strstr(why, "2D"));
}

/* ---- M7 ----------------------------------------------------------------- */

static net_design express(int k, int kn, int m)
{
    net_design d;
    net_design_init(&d);
    d.topology = NET_EXPRESS;
    net_design_set_radix(&d, 2, k);
    d.express_kn = kn;
    d.express_m = m;
    d.vcs = 2;
    return d;
}

/* k = 32, kn = 4 by hand from (6.2)-(6.4): h' = 8, kB = 2.5,
 * kE = floor(2 - 1/8 - 1/2) = 1, kF = 1 + (8 - 2.5) mod 4 = 2.5,
 * k_avg = 6, d_avg = 12.  Zero load (A.3) with Lm = 32, Dr = 1:
 * 12 + (1 - 1/1024) 32 + (1 - 1/32) 12 = 55.59375. */
static void test_express_zero_load_by_hand(void **state)
{
    (void)state;
    const model *m = model_find("express-det");
    assert_non_null(m);
    net_design d = express(32, 4, 1);
    d.router_delay = 1;
    net_workload w = uniform_bits(32, NET_LENGTH_EXPONENTIAL);
    model_opts o;
    model_opts_init(&o);
    char why[256];
    assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
    assert_float_equal(m->zero_load(&d, &w, &o), 55.59375, 1e-12);
    model_result r;
    assert_int_equal(m->eval(&d, &w, 1e-13, &o, &r), 0);
    assert_true(rel_diff(r.latency, 55.59375) < 1e-9);
}

static void test_express_domain(void **state)
{
    (void)state;
    const model *m = model_find("express-det");
    net_workload w = uniform_bits(32, NET_LENGTH_EXPONENTIAL);
    char why[256];
    net_design ok = express(28, 4, 1);     /* 28 >= 26 */
    assert_int_equal(m->covers(&ok, &w, why, sizeof why), 0);
    net_design small = express(24, 4, 1);  /* 24 < 6*4+2 */
    assert_int_equal(m->covers(&small, &w, why, sizeof why), -1);
    assert_non_null(strstr(why, "6 kn + 2"));
    net_design small2 = express(12, 2, 1); /* 12 < 14 */
    assert_int_equal(m->covers(&small2, &w, why, sizeof why), -1);
    net_design ok2 = express(14, 2, 3);
    assert_int_equal(m->covers(&ok2, &w, why, sizeof why), 0);
}

/* More express channels share the express traffic: latency at a fixed rate
 * cannot rise with m, and the zero-load latency does not depend on m. */
static void test_express_more_channels_help(void **state)
{
    (void)state;
    const model *m = model_find("express-det");
    net_workload w = uniform_bits(32, NET_LENGTH_EXPONENTIAL);
    model_opts o;
    model_opts_init(&o);
    net_design d1 = express(32, 4, 1);
    d1.router_delay = 0;
    double sat1;
    assert_int_equal(model_saturation_rate(m, &d1, &w, &o, &sat1, NULL), 0);
    for (int mm = 2; mm <= 4; mm++) {
        net_design d = d1;
        d.express_m = mm;
        assert_float_equal(m->zero_load(&d, &w, &o), m->zero_load(&d1, &w, &o),
                           1e-12);
        for (int i = 1; i <= 10; i++) {
            model_result a, b;
            double rate = sat1 * 0.95 * i / 10;
            assert_int_equal(m->eval(&d1, &w, rate, &o, &a), 0);
            assert_int_equal(m->eval(&d, &w, rate, &o, &b), 0);
            assert_true(b.latency <= a.latency * (1 + 1e-9));
        }
    }
}

/* ---- selection ---------------------------------------------------------- */

static void test_priority(void **state)
{
    (void)state;
    char why[2048];
    net_design d = torus(2, 16, 3, NET_ROUTE_DUATO);
    net_workload w = uniform_bits(32, NET_LENGTH_EXPONENTIAL);
    const model *m = model_for(&d, &w, why, sizeof why);
    assert_non_null(m);
    assert_string_equal(m->name, "torus2d-duato");
    d = torus(3, 8, 3, NET_ROUTE_DUATO);
    m = model_for(&d, &w, why, sizeof why);
    assert_non_null(m);
    assert_string_equal(m->name, "torus-duato");
    d = torus(2, 8, 3, NET_ROUTE_DUATO);
    net_workload b = bcast_workload(32, 0.02);
    m = model_for(&d, &b, why, sizeof why);
    assert_non_null(m);
    assert_string_equal(m->name, "torus2d-duato-bcast");
    d = torus(3, 8, 2, NET_ROUTE_DETERMINISTIC);
    m = model_for(&d, &w, why, sizeof why);
    assert_non_null(m);
    assert_string_equal(m->name, "torus-det");
    d = express(32, 4, 1);
    m = model_for(&d, &w, why, sizeof why);
    assert_non_null(m);
    assert_string_equal(m->name, "express-det");
}

/* Every model of the family at its example: the default (corrected) and
 * printed variants both work, and a NULL opts means the defaults. */
static void test_family_examples(void **state)
{
    (void)state;
    const char *names[] = {"torus-det", "torus-duato", "torus2d-duato",
                           "torus2d-duato-bcast", "express-det"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const model *m = model_find(names[i]);
        assert_non_null(m);
        net_design d;
        net_workload w;
        m->example(&d, &w);
        model_opts o;
        model_opts_init(&o);
        double sat;
        assert_int_equal(model_saturation_rate(m, &d, &w, &o, &sat, NULL), 0);
        model_result a, b;
        assert_int_equal(m->eval(&d, &w, sat / 2, &o, &a), 0);
        assert_int_equal(m->eval(&d, &w, sat / 2, NULL, &b), 0);
        assert_float_equal(a.latency, b.latency, 0);
        o.variant = MODEL_VARIANT_PRINTED;
        assert_int_equal(m->eval(&d, &w, sat / 4, &o, &b), 0);
        assert_true(b.latency >= m->zero_load(&d, &w, &o));
        /* invalid rates are refused, never a number */
        assert_int_not_equal(m->eval(&d, &w, -1, NULL, &a), 0);
        assert_int_not_equal(m->eval(&d, &w, NAN, NULL, &a), 0);
        assert_true(a.saturated);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_moments_brute_force),
        cmocka_unit_test(test_dims_left_brute_force),
        cmocka_unit_test(test_dims_left_thesis_n2),
        cmocka_unit_test(test_dims_weights_sum_to_distance),
        cmocka_unit_test(test_b1_b3_identities),
        cmocka_unit_test(test_duato_general_n_reduces_to_2d),
        cmocka_unit_test(test_duato_general_n_shape),
        cmocka_unit_test(test_torus_det_zero_load_exact),
        cmocka_unit_test(test_torus_det_more_vcs_less_blocking),
        cmocka_unit_test(test_torus_det_mixed_radix),
        cmocka_unit_test(test_bcast_zero_load),
        cmocka_unit_test(test_bcast_beta_monotone),
        cmocka_unit_test(test_bcast_variants_differ),
        cmocka_unit_test(test_bcast_covers),
        cmocka_unit_test(test_express_zero_load_by_hand),
        cmocka_unit_test(test_express_domain),
        cmocka_unit_test(test_express_more_channels_help),
        cmocka_unit_test(test_priority),
        cmocka_unit_test(test_family_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
