/*
 * net.h — the vocabulary of dse: what a network design and a workload are.
 *
 * Every other library (constraints/, models/, sim/) and the program (dse/)
 * speaks in these plain structs.  This module owns:
 *   - the enums for topology, routing, switching, traffic and message-length
 *     distribution, each generated from one X-macro list with its user-facing
 *     name (the names used in study files and on the command line);
 *   - defaults, validation (net_check) and the canonical text form used in
 *     reports and as the hash input of job keys;
 *   - derived quantities: node count, diameter, exact average distance,
 *     message length in flits.
 *
 * Conventions (docs/models/conventions.md, "Global symbols and units"): time
 * in cycles, one flit crosses one
 * channel per cycle, a channel is one direction of a link with `width`
 * wires, and a message of `message_bits` bits takes ceil(bits / width) flits.
 *
 * Ownership: the structs hold no pointers; copy them by value.
 */
#ifndef DSE_NET_H
#define DSE_NET_H

#include <stddef.h>

#include "err.h"

#define NET_MAX_DIMS 24         /* enough for a 2^24-node hypercube */
#define NET_MAX_NODES (1L << 24)

/* X(enum, name, description) */
#define NET_TOPOLOGY_LIST(X)                                                  \
    X(NET_TORUS, "torus", "k-ary n-cube, bidirectional, wrap-around")         \
    X(NET_MESH, "mesh", "k-ary n-dimensional mesh, bidirectional")            \
    X(NET_HYPERCUBE, "hypercube", "binary n-cube (2-ary n-cube)")             \
    X(NET_DCSH, "dcsh", "distributed crossbar switch hypermesh")              \
    X(NET_EXPRESS, "express", "express-cube: torus with interchanges")

#define NET_ROUTING_LIST(X)                                                   \
    X(NET_ROUTE_DETERMINISTIC, "deterministic", "dimension order / e-cube")   \
    X(NET_ROUTE_DUATO, "duato", "fully adaptive with deterministic escape VCs") \
    X(NET_ROUTE_PCUBE, "pcube", "partially adaptive P-cube (hypercube only)") \
    X(NET_ROUTE_HOP_BASED, "hop_based", "structured buffer pool, VC = hops")  \
    X(NET_ROUTE_MINIMAL_ADAPTIVE, "minimal_adaptive",                         \
      "minimal fully adaptive without VC classes ([QCC02] 2D torus; PCS)")

#define NET_SWITCHING_LIST(X)                                                 \
    X(NET_SWITCH_WORMHOLE, "wormhole", "wormhole flow control")               \
    X(NET_SWITCH_PCS, "pcs", "pipelined circuit switching with backtracking")

#define NET_ROUTER_LIST(X)                                                    \
    X(NET_ROUTER_UNIT, "unit",                                                \
      "the source papers' router: a header waits router_delay cycles, a "    \
      "flit crosses router and link in one cycle")                           \
    X(NET_ROUTER_PIPELINED, "pipelined",                                      \
      "input-queued VC router: routing, VC allocation, switch allocation, "  \
      "switch traversal, link and credit delays")

#define NET_TRAFFIC_LIST(X)                                                   \
    X(NET_TRAFFIC_UNIFORM, "uniform", "destination uniform over other nodes") \
    X(NET_TRAFFIC_HOTSPOT, "hotspot", "fraction theta to one node")           \
    X(NET_TRAFFIC_BROADCAST, "broadcast", "fraction beta are broadcasts")     \
    X(NET_TRAFFIC_TRANSPOSE, "transpose", "coordinate i <-> n-1-i")           \
    X(NET_TRAFFIC_BIT_REVERSAL, "bit_reversal", "address bits reversed")      \
    X(NET_TRAFFIC_SHUFFLE, "shuffle", "address rotated left by one bit")

#define NET_LENGTH_LIST(X)                                                    \
    X(NET_LENGTH_FIXED, "fixed", "every message has the mean length")         \
    X(NET_LENGTH_EXPONENTIAL, "exponential",                                  \
      "geometric on {1,2,...} with the given mean")

#define NET_ENUM_(e, name, desc) e,
typedef enum { NET_TOPOLOGY_LIST(NET_ENUM_) NET_TOPOLOGY_COUNT } net_topology;
typedef enum { NET_ROUTING_LIST(NET_ENUM_) NET_ROUTING_COUNT } net_routing;
typedef enum { NET_SWITCHING_LIST(NET_ENUM_) NET_SWITCHING_COUNT } net_switching;
typedef enum { NET_ROUTER_LIST(NET_ENUM_) NET_ROUTER_COUNT } net_router;
typedef enum { NET_TRAFFIC_LIST(NET_ENUM_) NET_TRAFFIC_COUNT } net_traffic;
typedef enum { NET_LENGTH_LIST(NET_ENUM_) NET_LENGTH_COUNT } net_length_dist;
#undef NET_ENUM_

