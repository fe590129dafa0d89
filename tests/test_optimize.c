/*
 * test_optimize.c — dse optimize end to end: the optimizer through its API
 * (ranking, finalists, simulation points, evaluation counts), the report
 * files it writes (results.json against docs/results-schema.md,
 * candidates.csv parsed as RFC 4180, index.html tag balance), determinism
 * across thread counts, the NLopt strategy against exhaustive search on
 * the same space, and the program's contract: an interrupted run exits 130
 * and publishes nothing, a bad study exits 2 with FILE:LINE:COLUMN.
 *
 * Every ranking property is checked against objectives recomputed here
 * from the raw candidate fields (mean model latency, saturation rate,
 * cost), with a dominance test written here, not the optimizer's.
 *
 * Studies: tests/data/opt_small.yaml (86 designs, 64 nodes, short
 * simulations), opt_nlopt.yaml (130 designs, model only),
 * opt_interrupt.yaml (minutes of simulation, to be interrupted),
 * opt_bad.yaml (an error at a known place).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dse/search/decide.h"
#include "dse/search/optimize.h"
#include "dse/report/report.h"
#include "sim/sim.h"

#define SMALL "tests/data/opt_small.yaml"
#define NLOPT "tests/data/opt_nlopt.yaml"
#define INTERRUPT "tests/data/opt_interrupt.yaml"
#define BAD "tests/data/opt_bad.yaml"

/* ---- small utilities -------------------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Remove a report directory (plain files only) and the directory. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    char path[4096];
    while ((ent = readdir(d))) {
        if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            remove_dir(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Entries of dir other than . and .. whose name starts with prefix. */
static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)))
        if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..") &&
            !strncmp(ent->d_name, prefix, strlen(prefix)))
            n++;
    closedir(d);
    return n;
}

/* The chart files of a report directory (report_charts.h). */
static int count_charts(const char *dir)
{
    return count_entries(dir, "load-") + count_entries(dir, "front-") +
           count_entries(dir, "simulated-") +
           count_entries(dir, "percentiles.svg") +
           count_entries(dir, "parity.svg");
}

/* Mark dir as a report dse wrote (what dse_report_write leaves there). */
static void write_marker(const char *dir)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, DSE_REPORT_MARKER);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("dse report\n", f);
    fclose(f);
}

/* A fresh private directory under /tmp (caller frees). */
static char *make_tmpdir(void)
{
    char *t = strdup("/tmp/dse-test-optimize-XXXXXX");
    assert_non_null(mkdtemp(t));
    return t;
}

/* The study's options for a model+simulation run on `threads` threads. */
static dse_optimize_opts opts_for(int threads, int skip_sim)
{
    dse_optimize_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.quiet = 1;
    o.skip_sim = skip_sim;
    return o;
}

static char *json_text(const dse_run *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    err e;
    assert_int_equal(dse_report_json(r, f, 0, &e), 0);
    fclose(f);
    return buf;
}

static char *csv_text(const dse_run *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    err e;
    assert_int_equal(dse_report_csv(r, f, &e), 0);
    fclose(f);
    return buf;
}

/* ---- objectives and dominance, independently of dse/search/pareto.c ---------- */

/* a dominates b (minimisation): no worse anywhere, better somewhere.  With
 * tol > 0 "no worse" and "better" are taken with a relative slack, for
 * values that went through 10-digit text. */
static int dominates(const double *a, const double *b, int m, double tol)
{
    int better = 0;
    for (int j = 0; j < m; j++) {
        double slack = tol > 0 ? tol * fmax(fabs(a[j]), fabs(b[j])) : 0;
        if (a[j] > b[j] + slack)
            return 0;
        if (a[j] < b[j] - slack)
            better = 1;
    }
    return better;
}

static double cost_of(const cons_cost *c, cfg_cost_metric m)
{
    switch (m) {
    case CFG_COST_BISECTION: return c->bisection_wires;
    case CFG_COST_PINS: return c->max_pins;
    case CFG_COST_WIRES: return c->total_wires;
    case CFG_COST_BUFFER_BITS: return c->buffer_bits;
    default: return NAN;
    }
}

/* Minimisation-form objectives of a candidate from its raw fields, with
 * `latency` (nr values) standing for the latency figures: the model's or
 * the simulated ones.  Returns 0 if any latency is undefined. */
static int objectives_from(const cfg_study *s, const dse_candidate *c,
                           const double *latency, double *out)
{
    double sum = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        if (!isfinite(latency[ri]))
            return 0;
        sum += latency[ri];
    }
    for (size_t j = 0; j < s->nobjectives; j++) {
        const cfg_objective *o = &s->objectives[j];
        out[j] = o->kind == CFG_OBJ_LATENCY      ? sum / (double)s->rates.n
                 : o->kind == CFG_OBJ_SATURATION ? -c->saturation_rate
                                                 : cost_of(&c->cost, o->cost);
    }
    return 1;
}

/* rank[] is a correct non-dominated sorting of pts (m objectives): a point
 * of rank k is dominated by no point of rank >= k and, for k > 0, by some
 * point of rank k - 1.  Points with rank -1 are ignored. */
static void check_sorting(const double *pts, const int *rank, size_t n, int m,
                          double tol)
{
    for (size_t i = 0; i < n; i++) {
        if (rank[i] < 0)
            continue;
        int by_previous = 0;
        for (size_t j = 0; j < n; j++) {
            if (j == i || rank[j] < 0 ||
                !dominates(pts + j * m, pts + i * m, m, tol))
                continue;
            if (rank[j] >= rank[i])
                print_error("point %zu (rank %d) dominated by %zu (rank %d)\n",
                            i, rank[i], j, rank[j]);
            assert_true(rank[j] < rank[i]);
            if (rank[j] == rank[i] - 1)
                by_previous = 1;
        }
        if (rank[i] > 0 && !by_previous)
            print_error("point %zu has rank %d but no rank-%d point "
                        "dominates it\n", i, rank[i], rank[i] - 1);
        assert_true(rank[i] == 0 || by_previous);
    }
}

static double max_rate(const cfg_study *s)
{
    double top = 0;
    for (size_t ri = 0; ri < s->rates.n; ri++)
        top = fmax(top, s->rates.v[ri]);
    return top;
}

/* Ranking of a run on the model objectives: who is ranked, the sorting,
 * the counts. */
static void check_model_ranking(const dse_run *r)
{
    const cfg_study *s = r->study;
    int m = (int)s->nobjectives;
    double *pts = calloc(r->ncand * m + 1, sizeof *pts);
    int *rank = calloc(r->ncand + 1, sizeof *rank);
    size_t ranked = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        int finite = objectives_from(s, c, c->latency, pts + i * m);
        int servable = c->score_rc == 0 && c->model && finite &&
                       c->saturation_rate > max_rate(s);
        assert_int_equal(c->saturated_at_target, !servable);
        if (servable) {
            assert_true(c->rank >= 0);
            ranked++;
        } else {
            assert_int_equal(c->rank, -1);
        }
        rank[i] = c->rank;
    }
    assert_int_equal(r->nranked, ranked);
    assert_int_equal(r->nsaturated_at_target, r->ncand - ranked);
    check_sorting(pts, rank, r->ncand, m, 0);
    free(pts);
    free(rank);
}

/* With simulation the finalists are the simulated designs in decision
 * order, the recommendation first (docs/decision.md). */
static void check_decided_finalists(const dse_run *r)
{
    size_t simulated = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        assert_int_equal(c->sim != NULL, c->finalist != 0);
        assert_int_equal(c->sim != NULL, c->sim_round > 0);
        if (c->finalist)
            assert_int_equal(r->finalists[c->finalist - 1], i);
        simulated += c->sim != NULL;
    }
    assert_int_equal(simulated, r->nfinalists);
    assert_int_equal(simulated, r->nsimulated);
    assert_true(r->nsimulated <= (size_t)r->study->sim.max_designs);
    assert_int_equal(r->recommended, r->finalists[0]);
    assert_int_equal(r->cand[r->recommended].sim_rank, 0);
}

static void check_finalists(const dse_run *r)
{
    const cfg_study *s = r->study;
    if (r->recommended != SIZE_MAX) {
        check_decided_finalists(r);
        return;
    }
    size_t want = (size_t)s->finalists;
    assert_true(r->nfinalists <= want);
    assert_int_equal(r->nfinalists, r->nranked < want ? r->nranked : want);
    int worst_finalist = -1, best_other = 1 << 30;
    size_t marked = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        const dse_candidate *c = &r->cand[i];
        if (c->finalist) {
            marked++;
            assert_true(c->finalist >= 1 && (size_t)c->finalist <= r->nfinalists);
            assert_int_equal(r->finalists[c->finalist - 1], i);
            assert_true(c->rank >= 0);
            if (c->rank > worst_finalist)
                worst_finalist = c->rank;
        } else if (c->rank >= 0 && c->rank < best_other) {
            best_other = c->rank;
        }
    }
    assert_int_equal(marked, r->nfinalists);
    /* whole fronts in rank order: no skipped design ranks better */
    assert_true(worst_finalist <= best_other);
}

