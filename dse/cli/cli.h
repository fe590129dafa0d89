/*
 * cli.h — what every subcommand shares when talking to the user.
 */
#ifndef DSE_CLI_H
#define DSE_CLI_H

#include <stddef.h>

#include "net/err.h"
#include "net/net.h"
#include "net/topology.h"

/* Print e to stderr as "dse: FILE:LINE:COLUMN: PATH: message"; when it has a
 * file and line, also the source line and a caret under the column (like
 * gcc and jq). */
void dse_cli_print_error(const err *e);

/* Print "CMD: MESSAGE" on stderr for subcommand `cmd` ("dse sim", ...);
 * returns the exit status of bad usage, 2. */
__attribute__((format(printf, 2, 3))) int dse_cli_bad(const char *cmd,
                                                      const char *fmt, ...);

/* Option values for subcommand `cmd`: a finite number in [lo, hi] (hi may
 * be INFINITY), or an integer in [lo, hi].  On a bad value they print
 * "CMD: OPT: expected ..., got \"TEXT\"" on stderr and return the exit
 * status 2; on success 0 and *out set. */
int dse_cli_real(const char *cmd, const char *opt, const char *text, double lo,
                 double hi, double *out);
int dse_cli_long(const char *cmd, const char *opt, const char *text, long lo,
                 long hi, long *out);

/* A log callback for the long-running commands: prints
 * "YYYY-MM-DD HH:MM:SS CTX: LINE" on stderr, where ctx is the program name
 * as a const char * ("dse worker"). */
void dse_cli_log_line(void *ctx, const char *line);

/* Parse a list of injection rates: "A:B:STEP" (A, A+STEP, ... up to B
 * inclusive) or "R1,R2,...".  Every rate must be in (0, 1] (STEP > 0).  On
 * success 0 and *rates (caller frees) with *count entries; else ERR_INVALID
 * and a message naming the bad part in e. */
int dse_cli_parse_rates(const char *spec, double **rates, size_t *count,
                        err *e);

/* The single-key options every design-taking subcommand accepts:
 * --NAME VALUE means KEY=VALUE for the design or the workload (the keys of
 * net_design_set / net_workload_set). */
typedef struct dse_cli_key {
    const char *name;        /* option name without "--" */
    const char *key;         /* design or workload key */
    int design;              /* 1: design key, 0: workload key */
} dse_cli_key;

/* The options: the keys every design and workload has, then one per
 * topology parameter (net/topology.h, its `option` name); i below
 * DSE_CLI_NKEYS. */
#define DSE_CLI_NKEYS (16 + NET_PARAM_COUNT)
dse_cli_key dse_cli_key_at(size_t i);

/* out[0..nfixed-1] = fixed, then one required-argument option per design
 * key (value first_key + key index), then the terminating zero entry: out
 * must hold nfixed + DSE_CLI_NKEYS + 1 options. */
struct option;
void dse_cli_longopts_with_keys(const struct option *fixed, size_t nfixed,
                                int first_key, struct option *out);

/* SIGINT and SIGTERM call handler (which sets the command's stop flag). */
void dse_cli_catch_stop_signals(void (*handler)(int));

/* Apply one single-key option; 0 or ERR_INVALID / ERR_UNSUPPORTED. */
int dse_cli_apply_key(const dse_cli_key *k, const char *value, net_design *d,
                      net_workload *w, err *e);

#endif
