/*
 * vary.h — `dse optimize --vary KEY=V1,V2,...`: how the answer depends on
 * an assumption.  The decision runs once per value on a copy of the study
 * changed in that one key, sharing the executor and its result cache; each
 * run writes its full report to DIR/KEY=VALUE/, and DIR/index.html and
 * DIR/sensitivity.md ("How the answer depends on KEY") give, per value,
 * the recommendation, its figures and a link to its report, and where the
 * recommendation changes.
 */
#ifndef DSE_CLI_VARY_H
#define DSE_CLI_VARY_H

#include <stdio.h>

#include "dse/search/optimize.h"
#include "dse/study/cfg.h"

#define DSE_VARY_MAX 16
#define DSE_VARY_TEXT 64

typedef struct dse_vary {
    char key[DSE_VARY_TEXT];
    char values[DSE_VARY_MAX][DSE_VARY_TEXT];
    int n;
} dse_vary;

/* Keys --vary accepts, NULL-terminated (for help and errors). */
extern const char *const dse_vary_keys[];

/* Parse "KEY=V1,V2,...".  0, or ERR_INVALID with the reason in e. */
int dse_vary_parse(const char *arg, dse_vary *v, err *e);
/* Change s's key to value (checked as the study file would be).  0 or
 * ERR_INVALID. */
int dse_vary_apply(cfg_study *s, const char *key, const char *value, err *e);

/* One value's outcome, kept after its run is freed. */
typedef struct dse_vary_row {
    char value[DSE_VARY_TEXT];
    char label[200];            /* recommendation; "" when none */
    int router_delay;           /* its D_r */
    char clock[48];             /* the clock its latencies count: the
                                   study's, or under Chien's model the
                                   recommendation's own flit time */
    int own_clock;              /* designs have clocks of their own */
    double sim_saturation;      /* NaN when not simulated */
    double latency[8];          /* simulated (else model) at the first
                                   target rates; NaN when saturated */
    int simulated[8];
    size_t nrates;
    size_t feasible, nsimulated;
    int certified;
} dse_vary_row;

void dse_vary_row_of(const dse_run *r, const char *value, dse_vary_row *out);
/* The section as Markdown, and as a page linking each value's report. */
void dse_vary_write_md(FILE *out, const cfg_study *s, const dse_vary *v,
                       const dse_vary_row *rows);
void dse_vary_write_html(FILE *out, const cfg_study *s, const dse_vary *v,
                         const dse_vary_row *rows);
/* DIR/sensitivity.md and DIR/index.html, each written to a temporary file
 * renamed into place.  0 or ERR_IO. */
int dse_vary_write(const char *dir, const cfg_study *s, const dse_vary *v,
                   const dse_vary_row *rows, err *e);

#endif
