/*
 * test_config.c — dse/cfg: study files.
 *
 * Malformed studies: each asserts the exact line, column, YAML path and
 * message of the error (positions counted by hand from the text, 1-based).
 * Golden studies: a minimal one takes every default, a full one overrides
 * every key; every shipped config in configs/ loads.  Last, `dse check` on
 * a bad file prints the gcc-style location, the source line and a caret,
 * and exits 2.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dse/study/cfg.h"

#define BUDGET "budget: {bisection_wires: 4096}\n"

/* Load text as "t.yaml"; assert failure at (line, column, path, msg). */
static void expect_error(const char *text, int line, int column,
                         const char *path, const char *msg)
{
    cfg_study s;
    err e;
    err_clear(&e);
    int rc = cfg_study_load_string(text, "t.yaml", &s, &e);
    if (rc != ERR_CONFIG || e.line != line || e.column != column ||
        strcmp(e.path, path) != 0 || strcmp(e.msg, msg) != 0)
        print_error("text:\n%s\ngot rc %d at %d:%d path '%s' msg '%s'\n"
                    "want at %d:%d path '%s' msg '%s'\n",
                    text, rc, e.line, e.column, e.path, e.msg, line, column,
                    path, msg);
    assert_int_equal(rc, ERR_CONFIG);
    assert_string_equal(e.file, "t.yaml");
    assert_int_equal(e.line, line);
    assert_int_equal(e.column, column);
    assert_string_equal(e.path, path);
    assert_string_equal(e.msg, msg);
    cfg_study_fini(&s);
}

/* ---- malformed studies -------------------------------------------------- */

static void test_syntax_error(void **state)
{
    (void)state;
    expect_error("nodes: 64\nbudget: {bisection_wires: 4096\nrates: [0.1]\n",
                 3, 6, "",
                 "syntax error: did not find expected ',' or '}' (while "
                 "parsing a flow mapping at line 2, column 9)");
    /* a tab in indentation */
    expect_error("nodes: 64\n\tbudget: 1\n", 2, 1, "",
                 "syntax error: found a tab character that violates "
                 "indentation (while scanning a plain scalar at line 1, "
                 "column 8)");
}

static void test_unknown_key_suggests(void **state)
{
    (void)state;
    expect_error("nodes: 64\n" BUDGET "space:\n  topolgies: [torus]\n", 4, 3,
                 "space", "unknown key 'topolgies' (did you mean "
                          "'topologies'?)");
    expect_error("nodse: 64\n" BUDGET, 1, 1, "",
                 "unknown key 'nodse' (did you mean 'nodes'?)");
    expect_error("nodes: 64\n" BUDGET "message: {bits: 64, lenght: fixed}\n",
                 3, 21, "message",
                 "unknown key 'lenght' (did you mean 'length'?)");
    /* nothing close: list the valid keys */
    expect_error("nodes: 64\n" BUDGET "model: {xyzzy: 1}\n", 3, 9, "model",
                 "unknown key 'xyzzy' (expected one of: variant, tolerance)");
}

static void test_wrong_type(void **state)
{
    (void)state;
    expect_error("nodes: abc\n" BUDGET, 1, 8, "nodes",
                 "expected an integer, got \"abc\"");
    expect_error("nodes: 10.5\n" BUDGET, 1, 8, "nodes",
                 "expected an integer, got \"10.5\"");
    expect_error("nodes: {a: 1}\n" BUDGET, 1, 8, "nodes",
                 "expected an integer, got a mapping");
    expect_error("nodes:\n" BUDGET, 1, 7, "nodes",
                 "expected an integer, got an empty value");
    /* quoted numbers are strings in YAML */
    expect_error("nodes: 64\n" BUDGET "simulation:\n  seeds: \"3\"\n", 4, 10,
                 "simulation.seeds",
                 "expected an integer, got the string \"3\"");
    expect_error("nodes: 64\n" BUDGET "space: {mixed_radices: maybe}\n", 3,
                 24, "space.mixed_radices",
                 "expected true or false, got \"maybe\"");
    expect_error("nodes: 64\n" BUDGET "space: [torus]\n", 3, 8, "space",
                 "expected a mapping of keys, got a list");
}

static void test_out_of_range(void **state)
{
    (void)state;
    expect_error("nodes: -4\n" BUDGET, 1, 8, "nodes",
                 "expected an integer in [2, 16777216], got -4");
    expect_error("nodes: 64\n" BUDGET "rates: [0.01, 1.5]\n", 3, 15,
                 "rates[1]", "expected a rate in (0, 1], got 1.5");
    expect_error("nodes: 64\n" BUDGET "rates: [0.0]\n", 3, 9, "rates[0]",
                 "expected a rate in (0, 1], got 0");
    expect_error("nodes: 64\n" BUDGET "rates: -0.5\n", 3, 8, "rates",
                 "expected a rate in (0, 1], got -0.5");
    expect_error("nodes: 64\n" BUDGET "traffic: {pattern: hotspot, "
                 "hotspot_node: 64}\n",
                 3, 43, "traffic.hotspot_node",
                 "expected an integer in [-1, 63], got 64");
    expect_error("nodes: 64\nbudget: {bisection_wires: 0}\n", 2, 27,
                 "budget.bisection_wires",
                 "expected a number of wires > 0, got 0");
}

