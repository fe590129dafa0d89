/*
 * test_sim2_flow.c — simulator II under load: conservation (every message
 * and every broadcast delivered exactly once, flit counts equal, the
 * invariants — including DCSH bus VCs and message-level multiplexers — hold
 * in a full network) for every new topology / routing / switching /
 * traffic combination at 30% and 150% of its saturation bound, with the
 * deadlock watchdog examining the network every 200 cycles; the per-cycle
 * limits (a physical channel or DCSH bus passes at most one flit, a DCSH
 * input multiplexer at most one, its owner alone in message-level mode);
 * accepted throughput never above channel-load bounds computed here by
 * walking every path (DCSH dimension order, the express route written from
 * the thesis's description, broadcast spanning trees, the PCS hot spot's n
 * input channels); the watchdog firing on an express-cube with one VC; and
 * results independent of the thread count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "sim/sim.h"
#include "sim/sim_int.h"

static sim_params make(const char *design, const char *workload)
{
    sim_params p;
    err e;
    sim_params_init(&p);
    err_clear(&e);
    if (net_design_parse(&p.design, design, &e) ||
        net_workload_parse(&p.workload, workload, &e))
        fail_msg("%s / %s: %s", design, workload, e.msg);
    return p;
}

/* Bus copies one DCSH broadcast makes: n + sum_i (k-1) k^i (n-1-i). */
static long dcsh_copies(const net_design *d)
{
    long c = d->n, ki = 1;
    for (int i = 0; i < d->n; i++) {
        c += (long)(d->k[i] - 1) * ki * (d->n - 1 - i);
        ki *= d->k[i];
    }
    return c;
}

/* Flits the network carries per generated message (broadcasts count their
 * copies). */
static double flits_per_message(const sim_params *p)
{
    double len = net_message_flits(&p->design, &p->workload);
    if (p->workload.traffic != NET_TRAFFIC_BROADCAST)
        return len;
    double beta = p->workload.broadcast_fraction;
    double copies = p->design.topology == NET_DCSH
                        ? (double)dcsh_copies(&p->design)
                        : (double)(net_nodes(&p->design) - 1);
    return len * ((1 - beta) + beta * copies);
}

/* A rate at `factor` times a saturation bound: one flit per node per cycle
 * (injection) over the flits a message makes the network carry; for the
 * torus and the express-cube also the average channel load of uniform
 * traffic (hops per message over channels per node). */
static double rate_at(const sim_params *p, double factor)
{
    double cap = 1;
    const net_design *d = &p->design;
    if (d->topology == NET_EXPRESS || d->topology == NET_TORUS) {
        double per_node = 2.0 * d->n;          /* torus channels per node */
        if (d->topology == NET_EXPRESS)
            per_node *= 1 + 1.0 / d->express_kn;   /* + interchange legs */
        double c = per_node / net_avg_distance(d);
        if (c < cap)
            cap = c;
    }
    return factor * cap / flits_per_message(p);
}

/* ---- conservation ------------------------------------------------------ */

static void conservation(const char *design, const char *workload,
                         double factor, int credit_delay)
{
    sim_params p = make(design, workload);
    p.rate = rate_at(&p, factor);
    p.track_delivery = 1;
    p.credit_delay = credit_delay;
    p.deadlock_cycles = 200;
    p.seed = 3;
    sim_net *net;
    err e;
    err_clear(&e);
    if (sim_net_create(&p, &net, &e))
        fail_msg("%s: %s", design, e.msg);
    for (int i = 0; i < 4; i++) {
        if (sim_net_step(net, 600, &e))
            fail_msg("%s / %s at %.2f x bound: %s", design, workload, factor,
                     e.msg);
        if (sim_check_invariants(net, &e))
            fail_msg("%s / %s under load: %s", design, workload, e.msg);
    }
    sim_counts c;
    sim_net_counts(net, &c);
    assert_true(c.generated > 0);
    if (sim_net_drain(net, 3000000, &e))
        fail_msg("%s / %s drain: %s", design, workload, e.msg);
    if (sim_check_invariants(net, &e))
        fail_msg("%s / %s drained: %s", design, workload, e.msg);
    sim_net_counts(net, &c);
    assert_int_equal(c.generated, c.delivered);
    assert_int_equal(c.queued, 0);
    assert_int_equal(c.in_network, 0);
    assert_int_equal(c.broadcasts_live, 0);
    assert_int_equal(c.copies_live, 0);
    assert_int_equal(c.copies_made, c.copies_delivered);
    assert_int_equal(c.probes, 0);
    assert_int_equal(c.flits_generated, c.flits_injected);
    assert_int_equal(c.flits_generated, c.flits_consumed);
    assert_int_equal(c.flits_buffered, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.undelivered, 0);
    if (p.workload.traffic == NET_TRAFFIC_BROADCAST)
        assert_true(c.copies_made > 0);
    sim_net_destroy(net);
}

