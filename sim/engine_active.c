/*
 * engine_active.c — the active-list engine: phases 3 and 5-6 of a cycle
 * (engine.c, EVENT-ORDERING RULE) for every network, DCSH buses and input
 * multiplexers, PCS and credit delay > 0 included.
 *
 * Injection walks the busy sources in the order they became busy; the
 * traverse walks the active list (VCs with an allocated output) and
 * resolves each one's physical channel, or its DCSH input multiplexer,
 * depth first.  Only VCs that hold a message are touched.
 *
 * BLOCKED WORMS.  Past saturation nearly every VC holds a worm, and most
 * worms are frozen behind a header that waits for a VC: with 1-flit
 * buffers every VC of such a worm is full and none can move until that
 * header is allocated.  Walking them every cycle (the multiplexer's
 * members, and the depth-first search down each worm to its unrouted
 * header) was most of the cost of a saturated DCSH: 1.4-3.5 ms a cycle
 * on 1024-node 4-ary 5-cube DCSHs (V = 4-6, 1-wire channels, 128-flit
 * worms, 70% of their channel-load bound) against 0.16 ms for the 10-cube
 * hypercube on the work-set engine.  So, with credit delay 0, flit-level
 * multiplexers and no PCS (sim_net.active_blk), this engine keeps
 * sim_net.blk as the
 * work-set engine defines it (engine_fast.c, WORK SETS; sim__blocked_def)
 * and never visits a blocked VC: a blocked VC is set after the cycle's
 * moves (the VCs that filled are checked once every move is applied, so
 * a VC that received a flit and sent one in the same cycle is judged by
 * its final state) and at injection; it is cleared, with the full VCs
 * behind it, when its worm's header is routed.  A blocked VC cannot move
 * and nothing can move into it, so skipping one changes no outcome of
 * its own channel; what changes is the order in which the depth-first
 * search stamps channels (it no longer enters a frozen worm), and with it
 * which member takes a contended multiplexer first: the results are
 * statistically, not bitwise, those of the unblocked walk
 * (tests/test_sim_fast.c pins them against each other).
 */
#include "net/xalloc.h"
#include "sim_int.h"

/* ---- credits (credit delay c > 0) ------------------------------------- */

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

/* ---- blocked worms ---------------------------------------------------- */

/* y is full and its head waits on an unrouted header: mark it and every
 * full VC upstream of it in its worm. */
static void block_up(sim_net *net, int32_t y)
{
    while (y >= 0 && !net->blk[y] && net->vc[y].occ == net->B) {
        net->blk[y] = 1;
        y = net->vc[y].owner;
    }
}

