/*
 * test_pareto.c — Pareto ranking, crowding, selection and hypervolume
 * against brute force on random point sets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse/search/pareto.h"

/* A small deterministic generator (tests must not depend on rand()). */
static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Rank by peeling: rank r = points not dominated by any unranked point. */
static void brute_rank(const double *p, size_t n, int m, int *rank)
{
    for (size_t i = 0; i < n; i++)
        rank[i] = -1;
    for (int level = 0;; level++) {
        int assigned = 0;
        int *now = calloc(n, sizeof *now);
        for (size_t i = 0; i < n; i++) {
            if (rank[i] >= 0)
                continue;
            int dominated = 0;
            for (size_t j = 0; j < n && !dominated; j++)
                if (rank[j] < 0 && j != i &&
                    pareto_dominates(p + j * m, p + i * m, m))
                    dominated = 1;
            now[i] = !dominated;
        }
        for (size_t i = 0; i < n; i++)
            if (now[i]) {
                rank[i] = level;
                assigned = 1;
            }
        free(now);
        if (!assigned)
            return;
    }
}

static void test_rank_matches_brute_force(void **state)
{
    (void)state;
    uint64_t seed = 42;
    for (int trial = 0; trial < 200; trial++) {
        int m = 2 + trial % 3;
        size_t n = 1 + lcg(&seed) % 60;
        double *p = malloc(n * m * sizeof *p);
        for (size_t i = 0; i < n * m; i++)
            p[i] = (double)(lcg(&seed) % 8); /* many ties on purpose */
        int *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        pareto_rank(p, n, m, a);
        brute_rank(p, n, m, b);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(a[i], b[i]);
        /* every front member is non-dominated by every other point */
        for (size_t i = 0; i < n; i++)
            if (a[i] == 0)
                for (size_t j = 0; j < n; j++)
                    assert_false(pareto_dominates(p + j * m, p + i * m, m));
        free(p);
        free(a);
        free(b);
    }
}

static void test_nan_points_are_unranked(void **state)
{
    (void)state;
    double p[] = {1, 2, NAN, 0, 2, 1};
    int rank[3];
    assert_int_equal(pareto_rank(p, 3, 2, rank), 1);
    assert_int_equal(rank[0], 0);
    assert_int_equal(rank[1], -1);
    assert_int_equal(rank[2], 0);
}

static void test_select_prefers_front_and_extremes(void **state)
{
    (void)state;
    /* front: (0,4) (1,3) (2,2) (3,1) (4,0); dominated: (3,3) (4,4) */
    double p[] = {0, 4, 1, 3, 2, 2, 3, 1, 4, 0, 3, 3, 4, 4};
    size_t out[7];
    assert_int_equal(pareto_select(p, 7, 2, 2, out), 2);
    /* the two extremes have infinite crowding distance */
    assert_true((out[0] == 0 && out[1] == 4) || (out[0] == 4 && out[1] == 0));
    assert_int_equal(pareto_select(p, 7, 2, 6, out), 6);
    for (size_t i = 0; i < 5; i++)
        assert_true(out[i] < 5);
    assert_int_equal(out[5], 5);
    double crowd[7];
    int rank[7];
    pareto_rank(p, 7, 2, rank);
    pareto_crowding(p, 7, 2, rank, crowd);
    assert_true(isinf(crowd[0]) && isinf(crowd[4]));
    assert_float_equal(crowd[2], 1.0, 1e-12); /* (3-1)/4 + (3-1)/4 */
}

/* Count the unit cells of the integer grid [0,10)^m dominated by a point. */
static double brute_hv(const double *p, size_t n, int m)
{
    double cells = 0;
    int c[3];
    int total = m == 2 ? 100 : 1000;
    for (int id = 0; id < total; id++) {
        c[0] = id % 10;
        c[1] = (id / 10) % 10;
        c[2] = id / 100;
        for (size_t i = 0; i < n; i++) {
            int dom = 1;
            for (int j = 0; j < m; j++)
                if (p[i * m + j] > c[j])
                    dom = 0;
            if (dom) {
                cells++;
                break;
            }
        }
    }
    return cells;
}

static void test_hypervolume_matches_grid_count(void **state)
{
    (void)state;
    uint64_t seed = 7;
    double ref[3] = {10, 10, 10};
    for (int trial = 0; trial < 100; trial++) {
        int m = 2 + trial % 2;
        size_t n = 1 + lcg(&seed) % 12;
        double p[36];
        for (size_t i = 0; i < n * m; i++)
            p[i] = (double)(lcg(&seed) % 10);
        assert_float_equal(pareto_hypervolume(p, n, m, ref), brute_hv(p, n, m),
                           1e-9);
    }
    double one[4] = {1, 1, 1, 1};
    assert_true(pareto_hypervolume(one, 1, 4, ref) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_matches_brute_force),
        cmocka_unit_test(test_nan_points_are_unranked),
        cmocka_unit_test(test_select_prefers_front_and_extremes),
        cmocka_unit_test(test_hypervolume_matches_grid_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
