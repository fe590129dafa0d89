/*
 * test_models.c — generic properties of EVERY registered analytic model
 * (models/registry.c), so each model is covered as soon as it registers:
 *
 *   1. its example is covered and its zero_load() is finite and positive;
 *   2. eval() at a vanishing rate equals zero_load() (1e-9 relative at
 *      rate 1e-13; see below why not at 1e-9);
 *   3. latency never decreases with the rate on a grid up to saturation;
 *   4. model_saturation_rate() is finite and positive, eval() converges at
 *      0.99x and reports saturation at 1.01x;
 *   5. a property test over >= 10,000 random valid inputs per model:
 *      the example perturbed (radix, dimensions, mixed radices, V, buffer,
 *      width and message bits (so Lm), Dr, ejection channels, length
 *      distribution, express parameters, traffic parameters), kept when
 *      covers() accepts it, evaluated at a log-uniform random rate: never
 *      NaN, never negative, status / return code / saturated flag
 *      consistent, latency >= zero load and >= network latency, VC
 *      multiplexing >= 1; for a subset, the saturation rate converges and
 *      1.01x of it does not;
 *   6. the `dse model` command lists every model and its JSON output
 *      matches eval().
 *
 * Why 1e-13 and not 1e-9 for the zero-load check: every model has terms
 * linear in the rate with large coefficients (W_qd = lam Lm^2, W_qs =
 * (lam/V) L^2, P[1] ~ m_c L in the multiplexing factor), e.g. Lm = 100
 * gives W_qd = 1e-5 cycles at lam = 1e-9, a relative 1e-7 of the latency.
 * At 1e-13 those terms are below 1e-10 relative; at 1e-9 we still check
 * agreement to 1e-5 relative (the first-order terms are small).
 *
 * The random stream is a local splitmix64 (no rand(): its stream differs
 * between C libraries) with a
 * fixed seed, so a failure reproduces; the failing input is printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "models/model.h"

#define PROPERTY_SAMPLES 10000
#define SATURATION_SAMPLES 20
#define MAX_NODES (1L << 16)

/* ---- random stream ------------------------------------------------------ */

typedef struct rng64 {
    uint64_t s;
} rng64;

