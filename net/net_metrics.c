/*
 * net_metrics.c — derived quantities of a design: node count, coordinates,
 * per-dimension and node-to-node hop counts, diameter, exact average
 * distance, message length in flits, permutation destinations.
 *
 * Every topology routes dimension by dimension, so a hop count is the sum
 * of per-dimension hop counts and the diameter the sum of per-dimension
 * maxima; the per-dimension geometry of each topology is its descriptor's
 * (topology.c).
 */
#include "net.h"
#include "topology.h"

long net_nodes(const net_design *d)
{
    long nodes = 1;
    for (int i = 0; i < d->n; i++) {
        nodes *= d->k[i];
        if (nodes > NET_MAX_NODES)
            return NET_MAX_NODES + 1;
    }
    return nodes;
}

int net_uniform_radix(const net_design *d)
{
    for (int i = 1; i < d->n; i++)
        if (d->k[i] != d->k[0])
            return 0;
    return d->n > 0 ? d->k[0] : 0;
}

void net_coords(const net_design *d, long id, int *coords)
{
    for (int i = 0; i < d->n; i++) {
        coords[i] = (int)(id % d->k[i]);
        id /= d->k[i];
    }
}

long net_node_id(const net_design *d, const int *coords)
{
    long id = 0;
    for (int i = d->n - 1; i >= 0; i--)
        id = id * d->k[i] + coords[i];
    return id;
}

int net_distance(const net_design *d, long a, long b)
{
    const net_topology_info *t = net_topology_get(d->topology);
    int hops = 0;
    if (!t)
        return 0;
    for (int i = 0; i < d->n; i++) {
        int ka = d->k[i];
        hops += t->dim_hops(d, i, (int)(a % ka), (int)(b % ka));
        a /= ka;
        b /= ka;
    }
    return hops;
}

double net_dim_avg_distance(const net_design *d, int dim)
{
    const net_topology_info *t = net_topology_get(d->topology);
    return t ? t->dim_avg_distance(d, dim) : 0;
}

double net_avg_distance_inclusive(const net_design *d)
{
    double sum = 0;
    for (int i = 0; i < d->n; i++)
        sum += net_dim_avg_distance(d, i);
    return sum;
}

double net_avg_distance(const net_design *d)
{
    double nodes = (double)net_nodes(d);
    if (nodes < 2)
        return 0;
    /* The self pair contributes 0 hops, so excluding it rescales the mean. */
    return net_avg_distance_inclusive(d) * nodes / (nodes - 1.0);
}

int net_diameter(const net_design *d)
{
    const net_topology_info *t = net_topology_get(d->topology);
    int diameter = 0;
    for (int i = 0; t && i < d->n; i++)
        diameter += t->dim_diameter(d, i);
    return diameter;
}

int net_message_flits(const net_design *d, const net_workload *w)
{
    if (d->width < 1 || w->message_bits < 1)
        return 1;
    return (w->message_bits + d->width - 1) / d->width;
}

static int log2_exact(long x)
{
    int bits = 0;
    if (x < 1 || (x & (x - 1)))
        return -1;
    while (x > 1) {
        x >>= 1;
        bits++;
    }
    return bits;
}

long net_permutation_dest(const net_design *d, net_traffic t, long src)
{
    long nodes = net_nodes(d);
    int bits = log2_exact(nodes);
    switch (t) {
    case NET_TRAFFIC_TRANSPOSE: {
        int c[NET_MAX_DIMS], r[NET_MAX_DIMS];
        net_coords(d, src, c);
        for (int i = 0; i < d->n; i++)
            r[i] = c[d->n - 1 - i];
        return net_node_id(d, r);
    }
    case NET_TRAFFIC_BIT_REVERSAL: {
        if (bits < 0)
            return -1;
        long dst = 0;
        for (int i = 0; i < bits; i++)
            if (src & (1L << i))
                dst |= 1L << (bits - 1 - i);
        return dst;
    }
    case NET_TRAFFIC_SHUFFLE:
        if (bits < 1)
            return bits == 0 ? src : -1;
        return ((src << 1) | (src >> (bits - 1))) & (nodes - 1);
    default:
        return -1;
    }
}
