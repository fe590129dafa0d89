/*
 * report_tradeoff.c — the table "The recommended shape against its VCs
 * and routing": every scored design of the recommended design's topology
 * and radices, whatever its VC count and routing, with the router delay
 * the study's router model gave it, its channel width and buffer bits, its
 * latency at each target rate and its saturation rate (simulated where it
 * was simulated, else the model's).  It shows the trade-off the decision
 * made, not only its winner: under a router model more VCs or a more
 * adaptive routing can cost router delay, and under budget.area channel
 * width.  When the router model gives designs different clocks (Chien's),
 * their latencies and rates are in cycles of the run's reference clock
 * (the fastest design's; report_clock.c), and three more columns give
 * each design's own clock period, its exact zero-load latency in ns and
 * its saturation rate in messages per node per microsecond.
 */
#include <math.h>
#include <stdint.h>

#include "dse/report/report_table.h"

/* 1 if a and b have the same topology, radices and topology parameters
 * (the express-cube's m and kn). */
static int same_shape(const net_design *a, const net_design *b)
{
    if (a->topology != b->topology || a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (a->k[i] != b->k[i])
            return 0;
    return net_design_params_equal(a, b);
}

const char *report_tradeoff_question(void)
{
    return "What do more VCs or a more adaptive routing buy the recommended "
           "shape, and what do they cost? Every scored design of its "
           "topology and radices, with the router delay D_r the study's "
           "router model gives it, its channel width and buffer bits (which "
           "an area budget trades against VCs), its latency at each target "
           "rate and its saturation rate: simulated where it was simulated, "
           "else the model's, marked (model).";
}

void report_table_tradeoff(const dse_run *r, rtable *t)
{
    const cfg_study *s = r->study;
    int clocks = s->router.model == PHYS_ROUTER_CHIEN;
    rtable_init(t, 6 + s->rates.n + (clocks ? 3 : 0));
    rtable_cell(t, "VCs");
    rtable_cell(t, "routing");
    rtable_cell(t, "D_r (cycles)");
    rtable_cell(t, "width");
    rtable_cell(t, "buffer bits");
    for (size_t ri = 0; ri < s->rates.n; ri++)
        rtable_cell(t, "latency @ %g", s->rates.v[ri]);
    rtable_cell(t, "saturation rate");
    if (clocks) {
        rtable_cell(t, "clock (ns)");
        rtable_cell(t, "zero-load latency (ns)");
        rtable_cell(t, "saturation (msgs/node/us)");
    }
    if (r->recommended == SIZE_MAX)
        return;
    const net_design *best = &r->cand[r->recommended].design;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        const net_design *d = &c->design;
        if (!same_shape(d, best))
            continue;
        rtable_cell(t, "%d%s", d->vcs, i == r->recommended ? " (recommended)"
                                                           : "");
        rtable_cell(t, "%s", net_routing_name(d->routing));
        rtable_cell(t, "%d", d->router_delay);
        rtable_cell(t, "%d", d->width);
        rtable_cell(t, "%.0f", c->cost.buffer_bits);
        for (size_t ri = 0; ri < s->rates.n; ri++) {
            int sim;
            double l = dse_report_latency(c, ri, &sim);
            if (isfinite(l))
                rtable_cell(t, "%.1f%s", l, sim ? "" : " (model)");
            else
                rtable_cell(t, "saturates");
        }
        int sim = isfinite(c->sim_saturation);
        double sat = sim ? c->sim_saturation : c->saturation_rate;
        if (isfinite(sat))
            rtable_cell(t, "%.5f%s", sat, sim ? "" : " (model)");
        else
            rtable_cell(t, "-");
        if (!clocks)
            continue;
        double ns = dse_report_clock_ns(s, d);
        /* the figures' cycle: the reference clock's when clocks differ */
        double unit = r->clock_ref_ns > 0 ? r->clock_ref_ns : ns;
        rtable_cell(t, "%.2f", ns);
        if (isfinite(c->exact_zero_load))
            rtable_cell(t, "%.0f", c->exact_zero_load * unit);
        else
            rtable_cell(t, "-");
        if (isfinite(sat))
            rtable_cell(t, "%.3f%s", 1000 * sat / unit, sim ? "" : " (model)");
        else
            rtable_cell(t, "-");
    }
}
