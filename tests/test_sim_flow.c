/*
 * test_sim_flow.c — sim/ under load: conservation (every generated message
 * delivered exactly once, flit counts equal, invariants hold in a full
 * network), throughput never above the channel-load bound of the topology
 * and pattern (computed here by walking every path), saturation reported as
 * such, and the deadlock watchdog: silent for every deadlock-free routing at
 * 150% of saturation, firing with the channels involved for a torus with
 * one VC.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
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

/* ---- channel-load bounds (flits per node per cycle) -------------------- */

/* Network channels (one direction of a link). */
static long channels(const net_design *d)
{
    long n = net_nodes(d), c = 0;
    for (int i = 0; i < d->n; i++) {
        int k = d->k[i];
        switch (d->topology) {
        case NET_TORUS: c += 2 * n; break;
        case NET_MESH: c += 2 * (n / k) * (k - 1); break;
        case NET_HYPERCUBE: c += n; break;
        default: fail_msg("topology");
        }
    }
    return c;
}

/* Any minimal routing, uniform traffic: the busiest channel carries at
 * least the average load theta * N * avg_distance / C, and every node
 * injects and ejects at most one flit per cycle. */
static double bound_minimal(const net_design *d)
{
    double b = (double)channels(d) /
               ((double)net_nodes(d) * net_avg_distance(d));
    return b < 1 ? b : 1;
}

/* Dimension-order routing, uniform traffic: walk every path (lowest
 * dimension first, + at a torus tie) and count each channel's paths; the
 * busiest one saturates at theta = (N-1) / paths. */
static double bound_dor(const net_design *d)
{
    long n = net_nodes(d);
    long *count = calloc((size_t)(n * 2 * d->n), sizeof *count);
    long busiest = 0;
    for (long s = 0; s < n; s++)
        for (long t = 0; t < n; t++) {
            if (s == t)
                continue;
            int a[NET_MAX_DIMS], b[NET_MAX_DIMS];
            net_coords(d, s, a);
            net_coords(d, t, b);
            for (int i = 0; i < d->n; i++) {
                int k = d->k[i];
                while (a[i] != b[i]) {
                    int dir;
                    if (d->topology == NET_TORUS) {
                        int x = ((b[i] - a[i]) % k + k) % k;
                        dir = x <= k - x ? +1 : -1;
                    } else if (d->topology == NET_MESH) {
                        dir = b[i] > a[i] ? +1 : -1;
                    } else {
                        dir = +1;
                    }
                    long u = net_node_id(d, a);
                    long *c = &count[u * 2 * d->n + 2 * i + (dir < 0)];
                    if (++*c > busiest)
                        busiest = *c;
                    a[i] = d->topology == NET_HYPERCUBE ? 1 - a[i]
                                                         : (a[i] + dir + k) % k;
                }
            }
        }
    free(count);
    double b = (double)(n - 1) / (double)busiest;
    return b < 1 ? b : 1;
}

/* ---- conservation ------------------------------------------------------ */

static void conservation(const char *design, const char *workload,
                         double factor, int credit_delay)
{
    sim_params p = make(design, workload);
    double bound = bound_minimal(&p.design);
    int len = net_message_flits(&p.design, &p.workload);
    p.rate = factor * bound / len;
    p.track_delivery = 1;
    p.credit_delay = credit_delay;
    p.deadlock_cycles = 200;     /* examine the network often */
    p.seed = 3;
    sim_net *net;
    err e;
    err_clear(&e);
    if (sim_net_create(&p, &net, &e))
        fail_msg("%s: %s", design, e.msg);
    for (int i = 0; i < 4; i++) {
        if (sim_net_step(net, 1000, &e))
            fail_msg("%s / %s at %.2f x bound: %s", design, workload, factor,
                     e.msg);
        if (sim_check_invariants(net, &e))
            fail_msg("%s / %s under load: %s", design, workload, e.msg);
    }
    sim_counts c;
    sim_net_counts(net, &c);
    assert_true(c.generated > 0);
    if (sim_net_drain(net, 2000000, &e))
        fail_msg("%s / %s drain: %s", design, workload, e.msg);
    if (sim_check_invariants(net, &e))
        fail_msg("%s / %s drained: %s", design, workload, e.msg);
    sim_net_counts(net, &c);
    assert_int_equal(c.generated, c.delivered);
    assert_int_equal(c.queued, 0);
    assert_int_equal(c.in_network, 0);
    assert_int_equal(c.flits_generated, c.flits_injected);
    assert_int_equal(c.flits_generated, c.flits_consumed);
    assert_int_equal(c.flits_buffered, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.undelivered, 0);
    sim_net_destroy(net);
}

