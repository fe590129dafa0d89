/*
 * test_model_meanflow.c — model M2 `torus2d-adaptive-meanflow` ([QCC02],
 * docs/models/meanflow.md, "M2 as printed") against the numbers printed in
 * docs/models/meanflow.md and [QCC02]:
 *
 *   - docs/models/meanflow.md, "Reproduced model column", recommended column
 *   (r0 = lam/2), every point to
 *     +-0.01, "saturated" at 16x16 lam = 0.007;
 *   - docs/models/meanflow.md, "Reproduced model column", literal column (r0
 *   = lam/4 with the recommended
 *     equations), every point to +-0.01;
 *   - [QCC02] Tables 1-2 "Model" column (docs/models/meanflow.md, "Printed
 *   tables") within 3% except
 *     the three points docs/models/meanflow.md names;
 *   - the single-resolution figures quoted in docs/models/meanflow.md, "M2 as
 *   printed", item 4 (eq.(25)
 *     beta sum to K-1, printed eq.(39) pairing, the text's sigma2);
 *   - zero-load closed forms (13.600, 15.556, 17.538, 19.529; with router
 *     delay: mean hops (1 + Dr) + Lm), interpolation for k not a multiple
 *     of 4, length variance, coverage, the sliding-mode resolution of the
 *     binary selectors (no islands of non-convergence), and never a NaN.
 *
 * Those check the printed and recommended variants (the paper's model).
 * The corrected variant (links with their V VCs) is checked at the end:
 * its exact zero-load latency, the worm's stretch computed by hand, a
 * saturation rate above the recommended one and within the channel-load
 * bound, monotone sweeps and its V >= 3 coverage.
 *
 * Every expected number here is printed in docs/models/meanflow.md or
 * [QCC02], or is a
 * closed form / identity derived independently of the code under test.
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
#include "models/torus2d_adaptive_meanflow.h"

#define NRATES 12
static const double rates[NRATES] = {0.001, 0.002, 0.003, 0.004,
                                     0.005, 0.006, 0.007, 0.008,
                                     0.009, 0.010, 0.011, 0.015};
static const int sizes[4] = {4, 8, 12, 16};

/* docs/models/meanflow.md, "Reproduced model column"; 0 = not listed, -1 =
 * "saturated". */
static const double a2_recommended[4][NRATES] = {
    {13.65, 13.70, 13.75, 13.80, 13.85, 13.91, 13.97, 14.03, 14.10, 14.16,
     14.23, 14.54},
    {15.71, 15.88, 16.05, 16.23, 16.43, 16.64, 16.87, 17.12, 17.41, 17.73,
     18.12, 20.81},
    {17.84, 18.17, 18.53, 18.95, 19.43, 20.03, 20.83, 21.85, 23.92, 0, 0, 0},
    {19.99, 20.54, 21.22, 22.10, 23.40, 26.21, -1, 0, 0, 0, 0, 0},
};
static const double a2_literal[4][NRATES] = {
    {13.62, 13.65, 13.67, 13.70, 13.72, 13.75, 13.77, 13.80, 13.83, 13.85,
     13.88, 14.00},
    {15.63, 15.71, 15.80, 15.88, 15.97, 16.05, 16.14, 16.23, 16.33, 16.43,
     16.53, 16.99},
    {17.68, 17.84, 18.00, 18.17, 18.34, 18.53, 18.73, 18.95, 19.18, 0, 0, 0},
    {19.75, 19.99, 20.25, 20.54, 20.86, 21.22, 21.63, 0, 0, 0, 0, 0},
};
/* [QCC02] Tables 1-2, "Model" columns (docs/models/meanflow.md, "Printed
 * tables"); 0 = no value. */
static const double table_model[4][NRATES] = {
    {13.65, 13.70, 13.75, 13.81, 13.87, 13.93, 13.98, 14.04, 14.10, 14.17,
     14.23, 14.50},
    {15.73, 15.92, 16.11, 16.31, 16.51, 16.72, 16.94, 17.18, 17.42, 17.69,
     17.97, 19.39},
    {17.90, 18.31, 18.76, 19.27, 19.87, 20.58, 21.40, 22.52, 24.20, 0, 0, 0},
    {20.05, 20.65, 21.37, 22.27, 23.47, 25.34, 29.28, 0, 0, 0, 0, 0},
};

