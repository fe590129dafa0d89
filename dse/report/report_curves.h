/*
 * report_curves.h — the latency-vs-load curves of a run, computed once and
 * shared by the charts of index.html and the exports curves.csv and
 * curves.json, so a chart and its data can never disagree.
 *
 * Which designs get a curve: the best design of each topology (the
 * architect's comparison) and every finalist (the simulated ones).  Each
 * curve has the model's points (a rate grid from 0 up to just below the
 * design's model saturation rate; accepted = offered, the model having a
 * steady state there) and, for simulated designs, the simulated points:
 * each target rate simulated (latency with its 95% CI half-width,
 * percentiles, accepted rate, saturated flag) and the load curve's extra
 * rates from light load to past saturation.
 */
#ifndef DSE_REPORT_CURVES_H
#define DSE_REPORT_CURVES_H

#include <stdint.h>
#include <stdio.h>

#include "dse/report/report.h"

typedef struct report_curve {
    size_t cand;             /* index into r->cand */
    char label[200];         /* dse_design_label */
    size_t nmodel;
    double *model_rate;      /* [nmodel], the first is 0 (zero-load) */
    double *model_latency;   /* [nmodel] */
    int best_of_topology;    /* the best design of its topology */
    /* Simulated points in rising rate order: the target rates simulated
     * (sim_target 1, replications merged) and the load curve's other
     * points (sim_target 0, one replication; dse_candidate.curve). */
    size_t nsim;
    dse_sim_point *sim;      /* copies */
    unsigned char *sim_target;
} report_curve;

typedef struct report_curves {
    report_curve *v;         /* best of each topology first (in topology
                                order), then the other finalists in
                                finalist order */
    size_t n;
    size_t best[NET_TOPOLOGY_COUNT]; /* index into v, SIZE_MAX: none */
} report_curves;

/* Build the curves of r (evaluates the models; main thread). */
void report_curves_build(const dse_run *r, report_curves *cs);
void report_curves_fini(report_curves *cs);

/* The best design of topology t, as the report shows it: its best finalist
 * (lowest simulated rank, then finalist order) when it has one, else its
 * ranked design with the lowest mean model latency over the target rates,
 * else its design with the lowest model latency at the lowest target rate.
 * SIZE_MAX when the study has no scored design of t. */
size_t report_best_of_topology(const dse_run *r, net_topology t);

/* A simulated point's 95% CI half-width is wider than the study's target
 * (simulation.ci_half_width, relative to the mean); 0 when the study sets
 * no target or the point has no latency. */
int report_ci_too_wide(const dse_run *r, const dse_sim_point *p);

/* curves.csv and curves.json (docs/results-schema.md, "curves"). */
int dse_report_curves_csv(const dse_run *r, FILE *out, err *e);
int dse_report_curves_json(const dse_run *r, FILE *out, err *e);

#endif
