/*
 * report_html.c — index.html: one self-contained page (inline CSS, inline
 * SVG charts from PLplot, no scripts, no network access).  Each chart
 * answers one question, said in a line under its heading:
 *
 *   latency vs offered load   how the best design of each topology behaves
 *                             as load grows, and where it saturates
 *   accepted vs offered load  whether the network delivers what is offered
 *   Pareto front              which designs no other design beats on both
 *                             latency and saturation rate (and cost)
 *   finalists' curves         every simulated design, model and simulation
 *   parity                    how far the models can be trusted
 *
 * The curves come from report_curves.c, which also writes curves.csv and
 * curves.json, so the charts and the exported data are the same numbers.
 * Conventions on every chart: model = line, simulation = filled marker with
 * its 95% CI bar, a run that saturated = a triangle at the top edge, target
 * rates = dashed vertical lines.
 *
 * Rejected alternative: an inlined JavaScript charting library (Debian's
 * libjs-vega, libjs-d3) for hover tooltips.  It would add ~0.3-1 MB to every
 * report and a JS runtime to the browser test; the charts label the
 * finalists and the exports carry every point with its design instead.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dse/dse.h"
#include "dse/report/chart.h"
#include "dse/report/report_curves.h"
#include "dse/report/report_table.h"
#include "net/xalloc.h"

#define FINALISTS_PER_CHART 5
#define WIDE_W 1000
#define WIDE_H 500

/* Sim markers by position in a chart; the triangle is kept for
 * "saturated". */
static const int design_marks[] = {
    CHART_MARK_DOT, CHART_MARK_SQUARE, CHART_MARK_DIAMOND, CHART_MARK_PLUS,
    CHART_MARK_CROSS, CHART_MARK_STAR, CHART_MARK_CIRCLE,
};
#define NDESIGN_MARKS ((int)(sizeof design_marks / sizeof design_marks[0]))

static double cost_axis(const dse_run *r, const dse_candidate *c,
                        const char **label)
{
    const cfg_study *s = r->study;
    for (size_t j = 0; j < s->nobjectives; j++)
        if (s->objectives[j].kind == CFG_OBJ_COST) {
            *label = cfg_objective_name(&s->objectives[j]);
            return c->objectives[j];
        }
    *label = s->budget.technology == CONS_VLSI ? "cost(bisection)" : "cost(pins)";
    return s->budget.technology == CONS_VLSI ? c->cost.bisection_wires
                                             : c->cost.max_pins;
}

/* Charts of one page get ids c1, c2, ... in the order they are drawn. */
static void emit_svg(FILE *out, const chart *c, int *serial)
{
    err e;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "c%d", ++*serial);
    chart named = *c;
    named.id_prefix = prefix;
    char *svg = chart_svg(&named, &e);
    fputs("<figure>", out);
    if (svg) {
        fputs(svg, out);
        free(svg);
    } else {
        fputs("<p>chart unavailable: ", out);
        html_text(out, e.msg);
        fputs("</p>", out);
    }
    fputs("</figure>\n", out);
}

static void question(FILE *out, const char *text)
{
    fputs("<p class=\"q\">", out);
    html_text(out, text);
    fputs("</p>\n", out);
}

static double max_target(const cfg_study *s)
{
    double top = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        top = fmax(top, s->rates.v[ri]);
    return top;
}

static size_t lowest_rate(const cfg_study *s)
{
    size_t lo = 0;
    for (size_t ri = 1; ri < s->rates.n; ri++)
        if (s->rates.v[ri] < s->rates.v[lo])
            lo = ri;
    return lo;
}

/* ---- latency and accepted traffic against offered load -------------------- */

/* Storage for the series of one chart of designs' curves. */
typedef struct curve_chart {
    chart_series *ser;
    size_t nser;
    double **bufs;
    size_t nbufs;
    char (*labels)[240];
} curve_chart;

static double *cc_buf(curve_chart *cc, size_t n)
{
    cc->bufs = xrealloc(cc->bufs, (cc->nbufs + 1) * sizeof *cc->bufs);
    return cc->bufs[cc->nbufs++] = xcalloc(n + 1, sizeof(double));
}

static void cc_fini(curve_chart *cc)
{
    for (size_t i = 0; i < cc->nbufs; i++)
        free(cc->bufs[i]);
    free(cc->bufs);
    free(cc->ser);
    free(cc->labels);
}