static const model *meanflow(void)
{
    const model *m = model_find("torus2d-adaptive-meanflow");
    assert_non_null(m);
    return m;
}

/* The paper's set-up at radix k: k x k torus, 12-flit fixed messages. */
static void setup(int k, net_design *d, net_workload *w)
{
    meanflow()->example(d, w);
    net_design_set_radix(d, 2, k);
}

static int eval_k(int k, double rate, model_variant v, model_result *r)
{
    net_design d;
    net_workload w;
    setup(k, &d, &w);
    model_opts o;
    model_opts_init(&o);
    o.variant = v;
    return meanflow()->eval(&d, &w, rate, &o, r);
}

static int eval_params(int k, double rate, const model_meanflow_params *p,
                       model_result *r)
{
    model_opts o;
    model_opts_init(&o);
    return model_meanflow_eval(k, 12, 0, 0, rate, p, &o, r);
}

/* ---- docs/models/meanflow.md, "Test oracles" --------------------------- */

static void test_a2_recommended(void **state)
{
    (void)state;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NRATES; i++) {
            double want = a2_recommended[a][i];
            if (want == 0)
                continue;
            model_result r;
            int rc = eval_k(sizes[a], rates[i], MODEL_VARIANT_RECOMMENDED,
                            &r);
            if (want < 0) {
                assert_int_equal(rc, ERR_SATURATED);
                assert_int_equal(r.status, MODEL_SATURATED);
                assert_int_equal(r.saturated, 1);
                assert_true(r.latency == 0);
                continue;
            }
            if (rc != 0 || fabs(r.latency - want) > 0.01)
                fail_msg("%dx%d at %.3f: rc %d latency %.4f, A.2 %.2f",
                         sizes[a], sizes[a], rates[i], rc, r.latency, want);
            /* network latency only: no source queue, no VC multiplexing */
            assert_true(r.network_latency == r.latency);
            assert_true(r.source_wait == 0);
            assert_true(r.vc_multiplexing == 1);
            assert_int_equal(r.status, MODEL_CONVERGED);
            assert_int_equal(r.saturated, 0);
        }
}

static void test_a2_literal_rate(void **state)
{
    (void)state;
    /* A.2's literal column: the recommended equations with r0 = lam/4 */
    model_meanflow_params p;
    model_meanflow_params_init(&p, MODEL_VARIANT_RECOMMENDED);
    p.rate_factor = 0.25;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NRATES; i++) {
            double want = a2_literal[a][i];
            if (want == 0)
                continue;
            model_result r;
            int rc = eval_params(sizes[a], rates[i], &p, &r);
            if (rc != 0 || fabs(r.latency - want) > 0.01)
                fail_msg("%dx%d at %.3f: rc %d latency %.4f, A.2 %.2f",
                         sizes[a], sizes[a], rates[i], rc, r.latency, want);
        }
    /* docs/models/meanflow.md, "M2 as printed", item 4.1: 16x16 at 0.005
     * literal 20.86 */
    model_result r;
    assert_int_equal(eval_params(16, 0.005, &p, &r), 0);
    assert_true(fabs(r.latency - 20.86) <= 0.01);
}

static void test_paper_model_column(void **state)
{
    (void)state;
    int checked = 0;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NRATES; i++) {
            double printed = table_model[a][i];
            if (printed == 0)
                continue;
            /* docs/models/meanflow.md, "Reproduced model column" names the
             * three points outside 3% */
            int k = sizes[a];
            if ((k == 8 && rates[i] == 0.015) ||
                (k == 16 && (rates[i] == 0.006 || rates[i] == 0.007)))
                continue;
            model_result r;
            int rc = eval_k(k, rates[i], MODEL_VARIANT_RECOMMENDED, &r);
            double rel = rc == 0 ? fabs(r.latency - printed) / printed : 1;
            if (rel > 0.03)
                fail_msg("%dx%d at %.3f: rc %d latency %.4f, table %.2f "
                         "(%.1f%%)", k, k, rates[i], rc, r.latency, printed,
                         100 * rel);
            checked++;
        }
    assert_int_equal(checked, 12 + 12 + 9 + 7 - 3);
}

