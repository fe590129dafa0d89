/*
 * test_farm_planted.c — what the farm's local side does with planted or
 * broken things (unit; no Redis):
 *
 *   - a FIFO planted as a result-cache file is a miss, not a hang; a
 *     cache "directory" that is a file is said to be one;
 *   - a full disk writing index.html gives the reason (errno);
 *   - DSE_REDIS_PASSWORD_FILE missing is named; both password variables
 *     set is an error;
 *   - dse check refuses a space of billions of combinations by counting
 *     it, in well under a second;
 *   - the escaping helpers leave no markup and no control character.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>

#include "dse/farm/cache.h"
#include "dse/farm/escape.h"
#include "dse/search/exec_local.h"
#include "test_farm_util.h"

/* Replace every result file under dir with a FIFO of the same name. */
static size_t fifo_everything(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *x;
    while ((x = readdir(d))) {
        if (x->d_name[0] == '.')
            continue;
        char sub[600];
        snprintf(sub, sizeof sub, "%s/%s", dir, x->d_name);
        DIR *d2 = opendir(sub);
        assert_non_null(d2);
        struct dirent *y;
        while ((y = readdir(d2))) {
            if (y->d_name[0] == '.')
                continue;
            char p[1200];
            snprintf(p, sizeof p, "%s/%s", sub, y->d_name);
            assert_int_equal(unlink(p), 0);
            assert_int_equal(mkfifo(p, 0644), 0);
            n++;
        }
        closedir(d2);
    }
    closedir(d);
    return n;
}

static char *cached_json(const cfg_study *s, const char *dir, size_t *hits)
{
    dse_exec_local local;
    dse_executor lex, cex;
    dse_exec_local_init(&local, 2, 2, &lex);
    dse_cache *c;
    err e;
    assert_int_equal(dse_cache_create(dir, &lex, &c, &e), 0);
    dse_cache_executor(c, &cex);
    int rc;
    char *json = test_run_json(s, &cex, &rc, &e);
    assert_int_equal(rc, 0);
    dse_cache_counts(c, hits, NULL, NULL, NULL);
    dse_cache_destroy(c);
    return json;
}

/* Before: fopen() of a FIFO blocked `dse optimize` forever. */
static void test_cache_fifo_is_a_miss(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    char dir[256] = "/tmp/dse_planted_XXXXXX";
    assert_non_null(mkdtemp(dir));
    test_track_dir(dir);
    size_t hits;
    char *first = cached_json(&s, dir, &hits);
    assert_true(fifo_everything(dir) > 0);
    alarm(120); /* a hang ends the test instead of the suite's time */
    char *second = cached_json(&s, dir, &hits);
    alarm(0);
    assert_int_equal(hits, 0);
    assert_string_equal(first, second);
    free(first);
    free(second);
    cfg_study_fini(&s);
}

/* Before: "Permission denied" (access() on a file). */
static void test_cache_dir_is_a_file(void **state)
{
    (void)state;
    char path[256] = "/tmp/dse_planted_file_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    dse_executor ex = {0};
    dse_cache *c = NULL;
    err e;
    assert_int_not_equal(dse_cache_create(path, &ex, &c, &e), 0);
    assert_null(c);
    assert_non_null(strstr(e.msg, "not a directory"));
    unlink(path);
}

/* Before: "cannot write index.html" without a reason. */
static void test_index_html_full_disk(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_optimize_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    o.quiet = 1;
    o.skip_sim = 1;
    dse_run run;
    err e;
    assert_int_equal(dse_optimize(&s, &o, &run, &e), 0);
    assert_int_equal(dse_report_html(&run, full, &e), ERR_IO);
    assert_non_null(strstr(e.msg, strerror(ENOSPC)));
    fclose(full);
    dse_run_fini(&run);
    cfg_study_fini(&s);
}

/* Before: a missing file was "the secret file"; both set, the
 * environment won silently. */
