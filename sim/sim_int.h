/*
 * sim_int.h — the simulator's internal data: the channel graph, virtual
 * channels, messages, and the three ops tables (topology, routing, traffic)
 * that make a design a table entry rather than a switch statement.
 *
 * Layout (all arrays owned by sim_net, allocated once in sim_net_create;
 * nothing is allocated per flit):
 *
 *   routers 0..nodes-1 (a router per node), then routers without a PE:
 *   express-cube interchanges (topo_express.c) and, for DCSH broadcast, one
 *   "bus receiver" per (node, dimension) (topo_dcsh.c).
 *
 *   channels  0 .. nnet-1          network channels (one direction of a
 *                                  link, or one sender->receiver leg of a
 *                                  DCSH bus), built by the topology ops
 *             nnet + u*ipn + j     injection channel j of node u (PE ->
 *                                  router): j = 0 unicast, j = 1 + p the
 *                                  broadcast copies leaving by port p
 *                                  (broadcast traffic only; ipn = 1 else)
 *
 *   VCs       ch * V + v           VC v of channel ch.  The VC's buffer sits
 *                                  at the channel's downstream router; its
 *                                  allocation state (owner) travels with it.
 *
 * A VC holds the flits of at most one message (it is released only when
 * the tail leaves it), always a contiguous run [first, first + occ) of
 * flit sequence numbers, so a flit is just a number: no flit objects.
 *
 *   vc.owner   upstream VC that holds this VC and still has flits to send
 *              into it (SIM_PE: the source PE, for an injection VC);
 *              SIM_HELD once the tail has entered it; SIM_NONE when free.
 *   vc.out     downstream VC allocated to the message at this VC's head
 *              (SIM_EJECT: consuming at the destination), SIM_NONE before
 *              the header has been routed.
 *
 * Ejection is not a channel with VCs: a header at its destination takes one
 * of design.ejection_channels (0 = unlimited) and is consumed at one flit
 * per cycle.
 *
 * PHYSICAL CHANNELS AND INPUT MULTIPLEXERS (DCSH).  A channel normally is its
 * own physical channel: one flit per cycle over its V VCs.  A DCSH bus is one
 * physical channel with V VCs reaching k-1 receivers; it is built as k-1
 * channels (one per receiver, so that every VC buffer sits at one router) tied
 * together by topo.phys[ch], the bus's representative channel: the
 * representative's stamp and round-robin pointer govern the whole bus (one
 * flit per cycle), and bus VC v is one resource, net->bus_vc[rep*V+v] = the
 * receiver-side VC that holds it (SIM_NONE: free), so at most V messages use
 * the bus at once, as the V-VC channel model of Loucif, 'Performance
 * evaluation of distributed crossbar switch hypermesh', PhD thesis, Glasgow
 * 1999, has it.  topo.grp[ch] names the input multiplexer the channel's VCs
 * feed at the receiving router (one per router and dimension, (k-1)V inputs):
 * at most one flit per cycle passes it (flit level, round robin, non-blocking:
 * Loucif 1999, sec. 2.3), or, in message-level mode (M8: deterministic, V =
 * 1), one message holds it from header arbitration until its tail has passed.
 * Injection channels belong to no multiplexer.
 *
 * EXTENDING.  What varies is a table entry:
 *   - a topology: a sim_topology_ops in its own file, listed in topo.c
 *     (cube-like: topo_cube.c; dcsh: topo_dcsh.c; express: topo_express.c);
 *   - a routing function: a sim_routing_ops in its own file, listed in
 *     route.c (route_dor, route_duato, route_minadapt, route_pcube,
 *     route_hop, route_express, route_pcs);
 *   - a traffic pattern: an entry in traffic.c.
 * PCS (pcs.c) replaces header allocation by probes that reserve a path and
 * lets the PE stream data only after the acknowledgement; broadcast
 * (bcast.c) turns one generated message into copies, one per tree edge,
 * queued at the per-port injection channels of the nodes that forward.
 */
#ifndef DSE_SIM_INT_H
#define DSE_SIM_INT_H

#include <stdint.h>

#include "rng_int.h"
#include "sim.h"

#define SIM_NONE (-1)
#define SIM_EJECT (-2)           /* vc.out: being consumed at this router */
#define SIM_PE (-2)              /* vc.owner: owned by the source PE */
#define SIM_HELD (-3)            /* vc.owner: held by a message whose tail
                                    has already entered it */
#define SIM_BCAST (-4)           /* traffic dest(): this one is a broadcast */
#define SIM_MAX_VCS 64           /* VC sets are uint64_t masks */
#define SIM_MAX_TIERS 4
#define SIM_MAX_CANDS (4 * NET_MAX_DIMS)
#define SIM_DOR_TAB 16384        /* entries of the dimension-order table
                                    (64 KiB: up to 128 nodes) */

typedef struct sim_net sim_net;
typedef struct sim_topo sim_topo;
typedef struct sim_pipe sim_pipe;
typedef struct sim_par sim_par;

/* ---- channel graph ------------------------------------------------------ */

