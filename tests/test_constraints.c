/*
 * test_constraints.c — constraints/: cost formulas against independent
 * counts, the thesis's equal-cost width ratios, rounding, infeasibility,
 * monotonicity, and the `dse cost` command.
 *
 * Independent counts: for small networks of every topology we build the
 * channel list from the topology's definition alone (neighbours from node
 * coordinates via net_coords/net_node_id; DCSH buses with their k-1
 * readers; express-cube rings with an interchange before every kn-th node,
 * local links between consecutive ring elements and m express links between
 * consecutive interchanges, thesis section 6.2), then count by brute force:
 * channels crossing each straight cut, channels touching each node and
 * interchange chip, all channels, all channel receivers.  For networks of
 * at most 16 nodes we also enumerate every balanced partition of the nodes
 * and check that none crosses fewer channels than the bisection reported.
 *
 * Expected ratios come from the thesis (4.13), (6.30), (6.32), the text of
 * sections 4.3 and 6.4 (N = 256: 4x, N = 1024: 8x; express 1024: 4x/8x for
 * m = 1, 2x/4x for m = 3; express 4096 VLSI: 8x/4x) and docs/models/cost.md's
 * derived hypercube and general-n torus forms, evaluated here in closed form.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "constraints/cons.h"
#include "net/net.h"

/* ---- helpers ------------------------------------------------------------ */

static net_design make(net_topology t, int n, int k, int width)
{
    net_design d;
    net_design_init(&d);
    d.topology = t;
    net_design_set_radix(&d, n, k);
    d.vcs = 3;  /* enough for every routing default */
    d.width = width;
    return d;
}

static net_design make_express(int n, int k, int kn, int m, int width)
{
    net_design d = make(NET_EXPRESS, n, k, width);
    d.express_kn = kn;
    d.express_m = m;
    return d;
}

static net_design make_mixed(net_topology t, int n, const int *k)
{
    net_design d = make(t, n, k[0], 1);
    for (int i = 0; i < n; i++)
        d.k[i] = k[i];
    return d;
}

static cons_budget equal_to(const net_design *ref, cons_technology t,
                            cons_rounding r)
{
    cons_budget b;
    memset(&b, 0, sizeof b);
    b.technology = t;
    b.has_reference = 1;
    b.reference = *ref;
    b.rounding = r;
    return b;
}

static cons_budget absolute(double limit, cons_technology t, cons_rounding r)
{
    cons_budget b;
    memset(&b, 0, sizeof b);
    b.technology = t;
    b.limit = limit;
    b.rounding = r;
    return b;
}

static int max_width(const net_design *d, const cons_budget *b)
{
    int w = -1;
    err e;
    err_clear(&e);
    int rc = cons_max_width(d, b, &w, &e);
    if (rc)
        fail_msg("cons_max_width: %s", e.msg);
    return w;
}

/* ---- brute-force channel lists ------------------------------------------ */

/* Elements are nodes (0..N-1) then interchanges (N..).  A channel has one
 * driver and one or more receivers (a DCSH bus has k-1). */
typedef struct bf_net {
    const net_design *d;
    long nodes;
    long elements;
    /* interchanges: dimension, ring base node (coordinate 0 in dim), group */
    int *ic_dim, *ic_group;
    long *ic_base;
    long nics;
    /* channels: driver, receivers [first, first + count) in rx */
    long *src, *rx_first, *rx;
    int *rx_count;
    long nchan, nrx, cap_chan, cap_rx;
} bf_net;

static void bf_add(bf_net *b, long src, const long *dst, int ndst)
{
    if (b->nchan == b->cap_chan) {
        b->cap_chan = b->cap_chan ? 2 * b->cap_chan : 64;
        b->src = realloc(b->src, b->cap_chan * sizeof *b->src);
        b->rx_first = realloc(b->rx_first, b->cap_chan * sizeof *b->rx_first);
        b->rx_count = realloc(b->rx_count, b->cap_chan * sizeof *b->rx_count);
    }
    while (b->nrx + ndst > b->cap_rx) {
        b->cap_rx = b->cap_rx ? 2 * b->cap_rx : 64;
        b->rx = realloc(b->rx, b->cap_rx * sizeof *b->rx);
    }
    b->src[b->nchan] = src;
    b->rx_first[b->nchan] = b->nrx;
    b->rx_count[b->nchan] = ndst;
    memcpy(b->rx + b->nrx, dst, ndst * sizeof *dst);
    b->nrx += ndst;
    b->nchan++;
}

static void bf_add1(bf_net *b, long src, long dst) { bf_add(b, src, &dst, 1); }

static long neighbour(const net_design *d, long id, int dim, int delta,
                      int wrap)
{
    int c[NET_MAX_DIMS];
    net_coords(d, id, c);
    int x = c[dim] + delta;
    if (x < 0 || x >= d->k[dim]) {
        if (!wrap)
            return -1;
        x = (x + d->k[dim]) % d->k[dim];
    }
    c[dim] = x;
    return net_node_id(d, c);
}

static void bf_build_express(bf_net *b)
{
    const net_design *d = b->d;
    int kn = d->express_kn, m = d->express_m;
    for (int dim = 0; dim < d->n; dim++) {
        int k = d->k[dim], groups = k / kn;
        for (long base = 0; base < b->nodes; base++) {
            int c[NET_MAX_DIMS];
            net_coords(d, base, c);
            if (c[dim] != 0)
                continue;
            /* the ring's elements in order: interchange g before node g*kn */
            long ring[4096];
            int len = 0;
            long first_ic = b->nics;
            for (int j = 0; j < k; j++) {
                if (j % kn == 0) {
                    b->ic_dim[b->nics] = dim;
                    b->ic_group[b->nics] = j / kn;
                    b->ic_base[b->nics] = base;
                    ring[len++] = b->nodes + b->nics++;
                }
                ring[len++] = neighbour(d, base, dim, j, 1);
            }
            for (int j = 0; j < len; j++) {
                long a = ring[j], z = ring[(j + 1) % len];
                bf_add1(b, a, z);
                bf_add1(b, z, a);
            }
            for (int g = 0; g < groups; g++) {
                long a = b->nodes + first_ic + g;
                long z = b->nodes + first_ic + (g + 1) % groups;
                for (int r = 0; r < m; r++) {
                    bf_add1(b, a, z);
                    bf_add1(b, z, a);
                }
            }
        }
    }
}