/* Simulation points of the simulated designs, and the Pareto rank on
 * simulated figures (latency at each target rate, saturated = infinite;
 * simulated saturation rate; costs where the study lists them). */
static int sim_objectives(const cfg_study *s, const dse_candidate *c,
                          double *out)
{
    int k = 0;
    for (size_t j = 0; j < s->nobjectives; j++) {
        const cfg_objective *o = &s->objectives[j];
        if (o->kind == CFG_OBJ_LATENCY)
            for (size_t ri = 0; ri < s->rates.n; ri++)
                out[k++] = c->sim[ri].saturated || !isfinite(c->sim[ri].latency)
                               ? INFINITY
                               : c->sim[ri].latency;
        else if (o->kind == CFG_OBJ_SATURATION)
            out[k++] = isfinite(c->sim_saturation) ? -c->sim_saturation : 0;
        else
            out[k++] = cost_of(&c->cost, o->cost);
    }
    return k;
}

static void check_simulation(const dse_run *r)
{
    const cfg_study *s = r->study;
    size_t nr = s->rates.n;
    int seeds = s->sim.seeds < 3 ? 3 : s->sim.seeds;
    assert_int_equal(r->seeds_used, seeds);
    for (size_t i = 0; i < r->ncand; i++)
        if (!r->cand[i].finalist) {
            assert_null(r->cand[i].sim);
            assert_int_equal(r->cand[i].sim_rank, -1);
        }
    int m = (int)(s->nobjectives + nr);
    double *pts = calloc(r->nfinalists * (size_t)m + 1, sizeof *pts);
    int *rank = calloc(r->nfinalists + 1, sizeof *rank);
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        assert_non_null(c->sim);
        int supported = sim_supports(&c->design, &s->workload, NULL) == 0;
        double max_err = NAN;
        for (size_t ri = 0; ri < nr; ri++) {
            const dse_sim_point *p = &c->sim[ri];
            assert_true(p->rate == s->rates.v[ri]);
            assert_true(p->model_latency == c->latency[ri] ||
                        (isnan(p->model_latency) && isnan(c->latency[ri])));
            if (!supported) {
                assert_int_equal(p->seeds, 0);
                assert_true(isnan(p->latency));
                continue;
            }
            if (p->skipped) {
                /* above the simulated saturation interval: not run */
                assert_true(p->saturated);
                assert_true(p->rate > c->sim_saturation_hi);
                assert_int_equal(p->seeds, 0);
                continue;
            }
            assert_int_equal(p->seeds, seeds);
            assert_true(p->messages >= s->sim.measured_messages * seeds);
            if (p->saturated) {
                assert_true(isnan(p->latency));
                continue;
            }
            assert_true(isfinite(p->latency) && p->latency > 0);
            assert_true(p->half_width >= 0);
            assert_true(p->rank >= 1);
            /* the simulator ran at the asked rate: accepted traffic within
             * 20% of it (2000 messages: a few percent of noise) */
            assert_true(fabs(p->accepted - p->rate) < 0.2 * p->rate);
            assert_true(fabs(p->network_latency + p->source_wait - p->latency) <=
                        1e-6 * p->latency);
            double want = 100.0 * (p->model_latency - p->latency) / p->latency;
            if (isfinite(p->model_latency)) {
                assert_true(fabs(p->error_pct - want) <= 1e-9 * fmax(1, fabs(want)));
                if (isnan(max_err) || fabs(want) > max_err)
                    max_err = fabs(want);
            }
        }
        if (isnan(max_err)) {
            assert_true(isnan(c->max_abs_error_pct));
        } else {
            assert_true(fabs(c->max_abs_error_pct - max_err) <= 1e-9 * max_err);
            assert_int_equal(c->disagrees, max_err > s->sim.tolerance_pct);
        }
        m = sim_objectives(s, c, pts + f * (size_t)(s->nobjectives + nr));
        rank[f] = c->sim_rank;
        assert_true(c->sim_rank >= 0);
    }
    /* rank 0 = not dominated by any other simulated design */
    size_t stride = s->nobjectives + nr;
    for (size_t a = 0; a < r->nfinalists; a++) {
        int dominated = 0;
        for (size_t b = 0; b < r->nfinalists && !dominated; b++)
            dominated = b != a && dominates(pts + b * stride, pts + a * stride,
                                            m, 0);
        assert_int_equal(rank[a] == 0, !dominated);
    }
    free(pts);
    free(rank);
}

/* Model evaluations: a modelled design costs its saturation search and one
 * evaluation per rate; an unmodelled one costs nothing. */
static size_t expected_evaluations(const dse_run *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ncand; i++)
        if (r->cand[i].model) {
            assert_int_equal(r->cand[i].score_rc, 0);
            n += 1 + r->study->rates.n;
        }
    return n;
}

/* ---- the shared run: opt_small, 2 threads, report written ------------- */

typedef struct fixture {
    cfg_study study;
    dse_run run;
    char *tmp;               /* private temporary directory */
    char report[4200];       /* tmp/report */
} fixture;

