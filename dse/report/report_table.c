/*
 * report_table.c — see report_table.h.
 */
#include "dse/report/report_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dse/report/report_curves.h"
#include "net/xalloc.h"

void rtable_init(rtable *t, size_t ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
}

void rtable_fini(rtable *t)
{
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void rtable_cell(rtable *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *cell = dse_report_vformat(fmt, ap);
    va_end(ap);
    if (t->ncells == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->cells = xrealloc(t->cells, t->cap * sizeof *t->cells);
    }
    t->cells[t->ncells++] = cell;
}

void rtable_md(const rtable *t, FILE *out)
{
    for (size_t i = 0; i < t->ncells; i++) {
        size_t col = i % t->ncols;
        fputs(col ? " " : "| ", out);
        for (const char *p = t->cells[i]; *p; p++) {
            if (*p == '|')
                fputc('\\', out);
            fputc(*p, out);
        }
        fputs(" |", out);
        if (col + 1 == t->ncols) {
            fputc('\n', out);
            if (i + 1 == t->ncols) {
                for (size_t c = 0; c < t->ncols; c++)
                    fputs(c ? "---|" : "|---|", out);
                fputc('\n', out);
            }
        }
    }
    fputc('\n', out);
}

void html_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

void rtable_html(const rtable *t, FILE *out)
{
    fputs("<table>\n", out);
    for (size_t i = 0; i < t->ncells; i++) {
        size_t col = i % t->ncols;
        int head = i < t->ncols;
        if (col == 0)
            fputs(head ? "<thead><tr>" : "<tr>", out);
        fputs(head ? "<th>" : "<td>", out);
        html_text(out, t->cells[i]);
        fputs(head ? "</th>" : "</td>", out);
        if (col + 1 == t->ncols)
            fputs(head ? "</tr></thead>\n" : "</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void fmt_num(char *buf, size_t size, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(buf, size, fmt, v);
    else
        snprintf(buf, size, "saturated");
}

void report_table_settings(const dse_run *r, rtable *t)
{
    const cfg_study *s = r->study;
    char buf[512];
    rtable_init(t, 2);
    rtable_cell(t, "setting");
    rtable_cell(t, "value");
    rtable_cell(t, "study");
    rtable_cell(t, "%s (%s)", s->name, s->source);
    rtable_cell(t, "nodes");
    rtable_cell(t, "%ld", s->nodes);
    double limit = 0;
    cons_budget_limit(&s->budget, &limit, NULL);
    rtable_cell(t, "budget");
    if (s->budget.has_reference) {
        /* the reference's shape and width: its router delay and ejection
         * count are not the study's and do not enter the budget */
        dse_design_label(&s->budget.reference, buf, sizeof buf);
        rtable_cell(t, "%s: %g %s, equal to %s",
                    cons_technology_name(s->budget.technology), limit,
                    s->budget.technology == CONS_VLSI ? "bisection wires"
                                                      : "pins per chip",
                    buf);
    } else {
        rtable_cell(t, "%s: %g %s", cons_technology_name(s->budget.technology),
                    limit,
                    s->budget.technology == CONS_VLSI ? "bisection wires"
                                                      : "pins per chip");
    }
    net_workload_format(&s->workload, buf, sizeof buf);
    rtable_cell(t, "workload");
    rtable_cell(t, "%s", buf);
    rtable_cell(t, "router delay");
    if (s->router.model == PHYS_ROUTER_FIXED)
        rtable_cell(t, "%d cycles", s->router_delay);
    else if (s->router.model == PHYS_ROUTER_CHIEN)
        rtable_cell(t, "per design, Chien's model (docs/router-cost.md)");
    else
        rtable_cell(t, "per design, Peh and Dally's model at a %g FO4 "
                    "clock%s, wires %g FO4 per tile (docs/router-cost.md)",
                    s->router.clock_fo4,
                    s->router.speculative ? ", speculative" : "",
                    s->router.fo4_per_tile);
    rtable_cell(t, "ejection channels");
    if (s->ejection_channels)
        rtable_cell(t, "%d per node", s->ejection_channels);
    else
        rtable_cell(t, "unlimited (immediate consumption)");
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->rates.n && used < sizeof buf; i++) {
        int w = snprintf(buf + used, sizeof buf - used, i ? ", %g" : "%g",
                         s->rates.v[i]);
        if (w > 0)
            used += (size_t)w;
    }
    rtable_cell(t, "target rates (messages/node/cycle)");
    rtable_cell(t, "%s", buf);
    used = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < s->nobjectives && used < sizeof buf; j++) {
        int w = snprintf(buf + used, sizeof buf - used, j ? ", %s" : "%s",
                         cfg_objective_name(&s->objectives[j]));
        if (w > 0)
            used += (size_t)w;
    }
    rtable_cell(t, "objectives");
    rtable_cell(t, "%s", buf);
    rtable_cell(t, "search");
    rtable_cell(t, "%s (%s used, %zu model evaluations)",
                cfg_search_name(s->search), r->strategy, r->evaluations);
    rtable_cell(t, "simulation");
    rtable_cell(t, "%d replication(s) per point, warm-up %ld messages, at "
                   "least %ld measured, CI target %g, model/sim tolerance "
                   "%g%%, budget %d designs",
                r->seeds_used ? r->seeds_used : s->sim.seeds,
                s->sim.warmup_messages, s->sim.measured_messages,
                s->sim.ci_half_width, s->sim.tolerance_pct,
                s->sim.max_designs);
    rtable_cell(t, "model variant");
    rtable_cell(t, "%s", model_variant_name(s->model.variant));
    rtable_cell(t, "run time");
    rtable_cell(t, "%.1f s (space %.2f s, scoring %.2f s, simulation %.1f s)",
                r->seconds_total, r->seconds_space, r->seconds_score,
                r->seconds_sim);
}

void report_table_finalists(const dse_run *r, rtable *t)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n;
    int decided = r->recommended != SIZE_MAX;
    rtable_init(t, decided ? 15 : 12);
    rtable_cell(t, "#");
    rtable_cell(t, "design");
    rtable_cell(t, "model");
    if (decided)
        rtable_cell(t, "round");
    rtable_cell(t, "flits");
    rtable_cell(t, "bisection wires");
    rtable_cell(t, "max pins");
    if (decided) {
        rtable_cell(t, "saturation rate, simulated (search bracket)");
        rtable_cell(t, "optimistic bound");
    }
    rtable_cell(t, "saturation rate (model)");
    rtable_cell(t, "mean latency, model");
    /* a study ranked on a percentile: that percentile beside the mean */
    cfg_latency_stat st = cfg_rank_stat(s);
    if (st == CFG_LAT_MEAN)
        rtable_cell(t, "mean latency, simulated");
    else
        rtable_cell(t, "mean / %s latency, simulated",
                    cfg_latency_stat_name(st));
    rtable_cell(t, "max |error|");
    rtable_cell(t, "Pareto rank (simulated)");
    rtable_cell(t, "95%% CI vs target");
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        char label[200];
        dse_design_label(&c->design, label, sizeof label);
        double model_sum = 0, sim_sum = 0, pct_sum = 0;
        size_t sim_n = 0;
        for (size_t ri = 0; ri < nr; ri++) {
            model_sum += c->latency[ri];
            if (c->sim && isfinite(c->sim[ri].latency)) {
                sim_sum += c->sim[ri].latency;
                pct_sum += dse_point_latency(&c->sim[ri], st, NULL);
                sim_n++;
            }
        }
        char pct[48] = "";
        if (st != CFG_LAT_MEAN && sim_n)
            snprintf(pct, sizeof pct, " / %.1f", pct_sum / (double)sim_n);
        rtable_cell(t, decided ? "S%d" : "%d", c->finalist);
        rtable_cell(t, "%s", label);
        rtable_cell(t, "%s", c->model ? c->model->name : "-");
        if (decided)
            rtable_cell(t, "%d", c->sim_round);
        rtable_cell(t, "%d", c->flits);
        rtable_cell(t, "%.0f", c->cost.bisection_wires);
        rtable_cell(t, "%.0f", c->cost.max_pins);
        if (decided) {
            if (isfinite(c->sim_saturation))
                rtable_cell(t, "%.5f (%.5f-%.5f)", c->sim_saturation,
                            c->sim_saturation_lo, c->sim_saturation_hi);
            else
                rtable_cell(t, "not measured");
            if (isfinite(c->opt_saturation))
                rtable_cell(t, "%.5f (%s)", c->opt_saturation,
                            c->band_covers ? "model band" : "physical screen");
            else
                rtable_cell(t, "- (physical screen)");
        }
        /* no model, or a model that saturates below a target rate: no
         * figure to print */
        if (c->model && isfinite(c->saturation_rate))
            rtable_cell(t, "%.5f", c->saturation_rate);
        else
            rtable_cell(t, "-");
        if (c->model && isfinite(model_sum))
            rtable_cell(t, "%.2f", model_sum / (double)nr);
        else if (c->model)
            rtable_cell(t, "saturated at a target rate");
        else
            rtable_cell(t, "-");
        if (sim_n == nr)
            rtable_cell(t, "%.2f%s", sim_sum / (double)nr, pct);
        else if (sim_n)
            rtable_cell(t, "%.2f%s over %zu of %zu rates",
                        sim_sum / (double)sim_n, pct, sim_n, nr);
        else
            rtable_cell(t, "not simulated");
        if (isfinite(c->max_abs_error_pct))
            rtable_cell(t, "%.1f%%%s", c->max_abs_error_pct,
                        c->disagrees ? " DISAGREES" : "");
        else
            rtable_cell(t, "-");
        if (c->sim_rank >= 0)
            rtable_cell(t, "%d", c->sim_rank);
        else
            rtable_cell(t, "-");
        char wide[256] = "";
        size_t used = 0, measured = 0;
        for (size_t ri = 0; ri < nr; ri++) {
            const dse_sim_point *p = c->sim ? &c->sim[ri] : NULL;
            if (!p || !isfinite(p->latency))
                continue;
            measured++;
            if (!report_ci_too_wide(r, p) || used >= sizeof wide)
                continue;
            int w = snprintf(wide + used, sizeof wide - used,
                             "%s+/-%.1f%% at %g", used ? ", " : "",
                             100 * p->half_width / p->latency, p->rate);
            if (w > 0)
                used += (size_t)w;
        }
        if (used)
            rtable_cell(t, "WIDE: %s (target +/-%g%%)", wide,
                        100 * s->sim.ci_half_width);
        else if (measured && s->sim.ci_half_width > 0)
            rtable_cell(t, "within +/-%g%%", 100 * s->sim.ci_half_width);
        else
            rtable_cell(t, "-");
    }
}

