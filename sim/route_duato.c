/*
 * route_duato.c — Duato's fully adaptive routing: minimal adaptive VCs plus
 * deterministic escape VCs (Duato, 'A new theory of deadlock-free adaptive
 * routing in wormhole networks', IEEE TPDS 1993; as Loucif, 'Performance
 * evaluation of distributed crossbar switch hypermesh', PhD thesis,
 * Glasgow 1999, secs. 2.2 and 4.2.1, applies it).
 *
 * VCs: on a torus VC 0 and VC 1 are the escape VCs of dateline classes 0
 * and 1, VCs 2..V-1 adaptive (V >= 3); on a mesh or hypercube VC 0 is the
 * escape VC, VCs 1..V-1 adaptive (V >= 2).
 *
 * Decision: tier 1, every adaptive VC on every minimal output channel of
 * every dimension still to correct (both directions at a torus tie), one
 * taken at random among the free ones; tier 2, if none is free, the escape
 * VC of the dimension-order hop (lowest remaining dimension, its dateline
 * class).  A header that finds neither free retries both tiers every cycle,
 * so it leaves on whichever frees first (adaptive preferred in the same
 * cycle).  A message on an escape VC may return to adaptive VCs at the next
 * router (Duato's condition allows it: the escape subnetwork is connected
 * and its extended dependency graph is acyclic).
 *
 * escape=sticky is BookSim2's min_adapt instead (Jiang et al., ISPASS
 * 2013; its routing function for the torus and mesh): a message on an
 * escape VC of a network channel is routed in dimension order on escape
 * VCs to its destination, and elsewhere the adaptive VCs and the escape VC
 * form one tier, so the allocator chooses among all the free ones rather
 * than preferring the adaptive VCs.  With it a message that once took an
 * escape VC never adapts again, which lowers saturation well below
 * Duato's protocol; dse offers it to compare with BookSim2 on equal terms.
 * adaptive_vcs=N keeps the adaptive tier to the N highest-numbered VCs
 * (BookSim2's min_adapt uses VC 3 only, of the four it needs; VC 2 then
 * carries nothing on network channels).
 *
 * adaptive_dims=N offers the adaptive VCs on the minimal channels of the
 * first N dimensions still to correct only.  adaptive_dims=1 is what
 * BookSim2's min_adapt does in effect: its routing function lists every
 * minimal channel at priority 1 and the escape VC at priority 0, but its
 * route set is a std::set ordered by priority alone, so the insertion of
 * a second candidate of equal priority is a no-op and only the lowest
 * dimension's adaptive channel stays (that is, the dimension-order
 * channel, with an adaptive VC beside the escape VC).  With the set
 * keeping every candidate BookSim2 saturates where dse's adaptive_dims=0
 * does (docs/validation/booksim2.md).  One difference is kept: at a torus
 * tie (offset k/2) dse offers both directions adaptively, BookSim2 only
 * the - one (its random choice there is commented out); on its 8x8 case
 * that moves dse's saturation by about 1%.
 */
#include "sim_int.h"

static int duato_check(const net_design *d, err *e)
{
    (void)d, (void)e;
    return 0;
}

static void duato_setup(sim_net *net)
{
    int nesc = net->topo.ops->nclasses;   /* escape VCs: one per class */
    if (net->V <= nesc) {
        /* Fewer VCs than the scheme needs (deadlock-prone tests only):
         * everything is escape, split as dimension order would. */
        sim__route_dor.setup(net);
        return;
    }
    net->mask_class[0] = UINT64_C(1);
    net->mask_class[1] = nesc == 2 ? UINT64_C(2) : UINT64_C(1);
    net->mask_adapt = net->mask_all & ~(net->mask_class[0] |
                                        net->mask_class[1]);
    int na = net->p.design.adaptive_vcs;
    if (na > 0 && na < net->V)
        net->mask_adapt &= ~((UINT64_C(1) << (net->V - na)) - 1);
}

/* escape=sticky: is in_vc an escape VC of a network channel? */
static int on_escape(const sim_net *net, int32_t in_vc)
{
    if (!net->p.design.escape_sticky || in_vc < 0 ||
        in_vc / net->V >= net->topo.nnet)
        return 0;
    uint64_t esc = net->mask_class[0] | net->mask_class[1];
    return (int)(esc >> (in_vc % net->V) & 1);
}

static void duato_route(const sim_net *net, int r, const sim_msg *m,
                        int in_vc, sim_route *out)
{
    const sim_topo *t = &net->topo;
    int32_t ch[2];
    int first_dim = -1;
    int32_t first_ch = -1;
    const int stuck = on_escape(net, in_vc);
    const int ndims = net->p.design.adaptive_dims;
    int left = ndims > 0 ? ndims : t->n;   /* dimensions offered adaptively */
    sim_route_begin(out);
    for (int dim = 0; dim < t->n; dim++) {
        int c = t->ops->min_channels(t, r, m->dst, dim, ch);
        if (c == 0)
            continue;
        if (first_dim < 0) {
            first_dim = dim;
            first_ch = ch[0];
        }
        if (!stuck && left > 0)
            for (int i = 0; i < c; i++)
                sim_route_add(out, ch[i], net->mask_adapt);
        left--;
    }
    if (!net->p.design.escape_sticky)
        sim_route_tier(out);
    if (first_dim >= 0) {
        int cls = sim_dor_class(t, net->V, net->mask_class, first_dim, in_vc,
                                t->ops->vc_class(t, r, m->dst, first_dim));
        sim_route_add(out, first_ch, net->mask_class[cls]);
        sim_route_tier(out);
    }
}

const sim_routing_ops sim__route_duato = {
    .routing = NET_ROUTE_DUATO,
    .check = duato_check,
    .setup = duato_setup,
    .route = duato_route,
};
