/*
 * pipe.c — the pipelined input-queued virtual-channel router
 * (router=pipelined): routing computation, VC allocation, switch
 * allocation and switch traversal stages, links with a delay, and
 * credit-based flow control with a credit round trip.
 *
 * Why a second engine: the unit-latency router of engine.c (the source
 * papers') moves a flit across router and link in one cycle, sees a freed
 * slot upstream at once and arbitrates outputs only, so its latencies are
 * about half a real router's and it ignores credit stalls and input-port
 * conflicts (Peh and Dally, "A Delay Model and Speculative Architecture for
 * Pipelined Routers", HPCA 2001).  This engine follows the input-queued
 * router of BookSim2 (Jiang, Becker et al., "A Detailed and Flexible
 * Cycle-Accurate Network-on-Chip Simulator", ISPASS 2013) stage by stage,
 * so its figures can be checked against BookSim2's (bench/booksim_compare.c).
 *
 * THE ROUTER.  Each input port has V VCs of B flits; a VC holds a FIFO of
 * flits, possibly the tail of one message and the head of the next.  An
 * input VC is IDLE, in VC allocation (VA) or ACTIVE (holds an output VC).
 * Per cycle t, every router, in this order:
 *   1. arrivals: flits and credits due in cycle t are applied (a credit
 *      waits credit_delay more cycles at a router, none at a PE);
 *   2. VA: every VA VC whose routing is done (rdy <= t) requests the free
 *      output VCs of the first tier of its routing function's candidates
 *      that has one (at its destination: the V ejection VCs); a
 *      one-iteration iSLIP allocator (output-first grant, input accept,
 *      round-robin pointers moved on accept) matches input VCs to output
 *      VCs; the result takes effect at t + vc_alloc_delay - 1 (a VC taken
 *      meanwhile fails the grant), and the winner may request the switch
 *      from the next cycle;
 *   3. SA: every ACTIVE VC whose front flit is ready and whose output VC
 *      has a credit requests (input port, output port); one VC per pair,
 *      chosen round robin per input port; a one-iteration iSLIP allocator
 *      over the ports; the grant takes effect at u = t + sw_alloc_delay -
 *      1: the flit leaves the buffer (one credit to the upstream router or
 *      PE), takes a credit of its output VC, and arrives in the next input
 *      buffer at u + st_final_delay + 1 + link_delay (at the PE of an
 *      ejection VC at u + st_final_delay + 2).  A tail releases its output
 *      VC (free for VA from u + 1).
 *   With speculative=1, a VA VC also requests the switch in its VA cycle
 *   (lower priority than non-speculative requests of the same input port);
 *   the grant is used only if its VA succeeded on that output port.
 *
 * PIPELINE TIMING.  A flit that becomes the front of its VC in cycle f
 * (arriving in an empty VC: f = its arrival; behind a flit that left in
 * cycle u: f = u + 1) requests VA from f + routing_delay if it is a head,
 * the switch from f if not.  A credit sent in cycle u reaches the upstream
 * router at u + 1 + link_delay + credit_delay.  Hence at zero load a hop
 * costs routing_delay + vc_alloc_delay + sw_alloc_delay + st_final_delay +
 * link_delay cycles, a message generated in cycle t0 is at its source
 * router at t0 + 2 (the PE sends at once; the injection channel takes 1 +
 * 1), its head reaches the PE at t0 + 2 + H per-hop delays + (routing_delay
 * + vc_alloc_delay + sw_alloc_delay + st_final_delay + 1), and a VC
 * streams min(1, B / R) flits per cycle, R = st_final_delay + 2 link_delay
 * + sw_alloc_delay + 1 + credit_delay the credit round trip
 * (net_zero_load_pipelined in models/bound.c computes the whole).  The
 * latency of a message is from its generation to its tail reaching the
 * destination PE, as BookSim2 measures it.
 *
 * PEs.  A PE sends one flit per cycle into its injection channel: the
 * message at the head of its queue takes a free injection VC with a credit,
 * round robin after the last one used, and sends its flits in order, one
 * per cycle while it has credits; the next message starts after the tail.
 * An ejection VC's PE consumes a flit on arrival and returns the credit.
 * Injection and ejection channels take 1 cycle, as BookSim2's do.
 *
 * PORTS.  A network channel is an output port of its source and an input
 * port of its destination; a DCSH bus is one output port (one flit per
 * cycle) whose V bus VCs are shared by its receivers' legs, and a DCSH
 * input multiplexer is one input port over its legs' VCs; express channels
 * and DCSH bus legs take express_link_delay and bus_link_delay, and the
 * channels of the offchip_dims highest dimensions, which join two chips,
 * offchip_link_delay (whatever their class on a chip).
 *
 * COST.  Per cycle, only the injection queues with work and the routers
 * that hold a flit are visited, and in a router only the VCs that can act,
 * found in per-router bit sets kept in step with the VC state (all
 * checked by sim__pipe_check): holding a flit, in VC allocation, ACTIVE
 * with a credit (a credit's arrival sets its holder's bit), a switch or VC
 * grant pending, asleep.  A VC in allocation that finds no free candidate
 * sleeps: its retries could change nothing until an output VC of its
 * router is freed, which only a tail crossing that router's switch does;
 * va_wake() then resumes it at the cycle its next retry would have come.
 * When no two switch requests of a router share an input or an output
 * port (the usual case below saturation), iSLIP grants every one, so
 * sa_direct() grants them without building its request lists (and with a
 * single candidate, the most common case, without a conflict test);
 * otherwise iSLIP runs over bit sets of ports.  Likewise a VC allocation
 * with a single requesting input VC takes the output VC iSLIP would give
 * it without running iSLIP.  Every shortcut gives the same grants,
 * pointer moves and event order as the plain stages, so results are
 * bit-identical to them.  Events wait in two calendar rings (flits,
 * credits) whose size bounds the longest delay and whose slots have room
 * for the most events a cycle can have, so adding an event allocates and
 * checks nothing.  A flit sent to an input VC goes into its buffer at
 * once, with its arrival cycle (the credits guarantee the room): only a
 * flit that arrives as the VC's front needs an event; one arriving behind
 * others becomes the front when its predecessor leaves, at that cycle or
 * its arrival, whichever is later.  Arrivals in input buffers commute
 * (each changes its own VC and counters), so this changes no result; the
 * PEs' arrivals, whose order the statistics see, stay events in their
 * order.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "pipe_int.h"

/* The stages, inlined with their number of words per VC set fixed
 * (routers_cycle), so that the common case of one word loses its loops. */
#define PIPE_HOT static inline __attribute__((always_inline))

/* ---- calendars ---------------------------------------------------------- */

/* cap: a bound on the events of one cycle (sim__pipe_create derives it),
 * so that adding an event needs no room check. */
static void cal_init(sim_pcal *c, int horizon, size_t esize, int32_t cap)
{
    /* a power of two >= the longest delay: a slot holds one cycle's events
     * and the slot of a cycle is a mask, not a division */
    int size = 1;
    while (size < horizon)
        size *= 2;
    c->size = size;
    c->esize = esize;
    c->cap = cap;
    /* untouched, the room beyond the events of the busiest cycle costs
     * address space only */
    c->ev = xmalloc(esize * (size_t)cap * (size_t)size);
    c->n = xcalloc((size_t)size, sizeof *c->n);
}

static void cal_free(sim_pcal *c)
{
    free(c->ev);
    free(c->n);
}

/* Events queued in all slots. */
static long cal_live(const sim_pcal *c)
{
    long n = 0;
    for (int s = 0; s < c->size; s++)
        n += c->n[s];
    return n;
}

/* The events of slot s. */
static inline void *cal_slot(const sim_pcal *c, int s)
{
    return (char *)c->ev + c->esize * (size_t)c->cap * (size_t)s;
}

/* A new event in the slot of cycle t: its slot and index there. */
static inline int cal_add(sim_pcal *c, int64_t t, int *slot)
{
    int s = (int)(t & (c->size - 1));
    assert(c->n[s] < c->cap);
    *slot = s;
    return c->n[s]++;
}

static inline void flit_at(sim_pipe *p, int64_t t, int32_t x, int32_t m,
                           int32_t seq)
{
    int s, i = cal_add(&p->flits, t, &s);
    sim_pflit *f = (sim_pflit *)cal_slot(&p->flits, s) + i;
    f->x = x;
    f->m = m;
    f->seq = seq;
}

/* The front flit of input VC x (in its buffer) arrives in cycle t. */
static inline void front_at(sim_pipe *p, int64_t t, int32_t x)
{
    int s, i = cal_add(&p->flits, t, &s);
    ((sim_pflit *)cal_slot(&p->flits, s))[i].x = x;
}

