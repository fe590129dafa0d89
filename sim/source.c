/*
 * source.c — traffic sources: Poisson message generation, message lengths,
 * the infinite FIFO source queues, and the message pool.
 *
 * Generation.  Each sending node is an independent Poisson process of rate
 * lambda in continuous time, drawn from its own stream (seed, node).  An
 * arrival at real time tau belongs to cycle ceil(tau): the message exists at
 * the source from the start of that cycle, which is its generation cycle
 * t_gen (so zero-load latency is an exact integer).  The
 * calendar is a binary heap of (cycle, node), ties broken by node id, so
 * serial numbers are assigned in (cycle, node) order on every machine.
 *
 * Lengths: fixed, or geometric on {1, 2, ...} with mean Lm
 * (net_message_flits), drawn after the destination from the same stream.
 *
 * A broadcast (traffic broadcast, bcast.c) takes a generation serial like a
 * unicast message; its copies are pool messages with serial -1.
 *
 * Pool.  Messages live in one array with a free list; it doubles when full
 * (amortised, never per flit).  Its size is bounded in practice by the
 * saturation rule on source-queue length (run.c).
 */
#include <math.h>
#include <string.h>

#include "net/xalloc.h"
#include "sim_int.h"

/* ---- message pool ------------------------------------------------------ */

static void pool_grow(sim_net *net)
{
    int32_t old = net->msg_cap;
    int32_t cap = old ? old * 2 : 1024;
    net->msg = xrealloc(net->msg, sizeof *net->msg * (size_t)cap);
    for (int32_t i = cap - 1; i >= old; i--) {
        net->msg[i].next = net->msg_free;
        net->msg_free = i;
    }
    net->msg_cap = cap;
}

int32_t sim__msg_alloc(sim_net *net)
{
    if (net->msg_free == SIM_NONE)
        pool_grow(net);
    int32_t i = net->msg_free;
    net->msg_free = net->msg[i].next;
    net->msgs_live++;
    return i;
}

void sim__msg_release(sim_net *net, int32_t m)
{
    net->msg[m].next = net->msg_free;
    net->msg_free = m;
    net->msgs_live--;
}

/* ---- calendar (binary min-heap on (cycle, node)) ----------------------- */

static int heap_less(const sim_net *net, int a, int b)
{
    if (net->heap_t[a] != net->heap_t[b])
        return net->heap_t[a] < net->heap_t[b];
    return net->heap_node[a] < net->heap_node[b];
}

static void heap_swap(sim_net *net, int a, int b)
{
    int64_t t = net->heap_t[a];
    int32_t n = net->heap_node[a];
    net->heap_t[a] = net->heap_t[b];
    net->heap_node[a] = net->heap_node[b];
    net->heap_t[b] = t;
    net->heap_node[b] = n;
}

/* Sift entry i down: the smaller child moves up into the hole until the
 * entry is smaller than both (the same places as swapping it down). */
static void heap_down(sim_net *net, int i)
{
    int64_t *ht = net->heap_t;
    int32_t *hn = net->heap_node;
    const int n = net->heap_n;
    const int64_t t = ht[i];
    const int32_t u = hn[i];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = l;
        if (l >= n)
            break;
        if (r < n && (ht[r] < ht[l] || (ht[r] == ht[l] && hn[r] < hn[l])))
            m = r;
        if (t < ht[m] || (t == ht[m] && u < hn[m]))
            break;
        ht[i] = ht[m];
        hn[i] = hn[m];
        i = m;
    }
    ht[i] = t;
    hn[i] = u;
}

static void heap_up(sim_net *net, int i)
{
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!heap_less(net, i, p))
            return;
        heap_swap(net, i, p);
        i = p;
    }
}

static int64_t arrival_cycle(double tau)
{
    return (int64_t)ceil(tau);
}

void sim__sources_start(sim_net *net)
{
    double mean_gap = 1.0 / net->p.rate;
    net->heap_n = 0;
    for (int u = 0; u < net->nodes; u++) {
        sim_source *s = &net->src[u];
        if (s->silent)
            continue;
        s->next_t = (double)net->now + rng_exponential(&s->rng, mean_gap);
        net->heap_t[net->heap_n] = arrival_cycle(s->next_t);
        net->heap_node[net->heap_n] = u;
        heap_up(net, net->heap_n++);
    }
}

