/*
 * run.c — building a network, the measurement protocol, and the verdicts
 * (steady state, saturation, deadlock).
 *
 * PROTOCOL (sim_net_run).
 *   1. Warm-up: the first warmup_messages generated are not measured.
 *   2. Measurement: messages with serials from warmup on are tagged (all of
 *      them up to warmup + messages under the message-count rule; until the
 *      CI target is met under the CI rule).  The measurement window is the
 *      span of cycles from the generation of the first tagged message to
 *      that of the last; offered and accepted throughput are counted over
 *      it (flits and messages generated, consumed).
 *   3. End: count rule, when every tagged message is delivered; CI rule,
 *      when the complete leading batches (>= 10, >= min_messages messages)
 *      give a 95% half-width below ci_target * mean, or max_messages are
 *      measured.  Broadcast traffic: a tagged broadcast counts as measured
 *      when its last node is reached; the CI rule judges the unicast
 *      latency (the broadcast latency when every message is a broadcast).
 *
 * SATURATION (never reported as a finite latency; latency fields are 0):
 *   - the mean source queue exceeds saturation_queue messages per sending
 *     node (queues growing without bound), checked every 256 cycles; or
 *   - accepted flits < saturation_ratio x offered flits over the window,
 *     and short by more flits than all VC buffers hold (count rule: when
 *     the window closes; CI rule: at each CI check).
 * A saturation verdict is confirmed by running deadlock_cycles more cycles
 * and asking the deadlock detector: a deadlocked network is reported as
 * deadlocked, not saturated.
 *
 * DEADLOCK (watchdog): every deadlock_cycles cycles, and whenever no flit
 * has moved for deadlock_cycles cycles while flits are in the network, the
 * detector (deadlock.c) looks for VCs that can never move; if any, the run
 * ends with status deadlock and the channels of one dependency cycle.
 *
 * Ownership: sim_net owns every array it allocates; sim_net_destroy frees
 * them all.  The params (design, workload) are copied.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/xalloc.h"
#include "pipe_int.h"

static const char *const status_names[] = {
#define SIM_NAME_(e, name) name,
    SIM_STATUS_LIST(SIM_NAME_)
#undef SIM_NAME_
};

const char *sim_status_name(sim_status s)
{
    if ((unsigned)s >= SIM_STATUS_COUNT)
        return "?";
    return status_names[s];
}

void sim_params_init(sim_params *p)
{
    memset(p, 0, sizeof *p);
    net_design_init(&p->design);
    net_workload_init(&p->workload);
    p->rate = 0;
    p->seed = 1;
    p->warmup_messages = 20000;
    p->stop = SIM_STOP_MESSAGES;
    p->messages = 200000;
    p->ci_target = 0.02;
    p->min_messages = 20000;
    p->max_messages = 5000000;
    p->max_cycles = 0;
    p->credit_delay = 0;
    p->deadlock_cycles = 5000;
    p->saturation_queue = 50;
    p->saturation_ratio = 0.95;
    p->progress_cycles = 1L << 16;
    p->partitioned = 0;
    p->threads = 1;
}

/* ---- what the simulator supports --------------------------------------- */

static int check_support(const net_design *d, const net_workload *w,
                         int allow_deadlock_prone, err *e)
{
    const sim_topology_ops *to = sim__topology_find(d->topology);
    if (d->switching != NET_SWITCH_WORMHOLE &&
        !(d->switching == NET_SWITCH_PCS && to && to->pcs))
        return err_set(e, ERR_UNSUPPORTED,
                       "%s switching is simulated on the hypercube only",
                       net_switching_name(d->switching));
    if (!to)
        return err_set(e, ERR_UNSUPPORTED,
                       "%s networks are not simulated",
                       net_topology_name(d->topology));
    const sim_routing_ops *ro = sim__routing_find(d);
    if (!ro)
        return err_set(e, ERR_UNSUPPORTED,
                       "%s routing with %s switching is not simulated on the "
                       "%s",
                       net_routing_name(d->routing),
                       net_switching_name(d->switching),
                       net_topology_name(d->topology));
    if (!sim__traffic_find(w->traffic))
        return err_set(e, ERR_UNSUPPORTED, "%s traffic is not simulated",
                       net_traffic_name(w->traffic));
    int rc = to->check ? to->check(d, e) : 0;
    if (rc)
        return rc;
    if (w->traffic == NET_TRAFFIC_BROADCAST && to->bcast_ports_per_dim == 0)
        return err_set(e, ERR_UNSUPPORTED,
                       "broadcast traffic is simulated on the torus and the "
                       "DCSH only (spanning trees), not on the %s",
                       net_topology_name(d->topology));
    if (d->router == NET_ROUTER_PIPELINED) {
        if (d->switching != NET_SWITCH_WORMHOLE)
            return err_set(e, ERR_UNSUPPORTED,
                           "router=pipelined simulates wormhole switching; "
                           "%s switching needs router=unit",
                           net_switching_name(d->switching));
        if (w->traffic == NET_TRAFFIC_BROADCAST)
            return err_set(e, ERR_UNSUPPORTED,
                           "broadcast traffic is simulated with router=unit "
                           "only");
        if (d->ejection_channels != 1)
            return err_set(e, ERR_UNSUPPORTED,
                           "router=pipelined has one ejection port of V VCs "
                           "per node: give ejection=1, not %d",
                           d->ejection_channels);
    }
    if (d->vcs > SIM_MAX_VCS)
        return err_set(e, ERR_UNSUPPORTED,
                       "%d virtual channels: the simulator handles at most "
                       "%d",
                       d->vcs, SIM_MAX_VCS);
    net_design tmp = *d;
    if (allow_deadlock_prone) {
        int min = net_min_vcs(d);
        if (min > tmp.vcs)
            tmp.vcs = min;
        if (d->vcs < 1)
            return err_set(e, ERR_INFEASIBLE, "need at least 1 VC");
    }
    if ((rc = net_check(&tmp, e)))
        return rc;
    if ((rc = ro->check(d, e)))
        return rc;
    if ((rc = net_workload_check(d, w, e)))
        return rc;
    return 0;
}

