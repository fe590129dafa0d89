/*
 * topology.c — the topology descriptors (topology.h): per-dimension
 * geometry, radix rules, minimum VC counts and parameters of each
 * topology, one row each.
 *
 * Geometry.  Every topology routes dimension by dimension, so a hop count
 * is a sum of per-dimension hop counts and the diameter a sum of
 * per-dimension maxima.  Means use closed forms where the sources give
 * them (checked by brute force in tests/test_net.c and
 * tests/test_topology.c) and an exact O(kn * k) enumeration for the
 * express-cube, whose per-dimension hop count depends on where the
 * interchanges sit.
 *
 * Express-cube geometry ([L99] section 6.2): in each dimension
 * an interchange sits after every kn nodes, i.e. between node g*kn - 1 and
 * node g*kn (mod k).  A message whose shortest direction (by node offset;
 * ties go in the + direction) crosses no interchange uses local channels
 * only.  Otherwise it takes kn - (its position in its group) local
 * channels to the next interchange, one express channel per further
 * interchange passed, and (destination's position in its group) + 1 local
 * channels from the last interchange.  Every channel entry is one hop
 * (interchanges charge the router delay too, [M7]).
 *
 * Minimum VC counts for deadlock freedom (docs/models/semantics.md,
 * "Minimum virtual channels"):
 *   torus   deterministic 2 (Dally-Seitz datelines), duato 3 (2 escape + 1),
 *           hop_based = diameter, minimal_adaptive ([QCC02]) 3 on the 2-D
 *           torus only: its paper avoids deadlock "by using multiple
 *           virtual channels" and simulates 4; with escape classes as in
 *           Duato's scheme 3 suffice.
 *   mesh    deterministic 1, duato 2 (1 escape + 1 adaptive), hop_based =
 *           diameter.
 *   hypercube deterministic 1, duato 2, pcube 1 (turn model), hop_based n;
 *           PCS with minimal_adaptive 1 (backtracking avoids deadlock,
 *           [SKFO05]).
 *   dcsh    deterministic 1, duato 2, hop_based n (the diameter).
 *   express deterministic 2 (Dally-Seitz on every ring, [L99] 6.3(g)).
 * Every other combination (pcube or PCS off the hypercube, adaptive
 * express-cubes, ...) has no routing algorithm in dse: -1.
 */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-dimension geometry ---------------------------------------------- */

/* Ring of k nodes, shortest way round. */
static int ring_hops(const net_design *d, int dim, int a, int b)
{
    int k = d->k[dim];
    int x = ((b - a) % k + k) % k;
    return x <= k - x ? x : k - x;
}

/* [SOM02] eq.(5): k/4 for even k, (k - 1/k)/4 for odd k. */
static double ring_avg(const net_design *d, int dim)
{
    double k = d->k[dim];
    return (d->k[dim] % 2 == 0) ? k / 4.0 : (k - 1.0 / k) / 4.0;
}

static int ring_diameter(const net_design *d, int dim)
{
    return d->k[dim] / 2;
}

/* Line of k nodes. */
static int line_hops(const net_design *d, int dim, int a, int b)
{
    (void)d;
    (void)dim;
    return abs(b - a);
}

/* Mean |a-b| over independent uniform a, b. */
static double line_avg(const net_design *d, int dim)
{
    double k = d->k[dim];
    return (k * k - 1.0) / (3.0 * k);
}

static int line_diameter(const net_design *d, int dim)
{
    return d->k[dim] - 1;
}

/* Every node of a dimension one hop from every other: the hypercube's
 * pair and the DCSH's cluster bus. */
static int complete_hops(const net_design *d, int dim, int a, int b)
{
    (void)d;
    (void)dim;
    return a != b;
}

/* [L99] eq.(2.4) per dimension: (k-1)/k. */
static double complete_avg(const net_design *d, int dim)
{
    double k = d->k[dim];
    return (k - 1.0) / k;
}

static int complete_diameter(const net_design *d, int dim)
{
    (void)d;
    (void)dim;
    return 1;
}

/* Hops along one express-cube ring with groups of kn, moving in the +
 * direction by x > 0 node positions from position a. */
static int express_forward_hops(int kn, int a, int x)
{
    int pa = a % kn;
    int crossings = (pa + x) / kn;
    if (crossings == 0)
        return x;
    int pb = (pa + x) % kn;
    return (kn - pa) + (crossings - 1) + (pb + 1);
}

