/*
 * test_space.c — dse/space: design-space enumeration.
 *
 * Counts are checked twice: against numbers worked out by hand in the
 * comments, and against an independent brute-force count in this file
 * (radices by trying every k, factorisations by trying every tuple, VC
 * minima from the table of docs/models/semantics.md, "Minimum virtual
 * channels" typed in here), never
 * against the code under test.  Also: the enumeration order is
 * deterministic, every combination is feasible or dropped exactly once
 * (enumerated = feasible + sum of reasons, per topology too), widths come
 * from the budget, and require_model drops exactly the designs model_for
 * does not cover.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraints/cons.h"
#include "dse/study/cfg.h"
#include "dse/study/space.h"

static void load(const char *text, cfg_study *s)
{
    err e;
    err_clear(&e);
    int rc = cfg_study_load_string(text, "t.yaml", s, &e);
    if (rc) {
        char buf[1024];
        print_error("%s\n", err_format(&e, buf, sizeof buf));
    }
    assert_int_equal(rc, 0);
}

static void build(const cfg_study *s, dse_space *sp)
{
    err e;
    err_clear(&e);
    int rc = dse_space_build(s, sp, &e);
    if (rc)
        print_error("%s\n", e.msg);
    assert_int_equal(rc, 0);
    /* the count made without enumerating agrees with the enumeration */
    assert_true(dse_space_enumerated(s) == (double)sp->enumerated);
}

/* enumerated = feasible + dropped, overall and per topology. */
static void check_accounting(const dse_space *sp)
{
    size_t dropped = 0, enumerated = 0, feasible = 0;
    for (int r = 0; r < DSE_DROP_COUNT; r++) {
        dropped += sp->dropped[r];
        /* an example is recorded exactly for the reasons that occurred */
        assert_int_equal(sp->example[r][0] != '\0', sp->dropped[r] != 0);
    }
    assert_int_equal(sp->enumerated, sp->count + dropped);
    for (int t = 0; t < NET_TOPOLOGY_COUNT; t++) {
        enumerated += sp->enumerated_by_topology[t];
        feasible += sp->feasible_by_topology[t];
    }
    assert_int_equal(enumerated, sp->enumerated);
    assert_int_equal(feasible, sp->count);
    size_t unmodelled = 0;
    for (size_t i = 0; i < sp->count; i++) {
        err e;
        err_clear(&e);
        assert_int_equal(net_check(&sp->designs[i], &e), 0);
        assert_true(sp->designs[i].width >= 1);
        unmodelled += sp->models[i] == NULL;
    }
    assert_int_equal(unmodelled, sp->unmodelled);
}

/* ---- independent oracles -------------------------------------------------- */

/* k with k^n = N by trying every k. */
static int brute_root(long nodes, int n)
{
    for (long k = 2; k <= nodes; k++) {
        long p = 1;
        for (int i = 0; i < n && p <= nodes; i++)
            p *= k;
        if (p == nodes)
            return (int)k;
        if (p > nodes)
            break;
    }
    return 0;
}

/* Minimum VCs, docs/models/semantics.md, "Minimum virtual channels"
 * (wormhole; -1 = not applicable). */
static int table_min_vcs(net_topology t, int n, const char *routing)
{
    int det = strcmp(routing, "deterministic") == 0;
    int duato = strcmp(routing, "duato") == 0;
    switch (t) {
    case NET_TORUS: return det ? 2 : duato ? 3 : -1;
    case NET_HYPERCUBE: return det ? 1 : duato ? 2 : -1;
    case NET_DCSH: return det ? 1 : duato ? 2 : -1;
    case NET_EXPRESS: return det ? 2 : -1;
    default: (void)n; return -1;
    }
}

/* ---- tests -------------------------------------------------------------- */

#define SMALL                                                                 \
    "nodes: 64\n"                                                             \
    "budget: {bisection_wires: 100000}\n"                                     \
    "space:\n"                                                                \
    "  topologies: [torus, hypercube, dcsh]\n"                                \
    "  dimensions: [2, 3, 4]\n"                                               \
    "  vcs: [1, 2, 3]\n"                                                      \
    "  routings: [deterministic, duato]\n"                                    \
    "  buffer_flits: [1, 2]\n"                                                \
    "  require_model: false\n"