static void curve_label(const dse_run *r, const report_curve *cv, char *buf,
                        size_t size)
{
    const dse_candidate *c = &r->cand[cv->cand];
    if (c->finalist)
        snprintf(buf, size, "#%d %s", c->finalist, cv->label);
    else
        snprintf(buf, size, "%s", cv->label);
}

/* Series for designs idx[0..n) of cs: model line, simulated points with CI
 * bars, saturated runs at the top edge.  accepted: y is the accepted rate
 * (the model line is accepted = offered up to the model's saturation rate,
 * flat beyond), else the latency. */
static void curve_series(const dse_run *r, const report_curves *cs,
                         const size_t *idx, size_t n, int accepted,
                         double xmax, int by_topology, curve_chart *cc)
{
    size_t nr = r->study->rates.n;
    memset(cc, 0, sizeof *cc);
    cc->ser = xcalloc(3 * n + 2, sizeof *cc->ser);
    cc->labels = xcalloc(n + 1, sizeof *cc->labels);
    for (size_t q = 0; q < n; q++) {
        const report_curve *cv = &cs->v[idx[q]];
        const dse_candidate *c = &r->cand[cv->cand];
        int mark = design_marks[q % NDESIGN_MARKS];
        int color = by_topology ? (int)c->design.topology : (int)q;
        curve_label(r, cv, cc->labels[q], sizeof cc->labels[q]);
        double *mx, *my;
        size_t m;
        if (accepted) {
            mx = cc_buf(cc, 3);
            my = cc_buf(cc, 3);
            m = 0;
            if (c->saturation_rate > 0) {
                mx[0] = my[0] = 0;
                mx[1] = my[1] = c->saturation_rate;
                mx[2] = fmax(xmax, c->saturation_rate);
                my[2] = c->saturation_rate;
                m = 3;
            }
        } else {
            mx = cv->model_rate;
            my = cv->model_latency;
            m = cv->nmodel;
        }
        cc->ser[cc->nser++] = (chart_series){
            .label = cc->labels[q], .x = mx, .y = my, .n = m,
            .style = CHART_LINE, .color = color, .marker = mark,
            .legend_marker = 1};
        double *sx = cc_buf(cc, nr), *sy = cc_buf(cc, nr);
        double *lo = cc_buf(cc, nr), *hi = cc_buf(cc, nr);
        double *tx = cc_buf(cc, nr), *ty = cc_buf(cc, nr);
        size_t k = 0, t = 0;
        for (size_t ri = 0; c->sim && ri < nr; ri++) {
            const dse_sim_point *p = &c->sim[ri];
            if (p->saturated) {
                tx[t] = p->rate;
                ty[t++] = INFINITY;
                continue;
            }
            double y = accepted ? p->accepted : p->latency;
            if (!isfinite(y))
                continue;
            sx[k] = p->rate;
            sy[k] = y;
            lo[k] = accepted ? NAN : p->latency - p->half_width;
            hi[k] = accepted ? NAN : p->latency + p->half_width;
            k++;
        }
        cc->ser[cc->nser++] = (chart_series){
            .x = sx, .y = sy, .y_lo = lo, .y_hi = hi, .n = k,
            .style = CHART_POINTS, .color = color, .marker = mark};
        cc->ser[cc->nser++] = (chart_series){
            .x = tx, .y = ty, .n = t, .style = CHART_POINTS, .color = color,
            .marker = CHART_MARK_TRIANGLE};
    }
}

static const chart_key latency_keys[] = {
    {"model (line)", -1, 1, -1},
    {"simulated mean, 95% CI bar", CHART_MARK_DOT, 0, -1},
    {"simulation saturated (top edge)", CHART_MARK_TRIANGLE, 0, -1},
};

static void latency_chart(const dse_run *r, const report_curves *cs,
                          const size_t *idx, size_t n, int by_topology,
                          const char *title, FILE *out, int *serial)
{
    curve_chart cc;
    curve_series(r, cs, idx, n, 0, 0, by_topology, &cc);
    chart c = {.title = title, .xlabel = "offered load (messages/node/cycle)",
               .ylabel = "latency (cycles)", .log_y = 1, .series = cc.ser,
               .nseries = cc.nser, .vlines = r->study->rates.v,
               .nvlines = r->study->rates.n, .vline_label = "target rates",
               .keys = latency_keys,
               .nkeys = sizeof latency_keys / sizeof latency_keys[0],
               .legend_outside = 1, .width_px = WIDE_W, .height_px = WIDE_H};
    emit_svg(out, &c, serial);
    cc_fini(&cc);
}

