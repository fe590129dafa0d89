/*
 * test_sim2.c — simulator II at zero load: the DCSH (flit- and
 * message-level multiplexers), express-cubes, P-cube, hop-based, PCS and
 * broadcast trees reproduce their zero-load latencies exactly.
 *
 *   - Every ordered pair, one message alone in the network (sent through
 *     the internal sim__message_new): latency = h (1 + D_r) + L for
 *     wormhole, h (3 + D_r) + L for PCS (probe, acknowledgement, data;
 *     sim/pcs.c), h = net_distance(u, v) — computed by net/, not by the
 *     simulator, so for the express-cube this checks the thesis 6.2 route
 *     (local to the first interchange, express, local) hop for hop.
 *   - Every source, one broadcast alone: latency = depth (1 + D_r + L),
 *     depth = sum floor(k_i/2) (torus) or n (DCSH); every node reached
 *     exactly once; the torus tree's replication counts are [SOM02]'s
 *     N_r = (2k, k^2 - 3k, 2, k - 3); the DCSH sends
 *     n + sum_i (k-1) k^i (n-1-i) bus copies.
 *   - The measurement path (sim_run at a very low rate): mean latency
 *     against exact mean hop counts (brute force over net_distance), for
 *     uniform, hot-spot (PCS) and broadcast traffic.
 * Conservation, bounds, the watchdog and determinism: test_sim2_flow.c.
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
#include "sim/sim_int.h"

static sim_params make(const char *design, const char *workload)
{
    sim_params p;
    err e;
    sim_params_init(&p);
    err_clear(&e);
    if (net_design_parse(&p.design, design, &e) ||
        net_workload_parse(&p.workload, workload, &e))
        fail_msg("%s / %s: %s", design, workload, e.msg);
    return p;
}

/* A network with its sources off: messages come only from the test. */
static sim_net *quiet_net(const char *design, const char *workload)
{
    sim_params p = make(design, workload);
    p.rate = 1e-9;
    p.track_delivery = 1;
    p.deadlock_cycles = 1000;
    sim_net *net;
    err e;
    err_clear(&e);
    if (sim_net_create(&p, &net, &e))
        fail_msg("%s: %s", design, e.msg);
    sim_net_set_sources(net, 0);
    return net;
}

/* Step until `delivered` reaches want; the latency of a message generated
 * at t0 is then net->now - t0 (its last flit is consumed at the end of
 * the cycle just run). */
static long run_until(sim_net *net, long want, long t0, const char *what)
{
    err e;
    for (int i = 0; i < 100000; i++) {
        if (net->delivered >= want)
            return (long)net->now - t0;
        if (sim_net_step(net, 1, &e))
            fail_msg("%s: %s", what, e.msg);
    }
    fail_msg("%s: not delivered", what);
    return -1;
}

/* ---- every pair alone ---------------------------------------------------- */

static void pairs_exact(const char *design, int len)
{
    sim_net *net = quiet_net(design, "message_bits=8");
    const net_design *d = &net->p.design;
    long n = net_nodes(d);
    int dr = d->router_delay;
    int per_hop = d->switching == NET_SWITCH_PCS ? 3 + dr : 1 + dr;
    err e;
    for (long u = 0; u < n; u++)
        for (long v = 0; v < n; v++) {
            if (u == v)
                continue;
            long t0 = (long)net->now;
            long want = net->delivered + 1;
            int64_t serial = sim__serial_new(net);
            sim__message_new(net, (int32_t)u, (int32_t)v, len, serial);
            long lat = run_until(net, want, t0, design);
            long h = net_distance(d, u, v);
            if (lat != h * per_hop + len)
                fail_msg("%s: %ld -> %ld took %ld cycles, expected %ld "
                         "hops x %d + %d = %ld",
                         design, u, v, lat, h, per_hop, len,
                         h * per_hop + len);
        }
    if (sim_check_invariants(net, &e))
        fail_msg("%s: %s", design, e.msg);
    sim_counts c;
    sim_net_counts(net, &c);
    assert_int_equal(c.generated, n * (n - 1));
    assert_int_equal(c.delivered, c.generated);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.undelivered, 0);
    assert_int_equal(c.flits_consumed, c.flits_generated);
    sim_net_destroy(net);
}