/* y got a flit (active_blk only). */
static inline void block_check(sim_net *net, int32_t y)
{
    if (sim_vc_now_blocked(net, y))
        block_up(net, y);
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
    if (net->active_blk)
        block_check(net, y);
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

/* Returns 1 while the node still has work (queued or sending). */
static int inject_node(sim_net *net, int32_t u)
{
    int busy = 0;
    const int ipn = net->topo.ipn;
    for (int j = 0; j < ipn; j++)
        busy |= inject_channel(net, u * ipn + j);
    return busy;
}

/* Phase 3: the busy sources, in the order they became busy. */
static void inject(sim_net *net)
{
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

/* ---- 5-6. traverse and apply ------------------------------------------ */

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
                int32_t c2 = sim_phys_channel(net, vc[vy->out].ch);
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

/* The first set bit of w in [from, to), or -1. */
static inline int32_t next_member(const uint64_t *w, int32_t from, int32_t to)
{
    while (from < to) {
        uint64_t bits = w[from >> 6] >> (from & 63);
        if (bits) {
            int32_t j = from + __builtin_ctzll(bits);
            return j < to ? j : -1;
        }
        from = (from | 63) + 1;
    }
    return -1;
}

/* Member x of a multiplexer group, offered to its output: 1 when the walk
 * is over (x ejects through the multiplexer). */
static int visit_member(sim_net *net, int32_t x)
{
    const int64_t now = net->now;
    if (net->blk[x])
        return 0;
    sim_vc *vx = &net->vc[x];
    if (vx->out == SIM_NONE || vx->occ == 0 || vx->mstamp == now)
        return 0;
    if (vx->out == SIM_EJECT) {
        mux_take(net, x);
        grant(net, x);
        return 1;
    }
    int32_t c = sim_phys_channel(net, net->vc[vx->out].ch);
    if (net->topo.chan[c].stamp != now)
        resolve(net, c);
    return 0;
}

/* DCSH input multiplexer g: offer its members, round robin from the one
 * after the last winner, to their output channels until one moves.  Only
 * members with an output can move, so only the group's active set is
 * visited (run.c grp_act), in the same round-robin order. */
static void walk_group(sim_net *net, int32_t g)
{
    const int64_t now = net->now;
    int32_t lo = net->topo.grp_first[g] * net->V;
    int32_t size = net->topo.grp_first[g + 1] * net->V - lo;
    int32_t start = net->grp_rr[g];
    const uint64_t *act = net->grp_act + net->grp_word[g];
    net->grp_seen[g] = now;
    for (int pass = 0; pass < 2; pass++) {
        int32_t to = pass ? start : size;
        for (int32_t j = next_member(act, pass ? 0 : start, to);
             j >= 0 && net->grp_stamp[g] != now;
             j = next_member(act, j + 1, to)) {
            if (visit_member(net, lo + j))
                return;
        }
    }
}

/* The cycle's grants.  With active_blk the VCs that received a flit are
 * listed in net->filled (at most one per grant) and checked for blocking
 * once all moves are applied. */
static void apply(sim_net *net)
{
    const int64_t now = net->now;
    int nfilled = 0;
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
                int32_t r = sim_vc_router(net, x);
                net->eject_busy[r]--;
                if (net->sleepy && net->wl_head[sim_eject_slot(net, r)] >= 0)
                    sim__wake(net, sim_eject_slot(net, r));
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
            if (net->active_blk)
                net->filled[nfilled++] = y;
            if (net->ch_flits)
                net->ch_flits[vy->ch]++;
            if (net->cd)
                net->vc_credits[y]--;
            if (seq == 0 && !net->pcs) {
                int32_t r2 = sim_vc_router(net, y);
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
    for (int i = 0; i < nfilled; i++)
        block_check(net, net->filled[i]);
    if (net->nmoved)
        net->last_move = now;
    net->nmoved = 0;
}

/* Phases 5-6: every active VC with a flit to move has its channel (or
 * its input multiplexer) resolved, in active-list order; then the grants
 * are applied. */
static void traverse(sim_net *net)
{
    const int64_t now = net->now;
    net->nmoved = 0;
    for (int i = 0; i < net->nactive; i++) {
        int32_t x = net->active[i];
        if (net->blk[x])
            continue;
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
        int32_t c = sim_phys_channel(net, net->vc[vx->out].ch);
        if (net->topo.chan[c].stamp != now)
            resolve(net, c);
    }
    apply(net);
}

/* ---- the engine -------------------------------------------------------- */

/* A message joined one of node u's injection queues: u is a busy
 * source. */
static void queued(sim_net *net, int32_t u, int32_t qi)
{
    (void)qi;
    sim_source *s = &net->src[u];
    if (!s->listed) {
        s->listed = 1;
        net->act_src[net->nact_src++] = u;
    }
}

/* The header at x was routed: x and the full VCs behind it in its worm
 * are no longer blocked. */
static void routed(sim_net *net, int32_t x)
{
    while (x >= 0 && net->blk[x]) {
        net->blk[x] = 0;
        x = net->vc[x].owner;
    }
}

/* The blocked flags against their definition (all clear unless
 * active_blk); the shared lists are checked by check.c. */
static int check(const sim_net *net, err *e)
{
    for (int32_t x = 0; x < net->nvc; x++) {
        int want = net->active_blk && sim__blocked_def(net, x);
        if (net->blk[x] != want)
            return err_set(e, ERR_INVALID,
                           "invariant: VC %d blocked flag %d, should be %d",
                           x, net->blk[x], want);
    }
    return 0;
}

const sim_engine sim__engine_active = {
    .name = "active-list",
    .inject = inject,
    .traverse = traverse,
    .queued = queued,
    .routed = routed,
    .check = check,
};
