/*
 * cons.h — cost models of a network design and the inverse: the widest
 * channel a cost budget allows.
 *
 * Conventions (docs/models/cost.md; [L99] sections 1.1.5, 4.3, 6.4):
 * a channel is one direction of a link with `width` wires; bisection width
 * counts the wires crossing a cut that halves the nodes (VLSI technology,
 * planar layout); pin-out counts the wires of every network channel entering
 * or leaving one chip (multi-chip technology, one node per chip; for the
 * express-cube the interchange chips too).  Injection and ejection channels
 * are excluded from both.
 *
 * Files: cons_count.c (channel counts per topology, with the derivation of
 * every formula and the choice of the bisection cut for mixed and odd
 * radices), cons_cost.c (costs at a width; what buffer bits count),
 * cons_budget.c (budgets, the inverse, and why floor is the default).
 * No function here allocates, prints or keeps state.
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
    double crossbar_area;     /* tracks^2 of all node routers' crossbars and
                                 input multiplexers (phys_area) */
    double wire_length;       /* wire-tiles of all channels on the chip
                                 floor plan (phys_wires) */
} cons_cost;

typedef struct cons_budget {
    cons_technology technology;
    double limit;             /* wires (VLSI) or pins (multi-chip); used when
                                 has_reference is 0 */
    int has_reference;        /* 1: the budget is the cost of `reference` */
    net_design reference;     /* e.g. a 32x32 DCSH with 1-wire channels */
    cons_rounding rounding;
} cons_budget;

/* Channel counts per unit of channel width (cons_count.c explains every
 * formula and the choice of the bisection cut).  All are exact integers
 * (held in doubles, exact below 2^53). */
typedef struct cons_counts {
    double bisection_channels;   /* channels crossing the bisection cut */
    double node_channels;        /* channels entering or leaving the
                                    busiest node (its pins per wire) */
    double interchange_channels; /* same for one express interchange, else 0 */
    double channels;             /* network channels (a DCSH bus is one) */
    double buffered_inputs;      /* channel receiving ends holding VC buffers
                                    (a DCSH bus has k-1 of them) */
    int cut_dim;                 /* dimension the bisection cuts across */
    int exact_halves;            /* 1: the cut halves the nodes exactly
                                    (k[cut_dim] even); 0: every radix is odd
                                    and the sides differ by N/k[cut_dim] */
} cons_counts;

/* Counts of d (d->width is not used).  0, or ERR_INFEASIBLE (net_check's
 * reason in e). */
int cons_counts_of(const net_design *d, cons_counts *out, err *e);

/* Does topology t have chips besides the nodes' (the express-cube's
 * interchanges), whose pins cons_cost.interchange_pins counts? */
int cons_has_interchanges(net_topology t);

/* Cost of one wire of channel width under a technology: bisection channels
 * (VLSI) or the pins per wire of the binding chip, max(node, interchange)
 * (multi-chip). */
double cons_unit_cost(const cons_counts *c, cons_technology t);

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

/* Set d->width to cons_max_width(d, b).  On error d is unchanged. */
int cons_design_fit(net_design *d, const cons_budget *b, err *e);

/* Widest width w (rounded as asked) with w * unit_cost <= limit (floor) or
 * the smallest with w * unit_cost >= limit (ceil); the arithmetic shared by
 * cons_max_width and callers that already hold the counts.  0 and *width
 * >= 1; ERR_INFEASIBLE when the result is < 1; ERR_INVALID for a negative
 * or non-finite limit, a unit cost <= 0, or a result above CONS_MAX_WIDTH. */
#define CONS_MAX_WIDTH (1 << 24)  /* net_design_set's upper bound on width */
int cons_width_for(double limit, double unit_cost, cons_rounding r,
                   int *width, err *e);

/* "vlsi" or "multichip"; parse also accepts "multi-chip".  Parse returns
 * 0, or ERR_INVALID for an unknown name. */
const char *cons_technology_name(cons_technology t);
int cons_technology_parse(const char *s, cons_technology *out);

#endif
