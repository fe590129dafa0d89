/*
 * report_curves.c — see report_curves.h.
 *
 * The model grid: MODEL_POINTS rates evenly spaced up to 95% of the
 * design's model saturation rate, then three more at 97, 98.5 and 99.5%
 * (the knee is where designs differ), after the zero-load point at rate 0.
 * A rate where the model does not converge is left out, never drawn as a
 * latency.
 */
#include "dse/report/report_curves.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"

#define MODEL_POINTS 32

static const double knee[] = {0.97, 0.985, 0.995};
#define NKNEE (sizeof knee / sizeof knee[0])

static double mean_model_latency(const dse_run *r, const dse_candidate *c)
{
    double sum = 0;
    for (size_t ri = 0; ri < r->study->rates.n; ri++)
        sum += c->latency[ri];
    return sum / (double)r->study->rates.n;
}

size_t report_best_of_topology(const dse_run *r, net_topology t)
{
    size_t best = SIZE_MAX;
    /* 1. its first simulated design in decision order (finalists are in
     * that order: the recommendation first) */
    for (size_t f = 0; f < r->nfinalists; f++)
        if (r->cand[r->finalists[f]].design.topology == t)
            return r->finalists[f];
    /* 2. its ranked design of lowest mean model latency */
    double best_mean = INFINITY;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        if (c->design.topology != t || c->rank < 0)
            continue;
        double m = mean_model_latency(r, c);
        if (isfinite(m) && m < best_mean) {
            best_mean = m;
            best = i;
        }
    }
    if (best != SIZE_MAX)
        return best;
    /* 3. its design of lowest model latency at the lowest target rate */
    size_t lo = 0;
    for (size_t ri = 1; ri < r->study->rates.n; ri++)
        if (r->study->rates.v[ri] < r->study->rates.v[lo])
            lo = ri;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        if (c->design.topology != t || c->score_rc != 0 || !isfinite(c->latency[lo]))
            continue;
        if (best == SIZE_MAX || c->latency[lo] < r->cand[best].latency[lo])
            best = i;
    }
    return best;
}

int report_ci_too_wide(const dse_run *r, const dse_sim_point *p)
{
    double target = r->study->sim.ci_half_width;
    if (!(target > 0) || !isfinite(p->latency) || !isfinite(p->half_width) ||
        !(p->latency > 0))
        return 0;
    return p->half_width > target * p->latency;
}

static void model_points(const dse_run *r, const dse_candidate *c,
                         report_curve *cv)
{
    size_t cap = MODEL_POINTS + NKNEE + 1;
    cv->model_rate = xcalloc(cap, sizeof *cv->model_rate);
    cv->model_latency = xcalloc(cap, sizeof *cv->model_latency);
    cv->nmodel = 0;
    if (!c->model || c->score_rc != 0 || !(c->saturation_rate > 0))
        return;
    if (isfinite(c->zero_load)) {
        cv->model_rate[0] = 0;
        cv->model_latency[0] = c->zero_load;
        cv->nmodel = 1;
    }
    for (size_t q = 1; q <= MODEL_POINTS + NKNEE; q++) {
        double f = q <= MODEL_POINTS ? 0.95 * (double)q / MODEL_POINTS
                                     : knee[q - MODEL_POINTS - 1];
        double rate = f * c->saturation_rate;
        model_result res;
        if (c->model->eval(&c->design, &r->study->workload, rate,
                           &r->study->model, &res) != 0)
            continue;
        cv->model_rate[cv->nmodel] = rate;
        cv->model_latency[cv->nmodel] = res.latency;
        cv->nmodel++;
    }
}

/* The design's simulated points, target rates and load curve, by rate
 * (a handful: insertion sort keeps each point's target flag with it). */
static void sim_points(const dse_run *r, const dse_candidate *c,
                       report_curve *cv)
{
    size_t nr = c->sim ? r->study->rates.n : 0, m = 0;
    cv->sim = xcalloc(nr + c->ncurve + 1, sizeof *cv->sim);
    cv->sim_target = xcalloc(nr + c->ncurve + 1, 1);
    for (size_t k = 0; k < nr + c->ncurve; k++) {
        const dse_sim_point *p = k < nr ? &c->sim[k] : &c->curve[k - nr];
        if (p->seeds == 0)
            continue; /* not simulated */
        size_t at = m++;
        while (at > 0 && cv->sim[at - 1].rate > p->rate) {
            cv->sim[at] = cv->sim[at - 1];
            cv->sim_target[at] = cv->sim_target[at - 1];
            at--;
        }
        cv->sim[at] = *p;
        cv->sim_target[at] = k < nr;
    }
    cv->nsim = m;
}

static size_t add_curve(const dse_run *r, report_curves *cs, size_t cand)
{
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].cand == cand)
            return i;
    cs->v = xrealloc(cs->v, (cs->n + 1) * sizeof *cs->v);
    report_curve *cv = &cs->v[cs->n];
    memset(cv, 0, sizeof *cv);
    cv->cand = cand;
    dse_design_label(&r->cand[cand].design, cv->label, sizeof cv->label);
    model_points(r, &r->cand[cand], cv);
    sim_points(r, &r->cand[cand], cv);
    return cs->n++;
}

void report_curves_build(const dse_run *r, report_curves *cs)
{
    memset(cs, 0, sizeof *cs);
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        cs->best[t] = SIZE_MAX;
        size_t b = report_best_of_topology(r, (net_topology)t);
        if (b == SIZE_MAX)
            continue;
        cs->best[t] = add_curve(r, cs, b);
        cs->v[cs->best[t]].best_of_topology = 1;
    }
    for (size_t f = 0; f < r->nfinalists; f++)
        add_curve(r, cs, r->finalists[f]);
}

