/*
 * chart.c — see chart.h.
 *
 * Why SVG written here rather than by a plotting library: the charts must
 * be interactive (a tooltip per point, series toggled from the legend,
 * zoom) and also saved as standalone pictures, and the page must stay
 * small.  PLplot's svg device (used before) writes anonymous paths and
 * text with no per-point or per-series structure to hang a tooltip or a
 * toggle on, and spelled every character of every label as an entity (a
 * 743 KB page); a JavaScript library would draw on a canvas, leaving the
 * standalone pictures to a second renderer.  Written here, one SVG serves
 * the page, the files beside it and report.md, and the page's script is a
 * few dozen lines (chart_page_script()).
 *
 * Geometry: a viewBox of width_px x (height_px + legend rows) user units;
 * the plot frame leaves room for the title above, the tick labels and
 * axis titles left and below; the legend is a grid of entries under the
 * plot (one to three columns, as the longest label allows).
 *
 * Ticks: chart_ticks() chooses round values (1-2-5 per decade on a log
 * axis, so 40-700 reads 50, 100, 200, 500; plain decimals on a linear one).
 *
 * Point labels ("#1"): each is tried at spots around its point, nearest
 * first, and takes the first that overlaps no label or marker already
 * placed and stays inside the frame; one that had to move away gets a thin
 * leader line back to its point.
 */
#include "dse/report/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"

/* Series colours: Okabe-Ito (colour-blind safe), then grey and a dark
 * yellow; 8 is light grey, -1 the text colour. */
static const char *const palette[] = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7",
    "#E69F00", "#56B4E9", "#787878", "#B8A600",
};
#define NSERIES_COLORS 8
#define TEXT_COLOR "#282828"
#define LIGHT_COLOR "#BEBEBE"
#define GRID_COLOR "#E4E4E4"
#define REF_COLOR "#6E6E6E"
#define FONT_PX 12.0
#define CHAR_PX 6.6     /* mean advance of a 12 px sans-serif character */

static const char *color_of(int color)
{
    if (color == 8)
        return LIGHT_COLOR;
    if (color == -1)
        return TEXT_COLOR;
    return palette[((color % NSERIES_COLORS) + NSERIES_COLORS) %
                   NSERIES_COLORS];
}

/* 1: a point drawn at its place; 2: a point drawn at the top edge
 * (y = +INFINITY); 0: skipped. */
static int usable(const chart *c, const chart_series *se, size_t i)
{
    double x = se->x[i], y = se->y[i];
    if (!isfinite(x) || (c->log_x && x <= 0))
        return 0;
    if (isinf(y) && y > 0)
        return 2;
    if (!isfinite(y) || (c->log_y && y <= 0))
        return 0;
    return 1;
}

static int drawn(const chart *c, const chart_series *se)
{
    for (size_t i = 0; i < se->n; i++)
        if (usable(c, se, i))
            return 1;
    return 0;
}

static double axis_value(double v, int log_scale)
{
    return log_scale ? log10(v) : v;
}

/* Text with XML's special characters escaped. */
static void put_text(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

/* Characters (not bytes) of a UTF-8 string: its width on the page. */
static double text_px(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return (double)n * CHAR_PX;
}

/* ---- ticks ---------------------------------------------------------------- */

static size_t linear_ticks(double lo, double hi, double *v, size_t max)
{
    static const double steps[] = {1, 2, 2.5, 5, 10};
    double range = hi - lo;
    if (!(range > 0) || max == 0)
        return 0;
    double mag = pow(10, floor(log10(range / 5))), step = 10 * mag;
    for (size_t q = 0; q < sizeof steps / sizeof steps[0]; q++)
        if (range / (steps[q] * mag) <= 7) {
            step = steps[q] * mag;
            break;
        }
    size_t n = 0;
    for (double k = ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && n < max; k++) {
        double t = k * step;
        v[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    }
    return n;
}

size_t chart_ticks(double lo, double hi, int log_scale, double *v, size_t max)
{
    if (!log_scale || !(lo > 0))
        return linear_ticks(lo, hi, v, max);
    /* Mantissas per decade, sparse to dense: the first set giving at least
     * four labels wins. */
    static const double sets[][12] = {
        {1},
        {1, 2, 5},
        {1, 2, 3, 5},
        {1, 1.5, 2, 3, 4, 5, 6, 8},
        {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9},
    };
    static const size_t sizes[] = {1, 3, 4, 8, 12};
    double buf[256];
    for (size_t q = 0; q < 5; q++) {
        size_t n = 0;
        for (double d = floor(log10(lo)) - 1; d <= ceil(log10(hi)) && n < 256; d++)
            for (size_t j = 0; j < sizes[q] && n < 256; j++) {
                double t = sets[q][j] * pow(10, d);
                if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9))
                    buf[n++] = t;
            }
        if (n >= 4 || q == 4) {
            if (n < 3) /* a narrow range: round values, linearly spaced */
                return linear_ticks(lo, hi, v, max);
            /* many decades: keep every k-th so at most ~10 remain */
            size_t every = (n + 9) / 10, m = 0;
            for (size_t i = 0; i < n && m < max; i += every)
                v[m++] = buf[i];
            return m;
        }
    }
    return 0;
}