static int express_hops(const net_design *d, int dim, int a, int b)
{
    int k = d->k[dim];
    int x = ((b - a) % k + k) % k;
    if (x == 0)
        return 0;
    if (x <= k - x)
        return express_forward_hops(d->express_kn, a, x);
    /* Mirror the ring: position p becomes k-1-p, which maps the
     * interchange layout onto itself because kn divides k. */
    return express_forward_hops(d->express_kn, k - 1 - a, k - x);
}

/* The layout repeats every kn positions, so sources 0..kn-1 suffice for
 * the mean and the maximum over all (source, destination) pairs. */
static void express_dim_stats(const net_design *d, int dim, double *mean,
                              int *max)
{
    int k = d->k[dim], kn = d->express_kn;
    long sum = 0;
    int best = 0;
    for (int a = 0; a < kn; a++)
        for (int b = 0; b < k; b++) {
            int h = express_hops(d, dim, a, b);
            sum += h;
            if (h > best)
                best = h;
        }
    *mean = (double)sum / ((double)kn * k);
    *max = best;
}

static double express_avg(const net_design *d, int dim)
{
    double mean;
    int max;
    express_dim_stats(d, dim, &mean, &max);
    return mean;
}

static int express_diameter(const net_design *d, int dim)
{
    double mean;
    int max;
    express_dim_stats(d, dim, &mean, &max);
    return max;
}

/* ---- minimum VCs ----------------------------------------------------------- */

static int torus_min_vcs(const net_design *d)
{
    if (d->switching != NET_SWITCH_WORMHOLE)
        return -1;
    switch (d->routing) {
    case NET_ROUTE_DETERMINISTIC: return 2;
    case NET_ROUTE_DUATO: return 3;
    case NET_ROUTE_HOP_BASED: return net_diameter(d);
    case NET_ROUTE_MINIMAL_ADAPTIVE: return d->n == 2 ? 3 : -1;
    default: return -1;
    }
}

static int mesh_min_vcs(const net_design *d)
{
    if (d->switching != NET_SWITCH_WORMHOLE)
        return -1;
    switch (d->routing) {
    case NET_ROUTE_DETERMINISTIC: return 1;
    case NET_ROUTE_DUATO: return 2;
    case NET_ROUTE_HOP_BASED: return net_diameter(d);
    default: return -1;
    }
}

static int hcube_min_vcs(const net_design *d)
{
    if (d->switching == NET_SWITCH_PCS)
        return d->routing == NET_ROUTE_MINIMAL_ADAPTIVE ? 1 : -1;
    switch (d->routing) {
    case NET_ROUTE_DETERMINISTIC: return 1;
    case NET_ROUTE_DUATO: return 2;
    case NET_ROUTE_PCUBE: return 1;
    case NET_ROUTE_HOP_BASED: return d->n;
    default: return -1;
    }
}

static int dcsh_min_vcs(const net_design *d)
{
    if (d->switching != NET_SWITCH_WORMHOLE)
        return -1;
    switch (d->routing) {
    case NET_ROUTE_DETERMINISTIC: return 1;
    case NET_ROUTE_DUATO: return 2;
    case NET_ROUTE_HOP_BASED: return d->n;
    default: return -1;
    }
}

static int express_min_vcs(const net_design *d)
{
    return d->switching == NET_SWITCH_WORMHOLE &&
                   d->routing == NET_ROUTE_DETERMINISTIC
               ? 2
               : -1;
}

/* ---- parameters ------------------------------------------------------------ */

static int express_check(const net_design *d, err *e)
{
    if (d->express_m < 1)
        return err_set(e, ERR_INFEASIBLE, "express m = %d: need m >= 1",
                       d->express_m);
    if (d->express_kn < 2)
        return err_set(e, ERR_INFEASIBLE, "express kn = %d: need kn >= 2",
                       d->express_kn);
    for (int i = 0; i < d->n; i++)
        if (d->k[i] % d->express_kn || d->k[i] < 2 * d->express_kn)
            return err_set(e, ERR_INFEASIBLE,
                           "kn = %d does not divide radix %d into >= 2 groups",
                           d->express_kn, d->k[i]);
    return 0;
}

static const net_param_info params[NET_PARAM_COUNT] = {
    [NET_PARAM_EXPRESS_M] = {.topology = NET_EXPRESS, .key = "m",
                             .study_key = "express_m", .option = "express-m",
                             .label = "express m",
                             .offset = offsetof(net_design, express_m),
                             .text_lo = 1, .text_hi = 1024,
                             .study_lo = 1, .study_hi = 64,
                             .defaults = {1, 2, 3, 4}, .ndefaults = 4},
    [NET_PARAM_EXPRESS_KN] = {.topology = NET_EXPRESS, .key = "kn",
                              .study_key = "express_kn", .option = "kn",
                              .label = "express kn",
                              .offset = offsetof(net_design, express_kn),
                              .text_lo = 1, .text_hi = 1 << 20,
                              .study_lo = 2, .study_hi = 1 << 20,
                              .defaults = {4}, .ndefaults = 1},
};

