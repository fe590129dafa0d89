/*
 * net_metrics.c — derived quantities of a design: node count, coordinates,
 * per-dimension and node-to-node hop counts, diameter, exact average
 * distance, message length in flits, permutation destinations.
 *
 * All the topologies here are products of one-dimensional structures and
 * route dimension by dimension, so a hop count is the sum of per-dimension
 * hop counts.  Averages use closed forms where the sources give them (checked
 * by brute force in tests/test_net.c) and an exact O(kn * k) enumeration for
 * the express-cube, whose per-dimension hop count depends on where the
 * interchanges sit.
 *
 * Express-cube geometry ([L99] section 6.2): in each dimension an
 * interchange sits after every kn nodes, i.e. between node g*kn - 1 and node
 * g*kn (mod k).  A message whose shortest direction (by node offset; ties go
 * in the + direction) crosses no interchange uses local channels only.
 * Otherwise it takes kn - (its position in its group) local channels to the
 * next interchange, one express channel per further interchange passed, and
 * (destination's position in its group) + 1 local channels from the last
 * interchange.  Every channel entry is one hop (interchanges charge the
 * router delay too, M7).
 */
#include "net.h"

#include <stdlib.h>

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

/* Hops along one express-cube ring of radix k with groups of kn, moving in
 * the + direction by x > 0 node positions from position a. */
static int express_forward_hops(int k, int kn, int a, int x)
{
    (void)k;
    int pa = a % kn;
    int crossings = (pa + x) / kn;
    if (crossings == 0)
        return x;
    int pb = (pa + x) % kn;
    return (kn - pa) + (crossings - 1) + (pb + 1);
}

static int dim_hops(const net_design *d, int dim, int a, int b)
{
    int k = d->k[dim];
    int x = ((b - a) % k + k) % k;
    switch (d->topology) {
    case NET_TORUS:
        return x <= k - x ? x : k - x;
    case NET_MESH:
        return abs(b - a);
    case NET_HYPERCUBE:
    case NET_DCSH:
        return a != b;
    case NET_EXPRESS:
        if (x == 0)
            return 0;
        if (x <= k - x)
            return express_forward_hops(k, d->express_kn, a, x);
        /* Mirror the ring: position p becomes k-1-p, which maps the
         * interchange layout onto itself because kn divides k. */
        return express_forward_hops(k, d->express_kn, k - 1 - a, k - x);
    default:
        return 0;
    }
}

int net_distance(const net_design *d, long a, long b)
{
    int hops = 0;
    for (int i = 0; i < d->n; i++) {
        int ka = d->k[i];
        hops += dim_hops(d, i, (int)(a % ka), (int)(b % ka));
        a /= ka;
        b /= ka;
    }
    return hops;
}

/* Express-cube: the layout repeats every kn positions, so sources 0..kn-1
 * suffice for the mean over all (source, destination) pairs. */
static void express_dim_stats(const net_design *d, int dim, double *mean,
                              int *max)
{
    int k = d->k[dim], kn = d->express_kn;
    long sum = 0;
    int best = 0;
    for (int a = 0; a < kn; a++)
        for (int b = 0; b < k; b++) {
            int h = dim_hops(d, dim, a, b);
            sum += h;
            if (h > best)
                best = h;
        }
    *mean = (double)sum / ((double)kn * k);
    *max = best;
}

double net_dim_avg_distance(const net_design *d, int dim)
{
    double k = d->k[dim];
    switch (d->topology) {
    case NET_TORUS: /* [SOM02] eq.(5): k/4 for even k, (k - 1/k)/4 for odd k */
        return (d->k[dim] % 2 == 0) ? k / 4.0 : (k - 1.0 / k) / 4.0;
    case NET_MESH: /* mean |a-b| over independent uniform a, b */
        return (k * k - 1.0) / (3.0 * k);
    case NET_HYPERCUBE:
    case NET_DCSH: /* [L99] eq.(2.4) per dimension: (k-1)/k */
        return (k - 1.0) / k;
    case NET_EXPRESS: {
        double mean;
        int max;
        express_dim_stats(d, dim, &mean, &max);
        return mean;
    }
    default:
        return 0;
    }
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
    int diameter = 0;
    for (int i = 0; i < d->n; i++) {
        int k = d->k[i];
        switch (d->topology) {
        case NET_TORUS:
            diameter += k / 2;
            break;
        case NET_MESH:
            diameter += k - 1;
            break;
        case NET_HYPERCUBE:
        case NET_DCSH:
            diameter += 1;
            break;
        case NET_EXPRESS: {
            double mean;
            int max;
            express_dim_stats(d, i, &mean, &max);
            diameter += max;
            break;
        }
        default:
            break;
        }
    }
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
