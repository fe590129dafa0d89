/*
 * route_pcs.c — the routing function of PCS probes on the hypercube (Safaei,
 * Khonsari, Fathy and Ould-Khaoua, 'An analytical model of pipelined circuit
 * switching in hypercubes in the presence of hot spot traffic', ICPP Workshops
 * 2005, sec. 3.1; model M9): fully adaptive minimal, every dimension still to
 * correct, any of the V VCs, one chosen at random among the free ones
 * (sim__route_pick).  Deadlock freedom comes from the switching, not from VC
 * classes: a probe that finds every permitted VC busy backs up instead of
 * waiting (pcs.c), so V >= 1.
 */
#include "sim_int.h"

static int pcs_check(const net_design *d, err *e)
{
    if (d->topology != NET_HYPERCUBE || d->switching != NET_SWITCH_PCS)
        return err_set(e, ERR_UNSUPPORTED,
                       "PCS probes are simulated on the hypercube only");
    return 0;
}

static void pcs_setup(sim_net *net)
{
    net->mask_class[0] = net->mask_class[1] = net->mask_all;
    net->mask_adapt = net->mask_all;
}

static void pcs_route(const sim_net *net, int r, const sim_msg *m, int in_vc,
                      sim_route *out)
{
    const sim_topo *t = &net->topo;
    uint32_t diff = (uint32_t)(r ^ m->dst);
    (void)in_vc;
    sim_route_begin(out);
    while (diff) {
        int dim = __builtin_ctz(diff);
        diff &= diff - 1;
        sim_route_add(out, sim_topo_port(t, r, dim, +1), net->mask_all);
    }
    sim_route_tier(out);
}

const sim_routing_ops sim__route_pcs = {
    .routing = NET_ROUTE_MINIMAL_ADAPTIVE,
    .check = pcs_check,
    .setup = pcs_setup,
    .route = pcs_route,
};