typedef struct combo {
    const char *design, *workload;
} combo;

static const combo combos[] = {
    {"topology=dcsh k=4 n=2 vcs=1", "message_bits=8"},
    {"topology=dcsh k=4 n=2 vcs=2", "message_bits=8"},
    {"topology=dcsh k=4 n=2 vcs=2 routing=duato", "message_bits=8"},
    {"topology=dcsh k=4 n=2 vcs=3 routing=duato buffer=2 router_delay=2",
     "message_bits=8 length=exponential"},
    {"topology=dcsh k=3 n=3 vcs=3 routing=hop_based", "message_bits=8"},
    {"topology=dcsh k=5x3 vcs=2 routing=hop_based ejection=0",
     "message_bits=6"},
    {"topology=dcsh k=4 n=2 vcs=1", "message_bits=8 traffic=transpose"},
    {"topology=express k=8 n=1 kn=2 m=1 vcs=2", "message_bits=8"},
    {"topology=express k=8x6 kn=2 m=2 vcs=2 router_delay=1",
     "message_bits=8"},
    {"topology=express k=6 n=2 kn=3 m=1 vcs=4 buffer=2",
     "message_bits=8 traffic=hotspot theta=0.3"},
    {"topology=hypercube n=4 vcs=1 routing=pcube", "message_bits=8"},
    {"topology=hypercube n=4 vcs=3 routing=pcube buffer=2",
     "message_bits=8 traffic=bit_reversal"},
    {"topology=hypercube n=4 vcs=4 routing=hop_based", "message_bits=8"},
    {"topology=torus k=4 n=2 vcs=4 routing=hop_based", "message_bits=8"},
    {"topology=hypercube n=4 vcs=1 routing=minimal_adaptive switching=pcs",
     "message_bits=8"},
    {"topology=hypercube n=4 vcs=3 routing=minimal_adaptive switching=pcs "
     "ejection=0 router_delay=1",
     "message_bits=8 traffic=hotspot theta=0.3"},
    {"topology=torus k=4 n=2 vcs=3 routing=duato",
     "message_bits=8 traffic=broadcast beta=0.2"},
    {"topology=torus k=5x3 vcs=2 buffer=2",
     "message_bits=6 traffic=broadcast beta=0.1 length=exponential"},
    {"topology=dcsh k=4 n=2 vcs=2 routing=duato",
     "message_bits=8 traffic=broadcast beta=0.2"},
    {"topology=dcsh k=3 n=3 vcs=1", "message_bits=8 traffic=broadcast "
                                    "beta=0.3"},
};
#define NCOMBOS (sizeof combos / sizeof combos[0])

static void test_conservation_light(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCOMBOS; i++)
        conservation(combos[i].design, combos[i].workload, 0.3, 0);
}

static void test_conservation_past_saturation(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCOMBOS; i++)
        conservation(combos[i].design, combos[i].workload, 1.5, 0);
    /* credits in flight */
    conservation("topology=dcsh k=4 n=2 vcs=2 routing=duato buffer=3",
                 "message_bits=8", 1.5, 2);
    conservation("topology=express k=8 n=1 kn=2 m=2 vcs=2 buffer=2",
                 "message_bits=8", 1.5, 1);
    conservation("topology=hypercube n=4 vcs=2 routing=minimal_adaptive "
                 "switching=pcs buffer=2",
                 "message_bits=8", 1.5, 1);
}