typedef struct sim_chan {
    int32_t src, dst;            /* routers; src = the node for injection */
    int16_t dim, dir;            /* dimension and direction (+1/-1); -1/0
                                    for injection channels */
    int32_t rr;                  /* round robin: VC index favoured next */
    int64_t stamp;               /* cycle of its last switch resolution */
} sim_chan;

/* The state every cycle touches: 32 bytes, two VCs per cache line (the
 * rest is in per-VC arrays of sim_net: vc_credits, vc_active, vc_ready,
 * vc_since). */
typedef struct sim_vc {
    int32_t ch;                  /* channel this VC belongs to */
    int32_t msg;                 /* message holding it, SIM_NONE */
    int32_t owner;               /* see the header comment */
    int32_t out;                 /* see the header comment */
    int32_t first;               /* sequence number of the head flit */
    int32_t occ;                 /* flits in the buffer */
    int64_t mstamp;              /* cycle its head flit was granted a move */
} sim_vc;

typedef struct sim_msg {
    int32_t src, dst, len;
    int32_t hops;                /* network channels the header crossed */
    int32_t next;                /* source-queue / free-list link */
    int32_t consumed;            /* flits consumed at the destination */
    int64_t serial;              /* generation order, 0, 1, 2, ...; -1 for
                                    a broadcast copy (its broadcast has the
                                    serial) */
    int64_t t_gen;               /* cycle generated */
    int64_t t_inject;            /* cycle the header entered the injection
                                    buffer (-1 before) */
    /* broadcast copies (bcast.c) */
    int32_t bc;                  /* broadcast record, SIM_NONE: unicast */
    int16_t bdim, bdir;          /* tree edge this copy travels */
    /* PCS (pcs.c) */
    int32_t pvc;                 /* VC the probe sits in (the last one
                                    reserved), SIM_NONE when not probing */
    int32_t bt_ch;               /* channel just backtracked from, excluded
                                    at the next decision; -1 */
    int32_t backtracks;          /* backtracking steps so far */
    int64_t pready;              /* cycle the probe may act next */
    int64_t t_go;                /* cycle the acknowledgement is back: the
                                    PE may send data (-1 before) */
} sim_msg;

/* ---- ops tables ------------------------------------------------------- */

/* A topology: builds the channel graph and answers the geometric questions
 * routing functions ask.  Cube-like topologies (torus, mesh, hypercube)
 * share one builder (topo_cube.c); DCSH and express-cubes add entries. */
typedef struct sim_topology_ops {
    net_topology topology;
    int nclasses;                /* dateline classes a deterministic (escape)
                                    route needs: torus 2, others 1 */
    /* Build the channel graph; NULL: the generic point-to-point builder
     * (topo.c) over neighbor().  A topology with routers that have no PE
     * (express interchanges) or multi-drop channels (the DCSH) brings its
     * own. */
    int (*build)(sim_topo *t, const net_design *d, err *e);
    /* Neighbour of node u one step in (dim, dir), or -1 (mesh edge; the
     * hypercube has only dir = +1, meaning "flip bit dim"). */
    long (*neighbor)(const sim_topo *t, long u, int dim, int dir);
    /* Minimal output channels of router r towards node dst in dimension
     * dim, the dimension-order choice first; returns how many (0: dim
     * done, 2: torus tie at offset k/2). */
    int (*min_channels)(const sim_topo *t, int r, int dst, int dim,
                        int32_t *ch);
    /* Dateline class (0..nclasses-1) of a dimension-order hop from r
     * towards dst in dim. */
    int (*vc_class)(const sim_topo *t, int r, int dst, int dim);
    /* Optional, the two above fused for dimension-order routing (one call
     * per routing decision instead of one per dimension): the first
     * min_channels() choice in the lowest dimension where r and dst
     * differ, and its class in *cls; -1 if r == dst.  NULL: route_dor.c
     * asks min_channels and vc_class. */
    int32_t (*dor_hop)(const sim_topo *t, int r, int dst, int *cls);
    /* Network channels per node, an upper bound before the graph is
     * built (sim_memory_estimate). */
    double (*channels_per_node)(const net_design *d);
    /* The simulator's own limits on the topology's parameters: 0, or
     * ERR_UNSUPPORTED with the reason.  NULL: none. */
    int (*check)(const net_design *d, err *e);
    int pcs;                     /* PCS switching is simulated on it */
    /* Broadcast (bcast.c): spanning-tree ports per dimension of a node,
     * 0 when broadcast is not simulated on it; multidrop: one port
     * reaches the whole dimension (a bus) instead of one per direction. */
    int bcast_ports_per_dim, bcast_multidrop;
    int wrap_dateline;           /* dateline=wrap (BookSim2's classes)
                                    applies */
    /* Descriptions (sim__vc_describe): the name of routers past the
     * nodes ("ic", "bus"), and whether a node is named by its id alone
     * (its coordinates say nothing more). */
    const char *extra_router_name;
    int ids_only;
} sim_topology_ops;

