/*
 * net_check.c — is a design buildable and deadlock-free, and does a
 * workload make sense on it?
 *
 * The topology's own rules (smallest radix, its parameters, the minimum
 * VC count per routing) come from its descriptor (topology.c); the rules
 * here tie a routing or switching scheme to the one topology it is defined
 * on, and give each refusal its own message.
 */
#include "net.h"
#include "topology.h"

int net_min_vcs(const net_design *d)
{
    const net_topology_info *t = net_topology_get(d->topology);
    return t ? t->min_vcs(d) : -1;
}

int net_check(const net_design *d, err *e)
{
    const char *topo = net_topology_name(d->topology);
    if ((unsigned)d->topology >= NET_TOPOLOGY_COUNT)
        return err_set(e, ERR_INFEASIBLE, "unknown topology");
    if ((unsigned)d->routing >= NET_ROUTING_COUNT ||
        (unsigned)d->switching >= NET_SWITCHING_COUNT)
        return err_set(e, ERR_INFEASIBLE, "unknown routing or switching");
    if (d->n < 1 || d->n > NET_MAX_DIMS)
        return err_set(e, ERR_INFEASIBLE, "n = %d: need 1 to %d dimensions",
                       d->n, NET_MAX_DIMS);
    const net_topology_info *info = net_topology_get(d->topology);
    for (int i = 0; i < d->n; i++) {
        if (d->k[i] < 2)
            return err_set(e, ERR_INFEASIBLE,
                           "radix %d in dimension %d: need k >= 2", d->k[i], i);
        if (info->fixed_radix && d->k[i] != info->fixed_radix)
            return err_set(e, ERR_INFEASIBLE,
                           "%s radix must be %d, got %d in dimension %d", topo,
                           info->fixed_radix, d->k[i], i);
        if (d->k[i] < info->min_radix)
            return err_set(e, ERR_INFEASIBLE, "%s radix %d in dimension %d: %s",
                           topo, d->k[i], i,
                           info->min_radix_why ? info->min_radix_why
                                               : "radix too small");
    }
    if (net_nodes(d) > NET_MAX_NODES)
        return err_set(e, ERR_INFEASIBLE, "more than %ld nodes", NET_MAX_NODES);
    if (info->check_params) {
        int rc = info->check_params(d, e);
        if (rc)
            return rc;
    }
    if (d->width < 1)
        return err_set(e, ERR_INFEASIBLE,
                       "channel width %d: need at least 1 wire", d->width);
    if (d->buffer_flits < 1)
        return err_set(e, ERR_INFEASIBLE, "buffer depth %d: need >= 1 flit",
                       d->buffer_flits);
    if (d->router_delay < 0)
        return err_set(e, ERR_INFEASIBLE, "router delay %d: need >= 0",
                       d->router_delay);
    if (d->ejection_channels < 0)
        return err_set(e, ERR_INFEASIBLE,
                       "ejection channels %d: need >= 0 (0 = unlimited)",
                       d->ejection_channels);
    if (d->switching == NET_SWITCH_PCS && d->topology != NET_HYPERCUBE)
        return err_set(e, ERR_INFEASIBLE,
                       "pcs switching is supported on the hypercube only");
    if ((unsigned)d->router >= NET_ROUTER_COUNT)
        return err_set(e, ERR_INFEASIBLE, "unknown router");
    if (d->router == NET_ROUTER_PIPELINED) {
        /* a probe that reserves a path hop by hop, then data streamed
         * through it, is not a VC router's header/credit pipeline */
        if (d->switching == NET_SWITCH_PCS)
            return err_set(e, ERR_INFEASIBLE,
                           "router=pipelined models wormhole switching; "
                           "pcs switching needs router=unit");
        if (d->routing_delay < 0 || d->vc_alloc_delay < 1 ||
            d->sw_alloc_delay < 1 || d->st_final_delay < 0 ||
            d->credit_delay < 0 || d->link_delay < 1 ||
            d->express_link_delay < 1 || d->bus_link_delay < 1 ||
            d->offchip_link_delay < 1 || d->speculative < 0 ||
            d->speculative > 1)
            return err_set(e, ERR_INFEASIBLE,
                           "pipelined router: need routing_delay >= 0, "
                           "vc_alloc_delay and sw_alloc_delay >= 1, "
                           "st_final_delay and credit_delay >= 0, link "
                           "delays >= 1, speculative 0 or 1");
        if (d->offchip_dims < 0 || d->offchip_dims > d->n)
            return err_set(e, ERR_INFEASIBLE,
                           "offchip_dims=%d: the %s has %d dimension%s",
                           d->offchip_dims, topo, d->n,
                           d->n == 1 ? "" : "s");
    } else if (d->offchip_dims) {
        return err_set(e, ERR_INFEASIBLE,
                       "offchip_dims applies to router=pipelined (the unit "
                       "router's links take one cycle)");
    }
    if (d->routing == NET_ROUTE_PCUBE && d->topology != NET_HYPERCUBE)
        return err_set(e, ERR_INFEASIBLE,
                       "pcube routing needs topology hypercube, not %s", topo);
    if (d->routing == NET_ROUTE_MINIMAL_ADAPTIVE &&
        d->switching == NET_SWITCH_WORMHOLE &&
        !(d->topology == NET_TORUS && d->n == 2))
        return err_set(e, ERR_INFEASIBLE,
                       "minimal_adaptive wormhole routing is the 2D torus "
                       "scheme of [QCC02]; not defined for a %d-D %s",
                       d->n, topo);
    int min_vcs = net_min_vcs(d);
    if (min_vcs < 0)
        return err_set(e, ERR_INFEASIBLE, "%s routing with %s switching is not "
                       "supported on the %s",
                       net_routing_name(d->routing),
                       net_switching_name(d->switching), topo);
    if (d->vcs < min_vcs)
        return err_set(e, ERR_INFEASIBLE,
                       "%d virtual channel%s: %s routing on the %s needs at "
                       "least %d for deadlock freedom",
                       d->vcs, d->vcs == 1 ? "" : "s",
                       net_routing_name(d->routing), topo, min_vcs);
    if ((d->escape_sticky || d->adaptive_vcs || d->adaptive_dims) &&
        d->routing != NET_ROUTE_DUATO)
        return err_set(e, ERR_INFEASIBLE,
                       "escape=sticky, adaptive_vcs and adaptive_dims apply "
                       "to duato routing (adaptive VCs over dimension-order "
                       "escape VCs), not %s", net_routing_name(d->routing));
    /* duato's escape VCs: one fewer than its minimum (one adaptive VC) */
    if (d->adaptive_vcs > d->vcs - (min_vcs - 1))
        return err_set(e, ERR_INFEASIBLE,
                       "adaptive_vcs=%d: the %s has %d VC%s besides its "
                       "%d escape VC%s",
                       d->adaptive_vcs, topo, d->vcs - (min_vcs - 1),
                       d->vcs - (min_vcs - 1) == 1 ? "" : "s", min_vcs - 1,
                       min_vcs - 1 == 1 ? "" : "s");
    if (d->adaptive_dims > d->n)
        return err_set(e, ERR_INFEASIBLE,
                       "adaptive_dims=%d: the %s has %d dimension%s",
                       d->adaptive_dims, topo, d->n, d->n == 1 ? "" : "s");
    return 0;
}

