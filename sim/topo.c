/*
 * topo.c — the topology registry and the channel-graph builder.
 *
 * The builder is generic: it asks the topology's neighbor() for every
 * (node, dimension, direction) and makes one channel per existing
 * neighbour, then one injection channel per node.  Channel ids are assigned
 * in (node, dim, dir +, dir -) order, so the graph (and every run) is the
 * same on every machine.
 *
 * Adding a topology (DCSH, express-cube): write its ops in its own file and
 * list it in `topologies` below.  Topologies whose channels are not
 * point-to-point (the DCSH's one channel per node and dimension reaching
 * k-1 receivers) or that need routers without a PE (express interchanges)
 * get their own build function in the ops when they arrive.
 */
#include <stdlib.h>

#include "net/xalloc.h"
#include "sim_int.h"

static const sim_topology_ops *const topologies[] = {
    &sim__topo_torus,
    &sim__topo_mesh,
    &sim__topo_hypercube,
};

const sim_topology_ops *sim__topology_find(net_topology t)
{
    for (size_t i = 0; i < sizeof topologies / sizeof topologies[0]; i++)
        if (topologies[i]->topology == t)
            return topologies[i];
    return NULL;
}

int sim__topo_build(sim_topo *t, const net_design *d, err *e)
{
    const sim_topology_ops *ops = sim__topology_find(d->topology);
    if (!ops)
        return err_set(e, ERR_UNSUPPORTED,
                       "the simulator does not build %s networks yet",
                       net_topology_name(d->topology));
    if (ops->build) {
        t->ops = ops;
        return ops->build(t, d, e);
    }
    long nodes = net_nodes(d);
    if (nodes > (1L << 26))
        return err_set(e, ERR_UNSUPPORTED,
                       "%ld nodes: the simulator handles at most 2^26",
                       nodes);
    t->ops = ops;
    t->n = d->n;
    long stride = 1;
    for (int i = 0; i < d->n; i++) {
        t->k[i] = d->k[i];
        t->stride[i] = stride;
        stride *= d->k[i];
    }
    t->nodes = t->routers = (int)nodes;
    t->nports = 2 * d->n;
    t->coord = NULL;
    if (nodes * d->n <= (1L << 22)) {
        t->coord = xmalloc(sizeof *t->coord * (size_t)(nodes * d->n));
        for (long u = 0; u < nodes; u++)
            for (int i = 0; i < d->n; i++)
                t->coord[u * d->n + i] =
                    (int32_t)((u / t->stride[i]) % t->k[i]);
    }
    t->port = xmalloc(sizeof *t->port * (size_t)nodes * (size_t)t->nports);
    long nchan = 0;
    for (long u = 0; u < nodes; u++)
        for (int dim = 0; dim < d->n; dim++)
            for (int s = 0; s < 2; s++) {
                long v = ops->neighbor(t, u, dim, s ? -1 : +1);
                t->port[u * t->nports + 2 * dim + s] =
                    v >= 0 ? (int32_t)nchan++ : -1;
            }
    t->nnet = (int)nchan;
    t->chan = xcalloc((size_t)(nchan + nodes), sizeof *t->chan);
    for (long u = 0; u < nodes; u++)
        for (int dim = 0; dim < d->n; dim++)
            for (int s = 0; s < 2; s++) {
                int32_t c = t->port[u * t->nports + 2 * dim + s];
                if (c < 0)
                    continue;
                sim_chan *ch = &t->chan[c];
                ch->src = (int32_t)u;
                ch->dst = (int32_t)ops->neighbor(t, u, dim, s ? -1 : +1);
                ch->dim = (int16_t)dim;
                ch->dir = (int16_t)(s ? -1 : +1);
                ch->stamp = -1;
            }
    for (long u = 0; u < nodes; u++) {
        sim_chan *ch = &t->chan[nchan + u];
        ch->src = ch->dst = (int32_t)u;
        ch->dim = -1;
        ch->dir = 0;
        ch->stamp = -1;
    }
    return 0;
}

void sim__topo_free(sim_topo *t)
{
    free(t->port);
    free(t->chan);
    free(t->coord);
    t->port = NULL;
    t->chan = NULL;
    t->coord = NULL;
}
