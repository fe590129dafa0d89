/*
 * topo_dcsh.c — the Distributed Crossbar Switch Hypermesh (DCSH): k^n
 * nodes; in each dimension every node owns one unidirectional channel (a
 * bus) that reaches the other k-1 nodes of its cluster, and every router
 * has, per dimension, one (k-1)V-to-1 input multiplexer over the VCs of the
 * k-1 buses that reach it (Loucif, 'Performance evaluation of distributed
 * crossbar switch hypermesh', PhD thesis, Glasgow 1999, secs. 1.2 and 2.3,
 * Figs. 1.4, 2.1 and 2.3).
 *
 * Channels.  The bus of (node s, dimension d) is built as k-1 channels, one
 * per receiver t, so that each VC buffer sits at one router (the engine's
 * rule); they share
 *   - one flit per cycle: topo.phys[c] is the bus's representative channel
 *     (the leg to the lowest receiver), whose stamp and round robin govern
 *     all legs, and
 *   - V VCs: bus VC v is one resource (net->bus_vc), held by at most one leg
 *     at a time.
 * So the bus behaves as the thesis's channel with V VCs, and each receiver
 * has V buffers per sender: its multiplexer has (k-1)V inputs.  Rejected:
 * V VCs per leg ((k-1)V per bus) — more buffering than the model's channel
 * has, and it would hide the bus's VC contention that the V-state chain of
 * eqs. (2.9)-(2.10) describes.
 *
 * Numbering.  Legs are numbered by multiplexer group, g = t*n + d (receiver
 * t, dimension d), senders in coordinate order: the leg from s is
 * grp_first[g] + (s_d < t_d ? s_d : s_d - 1).  A group's VCs are therefore
 * contiguous, which is what the engine's round-robin walk over a
 * multiplexer uses.
 *
 * Broadcast (t->mcast): a bus also reaches all k-1 receivers at once (Loucif
 * 1999, ch. 5: "send a broadcast message to all cluster nodes in one step").
 * Bus (s, d) gets one more leg, channel mc_base + s*n + d, to a receiver
 * router N + s*n + d that stands for all k-1 cluster members: a copy sent
 * on it is consumed there and counts as received by every member
 * (bcast.c).  It shares the bus's flit per cycle and V VCs with the unicast
 * legs.  Simplification, documented: the members' input buffers,
 * multiplexers and ejection channels are not charged for broadcast flits
 * (the thesis gives broadcast its own ejection channel and buffering).
 *
 * Routing geometry: a message crosses at most one leg per dimension;
 * min_channels returns the leg from r to the node that agrees with r except
 * in dimension dim, where it takes dst's coordinate.  One dateline class:
 * no wrap-around, dimension order alone is deadlock-free (Loucif 1999,
 * sec. 3.2.2).
 */
#include "net/xalloc.h"
#include "sim_int.h"

static int dcsh_min_channels(const sim_topo *t, int r, int dst, int dim,
                             int32_t *ch)
{
    int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
    if (a == b)
        return 0;
    long target = r + (long)(b - a) * t->stride[dim];
    ch[0] = t->grp_first[target * t->n + dim] + (a < b ? a : a - 1);
    return 1;
}

static int dcsh_class(const sim_topo *t, int r, int dst, int dim)
{
    (void)t, (void)r, (void)dst, (void)dim;
    return 0;
}