static int setup_small(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    err e;
    if (cfg_study_load(SMALL, &fx->study, &e) != 0) {
        char buf[2048];
        print_error("%s\n", err_format(&e, buf, sizeof buf));
        return -1;
    }
    dse_optimize_opts o = opts_for(2, 0);
    if (dse_optimize(&fx->study, &o, &fx->run, &e) != 0) {
        print_error("dse_optimize: %s\n", e.msg);
        return -1;
    }
    fx->tmp = make_tmpdir();
    snprintf(fx->report, sizeof fx->report, "%s/report", fx->tmp);
    if (dse_report_write(&fx->run, fx->report, &e) != 0) {
        print_error("dse_report_write: %s\n", e.msg);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown_small(void **state)
{
    fixture *fx = *state;
    if (!fx)
        return 0;
    remove_dir(fx->tmp);
    free(fx->tmp);
    dse_run_fini(&fx->run);
    cfg_study_fini(&fx->study);
    free(fx);
    return 0;
}

/* ---- the run through the API ------------------------------------------ */

static void test_run_is_consistent(void **state)
{
    fixture *fx = *state;
    const dse_run *r = &fx->run;
    assert_string_equal(r->strategy, "exhaustive");
    assert_int_equal(r->interrupted, 0);
    /* exhaustive: every feasible design is a candidate */
    assert_int_equal(r->ncand, r->space.count);
    size_t dropped = 0;
    for (int q = 0; q < DSE_DROP_COUNT; q++)
        dropped += r->space.dropped[q];
    assert_int_equal(r->space.enumerated, r->space.count + dropped);
    assert_int_equal(r->evaluations, expected_evaluations(r));
    /* the study exercises every kind: ranked, saturated, unmodelled */
    size_t unmodelled = 0, saturated = 0;
    for (size_t i = 0; i < r->ncand; i++) {
        if (!r->cand[i].model)
            unmodelled++;
        else if (r->cand[i].saturated_at_target)
            saturated++;
    }
    assert_true(unmodelled > 0);
    assert_true(saturated > 0);
    assert_true(r->nranked > (size_t)fx->study.finalists);
}

static void test_rank0_is_nondominated(void **state)
{
    fixture *fx = *state;
    check_model_ranking(&fx->run);
    size_t front = 0;
    for (size_t i = 0; i < fx->run.ncand; i++)
        front += fx->run.cand[i].rank == 0;
    assert_true(front >= 1);
}

static void test_finalists_and_simulation(void **state)
{
    fixture *fx = *state;
    assert_true(fx->run.nfinalists >= 1);
    check_finalists(&fx->run);
    check_simulation(&fx->run);
    /* at least one finalist was simulated at every rate (the tori of this
     * study are all supported by the simulator) */
    size_t full = 0;
    for (size_t f = 0; f < fx->run.nfinalists; f++)
        full += fx->run.cand[fx->run.finalists[f]].sim_rank >= 0;
    assert_true(full >= 1);
}

/* ---- results.json against docs/results-schema.md ---------------------- */

enum { T_STR, T_INT, T_NUM, T_NUM_NULL, T_BOOL, T_OBJ, T_ARR, T_INT_NULL,
       T_OBJ_NULL };

typedef struct key_spec {
    const char *key;
    int type;
    int optional;
} key_spec;

/* o has exactly the keys of spec (optional ones may be missing), each of
 * its type. */
static void check_object(const json_t *o, const char *where,
                         const key_spec *spec)
{
    assert_true(json_is_object(o));
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        const key_spec *k = spec;
        while (k->key && strcmp(k->key, key))
            k++;
        if (!k->key)
            print_error("%s: key '%s' is not in docs/results-schema.md\n",
                        where, key);
        assert_non_null(k->key);
    }
    for (const key_spec *k = spec; k->key; k++) {
        v = json_object_get(o, k->key);
        if (!v) {
            if (!k->optional)
                print_error("%s: required key '%s' missing\n", where, k->key);
            assert_true(k->optional);
            continue;
        }
        int ok = 0;
        switch (k->type) {
        case T_STR: ok = json_is_string(v); break;
        case T_INT: ok = json_is_integer(v); break;
        case T_INT_NULL: ok = json_is_integer(v) || json_is_null(v); break;
        case T_NUM: ok = json_is_number(v); break;
        case T_NUM_NULL: ok = json_is_number(v) || json_is_null(v); break;
        case T_BOOL: ok = json_is_boolean(v); break;
        case T_OBJ: ok = json_is_object(v); break;
        case T_OBJ_NULL: ok = json_is_object(v) || json_is_null(v); break;
        case T_ARR: ok = json_is_array(v); break;
        }
        if (!ok)
            print_error("%s.%s: wrong type\n", where, k->key);
        assert_true(ok);
    }
}

static const key_spec root_spec[] = {
    {"schema", T_STR, 0},     {"version", T_INT, 0},
    {"generator", T_STR, 0},  {"decision", T_OBJ, 0},
    {"study", T_OBJ, 0},
    {"space", T_OBJ, 0},      {"strategy", T_STR, 0},
    {"evaluations", T_INT, 0}, {"candidates", T_ARR, 0},
    {"finalists", T_ARR, 0},  {"notes", T_ARR, 0},
    {"job_failures", T_ARR, 0}, {"timings_s", T_OBJ, 1},
    {NULL, 0, 0}};
static const key_spec study_spec[] = {
    {"name", T_STR, 0},         {"source", T_STR, 0},
    {"nodes", T_INT, 0},        {"technology", T_STR, 0},
    {"workload", T_STR, 0},     {"router_delay", T_INT, 0}, {"router", T_OBJ, 0},
    {"ejection_channels", T_INT, 0}, {"rates", T_ARR, 0},
    {"objectives", T_ARR, 0},   {"finalists", T_INT, 0},
    {"search", T_STR, 0},       {"budget_limit", T_NUM, 1},
    {"budget_reference", T_OBJ, 1}, {"simulation", T_OBJ, 0},
    {NULL, 0, 0}};
static const key_spec study_sim_spec[] = {
    {"seeds", T_INT, 0},         {"max_designs", T_INT, 0},
    {"warmup_messages", T_INT, 0},
    {"measured_messages", T_INT, 0}, {"ci_half_width", T_NUM, 0},
    {"tolerance_pct", T_NUM, 0}, {NULL, 0, 0}};
static const key_spec space_spec[] = {
    {"enumerated", T_INT, 0}, {"feasible", T_INT, 0},
    {"dropped", T_OBJ, 0},    {"ranked", T_INT, 0},
    {"saturated_at_target", T_INT, 0}, {NULL, 0, 0}};
static const key_spec design_spec[] = {
    {"text", T_STR, 0},    {"topology", T_STR, 0}, {"n", T_INT, 0},
    {"k", T_ARR, 0},       {"vcs", T_INT, 0},      {"width", T_INT, 0},
    {"buffer", T_INT, 0},  {"routing", T_STR, 0},  {"switching", T_STR, 0},
    {"m", T_INT, 1},       {"kn", T_INT, 1},       {NULL, 0, 0}};
static const key_spec cost_spec[] = {
    {"bisection_wires", T_NUM, 0}, {"node_pins", T_NUM, 0},
    {"interchange_pins", T_NUM, 0}, {"max_pins", T_NUM, 0},
    {"total_wires", T_NUM, 0},     {"buffer_bits", T_NUM, 0},
    {NULL, 0, 0}};
static const key_spec cand_spec[] = {
    {"id", T_INT, 0},           {"design", T_OBJ, 0},
    {"model", T_STR, 0},        {"message_flits", T_INT, 0},
    {"cost", T_OBJ, 0},         {"zero_load_latency", T_NUM_NULL, 0},
    {"saturation_rate", T_NUM_NULL, 0}, {"latency", T_ARR, 0},
    {"rank", T_INT, 0},         {"finalist", T_INT, 0},
    {"saturated_at_target", T_BOOL, 0}, {"bound_rate", T_NUM_NULL, 0},
    {"min_zero_load_latency", T_NUM_NULL, 0},
    {"optimistic_saturation", T_NUM_NULL, 0}, {"band_measured", T_BOOL, 0},
    {"optimistic_bound", T_STR, 0}, {"sim_above_bound", T_BOOL, 0},
    {"sim_round", T_INT, 0},    {"sim_saturation", T_OBJ, 0},
    {"ruled_out_by", T_INT_NULL, 0}, {"saturation_probe", T_OBJ_NULL, 0},
    {"clock_scale", T_NUM, 0},
    {NULL, 0, 0}};
static const key_spec decision_spec[] = {
    {"recommended", T_INT_NULL, 0}, {"runner_up", T_INT_NULL, 0},
    {"model_choice", T_INT_NULL, 0}, {"verdict", T_ARR, 0},
    {"certified", T_BOOL, 0},       {"stop_reason", T_STR, 0},
    {"rounds", T_INT, 0},           {"simulated", T_INT, 0},
    {"saturation_probed", T_INT, 0},
    {"uncertified", T_INT, 0},      {"budget_designs", T_INT, 0},
    {"replications", T_INT, 0},     {"per_rate", T_ARR, 0},
    {"disagreements", T_ARR, 0},    {"ranked_on", T_STR, 0},
    {"reference_clock_ns", T_NUM_NULL, 0},
    {NULL, 0, 0}};
static const key_spec finalist_spec[] = {
    {"id", T_INT, 0},         {"order", T_INT, 0},
    {"simulation", T_ARR, 0}, {"curve", T_ARR, 0},
    {"sim_rank", T_INT, 0},
    {"max_abs_error_pct", T_NUM_NULL, 0}, {"disagrees", T_BOOL, 0},
    {NULL, 0, 0}};
static const key_spec point_spec[] = {
    {"rate", T_NUM, 0},            {"latency", T_NUM_NULL, 0},
    {"ci95_half_width", T_NUM_NULL, 0}, {"network_latency", T_NUM_NULL, 0},
    {"source_wait", T_NUM_NULL, 0}, {"accepted_rate", T_NUM_NULL, 0},
    {"model_latency", T_NUM_NULL, 0}, {"error_pct", T_NUM_NULL, 0},
    {"messages", T_INT, 0},        {"saturated", T_BOOL, 0},
    {"seeds", T_INT, 0},           {"skipped_above_saturation", T_BOOL, 0},
    {"rank", T_INT_NULL, 0},       {"tied_best", T_BOOL, 0},
    {"p50", T_NUM_NULL, 0},        {"p95", T_NUM_NULL, 0},
    {"p99", T_NUM_NULL, 0},        {"max_latency", T_NUM_NULL, 0},
    {"p50_ci95_half_width", T_NUM_NULL, 0},
    {"p95_ci95_half_width", T_NUM_NULL, 0},
    {"p99_ci95_half_width", T_NUM_NULL, 0},
    {NULL, 0, 0}};
static const key_spec curve_point_spec[] = {
    {"rate", T_NUM, 0},            {"latency", T_NUM_NULL, 0},
    {"p50", T_NUM_NULL, 0},        {"p95", T_NUM_NULL, 0},
    {"p99", T_NUM_NULL, 0},        {"max_latency", T_NUM_NULL, 0},
    {"accepted_rate", T_NUM_NULL, 0}, {"model_latency", T_NUM_NULL, 0},
    {"ci95_half_width", T_NUM_NULL, 0}, {"messages", T_INT, 0},
    {"saturated", T_BOOL, 0},      {"seeds", T_INT, 0},
    {NULL, 0, 0}};
static const key_spec timings_spec[] = {
    {"space", T_NUM, 0}, {"score", T_NUM, 0}, {"simulate", T_NUM, 0},
    {"total", T_NUM, 0}, {"phases", T_ARR, 0}, {NULL, 0, 0}};

/* A number or null read back equals v to the 10 digits written. */
static void check_num(const json_t *j, double v)
{
    if (!isfinite(v)) {
        assert_true(json_is_null(j));
        return;
    }
    assert_true(json_is_number(j));
    assert_true(fabs(json_number_value(j) - v) <= 1e-9 * fabs(v));
}

static void check_design_json(const json_t *d, const net_design *want)
{
    check_object(d, "design", design_spec);
    char text[512];
    net_design_format(want, text, sizeof text);
    assert_string_equal(json_string_value(json_object_get(d, "text")), text);
    const json_t *k = json_object_get(d, "k");
    assert_int_equal(json_array_size(k),
                     json_integer_value(json_object_get(d, "n")));
    for (size_t q = 0; q < json_array_size(k); q++)
        assert_true(json_is_integer(json_array_get(k, q)));
    int express = want->topology == NET_EXPRESS;
    assert_int_equal(json_object_get(d, "m") != NULL, express);
    assert_int_equal(json_object_get(d, "kn") != NULL, express);
}

/* Validate the whole document against the schema and against the run. */
static void check_results_json(const json_t *root, const dse_run *r,
                               int with_timings)
{
    const cfg_study *s = r->study;
    check_object(root, "results", root_spec);
    assert_string_equal(json_string_value(json_object_get(root, "schema")),
                        "dse-results");
    assert_int_equal(json_integer_value(json_object_get(root, "version")), 2);
    const json_t *dec = json_object_get(root, "decision");
    check_object(dec, "decision", decision_spec);
    if (r->recommended == SIZE_MAX)
        assert_true(json_is_null(json_object_get(dec, "recommended")));
    else
        assert_int_equal(json_integer_value(json_object_get(dec, "recommended")),
                         r->recommended);
    assert_int_equal(json_object_get(root, "timings_s") != NULL, with_timings);
    if (with_timings) {
        const json_t *t = json_object_get(root, "timings_s");
        check_object(t, "timings_s", timings_spec);
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)t, key, v)
            assert_true(json_is_array(v) || json_number_value(v) >= 0);
        /* every phase's figures, in order, none negative */
        const json_t *phases = json_object_get(t, "phases");
        for (size_t q = 0; q < json_array_size(phases); q++) {
            const json_t *ph = json_array_get(phases, q);
            assert_true(json_is_string(json_object_get(ph, "phase")));
            assert_true(json_integer_value(json_object_get(ph, "steps")) >= 0);
            assert_true(json_number_value(json_object_get(ph, "wall")) >= 0);
            assert_true(json_number_value(json_object_get(ph, "cpu")) >= 0);
            assert_true(
                json_number_value(json_object_get(ph, "peak_rss_mb")) > 0);
        }
    }
    const char *strategy = json_string_value(json_object_get(root, "strategy"));
    assert_string_equal(strategy, r->strategy);
    assert_int_equal(json_integer_value(json_object_get(root, "evaluations")),
                     r->evaluations);

    const json_t *st = json_object_get(root, "study");
    check_object(st, "study", study_spec);
    check_object(json_object_get(st, "simulation"), "study.simulation",
                 study_sim_spec);
    assert_string_equal(json_string_value(json_object_get(st, "name")), s->name);
    assert_int_equal(json_integer_value(json_object_get(st, "nodes")), s->nodes);
    const json_t *rates = json_object_get(st, "rates");
    assert_int_equal(json_array_size(rates), s->rates.n);
    for (size_t ri = 0; ri < s->rates.n; ri++)
        check_num(json_array_get(rates, ri), s->rates.v[ri]);
    const json_t *objs = json_object_get(st, "objectives");
    assert_int_equal(json_array_size(objs), s->nobjectives);
    for (size_t j = 0; j < s->nobjectives; j++)
        assert_string_equal(json_string_value(json_array_get(objs, j)),
                            cfg_objective_name(&s->objectives[j]));
    if (json_object_get(st, "budget_reference"))
        check_object(json_object_get(st, "budget_reference"),
                     "study.budget_reference", design_spec);

    const json_t *sp = json_object_get(root, "space");
    check_object(sp, "space", space_spec);
    json_int_t dropped = 0;
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(sp, "dropped"), key, v) {
        assert_true(json_is_integer(v) && json_integer_value(v) > 0);
        dropped += json_integer_value(v);
    }
    assert_int_equal(json_integer_value(json_object_get(sp, "enumerated")),
                     json_integer_value(json_object_get(sp, "feasible")) + dropped);
    assert_int_equal(json_integer_value(json_object_get(sp, "ranked")), r->nranked);

    const json_t *cands = json_object_get(root, "candidates");
    assert_int_equal(json_array_size(cands), r->ncand);
    for (size_t i = 0; i < r->ncand; i++) {
        const json_t *c = json_array_get(cands, i);
        const dse_candidate *rc = &r->cand[i];
        check_object(c, "candidate", cand_spec);
        check_object(json_object_get(c, "cost"), "candidate.cost", cost_spec);
        check_design_json(json_object_get(c, "design"), &rc->design);
        assert_int_equal(json_integer_value(json_object_get(c, "id")), i);
        assert_int_equal(json_integer_value(json_object_get(c, "rank")), rc->rank);
        assert_int_equal(json_integer_value(json_object_get(c, "finalist")),
                         rc->finalist);
        assert_int_equal(json_is_true(json_object_get(c, "saturated_at_target")),
                         rc->saturated_at_target);
        const json_t *lat = json_object_get(c, "latency");
        assert_int_equal(json_array_size(lat), s->rates.n);
        for (size_t ri = 0; ri < s->rates.n; ri++)
            check_num(json_array_get(lat, ri), rc->latency[ri]);
        if (rc->model)
            check_num(json_object_get(c, "saturation_rate"), rc->saturation_rate);
    }
    const json_t *fins = json_object_get(root, "finalists");
    assert_int_equal(json_array_size(fins), r->nfinalists);
    for (size_t f = 0; f < r->nfinalists; f++) {
        const json_t *fj = json_array_get(fins, f);
        check_object(fj, "finalist", finalist_spec);
        json_int_t id = json_integer_value(json_object_get(fj, "id"));
        assert_int_equal(id, r->finalists[f]);
        assert_int_equal(json_integer_value(json_object_get(fj, "order")), f + 1);
        assert_int_equal(json_integer_value(json_object_get(
                             json_array_get(cands, (size_t)id), "finalist")),
                         f + 1);
        const json_t *pts = json_object_get(fj, "simulation");
        const dse_candidate *c = &r->cand[r->finalists[f]];
        assert_int_equal(json_array_size(pts), c->sim ? s->rates.n : 0);
        for (size_t ri = 0; ri < json_array_size(pts); ri++) {
            const json_t *p = json_array_get(pts, ri);
            check_object(p, "simulation point", point_spec);
            check_num(json_object_get(p, "latency"), c->sim[ri].latency);
            check_num(json_object_get(p, "error_pct"), c->sim[ri].error_pct);
            check_num(json_object_get(p, "p99"), c->sim[ri].p99);
        }
        const json_t *cv = json_object_get(fj, "curve");
        assert_int_equal(json_array_size(cv), c->ncurve);
        for (size_t k = 0; k < json_array_size(cv); k++) {
            const json_t *p = json_array_get(cv, k);
            check_object(p, "curve point", curve_point_spec);
            check_num(json_object_get(p, "rate"), c->curve[k].rate);
            check_num(json_object_get(p, "p99"), c->curve[k].p99);
            check_num(json_object_get(p, "accepted_rate"),
                      c->curve[k].accepted);
        }
    }
    const json_t *notes = json_object_get(root, "notes");
    for (size_t q = 0; q < json_array_size(notes); q++)
        assert_true(json_is_string(json_array_get(notes, q)));
}

