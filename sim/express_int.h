/*
 * express_int.h — the express-cube's geometry tables, shared by its builder
 * (topo_express.c) and its routing function (route_express.c).
 *
 * Interchange routers are numbered after the nodes: dimension d's come at
 * N + ic_base[d], ring by ring (rings are the lines of nodes that differ
 * only in coordinate d; ring index = the node id with coordinate d removed),
 * G[d] = k_d / kn per ring; interchange g of a ring sits between ring
 * positions g*kn - 1 and g*kn (mod k), as net_metrics.c places them.
 *
 * One allocation (topo.aux) holds the header and the per-interchange
 * arrays, so sim__topo_free's free(aux) releases everything.
 */
#ifndef DSE_SIM_EXPRESS_INT_H
#define DSE_SIM_EXPRESS_INT_H

#include "sim_int.h"

typedef struct sim_express {
    int m, kn;
    int32_t ic_base[NET_MAX_DIMS];   /* first interchange of dimension d */
    int32_t G[NET_MAX_DIMS];         /* interchanges per ring */
    int32_t nic;
    int32_t *ic_dim, *ic_g;          /* [i] dimension, position in ring */
    int32_t *ic_local;               /* [i*2 + (dir<0)] channel down to the
                                        node after it, in that direction */
    int32_t *ic_exp;                 /* [(i*2 + (dir<0))*m + j] express
                                        channel j to the next interchange */
} sim_express;

static inline const sim_express *sim_express_of(const sim_topo *t)
{
    return (const sim_express *)t->aux;
}

/* Position on the ring of dimension d, interchanges included, with
 * interchange 0 at 0: node j at j + j/kn + 1, interchange g at g(kn+1).
 * The dateline rule compares these (topo_express.c). */
static inline int sim_express_node_pos(int kn, int j)
{
    return j + j / kn + 1;
}

/* Dateline class (0 or 1) of a hop from router r (node or interchange)
 * towards node dst in dimension dim, travelling in direction dir. */
int sim__express_class(const sim_topo *t, int r, int dst, int dim, int dir);

#endif
