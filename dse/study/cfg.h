/*
 * cfg.h — a study: the typed form of a study file (docs/config.md).
 *
 * A study file is read once, by cfg_study_load(), into a cfg_study; nothing
 * else in dse looks at YAML or at key names.  Every field below is already
 * validated (ranges, names, consistency between fields) and filled with its
 * default when the file did not give it, so callers use it as is.
 *
 * Errors: cfg_study_load*() return 0, or ERR_CONFIG / ERR_IO with the file,
 * the 1-based line and column and the YAML path of the offending node in
 * the err (format it with err_format: "FILE:LINE:COLUMN: PATH: message").
 * Nothing here prints.
 *
 * Ownership: a cfg_study owns its lists; cfg_study_fini() frees them.  The
 * struct must not be copied by value (the copy would share the lists).
 */
#ifndef DSE_CFG_H
#define DSE_CFG_H

#include <stddef.h>

#include "constraints/cons.h"
#include "constraints/phys.h"
#include "models/model.h"
#include "net/err.h"
#include "net/net.h"
#include "net/topology.h"

/* ---- routing schemes ----------------------------------------------------
 * A study names routing and switching together: every scheme is wormhole
 * switching with a net_routing, except "pcs" (pipelined circuit switching
 * with minimal adaptive routing and backtracking, [SKFO05]). */
#define CFG_ROUTING_LIST(X)                                                   \
    X(CFG_ROUTE_DETERMINISTIC, "deterministic", NET_ROUTE_DETERMINISTIC,     \
      NET_SWITCH_WORMHOLE)                                                    \
    X(CFG_ROUTE_DUATO, "duato", NET_ROUTE_DUATO, NET_SWITCH_WORMHOLE)        \
    X(CFG_ROUTE_PCUBE, "pcube", NET_ROUTE_PCUBE, NET_SWITCH_WORMHOLE)        \
    X(CFG_ROUTE_HOP_BASED, "hop_based", NET_ROUTE_HOP_BASED,                  \
      NET_SWITCH_WORMHOLE)                                                    \
    X(CFG_ROUTE_MINIMAL_ADAPTIVE, "minimal_adaptive",                         \
      NET_ROUTE_MINIMAL_ADAPTIVE, NET_SWITCH_WORMHOLE)                        \
    X(CFG_ROUTE_PCS, "pcs", NET_ROUTE_MINIMAL_ADAPTIVE, NET_SWITCH_PCS)

#define CFG_ENUM_(e, ...) e,
typedef enum { CFG_ROUTING_LIST(CFG_ENUM_) CFG_ROUTING_COUNT } cfg_routing;
#undef CFG_ENUM_

const char *cfg_routing_name(cfg_routing r);
/* The (routing, switching) pair a scheme stands for. */
void cfg_routing_apply(cfg_routing r, net_design *d);
/* 1 if scheme r exists on an n-dimensional `topology` (net_min_vcs >= 0 and
 * the topology restrictions of net_check: pcube and pcs on the hypercube
 * only, minimal_adaptive wormhole on the 2D torus only). */
int cfg_routing_applies(cfg_routing r, net_topology topology, int n);

/* ---- objectives -------------------------------------------------------- */
typedef enum {
    CFG_OBJ_LATENCY = 0,     /* mean message latency at the target rates: min */
    CFG_OBJ_SATURATION = 1,  /* saturation rate: max */
    CFG_OBJ_COST = 2,        /* cost (metric below): min */
} cfg_objective_kind;

#define CFG_COST_LIST(X)                                                      \
    X(CFG_COST_BISECTION, "bisection", "wires crossing the bisection")        \
    X(CFG_COST_PINS, "pins", "pins of the binding chip")                      \
    X(CFG_COST_WIRES, "wires", "wires of all network channels")               \
    X(CFG_COST_BUFFER_BITS, "buffer_bits", "bits of all VC flit buffers")    \
    X(CFG_COST_CROSSBAR_AREA, "crossbar_area",                                \
      "crossbar and input multiplexer area of all routers, tracks^2")         \
    X(CFG_COST_WIRE_LENGTH, "wire_length",                                    \
      "wire length of all channels on the chip floor plan, wire-tiles")

