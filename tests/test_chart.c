/*
 * test_chart.c — charts come out as one well-formed inline <svg> element
 * with the labels in it; saturated (non-finite) points are skipped; every
 * series drawn has a legend entry (its own or its group's) and every
 * point its tooltip; point labels do not overlap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/report/chart.h"

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Labels are written as text, XML-escaped. */
static int has_label(const char *svg, const char *text)
{
    char want[512];
    snprintf(want, sizeof want, ">%s<", text);
    return strstr(svg, want) != NULL;
}

static void test_line_chart_with_error_bars(void **state)
{
    (void)state;
    double x[] = {0.001, 0.002, 0.003, 0.004};
    double y[] = {20, 22, 25, NAN};
    double lo[] = {19, 21, 24, NAN}, hi[] = {21, 23, 26, NAN};
    chart_series s[2] = {
        {.label = "model", .x = x, .y = y, .n = 4, .style = CHART_LINE},
        {.label = "sim", .x = x, .y = y, .y_lo = lo, .y_hi = hi, .n = 4,
         .style = CHART_POINTS, .color = 1, .marker = 1},
    };
    chart c = {.title = "latency", .xlabel = "rate", .ylabel = "cycles",
               .series = s, .nseries = 2};
    err e;
    char *svg = chart_svg(&c, &e);
    assert_non_null(svg);
    assert_int_equal(strncmp(svg, "<svg", 4), 0);
    assert_int_equal(count(svg, "<svg"), 1);
    assert_non_null(strstr(svg, "</svg>"));
    assert_true(has_label(svg, "latency"));
    assert_true(has_label(svg, "model"));
    assert_true(has_label(svg, "cycles"));
    assert_null(strstr(svg, "DOCTYPE"));
    free(svg);
}

static void test_empty_and_log_chart(void **state)
{
    (void)state;
    double x[] = {1, 10, 100}, y[] = {-1, 5, 50};
    chart_series s = {.label = "a", .x = x, .y = y, .n = 3,
                      .style = CHART_LINE_POINTS};
    chart c = {.title = "log", .log_x = 1, .log_y = 1, .series = &s,
               .nseries = 1};
    char *svg = chart_svg(&c, NULL);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "</svg>"));
    free(svg);
    chart none = {.title = "empty"};
    svg = chart_svg(&none, NULL);
    assert_non_null(svg);
    free(svg);
}

static int has_tick(const double *v, size_t n, double want)
{
    for (size_t i = 0; i < n; i++)
        if (fabs(v[i] - want) <= 1e-9 * want)
            return 1;
    return 0;
}

/* Several labelled ticks on every axis: a log axis over 40-700 reads 50,
 * 100, 200, 500 (not one "10^2"); a narrow log range still gets >= 3; a
 * linear axis of small rates is labelled in round steps. */
static void test_ticks(void **state)
{
    (void)state;
    double v[64];
    size_t n = chart_ticks(40, 700, 1, v, 64);
    assert_true(n >= 4 && n <= 12);
    assert_true(has_tick(v, n, 50) && has_tick(v, n, 100) &&
                has_tick(v, n, 200) && has_tick(v, n, 500));
    n = chart_ticks(190, 240, 1, v, 64);
    assert_true(n >= 3);
    for (size_t i = 0; i < n; i++)
        assert_true(v[i] >= 190 && v[i] <= 240);
    n = chart_ticks(0.001, 1e6, 1, v, 64);
    assert_true(n >= 4 && n <= 10);
    n = chart_ticks(0, 0.0043, 0, v, 64);
    assert_true(n >= 4 && n <= 8);
    assert_true(has_tick(v, n, 0.001) && has_tick(v, n, 0.004));
    for (size_t i = 1; i < n; i++)
        assert_true(v[i] > v[i - 1]);
}

/* Legend entries appear once each (one symbol per entry); points at
 * y = +inf are drawn (at the top edge), other non-finite ones are not;
 * reference lines, keys and point labels come out as text. */
static void test_legend_top_edge_and_labels(void **state)
{
    (void)state;
    double x[] = {0.01, 0.02, 0.03}, y[] = {10, 20, INFINITY};
    double fx[] = {0.03, 0.02, 0.01}, fy[] = {30, 20, 10};
    const char *names[] = {"#1", NULL, "#3"};
    chart_series s[3] = {
        {.label = "alpha", .x = x, .y = y, .n = 3, .style = CHART_POINTS,
         .marker = CHART_MARK_DOT, .point_labels = names},
        {.label = "front", .x = fx, .y = fy, .n = 3, .style = CHART_STEP},
        {.label = "nothing drawable", .x = x, .y = (double[]){NAN, NAN, NAN},
         .n = 3, .style = CHART_POINTS},
    };
    double vl[] = {0.015};
    chart_key key = {"saturated", CHART_MARK_TRIANGLE, 0, -1};
    chart c = {.title = "t", .xlabel = "rate", .ylabel = "latency",
               .log_y = 1, .series = s, .nseries = 3, .vlines = vl,
               .nvlines = 1, .vline_label = "target rates", .keys = &key,
               .nkeys = 1, .legend_outside = 1};
    char *svg = chart_svg(&c, NULL);
    assert_non_null(svg);
    assert_int_equal(count(svg, ">alpha<"), 1);
    assert_true(has_label(svg, "front"));
    assert_true(has_label(svg, "target rates"));
    assert_true(has_label(svg, "saturated"));
    assert_false(has_label(svg, "nothing drawable"));
    assert_true(has_label(svg, "#1"));
    assert_true(has_label(svg, "#3"));
    assert_true(has_label(svg, "0.02")); /* a plain-number tick label */
    free(svg);
}

