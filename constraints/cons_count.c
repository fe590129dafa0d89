/*
 * cons_count.c — how many channels a design has where each cost measure
 * looks: across the bisection, at one node chip, at one express interchange
 * chip, in the whole network, and at buffered channel inputs.  Everything
 * here is per unit of channel width; cons_cost.c multiplies by the width.
 *
 * Conventions (docs/models/cost.md; [L99] sections 1.1.5, 4.3, 6.4).
 * A channel is one direction of a link; a DCSH bus (one node's channel that
 * every other node of its cluster reads) is one channel.  Injection and
 * ejection channels are not counted anywhere.  Every topology here is a
 * product of one-dimensional structures (ring, line, pair, cluster bus,
 * ring with interchanges), so each count is a sum over dimensions of a
 * per-dimension count, and each topology is one row of a table of
 * per-dimension counting functions, not a switch, so a new topology is
 * one more row.
 * Below, N = product of the radices k_i, and N / k_i is the number of
 * one-dimensional structures (rings, lines, clusters) along dimension i.
 *
 * ---- The bisection cut ----------------------------------------------
 * The thesis lays the network out in the plane and cuts it through the
 * middle (4.11, 4.12, 6.29); for a product network that is a straight cut
 * across one dimension i: nodes with coordinate x_i < floor(k_i / 2) on one
 * side, the rest on the other.  Only channels of dimension i cross it (a
 * channel of another dimension joins nodes with the same x_i).  Such a cut
 * halves the nodes exactly iff k_i is even.  We take:
 *   - the cheapest straight cut over the dimensions with an even radix
 *     (the largest even radix for tori, meshes and express-cubes; every
 *     dimension costs the same in the hypercube and the DCSH).  A cut
 *     across an odd dimension is never taken when an even one exists, even
 *     if it is cheaper, because it does not halve the machine.
 *   - when every radix is odd (N odd), no straight cut halves the nodes;
 *     we take the cheapest straight cut over all dimensions (across the
 *     largest radix), whose sides differ by N / k_i nodes, and report
 *     exact_halves = 0.  A true minimum bisection of such a network could
 *     use a staircase cut and cost a few channels more; we do not model it
 *     (no source uses odd radices for cost).
 * For uniform even radices this is the bisection width of docs/models/cost.md;
 * tests/test_constraints.c checks on small networks that no balanced
 * partition at all crosses fewer channels.
 *
 * ---- Per topology, per dimension i (radix k = k_i) -------------------
 * torus (k >= 3, bidirectional ring per dimension):
 *   cut: each of the N/k rings is cut twice (the wrap-around link), 2
 *        directions: 4N/k.  Uniform k: 4 k^(n-1) = 4N/k, thesis (4.12).
 *   node: 2 neighbours, in + out: 4.  Sum 4n, thesis (4.15).
 *   channels: k links per ring x 2 directions: 2N; buffered inputs equal.
 * mesh (line of k nodes per dimension; derived, not in the sources):
 *   cut: each of the N/k lines is cut once, 2 directions: 2N/k.
 *   node: the chips are all alike, so a chip has the pins of the busiest
 *        (interior) node: 4 if k >= 3, 2 if k = 2 (one neighbour).  Sum 4n
 *        for k >= 3, the torus's (4.15).
 *   channels: (k-1) links per line x 2 directions: 2N(k-1)/k.
 * hypercube (k = 2 in every dimension: ONE link per pair, not the two a
 *        2-node "ring" would have; derived, docs/models/cost.md):
 *   cut: N/2 links x 2 directions = N, whichever dimension is cut; equals
 *        the DCSH at k = 2.
 *   node: 1 neighbour, in + out: 2.  Sum 2n = 2 log2 N.
 *   channels: N/2 links x 2 = N per dimension, nN in all.
 * dcsh (cluster of k nodes per dimension, each node owns one bus that the
 *        other k-1 read through a buffered (k-1)-to-1 input multiplexer,
 *        thesis section 1.2 and Fig. 2.1):
 *   cut: every bus of a cluster split by the cut has readers on the other
 *        side, so all k buses of each of the N/k clusters cross: N, for
 *        any dimension and any parity, thesis (4.11).
 *   node: 1 bus out + (k-1) buses in: k.  Sum nk, thesis (4.14).
 *   channels: N buses per dimension (one per node); buffered inputs are
 *        the readers: N(k-1) per dimension.
 * express (torus ring per dimension with an interchange after every kn
 *        nodes, i.e. k/kn interchanges per ring, thesis section 6.2; local
 *        links join consecutive elements (nodes and interchanges) of the
 *        ring, and m express links join consecutive interchanges):
 *   cut: any cut point of a ring lies under exactly 1 local link and m
 *        express links (both form complete rings), the ring is cut twice,
 *        2 directions: 4(m+1) per ring, 4(m+1)N/k.  Uniform k:
 *        4(m+1)k^(n-1), thesis (6.29).
 *   node: 2 local neighbours (node or interchange), in + out: 4.  Sum 4n,
 *        thesis (6.31).
 *   interchange (one chip per interchange, serving one dimension): 1 local
 *        + m express links on each side, in + out: 4(m+1), thesis (6.31).
 *   channels: (k + k/kn) local + m k/kn express links per ring, x 2
 *        directions: 2N(1 + (m+1)/kn); every channel ends in a buffered
 *        input (of a node or an interchange, which routes too, M7).
 */
