/*
 * bound.c — the physical screen every model is checked against: the exact
 * zero-load latency and the channel-load bound on the saturation rate of a
 * (design, workload) that the models or the simulator support.
 *
 * The bound.  Every channel carries at most one flit per cycle, and every
 * message of Lm flits that crosses a channel occupies it for Lm flit
 * cycles.  If gamma_c is the mean number of messages per cycle crossing
 * channel c when every node injects at rate 1 (messages/node/cycle), no
 * network with those channels can carry a rate above
 *     rate_bound = 1 / (max_c gamma_c  x  Lm)
 * in a steady state (Dally and Towles, "Principles and Practices of
 * Interconnection Networks", section 3.3.1: the channel-load bound).  The
 * channel classes: the network channels of every dimension and direction
 * (express-cube local channels by position in the group, the channels
 * down from an interchange and the bundles of m express channels; DCSH
 * buses and input multiplexers), the injection channel of a node (one per
 * node, docs/models/semantics.md, item 7; broadcast copies have their own
 * per-port injection channels, sim/bcast.c) and the ejection channels
 * (design.ejection_channels per node, each one message at a time; 0 means
 * immediate consumption, no bound).
 *
 * How the loads are computed (exact for uniform traffic, then a valid
 * lower bound on the busiest channel wherever the routing can choose):
 *   - Uniform.  A message's leg in dimension i goes from coordinate a to b
 *     on one "ring" of that dimension (the nodes that differ only in
 *     coordinate i).  Under destination-uniform traffic every ordered pair
 *     (a, b), a != b, of one ring carries (N / k_i) / (N - 1) per unit rate
 *     whatever the ring (count the sources and destinations whose leg it
 *     is), so the load of a ring channel is that times the number of pairs
 *     whose leg uses it.  The legs follow the routing's direction rule:
 *     the shorter way round, + at the tie k/2 for dimension order (sim/
 *     route_dor.c) and the express-cube (sim/route_express.c), the tie
 *     split half and half for the adaptive routings — the smallest busiest
 *     load any choice can give, so still a bound.  Adaptive routings order
 *     the dimensions freely, but by translation symmetry (torus, hypercube,
 *     DCSH) every channel of a class carries the same load whatever the
 *     order; on the mesh the loads are those of the cut (every message
 *     between the two sides crosses one of its N/k channels), whose mean is
 *     a bound for any routing.
 *     P-cube routing on the hypercube is the exception: it is not
 *     translation invariant.  Every P-cube path of the pair (s, d) passes
 *     the node s & d (phase 1 clears the bits where s is 1 and d is 0,
 *     phase 2 sets those where s is 0 and d is 1), so the 3^n - 2^n pairs
 *     with s & d = 0 and s != 0 enter node 0, over its n input channels,
 *     and as many leave it: (3^n - 2^n) / (n (N - 1)) per channel per
 *     unit rate, the busiest (hcube_pcube_rates.c's lam_ch(0); 5.67 on a
 *     10-cube against the class mean 0.50; docs/models/corrected.md, CV16).
 *     Uniform traffic only.
 *   - Hotspot (fraction theta of each other node's messages to node h).
 *     The ejection channels of h carry (1 - theta) + theta (N - 1) per unit
 *     rate, whatever the routing.  Dimension order: exact per channel, the
 *     uniform part (1 - theta) x u plus the hot legs walked source by source
 *     (the busiest is the last dimension's channel into h, which carries
 *     every hot message of its column).  The adaptive routings may send
 *     the uniform traffic that passes through h round it, and spread the
 *     hot legs over every dimension, so only the forced part counts
 *     (hot_adaptive): per channel position the hops no minimal path avoids,
 *     per dimension the mean, and into h, for every set S of its input
 *     channels, the messages to h whose minimal paths can only enter
 *     through S, over |S| (S = all: what h receives over its inputs).
 *     Counting the through traffic as forced had put the 16x16 Duato torus
 *     (V=6, 4-wire channels, 64-bit messages, 5% to node 255, immediate
 *     consumption) at 0.01227, which the simulator sustains at 0.014; the
 *     forced count gives 0.01825.
 *   - Permutations (transpose, bit_reversal, shuffle).  Injection and
 *     ejection 1 per unit rate (a node is the destination of at most one
 *     source); network channels exact per channel for the deterministic
 *     routings (the leg of each source walked ring by ring), the mean per
 *     class (dimension, both directions pooled) for the adaptive ones.
 *   - Broadcast (torus and DCSH, the simulator's spanning trees, sim/
 *     bcast.c): a broadcast puts one copy on each tree edge; a tree has
 *     prod_{l<i} k_l x ceil((k_i - 1)/2) edges in dimension i direction +
 *     (floor(...) in -) on the torus, prod_{l<i} k_l buses of dimension i
 *     on the DCSH; by translation every channel of the class carries
 *     beta x that per unit rate on top of (1 - beta) x the uniform load.
 *     The tree loads + more than - (ceil against floor), so for the
 *     adaptive routings on an even ring the unicast ties are counted the
 *     way that best evens the two directions, not half and half
 *     (broadcast_tie: 4-ary 4-cube, beta = 0.04, 0.001457 where the split
 *     gave 0.001395).  Torus copies are consumed through the ejection
 *     channels ((1 - beta) + beta (N - 1) messages per node); DCSH copies
 *     are not (topo_dcsh.c).
 * A bound, not a prediction: wormhole blocking, one-flit buffers, VC
 * classes and the ejection channel's drain make every real network
 * saturate below it.  It is what no model may exceed.
 *
 * Zero-load latency (sim/sim.h): hops (1 + Dr) + Lm for wormhole, hops
 * (3 + Dr) + Lm for PCS, with hops the exact mean over the messages the
 * traffic sends (uniform: net_avg_distance; hotspot: the mix of the hot
 * node's distances and the uniform mean; permutations: the mean over the
 * sources that send).
 *
 * Cost: O(n k^2) per dimension for the uniform loads (express: O(kn k
 * path)), O(N n) for a permutation or a hot spot's distances; the exact
 * per-channel permutation loads need (N / k_i) x 2 k_i doubles per
 * dimension at a time, done up to 2^22 nodes (the simulator's own limit for
 * DCSHs and express-cubes); above that the class means are used.
 * Thread safety: no state; allocations freed before returning.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "net/xalloc.h"

#define BOUND_EXACT_MAX_NODES (1L << 22)

/* One dimension's "ring" (the nodes differing only in that coordinate) and
 * the numbering of its channels:
 *   torus, mesh, hypercube: + channel leaving position p = p, - = k + p
 *     (nch = 2k; the hypercube is the ring of 2, + only);
 *   dcsh: bus of position p = p, input multiplexer of p = k + p (nch = 2k);
 *   express (G = k/kn interchanges, I_g before position g kn): + channel
 *     leaving node p = p, + channel down from I_g = k + g, + bundle of m
 *     express channels I_g -> I_{g+1} = k + G + g; the - direction is the +
 *     direction of the mirrored ring (position p -> k - 1 - p, which maps
 *     the interchange layout onto itself), numbered from k + 2G. */
