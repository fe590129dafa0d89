/*
 * engine.c — one simulated cycle: the order of its phases, and the phases
 * both switching engines share (the cycle itself, the waiting and active
 * lists, credits' return, sleeping headers and VC allocation).
 *
 * Units: time in cycles (one flit crosses one physical channel per
 * cycle); D_r the routing delay in cycles; B the flit buffer of a VC;
 * c the credit delay in cycles; L a message's length in flits.
 *
 * EVENT-ORDERING RULE.  Cycle t runs these phases, in this order:
 *
 *   1. credits    (credit delay c > 0 only) credits sent back c cycles ago
 *                 arrive upstream and are usable in this cycle.
 *   2. generate   messages whose arrival falls in cycle t join their source
 *                 queue (source.c; calendar order: cycle, then node id).
 *   3. inject     per sending node (in the order nodes became busy; the
 *                 work-set engine: in node order) and per injection channel
 *                 of the node (the unicast one, then the broadcast ports):
 *                 queued messages take free injection VCs (lowest free VC
 *                 first, FIFO), then the injection channel
 *                 moves one flit, round robin over the injection VCs with
 *                 room, from the PE into the router's injection buffer.
 *                 Injection costs no cycle: a header that enters in cycle t
 *                 is at the source router in cycle t (so it can leave in
 *                 cycle t + D_r).  PCS: taking the injection VC launches the
 *                 probe; the PE sends data only once the acknowledgement is
 *                 back (msg.t_go).
 *   4. allocate   headers whose routing delay has elapsed (ready <= t), oldest
 *                 first, take a VC: at their destination an ejection channel
 *                 (if one of design.ejection_channels is free; 0 = unlimited),
 *                 elsewhere a free VC from the first tier of the routing
 *                 function's candidates that has one, uniformly at random
 *                 (allocator stream).  A header that fails retries every
 *                 cycle.  A header allocated in cycle t may cross in cycle t.
 *                 DCSH in message-level mode (M8): a header must first hold
 *                 its input multiplexer (oldest ready header first), and
 *                 keeps it, waiting or not, until its tail has passed.
 *                 (Its routing delay runs in the input buffer, before the
 *                 multiplexer selects it: a header that waited for the
 *                 multiplexer is not charged D_r again.)
 *   4b. probes    PCS only (pcs.c): probes whose delay has elapsed reserve
 *                 a VC one hop on, or back up one hop.
 *   5. traverse   every physical channel grants one flit, round robin over its
 *                 VCs starting after the last winner, to the first VC whose
 *                 head flit is allocated to it and whose downstream VC has
 *                 room.  "Room" with credit delay 0 includes a full buffer
 *                 whose head flit itself moves in this cycle (a flit may move
 *                 into a slot vacated in the same cycle), resolved by a
 *                 depth-first search along the downstream VCs (iterative,
 *                 memoised per channel).  If that search meets a channel
 *                 whose resolution is still in progress (a cycle of full
 *                 buffers), the answer is "no room": conservative, as real
 *                 credit hardware would be.  Ejecting VCs consume one flit
 *                 per cycle each.  With credit delay c > 0, room means a
 *                 credit in hand.  A DCSH bus is one physical channel for
 *                 all its receivers (resolved through its representative
 *                 channel); a flit leaving a VC that feeds a DCSH input
 *                 multiplexer also needs the multiplexer, which passes one
 *                 flit per cycle: the multiplexers are walked round robin
 *                 (from the member after the last winner, each member's
 *                 output resolved in turn until one moves), so both the
 *                 multiplexer and the output channel arbitrate round robin
 *                 and no input is starved.
 *   6. apply      all granted flits move at once: a flit that crosses a
 *                 channel in cycle t is in the downstream buffer from cycle
 *                 t + 1 (a header's routing delay starts then), and a flit
 *                 ejected in cycle t is consumed at time t + 1.  A VC whose
 *                 tail left is released (free for allocation from t + 1).
 *
 * Hence, at zero load, a message generated in cycle t0 has its header at the
 * source router in t0, leaves it at t0 + D_r, reaches router i at
 * t0 + i (1 + D_r), is at its destination at t0 + h (1 + D_r), and its
 * L-th flit is consumed at t0 + h (1 + D_r) + L: latency h (1 + D_r) + L.
 * D_r is not charged at the destination (the models charge it per hop).
 *
 * CONSERVATION INVARIANTS (checked by sim_check_invariants, check.c):
 *   flits generated = flits still at the PE + flits in VC buffers + flits
 *   consumed; each VC holds a contiguous run of one message's flits, at most
 *   B of them; a VC is free iff it holds no flit and no message; with credit
 *   delay c > 0, credits + occupancy + credits in flight = B for every VC.
 *
 * DCSH buses and multiplexers add: a bus VC is held by at most one receiver
 * leg (net->bus_vc agrees with VC ownership); a multiplexer passes at most
 * one flit per cycle; in message-level mode at most one VC of a group has
 * an allocated output, and it is the group's owner.
 *
 * Everything here touches only VCs that hold a message: the active list (VCs
 * with an allocated output), the waiting list (unrouted headers) and the
 * busy sources; an empty network jumps straight to the next arrival.  No
 * allocation happens per cycle or per flit (the sleeper pool below grows by
 * doubling, amortised).
 *
 * SLEEPING HEADERS (every network but message-level multiplexers and
 * PCS: net->sleepy).  A header whose allocation failed sleeps (zzz[x]) on
 * the channels of its candidate VCs (on a DCSH bus, on the bus: its legs
 * share its V VCs, sim_phys_channel) or on its router's ejection channels,
 * and is woken when a VC of one of them is released (an ejection channel
 * freed).  On buses this saves a quarter of a saturated DCSH's cycle:
 * one saturation-screen probe of the 64x64 DCSH with 1-wire channels
 * (V = 2, deterministic, 128-flit worms, about 6,000 headers waiting)
 * took 17.0 s CPU against 22.4 s, with the same verdict; `dse sim` on
 * DCSHs (uniform, hot-spot, transpose and broadcast traffic, unit and
 * pipelined routers, credit delay 0 and 2) gives the same figures bit
 * for bit.  A failed attempt changes nothing
 * and draws no random number (sim__route_pick draws only when it has two
 * or more free VCs), and a header can only succeed after such a release,
 * so sleeping is exact: the allocation phase makes the same choices, in
 * the same order, with the same draws, as retrying every header every
 * cycle.  A sleeping header is off the waiting list (thousands sleep on a
 * saturated 1024-node network): woken headers are merged back at the next
 * allocation by their push sequence number (wseq), so the list stays in
 * the order a scan of every header would follow.
 *
 * TWO ENGINES, ONE PHASE INTERFACE.  Phases 3 (inject) and 5-6 (traverse,
 * apply) have two implementations behind sim_engine (sim_int.h), chosen
 * once by sim_net_create: the active-list engine (engine_active.c) serves
 * every network; the work-set engine (engine_fast.c) serves point-to-point
 * wormhole networks with credit delay 0 and makes its moves from sets kept
 * across cycles (engine_fast.c says how the two differ).  Both keep the
 * blocked set (sim_net.blk, sim__blocked_def) where they can (the active-
 * list engine: credit delay 0, flit-level multiplexers, no PCS) and never
 * visit a worm frozen behind an unrouted header.  Allocation
 * (phase 4) is shared and calls the engine's hooks where the engine's own
 * state must follow (a message queued, a header routed).
 *
 * ONE THREAD PER RUN.  Bit-identical results on several threads would
 * need each phase's serial order kept: the depth-first search of phase 5
 * follows full buffers across any partition of the routers and its cycle
 * cut depends on the visit order, and phase 4 hands out one allocator
 * stream in waiting-list order.  What could run in parallel unchanged
 * (generation and injection) is too small a share of a cycle to pay for
 * the barriers (docs/history/simulator-performance.md).  Callers with
 * several runs (sim_run_many, the optimizer's pool, the farm) spread
 * independent runs over the cores instead.  A single large run can use
 * the partitioned engine (engine_par.c, sim_params.partitioned): another
 * mode, with credit delay 1, whose decisions are per router, so its
 * result is the same on any number of threads, but not this engine's.
 */