static void test_zero_load(void **state)
{
    (void)state;
    const double printed[4] = {13.600, 15.556, 17.538, 19.529};
    const model *m = meanflow();
    for (int a = 0; a < 4; a++) {
        net_design d;
        net_workload w;
        setup(sizes[a], &d, &w);
        model_opts o;
        model_opts_init(&o);
        o.variant = MODEL_VARIANT_RECOMMENDED;
        double z = m->zero_load(&d, &w, &o);
        assert_true(fabs(z - printed[a]) <= 5e-4);
        /* the full recursion at rate 0 collapses to the closed form */
        for (int v = 0; v < 2; v++) {
            o.variant = v ? MODEL_VARIANT_PRINTED : MODEL_VARIANT_RECOMMENDED;
            model_result r;
            assert_int_equal(m->eval(&d, &w, 0.0, &o, &r), 0);
            assert_true(fabs(r.latency - z) <= 1e-12 * z);
        }
    }
}

/* Zero load with router delay and any k >= 4: mean hops (1 + Dr) + Lm, the
 * hops being 2K for the alpha stream and K for each beta stream, K = k/4
 * (docs/models/meanflow.md, "M2 as printed": interpolation in k/4 is exact at
 * zero load). */
static void test_zero_load_router_delay_and_interpolation(void **state)
{
    (void)state;
    const model *m = meanflow();
    for (int k = 4; k <= 21; k++)
        for (int dr = 0; dr <= 3; dr++) {
            net_design d;
            net_workload w;
            setup(k, &d, &w);
            d.router_delay = dr;
            w.message_bits = 7 + k;
            double K = k / 4.0, alpha = (k - 1.0) / (k + 1.0);
            double beta = 1.0 / (k + 1.0);
            double hops = alpha * 2 * K + 2 * beta * K;
            double want = hops * (1 + dr) + (7 + k);
            model_opts o;
            model_opts_init(&o);
            o.variant = MODEL_VARIANT_RECOMMENDED;
            assert_true(fabs(m->zero_load(&d, &w, &o) - want) <= 1e-12 * want);
            model_result r;
            assert_int_equal(m->eval(&d, &w, 0.0, &o, &r), 0);
            if (fabs(r.latency - want) > 1e-10 * want)
                fail_msg("k %d Dr %d: %.15g vs %.15g", k, dr, r.latency, want);
        }
}

/* ---- one resolution at a time (docs/models/meanflow.md, "M2 as printed",
 * item 4) ---------------------------------------------------------------- */

static void test_single_resolution_figures(void **state)
{
    (void)state;
    model_meanflow_params p;
    model_result r;
    /* item 4.6: beta sum to K-1 in eq.(25), 4x4 at 0.011 -> 14.18 */
    model_meanflow_params_init(&p, MODEL_VARIANT_RECOMMENDED);
    p.ne_beta_sum_to_k = 0;
    assert_int_equal(eval_params(4, 0.011, &p, &r), 0);
    assert_true(fabs(r.latency - 14.18) <= 0.01);
    /* item 4.8: printed eq.(39) pairing, 12x12 at 0.009 -> 23.41 */
    model_meanflow_params_init(&p, MODEL_VARIANT_RECOMMENDED);
    p.eq39_printed = 1;
    assert_int_equal(eval_params(12, 0.009, &p, &r), 0);
    assert_true(fabs(r.latency - 23.41) <= 0.01);
    /* item 4.10: the text's sigma2, 8x8 at 0.015 -> 21.35 */
    model_meanflow_params_init(&p, MODEL_VARIANT_RECOMMENDED);
    p.sigma_text = 1;
    assert_int_equal(eval_params(8, 0.015, &p, &r), 0);
    assert_true(fabs(r.latency - 21.35) <= 0.01);
}

