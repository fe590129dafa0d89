/*
 * bench/decide.c — is the decision right?  The check an architect would
 * make: simulate every feasible design of a study and see whether the
 * recommendation would change.
 *
 *   bench_decide STUDY.yaml [-j THREADS]
 *
 * 1. `dse optimize`'s decision as usual (rounds, budget, certification).
 * 2. The check mode (dse_optimize_opts.simulate_all): every feasible
 *    design simulated with the same seeds, so a design simulated by both
 *    runs has the same figures bit for bit.
 * Prints, per target rate, the recommendation's simulated latency against
 * the best over all feasible designs (regret, and whether it lies within
 * the two 95% intervals), the designs the decision simulated against all,
 * whether the certified Pareto front is the front of all designs, how many
 * simulated saturation rates lie above their channel-load bound, and the
 * wall and CPU time of both runs; with -o DIR it also writes both
 * reports (DIR/decision, DIR/check).  A bench: it asserts nothing and
 * exits 0 unless a run cannot start.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse/common/bands.h"
#include "dse/common/progress.h"
#include "dse/report/report.h"
#include "dse/search/optimize.h"
#include "dse/validate/validate.h"

static int run(const cfg_study *s, int threads, int all, dse_run *r,
               double *wall, double *cpu)
{
    dse_progress progress;
    dse_progress_init(&progress, stderr, 0);
    dse_optimize_opts o = {.threads = threads, .simulate_all = all,
                           .no_curves = 1, .progress = &progress};
    err e;
    double w0 = dse_now_s(), c0 = dse_cpu_s();
    int rc = dse_optimize(s, &o, r, &e);
    *wall = dse_now_s() - w0;
    *cpu = dse_cpu_s() - c0;
    dse_progress_fini(&progress);
    if (rc)
        fprintf(stderr, "bench_decide: %s\n", e.msg);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_decide STUDY.yaml [-j THREADS] "
                "[-o DIR]\n");
        return 2;
    }
    dse_bands_set_coverage(dse_validate_covers);
    int threads = 0;
    const char *out = NULL;      /* DIR/decision, DIR/check: both reports */
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-j") == 0)
            threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-o") == 0)
            out = argv[i + 1];
    }
    cfg_study s;
    err e;
    if (cfg_study_load(argv[1], &s, &e)) {
        char buf[2048];
        fprintf(stderr, "%s\n", err_format(&e, buf, sizeof buf));
        return 2;
    }
    dse_run dec, all;
    double dw, dc, aw, ac;
    if (run(&s, threads, 0, &dec, &dw, &dc) ||
        run(&s, threads, 1, &all, &aw, &ac))
        return 1;
    printf("study %s: %zu feasible designs\n", s.name, all.ncand);
    printf("decision:   %zu designs simulated in %d rounds (%s); %.0f s "
           "wall, %.0f s CPU\n",
           dec.nsimulated, dec.rounds, dec.certified ? "certified" : "budget spent",
           dw, dc);
    printf("check mode: %zu designs simulated; %.0f s wall, %.0f s CPU\n",
           all.nsimulated, aw, ac);
    if (dec.recommended == SIZE_MAX) {
        printf("no recommendation\n");
        return 0;
    }
    /* the same design in the check run (same index: same space) */
    size_t rec = dec.recommended;
    char label[200];
    dse_design_label(&all.cand[rec].design, label, sizeof label);
    printf("recommended: %s\n", label);
    if (all.recommended != SIZE_MAX) {
        dse_design_label(&all.cand[all.recommended].design, label, sizeof label);
        printf("check mode would recommend: %s%s\n", label,
               all.recommended == rec ? " (the same)" : "");
    }
    int within_all = 1;
    for (size_t ri = 0; ri < s.rates.n; ri++) {
        size_t b = all.best_at_rate[ri];
        const dse_sim_point *p = &all.cand[rec].sim[ri];
        if (b == SIZE_MAX) {
            printf("rate %g: no feasible design sustains it\n", s.rates.v[ri]);
            continue;
        }
        const dse_sim_point *q = &all.cand[b].sim[ri];
        dse_design_label(&all.cand[b].design, label, sizeof label);
        if (p->saturated || !isfinite(p->latency)) {
            printf("rate %g: recommendation saturates; best %s %.1f ± %.1f\n",
                   s.rates.v[ri], label, q->latency, q->half_width);
            within_all = 0;
            continue;
        }
        int within = p->latency - p->half_width <= q->latency + q->half_width;
        within_all &= within;
        printf("rate %g: recommendation %.1f ± %.1f, best of all %.1f ± %.1f "
               "(%s): regret %+.1f%%, %s\n",
               s.rates.v[ri], p->latency, p->half_width, q->latency,
               q->half_width, label, 100 * (p->latency / q->latency - 1),
               within ? "within the CIs" : "OUTSIDE the CIs");
    }
    printf("verdict: the recommendation is %s at every target rate\n",
           within_all ? "best or tied with the best" : "NOT best or tied");
    /* the certified front against the front of all designs (the same
     * index is the same design; a design both runs simulated has the same
     * figures) */
    size_t missing = 0, extra = 0, above = 0, point_above = 0;
    for (size_t i = 0; i < all.ncand; i++) {
        int in_all = all.cand[i].sim_rank == 0;
        int in_dec = dec.cand[i].sim && dec.cand[i].sim_rank == 0;
        above += all.cand[i].sim_above_bound;
        point_above += all.cand[i].sim_saturation > all.cand[i].bound_rate;
        if (in_all == in_dec)
            continue;
        dse_design_label(&all.cand[i].design, label, sizeof label);
        printf("front: %s is %s\n", label,
               in_all ? "on the front of all designs, not on the decision's"
                      : "on the decision's front, dominated among all");
        missing += in_all;
        extra += !in_all;
    }
    printf("front: the certified front %s the simulate-everything front "
           "(%zu missing, %zu extra)\n", missing + extra ? "DIFFERS FROM"
                                                          : "equals",
           missing, extra);
    printf("bound: %zu simulated saturation interval(s) wholly above the "
           "channel-load bound; %zu point estimate(s) above it\n", above,
           point_above);
    if (out) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/decision", out);
        int bad = dse_report_write(&dec, dir, &e);
        snprintf(dir, sizeof dir, "%s/check", out);
        if (!bad)
            bad = dse_report_write(&all, dir, &e);
        if (bad)
            fprintf(stderr, "bench_decide: %s\n", e.msg);
        else
            printf("reports: %s/decision, %s/check\n", out, out);
    }
    dse_run_fini(&dec);
    dse_run_fini(&all);
    cfg_study_fini(&s);
    return 0;
}
