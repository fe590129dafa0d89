/*
 * pcs.c — pipelined circuit switching with backtracking (Safaei, Khonsari,
 * Fathy and Ould-Khaoua, 'An analytical model of pipelined circuit switching
 * in hypercubes in the presence of hot spot traffic', ICPP Workshops 2005,
 * sec. 3; model M9): a probe reserves a path VC by VC, an acknowledgement
 * returns over it, then the data flits flow as in wormhole switching.
 *
 * PROTOCOL (one probe per message; timing in cycles).
 *   - Start: when the PE's message takes a free injection VC (inject phase,
 *     cycle t0), its probe sits in that VC at the source router; t_inject =
 *     t0; the probe may act at t0 + D_r (its routing decision).
 *   - Advance: the probe takes a free VC on any minimal channel (route_pcs.c,
 *     random among the free ones) and crosses in the same cycle: it is at
 *     the next router one cycle later and may act D_r cycles after that (at
 *     the destination at once).  Each reserved VC is owned by the previous
 *     one (vc.owner / vc.out), exactly the chain a wormhole header leaves.
 *   - Back up: if every permitted VC is held, the probe releases the VC it
 *     sits in (the last one reserved) and is back at the previous router one
 *     cycle later, where it decides again after D_r, excluding the channel it
 *     just came back over (Safaei et al.'s "searches for an alternative
 *     virtual channel"; without the exclusion it would re-take the VC it
 *     released).  If no alternative is free there either, it backs up again.
 *   - At the source there is nothing to back up over: it retries every cycle
 *     (Safaei et al.: "at the source it simply retries"), the exclusion
 *     lifted.
 *   - At the destination: the probe takes an ejection channel (one of
 *     design.ejection_channels; Safaei et al. consume at once: 0 = unlimited)
 *     and the acknowledgement leaves; it crosses the i reserved channels
 *     back, one cycle each, so the PE may send its first data flit i cycles
 *     later (msg.t_go).  Data then follows the reserved VCs with no routing
 *     decision (their outputs are already allocated).
 * Probe and acknowledgement travel on the routers' control lines: they use
 * no data-channel bandwidth and no VC buffer space.
 *
 * ZERO-LOAD LATENCY.  An i-hop message: probe at the destination at
 * t0 + i(1 + D_r), acknowledgement back at t0 + i(1 + D_r) + i, first data
 * flit at the destination i cycles later, last flit consumed L cycles after
 * that:  latency = i (3 + D_r) + L  (M + 3i at D_r = 0, Safaei et al.'s
 * zero-load limit M + 3 Dbar).  The path-setup time reported
 * (sim_result.path_setup) is probe start to acknowledgement back,
 * i (2 + D_r) at zero load; the model's d_r(i) = d_0 + i is its D_r = 0
 * counterpart.
 *
 * DEADLOCK FREEDOM.  A probe never waits while it holds network VCs (it
 * backs up instead), except at its destination for an ejection channel,
 * which always drains; data flows over a fully reserved path.  So no cycle
 * of waiting can form, with any V >= 1.  (Livelock — probes forever backing
 * up into each other — is possible in principle, as in the paper's
 * protocol; the random choices make it vanishingly unlikely, and a
 * saturated network shows it as growing source queues.)
 *
 * Cost: the probe list holds only messages whose probe is out; each step is
 * one routing decision.
 */
#include "net/xalloc.h"
#include "sim_int.h"

void sim__pcs_start(sim_net *net, int32_t mi, int32_t inj_vc)
{
    sim_msg *m = &net->msg[mi];
    m->pvc = inj_vc;
    m->pready = net->now + net->Dr;
    m->t_inject = net->now;
    m->t_go = -1;
    m->bt_ch = -1;
    m->backtracks = 0;
    m->hops = 0;
    if (net->nprobes == net->probes_cap) {
        net->probes_cap = net->probes_cap ? 2 * net->probes_cap : 256;
        net->probes = xrealloc(net->probes, sizeof *net->probes *
                                                (size_t)net->probes_cap);
    }
    net->probes[net->nprobes++] = mi;
}

/* One decision of message mi's probe; 1 when the probe is done. */
static int probe_act(sim_net *net, int32_t mi)
{
    sim_msg *m = &net->msg[mi];
    int32_t x = m->pvc;
    sim_vc *vx = &net->vc[x];
    int32_t r = net->topo.chan[vx->ch].dst;
    const int64_t now = net->now;
    if (r == m->dst) {
        if (net->E > 0 && net->eject_busy[r] >= net->E) {
            m->pready = now + 1;
            return 0;
        }
        net->eject_busy[r]++;
        vx->out = SIM_EJECT;
        sim__active_add(net, x);
        m->t_go = now + m->hops;          /* the acknowledgement's trip */
        m->pvc = SIM_NONE;
        return 1;
    }
    sim_route rt;
    net->routing->route(net, r, m, x, &rt);
    int32_t y = sim__route_pick(net, &rt, m->bt_ch);
    if (y != SIM_NONE) {
        sim_vc_take(net, y, x, mi);
        vx->out = y;
        sim__active_add(net, x);
        m->pvc = y;
        m->hops++;
        m->bt_ch = -1;
        int32_t r2 = net->topo.chan[net->vc[y].ch].dst;
        m->pready = now + 1 + (r2 == m->dst ? 0 : net->Dr);
        return 0;
    }
    if (vx->ch >= net->topo.nnet) {       /* at the source: retry */
        m->bt_ch = -1;
        m->pready = now + 1;
        return 0;
    }
    int32_t w = vx->owner;                /* back up one hop */
    m->bt_ch = vx->ch;
    sim_vc_release(net, x);
    net->vc[w].out = SIM_NONE;
    sim__active_remove(net, w);
    m->pvc = w;
    m->hops--;
    m->backtracks++;
    m->pready = now + 1 + net->Dr;
    return 0;
}

void sim__pcs_step(sim_net *net)
{
    int j = 0;
    for (int i = 0; i < net->nprobes; i++) {
        int32_t mi = net->probes[i];
        if (net->msg[mi].pready <= net->now && probe_act(net, mi))
            continue;
        net->probes[j++] = mi;
    }
    net->nprobes = j;
}