typedef struct ring_ops ring_ops;

typedef struct ring {
    const ring_ops *ops;
    int k, kn, G, m;
    int nch;
    int split_tie;    /* adaptive routing: a tie k/2 goes half each way */
    int drop_tie;     /* count only forced hops: a tie k/2, which an
                         adaptive routing may send either way, adds none */
    net_topology topo;
} ring;

typedef struct leg {
    int n;
    int *ch;
    double *wt;
} leg;

/* What one kind of ring answers, a row per topology (the table below). */
struct ring_ops {
    /* Set the fields beyond k, nch = 2k and split_tie; NULL: none. */
    void (*init)(ring *r, const net_design *d);
    /* The channels (with weights) of the leg from position a to b != a. */
    void (*leg)(const ring *r, int a, int b, leg *l);
    /* The channels that lead into position h; *n set. */
    void (*into)(const ring *r, int h, int *ch, int *n);
    /* Class of a channel under translation symmetry: channels of one
     * class carry the same uniform load. */
    int (*cls)(const ring *r, int c);
    /* Sources whose legs, summed, give every class its per-channel load. */
    int (*period)(const ring *r);
    /* Capacity of a channel in channels (express bundles hold m); NULL: 1. */
    double (*cap)(const ring *r, int c);
    /* Does channel number c exist (the mesh has no wrap-around, the
     * hypercube one channel each way)?  NULL: all 2k do. */
    int (*exists)(const ring *r, int c);
    /* Direction or kind of a channel, for the binding class's name. */
    const char *(*dir)(const ring *r, int c);
    /* Name of the pooled class of single channels ("local" beside the
     * express bundles). */
    const char *pooled;
};

static void leg_add(leg *l, int c, double w)
{
    l->ch[l->n] = c;
    l->wt[l->n] = w;
    l->n++;
}

/* ---- torus and hypercube: a cycle of k (the hypercube's of 2) ---- */

static void cycle_leg(const ring *r, int a, int b, leg *l)
{
    int k = r->k;
    int x = ((b - a) % k + k) % k;
    double wp = 0, wm = 0;
    if (x < k - x || (x == k - x && !r->split_tie))
        wp = 1;
    else if (x > k - x)
        wm = 1;
    else if (!r->drop_tie)
        wp = wm = 0.5;
    if (wp > 0)
        for (int j = 0; j < x; j++)
            leg_add(l, (a + j) % k, wp);
    if (wm > 0)
        for (int j = 0; j < k - x; j++)
            leg_add(l, k + ((a - j) % k + k) % k, wm);
}

static void cycle_into(const ring *r, int h, int *ch, int *n)
{
    int k = r->k;
    ch[(*n)++] = (h - 1 + k) % k;
    if (k > 2)
        ch[(*n)++] = k + (h + 1) % k;
}

static int kind_class(const ring *r, int c) { return c / r->k; }
static int one_period(const ring *r) { (void)r; return 1; }

static const char *cycle_dir(const ring *r, int c)
{
    return c < r->k ? "+" : "-";
}

static int pair_exists(const ring *r, int c) { return c < r->k; }

static const char *pair_dir(const ring *r, int c)
{
    (void)r, (void)c;
    return "";
}

/* ---- mesh: a line of k ---- */

static void line_leg(const ring *r, int a, int b, leg *l)
{
    int k = r->k;
    if (b > a)
        for (int p = a; p < b; p++)
            leg_add(l, p, 1);
    else
        for (int p = a; p > b; p--)
            leg_add(l, k + p, 1);
}

static void line_into(const ring *r, int h, int *ch, int *n)
{
    int k = r->k;
    if (h >= 1)
        ch[(*n)++] = h - 1;
    if (h <= k - 2)
        ch[(*n)++] = k + h + 1;
}

static int line_class(const ring *r, int c) { (void)r; return c; }
static int line_period(const ring *r) { return r->k; }

static int line_exists(const ring *r, int c)
{
    return c != r->k - 1 && c != r->k;
}

/* ---- DCSH: a cluster of k buses ---- */

static void bus_leg(const ring *r, int a, int b, leg *l)
{
    leg_add(l, a, 1);
    leg_add(l, r->k + b, 1);
}

static void bus_into(const ring *r, int h, int *ch, int *n)
{
    ch[(*n)++] = r->k + h;
}

static const char *bus_dir(const ring *r, int c)
{
    return c < r->k ? "bus" : "input multiplexer";
}

/* ---- express-cube: a cycle with interchanges ---- */

static void express_init(ring *r, const net_design *d)
{
    r->kn = d->express_kn;
    r->G = r->k / r->kn;
    r->m = d->express_m;
    r->nch = 2 * (r->k + 2 * r->G);
    r->split_tie = 0;
}

/* The express bundles hold m channels. */
static double express_cap(const ring *r, int c)
{
    int half = r->k + 2 * r->G;
    int x = c % half;
    return x >= r->k + r->G ? r->m : 1;
}

/* The express-cube's + walk from position a by x > 0 positions (the hops
 * net_distance counts, the path sim/route_express.c takes), channel
 * numbers offset by base. */
