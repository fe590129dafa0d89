/*
 * engine.c — one simulated cycle: injection, VC allocation, switch
 * resolution and flit movement.
 *
 * EVENT-ORDERING RULE.  Cycle t runs these phases, in this order:
 *
 *   1. credits    (credit delay c > 0 only) credits sent back c cycles ago
 *                 arrive upstream and are usable in this cycle.
 *   2. generate   messages whose arrival falls in cycle t join their source
 *                 queue (source.c; calendar order: cycle, then node id).
 *   3. inject     per sending node (in the order nodes became busy; the
 *                 fast engine: in node order) and per injection channel of
 *                 the node (the unicast one, then the broadcast ports): queued messages take free injection VCs
 *                 (lowest free VC first, FIFO), then the injection channel
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
 * WORK SETS (issue 14: the cost of a cycle follows the flits that can
 * move, not the VCs that hold a message).  Past saturation almost every VC
 * holds a worm, and almost every worm is frozen behind its header, which
 * waits for a VC that another frozen worm holds.  Scanning them every cycle
 * cost ~0.9 ms per cycle on a saturated 1024-node network.  These sets,
 * kept across cycles, replace the scans:
 *
 *   blocked    blk[y] = 1 iff y is full (occ == B) and its head flit can
 *              only move after an unrouted header further down its worm is
 *              allocated: out(y) == SIM_NONE, or out(y) is blocked.  A
 *              blocked VC cannot move, and nothing can move into it.  Set
 *              by block_check when a VC fills (after apply, and at
 *              injection), walking up the worm through full VCs (owner
 *              links); cleared by unblock when the header at the bottom of
 *              the chain is allocated, walking up the same way.  No other
 *              event changes it: a blocked VC neither sends nor receives.
 *   candidates arb[c].cand, per channel, bit v set iff VC y = c V + v is
 *              owned by a VC x (not the PE, not held by a tail) that holds
 *              a flit, and y is not blocked: exactly the VCs the channel's
 *              round robin may grant (x's head moves into y if y has room
 *              or frees a slot in this cycle).  Kept by the events that
 *              change it: x gets its first flit or its output (feeder_on),
 *              x empties (apply), y is blocked or unblocked.  The channels
 *              whose mask may be nonzero are listed (ach, insertion order,
 *              entries dropped lazily once their mask is 0; the mask, the
 *              channel's stamp and round robin and its listed flag share
 *              one 16-byte sim_arb), and so are
 *              the VCs that may be ejecting (ej).  The search therefore
 *              never looks at a VC that cannot be granted: on the
 *              saturated 4-ary 5-cube it examined 5.6 VC slots per
 *              channel, most of them idle or blocked.
 *   sleeping   a header whose allocation failed sleeps (zzz[x]) on the
 *              channels of its candidate VCs (or on its router's ejection
 *              channels) and is woken when a VC of one of them is released
 *              (an ejection channel freed).  A failed attempt changes
 *              nothing and draws no random number (sim__route_pick draws
 *              only when it has two or more free VCs), and a header can
 *              only succeed after such a release, so sleeping is exact: the
 *              allocation phase makes the same choices, in the same order,
 *              with the same draws, as retrying every header every cycle.
 *              A sleeping header is off the waiting list (thousands sleep
 *              on a saturated 1024-node network; the list was scanned every
 *              cycle): woken headers are merged back at the next
 *              allocation by their push sequence number (wseq), so the list
 *              stays in the order a scan of every header would follow.
 *   injection  per injection queue, masks of its free VCs (vfree) and of
 *              the VCs its PE is sending on (send), and a bitmap (qready)
 *              of the queues that may move a flit: set by a new message or
 *              a flit leaving one of its VCs, cleared when the queue could
 *              move nothing.
 *
 * The blocked, candidate and injection sets are used (net->fast) for
 * point-to-point wormhole networks with credit delay 0; the DCSH (buses,
 * multiplexers), PCS and credit delay > 0 keep the active-list traverse.
 * Sleeping is used everywhere except on DCSH buses, message-level
 * multiplexers and PCS.  sim_check_invariants checks every set against
 * its definition.
 *
 * COST PER MOVE (the fast engine; same moves, same order, same draws).
 * Past saturation a cycle is a few thousand moves, so what each move costs
 * decides the speed:
 *   - traverse_fast grants a listed channel whose round-robin choice has
 *     room (or moves) itself; only the others enter the search
 *     (resolve_fast).
 *   - apply_fast knows every grant of the cycle before it applies the
 *     first (the moved list is complete), so the candidate churn of worms
 *     that move as a whole is skipped: a VC that empties while its owner
 *     moves a flit into it keeps feeding its output, a VC refilled after
 *     its own head moved keeps its state, and a filled VC is listed for the
 *     block check only if its output is unrouted or blocked (see
 *     apply_fast for why each is exact).
 *   - the channel of a VC is a multiply-shift (chan_of), not a read of a
 *     downstream VC's record; the per-channel state read for every listed
 *     channel in every cycle is one record (sim_arb).
 *   - dimension-order allocation (net->dor_fast) picks from a mask of free
 *     VCs without building a sim_route, with the route from a table on
 *     small networks (dor_tab).
 *
 * WHAT THE FAST TRAVERSE CHANGES (not bit-identical to the engine before
 * issue 14 at high load; deterministic for a given (params, seed) as
 * always).  The set of flits that can move in a cycle does not depend on
 * the order in which phase 5 visits the channels, with one exception: the
 * conservative answer when the depth-first search meets a channel whose
 * resolution is in progress.  Which channel the search enters first
 * decides where such a cycle of full buffers is cut.  The old traverse
 * entered the channels in active-list order and also searched through
 * blocked worms; the fast one first grants every ejecting VC, then enters
 * the channels in the order they got candidates, and never enters a
 * blocked VC.  The order of the granted flits (the moved list) also
 * follows the visit order, and apply() appends headers that arrive in the
 * same cycle to the waiting list in that order, which decides their
 * allocation priority and hence the allocator's draws.  Likewise the fast
 * injection visits the queues in index order (node, then channel), the
 * active-list engine in the order the nodes became busy: headers injected
 * in the same cycle sit at different routers, so this changes only which
 * draw of the allocator stream each one gets.  Neither rule is better
 * than the other (both are round robin per channel, both cut cycles
 * conservatively); the statistics agree: tests/test_sim_fast.c pins
 * latency (within the combined 95% CIs) and throughput (2%) against the
 * active-list traverse on 7 designs below saturation, accepted throughput
 * (5%) on 4 past it, and the work-set invariants; test_sim.c and
 * test_sim2.c pin zero-load latency exactly on the fast traverse.
 *
 * ONE THREAD PER RUN (issue 14 allowed a run to partition its routers
 * over threads if that paid on 2 cores; it does not, so it is not built).
 * Bit-identical results on N threads would need each phase's serial order
 * kept: the depth-first search of phase 5 follows full buffers across any
 * partition and its cycle cut depends on the visit order, and phase 4
 * hands out one allocator stream in waiting-list order.  What could run
 * in parallel unchanged is generation and injection, 15-20% of a
 * saturated cycle's instructions (callgrind, bench_sim_saturated: 5-cube
 * 17%, 8x8 torus 20%): at most ~1.1x on 2 threads before the barriers,
 * two or more per cycle, at 5.5-6.3 us each (pthread_barrier_wait, two
 * threads, measured on this project's 2-core machine under its usual
 * load) against 2-3 us for a whole cycle of the 8x8 torus and ~150 us for
 * the saturated 5-cube.  There is no idle second core to win either: two
 * saturated 32x32 runs started together took 2.5 s of wall time each,
 * one alone 0.93 s.  Every caller with more than one run (sim_run_many,
 * the optimizer's pool, the farm) already spreads independent runs over
 * the cores, which scale without barriers.
 *
 * Rejected while tuning the fast engine (measured, no gain): visiting the
 * channels in index order from an exact bitmap instead of the insertion
 * ordered list, and sleeping headers on each candidate VC instead of on
 * its channel (+-1% instructions); software prefetch of the VC and
 * arbitration records a few entries ahead in apply_fast and traverse_fast
 * (+7% instructions, no gain measurable on the shared 2-core machine).
 */