const char *report_finalists_note(void)
{
    return "Error = (model - simulation) / simulation. Pareto rank: among "
           "the simulated designs, on the study's objectives with simulated "
           "figures (docs/decision.md). DISAGREES: model and simulation differ by more than the "
           "study's tolerance. 95% CI vs target: WIDE where a simulated "
           "mean's 95% confidence half-width is wider than the study's "
           "target (simulation.ci_half_width, relative to the mean), i.e. the "
           "simulation stopped at its message cap before the estimate was as "
           "precise as asked; such a mean is less certain than the others.";
}

const char *report_ranking_text(void)
{
    return "Every design gets the widest channel its budget allows (equal "
           "cost is a constraint). The analytic models screen: each design's "
           "model latency and saturation rate, widened by the model's "
           "measured error band and bounded by physics (zero-load latency, "
           "channel-load bound), give it an optimistic bound. The simulator "
           "decides: round 1 simulates the best design of each shape at each "
           "target rate and the models' own choice; later rounds simulate "
           "every design whose optimistic bound could still reach the "
           "simulated front, until none can (certified) or the simulation "
           "budget is spent. Each simulated design gets its simulated "
           "saturation rate and at least 3 replications at each target rate "
           "it sustains. Designs are ranked per rate on simulated latency, "
           "the mean or the percentile the study's objectives name "
           "(p99_latency: the p99, its interval from the replications' "
           "spread; overlapping 95% intervals are ties) and Pareto-ranked on the "
           "study's objectives with simulated figures; the recommendation is "
           "the front design best or tied at the most rates, ties broken by "
           "the higher simulated saturation rate. docs/decision.md explains "
           "the method.";
}