static void express_walk(const ring *r, int a, int x, double w, int base,
                         leg *l)
{
    int k = r->k, kn = r->kn, G = r->G;
    int pa = a % kn, c = (pa + x) / kn;
    if (c == 0) {
        for (int j = 0; j < x; j++)
            leg_add(l, base + (a + j) % k, w);
        return;
    }
    for (int j = 0; j < kn - pa; j++)
        leg_add(l, base + (a + j) % k, w);
    int g1 = (a / kn + 1) % G;
    for (int j = 0; j < c - 1; j++)
        leg_add(l, base + k + G + (g1 + j) % G, w);
    int gd = (g1 + c - 1) % G;
    leg_add(l, base + k + gd, w);
    int pb = (pa + x) % kn;
    for (int j = 0; j < pb; j++)
        leg_add(l, base + (gd * kn + j) % k, w);
}

static void express_leg(const ring *r, int a, int b, leg *l)
{
    int k = r->k;
    int x = ((b - a) % k + k) % k;
    if (x <= k - x)
        express_walk(r, a, x, 1, 0, l);
    else
        express_walk(r, k - 1 - a, k - x, 1, k + 2 * r->G, l);
}

static void express_into(const ring *r, int h, int *ch, int *n)
{
    int k = r->k;
    int half = k + 2 * r->G;
    for (int s = 0; s < 2; s++) {
        int p = s ? k - 1 - h : h, base = s ? half : 0;
        ch[(*n)++] = base + (p % r->kn == 0 ? k + p / r->kn : p - 1);
    }
}

/* Its kind and, for local channels, its position in the group. */
static int express_class(const ring *r, int c)
{
    int k = r->k;
    int half = k + 2 * r->G, s = c / half, x = c % half;
    int cls = x < k ? x % r->kn : (x < k + r->G ? r->kn : r->kn + 1);
    return s * (r->kn + 2) + cls;
}

static int express_period(const ring *r) { return r->kn; }

static const char *express_dir(const ring *r, int c)
{
    int half = r->k + 2 * r->G, x = c % half;
    if (x < r->k)
        return c < half ? "local +" : "local -";
    if (x < r->k + r->G)
        return c < half ? "interchange exit +" : "interchange exit -";
    return c < half ? "express +" : "express -";
}

static const ring_ops cycle_ops = {
    .leg = cycle_leg, .into = cycle_into, .cls = kind_class,
    .period = one_period, .dir = cycle_dir, .pooled = ""};
static const ring_ops pair_ops = {
    .leg = cycle_leg, .into = cycle_into, .cls = kind_class,
    .period = one_period, .exists = pair_exists, .dir = pair_dir,
    .pooled = ""};
static const ring_ops line_ops = {
    .leg = line_leg, .into = line_into, .cls = line_class,
    .period = line_period, .exists = line_exists, .dir = cycle_dir,
    .pooled = ""};
static const ring_ops bus_ops = {
    .leg = bus_leg, .into = bus_into, .cls = kind_class,
    .period = one_period, .dir = bus_dir, .pooled = ""};
static const ring_ops express_ops = {
    .init = express_init, .leg = express_leg, .into = express_into,
    .cls = express_class, .period = express_period, .cap = express_cap,
    .dir = express_dir, .pooled = " local"};

/* Indexed by net_topology.  A topology without a row is refused
 * (model_bound_compute), not bounded as another. */
static const ring_ops *const ring_table[NET_TOPOLOGY_COUNT] = {
    [NET_TORUS] = &cycle_ops,     [NET_MESH] = &line_ops,
    [NET_HYPERCUBE] = &pair_ops,  [NET_DCSH] = &bus_ops,
    [NET_EXPRESS] = &express_ops,
};

static void ring_init(ring *r, const net_design *d, int dim)
{
    memset(r, 0, sizeof *r);
    r->ops = ring_table[d->topology];
    r->topo = d->topology;
    r->k = d->k[dim];
    r->split_tie = d->routing != NET_ROUTE_DETERMINISTIC && r->k > 2;
    r->nch = 2 * r->k;
    if (r->ops->init)
        r->ops->init(r, d);
}

static double ring_cap(const ring *r, int c)
{
    return r->ops->cap ? r->ops->cap(r, c) : 1;
}

static void ring_leg(const ring *r, int a, int b, leg *l)
{
    l->n = 0;
    r->ops->leg(r, a, b, l);
}

static void ring_into(const ring *r, int h, int *ch, int *n)
{
    *n = 0;
    r->ops->into(r, h, ch, n);
}

static int ring_class(const ring *r, int c) { return r->ops->cls(r, c); }
static int ring_period(const ring *r) { return r->ops->period(r); }

/* Uniform per-channel loads (messages/cycle per unit rate, capacity
 * included) of every channel of the ring: u[0..nch-1]. */
static void ring_uniform(const ring *r, double pair, leg *l, double *u)
{
    int nch = r->nch;
    double *cls = xcalloc((size_t)nch, sizeof *cls);
    for (int a = 0; a < ring_period(r); a++)
        for (int b = 0; b < r->k; b++) {
            if (b == a)
                continue;
            ring_leg(r, a, b, l);
            for (int j = 0; j < l->n; j++)
                cls[ring_class(r, l->ch[j])] += l->wt[j];
        }
    for (int c = 0; c < nch; c++)
        u[c] = cls[ring_class(r, c)] * pair / ring_cap(r, c);
    free(cls);
}

static const char *dir_name(const ring *r, int c)
{
    return r->ops->dir(r, c);
}

typedef struct acc {
    double load;
    char name[64];
} acc;

static void acc_take(acc *a, double load, const char *fmt, int dim,
                     const char *what)
{
    if (load > a->load) {
        a->load = load;
        snprintf(a->name, sizeof a->name, fmt, dim, what);
    }
}

static double min_dist_hops(const ring *r, int a, int b, leg *l)
{
    if (a == b)
        return 0;
    ring_leg(r, a, b, l);
    double h = 0;
    for (int j = 0; j < l->n; j++)
        h += l->wt[j];
    return h;
}