static void format_tick(char *buf, size_t size, double v)
{
    snprintf(buf, size, "%.6g", v);
}

static void format_value(char *buf, size_t size, double v)
{
    if (fabs(v) >= 100)
        snprintf(buf, size, "%.1f", v);
    else
        snprintf(buf, size, "%.4g", v);
}

/* One axis tick: its grid line across the frame, its mark and its label. */
static void put_tick(FILE *f, const double grid[4], const double mark[4],
                     double tx, double ty, const char *anchor, const char *t)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"%s\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
               "y2=\"%.1f\" stroke=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" "
               "text-anchor=\"%s\" fill=\"%s\">%s</text>",
            grid[0], grid[1], grid[2], grid[3], GRID_COLOR, mark[0], mark[1],
            mark[2], mark[3], TEXT_COLOR, tx, ty, anchor, TEXT_COLOR, t);
}

/* The frame and the data-to-page mapping. */
typedef struct frame {
    double left, right, top, bottom;   /* page units */
    double x0, x1, y0, y1;             /* axis units (log10 on log axes) */
    int log_x, log_y;
} frame;

static double px_x(const frame *f, double v)
{
    return f->left + (axis_value(v, f->log_x) - f->x0) / (f->x1 - f->x0) *
                         (f->right - f->left);
}

static double px_y(const frame *f, double v)
{
    return f->bottom - (axis_value(v, f->log_y) - f->y0) / (f->y1 - f->y0) *
                           (f->bottom - f->top);
}

/* A marker of glyph m at (x, y): its own element, so that it carries the
 * point's tooltip. */
static void put_marker(FILE *f, int m, double x, double y, const char *col,
                       const char *extra)
{
    const double r = 4;
    switch (m) {
    case CHART_MARK_CIRCLE:
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#fff\" "
                   "stroke=\"%s\" stroke-width=\"1.6\"%s",
                x, y, r, col, extra);
        break;
    case CHART_MARK_CROSS:
        fprintf(f, "<path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"%s\" "
                   "stroke-width=\"2\" fill=\"none\"%s",
                x - r, y - r, col, extra);
        break;
    case CHART_MARK_PLUS:
        fprintf(f, "<path d=\"M%.1f %.1fh10m-5 -5v10\" stroke=\"%s\" "
                   "stroke-width=\"2\" fill=\"none\"%s",
                x - 5, y, col, extra);
        break;
    case CHART_MARK_STAR:
        fprintf(f, "<path d=\"M%.1f %.1fv10m-4.3 -7.5l8.6 5m0 -5l-8.6 5\" "
                   "stroke=\"%s\" stroke-width=\"1.8\" fill=\"none\"%s",
                x, y - 5, col, extra);
        break;
    case CHART_MARK_SQUARE:
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" "
                   "fill=\"%s\"%s",
                x - r, y - r, col, extra);
        break;
    case CHART_MARK_DIAMOND:
        fprintf(f, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"%s\"%s",
                x, y - 5, col, extra);
        break;
    case CHART_MARK_TRIANGLE:
        fprintf(f, "<path d=\"M%.1f %.1fl5 9h-10z\" fill=\"%s\"%s", x,
                y - 5, col, extra);
        break;
    default: /* CHART_MARK_DOT */
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"%s",
                x, y, r, col, extra);
    }
}

/* Rectangles already taken by labels and markers (page units). */
typedef struct boxes {
    double *v;               /* x0, y0, x1, y1 per box */
    size_t n, cap;
} boxes;

