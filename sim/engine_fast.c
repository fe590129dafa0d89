/*
 * engine_fast.c — the work-set engine: phases 3 and 5-6 of a cycle
 * (engine.c, EVENT-ORDERING RULE) for point-to-point wormhole networks
 * with credit delay 0, driven by sets kept across cycles instead of scans.
 *
 * WORK SETS.  The cost of a cycle should follow the flits that can move, not the
 * VCs that hold a message.  Past saturation almost every VC holds a worm,
 * and almost every worm is frozen behind its header, which waits for a VC
 * that another frozen worm holds; scanning them every cycle made a
 * saturated network orders of magnitude slower per cycle than a loaded
 * one (docs/history/simulator-performance.md).  These sets, kept across
 * cycles, replace the scans:
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
 *              one 16-byte sim_arb), and so are the VCs that may be
 *              ejecting (ej).  The search therefore never looks at a VC
 *              that cannot be granted.
 *   injection  per injection queue, masks of its free VCs (vfree) and of
 *              the VCs its PE is sending on (send), and a bitmap (qready)
 *              of the queues that may move a flit: set by a new message or
 *              a flit leaving one of its VCs, cleared when the queue could
 *              move nothing.
 *
 * Sleeping headers (engine.c) complete the picture: a header that failed
 * allocation is off the waiting list until a VC it could take is freed.
 * sim_check_invariants checks every set against its definition (check()
 * below).
 *
 * COST PER MOVE (same moves, same order, same draws).  Past saturation a
 * cycle is a few thousand moves, so what each move costs decides the
 * speed:
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
 *   - dimension-order allocation (net->dor_fast, engine.c) picks from a
 *     mask of free VCs without building a sim_route.
 *
 * HOW IT DIFFERS FROM THE ACTIVE-LIST ENGINE.  Both are deterministic for
 * a given (params, seed), and both make every move the event-ordering
 * rule allows, but they are not bit-identical at high load.  The set of
 * flits that can move in a cycle does not depend on the order in which
 * phase 5 visits the channels, with one exception: the conservative
 * answer when the depth-first search meets a channel whose resolution is
 * in progress, so which channel the search enters first decides where
 * such a cycle of full buffers is cut.  The active-list engine enters the
 * channels in active-list order and also searches through blocked worms;
 * this one first grants every ejecting VC, then enters the channels in the
 * order they got candidates, and never enters a blocked VC.  The order of
 * the granted flits (the moved list) follows the visit order, and apply
 * appends headers that arrive in the same cycle to the waiting list in
 * that order, which decides their allocation priority and hence the
 * allocator's draws.  Likewise this engine's injection visits the queues
 * in index order (node, then channel), the active-list engine in the
 * order the nodes became busy: headers injected in the same cycle sit at
 * different routers, so this changes only which draw of the allocator
 * stream each one gets.  Neither rule is better than the other (both are
 * round robin per channel, both cut cycles conservatively), and the
 * statistics agree: tests/test_sim_fast.c pins latency (within the
 * combined 95% CIs) and throughput against the active-list engine below
 * and past saturation, and the work-set invariants; test_sim.c and
 * test_sim2.c pin zero-load latency exactly on this engine.
 */
#include <assert.h>

#include "sim_int.h"

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
    if (sim_vc_now_blocked(net, y))
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

/* ---- 3. inject -------------------------------------------------------- */

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

