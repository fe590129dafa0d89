/*
 * test_farm_cache.c — the local result cache (dse/farm/cache.c) and the
 * local executor (dse/search/exec_local.c): a run through either is
 * bit-identical (results.json without timings) to the plain local run;
 * a cache filled partly, by an interrupted run, or holding a corrupt file
 * gives the same results and reruns only what is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>

#include "dse/farm/cache.h"
#include "dse/search/exec_local.h"
#include "sim/sim.h"
#include "test_farm_util.h"

#define STUDY "opt_small.yaml"

typedef struct fixture {
    cfg_study s;
    char *plain;            /* results.json of the plain local run */
    char dir[256];
} fixture;

/* The plain local run is made once (each run of the study takes tens of
 * seconds in the sanitized build since the decision rounds' saturation
 * searches). */
static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_int_equal(test_load_study(STUDY, &f->s), 0);
    int rc;
    err e;
    f->plain = test_run_json(&f->s, NULL, &rc, &e);
    assert_int_equal(rc, 0);
    snprintf(f->dir, sizeof f->dir, "/tmp/dse_cache_test_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    test_track_dir(f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    test_cleanup_all(); /* removes f->dir */
    free(f->plain);
    cfg_study_fini(&f->s);
    free(f);
    return 0;
}

/* Result files under dir (recursively, one level of fan-out); with
 * remove_every > 0, delete every remove_every-th one. */
static void remove_nth(const char *path, size_t n, void *ctx)
{
    int every = *(const int *)ctx;
    if (every > 0 && n % (size_t)every == 0)
        assert_int_equal(unlink(path), 0);
}

static size_t count_files(const char *dir, int remove_every)
{
    return test_each_cache_file(dir, remove_nth, &remove_every);
}

/* One cached run: results.json text; hits and stored counts. */
static char *cached_run(fixture *f, const dse_executor *inner, size_t *hits,
                        size_t *stored, int *rc)
{
    dse_cache *c;
    err e;
    assert_int_equal(dse_cache_create(f->dir, inner, &c, &e), 0);
    dse_executor ex;
    dse_cache_executor(c, &ex);
    char *json = test_run_json(&f->s, &ex, rc, &e);
    size_t wfail;
    dse_cache_counts(c, hits, stored, &wfail, NULL);
    assert_int_equal(wfail, 0);
    dse_cache_destroy(c);
    return json;
}

/* An executor that runs the first half of a simulation batch, then acts
 * as if Ctrl-C came: sets the stop flag and returns ERR_INTERRUPTED. */
typedef struct half {
    dse_executor local;
    volatile sig_atomic_t flag;
} half;

static int half_score(void *self, const cfg_study *s, dse_run *r,
                      const size_t *idx, size_t n, size_t *evaluations,
                      dse_progress *progress, volatile sig_atomic_t *stop,
                      err *e)
{
    half *h = self;
    return h->local.score(h->local.self, s, r, idx, n, evaluations, progress,
                          stop, e);
}

static int half_simulate(void *self, const sim_params *jobs, size_t n,
                         sim_result *results, int *codes,
                         dse_progress *progress, volatile sig_atomic_t *stop,
                         err *e)
{
    half *h = self;
    int rc = h->local.simulate(h->local.self, jobs, n / 2, results, codes,
                               progress, stop, e);
    assert_int_equal(rc, 0);
    h->flag = 1;
    return ERR_INTERRUPTED;
}

/* An executor that must not be asked to simulate or search anything: the
 * cache has to answer every simulation and saturation search itself. */
static int refuse_simulate(void *self, const sim_params *jobs, size_t n,
                           sim_result *results, int *codes,
                           dse_progress *progress, volatile sig_atomic_t *stop,
                           err *e)
{
    (void)self, (void)jobs, (void)results, (void)codes, (void)progress;
    (void)stop, (void)e;
    assert_int_equal(n, 0);
    return 0;
}

