/*
 * test_farm_redis.c — the farm against a real redis-server (integration):
 * each test starts its own server on a free loopback port, real `dse
 * worker` processes, and a coordinator (dse_optimize with the farm
 * executor) in this process.  Skipped when redis-server is not installed.
 *
 *   - two workers give results.json identical (timings removed) to the
 *     local thread pool, and a second run is answered from the cache;
 *   - a worker killed with SIGKILL in the middle of a simulation: the job
 *     is reclaimed by another worker, the results are still identical, no
 *     entry is left pending and nothing is dead-lettered;
 *   - a worker sent SIGTERM in the middle of a simulation finishes it
 *     (stored, acknowledged) before it exits 0;
 *   - Redis restarted (append-only file on) during a study: workers and
 *     coordinator reconnect and the study completes with identical results;
 *   - Redis stopped for good: `dse optimize --redis` exits 1 with a clear
 *     message within its --redis-timeout; unreachable at start: at once;
 *     no worker alive: the coordinator gives up after its timeout;
 *   - malformed jobs go to the dead-letter stream with a reason while the
 *     worker keeps serving.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>

#include "test_farm_util.h"

/* Local results of the studies, computed once. */
static char *local_tiny, *local_kill;

static int group_setup(void **state)
{
    (void)state;
    if (!test_redis_installed())
        return 0;
    cfg_study s;
    int rc;
    err e;
    if (test_load_study("farm_tiny.yaml", &s))
        return -1;
    local_tiny = test_run_json(&s, NULL, &rc, &e);
    cfg_study_fini(&s);
    if (test_load_study("farm_kill.yaml", &s))
        return -1;
    local_kill = test_run_json(&s, NULL, &rc, &e);
    cfg_study_fini(&s);
    return local_tiny && local_kill ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    free(local_tiny);
    free(local_kill);
    test_cleanup_all();
    return 0;
}

#define NEED_REDIS()                                                         \
    do {                                                                     \
        if (!test_redis_installed())                                         \
            skip();                                                          \
    } while (0)

/* A coordinator running a study in a thread. */
typedef struct coord {
    const char *study;
    const test_redis *r;
    dse_farm_opts fo;
    char *json;
    int rc;
    err e;
    double seconds;
    size_t cached, failures;
    volatile int finished;
} coord;

static void *coord_main(void *arg)
{
    coord *c = arg;
    cfg_study s;
    if (test_load_study(c->study, &s)) {
        c->rc = -100;
        c->finished = 1;
        return NULL;
    }
    dse_farm *farm;
    double t0 = dse_now_s();
    c->rc = dse_farm_open_url(c->r->url, &c->fo, &farm, &c->e);
    if (c->rc == 0) {
        dse_executor ex;
        dse_farm_executor(farm, &ex);
        c->json = test_run_json(&s, &ex, &c->rc, &c->e);
        c->cached = dse_farm_cached(farm);
        c->failures = dse_farm_failures(farm, NULL);
        dse_farm_destroy(farm);
    }
    c->seconds = dse_now_s() - t0;
    cfg_study_fini(&s);
    c->finished = 1;
    return NULL;
}

static void coord_init(coord *c, const char *study, const test_redis *r)
{
    memset(c, 0, sizeof *c);
    c->study = study;
    c->r = r;
    dse_farm_opts_init(&c->fo);
    c->fo.no_worker_timeout_s = 30;
    c->fo.redis_timeout_s = 20;
}

static void coord_run(coord *c)
{
    coord_main(c);
}

static long long pending(dse_store *st)
{
    long long n = -1;
    st->ops->xpending_count(st->self, "dse:jobs", DSE_FARM_GROUP, &n, NULL);
    return n;
}

/* The pending-entries count once it has settled at 0 (or after `seconds`):
 * a worker acknowledges an entry after announcing its result, so right after
 * a coordinator finishes the last entry may still be pending for a moment
 * (seen on a loaded machine). */
static long long pending_settled(dse_store *st, double seconds)
{
    long long n = pending(st);
    for (double t = 0; n != 0 && t < seconds; t += 0.05) {
        test_sleep(0.05);
        n = pending(st);
    }
    return n;
}