/* Where source s sends its one fixed-destination flow (-1: nothing). */
typedef long (*flow_dest)(const net_design *d, const net_workload *w, long s);

static long perm_dest(const net_design *d, const net_workload *w, long s)
{
    return net_permutation_dest(d, w->traffic, s);
}

static long hot_dest(const net_design *d, const net_workload *w, long s)
{
    long h = w->hotspot_node < 0 ? net_nodes(d) - 1 : w->hotspot_node;
    return s == h ? -1 : h;
}

/* Exact per-channel loads, deterministic routing, of the flows s -> dest(s)
 * (weight wt each) on top of base x u[i][c] (the uniform part, the same on
 * every ring of a dimension): the leg of each source in dimension i lies
 * on the ring with the destination's coordinates below i and the source's
 * above (dimension order). */
static void flows_exact(const net_design *d, const net_workload *w,
                        flow_dest dest, double wt, double base,
                        double *const *u, const ring *rings, leg *l, acc *best)
{
    long nodes = net_nodes(d);
    long stride = 1;
    for (int i = 0; i < d->n; i++) {
        const ring *r = &rings[i];
        long rings_n = nodes / r->k;
        double *load = xcalloc((size_t)(rings_n * r->nch), sizeof *load);
        for (long s = 0; s < nodes; s++) {
            long t = dest(d, w, s);
            if (t < 0 || t == s)
                continue;
            int a = (int)(s / stride % r->k), b = (int)(t / stride % r->k);
            if (a == b)
                continue;
            long hi = s / (stride * r->k), lo = t % stride;
            long id = hi * stride + lo;
            ring_leg(r, a, b, l);
            for (int j = 0; j < l->n; j++)
                load[id * r->nch + l->ch[j]] += wt * l->wt[j];
        }
        for (long x = 0; x < rings_n * r->nch; x++) {
            int c = (int)(x % r->nch);
            if (r->ops->exists && !r->ops->exists(r, c))
                continue;
            acc_take(best, load[x] / ring_cap(r, c) + base * u[i][c],
                     "dim %d %s", i, dir_name(r, c));
        }
        free(load);
        stride *= r->k;
    }
}

/* Class means of the permutation loads, any routing: per dimension, the
 * total hops over every channel of the dimension (both directions, and the
 * express cube's local and express channels apart). */
static void perm_pooled(const net_design *d, const net_workload *w,
                        const ring *rings, leg *l, acc *best)
{
    long nodes = net_nodes(d);
    long stride = 1;
    for (int i = 0; i < d->n; i++) {
        const ring *r = &rings[i];
        double local = 0, expr = 0;
        for (long s = 0; s < nodes; s++) {
            long t = net_permutation_dest(d, w->traffic, s);
            if (t < 0 || t == s)
                continue;
            int a = (int)(s / stride % r->k), b = (int)(t / stride % r->k);
            if (a == b)
                continue;
            ring_leg(r, a, b, l);
            for (int j = 0; j < l->n; j++) {
                if (ring_cap(r, l->ch[j]) > 1)
                    expr += l->wt[j];
                else
                    local += l->wt[j];
            }
        }
        long rings_n = nodes / r->k;
        double nlocal = 0, nexpr = 0;
        for (int c = 0; c < r->nch; c++) {
            if (r->ops->exists && !r->ops->exists(r, c))
                continue;   /* no wrap-around, or one channel each way */
            if (ring_cap(r, c) > 1)
                nexpr += ring_cap(r, c);
            else
                nlocal += 1;
        }
        char pooled[32];
        snprintf(pooled, sizeof pooled, "%s (mean)", r->ops->pooled);
        acc_take(best, local / (rings_n * nlocal), "dim %d%s", i, pooled);
        if (nexpr > 0)
            acc_take(best, expr / (rings_n * nexpr), "dim %d%s", i,
                     " express (mean)");
        stride *= r->k;
    }
}

/* router=pipelined (sim/pipe.c): the credit round trip of the slowest
 * link of a path, in cycles from one switch grant of a VC to the grant its
 * returned credit allows: injection (PE to router) sw_alloc_delay + 3, a
 * network link st_final_delay + 2 link + 2 sw_alloc_delay + credit_delay,
 * ejection st_final_delay + sw_alloc_delay + 3 + credit_delay.  The
 * largest round trip of a path governs its whole stream: each hop lets
 * flit i leave no earlier than it arrives, one switch allocation after
 * flit i - 1 and one round trip after flit i - B, so the stream at the
 * end of the path is the one of its slowest link alone. */
static int pipe_round_trip(const net_design *d, int link)
{
    int sa = d->sw_alloc_delay, st = d->st_final_delay, cd = d->credit_delay;
    int r = sa + 3;
    if (st + 2 * link + 2 * sa + cd > r)
        r = st + 2 * link + 2 * sa + cd;
    if (st + sa + 3 + cd > r)
        r = st + sa + 3 + cd;
    return r;
}

/* The mean cycles from the header's to the tail's departure over a path
 * of round trip R: flit i leaves c_i cycles after the header, c_i =
 * max(c_{i-1} + sw_alloc_delay, c_{i-B} + R) (a VC is granted once per
 * switch allocation, and B flits per credit round trip R), averaged over
 * the message lengths. */
static double pipe_stream(const net_design *d, const net_workload *w,
                          int R, double lm)
{
    int B = d->buffer_flits;
    int fixed = w->length == NET_LENGTH_FIXED;
    long last = fixed ? (long)lm : 1L << 24;
    double *past = xcalloc((size_t)B, sizeof *past);
    /* geometric on {1, 2, ...} with mean lm: P(len) = pl */
    double q = 1 - 1 / lm, pl = 1 / lm, mass = 0, stream = 0, c = 0;
    for (long i = 0; i < last; i++) {
        if (i > 0) {
            c += d->sw_alloc_delay;
            if (i >= B && past[i % B] + R > c)
                c = past[i % B] + R;
        }
        past[i % B] = c;
        if (!fixed) {              /* a message of i + 1 flits */
            stream += pl * c;
            mass += pl;
            pl *= q;
            if (mass >= 1 - 1e-13)
                break;
        }
    }
    if (fixed)
        stream = c;
    free(past);
    return stream;
}

