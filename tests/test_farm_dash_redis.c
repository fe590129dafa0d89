/*
 * test_farm_dash_redis.c — the dashboard of `dse serve --http` on a live
 * farm (integration: its own redis-server on a loopback port, one `dse
 * worker`, the daemon with --http-token; skipped without redis-server and
 * curl):
 *
 *   - the JSON API with curl, parsed with jansson: /api/studies (a done
 *     study: phase "done", the real worker count, whole-study ETA 0, the
 *     verdict), /api/studies/ID (its report files, each served),
 *     /api/workers (the worker's host, last heartbeat, jobs done),
 *     /api/dead-letters (a hostile entry's reason, escaped on the page);
 *   - control: POST without or with a wrong token refused (403), a dead
 *     letter whose job text is not whole refused (409), a cancel by POST
 *     with the token stops a running study;
 *   - headless Chromium opens the list, a study page, the workers page,
 *     the dead-letter page and the served report: their content, the
 *     link back to the list, and the inline script ran (the live-update
 *     line filled in: the CSP let it run and its poll answered);
 *   - every subcommand that prints a result prints JSON with --json (the
 *     farm's taking the farm from DSE_REDIS_URL): each output parses;
 *   - a study running with no worker alive shows the warning.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "test_farm_util.h"

#define TOKEN "dashboard-token-0123456789"

typedef struct dash {
    test_redis r;
    char root[400];
    int port;
    pid_t serve, worker;
    dse_store st;
} dash;

static dash D;

/* GET path: its status code; the body into out. */
static int get(const char *path, char *out, size_t size)
{
    char cmd[800], code[16];
    snprintf(cmd, sizeof cmd,
             "curl -s -o '%s/body' -w '%%{http_code}' 'http://127.0.0.1:%d%s'",
             D.r.dir, D.port, path);
    if (test_sh(cmd, code, sizeof code) != 0)
        return -1;
    char body[600];
    snprintf(body, sizeof body, "%s/body", D.r.dir);
    FILE *f = fopen(body, "rb");
    size_t n = f ? fread(out, 1, size - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    return atoi(code);
}

static json_t *get_json(const char *path)
{
    static char buf[1 << 20];
    assert_int_equal(get(path, buf, sizeof buf), 200);
    json_error_t je;
    json_t *o = json_loads(buf, 0, &je);
    if (!o)
        fprintf(stderr, "%s: %s: %s\n", path, je.text, buf);
    assert_non_null(o);
    return o;
}

/* POST path with header hdr (may be NULL): the status code. */
static int post(const char *path, const char *hdr)
{
    char cmd[800], code[16];
    snprintf(cmd, sizeof cmd,
             "curl -s -X POST -o /dev/null -w '%%{http_code}' %s%s%s "
             "'http://127.0.0.1:%d%s'",
             hdr ? "-H '" : "", hdr ? hdr : "", hdr ? "'" : "", D.port, path);
    if (test_sh(cmd, code, sizeof code) != 0)
        return -1;
    return atoi(code);
}

static int wait_status(const char *id, const char *want, double seconds)
{
    return test_wait_study(&D.st, id, "status", want, seconds);
}

static int submit(const char *file)
{
    char cmd[1200], out[64];
    snprintf(cmd, sizeof cmd,
             "DSE_REDIS_URL='%s' '%s' submit '%s/tests/data/%s' 2>/dev/null",
             D.r.url, DSE_BINARY, DSE_SOURCE_DIR, file);
    if (test_sh(cmd, out, sizeof out) != 0)
        return -1;
    return atoi(out);
}

/* Chromium's DOM of path after its script has had time to poll. */
static void dom(const char *path, char *out, size_t size)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && HOME='%s' timeout 120 chromium --headless "
             "--no-sandbox --disable-gpu --virtual-time-budget=5000 "
             "--dump-dom 'http://127.0.0.1:%d%s' 2>/dev/null",
             D.r.dir, D.r.dir, D.port, path);
    assert_int_equal(test_sh(cmd, out, size), 0);
}

