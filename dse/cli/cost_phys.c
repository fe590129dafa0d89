/*
 * cost_phys.c — `dse cost`'s physical block: computes a design's router
 * delay, link delays and area terms through constraints/phys.h and prints
 * them (text block per design, or JSON objects).  docs/router-cost.md has
 * the equations; this file only chooses what to show and how.
 */
#include <stdio.h>
#include <string.h>

#include "dse/cli/cost_phys.h"

void cost_phys_defaults(cost_phys_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = COST_ROUTER_CHIEN;
    o->clock_fo4 = COST_DEFAULT_CLOCK_FO4;
    o->fo4_per_tile = COST_DEFAULT_FO4_PER_TILE;
}

const char *cost_router_name(cost_router_model m)
{
    return m == COST_ROUTER_PEH_DALLY ? "peh_dally" : "chien";
}

int cost_router_parse(const char *s, cost_router_model *out)
{
    if (!strcmp(s, "chien"))
        *out = COST_ROUTER_CHIEN;
    else if (!strcmp(s, "peh_dally"))
        *out = COST_ROUTER_PEH_DALLY;
    else
        return ERR_INVALID;
    return 0;
}

int cost_phys_of(const net_design *d, const cost_phys_opts *o, cost_phys *out,
                 err *e)
{
    cost_phys p;
    memset(&p, 0, sizeof p);
    phys_wire_opts wo = {o->fo4_per_tile, o->clock_fo4, o->offchip_cycles};
    int rc = phys_router_shape_of(d, &p.shape, e);
    if (!rc) {
        phys_chien_of(&p.shape, &p.chien);
        rc = phys_peh_dally_of(&p.shape, o->clock_fo4, o->speculative, &p.pd,
                               e);
    }
    if (!rc)
        rc = phys_wires_of(d, &wo, &p.wires, e);
    if (!rc)
        rc = phys_area_of(d, &p.shape, &p.wires, &p.area, e);
    if (!rc) {
        phys_timing_opts to;
        phys_timing_defaults(&to);
        to.model = o->model == COST_ROUTER_PEH_DALLY ? PHYS_ROUTER_PEH_DALLY
                                                     : PHYS_ROUTER_CHIEN;
        to.clock_fo4 = o->clock_fo4;
        to.speculative = o->speculative;
        to.fo4_per_tile = o->fo4_per_tile;
        to.offchip_cycles = o->offchip_cycles;
        net_design t = *d;
        rc = phys_timing_apply(&t, &to, e);
        p.study_router_delay = t.router_delay;
    }
    if (!rc)
        *out = p;
    return rc;
}

void cost_phys_print_header(const cost_phys_opts *o)
{
    printf("router model: %s", cost_router_name(o->model));
    if (o->model == COST_ROUTER_PEH_DALLY)
        printf(", clock %g FO4%s", o->clock_fo4,
               o->speculative ? ", speculative VC allocation" : "");
    if (o->offchip_cycles > 0)
        printf("; links off-chip, %d cycles each\n", o->offchip_cycles);
    else
        printf("; links on-chip, %g FO4 per tile at a %g FO4 clock\n",
               o->fo4_per_tile, o->clock_fo4);
}

void cost_phys_print(int idx, const cost_phys_opts *o, const cost_phys *p)
{
    const phys_router_shape *s = &p->shape;
    printf("#%d router: P=%d (in %d+1, out %d+eject) V=%d F=%d w=%d", idx,
           s->ports, s->net_inputs, s->net_outputs, s->vcs, s->freedom,
           s->width);
    if (s->buffered_inputs != s->net_inputs)
        printf(" (%d buffered inputs through input multiplexers)",
               s->buffered_inputs);
    printf("\n");
    if (o->model == COST_ROUTER_CHIEN) {
        const phys_chien *c = &p->chien;
        printf("   chien: AD %.3f + arb %.3f + xbar %.3f = setup %.3f ns; "
               "flit xbar %.3f + FC %.3f + VC %.3f = %.3f ns; "
               "D_r = %d flit cycle%s\n",
               c->t_ad, c->t_arb, c->t_xbar, c->setup_ns, c->t_xbar, c->t_fc,
               c->t_vc, c->flit_ns, c->setup_cycles,
               c->setup_cycles == 1 ? "" : "s");
    } else {
        const phys_peh_dally *d = &p->pd;
        printf("   peh_dally: %d stages at %g FO4:", d->stages, d->clock_fo4);
        for (int i = 0; i < d->nmodules; i++)
            printf(" %s %.2f+%.2f (stage %d)%s", d->modules[i].name,
                   d->modules[i].t, d->modules[i].h, d->modules[i].stage,
                   i + 1 < d->nmodules ? "," : "");
        printf(" FO4\n");
    }
    printf("   in a study (router model %s): D_r = %d cycle%s for the unit "
           "router\n", cost_router_name(o->model), p->study_router_delay,
           p->study_router_delay == 1 ? "" : "s");
    const phys_wires *w = &p->wires;
    printf("   links on a %dx%d tile grid:", w->grid_x, w->grid_y);
    for (int i = 0; i < w->nclasses; i++) {
        const phys_channel_class *c = &w->classes[i];
        printf(" dim %d %s %d tile%s %d cycle%s%s", c->dim, c->kind,
               c->length_tiles, c->length_tiles == 1 ? "" : "s", c->cycles,
               c->cycles == 1 ? "" : "s",
               i + 1 < w->nclasses ? ";" : "");
    }
    printf("\n");
    const phys_area *a = &p->area;
    printf("   area per router: buffers %.15g bits, crossbar %.15g tracks^2, ",
           a->buffer_bits, a->crossbar_tracks2);
    if (a->mux_tracks2 > 0)
        printf("input multiplexers %.15g tracks^2, ", a->mux_tracks2);
    printf("allocators %.15g + %.15g arbiter bits (VC + switch)\n",
           a->va_bits, a->sa_bits);
    printf("   area in total (%.15g routers): buffers %.15g bits, crossbars "
           "%.15g tracks^2, allocators %.15g bits, wires %.15g wire-tiles\n",
           a->routers, a->total_buffer_bits, a->total_crossbar_tracks2,
           a->total_allocator_bits, a->wire_length);
}