struct sim_topo {
    const sim_topology_ops *ops;
    int n;                       /* dimensions */
    int k[NET_MAX_DIMS];
    long stride[NET_MAX_DIMS];   /* node id = sum coord[i] * stride[i] */
    int nodes, routers;
    int nports;                  /* port slots per router: 2n */
    int nnet;                    /* network channels */
    int ipn;                     /* injection channels per node (1, or
                                    1 + broadcast ports) */
    int bports;                  /* broadcast ports per node: torus 2n,
                                    DCSH n (0: no broadcast channels) */
    int mcast;                   /* set before build(): DCSH broadcast needs
                                    its bus receivers */
    int wrap_classes;            /* torus: design dateline=wrap (see
                                    topo_cube.c and sim_dor_class) */
    int32_t *port;               /* [r*nports + 2*dim + (dir<0)] -> channel */
    sim_chan *chan;              /* nnet + nodes * ipn entries */
    int32_t *coord;              /* [node*n + dim], when small enough to
                                    keep (saves two divisions per lookup);
                                    NULL otherwise */
    /* DCSH (topo_dcsh.c); NULL / 0 for point-to-point topologies */
    int32_t *phys;               /* [ch] representative channel of its bus */
    int32_t *grp;                /* [ch] input multiplexer at its dst, -1 */
    int ngroups;
    int32_t *grp_first;          /* [g .. g+1) channels feeding group g */
    int32_t mc_base;             /* DCSH broadcast: channel of bus (u, d) is
                                    mc_base + u*n + d; -1 without */
    /* express-cube interchanges (topo_express.c) */
    void *aux;                   /* topology-private tables, freed with it */
};

static inline int sim_topo_coord(const sim_topo *t, long r, int dim)
{
    if (t->coord)
        return t->coord[r * t->n + dim];
    return (int)((r / t->stride[dim]) % t->k[dim]);
}

static inline int32_t sim_topo_port(const sim_topo *t, int r, int dim,
                                    int dir)
{
    return t->port[(long)r * t->nports + 2 * dim + (dir < 0)];
}

/* Candidate output VCs of one routing decision, in priority tiers: the
 * allocator takes a free VC at random from the first tier that has one. */
typedef struct sim_route {
    int ntiers;
    int end[SIM_MAX_TIERS + 1];  /* tier i = candidates [end[i-1], end[i]) */
    int32_t ch[SIM_MAX_CANDS];   /* output channel */
    uint64_t vcs[SIM_MAX_CANDS]; /* permitted VCs on it */
} sim_route;

/* The dateline class of a dimension-order (or escape) hop in dimension dim
 * whose geometric class is cls, the header arriving on VC in_vc.  With
 * dateline=wrap a hop that continues in the dimension of its input VC, on a
 * VC of one class, keeps that class (the class is fixed where the
 * dimension starts); from an injection or adaptive VC it is cls. */
static inline int sim_dor_class(const sim_topo *t, int V,
                                const uint64_t mask_class[2], int dim,
                                int32_t in_vc, int cls)
{
    if (!t->wrap_classes || in_vc < 0)
        return cls;
    int32_t ch = in_vc / V;
    if (ch >= t->nnet || t->chan[ch].dim != dim)
        return cls;
    int v = in_vc % V;
    int c0 = (int)(mask_class[0] >> v & 1), c1 = (int)(mask_class[1] >> v & 1);
    return c0 != c1 ? c1 : cls;
}

/* Building a sim_route: sim_route_begin, then sim_route_add for each
 * candidate of the first tier, sim_route_tier to close it, and so on; the
 * route function closes its last tier too.  Empty masks and empty tiers are
 * dropped. */
static inline void sim_route_begin(sim_route *r)
{
    r->ntiers = 0;
    r->end[0] = 0;
}

static inline void sim_route_add(sim_route *r, int32_t ch, uint64_t vcs)
{
    if (!vcs || ch < 0 || r->ntiers >= SIM_MAX_TIERS)
        return;
    int i = r->end[r->ntiers];
    if (i >= SIM_MAX_CANDS)
        return;
    r->ch[i] = ch;
    r->vcs[i] = vcs;
    r->end[r->ntiers] = i + 1;
}

static inline void sim_route_tier(sim_route *r)
{
    if (r->ntiers >= SIM_MAX_TIERS)
        return;
    int start = r->ntiers ? r->end[r->ntiers - 1] : 0;
    if (r->end[r->ntiers] == start)
        return;                  /* empty tier: keep filling it */
    r->ntiers++;
    r->end[r->ntiers] = r->end[r->ntiers - 1];
}

/* A routing function.  route() must be a pure function of (router, message
 * destination, input VC) and the network's fixed structure: the deadlock
 * detector re-runs it. */
typedef struct sim_routing_ops {
    net_routing routing;
    /* 0 if this routing runs on d's topology; else ERR_UNSUPPORTED. */
    int (*check)(const net_design *d, err *e);
    /* Fill net->mask_* (which VCs are escape / adaptive). */
    void (*setup)(sim_net *net);
    void (*route)(const sim_net *net, int r, const sim_msg *m, int in_vc,
                  sim_route *out);
} sim_routing_ops;

