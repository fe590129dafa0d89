/*
 * chart.c — see chart.h.
 *
 * PLplot's svg device writes a file, so each chart goes to a private
 * temporary file (mkstemp) that is read back and removed.  Each chart uses a
 * fresh PLplot stream (plmkstrm ... plend1) so no settings leak from one
 * chart to the next.  Rejected alternative: writing SVG by hand — the
 * project uses a plotting library for axes, ticks, labels and legends.
 *
 * Ticks: PLplot labels a logarithmic axis at the decades only (a 40-700
 * range gets one label, "10^2") and scales a linear axis of small numbers
 * ("1 2 3 (x10^-3)").  So PLplot draws the frame and the tick marks, and
 * the labels and grid lines are placed here, at values chart_ticks()
 * chooses (1-2-5 per decade, denser when the range is narrow).
 *
 * Invariant: every coordinate handed to PLplot is finite (log axes are
 * plotted as log10 of the value, so values <= 0 are dropped there).
 */
#include "dse/report/chart.h"

#include <math.h>
#include <plplot/plplot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/xalloc.h"

/* Palette: 0 background, 1 axes/text, 2..9 series (colour-blind safe,
 * Okabe-Ito, then grey and yellow), 10 light grey (series colour 8),
 * 11 grid, 12 reference lines. */
static const int palette[][3] = {
    {255, 255, 255}, {40, 40, 40},   {0, 114, 178},  {213, 94, 0},
    {0, 158, 115},   {204, 121, 167}, {230, 159, 0}, {86, 180, 233},
    {120, 120, 120}, {240, 228, 66}, {190, 190, 190}, {225, 225, 225},
    {110, 110, 110},
};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))
#define NSERIES_COLORS 8
#define COLOR_LIGHT 10
#define COLOR_GRID 11
#define COLOR_REF 12
/* Markers are drawn as text glyphs with plstring(), so the legend (which
 * takes glyph strings) shows exactly what the plot shows.  The filled
 * shapes are Unicode (UTF-8); the svg device writes them as characters. */
static const char *const glyphs[CHART_MARK_COUNT] = {
    "o", "x", "+", "*", "\xe2\x97\x8f", "\xe2\x96\xa0", "\xe2\x97\x86",
    "\xe2\x96\xb2",
};

static int palette_index(int color)
{
    if (color == 8)
        return COLOR_LIGHT;
    if (color == -1)
        return 1;
    return 2 + ((color % NSERIES_COLORS) + NSERIES_COLORS) % NSERIES_COLORS;
}

static int series_color(const chart_series *se)
{
    return palette_index(se->color);
}

