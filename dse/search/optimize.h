/*
 * optimize.h — the main job: screen a study's design space with the
 * analytic models, let the simulator decide (docs/decision.md).
 *
 * Data flow (docs/architecture.md, "The optimizer's executors"):
 *   space (dse/study/space.c) -> score every design (pool of threads; one
 *   job per design: model at each target rate, saturation rate, costs, the
 *   physical bound) -> model Pareto rank (the screen; excludes nothing) ->
 *   decision rounds (dse/search/decide.c): simulate the best design of each
 *   shape at each rate, then every design whose optimistic bound (model
 *   widened by its measured error band) could still reach the simulated
 *   front, each with its simulated saturation rate; stop when none can
 *   (certified) or the budget is spent -> rank per target rate on
 *   simulated figures (CI overlaps are ties) -> the recommendation.
 * The run's results live in a dse_run, which the report writers read.
 */
#ifndef DSE_OPTIMIZE_H
#define DSE_OPTIMIZE_H

#include <signal.h>
#include <stddef.h>

#include "dse/study/cfg.h"
#include "constraints/cons.h"
#include "models/model.h"
#include "net/net.h"
#include "dse/common/progress.h"
#include "dse/study/space.h"

/* Simulation of one finalist at one target rate, over the study's seeds. */
typedef struct dse_sim_point {
    double rate;
    double latency;          /* mean over seeds (cycles); NAN if saturated */
    double half_width;       /* 95% CI half-width (cycles) */
    double network_latency, source_wait;
    double accepted;         /* accepted messages/node/cycle (also when
                                saturated: what the network delivered) */
    double p50, p95, p99, max_latency; /* latency percentiles and maximum
                                (cycles; percentiles averaged over seeds,
                                within 1/128; sim.h); NAN if saturated */
    double p50_half_width, p95_half_width, p99_half_width; /* 95% CI of the
                                percentiles from the seeds' spread (cycles;
                                0 for one seed) */
    double mean_hops;
    long messages;           /* measured, all seeds */
    int saturated;           /* any seed saturated */
    int seeds;
    double model_latency;    /* the model at the same rate; NAN if saturated */
    double error_pct;        /* (model - sim) / sim x 100; NAN if either
                                saturated */
    int skipped;             /* not run: the rate is above the design's
                                simulated saturation interval (saturated
                                is set too) */
    int rank;                /* 1-based among the simulated designs that
                                sustain this rate (0: saturated) */
    int tied_best;           /* its CI overlaps the best design's here */
} dse_sim_point;

typedef struct dse_candidate {
    net_design design;
    const model *model;      /* static registry entry */
    cons_cost cost;
    int flits;               /* message length in flits at this width */
    double zero_load;        /* model latency at rate -> 0 */
    double saturation_rate;  /* model, msgs/node/cycle */
    double *latency;         /* [nrates] model latency; NAN when saturated */
    int saturated_at_target; /* saturates at or below a target rate: not
                                ranked (rank -1) */
    double objectives[CFG_MAX_OBJECTIVES]; /* minimisation form (negated
                                              when maximised); NAN when not
                                              ranked */
    int rank;                /* Pareto rank on model values, -1 unranked */
    double crowding;
    int finalist;            /* 1-based order among finalists, 0 = not one */
    dse_sim_point *sim;      /* [nrates] for finalists, else NULL */
    dse_sim_point *curve;    /* [ncurve] the simulated load curve's other
                                points (one replication each, rising
                                rates, light load to past saturation:
                                DSE_CURVE_FRACTIONS of sim_saturation);
                                NULL when not simulated */
    size_t ncurve;
    int sim_rank;            /* Pareto rank among finalists on simulated
                                latency, -1 when not simulated */
    double max_abs_error_pct;/* over rates where both are finite; NAN if none */
    int disagrees;           /* max_abs_error_pct > study tolerance */
    int score_rc;            /* 0, or the ERR_* scoring hit */
    /* The decision (dse/search/decide.c). */
    double bound_rate;       /* channel-load bound (models/bound.c); NAN
                                when it could not be computed */
    double exact_zero_load;  /* exact zero-load latency (a lower bound of
                                the simulated mean latency); NAN likewise */
    double min_zero_load;    /* the smallest zero-load latency of any one
                                message (a lower bound of every simulated
                                latency percentile); NAN likewise */
    double opt_saturation;   /* optimistic saturation rate: the model's
                                widened by its band, at most the bound */
    int band_measured;       /* the model's band was measured (else the
                                default band) */
    int band_covers;         /* the band bounds this design: measured, and
                                the design inside the regime of the model's
                                validation set-ups; else the optimistic
                                bound is the physical screen alone */
    int sim_round;           /* decision round it was simulated in, 0:
                                not simulated */
    double sim_saturation;   /* simulated saturation rate, NAN if not
                                simulated; ..._lo/_hi its interval */
    double sim_saturation_lo, sim_saturation_hi;
    double probe_rate;       /* the saturation screen's probe (decide.c):
                                a simulated design beat this design's
                                optimistic latency at every target rate
                                below this rate, which is at most its own
                                saturation floor, so only sustaining it
                                could reach the front; one probe of the
                                saturation search here asked whether it
                                saturates below; 0: not probed */
    int probe_unstable;      /* the probe was unstable: the saturation rate
                                lies below probe_rate, which then caps the
                                optimistic saturation */
    int sim_above_bound;     /* sim_saturation_lo > bound_rate (the whole
                                simulated interval above): the bound or
                                the simulator is wrong; reported loudly */
    long dominated_by;       /* index of the simulated design whose figures
                                beat even this design's optimistic bound;
                                -1: none (simulated, or never ruled out) */
    double clock_scale;      /* the design's clock period over the run's
                                reference clock (dse_run.clock_ref_ns) when
                                the study's designs have clocks of their
                                own; 0 or 1: one clock for all.  Every
                                figure above is in cycles of the reference
                                clock: the design is scored and simulated
                                at the target rates x clock_scale per cycle
                                of its own, its latencies are multiplied by
                                clock_scale and its rates divided by it */
} dse_candidate;

