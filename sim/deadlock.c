/*
 * deadlock.c — the watchdog's verdict: which VCs can never move again.
 *
 * A VC's head flit waits on other VCs:
 *   - allocated to downstream VC y and y is full: it waits for y's head;
 *   - an unrouted header (not at its destination): it waits for one of the
 *     VCs its routing function permits, all held by other messages; each
 *     held VC z is freed only after z's head moves on (on a DCSH bus, the
 *     VC holding the same bus VC for another receiver);
 *   - a header behind a message-level DCSH multiplexer held by another
 *     input (M8): it waits for that input's VC.
 * Flit-level multiplexers and physical channels are shared round robin:
 * they delay but never block for good, so they add no dependency.  PCS
 * probes never wait while holding network VCs (they back up), so reserved
 * but empty VCs are not stuck.
 * A VC cannot progress if it waits only on VCs that cannot progress.  We
 * compute the largest such set D (a greatest fixed point) among the VCs
 * whose head flit has not moved for at least min_stuck cycles:
 *   start with every stuck VC; drop a VC as soon as one thing it waits on
 *   is not in D (a free or empty VC, a downstream buffer with room, an
 *   ejection channel, a VC not stuck long) — worklist over reverse edges.
 * What is left waits only on itself: nothing in it can ever move, whatever
 * the arbitration does.  This is sound (no false alarm from a slow but live
 * network: a member could only move after another member moved first) and
 * catches partial deadlocks while the rest of the network still runs.
 *
 * The description names one dependency cycle inside D (following, from
 * some member, the first dependency that is also in D).
 *
 * Scratch arrays are allocated per call: the check runs once every
 * deadlock_cycles cycles, not per flit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "pipe_int.h"

typedef struct edges {
    int32_t *a;
    long n, cap;
} edges;

static void edges_push(edges *e, int32_t v)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 1024;
        e->a = xrealloc(e->a, sizeof *e->a * (size_t)e->cap);
    }
    e->a[e->n++] = v;
}

/* The VCs the head of x waits on (appended to out); returns 0 when x can
 * progress without any of them (room, ejection, a free or empty VC). */
static int waits_on(const sim_net *net, int32_t x, edges *out)
{
    const sim_vc *vx = &net->vc[x];
    if (vx->out == SIM_EJECT)
        return 0;
    if (vx->out >= 0) {
        const sim_vc *vy = &net->vc[vx->out];
        if (vy->occ < net->B)
            return 0;            /* room (credits are on their way) */
        edges_push(out, vx->out);
        return 1;
    }
    int32_t r = net->topo.chan[vx->ch].dst;
    const sim_msg *m = &net->msg[vx->msg];
    if (net->mux_lock) {
        /* message-level multiplexer held by another input: wait for it */
        int32_t g = sim_vc_group(net, x);
        int32_t o = g >= 0 ? net->grp_owner[g] : SIM_NONE;
        if (o != SIM_NONE && o != x) {
            edges_push(out, o);
            return 1;
        }
    }
    if (m->dst == r)
        return 0;                /* ejection channels always drain */
    if (net->vc_ready[x] > net->now)
        return 0;                /* still in its routing delay */
    sim_route rt;
    sim__route_of(net, r, m, x, &rt);
    int any = 0;
    for (int i = 0; i < (rt.ntiers ? rt.end[rt.ntiers - 1] : 0); i++) {
        uint64_t mask = rt.vcs[i];
        while (mask) {
            int v = __builtin_ctzll(mask);
            mask &= mask - 1;
            /* on a DCSH bus the VC may be held for another receiver */
            int32_t z = sim_vc_holder(net, rt.ch[i] * net->V + v);
            if (z == SIM_NONE || net->vc[z].occ == 0)
                return 0;
            edges_push(out, z);
            any = 1;
        }
    }
    return any;
}

/* The first dependency of member x that is still in the set, or -1.
 * members is sorted (built by a scan over VC ids). */
static int32_t next_in_set(const int32_t *members, long nmem,
                           const long *start, const edges *dep,
                           const uint8_t *in, int32_t x)
{
    long lo = 0, hi = nmem - 1;
    while (lo <= hi) {
        long mid = lo + (hi - lo) / 2;
        if (members[mid] < x) {
            lo = mid + 1;
        } else if (members[mid] > x) {
            hi = mid - 1;
        } else {
            for (long i = start[mid]; i < start[mid + 1]; i++)
                if (in[dep->a[i]])
                    return dep->a[i];
            return -1;
        }
    }
    return -1;
}

/* The candidate set D and its dependency graph: in[x] marks the members,
 * members lists them in VC order, dep[start[j] .. start[j+1]) holds the
 * VCs members[j] waits on, queue the members that can escape (and then
 * every member found to reach an escape). */
typedef struct stuck_set {
    uint8_t *in;
    int32_t *members;
    long nmem;
    edges dep, queue;
    long *start;
} stuck_set;

/* D starts as every VC whose head has not moved for min_stuck cycles
 * (ejecting VCs aside): returns how many. */
