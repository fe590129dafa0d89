/*
 * bcast.c — broadcast traffic: spanning trees whose edges are one-hop
 * copies queued at the forwarding nodes: the broadcast traffic of model
 * M10 and of the thesis's broadcast study (docs/models.md).
 *
 * Sources: Shahrabi, Ould-Khaoua and Mackenzie, 'Communication delay in
 * wormhole-routed torus networks', ACM SAC 2002 (the torus, model M10);
 * Loucif, 'Performance evaluation of distributed crossbar switch
 * hypermesh', PhD thesis, Glasgow 1999, ch. 5 (the DCSH against the
 * torus, simulated only).
 *
 * A generated message is a broadcast with probability beta (traffic.c).
 * It becomes a record (sim_bcast: serial, generation cycle, length, nodes
 * still to reach) and copies: each tree edge is one message of the
 * broadcast's length, queued at the injection channel of the port it
 * leaves by (net->iq[u*ipn + 1 + port]) — a node forwards all its copies
 * at once, as Shahrabi et al.'s all-port nodes do (their copies go "into the
 * local queue" of the output port) and as the thesis's separate broadcast
 * injection channel allows (Loucif 1999, sec. 5.3(e')).  A copy is routed like
 * any message; when its last flit is consumed at time t the receiving node
 * counts as reached and queues its own copies, generated at t.
 *
 * TORUS TREE (Shahrabi et al. 2002: Bose et al.'s optimal spanning tree; the
 * paper's Figs. 3-4 are lost, this reproduces its counts N_r).  In each
 * dimension the k-1 other positions are split into a + half of ceil((k-1)/2)
 * and a - half of floor((k-1)/2) (the + side takes the antipode, as dimension
 * order does at a tie).  The source sends one copy each way in every
 * dimension; a copy that arrived travelling along dimension i in direction s
 * goes on along i in direction s unless its node ends that half, and sends one
 * copy each way in every dimension j > i.  In 2D that is: the source's row
 * nodes forward 3 copies, the two row ends 2, column nodes 1 and column ends
 * 0:  N_r = (2k, k^2 - 3k, 2, k - 3) for 0..3 copies, Shahrabi et al. 2002
 * eq.(2) (tests/test_sim2.c counts them).  Every node is reached along its
 * dimension-order path, so at tree depth = its torus distance.
 *
 * DCSH TREE (Loucif 1999, ch. 5: "a cluster reached in one step"): a copy on
 * the bus of (u, i) reaches all k-1 other members of u's dimension-i cluster
 * at once (topo_dcsh.c's broadcast leg); the source sends one copy on its bus
 * in every dimension, and a node reached over dimension i one on every
 * dimension j > i.  Node v is reached at depth = the number of coordinates in
 * which it differs from the source.
 *
 * ZERO-LOAD LATENCY.  Each tree level costs one one-hop message: copy
 * generated at t, header at the router at t, leaves at t + D_r, last flit
 * consumed at t + 1 + D_r + L.  A broadcast's latency (generation to the
 * last flit of the last copy consumed at the last node) is therefore
 *     depth * (1 + D_r + L),
 * depth = sum_i floor(k_i / 2) on the torus (its diameter), n on the DCSH.
 *
 * Departures from Loucif 1999, ch. 5 (its broadcast simulations), recorded
 * here: the thesis replicates flits in the routers as they arrive (a flit
 * advances when all its outputs are free), gives broadcasts a VC of their own
 * with priority over unicast, and a separate ejection channel; we follow
 * Shahrabi et al. 2002 (store and forward through the local queues, copies
 * routed and arbitrated like unicast messages on any VC) for both networks,
 * and on the DCSH do not charge the receivers' input buffers, multiplexers or
 * ejection channels for broadcast flits (topo_dcsh.c).  The zero-load figures
 * below hold for this scheme.
 *
 * Exactly once: the trees reach every node but the source once; with
 * track_delivery each record keeps a per-node bitmap and a second receipt
 * counts as a duplicate.  Counters: copies are messages of the pool
 * (copies_made = copies_done + copies_live); a broadcast counts as one
 * generated and, when its last node is reached, one delivered message.
 * Flits: every copy counts its own (generated, injected, consumed), so at
 * r messages/node/cycle, beta of them broadcasts, the network carries
 * r L ((1 - beta) + beta C) flits/node/cycle, C = sim__bcast_copies(): the
 * factor the saturation search divides accepted flits by (saturation.c).
 * net->bcast_flits_owed counts the flits of the copies not made yet (C L
 * at generation, L less per copy made): a copy waiting behind a congested
 * channel holds back its subtree's copies, which a backlog of flits
 * generated alone would not count (saturation.c).  Once no broadcast is in
 * progress it is 0 (check.c), which checks C against the trees.
 */
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "sim_int.h"