int sim_supports(const net_design *d, const net_workload *w, err *e)
{
    return check_support(d, w, 0, e);
}

static int check_params(const sim_params *p, err *e)
{
    if (!(p->rate > 0) || !isfinite(p->rate))
        return err_set(e, ERR_INVALID,
                       "rate %g: need a positive injection rate "
                       "(messages/node/cycle)",
                       p->rate);
    if (p->warmup_messages < 0)
        return err_set(e, ERR_INVALID, "warm-up %ld: need >= 0",
                       p->warmup_messages);
    if (p->stop == SIM_STOP_MESSAGES && p->messages < 1)
        return err_set(e, ERR_INVALID, "messages %ld: need >= 1",
                       p->messages);
    if (p->stop == SIM_STOP_CI &&
        (!(p->ci_target > 0) || p->min_messages < 1 ||
         p->max_messages < p->min_messages))
        return err_set(e, ERR_INVALID,
                       "CI rule needs ci_target > 0 and 1 <= min_messages "
                       "<= max_messages");
    if (p->stop != SIM_STOP_MESSAGES && p->stop != SIM_STOP_CI)
        return err_set(e, ERR_INVALID, "unknown stop rule");
    if (p->credit_delay < 0 || p->credit_delay > 1000)
        return err_set(e, ERR_INVALID, "credit delay %d: need 0..1000",
                       p->credit_delay);
    if (p->credit_delay && p->design.router == NET_ROUTER_PIPELINED)
        return err_set(e, ERR_INVALID,
                       "router=pipelined takes its credit delay from the "
                       "design key credit_delay, not from the run's credit "
                       "delay");
    if (p->deadlock_cycles < 1 || p->max_cycles < 0)
        return err_set(e, ERR_INVALID,
                       "deadlock_cycles must be >= 1, max_cycles >= 0");
    if (!(p->saturation_ceiling >= 0) || !(p->saturation_ceiling <= 1))
        return err_set(e, ERR_INVALID, "saturation_ceiling must be in [0, 1]");
    if (!(p->saturation_bound >= 0) || !isfinite(p->saturation_bound))
        return err_set(e, ERR_INVALID,
                       "saturation_bound must be finite and >= 0");
    int rc = sim__par_supports(p, e);
    if (rc)
        return rc;
    if (!(p->saturation_queue > 0) || !(p->saturation_ratio > 0) ||
        p->saturation_ratio > 1)
        return err_set(e, ERR_INVALID,
                       "saturation_queue must be > 0 and saturation_ratio in "
                       "(0, 1]");
    return check_support(&p->design, &p->workload, p->allow_deadlock_prone,
                         e);
}

/* ---- estimates ----------------------------------------------------------- */

/* Network channels per node, an upper bound from the topology's table
 * (sim/topo_*.c); 2n for a topology the simulator does not build. */
static double channels_per_node(const net_design *d)
{
    const sim_topology_ops *to = sim__topology_find(d->topology);
    if (to && to->channels_per_node)
        return to->channels_per_node(d);
    return 2 * (double)d->n;
}

double sim_memory_estimate(const sim_params *p)
{
    const net_design *d = &p->design;
    double nodes = (double)net_nodes(d), V = d->vcs > 0 ? d->vcs : 1;
    double ipn = 1 + (p->workload.traffic == NET_TRAFFIC_BROADCAST ? 2.0 * d->n
                                                                   : 0.0);
    double nchan = nodes * channels_per_node(d) + nodes * ipn;
    double nvc = nchan * V;
    /* per VC: sim_vc and the per-VC arrays of sim_net (vc_active,
     * vc_ready, vc_since, the work lists, flags, sleep epoch and order,
     * the woken and merge buffers: 71 bytes); per channel: sim_chan, the
     * search stack, arbitration record (sim_arb), held mask, channel list
     * and sleeper heads (48 bytes) */
    return nvc * (double)(sizeof(sim_vc) + 72) +
           nchan * (double)(sizeof(sim_chan) + 48) +
           nodes * (double)(sizeof(sim_source) + 2 * sizeof(double) +
                            (size_t)d->n * sizeof(int32_t)) +
           nodes * ipn * (double)(sizeof(sim_queue) + (size_t)V * 8);
}

double sim_work_estimate(const sim_params *p)
{
    double nodes = (double)net_nodes(&p->design);
    double measured = p->stop == SIM_STOP_CI ? (double)p->max_messages
                                             : (double)p->messages;
    double msgs = (double)p->warmup_messages + measured;
    double cycles = p->rate > 0 ? msgs / (nodes * p->rate) : INFINITY;
    if (p->max_cycles > 0 && (double)p->max_cycles < cycles)
        cycles = (double)p->max_cycles;
    return cycles * nodes;
}

/* ---- create / destroy -------------------------------------------------- */

