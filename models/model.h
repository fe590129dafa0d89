/*
 * model.h — the uniform interface of dse's analytic latency models.
 *
 * A model is a table entry (struct model), not a switch statement: the
 * registry (models/registry.c) lists every model, model_for() picks the one
 * that covers a (design, workload), and callers never name a model's
 * functions directly.  Each model lives in its own file, named after the
 * model (torus2d-duato -> models/torus2d_duato.c), and cites its source
 * (docs/sources.md) and section in its header comment.
 *
 * Shared machinery (model_int.h): the VC occupancy chain (B1), the
 * multiplexing degree (B2), M/G/1 and M/D/1 waits (B3), and the damped
 * fixed-point solver with the saturation protocol of B7.
 *
 * Units: rates in messages/node/cycle, times in cycles.
 * Thread safety: models keep no state between calls; every function here is
 * safe to call from many threads at once.
 */
#ifndef DSE_MODEL_H
#define DSE_MODEL_H

#include <stddef.h>

#include "net/net.h"

/* Which reading of a model's source.
 *   recommended  the source's equations with its typos resolved
 *                ([fix] and [recommended] items of the model's "as
 *                printed" entry under docs/models/)
 *   printed      the equations as printed, to reproduce the papers' own
 *                figures (`dse model --variant printed`)
 *   corrected    recommended, plus the corrections in force for that model
 *                (docs/models/corrected.md, "Corrections in force": one
 *                entry per correction with the models it applies to).
 *                Each is a re-derivation from the simulated semantics,
 *                none a fitted constant.  A model without an entry there
 *                evaluates corrected as recommended.  The default. */
typedef enum {
    MODEL_VARIANT_RECOMMENDED = 0,
    MODEL_VARIANT_PRINTED = 1,
    MODEL_VARIANT_CORRECTED = 2,
} model_variant;
#define MODEL_VARIANT_COUNT 3

/* "recommended", "printed", "corrected". */
const char *model_variant_name(model_variant v);
/* 0 and *v set when name is a variant's name, else -1. */
int model_variant_parse(const char *name, model_variant *v);

typedef struct model_opts {
    model_variant variant;
    double tolerance;        /* relative convergence tolerance (1e-9) */
    int max_iterations;      /* fixed-point iteration cap (10000) */
    double damping;          /* x <- (1-d) x + d f(x); 1 = undamped (0.5) */
} model_opts;

typedef enum {
    MODEL_CONVERGED = 0,     /* steady state found; latency fields valid */
    MODEL_SATURATED = 1,     /* no steady state at this rate */
    MODEL_NOCONVERGE = 2,    /* iteration cap hit without a verdict */
} model_status;

typedef struct model_result {
    double latency;          /* mean message latency, cycles, generation to
                                last flit consumed */
    double network_latency;  /* time in the network, before VC multiplexing
                                scaling */
    double source_wait;      /* mean wait in the injection queue */
    double vc_multiplexing;  /* average multiplexing degree applied (1 = none) */
    double broadcast_latency;/* broadcast completion latency where the model
                                gives one (M10), else 0 */
    int saturated;           /* 1 unless status == MODEL_CONVERGED; the
                                latency fields are then 0 */
    model_status status;
    int iterations;          /* fixed-point iterations used */
} model_result;

typedef struct model {
    const char *name;        /* "torus-duato", "dcsh-det-vc", ... */
    const char *source;      /* source id (docs/sources.md) and section of
                                the equations */
    const char *summary;     /* one line: what it covers, for --list */
    /* 0 if this model covers (design, workload); else -1 and a reason. */
    int (*covers)(const net_design *d, const net_workload *w, char *why,
                  size_t why_size);
    /* Evaluate at `rate`.  Always fills *out; returns 0 when converged,
     * ERR_SATURATED or ERR_NOCONVERGE otherwise (never NaN, never a negative
     * latency).  The design and workload must be covered. */
    int (*eval)(const net_design *d, const net_workload *w, double rate,
                const model_opts *opts, model_result *out);
    /* The model's closed-form latency at rate -> 0
     * (docs/models/conventions.md, "Zero-load closed forms"), so tests
     * can check eval() against it. */
    double (*zero_load)(const net_design *d, const net_workload *w,
                        const model_opts *opts);
    /* Fill (d, w) with one of the source's own validation set-ups, a
     * configuration the model covers; generic tests and bench/models start
     * from it. */
    void (*example)(net_design *d, net_workload *w);
} model;

/* Defaults: corrected variant, tolerance 1e-9, 10000 iterations,
 * damping 0.5. */
void model_opts_init(model_opts *opts);

/* Every registered model, in priority order; *count set.  Static data. */
const model *const *model_registry(size_t *count);
/* The model with this name, or NULL. */
const model *model_find(const char *name);
/* The first model in priority order that covers (d, w); NULL with the
 * reasons of all models in why when none does. */
const model *model_for(const net_design *d, const net_workload *w, char *why,
                       size_t why_size);

/* Largest rate at which eval() still converges, found by bisection on the
 * first failure to 0.1% relative precision (docs/models/conventions.md, B7),
 * and never above
 * the channel-load bound (model_bound_compute).  Returns 0 and sets *rate,
 * or a negative ERR_* (no positive rate converges). */
int model_saturation_rate(const model *m, const net_design *d,
                          const net_workload *w, const model_opts *opts,
                          double *rate, err *e);

/* ---- the physical screen (models/bound.c) ----------------------------
 * What no model may contradict: the exact zero-load latency and the
 * channel-load bound on the saturation rate (no network can carry more
 * than one flit per cycle over its busiest channel).  Every model's eval()
 * reports MODEL_SATURATED at rates >= rate, and model_saturation_rate()
 * never returns more than rate. */
typedef struct model_bound {
    double rate;        /* channel-load bound on the saturation rate,
                           messages/node/cycle: 1 / (load x flits) */
    double load;        /* messages per cycle over the busiest channel (or
                           channel-class mean, where the routing may choose)
                           per unit injection rate */
    double flits;       /* mean message length Lm, flits */
    double hops;        /* exact mean channel hops of a message */
    double zero_load;   /* exact zero-load latency, cycles: hops (1 + Dr) +
                           Lm (PCS: hops (3 + Dr) + Lm), as sim/sim.h;
                           router=pipelined: the stage, link and credit
                           stall sum of sim/pipe.c (bound.c) */
    double min_zero_load; /* the smallest zero-load latency any one message
                           of the workload can have: the nearest
                           destination the traffic sends to, the shortest
                           message (1 flit when lengths are exponential).
                           No message is delivered faster, so every
                           latency percentile is at least this */
    char channel[64];   /* the binding class: "injection", "ejection",
                           "dim 0 +", "dim 1 express -", ... */
} model_bound;

/* Fill *b for (d, w): any design and workload the simulator or a model
 * supports (uniform, hotspot, transpose, bit_reversal, shuffle; broadcast
 * on the torus and the DCSH).  Returns 0; ERR_INFEASIBLE / ERR_INVALID
 * when net_check or net_workload_check fails, ERR_UNSUPPORTED for
 * broadcast elsewhere, with the reason in e (may be NULL). */
int model_bound_compute(const net_design *d, const net_workload *w,
                        model_bound *b, err *e);

/* Text of a status ("converged", "saturated", "did not converge"). */
const char *model_status_name(model_status s);

#endif
