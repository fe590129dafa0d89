/*
 * test_pool.c — the local executor runs every job exactly once, whatever
 * the thread count, reports the first failure by index and stops on
 * request.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <string.h>

#include "dse/common/pool.h"
#include "net/err.h"

typedef struct ctx {
    atomic_int runs[1000];
    double out[1000];
    size_t fail_at;
    volatile sig_atomic_t *stop;
    size_t stop_after;
} ctx;

static int job(void *arg, size_t i)
{
    ctx *c = arg;
    atomic_fetch_add(&c->runs[i], 1);
    c->out[i] = (double)i * 0.5;
    if (c->stop && i == c->stop_after)
        *c->stop = 1;
    if (i == c->fail_at)
        return ERR_SATURATED;
    if (i == c->fail_at + 7) /* a later failure must not mask the first */
        return ERR_INVALID;
    return 0;
}

static void test_every_job_once(void **state)
{
    (void)state;
    int threads[] = {1, 2, 3, 8};
    for (size_t t = 0; t < 4; t++) {
        static ctx c;
        memset(&c, 0, sizeof c);
        c.fail_at = (size_t)-100;
        assert_int_equal(dse_pool_run(1000, threads[t], job, &c, NULL, NULL), 0);
        for (size_t i = 0; i < 1000; i++) {
            assert_int_equal(atomic_load(&c.runs[i]), 1);
            assert_true(c.out[i] == (double)i * 0.5);
        }
    }
}

static void test_first_failure_by_index(void **state)
{
    (void)state;
    static ctx c;
    memset(&c, 0, sizeof c);
    c.fail_at = 10;
    assert_int_equal(dse_pool_run(100, 2, job, &c, NULL, NULL), ERR_SATURATED);
}

static void test_stop_flag(void **state)
{
    (void)state;
    static ctx c;
    memset(&c, 0, sizeof c);
    c.fail_at = (size_t)-100;
    volatile sig_atomic_t stop = 0;
    c.stop = &stop;
    c.stop_after = 5;
    assert_int_equal(dse_pool_run(1000, 1, job, &c, NULL, &stop), ERR_INTERRUPTED);
    assert_int_equal(atomic_load(&c.runs[999]), 0);
}

static void test_progress_counts(void **state)
{
    (void)state;
    static ctx c;
    memset(&c, 0, sizeof c);
    c.fail_at = (size_t)-100;
    FILE *sink = tmpfile();
    dse_progress p;
    dse_progress_init(&p, sink, 0);
    dse_progress_begin(&p, "score", 50);
    assert_int_equal(dse_pool_run(50, 2, job, &c, &p, NULL), 0);
    assert_int_equal(p.done, 50);
    dse_progress_end(&p);
    dse_progress_fini(&p);
    rewind(sink);
    char line[256] = "";
    char *got = fgets(line, sizeof line, sink);
    assert_non_null(got);
    assert_non_null(strstr(line, "score"));
    assert_non_null(strstr(line, "50/50"));
    fclose(sink);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_job_once),
        cmocka_unit_test(test_first_failure_by_index),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_progress_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