/* A flit sent to input VC x, arriving in cycle t: it takes its place in
 * x's buffer at once, behind the flits there or on their way (the credits
 * guarantee the room), so that only a flit that will arrive as the front
 * needs an event; the others become the front when the one before leaves
 * (traverse). */
static inline void flit_send(sim_pipe *p, int64_t t, int32_t x, int32_t m,
                             int32_t seq)
{
    sim_pvc *v = &p->vc[x];
    int32_t at = v->bh + v->bn;
    if (at >= p->B)
        at -= p->B;
    sim_pbuf *b = &p->buf[(size_t)x * p->B + (size_t)at];
    b->m = m;
    b->seq = seq;
    b->t = (uint32_t)t;
    if (v->bn++ == 0)
        front_at(p, t, x);
}

static inline void credit_at(sim_pipe *p, int64_t t, int32_t key)
{
    int s, i = cal_add(&p->credits, t, &s);
    ((int32_t *)cal_slot(&p->credits, s))[i] = key;
}

/* ---- set-up ------------------------------------------------------------- */

static int32_t link_delay(const sim_net *net, int32_t c)
{
    const net_design *d = &net->p.design;
    const sim_chan *ch = &net->topo.chan[c];
    if (c >= net->topo.nnet)
        return 1;                          /* injection channel */
    if (d->offchip_dims > 0 && ch->dim >= d->n - d->offchip_dims)
        return d->offchip_link_delay;      /* between two chips */
    if (net->topo.phys)
        return d->bus_link_delay;
    if (d->topology == NET_EXPRESS && ch->src >= net->nodes &&
        ch->dst >= net->nodes)
        return d->express_link_delay;      /* interchange to interchange */
    return d->link_delay;
}

/* Output port key of network channel c: its bus on the DCSH. */
static inline int32_t out_key(const sim_net *net, int32_t c)
{
    return net->topo.phys ? net->topo.phys[c] : c;
}

int sim__pipe_create(sim_net *net, err *e)
{
    const net_design *d = &net->p.design;
    const sim_topo *t = &net->topo;
    sim_pipe *p = xcalloc(1, sizeof *p);
    net->pipe = p;
    p->rd = d->routing_delay;
    p->dva = d->vc_alloc_delay;
    p->dsa = d->sw_alloc_delay;
    p->st = d->st_final_delay;
    p->cd = d->credit_delay;
    p->spec = d->speculative;
    p->V = net->V;
    p->B = net->B;
    p->nch = t->nnet + net->nodes * t->ipn;
    p->nvc = p->nch * p->V;
    p->nnet_vc = t->nnet * p->V;
    const int V = p->V, R = t->routers;
    const int32_t nch = p->nch;

    p->lat = xmalloc(sizeof *p->lat * (size_t)nch);
    int maxlat = 1;
    for (int32_t c = 0; c < nch; c++) {
        p->lat[c] = link_delay(net, c);
        if (p->lat[c] > maxlat)
            maxlat = p->lat[c];
    }

    /* local ports */
    int32_t ngrp = t->grp ? t->ngroups : 0;
    int32_t *in_key_loc = xmalloc(sizeof *in_key_loc * (size_t)(nch + ngrp));
    int32_t *out_key_loc = xmalloc(sizeof *out_key_loc * (size_t)nch);
    for (int32_t i = 0; i < nch + ngrp; i++)
        in_key_loc[i] = -1;
    for (int32_t i = 0; i < nch; i++)
        out_key_loc[i] = -1;
    p->nin = xcalloc((size_t)R, sizeof *p->nin);
    p->nout = xcalloc((size_t)R, sizeof *p->nout);
    p->in_loc = xmalloc(sizeof *p->in_loc * (size_t)nch);
    p->out_loc = xmalloc(sizeof *p->out_loc * (size_t)nch);
    for (int32_t c = 0; c < nch; c++) {
        int32_t r = t->chan[c].dst;
        int32_t key = (t->grp && c < t->nnet && t->grp[c] >= 0)
                          ? nch + t->grp[c]
                          : c;
        if (in_key_loc[key] < 0)
            in_key_loc[key] = p->nin[r]++;
        p->in_loc[c] = in_key_loc[key];
        p->out_loc[c] = -1;
        if (c < t->nnet) {
            int32_t s = t->chan[c].src, k = out_key(net, c);
            if (out_key_loc[k] < 0)
                out_key_loc[k] = p->nout[s]++;
            p->out_loc[c] = out_key_loc[k];
        }
    }
    free(in_key_loc);
    free(out_key_loc);
    p->in_off = xmalloc(sizeof *p->in_off * (size_t)(R + 1));
    p->out_off = xmalloc(sizeof *p->out_off * (size_t)(R + 1));
    int32_t ni = 0, no = 0;
    for (int r = 0; r < R; r++) {
        if (r < net->nodes)
            p->nout[r]++;                  /* ejection: the last port */
        p->in_off[r] = ni;
        p->out_off[r] = no;
        ni += p->nin[r];
        no += p->nout[r];
        if (p->nin[r] > p->maxin)
            p->maxin = p->nin[r];
        if (p->nout[r] > p->maxout)
            p->maxout = p->nout[r];
    }
    p->in_off[R] = ni;
    p->out_off[R] = no;

    /* input VCs per router, and each VC's slot in its port */
    p->rvc_off = xcalloc((size_t)R + 1, sizeof *p->rvc_off);
    for (int32_t c = 0; c < nch; c++)
        p->rvc_off[t->chan[c].dst + 1] += V;
    for (int r = 0; r < R; r++)
        p->rvc_off[r + 1] += p->rvc_off[r];
    p->rvc = xmalloc(sizeof *p->rvc * (size_t)p->nvc);
    /* on cache-line boundaries, so that a VC's hot fields (sim_pvc, one
     * line) take one miss, not two: malloc aligns to 16 bytes only */
    {
        size_t bytes = sizeof *p->vc * ((size_t)p->nvc + 1); /* not 0 */
        p->vc = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
        if (!p->vc) {
            fprintf(stderr, "dse: out of memory allocating %zu bytes\n",
                    bytes);
            abort();
        }
        memset(p->vc, 0, bytes);
    }
    p->slot = xmalloc(sizeof *p->slot * (size_t)p->nvc);
    int32_t *fill = xmalloc(sizeof *fill * (size_t)R);
    memcpy(fill, p->rvc_off, sizeof *fill * (size_t)R);
    p->nslot = xcalloc((size_t)ni + 1, sizeof *p->nslot);
    p->rvi = xmalloc(sizeof *p->rvi * (size_t)p->nvc);
    for (int32_t c = 0; c < nch; c++) {
        int32_t r = t->chan[c].dst, ip = p->in_off[r] + p->in_loc[c];
        for (int v = 0; v < V; v++) {
            int32_t x = c * V + v;
            p->rvi[x] = fill[r] - p->rvc_off[r];
            p->rvc[fill[r]++] = x;
            p->slot[x] = p->nslot[ip]++;
            p->vc[x].vip = p->in_loc[c];
            p->vc[x].cdel =
                1 + p->lat[c] + (c < t->nnet ? p->cd : 0);
        }
    }
    free(fill);

    size_t nvc = (size_t)p->nvc;
    p->va_t = xmalloc(sizeof *p->va_t * nvc);
    p->va_y = xmalloc(sizeof *p->va_y * nvc);
    p->buf = xmalloc(sizeof *p->buf * nvc * (size_t)p->B);
    p->used = xmalloc(sizeof *p->used * nvc);
    for (size_t x = 0; x < nvc; x++) {
        p->va_t[x] = p->vc[x].sa_t = -1;
        p->va_y[x] = p->vc[x].out = -1;
        p->vc[x].cred = p->B;
        p->used[x] = -1;
    }
    p->rbusy = xcalloc((size_t)R, sizeof *p->rbusy);
    int32_t maxrv = 1;
    for (int r = 0; r < R; r++)
        if (p->rvc_off[r + 1] - p->rvc_off[r] > maxrv)
            maxrv = p->rvc_off[r + 1] - p->rvc_off[r];
    p->mw = (int)((maxrv + 63) / 64);
    p->occ_m = xcalloc((size_t)R * (size_t)p->mw, sizeof *p->occ_m);
    p->va_m = xcalloc((size_t)R * (size_t)p->mw, sizeof *p->va_m);
    p->go_m = xcalloc((size_t)R * (size_t)p->mw, sizeof *p->go_m);
    p->pend_m = xcalloc((size_t)R * (size_t)p->mw, sizeof *p->pend_m);
    p->sleep_m = xcalloc((size_t)R * (size_t)p->mw, sizeof *p->sleep_m);
    p->vab_m = xcalloc((size_t)R * (size_t)p->mw, sizeof *p->vab_m);
    for (int32_t x = 0; x < p->nvc; x++) {
        p->vc[x].vrt = t->chan[x / V].dst;
        p->vc[x].vpos = (p->vc[x].vrt * p->mw + (p->rvi[x] >> 6)) * 64 +
                     (p->rvi[x] & 63);
    }
    p->rb_m = xcalloc((size_t)R / 64 + 1, sizeof *p->rb_m);
    p->rc_n = xmalloc(sizeof *p->rc_n * (size_t)p->nvc);
    memset(p->rc_n, -1, sizeof *p->rc_n * (size_t)p->nvc);
    p->rc_y = xmalloc(sizeof *p->rc_y * (size_t)p->nvc * PIPE_ROUTE_CACHE);
    p->rc_tier = xmalloc((size_t)p->nvc * PIPE_ROUTE_CACHE);
    size_t nej = (size_t)net->nodes * (size_t)V;
    p->ej_cred = xmalloc(sizeof *p->ej_cred * nej);
    p->ej_used = xmalloc(sizeof *p->ej_used * nej);
    for (size_t i = 0; i < nej; i++) {
        p->ej_cred[i] = p->B;
        p->ej_used[i] = -1;
    }
    p->va_g = xcalloc((size_t)no * (size_t)V + 1, sizeof *p->va_g);
    p->va_a = xcalloc(nvc + 1, sizeof *p->va_a);
    p->spec_out = xmalloc(sizeof *p->spec_out * nvc);
    for (size_t x = 0; x < nvc; x++)
        p->spec_out[x] = -1;
    p->sa_g = xcalloc((size_t)no + 1, sizeof *p->sa_g);
    p->sa_a = xcalloc((size_t)ni + 1, sizeof *p->sa_a);
    p->sw_rr = xcalloc((size_t)ni + 1, sizeof *p->sw_rr);
    p->in_stamp = xmalloc(sizeof *p->in_stamp * ((size_t)ni + 1));
    p->out_stamp = xmalloc(sizeof *p->out_stamp * ((size_t)no + 1));
    for (int32_t i = 0; i <= ni; i++)
        p->in_stamp[i] = -1;
    for (int32_t i = 0; i <= no; i++)
        p->out_stamp[i] = -1;

    size_t nq = (size_t)net->nodes * (size_t)t->ipn;
    p->pe_m = xmalloc(sizeof *p->pe_m * nq);
    p->pe_seq = xcalloc(nq, sizeof *p->pe_seq);
    p->pe_v = xcalloc(nq, sizeof *p->pe_v);
    p->pe_last = xmalloc(sizeof *p->pe_last * nq);
    p->iq_m = xcalloc(nq / 64 + 1, sizeof *p->iq_m);
    for (size_t q = 0; q < nq; q++) {
        p->pe_m[q] = SIM_NONE;
        p->pe_last[q] = V - 1;     /* the first message takes VC 0 */
    }

    /* the longest delay: a credit of an ejection VC, u + st + 2 + 1 +
     * credit_delay, or a flit on the slowest link */
    int horizon = p->dsa + p->st + 2 * maxlat + p->cd + 4;
    /* events of one cycle: a flit arrives as the front of an input VC at
     * most once per VC, and each input VC sends at most one flit per
     * cycle, with a delay fixed per VC, hence at most one flit to an
     * ejection VC's PE and one credit per VC; an ejection VC (nodes x V)
     * takes one flit per cycle, hence one credit from its PE */
    int32_t per_cycle = p->nvc + net->nodes * V;
    cal_init(&p->flits, horizon, sizeof(sim_pflit), per_cycle);
    cal_init(&p->credits, horizon, sizeof(int32_t), per_cycle);

    int32_t maxvc = 0;
    for (int r = 0; r < R; r++)
        if (p->rvc_off[r + 1] - p->rvc_off[r] > maxvc)
            maxvc = p->rvc_off[r + 1] - p->rvc_off[r];
    size_t nin_vc = (size_t)maxvc + (size_t)p->maxin + 1;
    p->act = xmalloc(sizeof *p->act * nin_vc);
    size_t nout_vc = (size_t)p->maxout * (size_t)V + 1;
    (void)ni;
    p->g_in = xmalloc(sizeof *p->g_in * nout_vc);
    p->g_rq = xmalloc(sizeof *p->g_rq * nout_vc);
    p->a_out = xmalloc(sizeof *p->a_out * nin_vc);
    p->a_rq = xmalloc(sizeof *p->a_rq * nin_vc);
    for (size_t i = 0; i < nout_vc; i++)
        p->g_in[i] = -1;
    for (size_t i = 0; i < nin_vc; i++)
        p->a_out[i] = -1;
    p->touch_o = xmalloc(sizeof *p->touch_o * nout_vc);
    p->touch_i = xmalloc(sizeof *p->touch_i * nin_vc);
    size_t pairs = (size_t)p->maxin * (size_t)p->maxout + 1;
    p->sa_req = xmalloc(sizeof *p->sa_req * pairs);
    p->sa_spec = xmalloc(pairs);
    p->pairs = xmalloc(sizeof *p->pairs * pairs);
    for (size_t i = 0; i < pairs; i++)
        p->sa_req[i] = -1;
    p->sa_bits = p->maxin <= 64 && p->maxout <= 64;
    for (int32_t x = 0; x < p->nvc && p->sa_bits; x++) {
        int32_t r = p->vc[x].vrt, ip = p->in_off[r] + p->vc[x].vip;
        if (p->nslot[ip] > INT16_MAX) {
            p->sa_bits = 0;      /* the pointers below would not fit */
            break;
        }
        p->vc[x].slot_nx =
            (int16_t)(p->slot[x] + 1 < p->nslot[ip] ? p->slot[x] + 1 : 0);
        p->vc[x].ip_nx =
            (int16_t)(p->vc[x].vip + 1 < p->nin[r] ? p->vc[x].vip + 1 : 0);
    }
    p->sa_oreq = xcalloc((size_t)p->maxout + 1, sizeof *p->sa_oreq);
    p->sa_igr = xcalloc((size_t)p->maxin + 1, sizeof *p->sa_igr);
    (void)e;
    return 0;
}