/* Network channels, then injection channels: every channel that has VCs. */
static long net_channels(const sim_net *net)
{
    return (long)net->topo.nnet + (long)net->nodes * net->topo.ipn;
}

/* The channel graph, its routing and traffic tables, and the design's
 * scalars.  On failure nothing but the topology is built. */
static int create_topology(sim_net *net, err *e)
{
    const sim_params *p = &net->p;
    const net_design *d = &p->design;
    const sim_topology_ops *to = sim__topology_find(d->topology);
    if (to && p->workload.traffic == NET_TRAFFIC_BROADCAST) {
        net->topo.bports = to->bcast_ports_per_dim * d->n;
        net->topo.mcast = to->bcast_multidrop;
    }
    net->topo.wrap_classes = to && to->wrap_dateline && d->dateline_wrap;
    int rc = sim__topo_build(&net->topo, d, e);
    if (rc)
        return rc;
    net->routing = sim__routing_find(d);
    net->traffic = sim__traffic_find(p->workload.traffic);
    net->V = d->vcs;
    net->vdiv = ((UINT64_C(1) << 40) + (uint64_t)net->V - 1) / (uint64_t)net->V;
    net->B = d->buffer_flits;
    net->Dr = d->router_delay;
    net->E = d->ejection_channels;
    /* the partitioned engine's start-of-cycle room rule is the credit
     * loop (credit delay 1): it keeps no credits */
    net->cd = p->partitioned ? 0 : p->credit_delay;
    net->nodes = net->topo.nodes;
    int lm = net_message_flits(d, &p->workload);
    net->mean_len = lm;
    net->fixed_len = p->workload.length == NET_LENGTH_FIXED ? lm : 0;
    return 0;
}

/* V VCs per channel, free and empty (credit delay > 0: B credits each).
 * Refuses, before allocating, a network whose VCs an int32_t cannot
 * number. */
static int create_vcs(sim_net *net, err *e)
{
    long nchan = net_channels(net);
    if (nchan * net->V > INT32_MAX / 2)
        return err_set(e, ERR_UNSUPPORTED,
                       "%ld channels x %d VCs: too many for the simulator",
                       nchan, net->V);
    net->nvc = (int32_t)(nchan * net->V);
    net->vc = xmalloc(sizeof *net->vc * (size_t)net->nvc);
    net->vc_active = xmalloc(sizeof *net->vc_active * (size_t)net->nvc);
    net->vc_ready = xcalloc((size_t)net->nvc, sizeof *net->vc_ready);
    net->vc_since = xcalloc((size_t)net->nvc, sizeof *net->vc_since);
    if (net->cd) {
        net->vc_credits = xmalloc(sizeof *net->vc_credits * (size_t)net->nvc);
        for (int32_t x = 0; x < net->nvc; x++)
            net->vc_credits[x] = net->B;
    }
    for (int32_t x = 0; x < net->nvc; x++) {
        sim_vc *v = &net->vc[x];
        v->ch = x / net->V;
        v->msg = v->owner = v->out = SIM_NONE;
        v->first = v->occ = 0;
        net->vc_active[x] = SIM_NONE;
        v->mstamp = -1;
    }
    net->mask_all = net->V == 64 ? ~UINT64_C(0)
                                 : (UINT64_C(1) << net->V) - 1;
    net->pcs = net->p.design.switching == NET_SWITCH_PCS;
    return 0;
}

/* DCSH: the bus VCs (one resource per bus and VC) and the input
 * multiplexers. */
static void create_buses(sim_net *net)
{
    if (net->topo.phys) {
        net->bus_vc = xmalloc(sizeof *net->bus_vc * (size_t)net->nvc);
        for (int32_t x = 0; x < net->nvc; x++)
            net->bus_vc[x] = SIM_NONE;
    }
    if (net->topo.grp) {
        size_t g = (size_t)net->topo.ngroups;
        net->grp_stamp = xmalloc(sizeof *net->grp_stamp * g);
        net->grp_seen = xmalloc(sizeof *net->grp_seen * g);
        net->grp_rr = xcalloc(g, sizeof *net->grp_rr);
        net->grp_owner = xmalloc(sizeof *net->grp_owner * g);
        net->grp_word = xmalloc(sizeof *net->grp_word * (g + 1));
        int32_t words = 0;
        for (size_t i = 0; i < g; i++) {
            net->grp_stamp[i] = net->grp_seen[i] = -1;
            net->grp_owner[i] = SIM_NONE;
            net->grp_word[i] = words;
            int32_t size = (net->topo.grp_first[i + 1] -
                            net->topo.grp_first[i]) * net->V;
            words += (size + 63) / 64;
        }
        net->grp_word[g] = words;
        net->grp_act = xcalloc((size_t)words + 1, sizeof *net->grp_act);
        /* M8: deterministic routing without VCs arbitrates per message */
        net->mux_lock = net->p.design.routing == NET_ROUTE_DETERMINISTIC &&
                        net->V == 1;
    }
}

/* The message pools, one seeded stream per source, the injection queues
 * and the PEs' sending state, the generation calendar. */
