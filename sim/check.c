/*
 * check.c — sim_check_invariants: flit, message and credit conservation
 * and the consistency of VC ownership (the invariants listed in engine.c).
 *
 * Also: DCSH bus VCs held by exactly the receiver leg that owns them,
 * message-level multiplexers held by a VC of their own group; broadcast
 * and copy counts balanced (generated = delivered + live unicast messages
 * + broadcasts in progress; copies made = delivered + live).
 *
 * It walks every VC and every live message, so it costs O(VCs + messages):
 * cheap next to a run, meant for the end of every test and run (sim_run
 * calls it) and for debugging, not for every cycle.
 */
#include <stdlib.h>

#include "net/xalloc.h"
#include "pipe_int.h"

/* A failed check: the error, returned from the check function. */
#define FAIL(...) return err_set(e, ERR_INVALID, "invariant: " __VA_ARGS__)

/* The engine's own work sets (sim_engine.check: engine_fast.c checks its
 * blocked flags, candidate masks, lists and injection masks), then the
 * sleeping headers (engine.c): every one really has nothing free to
 * take. */
static int check_work_sets(const sim_net *net, err *e)
{
    int rc = net->engine->check(net, e);
    if (rc)
        return rc;
    if (!net->sleepy)
        return 0;
    for (int32_t x = 0; x < net->nvc; x++) {
        if (!net->zzz[x])
            continue;
        const sim_vc *v = &net->vc[x];
        int32_t r = net->topo.chan[v->ch].dst;
        const sim_msg *m = &net->msg[v->msg];
        if (m->dst == r) {
            if (!(net->E > 0 && r < net->nodes && net->eject_busy[r] >= net->E))
                return err_set(e, ERR_INVALID,
                               "invariant: header at VC %d sleeps with an "
                               "ejection channel free",
                               x);
            continue;
        }
        sim_route rt;
        sim__route_of(net, r, m, x, &rt);
        for (int j = 0; j < rt.end[rt.ntiers]; j++) {
            uint64_t mask = rt.vcs[j];
            while (mask) {
                int b = __builtin_ctzll(mask);
                mask &= mask - 1;
                if (sim_vc_holder(net, rt.ch[j] * net->V + b) == SIM_NONE)
                    return err_set(e, ERR_INVALID,
                                   "invariant: header at VC %d sleeps but VC "
                                   "%d is free",
                                   x, rt.ch[j] * net->V + b);
            }
        }
    }
    return 0;
}

/* What the walk over the VCs counts, for the checks that follow it:
 * flits buffered per message, VCs ejecting per router, credits in flight
 * per VC (credit delay > 0), each message's state (0 in the network or
 * unaccounted, 1 free, 2 queued, 3 at its PE), and flit totals. */
typedef struct tally {
    long *buffered;
    int32_t *ejecting, *inflight;
    uint8_t *state;
    long flits_buffered, headers_waiting, at_pe;
} tally;

/* VC x against its channel, its depth, its credits, the DCSH bus slot,
 * the message-level multiplexer and the channel's held mask. */
static int check_vc_links(const sim_net *net, int32_t x, const tally *t,
                          err *e)
{
    const int V = net->V, B = net->B;
    const sim_vc *v = &net->vc[x];
    if (v->ch != x / V)
        FAIL("VC %d belongs to channel %d", x, v->ch);
    if (v->occ < 0 || v->occ > B)
        FAIL("VC %d holds %d flits, depth %d", x, v->occ, B);
    if (net->cd && net->vc_credits[x] + v->occ + t->inflight[x] != B)
        FAIL("VC %d: credits %d + occupancy %d + in flight %d != %d", x,
             net->vc_credits[x], v->occ, t->inflight[x], B);
    if (net->bus_vc && v->ch < net->topo.nnet) {
        int32_t h = net->bus_vc[sim_bus_slot(net, x)];
        if (v->owner != SIM_NONE && h != x)
            FAIL("held VC %d but its bus VC is held by %d", x, h);
        if (h >= 0 && (net->vc[h].owner == SIM_NONE ||
                       sim_bus_slot(net, h) != sim_bus_slot(net, x)))
            FAIL("bus slot of VC %d names VC %d, which does not hold it",
                 x, h);
    }
    if (net->mux_lock && sim_vc_group(net, x) >= 0 && v->out != SIM_NONE &&
        net->grp_owner[sim_vc_group(net, x)] != x)
        FAIL("VC %d has an output but not its multiplexer (held by %d)",
             x, net->grp_owner[sim_vc_group(net, x)]);
    if (v->ch < net->topo.nnet &&
        (int)(net->held[v->ch] >> (x - v->ch * V) & 1) !=
            (v->owner != SIM_NONE))
        FAIL("VC %d: held bit out of step with its owner %d", x,
             v->owner);
    return 0;
}