/* A traffic pattern. */
typedef struct sim_traffic_ops {
    net_traffic traffic;
    /* Precompute (permutation tables); may be NULL. */
    void (*setup)(sim_net *net);
    /* Destination of the next message of src (src not silent). */
    int32_t (*dest)(const sim_net *net, int32_t src, rng *r);
    /* 1 if src never sends (a permutation's fixed point); NULL: never. */
    int (*silent)(const sim_net *net, int32_t src);
} sim_traffic_ops;

/* The registered entries (topo_cube.c, route_*.c, traffic.c). */
extern const sim_topology_ops sim__topo_torus, sim__topo_mesh,
    sim__topo_hypercube, sim__topo_dcsh, sim__topo_express;
extern const sim_routing_ops sim__route_dor, sim__route_duato,
    sim__route_minadapt, sim__route_pcube, sim__route_hop,
    sim__route_express, sim__route_pcs;

const sim_topology_ops *sim__topology_find(net_topology t);
/* The routing entry for d's (topology, routing, switching), or NULL. */
const sim_routing_ops *sim__routing_find(const net_design *d);
const sim_traffic_ops *sim__traffic_find(net_traffic t);

/* Build t for d (d already checked; t->mcast and t->bports set by the
 * caller); 0 or ERR_UNSUPPORTED. */
int sim__topo_build(sim_topo *t, const net_design *d, err *e);
/* For build() functions: append ipn = 1 + t->bports injection channels per
 * node after the t->nnet network channels already in t->chan (realloc). */
void sim__topo_add_injection(sim_topo *t);
void sim__topo_free(sim_topo *t);

/* ---- statistics (stats.c) --------------------------------------------- */

#define SIM_MAX_BATCHES 64

typedef struct sim_batch {
    double latency, network, wait, hops, flits;   /* unicast messages */
    double setup, backtracks;                     /* PCS */
    double blat;                                  /* broadcasts */
    long n;                      /* measured items done: unicast messages
                                    and broadcasts (batch completeness) */
    long nu, nb;                 /* of which unicast, broadcasts */
} sim_batch;

/* Latency histogram (hist.c): log-linear buckets, SIM_HIST_SUB per
 * power of two, so a percentile is within SIM_HIST_REL_ERR of the exact
 * nearest-rank one; the maximum is exact. */
#define SIM_HIST_SUB 64
#define SIM_HIST_BUCKETS (SIM_HIST_SUB * 58)   /* latencies up to 2^62 */
#define SIM_HIST_REL_ERR (1.0 / (2 * SIM_HIST_SUB))

typedef struct sim_hist {
    long count[SIM_HIST_BUCKETS];
    long n;
    int64_t max;
} sim_hist;

void sim__hist_add(sim_hist *h, int64_t latency);
/* The nearest-rank q-quantile (0 < q <= 1) of the latencies added, NAN
 * when none were. */
double sim__hist_quantile(const sim_hist *h, double q);

typedef struct sim_stats {
    long warmup;                 /* first measured serial */
    long tag_end;                /* serials [warmup, tag_end) are measured */
    long bsize;                  /* messages per batch */
    int nbatches;                /* batches in use */
    sim_batch b[SIM_MAX_BATCHES];
    long last_size;              /* size of the last batch (count rule) */
    long done;                   /* measured messages delivered */
    /* measurement window, cycles [ws, we) */
    int window;                  /* 0 before, 1 open, 2 closed */
    int64_t ws, we;
    long win_gen_msgs, win_gen_flits, win_del_msgs, win_cons_flits;
    sim_hist hist;               /* latencies of the measured unicast
                                    messages delivered */
    long *trace;                 /* sim_params.latency_trace (tests) */
    long trace_cap, trace_n;
} sim_stats;

void sim__stats_init(sim_stats *s, const sim_params *p);
/* Record a delivered measured message. */
void sim__stats_add(sim_stats *s, const sim_msg *m, int64_t now);
/* Record a completed measured broadcast (generation serial, latency). */
void sim__stats_add_bcast(sim_stats *s, int64_t serial, double latency);
/* Leading batches that are complete. */
int sim__stats_prefix(const sim_stats *s);
/* Mean and 95% half-width of the per-batch means of field f over the first
 * nb batches; weights by message counts for the mean. */
void sim__stats_summary(const sim_stats *s, int nb, sim_result *r);
/* Two-sided 95% quantile of Student's t with df degrees of freedom. */
double sim__t95(int df);

/* ---- the network ------------------------------------------------------ */

typedef struct sim_source {
    rng rng;
    double next_t;               /* next arrival, continuous time */
    int8_t silent;               /* never sends (permutation fixed point) */
    int8_t listed;               /* in net->act_src */
} sim_source;

/* The FIFO in front of one injection channel (index u*ipn + j). */
typedef struct sim_queue {
    int32_t head, tail;          /* message indices */
    int32_t len;
    int32_t rr;                  /* round robin over the channel's VCs */
    uint64_t vfree;              /* fast engine: free injection VCs */
    uint64_t send;               /* fast engine: VCs the PE is sending on
                                    (pe_msg set) */
    uint64_t room;               /* fast engine: VCs with room (occ < B) */
} sim_queue;