static void create_sources(sim_net *net)
{
    net->msg_free = SIM_NONE;
    net->bc_free = SIM_NONE;
    net->src = xcalloc((size_t)net->nodes, sizeof *net->src);
    size_t nq = (size_t)net->nodes * (size_t)net->topo.ipn;
    net->iq = xcalloc(nq, sizeof *net->iq);
    for (size_t i = 0; i < nq; i++) {
        net->iq[i].head = net->iq[i].tail = SIM_NONE;
        net->iq[i].vfree = net->iq[i].room = net->mask_all;
    }
    for (int u = 0; u < net->nodes; u++) {
        sim_source *s = &net->src[u];
        rng_seed(&s->rng, net->p.seed, (uint64_t)u);
        s->silent = net->traffic->silent && net->traffic->silent(net, u);
        if (s->silent)
            net->silent_nodes++;
    }
    net->sending_nodes = net->nodes - net->silent_nodes;
    size_t nv = nq * (size_t)net->V;
    net->pe_msg = xmalloc(sizeof *net->pe_msg * nv);
    net->pe_next = xcalloc(nv, sizeof *net->pe_next);
    for (size_t i = 0; i < nv; i++)
        net->pe_msg[i] = SIM_NONE;
    net->heap_t = xmalloc(sizeof *net->heap_t * (size_t)net->nodes);
    net->heap_node = xmalloc(sizeof *net->heap_node * (size_t)net->nodes);
    net->act_src = xmalloc(sizeof *net->act_src * (size_t)net->nodes);
    net->qready = xcalloc((nq + 63) / 64, sizeof *net->qready);
}

/* The per-cycle work lists and, with credit delay c > 0, the ring of
 * credits in flight. */
static void create_work_lists(sim_net *net)
{
    long nchan = net_channels(net);
    net->eject_busy = xcalloc((size_t)net->topo.routers,
                              sizeof *net->eject_busy);
    net->active = xmalloc(sizeof *net->active * (size_t)net->nvc);
    net->waiting = xmalloc(sizeof *net->waiting * (size_t)net->nvc);
    net->moved = xmalloc(sizeof *net->moved * (size_t)net->nvc);
    net->dfs_ch = xmalloc(sizeof *net->dfs_ch * (size_t)nchan);
    net->dfs_i = xmalloc(sizeof *net->dfs_i * (size_t)nchan);
    if (net->cd) {
        net->cw = xcalloc((size_t)net->cd + 1, sizeof *net->cw);
        net->cw_n = xcalloc((size_t)net->cd + 1, sizeof *net->cw_n);
        net->cw_cap = xcalloc((size_t)net->cd + 1, sizeof *net->cw_cap);
    }
}

/* The switching engine (engine.c, TWO ENGINES), whether failed headers
 * sleep, and dimension-order allocation's shortcut and route table. */
static void select_engine(sim_net *net)
{
    net->sleepy = !net->mux_lock && !net->pcs;
    net->engine = net->sleepy && !net->bus_vc && !net->cd && !net->topo.grp
                      ? &sim__engine_fast
                      : &sim__engine_active;
    if (net->p.partitioned) {    /* headers retry, per router */
        net->sleepy = 0;
        net->engine = &sim__engine_par;
    }
    net->active_blk = net->engine == &sim__engine_active && !net->cd &&
                      !net->pcs && !net->mux_lock &&
                      net->p.design.router != NET_ROUTER_PIPELINED;
    net->dor_fast = net->routing == &sim__route_dor && !net->bus_vc &&
                    !net->topo.wrap_classes &&
                    net->topo.ops->dor_hop && net->topo.mc_base < 0;
    if (net->dor_fast &&
        (long)net->topo.routers * net->nodes <= SIM_DOR_TAB) {
        net->dor_tab = xmalloc(sizeof *net->dor_tab *
                               (size_t)net->topo.routers * (size_t)net->nodes);
        for (int r = 0; r < net->topo.routers; r++)
            for (int u = 0; u < net->nodes; u++) {
                int cls = 0;
                int32_t c = net->topo.ops->dor_hop(&net->topo, r, u, &cls);
                net->dor_tab[(long)r * net->nodes + u] =
                    c >= 0 ? c * 2 + cls : -1;
            }
    }
}

/* The event-driven work sets (engine_fast.c) and the sleeping headers'
 * state (engine.c), all empty. */
static void create_work_sets(sim_net *net)
{
    long nchan = net_channels(net);
    net->blk = xcalloc((size_t)net->nvc, 1);
    if (net->active_blk)
        net->filled = xmalloc(sizeof *net->filled * (size_t)net->nvc);
    net->held = xcalloc((size_t)nchan, sizeof *net->held);
    net->arb = xcalloc((size_t)nchan, sizeof *net->arb);
    net->ach = xmalloc(sizeof *net->ach * (size_t)(nchan + 1));
    net->ej = xmalloc(sizeof *net->ej * (size_t)net->nvc);
    net->in_ej = xcalloc((size_t)net->nvc, 1);
    net->dfs_rem = xmalloc(sizeof *net->dfs_rem * (size_t)nchan);
    net->zzz = xcalloc((size_t)net->nvc, 1);
    net->wepoch = xcalloc((size_t)net->nvc, sizeof *net->wepoch);
    net->wseq = xcalloc((size_t)net->nvc, sizeof *net->wseq);
    net->woken = xmalloc(sizeof *net->woken * (size_t)net->nvc);
    net->wscratch = xmalloc(sizeof *net->wscratch * (size_t)net->nvc);
    net->nslots = (int32_t)nchan + net->topo.routers;
    net->wl_head = xmalloc(sizeof *net->wl_head * (size_t)net->nslots);
    for (int32_t i = 0; i < net->nslots; i++)
        net->wl_head[i] = SIM_NONE;
    net->wn_free = SIM_NONE;
}

