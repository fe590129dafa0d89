/*
 * test_sim.c — sim/: zero-load latency against hops x (1 + D_r) + L for
 * every topology, routing and traffic pattern (exact mean hop counts from
 * net_avg_distance or brute force over net_distance), the random-number
 * streams, what the simulator refuses, run control (CI rule, silent nodes,
 * merging replications), and determinism over thread counts.
 *
 * Conservation, throughput bounds and the deadlock watchdog are in
 * test_sim_flow.c.  Every run here ends with sim_check_invariants (sim_run
 * calls it; the step-by-step tests call it themselves).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "net/net.h"
#include "sim/rng_int.h"
#include "sim/sim.h"

static sim_params make(const char *design, const char *workload)
{
    sim_params p;
    err e;
    sim_params_init(&p);
    err_clear(&e);
    assert_int_equal(net_design_parse(&p.design, design, &e), 0);
    assert_int_equal(net_workload_parse(&p.workload, workload, &e), 0);
    return p;
}

/* Run p to the end and check the invariants on the final state. */
static sim_result run(const sim_params *p)
{
    sim_net *net;
    sim_result r;
    err e;
    err_clear(&e);
    int rc = sim_net_create(p, &net, &e);
    if (rc)
        fail_msg("create: %s", e.msg);
    rc = sim_net_run(net, &r, &e);
    if (rc)
        fail_msg("run: %s", e.msg);
    if (sim_check_invariants(net, &e))
        fail_msg("%s", e.msg);
    sim_net_destroy(net);
    return r;
}

/* ---- exact mean hop counts, independent of the simulator --------------- */

static double mean_hops_uniform_from(const net_design *d, long u)
{
    long n = net_nodes(d);
    double s = 0;
    for (long v = 0; v < n; v++)
        if (v != u)
            s += net_distance(d, u, v);
    return s / (double)(n - 1);
}

static double mean_hops_pattern(const net_design *d, const net_workload *w,
                                long *silent)
{
    long n = net_nodes(d), senders = 0;
    double s = 0;
    *silent = 0;
    for (long u = 0; u < n; u++) {
        if (w->traffic == NET_TRAFFIC_UNIFORM) {
            s += mean_hops_uniform_from(d, u);
        } else if (w->traffic == NET_TRAFFIC_HOTSPOT) {
            long h = w->hotspot_node < 0 ? n - 1 : w->hotspot_node;
            double uni = mean_hops_uniform_from(d, u);
            s += u == h ? uni
                        : w->hotspot_fraction * net_distance(d, u, h) +
                              (1 - w->hotspot_fraction) * uni;
        } else {
            long v = net_permutation_dest(d, w->traffic, u);
            if (v == u) {
                (*silent)++;
                continue;
            }
            s += net_distance(d, u, v);
        }
        senders++;
    }
    return s / (double)senders;
}

/* Zero load: one message in the network at a time, nearly always. */
static void zero_load(const char *design, const char *workload, double tol)
{
    sim_params p = make(design, workload);
    long n = net_nodes(&p.design);
    long silent;
    double hops = mean_hops_pattern(&p.design, &p.workload, &silent);
    int len = net_message_flits(&p.design, &p.workload);
    double dr = p.design.router_delay;
    /* about one message per 3000 cycles in the whole network */
    p.rate = 1.0 / (3000.0 * (double)n);
    p.warmup_messages = 500;
    p.messages = 20000;
    p.seed = 7;
    sim_result r = run(&p);
    double expect = hops * (1 + dr) + len;
    if (r.status != SIM_OK || fabs(r.latency - expect) > tol * expect ||
        silent != r.silent_nodes)
        fail_msg("%s / %s: latency %.4f (%s), expected %.4f = %.4f hops x "
                 "(1 + %g) + %d; silent %ld vs %ld",
                 design, workload, r.latency, sim_status_name(r.status),
                 expect, hops, dr, len, r.silent_nodes, silent);
    /* Per message the latency is hops (1 + Dr) + its length when nothing
     * else is in the way: the means agree to within the rare collisions. */
    double own = r.hops * (1 + dr) + r.message_flits;
    if (fabs(r.latency - own) > 0.002 * own)
        fail_msg("%s / %s: latency %.4f but measured hops %.4f and length "
                 "%.4f give %.4f",
                 design, workload, r.latency, r.hops, r.message_flits, own);
    assert_true(r.source_wait < 0.01 * r.latency);
    assert_true(fabs(r.network_latency + r.source_wait - r.latency) < 1e-9);
    assert_int_equal(r.messages, 20000);
}

