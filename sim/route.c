/*
 * route.c — the routing registry.
 *
 * A routing function is an ops entry (sim_int.h, sim_routing_ops): which
 * topologies it runs on, which VCs are escape / adaptive, and the candidate
 * tiers of one decision.  The allocator (engine.c) is shared: it takes a
 * free VC uniformly at random from the first tier that has one.
 *
 * Registered: deterministic (route_dor.c; route_express.c on the
 * express-cube, whose interchanges route by arrival direction), duato
 * (route_duato.c), minimal_adaptive (route_minadapt.c; route_pcs.c for PCS
 * probes on the hypercube), pcube (route_pcube.c), hop_based
 * (route_hop.c).  The entry is chosen by (topology, routing, switching):
 * the two special cases are listed before the general ones.
 */
#include "sim_int.h"

static const sim_routing_ops *const routings[] = {
    &sim__route_dor,
    &sim__route_duato,
    &sim__route_minadapt,
    &sim__route_pcube,
    &sim__route_hop,
};

const sim_routing_ops *sim__routing_find(const net_design *d)
{
    if (d->switching == NET_SWITCH_PCS)
        return d->routing == NET_ROUTE_MINIMAL_ADAPTIVE ? &sim__route_pcs
                                                        : NULL;
    if (d->topology == NET_EXPRESS)
        return d->routing == NET_ROUTE_DETERMINISTIC ? &sim__route_express
                                                     : NULL;
    for (size_t i = 0; i < sizeof routings / sizeof routings[0]; i++)
        if (routings[i]->routing == d->routing)
            return routings[i];
    return NULL;
}