/* The fast engine's arbitration state of one channel, in one 16-byte
 * record (the traverse reads the candidates and the stamp of every
 * listed channel in every cycle; sim_chan.stamp and .rr serve the
 * active-list engine). */
typedef struct sim_arb {
    uint64_t cand;               /* bit v: VC ch*V+v is a candidate of the
                                    channel's arbitration (its owner is a VC
                                    holding a flit, and it is not blocked) */
    uint64_t sr;                 /* (stamp + 1) << SIM_ARB_T | listed in
                                    ach (SIM_ARB_LISTED) | round robin (the
                                    VC favoured next, SIM_ARB_RR: winner +
                                    1 mod 64, so V when the winner was V -
                                    1 < 63, which favours VC 0 as 0 does);
                                    stamp: cycle of its last switch
                                    resolution */
} sim_arb;

#define SIM_ARB_RR 0x3f
#define SIM_ARB_LISTED 0x40
#define SIM_ARB_T 8

/* A header woken from sleep (engine.c), with its place in the waiting
 * order. */
typedef struct sim_woken {
    int64_t seq;
    int32_t x;
} sim_woken;

/* A broadcast in progress (bcast.c). */
typedef struct sim_bcast {
    int64_t serial;              /* generation serial (measurement) */
    int64_t t_gen;
    int32_t src, len;
    int32_t left;                /* nodes still to reach */
    int32_t next;                /* free list */
    uint8_t *seen;               /* track_delivery: per node, owned */
} sim_bcast;

/* The switching engine: the phases of a cycle (engine.c, EVENT-ORDERING
 * RULE) that have two implementations, chosen once by sim_net_create.
 * sim__engine_active (engine_active.c) serves every network;
 * sim__engine_fast (engine_fast.c) serves point-to-point wormhole networks
 * with credit delay 0 from work sets kept across cycles.  The shared
 * phases (engine.c: allocation; source.c, bcast.c: queueing) call the
 * hooks where the engine's own state must follow. */
typedef struct sim_engine {
    const char *name;
    /* phase 3: the PEs move flits into their injection VCs */
    void (*inject)(sim_net *net);
    /* phases 5-6: grant this cycle's flit moves, then apply them */
    void (*traverse)(sim_net *net);
    /* a message joined injection queue qi (of node u) */
    void (*queued)(sim_net *net, int32_t u, int32_t qi);
    /* VC x's header was just given its output (x is on the active list) */
    void (*routed)(sim_net *net, int32_t x);
    /* the engine's own sets against their definitions
     * (sim_check_invariants) */
    int (*check)(const sim_net *net, err *e);
} sim_engine;

extern const sim_engine sim__engine_active, sim__engine_fast,
    sim__engine_par;

struct sim_net {
    sim_params p;
    sim_topo topo;
    const sim_routing_ops *routing;
    const sim_traffic_ops *traffic;
    int V, B, Dr, E, cd;
    uint64_t vdiv;               /* ceil(2^40 / V): the channel of VC y is
                                    (y * vdiv) >> 40, exact for y < 2^40 /
                                    V (nvc < 2^30, V <= 64) */
    int nodes;
    int fixed_len;               /* > 0: every message has this length */
    double mean_len;

    int64_t now;                 /* current cycle */
    int sources_on;

    /* virtual channels */
    sim_vc *vc;
    int32_t nvc;
    int32_t *vc_credits;         /* [vc] credit delay > 0: upstream's
                                    credits (NULL otherwise) */
    int32_t *vc_active;          /* [vc] index in net->active, SIM_NONE */
    int64_t *vc_ready;           /* [vc] header: cycle it may be allocated */
    int64_t *vc_since;           /* [vc] cycle the VC last went from empty
                                    to holding a flit (sim_vc_since: when
                                    its head flit got there) */
    uint64_t mask_all;           /* all V VCs */
    uint64_t mask_class[2];      /* deterministic / escape VCs per class */
    uint64_t mask_adapt;         /* adaptive VCs (duato, minimal_adaptive) */
    uint64_t *mask_hop;          /* hop_based: [h] VCs of a message h hops
                                    from its destination (owned) */
    int pcs;                     /* switching == pcs */

    /* DCSH buses and input multiplexers (see the header comment) */
    int32_t *bus_vc;             /* [rep*V + v] VC holding bus VC v; NULL
                                    for point-to-point channels */
    int64_t *grp_stamp;          /* [g] cycle its multiplexer passed a flit */
    int64_t *grp_seen;           /* [g] cycle traverse walked it */
    int32_t *grp_rr;             /* [g] member VC favoured next */
    int32_t *grp_owner;          /* [g] message-level mode: VC holding it */
    uint64_t *grp_act;           /* bit x - (first VC of g) of the words from
                                    grp_word[g]: member x of group g is on
                                    the active list (has an output), so the
                                    multiplexer's round robin visits only
                                    those: a saturated 32x32 DCSH has ~5%
                                    of a group's VCs active */
    int32_t *grp_word;           /* [g] first word of g's bits in grp_act */
    int mux_lock;                /* message-level multiplexers (M8) */

