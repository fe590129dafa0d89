/*
 * test_farm_serve_redis.c — the daemon against a real redis-server
 * (integration; skipped without redis-server): `dse serve`, `dse submit`
 * and `dse status` as processes, with one `dse worker`.
 *
 *   - a submitted study runs and its report lands under --output-root;
 *     `dse status ID` says done with the report path;
 *   - SIGTERM while a study runs: the daemon exits 0, the study is queued
 *     again; a restarted daemon resumes it to done;
 *   - a study over the size limits is refused with a clear reason;
 *   - every study's report goes to OUTPUT_ROOT/ID whatever its
 *     report.directory says: "." or "reports" (a parent of other
 *     studies' reports) or an absolute path leave the others' reports
 *     alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dse/farm/farm_serve.h"
#include "test_farm_util.h"

static pid_t serve_start(const test_redis *r, const char *root)
{
    pid_t pid = fork();
    if (pid == 0) {
        char log[300];
        snprintf(log, sizeof log, "%s/serve.log", r->dir);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", r->url,
              "--output-root", root, "--max-designs", "3", "--worker-timeout",
              "30", (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

/* A daemon with a short lock expiry, logging to DIR/LOGNAME. */
static pid_t serve_start_ttl(const test_redis *r, const char *root,
                             const char *logname, const char *ttl)
{
    pid_t pid = fork();
    if (pid == 0) {
        char log[300];
        snprintf(log, sizeof log, "%s/%s", r->dir, logname);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", r->url,
              "--output-root", root, "--lock-ttl", ttl, "--worker-timeout",
              "30", (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

/* Run a dse command line; its stdout (first line) into out. */
static int dse_cli(const char *args, char *out, size_t size)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", DSE_BINARY, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Wait until study id's field equals value (up to seconds). */
static int wait_field(dse_store *st, const char *id, const char *field,
                      const char *value, double seconds)
{
    char buf[2048];
    for (double t = 0; t < seconds; t += 0.05) {
        test_study_field(st, id, field, buf, sizeof buf);
        if (strcmp(buf, value) == 0)
            return 1;
        test_sleep(0.05);
    }
    return 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A submitted study as YAML: the file with report.directory replaced. */
static char *study_with_dir(const char *file, const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/%s", DSE_SOURCE_DIR, file);
    char *text = read_text(path);
    if (!text)
        return NULL;
    char *at = strstr(text, "directory: ");
    char *eol = at ? strchr(at, '\n') : NULL;
    if (!at || !eol) {
        free(text);
        return NULL;
    }
    char *out = calloc(1, strlen(text) + strlen(dir) + 64);
    sprintf(out, "%.*sdirectory: \"%s\"%s", (int)(at - text), text, dir, eol);
    free(text);
    return out;
}

static void test_daemon(void **state)
{
    (void)state;
    if (!test_redis_installed())
        skip();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    char root[400], args[1200], out[4096], buf[2048];
    snprintf(root, sizeof root, "%s/out", r.dir);
    assert_int_equal(mkdir(root, 0755), 0);
    dse_store st;
    test_store_open(&r, &st);
    pid_t w = test_worker_start(&r, "w", NULL, NULL);
    pid_t d = serve_start(&r, root);

    /* submit with the CLI; the daemon takes it */
    snprintf(args, sizeof args, "submit '%s/tests/data/farm_kill.yaml' --redis %s",
             DSE_SOURCE_DIR, r.url);
    assert_int_equal(dse_cli(args, out, sizeof out), 0);
    assert_string_equal(out, "1\n");
    assert_true(wait_field(&st, "1", "phase", "simulate", 30));

    /* SIGTERM in the middle: requeued, daemon exits cleanly */
    kill(d, SIGTERM);
    int status;
    assert_int_equal(waitpid(d, &status, 0), d);
    test_untrack(d);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    test_study_field(&st, "1", "status", buf, sizeof buf);
    assert_string_equal(buf, "queued");
    snprintf(args, sizeof args, "status 1 --redis %s", r.url);
    assert_int_equal(dse_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "queued"));

    /* a restarted daemon resumes it */
    d = serve_start(&r, root);
    assert_true(wait_field(&st, "1", "status", "done", 60));
    test_study_field(&st, "1", "report", buf, sizeof buf);
    char want[600];
    snprintf(want, sizeof want, "%s/1", root);
    assert_string_equal(buf, want);
    snprintf(want, sizeof want, "%s/1/results.json", root);
    char *json = read_text(want);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"farm_kill\""));
    free(json);
    assert_int_equal(dse_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "done"));
    snprintf(want, sizeof want, "%s/1", root);
    assert_non_null(strstr(out, want));

    /* untrusted submissions */
    dse_store_spec spec;
    memset(&spec, 0, sizeof spec);
    dse_store_url_parse(r.url, &spec.redis, NULL);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    /* over a limit: refused with the reason */
    char *yaml = study_with_dir("farm_tiny.yaml", "reports/tiny");
    assert_non_null(yaml);
    char tid[DSE_STUDY_ID_MAX];
    err e;
    assert_int_equal(dse_serve_submit(&spec, &fo, yaml, "tiny.yaml", tid, &e), 0);
    free(yaml);
    assert_true(wait_field(&st, tid, "status", "refused", 30));
    test_study_field(&st, tid, "reason", buf, sizeof buf);
    assert_non_null(strstr(buf, "feasible designs")); /* 5 > 3 */
    /* report directories naming the root, a parent of other reports, or an
     * absolute path: each study still lands in ROOT/ID (its jobs are
     * cached from study 1, so these runs are quick) */
    const char *dirs[] = {".", "reports", "/tmp/escape"};
    char ids[3][DSE_STUDY_ID_MAX];
    for (size_t i = 0; i < 3; i++) {
        yaml = study_with_dir("farm_kill.yaml", dirs[i]);
        assert_non_null(yaml);
        assert_int_equal(dse_serve_submit(&spec, &fo, yaml, "dir.yaml", ids[i],
                                          &e),
                         0);
        free(yaml);
    }
    for (size_t i = 0; i < 3; i++) {
        assert_true(wait_field(&st, ids[i], "status", "done", 120));
        test_study_field(&st, ids[i], "report", buf, sizeof buf);
        snprintf(want, sizeof want, "%s/%s", root, ids[i]);
        assert_string_equal(buf, want);
        snprintf(want, sizeof want, "%s/%s/results.json", root, ids[i]);
        struct stat rs;
        assert_int_equal(stat(want, &rs), 0);
    }
    snprintf(want, sizeof want, "%s/1/results.json", root);
    json = read_text(want); /* study 1's report is still there */
    assert_non_null(json);
    free(json);
    struct stat sb;
    assert_int_not_equal(stat("/tmp/escape", &sb), 0);
    snprintf(args, sizeof args, "status --redis %s", r.url);
    assert_int_equal(dse_cli(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "refused"));
    snprintf(args, sizeof args, "status 999 --redis %s", r.url);
    assert_int_equal(dse_cli(args, out, sizeof out), 1);

    kill(d, SIGTERM);
    assert_int_equal(waitpid(d, &status, 0), d);
    test_untrack(d);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(w), 0);
    test_redis_fini(&r);
}