/* " ± 1.2" into buf. */
static const char *fmt_pm(char *buf, size_t size, double hw)
{
    snprintf(buf, size, " \xc2\xb1 %.1f", hw);
    return buf;
}

void report_table_finalist_points(const dse_run *r, rtable *t)
{
    const cfg_study *s = r->study;
    rtable_init(t, 10);
    rtable_cell(t, "design");
    rtable_cell(t, "rate");
    rtable_cell(t, "model latency");
    rtable_cell(t, "simulated latency (95%% CI)");
    cfg_latency_stat st = cfg_rank_stat(s);
    char pm[32];
    if (st == CFG_LAT_MEAN)
        rtable_cell(t, "p50 / p95 / p99 / max (sim)");
    else
        rtable_cell(t, "p50 / p95 / p99 / max (sim; ranked on %s, 95%% CI)",
                    cfg_latency_stat_name(st));
    rtable_cell(t, "rank at this rate%s%s%s", st == CFG_LAT_MEAN ? "" : " (",
                st == CFG_LAT_MEAN ? "" : cfg_latency_stat_name(st),
                st == CFG_LAT_MEAN ? "" : ")");
    rtable_cell(t, "error");
    rtable_cell(t, "network latency (sim)");
    rtable_cell(t, "source wait (sim)");
    rtable_cell(t, "accepted rate (sim)");
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        for (size_t ri = 0; ri < s->rates.n; ri++) {
            const dse_sim_point *p = c->sim ? &c->sim[ri] : NULL;
            char buf[64];
            rtable_cell(t, "S%d", c->finalist);
            rtable_cell(t, "%g", s->rates.v[ri]);
            fmt_num(buf, sizeof buf, c->latency[ri], "%.2f");
            rtable_cell(t, "%s", buf);
            if (!p || (!p->saturated && !isfinite(p->latency))) {
                rtable_cell(t, "not simulated");
            } else if (p->skipped) {
                rtable_cell(t, "saturates (at %.5f)", c->sim_saturation);
            } else if (p->saturated) {
                rtable_cell(t, "saturated");
            } else {
                rtable_cell(t, "%.2f ± %.2f%s", p->latency, p->half_width,
                            report_ci_too_wide(r, p) ? " (CI WIDE)" : "");
            }
            double phw;
            if (p && isfinite(p->p99) && st != CFG_LAT_MEAN &&
                isfinite(dse_point_latency(p, st, &phw)) && p->seeds > 1)
                /* the percentile the study ranks on, with its interval */
                rtable_cell(t, "%.0f%s / %.0f%s / %.0f%s / %.0f", p->p50,
                            st == CFG_LAT_P50 ? fmt_pm(pm, sizeof pm, phw) : "",
                            p->p95,
                            st == CFG_LAT_P95 ? fmt_pm(pm, sizeof pm, phw) : "",
                            p->p99,
                            st == CFG_LAT_P99 ? fmt_pm(pm, sizeof pm, phw) : "",
                            p->max_latency);
            else if (p && isfinite(p->p99))
                rtable_cell(t, "%.0f / %.0f / %.0f / %.0f", p->p50, p->p95,
                            p->p99, p->max_latency);
            else
                rtable_cell(t, "-");
            if (p && p->rank > 0)
                rtable_cell(t, "%d%s", p->rank, p->tied_best ? " (best or tied)" : "");
            else
                rtable_cell(t, "-");
            if (p && isfinite(p->error_pct))
                rtable_cell(t, "%+.1f%%", p->error_pct);
            else
                rtable_cell(t, "-");
            if (p && isfinite(p->latency)) {
                rtable_cell(t, "%.2f", p->network_latency);
                rtable_cell(t, "%.2f", p->source_wait);
                rtable_cell(t, "%.5f", p->accepted);
            } else {
                rtable_cell(t, "-");
                rtable_cell(t, "-");
                rtable_cell(t, "-");
            }
        }
    }
}