void sim__pipe_destroy(sim_pipe *p)
{
    if (!p)
        return;
    void *arrays[] = {
        p->vc, p->slot, p->lat, p->in_loc, p->out_loc, p->nin, p->nout,
        p->in_off, p->out_off, p->rvc_off, p->rvc, p->nslot,
        p->va_t, p->va_y, p->buf, p->rbusy, p->occ_m, p->va_m,
        p->go_m, p->pend_m, p->sleep_m, p->vab_m, p->rb_m, p->iq_m,
        p->sa_oreq, p->sa_igr, p->rvi, p->rc_n, p->rc_y, p->rc_tier, p->act,
        p->used, p->ej_cred, p->ej_used, p->va_g, p->va_a, p->sa_g, p->sa_a,
        p->sw_rr, p->pe_m, p->pe_seq, p->pe_v, p->pe_last, p->rq_in,
        p->rq_out, p->rq_y, p->g_in, p->g_rq, p->a_out, p->a_rq, p->touch_o,
        p->touch_i, p->sa_req, p->sa_spec, p->pairs, p->spec_out, p->in_stamp,
        p->out_stamp,
    };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    cal_free(&p->flits);
    cal_free(&p->credits);
    free(p);
}

/* ---- helpers ------------------------------------------------------------ */

static inline int32_t vc_router(const sim_net *net, int32_t x)
{
    return net->pipe->vc[x].vrt;
}

/* Slot of output VC y in p->used (its bus VC on the DCSH). */
static inline int32_t used_slot(const sim_net *net, int32_t y)
{
    if (net->topo.phys && y / net->V < net->topo.nnet)
        return net->topo.phys[y / net->V] * net->V + y % net->V;
    return y;
}