static void box_add(boxes *b, double x0, double y0, double x1, double y1)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->v = xrealloc(b->v, b->cap * 4 * sizeof *b->v);
    }
    double *q = &b->v[4 * b->n++];
    q[0] = x0;
    q[1] = y0;
    q[2] = x1;
    q[3] = y1;
}

static int box_clear(const boxes *b, double x0, double y0, double x1,
                     double y1)
{
    for (size_t i = 0; i < b->n; i++) {
        const double *q = &b->v[4 * i];
        if (x0 < q[2] && q[0] < x1 && y0 < q[3] && q[1] < y1)
            return 0;
    }
    return 1;
}

/* Where a point label goes: (lx, ly) the text's left baseline; returns 1
 * when it is away from its point (draw a leader line). */
static int place_label(boxes *taken, const frame *fr, double x, double y,
                       double w, double *lx, double *ly)
{
    const double h = 12;
    for (int ring = 0; ring < 8; ring++) {
        double d = 7 + ring * 11;
        const double dirs[8][2] = {{1, -1}, {1, 1},  {-1, -1}, {-1, 1},
                                   {1, 0},  {-1, 0}, {0, -1},  {0, 1}};
        for (int k = 0; k < 8; k++) {
            double cx = x + dirs[k][0] * d, cy = y + dirs[k][1] * d;
            double x0 = dirs[k][0] < 0 ? cx - w : dirs[k][0] > 0 ? cx
                                                                 : cx - w / 2;
            double y0 = dirs[k][1] < 0 ? cy - h : dirs[k][1] > 0 ? cy
                                                                 : cy - h / 2;
            if (x0 < fr->left || x0 + w > fr->right || y0 < fr->top ||
                y0 + h > fr->bottom)
                continue;
            if (!box_clear(taken, x0 - 1, y0 - 1, x0 + w + 1, y0 + h + 1))
                continue;
            box_add(taken, x0, y0, x0 + w, y0 + h);
            *lx = x0;
            *ly = y0 + h - 2;
            return ring > 0;
        }
    }
    /* nowhere free: beside the point, overlapping */
    *lx = x + 7;
    *ly = y - 4;
    return 0;
}

/* The legend entry sample of a series or key: a short line and/or its
 * marker. */
static void put_sample(FILE *f, double x, double y, int line, int dashed,
                       int marker, const char *col, double width)
{
    if (line)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"%s\" stroke-width=\"%.1f\"%s/>",
                x, y, x + 24, y, col, width,
                dashed ? " stroke-dasharray=\"6 4\"" : "");
    if (marker >= 0)
        put_marker(f, marker, x + 12, y, col, "/>");
}

typedef struct legend_entry {
    const char *label;
    int group;               /* data-group, 0: not a toggle */
    int line, dashed, marker;
    const char *color;
    double width;
    int faint;
} legend_entry;

/* The page's layout: the frame, the ticks of each axis, the canvas
 * (W x H, the plot; total, with the legend rows under it) and the
 * legend's columns. */
typedef struct layout {
    frame fr;
    double xt[64], yt[64];
    size_t nxt, nyt;
    double W, H, total;
    int ncol;
} layout;

/* The data's extent in axis units (log10 on log axes), r = {xmin, xmax,
 * ymin, ymax}: every usable point with its interval, and the reference
 * lines; [0, 1] on an axis with nothing to show. */
static void data_range(const chart *c, double r[4])
{
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        for (size_t i = 0; i < se->n; i++) {
            int u = usable(c, se, i);
            if (!u)
                continue;
            double x = axis_value(se->x[i], c->log_x);
            xmin = fmin(xmin, x);
            xmax = fmax(xmax, x);
            if (u == 2)
                continue;
            double lo = se->y_lo && isfinite(se->y_lo[i]) ? se->y_lo[i] : se->y[i];
            double hi = se->y_hi && isfinite(se->y_hi[i]) ? se->y_hi[i] : se->y[i];
            if (c->log_y && lo <= 0)
                lo = se->y[i];
            ymin = fmin(ymin, axis_value(lo, c->log_y));
            ymax = fmax(ymax, axis_value(hi, c->log_y));
        }
    }
    for (size_t v = 0; v < c->nvlines; v++)
        if (isfinite(c->vlines[v]) && (!c->log_x || c->vlines[v] > 0)) {
            double x = axis_value(c->vlines[v], c->log_x);
            xmin = fmin(xmin, x);
            xmax = fmax(xmax, x);
        }
    if (!(xmin <= xmax)) {
        xmin = 0;
        xmax = 1;
    }
    if (!(ymin <= ymax)) { /* nothing to draw: an empty but valid frame */
        ymin = 0;
        ymax = 1;
    }
    r[0] = xmin;
    r[1] = xmax;
    r[2] = ymin;
    r[3] = ymax;
}