static void test_zero_load_torus(void **state)
{
    (void)state;
    zero_load("topology=torus k=4 n=2 vcs=2 router_delay=1", "message_bits=8",
              0.005);
    zero_load("topology=torus k=4 n=2 vcs=3 routing=duato router_delay=1",
              "message_bits=8", 0.005);
    zero_load("topology=torus k=4 n=2 vcs=4 routing=minimal_adaptive "
              "router_delay=0",
              "message_bits=12", 0.005);
    zero_load("topology=torus k=8 n=2 vcs=4 routing=minimal_adaptive "
              "router_delay=1",
              "message_bits=12", 0.005);
    /* odd and mixed radices, Dr = 2 */
    zero_load("topology=torus k=5x3 vcs=2 router_delay=2", "message_bits=6",
              0.005);
    zero_load("topology=torus k=3 n=3 vcs=3 routing=duato router_delay=1",
              "message_bits=10", 0.005);
    /* deeper buffers, unlimited ejection, wider channels */
    zero_load("topology=torus k=4 n=2 vcs=2 buffer=4 ejection=0 width=4",
              "message_bits=32", 0.005);
}

static void test_zero_load_mesh_hypercube(void **state)
{
    (void)state;
    zero_load("topology=mesh k=4 n=2 vcs=1 router_delay=1", "message_bits=8",
              0.005);
    zero_load("topology=mesh k=3x5 vcs=2 routing=duato router_delay=1",
              "message_bits=8", 0.005);
    zero_load("topology=hypercube n=4 vcs=1 router_delay=1",
              "message_bits=8", 0.005);
    zero_load("topology=hypercube n=5 vcs=2 routing=duato router_delay=2",
              "message_bits=16", 0.005);
}

static void test_zero_load_patterns(void **state)
{
    (void)state;
    zero_load("topology=torus k=4 n=2 vcs=2", "message_bits=8 traffic=transpose",
              0.005);
    zero_load("topology=torus k=4 n=2 vcs=3 routing=duato",
              "message_bits=8 traffic=hotspot theta=0.2", 0.005);
    zero_load("topology=hypercube n=4 vcs=2 routing=duato",
              "message_bits=8 traffic=bit_reversal", 0.005);
    zero_load("topology=mesh k=4 n=2 vcs=1", "message_bits=8 traffic=shuffle",
              0.005);
    zero_load("topology=torus k=8 n=2 vcs=2",
              "message_bits=8 traffic=hotspot theta=0.5 hotspot_node=9",
              0.005);
}

/* Credit delay c with B >= c + 1 keeps full-rate pipelining, so the
 * zero-load formula holds; with B = 1 it cannot. */
static void test_zero_load_credit_delay(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=4 n=2 vcs=2 buffer=3 router_delay=1",
                        "message_bits=8");
    p.credit_delay = 2;
    p.rate = 1.0 / (3000.0 * 16);
    p.warmup_messages = 200;
    p.messages = 5000;
    sim_result r = run(&p);
    double expect = net_avg_distance(&p.design) * 2 + 8;
    assert_int_equal(r.status, SIM_OK);
    assert_true(fabs(r.latency - expect) < 0.01 * expect);

    p.design.buffer_flits = 1;
    p.credit_delay = 1;
    r = run(&p);
    assert_int_equal(r.status, SIM_OK);
    /* a flit can follow only every 2 cycles: the tail arrives ~L later */
    assert_true(r.latency > expect + 0.5 * 8);
}

/* Exponential (geometric) lengths: mean Lm, and zero-load latency
 * hops (1 + Dr) + Lm on average. */
static void test_zero_load_exponential(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=4 n=2 vcs=3 routing=duato",
                        "message_bits=8 length=exponential");
    p.rate = 1.0 / (3000.0 * 16);
    p.warmup_messages = 500;
    p.messages = 20000;
    sim_result r = run(&p);
    assert_int_equal(r.status, SIM_OK);
    /* geometric mean 8, sd sqrt(56): 3 standard errors is 1.6% */
    assert_true(fabs(r.message_flits - 8) < 0.02 * 8);
    double expect = net_avg_distance(&p.design) * 2 + 8;
    assert_true(fabs(r.latency - expect) < 0.02 * expect);
    double own = r.hops * 2 + r.message_flits;
    assert_true(fabs(r.latency - own) < 0.003 * own);
}

