/*
 * test_topology.c — every topology descriptor (net/topology.h), checked
 * the same way, so a new topology is tested by adding its row: each must
 * have every field; its canonical text must parse back to the same
 * design; its minimum VC counts must agree with net_check; the simulator,
 * the cost model and the study reader must accept it; and its distances
 * must be the hop counts of the simulator's own deterministic route on a
 * small instance, bounded below by a breadth-first search over the
 * simulator's channel graph (equal to it for the topologies whose
 * deterministic route is a shortest path).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/cons.h"
#include "dse/study/cfg.h"
#include "models/model.h"
#include "net/net.h"
#include "net/topology.h"
#include "net/xalloc.h"
#include "sim/sim.h"
#include "sim/sim_int.h"

/* A small valid design of topology t with n dimensions (ignored for a
 * fixed radix, which uses n as given), deterministic routing, the
 * parameters' first default values and the smallest radix from `min_k`
 * up that passes net_check.  Fails the test if there is none up to 64. */
static net_design sample(net_topology t, int n, int min_k)
{
    const net_topology_info *info = net_topology_get(t);
    net_design d;
    net_design_init(&d);
    d.topology = t;
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        if (net_param_applies(t, (net_param)p))
            net_param_set_value(&d, (net_param)p,
                                net_param_get((net_param)p)->defaults[0]);
    d.routing = NET_ROUTE_DETERMINISTIC;
    d.switching = NET_SWITCH_WORMHOLE;
    for (int k = min_k; k <= 64; k++) {
        net_design_set_radix(&d, n, info->fixed_radix ? info->fixed_radix : k);
        d.vcs = net_min_vcs(&d) > 0 ? net_min_vcs(&d) : 1;
        if (net_check(&d, NULL) == 0)
            return d;
    }
    fail_msg("no radix up to 64 gives a valid %d-D %s", n,
             net_topology_name(t));
    return d;
}

static void test_descriptors_complete(void **state)
{
    (void)state;
    assert_null(net_topology_get(NET_TOPOLOGY_COUNT));
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        const net_topology_info *info = net_topology_get((net_topology)t);
        const char *name = net_topology_name((net_topology)t);
        assert_non_null(info);
        assert_string_not_equal(name, "?");
        assert_string_not_equal(net_topology_desc((net_topology)t), "?");
        net_topology back;
        assert_int_equal(net_topology_parse(name, &back), 0);
        assert_int_equal(back, t);
        assert_non_null(info->dim_shape);
        assert_true(info->min_radix >= 2);
        assert_true(info->fixed_radix == 0 ||
                    info->fixed_radix >= info->min_radix);
        assert_true(info->min_radix == 2 || info->min_radix_why);
        assert_non_null(info->dim_hops);
        assert_non_null(info->dim_avg_distance);
        assert_non_null(info->dim_diameter);
        assert_non_null(info->min_vcs);
        int has_params = 0;
        for (int p = 0; p < NET_PARAM_COUNT; p++)
            has_params |= net_param_applies((net_topology)t, (net_param)p);
        /* parameters without a check would let any value through */
        assert_int_equal(has_params, info->check_params != NULL);
        /* the simulator and the cost model have a row for it too */
        assert_non_null(sim__topology_find((net_topology)t));
        assert_non_null(sim__topology_find((net_topology)t)->channels_per_node);
    }
    assert_null(net_param_get(NET_PARAM_COUNT));
    for (int p = 0; p < NET_PARAM_COUNT; p++) {
        const net_param_info *q = net_param_get((net_param)p);
        assert_non_null(net_topology_get(q->topology));
        assert_true(q->key && q->key[0] && q->study_key && q->study_key[0]);
        assert_true(q->option && q->option[0] && q->label && q->label[0]);
        assert_true(q->offset + sizeof(int) <= sizeof(net_design));
        assert_true(q->text_lo <= q->study_lo && q->study_hi <= q->text_hi);
        assert_true(q->ndefaults >= 1 &&
                    q->ndefaults <= NET_PARAM_DEFAULTS_MAX);
        for (size_t i = 0; i < q->ndefaults; i++)
            assert_true(q->defaults[i] >= q->study_lo &&
                        q->defaults[i] <= q->study_hi);
        /* a key net_design_set already knows would shadow the parameter */
        for (int o = 0; o < NET_PARAM_COUNT; o++)
            if (o != p) {
                assert_string_not_equal(q->key, net_param_get((net_param)o)->key);
                assert_string_not_equal(q->study_key,
                                        net_param_get((net_param)o)->study_key);
            }
        /* setting it by its key reaches its own field */
        net_design d;
        net_design_init(&d);
        char value[16];
        snprintf(value, sizeof value, "%d", q->study_lo);
        assert_int_equal(net_design_set(&d, q->key, value, NULL), 0);
        assert_int_equal(net_param_value(&d, (net_param)p), q->study_lo);
    }
}

