/*
 * report_charts.c — see report_charts.h.
 *
 * Conventions on every chart: a model is a dashed line; a simulated design
 * is a solid line through its simulated points (filled markers with their
 * 95% CI bars); a simulation that saturated is a triangle at the top edge
 * (its tooltip gives the accepted rate measured); target rates are dashed
 * vertical lines.  Simulated designs are named S1, S2, ... in decision
 * order (the "Simulated designs" table), never by a bare "#n".  Every
 * point's tooltip names its design and its figures.
 *
 * The curves come from report_curves.c, which also writes curves.csv and
 * curves.json, so the charts and the exported data are the same numbers.
 */
#include "dse/report/report_charts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/report/chart.h"
#include "dse/report/report_curves.h"
#include "net/xalloc.h"

#define PER_CHART 5          /* simulated designs per curve chart */
#define PERCENTILE_DESIGNS 4
#define WIDE_W 960
#define WIDE_H 480

/* Markers by position in a chart; the triangle is kept for "saturated". */
static const int design_marks[] = {
    CHART_MARK_DOT, CHART_MARK_SQUARE, CHART_MARK_DIAMOND, CHART_MARK_PLUS,
    CHART_MARK_CROSS, CHART_MARK_STAR, CHART_MARK_CIRCLE,
};
#define NMARKS ((int)(sizeof design_marks / sizeof design_marks[0]))

/* ---- storage for one chart's series, buffers and strings --------------- */

typedef struct builder {
    chart_series *ser;
    size_t nser, cap;
    void **owned;
    size_t nowned;
} builder;

static void *own(builder *b, void *p)
{
    b->owned = xrealloc(b->owned, (b->nowned + 1) * sizeof *b->owned);
    return b->owned[b->nowned++] = p;
}

static double *nums(builder *b, size_t n)
{
    return own(b, xcalloc(n + 1, sizeof(double)));
}

static const char **texts(builder *b, size_t n)
{
    return own(b, xcalloc(n + 1, sizeof(char *)));
}

static char *fmt(builder *b, const char *f, ...)
    __attribute__((format(printf, 2, 3)));

static char *fmt(builder *b, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = xmalloc(n > 0 ? (size_t)n + 1 : 1);
    s[0] = '\0';
    va_start(ap, f);
    if (n > 0)
        vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return own(b, s);
}

static chart_series *add(builder *b, chart_series s)
{
    if (b->nser == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->ser = xrealloc(b->ser, b->cap * sizeof *b->ser);
    }
    b->ser[b->nser] = s;
    return &b->ser[b->nser++];
}

static void builder_fini(builder *b)
{
    for (size_t i = 0; i < b->nowned; i++)
        free(b->owned[i]);
    free(b->owned);
    free(b->ser);
    memset(b, 0, sizeof *b);
}

/* ---- the list of charts -------------------------------------------------- */

static report_chart *new_chart(report_charts *cs, report_section sec,
                               const char *file, const char *heading,
                               const char *question)
{
    cs->v = xrealloc(cs->v, (cs->n + 1) * sizeof *cs->v);
    report_chart *c = &cs->v[cs->n++];
    memset(c, 0, sizeof *c);
    c->section = sec;
    snprintf(c->file, sizeof c->file, "%s", file);
    snprintf(c->heading, sizeof c->heading, "%s", heading);
    snprintf(c->question, sizeof c->question, "%s", question);
    return c;
}

static void draw(report_chart *rc, chart *c)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "%s", rc->file);
    char *dot = strrchr(prefix, '.');
    if (dot)
        *dot = '\0';
    c->id_prefix = prefix;
    err e;
    rc->svg = chart_svg(c, &e);
    if (!rc->svg)
        snprintf(rc->note, sizeof rc->note, "chart unavailable: %.250s",
                 e.msg);
}

/* ---- shared pieces -------------------------------------------------------- */

static size_t lowest_rate(const cfg_study *s)
{
    size_t lo = 0;
    for (size_t ri = 1; ri < s->rates.n; ri++)
        if (s->rates.v[ri] < s->rates.v[lo])
            lo = ri;
    return lo;
}