#include <assert.h>
#include <stdlib.h>

#include "net/xalloc.h"
#include "sim_int.h"

static inline int32_t vc_router(const sim_net *net, int32_t x)
{
    return net->topo.chan[net->vc[x].ch].dst;
}

void sim__active_add(sim_net *net, int32_t x)
{
    net->vc_active[x] = net->nactive;
    net->active[net->nactive++] = x;
}

void sim__active_remove(sim_net *net, int32_t x)
{
    int32_t i = net->vc_active[x];
    int32_t last = net->active[--net->nactive];
    net->active[i] = last;
    net->vc_active[last] = i;
    net->vc_active[x] = SIM_NONE;
}

void sim__waiting_push(sim_net *net, int32_t x)
{
    net->wseq[x] = net->wseq_next++;
    net->waiting[net->nwaiting++] = x;
}

/* Fast engine: injection queue qi may be able to move a flit. */
static inline void qready_set(sim_net *net, int32_t qi)
{
    uint64_t b = UINT64_C(1) << (qi & 63);
    uint64_t *w = &net->qready[qi >> 6];
    if (!(*w & b)) {
        *w |= b;
        net->nqready++;
    }
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
    if (net->fast) {
        qready_set(net, qi);
        return;
    }
    sim_source *s = &net->src[u];
    if (!s->listed) {
        s->listed = 1;
        net->act_src[net->nact_src++] = u;
    }
}

