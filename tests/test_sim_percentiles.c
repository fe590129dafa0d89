/*
 * test_sim_percentiles.c — the simulator's latency percentiles (sim/hist.c)
 * against a brute-force sort of the same run's latencies: p50, p95 and p99
 * within the histogram's stated relative error (1/128) of the exact
 * nearest-rank ones, the maximum exact; recording the latencies changes no
 * other figure (the means stay bit for bit); merged replications average
 * the percentiles, give each an interval from their spread and keep the
 * largest maximum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "sim/sim.h"

static const double REL_ERR = 1.0 / 128;

static sim_params make(const char *design, const char *workload, double rate,
                       long messages)
{
    sim_params p;
    err e;
    sim_params_init(&p);
    err_clear(&e);
    assert_int_equal(net_design_parse(&p.design, design, &e), 0);
    assert_int_equal(net_workload_parse(&p.workload, workload, &e), 0);
    p.rate = rate;
    p.seed = 7;
    p.warmup_messages = 2000;
    p.messages = messages;
    return p;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The nearest-rank q-quantile of sorted v[0..n). */
static double exact_quantile(const long *v, long n, double q)
{
    long rank = (long)ceil(q * (double)n);
    if (rank < 1)
        rank = 1;
    return (double)v[rank - 1];
}

/* Returns the run's p99. */
static double check_against_sort(const char *design, const char *workload,
                                 double rate)
{
    const long messages = 20000;
    sim_params p = make(design, workload, rate, messages);
    long *trace = malloc(sizeof *trace * (size_t)messages);
    assert_non_null(trace);
    p.latency_trace = trace;
    p.latency_trace_cap = messages;
    sim_result r;
    err e;
    err_clear(&e);
    assert_int_equal(sim_run(&p, &r, &e), 0);
    assert_int_equal(r.status, SIM_OK);
    assert_int_equal(r.messages, messages);

    /* the same run without the trace: every figure identical */
    sim_params q = make(design, workload, rate, messages);
    sim_result u;
    assert_int_equal(sim_run(&q, &u, &e), 0);
    assert_true(u.latency == r.latency);
    assert_true(u.latency_ci95 == r.latency_ci95);
    assert_true(u.network_latency == r.network_latency);
    assert_true(u.latency_p99 == r.latency_p99);
    assert_int_equal(u.cycles, r.cycles);

    double sum = 0;
    for (long i = 0; i < messages; i++)
        sum += (double)trace[i];
    /* the trace is the same messages the mean is over */
    assert_true(fabs(sum / (double)messages - r.latency) <
                1e-9 * r.latency);
    qsort(trace, (size_t)messages, sizeof *trace, cmp_long);
    const double qs[] = {0.50, 0.95, 0.99};
    const double got[] = {r.latency_p50, r.latency_p95, r.latency_p99};
    for (int i = 0; i < 3; i++) {
        double want = exact_quantile(trace, messages, qs[i]);
        if (!(fabs(got[i] - want) <= REL_ERR * want))
            fail_msg("%s at %g: p%g %.3f, sorted %.3f", design, rate,
                     100 * qs[i], got[i], want);
    }
    assert_true(r.latency_max == (double)trace[messages - 1]);
    assert_true(r.latency_p50 <= r.latency_p95 &&
                r.latency_p95 <= r.latency_p99 &&
                r.latency_p99 <= r.latency_max);
    free(trace);
    return r.latency_p99;
}

/* Short latencies (one bucket per cycle) and a loaded network whose tail
 * reaches the log-linear buckets. */
static void test_light_load(void **state)
{
    (void)state;
    double p99 = check_against_sort("topology=torus n=2 k=8 vcs=2 "
                                    "routing=deterministic router_delay=0 "
                                    "width=1",
                                    "message_bits=16", 0.002);
    assert_true(p99 < 128);   /* exact buckets */
}

static void test_heavy_load(void **state)
{
    (void)state;
    double p99 = check_against_sort("topology=torus n=2 k=8 vcs=2 "
                                    "routing=deterministic router_delay=0 "
                                    "width=1",
                                    "message_bits=16", 0.012);
    assert_true(p99 > 128);   /* log-linear buckets */
    check_against_sort("topology=hypercube n=6 vcs=2 routing=duato "
                       "router_delay=1 width=1",
                       "message_bits=32 length=exponential", 0.012);
}

static void test_merge(void **state)
{
    (void)state;
    sim_result rs[3];
    memset(rs, 0, sizeof rs);
    for (int i = 0; i < 3; i++) {
        rs[i].status = SIM_OK;
        rs[i].latency_p50 = 10 + i;
        rs[i].latency_p95 = 20 + i;
        rs[i].latency_p99 = 30 + 3 * i;
        rs[i].latency_max = i == 1 ? 90 : 50;
    }
    sim_result m;
    sim_result_merge(rs, 3, &m);
    assert_true(fabs(m.latency_p50 - 11) < 1e-12);
    assert_true(fabs(m.latency_p95 - 21) < 1e-12);
    assert_true(fabs(m.latency_p99 - 33) < 1e-12);
    assert_true(m.latency_max == 90);
    /* the percentiles' intervals: t(2) x sd / sqrt(3) of 10, 11, 12 (sd
     * 1) and of 30, 33, 36 (sd 3) */
    assert_true(fabs(m.latency_p50_ci95 - 4.303 / sqrt(3.0)) < 1e-9);
    assert_true(fabs(m.latency_p95_ci95 - 4.303 / sqrt(3.0)) < 1e-9);
    assert_true(fabs(m.latency_p99_ci95 - 3 * 4.303 / sqrt(3.0)) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_light_load),
        cmocka_unit_test(test_heavy_load),
        cmocka_unit_test(test_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
