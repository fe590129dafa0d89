/*
 * engine_par.c — the partitioned engine: one run on several threads, its
 * result a pure function of (params, seed), whatever the thread count.
 *
 * WHY A MODE OF ITS OWN.  The serial engines (engine.c, engine_active.c,
 * engine_fast.c) cannot be split without changing their results: with
 * credit delay 0 the traverse phase resolves "room" by a depth-first search
 * that follows full buffers across any partition (and cuts cycles of full
 * buffers where it entered them), the allocator draws from one stream in
 * the order of one global waiting list, and the work lists are ordered by
 * global events.  So the partitioned run is a separate mode
 * (sim_params.partitioned): its results are identical for every thread
 * count >= 1, one thread included, and differ from the serial engines' the
 * way two seeds differ.  The default (serial) path is untouched.
 *
 * WHAT IT SIMULATES.  Point-to-point wormhole networks (torus, mesh,
 * hypercube, express cubes) with the unit-latency router, unicast traffic
 * and a credit loop of one cycle (sim_params.credit_delay = 1): a flit
 * moves into a buffer only if the buffer had room at the start of the
 * cycle, exactly the serial engines' rule with credit delay 1 (a credit
 * sent back in cycle t is usable in cycle t + 1).  That rule is what makes
 * a router's decisions depend only on its own state and on its neighbours'
 * state at the start of the cycle, so routers can decide in any order.
 * Everything else is the event-ordering rule of engine.c: D_r per routing
 * decision, a header allocated in cycle t may cross in cycle t, one flit
 * per physical channel per cycle (round robin over its VCs, from after the
 * last winner), ejection one flit per cycle per ejecting VC, lowest free
 * injection VC first and round robin over the injection VCs; zero-load
 * latency h (1 + D_r) + L for B >= 2 (with B = 1 a VC accepts a flit every
 * other cycle, as with credit delay 1 on the serial engines).
 *
 * OWNERSHIP.  Router r owns its input VCs (the buffers at r: the VCs of the
 * channels whose downstream end is r, and its node's injection VCs), its
 * node's source queue, its output channels' arbitration (round robin,
 * grant record) and the allocation of their VCs, its waiting headers, its
 * ejection channels and its own allocator stream (seed, SIM_RNG_PAR + r).
 * Thread t of T owns the routers [R t / T, R (t + 1) / T).
 *
 * THE CYCLE (three barriers; the serial parts run on the calling thread):
 *   S  generate    messages arriving in cycle t join their source queues
 *                  (source.c, calendar order), serially.
 *   B  decide      per router, in router order within the thread: inject
 *                  (the PE moves a flit into an injection VC), allocate
 *                  (the router's waiting headers in arrival order, its own
 *                  stream for random choices), traverse (each output
 *                  channel grants one VC whose owner has a flit and whose
 *                  buffer had room; the grant is recorded on the channel).
 *                  Reads of other routers' state in this phase: downstream
 *                  occupancy and ownership of the VCs a router allocates
 *                  or arbitrates, which only phase C changes (release,
 *                  tail arrival, occupancy) — so they are the start-of-
 *                  cycle values whatever the other threads are doing.
 *   C  apply       per router: flits leave its input VCs (granted by its
 *                  own output channels, or ejected), then flits granted by
 *                  its upstream neighbours' channels arrive (in input
 *                  channel order: a header joins the router's waiting list
 *                  then).  Every write is to the router's own VCs and the
 *                  held masks of its own input channels; deliveries are
 *                  listed per thread.
 *   S  post        the threads' counters are summed, their delivery lists
 *                  handed to the statistics in thread order, which is
 *                  router order (sim__deliver; floating-point sums in one
 *                  order), the clock advances.
 * No decision depends on which thread ran it or when: a router's inputs
 * are its own state and the previous phase's state of others, its random
 * draws come from its own stream, and every list whose order matters is
 * per router or concatenated in router order.  Hence the same result, bit
 * for bit, on 1, 2, 3, ... threads (tests/test_sim_par.c).
 *
 * BARRIER.  A counting barrier on C11 atomics: spin a few microseconds,
 * yield, then sleep on the phase word (futex on Linux, short sleeps
 * elsewhere), so that idle workers cost nothing when the machine is shared
 * or the caller is between cycles.  Phases are short (tens of microseconds per
 * thousand routers), so a barrier that always sleeps (a condition
 * variable: 5-6 us) would eat the gain.
 *
 * COST.  Unlike the work-set engine this one visits every router in every
 * cycle (an empty router costs a few loads; an empty network jumps to the
 * next arrival), so it pays only on large networks at moderate load:
 * docs/architecture.md, "Parallel runs", gives the figures measured and
 * the break-even they point to.
 */