static void test_pairs_dcsh(void **state)
{
    (void)state;
    /* V = 1: message-level multiplexers (M8) */
    pairs_exact("topology=dcsh k=4 n=2 vcs=1 router_delay=1", 5);
    pairs_exact("topology=dcsh k=4 n=2 vcs=2 router_delay=0", 3);
    pairs_exact("topology=dcsh k=4 n=2 vcs=2 routing=duato router_delay=2",
                5);
    pairs_exact("topology=dcsh k=3 n=3 vcs=3 routing=hop_based "
                "router_delay=1",
                4);
    pairs_exact("topology=dcsh k=5x3 vcs=2 routing=duato buffer=2 "
                "ejection=0",
                6);
}

static void test_pairs_express(void **state)
{
    (void)state;
    pairs_exact("topology=express k=8 n=1 kn=2 m=1 vcs=2 router_delay=1", 5);
    pairs_exact("topology=express k=12 n=1 kn=3 m=2 vcs=2 router_delay=0",
                4);
    pairs_exact("topology=express k=9 n=1 kn=3 m=1 vcs=2 router_delay=2",
                3);
    pairs_exact("topology=express k=8x6 kn=2 m=2 vcs=4 router_delay=1", 5);
    pairs_exact("topology=express k=6 n=2 kn=3 m=3 vcs=2 buffer=3", 4);
}

static void test_pairs_hypercube(void **state)
{
    (void)state;
    pairs_exact("topology=hypercube n=4 vcs=1 routing=pcube router_delay=1",
                5);
    pairs_exact("topology=hypercube n=5 vcs=3 routing=pcube router_delay=0",
                4);
    pairs_exact("topology=hypercube n=4 vcs=4 routing=hop_based", 5);
    pairs_exact("topology=torus k=4 n=2 vcs=4 routing=hop_based", 5);
    /* PCS: h (3 + D_r) + L */
    pairs_exact("topology=hypercube n=4 vcs=1 routing=minimal_adaptive "
                "switching=pcs router_delay=0 ejection=0",
                5);
    pairs_exact("topology=hypercube n=5 vcs=2 routing=minimal_adaptive "
                "switching=pcs router_delay=1",
                6);
}

/* ---- broadcast trees ------------------------------------------------------ */

static int depth_of(const net_design *d)
{
    if (d->topology == NET_DCSH)
        return d->n;
    int s = 0;
    for (int i = 0; i < d->n; i++)
        s += d->k[i] / 2;
    return s;
}

/* One broadcast from every source, alone in the network.  Returns, in
 * forwarded[u], how many copies node u sent in the broadcast from src
 * (counted for the last source; NULL: not wanted). */