static uint64_t rng_next(rng64 *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rng_unit(rng64 *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [lo, hi]. */
static int rng_int(rng64 *r, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* ---- helpers ------------------------------------------------------------ */

static const model *const *all_models(size_t *count)
{
    const model *const *reg = model_registry(count);
    assert_true(*count > 0);
    return reg;
}

static void describe(const model *m, const net_design *d,
                     const net_workload *w, double rate, char *buf,
                     size_t size)
{
    char dt[512], wt[256];
    net_design_format(d, dt, sizeof dt);
    net_workload_format(w, wt, sizeof wt);
    snprintf(buf, size, "%s on '%s' / '%s' at rate %.17g", m->name, dt, wt,
             rate);
}

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            print_error(__VA_ARGS__);                                         \
            fail_msg("%s", #cond);                                            \
        }                                                                     \
    } while (0)

/* Everything eval() promises (model.h), for one evaluation. */
static void check_result(const model *m, const net_design *d,
                         const net_workload *w, double rate, int rc,
                         const model_result *r, double zero)
{
    char what[1024];
    describe(m, d, w, rate, what, sizeof what);
    CHECK(r->status == MODEL_CONVERGED || r->status == MODEL_SATURATED ||
              r->status == MODEL_NOCONVERGE,
          "bad status %d: %s\n", r->status, what);
    CHECK((rc == 0) == (r->status == MODEL_CONVERGED),
          "rc %d vs status %d: %s\n", rc, r->status, what);
    if (r->status == MODEL_SATURATED)
        CHECK(rc == ERR_SATURATED, "rc %d: %s\n", rc, what);
    if (r->status == MODEL_NOCONVERGE)
        CHECK(rc == ERR_NOCONVERGE, "rc %d: %s\n", rc, what);
    CHECK(r->saturated == (r->status != MODEL_CONVERGED),
          "saturated flag %d, status %d: %s\n", r->saturated, r->status,
          what);
    CHECK(r->iterations >= 0, "iterations %d: %s\n", r->iterations, what);
    const double v[] = {r->latency, r->network_latency, r->source_wait,
                        r->vc_multiplexing, r->broadcast_latency};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        CHECK(isfinite(v[i]) && v[i] >= 0, "field %zu = %g: %s\n", i, v[i],
              what);
    if (r->status != MODEL_CONVERGED) {
        CHECK(r->latency == 0 && r->network_latency == 0 &&
                  r->source_wait == 0 && r->vc_multiplexing == 0,
              "failed evaluation with non-zero fields: %s\n", what);
        return;
    }
    CHECK(r->latency >= zero * (1 - 1e-9),
          "latency %.12g below zero load %.12g: %s\n", r->latency, zero, what);
    CHECK(r->latency >= r->network_latency * (1 - 1e-12),
          "latency %.12g below network latency %.12g: %s\n", r->latency,
          r->network_latency, what);
    CHECK(r->vc_multiplexing >= 1 - 1e-12, "VC multiplexing %.12g: %s\n",
          r->vc_multiplexing, what);
}

/* ---- 1-4: at each model's example --------------------------------------- */

static void test_examples_covered(void **state)
{
    (void)state;
    size_t count;
    const model *const *reg = all_models(&count);
    for (size_t i = 0; i < count; i++) {
        const model *m = reg[i];
        assert_non_null(m->name);
        assert_non_null(m->source);
        assert_non_null(m->summary);
        net_design d;
        net_workload w;
        m->example(&d, &w);
        char why[512];
        CHECK(m->covers(&d, &w, why, sizeof why) == 0,
              "%s: example not covered: %s\n", m->name, why);
        assert_int_equal(net_check(&d, NULL), 0);
        assert_int_equal(net_workload_check(&d, &w, NULL), 0);
        /* model_find and model_for agree with the registry */
        assert_ptr_equal(model_find(m->name), m);
        const model *chosen = model_for(&d, &w, why, sizeof why);
        assert_non_null(chosen);
        model_opts o;
        model_opts_init(&o);
        double zero = m->zero_load(&d, &w, &o);
        CHECK(isfinite(zero) && zero > 0, "%s: zero load %g\n", m->name,
              zero);
    }
}

static void test_zero_load_limit(void **state)
{
    (void)state;
    size_t count;
    const model *const *reg = all_models(&count);
    for (size_t i = 0; i < count; i++) {
        const model *m = reg[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        for (int variant = 0; variant < MODEL_VARIANT_COUNT; variant++) {
            model_opts o;
            model_opts_init(&o);
            o.variant = (model_variant)variant;
            double zero = m->zero_load(&d, &w, &o);
            model_result r;
            int rc = m->eval(&d, &w, 1e-13, &o, &r);
            check_result(m, &d, &w, 1e-13, rc, &r, zero);
            CHECK(rc == 0 && fabs(r.latency - zero) <= 1e-9 * zero,
                  "%s (%s): latency %.15g at 1e-13, zero load %.15g\n",
                  m->name, model_variant_name(o.variant), r.latency, zero);
            rc = m->eval(&d, &w, 1e-9, &o, &r);
            CHECK(rc == 0 && fabs(r.latency - zero) <= 1e-5 * zero,
                  "%s: latency %.15g at 1e-9, zero load %.15g\n", m->name,
                  r.latency, zero);
        }
    }
}

static void test_saturation_and_monotone(void **state)
{
    (void)state;
    size_t count;
    const model *const *reg = all_models(&count);
    for (size_t i = 0; i < count; i++) {
        const model *m = reg[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        for (int variant = 0; variant < MODEL_VARIANT_COUNT; variant++) {
            model_opts o;
            model_opts_init(&o);
            o.variant = (model_variant)variant;
            double sat = 0, zero = m->zero_load(&d, &w, &o);
            err e;
            err_clear(&e);
            int rc = model_saturation_rate(m, &d, &w, &o, &sat, &e);
            CHECK(rc == 0 && isfinite(sat) && sat > 0,
                  "%s: saturation rc %d rate %g (%s)\n", m->name, rc, sat,
                  e.msg);
            model_result r;
            rc = m->eval(&d, &w, 0.99 * sat, &o, &r);
            check_result(m, &d, &w, 0.99 * sat, rc, &r, zero);
            CHECK(rc == 0, "%s: not converged at 0.99 x saturation %g\n",
                  m->name, sat);
            rc = m->eval(&d, &w, 1.01 * sat, &o, &r);
            check_result(m, &d, &w, 1.01 * sat, rc, &r, zero);
            CHECK(rc != 0 && r.saturated,
                  "%s: converged at 1.01 x saturation %g\n", m->name, sat);

            /* latency never decreases along a grid up to saturation */
            double prev = 0;
            for (int k = 0; k <= 100; k++) {
                double rate = sat * 0.999 * k / 100.0;
                rc = m->eval(&d, &w, rate, &o, &r);
                check_result(m, &d, &w, rate, rc, &r, zero);
                CHECK(rc == 0, "%s: not converged at %g < saturation %g\n",
                      m->name, rate, sat);
                CHECK(r.latency >= prev * (1 - 1e-7),
                      "%s: latency falls from %.12g to %.12g at rate %g\n",
                      m->name, prev, r.latency, rate);
                prev = r.latency;
            }
        }
    }
}

/* ---- 5: property test over random valid inputs --------------------------- */

/* One random neighbour of the example; covers() decides whether it counts. */
static void perturb(rng64 *g, const net_design *d0, const net_workload *w0,
                    net_design *d, net_workload *w)
{
    *d = *d0;
    *w = *w0;
    int k0 = d0->k[0];
    if (rng_unit(g) < 0.3)
        d->n = d0->n + rng_int(g, -1, 1);
    if (d->n < 1)
        d->n = 1;
    if (d->n > NET_MAX_DIMS)
        d->n = NET_MAX_DIMS;
    int k = d->topology == NET_HYPERCUBE ? 2 : rng_int(g, 2, 2 * k0 + 2);
    net_design_set_radix(d, d->n, k);
    if (d->topology != NET_HYPERCUBE && rng_unit(g) < 0.2)
        for (int i = 0; i < d->n; i++)
            d->k[i] = rng_int(g, 2, 2 * k0 + 2);
    d->vcs = rng_int(g, 1, d0->vcs * 2 + 3);
    d->buffer_flits = rng_int(g, 1, 4);
    d->width = rng_int(g, 1, 4);
    d->router_delay = rng_int(g, 0, 3);
    d->ejection_channels = rng_int(g, 0, 2);
    if (d->topology == NET_EXPRESS) {
        d->express_m = rng_int(g, 1, 4);
        d->express_kn = rng_int(g, 2, 6);
        if (rng_unit(g) < 0.7) /* keep kn | k most of the time */
            net_design_set_radix(d, d->n, d->express_kn *
                                              rng_int(g, 2, 2 * k0 /
                                                                d->express_kn +
                                                            2));
    }
    w->message_bits = rng_int(g, 1, 4 * (w0->message_bits > 0 ? w0->message_bits
                                                               : 32));
    w->length = rng_unit(g) < 0.5 ? NET_LENGTH_FIXED : NET_LENGTH_EXPONENTIAL;
    if (w->traffic == NET_TRAFFIC_HOTSPOT) {
        w->hotspot_fraction = 0.5 * rng_unit(g);
        w->hotspot_node = -1;
    }
    if (w->traffic == NET_TRAFFIC_BROADCAST)
        w->broadcast_fraction = 0.1 * rng_unit(g);
}

static void property_one_model(const model *m, rng64 *g)
{
    net_design d0, d;
    net_workload w0, w;
    m->example(&d0, &w0);
    int accepted = 0, attempts = 0, converged = 0, failed = 0, sat_checks = 0;
    while (accepted < PROPERTY_SAMPLES) {
        attempts++;
        CHECK(attempts <= 100 * PROPERTY_SAMPLES,
              "%s: only %d of %d random inputs covered\n", m->name, accepted,
              attempts);
        perturb(g, &d0, &w0, &d, &w);
        if (net_check(&d, NULL) || net_nodes(&d) > MAX_NODES)
            continue;
        char why[512];
        if (m->covers(&d, &w, why, sizeof why) != 0)
            continue;
        accepted++;
        model_opts o;
        model_opts_init(&o);
        double pick = rng_unit(g);     /* default (corrected) half the time */
        if (pick < 0.25)
            o.variant = MODEL_VARIANT_PRINTED;
        else if (pick < 0.5)
            o.variant = MODEL_VARIANT_RECOMMENDED;
        double zero = m->zero_load(&d, &w, &o);
        char what[1024];
        describe(m, &d, &w, 0, what, sizeof what);
        CHECK(isfinite(zero) && zero > 0, "zero load %g: %s\n", zero, what);
        double rate = exp(log(1e-7) + rng_unit(g) * (log(0.3) - log(1e-7)));
        model_result r;
        int rc = m->eval(&d, &w, rate, &o, &r);
        check_result(m, &d, &w, rate, rc, &r, zero);
        if (rc == 0)
            converged++;
        else
            failed++;
        if (sat_checks < SATURATION_SAMPLES && accepted % 97 == 0) {
            sat_checks++;
            double sat;
            rc = model_saturation_rate(m, &d, &w, &o, &sat, NULL);
            CHECK(rc == 0 && isfinite(sat) && sat > 0,
                  "saturation rc %d rate %g: %s\n", rc, sat, what);
            rc = m->eval(&d, &w, sat, &o, &r);
            CHECK(rc == 0, "not converged at its saturation rate %g: %s\n",
                  sat, what);
            rc = m->eval(&d, &w, 1.01 * sat, &o, &r);
            check_result(m, &d, &w, 1.01 * sat, rc, &r, zero);
            CHECK(rc != 0, "converged at 1.01 x saturation %g: %s\n", sat,
                  what);
        }
    }
    /* the rates straddle saturation: both outcomes must have been seen */
    CHECK(converged > 0 && failed > 0, "%s: %d converged, %d failed\n",
          m->name, converged, failed);
    print_message("%-28s %d inputs (%d drawn): %d converged, %d saturated "
                  "or not converged, %d saturation searches\n",
                  m->name, accepted, attempts, converged, failed, sat_checks);
}

static void test_property_random_inputs(void **state)
{
    (void)state;
    size_t count;
    const model *const *reg = all_models(&count);
    for (size_t i = 0; i < count; i++) {
        rng64 g = {0x5eed0000ULL + i};
        property_one_model(reg[i], &g);
    }
}

/* ---- 6: the command line ------------------------------------------------- */

/* Run a shell command; its stdout into buf (NUL-terminated); returns the
 * exit status. */
static int run_capture(const char *cmd, char *buf, size_t size)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t used = 0, got;
    while (used + 1 < size && (got = fread(buf + used, 1, size - 1 - used, p)))
        used += got;
    buf[used] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_cli_list_and_json(void **state)
{
    (void)state;
    static char out[1 << 16];
    size_t count;
    const model *const *reg = all_models(&count);
    assert_int_equal(run_capture(DSE_BINARY " model --list", out, sizeof out),
                     0);
    for (size_t i = 0; i < count; i++)
        CHECK(strstr(out, reg[i]->name) != NULL, "--list lacks %s\n",
              reg[i]->name);

    for (size_t i = 0; i < count; i++) {
        const model *m = reg[i];
        net_design d;
        net_workload w;
        m->example(&d, &w);
        model_opts o;
        model_opts_init(&o);
        double sat;
        assert_int_equal(model_saturation_rate(m, &d, &w, &o, &sat, NULL), 0);
        char dt[512], wt[256], cmd[2048];
        net_design_format(&d, dt, sizeof dt);
        net_workload_format(&w, wt, sizeof wt);
        snprintf(cmd, sizeof cmd,
                 DSE_BINARY " model --json --model %s --design '%s' "
                            "--workload '%s' --rates %.17g,%.17g",
                 m->name, dt, wt, 0.5 * sat, 2 * sat);
        assert_int_equal(run_capture(cmd, out, sizeof out), 0);
        json_error_t jerr;
        json_t *root = json_loads(out, 0, &jerr);
        CHECK(root != NULL, "%s: bad JSON: %s\n%s\n", m->name, jerr.text, out);
        assert_string_equal(json_string_value(json_object_get(root, "model")),
                            m->name);
        json_t *points = json_object_get(root, "points");
        assert_int_equal(json_array_size(points), 2);
        model_result r;
        assert_int_equal(m->eval(&d, &w, 0.5 * sat, &o, &r), 0);
        json_t *p0 = json_array_get(points, 0);
        double lat = json_real_value(json_object_get(p0, "latency"));
        CHECK(fabs(lat - r.latency) <= 1e-9 * r.latency,
              "%s: JSON latency %.15g, eval %.15g\n", m->name, lat, r.latency);
        json_t *p1 = json_array_get(points, 1);
        assert_string_equal(json_string_value(json_object_get(p1, "status")),
                            "saturated");
        assert_true(json_is_null(json_object_get(p1, "latency")));
        json_decref(root);
    }
}

static void test_cli_errors(void **state)
{
    (void)state;
    static char out[1 << 14];
    /* bad input: 2 */
    assert_int_equal(run_capture(DSE_BINARY " model --rates 0.1:0.01:0.01 "
                                            "2>/dev/null",
                                 out, sizeof out),
                     2);
    assert_int_equal(run_capture(DSE_BINARY " model --rates abc 2>/dev/null",
                                 out, sizeof out),
                     2);
    assert_int_equal(run_capture(DSE_BINARY " model --model no-such-model "
                                            "2>/dev/null",
                                 out, sizeof out),
                     2);
    assert_int_equal(run_capture(DSE_BINARY " model --design 'k=abc' "
                                            "2>/dev/null",
                                 out, sizeof out),
                     2);
    assert_int_equal(run_capture(DSE_BINARY " model --vcs 1 2>/dev/null", out,
                                 sizeof out),
                     2);   /* torus deterministic needs V >= 2 */
    assert_int_equal(run_capture(DSE_BINARY " model --bogus 2>/dev/null", out,
                                 sizeof out),
                     2);
    /* no model covers a mesh: 1, with the reasons */
    assert_int_equal(run_capture(DSE_BINARY " model --topology mesh 2>&1", out,
                                 sizeof out),
                     1);
    assert_non_null(strstr(out, "no analytic model covers"));
    /* --help: 0 */
    assert_int_equal(run_capture(DSE_BINARY " model --help", out, sizeof out),
                     0);
    assert_non_null(strstr(out, "--rates"));
    /* a range gives one row per rate, and --saturation a line */
    assert_int_equal(run_capture(DSE_BINARY " model --topology torus --k 8 "
                                            "--n 2 --vcs 3 --routing duato "
                                            "--rates 0.001:0.003:0.001 "
                                            "--saturation",
                                 out, sizeof out),
                     0);
    assert_non_null(strstr(out, "saturation"));
    assert_non_null(strstr(out, "0.003"));
    assert_non_null(strstr(out, "converged"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_covered),
        cmocka_unit_test(test_zero_load_limit),
        cmocka_unit_test(test_saturation_and_monotone),
        cmocka_unit_test(test_property_random_inputs),
        cmocka_unit_test(test_cli_list_and_json),
        cmocka_unit_test(test_cli_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