    /* messages: a pool with a free list; grows by doubling */
    sim_msg *msg;
    int32_t msg_cap, msg_free;
    long msgs_live;

    /* sources */
    sim_source *src;
    sim_queue *iq;               /* per injection channel (u*ipn + j) */
    int32_t *pe_msg, *pe_next;   /* per injection VC ((u*ipn + j)*V + v):
                                    message being sent by the PE and its
                                    next flit */
    int64_t *heap_t;             /* generation calendar: (cycle, node) */
    int32_t *heap_node;
    int heap_n;
    int32_t *act_src;            /* nodes with queued or sending messages
                                    (not the fast engine) */
    int nact_src;
    uint64_t *qready;            /* fast engine: bit qi set iff injection
                                    queue qi may be able to move a flit */
    int32_t nqready;             /* bits set in qready */
    int32_t *perm;               /* permutation patterns: dest per node */
    long silent_nodes;
    long sending_nodes;

    /* routers */
    int32_t *eject_busy;         /* per router: ejection channels in use */

    /* per-cycle work lists */
    int32_t *active;             /* VCs with out allocated */
    int nactive;
    int32_t *waiting;            /* VCs whose head is an unrouted header,
                                    oldest first */
    int nwaiting;
    int32_t *moved;              /* VCs whose head flit moves this cycle */
    int32_t *filled;             /* active_blk: VCs that got a flit this
                                    cycle (engine_active.c apply) */
    int nmoved;
    int32_t *dfs_ch, *dfs_i;     /* explicit stack of switch resolution */

    const sim_engine *engine;    /* phases 3 and 5-6 */

    /* Event-driven work sets (engine_fast.c, "WORK SETS"; sleeping
     * headers and dor_fast: engine.c). */
    int sleepy;                  /* failed headers sleep until woken */
    int active_blk;              /* the active-list engine keeps blk
                                    (engine_active.c, BLOCKED WORMS) */
    int dor_fast;                /* dimension-order routing on point-to-
                                    point channels with topo.ops->dor_hop:
                                    allocation skips the sim_route
                                    (engine.c) */
    int32_t *dor_tab;            /* dor_fast, small networks: [r * nodes +
                                    dst] dor_hop's channel * 2 + class, -1
                                    (routers x nodes <= SIM_DOR_TAB) */
    uint8_t *blk;                /* [vc] blocked: full, and its head can
                                    only move after an unrouted header
                                    further down its worm is allocated */
    uint64_t *held;              /* [ch] bit v: VC ch*V+v is held (owner
                                    set by sim_vc_take, cleared by
                                    sim_vc_release; network channels) */
    sim_arb *arb;                /* [ch] candidates, switch stamp, round
                                    robin, listed in ach */
    int32_t *ach;                /* channels whose cand may be nonzero
                                    (nchan + 1 entries: cand_set writes
                                    one past the end before counting) */
    int nach;
    int32_t *ej;                 /* VCs that may be ejecting a flit */
    int nej;
    uint8_t *in_ej;              /* [vc] listed in ej */
    uint64_t *dfs_rem;           /* [depth] candidates still to try */
    uint8_t *zzz;                /* [vc] header asleep (off the waiting
                                    list until woken) */
    long nzzz;                   /* headers asleep */
    uint32_t *wepoch;            /* [vc] sleep epoch (stale wake entries) */
    int64_t *wseq;               /* [vc] header: its place in the waiting
                                    order (push order) */
    int64_t wseq_next;
    sim_woken *woken;            /* headers woken since the last
                                    allocation, merged back into the
                                    waiting list by wseq */
    int nwoken;
    int32_t *wscratch;           /* merge buffer, nvc entries */
    int32_t *wl_head;            /* [slot] sleepers: slot = channel, or
                                    nchan + router for ejection */
    int32_t nslots;
    int32_t *wn_x, *wn_next;     /* sleeper entries: pool with free list */
    uint32_t *wn_ep;
    int32_t wn_cap, wn_free;

    /* credits in flight (credit delay > 0): ring of cd+1 lists */
    int32_t **cw;
    int *cw_n, *cw_cap;

    rng rng;                     /* allocator stream */

    /* PCS probes (pcs.c): messages whose probe is out */
    int32_t *probes;
    int nprobes, probes_cap;

    /* broadcasts (bcast.c) */
    sim_bcast *bc;
    int32_t bc_cap, bc_free;
    long bc_live;                /* broadcasts in progress */
    long copies_made, copies_done, copies_live;
    long bcast_flits_owed;       /* flits of the copies the broadcasts in
                                    progress have still to make (a copy is
                                    made when its sender is reached) */

    /* counters (generated / delivered: unicast messages and broadcasts,
     * the units the workload generates) */
    long generated, delivered, queued;
    long flits_generated, flits_injected, flits_consumed;
    /* hot-spot traffic: the flits generated for and delivered to the hot
     * node (whole messages), so that an overload of its ejection shows
     * even where it is a small share of all traffic (saturation.c) */
    int32_t hot_node;            /* -1: not hot-spot traffic */
    long hot_flits_generated, hot_flits_delivered;
    /* flits that crossed each network channel (entered one of its VCs),
     * counted only when sim_net_count_channels asked for it (NULL
     * otherwise): the saturation search's test for a channel that is
     * busy every cycle */
    int64_t *ch_flits;
    int64_t last_move;           /* last cycle any flit moved */
    int64_t next_deadlock_check;