#define CFG_ENUM_(e, ...) e,
typedef enum { CFG_COST_LIST(CFG_ENUM_) CFG_COST_COUNT } cfg_cost_metric;
#undef CFG_ENUM_

/* Which figure of a simulated point's latency a latency objective ranks
 * on: the mean (`latency`) or a percentile (`p50_latency`, `p95_latency`,
 * `p99_latency`; sim/sim.h: within 1/128, with a 95% interval from the
 * replications' spread).  The models predict means only, so the models'
 * screen orders designs on their mean latency whatever the statistic. */
typedef enum {
    CFG_LAT_MEAN = 0,
    CFG_LAT_P50 = 1,
    CFG_LAT_P95 = 2,
    CFG_LAT_P99 = 3,
} cfg_latency_stat;

typedef struct cfg_objective {
    cfg_objective_kind kind;
    cfg_cost_metric cost;    /* CFG_OBJ_COST only */
    int maximise;            /* implied by kind: 1 for saturation only */
    cfg_latency_stat stat;   /* CFG_OBJ_LATENCY only */
} cfg_objective;

#define CFG_MAX_OBJECTIVES 6

/* "latency", "p99_latency", "saturation", "cost(bisection)", ... (static). */
const char *cfg_objective_name(const cfg_objective *o);
/* The objective named `name` (as cfg_objective_name writes it; "cost" is
 * the technology's own metric `own`): 0, or -1 for an unknown name. */
int cfg_objective_parse(const char *name, cfg_cost_metric own,
                        cfg_objective *o);
/* "mean", "p50", "p95", "p99" (static). */
const char *cfg_latency_stat_name(cfg_latency_stat st);
const char *cfg_cost_name(cfg_cost_metric c);

/* ---- search, reports ---------------------------------------------------- */
#define CFG_SEARCH_LIST(X)                                                    \
    X(CFG_SEARCH_AUTO, "auto", "exhaustive when small, else nlopt")           \
    X(CFG_SEARCH_EXHAUSTIVE, "exhaustive", "score every feasible design")     \
    X(CFG_SEARCH_NLOPT, "nlopt", "epsilon-constraint search with NLopt")

#define CFG_FORMAT_LIST(X)                                                    \
    X(CFG_FORMAT_HTML, "html", "index.html")                                  \
    X(CFG_FORMAT_MD, "md", "report.md")                                       \
    X(CFG_FORMAT_CSV, "csv", "candidates.csv")                                \
    X(CFG_FORMAT_JSON, "json", "results.json")

#define CFG_ENUM_(e, ...) e,
typedef enum { CFG_SEARCH_LIST(CFG_ENUM_) CFG_SEARCH_COUNT } cfg_search;
typedef enum { CFG_FORMAT_LIST(CFG_ENUM_) CFG_FORMAT_COUNT } cfg_format;
#undef CFG_ENUM_

const char *cfg_search_name(cfg_search s);
const char *cfg_format_name(cfg_format f);

/* The closest of names[0..count) to word when it is close enough to be a
 * typo of it (optimal string alignment distance: 1 edit for words up to 4
 * letters, 2 up to 8, else 3), or NULL.  The "did you mean" of unknown
 * YAML keys, subcommands and options. */
const char *cfg_suggest(const char *word, const char *const *names,
                        size_t count);
const char *cfg_format_file(cfg_format f);  /* "index.html", ... */

/* ---- value lists -------------------------------------------------------- */
typedef struct cfg_ints {
    int *v;                  /* owned; in the order the file gave them */
    size_t n;
} cfg_ints;

typedef struct cfg_reals {
    double *v;               /* owned; in the order the file gave them */
    size_t n;
} cfg_reals;

/* ---- the design space --------------------------------------------------- */
typedef struct cfg_space {
    net_topology topologies[NET_TOPOLOGY_COUNT]; /* in file order, distinct */
    size_t ntopologies;
    int topologies_all;      /* 1: the file said "all" */
    cfg_ints dimensions;     /* n values (a topology with a fixed radix,
                                the hypercube, ignores them: N fixes n) */
    int mixed_radices;       /* 1: every factorisation of N into n radices,
                                not just the uniform k = N^(1/n) */
    cfg_routing routings[CFG_ROUTING_COUNT];     /* in file order, distinct */
    size_t nroutings;
    int routings_all;        /* 1: "all": per topology, every scheme that
                                applies (routings[] then lists them all) */
    cfg_ints vcs;
    cfg_ints buffer_flits;
    cfg_ints params[NET_PARAM_COUNT]; /* per topology parameter
                                (net/topology.h): its axis, used by the
                                topology that has it only */
    int require_model;       /* 1: drop designs no analytic model covers */
} cfg_space;