static int dcsh_build(sim_topo *t, const net_design *d, err *e)
{
    long nodes = net_nodes(d);
    if (nodes > (1L << 22))
        return err_set(e, ERR_UNSUPPORTED,
                       "%ld nodes: the simulator builds DCSHs of at most "
                       "2^22 nodes",
                       nodes);
    const int n = d->n;
    long per_node = 0;              /* legs arriving at one router */
    int pre[NET_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        pre[i] = (int)per_node;
        per_node += d->k[i] - 1;
    }
    long legs = nodes * per_node;
    long mcast = t->mcast ? nodes * n : 0;
    if (legs + mcast > (1L << 28))
        return err_set(e, ERR_UNSUPPORTED,
                       "%ld bus legs: too many for the simulator", legs);
    t->n = n;
    long stride = 1;
    for (int i = 0; i < n; i++) {
        t->k[i] = d->k[i];
        t->stride[i] = stride;
        stride *= d->k[i];
    }
    t->nodes = (int)nodes;
    t->routers = (int)(nodes + mcast);
    t->nports = 0;
    t->port = NULL;
    t->coord = NULL;
    if (nodes * n <= (1L << 22)) {
        t->coord = xmalloc(sizeof *t->coord * (size_t)(nodes * n));
        for (long u = 0; u < nodes; u++)
            for (int i = 0; i < n; i++)
                t->coord[u * n + i] = (int32_t)((u / t->stride[i]) % t->k[i]);
    }
    t->ngroups = (int)(nodes * n);
    t->grp_first = xmalloc(sizeof *t->grp_first * (size_t)(t->ngroups + 1));
    for (long r = 0; r < nodes; r++)
        for (int i = 0; i < n; i++)
            t->grp_first[r * n + i] = (int32_t)(r * per_node + pre[i]);
    t->grp_first[t->ngroups] = (int32_t)legs;

    t->nnet = (int)(legs + mcast);
    t->mc_base = t->mcast ? (int32_t)legs : -1;
    t->chan = xcalloc((size_t)t->nnet, sizeof *t->chan);
    t->phys = xmalloc(sizeof *t->phys * (size_t)t->nnet);
    t->grp = xmalloc(sizeof *t->grp * (size_t)t->nnet);
    for (long r = 0; r < nodes; r++)
        for (int i = 0; i < n; i++) {
            int b = sim_topo_coord(t, r, i);
            for (int a = 0; a < t->k[i]; a++) {
                if (a == b)
                    continue;
                long s = r + (long)(a - b) * t->stride[i];
                int32_t c = t->grp_first[r * n + i] + (a < b ? a : a - 1);
                sim_chan *ch = &t->chan[c];
                ch->src = (int32_t)s;
                ch->dst = (int32_t)r;
                ch->dim = (int16_t)i;
                ch->dir = +1;
                ch->stamp = -1;
                t->grp[c] = (int32_t)(r * n + i);
                /* representative: the leg from s to its lowest receiver */
                int low = a == 0 ? 1 : 0;
                long r0 = s + (long)(low - a) * t->stride[i];
                t->phys[c] = t->grp_first[r0 * n + i] + (a < low ? a : a - 1);
            }
        }
    for (long s = 0; s < nodes && mcast; s++)
        for (int i = 0; i < n; i++) {
            int32_t c = (int32_t)(legs + s * n + i);
            sim_chan *ch = &t->chan[c];
            int a = sim_topo_coord(t, s, i);
            int low = a == 0 ? 1 : 0;
            long r0 = s + (long)(low - a) * t->stride[i];
            ch->src = (int32_t)s;
            ch->dst = (int32_t)(nodes + s * n + i);
            ch->dim = (int16_t)i;
            ch->dir = +1;
            ch->stamp = -1;
            t->grp[c] = -1;
            t->phys[c] = t->grp_first[r0 * n + i] + (a < low ? a : a - 1);
        }
    sim__topo_add_injection(t);
    return 0;
}

/* One bus leg to every other node of each dimension, plus one. */
static double dcsh_channels(const net_design *d)
{
    double legs = 0;
    for (int i = 0; i < d->n; i++)
        legs += d->k[i];
    return legs + 1;
}

const sim_topology_ops sim__topo_dcsh = {
    .topology = NET_DCSH,
    .nclasses = 1,
    .build = dcsh_build,
    .neighbor = NULL,
    .min_channels = dcsh_min_channels,
    .vc_class = dcsh_class,
    .channels_per_node = dcsh_channels,
    .bcast_ports_per_dim = 1,
    .bcast_multidrop = 1,
    .extra_router_name = "bus",
};