#ifdef __linux__
#define _DEFAULT_SOURCE          /* syscall(SYS_futex) */
#endif
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "net/xalloc.h"
#include "sim_int.h"

/* Allocator streams of the partitioned engine: (seed, SIM_RNG_PAR + r). */
#define SIM_RNG_PAR UINT64_C(0x9a27000000000000)

/* A channel's grant in the current cycle (written in phase B by the
 * channel's upstream router, read in phase C by both ends). */
typedef struct par_grant {
    int32_t x;                   /* VC whose head flit crosses, -1: none */
    int32_t y;                   /* the VC it enters */
    int32_t seq;                 /* the flit's sequence number */
} par_grant;

/* One thread's share: its routers and what its phases hand to the serial
 * part.  Padded so that two threads never write one cache line. */
typedef struct par_thread {
    int32_t r0, r1;              /* routers [r0, r1) */
    long flits_injected, flits_consumed, queued_delta, win_cons;
    int moved;                   /* a flit moved in this cycle */
    int32_t *deliv;              /* messages whose tail was consumed, in
                                    router order */
    int ndeliv, deliv_cap;
    sim_net *net;
    pthread_t tid;
    char pad[64];
} par_thread;

typedef struct par_barrier {
    _Alignas(64) atomic_int count;
    _Alignas(64) atomic_int phase;
    atomic_int sleepers;         /* threads in futex_wait on phase */
    int n;
} par_barrier;

struct sim_par {
    int threads;
    int32_t routers;
    int32_t *out_first, *out_list;   /* CSR: network channels leaving r */
    int32_t *in_first, *in_list;     /* CSR: channels entering r (network,
                                        then the node's injection ones) */
    int32_t *wait;               /* per router, its waiting headers in
                                    arrival order: wait[wbase[r] + i] */
    int32_t *wbase, *nwait;
    int32_t *rflits;             /* flits buffered at router r */
    int32_t *pend;               /* [node] messages generated at the node
                                    and not yet wholly injected (the
                                    generation hook counts them up,
                                    injection down) */
    uint8_t *rr;                 /* [network channel] round robin: the VC
                                    favoured next */
    atomic_uchar *incoming;      /* [r] a neighbour granted a flit into
                                    r in this cycle (set in phase B by any
                                    thread, cleared by r's in phase C) */
    rng *rng;                    /* [r] allocator stream */
    par_grant *g;                /* [network channel] */
    par_thread *th;
    par_barrier bar;
    atomic_int quit;
};

/* ---- barrier ----------------------------------------------------------- */