static double max_target(const cfg_study *s)
{
    double top = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        top = fmax(top, s->rates.v[ri]);
    return top;
}

/* "S3 torus 32x32, V=4, ..." for a simulated design, else its label. */
static char *design_name(builder *b, const dse_run *r, size_t cand)
{
    char label[200];
    dse_design_label(&r->cand[cand].design, label, sizeof label);
    if (r->cand[cand].finalist)
        return fmt(b, "S%d %s", r->cand[cand].finalist, label);
    return fmt(b, "%s", label);
}

/* The tooltip of a simulated point. */
static char *sim_tip(builder *b, const char *name, const dse_sim_point *p,
                     int target)
{
    if (p->saturated)
        return fmt(b, "%s\noffered %.5g: saturated (simulated); accepted "
                      "%.5g messages/node/cycle%s",
                   name, p->rate, p->accepted, target ? ", a target rate" : "");
    return fmt(b, "%s\noffered %.5g: latency %.1f \xc2\xb1 %.1f cycles "
                  "(simulated, %d replication%s%s)\np50 %.0f, p95 %.0f, p99 "
                  "%.0f, max %.0f cycles; accepted %.5g%s",
               name, p->rate, p->latency, p->half_width, p->seeds,
               p->seeds == 1 ? "" : "s", target ? ", target rate" : "",
               p->p50, p->p95, p->p99, p->max_latency, p->accepted,
               isfinite(p->model_latency)
                   ? fmt(b, "; model %.1f", p->model_latency)
                   : "");
}

/* ---- latency and accepted rate against offered load ---------------------- */

/* A design's series on a load chart: the model (dashed), the simulated
 * curve (solid, markers with CI bars on latency charts), its saturated
 * runs at the top edge (latency charts; accepted charts plot what was
 * accepted).  accepted: y is the accepted rate. */
static void design_series(builder *b, const dse_run *r, const report_curve *cv,
                          int group, int color, int mark, int accepted)
{
    const dse_candidate *c = &r->cand[cv->cand];
    char *name = design_name(b, r, cv->cand);
    char *label = cv->nsim ? name : fmt(b, "%s (model only)", name);
    double *mx, *my;
    size_t m;
    if (accepted) { /* the model: accepted = offered up to its saturation */
        mx = nums(b, 2);
        my = nums(b, 2);
        m = 0;
        if (c->saturation_rate > 0) {
            mx[1] = my[1] = c->saturation_rate;
            m = 2;
        }
    } else {
        mx = cv->model_rate;
        my = cv->model_latency;
        m = cv->nmodel;
    }
    const char **mtips = texts(b, m);
    for (size_t i = 0; i < m; i++)
        mtips[i] = fmt(b, "%s\noffered %.5g: model %s %.5g", name, mx[i],
                       accepted ? "accepted" : "latency", my[i]);
    add(b, (chart_series){.label = label, .x = mx, .y = my, .n = m,
                          .style = CHART_LINE, .color = color, .marker = mark,
                          .dashed = 1, .legend_marker = cv->nsim > 0,
                          .group = group, .point_tips = mtips});
    size_t n = cv->nsim;
    double *sx = nums(b, n), *sy = nums(b, n), *lo = nums(b, n),
           *hi = nums(b, n), *tx = nums(b, n), *ty = nums(b, n);
    const char **stips = texts(b, n), **ttips = texts(b, n);
    size_t k = 0, t = 0;
    for (size_t i = 0; i < n; i++) {
        const dse_sim_point *p = &cv->sim[i];
        char *tip = sim_tip(b, name, p, cv->sim_target[i]);
        if (!accepted && p->saturated) {
            tx[t] = p->rate;
            ty[t] = INFINITY;
            ttips[t++] = tip;
            continue;
        }
        double y = accepted ? p->accepted : p->latency;
        if (!isfinite(y))
            continue;
        sx[k] = p->rate;
        sy[k] = y;
        lo[k] = accepted ? NAN : p->latency - p->half_width;
        hi[k] = accepted ? NAN : p->latency + p->half_width;
        stips[k++] = tip;
    }
    add(b, (chart_series){.label = label, .x = sx, .y = sy, .y_lo = lo,
                          .y_hi = hi, .n = k, .style = CHART_LINE_POINTS,
                          .color = color, .marker = mark, .group = group,
                          .point_tips = stips});
    add(b, (chart_series){.label = label, .x = tx, .y = ty, .n = t,
                          .style = CHART_POINTS, .color = color,
                          .marker = CHART_MARK_TRIANGLE, .group = group,
                          .point_tips = ttips});
}

