/*
 * cost_phys.h — the physical part of `dse cost`: router delay (Chien or
 * Peh and Dally), link delay per channel class and area terms of one
 * design, computed by constraints/phys.h and printed as text or JSON.
 * Kept apart from cmd_cost.c, which owns the width and budget columns.
 */
#ifndef DSE_CLI_COST_PHYS_H
#define DSE_CLI_COST_PHYS_H

#include <jansson.h>

#include "constraints/phys.h"

typedef enum {
    COST_ROUTER_CHIEN = 0,
    COST_ROUTER_PEH_DALLY = 1,
} cost_router_model;

/* Defaults, documented in `dse cost --help` and docs/router-cost.md. */
#define COST_DEFAULT_CLOCK_FO4 20.0
#define COST_DEFAULT_FO4_PER_TILE 3.0

typedef struct cost_phys_opts {
    cost_router_model model;
    double clock_fo4;
    int speculative;
    double fo4_per_tile;
    int offchip_cycles;   /* 0: on-chip */
} cost_phys_opts;

typedef struct cost_phys {
    phys_router_shape shape;
    phys_chien chien;
    phys_peh_dally pd;
    phys_wires wires;
    phys_area area;
    int study_router_delay; /* the unit router's D_r a study with this
                               router model gives the design
                               (phys_timing_apply) */
} cost_phys;

void cost_phys_defaults(cost_phys_opts *o);
/* "chien" or "peh_dally"; parse returns 0 or ERR_INVALID. */
const char *cost_router_name(cost_router_model m);
int cost_router_parse(const char *s, cost_router_model *out);

/* Every term for d.  0, or the error of the first model that refused. */
int cost_phys_of(const net_design *d, const cost_phys_opts *o, cost_phys *out,
                 err *e);

/* The options as a one-line header of the text output. */
void cost_phys_print_header(const cost_phys_opts *o);
/* Text block of design number idx (1-based). */
void cost_phys_print(int idx, const cost_phys_opts *o, const cost_phys *p);
/* {"model":..., "router":{...}, "links":[...], "area":{...}} */
json_t *cost_phys_json(const cost_phys_opts *o, const cost_phys *p);
json_t *cost_phys_opts_json(const cost_phys_opts *o);

#endif
