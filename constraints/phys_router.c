/*
 * phys_router.c — how long a router takes: its shape (ports, VCs, routing
 * freedom, width) from the design, and two published delay models on
 * that shape.  docs/router-cost.md gives every equation with its source.
 *
 * ---- Shape ------------------------------------------------------------
 * Network channels in and out of one router come from a per-topology
 * table of per-dimension counts (the same structure as cons_count.c's
 * node count, split into the two directions because a DCSH node reads
 * k-1 buses and drives one).  A DCSH node's k-1 bus readers of a
 * dimension hold their own VC buffers and meet in a buffered (k-1):1
 * input multiplexer (the thesis's node, cons_count.c), so they make one
 * crossbar input; the multiplexer's area is counted (phys_area.c), its
 * delay is not in either model.  The crossbar has one more input (injection)
 * and as many more outputs as the node has ejection channels (0, the
 * "unlimited" of net.h, counts as one physical port); P is the larger side.
 * Routing freedom F is the number of output virtual channels the routing
 * function offers a header, as Chien defines it:
 *   deterministic, hop-based     F = 1
 *   P-cube                       F = n            (any unfinished dimension)
 *   minimal adaptive             F = n V          (any minimal direction, any VC)
 *   Duato                        F = n (V - e) + 1  (adaptive VCs of every
 *                                dimension plus the one escape channel;
 *                                e = min VCs - 1 escape VCs)
 *
 * ---- Chien 1998 (ns, 0.8 um CMOS gate array) -------------------------
 *   T_AD   = 2.7                   address decode
 *   T_arb  = 0.6 + 0.6 log2 F      routing decision / arbitration
 *   T_xbar = 0.4 + 0.6 log2 P      crossbar
 *   T_FC   = 2.2                   flow control
 *   T_VC   = 1.24 + 0.6 log2 V     VC controller (absent when V = 1)
 *   setup  = T_AD + T_arb + T_xbar (the header's routing delay)
 *   flit   = T_xbar + T_FC + T_VC  (the data path: the router's clock)
 *   D_r    = ceil(setup / flit) flit cycles.
 *
 * ---- Peh and Dally 2001 (FO4 delays, pipelined) ----------------------
 * Each module has a latency t and an overhead h, given in tau and
 * reported in FO4 (1 FO4 = 5 tau).  Modules run in the order the flow
 * control needs them; a module joins the open stage when the stage's
 * latency so far plus its t + h fits in the clock, else it opens
 * ceil((t + h) / clock) new stages (a module spanning several stages
 * shares none of them).  Routing is one full stage
 * (the paper gives no equation for it; every pipeline it draws gives it a
 * stage).  Modules, by flow control:
 *   wormhole (V = 1):      routing, switch arbiter (p:1), crossbar
 *   VC:                    routing, VC allocator, switch allocator, crossbar
 *   speculative VC:        routing, VC and switch allocation in parallel,
 *                          crossbar
 * The equations are in pd_coeff below and in docs/router-cost.md, which
 * says which of their constants could not be checked against the print.
 */
#include <math.h>

#include "phys.h"
#include "net/topology.h"

typedef struct dir_ops {
    int (*in)(const net_design *d, int i);     /* buffered inputs */
    int (*xin)(const net_design *d, int i);    /* crossbar inputs */
    int (*out)(const net_design *d, int i);
} dir_ops;

static int two(const net_design *d, int i) { (void)d; (void)i; return 2; }
static int one(const net_design *d, int i) { (void)d; (void)i; return 1; }
static int line_side(const net_design *d, int i) { return d->k[i] >= 3 ? 2 : 1; }
static int bus_readers(const net_design *d, int i) { return d->k[i] - 1; }

/* Indexed by net_topology: network channels of dimension i entering the
 * busiest node's router (buffered), the crossbar inputs they make, and
 * the channels leaving it. */
static const dir_ops topology_dirs[NET_TOPOLOGY_COUNT] = {
    [NET_TORUS] = {two, two, two},
    [NET_MESH] = {line_side, line_side, line_side},
    [NET_HYPERCUBE] = {one, one, one},
    [NET_DCSH] = {bus_readers, one, one},
    [NET_EXPRESS] = {two, two, two},
};

static int freedom(const net_design *d)
{
    switch (d->routing) {
    case NET_ROUTE_PCUBE:
        return d->n;
    case NET_ROUTE_MINIMAL_ADAPTIVE:
        return d->n * d->vcs;
    case NET_ROUTE_DUATO: {
        int escape = net_min_vcs(d) - 1;
        return d->n * (d->vcs - escape) + 1;
    }
    case NET_ROUTE_DETERMINISTIC:
    case NET_ROUTE_HOP_BASED:
    default:
        return 1;
    }
}

int phys_router_shape_of(const net_design *d, phys_router_shape *out,
                         err *e)
{
    int rc = net_check(d, e);
    if (rc)
        return rc;
    const dir_ops *ops = &topology_dirs[d->topology];
    phys_router_shape s = {0};
    for (int i = 0; i < d->n; i++) {
        int in = ops->in(d, i), xin = ops->xin(d, i);
        s.buffered_inputs += in;
        s.net_inputs += xin;
        s.net_outputs += ops->out(d, i);
        if (in != xin)
            s.mux_crosspoints += (double)in * xin;
    }
    int eject = d->ejection_channels > 0 ? d->ejection_channels : 1;
    int in = s.net_inputs + 1, outp = s.net_outputs + eject;
    s.ports = in > outp ? in : outp;
    s.vcs = d->vcs;
    s.freedom = freedom(d);
    s.width = d->width;
    *out = s;
    return 0;
}