/* print -> parse -> print, for every topology and every routing and
 * switching net_check accepts on it. */
static void test_text_round_trip(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++)
        for (int r = 0; r < NET_ROUTING_COUNT; r++)
            for (int s = 0; s < NET_SWITCHING_COUNT; s++) {
                net_design d = sample((net_topology)t, 2, 2);
                d.routing = (net_routing)r;
                d.switching = (net_switching)s;
                d.vcs = net_min_vcs(&d) > 0 ? net_min_vcs(&d) : 1;
                d.width = 3;
                d.buffer_flits = 2;
                if (net_check(&d, NULL))
                    continue;
                char text[512], again[512];
                net_design_format(&d, text, sizeof text);
                net_design back;
                net_design_init(&back);
                err e;
                err_clear(&e);
                if (net_design_parse(&back, text, &e))
                    fail_msg("%s: %s", text, e.msg);
                net_design_format(&back, again, sizeof again);
                assert_string_equal(text, again);
                assert_int_equal(back.topology, d.topology);
                assert_int_equal(back.n, d.n);
                assert_memory_equal(back.k, d.k, sizeof d.k);
                assert_true(net_design_params_equal(&back, &d));
                for (int p = 0; p < NET_PARAM_COUNT; p++) {
                    char key[64];
                    snprintf(key, sizeof key, " %s=",
                             net_param_get((net_param)p)->key);
                    /* a parameter appears exactly when it applies */
                    assert_int_equal(strstr(text, key) != NULL,
                                     net_param_applies(d.topology,
                                                       (net_param)p));
                }
            }
}

/* net_routing_applies (the descriptor's minimum VC count) and net_check
 * must agree on which routing and switching each topology supports, and
 * the simulator must run every combination they accept. */
static void test_routings_agree(void **state)
{
    (void)state;
    net_workload w;
    net_workload_init(&w);
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        int any = 0;
        for (int r = 0; r < NET_ROUTING_COUNT; r++)
            for (int s = 0; s < NET_SWITCHING_COUNT; s++) {
                net_design d = sample((net_topology)t, 2, 2);
                d.routing = (net_routing)r;
                d.switching = (net_switching)s;
                int applies = net_routing_applies(&d);
                d.vcs = applies ? net_min_vcs(&d) : 8;
                err e;
                err_clear(&e);
                int rc = net_check(&d, &e);
                if (applies != (rc == 0))
                    fail_msg("%s %s %s: applies %d, net_check: %s",
                             net_topology_name(d.topology),
                             net_routing_name(d.routing),
                             net_switching_name(d.switching), applies, e.msg);
                if (!applies)
                    continue;
                any = 1;
                /* one VC fewer than the minimum is refused */
                net_design fewer = d;
                fewer.vcs = d.vcs - 1;
                assert_true(fewer.vcs < 1 || net_check(&fewer, NULL) != 0);
                if (sim_supports(&d, &w, &e))
                    fail_msg("simulator refuses %s %s %s: %s",
                             net_topology_name(d.topology),
                             net_routing_name(d.routing),
                             net_switching_name(d.switching), e.msg);
            }
        assert_true(any);
    }
}