/* The printed variant is every literal reading (rate lam/4, K-1 in
 * eq.(25), the text's sigma2).  The model is linear in r0
 * (docs/models/meanflow.md, "M2 as printed", item
 * 4.1), so it equals those equations with r0 = lam/2 at half the rate. */
static void test_printed_variant(void **state)
{
    (void)state;
    model_meanflow_params p, lit;
    model_meanflow_params_init(&p, MODEL_VARIANT_PRINTED);
    assert_true(p.rate_factor == 0.25);
    assert_int_equal(p.ne_beta_sum_to_k, 0);
    assert_int_equal(p.sigma_text, 1);
    assert_int_equal(p.eq39_printed, 0);     /* a typo fix stays on */
    lit = p;
    lit.rate_factor = 0.5;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NRATES; i += 2) {
            model_result r1, r2, rr;
            int rc1 = eval_k(sizes[a], rates[i], MODEL_VARIANT_PRINTED, &r1);
            int rc2 = eval_params(sizes[a], rates[i] / 2, &lit, &r2);
            assert_int_equal(rc1, rc2);
            if (rc1 != 0)
                continue;
            assert_true(fabs(r1.latency - r2.latency) <= 1e-9 * r1.latency);
            /* half the load of the recommended reading: lower latency */
            if (eval_k(sizes[a], rates[i], MODEL_VARIANT_RECOMMENDED, &rr) ==
                0)
                assert_true(r1.latency < rr.latency);
        }
}

/* ---- coverage and the uniform interface ---------------------------------- */

static void test_example(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    meanflow()->example(&d, &w);
    assert_int_equal(net_check(&d, NULL), 0);
    assert_int_equal(net_workload_check(&d, &w, NULL), 0);
    assert_int_equal(net_message_flits(&d, &w), 12);
    assert_int_equal(d.k[0], 8);
    assert_int_equal(d.k[1], 8);
    assert_int_equal(d.vcs, 4);          /* the paper's simulator */
    assert_int_equal(d.router_delay, 0);
    char why[256];
    assert_int_equal(meanflow()->covers(&d, &w, why, sizeof why), 0);
}

static void expect_rejected(const net_design *d, const net_workload *w)
{
    char why[256] = "";
    assert_int_equal(meanflow()->covers(d, w, why, sizeof why), -1);
    assert_true(strlen(why) > 0);
}

static void test_covers(void **state)
{
    (void)state;
    net_design d0, d;
    net_workload w0, w;
    meanflow()->example(&d0, &w0);
    char why[256];

    d = d0; w = w0;                     /* k not a multiple of 4: interp. */
    net_design_set_radix(&d, 2, 6);
    assert_int_equal(meanflow()->covers(&d, &w, why, sizeof why), 0);
    d.router_delay = 2;                 /* router delay: our extension */
    assert_int_equal(meanflow()->covers(&d, &w, why, sizeof why), 0);
    w.length = NET_LENGTH_EXPONENTIAL;
    assert_int_equal(meanflow()->covers(&d, &w, why, sizeof why), 0);

    d = d0; w = w0;
    net_design_set_radix(&d, 2, 3);
    expect_rejected(&d, &w);            /* K = 3/4 < 1 */
    d = d0;
    d.k[1] = 12;
    expect_rejected(&d, &w);            /* not square */
    d = d0;
    net_design_set_radix(&d, 3, 8);
    expect_rejected(&d, &w);            /* 3-D */
    d = d0;
    d.topology = NET_MESH;
    expect_rejected(&d, &w);
    d = d0;
    d.routing = NET_ROUTE_DUATO;
    expect_rejected(&d, &w);
    d = d0;
    d.routing = NET_ROUTE_DETERMINISTIC;
    expect_rejected(&d, &w);
    d = d0;
    d.switching = NET_SWITCH_PCS;
    expect_rejected(&d, &w);
    d = d0;
    w.traffic = NET_TRAFFIC_HOTSPOT;
    w.hotspot_fraction = 0.1;
    expect_rejected(&d, &w);
    w = w0;
    w.traffic = NET_TRAFFIC_TRANSPOSE;
    expect_rejected(&d, &w);
}

