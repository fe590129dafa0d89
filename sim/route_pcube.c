/*
 * route_pcube.c — P-cube partially adaptive routing on the binary
 * hypercube (Patooghy and Sarbazi-Azad, 'Analytical performance modelling
 * of partially adaptive routing in wormhole hypercubes', [PS06] in
 * docs/sources.md, sec. 2; model M1).
 *
 * Phase 1 corrects, in any order, the dimensions where the current node's
 * bit is 1 and the destination's is 0 (1 -> 0, "negative" hops); phase 2,
 * once none is left, the dimensions where the current bit is 0 and the
 * destination's 1.  Within a phase the header takes any free VC on any of
 * the phase's channels, at random (the allocator's uniform choice: every
 * allowed path equally likely when all are free), any of the V VCs: the
 * turn model (negative-first) needs no VCs for deadlock freedom, so V >= 1.
 * One tier: a blocked header retries every cycle and takes whichever
 * permitted VC frees first.
 */
#include "sim_int.h"

static int pcube_check(const net_design *d, err *e)
{
    if (d->topology != NET_HYPERCUBE)
        return err_set(e, ERR_UNSUPPORTED,
                       "pcube routing runs on the hypercube, not on a %s",
                       net_topology_name(d->topology));
    return 0;
}

static void pcube_setup(sim_net *net)
{
    net->mask_class[0] = net->mask_class[1] = net->mask_all;
    net->mask_adapt = net->mask_all;
}

static void pcube_route(const sim_net *net, int r, const sim_msg *m,
                        int in_vc, sim_route *out)
{
    const sim_topo *t = &net->topo;
    uint32_t diff = (uint32_t)(r ^ m->dst);
    uint32_t neg = diff & (uint32_t)r;        /* 1 -> 0 */
    uint32_t todo = neg ? neg : diff;         /* else all 0 -> 1 */
    (void)in_vc;
    sim_route_begin(out);
    while (todo) {
        int dim = __builtin_ctz(todo);
        todo &= todo - 1;
        sim_route_add(out, sim_topo_port(t, r, dim, +1), net->mask_all);
    }
    sim_route_tier(out);
}

const sim_routing_ops sim__route_pcube = {
    .routing = NET_ROUTE_PCUBE,
    .check = pcube_check,
    .setup = pcube_setup,
    .route = pcube_route,
};
