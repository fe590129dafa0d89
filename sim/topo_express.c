/*
 * topo_express.c — the bidirectional express k-ary n-cube (Dally, 'Express
 * cubes: improving the performance of k-ary n-cube interconnection
 * networks', IEEE TC 1991, as Loucif, 'Performance evaluation of
 * distributed crossbar switch hypermesh', PhD thesis, Glasgow 1999,
 * sec. 6.2 and Fig. 6.1, models it: model M7): a torus with an interchange
 * inserted after every kn nodes of each ring, neighbouring interchanges
 * linked by m parallel express channels per direction.
 *
 * Ring of dimension d (k nodes, G = k/kn interchanges), + direction:
 *
 *      I_0 -> n_0 -> n_1 -> ... -> n_{kn-1} -> I_1 -> n_kn -> ... -> I_0
 *        \______________ m express channels _______/ \____ ... ___/
 *
 * A local link that crosses a group boundary passes through the interchange
 * (two channels: node -> I_g, I_g -> node), so a ring has k + G local
 * channels per direction and G*m express channels per direction.  Only
 * nodes have PEs, eject and change dimension; interchanges only forward
 * (down to the local channel or on along an express channel) and charge the
 * router delay like routers (M7), which the engine does for every router
 * that is not the destination.
 *
 * Channel order: for each dimension, ring and direction, the local chain in
 * ring order, then the express channels; then injection channels.  Node
 * ports: port[u*2n + 2d + (dir<0)] = the local channel leaving node u.
 *
 * Hop count: route_express.c routes exactly as net_distance counts (Loucif
 * 1999, sec. 6.2: local to the first interchange, express across groups, local
 * to the destination), so simulated hops equal net_distance for every pair.
 */
#include <string.h>

#include "express_int.h"
#include "net/xalloc.h"

static long ring_node(const sim_topo *t, long ring, int d, int pos)
{
    long s = t->stride[d];
    return ring % s + (ring / s) * s * t->k[d] + (long)pos * s;
}

static int32_t add_chan(sim_topo *t, long *c, long from, long to, int dim,
                        int dir)
{
    sim_chan *ch = &t->chan[*c];
    ch->src = (int32_t)from;
    ch->dst = (int32_t)to;
    ch->dim = (int16_t)dim;
    ch->dir = (int16_t)dir;
    ch->stamp = -1;
    return (int32_t)(*c)++;
}

static int express_build(sim_topo *t, const net_design *d, err *e)
{
    long nodes = net_nodes(d);
    const int n = d->n, m = d->express_m, kn = d->express_kn;
    if (m > SIM_MAX_CANDS)
        return err_set(e, ERR_UNSUPPORTED,
                       "%d express channels: the simulator handles at most "
                       "%d",
                       m, SIM_MAX_CANDS);
    if (nodes > (1L << 22))
        return err_set(e, ERR_UNSUPPORTED,
                       "%ld nodes: the simulator builds express-cubes of at "
                       "most 2^22 nodes",
                       nodes);
    t->n = n;
    long stride = 1;
    for (int i = 0; i < n; i++) {
        t->k[i] = d->k[i];
        t->stride[i] = stride;
        stride *= d->k[i];
    }
    long nic = 0, nchan = 0;
    int32_t base[NET_MAX_DIMS], G[NET_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        long rings = nodes / t->k[i];
        G[i] = t->k[i] / kn;
        base[i] = (int32_t)nic;
        nic += rings * G[i];
        nchan += rings * 2 * ((long)t->k[i] + G[i] + (long)G[i] * m);
    }
    if (nchan > (1L << 28))
        return err_set(e, ERR_UNSUPPORTED,
                       "%ld channels: too many for the simulator", nchan);

    size_t hdr = (sizeof(sim_express) + 7) & ~(size_t)7;
    size_t size = hdr + sizeof(int32_t) * (size_t)nic * (2 + 2 + 2 * m);
    char *block = xcalloc(1, size);
    sim_express *x = (sim_express *)block;
    x->m = m;
    x->kn = kn;
    x->nic = (int32_t)nic;
    memcpy(x->ic_base, base, sizeof base);
    memcpy(x->G, G, sizeof G);
    x->ic_dim = (int32_t *)(block + hdr);
    x->ic_g = x->ic_dim + nic;
    x->ic_local = x->ic_g + nic;
    x->ic_exp = x->ic_local + 2 * nic;
    t->aux = x;

    t->nodes = (int)nodes;
    t->routers = (int)(nodes + nic);
    t->nports = 2 * n;
    t->coord = NULL;
    if (nodes * n <= (1L << 22)) {
        t->coord = xmalloc(sizeof *t->coord * (size_t)(nodes * n));
        for (long u = 0; u < nodes; u++)
            for (int i = 0; i < n; i++)
                t->coord[u * n + i] = (int32_t)((u / t->stride[i]) % t->k[i]);
    }
    t->port = xmalloc(sizeof *t->port * (size_t)nodes * (size_t)t->nports);
    t->nnet = (int)nchan;
    t->chan = xcalloc((size_t)nchan, sizeof *t->chan);

    long c = 0;
    for (int i = 0; i < n; i++) {
        int k = t->k[i];
        long rings = nodes / k;
        for (long ring = 0; ring < rings; ring++) {
            long ic0 = base[i] + ring * G[i];
            for (long g = 0; g < G[i]; g++) {
                x->ic_dim[ic0 + g] = i;
                x->ic_g[ic0 + g] = (int32_t)g;
            }
            for (int s = 0; s < 2; s++) {
                int dir = s ? -1 : +1;
                for (int p = 0; p < k; p++) {
                    /* link between positions p and p+1 (mod k) */
                    long a = ring_node(t, ring, i, p);
                    long b = ring_node(t, ring, i, (p + 1) % k);
                    long from = dir > 0 ? a : b, to = dir > 0 ? b : a;
                    int32_t first;
                    if ((p + 1) % kn == 0) {
                        long ic = ic0 + ((p + 1) / kn) % G[i];
                        first = add_chan(t, &c, from, nodes + ic, i, dir);
                        x->ic_local[ic * 2 + s] = add_chan(t, &c, nodes + ic, to, i, dir);
                    } else {
                        first = add_chan(t, &c, from, to, i, dir);
                    }
                    t->port[from * t->nports + 2 * i + s] = first;
                }
                for (long g = 0; g < G[i]; g++) {
                    long ic = ic0 + g;
                    long next = ic0 + ((g + dir) % G[i] + G[i]) % G[i];
                    for (int j = 0; j < m; j++)
                        x->ic_exp[(ic * 2 + s) * m + j] =
                            add_chan(t, &c, nodes + ic, nodes + next, i, dir);
                }
            }
        }
    }
    sim__topo_add_injection(t);
    return 0;
}

