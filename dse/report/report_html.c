/*
 * report_html.c — index.html: one self-contained page (inline CSS, inline
 * SVG charts from PLplot, no scripts, no network access) with the findings,
 * the Pareto charts, the finalists' latency curves (model lines, simulated
 * points with 95% CI bars), and the tables shared with report.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dse/report/chart.h"
#include "dse/dse.h"
#include "net/xalloc.h"
#include "dse/report/report_table.h"

#define CURVE_POINTS 24
#define FINALISTS_PER_CHART 5

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

/* Per topology: saturation rate (x) against model latency at the lowest
 * target rate (y), every scored design; the ranked ones against their cost
 * when the costs differ at all (under a tight budget they often do not). */
static void pareto_charts(const dse_run *r, FILE *out, int *serial)
{
    const cfg_study *s = r->study;
    size_t lo = 0;
    for (size_t ri = 1; ri < s->rates.n; ri++)
        if (s->rates.v[ri] < s->rates.v[lo])
            lo = ri;
    const char *cost_label = "cost";
    double *x = xcalloc(r->ncand + 1, sizeof *x);
    double *ylat = xcalloc(r->ncand + 1, sizeof *ylat);
    double *cx = xcalloc(r->ncand + 1, sizeof *cx);
    double *cy = xcalloc(r->ncand + 1, sizeof *cy);
    chart_series lat[NET_TOPOLOGY_COUNT + 1], cost[NET_TOPOLOGY_COUNT + 1];
    size_t nser = 0, ncost = 0, at = 0, cat = 0;
    double cmin = INFINITY, cmax = -INFINITY;
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        size_t start = at, cstart = cat;
        for (size_t i = 0; i < r->ncand; i++) {
            const dse_candidate *c = &r->cand[i];
            if (c->design.topology != (net_topology)t)
                continue;
            if (c->score_rc == 0) {
                x[at] = c->saturation_rate;
                ylat[at] = c->latency[lo];
                at++;
            }
            if (c->rank >= 0) {
                cx[cat] = cost_axis(r, c, &cost_label);
                cy[cat] = c->saturation_rate;
                cmin = fmin(cmin, cx[cat]);
                cmax = fmax(cmax, cx[cat]);
                cat++;
            }
        }
        if (at > start)
            lat[nser++] = (chart_series){.label = net_topology_name(t),
                                         .x = x + start, .y = ylat + start,
                                         .n = at - start, .style = CHART_POINTS,
                                         .color = t, .marker = t % 4};
        if (cat > cstart)
            cost[ncost++] = (chart_series){.label = net_topology_name(t),
                                           .x = cx + cstart, .y = cy + cstart,
                                           .n = cat - cstart,
                                           .style = CHART_POINTS, .color = t,
                                           .marker = t % 4};
    }
    double fx[64], fy[64], fcx[64], fcy[64];
    size_t nf = 0;
    for (size_t f = 0; f < r->nfinalists && nf < 64; f++, nf++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        fx[nf] = c->saturation_rate;
        fy[nf] = c->latency[lo];
        fcx[nf] = cost_axis(r, c, &cost_label);
        fcy[nf] = c->saturation_rate;
    }
    lat[nser++] = (chart_series){.label = "finalists", .x = fx, .y = fy,
                                 .n = nf, .style = CHART_POINTS, .color = 6,
                                 .marker = 3};
    cost[ncost++] = (chart_series){.label = "finalists", .x = fcx, .y = fcy,
                                   .n = nf, .style = CHART_POINTS, .color = 6,
                                   .marker = 3};
    char title[128], ylabel[128];
    snprintf(title, sizeof title,
             "Every scored design: latency at rate %g vs saturation rate",
             s->rates.v[lo]);
    snprintf(ylabel, sizeof ylabel, "model latency at %g (cycles)",
             s->rates.v[lo]);
    chart c = {.title = title, .xlabel = "saturation rate (msgs/node/cycle)",
               .ylabel = ylabel, .log_y = 1, .series = lat, .nseries = nser};
    emit_svg(out, &c, serial);
    if (cmax > cmin) {
        chart c2 = {.title = "Ranked designs: saturation rate vs cost",
                    .xlabel = cost_label,
                    .ylabel = "saturation rate (msgs/node/cycle)",
                    .series = cost, .nseries = ncost};
        emit_svg(out, &c2, serial);
    } else {
        fprintf(out, "<p class=\"note\">Every ranked design uses the whole "
                     "budget (%s = %g), so there is no cost axis to plot.</p>\n",
                cost_label, cmin);
    }
    free(x);
    free(ylat);
    free(cx);
    free(cy);
}

/* Model curve of one finalist: CURVE_POINTS rates up to 97% of its
 * saturation rate or 1.5 times the highest target rate, whichever is lower
 * (the steep end near saturation would flatten everything else). */
