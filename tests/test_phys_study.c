/*
 * test_phys_study.c — router models and the area budget in a study: the
 * `router` key's parsing and errors (FILE:LINE:COLUMN), every design of a
 * Chien-priced study carrying its own D_r, the analytic models' zero-load
 * latency of such a design equal to the simulator's, and budget.area
 * narrowing channels.  Hand values are in docs/router-cost.md and
 * tests/test_phys.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constraints/phys.h"
#include "dse/study/cfg.h"
#include "dse/study/space.h"
#include "models/model.h"
#include "net/net.h"
#include "sim/sim.h"

#define BASE                                                                  \
    "nodes: 64\n"                                                             \
    "budget: {bisection_wires: 256}\n"                                        \
    "message: {bits: 32, length: fixed}\n"                                    \
    "space:\n"                                                                \
    "  topologies: [torus, hypercube]\n"                                      \
    "  dimensions: [2, 3]\n"                                                  \
    "  routings: [deterministic, duato]\n"                                    \
    "  vcs: [2, 4]\n"

static void load(const char *text, cfg_study *s)
{
    err e;
    err_clear(&e);
    if (cfg_study_load_string(text, "t.yaml", s, &e))
        fail_msg("%s", e.msg);
}

static void load_fails(const char *text, int line, int col, const char *part)
{
    cfg_study s;
    err e;
    err_clear(&e);
    assert_int_equal(cfg_study_load_string(text, "t.yaml", &s, &e),
                     ERR_CONFIG);
    if (e.line != line || e.column != col || !strstr(e.msg, part))
        fail_msg("got %d:%d %s, want %d:%d ...%s...", e.line, e.column,
                 e.msg, line, col, part);
}

static void test_parse(void **state)
{
    (void)state;
    cfg_study s;
    load(BASE, &s);
    assert_int_equal(s.router.model, PHYS_ROUTER_FIXED);
    assert_int_equal(s.router_delay, 1);
    cfg_study_fini(&s);
    load(BASE "router: {model: fixed, delay: 3}\n", &s);
    assert_int_equal(s.router_delay, 3);
    cfg_study_fini(&s);
    load(BASE "router: {model: peh_dally, clock_fo4: 15, speculative: true, "
              "fo4_per_tile: 4.5}\n",
         &s);
    assert_int_equal(s.router.model, PHYS_ROUTER_PEH_DALLY);
    assert_true(s.router.clock_fo4 == 15 && s.router.speculative == 1 &&
                s.router.fo4_per_tile == 4.5);
    cfg_study_fini(&s);
    load("nodes: 64\n"
         "budget: {bisection_wires: 256, area: {crossbar_area: 1e5}}\n"
         "objectives: [latency, cost(crossbar_area)]\n",
         &s);
    assert_true(s.area.crossbar_area == 1e5 && s.area.buffer_bits == 0);
    assert_int_equal(s.objectives[1].cost, CFG_COST_CROSSBAR_AREA);
    cfg_study_fini(&s);

    load_fails(BASE "router: {model: chein}\n", 9, 17, "router model");
    load_fails(BASE "router: {model: chien, clock_fo4: 20}\n", 9, 24,
               "does not apply to router model chien");
    load_fails(BASE "router: {model: peh_dally, clock_fo4: 2}\n", 9, 39,
               "clock period in FO4 in [5, 1000]");
    load_fails(BASE "router_delay: 2\nrouter: {model: chien}\n", 9, 1,
               "give the router delay once");
    load_fails(BASE "router: {delay: 2}\n", 9, 9, "missing required key");
    load_fails("nodes: 64\ntechnology: multichip\n"
               "budget: {pins_per_node: 64, area: {wire_length: 5}}\n",
               3, 29, "single chip");
}

/* Every design of a Chien-priced study has D_r = ceil(setup / flit) of its
 * own shape; the models' zero load and the simulator's agree on one. */
