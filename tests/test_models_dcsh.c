/*
 * test_models_dcsh.c — the DCSH models of [L99] (dcsh-duato M3,
 * dcsh-hopbased M4, dcsh-det-vc M5, dcsh-det-novc M8) and hcube-duato (M3
 * at k = 2).
 *
 * Oracles, none computed by the code under test:
 *   - zero-load closed forms of docs/models/conventions.md, "Zero-load closed
 *   forms", with d_avg taken from
 *     net_avg_distance() (brute-force-tested in test_net.c);
 *   - M3/M4: an independent solve of the printed equations — the VC chain
 *     from its normalised q-recurrence (2.9)-(2.10) instead of the closed
 *     form, the least fixed point of L = sum p_i L_i(L) by bracketing and
 *     bisection instead of damped iteration;
 *   - M5 and M8: the equations unrolled by hand for n = 2 (and n = 3 for
 *     M8's "l != i" sum);
 *   - hcube-duato against dcsh-duato on a k = 2 DCSH, the same network;
 *   - random valid inputs: never NaN, negative or below zero load.
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

extern const model model_dcsh_duato;
extern const model model_dcsh_hopbased;
extern const model model_dcsh_det_vc;
extern const model model_dcsh_det_novc;
extern const model model_hcube_duato;
extern const model model_hcube_pcube;
extern const model model_hcube_pcs_hotspot;

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(1e-300, fmax(fabs(a), fabs(b)));
}

static double choose(int a, int b)
{
    if (b < 0 || b > a)
        return 0;
    double c = 1;
    for (int i = 1; i <= b; i++)
        c = c * (a - b + i) / i;
    return c;
}

static void dcsh_design(net_design *d, net_workload *w, int n, int k,
                        int vcs, net_routing routing, int lm, int dr)
{
    net_design_init(d);
    net_workload_init(w);
    d->topology = NET_DCSH;
    net_design_set_radix(d, n, k);
    d->vcs = vcs;
    d->routing = routing;
    d->router_delay = dr;
    d->ejection_channels = 1;
    d->width = 1;
    w->message_bits = lm;
    w->length = NET_LENGTH_EXPONENTIAL;
}

/* B1 from the printed recurrence: q_0 = 1, q_v = q_{v-1} a S (v < V),
 * q_V = q_{V-1} a / (1/S - a), normalised by the sum. */
static int chain(double a, double s, int vmax, double *p)
{
    if (a * s >= 1)
        return -1;
    double q[2048], sum = 0;
    q[0] = 1;
    for (int v = 1; v <= vmax; v++)
        q[v] = v < vmax ? q[v - 1] * a * s : q[v - 1] * a / (1 / s - a);
    for (int v = 0; v <= vmax; v++)
        sum += q[v];
    for (int v = 0; v <= vmax; v++)
        p[v] = q[v] / sum;
    return 0;
}

static double vbar_of(const double *p, int vmax)
{
    double a = 0, b = 0;
    for (int v = 1; v <= vmax; v++) {
        a += (double)v * v * p[v];
        b += v * p[v];
    }
    return b > 0 ? a / b : 1;
}

/* ---- zero load (A.3) ---------------------------------------------------- */

static void check_zero_load(const model *m, const net_design *d,
                            const net_workload *w, model_variant v,
                            double closed_form)
{
    model_opts o;
    model_opts_init(&o);
    o.variant = v;
    char why[256];
    assert_int_equal(m->covers(d, w, why, sizeof why), 0);
    double z = m->zero_load(d, w, &o);
    assert_true(rel(z, closed_form) < 1e-12);
    model_result r;
    assert_int_equal(m->eval(d, w, 0.0, &o, &r), 0);
    assert_true(rel(r.latency, z) < 1e-12);
    assert_int_equal(m->eval(d, w, 1e-12, &o, &r), 0);
    assert_true(rel(r.latency, z) < 1e-9);
    assert_int_equal(m->eval(d, w, 1e-9, &o, &r), 0);
    assert_true(r.latency >= z && rel(r.latency, z) < 1e-5);
}