/* The paths of a traffic pattern as the pipelined zero load needs them:
 * mean hops, mean off-chip hops (the offchip_dims highest dimensions),
 * and the fractions of messages with at least one off-chip hop and with
 * at least one on-chip hop. */
typedef struct pipe_paths {
    double hops, off, any_off, any_on;
} pipe_paths;

/* Link delay of the on-chip hops: bus_link_delay on the DCSH, link_delay
 * elsewhere (the express-cube's express channels are counted at
 * link_delay: exact when express_link_delay = link_delay). */
static int pipe_onchip_link(const net_design *d)
{
    return d->topology == NET_DCSH ? d->bus_link_delay : d->link_delay;
}

/* The zero-load latency of router=pipelined: generation to the tail at
 * the destination PE.  A header is at its source router 2 cycles after
 * generation (the PE sends at once over a 1-cycle channel), each hop costs
 * the four stage delays and its link's delay (offchip_link_delay between
 * chips), the destination router the stages and 1 cycle of ejection
 * channel; then the stream of the path's slowest link (pipe_stream). */
static double pipe_zero_load(const net_design *d, const net_workload *w,
                             const pipe_paths *pp, double lm)
{
    int on = pipe_onchip_link(d), off = d->offchip_link_delay;
    int stages = d->routing_delay + d->vc_alloc_delay + d->sw_alloc_delay +
                 d->st_final_delay;
    double s_on = pipe_stream(d, w, pipe_round_trip(d, on), lm);
    double stream = s_on;
    if (d->offchip_dims > 0 && off != on) {
        /* a path's slowest link: the slower class if it has one */
        double s_off = pipe_stream(d, w, pipe_round_trip(d, off), lm);
        stream = off > on ? pp->any_off * s_off + (1 - pp->any_off) * s_on
                          : pp->any_on * s_on + (1 - pp->any_on) * s_off;
    }
    if (d->offchip_dims == 0)
        return 2 + pp->hops * (stages + on) + stages + 1 + stream;
    double links = (pp->hops - pp->off) * on + pp->off * off;
    return 2 + pp->hops * stages + links + stages + 1 + stream;
}

/* Is dimension i of d on a chip of its own (offchip_dims: its channels
 * join two chips)? */
static int dim_offchip(const net_design *d, int i)
{
    return d->offchip_dims > 0 && i >= d->n - d->offchip_dims;
}

/* Hops between coordinates a and b of dimension i (the other coordinates
 * equal). */
static int dim_hops(const net_design *d, int i, int a, int b)
{
    int ca[NET_MAX_DIMS] = {0}, cb[NET_MAX_DIMS] = {0};
    ca[i] = a;
    cb[i] = b;
    return net_distance(d, net_node_id(d, ca), net_node_id(d, cb));
}

/* The path statistics of one message s -> t. */
static void pipe_pair(const net_design *d, long s, long t, pipe_paths *pp)
{
    int cs[NET_MAX_DIMS], ct[NET_MAX_DIMS];
    net_coords(d, s, cs);
    net_coords(d, t, ct);
    double hops = 0, off = 0;
    int any_off = 0, any_on = 0;
    for (int i = 0; i < d->n; i++) {
        if (cs[i] == ct[i])
            continue;
        double h = dim_hops(d, i, cs[i], ct[i]);
        hops += h;
        if (dim_offchip(d, i)) {
            off += h;
            any_off = 1;
        } else {
            any_on = 1;
        }
    }
    pp->hops = hops;
    pp->off = off;
    pp->any_off = any_off;
    pp->any_on = any_on;
}

/* Uniform traffic's off-chip statistics (destination uniform over the
 * other N - 1 nodes): per off-chip dimension its mean hops, and a
 * destination on the source's chip (N/K - 1 of N - 1, K the product of
 * the off-chip radices) or sharing its on-chip coordinates (K - 1). */
static void pipe_uniform(const net_design *d, double hops, pipe_paths *pp)
{
    double N = (double)net_nodes(d), K = 1, off = 0;
    for (int i = 0; i < d->n; i++)
        if (dim_offchip(d, i)) {
            off += net_dim_avg_distance(d, i);
            K *= d->k[i];
        }
    pp->hops = hops;
    pp->off = off * N / (N - 1);
    pp->any_off = 1 - (N / K - 1) / (N - 1);
    pp->any_on = 1 - (K - 1) / (N - 1);
}

/* The input channels of position h of a ring that a minimal leg from a
 * may arrive on, as bits of the ring's list from ring_into (torus: the +
 * one from below, the - one from above, both at a tie). */
static unsigned arrive_mask(const ring *r, int a, int h)
{
    int k = r->k;
    switch (r->topo) {
    case NET_MESH:
        /* ring_into lists + first when h >= 1 */
        return a < h ? 1u : (h >= 1 ? 2u : 1u);
    case NET_TORUS: {
        int x = ((h - a) % k + k) % k;
        if (k <= 2 || x < k - x)
            return 1u;
        return x > k - x ? 2u : 3u;
    }
    default:   /* hypercube, DCSH: one channel in */
        return 1u;
    }
}

#define HOT_SUBSETS_MAX_INPUTS 20

/* Broadcast traffic on an even ring of an adaptive torus routing.  The
 * tree's copies load the + channels more than the - ones (ceil against
 * floor of (k - 1)/2 per ring), so splitting the unicast ties half and half
 * no longer gives the smallest busiest channel: the routing may send them
 * all the less loaded way.  Whatever it does, the mean load of the +
 * channels is a + f t and of the - channels b + (1 - f) t, with f the share
 * of the ties sent +, a and b the forced loads (tree copies and the
 * unicast hops no minimal path avoids) and t the ties' load if all went
 * one way, so the busiest channel carries at least
 * min_f max(a + f t, b + (1 - f) t).  u: the ring's uniform loads with the
 * ties split; before: the tree's rings of this dimension (prod_{l<i} k_l). */