static inline int32_t phys_of(const sim_net *net, int32_t c)
{
    return net->topo.phys ? net->topo.phys[c] : c;
}

/* ---- work sets -------------------------------------------------------- */

/* The channel of VC y, y / V without a division or a read of vc[y]
 * (exact for y < 2^40 / V: see sim_net.vdiv). */
static inline int32_t chan_of(const sim_net *net, int32_t y)
{
    int32_t c = (int32_t)(((uint64_t)y * net->vdiv) >> 40);
    assert(c == net->vc[y].ch);
    return c;
}

/* Network VC y becomes a candidate of its channel's arbitration: its
 * owner holds a flit for it and it is not blocked. */
static inline void cand_set(sim_net *net, int32_t y)
{
    int32_t c = chan_of(net, y);
    sim_arb *a = &net->arb[c];
    a->cand |= UINT64_C(1) << (y - c * net->V);
    net->ach[net->nach] = c;     /* listed unless it is (branch-free:   */
    net->nach += !(a->sr & SIM_ARB_LISTED);  /* data dependent, mis-  */
    a->sr |= SIM_ARB_LISTED;                 /* predicted)            */
}

static inline void cand_clear(sim_net *net, int32_t y)
{
    int32_t c = chan_of(net, y);
    net->arb[c].cand &= ~(UINT64_C(1) << (y - c * net->V));
}

/* x holds a flit and an output: make that output a candidate (unless it
 * is blocked), or list x as ejecting. */
static inline void feeder_on(sim_net *net, int32_t x)
{
    int32_t out = net->vc[x].out;
    if (out >= 0) {
        if (!net->blk[out])
            cand_set(net, out);
    } else if (out == SIM_EJECT && !net->in_ej[x]) {
        net->in_ej[x] = 1;
        net->ej[net->nej++] = x;
    }
}

/* y just got a flit: if it is now full and its head waits on an unrouted
 * header, mark it and every full VC upstream of it in its worm blocked
 * (none of them is a candidate any more). */
static void block_up(sim_net *net, int32_t y)
{
    while (y >= 0 && !net->blk[y] && net->vc[y].occ == net->B) {
        net->blk[y] = 1;
        cand_clear(net, y);
        y = net->vc[y].owner;
    }
}

static inline void block_check(sim_net *net, int32_t y)
{
    const sim_vc *vy = &net->vc[y];
    if (vy->occ == net->B && !net->blk[y] &&
        (vy->out == SIM_NONE || (vy->out >= 0 && net->blk[vy->out])))
        block_up(net, y);
}

/* The header at y was just routed: y and the full VCs behind it are no
 * longer blocked, and their feeders may send again. */
static void unblock(sim_net *net, int32_t y)
{
    feeder_on(net, y);
    while (y >= 0 && net->blk[y]) {
        net->blk[y] = 0;
        int32_t x = net->vc[y].owner;
        if (x >= 0 && net->vc[x].occ > 0)
            cand_set(net, y);
        y = x;
    }
}

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

static inline int32_t eject_slot(const sim_net *net, int32_t r)
{
    return net->nslots - net->topo.routers + r;
}

/* ---- 1. credits ------------------------------------------------------- */

static void credits_return(sim_net *net)
{
    int slot = (int)(net->now % (net->cd + 1));
    for (int i = 0; i < net->cw_n[slot]; i++)
        net->vc_credits[net->cw[slot][i]]++;
    net->cw_n[slot] = 0;
}

static void credit_send(sim_net *net, int32_t x)
{
    int slot = (int)((net->now + net->cd) % (net->cd + 1));
    if (net->cw_n[slot] == net->cw_cap[slot]) {
        int cap = net->cw_cap[slot] ? net->cw_cap[slot] * 2 : 256;
        net->cw[slot] = xrealloc(net->cw[slot], sizeof(int32_t) * (size_t)cap);
        net->cw_cap[slot] = cap;
    }
    net->cw[slot][net->cw_n[slot]++] = x;
}

