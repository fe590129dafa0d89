/*
 * verdict.c — what the report opens with: the recommendation and why, per
 * target rate and overall, how sure the decision is (certified or budget
 * spent), the regret of following the models alone, and where the models
 * and the simulator disagree (docs/decision.md).  Sentences and tables
 * built once here, rendered by report_md.c and report_html.c; results.json
 * carries the same facts as data.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/report/report_table.h"
#include "net/xalloc.h"

double dse_report_latency(const dse_candidate *c, size_t ri, int *simulated)
{
    if (c->sim && (c->sim[ri].saturated || isfinite(c->sim[ri].latency))) {
        if (simulated)
            *simulated = 1;
        return c->sim[ri].saturated ? INFINITY : c->sim[ri].latency;
    }
    if (simulated)
        *simulated = 0;
    return isfinite(c->latency[ri]) ? c->latency[ri] : INFINITY;
}

static const char *label_of(const dse_run *r, size_t i, char *buf, size_t size)
{
    dse_design_label(&r->cand[i].design, buf, size);
    return buf;
}

/* "0.001, 0.002 and 0.003" into buf, from the rates where pick[ri]. */
static void rate_list(const cfg_study *s, const int *pick, char *buf,
                      size_t size)
{
    size_t used = 0, n = 0, total = 0;
    buf[0] = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        total += pick[ri] != 0;
    for (size_t ri = 0; ri < s->rates.n && used < size; ri++) {
        if (!pick[ri])
            continue;
        n++;
        int w = snprintf(buf + used, size - used, "%s%g",
                         n == 1 ? "" : n == total ? " and " : ", ",
                         s->rates.v[ri]);
        if (w > 0)
            used += (size_t)w;
    }
}