#include <stdlib.h>

#include "net/xalloc.h"
#include "sim_int.h"

/* x's bit in its DCSH multiplexer group's active set (run.c grp_act);
 * NULL when x feeds no multiplexer. */
static inline uint64_t *group_bit(sim_net *net, int32_t x, uint64_t *bit)
{
    int32_t g = sim_vc_group(net, x);
    if (g < 0)
        return NULL;
    int32_t j = x - net->topo.grp_first[g] * net->V;
    *bit = UINT64_C(1) << (j & 63);
    return &net->grp_act[net->grp_word[g] + (j >> 6)];
}

void sim__active_add(sim_net *net, int32_t x)
{
    net->vc_active[x] = net->nactive;
    net->active[net->nactive++] = x;
    uint64_t bit, *w;
    if (net->grp_act && (w = group_bit(net, x, &bit)))
        *w |= bit;
}

void sim__active_remove(sim_net *net, int32_t x)
{
    int32_t i = net->vc_active[x];
    int32_t last = net->active[--net->nactive];
    net->active[i] = last;
    net->vc_active[last] = i;
    net->vc_active[x] = SIM_NONE;
    uint64_t bit, *w;
    if (net->grp_act && (w = group_bit(net, x, &bit)))
        *w &= ~bit;
}

/* Blocked (sim_net.blk), from the definition: full, and the head waits on
 * an unrouted header down a chain of full VCs. */
