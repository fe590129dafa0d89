/*
 * phys.h — what a design costs physically: the delay of its router (two
 * published models), the delay of its wires on a chip floor plan, and the
 * area of its routers and wires.
 *
 * cons.h counts wires and pins at equal bisection or pin-out; that makes
 * a virtual channel, an adaptive routing function or a bigger crossbar
 * free.  This module gives each of them the price the router and VLSI
 * literature puts on it, so that a decision can trade them off.  Every
 * equation, its source, its units and its assumptions are in
 * docs/router-cost.md; the file headers repeat the equations.
 *
 * Files: phys_router.c (the router's shape from the topology, Chien's
 * 1998 delay model, Peh and Dally's 2001 pipeline model), phys_wire.c
 * (channel classes, their length on a 2-D grid of tiles, their delay in
 * cycles), phys_area.c (buffers, crossbar, allocators, wire length),
 * phys_timing.c (what a router model makes of one design's timing in a
 * study: D_r, and the stage and link delays of router=pipelined).
 * No function here allocates, prints or keeps state.
 */
#ifndef DSE_PHYS_H
#define DSE_PHYS_H

#include "net/net.h"

/* ---- the router's shape ------------------------------------------------ */

typedef struct phys_router_shape {
    int net_inputs;    /* crossbar inputs from the network */
    int net_outputs;   /* network channels leaving one router */
    int buffered_inputs; /* network channels whose VC buffers the router
                          holds (a DCSH node's k-1 bus readers per
                          dimension, which a (k-1):1 input multiplexer
                          joins into one crossbar input) */
    double mux_crosspoints; /* sum over multiplexed dimensions of
                          buffered inputs x crossbar inputs (0 when no
                          dimension has an input multiplexer) */
    int ports;         /* P: crossbar size, max(inputs, outputs) counting
                          one injection input and the ejection outputs */
    int vcs;           /* V */
    int freedom;       /* F: output choices the routing decision picks
                          among (1 for deterministic routing) */
    int width;         /* w: bits per flit (= wires per channel) */
} phys_router_shape;

/* Shape of the router of d's busiest node.  0, or ERR_INFEASIBLE with
 * net_check's reason. */
int phys_router_shape_of(const net_design *d, phys_router_shape *out,
                         err *e);

/* ---- Chien 1998: delays in ns (0.8 um gate array) ------------------- */

typedef struct phys_chien {
    double t_ad;       /* address decode */
    double t_arb;      /* routing decision / arbitration, fan-in F */
    double t_xbar;     /* crossbar, P ports */
    double t_fc;       /* flow control */
    double t_vc;       /* virtual-channel controller, V (0 when V = 1) */
    double setup_ns;   /* header's routing delay: t_ad + t_arb + t_xbar */
    double flit_ns;    /* flit time (the clock): t_xbar + t_fc + t_vc */
    int setup_cycles;  /* ceil(setup_ns / flit_ns): D_r in flit cycles */
} phys_chien;

void phys_chien_of(const phys_router_shape *s, phys_chien *out);

/* ---- Peh and Dally 2001: stage delays in FO4, pipeline at a clock ---- */

#define PHYS_PD_MAX_MODULES 4

typedef struct phys_pd_module {
    const char *name;  /* "routing", "vc_alloc", "switch_alloc",
                          "spec_alloc", "crossbar" */
    double t;          /* latency, FO4 */
    double h;          /* overhead, FO4: paid when the module ends a stage */
    int stage;         /* 1-based pipeline stage it ends in */
} phys_pd_module;

typedef struct phys_peh_dally {
    double clock_fo4;
    int speculative;
    int nmodules;
    phys_pd_module modules[PHYS_PD_MAX_MODULES];
    int stages;        /* pipeline depth: the router's per-hop delay in
                          cycles */
} phys_peh_dally;

/* Smallest clock period the model accepts: the slowest module's t + h must
 * fit in some whole number of stages, so any positive clock works; this
 * bound only keeps a mistyped value from producing a thousand stages. */
#define PHYS_MIN_CLOCK_FO4 5.0
#define PHYS_MAX_CLOCK_FO4 1000.0

/* 0, or ERR_INVALID for a clock outside [PHYS_MIN_CLOCK_FO4,
 * PHYS_MAX_CLOCK_FO4]. */
