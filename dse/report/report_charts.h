/*
 * report_charts.h — every chart of a report, built once: index.html
 * inlines them (interactive, with the page script of chart.h), and the
 * report directory keeps each as a standalone SVG file beside index.html,
 * which report.md shows as an image.
 *
 * The charts, each answering one question (said under its heading):
 *   load-latency    latency against offered load, best design of each
 *                   topology: model line and simulated curve from light
 *                   load to past saturation
 *   load-accepted   accepted against offered load, same designs: what the
 *                   simulator measured the network deliver, also past
 *                   saturation
 *   front-simulated the simulated front (simulated saturation rate vs
 *                   simulated latency), screened-only designs faint by
 *                   their model figures, the recommendation marked
 *   front-model     every scored design by its model figures
 *   front-cost      saturation rate vs cost, only when cost is an
 *                   objective of the study
 *   simulated-N     latency curves of the simulated designs, model and
 *                   simulation, a few designs per chart
 *   percentiles     p50, p95 and p99 latency against load, the first
 *                   simulated designs
 *   parity          model against simulated latency at the target rates
 */
#ifndef DSE_REPORT_CHARTS_H
#define DSE_REPORT_CHARTS_H

#include <stddef.h>

#include "dse/report/report.h"

typedef enum {
    REPORT_SEC_LOAD,         /* after the decision */
    REPORT_SEC_FRONT,        /* Pareto fronts */
    REPORT_SEC_CURVES,       /* the simulated designs' curves */
    REPORT_SEC_PARITY,
} report_section;

typedef struct report_chart {
    report_section section;
    char file[48];           /* "load-latency.svg", ... */
    char heading[120];
    char question[700];
    char *svg;               /* NULL: not drawn, `note` says why */
    char note[300];
} report_chart;

typedef struct report_charts {
    report_chart *v;
    size_t n;
} report_charts;

/* Build every chart of r (evaluates the models for the curves). */
void report_charts_build(const dse_run *r, report_charts *out);
void report_charts_fini(report_charts *cs);

/* Write each drawn chart to dir/<file>.  0 or ERR_IO. */
int report_charts_write(const report_charts *cs, const char *dir, err *e);

#endif