static int32_t bc_alloc(sim_net *net)
{
    if (net->bc_free == SIM_NONE) {
        int32_t old = net->bc_cap;
        int32_t cap = old ? 2 * old : 64;
        net->bc = xrealloc(net->bc, sizeof *net->bc * (size_t)cap);
        for (int32_t i = cap - 1; i >= old; i--) {
            net->bc[i].next = net->bc_free;
            net->bc[i].seen = NULL;
            net->bc_free = i;
        }
        net->bc_cap = cap;
    }
    int32_t i = net->bc_free;
    net->bc_free = net->bc[i].next;
    net->bc_live++;
    return i;
}

static void bc_release(sim_net *net, int32_t i)
{
    free(net->bc[i].seen);
    net->bc[i].seen = NULL;
    net->bc[i].next = net->bc_free;
    net->bc_free = i;
    net->bc_live--;
}

void sim__bcast_free_all(sim_net *net)
{
    for (int32_t i = 0; i < net->bc_cap; i++)
        free(net->bc[i].seen);
    free(net->bc);
    net->bc = NULL;
}

static int is_dcsh(const sim_net *net)
{
    return net->topo.mc_base >= 0;
}

/* Queue one copy of broadcast b leaving node u along (dim, dir). */
static void copy(sim_net *net, int32_t u, int32_t b, int dim, int dir,
                 int64_t t_gen)
{
    int32_t len = net->bc[b].len;
    int32_t i = sim__msg_alloc(net);
    sim_msg *m = &net->msg[i];
    const sim_topo *t = &net->topo;
    memset(m, 0, sizeof *m);
    m->src = u;
    if (is_dcsh(net))
        m->dst = t->nodes + u * t->n + dim;       /* the bus's receivers */
    else
        m->dst = (int32_t)t->ops->neighbor(t, u, dim, dir);
    m->len = len;
    m->serial = -1;
    m->t_gen = t_gen;
    m->t_inject = -1;
    m->bc = b;
    m->bdim = (int16_t)dim;
    m->bdir = (int16_t)dir;
    m->pvc = SIM_NONE;
    m->bt_ch = -1;
    m->t_go = -1;
    net->copies_made++;
    net->copies_live++;
    net->bcast_flits_owed -= len;
    net->flits_generated += len;
    if (net->stats.window == 1)
        net->stats.win_gen_flits += len;
    int port = is_dcsh(net) ? dim : 2 * dim + (dir < 0);
    sim__queue_push(net, u, u * t->ipn + 1 + port, i);
}

/* Positions in the + and - halves of a torus ring of radix k. */
static int half(int k, int dir)
{
    return dir > 0 ? k / 2 : (k - 1) / 2;
}

/* Node u forwards broadcast b, reached over dimension `dim` travelling in
 * direction `dir` (dim = -1: u is the source). */