/* Exponential lengths are geometric on {1,2,...} with mean Lm: Var_L =
 * Lm (Lm - 1).  More variance, more waiting; none at zero load. */
static void test_length_variance(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    setup(8, &d, &w);
    w.length = NET_LENGTH_EXPONENTIAL;
    model_opts o;
    model_opts_init(&o);
    o.variant = MODEL_VARIANT_RECOMMENDED;
    model_meanflow_params p;
    model_meanflow_params_init(&p, MODEL_VARIANT_RECOMMENDED);
    for (int i = 0; i < 11; i++) {
        model_result re, rv, rf;
        assert_int_equal(meanflow()->eval(&d, &w, rates[i], &o, &re), 0);
        assert_int_equal(model_meanflow_eval(8, 12, 12 * 11, 0, rates[i], &p,
                                             &o, &rv), 0);
        assert_true(re.latency == rv.latency);
        assert_int_equal(eval_params(8, rates[i], &p, &rf), 0);
        assert_true(re.latency > rf.latency);
    }
}

/* Interpolated radices sit between their multiple-of-4 neighbours. */
static void test_interpolated_radix_ordering(void **state)
{
    (void)state;
    for (int i = 0; i < 6; i++) {
        double prev = 0;
        for (int k = 4; k <= 16; k++) {
            model_result r;
            assert_int_equal(eval_k(k, rates[i], MODEL_VARIANT_RECOMMENDED,
                                    &r), 0);
            assert_true(r.latency > prev);
            prev = r.latency;
        }
    }
}

static void test_invalid_arguments(void **state)
{
    (void)state;
    model_meanflow_params p;
    model_meanflow_params_init(&p, MODEL_VARIANT_RECOMMENDED);
    model_opts o;
    model_opts_init(&o);
    model_result r;
    assert_int_equal(model_meanflow_eval(3, 12, 0, 0, 0.001, &p, &o, &r),
                     ERR_INVALID);
    assert_int_equal(r.saturated, 1);
    assert_int_equal(model_meanflow_eval(8, 12, 0, 0, -0.001, &p, &o, &r),
                     ERR_INVALID);
    assert_int_equal(model_meanflow_eval(8, 12, 0, 0, NAN, &p, &o, &r),
                     ERR_INVALID);
    assert_int_equal(model_meanflow_eval(8, 12, -1, 0, 0.001, &p, &o, &r),
                     ERR_INVALID);
}

/* ---- solver -------------------------------------------------------------- */

/* A fixed point does not depend on the damping used to reach it. */
static void test_damping_independent(void **state)
{
    (void)state;
    const double damping[3] = {0.3, 0.7, 1.0};
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < NRATES; i++) {
            if (a2_recommended[a][i] <= 0)
                continue;
            model_result r0;
            assert_int_equal(eval_k(sizes[a], rates[i],
                                    MODEL_VARIANT_RECOMMENDED, &r0), 0);
            for (int j = 0; j < 3; j++) {
                net_design d;
                net_workload w;
                setup(sizes[a], &d, &w);
                model_opts o;
                model_opts_init(&o);
                o.variant = MODEL_VARIANT_RECOMMENDED;
                o.damping = damping[j];
                model_result r;
                assert_int_equal(meanflow()->eval(&d, &w, rates[i], &o, &r),
                                 0);
                assert_true(fabs(r.latency - r0.latency) <= 1e-6);
            }
        }
}

/* Where the binary selectors of eqs.(35)/(39) chatter (the printed map has
 * no fixed point), the sliding-mode solution fills the gap: the model
 * converges, and latency stays monotone in the rate across the gap. */