static void best_charts(const dse_run *r, const report_curves *cs, FILE *out,
                        int *serial)
{
    size_t idx[NET_TOPOLOGY_COUNT], n = 0;
    double xmax = max_target(r->study);
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++)
        if (cs->best[t] != SIZE_MAX) {
            idx[n++] = cs->best[t];
            xmax = fmax(xmax, r->cand[cs->v[cs->best[t]].cand].saturation_rate);
        }
    fputs("<h2>Latency against offered load</h2>\n", out);
    question(out, "How does the best design of each topology behave as the "
                  "load grows, and where does it saturate? (Best: its best "
                  "finalist when it has one, else its ranked design of lowest "
                  "mean model latency.)");
    latency_chart(r, cs, idx, n, 1,
                  "Latency vs offered load: best design of each topology", out,
                  serial);
    fputs("<h2>Accepted against offered load</h2>\n", out);
    question(out, "Does the network deliver the traffic offered to it? "
                  "Simulated accepted rate against offered rate; the model "
                  "line is accepted = offered up to the model's saturation "
                  "rate.");
    curve_chart cc;
    curve_series(r, cs, idx, n, 1, xmax * 1.05, 1, &cc);
    double ref_x[2] = {0, xmax * 1.05};
    cc.ser[cc.nser++] = (chart_series){.label = "accepted = offered",
                                       .x = ref_x, .y = ref_x, .n = 2,
                                       .style = CHART_LINE, .color = 8,
                                       .dashed = 1};
    static const chart_key keys[] = {
        {"model (line)", -1, 1, -1},
        {"simulated accepted rate", CHART_MARK_DOT, 0, -1},
        {"simulation saturated (top edge)", CHART_MARK_TRIANGLE, 0, -1},
    };
    chart c = {.title = "Accepted vs offered load: best design of each topology",
               .xlabel = "offered load (messages/node/cycle)",
               .ylabel = "accepted (messages/node/cycle)", .series = cc.ser,
               .nseries = cc.nser, .vlines = r->study->rates.v,
               .nvlines = r->study->rates.n, .vline_label = "target rates",
               .keys = keys, .nkeys = sizeof keys / sizeof keys[0],
               .legend_outside = 1, .width_px = WIDE_W, .height_px = WIDE_H};
    emit_svg(out, &c, serial);
    cc_fini(&cc);
}

static void finalist_charts(const dse_run *r, const report_curves *cs,
                            FILE *out, int *serial)
{
    size_t idx[FINALISTS_PER_CHART];
    for (size_t first = 0; first < r->nfinalists; first += FINALISTS_PER_CHART) {
        size_t last = first + FINALISTS_PER_CHART;
        if (last > r->nfinalists)
            last = r->nfinalists;
        size_t n = 0;
        for (size_t f = first; f < last; f++)
            for (size_t i = 0; i < cs->n; i++)
                if (cs->v[i].cand == r->finalists[f])
                    idx[n++] = i;
        char title[96];
        if (last == first + 1)
            snprintf(title, sizeof title, "Latency vs offered load, finalist %zu",
                     last);
        else
            snprintf(title, sizeof title,
                     "Latency vs offered load, finalists %zu-%zu", first + 1, last);
        latency_chart(r, cs, idx, n, 0, title, out, serial);
    }
}

/* ---- Pareto front ---------------------------------------------------------- */

typedef struct xy_point {
    double x, y;
} xy_point;

static int by_x_desc(const void *a, const void *b)
{
    const xy_point *p = a, *q = b;
    return (p->x < q->x) - (p->x > q->x);
}

/* The non-dominated points of pts[0..n) when x is maximised (max_x) or
 * minimised and y minimised (min_y) or maximised, written to fx, fy in the
 * order CHART_STEP needs to draw the front's staircase.  Returns the count.
 * pts is sorted in place. */