static const chart_key latency_keys[] = {
    {"model (dashed)", -1, 2, -1},
    {"simulated: mean, 95% CI bar (solid)", CHART_MARK_DOT, 1, -1},
    {"simulation saturated (top edge)", CHART_MARK_TRIANGLE, 0, -1},
};

static void load_chart(report_chart *rc, const dse_run *r,
                       const report_curves *cs, const size_t *idx, size_t n,
                       int by_topology, int accepted, const char *title)
{
    builder b = {0};
    double xmax = max_target(r->study);
    for (size_t q = 0; q < n; q++) {
        const report_curve *cv = &cs->v[idx[q]];
        const dse_candidate *c = &r->cand[cv->cand];
        int color = by_topology ? (int)c->design.topology : (int)q;
        design_series(&b, r, cv, (int)q + 1, color,
                      design_marks[q % NMARKS], accepted);
        for (size_t i = 0; i < cv->nsim; i++)
            xmax = fmax(xmax, cv->sim[i].rate);
        if (accepted && c->saturation_rate > 0)
            xmax = fmax(xmax, c->saturation_rate);
    }
    double *ref = nums(&b, 2);
    ref[1] = xmax;
    if (accepted)
        add(&b, (chart_series){.label = "accepted = offered", .x = ref,
                               .y = ref, .n = 2, .style = CHART_LINE,
                               .color = 8});
    static const chart_key accepted_keys[] = {
        {"model: accepted = offered up to its saturation rate (dashed)", -1,
         2, -1},
        {"simulated accepted rate (solid)", CHART_MARK_DOT, 1, -1},
    };
    chart c = {.title = title,
               .xlabel = "offered load (messages/node/cycle)",
               .ylabel = accepted ? "accepted (messages/node/cycle)"
                                  : "mean latency (cycles)",
               .log_y = !accepted, .series = b.ser, .nseries = b.nser,
               .vlines = r->study->rates.v, .nvlines = r->study->rates.n,
               .vline_label = "target rates",
               .keys = accepted ? accepted_keys : latency_keys,
               .nkeys = accepted ? 2 : 3, .legend_outside = 1,
               .width_px = WIDE_W, .height_px = WIDE_H};
    draw(rc, &c);
    builder_fini(&b);
}

static void best_charts(report_charts *out, const dse_run *r,
                        const report_curves *cs)
{
    size_t idx[NET_TOPOLOGY_COUNT], n = 0;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++)
        if (cs->best[t] != SIZE_MAX)
            idx[n++] = cs->best[t];
    report_chart *c = new_chart(
        out, REPORT_SEC_LOAD, "load-latency.svg",
        "Latency against offered load",
        "How does the best design of each topology behave as the load grows, "
        "and where does it saturate? The simulated curve runs from light "
        "load to past its simulated saturation rate, the model beside it. "
        "(Best: its first simulated design, else its ranked design of lowest "
        "mean model latency.)");
    load_chart(c, r, cs, idx, n, 1, 0,
               "Latency vs offered load: best design of each topology");
    c = new_chart(out, REPORT_SEC_LOAD, "load-accepted.svg",
                  "Accepted against offered load",
                  "Does the network deliver the traffic offered to it, and "
                  "what does it deliver once overloaded? Simulated accepted "
                  "rate against offered rate, past saturation too (some "
                  "networks deliver less when overloaded than at their "
                  "peak).");
    load_chart(c, r, cs, idx, n, 1, 1,
               "Accepted vs offered load: best design of each topology");
}