/* ---- candidates.csv ----------------------------------------------------- */

typedef struct csv_table {
    char ***rows;            /* rows[r][c], NUL-terminated cells */
    size_t *ncols;
    size_t nrows;
} csv_table;

static void cells_free(char **cells, size_t n)
{
    for (size_t c = 0; c < n; c++)
        free(cells[c]);
    free(cells);
}

static void csv_free(csv_table *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        cells_free(t->rows[r], t->ncols[r]);
    free(t->rows);
    free(t->ncols);
    memset(t, 0, sizeof *t);
}

/* One field at *pp into a new string; NULL on a malformed field. */
static char *csv_field(const char **pp)
{
    const char *p = *pp;
    size_t cap = 64, len = 0;
    char *cell = malloc(cap);
    if (*p == '"') {
        for (p++;; p++) {
            if (!*p) {
                free(cell);
                return NULL; /* unterminated quote */
            }
            if (*p == '"' && p[1] != '"') {
                p++;
                break;
            }
            if (*p == '"')
                p++; /* "" stands for one quote */
            cell[len++] = *p;
            if (len + 1 >= cap)
                cell = realloc(cell, cap *= 2);
        }
    } else {
        for (; *p && *p != ',' && *p != '\n' && *p != '\r'; p++) {
            if (*p == '"') {
                free(cell);
                return NULL; /* a quote inside an unquoted field */
            }
            cell[len++] = *p;
            if (len + 1 >= cap)
                cell = realloc(cell, cap *= 2);
        }
    }
    cell[len] = '\0';
    *pp = p;
    return cell;
}

/* Parse RFC 4180 text strictly: quoted fields with "" escapes, no stray
 * quote in an unquoted field, nothing between a closing quote and the next
 * separator, every record ended by a newline.  Returns 0, or -1 on
 * malformed text (t is then empty). */
static int csv_parse(const char *p, csv_table *t)
{
    memset(t, 0, sizeof *t);
    size_t cap_rows = 0;
    while (*p) {
        char **cells = NULL;
        size_t n = 0;
        for (;;) {
            char *cell = csv_field(&p);
            if (!cell) {
                cells_free(cells, n);
                csv_free(t);
                return -1;
            }
            cells = realloc(cells, (n + 1) * sizeof *cells);
            cells[n++] = cell;
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == '\r')
                p++;
            if (*p != '\n') {
                cells_free(cells, n);
                csv_free(t);
                return -1;
            }
            p++;
            break;
        }
        if (t->nrows == cap_rows) {
            cap_rows = cap_rows ? 2 * cap_rows : 64;
            t->rows = realloc(t->rows, cap_rows * sizeof *t->rows);
            t->ncols = realloc(t->ncols, cap_rows * sizeof *t->ncols);
        }
        t->rows[t->nrows] = cells;
        t->ncols[t->nrows++] = n;
    }
    return 0;
}