/* The frame's axis ranges (the data with a margin), its ticks, and its
 * place on the page: the y tick labels decide the left margin. */
static void place_frame(const chart *c, layout *L)
{
    double r[4];
    data_range(c, r);
    double xmin = r[0], xmax = r[1], ymin = r[2], ymax = r[3];
    double xpad = (xmax - xmin) * 0.05, ypad = (ymax - ymin) * 0.08;
    if (!(xpad > 0))
        xpad = fabs(xmin) * 0.1 + 0.5;
    if (!(ypad > 0))
        ypad = fabs(ymin) * 0.1 + 0.5;
    /* a linear axis of non-negative data starts at 0 when that costs
     * little room: the eye reads distances from zero */
    frame *fr = &L->fr;
    *fr = (frame){.x0 = xmin - xpad, .x1 = xmax + xpad, .y0 = ymin - ypad,
                  .y1 = ymax + ypad, .log_x = c->log_x, .log_y = c->log_y};
    if (!c->log_x && xmin >= 0 && fr->x0 < 0)
        fr->x0 = 0;
    if (!c->log_y && ymin >= 0 && fr->y0 < 0)
        fr->y0 = 0;

    L->nyt = chart_ticks(c->log_y ? pow(10, fr->y0) : fr->y0,
                         c->log_y ? pow(10, fr->y1) : fr->y1, c->log_y, L->yt,
                         64);
    L->nxt = chart_ticks(c->log_x ? pow(10, fr->x0) : fr->x0,
                         c->log_x ? pow(10, fr->x1) : fr->x1, c->log_x, L->xt,
                         64);
    double ylab = 0;
    for (size_t i = 0; i < L->nyt; i++) {
        char t[32];
        format_tick(t, sizeof t, L->yt[i]);
        ylab = fmax(ylab, text_px(t));
    }
    L->W = c->width_px ? c->width_px : 720;
    L->H = c->height_px ? c->height_px : 450;
    fr->left = 30 + ylab + 8;
    fr->right = L->W - 16;
    fr->top = 34;
    fr->bottom = L->H - 46;
}

/* The legend: every series drawn, by its label or its group's first
 * labelled series (then once), the keys, the reference lines.  gid[s]
 * gets series s's toggle group.  Returns the number of entries. */
static size_t collect_legend(const chart *c, int *gid, legend_entry *le)
{
    size_t nle = 0;
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        gid[s] = se->group > 0 ? se->group : (int)(1000 + s);
        if (!drawn(c, se))
            continue;
        int listed = 0;
        for (size_t q = 0; q < nle; q++)
            listed |= le[q].group == gid[s];
        if (listed)
            continue;
        /* the entry: this series' label, else a later series' of its
         * group, else the series has none to show */
        const chart_series *lab = se;
        for (size_t t = s; t < c->nseries && !(lab->label && *lab->label);
             t++)
            if (c->series[t].group > 0 && c->series[t].group == se->group)
                lab = &c->series[t];
        if (!(lab->label && *lab->label))
            continue;
        legend_entry *x = &le[nle++];
        x->label = lab->label;
        x->group = gid[s];
        x->line = lab->style != CHART_POINTS;
        x->dashed = lab->dashed;
        x->marker = lab->style == CHART_POINTS ||
                            lab->style == CHART_LINE_POINTS ||
                            lab->legend_marker
                        ? lab->marker
                        : -1;
        x->color = color_of(lab->color);
        x->width = 2;
        x->faint = lab->faint;
    }
    for (size_t k = 0; k < c->nkeys; k++) {
        legend_entry *x = &le[nle++];
        x->label = c->keys[k].label;
        x->line = c->keys[k].line != 0;
        x->dashed = c->keys[k].line == 2;
        x->marker = c->keys[k].marker;
        x->color = color_of(c->keys[k].color);
        x->width = 2;
    }
    if (c->nvlines > 0 && c->vline_label && *c->vline_label) {
        legend_entry *x = &le[nle++];
        x->label = c->vline_label;
        x->line = x->dashed = 1;
        x->marker = -1;
        x->color = REF_COLOR;
        x->width = 1;
    }
    return nle;
}