static void simulated_charts(report_charts *out, const dse_run *r,
                             const report_curves *cs)
{
    size_t idx[PER_CHART];
    for (size_t first = 0; first < r->nfinalists; first += PER_CHART) {
        size_t last = first + PER_CHART < r->nfinalists ? first + PER_CHART
                                                        : r->nfinalists;
        size_t n = 0;
        for (size_t f = first; f < last; f++)
            for (size_t i = 0; i < cs->n; i++)
                if (cs->v[i].cand == r->finalists[f])
                    idx[n++] = i;
        char file[48], title[96], heading[96];
        snprintf(file, sizeof file, "simulated-%zu.svg", first / PER_CHART + 1);
        if (last == first + 1)
            snprintf(title, sizeof title, "Latency vs offered load, S%zu", last);
        else
            snprintf(title, sizeof title, "Latency vs offered load, S%zu-S%zu",
                     first + 1, last);
        snprintf(heading, sizeof heading, "Simulated designs %s",
                 title + strlen("Latency vs offered load, "));
        report_chart *c = new_chart(
            out, REPORT_SEC_CURVES, file, heading,
            "How does each simulated design compare with its model from "
            "light load to past saturation?");
        load_chart(c, r, cs, idx, n, 0, 0, title);
    }
}

/* p50, p95 and p99 against load for the first simulated designs. */
static void percentile_chart(report_charts *out, const dse_run *r,
                             const report_curves *cs)
{
    builder b = {0};
    size_t shown = 0;
    for (size_t f = 0; f < r->nfinalists && shown < PERCENTILE_DESIGNS; f++) {
        const report_curve *cv = NULL;
        for (size_t i = 0; i < cs->n; i++)
            if (cs->v[i].cand == r->finalists[f])
                cv = &cs->v[i];
        if (!cv || cv->nsim == 0)
            continue;
        char *name = design_name(&b, r, cv->cand);
        static const char *const which[] = {"p50", "p95", "p99"};
        static const int marks[] = {CHART_MARK_CIRCLE, CHART_MARK_DIAMOND,
                                    CHART_MARK_DOT};
        for (int w = 0; w < 3; w++) {
            double *x = nums(&b, cv->nsim), *y = nums(&b, cv->nsim);
            const char **tips = texts(&b, cv->nsim);
            size_t k = 0;
            for (size_t i = 0; i < cv->nsim; i++) {
                const dse_sim_point *p = &cv->sim[i];
                double v = w == 0 ? p->p50 : w == 1 ? p->p95 : p->p99;
                if (p->saturated || !isfinite(v))
                    continue;
                x[k] = p->rate;
                y[k] = v;
                tips[k++] = fmt(&b, "%s\noffered %.5g: %s %.0f cycles "
                                    "(p50 %.0f, p95 %.0f, p99 %.0f, max %.0f; "
                                    "mean %.1f)",
                                name, p->rate, which[w], v, p->p50, p->p95,
                                p->p99, p->max_latency, p->latency);
            }
            add(&b, (chart_series){.label = name, .x = x, .y = y, .n = k,
                                   .style = CHART_LINE_POINTS,
                                   .color = (int)shown, .marker = marks[w],
                                   .dashed = w == 0, .group = (int)shown + 1,
                                   .point_tips = tips});
        }
        shown++;
    }
    report_chart *c = new_chart(
        out, REPORT_SEC_CURVES, "percentiles.svg",
        "Tail latency against offered load",
        "How long do the slowest messages wait? The median (p50), p95 and "
        "p99 latency of the first simulated designs, from the simulator's "
        "latency histogram (each percentile within 1/128 of the exact one), "
        "up to each design's saturation.");
    if (shown == 0) {
        snprintf(c->note, sizeof c->note,
                 "No design was simulated, so there are no percentiles.");
        builder_fini(&b);
        return;
    }
    static const chart_key keys[] = {
        {"p50 (dashed, circles)", CHART_MARK_CIRCLE, 2, -1},
        {"p95 (diamonds)", CHART_MARK_DIAMOND, 1, -1},
        {"p99 (dots)", CHART_MARK_DOT, 1, -1},
    };
    chart ch = {.title = "Latency percentiles vs offered load, first simulated "
                         "designs",
                .xlabel = "offered load (messages/node/cycle)",
                .ylabel = "latency (cycles)", .log_y = 1, .series = b.ser,
                .nseries = b.nser, .vlines = r->study->rates.v,
                .nvlines = r->study->rates.n, .vline_label = "target rates",
                .keys = keys, .nkeys = 3, .legend_outside = 1,
                .width_px = WIDE_W, .height_px = WIDE_H};
    draw(c, &ch);
    builder_fini(&b);
}