static int refuse_saturate(void *self, const sim_params *jobs, size_t n,
                           sim_saturation_result *results, int *codes,
                           dse_progress *progress, volatile sig_atomic_t *stop,
                           err *e)
{
    (void)self, (void)jobs, (void)results, (void)codes, (void)progress;
    (void)stop, (void)e;
    assert_int_equal(n, 0);
    return 0;
}

static void test_cache_resume(void **state)
{
    fixture *f = *state;
    dse_exec_local l;
    dse_executor local;
    dse_exec_local_init(&l, 2, 2, &local);
    size_t hits, stored;
    int rc;

    /* an interrupted run keeps the simulations it finished */
    half h = {.local = local};
    dse_executor hex = {.score = half_score, .simulate = half_simulate, .self = &h};
    char *json = cached_run(f, &hex, &hits, &stored, &rc);
    assert_int_equal(rc, ERR_INTERRUPTED);
    assert_null(json);
    assert_int_equal(hits, 0);
    assert_true(stored > 0);
    size_t half_count = stored;
    assert_int_equal(count_files(f->dir, 0), half_count);

    /* the rerun does only the rest, and gives the plain run's numbers */
    json = cached_run(f, &local, &hits, &stored, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(json, f->plain);
    free(json);
    assert_int_equal(hits, half_count);
    size_t all = half_count + stored;
    /* (the interrupted run also cached round 1's saturation searches, so
     * half_count is not half of anything: only that the rest ran) */
    assert_true(stored > 0);
    assert_int_equal(count_files(f->dir, 0), all);

    /* everything cached, saturation searches included: nothing runs */
    dse_executor refuse = {.score = local.score, .simulate = refuse_simulate,
                           .saturate = refuse_saturate, .self = local.self};
    json = cached_run(f, &refuse, &hits, &stored, &rc);
    assert_string_equal(json, f->plain);
    free(json);
    assert_int_equal(hits, all);
    assert_int_equal(stored, 0);

    /* a third of the files gone: they are redone, nothing else */
    count_files(f->dir, 3);
    size_t left = count_files(f->dir, 0);
    assert_true(left < all);
    json = cached_run(f, &local, &hits, &stored, &rc);
    assert_string_equal(json, f->plain);
    free(json);
    assert_int_equal(hits, left);
    assert_int_equal(stored, all - left);
}

static void test_cache_corrupt_file(void **state)
{
    fixture *f = *state; /* the cache test_cache_resume filled */
    dse_exec_local l;
    dse_executor local;
    dse_exec_local_init(&l, 2, 2, &local);
    size_t hits, stored;
    int rc;
    char *json;
    size_t all = count_files(f->dir, 0);
    assert_true(all > 0);
    /* overwrite one result with garbage and another with a valid result of
     * another key: both are misses and are rewritten */
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "set -e; cd '%s'; a=$(ls */*.json | head -1); "
             "b=$(ls */*.json | sed -n 2p); echo '{\"v\":1,garbage' > $a; "
             "cp $(ls */*.json | sed -n 3p) $b",
             f->dir);
    assert_int_equal(system(cmd), 0);
    json = cached_run(f, &local, &hits, &stored, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(json, f->plain);
    free(json);
    assert_int_equal(hits, all - 2);
    assert_int_equal(stored, 2);
}

static void test_default_dir(void **state)
{
    (void)state;
    char buf[512];
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    assert_int_equal(dse_cache_default_dir(buf, sizeof buf), 0);
    assert_string_equal(buf, "/x/cache/dse/results");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/u", 1);
    assert_int_equal(dse_cache_default_dir(buf, sizeof buf), 0);
    assert_string_equal(buf, "/home/u/.cache/dse/results");
    unsetenv("HOME");
    assert_int_equal(dse_cache_default_dir(buf, sizeof buf), -1);
}

int main(void)
{
    /* in this order: the corrupt-file test uses the cache the resume test
     * filled (the local executor alone is covered by every cached run) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_resume),
        cmocka_unit_test(test_cache_corrupt_file),
        cmocka_unit_test(test_default_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