/* VC x's owner, message, flits and output agree with each other and with
 * the VCs they name; counts its flits and an ejection into *t. */
static int check_vc_holder(const sim_net *net, int32_t x, tally *t, err *e)
{
    const sim_vc *v = &net->vc[x];
    if (v->owner == SIM_NONE) {
        if (v->occ || v->msg != SIM_NONE || v->out != SIM_NONE)
            FAIL("free VC %d holds message %d (%d flits, out %d)", x,
                 v->msg, v->occ, v->out);
        return 0;
    }
    if (v->msg < 0 || v->msg >= net->msg_cap)
        FAIL("held VC %d has no message", x);
    const sim_msg *m = &net->msg[v->msg];
    if (v->owner >= 0) {
        const sim_vc *u = &net->vc[v->owner];
        if (u->out != x || u->msg != v->msg)
            FAIL("VC %d's owner %d does not point at it", x, v->owner);
    } else if (v->owner == SIM_PE) {
        if (v->ch < net->topo.nnet)
            FAIL("network VC %d owned by a PE", x);
    } else if (v->owner != SIM_HELD) {
        FAIL("VC %d has owner code %d", x, v->owner);
    }
    if (v->occ > 0) {
        if (v->first < m->consumed || v->first + v->occ > m->len)
            FAIL("VC %d holds flits %d..%d of a %d-flit message with %d "
                 "consumed",
                 x, v->first, v->first + v->occ - 1, m->len,
                 m->consumed);
        t->buffered[v->msg] += v->occ;
        t->flits_buffered += v->occ;
        if (v->first == 0 && v->out == SIM_NONE)
            t->headers_waiting++;
    }
    if (v->out >= 0) {
        const sim_vc *w = &net->vc[v->out];
        if (w->owner != x || w->msg != v->msg)
            FAIL("VC %d's output %d is not held for it", x, v->out);
    }
    if (v->out == SIM_EJECT) {
        int32_t r = net->topo.chan[v->ch].dst;
        if (m->dst != r)
            FAIL("VC %d ejects message %d at router %d, not at its "
                 "destination %d",
                 x, v->msg, r, m->dst);
        t->ejecting[r]++;
    }
    if (!net->par &&             /* the partitioned engine has no list */
        ((v->out != SIM_NONE) != (net->vc_active[x] != SIM_NONE) ||
         (net->vc_active[x] != SIM_NONE &&
          net->active[net->vc_active[x]] != x)))
        FAIL("VC %d: active list out of step", x);
    return 0;
}

/* Unrouted headers: on the waiting list (awake, in push order), just
 * woken (merged back at the next allocation), or asleep; and the
 * ejection channels each router uses. */
static int check_headers(const sim_net *net, const tally *t, err *e)
{
    long asleep = 0;
    for (int32_t x = 0; x < net->nvc; x++)
        if (net->zzz[x]) {
            const sim_vc *v = &net->vc[x];
            if (v->occ == 0 || v->first != 0 || v->out != SIM_NONE)
                FAIL("sleeping VC %d is not an unrouted header", x);
            asleep++;
        }
    if (asleep != net->nzzz)
        FAIL("%ld headers asleep, counter says %ld", asleep, net->nzzz);
    /* the partitioned engine's per-router lists: its engine check */
    if (!net->par) {
        if (t->headers_waiting != net->nwaiting + net->nwoken + net->nzzz)
            FAIL("%ld unrouted headers but %d waiting + %d woken + %ld asleep",
                 t->headers_waiting, net->nwaiting, net->nwoken, net->nzzz);
        for (int i = 0; i < net->nwaiting + net->nwoken; i++) {
            int32_t x = i < net->nwaiting ? net->waiting[i]
                                          : net->woken[i - net->nwaiting].x;
            const sim_vc *v = &net->vc[x];
            if (v->occ == 0 || v->first != 0 || v->out != SIM_NONE ||
                net->zzz[x])
                FAIL("waiting-list entry %d is not an awake unrouted header", x);
            if (i > 0 && i < net->nwaiting &&
                net->wseq[net->waiting[i - 1]] >= net->wseq[x])
                FAIL("waiting list out of order at entry %d", i);
        }
    }
    for (int r = 0; r < net->topo.routers; r++) {
        if (t->ejecting[r] != net->eject_busy[r])
            FAIL("router %d: %d ejecting VCs, counter says %d", r,
                 t->ejecting[r], net->eject_busy[r]);
        if (net->E > 0 && r < net->nodes && t->ejecting[r] > net->E)
            FAIL("router %d uses %d ejection channels of %d", r,
                 t->ejecting[r], net->E);
    }
    return 0;
}

/* Messages at their sources: each one queued has nothing sent; each one
 * being sent by its PE has pe_next flits sent = buffered + consumed. */