/* ---- one flit per physical channel and multiplexer per cycle ------------ */

static void per_cycle_limits(const char *design, const char *workload)
{
    sim_params p = make(design, workload);
    p.rate = rate_at(&p, 1.2);
    p.seed = 9;
    sim_net *net;
    err e;
    if (sim_net_create(&p, &net, &e))
        fail_msg("%s: %s", design, e.msg);
    int32_t *out = malloc(sizeof *out * (size_t)net->nvc);
    int nphys = net->topo.nnet + net->nodes * net->topo.ipn;
    int ng = net->topo.ngroups > 0 ? net->topo.ngroups : 1;
    int *phys_n = malloc(sizeof *phys_n * (size_t)nphys);
    int *grp_n = malloc(sizeof *grp_n * (size_t)ng);
    long moves = 0, mux_moves = 0;
    for (int cyc = 0; cyc < 1500; cyc++) {
        for (int32_t x = 0; x < net->nvc; x++)
            out[x] = net->vc[x].out;
        int32_t owner_before[4096];
        int ngr = net->topo.ngroups;
        for (int g = 0; net->mux_lock && g < ngr && g < 4096; g++)
            owner_before[g] = net->grp_owner[g];
        if (sim_net_step(net, 1, &e))
            fail_msg("%s: %s", design, e.msg);
        memset(phys_n, 0, sizeof *phys_n * (size_t)nphys);
        memset(grp_n, 0, sizeof *grp_n * (size_t)ng);
        for (int32_t x = 0; x < net->nvc; x++) {
            if (net->vc[x].mstamp != net->now - 1)
                continue;
            moves++;
            /* allocated before the cycle, or in it (header) */
            int32_t o = out[x] != SIM_NONE ? out[x] : net->vc[x].out;
            if (o >= 0) {
                int32_t c = net->vc[o].ch;
                int32_t ph = net->topo.phys ? net->topo.phys[c] : c;
                if (++phys_n[ph] > 1)
                    fail_msg("%s: two flits on physical channel %d in cycle "
                             "%ld",
                             design, ph, (long)net->now - 1);
            }
            int32_t g = sim_vc_group(net, x);
            if (g >= 0) {
                mux_moves++;
                if (++grp_n[g] > 1)
                    fail_msg("%s: multiplexer %d passed two flits in cycle "
                             "%ld",
                             design, g, (long)net->now - 1);
                if (net->mux_lock && g < 4096 && owner_before[g] != x &&
                    net->grp_owner[g] != x)
                    fail_msg("%s: VC %d moved through multiplexer %d held "
                             "by %d",
                             design, x, g, owner_before[g]);
            }
        }
    }
    assert_true(moves > 1000);
    if (net->topo.grp)
        assert_true(mux_moves > 100);
    if (sim_check_invariants(net, &e))
        fail_msg("%s: %s", design, e.msg);
    free(out);
    free(phys_n);
    free(grp_n);
    sim_net_destroy(net);
}

static void test_per_cycle_limits(void **state)
{
    (void)state;
    per_cycle_limits("topology=dcsh k=4 n=2 vcs=2 routing=duato",
                     "message_bits=8");
    per_cycle_limits("topology=dcsh k=4 n=2 vcs=1", "message_bits=8");
    per_cycle_limits("topology=dcsh k=5 n=2 vcs=3 routing=hop_based "
                     "buffer=2",
                     "message_bits=8 length=exponential");
    per_cycle_limits("topology=dcsh k=4 n=2 vcs=2",
                     "message_bits=8 traffic=broadcast beta=0.1");
    per_cycle_limits("topology=express k=8 n=2 kn=4 m=2 vcs=2",
                     "message_bits=8");
}

/* ---- channel-load bounds, by walking every path ------------------------ */

typedef struct loads {
    double *a;
    long n;
} loads;

static void loads_init(loads *l, long n)
{
    l->a = calloc((size_t)n, sizeof *l->a);
    l->n = n;
}

static double loads_max(const loads *l)
{
    double m = 0;
    for (long i = 0; i < l->n; i++)
        if (l->a[i] > m)
            m = l->a[i];
    return m;
}

