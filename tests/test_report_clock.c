/*
 * test_report_clock.c — designs whose clocks differ (report_clock.c):
 * under Chien's router model a design's clock period is its flit time
 * (checked against hand values from docs/router-cost.md), the fixed and
 * Peh-Dally models give none of their own; a Chien-priced study's report
 * says the clocks differ, with the range worked out by hand, and that it
 * compares them in cycles of the fastest design's clock; its trade-off
 * table's figures are in those cycles (two designs of equal zero-load
 * latency in their own cycles differ in ns by their clocks' ratio); a
 * fixed-model report says nothing of clocks.
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
#include <unistd.h>

#include "dse/report/report.h"
#include "dse/study/cfg.h"
#include "support/run_dse.h"

static void load(const char *text, cfg_study *s)
{
    err e;
    err_clear(&e);
    if (cfg_study_load_string(text, "t.yaml", s, &e))
        fail_msg("%s", e.msg);
}

static void test_clock_ns(void **state)
{
    (void)state;
    cfg_study s;
    load("nodes: 64\nbudget: {bisection_wires: 256}\n"
         "router: {model: chien}\n", &s);
    net_design d;
    cfg_study_design_base(&s, &d);
    d.topology = NET_TORUS;
    net_design_set_radix(&d, 2, 8);
    d.routing = NET_ROUTE_DUATO;
    d.vcs = 3;
    d.width = 16;
    /* 8x8 torus, Duato, V = 3: P = 5, flit time
     *   T_xbar + T_FC + T_VC = (0.4 + 0.6 log2 5) + 2.2 + (1.24 + 0.6 log2 3)
     *   = 1.7931569 + 2.2 + 2.1909775 = 6.1841344 ns */
    assert_true(fabs(dse_report_clock_ns(&s, &d) - 6.1841344) < 1e-6);
    /* V = 6: T_VC = 1.24 + 0.6 log2 6 = 2.7909775; 6.7841344 ns */
    d.vcs = 6;
    assert_true(fabs(dse_report_clock_ns(&s, &d) - 6.7841344) < 1e-6);
    /* every design of a fixed or Peh-Dally study shares the clock */
    s.router.model = PHYS_ROUTER_FIXED;
    assert_true(isnan(dse_report_clock_ns(&s, &d)));
    s.router.model = PHYS_ROUTER_PEH_DALLY;
    assert_true(isnan(dse_report_clock_ns(&s, &d)));
    cfg_study_fini(&s);
}

/* Run dse optimize on a 16-node study priced by ROUTER in DIR and return
 * its report.md (caller frees). */
static char *run_study(const char *dir, const char *router)
{
    char study[2000], path[4400];
    snprintf(study, sizeof study,
             "nodes: 16\nbudget: {bisection_wires: 32}\n"
             "message: {bits: 16, length: fixed}\nrates: [0.01]\n"
             "space: {topologies: [torus], dimensions: [2], "
             "routings: [deterministic], vcs: [2, 4]}\n"
             "finalists: 2\nsearch: exhaustive\n%s"
             "simulation: {seeds: 1, warmup_messages: 200, "
             "measured_messages: 600, ci_half_width: 1.0, "
             "max_cycles: 200000, threads: 1, max_designs: 2}\n",
             router);
    int rc = dse_test_optimize(DSE_BINARY, dir, study, "");
    if (rc != 0) {
        snprintf(path, sizeof path, "%s/stderr", dir);
        fail_msg("exit %d: %s", rc, dse_test_slurp(path));
    }
    snprintf(path, sizeof path, "%s/out/report.md", dir);
    char *md = dse_test_slurp(path);
    assert_non_null(md);
    return md;
}

/* The cells of the table row that starts at row ("\n| ..."), at most 16,
 * into cells; returns how many. */