static void test_name_lists(void **state)
{
    (void)state;
    expect_error("nodes: 64\n" BUDGET "space:\n  topologies: []\n", 4, 15,
                 "space.topologies",
                 "empty list (give at least one topology, or all)");
    expect_error("nodes: 64\n" BUDGET "space:\n  topologies: [torus, tours]\n",
                 4, 23, "space.topologies[1]",
                 "unknown topology 'tours' (did you mean 'torus'?)");
    expect_error("nodes: 64\n" BUDGET "space:\n  routings: [duato, pcubed]\n",
                 4, 21, "space.routings[1]",
                 "unknown routing 'pcubed' (did you mean 'pcube'?)");
    expect_error("nodes: 64\n" BUDGET "space:\n  routings: [valiant]\n", 4,
                 14, "space.routings[0]",
                 "unknown routing 'valiant' (expected one of: deterministic, "
                 "duato, pcube, hop_based, minimal_adaptive, pcs)");
    expect_error("nodes: 64\n" BUDGET "space:\n  topologies: [dcsh, dcsh]\n",
                 4, 22, "space.topologies[1]", "duplicate topology 'dcsh'");
    expect_error("nodes: 64\n" BUDGET
                 "objectives: [latency, cost, cost(bisection)]\n",
                 3, 29, "objectives[2]",
                 "duplicate objective: 'cost(bisection)' repeats "
                 "objectives[1] (cost(bisection))");
}

/* A study may rank on a latency percentile: p50_latency, p95_latency,
 * p99_latency, alone or beside the mean; a mistyped one is an error at its
 * position, and the first latency objective names the ranking figure. */
static void test_percentile_objectives(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    assert_int_equal(cfg_study_load_string(
                         "nodes: 64\n" BUDGET
                         "objectives: [p99_latency, saturation, latency]\n",
                         "t.yaml", &s, &e),
                     0);
    assert_int_equal(s.nobjectives, 3);
    assert_int_equal(s.objectives[0].kind, CFG_OBJ_LATENCY);
    assert_int_equal(s.objectives[0].stat, CFG_LAT_P99);
    assert_int_equal(s.objectives[0].maximise, 0);
    assert_string_equal(cfg_objective_name(&s.objectives[0]), "p99_latency");
    assert_int_equal(s.objectives[2].kind, CFG_OBJ_LATENCY);
    assert_int_equal(s.objectives[2].stat, CFG_LAT_MEAN);
    assert_int_equal(cfg_rank_stat(&s), CFG_LAT_P99);
    cfg_study_fini(&s);
    assert_int_equal(cfg_study_load_string("nodes: 64\n" BUDGET
                                           "objectives: p95_latency\n",
                                           "t.yaml", &s, &e),
                     0);
    assert_int_equal(s.objectives[0].stat, CFG_LAT_P95);
    assert_int_equal(cfg_rank_stat(&s), CFG_LAT_P95);
    cfg_study_fini(&s);
    /* the default ranks on the mean */
    assert_int_equal(cfg_study_load_string("nodes: 64\n" BUDGET, "t.yaml",
                                           &s, &e),
                     0);
    assert_int_equal(cfg_rank_stat(&s), CFG_LAT_MEAN);
    cfg_study_fini(&s);
    /* the names round-trip (the farm's jobs carry them as text) */
    cfg_objective o;
    assert_int_equal(cfg_objective_parse("p50_latency", CFG_COST_PINS, &o), 0);
    assert_int_equal(o.kind, CFG_OBJ_LATENCY);
    assert_int_equal(o.stat, CFG_LAT_P50);
    assert_int_equal(cfg_objective_parse("p90_latency", CFG_COST_PINS, &o), -1);

    expect_error("nodes: 64\n" BUDGET "objectives: [p999_latency]\n", 3, 14,
                 "objectives[0]",
                 "unknown objective 'p999_latency' (did you mean "
                 "'p99_latency'?)");
    expect_error("nodes: 64\n" BUDGET
                 "objectives: [saturation, p99_latency, p99_latency]\n",
                 3, 39, "objectives[2]", "duplicate objective 'p99_latency'");
    expect_error("nodes: 64\n" BUDGET "objectives: all\n", 3, 13,
                 "objectives",
                 "name the objectives (latency, p99_latency, saturation, "
                 "cost, ...)");
}

