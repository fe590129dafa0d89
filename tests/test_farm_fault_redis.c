/*
 * test_farm_fault_redis.c — the farm against its broker's faults and
 * against data planted in Redis (integration; each test starts its own
 * redis-server on a free loopback port and skips without one).
 *
 *   - the job stream deleted or flushed under an idle worker: it recreates
 *     its group and serves the next study;
 *   - the jobs of a running study flushed away: the coordinator sends them
 *     again and the study completes;
 *   - Redis restarted without persistence (down 3 s), and with an
 *     append-only file but down longer than the lock: the daemon takes its
 *     lock again and runs the next study;
 *   - a worker without the farm's secret stops before taking a job; jobs
 *     that fail on the farm make `dse optimize --redis` fail with no
 *     report;
 *   - planted values: a result over the value bound reads as absent, a
 *     hash over the hash bound is refused, a stored report over 32 MiB is
 *     not written by dse results;
 *   - reply streams expire within ten minutes; `dse status` prints no
 *     control character planted in a study's fields; a queued study
 *     without YAML is marked failed; studies requeued together keep their
 *     order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>

#include "dse/farm/farm_serve.h"
#include "dse/farm/studies.h"
#include "test_farm_util.h"

#define NEED_REDIS()                                                         \
    do {                                                                     \
        if (!test_redis_installed())                                         \
            skip();                                                          \
    } while (0)

/* A redis-cli command against r; its output into out. */
static int rcli(const test_redis *r, const char *args, char *out, size_t size)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "redis-cli -p %d %s 2>&1", r->port, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A coordinator running farm_tiny.yaml in a thread. */
typedef struct coord {
    const test_redis *r;
    dse_farm_opts fo;
    int rc;
    err e;
    volatile int finished;
} coord;

static void *coord_main(void *arg)
{
    coord *c = arg;
    cfg_study s;
    if (test_load_study("farm_tiny.yaml", &s)) {
        c->rc = -100;
        c->finished = 1;
        return NULL;
    }
    dse_farm *farm;
    c->rc = dse_farm_open_url(c->r->url, &c->fo, &farm, &c->e);
    if (c->rc == 0) {
        dse_executor ex;
        dse_farm_executor(farm, &ex);
        char *json = test_run_json(&s, &ex, &c->rc, &c->e);
        free(json);
        dse_farm_destroy(farm);
    }
    cfg_study_fini(&s);
    c->finished = 1;
    return NULL;
}

static void coord_init(coord *c, const test_redis *r)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    dse_farm_opts_init(&c->fo);
    c->fo.no_worker_timeout_s = 15;
    c->fo.redis_timeout_s = 15;
}

/* The job stream deleted (DEL) and then the whole database flushed under
 * an idle worker blocked on it: before, XREADGROUP's "UNBLOCKED the
 * stream key no longer exists" ended the worker (exit 1) and the next
 * study found no worker.  Now it recreates its group and serves. */
static void test_worker_survives_stream_loss(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    pid_t w = test_worker_start(&r, "w1", NULL, NULL);
    char out[256];
    test_sleep(1.0); /* blocked in XREADGROUP on dse:jobs */
    rcli(&r, "DEL dse:jobs", out, sizeof out);
    test_sleep(1.0);
    rcli(&r, "FLUSHDB", out, sizeof out);
    test_sleep(1.0);
    assert_int_equal(test_wait_exit(w, 0.1), -1); /* still serving */
    coord c;
    coord_init(&c, &r);
    coord_main(&c);
    if (c.rc)
        fail_msg("study after the stream was lost: %s", c.e.msg);
    assert_int_equal(test_worker_stop(w), 0);
    test_redis_fini(&r);
}

/* The jobs of a running study vanish (FLUSHDB while its only worker is
 * paused): the worker recreates the group, the coordinator finds the
 * stream empty with jobs outstanding and sends them again. */
