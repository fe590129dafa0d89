/*
 * route.c — the routing registry.
 *
 * A routing function is an ops entry (sim_int.h, sim_routing_ops): which
 * topologies it runs on, which VCs are escape / adaptive, and the candidate
 * tiers of one decision.  The allocator (engine.c) is shared: it takes a
 * free VC uniformly at random from the first tier that has one.
 *
 * Registered: deterministic (route_dor.c), duato (route_duato.c),
 * minimal_adaptive (route_minadapt.c).  P-cube, hop-based and PCS routing
 * come as new entries here.
 */
#include "sim_int.h"

static const sim_routing_ops *const routings[] = {
    &sim__route_dor,
    &sim__route_duato,
    &sim__route_minadapt,
};

const sim_routing_ops *sim__routing_find(net_routing r)
{
    for (size_t i = 0; i < sizeof routings / sizeof routings[0]; i++)
        if (routings[i]->routing == r)
            return routings[i];
    return NULL;
}
