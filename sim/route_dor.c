/*
 * route_dor.c — deterministic dimension-order routing (e-cube on the
 * hypercube).
 *
 * The header corrects the lowest dimension that still differs, in its minimal
 * direction (+ at a torus tie).  Mesh and hypercube: any of the V VCs
 * (dimension order alone is deadlock-free there).  Torus: the VCs are split
 * into two dateline classes, even-numbered VCs class 0 and odd ones class 1,
 * and the hop's class comes from the topology (topo_cube.c), which makes the
 * ring dependencies acyclic with V >= 2 (Dally and Seitz's dateline classes;
 * Loucif, 'Performance evaluation of distributed crossbar switch hypermesh',
 * PhD thesis, Glasgow 1999, secs. 1.1.3 and 4.2.1(g)).  With V = 1 on a torus
 * (allowed only for watchdog tests) both classes share VC 0 and the network
 * can deadlock.
 */
#include "sim_int.h"

static int dor_check(const net_design *d, err *e)
{
    (void)d, (void)e;
    return 0;
}

static void dor_setup(sim_net *net)
{
    uint64_t even = 0, odd = 0;
    for (int v = 0; v < net->V; v++)
        if (v % 2)
            odd |= UINT64_C(1) << v;
        else
            even |= UINT64_C(1) << v;
    if (net->topo.ops->nclasses == 2 && odd) {
        net->mask_class[0] = even;
        net->mask_class[1] = odd;
    } else {
        net->mask_class[0] = net->mask_class[1] = net->mask_all;
    }
    net->mask_adapt = 0;
}

static void dor_route(const sim_net *net, int r, const sim_msg *m, int in_vc,
                      sim_route *out)
{
    const sim_topo *t = &net->topo;
    int32_t ch[2];
    (void)in_vc;
    sim_route_begin(out);
    if (t->ops->dor_hop) {
        int cls = 0;
        int32_t c = t->ops->dor_hop(t, r, m->dst, &cls);
        if (c >= 0)
            sim_route_add(out, c, net->mask_class[cls]);
        sim_route_tier(out);
        return;
    }
    for (int dim = 0; dim < t->n; dim++) {
        if (t->ops->min_channels(t, r, m->dst, dim, ch) == 0)
            continue;
        int cls = t->ops->vc_class(t, r, m->dst, dim);
        sim_route_add(out, ch[0], net->mask_class[cls]);
        break;
    }
    sim_route_tier(out);
}

const sim_routing_ops sim__route_dor = {
    .routing = NET_ROUTE_DETERMINISTIC,
    .check = dor_check,
    .setup = dor_setup,
    .route = dor_route,
};