/* c's clock scale (dse_candidate.clock_scale; 1 when unset). */
double dse_clock_scale(const dse_candidate *c);

/* Design d's clock period in ns when the study's router model gives each
 * design a clock of its own (Chien's: the router's flit time,
 * docs/router-cost.md), else NAN (every design shares the clock). */
double dse_design_clock_ns(const cfg_study *s, const net_design *d);

/* The cost metric m of c (NAN for an unknown metric): what a cost(...)
 * objective compares. */
double dse_cost_metric(const cons_cost *c, cfg_cost_metric m);


/* The latency figure of statistic st (mean or a percentile) at point p
 * and, when half_width is not NULL, its 95% half-width; NAN when the point
 * has none (saturated, not run). */
double dse_point_latency(const dse_sim_point *p, cfg_latency_stat st,
                         double *half_width);

/* The offered rates, as fractions of a simulated design's simulated
 * saturation rate, at which it is simulated once more (one replication)
 * besides the target rates, so that its load curve runs from light load to
 * past saturation; not ranked on (the decision uses the target rates). */
#define DSE_CURVE_FRACTIONS {0.2, 0.5, 0.8, 0.95, 1.15, 1.5}
#define DSE_CURVE_POINTS 6

/* A place where the models and the simulator order two designs
 * differently at one target rate (neither order a tie on the simulated
 * side). */
typedef struct dse_disagreement {
    size_t rate;             /* index into the study's rates */
    size_t model_better;     /* cand index the model puts first */
    size_t sim_better;       /* cand index the simulator puts first */
} dse_disagreement;

typedef struct dse_run {
    const cfg_study *study;  /* borrowed */
    dse_space space;         /* owned */
    dse_candidate *cand;     /* [ncand], one per feasible design */
    size_t ncand;
    size_t *finalists;       /* indices into cand, in finalist order */
    size_t nfinalists;
    size_t nranked;          /* candidates with rank >= 0 */
    size_t nsaturated_at_target;
    size_t evaluations;      /* model evaluations made (rates + saturation
                                searches count one each) */
    const char *strategy;    /* "exhaustive" or "nlopt" */
    double seconds_space, seconds_score, seconds_sim, seconds_total;
    dse_phase_time *phases;  /* [nphases] what each progress phase of the
                                run cost, in order (empty without a
                                progress) */
    size_t nphases;
    int interrupted;
    /* The decision (NULL/SIZE_MAX/0 with --no-sim). */
    double clock_ref_ns;     /* the reference clock when the designs'
                                clocks differ: the fastest design's period
                                (ns), and every figure of the run is in its
                                cycles (dse_candidate.clock_scale); 0 when
                                the designs share one clock */
    size_t recommended;      /* cand index; SIZE_MAX: nothing simulated */
    size_t runner_up;        /* next best simulated design; SIZE_MAX */
    size_t model_choice;     /* what the models alone would have picked */
    size_t *best_at_rate;    /* [nrates] cand index, SIZE_MAX: none */
    int rounds;              /* decision rounds run */
    size_t nsimulated;       /* designs simulated */
    size_t nuncertified;     /* unsimulated designs whose optimistic bound
                                could still reach the front at the end */
    int certified;           /* 1: the rounds ended because none could */
    int check_mode;          /* every feasible design simulated (the
                                check mode): nothing left to certify */
    char stop_reason[160];   /* why the rounds ended, for a human */
    int seeds_used;          /* replications per simulated point */
    dse_disagreement *disagree;
    size_t ndisagree;
    /* Jobs the executor gave up on (the farm's dead-letter stream): set by
     * the caller after the run, borrowed; reported, never hidden. */
    const char *const *job_failures;
    size_t njob_failures;
} dse_run;