static size_t front_2d(xy_point *pts, size_t n, int max_x, int min_y,
                       double *fx, double *fy)
{
    for (size_t i = 0; i < n; i++) { /* work as max x, min y */
        if (!max_x)
            pts[i].x = -pts[i].x;
        if (!min_y)
            pts[i].y = -pts[i].y;
    }
    qsort(pts, n, sizeof *pts, by_x_desc);
    size_t m = 0;
    double best_y = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (pts[i].y < best_y) {
            best_y = pts[i].y;
            fx[m] = max_x ? pts[i].x : -pts[i].x;
            fy[m] = min_y ? pts[i].y : -pts[i].y;
            m++;
        }
    /* max x / min y: the front rises with x; from the largest x going left
     * the staircase runs horizontally, then down (CHART_STEP's order).
     * min x / max y: the same shape mirrored, drawn from the smallest x. */
    if (max_x != min_y)
        for (size_t i = 0; i < m / 2; i++) {
            double tx = fx[i], ty = fy[i];
            fx[i] = fx[m - 1 - i];
            fy[i] = fy[m - 1 - i];
            fx[m - 1 - i] = tx;
            fy[m - 1 - i] = ty;
        }
    return m;
}

static void pareto_charts(const dse_run *r, FILE *out, int *serial)
{
    const cfg_study *s = r->study;
    size_t lo = lowest_rate(s);
    const char *cost_label = "cost";
    size_t nc = r->ncand + 1;
    double *x = xcalloc(nc, sizeof *x), *ylat = xcalloc(nc, sizeof *ylat);
    double *cx = xcalloc(nc, sizeof *cx), *cy = xcalloc(nc, sizeof *cy);
    xy_point *pts = xcalloc(nc, sizeof *pts), *cpts = xcalloc(nc, sizeof *cpts);
    double *fx = xcalloc(nc, sizeof *fx), *fy = xcalloc(nc, sizeof *fy);
    double *fcx = xcalloc(nc, sizeof *fcx), *fcy = xcalloc(nc, sizeof *fcy);
    chart_series lat[NET_TOPOLOGY_COUNT + 2], cost[NET_TOPOLOGY_COUNT + 2];
    size_t nser = 0, ncost = 0, at = 0, cat = 0, npts = 0, ncpts = 0;
    double cmin = INFINITY, cmax = -INFINITY;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        size_t start = at, cstart = cat;
        for (size_t i = 0; i < r->ncand; i++) {
            const dse_candidate *c = &r->cand[i];
            if (c->design.topology != (net_topology)t)
                continue;
            if (c->score_rc == 0 && isfinite(c->saturation_rate) &&
                isfinite(c->latency[lo])) {
                x[at] = c->saturation_rate;
                ylat[at] = c->latency[lo];
                pts[npts++] = (xy_point){x[at], ylat[at]};
                at++;
            }
            if (c->rank >= 0) {
                cx[cat] = cost_axis(r, c, &cost_label);
                cy[cat] = c->saturation_rate;
                cpts[ncpts++] = (xy_point){cx[cat], cy[cat]};
                cmin = fmin(cmin, cx[cat]);
                cmax = fmax(cmax, cx[cat]);
                cat++;
            }
        }
        if (at > start)
            lat[nser++] = (chart_series){.label = net_topology_name(t),
                                         .x = x + start, .y = ylat + start,
                                         .n = at - start, .style = CHART_POINTS,
                                         .color = t, .marker = CHART_MARK_CIRCLE};
        if (cat > cstart)
            cost[ncost++] = (chart_series){.label = net_topology_name(t),
                                           .x = cx + cstart, .y = cy + cstart,
                                           .n = cat - cstart,
                                           .style = CHART_POINTS, .color = t,
                                           .marker = CHART_MARK_CIRCLE};
    }
    size_t nfront = front_2d(pts, npts, 1, 1, fx, fy);
    size_t ncfront = front_2d(cpts, ncpts, 0, 0, fcx, fcy);
    lat[nser++] = (chart_series){.label = "front on these two axes", .x = fx,
                                 .y = fy, .n = nfront, .style = CHART_STEP,
                                 .color = 6};
    cost[ncost++] = (chart_series){.label = "front on these two axes",
                                   .x = fcx, .y = fcy, .n = ncfront,
                                   .style = CHART_STEP, .color = 6};
    size_t nf = r->nfinalists;
    double *px = xcalloc(nf + 1, sizeof *px), *py = xcalloc(nf + 1, sizeof *py);
    double *pcx = xcalloc(nf + 1, sizeof *pcx), *pcy = xcalloc(nf + 1, sizeof *pcy);
    char (*names)[16] = xcalloc(nf + 1, sizeof *names);
    const char **plabels = xcalloc(nf + 1, sizeof *plabels);
    for (size_t f = 0; f < nf; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        px[f] = c->saturation_rate;
        py[f] = c->latency[lo];
        pcx[f] = cost_axis(r, c, &cost_label);
        pcy[f] = c->saturation_rate;
        snprintf(names[f], sizeof names[f], "#%d", c->finalist);
        plabels[f] = names[f];
    }
    lat[nser++] = (chart_series){.label = "finalists (#order, table below)",
                                 .x = px, .y = py, .n = nf,
                                 .point_labels = plabels,
                                 .style = CHART_POINTS, .color = -1,
                                 .marker = CHART_MARK_SQUARE};
    cost[ncost++] = (chart_series){.label = "finalists (#order, table below)",
                                   .x = pcx, .y = pcy, .n = nf,
                                   .point_labels = plabels,
                                   .style = CHART_POINTS, .color = -1,
                                   .marker = CHART_MARK_SQUARE};
    double top = max_target(s);
    char title[128], ylabel[128];
    snprintf(title, sizeof title,
             "Every scored design: model latency at rate %g vs saturation rate",
             s->rates.v[lo]);
    snprintf(ylabel, sizeof ylabel, "model latency at %g (cycles)",
             s->rates.v[lo]);
    question(out, "Which designs does no other design beat on both latency "
                  "and saturation rate? The line is the front on these two "
                  "axes; designs left of the dashed line saturate at or below "
                  "the highest target rate and are not ranked.  The ranking "
                  "itself uses all the study's objectives (see \"How the "
                  "ranking works\"), so a finalist may sit off this front.");
    chart c = {.title = title, .xlabel = "model saturation rate (messages/node/cycle)",
               .ylabel = ylabel, .log_y = 1, .series = lat, .nseries = nser,
               .vlines = &top, .nvlines = 1,
               .vline_label = "highest target rate", .legend_outside = 1,
               .width_px = WIDE_W, .height_px = WIDE_H};
    emit_svg(out, &c, serial);
    if (cmax > cmin) {
        chart c2 = {.title = "Ranked designs: saturation rate vs cost",
                    .xlabel = cost_label,
                    .ylabel = "model saturation rate (messages/node/cycle)",
                    .series = cost, .nseries = ncost, .legend_outside = 1,
                    .width_px = WIDE_W, .height_px = WIDE_H};
        emit_svg(out, &c2, serial);
    } else if (isfinite(cmin)) {
        fprintf(out, "<p class=\"note\">Every ranked design uses the whole "
                     "budget (%s = %g), so there is no cost axis to plot.</p>\n",
                cost_label, cmin);
    }
    free(x);
    free(ylat);
    free(cx);
    free(cy);
    free(pts);
    free(cpts);
    free(fx);
    free(fy);
    free(fcx);
    free(fcy);
    free(px);
    free(py);
    free(pcx);
    free(pcy);
    free(names);
    free(plabels);
}