static void test_bad_budget(void **state)
{
    (void)state;
    expect_error("nodes: 64\nbudget:\n  bisection_wires: 4096\n"
                 "  equal_to: {topology: dcsh, k: 8, n: 2}\n",
                 4, 3, "budget",
                 "give only one of bisection_wires, pins_per_node and "
                 "equal_to ('bisection_wires' and 'equal_to' are both "
                 "given)");
    expect_error("nodes: 64\nbudget:\n  rounding: ceil\n", 3, 3, "budget",
                 "the budget needs one of bisection_wires, pins_per_node or "
                 "equal_to");
    expect_error("nodes: 64\n", 1, 1, "", "missing required key 'budget'");
    expect_error("nodes: 64\ntechnology: multichip\n" BUDGET, 3, 10, "budget",
                 "bisection_wires is a VLSI budget, but the technology is "
                 "multichip (use pins_per_node)");
    expect_error("nodes: 64\nbudget: {pins_per_node: 64}\n", 2, 10, "budget",
                 "pins_per_node is a multichip budget, but the technology "
                 "is vlsi (use bisection_wires)");
}

static void test_bad_reference(void **state)
{
    (void)state;
    expect_error("nodes: 64\nbudget:\n  equal_to: {topology: torus, k: 2, "
                 "n: 6}\n",
                 3, 13, "budget.equal_to",
                 "invalid reference design: torus radix 2 in dimension 0: a "
                 "2-node ring is a hypercube link; use topology hypercube");
    expect_error("nodes: 64\nbudget:\n  equal_to: {topology: dcsh, k: 16, "
                 "n: 2}\n",
                 3, 13, "budget.equal_to",
                 "the reference design has 256 nodes, the study 64");
    expect_error("nodes: 64\nbudget:\n  equal_to: {topology: dcsh, k: 8}\n",
                 3, 13, "budget.equal_to",
                 "missing required key 'n' (or give k as a list of radices)");
    expect_error("nodes: 64\nbudget:\n  equal_to: {topology: hypercube, k: 4}"
                 "\n",
                 3, 38, "budget.equal_to.k",
                 "a hypercube has radix 2, not 4");
    expect_error("nodes: 64\nbudget:\n  equal_to: {topolgy: dcsh}\n", 3, 14,
                 "budget.equal_to",
                 "unknown key 'topolgy' (did you mean 'topology'?)");
}

static void test_duplicate_key(void **state)
{
    (void)state;
    expect_error("nodes: 64\n" BUDGET "nodes: 128\n", 3, 1, "",
                 "duplicate key 'nodes' (first given at line 1)");
    expect_error("nodes: 64\n" BUDGET "space:\n  vcs: [1]\n  vcs: [2]\n", 5,
                 3, "space", "duplicate key 'vcs' (first given at line 4)");
}

static void test_bad_ranges(void **state)
{
    (void)state;
    expect_error("nodes: 64\n" BUDGET "rates: {from: 0.01, to: 0.02, step: 0}"
                 "\n",
                 3, 37, "rates.step", "expected a step > 0, got 0");
    expect_error("nodes: 64\n" BUDGET "space:\n  vcs: {from: 1, to: 4, step: "
                 "-1}\n",
                 4, 31, "space.vcs.step", "expected a step > 0, got -1");
    expect_error("nodes: 64\n" BUDGET "space:\n  vcs: {from: 4, to: 2}\n", 4,
                 22, "space.vcs.to", "range end 2 is below its start 4");
    expect_error("nodes: 64\n" BUDGET "rates: {from: 0.01, to: 0.02}\n", 3,
                 8, "rates", "a range needs 'from', 'to' and 'step'");
    expect_error("nodes: 64\n" BUDGET "space:\n  vcs: [2, {from: 1, to: 3}]\n",
                 4, 12, "space.vcs[1]",
                 "duplicate value 2 (already in the list)");
    expect_error("nodes: 64\n" BUDGET "space:\n  dimensions: []\n", 4, 15,
                 "space.dimensions", "empty list (give at least one value)");
    expect_error("nodes: 64\n" BUDGET "space:\n  dimensions: [2, 30]\n", 4,
                 19, "space.dimensions[1]",
                 "expected an integer in [1, 24], got 30");
}