static void broadcast_tie(const ring *r, const double *u, double N,
                          double beta, double before, int dim, acc *best)
{
    int k = r->k;
    /* a tie pair's k/2 hops, on each of the k/2 channels it can take one
     * way, of (N / k) / (N - 1) per pair: per channel */
    double tie = (N / k) / (N - 1) * (k / 2);
    double up = 0, down = 0;             /* class means, ties split */
    for (int c = 0; c < k; c++) {
        up += u[c] / k;
        down += u[k + c] / k;
    }
    double a = (1 - beta) * (up - tie / 2) + beta * before * (k / 2);
    double b = (1 - beta) * (down - tie / 2) + beta * before * ((k - 1) / 2);
    double t = (1 - beta) * tie;
    double f = fmin(1, fmax(0, (b - a + t) / (2 * t)));
    double plus = a + f * t, minus = b + (1 - f) * t;
    acc_take(best, fmax(plus, minus), "dim %d %s", dim,
             plus >= minus ? dir_name(r, 0) : dir_name(r, k));
}

/* Hot spot, any minimal routing that may choose (duato, hop_based,
 * minimal_adaptive, pcube, PCS).  Such a routing may steer the uniform
 * traffic passing through the hot node h around it, so only what no choice
 * avoids counts:
 *   - per channel, the forced hops: every minimal leg from coordinate a to
 *     b in dimension i crosses the same positions of some ring of that
 *     dimension (only the ring and, at a torus tie k/2, the direction are
 *     free), so the mean over the N/k_i rings of a position's load counts
 *     every non-tie leg: (1 - theta) x the uniform part plus theta x the
 *     hot legs (sum over the coordinates a != h_i of the leg a -> h_i);
 *   - per dimension, the mean over all its channels of the total load (the
 *     hop count is fixed, ties included);
 *   - the channels into h: every message to h (theta + (1 - theta) / (N - 1)
 *     from each other node) enters through one of those its minimal paths
 *     allow, so for any set S of them, the messages allowed only channels
 *     of S, over |S|, bounds the busiest (S = all: the mean).
 * The hot node's ejection channel is the caller's. */
static void hot_adaptive(const net_design *d, const net_workload *w,
                         const ring *rings, double *const *u, leg *l,
                         acc *best)
{
    const long nodes = net_nodes(d);
    const double N = (double)nodes, th = w->hotspot_fraction;
    long h = w->hotspot_node < 0 ? nodes - 1 : w->hotspot_node;
    int hc[NET_MAX_DIMS];
    net_coords(d, h, hc);
    for (int i = 0; i < d->n; i++) {
        ring r = rings[i];
        double *uf = xcalloc((size_t)r.nch, sizeof *uf);
        double *hot = xcalloc((size_t)r.nch, sizeof *hot);
        r.drop_tie = 1;
        ring_uniform(&r, (N / r.k) / (N - 1), l, uf);
        double hops_hot = 0;
        for (int a = 0; a < r.k; a++) {
            if (a == hc[i])
                continue;
            hops_hot += min_dist_hops(&rings[i], a, hc[i], l);
            ring_leg(&r, a, hc[i], l);
            for (int j = 0; j < l->n; j++)
                hot[l->ch[j]] += l->wt[j];
        }
        double total = 0, nchan = 0;
        for (int c = 0; c < r.nch; c++) {
            if (r.ops->exists && !r.ops->exists(&r, c))
                continue;   /* no wrap-around, one hypercube channel */
            acc_take(best, (1 - th) * uf[c] + th * hot[c] / ring_cap(&r, c),
                     "dim %d %s (forced)", i, dir_name(&r, c));
            total += u[i][c] * ring_cap(&r, c);
            nchan += ring_cap(&r, c);
        }
        /* per ring: the uniform hops, and the hot ones of the N/k_i
         * sources of each coordinate spread over the N/k_i rings */
        acc_take(best, ((1 - th) * total + th * hops_hot) / nchan,
                 "dim %d %s", i, "(mean)");
        free(uf);
        free(hot);
    }

    /* the channels into h, by the set of them each source may use */
    int m = 0, first[NET_MAX_DIMS], any_express = 0;
    for (int i = 0; i < d->n; i++) {
        any_express |= rings[i].topo == NET_EXPRESS;
        int ch[4], c;
        ring_into(&rings[i], hc[i], ch, &c);
        first[i] = m;
        m += c;
    }
    if (m == 0)
        return;
    double to_h = th + (1 - th) / (N - 1);
    if (m > HOT_SUBSETS_MAX_INPUTS || any_express) {
        acc_take(best, to_h * (N - 1) / m, "%d %s", m,
                 "channels into the hot spot (mean)");
        return;
    }
    size_t sets = (size_t)1 << m;
    double *cnt = xcalloc(sets, sizeof *cnt);
    for (long s = 0; s < nodes; s++) {
        if (s == h)
            continue;
        int sc[NET_MAX_DIMS];
        net_coords(d, s, sc);
        unsigned long mask = 0;
        for (int i = 0; i < d->n; i++)
            if (sc[i] != hc[i])
                mask |= (unsigned long)arrive_mask(&rings[i], sc[i], hc[i])
                        << first[i];
        cnt[mask] += to_h;
    }
    /* sum over subsets: cnt[S] = the messages whose allowed set lies in S */
    for (int b = 0; b < m; b++)
        for (size_t S = 0; S < sets; S++)
            if (S >> b & 1)
                cnt[S] += cnt[S ^ ((size_t)1 << b)];
    for (size_t S = 1; S < sets; S++) {
        double load = cnt[S] / __builtin_popcountl((unsigned long)S);
        if (load > best->load) {
            best->load = load;
            snprintf(best->name, sizeof best->name, "%d of the %d %s",
                     __builtin_popcountl((unsigned long)S), m,
                     "channels into the hot spot");
        }
    }
    free(cnt);
}