/* ---- random numbers ---------------------------------------------------- */

static void test_rng(void **state)
{
    (void)state;
    rng a, b, c;
    rng_seed(&a, 42, 3);
    rng_seed(&b, 42, 3);
    rng_seed(&c, 42, 4);
    int same = 1, differ = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
        same &= x == y;
        differ += x != z;
    }
    assert_true(same);
    assert_true(differ > 95);

    double s = 0, s2 = 0;
    long counts[7] = {0};
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        double u = rng_uniform(&a);
        assert_true(u >= 0 && u < 1);
        uint64_t k = rng_below(&a, 7);
        assert_true(k < 7);
        counts[k]++;
        long g = rng_geometric(&a, 6.0);
        assert_true(g >= 1);
        s += (double)g;
        s2 += (double)g * (double)g;
    }
    for (int k = 0; k < 7; k++)  /* 5 sigma of a binomial(n, 1/7) */
        assert_true(fabs((double)counts[k] - n / 7.0) < 5 * sqrt(n / 7.0));
    double mean = s / n, var = s2 / n - mean * mean;
    /* geometric with mean 6: variance mean^2 - mean = 30 */
    assert_true(fabs(mean - 6) < 5 * sqrt(30.0 / n));
    assert_true(fabs(var - 30) < 0.05 * 30);
    assert_int_equal(rng_geometric(&a, 1.0), 1);
}

/* ---- what the simulator refuses ---------------------------------------- */

static void expect_code(const char *design, const char *workload, int code)
{
    sim_params p = make(design, workload);
    sim_result r;
    err e;
    err_clear(&e);
    p.rate = 0.01;
    int rc = sim_run(&p, &r, &e);
    if (rc != code)
        fail_msg("%s / %s: got %d (%s), expected %d", design, workload, rc,
                 e.msg, code);
    assert_true(strlen(e.msg) > 10);
}

static void test_unsupported(void **state)
{
    (void)state;
    /* (dcsh, express, pcube, hop_based, pcs and broadcast: test_sim2.c) */
    expect_code("topology=mesh k=4 n=2 vcs=2 routing=duato",
                "traffic=broadcast beta=0.1", ERR_UNSUPPORTED);
    expect_code("topology=hypercube n=4 vcs=1",
                "traffic=broadcast beta=0.1", ERR_UNSUPPORTED);
    expect_code("topology=express k=16 n=2 kn=4 m=200 vcs=2", "",
                ERR_UNSUPPORTED);
    /* infeasible: fewer VCs than deadlock freedom needs */
    expect_code("topology=torus k=4 n=2 vcs=1", "", ERR_INFEASIBLE);
    expect_code("topology=torus k=4 n=2 vcs=2 routing=duato", "",
                ERR_INFEASIBLE);
    expect_code("topology=torus k=4 n=3 vcs=4 routing=minimal_adaptive", "",
                ERR_INFEASIBLE);
    /* invalid workload or rate */
    expect_code("topology=torus k=3 n=2 vcs=2", "traffic=bit_reversal",
                ERR_INVALID);
    sim_params p = make("topology=torus k=4 n=2 vcs=2", "");
    sim_result r;
    err e;
    p.rate = 0;
    assert_int_equal(sim_run(&p, &r, &e), ERR_INVALID);
    p.rate = NAN;
    assert_int_equal(sim_run(&p, &r, &e), ERR_INVALID);
    net_design d = p.design;
    net_workload w = p.workload;
    assert_int_equal(sim_supports(&d, &w, &e), 0);
}

/* ---- run control ------------------------------------------------------- */