static int setup(void **state)
{
    (void)state;
    if (!test_redis_installed() ||
        system("command -v curl >/dev/null 2>&1") != 0)
        return 0;
    assert_int_equal(test_redis_start(&D.r), 0);
    snprintf(D.root, sizeof D.root, "%s/out", D.r.dir);
    assert_int_equal(mkdir(D.root, 0755), 0);
    test_store_open(&D.r, &D.st);
    D.port = test_free_port();
    D.worker = test_worker_start(&D.r, "w", NULL, NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char log[300], port[32];
        snprintf(log, sizeof log, "%s/serve.log", D.r.dir);
        snprintf(port, sizeof port, "%d", D.port);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", D.r.url,
              "--output-root", D.root, "--http", port, "--http-token", TOKEN,
              "--worker-timeout", "30", (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    D.serve = pid;
    assert_int_equal(submit("farm_dash.yaml"), 1);
    assert_true(wait_status("1", "done", 120));
    /* a hostile entry: dead-lettered by the worker with its reason */
    const char *f[] = {"key", "job"};
    const char *v[] = {"<img src=x>", "{\"v\":1,\"kind\":\"<b>bold</b>\"}"};
    assert_int_equal(D.st.ops->xadd(D.st.self, "dse:jobs", 2, f, v, 0, NULL,
                                    NULL),
                     0);
    for (int i = 0; i < 100; i++) {
        long long n = 0;
        D.st.ops->xlen(D.st.self, "dse:dead", &n, NULL);
        if (n > 0)
            break;
        test_sleep(0.1);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (D.serve > 0) {
        kill(D.serve, SIGTERM);
        waitpid(D.serve, NULL, 0);
        test_untrack(D.serve);
    }
    if (D.worker > 0) {
        kill(D.worker, SIGKILL);
        waitpid(D.worker, NULL, 0);
        test_untrack(D.worker);
    }
    if (D.r.pid > 0) {
        dse_store_close(&D.st);
        test_redis_fini(&D.r);
    }
    return 0;
}

#define NEED_SERVER()                                                        \
    do {                                                                     \
        if (D.r.pid <= 0)                                                    \
            skip();                                                          \
    } while (0)

static void test_api(void **state)
{
    (void)state;
    NEED_SERVER();
    json_t *o = get_json("/api/studies");
    json_t *s = json_array_get(json_object_get(o, "studies"), 0);
    assert_string_equal(json_string_value(json_object_get(s, "status")), "done");
    assert_string_equal(json_string_value(json_object_get(s, "phase")), "done");
    assert_int_equal(json_integer_value(json_object_get(s, "workers")), 1);
    assert_true(json_number_value(json_object_get(s, "eta_study_s")) == 0);
    assert_true(json_integer_value(json_object_get(s, "designs_simulated")) > 0);
    assert_true(json_integer_value(json_object_get(s, "round")) > 0);
    assert_true(json_integer_value(json_object_get(s, "uncertified")) >= 0);
    assert_true(strlen(json_string_value(json_object_get(s, "verdict"))) > 20);
    assert_true(strstr(json_string_value(json_object_get(s, "phases")),
                       "score") != NULL);
    json_decref(o);

    o = get_json("/api/studies/1");
    json_t *files = json_object_get(o, "reports");
    assert_true(json_array_size(files) >= 4); /* html, md, csv, json */
    static char body[1 << 20];
    int html = 0;
    for (size_t i = 0; i < json_array_size(files); i++) {
        const char *url =
            json_string_value(json_object_get(json_array_get(files, i), "url"));
        assert_int_equal(get(url, body, sizeof body), 200);
        html |= strstr(url, "index.html") != NULL;
    }
    assert_true(html);
    json_decref(o);
    assert_int_equal(get("/api/studies/42", body, sizeof body), 404);
    assert_int_equal(get("/studies/42", body, sizeof body), 404);

    o = get_json("/api/workers");
    json_t *w = json_array_get(json_object_get(o, "workers"), 0);
    assert_string_equal(json_string_value(json_object_get(w, "name")), "w");
    assert_true(json_is_true(json_object_get(w, "alive")));
    assert_true(strlen(json_string_value(json_object_get(w, "host"))) > 0);
    assert_true(atoi(json_string_value(json_object_get(w, "done"))) > 0);
    assert_true(json_number_value(json_object_get(w, "heartbeat_age_s")) < 5);
    json_decref(o);

    o = get_json("/api/dead-letters");
    json_t *d = json_array_get(json_object_get(o, "dead_letters"), 0);
    assert_non_null(d);
    assert_string_equal(json_string_value(json_object_get(d, "key")),
                        "<img src=x>");
    assert_true(strlen(json_string_value(json_object_get(d, "reason"))) > 0);
    assert_true(json_integer_value(json_object_get(d, "time_ms")) > 0);
    json_decref(o);

    /* escaped on the page */
    assert_int_equal(get("/dead-letters", body, sizeof body), 200);
    assert_null(strstr(body, "<img"));
    assert_null(strstr(body, "<b>"));
    assert_non_null(strstr(body, "&lt;img src=x&gt;"));
}

static void test_control(void **state)
{
    (void)state;
    NEED_SERVER();
    json_t *o = get_json("/api/dead-letters");
    char path[200];
    snprintf(path, sizeof path, "/api/dead-letters/%s/requeue",
             json_string_value(json_object_get(
                 json_array_get(json_object_get(o, "dead_letters"), 0), "id")));
    json_decref(o);
    assert_int_equal(post(path, NULL), 403);
    assert_int_equal(post(path, "Authorization: Bearer wrong-token-0123456789"),
                     403);
    /* its key is not the hash of its text: not put back */
    assert_int_equal(post(path, "Authorization: Bearer " TOKEN), 409);
    assert_int_equal(post("/api/dead-letters/1-1/requeue",
                          "Authorization: Bearer " TOKEN),
                     404);
    assert_int_equal(post("/api/studies/1", "Authorization: Bearer " TOKEN),
                     405);

    /* cancel a running study by POST */
    int id = submit("farm_cancel.yaml");
    assert_true(id > 1);
    char sid[16];
    snprintf(sid, sizeof sid, "%d", id);
    assert_true(wait_status(sid, "running", 30));
    snprintf(path, sizeof path, "/api/studies/%d/cancel", id);
    assert_int_equal(post(path, NULL), 403);
    assert_int_equal(post(path, "Authorization: Bearer " TOKEN), 200);
    assert_true(wait_status(sid, "cancelled", 30));
    assert_int_equal(post(path, "Authorization: Bearer " TOKEN), 409);
}

static void test_browser(void **state)
{
    (void)state;
    NEED_SERVER();
    if (system("command -v chromium >/dev/null 2>&1") != 0)
        skip(); /* scripts/deps.sh installs it */
    static char out[1 << 20];
    dom("/", out, sizeof out);
    assert_non_null(strstr(out, "id=\"study-1\""));
    assert_non_null(strstr(out, "farm_dash"));
    assert_non_null(strstr(out, "href=\"/workers\""));
    assert_non_null(strstr(out, "<span id=\"live\" class=\"muted\">updated"));

    dom("/studies/1", out, sizeof out);
    assert_non_null(strstr(out, "study 1: farm_dash"));
    assert_non_null(strstr(out, "decision round"));
    assert_non_null(strstr(out, "Build "));  /* the verdict */
    assert_non_null(strstr(out, "href=\"/studies/1/report/index.html\""));
    assert_non_null(strstr(out, "href=\"/studies/1/report/candidates.csv\""));
    assert_non_null(strstr(out, "<span id=\"live\" class=\"muted\">updated"));

    dom("/workers", out, sizeof out);
    assert_non_null(strstr(out, "<tr data-k=\"w\"><td>w</td>"));
    assert_non_null(strstr(out, "s ago"));
    assert_non_null(strstr(out, "<span id=\"live\" class=\"muted\">updated"));

    dom("/dead-letters", out, sizeof out);
    assert_non_null(strstr(out, "&lt;img src=x&gt;"));
    assert_non_null(strstr(out, "job:")); /* the worker's reason */
    assert_non_null(strstr(out, "<span id=\"live\" class=\"muted\">updated"));

    dom("/studies/1/report/", out, sizeof out);
    assert_non_null(strstr(out, "all studies</a>"));
    assert_non_null(strstr(out, "<svg"));
}

static void test_no_worker_warning(void **state)
{
    (void)state;
    NEED_SERVER();
    assert_int_equal(test_worker_stop(D.worker), 0);
    test_untrack(D.worker);
    D.worker = 0;
    int id = submit("farm_kill.yaml"); /* nothing of it cached */
    char sid[16], path[64];
    snprintf(sid, sizeof sid, "%d", id);
    assert_true(wait_status(sid, "running", 30));
    snprintf(path, sizeof path, "/api/studies/%d", id);
    json_t *o = NULL;
    for (int i = 0; i < 50; i++) { /* the worker's heartbeat goes stale */
        json_decref(o);
        o = get_json(path);
        if (json_integer_value(json_object_get(o, "workers_alive")) == 0)
            break;
        test_sleep(0.1);
    }
    assert_true(strstr(json_string_value(json_object_get(o, "warning")),
                       "0 workers") != NULL);
    json_decref(o);
    static char body[1 << 20];
    snprintf(path, sizeof path, "/studies/%d", id);
    assert_int_equal(get(path, body, sizeof body), 200);
    assert_non_null(strstr(body, "running with 0 workers alive"));
    assert_int_equal(get("/", body, sizeof body), 200);
    assert_non_null(strstr(body, "running with 0 workers alive"));
}

/* Every subcommand that prints a result prints JSON with --json: each
 * output parses.  The farm commands take the farm from DSE_REDIS_URL. */
static void test_json_everywhere(void **state)
{
    (void)state;
    NEED_SERVER();
    char cmd[1600], dir1[500], dir2[500];
    static char out[1 << 20];
    snprintf(dir1, sizeof dir1, "%s/opt-json", D.r.dir);
    snprintf(dir2, sizeof dir2, "%s/results-json", D.r.dir);
    int long_study = submit("farm_cancel.yaml"); /* to cancel */
    assert_true(long_study > 1);
    char cancel[64];
    snprintf(cancel, sizeof cancel, "cancel %d --json", long_study);
    char opt[700], res[700];
    snprintf(opt, sizeof opt,
             "optimize tests/data/farm_tiny.yaml --json -q --no-cache "
             "--output '%s'", dir1);
    snprintf(res, sizeof res, "results 1 --json --output '%s'", dir2);
    const struct {
        const char *args;
        int farm;                /* run with DSE_REDIS_URL set */
    } runs[] = {
        {"check tests/data/farm_tiny.yaml --json", 0},
        {"check tests/data/farm_tiny.yaml tests/data/farm_kill.yaml --json", 0},
        {"cost --json 'topology=torus n=2 k=4 vcs=2'", 0},
        {"model --json --design 'topology=torus n=2 k=4 vcs=2' --rates 0.01", 0},
        {"sim --json -q --design 'topology=torus n=2 k=4 vcs=2' --workload "
         "'message_bits=8' --rates 0.01 --messages 500 --warmup 100", 0},
        {opt, 0},
        {"submit tests/data/farm_tiny.yaml --json", 1},
        {"status --json", 1},
        {"status 1 --json", 1},
        {cancel, 1},
        {res, 1},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && DSE_REDIS_URL='%s' '%s' %s",
                 DSE_SOURCE_DIR, runs[i].farm ? D.r.url : "", DSE_BINARY,
                 runs[i].args);
        int rc = test_sh(cmd, out, sizeof out);
        json_error_t je;
        json_t *o = json_loads(out, 0, &je);
        if (rc != 0 || !o)
            fprintf(stderr, "dse %s: exit %d, %s\n%.400s\n", runs[i].args, rc,
                    o ? "" : je.text, out);
        assert_int_equal(rc, 0);
        assert_non_null(o);
        assert_true(json_is_object(o) || json_is_array(o));
        json_decref(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_api),
        cmocka_unit_test(test_control),
        cmocka_unit_test(test_browser),
        cmocka_unit_test(test_json_everywhere),
        cmocka_unit_test(test_no_worker_warning),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