int net_workload_check(const net_design *d, const net_workload *w, err *e)
{
    long nodes = net_nodes(d);
    if (w->message_bits < 1)
        return err_set(e, ERR_INVALID, "message size %d bits: need >= 1",
                       w->message_bits);
    if ((unsigned)w->length >= NET_LENGTH_COUNT ||
        (unsigned)w->traffic >= NET_TRAFFIC_COUNT)
        return err_set(e, ERR_INVALID, "unknown length or traffic kind");
    switch (w->traffic) {
    case NET_TRAFFIC_HOTSPOT:
        if (!(w->hotspot_fraction >= 0 && w->hotspot_fraction <= 1))
            return err_set(e, ERR_INVALID,
                           "hot-spot fraction %g: need 0 <= theta <= 1",
                           w->hotspot_fraction);
        if (w->hotspot_node < -1 || w->hotspot_node >= nodes)
            return err_set(e, ERR_INVALID,
                           "hot-spot node %ld: need 0..%ld (or -1 for N-1)",
                           w->hotspot_node, nodes - 1);
        break;
    case NET_TRAFFIC_BROADCAST:
        if (!(w->broadcast_fraction >= 0 && w->broadcast_fraction <= 1))
            return err_set(e, ERR_INVALID,
                           "broadcast fraction %g: need 0 <= beta <= 1",
                           w->broadcast_fraction);
        break;
    case NET_TRAFFIC_TRANSPOSE:
        for (int i = 0; i < d->n; i++)
            if (d->k[i] != d->k[d->n - 1 - i])
                return err_set(e, ERR_INVALID,
                               "transpose needs radix of dimension %d to equal "
                               "that of dimension %d",
                               i, d->n - 1 - i);
        break;
    case NET_TRAFFIC_BIT_REVERSAL:
    case NET_TRAFFIC_SHUFFLE:
        if (nodes & (nodes - 1))
            return err_set(e, ERR_INVALID,
                           "%s traffic needs a power-of-two node count, not "
                           "%ld",
                           net_traffic_name(w->traffic), nodes);
        break;
    default:
        break;
    }
    return 0;
}