static void test_coordinator_resubmits_vanished_jobs(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    pid_t w = test_worker_start(&r, "w1", NULL, NULL);
    test_sleep(1.0);
    kill(w, SIGSTOP);
    coord c;
    coord_init(&c, &r);
    pthread_t th;
    pthread_create(&th, NULL, coord_main, &c);
    dse_store st;
    test_store_open(&r, &st);
    long long len = 0;
    for (int i = 0; i < 200 && len == 0; i++) {
        test_sleep(0.05);
        st.ops->xlen(st.self, "dse:jobs", &len, NULL);
    }
    assert_true(len > 0);
    char out[256];
    rcli(&r, "FLUSHDB", out, sizeof out);
    kill(w, SIGCONT);
    pthread_join(th, NULL);
    if (c.rc)
        fail_msg("study whose jobs were flushed: %s", c.e.msg);
    assert_int_equal(test_wait_exit(w, 0.1), -1);
    assert_int_equal(test_worker_stop(w), 0);
    dse_store_close(&st);
    test_redis_fini(&r);
}

static pid_t serve_start(const test_redis *r, const char *root,
                         const char *ttl, const char *concurrent)
{
    pid_t pid = fork();
    if (pid == 0) {
        char log[300];
        snprintf(log, sizeof log, "%s/serve.log", r->dir);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", r->url,
              "--output-root", root, "--lock-ttl", ttl, "--concurrent",
              concurrent, "--worker-timeout", "30", "--redis-timeout", "30",
              (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

static int wait_status(dse_store *st, const char *id, const char *value,
                       double seconds)
{
    char buf[256];
    for (double t = 0; t < seconds; t += 0.1) {
        test_study_field(st, id, "status", buf, sizeof buf);
        if (strcmp(buf, value) == 0)
            return 1;
        test_sleep(0.1);
    }
    return 0;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void submit_tiny(const test_redis *r, char id[DSE_STUDY_ID_MAX])
{
    char *yaml = NULL;
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/farm_tiny.yaml", DSE_SOURCE_DIR);
    yaml = read_text(path);
    assert_non_null(yaml);
    dse_store_spec spec;
    memset(&spec, 0, sizeof spec);
    dse_store_url_parse(r->url, &spec.redis, NULL);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    err e;
    assert_int_equal(dse_serve_submit(&spec, &fo, yaml, "farm_tiny.yaml", id,
                                      &e),
                     0);
}

/* Redis restarted under a running daemon: without persistence (every key
 * gone, the lock too) after 3 s down, or with an append-only file but
 * down longer than the lock's expiry.  Before, the daemon exited 1 "lost
 * the lock ... to another daemon"; now it takes the lock again and runs
 * the next study. */
static void restart_under_daemon(int persist, const char *ttl, double down)
{
    test_redis r = {0};
    r.persist = persist;
    assert_int_equal(test_redis_start(&r), 0);
    char root[300];
    snprintf(root, sizeof root, "%s/out", r.dir);
    mkdir(root, 0755);
    pid_t w = test_worker_start(&r, "w1", NULL, NULL);
    pid_t d = serve_start(&r, root, ttl, "1");
    dse_store st;
    test_store_open(&r, &st);
    char lock[256] = "";
    for (int i = 0; i < 100 && !lock[0]; i++) {
        test_sleep(0.05);
        const char *keys[1] = {"dse:serve:lock"};
        char *v = NULL;
        st.ops->get_many(st.self, keys, 1, &v, NULL);
        if (v)
            snprintf(lock, sizeof lock, "%s", v);
        free(v);
    }
    assert_true(lock[0] != '\0');
    test_redis_stop(&r);
    test_sleep(down);
    assert_int_equal(test_redis_start(&r), 0);
    test_sleep(1.5); /* several refreshes of the lock */
    char path[400];
    snprintf(path, sizeof path, "%s/serve.log", r.dir);
    if (test_wait_exit(d, 0.1) != -1)
        fail_msg("the daemon exited after Redis restarted: %s",
                 read_text(path));
    char id[DSE_STUDY_ID_MAX];
    submit_tiny(&r, id);
    assert_true(wait_status(&st, id, "done", 120));
    assert_int_equal(test_wait_exit(d, 0.1), -1);
    kill(d, SIGTERM);
    assert_int_equal(test_wait_exit(d, 30), 0);
    assert_int_equal(test_worker_stop(w), 0);
    dse_store_close(&st);
    test_redis_fini(&r);
}

static void test_daemon_survives_restart_without_persistence(void **state)
{
    (void)state;
    NEED_REDIS();
    restart_under_daemon(0, "2", 3.0);
}

static void test_daemon_survives_long_restart_with_aof(void **state)
{
    (void)state;
    NEED_REDIS();
    restart_under_daemon(1, "1", 2.0);
}

/* A coordinator with the farm secret declares it (dse:secret); a worker
 * without the secret, or with another one, exits 2 saying so before it
 * takes a job (before: it ran them all, the coordinator refused every
 * unsealed result, and every job was dead-lettered). */
static void test_worker_without_secret_refused(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    const char *secret = "a farm secret of enough bytes";
    memcpy(fo.secret.bytes, secret, strlen(secret));
    fo.secret.len = strlen(secret);
    dse_farm *farm;
    err e;
    assert_int_equal(dse_farm_open_url(r.url, &fo, &farm, &e), 0);
    /* a job waiting for a worker */
    dse_store st;
    test_store_open(&r, &st);
    const char *f[] = {"key", "job"}, *v[] = {"0123", "{}"};
    assert_int_equal(st.ops->xadd(st.self, "dse:jobs", 2, f, v, 0, NULL, NULL),
                     0);
    pid_t w = test_worker_start(&r, "nosecret", NULL, NULL);
    int rc = test_wait_exit(w, 10);
    assert_int_equal(rc, 2); /* a configuration error */
    char path[400];
    snprintf(path, sizeof path, "%s/worker-nosecret.log", r.dir);
    const char *log = read_text(path);
    assert_non_null(log);
    if (!strstr(log, "no farm secret"))
        fail_msg("worker log: %s", log);
    long long dead = -1, pend = -1;
    st.ops->xlen(st.self, "dse:dead", &dead, NULL);
    st.ops->xpending_count(st.self, "dse:jobs", DSE_FARM_GROUP, &pend, NULL);
    assert_int_equal(dead, 0); /* nothing taken, nothing dead-lettered */
    assert_int_equal(pend, 0);
    /* another secret: refused as well */
    setenv("DSE_FARM_SECRET", "another secret, also long enough", 1);
    w = test_worker_start(&r, "othersecret", NULL, NULL);
    rc = test_wait_exit(w, 10);
    unsetenv("DSE_FARM_SECRET");
    assert_int_equal(rc, 2);
    snprintf(path, sizeof path, "%s/worker-othersecret.log", r.dir);
    log = read_text(path);
    if (!log || !strstr(log, "is not the farm's"))
        fail_msg("worker log: %s", log ? log : "(none)");
    /* a coordinator without it is told so at once */
    dse_farm_opts bare;
    dse_farm_opts_init(&bare);
    dse_farm *f2;
    assert_int_equal(dse_farm_open_url(r.url, &bare, &f2, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "no farm secret"));
    dse_farm_destroy(farm);
    dse_store_close(&st);
    test_redis_fini(&r);
}

/* Jobs that fail on the farm (here every score job is over the worker's
 * --max-score-work) make `dse optimize --redis` exit non-zero and write
 * no report (before: exit 0 and a report ranking what was left). */
static void test_failed_jobs_fail_the_run(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    pid_t w = test_worker_start(&r, "w1", "--max-score-work", "1000");
    char out[300], cmd[1200];
    snprintf(out, sizeof out, "%s/report", r.dir);
    snprintf(cmd, sizeof cmd,
             "'%s' optimize '%s/tests/data/farm_tiny.yaml' --redis %s -o '%s' "
             "--no-cache -q --worker-timeout 20 > '%s/opt.log' 2>&1",
             DSE_BINARY, DSE_SOURCE_DIR, r.url, out, r.dir);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_not_equal(WEXITSTATUS(st), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/results.json", out);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/opt.log", r.dir);
    const char *log = read_text(path);
    if (!log || !strstr(log, "failed on the farm"))
        fail_msg("dse optimize said: %s", log ? log : "(nothing)");
    assert_int_equal(test_worker_stop(w), 0);
    test_redis_fini(&r);
}

/* Planted values are bounded before they are read: a result over
 * DSE_STORE_VALUE_MAX reads as absent (before: read whole, 400 MB planted
 * took the daemon to 1.66 GB), a hash over DSE_STORE_HASH_MAX is refused,
 * and `dse results` refuses a stored report over 32 MiB (before: it wrote
 * what it found). */
static void test_planted_values_bounded(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    /* tens of MB through a sanitized build on a loaded machine: a
     * generous command timeout, so only the bounds decide */
    dse_store_spec spec;
    memset(&spec, 0, sizeof spec);
    dse_store_url_parse(r.url, &spec.redis, NULL);
    spec.timeout_s = 60;
    dse_store st;
    dse_store_open(&spec, &st);
    size_t big = (size_t)DSE_STORE_VALUE_MAX + 1;
    char *v = malloc(big + 1);
    memset(v, 'x', big);
    v[big] = '\0';
    assert_int_equal(st.ops->set(st.self, "dse:result:big", v, 0, 0, NULL,
                                 NULL),
                     0);
    assert_int_equal(st.ops->set(st.self, "dse:result:small", "ok", 0, 0, NULL,
                                 NULL),
                     0);
    const char *keys[3] = {"dse:result:big", "dse:result:small",
                           "dse:result:none"};
    char *vals[3];
    assert_int_equal(st.ops->get_many(st.self, keys, 3, vals, NULL), 0);
    assert_null(vals[0]);
    assert_non_null(vals[1]);
    assert_string_equal(vals[1], "ok");
    assert_null(vals[2]);
    free(vals[1]);
    free(v);
    /* a study done, its stored report over 32 MiB but under the hash
     * bound: dse results refuses it and creates nothing */
    size_t rep = (size_t)DSE_REPORT_STORE_MAX + 1024;
    v = malloc(rep + 1);
    memset(v, 'y', rep);
    v[rep] = '\0';
    const char *sf[] = {"id", "status", "report"};
    const char *sv[] = {"7", "done", "/nonexistent"};
    assert_int_equal(st.ops->hset(st.self, "dse:study:7", 3, sf, sv, NULL), 0);
    const char *rf[] = {"report.md"};
    const char *rv[] = {v};
    assert_int_equal(st.ops->hset(st.self, "dse:report:7", 1, rf, rv, NULL), 0);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    char out[300];
    snprintf(out, sizeof out, "%s/fetched", r.dir);
    err e;
    assert_int_equal(dse_study_fetch_report(&st, &fo, "7", out, NULL, &e),
                     ERR_INVALID);
    assert_non_null(strstr(e.msg, "32 MiB"));
    assert_int_not_equal(access(out, F_OK), 0);
    /* over the hash bound: refused before anything is read */
    const char *rf2[] = {"results.json"};
    assert_int_equal(st.ops->hset(st.self, "dse:report:7", 1, rf2, rv, NULL),
                     0);
    size_t n;
    char **ff, **vv;
    assert_int_equal(st.ops->hgetall(st.self, "dse:report:7", &n, &ff, &vv, &e),
                     ERR_INVALID);
    assert_non_null(strstr(e.msg, "too large"));
    free(v);
    dse_store_close(&st);
    test_redis_fini(&r);
}

/* A reply stream a worker announces on expires within ten minutes
 * (before: a day), so interrupted coordinators' streams do not linger. */
static void test_reply_stream_expires(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    dse_store st;
    test_store_open(&r, &st);
    const char *f[] = {"key", "job", "reply"};
    const char *v[] = {"0123", "not json", "dse:reply:gone"};
    assert_int_equal(st.ops->xadd(st.self, "dse:jobs", 3, f, v, 0, NULL, NULL),
                     0);
    pid_t w = test_worker_start(&r, "w1", NULL, NULL);
    long long len = 0;
    for (int i = 0; i < 200 && len == 0; i++) {
        test_sleep(0.05);
        st.ops->xlen(st.self, "dse:reply:gone", &len, NULL);
    }
    assert_int_equal(len, 1);
    char out[64];
    rcli(&r, "PTTL dse:reply:gone", out, sizeof out);
    long long ttl = atoll(out);
    assert_true(ttl > 0);
    assert_true(ttl <= DSE_FARM_REPLY_TTL_MS);
    assert_true(DSE_FARM_REPLY_TTL_MS <= 10L * 60 * 1000);
    assert_int_equal(test_worker_stop(w), 0);
    dse_store_close(&st);
    test_redis_fini(&r);
}

/* `dse status` shows a study whose fields hold escape sequences with '?'
 * for every control character. */
static void test_status_strips_control_characters(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    dse_store st;
    test_store_open(&r, &st);
    const char *f[] = {"id", "name", "status", "reason"};
    const char *v[] = {"3", "\x1b]0;owned\x07name", "failed\x1b[2J",
                       "why\r\x1b[1A\xc2\x9b" "31m"};
    assert_int_equal(st.ops->hset(st.self, "dse:study:3", 4, f, v, NULL), 0);
    assert_int_equal(st.ops->push(st.self, "dse:studies", "3", 0, NULL), 0);
    for (int one = 0; one < 2; one++) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "'%s' status %s --redis %s", DSE_BINARY,
                 one ? "3" : "", r.url);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, p);
        buf[n] = '\0';
        pclose(p);
        assert_true(n > 0);
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)buf[i];
            if ((c < 0x20 && c != '\n') || c == 0x7f ||
                (c == 0xc2 && (unsigned char)buf[i + 1] >= 0x80 &&
                 (unsigned char)buf[i + 1] <= 0x9f))
                fail_msg("control character %#x at %zu in: %s", c, i, buf);
        }
        assert_non_null(strstr(buf, "owned"));
    }
    dse_store_close(&st);
    test_redis_fini(&r);
}