/* The legend's columns (one to three, as the longest label allows) and
 * the canvas's height with its rows. */
static void legend_grid(const legend_entry *le, size_t nle, layout *L)
{
    double longest = 0;
    for (size_t q = 0; q < nle; q++)
        longest = fmax(longest, text_px(le[q].label));
    double colw = longest + 44;
    int ncol = (int)((L->W - 24) / colw);
    ncol = ncol < 1 ? 1 : ncol > 3 ? 3 : ncol;
    if ((size_t)ncol > nle)
        ncol = nle > 0 ? (int)nle : 1;
    size_t nrow = (nle + (size_t)ncol - 1) / (size_t)ncol;
    L->ncol = ncol;
    L->total = L->H + (nrow ? (double)nrow * 20 + 8 : 0);
}

/* Grid, reference lines, frame, ticks and their labels, axis titles and
 * the chart's title. */
static void put_axes(FILE *f, const chart *c, const layout *L)
{
    const frame *fr = &L->fr;
    fputs("<g class=\"dse-axes\">", f);
    for (size_t i = 0; i < L->nxt; i++) {
        double x = px_x(fr, L->xt[i]);
        if (x < fr->left - 0.5 || x > fr->right + 0.5)
            continue;
        char t[32];
        format_tick(t, sizeof t, L->xt[i]);
        const double grid[4] = {x, fr->top, x, fr->bottom};
        const double mark[4] = {x, fr->bottom, x, fr->bottom + 5};
        put_tick(f, grid, mark, x, fr->bottom + 18, "middle", t);
    }
    for (size_t i = 0; i < L->nyt; i++) {
        double y = px_y(fr, L->yt[i]);
        if (y < fr->top - 0.5 || y > fr->bottom + 0.5)
            continue;
        char t[32];
        format_tick(t, sizeof t, L->yt[i]);
        const double grid[4] = {fr->left, y, fr->right, y};
        const double mark[4] = {fr->left - 5, y, fr->left, y};
        put_tick(f, grid, mark, fr->left - 8, y + 4, "end", t);
    }
    for (size_t v = 0; v < c->nvlines; v++)
        if (isfinite(c->vlines[v]) && (!c->log_x || c->vlines[v] > 0)) {
            double x = px_x(fr, c->vlines[v]);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                       "stroke=\"%s\" stroke-dasharray=\"6 4\"/>",
                    x, fr->top, x, fr->bottom, REF_COLOR);
        }
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
               "fill=\"none\" stroke=\"%s\"/>",
            fr->left, fr->top, fr->right - fr->left, fr->bottom - fr->top,
            TEXT_COLOR);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
               "fill=\"%s\">",
            (fr->left + fr->right) / 2, fr->bottom + 36, TEXT_COLOR);
    put_text(f, c->xlabel);
    fprintf(f, "</text><text transform=\"translate(%.1f %.1f) rotate(-90)\" "
               "text-anchor=\"middle\" fill=\"%s\">",
            14.0, (fr->top + fr->bottom) / 2, TEXT_COLOR);
    put_text(f, c->ylabel);
    fprintf(f, "</text><text x=\"%.1f\" y=\"22\" text-anchor=\"middle\" "
               "font-size=\"14\" font-weight=\"bold\" fill=\"%s\">",
            L->W / 2, TEXT_COLOR);
    put_text(f, c->title);
    fputs("</text></g>\n", f);
}

/* A series' points on the page (u[i]: usable(); 0 points get no place).
 * Saturated points (u 2) sit at the top edge, stacked below others at
 * the same x (tops). */
static void series_points(const chart *c, const chart_series *se,
                          const frame *fr, boxes *tops, double *px,
                          double *py, int *u)
{
    for (size_t i = 0; i < se->n; i++) {
        u[i] = usable(c, se, i);
        if (!u[i])
            continue;
        px[i] = px_x(fr, se->x[i]);
        if (u[i] == 2) { /* at the top edge, below others at that x */
            size_t below = 0;
            for (size_t q = 0; q < tops->n; q++)
                below += fabs(tops->v[4 * q] - px[i]) < 5;
            py[i] = fr->top + 7 + 11 * (double)below;
            box_add(tops, px[i], py[i], px[i], py[i]);
        } else {
            py[i] = px_y(fr, se->y[i]);
        }
    }
}