int sim__blocked_def(const sim_net *net, int32_t y)
{
    for (;;) {
        const sim_vc *v = &net->vc[y];
        if (v->occ != net->B || v->out == SIM_EJECT)
            return 0;
        if (v->out == SIM_NONE)
            return 1;
        y = v->out;
    }
}

void sim__waiting_push(sim_net *net, int32_t x)
{
    net->wseq[x] = net->wseq_next++;
    net->waiting[net->nwaiting++] = x;
}

void sim__queue_push(sim_net *net, int32_t u, int32_t qi, int32_t m)
{
    sim_queue *q = &net->iq[qi];
    net->msg[m].next = SIM_NONE;
    if (q->len == 0)
        q->head = m;
    else
        net->msg[q->tail].next = m;
    q->tail = m;
    q->len++;
    net->queued++;
    net->engine->queued(net, u, qi);
    if (net->pipe)
        sim__pipe_queued(net, qi);
}

/* ---- sleeping headers ------------------------------------------------- */

static void sleep_on(sim_net *net, int32_t x, int32_t slot)
{
    if (net->wn_free == SIM_NONE) {
        int32_t old = net->wn_cap;
        int32_t cap = old ? old * 2 : 1024;
        net->wn_x = xrealloc(net->wn_x, sizeof *net->wn_x * (size_t)cap);
        net->wn_next = xrealloc(net->wn_next,
                                sizeof *net->wn_next * (size_t)cap);
        net->wn_ep = xrealloc(net->wn_ep, sizeof *net->wn_ep * (size_t)cap);
        for (int32_t i = cap - 1; i >= old; i--) {
            net->wn_next[i] = net->wn_free;
            net->wn_free = i;
        }
        net->wn_cap = cap;
    }
    int32_t i = net->wn_free;
    net->wn_free = net->wn_next[i];
    net->wn_x[i] = x;
    net->wn_ep[i] = net->wepoch[x];
    net->wn_next[i] = net->wl_head[slot];
    net->wl_head[slot] = i;
}

void sim__wake(sim_net *net, int32_t slot)
{
    int32_t i = net->wl_head[slot];
    net->wl_head[slot] = SIM_NONE;
    while (i != SIM_NONE) {
        int32_t next = net->wn_next[i];
        int32_t x = net->wn_x[i];
        if (net->wepoch[x] == net->wn_ep[i] && net->zzz[x]) {
            net->zzz[x] = 0;
            net->nzzz--;
            net->woken[net->nwoken].seq = net->wseq[x];
            net->woken[net->nwoken++].x = x;
        }
        net->wn_next[i] = net->wn_free;
        net->wn_free = i;
        i = next;
    }
}

/* ---- 1. credits ------------------------------------------------------- */

static void credits_return(sim_net *net)
{
    int slot = (int)(net->now % (net->cd + 1));
    for (int i = 0; i < net->cw_n[slot]; i++)
        net->vc_credits[net->cw[slot][i]]++;
    net->cw_n[slot] = 0;
}


/* ---- 4. allocate ------------------------------------------------------- */

/* Bits set in f; one bit (the common case: a single free VC) without the
 * library call __builtin_popcountll becomes when the target has no
 * popcount instruction (our portable -O2 build). */
static inline int bits_set(uint64_t f)
{
    return (f & (f - 1)) == 0 ? f != 0 : __builtin_popcountll(f);
}

/* sim__route_pick on point-to-point channels: the free VCs of a
 * candidate are its permitted VCs that are not held.  Same order, same
 * draws. */