static int check_sources(const sim_net *net, tally *t, err *e)
{
    const int V = net->V;
    long queued = 0;
    long nq = (long)net->nodes * net->topo.ipn;
    for (long qi = 0; qi < nq; qi++) {
        const sim_queue *q = &net->iq[qi];
        long n = 0;
        for (int32_t m = q->head; n < q->len; m = net->msg[m].next, n++) {
            if (t->buffered[m] || net->msg[m].consumed ||
                net->msg[m].t_inject >= 0)
                FAIL("queued message %d has flits out", m);
            t->at_pe += net->msg[m].len;
            t->state[m] = 2;
        }
        queued += n;
        for (int v = 0; v < V; v++) {
            int32_t m = net->pe_msg[qi * V + v];
            if (m == SIM_NONE)
                continue;
            int32_t sent = net->pe_next[qi * V + v];
            if (t->buffered[m] + net->msg[m].consumed != sent)
                FAIL("message %d: %d sent by the PE, %ld buffered + %d "
                     "consumed",
                     m, sent, t->buffered[m], net->msg[m].consumed);
            t->at_pe += net->msg[m].len - sent;
            t->state[m] = 3;
        }
    }
    if (queued != net->queued)
        FAIL("%ld messages in source queues, counter says %ld", queued,
             net->queued);
    return 0;
}

/* The message pool (free list and live count), every message sent in
 * full, and the flit, message and broadcast-copy counters. */
static int check_messages(const sim_net *net, tally *t, err *e)
{
    long nfree = 0;
    for (int32_t m = net->msg_free; m != SIM_NONE; m = net->msg[m].next) {
        if (t->state[m] || ++nfree > net->msg_cap)
            FAIL("message pool free list is corrupt at %d", m);
        t->state[m] = 1;
    }
    if (nfree + net->msgs_live != net->msg_cap)
        FAIL("pool: %ld free + %ld live != %d", nfree, net->msgs_live,
             net->msg_cap);
    for (int32_t m = 0; m < net->msg_cap; m++) {
        if (t->state[m])
            continue;            /* free, queued or at its PE: done */
        if (t->buffered[m] + net->msg[m].consumed != net->msg[m].len ||
            t->buffered[m] == 0)
            FAIL("message %d (sent in full): %ld buffered + %d consumed, "
                 "%d flits",
                 m, t->buffered[m], net->msg[m].consumed, net->msg[m].len);
    }
    if (net->flits_injected != t->flits_buffered + net->flits_consumed)
        FAIL("%ld flits injected != %ld buffered + %ld consumed",
             net->flits_injected, t->flits_buffered, net->flits_consumed);
    if (net->flits_generated != t->at_pe + net->flits_injected)
        FAIL("%ld flits generated != %ld at the PEs + %ld injected",
             net->flits_generated, t->at_pe, net->flits_injected);
    if (net->generated !=
        net->delivered + (net->msgs_live - net->copies_live) + net->bc_live)
        FAIL("%ld generated != %ld delivered + %ld live messages + %ld "
             "broadcasts in progress",
             net->generated, net->delivered,
             net->msgs_live - net->copies_live, net->bc_live);
    if (net->copies_made != net->copies_done + net->copies_live)
        FAIL("%ld broadcast copies made != %ld delivered + %ld live",
             net->copies_made, net->copies_done, net->copies_live);
    if (net->bcast_flits_owed < 0 ||
        (net->bc_live == 0 && net->bcast_flits_owed != 0))
        FAIL("%ld broadcast flits owed with %ld broadcasts in progress",
             net->bcast_flits_owed, net->bc_live);
    if (net->duplicates)
        FAIL("%ld messages delivered twice", net->duplicates);
    return 0;
}

int sim_check_invariants(const sim_net *net, err *e)
{
    if (net->pipe)
        return sim__pipe_check(net, e);
    size_t ncap = (size_t)(net->msg_cap ? net->msg_cap : 1);
    tally t = {
        .buffered = xcalloc(ncap, sizeof *t.buffered),
        .ejecting = xcalloc((size_t)net->topo.routers, sizeof *t.ejecting),
        .state = xcalloc(ncap, 1),
    };
    if (net->cd) {
        t.inflight = xcalloc((size_t)net->nvc, sizeof *t.inflight);
        for (int s = 0; s <= net->cd; s++)
            for (int i = 0; i < net->cw_n[s]; i++)
                t.inflight[net->cw[s][i]]++;
    }
    int rc = 0;
    for (int32_t x = 0; x < net->nvc && !rc; x++)
        if (!(rc = check_vc_links(net, x, &t, e)))
            rc = check_vc_holder(net, x, &t, e);
    if (!rc)
        rc = check_headers(net, &t, e);
    if (!rc)
        rc = check_sources(net, &t, e);
    if (!rc)
        rc = check_messages(net, &t, e);
    if (!rc)
        rc = check_work_sets(net, e);
    free(t.buffered);
    free(t.ejecting);
    free(t.inflight);
    free(t.state);
    return rc;
}
