/*
 * report_table.h — the report's tables, built once and rendered as
 * Markdown (report.md) or HTML (index.html), so the two reports can never
 * show different numbers.
 */
#ifndef DSE_REPORT_TABLE_H
#define DSE_REPORT_TABLE_H

#include <stdio.h>

#include "dse/report/report.h"

typedef struct rtable {
    size_t ncols;
    size_t ncells, cap;      /* header row first, row-major */
    char **cells;
} rtable;

void rtable_init(rtable *t, size_t ncols);
void rtable_fini(rtable *t);
/* Append one cell (printf-style); rows fill left to right. */
void rtable_cell(rtable *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rtable_md(const rtable *t, FILE *out);
void rtable_html(const rtable *t, FILE *out);

/* The tables of a run. */
void report_table_settings(const dse_run *r, rtable *t);
void report_table_finalists(const dse_run *r, rtable *t);
void report_table_finalist_points(const dse_run *r, rtable *t);
void report_table_best(const dse_run *r, rtable *t);
void report_table_space(const dse_run *r, rtable *t);
void report_table_tradeoff(const dse_run *r, rtable *t); /* report_tradeoff.c */
/* The question the trade-off table answers, and how to read it. */
const char *report_tradeoff_question(void);
void report_table_decision(const dse_run *r, rtable *t);      /* verdict.c */
void report_table_disagreements(const dse_run *r, rtable *t); /* verdict.c */

/* Texts both reports print: the note under the finalists table and how the
 * ranking works (static strings). */
const char *report_finalists_note(void);
const char *report_ranking_text(void);

/* Escape text for HTML. */
void html_text(FILE *out, const char *s);
/* <ul> of n owned strings (dse_report_line_add's), escaped; frees each and
 * the array (report_html.c). */
void html_list(FILE *out, char **items, size_t n);

#endif