/* ---- simulation and model settings --------------------------------------- */
typedef struct cfg_sim {
    int seeds;               /* independent replications per point */
    long warmup_messages;    /* discarded before measuring */
    long measured_messages;  /* messages measured per replication (minimum) */
    double ci_half_width;    /* target relative 95% CI half-width */
    long max_cycles;         /* hard cap per replication */
    int threads;             /* 0 = all cores */
    double tolerance_pct;    /* model-vs-simulation disagreement (max
                                |error| over the target rates, percent)
                                above which a finalist is flagged */
    int max_designs;         /* the simulation budget: designs the
                                decision may simulate (32) */
} cfg_sim;

#define CFG_NAME_MAX 128
#define CFG_DIR_MAX 1024

/* ---- area budget (budget.area) -------------------------------------------
 * Upper bounds on the area terms of docs/router-cost.md, each in its own
 * unit (their relative price is the technology's, which a study does not
 * give); 0 leaves a term unbounded.  A design gets the widest channel that
 * fits the wire or pin budget and every bound given here. */
typedef struct cfg_area_budget {
    double buffer_bits;      /* bits of all VC flit buffers */
    double crossbar_area;    /* tracks^2 of all crossbars and input muxes */
    double wire_length;      /* wire-tiles of all channels */
} cfg_area_budget;

/* ---- the study ---------------------------------------------------------- */
typedef struct cfg_study {
    char name[CFG_NAME_MAX];     /* [A-Za-z0-9_.-]+ */
    char source[ERR_FILE_MAX];   /* file it was read from (or the name given
                                    to cfg_study_load_string) */
    long nodes;                  /* N */
    cons_budget budget;          /* technology, limit or reference, rounding */
    net_workload workload;       /* message, length, traffic parameters */
    int router_delay;            /* D_r, cycles (router.model fixed's
                                    delay; the top-level key is its
                                    older spelling) */
    phys_timing_opts router;     /* how designs' routers are priced
                                    (router: {model: ...}) */
    cfg_area_budget area;        /* budget.area */
    int ejection_channels;       /* per node; 0 = unlimited */
    cfg_reals rates;             /* target rates, msgs/node/cycle, in (0, 1] */
    cfg_space space;
    cfg_objective objectives[CFG_MAX_OBJECTIVES];
    size_t nobjectives;
    int finalists;
    cfg_search search;
    cfg_sim sim;
    model_opts model;            /* variant and tolerance from the file; the
                                    other fields model_opts_init's defaults */
    char report_dir[CFG_DIR_MAX];
    int formats[CFG_FORMAT_COUNT]; /* 1 = write this format */
} cfg_study;

/* The latency figure the study ranks designs on at each target rate: the
 * statistic of its first latency objective, the mean when it has none. */
cfg_latency_stat cfg_rank_stat(const cfg_study *s);

/* Defaults for everything (nodes 0 and no budget: not yet a valid study). */
void cfg_study_init(cfg_study *s);
/* Free the lists; s may be NULL; s is left zeroed (init again to reuse). */
void cfg_study_fini(cfg_study *s);

/* Read and validate a study file.  On success 0 and *s filled (call
 * cfg_study_fini after).  On failure ERR_IO (cannot read) or ERR_CONFIG with
 * the location in e; *s is left zeroed (no fini needed, but harmless). */
int cfg_study_load(const char *path, cfg_study *s, err *e);
/* Same from text; `name` stands for the file name in errors and gives the
 * default study name (its base name without extension). */
int cfg_study_load_string(const char *text, const char *name, cfg_study *s,
                          err *e);

/* A design carrying the study's fixed parts (router delay, ejection
 * channels) on net_design_init's defaults: the starting point of every
 * design in the space. */
void cfg_study_design_base(const cfg_study *s, net_design *d);

#endif