static size_t model_curve(const dse_run *r, const dse_candidate *c, double *x,
                          double *y)
{
    size_t m = 0;
    if (!c->model || !(c->saturation_rate > 0))
        return 0;
    double top = 0;
    for (size_t ri = 0; ri < r->study->rates.n; ri++)
        top = fmax(top, r->study->rates.v[ri]);
    double end = fmin(c->saturation_rate * 0.97, 1.5 * top);
    for (int q = 1; q <= CURVE_POINTS; q++) {
        double rate = end * q / CURVE_POINTS;
        model_result res;
        if (c->model->eval(&c->design, &r->study->workload, rate,
                           &r->study->model, &res) != 0)
            continue;
        x[m] = rate;
        y[m] = res.latency;
        m++;
    }
    return m;
}

static void latency_charts(const dse_run *r, FILE *out, int *serial)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n;
    for (size_t first = 0; first < r->nfinalists; first += FINALISTS_PER_CHART) {
        size_t last = first + FINALISTS_PER_CHART;
        if (last > r->nfinalists)
            last = r->nfinalists;
        size_t count = last - first;
        chart_series ser[2 * FINALISTS_PER_CHART];
        double mx[FINALISTS_PER_CHART][CURVE_POINTS], my[FINALISTS_PER_CHART][CURVE_POINTS];
        double *sx = xcalloc(count * nr + 1, sizeof *sx);
        double *sy = xcalloc(count * nr + 1, sizeof *sy);
        double *lo = xcalloc(count * nr + 1, sizeof *lo);
        double *hi = xcalloc(count * nr + 1, sizeof *hi);
        char labels[2 * FINALISTS_PER_CHART][96];
        size_t ns = 0;
        for (size_t q = 0; q < count; q++) {
            const dse_candidate *c = &r->cand[r->finalists[first + q]];
            size_t m = model_curve(r, c, mx[q], my[q]);
            snprintf(labels[2 * q], sizeof labels[0], "#%d model (%s)", c->finalist,
                     net_topology_name(c->design.topology));
            ser[ns++] = (chart_series){.label = labels[2 * q], .x = mx[q],
                                       .y = my[q], .n = m, .style = CHART_LINE,
                                       .color = (int)q, .marker = (int)q % 4};
            size_t base = q * nr, k = 0;
            for (size_t ri = 0; c->sim && ri < nr; ri++) {
                const dse_sim_point *p = &c->sim[ri];
                if (!isfinite(p->latency))
                    continue;
                sx[base + k] = p->rate;
                sy[base + k] = p->latency;
                lo[base + k] = p->latency - p->half_width;
                hi[base + k] = p->latency + p->half_width;
                k++;
            }
            if (k) {
                snprintf(labels[2 * q + 1], sizeof labels[0], "#%d simulated",
                         c->finalist);
                ser[ns++] = (chart_series){.label = labels[2 * q + 1],
                                           .x = sx + base, .y = sy + base,
                                           .y_lo = lo + base, .y_hi = hi + base,
                                           .n = k, .style = CHART_POINTS,
                                           .color = (int)q, .marker = (int)q % 4};
            }
        }
        char title[96];
        snprintf(title, sizeof title, "Latency vs rate, finalists %zu-%zu",
                 first + 1, last);
        chart c = {.title = title, .xlabel = "injection rate (msgs/node/cycle)",
                   .ylabel = "latency (cycles)", .log_y = 1, .series = ser,
                   .nseries = ns};
        emit_svg(out, &c, serial);
        free(sx);
        free(sy);
        free(lo);
        free(hi);
    }
}

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
          "</style>\n</head>\n<body>\n<h1>dse report: ", out);
    html_text(out, r->study->name);
    fputs("</h1>\n<p class=\"note\">Generated by ", out);
    html_text(out, dse_version_string());
    fputs(". Latencies in cycles, from message generation to the last flit "
          "consumed; rates in messages per node per cycle.</p>\n"
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
    if (r->ndisagree)
        table_section(out, "Where the models and the simulator disagree",
                      report_table_disagreements, r);
    fputs("<h2>How the decision is made</h2>\n<p>", out);
    html_text(out, dse_report_method());
    fputs("</p>\n<h2>Findings</h2>\n<ul>\n", out);
    char **notes = dse_report_notes(r, &n);
    for (size_t i = 0; i < n; i++) {
        fputs("<li>", out);
        html_text(out, notes[i]);
        fputs("</li>\n", out);
        free(notes[i]);
    }
    free(notes);
    fputs("</ul>\n<h2>Pareto front</h2>\n", out);
    int serial = 0;
    pareto_charts(r, out, &serial);
    table_section(out, r->recommended != SIZE_MAX ? "Simulated designs (decision order)"
                                                  : "Finalists (models only)",
                  report_table_finalists, r);
    fputs("<p class=\"note\">Error = (model - simulation) / simulation. "
          "Pareto rank: among the simulated designs, on the study's objectives "
          "with simulated figures. DISAGREES: model and simulation differ by "
          "more than the study's tolerance.</p>\n<h2>Latency curves</h2>\n", out);
    latency_charts(r, out, &serial);
    table_section(out, "Each simulated design at each target rate",
                  report_table_finalist_points, r);
    table_section(out, "Best design of each topology by target rate",
                  report_table_best, r);
    table_section(out, "Design space and infeasibility", report_table_space, r);
    table_section(out, "Study settings", report_table_settings, r);
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? err_set(e, ERR_IO, "cannot write index.html") : 0;
}