/* ---- model against simulation ------------------------------------------- */

static void parity_chart(const dse_run *r, FILE *out, int *serial)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n, nf = r->nfinalists, cap = nf + 1;
    chart_series *ser = xcalloc(2 * nr + 4, sizeof *ser);
    double **bufs = xcalloc(7 * nr + 1, sizeof *bufs);
    char (*names)[16] = xcalloc(cap, sizeof *names);
    const char **plabels = xcalloc(cap, sizeof *plabels);
    char (*labels)[48] = xcalloc(nr + 1, sizeof *labels);
    size_t ns = 0, points = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t f = 0; f < nf; f++) {
        snprintf(names[f], sizeof names[f], "#%d", r->cand[r->finalists[f]].finalist);
        plabels[f] = names[f];
    }
    for (size_t ri = 0; ri < nr; ri++) {
        double *x = bufs[7 * ri] = xcalloc(cap, sizeof(double));
        double *y = bufs[7 * ri + 1] = xcalloc(cap, sizeof(double));
        double *yl = bufs[7 * ri + 2] = xcalloc(cap, sizeof(double));
        double *yh = bufs[7 * ri + 3] = xcalloc(cap, sizeof(double));
        double *tx = bufs[7 * ri + 4] = xcalloc(cap, sizeof(double));
        double *ty = bufs[7 * ri + 5] = xcalloc(cap, sizeof(double));
        for (size_t f = 0; f < nf; f++) {
            const dse_candidate *c = &r->cand[r->finalists[f]];
            const dse_sim_point *p = c->sim ? &c->sim[ri] : NULL;
            x[f] = y[f] = yl[f] = yh[f] = tx[f] = ty[f] = NAN;
            if (!p || !isfinite(p->model_latency))
                continue;
            if (p->saturated) {
                tx[f] = p->model_latency;
                ty[f] = INFINITY;
                points++;
                lo = fmin(lo, p->model_latency);
                hi = fmax(hi, p->model_latency);
            } else if (isfinite(p->latency)) {
                x[f] = p->model_latency;
                y[f] = p->latency;
                yl[f] = p->latency - p->half_width;
                yh[f] = p->latency + p->half_width;
                points++;
                lo = fmin(lo, fmin(x[f], y[f]));
                hi = fmax(hi, fmax(x[f], y[f]));
            }
        }
        snprintf(labels[ri], sizeof labels[ri], "rate %g", s->rates.v[ri]);
        ser[ns++] = (chart_series){.label = labels[ri], .x = x, .y = y,
                                   .y_lo = yl, .y_hi = yh, .n = nf,
                                   .point_labels = plabels,
                                   .style = CHART_POINTS, .color = (int)ri,
                                   .marker = design_marks[ri % NDESIGN_MARKS]};
        ser[ns++] = (chart_series){.x = tx, .y = ty, .n = nf,
                                   .point_labels = plabels,
                                   .style = CHART_POINTS, .color = (int)ri,
                                   .marker = CHART_MARK_TRIANGLE};
    }
    fputs("<h2>Model against simulation</h2>\n", out);
    if (points == 0) {
        fputs("<p class=\"note\">No finalist was simulated, so there is "
              "nothing to compare.</p>\n", out);
    } else {
        double tol = dse_study_tolerance_pct(s) / 100;
        lo *= 0.9;
        hi *= 1.1;
        double dx[2] = {lo, hi}, dy[2] = {lo, hi};
        double ux[2] = {lo, hi}, uy[2] = {lo / (1 - fmin(tol, 0.9)), hi / (1 - fmin(tol, 0.9))};
        double wx[2] = {lo, hi}, wy[2] = {lo / (1 + tol), hi / (1 + tol)};
        char tol_label[64];
        snprintf(tol_label, sizeof tol_label, "model error = +/-%g%% (tolerance)",
                 100 * tol);
        ser[ns++] = (chart_series){.label = "model = simulation", .x = dx,
                                   .y = dy, .n = 2, .style = CHART_LINE,
                                   .color = -1};
        ser[ns++] = (chart_series){.label = tol_label, .x = ux, .y = uy,
                                   .n = 2, .style = CHART_LINE, .color = 8,
                                   .dashed = 1};
        ser[ns++] = (chart_series){.x = wx, .y = wy, .n = 2,
                                   .style = CHART_LINE, .color = 8,
                                   .dashed = 1};
        static const chart_key keys[] = {
            {"simulation saturated (top edge)", CHART_MARK_TRIANGLE, 0, -1},
        };
        question(out, "How far can the models be trusted? One point per "
                      "simulated (finalist, target rate), labelled with the "
                      "finalist's number: above the diagonal the model is "
                      "optimistic (predicts less latency than simulated).");
        chart c = {.title = "Model vs simulated latency, finalists",
                   .xlabel = "model latency (cycles)",
                   .ylabel = "simulated latency (cycles)", .log_x = 1,
                   .log_y = 1, .series = ser, .nseries = ns, .keys = keys,
                   .nkeys = 1, .legend_outside = 1, .width_px = WIDE_W,
                   .height_px = WIDE_H};
        emit_svg(out, &c, serial);
    }
    for (size_t i = 0; i < 7 * nr; i++)
        free(bufs[i]);
    free(bufs);
    free(ser);
    free(names);
    free(plabels);
    free(labels);
}

