/*
 * phys_area.c — how much a design's routers and wires occupy, term by
 * term, each in the unit that grows with it (docs/router-cost.md, "Area").
 * The terms are not summed: their units differ, and their relative price
 * depends on the technology, which the study does not give.
 *
 *   buffers    per router: buffered inputs x V x depth x w bit-cells (the
 *              input-queued VC router of Dally and Towles 2004, ch. 16);
 *              in total: every buffered channel input, as cons_cost.c
 *              counts it (the express-cube's interchanges included).
 *   crossbar   per router: (P w)^2 wire pitches squared — a P x P
 *              crossbar of w-bit ports is P w input tracks crossing P w
 *              output tracks, so it is wire-limited and grows with the
 *              square of its bisection (Dally and Towles 2004, ch. 17).
 *   input mux  a DCSH node's (k-1):1 input multiplexer per dimension is
 *              a (k-1) w x w crossbar: (k-1) w^2 tracks^2 per dimension.
 *              The total crossbar term includes them.
 *   allocators arbiter state bits, matrix arbiters (n(n-1)/2 bits for n
 *              requesters, Dally and Towles 2004, ch. 18), the separable
 *              allocators of phys_router.c:
 *                VC allocator  p v arbiters v:1 + p v arbiters (p v):1
 *                switch alloc. p arbiters v:1 + p arbiters p:1
 *              (a wormhole router, V = 1, has no VC allocator).
 *   wires      channels x w x length in tiles (phys_wire.c): wire-tiles.
 * Totals multiply the per-router terms by the N node routers; an
 * express-cube's interchange routers are counted in the buffer total only
 * (their crossbars and allocators have another shape).
 */
#include "constraints/cons.h"
#include "phys.h"

double phys_matrix_arbiter_bits(int n)
{
    return n > 1 ? (double)n * (n - 1) / 2 : 0;
}

int phys_area_of(const net_design *d, const phys_router_shape *s,
                 const phys_wires *w, phys_area *out, err *e)
{
    /* channel counts, not cons_cost_of: that one reports these areas */
    cons_counts counts;
    int rc = cons_counts_of(d, &counts, e);
    if (rc)
        return rc;
    double p = s->ports, v = s->vcs, pw = p * s->width;
    phys_area a = {0};
    a.buffer_bits =
        (double)s->buffered_inputs * v * d->buffer_flits * s->width;
    a.crossbar_tracks2 = pw * pw;
    a.mux_tracks2 = s->mux_crosspoints * s->width * s->width;
    if (s->vcs > 1)
        a.va_bits = p * v * phys_matrix_arbiter_bits(s->vcs) +
                    p * v * phys_matrix_arbiter_bits(s->ports * s->vcs);
    a.sa_bits = p * phys_matrix_arbiter_bits(s->vcs) +
                p * phys_matrix_arbiter_bits(s->ports);
    a.routers = (double)net_nodes(d);
    a.total_buffer_bits = counts.buffered_inputs * d->vcs * d->buffer_flits *
                          (double)d->width;
    a.total_crossbar_tracks2 =
        a.routers * (a.crossbar_tracks2 + a.mux_tracks2);
    a.total_allocator_bits = a.routers * (a.va_bits + a.sa_bits);
    a.wire_length = w->wire_length;
    *out = a;
    return 0;
}