/* ---- the table ------------------------------------------------------------- */

#define RING_WHY "a 2-node ring is a hypercube link; use topology hypercube"

static const net_topology_info topologies[NET_TOPOLOGY_COUNT] = {
    [NET_TORUS] = {.dim_shape = "ring", .min_radix = 3,
                   .min_radix_why = RING_WHY, .study_default = 1,
                   .shortest_route = 1, .dim_hops = ring_hops,
                   .dim_avg_distance = ring_avg,
                   .dim_diameter = ring_diameter, .min_vcs = torus_min_vcs},
    [NET_MESH] = {.dim_shape = "line", .min_radix = 2, .shortest_route = 1,
                  .dim_hops = line_hops, .dim_avg_distance = line_avg,
                  .dim_diameter = line_diameter, .min_vcs = mesh_min_vcs},
    [NET_HYPERCUBE] = {.dim_shape = "pair", .min_radix = 2, .fixed_radix = 2,
                       .study_default = 1, .shortest_route = 1,
                       .dim_hops = complete_hops,
                       .dim_avg_distance = complete_avg,
                       .dim_diameter = complete_diameter,
                       .min_vcs = hcube_min_vcs},
    [NET_DCSH] = {.dim_shape = "cluster", .min_radix = 2, .study_default = 1,
                  .shortest_route = 1, .dim_hops = complete_hops,
                  .dim_avg_distance = complete_avg,
                  .dim_diameter = complete_diameter, .min_vcs = dcsh_min_vcs},
    [NET_EXPRESS] = {.dim_shape = "ring", .min_radix = 3,
                     .min_radix_why = RING_WHY, .study_default = 1,
                     .shortest_route = 0, .dim_hops = express_hops,
                     .dim_avg_distance = express_avg,
                     .dim_diameter = express_diameter,
                     .min_vcs = express_min_vcs,
                     .check_params = express_check},
};

const net_topology_info *net_topology_get(net_topology t)
{
    return (unsigned)t < NET_TOPOLOGY_COUNT ? &topologies[t] : NULL;
}

const net_param_info *net_param_get(net_param p)
{
    return (unsigned)p < NET_PARAM_COUNT ? &params[p] : NULL;
}

int net_param_applies(net_topology t, net_param p)
{
    return (unsigned)p < NET_PARAM_COUNT && params[p].topology == t;
}

int net_param_value(const net_design *d, net_param p)
{
    int v;
    memcpy(&v, (const char *)d + params[p].offset, sizeof v);
    return v;
}

void net_param_set_value(net_design *d, net_param p, int value)
{
    memcpy((char *)d + params[p].offset, &value, sizeof value);
}

int net_design_params_format(const net_design *d, const char *sep, char *buf,
                             size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (int p = 0; p < NET_PARAM_COUNT; p++) {
        if (!net_param_applies(d->topology, (net_param)p))
            continue;
        size_t room = used < size ? size - used : 0;
        int w = snprintf(room ? buf + used : NULL, room, "%s%s=%d", sep,
                         params[p].key, net_param_value(d, (net_param)p));
        if (w > 0)
            used += (size_t)w;
    }
    return (int)used;
}

int net_design_params_equal(const net_design *a, const net_design *b)
{
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        if (net_param_applies(a->topology, (net_param)p) &&
            net_param_value(a, (net_param)p) != net_param_value(b, (net_param)p))
            return 0;
    return 1;
}

int net_design_radix_label(const net_design *d, char *buf, size_t size)
{
    const net_topology_info *t = net_topology_get(d->topology);
    if (t && t->fixed_radix == 2)
        return snprintf(buf, size, "%d-cube", d->n);
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (int i = 0; i < d->n; i++) {
        size_t room = used < size ? size - used : 0;
        int w = snprintf(room ? buf + used : NULL, room, i ? "x%d" : "%d",
                         d->k[i]);
        if (w > 0)
            used += (size_t)w;
    }
    return (int)used;
}

int net_topology_fixed_dims(net_topology t, long nodes)
{
    const net_topology_info *info = net_topology_get(t);
    if (!info || info->fixed_radix < 2 || nodes < 1)
        return -1;
    int n = 0;
    while (nodes > 1 && nodes % info->fixed_radix == 0) {
        nodes /= info->fixed_radix;
        n++;
    }
    return nodes == 1 ? n : -1;
}

int net_routing_applies(const net_design *d)
{
    return net_min_vcs(d) >= 0;
}
