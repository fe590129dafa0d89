/*
 * test_sim_par.c — the partitioned engine (sim/engine_par.c): one run on
 * several threads.
 *
 *   - Thread-count independence: the same (params, seed) on 1, 2 and 3
 *     threads gives the same sim_result bit for bit (torus and mesh,
 *     express cube and hypercube, uniform and hot-spot traffic, dimension
 *     order and duato, below and past saturation, a deadlock-prone
 *     network that deadlocks), and the
 *     same counters after every stretch of a stepped run.
 *   - Conservation and the engine's own lists (sim_check_invariants)
 *     after every stretch, and at the end of every run.
 *   - Zero-load latency is exactly h (1 + D_r) + L, as on the serial
 *     engines.
 *   - It simulates what the serial engines simulate with credit delay 1:
 *     latency within the combined 95% half-widths, accepted throughput
 *     within 2%.
 *   - The stop flag stops a run on several threads.
 *   - Gating: several threads without the partitioned mode, a credit
 *     delay other than 1 and DCSH buses are refused.
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
#include "sim/sim.h"
#include "sim/sim_int.h"

static sim_params make(const char *design, const char *workload, double rate,
                       int threads)
{
    sim_params p;
    err e;
    sim_params_init(&p);
    err_clear(&e);
    assert_int_equal(net_design_parse(&p.design, design, &e), 0);
    assert_int_equal(net_workload_parse(&p.workload, workload, &e), 0);
    p.rate = rate;
    p.credit_delay = 1;
    p.partitioned = 1;
    p.threads = threads;
    p.warmup_messages = 1000;
    p.messages = 6000;
    return p;
}

static void run(const sim_params *p, sim_result *r)
{
    err e;
    err_clear(&e);
    if (sim_run(p, r, &e))
        fail_msg("%s", e.msg);
}

static void same_result(const sim_result *a, const sim_result *b)
{
    assert_int_equal(a->status, b->status);
    assert_true(a->latency == b->latency);
    assert_true(a->latency_ci95 == b->latency_ci95);
    assert_true(a->network_latency == b->network_latency);
    assert_true(a->source_wait == b->source_wait);
    assert_true(a->latency_p50 == b->latency_p50);
    assert_true(a->latency_p99 == b->latency_p99);
    assert_true(a->latency_max == b->latency_max);
    assert_true(a->hops == b->hops);
    assert_true(a->offered_flits == b->offered_flits);
    assert_true(a->accepted_flits == b->accepted_flits);
    assert_true(a->accepted_messages == b->accepted_messages);
    assert_int_equal(a->messages, b->messages);
    assert_int_equal(a->batches, b->batches);
    assert_int_equal(a->cycles, b->cycles);
    assert_string_equal(a->detail, b->detail);
}

static const struct {
    const char *design, *workload;
    double rate;
} cases[] = {
    /* light (the empty network jumps to the next arrival), below
     * saturation, then past it */
    {"topology=torus k=8 n=2 vcs=2 buffer=4", "message_bits=16", 0.0005},
    {"topology=torus k=8 n=2 vcs=2 buffer=4", "message_bits=16", 0.008},
    {"topology=torus k=8 n=2 vcs=2 buffer=4", "message_bits=16", 0.03},
    {"topology=mesh k=8 n=2 vcs=2 buffer=2",
     "message_bits=16 traffic=hotspot theta=0.05", 0.008},
    {"topology=mesh k=8 n=2 vcs=2 buffer=2",
     "message_bits=16 traffic=hotspot theta=0.05", 0.02},
    {"topology=torus k=8 n=2 vcs=3 buffer=2 routing=duato router_delay=1",
     "message_bits=16 length=exponential", 0.015},
    {"topology=torus k=6 n=3 vcs=2 buffer=1", "message_bits=8", 0.01},
    /* routers without a PE (express interchanges), and the hypercube */
    {"topology=express n=2 k=16 kn=4 m=1 vcs=2 buffer=2", "message_bits=16",
     0.002},
    {"topology=hypercube n=6 vcs=2 buffer=2", "message_bits=16", 0.01},
};