static void test_password_variables(void **state)
{
    (void)state;
    dse_redis_url u;
    err e;
    unsetenv("DSE_REDIS_PASSWORD");
    setenv("DSE_REDIS_PASSWORD_FILE", "/nonexistent/dse-password", 1);
    assert_int_equal(dse_store_url_parse("redis://127.0.0.1", &u, &e),
                     ERR_CONFIG);
    assert_non_null(strstr(e.msg, "DSE_REDIS_PASSWORD_FILE"));
    assert_non_null(strstr(e.msg, "/nonexistent/dse-password"));
    setenv("DSE_REDIS_PASSWORD", "pw", 1);
    assert_int_equal(dse_store_url_parse("redis://127.0.0.1", &u, &e),
                     ERR_CONFIG);
    assert_non_null(strstr(e.msg, "set only one"));
    unsetenv("DSE_REDIS_PASSWORD_FILE");
    assert_int_equal(dse_store_url_parse("redis://127.0.0.1", &u, &e), 0);
    assert_string_equal(u.password, "pw");
    unsetenv("DSE_REDIS_PASSWORD");
}

/* Before: dse check built the space (965 MB after 60 s, unfinished). */
static void test_check_counts_first(void **state)
{
    (void)state;
    char path[256] = "/tmp/dse_planted_huge_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *yaml =
        "study: huge\nnodes: 65536\ntechnology: vlsi\n"
        "budget:\n  bisection_wires: 65536\n"
        "message:\n  bits: 32\n  length: fixed\ntraffic: uniform\n"
        "rates: [0.001]\n"
        "space:\n  topologies: all\n  dimensions: {from: 1, to: 16}\n"
        "  mixed_radices: true\n  routings: all\n"
        "  vcs: {from: 1, to: 64}\n  buffer_flits: {from: 1, to: 64}\n"
        "objectives: [latency, saturation, cost(bisection)]\n"
        "finalists: 3\nsearch: exhaustive\n"
        "report:\n  directory: reports/huge\n";
    assert_true(write(fd, yaml, strlen(yaml)) == (ssize_t)strlen(yaml));
    close(fd);
    char cmd[800];
    snprintf(cmd, sizeof cmd,
             "timeout 20 '%s' check '%s' > /dev/null 2> '%s.err'", DSE_BINARY,
             path, path);
    double t0 = dse_now_s();
    int st = system(cmd);
    double dt = dse_now_s() - t0;
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    assert_true(dt < 5.0);
    char errp[300], msg[2048] = "";
    snprintf(errp, sizeof errp, "%s.err", path);
    FILE *f = fopen(errp, "r");
    assert_non_null(f);
    size_t n = fread(msg, 1, sizeof msg - 1, f);
    msg[n] = '\0';
    fclose(f);
    assert_non_null(strstr(msg, "design combinations"));
    assert_non_null(strstr(msg, "--max-enumerated"));
    unlink(errp);
    unlink(path);
}

static void test_escaping(void **state)
{
    (void)state;
    char *h = dse_html_escape_dup("<base href=//evil.example/>\"'&\x1b\x7f");
    assert_string_equal(h, "&lt;base href=//evil.example/&gt;&quot;&#39;&amp;"
                           "&#xFFFD;&#xFFFD;");
    free(h);
    char out[64];
    dse_term_clean("\x1b]0;t\x07ok\r\n\xc2\x9b" "1m\xc3\xa9", out, sizeof out);
    assert_string_equal(out, "?]0;t?ok???1m\xc3\xa9");
    dse_term_clean("abcdef", out, 4);
    assert_string_equal(out, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_fifo_is_a_miss),
        cmocka_unit_test(test_cache_dir_is_a_file),
        cmocka_unit_test(test_index_html_full_disk),
        cmocka_unit_test(test_password_variables),
        cmocka_unit_test(test_check_counts_first),
        cmocka_unit_test(test_escaping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
