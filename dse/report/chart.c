/*
 * chart.c — see chart.h.
 *
 * PLplot's svg device writes a file, so each chart goes to a private
 * temporary file (mkstemp) that is read back and removed.  Each chart uses a
 * fresh PLplot stream (plmkstrm ... plend1) so no settings leak from one
 * chart to the next.  Rejected alternative: writing SVG by hand — the
 * project uses a plotting library for axes, ticks, labels and legends.
 */
#include "dse/report/chart.h"

#include <math.h>
#include <plplot/plplot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/xalloc.h"

/* Palette: 0 background, 1 axes/text, 2.. series (colour-blind safe,
 * Okabe-Ito). */
static const int palette[][3] = {
    {255, 255, 255}, {40, 40, 40},   {0, 114, 178},  {213, 94, 0},
    {0, 158, 115},   {204, 121, 167}, {230, 159, 0}, {86, 180, 233},
    {120, 120, 120}, {240, 228, 66},
};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))
/* Markers are drawn as text glyphs with plstring(), so the legend (which
 * takes glyph strings) shows exactly what the plot shows. */
static const char *const glyphs[] = {"o", "x", "+", "*"};

static int usable(const chart *c, size_t s, size_t i)
{
    const chart_series *se = &c->series[s];
    double x = se->x[i], y = se->y[i];
    if (!isfinite(x) || !isfinite(y))
        return 0;
    if ((c->log_x && x <= 0) || (c->log_y && y <= 0))
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

char *chart_svg(const chart *c, err *e)
{
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t s = 0; s < c->nseries; s++)
        for (size_t i = 0; i < c->series[s].n; i++) {
            if (!usable(c, s, i))
                continue;
            const chart_series *se = &c->series[s];
            double x = axis_value(se->x[i], c->log_x);
            double lo = se->y_lo && isfinite(se->y_lo[i]) ? se->y_lo[i] : se->y[i];
            double hi = se->y_hi && isfinite(se->y_hi[i]) ? se->y_hi[i] : se->y[i];
            if (c->log_y && lo <= 0)
                lo = se->y[i];
            xmin = fmin(xmin, x);
            xmax = fmax(xmax, x);
            ymin = fmin(ymin, axis_value(lo, c->log_y));
            ymax = fmax(ymax, axis_value(hi, c->log_y));
        }
    if (!(xmin <= xmax)) { /* nothing to draw: an empty but valid frame */
        xmin = 0;
        xmax = 1;
        ymin = 0;
        ymax = 1;
    }
    double xpad = (xmax - xmin) * 0.05, ypad = (ymax - ymin) * 0.08;
    if (!(xpad > 0))
        xpad = fabs(xmin) * 0.1 + 0.5;
    if (!(ypad > 0))
        ypad = fabs(ymin) * 0.1 + 0.5;

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
    plspage(0, 0, c->width_px ? c->width_px : 720,
            c->height_px ? c->height_px : 450, 0, 0);
    plscmap0n(NPALETTE);
    for (int i = 0; i < NPALETTE; i++)
        plscol0(i, palette[i][0], palette[i][1], palette[i][2]);
    plinit();
    plschr(0, 0.8);
    plcol0(1);
    int axis = (c->log_x ? 10 : 0) + (c->log_y ? 20 : 0) + 2; /* +2: grid */
    plenv(xmin - xpad, xmax + xpad, ymin - ypad, ymax + ypad, 0, axis);
    char *xl = plplot_text(c->xlabel), *yl = plplot_text(c->ylabel);
    char *tl = plplot_text(c->title);
    pllab(xl, yl, tl);
    free(xl);
    free(yl);
    free(tl);

    PLINT *opts = xcalloc(c->nseries + 1, sizeof *opts);
    PLINT *colors = xcalloc(c->nseries + 1, sizeof *colors);
    PLINT *styles = xcalloc(c->nseries + 1, sizeof *styles);
    PLFLT *widths = xcalloc(c->nseries + 1, sizeof *widths);
    PLFLT *scales = xcalloc(c->nseries + 1, sizeof *scales);
    PLINT *numbers = xcalloc(c->nseries + 1, sizeof *numbers);
    const char **texts = xcalloc(c->nseries + 1, sizeof *texts);
    const char **symbols = xcalloc(c->nseries + 1, sizeof *symbols);
    for (size_t s = 0; s < c->nseries; s++) {
        const chart_series *se = &c->series[s];
        PLFLT *x = xmalloc((se->n + 1) * sizeof *x);
        PLFLT *y = xmalloc((se->n + 1) * sizeof *y);
        PLFLT *lo = xmalloc((se->n + 1) * sizeof *lo);
        PLFLT *hi = xmalloc((se->n + 1) * sizeof *hi);
        PLINT m = 0, mb = 0;
        PLFLT *bx = xmalloc((se->n + 1) * sizeof *bx);
        for (size_t i = 0; i < se->n; i++) {
            if (!usable(c, s, i))
                continue;
            x[m] = axis_value(se->x[i], c->log_x);
            y[m] = axis_value(se->y[i], c->log_y);
            if (se->y_lo && se->y_hi && isfinite(se->y_lo[i]) &&
                isfinite(se->y_hi[i]) && (!c->log_y || se->y_lo[i] > 0)) {
                bx[mb] = x[m];
                lo[mb] = axis_value(se->y_lo[i], c->log_y);
                hi[mb] = axis_value(se->y_hi[i], c->log_y);
                mb++;
            }
            m++;
        }
        int color = 2 + ((se->color % (NPALETTE - 2)) + (NPALETTE - 2)) % (NPALETTE - 2);
        int marker = ((se->marker % 4) + 4) % 4;
        plcol0(color);
        plwidth(se->style == CHART_POINTS ? 1.0 : 2.0);
        if (m > 1 && se->style != CHART_POINTS)
            plline(m, x, y);
        if (m > 0 && se->style != CHART_LINE) {
            plstring(m, x, y, glyphs[marker]);
        }
        if (mb > 0) {
            plwidth(1.0);
            plerry(mb, bx, lo, hi);
        }
        opts[s] = (se->style != CHART_POINTS ? PL_LEGEND_LINE : 0) |
                  (se->style != CHART_LINE ? PL_LEGEND_SYMBOL : 0);
        colors[s] = color;
        styles[s] = 1;
        widths[s] = 2.0;
        scales[s] = 1.0;
        numbers[s] = 2;
        texts[s] = plplot_text(se->label);
        symbols[s] = glyphs[marker];
        free(x);
        free(y);
        free(lo);
        free(hi);
        free(bx);
    }
    if (c->nseries > 0) {
        PLFLT lw, lh;
        plcol0(1);
        plwidth(1.0);
        pllegend(&lw, &lh, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
                 PL_POSITION_TOP | PL_POSITION_LEFT | PL_POSITION_INSIDE, 0.02,
                 0.02, 0.08, 0, 1, 1, 0, 0, (PLINT)c->nseries, opts, 1.0, 0.8,
                 2.0, 0.0, colors, (const char *const *)texts, NULL, NULL,
                 NULL, NULL, colors, styles, widths, colors, scales, numbers,
                 (const char *const *)symbols);
    }
    plend1();
    plsstrm(old_stream);
    free(opts);
    free(colors);
    free(styles);
    free(widths);
    free(scales);
    free(numbers);
    for (size_t s = 0; s < c->nseries; s++)
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