/* DCSH dimension order: bus (node, dim) of every hop, weight w. */
static void dcsh_path(const net_design *d, long s, long t, double w,
                      loads *l)
{
    int a[NET_MAX_DIMS], b[NET_MAX_DIMS];
    net_coords(d, s, a);
    net_coords(d, t, b);
    for (int i = 0; i < d->n; i++) {
        if (a[i] == b[i])
            continue;
        l->a[net_node_id(d, a) * d->n + i] += w;
        a[i] = b[i];
    }
}

/* Express-cube route, from the thesis's description (6.2): in each
 * dimension, in the direction of the shorter node offset (+ at a tie),
 * local links to the destination if no interchange lies between; else
 * local links up to the first interchange (its node -> interchange half),
 * one express bundle per further interchange, and from the last one the
 * interchange -> node half of its link and local links to the destination.
 * Keys: local part p of the link leaving ring position q in direction s
 * (p: 0 whole link, 1 into the interchange, 2 out of it) and express
 * bundles leaving interchange g; bundle loads are shared by m channels.
 * Returns the hops. */
static long pmod(long x, long k)
{
    return (x % k + k) % k;
}

static int express_path(const net_design *d, long s, long t, double w,
                        loads *local, loads *bundle)
{
    int a[NET_MAX_DIMS], b[NET_MAX_DIMS];
    net_coords(d, s, a);
    net_coords(d, t, b);
    long nodes = net_nodes(d);
    int kn = d->express_kn, hops = 0;
    for (int i = 0; i < d->n; i++) {
        int k = d->k[i];
        int x = (int)pmod(b[i] - a[i], k);
        if (x == 0)
            continue;
        int dir = x <= k - x ? +1 : -1;
        int dist = dir > 0 ? x : k - x;
        int sidx = dir < 0;
        int save = a[i];
        a[i] = 0;
        long ring = net_node_id(d, a);      /* ring id: coordinate i = 0 */
        a[i] = save;
        /* forward frame: positions along the direction of travel (the -
         * direction mirrored, p -> k-1-p); the link leaving forward
         * position f is, in ring positions, the link p -> p+1 with
         * p = f (+) or p = k-2-f (-) */
        long base = ((long)i * nodes + ring) * k;
#define LINK(f, part)                                                         \
    (local->a[(base + pmod(dir > 0 ? (f) : k - 2 - (f), k)) * 6 + sidx * 3 + \
              (part)] += w,                                                    \
     hops++)
        int q = dir > 0 ? a[i] : k - 1 - a[i];
        int crossings = (q % kn + dist) / kn;
        if (crossings == 0) {
            for (int j = 0; j < dist; j++)
                LINK(q + j, 0);
        } else {
            int up = kn - q % kn;            /* links to the interchange */
            for (int j = 0; j < up - 1; j++)
                LINK(q + j, 0);
            LINK(q + up - 1, 1);             /* node -> interchange */
            int G = k / kn;
            int g = (int)pmod((q + up) / kn, G);  /* forward index */
            for (int c = 1; c < crossings; c++, hops++) {
                int go = dir > 0 ? g : (G - g) % G;   /* ring index */
                bundle->a[(base + go) * 2 + sidx] += w;
                g = (g + 1) % G;
            }
            int end = q + dist;              /* forward position of b */
            int r = end % kn;                /* b's place in its group */
            LINK(end - r - 1, 2);            /* interchange -> node */
            for (int j = 0; j < r; j++)
                LINK(end - r + j, 0);
        }
#undef LINK
        a[i] = b[i];
    }
    return hops;
}

/* Run at twice the bound and check accepted <= bound (3% slack for the
 * window's edges) and a saturation verdict. */
