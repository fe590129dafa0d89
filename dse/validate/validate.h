/*
 * validate.h — the model validation suite behind `dse validate`: every
 * analytic model against the flit-level simulator on the set-ups its source
 * used for validation (docs/models.md), plus the model's own example.
 *
 * For each set-up (a dse_validate_config): find the simulated saturation
 * rate with short probe runs (bracket, then bisect on the simulator's
 * saturation verdict), simulate a sweep of rates from 5% to 95% of it with
 * independent replications (seeds) and confidence intervals, evaluate the
 * model at the same rates and its own saturation rate, and summarise:
 * signed error per rate, mean absolute percentage error (MAPE) at loads up
 * to 50% and up to 80% of the simulated saturation rate, and the ratio of
 * model to simulated saturation rate.  dse_validate_write_md() turns a run
 * into docs/validation.md with one SVG plot per set-up.
 *
 * Variants: the model side is evaluated under two model variants against
 * the same simulations, so the page shows what the corrections bought:
 * slot 0, the primary (opts.variant, corrected by default: what the
 * optimizer uses; it decides the verdicts), and slot 1, recommended (the
 * sources' models as docs/models resolves them), absent when the primary is
 * recommended itself.  A model evaluation costs microseconds; the
 * simulation is the expensive part and is shared.
 *
 * A set-up the simulator does not support yet (sim_supports() says
 * ERR_UNSUPPORTED) is reported as "not simulated yet" with the reason; it
 * is picked up automatically once the simulator supports it.
 *
 * Threads: the search runs one set-up per thread, the sweep one
 * (set-up, rate, seed) job per thread; results go to fixed slots, so a run
 * gives the same numbers whatever the thread count.  Charts are drawn by
 * the calling thread (PLplot is not thread-safe).
 *
 * Ownership: dse_validate_run() returns a run the caller frees with
 * dse_validate_run_destroy(); configs are borrowed (the built-in table is
 * static data).
 */
#ifndef DSE_VALIDATE_H
#define DSE_VALIDATE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "models/model.h"
#include "net/err.h"
#include "net/net.h"
#include "dse/common/bands.h"
#include "dse/common/progress.h"
#include "sim/sim.h"

/* What a set-up compares: the model's latency against the simulator's
 * mean latency (generation to last flit consumed), or against its network
 * latency (header injection to last flit; for models without a source
 * queue, M2). */
typedef enum {
    DSE_VALIDATE_LATENCY = 0,
    DSE_VALIDATE_NETWORK_LATENCY = 1,
} dse_validate_metric;

#define DSE_VALIDATE_MAX_REF 16

/* One validation set-up. */
typedef struct dse_validate_config {
    const char *model;       /* registry name of the model under test */
    const char *label;       /* short id, unique per model ("Fig.4.2b") */
    const char *origin;      /* where the set-up comes from */
    const char *design;      /* net_design_parse text on top of the model's
                                example; NULL: the example itself */
    const char *workload;    /* likewise for the workload */
    int quick;               /* 1: part of the --quick subset */
    int short_sweep;         /* 1: a design of a shipped study (1024
                                nodes, dear to simulate): swept at the
                                run's short_fracs with short_seeds
                                replications (dse_validate_opts) */
    dse_validate_metric metric;
    /* The source's own simulation at its own rates (printed tables), or
     * nref = 0: simulated here too, shown beside ours. */
    int nref;
    double ref_rate[DSE_VALIDATE_MAX_REF];
    double ref_latency[DSE_VALIDATE_MAX_REF];
} dse_validate_config;

/* The built-in table (static data), in registry order. */
const dse_validate_config *dse_validate_configs(size_t *count);

/* 1 when model_name's validation set-ups span (d, w)'s regime: same
 * topology, routing and traffic, dimensions, longest ring and message
 * length over mean distance within the set-ups' range, mixed radices only
 * if a set-up had them (validate_regime.c).  A dse_band_covers_fn. */