static void test_selector_islands(void **state)
{
    (void)state;
    const struct {
        int k;
        double lo, mid, hi;
    } gaps[] = {
        {12, 0.0072, 0.0073, 0.0076},
        {12, 0.0072, 0.0074, 0.0076},
        {12, 0.00745, 0.00747, 0.00748},
        {16, 0.0060, 0.0061, 0.0063},
        {16, 0.0060, 0.00625, 0.0063},
        {9, 0.0019, 0.0020, 0.0021},
    };
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        model_result lo, mid, hi;
        assert_int_equal(eval_k(gaps[g].k, gaps[g].lo,
                                MODEL_VARIANT_RECOMMENDED, &lo), 0);
        assert_int_equal(eval_k(gaps[g].k, gaps[g].mid,
                                MODEL_VARIANT_RECOMMENDED, &mid), 0);
        assert_int_equal(eval_k(gaps[g].k, gaps[g].hi,
                                MODEL_VARIANT_RECOMMENDED, &hi), 0);
        if (!(lo.latency < mid.latency && mid.latency < hi.latency))
            fail_msg("%dx%d: %.5f at %g, %.5f at %g, %.5f at %g", gaps[g].k,
                     gaps[g].k, lo.latency, gaps[g].lo, mid.latency,
                     gaps[g].mid, hi.latency, gaps[g].hi);
    }
}

/* Feasibility is monotone in the rate and latency never falls, on a fine
 * grid, both variants; every result is finite and consistent. */
static void test_sweep_consistent(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++)
        for (int k = 4; k <= 17; k++)
            for (int dr = 0; dr <= 1; dr++) {
                net_design d;
                net_workload w;
                setup(k, &d, &w);
                d.router_delay = dr;
                model_opts o;
                model_opts_init(&o);
                o.variant = v ? MODEL_VARIANT_PRINTED
                              : MODEL_VARIANT_RECOMMENDED;
                double z = meanflow()->zero_load(&d, &w, &o);
                double prev = 0;
                int failed = 0, after = 0;
                for (double rate = 0.0002; rate < 0.3 && after < 40;
                     rate += 0.0002) {
                    model_result r;
                    int rc = meanflow()->eval(&d, &w, rate, &o, &r);
                    assert_true(isfinite(r.latency) && r.latency >= 0);
                    assert_int_equal(rc == 0, r.status == MODEL_CONVERGED);
                    assert_int_equal(r.saturated, rc != 0);
                    if (rc != 0) {
                        assert_true(r.latency == 0);
                        failed = 1;
                        after++;
                        continue;
                    }
                    if (failed)
                        fail_msg("%s %dx%d Dr %d: converges at %g after a "
                                 "failure", v ? "printed" : "recommended", k,
                                 k, dr, rate);
                    assert_true(r.latency >= z);
                    assert_true(r.latency >= prev);
                    prev = r.latency;
                }
                assert_true(failed);  /* every size saturates below 0.3 */
            }
}

static void test_saturation_rate(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    model_opts o;
    model_opts_init(&o);
    o.variant = MODEL_VARIANT_RECOMMENDED;
    double sat;
    /* A.2: converged at 0.006, saturated at 0.007 */
    setup(16, &d, &w);
    assert_int_equal(model_saturation_rate(meanflow(), &d, &w, &o, &sat,
                                           NULL), 0);
    assert_true(sat > 0.006 && sat < 0.007);
    /* A.2 and Table 2: 12x12 still has a value at 0.009 */
    setup(12, &d, &w);
    assert_int_equal(model_saturation_rate(meanflow(), &d, &w, &o, &sat,
                                           NULL), 0);
    assert_true(sat > 0.009);
    /* 8x8 at 0.015 is listed */
    setup(8, &d, &w);
    assert_int_equal(model_saturation_rate(meanflow(), &d, &w, &o, &sat,
                                           NULL), 0);
    assert_true(sat > 0.015);
}

/* ---- corrected variant (header comment "CORRECTED VARIANT") ------------- */