/* Every group drawn ("dse-series" data-group) has its legend entry, a
 * series without a label of its own shares its group's; every point
 * carries a tooltip. */
static void test_groups_and_tips(void **state)
{
    (void)state;
    double x[] = {0.01, 0.02, 0.03}, y[] = {10, 20, 30}, t[] = {INFINITY};
    const char *tips[] = {"design A at 0.01", "design A at 0.02",
                          "design A at 0.03"};
    chart_series s[4] = {
        {.label = "A", .x = x, .y = y, .n = 3, .style = CHART_LINE,
         .dashed = 1, .group = 1},
        {.x = x, .y = y, .n = 3, .style = CHART_LINE_POINTS, .group = 1,
         .point_tips = tips},
        {.x = x + 2, .y = t, .n = 1, .style = CHART_POINTS, .group = 1,
         .marker = CHART_MARK_TRIANGLE},
        {.label = "B", .x = x, .y = y, .n = 3, .style = CHART_POINTS,
         .color = 1, .faint = 1},
    };
    chart c = {.title = "g", .series = s, .nseries = 4};
    char *svg = chart_svg(&c, NULL);
    assert_non_null(svg);
    assert_int_equal(count(svg, "class=\"dse-legend\""), 2);
    for (const char *p = strstr(svg, "class=\"dse-series\" data-group=\"");
         p; p = strstr(p + 1, "class=\"dse-series\" data-group=\"")) {
        int g = atoi(p + strlen("class=\"dse-series\" data-group=\""));
        char want[64];
        snprintf(want, sizeof want, "class=\"dse-legend\" data-group=\"%d\"", g);
        assert_non_null(strstr(svg, want));
    }
    /* 3 + 3 + 1 + 3 points, each with a tooltip */
    assert_int_equal(count(svg, "data-tip=\""), 10);
    assert_non_null(strstr(svg, "data-tip=\"design A at 0.02\""));
    assert_int_equal(count(svg, ">A<"), 1);
    free(svg);
}

/* Labels of a cluster of points never overlap each other. */
static void test_labels_do_not_overlap(void **state)
{
    (void)state;
    enum { N = 12 };
    double x[N], y[N];
    char names[N][8];
    const char *labels[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1 + 0.001 * i;
        y[i] = 100 + 0.1 * i;
        snprintf(names[i], sizeof names[i], "S%d", i + 1);
        labels[i] = names[i];
    }
    double far_x[] = {0, 3}, far_y[] = {50, 200};
    chart_series s[2] = {
        {.label = "cluster", .x = x, .y = y, .n = N, .style = CHART_POINTS,
         .point_labels = labels},
        {.label = "range", .x = far_x, .y = far_y, .n = 2,
         .style = CHART_LINE},
    };
    chart c = {.title = "crowd", .series = s, .nseries = 2};
    char *svg = chart_svg(&c, NULL);
    assert_non_null(svg);
    double bx[N], by[N], bw[N];
    int n = 0;
    for (const char *p = strstr(svg, "font-size=\"11\""); p && n < N;
         p = strstr(p + 1, "font-size=\"11\"")) {
        const char *tag = p;
        while (tag > svg && strncmp(tag, "<text", 5))
            tag--;
        assert_int_equal(sscanf(tag, "<text x=\"%lf\" y=\"%lf\"", &bx[n],
                                &by[n]),
                         2);
        const char *txt = strchr(p, '>') + 1;
        bw[n] = (double)(strchr(txt, '<') - txt) * 6.0;
        n++;
    }
    assert_int_equal(n, N);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            int overlap = bx[i] < bx[j] + bw[j] && bx[j] < bx[i] + bw[i] &&
                          fabs(by[i] - by[j]) < 11;
            if (overlap)
                fail_msg("labels %d and %d overlap", i, j);
        }
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_chart_with_error_bars),
        cmocka_unit_test(test_empty_and_log_chart),
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_legend_top_edge_and_labels),
        cmocka_unit_test(test_groups_and_tips),
        cmocka_unit_test(test_labels_do_not_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
