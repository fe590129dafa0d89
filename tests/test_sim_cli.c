/*
 * test_sim_cli.c — `dse sim`: bad input exits 2 with a message naming the
 * problem; a good run prints a table or JSON whose numbers are the
 * library's (the JSON point equals sim_run on the same parameters), and
 * --threads does not change them.
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
#include <unistd.h>

#include "sim/sim.h"

/* Run a shell command; returns its output (stdout and stderr unless
 * out_only), caller frees; *status = exit status. */
static char *run_capture(const char *cmd, int out_only, int *status)
{
    char path[] = "/tmp/dse_sim_cli_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char full[4096];
    snprintf(full, sizeof full, "%s > %s %s", cmd, path,
             out_only ? "2>/dev/null" : "2>&1");
    int st = system(full);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 18);
    size_t got = fread(buf, 1, (1 << 18) - 1, f);
    buf[got] = '\0';
    fclose(f);
    unlink(path);
    return buf;
}

/* `dse SUB ARGS` exits 2 and says needle. */
static void expect_bad_sub(const char *sub, const char *args,
                           const char *needle)
{
    char cmd[2048];
    int status;
    snprintf(cmd, sizeof cmd, "%s %s %s", DSE_BINARY, sub, args);
    char *out = run_capture(cmd, 0, &status);
    if (status != 2 || !strstr(out, needle))
        fail_msg("dse %s %s: status %d, output: %s", sub, args, status, out);
    free(out);
}

static void expect_bad(const char *args, const char *needle)
{
    expect_bad_sub("sim", args, needle);
}

/* Rates over 1 (studies and jobs refuse them), an empty design
 * and a design key given twice were accepted by sim, model and cost. */
static void test_cli_input_limits(void **state)
{
    (void)state;
    expect_bad("--rates 1.5 --design 'topology=torus k=8 n=2 vcs=2'",
               "over 1 message per node per cycle");
    expect_bad("--rates 0.5:1.5:0.5", "over 1 message per node per cycle");
    expect_bad_sub("model",
                   "--design 'topology=torus n=2 k=16 vcs=3 routing=duato' "
                   "--rates 1.5",
                   "over 1 message per node per cycle");
    expect_bad_sub("cost", "''", "empty design");
    expect_bad_sub("cost", "'topology=torus n=2 k=8 k=4'",
                   "key \"k\" given twice");
    expect_bad("--rates 0.01 --design 'topology=torus k=8 n=2 vcs=2 vcs=1'",
               "key \"vcs\" given twice");
    /* a step over 1 is fine: it is not a rate */
    char cmd[512];
    int status;
    snprintf(cmd, sizeof cmd,
             "%s model --design 'topology=torus n=2 k=16 vcs=3 "
             "routing=duato' --rates 0.001:0.002:5",
             DSE_BINARY);
    char *out = run_capture(cmd, 0, &status);
    if (status != 0)
        fail_msg("%s: status %d, output: %s", cmd, status, out);
    free(out);
}

static void test_bad_input(void **state)
{
    (void)state;
    expect_bad("", "--rates is required");
    expect_bad("--rates 0.01 --bogus", "unknown option");
    expect_bad("--rates 0:0.1:0.01", "must be > 0");
    expect_bad("--rates 0.01,x", "expected a number");
    expect_bad("--rates 0.01 --design 'k=4 n=2 vcs=1'",
               "needs at least 2");
    expect_bad("--rates 0.01 --design 'topology=express k=16 n=2 kn=4 "
               "m=200'",
               "express channels");
    expect_bad("--rates 0.01 --design 'topology=mesh k=4 n=2 vcs=1' "
               "--workload 'traffic=broadcast beta=0.1'",
               "broadcast");
    expect_bad("--rates 0.01 --design 'k=4 n=2 bogus=1'", "bogus");
    expect_bad("--rates 0.01 --seeds 0", "--seeds");
    expect_bad("--rates 0.01 --ci 2", "--ci");
}

static void test_help_and_table(void **state)
{
    (void)state;
    int status;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s sim --help", DSE_BINARY);
    char *out = run_capture(cmd, 1, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "usage: dse sim"));
    free(out);
    snprintf(cmd, sizeof cmd,
             "%s sim --design 'k=4 n=2 vcs=2' --workload 'message_bits=8' "
             "--rates 0.01,0.3 --warmup 500 --messages 2000 -q",
             DSE_BINARY);
    out = run_capture(cmd, 1, &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(out, "latency"));
    assert_non_null(strstr(out, " ok\n"));
    assert_non_null(strstr(out, " saturated\n"));
    free(out);
}

static void test_json_matches_library(void **state)
{
    (void)state;
    const char *design = "topology=torus k=4 n=2 vcs=3 routing=duato";
    const char *workload = "message_bits=8 length=exponential";
    char cmd[2048];
    int status;
    char *outs[2];
    for (int t = 0; t < 2; t++) {
        snprintf(cmd, sizeof cmd,
                 "%s sim --design '%s' --workload '%s' --rates 0.01:0.03:0.02 "
                 "--seed 9 --seeds 2 --warmup 500 --messages 2000 --json -q "
                 "--threads %d",
                 DSE_BINARY, design, workload, t + 1);
        outs[t] = run_capture(cmd, 1, &status);
        assert_int_equal(status, 0);
    }
    json_error_t je;
    json_t *a = json_loads(outs[0], 0, &je);
    json_t *b = json_loads(outs[1], 0, &je);
    assert_non_null(a);
    assert_non_null(b);
    json_t *pa = json_object_get(a, "points"), *pb = json_object_get(b, "points");
    assert_int_equal(json_array_size(pa), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *x = json_array_get(pa, i), *y = json_array_get(pb, i);
        assert_true(json_real_value(json_object_get(x, "latency")) ==
                    json_real_value(json_object_get(y, "latency")));
        assert_int_equal(json_integer_value(json_object_get(x, "cycles")),
                         json_integer_value(json_object_get(y, "cycles")));
        assert_int_equal(json_array_size(json_object_get(x, "runs")), 2);
    }
    /* the first replication of the first point is sim_run's answer */
    sim_params p;
    sim_params_init(&p);
    err e;
    assert_int_equal(net_design_parse(&p.design, design, &e), 0);
    assert_int_equal(net_workload_parse(&p.workload, workload, &e), 0);
    p.rate = 0.01;
    p.seed = 9;
    p.warmup_messages = 500;
    p.messages = 2000;
    sim_result r;
    assert_int_equal(sim_run(&p, &r, &e), 0);
    json_t *run0 = json_array_get(
        json_object_get(json_array_get(pa, 0), "runs"), 0);
    double lat = json_real_value(json_object_get(run0, "latency"));
    assert_true(fabs(lat - r.latency) <= 1e-9 * r.latency);
    assert_int_equal(json_integer_value(json_object_get(run0, "cycles")),
                     r.cycles);
    json_decref(a);
    json_decref(b);
    free(outs[0]);
    free(outs[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_cli_input_limits),
        cmocka_unit_test(test_help_and_table),
        cmocka_unit_test(test_json_matches_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