struct sim_params;
struct sim_result;
struct sim_saturation_result;

/* Where the optimizer's three batches of independent jobs (scoring,
 * simulations at the target rates, saturation searches) run.  NULL in
 * dse_optimize_opts means the local thread pool; the Redis farm
 * (dse/farm*.c) supplies its own.  Both calls must give results that
 * depend only on the jobs (never on scheduling), so local and farm runs of
 * a study are identical. */
typedef struct dse_executor {
    /* Score designs idx[0..n) of r->space into r->cand[idx[q]] (as
     * dse_score_design does); add the model evaluations made to
     * *evaluations. */
    int (*score)(void *self, const cfg_study *s, dse_run *r, const size_t *idx,
                 size_t n, size_t *evaluations, dse_progress *progress,
                 volatile sig_atomic_t *stop, err *e);
    /* Run simulations jobs[0..n) into results[] with sim_run's return code
     * in codes[]. */
    int (*simulate)(void *self, const struct sim_params *jobs, size_t n,
                    struct sim_result *results, int *codes,
                    dse_progress *progress, volatile sig_atomic_t *stop,
                    err *e);
    /* Run saturation searches jobs[0..n) (sim_saturation of each) into
     * results[] with its return code in codes[].  NULL: the optimizer runs
     * them on the local pool. */
    int (*saturate)(void *self, const struct sim_params *jobs, size_t n,
                    struct sim_saturation_result *results, int *codes,
                    dse_progress *progress, volatile sig_atomic_t *stop,
                    err *e);
    void *self;
} dse_executor;

typedef struct dse_optimize_opts {
    int threads;             /* <= 0: all cores */
    int quiet;
    int skip_sim;            /* rank on models only (--no-sim) */
    int simulate_all;        /* check mode: simulate every feasible design
                                (--simulate-all; bench/decide.c) */
    int no_curves;           /* skip the load curves' extra simulations
                                (bench/decide.c: the decision only) */
    volatile sig_atomic_t *stop;  /* set by SIGINT; may be NULL */
    dse_progress *progress;  /* may be NULL */
    const dse_executor *executor; /* NULL: local thread pool */
} dse_optimize_opts;

/* Run the study.  0, ERR_INTERRUPTED (stop flag), or another ERR_* with e.
 * Call dse_run_fini in every case. */
int dse_optimize(const cfg_study *s, const dse_optimize_opts *o, dse_run *r,
                 err *e);

/* How many of r's designs the decision's saturation screen probed
 * (dse_candidate.probe_rate > 0). */
size_t dse_run_probed(const dse_run *r);

void dse_run_fini(dse_run *r);

/* Model figures of c scored at its own clock's rates (the target rates x
 * scale, as dse_score_design does on a farm worker, whose study has one
 * clock) into cycles of the reference clock: latencies x scale, rates /
 * scale, and the objectives they make.  Nothing changes at scale 1. */
void dse_candidate_scores_to_reference(const cfg_study *s, dse_candidate *c,
                                       double scale);

/* Score one design with model m (model at each target rate, saturation
 * rate, costs) into c (c->latency must hold study->rates.n doubles).
 * Shared by the local executor and the farm's workers.  Returns 0 or the
 * ERR_* that stopped scoring (c->score_rc too).  With c->clock_scale
 * set, at the target rates x that scale, in reference cycles. */
int dse_score_design(const cfg_study *s, const net_design *d, const model *m,
                     dse_candidate *c, size_t *evaluations);

/* Model-vs-simulation disagreement (max |error| over the target rates, in
 * percent) above which a finalist is flagged. */
double dse_study_tolerance_pct(const cfg_study *s);

#endif