static void test_thread_count_independent(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_result r1, r2, r3;
        sim_params p = make(cases[i].design, cases[i].workload,
                            cases[i].rate, 1);
        run(&p, &r1);
        p.threads = 2;
        run(&p, &r2);
        p.threads = 3;
        run(&p, &r3);
        same_result(&r1, &r2);
        same_result(&r1, &r3);
        assert_true(r1.messages > 0);
    }
}

/* A torus with one VC deadlocks under load: the watchdog finds it at the
 * same cycle on every thread count. */
static void test_deadlock_same(void **state)
{
    (void)state;
    sim_result r1, r2;
    sim_params p = make("topology=torus k=8 n=2 vcs=1 buffer=2",
                        "message_bits=32", 0.03, 1);
    p.allow_deadlock_prone = 1;
    p.deadlock_cycles = 500;
    run(&p, &r1);
    p.threads = 2;
    run(&p, &r2);
    assert_int_equal(r1.status, SIM_DEADLOCK);
    same_result(&r1, &r2);
}

/* Stepped: counters agree after every stretch, invariants hold, and the
 * network drains. */
static void test_stepped_invariants(void **state)
{
    (void)state;
    sim_params p = make("topology=mesh k=8 n=2 vcs=2 buffer=2",
                        "message_bits=16 traffic=hotspot theta=0.1", 0.015,
                        1);
    p.track_delivery = 1;
    sim_net *a, *b;
    err e;
    err_clear(&e);
    assert_int_equal(sim_net_create(&p, &a, &e), 0);
    p.threads = 3;
    assert_int_equal(sim_net_create(&p, &b, &e), 0);
    for (int k = 0; k < 40; k++) {
        assert_int_equal(sim_net_step(a, 97, &e), 0);
        assert_int_equal(sim_net_step(b, 97, &e), 0);
        sim_counts ca, cb;
        sim_net_counts(a, &ca);
        sim_net_counts(b, &cb);
        assert_true(memcmp(&ca, &cb, sizeof ca) == 0);
        assert_true(ca.flits_consumed > 0 || k < 2);
        if (sim_check_invariants(a, &e) || sim_check_invariants(b, &e))
            fail_msg("%s", e.msg);
    }
    assert_int_equal(sim_net_drain(a, 100000, &e), 0);
    assert_int_equal(sim_net_drain(b, 100000, &e), 0);
    sim_counts ca, cb;
    sim_net_counts(a, &ca);
    sim_net_counts(b, &cb);
    assert_int_equal(ca.undelivered, 0);
    assert_int_equal(ca.duplicates, 0);
    assert_int_equal(ca.flits_buffered, 0);
    assert_true(memcmp(&ca, &cb, sizeof ca) == 0);
    if (sim_check_invariants(a, &e) || sim_check_invariants(b, &e))
        fail_msg("%s", e.msg);
    sim_net_destroy(a);
    sim_net_destroy(b);
}

/* One message on an empty network: h (1 + D_r) + L. */
static void test_zero_load(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=8 n=2 vcs=2 buffer=2 "
                        "router_delay=1",
                        "message_bits=8", 0.001, 2);
    p.track_delivery = 1;
    p.warmup_messages = 0;
    long trace[4];
    p.latency_trace = trace;
    p.latency_trace_cap = 4;
    sim_net *net;
    err e;
    err_clear(&e);
    assert_int_equal(sim_net_create(&p, &net, &e), 0);
    sim_net_set_sources(net, 0);
    /* node 0 -> node (3, 2): 3 + 2 hops */
    int32_t dst = 2 * 8 + 3;
    sim__message_new(net, 0, dst, 8, sim__serial_new(net));
    assert_int_equal(sim_net_drain(net, 1000, &e), 0);
    assert_int_equal(net->stats.trace_n, 1);
    assert_int_equal(trace[0], 5 * (1 + 1) + 8);
    if (sim_check_invariants(net, &e))
        fail_msg("%s", e.msg);
    sim_net_destroy(net);
}