static void bcast_exact(const char *design, int len, long *hist)
{
    sim_net *net = quiet_net(design, "message_bits=8 traffic=broadcast "
                                     "beta=1");
    const net_design *d = &net->p.design;
    long n = net_nodes(d);
    int depth = depth_of(d);
    long expect = (long)depth * (1 + d->router_delay + len);
    const int ipn = net->topo.ipn;
    long *sent = calloc((size_t)n, sizeof *sent);
    err e;
    for (long src = 0; src < n; src++) {
        memset(sent, 0, sizeof *sent * (size_t)n);
        long t0 = (long)net->now;
        long want = net->delivered + 1;
        long copies0 = net->copies_made;
        int64_t serial = sim__serial_new(net);
        sim__bcast_generate(net, (int32_t)src, len, serial);
        for (;;) {
            /* copies are queued in apply and taken at the next injection:
             * between steps the port queues hold what each node forwards */
            for (long u = 0; u < n; u++)
                for (int j = 1; j < ipn; j++)
                    sent[u] += net->iq[u * ipn + j].len;
            if (net->delivered >= want)
                break;
            if (sim_net_step(net, 1, &e))
                fail_msg("%s: %s", design, e.msg);
            if ((long)net->now - t0 > 100000)
                fail_msg("%s: broadcast from %ld never completed", design,
                         src);
        }
        /* every copy the tree makes was counted at generation
         * (sim__bcast_copies): none is owed once it completes */
        assert_int_equal(net->bcast_flits_owed, 0);
        long lat = (long)net->now - t0;
        if (lat != expect)
            fail_msg("%s: broadcast from %ld took %ld cycles, expected depth "
                     "%d x (1 + %d + %d) = %ld",
                     design, src, lat, depth, d->router_delay, len, expect);
        long total = 0;
        for (long u = 0; u < n; u++)
            total += sent[u];
        assert_int_equal(total, net->copies_made - copies0);
        if (d->topology == NET_TORUS) {
            /* one copy per tree edge: every other node receives one */
            assert_int_equal(total, n - 1);
            if (hist) {
                for (long u = 0; u < n; u++)
                    if (u != src)
                        hist[sent[u]]++;
                assert_int_equal(sent[src], 2 * d->n);
            }
        } else {
            /* DCSH: n + sum_i (k-1) k^i (n-1-i) bus copies (a node reached
             * over dimension i forwards on every j > i) */
            long expect_copies = d->n, ki = 1;
            for (int i = 0; i < d->n; i++) {
                expect_copies += (long)(d->k[i] - 1) * ki * (d->n - 1 - i);
                ki *= d->k[i];
            }
            assert_int_equal(total, expect_copies);
        }
    }
    sim_counts c;
    sim_net_counts(net, &c);
    assert_int_equal(c.generated, n);
    assert_int_equal(c.delivered, n);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.undelivered, 0);
    assert_int_equal(c.broadcasts_live, 0);
    assert_int_equal(c.copies_live, 0);
    assert_int_equal(c.copies_made, c.copies_delivered);
    assert_int_equal(c.flits_consumed, c.flits_generated);
    if (sim_check_invariants(net, &e))
        fail_msg("%s: %s", design, e.msg);
    free(sent);
    sim_net_destroy(net);
}

static void test_bcast_torus_tree(void **state)
{
    (void)state;
    for (int k = 3; k <= 7; k++) {
        char design[128];
        snprintf(design, sizeof design,
                 "topology=torus k=%d n=2 vcs=3 routing=duato "
                 "router_delay=%d",
                 k, k % 3);
        long hist[8] = {0};
        bcast_exact(design, 4, hist);
        /* [SOM02] eq.(2), summed over the k^2 sources */
        long k2 = (long)k * k;
        assert_int_equal(hist[0], k2 * 2 * k);
        assert_int_equal(hist[1], k2 * (k2 - 3 * k));
        assert_int_equal(hist[2], k2 * 2);
        assert_int_equal(hist[3], k2 * (k - 3));
        for (int i = 4; i < 8; i++)
            assert_int_equal(hist[i], 0);
    }
    bcast_exact("topology=torus k=4 n=2 vcs=2 router_delay=1", 3, NULL);
    bcast_exact("topology=torus k=5x4 vcs=4 routing=minimal_adaptive", 2,
                NULL);
    bcast_exact("topology=torus k=3 n=3 vcs=3 routing=duato buffer=2", 5,
                NULL);
}

static void test_bcast_dcsh_tree(void **state)
{
    (void)state;
    bcast_exact("topology=dcsh k=4 n=2 vcs=2 routing=duato router_delay=2",
                4, NULL);
    bcast_exact("topology=dcsh k=4 n=2 vcs=1 router_delay=1", 3, NULL);
    bcast_exact("topology=dcsh k=3 n=3 vcs=3 routing=hop_based", 5, NULL);
    bcast_exact("topology=dcsh k=5x3 vcs=2", 2, NULL);
}

/* ---- the measurement path at a very low rate ---------------------------- */

static double mean_hops_from(const net_design *d, long u)
{
    long n = net_nodes(d);
    double s = 0;
    for (long v = 0; v < n; v++)
        if (v != u)
            s += net_distance(d, u, v);
    return s / (double)(n - 1);
}

/* Exact mean hops of uniform (or hot-spot) traffic over all sources. */
static double mean_hops(const net_design *d, const net_workload *w)
{
    long n = net_nodes(d);
    double s = 0;
    for (long u = 0; u < n; u++) {
        double uni = mean_hops_from(d, u);
        if (w->traffic == NET_TRAFFIC_HOTSPOT) {
            long h = w->hotspot_node < 0 ? n - 1 : w->hotspot_node;
            s += u == h ? uni
                        : w->hotspot_fraction * net_distance(d, u, h) +
                              (1 - w->hotspot_fraction) * uni;
        } else {
            s += uni;
        }
    }
    return s / (double)n;
}