/* A queued study whose record has no YAML is marked failed with the
 * reason (before: it stayed "queued" forever), and two studies the daemon
 * stops together go back to the queue in the order they were taken
 * (before: swapped). */
static void test_daemon_queue_hygiene(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    char root[300];
    snprintf(root, sizeof root, "%s/out", r.dir);
    mkdir(root, 0755);
    dse_store st;
    test_store_open(&r, &st);
    const char *f[] = {"id", "status"}, *v[] = {"99", "queued"};
    assert_int_equal(st.ops->hset(st.self, "dse:study:99", 2, f, v, NULL), 0);
    assert_int_equal(st.ops->push(st.self, "dse:studies:queue", "99", 0, NULL),
                     0);
    pid_t d = serve_start(&r, root, "15", "2");
    assert_true(wait_status(&st, "99", "failed", 20));
    char reason[256];
    test_study_field(&st, "99", "reason", reason, sizeof reason);
    assert_non_null(strstr(reason, "no study YAML"));
    /* two studies running at once (no worker: they wait for one), then
     * SIGTERM: back at the head of the queue, first taken first */
    char a[DSE_STUDY_ID_MAX], b[DSE_STUDY_ID_MAX];
    submit_tiny(&r, a);
    assert_true(wait_status(&st, a, "running", 20));
    submit_tiny(&r, b);
    assert_true(wait_status(&st, b, "running", 20));
    kill(d, SIGTERM);
    assert_int_equal(test_wait_exit(d, 30), 0);
    char **ids;
    size_t n;
    assert_int_equal(st.ops->lrange(st.self, "dse:studies:queue", 0, -1, &ids,
                                    &n, NULL),
                     0);
    assert_int_equal(n, 2);
    assert_string_equal(ids[0], a);
    assert_string_equal(ids[1], b);
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
    dse_store_close(&st);
    test_redis_fini(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    unsetenv("DSE_FARM_SECRET");
    unsetenv("DSE_FARM_SECRET_FILE");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_survives_stream_loss),
        cmocka_unit_test(test_coordinator_resubmits_vanished_jobs),
        cmocka_unit_test(test_daemon_survives_restart_without_persistence),
        cmocka_unit_test(test_daemon_survives_long_restart_with_aof),
        cmocka_unit_test(test_worker_without_secret_refused),
        cmocka_unit_test(test_failed_jobs_fail_the_run),
        cmocka_unit_test(test_planted_values_bounded),
        cmocka_unit_test(test_reply_stream_expires),
        cmocka_unit_test(test_status_strips_control_characters),
        cmocka_unit_test(test_daemon_queue_hygiene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