/* Daemon A is paused (SIGSTOP) past its lock's expiry while a
 * study runs; daemon B takes the lock and resumes the study.  When A
 * wakes it finds B's token in the lock: it changes nothing more, exits 1
 * saying so, and the study completes once, by B, into ROOT/1. */
static void test_two_daemons_fencing(void **state)
{
    (void)state;
    if (!test_redis_installed())
        skip();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    char root[400], args[1200], out[4096], buf[2048], path[700];
    snprintf(root, sizeof root, "%s/out", r.dir);
    assert_int_equal(mkdir(root, 0755), 0);
    dse_store st;
    test_store_open(&r, &st);
    pid_t w = test_worker_start(&r, "w", NULL, NULL);
    pid_t a = serve_start_ttl(&r, root, "serveA.log", "1");
    snprintf(args, sizeof args, "submit '%s/tests/data/farm_kill.yaml' --redis %s",
             DSE_SOURCE_DIR, r.url);
    assert_int_equal(dse_cli(args, out, sizeof out), 0);
    assert_string_equal(out, "1\n");
    assert_true(wait_field(&st, "1", "phase", "simulate", 60));
    kill(a, SIGSTOP);
    test_sleep(1.6); /* past A's 1 s lock */
    pid_t b = serve_start_ttl(&r, root, "serveB.log", "1");
    /* B took the lock and resumed study 1 (a lock found absent, nobody
     * having taken it, A would rightly take again) */
    int b_holds = 0;
    for (int i = 0; i < 400 && !b_holds; i++) {
        const char *keys[1] = {"dse:serve:lock"};
        char *holder = NULL;
        st.ops->get_many(st.self, keys, 1, &holder, NULL);
        char mark[32];
        snprintf(mark, sizeof mark, "-%ld ", (long)b);
        b_holds = holder && strstr(holder, mark) != NULL;
        free(holder);
        if (!b_holds)
            test_sleep(0.05);
    }
    assert_true(b_holds);
    test_sleep(0.5);
    kill(a, SIGCONT);
    assert_int_equal(test_wait_exit(a, 30), 1);
    snprintf(path, sizeof path, "%s/serveA.log", r.dir);
    char *log = read_text(path);
    assert_non_null(log);
    if (!strstr(log, "lost the lock"))
        fail_msg("daemon A's log:\n%s", log);
    free(log);
    assert_true(wait_field(&st, "1", "status", "done", 120));
    test_study_field(&st, "1", "report", buf, sizeof buf);
    snprintf(path, sizeof path, "%s/1", root);
    assert_string_equal(buf, path);
    snprintf(path, sizeof path, "%s/1/results.json", root);
    char *json = read_text(path);
    assert_non_null(json);
    free(json);
    /* nothing queued or running again: A did not requeue what B owns */
    char **ids;
    size_t n;
    assert_int_equal(st.ops->lrange(st.self, "dse:studies:queue", 0, -1, &ids,
                                    &n, NULL),
                     0);
    assert_int_equal(n, 0);
    free(ids);
    assert_int_equal(st.ops->lrange(st.self, "dse:studies:running", 0, -1,
                                    &ids, &n, NULL),
                     0);
    assert_int_equal(n, 0);
    free(ids);
    kill(b, SIGTERM);
    assert_int_equal(test_wait_exit(b, 30), 0);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(w), 0);
    test_redis_fini(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_daemon),
        cmocka_unit_test(test_two_daemons_fencing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
