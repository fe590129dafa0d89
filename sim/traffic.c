/*
 * traffic.c — traffic patterns: where each message goes.
 *
 *   uniform       destination uniform over the other N-1 nodes.
 *   hotspot       with probability theta the hot-spot node (hotspot_node,
 *                 -1 meaning N-1, the hot spot of Safaei et al., ICPP
 *                 Workshops 2005: model M9), otherwise uniform over the
 *                 other N-1 nodes.  The hot-spot node itself cannot send to
 *                 itself, so all its messages are uniform.
 *   transpose, bit_reversal, shuffle
 *                 the fixed permutations of net_permutation_dest.  A node
 *                 the permutation maps to itself sends nothing (reported as
 *                 sim_result.silent_nodes); its rate is not given to others.
 *
 *   broadcast     with probability beta a broadcast (SIM_BCAST: bcast.c
 *                 builds its tree), otherwise uniform over the other N-1
 *                 nodes (Shahrabi, Ould-Khaoua and Mackenzie, SAC 2002,
 *                 assumption b: model M10).
 *
 * Every draw comes from the source's own stream, so a node's destinations
 * do not depend on the design being simulated.
 */
#include "net/xalloc.h"
#include "sim_int.h"

static int32_t uniform_other(const sim_net *net, int32_t src, rng *r)
{
    int32_t d = (int32_t)rng_below(r, (uint64_t)(net->nodes - 1));
    return d >= src ? d + 1 : d;
}

static int32_t uniform_dest(const sim_net *net, int32_t src, rng *r)
{
    return uniform_other(net, src, r);
}

static int32_t hotspot_dest(const sim_net *net, int32_t src, rng *r)
{
    long h = net->p.workload.hotspot_node;
    if (h < 0)
        h = net->nodes - 1;
    /* Draw the coin even for the hot node itself, so every source consumes
     * its stream the same way. */
    int hot = rng_uniform(r) < net->p.workload.hotspot_fraction;
    if (hot && src != h)
        return (int32_t)h;
    return uniform_other(net, src, r);
}

static int32_t bcast_dest(const sim_net *net, int32_t src, rng *r)
{
    if (rng_uniform(r) < net->p.workload.broadcast_fraction)
        return SIM_BCAST;
    return uniform_other(net, src, r);
}

static void perm_setup(sim_net *net)
{
    net->perm = xmalloc(sizeof *net->perm * (size_t)net->nodes);
    for (long u = 0; u < net->nodes; u++)
        net->perm[u] = (int32_t)net_permutation_dest(
            &net->p.design, net->p.workload.traffic, u);
}

static int32_t perm_dest(const sim_net *net, int32_t src, rng *r)
{
    (void)r;
    return net->perm[src];
}

static int perm_silent(const sim_net *net, int32_t src)
{
    return net->perm[src] == src || net->perm[src] < 0;
}

static const sim_traffic_ops traffics[] = {
    {NET_TRAFFIC_UNIFORM, NULL, uniform_dest, NULL},
    {NET_TRAFFIC_HOTSPOT, NULL, hotspot_dest, NULL},
    {NET_TRAFFIC_BROADCAST, NULL, bcast_dest, NULL},
    {NET_TRAFFIC_TRANSPOSE, perm_setup, perm_dest, perm_silent},
    {NET_TRAFFIC_BIT_REVERSAL, perm_setup, perm_dest, perm_silent},
    {NET_TRAFFIC_SHUFFLE, perm_setup, perm_dest, perm_silent},
};

const sim_traffic_ops *sim__traffic_find(net_traffic t)
{
    for (size_t i = 0; i < sizeof traffics / sizeof traffics[0]; i++)
        if (traffics[i].traffic == t)
            return &traffics[i];
    return NULL;
}
