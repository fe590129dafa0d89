/*
 * test_farm_fence_redis.c — the daemon's fenced writes against
 * a real redis-server on a free loopback port (integration; skipped
 * without redis-server), and the in-memory store behaving the same:
 *
 *   - dse_store_ops.fenced: the commands run only while the fence holds
 *     the token, and both backends agree on every case (absent, other
 *     token, expired, wrong type, a disallowed command, a failing command
 *     in the middle);
 *   - the race: a writer hammers fenced writes with token A while the test
 *     hands the lock to B and back; while B holds it the counter never
 *     moves, and every write reported as done happened exactly once.  A
 *     check-then-write (GET, then the write) fails this within a few
 *     hundred hand-overs;
 *   - a daemon (dse_serve_run in a thread) whose lock is taken over while
 *     its study runs writes nothing more to the study, its lists or the
 *     report directory, and returns "lost the lock".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>

#include "dse/farm/farm_serve.h"
#include "support/store_mem.h"
#include "test_farm_util.h"

static void cmd(dse_store_cmd *c, ...)
{
    va_list ap;
    va_start(ap, c);
    const char *x;
    c->argc = 0;
    while ((x = va_arg(ap, const char *)) != NULL)
        c->argv[c->argc++] = x;
    va_end(ap);
}

/* The value of string key k, or "" (absent). */
static void get_str(dse_store *st, const char *k, char *buf, size_t size)
{
    const char *keys[1] = {k};
    char *v = NULL;
    assert_int_equal(st->ops->get_many(st->self, keys, 1, &v, NULL), 0);
    snprintf(buf, size, "%s", v ? v : "");
    free(v);
}

static size_t list_len(dse_store *st, const char *k)
{
    char **v;
    size_t n;
    assert_int_equal(st->ops->lrange(st->self, k, 0, -1, &v, &n, NULL), 0);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    return n;
}

/* Every case of fenced(), on one backend. */
static void fenced_cases(dse_store *st)
{
    dse_store_fence f = {"t:lock", "A 1", -1};
    dse_store_cmd c[3];
    err e;
    char buf[64];
    st->ops->del(st->self, "t:lock", NULL);
    st->ops->del(st->self, "t:h", NULL);
    st->ops->del(st->self, "t:q", NULL);
    /* absent lock: nothing runs */
    cmd(&c[0], "HSET", "t:h", "status", "running", NULL);
    cmd(&c[1], "LPUSH", "t:q", "7", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 2, &e), 0);
    assert_int_equal(f.held, 0);
    assert_int_equal(test_hget_ll(st, "t:h", "status"), 0);
    assert_int_equal(list_len(st, "t:q"), 0);
    /* another token: nothing runs */
    assert_int_equal(st->ops->set(st->self, "t:lock", "B 2", 0, 0, NULL, &e),
                     0);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 2, &e), 0);
    assert_int_equal(f.held, 0);
    assert_int_equal(list_len(st, "t:q"), 0);
    /* ours: all run, in order */
    assert_int_equal(st->ops->set(st->self, "t:lock", "A 1", 0, 0, NULL, &e),
                     0);
    cmd(&c[0], "HSET", "t:h", "n", "5", "m", "6", NULL);
    cmd(&c[2], "RPUSH", "t:q", "8", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 3, &e), 0);
    assert_int_equal(f.held, 1);
    assert_int_equal(test_hget_ll(st, "t:h", "n"), 5);
    assert_int_equal(test_hget_ll(st, "t:h", "m"), 6);
    char **v;
    size_t n;
    assert_int_equal(st->ops->lrange(st->self, "t:q", 0, -1, &v, &n, NULL), 0);
    assert_int_equal(n, 2);
    assert_string_equal(v[0], "7");
    assert_string_equal(v[1], "8");
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    cmd(&c[0], "LREM", "t:q", "0", "7", NULL);
    cmd(&c[1], "HINCRBY", "t:h", "n", "2", NULL);
    cmd(&c[2], "PEXPIRE", "t:lock", "60000", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 3, &e), 0);
    assert_int_equal(f.held, 1);
    assert_int_equal(list_len(st, "t:q"), 1);
    assert_int_equal(test_hget_ll(st, "t:h", "n"), 7);
    /* a disallowed command: refused before anything runs */
    cmd(&c[0], "HSET", "t:h", "n", "9", NULL);
    cmd(&c[1], "FLUSHALL", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 2, &e), ERR_INVALID);
    assert_int_equal(f.held, 0);
    assert_int_equal(test_hget_ll(st, "t:h", "n"), 7);
    /* a command failing (wrong type): the ones before it ran, not after */
    cmd(&c[0], "HSET", "t:h", "n", "10", NULL);
    cmd(&c[1], "LPUSH", "t:h", "x", NULL);
    cmd(&c[2], "HSET", "t:h", "n", "11", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 3, &e), ERR_INVALID);
    assert_int_equal(f.held, 0);
    assert_int_equal(test_hget_ll(st, "t:h", "n"), 10);
    /* DEL, then the lock itself released: a later write does not run */
    cmd(&c[0], "DEL", "t:h", NULL);
    cmd(&c[1], "DEL", "t:lock", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 2, &e), 0);
    assert_int_equal(f.held, 1);
    get_str(st, "t:lock", buf, sizeof buf);
    assert_string_equal(buf, "");
    cmd(&c[0], "HSET", "t:h", "n", "12", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 1, &e), 0);
    assert_int_equal(f.held, 0);
    assert_int_equal(test_hget_ll(st, "t:h", "n"), 0);
    /* an expired lock is no lock */
    assert_int_equal(st->ops->set(st->self, "t:lock", "A 1", 1, 0, NULL, &e),
                     0);
    test_sleep(0.05);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 1, &e), 0);
    assert_int_equal(f.held, 0);
    /* the lock of the wrong type: an error, nothing runs */
    const char *hf[] = {"a"}, *hv[] = {"b"};
    assert_int_equal(st->ops->hset(st->self, "t:lock", 1, hf, hv, &e), 0);
    cmd(&c[0], "HSET", "t:h", "n", "13", NULL);
    assert_int_equal(st->ops->fenced(st->self, &f, c, 1, &e), ERR_INVALID);
    assert_int_equal(f.held, 0);
    assert_int_equal(test_hget_ll(st, "t:h", "n"), 0);
    st->ops->del(st->self, "t:lock", NULL);
    st->ops->del(st->self, "t:q", NULL);
}