static void test_chien_study(void **state)
{
    (void)state;
    cfg_study s;
    load(BASE "router: {model: chien}\n", &s);
    dse_space sp;
    err e;
    err_clear(&e);
    assert_int_equal(dse_space_build(&s, &sp, &e), 0);
    assert_true(sp.count > 4);
    /* Hand values (ns, docs/router-cost.md):
     *   8x8 torus, deterministic, V = 2: P = 5, F = 1
     *     setup 2.7 + 0.6 + 1.7931569 = 5.0931569
     *     flit  1.7931569 + 2.2 + 1.24 + 0.6 = 5.8331569      D_r = 1
     *   6-cube, Duato, V = 4: P = 7, e = 1, F = 6 x 3 + 1 = 19
     *     setup 2.7 + (0.6 + 0.6 log2 19 = 3.1487565) + 2.0844129
     *           = 7.9331694
     *     flit  2.0844129 + 2.2 + 1.24 + 1.2 = 6.7244129      D_r = 2 */
    const net_design *torus = NULL, *cube = NULL;
    const model *cube_model = NULL;
    for (size_t i = 0; i < sp.count; i++) {
        const net_design *d = &sp.designs[i];
        phys_router_shape sh;
        phys_chien c;
        assert_int_equal(phys_router_shape_of(d, &sh, &e), 0);
        phys_chien_of(&sh, &c);
        assert_int_equal(d->router_delay, c.setup_cycles);
        if (d->topology == NET_TORUS && d->n == 2 && d->vcs == 2 &&
            d->routing == NET_ROUTE_DETERMINISTIC)
            torus = d;
        if (d->topology == NET_HYPERCUBE && d->vcs == 4 &&
            d->routing == NET_ROUTE_DUATO) {
            cube = d;
            cube_model = sp.models[i];
        }
    }
    assert_non_null(torus);
    assert_non_null(cube);
    assert_int_equal(torus->router_delay, 1);
    assert_int_equal(cube->router_delay, 2);

    /* the models' zero load of the 6-cube with its Chien D_r = 2 is the
     * simulator's: hops (1 + D_r) + flits */
    const net_design *d = cube;
    net_workload w = s.workload;
    assert_non_null(cube_model);
    model_opts o;
    model_opts_init(&o);
    double z = cube_model->zero_load(d, &w, &o);
    double want = net_avg_distance(d) * (1 + d->router_delay) +
                  net_message_flits(d, &w);
    if (fabs(z - want) > 1e-9 * want)
        fail_msg("%s: zero load %.6f, hops x 3 + flits %.6f",
                 cube_model->name, z, want);
    sim_params p;
    sim_params_init(&p);
    p.design = *d;
    p.workload = w;
    p.rate = 1.0 / (3000.0 * (double)net_nodes(d));
    p.warmup_messages = 200;
    p.messages = 4000;
    p.seed = 3;
    sim_result r;
    assert_int_equal(sim_run(&p, &r, &e), 0);
    if (fabs(r.latency - z) > 0.01 * z)
        fail_msg("simulated %.4f, models %.4f (D_r %d)", r.latency, z,
                 d->router_delay);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* budget.area narrows the widest channel to the widest that fits: the
 * 8x8 torus (P = 5) at w has 64 (5 w)^2 = 1600 w^2 tracks^2 of crossbar;
 * a bound of 1600 x 16 = 25600 allows w = 4, below the bisection's 8. */
static void test_area_budget(void **state)
{
    (void)state;
    cfg_study s;
    load("nodes: 64\nbudget: {bisection_wires: 256, "
         "area: {crossbar_area: 25600}}\n"
         "space: {topologies: [torus], dimensions: [2], "
         "routings: [deterministic], vcs: [2]}\n",
         &s);
    dse_space sp;
    err e;
    err_clear(&e);
    assert_int_equal(dse_space_build(&s, &sp, &e), 0);
    assert_int_equal(sp.count, 1);
    assert_int_equal(sp.designs[0].width, 4);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
    /* one wire already over: dropped for the area */
    load("nodes: 64\nbudget: {bisection_wires: 256, "
         "area: {crossbar_area: 1000}}\n"
         "space: {topologies: [torus], dimensions: [2], "
         "routings: [deterministic], vcs: [2]}\n",
         &s);
    assert_int_equal(dse_space_build(&s, &sp, &e), 0);
    assert_int_equal(sp.count, 0);
    assert_int_equal(sp.dropped[DSE_DROP_AREA], 1);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* cons_cost carries the area totals the objectives and budget.area read:
 * the 8x8 torus, V = 2, depth 2, w = 16 of tests/test_phys.c, test_area:
 * crossbars 64 x (5 x 16)^2 = 409600 tracks^2; wires 2 x 64 channels per
 * dimension x 2 dimensions x 16 wires x 2 tiles = 8192 wire-tiles. */
static void test_cost_area(void **state)
{
    (void)state;
    net_design d;
    net_design_init(&d);
    d.topology = NET_TORUS;
    net_design_set_radix(&d, 2, 8);
    d.vcs = 2;
    d.buffer_flits = 2;
    d.width = 16;
    cons_cost c;
    err e;
    err_clear(&e);
    assert_int_equal(cons_cost_of(&d, &c, &e), 0);
    assert_true(fabs(c.crossbar_area - 409600) < 1e-9);
    assert_true(fabs(c.wire_length - 8192) < 1e-9);
    assert_true(fabs(c.buffer_bits - 16384) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_chien_study),
        cmocka_unit_test(test_area_budget),
        cmocka_unit_test(test_cost_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