/* A network design: everything that is built in hardware. */
typedef struct net_design {
    net_topology topology;
    int n;                    /* dimensions (hypercube: log2 N) */
    int k[NET_MAX_DIMS];      /* radix of each dimension 0..n-1 (hypercube: 2;
                                 DCSH: cluster size) */
    int vcs;                  /* V: virtual channels per physical channel */
    int buffer_flits;         /* flit buffer depth per VC (seeds: 1) */
    int width;                /* w: wires per channel (one direction) */
    int express_m;            /* express channels between adjacent
                                 interchanges, per direction (express only) */
    int express_kn;           /* nodes between interchanges (express only) */
    net_routing routing;
    net_switching switching;
    int router_delay;         /* D_r: cycles per routing decision */
    int ejection_channels;    /* per node; 0 = unlimited (immediate
                                 consumption, the seeds' "multiple ejection
                                 channels") */
    net_router router;        /* router micro-architecture (unit) */
    /* router=pipelined only, named and defaulted as BookSim2's parameters:
     * stage delays in cycles (routing 1, VC allocation 1, switch allocation
     * 1, switch traversal 1), the cycles a returned credit waits at the
     * upstream router before it is usable (0), link delays per channel
     * class (1 each: local channels, express channels, DCSH bus legs), and
     * speculative switch allocation (0).  The off-chip class: a chip holds
     * the n - offchip_dims lowest dimensions, so the channels of the
     * offchip_dims highest dimensions join two chips and take
     * offchip_link_delay instead of their on-chip class's delay (0: the
     * whole network on one chip; n: a chip per router). */
    int routing_delay, vc_alloc_delay, sw_alloc_delay, st_final_delay;
    int credit_delay;
    int link_delay, express_link_delay, bus_link_delay;
    int offchip_dims, offchip_link_delay;
    int speculative;
    /* Torus dimension-order VC classes (the escape VCs of the adaptive
     * routings too): 0 high_low, Dally and Seitz's rule (class by whether
     * the coordinate is below the destination's, offset k/2 taken in the
     * + direction); 1 wrap, BookSim2's dim_order_torus rule (a dimension is
     * traversed wholly in class 1 if the coordinate where it starts is
     * above the destination's, in class 0 if not, in either direction;
     * offset k/2 split between the directions, by the parity of that
     * coordinate). */
    int dateline_wrap;
    /* Duato routing's escape VCs.  escape_sticky 0 (escape=return): Duato's
     * protocol, a message may leave an escape VC for adaptive VCs at the
     * next router, and adaptive VCs are requested before the escape VC.
     * 1 (escape=sticky): BookSim2's min_adapt, a message that took an
     * escape VC stays on escape VCs (dimension order) to its destination,
     * and the adaptive and escape VCs are requested together (the
     * allocator chooses).  adaptive_vcs: how many VCs of a channel the
     * adaptive tier uses, the highest-numbered (0: all but the escape VCs;
     * BookSim2's min_adapt uses one, VC 3 of 4).  adaptive_dims: the
     * adaptive tier offers the minimal channels of only the first this
     * many dimensions still to correct (0: all of them).  BookSim2's
     * min_adapt offers one: its route set (OutputSet, a std::set ordered
     * by priority alone) keeps one candidate per priority, so of the
     * adaptive channels, all of priority 1, only the first dimension's
     * stays (docs/validation/booksim2.md). */
    int escape_sticky;
    int adaptive_vcs;
    int adaptive_dims;
} net_design;

/* A workload: what the machine's nodes ask of the network.  The injection
 * rate is not here: models and the simulator take it per evaluation point. */
typedef struct net_workload {
    int message_bits;         /* mean message size in bits */
    net_length_dist length;   /* fixed or exponential (geometric) */
    net_traffic traffic;
    double hotspot_fraction;  /* theta, hotspot only, in [0,1] */
    long hotspot_node;        /* hotspot only; -1 = node N-1 ([SKFO05]) */
    double broadcast_fraction;/* beta, broadcast only, in [0,1] */
} net_workload;

/* ---- names ------------------------------------------------------------- */