static inline int has_room(const sim_net *net, int32_t y)
{
    return net->cd ? net->vc_credits[y] > 0 : net->vc[y].occ < net->B;
}

/* ---- 3. inject -------------------------------------------------------- */

/* The active-list engine's injection (inject_channel_fast has its own). */
static void put_flit(sim_net *net, int32_t y, int32_t seq)
{
    sim_vc *vy = &net->vc[y];
    if (vy->occ == 0) {
        vy->first = seq;
        net->vc_since[y] = net->now;
    }
    vy->occ++;
    if (net->cd)
        net->vc_credits[y]--;
}

/* One injection channel (queue qi = u*ipn + j) of a node.  Returns 1 while
 * it still has work (queued or sending). */
static int inject_channel(sim_net *net, int32_t qi)
{
    sim_queue *q = &net->iq[qi];
    const int V = net->V;
    int32_t base = (net->topo.nnet + qi) * V;
    int32_t *pe_msg = net->pe_msg + (long)qi * V;
    int32_t *pe_next = net->pe_next + (long)qi * V;

    for (int v = 0; v < V && q->len > 0; v++) {
        sim_vc *vy = &net->vc[base + v];
        if (vy->owner != SIM_NONE)
            continue;
        int32_t m = q->head;
        q->head = net->msg[m].next;
        q->len--;
        net->queued--;
        vy->owner = SIM_PE;
        vy->msg = m;
        pe_msg[v] = m;
        pe_next[v] = 0;
        if (net->pcs)
            sim__pcs_start(net, m, base + v);
    }

    int busy = q->len > 0;
    int moved = 0;
    for (int j = 0; j < V; j++) {
        int v = (q->rr + j) % V;
        int32_t m = pe_msg[v];
        if (m == SIM_NONE)
            continue;
        busy = 1;
        if (moved || !has_room(net, base + v))
            continue;
        sim_msg *mm = &net->msg[m];
        if (net->pcs && (mm->t_go < 0 || mm->t_go > net->now))
            continue;            /* no acknowledgement yet */
        int32_t y = base + v;
        int32_t seq = pe_next[v]++;
        put_flit(net, y, seq);
        net->flits_injected++;
        if (seq == 0 && !net->pcs) {
            mm->t_inject = net->now;
            net->vc_ready[y] = net->now + net->Dr;
            sim__waiting_push(net, y);
        }
        if (pe_next[v] == mm->len) {
            pe_msg[v] = SIM_NONE;
            net->vc[y].owner = SIM_HELD;
        }
        q->rr = (v + 1) % V;
        moved = 1;
        net->last_move = net->now;
    }
    return busy;
}

/* inject_channel() for the fast engine: the same choices, from the
 * queue's masks of free and sending VCs. */
static int inject_channel_fast(sim_net *net, int32_t qi)
{
    sim_queue *q = &net->iq[qi];
    const int V = net->V;
    int32_t base = (net->topo.nnet + qi) * V;
    int32_t *pe_msg = net->pe_msg + (long)qi * V;
    int32_t *pe_next = net->pe_next + (long)qi * V;

    while (q->len > 0 && q->vfree) {   /* lowest free VC first, FIFO */
        int v = __builtin_ctzll(q->vfree);
        q->vfree &= q->vfree - 1;
        q->send |= UINT64_C(1) << v;
        int32_t m = q->head;
        q->head = net->msg[m].next;
        q->len--;
        net->queued--;
        net->vc[base + v].owner = SIM_PE;
        net->vc[base + v].msg = m;
        pe_msg[v] = m;
        pe_next[v] = 0;
    }
    /* Round robin from q->rr over the sending VCs with room.  None: every
     * VC is taken or the queue empty, and no sending VC has room; only a
     * flit leaving an injection VC (apply) or a new message changes
     * that. */
    uint64_t s = q->send & q->room;
    if (!s)
        return 0;
    uint64_t h = s & (~UINT64_C(0) << q->rr);
    int v = __builtin_ctzll(h ? h : s);
    int32_t y = base + v;
    int32_t m = pe_msg[v];
    sim_msg *mm = &net->msg[m];
    int32_t seq = pe_next[v]++;
    sim_vc *vy = &net->vc[y];    /* put_flit(), for the fast engine */
    if (vy->occ++ == 0) {
        vy->first = seq;
        net->vc_since[y] = net->now;
        feeder_on(net, y);
    }
    if (vy->occ == net->B) {
        q->room &= ~(UINT64_C(1) << v);
        block_check(net, y);
    }
    net->flits_injected++;
    if (seq == 0) {
        mm->t_inject = net->now;
        net->vc_ready[y] = net->now + net->Dr;
        sim__waiting_push(net, y);
    }
    if (pe_next[v] == mm->len) {
        pe_msg[v] = SIM_NONE;
        q->send &= ~(UINT64_C(1) << v);
        net->vc[y].owner = SIM_HELD;
    }
    q->rr = v + 1 == V ? 0 : v + 1;
    net->last_move = net->now;
    return (q->len > 0 && q->vfree) || (q->send & q->room);
}