int sim_net_create(const sim_params *p, sim_net **out, err *e)
{
    *out = NULL;
    int rc = check_params(p, e);
    if (rc)
        return rc;
    sim_net *net = xcalloc(1, sizeof *net);
    net->p = *p;
    if ((rc = create_topology(net, e)) || (rc = create_vcs(net, e))) {
        sim__topo_free(&net->topo);
        free(net);
        return rc;
    }
    create_buses(net);
    net->routing->setup(net);
    if (net->traffic->setup)
        net->traffic->setup(net);
    net->hot_node = -1;
    if (p->workload.traffic == NET_TRAFFIC_HOTSPOT)
        net->hot_node = (int32_t)(p->workload.hotspot_node < 0
                                      ? net->nodes - 1
                                      : p->workload.hotspot_node);
    create_sources(net);
    create_work_lists(net);
    select_engine(net);
    create_work_sets(net);
    rng_seed(&net->rng, p->seed, SIM_RNG_ALLOC);
    sim__stats_init(&net->stats, p);
    if (p->design.router == NET_ROUTER_PIPELINED &&
        (rc = sim__pipe_create(net, e))) {
        sim_net_destroy(net);
        return rc;
    }
    if (p->partitioned && (rc = sim__par_create(net, e))) {
        sim_net_destroy(net);
        return rc;
    }
    net->sources_on = 1;
    sim__sources_start(net);
    net->next_deadlock_check = p->deadlock_cycles;
    *out = net;
    return 0;
}

void sim_net_destroy(sim_net *net)
{
    if (!net)
        return;
    sim__topo_free(&net->topo);
    free(net->vc);
    free(net->ch_flits);
    free(net->vc_credits);
    free(net->vc_active);
    free(net->vc_ready);
    free(net->vc_since);
    free(net->msg);
    free(net->src);
    free(net->iq);
    free(net->mask_hop);
    free(net->bus_vc);
    free(net->grp_stamp);
    free(net->grp_seen);
    free(net->grp_rr);
    free(net->grp_owner);
    free(net->grp_act);
    free(net->grp_word);
    free(net->probes);
    sim__bcast_free_all(net);
    free(net->pe_msg);
    free(net->pe_next);
    free(net->heap_t);
    free(net->heap_node);
    free(net->act_src);
    free(net->qready);
    free(net->perm);
    free(net->eject_busy);
    free(net->active);
    free(net->waiting);
    free(net->moved);
    free(net->dfs_ch);
    free(net->dfs_i);
    free(net->blk);
    free(net->filled);
    free(net->held);
    free(net->arb);
    free(net->dor_tab);
    free(net->ach);
    free(net->ej);
    free(net->in_ej);
    free(net->dfs_rem);
    free(net->zzz);
    free(net->wepoch);
    free(net->wseq);
    free(net->woken);
    free(net->wscratch);
    free(net->wl_head);
    free(net->wn_x);
    free(net->wn_next);
    free(net->wn_ep);
    if (net->cw)
        for (int i = 0; i <= net->cd; i++)
            free(net->cw[i]);
    free(net->cw);
    free(net->cw_n);
    free(net->cw_cap);
    free(net->deliv);
    sim__pipe_destroy(net->pipe);
    sim__par_destroy(net->par);
    free(net);
}

/* ---- descriptions ------------------------------------------------------ */

static int coords_text(const sim_net *net, long u, char *buf, size_t size)
{
    const sim_topo *t = &net->topo;
    size_t used = 0;
    if (u >= t->nodes)           /* interchange or DCSH bus receiver */
        return snprintf(buf, size, "%s%ld",
                        t->ops->extra_router_name ? t->ops->extra_router_name
                                                  : "router",
                        u - t->nodes);
    int n = snprintf(buf, size, "%ld", u);
    used = n > 0 ? (size_t)n : 0;
    if (t->n > 4 || t->ops->ids_only)
        return (int)used;
    for (int i = 0; i < t->n && used < size; i++) {
        n = snprintf(buf + used, size - used, "%s%d", i ? "," : "(",
                     sim_topo_coord(t, u, i));
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < size) {
        n = snprintf(buf + used, size - used, ")");
        used += n > 0 ? (size_t)n : 0;
    }
    return (int)used;
}

int sim__vc_describe(const sim_net *net, int32_t x, char *buf, size_t size)
{
    const sim_chan *c = &net->topo.chan[net->vc[x].ch];
    char a[48], b[48];
    int v = x % net->V;
    coords_text(net, c->src, a, sizeof a);
    if (c->dim < 0)
        return snprintf(buf, size, "injection@%s vc%d", a, v);
    coords_text(net, c->dst, b, sizeof b);
    return snprintf(buf, size, "%s->%s d%d%c vc%d", a, b, c->dim,
                    c->dir > 0 ? '+' : '-', v);
}

/* ---- stepping ---------------------------------------------------------- */

/* One cycle of the design's router. */
static void step(sim_net *net)
{
    if (net->pipe)
        sim__pipe_cycle(net);
    else if (net->par)
        sim__par_cycle(net);
    else
        sim__cycle(net);
}

static long flits_in_network(const sim_net *net)
{
    return net->flits_injected - net->flits_consumed;
}

