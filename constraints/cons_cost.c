/*
 * cons_cost.c — the costs of a design at its own channel width: bisection
 * wires, pins of a node chip and of an interchange chip, total wires and
 * buffer bits.
 *
 * Every cost is linear in the channel width w (an express channel has the
 * same width as a local one, thesis section 6.4), so each is a channel
 * count from cons_count.c times w:
 *   bisection wires  = bisection channels x w             (VLSI, 4.11/4.12/6.29)
 *   node pins        = channels of the busiest node x w   (multi-chip, 4.14/4.15/6.31)
 *   interchange pins = channels of one interchange x w    (express only, 6.31)
 *   total wires      = all network channels x w           (a wire count, not
 *                      a wire length: the sources give no layout lengths)
 *   buffer bits      = buffered channel inputs x V x buffer depth x w:
 *                      the VC flit buffers at the receiving end of every
 *                      network channel (thesis 2.4.1(g), 4.2.1: one flit
 *                      buffer per VC at the receiving side), one flit being
 *                      w bits (1 flit = 1 phit, section 4.3).  A DCSH bus
 *                      has k-1 receivers, each with its own buffered input
 *                      of the (k-1)-to-1 multiplexer (section 1.2).  Not
 *                      counted: injection and ejection buffers, source
 *                      queues, and any buffering inside the crossbar.
 */
#include "cons.h"
#include "phys.h"

double cons_unit_cost(const cons_counts *c, cons_technology t)
{
    if (t == CONS_MULTICHIP)
        return c->node_channels > c->interchange_channels
                   ? c->node_channels
                   : c->interchange_channels;
    return c->bisection_channels;
}

int cons_cost_of(const net_design *d, cons_cost *out, err *e)
{
    cons_counts c;
    int rc = cons_counts_of(d, &c, e);
    if (rc)
        return rc;
    double w = d->width;
    cons_cost cost;
    cost.bisection_wires = c.bisection_channels * w;
    cost.node_pins = c.node_channels * w;
    cost.interchange_pins = c.interchange_channels * w;
    cost.max_pins = cons_unit_cost(&c, CONS_MULTICHIP) * w;
    cost.total_wires = c.channels * w;
    cost.buffer_bits = c.buffered_inputs * d->vcs * d->buffer_flits * w;
    /* the floor plan's lengths do not depend on the clock or wire speed:
     * any valid wire options give the same area */
    phys_router_shape shape;
    phys_wire_opts wo = {1, 20, 0};
    phys_wires wires;
    phys_area area;
    rc = phys_router_shape_of(d, &shape, e);
    if (!rc)
        rc = phys_wires_of(d, &wo, &wires, e);
    if (!rc)
        rc = phys_area_of(d, &shape, &wires, &area, e);
    if (rc)
        return rc;
    cost.crossbar_area = area.total_crossbar_tracks2;
    cost.wire_length = area.wire_length;
    *out = cost;
    return 0;
}
