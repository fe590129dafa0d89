/*
 * report.h — the report directory of an optimize run.
 *
 *   index.html      self-contained page: inline SVG charts (PLplot), tables
 *   report.md       the same content for a terminal or a repository
 *   candidates.csv  every scored design, one row each
 *   results.json    machine-readable, schema "dse-results" version 1
 *                   (docs/results-schema.md)
 *
 * Writing is atomic: everything goes to a fresh temporary directory beside
 * the target, which is renamed into place only when every file is complete,
 * so an interrupted or failed run never leaves a half report (an older
 * complete report stays until the new one replaces it).
 */
#ifndef DSE_REPORT_H
#define DSE_REPORT_H

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

/* "torus 32x32, V=3, w=8, duato" (short human label). */
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

/* What the report opens with (verdict.c): the recommendation and why, per
 * rate, the models' regret, how sure (caller frees each and the array). */
char **dse_report_verdict(const dse_run *r, size_t *count);
/* How the decision is made, one paragraph (static text). */
const char *dse_report_method(void);

/* Findings in plain sentences (caller frees each string and the array). */
char **dse_report_notes(const dse_run *r, size_t *count);

#endif