/* Append printf text to a growing string. */
static void cat(char **buf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cat(char **buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *more = dse_report_vformat(fmt, ap);
    va_end(ap);
    size_t n = *buf ? strlen(*buf) : 0;
    *buf = xrealloc(*buf, n + strlen(more) + 1);
    strcpy(*buf + n, more);
    free(more);
}

/* The runner-up b against the recommendation a, from the figures the
 * tables print: at each target rate both sustain, faster or slower beyond
 * both 95% intervals, else tied; the mean latency ratio over those rates;
 * the simulated saturation rates; and what put a first (the order of
 * dse/search/decide.c: the Pareto front, then the rates best or tied,
 * the rates sustained, the saturation rate, the latency). */
static char *compare_next(const dse_run *r, size_t a, size_t b)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n;
    const dse_candidate *ca = &r->cand[a], *cb = &r->cand[b];
    int *faster = xcalloc(nr + 1, sizeof *faster);
    int *slower = xcalloc(nr + 1, sizeof *slower);
    int *tied = xcalloc(nr + 1, sizeof *tied);
    size_t nf = 0, ns = 0, nt = 0, both = 0;
    double logsum = 0;
    for (size_t ri = 0; ri < nr; ri++) {
        double hp, hq, lp = dse_report_ranked(s, ca, ri, &hp),
                       lq = dse_report_ranked(s, cb, ri, &hq);
        if (!isfinite(lp) || !isfinite(lq))
            continue;
        both++;
        logsum += log(lq / lp);
        if (lq + hq < lp - hp)
            nf += faster[ri] = 1;
        else if (lq - hq > lp + hp)
            ns += slower[ri] = 1;
        else
            nt += tied[ri] = 1;
    }
    char label[200], list[400];
    char *out = NULL;
    cat(&out, " The next best is %s", label_of(r, b, label, sizeof label));
    if (cfg_rank_stat(s) != CFG_LAT_MEAN)
        cat(&out, " (by %s)", dse_report_ranked_name(s));
    if (both == 0) {
        cat(&out, ", which sustains none of the rates the recommendation "
                  "does");
    } else {
        double mean = 100 * (exp(logsum / (double)both) - 1);
        /* a difference under 1% keeps a decimal: "0% faster" reads as a
         * contradiction */
        int digits = fabs(mean) < 1 ? 1 : 0;
        if (nf == 0 && ns == 0 && fabs(mean) < 0.05)
            cat(&out, ", tied with it at every rate both sustain (no "
                      "difference on average)");
        else if (nf == 0 && ns == 0)
            cat(&out, ", tied with it at every rate both sustain (%.*f%% %s "
                      "on average, within the intervals)",
                digits, fabs(mean), mean >= 0 ? "slower" : "faster");
        else if (nf == 0)
            cat(&out, ", %.*f%% slower on average over the rates both "
                      "sustain", digits, mean);
        else if (ns == 0)
            cat(&out, ", %.*f%% faster on average over the rates both "
                      "sustain", digits, -mean);
        else
            cat(&out, ", %.*f%% %s on average over the rates both sustain",
                digits, fabs(mean), mean >= 0 ? "slower" : "faster");
        if (nf) {
            rate_list(s, faster, list, sizeof list);
            cat(&out, "; faster beyond both intervals at %s", list);
        }
        if (ns && nf) {
            rate_list(s, slower, list, sizeof list);
            cat(&out, ", slower at %s", list);
        }
        if (nt && (nf || ns)) {
            rate_list(s, tied, list, sizeof list);
            cat(&out, ", tied at %s", list);
        }
    }
    double sa = ca->sim_saturation, sb = cb->sim_saturation;
    if (isfinite(sa) && isfinite(sb) && sa > 0) {
        double d = 100 * (sb / sa - 1);
        if (fabs(d) < 0.5)
            cat(&out, "; it saturates at the same rate (%.5f)", sb);
        else
            cat(&out, "; it saturates %s, at %.5f against %.5f (%.0f%% %s)",
                sb < sa ? "earlier" : "later", sb, sa, fabs(d),
                sb < sa ? "lower" : "higher");
    }
    cat(&out, ".");
    /* what put the recommendation first */
    int bt_a = 0, bt_b = 0, su_a = 0, su_b = 0;
    for (size_t ri = 0; ri < nr; ri++) {
        bt_a += ca->sim[ri].tied_best;
        bt_b += cb->sim[ri].tied_best;
        su_a += isfinite(dse_report_ranked(s, ca, ri, NULL));
        su_b += isfinite(dse_report_ranked(s, cb, ri, NULL));
    }
    if (ca->sim_rank == 0 && cb->sim_rank > 0)
        cat(&out, " The recommendation is on the simulated Pareto front and "
                  "the next best is not (a simulated design is at least as "
                  "good on every objective).");
    else if (bt_a != bt_b)
        cat(&out, " What decides: best or tied at %d target rate(s) "
                  "against %d.", bt_a, bt_b);
    else if (su_a != su_b)
        cat(&out, " What decides: both best or tied at %d rate(s); it "
                  "sustains %d target rate(s) against %d.", bt_a, su_a, su_b);
    else if (isfinite(sa) && isfinite(sb) && sa != sb)
        cat(&out, " What decides: both best or tied at the same %d rate(s), "
                  "so the higher simulated saturation rate (the headroom "
                  "above the target load) breaks the tie.", bt_a);
    else
        cat(&out, " What decides: the lower %s relative to the best, "
                  "on the same rates and saturation rate.",
            dse_report_ranked_name(s));
    free(faster);
    free(slower);
    free(tied);
    return out;
}

static void model_only_verdict(const dse_run *r, char ***lines, size_t *n)
{
    char label[200];
    if (r->nfinalists == 0) {
        dse_report_line_add(lines, n, "Model-only run (--no-sim): no design has a steady "
                      "state by its model at every target rate; nothing "
                      "to recommend without simulation.");
        return;
    }
    dse_report_line_add(lines, n,
        "Model-only run (--no-sim): nothing here is confirmed by "
        "simulation. The models' first choice is %s; the analytic models' "
        "saturation rates are off by up to 0.3x-1.9x (docs/validation.md), "
        "so run without --no-sim before building anything.",
        label_of(r, r->finalists[0], label, sizeof label));
}

/* Why the recommended design: the target rates where it is best or tied,
 * how much slower it is elsewhere or where it saturates, and any rate it
 * sustained above its own saturation search's answer.  The text goes into
 * why (size bytes, truncated). */
