/*
 * test_farm_unit.c — the farm without a Redis server: job and result
 * encoding, keys, strict parsing of malformed jobs, the daemon's path and
 * size checks, and whole farm runs on the in-memory store (tests/support/store_mem.c)
 * with the worker in a thread: identical results, reclaim of an abandoned
 * entry, dead letters, the store going down and coming back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <fcntl.h>
#include <pthread.h>

#include "dse/farm/farm_serve.h"
#include "dse/farm/studies.h"
#include "dse/study/space.h"
#include "test_farm_util.h"
#include "support/store_mem.h"

/* ---- URLs ------------------------------------------------------------------ */

static void test_url_parse(void **state)
{
    (void)state;
    dse_redis_url u;
    assert_int_equal(dse_store_url_parse("redis://localhost", &u, NULL), 0);
    assert_string_equal(u.host, "localhost");
    assert_int_equal(u.port, 6379);
    assert_int_equal(u.db, 0);
    assert_string_equal(u.password, "");
    assert_int_equal(dse_store_url_parse("redis://:s%40cret@10.0.0.2:7000/3",
                                         &u, NULL),
                     0);
    assert_string_equal(u.host, "10.0.0.2");
    assert_int_equal(u.port, 7000);
    assert_int_equal(u.db, 3);
    assert_string_equal(u.user, "");
    assert_string_equal(u.password, "s@cret");
    assert_int_equal(dse_store_url_parse("redis://farm:pw@h:1/0", &u, NULL), 0);
    assert_string_equal(u.user, "farm");
    assert_string_equal(u.password, "pw");
    char buf[200];
    dse_store_url_print(&u, buf, sizeof buf);
    assert_null(strstr(buf, "pw")); /* never printed */
    const char *bad[] = {"http://h", "redis://", "redis://h:0", "redis://h:x",
                         "redis://h:70000", "redis://h/-1", "redis://h/x",
                         "redis://%zz@h", NULL};
    for (int i = 0; bad[i]; i++)
        assert_int_equal(dse_store_url_parse(bad[i], &u, NULL), ERR_CONFIG);
}

/* The password need not be on the command line (ps shows it):
 * DSE_REDIS_PASSWORD or DSE_REDIS_PASSWORD_FILE when the URL has none;
 * the farm secret likewise from DSE_FARM_SECRET(_FILE). */
static void test_password_and_secret_from_env(void **state)
{
    (void)state;
    dse_redis_url u;
    setenv("DSE_REDIS_PASSWORD", "from-env", 1);
    assert_int_equal(dse_store_url_parse("redis://h", &u, NULL), 0);
    assert_string_equal(u.password, "from-env");
    assert_int_equal(dse_store_url_parse("redis://:url@h", &u, NULL), 0);
    assert_string_equal(u.password, "url"); /* the URL's wins */
    unsetenv("DSE_REDIS_PASSWORD");
    char path[] = "/tmp/dse_pw_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "from-file\n", 10), 10);
    close(fd);
    setenv("DSE_REDIS_PASSWORD_FILE", path, 1);
    assert_int_equal(dse_store_url_parse("redis://h", &u, NULL), 0);
    assert_string_equal(u.password, "from-file");
    setenv("DSE_REDIS_PASSWORD_FILE", "/nonexistent/pw", 1);
    err e;
    assert_int_equal(dse_store_url_parse("redis://h", &u, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "/nonexistent/pw"));
    unsetenv("DSE_REDIS_PASSWORD_FILE");
    dse_secret sec;
    assert_int_equal(dse_farm_secret_from_env(&sec, &e), 0);
    assert_int_equal(sec.len, 0);
    setenv("DSE_FARM_SECRET", "short", 1);
    assert_int_equal(dse_farm_secret_from_env(&sec, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "at least 16"));
    unsetenv("DSE_FARM_SECRET");
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_int_equal(write(fd, "a secret of 22 bytes!!\n", 23), 23);
    close(fd);
    setenv("DSE_FARM_SECRET_FILE", path, 1);
    assert_int_equal(dse_farm_secret_from_env(&sec, &e), 0);
    assert_int_equal(sec.len, 22);
    unsetenv("DSE_FARM_SECRET_FILE");
    unlink(path);
}

/* ---- jobs -------------------------------------------------------------------- */

static void tiny_sim(sim_params *p)
{
    sim_params_init(p);
    net_design_set_radix(&p->design, 2, 4);
    p->design.width = 4;
    p->rate = 0.02;
    p->seed = 7;
    p->warmup_messages = 200;
    p->messages = 1000;
}

static void test_job_key_and_roundtrip(void **state)
{
    (void)state;
    sim_params p;
    tiny_sim(&p);
    volatile sig_atomic_t flag = 0;
    dse_job j;
    dse_job_sim_init(&j, &p);
    char *a = dse_job_format(&j);
    dse_job_fini(&j);
    p.stop_flag = &flag; /* not part of the job */
    p.progress_cycles = 1234;
    dse_job_sim_init(&j, &p);
    char *b = dse_job_format(&j);
    dse_job_fini(&j);
    assert_string_equal(a, b);
    char ka[DSE_JOB_KEY_LEN + 1], kb[DSE_JOB_KEY_LEN + 1];
    dse_job_key(a, ka);
    assert_int_equal(strlen(ka), DSE_JOB_KEY_LEN);
    assert_int_equal(strspn(ka, "0123456789abcdef"), DSE_JOB_KEY_LEN);
    /* parse with the key, format again: the same text */
    assert_int_equal(dse_job_parse(a, NULL, ka, &j, NULL), 0);
    char *c = dse_job_format(&j);
    assert_string_equal(a, c);
    assert_true(j.sim.rate == p.rate && j.sim.seed == 7);
    dse_job_fini(&j);
    /* anything that changes the result changes the key */
    p.seed = 8;
    dse_job_sim_init(&j, &p);
    char *d = dse_job_format(&j);
    dse_job_fini(&j);
    dse_job_key(d, kb);
    assert_string_not_equal(ka, kb);

    /* a score job */
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_space sp;
    assert_int_equal(dse_space_build(&s, &sp, NULL), 0);
    dse_job_score_init(&j, &s, &sp.designs[0], sp.models[0]);
    char *e1 = dse_job_format(&j);
    dse_job_fini(&j);
    char ke[DSE_JOB_KEY_LEN + 1];
    dse_job_key(e1, ke);
    assert_int_equal(dse_job_parse(e1, NULL, ke, &j, NULL), 0);
    assert_int_equal(j.kind, DSE_JOB_SCORE);
    assert_ptr_equal(j.model, sp.models[0]);
    assert_int_equal(j.nrates, s.rates.n);
    char *e2 = dse_job_format(&j);
    assert_string_equal(e1, e2);
    dse_job_fini(&j);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e1);
    free(e2);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    char *out = malloc(strlen(text) + strlen(to) + 1);
    sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