/* ---- fronts ---------------------------------------------------------------- */

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

/* Which figures a front chart plots for candidate c: x a saturation rate,
 * y a latency at target rate lo; simulated (its simulated figures: the
 * mean or the percentile the study ranks on) or the model's (a mean).  0
 * when c has none to plot. */
static int front_xy(const cfg_study *s, const dse_candidate *c, size_t lo,
                    int simulated, double *x, double *y)
{
    if (simulated) {
        double v = c->sim ? dse_point_latency(&c->sim[lo], cfg_rank_stat(s),
                                              NULL)
                          : NAN;
        if (!c->sim || !isfinite(c->sim_saturation) || !isfinite(v))
            return 0;
        *x = c->sim_saturation;
        *y = v;
        return 1;
    }
    if (c->score_rc != 0 || !isfinite(c->saturation_rate) ||
        !isfinite(c->latency[lo]))
        return 0;
    *x = c->saturation_rate;
    *y = c->latency[lo];
    return 1;
}

/* Latency at the lowest target rate against saturation rate.  sim: the
 * simulated front (simulated designs by their simulated figures, the rest
 * faint by their model's); else every design by its model's. */
static void front_chart(report_charts *out, const dse_run *r, int sim)
{
    const cfg_study *s = r->study;
    size_t lo = lowest_rate(s), nc = r->ncand + 1;
    const char *ranked = dse_report_ranked_name(s);
    builder b = {0};
    xy_point *pts = own(&b, xcalloc(nc, sizeof *pts));
    double *fx = nums(&b, nc), *fy = nums(&b, nc);
    size_t npts = 0;
    int any_sim = 0;
    for (int pass = 0; pass < 2; pass++) /* simulated designs last: on top */
        for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
            int simulated_pass = sim && pass == 1;
            if (!sim && pass == 1)
                break;
            double *x = nums(&b, r->ncand), *y = nums(&b, r->ncand);
            const char **tips = texts(&b, r->ncand), **names = NULL;
            if (simulated_pass)
                names = texts(&b, r->ncand);
            size_t k = 0;
            for (size_t i = 0; i < r->ncand; i++) {
                const dse_candidate *c = &r->cand[i];
                if (c->design.topology != (net_topology)t)
                    continue;
                int is_sim = c->sim != NULL && isfinite(c->sim_saturation);
                if (sim && is_sim != simulated_pass)
                    continue;
                if (!front_xy(s, c, lo, simulated_pass, &x[k], &y[k]))
                    continue;
                char *name = design_name(&b, r, i);
                tips[k] = fmt(&b, "%s\n%s saturation %.5g, %s %.1f at "
                                  "%g%s",
                              name, simulated_pass ? "simulated" : "model",
                              x[k], simulated_pass ? ranked : "latency", y[k],
                              s->rates.v[lo],
                              i == r->recommended ? " (recommended)" : "");
                if (simulated_pass) {
                    names[k] = fmt(&b, "S%d", c->finalist);
                    pts[npts++] = (xy_point){x[k], y[k]};
                    any_sim = 1;
                } else if (!sim) {
                    pts[npts++] = (xy_point){x[k], y[k]};
                }
                k++;
            }
            if (k == 0)
                continue;
            const char *label =
                !sim ? net_topology_name(t)
                : simulated_pass
                    ? fmt(&b, "%s, simulated (Sn: row of the table)",
                          net_topology_name(t))
                    : fmt(&b, "%s, not simulated (model figures)",
                          net_topology_name(t));
            add(&b, (chart_series){.label = label, .x = x, .y = y, .n = k,
                                   .style = CHART_POINTS, .color = t,
                                   .marker = simulated_pass
                                                 ? CHART_MARK_DOT
                                                 : CHART_MARK_CIRCLE,
                                   .faint = sim && !simulated_pass,
                                   .point_labels = names,
                                   .point_tips = tips});
        }
    size_t nfront = front_2d(pts, npts, 1, 1, fx, fy);
    const char **ftips = texts(&b, nfront);
    for (size_t i = 0; i < nfront; i++)
        ftips[i] = fmt(&b, "front: saturation %.5g, %s %.1f", fx[i],
                       sim ? ranked : "latency", fy[i]);
    add(&b, (chart_series){.label = sim ? "simulated front on these two axes"
                                        : "model front on these two axes",
                           .x = fx, .y = fy, .n = nfront, .style = CHART_STEP,
                           .color = 6, .point_tips = ftips});
    size_t rec = r->recommended;
    double rx, ry;
    if (rec != SIZE_MAX &&
        front_xy(s, &r->cand[rec], lo, sim, &rx, &ry)) {
        double *x = nums(&b, 1), *y = nums(&b, 1);
        const char **tips = texts(&b, 1);
        x[0] = rx;
        y[0] = ry;
        char *name = design_name(&b, r, rec);
        tips[0] = fmt(&b, "recommended: %s", name);
        add(&b, (chart_series){.label = fmt(&b, "recommended: %s", name),
                               .x = x, .y = y, .n = 1, .style = CHART_POINTS,
                               .color = -1, .marker = CHART_MARK_STAR,
                               .point_tips = tips});
    }
    double top = max_target(s);
    char *title = sim ? fmt(&b, "Simulated front: %s at rate %g vs "
                                "simulated saturation rate",
                            ranked, s->rates.v[lo])
                      : fmt(&b, "Every scored design: model latency at rate "
                                "%g vs model saturation rate",
                            s->rates.v[lo]);
    report_chart *rc = new_chart(
        out, REPORT_SEC_FRONT, sim ? "front-simulated.svg" : "front-model.svg",
        sim ? "The simulated front" : "The models' screen",
        sim ? fmt(&b, "Which simulated designs does no other simulated "
                      "design beat on both %s at the lowest target rate and "
                      "saturation rate, by the simulator's figures (what the "
                      "decision ranks on)? Designs the models screened but "
                      "nobody simulated are faint, at their model figures "
                      "(mean latency); the star is the recommendation.",
                  ranked)
            : "Where does the model put every scored design? Designs left of "
              "the dashed line saturate, by their model, at or below the "
              "highest target rate.  The decision does not rank on these "
              "figures: the simulated front above does.");
    if (sim && !any_sim) {
        snprintf(rc->note, sizeof rc->note,
                 "No design was simulated, so there is no simulated front.");
        builder_fini(&b);
        return;
    }
    chart c = {.title = title,
               .xlabel = sim ? "saturation rate, simulated; model if faint "
                               "(messages/node/cycle)"
                             : "model saturation rate (messages/node/cycle)",
               .ylabel = sim && cfg_rank_stat(s) != CFG_LAT_MEAN
                             ? fmt(&b, "%s at %g, simulated; model mean if "
                                       "faint (cycles)",
                                   ranked, s->rates.v[lo])
                             : fmt(&b, "latency at %g (cycles)",
                                   s->rates.v[lo]),
               .log_y = 1, .series = b.ser, .nseries = b.nser, .vlines = &top,
               .nvlines = 1, .vline_label = "highest target rate",
               .legend_outside = 1, .width_px = WIDE_W, .height_px = WIDE_H};
    draw(rc, &c);
    builder_fini(&b);
}