static void why_recommended(const dse_run *r, char *why, size_t size)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n;
    const dse_candidate *rec = &r->cand[r->recommended];
    char other[200], rates[400];
    int *pick = xcalloc(nr + 1, sizeof *pick);
    int *lost = xcalloc(nr + 1, sizeof *lost);
    int *sat = xcalloc(nr + 1, sizeof *sat);
    for (size_t ri = 0; ri < nr; ri++) {
        pick[ri] = rec->sim[ri].tied_best;
        sat[ri] = !isfinite(dse_report_ranked(s, rec, ri, NULL));
        lost[ri] = !pick[ri] && !sat[ri];
    }
    rate_list(s, pick, rates, sizeof rates);
    size_t used = (size_t)(rates[0]
        ? snprintf(why, size, "at %s it is the best or tied with the "
                   "best", rates)
        : snprintf(why, size, "it is not the best at any target rate"));
    for (size_t ri = 0; ri < nr && used < size; ri++) {
        size_t b = r->best_at_rate[ri];
        if (lost[ri] && b != SIZE_MAX)
            used += (size_t)snprintf(
                why + used, size - used, "; at %g it is %.0f%% slower than %s",
                s->rates.v[ri],
                100 * (dse_report_ranked(s, rec, ri, NULL) /
                           dse_report_ranked(s, &r->cand[b], ri, NULL) -
                       1),
                label_of(r, b, other, sizeof other));
        else if (sat[ri] && used < size)
            used += (size_t)snprintf(why + used, size - used,
                                     "; it saturates below %g", s->rates.v[ri]);
    }
    /* a rate sustained in its replications above the search's rate */
    for (size_t ri = 0; ri < nr; ri++)
        if (!sat[ri] && isfinite(rec->sim_saturation) &&
            s->rates.v[ri] > rec->sim_saturation)
            used += (size_t)snprintf(
                why + used, used < size ? size - used : 0,
                "; at %g its replications reached a steady state although "
                "its saturation search puts it at %.5f (interval up to "
                "%.5f)", s->rates.v[ri], rec->sim_saturation,
                rec->sim_saturation_hi);
    free(pick);
    free(lost);
    free(sat);
}

/* "Build X: why. Its simulated saturation rate is ..." and the comparison
 * with the runner-up. */
static void recommendation_line(const dse_run *r, char ***lines,
                                size_t *count)
{
    const cfg_study *s = r->study;
    const dse_candidate *rec = &r->cand[r->recommended];
    char label[200], why[1200];
    why_recommended(r, why, sizeof why);
    char satbuf[160] = "not measured";
    if (isfinite(rec->sim_saturation))
        snprintf(satbuf, sizeof satbuf, "%.5f messages/node/%scycle (the "
                 "saturation search's bracket %.5f-%.5f)", rec->sim_saturation,
                 r->clock_ref_ns > 0 ? "reference " : "",
                 rec->sim_saturation_lo, rec->sim_saturation_hi);
    char *next = r->runner_up != SIZE_MAX
                     ? compare_next(r, r->recommended, r->runner_up)
                     : NULL;
    dse_report_line_add(lines, count, "Build %s: %s (simulated %s, %d "
        "replications, 95%% intervals%s; overlapping intervals count as "
        "ties). Its simulated saturation rate is %s.%s",
        label_of(r, r->recommended, label, sizeof label), why,
        cfg_rank_stat(s) == CFG_LAT_MEAN ? "mean latency"
                                         : dse_report_ranked_name(s),
        r->seeds_used,
        cfg_rank_stat(s) == CFG_LAT_MEAN
            ? ""
            : " from the spread of the replications' own percentiles",
        satbuf, next ? next : "");
    free(next);
}

/* One line per target rate: the best simulated design, its ties, and how
 * many simulated designs sustain the rate. */
static void rate_lines(const dse_run *r, char ***lines, size_t *count)
{
    const cfg_study *s = r->study;
    char label[200];
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t b = r->best_at_rate[ri], sustain = 0, ties = 0;
        for (size_t f = 0; f < r->nfinalists; f++) {
            const dse_sim_point *p = &r->cand[r->finalists[f]].sim[ri];
            sustain += isfinite(dse_report_ranked(s, &r->cand[r->finalists[f]],
                                                  ri, NULL));
            ties += p->tied_best && r->finalists[f] != b;
        }
        if (b == SIZE_MAX) {
            dse_report_line_add(lines, count, "At rate %g none of the %zu simulated designs "
                "sustains the load.", s->rates.v[ri], r->nfinalists);
            continue;
        }
        double hw, l = dse_report_ranked(s, &r->cand[b], ri, &hw);
        dse_report_line_add(lines, count, "At rate %g: best %s, %s %.1f ± "
            "%.1f %scycles; %zu other design(s) tied with it; %zu of %zu "
            "simulated designs sustain the rate.",
            s->rates.v[ri], label_of(r, b, label, sizeof label),
            dse_report_ranked_name(s), l, hw,
            r->clock_ref_ns > 0 ? "reference " : "", ties, sustain,
            r->nfinalists);
    }
}

/* The models' own choice: the same design, or what choosing it on the
 * models alone would have cost at each rate, simulated. */