static void check_bound(sim_params *p, double bound_flits, const char *what)
{
    p->rate = 2 * bound_flits / flits_per_message(p);
    p->warmup_messages = 1000;
    p->messages = 6000;
    p->saturation_queue = 1e9;  /* judge by throughput alone */
    p->seed = 5;
    sim_result r;
    err e;
    if (sim_run(p, &r, &e))
        fail_msg("%s: %s", what, e.msg);
    if (r.status != SIM_SATURATED || r.accepted_flits > 1.03 * bound_flits ||
        r.accepted_flits < 0.1 * bound_flits)
        fail_msg("%s at 2 x bound: %s, accepted %.4f, bound %.4f", what,
                 sim_status_name(r.status), r.accepted_flits, bound_flits);
    assert_true(r.latency == 0 && r.saturated && !r.deadlock);
}

static void test_bound_dcsh_transpose(void **state)
{
    (void)state;
    /* dimension order under transpose: bus ((b,b), 1) carries the k-1
     * messages of column b, so lambda L <= 1/(k-1) per sender */
    sim_params p = make("topology=dcsh k=5 n=2 vcs=2 buffer=4 ejection=0",
                        "message_bits=8 traffic=transpose");
    const net_design *d = &p.design;
    long n = net_nodes(d), senders = 0;
    loads l;
    loads_init(&l, n * d->n);
    for (long s = 0; s < n; s++) {
        long t = net_permutation_dest(d, NET_TRAFFIC_TRANSPOSE, s);
        if (t == s)
            continue;
        senders++;
        dcsh_path(d, s, t, 1, &l);
    }
    assert_true(fabs(loads_max(&l) - (d->k[0] - 1)) < 1e-12);
    /* per node over all N nodes: senders/N x 1/max flits per cycle */
    check_bound(&p, (double)senders / n / loads_max(&l), "dcsh transpose");
    free(l.a);
}

static void test_bound_express(void **state)
{
    (void)state;
    const char *designs[] = {
        "topology=express k=12 n=1 kn=3 m=1 vcs=4 buffer=4 ejection=0",
        "topology=express k=8 n=2 kn=4 m=2 vcs=4 buffer=4 ejection=0",
    };
    for (int j = 0; j < 2; j++) {
        sim_params p = make(designs[j], "message_bits=8");
        const net_design *d = &p.design;
        long n = net_nodes(d);
        loads local, bundle;
        loads_init(&local, (long)d->n * n * d->k[0] * 6);
        loads_init(&bundle, (long)d->n * n * d->k[0] * 2);
        for (long s = 0; s < n; s++)
            for (long t = 0; t < n; t++) {
                if (s == t)
                    continue;
                int h = express_path(d, s, t, 1.0 / (double)(n - 1), &local,
                                     &bundle);
                /* the walker agrees with net_distance */
                assert_int_equal(h, net_distance(d, s, t));
            }
        double m = loads_max(&local);
        double mb = loads_max(&bundle) / d->express_m;
        if (mb > m)
            m = mb;
        double bound = 1 / m < 1 ? 1 / m : 1;
        assert_true(bound < 1);          /* a channel, not injection */
        check_bound(&p, bound, designs[j]);
        free(local.a);
        free(bundle.a);
    }
}

/* The hot spot receives at most n flits per cycle (its n input channels;
 * unlimited ejection): with theta = 1 every other node sends only to it and
 * it sends lambda L uniformly, so accepted <= (n + lambda L) / N. */
static void test_bound_hotspot(void **state)
{
    (void)state;
    const char *designs[] = {
        "topology=hypercube n=4 vcs=3 routing=minimal_adaptive "
        "switching=pcs ejection=0",
        "topology=hypercube n=4 vcs=2 routing=pcube ejection=0 buffer=2",
        "topology=dcsh k=4 n=2 vcs=2 routing=duato ejection=0 buffer=2",
        "topology=dcsh k=4 n=2 vcs=2 routing=hop_based ejection=0 buffer=2",
        "topology=dcsh k=4 n=2 vcs=1 ejection=0 buffer=2",
        "topology=hypercube n=4 vcs=4 routing=hop_based ejection=0",
    };
    for (int j = 0; j < 6; j++) {
        sim_params p = make(designs[j], "message_bits=8 traffic=hotspot "
                                        "theta=1");
        long n = net_nodes(&p.design);
        /* DCSH: n multiplexers in front of the hot router */
        double in = p.design.n;
        double lam_bound = in / (double)(n - 1) / 8;  /* msgs/node/cycle */
        double rate = 2 * lam_bound;
        double bound = (in + rate * 8) / (double)n;
        p.rate = rate;
        p.warmup_messages = 1000;
        p.messages = 6000;
        p.saturation_queue = 1e9;
        p.seed = 4;
        sim_result r;
        err e;
        if (sim_run(&p, &r, &e))
            fail_msg("%s: %s", designs[j], e.msg);
        if (r.status != SIM_SATURATED || r.accepted_flits > 1.03 * bound ||
            r.accepted_flits < 0.5 * bound)
            fail_msg("%s: %s, accepted %.4f, bound %.4f", designs[j],
                     sim_status_name(r.status), r.accepted_flits, bound);
    }
}