static int eval_design(const net_design *d, const net_workload *w,
                       double rate, model_variant v, model_result *r)
{
    model_opts o;
    model_opts_init(&o);
    o.variant = v;
    return meanflow()->eval(d, w, rate, &o, r);
}

/* Zero load: the exact mean hops of a k x k torus, destinations uniform
 * over the other k^2 - 1 nodes (per ring k/4 over all k offsets for even
 * k, (k - 1/k)/4 for odd k, two rings, times k^2 / (k^2 - 1)), times
 * (1 + Dr), plus Lm; eval at rate 0 gives the same. */
static void test_corrected_zero_load(void **state)
{
    (void)state;
    for (int k = 4; k <= 17; k++)
        for (int dr = 0; dr <= 2; dr++) {
            net_design d;
            net_workload w;
            setup(k, &d, &w);
            d.router_delay = dr;
            w.message_bits = 5 + k;
            double ring = k % 2 ? (k - 1.0 / k) / 4.0 : k / 4.0;
            double n = (double)k * k;
            double want = 2 * ring * n / (n - 1) * (1 + dr) + (5 + k);
            model_opts o;
            model_opts_init(&o);
            assert_int_equal(o.variant, MODEL_VARIANT_CORRECTED);
            double z = meanflow()->zero_load(&d, &w, &o);
            if (fabs(z - want) > 1e-12 * want)
                fail_msg("k %d Dr %d: zero load %.15g, want %.15g", k, dr, z,
                         want);
            model_result r;
            assert_int_equal(meanflow()->eval(&d, &w, 0.0, &o, &r), 0);
            assert_true(fabs(r.latency - want) <= 1e-12 * want);
            assert_true(r.network_latency == r.latency);
            assert_true(r.source_wait == 0 && r.vc_multiplexing == 1);
        }
}

/* The worm's stretch by hand, 8x8, V = 4, 12-flit fixed worms, one-flit
 * buffers, lam = 0.02.  A ring of 8 is crossed with probability
 * (7/8)(64/63) = 8/9, for 16/7 hops on average (offsets 1..7: 1 2 3 4 3 2
 * 1), so one of its links carries lam (8/9)(16/7)/2 messages per cycle,
 * flit load rho = 12 lam 64/63 = 0.243810; its PS stall capped at 4 is
 * (rho - rho^4)/(1 - rho), times 2 - 7/16 for the distinct competitors of
 * a 16/7-hop segment.  The worm (12 flits > the 4.06 hops) spans both
 * rings and the injection channel (rho = 12 lam = 0.24):
 *   stalls = 2 (8/9) (25/16) ps(0.243810) + ps(0.24) = 1.194050,
 *   s = (1 + sqrt(1 + 4 stalls)) / 2 = 1.701686. */
static void test_corrected_stretch_by_hand(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    setup(8, &d, &w);
    assert_true(fabs(model_meanflow_stretch(&d, &w, 0.02) - 1.701686358702768)
                <= 1e-9);
    assert_true(model_meanflow_stretch(&d, &w, 0.0) == 1.0);
    /* the injection channel alone at rho = 12 lam >= 1 */
    assert_true(isinf(model_meanflow_stretch(&d, &w, 1.0 / 12)));
    /* at zero load and at 0.02 the corrected latency is (hops + Lm) s plus
     * blocking, so at least the stretched zero-load latency */
    model_result r;
    assert_int_equal(eval_design(&d, &w, 0.02, MODEL_VARIANT_CORRECTED, &r),
                     0);
    assert_true(r.vc_multiplexing == model_meanflow_stretch(&d, &w, 0.02));
    assert_true(r.latency >= (2 * 2 * 64.0 / 63 + 12) * 1.701686358702768);
}

/* With V VCs per link the network carries more than the paper's one
 * server per link: the corrected saturation rate lies above the
 * recommended one on the paper's four sizes and the main study's 32x32,
 * and never above the channel-load bound (the injection channel, 1/Lm, on
 * the 4x4). */
