/*
 * test_net.c — net/: names, validation, derived quantities (average distance
 * brute-forced over every pair for small networks of every topology), the
 * canonical text form and its parser.
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

static net_design make(net_topology t, int n, int k)
{
    net_design d;
    net_design_init(&d);
    d.topology = t;
    net_design_set_radix(&d, n, k);
    d.vcs = 4;
    return d;
}

/* Mean and max of net_distance over all ordered pairs, excluding or
 * including the self pair. */
static void brute(const net_design *d, double *mean_excl, double *mean_incl,
                  int *max)
{
    long nodes = net_nodes(d);
    double sum = 0;
    *max = 0;
    for (long a = 0; a < nodes; a++)
        for (long b = 0; b < nodes; b++) {
            int h = net_distance(d, a, b);
            if (a == b)
                assert_int_equal(h, 0);
            sum += h;
            if (h > *max)
                *max = h;
        }
    *mean_incl = sum / ((double)nodes * nodes);
    *mean_excl = sum / ((double)nodes * (nodes - 1));
}

static void check_brute(const net_design *d)
{
    double excl, incl;
    int max;
    brute(d, &excl, &incl, &max);
    assert_float_equal(net_avg_distance(d), excl, 1e-12);
    assert_float_equal(net_avg_distance_inclusive(d), incl, 1e-12);
    assert_int_equal(net_diameter(d), max);
}

static void test_avg_distance_brute_force(void **state)
{
    (void)state;
    for (int k = 3; k <= 9; k++) {
        net_design d = make(NET_TORUS, 2, k);
        check_brute(&d);
        d = make(NET_MESH, 2, k);
        check_brute(&d);
        d = make(NET_DCSH, 2, k);
        check_brute(&d);
    }
    for (int n = 1; n <= 7; n++) {
        net_design d = make(NET_HYPERCUBE, n, 2);
        check_brute(&d);
    }
    net_design t3 = make(NET_TORUS, 3, 5);
    check_brute(&t3);
    net_design mixed = make(NET_TORUS, 3, 4);
    mixed.k[1] = 6;
    mixed.k[2] = 3;
    check_brute(&mixed);
    net_design dc3 = make(NET_DCSH, 3, 4);
    check_brute(&dc3);
    int kn_list[] = {2, 3, 4};
    for (size_t i = 0; i < 3; i++)
        for (int groups = 2; groups <= 5; groups++) {
            net_design e = make(NET_EXPRESS, 2, kn_list[i] * groups);
            e.express_kn = kn_list[i];
            check_brute(&e);
        }
}

static void test_avg_distance_closed_forms(void **state)
{
    (void)state;
    /* torus: k/4 per dimension for even k ([L99] eq.4.1), (k - 1/k)/4 odd */
    net_design t = make(NET_TORUS, 2, 16);
    assert_float_equal(net_avg_distance_inclusive(&t), 8.0, 1e-12);
    t = make(NET_TORUS, 2, 7);
    assert_float_equal(net_avg_distance_inclusive(&t), 2 * (7 - 1.0 / 7) / 4,
                       1e-12);
    /* hypercube: n N / (2 (N-1))  ([SKFO05] eq.14) */
    net_design h = make(NET_HYPERCUBE, 10, 2);
    assert_float_equal(net_avg_distance(&h), 10 * 1024.0 / (2 * 1023.0), 1e-12);
    /* DCSH: n (k-1)/k N/(N-1)  ([L99] eq.2.4) */
    net_design c = make(NET_DCSH, 2, 32);
    assert_float_equal(net_avg_distance(&c),
                       2 * 31.0 / 32 * 1024.0 / 1023.0, 1e-12);
    assert_int_equal(net_diameter(&c), 2);
    assert_int_equal(net_diameter(&t), 6);
}