/* The series' line through its plotted (u 1) points; steps for
 * CHART_STEP. */
static void put_line(FILE *f, const chart_series *se, const double *px,
                     const double *py, const int *u, const char *col)
{
    fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
               "stroke-linejoin=\"round\"%s d=\"",
            col, se->dashed ? " stroke-dasharray=\"6 4\"" : "");
    int first = 1;
    double lasty = 0;
    for (size_t i = 0; i < se->n; i++) {
        if (u[i] != 1)
            continue;
        if (!first && se->style == CHART_STEP)
            fprintf(f, "L%.1f %.1f", px[i], lasty);
        fprintf(f, "%s%.1f %.1f", first ? "M" : "L", px[i], py[i]);
        first = 0;
        lasty = py[i];
    }
    fputs("\"/>", f);
}

/* Error bars of the plotted points that have a finite interval. */
static void put_error_bars(FILE *f, const chart *c, const chart_series *se,
                           const frame *fr, const double *px, const int *u,
                           const char *col)
{
    for (size_t i = 0; se->y_lo && se->y_hi && i < se->n; i++) {
        if (u[i] != 1 || !isfinite(se->y_lo[i]) || !isfinite(se->y_hi[i]) ||
            (c->log_y && se->y_lo[i] <= 0))
            continue;
        double a = fmin(px_y(fr, se->y_lo[i]), fr->bottom);
        double b = fmax(px_y(fr, se->y_hi[i]), fr->top);
        fprintf(f, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6\" "
                   "stroke=\"%s\" fill=\"none\"/>",
                px[i], a, b, px[i] - 3, a, px[i] - 3, b, col);
    }
}

/* Each point with its tooltip: markers of point series (and of saturated
 * points), whose boxes go into taken; line series get an invisible hover
 * target on each vertex. */
static void put_points(FILE *f, const chart_series *se, const double *px,
                       const double *py, const int *u, const char *col,
                       boxes *taken)
{
    int marks = se->style == CHART_POINTS || se->style == CHART_LINE_POINTS;
    for (size_t i = 0; i < se->n; i++) {
        if (!u[i])
            continue;
        char tip[600];
        if (se->point_tips && se->point_tips[i]) {
            snprintf(tip, sizeof tip, "%s", se->point_tips[i]);
        } else {
            char a[32], b[32];
            format_value(a, sizeof a, se->x[i]);
            format_value(b, sizeof b, se->y[i]);
            snprintf(tip, sizeof tip, "%s: %s, %s",
                     se->label ? se->label : "", a,
                     u[i] == 2 ? "saturated" : b);
        }
        int m = u[i] == 2 ? CHART_MARK_TRIANGLE : se->marker;
        fputs("<g class=\"dse-pt\" data-tip=\"", f);
        put_text(f, tip);
        fputs("\">", f);
        if (marks || u[i] == 2) {
            put_marker(f, m, px[i], py[i], col, ">");
            fputs("<title>", f);
            put_text(f, tip);
            fputs("</title></", f);
            fputs(m == CHART_MARK_SQUARE   ? "rect"
                  : m == CHART_MARK_CIRCLE || m == CHART_MARK_DOT
                      ? "circle"
                      : "path",
                  f);
            fputs(">", f);
            box_add(taken, px[i] - 5, py[i] - 5, px[i] + 5, py[i] + 5);
        } else {
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
                       "fill=\"%s\" fill-opacity=\"0\"><title>",
                    px[i], py[i], col);
            put_text(f, tip);
            fputs("</title></circle>", f);
        }
        fputs("</g>", f);
    }
}

/* Every drawn series, one group each (the legend toggles it): its line,
 * error bars and points. */
static void put_series(FILE *f, const chart *c, const frame *fr,
                       const int *gid, boxes *taken, boxes *tops)
{
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        const char *col = color_of(se->color);
        if (!drawn(c, se))
            continue;
        double *px = xmalloc((se->n + 1) * sizeof *px);
        double *py = xmalloc((se->n + 1) * sizeof *py);
        int *u = xmalloc((se->n + 1) * sizeof *u);
        series_points(c, se, fr, tops, px, py, u);
        fprintf(f, "<g class=\"dse-series\" data-group=\"%d\"%s>", gid[s],
                se->faint ? " opacity=\"0.3\"" : "");
        if (se->style != CHART_POINTS)
            put_line(f, se, px, py, u, col);
        put_error_bars(f, c, se, fr, px, u, col);
        put_points(f, se, px, py, u, col, taken);
        fputs("</g>\n", f);
        free(px);
        free(py);
        free(u);
    }
}