int model_bound_compute(const net_design *d, const net_workload *w,
                        model_bound *b, err *e)
{
    memset(b, 0, sizeof *b);
    int rc = net_check(d, e);
    if (rc)
        return rc;
    if ((rc = net_workload_check(d, w, e)))
        return rc;
    if (!ring_table[d->topology])
        return err_set(e, ERR_UNSUPPORTED,
                       "no channel-load bound for the %s yet",
                       net_topology_name(d->topology));
    if (w->traffic == NET_TRAFFIC_BROADCAST && d->topology != NET_TORUS &&
        d->topology != NET_DCSH)
        return err_set(e, ERR_UNSUPPORTED,
                       "broadcast traffic on a %s: the trees are defined on "
                       "the torus and the DCSH",
                       net_topology_name(d->topology));
    const long nodes = net_nodes(d);
    const double N = (double)nodes;
    const double lm = net_message_flits(d, w);
    const int n = d->n;
    ring rings[NET_MAX_DIMS];
    int kmax = 2;
    for (int i = 0; i < n; i++) {
        ring_init(&rings[i], d, i);
        if (rings[i].nch > kmax)
            kmax = rings[i].nch;
    }
    leg l;
    l.ch = xmalloc(sizeof *l.ch * (size_t)kmax);
    l.wt = xmalloc(sizeof *l.wt * (size_t)kmax);
    double *u[NET_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        u[i] = xcalloc((size_t)rings[i].nch, sizeof *u[i]);
        ring_uniform(&rings[i], (N / rings[i].k) / (N - 1), &l, u[i]);
    }

    acc best = {0, ""};
    double inject = 1, eject = 1;   /* messages per node per unit rate */
    /* router=pipelined with off-chip links: its paths' statistics and,
     * for a permutation, its fastest message */
    const int off_chip =
        d->router == NET_ROUTER_PIPELINED && d->offchip_dims > 0;
    pipe_paths pp = {0, 0, 0, 1};
    double pipe_min = INFINITY;
    double hops = net_avg_distance(d);
    /* uniform, hot-spot and broadcast traffic send to every other node, so
     * to a neighbour one hop away (the hot spot's, when theta = 1) */
    double min_hops = 1;
    const net_traffic tr = w->traffic;
    if (tr == NET_TRAFFIC_UNIFORM) {
        for (int i = 0; i < n; i++)
            for (int c = 0; c < rings[i].nch; c++)
                acc_take(&best, u[i][c], "dim %d %s", i,
                         dir_name(&rings[i], c));
        /* P-cube is not translation invariant (it corrects the 1 -> 0 bits
         * first, whatever their position): every path of the pair (s, d)
         * passes s & d, so the 3^n - 2^n pairs with s & d = 0 and s != 0
         * all enter node 0, and (by the mirror argument) as many leave it,
         * over its n channels each way. */
        if (d->topology == NET_HYPERCUBE && d->routing == NET_ROUTE_PCUBE &&
            n >= 1) {
            double node0 = (pow(3.0, n) - N) / (n * (N - 1));
            if (node0 > best.load) {
                best.load = node0;
                snprintf(best.name, sizeof best.name,
                         "channels at node 0 (P-cube)");
            }
        }
    } else if (tr == NET_TRAFFIC_HOTSPOT) {
        double th = w->hotspot_fraction;
        long h = w->hotspot_node < 0 ? nodes - 1 : w->hotspot_node;
        int hc[NET_MAX_DIMS];
        net_coords(d, h, hc);
        if (d->routing == NET_ROUTE_DETERMINISTIC &&
            nodes <= BOUND_EXACT_MAX_NODES)
            flows_exact(d, w, hot_dest, th, 1 - th, u, rings, &l, &best);
        else
            hot_adaptive(d, w, rings, u, &l, &best);
        eject = (1 - th) + th * (N - 1);
        /* mean hops: sources other than h send theta to h, 1 - theta
         * uniform; h sends uniform.  From(h) and to(h) per dimension. */
        double to_h = 0, from_h = 0;
        for (int i = 0; i < n; i++) {
            double per = N / rings[i].k;
            for (int a = 0; a < rings[i].k; a++) {
                to_h += per * min_dist_hops(&rings[i], a, hc[i], &l);
                from_h += per * min_dist_hops(&rings[i], hc[i], a, &l);
            }
        }
        to_h /= N - 1;
        from_h /= N - 1;
        hops = (th * (N - 1) * to_h +
                (1 - th) * (N * net_avg_distance(d) - from_h) + from_h) / N;
        if (off_chip) {
            /* the same mean over the off-chip dimensions; a message
             * leaves its chip as often as a uniform one (the hot node's
             * chip holds N/K - 1 of the N - 1 other sources) */
            double to_off = 0, from_off = 0;
            for (int i = 0; i < n; i++) {
                if (!dim_offchip(d, i))
                    continue;
                double per = N / rings[i].k;
                for (int a = 0; a < rings[i].k; a++) {
                    to_off += per * dim_hops(d, i, a, hc[i]);
                    from_off += per * dim_hops(d, i, hc[i], a);
                }
            }
            to_off /= N - 1;
            from_off /= N - 1;
            pipe_uniform(d, hops, &pp);
            pp.off = (th * (N - 1) * to_off +
                      (1 - th) * (N * pp.off - from_off) + from_off) / N;
        }
    } else if (tr == NET_TRAFFIC_BROADCAST) {
        double beta = w->broadcast_fraction, before = 1;
        for (int i = 0; i < n; i++) {
            const ring *r = &rings[i];
            if (d->topology == NET_TORUS && r->split_tie && r->k % 2 == 0) {
                broadcast_tie(r, u[i], N, beta, before, i, &best);
                before *= r->k;
                continue;
            }
            for (int c = 0; c < r->nch; c++) {
                double tree = 0;
                if (d->topology == NET_DCSH)
                    tree = c < r->k ? before : 0;
                else
                    tree = before * (double)(c < r->k ? r->k / 2
                                                      : (r->k - 1) / 2);
                acc_take(&best, (1 - beta) * u[i][c] + beta * tree,
                         "dim %d %s", i, dir_name(r, c));
            }
            before *= r->k;
        }
        inject = 1 - beta;
        eject = d->topology == NET_DCSH ? 1 - beta
                                        : (1 - beta) + beta * (N - 1);
    } else { /* permutations */
        double sum = 0;
        long senders = 0;
        pipe_paths all = {0, 0, 0, 0};
        min_hops = INFINITY;
        for (long s = 0; s < nodes; s++) {
            long t = net_permutation_dest(d, tr, s);
            if (t < 0 || t == s)
                continue;
            senders++;
            int dist = net_distance(d, s, t);
            sum += dist;
            min_hops = fmin(min_hops, dist);
            if (off_chip) {
                pipe_paths one;
                pipe_pair(d, s, t, &one);
                all.off += one.off;
                all.any_off += one.any_off;
                all.any_on += one.any_on;
                net_workload fixed = *w;
                fixed.length = NET_LENGTH_FIXED;
                pipe_min = fmin(pipe_min,
                                pipe_zero_load(d, &fixed, &one,
                                               w->length == NET_LENGTH_FIXED
                                                   ? lm
                                                   : 1));
            }
        }
        hops = senders ? sum / senders : 0;
        if (off_chip && senders) {
            pp.hops = hops;
            pp.off = all.off / senders;
            pp.any_off = all.any_off / senders;
            pp.any_on = all.any_on / senders;
        }
        if (d->routing == NET_ROUTE_DETERMINISTIC &&
            nodes <= BOUND_EXACT_MAX_NODES)
            flows_exact(d, w, perm_dest, 1, 0, u, rings, &l, &best);
        else
            perm_pooled(d, w, rings, &l, &best);
        if (senders == 0)
            inject = eject = 0;
    }
    for (int i = 0; i < n; i++)
        free(u[i]);
    free(l.ch);
    free(l.wt);

    /* router=pipelined: a PE sends one message at a time, on one VC, so
     * its injection channel carries at most B flits per credit round trip
     * (sw_alloc_delay + 3 cycles) */
    if (d->router == NET_ROUTER_PIPELINED &&
        d->buffer_flits < d->sw_alloc_delay + 3)
        inject *= (double)(d->sw_alloc_delay + 3) / d->buffer_flits;
    /* and one grant per switch allocation */
    if (d->router == NET_ROUTER_PIPELINED && d->sw_alloc_delay > 1 &&
        inject * d->sw_alloc_delay > best.load)
        inject *= d->sw_alloc_delay;
    if (inject > best.load) {
        best.load = inject;
        snprintf(best.name, sizeof best.name, "injection");
    }
    if (d->ejection_channels > 0 && eject / d->ejection_channels > best.load) {
        best.load = eject / d->ejection_channels;
        snprintf(best.name, sizeof best.name, "ejection");
    }
    b->load = best.load;
    b->flits = lm;
    b->rate = best.load > 0 ? 1.0 / (best.load * lm) : INFINITY;
    b->hops = hops;
    double per_hop = d->switching == NET_SWITCH_PCS ? 3.0 : 1.0;
    b->zero_load = hops * (per_hop + d->router_delay) + lm;
    if (d->router == NET_ROUTER_PIPELINED) {
        if (!off_chip)
            pp = (pipe_paths){hops, 0, 0, 1};
        else if (tr == NET_TRAFFIC_UNIFORM || tr == NET_TRAFFIC_BROADCAST)
            pipe_uniform(d, hops, &pp);    /* broadcast: its unicasts */
        b->zero_load = pipe_zero_load(d, w, &pp, lm);
    }
    /* one message: its hops and its flits, no mean over lengths */
    double min_flits = w->length == NET_LENGTH_FIXED ? lm : 1;
    b->min_zero_load = min_hops * (per_hop + d->router_delay) + min_flits;
    if (d->router == NET_ROUTER_PIPELINED) {
        net_workload one = *w;
        one.length = NET_LENGTH_FIXED;
        if (!off_chip) {
            pipe_paths p1 = {min_hops, 0, 0, 1};
            b->min_zero_load = pipe_zero_load(d, &one, &p1, min_flits);
        } else if (tr == NET_TRAFFIC_UNIFORM ||
                   tr == NET_TRAFFIC_HOTSPOT) {
            /* a neighbour one hop away, on the chip or off it */
            pipe_paths p_on = {1, 0, 0, 1}, p_off = {1, 1, 1, 0};
            double z = INFINITY;
            if (d->offchip_dims < n)
                z = pipe_zero_load(d, &one, &p_on, min_flits);
            b->min_zero_load =
                fmin(z, pipe_zero_load(d, &one, &p_off, min_flits));
        } else {
            b->min_zero_load = pipe_min;
        }
    }
    if (!isfinite(min_hops))   /* a permutation where nobody sends */
        b->min_zero_load = NAN;
    snprintf(b->channel, sizeof b->channel, "%s", best.name);
    return 0;
}

/* The bound depends on (d, w) only, and a model is evaluated at many
 * rates of one design in a row (a sweep, model_saturation_rate's
 * bisection, the optimizer's rates), while the bound of a 32x32
 * express-cube costs about 17 us, more than express-det's own fixed point
 * (bench/bench_models).  So each thread keeps the last (d, w) and its
 * bound.  Byte equality of the structs (they hold no pointers) implies
 * equal fields; a copy that differs only in padding just recomputes. */
static _Thread_local struct {
    int valid, ok;
    net_design d;
    net_workload w;
    double rate;
} screen_memo;

int model__screen(const net_design *d, const net_workload *w, double rate)
{
    if (!screen_memo.valid || memcmp(&screen_memo.d, d, sizeof *d) != 0 ||
        memcmp(&screen_memo.w, w, sizeof *w) != 0) {
        model_bound b;
        screen_memo.ok = model_bound_compute(d, w, &b, NULL) == 0;
        screen_memo.rate = screen_memo.ok ? b.rate : 0;
        memcpy(&screen_memo.d, d, sizeof *d);
        memcpy(&screen_memo.w, w, sizeof *w);
        screen_memo.valid = 1;
    }
    if (!screen_memo.ok)
        return 0;
    return rate >= screen_memo.rate;
}
