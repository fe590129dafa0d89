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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_chart_with_error_bars),
        cmocka_unit_test(test_empty_and_log_chart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