static void model_choice_line(const dse_run *r, char ***lines, size_t *count)
{
    const cfg_study *s = r->study;
    char label[200];
    if (r->model_choice != SIZE_MAX && r->model_choice == r->recommended) {
        dse_report_line_add(lines, count, "The models alone would have picked the same "
            "design.");
    } else if (r->model_choice != SIZE_MAX && r->cand[r->model_choice].sim) {
        const dse_candidate *m = &r->cand[r->model_choice];
        char regret[800] = "";
        size_t u = 0;
        for (size_t ri = 0; ri < s->rates.n && u < sizeof regret; ri++) {
            double lm = dse_report_ranked(s, m, ri, NULL);
            double lb = r->best_at_rate[ri] == SIZE_MAX
                            ? INFINITY
                            : dse_report_ranked(s, &r->cand[r->best_at_rate[ri]],
                                                ri, NULL);
            int w;
            if (!isfinite(lm))
                w = snprintf(regret + u, sizeof regret - u,
                             "%sat %g it saturates", u ? ", " : "",
                             s->rates.v[ri]);
            else
                w = snprintf(regret + u, sizeof regret - u,
                             "%sat %g %+.0f%% against the best", u ? ", " : "",
                             s->rates.v[ri], 100 * (lm / lb - 1));
            if (w > 0)
                u += (size_t)w;
        }
        dse_report_line_add(lines, count, "Regret of the model-only choice: the models "
            "alone would have picked %s; simulated %s, %s.",
            label_of(r, r->model_choice, label, sizeof label),
            dse_report_ranked_name(s), regret);
    }
}

/* How sure the answer is: certified or not, what the designs left
 * unsimulated rest on, and why the rounds ended. */
static void certainty_lines(const dse_run *r, char ***lines, size_t *count)
{
    const cfg_study *s = r->study;
    size_t ruled = 0, sat_ruled = 0, on_band = 0, no_model = 0, outside = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        ruled += c->dominated_by >= 0;
        sat_ruled += c->dominated_by >= 0 && c->probe_unstable;
        if (c->sim)
            continue;
        if (c->band_covers)
            on_band++;
        else if (!c->model)
            no_model++;
        else
            outside++;
    }
    if (r->check_mode) {
        dse_report_line_add(lines, count, "Check mode: all %zu feasible "
            "designs simulated; nothing is left to certify.", r->ncand);
    } else {
        dse_report_line_add(lines, count, "%s %zu of %zu feasible designs "
            "simulated in %d round(s); %zu ruled out because a simulated "
            "design beats even their optimistic bound (docs/decision.md).",
            r->certified ? "Certified:" : "NOT certified:", r->nsimulated,
            r->ncand, r->rounds, ruled);
        size_t probed = dse_run_probed(r);
        if (probed)
            dse_report_line_add(lines, count, "The saturation screen probed "
                "%zu design(s) that only sustaining a higher rate could put "
                "on the front, each with one simulation at that rate (a "
                "simulated design's saturation rate, or the first target "
                "rate where it does not beat them); %zu saturated below it "
                "and are ruled out (docs/decision.md).", probed, sat_ruled);
        if (on_band + no_model + outside)
            dse_report_line_add(lines, count, "Of the %zu designs not "
                "simulated, %zu rest on their model's measured error band "
                "(inside the regime its validation set-ups span) and %zu on "
                "the physical screen alone, exact zero-load latency and "
                "channel-load bound (%zu without a model, %zu outside their "
                "model's validated regime).%s",
                on_band + no_model + outside, on_band, no_model + outside,
                no_model, outside,
                cfg_rank_stat(s) == CFG_LAT_MEAN
                    ? ""
                    : " Their bound on the percentile the study ranks on is "
                      "physics alone for every one of them: the smallest "
                      "zero-load latency of one message (the models predict "
                      "no percentile).");
    }
    if (!r->certified && !r->check_mode)
        dse_report_line_add(lines, count, "The rounds ended because the %s. Raise "
            "simulation.max_designs to settle it.", r->stop_reason);
}

/* Warnings: models never measured, a simulated rate above its bound,
 * and pairs the models and the simulator order differently. */