static long long stream_len(dse_store *st, const char *key)
{
    long long n = -1;
    st->ops->xlen(st->self, key, &n, NULL);
    return n;
}

/* ---- identical results, cache -------------------------------------------- */

static void test_two_workers_identical(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    pid_t w1 = test_worker_start(&r, "w1", NULL, NULL);
    pid_t w2 = test_worker_start(&r, "w2", NULL, NULL);
    coord c;
    coord_init(&c, "farm_tiny.yaml", &r);
    coord_run(&c);
    assert_int_equal(c.rc, 0);
    assert_non_null(c.json);
    assert_string_equal(c.json, local_tiny);
    assert_int_equal(c.failures, 0);
    /* both workers did some of it */
    dse_store st;
    test_store_open(&r, &st);
    test_sleep(0.5); /* a heartbeat publishes the counters */
    long long d1 = test_hget_ll(&st, "dse:worker:w1", "done");
    long long d2 = test_hget_ll(&st, "dse:worker:w2", "done");
    assert_true(d1 > 0 && d2 > 0);
    assert_int_equal(pending_settled(&st, 5.0), 0);
    assert_int_equal(stream_len(&st, "dse:jobs"), 0);
    free(c.json);

    /* the same study again: every job answered from the store */
    coord c2;
    coord_init(&c2, "farm_tiny.yaml", &r);
    coord_run(&c2);
    assert_int_equal(c2.rc, 0);
    assert_string_equal(c2.json, local_tiny);
    assert_true(c2.cached > 0);
    assert_int_equal(test_hget_ll(&st, "dse:stats", "done"), d1 + d2);
    free(c2.json);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(w1), 0);
    assert_int_equal(test_worker_stop(w2), 0);
    test_redis_fini(&r);
}

/* ---- SIGKILL in the middle of a job ----------------------------------------- */

static void test_sigkill_reclaimed(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    dse_store st;
    test_store_open(&r, &st);
    pid_t a = test_worker_start(&r, "doomed", NULL, NULL);
    coord c;
    coord_init(&c, "farm_kill.yaml", &r);
    pthread_t th;
    pthread_create(&th, NULL, coord_main, &c);
    /* wait until the doomed worker holds a simulation job (the score job
     * and the saturation search done) */
    int held = 0;
    for (int i = 0; i < 400 && !held; i++) {
        test_sleep(0.02);
        held = pending(&st) > 0 && test_hget_ll(&st, "dse:stats", "done") >= 2;
    }
    assert_true(held);
    test_sleep(0.3); /* well inside its ~1 s simulation */
    kill(a, SIGKILL);
    waitpid(a, NULL, 0);
    test_untrack(a);
    assert_true(pending(&st) > 0); /* its entry is left pending */
    pid_t b = test_worker_start(&r, "rescuer", NULL, NULL);
    pthread_join(th, NULL);
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.json, local_kill);
    assert_int_equal(c.failures, 0);
    test_sleep(0.5);
    assert_true(test_hget_ll(&st, "dse:worker:rescuer", "reclaimed") >= 1);
    assert_int_equal(pending_settled(&st, 5.0), 0);
    assert_int_equal(stream_len(&st, "dse:jobs"), 0);
    assert_int_equal(stream_len(&st, "dse:dead"), 0);
    free(c.json);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(b), 0);
    test_redis_fini(&r);
}

/* ---- SIGTERM: the job in hand is finished first ---------------------------- */