/* Watchdog after a cycle: 1 (and net->deadlock_desc) if deadlocked. */
static int watchdog(sim_net *net)
{
    long dl = net->p.deadlock_cycles;
    int due = net->now >= net->next_deadlock_check;
    int frozen = flits_in_network(net) > 0 && net->now - net->last_move > dl;
    if (!due && !frozen)
        return 0;
    if (due)
        net->next_deadlock_check = net->now + dl;
    if (flits_in_network(net) == 0)
        return 0;
    if (sim__deadlock_find(net, dl) > 0)
        return 1;
    if (frozen) {
        snprintf(net->deadlock_desc, sizeof net->deadlock_desc,
                 "no flit moved for %ld cycles with %ld flits in the "
                 "network",
                 (long)(net->now - net->last_move), flits_in_network(net));
        return 1;
    }
    return 0;
}

int sim_net_step(sim_net *net, long cycles, err *e)
{
    for (long i = 0; i < cycles; i++) {
        step(net);
        if (watchdog(net))
            return err_set(e, ERR_DEADLOCK, "deadlock at cycle %ld: %s",
                           (long)net->now, net->deadlock_desc);
    }
    return 0;
}

void sim_net_set_sources(sim_net *net, int on)
{
    if (on && !net->sources_on) {
        net->sources_on = 1;
        sim__sources_start(net);
    } else if (!on) {
        net->sources_on = 0;
    }
}

int sim_net_drain(sim_net *net, long max_cycles, err *e)
{
    sim_net_set_sources(net, 0);
    for (long i = 0; i < max_cycles; i++) {
        if (net->delivered == net->generated)
            return 0;
        step(net);
        if (watchdog(net))
            return err_set(e, ERR_DEADLOCK, "deadlock at cycle %ld: %s",
                           (long)net->now, net->deadlock_desc);
    }
    if (net->delivered == net->generated)
        return 0;
    return err_set(e, ERR_NOCONVERGE,
                   "%ld messages still undelivered after %ld cycles",
                   net->generated - net->delivered, max_cycles);
}

long sim_net_count_channels(sim_net *net)
{
    if (!net->ch_flits)
        net->ch_flits = xcalloc((size_t)net->topo.nnet + 1,
                                sizeof *net->ch_flits);
    return net->topo.nnet;
}

int64_t sim_net_channel_flits(const sim_net *net, long ch)
{
    return net->ch_flits && ch >= 0 && ch < net->topo.nnet
               ? net->ch_flits[ch] : 0;
}

void sim_net_counts(const sim_net *net, sim_counts *c)
{
    memset(c, 0, sizeof *c);
    c->cycle = (long)net->now;
    c->generated = net->generated;
    c->delivered = net->delivered;
    c->queued = net->queued;
    c->in_network = net->generated - net->delivered - net->queued;
    c->flits_generated = net->flits_generated;
    c->flits_injected = net->flits_injected;
    c->flits_consumed = net->flits_consumed;
    for (int32_t x = 0; x < net->nvc; x++)
        c->flits_buffered += net->vc[x].occ;
    if (net->pipe)
        c->flits_buffered = sim__pipe_flits_buffered(net);
    c->duplicates = net->duplicates;
    c->broadcasts_live = net->bc_live;
    c->copies_made = net->copies_made;
    c->copies_delivered = net->copies_done;
    c->copies_live = net->copies_live;
    c->probes = net->nprobes;
    if (net->p.track_delivery)
        for (long s = 0; s < net->generated && s < net->deliv_cap; s++)
            if (!net->deliv[s])
                c->undelivered++;
}

/* ---- the measurement protocol ------------------------------------------ */

static void window_rates(const sim_net *net, sim_result *r)
{
    const sim_stats *st = &net->stats;
    int64_t we = st->window == 2 ? st->we : net->now;
    double cycles = (double)(we - st->ws);
    if (st->window == 0 || cycles <= 0)
        return;
    double nc = (double)net->nodes * cycles;
    r->offered_flits = (double)st->win_gen_flits / nc;
    r->offered_messages = (double)st->win_gen_msgs / nc;
    r->accepted_flits = (double)st->win_cons_flits / nc;
    r->accepted_messages = (double)st->win_del_msgs / nc;
}

/* Accepted below ratio x offered over the window, by more flits than the
 * network's buffers could hold: a stable network only falls behind by the
 * growth of its (bounded) population, which a short window might show. */
static int throughput_short(const sim_net *net)
{
    const sim_stats *st = &net->stats;
    double gen = (double)st->win_gen_flits, cons = (double)st->win_cons_flits;
    return cons < net->p.saturation_ratio * gen &&
           gen - cons > (double)net->nvc * net->B;
}