/* ---- 5-6. traverse and apply ------------------------------------------ */

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
            if (net->ch_flits)
                net->ch_flits[vy->ch]++;
            if (vy->mstamp == now) {     /* y's head moved: see above */
                if (vy->occ++ == 0)
                    vy->first = seq;
            } else {
                if (vy->occ++ == 0) {
                    vy->first = seq;
                    net->vc_since[y] = now + 1;
                    if (seq == 0) {
                        sim_msg *m = &net->msg[vx->msg];
                        int32_t r2 = sim_vc_router(net, y);
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
                int32_t r = sim_vc_router(net, x);
                net->eject_busy[r]--;
                if (net->wl_head[sim_eject_slot(net, r)] >= 0)
                    sim__wake(net, sim_eject_slot(net, r));
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

/* ---- invariants (sim_check_invariants) -------------------------------- */

/* The work sets against their definitions: blocked flags agree with
 * sim__blocked_def; every channel's candidate mask is exactly its VCs whose
 * owner holds a flit and that are not blocked, and a channel with
 * candidates is listed; every ejecting VC is listed; the injection masks
 * (free, sending, room) agree with the VCs and a queue that can move a
 * flit is flagged. */
static int check(const sim_net *net, err *e)
{
    const int V = net->V;
    long nchan = (long)net->topo.nnet + (long)net->nodes * net->topo.ipn;
    long listed = 0, ejecting = 0;
    for (int32_t x = 0; x < net->nvc; x++) {
        const sim_vc *v = &net->vc[x];
        if (net->blk[x] != sim__blocked_def(net, x))
            return err_set(e, ERR_INVALID,
                           "invariant: VC %d blocked flag %d, should be "
                           "%d",
                           x, net->blk[x], !net->blk[x]);
        int cand = v->owner >= 0 && net->vc[v->owner].occ > 0 &&
                   !net->blk[x];
        int bit = (int)(net->arb[v->ch].cand >> (x - v->ch * V) & 1);
        if (cand != bit)
            return err_set(e, ERR_INVALID,
                           "invariant: VC %d candidate bit %d, should be "
                           "%d",
                           x, bit, cand);
        if (v->out == SIM_EJECT && v->occ > 0 && !net->in_ej[x])
            return err_set(e, ERR_INVALID,
                           "invariant: VC %d ejects but is not listed",
                           x);
        ejecting += net->in_ej[x];
    }
    for (long c = 0; c < nchan; c++) {
        if (net->arb[c].cand && !(net->arb[c].sr & SIM_ARB_LISTED))
            return err_set(e, ERR_INVALID,
                           "invariant: channel %ld has candidates but is "
                           "not listed",
                           c);
        listed += !!(net->arb[c].sr & SIM_ARB_LISTED);
    }
    if (listed != net->nach || ejecting != net->nej)
        return err_set(e, ERR_INVALID,
                       "invariant: %ld channels flagged, %d listed; %ld "
                       "ejecting VCs flagged, %d listed",
                       listed, net->nach, ejecting, net->nej);
    long nq = (long)net->nodes * net->topo.ipn, nready = 0;
    for (long qi = 0; qi < nq; qi++) {
        const sim_queue *q = &net->iq[qi];
        int ready = (int)(net->qready[qi >> 6] >> (qi & 63) & 1);
        int can = q->len > 0 && q->vfree;
        for (int v = 0; v < V; v++) {
            int room = net->vc[(net->topo.nnet + qi) * V + v].occ <
                       net->B;
            if ((int)(q->room >> v & 1) != room)
                return err_set(e, ERR_INVALID,
                               "invariant: injection queue %ld: room "
                               "bit of VC %d out of step",
                               qi, v);
            can |= (int)(q->send >> v & 1) && room;
        }
        if (can && !ready)
            return err_set(e, ERR_INVALID,
                           "invariant: injection queue %ld can move a "
                           "flit but is not listed",
                           qi);
        nready += ready;
        for (int v = 0; v < V; v++) {
            int32_t x = (int32_t)((net->topo.nnet + qi) * V + v);
            int free_bit = (int)(net->iq[qi].vfree >> v & 1);
            int send_bit = (int)(net->iq[qi].send >> v & 1);
            if (free_bit != (net->vc[x].owner == SIM_NONE) ||
                send_bit != (net->pe_msg[qi * V + v] != SIM_NONE))
                return err_set(e, ERR_INVALID,
                               "invariant: injection VC %d: free bit "
                               "%d, sending bit %d out of step",
                               x, free_bit, send_bit);
        }
    }
    if (nready != net->nqready)
        return err_set(e, ERR_INVALID,
                       "invariant: %ld injection queues flagged, count "
                       "says %d",
                       nready, net->nqready);
    for (int i = 0; i < net->nach; i++)
        if (!(net->arb[net->ach[i]].sr & SIM_ARB_LISTED))
            return err_set(e, ERR_INVALID,
                           "invariant: channel list entry %d not flagged",
                           net->ach[i]);
    for (int i = 0; i < net->nej; i++)
        if (!net->in_ej[net->ej[i]])
            return err_set(e, ERR_INVALID,
                           "invariant: ejection list entry %d not "
                           "flagged",
                           net->ej[i]);
    return 0;
}

/* ---- the engine -------------------------------------------------------- */

/* A message joined injection queue qi: it may move a flit. */
static void queued(sim_net *net, int32_t u, int32_t qi)
{
    (void)u;
    qready_set(net, qi);
}

const sim_engine sim__engine_fast = {
    .name = "work-set",
    .inject = inject_fast,
    .traverse = traverse_fast,
    .queued = queued,
    .routed = unblock,
    .check = check,
};
