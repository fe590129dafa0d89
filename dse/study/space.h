/*
 * space.h — the design space of a study: every combination of the study's
 * axes, each design given the widest channel its budget allows, the
 * infeasible ones dropped and counted by reason.
 *
 * Enumeration order (deterministic; the optimizer and reports rely on it):
 *   topology (study order)
 *     x dimension n (study order; the hypercube has the one n = log2 N)
 *       x radix factorisation (uniform k = N^(1/n); with mixed_radices every
 *         non-increasing factorisation k0 >= k1 >= ... >= k(n-1) >= 2 of N,
 *         largest k0 first, then lexicographically decreasing)
 *         x routing (study order; "all": the schemes that apply to this
 *           topology and n, in CFG_ROUTING_LIST order)
 *           x vcs x buffer_flits x express_m x express_kn (study order; the
 *             express lists multiply express designs only)
 * Each enumerated combination is feasible or dropped for exactly one
 * reason, the first that applies in DSE_DROP_LIST order, so
 *   enumerated = count + sum(dropped[]).
 */
#ifndef DSE_SPACE_H
#define DSE_SPACE_H

#include <stddef.h>

#include <signal.h>

#include "dse/study/cfg.h"
#include "models/model.h"
#include "net/net.h"

/* X(enum, text) in the order the checks run.  DSE_DROP_NOT_POW2 is the
 * node count of a topology with a fixed radix (net/topology.h) and
 * DSE_DROP_PARAMS the check of a topology's own parameters; their texts
 * name the one topology each has today, as `dse check` prints them. */
#define DSE_DROP_LIST(X)                                                      \
    X(DSE_DROP_NOT_POW2, "N not a power of two (hypercube)")                  \
    X(DSE_DROP_NOT_PERFECT_POWER, "N not a perfect n-th power")               \
    X(DSE_DROP_NO_FACTORISATION, "N has no factorisation into n radices")     \
    X(DSE_DROP_ROUTING, "routing not applicable to topology")                 \
    X(DSE_DROP_RADIX, "radix too small for topology (k < 3 ring)")            \
    X(DSE_DROP_PARAMS, "express kn does not divide k into >= 2 groups")       \
    X(DSE_DROP_VCS, "too few VCs for deadlock freedom")                       \
    X(DSE_DROP_INVALID, "other design check failed")                          \
    X(DSE_DROP_WIDTH, "width < 1 under budget")                               \
    X(DSE_DROP_COST, "cost model rejected the design")                        \
    X(DSE_DROP_AREA, "no width fits budget.area")                             \
    X(DSE_DROP_ROUTER, "router model rejected the design")                    \
    X(DSE_DROP_WORKLOAD, "traffic not valid on design")                       \
    X(DSE_DROP_NO_MODEL, "no analytic model covers it")

#define DSE_DROP_ENUM_(e, text) e,
typedef enum { DSE_DROP_LIST(DSE_DROP_ENUM_) DSE_DROP_COUNT } dse_drop;
#undef DSE_DROP_ENUM_

#define DSE_EXAMPLE_MAX 320

typedef struct dse_space {
    net_design *designs;       /* feasible designs, width from the budget;
                                  owned, `count` of them */
    const model **models;      /* covering model of designs[i] (static
                                  registry data); NULL only when the study
                                  sets require_model: false and none covers
                                  the design (simulation only) */
    size_t count;
    size_t capacity;
    size_t enumerated;         /* combinations looked at */
    size_t dropped[DSE_DROP_COUNT];
    size_t unmodelled;         /* feasible designs with models[i] == NULL */
    size_t enumerated_by_topology[NET_TOPOLOGY_COUNT];
    size_t feasible_by_topology[NET_TOPOLOGY_COUNT];
    /* The first dropped design of each reason and why ("" if none). */
    char example[DSE_DROP_COUNT][DSE_EXAMPLE_MAX];
    double budget_limit;       /* the budget in wires (vlsi) or pins */
} dse_space;

/* Static text of a drop reason. */
const char *dse_drop_text(dse_drop r);

/* Enumerate the study's design space into *out (call dse_space_fini after,
 * also on failure).  Returns 0, or a negative ERR_* when the budget itself
 * cannot be evaluated (the study's designs are never an error: infeasible
 * ones are counted). */
int dse_space_build(const cfg_study *s, dse_space *out, err *e);
/* The same, polling *stop (may be NULL) as it goes: ERR_INTERRUPTED when
 * it became non-zero (out is then partial; dse_space_fini it). */
int dse_space_build_stoppable(const cfg_study *s, dse_space *out,
                              const volatile sig_atomic_t *stop, err *e);
void dse_space_fini(dse_space *sp);

/* How many combinations dse_space_build would enumerate (its `enumerated`),
 * computed without enumerating them or allocating per design: what a
 * daemon checks before it builds an untrusted study's space.  A double, so
 * a product of long axes cannot overflow. */
double dse_space_enumerated(const cfg_study *s);

/* Non-increasing factorisations of nodes into n radices >= 2, largest first
 * radix first (the order above): writes up to max of them, n ints each, into
 * radices (may be NULL when max is 0) and returns how many exist. */
size_t dse_space_factorisations(long nodes, int n, int *radices, size_t max);

#endif