/* Set or clear x's bit (router r) in a per-router VC set. */
static inline void vc_bit_set(const sim_pipe *p, uint64_t *m, int r,
                              int32_t x)
{
    int32_t i = p->vc[x].vpos;
    (void)r;
    m[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline void vc_bit_clear(const sim_pipe *p, uint64_t *m, int r,
                                int32_t x)
{
    int32_t i = p->vc[x].vpos;
    (void)r;
    m[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* The front flit of x (router r) changed in cycle f: set when it may
 * request. */
static inline void front_ready(sim_pipe *p, int r, int32_t x, int64_t f,
                               int head)
{
    p->vc[x].since = (uint32_t)f;
    if (head) {
        p->vc[x].state = PIPE_VA;
        p->rc_n[x] = -1;         /* a new header: its route is not known */
        vc_bit_set(p, p->va_m, r, x);
        p->vc[x].rdy = f + p->rd;
    } else {
        p->vc[x].rdy = f;
    }
}

/* Double the room of the request lists (rare: they keep their room). */
static void rq_grow(sim_pipe *p)
{
    p->rq_cap = p->rq_cap ? 2 * p->rq_cap : 256;
    p->rq_in = xrealloc(p->rq_in, sizeof *p->rq_in * (size_t)p->rq_cap);
    p->rq_out = xrealloc(p->rq_out, sizeof *p->rq_out * (size_t)p->rq_cap);
    p->rq_y = xrealloc(p->rq_y, sizeof *p->rq_y * (size_t)p->rq_cap);
}

static inline void rq_push(sim_pipe *p, int32_t in, int32_t out, int32_t y)
{
    if (p->nrq == p->rq_cap)
        rq_grow(p);
    p->rq_in[p->nrq] = in;
    p->rq_out[p->nrq] = out;
    p->rq_y[p->nrq] = y;
    p->nrq++;
}

/* One iteration of iSLIP over the requests rq_* (inputs 0..nin-1,
 * outputs 0..nout-1, pointers g[out], a[in]): each output grants the
 * requesting input nearest at or after its pointer, each input accepts the
 * granting output nearest at or after its pointer, and an accept moves
 * both pointers one past the match.  a_rq[in] receives the accepted
 * request index (-1 none) for every input in touch_i[0 .. *ni). */
static void islip(sim_pipe *p, int nin, int nout, int32_t *g, int32_t *a,
                  int *ni)
{
    int no = 0;
    *ni = 0;
    if (nin <= 64 && nout <= 64) {
        /* no two requests share an input or an output: each is granted
         * and accepted, whatever the pointers */
        uint64_t in_seen = 0, out_seen = 0;
        int i = 0;
        for (; i < p->nrq; i++) {
            uint64_t bi = UINT64_C(1) << p->rq_in[i];
            uint64_t bo = UINT64_C(1) << p->rq_out[i];
            if ((in_seen & bi) || (out_seen & bo))
                break;
            in_seen |= bi;
            out_seen |= bo;
        }
        if (i == p->nrq) {
            for (i = 0; i < p->nrq; i++) {
                int32_t in = p->rq_in[i], o = p->rq_out[i];
                g[o] = in + 1 < nin ? in + 1 : 0;
                a[in] = o + 1 < nout ? o + 1 : 0;
                p->a_rq[in] = i;
                p->touch_i[(*ni)++] = in;
            }
            return;
        }
    }
    for (int i = 0; i < p->nrq; i++) {
        int32_t o = p->rq_out[i], in = p->rq_in[i];
        int32_t cur = p->g_in[o];
        if (cur < 0) {
            p->touch_o[no++] = o;
        } else {
            int dn = in - g[o], dc = cur - g[o];
            dn += dn < 0 ? nin : 0;
            dc += dc < 0 ? nin : 0;
            if (dn >= dc)
                continue;
        }
        p->g_in[o] = in;
        p->g_rq[o] = i;
    }
    for (int j = 0; j < no; j++) {
        int32_t o = p->touch_o[j], in = p->g_in[o];
        int32_t cur = p->a_out[in];
        if (cur < 0) {
            p->touch_i[(*ni)++] = in;
        } else {
            int dn = o - a[in], dc = cur - a[in];
            dn += dn < 0 ? nout : 0;
            dc += dc < 0 ? nout : 0;
            if (dn >= dc)
                continue;
        }
        p->a_out[in] = o;
        p->a_rq[in] = p->g_rq[o];
    }
    for (int j = 0; j < no; j++)
        p->g_in[p->touch_o[j]] = -1;
    for (int j = 0; j < *ni; j++) {
        int32_t in = p->touch_i[j], o = p->a_out[in];
        g[o] = in + 1 < nin ? in + 1 : 0;
        a[in] = o + 1 < nout ? o + 1 : 0;
        p->a_out[in] = -1;
    }
}

/* Whether the output VC of x (router r, ACTIVE) has a credit. */
static inline int has_credit(const sim_net *net, int r, int32_t x)
{
    const sim_pipe *p = net->pipe;
    int32_t y = p->vc[x].out;
    return y >= 0 ? p->vc[y].cred > 0 : p->ej_cred[r * p->V + (-2 - y)] > 0;
}

/* ---- VC allocation ------------------------------------------------------ */

/* Keep the route of the header at the front of x (router r, message mm):
 * its candidate output VCs in order, with their tiers, when there are at
 * most PIPE_ROUTE_CACHE of them.  The route is a function of the router,
 * the message and the input VC, none of which changes while the header
 * waits, so its retries need not recompute it. */
static void route_cache_fill(sim_net *net, int r, const sim_msg *mm,
                             int32_t x)
{
    sim_pipe *p = net->pipe;
    const int V = p->V;
    int32_t *ys = p->rc_y + (size_t)x * PIPE_ROUTE_CACHE;
    uint8_t *ts = p->rc_tier + (size_t)x * PIPE_ROUTE_CACHE;
    sim_route rt;
    sim__route_of(net, r, mm, x, &rt);
    int n = 0, start = 0;
    for (int tier = 0; tier < rt.ntiers; tier++) {
        for (int k = start; k < rt.end[tier]; k++)
            for (uint64_t vs = rt.vcs[k]; vs; vs &= vs - 1) {
                int v = __builtin_ctzll(vs);
                if (v >= V)
                    break;
                if (n == PIPE_ROUTE_CACHE) {
                    p->rc_n[x] = PIPE_ROUTE_CACHE + 1;
                    return;
                }
                ys[n] = rt.ch[k] * V + v;
                ts[n++] = (uint8_t)tier;
            }
        start = rt.end[tier];
    }
    p->rc_n[x] = (int8_t)n;
}

/* Add the requests of x (input VC i of router r): the free output VCs of
 * the first tier that has one; the ejection VCs at the destination. */
static void va_requests(sim_net *net, int r, int32_t i, int32_t x)
{
    sim_pipe *p = net->pipe;
    const int V = p->V;
    int32_t m = p->buf[(size_t)x * p->B + p->vc[x].bh].m;
    const sim_msg *mm = &net->msg[m];
    if (mm->dst == r) {
        int32_t o = (p->nout[r] - 1) * V;
        p->spec_out[x] = p->nout[r] - 1;
        for (int v = 0; v < V; v++)
            if (p->ej_used[r * V + v] < 0)
                rq_push(p, i, o + v, -2 - v);
        return;
    }
    if (p->rc_n[x] < 0)
        route_cache_fill(net, r, mm, x);
    if (p->rc_n[x] <= PIPE_ROUTE_CACHE) {
        const int32_t *ys = p->rc_y + (size_t)x * PIPE_ROUTE_CACHE;
        const uint8_t *ts = p->rc_tier + (size_t)x * PIPE_ROUTE_CACHE;
        int any = 0;
        for (int j = 0; j < p->rc_n[x]; j++) {
            if (any && ts[j] != ts[j - 1])
                return;          /* the first tier with a free VC */
            int32_t y = ys[j];
            if (p->used[used_slot(net, y)] >= 0)
                continue;
            int32_t op = p->out_loc[y / V];
            if (!any)
                p->spec_out[x] = op;
            rq_push(p, i, op * V + y % V, y);
            any = 1;
        }
        return;
    }
    sim_route rt;
    sim__route_of(net, r, mm, x, &rt);
    int start = 0;
    for (int tier = 0; tier < rt.ntiers; tier++) {
        int any = 0;
        for (int k = start; k < rt.end[tier]; k++) {
            int32_t c = rt.ch[k];
            uint64_t vs = rt.vcs[k];
            int32_t o = p->out_loc[c] * V;
            while (vs) {
                int v = __builtin_ctzll(vs);
                vs &= vs - 1;
                if (v >= V)
                    break;
                int32_t y = c * V + v;
                if (p->used[used_slot(net, y)] >= 0)
                    continue;
                if (!any)
                    p->spec_out[x] = p->out_loc[c];
                rq_push(p, i, o + v, y);
                any = 1;
            }
        }
        if (any)
            return;
        start = rt.end[tier];
    }
}

static int out_free(const sim_net *net, int r, int32_t y)
{
    const sim_pipe *p = net->pipe;
    if (y >= 0)
        return p->used[used_slot(net, y)] < 0;
    return p->ej_used[r * p->V + (-2 - y)] < 0;
}

static void va_complete(sim_net *net, int r, int32_t x)
{
    sim_pipe *p = net->pipe;
    int32_t y = p->va_y[x];
    p->va_t[x] = -1;
    p->va_y[x] = -1;
    /* the winner, or a retry, may request from the next cycle */
    p->vc[x].rdy = net->now + 1;
    if (y == -1 || !out_free(net, r, y))
        return;
    if (y >= 0)
        p->used[used_slot(net, y)] = x;
    else
        p->ej_used[r * p->V + (-2 - y)] = x;
    p->vc[x].out = y;
    int32_t op = y >= 0 ? p->out_loc[y / p->V] : p->nout[r] - 1;
    p->vc[x].oport = op;
    p->vc[x].op_nx = (int16_t)(op + 1 < p->nout[r] ? op + 1 : 0);
    p->vc[x].state = PIPE_ACTIVE;
    vc_bit_clear(p, p->va_m, r, x);
    if (has_credit(net, r, x))
        vc_bit_set(p, p->go_m, r, x);
}

PIPE_HOT void va_stage(sim_net *net, int r, const int mw)
{
    sim_pipe *p = net->pipe;
    const int64_t now = net->now;
    const int32_t off = p->rvc_off[r];
    const int32_t *rv = p->rvc + off;
    const int nv = p->rvc_off[r + 1] - off;
    const uint64_t *vm = p->va_m + (size_t)r * mw;
    p->nrq = 0;
    uint64_t *sm = p->sleep_m + (size_t)r * mw;
    uint64_t *bm = p->vab_m + (size_t)r * mw;
    /* the VCs awake without an allocation in progress */
    for (int w = 0; w < mw; w++)
        for (uint64_t bits = vm[w] & ~sm[w] & ~bm[w]; bits;
             bits &= bits - 1) {
            int i = 64 * w + __builtin_ctzll(bits);
            int32_t x = rv[i];
            if (p->vc[x].rdy > now)
                continue;
            int before = p->nrq;
            va_requests(net, r, i, x);
            p->va_y[x] = -1;
            if (p->nrq == before && (!p->spec || p->spec_out[x] < 0)) {
                /* no free candidate: its attempts (every vc_alloc_delay
                 * cycles) change nothing until an output VC of r is
                 * freed; va_wake() resumes them */
                p->vc[x].rdy = now + p->dva;
                sm[w] |= UINT64_C(1) << (i & 63);
                continue;
            }
            p->va_t[x] = now + p->dva - 1;   /* requested or not: retry */
            bm[w] |= UINT64_C(1) << (i & 63);
        }
    if (p->nrq && p->rq_in[0] == p->rq_in[p->nrq - 1]) {
        /* one input VC requests (the usual case; they are listed in VC
         * order): each output VC it requests grants it, and it accepts the
         * one nearest at or after its pointer (for an output requested
         * twice, a DCSH bus VC, the first request), as islip() does */
        const int nout = p->nout[r] * p->V;
        int32_t in = p->rq_in[0];
        int32_t *g = p->va_g + (size_t)p->out_off[r] * p->V;
        int32_t *a = p->va_a + off;
        int best = 0, bd = nout;
        for (int k = 0; k < p->nrq; k++) {
            int d = p->rq_out[k] - a[in];
            d += d < 0 ? nout : 0;
            if (d < bd) {
                bd = d;
                best = k;
            }
        }
        int32_t o = p->rq_out[best];
        g[o] = in + 1 < nv ? in + 1 : 0;
        a[in] = o + 1 < nout ? o + 1 : 0;
        p->va_y[rv[in]] = p->rq_y[best];
    } else if (p->nrq) {
        const int V = p->V;
        int ni;
        islip(p, nv, p->nout[r] * V, p->va_g + (size_t)p->out_off[r] * V,
              p->va_a + off, &ni);
        for (int j = 0; j < ni; j++) {
            int32_t i = p->touch_i[j];
            p->va_y[rv[i]] = p->rq_y[p->a_rq[i]];
        }
    }
    /* the allocations that complete now, in VC order */
    for (int w = 0; w < mw; w++)
        for (uint64_t bits = bm[w]; bits; bits &= bits - 1) {
            int i = 64 * w + __builtin_ctzll(bits);
            int32_t x = rv[i];
            if (p->va_t[x] == now) {
                bm[w] &= ~(UINT64_C(1) << (i & 63));
                va_complete(net, r, x);
            }
        }
}

/* An output VC of router r was freed in cycle `now` (by a tail in its
 * switch stage): the VCs asleep in VC allocation attempt again at their
 * first attempt cycle after now, as if they had kept trying. */
static void va_wake(sim_pipe *p, int r, int64_t now)
{
    uint64_t *sm = p->sleep_m + (size_t)r * p->mw;
    const int32_t *rv = p->rvc + p->rvc_off[r];
    for (int w = 0; w < p->mw; w++) {
        for (uint64_t bits = sm[w]; bits; bits &= bits - 1) {
            int32_t x = rv[64 * w + __builtin_ctzll(bits)];
            int64_t t = p->vc[x].rdy;
            if (t <= now)
                t += (now + 1 - t + p->dva - 1) / p->dva * p->dva;
            p->vc[x].rdy = t;
        }
        sm[w] = 0;
    }
}

/* ---- switch allocation and traversal ------------------------------------ */

/* Output port (local) of x's output VC. */
static inline int32_t out_port(const sim_net *net, int r, int32_t x)
{
    (void)r;
    return net->pipe->vc[x].oport;
}

/* Request (input port ip, output port op) for x: one VC per pair, the
 * non-speculative first, then round robin from the port's pointer. */
static inline void sa_request(sim_pipe *p, int32_t ioff, int32_t ip,
                              int32_t op, int32_t x, int spec)
{
    int32_t pair = ip * p->maxout + op;
    int32_t cur = p->sa_req[pair];
    if (cur >= 0) {
        if (spec > p->sa_spec[pair])
            return;
        if (spec == p->sa_spec[pair]) {
            int32_t n = p->nslot[ioff + ip], base = p->sw_rr[ioff + ip];
            int32_t dx = p->slot[x] - base, dc = p->slot[cur] - base;
            dx += dx < 0 ? n : 0;
            dc += dc < 0 ? n : 0;
            if (dx >= dc)
                return;
        }
    } else {
        p->pairs[p->nrq++] = pair;     /* listed; the requests follow */
        if (p->sa_bits) {
            p->sa_oreq[op] |= UINT64_C(1) << ip;
            p->sa_outs |= UINT64_C(1) << op;
        }
    }
    p->sa_req[pair] = x;
    p->sa_spec[pair] = (uint8_t)spec;
}

/* The flit at the front of x (router r) crosses the switch in this cycle. */
PIPE_HOT void traverse(sim_net *net, int r, int32_t x)
{
    sim_pipe *p = net->pipe;
    const int V = p->V, B = p->B;
    const int64_t now = net->now;
    size_t at = (size_t)x * B + p->vc[x].bh;
    int32_t m = p->buf[at].m, fs = p->buf[at].seq;
    int32_t seq = fs & ~PIPE_TAIL;
    int tail = (fs & PIPE_TAIL) != 0;
    int32_t bh = p->vc[x].bh + 1 < B ? p->vc[x].bh + 1 : 0;
    p->vc[x].bh = bh;
    /* the next flit is the front from now + 1 if it has arrived by then;
     * if it is still on its way, its arrival is an event */
    int next = 0;
    if (--p->vc[x].bn > 0) {
        uint32_t ta = p->buf[(size_t)x * B + (size_t)bh].t;
        int32_t late = (int32_t)(ta - (uint32_t)(now + 1));
        next = late <= 0;
        if (!next)
            front_at(p, now + 1 + late, x);
    }
    if (!next) {
        if (--p->rbusy[r] == 0)
            p->rb_m[r >> 6] &= ~(UINT64_C(1) << (r & 63));
        vc_bit_clear(p, p->occ_m, r, x);
    }
    net->last_move = now;

#ifndef NDEBUG
    /* checks: one flit per input and output port per cycle (the switch
     * allocator's matching guarantees it; debug builds, which the tests
     * use, count any breach) */
    int32_t ipf = p->in_off[r] + p->vc[x].vip;
    int32_t opf = p->out_off[r] + out_port(net, r, x);
    if (p->in_stamp[ipf] == now || p->out_stamp[opf] == now)
        p->port_conflicts++;
    p->in_stamp[ipf] = p->out_stamp[opf] = now;
#endif

    /* a credit back upstream (to the PE without credit delay) */
    credit_at(p, now + p->vc[x].cdel, x);

    int32_t y = p->vc[x].out;
    if (y >= 0) {
        if (net->ch_flits)
            net->ch_flits[y / V]++;
        if (--p->vc[y].cred == 0)
            vc_bit_clear(p, p->go_m, r, x);
        if (seq == 0)
            net->msg[m].hops++;
        /* y, the output VC of a router, is a network VC */
        assert(y < p->nnet_vc);
        flit_send(p, now + p->vc[y].cdel - p->cd + p->st, y, m, fs);
        if (tail) {
            p->used[used_slot(net, y)] = -1;
            va_wake(p, r, now);
        }
    } else {
        int v = -2 - y;
        if (--p->ej_cred[r * V + v] == 0)
            vc_bit_clear(p, p->go_m, r, x);
        /* consumed (stamped) one cycle before it reaches the PE */
        flit_at(p, now + p->st + 1, -2 - (r * V + v), m, fs);
        if (tail) {
            p->ej_used[r * V + v] = -1;
            va_wake(p, r, now);
        }
    }

    if (tail) {
        p->vc[x].out = -1;
        p->vc[x].state = PIPE_IDLE;
        vc_bit_clear(p, p->go_m, r, x);
    }
    if (next)
        front_ready(p, r, x, now + 1, tail);
}

/* The index of the first bit of m at or after bit `from`, cyclically
 * (m != 0, from < 64): a round-robin pick. */
static inline int rr_pick(uint64_t m, int from)
{
    uint64_t hi = m & (~UINT64_C(0) << from);
    return __builtin_ctzll(hi ? hi : m);
}

/* islip() over the bit sets sa_oreq (outputs sa_outs) of a router whose
 * ports fit in 64 bits: the same grants and pointer moves.  Each accepted
 * (input, output) is passed to sa_grant; the sets are left zero. */
static void sa_islip_bits(sim_net *net, int r, int32_t *g, int32_t *a);
static void sa_grant(sim_net *net, int r, int32_t ip, int32_t op);

/* The common case of switch allocation: no two requesting VCs of router
 * r share an input port or an output port.  Then each (input, output)
 * pair has one VC and iSLIP grants and accepts every request, so the
 * grants are made here without the pair table; 0 (nothing done) when
 * two requests conflict. */
PIPE_HOT void sa_direct_grant(sim_net *net, int r, int32_t x,
                              const int dsa1)
{
    sim_pipe *p = net->pipe;
    const int32_t ioff = p->in_off[r];
    int32_t ip = p->vc[x].vip, op = p->vc[x].oport;
    p->sa_g[p->out_off[r] + op] = p->vc[x].ip_nx;
    p->sa_a[ioff + ip] = p->vc[x].op_nx;
    p->sw_rr[ioff + ip] = p->vc[x].slot_nx;
    if (!dsa1) {
        p->vc[x].sa_t = net->now + p->dsa - 1;
        vc_bit_set(p, p->pend_m, r, x);
    } else {
        /* a one-cycle allocation takes effect now: no grant was pending
         * at r and sa_direct() grants in VC order, so the flits cross in
         * the order of sa_stage's loop over the grants; each still has
         * its credit (the others crossing use other output VCs) and
         * crossing moves no allocator pointer */
        traverse(net, r, x);
    }
}

PIPE_HOT int sa_direct(sim_net *net, int r, const int mw, const int dsa1)
{
    sim_pipe *p = net->pipe;
    const int64_t now = net->now;
    const int32_t *rv = p->rvc + p->rvc_off[r];
    const size_t mo = (size_t)r * (size_t)mw;
    const uint64_t *om = p->occ_m + mo, *gm = p->go_m + mo,
                   *pm = p->pend_m + mo;
    /* (dsa1: a one-cycle allocator, which leaves no grant pending) */
    if (mw == 1) {
        /* one candidate, the usual case: no conflict */
        uint64_t bits = om[0] & gm[0] & (dsa1 ? ~UINT64_C(0) : ~pm[0]);
        if (!(bits & (bits - 1))) {
            if (bits) {
                int32_t x = rv[__builtin_ctzll(bits)];
                if (p->vc[x].rdy <= now)
                    sa_direct_grant(net, r, x, dsa1);
            }
            return 1;
        }
    }
    int32_t *list = p->act;
    int n = 0;
    uint64_t ins = 0, outs = 0;
    for (int w = 0; w < mw; w++)
        for (uint64_t bits = om[w] & gm[w] & (dsa1 ? ~UINT64_C(0) : ~pm[w]);
             bits; bits &= bits - 1) {
            int32_t x = rv[64 * w + __builtin_ctzll(bits)];
            if (p->vc[x].rdy > now)
                continue;
            uint64_t bi = UINT64_C(1) << p->vc[x].vip;
            uint64_t bo = UINT64_C(1) << p->vc[x].oport;
            if ((ins & bi) | (outs & bo))
                return 0;
            ins |= bi;
            outs |= bo;
            list[n++] = x;
        }
    for (int k = 0; k < n; k++)
        sa_direct_grant(net, r, list[k], dsa1);
    return 1;
}

PIPE_HOT void sa_stage(sim_net *net, int r, const int mw)
{
    sim_pipe *p = net->pipe;
    const int64_t now = net->now;
    const int32_t *rv = p->rvc + p->rvc_off[r];
    const int maxout = p->maxout;
    const int32_t ioff = p->in_off[r];
    const size_t mo = (size_t)r * (size_t)mw;
    const uint64_t *om = p->occ_m + mo, *gm = p->go_m + mo,
                   *vm = p->va_m + mo;
    uint64_t *pm = p->pend_m + mo;
    p->nrq = 0;
    if (p->sa_bits && !p->spec && p->dsa > 1 && sa_direct(net, r, mw, 0))
        goto grants;
    /* requests: the VCs holding a flit, without a grant pending, ACTIVE
     * with a credit (or, speculative, in VC allocation), in order */
    for (int w = 0; w < mw; w++) {
        uint64_t bits = om[w] & ~pm[w] & (gm[w] | (p->spec ? vm[w] : 0));
        for (; bits; bits &= bits - 1) {
            int32_t x = rv[64 * w + __builtin_ctzll(bits)];
            int32_t ip = p->vc[x].vip;
            if (p->vc[x].state == PIPE_ACTIVE) {
                if (p->vc[x].rdy <= now)
                    sa_request(p, ioff, ip, p->vc[x].oport, x, 0);
                else if (p->spec && p->vc[x].rdy == now + 1 &&
                         p->spec_out[x] >= 0)
                    /* won VA in this cycle: its speculative bid stands */
                    sa_request(p, ioff, ip, p->vc[x].oport, x, 1);
            } else if (p->vc[x].rdy == now + 1 && p->spec_out[x] >= 0) {
                /* lost VA in this cycle: the bid may still take the
                 * switch */
                sa_request(p, ioff, ip, p->spec_out[x], x, 1);
            }
        }
    }
    int npairs = p->nrq;
    if (npairs) {
        int32_t *keep = p->pairs;
        if (p->sa_bits) {
            sa_islip_bits(net, r, p->sa_g + p->out_off[r], p->sa_a + ioff);
        } else {
            /* the request list of islip(): one per (input port, output
             * port) */
            p->nrq = 0;
            for (int k = 0; k < npairs; k++)
                rq_push(p, keep[k] / maxout, keep[k] % maxout, keep[k]);
            int ni;
            islip(p, p->nin[r], p->nout[r], p->sa_g + p->out_off[r],
                  p->sa_a + ioff, &ni);
            for (int j = 0; j < ni; j++) {
                int32_t ip = p->touch_i[j];
                int32_t pair = p->rq_y[p->a_rq[ip]];
                sa_grant(net, r, ip, pair % maxout);
            }
        }
        for (int k = 0; k < npairs; k++)
            p->sa_req[keep[k]] = -1;
    }
    if (p->spec)
        for (int w = 0; w < mw; w++)
            for (uint64_t bits = om[w]; bits; bits &= bits - 1)
                p->spec_out[rv[64 * w + __builtin_ctzll(bits)]] = -1;
grants:
    /* the grants that take effect now, in VC order */
    for (int w = 0; w < mw; w++)
        for (uint64_t bits = pm[w]; bits; bits &= bits - 1) {
            int i = 64 * w + __builtin_ctzll(bits);
            int32_t x = rv[i];
            if (p->vc[x].sa_t != now)
                continue;
            p->vc[x].sa_t = -1;
            pm[w] &= ~(UINT64_C(1) << (i & 63));
            if (has_credit(net, r, x))
                traverse(net, r, x);
            else
                p->vc[x].rdy = now + 1;
        }
}

/* Input port ip of router r won output port op: the VC of that pair. */
static inline void sa_grant(sim_net *net, int r, int32_t ip, int32_t op)
{
    sim_pipe *p = net->pipe;
    const int32_t ioff = p->in_off[r];
    int32_t pair = ip * p->maxout + op;
    int32_t x = p->sa_req[pair];
    p->sw_rr[ioff + ip] =
        p->slot[x] + 1 < p->nslot[ioff + ip] ? p->slot[x] + 1 : 0;
    if (p->sa_spec[pair] &&
        (p->vc[x].state != PIPE_ACTIVE || p->vc[x].oport != op))
        return;                  /* a speculative grant wasted */
    p->vc[x].sa_t = net->now + p->dsa - 1;
    vc_bit_set(p, p->pend_m, r, x);
}

static void sa_islip_bits(sim_net *net, int r, int32_t *g, int32_t *a)
{
    sim_pipe *p = net->pipe;
    const int nin = p->nin[r], nout = p->nout[r];
    uint64_t ins = 0;
    for (uint64_t outs = p->sa_outs; outs; outs &= outs - 1) {
        int o = __builtin_ctzll(outs);
        int in = rr_pick(p->sa_oreq[o], g[o]);
        p->sa_oreq[o] = 0;
        p->sa_igr[in] |= UINT64_C(1) << o;
        ins |= UINT64_C(1) << in;
    }
    p->sa_outs = 0;
    for (; ins; ins &= ins - 1) {
        int in = __builtin_ctzll(ins);
        int o = rr_pick(p->sa_igr[in], a[in]);
        p->sa_igr[in] = 0;
        g[o] = in + 1 < nin ? in + 1 : 0;
        a[in] = o + 1 < nout ? o + 1 : 0;
        sa_grant(net, r, in, o);
    }
}

/* ---- arrivals ----------------------------------------------------------- */

static void arrive(sim_net *net, const sim_pflit *f)
{
    sim_pipe *p = net->pipe;
    const int64_t now = net->now;
    if (f->x <= -2) {                     /* at the PE of an ejection VC */
        int32_t k = -2 - f->x;
        sim_msg *mm = &net->msg[f->m];
        mm->consumed++;
        net->flits_consumed++;
        if (net->stats.window == 1)
            net->stats.win_cons_flits++;
        net->last_move = now;
        /* the PE reads it in the next cycle and returns the credit over a
         * 1-cycle channel */
        credit_at(p, now + 3 + p->cd, -1 - k);
        if (f->seq & PIPE_TAIL)
            sim__deliver(net, f->m);      /* may grow the message pool */
        return;
    }
    /* the front of x, in its buffer since it was sent (flit_send) */
    int32_t x = f->x;
    int32_t r = vc_router(net, x);
    if (p->rbusy[r]++ == 0)
        p->rb_m[r >> 6] |= UINT64_C(1) << (r & 63);
    vc_bit_set(p, p->occ_m, r, x);
    front_ready(p, r, x, now, p->vc[x].state == PIPE_IDLE);
}

static void arrivals(sim_net *net)
{
    sim_pipe *p = net->pipe;
    int s = (int)(net->now & (p->credits.size - 1));
    const int32_t *cr = cal_slot(&p->credits, s);
    for (int i = 0; i < p->credits.n[s]; i++) {
        int32_t key = cr[i], x;
        if (key >= p->nnet_vc) { /* to a PE: its queue may send again */
            p->vc[key].cred++;
            int32_t q = key / p->V - net->topo.nnet;
            p->iq_m[q >> 6] |= UINT64_C(1) << (q & 63);
            continue;
        }
        if (key >= 0) {
            p->vc[key].cred++;
            x = p->used[used_slot(net, key)];
            if (x >= 0 && p->vc[x].out != key)
                x = -1;          /* another leg of its DCSH bus VC */
        } else {
            p->ej_cred[-1 - key]++;
            x = p->ej_used[-1 - key];
        }
        if (x >= 0)              /* its holder may request the switch */
            vc_bit_set(p, p->go_m, p->vc[x].vrt, x);
    }
    p->credits.n[s] = 0;
    s = (int)(net->now & (p->flits.size - 1));
    /* arrive() never adds to this cycle's slot (every delay is >= 1) */
    for (int i = 0; i < p->flits.n[s]; i++)
        arrive(net, (const sim_pflit *)cal_slot(&p->flits, s) + i);
    p->flits.n[s] = 0;
}

/* ---- PEs ---------------------------------------------------------------- */

void sim__pipe_queued(sim_net *net, int32_t qi)
{
    net->pipe->iq_m[qi >> 6] |= UINT64_C(1) << (qi & 63);
}

static void inject(sim_net *net)
{
    sim_pipe *p = net->pipe;
    const int V = p->V;
    const long nq = (long)net->nodes * net->topo.ipn;
    /* the queues with work, in order; a queue leaves the set once it is
     * empty with nothing being sent, or waits for a credit (arrivals()
     * puts it back) */
    for (long w = 0; w <= (nq - 1) >> 6; w++) {
        for (uint64_t bits = p->iq_m[w]; bits; bits &= bits - 1) {
            long q = 64 * w + __builtin_ctzll(bits);
            sim_queue *sq = &net->iq[q];
            int32_t base = (net->topo.nnet + (int32_t)q) * V;
            if (p->pe_m[q] == SIM_NONE) {
                if (sq->len == 0) {
                    p->iq_m[w] &= ~(UINT64_C(1) << (q & 63));
                    continue;
                }
                int v = -1;
                for (int j = 1, c = p->pe_last[q]; j <= V; j++) {
                    c = c + 1 < V ? c + 1 : 0;
                    if (p->used[base + c] < 0 && p->vc[base + c].cred > 0) {
                        v = c;
                        break;
                    }
                }
                if (v < 0) {
                    /* no credit on any of its VCs: back with one */
                    p->iq_m[w] &= ~(UINT64_C(1) << (q & 63));
                    continue;
                }
                int32_t m = sq->head;
                sq->head = net->msg[m].next;
                sq->len--;
                net->queued--;
                p->pe_m[q] = m;
                p->pe_seq[q] = 0;
                p->pe_v[q] = v;
                p->pe_last[q] = v;
                p->used[base + v] = -2;
                p->pe_busy++;
            }
            int32_t y = base + p->pe_v[q];
            if (p->vc[y].cred == 0) {
                p->iq_m[w] &= ~(UINT64_C(1) << (q & 63));
                continue;
            }
            int32_t m = p->pe_m[q], seq = p->pe_seq[q]++;
            sim_msg *mm = &net->msg[m];
            p->vc[y].cred--;
            int tail = seq == mm->len - 1;
            flit_send(p, net->now + 2, y, m,        /* 1-cycle channel */
                      tail ? seq | PIPE_TAIL : seq);
            net->flits_injected++;
            net->last_move = net->now;
            if (seq == 0)
                mm->t_inject = net->now;
            if (tail) {
                p->used[y] = -1;
                p->pe_m[q] = SIM_NONE;
                p->pe_busy--;
            }
        }
    }
}

/* ---- the cycle ---------------------------------------------------------- */

/* The stages of the routers holding a flit, in order (a router's stages
 * change only its own bit of rb_m); mw words per VC set, direct: try
 * sa_direct() first. */
PIPE_HOT void routers_cycle(sim_net *net, const int mw, const int direct)
{
    sim_pipe *p = net->pipe;
    const int R = net->topo.routers;
    for (int w = 0; w <= (R - 1) >> 6; w++)
        for (uint64_t bits = p->rb_m[w]; bits; bits &= bits - 1) {
            int r = 64 * w + __builtin_ctzll(bits);
            /* VC allocation: some VC in it not asleep */
            const uint64_t *vm = p->va_m + (size_t)r * mw,
                           *sm = p->sleep_m + (size_t)r * mw;
            uint64_t awake = 0;
            for (int k = 0; k < mw; k++)
                awake |= vm[k] & ~sm[k];
            if (awake)
                va_stage(net, r, mw);
            /* one-cycle non-speculative switch allocation without a
             * conflict needs nothing more of sa_stage */
            if (!direct || !sa_direct(net, r, mw, 1))
                sa_stage(net, r, mw);
        }
}

void sim__pipe_cycle(sim_net *net)
{
    sim_pipe *p = net->pipe;
    /* an empty network with idle sources: jump to the next arrival */
    if (!p->pe_busy && !net->queued &&
        net->flits_injected == net->flits_consumed && net->sources_on &&
        net->heap_n > 0 && net->heap_t[0] > net->now &&
        !cal_live(&p->flits) && !cal_live(&p->credits))
        net->now = net->heap_t[0];
    arrivals(net);
    sim__generate(net);
    inject(net);
    /* direct: one-cycle non-speculative switch allocation over bit sets */
    int direct = p->sa_bits && !p->spec && p->dsa == 1;
    if (p->mw == 1 && direct)
        routers_cycle(net, 1, 1);   /* the common case, compiled apart */
    else
        routers_cycle(net, p->mw, direct);
    net->now++;
}

long sim__pipe_flits_buffered(const sim_net *net)
{
    const sim_pipe *p = net->pipe;
    long n = 0;
    /* the flits in buffers or on their way to one (flit_send), and those
     * on their way to a PE */
    for (int32_t x = 0; x < p->nvc; x++)
        n += p->vc[x].bn;
    for (int s = 0; s < p->flits.size; s++)
        for (int i = 0; i < p->flits.n[s]; i++)
            n += ((const sim_pflit *)cal_slot(&p->flits, s))[i].x <= -2;
    return n;
}

/* ---- invariants ---------------------------------------------------------- */

#define FAIL(...)                                                             \
    do {                                                                      \
        rc = err_set(e, ERR_INVALID, "invariant: " __VA_ARGS__);              \
        goto out;                                                             \
    } while (0)

int sim__pipe_check(const sim_net *net, err *e)
{
    const sim_pipe *p = net->pipe;
    const int V = p->V, B = p->B;
    int rc = 0;
    size_t nej = (size_t)net->nodes * (size_t)V;
    int32_t *fe = xcalloc((size_t)p->nvc + 1, sizeof *fe);
    int32_t *crd = xcalloc((size_t)p->nvc + 1, sizeof *crd);
    int32_t *efl = xcalloc(nej + 1, sizeof *efl);
    int32_t *ecr = xcalloc(nej + 1, sizeof *ecr);
    long inflight = 0;
    for (int s = 0; s < p->flits.size; s++)
        for (int i = 0; i < p->flits.n[s]; i++) {
            const sim_pflit *f = (const sim_pflit *)cal_slot(&p->flits, s) + i;
            if (f->x >= 0) {
                fe[f->x]++;      /* a front's arrival: counted in bn */
            } else {
                efl[-2 - f->x]++;
                inflight++;
            }
        }
    for (int s = 0; s < p->credits.size; s++)
        for (int i = 0; i < p->credits.n[s]; i++) {
            int32_t key = ((const int32_t *)cal_slot(&p->credits, s))[i];
            if (key >= 0)
                crd[key]++;
            else
                ecr[-1 - key]++;
        }
    long buffered = 0;
    for (int32_t x = 0; x < p->nvc; x++) {
        if (p->vc[x].bn < 0 || p->vc[x].bn > B)
            FAIL("VC %d holds %d flits, depth %d", x, p->vc[x].bn, B);
        /* credits + flits buffered or on their way + credits in flight =
         * depth */
        if (p->vc[x].cred + p->vc[x].bn + crd[x] != B)
            FAIL("VC %d: credits %d + occupancy %d + %d credits in flight "
                 "!= %d",
                 x, p->vc[x].cred, p->vc[x].bn, crd[x], B);
        /* a front on its way has one arrival event; a front here, none */
        int here = (p->occ_m[(size_t)p->vc[x].vrt * p->mw +
                             (size_t)(p->rvi[x] >> 6)] >>
                    (p->rvi[x] & 63)) & 1;
        if (fe[x] != (p->vc[x].bn > 0 && !here))
            FAIL("VC %d: %d front arrival events, %d flits, front here %d",
                 x, fe[x], p->vc[x].bn, here);
        buffered += p->vc[x].bn;
        /* the flits of a VC are in order: each follows its predecessor;
         * the tail flag marks each message's last */
        for (int i = 0; i < p->vc[x].bn; i++) {
            int32_t h = p->vc[x].bh;
            size_t a = (size_t)x * B + (size_t)((h + i + B - 1) % B);
            size_t b = (size_t)x * B + (size_t)((h + i) % B);
            int32_t sb = p->buf[b].seq & ~PIPE_TAIL;
            int32_t mb = p->buf[b].m, ma = p->buf[a].m;
            if (!(p->buf[b].seq & PIPE_TAIL) != (sb != net->msg[mb].len - 1))
                FAIL("VC %d: flit %d of message %d: tail flag wrong", x, sb,
                     mb);
            if (i == 0)
                continue;
            int32_t sa = p->buf[a].seq & ~PIPE_TAIL;
            int ok = ma == mb ? sb == sa + 1
                              : sb == 0 && sa == net->msg[ma].len - 1;
            if (!ok)
                FAIL("VC %d: flit %d of message %d follows flit %d of %d", x,
                     sb, mb, sa, ma);
        }
        if (p->vc[x].state == PIPE_ACTIVE && p->vc[x].out == -1)
            FAIL("VC %d active without an output VC", x);
        if (p->vc[x].state == PIPE_VA && !p->vc[x].bn)
            FAIL("VC %d in VC allocation without a flit", x);
        /* the bit sets the stages visit agree with the VC's state */
        const uint64_t *w = p->go_m + (size_t)p->vc[x].vrt * p->mw +
                            (size_t)(p->rvi[x] >> 6);
        uint64_t bit = UINT64_C(1) << (p->rvi[x] & 63);
        int go = p->vc[x].state == PIPE_ACTIVE &&
                 has_credit(net, p->vc[x].vrt, x);
        if (!!(*w & bit) != go)
            FAIL("VC %d: switch request set %d, ACTIVE with a credit %d", x,
                 !!(*w & bit), go);
        w = p->pend_m + (w - p->go_m);
        if (!!(*w & bit) != (p->vc[x].sa_t >= 0))
            FAIL("VC %d: grant pending set %d, sa_t %lld", x, !!(*w & bit),
                 (long long)p->vc[x].sa_t);
        w = p->vab_m + (w - p->pend_m);
        if (!!(*w & bit) != (p->va_t[x] >= 0))
            FAIL("VC %d: VC allocation set %d, va_t %lld", x, !!(*w & bit),
                 (long long)p->va_t[x]);
    }
    for (size_t k = 0; k < nej; k++)
        if (p->ej_cred[k] + efl[k] + ecr[k] != B)
            FAIL("ejection VC %zu: credits %d + %d flits and %d credits in "
                 "flight != %d",
                 k, p->ej_cred[k], efl[k], ecr[k], B);
    if (net->flits_injected != buffered + inflight + net->flits_consumed)
        FAIL("%ld flits injected != %ld buffered + %ld on links + %ld "
             "consumed",
             net->flits_injected, buffered, inflight, net->flits_consumed);
    if (p->port_conflicts)
        FAIL("%ld times two flits crossed one switch port in a cycle",
             p->port_conflicts);
out:
    free(fe);
    free(crd);
    free(efl);
    free(ecr);
    return rc;
}

/* ---- deadlock ------------------------------------------------------------ */

/* The VCs whose front flit has waited min_stuck cycles or more and can only
 * move after another such VC moves: an ACTIVE VC without credits whose
 * output VC's front is stuck, or a VC in allocation whose candidate output
 * VCs are all held by stuck VCs.  Computed as the greatest such set (drop
 * any VC that waits on a VC outside it until none is dropped). */
long sim__pipe_deadlock_find(sim_net *net, long min_stuck)
{
    sim_pipe *p = net->pipe;
    const int V = p->V;
    uint8_t *in = xcalloc((size_t)p->nvc, 1);
    long n = 0;
    for (int32_t x = 0; x < p->nvc; x++) {
        /* since is kept modulo 2^32 cycles: a wait of 2^32 cycles or
         * more (hours of simulation) would read short */
        int64_t wait = (uint32_t)((uint32_t)net->now - p->vc[x].since);
        int here = (p->occ_m[(size_t)p->vc[x].vrt * p->mw +
                             (size_t)(p->rvi[x] >> 6)] >>
                    (p->rvi[x] & 63)) & 1;
        if (here && wait >= min_stuck) {
            in[x] = 1;
            n++;
        }
    }
    int changed = n > 0;
    while (changed) {
        changed = 0;
        for (int32_t x = 0; x < p->nvc; x++) {
            if (!in[x])
                continue;
            int32_t r = vc_router(net, x);
            int keep = 0;
            if (p->vc[x].state == PIPE_ACTIVE) {
                int32_t y = p->vc[x].out;
                keep = y >= 0 && p->vc[y].cred == 0 && in[y];
            } else if (p->vc[x].state == PIPE_VA) {
                size_t at = (size_t)x * p->B + (size_t)p->vc[x].bh;
                const sim_msg *mm = &net->msg[p->buf[at].m];
                if (mm->dst != r) {
                    sim_route rt;
                    sim__route_of(net, r, mm, x, &rt);
                    int ncand = 0;
                    keep = 1;
                    for (int k = 0; k < rt.end[rt.ntiers] && keep; k++)
                        for (int v = 0; v < V && keep; v++) {
                            if (!(rt.vcs[k] >> v & 1))
                                continue;
                            int32_t h =
                                p->used[used_slot(net, rt.ch[k] * V + v)];
                            ncand++;
                            keep = h >= 0 && in[h];
                        }
                    keep = keep && ncand > 0;
                }
            }
            if (!keep) {
                in[x] = 0;
                n--;
                changed = 1;
            }
        }
    }
    if (n > 0) {
        for (int32_t x = 0; x < p->nvc; x++)
            if (in[x]) {
                char a[96];
                sim__vc_describe(net, x, a, sizeof a);
                snprintf(net->deadlock_desc, sizeof net->deadlock_desc,
                         "%ld VCs wait on each other, e.g. %s", n, a);
                break;
            }
    }
    free(in);
    return n;
}