static const char *const deadlock_free[] = {
    "topology=torus k=4 n=2 vcs=2",
    "topology=torus k=4 n=2 vcs=3 routing=duato",
    "topology=torus k=4 n=2 vcs=4 routing=minimal_adaptive",
    "topology=torus k=4 n=2 vcs=3 routing=minimal_adaptive buffer=2",
    "topology=torus k=5x3 vcs=2 buffer=2 router_delay=2",
    "topology=torus k=3 n=3 vcs=4 routing=duato ejection=0",
    "topology=torus k=8 n=1 vcs=2",
    "topology=torus k=6 n=1 vcs=3 routing=duato",
    "topology=mesh k=4 n=2 vcs=1",
    "topology=mesh k=4 n=2 vcs=2 routing=duato",
    "topology=mesh k=3x4 vcs=3 routing=duato buffer=3",
    "topology=hypercube n=4 vcs=1",
    "topology=hypercube n=4 vcs=2 routing=duato router_delay=0",
};
#define NDF (sizeof deadlock_free / sizeof deadlock_free[0])

static void test_conservation_light(void **state)
{
    (void)state;
    for (size_t i = 0; i < NDF; i++)
        conservation(deadlock_free[i], "message_bits=8", 0.3, 0);
}

static void test_conservation_past_saturation(void **state)
{
    (void)state;
    for (size_t i = 0; i < NDF; i++)
        conservation(deadlock_free[i], "message_bits=8", 1.5, 0);
    /* lengths, traffic, ejection and credits that stress other paths */
    conservation("topology=torus k=4 n=2 vcs=3 routing=duato",
                 "message_bits=8 length=exponential", 1.5, 0);
    conservation("topology=torus k=4 n=2 vcs=2 ejection=2",
                 "message_bits=8 traffic=hotspot theta=0.3", 1.5, 0);
    conservation("topology=torus k=4 n=2 vcs=4 routing=minimal_adaptive",
                 "message_bits=8 traffic=transpose", 1.5, 0);
    conservation("topology=hypercube n=4 vcs=2 routing=duato",
                 "message_bits=8 traffic=bit_reversal", 1.5, 0);
    conservation("topology=mesh k=4 n=2 vcs=2 routing=duato",
                 "message_bits=8 traffic=shuffle", 1.5, 0);
    conservation("topology=torus k=4 n=2 vcs=2 buffer=2",
                 "message_bits=8", 1.5, 1);
    conservation("topology=torus k=4 n=2 vcs=3 routing=duato buffer=3",
                 "message_bits=5 length=exponential", 1.5, 2);
}

/* ---- throughput bound and saturation ----------------------------------- */

static void saturate(const char *design, int dor)
{
    sim_params p = make(design, "message_bits=8");
    double bound = bound_minimal(&p.design);
    if (dor) {
        double b = bound_dor(&p.design);
        assert_true(b <= bound + 1e-12);   /* the exact bound is tighter */
        bound = b;
    }
    p.rate = 2 * bound / 8;
    p.warmup_messages = 1000;
    p.messages = 8000;
    p.saturation_queue = 1e9;    /* judge by throughput alone */
    p.seed = 5;
    sim_result r;
    err e;
    if (sim_run(&p, &r, &e))
        fail_msg("%s: %s", design, e.msg);
    if (r.status != SIM_SATURATED || r.accepted_flits > 1.03 * bound ||
        r.accepted_flits < 0.1 * bound)
        fail_msg("%s at 2 x bound: %s, accepted %.4f, bound %.4f", design,
                 sim_status_name(r.status), r.accepted_flits, bound);
    /* never a finite latency for a saturated point */
    assert_true(r.latency == 0 && r.saturated && !r.deadlock);
    assert_non_null(strstr(r.detail, "saturated"));
}