static void test_zero_load(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++)
        for (int k = 2; k <= 9; k += 7)
            for (int dr = 0; dr <= 2; dr++) {
                net_design d;
                net_workload w;
                int lm = 32;
                dcsh_design(&d, &w, n, k, 4, NET_ROUTE_DUATO, lm, dr);
                double davg = net_avg_distance(&d);
                double ps = 1.0 / k;
                /* M3, M4: d_avg (1 + Dr) + Lm */
                for (int v = 0; v < 2; v++) {
                    check_zero_load(&model_dcsh_duato, &d, &w,
                                    (model_variant)v, davg * (1 + dr) + lm);
                    d.routing = NET_ROUTE_HOP_BASED;
                    check_zero_load(&model_dcsh_hopbased, &d, &w,
                                    (model_variant)v, davg * (1 + dr) + lm);
                    d.routing = NET_ROUTE_DUATO;
                }
                /* M5: d_avg + (1 - p_s^n) Lm + Dr x charges; recommended
                 * one Dr per hop, printed sum_i (1-p_s) p_s^i
                 * sum_{j>i} p_s^(j-i-1) */
                d.routing = NET_ROUTE_DETERMINISTIC;
                double printed = 0;
                for (int i = 0; i < n; i++)
                    for (int j = i + 1; j < n; j++)
                        printed += (1 - ps) * pow(ps, i) * pow(ps, j - i - 1);
                check_zero_load(&model_dcsh_det_vc, &d, &w,
                                MODEL_VARIANT_RECOMMENDED,
                                davg + (1 - pow(ps, n)) * lm +
                                    dr * n * (1 - ps));
                check_zero_load(&model_dcsh_det_vc, &d, &w,
                                MODEL_VARIANT_PRINTED,
                                davg + (1 - pow(ps, n)) * lm + dr * printed);
                if (n == 2) /* A.3 verbatim for n = 2 */
                    check_zero_load(&model_dcsh_det_vc, &d, &w,
                                    MODEL_VARIANT_RECOMMENDED,
                                    davg + (1 - ps * ps) * lm +
                                        2 * (1 - ps) * dr);
                /* M8: d_avg + (1 - p_s^n) Lm + n (1 - p_s) Dr; A.3's n = 2
                 * form d_avg + (1 - p_s^2) Lm + 2 (1 - p_s) Dr */
                d.vcs = 1;
                check_zero_load(&model_dcsh_det_novc, &d, &w,
                                MODEL_VARIANT_RECOMMENDED,
                                davg + (1 - pow(ps, n)) * lm +
                                    n * (1 - ps) * dr);
                d.vcs = 4;
            }
    /* hcube-duato: A.3's M3 form with the hypercube's d_avg */
    for (int n = 1; n <= 10; n++) {
        net_design d;
        net_workload w;
        model_hcube_duato.example(&d, &w);
        net_design_set_radix(&d, n, 2);
        d.router_delay = n % 3;
        double nodes = ldexp(1.0, n);
        for (int v = 0; v < 2; v++)
            check_zero_load(&model_hcube_duato, &d, &w, (model_variant)v,
                            n * nodes / (2 * (nodes - 1)) * (1 + n % 3) + 32);
    }
}

/* ---- M3 / M4 against an independent solve ----------------------------- */

/* The printed chapter 2 map F(L); returns -1 outside the chain's range. */
static int adaptive_f(const net_design *d, int lm, double lam, int hop,
                      double L, double *f)
{
    int n = d->n, k = d->k[0], V = d->vcs;
    double nodes = net_nodes(d), davg = net_avg_distance(d);
    double mc = lam * davg / n, p[64];
    if (chain(mc, L, V, p) != 0)
        return -1;
    double pa = p[V] + p[V - 1] / choose(V, V - 1), pc = 0;
    for (int j = 1; j <= V; j++)
        pc += p[j] / choose(V, j) * choose(V - 1, j - 1);
    double wqd = d->ejection_channels ? lam * lm * lm : 0, sum = 0;
    for (int i = 1; i <= n; i++) {
        double li = i * (1.0 + d->router_delay) + lm + wqd;
        for (int h = 1; h <= i; h++)
            li += (hop ? pow(pc, h) : p[V] * pow(pa, h - 1)) * L;
        sum += choose(n, i) * pow(k - 1, i) / (nodes - 1) * li;
    }
    *f = sum;
    return 0;
}