    /* delivery tracking (tests) */
    uint8_t *deliv;
    long deliv_cap;
    long duplicates;

    sim_stats stats;
    char deadlock_desc[512];

    /* router=pipelined: the pipelined router's state (pipe.c); NULL for
     * the unit-latency router */
    sim_pipe *pipe;

    /* sim_params.partitioned: the partitioned engine's state
     * (engine_par.c), which runs its own cycle; NULL otherwise */
    sim_par *par;
};

/* ---- VC allocation state (shared by engine.c, pcs.c, deadlock.c) ------ */

/* Bus slot of network VC z (DCSH): index into net->bus_vc. */
static inline int64_t sim_bus_slot(const sim_net *net, int32_t z)
{
    int32_t ch = net->vc[z].ch;
    return (int64_t)net->topo.phys[ch] * net->V + (z - ch * net->V);
}

/* The VC that holds what z needs to be allocated: SIM_NONE when z can be
 * taken now; z itself when it is held; on a DCSH bus, the receiver-side
 * VC that holds the same bus VC. */
static inline int32_t sim_vc_holder(const sim_net *net, int32_t z)
{
    if (net->bus_vc && net->vc[z].ch < net->topo.nnet)
        return net->bus_vc[sim_bus_slot(net, z)];
    return net->vc[z].owner != SIM_NONE ? z : SIM_NONE;
}

/* Allocate free VC z to message msg, owned by upstream VC owner. */
static inline void sim_vc_take(sim_net *net, int32_t z, int32_t owner,
                               int32_t msg)
{
    int32_t ch = net->vc[z].ch;
    net->held[ch] |= UINT64_C(1) << (z - ch * net->V);
    net->vc[z].owner = owner;
    net->vc[z].msg = msg;
    if (net->bus_vc && net->vc[z].ch < net->topo.nnet)
        net->bus_vc[sim_bus_slot(net, z)] = z;
}

/* Wake the headers asleep on slot s (engine.c). */
void sim__wake(sim_net *net, int32_t s);

/* The physical channel of channel c: c, or on a DCSH bus the bus's
 * representative channel (topo.phys), which all its legs share: one flit
 * per cycle and V VCs.  A header waiting for a VC of c sleeps on it, since
 * a release on any leg of a bus can serve a header waiting on another
 * (engine.c, SLEEPING HEADERS). */
static inline int32_t sim_phys_channel(const sim_net *net, int32_t c)
{
    return net->topo.phys ? net->topo.phys[c] : c;
}

/* Free VC z (its tail has left, or a probe gave it back). */
static inline void sim_vc_release(sim_net *net, int32_t z)
{
    sim_vc *v = &net->vc[z];
    net->held[v->ch] &= ~(UINT64_C(1) << (z - v->ch * net->V));
    v->out = SIM_NONE;
    v->msg = SIM_NONE;
    v->owner = SIM_NONE;
    if (net->bus_vc && v->ch < net->topo.nnet)
        net->bus_vc[sim_bus_slot(net, z)] = SIM_NONE;
    if (net->sleepy) {
        int32_t slot = sim_phys_channel(net, v->ch);
        if (net->wl_head[slot] != SIM_NONE)
            sim__wake(net, slot);
    }
}

/* The cycle VC x's current head flit got there: x's last fill, or the
 * cycle after its head last moved (mstamp), whichever is later.  (Kept
 * as two stamps so that a move writes only the stamp it already
 * writes.) */
static inline int64_t sim_vc_since(const sim_net *net, int32_t x)
{
    int64_t moved = net->vc[x].mstamp + 1;
    return moved > net->vc_since[x] ? moved : net->vc_since[x];
}

/* The router VC x's buffer sits at. */
static inline int32_t sim_vc_router(const sim_net *net, int32_t x)
{
    return net->topo.chan[net->vc[x].ch].dst;
}

/* The sleep slot of router r's ejection channels. */
static inline int32_t sim_eject_slot(const sim_net *net, int32_t r)
{
    return net->nslots - net->topo.routers + r;
}

/* y, not yet marked blocked, becomes blocked (sim_net.blk): it is full and
 * its head waits on an unrouted header, its own or one down a chain of
 * blocked VCs. */
static inline int sim_vc_now_blocked(const sim_net *net, int32_t y)
{
    const sim_vc *vy = &net->vc[y];
    return vy->occ == net->B && !net->blk[y] &&
           (vy->out == SIM_NONE || (vy->out >= 0 && net->blk[vy->out]));
}

/* Input multiplexer group of VC x (-1: none). */
static inline int32_t sim_vc_group(const sim_net *net, int32_t x)
{
    return net->topo.grp ? net->topo.grp[net->vc[x].ch] : -1;
}