static const char *series_glyph(const chart_series *se)
{
    int m = se->marker;
    return glyphs[m >= 0 && m < CHART_MARK_COUNT ? m : 0];
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

static double axis_value(double v, int log_scale)
{
    return log_scale ? log10(v) : v;
}

/* PLplot reads '#' as the start of an escape sequence; "##" is a literal
 * '#'.  Returns a malloc'd copy with every '#' doubled. */
static char *plplot_text(const char *s)
{
    size_t n = 0;
    for (const char *p = s ? s : ""; *p; p++)
        n += *p == '#' ? 2 : 1;
    char *out = xmalloc(n + 1), *q = out;
    for (const char *p = s ? s : ""; *p; p++) {
        *q++ = *p;
        if (*p == '#')
            *q++ = '#';
    }
    *q = '\0';
    return out;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Copy svg with every id="X" and url(#X) renamed to PREFIX-X (caller
 * frees; svg is freed). */
static char *prefix_ids(char *svg, const char *prefix)
{
    static const char *const marks[] = {"id=\"", "url(#"};
    size_t extra = 0, plen = strlen(prefix) + 1;
    for (int m = 0; m < 2; m++)
        for (const char *p = strstr(svg, marks[m]); p; p = strstr(p + 1, marks[m]))
            extra += plen;
    char *out = xmalloc(strlen(svg) + extra + 1), *q = out;
    for (const char *p = svg; *p;) {
        int hit = -1;
        for (int m = 0; m < 2 && hit < 0; m++)
            if (strncmp(p, marks[m], strlen(marks[m])) == 0)
                hit = m;
        if (hit < 0) {
            *q++ = *p++;
            continue;
        }
        size_t ml = strlen(marks[hit]);
        memcpy(q, p, ml);
        q += ml;
        p += ml;
        q += sprintf(q, "%s-", prefix);
    }
    *q = '\0';
    free(svg);
    return out;
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

/* Grid lines and labels at the tick values of one axis; the frame and the
 * tick marks are PLplot's (plbox). */
static void axis_labels(int x_axis, int log_scale, double lo, double hi,
                        double *max_chars)
{
    double t[64];
    double a_lo = log_scale ? pow(10, lo) : lo, a_hi = log_scale ? pow(10, hi) : hi;
    size_t n = chart_ticks(a_lo, a_hi, log_scale, t, 64);
    for (size_t i = 0; i < n; i++) {
        double pos = axis_value(t[i], log_scale);
        double frac = (pos - lo) / (hi - lo);
        if (frac < -1e-6 || frac > 1 + 1e-6)
            continue;
        char text[32];
        format_tick(text, sizeof text, t[i]);
        plcol0(1);
        if (x_axis) {
            plmtex("b", 1.4, frac, 0.5, text);
        } else {
            plmtex("lv", 0.7, frac, 1.0, text);
            if ((double)strlen(text) > *max_chars)
                *max_chars = (double)strlen(text);
        }
    }
}

static void axis_grid(int x_axis, int log_scale, double lo, double hi,
                      double olo, double ohi)
{
    double t[64];
    double a_lo = log_scale ? pow(10, lo) : lo, a_hi = log_scale ? pow(10, hi) : hi;
    size_t n = chart_ticks(a_lo, a_hi, log_scale, t, 64);
    plcol0(COLOR_GRID);
    plwidth(1.0);
    for (size_t i = 0; i < n; i++) {
        double pos = axis_value(t[i], log_scale);
        if (x_axis)
            pljoin(pos, olo, pos, ohi);
        else
            pljoin(olo, pos, ohi, pos);
    }
}

/* Labels beside points, kept from overprinting each other: a label that
 * would overlap one already placed moves down a line until it does not
 * (clustered finalists get a readable column of labels). */
typedef struct label_spots {
    double *x, *y, *w;       /* left edge, baseline centre, width: plot units */
    size_t n;
} label_spots;

static void place_label(label_spots *ls, double x, double *y, double chars,
                        double xspan, double yspan, int height_px)
{
    /* a label line is ~11 px high and ~6.5 px per character on a 0.7
     * scale; the plot area is ~78% of the page in each direction */
    double line = yspan * 12.0 / (0.78 * height_px);
    double width = xspan * chars * 6.5 / (0.6 * 1000);
    for (int tries = 0; tries < 50; tries++) {
        int clash = 0;
        for (size_t i = 0; i < ls->n && !clash; i++)
            clash = fabs(ls->y[i] - *y) < line * 0.95 && x < ls->x[i] + ls->w[i] &&
                    ls->x[i] < x + width;
        if (!clash)
            break;
        *y -= line;
    }
    ls->x = xrealloc(ls->x, (ls->n + 1) * sizeof *ls->x);
    ls->y = xrealloc(ls->y, (ls->n + 1) * sizeof *ls->y);
    ls->w = xrealloc(ls->w, (ls->n + 1) * sizeof *ls->w);
    ls->x[ls->n] = x;
    ls->y[ls->n] = *y;
    ls->w[ls->n] = width;
    ls->n++;
}

/* Where a point drawn at the top edge goes: below the ones already there
 * at (about) the same x, so several designs saturating at one rate show as
 * a column of markers instead of one. */
static double stack_top(label_spots *tops, double x, double top, double xspan,
                        double yspan)
{
    size_t below = 0;
    for (size_t i = 0; i < tops->n; i++)
        below += fabs(tops->x[i] - x) < xspan * 0.008;
    tops->x = xrealloc(tops->x, (tops->n + 1) * sizeof *tops->x);
    tops->y = xrealloc(tops->y, (tops->n + 1) * sizeof *tops->y);
    tops->w = xrealloc(tops->w, (tops->n + 1) * sizeof *tops->w);
    tops->x[tops->n] = x;
    tops->y[tops->n] = tops->w[tops->n] = 0;
    tops->n++;
    return top - (double)below * yspan * 0.045;
}

/* Linear axes: PLplot's tick marks at the step of our labels. */
static double tick_step(double lo, double hi)
{
    double t[64];
    size_t n = linear_ticks(lo, hi, t, 64);
    return n >= 2 ? t[1] - t[0] : 0;
}

char *chart_svg(const chart *c, err *e)
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
    double xpad = (xmax - xmin) * 0.05, ypad = (ymax - ymin) * 0.08;
    if (!(xpad > 0))
        xpad = fabs(xmin) * 0.1 + 0.5;
    if (!(ypad > 0))
        ypad = fabs(ymin) * 0.1 + 0.5;
    /* a linear axis of non-negative data starts at 0 when that costs
     * little room: the eye reads distances from zero */
    double x0 = xmin - xpad, x1 = xmax + xpad, y0 = ymin - ypad, y1 = ymax + ypad;
    if (!c->log_x && xmin >= 0 && x0 < 0)
        x0 = 0;
    if (!c->log_y && ymin >= 0 && y0 < 0)
        y0 = 0;

    /* legend_outside: the legend goes under the plot, in two columns when
     * its labels fit side by side, else in one */
    int height = c->height_px ? c->height_px : 450;
    size_t nentries = c->nkeys + (c->nvlines > 0 && c->vline_label && *c->vline_label);
    double longest = 0;
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        int any = 0;
        for (size_t i = 0; i < se->n && !any; i++)
            any = usable(c, se, i) != 0;
        nentries += se->label && *se->label && any;
        if (se->label && any)
            longest = fmax(longest, (double)strlen(se->label));
    }
    for (size_t k = 0; k < c->nkeys; k++)
        longest = fmax(longest, (double)strlen(c->keys[k].label));
    /* two columns when the labels fit side by side (about 52 characters
     * each at the legend's text size on the default 1000 px width) */
    int two_columns = c->legend_outside && nentries > 1 &&
                      longest <= 52.0 * (c->width_px ? c->width_px : 720) / 1000;
    /* the page grows by the legend's rows (~20 px each) so the plot keeps
     * its size */
    double legend_px =
        c->legend_outside
            ? (double)(two_columns ? (nentries + 1) / 2 : nentries) * 20 + 16
            : 0;
    double total = height + legend_px;
    char path[] = "/tmp/dse-chart-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        err_set(e, ERR_IO, "cannot create a temporary file for a chart");
        return NULL;
    }
    close(fd);

    PLINT old_stream, stream;
    plgstrm(&old_stream);
    plmkstrm(&stream);
    plsdev("svg");
    plsfnam(path);
    plspage(0, 0, c->width_px ? c->width_px : 720, (PLINT)total, 0, 0);
    plscmap0n(NPALETTE);
    for (int i = 0; i < NPALETTE; i++)
        plscol0(i, palette[i][0], palette[i][1], palette[i][2]);
    plinit();
    pladv(0);
    /* PLplot sizes text by the page's height: keep the text of a page
     * grown for its legend as on one without */
    PLFLT def_mm, cur_mm;
    plgchr(&def_mm, &cur_mm);
    plschr(def_mm * height / total, 0.9);
    plvpor(0.11, 0.97, (0.13 * height + legend_px) / total, 1 - 0.09 * height / total);
    plwind(x0, x1, y0, y1);

    /* grid and reference lines first, under the data */
    axis_grid(1, c->log_x, x0, x1, y0, y1);
    axis_grid(0, c->log_y, y0, y1, x0, x1);
    plcol0(COLOR_REF);
    pllsty(2);
    for (size_t v = 0; v < c->nvlines; v++)
        if (isfinite(c->vlines[v]) && (!c->log_x || c->vlines[v] > 0)) {
            double x = axis_value(c->vlines[v], c->log_x);
            pljoin(x, y0, x, y1);
        }
    pllsty(1);
    plcol0(1);
    plwidth(1.0);
    plbox(c->log_x ? "bcstl" : "bcst", c->log_x ? 0 : tick_step(x0, x1), 0,
          c->log_y ? "bcstl" : "bcst", c->log_y ? 0 : tick_step(y0, y1), 0);
    double ychars = 1;
    axis_labels(1, c->log_x, x0, x1, &ychars);
    axis_labels(0, c->log_y, y0, y1, &ychars);
    char *xl = plplot_text(c->xlabel), *yl = plplot_text(c->ylabel);
    char *tl = plplot_text(c->title);
    plcol0(1);
    plmtex("b", 3.0, 0.5, 0.5, xl);
    plmtex("l", 2.4 + 0.7 * ychars, 0.5, 0.5, yl);
    plschr(0, 1.05);
    plmtex("t", 1.2, 0.5, 0.5, tl);
    plschr(0, 0.9);
    free(xl);
    free(yl);
    free(tl);

    double top = y1 - (y1 - y0) * 0.02; /* where off-the-top points go */
    size_t nleg = c->nseries + c->nkeys + 1;
    PLINT *opts = xcalloc(nleg, sizeof *opts);
    PLINT *colors = xcalloc(nleg, sizeof *colors);
    PLINT *styles = xcalloc(nleg, sizeof *styles);
    PLFLT *widths = xcalloc(nleg, sizeof *widths);
    PLFLT *scales = xcalloc(nleg, sizeof *scales);
    PLINT *numbers = xcalloc(nleg, sizeof *numbers);
    const char **texts = xcalloc(nleg, sizeof *texts);
    const char **symbols = xcalloc(nleg, sizeof *symbols);
    PLINT nl = 0;
    label_spots placed = {0}, tops = {0};
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        PLFLT *x = xmalloc((se->n + 1) * sizeof *x);
        PLFLT *y = xmalloc((se->n + 1) * sizeof *y);
        PLFLT *lo = xmalloc((se->n + 1) * sizeof *lo);
        PLFLT *hi = xmalloc((se->n + 1) * sizeof *hi);
        PLFLT *bx = xmalloc((se->n + 1) * sizeof *bx);
        size_t *src = xmalloc((se->n + 1) * sizeof *src);
        PLINT m = 0, mb = 0;
        for (size_t i = 0; i < se->n; i++) {
            int u = usable(c, se, i);
            if (!u)
                continue;
            x[m] = axis_value(se->x[i], c->log_x);
            y[m] = u == 2 ? stack_top(&tops, x[m], top, x1 - x0, y1 - y0)
                          : axis_value(se->y[i], c->log_y);
            src[m] = i;
            if (u == 1 && se->y_lo && se->y_hi && isfinite(se->y_lo[i]) &&
                isfinite(se->y_hi[i]) && (!c->log_y || se->y_lo[i] > 0)) {
                bx[mb] = x[m];
                lo[mb] = fmax(axis_value(se->y_lo[i], c->log_y), y0);
                hi[mb] = fmin(axis_value(se->y_hi[i], c->log_y), y1);
                mb++;
            }
            m++;
        }
        int color = series_color(se);
        plcol0(color);
        pllsty(se->dashed ? 2 : 1);
        plwidth(se->style == CHART_POINTS ? 1.0 : 2.0);
        if (m > 1 && se->style == CHART_STEP) {
            PLFLT *sx = xmalloc((size_t)(2 * m) * sizeof *sx);
            PLFLT *sy = xmalloc((size_t)(2 * m) * sizeof *sy);
            PLINT k = 0;
            for (PLINT i = 0; i < m; i++) {
                if (i > 0) { /* horizontal to the next x, then vertical */
                    sx[k] = x[i];
                    sy[k++] = y[i - 1];
                }
                sx[k] = x[i];
                sy[k++] = y[i];
            }
            plline(k, sx, sy);
            free(sx);
            free(sy);
        } else if (m > 1 && se->style != CHART_POINTS) {
            plline(m, x, y);
        }
        pllsty(1);
        if (m > 0 && (se->style == CHART_POINTS || se->style == CHART_LINE_POINTS))
            plstring(m, x, y, series_glyph(se));
        if (mb > 0) {
            plwidth(1.0);
            plerry(mb, bx, lo, hi);
        }
        if (se->point_labels) {
            plschr(0, 0.8);
            double dx = (x1 - x0) * 0.012;
            for (PLINT i = 0; i < m; i++) {
                const char *pl = se->point_labels[src[i]];
                if (!pl || !*pl)
                    continue;
                char *t = plplot_text(pl);
                double ly = y[i];
                place_label(&placed, x[i] + dx, &ly, (double)strlen(pl),
                            x1 - x0, y1 - y0, c->height_px ? c->height_px : 450);
                plptex(x[i] + dx, ly, 1, 0, 0, t);
                free(t);
            }
            plschr(0, 0.9);
        }
        if (se->label && *se->label && m > 0) {
            opts[nl] = (se->style != CHART_POINTS ? PL_LEGEND_LINE : 0) |
                       (se->style == CHART_POINTS ||
                                se->style == CHART_LINE_POINTS || se->legend_marker
                            ? PL_LEGEND_SYMBOL
                            : 0);
            colors[nl] = color;
            styles[nl] = se->dashed ? 2 : 1;
            widths[nl] = 2.0;
            scales[nl] = 0.8;
            numbers[nl] = 1;
            texts[nl] = plplot_text(se->label);
            symbols[nl] = series_glyph(se);
            nl++;
        }
        free(x);
        free(y);
        free(lo);
        free(hi);
        free(bx);
        free(src);
    }
    for (size_t k = 0; k < c->nkeys; k++) {
        const chart_key *key = &c->keys[k];
        opts[nl] = (key->line ? PL_LEGEND_LINE : 0) |
                   (key->marker >= 0 ? PL_LEGEND_SYMBOL : 0);
        if (!opts[nl])
            opts[nl] = PL_LEGEND_NONE;
        colors[nl] = palette_index(key->color);
        styles[nl] = key->line == 2 ? 2 : 1;
        widths[nl] = 2.0;
        scales[nl] = 0.8;
        numbers[nl] = 1;
        texts[nl] = plplot_text(key->label);
        symbols[nl] = key->marker >= 0 && key->marker < CHART_MARK_COUNT
                          ? glyphs[key->marker]
                          : "";
        nl++;
    }
    if (c->nvlines > 0 && c->vline_label && *c->vline_label) {
        opts[nl] = PL_LEGEND_LINE;
        colors[nl] = COLOR_REF;
        styles[nl] = 2;
        widths[nl] = 1.0;
        scales[nl] = 1.0;
        numbers[nl] = 1;
        texts[nl] = plplot_text(c->vline_label);
        symbols[nl] = "";
        nl++;
    }
    if (nl > 0) {
        PLFLT lw, lh;
        plcol0(1);
        plwidth(1.0);
        /* outside: in the page's top-right corner, which the viewport
         * leaves free */
        PLINT pos = c->legend_outside
                        ? PL_POSITION_BOTTOM | PL_POSITION_LEFT |
                              PL_POSITION_INSIDE | PL_POSITION_SUBPAGE
                        : PL_POSITION_TOP | PL_POSITION_LEFT | PL_POSITION_INSIDE;
        PLINT ncol = two_columns ? 2 : 1;
        PLINT nrow = (nl + ncol - 1) / ncol;
        pllegend(&lw, &lh, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX |
                               (ncol > 1 ? PL_LEGEND_ROW_MAJOR : 0), pos,
                 c->legend_outside ? 0.01 : 0.02, 0.02, 0.035, 0, 1, 1, nrow,
                 ncol, nl, opts, 0.6,
                 c->legend_outside ? 0.7 : 0.8, 2.0, 0.0, colors, (const char *const *)texts, NULL, NULL, NULL,
                 NULL, colors, styles, widths, colors, scales, numbers,
                 (const char *const *)symbols);
    }
    plend1();
    plsstrm(old_stream);
    free(placed.x);
    free(placed.y);
    free(placed.w);
    free(tops.x);
    free(tops.y);
    free(tops.w);
    free(opts);
    free(colors);
    free(styles);
    free(widths);
    free(scales);
    free(numbers);
    for (PLINT s = 0; s < nl; s++)
        free((char *)texts[s]);
    free(texts);
    free(symbols);

    char *svg = slurp(path);
    unlink(path);
    if (!svg) {
        err_set(e, ERR_IO, "cannot read back the chart PLplot wrote");
        return NULL;
    }
    /* drop the XML prolog and DOCTYPE: the string is inlined in HTML */
    char *start = strstr(svg, "<svg");
    if (!start) {
        free(svg);
        err_set(e, ERR_IO, "PLplot produced no SVG");
        return NULL;
    }
    memmove(svg, start, strlen(start) + 1);
    return prefix_ids(svg, c->id_prefix ? c->id_prefix : "chart");
}
