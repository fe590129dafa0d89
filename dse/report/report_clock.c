/*
 * report_clock.c — designs whose clocks differ.  Under Chien's router
 * model (docs/router-cost.md) a design's clock is its router's flit time,
 * which grows with its ports and VCs, so two designs' cycles are not the
 * same length; under the fixed and Peh-Dally models every design of a
 * study shares one clock.  When they differ the run has a reference clock,
 * the fastest design's (dse_run.clock_ref_ns): the target rates are per
 * reference cycle, each design is simulated at the same load per ns (its
 * own rate per cycle is the target x its clock over the reference), and
 * its latencies and rates are converted to reference cycles, so that the
 * decision ranks, ties and fronts designs in time, not in cycles of
 * different lengths (docs/decision.md).  The report says so, and where the
 * order in ns differs from the order the same figures would have in each
 * design's own cycles.
 */
#include <math.h>
#include <stdint.h>

#include "constraints/phys.h"
#include "dse/report/report.h"

double dse_report_clock_ns(const cfg_study *s, const net_design *d)
{
    return dse_design_clock_ns(s, d);
}

/* The range of clock periods over the study's designs (the reference
 * clock is the lowest); 0 when none has a clock of its own. */
static int clock_range(const dse_run *r, double *lo, double *hi,
                       size_t *nlo, size_t *nhi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    *nlo = *nhi = SIZE_MAX;
    for (size_t i = 0; i < r->ncand; i++) {
        double t = dse_report_clock_ns(r->study, &r->cand[i].design);
        if (!isfinite(t))
            continue;
        if (t < *lo) {
            *lo = t;
            *nlo = i;
        }
        if (t > *hi) {
            *hi = t;
            *nhi = i;
        }
    }
    return *nlo != SIZE_MAX;
}

/* A design's simulated latency at rate ri in cycles of its own clock,
 * the figure a ranking in cycles would use; INFINITY when it has none. */
static double own_cycles(const dse_candidate *c, const cfg_study *s,
                         size_t ri)
{
    if (!c->sim)
        return INFINITY;
    double v = dse_point_latency(&c->sim[ri], cfg_rank_stat(s), NULL);
    return isfinite(v) ? v / dse_clock_scale(c) : INFINITY;
}

void dse_report_clock_lines(const dse_run *r, char ***lines, size_t *count)
{
    double lo, hi;
    size_t ilo, ihi;
    if (!(r->clock_ref_ns > 0) || !clock_range(r, &lo, &hi, &ilo, &ihi))
        return;
    char a[200], b[200];
    dse_design_label(&r->cand[ilo].design, a, sizeof a);
    dse_design_label(&r->cand[ihi].design, b, sizeof b);
    dse_report_line_add(lines, count,
        "Clocks differ: under Chien's router model a design's clock is its "
        "router's flit time, from %.2f ns (%s) to %.2f ns (%s) here, %.0f%% "
        "apart. The decision compares them in time: target rates are "
        "messages per node per cycle of the reference clock, the fastest "
        "design's (%.2f ns), so every design carries the same load per ns "
        "(a design of clock T is simulated at rate x T / %.2f per cycle of "
        "its own), and every latency and rate in this report is in "
        "reference cycles (x %.2f for ns); the router delays D_r stay in "
        "each design's own cycles.",
        lo, a, hi, b, 100 * (hi / lo - 1), r->clock_ref_ns, r->clock_ref_ns,
        r->clock_ref_ns);
    /* where the order in cycles of each design's own clock differs: the
     * best at each target rate, in time and in own cycles */
    const cfg_study *s = r->study;
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t best = r->best_at_rate ? r->best_at_rate[ri] : SIZE_MAX;
        if (best == SIZE_MAX)
            continue;
        size_t own = SIZE_MAX;
        double own_best = INFINITY;
        for (size_t i = 0; i < r->ncand; i++) {
            double v = own_cycles(&r->cand[i], s, ri);
            if (v < own_best) {
                own_best = v;
                own = i;
            }
        }
        if (own == SIZE_MAX || own == best)
            continue;
        const dse_candidate *cb = &r->cand[best], *co = &r->cand[own];
        double vb = dse_point_latency(&cb->sim[ri], cfg_rank_stat(s), NULL);
        double vo = dse_point_latency(&co->sim[ri], cfg_rank_stat(s), NULL);
        dse_design_label(&cb->design, a, sizeof a);
        dse_design_label(&co->design, b, sizeof b);
        dse_report_line_add(lines, count,
            "At %g messages/node/reference cycle, in ns %s is best (%.0f "
            "ns, %.1f of its own cycles), while in cycles of each design's "
            "own clock %s would be (%.1f own cycles, %.0f ns): its clock is "
            "%.0f%% slower.", s->rates.v[ri], a, vb * r->clock_ref_ns,
            vb / dse_clock_scale(cb), b, vo / dse_clock_scale(co),
            vo * r->clock_ref_ns,
            100 * (dse_clock_scale(co) / dse_clock_scale(cb) - 1));
    }
}
