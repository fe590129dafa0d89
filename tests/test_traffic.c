/*
 * test_traffic.c — every traffic pattern of NET_TRAFFIC_LIST, checked the
 * same way, so a new pattern is tested by adding its line: its name
 * parses back; its workload text round-trips; net_workload_check accepts
 * it on a 16-node hypercube and 4x4 torus; a permutation pattern maps the
 * nodes one to one; the study reader accepts it; the simulator has an
 * entry for it and delivers its messages at a low rate on a topology it
 * supports it on (sim_supports and sim_run refuse a pattern sim/traffic.c
 * has no entry for); and the channel-load bound (models/bound.c) covers
 * it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/study/cfg.h"
#include "models/model.h"
#include "net/net.h"
#include "sim/sim.h"

static net_design design(net_topology t)
{
    net_design d;
    net_design_init(&d);
    d.topology = t;
    net_design_set_radix(&d, t == NET_HYPERCUBE ? 4 : 2,
                         t == NET_HYPERCUBE ? 2 : 4);
    d.vcs = 2;
    return d;
}

static net_workload workload(net_traffic t)
{
    net_workload w;
    net_workload_init(&w);
    w.traffic = t;
    w.hotspot_fraction = 0.2;
    w.broadcast_fraction = 0.05;
    return w;
}

static void test_names_and_text(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TRAFFIC_COUNT; t++) {
        const char *name = net_traffic_name((net_traffic)t);
        assert_string_not_equal(name, "?");
        net_traffic back;
        assert_int_equal(net_traffic_parse(name, &back), 0);
        assert_int_equal(back, t);
        net_workload w = workload((net_traffic)t), again;
        char text[256], text2[256];
        net_workload_format(&w, text, sizeof text);
        net_workload_init(&again);
        err e;
        err_clear(&e);
        if (net_workload_parse(&again, text, &e))
            fail_msg("%s: %s", text, e.msg);
        net_workload_format(&again, text2, sizeof text2);
        assert_string_equal(text, text2);
        assert_int_equal(again.traffic, t);
    }
}

static void test_valid_and_permutations(void **state)
{
    (void)state;
    const net_topology topos[] = {NET_HYPERCUBE, NET_TORUS};
    for (int t = 0; t < NET_TRAFFIC_COUNT; t++)
        for (size_t i = 0; i < 2; i++) {
            net_design d = design(topos[i]);
            net_workload w = workload((net_traffic)t);
            err e;
            err_clear(&e);
            if (net_workload_check(&d, &w, &e))
                fail_msg("%s on %s: %s", net_traffic_name(w.traffic),
                         net_topology_name(d.topology), e.msg);
            long nodes = net_nodes(&d);
            if (net_permutation_dest(&d, w.traffic, 0) < 0)
                continue;
            /* a permutation: every node the destination of exactly one */
            int hit[64] = {0};
            for (long s = 0; s < nodes; s++) {
                long dst = net_permutation_dest(&d, w.traffic, s);
                assert_true(dst >= 0 && dst < nodes);
                hit[dst]++;
            }
            for (long s = 0; s < nodes; s++)
                assert_int_equal(hit[s], 1);
        }
}

static void test_study_reader_accepts(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TRAFFIC_COUNT; t++) {
        char text[256];
        snprintf(text, sizeof text,
                 "nodes: 256\nbudget:\n  bisection_wires: 1024\n"
                 "traffic: %s\n",
                 net_traffic_name((net_traffic)t));
        cfg_study s;
        err e;
        err_clear(&e);
        if (cfg_study_load_string(text, "t.yaml", &s, &e))
            fail_msg("traffic %s: %s", net_traffic_name((net_traffic)t),
                     e.msg);
        assert_int_equal(s.workload.traffic, t);
        cfg_study_fini(&s);
    }
}

static void test_simulator_delivers(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TRAFFIC_COUNT; t++) {
        int ran = 0;
        for (int topo = 0; topo < NET_TOPOLOGY_COUNT && !ran; topo++) {
            sim_params p;
            sim_params_init(&p);
            p.design = design((net_topology)topo);
            p.design.vcs = net_min_vcs(&p.design);
            p.design.width = 32; /* 4-flit messages: far from saturation */
            p.workload = workload((net_traffic)t);
            /* (no 16-node express-cube passes net_check) */
            if (net_check(&p.design, NULL) ||
                sim_supports(&p.design, &p.workload, NULL))
                continue;
            p.rate = 0.002;
            p.seed = 7;
            p.warmup_messages = 200;
            p.messages = 500;
            sim_result r;
            err e;
            err_clear(&e);
            if (sim_run(&p, &r, &e))
                fail_msg("%s on %s: %s", net_traffic_name(p.workload.traffic),
                         net_topology_name(p.design.topology), e.msg);
            if (r.status != SIM_OK)
                fail_msg("%s on %s: %s: %s", net_traffic_name(p.workload.traffic),
                         net_topology_name(p.design.topology),
                         sim_status_name(r.status), r.detail);
            assert_true(r.messages >= 500);
            assert_true(r.hops > 0 && r.latency > r.hops);
            ran = 1;
        }
        if (!ran)
            fail_msg("no topology simulates %s traffic",
                     net_traffic_name((net_traffic)t));
    }
}

/* The models' physical screen knows the pattern: positive mean hops and a
 * finite bound on a 4x4 torus (a pattern it does not know would fall
 * through to one it does and get another pattern's loads). */
static void test_bound_knows_it(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TRAFFIC_COUNT; t++) {
        net_design d = design(NET_TORUS);
        d.vcs = 3;
        net_workload w = workload((net_traffic)t);
        model_bound b;
        err e;
        err_clear(&e);
        if (model_bound_compute(&d, &w, &b, &e))
            fail_msg("%s: %s", net_traffic_name(w.traffic), e.msg);
        assert_true(b.hops > 0 && b.rate > 0 && b.load > 0);
        assert_true(b.zero_load > b.hops);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_text),
        cmocka_unit_test(test_valid_and_permutations),
        cmocka_unit_test(test_study_reader_accepts),
        cmocka_unit_test(test_simulator_delivers),
        cmocka_unit_test(test_bound_knows_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