static void test_fenced_both_backends(void **state)
{
    (void)state;
    dse_mem_db *db = dse_mem_db_create();
    dse_store_spec ms = {.open = dse_mem_store_open, .open_ctx = db};
    dse_store st;
    dse_store_open(&ms, &st);
    fenced_cases(&st);
    dse_store_close(&st);
    dse_mem_db_destroy(db);
    if (!test_redis_installed())
        skip();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    test_store_open(&r, &st);
    fenced_cases(&st);
    dse_store_close(&st);
    test_redis_fini(&r);
}

/* ---- the race ------------------------------------------------------------ */

typedef struct writer {
    dse_store_spec spec;
    volatile int stop;
    long held, refused, errors;
    pthread_t th;
} writer;

/* Daemon A: fenced HINCRBY as fast as it can. */
static void *writer_main(void *arg)
{
    writer *w = arg;
    dse_store st;
    dse_store_open(&w->spec, &st);
    dse_store_cmd c;
    cmd(&c, "HINCRBY", "t:study", "writes", "1", NULL);
    while (!w->stop) {
        dse_store_fence f = {"t:lock", "A 1", 0};
        if (st.ops->fenced(st.self, &f, &c, 1, NULL))
            w->errors++;
        else if (f.held)
            w->held++;
        else
            w->refused++;
    }
    dse_store_close(&st);
    return NULL;
}

/* Hand the lock from A to B and back, `rounds` times, while A writes. */
static void race(const dse_store_spec *spec, int rounds)
{
    dse_store st;
    dse_store_open(spec, &st);
    st.ops->del(st.self, "t:study", NULL);
    assert_int_equal(st.ops->set(st.self, "t:lock", "A 1", 0, 0, NULL, NULL),
                     0);
    writer w;
    memset(&w, 0, sizeof w);
    w.spec = *spec;
    pthread_create(&w.th, NULL, writer_main, &w);
    int moved = 0;
    for (int i = 0; i < rounds; i++) {
        test_sleep(0.001); /* A writes a while */
        /* B takes over (A's lock expired while A was paused) */
        assert_int_equal(
            st.ops->set(st.self, "t:lock", "B 2", 0, 0, NULL, NULL), 0);
        long long n0 = test_hget_ll(&st, "t:study", "writes");
        test_sleep(0.002);
        long long n1 = test_hget_ll(&st, "t:study", "writes");
        if (n1 != n0)
            moved++;
        assert_int_equal(
            st.ops->set(st.self, "t:lock", "A 1", 0, 0, NULL, NULL), 0);
    }
    w.stop = 1;
    pthread_join(w.th, NULL);
    long long total = test_hget_ll(&st, "t:study", "writes");
    dse_store_close(&st);
    if (moved)
        fail_msg("A's writes landed while B held the lock in %d of %d "
                 "hand-overs",
                 moved, rounds);
    assert_int_equal(w.errors, 0);
    assert_true(w.held > 0 && w.refused > 0); /* both sides of the race */
    assert_int_equal(total, w.held);
}

static void test_fenced_race(void **state)
{
    (void)state;
    dse_mem_db *db = dse_mem_db_create();
    dse_store_spec ms = {.open = dse_mem_store_open, .open_ctx = db};
    race(&ms, 200);
    dse_mem_db_destroy(db);
    if (!test_redis_installed())
        skip();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    dse_store_spec rs;
    memset(&rs, 0, sizeof rs);
    dse_store_url_parse(r.url, &rs.redis, NULL);
    race(&rs, 300);
    test_redis_fini(&r);
}

/* ---- a stale daemon ------------------------------------------------------- */

typedef struct sthread {
    dse_store_spec spec;
    dse_serve_opts o;
    volatile sig_atomic_t stop;
    int rc, done;
    err e;
    pthread_t th;
} sthread;