#ifdef __linux__
static void futex_wait(atomic_int *a, int val)
{
    syscall(SYS_futex, (int *)a, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_all(atomic_int *a)
{
    syscall(SYS_futex, (int *)a, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL,
            0);
}
#endif

/* The last thread to arrive opens the next phase and wakes the sleepers;
 * the others spin briefly (both threads on a core: a phase is tens of
 * microseconds, a wake-up costs as much), then yield a few times (on a
 * shared machine the partner may be waiting for this core), then sleep
 * on the phase word (a descheduled partner, a caller between cycles). */
static void bar_wait(par_barrier *b)
{
    int ph = atomic_load_explicit(&b->phase, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) ==
        b->n - 1) {
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        atomic_store(&b->phase, ph + 1);
#ifdef __linux__
        if (atomic_load(&b->sleepers) > 0)
            futex_wake_all(&b->phase);
#endif
        return;
    }
    for (int i = 0; i < 300; i++) {
        if (atomic_load_explicit(&b->phase, memory_order_acquire) != ph)
            return;
        if (i >= 200)            /* the partner may be queued on this core */
            sched_yield();
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
    atomic_fetch_add(&b->sleepers, 1);
    while (atomic_load(&b->phase) == ph) {
#ifdef __linux__
        futex_wait(&b->phase, ph);
#else
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
#endif
    }
    atomic_fetch_sub(&b->sleepers, 1);
}

/* ---- phase B: inject, allocate, traverse -------------------------------- */

static inline void wait_push(sim_par *P, int32_t r, int32_t x)
{
    P->wait[P->wbase[r] + P->nwait[r]++] = x;
}

/* The PE of node r: queued messages take free injection VCs (lowest
 * first), then one flit moves into a sending VC with room, round robin. */
static void inject(sim_net *net, sim_par *P, par_thread *T, int32_t r)
{
    const int V = net->V;
    int32_t qi = r * net->topo.ipn;
    sim_queue *q = &net->iq[qi];
    int32_t base = (net->topo.nnet + qi) * V;
    int32_t *pe_msg = net->pe_msg + (long)qi * V;
    int32_t *pe_next = net->pe_next + (long)qi * V;
    for (int v = 0; v < V && q->len > 0; v++) {
        sim_vc *vx = &net->vc[base + v];
        if (vx->owner != SIM_NONE)
            continue;
        int32_t m = q->head;
        q->head = net->msg[m].next;
        q->len--;
        T->queued_delta--;
        vx->owner = SIM_PE;
        vx->msg = m;
        pe_msg[v] = m;
        pe_next[v] = 0;
    }
    int v = -1;
    for (int i = 0; i < V; i++) {
        int w = q->rr + i < V ? q->rr + i : q->rr + i - V;
        if (pe_msg[w] != SIM_NONE && net->vc[base + w].occ < net->B) {
            v = w;
            break;
        }
    }
    if (v < 0)
        return;
    int32_t y = base + v;
    int32_t m = pe_msg[v];
    sim_msg *mm = &net->msg[m];
    int32_t seq = pe_next[v]++;
    sim_vc *vy = &net->vc[y];
    if (vy->occ++ == 0) {
        vy->first = seq;
        net->vc_since[y] = net->now;
    }
    P->rflits[r]++;
    T->flits_injected++;
    T->moved = 1;
    if (seq == 0) {
        mm->t_inject = net->now;
        net->vc_ready[y] = net->now + net->Dr;
        wait_push(P, r, y);
    }
    if (pe_next[v] == mm->len) {
        pe_msg[v] = SIM_NONE;
        vy->owner = SIM_HELD;
        P->pend[r]--;
    }
    q->rr = v + 1 == V ? 0 : v + 1;
}

/* A free VC of the first tier of rt that has one, uniformly at random
 * from the router's own stream (route_pick_p2p in engine.c, another
 * stream). */
static int32_t pick(const sim_net *net, const sim_route *rt, rng *g)
{
    const int V = net->V;
    const uint64_t *held = net->held;
    for (int tier = 0, start = 0; tier < rt->ntiers;
         start = rt->end[tier++]) {
        int nfree = 0;
        for (int i = start; i < rt->end[tier]; i++)
            nfree += __builtin_popcountll(rt->vcs[i] & ~held[rt->ch[i]]);
        if (nfree == 0)
            continue;
        int k = nfree == 1 ? 0 : (int)rng_below(g, (uint64_t)nfree);
        for (int i = start; i < rt->end[tier]; i++) {
            uint64_t f = rt->vcs[i] & ~held[rt->ch[i]];
            int n = __builtin_popcountll(f);
            if (k >= n) {
                k -= n;
                continue;
            }
            while (k-- > 0)
                f &= f - 1;
            return rt->ch[i] * V + __builtin_ctzll(f);
        }
    }
    return SIM_NONE;
}

/* Header x at router r takes an ejection channel or a VC of one of r's
 * output channels; 0 if nothing it may take is free (it retries next
 * cycle). */
static int allocate_one(sim_net *net, sim_par *P, int32_t r, int32_t x)
{
    sim_vc *vx = &net->vc[x];
    const sim_msg *m = &net->msg[vx->msg];
    if (m->dst == r) {
        if (net->E > 0 && net->eject_busy[r] >= net->E)
            return 0;
        net->eject_busy[r]++;
        vx->out = SIM_EJECT;
        return 1;
    }
    int32_t y;
    if (net->dor_fast) {         /* one candidate channel (engine.c) */
        int cls = 0;
        int32_t c;
        if (net->dor_tab) {
            int32_t t = net->dor_tab[(long)r * net->nodes + m->dst];
            c = t < 0 ? -1 : t >> 1;
            cls = t < 0 ? 0 : t & 1;
        } else {
            c = net->topo.ops->dor_hop(&net->topo, r, m->dst, &cls);
        }
        uint64_t f = c >= 0 ? net->mask_class[cls] & ~net->held[c] : 0;
        if (!f)
            return 0;
        int k = (f & (f - 1)) == 0
                    ? 0
                    : (int)rng_below(&P->rng[r],
                                     (uint64_t)__builtin_popcountll(f));
        while (k-- > 0)
            f &= f - 1;
        y = c * net->V + __builtin_ctzll(f);
    } else {
        sim_route rt;
        sim__route_of(net, r, m, x, &rt);
        y = pick(net, &rt, &P->rng[r]);
    }
    if (y == SIM_NONE)
        return 0;
    sim_vc_take(net, y, x, vx->msg);
    vx->out = y;
    return 1;
}

static void allocate(sim_net *net, sim_par *P, int32_t r)
{
    int32_t *w = P->wait + P->wbase[r];
    int n = P->nwait[r], j = 0;
    for (int i = 0; i < n; i++) {
        int32_t x = w[i];
        if (net->vc_ready[x] <= net->now && allocate_one(net, P, r, x))
            continue;
        w[j++] = x;
    }
    P->nwait[r] = j;
}

/* Each output channel of r grants, round robin from after its last
 * winner, the first VC whose owner holds a flit and whose buffer had room
 * at the start of the cycle. */
static void traverse(sim_net *net, sim_par *P, int32_t r)
{
    const int V = net->V, B = net->B;
    const sim_vc *vc = net->vc;
    for (int32_t k = P->out_first[r]; k < P->out_first[r + 1]; k++) {
        int32_t c = P->out_list[k];
        par_grant *g = &P->g[c];
        g->x = -1;
        if (!net->held[c])
            continue;
        int rr = P->rr[c];
        for (int i = 0; i < V; i++) {
            int v = rr + i < V ? rr + i : rr + i - V;
            int32_t y = c * V + v;
            int32_t x = vc[y].owner;
            if (x < 0 || vc[x].occ == 0 || vc[y].occ >= B)
                continue;
            g->x = x;
            g->y = y;
            g->seq = vc[x].first;
            P->rr[c] = (uint8_t)(v + 1 == V ? 0 : v + 1);
            atomic_store_explicit(&P->incoming[net->topo.chan[c].dst], 1,
                                  memory_order_relaxed);
            break;
        }
    }
}

static void phase_decide(sim_net *net, sim_par *P, par_thread *T)
{
    for (int32_t r = T->r0; r < T->r1; r++) {
        int has_q = r < net->nodes && P->pend[r] > 0;
        if (P->rflits[r] == 0 && !has_q) {
            for (int32_t k = P->out_first[r]; k < P->out_first[r + 1]; k++)
                P->g[P->out_list[k]].x = -1;
            continue;
        }
        if (has_q)
            inject(net, P, T, r);
        if (P->nwait[r])
            allocate(net, P, r);
        traverse(net, P, r);
    }
}

/* ---- phase C: apply ---------------------------------------------------- */

static void deliv_push(par_thread *T, int32_t m)
{
    if (T->ndeliv == T->deliv_cap) {
        T->deliv_cap = T->deliv_cap ? T->deliv_cap * 2 : 256;
        T->deliv = xrealloc(T->deliv, sizeof *T->deliv * (size_t)T->deliv_cap);
    }
    T->deliv[T->ndeliv++] = m;
}

/* The head flit of x (at router r) leaves; the VC is released after its
 * tail. */
static inline void leave(sim_net *net, sim_par *P, int32_t r, int32_t x)
{
    sim_vc *vx = &net->vc[x];
    vx->first++;
    vx->occ--;
    vx->mstamp = net->now;
    P->rflits[r]--;
    if (vx->owner == SIM_HELD && vx->occ == 0)
        sim_vc_release(net, x);  /* the tail left (net->sleepy is 0) */
}

static void phase_apply(sim_net *net, sim_par *P, par_thread *T)
{
    const int V = net->V;
    const int64_t now = net->now;
    const int32_t nnet = net->topo.nnet;
    sim_vc *vc = net->vc;
    for (int32_t r = T->r0; r < T->r1; r++) {
        /* flits leaving through r's output channels */
        for (int32_t k = P->out_first[r]; k < P->out_first[r + 1]; k++) {
            const par_grant *g = &P->g[P->out_list[k]];
            if (g->x >= 0) {
                leave(net, P, r, g->x);
                T->moved = 1;
            }
        }
        /* ejection: every ejecting VC consumes one flit */
        if (net->eject_busy[r] > 0) {
            for (int32_t k = P->in_first[r]; k < P->in_first[r + 1]; k++) {
                int32_t c = P->in_list[k];
                for (int v = 0; v < V; v++) {
                    int32_t x = c * V + v;
                    sim_vc *vx = &vc[x];
                    if (vx->out != SIM_EJECT || vx->occ == 0)
                        continue;
                    int32_t mi = vx->msg;
                    sim_msg *m = &net->msg[mi];
                    int tail = vx->first == m->len - 1;
                    m->consumed++;
                    T->flits_consumed++;
                    if (net->stats.window == 1)
                        T->win_cons++;
                    T->moved = 1;
                    if (tail)
                        net->eject_busy[r]--;
                    leave(net, P, r, x);
                    if (tail)
                        deliv_push(T, mi);
                }
            }
        }
        /* flits arriving from upstream */
        if (!atomic_load_explicit(&P->incoming[r], memory_order_relaxed))
            continue;
        atomic_store_explicit(&P->incoming[r], 0, memory_order_relaxed);
        for (int32_t k = P->in_first[r]; k < P->in_first[r + 1]; k++) {
            int32_t c = P->in_list[k];
            if (c >= nnet)
                break;           /* injection channels come last */
            const par_grant *g = &P->g[c];
            if (g->x < 0)
                continue;
            int32_t y = g->y;
            sim_vc *vy = &vc[y];
            if (vy->occ++ == 0) {
                vy->first = g->seq;
                net->vc_since[y] = now + 1;
            }
            P->rflits[r]++;
            if (net->ch_flits)
                net->ch_flits[c]++;
            sim_msg *m = &net->msg[vy->msg];
            if (g->seq == 0) {
                m->hops++;
                net->vc_ready[y] = now + 1 + (m->dst == r ? 0 : net->Dr);
                wait_push(P, r, y);
            }
            if (g->seq == m->len - 1)
                vy->owner = SIM_HELD;
        }
    }
}

/* ---- threads and the cycle ---------------------------------------------- */

static void *worker(void *arg)
{
    par_thread *T = arg;
    sim_net *net = T->net;
    sim_par *P = net->par;
    for (;;) {
        bar_wait(&P->bar);
        if (atomic_load_explicit(&P->quit, memory_order_relaxed))
            return NULL;
        phase_decide(net, P, T);
        bar_wait(&P->bar);
        phase_apply(net, P, T);
        bar_wait(&P->bar);
    }
}

void sim__par_cycle(sim_net *net)
{
    sim_par *P = net->par;
    /* Every message delivered, so no flit anywhere: nothing happens until
     * the next arrival (engine.c, skip_idle).  A function of the state, so
     * the same jump on every thread count. */
    if (net->generated == net->delivered && net->sources_on &&
        net->heap_n > 0 && net->heap_t[0] > net->now)
        net->now = net->heap_t[0];
    sim__generate(net);
    par_thread *T0 = &P->th[0];
    if (P->threads > 1)
        bar_wait(&P->bar);
    phase_decide(net, P, T0);
    if (P->threads > 1)
        bar_wait(&P->bar);
    phase_apply(net, P, T0);
    if (P->threads > 1)
        bar_wait(&P->bar);
    int moved = 0;
    for (int t = 0; t < P->threads; t++) {
        par_thread *T = &P->th[t];
        net->flits_injected += T->flits_injected;
        net->flits_consumed += T->flits_consumed;
        net->queued += T->queued_delta;
        net->stats.win_cons_flits += T->win_cons;
        T->flits_injected = T->flits_consumed = T->queued_delta = 0;
        T->win_cons = 0;
        moved |= T->moved;
        T->moved = 0;
        for (int i = 0; i < T->ndeliv; i++)
            sim__deliver(net, T->deliv[i]);
        T->ndeliv = 0;
    }
    if (moved)
        net->last_move = net->now;
    net->now++;
}

/* ---- create / destroy ---------------------------------------------------- */

int sim__par_supports(const sim_params *p, err *e)
{
    if (!p->partitioned) {       /* threads <= 0 (zeroed params): 1 */
        if (p->threads > 1)
            return err_set(e, ERR_INVALID,
                           "threads %d: several threads run the partitioned "
                           "engine only (partitioned = 1)",
                           p->threads);
        return 0;
    }
    if (p->threads < 1 || p->threads > 256)
        return err_set(e, ERR_INVALID, "threads %d: need 1..256",
                       p->threads);
    const net_design *d = &p->design;
    if (d->topology == NET_DCSH)
        return err_set(e, ERR_UNSUPPORTED,
                       "the partitioned engine simulates point-to-point "
                       "channels, not DCSH buses");
    if (d->switching != NET_SWITCH_WORMHOLE)
        return err_set(e, ERR_UNSUPPORTED,
                       "the partitioned engine simulates wormhole switching "
                       "only");
    if (d->router != NET_ROUTER_UNIT)
        return err_set(e, ERR_UNSUPPORTED,
                       "the partitioned engine simulates router=unit only");
    if (p->workload.traffic == NET_TRAFFIC_BROADCAST)
        return err_set(e, ERR_UNSUPPORTED,
                       "the partitioned engine simulates unicast traffic "
                       "only");
    if (p->credit_delay != 1)
        return err_set(e, ERR_UNSUPPORTED,
                       "the partitioned engine simulates a one-cycle credit "
                       "loop: it needs credit delay 1, not %d",
                       p->credit_delay);
    return 0;
}

/* Per router: output and input channels (CSR), waiting-list slices. */
static void build_lists(sim_net *net, sim_par *P)
{
    const sim_topo *t = &net->topo;
    int32_t R = t->routers;
    long nchan = (long)t->nnet + (long)net->nodes * t->ipn;
    P->out_first = xcalloc((size_t)R + 1, sizeof *P->out_first);
    P->in_first = xcalloc((size_t)R + 1, sizeof *P->in_first);
    for (int32_t c = 0; c < t->nnet; c++) {
        P->out_first[t->chan[c].src + 1]++;
        P->in_first[t->chan[c].dst + 1]++;
    }
    for (long c = t->nnet; c < nchan; c++)
        P->in_first[t->chan[c].dst + 1]++;
    for (int32_t r = 0; r < R; r++) {
        P->out_first[r + 1] += P->out_first[r];
        P->in_first[r + 1] += P->in_first[r];
    }
    P->out_list = xmalloc(sizeof *P->out_list * (size_t)(t->nnet + 1));
    P->in_list = xmalloc(sizeof *P->in_list * (size_t)(nchan + 1));
    int32_t *oi = xmalloc(sizeof *oi * (size_t)R);
    int32_t *ii = xmalloc(sizeof *ii * (size_t)R);
    memcpy(oi, P->out_first, sizeof *oi * (size_t)R);
    memcpy(ii, P->in_first, sizeof *ii * (size_t)R);
    for (int32_t c = 0; c < t->nnet; c++) {
        P->out_list[oi[t->chan[c].src]++] = c;
        P->in_list[ii[t->chan[c].dst]++] = c;
    }
    for (long c = t->nnet; c < nchan; c++)   /* after the network ones */
        P->in_list[ii[t->chan[c].dst]++] = (int32_t)c;
    free(oi);
    free(ii);
    P->wbase = xmalloc(sizeof *P->wbase * (size_t)R);
    for (int32_t r = 0; r < R; r++)
        P->wbase[r] = P->in_first[r] * net->V;
    P->nwait = xcalloc((size_t)R, sizeof *P->nwait);
    P->wait = xmalloc(sizeof *P->wait * (size_t)net->nvc);
    P->rflits = xcalloc((size_t)R, sizeof *P->rflits);
    P->pend = xcalloc((size_t)net->nodes, sizeof *P->pend);
    P->rr = xcalloc((size_t)t->nnet + 1, 1);
    P->incoming = xcalloc((size_t)R, sizeof *P->incoming);
}

int sim__par_create(sim_net *net, err *e)
{
    (void)e;
    sim_par *P = xcalloc(1, sizeof *P);
    net->par = P;
    P->threads = net->p.threads;
    P->routers = net->topo.routers;
    if (P->threads > P->routers)
        P->threads = P->routers;
    build_lists(net, P);
    P->rng = xmalloc(sizeof *P->rng * (size_t)P->routers);
    for (int32_t r = 0; r < P->routers; r++)
        rng_seed(&P->rng[r], net->p.seed, SIM_RNG_PAR + (uint64_t)r);
    P->g = xmalloc(sizeof *P->g * (size_t)(net->topo.nnet + 1));
    for (int32_t c = 0; c < net->topo.nnet; c++)
        P->g[c].x = -1;
    P->th = xcalloc((size_t)P->threads, sizeof *P->th);
    atomic_init(&P->bar.count, 0);
    atomic_init(&P->bar.phase, 0);
    atomic_init(&P->bar.sleepers, 0);
    atomic_init(&P->quit, 0);
    P->bar.n = P->threads;
    for (int t = 0; t < P->threads; t++) {
        par_thread *T = &P->th[t];
        T->net = net;
        T->r0 = (int32_t)((long)P->routers * t / P->threads);
        T->r1 = (int32_t)((long)P->routers * (t + 1) / P->threads);
    }
    for (int t = 1; t < P->threads; t++)
        if (pthread_create(&P->th[t].tid, NULL, worker, &P->th[t]) != 0) {
            /* fewer threads than asked: the routers are re-split, which
             * changes nothing in the result */
            atomic_store(&P->quit, 1);
            P->bar.n = t;
            if (t > 1)
                bar_wait(&P->bar);
            for (int j = 1; j < t; j++)
                pthread_join(P->th[j].tid, NULL);
            atomic_store(&P->quit, 0);
            P->threads = 1;
            P->bar.n = 1;
            P->th[0].r0 = 0;
            P->th[0].r1 = P->routers;
            break;
        }
    return 0;
}

void sim__par_destroy(sim_par *P)
{
    if (!P)
        return;
    if (P->threads > 1) {
        atomic_store(&P->quit, 1);
        bar_wait(&P->bar);
        for (int t = 1; t < P->threads; t++)
            pthread_join(P->th[t].tid, NULL);
    }
    for (int t = 0; t < P->threads; t++)
        free(P->th[t].deliv);
    free(P->th);
    free(P->out_first);
    free(P->out_list);
    free(P->in_first);
    free(P->in_list);
    free(P->wait);
    free(P->wbase);
    free(P->nwait);
    free(P->rflits);
    free(P->pend);
    free(P->rr);
    free((void *)P->incoming);
    free(P->rng);
    free(P->g);
    free(P);
}

int sim__par_threads(const sim_net *net)
{
    return net->par ? net->par->threads : 1;
}

double sim__par_thread_cpu(const sim_net *net, int t)
{
    clockid_t id;
    struct timespec ts;
    if (!net->par || t < 0 || t >= net->par->threads)
        return 0;
    if (t == 0)                  /* the caller's thread runs block 0 */
        id = CLOCK_THREAD_CPUTIME_ID;
    else if (pthread_getcpuclockid(net->par->th[t].tid, &id) != 0)
        return 0;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the engine hooks and invariants ------------------------------------- */

/* Every unrouted header is on its router's waiting list exactly once, and
 * every entry is one; each router's flit count is what its VCs hold, each
 * node's count of messages to inject what its queue and PE hold. */
static int check(const sim_net *net, err *e)
{
    const sim_par *P = net->par;
    uint8_t *seen = xcalloc((size_t)net->nvc, 1);
    int rc = 0;
    for (int32_t r = 0; r < P->routers && !rc; r++) {
        long flits = 0;
        for (int32_t k = P->in_first[r]; k < P->in_first[r + 1]; k++)
            for (int v = 0; v < net->V; v++)
                flits += net->vc[P->in_list[k] * net->V + v].occ;
        if (flits != P->rflits[r])
            rc = err_set(e, ERR_INVALID,
                         "invariant: router %d holds %ld flits, count says "
                         "%d",
                         r, flits, P->rflits[r]);
        if (r < net->nodes && !rc) {
            int32_t qi = r * net->topo.ipn;
            long n = net->iq[qi].len;
            for (int v = 0; v < net->V; v++)
                n += net->pe_msg[(long)qi * net->V + v] != SIM_NONE;
            if (n != P->pend[r])
                rc = err_set(e, ERR_INVALID,
                             "invariant: node %d has %ld messages to "
                             "inject, count says %d",
                             r, n, P->pend[r]);
        }
        for (int i = 0; i < P->nwait[r] && !rc; i++) {
            int32_t x = P->wait[P->wbase[r] + i];
            const sim_vc *v = &net->vc[x];
            if (seen[x] || v->occ == 0 || v->first != 0 ||
                v->out != SIM_NONE || sim_vc_router(net, x) != r)
                rc = err_set(e, ERR_INVALID,
                             "invariant: waiting entry %d of router %d is "
                             "not an unrouted header there",
                             x, r);
            seen[x] = 1;
        }
    }
    for (int32_t x = 0; x < net->nvc && !rc; x++) {
        const sim_vc *v = &net->vc[x];
        if (v->occ > 0 && v->first == 0 && v->out == SIM_NONE && !seen[x])
            rc = err_set(e, ERR_INVALID,
                         "invariant: unrouted header at VC %d is on no "
                         "waiting list",
                         x);
    }
    free(seen);
    return rc;
}

/* A message joined node u's queue: u has work (generation is serial). */
static void queued(sim_net *net, int32_t u, int32_t qi)
{
    (void)qi;
    net->par->pend[u]++;
}

/* Phases 3 and 5-6 are part of sim__par_cycle (a cycle of its own), so
 * inject, traverse and routed are not used. */
const sim_engine sim__engine_par = {
    .name = "partitioned",
    .queued = queued,
    .check = check,
};
