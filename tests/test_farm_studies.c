/*
 * test_farm_studies.c — dse/farm/studies.c on the in-memory store (no
 * server): elapsed time and ETA from a study's record, ids that are not
 * numbers, cancel of a queued study and refusal of a finished one, report
 * files stored and fetched (identical, into a new directory only, all at
 * once), and the size bound.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>

#include "dse/farm/studies.h"
#include "support/store_mem.h"
#include "test_farm_util.h"

typedef struct fx {
    dse_mem_db *db;
    dse_store st;
    dse_farm_opts fo;
    char dir[256];
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    f->db = dse_mem_db_create();
    dse_mem_store_open(f->db, &f->st);
    dse_farm_opts_init(&f->fo);
    snprintf(f->dir, sizeof f->dir, "/tmp/dse_studies_test_XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    test_track_dir(f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    test_cleanup_all(); /* removes f->dir */
    dse_store_close(&f->st);
    dse_mem_db_destroy(f->db);
    free(f);
    return 0;
}

static void put_study(fx *f, const char *id, const char *const *kv)
{
    char key[64];
    snprintf(key, sizeof key, "dse:study:%s", id);
    const char *fs[32], *vs[32];
    size_t n = 0;
    for (; kv[2 * n]; n++) {
        fs[n] = kv[2 * n];
        vs[n] = kv[2 * n + 1];
    }
    assert_int_equal(f->st.ops->hset(f->st.self, key, n, fs, vs, NULL), 0);
    assert_int_equal(f->st.ops->push(f->st.self, "dse:studies", id, 0, NULL), 0);
}

static void test_elapsed_and_eta(void **state)
{
    fx *f = *state;
    const char *running[] = {"id", "1", "name", "a", "status", "running",
                             "started", "1000", "phase", "simulate",
                             "phase_started", "1100", "done", "10", "total",
                             "40", NULL};
    put_study(f, "1", running);
    dse_study_info x;
    assert_int_equal(dse_study_get(&f->st, &f->fo, "1", 1150, &x, NULL), 0);
    assert_string_equal(x.status, "running");
    assert_true(x.elapsed_s == 150);
    /* 10 jobs in 50 s: 30 more take 150 s */
    assert_true(x.eta_s == 150);
    assert_true(x.progress == 0.25);
    json_t *o = dse_study_json(&x);
    assert_true(json_real_value(json_object_get(o, "eta_s")) == 150);
    json_decref(o);

    /* no job of the phase done yet: ETA unknown (null) */
    const char *fresh[] = {"id", "2", "name", "b", "status", "running",
                           "started", "1000", "phase", "score",
                           "phase_started", "1100", "done", "0", "total",
                           "40", NULL};
    put_study(f, "2", fresh);
    assert_int_equal(dse_study_get(&f->st, &f->fo, "2", 1150, &x, NULL), 0);
    assert_true(x.eta_s < 0);
    o = dse_study_json(&x);
    assert_true(json_is_null(json_object_get(o, "eta_s")));
    json_decref(o);

    /* done: elapsed up to finished, no ETA */
    const char *done[] = {"id", "3", "name", "c", "status", "done",
                          "started", "1000", "finished", "1042", NULL};
    put_study(f, "3", done);
    assert_int_equal(dse_study_get(&f->st, &f->fo, "3", 5000, &x, NULL), 0);
    assert_true(x.elapsed_s == 42);
    assert_true(x.eta_s < 0);

    /* requeued after a daemon stop: no elapsed time */
    const char *requeued[] = {"id", "4", "name", "d", "status", "queued",
                              "started", "1000", NULL};
    put_study(f, "4", requeued);
    assert_int_equal(dse_study_get(&f->st, &f->fo, "4", 5000, &x, NULL), 0);
    assert_true(x.elapsed_s < 0);

    dse_study_info *all;
    size_t n;
    assert_int_equal(dse_study_list(&f->st, &f->fo, 3, 1150, &all, &n, NULL), 0);
    assert_int_equal(n, 3); /* the last three */
    assert_string_equal(all[0].id, "2");
    assert_string_equal(all[2].id, "4");
    free(all);
}

static void test_ids(void **state)
{
    fx *f = *state;
    const char *bad[] = {"", "x", "1x", "-1", "../1", "1/..", "1 ",
                         "123456789012345678901", NULL};
    dse_study_info x;
    for (int i = 0; bad[i]; i++) {
        assert_false(dse_study_id_ok(bad[i]));
        assert_int_equal(dse_study_get(&f->st, &f->fo, bad[i], 0, &x, NULL),
                         ERR_INVALID);
    }
    assert_true(dse_study_id_ok("12345678901234567890"));
    assert_int_equal(dse_study_get(&f->st, &f->fo, "7", 0, &x, NULL),
                     ERR_INVALID); /* no such study */
}