static int32_t route_pick_p2p(sim_net *net, const sim_route *rt,
                              int32_t skip_ch)
{
    const int V = net->V;
    const uint64_t *held = net->held;
    for (int tier = 0, start = 0; tier < rt->ntiers;
         start = rt->end[tier++]) {
        int nfree = 0;
        int32_t only = SIM_NONE;
        for (int i = start; i < rt->end[tier]; i++) {
            if (rt->ch[i] == skip_ch)
                continue;
            uint64_t f = rt->vcs[i] & ~held[rt->ch[i]];
            if (f) {
                nfree += bits_set(f);
                only = rt->ch[i] * V + 63 - __builtin_clzll(f);
            }
        }
        if (nfree == 0)
            continue;
        if (nfree == 1)
            return only;
        int pick = (int)rng_below(&net->rng, (uint64_t)nfree);
        for (int i = start; i < rt->end[tier]; i++) {
            if (rt->ch[i] == skip_ch)
                continue;
            uint64_t f = rt->vcs[i] & ~held[rt->ch[i]];
            int n = bits_set(f);
            if (pick >= n) {
                pick -= n;
                continue;
            }
            while (pick-- > 0)
                f &= f - 1;
            return rt->ch[i] * V + __builtin_ctzll(f);
        }
    }
    return SIM_NONE;
}

int32_t sim__route_pick(sim_net *net, const sim_route *rt, int32_t skip_ch)
{
    if (!net->bus_vc)
        return route_pick_p2p(net, rt, skip_ch);
    const int V = net->V;
    for (int tier = 0, start = 0; tier < rt->ntiers;
         start = rt->end[tier++]) {
        int nfree = 0;
        int32_t only = SIM_NONE;
        for (int i = start; i < rt->end[tier]; i++) {
            if (rt->ch[i] == skip_ch)
                continue;
            uint64_t mask = rt->vcs[i];
            int32_t base = rt->ch[i] * V;
            while (mask) {
                int v = __builtin_ctzll(mask);
                mask &= mask - 1;
                if (sim_vc_holder(net, base + v) == SIM_NONE) {
                    nfree++;
                    only = base + v;
                }
            }
        }
        if (nfree == 0)
            continue;
        if (nfree == 1)
            return only;
        int pick = (int)rng_below(&net->rng, (uint64_t)nfree);
        for (int i = start; i < rt->end[tier]; i++) {
            if (rt->ch[i] == skip_ch)
                continue;
            uint64_t mask = rt->vcs[i];
            int32_t base = rt->ch[i] * V;
            while (mask) {
                int v = __builtin_ctzll(mask);
                mask &= mask - 1;
                if (sim_vc_holder(net, base + v) == SIM_NONE && pick-- == 0)
                    return base + v;
            }
        }
    }
    return SIM_NONE;
}

void sim__route_of(const sim_net *net, int r, const sim_msg *m, int32_t x,
                   sim_route *rt)
{
    if (m->bc >= 0 && net->topo.mc_base >= 0) {
        /* a DCSH broadcast copy: the bus of its dimension, any VC */
        sim_route_begin(rt);
        sim_route_add(rt, net->topo.mc_base + m->src * net->topo.n + m->bdim,
                      net->mask_all);
        sim_route_tier(rt);
        return;
    }
    net->routing->route(net, r, m, x, rt);
}

/* x's header took y (a VC downstream, or SIM_EJECT): x now has an output,
 * so it is active, and the engine follows (sim_engine.routed).  Returns 1. */
static inline int granted(sim_net *net, int32_t x, int32_t y)
{
    sim_vc *vx = &net->vc[x];
    if (y != SIM_EJECT)
        sim_vc_take(net, y, x, vx->msg);
    vx->out = y;
    sim__active_add(net, x);
    net->engine->routed(net, x);
    return 1;
}

/* x's header failed to allocate: off the waiting list until one of the
 * channels the caller puts it to sleep on (sleep_on) frees a VC. */
static inline void fall_asleep(sim_net *net, int32_t x)
{
    net->zzz[x] = 1;
    net->nzzz++;
    net->wepoch[x]++;
}

/* try_allocate() past the ejection test, for dimension-order routing on
 * point-to-point channels with dor_hop (net->dor_fast): one candidate
 * channel, so the routing decision and sim__route_pick reduce to a mask
 * of free VCs.  The same choice, the same draws. */
static int try_allocate_dor(sim_net *net, int32_t x, int32_t r,
                            const sim_msg *m)
{
    int cls = 0;
    int32_t c;
    if (net->dor_tab) {
        int32_t e = net->dor_tab[(long)r * net->nodes + m->dst];
        c = e < 0 ? -1 : e >> 1;
        cls = e < 0 ? 0 : e & 1;
    } else {
        c = net->topo.ops->dor_hop(&net->topo, r, m->dst, &cls);
    }
    uint64_t f = c >= 0 ? net->mask_class[cls] & ~net->held[c] : 0;
    if (!f) {
        if (net->sleepy) {       /* until the candidate channel frees a VC */
            fall_asleep(net, x);
            if (c >= 0 && net->mask_class[cls])
                sleep_on(net, x, c);
        }
        return 0;
    }
    int v;
    if ((f & (f - 1)) == 0) {
        v = __builtin_ctzll(f);
    } else {
        int pick = (int)rng_below(&net->rng, (uint64_t)bits_set(f));
        while (pick-- > 0)
            f &= f - 1;
        v = __builtin_ctzll(f);
    }
    return granted(net, x, c * net->V + v);
}