static sim_result low_rate(const char *design, const char *workload,
                           long messages)
{
    sim_params p = make(design, workload);
    long n = net_nodes(&p.design);
    int depth = depth_of(&p.design);
    double per = 3000.0;
    if (p.workload.traffic == NET_TRAFFIC_BROADCAST)
        per *= 10 * depth;   /* a broadcast occupies the whole network */
    p.rate = 1.0 / (per * (double)n);
    p.warmup_messages = 300;
    p.messages = messages;
    p.seed = 11;
    sim_result r;
    err e;
    if (sim_run(&p, &r, &e))
        fail_msg("%s: %s", design, e.msg);
    if (r.status != SIM_OK)
        fail_msg("%s / %s: %s (%s)", design, workload,
                 sim_status_name(r.status), r.detail);
    double dr = p.design.router_delay;
    int len = net_message_flits(&p.design, &p.workload);
    double per_hop = p.design.switching == NET_SWITCH_PCS ? 3 + dr : 1 + dr;
    double hops = mean_hops(&p.design, &p.workload);
    double expect = hops * per_hop + len;
    double tol = p.workload.length == NET_LENGTH_EXPONENTIAL ? 0.02 : 0.005;
    if (p.workload.traffic == NET_TRAFFIC_BROADCAST)
        tol = 0.02;          /* fewer unicast samples */
    if (fabs(r.latency - expect) > tol * expect)
        fail_msg("%s / %s: latency %.4f, expected %.4f = %.4f hops x %g + "
                 "%d",
                 design, workload, r.latency, expect, hops, per_hop, len);
    /* per message: measured hops and length give the latency */
    double own = r.hops * per_hop + r.message_flits;
    if (fabs(r.latency - own) > 0.003 * own)
        fail_msg("%s / %s: latency %.4f, own hops and lengths give %.4f",
                 design, workload, r.latency, own);
    return r;
}

static void test_low_rate(void **state)
{
    (void)state;
    low_rate("topology=dcsh k=4 n=2 vcs=2 routing=duato router_delay=2",
             "message_bits=8 length=exponential", 8000);
    low_rate("topology=dcsh k=4 n=2 vcs=1 router_delay=1", "message_bits=8",
             4000);
    low_rate("topology=express k=16 n=2 kn=4 m=2 vcs=2 router_delay=1",
             "message_bits=8", 4000);
    low_rate("topology=hypercube n=4 vcs=2 routing=pcube",
             "message_bits=16 length=exponential", 8000);
    sim_result r = low_rate("topology=hypercube n=5 vcs=3 "
                            "routing=minimal_adaptive switching=pcs "
                            "ejection=0 router_delay=0",
                            "message_bits=16 traffic=hotspot theta=0.2",
                            4000);
    /* PCS at zero load: set-up = probe out + acknowledgement back = 2 h */
    assert_true(fabs(r.path_setup - 2 * r.hops) < 0.01 * r.path_setup);
    assert_true(r.backtracks < 0.01);
    assert_non_null(strstr(r.detail, "PCS path setup"));
}

static void test_low_rate_broadcast(void **state)
{
    (void)state;
    const char *designs[] = {
        "topology=torus k=4 n=2 vcs=3 routing=duato router_delay=1",
        "topology=dcsh k=4 n=2 vcs=2 routing=duato router_delay=2",
    };
    for (int i = 0; i < 2; i++) {
        sim_result r = low_rate(designs[i], "message_bits=6 "
                                            "traffic=broadcast beta=0.4",
                                2500);
        sim_params p = make(designs[i], "message_bits=6");
        double expect = depth_of(&p.design) *
                        (1.0 + p.design.router_delay + 6);
        if (fabs(r.broadcast_latency - expect) > 0.01 * expect)
            fail_msg("%s: broadcast latency %.3f, expected %.3f", designs[i],
                     r.broadcast_latency, expect);
        /* about beta of the measured messages are broadcasts */
        double frac = (double)r.broadcasts / (double)r.messages;
        assert_true(fabs(frac - 0.4) < 0.05);
        assert_true(r.broadcast_latency_ci95 >= 0 &&
                    r.broadcast_latency_ci95 < 0.05 * expect);
        assert_non_null(strstr(r.detail, "broadcast latency"));
    }
}