static long find_stuck(const sim_net *net, long min_stuck, stuck_set *S)
{
    const int32_t nvc = net->nvc;
    S->in = xcalloc((size_t)nvc, 1);
    S->nmem = 0;
    for (int32_t x = 0; x < nvc; x++) {
        const sim_vc *vx = &net->vc[x];
        if (vx->occ > 0 && vx->out != SIM_EJECT &&
            net->now - sim_vc_since(net, x) >= min_stuck)
            S->in[x] = 1, S->nmem++;
    }
    if (S->nmem == 0)
        return 0;
    S->members = xmalloc(sizeof *S->members * (size_t)S->nmem);
    S->nmem = 0;
    for (int32_t x = 0; x < nvc; x++)
        if (S->in[x])
            S->members[S->nmem++] = x;
    return S->nmem;
}

/* Each member's dependencies; a member that waits on nothing, or on
 * something outside D, can escape: it starts the queue. */
static void find_dependencies(const sim_net *net, stuck_set *S)
{
    S->start = xmalloc(sizeof *S->start * (size_t)(S->nmem + 1));
    for (long j = 0; j < S->nmem; j++) {
        S->start[j] = S->dep.n;
        int32_t x = S->members[j];
        long before = S->dep.n;
        int blocked = waits_on(net, x, &S->dep);
        int escape = !blocked;
        for (long i = before; i < S->dep.n && !escape; i++)
            if (!S->in[S->dep.a[i]])
                escape = 1;
        if (escape)
            edges_push(&S->queue, x);
    }
    S->start[S->nmem] = S->dep.n;
}

/* Drops from D everything that can reach an escape, walking the
 * dependencies backwards (reverse edges by counting sort on the target
 * VC). */
static void drop_escapes(const sim_net *net, stuck_set *S)
{
    const int32_t nvc = net->nvc;
    const edges *dep = &S->dep;
    int32_t *rcount = xcalloc((size_t)nvc + 1, sizeof *rcount);
    for (long i = 0; i < dep->n; i++)
        rcount[dep->a[i] + 1]++;
    for (int32_t z = 0; z < nvc; z++)
        rcount[z + 1] += rcount[z];
    int32_t *rev = xmalloc(sizeof *rev * (size_t)(dep->n ? dep->n : 1));
    int32_t *fill = xmalloc(sizeof *fill * (size_t)nvc);
    memcpy(fill, rcount, sizeof *fill * (size_t)nvc);
    for (long j = 0; j < S->nmem; j++)
        for (long i = S->start[j]; i < S->start[j + 1]; i++)
            rev[fill[dep->a[i]]++] = S->members[j];

    for (long q = 0; q < S->queue.n; q++) {
        int32_t x = S->queue.a[q];
        if (!S->in[x])
            continue;
        S->in[x] = 0;
        for (int32_t i = rcount[x]; i < rcount[x + 1]; i++)
            if (S->in[rev[i]])
                edges_push(&S->queue, rev[i]);
    }
    free(rcount);
    free(rev);
    free(fill);
}

/* net->deadlock_desc: the size of D and one dependency cycle inside it,
 * found by walking from members[first] until a VC repeats (that VC is on
 * a cycle). */
static void describe_cycle(sim_net *net, const stuck_set *S, long first,
                           long dead)
{
    char *d = net->deadlock_desc;
    size_t size = sizeof net->deadlock_desc, used = 0;
    int n = snprintf(d, size, "%ld VCs can never move; cycle:", dead);
    used = n > 0 ? (size_t)n : 0;
    uint8_t *seen = xcalloc((size_t)net->nvc, 1);
    int32_t x = S->members[first];
    while (!seen[x]) {
        seen[x] = 1;
        int32_t next = next_in_set(S->members, S->nmem, S->start, &S->dep,
                                   S->in, x);
        if (next < 0)
            break;
        x = next;
    }
    int32_t c0 = x;
    int count = 0;
    do {
        char buf[160];
        sim__vc_describe(net, x, buf, sizeof buf);
        if (used < size) {
            n = snprintf(d + used, size - used, "%s %s",
                         count ? " ->" : "", buf);
            used += n > 0 ? (size_t)n : 0;
        }
        count++;
        x = next_in_set(S->members, S->nmem, S->start, &S->dep, S->in, x);
    } while (x >= 0 && x != c0 && count < 64);
    if (used >= size && size > 4)
        memcpy(d + size - 4, "...", 4);
    free(seen);
}

long sim__deadlock_find(sim_net *net, long min_stuck)
{
    if (net->pipe)
        return sim__pipe_deadlock_find(net, min_stuck);
    stuck_set S = {0};
    net->deadlock_desc[0] = '\0';
    if (find_stuck(net, min_stuck, &S) == 0) {
        free(S.in);
        return 0;
    }
    find_dependencies(net, &S);
    drop_escapes(net, &S);
    long dead = 0;
    long first = -1;
    for (long j = 0; j < S.nmem; j++)
        if (S.in[S.members[j]]) {
            dead++;
            if (first < 0)
                first = j;
        }
    if (dead > 0)
        describe_cycle(net, &S, first, dead);
    free(S.in);
    free(S.members);
    free(S.dep.a);
    free(S.queue.a);
    free(S.start);
    return dead;
}