static int try_allocate(sim_net *net, int32_t x)
{
    sim_vc *vx = &net->vc[x];
    int32_t r = sim_vc_router(net, x);
    const sim_msg *m = &net->msg[vx->msg];
    if (net->mux_lock) {
        int32_t g = sim_vc_group(net, x);
        if (g >= 0) {
            if (net->grp_owner[g] != SIM_NONE && net->grp_owner[g] != x)
                return 0;
            net->grp_owner[g] = x;   /* held until the tail has passed */
        }
    }
    if (m->dst == r) {
        if (net->E > 0 && r < net->nodes && net->eject_busy[r] >= net->E) {
            if (net->sleepy) {   /* until an ejection channel frees */
                fall_asleep(net, x);
                sleep_on(net, x, sim_eject_slot(net, r));
            }
            return 0;
        }
        net->eject_busy[r]++;
        return granted(net, x, SIM_EJECT);
    }
    if (net->dor_fast)
        return try_allocate_dor(net, x, r, m);
    sim_route rt;
    sim__route_of(net, r, m, x, &rt);
    int32_t y = sim__route_pick(net, &rt, -1);
    if (y == SIM_NONE) {
        if (net->sleepy) {       /* until a candidate channel frees a VC */
            fall_asleep(net, x);
            for (int i = 0; i < rt.end[rt.ntiers]; i++)
                sleep_on(net, x, sim_phys_channel(net, rt.ch[i]));
        }
        return 0;
    }
    return granted(net, x, y);
}

static int woken_cmp(const void *a, const void *b)
{
    int64_t x = ((const sim_woken *)a)->seq, y = ((const sim_woken *)b)->seq;
    return (x > y) - (x < y);
}

/* Put the headers woken since the last allocation back into the waiting
 * list, at their places in the push order (the list is sorted by wseq). */
static void merge_woken(sim_net *net)
{
    sim_woken *w = net->woken;
    int n = net->nwoken;
    if (n < 16) {
        for (int i = 1; i < n; i++) {
            sim_woken t = w[i];
            int j = i;
            for (; j > 0 && w[j - 1].seq > t.seq; j--)
                w[j] = w[j - 1];
            w[j] = t;
        }
    } else {
        qsort(w, (size_t)n, sizeof *w, woken_cmp);
    }
    int32_t *a = net->waiting, *out = net->wscratch;
    int na = net->nwaiting, i = 0, j = 0, k = 0;
    while (i < na && j < n)
        out[k++] = net->wseq[a[i]] < w[j].seq ? a[i++] : w[j++].x;
    while (i < na)
        out[k++] = a[i++];
    while (j < n)
        out[k++] = w[j++].x;
    net->wscratch = a;
    net->waiting = out;
    net->nwaiting = k;
    net->nwoken = 0;
}

/* Headers in waiting order (oldest first).  Sleeping headers are off the
 * list: they are skipped as the scan of every header would skip them. */
static void allocate(sim_net *net)
{
    if (net->nwoken)
        merge_woken(net);
    int j = 0;
    for (int i = 0; i < net->nwaiting; i++) {
        int32_t x = net->waiting[i];
        if (net->vc_ready[x] <= net->now && try_allocate(net, x))
            continue;
        if (!net->zzz[x])        /* not ready yet, or not sleepy */
            net->waiting[j++] = x;
    }
    net->nwaiting = j;
}

/* ---- the cycle -------------------------------------------------------- */

/* An empty network with idle sources has nothing to do until the next
 * arrival: jump there (low-rate runs cost per message, not per cycle).
 * Credits sent more than cd cycles ago have all returned, so none are
 * skipped over. */
static void skip_idle(sim_net *net)
{
    if (net->nactive || net->nwaiting || net->nwoken || net->nzzz ||
        net->nact_src || net->nqready || net->nprobes ||
        !net->sources_on ||
        net->heap_n == 0 || net->heap_t[0] <= net->now ||
        net->now - net->last_move <= net->cd)
        return;
    net->now = net->heap_t[0];
}

void sim__cycle(sim_net *net)
{
    skip_idle(net);
    if (net->cd)
        credits_return(net);
    sim__generate(net);
    net->engine->inject(net);
    allocate(net);
    if (net->pcs)
        sim__pcs_step(net);
    net->engine->traverse(net);
    net->now++;
}
