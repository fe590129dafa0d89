/*
 * chart.h — SVG charts for the reports, written directly as SVG text and
 * returned as a string ready to inline in HTML or save as a file.
 *
 * Interactive when inlined with chart_page_script(): every point is an element
 * carrying its tooltip (data-tip, also a <title> for viewers without the
 * script), every series and its legend entry share a data-group so that a
 * click on the entry hides or shows the series, and a dragged rectangle
 * zooms (double-click resets).  The same SVG saved on its own is a static
 * picture with native tooltips.  Sizes are a viewBox: the chart scales to
 * its container's width, down to 540 px (on a phone the figure then
 * scrolls sideways in its own box, the page does not).
 *
 * Axes: every axis carries several labelled ticks whatever its range.  A
 * logarithmic axis is labelled at 1-2-5 (or denser) values of each decade,
 * so a range such as 40-700 cycles reads 50, 100, 200, 500 instead of one
 * "10^2"; a linear axis is labelled with plain numbers (0.001, 0.002, not
 * "1, 2 (x10^-3)").
 *
 * No global state: charts may be made from any thread.
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
                                        (or hold NULL entries); placed
                                        clear of the other labels and
                                        markers, with a leader line when
                                        moved away from its point */
    const char *const *point_tips;   /* hover text of each point (its design
                                        and figures), may be NULL: then the
                                        series label and the coordinates */
    int group;                  /* series with the same group > 0 share the
                                   first one's legend entry (a design's
                                   model line and simulated points); 0: a
                                   group of its own */
    int faint;                  /* drawn pale (context, e.g. designs the
                                   models screened but nobody simulated) */
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
    int legend_outside;         /* kept for callers: the legend is always
                                   under the plot, never over the data */
    int width_px, height_px;    /* 0: 720 x 450 */
    const char *id_prefix;      /* prepended to the SVG's element ids so
                                   several charts can share one HTML page;
                                   NULL: "chart" */
} chart;

/* Draw c; returns a malloc'd "<svg ...>...</svg>" string (caller frees) or
 * NULL with ERR_IO / ERR_INVALID in e.  Points with non-finite coordinates
 * (saturated rates) are skipped, except y = +INFINITY (see chart_series).
 * Every series drawn has a legend entry: its own label, or its group's. */
char *chart_svg(const chart *c, err *e);

/* The page script and style that make inlined charts interactive (hover
 * tooltips, legend toggles, zoom): static text, include once per page. */
const char *chart_page_script(void);
const char *chart_page_style(void);

/* Tick values for an axis over [lo, hi] (data units; both > 0 when log):
 * 3 to about 10 round values, written to v[0..max) in increasing order.
 * Returns the count.  Exposed for tests. */
size_t chart_ticks(double lo, double hi, int log_scale, double *v, size_t max);

#endif