static void test_sigterm_finishes_job(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    dse_store st;
    test_store_open(&r, &st);
    pid_t a = test_worker_start(&r, "polite", NULL, NULL);
    coord c;
    coord_init(&c, "farm_kill.yaml", &r);
    pthread_t th;
    pthread_create(&th, NULL, coord_main, &c);
    /* the score job and the saturation search done, a simulation in hand */
    int held = 0;
    for (int i = 0; i < 400 && !held; i++) {
        test_sleep(0.02);
        long long done = test_hget_ll(&st, "dse:stats", "done");
        held = pending(&st) > 0 && done >= 2;
        if (held) { /* not a job between result and acknowledgement */
            test_sleep(0.3); /* well inside a ~1 s simulation */
            held = pending(&st) > 0 &&
                   test_hget_ll(&st, "dse:stats", "done") == done;
        }
    }
    assert_true(held);
    long long before = test_hget_ll(&st, "dse:stats", "done");
    assert_int_equal(test_worker_stop(a), 0); /* waits for the job */
    assert_int_equal(test_hget_ll(&st, "dse:stats", "done"), before + 1);
    assert_int_equal(pending(&st), 0);        /* nothing left in hand */
    assert_false(c.finished);                 /* one simulation still to do */
    pid_t b = test_worker_start(&r, "next", NULL, NULL);
    pthread_join(th, NULL);
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.json, local_kill);
    free(c.json);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(b), 0);
    test_redis_fini(&r);
}

/* ---- Redis restarted with persistence ---------------------------------------- */

static void test_redis_restart(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    r.persist = 1;
    assert_int_equal(test_redis_start(&r), 0);
    pid_t w1 = test_worker_start(&r, "p1", NULL, NULL);
    pid_t w2 = test_worker_start(&r, "p2", NULL, NULL);
    coord c;
    coord_init(&c, "farm_tiny.yaml", &r);
    pthread_t th;
    pthread_create(&th, NULL, coord_main, &c);
    dse_store st;
    test_store_open(&r, &st);
    int some = 0;
    for (int i = 0; i < 500 && !some; i++) {
        test_sleep(0.01);
        some = test_hget_ll(&st, "dse:stats", "done") >= 3;
    }
    assert_true(some);
    dse_store_close(&st);
    test_redis_stop(&r);
    test_sleep(1.0);
    assert_false(c.finished);
    assert_int_equal(test_redis_start(&r), 0);
    pthread_join(th, NULL);
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.json, local_tiny);
    assert_int_equal(c.failures, 0);
    test_store_open(&r, &st);
    assert_int_equal(pending_settled(&st, 5.0), 0);
    dse_store_close(&st);
    free(c.json);
    assert_int_equal(test_worker_stop(w1), 0);
    assert_int_equal(test_worker_stop(w2), 0);
    test_redis_fini(&r);
}

/* ---- Redis gone, no workers ----------------------------------------------------- */