static int csv_column(const csv_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols[0]; c++)
        if (!strcmp(t->rows[0][c], name))
            return (int)c;
    return -1;
}

static double cell_value(const char *cell)
{
    if (!*cell)
        return NAN;
    char *end;
    double v = strtod(cell, &end);
    assert_true(*end == '\0');
    return v;
}

/* Check a CSV's structure and its own ranking: rank-0 rows are not
 * dominated by any ranked row in the CSV's objective columns. */
static void check_csv(const char *text, const dse_run *r)
{
    const cfg_study *s = r->study;
    csv_table t;
    assert_int_equal(csv_parse(text, &t), 0);
    assert_true(t.nrows >= 1);
    assert_int_equal(t.nrows - 1, r->ncand);
    size_t width = t.ncols[0];
    for (size_t row = 1; row < t.nrows; row++) {
        if (t.ncols[row] != width)
            print_error("row %zu has %zu columns, header %zu\n", row,
                        t.ncols[row], width);
        assert_int_equal(t.ncols[row], width);
    }
    int id = csv_column(&t, "id"), rank = csv_column(&t, "rank");
    int sat = csv_column(&t, "saturation_rate");
    int lat[64];
    assert_true(s->rates.n <= 64);
    for (size_t ri = 0; ri < s->rates.n; ri++) {
        char name[64];
        snprintf(name, sizeof name, "latency@%g", s->rates.v[ri]);
        lat[ri] = csv_column(&t, name);
        assert_true(lat[ri] >= 0);
    }
    assert_true(id == 0 && rank >= 0 && sat >= 0);
    int cost_col[CFG_MAX_OBJECTIVES];
    for (size_t j = 0; j < s->nobjectives; j++) {
        static const char *const column[CFG_COST_COUNT] = {
            [CFG_COST_BISECTION] = "bisection_wires",
            [CFG_COST_PINS] = "max_pins",
            [CFG_COST_WIRES] = "total_wires",
            [CFG_COST_BUFFER_BITS] = "buffer_bits"};
        cost_col[j] = s->objectives[j].kind == CFG_OBJ_COST
                          ? csv_column(&t, column[s->objectives[j].cost])
                          : -1;
        if (s->objectives[j].kind == CFG_OBJ_COST)
            assert_true(cost_col[j] >= 0);
    }
    size_t n = t.nrows - 1;
    int m = (int)s->nobjectives;
    double *pts = calloc(n * m + 1, sizeof *pts);
    int *ranks = calloc(n + 1, sizeof *ranks);
    char *seen = calloc(n + 1, 1);
    for (size_t i = 0; i < n; i++) {
        char **cells = t.rows[i + 1];
        char *end;
        long v = strtol(cells[id], &end, 10);
        assert_true(*end == '\0' && v >= 0 && (size_t)v < n);
        assert_false(seen[v]); /* ids unique */
        seen[v] = 1;
        ranks[i] = (int)strtol(cells[rank], &end, 10);
        assert_true(*end == '\0');
        assert_int_equal(ranks[i], r->cand[v].rank);
        double sum = 0;
        for (size_t ri = 0; ri < s->rates.n; ri++)
            sum += cell_value(cells[lat[ri]]);
        for (int j = 0; j < m; j++) {
            switch (s->objectives[j].kind) {
            case CFG_OBJ_LATENCY: pts[i * m + j] = sum / (double)s->rates.n; break;
            case CFG_OBJ_SATURATION: pts[i * m + j] = -cell_value(cells[sat]); break;
            case CFG_OBJ_COST: pts[i * m + j] = cell_value(cells[cost_col[j]]); break;
            }
        }
        if (ranks[i] >= 0)
            for (int j = 0; j < m; j++)
                assert_true(isfinite(pts[i * m + j]));
    }
    /* 10 significant digits in the file: compare with a 1e-8 slack */
    for (size_t i = 0; i < n; i++)
        if (ranks[i] == 0)
            for (size_t j = 0; j < n; j++)
                if (ranks[j] >= 0 && j != i &&
                    dominates(pts + j * m, pts + i * m, m, 1e-8))
                    fail_msg("CSV row %zu (rank 0) dominated by row %zu", i + 1,
                             j + 1);
    free(pts);
    free(ranks);
    free(seen);
    csv_free(&t);
}

/* ---- index.html --------------------------------------------------------- */

static int is_void_element(const char *name, size_t len)
{
    static const char *const voids[] = {"meta", "br", "hr", "img", "input",
                                        "link", "area", "base", "col",
                                        "embed", "source", "track", "wbr",
                                        NULL};
    for (int i = 0; voids[i]; i++)
        if (strlen(voids[i]) == len && !strncmp(voids[i], name, len))
            return 1;
    return 0;
}