/* Point labels, placed last so that they stay clear of every marker. */
static void put_point_labels(FILE *f, const chart *c, const frame *fr,
                             const int *gid, boxes *taken)
{
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        if (!se->point_labels)
            continue;
        fprintf(f, "<g class=\"dse-series\" data-group=\"%d\">", gid[s]);
        for (size_t i = 0; i < se->n; i++) {
            const char *pl = se->point_labels[i];
            int ui = usable(c, se, i);
            if (!pl || !*pl || !ui)
                continue;
            double x = px_x(fr, se->x[i]);
            double y = ui == 2 ? fr->top + 7 : px_y(fr, se->y[i]);
            double lx, ly, w = text_px(pl) * 0.92;
            int away = place_label(taken, fr, x, y, w, &lx, &ly);
            if (away)
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                           "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"0.7\"/>",
                        x, y, lx < x ? lx + w : lx, ly - 4, REF_COLOR);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                       "fill=\"%s\">",
                    lx, ly, TEXT_COLOR);
            put_text(f, pl);
            fputs("</text>", f);
        }
        fputs("</g>\n", f);
    }
}

/* The legend, a grid under the plot: toggles for series groups, plain
 * keys for the rest. */
static void put_legend(FILE *f, const legend_entry *le, size_t nle,
                       const layout *L)
{
    double W = L->W;
    int ncol = L->ncol;
    fputs("<g class=\"dse-legend-box\">", f);
    for (size_t q = 0; q < nle; q++) {
        double x = 12 + (double)(q % (size_t)ncol) * ((W - 24) / ncol);
        double y = L->H + 4 + (double)(q / (size_t)ncol) * 20 + 10;
        if (le[q].group)
            fprintf(f, "<g class=\"dse-legend\" data-group=\"%d\"%s>",
                    le[q].group, le[q].faint ? " opacity=\"0.45\"" : "");
        else
            fputs("<g class=\"dse-key\">", f);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"18\" "
                   "fill=\"#fff\" fill-opacity=\"0\"/>",
                x - 2, y - 10, (W - 24) / ncol - 4);
        put_sample(f, x, y, le[q].line, le[q].dashed, le[q].marker,
                   le[q].color, le[q].width);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">", x + 32, y + 4,
                TEXT_COLOR);
        put_text(f, le[q].label);
        fputs("</text></g>", f);
    }
    fputs("</g>\n</svg>\n", f);
}

char *chart_svg(const chart *c, err *e)
{
    layout L;
    place_frame(c, &L);
    const frame *fr = &L.fr;
    legend_entry *le = xcalloc(c->nseries + c->nkeys + 2, sizeof *le);
    int *gid = xcalloc(c->nseries + 1, sizeof *gid);
    size_t nle = collect_legend(c, gid, le);
    legend_grid(le, nle, &L);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        free(le);
        free(gid);
        err_set(e, ERR_IO, "cannot open a memory stream for a chart");
        return NULL;
    }
    const char *pre = c->id_prefix ? c->id_prefix : "chart";
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dse-chart\" "
               "id=\"%s\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
               "height=\"%.0f\" font-family=\"DejaVu Sans, Arial, "
               "sans-serif\" font-size=\"%.0f\" data-frame=\"%.1f %.1f %.1f "
               "%.1f\">\n",
            pre, L.W, L.total, L.W, L.total, FONT_PX, fr->left, fr->top,
            fr->right, fr->bottom);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
    fputs("<title>", f);
    put_text(f, c->title);
    fputs("</title>\n", f);
    put_axes(f, c, &L);

    /* the data, clipped to the frame (zoom keeps it inside) */
    fprintf(f, "<clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" "
               "width=\"%.1f\" height=\"%.1f\"/></clipPath>\n",
            pre, fr->left - 6, fr->top - 6, fr->right - fr->left + 12,
            fr->bottom - fr->top + 12);
    fprintf(f, "<g class=\"dse-data\" clip-path=\"url(#%s-clip)\">\n", pre);
    boxes taken = {0}, tops = {0};
    put_series(f, c, fr, gid, &taken, &tops);
    put_point_labels(f, c, fr, gid, &taken);
    fputs("</g>\n", f);
    put_legend(f, le, nle, &L);
    fclose(f);
    free(taken.v);
    free(tops.v);
    free(le);
    free(gid);
    return buf;
}