static int run_cli(const char *args, const char *errfile, double *seconds)
{
    char cmd[1500];
    snprintf(cmd, sizeof cmd, "'%s' optimize -q %s '%s/tests/data/%s' 2>'%s'",
             DSE_BINARY, args, DSE_SOURCE_DIR, "farm_tiny.yaml", errfile);
    double t0 = dse_now_s();
    int st = system(cmd);
    *seconds = dse_now_s() - t0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_contains(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strstr(buf, text) != NULL;
}

typedef struct cli_arg {
    const char *args, *errfile;
    int status;
    double seconds;
} cli_arg;

static void *cli_main(void *p)
{
    cli_arg *a = p;
    a->status = run_cli(a->args, a->errfile, &a->seconds);
    return NULL;
}

static void test_redis_gone(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    char errfile[400], args[600], outdir[400];
    snprintf(errfile, sizeof errfile, "%s/optimize.err", r.dir);
    snprintf(outdir, sizeof outdir, "%s/out", r.dir);

    /* stopped for good in the middle of a study (no worker: it waits) */
    snprintf(args, sizeof args,
             "--redis %s --redis-timeout 2 --worker-timeout 60 -o '%s'", r.url,
             outdir);
    cli_arg a = {args, errfile, 0, 0};
    pthread_t th;
    double t0 = dse_now_s();
    pthread_create(&th, NULL, cli_main, &a);
    /* stopped once the study's jobs are in (a sanitized binary on a
     * loaded machine may take a second just to start) */
    dse_store st;
    test_store_open(&r, &st);
    long long len = 0;
    for (int i = 0; i < 400 && len == 0; i++) {
        test_sleep(0.05);
        st.ops->xlen(st.self, "dse:jobs", &len, NULL);
    }
    dse_store_close(&st);
    assert_true(len > 0);
    double started = dse_now_s() - t0;
    test_redis_stop(&r);
    pthread_join(th, NULL);
    assert_int_equal(a.status, 1);
    assert_true(a.seconds < started + 2.0 + 3.0);
    assert_true(file_contains(errfile, "unreachable"));

    /* unreachable from the start: fails at once */
    double secs;
    assert_int_equal(run_cli(args, errfile, &secs), 1);
    assert_true(secs < 3.0);
    assert_true(file_contains(errfile, "cannot use Redis"));

    /* a malformed URL is a usage error */
    assert_int_equal(run_cli("--redis http://nowhere", errfile, &secs), 2);

    /* Redis up, no worker: the coordinator gives up after its timeout */
    assert_int_equal(test_redis_start(&r), 0);
    coord c;
    coord_init(&c, "farm_tiny.yaml", &r);
    c.fo.no_worker_timeout_s = 1.5;
    coord_run(&c);
    assert_int_equal(c.rc, ERR_REDIS);
    assert_non_null(strstr(c.e.msg, "no dse worker alive"));
    assert_true(c.seconds < 6.0);
    test_redis_fini(&r);
}

/* ---- malformed jobs ------------------------------------------------------------ */

static void test_malformed_jobs_dead_lettered(void **state)
{
    (void)state;
    NEED_REDIS();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    pid_t w = test_worker_start(&r, "guard", NULL, NULL);
    dse_store st;
    test_store_open(&r, &st);
    /* a valid sim job to derive the malformed ones from */
    sim_params p;
    sim_params_init(&p);
    net_design_set_radix(&p.design, 2, 4);
    p.design.width = 4;
    p.rate = 0.01;
    p.warmup_messages = 100;
    p.messages = 500;
    dse_job job;
    dse_job_sim_init(&job, &p);
    char *good = dse_job_format(&job);
    dse_job_fini(&job);
    char key[DSE_JOB_KEY_LEN + 1];
    dse_job_key(good, key);

    /* text replacements of the good job, and raw texts */
    struct {
        const char *what, *from, *to, *raw;
    } bad[] = {
        {"truncated JSON", NULL, NULL, "{\"v\":1,\"kind\":\"sim\",\"des"},
        {"not an object", NULL, NULL, "[1,2,3]"},
        {"empty", NULL, NULL, ""},
        {"unknown version", "\"v\":1", "\"v\":99", NULL},
        {"huge number", "\"messages\":500", "\"messages\":1e400", NULL},
        {"huge integer", "\"messages\":500",
         "\"messages\":123456789012345678901234567890", NULL},
        {"negative size", "\"messages\":500", "\"messages\":-5", NULL},
        {"negative width", "width=4", "width=-3", NULL},
        {"unknown topology", "topology=torus", "topology=klein_bottle", NULL},
        {"deadlock-prone design", "vcs=2", "vcs=1", NULL},
        {"wrong type", "\"rate\":0.01", "\"rate\":\"fast\"", NULL},
        {"rate out of range", "\"rate\":0.01", "\"rate\":7", NULL},
        {"unknown kind", "\"kind\":\"sim\"", "\"kind\":\"mine\"", NULL},
        {"injected field", "{", "{\"shell\":\"rm -rf /\",", NULL},
        {"too large network", "k=4", "k=4096", NULL},
    };
    size_t nbad = sizeof bad / sizeof bad[0];
    for (size_t i = 0; i < nbad; i++) {
        char text[4096];
        if (bad[i].raw) {
            snprintf(text, sizeof text, "%s", bad[i].raw);
        } else {
            const char *at = strstr(good, bad[i].from);
            assert_non_null(at);
            snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good,
                     bad[i].to, at + strlen(bad[i].from));
        }
        const char *f[] = {"key", "job"};
        const char *v[] = {key, text};
        assert_int_equal(st.ops->xadd(st.self, "dse:jobs", 2, f, v, 0, NULL,
                                      NULL),
                         0);
    }
    /* a good job under a wrong key, and an entry without fields we need */
    const char *f2[] = {"key", "job"};
    const char *v2[] = {"00000000000000000000000000000000", good};
    st.ops->xadd(st.self, "dse:jobs", 2, f2, v2, 0, NULL, NULL);
    const char *f3[] = {"hello"};
    const char *v3[] = {"world"};
    st.ops->xadd(st.self, "dse:jobs", 1, f3, v3, 0, NULL, NULL);
    /* a hostile reply "stream" (a string under the prefix): the bad job is
     * still dead-lettered, a good one still served, the worker lives */
    assert_int_equal(st.ops->set(st.self, "dse:reply:evil", "x", 0, 0, NULL,
                                 NULL),
                     0);
    const char *f5[] = {"key", "job", "reply"};
    const char *v5[] = {key, "{\"v\":", "dse:reply:evil"};
    st.ops->xadd(st.self, "dse:jobs", 3, f5, v5, 0, NULL, NULL);
    p.seed = 2;
    dse_job_sim_init(&job, &p);
    char *good2 = dse_job_format(&job);
    dse_job_fini(&job);
    char key2[DSE_JOB_KEY_LEN + 1];
    dse_job_key(good2, key2);
    const char *v6[] = {key2, good2, "dse:reply:evil"};
    st.ops->xadd(st.self, "dse:jobs", 3, f5, v6, 0, NULL, NULL);
    size_t expected = nbad + 3;
    /* then the good job: the worker still serves it */
    const char *v4[] = {key, good};
    st.ops->xadd(st.self, "dse:jobs", 2, f2, v4, 0, NULL, NULL);
    char rkey[80];
    snprintf(rkey, sizeof rkey, "dse:result:%s", key);
    char *res = NULL;
    for (int i = 0; i < 400 && !res; i++) {
        test_sleep(0.025);
        const char *k[] = {rkey};
        st.ops->get_many(st.self, k, 1, &res, NULL);
    }
    assert_non_null(res);
    free(res);
    snprintf(rkey, sizeof rkey, "dse:result:%s", key2);
    const char *k2[] = {rkey};
    res = NULL;
    st.ops->get_many(st.self, k2, 1, &res, NULL);
    assert_non_null(res); /* served before the good job (stream order) */
    free(res);
    snprintf(rkey, sizeof rkey, "dse:result:%s", key);
    const char *k1[] = {rkey};
    res = NULL;
    st.ops->get_many(st.self, k1, 1, &res, NULL);
    dse_job_result jr;
    assert_int_equal(dse_job_result_parse(res, key, DSE_JOB_SIM, 0, &jr, NULL), 0);
    assert_int_equal(jr.sim_code, 0);
    dse_job_result_fini(&jr);
    free(res);

    dse_store_entry *en;
    size_t n;
    assert_int_equal(st.ops->xrange(st.self, "dse:dead", "-", 1000, &en, &n,
                                    NULL),
                     0);
    assert_int_equal(n, expected);
    for (size_t i = 0; i < n; i++) {
        const char *why = dse_store_entry_get(&en[i], "reason");
        assert_non_null(why);
        assert_true(strlen(why) > 5);
        assert_string_equal(dse_store_entry_get(&en[i], "worker"), "guard");
    }
    /* a few reasons name the problem */
    assert_non_null(strstr(dse_store_entry_get(&en[0], "reason"), "bad JSON"));
    assert_non_null(strstr(dse_store_entry_get(&en[3], "reason"), "version"));
    assert_non_null(strstr(dse_store_entry_get(&en[8], "reason"), "topology"));
    assert_non_null(strstr(dse_store_entry_get(&en[nbad], "reason"),
                           "does not match"));
    dse_store_entries_free(en, n);
    assert_int_equal(pending_settled(&st, 5.0), 0);
    assert_int_equal(stream_len(&st, "dse:jobs"), 0);
    free(good);
    free(good2);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(w), 0); /* still alive, exits cleanly */
    test_redis_fini(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_workers_identical),
        cmocka_unit_test(test_sigkill_reclaimed),
        cmocka_unit_test(test_sigterm_finishes_job),
        cmocka_unit_test(test_redis_restart),
        cmocka_unit_test(test_redis_gone),
        cmocka_unit_test(test_malformed_jobs_dead_lettered),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
