/*
 * route_express.c — deterministic dimension-order routing in the express
 * k-ary n-cube (Loucif, 'Performance evaluation of distributed crossbar
 * switch hypermesh', PhD thesis, Glasgow 1999, sec. 6.2; model M7).
 *
 * At a node: the lowest dimension still to correct, in the direction of the
 * shorter node offset (+ at the tie k/2, as net_distance counts); the only
 * output in that direction is the local channel (it leads to the next node
 * or, at a group boundary, into the interchange).
 * At an interchange (it knows the direction from the channel the header
 * arrived on): if the destination's coordinate lies in the group just past
 * it, down the local channel; otherwise on along the express channels, any
 * of the m to the next interchange, a free one at random (the thesis's
 * "any of the m channels with equal probability").  So a message goes local
 * to the first interchange, express across whole groups and local from the
 * last interchange to its destination — exactly the hops net_distance
 * counts.
 *
 * VCs: two dateline classes (even VCs class 0, odd class 1, from dor_setup)
 * chosen by sim__express_class on the ring with its interchanges, express
 * rings included; V >= 2 (net_check).
 */
#include "express_int.h"

static int express_check(const net_design *d, err *e)
{
    if (d->topology != NET_EXPRESS)
        return err_set(e, ERR_UNSUPPORTED, "express routing on a %s",
                       net_topology_name(d->topology));
    return 0;
}

static void express_setup(sim_net *net)
{
    sim__route_dor.setup(net);
}

static void express_route(const sim_net *net, int r, const sim_msg *m,
                          int in_vc, sim_route *out)
{
    const sim_topo *t = &net->topo;
    sim_route_begin(out);
    if (r < t->nodes) {
        int32_t ch[1];
        for (int dim = 0; dim < t->n; dim++) {
            if (t->ops->min_channels(t, r, m->dst, dim, ch) == 0)
                continue;
            sim_route_add(out, ch[0],
                          net->mask_class[t->ops->vc_class(t, r, m->dst,
                                                           dim)]);
            break;
        }
        sim_route_tier(out);
        return;
    }
    const sim_express *x = sim_express_of(t);
    int i = r - t->nodes;
    int dim = x->ic_dim[i], g = x->ic_g[i], G = x->G[dim];
    int dir = t->chan[net->vc[in_vc].ch].dir;
    int s = dir < 0;
    int b = sim_topo_coord(t, m->dst, dim);
    int next_group = dir > 0 ? g : (g - 1 + G) % G;
    uint64_t mask = net->mask_class[sim__express_class(t, r, m->dst, dim,
                                                       dir)];
    if (b / x->kn == next_group) {
        sim_route_add(out, x->ic_local[i * 2 + s], mask);
    } else {
        for (int j = 0; j < x->m; j++)
            sim_route_add(out, x->ic_exp[(i * 2 + s) * x->m + j], mask);
    }
    sim_route_tier(out);
}

const sim_routing_ops sim__route_express = {
    .routing = NET_ROUTE_DETERMINISTIC,
    .check = express_check,
    .setup = express_setup,
    .route = express_route,
};