/* Broadcast: unicast dimension-order paths plus every source's tree edges
 * (node v != s is reached along the highest dimension where it differs
 * from s, in the direction of its offset, + up to floor(k/2); on the DCSH
 * over the bus of its highest differing dimension from the node that
 * agrees with s there). */
static void test_bound_broadcast(void **state)
{
    (void)state;
    const double beta = 0.1;
    /* torus */
    {
        sim_params p = make("topology=torus k=4 n=2 vcs=2 buffer=4 "
                            "ejection=0",
                            "message_bits=4 traffic=broadcast beta=0.1");
        const net_design *d = &p.design;
        long n = net_nodes(d);
        loads l;
        loads_init(&l, n * 2 * d->n);
        for (long s = 0; s < n; s++)
            for (long t = 0; t < n; t++) {
                if (s == t)
                    continue;
                int a[NET_MAX_DIMS], b[NET_MAX_DIMS];
                net_coords(d, s, a);
                net_coords(d, t, b);
                /* unicast, dimension order, + at a tie */
                for (int i = 0; i < d->n; i++) {
                    int k = d->k[i];
                    while (a[i] != b[i]) {
                        int x = ((b[i] - a[i]) % k + k) % k;
                        int dir = x <= k - x ? +1 : -1;
                        l.a[net_node_id(d, a) * 2 * d->n + 2 * i + (dir < 0)] +=
                            (1 - beta) / (double)(n - 1);
                        a[i] = (a[i] + dir + k) % k;
                    }
                }
                /* tree edge into t */
                net_coords(d, s, a);
                net_coords(d, t, b);
                int top = d->n - 1;
                while (a[top] == b[top])
                    top--;
                int k = d->k[top];
                int x = ((b[top] - a[top]) % k + k) % k;
                int dir = x <= k / 2 ? +1 : -1;
                b[top] = (b[top] - dir + k) % k;     /* the parent */
                l.a[net_node_id(d, b) * 2 * d->n + 2 * top + (dir < 0)] +=
                    beta;
            }
        /* lambda L max <= 1; accepted counts every copy's flits */
        check_bound(&p, flits_per_message(&p) / 4 / loads_max(&l),
                    "torus broadcast");
        free(l.a);
    }
    /* DCSH */
    {
        sim_params p = make("topology=dcsh k=4 n=2 vcs=2 buffer=4 "
                            "ejection=0",
                            "message_bits=4 traffic=broadcast beta=0.1");
        const net_design *d = &p.design;
        long n = net_nodes(d);
        loads l;
        loads_init(&l, n * d->n);
        for (long s = 0; s < n; s++) {
            for (long t = 0; t < n; t++)
                if (s != t)
                    dcsh_path(d, s, t, (1 - beta) / (double)(n - 1), &l);
            /* bus (u, j) carries s's broadcast iff u = s or u's highest
             * coordinate differing from s is below j */
            for (long u = 0; u < n; u++) {
                int a[NET_MAX_DIMS], b[NET_MAX_DIMS];
                net_coords(d, s, a);
                net_coords(d, u, b);
                int top = d->n - 1;
                while (top >= 0 && a[top] == b[top])
                    top--;
                for (int j = top + 1; j < d->n; j++)
                    l.a[u * d->n + j] += beta;
            }
        }
        check_bound(&p, flits_per_message(&p) / 4 / loads_max(&l),
                    "dcsh broadcast");
        free(l.a);
    }
}