/* Write a reason into why; returns -1 (for "return complain(...)"). */
__attribute__((format(printf, 3, 4))) static int
complain(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* Every element is closed in order (a stack of names; HTML void elements
 * and "/>" need no end tag; comments, DOCTYPE and <?...?> skipped).
 * Returns 0, or -1 with a message in why. */
static int html_balanced(const char *h, char *why, size_t size)
{
    const char *stack[512];
    size_t lens[512], depth = 0;
    for (const char *p = h; (p = strchr(p, '<')); ) {
        if (!strncmp(p, "<!--", 4)) {
            const char *e = strstr(p, "-->");
            if (!e)
                return complain(why, size, "unterminated comment");
            p = e + 3;
            continue;
        }
        if (p[1] == '!' || p[1] == '?') {
            p = strchr(p, '>');
            if (!p)
                return complain(why, size, "unterminated declaration");
            continue;
        }
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t len = strcspn(name, " \t\r\n/>");
        if (len == 0)
            return complain(why, size, "empty tag name at offset %td", p - h);
        /* find the end of the tag, skipping quoted attribute values */
        const char *q = name + len;
        char quote = 0;
        for (; *q && (quote || *q != '>'); q++)
            if (quote && *q == quote)
                quote = 0;
            else if (!quote && (*q == '"' || *q == '\''))
                quote = *q;
        if (!*q)
            return complain(why, size, "unterminated tag <%.*s", (int)len, name);
        int self_closing = q[-1] == '/';
        if (closing) {
            if (depth == 0 || lens[depth - 1] != len ||
                strncmp(stack[depth - 1], name, len))
                return complain(why, size, "</%.*s> closes <%.*s>", (int)len,
                                name, depth ? (int)lens[depth - 1] : 0,
                                depth ? stack[depth - 1] : "");
            depth--;
        } else if (!self_closing && !is_void_element(name, len)) {
            if (depth == 512)
                return complain(why, size, "nesting too deep");
            stack[depth] = name;
            lens[depth++] = len;
        }
        p = q + 1;
    }
    if (depth)
        return complain(why, size, "<%.*s> never closed", (int)lens[depth - 1],
                        stack[depth - 1]);
    return 0;
}

static size_t count_str(const char *h, const char *needle)
{
    size_t n = 0;
    for (const char *p = h; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Opening tags <name followed by a space, '>' or a newline. */
static size_t count_open(const char *h, const char *name)
{
    size_t n = 0, len = strlen(name);
    for (const char *p = h; (p = strchr(p, '<')); p++)
        if (!strncmp(p + 1, name, len) && strchr(" \t\r\n>", p[1 + len]))
            n++;
    return n;
}

/* Inside each <svg>...</svg>: every url(#id) names an id defined in that
 * same svg (charts are pasted into one page; a reference that resolved to
 * another chart's clip path would clip the wrong region). */
static void check_svg_references(const char *h)
{
    for (const char *s = h; (s = strstr(s, "<svg")); ) {
        const char *e = strstr(s, "</svg>");
        assert_non_null(e);
        for (const char *u = s; (u = strstr(u, "url(#")) && u < e; u += 5) {
            const char *id = u + 5;
            size_t len = strcspn(id, ")");
            char def[256];
            assert_true(len < sizeof def - 8);
            snprintf(def, sizeof def, "id=\"%.*s\"", (int)len, id);
            const char *d = strstr(s, def);
            if (!d || d > e)
                fail_msg("url(#%.*s) has no definition in its svg", (int)len, id);
        }
        s = e;
    }
}

static void check_html(const char *h)
{
    assert_int_equal(strncmp(h, "<!DOCTYPE html>", 15), 0);
    size_t len = strlen(h);
    while (len && strchr(" \t\r\n", h[len - 1]))
        len--;
    assert_true(len >= 7 && !strncmp(h + len - 7, "</html>", 7));
    assert_true(count_open(h, "svg") >= 1);
    assert_int_equal(count_open(h, "svg"), count_str(h, "</svg>"));
    assert_true(count_open(h, "table") >= 1);
    assert_int_equal(count_open(h, "table"), count_str(h, "</table>"));
    char why[256];
    if (html_balanced(h, why, sizeof why) != 0)
        fail_msg("index.html: %s", why);
    check_svg_references(h);
}

/* The checker itself: it must reject what it is meant to catch. */
static void test_checkers_reject_bad_input(void **state)
{
    (void)state;
    char why[256];
    assert_int_equal(html_balanced("<p><b>x</p></b>", why, sizeof why), -1);
    assert_int_equal(html_balanced("<svg><g></svg>", why, sizeof why), -1);
    assert_int_equal(html_balanced("<div>", why, sizeof why), -1);
    assert_int_equal(html_balanced("<!DOCTYPE html><html><meta charset=\"a>b\">"
                                   "<svg><rect /></svg><br></html>",
                                   why, sizeof why),
                     0);
    csv_table t;
    assert_int_equal(csv_parse("a,\"b\"x\n", &t), -1);
    assert_int_equal(csv_parse("a,\"b\n", &t), -1);
    assert_int_equal(csv_parse("a,b\"c\n", &t), -1);
    assert_int_equal(csv_parse("a,\"b,\"\"c\"\"\n\"\n1,2\n", &t), 0);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(t.ncols[0], 2);
    assert_string_equal(t.rows[0][1], "b,\"c\"\n");
    csv_free(&t);
    double a[] = {1, 2}, b[] = {1, 3}, c[] = {1, 2.0000000001};
    assert_true(dominates(a, b, 2, 0));
    assert_false(dominates(b, a, 2, 0));
    assert_false(dominates(a, a, 2, 0));
    assert_true(dominates(a, c, 2, 0));
    assert_false(dominates(a, c, 2, 1e-8));
}

/* curves.csv: one header, the same 19 columns on every row, series
 * "model" or "sim"; one label per design id and one design per label (the
 * labels are unique); curves.json holds the same points. */
static void check_curves(const char *csv, const char *csv_path,
                         const dse_run *r)
{
    csv_table t;
    assert_int_equal(csv_parse(csv, &t), 0);
    assert_true(t.nrows > 1);
    assert_string_equal(t.rows[0][0], "id");
    assert_string_equal(t.rows[0][6], "series");
    size_t sim_rows = 0;
    for (size_t i = 1; i < t.nrows; i++) {
        assert_int_equal(t.ncols[i], 19);
        assert_true(!strcmp(t.rows[i][6], "model") || !strcmp(t.rows[i][6], "sim"));
        sim_rows += !strcmp(t.rows[i][6], "sim");
        for (size_t j = 1; j < i; j++) {
            int same_id = !strcmp(t.rows[i][0], t.rows[j][0]);
            int same_label = !strcmp(t.rows[i][1], t.rows[j][1]);
            if (same_id != same_label)
                fail_msg("curves.csv: designs %s and %s share the label \"%s\"",
                         t.rows[i][0], t.rows[j][0], t.rows[i][1]);
        }
    }
    size_t expected_sim = 0;
    for (size_t f = 0; f < r->nfinalists; f++) {
        const dse_candidate *c = &r->cand[r->finalists[f]];
        for (size_t ri = 0; c->sim && ri < r->study->rates.n; ri++)
            expected_sim += c->sim[ri].seeds > 0;
        for (size_t k = 0; k < c->ncurve; k++)
            expected_sim += c->curve[k].seeds > 0;
    }
    assert_int_equal(sim_rows, expected_sim);
    char json_path[4400];
    snprintf(json_path, sizeof json_path, "%.*s.json",
             (int)(strlen(csv_path) - 4), csv_path);
    json_error_t je;
    json_t *root = json_load_file(json_path, 0, &je);
    if (!root)
        fail_msg("curves.json: %s at line %d", je.text, je.line);
    assert_string_equal(json_string_value(json_object_get(root, "schema")),
                        "dse-curves");
    size_t points = 0, idx;
    json_t *cv;
    json_array_foreach(json_object_get(root, "curves"), idx, cv)
        points += json_array_size(json_object_get(cv, "model")) +
                  json_array_size(json_object_get(cv, "simulation"));
    assert_int_equal(points, t.nrows - 1);
    json_decref(root);
    csv_free(&t);
}

static void test_report_files(void **state)
{
    fixture *fx = *state;
    static const char *const files[] = {"index.html", "report.md",
                                        "candidates.csv", "results.json",
                                        "curves.csv", "curves.json"};
    char path[4400];
    for (int q = 0; q < 6; q++) {
        snprintf(path, sizeof path, "%s/%s", fx->report, files[q]);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        assert_true(st.st_size > 0);
    }
    /* the six files, .dse-report and the charts: load-latency,
     * load-accepted, front-simulated, front-model, simulated-N,
     * percentiles, parity (front-cost only when cost is an objective) */
    int charts = count_charts(fx->report);
    assert_true(charts >= 7);
    assert_int_equal(count_entries(fx->report, ""), 7 + charts);
    assert_int_equal(count_entries(fx->report, DSE_REPORT_MARKER), 1);
    /* published atomically: nothing left beside it */
    assert_int_equal(count_entries(fx->tmp, "report."), 0);
    assert_int_equal(count_entries(fx->tmp, ""), 1);

    snprintf(path, sizeof path, "%s/results.json", fx->report);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        fail_msg("results.json: %s at line %d", je.text, je.line);
    check_results_json(root, &fx->run, 1);
    json_decref(root);

    snprintf(path, sizeof path, "%s/candidates.csv", fx->report);
    char *csv = slurp(path);
    assert_non_null(csv);
    check_csv(csv, &fx->run);
    free(csv);

    snprintf(path, sizeof path, "%s/curves.csv", fx->report);
    csv = slurp(path);
    assert_non_null(csv);
    check_curves(csv, path, &fx->run);
    free(csv);

    snprintf(path, sizeof path, "%s/index.html", fx->report);
    char *html = slurp(path);
    assert_non_null(html);
    check_html(html);
    assert_non_null(strstr(html, fx->study.name));
    free(html);

    snprintf(path, sizeof path, "%s/report.md", fx->report);
    char *md = slurp(path);
    assert_non_null(md);
    assert_non_null(strstr(md, fx->study.name));
    free(md);
}

/* ---- determinism ---------------------------------------------------------- */

/* a and b are the same text; otherwise fail naming the first differing
 * line (the documents are too long to print whole). */
static void expect_same_text(const char *a, const char *b, const char *what)
{
    size_t line = 1, i = 0;
    for (; a[i] && a[i] == b[i]; i++)
        line += a[i] == '\n';
    if (a[i] == b[i])
        return;
    size_t start = i;
    while (start > 0 && a[start - 1] != '\n')
        start--;
    fail_msg("%s differ at line %zu:\n  %.*s\n  %.*s", what, line,
             (int)strcspn(a + start, "\n"), a + start,
             (int)strcspn(b + start, "\n"), b + start);
}

static void test_threads_do_not_change_results(void **state)
{
    fixture *fx = *state;
    cfg_study s;
    dse_run one;
    err e;
    assert_int_equal(cfg_study_load(SMALL, &s, &e), 0);
    dse_optimize_opts o = opts_for(1, 0);
    assert_int_equal(dse_optimize(&s, &o, &one, &e), 0);
    char *a = json_text(&one), *b = json_text(&fx->run);
    expect_same_text(a, b, "results.json with 1 and 2 threads");
    json_error_t je;
    json_t *root = json_loads(a, 0, &je);
    assert_non_null(root);
    check_results_json(root, &one, 0);
    json_decref(root);
    free(a);
    free(b);
    a = csv_text(&one);
    b = csv_text(&fx->run);
    expect_same_text(a, b, "candidates.csv with 1 and 2 threads");
    free(a);
    free(b);
    dse_run_fini(&one);
    cfg_study_fini(&s);
}

/* ---- a study ranked on p99 ------------------------------------------------ */

/* opt_small ranked on p99_latency with the real simulator: at each target
 * rate the best is the design of lowest simulated p99, the ranks follow
 * the p99s, the ties their intervals (from the replications' spread); the
 * percentile bound of every simulated design is below its simulated p99;
 * a design simulated in both runs has the same figures as in the mean
 * run (same jobs); candidates.csv and results.json carry the p99. */
static void test_p99_study(void **state)
{
    fixture *fx = *state;
    cfg_study s;
    dse_run run;
    err e;
    assert_int_equal(cfg_study_load(SMALL, &s, &e), 0);
    s.objectives[0].stat = CFG_LAT_P99;
    assert_string_equal(cfg_objective_name(&s.objectives[0]), "p99_latency");
    dse_optimize_opts o = opts_for(2, 0);
    assert_int_equal(dse_optimize(&s, &o, &run, &e), 0);
    assert_true(run.nsimulated >= 2);
    size_t sustained = 0, differs = 0;
    for (size_t ri = 0; ri < s.rates.n; ri++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < run.ncand; i++) {
            const dse_candidate *c = &run.cand[i];
            if (!c->sim || c->sim[ri].saturated || !isfinite(c->sim[ri].p99))
                continue;
            const dse_sim_point *p = &c->sim[ri];
            sustained++;
            assert_true(p->p99_half_width >= 0 && isfinite(p->p99_half_width));
            assert_true(p->p50 <= p->p95 && p->p95 <= p->p99);
            assert_true(dse_optimistic_figure(&s, c, ri, CFG_LAT_P99) <=
                        p->p99);
            if (best == SIZE_MAX || p->p99 < run.cand[best].sim[ri].p99)
                best = i;
        }
        assert_int_equal(run.best_at_rate[ri], best);
        if (best == SIZE_MAX)
            continue;
        const dse_sim_point *b = &run.cand[best].sim[ri];
        for (size_t i = 0; i < run.ncand; i++) {
            const dse_candidate *c = &run.cand[i];
            if (!c->sim || c->sim[ri].saturated || !isfinite(c->sim[ri].p99))
                continue;
            const dse_sim_point *p = &c->sim[ri];
            int rank = 1;
            for (size_t j = 0; j < run.ncand; j++) {
                const dse_candidate *d = &run.cand[j];
                if (d->sim && !d->sim[ri].saturated &&
                    isfinite(d->sim[ri].p99) &&
                    (d->sim[ri].p99 < p->p99 ||
                     (d->sim[ri].p99 == p->p99 && j < i)))
                    rank++;
            }
            assert_int_equal(p->rank, rank);
            assert_int_equal(p->tied_best, p->p99 - p->p99_half_width <=
                                               b->p99 + b->p99_half_width);
            /* the same simulation in the mean-ranked run */
            const dse_candidate *m = &fx->run.cand[i];
            if (m->sim && !m->sim[ri].saturated) {
                assert_true(m->sim[ri].p99 == p->p99);
                assert_true(m->sim[ri].latency == p->latency);
            }
        }
        size_t mb = fx->run.best_at_rate[ri];
        differs += mb != best;
        print_message("rate %g: best by p99 %zu (p99 %.1f +- %.1f, mean "
                      "%.1f); best by mean in the mean-ranked run %zu\n",
                      s.rates.v[ri], best, b->p99, b->p99_half_width,
                      b->latency, mb);
    }
    assert_true(sustained > 0);
    print_message("%zu rate(s) where the p99 ranking's best differs\n",
                  differs);
    char *csv = csv_text(&run);
    assert_non_null(strstr(csv, ",sim_p99@0.004,sim_p99_ci95@0.004,"));
    assert_non_null(strstr(csv, ",min_zero_load_latency,"));
    free(csv);
    char *js = json_text(&run);
    assert_non_null(strstr(js, "\"ranked_on\": \"p99\""));
    assert_non_null(strstr(js, "\"p99_ci95_half_width\""));
    free(js);
    dse_run_fini(&run);
    cfg_study_fini(&s);
}

/* ---- the NLopt strategy ---------------------------------------------------- */

static void test_nlopt_scores_a_subset(void **state)
{
    (void)state;
    cfg_study s;
    dse_run nl, ex;
    err e;
    assert_int_equal(cfg_study_load(NLOPT, &s, &e), 0);
    assert_int_equal(s.search, CFG_SEARCH_NLOPT);
    dse_optimize_opts o = opts_for(1, 1);
    assert_int_equal(dse_optimize(&s, &o, &nl, &e), 0);
    s.search = CFG_SEARCH_EXHAUSTIVE;
    assert_int_equal(dse_optimize(&s, &o, &ex, &e), 0);
    s.search = CFG_SEARCH_NLOPT; /* nl->study points at s */

    assert_string_equal(nl.strategy, "nlopt");
    assert_string_equal(ex.strategy, "exhaustive");
    assert_int_equal(nl.space.count, ex.space.count);
    assert_int_equal(ex.ncand, ex.space.count);
    assert_true(nl.ncand >= 1 && nl.ncand < ex.ncand);
    /* evaluations count distinct designs: none scored twice */
    assert_int_equal(nl.evaluations, expected_evaluations(&nl));
    assert_int_equal(ex.evaluations, expected_evaluations(&ex));
    assert_true(nl.evaluations < ex.evaluations);

    /* each design NLopt scored is a design of the space, with the same
     * figures exhaustive search gave it, in space order */
    size_t at = 0;
    for (size_t i = 0; i < nl.ncand; i++) {
        char a[512], b[512];
        net_design_format(&nl.cand[i].design, a, sizeof a);
        for (;; at++) {
            assert_true(at < ex.ncand);
            net_design_format(&ex.cand[at].design, b, sizeof b);
            if (!strcmp(a, b))
                break;
        }
        const dse_candidate *x = &nl.cand[i], *y = &ex.cand[at];
        /* NAN both: no model covers the design (kept by default) */
        assert_true(x->saturation_rate == y->saturation_rate ||
                    (isnan(x->saturation_rate) && isnan(y->saturation_rate)));
        for (size_t ri = 0; ri < s.rates.n; ri++)
            assert_true(x->latency[ri] == y->latency[ri] ||
                        (isnan(x->latency[ri]) && isnan(y->latency[ri])));
        at++;
    }
    check_model_ranking(&nl);
    check_finalists(&nl);
    for (size_t i = 0; i < nl.ncand; i++)
        assert_null(nl.cand[i].sim); /* skip_sim */

    char *text = json_text(&nl);
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    assert_non_null(root);
    check_results_json(root, &nl, 0);
    const json_t *sp = json_object_get(root, "space");
    assert_int_equal(json_integer_value(json_object_get(sp, "feasible")),
                     nl.space.count);
    json_decref(root);
    free(text);
    dse_run_fini(&nl);
    dse_run_fini(&ex);
    cfg_study_fini(&s);
}

/* ---- the program: exit codes, interruption, publication ---------------- */

typedef struct child {
    pid_t pid;
    int err_fd;              /* read end of the child's stderr */
    int out_fd;              /* read end of its stdout */
    char err[16384];
    size_t err_len;
    char out[16384];
    size_t out_len;
} child;

static void spawn(child *c, char *const argv[])
{
    memset(c, 0, sizeof *c);
    int ep[2], op[2];
    assert_int_equal(pipe(ep), 0);
    assert_int_equal(pipe(op), 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        dup2(ep[1], 2);
        dup2(op[1], 1);
        close(ep[0]);
        close(ep[1]);
        close(op[0]);
        close(op[1]);
        execv(DSE_BINARY, argv);
        _exit(127);
    }
    close(ep[1]);
    close(op[1]);
    c->err_fd = ep[0];
    c->out_fd = op[0];
}

/* Read what is available from *fd into buf (at most cap - 1 bytes kept,
 * the rest read and dropped) within timeout_ms.  1: read something; 0: end
 * of file (*fd closed and set to -1); -1: nothing yet. */
static int pump(int *fd, char *buf, size_t *len, size_t cap, int timeout_ms)
{
    if (*fd < 0)
        return 0;
    struct pollfd pf = {.fd = *fd, .events = POLLIN};
    if (poll(&pf, 1, timeout_ms) <= 0)
        return -1;
    char tmp[4096];
    ssize_t got = read(*fd, tmp, sizeof tmp);
    if (got <= 0) {
        close(*fd);
        *fd = -1;
        return 0;
    }
    size_t room = cap - 1 - *len;
    size_t take = (size_t)got < room ? (size_t)got : room;
    memcpy(buf + *len, tmp, take);
    *len += take;
    buf[*len] = '\0';
    return 1;
}

static void sleep_s(double s)
{
    struct timespec ts = {.tv_sec = (time_t)s,
                          .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wait (at most timeout_s) until stderr contains `text`; 1 if it did. */
static int wait_for_stderr(child *c, const char *text, double timeout_s)
{
    double t0 = now_s();
    while (!strstr(c->err, text)) {
        if (now_s() - t0 > timeout_s)
            return 0;
        if (pump(&c->err_fd, c->err, &c->err_len, sizeof c->err, 100) == 0)
            return 0;
    }
    return 1;
}

/* Collect the output and the exit status (killing the child after
 * timeout_s); returns the waitpid status. */
static int finish(child *c, double timeout_s)
{
    double t0 = now_s();
    int status = 0;
    for (;;) {
        if (c->err_fd >= 0 || c->out_fd >= 0) {
            pump(&c->err_fd, c->err, &c->err_len, sizeof c->err, 20);
            pump(&c->out_fd, c->out, &c->out_len, sizeof c->out, 20);
        } else {
            sleep_s(0.02);
        }
        pid_t w = waitpid(c->pid, &status, WNOHANG);
        if (w == c->pid)
            break;
        if (now_s() - t0 > timeout_s) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &status, 0);
            fail_msg("dse did not exit within %.0f s; stderr:\n%s", timeout_s,
                     c->err);
        }
    }
    /* the child is gone: read to end of file */
    while (pump(&c->err_fd, c->err, &c->err_len, sizeof c->err, 1000) == 1)
        ;
    while (pump(&c->out_fd, c->out, &c->out_len, sizeof c->out, 1000) == 1)
        ;
    if (c->err_fd >= 0)
        close(c->err_fd);
    if (c->out_fd >= 0)
        close(c->out_fd);
    c->err_fd = c->out_fd = -1;
    return status;
}

static void expect_exit(int status, int code, const child *c)
{
    if (!WIFEXITED(status) || WEXITSTATUS(status) != code)
        print_error("status 0x%x (want exit %d); stderr:\n%s\n", status, code,
                    c->err);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), code);
}