static void note(sim_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(sim_result *r, const char *fmt, ...)
{
    size_t used = strlen(r->detail);
    if (used + 3 >= sizeof r->detail)
        return;
    if (used) {
        memcpy(r->detail + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->detail + used, sizeof r->detail - used, fmt, ap);
    va_end(ap);
}

/* The run's state between cycles: its verdict so far and its clocks. */
typedef struct run_state {
    sim_status status;
    char why[200];               /* a saturation verdict's reason */
    int nb_final;                /* leading batches summarised at the end */
    int64_t next_check;          /* cycle of the next periodic check */
    long next_progress;          /* cycle of the next progress report (0:
                                    none) */
} run_state;

/* The window's accepted throughput fell short of its offered: saturated,
 * and why. */
static void saturated_short(const sim_net *net, run_state *s)
{
    sim_result tmp;
    memset(&tmp, 0, sizeof tmp);
    window_rates(net, &tmp);
    s->status = SIM_SATURATED;
    snprintf(s->why, sizeof s->why,
             "accepted %.4g < %.2g x offered %.4g flits/node/cycle",
             tmp.accepted_flits, net->p.saturation_ratio, tmp.offered_flits);
}

/* The result's identity; a network in which no node sends is refused. */
static int run_begin(const sim_net *net, sim_result *r, err *e)
{
    const sim_params *p = &net->p;
    memset(r, 0, sizeof *r);
    r->seed = p->seed;
    r->rate = p->rate;
    r->nodes = net->nodes;
    r->silent_nodes = net->silent_nodes;
    r->replications = 1;
    if (net->sending_nodes == 0)
        return err_set(e, ERR_INVALID,
                       "the %s permutation maps every node to itself: no "
                       "node sends",
                       net_traffic_name(p->workload.traffic));
    if (net->silent_nodes)
        note(r, "%ld of %d nodes send nothing (the %s permutation maps them "
                "to themselves)",
             net->silent_nodes, net->nodes,
             net_traffic_name(p->workload.traffic));
    return 0;
}

/* After every cycle: the window closes once the last tagged message is
 * generated (count rule: the throughput verdict), and the count rule ends
 * when every tagged message is measured.  Returns 1 to stop. */
static int check_cycle(sim_net *net, run_state *s)
{
    const sim_params *p = &net->p;
    sim_stats *st = &net->stats;
    if (st->window == 1 && net->generated >= st->tag_end) {
        st->window = 2;
        st->we = net->now;
        if (p->stop == SIM_STOP_MESSAGES && throughput_short(net)) {
            saturated_short(net, s);
            return 1;
        }
    }
    if (p->stop == SIM_STOP_MESSAGES && st->done >= p->messages) {
        s->nb_final = st->nbatches;
        return 1;
    }
    return 0;
}

/* The CI rule: once the complete leading batches are enough (>= 10,
 * >= min_messages messages), stop when the window falls short (saturated)
 * or the half-width meets the target; stop at max_messages anyway.
 * Returns 1 to stop. */
static int check_ci(sim_net *net, sim_result *r, run_state *s)
{
    const sim_params *p = &net->p;
    sim_stats *st = &net->stats;
    int nb = sim__stats_prefix(st);
    long got = 0;
    for (int i = 0; i < nb; i++)
        got += st->b[i].n;
    if (nb >= 10 && got >= p->min_messages) {
        if (throughput_short(net)) {
            saturated_short(net, s);
            return 1;
        }
        sim_result tmp;
        memset(&tmp, 0, sizeof tmp);
        sim__stats_summary(st, nb, &tmp);
        /* the unicast latency's CI; all broadcasts (beta = 1): the
         * broadcast latency's */
        int bc_only = tmp.broadcasts == tmp.messages;
        double lat = bc_only ? tmp.broadcast_latency : tmp.latency;
        double hw = bc_only ? tmp.broadcast_latency_ci95 : tmp.latency_ci95;
        if (lat > 0 && hw < p->ci_target * lat) {
            r->ci_met = 1;
            s->nb_final = nb;
            return 1;
        }
    }
    if (st->done >= p->max_messages) {
        s->nb_final = sim__stats_prefix(st);
        return 1;
    }
    return 0;
}

/* Every 256 cycles: growing source queues (saturated), the CI rule, the
 * stop flag and the cycle limit, then a progress report when due.
 * Returns 1 to stop. */
static int check_periodic(sim_net *net, sim_result *r, run_state *s)
{
    const sim_params *p = &net->p;
    if ((double)net->queued >
        p->saturation_queue * (double)net->sending_nodes) {
        s->status = SIM_SATURATED;
        snprintf(s->why, sizeof s->why,
                 "source queues hold %.1f messages per node (limit %g)",
                 (double)net->queued / (double)net->sending_nodes,
                 p->saturation_queue);
        return 1;
    }
    if (p->stop == SIM_STOP_CI && check_ci(net, r, s))
        return 1;
    if (p->stop_flag && *p->stop_flag) {
        s->status = SIM_STOPPED;
        return 1;
    }
    if (p->max_cycles > 0 && net->now >= p->max_cycles) {
        s->status = SIM_CYCLE_LIMIT;
        return 1;
    }
    if (p->progress && s->next_progress && net->now >= s->next_progress) {
        s->next_progress = (long)net->now + p->progress_cycles;
        sim_progress pr = {p->rate, p->seed, (long)net->now, net->generated,
                           net->stats.done,
                           p->stop == SIM_STOP_MESSAGES ? p->messages : 0};
        p->progress(p->progress_ctx, &pr);
    }
    return 0;
}

/* The verdict and the measurements into r, with the notes that explain
 * them. */
static void run_results(const sim_net *net, const run_state *s,
                        sim_result *r)
{
    const sim_params *p = &net->p;
    const sim_stats *st = &net->stats;
    sim_status status = s->status;
    r->status = status;
    r->saturated = status == SIM_SATURATED;
    r->deadlock = status == SIM_DEADLOCK;
    r->cycles = (long)net->now;
    window_rates(net, r);
    if (status == SIM_OK) {
        sim__stats_summary(st, s->nb_final, r);
    } else {
        r->messages = st->done;
    }
    if (status == SIM_SATURATED)
        note(r, "saturated: %s", s->why);
    if (status == SIM_DEADLOCK)
        note(r, "deadlock at cycle %ld: %s", (long)net->now,
             net->deadlock_desc);
    if (status == SIM_CYCLE_LIMIT)
        note(r, "stopped at the %ld-cycle limit with %ld of the measured "
                "messages delivered",
             p->max_cycles, st->done);
    if (p->stop == SIM_STOP_CI && status == SIM_OK && !r->ci_met)
        note(r, "CI target %g not met after %ld messages", p->ci_target,
             st->done);
    if (status == SIM_OK && r->broadcasts > 0)
        note(r, "broadcast latency %.3f +- %.3f cycles over %ld broadcasts; "
                "unicast latency %.3f",
             r->broadcast_latency, r->broadcast_latency_ci95, r->broadcasts,
             r->latency);
    if (status == SIM_OK && net->pcs)
        note(r, "PCS path setup %.3f cycles (probe out and "
                "acknowledgement back), %.4f backtracks per message",
             r->path_setup, r->backtracks);
}

int sim_net_run(sim_net *net, sim_result *r, err *e)
{
    const sim_params *p = &net->p;
    int rc = run_begin(net, r, e);
    if (rc)
        return rc;
    run_state s = {.status = SIM_OK,
                   .next_progress = p->progress_cycles > 0 ? p->progress_cycles
                                                           : 0};
    for (;;) {
        step(net);
        if (watchdog(net)) {
            s.status = SIM_DEADLOCK;
            break;
        }
        if (check_cycle(net, &s))
            break;
        if (net->now < s.next_check)
            continue;
        s.next_check = net->now + 256;
        if (check_periodic(net, r, &s))
            break;
    }
    if (s.status == SIM_SATURATED) {
        /* A deadlocked network also stops accepting: tell them apart. */
        for (long i = 0; i <= p->deadlock_cycles; i++)
            step(net);
        if (sim__deadlock_find(net, p->deadlock_cycles) > 0)
            s.status = SIM_DEADLOCK;
    }
    run_results(net, &s, r);
    return 0;
}

int sim_run(const sim_params *p, sim_result *r, err *e)
{
    sim_net *net;
    memset(r, 0, sizeof *r);
    int rc = sim_net_create(p, &net, e);
    if (rc)
        return rc;
    rc = sim_net_run(net, r, e);
    if (rc == 0)
        rc = sim_check_invariants(net, e);
    sim_net_destroy(net);
    return rc;
}

/* ---- replications ------------------------------------------------------ */

void sim_result_merge(const sim_result *rs, int n, sim_result *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return;
    if (n == 1) {
        *out = rs[0];
        return;
    }
    out->status = SIM_OK;
    for (int i = 0; i < n; i++)
        if (rs[i].status != SIM_OK &&
            (out->status == SIM_OK || rs[i].status == SIM_DEADLOCK))
            out->status = rs[i].status;
    out->saturated = out->status == SIM_SATURATED;
    out->deadlock = out->status == SIM_DEADLOCK;
    out->seed = rs[0].seed;
    out->rate = rs[0].rate;
    out->nodes = rs[0].nodes;
    out->silent_nodes = rs[0].silent_nodes;
    out->replications = n;
    out->ci_met = 1;
    for (int i = 0; i < n; i++) {
        const sim_result *x = &rs[i];
        out->offered_flits += x->offered_flits / n;
        out->accepted_flits += x->accepted_flits / n;
        out->offered_messages += x->offered_messages / n;
        out->accepted_messages += x->accepted_messages / n;
        out->messages += x->messages;
        out->cycles += x->cycles;
        out->batches += x->batches;
        out->ci_met &= x->ci_met;
        if (!out->detail[0] && x->detail[0])
            memcpy(out->detail, x->detail, sizeof out->detail);
        out->broadcasts += x->broadcasts;
        if (out->status == SIM_OK) {
            out->broadcast_latency += x->broadcast_latency / n;
            out->path_setup += x->path_setup / n;
            out->backtracks += x->backtracks / n;
            out->latency += x->latency / n;
            out->network_latency += x->network_latency / n;
            out->source_wait += x->source_wait / n;
            out->hops += x->hops / n;
            out->message_flits += x->message_flits / n;
            out->latency_p50 += x->latency_p50 / n;
            out->latency_p95 += x->latency_p95 / n;
            out->latency_p99 += x->latency_p99 / n;
            if (x->latency_max > out->latency_max)
                out->latency_max = x->latency_max;
        }
    }
    if (out->status != SIM_OK)
        return;
    double s1 = 0, s2 = 0, s3 = 0, sp[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        double dp[3] = {rs[i].latency_p50 - out->latency_p50,
                        rs[i].latency_p95 - out->latency_p95,
                        rs[i].latency_p99 - out->latency_p99};
        for (int k = 0; k < 3; k++)
            sp[k] += dp[k] * dp[k];
        s1 += (rs[i].latency - out->latency) * (rs[i].latency - out->latency);
        s2 += (rs[i].network_latency - out->network_latency) *
              (rs[i].network_latency - out->network_latency);
        s3 += (rs[i].broadcast_latency - out->broadcast_latency) *
              (rs[i].broadcast_latency - out->broadcast_latency);
    }
    double t = sim__t95(n - 1) / sqrt((double)n);
    out->latency_ci95 = t * sqrt(s1 / (n - 1));
    out->network_latency_ci95 = t * sqrt(s2 / (n - 1));
    out->broadcast_latency_ci95 = t * sqrt(s3 / (n - 1));
    out->latency_p50_ci95 = t * sqrt(sp[0] / (n - 1));
    out->latency_p95_ci95 = t * sqrt(sp[1] / (n - 1));
    out->latency_p99_ci95 = t * sqrt(sp[2] / (n - 1));
}
