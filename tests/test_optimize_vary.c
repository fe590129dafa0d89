/*
 * test_optimize_vary.c — `dse optimize --vary KEY=V1,V2,...`: the argument
 * and its errors, one value applied to a study, and a whole run on a
 * 16-node study whose sensitivity.md carries one row per value with the
 * D_r each value gave its recommendation, and the per-value reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dse/cli/vary.h"

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

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_run(void **state)
{
    (void)state;
    char tmp[] = "/tmp/dse-vary-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char study[4200], out[4200], cmd[9000], path[4400];
    snprintf(study, sizeof study, "%s/tiny.yaml", tmp);
    snprintf(out, sizeof out, "%s/out", tmp);
    FILE *f = fopen(study, "w");
    assert_non_null(f);
    fputs("nodes: 16\nbudget: {bisection_wires: 32}\n"
          "message: {bits: 16, length: fixed}\nrates: [0.01]\n"
          "space: {topologies: [torus], dimensions: [2], "
          "routings: [deterministic], vcs: [2, 3]}\n"
          "finalists: 2\nsearch: exhaustive\n"
          "simulation: {seeds: 1, warmup_messages: 200, "
          "measured_messages: 600, ci_half_width: 1.0, max_cycles: 200000, "
          "threads: 1, max_designs: 2}\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "'%s' optimize -q --no-cache -o '%s' --vary router.delay=1,4 "
             "'%s' > '%s/stdout' 2> '%s/stderr'",
             DSE_BINARY, out, study, tmp, tmp);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/stderr", tmp);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, slurp(path));
    snprintf(path, sizeof path, "%s/sensitivity.md", out);
    char *md = slurp(path);
    assert_non_null(md);
    assert_non_null(strstr(md, "# How the answer depends on router.delay"));
    /* one row per value, each recommendation with the D_r it was given */
    assert_non_null(strstr(md, "\n| 1 | torus 4x4"));
    assert_non_null(strstr(md, "\n| 4 | torus 4x4"));
    char *row4 = strstr(md, "\n| 4 | ");
    assert_non_null(strstr(row4, "| 4 | "));
    struct stat st;
    snprintf(path, sizeof path, "%s/router.delay=1/index.html", out);
    assert_int_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/router.delay=4/results.json", out);
    char *json = slurp(path);
    assert_non_null(json);
    assert_non_null(strstr(json, "router_delay=4"));

    /* a bad value is refused before any work, exit 2 */
    snprintf(cmd, sizeof cmd,
             "'%s' optimize -q --no-cache -o '%s/o2' --vary router.model=fast "
             "'%s' > /dev/null 2>&1",
             DSE_BINARY, tmp, study);
    rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    snprintf(path, sizeof path, "%s/o2", tmp);
    assert_int_not_equal(stat(path, &st), 0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_apply),
        cmocka_unit_test(test_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
