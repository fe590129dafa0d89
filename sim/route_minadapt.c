/*
 * route_minadapt.c — the minimal fully adaptive 2D-torus scheme of
 * Quaglia, Ciciani and Colajanni, 'Performance analysis of adaptive
 * wormhole routing in a two-dimensional torus', Parallel Computing 2002,
 * sec. 2 (model M2), as its simulator ran it: with virtual
 * channels (the paper simulated 4 per link; net_check asks for V >= 3).
 *
 * The paper's rule: "the header moves along X until it reaches the column
 * of the destination, then along Y.  If a channel along X is busy, the
 * header tries a channel along Y, then X again.  If channels along both are
 * busy, it waits until one of them is released."  The paper does not say
 * how its VCs avoided deadlock beyond citing "at least three virtual
 * channels" [6, 14]; we use Duato's mechanism, as net_check assumes: VCs 0
 * and 1 are dimension-order escape VCs with dateline classes, VCs 2..V-1
 * are adaptive.  With VCs, "channel X busy" means no VC of the X channel is
 * free, so the tiers are, while X is unfinished:
 *     1. adaptive VCs of the minimal X channel(s) (both at a tie);
 *     2. the escape VC of the X channel (dimension order is at X);
 *     3. adaptive VCs of the minimal Y channel(s);
 * and once X is done: adaptive Y VCs, then the Y escape VC.  Unlike duato
 * (random over X and Y), this prefers X deterministically, as the paper's
 * header does.  A blocked header retries every cycle and takes whichever
 * permitted VC frees first.
 */
#include "sim_int.h"

static int minadapt_check(const net_design *d, err *e)
{
    if (d->topology != NET_TORUS || d->n != 2)
        return err_set(e, ERR_UNSUPPORTED,
                       "minimal_adaptive wormhole routing is Quaglia et "
                       "al.'s 2D torus scheme; not simulated on a %d-D %s",
                       d->n, net_topology_name(d->topology));
    return 0;
}

static void minadapt_setup(sim_net *net)
{
    sim__route_duato.setup(net);  /* same VC split: 2 escape, rest adaptive */
}

static void minadapt_route(const sim_net *net, int r, const sim_msg *m,
                           int in_vc, sim_route *out)
{
    const sim_topo *t = &net->topo;
    int32_t cx[2], cy[2];
    (void)in_vc;
    int nx = t->ops->min_channels(t, r, m->dst, 0, cx);
    int ny = t->ops->min_channels(t, r, m->dst, 1, cy);
    sim_route_begin(out);
    if (nx) {
        for (int i = 0; i < nx; i++)
            sim_route_add(out, cx[i], net->mask_adapt);
        sim_route_tier(out);
        sim_route_add(out, cx[0],
                      net->mask_class[t->ops->vc_class(t, r, m->dst, 0)]);
        sim_route_tier(out);
        for (int i = 0; i < ny; i++)
            sim_route_add(out, cy[i], net->mask_adapt);
        sim_route_tier(out);
    } else if (ny) {
        for (int i = 0; i < ny; i++)
            sim_route_add(out, cy[i], net->mask_adapt);
        sim_route_tier(out);
        sim_route_add(out, cy[0],
                      net->mask_class[t->ops->vc_class(t, r, m->dst, 1)]);
        sim_route_tier(out);
    }
}

const sim_routing_ops sim__route_minadapt = {
    .routing = NET_ROUTE_MINIMAL_ADAPTIVE,
    .check = minadapt_check,
    .setup = minadapt_setup,
    .route = minadapt_route,
};
