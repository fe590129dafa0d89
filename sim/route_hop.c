/*
 * route_hop.c — hop-based (structured buffer pool) fully adaptive routing
 * (Loucif, 'Performance evaluation of distributed crossbar switch hypermesh',
 * PhD thesis, Glasgow 1999, sec. 3.2.1; model M4): a message h hops from its
 * destination may use only VC class h, on any minimal channel of any dimension
 * still to correct (both directions at a torus tie).
 *
 * Classes: C = the diameter (n on the DCSH and the hypercube); VC v belongs
 * to class (v mod C) + 1, so with V = C (the thesis's V = n) class h is
 * exactly VC h-1, and extra VCs are spread over the classes.  Every hop
 * lowers h by one, so a message's classes strictly decrease along its path:
 * the channel dependency graph is acyclic (Boppana-Chalasani; V >= C,
 * net_check).  h is a function of (router, destination): the exact minimal
 * distance, per dimension (DCSH, hypercube: 1 per differing coordinate;
 * torus: the ring distance; mesh: |difference|).
 *
 * Supported on the DCSH and the hypercube (the thesis's setting), and on
 * the torus and mesh, where the same rule holds with C = the diameter.
 */
#include <stdlib.h>

#include "net/xalloc.h"
#include "sim_int.h"

static int hop_check(const net_design *d, err *e)
{
    switch (d->topology) {
    case NET_DCSH:
    case NET_HYPERCUBE:
    case NET_TORUS:
    case NET_MESH:
        break;
    default:
        return err_set(e, ERR_UNSUPPORTED,
                       "hop_based routing is not simulated on the %s",
                       net_topology_name(d->topology));
    }
    if (net_diameter(d) > SIM_MAX_VCS)
        return err_set(e, ERR_UNSUPPORTED,
                       "hop_based routing needs %d VC classes (the "
                       "diameter); the simulator handles at most %d VCs",
                       net_diameter(d), SIM_MAX_VCS);
    return 0;
}

static void hop_setup(sim_net *net)
{
    int C = net_diameter(&net->p.design);
    if (C < 1)
        C = 1;
    net->mask_hop = xcalloc((size_t)C + 1, sizeof *net->mask_hop);
    for (int v = 0; v < net->V; v++)
        net->mask_hop[v % C + 1] |= UINT64_C(1) << v;
    net->mask_class[0] = net->mask_class[1] = net->mask_all;
    net->mask_adapt = 0;
}

static int dim_hops(const sim_topo *t, net_topology topo, int a, int b, int k)
{
    switch (topo) {
    case NET_TORUS: {
        int x = ((b - a) % k + k) % k;
        return x < k - x ? x : k - x;
    }
    case NET_MESH:
        return abs(b - a);
    default:
        (void)t;
        return a != b;
    }
}

static void hop_route(const sim_net *net, int r, const sim_msg *m, int in_vc,
                      sim_route *out)
{
    const sim_topo *t = &net->topo;
    net_topology topo = net->p.design.topology;
    int h = 0;
    for (int dim = 0; dim < t->n; dim++)
        h += dim_hops(t, topo, sim_topo_coord(t, r, dim),
                      sim_topo_coord(t, m->dst, dim), t->k[dim]);
    uint64_t mask = net->mask_hop[h];
    int32_t ch[2];
    (void)in_vc;
    sim_route_begin(out);
    for (int dim = 0; dim < t->n; dim++) {
        int c = t->ops->min_channels(t, r, m->dst, dim, ch);
        for (int i = 0; i < c; i++)
            sim_route_add(out, ch[i], mask);
    }
    sim_route_tier(out);
}

const sim_routing_ops sim__route_hop = {
    .routing = NET_ROUTE_HOP_BASED,
    .check = hop_check,
    .setup = hop_setup,
    .route = hop_route,
};