static void test_inconsistent(void **state)
{
    (void)state;
    expect_error("nodes: 1000\n" BUDGET "space:\n  topologies: [hypercube]\n",
                 4, 16, "space.topologies[0]",
                 "a hypercube needs a power-of-two node count, not 1000");
    expect_error("nodes: 1000\n" BUDGET "space:\n  topologies: [torus]\n"
                 "  dimensions: [2, 4]\n",
                 4, 16, "space.topologies[0]",
                 "no dimension n in space.dimensions gives 1000 nodes a "
                 "whole radix k = N^(1/n) >= 3 for the torus (try other "
                 "dimensions or mixed_radices: true)");
    expect_error("nodes: 1024\n" BUDGET "space:\n  topologies: [express]\n"
                 "  dimensions: [11]\n  mixed_radices: true\n",
                 4, 16, "space.topologies[0]",
                 "no dimension in space.dimensions splits 1024 nodes into "
                 "radices >= 3 for the express");
    expect_error("nodes: 64\n" BUDGET "space:\n  topologies: [torus]\n"
                 "  routings: [pcube]\n",
                 5, 13, "space.routings",
                 "no routing in the list applies to any topology of the "
                 "space");
    expect_error("nodes: 64\n" BUDGET "traffic:\n  pattern: uniform\n"
                 "  theta: 0.1\n",
                 5, 3, "traffic",
                 "'theta' applies to hotspot traffic only (the pattern is "
                 "uniform)");
    expect_error("nodes: 48\n" BUDGET "traffic: bit_reversal\n", 3, 10,
                 "traffic",
                 "bit_reversal traffic needs a power-of-two node count, not "
                 "48");
    expect_error("study: my study\nnodes: 64\n" BUDGET, 1, 8, "study",
                 "a study name may hold letters, digits, '_', '-' and '.' "
                 "only, got \"my study\"");
}

static void test_document_shape(void **state)
{
    (void)state;
    expect_error("", 1, 1, "",
                 "empty study: give at least 'nodes' and 'budget'");
    expect_error("# only a comment\n", 1, 1, "",
                 "empty study: give at least 'nodes' and 'budget'");
    expect_error(BUDGET, 1, 1, "", "missing required key 'nodes'");
    expect_error("nodes: 64\n" BUDGET "---\nnodes: 3\n", 4, 1, "",
                 "a study file holds one YAML document; this is a second "
                 "one");
    expect_error("- nodes: 64\n", 1, 1, "",
                 "expected a mapping of keys, got a list");
}

static void test_error_format_and_file(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    char buf[1024];
    err_clear(&e);
    assert_int_equal(cfg_study_load("tests/data/bad_unknown_key.yaml", &s, &e),
                     ERR_CONFIG);
    assert_string_equal(err_format(&e, buf, sizeof buf),
                        "tests/data/bad_unknown_key.yaml:6:3: space: unknown "
                        "key 'topolgies' (did you mean 'topologies'?)");
    cfg_study_fini(&s);

    err_clear(&e);
    assert_int_equal(cfg_study_load("tests/data/bad_syntax.yaml", &s, &e),
                     ERR_CONFIG);
    assert_string_equal(err_format(&e, buf, sizeof buf),
                        "tests/data/bad_syntax.yaml:4:6: syntax error: did "
                        "not find expected ',' or '}' (while parsing a flow "
                        "mapping at line 3, column 9)");

    err_clear(&e);
    assert_int_equal(cfg_study_load("tests/data/bad_budget_both.yaml", &s, &e),
                     ERR_CONFIG);
    assert_int_equal(e.line, 4);
    assert_int_equal(e.column, 3);
    assert_string_equal(e.path, "budget");

    err_clear(&e);
    assert_int_equal(cfg_study_load("tests/data/no_such_file.yaml", &s, &e),
                     ERR_IO);
    assert_string_equal(e.file, "tests/data/no_such_file.yaml");
    assert_string_equal(e.msg, "cannot open: No such file or directory");
}

/* ---- golden studies ----------------------------------------------------- */

