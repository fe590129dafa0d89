/*
 * phys_wire.c — how long a design's channels are on a chip, and how many
 * cycles a flit takes to cross each: the link delay per channel class.
 *
 * Floor plan (docs/router-cost.md, "Wires"): one node per square tile on
 * a 2-D grid.  Dimension i runs along axis i mod 2 (x for even i, y for
 * odd), so an n-dimensional network is embedded in the plane the usual
 * way, the dimensions of each axis nested: the coordinate of dimension i
 * moves a node by a stride of prod{ k_j : j < i, j = i mod 2 } tiles.
 * The grid is prod(even-dimension radices) x prod(odd-dimension radices).
 *
 * Channel classes and their length in tiles, per dimension i (k = k_i,
 * s = stride of i):
 *   torus      local: a folded ring (Dally and Towles 2004, sec. 5.2.2)
 *              puts ring neighbours two positions apart, so min(2, k-1) s;
 *              2N channels.
 *   mesh       local: s; 2N(k-1)/k channels.
 *   hypercube  local: s (its high dimensions have long strides); N channels.
 *   dcsh       bus: spans its cluster's row, (k-1) s; N buses.
 *   express    local: folded ring as the torus, min(2, k-1) s
 *              (interchanges take no tile of their own);
 *              express: kn ring positions, min(2 kn, k-1) s;
 *              channel counts as cons_count.c.
 * Link delay: a repeated wire's delay grows linearly with its length
 * (Ho, Mai and Horowitz, "The Future of Wires", Proc. IEEE 89(4), 2001),
 * so a channel of L tiles takes ceil(L x fo4_per_tile / clock_fo4) cycles,
 * at least one.  Across chips every link takes the study's off-chip
 * latency instead.
 */
#include <math.h>

#include "phys.h"

typedef struct class_ops {
    /* Appends the classes of dimension i to w; returns how many. */
    int (*classes)(const net_design *d, int i, int stride,
                   phys_channel_class *out);
} class_ops;

static double nodes(const net_design *d) { return (double)net_nodes(d); }

/* Tiles spanned by a link joining ring positions h apart in a folded
 * ring of k nodes. */
static int folded(int k, int h, int stride)
{
    int span = 2 * h < k - 1 ? 2 * h : k - 1;
    return (span > 0 ? span : 1) * stride;
}

static phys_channel_class make(int dim, const char *kind, double channels,
                               int length)
{
    phys_channel_class c = {dim, kind, channels, length, 0};
    return c;
}

static int torus_classes(const net_design *d, int i, int s,
                         phys_channel_class *out)
{
    out[0] = make(i, "local", 2 * nodes(d), folded(d->k[i], 1, s));
    return 1;
}

static int mesh_classes(const net_design *d, int i, int s,
                        phys_channel_class *out)
{
    out[0] = make(i, "local", 2 * nodes(d) * (d->k[i] - 1) / d->k[i], s);
    return 1;
}

static int hcube_classes(const net_design *d, int i, int s,
                         phys_channel_class *out)
{
    out[0] = make(i, "local", nodes(d), s);
    return 1;
}

static int dcsh_classes(const net_design *d, int i, int s,
                        phys_channel_class *out)
{
    out[0] = make(i, "bus", nodes(d), (d->k[i] - 1) * s);
    return 1;
}

static int express_classes(const net_design *d, int i, int s,
                           phys_channel_class *out)
{
    int k = d->k[i], kn = d->express_kn;
    double rings = nodes(d) / k, groups = (double)(k / kn);
    out[0] = make(i, "local", 2 * rings * (k + groups), folded(k, 1, s));
    out[1] = make(i, "express", 2 * rings * d->express_m * groups,
                  folded(k, kn, s));
    return d->express_m > 0 ? 2 : 1;
}

/* Indexed by net_topology. */
static const class_ops topology_classes[NET_TOPOLOGY_COUNT] = {
    [NET_TORUS] = {torus_classes},
    [NET_MESH] = {mesh_classes},
    [NET_HYPERCUBE] = {hcube_classes},
    [NET_DCSH] = {dcsh_classes},
    [NET_EXPRESS] = {express_classes},
};

int phys_wires_of(const net_design *d, const phys_wire_opts *o,
                  phys_wires *out, err *e)
{
    int rc = net_check(d, e);
    if (rc)
        return rc;
    if (!(o->fo4_per_tile > 0 && o->fo4_per_tile <= PHYS_MAX_FO4_PER_TILE))
        return err_set(e, ERR_INVALID, "wire delay %g FO4 per tile is "
                       "outside (0, %g]", o->fo4_per_tile,
                       PHYS_MAX_FO4_PER_TILE);
    if (!(o->clock_fo4 >= PHYS_MIN_CLOCK_FO4 &&
          o->clock_fo4 <= PHYS_MAX_CLOCK_FO4))
        return err_set(e, ERR_INVALID, "clock %g FO4 is outside [%g, %g]",
                       o->clock_fo4, PHYS_MIN_CLOCK_FO4, PHYS_MAX_CLOCK_FO4);
    if (o->offchip_cycles < 0 || o->offchip_cycles > PHYS_MAX_OFFCHIP_CYCLES)
        return err_set(e, ERR_INVALID, "off-chip latency %d cycles is "
                       "outside [0, %d]", o->offchip_cycles,
                       PHYS_MAX_OFFCHIP_CYCLES);
    phys_wires w = {0};
    w.grid_x = w.grid_y = 1;
    for (int i = 0; i < d->n; i++) {
        int *axis = i % 2 ? &w.grid_y : &w.grid_x;
        int stride = *axis;
        int added = topology_classes[d->topology].classes(
            d, i, stride, &w.classes[w.nclasses]);
        for (int c = w.nclasses; c < w.nclasses + added; c++) {
            phys_channel_class *cl = &w.classes[c];
            if (o->offchip_cycles > 0) {
                cl->cycles = o->offchip_cycles;
            } else {
                double t = cl->length_tiles * o->fo4_per_tile;
                cl->cycles = (int)ceil(t / o->clock_fo4 - 1e-9);
                if (cl->cycles < 1)
                    cl->cycles = 1;
            }
            w.wire_length += cl->channels * d->width * cl->length_tiles;
        }
        w.nclasses += added;
        *axis *= d->k[i];
    }
    *out = w;
    return 0;
}