/* Least L with F(L) = L, bracketed by scanning up from the zero-load
 * value and then bisected; -1 when F(L) > L until the chain saturates. */
static int adaptive_root(const net_design *d, int lm, double lam, int hop,
                         double *root)
{
    double lo, f;
    assert_int_equal(adaptive_f(d, lm, lam, hop, 1.0, &f), 0);
    lo = 1.0;
    double hi = lo;
    for (;;) {
        hi *= 1.0001;
        if (adaptive_f(d, lm, lam, hop, hi, &f) != 0)
            return -1;
        if (f < hi)
            break;
        lo = hi;
    }
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        assert_int_equal(adaptive_f(d, lm, lam, hop, mid, &f), 0);
        if (f > mid)
            lo = mid;
        else
            hi = mid;
    }
    *root = 0.5 * (lo + hi);
    return 0;
}

static void test_adaptive_independent(void **state)
{
    (void)state;
    struct {
        int n, k, vcs, lm, dr, eject, hop;
    } cases[] = {
        {2, 16, 2, 32, 0, 1, 0}, {2, 16, 4, 100, 2, 1, 0},
        {3, 4, 3, 16, 1, 0, 0},  {2, 16, 2, 32, 0, 1, 1},
        {3, 5, 3, 64, 2, 1, 1},  {1, 8, 2, 16, 0, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        net_design d;
        net_workload w;
        dcsh_design(&d, &w, cases[c].n, cases[c].k, cases[c].vcs,
                    cases[c].hop ? NET_ROUTE_HOP_BASED : NET_ROUTE_DUATO,
                    cases[c].lm, cases[c].dr);
        d.ejection_channels = cases[c].eject;
        const model *m = cases[c].hop ? &model_dcsh_hopbased
                                      : &model_dcsh_duato;
        model_opts o;
        model_opts_init(&o);
        o.variant = MODEL_VARIANT_RECOMMENDED; /* the printed equations */
        double sat;
        assert_int_equal(model_saturation_rate(m, &d, &w, &o, &sat, NULL), 0);
        o.tolerance = 1e-13;
        for (int i = 1; i <= 4; i++) {
            double lam = sat * i / 4.2, L;
            model_result r;
            assert_int_equal(m->eval(&d, &w, lam, &o, &r), 0);
            assert_int_equal(adaptive_root(&d, cases[c].lm, lam, cases[c].hop,
                                           &L),
                             0);
            assert_true(rel(r.network_latency, L) < 1e-9);
            /* (2.13)-(2.18) */
            double p[2048], pm[2048];
            double mc = lam * net_avg_distance(&d) / d.n;
            int states = (cases[c].k - 1) * cases[c].vcs;
            assert_int_equal(chain(mc, L, cases[c].vcs, p), 0);
            assert_int_equal(chain(mc, L, states, pm), 0);
            double wqs = lam / cases[c].vcs * L * L;
            double lat = (wqs + vbar_of(pm, states) * L) *
                         vbar_of(p, cases[c].vcs);
            assert_true(rel(r.latency, lat) < 1e-9);
            assert_true(rel(r.source_wait, wqs) < 1e-9);
        }
        /* no steady state just above the reported saturation rate */
        double L;
        model_result r;
        o.tolerance = 1e-9;
        assert_int_not_equal(m->eval(&d, &w, sat * 1.01, &o, &r), 0);
        int ind = adaptive_root(&d, cases[c].lm, sat * 1.01, cases[c].hop, &L);
        if (ind == 0) {
            /* the chain's root exists: then a source or ejection guard
             * must be what fails */
            assert_true(sat * 1.01 / cases[c].vcs * L >= 1 ||
                        sat * 1.01 * cases[c].lm >= 1);
        }
    }
}

/* ---- hcube-duato is dcsh-duato at k = 2 ------------------------------- */

static void test_hcube_duato_is_k2(void **state)
{
    (void)state;
    for (int n = 1; n <= 9; n += 2) {
        net_design h, dc;
        net_workload w, wd;
        model_hcube_duato.example(&h, &w);
        net_design_set_radix(&h, n, 2);
        h.vcs = 3;
        h.router_delay = 1;
        dcsh_design(&dc, &wd, n, 2, 3, NET_ROUTE_DUATO, 32, 1);
        wd = w;
        model_opts o;
        model_opts_init(&o);
        o.variant = MODEL_VARIANT_RECOMMENDED;
        double sat;
        assert_int_equal(
            model_saturation_rate(&model_dcsh_duato, &dc, &wd, &o, &sat, NULL),
            0);
        for (int i = 1; i <= 5; i++) {
            double lam = sat * i / 5.5;
            model_result a, b, lit;
            assert_int_equal(model_dcsh_duato.eval(&dc, &wd, lam, &o, &a), 0);
            assert_int_equal(model_hcube_duato.eval(&h, &w, lam, &o, &b), 0);
            o.variant = MODEL_VARIANT_PRINTED;
            assert_int_equal(model_hcube_duato.eval(&h, &w, lam, &o, &lit), 0);
            o.variant = MODEL_VARIANT_RECOMMENDED;
            /* literal k = 2 evaluation: identical */
            assert_true(lit.latency == a.latency);
            /* recommended: same L and W_qs, no input-multiplexer factor;
             * at k = 2 the literal M_avg equals V_avg, so the DCSH's
             * applied factor is V_avg^2 */
            assert_true(rel(b.network_latency, a.network_latency) < 1e-12);
            assert_true(rel(b.source_wait, a.source_wait) < 1e-12);
            double vavg = sqrt(a.vc_multiplexing);
            assert_true(rel(b.vc_multiplexing, vavg) < 1e-12);
            assert_true(rel(b.latency, (b.source_wait + b.network_latency) *
                                           vavg) < 1e-12);
            assert_true(b.latency <= a.latency);
        }
    }
}

/* ---- M5 unrolled for n = 2 -------------------------------------------- */

static double det_vc_n2(int k, int V, double lm, double dr, double lam,
                        int printed, int eject)
{
    double ps = 1.0 / k, phi = (1 - ps) * lam;
    double wqd = eject ? lam * lm * lm : 0;
    double p1[512], p0[512], m1[512], m0[512];
    /* dimension 1 (last): nothing after it */
    double t1 = wqd + lm;
    assert_int_equal(chain(phi, t1, V, p1), 0);
    double tc1 = p1[V] * (wqd + lm); /* a_1 = (1 - p_s^0)^V = 0 */
    double s1 = tc1 + t1;
    /* dimension 0: dimension 1 follows with weight 1 - p_s (printed:
     * p_s^0 = 1) */
    double t0 = (printed ? 1.0 : 1 - ps) * (dr + tc1) + wqd + lm;
    assert_int_equal(chain(phi, t0, V, p0), 0);
    double a0 = pow(1 - ps, V);
    double tc0 = p0[V] * ((1 - a0) * (wqd + lm) + a0 * t0);
    double s0 = tc0 + t0;
    double davg = 2 * (k - 1.0) / k * (k * k) / (k * k - 1.0);
    double L = davg + (1 - ps) * s0 + (1 - ps) * ps * s1 +
               (printed ? 0 : dr * (1 - ps * ps));
    assert_int_equal(chain(phi, t1, (k - 1) * V, m1), 0);
    assert_int_equal(chain(phi, t0, (k - 1) * V, m0), 0);
    double vavg = (vbar_of(p0, V) + vbar_of(p1, V)) / 2;
    double mavg = (vbar_of(m0, (k - 1) * V) + vbar_of(m1, (k - 1) * V)) / 2;
    return (lam / V * L * L + mavg * L) * vavg;
}

static void test_det_vc_unrolled(void **state)
{
    (void)state;
    int ks[] = {2, 4, 16};
    for (size_t ki = 0; ki < 3; ki++)
        for (int V = 1; V <= 4; V += 3)
            for (int printed = 0; printed < 2; printed++) {
                net_design d;
                net_workload w;
                dcsh_design(&d, &w, 2, ks[ki], V, NET_ROUTE_DETERMINISTIC, 32,
                            2);
                d.ejection_channels = printed; /* both ejection settings */
                model_opts o;
                model_opts_init(&o);
                o.variant = printed ? MODEL_VARIANT_PRINTED
                                    : MODEL_VARIANT_RECOMMENDED;
                double sat;
                assert_int_equal(model_saturation_rate(&model_dcsh_det_vc, &d,
                                                       &w, &o, &sat, NULL),
                                 0);
                for (int i = 1; i <= 5; i++) {
                    double lam = sat * i / 5.2;
                    model_result r;
                    assert_int_equal(
                        model_dcsh_det_vc.eval(&d, &w, lam, &o, &r), 0);
                    assert_true(rel(r.latency,
                                    det_vc_n2(ks[ki], V, 32, 2, lam, printed,
                                              printed)) < 1e-12);
                }
            }
}

/* ---- M8 unrolled for n = 2 and n = 3 ---------------------------------- */

static double det_novc_unrolled(int n, int k, double lm, double dr,
                                double lam)
{
    double ps = 1.0 / k, q = 1 - ps, phi = q * lam, mux = (k - 2.0) / (k - 1);
    double wqd = lam * lm * lm, e = wqd + lm, L;
    if (n == 2) {
        double t1 = dr + e, bm1 = mux * phi * t1 * t1;
        double rl1 = q * ps * lam, rp1 = q * q * lam;
        double t0 = dr + ps * e + q * (bm1 + t1 + rl1 * t1 * t1);
        double bm0 = mux * phi * t0 * t0;
        double s0 = bm0 + t0, s1 = rp1 * t1 * t1 + bm1 + t1;
        L = 2 * (k - 1.0) / k * (k * k) / (k * k - 1.0) + q * s0 +
            q * ps * s1;
    } else {
        double rl1 = q * ps * lam, rl2 = q * ps * ps * lam;
        double rp1 = q * q * lam, rp2 = q * q * ps * lam + q * q * lam;
        double t2 = dr + e, bm2 = mux * phi * t2 * t2;
        /* entering 2 after 1: meets R_L[2] and the flow from dim 0 */
        double t1 = dr + ps * e +
                    q * (bm2 + t2 + (rl2 + q * q * ps * lam) * t2 * t2);
        double bm1 = mux * phi * t1 * t1;
        /* after 0: next is 1 (meets R_L[1] only) or 2 (meets R_L[2] and
         * the flow from dim 1) */
        double t0 = dr + ps * ps * e + q * (bm1 + t1 + rl1 * t1 * t1) +
                    q * ps * (bm2 + t2 + (rl2 + q * q * lam) * t2 * t2);
        double bm0 = mux * phi * t0 * t0;
        double s0 = bm0 + t0, s1 = rp1 * t1 * t1 + bm1 + t1;
        double s2 = rp2 * t2 * t2 + bm2 + t2;
        double nodes = (double)k * k * k;
        L = 3 * (k - 1.0) / k * nodes / (nodes - 1) + q * s0 + q * ps * s1 +
            q * ps * ps * s2;
    }
    return lam * L * L + L;
}

static void test_det_novc_unrolled(void **state)
{
    (void)state;
    for (int n = 2; n <= 3; n++)
        for (int k = 2; k <= 32; k *= 4) {
            net_design d;
            net_workload w;
            dcsh_design(&d, &w, n, k, 1, NET_ROUTE_DETERMINISTIC, 16, 1);
            model_opts o;
            model_opts_init(&o);
            o.variant = MODEL_VARIANT_RECOMMENDED; /* the printed equations */
            double sat;
            assert_int_equal(model_saturation_rate(&model_dcsh_det_novc, &d,
                                                   &w, &o, &sat, NULL),
                             0);
            for (int i = 1; i <= 5; i++) {
                double lam = sat * i / 5.2;
                model_result r;
                assert_int_equal(
                    model_dcsh_det_novc.eval(&d, &w, lam, &o, &r), 0);
                assert_true(rel(r.latency, det_novc_unrolled(n, k, 16, 1,
                                                             lam)) < 1e-12);
            }
        }
}

/* ---- curves, coverage, registry order --------------------------------- */

static void check_curve(const model *m, const net_design *d,
                        const net_workload *w)
{
    model_opts o;
    model_opts_init(&o);
    double sat;
    assert_int_equal(model_saturation_rate(m, d, w, &o, &sat, NULL), 0);
    assert_true(sat > 0 && isfinite(sat));
    double prev = m->zero_load(d, w, &o);
    for (int i = 1; i <= 40; i++) {
        model_result r;
        assert_int_equal(m->eval(d, w, sat * i / 40.5, &o, &r), 0);
        assert_true(r.latency >= prev * (1 - 1e-9));
        prev = r.latency;
    }
    model_result r;
    for (double f = 1.001; f < 4; f *= 1.3) {
        assert_int_not_equal(m->eval(d, w, sat * f, &o, &r), 0);
        assert_int_equal(r.saturated, 1);
    }
}

static const model *const dcsh_models[] = {
    &model_dcsh_duato, &model_dcsh_hopbased, &model_dcsh_det_vc,
    &model_dcsh_det_novc,
};

static void test_curves(void **state)
{
    (void)state;
    for (size_t i = 0; i < 4; i++) {
        const model *m = dcsh_models[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        char why[256];
        assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
        check_curve(m, &d, &w);
        d.router_delay = 2;
        w.message_bits = 100;
        check_curve(m, &d, &w);
        net_design_set_radix(&d, 3, 6);
        d.vcs = d.vcs == 1 ? 1 : 3;
        check_curve(m, &d, &w);
    }
}

static void test_covers(void **state)
{
    (void)state;
    char why[256];
    for (size_t i = 0; i < 4; i++) {
        const model *m = dcsh_models[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
        net_design x = d;
        x.k[1] = 8; /* mixed cluster sizes */
        assert_int_equal(m->covers(&x, &w, why, sizeof why), -1);
        x = d;
        x.ejection_channels = 2;
        assert_int_equal(m->covers(&x, &w, why, sizeof why), -1);
        x = d;
        x.topology = NET_TORUS;
        assert_int_equal(m->covers(&x, &w, why, sizeof why), -1);
        net_workload y = w;
        y.traffic = NET_TRAFFIC_TRANSPOSE;
        assert_int_equal(m->covers(&d, &y, why, sizeof why), -1);
        y = w;
        y.traffic = NET_TRAFFIC_HOTSPOT;
        y.hotspot_fraction = 0.1;
        assert_int_equal(m->covers(&d, &y, why, sizeof why), -1);
        x = d;
        x.ejection_channels = 0; /* multiple ejection: covered, W_qd = 0 */
        assert_int_equal(m->covers(&x, &w, why, sizeof why), 0);
    }
    net_design d;
    net_workload w;
    model_dcsh_hopbased.example(&d, &w);
    net_design_set_radix(&d, 3, 16); /* V = 2 < n = 3 */
    assert_int_equal(model_dcsh_hopbased.covers(&d, &w, why, sizeof why), -1);
    model_dcsh_det_novc.example(&d, &w);
    d.vcs = 2;
    assert_int_equal(model_dcsh_det_novc.covers(&d, &w, why, sizeof why), -1);
    assert_int_equal(model_dcsh_det_vc.covers(&d, &w, why, sizeof why), 0);
    d.vcs = 1;
    assert_int_equal(model_dcsh_det_vc.covers(&d, &w, why, sizeof why), 0);
    /* V = 1 designs go to dcsh-det-novc when the registry is asked */
    const model *m = model_for(&d, &w, why, sizeof why);
    if (m) /* the registry lists these models once registered */
        assert_string_equal(m->name, "dcsh-det-novc");
    model_dcsh_duato.example(&d, &w);
    d.vcs = 1;
    assert_int_equal(model_dcsh_duato.covers(&d, &w, why, sizeof why), -1);
}

/* Multiple ejection channels only remove W_qd: lower latency, later
 * saturation. */
static void test_multiple_ejection(void **state)
{
    (void)state;
    for (size_t i = 0; i < 4; i++) {
        const model *m = dcsh_models[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        model_opts o;
        model_opts_init(&o);
        double s1, s0;
        assert_int_equal(model_saturation_rate(m, &d, &w, &o, &s1, NULL), 0);
        net_design e = d;
        e.ejection_channels = 0;
        assert_int_equal(model_saturation_rate(m, &e, &w, &o, &s0, NULL), 0);
        assert_true(s0 > s1);
        model_result a, b;
        assert_int_equal(m->eval(&d, &w, s1 / 2, &o, &a), 0);
        assert_int_equal(m->eval(&e, &w, s1 / 2, &o, &b), 0);
        assert_true(b.latency < a.latency);
    }
}

/* ---- random valid inputs ------------------------------------------------ */

static unsigned next_rand(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void test_random_inputs(void **state)
{
    (void)state;
    const model *all[] = {&model_dcsh_duato,   &model_dcsh_hopbased,
                          &model_dcsh_det_vc,  &model_dcsh_det_novc,
                          &model_hcube_duato,  &model_hcube_pcube,
                          &model_hcube_pcs_hotspot};
    unsigned seed = 2024;
    int converged = 0, saturated = 0;
    for (int t = 0; t < 7000; t++) {
        const model *m = all[t % 7];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        int hyper = d.topology == NET_HYPERCUBE;
        int n = 1 + (int)(next_rand(&seed) % (hyper ? 10 : 4));
        int k = hyper ? 2 : 2 + (int)(next_rand(&seed) % 30);
        net_design_set_radix(&d, n, k);
        if (d.vcs > 1 || d.routing != NET_ROUTE_DETERMINISTIC)
            d.vcs = 1 + (int)(next_rand(&seed) % 8);
        if (d.vcs < net_min_vcs(&d))
            d.vcs = net_min_vcs(&d);
        d.router_delay = (int)(next_rand(&seed) % 4);
        if (d.switching != NET_SWITCH_PCS)
            d.ejection_channels = (int)(next_rand(&seed) % 2);
        d.width = 1 + (int)(next_rand(&seed) % 16);
        w.message_bits = 1 + (int)(next_rand(&seed) % 512);
        w.length = next_rand(&seed) % 2 ? NET_LENGTH_FIXED
                                         : NET_LENGTH_EXPONENTIAL;
        if (w.traffic == NET_TRAFFIC_HOTSPOT)
            w.hotspot_fraction = (next_rand(&seed) % 1000) / 1001.0;
        char why[256];
        assert_int_equal(m->covers(&d, &w, why, sizeof why), 0);
        model_opts o;
        model_opts_init(&o);
        o.variant = next_rand(&seed) % 2 ? MODEL_VARIANT_PRINTED
                                         : MODEL_VARIANT_RECOMMENDED;
        double z = m->zero_load(&d, &w, &o);
        assert_true(isfinite(z) && z > 0);
        double lm = net_message_flits(&d, &w);
        double lam = pow(10, -3 + 3 * (next_rand(&seed) % 10000) / 1e4) / lm;
        model_result r;
        int rc = m->eval(&d, &w, lam, &o, &r);
        assert_true(isfinite(r.latency) && isfinite(r.network_latency) &&
                    isfinite(r.source_wait) && isfinite(r.vc_multiplexing));
        if (rc == 0) {
            converged++;
            assert_int_equal(r.saturated, 0);
            assert_true(r.latency >= z * (1 - 1e-12));
            assert_true(r.network_latency > 0 && r.source_wait >= 0 &&
                        r.vc_multiplexing >= 1);
        } else {
            saturated++;
            assert_int_equal(r.saturated, 1);
            assert_true(r.latency == 0);
        }
    }
    print_message("random inputs: %d converged, %d saturated\n", converged,
                  saturated);
    assert_true(converged > 1000 && saturated > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_adaptive_independent),
        cmocka_unit_test(test_hcube_duato_is_k2),
        cmocka_unit_test(test_det_vc_unrolled),
        cmocka_unit_test(test_det_novc_unrolled),
        cmocka_unit_test(test_curves),
        cmocka_unit_test(test_covers),
        cmocka_unit_test(test_multiple_ejection),
        cmocka_unit_test(test_random_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