static void test_throughput_bound(void **state)
{
    (void)state;
    /* configurations whose channel bound is below the injection bound */
    saturate("topology=torus k=12 n=1 vcs=2 buffer=4 ejection=0", 1);
    saturate("topology=torus k=12 n=1 vcs=4 routing=duato buffer=4 "
             "ejection=0",
             0);
    saturate("topology=torus k=16x3 vcs=4 buffer=4 ejection=0", 1);
    saturate("topology=torus k=16x3 vcs=6 routing=minimal_adaptive buffer=4 "
             "ejection=0",
             0);
    saturate("topology=torus k=16x3 vcs=4 routing=duato buffer=4 ejection=0",
             0);
    saturate("topology=mesh k=6 n=2 vcs=2 buffer=4 ejection=0", 1);
    saturate("topology=mesh k=6 n=2 vcs=4 routing=duato buffer=4 ejection=0",
             0);
    saturate("topology=mesh k=8 n=1 vcs=1 buffer=4 ejection=0", 1);
    /* injection-bound ones */
    saturate("topology=hypercube n=4 vcs=4 routing=duato buffer=4 "
             "ejection=0",
             0);
    saturate("topology=torus k=4 n=2 vcs=2", 1);
}

/* The DOR bound brute force agrees with closed forms: in an 8-ring with +
 * at the tie, link u -> u+1 carries the paths of sources u, u-1, u-2, u-3
 * of at least 1, 2, 3, 4 hops: 4 + 3 + 2 + 1 = 10 of each source's 7
 * destinations, so theta <= 7/10; a binary 4-cube's e-cube puts 2^(n-1) = 8
 * paths on every channel: 15/8, capped at 1 by injection. */
static void test_bound_brute_force(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=8 n=1 vcs=2", "");
    assert_true(fabs(bound_dor(&p.design) - 0.7) < 1e-12);
    p = make("topology=hypercube n=4 vcs=1", "");
    assert_true(fabs(bound_dor(&p.design) - 1.0) < 1e-12);
    p = make("topology=mesh k=4 n=1 vcs=1", "");
    /* middle link of a 4-node line: 2 x 2 = 4 paths one way: 3/4 */
    assert_true(fabs(bound_dor(&p.design) - 0.75) < 1e-12);
}

/* ---- the watchdog ------------------------------------------------------ */

static void test_watchdog_fires(void **state)
{
    (void)state;
    const char *prone[] = {"topology=torus k=4 n=2 vcs=1",
                           "topology=torus k=8 n=1 vcs=1"};
    for (int i = 0; i < 2; i++) {
        sim_params p = make(prone[i], "message_bits=16");
        p.rate = 0.1;
        p.allow_deadlock_prone = 1;
        p.deadlock_cycles = 300;
        p.saturation_queue = 1e9;
        p.warmup_messages = 100;
        p.messages = 100000;
        sim_result r;
        err e;
        assert_int_equal(sim_run(&p, &r, &e), 0);
        if (r.status != SIM_DEADLOCK)
            fail_msg("%s: %s, %s", prone[i], sim_status_name(r.status),
                     r.detail);
        assert_true(r.deadlock && !r.saturated && r.latency == 0);
        assert_non_null(strstr(r.detail, "cycle:"));
        assert_non_null(strstr(r.detail, "vc0"));
        assert_non_null(strstr(r.detail, "->"));
        /* without the test switch the design is refused */
        p.allow_deadlock_prone = 0;
        assert_int_equal(sim_run(&p, &r, &e), ERR_INFEASIBLE);
    }
    /* the step interface reports it as an error */
    sim_params p = make("topology=torus k=8 n=1 vcs=1", "message_bits=16");
    p.rate = 0.1;
    p.allow_deadlock_prone = 1;
    p.deadlock_cycles = 300;
    sim_net *net;
    err e;
    assert_int_equal(sim_net_create(&p, &net, &e), 0);
    assert_int_equal(sim_net_step(net, 20000, &e), ERR_DEADLOCK);
    assert_non_null(strstr(e.msg, "can never move"));
    assert_int_equal(sim_check_invariants(net, &e), 0);
    sim_net_destroy(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conservation_light),
        cmocka_unit_test(test_conservation_past_saturation),
        cmocka_unit_test(test_bound_brute_force),
        cmocka_unit_test(test_throughput_bound),
        cmocka_unit_test(test_watchdog_fires),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