static void test_good_minimal_defaults(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    err_clear(&e);
    assert_int_equal(cfg_study_load("tests/data/good_minimal.yaml", &s, &e), 0);
    assert_string_equal(s.name, "good_minimal");
    assert_string_equal(s.source, "tests/data/good_minimal.yaml");
    assert_int_equal(s.nodes, 256);
    assert_int_equal(s.budget.technology, CONS_VLSI);
    assert_int_equal(s.budget.has_reference, 0);
    assert_true(s.budget.limit == 1024.0);
    assert_int_equal(s.budget.rounding, CONS_ROUND_FLOOR);
    assert_int_equal(s.workload.message_bits, 128);
    assert_int_equal(s.workload.length, NET_LENGTH_FIXED);
    assert_int_equal(s.workload.traffic, NET_TRAFFIC_UNIFORM);
    assert_int_equal(s.router_delay, 1);
    assert_int_equal(s.ejection_channels, 1);
    assert_int_equal(s.rates.n, 1);
    assert_true(s.rates.v[0] == 0.001);
    assert_int_equal(s.space.ntopologies, 4);
    assert_int_equal(s.space.topologies[0], NET_TORUS);
    assert_int_equal(s.space.topologies[1], NET_HYPERCUBE);
    assert_int_equal(s.space.topologies[2], NET_DCSH);
    assert_int_equal(s.space.topologies[3], NET_EXPRESS);
    assert_int_equal(s.space.dimensions.n, 3);
    assert_int_equal(s.space.vcs.n, 6);
    assert_int_equal(s.space.vcs.v[0], 1);
    assert_int_equal(s.space.vcs.v[5], 6);
    assert_int_equal(s.space.routings_all, 1);
    assert_int_equal(s.space.nroutings, CFG_ROUTING_COUNT);
    assert_int_equal(s.space.mixed_radices, 0);
    assert_int_equal(s.space.require_model, 0);
    /* equal cost is a constraint by default, not an objective */
    assert_int_equal(s.nobjectives, 2);
    assert_int_equal(s.objectives[0].kind, CFG_OBJ_LATENCY);
    assert_int_equal(s.objectives[1].kind, CFG_OBJ_SATURATION);
    assert_int_equal(s.objectives[1].maximise, 1);
    assert_int_equal(s.sim.max_designs, 32);
    assert_int_equal(s.finalists, 5);
    assert_int_equal(s.search, CFG_SEARCH_AUTO);
    assert_int_equal(s.sim.seeds, 3);
    assert_int_equal(s.sim.warmup_messages, 20000);
    assert_int_equal(s.sim.threads, 0);
    assert_true(s.sim.tolerance_pct == 10);
    assert_int_equal(s.model.variant, MODEL_VARIANT_CORRECTED);
    assert_true(s.model.tolerance == 1e-9);
    assert_string_equal(s.report_dir, "reports/good_minimal");
    for (int f = 0; f < CFG_FORMAT_COUNT; f++)
        assert_int_equal(s.formats[f], 1);
    cfg_study_fini(&s);
    cfg_study_fini(&s); /* a second fini is harmless */
}

static void test_good_full(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    err_clear(&e);
    int rc = cfg_study_load("tests/data/good_full.yaml", &s, &e);
    if (rc) {
        char buf[1024];
        print_error("%s\n", err_format(&e, buf, sizeof buf));
    }
    assert_int_equal(rc, 0);
    assert_string_equal(s.name, "full-study.v2");
    assert_int_equal(s.nodes, 4096);
    assert_int_equal(s.budget.technology, CONS_MULTICHIP);
    assert_int_equal(s.budget.has_reference, 1);
    assert_int_equal(s.budget.rounding, CONS_ROUND_CEIL);
    const net_design *r = &s.budget.reference;
    assert_int_equal(r->topology, NET_EXPRESS);
    assert_int_equal(r->n, 2);
    assert_int_equal(r->k[0], 64);
    assert_int_equal(r->k[1], 64);
    assert_int_equal(r->width, 2);
    assert_int_equal(r->express_m, 3);
    assert_int_equal(r->express_kn, 8);
    assert_int_equal(s.workload.message_bits, 256);
    assert_int_equal(s.workload.length, NET_LENGTH_EXPONENTIAL);
    assert_int_equal(s.workload.traffic, NET_TRAFFIC_HOTSPOT);
    assert_true(s.workload.hotspot_fraction == 0.2);
    assert_int_equal(s.workload.hotspot_node, 17);
    assert_int_equal(s.router_delay, 2);
    assert_int_equal(s.ejection_channels, 0);
    /* 0.0001, the range 0.001..0.003 (exact decimals), 0.01 */
    assert_int_equal(s.rates.n, 5);
    assert_true(s.rates.v[0] == 0.0001);
    assert_true(s.rates.v[1] == 0.001);
    assert_true(s.rates.v[2] == 0.002);
    assert_true(s.rates.v[3] == 0.003);
    assert_true(s.rates.v[4] == 0.01);
    assert_int_equal(s.space.ntopologies, 2);
    assert_int_equal(s.space.topologies[0], NET_EXPRESS);
    assert_int_equal(s.space.topologies[1], NET_TORUS);
    assert_int_equal(s.space.topologies_all, 0);
    assert_int_equal(s.space.dimensions.n, 2);
    assert_int_equal(s.space.dimensions.v[0], 3);
    assert_int_equal(s.space.dimensions.v[1], 2);
    assert_int_equal(s.space.mixed_radices, 1);
    assert_int_equal(s.space.routings_all, 0);
    assert_int_equal(s.space.nroutings, 2);
    assert_int_equal(s.space.routings[0], CFG_ROUTE_DUATO);
    assert_int_equal(s.space.routings[1], CFG_ROUTE_DETERMINISTIC);
    assert_int_equal(s.space.vcs.n, 3);
    assert_int_equal(s.space.vcs.v[0], 3);
    assert_int_equal(s.space.vcs.v[1], 6);
    assert_int_equal(s.space.vcs.v[2], 9);
    assert_int_equal(s.space.buffer_flits.n, 2);
    assert_int_equal(s.space.buffer_flits.v[1], 4);
    assert_int_equal(s.space.params[NET_PARAM_EXPRESS_M].n, 1);
    assert_int_equal(s.space.params[NET_PARAM_EXPRESS_M].v[0], 2);
    assert_int_equal(s.space.params[NET_PARAM_EXPRESS_KN].n, 2);
    assert_int_equal(s.space.params[NET_PARAM_EXPRESS_KN].v[1], 16);
    assert_int_equal(s.space.require_model, 0);
    assert_int_equal(s.nobjectives, 3);
    assert_int_equal(s.objectives[0].kind, CFG_OBJ_SATURATION);
    assert_int_equal(s.objectives[0].maximise, 1);
    /* "cost" is the technology's own: pins for multichip */
    assert_int_equal(s.objectives[1].kind, CFG_OBJ_COST);
    assert_int_equal(s.objectives[1].cost, CFG_COST_PINS);
    assert_string_equal(cfg_objective_name(&s.objectives[1]), "cost(pins)");
    assert_int_equal(s.objectives[2].cost, CFG_COST_BUFFER_BITS);
    assert_int_equal(s.finalists, 12);
    assert_int_equal(s.search, CFG_SEARCH_NLOPT);
    assert_int_equal(s.sim.seeds, 7);
    assert_int_equal(s.sim.warmup_messages, 50000);
    assert_int_equal(s.sim.measured_messages, 300000);
    assert_true(s.sim.ci_half_width == 0.05);
    assert_int_equal(s.sim.max_cycles, 123456789);
    assert_int_equal(s.sim.threads, 2);
    assert_true(s.sim.tolerance_pct == 7.5);
    assert_int_equal(s.model.variant, MODEL_VARIANT_PRINTED);
    assert_true(s.model.tolerance == 1e-6);
    assert_string_equal(s.report_dir, "out/full");
    assert_int_equal(s.formats[CFG_FORMAT_HTML], 0);
    assert_int_equal(s.formats[CFG_FORMAT_MD], 0);
    assert_int_equal(s.formats[CFG_FORMAT_CSV], 1);
    assert_int_equal(s.formats[CFG_FORMAT_JSON], 1);
    cfg_study_fini(&s);
}

