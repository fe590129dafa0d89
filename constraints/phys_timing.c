/*
 * phys_timing.c — what a router model makes of one design's timing in a
 * study: the per-hop routing delay D_r of the unit router (what the
 * analytic models and the unit simulator take), and the stage and link
 * delays of router=pipelined.  The delay models themselves are in
 * phys_router.c and phys_wire.c; this file only maps their results onto
 * the design's timing fields, so that every consumer of a net_design (the
 * models, both simulators, the result cache's key) sees the same numbers.
 *
 * ---- Unit router (docs/router-cost.md, "In a study") -------------------
 * A unit router's hop costs 1 + D_r cycles: D_r for the header's routing
 * decision, 1 for crossing the crossbar and the link.
 *   fixed      D_r = the study's delay.
 *   chien      D_r = ceil(T_setup / T_flit) flit cycles: the crossbar,
 *              flow control, VC controller and link take the one flit
 *              cycle (Chien's router is clocked at its flit time).
 *   peh_dally  a hop takes the router's S pipeline stages and the link's
 *              L cycles, so D_r = S + L - 1; L is the mean link delay of
 *              the local and bus channels weighted by their number, to
 *              the nearest cycle (the unit router has one hop time; the
 *              express channels' longer links are not in it).
 *
 * ---- Pipelined router --------------------------------------------------
 * peh_dally only (chien's router is not pipelined): each module's stages
 * (those it opens; 0 when it shares the previous module's stage) become
 *   routing_delay   routing's stages
 *   vc_alloc_delay  VC allocator's (spec_alloc's when speculative; 1 for
 *                   a wormhole router, which has none: the simulator's
 *                   minimum)
 *   sw_alloc_delay  switch allocator's or arbiter's (spec_alloc's when
 *                   speculative), at least 1
 *   st_final_delay  crossbar's
 *   link delays     per channel class from the floor plan: local, express
 *                   and bus the largest of their class over dimensions.
 * fixed and chien leave a pipelined design's stage delays as given.
 */
#include <math.h>
#include <string.h>

#include "phys.h"

static const char *const model_names[PHYS_ROUTER_MODEL_COUNT] = {
    [PHYS_ROUTER_FIXED] = "fixed",
    [PHYS_ROUTER_CHIEN] = "chien",
    [PHYS_ROUTER_PEH_DALLY] = "peh_dally",
};

const char *phys_router_model_name(phys_router_model m)
{
    return (unsigned)m < PHYS_ROUTER_MODEL_COUNT ? model_names[m] : "?";
}

int phys_router_model_parse(const char *s, phys_router_model *out)
{
    for (int m = 0; m < PHYS_ROUTER_MODEL_COUNT; m++)
        if (!strcmp(s, model_names[m])) {
            *out = (phys_router_model)m;
            return 0;
        }
    return ERR_INVALID;
}

void phys_timing_defaults(phys_timing_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = PHYS_ROUTER_FIXED;
    o->delay = 1;
    o->clock_fo4 = 20.0;
    o->speculative = 0;
    o->fo4_per_tile = 3.0;
    o->offchip_cycles = 0;
}

/* Stages module m opened (0 when it shares its predecessor's). */
static int module_stages(const phys_peh_dally *p, int m)
{
    int before = m > 0 ? p->modules[m - 1].stage : 0;
    return p->modules[m].stage - before;
}

static int at_least_1(int x) { return x > 0 ? x : 1; }

static void apply_pipeline(net_design *d, const phys_peh_dally *p,
                           const phys_wires *w)
{
    int routing = 0, va = 0, sa = 0, xbar = 0;
    for (int m = 0; m < p->nmodules; m++) {
        const char *name = p->modules[m].name;
        int st = module_stages(p, m);
        if (!strcmp(name, "routing"))
            routing = st;
        else if (!strcmp(name, "vc_alloc"))
            va = st;
        else if (!strcmp(name, "switch_alloc") ||
                 !strcmp(name, "switch_arbiter"))
            sa = st;
        else if (!strcmp(name, "spec_alloc"))
            va = sa = st;
        else if (!strcmp(name, "crossbar"))
            xbar = st;
    }
    d->routing_delay = routing;
    d->vc_alloc_delay = at_least_1(va);
    d->sw_alloc_delay = at_least_1(sa);
    d->st_final_delay = xbar;
    d->speculative = p->speculative;
    int local = 1, express = 1, bus = 1;
    for (int c = 0; c < w->nclasses; c++) {
        const phys_channel_class *k = &w->classes[c];
        int *slot = !strcmp(k->kind, "express") ? &express
                    : !strcmp(k->kind, "bus")   ? &bus
                                                : &local;
        if (k->cycles > *slot)
            *slot = k->cycles;
    }
    d->link_delay = local;
    d->express_link_delay = express;
    d->bus_link_delay = bus;
}

/* Across chips every link is off-chip: the design says so with its
 * off-chip class (every dimension joins two chips). */
static void apply_offchip(net_design *d, int cycles)
{
    d->offchip_dims = d->n;
    d->offchip_link_delay = cycles;
}

/* Mean link delay of the local and bus channels, weighted by their
 * number, to the nearest cycle (at least 1). */
static int mean_link_cycles(const phys_wires *w)
{
    double chans = 0, cycles = 0;
    for (int c = 0; c < w->nclasses; c++) {
        const phys_channel_class *k = &w->classes[c];
        if (!strcmp(k->kind, "express"))
            continue;
        chans += k->channels;
        cycles += k->channels * k->cycles;
    }
    if (chans <= 0)
        return 1;
    return at_least_1((int)floor(cycles / chans + 0.5));
}

int phys_timing_apply(net_design *d, const phys_timing_opts *o, err *e)
{
    if (o->model == PHYS_ROUTER_FIXED) {
        d->router_delay = o->delay;
        return 0;
    }
    phys_router_shape s;
    int rc = phys_router_shape_of(d, &s, e);
    if (rc)
        return rc;
    if (o->model == PHYS_ROUTER_CHIEN) {
        phys_chien c;
        phys_chien_of(&s, &c);
        d->router_delay = c.setup_cycles;
        return 0;
    }
    phys_peh_dally p;
    rc = phys_peh_dally_of(&s, o->clock_fo4, o->speculative, &p, e);
    if (rc)
        return rc;
    phys_wire_opts wo = {o->fo4_per_tile, o->clock_fo4, o->offchip_cycles};
    phys_wires w;
    rc = phys_wires_of(d, &wo, &w, e);
    if (rc)
        return rc;
    d->router_delay = p.stages + mean_link_cycles(&w) - 1;
    if (d->router == NET_ROUTER_PIPELINED) {
        apply_pipeline(d, &p, &w);
        if (o->offchip_cycles > 0)
            apply_offchip(d, o->offchip_cycles);
    }
    return 0;
}