const char *chart_page_style(void)
{
    return ".dse-chart{max-width:100%;min-width:540px;height:auto;"
           "display:block}\n"
           "figure{overflow-x:auto}\n"
           ".dse-chart .dse-legend{cursor:pointer}\n"
           ".dse-chart .dse-off{opacity:0.12}\n"
           ".dse-chart .dse-series.dse-off{display:none}\n"
           ".dse-chart .dse-pt{cursor:crosshair}\n"
           "#dse-tip{position:fixed;pointer-events:none;background:#fffff4;"
           "border:1px solid #888;padding:4px 6px;font:12px sans-serif;"
           "max-width:min(420px,90vw);white-space:pre-line;display:none;"
           "z-index:10;box-shadow:1px 1px 3px #aaa}\n";
}

/* Hover: the tooltip of the point under the pointer (mouseover of its
 * element, so a real pointer event path drives it).  Legend: a click on an
 * entry hides or shows its series.  Zoom: drag a rectangle over the plot
 * (the SVG's viewBox narrows to it); double-click restores the view. */
const char *chart_page_script(void)
{
    return "(function(){\n"
           "var tip=document.createElement('div');tip.id='dse-tip';"
           "document.body.appendChild(tip);\n"
           "document.addEventListener('mouseover',function(e){"
           "var p=e.target.closest&&e.target.closest('.dse-pt');"
           "if(!p){tip.style.display='none';return;}"
           "tip.textContent=p.getAttribute('data-tip');"
           "tip.style.display='block';"
           "var x=Math.min(e.clientX+12,innerWidth-tip.offsetWidth-4);"
           "tip.style.left=Math.max(0,x)+'px';"
           "tip.style.top=(e.clientY+14)+'px';});\n"
           "document.addEventListener('click',function(e){"
           "var l=e.target.closest&&e.target.closest('.dse-legend');"
           "if(!l)return;var s=l.closest('svg'),g=l.getAttribute('data-group');"
           "var off=!l.classList.contains('dse-off');"
           "s.querySelectorAll('[data-group=\"'+g+'\"]').forEach(function(n){"
           "n.classList.toggle('dse-off',off);});});\n"
           "function pt(s,e){var r=s.getBoundingClientRect(),"
           "v=s.viewBox.baseVal;return{x:v.x+(e.clientX-r.left)*v.width/"
           "r.width,y:v.y+(e.clientY-r.top)*v.height/r.height};}\n"
           "document.querySelectorAll('svg.dse-chart').forEach(function(s){"
           "var v0=s.getAttribute('viewBox'),a=null,box=null;"
           "s.addEventListener('mousedown',function(e){"
           "if(e.target.closest('.dse-legend'))return;a=pt(s,e);"
           "box=document.createElementNS('http://www.w3.org/2000/svg','rect');"
           "box.setAttribute('fill','rgba(0,114,178,0.12)');"
           "box.setAttribute('stroke','#0072B2');s.appendChild(box);"
           "e.preventDefault();});\n"
           "s.addEventListener('mousemove',function(e){if(!a)return;"
           "var b=pt(s,e);box.setAttribute('x',Math.min(a.x,b.x));"
           "box.setAttribute('y',Math.min(a.y,b.y));"
           "box.setAttribute('width',Math.abs(b.x-a.x));"
           "box.setAttribute('height',Math.abs(b.y-a.y));});\n"
           "s.addEventListener('mouseup',function(e){if(!a)return;"
           "var b=pt(s,e);box.remove();"
           "if(Math.abs(b.x-a.x)>8&&Math.abs(b.y-a.y)>8)"
           "s.setAttribute('viewBox',[Math.min(a.x,b.x),Math.min(a.y,b.y),"
           "Math.abs(b.x-a.x),Math.abs(b.y-a.y)].join(' '));a=null;});\n"
           "s.addEventListener('mouseleave',function(){if(a){box.remove();"
           "a=null;}});\n"
           "s.addEventListener('dblclick',function(){"
           "s.setAttribute('viewBox',v0);});});\n"
           "})();\n";
}