/* ---- generation -------------------------------------------------------- */

static void track_delivery_slot(sim_net *net, long serial)
{
    if (serial >= net->deliv_cap) {
        long cap = net->deliv_cap ? net->deliv_cap * 2 : 4096;
        while (cap <= serial)
            cap *= 2;
        net->deliv = xrealloc(net->deliv, (size_t)cap);
        memset(net->deliv + net->deliv_cap, 0,
               (size_t)(cap - net->deliv_cap));
        net->deliv_cap = cap;
    }
}

int64_t sim__serial_new(sim_net *net)
{
    int64_t serial = net->generated++;
    sim_stats *st = &net->stats;
    if (serial == st->warmup && st->window == 0) {
        st->window = 1;
        st->ws = net->now;
    }
    if (st->window == 1)
        st->win_gen_msgs++;
    if (net->p.track_delivery)
        track_delivery_slot(net, serial);
    return serial;
}

int32_t sim__message_new(sim_net *net, int32_t u, int32_t dst, int32_t len,
                         int64_t serial)
{
    int32_t i = sim__msg_alloc(net);
    sim_msg *m = &net->msg[i];
    memset(m, 0, sizeof *m);
    m->src = u;
    m->dst = dst;
    m->len = len;
    m->serial = serial;
    m->t_gen = net->now;
    m->t_inject = -1;
    m->bc = SIM_NONE;
    m->pvc = SIM_NONE;
    m->bt_ch = -1;
    m->t_go = -1;
    net->flits_generated += len;
    if (dst == net->hot_node)
        net->hot_flits_generated += len;
    if (net->stats.window == 1)
        net->stats.win_gen_flits += len;
    sim__queue_push(net, u, u * net->topo.ipn, i);
    return i;
}

static void new_message(sim_net *net, int32_t u)
{
    sim_source *s = &net->src[u];
    int32_t dst = net->traffic->dest(net, u, &s->rng);
    int32_t len = net->fixed_len > 0
                      ? net->fixed_len
                      : (int32_t)rng_geometric(&s->rng, net->mean_len);
    int64_t serial = sim__serial_new(net);
    if (dst == SIM_BCAST)        /* its copies count their own flits */
        sim__bcast_generate(net, u, len, serial);
    else
        sim__message_new(net, u, dst, len, serial);
}

void sim__generate(sim_net *net)
{
    if (!net->sources_on)
        return;
    double mean_gap = 1.0 / net->p.rate;
    while (net->heap_n > 0 && net->heap_t[0] <= net->now) {
        int32_t u = net->heap_node[0];
        sim_source *s = &net->src[u];
        new_message(net, u);
        s->next_t += rng_exponential(&s->rng, mean_gap);
        net->heap_t[0] = arrival_cycle(s->next_t);
        heap_down(net, 0);
    }
}

/* ---- delivery ----------------------------------------------------------- */

void sim__deliver(sim_net *net, int32_t mi)
{
    if (net->msg[mi].bc >= 0) {          /* a broadcast copy */
        sim__bcast_delivered(net, mi);
        net->copies_done++;
        net->copies_live--;
        sim__msg_release(net, mi);
        return;
    }
    const sim_msg *m = &net->msg[mi];
    sim_stats *st = &net->stats;
    net->delivered++;
    if (m->dst == net->hot_node)
        net->hot_flits_delivered += m->len;
    if (st->window == 1)
        st->win_del_msgs++;
    if (m->serial >= st->warmup && m->serial < st->tag_end)
        sim__stats_add(st, m, net->now + 1);
    if (net->p.track_delivery && m->serial < net->deliv_cap) {
        if (net->deliv[m->serial])
            net->duplicates++;
        if (net->deliv[m->serial] < 255)
            net->deliv[m->serial]++;
    }
    sim__msg_release(net, mi);
}