/* Returns 1 while the node still has work (queued or sending). */
static int inject_node(sim_net *net, int32_t u)
{
    int busy = 0;
    const int ipn = net->topo.ipn;
    for (int j = 0; j < ipn; j++)
        busy |= inject_channel(net, u * ipn + j);
    return busy;
}

/* Fast engine: the queues that may move a flit, in queue order (node,
 * then injection channel); a queue leaves the set when nothing can move,
 * and is put back by a new message or a flit leaving one of its VCs. */
static void inject_fast(sim_net *net)
{
    long nw = ((long)net->nodes * net->topo.ipn + 63) >> 6;
    for (long i = 0; i < nw; i++) {
        uint64_t w = net->qready[i];
        while (w) {
            int b = __builtin_ctzll(w);
            w &= w - 1;
            if (!inject_channel_fast(net, (int32_t)(i * 64 + b))) {
                net->qready[i] &= ~(UINT64_C(1) << b);
                net->nqready--;
            }
        }
    }
}

static void inject(sim_net *net)
{
    if (net->fast) {
        inject_fast(net);
        return;
    }
    int j = 0;
    for (int i = 0; i < net->nact_src; i++) {
        int32_t u = net->act_src[i];
        if (inject_node(net, u))
            net->act_src[j++] = u;
        else
            net->src[u].listed = 0;
    }
    net->nact_src = j;
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
 * so it is active, and in the fast engine no longer blocked.  Returns 1. */
static inline int granted(sim_net *net, int32_t x, int32_t y)
{
    sim_vc *vx = &net->vc[x];
    if (y != SIM_EJECT)
        sim_vc_take(net, y, x, vx->msg);
    vx->out = y;
    sim__active_add(net, x);
    if (net->fast)
        unblock(net, x);
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
    int32_t r = vc_router(net, x);
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
                sleep_on(net, x, eject_slot(net, r));
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
                sleep_on(net, x, rt.ch[i]);
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

/* ---- 5. traverse ------------------------------------------------------- */

static inline void grant(sim_net *net, int32_t x)
{
    net->vc[x].mstamp = net->now;
    net->moved[net->nmoved++] = x;
}

/* May x's head flit pass its input multiplexer in this cycle? */
static inline int mux_free(const sim_net *net, int32_t x)
{
    int32_t g = sim_vc_group(net, x);
    return g < 0 || net->grp_stamp[g] != net->now;
}

/* x's head flit passes its multiplexer in this cycle (mux_free(x) held). */
static inline void mux_take(sim_net *net, int32_t x)
{
    int32_t g = sim_vc_group(net, x);
    if (g < 0)
        return;
    int32_t lo = net->topo.grp_first[g] * net->V;
    int32_t size = net->topo.grp_first[g + 1] * net->V - lo;
    int32_t next = x - lo + 1;
    net->grp_stamp[g] = net->now;
    net->grp_rr[g] = next == size ? 0 : next;
}

/* Resolve physical channel c0 (a DCSH bus: its representative channel)
 * and, depth first, every channel whose outcome decides whether a full
 * downstream buffer frees a slot in this cycle. */
static void resolve(sim_net *net, int32_t c0)
{
    const int V = net->V;
    const int64_t now = net->now;
    sim_vc *vc = net->vc;
    sim_chan *chan = net->topo.chan;
    const int32_t *bus = net->bus_vc;
    int32_t *stk = net->dfs_ch, *pos = net->dfs_i;
    int sp = 0;
    chan[c0].stamp = now;
    stk[sp] = c0;
    pos[sp++] = 0;
    while (sp > 0) {
        int f = sp - 1;
        int32_t c = stk[f];
        int i = pos[f];
        if (i == V) {            /* nobody can use channel c this cycle */
            sp--;
            continue;
        }
        int v = chan[c].rr + i;
        if (v >= V)
            v -= V;
        int32_t y = bus ? bus[(int64_t)c * V + v] : c * V + v;
        if (y < 0) {
            pos[f]++;
            continue;
        }
        int32_t x = vc[y].owner;
        /* blocked: full, and cannot move this cycle */
        if (x < 0 || net->blk[y] || vc[x].occ == 0 || !mux_free(net, x)) {
            pos[f]++;
            continue;
        }
        int ok = has_room(net, y);
        if (!ok && !net->cd) {
            sim_vc *vy = &vc[y];
            if (vy->mstamp == now) {
                ok = 1;
            } else if (vy->out == SIM_EJECT) {
                if (mux_free(net, y)) {
                    mux_take(net, y);
                    grant(net, y);
                    ok = 1;
                }
            } else if (vy->out >= 0) {
                int32_t c2 = phys_of(net, vc[vy->out].ch);
                if (chan[c2].stamp != now) {
                    chan[c2].stamp = now;
                    stk[sp] = c2;
                    pos[sp++] = 0;
                    continue;    /* come back to this candidate */
                }
            }
        }
        if (ok) {
            mux_take(net, x);
            grant(net, x);
            chan[c].rr = v + 1 == V ? 0 : v + 1;
            sp--;
            continue;
        }
        pos[f]++;
    }
}

/* DCSH input multiplexer g: offer its members, round robin from the one
 * after the last winner, to their output channels until one moves. */
static void walk_group(sim_net *net, int32_t g)
{
    const int64_t now = net->now;
    int32_t lo = net->topo.grp_first[g] * net->V;
    int32_t size = net->topo.grp_first[g + 1] * net->V - lo;
    int32_t j = net->grp_rr[g];
    net->grp_seen[g] = now;
    for (int32_t i = 0; i < size && net->grp_stamp[g] != now; i++) {
        int32_t x = lo + j;
        if (++j == size)
            j = 0;
        sim_vc *vx = &net->vc[x];
        if (vx->out == SIM_NONE || vx->occ == 0 || vx->mstamp == now)
            continue;
        if (vx->out == SIM_EJECT) {
            mux_take(net, x);
            grant(net, x);
            break;
        }
        int32_t c = phys_of(net, net->vc[vx->out].ch);
        if (net->topo.chan[c].stamp != now)
            resolve(net, c);
    }
}

static void apply(sim_net *net)
{
    const int64_t now = net->now;
    for (int i = 0; i < net->nmoved; i++) {
        int32_t x = net->moved[i];
        sim_vc *vx = &net->vc[x];
        int32_t mi = vx->msg;
        sim_msg *m = &net->msg[mi];
        int32_t seq = vx->first;
        int tail = seq == m->len - 1;
        vx->first++;
        vx->occ--;
        if (net->cd)
            credit_send(net, x);
        if (vx->out == SIM_EJECT) {
            m->consumed++;
            net->flits_consumed++;
            if (net->stats.window == 1)
                net->stats.win_cons_flits++;
            if (tail) {
                int32_t r = vc_router(net, x);
                net->eject_busy[r]--;
                if (net->sleepy && net->wl_head[eject_slot(net, r)] >= 0)
                    sim__wake(net, eject_slot(net, r));
                sim__deliver(net, mi);   /* may grow the message pool */
            }
        } else {
            int32_t y = vx->out;
            sim_vc *vy = &net->vc[y];
            if (vy->occ == 0) {
                vy->first = seq;
                net->vc_since[y] = now + 1;
            }
            vy->occ++;
            if (net->cd)
                net->vc_credits[y]--;
            if (seq == 0 && !net->pcs) {
                int32_t r2 = vc_router(net, y);
                m->hops++;
                net->vc_ready[y] = now + 1 + (m->dst == r2 ? 0 : net->Dr);
                sim__waiting_push(net, y);
            }
            if (tail)
                vy->owner = SIM_HELD;
        }
        if (tail) {
            if (net->mux_lock) {
                int32_t g = sim_vc_group(net, x);
                if (g >= 0 && net->grp_owner[g] == x)
                    net->grp_owner[g] = SIM_NONE;
            }
            sim__active_remove(net, x);
            sim_vc_release(net, x);
        }
    }
    if (net->nmoved)
        net->last_move = now;
    net->nmoved = 0;
}

/* ---- 5-6. the fast traverse (net->fast) -------------------------------- */

/* resolve() for the fast engine: the same round robin and depth-first
 * search, over the channel's candidates only (cand[c]: the VCs at or
 * after the round-robin pointer first, then the others).  Every ejecting
 * VC has been granted before (traverse_fast), so a full candidate whose
 * head does not move in this cycle is waiting on a network channel. */
static void resolve_fast(sim_net *net, int32_t c0)
{
    const int V = net->V, B = net->B;
    const int64_t now = net->now;
    const uint64_t t1 = (uint64_t)(now + 1) << SIM_ARB_T;   /* stamp now */
    sim_vc *vc = net->vc;
    sim_arb *arb = net->arb;
    int32_t *stk = net->dfs_ch;
    uint64_t *rem = net->dfs_rem;
    arb[c0].sr = t1 | (arb[c0].sr & (SIM_ARB_LISTED | SIM_ARB_RR));
    stk[0] = c0;
    rem[0] = arb[c0].cand;
    int sp = 1;
    while (sp > 0) {
        int f = sp - 1;
        uint64_t m = rem[f];
        if (!m) {                /* nobody can use channel c this cycle */
            sp--;
            continue;
        }
        int32_t c = stk[f];
        sim_arb *a = &arb[c];
        uint64_t h = m & (~UINT64_C(0) << (a->sr & SIM_ARB_RR));
        int v = __builtin_ctzll(h ? h : m);
        int32_t y = c * V + v;
        const sim_vc *vy = &vc[y];
        if (vy->occ < B || vy->mstamp == now) {
            int32_t x = vy->owner;
            vc[x].mstamp = now;
            net->moved[net->nmoved++] = x;
            a->sr = t1 | (a->sr & SIM_ARB_LISTED) |
                    (uint64_t)((v + 1) & SIM_ARB_RR);
            sp--;
            continue;
        }
        int32_t c2 = chan_of(net, vy->out);
        if (arb[c2].sr < t1) {   /* not resolved in this cycle yet */
            arb[c2].sr = t1 | (arb[c2].sr & 0xff);
            stk[sp] = c2;
            rem[sp++] = arb[c2].cand;
            continue;            /* come back to this candidate */
        }
        rem[f] = m & ~(UINT64_C(1) << v);
    }
}

/* apply() for the fast engine: the same moves, keeping the work sets.
 *
 * Every grant is known before the first move is applied (the moved list
 * is complete), which saves work on the common pattern of a moving worm:
 * when x's head moves into y and x empties, x keeps feeding y (y stays a
 * candidate) if x's owner w moves a flit into x in this cycle
 * (vc[w].mstamp == now); and a VC y refilled after its own head moved in
 * this cycle keeps its state: its output stays a candidate (or it stays
 * listed as ejecting), its vc_since need not move (sim_vc_since already
 * answers now + 1 from its mstamp), and it needs no block check (its
 * output accepted or passed a flit in this cycle, so it is not blocked;
 * y becomes blocked only if its output does, and block_up walks up to y
 * from there). */
static __attribute__((noinline)) void apply_fast(sim_net *net)
{
    const int64_t now = net->now;
    const int B = net->B, V = net->V;
    const int32_t inj0 = net->topo.nnet * V;  /* first injection VC */
    sim_vc *vc = net->vc;
    const int32_t *moved = net->moved;
    const int nmoved = net->nmoved;
    int32_t *filled = net->dfs_ch;   /* network VCs that got full */
    int nfilled = 0;
    for (int i = 0; i < nmoved; i++) {
        int32_t x = moved[i];
        sim_vc *vx = &vc[x];
        int32_t seq = vx->first++;
        int occ = --vx->occ;
        int32_t w = vx->owner;
        /* the head is the tail iff the tail has entered x and the head was
         * x's only flit (seq == len - 1, without reading the message) */
        int tail = w == SIM_HELD && occ == 0;
        assert(tail == (seq == net->msg[vx->msg].len - 1));
        if (x >= inj0) {         /* an injection VC has room */
            int32_t qi = vx->ch - net->topo.nnet;
            uint64_t bit = UINT64_C(1) << (x - vx->ch * V);
            qready_set(net, qi);
            net->iq[qi].room |= bit;
            if (tail)            /* and is free */
                net->iq[qi].vfree |= bit;
        }
        int32_t y = vx->out;
        if (y >= 0) {
            sim_vc *vy = &vc[y];
            if (vy->mstamp == now) {     /* y's head moved: see above */
                if (vy->occ++ == 0)
                    vy->first = seq;
            } else {
                if (vy->occ++ == 0) {
                    vy->first = seq;
                    net->vc_since[y] = now + 1;
                    if (seq == 0) {
                        sim_msg *m = &net->msg[vx->msg];
                        int32_t r2 = vc_router(net, y);
                        m->hops++;
                        net->vc_ready[y] =
                            now + 1 + (m->dst == r2 ? 0 : net->Dr);
                        sim__waiting_push(net, y);
                    } else {
                        feeder_on(net, y);
                    }
                }
                if (vy->occ == B) {  /* may be blocked: see below */
                    /* y's occupancy is final (only x feeds it, and its
                     * head does not move in this cycle) and blk does not
                     * change before the block checks: if out(y) is routed
                     * and not blocked now, y can only become blocked by a
                     * block_up from below, which walks up to y */
                    int32_t o = vy->out;
                    if (o == SIM_NONE || (o >= 0 && net->blk[o]))
                        filled[nfilled++] = y;
                }
            }
            if (tail)
                vy->owner = SIM_HELD;
            if (occ == 0 && (w < 0 || vc[w].mstamp != now))
                cand_clear(net, y);
        } else {                 /* SIM_EJECT */
            int32_t mi = vx->msg;
            sim_msg *m = &net->msg[mi];
            m->consumed++;
            net->flits_consumed++;
            if (net->stats.window == 1)
                net->stats.win_cons_flits++;
            if (tail) {
                int32_t r = vc_router(net, x);
                net->eject_busy[r]--;
                if (net->wl_head[eject_slot(net, r)] >= 0)
                    sim__wake(net, eject_slot(net, r));
                sim__deliver(net, mi);   /* may grow the message pool */
            }
        }
        if (tail) {
            sim__active_remove(net, x);
            sim_vc_release(net, x);
        }
    }
    for (int i = 0; i < nfilled; i++)
        block_check(net, filled[i]);
    if (nmoved)
        net->last_move = now;
    net->nmoved = 0;
}

/* The fast traverse: every ejecting VC moves a flit; then every channel
 * with candidates is resolved (dropping lazily the list entries that no
 * longer qualify).  A channel whose round-robin choice has room (the
 * common case) is granted here; resolve_fast searches the others. */
static __attribute__((noinline)) void traverse_fast(sim_net *net)
{
    const int64_t now = net->now;
    const int V = net->V, B = net->B;
    const uint64_t t1 = (uint64_t)(now + 1) << SIM_ARB_T;   /* stamp now */
    sim_vc *vc = net->vc;
    sim_arb *arb = net->arb;
    int32_t *moved = net->moved;
    int nmoved = 0;
    int j = 0;
    for (int i = 0; i < net->nej; i++) {
        int32_t x = net->ej[i];
        if (vc[x].out != SIM_EJECT || vc[x].occ == 0) {
            net->in_ej[x] = 0;
            continue;
        }
        net->ej[j++] = x;
        vc[x].mstamp = now;
        moved[nmoved++] = x;
    }
    net->nej = j;
    int32_t *ach = net->ach;
    const int nach = net->nach;
    j = 0;
    for (int i = 0; i < nach; i++) {
        int32_t c = ach[i];
        sim_arb *a = &arb[c];
        uint64_t m = a->cand, sr = a->sr;
        if (!m) {
            a->sr = sr & ~(uint64_t)SIM_ARB_LISTED;
            continue;
        }
        ach[j++] = c;
        if (sr >= t1)            /* resolved in this cycle already (no */
            continue;            /* stamp is later than now)          */
        uint64_t h = m & (~UINT64_C(0) << (sr & SIM_ARB_RR));
        int v = __builtin_ctzll(h ? h : m);
        const sim_vc *vy = &vc[c * V + v];
        if (vy->occ < B || vy->mstamp == now) {
            int32_t x = vy->owner;
            vc[x].mstamp = now;
            moved[nmoved++] = x;
            a->sr = t1 | SIM_ARB_LISTED | (uint64_t)((v + 1) & SIM_ARB_RR);
            continue;
        }
        net->nmoved = nmoved;
        resolve_fast(net, c);
        nmoved = net->nmoved;
    }
    net->nach = j;
    net->nmoved = nmoved;
    apply_fast(net);
}

static void traverse(sim_net *net)
{
    const int64_t now = net->now;
    if (net->fast) {
        traverse_fast(net);
        return;
    }
    net->nmoved = 0;
    for (int i = 0; i < net->nactive; i++) {
        int32_t x = net->active[i];
        sim_vc *vx = &net->vc[x];
        if (vx->occ == 0 || vx->mstamp == now)
            continue;
        int32_t g = sim_vc_group(net, x);
        if (g >= 0) {
            if (net->grp_seen[g] != now)
                walk_group(net, g);
            continue;
        }
        if (vx->out == SIM_EJECT) {
            grant(net, x);
            continue;
        }
        int32_t c = phys_of(net, net->vc[vx->out].ch);
        if (net->topo.chan[c].stamp != now)
            resolve(net, c);
    }
    apply(net);
}

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
    inject(net);
    allocate(net);
    if (net->pcs)
        sim__pcs_step(net);
    traverse(net);
    net->now++;
}