static void test_express_hops(void **state)
{
    (void)state;
    net_design e = make(NET_EXPRESS, 1, 32);
    e.express_kn = 4;
    /* same group: local only */
    assert_int_equal(net_distance(&e, 0, 3), 3);
    /* last node of a group to first of the next: node -> interchange -> node */
    assert_int_equal(net_distance(&e, 3, 4), 2);
    /* 0 -> 9: 4 local to interchange, 1 express, 2 local (positions 0,1) */
    assert_int_equal(net_distance(&e, 0, 9), 4 + 1 + 2);
    /* backwards, by mirror symmetry: 9 -> 0 costs the same */
    assert_int_equal(net_distance(&e, 9, 0), 7);
    /* thesis eqs 6.2-6.4 at k = 32, kn = 4: kB = 2.5, kE = 1, kF = 2 (the
     * mean-distance approximation); exact mean is close to k_avg = 5.5. */
    double mean = net_dim_avg_distance(&e, 0);
    assert_true(mean > 4.5 && mean < 6.5);
}

static void test_check_rejects(void **state)
{
    (void)state;
    err e;
    net_design d = make(NET_TORUS, 2, 8);
    d.routing = NET_ROUTE_DUATO;
    d.vcs = 2;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "at least 3"));
    d.vcs = 3;
    assert_int_equal(net_check(&d, &e), 0);
    d.routing = NET_ROUTE_PCUBE;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "hypercube"));
    d = make(NET_TORUS, 2, 8);
    d.k[1] = 1;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "k >= 2"));
    d = make(NET_HYPERCUBE, 4, 2);
    d.k[2] = 4;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    d = make(NET_DCSH, 3, 4);
    d.routing = NET_ROUTE_HOP_BASED;
    d.vcs = 2;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    d.vcs = 3;
    assert_int_equal(net_check(&d, &e), 0);
    d = make(NET_EXPRESS, 2, 30);
    d.express_kn = 4;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "divide"));
    d = make(NET_EXPRESS, 2, 32);
    d.routing = NET_ROUTE_DUATO;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    d = make(NET_TORUS, 2, 8);
    d.switching = NET_SWITCH_PCS;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    d = make(NET_TORUS, 2, 8);
    d.width = 0;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    d = make(NET_TORUS, 3, 4);
    d.routing = NET_ROUTE_MINIMAL_ADAPTIVE;
    assert_int_equal(net_check(&d, &e), ERR_INFEASIBLE);
    d = make(NET_TORUS, 2, 256);
    d.k[1] = 256;
    net_design big = make(NET_TORUS, 4, 256);
    assert_int_equal(net_check(&big, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "nodes"));
}

static void test_workload_check(void **state)
{
    (void)state;
    err e;
    net_design d = make(NET_TORUS, 2, 6);
    net_workload w;
    net_workload_init(&w);
    w.traffic = NET_TRAFFIC_BIT_REVERSAL;
    assert_int_equal(net_workload_check(&d, &w, &e), ERR_INVALID);
    d = make(NET_TORUS, 2, 8);
    assert_int_equal(net_workload_check(&d, &w, &e), 0);
    w.traffic = NET_TRAFFIC_HOTSPOT;
    w.hotspot_fraction = 1.5;
    assert_int_equal(net_workload_check(&d, &w, &e), ERR_INVALID);
    w.hotspot_fraction = 0.1;
    w.hotspot_node = 64;
    assert_int_equal(net_workload_check(&d, &w, &e), ERR_INVALID);
    w.hotspot_node = 63;
    assert_int_equal(net_workload_check(&d, &w, &e), 0);
    d.k[1] = 4;
    w.traffic = NET_TRAFFIC_TRANSPOSE;
    assert_int_equal(net_workload_check(&d, &w, &e), ERR_INVALID);
}

static void test_permutations(void **state)
{
    (void)state;
    net_design d = make(NET_HYPERCUBE, 4, 2);
    assert_int_equal(net_permutation_dest(&d, NET_TRAFFIC_BIT_REVERSAL, 1), 8);
    assert_int_equal(net_permutation_dest(&d, NET_TRAFFIC_SHUFFLE, 9), 3);
    net_design t = make(NET_TORUS, 2, 8);
    int c[2] = {2, 5}, r[2];
    long dst = net_permutation_dest(&t, NET_TRAFFIC_TRANSPOSE, net_node_id(&t, c));
    net_coords(&t, dst, r);
    assert_int_equal(r[0], 5);
    assert_int_equal(r[1], 2);
    /* every permutation is a bijection */
    net_traffic pats[] = {NET_TRAFFIC_TRANSPOSE, NET_TRAFFIC_BIT_REVERSAL,
                          NET_TRAFFIC_SHUFFLE};
    for (size_t p = 0; p < 3; p++) {
        int seen[64] = {0};
        for (long s = 0; s < 64; s++)
            seen[net_permutation_dest(&t, pats[p], s)]++;
        for (int i = 0; i < 64; i++)
            assert_int_equal(seen[i], 1);
    }
}