/* ---- Chien ------------------------------------------------------------- */

void phys_chien_of(const phys_router_shape *s, phys_chien *out)
{
    phys_chien c;
    c.t_ad = 2.7;
    c.t_arb = 0.6 + 0.6 * log2(s->freedom);
    c.t_xbar = 0.4 + 0.6 * log2(s->ports);
    c.t_fc = 2.2;
    c.t_vc = s->vcs > 1 ? 1.24 + 0.6 * log2(s->vcs) : 0;
    c.setup_ns = c.t_ad + c.t_arb + c.t_xbar;
    c.flit_ns = c.t_xbar + c.t_fc + c.t_vc;
    /* the tolerance keeps an exact multiple from rounding up on binary
     * noise */
    c.setup_cycles = (int)ceil(c.setup_ns / c.flit_ns - 1e-9);
    if (c.setup_cycles < 1)
        c.setup_cycles = 1;
    *out = c;
}

/* ---- Peh and Dally ----------------------------------------------------- */

static double log_b(double x, double b) { return log(x) / log(b); }

/* The equations are in logical-effort units tau; an FO4 inverter is
 * 5 tau (effort 4 plus parasitic 1; Sutherland, Sproull and Harris,
 * "Logical Effort", 1999), and the clock is given in FO4. */
#define PD_TAU_PER_FO4 5.0
/* Arbiter delay per log4 of its requesters, the allocators' constant
 * term and their overhead (priority update), in tau (docs/router-cost.md,
 * "Peh and Dally", says which of these were checked against the print). */
#define PD_ARB_PER_LOG4 11.5
#define PD_ALLOC_CONST (20.0 + 5.0 / 6.0)
#define PD_ALLOC_OVERHEAD 9.0

/* Switch arbiter of a wormhole router: one p:1 arbiter per output. */
static double pd_switch_arbiter(const phys_router_shape *s)
{
    return PD_ARB_PER_LOG4 * log_b(s->ports, 4) + PD_ALLOC_CONST;
}

/* Separable VC allocator: a v:1 arbiter per input VC picks an output VC of
 * the routed port, then a pv:1 arbiter per output VC. */
static double pd_vc_alloc(const phys_router_shape *s)
{
    return PD_ARB_PER_LOG4 * log_b(s->vcs, 4) +
           PD_ARB_PER_LOG4 * log_b((double)s->ports * s->vcs, 4) +
           PD_ALLOC_CONST;
}

/* Separable switch allocator: a v:1 arbiter per input port, then a p:1
 * arbiter per output port. */
static double pd_switch_alloc(const phys_router_shape *s)
{
    return PD_ARB_PER_LOG4 * log_b(s->vcs, 4) +
           PD_ARB_PER_LOG4 * log_b(s->ports, 4) + PD_ALLOC_CONST;
}

/* Crossbar traversal: 9 log8(w floor(p/2)) + 6 log2 p + 6, no overhead. */
static double pd_crossbar(const phys_router_shape *s)
{
    double load = (double)s->width * (s->ports / 2);
    return 9 * log_b(load > 1 ? load : 1, 8) + 6 * log2(s->ports) + 6;
}

static void add_module(phys_peh_dally *p, const char *name, double t,
                       double h)
{
    phys_pd_module *m = &p->modules[p->nmodules++];
    m->name = name;
    m->t = t / PD_TAU_PER_FO4;
    m->h = h / PD_TAU_PER_FO4;
}

/* Pack the modules into stages (see the header of this file). */
static void pack(phys_peh_dally *p)
{
    double clk = p->clock_fo4, acc = 0;
    int stages = 0;
    for (int i = 0; i < p->nmodules; i++) {
        phys_pd_module *m = &p->modules[i];
        double need = m->t + m->h;
        if (stages > 0 && acc + need <= clk + 1e-9) {
            acc += m->t;
        } else {
            int k = (int)ceil(need / clk - 1e-9);
            if (k < 1)
                k = 1;
            stages += k;
            /* a module spanning several stages shares none of them */
            acc = k == 1 ? m->t : clk;
        }
        m->stage = stages;
    }
    p->stages = stages;
}

int phys_peh_dally_of(const phys_router_shape *s, double clock_fo4,
                      int speculative, phys_peh_dally *out, err *e)
{
    if (!(clock_fo4 >= PHYS_MIN_CLOCK_FO4 && clock_fo4 <= PHYS_MAX_CLOCK_FO4))
        return err_set(e, ERR_INVALID,
                       "clock %g FO4 is outside [%g, %g]", clock_fo4,
                       PHYS_MIN_CLOCK_FO4, PHYS_MAX_CLOCK_FO4);
    phys_peh_dally p = {0};
    p.clock_fo4 = clock_fo4;
    p.speculative = speculative && s->vcs > 1;
    add_module(&p, "routing", clock_fo4 * PD_TAU_PER_FO4, 0);
    if (s->vcs == 1) {
        add_module(&p, "switch_arbiter", pd_switch_arbiter(s),
                   PD_ALLOC_OVERHEAD);
    } else if (p.speculative) {
        double va = pd_vc_alloc(s), sa = pd_switch_alloc(s);
        add_module(&p, "spec_alloc", va > sa ? va : sa, PD_ALLOC_OVERHEAD);
    } else {
        add_module(&p, "vc_alloc", pd_vc_alloc(s), PD_ALLOC_OVERHEAD);
        add_module(&p, "switch_alloc", pd_switch_alloc(s), PD_ALLOC_OVERHEAD);
    }
    add_module(&p, "crossbar", pd_crossbar(s), 0);
    pack(&p);
    *out = p;
    return 0;
}