static void test_shorthands(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    err_clear(&e);
    /* single values for lists, scalar traffic, "all", integers as 1e3 */
    assert_int_equal(cfg_study_load_string(
                         "nodes: 1e3\n"
                         "budget: {bisection_wires: 4000}\n"
                         "traffic: transpose\n"
                         "rates: 0.25\n"
                         "space:\n"
                         "  topologies: all\n"
                         "  dimensions: 3\n"
                         "  vcs: 4\n"
                         "  routings: duato\n"
                         "objectives: latency\n"
                         "report: {formats: all}\n",
                         "dir/my.study.yaml", &s, &e),
                     0);
    assert_string_equal(s.name, "my.study");
    assert_int_equal(s.nodes, 1000);
    assert_int_equal(s.workload.traffic, NET_TRAFFIC_TRANSPOSE);
    assert_int_equal(s.rates.n, 1);
    assert_true(s.rates.v[0] == 0.25);
    assert_int_equal(s.space.topologies_all, 1);
    assert_int_equal(s.space.ntopologies, NET_TOPOLOGY_COUNT);
    assert_int_equal(s.space.dimensions.n, 1);
    assert_int_equal(s.space.dimensions.v[0], 3);
    assert_int_equal(s.space.vcs.n, 1);
    assert_int_equal(s.space.nroutings, 1);
    assert_int_equal(s.space.routings[0], CFG_ROUTE_DUATO);
    assert_int_equal(s.nobjectives, 1);
    cfg_study_fini(&s);

    /* equal_to with per-dimension radices; multichip pins budget */
    err_clear(&e);
    assert_int_equal(cfg_study_load_string(
                         "nodes: 128\n"
                         "budget:\n"
                         "  equal_to: {topology: torus, k: [8, 4, 4]}\n",
                         "x.yaml", &s, &e),
                     0);
    assert_int_equal(s.budget.reference.n, 3);
    assert_int_equal(s.budget.reference.k[0], 8);
    assert_int_equal(s.budget.reference.k[2], 4);
    cfg_study_fini(&s);

    /* hypercube reference: n defaults to log2 N */
    err_clear(&e);
    assert_int_equal(cfg_study_load_string(
                         "nodes: 256\ntechnology: multichip\n"
                         "budget: {equal_to: {topology: hypercube}}\n",
                         "x.yaml", &s, &e),
                     0);
    assert_int_equal(s.budget.reference.n, 8);
    assert_int_equal(s.budget.reference.width, 1);
    cfg_study_fini(&s);
}

/* Every shipped config loads. */
static void test_shipped_configs(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob("configs/*.yaml", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 5);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        cfg_study s;
        err e;
        err_clear(&e);
        int rc = cfg_study_load(g.gl_pathv[i], &s, &e);
        if (rc) {
            char buf[1024];
            print_error("%s\n", err_format(&e, buf, sizeof buf));
        }
        assert_int_equal(rc, 0);
        assert_true(s.nodes >= 2);
        cfg_study_fini(&s);
    }
    globfree(&g);
}