static void test_message_flits(void **state)
{
    (void)state;
    net_design d = make(NET_TORUS, 2, 32);
    net_workload w;
    net_workload_init(&w);
    d.width = 8;
    assert_int_equal(net_message_flits(&d, &w), 16);
    d.width = 3;
    assert_int_equal(net_message_flits(&d, &w), 43);
}

static void test_canonical_round_trip(void **state)
{
    (void)state;
    err e;
    net_design d = make(NET_EXPRESS, 2, 32);
    d.express_m = 3;
    d.express_kn = 4;
    d.width = 7;
    char a[256], b[256];
    net_design_format(&d, a, sizeof a);
    assert_string_equal(a, "topology=express n=2 k=32 vcs=4 buffer=1 width=7 "
                           "m=3 kn=4 routing=deterministic "
                           "switching=wormhole router_delay=1 ejection=1");
    net_design p;
    net_design_init(&p);
    assert_int_equal(net_design_parse(&p, a, &e), 0);
    net_design_format(&p, b, sizeof b);
    assert_string_equal(a, b);
    assert_int_equal(net_design_parse(&p, "k=16x8x4", &e), 0);
    assert_int_equal(p.n, 3);
    net_design_format(&p, b, sizeof b);
    assert_non_null(strstr(b, "n=3 k=16x8x4"));
    assert_int_equal(net_design_parse(&p, "topology=ring", &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "ring"));
    assert_int_equal(net_design_parse(&p, "vcs=abc", &e), ERR_INVALID);
    assert_int_equal(net_design_parse(&p, "colour=red", &e), ERR_UNSUPPORTED);
    assert_int_equal(net_design_parse(&p, "vcs", &e), ERR_INVALID);
    net_workload w;
    net_workload_init(&w);
    assert_int_equal(net_workload_parse(&w, "traffic=hotspot theta=0.1", &e), 0);
    net_workload_format(&w, a, sizeof a);
    assert_string_equal(a, "message_bits=128 length=fixed traffic=hotspot "
                           "theta=0.1 hotspot_node=-1");
    /* n then k, k then n: both give a uniform 3-D radix */
    net_design_init(&p);
    assert_int_equal(net_design_parse(&p, "k=5 n=3", &e), 0);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.k[2], 5);
    /* the hypercube forces radix 2 */
    assert_int_equal(net_design_parse(&p, "topology=hypercube n=6", &e), 0);
    assert_int_equal(net_nodes(&p), 64);
    /* truncated output still reports the full length */
    assert_true(net_design_format(&d, a, 10) > 10);
}

static void test_err_format(void **state)
{
    (void)state;
    err e;
    char buf[ERR_MSG_MAX + 64];
    err_set_at(&e, ERR_CONFIG, "configs/x.yaml", 12, 7, "network.radix",
               "expected integer >= 2, got \"%s\"", "abc");
    assert_string_equal(err_format(&e, buf, sizeof buf),
                        "configs/x.yaml:12:7: network.radix: expected integer "
                        ">= 2, got \"abc\"");
    assert_int_equal(err_set(NULL, ERR_IO, "x"), ERR_IO);
    assert_string_equal(err_code_text(ERR_SATURATED), "saturated");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avg_distance_brute_force),
        cmocka_unit_test(test_avg_distance_closed_forms),
        cmocka_unit_test(test_express_hops),
        cmocka_unit_test(test_check_rejects),
        cmocka_unit_test(test_workload_check),
        cmocka_unit_test(test_permutations),
        cmocka_unit_test(test_message_flits),
        cmocka_unit_test(test_canonical_round_trip),
        cmocka_unit_test(test_err_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
