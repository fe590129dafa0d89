/*
 * test_report_clock.c — designs whose clocks differ (report_clock.c):
 * under Chien's router model a design's clock period is its flit time
 * (checked against hand values from docs/router-cost.md), the fixed and
 * Peh-Dally models give none of their own; a Chien-priced study's report
 * says the clocks differ, with the range worked out by hand, and puts the
 * trade-off table's designs in ns; a fixed-model report says nothing of
 * clocks.
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
    /* the trade-off table in ns: clock, and the saturation rate per us =
     * 1000 x rate / clock, checked on the row's own figures */
    const char *tab = strstr(md, "| clock (ns) | zero-load latency (ns) | "
                                 "saturation (msgs/node/us) |");
    assert_non_null(tab);
    const char *row = strstr(tab, "\n| 2 ");
    assert_non_null(row);
    double sat = NAN, clock = NAN, per_us = NAN;
    char cells[16][64];
    int n = 0;
    const char *p = row + 2;
    while (n < 16 && *p && *p != '\n') {
        const char *bar = strchr(p, '|');
        if (!bar)
            break;
        size_t len = (size_t)(bar - p);
        if (len >= sizeof cells[0])
            len = sizeof cells[0] - 1;
        memcpy(cells[n], p, len);
        cells[n][len] = '\0';
        n++;
        p = bar + 1;
    }
    /* VCs routing D_r width bits latency saturation clock zero-load per-us */
    assert_int_equal(n, 10);
    sat = strtod(cells[6], NULL);
    clock = strtod(cells[7], NULL);
    per_us = strtod(cells[9], NULL);
    assert_true(fabs(clock - 5.83) < 1e-9);
    assert_true(fabs(per_us - 1000 * sat / 5.8331569) < 0.002);
    free(md);

    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/out'", tmp);
    assert_int_equal(system(cmd), 0);
    md = run_study(tmp, "");
    assert_null(strstr(md, "Clocks differ"));
    assert_null(strstr(md, "clock (ns)"));
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
