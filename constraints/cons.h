/*
 * cons.h — cost models of a network design and the inverse: the widest
 * channel a cost budget allows.
 *
 * Conventions (MODELS.md section 2; thesis 002 sections 1.1.5, 4.3, 6.4):
 * a channel is one direction of a link with `width` wires; bisection width
 * counts the wires crossing a cut that halves the nodes (VLSI technology,
 * planar layout); pin-out counts the wires of every network channel entering
 * or leaving one chip (multi-chip technology, one node per chip; for the
 * express-cube the interchange chips too).  Injection and ejection channels
 * are excluded from both.
 */
#ifndef DSE_CONS_H
#define DSE_CONS_H

#include "net/net.h"

typedef enum {
    CONS_VLSI = 0,       /* budget on bisection wires */
    CONS_MULTICHIP = 1,  /* budget on pins per chip */
} cons_technology;

typedef enum {
    CONS_ROUND_FLOOR = 0, /* never exceed the budget [recommended] */
    CONS_ROUND_CEIL = 1,  /* the thesis's printed ceiling (4.13) */
} cons_rounding;

typedef struct cons_cost {
    double bisection_wires;   /* wires crossing the bisection */
    double node_pins;         /* pins of one node chip */
    double interchange_pins;  /* pins of one interchange chip (express), 0 */
    double max_pins;          /* the binding chip: max(node, interchange) */
    double total_wires;       /* wires of all network channels */
    double buffer_bits;       /* bits of all VC flit buffers (network input
                                 buffers: channels x V x depth x width) */
} cons_cost;

typedef struct cons_budget {
    cons_technology technology;
    double limit;             /* wires (VLSI) or pins (multi-chip); used when
                                 has_reference is 0 */
    int has_reference;        /* 1: the budget is the cost of `reference` */
    net_design reference;     /* e.g. a 32x32 DCSH with 1-wire channels */
    cons_rounding rounding;
} cons_budget;

/* Costs of d at its own width.  0, or ERR_INFEASIBLE for a design that
 * fails net_check. */
int cons_cost_of(const net_design *d, cons_cost *out, err *e);

/* The budget's limit in wires or pins (the reference design's cost when
 * has_reference is set). */
int cons_budget_limit(const cons_budget *b, double *limit, err *e);

/* Widest channel width d may have under b (d->width is ignored).
 * 0 and *width >= 1, or ERR_INFEASIBLE ("budget allows width < 1") with the
 * reason in e. */
int cons_max_width(const net_design *d, const cons_budget *b, int *width,
                   err *e);

const char *cons_technology_name(cons_technology t);
int cons_technology_parse(const char *s, cons_technology *out);

#endif