/* N = 64; torus and DCSH get k = 8 (n = 2), 4 (n = 3), none for n = 4;
 * the hypercube n = 6.  Each (topology, n) has 2 routings x 3 vcs x 2
 * buffers = 12 combinations:
 *   torus:  36 enumerated; n = 4 -> 12 "not a perfect power"; for n = 2, 3
 *           deterministic needs 2 VCs (drops vcs 1), Duato 3 (drops 1, 2):
 *           3 x 2 buffers = 6 VC drops and 6 feasible per n.
 *   hypercube: 12 enumerated; Duato needs 2: 2 VC drops, 10 feasible.
 *   dcsh:   36 enumerated; 12 not a perfect power; Duato needs 2: per n
 *           2 VC drops and 10 feasible.
 * Totals: 84 enumerated, 42 feasible, 24 + 18 dropped. */
static void test_small_counts_by_hand(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load(SMALL, &s);
    build(&s, &sp);
    check_accounting(&sp);
    assert_int_equal(sp.enumerated, 84);
    assert_int_equal(sp.count, 42);
    assert_int_equal(sp.dropped[DSE_DROP_NOT_PERFECT_POWER], 24);
    assert_int_equal(sp.dropped[DSE_DROP_VCS], 18);
    assert_int_equal(sp.enumerated_by_topology[NET_TORUS], 36);
    assert_int_equal(sp.enumerated_by_topology[NET_HYPERCUBE], 12);
    assert_int_equal(sp.enumerated_by_topology[NET_DCSH], 36);
    assert_int_equal(sp.feasible_by_topology[NET_TORUS], 12);
    assert_int_equal(sp.feasible_by_topology[NET_HYPERCUBE], 10);
    assert_int_equal(sp.feasible_by_topology[NET_DCSH], 20);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* The same study counted by brute force from the study's lists. */
static void test_small_counts_brute_force(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load(SMALL, &s);
    build(&s, &sp);
    size_t enumerated = 0, feasible = 0, not_power = 0, vcs = 0;
    const char *routings[] = {"deterministic", "duato"};
    for (size_t t = 0; t < s.space.ntopologies; t++) {
        net_topology topo = s.space.topologies[t];
        size_t ndims = topo == NET_HYPERCUBE ? 1 : s.space.dimensions.n;
        for (size_t di = 0; di < ndims; di++) {
            int n = topo == NET_HYPERCUBE ? 6 : s.space.dimensions.v[di];
            int k = topo == NET_HYPERCUBE ? 2 : brute_root(s.nodes, n);
            for (int r = 0; r < 2; r++)
                for (size_t v = 0; v < s.space.vcs.n; v++)
                    for (size_t b = 0; b < s.space.buffer_flits.n; b++) {
                        enumerated++;
                        if (!k) {
                            not_power++;
                            continue;
                        }
                        if (s.space.vcs.v[v] < table_min_vcs(topo, n,
                                                             routings[r])) {
                            vcs++;
                            continue;
                        }
                        feasible++;
                    }
        }
    }
    assert_int_equal(sp.enumerated, enumerated);
    assert_int_equal(sp.count, feasible);
    assert_int_equal(sp.dropped[DSE_DROP_NOT_PERFECT_POWER], not_power);
    assert_int_equal(sp.dropped[DSE_DROP_VCS], vcs);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* Order: topology, n, routing, vcs, buffer (see space.h). */
static void test_order_deterministic(void **state)
{
    (void)state;
    cfg_study s;
    dse_space a, b;
    load(SMALL, &s);
    build(&s, &a);
    build(&s, &b);
    assert_int_equal(a.count, b.count);
    for (size_t i = 0; i < a.count; i++) {
        char ta[512], tb[512];
        net_design_format(&a.designs[i], ta, sizeof ta);
        net_design_format(&b.designs[i], tb, sizeof tb);
        assert_string_equal(ta, tb);
    }
    /* the first feasible designs: torus n=2 k=8, deterministic with 2 and
     * 3 VCs, each with buffers 1 then 2; then Duato with 3 VCs */
    const struct {
        net_topology t;
        int n, k, vcs, buffer;
        net_routing r;
    } want[] = {
        {NET_TORUS, 2, 8, 2, 1, NET_ROUTE_DETERMINISTIC},
        {NET_TORUS, 2, 8, 2, 2, NET_ROUTE_DETERMINISTIC},
        {NET_TORUS, 2, 8, 3, 1, NET_ROUTE_DETERMINISTIC},
        {NET_TORUS, 2, 8, 3, 2, NET_ROUTE_DETERMINISTIC},
        {NET_TORUS, 2, 8, 3, 1, NET_ROUTE_DUATO},
        {NET_TORUS, 2, 8, 3, 2, NET_ROUTE_DUATO},
        {NET_TORUS, 3, 4, 2, 1, NET_ROUTE_DETERMINISTIC},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const net_design *d = &a.designs[i];
        assert_int_equal(d->topology, want[i].t);
        assert_int_equal(d->n, want[i].n);
        assert_int_equal(d->k[0], want[i].k);
        assert_int_equal(d->vcs, want[i].vcs);
        assert_int_equal(d->buffer_flits, want[i].buffer);
        assert_int_equal(d->routing, want[i].r);
    }
    /* topologies appear in study order, each in one block */
    net_topology last = a.designs[0].topology;
    int changes = 0;
    for (size_t i = 1; i < a.count; i++)
        if (a.designs[i].topology != last) {
            changes++;
            last = a.designs[i].topology;
        }
    assert_int_equal(changes, 2);
    assert_int_equal(a.designs[a.count - 1].topology, NET_DCSH);
    dse_space_fini(&a);
    dse_space_fini(&b);
    cfg_study_fini(&s);
}

/* Widths: torus k-ary n-cube bisection 4 k^(n-1) w, DCSH and hypercube
 * N w (docs/models/cost.md), floor(100000 / unit). */
static void test_widths_from_budget(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load(SMALL, &s);
    build(&s, &sp);
    assert_true(sp.budget_limit == 100000.0);
    for (size_t i = 0; i < sp.count; i++) {
        const net_design *d = &sp.designs[i];
        long unit = d->topology == NET_TORUS
                        ? 4L * (d->n == 2 ? 8 : 16)
                        : 64;
        assert_int_equal(d->width, 100000 / unit);
    }
    dse_space_fini(&sp);
    cfg_study_fini(&s);

    /* a budget of 1 wire: every design that gets that far has width < 1 */
    load("nodes: 64\nbudget: {bisection_wires: 1}\n"
         "space:\n  topologies: [torus, dcsh]\n  dimensions: [2]\n"
         "  vcs: [3]\n  routings: [deterministic]\n",
         &s);
    build(&s, &sp);
    check_accounting(&sp);
    assert_int_equal(sp.enumerated, 2);
    assert_int_equal(sp.count, 0);
    assert_int_equal(sp.dropped[DSE_DROP_WIDTH], 2);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* Factorisations by trying every non-increasing tuple of divisors. */
static size_t brute_factorisations(long nodes, int n, int *out)
{
    int div[64], ndiv = 0, idx[8];
    for (long f = 2; f <= nodes; f++)
        if (nodes % f == 0)
            div[ndiv++] = (int)f;
    size_t found = 0;
    for (int i = 0; i < n; i++)
        idx[i] = 0;
    /* odometer over div^n: tuples in increasing lexicographic order */
    for (;;) {
        long p = 1;
        int ok = 1;
        for (int i = 0; i < n; i++) {
            p *= div[idx[i]];
            if (i && idx[i] > idx[i - 1])
                ok = 0;
        }
        if (ok && p == nodes) {
            for (int i = 0; i < n; i++)
                out[found * (size_t)n + (size_t)i] = div[idx[i]];
            found++;
        }
        int i = n - 1;
        while (i >= 0 && idx[i] == ndiv - 1)
            idx[i--] = 0;
        if (i < 0)
            break;
        idx[i]++;
    }
    return found;
}

static void test_factorisations(void **state)
{
    (void)state;
    /* 24 = 12x2 = 8x3 = 6x4; 6x2x2 = 4x3x2 */
    int got[64 * 4];
    assert_int_equal(dse_space_factorisations(24, 2, got, 64), 3);
    const int want2[] = {12, 2, 8, 3, 6, 4};
    assert_memory_equal(got, want2, sizeof want2);
    assert_int_equal(dse_space_factorisations(24, 3, got, 64), 2);
    const int want3[] = {6, 2, 2, 4, 3, 2};
    assert_memory_equal(got, want3, sizeof want3);
    assert_int_equal(dse_space_factorisations(24, 5, NULL, 0), 0);

    /* against brute force: same set; ours is lexicographically
     * decreasing, the brute force's increasing (odometer) */
    const long nodes[] = {24, 36, 64, 72, 96, 128};
    for (size_t a = 0; a < sizeof nodes / sizeof nodes[0]; a++)
        for (int n = 1; n <= 4; n++) {
            int mine[256 * 4], brute[256 * 4];
            size_t cm = dse_space_factorisations(nodes[a], n, mine, 256);
            size_t cb = brute_factorisations(nodes[a], n, brute);
            assert_int_equal(cm, cb);
            for (size_t i = 0; i < cm; i++)
                assert_memory_equal(mine + i * (size_t)n,
                                    brute + (cb - 1 - i) * (size_t)n,
                                    (size_t)n * sizeof(int));
        }
}

/* Mixed radices, N = 24, n = 2, 3: five factorisations (above).  The DCSH
 * takes all five; the torus only those without a radix 2 (8x3, 6x4). */
static void test_mixed_radices(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load("nodes: 24\nbudget: {bisection_wires: 10000}\n"
         "space:\n  topologies: [dcsh, torus]\n  dimensions: [2, 3, 5]\n"
         "  mixed_radices: true\n  vcs: [2]\n"
         "  routings: [deterministic]\n  require_model: false\n",
         &s);
    build(&s, &sp);
    check_accounting(&sp);
    /* dcsh: 5 + 1 (n = 5: no factorisation); torus the same */
    assert_int_equal(sp.enumerated, 12);
    assert_int_equal(sp.dropped[DSE_DROP_NO_FACTORISATION], 2);
    assert_int_equal(sp.dropped[DSE_DROP_RADIX], 3);
    assert_int_equal(sp.feasible_by_topology[NET_DCSH], 5);
    assert_int_equal(sp.feasible_by_topology[NET_TORUS], 2);
    assert_int_equal(sp.designs[0].k[0], 12);
    assert_int_equal(sp.designs[0].k[1], 2);
    assert_int_equal(sp.designs[5].topology, NET_TORUS);
    assert_int_equal(sp.designs[5].k[0], 8);
    assert_int_equal(sp.designs[5].k[1], 3);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* "all" routings expand per topology to the schemes that apply
 * (docs/models/semantics.md, "Minimum virtual channels"): torus 2D:
 * deterministic, duato, hop_based,
 * minimal_adaptive; 3D: not minimal_adaptive; hypercube: deterministic,
 * duato, pcube, hop_based, pcs; dcsh: deterministic, duato, hop_based;
 * express: deterministic.  An explicitly named scheme that does not apply
 * is counted as dropped instead. */
static void test_routings_all_and_explicit(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load("nodes: 64\nbudget: {bisection_wires: 100000}\n"
         "space:\n  topologies: [torus, hypercube, dcsh, express]\n"
         "  dimensions: [2, 3]\n  vcs: [1]\n  express_m: [1]\n"
         "  express_kn: [4]\n  require_model: false\n",
         &s);
    build(&s, &sp);
    check_accounting(&sp);
    assert_int_equal(sp.enumerated_by_topology[NET_TORUS], 4 + 3);
    assert_int_equal(sp.enumerated_by_topology[NET_HYPERCUBE], 5);
    assert_int_equal(sp.enumerated_by_topology[NET_DCSH], 3 + 3);
    assert_int_equal(sp.enumerated_by_topology[NET_EXPRESS], 1 + 1);
    assert_int_equal(sp.dropped[DSE_DROP_ROUTING], 0);
    dse_space_fini(&sp);
    cfg_study_fini(&s);

    load("nodes: 64\nbudget: {bisection_wires: 100000}\n"
         "space:\n  topologies: [torus, hypercube]\n  dimensions: [2]\n"
         "  vcs: [4]\n  routings: [pcube, deterministic]\n"
         "  require_model: false\n",
         &s);
    build(&s, &sp);
    check_accounting(&sp);
    assert_int_equal(sp.enumerated, 4);
    assert_int_equal(sp.dropped[DSE_DROP_ROUTING], 1);  /* pcube on torus */
    assert_int_equal(sp.count, 3);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* Express: N = 256, 16x16; kn = 3 does not divide 16, kn = 8 gives two
 * groups, kn = 16 only one (needs >= 2). */
static void test_express_kn(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load("nodes: 256\nbudget: {bisection_wires: 100000}\n"
         "space:\n  topologies: [express]\n  dimensions: [2]\n"
         "  vcs: [2]\n  express_m: [1, 2]\n  express_kn: [3, 8, 16]\n"
         "  require_model: false\n",
         &s);
    build(&s, &sp);
    check_accounting(&sp);
    assert_int_equal(sp.enumerated, 6);
    assert_int_equal(sp.dropped[DSE_DROP_PARAMS], 4);
    assert_int_equal(sp.count, 2);
    for (size_t i = 0; i < sp.count; i++)
        assert_int_equal(sp.designs[i].express_kn, 8);
    assert_int_equal(sp.designs[0].express_m, 1);
    assert_int_equal(sp.designs[1].express_m, 2);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* require_model drops exactly the designs model_for does not cover, and
 * keeps each covered design with its model. */
static void test_require_model(void **state)
{
    (void)state;
    cfg_study s;
    dse_space all, modelled;
    load(SMALL, &s);
    build(&s, &all);
    s.space.require_model = 1;
    build(&s, &modelled);
    check_accounting(&modelled);
    size_t uncovered = 0, j = 0;
    for (size_t i = 0; i < all.count; i++) {
        const model *m = model_for(&all.designs[i], &s.workload, NULL, 0);
        if (!m) {
            uncovered++;
            continue;
        }
        /* the modelled space is the covered subsequence, in order */
        assert_true(j < modelled.count);
        assert_memory_equal(&modelled.designs[j], &all.designs[i],
                            sizeof(net_design));
        assert_ptr_equal(modelled.models[j], m);
        j++;
    }
    assert_int_equal(j, modelled.count);
    assert_int_equal(modelled.dropped[DSE_DROP_NO_MODEL], uncovered);
    assert_int_equal(all.unmodelled, uncovered);
    assert_int_equal(modelled.unmodelled, 0);
    dse_space_fini(&all);
    dse_space_fini(&modelled);
    cfg_study_fini(&s);
}

/* Transpose needs symmetric radices: 8x4x2... on the DCSH with mixed
 * radices; 4x4x4 passes. */
static void test_workload_drop(void **state)
{
    (void)state;
    cfg_study s;
    dse_space sp;
    load("nodes: 64\nbudget: {bisection_wires: 100000}\ntraffic: transpose\n"
         "space:\n  topologies: [dcsh]\n  dimensions: [3]\n"
         "  mixed_radices: true\n  vcs: [1]\n  routings: [deterministic]\n"
         "  require_model: false\n",
         &s);
    build(&s, &sp);
    check_accounting(&sp);
    /* 64 = 16x2x2 = 8x4x2 = 4x4x4: only 4x4x4 is symmetric */
    assert_int_equal(sp.enumerated, 3);
    assert_int_equal(sp.dropped[DSE_DROP_WORKLOAD], 2);
    assert_int_equal(sp.count, 1);
    assert_int_equal(sp.designs[0].k[0], 4);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* Every shipped config: accounting holds and the space is non-empty. */
static void test_shipped_spaces(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob("configs/*.yaml", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        cfg_study s;
        dse_space sp;
        err e;
        err_clear(&e);
        assert_int_equal(cfg_study_load(g.gl_pathv[i], &s, &e), 0);
        build(&s, &sp);
        check_accounting(&sp);
        assert_true(sp.enumerated >= 20);
        assert_true(sp.enumerated <= 5000);
        dse_space_fini(&sp);
        cfg_study_fini(&s);
    }
    globfree(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_counts_by_hand),
        cmocka_unit_test(test_small_counts_brute_force),
        cmocka_unit_test(test_order_deterministic),
        cmocka_unit_test(test_widths_from_budget),
        cmocka_unit_test(test_factorisations),
        cmocka_unit_test(test_mixed_radices),
        cmocka_unit_test(test_routings_all_and_explicit),
        cmocka_unit_test(test_express_kn),
        cmocka_unit_test(test_require_model),
        cmocka_unit_test(test_workload_drop),
        cmocka_unit_test(test_shipped_spaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