/* Saturation rate against cost: only when cost is one of the study's
 * objectives (otherwise every design uses the whole budget and the chart
 * would stack them at one cost). */
static void cost_chart(report_charts *out, const dse_run *r)
{
    const cfg_study *s = r->study;
    size_t obj = SIZE_MAX;
    for (size_t j = 0; j < s->nobjectives; j++)
        if (s->objectives[j].kind == CFG_OBJ_COST)
            obj = j;
    if (obj == SIZE_MAX)
        return;
    builder b = {0};
    size_t nc = r->ncand + 1, npts = 0;
    xy_point *pts = own(&b, xcalloc(nc, sizeof *pts));
    double *fx = nums(&b, nc), *fy = nums(&b, nc);
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        double *x = nums(&b, r->ncand), *y = nums(&b, r->ncand);
        const char **tips = texts(&b, r->ncand), **names = texts(&b, r->ncand);
        size_t k = 0;
        for (size_t i = 0; i < r->ncand; i++) {
            const dse_candidate *c = &r->cand[i];
            if (c->design.topology != (net_topology)t || c->rank < 0)
                continue;
            int simulated = c->sim && isfinite(c->sim_saturation);
            x[k] = c->objectives[obj];
            y[k] = simulated ? c->sim_saturation : c->saturation_rate;
            tips[k] = fmt(&b, "%s\n%s %g, saturation %.5g (%s)",
                          design_name(&b, r, i),
                          cfg_objective_name(&s->objectives[obj]), x[k], y[k],
                          simulated ? "simulated" : "model");
            names[k] = c->finalist ? fmt(&b, "S%d", c->finalist) : NULL;
            pts[npts++] = (xy_point){x[k], y[k]};
            k++;
        }
        if (k)
            add(&b, (chart_series){.label = net_topology_name(t), .x = x,
                                   .y = y, .n = k, .style = CHART_POINTS,
                                   .color = t, .marker = CHART_MARK_CIRCLE,
                                   .point_labels = names, .point_tips = tips});
    }
    size_t nfront = front_2d(pts, npts, 0, 0, fx, fy);
    add(&b, (chart_series){.label = "front on these two axes", .x = fx,
                           .y = fy, .n = nfront, .style = CHART_STEP,
                           .color = 6});
    report_chart *rc = new_chart(
        out, REPORT_SEC_FRONT, "front-cost.svg", "Saturation rate against cost",
        "What does more saturation throughput cost? Ranked designs, at their "
        "simulated saturation rate where simulated (Sn), else their model's.");
    chart c = {.title = "Ranked designs: saturation rate vs cost",
               .xlabel = cfg_objective_name(&s->objectives[obj]),
               .ylabel = "saturation rate (messages/node/cycle)",
               .series = b.ser, .nseries = b.nser, .legend_outside = 1,
               .width_px = WIDE_W, .height_px = WIDE_H};
    draw(rc, &c);
    builder_fini(&b);
}