#include "cons.h"

typedef struct dim_ops {
    /* channels crossing a straight cut across dimension i */
    double (*cut)(const net_design *d, int i);
    /* channels of dimension i entering or leaving the busiest node */
    double (*node)(const net_design *d, int i);
    /* channels of dimension i in the whole network */
    double (*links)(const net_design *d, int i);
    /* buffered channel inputs of dimension i in the whole network */
    double (*inputs)(const net_design *d, int i);
    /* channels of one interchange chip (NULL: the topology has none) */
    double (*interchange)(const net_design *d);
} dim_ops;

/* N / k_i: how many rings, lines or clusters run along dimension i. */
static double lines(const net_design *d, int i)
{
    return (double)net_nodes(d) / d->k[i];
}

static double nodes(const net_design *d)
{
    return (double)net_nodes(d);
}

/* ---- torus ---- */
static double torus_cut(const net_design *d, int i) { return 4 * lines(d, i); }
static double torus_node(const net_design *d, int i) { return 4; }
static double torus_links(const net_design *d, int i) { return 2 * nodes(d); }

/* ---- mesh ---- */
static double mesh_cut(const net_design *d, int i) { return 2 * lines(d, i); }
static double mesh_node(const net_design *d, int i)
{
    return d->k[i] >= 3 ? 4 : 2;
}
static double mesh_links(const net_design *d, int i)
{
    return 2 * lines(d, i) * (d->k[i] - 1);
}

/* ---- hypercube ---- */
static double hcube_cut(const net_design *d, int i) { return nodes(d); }
static double hcube_node(const net_design *d, int i) { return 2; }
static double hcube_links(const net_design *d, int i) { return nodes(d); }

/* ---- dcsh ---- */
static double dcsh_cut(const net_design *d, int i) { return nodes(d); }
static double dcsh_node(const net_design *d, int i) { return d->k[i]; }
static double dcsh_links(const net_design *d, int i) { return nodes(d); }
static double dcsh_inputs(const net_design *d, int i)
{
    return nodes(d) * (d->k[i] - 1);
}

/* ---- express-cube ---- */
static double express_cut(const net_design *d, int i)
{
    return 4.0 * (d->express_m + 1) * lines(d, i);
}
static double express_links(const net_design *d, int i)
{
    double groups = (double)(d->k[i] / d->express_kn);  /* interchanges */
    double local = d->k[i] + groups;
    double express = (double)d->express_m * groups;
    return 2 * lines(d, i) * (local + express);
}
static double express_interchange(const net_design *d)
{
    return 4.0 * (d->express_m + 1);
}

/* Indexed by net_topology.  inputs == links wherever each channel has one
 * receiver (everything but the DCSH bus). */
static const dim_ops topology_ops[NET_TOPOLOGY_COUNT] = {
    [NET_TORUS] = {torus_cut, torus_node, torus_links, torus_links, NULL},
    [NET_MESH] = {mesh_cut, mesh_node, mesh_links, mesh_links, NULL},
    [NET_HYPERCUBE] = {hcube_cut, hcube_node, hcube_links, hcube_links, NULL},
    [NET_DCSH] = {dcsh_cut, dcsh_node, dcsh_links, dcsh_inputs, NULL},
    [NET_EXPRESS] = {express_cut, torus_node, express_links, express_links,
                     express_interchange},
};

int cons_has_interchanges(net_topology t)
{
    return (unsigned)t < NET_TOPOLOGY_COUNT && topology_ops[t].interchange;
}

int cons_counts_of(const net_design *d, cons_counts *out, err *e)
{
    int rc = net_check(d, e);
    if (rc)
        return rc;
    const dim_ops *ops = &topology_ops[d->topology];
    if (!ops->cut)
        return err_set(e, ERR_UNSUPPORTED, "no channel counts for the %s yet",
                       net_topology_name(d->topology));
    cons_counts c = {0};
    c.cut_dim = -1;
    /* Two passes: dimensions with an even radix first (they halve the
     * nodes); all dimensions only if none is even.  Ties keep the lowest
     * dimension, so the choice is deterministic. */
    for (int pass = 0; pass < 2 && c.cut_dim < 0; pass++)
        for (int i = 0; i < d->n; i++) {
            if (pass == 0 && d->k[i] % 2)
                continue;
            double cut = ops->cut(d, i);
            if (c.cut_dim < 0 || cut < c.bisection_channels) {
                c.bisection_channels = cut;
                c.cut_dim = i;
            }
        }
    c.exact_halves = d->k[c.cut_dim] % 2 == 0;
    for (int i = 0; i < d->n; i++) {
        c.node_channels += ops->node(d, i);
        c.channels += ops->links(d, i);
        c.buffered_inputs += ops->inputs(d, i);
    }
    c.interchange_channels = ops->interchange ? ops->interchange(d) : 0;
    *out = c;
    return 0;
}