static void test_ci_rule(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=4 n=2 vcs=2", "message_bits=8");
    p.rate = 0.02;
    p.stop = SIM_STOP_CI;
    p.ci_target = 0.02;
    p.min_messages = 5000;
    p.warmup_messages = 2000;
    sim_result r = run(&p);
    assert_int_equal(r.status, SIM_OK);
    assert_true(r.ci_met);
    assert_true(r.batches >= 10 && r.batches <= 64);
    assert_true(r.messages >= 5000);
    assert_true(r.latency_ci95 > 0 && r.latency_ci95 < 0.02 * r.latency);
    /* a tighter target needs more messages */
    p.ci_target = 0.005;
    sim_result t = run(&p);
    assert_int_equal(t.status, SIM_OK);
    assert_true(t.ci_met);
    assert_true(t.messages > r.messages);
    assert_true(t.latency_ci95 < 0.005 * t.latency);
}

static void test_silent_nodes(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=4 n=2 vcs=2",
                        "message_bits=8 traffic=transpose");
    p.rate = 0.01;
    p.warmup_messages = 1000;
    p.messages = 4000;
    sim_result r = run(&p);
    assert_int_equal(r.status, SIM_OK);
    assert_int_equal(r.silent_nodes, 4);       /* the diagonal (i, i) */
    assert_non_null(strstr(r.detail, "send nothing"));
    /* offered load is over all 16 nodes: 12 send lambda L flits */
    assert_true(fabs(r.offered_flits - 0.01 * 8 * 12 / 16) <
                0.1 * 0.01 * 8 * 12 / 16);
}

static void test_merge(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=4 n=2 vcs=3 routing=duato",
                        "message_bits=8");
    p.rate = 0.02;
    p.warmup_messages = 1000;
    p.messages = 3000;
    sim_result rs[3], m;
    for (int i = 0; i < 3; i++) {
        p.seed = 100 + (uint64_t)i;
        rs[i] = run(&p);
        assert_int_equal(rs[i].status, SIM_OK);
    }
    sim_result_merge(rs, 3, &m);
    assert_int_equal(m.replications, 3);
    assert_int_equal(m.messages, 9000);
    double mean = (rs[0].latency + rs[1].latency + rs[2].latency) / 3;
    assert_true(fabs(m.latency - mean) < 1e-9);
    assert_true(m.latency_ci95 > 0);
    /* a saturated replication makes the point saturated */
    rs[1].status = SIM_SATURATED;
    rs[1].saturated = 1;
    sim_result_merge(rs, 3, &m);
    assert_int_equal(m.status, SIM_SATURATED);
    assert_true(m.latency == 0);
}

/* ---- determinism ------------------------------------------------------- */

static void test_determinism_threads(void **state)
{
    (void)state;
    enum { NJ = 6 };
    sim_params jobs[NJ];
    const char *designs[3] = {"topology=torus k=4 n=2 vcs=3 routing=duato",
                              "topology=torus k=4 n=2 vcs=4 "
                              "routing=minimal_adaptive",
                              "topology=hypercube n=4 vcs=2 routing=duato"};
    for (int i = 0; i < NJ; i++) {
        jobs[i] = make(designs[i % 3], "message_bits=8 length=exponential");
        jobs[i].rate = i < 3 ? 0.02 : 0.05;
        jobs[i].seed = 11 + (uint64_t)(i / 3);
        jobs[i].warmup_messages = 1000;
        jobs[i].messages = 3000;
    }
    sim_result one[NJ], two[NJ];
    int c1[NJ], c2[NJ];
    err e;
    memset(one, 0, sizeof one);
    memset(two, 0, sizeof two);
    assert_int_equal(sim_run_many(jobs, NJ, 1, one, c1, NULL, NULL, NULL, &e),
                     0);
    assert_int_equal(sim_run_many(jobs, NJ, 2, two, c2, NULL, NULL, NULL, &e),
                     0);
    assert_memory_equal(one, two, sizeof one);
    assert_memory_equal(c1, c2, sizeof c1);
    /* the same as a plain sim_run */
    sim_result solo;
    assert_int_equal(sim_run(&jobs[4], &solo, &e), 0);
    assert_memory_equal(&solo, &one[4], sizeof solo);
    /* another seed gives another sample */
    assert_true(one[0].latency != one[3].latency ||
                one[0].cycles != one[3].cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load_torus),
        cmocka_unit_test(test_zero_load_mesh_hypercube),
        cmocka_unit_test(test_zero_load_patterns),
        cmocka_unit_test(test_zero_load_credit_delay),
        cmocka_unit_test(test_zero_load_exponential),
        cmocka_unit_test(test_rng),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_ci_rule),
        cmocka_unit_test(test_silent_nodes),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_determinism_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