/* Every routing and switching some topology supports can be named in a
 * study: a CFG_ROUTING_LIST scheme (dse/study/cfg.h) maps to it. */
static void test_study_names_every_routing(void **state)
{
    (void)state;
    for (int r = 0; r < NET_ROUTING_COUNT; r++)
        for (int s = 0; s < NET_SWITCHING_COUNT; s++) {
            int supported = 0;
            for (int t = 0; t < NET_TOPOLOGY_COUNT && !supported; t++) {
                net_design d = sample((net_topology)t, 2, 2);
                d.routing = (net_routing)r;
                d.switching = (net_switching)s;
                supported = net_routing_applies(&d);
            }
            if (!supported)
                continue;
            int named = 0;
            for (int c = 0; c < CFG_ROUTING_COUNT; c++) {
                net_design d;
                net_design_init(&d);
                cfg_routing_apply((cfg_routing)c, &d);
                named |= d.routing == (net_routing)r &&
                         d.switching == (net_switching)s;
            }
            if (!named)
                fail_msg("no study routing scheme is %s routing with %s "
                         "switching",
                         net_routing_name((net_routing)r),
                         net_switching_name((net_switching)s));
        }
}

/* The cost model counts every topology, the channel-load bound covers it,
 * and a study may name a routing on it. */
static void test_cost_and_study_accept(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        net_design d = sample((net_topology)t, 2, 2);
        cons_counts c;
        err e;
        err_clear(&e);
        if (cons_counts_of(&d, &c, &e))
            fail_msg("%s: %s", net_topology_name(d.topology), e.msg);
        assert_true(c.bisection_channels > 0 && c.node_channels > 0);
        assert_true(c.channels > 0 && c.buffered_inputs >= c.channels);
        assert_int_equal(cons_has_interchanges(d.topology),
                         c.interchange_channels > 0);
        /* the models' physical screen bounds it (uniform traffic) */
        net_workload w;
        net_workload_init(&w);
        model_bound b;
        if (model_bound_compute(&d, &w, &b, &e))
            fail_msg("%s: %s", net_topology_name(d.topology), e.msg);
        assert_float_equal(b.hops, net_avg_distance(&d), 1e-9);
        assert_true(b.rate > 0 && b.zero_load > b.hops);
        /* a routing the descriptor accepts is one a study may name */
        int any = 0;
        for (int r = 0; r < CFG_ROUTING_COUNT; r++)
            any |= cfg_routing_applies((cfg_routing)r, d.topology, d.n);
        assert_true(any);
    }
}

/* Hops of the simulator's deterministic route from node a to node b: the
 * routing function asked at every router, as the engine asks it, taking
 * its first candidate channel and the lowest VC it permits there. */
static int route_hops(const sim_net *net, int a, int b)
{
    const sim_topo *t = &net->topo;
    sim_msg m;
    memset(&m, 0, sizeof m);
    m.src = a;
    m.dst = b;
    m.bc = SIM_NONE;
    m.pvc = SIM_NONE;
    int r = a, hops = 0;
    int32_t in_vc = (t->nnet + a * t->ipn) * net->V; /* injection VC */
    while (r != b) {
        sim_route rt;
        net->routing->route(net, r, &m, in_vc, &rt);
        assert_true(rt.ntiers > 0 && rt.end[0] > 0);
        int32_t ch = rt.ch[0];
        assert_true(ch >= 0 && ch < t->nnet);
        assert_int_equal(t->chan[ch].src, r);
        in_vc = ch * net->V + __builtin_ctzll(rt.vcs[0]);
        r = t->chan[ch].dst;
        assert_true(++hops <= t->routers);
    }
    return hops;
}

/* The channel graph as adjacency lists: out[first[u] .. first[u+1]) are
 * the routers one channel away from router u. */
typedef struct graph {
    int *first, *out;
} graph;

