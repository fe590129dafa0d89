/*
 * topo_cube.c — the cube-like topologies: k-ary n-cube torus (wrap-around,
 * bidirectional, per-dimension radix), mesh, and binary hypercube.
 *
 * Minimal directions.  Torus: offset x = (b - a) mod k; + if x < k - x,
 * - if x > k - x, both at the tie x = k/2 (dimension order takes +, as
 * net_distance counts it).  Mesh: the sign of b - a.  Hypercube: one channel
 * per dimension ("flip bit d"), used when the bits differ.
 *
 * Dateline classes (torus only).  Dally and Seitz's high/low rule as
 * Loucif states it ('Performance evaluation of distributed crossbar switch
 * hypermesh', PhD thesis, Glasgow 1999, sec. 4.2.1(g)): a dimension-order
 * hop uses class 1 while the current coordinate is below the destination's,
 * class 0 otherwise.  In the + direction a message that must wrap (a > b)
 * rides class 0 up to and across the wrap link k-1 -> 0, then class 1; one
 * that need not wrap rides class 1 only, which therefore never contains the
 * wrap link.  So class-1 channels form a chain without the wrap link, class
 * 0 feeds class 1 but never the reverse, and class 0 is never used after
 * the wrap: no cycle.  The - direction is the mirror image (class 1 down to
 * and across the wrap link 0 -> k-1, then class 0).  Dimension order
 * removes cycles between dimensions, so dimension-order routing is
 * deadlock-free with the VCs split into two classes (V >= 2).  The class is
 * a function of (a, b) alone: no per-message state.
 *
 * dateline=wrap (t->wrap_classes), BookSim2's dim_order_torus rule: the
 * direction at the tie x = k/2 is + from an even coordinate, - from an odd
 * one (BookSim2 draws it at random; a function of the coordinate keeps the
 * routing function pure and the two directions equally loaded), and a
 * dimension is traversed in class 1 if the coordinate where it starts is
 * above the destination's (a > b), in class 0 if not, in either direction
 * (BookSim2 writes it as "+ with a > b, - with b < a").  This function
 * gives the class where the dimension starts; the routing functions keep
 * it while the header continues in the dimension (sim_dor_class).  In the
 * + direction class 1 holds the routes that cross the wrap link k-1 -> 0
 * and class 0 those that do not; in the - direction class 1 holds the
 * routes that do not cross the wrap link 0 -> k-1 and class 0 those that
 * do.  In each direction and class either no route uses the wrap link, or
 * every route does and is at most k/2 hops long, so none can close a ring:
 * no cycle either.
 */
#include "sim_int.h"

static long torus_neighbor(const sim_topo *t, long u, int dim, int dir)
{
    int k = t->k[dim];
    int a = sim_topo_coord(t, u, dim);
    int b = (a + dir + k) % k;
    return u + (long)(b - a) * t->stride[dim];
}

static int torus_min_channels(const sim_topo *t, int r, int dst, int dim,
                              int32_t *ch)
{
    int k = t->k[dim];
    int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
    int x = b - a;               /* (b - a) mod k, both in [0, k) */
    if (x == 0)
        return 0;
    if (x < 0)
        x += k;
    if (x < k - x) {
        ch[0] = sim_topo_port(t, r, dim, +1);
        return 1;
    }
    if (x > k - x) {
        ch[0] = sim_topo_port(t, r, dim, -1);
        return 1;
    }
    int first = t->wrap_classes && (a & 1) ? -1 : +1;
    ch[0] = sim_topo_port(t, r, dim, first);
    ch[1] = sim_topo_port(t, r, dim, -first);
    return 2;
}

/* Direction of the dimension-order hop from a towards b (x = b - a mod k,
 * nonzero). */
static inline int torus_dir(const sim_topo *t, int a, int x, int k)
{
    if (x == k - x)
        return t->wrap_classes && (a & 1) ? -1 : +1;
    return x < k - x ? +1 : -1;
}

static int torus_vc_class(const sim_topo *t, int r, int dst, int dim)
{
    int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
    return t->wrap_classes ? a > b : a < b;
}

static int32_t torus_dor_hop(const sim_topo *t, int r, int dst, int *cls)
{
    for (int dim = 0; dim < t->n; dim++) {
        int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
        if (a == b)
            continue;
        int k = t->k[dim], x = b - a;
        if (x < 0)
            x += k;
        if (!t->wrap_classes) {
            *cls = a < b;
            return sim_topo_port(t, r, dim, x <= k - x ? +1 : -1);
        }
        *cls = a > b;
        return sim_topo_port(t, r, dim, torus_dir(t, a, x, k));
    }
    return -1;
}

static long mesh_neighbor(const sim_topo *t, long u, int dim, int dir)
{
    int a = sim_topo_coord(t, u, dim);
    int b = a + dir;
    if (b < 0 || b >= t->k[dim])
        return -1;
    return u + (long)dir * t->stride[dim];
}

static int mesh_min_channels(const sim_topo *t, int r, int dst, int dim,
                             int32_t *ch)
{
    int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
    if (a == b)
        return 0;
    ch[0] = sim_topo_port(t, r, dim, b > a ? +1 : -1);
    return 1;
}

static int32_t mesh_dor_hop(const sim_topo *t, int r, int dst, int *cls)
{
    *cls = 0;
    for (int dim = 0; dim < t->n; dim++) {
        int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
        if (a != b)
            return sim_topo_port(t, r, dim, b > a ? +1 : -1);
    }
    return -1;
}

static int zero_class(const sim_topo *t, int r, int dst, int dim)
{
    (void)t, (void)r, (void)dst, (void)dim;
    return 0;
}

static long hypercube_neighbor(const sim_topo *t, long u, int dim, int dir)
{
    (void)t;
    if (dir < 0)
        return -1;               /* one channel per dimension and node */
    return u ^ (1L << dim);
}

static int hypercube_min_channels(const sim_topo *t, int r, int dst, int dim,
                                  int32_t *ch)
{
    if (!((r ^ dst) & (1L << dim)))
        return 0;
    ch[0] = sim_topo_port(t, r, dim, +1);
    return 1;
}

/* Two channels per dimension (one the hypercube, whose single direction
 * flips the bit). */
static double cube_channels(const net_design *d)
{
    return 2 * (double)d->n;
}

static double hypercube_channels(const net_design *d)
{
    return (double)d->n;
}

const sim_topology_ops sim__topo_torus = {
    .topology = NET_TORUS,
    .nclasses = 2,
    .neighbor = torus_neighbor,
    .min_channels = torus_min_channels,
    .vc_class = torus_vc_class,
    .dor_hop = torus_dor_hop,
    .channels_per_node = cube_channels,
    .bcast_ports_per_dim = 2,
    .wrap_dateline = 1,
};

const sim_topology_ops sim__topo_mesh = {
    .topology = NET_MESH,
    .nclasses = 1,
    .neighbor = mesh_neighbor,
    .min_channels = mesh_min_channels,
    .vc_class = zero_class,
    .dor_hop = mesh_dor_hop,
    .channels_per_node = cube_channels,
};

const sim_topology_ops sim__topo_hypercube = {
    .topology = NET_HYPERCUBE,
    .nclasses = 1,
    .neighbor = hypercube_neighbor,
    .min_channels = hypercube_min_channels,
    .vc_class = zero_class,
    .channels_per_node = hypercube_channels,
    .pcs = 1,
    .ids_only = 1,
};