static void bf_build(bf_net *b, const net_design *d)
{
    memset(b, 0, sizeof *b);
    b->d = d;
    b->nodes = net_nodes(d);
    long max_ics = d->topology == NET_EXPRESS ? d->n * b->nodes : 0;
    b->ic_dim = calloc(max_ics + 1, sizeof *b->ic_dim);
    b->ic_group = calloc(max_ics + 1, sizeof *b->ic_group);
    b->ic_base = calloc(max_ics + 1, sizeof *b->ic_base);
    if (d->topology == NET_EXPRESS) {
        bf_build_express(b);
    } else {
        for (long id = 0; id < b->nodes; id++)
            for (int dim = 0; dim < d->n; dim++) {
                switch (d->topology) {
                case NET_TORUS:
                    bf_add1(b, id, neighbour(d, id, dim, +1, 1));
                    bf_add1(b, id, neighbour(d, id, dim, -1, 1));
                    break;
                case NET_MESH:
                    for (int delta = -1; delta <= 1; delta += 2) {
                        long nb = neighbour(d, id, dim, delta, 0);
                        if (nb >= 0)
                            bf_add1(b, id, nb);
                    }
                    break;
                case NET_HYPERCUBE: {
                    int c[NET_MAX_DIMS];
                    net_coords(d, id, c);
                    c[dim] = 1 - c[dim];
                    bf_add1(b, id, net_node_id(d, c));
                    break;
                }
                case NET_DCSH: {
                    long readers[64];
                    int nr = 0;
                    for (int j = 1; j < d->k[dim]; j++)
                        readers[nr++] = neighbour(d, id, dim, j, 1);
                    bf_add(b, id, readers, nr);
                    break;
                }
                default:
                    fail_msg("unexpected topology");
                }
            }
    }
    b->elements = b->nodes + b->nics;
}

static void bf_free(bf_net *b)
{
    free(b->ic_dim);
    free(b->ic_group);
    free(b->ic_base);
    free(b->src);
    free(b->rx_first);
    free(b->rx_count);
    free(b->rx);
}

/* Side of an element for the straight cut across dimension cut: nodes with
 * coordinate < floor(k/2) on side 0.  An interchange of another dimension
 * lies on its ring, whose nodes share the cut coordinate; one of the cut
 * dimension sits at position g*kn - 1/2 (mod k). */
static int bf_side(const bf_net *b, long el, int cut)
{
    const net_design *d = b->d;
    int half = d->k[cut] / 2;
    int c[NET_MAX_DIMS];
    if (el < b->nodes) {
        net_coords(d, el, c);
        return c[cut] >= half;
    }
    long ic = el - b->nodes;
    if (b->ic_dim[ic] != cut) {
        net_coords(d, b->ic_base[ic], c);
        return c[cut] >= half;
    }
    double pos = b->ic_group[ic] * d->express_kn - 0.5;
    if (pos < 0)
        pos += d->k[cut];
    return pos >= half;
}

static long bf_cut(const bf_net *b, int cut)
{
    long crossing = 0;
    for (long c = 0; c < b->nchan; c++) {
        int s = bf_side(b, b->src[c], cut);
        for (int r = 0; r < b->rx_count[c]; r++)
            if (bf_side(b, b->rx[b->rx_first[c] + r], cut) != s) {
                crossing++;  /* the channel's wires cross the cut once */
                break;
            }
    }
    return crossing;
}

/* Channels touching element el, as driver or receiver. */
static long bf_pins(const bf_net *b, long el)
{
    long pins = 0;
    for (long c = 0; c < b->nchan; c++) {
        int touches = b->src[c] == el;
        for (int r = 0; r < b->rx_count[c] && !touches; r++)
            touches = b->rx[b->rx_first[c] + r] == el;
        pins += touches;
    }
    return pins;
}

/* Compare every count of cons_counts_of with the brute force. */
static void check_against_brute_force(const net_design *d)
{
    char text[256];
    net_design_format(d, text, sizeof text);
    cons_counts c;
    err e;
    err_clear(&e);
    if (cons_counts_of(d, &c, &e))
        fail_msg("%s: %s", text, e.msg);
    bf_net b;
    bf_build(&b, d);

    /* bisection: the cheapest straight cut over even radices, else over
     * all dimensions */
    int any_even = 0;
    for (int i = 0; i < d->n; i++)
        any_even |= d->k[i] % 2 == 0;
    long best = -1;
    for (int i = 0; i < d->n; i++) {
        if (any_even && d->k[i] % 2)
            continue;
        long cut = bf_cut(&b, i);
        if (best < 0 || cut < best)
            best = cut;
    }
    if ((double)best != c.bisection_channels)
        fail_msg("%s: bisection %g, brute force %ld", text,
                 c.bisection_channels, best);
    assert_int_equal(c.exact_halves, any_even);
    assert_int_equal(bf_cut(&b, c.cut_dim), best);
    long side0 = 0;
    for (long id = 0; id < b.nodes; id++)
        side0 += bf_side(&b, id, c.cut_dim) == 0;
    if (c.exact_halves)
        assert_int_equal(2 * side0, b.nodes);

    /* pins: the busiest node; every interchange */
    long node_max = 0;
    for (long id = 0; id < b.nodes; id++) {
        long p = bf_pins(&b, id);
        if (p > node_max)
            node_max = p;
    }
    if ((double)node_max != c.node_channels)
        fail_msg("%s: node pins %g, brute force %ld", text, c.node_channels,
                 node_max);
    for (long ic = 0; ic < b.nics; ic++)
        if ((double)bf_pins(&b, b.nodes + ic) != c.interchange_channels)
            fail_msg("%s: interchange pins %g, brute force %ld", text,
                     c.interchange_channels, bf_pins(&b, b.nodes + ic));
    if (b.nics == 0)
        assert_true(c.interchange_channels == 0);

    /* totals */
    if ((double)b.nchan != c.channels)
        fail_msg("%s: channels %g, brute force %ld", text, c.channels, b.nchan);
    if ((double)b.nrx != c.buffered_inputs)
        fail_msg("%s: buffered inputs %g, brute force %ld", text,
                 c.buffered_inputs, b.nrx);
    bf_free(&b);
}

