/*
 * test_chart.c — charts come out as one well-formed inline <svg> element
 * with the labels in it; saturated (non-finite) points are skipped.
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

/* PLplot's svg device writes every character of a label as a hex
 * character reference, inside one tspan per run of text. */
static int has_label(const char *svg, const char *text)
{
    char encoded[512] = "", one[16];
    for (const char *p = text; *p; p++) {
        snprintf(one, sizeof one, "&#x%x;", (unsigned char)*p);
        strcat(encoded, one);
    }
    return strstr(svg, encoded) != NULL;
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
    assert_int_equal(count(svg, "&#x61;&#x6c;&#x70;&#x68;&#x61;"), 1); /* alpha */
    assert_true(has_label(svg, "front"));
    assert_true(has_label(svg, "target rates"));
    assert_true(has_label(svg, "saturated"));
    assert_false(has_label(svg, "nothing drawable"));
    assert_true(has_label(svg, "#1"));
    assert_true(has_label(svg, "#3"));
    assert_true(has_label(svg, "0.02")); /* a plain-number tick label */
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_chart_with_error_bars),
        cmocka_unit_test(test_empty_and_log_chart),
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_legend_top_edge_and_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
