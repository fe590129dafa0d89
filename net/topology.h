/*
 * topology.h — one descriptor per topology: everything the layers above
 * need to know about a topology, in one row of a table, so that a new
 * topology is a new row rather than a new case in every switch.
 *
 * A topology here is a product of one-dimensional structures (ring, line,
 * pair, cluster bus, ring with interchanges), routed dimension by
 * dimension, so its geometry is given per dimension: hops between two
 * coordinates, the mean hops and the largest hops of one dimension.  The
 * row also holds the radix rules (smallest radix, or a radix every
 * dimension must have), the minimum VC counts for deadlock freedom per
 * routing, and the check of the topology's own integer parameters.
 *
 * The topology's own parameters (the express-cube's m and kn) are rows of
 * a second table, net_param: each names the field of net_design it lives
 * in, its key in the canonical text (net_design_format) and on the command
 * line, its key in study files and report columns, the values it may take
 * and the values a study explores by default.  Everything that prints,
 * parses, enumerates or compares designs walks that table.
 *
 * What is not here: the topology's name and one-line description (the
 * NET_TOPOLOGY_LIST X-macro in net.h, which also makes the enum); its
 * channel counts for cost (constraints/cons_count.c, a table of
 * per-dimension counting functions); how the simulator builds it
 * (sim/topo_*.c); the analytic models that cover it (models/registry.c).
 * docs/extending.md lists every place a new topology touches.
 */
#ifndef DSE_NET_TOPOLOGY_H
#define DSE_NET_TOPOLOGY_H

#include <stddef.h>

#include "net.h"

/* The topologies' own integer parameters, X(enum). */
#define NET_PARAM_LIST(X)                                                     \
    X(NET_PARAM_EXPRESS_M)                                                    \
    X(NET_PARAM_EXPRESS_KN)

#define NET_PARAM_ENUM_(e) e,
typedef enum { NET_PARAM_LIST(NET_PARAM_ENUM_) NET_PARAM_COUNT } net_param;
#undef NET_PARAM_ENUM_

#define NET_PARAM_DEFAULTS_MAX 8

typedef struct net_param_info {
    net_topology topology;  /* the one topology that has it */
    const char *key;        /* canonical text and --design key: "m" */
    const char *study_key;  /* study files, reports, CSV column: "express_m" */
    const char *option;     /* command-line option: "express-m" */
    const char *label;      /* human label (dse check): "express m" */
    size_t offset;          /* offsetof(net_design, field), an int */
    int text_lo, text_hi;   /* values net_design_set accepts */
    int study_lo, study_hi; /* values a study file may give */
    int defaults[NET_PARAM_DEFAULTS_MAX]; /* a study's default axis */
    size_t ndefaults;
} net_param_info;

typedef struct net_topology_info {
    /* The one-dimensional structure of a dimension, for messages: "ring". */
    const char *dim_shape;
    /* Smallest radix of a dimension, and why (net_check's message). */
    int min_radix;
    const char *min_radix_why;
    /* Nonzero: every dimension has exactly this radix (the hypercube's 2),
     * so the node count alone fixes n. */
    int fixed_radix;
    /* Explored by a study that does not list its topologies. */
    int study_default;
    /* 1: dim_hops is a shortest path of the channel graph; 0: the route
     * may take more hops (the express-cube picks its direction by node
     * offset, whatever the interchanges on the way). */
    int shortest_route;
    /* Channel hops in dimension dim between coordinates a and b under the
     * topology's minimal routing. */
    int (*dim_hops)(const net_design *d, int dim, int a, int b);
    /* Mean of dim_hops over independent uniform a and b (self included). */
    double (*dim_avg_distance)(const net_design *d, int dim);
    /* Largest dim_hops of dimension dim. */
    int (*dim_diameter)(const net_design *d, int dim);
    /* Minimum V for deadlock freedom of the design's routing and
     * switching on this topology; -1 when the topology has no such
     * routing at all. */
    int (*min_vcs)(const net_design *d);
    /* The topology's own parameters against each other and the radices:
     * 0, or ERR_INFEASIBLE with the reason.  NULL: no parameters. */
    int (*check_params)(const net_design *d, err *e);
} net_topology_info;

/* The descriptor of t; NULL when t is not a topology. */
const net_topology_info *net_topology_get(net_topology t);
const net_param_info *net_param_get(net_param p);

/* Does topology t have parameter p? */
int net_param_applies(net_topology t, net_param p);
int net_param_value(const net_design *d, net_param p);
void net_param_set_value(net_design *d, net_param p, int value);

/* Appends, for each parameter of d's topology in table order, `sep` then
 * "key=value" ("" when it has none); snprintf semantics. */
int net_design_params_format(const net_design *d, const char *sep, char *buf,
                             size_t size);
/* Do a and b (of the same topology) agree on every parameter of it? */
int net_design_params_equal(const net_design *a, const net_design *b);

/* The radices as a label reads them: "32x32", or "10-cube" for a
 * topology whose radix is fixed at 2; snprintf semantics. */
int net_design_radix_label(const net_design *d, char *buf, size_t size);

/* Number of dimensions n with fixed_radix^n == nodes for a topology with a
 * fixed radix; -1 when there is none (or the radix is not fixed). */
int net_topology_fixed_dims(net_topology t, long nodes);

/* Is the design's routing and switching defined on its topology and
 * number of dimensions (what net_check asks before the VC count)? */
int net_routing_applies(const net_design *d);

#endif