/* The CI rule judges the broadcast latency when every message is one. */
static void test_ci_broadcast_only(void **state)
{
    (void)state;
    sim_params p = make("topology=dcsh k=4 n=2 vcs=2 routing=duato",
                        "message_bits=4 traffic=broadcast beta=1");
    p.rate = 0.005;
    p.stop = SIM_STOP_CI;
    p.ci_target = 0.02;
    p.min_messages = 2000;
    p.max_messages = 200000;
    p.warmup_messages = 500;
    sim_result r;
    err e;
    assert_int_equal(sim_run(&p, &r, &e), 0);
    assert_int_equal(r.status, SIM_OK);
    assert_true(r.ci_met);
    assert_int_equal(r.broadcasts, r.messages);
    assert_true(r.messages < p.max_messages);
    assert_true(r.latency == 0);               /* no unicast message */
    assert_true(r.broadcast_latency_ci95 < 0.02 * r.broadcast_latency);
    /* above its zero-load value 2 (1 + 1 + 4) = 12 */
    assert_true(r.broadcast_latency > 12);
}

/* ---- what is supported -------------------------------------------------- */

static int code_of(const char *design, const char *workload)
{
    sim_params p = make(design, workload);
    err e;
    err_clear(&e);
    int rc = sim_supports(&p.design, &p.workload, &e);
    if (rc)
        assert_true(strlen(e.msg) > 10);
    return rc;
}

static void test_supported(void **state)
{
    (void)state;
    const char *ok[] = {
        "topology=dcsh k=4 n=2 vcs=1",
        "topology=dcsh k=4 n=2 vcs=2 routing=duato",
        "topology=dcsh k=4 n=2 vcs=2 routing=hop_based",
        "topology=express k=16 n=2 kn=4 m=1 vcs=2",
        "topology=hypercube n=4 vcs=1 routing=pcube",
        "topology=hypercube n=4 routing=hop_based vcs=4",
        "topology=hypercube n=4 vcs=1 routing=minimal_adaptive "
        "switching=pcs",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (code_of(ok[i], ""))
            fail_msg("%s should be supported", ok[i]);
    assert_int_equal(code_of("topology=torus k=4 n=2 vcs=3 routing=duato",
                             "traffic=broadcast beta=0.1"),
                     0);
    assert_int_equal(code_of("topology=dcsh k=4 n=3 vcs=2",
                             "traffic=broadcast beta=0.1"),
                     0);
    /* broadcast trees exist for the torus and the DCSH only */
    assert_int_equal(code_of("topology=hypercube n=4 vcs=2 routing=duato",
                             "traffic=broadcast beta=0.1"),
                     ERR_UNSUPPORTED);
    assert_int_equal(code_of("topology=mesh k=4 n=2 vcs=1",
                             "traffic=broadcast beta=0.1"),
                     ERR_UNSUPPORTED);
    assert_int_equal(code_of("topology=express k=16 n=2 kn=4 m=100 vcs=2",
                             ""),
                     ERR_UNSUPPORTED);
    sim_params p = make("topology=express k=16 n=2 kn=4 m=100 vcs=2", "");
    p.rate = 0.001;
    sim_result r;
    err e;
    assert_int_equal(sim_run(&p, &r, &e), ERR_UNSUPPORTED);
    /* deadlock-prone VC counts stay infeasible */
    assert_int_equal(code_of("topology=express k=16 n=2 kn=4 m=1 vcs=1", ""),
                     ERR_INFEASIBLE);
    assert_int_equal(code_of("topology=dcsh k=4 n=3 vcs=2 routing=hop_based",
                             ""),
                     ERR_INFEASIBLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_dcsh),
        cmocka_unit_test(test_pairs_express),
        cmocka_unit_test(test_pairs_hypercube),
        cmocka_unit_test(test_bcast_torus_tree),
        cmocka_unit_test(test_bcast_dcsh_tree),
        cmocka_unit_test(test_low_rate),
        cmocka_unit_test(test_low_rate_broadcast),
        cmocka_unit_test(test_ci_broadcast_only),
        cmocka_unit_test(test_supported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