static void test_cancel_queued(void **state)
{
    fx *f = *state;
    const char *q[] = {"id", "5", "name", "q", "status", "queued", NULL};
    put_study(f, "5", q);
    f->st.ops->push(f->st.self, "dse:studies:queue", "5", 0, NULL);
    int running = -1;
    err e;
    assert_int_equal(dse_study_cancel(&f->st, &f->fo, "5", &running, &e), 0);
    assert_int_equal(running, 0);
    dse_study_info x;
    assert_int_equal(dse_study_get(&f->st, &f->fo, "5", 0, &x, NULL), 0);
    assert_string_equal(x.status, "cancelled");
    assert_true(x.cancel_requested);
    char **ids;
    size_t n;
    f->st.ops->lrange(f->st.self, "dse:studies:queue", 0, -1, &ids, &n, NULL);
    assert_int_equal(n, 0);
    free(ids);
    const char *keys[] = {"dse:cancel:5"};
    char *v = NULL;
    f->st.ops->get_many(f->st.self, keys, 1, &v, NULL);
    assert_non_null(v); /* what the daemon polls */
    free(v);
    /* finished studies cannot be cancelled */
    assert_int_equal(dse_study_cancel(&f->st, &f->fo, "5", NULL, &e),
                     ERR_INVALID);
    assert_non_null(strstr(e.msg, "already cancelled"));
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *b = calloc(1, 1 << 16);
    size_t n = fread(b, 1, (1 << 16) - 1, fp);
    b[n] = '\0';
    fclose(fp);
    return b;
}

static void test_report_round_trip(void **state)
{
    fx *f = *state;
    char rep[400], out[400], p[600];
    snprintf(rep, sizeof rep, "%s/report", f->dir);
    assert_int_equal(mkdir(rep, 0755), 0);
    write_file(rep, "index.html", "<html>page</html>\n");
    write_file(rep, "report.md", "# report\n");
    write_file(rep, "results.json", "{\"a\": 1}\n");
    write_file(rep, "secret.txt", "not a report file\n");
    /* candidates.csv absent: skipped */
    const char *done[] = {"id", "8", "name", "r", "status", "done", NULL};
    put_study(f, "8", done);
    err e;
    assert_int_equal(
        dse_study_store_report(&f->st, &f->fo, "8", rep, NULL, &e), 0);

    snprintf(out, sizeof out, "%s/fetched", f->dir);
    size_t n = 0;
    assert_int_equal(dse_study_fetch_report(&f->st, &f->fo, "8", out, &n, &e),
                     0);
    assert_int_equal(n, 3);
    snprintf(p, sizeof p, "%s/index.html", out);
    char *t = slurp(p);
    assert_string_equal(t, "<html>page</html>\n");
    free(t);
    snprintf(p, sizeof p, "%s/secret.txt", out);
    assert_int_not_equal(access(p, F_OK), 0);
    /* again into the same (now non-empty) directory: refused, untouched */
    assert_int_equal(dse_study_fetch_report(&f->st, &f->fo, "8", out, &n, &e),
                     ERR_INVALID);
    assert_non_null(strstr(e.msg, "not empty"));
    /* no temporary directory left beside it */
    DIR *d = opendir(f->dir);
    struct dirent *x;
    while ((x = readdir(d)))
        assert_null(strstr(x->d_name, ".tmp-"));
    closedir(d);
    /* a study that is not done */
    const char *run[] = {"id", "9", "name", "r", "status", "running", NULL};
    put_study(f, "9", run);
    snprintf(out, sizeof out, "%s/other", f->dir);
    assert_int_equal(dse_study_fetch_report(&f->st, &f->fo, "9", out, &n, &e),
                     ERR_INVALID);
    assert_non_null(strstr(e.msg, "not done"));
    assert_int_not_equal(access(out, F_OK), 0);
}

static void test_report_bound(void **state)
{
    fx *f = *state;
    char rep[400];
    snprintf(rep, sizeof rep, "%s/big", f->dir);
    assert_int_equal(mkdir(rep, 0755), 0);
    char p[600];
    snprintf(p, sizeof p, "%s/results.json", rep);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    /* one byte over the bound, as a sparse file */
    assert_int_equal(fseek(fp, DSE_REPORT_STORE_MAX, SEEK_SET), 0);
    fputc('x', fp);
    fclose(fp);
    err e;
    assert_int_equal(dse_study_store_report(&f->st, &f->fo, "10", rep, NULL,
                                            &e),
                     ERR_CONFIG);
    assert_non_null(strstr(e.msg, "not stored"));
    const char *keys[] = {"dse:report:10"};
    size_t n;
    char **fs, **vs;
    f->st.ops->hgetall(f->st.self, keys[0], &n, &fs, &vs, NULL);
    assert_int_equal(n, 0);
    free(fs);
    free(vs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_elapsed_and_eta, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ids, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_queued, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_round_trip, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_report_bound, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
