/*
 * chart.h — SVG charts for the reports, drawn by PLplot (its "svg"
 * device), returned as a string ready to inline in HTML.
 *
 * Axes: every axis carries several labelled ticks whatever its range.  A
 * logarithmic axis is labelled at 1-2-5 (or denser) values of each decade,
 * so a range such as 40-700 cycles reads 50, 100, 200, 500 instead of one
 * "10^2"; a linear axis is labelled with plain numbers (0.001, 0.002, not
 * "1, 2 (x10^-3)").
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
    CHART_STEP,          /* a staircase through the points in the given
                            order: horizontal, then vertical (a Pareto
                            front) */
} chart_style;

/* Marker glyphs, drawn as text so the legend shows exactly what the plot
 * shows. */
typedef enum {
    CHART_MARK_CIRCLE,   /* "o" */
    CHART_MARK_CROSS,    /* "x" */
    CHART_MARK_PLUS,     /* "+" */
    CHART_MARK_STAR,     /* "*" */
    CHART_MARK_DOT,      /* filled circle */
    CHART_MARK_SQUARE,   /* filled square */
    CHART_MARK_DIAMOND,  /* filled diamond */
    CHART_MARK_TRIANGLE, /* filled triangle pointing up: "off the top" */
    CHART_MARK_COUNT
} chart_mark;

typedef struct chart_series {
    const char *label;          /* legend text; NULL or "": not in the legend */
    const double *x, *y;        /* y = +INFINITY: drawn at the top edge of the
                                   plot (a run that saturated; several at
                                   one x stack downwards); other
                                   non-finite coordinates are skipped */
    const double *y_lo, *y_hi;  /* error bars (both or neither), may be NULL */
    const char *const *point_labels; /* text beside each point, may be NULL
                                        (or hold NULL entries) */
    size_t n;
    chart_style style;
    int color;                  /* palette index 0..7; 8: light grey;
                                   -1: the text colour */
    int marker;                 /* chart_mark */
    int dashed;                 /* dashed line */
    int legend_marker;          /* a line series whose legend entry also
                                   shows its marker (the marker of the
                                   design's simulated points) */
} chart_series;

/* A legend entry of its own (what a glyph or a line style means across
 * series): drawn after the series' entries. */
typedef struct chart_key {
    const char *label;
    int marker;                 /* chart_mark, or -1: no marker */
    int line;                   /* 0 none, 1 solid, 2 dashed */
    int color;                  /* as chart_series.color; -1: the text colour */
} chart_key;

typedef struct chart {
    const char *title, *xlabel, *ylabel;
    int log_x, log_y;           /* logarithmic axes (values must be > 0) */
    const chart_series *series;
    size_t nseries;
    const double *vlines;       /* vertical reference lines (dashed grey),
                                   e.g. the target rates; may be NULL */
    size_t nvlines;
    const char *vline_label;    /* legend text for them ("target rates") */
    const chart_key *keys;      /* extra legend entries, may be NULL */
    size_t nkeys;
    int legend_outside;         /* legend under the plot, in two columns,
                                   not over the data */
    int width_px, height_px;    /* 0: 720 x 450 */
    const char *id_prefix;      /* prepended to the SVG's element ids so
                                   several charts can share one HTML page;
                                   NULL: "chart" */
} chart;

/* Draw c; returns a malloc'd "<svg ...>...</svg>" string (caller frees) or
 * NULL with ERR_IO / ERR_INVALID in e.  Points with non-finite coordinates
 * (saturated rates) are skipped, except y = +INFINITY (see chart_series). */
char *chart_svg(const chart *c, err *e);

/* Tick values for an axis over [lo, hi] (data units; both > 0 when log):
 * 3 to about 10 round values, written to v[0..max) in increasing order.
 * Returns the count.  Exposed for tests. */
size_t chart_ticks(double lo, double hi, int log_scale, double *v, size_t max);

#endif