static void forward(sim_net *net, int32_t u, int32_t b, int dim, int dir,
                    int64_t t_gen)
{
    const sim_topo *t = &net->topo;
    if (is_dcsh(net)) {
        for (int j = dim + 1; j < t->n; j++)
            copy(net, u, b, j, +1, t_gen);
        return;
    }
    if (dim >= 0) {
        int k = t->k[dim];
        int a = sim_topo_coord(t, net->bc[b].src, dim);
        int c = sim_topo_coord(t, u, dim);
        int off = dir > 0 ? ((c - a) % k + k) % k : ((a - c) % k + k) % k;
        if (off < half(k, dir))
            copy(net, u, b, dim, dir, t_gen);
    }
    for (int j = dim + 1; j < t->n; j++)
        for (int s = +1; s >= -1; s -= 2)
            if (half(t->k[j], s) >= 1)
                copy(net, u, b, j, s, t_gen);
}

long sim__bcast_copies(const net_design *d)
{
    long nodes = net_nodes(d);
    if (d->topology == NET_TORUS)
        return nodes - 1;
    if (d->topology != NET_DCSH)
        return 0;
    /* the source's leg in every dimension; a node reached over dimension
     * i one leg in every j > i: prod_{l<i} k_l legs in dimension i */
    long legs = 0, before = 1;
    for (int i = 0; i < d->n; i++) {
        legs += before;
        before *= d->k[i];
    }
    return legs;
}

int sim__bcast_depth(const net_design *d)
{
    if (d->topology == NET_DCSH)
        return d->n;
    if (d->topology != NET_TORUS)
        return 0;
    int depth = 0;
    for (int i = 0; i < d->n; i++)
        depth += d->k[i] / 2;
    return depth;
}

void sim__bcast_generate(sim_net *net, int32_t u, int32_t len,
                         int64_t serial)
{
    int32_t b = bc_alloc(net);
    sim_bcast *r = &net->bc[b];
    r->serial = serial;
    r->t_gen = net->now;
    r->src = u;
    r->len = len;
    r->left = net->nodes - 1;
    r->seen = net->p.track_delivery ? xcalloc((size_t)net->nodes, 1) : NULL;
    net->bcast_flits_owed += (long)len * sim__bcast_copies(&net->p.design);
    forward(net, u, b, -1, 0, net->now);
}

/* Node v has received broadcast b; the receipt completes at t_done. */
static void receive(sim_net *net, int32_t b, int32_t v, int64_t t_done)
{
    sim_bcast *r = &net->bc[b];
    if (r->seen) {
        if (r->seen[v] || v == r->src)
            net->duplicates++;
        r->seen[v] = 1;
    }
    if (--r->left > 0)
        return;
    sim_stats *st = &net->stats;
    net->delivered++;
    if (st->window == 1)
        st->win_del_msgs++;
    if (r->serial >= st->warmup && r->serial < st->tag_end)
        sim__stats_add_bcast(st, r->serial, (double)(t_done - r->t_gen));
    if (net->p.track_delivery && r->serial < net->deliv_cap) {
        if (net->deliv[r->serial])
            net->duplicates++;
        if (net->deliv[r->serial] < 255)
            net->deliv[r->serial]++;
    }
    bc_release(net, b);
}

void sim__bcast_delivered(sim_net *net, int32_t mi)
{
    const sim_msg m = net->msg[mi];      /* copy: the pool may grow */
    const sim_topo *t = &net->topo;
    int64_t done = net->now + 1;         /* the last flit is consumed */
    if (!is_dcsh(net)) {
        forward(net, m.dst, m.bc, m.bdim, m.bdir, done);
        receive(net, m.bc, m.dst, done);
        return;
    }
    int dim = m.bdim, k = t->k[dim];
    int a = sim_topo_coord(t, m.src, dim);
    /* forward first: the record is freed with its last receipt */
    for (int c = 0; c < k; c++)
        if (c != a)
            forward(net, m.src + (c - a) * (int32_t)t->stride[dim], m.bc,
                    dim, +1, done);
    for (int c = 0; c < k; c++)
        if (c != a)
            receive(net, m.bc, m.src + (c - a) * (int32_t)t->stride[dim],
                    done);
}