/* The reader helpers: routing applicability follows docs/models/semantics.md,
 * "Minimum virtual channels". */
static void test_routing_applies(void **state)
{
    (void)state;
    assert_true(cfg_routing_applies(CFG_ROUTE_PCUBE, NET_HYPERCUBE, 8));
    assert_false(cfg_routing_applies(CFG_ROUTE_PCUBE, NET_TORUS, 2));
    assert_true(cfg_routing_applies(CFG_ROUTE_PCS, NET_HYPERCUBE, 8));
    assert_false(cfg_routing_applies(CFG_ROUTE_PCS, NET_DCSH, 2));
    assert_true(cfg_routing_applies(CFG_ROUTE_MINIMAL_ADAPTIVE, NET_TORUS, 2));
    assert_false(cfg_routing_applies(CFG_ROUTE_MINIMAL_ADAPTIVE, NET_TORUS, 3));
    assert_true(cfg_routing_applies(CFG_ROUTE_DETERMINISTIC, NET_EXPRESS, 2));
    assert_false(cfg_routing_applies(CFG_ROUTE_DUATO, NET_EXPRESS, 2));
    assert_true(cfg_routing_applies(CFG_ROUTE_HOP_BASED, NET_DCSH, 3));
    net_design d;
    net_design_init(&d);
    cfg_routing_apply(CFG_ROUTE_PCS, &d);
    assert_int_equal(d.routing, NET_ROUTE_MINIMAL_ADAPTIVE);
    assert_int_equal(d.switching, NET_SWITCH_PCS);
}

/* ---- dse check ---------------------------------------------------------- */

static char *run_capture(const char *cmd, int *status)
{
    char path[] = "/tmp/dse_test_config_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char full[2048];
    snprintf(full, sizeof full, "%s > %s 2>&1", cmd, path);
    int st = system(full);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    size_t got = fread(buf, 1, (1 << 16) - 1, f);
    buf[got] = '\0';
    fclose(f);
    unlink(path);
    return buf;
}

static void test_check_command(void **state)
{
    (void)state;
    int status;
    char *out = run_capture(DSE_BINARY " check tests/data/bad_unknown_key.yaml",
                            &status);
    assert_int_equal(status, 2);
    assert_string_equal(out,
                        "tests/data/bad_unknown_key.yaml:6:3: space: unknown "
                        "key 'topolgies' (did you mean 'topologies'?)\n"
                        "      topolgies: [torus, dcsh]\n"
                        "      ^\n");
    free(out);

    out = run_capture(DSE_BINARY " check tests/data/good_minimal.yaml",
                      &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "study good_minimal"));
    assert_non_null(strstr(out, "enumerated"));
    assert_non_null(strstr(out, "feasible designs per topology"));
    free(out);

    out = run_capture(DSE_BINARY " check --help", &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "usage: dse check"));
    free(out);

    out = run_capture(DSE_BINARY " check", &status);
    assert_int_equal(status, 2);
    free(out);
}

/* ---- limits ------------------------------------------------------------- */