/* Interrupt `dse optimize` once scoring is done (it is then simulating,
 * for minutes); report dir is tmp/report. */
static void run_interrupted(const char *tmp, const char *report)
{
    char *argv[] = {"dse", "optimize", "-j", "2", "-o", (char *)report,
                    INTERRUPT, NULL};
    child c;
    spawn(&c, argv);
    /* the progress line that ends scoring is printed after the signal
     * handlers are installed */
    if (!wait_for_stderr(&c, "done in", 60)) {
        kill(c.pid, SIGKILL);
        finish(&c, 10);
        fail_msg("scoring did not finish; stderr:\n%s", c.err);
    }
    sleep_s(0.3);
    assert_int_equal(kill(c.pid, SIGINT), 0);
    double t0 = now_s();
    int status = finish(&c, 30);
    expect_exit(status, 130, &c);
    assert_non_null(strstr(c.err, "interrupted"));
    assert_true(now_s() - t0 < 30);
    /* nothing half-written beside the report directory */
    assert_int_equal(count_entries(tmp, "report.tmp-"), 0);
    assert_int_equal(count_entries(tmp, "report.old-"), 0);
}

static void test_interrupt_exits_130_without_report(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char report[4200];
    snprintf(report, sizeof report, "%s/report", tmp);
    run_interrupted(tmp, report);
    assert_false(exists(report));
    assert_int_equal(count_entries(tmp, ""), 0);
    remove_dir(tmp);
    free(tmp);
}