/* source.c: message pool, generation calendar, source queues */
void sim__sources_start(sim_net *net);        /* (re)build the calendar */
void sim__generate(sim_net *net);             /* this cycle's arrivals */
void sim__msg_release(sim_net *net, int32_t m);
/* The tail of message m was consumed in this cycle: statistics, delivery
 * tracking, back to the pool. */
void sim__deliver(sim_net *net, int32_t m);

/* engine.c */
void sim__cycle(sim_net *net);
void sim__waiting_push(sim_net *net, int32_t vc);
void sim__active_add(sim_net *net, int32_t vc);
int sim__blocked_def(const sim_net *net, int32_t vc);
void sim__active_remove(sim_net *net, int32_t vc);
/* Append message m to the FIFO of injection channel q (u*ipn + j) of node
 * u, and tell the engine (sim_engine.queued). */
void sim__queue_push(sim_net *net, int32_t u, int32_t q, int32_t m);
/* router=pipelined: injection queue qi has a message (pipe.c). */
void sim__pipe_queued(sim_net *net, int32_t qi);
/* The candidates of a routing decision for message m at router r, its
 * header in VC x (the routing function's, or a DCSH broadcast copy's bus). */
void sim__route_of(const sim_net *net, int r, const sim_msg *m, int32_t x,
                   sim_route *rt);
/* A free VC from the first tier of rt that has one, uniformly at random
 * (allocator stream), ignoring channel skip_ch (-1: none); SIM_NONE if
 * every permitted VC is held. */
int32_t sim__route_pick(sim_net *net, const sim_route *rt, int32_t skip_ch);

/* engine_par.c: the partitioned engine.  sim__par_supports: 0 if p's
 * threads and partitioned fields are consistent and the engine simulates
 * p's network (else ERR_INVALID / ERR_UNSUPPORTED with the reason);
 * sim__par_create starts its threads (net->par); sim__par_cycle is one
 * cycle (engine.c's phases, partitioned by router). */
int sim__par_supports(const sim_params *p, err *e);
int sim__par_create(sim_net *net, err *e);
void sim__par_destroy(sim_par *par);
void sim__par_cycle(sim_net *net);
/* Benches: the threads of a partitioned run (1 otherwise), and the CPU
 * seconds thread t has used (t = 0: the calling thread, which runs the
 * first block), to see how the work splits. */
int sim__par_threads(const sim_net *net);
double sim__par_thread_cpu(const sim_net *net, int t);

/* pcs.c */
void sim__pcs_start(sim_net *net, int32_t m, int32_t inj_vc);
void sim__pcs_step(sim_net *net);

/* saturation.c */
/* Tests: sim_saturation with each probe's verdict from script instead of
 * a simulation: script(ctx, rate, span, &accepted) returns whether the
 * probe at rate (messages/node/cycle) over span measured cycles is stable
 * and sets the flits/node/cycle it accepted.  Everything else (the
 * lengths, the budget, the answer) as sim_saturation. */
typedef int (*sim__probe_script)(void *ctx, double rate, long span,
                                 double *accepted);
int sim__saturation_scripted(const sim_params *p, sim__probe_script script,
                             void *ctx, sim_saturation_result *r, err *e);

/* bcast.c */
/* Turn the message just drawn at u (dst == SIM_BCAST) into a broadcast of
 * generation serial `serial` and length len: record it and queue the
 * source's copies. */
void sim__bcast_generate(sim_net *net, int32_t u, int32_t len,
                         int64_t serial);
/* Copy m was consumed at its destination: receipts and forwarding. */
void sim__bcast_delivered(sim_net *net, int32_t m);
void sim__bcast_free_all(sim_net *net);
/* The copies one broadcast puts into d's network (each a message of the
 * broadcast's length): the tree's N - 1 edges on the torus, its bus legs
 * on the DCSH (a leg reaches a whole cluster), 0 on other topologies. */
long sim__bcast_copies(const net_design *d);
/* The depth of d's broadcast trees (every tree level is one one-hop copy):
 * sum_i floor(k_i / 2) on the torus, n on the DCSH, 0 otherwise. */
int sim__bcast_depth(const net_design *d);
/* Message pool (source.c). */
int32_t sim__msg_alloc(sim_net *net);
/* The next generation serial (opens the measurement window at the warm-up
 * serial, counts it in the window, makes room for delivery tracking). */
int64_t sim__serial_new(sim_net *net);
/* A unicast message u -> dst of len flits generated now with that serial,
 * queued at u's unicast injection channel; returns its index.  (Sources
 * call it; tests use it to send one chosen message.) */
int32_t sim__message_new(sim_net *net, int32_t u, int32_t dst, int32_t len,
                         int64_t serial);
/* deadlock.c: VCs that can never move (stuck >= min_stuck cycles and
 * waiting only on each other); describes them in net->deadlock_desc.
 * Returns how many. */
long sim__deadlock_find(sim_net *net, long min_stuck);
/* run.c: "node 3 (1,0) dim 0+ vc 1" */
int sim__vc_describe(const sim_net *net, int32_t vc, char *buf, size_t size);

#endif
