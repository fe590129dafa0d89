/*
 * topo.c — the topology registry and the channel-graph builder.
 *
 * The builder is generic: it asks the topology's neighbor() for every
 * (node, dimension, direction) and makes one channel per existing
 * neighbour, then one injection channel per node.  Channel ids are assigned
 * in (node, dim, dir +, dir -) order, so the graph (and every run) is the
 * same on every machine.
 *
 * Injection channels come last, ipn = 1 + bports per node (the unicast
 * channel, then one per broadcast port: sim__topo_add_injection), for every
 * builder.
 *
 * Adding a topology: write its ops in its own file and list it in
 * `topologies` below.  Topologies whose channels are not point-to-point
 * (the DCSH bus, topo_dcsh.c) or that need routers without a PE (express
 * interchanges, topo_express.c) bring their own build function.
 */
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "sim_int.h"

static const sim_topology_ops *const topologies[] = {
    &sim__topo_torus,
    &sim__topo_mesh,
    &sim__topo_hypercube,
    &sim__topo_dcsh,
    &sim__topo_express,
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
    t->ipn = 1 + t->bports;
    t->mc_base = -1;
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
    t->chan = xcalloc((size_t)nchan, sizeof *t->chan);
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
    sim__topo_add_injection(t);
    return 0;
}

void sim__topo_add_injection(sim_topo *t)
{
    long ninj = (long)t->nodes * t->ipn;
    long total = (long)t->nnet + ninj;
    t->chan = xrealloc(t->chan, sizeof *t->chan * (size_t)total);
    for (long i = 0; i < ninj; i++) {
        sim_chan *ch = &t->chan[t->nnet + i];
        memset(ch, 0, sizeof *ch);
        ch->src = ch->dst = (int32_t)(i / t->ipn);
        ch->dim = -1;
        ch->dir = 0;
        ch->stamp = -1;
    }
    if (t->phys) {               /* an injection channel is its own */
        t->phys = xrealloc(t->phys, sizeof *t->phys * (size_t)total);
        t->grp = xrealloc(t->grp, sizeof *t->grp * (size_t)total);
        for (long c = t->nnet; c < total; c++) {
            t->phys[c] = (int32_t)c;
            t->grp[c] = -1;
        }
    }
}

void sim__topo_free(sim_topo *t)
{
    free(t->port);
    free(t->chan);
    free(t->coord);
    free(t->phys);
    free(t->grp);
    free(t->grp_first);
    free(t->aux);
    t->port = NULL;
    t->chan = NULL;
    t->coord = NULL;
    t->phys = t->grp = t->grp_first = NULL;
    t->aux = NULL;
}