static graph graph_of(const sim_topo *t)
{
    graph g;
    g.first = xcalloc((size_t)t->routers + 1, sizeof *g.first);
    g.out = xmalloc(sizeof *g.out * (size_t)(t->nnet > 0 ? t->nnet : 1));
    for (int ch = 0; ch < t->nnet; ch++)
        g.first[t->chan[ch].src + 1]++;
    for (int u = 0; u < t->routers; u++)
        g.first[u + 1] += g.first[u];
    int *fill = xmalloc(sizeof *fill * (size_t)t->routers);
    memcpy(fill, g.first, sizeof *fill * (size_t)t->routers);
    for (int ch = 0; ch < t->nnet; ch++)
        g.out[fill[t->chan[ch].src]++] = t->chan[ch].dst;
    free(fill);
    return g;
}

/* Shortest channel hops from router a to every router. */
static void bfs(const sim_topo *t, const graph *g, int a, int *dist,
                int *queue)
{
    for (int i = 0; i < t->routers; i++)
        dist[i] = -1;
    int head = 0, tail = 0;
    dist[a] = 0;
    queue[tail++] = a;
    while (head < tail) {
        int u = queue[head++];
        for (int i = g->first[u]; i < g->first[u + 1]; i++)
            if (dist[g->out[i]] < 0) {
                dist[g->out[i]] = dist[u] + 1;
                queue[tail++] = g->out[i];
            }
    }
}

static void check_distances(const net_design *d)
{
    sim_params p;
    sim_params_init(&p);
    p.design = *d;
    p.rate = 0.001;
    sim_net *net;
    err e;
    err_clear(&e);
    if (sim_net_create(&p, &net, &e))
        fail_msg("the simulator builds no %s: %s",
                 net_topology_name(d->topology), e.msg);
    const sim_topo *t = &net->topo;
    assert_int_equal(t->nodes, net_nodes(d));
    /* the memory estimate's channel count bounds the graph's */
    assert_true((double)t->nnet <=
                t->ops->channels_per_node(d) * (double)t->nodes);
    graph g = graph_of(t);
    int *dist = xmalloc(sizeof *dist * (size_t)t->routers);
    int *queue = xmalloc(sizeof *queue * (size_t)t->routers);
    int shortest = net_topology_get(d->topology)->shortest_route;
    double sum = 0;
    int max = 0;
    for (int a = 0; a < t->nodes; a++) {
        bfs(t, &g, a, dist, queue);
        for (int b = 0; b < t->nodes; b++) {
            int h = net_distance(d, a, b);
            assert_int_equal(h, route_hops(net, a, b));
            assert_true(dist[b] >= 0 && dist[b] <= h);
            if (shortest)
                assert_int_equal(dist[b], h);
            sum += h;
            if (h > max)
                max = h;
        }
    }
    double nodes = (double)t->nodes;
    assert_float_equal(net_avg_distance_inclusive(d), sum / (nodes * nodes),
                       1e-12);
    assert_int_equal(net_diameter(d), max);
    free(dist);
    free(queue);
    free(g.first);
    free(g.out);
    sim_net_destroy(net);
}

static void test_distances_match_simulator(void **state)
{
    (void)state;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        const net_topology_info *info = net_topology_get((net_topology)t);
        /* two sizes per topology and dimension count, mixed radices too */
        for (int n = 1; n <= 3; n++) {
            net_design d = sample((net_topology)t, n, 2);
            check_distances(&d);
            if (info->fixed_radix)
                continue;
            net_design big = sample((net_topology)t, n, d.k[0] + 1);
            if (net_nodes(&big) <= 512)
                check_distances(&big);
            if (n >= 2) {
                net_design mixed = d;
                mixed.k[n - 1] = big.k[0];
                if (net_check(&mixed, NULL) == 0 && net_nodes(&mixed) <= 512)
                    check_distances(&mixed);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptors_complete),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_routings_agree),
        cmocka_unit_test(test_study_names_every_routing),
        cmocka_unit_test(test_cost_and_study_accept),
        cmocka_unit_test(test_distances_match_simulator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