/* The serial engines with credit delay 1 simulate the same network:
 * statistically the same answer. */
static void test_matches_serial_cd1(void **state)
{
    (void)state;
    static const struct {
        const char *design;
        double rate;
    } pts[] = {
        {"topology=torus k=8 n=2 vcs=2 buffer=4", 0.01},
        {"topology=mesh k=8 n=2 vcs=2 buffer=2", 0.008},
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        sim_params p = make(pts[i].design, "message_bits=16", pts[i].rate,
                            1);
        p.messages = 40000;
        sim_result par, ser;
        run(&p, &par);
        p.partitioned = 0;
        p.threads = 1;
        run(&p, &ser);
        assert_int_equal(par.status, SIM_OK);
        assert_int_equal(ser.status, SIM_OK);
        double tol = par.latency_ci95 + ser.latency_ci95;
        if (fabs(par.latency - ser.latency) > tol)
            fail_msg("%s: latency %.3f +- %.3f partitioned, %.3f +- %.3f "
                     "serial",
                     pts[i].design, par.latency, par.latency_ci95,
                     ser.latency, ser.latency_ci95);
        assert_true(fabs(par.accepted_flits - ser.accepted_flits) <
                    0.02 * ser.accepted_flits);
        assert_true(fabs(par.hops - ser.hops) < 0.1);
    }
}

/* The stop flag ends a partitioned run as it ends a serial one (run.c
 * polls it between cycles, with the workers at their barrier). */
static void test_stop_flag(void **state)
{
    (void)state;
    static volatile sig_atomic_t stop = 1;
    sim_params p = make("topology=torus k=16 n=2 vcs=2 buffer=4",
                        "message_bits=16", 0.002, 2);
    p.stop_flag = &stop;
    sim_result r;
    run(&p, &r);
    assert_int_equal(r.status, SIM_STOPPED);
    assert_true(r.cycles > 0 && r.cycles <= 512);
}

static void test_gating(void **state)
{
    (void)state;
    sim_result r;
    err e;
    sim_params p = make("topology=torus k=4 n=2 vcs=2 buffer=2",
                        "message_bits=16", 0.01, 2);
    p.partitioned = 0;
    err_clear(&e);
    assert_int_equal(sim_run(&p, &r, &e), ERR_INVALID);
    p = make("topology=torus k=4 n=2 vcs=2 buffer=2", "message_bits=16",
             0.01, 2);
    p.credit_delay = 0;
    err_clear(&e);
    assert_int_equal(sim_run(&p, &r, &e), ERR_UNSUPPORTED);
    p = make("topology=dcsh k=4 n=2 vcs=2 buffer=1", "message_bits=16",
             0.01, 2);
    err_clear(&e);
    assert_int_equal(sim_run(&p, &r, &e), ERR_UNSUPPORTED);
    p = make("topology=torus k=4 n=2 vcs=2 buffer=2", "message_bits=16",
             0.01, 0);
    err_clear(&e);
    assert_int_equal(sim_run(&p, &r, &e), ERR_INVALID);
    /* zeroed fields (callers that fill sim_params by hand) stay serial */
    p.partitioned = 0;
    p.credit_delay = 0;
    p.messages = 500;
    p.warmup_messages = 100;
    err_clear(&e);
    assert_int_equal(sim_run(&p, &r, &e), 0);
    assert_int_equal(r.status, SIM_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_count_independent),
        cmocka_unit_test(test_deadlock_same),
        cmocka_unit_test(test_stepped_invariants),
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_matches_serial_cd1),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_gating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
