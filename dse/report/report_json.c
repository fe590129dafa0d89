/*
 * report_json.c — results.json, schema "dse-results", version
 * DSE_RESULTS_VERSION of report.h (docs/results-schema.md).  Numbers that are undefined (saturated
 * latency, unsimulated points) are written as null, never as NaN.
 * Timings are optional so a local and a farm run can be compared byte for
 * byte after leaving them out.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "dse/dse.h"
#include "dse/report/report.h"
#include "net/topology.h"

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *design_json(const net_design *d)
{
    char text[512];
    net_design_format(d, text, sizeof text);
    json_t *k = json_array();
    for (int i = 0; i < d->n; i++)
        json_array_append_new(k, json_integer(d->k[i]));
    json_t *o = json_pack("{s:s, s:s, s:i, s:o, s:i, s:i, s:i, s:s, s:s}",
                          "text", text, "topology",
                          net_topology_name(d->topology), "n", d->n, "k", k,
                          "vcs", d->vcs, "width", d->width, "buffer",
                          d->buffer_flits, "routing",
                          net_routing_name(d->routing), "switching",
                          net_switching_name(d->switching));
    for (int p = 0; p < NET_PARAM_COUNT; p++)
        if (net_param_applies(d->topology, (net_param)p))
            json_object_set_new(o, net_param_get((net_param)p)->key,
                                json_integer(net_param_value(d, (net_param)p)));
    return o;
}

static json_t *study_json(const cfg_study *s)
{
    char wl[512];
    net_workload_format(&s->workload, wl, sizeof wl);
    json_t *rates = json_array(), *objs = json_array();
    for (size_t i = 0; i < s->rates.n; i++)
        json_array_append_new(rates, json_real(s->rates.v[i]));
    for (size_t j = 0; j < s->nobjectives; j++)
        json_array_append_new(objs, json_string(cfg_objective_name(&s->objectives[j])));
    json_t *o = json_pack(
        "{s:s, s:s, s:I, s:s, s:s, s:i, s:i, s:o, s:o, s:i, s:s}", "name",
        s->name, "source", s->source, "nodes", (json_int_t)s->nodes,
        "technology", cons_technology_name(s->budget.technology), "workload",
        wl, "router_delay", s->router_delay, "ejection_channels",
        s->ejection_channels, "rates", rates, "objectives", objs, "finalists",
        s->finalists, "search", cfg_search_name(s->search));
    json_object_set_new(
        o, "router",
        json_pack("{s:s, s:i, s:f, s:b, s:f, s:i}", "model",
                  phys_router_model_name(s->router.model), "delay",
                  s->router_delay, "clock_fo4", s->router.clock_fo4,
                  "speculative", s->router.speculative, "fo4_per_tile",
                  s->router.fo4_per_tile, "offchip_cycles",
                  s->router.offchip_cycles));
    double limit = 0;
    if (cons_budget_limit(&s->budget, &limit, NULL) == 0)
        json_object_set_new(o, "budget_limit", json_real(limit));
    if (s->budget.has_reference)
        json_object_set_new(o, "budget_reference", design_json(&s->budget.reference));
    json_object_set_new(o, "simulation",
                        json_pack("{s:i, s:i, s:I, s:I, s:f, s:f}", "seeds",
                                  s->sim.seeds, "max_designs",
                                  s->sim.max_designs, "warmup_messages",
                                  (json_int_t)s->sim.warmup_messages,
                                  "measured_messages",
                                  (json_int_t)s->sim.measured_messages,
                                  "ci_half_width", s->sim.ci_half_width,
                                  "tolerance_pct", s->sim.tolerance_pct));
    return o;
}

static json_t *cost_json(const cons_cost *c)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "bisection_wires",
                     c->bisection_wires, "node_pins", c->node_pins,
                     "interchange_pins", c->interchange_pins, "max_pins",
                     c->max_pins, "total_wires", c->total_wires, "buffer_bits",
                     c->buffer_bits);
}

static json_t *candidate_json(const dse_run *r, size_t i)
{
    const dse_candidate *c = &r->cand[i];
    json_t *lat = json_array();
    for (size_t ri = 0; ri < r->study->rates.n; ri++)
        json_array_append_new(lat, num(c->latency[ri]));
    json_t *o = json_pack("{s:I, s:o, s:s, s:i, s:o, s:o, s:o, s:o, s:i, s:i, s:b}",
                          "id", (json_int_t)i, "design", design_json(&c->design),
                          "model", c->model ? c->model->name : "",
                          "message_flits", c->flits, "cost", cost_json(&c->cost),
                          "zero_load_latency", num(c->zero_load),
                          "saturation_rate", num(c->saturation_rate),
                          "latency", lat, "rank", c->rank, "finalist",
                          c->finalist, "saturated_at_target",
                          c->saturated_at_target);
    /* the decision's view of the design (docs/decision.md) */
    json_object_set_new(o, "bound_rate", num(c->bound_rate));
    json_object_set_new(o, "min_zero_load_latency", num(c->min_zero_load));
    json_object_set_new(o, "optimistic_saturation", num(c->opt_saturation));
    json_object_set_new(o, "band_measured", json_boolean(c->band_measured));
    json_object_set_new(o, "optimistic_bound",
                        json_string(c->band_covers ? "model band"
                                                   : "physical screen"));
    json_object_set_new(o, "clock_scale", json_real(dse_clock_scale(c)));
    json_object_set_new(o, "sim_round", json_integer(c->sim_round));
    json_object_set_new(o, "sim_saturation",
                        json_pack("{s:o, s:o, s:o}", "rate",
                                  num(c->sim_saturation), "lo",
                                  num(c->sim_saturation_lo), "hi",
                                  num(c->sim_saturation_hi)));
    json_object_set_new(o, "saturation_probe",
                        c->probe_rate > 0
                            ? json_pack("{s:o, s:b}", "rate",
                                        num(c->probe_rate), "unstable",
                                        c->probe_unstable)
                            : json_null());
    json_object_set_new(o, "sim_above_bound",
                        json_boolean(c->sim_above_bound));
    json_object_set_new(o, "ruled_out_by",
                        c->dominated_by >= 0
                            ? json_integer((json_int_t)c->dominated_by)
                            : json_null());
    return o;
}

