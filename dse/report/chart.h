/*
 * chart.h — SVG charts for the reports, drawn by PLplot (its "svg"
 * device), returned as a string ready to inline in HTML.
 *
 * PLplot keeps per-stream state inside the library, so charts must be made
 * from one thread at a time; reports are written by the main thread only.
 */
#ifndef DSE_CHART_H
#define DSE_CHART_H

#include <stddef.h>

#include "net/err.h"

typedef enum {
    CHART_LINE,          /* a polyline through the points */
    CHART_POINTS,        /* markers only */
    CHART_LINE_POINTS,   /* both */
} chart_style;

typedef struct chart_series {
    const char *label;
    const double *x, *y;
    const double *y_lo, *y_hi;  /* error bars (both or neither), may be NULL */
    size_t n;
    chart_style style;
    int color;                  /* palette index 0..7 */
    int marker;                 /* 0 "o", 1 "x", 2 "+", 3 "*" */
} chart_series;

typedef struct chart {
    const char *title, *xlabel, *ylabel;
    int log_x, log_y;           /* logarithmic axes (values must be > 0) */
    const chart_series *series;
    size_t nseries;
    int width_px, height_px;    /* 0: 720 x 450 */
    const char *id_prefix;      /* prepended to the SVG's element ids so
                                   several charts can share one HTML page;
                                   NULL: "chart" */
} chart;

/* Draw c; returns a malloc'd "<svg ...>...</svg>" string (caller frees) or
 * NULL with ERR_IO / ERR_INVALID in e.  Points with non-finite coordinates
 * (saturated rates) are skipped. */
char *chart_svg(const chart *c, err *e);

#endif