const char *net_topology_name(net_topology t);
const char *net_routing_name(net_routing r);
const char *net_switching_name(net_switching s);
const char *net_router_name(net_router r);
const char *net_traffic_name(net_traffic t);
const char *net_length_name(net_length_dist l);
const char *net_topology_desc(net_topology t);
const char *net_routing_desc(net_routing r);
/* Parse a name; 0 and *out set on success, ERR_INVALID otherwise. */
int net_topology_parse(const char *s, net_topology *out);
int net_routing_parse(const char *s, net_routing *out);
int net_switching_parse(const char *s, net_switching *out);
int net_router_parse(const char *s, net_router *out);
int net_traffic_parse(const char *s, net_traffic *out);
int net_length_parse(const char *s, net_length_dist *out);

/* ---- construction ------------------------------------------------------ */

/* Defaults: 2D 8x8 torus, V = 2, 1-flit buffers, width 1, deterministic
 * wormhole, router delay 1, one ejection channel. */
void net_design_init(net_design *d);
/* Defaults: 128-bit fixed-length messages, uniform traffic. */
void net_workload_init(net_workload *w);

/* Set all n radices to k (hypercube: k must be 2). */
void net_design_set_radix(net_design *d, int n, int k);

/* ---- derived quantities (designs must have passed net_check) ----------- */

long net_nodes(const net_design *d);             /* N = product of radices */
int net_uniform_radix(const net_design *d);      /* k if all equal, else 0 */
int net_diameter(const net_design *d);           /* channel hops */
/* Channel hops from node a to node b under the design's minimal routing
 * (for express: local to interchange, express, local; thesis 6.2). */
int net_distance(const net_design *d, long a, long b);
/* Exact mean channel hops, destination uniform over the other N-1 nodes. */
double net_avg_distance(const net_design *d);
/* Exact mean channel hops, destination uniform over all N nodes (self
 * included): the seeds' torus convention, n * k/4 for even k. */
double net_avg_distance_inclusive(const net_design *d);
/* Mean hops in one dimension with source and destination coordinates
 * independent and uniform (self included). */
double net_dim_avg_distance(const net_design *d, int dim);
/* Message length in flits: ceil(message_bits / width), at least 1. */
int net_message_flits(const net_design *d, const net_workload *w);
/* Node coordinates <-> id, dimension 0 varies fastest. */
void net_coords(const net_design *d, long id, int *coords);
long net_node_id(const net_design *d, const int *coords);
/* Destination of a permutation pattern (transpose, bit_reversal, shuffle);
 * -1 for other patterns. */
long net_permutation_dest(const net_design *d, net_traffic t, long src);

/* Minimum V for deadlock freedom of the design's routing and switching on
 * its topology (the topology's descriptor, topology.h); -1 when the
 * combination is not supported at all. */
int net_min_vcs(const net_design *d);

/* ---- validation -------------------------------------------------------- */

/* 0 if the design is buildable and deadlock-free; else ERR_INFEASIBLE with
 * the reason in e.  Does not look at the cost budget (constraints/ does). */
int net_check(const net_design *d, err *e);
/* 0 if the workload is valid for this design; else ERR_INVALID + reason. */
int net_workload_check(const net_design *d, const net_workload *w, err *e);

/* ---- canonical text ---------------------------------------------------- */

/* Canonical one-line text of a design: "key=value" pairs in a fixed order,
 * integers only, fields irrelevant to the topology omitted.  Returns the
 * length it needed (snprintf semantics). */
int net_design_format(const net_design *d, char *buf, size_t size);
/* Canonical text of a workload; doubles printed with %.15g (no binary
 * noise, round-trips every value a user can type). */
int net_workload_format(const net_workload *w, char *buf, size_t size);

/* Parse "key=value key=value ..." (the keys of net_design_format, plus
 * "k=16" for all dimensions or "k=16x8" per dimension) on top of the
 * current contents of d.  0, or ERR_INVALID with the offending token; a
 * key given twice and a text without any pair are ERR_INVALID too. */
int net_design_parse(net_design *d, const char *text, err *e);
/* Same for a workload: message_bits, length, traffic, theta, hotspot_node,
 * beta (an empty text leaves w as it is). */
int net_workload_parse(net_workload *w, const char *text, err *e);
/* Apply one key=value to a design or a workload (whichever knows the key).
 * Returns 0, ERR_INVALID for a bad value, ERR_UNSUPPORTED for an unknown
 * key. */
int net_design_set(net_design *d, const char *key, const char *value, err *e);
int net_workload_set(net_workload *w, const char *key, const char *value,
                     err *e);

#endif