static json_t *finalist_json(const dse_run *r, size_t i)
{
    const dse_candidate *c = &r->cand[i];
    json_t *pts = json_array();
    for (size_t ri = 0; c->sim && ri < r->study->rates.n; ri++) {
        const dse_sim_point *p = &c->sim[ri];
        json_array_append_new(
            pts, json_pack("{s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:b, s:i}",
                           "rate", p->rate, "latency", num(p->latency),
                           "ci95_half_width", num(p->half_width),
                           "network_latency", num(p->network_latency),
                           "source_wait", num(p->source_wait),
                           "accepted_rate", num(p->accepted),
                           "model_latency", num(p->model_latency),
                           "error_pct", num(p->error_pct), "messages",
                           (json_int_t)p->messages, "saturated", p->saturated,
                           "seeds", p->seeds));
        json_t *last = json_array_get(pts, json_array_size(pts) - 1);
        json_object_set_new(last, "skipped_above_saturation",
                            json_boolean(p->skipped));
        json_object_set_new(last, "rank", p->rank > 0 ? json_integer(p->rank)
                                                      : json_null());
        json_object_set_new(last, "tied_best", json_boolean(p->tied_best));
        json_object_set_new(last, "p50", num(p->p50));
        json_object_set_new(last, "p95", num(p->p95));
        json_object_set_new(last, "p99", num(p->p99));
        for (cfg_latency_stat st = CFG_LAT_P50; st <= CFG_LAT_P99; st++) {
            char key[32];
            double hw;
            dse_point_latency(p, st, &hw);
            snprintf(key, sizeof key, "%s_ci95_half_width",
                     cfg_latency_stat_name(st));
            json_object_set_new(last, key, num(hw));
        }
        json_object_set_new(last, "max_latency", num(p->max_latency));
    }
    json_t *curve = json_array();
    for (size_t k = 0; k < c->ncurve; k++) {
        const dse_sim_point *p = &c->curve[k];
        json_array_append_new(
            curve,
            json_pack("{s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, "
                      "s:b, s:i}",
                      "rate", p->rate, "latency", num(p->latency), "p50",
                      num(p->p50), "p95", num(p->p95), "p99", num(p->p99),
                      "max_latency", num(p->max_latency), "accepted_rate",
                      num(p->accepted), "model_latency",
                      num(p->model_latency), "ci95_half_width",
                      num(p->half_width), "messages", (json_int_t)p->messages,
                      "saturated", p->saturated, "seeds", p->seeds));
    }
    return json_pack("{s:I, s:i, s:o, s:o, s:i, s:o, s:b}", "id",
                     (json_int_t)i, "order", c->finalist, "simulation", pts,
                     "curve", curve, "sim_rank", c->sim_rank,
                     "max_abs_error_pct", num(c->max_abs_error_pct),
                     "disagrees", c->disagrees);
}