void report_table_best(const dse_run *r, rtable *t)
{
    const cfg_study *s = r->study;
    rtable_init(t, 1 + NET_TOPOLOGY_COUNT);
    rtable_cell(t, "rate");
    for (int q = 0; q < NET_TOPOLOGY_COUNT; q++)
        rtable_cell(t, "%s", net_topology_name(q));
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t best[NET_TOPOLOGY_COUNT];
        dse_report_best_by_topology(r, ri, best);
        rtable_cell(t, "%g", s->rates.v[ri]);
        for (int q = 0; q < NET_TOPOLOGY_COUNT; q++) {
            if (best[q] == SIZE_MAX) {
                rtable_cell(t, "-");
                continue;
            }
            const dse_candidate *c = &r->cand[best[q]];
            char label[200];
            dse_design_label(&c->design, label, sizeof label);
            int sim;
            double l = dse_report_latency(c, ri, &sim);
            rtable_cell(t, "%.2f%s (%s)", l, sim ? "" : " model only", label);
        }
    }
}

void report_table_space(const dse_run *r, rtable *t)
{
    const dse_space *sp = &r->space;
    rtable_init(t, 3);
    rtable_cell(t, "designs");
    rtable_cell(t, "count");
    rtable_cell(t, "example");
    rtable_cell(t, "enumerated");
    rtable_cell(t, "%zu", sp->enumerated);
    rtable_cell(t, "%s", "");
    for (int q = 0; q < DSE_DROP_COUNT; q++) {
        if (!sp->dropped[q])
            continue;
        rtable_cell(t, "dropped: %s", dse_drop_text(q));
        rtable_cell(t, "%zu", sp->dropped[q]);
        rtable_cell(t, "%s", sp->example[q]);
    }
    rtable_cell(t, "feasible and scored");
    rtable_cell(t, "%zu", sp->count);
    rtable_cell(t, "%s", "");
    rtable_cell(t, "model saturates at or below the highest target rate "
                   "(no model rank; still judged by the simulator)");
    rtable_cell(t, "%zu", r->nsaturated_at_target);
    rtable_cell(t, "%s", "");
    rtable_cell(t, "ranked by the models (the screen)");
    rtable_cell(t, "%zu", r->nranked);
    rtable_cell(t, "%s", "");
    if (r->recommended != SIZE_MAX) {
        size_t ruled = 0;
        for (size_t i = 0; i < r->ncand; i++)
            ruled += r->cand[i].dominated_by >= 0;
        rtable_cell(t, "simulated (decision rounds: %d)", r->rounds);
        rtable_cell(t, "%zu", r->nsimulated);
        rtable_cell(t, "%s", "");
        rtable_cell(t, "ruled out: a simulated design beats their optimistic bound");
        rtable_cell(t, "%zu", ruled);
        rtable_cell(t, "%s", "");
        rtable_cell(t, "uncertified when the rounds ended");
        rtable_cell(t, "%zu", r->nuncertified);
        rtable_cell(t, "%s", r->certified ? "certified" : r->stop_reason);
    } else {
        rtable_cell(t, "finalists (models only)");
        rtable_cell(t, "%zu", r->nfinalists);
        rtable_cell(t, "%s", "");
    }
}