static void test_corrected_saturation(void **state)
{
    (void)state;
    for (int a = 0; a < 5; a++) {
        net_design d;
        net_workload w;
        if (a < 4) {
            setup(sizes[a], &d, &w);
        } else {
            setup(32, &d, &w);
            d.vcs = 6;
            d.width = 8;
            d.router_delay = 1;
            d.ejection_channels = 1;
            w.message_bits = 128;
            w.length = NET_LENGTH_EXPONENTIAL;
        }
        model_opts o;
        model_opts_init(&o);
        double corr, rec;
        assert_int_equal(model_saturation_rate(meanflow(), &d, &w, &o, &corr,
                                               NULL), 0);
        o.variant = MODEL_VARIANT_RECOMMENDED;
        assert_int_equal(model_saturation_rate(meanflow(), &d, &w, &o, &rec,
                                               NULL), 0);
        model_bound b;
        assert_int_equal(model_bound_compute(&d, &w, &b, NULL), 0);
        if (!(corr > 1.2 * rec && corr <= b.rate))
            fail_msg("%dx%d: corrected %g, recommended %g, bound %g", d.k[0],
                     d.k[0], corr, rec, b.rate);
    }
}

/* Feasibility monotone in the rate, latency never below zero load and
 * never falling, on a grid of sizes, V and Dr; every result consistent. */
static void test_corrected_sweep(void **state)
{
    (void)state;
    for (int k = 4; k <= 17; k += 3)
        for (int vcs = 3; vcs <= 6; vcs += 3)
            for (int dr = 0; dr <= 1; dr++) {
                net_design d;
                net_workload w;
                setup(k, &d, &w);
                d.vcs = vcs;
                d.router_delay = dr;
                d.ejection_channels = dr;   /* both ejection models */
                model_opts o;
                model_opts_init(&o);
                double z = meanflow()->zero_load(&d, &w, &o);
                double prev = 0;
                int failed = 0;
                for (double rate = 0.0005; rate < 0.1; rate += 0.0005) {
                    model_result r;
                    int rc = meanflow()->eval(&d, &w, rate, &o, &r);
                    assert_true(isfinite(r.latency) && r.latency >= 0);
                    assert_int_equal(r.saturated, rc != 0);
                    if (rc != 0) {
                        failed = 1;
                        continue;
                    }
                    if (failed)
                        fail_msg("%dx%d V %d Dr %d: converges at %g after a "
                                 "failure", k, k, vcs, dr, rate);
                    assert_true(r.latency >= z && r.latency >= prev);
                    assert_true(r.network_latency == r.latency);
                    assert_true(r.vc_multiplexing >= 1);
                    prev = r.latency;
                }
                assert_true(failed);   /* the bound is below 0.1 */
            }
}

/* The corrected variant needs the simulator's VC split: 2 escape VCs and
 * at least one adaptive one. */
static void test_corrected_covers_vcs(void **state)
{
    (void)state;
    net_design d;
    net_workload w;
    setup(8, &d, &w);
    char why[256];
    assert_int_equal(meanflow()->covers(&d, &w, why, sizeof why), 0);
    d.vcs = 2;
    assert_int_equal(meanflow()->covers(&d, &w, why, sizeof why), -1);
    assert_non_null(strstr(why, "vcs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a2_recommended),
        cmocka_unit_test(test_a2_literal_rate),
        cmocka_unit_test(test_paper_model_column),
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_zero_load_router_delay_and_interpolation),
        cmocka_unit_test(test_single_resolution_figures),
        cmocka_unit_test(test_printed_variant),
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_covers),
        cmocka_unit_test(test_length_variance),
        cmocka_unit_test(test_interpolated_radix_ordering),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_damping_independent),
        cmocka_unit_test(test_selector_islands),
        cmocka_unit_test(test_sweep_consistent),
        cmocka_unit_test(test_saturation_rate),
        cmocka_unit_test(test_corrected_zero_load),
        cmocka_unit_test(test_corrected_stretch_by_hand),
        cmocka_unit_test(test_corrected_saturation),
        cmocka_unit_test(test_corrected_sweep),
        cmocka_unit_test(test_corrected_covers_vcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