static json_t *id_or_null(size_t i)
{
    return i == SIZE_MAX ? json_null() : json_integer((json_int_t)i);
}

/* What the report opens with, as data: the recommendation, per rate the
 * best and the ties, the regret of the models' own choice, how sure. */
static json_t *decision_json(const dse_run *r)
{
    const cfg_study *s = r->study;
    json_t *verdict = json_array(), *rates = json_array(),
           *dis = json_array();
    size_t n;
    char **text = dse_report_verdict(r, &n);
    for (size_t q = 0; q < n; q++) {
        json_array_append_new(verdict, json_string(text[q]));
        free(text[q]);
    }
    free(text);
    for (size_t ri = 0; r->best_at_rate && ri < s->rates.n; ri++) {
        size_t b = r->best_at_rate[ri];
        json_t *tied = json_array();
        for (size_t f = 0; f < r->nfinalists; f++)
            if (r->finalists[f] != b && r->cand[r->finalists[f]].sim[ri].tied_best)
                json_array_append_new(tied, json_integer((json_int_t)r->finalists[f]));
        double regret = NAN;
        if (b != SIZE_MAX && r->model_choice != SIZE_MAX &&
            r->cand[r->model_choice].sim) {
            double lm = dse_report_ranked(s, &r->cand[r->model_choice], ri,
                                          NULL);
            regret = isfinite(lm) ? 100 * (lm / dse_report_ranked(
                                                    s, &r->cand[b], ri, NULL) -
                                           1)
                                  : INFINITY;
        }
        json_array_append_new(
            rates, json_pack("{s:f, s:o, s:o, s:o, s:b}", "rate", s->rates.v[ri],
                             "best", id_or_null(b), "tied_with_best", tied,
                             "model_choice_regret_pct", num(regret),
                             "model_choice_saturates", isinf(regret)));
    }
    for (size_t q = 0; q < r->ndisagree; q++)
        json_array_append_new(
            dis, json_pack("{s:f, s:I, s:I}", "rate",
                           s->rates.v[r->disagree[q].rate], "model_first",
                           (json_int_t)r->disagree[q].model_better, "sim_first",
                           (json_int_t)r->disagree[q].sim_better));
    json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:b, s:s, s:i, s:I, s:I, s:I, s:I, "
                     "s:i, s:o, s:o}",
                     "recommended", id_or_null(r->recommended), "runner_up",
                     id_or_null(r->runner_up), "model_choice",
                     id_or_null(r->model_choice), "verdict", verdict,
                     "certified", r->certified, "stop_reason", r->stop_reason,
                     "rounds", r->rounds, "simulated",
                     (json_int_t)r->nsimulated, "saturation_probed",
                     (json_int_t)dse_run_probed(r), "uncertified",
                     (json_int_t)r->nuncertified, "budget_designs",
                     (json_int_t)s->sim.max_designs, "replications",
                     r->seeds_used, "per_rate", rates, "disagreements", dis);
    json_object_set_new(o, "ranked_on",
                        json_string(cfg_latency_stat_name(cfg_rank_stat(s))));
    /* designs with clocks of their own: every figure in cycles of this
     * reference clock (docs/decision.md); null when they share one */
    json_object_set_new(o, "reference_clock_ns",
                        r->clock_ref_ns > 0 ? json_real(r->clock_ref_ns)
                                            : json_null());
    return o;
}