static void test_counts_brute_force(void **state)
{
    (void)state;
    for (int k = 3; k <= 6; k++)
        for (int n = 1; n <= 3; n++) {
            net_design t = make(NET_TORUS, n, k, 1);
            check_against_brute_force(&t);
            net_design m = make(NET_MESH, n, k, 1);
            check_against_brute_force(&m);
            net_design c = make(NET_DCSH, n, k, 1);
            check_against_brute_force(&c);
        }
    for (int n = 1; n <= 6; n++) {
        net_design h = make(NET_HYPERCUBE, n, 2, 1);
        check_against_brute_force(&h);
        net_design m = make(NET_MESH, n, 2, 1);
        check_against_brute_force(&m);
        net_design c = make(NET_DCSH, n, 2, 1);
        check_against_brute_force(&c);
    }
    /* mixed radices, even and odd */
    static const int mixed[][3] = {{4, 6, 0}, {6, 4, 0}, {3, 4, 0}, {5, 3, 0},
                                   {3, 5, 7}, {4, 3, 6}, {2, 5, 0}, {7, 2, 3}};
    for (size_t i = 0; i < sizeof mixed / sizeof mixed[0]; i++) {
        int n = mixed[i][2] ? 3 : 2;
        for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
            if (t == NET_HYPERCUBE || t == NET_EXPRESS)
                continue;
            int has2 = 0;
            for (int j = 0; j < n; j++)
                has2 |= mixed[i][j] == 2;
            if (t == NET_TORUS && has2)
                continue;  /* a 2-node ring is not a torus (net_check) */
            net_design d = make_mixed((net_topology)t, n, mixed[i]);
            check_against_brute_force(&d);
        }
    }
    /* express-cubes: uniform, mixed, odd radix, several m and kn */
    static const int ex[][5] = {
        /* n, k0, k1, kn, m */
        {1, 8, 0, 4, 1},  {1, 8, 0, 2, 3},   {1, 9, 0, 3, 2},
        {2, 8, 8, 4, 1},  {2, 8, 8, 4, 3},   {2, 12, 8, 4, 2},
        {2, 6, 9, 3, 1},  {2, 16, 16, 4, 1}, {3, 4, 4, 2, 1},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        net_design d = make_express(ex[i][0], ex[i][1], ex[i][3], ex[i][4], 1);
        if (ex[i][0] >= 2)
            d.k[1] = ex[i][2] ? ex[i][2] : ex[i][1];
        check_against_brute_force(&d);
    }
}

/* Every balanced partition of <= 16 nodes: none crosses fewer channels
 * than the reported bisection (so the straight cut is a true minimum
 * bisection for these networks). */
static long exhaustive_min_bisection(const net_design *d)
{
    bf_net b;
    bf_build(&b, d);
    long nodes = b.nodes;
    assert_true(nodes <= 16 && nodes % 2 == 0);
    long best = -1;
    /* node 0 on side 1 by symmetry of the two sides */
    for (unsigned mask = 1; mask < (1u << nodes); mask += 2) {
        if (__builtin_popcount(mask) != nodes / 2)
            continue;
        long crossing = 0;
        for (long c = 0; c < b.nchan; c++) {
            unsigned s = (mask >> b.src[c]) & 1;
            for (int r = 0; r < b.rx_count[c]; r++)
                if (((mask >> b.rx[b.rx_first[c] + r]) & 1) != s) {
                    crossing++;
                    break;
                }
        }
        if (best < 0 || crossing < best)
            best = crossing;
    }
    bf_free(&b);
    return best;
}