/* expect_error for texts too long to print. */
static void expect_error_quiet(const char *text, int line, int column,
                               const char *path, const char *msg)
{
    cfg_study s;
    err e;
    err_clear(&e);
    int rc = cfg_study_load_string(text, "t.yaml", &s, &e);
    if (rc != ERR_CONFIG || e.line != line || e.column != column ||
        strcmp(e.path, path) != 0 || strcmp(e.msg, msg) != 0)
        print_error("got rc %d at %d:%d path '%s' msg '%s'\n"
                    "want at %d:%d path '%s' msg '%s'\n",
                    rc, e.line, e.column, e.path, e.msg, line, column, path,
                    msg);
    assert_int_equal(rc, ERR_CONFIG);
    assert_int_equal(e.line, line);
    assert_int_equal(e.column, column);
    assert_string_equal(e.path, path);
    assert_string_equal(e.msg, msg);
    cfg_study_fini(&s);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A step past the end (even LONG_MAX) gives the start alone; it used to
 * overflow `v += step` (UBSan abort; Release read vcs 0 and buffer -1). */
static void test_int_range_huge_step(void **state)
{
    (void)state;
    const char *text = "nodes: 64\n" BUDGET
                       "space:\n"
                       "  vcs: {from: 2, to: 6, step: 9223372036854775807}\n"
                       "  buffer_flits: {from: 1, to: 64, step: 9223372036854775000}\n";
    cfg_study s;
    err e;
    assert_int_equal(cfg_study_load_string(text, "t.yaml", &s, &e), 0);
    assert_int_equal(s.space.vcs.n, 1);
    assert_int_equal(s.space.vcs.v[0], 2);
    assert_int_equal(s.space.buffer_flits.n, 1);
    assert_int_equal(s.space.buffer_flits.v[0], 1);
    cfg_study_fini(&s);
    text = "nodes: 64\n" BUDGET "space:\n  vcs: {from: 1, to: 64, step: 21}\n";
    assert_int_equal(cfg_study_load_string(text, "t.yaml", &s, &e), 0);
    assert_int_equal(s.space.vcs.n, 4); /* 1 22 43 64 */
    assert_int_equal(s.space.vcs.v[3], 64);
    cfg_study_fini(&s);
}

/* 99,999 distinct rates and a duplicate of the first at the end: found and
 * located.  (How fast is not asserted here: a timed test flakes on a loaded
 * machine; the duplicate check is a sort, not a pairwise scan.) */
static void test_long_list_duplicate_is_fast(void **state)
{
    (void)state;
    size_t n = 99999, cap = 64 + 12 * (n + 1);
    char *text = malloc(cap);
    size_t used = (size_t)snprintf(text, cap, "nodes: 64\n" BUDGET "rates: [");
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, cap - used, "%s%.6g",
                                 i ? "," : "", 0.9 * (double)(i + 1) / 1e5);
    int col = (int)(used - strlen(BUDGET) - strlen("nodes: 64\n")) + 2;
    used += (size_t)snprintf(text + used, cap - used, ",9e-06]\n");
    char path[64];
    snprintf(path, sizeof path, "rates[%zu]", n);
    expect_error_quiet(text, 3, col, path, "duplicate value 9e-06 (already in the list)");
    /* a list longer than the cap is refused with its location */
    text[used - 2] = '\0';
    strcat(text, ",0.95,0.96]\n");
    expect_error_quiet(text, 3, col + 6, "rates[100000]",
                 "list gives more than 100000 values");
    free(text);
}

/* 100,000 nested '[' are refused at the 65th, at once (it took 29 s). */
static void test_deep_nesting_is_refused(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *text = malloc(2 * depth + 64);
    size_t used = (size_t)sprintf(text, "nodes: 64\nrates: ");
    memset(text + used, '[', depth);
    memset(text + used + depth, ']', depth);
    text[used + 2 * depth] = '\0';
    double t0 = now_s();
    expect_error_quiet(text, 2, 8 + 63, "", /* the root mapping is level 1 */
                 "lists and mappings nested more than 64 deep: not a study "
                 "file");
    assert_true(now_s() - t0 < 2.0);
    free(text);
}

/* No size cap, /dev/zero and FIFOs: over 1 MiB is refused; a path that is
 * not a regular file is refused without reading or blocking. */
static void test_file_size_and_kind(void **state)
{
    (void)state;
    size_t big = 1024 * 1024 + 1;
    char *text = malloc(big + 1);
    memset(text, '#', big);
    text[big] = '\0';
    cfg_study s;
    err e;
    assert_int_equal(cfg_study_load_string(text, "t.yaml", &s, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "at most 1048576"));
    cfg_study_fini(&s);
    char dir[] = "/tmp/dse_cfg_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[128], fifo[128];
    snprintf(file, sizeof file, "%s/big.yaml", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fwrite(text, 1, big, f);
    fclose(f);
    free(text);
    assert_int_equal(cfg_study_load(file, &s, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "at most 1048576"));
    cfg_study_fini(&s);
    snprintf(fifo, sizeof fifo, "%s/fifo.yaml", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    double t0 = now_s();
    assert_int_equal(cfg_study_load(fifo, &s, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "not a regular file"));
    cfg_study_fini(&s);
    assert_int_equal(cfg_study_load("/dev/zero", &s, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "not a regular file"));
    cfg_study_fini(&s);
    assert_true(now_s() - t0 < 2.0);
    unlink(fifo);
    unlink(file);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_unknown_key_suggests),
        cmocka_unit_test(test_wrong_type),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_name_lists),
        cmocka_unit_test(test_bad_budget),
        cmocka_unit_test(test_bad_reference),
        cmocka_unit_test(test_duplicate_key),
        cmocka_unit_test(test_bad_ranges),
        cmocka_unit_test(test_inconsistent),
        cmocka_unit_test(test_document_shape),
        cmocka_unit_test(test_error_format_and_file),
        cmocka_unit_test(test_good_minimal_defaults),
        cmocka_unit_test(test_good_full),
        cmocka_unit_test(test_shorthands),
        cmocka_unit_test(test_shipped_configs),
        cmocka_unit_test(test_routing_applies),
        cmocka_unit_test(test_percentile_objectives),
        cmocka_unit_test(test_check_command),
        cmocka_unit_test(test_int_range_huge_step),
        cmocka_unit_test(test_long_list_duplicate_is_fast),
        cmocka_unit_test(test_deep_nesting_is_refused),
        cmocka_unit_test(test_file_size_and_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