static void warning_lines(const dse_run *r, char ***lines, size_t *count)
{
    char label[200];
    size_t unmeasured = 0;
    for (size_t i = 0; i < r->ncand; i++)
        unmeasured += r->cand[i].model && !r->cand[i].band_measured;
    if (unmeasured)
        dse_report_line_add(lines, count, "%zu design(s) have a model whose "
            "error band was never measured; their optimistic bounds are the "
            "physical screen.", unmeasured);
    size_t above = 0, first_above = SIZE_MAX;
    for (size_t i = 0; i < r->ncand; i++)
        if (r->cand[i].sim && r->cand[i].sim_above_bound && above++ == 0)
            first_above = i;
    if (above)
        dse_report_line_add(lines, count, "WARNING: %zu simulated design(s) "
            "sustain a rate above their channel-load bound (%s: %.5f "
            "against %.5f): a bug in the bound or in the simulator's "
            "saturation search. The rates are kept as measured, not capped.",
            above, label_of(r, first_above, label, sizeof label),
            r->cand[first_above].sim_saturation,
            r->cand[first_above].bound_rate);
    if (r->ndisagree)
        dse_report_line_add(lines, count, "The models and the simulator order %zu pair(s) "
            "of simulated designs the other way round at some target rate "
            "(table \"Where the models and the simulator disagree\").",
            r->ndisagree);
}

char **dse_report_verdict(const dse_run *r, size_t *count)
{
    char **lines = NULL;
    *count = 0;
    if (r->recommended == SIZE_MAX) {
        model_only_verdict(r, &lines, count);
        return lines;
    }
    recommendation_line(r, &lines, count);
    rate_lines(r, &lines, count);
    model_choice_line(r, &lines, count);
    certainty_lines(r, &lines, count);
    warning_lines(r, &lines, count);
    dse_report_clock_lines(r, &lines, count);
    return lines;
}

void report_table_decision(const dse_run *r, rtable *t)
{
    const cfg_study *s = r->study;
    rtable_init(t, 5);
    rtable_cell(t, "rate");
    rtable_cell(t, "best (simulated %s)", dse_report_ranked_name(s));
    rtable_cell(t, "tied with it");
    rtable_cell(t, "recommended");
    rtable_cell(t, "models' choice");
    char label[200];
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        size_t b = r->best_at_rate ? r->best_at_rate[ri] : SIZE_MAX;
        rtable_cell(t, "%g", s->rates.v[ri]);
        if (b == SIZE_MAX) {
            rtable_cell(t, "none sustains it");
        } else {
            double hw, l = dse_report_ranked(s, &r->cand[b], ri, &hw);
            rtable_cell(t, "%s: %.1f ± %.1f", label_of(r, b, label, sizeof label),
                        l, hw);
        }
        char *ties = NULL;
        for (size_t f = 0; f < r->nfinalists; f++) {
            size_t i = r->finalists[f];
            if (i == b || !r->cand[i].sim[ri].tied_best)
                continue;
            cat(&ties, "%s%s", ties ? "; " : "",
                label_of(r, i, label, sizeof label));
        }
        rtable_cell(t, "%s", ties ? ties : "-");
        free(ties);
        size_t who[2] = {r->recommended, r->model_choice};
        for (int k = 0; k < 2; k++) {
            if (who[k] == SIZE_MAX || !r->cand[who[k]].sim) {
                rtable_cell(t, "-");
                continue;
            }
            const dse_sim_point *p = &r->cand[who[k]].sim[ri];
            double hw, l = dse_report_ranked(s, &r->cand[who[k]], ri, &hw);
            if (!isfinite(l))
                rtable_cell(t, "saturates (%.5f)", r->cand[who[k]].sim_saturation);
            else
                rtable_cell(t, "%.1f ± %.1f (rank %d at this rate)", l, hw,
                            p->rank);
        }
    }
}

void report_table_disagreements(const dse_run *r, rtable *t)
{
    rtable_init(t, 4);
    rtable_cell(t, "rate");
    rtable_cell(t, "the models put first");
    rtable_cell(t, "the simulator puts first");
    rtable_cell(t, "simulated mean latencies");
    char a[200], b[200];
    for (size_t q = 0; q < r->ndisagree; q++) {
        const dse_disagreement *d = &r->disagree[q];
        const dse_candidate *m = &r->cand[d->model_better];
        const dse_candidate *sb = &r->cand[d->sim_better];
        rtable_cell(t, "%g", r->study->rates.v[d->rate]);
        rtable_cell(t, "%s", label_of(r, d->model_better, a, sizeof a));
        rtable_cell(t, "%s", label_of(r, d->sim_better, b, sizeof b));
        double lm = dse_report_latency(m, d->rate, NULL);
        double ls = dse_report_latency(sb, d->rate, NULL);
        if (isfinite(lm))
            rtable_cell(t, "%.1f vs %.1f", lm, ls);
        else
            rtable_cell(t, "saturated vs %.1f", ls);
    }
}