int dse_validate_covers(const char *model_name, const net_design *d,
                        const net_workload *w);

/* What the source claims about its own accuracy, and the bound we read
 * that as: MAPE (percent) at loads <= 50% of saturation.  Static data. */
typedef struct dse_validate_claim {
    const char *model;
    const char *words;       /* quoted or summarised from the source */
    double mape50_bound;     /* percent */
} dse_validate_claim;
const dse_validate_claim *dse_validate_claim_for(const char *model_name);

typedef struct dse_validate_opts {
    int quick;               /* only configs with quick = 1 */
    const char *model;       /* only this model (NULL: all) */
    int threads;             /* <= 0: all online cores */
    int seeds;               /* replications per sweep point (>= 1) */
    uint64_t seed;           /* first seed */
    int nfracs;              /* sweep: loads as fractions of the simulated */
    double fracs[16];        /* saturation rate, ascending, in (0, 1) */
    int short_seeds;         /* the same for set-ups with short_sweep = 1 */
    int short_nfracs;
    double short_fracs[16];
    /* saturation search */
    long probe_warmup, probe_messages;
    double probe_precision;  /* stop when hi/lo <= 1 + precision */
    double probe_queue;      /* saturation verdict of a probe: mean source */
    double probe_ratio;      /* queue and accepted/offered thresholds
                                (sim_params saturation_queue, _ratio) */
    int probe_max;           /* probe runs at most */
    double probe_services;   /* a probe measures at least this many message
                                service times (Lm cycles each) of the
                                whole network; 0: messages only */
    /* sweep runs (SIM_STOP_CI) */
    long warmup, min_messages, max_messages;
    double ci_target;
    long max_cycles;         /* per run (0: none) */
    int model_curve_points;  /* model evaluations for the plotted curve */
    model_variant variant;   /* primary model variant (corrected); the
                                secondary is recommended, or none when the
                                primary is recommended */
    /* sim_supports(); tests may substitute their own. */
    int (*supports)(const net_design *d, const net_workload *w, err *e);
    dse_progress *progress;  /* may be NULL */
    volatile sig_atomic_t *stop; /* may be NULL */
    int overwrite;           /* may replace a full run's page and bands
                                (dse_validate_out_check) */
} dse_validate_opts;

/* Defaults for the full run (quick = 0) or the --quick subset. */
void dse_validate_opts_init(dse_validate_opts *o, int quick);

#define DSE_VALIDATE_MAX_VARIANTS 2

/* The variants a run with primary variant `primary` compares, primary
 * first: {primary, recommended}, or {recommended} alone.  Returns the
 * count (1 or 2). */
int dse_validate_variants(model_variant primary,
                          model_variant out[DSE_VALIDATE_MAX_VARIANTS]);

typedef enum {
    DSE_VALIDATE_DONE = 0,        /* compared */
    DSE_VALIDATE_NOT_SIMULATED,   /* simulator does not support it yet */
    DSE_VALIDATE_NOT_COVERED,     /* the model does not cover it (table bug) */
    DSE_VALIDATE_FAILED,          /* a run failed or deadlocked */
} dse_validate_status;

const char *dse_validate_status_name(dse_validate_status s);

/* One variant's model at one rate. */
typedef struct dse_validate_estimate {
    model_result model;
    int model_code;          /* 0 converged, else ERR_SATURATED, ... */
    double error_pct;        /* 100 (model - sim) / sim; NAN if either has
                                no value */
    double bcast_error_pct;  /* the same for the broadcast completion
                                latency (broadcast traffic; else NAN) */
} dse_validate_estimate;

