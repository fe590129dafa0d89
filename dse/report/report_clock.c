/*
 * report_clock.c — designs whose clocks differ.  Under Chien's router
 * model (docs/router-cost.md) a design's clock is its router's flit time,
 * which grows with its ports and VCs, so two designs' cycles are not the
 * same length; under the fixed and Peh-Dally models every design of a
 * study shares one clock.  The decision ranks latencies in cycles and
 * takes the target rates per cycle, each of a design's own clock: with
 * different clocks it compares them as if they were equal.  Ranking in
 * ns would also need the target rates in messages per ns, so that each
 * design is simulated at its own rate per cycle; until then the report
 * says so for such a study and gives each design's figures in ns beside
 * its cycles (the trade-off table, the verdict and the findings).
 */
#include <math.h>
#include <stdint.h>

#include "constraints/phys.h"
#include "dse/report/report.h"

double dse_report_clock_ns(const cfg_study *s, const net_design *d)
{
    if (s->router.model != PHYS_ROUTER_CHIEN)
        return NAN;
    phys_router_shape sh;
    err e;
    err_clear(&e);
    if (phys_router_shape_of(d, &sh, &e))
        return NAN;
    phys_chien c;
    phys_chien_of(&sh, &c);
    return c.flit_ns;
}

/* The range of clock periods over the simulated designs (the scored ones
 * when none was simulated); 0 when the study's designs share a clock. */
static int clock_range(const dse_run *r, double *lo, double *hi,
                       size_t *nlo, size_t *nhi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    *nlo = *nhi = SIZE_MAX;
    for (int pass = 0; pass < 2 && *nlo == SIZE_MAX; pass++)
        for (size_t i = 0; i < r->ncand; i++) {
            const dse_candidate *c = &r->cand[i];
            if (pass == 0 && !isfinite(c->sim_saturation))
                continue;
            double t = dse_report_clock_ns(r->study, &c->design);
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

void dse_report_clock_lines(const dse_run *r, char ***lines, size_t *count)
{
    double lo, hi;
    size_t ilo, ihi;
    if (!clock_range(r, &lo, &hi, &ilo, &ihi))
        return;
    char a[200], b[200];
    dse_design_label(&r->cand[ilo].design, a, sizeof a);
    dse_design_label(&r->cand[ihi].design, b, sizeof b);
    dse_report_line_add(lines, count,
        "Clocks differ: under Chien's router model a design's clock is its "
        "router's flit time, from %.2f ns (%s) to %.2f ns (%s) here, %.0f%% "
        "apart. Latencies are in cycles and target rates in messages per "
        "node per cycle, each of the design's own clock, and the decision "
        "compares them as if the clocks were equal; the table \"The "
        "recommended shape against its VCs and routing\" gives each "
        "design's clock, zero-load latency and saturation rate in ns.", lo, a, hi, b, 100 * (hi / lo - 1));
    if (r->recommended == SIZE_MAX)
        return;
    const dse_candidate *rec = &r->cand[r->recommended];
    double t = dse_report_clock_ns(r->study, &rec->design);
    if (!isfinite(t))
        return;
    /* the simulated design of lowest exact zero-load latency in ns: the
     * comparison that needs no common rate */
    size_t best = SIZE_MAX;
    double best_ns = INFINITY;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        double ti = dse_report_clock_ns(r->study, &c->design);
        if (!isfinite(c->sim_saturation) || !isfinite(c->exact_zero_load) ||
            !isfinite(ti))
            continue;
        if (c->exact_zero_load * ti < best_ns) {
            best_ns = c->exact_zero_load * ti;
            best = i;
        }
    }
    if (best == SIZE_MAX || !isfinite(rec->exact_zero_load))
        return;
    dse_design_label(&rec->design, a, sizeof a);
    double rec_ns = rec->exact_zero_load * t;
    if (best == r->recommended) {
        dse_report_line_add(lines, count,
            "In ns, the recommendation (%s, clock %.2f ns) also has the "
            "lowest zero-load latency of the simulated designs: %.0f ns.",
            a, t, rec_ns);
        return;
    }
    dse_design_label(&r->cand[best].design, b, sizeof b);
    dse_report_line_add(lines, count,
        "In ns the order can change: the recommendation (%s, clock %.2f ns) "
        "has a zero-load latency of %.0f ns, the simulated design %s (clock "
        "%.2f ns) %.0f ns, %.0f%% less.", a, t, rec_ns, b,
        dse_report_clock_ns(r->study, &r->cand[best].design), best_ns,
        100 * (1 - best_ns / rec_ns));
}