static void test_bisection_is_minimum(void **state)
{
    (void)state;
    static const struct {
        net_topology t;
        int n, k0, k1;
    } cases[] = {
        {NET_TORUS, 2, 4, 4},     {NET_TORUS, 1, 16, 0}, {NET_TORUS, 2, 3, 4},
        {NET_MESH, 2, 4, 4},      {NET_MESH, 2, 2, 8},   {NET_MESH, 2, 3, 4},
        {NET_HYPERCUBE, 4, 2, 2}, {NET_DCSH, 2, 4, 4},   {NET_DCSH, 2, 2, 8},
        {NET_DCSH, 1, 16, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        net_design d = make(cases[i].t, cases[i].n, cases[i].k0, 1);
        if (cases[i].n == 2)
            d.k[1] = cases[i].k1;
        cons_counts c;
        assert_int_equal(cons_counts_of(&d, &c, NULL), 0);
        long best = exhaustive_min_bisection(&d);
        char text[256];
        net_design_format(&d, text, sizeof text);
        if ((double)best != c.bisection_channels)
            fail_msg("%s: bisection %g, exhaustive minimum %ld", text,
                     c.bisection_channels, best);
    }
}

/* ---- closed forms of [L99] and docs/models/cost.md --------------------- */

static void test_closed_forms(void **state)
{
    (void)state;
    cons_cost c;
    for (int k = 4; k <= 64; k *= 2) {
        double N = (double)k * k;
        for (int w = 1; w <= 5; w += 2) {
            net_design dcsh = make(NET_DCSH, 2, k, w);
            assert_int_equal(cons_cost_of(&dcsh, &c, NULL), 0);
            assert_true(c.bisection_wires == N * w);          /* (4.11) */
            assert_true(c.node_pins == 2.0 * k * w);          /* (4.14) */
            assert_true(c.max_pins == c.node_pins);
            assert_true(c.interchange_pins == 0);
            net_design torus = make(NET_TORUS, 2, k, w);
            assert_int_equal(cons_cost_of(&torus, &c, NULL), 0);
            assert_true(c.bisection_wires == 4 * N / k * w);  /* (4.12) */
            assert_true(c.node_pins == 4.0 * 2 * w);          /* (4.15) */
            for (int m = 1; m <= 3; m += 2) {
                if (k < 8)
                    continue;
                net_design ex = make_express(2, k, 4, m, w);
                assert_int_equal(cons_cost_of(&ex, &c, NULL), 0);
                assert_true(c.bisection_wires == 4.0 * (m + 1) * k * w); /* (6.29) */
                assert_true(c.node_pins == 4.0 * 2 * w);          /* (6.31) */
                assert_true(c.interchange_pins == 4.0 * (m + 1) * w);
                assert_true(c.max_pins == 4.0 * (m + 1) * w);   /* m >= 1: n=2 */
            }
        }
    }
    /* hypercube, docs/models/cost.md: B = N w, P = 2 n w; general-n torus 4
     * k^(n-1) */
    net_design h = make(NET_HYPERCUBE, 10, 2, 3);
    assert_int_equal(cons_cost_of(&h, &c, NULL), 0);
    assert_true(c.bisection_wires == 1024.0 * 3);
    assert_true(c.node_pins == 2.0 * 10 * 3);
    net_design t3 = make(NET_TORUS, 3, 16, 1);
    assert_int_equal(cons_cost_of(&t3, &c, NULL), 0);
    assert_true(c.bisection_wires == 4.0 * 16 * 16);
    assert_true(c.node_pins == 12);
    /* express with n > m + 1: the node binds, max(4n, 4(m+1)) */
    net_design ex3 = make_express(3, 16, 4, 1, 1);
    assert_int_equal(cons_cost_of(&ex3, &c, NULL), 0);
    assert_true(c.node_pins == 12 && c.interchange_pins == 8);
    assert_true(c.max_pins == 12);
    /* buffers: channels x V x depth x w; DCSH inputs are the k-1 readers */
    net_design dc = make(NET_DCSH, 2, 8, 4);
    dc.vcs = 2;
    dc.buffer_flits = 3;
    assert_int_equal(cons_cost_of(&dc, &c, NULL), 0);
    assert_true(c.total_wires == 2.0 * 64 * 4);
    assert_true(c.buffer_bits == 2.0 * 64 * 7 * 2 * 3 * 4);
    net_design tt = make(NET_TORUS, 2, 8, 4);
    tt.vcs = 2;
    assert_int_equal(cons_cost_of(&tt, &c, NULL), 0);
    assert_true(c.total_wires == 4.0 * 64 * 4);
    assert_true(c.buffer_bits == 4.0 * 64 * 2 * 1 * 4);
}

/* ---- the thesis's equal-cost ratios ------------------------------------- */

static void test_thesis_torus_ratio(void **state)
{
    (void)state;
    /* (4.13): under both constraints the torus has k/4 times the DCSH's
     * width; the thesis's N = 256 (4x) and N = 1024 (8x) among them. */
    for (int k = 8; k <= 64; k *= 2) {
        for (int wd = 1; wd <= 3; wd++) {
            net_design dcsh = make(NET_DCSH, 2, k, wd);
            net_design torus = make(NET_TORUS, 2, k, 1);
            for (int t = 0; t <= 1; t++) {
                cons_budget b = equal_to(&dcsh, (cons_technology)t,
                                         CONS_ROUND_FLOOR);
                assert_int_equal(max_width(&torus, &b), k / 4 * wd);
            }
        }
    }
    net_design d256 = make(NET_DCSH, 2, 16, 1), t256 = make(NET_TORUS, 2, 16, 1);
    net_design d1k = make(NET_DCSH, 2, 32, 1), t1k = make(NET_TORUS, 2, 32, 1);
    for (int t = 0; t <= 1; t++) {
        cons_budget b256 = equal_to(&d256, (cons_technology)t, CONS_ROUND_FLOOR);
        cons_budget b1k = equal_to(&d1k, (cons_technology)t, CONS_ROUND_FLOOR);
        assert_int_equal(max_width(&t256, &b256), 4);
        assert_int_equal(max_width(&t1k, &b1k), 8);
    }
    /* the DCSH against itself: width 1 */
    cons_budget self = equal_to(&d1k, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(max_width(&d1k, &self), 1);
}

static void test_thesis_express_ratio(void **state)
{
    (void)state;
    static const struct {
        int k, m, vlsi, multichip;
    } cases[] = {
        /* section 6.4: 1024 nodes, m = 1: 4x (VLSI), 8x (pin-out);
         * m = 3: "reduced to half": 2x, and 4x (docs/models/cost.md) */
        {32, 1, 4, 8},
        {32, 3, 2, 4},
        /* 4096 nodes: 8x (m = 1) and 4x (m = 3) under bisection; pin-out
         * from (6.32), n k / (4(m+1)) = 16 and 8 */
        {64, 1, 8, 16},
        {64, 3, 4, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = cases[i].k, m = cases[i].m;
        net_design dcsh = make(NET_DCSH, 2, k, 1);
        net_design ex = make_express(2, k, 4, m, 1);
        cons_budget bv = equal_to(&dcsh, CONS_VLSI, CONS_ROUND_FLOOR);
        cons_budget bp = equal_to(&dcsh, CONS_MULTICHIP, CONS_ROUND_FLOOR);
        assert_int_equal(max_width(&ex, &bv), cases[i].vlsi);
        assert_int_equal(max_width(&ex, &bp), cases[i].multichip);
        /* the same from (6.30) and (6.32) in closed form */
        assert_int_equal(cases[i].vlsi, k / (4 * (m + 1)));
        assert_int_equal(cases[i].multichip, 2 * k / (4 * (m + 1)));
        /* integer ratios: ceil gives the same */
        bv.rounding = bp.rounding = CONS_ROUND_CEIL;
        assert_int_equal(max_width(&ex, &bv), cases[i].vlsi);
        assert_int_equal(max_width(&ex, &bp), cases[i].multichip);
    }
}

/* docs/models/cost.md, equal-budget widths against a DCSH of the same N:
 * hypercube: bisection w_H = w_D; pin-out w_H = n_D k_D w_D / (2 log2 N);
 * torus (general n): bisection w_T = (k_T/4) w_D; pin-out n_D k_D w_D/(4 n_T). */
static void test_equal_budget_hypercube_and_torus(void **state)
{
    (void)state;
    static const struct {
        int kd, log2n;
    } sizes[] = {{16, 8}, {32, 10}, {64, 12}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int wd = 1; wd <= 3; wd++) {
            net_design dcsh = make(NET_DCSH, 2, sizes[i].kd, wd);
            net_design h = make(NET_HYPERCUBE, sizes[i].log2n, 2, 1);
            cons_budget bv = equal_to(&dcsh, CONS_VLSI, CONS_ROUND_FLOOR);
            cons_budget bp = equal_to(&dcsh, CONS_MULTICHIP, CONS_ROUND_FLOOR);
            assert_int_equal(max_width(&h, &bv), wd);
            int num = 2 * sizes[i].kd * wd, den = 2 * sizes[i].log2n;
            assert_int_equal(max_width(&h, &bp), num / den);
            bp.rounding = CONS_ROUND_CEIL;
            assert_int_equal(max_width(&h, &bp), (num + den - 1) / den);
        }
    }
    /* N = 1024: pin-out ratio 64/20 = 3.2: floor 3, ceil 4 */
    net_design d1k = make(NET_DCSH, 2, 32, 1), h10 = make(NET_HYPERCUBE, 10, 2, 1);
    cons_budget bp = equal_to(&d1k, CONS_MULTICHIP, CONS_ROUND_FLOOR);
    assert_int_equal(max_width(&h10, &bp), 3);
    bp.rounding = CONS_ROUND_CEIL;
    assert_int_equal(max_width(&h10, &bp), 4);

    /* 3D torus k = 16 (N = 4096) against the 64 x 64 DCSH */
    net_design d4k = make(NET_DCSH, 2, 64, 1), t3 = make(NET_TORUS, 3, 16, 1);
    cons_budget bv = equal_to(&d4k, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(max_width(&t3, &bv), 16 / 4);
    bp = equal_to(&d4k, CONS_MULTICHIP, CONS_ROUND_FLOOR);
    assert_int_equal(max_width(&t3, &bp), 128 / 12);         /* 10.67 -> 10 */
    bp.rounding = CONS_ROUND_CEIL;
    assert_int_equal(max_width(&t3, &bp), (128 + 11) / 12);  /* -> 11 */
}

/* ---- rounding, infeasibility, errors ------------------------------------ */

static void test_rounding(void **state)
{
    (void)state;
    /* 8x8 torus: 32 bisection wires per unit width. */
    net_design t = make(NET_TORUS, 2, 8, 1);
    for (double limit = 32; limit <= 400; limit += 7) {
        cons_budget f = absolute(limit, CONS_VLSI, CONS_ROUND_FLOOR);
        cons_budget c = absolute(limit, CONS_VLSI, CONS_ROUND_CEIL);
        int wf = max_width(&t, &f), wc = max_width(&t, &c);
        assert_true(wf * 32.0 <= limit && (wf + 1) * 32.0 > limit);
        assert_true(wc * 32.0 >= limit && (wc - 1) * 32.0 < limit);
        assert_int_equal(wc - wf, fmod(limit, 32) == 0 ? 0 : 1);
        /* the floor respects the budget at the chosen width */
        net_design fit = t;
        assert_int_equal(cons_design_fit(&fit, &f, NULL), 0);
        assert_int_equal(fit.width, wf);
        cons_cost cost;
        assert_int_equal(cons_cost_of(&fit, &cost, NULL), 0);
        assert_true(cost.bisection_wires <= limit);
    }
    cons_budget f = absolute(100, CONS_VLSI, CONS_ROUND_FLOOR);
    cons_budget c = absolute(100, CONS_VLSI, CONS_ROUND_CEIL);
    assert_int_equal(max_width(&t, &f), 3);
    assert_int_equal(max_width(&t, &c), 4);
    /* pins: 8 per wire in a 2D torus; 60 pins -> 7 (floor) or 8 (ceil) */
    cons_budget pf = absolute(60, CONS_MULTICHIP, CONS_ROUND_FLOOR);
    cons_budget pc = absolute(60, CONS_MULTICHIP, CONS_ROUND_CEIL);
    assert_int_equal(max_width(&t, &pf), 7);
    assert_int_equal(max_width(&t, &pc), 8);
    /* cons_width_for directly, exact at large integer ratios */
    int w = 0;
    assert_int_equal(cons_width_for(3.0 * 1000003, 3, CONS_ROUND_FLOOR, &w, NULL), 0);
    assert_int_equal(w, 1000003);
    assert_int_equal(cons_width_for(3.0 * 1000003, 3, CONS_ROUND_CEIL, &w, NULL), 0);
    assert_int_equal(w, 1000003);
    assert_int_equal(cons_width_for(10, 0.1, CONS_ROUND_FLOOR, &w, NULL), 0);
    assert_true(w * 0.1 <= 10 && (w + 1) * 0.1 > 10);
}

static void test_infeasible_and_errors(void **state)
{
    (void)state;
    err e;
    int w = 12345;
    /* 32x32 torus needs 128 bisection wires per unit width */
    net_design t = make(NET_TORUS, 2, 32, 1);
    cons_budget b = absolute(100, CONS_VLSI, CONS_ROUND_FLOOR);
    err_clear(&e);
    assert_int_equal(cons_max_width(&t, &b, &w, &e), ERR_INFEASIBLE);
    assert_int_equal(w, 12345);
    assert_non_null(strstr(e.msg, "width < 1"));
    assert_non_null(strstr(e.msg, "128"));
    /* ceil of a positive ratio is >= 1; a zero budget is infeasible */
    b.rounding = CONS_ROUND_CEIL;
    assert_int_equal(cons_max_width(&t, &b, &w, NULL), 0);
    assert_int_equal(w, 1);
    b.limit = 0;
    assert_int_equal(cons_max_width(&t, &b, &w, NULL), ERR_INFEASIBLE);
    /* a torus against a DCSH with k < 4: the ratio k/4 < 1 */
    net_design dcsh = make(NET_DCSH, 2, 3, 1), t3 = make(NET_TORUS, 2, 3, 1);
    b = equal_to(&dcsh, CONS_VLSI, CONS_ROUND_FLOOR);
    err_clear(&e);
    assert_int_equal(cons_max_width(&t3, &b, &w, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "width < 1"));
    /* a design that fails net_check carries net_check's reason */
    net_design bad = make(NET_TORUS, 2, 8, 1);
    bad.vcs = 1;
    b = absolute(1000, CONS_VLSI, CONS_ROUND_FLOOR);
    err_clear(&e);
    assert_int_equal(cons_max_width(&bad, &b, &w, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "virtual channel"));
    cons_cost c;
    assert_int_equal(cons_cost_of(&bad, &c, NULL), ERR_INFEASIBLE);
    /* a bad reference is reported as such */
    b = equal_to(&bad, CONS_VLSI, CONS_ROUND_FLOOR);
    err_clear(&e);
    assert_int_equal(cons_max_width(&t, &b, &w, &e), ERR_INFEASIBLE);
    assert_non_null(strstr(e.msg, "reference design"));
    /* invalid budgets */
    b = absolute(-5, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(cons_max_width(&t, &b, &w, NULL), ERR_INVALID);
    b = absolute(NAN, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(cons_max_width(&t, &b, &w, NULL), ERR_INVALID);
    b = absolute(1e12, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(cons_max_width(&t, &b, &w, NULL), ERR_INVALID);
    b = absolute(1000, (cons_technology)7, CONS_ROUND_FLOOR);
    assert_int_equal(cons_max_width(&t, &b, &w, NULL), ERR_INVALID);
    double limit;
    assert_int_equal(cons_budget_limit(&b, &limit, NULL), ERR_INVALID);
}

/* The budget is the reference's cost in the technology's measure; for a
 * multi-chip reference that is its binding chip, here an interchange. */
static void test_budget_limit(void **state)
{
    (void)state;
    double limit = -1;
    cons_budget b = absolute(777, CONS_MULTICHIP, CONS_ROUND_FLOOR);
    assert_int_equal(cons_budget_limit(&b, &limit, NULL), 0);
    assert_true(limit == 777);
    net_design dcsh = make(NET_DCSH, 2, 32, 2);
    b = equal_to(&dcsh, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(cons_budget_limit(&b, &limit, NULL), 0);
    assert_true(limit == 1024.0 * 2);                /* (4.11) */
    b.technology = CONS_MULTICHIP;
    assert_int_equal(cons_budget_limit(&b, &limit, NULL), 0);
    assert_true(limit == 2.0 * 32 * 2);              /* (4.14) */
    net_design ex = make_express(2, 32, 4, 3, 1);
    b = equal_to(&ex, CONS_VLSI, CONS_ROUND_FLOOR);
    assert_int_equal(cons_budget_limit(&b, &limit, NULL), 0);
    assert_true(limit == 4.0 * 4 * 32);              /* (6.29) */
    b.technology = CONS_MULTICHIP;
    assert_int_equal(cons_budget_limit(&b, &limit, NULL), 0);
    assert_true(limit == 4.0 * 4);                   /* interchange, (6.31) */
    /* a 32x32 torus (8 pins per wire) at the express-cube's 16 pins: 2 */
    net_design t = make(NET_TORUS, 2, 32, 1);
    assert_int_equal(max_width(&t, &b), 2);
}

static void test_technology_names(void **state)
{
    (void)state;
    cons_technology t;
    for (int i = 0; i <= 1; i++) {
        assert_int_equal(
            cons_technology_parse(cons_technology_name((cons_technology)i), &t),
            0);
        assert_int_equal(t, i);
    }
    assert_int_equal(cons_technology_parse("multi-chip", &t), 0);
    assert_int_equal(t, CONS_MULTICHIP);
    assert_int_equal(cons_technology_parse("asic", &t), ERR_INVALID);
    assert_int_equal(cons_technology_parse(NULL, &t), ERR_INVALID);
}

/* ---- monotonicity -------------------------------------------------------- */

static void test_monotonic(void **state)
{
    (void)state;
    net_design designs[] = {
        make(NET_TORUS, 2, 8, 1),     make(NET_MESH, 3, 4, 1),
        make(NET_HYPERCUBE, 6, 2, 1), make(NET_DCSH, 2, 8, 1),
        make_express(2, 16, 4, 2, 1),
    };
    for (size_t i = 0; i < sizeof designs / sizeof designs[0]; i++) {
        net_design d = designs[i];
        cons_cost prev, cur;
        assert_int_equal(cons_cost_of(&d, &prev, NULL), 0);
        for (d.width = 2; d.width <= 16; d.width++) {
            assert_int_equal(cons_cost_of(&d, &cur, NULL), 0);
            assert_true(cur.bisection_wires > prev.bisection_wires);
            assert_true(cur.node_pins > prev.node_pins);
            assert_true(cur.max_pins > prev.max_pins);
            assert_true(cur.total_wires > prev.total_wires);
            assert_true(cur.buffer_bits > prev.buffer_bits);
            assert_true(cur.interchange_pins >= prev.interchange_pins);
            if (d.topology == NET_EXPRESS)
                assert_true(cur.interchange_pins > prev.interchange_pins);
            prev = cur;
        }
        d.width = 4;
        assert_int_equal(cons_cost_of(&d, &prev, NULL), 0);
        for (d.vcs = 4; d.vcs <= 8; d.vcs++) {
            assert_int_equal(cons_cost_of(&d, &cur, NULL), 0);
            assert_true(cur.buffer_bits > prev.buffer_bits);
            assert_true(cur.bisection_wires == prev.bisection_wires);
            assert_true(cur.max_pins == prev.max_pins);
            assert_true(cur.total_wires == prev.total_wires);
            prev = cur;
        }
        for (d.buffer_flits = 2; d.buffer_flits <= 4; d.buffer_flits++) {
            assert_int_equal(cons_cost_of(&d, &cur, NULL), 0);
            assert_true(cur.buffer_bits > prev.buffer_bits);
            prev = cur;
        }
        /* a larger budget never allows a narrower channel */
        int last = 0;
        for (double limit = 1; limit <= 4096; limit *= 1.5) {
            cons_budget b = absolute(limit, CONS_VLSI, CONS_ROUND_FLOOR);
            int w = 0;
            if (cons_max_width(&d, &b, &w, NULL) == 0) {
                assert_true(w >= last);
                last = w;
            } else {
                assert_int_equal(last, 0);
            }
        }
    }
    /* express: more express channels, more cost, narrower channels */
    net_design dcsh = make(NET_DCSH, 2, 32, 1);
    cons_budget b = equal_to(&dcsh, CONS_VLSI, CONS_ROUND_FLOOR);
    int prev_w = 1 << 30;
    for (int m = 1; m <= 7; m++) {
        net_design ex = make_express(2, 32, 4, m, 1);
        int w = 0;
        if (cons_max_width(&ex, &b, &w, NULL) == 0) {
            assert_true(w <= prev_w);
            prev_w = w;
        }
    }
}

/* ---- the `dse cost` command ---------------------------------------------- */

/* Run the dse binary with args, capture stdout into out; return the exit
 * status. */
static int run_dse(const char *args, char *out, size_t size)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", DSE_BINARY, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t used = fread(out, 1, size - 1, p);
    out[used] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_cli(void **state)
{
    (void)state;
    static char out[65536];
    assert_int_equal(run_dse("cost --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "--equal-to"));
    /* bad input: exit 2 */
    assert_int_equal(run_dse("cost", out, sizeof out), 2);
    assert_int_equal(run_dse("cost 'topology=bogus'", out, sizeof out), 2);
    assert_int_equal(run_dse("cost 'topology=torus n=2 k=2'", out, sizeof out), 2);
    assert_int_equal(run_dse("cost --technology asic 'topology=torus'", out,
                             sizeof out), 2);
    assert_int_equal(run_dse("cost --pins 10 --bisection-wires 10 "
                             "'topology=torus'", out, sizeof out), 2);
    assert_int_equal(run_dse("cost --pins -3 'topology=torus'", out,
                             sizeof out), 2);
    assert_int_equal(run_dse("cost --equal-to 'topology=nope' "
                             "'topology=torus'", out, sizeof out), 2);
    assert_int_equal(run_dse("cost --message-bits 0 'topology=torus'", out,
                             sizeof out), 2);
    /* the thesis's 1024-node comparison, as JSON */
    assert_int_equal(
        run_dse("cost --json --technology multichip "
                "--equal-to 'topology=dcsh n=2 k=32 width=1' "
                "'topology=torus n=2 k=32' "
                "'topology=express n=2 k=32 m=1 kn=4' "
                "'topology=hypercube n=10'",
                out, sizeof out),
        0);
    json_error_t jerr;
    json_t *root = json_loads(out, 0, &jerr);
    if (!root)
        fail_msg("dse cost --json: %s\n%s", jerr.text, out);
    json_t *designs = json_object_get(root, "designs");
    assert_true(json_is_array(designs));
    assert_int_equal(json_array_size(designs), 3);
    static const int expect_width[] = {8, 8, 3};
    static const int expect_flits[] = {16, 16, 43};
    for (size_t i = 0; i < 3; i++) {
        json_t *d = json_array_get(designs, i);
        assert_int_equal(json_integer_value(json_object_get(d, "max_width")),
                         expect_width[i]);
        assert_int_equal(
            json_integer_value(json_object_get(d, "flits_at_max_width")),
            expect_flits[i]);
        assert_int_equal(json_integer_value(json_object_get(d, "flits")), 128);
    }
    json_t *budget = json_object_get(root, "budget");
    assert_true(json_number_value(json_object_get(budget, "limit")) == 64);
    json_decref(root);

    /* table output: one row per design, infeasible reported, exit 0 */
    assert_int_equal(run_dse("cost --bisection-wires 100 "
                             "'topology=torus n=2 k=32' 'topology=torus n=2 k=8'",
                             out, sizeof out),
                     0);
    assert_non_null(strstr(out, "infeasible"));
    assert_non_null(strstr(out, "width < 1"));
    /* the 8x8 torus: 32 wires per unit, 100 wires -> 3 (floor), 4 (ceil) */
    assert_int_equal(run_dse("cost --json --bisection-wires 100 "
                             "'topology=torus n=2 k=8'", out, sizeof out), 0);
    root = json_loads(out, 0, &jerr);
    assert_non_null(root);
    json_t *d0 = json_array_get(json_object_get(root, "designs"), 0);
    assert_int_equal(json_integer_value(json_object_get(d0, "max_width")), 3);
    assert_true(json_number_value(json_object_get(d0, "bisection_wires")) == 32);
    json_decref(root);
    assert_int_equal(run_dse("cost --json --ceil --bisection-wires 100 "
                             "'topology=torus n=2 k=8'", out, sizeof out), 0);
    root = json_loads(out, 0, &jerr);
    assert_non_null(root);
    d0 = json_array_get(json_object_get(root, "designs"), 0);
    assert_int_equal(json_integer_value(json_object_get(d0, "max_width")), 4);
    json_decref(root);
}

/* The physical block (router delay, links, area; constraints/phys.h, whose
 * values tests/test_phys.c checks by hand) through the command. */
static void test_cli_physical(void **state)
{
    (void)state;
    static char out[65536];
    assert_int_equal(run_dse("cost --help", out, sizeof out), 0);
    assert_non_null(strstr(out, "--router chien|peh_dally"));
    assert_non_null(strstr(out, "--fo4-per-tile"));
    assert_int_equal(run_dse("cost --router fixed 'topology=torus'", out,
                             sizeof out), 2);
    assert_int_equal(run_dse("cost --clock-fo4 abc 'topology=torus'", out,
                             sizeof out), 2);
    assert_int_equal(run_dse("cost --fo4-per-tile 2000 'topology=torus'", out,
                             sizeof out), 2);
    assert_int_equal(run_dse("cost --offchip-cycles 0 'topology=torus'", out,
                             sizeof out), 2);

    /* the values of test_chien and test_wires, through the command:
     * 10-cube D_r = 2 (Chien); its dimension 8 spans 16 tiles of the
     * 32 x 32 grid, 16 x 3 FO4 = 48 FO4 at 20: 3 cycles. */
    assert_int_equal(run_dse("cost --json 'topology=hypercube n=10 vcs=1'",
                             out, sizeof out), 0);
    json_error_t jerr;
    json_t *root = json_loads(out, 0, &jerr);
    if (!root)
        fail_msg("dse cost --json: %s\n%s", jerr.text, out);
    json_t *ph = json_object_get(json_array_get(json_object_get(root,
                                                                "designs"), 0),
                                 "physical");
    json_t *router = json_object_get(ph, "router");
    assert_string_equal(json_string_value(json_object_get(router, "model")),
                        "chien");
    assert_int_equal(json_integer_value(json_object_get(router,
                                                        "delay_cycles")), 2);
    assert_int_equal(json_integer_value(json_object_get(
                         router, "study_router_delay")), 2);
    json_t *l8 = json_array_get(json_object_get(ph, "links"), 8);
    assert_int_equal(json_integer_value(json_object_get(l8, "length_tiles")),
                     16);
    assert_int_equal(json_integer_value(json_object_get(l8, "cycles")), 3);
    json_decref(root);

    /* Peh-Dally, speculative, 8x8 torus V = 2 w = 16: 2 stages (test
     * above); off-chip links take the given latency. */
    assert_int_equal(run_dse("cost --json --router peh_dally --speculative "
                             "--offchip-cycles 4 "
                             "'topology=torus n=2 k=8 vcs=2 width=16'",
                             out, sizeof out), 0);
    root = json_loads(out, 0, &jerr);
    assert_non_null(root);
    ph = json_object_get(json_array_get(json_object_get(root, "designs"), 0),
                         "physical");
    router = json_object_get(ph, "router");
    assert_int_equal(json_integer_value(json_object_get(router,
                                                        "delay_cycles")), 2);
    /* in a study: 2 stages + 4 link cycles - 1 = 5 */
    assert_int_equal(json_integer_value(json_object_get(
                         router, "study_router_delay")), 5);
    json_t *l0 = json_array_get(json_object_get(ph, "links"), 0);
    assert_int_equal(json_integer_value(json_object_get(l0, "cycles")), 4);
    json_t *area = json_object_get(ph, "area");
    assert_true(json_number_value(json_object_get(area, "crossbar_tracks2")) ==
                6400);
    json_decref(root);

    /* text output names every part */
    assert_int_equal(run_dse("cost --router peh_dally "
                             "'topology=torus n=2 k=8 vcs=2 width=16'",
                             out, sizeof out), 0);
    assert_non_null(strstr(out, "peh_dally: 3 stages at 20 FO4"));
    /* 3 stages + 1 link cycle (2 tiles x 3 FO4 at 20 FO4) - 1 */
    assert_non_null(strstr(out, "D_r = 3 cycles for the unit router"));
    assert_non_null(strstr(out, "links on a 8x8 tile grid"));
    assert_non_null(strstr(out, "crossbar 6400 tracks^2"));

    /* every printed term of an express-cube and a DCSH, by hand from
     * docs/router-cost.md (default Chien model, 3 FO4 per tile, 20 FO4):
     * express 16x16, m = 1, kn = 4, V = 3, w = 4, deterministic: P = 5,
     * F = 1;
     *   setup 2.7 + 0.6 + (0.4 + 0.6 log2 5 = 1.793) = 5.093 ns,
     *   flit 1.793 + 2.2 + (1.24 + 0.6 log2 3 = 2.191) = 6.184 ns, D_r 1;
     *   local links min(2, 15) = 2 tiles, 6 FO4: 1 cycle; express links
     *   min(2 x 4, 15) = 8 tiles, 24 FO4: 2 cycles;
     *   buffers 4 inputs x 3 VCs x 1 flit x 4 bits = 48, crossbar
     *   (5 x 4)^2 = 400; VC allocator 15 A(3) + 15 A(15) = 45 + 1575 =
     *   1620, switch allocator 5 A(3) + 5 A(5) = 15 + 50 = 65;
     *   wires per dimension 640 local x 4 x 2 + 128 express x 4 x 8 =
     *   9216, two dimensions 18432 wire-tiles. */
    assert_int_equal(run_dse("cost 'topology=express n=2 k=16 m=1 kn=4 vcs=3 "
                             "width=4'", out, sizeof out), 0);
    assert_non_null(strstr(out, "= setup 5.093 ns"));
    assert_non_null(strstr(out, "VC 2.191 = 6.184 ns; D_r = 1 flit cycle"));
    assert_non_null(strstr(out, "dim 0 local 2 tiles 1 cycle; dim 0 express "
                                "8 tiles 2 cycles"));
    assert_non_null(strstr(out, "buffers 48 bits, crossbar 400 tracks^2, "
                                "allocators 1620 + 65 arbiter bits"));
    assert_non_null(strstr(out, "wires 18432 wire-tiles"));
    /* DCSH 8x8, V = 2, w = 2: 7 bus readers per dimension, 14 buffered
     * inputs x 2 VCs x 2 bits = 56 bits; a 7:1 input multiplexer per
     * dimension, 2 x 7 x 1 x 2^2 = 56 tracks^2; buses span 7 tiles,
     * 21 FO4: 2 cycles. */
    assert_int_equal(run_dse("cost 'topology=dcsh n=2 k=8 width=2'", out,
                             sizeof out), 0);
    assert_non_null(strstr(out, "dim 0 bus 7 tiles 2 cycles"));
    assert_non_null(strstr(out, "buffers 56 bits, crossbar 36 tracks^2, "
                                "input multiplexers 56 tracks^2"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_brute_force),
        cmocka_unit_test(test_bisection_is_minimum),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_thesis_torus_ratio),
        cmocka_unit_test(test_thesis_express_ratio),
        cmocka_unit_test(test_equal_budget_hypercube_and_torus),
        cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_infeasible_and_errors),
        cmocka_unit_test(test_budget_limit),
        cmocka_unit_test(test_technology_names),
        cmocka_unit_test(test_monotonic),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_cli_physical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
