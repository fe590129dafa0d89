/*
 * test_sim_pipe.c — router=pipelined (sim/pipe.c): zero-load latency exact
 * for every combination of stage, link and credit delays (against the
 * closed form of models/bound.c), a single VC's stream limited to B flits
 * per credit round trip, one flit per switch port per cycle, conservation
 * and credit invariants under load, the deadlock detector with the
 * pipeline, refusals, and router=unit's canonical text unchanged.
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

/* A run at a rate so low that messages never meet. */
static sim_result zero_load_run(sim_params *p, long messages)
{
    sim_result r;
    err e;
    p->rate = 1e-7;
    p->warmup_messages = 0;
    p->messages = messages;
    if (sim_run(p, &r, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(r.status, SIM_OK);
    return r;
}

/* The mean latency equals the bound's closed form at the run's own mean
 * hop count (the latency is linear in the hops), for every combination. */
static void test_zero_load_every_stage(void **state)
{
    (void)state;
    int combos = 0;
    for (int rd = 0; rd <= 2; rd++)
        for (int va = 1; va <= 2; va++)
            for (int sa = 1; sa <= 2; sa++)
                for (int st = 0; st <= 1; st++)
                    for (int link = 1; link <= 2; link++)
                        for (int cd = 0; cd <= 2; cd += 2) {
                            char d[256];
                            snprintf(d, sizeof d,
                                     "topology=torus k=4 n=2 vcs=2 buffer=2 "
                                     "router=pipelined routing_delay=%d "
                                     "vc_alloc_delay=%d sw_alloc_delay=%d "
                                     "st_final_delay=%d link_delay=%d "
                                     "credit_delay=%d",
                                     rd, va, sa, st, link, cd);
                            sim_params p = make(d, "message_bits=7");
                            model_bound b;
                            err e;
                            assert_int_equal(
                                model_bound_compute(&p.design, &p.workload,
                                                    &b, &e),
                                0);
                            sim_result r = zero_load_run(&p, 200);
                            int per_hop = rd + va + sa + st + link;
                            double expect =
                                b.zero_load + (r.hops - b.hops) * per_hop;
                            if (fabs(r.latency - expect) > 1e-9)
                                fail_msg("%s: latency %.6f, closed form "
                                         "%.6f at %.4f hops",
                                         d, r.latency, expect, r.hops);
                            combos++;
                        }
    assert_int_equal(combos, 96);
}

/* The zero-load per-hop cost: one hop more costs exactly the four stages
 * and the link (neighbour traffic on a ring: every message 1 hop). */
static void test_per_hop(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=8 n=1 vcs=2 buffer=8 "
                        "router=pipelined routing_delay=2 vc_alloc_delay=1 "
                        "sw_alloc_delay=1 st_final_delay=1 link_delay=3",
                        "message_bits=1");
    sim_result r = zero_load_run(&p, 300);
    /* 2 to the source router, hops x (2+1+1+1+3), the destination's 5
     * stages and ejection cycle: a 1-flit message */
    double expect = 2 + r.hops * 8 + 5 + 1;
    assert_true(fabs(r.latency - expect) < 1e-9);
}

/* The off-chip link class: a ring wholly off-chip is a ring of that link
 * delay; a transpose on a 4x4 torus with its y links off-chip crosses as
 * many on-chip as off-chip hops, so its zero load is linear in the hops
 * with the mean of the two link delays, and its stream is the off-chip
 * link's; uniform traffic's mean (on-chip and off-chip paths mixed)
 * matches the bound's closed form. */
static void test_offchip_links(void **state)
{
    (void)state;
    sim_params ring_off = make("topology=torus k=8 n=1 vcs=2 buffer=2 "
                               "router=pipelined offchip_dims=1 "
                               "offchip_link_delay=3",
                               "message_bits=9");
    sim_params ring_link = make("topology=torus k=8 n=1 vcs=2 buffer=2 "
                                "router=pipelined link_delay=3",
                                "message_bits=9");
    sim_result a = zero_load_run(&ring_off, 200);
    sim_result b = zero_load_run(&ring_link, 200);
    assert_true(a.hops == b.hops);
    assert_true(a.latency == b.latency);

    const char *torus = "topology=torus k=4 n=2 vcs=2 buffer=2 "
                        "router=pipelined link_delay=1 offchip_dims=1 "
                        "offchip_link_delay=4";
    sim_params p = make(torus, "message_bits=9 traffic=transpose");
    model_bound mb;
    err e;
    assert_int_equal(model_bound_compute(&p.design, &p.workload, &mb, &e), 0);
    sim_result r = zero_load_run(&p, 300);
    double per_hop = 4 + (1 + 4) / 2.0;  /* four stages, mean link */
    double expect = mb.zero_load + (r.hops - mb.hops) * per_hop;
    if (fabs(r.latency - expect) > 1e-9)
        fail_msg("transpose: latency %.6f, closed form %.6f", r.latency,
                 expect);
    /* the off-chip links' round trip (1 + 8 + 2 = 11 > 5 on the chip)
     * governs the stream: 8 flits after the header at B = 2 */
    sim_params on = make("topology=torus k=4 n=2 vcs=2 buffer=2 "
                         "router=pipelined link_delay=1",
                         "message_bits=9 traffic=transpose");
    sim_result r_on = zero_load_run(&on, 300);
    assert_true(r_on.hops == r.hops);
    /* (4 - 1) per off-chip hop, half the hops, and 4 x (11 - 5) of
     * stream */
    double more = (4 - 1) * r.hops / 2 + 4 * (11 - 5);
    if (fabs(r.latency - r_on.latency - more) > 1e-9)
        fail_msg("off-chip: %.6f more cycles, expected %.6f",
                 r.latency - r_on.latency, more);

    p = make(torus, "message_bits=9");
    assert_int_equal(model_bound_compute(&p.design, &p.workload, &mb, &e), 0);
    r = zero_load_run(&p, 20000);
    if (fabs(r.latency / mb.zero_load - 1) > 0.005)
        fail_msg("uniform: latency %.3f, bound %.3f", r.latency,
                 mb.zero_load);
    /* the fastest message: a neighbour on the chip */
    assert_true(mb.min_zero_load < mb.zero_load);
}

/* A VC with B-flit buffers and a credit round trip of R > B cycles
 * streams B flits per R cycles: a 65-flit message takes (R - B) x 64/B
 * cycles more than 64 flits at one per cycle; with B >= R, none. */
static void test_single_vc_stream(void **state)
{
    (void)state;
    struct { int buf, link, cd; } cases[] = {
        {2, 1, 0}, {4, 2, 0}, {4, 1, 3}, {8, 2, 0}, {16, 4, 1}, {1, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char d[256];
        snprintf(d, sizeof d,
                 "topology=torus k=8 n=1 vcs=2 buffer=%d router=pipelined "
                 "link_delay=%d credit_delay=%d",
                 cases[i].buf, cases[i].link, cases[i].cd);
        sim_params p1 = make(d, "message_bits=1");
        sim_params p65 = make(d, "message_bits=65");
        sim_result r1 = zero_load_run(&p1, 200);
        sim_result r65 = zero_load_run(&p65, 200);
        assert_true(fabs(r1.hops - r65.hops) < 1e-12);  /* same seeds */
        int B = cases[i].buf;
        int R = 1 + 2 * cases[i].link + 2 + cases[i].cd;
        double extra = R > B ? (double)(R - B) * (64 / B) : 0;
        double got = r65.latency - r1.latency;
        if (fabs(got - (64 + extra)) > 1e-9)
            fail_msg("%s: 64 more flits took %.3f cycles, expected %.0f "
                     "(B %d, round trip %d)",
                     d, got, 64 + extra, B, R);
        /* the stream rate itself: 64 flits over the added cycles */
        if (B < R && 64 % B == 0)
            assert_true(fabs(64.0 / got - (double)B / R) < 1e-12);
    }
}

/* Under load (past saturation): conservation, credits + occupancy + in
 * flight = depth for every VC, one flit per switch input and output port
 * per cycle (sim_check_invariants), and every message delivered once. */
static void under_load(const char *design, const char *workload,
                       double rate)
{
    sim_params p = make(design, workload);
    p.rate = rate;
    p.track_delivery = 1;
    p.deadlock_cycles = 300;
    p.seed = 5;
    sim_net *net;
    err e;
    if (sim_net_create(&p, &net, &e))
        fail_msg("%s: %s", design, e.msg);
    for (int i = 0; i < 6; i++) {
        if (sim_net_step(net, 500, &e))
            fail_msg("%s under load: %s", design, e.msg);
        if (sim_check_invariants(net, &e))
            fail_msg("%s under load: %s", design, e.msg);
    }
    sim_counts c;
    sim_net_counts(net, &c);
    assert_true(c.flits_buffered > 0);
    if (sim_net_drain(net, 2000000, &e))
        fail_msg("%s drain: %s", design, e.msg);
    if (sim_check_invariants(net, &e))
        fail_msg("%s drained: %s", design, e.msg);
    sim_net_counts(net, &c);
    assert_int_equal(c.generated, c.delivered);
    assert_int_equal(c.undelivered, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.flits_generated, c.flits_consumed);
    assert_int_equal(c.flits_buffered, 0);
    sim_net_destroy(net);
}

static void test_invariants_under_load(void **state)
{
    (void)state;
    under_load("topology=torus k=4 n=2 vcs=2 buffer=4 router=pipelined "
               "link_delay=2 dateline=wrap",
               "message_bits=8", 0.05);
    under_load("topology=torus k=4 n=2 vcs=4 buffer=2 routing=duato "
               "router=pipelined speculative=1 credit_delay=1",
               "message_bits=8 length=exponential", 0.05);
    under_load("topology=torus k=4 n=2 vcs=4 buffer=3 "
               "routing=minimal_adaptive router=pipelined",
               "message_bits=8", 0.05);
    under_load("topology=mesh k=4 n=2 vcs=1 buffer=4 router=pipelined "
               "routing_delay=0",
               "message_bits=6", 0.05);
    under_load("topology=hypercube n=4 vcs=2 buffer=2 routing=pcube "
               "router=pipelined",
               "message_bits=8", 0.08);
    under_load("topology=hypercube n=4 vcs=5 buffer=2 routing=hop_based "
               "router=pipelined",
               "message_bits=8 traffic=transpose", 0.08);
    under_load("topology=dcsh k=4 n=2 vcs=2 buffer=2 routing=duato "
               "router=pipelined bus_link_delay=2",
               "message_bits=8", 0.05);
    under_load("topology=express k=8 n=2 kn=4 m=1 vcs=2 buffer=2 "
               "router=pipelined express_link_delay=2",
               "message_bits=8", 0.03);
}

/* Every (topology, routing) pair the simulator accepts also runs with
 * router=pipelined: delivered in full under load with the invariants; PCS
 * switching is refused with the reason. */
static void test_every_topology_and_routing(void **state)
{
    (void)state;
    static const char *const topologies[] = {
        "topology=torus k=4 n=2", "topology=mesh k=4 n=2",
        "topology=hypercube n=4", "topology=dcsh k=4 n=2",
        "topology=express k=8 n=2 kn=4 m=1",
    };
    int ran = 0;
    for (size_t t = 0; t < sizeof topologies / sizeof topologies[0]; t++)
        for (int rt = 0; rt < NET_ROUTING_COUNT; rt++) {
            char d[256];
            net_design nd;
            err e;
            net_design_init(&nd);
            snprintf(d, sizeof d, "%s routing=%s", topologies[t],
                     net_routing_name((net_routing)rt));
            if (net_design_parse(&nd, d, &e))
                fail_msg("%s: %s", d, e.msg);
            int vcs = net_min_vcs(&nd);
            if (vcs < 0)
                continue;          /* not a routing of this topology */
            if (vcs < 2)
                vcs = 2;
            nd.vcs = vcs;
            if (net_check(&nd, &e))
                continue;
            snprintf(d, sizeof d,
                     "%s routing=%s vcs=%d buffer=2 router=pipelined",
                     topologies[t], net_routing_name((net_routing)rt), vcs);
            under_load(d, "message_bits=8", 0.02);
            ran++;
        }
    /* torus: deterministic, duato, hop_based, minimal_adaptive; mesh:
     * deterministic, duato, hop_based; hypercube: deterministic, duato,
     * pcube, hop_based; dcsh: deterministic, duato, hop_based; express:
     * deterministic */
    assert_int_equal(ran, 15);
}

/* A network of design (16-bit messages) to ask its routing function. */
static sim_net *route_net(const char *design)
{
    sim_params p = make(design, "message_bits=16");
    p.rate = 0.002;
    sim_net *net;
    err e;
    if (sim_net_create(&p, &net, &e))
        fail_msg("%s: %s", design, e.msg);
    return net;
}

/* A unicast message to dst, as the routing function reads it. */
static sim_msg route_msg(int32_t dst)
{
    sim_msg m;
    memset(&m, 0, sizeof m);
    m.bc = SIM_NONE;
    m.dst = dst;
    return m;
}

/* escape=sticky (BookSim2's min_adapt): a message that took an escape VC
 * never takes an adaptive VC again, adaptive_vcs=1 leaves the VCs below
 * the highest unused on network channels, and both routers run it (the
 * keys' text and refusals: test_refusals_and_text). */
static void test_escape_sticky(void **state)
{
    (void)state;
    under_load("topology=torus k=4 n=2 vcs=4 buffer=2 routing=duato "
               "escape=sticky adaptive_vcs=1 router=pipelined",
               "message_bits=8", 0.06);
    under_load("topology=mesh k=4 n=2 vcs=3 buffer=2 routing=duato "
               "escape=sticky router=pipelined",
               "message_bits=8", 0.06);
    under_load("topology=hypercube n=4 vcs=2 buffer=2 routing=duato "
               "escape=sticky router=unit",
               "message_bits=8", 0.06);

    /* the route itself: from an escape VC of a network channel only the
     * escape VC; elsewhere one tier with the adaptive VC 3 and the escape
     * VC together */
    sim_net *net = route_net("topology=torus k=8 n=2 vcs=4 buffer=4 "
                             "routing=duato escape=sticky adaptive_vcs=1 "
                             "router=pipelined link_delay=2 dateline=wrap");
    sim_msg m = route_msg(3 + 8 * 2);    /* 3 hops in x, 2 in y from 0 */
    int32_t esc_in = -1, adapt_in = -1;
    for (int32_t c = 0; c < net->topo.nnet; c++)
        if (net->topo.chan[c].dst == 0 && net->topo.chan[c].dim == 0) {
            esc_in = c * 4 + 1;          /* an escape VC into router 0 */
            adapt_in = c * 4 + 3;
            break;
        }
    assert_true(esc_in >= 0);
    sim_route rt;
    sim__route_of(net, 0, &m, esc_in, &rt);
    assert_int_equal(rt.ntiers, 1);
    assert_int_equal(rt.end[0], 1);      /* the dimension-order hop */
    assert_int_equal(net->topo.chan[rt.ch[0]].dim, 0);
    assert_int_equal(rt.vcs[0] & ~UINT64_C(3), 0);   /* escape VCs only */
    sim__route_of(net, 0, &m, adapt_in, &rt);
    assert_int_equal(rt.ntiers, 1);      /* adaptive and escape together */
    assert_int_equal(rt.end[0], 3);      /* x and y adaptive, x escape */
    int adaptive = 0, escape = 0;
    for (int i = 0; i < rt.end[0]; i++) {
        assert_int_equal(rt.vcs[i] & 4, 0);           /* VC 2 never */
        adaptive += rt.vcs[i] == 8;
        escape += (rt.vcs[i] & 3) != 0;
    }
    assert_int_equal(adaptive, 2);
    assert_int_equal(escape, 1);
    /* without escape=sticky: Duato's two tiers, adaptive VCs 2 and 3 */
    sim_net_destroy(net);
    net = route_net("topology=torus k=8 n=2 vcs=4 buffer=4 routing=duato "
                    "router=pipelined link_delay=2 dateline=wrap");
    sim__route_of(net, 0, &m, esc_in, &rt);
    assert_int_equal(rt.ntiers, 2);
    assert_int_equal(rt.vcs[0], 12);
    sim_net_destroy(net);
}

/* adaptive_dims=1 (BookSim2's min_adapt in effect): the adaptive VC only
 * on the first dimension still to correct, beside that dimension's escape
 * VC; once x is done, y's; and the network runs and drains with it under
 * both routers. */
static void test_adaptive_dims(void **state)
{
    (void)state;
    under_load("topology=torus k=4 n=2 vcs=4 buffer=2 routing=duato "
               "escape=sticky adaptive_vcs=1 adaptive_dims=1 "
               "router=pipelined dateline=wrap",
               "message_bits=8", 0.06);
    under_load("topology=hypercube n=4 vcs=2 buffer=2 routing=duato "
               "adaptive_dims=2 router=unit",
               "message_bits=8", 0.06);

    sim_net *net = route_net("topology=torus k=8 n=2 vcs=4 buffer=4 "
                             "routing=duato escape=sticky adaptive_vcs=1 "
                             "adaptive_dims=1 router=pipelined link_delay=2 "
                             "dateline=wrap");
    int32_t inj = net->topo.nnet * 4;    /* injection VC 0 of node 0 */
    sim_route rt;
    sim_msg m = route_msg(3 + 8 * 2);    /* 3 hops in x, 2 in y from 0 */
    sim__route_of(net, 0, &m, inj, &rt);
    assert_int_equal(rt.ntiers, 1);
    assert_int_equal(rt.end[0], 2);      /* x adaptive and x escape */
    for (int i = 0; i < 2; i++) {
        assert_int_equal(net->topo.chan[rt.ch[i]].dim, 0);
        assert_int_equal(net->topo.chan[rt.ch[i]].dir, +1);
    }
    assert_int_equal(rt.vcs[0] | rt.vcs[1], 8 | 1);  /* VC 3, escape VC 0 */
    m.dst = 8 * 6;                       /* x done; 2 hops in -y */
    sim__route_of(net, 0, &m, inj, &rt);
    assert_int_equal(rt.end[0], 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(net->topo.chan[rt.ch[i]].dim, 1);
        assert_int_equal(net->topo.chan[rt.ch[i]].dir, -1);
    }
    sim_net_destroy(net);
    /* adaptive_dims=2 on the 2D torus: every dimension, as 0 */
    net = route_net("topology=torus k=8 n=2 vcs=4 buffer=4 routing=duato "
                    "escape=sticky adaptive_vcs=1 adaptive_dims=2 "
                    "router=pipelined link_delay=2 dateline=wrap");
    m.dst = 3 + 8 * 2;
    sim__route_of(net, 0, &m, inj, &rt);
    assert_int_equal(rt.end[0], 3);      /* x and y adaptive, x escape */
    sim_net_destroy(net);
}

/* A torus with one VC and dimension order can deadlock: the detector
 * must find it with the pipeline (and the run must say so). */
static void test_deadlock_found(void **state)
{
    (void)state;
    sim_params p = make("topology=torus k=8 n=1 vcs=1 buffer=2 "
                        "router=pipelined",
                        "message_bits=16");
    p.allow_deadlock_prone = 1;
    p.rate = 0.05;
    p.deadlock_cycles = 200;
    p.warmup_messages = 100;
    p.messages = 100000;
    sim_result r;
    err e;
    assert_int_equal(sim_run(&p, &r, &e), 0);
    assert_int_equal(r.status, SIM_DEADLOCK);
    assert_non_null(strstr(r.detail, "wait on each other"));
}

static void test_refusals_and_text(void **state)
{
    (void)state;
    net_design d;
    err e;
    net_design_init(&d);
    char buf[512];
    net_design_format(&d, buf, sizeof buf);
    /* router=unit prints as before: no router keys, no escape keys */
    assert_null(strstr(buf, "router="));
    assert_null(strstr(buf, "link_delay"));
    assert_null(strstr(buf, "escape"));
    assert_null(strstr(buf, "adaptive_vcs"));
    assert_int_equal(net_design_parse(&d, "router=pipelined link_delay=2 "
                                          "sw_alloc_delay=2",
                                      &e),
                     0);
    net_design_format(&d, buf, sizeof buf);
    assert_non_null(strstr(buf, "router=pipelined"));
    assert_non_null(strstr(buf, "sw_alloc_delay=2"));
    assert_null(strstr(buf, "router_delay"));
    assert_int_not_equal(net_design_parse(&d, "vc_alloc_delay=0", &e), 0);
    /* the escape keys print when set, and apply to duato alone */
    assert_int_equal(net_design_parse(&d, "routing=duato vcs=4 "
                                          "escape=sticky adaptive_vcs=1",
                                      &e),
                     0);
    net_design_format(&d, buf, sizeof buf);
    assert_non_null(strstr(buf, "escape=sticky adaptive_vcs=1"));
    assert_int_equal(net_check(&d, &e), 0);
    d.adaptive_vcs = 3;                  /* 4 VCs, 2 escape on the torus */
    assert_int_not_equal(net_check(&d, &e), 0);
    assert_non_null(strstr(e.msg, "adaptive_vcs"));
    assert_int_equal(net_design_parse(&d, "adaptive_vcs=1 adaptive_dims=1",
                                      &e),
                     0);
    net_design_format(&d, buf, sizeof buf);
    assert_non_null(strstr(buf, "adaptive_vcs=1 adaptive_dims=1"));
    assert_int_equal(net_check(&d, &e), 0);
    d.adaptive_dims = 3;                 /* a 2-D torus */
    assert_int_not_equal(net_check(&d, &e), 0);
    assert_non_null(strstr(e.msg, "adaptive_dims=3"));
    d.adaptive_dims = 0;
    assert_int_not_equal(net_design_parse(&d, "adaptive_dims=-1", &e), 0);
    /* the off-chip class prints when set, is bounded by n and is the
     * pipelined router's */
    net_design o;
    net_design_init(&o);
    assert_int_equal(net_design_parse(&o, "router=pipelined offchip_dims=1 "
                                          "offchip_link_delay=6",
                                      &e),
                     0);
    net_design_format(&o, buf, sizeof buf);
    assert_non_null(strstr(buf, "offchip_dims=1 offchip_link_delay=6"));
    assert_int_equal(net_check(&o, &e), 0);
    o.offchip_dims = 3;
    assert_int_not_equal(net_check(&o, &e), 0);
    assert_non_null(strstr(e.msg, "offchip_dims=3"));
    o.offchip_dims = 1;
    o.router = NET_ROUTER_UNIT;
    assert_int_not_equal(net_check(&o, &e), 0);
    assert_non_null(strstr(e.msg, "router=pipelined"));
    assert_int_not_equal(net_design_parse(&o, "offchip_link_delay=0", &e),
                         0);
    assert_int_not_equal(net_design_parse(&d, "escape=never", &e), 0);
    assert_int_equal(net_design_parse(&d, "routing=minimal_adaptive "
                                          "adaptive_vcs=0",
                                      &e),
                     0);
    assert_int_not_equal(net_check(&d, &e), 0);
    assert_non_null(strstr(e.msg, "duato"));
    assert_int_not_equal(net_design_parse(&d, "router=fast", &e), 0);

    sim_params p = make("topology=hypercube n=4 vcs=2 switching=pcs "
                        "routing=minimal_adaptive router=pipelined",
                        "message_bits=8");
    p.rate = 0.01;
    sim_result r;
    assert_int_not_equal(sim_run(&p, &r, &e), 0);
    assert_non_null(strstr(e.msg, "pcs"));
    p = make("topology=torus k=4 n=2 vcs=2 router=pipelined",
             "message_bits=8");
    p.rate = 0.01;
    p.credit_delay = 2;
    assert_int_not_equal(sim_run(&p, &r, &e), 0);
    assert_non_null(strstr(e.msg, "credit_delay"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load_every_stage),
        cmocka_unit_test(test_per_hop),
        cmocka_unit_test(test_single_vc_stream),
        cmocka_unit_test(test_offchip_links),
        cmocka_unit_test(test_invariants_under_load),
        cmocka_unit_test(test_every_topology_and_routing),
        cmocka_unit_test(test_escape_sticky),
        cmocka_unit_test(test_adaptive_dims),
        cmocka_unit_test(test_deadlock_found),
        cmocka_unit_test(test_refusals_and_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