static int row_cells(const char *row, char cells[16][64])
{
    assert_non_null(row);
    int n = 0;
    const char *p = row + 2;
    while (n < 16 && *p && *p != '\n') {
        const char *bar = strchr(p, '|');
        if (!bar)
            break;
        size_t len = (size_t)(bar - p);
        if (len >= 64)
            len = 63;
        memcpy(cells[n], p, len);
        cells[n][len] = '\0';
        n++;
        p = bar + 1;
    }
    return n;
}

static void test_report(void **state)
{
    (void)state;
    char tmp[] = "/tmp/dse-clock-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char *md = run_study(tmp, "router: {model: chien}\n");
    /* 4x4 torus, deterministic: P = 5, F = 1; flit time
     *   V = 2: 1.7931569 + 2.2 + (1.24 + 0.6) = 5.8331569 ns
     *   V = 4: 1.7931569 + 2.2 + (1.24 + 1.2) = 6.4331569 ns
     * 6.4331569 / 5.8331569 - 1 = 10.3% */
    const char *line = strstr(md, "- Clocks differ:");
    assert_non_null(line);
    assert_non_null(strstr(line, "from 5.83 ns (torus 4x4, V=2"));
    assert_non_null(strstr(line, "to 6.43 ns (torus 4x4, V=4"));
    assert_non_null(strstr(line, "10% apart"));
    /* the decision compares in time: the reference clock is the fastest
     * design's, V = 2's */
    assert_non_null(strstr(line, "the reference clock, the fastest "
                                 "design's (5.83 ns)"));
    /* and the verdict's figures name that unit */
    assert_non_null(strstr(md, "messages/node/reference cycle (the "));
    const char *at = strstr(md, "- At rate 0.01: best ");
    assert_non_null(at);
    const char *unit = strstr(at, " reference cycles; ");
    assert_non_null(unit);
    assert_true(unit < strchr(at + 1, '\n'));
    /* the trade-off table: every latency and rate in reference cycles,
     * each design's own clock beside them */
    const char *tab = strstr(md, "| clock (ns) | zero-load latency (ns) | "
                                 "saturation (msgs/node/us) |");
    assert_non_null(tab);
    char c2[16][64], c4[16][64];
    /* VCs routing D_r width bits latency saturation clock zero-load per-us */
    assert_int_equal(row_cells(strstr(tab, "\n| 2 "), c2), 10);
    assert_int_equal(row_cells(strstr(tab, "\n| 4 "), c4), 10);
    assert_true(fabs(strtod(c2[7], NULL) - 5.83) < 1e-9);
    assert_true(fabs(strtod(c4[7], NULL) - 6.43) < 1e-9);
    /* saturation per us = 1000 x rate per reference cycle / 5.8331569 ns,
     * on both rows (V = 4's rate is already per reference cycle) */
    assert_true(fabs(strtod(c2[9], NULL) -
                     1000 * strtod(c2[6], NULL) / 5.8331569) < 0.002);
    assert_true(fabs(strtod(c4[9], NULL) -
                     1000 * strtod(c4[6], NULL) / 5.8331569) < 0.002);
    /* Both routers have D_r = 1 (setup 2.7 + 0.6 + 1.7931569 = 5.09 ns,
     * under either flit time) and the same hops and flits, so the same
     * exact zero-load latency in their own cycles: in ns they differ by
     * the clocks' ratio, 6.4331569 / 5.8331569 = 1.10286, up to the
     * table's rounding to 1 ns */
    double z2 = strtod(c2[8], NULL), z4 = strtod(c4[8], NULL);
    assert_true(z2 > 10 && z4 > z2);
    assert_true(fabs(z4 / z2 - 6.4331569 / 5.8331569) <
                1.11 * (0.5 / z2 + 0.5 / z4));
    free(md);

    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/out'", tmp);
    assert_int_equal(system(cmd), 0);
    md = run_study(tmp, "");
    assert_null(strstr(md, "Clocks differ"));
    assert_null(strstr(md, "clock (ns)"));
    assert_null(strstr(md, "reference cycle"));
    free(md);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_ns),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