/* ---- the watchdog ------------------------------------------------------ */

static void test_watchdog_express(void **state)
{
    (void)state;
    /* one VC: both dateline classes share it, the express ring can lock */
    sim_params p = make("topology=express k=8 n=1 kn=2 m=1 vcs=1",
                        "message_bits=16");
    p.rate = 0.1;
    p.allow_deadlock_prone = 1;
    p.deadlock_cycles = 300;
    p.saturation_queue = 1e9;
    p.warmup_messages = 100;
    p.messages = 100000;
    sim_result r;
    err e;
    assert_int_equal(sim_run(&p, &r, &e), 0);
    if (r.status != SIM_DEADLOCK)
        fail_msg("%s, %s", sim_status_name(r.status), r.detail);
    assert_non_null(strstr(r.detail, "cycle:"));
    assert_non_null(strstr(r.detail, "ic"));
    p.allow_deadlock_prone = 0;
    assert_int_equal(sim_run(&p, &r, &e), ERR_INFEASIBLE);
}

/* ---- determinism ------------------------------------------------------- */

static void test_determinism(void **state)
{
    (void)state;
    enum { NJ = 6 };
    const combo jobs_def[NJ] = {
        {"topology=dcsh k=4 n=2 vcs=2 routing=duato",
         "message_bits=8 length=exponential"},
        {"topology=express k=8 n=2 kn=4 m=2 vcs=2", "message_bits=8"},
        {"topology=hypercube n=4 vcs=2 routing=pcube", "message_bits=8"},
        {"topology=hypercube n=4 vcs=2 routing=minimal_adaptive "
         "switching=pcs",
         "message_bits=8 traffic=hotspot theta=0.1"},
        {"topology=torus k=4 n=2 vcs=3 routing=duato",
         "message_bits=8 traffic=broadcast beta=0.05"},
        {"topology=dcsh k=4 n=2 vcs=1", "message_bits=8 traffic=broadcast "
                                        "beta=0.05"},
    };
    sim_params jobs[NJ];
    for (int i = 0; i < NJ; i++) {
        jobs[i] = make(jobs_def[i].design, jobs_def[i].workload);
        jobs[i].rate = rate_at(&jobs[i], 0.15);
        jobs[i].seed = 21;
        jobs[i].warmup_messages = 500;
        jobs[i].messages = 2000;
    }
    sim_result one[NJ], two[NJ];
    int c1[NJ], c2[NJ];
    err e;
    memset(one, 0, sizeof one);
    memset(two, 0, sizeof two);
    assert_int_equal(sim_run_many(jobs, NJ, 1, one, c1, NULL, NULL, NULL, &e),
                     0);
    assert_int_equal(sim_run_many(jobs, NJ, 2, two, c2, NULL, NULL, NULL, &e),
                     0);
    assert_memory_equal(one, two, sizeof one);
    for (int i = 0; i < NJ; i++)
        if (one[i].status != SIM_OK)
            fail_msg("%s: %s %s", jobs_def[i].design,
                     sim_status_name(one[i].status), one[i].detail);
    assert_true(one[4].broadcasts > 0 && one[4].broadcast_latency > 0);
    assert_true(one[3].path_setup > 0);
    /* replications merge broadcast latencies */
    sim_result rs[2] = {one[4], one[4]}, m;
    rs[1].broadcast_latency += 2;
    sim_result_merge(rs, 2, &m);
    assert_true(fabs(m.broadcast_latency - one[4].broadcast_latency - 1) <
                1e-9);
    assert_true(m.broadcast_latency_ci95 > 0);
    assert_int_equal(m.broadcasts, 2 * one[4].broadcasts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conservation_light),
        cmocka_unit_test(test_conservation_past_saturation),
        cmocka_unit_test(test_per_cycle_limits),
        cmocka_unit_test(test_bound_dcsh_transpose),
        cmocka_unit_test(test_bound_express),
        cmocka_unit_test(test_bound_hotspot),
        cmocka_unit_test(test_bound_broadcast),
        cmocka_unit_test(test_watchdog_express),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
