/*
 * test_optimize_vary.c — `dse optimize --vary KEY=V1,V2,...`: the argument
 * and its errors, one value applied to a study, and a whole run on a
 * 16-node study whose index.html and sensitivity.md carry one row per
 * value with the D_r each value gave its recommendation and a link to the
 * per-value reports; the page from rows made by hand (links
 * percent-encoded, text escaped, where the recommendation changes).
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dse/cli/vary.h"
#include "support/run_dse.h"

static void test_parse_and_apply(void **state)
{
    (void)state;
    dse_vary v;
    err e;
    err_clear(&e);
    assert_int_equal(dse_vary_parse("router.model=fixed,chien,peh_dally", &v,
                                    &e), 0);
    assert_string_equal(v.key, "router.model");
    assert_int_equal(v.n, 3);
    assert_string_equal(v.values[2], "peh_dally");
    assert_int_equal(dse_vary_parse("router.modle=fixed", &v, &e),
                     ERR_INVALID);
    assert_non_null(strstr(e.msg, "unknown key"));
    assert_int_equal(dse_vary_parse("router.delay=1,,2", &v, &e), ERR_INVALID);
    assert_int_equal(dse_vary_parse("router.delay=1,1", &v, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "twice"));
    assert_int_equal(dse_vary_parse("router.delay=", &v, &e), ERR_INVALID);
    assert_int_equal(dse_vary_parse("router.delay", &v, &e), ERR_INVALID);

    cfg_study s;
    assert_int_equal(cfg_study_load_string(
                         "nodes: 16\nbudget: {bisection_wires: 64}\n", "t",
                         &s, &e),
                     0);
    assert_int_equal(dse_vary_apply(&s, "router.delay", "3", &e), 0);
    assert_int_equal(s.router_delay, 3);
    assert_int_equal(s.router.model, PHYS_ROUTER_FIXED);
    assert_int_equal(dse_vary_apply(&s, "router.model", "chien", &e), 0);
    assert_int_equal(s.router.model, PHYS_ROUTER_CHIEN);
    assert_int_equal(dse_vary_apply(&s, "router.clock_fo4", "12.5", &e), 0);
    assert_int_equal(s.router.model, PHYS_ROUTER_PEH_DALLY);
    assert_true(s.router.clock_fo4 == 12.5);
    assert_int_equal(dse_vary_apply(&s, "message.bits", "64", &e), 0);
    assert_int_equal(s.workload.message_bits, 64);
    assert_int_equal(dse_vary_apply(&s, "router.delay", "1.5", &e),
                     ERR_INVALID);
    assert_int_equal(dse_vary_apply(&s, "router.clock_fo4", "1", &e),
                     ERR_INVALID);
    assert_int_equal(dse_vary_apply(&s, "router.model", "chein", &e),
                     ERR_INVALID);
    cfg_study_fini(&s);
}

static void test_run(void **state)
{
    (void)state;
    char tmp[] = "/tmp/dse-vary-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char out[4200], cmd[9000], path[4400];
    snprintf(out, sizeof out, "%s/out", tmp);
    int rc = dse_test_optimize(
        DSE_BINARY, tmp,
        "nodes: 16\nbudget: {bisection_wires: 32}\n"
        "message: {bits: 16, length: fixed}\nrates: [0.01]\n"
        "space: {topologies: [torus], dimensions: [2], "
        "routings: [deterministic], vcs: [2, 3]}\n"
        "finalists: 2\nsearch: exhaustive\n"
        "simulation: {seeds: 1, warmup_messages: 200, "
        "measured_messages: 600, ci_half_width: 1.0, max_cycles: 200000, "
        "threads: 1, max_designs: 2}\n",
        "--vary router.delay=1,4");
    snprintf(path, sizeof path, "%s/stderr", tmp);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, dse_test_slurp(path));
    snprintf(path, sizeof path, "%s/sensitivity.md", out);
    char *md = dse_test_slurp(path);
    assert_non_null(md);
    assert_non_null(strstr(md, "# How the answer depends on router.delay"));
    /* one row per value, each recommendation with the D_r it was given */
    assert_non_null(strstr(md, "\n| 1 | torus 4x4"));
    assert_non_null(strstr(md, "\n| 4 | torus 4x4"));
    char *row4 = strstr(md, "\n| 4 | ");
    assert_non_null(strstr(row4, "| 4 | "));
    assert_non_null(strstr(md, "| router.delay=4/index.html |\n"));
    /* the page a browser opens: the same rows, each value linking its
     * report */
    snprintf(path, sizeof path, "%s/index.html", out);
    char *html = dse_test_slurp(path);
    assert_non_null(html);
    assert_non_null(strstr(html, "<h1>How the answer depends on "
                                 "router.delay</h1>"));
    assert_non_null(strstr(html, "<tr><td><a href=\"router.delay=1/"
                                 "index.html\">1</a></td><td><a href=\""
                                 "router.delay=1/index.html\">torus 4x4"));
    assert_non_null(strstr(html, "<a href=\"router.delay=4/index.html\">4"
                                 "</a>"));
    struct stat st;
    snprintf(path, sizeof path, "%s/router.delay=1/index.html", out);
    assert_int_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/router.delay=4/results.json", out);
    char *json = dse_test_slurp(path);
    assert_non_null(json);
    assert_non_null(strstr(json, "router_delay=4"));
    free(md);
    free(html);
    free(json);

    /* a bad value is refused before any work, exit 2 */
    snprintf(cmd, sizeof cmd,
             "'%s' optimize -q --no-cache -o '%s/o2' --vary router.model=fast "
             "'%s/study.yaml' > /dev/null 2>&1",
             DSE_BINARY, tmp, tmp);
    rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    snprintf(path, sizeof path, "%s/o2", tmp);
    assert_int_not_equal(stat(path, &st), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

static void test_page(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    err_clear(&e);
    assert_int_equal(cfg_study_load_string(
                         "study: page\nnodes: 16\nbudget: {bisection_wires: "
                         "64}\nrates: [0.01, 0.02]\n", "p.yaml", &s, &e), 0);
    dse_vary v;
    assert_int_equal(dse_vary_parse("router.model=a b,<c>", &v, &e), 0);
    dse_vary_row rows[2];
    memset(rows, 0, sizeof rows);
    for (int k = 0; k < 2; k++) {
        snprintf(rows[k].value, sizeof rows[k].value, "%s", v.values[k]);
        rows[k].nrates = 2;
        rows[k].latency[0] = 10 + k;
        rows[k].latency[1] = INFINITY;
        rows[k].simulated[0] = k == 0;
        rows[k].sim_saturation = 0.015;
        rows[k].router_delay = 1 + k;
        rows[k].feasible = 9;
        rows[k].nsimulated = 3;
    }
    snprintf(rows[0].label, sizeof rows[0].label, "torus 4x4, V=2");
    snprintf(rows[1].label, sizeof rows[1].label, "torus 4x4, V=3");
    snprintf(rows[0].clock, sizeof rows[0].clock, "shared");
    snprintf(rows[1].clock, sizeof rows[1].clock, "6.18 ns, own");
    rows[1].own_clock = 1;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    dse_vary_write_html(f, &s, &v, rows);
    fclose(f);
    /* the link percent-encoded, the text escaped */
    assert_non_null(strstr(buf, "<a href=\"router.model=a%20b/index.html\">"
                                "a b</a>"));
    assert_non_null(strstr(buf, "<a href=\"router.model=%3Cc%3E/index.html"
                                "\">&lt;c&gt;</a>"));
    /* figures: D_r, clock, saturation, the latency at each rate (the
     * second saturates), feasible, simulated, certified */
    assert_non_null(strstr(buf, "torus 4x4, V=3</a></td><td>2</td><td>6.18 "
                                "ns, own</td><td>0.01500</td><td>11.0 "
                                "(model)</td><td>saturates</td><td>9</td>"
                                "<td>3</td><td>no</td></tr>"));
    assert_non_null(strstr(buf, "From router.model = a b to &lt;c&gt;: the "
                                "recommendation changes from torus 4x4, V=2 "
                                "to torus 4x4, V=3."));
    assert_non_null(strstr(buf, "Where the clock is a design&#39;s own") ||
                    strstr(buf, "Where the clock is a design's own"));
    assert_null(strstr(buf, "<c>"));
    free(buf);
    cfg_study_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_apply),
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