static void test_interrupt_keeps_older_report(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char report[4200], old[4400];
    snprintf(report, sizeof report, "%s/report", tmp);
    snprintf(old, sizeof old, "%s/results.json", report);
    assert_int_equal(mkdir(report, 0777), 0);
    FILE *f = fopen(old, "w");
    assert_non_null(f);
    fputs("{\"older\": true}\n", f);
    fclose(f);
    write_marker(report);
    run_interrupted(tmp, report);
    char *text = slurp(old);
    assert_non_null(text);
    assert_string_equal(text, "{\"older\": true}\n");
    free(text);
    assert_int_equal(count_entries(report, ""), 2);
    assert_int_equal(count_entries(tmp, ""), 1);
    remove_dir(tmp);
    free(tmp);
}

static void test_finished_run_replaces_older_report(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char report[4200], marker[4400];
    snprintf(report, sizeof report, "%s/report", tmp);
    snprintf(marker, sizeof marker, "%s/stale.txt", report);
    assert_int_equal(mkdir(report, 0777), 0);
    FILE *f = fopen(marker, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    write_marker(report); /* an older report dse wrote */
    char *argv[] = {"dse", "optimize", "-q", "--no-sim", "-j", "2", "-o",
                    report, SMALL, NULL};
    child c;
    spawn(&c, argv);
    expect_exit(finish(&c, 120), 0, &c);
    assert_false(exists(marker));
    /* without simulations: the load charts and the models' screen */
    assert_true(count_charts(report) >= 3);
    assert_int_equal(count_entries(report, ""), 7 + count_charts(report));
    assert_int_equal(count_entries(tmp, ""), 1);
    char want[4300];
    snprintf(want, sizeof want, "report: %s/", report);
    assert_non_null(strstr(c.out, want));
    char path[4400];
    snprintf(path, sizeof path, "%s/results.json", report);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    assert_non_null(root);
    assert_true(json_is_object(json_object_get(root, "timings_s")));
    assert_int_equal(json_array_size(json_object_get(root, "finalists")), 4);
    json_t *fin = json_array_get(json_object_get(root, "finalists"), 0);
    assert_int_equal(json_array_size(json_object_get(fin, "simulation")), 0);
    json_decref(root);
    remove_dir(tmp);
    free(tmp);
}

/* A directory dse did not write (no marker), a symbolic link, a
 * file, or "/" is refused before any work starts, exit status 2, and
 * nothing in it is touched; a symlink's target keeps its files. */
static void test_foreign_report_dir_is_refused(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char foreign[4200], file[4400], link[4200], victim[4200], vfile[4400];
    snprintf(foreign, sizeof foreign, "%s/home", tmp);
    snprintf(file, sizeof file, "%s/precious.txt", foreign);
    snprintf(victim, sizeof victim, "%s/victim", tmp);
    snprintf(vfile, sizeof vfile, "%s/results.json", victim);
    snprintf(link, sizeof link, "%s/link", tmp);
    assert_int_equal(mkdir(foreign, 0777), 0);
    assert_int_equal(mkdir(victim, 0777), 0);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("keep me\n", f);
    fclose(f);
    f = fopen(vfile, "w");
    assert_non_null(f);
    fputs("keep me too\n", f);
    fclose(f);
    write_marker(victim); /* even a dse report behind a link is refused */
    assert_int_equal(symlink(victim, link), 0);
    const char *targets[] = {foreign, link, file, "/", NULL};
    const char *want[] = {"not written by dse", "symbolic link",
                          "not a directory", "not a directory dse may replace"};
    for (int i = 0; targets[i]; i++) {
        char *argv[] = {"dse", "optimize", "-q", "--no-sim", "-j", "1", "-o",
                        (char *)targets[i], SMALL, NULL};
        child c;
        spawn(&c, argv);
        expect_exit(finish(&c, 120), 2, &c);
        if (!strstr(c.err, want[i]))
            fail_msg("target %s: stderr lacks '%s':\n%s", targets[i], want[i],
                     c.err);
        /* refused before any work: no progress, no temporary directory */
        assert_int_equal(count_entries(tmp, "home."), 0);
        assert_int_equal(count_entries(tmp, "link."), 0);
    }
    char *text = slurp(file);
    assert_non_null(text);
    assert_string_equal(text, "keep me\n");
    free(text);
    text = slurp(vfile);
    assert_non_null(text);
    assert_string_equal(text, "keep me too\n");
    free(text);
    err e;
    /* the library refuses too, and accepts new, empty and dse directories */
    assert_int_equal(dse_report_dir_check(foreign, &e), ERR_CONFIG);
    assert_int_equal(dse_report_dir_check(link, &e), ERR_CONFIG);
    assert_int_equal(dse_report_dir_check(victim, &e), 0);
    snprintf(file, sizeof file, "%s/new", tmp);
    assert_int_equal(dse_report_dir_check(file, &e), 0);
    assert_int_equal(mkdir(file, 0777), 0);
    assert_int_equal(dse_report_dir_check(file, &e), 0);
    unlink(link);
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
    free(tmp);
}

static void test_bad_study_exits_2_with_location(void **state)
{
    (void)state;
    char *tmp = make_tmpdir();
    char report[4200];
    snprintf(report, sizeof report, "%s/report", tmp);
    char *argv[] = {"dse", "optimize", "-q", "-o", report, BAD, NULL};
    child c;
    spawn(&c, argv);
    expect_exit(finish(&c, 60), 2, &c);
    /* line 5 "  vcs: [2, 0]": the 0 is at column 12 */
    const char *want = BAD ":5:12: space.vcs[1]: ";
    if (strncmp(c.err, want, strlen(want)))
        fail_msg("stderr does not start with '%s':\n%s", want, c.err);
    assert_non_null(strstr(c.err, "  vcs: [2, 0]\n"));
    assert_non_null(strstr(c.err, "^"));
    assert_false(exists(report));

    char *usage[] = {"dse", "optimize", NULL};
    spawn(&c, usage);
    expect_exit(finish(&c, 60), 2, &c);
    remove_dir(tmp);
    free(tmp);
}

int main(void)
{
    const struct CMUnitTest small[] = {
        cmocka_unit_test(test_run_is_consistent),
        cmocka_unit_test(test_rank0_is_nondominated),
        cmocka_unit_test(test_finalists_and_simulation),
        cmocka_unit_test(test_report_files),
        cmocka_unit_test(test_threads_do_not_change_results),
        cmocka_unit_test(test_p99_study),
    };
    const struct CMUnitTest other[] = {
        cmocka_unit_test(test_checkers_reject_bad_input),
        cmocka_unit_test(test_nlopt_scores_a_subset),
        cmocka_unit_test(test_interrupt_exits_130_without_report),
        cmocka_unit_test(test_interrupt_keeps_older_report),
        cmocka_unit_test(test_finished_run_replaces_older_report),
        cmocka_unit_test(test_bad_study_exits_2_with_location),
        cmocka_unit_test(test_foreign_report_dir_is_refused),
    };
    int failed = cmocka_run_group_tests_name("optimize_small", small,
                                             setup_small, teardown_small);
    failed += cmocka_run_group_tests_name("optimize", other, NULL, NULL);
    return failed;
}