/* ---- model against simulation ------------------------------------------- */

static void parity_chart(report_charts *out, const dse_run *r)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n, nf = r->nfinalists;
    builder b = {0};
    size_t points = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t ri = 0; ri < nr; ri++) {
        double *x = nums(&b, nf), *y = nums(&b, nf), *yl = nums(&b, nf),
               *yh = nums(&b, nf), *tx = nums(&b, nf), *ty = nums(&b, nf);
        const char **names = texts(&b, nf), **tips = texts(&b, nf),
                   **ttips = texts(&b, nf);
        size_t k = 0, t = 0;
        for (size_t f = 0; f < nf; f++) {
            const dse_candidate *c = &r->cand[r->finalists[f]];
            const dse_sim_point *p = c->sim ? &c->sim[ri] : NULL;
            if (!p || !isfinite(p->model_latency))
                continue;
            char *name = design_name(&b, r, r->finalists[f]);
            if (p->saturated) {
                tx[t] = p->model_latency;
                ty[t] = INFINITY;
                ttips[t++] = fmt(&b, "%s\nrate %g: model %.1f, simulation "
                                     "saturated",
                                 name, p->rate, p->model_latency);
                points++;
                lo = fmin(lo, p->model_latency);
                hi = fmax(hi, p->model_latency);
            } else if (isfinite(p->latency)) {
                x[k] = p->model_latency;
                y[k] = p->latency;
                yl[k] = p->latency - p->half_width;
                yh[k] = p->latency + p->half_width;
                names[k] = fmt(&b, "S%d", c->finalist);
                tips[k] = fmt(&b, "%s\nrate %g: model %.1f, simulated %.1f "
                                  "\xc2\xb1 %.1f (error %+.1f%%)",
                              name, p->rate, p->model_latency, p->latency,
                              p->half_width, p->error_pct);
                points++;
                lo = fmin(lo, fmin(x[k], y[k]));
                hi = fmax(hi, fmax(x[k], y[k]));
                k++;
            }
        }
        char *label = fmt(&b, "rate %g", s->rates.v[ri]);
        add(&b, (chart_series){.label = label, .x = x, .y = y, .y_lo = yl,
                               .y_hi = yh, .n = k, .point_labels = names,
                               .point_tips = tips, .style = CHART_POINTS,
                               .color = (int)ri,
                               .marker = design_marks[ri % NMARKS],
                               .group = (int)ri + 1});
        add(&b, (chart_series){.label = label, .x = tx, .y = ty, .n = t,
                               .point_tips = ttips, .style = CHART_POINTS,
                               .color = (int)ri,
                               .marker = CHART_MARK_TRIANGLE,
                               .group = (int)ri + 1});
    }
    report_chart *rc = new_chart(
        out, REPORT_SEC_PARITY, "parity.svg", "Model against simulation",
        "How far can the models be trusted? One point per simulated design "
        "(Sn) and target rate: above the diagonal the model is optimistic "
        "(predicts less latency than simulated).");
    if (points == 0) {
        snprintf(rc->note, sizeof rc->note,
                 "No design was simulated, so there is nothing to compare.");
        builder_fini(&b);
        return;
    }
    double tol = dse_study_tolerance_pct(s) / 100;
    lo *= 0.9;
    hi *= 1.1;
    double *dx = nums(&b, 2), *ux = nums(&b, 2), *uy = nums(&b, 2),
           *wy = nums(&b, 2);
    dx[0] = lo;
    dx[1] = hi;
    memcpy(ux, dx, 2 * sizeof *dx);
    uy[0] = lo / (1 - fmin(tol, 0.9));
    uy[1] = hi / (1 - fmin(tol, 0.9));
    wy[0] = lo / (1 + tol);
    wy[1] = hi / (1 + tol);
    add(&b, (chart_series){.label = "model = simulation", .x = dx, .y = dx,
                           .n = 2, .style = CHART_LINE, .color = -1});
    char *tol_label = fmt(&b, "model error = +/-%g%% (tolerance)", 100 * tol);
    add(&b, (chart_series){.label = tol_label, .x = ux, .y = uy, .n = 2,
                           .style = CHART_LINE, .color = 8, .dashed = 1,
                           .group = 99});
    add(&b, (chart_series){.label = tol_label, .x = ux, .y = wy, .n = 2,
                           .style = CHART_LINE, .color = 8, .dashed = 1,
                           .group = 99});
    static const chart_key keys[] = {
        {"simulation saturated (top edge)", CHART_MARK_TRIANGLE, 0, -1},
    };
    chart c = {.title = "Model vs simulated latency, simulated designs",
               .xlabel = "model latency (cycles)",
               .ylabel = "simulated latency (cycles)", .log_x = 1, .log_y = 1,
               .series = b.ser, .nseries = b.nser, .keys = keys, .nkeys = 1,
               .legend_outside = 1, .width_px = WIDE_W, .height_px = WIDE_H};
    draw(rc, &c);
    builder_fini(&b);
}

/* ---- the whole set -------------------------------------------------------- */

void report_charts_build(const dse_run *r, report_charts *out)
{
    memset(out, 0, sizeof *out);
    report_curves cs;
    report_curves_build(r, &cs);
    best_charts(out, r, &cs);
    front_chart(out, r, 1);
    front_chart(out, r, 0);
    cost_chart(out, r);
    simulated_charts(out, r, &cs);
    percentile_chart(out, r, &cs);
    parity_chart(out, r);
    report_curves_fini(&cs);
}

void report_charts_fini(report_charts *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        free(cs->v[i].svg);
    free(cs->v);
    memset(cs, 0, sizeof *cs);
}

int report_charts_write(const report_charts *cs, const char *dir, err *e)
{
    for (size_t i = 0; i < cs->n; i++) {
        if (!cs->v[i].svg)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, cs->v[i].file);
        FILE *f = fopen(path, "w");
        if (!f)
            return err_set(e, ERR_IO, "cannot write %s: %s", path,
                           strerror(errno));
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
        fputs(cs->v[i].svg, f);
        if (fclose(f) != 0)
            return err_set(e, ERR_IO, "cannot write %s: %s", path,
                           strerror(errno));
    }
    return 0;
}