json_t *cost_phys_opts_json(const cost_phys_opts *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "router_model",
                        json_string(cost_router_name(o->model)));
    json_object_set_new(j, "clock_fo4", json_real(o->clock_fo4));
    json_object_set_new(j, "speculative", json_boolean(o->speculative));
    json_object_set_new(j, "fo4_per_tile", json_real(o->fo4_per_tile));
    json_object_set_new(j, "offchip_cycles", json_integer(o->offchip_cycles));
    return j;
}

static json_t *shape_json(const phys_router_shape *s)
{
    json_t *j = json_object();
    json_object_set_new(j, "ports", json_integer(s->ports));
    json_object_set_new(j, "net_inputs", json_integer(s->net_inputs));
    json_object_set_new(j, "net_outputs", json_integer(s->net_outputs));
    json_object_set_new(j, "buffered_inputs", json_integer(s->buffered_inputs));
    json_object_set_new(j, "vcs", json_integer(s->vcs));
    json_object_set_new(j, "freedom", json_integer(s->freedom));
    json_object_set_new(j, "width", json_integer(s->width));
    return j;
}

static json_t *router_json(const cost_phys_opts *o, const cost_phys *p)
{
    json_t *j = json_object();
    json_object_set_new(j, "model", json_string(cost_router_name(o->model)));
    if (o->model == COST_ROUTER_CHIEN) {
        const phys_chien *c = &p->chien;
        json_object_set_new(j, "t_ad_ns", json_real(c->t_ad));
        json_object_set_new(j, "t_arb_ns", json_real(c->t_arb));
        json_object_set_new(j, "t_xbar_ns", json_real(c->t_xbar));
        json_object_set_new(j, "t_fc_ns", json_real(c->t_fc));
        json_object_set_new(j, "t_vc_ns", json_real(c->t_vc));
        json_object_set_new(j, "setup_ns", json_real(c->setup_ns));
        json_object_set_new(j, "flit_ns", json_real(c->flit_ns));
        json_object_set_new(j, "delay_cycles", json_integer(c->setup_cycles));
    } else {
        const phys_peh_dally *d = &p->pd;
        json_object_set_new(j, "clock_fo4", json_real(d->clock_fo4));
        json_object_set_new(j, "speculative", json_boolean(d->speculative));
        json_t *mods = json_array();
        for (int i = 0; i < d->nmodules; i++) {
            json_t *m = json_object();
            json_object_set_new(m, "name", json_string(d->modules[i].name));
            json_object_set_new(m, "t_fo4", json_real(d->modules[i].t));
            json_object_set_new(m, "h_fo4", json_real(d->modules[i].h));
            json_object_set_new(m, "stage", json_integer(d->modules[i].stage));
            json_array_append_new(mods, m);
        }
        json_object_set_new(j, "modules", mods);
        json_object_set_new(j, "delay_cycles", json_integer(d->stages));
    }
    return j;
}

json_t *cost_phys_json(const cost_phys_opts *o, const cost_phys *p)
{
    json_t *j = json_object();
    json_object_set_new(j, "shape", shape_json(&p->shape));
    json_t *r = router_json(o, p);
    json_object_set_new(r, "study_router_delay",
                        json_integer(p->study_router_delay));
    json_object_set_new(j, "router", r);
    json_t *links = json_array();
    for (int i = 0; i < p->wires.nclasses; i++) {
        const phys_channel_class *c = &p->wires.classes[i];
        json_t *l = json_object();
        json_object_set_new(l, "dim", json_integer(c->dim));
        json_object_set_new(l, "kind", json_string(c->kind));
        json_object_set_new(l, "channels", json_real(c->channels));
        json_object_set_new(l, "length_tiles", json_integer(c->length_tiles));
        json_object_set_new(l, "cycles", json_integer(c->cycles));
        json_array_append_new(links, l);
    }
    json_object_set_new(j, "links", links);
    const phys_area *a = &p->area;
    json_t *ja = json_object();
    json_object_set_new(ja, "grid", json_pack("[ii]", p->wires.grid_x,
                                              p->wires.grid_y));
    json_object_set_new(ja, "buffer_bits", json_real(a->buffer_bits));
    json_object_set_new(ja, "crossbar_tracks2", json_real(a->crossbar_tracks2));
    json_object_set_new(ja, "input_mux_tracks2", json_real(a->mux_tracks2));
    json_object_set_new(ja, "vc_allocator_bits", json_real(a->va_bits));
    json_object_set_new(ja, "switch_allocator_bits", json_real(a->sa_bits));
    json_object_set_new(ja, "routers", json_real(a->routers));
    json_object_set_new(ja, "total_buffer_bits", json_real(a->total_buffer_bits));
    json_object_set_new(ja, "total_crossbar_tracks2",
                        json_real(a->total_crossbar_tracks2));
    json_object_set_new(ja, "total_allocator_bits",
                        json_real(a->total_allocator_bits));
    json_object_set_new(ja, "wire_tiles", json_real(a->wire_length));
    json_object_set_new(j, "area", ja);
    return j;
}