int dse_report_json(const dse_run *r, FILE *out, int with_timings, err *e)
{
    const dse_space *sp = &r->space;
    json_t *drops = json_object();
    for (int q = 0; q < DSE_DROP_COUNT; q++)
        if (sp->dropped[q])
            json_object_set_new(drops, dse_drop_text(q), json_integer((json_int_t)sp->dropped[q]));
    json_t *space = json_pack("{s:I, s:I, s:o, s:I, s:I}", "enumerated",
                              (json_int_t)sp->enumerated, "feasible",
                              (json_int_t)sp->count, "dropped", drops,
                              "ranked", (json_int_t)r->nranked,
                              "saturated_at_target",
                              (json_int_t)r->nsaturated_at_target);
    json_t *cands = json_array(), *fins = json_array(), *notes = json_array();
    for (size_t i = 0; i < r->ncand; i++)
        json_array_append_new(cands, candidate_json(r, i));
    for (size_t f = 0; f < r->nfinalists; f++)
        json_array_append_new(fins, finalist_json(r, r->finalists[f]));
    size_t nnotes;
    char **text = dse_report_notes(r, &nnotes);
    for (size_t q = 0; q < nnotes; q++) {
        json_array_append_new(notes, json_string(text[q]));
        free(text[q]);
    }
    free(text);
    json_t *root = json_pack("{s:s, s:i, s:s, s:o, s:o, s:o, s:s, s:I, s:o, s:o, s:o}",
                             "schema", DSE_RESULTS_SCHEMA, "version",
                             DSE_RESULTS_VERSION, "generator",
                             dse_version_string(), "decision", decision_json(r),
                             "study", study_json(r->study),
                             "space", space, "strategy", r->strategy,
                             "evaluations", (json_int_t)r->evaluations,
                             "candidates", cands, "finalists", fins, "notes",
                             notes);
    json_t *fails = json_array();
    for (size_t q = 0; q < r->njob_failures; q++)
        json_array_append_new(fails, json_string(r->job_failures[q]));
    json_object_set_new(root, "job_failures", fails);
    if (with_timings) {
        json_t *tm = json_pack("{s:f, s:f, s:f, s:f}", "space",
                               r->seconds_space, "score", r->seconds_score,
                               "simulate", r->seconds_sim, "total",
                               r->seconds_total);
        /* where the time went: every phase's steps, wall and CPU
         * seconds, its longest job and the peak memory when it ended */
        json_t *phases = json_array();
        for (size_t q = 0; q < r->nphases; q++) {
            const dse_phase_time *ph = &r->phases[q];
            json_array_append_new(
                phases,
                json_pack("{s:s, s:I, s:f, s:f, s:f, s:f}", "phase",
                          ph->name, "steps", (json_int_t)ph->steps, "wall",
                          ph->wall_s, "cpu", ph->cpu_s, "longest_job_cpu",
                          ph->longest_job_s, "peak_rss_mb",
                          ph->peak_rss_mb));
        }
        json_object_set_new(tm, "phases", phases);
        json_object_set_new(root, "timings_s", tm);
    }
    int rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    fputc('\n', out);
    return rc ? err_set(e, ERR_IO, "cannot write results.json") : 0;
}