int phys_peh_dally_of(const phys_router_shape *s, double clock_fo4,
                      int speculative, phys_peh_dally *out, err *e);

/* ---- wires on a chip ------------------------------------------------- */

#define PHYS_MAX_CLASSES (2 * NET_MAX_DIMS)

typedef struct phys_channel_class {
    int dim;           /* dimension the channels run along */
    const char *kind;  /* "local", "express", "bus" */
    double channels;   /* channels of this class in the network */
    int length_tiles;  /* tile pitches each channel spans */
    int cycles;        /* link delay in cycles */
} phys_channel_class;

typedef struct phys_wire_opts {
    double fo4_per_tile; /* delay of a repeated wire across one tile */
    double clock_fo4;    /* clock period */
    int offchip_cycles;  /* > 0: every link is off-chip with this latency
                            (multi-chip); 0: on-chip floor plan */
} phys_wire_opts;

typedef struct phys_wires {
    int grid_x, grid_y;  /* tiles along each axis of the floor plan */
    int nclasses;
    phys_channel_class classes[PHYS_MAX_CLASSES];
    double wire_length;  /* sum of channels x width x length, wire-tiles */
} phys_wires;

/* Bounds of the wire options (phys_wires_of rejects values outside). */
#define PHYS_MAX_FO4_PER_TILE 1000.0
#define PHYS_MAX_OFFCHIP_CYCLES 1000

int phys_wires_of(const net_design *d, const phys_wire_opts *o,
                  phys_wires *out, err *e);

/* ---- area ------------------------------------------------------------ */

typedef struct phys_area {
    double buffer_bits;      /* per router: inputs x V x depth x w */
    double crossbar_tracks2; /* per router: (P w)^2 wire pitches squared */
    double mux_tracks2;      /* per router: input multiplexers,
                                mux_crosspoints x w^2 */
    double va_bits;          /* per router: VC allocator arbiter state */
    double sa_bits;          /* per router: switch allocator arbiter state */
    double routers;          /* routers in the network (nodes, plus the
                                express-cube's interchanges) */
    double total_buffer_bits;
    double total_crossbar_tracks2; /* crossbars and input multiplexers */
    double total_allocator_bits;
    double wire_length;      /* wire-tiles, from phys_wires */
} phys_area;

/* State bits of an n-input matrix arbiter: n(n-1)/2. */
double phys_matrix_arbiter_bits(int n);

int phys_area_of(const net_design *d, const phys_router_shape *s,
                 const phys_wires *w, phys_area *out, err *e);

/* ---- a design's timing under a router model -------------------------- */

/* How a study prices its routers (docs/config.md, `router`): fixed keeps
 * one D_r for every design (the source papers' router_delay); chien and
 * peh_dally give each design its own from its shape. */
typedef enum {
    PHYS_ROUTER_FIXED = 0,
    PHYS_ROUTER_CHIEN = 1,
    PHYS_ROUTER_PEH_DALLY = 2,
} phys_router_model;

#define PHYS_ROUTER_MODEL_COUNT 3

typedef struct phys_timing_opts {
    phys_router_model model;
    int delay;            /* fixed: D_r, cycles */
    double clock_fo4;     /* peh_dally: clock period, FO4 */
    int speculative;      /* peh_dally: speculative VC allocation */
    double fo4_per_tile;  /* peh_dally: repeated-wire delay per tile */
    int offchip_cycles;   /* peh_dally: > 0, every link off-chip */
} phys_timing_opts;

/* "fixed", "chien", "peh_dally"; parse returns 0 or ERR_INVALID. */
const char *phys_router_model_name(phys_router_model m);
int phys_router_model_parse(const char *s, phys_router_model *out);
/* fixed, D_r = 1, the peh_dally defaults (20 FO4 clock, not speculative,
 * 3 FO4 per tile, on-chip). */
void phys_timing_defaults(phys_timing_opts *o);

/* Set d's router timing from its shape (docs/router-cost.md, "In a
 * study"): for the unit router D_r (router_delay); for router=pipelined
 * its stage delays and link delays per channel class.  fixed: router_delay
 * = o->delay, pipelined fields untouched.  0, or the error of the model
 * that refused d. */
int phys_timing_apply(net_design *d, const phys_timing_opts *o, err *e);

#endif