typedef struct dse_validate_point {
    double frac;             /* rate / simulated saturation rate */
    double rate;
    sim_result sim;          /* replications merged */
    int sim_code;            /* 0, or what sim_run returned */
    double sim_wall_s;       /* summed over replications */
    double ref_latency;      /* the source's simulation (NAN: none) */
    /* per variant slot of the case (case.variant[k]) */
    dse_validate_estimate est[DSE_VALIDATE_MAX_VARIANTS];
} dse_validate_point;

/* One variant's model against the simulation of a case. */
typedef struct dse_validate_fit {
    double model_sat;        /* 0 when the search failed */
    double zero_load;        /* model closed form */
    double sat_ratio;        /* model_sat / sim_sat (NAN: unknown) */
    double *curve_rate, *curve_latency; /* model curve for the plot */
    int ncurve;
    /* summary (dse_validate_case_summarize) */
    double mape50, mape80;   /* NAN when no point qualifies */
    double bias50;           /* mean signed error at loads <= 50% */
    double bias80;           /* the same at loads <= 80% */
    int n50, n80;            /* points with both values */
    int msat50, msat80;      /* points where only the model saturated */
    double bcast_mape50;     /* broadcast latency, loads <= 50% (NAN: none) */
    int bcast_n50;
} dse_validate_fit;

typedef struct dse_validate_case {
    const dse_validate_config *cfg;
    const model *m;          /* NULL when the name is not registered */
    net_design design;
    net_workload workload;
    dse_validate_status status;
    char reason[512];        /* why not simulated / not covered / failed */
    /* simulated saturation: highest rate probed without a saturation
     * verdict (lo) and lowest probed with one (hi; NAN if none); the
     * simulated saturation rate is sim_sat = lo */
    double sim_sat_lo, sim_sat_hi, sim_sat;
    /* the search's ceiling: the channel-load bound (model_bound_compute;
     * the injection channel when it cannot be computed), and its busiest
     * channel.  sat_at_bound: no probe up to it saw saturation, so sim_sat
     * is the bound itself, not a probed knee */
    char bound_channel[64];
    int sat_at_bound;
    int probes;
    dse_validate_point *points;  /* sweep, npoints */
    int npoints;
    dse_validate_point *refs;    /* the source's rates, nrefs */
    int nrefs;
    int seeds;               /* replications per point (opts.seeds, or
                                opts.short_seeds for a short sweep) */
    /* the model side, per variant slot: slot 0 the primary (verdicts) */
    int nvariants;           /* 1 or 2 (0 is read as 1) */
    model_variant variant[DSE_VALIDATE_MAX_VARIANTS];
    dse_validate_fit fit[DSE_VALIDATE_MAX_VARIANTS];
    int variants_same;       /* 1: every model number of slot 1 equals
                                slot 0's (the model has no correction
                                here); set by dse_validate_case_summarize */
    /* simulation summary */
    int ssat;                /* sweep points the simulator saturated at */
    double max_ci_pct;       /* widest relative CI of the sweep */
    double sim_cpu_s;        /* simulation seconds (search + sweep) */
} dse_validate_case;

typedef struct dse_validate_result {
    dse_validate_case *cases;
    size_t ncases;
    dse_validate_opts opts;  /* as run (pointers borrowed) */
    double wall_s;
} dse_validate_result;

/* Run the suite over cfgs[0..n-1] (filtered by o->quick and o->model).
 * Returns 0 and *out (caller frees with dse_validate_run_destroy), or
 * ERR_INVALID (bad options, unknown --model) / ERR_INTERRUPTED (stopped;
 * *out is NULL).  A set-up that cannot be compared is not an error: its
 * case says why. */
int dse_validate_run(const dse_validate_config *cfgs, size_t n,
                     const dse_validate_opts *o, dse_validate_result **out,
                     err *e);
void dse_validate_run_destroy(dse_validate_result *r); /* accepts NULL */

/* For every variant slot: fill error_pct of every point's estimate and
 * the summary fields of c->fit[k] from the points, sim_sat and model_sat;
 * then c->variants_same (the runner calls it; tests call it on synthetic
 * cases). */
