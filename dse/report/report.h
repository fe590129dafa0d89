/*
 * report.h — the report directory of an optimize run.
 *
 *   index.html      self-contained page: inline SVG charts (PLplot), tables
 *   report.md       the same content for a terminal or a repository
 *   candidates.csv  every scored design, one row each
 *   results.json    machine-readable, schema "dse-results" version 1
 *                   (docs/results-schema.md)
 *   curves.csv,     every curve of index.html, model and simulated points
 *   curves.json     (written with csv and json respectively;
 *                   report_curves.h, docs/results-schema.md)
 *
 * Writing is atomic: everything goes to a fresh temporary directory beside
 * the target, which is renamed into place only when every file is complete,
 * so an interrupted or failed run never leaves a half report (an older
 * complete report stays until the new one replaces it).
 */
#ifndef DSE_REPORT_H
#define DSE_REPORT_H

#include <stdarg.h>
#include <stdio.h>

#include "dse/search/optimize.h"

#define DSE_RESULTS_SCHEMA "dse-results"
#define DSE_RESULTS_VERSION 2

/* The file that marks a directory as a dse report (every report has it):
 * dse replaces a directory holding it, and no other non-empty one. */
#define DSE_REPORT_MARKER ".dse-report"

/* Whether a report may be written to dir: 0 when dir does not exist, is
 * an empty directory, or is a report dse wrote (DSE_REPORT_MARKER);
 * ERR_CONFIG with the reason when it is a symbolic link, not a directory,
 * "/", "." or "..", or a directory of other things.  Call it before any
 * work starts; dse_report_write calls it again. */
int dse_report_dir_check(const char *dir, err *e);

/* Write the formats the study asks for into dir (plus DSE_REPORT_MARKER),
 * replacing an older report there.  0, ERR_CONFIG (dse_report_dir_check
 * refused dir; nothing is touched) or ERR_IO. */
int dse_report_write(const dse_run *r, const char *dir, err *e);

/* The individual writers (to an open stream). */
int dse_report_json(const dse_run *r, FILE *out, int with_timings, err *e);
int dse_report_csv(const dse_run *r, FILE *out, err *e);
int dse_report_md(const dse_run *r, FILE *out, err *e);
int dse_report_html(const dse_run *r, FILE *out, err *e);

/* ---- shared by the writers ---------------------------------------------- */

/* The CSS of a report page (index.html, and the page of a --vary run):
 * readable at any width, wide tables scrolling in a .scroll box. */
const char *dse_report_page_style(void);

/* "torus 32x32, V=3, B=4, w=8, duato": a short human label that names
 * every parameter the design space varies (radix, VCs V, buffer depth B in
 * flits per VC, width w, switching, routing, express m and kn), so two
 * designs of one study never print the same label.  Router delay and
 * ejection channels are the study's and are left out. */
void dse_design_label(const net_design *d, char *buf, size_t size);

/* For target rate index ri: per topology, the candidate with the lowest
 * model latency at that rate (SIZE_MAX when none is finite). */
void dse_report_best_by_topology(const dse_run *r, size_t ri,
                                 size_t best[NET_TOPOLOGY_COUNT]);

/* The latency the report states for c at target rate ri: the simulated
 * mean where c was simulated there (INFINITY where it saturated), else the
 * model's (INFINITY where it saturated); *simulated (may be NULL) says
 * which. */
double dse_report_latency(const dse_candidate *c, size_t ri, int *simulated);

/* The figure the decision ranks c on at target rate ri (the study's mean
 * or percentile latency, cfg_rank_stat), simulated: INFINITY where c
 * saturated there, NAN where c was not simulated; *half_width (may be
 * NULL) its 95% half-width. */
double dse_report_ranked(const cfg_study *s, const dse_candidate *c,
                         size_t ri, double *half_width);
/* Its name for a sentence or an axis: "latency" for the mean, else "p99
 * latency" and the like. */
const char *dse_report_ranked_name(const cfg_study *s);

/* The clock period, in ns, the study's router model gives d: under
 * Chien's model its router's flit time; NAN when every design of the study
 * shares one clock (fixed, peh_dally) or d's shape is refused
 * (report_clock.c). */
double dse_report_clock_ns(const cfg_study *s, const net_design *d);
/* When the study's designs have different clocks: the range, the
 * reference clock the decision compares them in (every latency and rate
 * in its cycles, so ranked in time), and each target rate where the best
 * design in time is not the best in cycles of each design's own clock.
 * Nothing otherwise. */
void dse_report_clock_lines(const dse_run *r, char ***lines, size_t *count);

/* What the report opens with (verdict.c): the recommendation and why, per
 * rate, the models' regret, how sure (caller frees each and the array). */
char **dse_report_verdict(const dse_run *r, size_t *count);

/* A printf-formatted string of any length (caller frees). */
char *dse_report_vformat(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* Append a printf-formatted line to a growing array of owned strings
 * (findings, verdict sentences), never truncated. */
void dse_report_line_add(char ***lines, size_t *count, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* CSV cells (report_csv.c): ",number" (empty when not finite) and
 * ",\"text\"" with RFC 4180 quoting. */
void dse_csv_num(FILE *out, double v);
void dse_csv_text(FILE *out, const char *s);

/* Findings in plain sentences (caller frees each string and the array). */
char **dse_report_notes(const dse_run *r, size_t *count);

#endif
