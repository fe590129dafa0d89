/*
 * test_farm_cancel_redis.c — `dse cancel` withdraws a running study's work
 * (integration, against a real redis-server; skipped without one).
 *
 * One worker (one slot), one daemon.  A study with 120 simulation jobs of
 * about a second each runs; a small study waits behind it.  Once the long
 * study's simulations are out and 100+ of them are still queued, it is
 * cancelled (dse_study_cancel, what dse cancel runs): its entries must
 * leave the job stream, the job the worker is running must stop, and the
 * waiting study's first job must finish within 2 s of the cancel (without the withdrawal the worker would run the
 * cancelled study's queue first: minutes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dse/farm/studies.h"
#include "test_farm_util.h"

static test_redis R;

static pid_t serve_start(const char *root)
{
    pid_t pid = fork();
    if (pid == 0) {
        char log[300];
        snprintf(log, sizeof log, "%s/serve.log", R.dir);
        test_child_output(log);
        execl(DSE_BINARY, DSE_BINARY, "serve", "--redis", R.url,
              "--output-root", root, "--worker-timeout", "30", (char *)NULL);
        _exit(127);
    }
    test_track(pid);
    return pid;
}

static int submit(const char *file)
{
    char cmd[1200], out[64];
    snprintf(cmd, sizeof cmd, "'%s' submit '%s/tests/data/%s' --redis %s",
             DSE_BINARY, DSE_SOURCE_DIR, file, R.url);
    if (test_sh(cmd, out, sizeof out) != 0)
        return -1;
    return atoi(out);
}

static void field(dse_store *st, int id, const char *name, char *buf,
                  size_t size)
{
    char sid[16];
    snprintf(sid, sizeof sid, "%d", id);
    test_study_field(st, sid, name, buf, size);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_cancel_withdraws(void **state)
{
    (void)state;
    if (!test_redis_installed())
        skip();
    assert_int_equal(test_redis_start(&R), 0);
    char root[400];
    snprintf(root, sizeof root, "%s/out", R.dir);
    assert_int_equal(mkdir(root, 0755), 0);
    dse_store st;
    test_store_open(&R, &st);
    pid_t worker = test_worker_start(&R, "w", NULL, NULL);
    pid_t serve = serve_start(root);
    int big = submit("farm_cancel.yaml");
    int small = submit("farm_tiny.yaml");
    assert_true(big > 0 && small == big + 1);

    /* wait for the long study's simulations: 100+ jobs outstanding */
    char phase[64], buf[64];
    long long total = 0, done = 0;
    for (int i = 0; i < 1200; i++) {
        field(&st, big, "phase", phase, sizeof phase);
        field(&st, big, "total", buf, sizeof buf);
        total = atoll(buf);
        field(&st, big, "done", buf, sizeof buf);
        done = atoll(buf);
        if (!strcmp(phase, "simulate") && total >= 100)
            break;
        test_sleep(0.05);
    }
    assert_string_equal(phase, "simulate");
    long long queued = 0;
    assert_int_equal(st.ops->xlen(st.self, "dse:jobs", &queued, NULL), 0);
    fprintf(stderr, "cancelling study %d: %lld/%lld done, %lld in the job "
                    "stream\n", big, done, total, queued);
    assert_true(queued >= 100);

    /* what dse cancel does (in-process: the clock measures the farm, not
     * how long a loaded machine takes to start a process) */
    dse_farm_opts fo;
    dse_farm_opts_init(&fo);
    char id[16];
    snprintf(id, sizeof id, "%d", big);
    double t0 = now_s();
    int was_running = 0;
    assert_int_equal(dse_study_cancel(&st, &fo, id, &was_running, NULL), 0);
    assert_true(was_running);
    double returned = now_s() - t0;
    /* the small study's first job done: the first announcement on its
     * coordinator's reply stream (named in its record once it runs) */
    double started = -1, cancelled = -1, running = -1;
    while (now_s() - t0 < 30) {
        char reply[200];
        long long len = 0;
        if (cancelled < 0) {
            field(&st, big, "status", buf, sizeof buf);
            if (!strcmp(buf, "cancelled"))
                cancelled = now_s() - t0;
        }
        if (running < 0) {
            field(&st, small, "status", buf, sizeof buf);
            if (!strcmp(buf, "running"))
                running = now_s() - t0;
        }
        field(&st, small, "reply", reply, sizeof reply);
        if (reply[0] && st.ops->xlen(st.self, reply, &len, NULL) == 0 &&
            len > 0) {
            started = now_s() - t0;
            break;
        }
        test_sleep(0.01);
    }
    fprintf(stderr, "the cancel took %.3f s\n", returned);
    fprintf(stderr, "after the cancel: study %d cancelled at %.2f s, study "
                    "%d running at %.2f s, its first job done at %.2f s\n",
            big, cancelled, small, running, started);
    assert_true(started >= 0);
    assert_true(started < 2.0);
    field(&st, big, "status", buf, sizeof buf);
    assert_string_equal(buf, "cancelled");
    /* none of the cancelled study's entries is left in the stream: the
     * small study's own (a handful) at most */
    assert_int_equal(st.ops->xlen(st.self, "dse:jobs", &queued, NULL), 0);
    assert_true(queued < 20);
    /* and the small study completes */
    for (int i = 0; i < 1200; i++) {
        field(&st, small, "status", buf, sizeof buf);
        if (!strcmp(buf, "done") || !strcmp(buf, "failed"))
            break;
        test_sleep(0.1);
    }
    assert_string_equal(buf, "done");
    field(&st, small, "phase", buf, sizeof buf);
    assert_string_equal(buf, "done");
    field(&st, small, "workers", buf, sizeof buf);
    assert_int_equal(atoi(buf), 1);

    kill(serve, SIGTERM);
    waitpid(serve, NULL, 0);
    test_untrack(serve);
    kill(worker, SIGKILL);
    waitpid(worker, NULL, 0);
    test_untrack(worker);
    dse_store_close(&st);
    test_redis_fini(&R);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cancel_withdraws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