void dse_validate_case_summarize(dse_validate_case *c,
                                 dse_validate_metric metric);

/* The accuracy targets a compared set-up should meet: the
 * model saturates within 0.8-1.25 times the simulated saturation rate,
 * and its MAPE at loads <= 80% of it is at most 10%. */
#define DSE_VALIDATE_TARGET_SAT_LO 0.8
#define DSE_VALIDATE_TARGET_SAT_HI 1.25
#define DSE_VALIDATE_TARGET_MAPE80 10.0

/* Which targets variant slot k of case c misses: a mask of the flags
 * below; 0 when it meets both or was not compared (status not DONE).  An
 * unknown ratio or MAPE (the model's saturation search failed, or it
 * saturated at every point up to 80%) misses its target. */
#define DSE_VALIDATE_OFF_SAT 1
#define DSE_VALIDATE_OFF_MAPE80 2
int dse_validate_off_target(const dse_validate_case *c, int k);

/* Compared cases of r whose slot k misses a target; *compared (may be
 * NULL) gets the number of compared cases. */
size_t dse_validate_count_off_target(const dse_validate_result *r, int k,
                                     size_t *compared);

/* The measured error band (dse/common/bands.h) of every model of the run
 * under every variant it evaluated, in table order, slot order within a
 * model: over the model's compared set-ups, the bias and MAPE pooled over
 * every sweep point at a load <= 80% of the simulated saturation rate
 * where both sides give a latency (points where only the model saturated
 * are left out, as in MAPE <=80%), the range of simulated / model latency
 * over the same points and the range of the set-ups' saturation ratios.
 * A model with no compared set-up gets setups = 0 and NAN figures.
 * Returns a new array (*out, *count; the caller frees it with free()). */
void dse_validate_bands(const dse_validate_result *r, dse_band **out,
                        size_t *count);

/* Write dse_validate_bands(r) as CSV (bands.h's format, empty fields for
 * NAN) to path, through a temporary file and a rename.  0 or ERR_IO. */
int dse_validate_write_bands(const dse_validate_result *r, const char *path,
                             err *e);

/* The marker file every page's directory gets (docs/validation/
 * .dse-validate), in line with the report directory rule (DSE_REPORT_MARKER,
 * dse/report/report.h): its first line says whether a full run (every
 * set-up, not --quick, no --model) or a partial one wrote the page. */
#define DSE_VALIDATE_MARKER ".dse-validate"

/* May a run with options o write md_path and its directory (md_path
 * without ".md")?  Yes when neither exists (an empty directory counts as
 * absent) or when the last writer was a partial run.  A page that a full
 * run wrote (the marker says so; a page from before the marker counts as
 * full when its "Subset:" line says "full") holds the committed numbers
 * and the error bands the optimizer embeds: replacing it needs
 * o->overwrite.  Anything else at the target (a page or a directory dse
 * validate did not write: no marker) is never replaced.  Called by the CLI
 * before any simulation and again by dse_validate_write_md() before it
 * writes.  0, or ERR_CONFIG with the reason in e. */
int dse_validate_out_check(const char *md_path, const dse_validate_opts *o,
                           err *e);

/* Write the Markdown report to md_path, one SVG per compared case and the
 * error bands (error-bands.csv, dse_validate_write_bands) into the
 * directory md_path without ".md" (docs/validation.md ->
 * docs/validation/), linked relatively, and the marker
 * (DSE_VALIDATE_MARKER).  Refuses (ERR_CONFIG, nothing written) what
 * dse_validate_out_check(md_path, &r->opts) refuses.  command: the command line to
 * record; revision: the git revision.  The page is results only: no
 * hand-written text is quoted into it.  0, ERR_CONFIG or ERR_IO. */
int dse_validate_write_md(const dse_validate_result *r, const char *md_path,
                          const char *command, const char *revision,
                          err *e);

#endif