static void test_job_malformed(void **state)
{
    (void)state;
    sim_params p;
    tiny_sim(&p);
    dse_job j;
    dse_job_sim_init(&j, &p);
    char *good = dse_job_format(&j);
    dse_job_fini(&j);
    struct {
        const char *from, *to, *why;
    } cases[] = {
        {"\"v\":1", "\"v\":2", "version"},
        {"\"v\":1", "\"v\":\"1\"", "version"},
        {"\"kind\":\"sim\"", "\"kind\":\"sum\"", "unknown kind"},
        {"\"rate\":0.02", "\"rate\":-0.02", "rate"},
        {"\"rate\":0.02", "\"rate\":0", "rate"},
        {"\"rate\":0.02", "\"rate\":1e999", "bad JSON"},
        {"\"rate\":0.02", "\"rate\":null", "rate"},
        {"\"messages\":1000", "\"messages\":-1", "messages"},
        {"\"messages\":1000", "\"messages\":99999999999", "messages"},
        {"\"messages\":1000", "\"messages\":1.5", "integer"},
        {"\"warmup\":200", "\"warmup\":-200", "warmup"},
        {"\"seed\":7", "\"seed\":-7", "seed"},
        {"topology=torus", "topology=moebius", "topology"},
        {"width=4", "width=0", "width"},
        {"vcs=2", "vcs=1", "invalid design"},
        {"k=4", "k=2000", "nodes"},
        {"traffic=uniform", "traffic=gossip", "workload"},
        {"\"stop\":\"messages\"", "\"stop\":\"never\"", "stop rule"},
        {"\"engine\":\"", "\"engine\":\"x", "made by"},
        {"{", "{\"extra\":1,", "unknown field 'extra'"},
        {"{", "{\"v\":1,", "bad JSON"}, /* duplicate key */
        {"\"max_cycles\":", "\"max_cycles\":9e99,\"x\":", "integer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = replace(good, cases[i].from, cases[i].to);
        assert_non_null(t);
        err e;
        err_clear(&e);
        int rc = dse_job_parse(t, NULL, NULL, &j, &e);
        if (rc == 0 || !strstr(e.msg, cases[i].why))
            fprintf(stderr, "case %zu: rc %d, '%s'\n", i, rc, e.msg);
        assert_int_not_equal(rc, 0);
        assert_non_null(strstr(e.msg, cases[i].why));
        free(t);
    }
    const char *raw[] = {"", "{", "[]", "42", "\"job\"", "{\"v\":1}",
                         "{\"v\":1,\"engine\":\"?\",\"kind\":\"sim\"}", NULL};
    for (int i = 0; raw[i]; i++)
        assert_int_not_equal(dse_job_parse(raw[i], NULL, NULL, &j, NULL), 0);
    /* a key that is not the content's */
    assert_int_not_equal(
        dse_job_parse(good, NULL, "0123456789abcdef0123456789abcdef", &j, NULL),
        0);
    /* limits */
    dse_job_limits lim;
    dse_job_limits_init(&lim);
    lim.max_messages = 500;
    err e;
    assert_int_not_equal(dse_job_parse(good, &lim, NULL, &j, &e), 0);
    lim.max_messages = 1200;
    assert_int_equal(dse_job_parse(good, &lim, NULL, &j, NULL), 0);
    dse_job_fini(&j);
    lim.max_nodes = 8;
    assert_int_not_equal(dse_job_parse(good, &lim, NULL, &j, &e), 0);
    assert_non_null(strstr(e.msg, "nodes"));
    /* A 1024x1024 torus with 64 VCs (a valid job of a few
     * hundred bytes) would need ~19 GB: refused from the estimate, with
     * the reason, before anything is allocated */
    char *big = replace(good, "k=4", "k=1024");
    char *big64 = replace(big, "vcs=2", "vcs=64");
    assert_non_null(big64);
    err_clear(&e);
    assert_int_equal(dse_job_parse(big64, NULL, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "MB of memory"));
    assert_non_null(strstr(e.msg, "--max-memory"));
    free(big);
    free(big64);
    /* too long for this worker: a tiny rate with many messages */
    dse_job_limits_init(&lim);
    lim.max_work = 1e4; /* the job: 1200 messages / (16 x 0.02) x 16 = 6e4 */
    err_clear(&e);
    assert_int_equal(dse_job_parse(good, &lim, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "router-cycles"));
    /* the estimates are sane for the shipped sizes: a 64x64 torus (peak
     * RSS 5.2 MB measured, README) under 50 MB */
    sim_params q;
    tiny_sim(&q);
    net_design_set_radix(&q.design, 2, 64);
    assert_true(sim_memory_estimate(&q) > 1e5 && sim_memory_estimate(&q) < 5e7);
    /* too long a text */
    char *huge = calloc(1, DSE_JOB_TEXT_MAX + 10);
    memset(huge, ' ', DSE_JOB_TEXT_MAX + 5);
    assert_int_not_equal(dse_job_parse(huge, NULL, NULL, &j, NULL), 0);
    free(huge);
    free(good);
}

/* p's saturation job, formatted: it names `field` and differs from
 * `other` (another job, another cache key); parsed back into *back. */
static void saturation_round_trip(const sim_params *p, const char *field,
                                  const char *other, dse_job *back)
{
    dse_job j;
    dse_job_saturation_init(&j, p);
    char *text = dse_job_format(&j);
    dse_job_fini(&j);
    assert_non_null(strstr(text, field));
    assert_string_not_equal(other, text);
    char key[DSE_JOB_KEY_LEN + 1];
    dse_job_key(text, key);
    err e;
    assert_int_equal(dse_job_parse(text, NULL, key, back, &e), 0);
    free(text);
}

/* The decision rounds' saturation search as a farm job: only what
 * sim_saturation reads is in its key, the worker's answer is the local
 * one bit for bit, and its work is bounded before it runs. */
static void test_saturation_job(void **state)
{
    (void)state;
    sim_params p;
    tiny_sim(&p);
    p.deadlock_cycles = 1000;
    dse_job j;
    dse_job_saturation_init(&j, &p);
    char *a = dse_job_format(&j);
    dse_job_fini(&j);
    assert_non_null(strstr(a, "\"kind\":\"saturation\""));
    assert_null(strstr(a, "\"rate\""));
    /* rate and message counts do not change the search: same key */
    p.rate = 0.03;
    p.messages = 5000;
    dse_job_saturation_init(&j, &p);
    char *b = dse_job_format(&j);
    dse_job_fini(&j);
    assert_string_equal(a, b);
    /* the seed does; and a saturation job is not a sim job */
    p.seed = 8;
    dse_job_saturation_init(&j, &p);
    char *c = dse_job_format(&j);
    dse_job_fini(&j);
    assert_string_not_equal(a, c);
    /* the screen's one-probe question is another job; it parses back */
    p.seed = 1;
    p.saturation_ceiling = 0.02;
    saturation_round_trip(&p, "\"ceiling\":", a, &j);
    assert_true(j.sim.saturation_ceiling == 0.02);
    dse_job_fini(&j);
    p.saturation_ceiling = 0;
    /* the channel-load bound decides which answers the search confirms:
     * another job (and cache key); it parses back */
    p.saturation_bound = 0.05;
    saturation_round_trip(&p, "\"bound\":", a, &j);
    assert_true(j.sim.saturation_bound == 0.05);
    dse_job_fini(&j);
    p.saturation_bound = 0;
    p.seed = 8;
    dse_job_sim_init(&j, &p);
    char *d = dse_job_format(&j);
    dse_job_fini(&j);
    char ka[DSE_JOB_KEY_LEN + 1], kd[DSE_JOB_KEY_LEN + 1];
    dse_job_key(a, ka);
    dse_job_key(d, kd);
    assert_string_not_equal(ka, kd);
    /* parsed with its key, run: the local answer, bit for bit */
    err e;
    assert_int_equal(dse_job_parse(a, NULL, ka, &j, &e), 0);
    assert_int_equal(j.kind, DSE_JOB_SATURATION);
    dse_job_result r, back;
    dse_job_run(&j, NULL, &r);
    assert_int_equal(r.sim_code, 0);
    tiny_sim(&p);
    p.deadlock_cycles = 1000;
    sim_saturation_result direct;
    assert_int_equal(sim_saturation(&p, &direct, &e), 0);
    assert_memory_equal(&r.sat, &direct, sizeof direct);
    assert_true(direct.status == SIM_OK && direct.rate > 0);
    char *text = dse_job_result_format(&r, ka);
    assert_int_equal(
        dse_job_result_parse(text, ka, DSE_JOB_SATURATION, 0, &back, &e), 0);
    assert_memory_equal(&back.sat, &direct, sizeof direct);
    /* not a sim result, nor another key's */
    assert_int_not_equal(
        dse_job_result_parse(text, ka, DSE_JOB_SIM, 0, &back, NULL), 0);
    assert_int_not_equal(
        dse_job_result_parse(text, kd, DSE_JOB_SATURATION, 0, &back, NULL), 0);
    free(text);
    dse_job_fini(&j);
    /* a sim job's fields are unknown in a saturation job */
    char *extra = strdup(a);
    char *brace = strrchr(extra, '}');
    *brace = '\0';
    char *bad = malloc(strlen(extra) + 32);
    sprintf(bad, "%s,\"rate\":0.1}", extra);
    assert_int_equal(dse_job_parse(bad, NULL, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "rate"));
    free(bad);
    free(extra);
    /* bounded before it runs: all its probes' router-cycles */
    dse_job_limits lim;
    dse_job_limits_init(&lim);
    lim.max_work = 0.5 * sim_saturation_work_estimate(&p);
    assert_true(sim_saturation_work_estimate(&p) >=
                16.0 * (double)direct.cycles * 0.99);
    assert_int_equal(dse_job_parse(a, &lim, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "saturation search"));
    free(a);
    free(b);
    free(c);
    free(d);
}

/* Score jobs are estimated too (dse_job_score_work) and an
 * over-limit one is refused with its reason before any model runs: many
 * rates at 10^7 iterations, or a million-node ring (whose models' set-up
 * alone is quadratic in the radix).  The shipped studies' jobs are far
 * under the default. */
static void test_job_score_work(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_space sp;
    err e;
    assert_int_equal(dse_space_build(&s, &sp, &e), 0);
    dse_job j;
    for (size_t i = 0; i < sp.count; i++) {
        dse_job_score_init(&j, &s, &sp.designs[i], sp.models[i]);
        double w = dse_job_score_work(&j);
        assert_true(w > 1e3 && w < 1e9);
        char *t = dse_job_format(&j);
        dse_job_fini(&j);
        assert_int_equal(dse_job_parse(t, NULL, NULL, &j, &e), 0);
        dse_job_fini(&j);
        free(t);
    }
    /* the bound itself: (2 rates + 64) x (set-up + 10^4 x step) */
    dse_job_score_init(&j, &s, &sp.designs[0], sp.models[0]);
    const net_design *d = &sp.designs[0];
    double hops = 0;
    for (int i = 0; i < d->n; i++)
        hops += d->k[i] / 2 + 1;
    double want = (2.0 + DSE_JOB_SCORE_SEARCH_EVALS) *
                  ((net_diameter(d) + 1) * hops +
                   1e4 * (d->n + 1) * (d->vcs + d->n));
    assert_true(fabs(dse_job_score_work(&j) - want) <= 1e-9 * want);
    char *good = dse_job_format(&j);
    dse_job_fini(&j);
    dse_job_limits lim;
    dse_job_limits_init(&lim);
    lim.max_score_work = want; /* at the limit: accepted */
    assert_int_equal(dse_job_parse(good, &lim, NULL, &j, &e), 0);
    dse_job_fini(&j);
    lim.max_score_work = want * (1 - 1e-6); /* over it: refused */
    err_clear(&e);
    assert_int_equal(dse_job_parse(good, &lim, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "model steps"));
    assert_non_null(strstr(e.msg, "--max-score-work"));

    /* hostile: 10^7 iterations at a tiny damping (the solver would run
     * every one) over 10^4 rates (the most a job may have): 1.2e12 steps,
     * hours of a worker */
    assert_non_null(strstr(good, "\"max_iterations\":10000,"));
    char *many = replace(good, "\"max_iterations\":10000,",
                         "\"max_iterations\":10000000,");
    char *damp = replace(many, "\"damping\":0.5", "\"damping\":1e-06");
    assert_non_null(damp);
    char *at = strstr(damp, "\"rates\":[");
    assert_non_null(at);
    size_t cap = strlen(damp) + 10000 * 5 + 16;
    char *hostile = calloc(1, cap);
    size_t pre = (size_t)(at - damp) + strlen("\"rates\":[");
    memcpy(hostile, damp, pre);
    char *end = hostile + pre;
    for (int i = 0; i < 10000; i++)
        end += sprintf(end, i ? ",1e-4" : "1e-4");
    strcat(end, strchr(at, ']'));
    assert_true(strlen(hostile) < DSE_JOB_TEXT_MAX);
    err_clear(&e);
    assert_int_equal(dse_job_parse(hostile, NULL, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "model steps"));
    free(hostile);
    free(damp);
    free(many);
    free(good);

    /* a million-node ring (a valid design, under max_nodes): a model's
     * set-up is ~k^2 / 4 per evaluation, 10^13 steps in all */
    net_design ring;
    net_design_init(&ring);
    net_design_set_radix(&ring, 1, 1 << 20);
    ring.vcs = 2;
    ring.width = 4;
    char why[2048];
    const model *m = model_for(&ring, &s.workload, why, sizeof why);
    assert_non_null(m);
    dse_job_score_init(&j, &s, &ring, m);
    assert_true(dse_job_score_work(&j) > 1e13);
    char *t = dse_job_format(&j);
    dse_job_fini(&j);
    err_clear(&e);
    assert_int_equal(dse_job_parse(t, NULL, NULL, &j, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "diameter-524288"));
    free(t);
    /* no model: nothing but the cost to compute */
    dse_job_score_init(&j, &s, &sp.designs[0], NULL);
    assert_true(dse_job_score_work(&j) == 0);
    dse_job_fini(&j);
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* ---- results ------------------------------------------------------------------- */

static void test_result_roundtrip_exact(void **state)
{
    (void)state;
    sim_params p;
    tiny_sim(&p);
    dse_job j;
    dse_job_sim_init(&j, &p);
    dse_job_result r, back;
    dse_job_run(&j, NULL, &r);
    assert_int_equal(r.sim_code, 0);
    sim_result direct;
    assert_int_equal(sim_run(&p, &direct, NULL), 0);
    assert_memory_equal(&r.sim, &direct, sizeof direct);
    char *text = dse_job_result_format(&r, "k");
    assert_int_equal(dse_job_result_parse(text, "k", DSE_JOB_SIM, 0, &back, NULL),
                     0);
    assert_memory_equal(&back.sim, &direct, sizeof direct); /* bit for bit */
    assert_int_not_equal(dse_job_result_parse(text, "other", DSE_JOB_SIM, 0,
                                              &back, NULL),
                         0);
    assert_int_not_equal(dse_job_result_parse(text, "k", DSE_JOB_SCORE, 2,
                                              &back, NULL),
                         0);
    free(text);
    dse_job_fini(&j);

    /* NaN and infinities survive */
    memset(&r, 0, sizeof r);
    r.kind = DSE_JOB_SCORE;
    r.nrates = 3;
    double lat[3] = {NAN, INFINITY, 0.1};
    r.latency = lat;
    for (int i = 0; i < CFG_MAX_OBJECTIVES; i++)
        r.objectives[i] = i == 1 ? -INFINITY : NAN;
    r.saturation_rate = 1.0 / 3.0;
    text = dse_job_result_format(&r, "k");
    assert_int_equal(dse_job_result_parse(text, "k", DSE_JOB_SCORE, 3, &back,
                                          NULL),
                     0);
    assert_true(isnan(back.latency[0]) && back.latency[1] == INFINITY &&
                back.latency[2] == 0.1);
    assert_true(back.objectives[1] == -INFINITY && isnan(back.objectives[0]));
    assert_true(back.saturation_rate == 1.0 / 3.0);
    dse_job_result_fini(&back);
    free(text);

    /* a score job through JSON fills the candidate as dse_score_design */
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_space sp;
    assert_int_equal(dse_space_build(&s, &sp, NULL), 0);
    for (size_t i = 0; i < sp.count; i++) {
        dse_candidate want, got;
        memset(&want, 0, sizeof want);
        memset(&got, 0, sizeof got);
        want.latency = calloc(s.rates.n, sizeof(double));
        got.latency = calloc(s.rates.n, sizeof(double));
        dse_score_design(&s, &sp.designs[i], sp.models[i], &want, NULL);
        dse_job_score_init(&j, &s, &sp.designs[i], sp.models[i]);
        char *jt = dse_job_format(&j);
        dse_job_fini(&j);
        char key[DSE_JOB_KEY_LEN + 1];
        dse_job_key(jt, key);
        assert_int_equal(dse_job_parse(jt, NULL, key, &j, NULL), 0);
        dse_job_run(&j, NULL, &r);
        text = dse_job_result_format(&r, key);
        assert_int_equal(dse_job_result_parse(text, key, DSE_JOB_SCORE,
                                              s.rates.n, &back, NULL),
                         0);
        dse_job_result_to_candidate(&back, &sp.designs[i], sp.models[i], &got);
        assert_memory_equal(got.latency, want.latency,
                            s.rates.n * sizeof(double));
        double *gl = got.latency, *wl = want.latency;
        got.latency = want.latency = NULL;
        assert_memory_equal(&got, &want, sizeof got);
        free(gl);
        free(wl);
        free(text);
        free(jt);
        dse_job_result_fini(&r);
        dse_job_result_fini(&back);
        dse_job_fini(&j);
    }
    dse_space_fini(&sp);
    cfg_study_fini(&s);
}

/* ---- the daemon's checks ---------------------------------------------------------- */

/* The daemon writes study ID's report to ROOT/ID whatever the
 * study says; ids read from Redis that are not decimal are refused; an
 * existing ROOT/ID that is not a dse report (or is a link) is refused. */
static void test_report_path(void **state)
{
    (void)state;
    char root[] = "/tmp/dse_farm_paths_XXXXXX";
    assert_non_null(mkdtemp(root));
    char out[PATH_MAX], want[PATH_MAX];
    err e;
    const char *refused[] = {"", "..", "../x", "1/..", "/etc", "7a", "-1",
                             "123456789012345678901", NULL};
    for (int i = 0; refused[i]; i++)
        assert_int_equal(dse_serve_report_path(root, refused[i], out,
                                               sizeof out, &e),
                         ERR_CONFIG);
    assert_int_equal(dse_serve_report_path(root, "42", out, sizeof out, &e), 0);
    snprintf(want, sizeof want, "%s/42", root);
    assert_string_equal(out, want);
    /* a foreign directory or a symbolic link at ROOT/ID */
    assert_int_equal(mkdir(want, 0755), 0);
    snprintf(want, sizeof want, "%s/42/mine.txt", root);
    FILE *f = fopen(want, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(dse_serve_report_path(root, "42", out, sizeof out, &e),
                     ERR_CONFIG);
    assert_non_null(strstr(e.msg, "not written by dse"));
    snprintf(want, sizeof want, "%s/43", root);
    assert_int_equal(symlink("/tmp", want), 0);
    assert_int_equal(dse_serve_report_path(root, "43", out, sizeof out, &e),
                     ERR_CONFIG);
    assert_non_null(strstr(e.msg, "symbolic link"));
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

static void test_limits(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_serve_opts o;
    dse_serve_opts_init(&o);
    err e;
    assert_int_equal(dse_serve_check_limits(&s, &o.limits, NULL, &e), 0);
    dse_serve_limits l = o.limits;
    l.max_designs = 4; /* the space has 5 */
    assert_int_equal(dse_serve_check_limits(&s, &l, NULL, &e), ERR_CONFIG);
    assert_non_null(strstr(e.msg, "5 feasible designs"));
    l = o.limits;
    l.max_rates = 1;
    assert_int_equal(dse_serve_check_limits(&s, &l, NULL, &e), ERR_CONFIG);
    l = o.limits;
    l.max_nodes = 8;
    assert_int_equal(dse_serve_check_limits(&s, &l, NULL, &e), ERR_CONFIG);
    l = o.limits;
    /* 3 finalists x 2 rates x 2 seeds x (500 + 10 x 3000) = 366000 */
    l.max_sim_messages = 366000;
    assert_int_equal(dse_serve_check_limits(&s, &l, NULL, &e), 0);
    l.max_sim_messages = 365999;
    assert_int_equal(dse_serve_check_limits(&s, &l, NULL, &e), ERR_CONFIG);
    cfg_study_fini(&s);
}

/* A huge space (65,536 nodes, mixed radices, long vcs and
 * buffer lists: tens of millions of combinations) is refused by counting,
 * in well under a second, instead of being built (gigabytes, minutes). */
static void test_limits_count_before_enumerating(void **state)
{
    (void)state;
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
    cfg_study s;
    err e;
    int rc = cfg_study_load_string(yaml, "huge.yaml", &s, &e);
    if (rc) {
        char buf[1024];
        print_error("%s\n", err_format(&e, buf, sizeof buf));
    }
    assert_int_equal(rc, 0);
    assert_true(dse_space_enumerated(&s) > 1e7);
    dse_serve_opts o;
    dse_serve_opts_init(&o);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(dse_serve_check_limits(&s, &o.limits, NULL, &e), ERR_CONFIG);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(strstr(e.msg, "combinations to enumerate"));
    double secs = (double)(t1.tv_sec - t0.tv_sec) +
                  (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(secs < 2.0);
    cfg_study_fini(&s);
}

/* A study under max_enumerated (so the check builds its space) whose
 * build still takes a while: 4096 nodes, every radix factorisation of
 * dimensions 1 to 12, 63 x 64 VC and buffer options (620,928
 * combinations, 2 s in the ASan build). */
static const char *const slow_yaml =
    "study: slow\nnodes: 4096\ntechnology: vlsi\n"
    "budget:\n  bisection_wires: 65536\n"
    "message:\n  bits: 32\n  length: fixed\ntraffic: uniform\n"
    "rates: [0.001]\n"
    "space:\n  topologies: [torus]\n  dimensions: {from: 1, to: 12}\n"
    "  mixed_radices: true\n  routings: [deterministic, duato]\n"
    "  vcs: {from: 2, to: 64}\n  buffer_flits: {from: 1, to: 64}\n"
    "objectives: [latency, saturation, cost(bisection)]\n"
    "finalists: 3\nsearch: exhaustive\n"
    "report:\n  directory: reports/slow\n";

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct stopper {
    volatile sig_atomic_t *flag;
    double after_s, set_at;
    pthread_t th;
} stopper;

static void *stopper_main(void *arg)
{
    stopper *x = arg;
    test_sleep(x->after_s);
    x->set_at = mono_s();
    *x->flag = 1;
    return NULL;
}

/* The limit check builds a space of up to max_enumerated
 * combinations, which takes seconds; a stop flag set meanwhile (the
 * daemon's SIGTERM) makes it return ERR_INTERRUPTED at once instead of
 * finishing the build. */
static void test_limits_check_stops(void **state)
{
    (void)state;
    cfg_study s;
    err e;
    assert_int_equal(cfg_study_load_string(slow_yaml, "slow.yaml", &s, &e), 0);
    double combos = dse_space_enumerated(&s);
    dse_serve_opts o;
    dse_serve_opts_init(&o);
    assert_true(combos > 5e5 && combos <= (double)o.limits.max_enumerated);
    volatile sig_atomic_t stop = 1; /* already set: no build at all */
    double t0 = mono_s();
    assert_int_equal(dse_serve_check_limits(&s, &o.limits, &stop, &e),
                     ERR_INTERRUPTED);
    assert_true(mono_s() - t0 < 0.5);
    stop = 0;
    stopper x = {&stop, 0.05, 0, 0};
    pthread_create(&x.th, NULL, stopper_main, &x);
    int rc = dse_serve_check_limits(&s, &o.limits, &stop, &e);
    double t1 = mono_s();
    pthread_join(x.th, NULL);
    assert_int_equal(rc, ERR_INTERRUPTED);
    assert_non_null(strstr(e.msg, "stopped"));
    assert_true(t1 - x.set_at < 0.5);
    cfg_study_fini(&s);
}

/* The daemon (dse_serve_run in a thread) on the in-memory store. */
typedef struct sthread {
    dse_store_spec spec;
    dse_serve_opts o;
    volatile sig_atomic_t stop;
    int rc;
    err e;
    pthread_t th;
} sthread;

static void *serve_main(void *arg)
{
    sthread *x = arg;
    x->rc = dse_serve_run(&x->spec, &x->o, &x->stop, &x->e);
    return NULL;
}

/* Wait until study id's status is `status` (and, when phase is non-NULL,
 * its phase is `phase`); 1 when it came within seconds. */
static int wait_study(dse_store *st, const dse_farm_opts *fo, const char *id,
                      const char *status, const char *phase, double seconds,
                      dse_study_info *out)
{
    for (double t = 0; t < seconds; t += 0.01) {
        if (dse_study_get(st, fo, id, 0, out, NULL) == 0 &&
            strcmp(out->status, status) == 0 &&
            (!phase || strcmp(out->phase, phase) == 0))
            return 1;
        test_sleep(0.01);
    }
    return 0;
}

/* End to end: a study with tens of millions of combinations is
 * refused at once by counting (the reason says so); a daemon stopped
 * while it checks a smaller but still slow study returns promptly and
 * leaves the study queued at the head for the next daemon. */
static void test_serve_huge_and_stop_during_check(void **state)
{
    (void)state;
    dse_mem_db *db = dse_mem_db_create();
    sthread x;
    memset(&x, 0, sizeof x);
    x.spec.open = dse_mem_store_open;
    x.spec.open_ctx = db;
    dse_serve_opts_init(&x.o);
    char root[] = "/tmp/dse-serve-check-XXXXXX";
    assert_non_null(mkdtemp(root));
    snprintf(x.o.output_root, sizeof x.o.output_root, "%s", root);
    pthread_create(&x.th, NULL, serve_main, &x);
    dse_store st;
    dse_store_open(&x.spec, &st);
    dse_study_info info;
    char id[DSE_STUDY_ID_MAX];
    err e;

    const char *huge =
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
    double t0 = mono_s();
    assert_int_equal(dse_serve_submit(&x.spec, &x.o.farm, huge, "huge.yaml",
                                      id, &e),
                     0);
    assert_true(wait_study(&st, &x.o.farm, id, "refused", NULL, 10, &info));
    assert_true(mono_s() - t0 < 3.0);
    assert_non_null(strstr(info.reason, "combinations to enumerate"));
    assert_non_null(strstr(info.reason, "over this farm's limit"));

    assert_int_equal(dse_serve_submit(&x.spec, &x.o.farm, slow_yaml,
                                      "slow.yaml", id, &e),
                     0);
    assert_true(wait_study(&st, &x.o.farm, id, "running", "checking", 10,
                           &info));
    double stopped = mono_s();
    x.stop = 1; /* what SIGTERM does in dse serve */
    pthread_join(x.th, NULL);
    assert_true(mono_s() - stopped < 1.5);
    assert_int_equal(x.rc, 0);
    assert_true(wait_study(&st, &x.o.farm, id, "queued", NULL, 1, &info));
    char **ids;
    size_t n;
    assert_int_equal(st.ops->lrange(st.self, "dse:studies:queue", 0, -1, &ids,
                                    &n, NULL),
                     0);
    assert_int_equal(n, 1);
    assert_string_equal(ids[0], id);
    free(ids[0]);
    free(ids);
    dse_store_close(&st);
    dse_mem_db_destroy(db);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

/* ---- whole runs on the in-memory store ------------------------------------------------ */

typedef struct wthread {
    dse_store_spec spec;
    dse_worker_opts o;
    volatile sig_atomic_t stop, hard;
    int rc;
    pthread_t th;
} wthread;

static void *worker_main(void *arg)
{
    wthread *w = arg;
    w->rc = dse_worker_run(&w->spec, &w->o, &w->stop, &w->hard, NULL);
    return NULL;
}

static void worker_start(wthread *w, dse_mem_db *db, int slots)
{
    memset(w, 0, sizeof *w);
    w->spec.open = dse_mem_store_open;
    w->spec.open_ctx = db;
    dse_worker_opts_init(&w->o);
    w->o.slots = slots;
    w->o.farm.heartbeat_s = 0.1;
    w->o.farm.visibility_s = 2;
    snprintf(w->o.name, sizeof w->o.name, "memw");
    pthread_create(&w->th, NULL, worker_main, w);
}

static int worker_stop(wthread *w)
{
    w->stop = 1;
    pthread_join(w->th, NULL);
    return w->rc;
}

static char *local_tiny;

/* Through a worker: with --max-score-work under the study's
 * jobs, every score job is dead-lettered with the estimate as its reason
 * (none is run) and the coordinator reports that reason. */
static void test_mem_score_refused(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_mem_db *db = dse_mem_db_create();
    wthread w;
    memset(&w, 0, sizeof w);
    w.spec.open = dse_mem_store_open;
    w.spec.open_ctx = db;
    dse_worker_opts_init(&w.o);
    w.o.slots = 2;
    w.o.farm.heartbeat_s = 0.1;
    w.o.limits.max_score_work = 1000; /* every job here is over 10^6 */
    snprintf(w.o.name, sizeof w.o.name, "memw");
    pthread_create(&w.th, NULL, worker_main, &w);
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    dse_farm *farm;
    err e;
    assert_int_equal(dse_farm_create(&w.spec, &fo, &farm, &e), 0);
    dse_executor ex;
    dse_farm_executor(farm, &ex);
    int rc;
    char *json = test_run_json(&s, &ex, &rc, &e);
    free(json);
    const char *const *reasons;
    size_t n = dse_farm_failures(farm, &reasons);
    assert_true(n >= 1);
    for (size_t i = 0; i < n; i++)
        if (!strstr(reasons[i], "model steps") ||
            !strstr(reasons[i], "--max-score-work"))
            fail_msg("failure %zu: %s", i, reasons[i]);
    dse_farm_destroy(farm);
    assert_int_equal(worker_stop(&w), 0);
    dse_mem_db_destroy(db);
    cfg_study_fini(&s);
}

/* A farm on an in-memory store with two worker threads: the executor a
 * run is given to compare it with the local run. */
typedef struct mem_farm {
    dse_mem_db *db;
    wthread w;
    dse_store_spec spec;
    dse_farm *farm;
    dse_executor ex;
} mem_farm;

static void mem_farm_start(mem_farm *mf)
{
    err e;
    mf->db = dse_mem_db_create();
    worker_start(&mf->w, mf->db, 2);
    mf->spec = (dse_store_spec){.open = dse_mem_store_open,
                                .open_ctx = mf->db};
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    assert_int_equal(dse_farm_create(&mf->spec, &fo, &mf->farm, &e), 0);
    dse_farm_executor(mf->farm, &mf->ex);
}

/* The farm and its workers gone; the store stays for inspection. */
static void mem_farm_stop_workers(mem_farm *mf)
{
    dse_farm_destroy(mf->farm);
    assert_int_equal(worker_stop(&mf->w), 0);
}

static void test_mem_identical(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    int rc;
    err e;
    local_tiny = test_run_json(&s, NULL, &rc, &e);
    assert_non_null(local_tiny);
    mem_farm mf;
    mem_farm_start(&mf);
    char *json = test_run_json(&s, &mf.ex, &rc, &e);
    assert_int_equal(rc, 0);
    assert_string_equal(json, local_tiny);
    assert_int_equal(dse_farm_failures(mf.farm, NULL), 0);
    free(json);
    /* again: all from the cache */
    size_t before = dse_farm_cached(mf.farm);
    json = test_run_json(&s, &mf.ex, &rc, &e);
    assert_string_equal(json, local_tiny);
    assert_true(dse_farm_cached(mf.farm) > before);
    free(json);
    mem_farm_stop_workers(&mf);
    /* the worker deregistered and left nothing pending */
    dse_store st;
    dse_store_open(&mf.spec, &st);
    long long n;
    st.ops->xpending_count(st.self, "dse:jobs", DSE_FARM_GROUP, &n, NULL);
    assert_int_equal(n, 0);
    char **m;
    size_t nm;
    st.ops->zrange_from(st.self, "dse:workers", 0, &m, &nm, NULL);
    assert_int_equal(nm, 0);
    free(m);
    dse_store_close(&st);
    dse_mem_db_destroy(mf.db);
    cfg_study_fini(&s);
}

/* A study whose designs have clocks of their own (Chien's router model):
 * a score job carries the design's own rates and the coordinator turns
 * its answer into reference cycles, so the farm's results are the local
 * run's, bit for bit, and both count in a reference clock. */
static void test_mem_identical_own_clocks(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    s.router.model = PHYS_ROUTER_CHIEN;
    int rc;
    err e;
    char *local = test_run_json(&s, NULL, &rc, &e);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(local, "\"reference_clock_ns\": 5.8"));
    mem_farm mf;
    mem_farm_start(&mf);
    char *json = test_run_json(&s, &mf.ex, &rc, &e);
    assert_int_equal(rc, 0);
    assert_string_equal(json, local);
    assert_int_equal(dse_farm_failures(mf.farm, NULL), 0);
    free(json);
    free(local);
    mem_farm_stop_workers(&mf);
    dse_mem_db_destroy(mf.db);
    cfg_study_fini(&s);
}

/* Results carry their engine, and with a farm secret they are
 * sealed (HMAC-SHA256 over key and text): altered, unsealed, copied to
 * another key or other-engine results are refused. */
static void test_result_seal(void **state)
{
    (void)state;
    dse_secret sec = {.len = 20};
    memcpy(sec.bytes, "0123456789abcdefghij", 20);
    sim_params p;
    tiny_sim(&p);
    dse_job j;
    dse_job_sim_init(&j, &p);
    dse_job_result r, back;
    dse_job_run(&j, NULL, &r);
    char *plain = dse_job_result_format(&r, "k1");
    assert_non_null(strstr(plain, "\"engine\":\"dse "));
    char *sealed = dse_job_result_seal(plain, "k1", &sec);
    assert_int_equal(strncmp(sealed, "{\"mac\":\"", 8), 0);
    err e;
    assert_int_equal(dse_job_result_verify(sealed, "k1", &sec, &e), 0);
    assert_int_equal(dse_job_result_parse(sealed, "k1", DSE_JOB_SIM, 0, &back,
                                          NULL),
                     0);
    assert_memory_equal(&back.sim, &r.sim, sizeof r.sim);
    dse_job_result_fini(&back);
    /* no secret: anything well-formed passes verify */
    assert_int_equal(dse_job_result_verify(plain, "k1", NULL, NULL), 0);
    /* with one: unsealed, other key, altered, other secret are refused */
    assert_int_equal(dse_job_result_verify(plain, "k1", &sec, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "not sealed"));
    assert_int_equal(dse_job_result_verify(sealed, "k2", &sec, &e), ERR_INVALID);
    assert_non_null(strstr(e.msg, "MAC mismatch"));
    char *alt = replace(sealed, "\"status\":", "\"status\": ");
    assert_int_equal(dse_job_result_verify(alt, "k1", &sec, &e), ERR_INVALID);
    free(alt);
    dse_secret other = sec;
    other.bytes[0] ^= 1;
    assert_int_equal(dse_job_result_verify(sealed, "k1", &other, &e),
                     ERR_INVALID);
    /* another engine's result is not this program's */
    alt = replace(plain, "\"engine\":\"dse ", "\"engine\":\"dsx ");
    assert_int_not_equal(dse_job_result_parse(alt, "k1", DSE_JOB_SIM, 0, &back,
                                              NULL),
                         0);
    free(alt);
    free(sealed);
    free(plain);
    dse_job_result_fini(&r);
    dse_job_fini(&j);
}

/* A worker thread on db with a farm secret. */
static void worker_start_secret(wthread *w, dse_mem_db *db,
                                const dse_secret *sec)
{
    memset(w, 0, sizeof *w);
    w->spec.open = dse_mem_store_open;
    w->spec.open_ctx = db;
    dse_worker_opts_init(&w->o);
    w->o.slots = 2;
    w->o.farm.heartbeat_s = 0.1;
    w->o.farm.visibility_s = 2;
    w->o.farm.secret = *sec;
    snprintf(w->o.name, sizeof w->o.name, "memw");
    pthread_create(&w->th, NULL, worker_main, w);
}

/* A result planted in the store for every design of the study
 * (well-formed, this engine, right keys, a fake latency of 1 cycle) ranks
 * a fake design first on a farm without a secret; with a farm secret the
 * plants are ignored, re-computed, and the results equal the local run. */
static void test_mem_planted_results(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    int rc;
    err e;
    char *local = test_run_json(&s, NULL, &rc, &e);
    assert_non_null(local);
    dse_space sp;
    assert_int_equal(dse_space_build(&s, &sp, &e), 0);
    for (int secret = 0; secret < 2; secret++) {
        dse_mem_db *db = dse_mem_db_create();
        dse_store_spec spec = {.open = dse_mem_store_open, .open_ctx = db};
        dse_store st;
        dse_store_open(&spec, &st);
        for (size_t i = 0; i < sp.count; i++) {
            dse_job j;
            dse_job_score_init(&j, &s, &sp.designs[i], sp.models[i]);
            char *text = dse_job_format(&j);
            char key[DSE_JOB_KEY_LEN + 1], rkey[128];
            dse_job_key(text, key);
            dse_job_result fake;
            memset(&fake, 0, sizeof fake);
            fake.kind = DSE_JOB_SCORE;
            fake.nrates = s.rates.n;
            double lat[8] = {1, 1, 1, 1, 1, 1, 1, 1};
            fake.latency = lat;
            fake.zero_load = 1;
            fake.saturation_rate = 0.99;
            for (int q = 0; q < CFG_MAX_OBJECTIVES; q++)
                fake.objectives[q] = q == 1 ? -0.99 : 1;
            char *planted = dse_job_result_format(&fake, key);
            snprintf(rkey, sizeof rkey, "dse:result:%s", key);
            assert_int_equal(st.ops->set(st.self, rkey, planted, 0, 0, NULL,
                                         NULL),
                             0);
            free(planted);
            free(text);
            dse_job_fini(&j);
        }
        dse_secret sec = {.len = 0};
        if (secret) {
            sec.len = 24;
            memcpy(sec.bytes, "a farm secret of 24 byte", 24);
        }
        wthread w;
        worker_start_secret(&w, db, &sec);
        dse_farm_opts fo;
        dse_farm_opts_init(&fo);
        fo.secret = sec;
        dse_farm *farm;
        assert_int_equal(dse_farm_create(&spec, &fo, &farm, &e), 0);
        dse_executor ex;
        dse_farm_executor(farm, &ex);
        char *json = test_run_json(&s, &ex, &rc, &e);
        assert_int_equal(rc, 0);
        if (secret)
            assert_string_equal(json, local); /* plants ignored */
        else
            assert_string_not_equal(json, local); /* the hole, documented */
        free(json);
        dse_farm_destroy(farm);
        assert_int_equal(worker_stop(&w), 0);
        dse_store_close(&st);
        dse_mem_db_destroy(db);
    }
    dse_space_fini(&sp);
    free(local);
    cfg_study_fini(&s);
}

/* Enqueue a valid sim job; returns its key (static buffer). */
static const char *enqueue_sim(dse_store *st, uint64_t seed, char *key)
{
    sim_params p;
    tiny_sim(&p);
    p.seed = seed;
    dse_job j;
    dse_job_sim_init(&j, &p);
    char *text = dse_job_format(&j);
    dse_job_fini(&j);
    dse_job_key(text, key);
    const char *f[] = {"key", "job"};
    const char *v[] = {key, text};
    st->ops->xadd(st->self, "dse:jobs", 2, f, v, 0, NULL, NULL);
    free(text);
    return key;
}

static int wait_result(dse_store *st, const char *key, double seconds)
{
    char rkey[80];
    snprintf(rkey, sizeof rkey, "dse:result:%s", key);
    for (double t = 0; t < seconds; t += 0.02) {
        const char *k[] = {rkey};
        char *v = NULL;
        st->ops->get_many(st->self, k, 1, &v, NULL);
        if (v) {
            free(v);
            return 1;
        }
        test_sleep(0.02);
    }
    return 0;
}

static void test_mem_reclaim_and_dead_letter(void **state)
{
    (void)state;
    dse_mem_db *db = dse_mem_db_create();
    dse_store_spec spec = {.open = dse_mem_store_open, .open_ctx = db};
    dse_store st;
    dse_store_open(&spec, &st);
    assert_int_equal(st.ops->xgroup_create(st.self, "dse:jobs", DSE_FARM_GROUP,
                                           NULL, NULL),
                     0);
    /* a ghost takes a job and dies */
    char k1[DSE_JOB_KEY_LEN + 1], k2[DSE_JOB_KEY_LEN + 1];
    enqueue_sim(&st, 1, k1);
    dse_store_entry *en;
    size_t n;
    assert_int_equal(st.ops->xreadgroup(st.self, "dse:jobs", DSE_FARM_GROUP,
                                        "ghost", 1, 0, &en, &n, NULL),
                     0);
    assert_int_equal(n, 1);
    dse_store_entries_free(en, n);
    wthread w;
    worker_start(&w, db, 1);
    test_sleep(0.5);
    assert_false(wait_result(&st, k1, 0.1)); /* not yet: not idle long enough */
    dse_mem_db_advance_ms(db, 3000);
    assert_true(wait_result(&st, k1, 5));
    long long pel = -1;
    for (int i = 0; i < 100 && pel != 0; i++) {
        st.ops->xpending_count(st.self, "dse:jobs", DSE_FARM_GROUP, &pel, NULL);
        test_sleep(0.02);
    }
    assert_int_equal(pel, 0);
    assert_int_equal(worker_stop(&w), 0);

    /* a job that keeps being abandoned: dead letter after max_deliveries */
    enqueue_sim(&st, 2, k2);
    assert_int_equal(st.ops->xreadgroup(st.self, "dse:jobs", DSE_FARM_GROUP,
                                        "ghost", 1, 0, &en, &n, NULL),
                     0);
    dse_store_entries_free(en, n);
    for (int i = 0; i < 2; i++) { /* two more ghosts claim it */
        dse_mem_db_advance_ms(db, 3000);
        assert_int_equal(st.ops->xautoclaim(st.self, "dse:jobs", DSE_FARM_GROUP,
                                            "ghost2", 2000, 1, &en, &n, NULL),
                         0);
        assert_int_equal(n, 1);
        assert_int_equal(en[0].deliveries, 2 + i);
        dse_store_entries_free(en, n);
    }
    dse_mem_db_advance_ms(db, 3000);
    worker_start(&w, db, 1); /* max_deliveries 3: the 4th is refused */
    long long dead = 0;
    for (int i = 0; i < 250 && dead == 0; i++) {
        st.ops->xlen(st.self, "dse:dead", &dead, NULL);
        test_sleep(0.02);
    }
    assert_int_equal(dead, 1);
    assert_int_equal(st.ops->xrange(st.self, "dse:dead", "-", 10, &en, &n, NULL),
                     0);
    assert_non_null(strstr(dse_store_entry_get(&en[0], "reason"),
                           "delivered 4 times"));
    assert_string_equal(dse_store_entry_get(&en[0], "key"), k2);
    dse_store_entries_free(en, n);
    assert_false(wait_result(&st, k2, 0.1));
    assert_int_equal(worker_stop(&w), 0);
    dse_store_close(&st);
    dse_mem_db_destroy(db);
}

typedef struct flapper {
    dse_mem_db *db;
    double down_at, up_at;
    int flush;               /* lose the data instead of going down */
} flapper;

static void *flap_main(void *arg)
{
    flapper *f = arg;
    test_sleep(f->down_at);
    if (f->flush) {
        dse_mem_db_flush(f->db);
        return NULL;
    }
    dse_mem_db_set_down(f->db, 1);
    if (f->up_at > 0) {
        test_sleep(f->up_at - f->down_at);
        dse_mem_db_set_down(f->db, 0);
    }
    return NULL;
}

static void test_mem_store_down(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    dse_mem_db *db = dse_mem_db_create();
    dse_store_spec spec = {.open = dse_mem_store_open, .open_ctx = db};
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    fo.redis_timeout_s = 1.0;
    err e;
    int rc;

    /* down for 0.6 s in the middle (under the timeout): completes */
    wthread w;
    worker_start(&w, db, 2);
    dse_farm *farm;
    assert_int_equal(dse_farm_create(&spec, &fo, &farm, &e), 0);
    dse_executor ex;
    dse_farm_executor(farm, &ex);
    flapper fl = {db, 0.3, 0.9, 0};
    pthread_t th;
    pthread_create(&th, NULL, flap_main, &fl);
    char *json = test_run_json(&s, &ex, &rc, &e);
    pthread_join(th, NULL);
    assert_int_equal(rc, 0);
    assert_string_equal(json, local_tiny);
    free(json);
    dse_farm_destroy(farm);
    assert_int_equal(worker_stop(&w), 0);

    /* down for good: ERR_REDIS after about the timeout */
    dse_mem_db *db2 = dse_mem_db_create();
    spec.open_ctx = db2;
    assert_int_equal(dse_farm_create(&spec, &fo, &farm, &e), 0);
    dse_farm_executor(farm, &ex);
    fl = (flapper){db2, 0.0, 0, 0};
    pthread_create(&th, NULL, flap_main, &fl);
    pthread_join(th, NULL);
    double t0 = dse_now_s();
    json = test_run_json(&s, &ex, &rc, &e);
    double took = dse_now_s() - t0;
    assert_null(json);
    assert_int_equal(rc, ERR_REDIS);
    assert_non_null(strstr(e.msg, "unreachable"));
    assert_true(took >= 1.0 && took < 3.0);
    dse_farm_destroy(farm);
    /* and a farm cannot be opened on it */
    assert_int_equal(dse_farm_create(&spec, &fo, &farm, &e), ERR_REDIS);
    assert_null(farm);
    dse_mem_db_destroy(db2);
    dse_mem_db_destroy(db);
    cfg_study_fini(&s);
    free(local_tiny);
}

/* The store loses everything mid-run (restart without persistence): the
 * worker re-creates the group, the coordinator notices its jobs are gone
 * and sends them again. */
static void test_mem_store_lost_data(void **state)
{
    (void)state;
    cfg_study s;
    assert_int_equal(test_load_study("farm_tiny.yaml", &s), 0);
    int rc;
    err e;
    char *local = test_run_json(&s, NULL, &rc, &e);
    dse_mem_db *db = dse_mem_db_create();
    dse_store_spec spec = {.open = dse_mem_store_open, .open_ctx = db};
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    wthread w;
    worker_start(&w, db, 1);
    dse_farm *farm;
    assert_int_equal(dse_farm_create(&spec, &fo, &farm, &e), 0);
    dse_executor ex;
    dse_farm_executor(farm, &ex);
    flapper fl = {db, 0.4, 0, 1};
    pthread_t th;
    pthread_create(&th, NULL, flap_main, &fl);
    char *json = test_run_json(&s, &ex, &rc, &e);
    pthread_join(th, NULL);
    assert_int_equal(rc, 0);
    assert_string_equal(json, local);
    free(json);
    free(local);
    dse_farm_destroy(farm);
    assert_int_equal(worker_stop(&w), 0);
    dse_mem_db_destroy(db);
    cfg_study_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_url_parse),
        cmocka_unit_test(test_job_key_and_roundtrip),
        cmocka_unit_test(test_job_malformed),
        cmocka_unit_test(test_saturation_job),
        cmocka_unit_test(test_job_score_work),
        cmocka_unit_test(test_result_roundtrip_exact),
        cmocka_unit_test(test_password_and_secret_from_env),
        cmocka_unit_test(test_report_path),
        cmocka_unit_test(test_result_seal),
        cmocka_unit_test(test_mem_planted_results),
        cmocka_unit_test(test_limits_count_before_enumerating),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_limits_check_stops),
        cmocka_unit_test(test_serve_huge_and_stop_during_check),
        cmocka_unit_test(test_mem_identical),
        cmocka_unit_test(test_mem_identical_own_clocks),
        cmocka_unit_test(test_mem_score_refused),
        cmocka_unit_test(test_mem_reclaim_and_dead_letter),
        cmocka_unit_test(test_mem_store_down),
        cmocka_unit_test(test_mem_store_lost_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