/* ---- the page --------------------------------------------------------------- */

static void table_section(FILE *out, const char *title,
                          void (*build)(const dse_run *, rtable *),
                          const dse_run *r)
{
    rtable t;
    fprintf(out, "<h2>%s</h2>\n", title);
    build(r, &t);
    rtable_html(&t, out);
    rtable_fini(&t);
}

int dse_report_html(const dse_run *r, FILE *out, err *e)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>dse report: ", out);
    html_text(out, r->study->name);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:2em auto;max-width:1200px;"
          "color:#222;line-height:1.4}\n"
          "table{border-collapse:collapse;margin:1em 0;font-size:90%}\n"
          "th,td{border:1px solid #bbb;padding:3px 7px;text-align:left}\n"
          "th{background:#eee}\ntr:nth-child(even) td{background:#fafafa}\n"
          "figure{margin:1em 0}\nfigure svg{max-width:100%;height:auto;"
          "border:1px solid #ddd}\n.note{color:#555}\n"
          ".q{color:#333;font-style:italic}\n"
          "</style>\n</head>\n<body>\n<h1>dse report: ", out);
    html_text(out, r->study->name);
    fputs("</h1>\n<p class=\"note\">Generated by ", out);
    html_text(out, dse_version_string());
    fputs(". Latencies in cycles, from message generation to the last flit "
          "consumed; rates in messages per node per cycle. On every chart: "
          "model = line, simulation = filled marker with its 95% confidence "
          "bar, a simulation that saturated = triangle at the top edge, "
          "target rates = dashed vertical lines.</p>\n"
          "<h2>Verdict</h2>\n<ul class=\"verdict\">\n", out);
    size_t n;
    char **verdict = dse_report_verdict(r, &n);
    for (size_t i = 0; i < n; i++) {
        fputs(i == 0 ? "<li><strong>" : "<li>", out);
        html_text(out, verdict[i]);
        fputs(i == 0 ? "</strong></li>\n" : "</li>\n", out);
        free(verdict[i]);
    }
    free(verdict);
    fputs("</ul>\n", out);
    if (r->recommended != SIZE_MAX)
        table_section(out, "Decision by target rate (simulated)",
                      report_table_decision, r);
    int serial = 0;
    report_curves cs;
    report_curves_build(r, &cs);
    best_charts(r, &cs, out, &serial);
    fputs("<h2>Pareto front</h2>\n", out);
    pareto_charts(r, out, &serial);
    table_section(out, r->recommended != SIZE_MAX ? "Simulated designs (decision order)"
                                                  : "Finalists (models only)",
                  report_table_finalists, r);
    fputs("<p class=\"note\">", out);
    html_text(out, report_finalists_note());
    fputs("</p>\n<h2>Latency curves of the simulated designs</h2>\n", out);
    question(out, "How does each simulated design compare with its model "
                  "from zero load to saturation?");
    finalist_charts(r, &cs, out, &serial);
    report_curves_fini(&cs);
    parity_chart(r, out, &serial);
    table_section(out, "Each simulated design at each target rate",
                  report_table_finalist_points, r);
    table_section(out, "Best design of each topology by target rate",
                  report_table_best, r);
    if (r->ndisagree)
        table_section(out, "Where the models and the simulator disagree",
                      report_table_disagreements, r);
    fputs("<h2>How the decision is made</h2>\n<p>", out);
    html_text(out, report_ranking_text());
    fputs("</p>\n<h2>Findings</h2>\n<ul>\n", out);
    char **notes = dse_report_notes(r, &n);
    for (size_t i = 0; i < n; i++) {
        fputs("<li>", out);
        html_text(out, notes[i]);
        fputs("</li>\n", out);
        free(notes[i]);
    }
    free(notes);
    fputs("</ul>\n", out);
    table_section(out, "Design space and infeasibility", report_table_space, r);
    table_section(out, "Study settings", report_table_settings, r);
    fputs("<h2>Data</h2>\n<p>Every curve drawn above, model and "
          "simulated points, with its design: <a href=\"curves.csv\">"
          "curves.csv</a>, <a href=\"curves.json\">curves.json</a>. Every "
          "scored design: <a href=\"candidates.csv\">candidates.csv</a>; the "
          "whole run: <a href=\"results.json\">results.json</a> "
          "(docs/results-schema.md).</p>\n</body>\n</html>\n", out);
    /* flushed here so that the reason (a full disk: ENOSPC) is this
     * write's errno, not lost by the caller's fclose */
    if (fflush(out) || ferror(out))
        return err_set(e, ERR_IO, "cannot write index.html: %s",
                       strerror(errno ? errno : EIO));
    return 0;
}
