/*
 * decide.h — the analytic models screen, the simulator decides.
 *
 * After every design is scored by its model (optimize.c), the decision runs
 * in rounds (docs/decision.md is the architect's version):
 *
 *   1. Each design gets an optimistic bound: its model's latency at each
 *      target rate and its saturation rate, widened by the model's error
 *      band as `dse validate` measured it (dse/common/bands.h), never
 *      better than physics allows (exact zero-load latency, channel-load
 *      bound: models/bound.c).
 *   2. Round 1 simulates the best design, by its model, of each shape
 *      (topology, dimensions, radices, channel width, express layout) at
 *      each target rate, and the design the models alone would pick:
 *      first the models' overall leaders (round 1a), then the rest of
 *      those not already ruled out by their simulations (round 1b).
 *   3. Every later round simulates the unsimulated designs whose optimistic
 *      bound is not dominated by a simulated design's figures (the
 *      pessimistic end of their confidence intervals): those that could
 *      still reach the simulated front, most promising first.
 *   4. The rounds stop when no design can (the front is then certified
 *      against the models' measured error) or when the study's simulation
 *      budget (simulation.max_designs) is spent; the run says which.
 *   5. The simulated designs are ranked per target rate (CI overlaps with
 *      the best are ties) and Pareto-ranked on the study's objectives with
 *      simulated figures; the recommendation is the front design that is
 *      best or tied at the most target rates.
 *
 * The simulation itself is a callback (dse_sim_oracle) so that the rounds
 * can be tested against a synthetic "truth" in microseconds, and so that
 * the same rounds run on the local pool or the Redis farm.
 */
#ifndef DSE_SEARCH_DECIDE_H
#define DSE_SEARCH_DECIDE_H

#include <signal.h>
#include <stddef.h>

#include "dse/search/optimize.h"

/* Simulates designs: for each q < n, fills r->cand[idx[q]].sim (allocated
 * by the callee, study->rates.n points), sim_saturation and its interval.
 * 0, ERR_INTERRUPTED, or another ERR_* with e. */
typedef struct dse_sim_oracle {
    int (*simulate)(void *self, const cfg_study *s, dse_run *r,
                    const size_t *idx, size_t n, err *e);
    void *self;
    /* Optional (NULL: every open design is simulated whole): one probe of
     * the saturation search per design r->cand[idx[q]] at rate[q]
     * (sim_params.saturation_ceiling), setting probe_rate = rate[q] and
     * probe_unstable (0 also when the probe failed); sim stays NULL. */
    int (*probe)(void *self, const cfg_study *s, dse_run *r,
                 const size_t *idx, const double *rate, size_t n, err *e);
} dse_sim_oracle;

/* Run the decision rounds over r's scored candidates and fill the
 * decision fields of r and of every candidate (finalists become the
 * simulated designs in decision order).  threads sizes a round.
 * simulate_all: the check mode, every design in round 1, whatever the
 * budget (bench/decide.c: the regret of the decision against the truth).
 * 0, ERR_INTERRUPTED or the oracle's error. */
int dse_decide(const cfg_study *s, dse_run *r, const dse_sim_oracle *oracle,
               int threads, int simulate_all, dse_progress *progress,
               volatile sig_atomic_t *stop, err *e);

/* Pieces the rounds are made of, for tests. */

/* Bound, exact zero-load latency and optimistic saturation of c (its
 * model's band widened figures, never above the bound). */
void dse_decide_bounds(const cfg_study *s, dse_candidate *c);
/* c's optimistic latency at target rate ri: INFINITY when even the
 * optimistic saturation rate does not exceed the rate. */
double dse_optimistic_latency(const cfg_study *s, const dse_candidate *c,
                              size_t ri);
/* c's optimistic figure of statistic st (decide.c: the mean's is
 * dse_optimistic_latency; a percentile's, the smallest zero-load latency
 * of one message, less the percentile estimator's error, at every rate
 * below the optimistic saturation rate); INFINITY likewise. */
double dse_optimistic_figure(const cfg_study *s, const dse_candidate *c,
                             size_t ri, cfg_latency_stat st);
/* Flag c when its simulated saturation rate is above the channel-load
 * bound (c->bound_rate, set by dse_decide_bounds) by more than the
 * search's own resolution, i.e. when the whole simulated interval lies
 * above it: no network carries more than one flit per cycle over its
 * busiest channel, so either the bound or the simulator's search is
 * wrong.  The rate is kept as measured (the
 * report and results.json say so; a cap would hide the bug and decide ties
 * on a number nobody measured).  Returns c->sim_above_bound. */
int dse_check_sim_saturation(dse_candidate *c);
/* 1 when the simulated design y's figures (pessimistic ends of its
 * intervals) are at least as good as x's optimistic bound on every
 * objective of the study: x cannot reach the front y is on. */
int dse_rules_out(const cfg_study *s, const dse_candidate *y,
                  const dse_candidate *x);

#endif