void report_curves_fini(report_curves *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].model_rate);
        free(cs->v[i].model_latency);
        free(cs->v[i].sim);
        free(cs->v[i].sim_target);
    }
    free(cs->v);
    memset(cs, 0, sizeof *cs);
}

/* ---- exports -------------------------------------------------------------- */

static void csv_row_head(FILE *out, const dse_run *r, const report_curve *cv,
                         const char *text)
{
    const dse_candidate *c = &r->cand[cv->cand];
    fprintf(out, "%zu", cv->cand);
    dse_csv_text(out, cv->label);
    dse_csv_text(out, text);
    fprintf(out, ",%s,%d,%d", net_topology_name(c->design.topology),
            cv->best_of_topology, c->finalist);
}

int dse_report_curves_csv(const dse_run *r, FILE *out, err *e)
{
    report_curves cs;
    report_curves_build(r, &cs);
    fputs("id,label,design,topology,best_of_topology,finalist,series,rate,"
          "latency,ci95_half_width,accepted_rate,saturated,ci_too_wide,"
          "p50,p95,p99,max_latency,target_rate,seeds\n",
          out);
    for (size_t i = 0; i < cs.n; i++) {
        const report_curve *cv = &cs.v[i];
        const dse_candidate *c = &r->cand[cv->cand];
        char text[512];
        net_design_format(&c->design, text, sizeof text);
        for (size_t q = 0; q < cv->nmodel; q++) {
            csv_row_head(out, r, cv, text);
            fputs(",model", out);
            dse_csv_num(out, cv->model_rate[q]);
            dse_csv_num(out, cv->model_latency[q]);
            fputs(",", out);
            dse_csv_num(out, cv->model_rate[q]);
            fputs(",0,0,,,,,0,0\n", out);
        }
        for (size_t k = 0; k < cv->nsim; k++) {
            const dse_sim_point *p = &cv->sim[k];
            csv_row_head(out, r, cv, text);
            fputs(",sim", out);
            dse_csv_num(out, p->rate);
            dse_csv_num(out, p->latency);
            dse_csv_num(out, p->half_width);
            dse_csv_num(out, p->accepted);
            fprintf(out, ",%d,%d", p->saturated ? 1 : 0,
                    report_ci_too_wide(r, p));
            dse_csv_num(out, p->p50);
            dse_csv_num(out, p->p95);
            dse_csv_num(out, p->p99);
            dse_csv_num(out, p->max_latency);
            fprintf(out, ",%d,%d\n", cv->sim_target[k], p->seeds);
        }
    }
    report_curves_fini(&cs);
    return ferror(out) ? err_set(e, ERR_IO, "cannot write curves.csv") : 0;
}

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

int dse_report_curves_json(const dse_run *r, FILE *out, err *e)
{
    report_curves cs;
    report_curves_build(r, &cs);
    json_t *rates = json_array(), *curves = json_array();
    for (size_t ri = 0; ri < r->study->rates.n; ri++)
        json_array_append_new(rates, json_real(r->study->rates.v[ri]));
    for (size_t i = 0; i < cs.n; i++) {
        const report_curve *cv = &cs.v[i];
        const dse_candidate *c = &r->cand[cv->cand];
        char text[512];
        net_design_format(&c->design, text, sizeof text);
        json_t *mpts = json_array(), *sim = json_array();
        for (size_t q = 0; q < cv->nmodel; q++)
            json_array_append_new(
                mpts, json_pack("{s:o, s:o, s:o}", "rate", num(cv->model_rate[q]),
                                 "latency", num(cv->model_latency[q]),
                                 "accepted_rate", num(cv->model_rate[q])));
        for (size_t k = 0; k < cv->nsim; k++) {
            const dse_sim_point *p = &cv->sim[k];
            json_array_append_new(
                sim, json_pack("{s:o, s:o, s:o, s:o, s:b, s:b, s:o, s:o, s:o, "
                               "s:o, s:b, s:i}",
                               "rate", num(p->rate), "latency",
                               num(p->latency), "ci95_half_width",
                               num(p->half_width), "accepted_rate",
                               num(p->accepted), "saturated", p->saturated,
                               "ci_too_wide", report_ci_too_wide(r, p), "p50",
                               num(p->p50), "p95", num(p->p95), "p99",
                               num(p->p99), "max_latency",
                               num(p->max_latency), "target_rate",
                               (int)cv->sim_target[k], "seeds", p->seeds));
        }
        json_array_append_new(
            curves,
            json_pack("{s:I, s:s, s:s, s:s, s:b, s:i, s:o, s:o, s:o}", "id",
                      (json_int_t)cv->cand, "label", cv->label, "design", text,
                      "topology", net_topology_name(c->design.topology),
                      "best_of_topology", cv->best_of_topology, "finalist",
                      c->finalist, "model_saturation_rate",
                      num(c->saturation_rate), "model", mpts, "simulation",
                      sim));
    }
    report_curves_fini(&cs);
    json_t *root = json_pack("{s:s, s:i, s:o, s:o}", "schema", "dse-curves",
                             "version", 1, "rates", rates, "curves", curves);
    int rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
                                       JSON_REAL_PRECISION(10));
    json_decref(root);
    fputc('\n', out);
    if (rc != 0 || ferror(out))
        return err_set(e, ERR_IO, "cannot write curves.json");
    return 0;
}