/* The dateline class of a hop from router r (node or interchange) towards
 * dst in dimension dim, travelling in direction dir: Dally and Seitz's
 * high/low rule on the ring with interchanges, 1 while the current position
 * is below the destination's, 0 otherwise (the - direction in mirrored
 * positions).  Interchange 0 sits at the wrap point of every ring, so a
 * message that must wrap rides class 0 up to and into I_0 and class 1 from
 * there on; class 1 never contains a channel into I_0, and positions grow
 * along every class-0 or class-1 dependency: local and express channels
 * together are acyclic with two classes, as on the plain torus (Loucif 1999,
 * sec. 6.3(g): V >= 2). */
int sim__express_class(const sim_topo *t, int r, int dst, int dim, int dir)
{
    const sim_express *x = sim_express_of(t);
    int k = t->k[dim], kn = x->kn, G = x->G[dim];
    int b = sim_topo_coord(t, dst, dim);
    int pr;
    if (r < t->nodes) {
        int a = sim_topo_coord(t, r, dim);
        if (dir < 0)
            a = k - 1 - a;
        pr = sim_express_node_pos(kn, a);
    } else {
        int g = x->ic_g[r - t->nodes];
        if (dir < 0)
            g = (G - g) % G;
        pr = g * (kn + 1);
    }
    if (dir < 0)
        b = k - 1 - b;
    return pr < sim_express_node_pos(kn, b);
}

static long express_neighbor(const sim_topo *t, long u, int dim, int dir)
{
    (void)t, (void)u, (void)dim, (void)dir;
    return -1;                   /* not used: express brings its own build */
}

static int express_min_channels(const sim_topo *t, int r, int dst, int dim,
                                int32_t *ch)
{
    /* Nodes only (interchanges need the arrival direction: route_express.c). */
    int k = t->k[dim];
    int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
    int xoff = ((b - a) % k + k) % k;
    if (xoff == 0)
        return 0;
    ch[0] = t->port[(long)r * t->nports + 2 * dim + (xoff <= k - xoff ? 0 : 1)];
    return 1;
}

static int express_vc_class(const sim_topo *t, int r, int dst, int dim)
{
    int k = t->k[dim];
    int a = sim_topo_coord(t, r, dim), b = sim_topo_coord(t, dst, dim);
    int xoff = ((b - a) % k + k) % k;
    return sim__express_class(t, r, dst, dim, xoff <= k - xoff ? +1 : -1);
}

/* The local channels plus m express channels per interchange. */
static double express_channels(const net_design *d)
{
    double n = d->n;
    return 2 * n * (1.0 + (d->express_m > 0 ? d->express_m : 1));
}

/* A router's candidate outputs hold every express channel of one
 * interchange. */
static int express_check(const net_design *d, err *e)
{
    if (d->express_m > SIM_MAX_CANDS)
        return err_set(e, ERR_UNSUPPORTED,
                       "%d express channels: the simulator handles at most "
                       "%d",
                       d->express_m, SIM_MAX_CANDS);
    return 0;
}

const sim_topology_ops sim__topo_express = {
    .topology = NET_EXPRESS,
    .nclasses = 2,
    .build = express_build,
    .neighbor = express_neighbor,
    .min_channels = express_min_channels,
    .vc_class = express_vc_class,
    .channels_per_node = express_channels,
    .check = express_check,
    .extra_router_name = "ic",
};