static void *serve_main(void *arg)
{
    sthread *x = arg;
    x->rc = dse_serve_run(&x->spec, &x->o, &x->stop, &x->e);
    x->done = 1;
    return NULL;
}

/* study:ID's fields as "f=v\n" lines, sorted (caller frees). */
static char *study_text(dse_store *st, const char *key)
{
    size_t n;
    char **f, **v;
    if (st->ops->hgetall(st->self, key, &n, &f, &v, NULL))
        return strdup("?");
    /* insertion sort of the pairs by field */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(f[j - 1], f[j]) > 0; j--) {
            char *t = f[j];
            f[j] = f[j - 1];
            f[j - 1] = t;
            t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(f[i]) + strlen(v[i]) + 2;
    char *out = calloc(1, len);
    for (size_t i = 0; i < n; i++) {
        strcat(out, f[i]);
        strcat(out, "=");
        strcat(out, v[i]);
        strcat(out, "\n");
        free(f[i]);
        free(v[i]);
    }
    free(f);
    free(v);
    return out;
}

static int wait_phase(dse_store *st, const char *phase, double seconds)
{
    for (double t = 0; t < seconds; t += 0.05) {
        char *s = study_text(st, "dse:study:1");
        char want[64];
        snprintf(want, sizeof want, "phase=%s\n", phase);
        int ok = strstr(s, want) != NULL;
        free(s);
        if (ok)
            return 1;
        test_sleep(0.05);
    }
    return 0;
}

/* Daemon A runs study 1; its lock is taken over (what daemon B does after
 * A's lock expired).  From that moment A changes nothing: study:1, the
 * queue and the running list are exactly as they were, no report is
 * written, and dse_serve_run returns ERR_REDIS "lost the lock". */
static void test_stale_daemon_writes_nothing(void **state)
{
    (void)state;
    if (!test_redis_installed())
        skip();
    test_redis r = {0};
    assert_int_equal(test_redis_start(&r), 0);
    char root[400], path[600];
    snprintf(root, sizeof root, "%s/out", r.dir);
    assert_int_equal(mkdir(root, 0755), 0);
    pid_t w = test_worker_start(&r, "w", NULL, NULL);
    sthread x;
    memset(&x, 0, sizeof x);
    dse_store_url_parse(r.url, &x.spec.redis, NULL);
    dse_serve_opts_init(&x.o);
    snprintf(x.o.output_root, sizeof x.o.output_root, "%s", root);
    x.o.lock_ttl_ms = 5000; /* refreshed every second */
    x.o.farm.no_worker_timeout_s = 30;
    pthread_create(&x.th, NULL, serve_main, &x);
    dse_store st;
    test_store_open(&r, &st);
    snprintf(path, sizeof path, "%s/tests/data/farm_kill.yaml",
             DSE_SOURCE_DIR);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char yaml[8192];
    size_t len = fread(yaml, 1, sizeof yaml - 1, fp);
    yaml[len] = '\0';
    fclose(fp);
    char id[DSE_STUDY_ID_MAX];
    err e;
    assert_int_equal(dse_serve_submit(&x.spec, &x.o.farm, yaml, "kill.yaml",
                                      id, &e),
                     0);
    assert_string_equal(id, "1");
    assert_true(wait_phase(&st, "simulate", 60));
    /* B takes the lock */
    assert_int_equal(st.ops->set(st.self, "dse:serve:lock", "B-host 99", 0, 0,
                                 NULL, NULL),
                     0);
    char *before = study_text(&st, "dse:study:1");
    size_t queued = list_len(&st, "dse:studies:queue");
    size_t running = list_len(&st, "dse:studies:running");
    /* A notices at its next progress update (about a second) */
    for (double t = 0; t < 30 && !x.done; t += 0.05)
        test_sleep(0.05);
    assert_true(x.done);
    pthread_join(x.th, NULL);
    assert_int_equal(x.rc, ERR_REDIS);
    assert_non_null(strstr(x.e.msg, "lost the lock"));
    char *after = study_text(&st, "dse:study:1");
    if (strcmp(before, after) != 0)
        fail_msg("study:1 changed after the lock was taken:\nbefore:\n%s\n"
                 "after:\n%s",
                 before, after);
    assert_non_null(strstr(after, "status=running\n"));
    assert_int_equal(list_len(&st, "dse:studies:queue"), queued);
    assert_int_equal(list_len(&st, "dse:studies:running"), running);
    assert_int_equal(running, 1);
    char lock[64];
    get_str(&st, "dse:serve:lock", lock, sizeof lock);
    assert_string_equal(lock, "B-host 99"); /* A did not release B's lock */
    struct stat sb;
    snprintf(path, sizeof path, "%s/1", root);
    assert_int_not_equal(stat(path, &sb), 0);
    free(before);
    free(after);
    dse_store_close(&st);
    assert_int_equal(test_worker_stop(w), 0);
    test_redis_fini(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fenced_both_backends),
        cmocka_unit_test(test_fenced_race),
        cmocka_unit_test(test_stale_daemon_writes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
